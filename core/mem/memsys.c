/* The memory system's glue: configuration checks, the request pool and the public entry
 * points. The ports, L2 slices, DRAM channels and address mapping live in memsys_icnt.c,
 * memsys_l2.c, memsys_dram.c and memsys_map.c, the event queue in memsys_events.c. */
#include "core/mem/memsys.h"
#include "core/mem/memsys_internal.h"
#include "core/util/bits.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n);
    if (!q) {
        /* Growth happens only while the simulated load rises; running out of memory there
         * cannot be reported through the void tick interface. */
        fprintf(stderr, "warptune: memsys: out of memory\n");
        abort();
    }
    return q;
}

/* A clock in whole kHz, or 0 when it is not one (to a part in 10^9). */
static uint64_t clock_khz(double mhz)
{
    double k = mhz * 1000.0, r = (double)(uint64_t)(k + 0.5), e = k > r ? k - r : r - k;
    return e <= 1e-9 * r ? (uint64_t)r : 0;
}

static uint64_t gcd_u64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

uint64_t ms_edge_div(const ms_clock *k, uint64_t t)
{
    if (t == MS_NEVER) return t;
    return (uint64_t)(((unsigned __int128)t * k->d + k->n - 1) / k->n);
}

uint64_t ms_core_div(const ms_clock *k, uint64_t e)
{
    if (e == MS_NEVER) return e;
    return (uint64_t)(((unsigned __int128)e * k->n + k->d - 1) / k->d);
}

/* The domain clock of dom_mhz against the core's (either 0: the same clock). */
static ms_clock make_clock(double core_mhz, double dom_mhz)
{
    ms_clock k = {1, 1};
    if (core_mhz == 0 || dom_mhz == 0) return k;
    uint64_t c = clock_khz(core_mhz), d = clock_khz(dom_mhz), g = gcd_u64(c, d);
    k.n = c / g; /* core cycles per domain cycle: c / d */
    k.d = d / g;
    return k;
}

static int check_config(const memsys_config *c, char *err, size_t errlen)
{
#define BAD(...)                                                                                   \
    do {                                                                                           \
        if (err && errlen) snprintf(err, errlen, __VA_ARGS__);                                     \
        return -1;                                                                                 \
    } while (0)
    if (c->num_sms < 1 || c->num_sms > 65535)
        BAD("memsys: num_sms must be in 1..65535 (got %d)", c->num_sms);
    if (c->icnt_latency < 1) BAD("memsys: icnt_latency must be >= 1 (got %d)", c->icnt_latency);
    if (c->icnt_bytes_per_cycle < 1)
        BAD("memsys: icnt_bytes_per_cycle must be >= 1 (got %d)", c->icnt_bytes_per_cycle);
    if (c->icnt_header_bytes < 0)
        BAD("memsys: icnt_header_bytes must be >= 0 (got %d)", c->icnt_header_bytes);
    if (c->icnt_sm_queue < 1) BAD("memsys: icnt_sm_queue must be >= 1 (got %d)", c->icnt_sm_queue);
    if (c->partitions < 1 || c->partitions > 4096)
        BAD("memsys: partitions must be in 1..4096 (got %d)", c->partitions);
    if (c->icnt_reply_crossbar && c->partitions > 64) /* its step keeps partition sets in words */
        BAD("memsys: icnt_reply_crossbar takes at most 64 partitions (got %d)", c->partitions);
    if (!wt_is_pow2(c->l2_sets))
        BAD("memsys: l2_sets must be a power of two >= 1 (got %d)", c->l2_sets);
    if (c->l2_ways < 1 || c->l2_ways > 1024)
        BAD("memsys: l2_ways must be in 1..1024 (got %d)", c->l2_ways);
    if (!wt_is_pow2(c->l2_line) || c->l2_line < 4)
        BAD("memsys: l2_line must be a power of two >= 4 bytes (got %d)", c->l2_line);
    if (c->l2_hit_latency < 1)
        BAD("memsys: l2_hit_latency must be >= 1 (got %d)", c->l2_hit_latency);
    if (c->l2_mshrs < 1 || c->l2_mshrs > 65535)
        BAD("memsys: l2_mshrs must be in 1..65535 (got %d)", c->l2_mshrs);
    if (c->l2_line > 32768) BAD("memsys: l2_line must be at most 32768 bytes (got %d)", c->l2_line);
    if (c->l2_sectored && (c->l2_line < 32 || c->l2_line > 256))
        BAD("memsys: a sectored L2 needs lines of 1 to 8 sectors of 32 bytes (got %d bytes)",
            c->l2_line);
    if (!wt_is_pow2(c->dram_banks))
        BAD("memsys: dram_banks must be a power of two >= 1 (got %d)", c->dram_banks);
    if (!wt_is_pow2(c->dram_row_bytes) || c->dram_row_bytes < c->l2_line)
        BAD("memsys: dram_row_bytes must be a power of two >= l2_line (got %d)", c->dram_row_bytes);
    /* A miss that evicts a dirty line needs two slots at once (the fill read and the write). */
    if (c->dram_queue < 2) BAD("memsys: dram_queue must be >= 2 (got %d)", c->dram_queue);
    if (c->dram_bytes_per_cycle < 1)
        BAD("memsys: dram_bytes_per_cycle must be >= 1 (got %d)", c->dram_bytes_per_cycle);
    if (c->dram_t_cl < 1) BAD("memsys: dram_t_cl must be >= 1 (got %d)", c->dram_t_cl);
    if (c->dram_latency < 0) BAD("memsys: dram_latency must be >= 0 (got %d)", c->dram_latency);
    if (c->dram_t_rcd < 0) BAD("memsys: dram_t_rcd must be >= 0 (got %d)", c->dram_t_rcd);
    if (c->dram_t_rp < 0) BAD("memsys: dram_t_rp must be >= 0 (got %d)", c->dram_t_rp);
    if (c->dram_t_ras < 0) BAD("memsys: dram_t_ras must be >= 0 (got %d)", c->dram_t_ras);
    if (c->dram_t_rrd < 0 || c->dram_t_rc < 0 || c->dram_t_ccdl < 0 || c->dram_t_rtpl < 0 ||
        c->dram_t_rtw < 0 || c->dram_t_wtr < 0 || c->dram_t_wtp < 0)
        BAD("memsys: dram_t_rrd, t_rc, t_ccdl, t_rtpl, t_rtw, t_wtr and t_wtp must be >= 0");
    if (c->dram_bank_groups < 0 || c->dram_bank_groups > MS_MAX_BANK_GROUPS ||
        (c->dram_bank_groups > 1 && c->dram_banks % c->dram_bank_groups != 0))
        BAD("memsys: dram_bank_groups must be in 0..%d and divide dram_banks (got %d of %d)",
            MS_MAX_BANK_GROUPS, c->dram_bank_groups, c->dram_banks);
    if (c->dram_inflight && c->dram_inflight < c->dram_queue)
        BAD("memsys: dram_inflight must be 0 or at least dram_queue (got %d, queue %d)",
            c->dram_inflight, c->dram_queue);
    if (c->dram_bank_bit && (c->dram_banks < 2 || (1 << c->dram_bank_bit) < c->l2_line ||
                             (1 << c->dram_bank_bit) >= c->dram_row_bytes))
        BAD("memsys: dram_bank_bit must be 0 or put the lowest bank bit inside the row, at or "
            "above the L2 line, with at least 2 banks (got bit %d, %d-byte lines and rows of %d "
            "bytes, %d banks)",
            c->dram_bank_bit, c->l2_line, c->dram_row_bytes, c->dram_banks);
    if (c->l2_slices_per_channel < 0 || c->l2_slices_per_channel > 64 ||
        (c->l2_slices_per_channel > 1 && c->partitions % c->l2_slices_per_channel != 0))
        BAD("memsys: l2_slices_per_channel must be in 0..64 and divide partitions (got %d of %d)",
            c->l2_slices_per_channel, c->partitions);
    if (c->l2_rop_latency < 0)
        BAD("memsys: l2_rop_latency must be >= 0 (got %d)", c->l2_rop_latency);
    const double mhz[4] = {c->core_mhz, c->icnt_mhz, c->l2_mhz, c->dram_mhz};
    const char *const names[4] = {"core", "icnt", "l2", "dram"};
    for (int i = 0; i < 4; i++)
        if (!(mhz[i] == 0 || (mhz[i] >= 1 && mhz[i] <= 1e6 && clock_khz(mhz[i]) > 0)))
            BAD("memsys: %s clock must be 0 (the core clock) or 1..1e6 MHz in whole kHz (got %g)",
                names[i], mhz[i]);
#undef BAD
    return ms_map_check(c, err, errlen);
}

int memsys_create(memsys **out, const memsys_config *cfg, char *err, size_t errlen)
{
    *out = NULL;
    if (!cfg) {
        if (err && errlen) snprintf(err, errlen, "memsys: no configuration");
        return -1;
    }
    if (check_config(cfg, err, errlen)) return -1;
    memsys *m = calloc(1, sizeof *m);
    if (!m) goto oom;
    m->cfg = *cfg;
    m->clk_icnt = make_clock(cfg->core_mhz, cfg->icnt_mhz);
    m->clk_l2 = make_clock(cfg->core_mhz, cfg->l2_mhz);
    m->clk_dram = make_clock(cfg->core_mhz, cfg->dram_mhz);
    m->slices = cfg->l2_slices_per_channel > 1 ? (uint32_t)cfg->l2_slices_per_channel : 1;
    m->line_shift = ms_log2((uint64_t)cfg->l2_line);
    m->set_mask = (uint64_t)cfg->l2_sets - 1;
    /* About two hints per line of a slice, capped: a hint is only a guess, checked by its tag */
    uint64_t lines = (uint64_t)cfg->l2_sets * (uint64_t)cfg->l2_ways * 2;
    m->hint_mask = 1;
    while (m->hint_mask < lines && m->hint_mask < (1u << 16))
        m->hint_mask <<= 1;
    m->hint_mask--;
    m->lines_per_row = (uint64_t)(cfg->dram_row_bytes / cfg->l2_line);
    m->row_shift = ms_log2(m->lines_per_row);
    m->bank_mask = (uint64_t)cfg->dram_banks - 1;
    m->bank_shift = ms_log2((uint64_t)cfg->dram_banks);
    m->pend_cap = cfg->dram_inflight ? cfg->dram_inflight : cfg->dram_queue;
    m->burst = ((uint64_t)cfg->l2_line + (uint64_t)cfg->dram_bytes_per_cycle - 1) /
               (uint64_t)cfg->dram_bytes_per_cycle;
    m->parts = calloc((size_t)cfg->partitions, sizeof *m->parts);
    m->sms = calloc((size_t)cfg->num_sms, sizeof *m->sms);
    m->reply_mask = calloc(((size_t)cfg->num_sms + 63) / 64, sizeof *m->reply_mask);
    m->ser_tab = malloc((MS_SER_TAB + 1) * sizeof *m->ser_tab);
    if (!m->parts || !m->sms || !m->reply_mask || !m->ser_tab) goto oom;
    for (uint32_t b = 0; b <= MS_SER_TAB; b++)
        m->ser_tab[b] = (uint32_t)ms_ser_div(m, b);
    m->part_recip = UINT64_MAX / (uint64_t)cfg->partitions + 1; /* unused when P = 1 */
    ms_map_init(m);
    for (int i = 0; i < cfg->partitions; i++) {
        ms_part *p = &m->parts[i];
        p->in_head = p->in_tail = p->in_rop = MS_NIL;
        p->rq_head = p->rq_tail = MS_NIL;
        if (ms_l2_init(m, p) || ms_dram_init(m, p)) goto oom;
    }
    for (int i = 0; i < cfg->num_sms; i++) {
        ms_sm *s = &m->sms[i];
        s->inj = calloc((size_t)cfg->icnt_sm_queue, sizeof *s->inj);
        if (!s->inj) goto oom;
        s->rep_head = s->rep_tail = MS_NIL;
        s->memo_line = MS_NO_TAG;
    }
    if (cfg->icnt_crossbar && ms_xbar_init(m)) goto oom;
    if (cfg->icnt_reply_crossbar && ms_rxbar_init(m)) goto oom;
    m->req_free = MS_NIL;
    if (ms_eq_init(m)) goto oom;
    *out = m;
    return 0;
oom:
    memsys_destroy(m);
    if (err && errlen) snprintf(err, errlen, "memsys: out of memory");
    return -1;
}

void memsys_destroy(memsys *m)
{
    if (!m) return;
    if (m->parts)
        for (int i = 0; i < m->cfg.partitions; i++) {
            ms_l2_free(&m->parts[i]);
            ms_dram_free(&m->parts[i]);
        }
    if (m->sms)
        for (int i = 0; i < m->cfg.num_sms; i++) {
            free(m->sms[i].inj);
            free(m->sms[i].dlog);
        }
    ms_xbar_free(m);
    ms_rxbar_free(m);
    free(m->parts);
    free(m->sms);
    free(m->reply_mask);
    free(m->ser_tab);
    free(m->reqs);
    ms_eq_free(m);
    free(m);
}

/* ---- request pool ---- */

uint32_t ms_req_alloc(memsys *m)
{
    if (m->req_free == MS_NIL) {
        uint32_t old = m->req_cap, cap = old ? old * 2 : 256;
        m->reqs = xrealloc(m->reqs, (size_t)cap * sizeof *m->reqs);
        for (uint32_t i = cap; i-- > old;) {
            m->reqs[i].next = m->req_free;
            m->req_free = i;
        }
        m->req_cap = cap;
    }
    uint32_t r = m->req_free;
    m->req_free = m->reqs[r].next;
    m->reqs[r].next = MS_NIL;
    m->live_reqs++;
    return r;
}

void ms_req_free(memsys *m, uint32_t r)
{
    m->reqs[r].next = m->req_free;
    m->req_free = r;
    m->live_reqs--;
}

/* ---- packet sizes ---- */

/* Data carried SM -> partition: the payload of a write, the 4-byte operand of an atomic. */
uint32_t ms_req_bytes(const mem_packet *p)
{
    return p->kind == MEM_WRITE ? p->bytes : p->kind == MEM_ATOMIC ? 4u : 0u;
}

/* Data carried partition -> SM: `bytes` for a read, the 4-byte old value for an atomic, none
 * for a write's acknowledgement. */
uint32_t ms_reply_bytes(const mem_packet *p)
{
    return p->kind == MEM_ATOMIC ? 4u : p->kind == MEM_WRITE ? 0u : p->bytes;
}

/* ms_ser by division: fills its table, and serves sizes beyond it. */
uint64_t ms_ser_div(const memsys *m, uint32_t data_bytes)
{
    uint64_t b = (uint64_t)m->cfg.icnt_header_bytes + data_bytes;
    uint64_t bpc = (uint64_t)m->cfg.icnt_bytes_per_cycle;
    uint64_t c = (b + bpc - 1) / bpc;
    return c ? c : 1;
}

/* ---- public interface ---- */

uint32_t memsys_slice_of(const memsys *m, uint64_t addr)
{
    uint32_t part, set;
    uint64_t local;
    ms_map_line(m, addr >> m->line_shift, &part, &local, &set);
    return part;
}

int memsys_send_bounded(const memsys *m)
{
    return m->cfg.icnt_crossbar && m->cfg.icnt_sm_buffer;
}

/* icnt_sm_buffer: the SM's packets not yet granted fill its share of the network. */
static inline int buffer_full(const memsys *m, const ms_sm *s)
{
    return memsys_send_bounded(m) && s->xb_n >= (uint32_t)m->cfg.icnt_sm_buffer;
}

int memsys_can_send(const memsys *m, int sm, uint64_t now)
{
    if (sm < 0 || sm >= m->cfg.num_sms) return 0;
    const ms_sm *s = &m->sms[sm];
    /* a full buffer in the network frees only as the crossbar grants (the tick, before any SM
     * steps: the count is the SM's own within its step) */
    if (buffer_full(m, s)) return 0;
    /* The ring holds, for the last Q sends in order, the cycle each one's place frees; Q of
     * them still held means the oldest is still held. */
    return s->inj_n < m->cfg.icnt_sm_queue || s->inj[s->inj_head] <= now;
}

uint64_t memsys_send_ready(const memsys *m, int sm, uint64_t now)
{
    const ms_sm *s = &m->sms[sm];
    /* a grant frees the buffer at a time only the shared phase knows: try each cycle */
    if (buffer_full(m, s) || s->inj_n < m->cfg.icnt_sm_queue) return now + 1;
    uint64_t t = s->inj[s->inj_head];
    return t > now ? t : now + 1;
}

int memsys_send_slots(const memsys *m, int sm, uint64_t now, int max)
{
    if (sm < 0 || sm >= m->cfg.num_sms) return 0;
    const ms_sm *s = &m->sms[sm];
    if (memsys_send_bounded(m)) {
        int room = m->cfg.icnt_sm_buffer - (int)s->xb_n;
        if (room <= 0) return 0;
        if (room < max) max = room;
    }
    const int Q = m->cfg.icnt_sm_queue;
    int n = Q - s->inj_n; /* free slots; then each held place whose time has come */
    if (n >= max) return max;
    /* The times are in send order and never decrease (ms_icnt_start): when the newest has
     * passed, all have, and every slot is free. A busy stream of sends finds that often. */
    int last = s->inj_head + s->inj_n - 1;
    if (s->inj_n && s->inj[last >= Q ? last - Q : last] <= now) return Q < max ? Q : max;
    for (int k = 0; n < max && k < s->inj_n; k++) {
        int slot = s->inj_head + k;
        if (s->inj[slot >= Q ? slot - Q : slot] > now) break;
        n++;
    }
    return n < max ? n : max;
}

/* The shared part of a send: request r, injecting from icnt cycle start, joins the
 * interconnect. */
static inline void send_shared(memsys *m, uint32_t r, uint64_t start, uint64_t now)
{
    ms_icnt_enter(m, r, start);
    /* A queue slot frees when this packet starts injecting (icnt_sm_queue_hold cycles later);
     * the caller may be waiting for it. */
    uint64_t freed = ms_core(&m->clk_icnt, start) + (uint64_t)m->cfg.icnt_sm_queue_hold;
    if (freed > now) ms_push_wake(m, freed);
}

/* The SM's own part of a send (its port, its mapping memo: all an SM stepping on its own thread
 * may touch): fills request q for packet p sent at now and takes its turn on the SM's injection
 * port. Returns the icnt cycle it starts injecting. */
static inline uint64_t send_own(memsys *m, ms_req *q, const mem_packet *p, uint64_t now)
{
    q->pkt = *p;
    q->pkt.sent_cycle = now;
    q->line = p->addr >> m->line_shift;
    q->next = MS_NIL;
    ms_sm *s = &m->sms[p->sm];
    if (m->cfg.l2_map == L2_MAP_interleave) {
        ms_map_line(m, q->line, &q->part, &q->local, &q->set);
    } else {
        if (q->line != s->memo_line) {
            ms_map_line_gpgpusim(m, q->line, &s->memo_part, &s->memo_local, &s->memo_set);
            s->memo_line = q->line;
        }
        q->part = s->memo_part;
        q->local = s->memo_local;
        q->set = s->memo_set;
    }
    if (p->next_line) { /* the next line's set and place, in this line's slice */
        uint32_t home;
        q->line++;
        ms_map_line(m, q->line, &home, &q->local, &q->set);
    }
    uint64_t start = ms_icnt_start(m, q, now);
    s->xb_n += memsys_send_bounded(m) != 0;
    int Q = m->cfg.icnt_sm_queue;
    if (s->inj_n == Q) {
        s->inj_head = s->inj_head + 1 == Q ? 0 : s->inj_head + 1;
        s->inj_n--;
    }
    int slot = s->inj_head + s->inj_n; /* both below Q: no division for the wrap */
    s->inj[slot >= Q ? slot - Q : slot] =
        ms_core(&m->clk_icnt, start) + (uint64_t)m->cfg.icnt_sm_queue_hold;
    s->inj_n++;
    return start;
}

/* Appends to SM sm's deferred log. */
static void defer(memsys *m, int sm, const ms_deferred *d)
{
    ms_sm *s = &m->sms[sm];
    if (s->dlog_n == s->dlog_cap) {
        s->dlog_cap = s->dlog_cap ? 2 * s->dlog_cap : 16;
        s->dlog = xrealloc(s->dlog, s->dlog_cap * sizeof *s->dlog);
    }
    s->dlog[s->dlog_n++] = *d;
}

int memsys_send(memsys *m, const mem_packet *p, uint64_t now)
{
    if (!memsys_can_send(m, p->sm, now)) return -1;
    if (m->deferred) {
        ms_deferred d;
        d.start = send_own(m, &d.req, p, now);
        d.freed = MS_NIL;
        defer(m, p->sm, &d);
        return 0;
    }
    uint32_t r = ms_req_alloc(m);
    send_shared(m, r, send_own(m, &m->reqs[r], p, now), now);
    return 0;
}

void memsys_defer(memsys *m, int on)
{
    m->deferred = on != 0;
}

void memsys_flush(memsys *m, int sm, uint64_t now)
{
    ms_sm *s = &m->sms[sm];
    for (uint32_t i = 0; i < s->dlog_n; i++) {
        const ms_deferred *d = &s->dlog[i];
        if (d->freed != MS_NIL) {
            ms_req_free(m, d->freed);
        } else {
            uint32_t r = ms_req_alloc(m);
            m->reqs[r] = d->req;
            send_shared(m, r, d->start, now);
        }
    }
    s->dlog_n = 0;
}

void memsys_tick(memsys *m, uint64_t now)
{
    /* next_ev is exact on entry (a push lowers it, the loop below sets it), so the cycle to
     * take is known without a search; only after a cycle's events does the wheel get scanned. */
    for (;;) {
        uint64_t t = m->next_ev;
        if (t > now || t == MS_NEVER) break;
        uint32_t tail, head = ms_eq_take(m, t, &tail);
        uint64_t taken = 0;
        for (uint32_t n = head; n != MS_NIL; taken++) {
            ms_enode e = m->en[n]; /* a push below may move the node pool */
            n = e.next;
            switch ((ms_ev_type)e.type) {
            case EV_WAKE:
                break;
            case EV_PART_ARRIVE:
                ms_icnt_part_arrive(m, e.a, t);
                break;
            case EV_L2_PROCESS:
                ms_l2_process(m, e.a, t);
                break;
            case EV_DRAM_SCHED:
                ms_dram_sched(m, e.a, e.b, t);
                break;
            case EV_DRAM_DONE:
                ms_l2_fill(m, e.a, e.b, t);
                break;
            case EV_DRAM_ARRIVE:
                ms_dram_arrive(m, e.a, t);
                break;
            case EV_REPLY_READY:
                ms_icnt_reply_ready(m, e.a, t);
                break;
            case EV_SM_ARRIVE:
                ms_icnt_sm_arrive(m, e.a, t);
                break;
            case EV_DELIVER:
                ms_icnt_deliver(m, e.a);
                break;
            case EV_XBAR:
                ms_xbar_step(m, e.b, t);
                break;
            case EV_RXBAR:
                ms_rxbar_step(m, e.b, t);
                break;
            }
        }
        ms_eq_taken(m, t, head, tail, taken);
    }
    /* Everything up to now is done: slide the window so it covers the future. */
    if (now != MS_NEVER && now + 1 > m->cur) ms_eq_set_cur(m, now + 1);
}

int memsys_pop_reply(memsys *m, int sm, uint64_t now, mem_packet *p)
{
    if (sm < 0 || sm >= m->cfg.num_sms) return 0;
    ms_sm *s = &m->sms[sm];
    uint32_t r = s->rep_head;
    /* Delivered replies carry their arrival cycle in `ready`; all are <= the last tick. */
    if (r == MS_NIL || m->reqs[r].ready > now) return 0;
    s->rep_head = m->reqs[r].next;
    if (s->rep_head == MS_NIL) {
        s->rep_tail = MS_NIL;
        m->reply_mask[sm >> 6] &= ~(1ull << (sm & 63));
    }
    *p = m->reqs[r].pkt;
    if (m->deferred) /* the pool is shared: freed in the SM's turn, where it would have been */
        defer(m, sm, &(ms_deferred){.freed = r});
    else
        ms_req_free(m, r);
    return 1;
}

const uint64_t *memsys_reply_mask(const memsys *m)
{
    return m->reply_mask;
}

uint64_t memsys_next_event(const memsys *m, uint64_t now)
{
    if (!memsys_busy(m)) return MS_NEVER;
    uint64_t t = m->next_ev; /* exact: see memsys_internal.h */
    if (t == MS_NEVER) return MS_NEVER;
    return t > now ? t : now + 1;
}

uint64_t memsys_progress(const memsys *m)
{
    return m->st.l2_accesses + m->st.dram_reads + m->st.dram_writes;
}

int memsys_busy(const memsys *m)
{
    return m->live_reqs > 0 || m->dram_queued > 0;
}

double memsys_peak_dram_bandwidth(const memsys *m)
{
    /* DRAM cycles per core cycle: d / n */
    return (double)(m->cfg.partitions / (int)m->slices) * (double)m->cfg.dram_bytes_per_cycle *
           (double)m->clk_dram.d / (double)m->clk_dram.n;
}

void memsys_warm(memsys *m, uint64_t addr, uint32_t bytes, int write)
{
    uint32_t part, set;
    uint64_t local, line = addr >> m->line_shift;
    ms_map_line(m, line, &part, &local, &set);
    mem_packet pk = {0};
    pk.addr = addr;
    pk.bytes = bytes;
    pk.kind = write ? MEM_WRITE : MEM_READ;
    ms_l2_warm(m, part, line, local, set, ms_req_sectors(m, &pk), write);
}

void memsys_get_stats(const memsys *m, memsys_stats *out)
{
    *out = m->st;
}
