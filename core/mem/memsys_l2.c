/* One L2 slice per memory partition: l2_sets x l2_ways x l2_line, LRU, write-back.
 *
 * - The slice accepts at most one request per cycle, in arrival order, from its input queue
 *   (with l2_sector_cycles, a request of k sectors holds it for k L2 cycles).
 *   A request that cannot be accepted (no free MSHR, every way of its set reserved for a fill,
 *   or too few DRAM queue slots for its fill and the dirty victim's write-back) stays at the
 *   head of the queue and blocks the ones behind it until a fill or a DRAM issue wakes the
 *   slice: backpressure, nothing is dropped, and no cycle is spent polling.
 * - Reads and atomics: a hit replies l2_hit_latency cycles after acceptance. A miss reserves a
 *   victim line at once (allocate on miss; a dirty victim becomes a DRAM write), takes an MSHR
 *   and sends one line-sized DRAM read; later misses to the reserved line merge into that MSHR,
 *   up to l2_mshr_merge requests in it (beyond, the request waits at the head for a fill).
 *   When the fill arrives every waiter replies l2_hit_latency cycles later (the data path
 *   latency is charged once, on the way out, for hits and fills alike). A read of a 32-byte
 *   segment fills the whole line; its reply carries only `bytes`.
 * - Atomics are read-modify-writes performed at the L2: a hit (or a fill) replies after
 *   l2_hit_latency and leaves the line dirty.
 * - Writes: write-back with write-allocate; a write to a missing line allocates it without
 *   fetching it from DRAM (the timing model assumes the write covers what is read later) and
 *   marks it dirty. A write to a line whose fill is in flight just marks it dirty. It gets no
 *   reply, or with write_acks an acknowledgement when a read hit would reply (GPGPU-Sim's
 *   memory_sub_partition::cache_cycle replies to a write at its L2 access, hit or miss, with
 *   lazy fetch-on-read).
 * Statistics: a hit is a valid line found; everything else, merges into an MSHR included, is a
 * miss.
 * Timing counts in L2 cycles (ms_clock clk_l2): acceptance happens on an L2 edge, at most one
 * per L2 cycle, and l2_hit_latency is L2 cycles. */
#include "core/mem/memsys_internal.h"
#include "core/util/bits.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

int ms_l2_init(memsys *m, ms_part *p)
{
    const memsys_config *c = &m->cfg;
    p->lines = calloc((size_t)c->l2_sets * (size_t)c->l2_ways, sizeof *p->lines);
    p->mshrs = calloc((size_t)c->l2_mshrs, sizeof *p->mshrs);
    p->mshr_free = calloc((size_t)c->l2_mshrs, sizeof *p->mshr_free);
    p->hint = calloc(m->hint_mask + 1, sizeof *p->hint);
    if (!p->lines || !p->mshrs || !p->mshr_free || !p->hint) return -1;
    if (c->l2_sectored) {
        p->smshr = calloc((size_t)c->l2_sets * (size_t)c->l2_ways * (size_t)(c->l2_line / 32),
                          sizeof *p->smshr);
        if (!p->smshr) return -1;
    }
    if (c->l2_lazy_fetch) {
        p->wbytes = calloc((size_t)c->l2_sets * (size_t)c->l2_ways * (size_t)(c->l2_line / 32),
                           sizeof *p->wbytes);
        if (!p->wbytes) return -1;
    }
    for (size_t i = 0; i < (size_t)c->l2_sets * (size_t)c->l2_ways; i++)
        p->lines[i].tag = MS_NO_TAG;
    for (int i = 0; i < c->l2_mshrs; i++)
        p->mshr_free[i] = (uint32_t)(c->l2_mshrs - 1 - i);
    p->mshr_nfree = c->l2_mshrs;
    p->retry_way = -1;
    return 0;
}

void ms_l2_free(ms_part *p)
{
    free(p->lines);
    free(p->mshrs);
    free(p->mshr_free);
    free(p->hint);
    free(p->smshr);
    free(p->wbytes);
}

/* The L2 takes request r, the head of slice part's input queue, at t. */
static void input_pop(memsys *m, uint32_t part, uint32_t r, uint64_t t)
{
    ms_part *p = &m->parts[part];
    p->in_head = m->reqs[r].next;
    if (p->in_head == MS_NIL) p->in_tail = MS_NIL;
    ms_xbar_taken(m, part, r, t);
    m->reqs[r].next = MS_NIL;
}

static inline void schedule_process(memsys *m, uint32_t part, uint64_t t)
{
    ms_part *p = &m->parts[part];
    if (p->proc_pending || p->stalled || p->in_head == MS_NIL) return;
    uint64_t when = m->reqs[p->in_head].ready;
    if (when < t) when = t;
    uint64_t e = ms_edge(&m->clk_l2, when); /* L2 cycles from here */
    if (e < p->l2_next) e = p->l2_next;
    p->proc_pending = 1;
    ms_push(m, ms_core(&m->clk_l2, e), EV_L2_PROCESS, part, 0);
}

void ms_l2_input(memsys *m, uint32_t part, uint32_t r)
{
    ms_part *p = &m->parts[part];
    m->reqs[r].next = MS_NIL;
    if (p->in_tail == MS_NIL)
        p->in_head = r;
    else
        m->reqs[p->in_tail].next = r;
    p->in_tail = r;
    ms_xbar_input(m, part, r);
    schedule_process(m, part, m->reqs[r].ready);
}

/* A resource freed at t: retry the blocked head if it waits for that kind of resource (a fill
 * frees an MSHR and a way and may change what the head needs, so it always retries). */
void ms_l2_wake(memsys *m, uint32_t part, int why, uint64_t t)
{
    ms_part *p = &m->parts[part];
    if (!p->stalled || (why != MS_STALL_FILL && p->stalled != why)) return;
    /* A freed DRAM slot that still leaves too few: the retry could only fail the same way (the
     * slots it needs change only with a fill, which wakes it) and another slot's freeing wakes
     * it again. */
    if (why == MS_STALL_DRAM && ms_dram_space(m, part) < p->stall_need) return;
    p->stalled = 0;
    schedule_process(m, part, t);
}

/* A line's replacement key, kept in l->key wherever its state or stamp changes: the victim is
 * the first way of smallest key (a free way first, else the least recently used line), and a
 * line reserved for a fill is never one. Stamps of touched lines are unique, above 0 and below
 * MS_NEVER. */
static void set_key(ms_line *l)
{
    l->key = l->pending ? MS_NEVER : l->valid ? l->lru : 0;
}

/* Finds line `line` in a set: returns its way (valid, or reserved for a fill), or -1 with
 * *victim the way to replace: a free way first, else the least recently used line not reserved
 * for a fill; -1 when every way is reserved. A line is in at most one way, so the way hint is
 * tried first: on a hit it usually saves the search. */
static int lookup(const ms_line *set, int ways, uint64_t line, uint32_t hint, int *victim)
{
    if (hint < (uint32_t)ways && set[hint].tag == line) return (int)hint;
    for (int w = 0; w < ways; w++)
        if (set[w].tag == line) return w; /* lines neither valid nor pending hold MS_NO_TAG */
    int v = 0;
    uint64_t best = set[0].key;
    for (int w = 1; w < ways; w++)
        if (set[w].key < best) {
            best = set[w].key;
            v = w;
        }
    *victim = best == MS_NEVER ? -1 : v;
    return -1;
}

static void touch(ms_part *p, ms_line *l)
{
    l->lru = ++p->lru_clock;
    set_key(l);
}

/* Line l of slice p emptied for reuse: nothing valid, dirty or on its way, and (l2_lazy_fetch)
 * no byte written. Its tag is the caller's. */
static void line_clear(const memsys *m, ms_part *p, ms_line *l)
{
    l->valid = l->dirty = l->pending = 0;
    l->svalid = l->spend = l->sunread = 0;
    if (!m->cfg.l2_lazy_fetch) return;
    uint32_t nsec = (uint32_t)m->cfg.l2_line / 32;
    memset(&p->wbytes[(size_t)(l - p->lines) * nsec], 0, nsec * sizeof *p->wbytes);
}

/* Evicts line l (if valid and dirty, as a DRAM write) before it is reused. */
static void evict(memsys *m, uint32_t part, ms_line *l, uint64_t t)
{
    if (l->valid && l->dirty) {
        m->st.l2_writebacks++;
        uint32_t bytes =
            m->cfg.l2_sectored ? 32u * wt_popcount_small(l->dirty) : (uint32_t)m->cfg.l2_line;
        ms_dram_enqueue(m, part, ms_line_local(m, l->tag), 1, MS_NIL, bytes, t);
    }
    line_clear(m, &m->parts[part], l);
    l->tag = MS_NO_TAG;
    set_key(l);
}

/* Can MSHR ms take one more request (l2_mshr_merge)? */
static bool mshr_room(const memsys *m, const ms_mshr *ms)
{
    return !m->cfg.l2_mshr_merge || ms->n < (uint32_t)m->cfg.l2_mshr_merge;
}

static void append_waiter(memsys *m, ms_mshr *ms, uint32_t r)
{
    ms->n++;
    m->reqs[r].next = MS_NIL;
    if (ms->tail == MS_NIL)
        ms->head = r;
    else
        m->reqs[ms->tail].next = r;
    ms->tail = r;
}

/* Write r was taken: acknowledged at reply_at (write_acks), else done. */
static void write_taken(memsys *m, uint32_t r, uint64_t reply_at)
{
    if (m->cfg.write_acks)
        ms_push(m, reply_at, EV_REPLY_READY, r, 0);
    else
        ms_req_free(m, r);
}

/* ------------------------------------------------------------------ sectored ---- */

/* The sectors of its line request r needs: the packet's own mask, or the ones its bytes
 * cover (an atomic: its 4-byte word), shifted to the request's place in the line and cut to
 * the line. */
uint32_t ms_req_sectors(const memsys *m, const mem_packet *pk)
{
    uint32_t line = (uint32_t)m->cfg.l2_line, off = (uint32_t)(pk->addr & (line - 1));
    uint32_t all = (1u << (line / 32)) - 1, mask;
    if (pk->sectors) {
        mask = (uint32_t)pk->sectors << (off / 32);
    } else {
        uint32_t bytes = pk->kind == MEM_ATOMIC ? 4 : pk->bytes ? pk->bytes : 1;
        uint32_t last = (off + bytes - 1) / 32;
        last = last < line / 32 ? last : line / 32 - 1;
        mask = (last >= 31 ? ~0u : (2u << last) - 1) & ~((1u << (off / 32)) - 1);
    }
    return mask & all;
}

/* A write to a lazy-fetch L2 (data_cache::wr_miss_wa_lazy_fetch_on_read, wr_hit_wb and
 * update_m_readable): it adds its bytes to those written of each sector of line l it covers
 * (`need`); a sector it allocates (neither readable-valid nor, after a write, still valid)
 * becomes readable only once all its 32 bytes are written, and one that was valid becomes
 * readable when they are. */
static void lazy_write(const memsys *m, ms_part *p, ms_line *l, uint32_t need, uint32_t hit,
                       const mem_packet *pk)
{
    const uint32_t nsec = (uint32_t)m->cfg.l2_line / 32;
    const uint32_t first = (uint32_t)(pk->addr & (uint64_t)(m->cfg.l2_line - 1)) / 32;
    uint32_t *wb = &p->wbytes[(size_t)(l - p->lines) * nsec];
    for (uint32_t w = need; w; w &= w - 1) {
        uint32_t s = (uint32_t)__builtin_ctz(w), k = s - first; /* k: the packet's sector */
        uint8_t bit = (uint8_t)(1u << s);
        bool forced = false; /* readable once allocated, whatever its bytes (mem_packet) */
        if (k < 4) {
            wb[s] |= pk->written[k];
            forced = pk->readable >> k & 1;
        }
        if (wb[s] == ~0u || (!(hit & bit) && forced))
            l->sunread &= (uint8_t)~bit;
        else if (!(hit & bit))
            l->sunread |= bit;
    }
}

/* accept() of a sectored slice (GPGPU-Sim's sector_cache_block: a line is allocated on a miss,
 * each sector is fetched on its own; tag_array::access touches the line's LRU time on every
 * access). A read or atomic needing sectors that are neither valid nor on their way takes an
 * MSHR and one DRAM read of just those sectors (a line that is present: SECTOR_MISS); one whose
 * sectors are all on their way joins the MSHR bringing them. A request needing sectors of two
 * fetches, or sectors on their way and others missing (only a request of several sectors can),
 * waits for a fill and tries again. With l2_lazy_fetch a valid sector a write allocated without
 * covering it whole is not readable: a read or atomic fetches it as if it were missing, and the
 * fill leaves it dirty. Statistics count sectors in GPGPU-Sim's classes: readable ones hit, ones
 * on their way (a read's or an atomic's) HIT_RESERVED, the rest miss.
 * Once accepted, *sectors is the number it had. */
__attribute__((noinline)) static int accept_sectored(memsys *m, uint32_t part, uint32_t r,
                                                     uint64_t t, uint64_t e, uint32_t *sectors)
{
    ms_part *p = &m->parts[part];
    ms_req *q = &m->reqs[r];
    const int ways = m->cfg.l2_ways, nsec = m->cfg.l2_line / 32;
    ms_line *set = &p->lines[(size_t)q->set * (size_t)ways];
    uint16_t *hint = &p->hint[q->local & m->hint_mask];
    int kind = q->pkt.kind;
    uint32_t need = ms_req_sectors(m, &q->pkt);
    int v = -1, hw = lookup(set, ways, q->line, *hint, &v);
    ms_line *l = hw >= 0 ? &set[hw] : NULL;
    uint32_t valid = l ? l->svalid : 0, pend = l ? l->spend : 0;
    uint32_t readable = valid & ~(l ? (uint32_t)l->sunread : 0u);
    uint32_t miss = kind == MEM_WRITE ? 0 : need & ~readable & ~pend;
    uint32_t wait = kind == MEM_WRITE ? 0 : need & pend;
    uint16_t *smshr = NULL;
    uint32_t join = MS_NIL;
    if (l) smshr = &p->smshr[(size_t)(l - p->lines) * (size_t)nsec];
    if (wait) {
        if (miss) return MS_STALL_FILL;
        join = smshr[__builtin_ctz(wait)];
        for (uint32_t w = wait; w; w &= w - 1)
            if (smshr[__builtin_ctz(w)] != join) return MS_STALL_FILL;
        if (!mshr_room(m, &p->mshrs[join])) return MS_STALL_FILL;
    }
    if (miss && p->mshr_nfree == 0) return MS_STALL_FILL;
    if (!l) {
        if (v < 0) return MS_STALL_FILL;
        int need_q = (miss != 0) + (set[v].valid && set[v].dirty);
        if (ms_dram_space(m, part) < need_q) {
            p->stall_need = (uint8_t)need_q;
            return MS_STALL_DRAM;
        }
    } else if (miss && ms_dram_space(m, part) < 1) {
        p->stall_need = 1;
        return MS_STALL_DRAM;
    }
    input_pop(m, part, r, t); /* accepted */
    /* a sector both valid and on its way (written, or being fetched to be readable) waits; a
     * store hits a sector present, readable or not (GPGPU-Sim's probe: HIT on a MODIFIED
     * sector), and misses one on its way */
    uint32_t hit = kind == MEM_WRITE ? need & valid & ~pend : need & readable & ~pend;
    uint32_t n = wt_popcount_small(need), h = wt_popcount_small(hit),
             reserved = wt_popcount_small(wait);
    *sectors = n;
    m->st.l2_accesses += n;
    m->st.l2_hits += h;
    m->st.l2_hit_reserved += reserved;
    m->st.l2_misses += n - h - reserved;
    if (kind != MEM_WRITE && !q->pkt.inst) { /* GLOBAL_ACC_R: loads and atomics */
        m->st.l2_load_accesses += n;
        m->st.l2_load_misses += n - h - reserved;
    }
    if (kind == MEM_ATOMIC) m->st.atomics++;
    if (!l) {
        l = &set[v];
        evict(m, part, l, t);
        l->tag = q->line;
        *hint = (uint16_t)v;
        smshr = &p->smshr[(size_t)(l - p->lines) * (size_t)nsec];
    }
    touch(p, l);
    if (kind == MEM_WRITE) {
        if (m->cfg.l2_lazy_fetch) lazy_write(m, p, l, need, valid & ~pend, &q->pkt);
        l->svalid |= (uint8_t)need;
        l->dirty |= (uint8_t)need;
        l->valid = 1;
        set_key(l);
        write_taken(m, r, ms_core(&m->clk_l2, e + (uint64_t)m->cfg.l2_hit_latency));
        return 0;
    }
    if (kind == MEM_ATOMIC) l->dirty |= (uint8_t)need;
    if (wait) {
        append_waiter(m, &p->mshrs[join], r);
    } else if (miss) {
        uint32_t mi = p->mshr_free[--p->mshr_nfree];
        ms_mshr *ms = &p->mshrs[mi];
        ms->head = ms->tail = MS_NIL;
        ms->n = 0;
        ms->line = (uint32_t)(l - p->lines);
        ms->sectors = miss;
        append_waiter(m, ms, r);
        for (uint32_t w = miss; w; w &= w - 1)
            smshr[__builtin_ctz(w)] = (uint16_t)mi;
        l->spend |= (uint8_t)miss;
        l->sunread &= (uint8_t)~miss; /* allocate_sector: readable once filled */
        l->pending = 1;
        set_key(l);
        ms_dram_enqueue(m, part, q->local, 0, mi, 32u * wt_popcount_small(miss), t);
    } else {
        ms_push(m, ms_core(&m->clk_l2, e + (uint64_t)m->cfg.l2_hit_latency), EV_REPLY_READY, r, 0);
    }
    return 0;
}

/* Tries to accept request r (the head of the input queue) at core cycle t, L2 cycle e. Returns 0
 * when accepted (r has been dequeued; *sectors: its sectors on a sectored slice, else 1), else
 * the MS_STALL_ reason it must wait for. */
static int accept(memsys *m, uint32_t part, uint32_t r, uint64_t t, uint64_t e, uint32_t *sectors)
{
    *sectors = 1;
    if (m->cfg.l2_sectored) return accept_sectored(m, part, r, t, e, sectors);
    ms_part *p = &m->parts[part];
    ms_req *q = &m->reqs[r];
    const int ways = m->cfg.l2_ways;
    ms_line *set = &p->lines[(size_t)q->set * (size_t)ways];
    uint16_t *hint = &p->hint[q->local & m->hint_mask];
    int v = p->retry_way, hw = v >= 0 ? -1 : lookup(set, ways, q->line, *hint, &v);
    ms_line *hit = hw >= 0 ? &set[hw] : NULL;
    int kind = q->pkt.kind;
    ms_line *victim = NULL;
    if (hit && hit->pending && kind != MEM_WRITE && !mshr_room(m, &p->mshrs[hit->mshr]))
        return MS_STALL_FILL;
    if (!hit) {
        if (kind != MEM_WRITE && p->mshr_nfree == 0) return MS_STALL_FILL;
        if (v < 0) return MS_STALL_FILL;
        victim = &set[v];
        int need = (kind != MEM_WRITE) + (victim->valid && victim->dirty);
        if (ms_dram_space(m, part) < need) {
            p->retry_way = v;
            p->stall_need = (uint8_t)need;
            return MS_STALL_DRAM;
        }
    }
    p->retry_way = -1;
    input_pop(m, part, r, t); /* accepted */
    m->st.l2_accesses++;
    const int load = kind != MEM_WRITE && !q->pkt.inst; /* GLOBAL_ACC_R: loads and atomics */
    m->st.l2_load_accesses += load;
    if (kind == MEM_ATOMIC) m->st.atomics++;
    uint64_t reply_at = ms_core(&m->clk_l2, e + (uint64_t)m->cfg.l2_hit_latency);

    if (hit) {
        if (hit->pending && kind != MEM_WRITE) /* joins the fill on its way */
            m->st.l2_hit_reserved++;
        else if (hit->pending) /* a write does not wait for the fill: it misses */
            m->st.l2_misses++;
        else
            m->st.l2_hits++;
        touch(p, hit);
        if (kind != MEM_READ) hit->dirty = 1;
        if (kind == MEM_WRITE)
            write_taken(m, r, reply_at);
        else if (hit->pending)
            append_waiter(m, &p->mshrs[hit->mshr], r);
        else
            ms_push(m, reply_at, EV_REPLY_READY, r, 0);
        return 0;
    }

    m->st.l2_misses++;
    m->st.l2_load_misses += load;
    evict(m, part, victim, t);
    victim->tag = q->line;
    *hint = (uint16_t)v;
    touch(p, victim);
    if (kind == MEM_WRITE) {
        victim->valid = 1;
        victim->dirty = 1;
        set_key(victim);
        write_taken(m, r, reply_at);
        return 0;
    }
    uint32_t mi = p->mshr_free[--p->mshr_nfree];
    ms_mshr *ms = &p->mshrs[mi];
    ms->head = ms->tail = MS_NIL;
    ms->n = 0;
    ms->line = (uint32_t)(victim - p->lines);
    append_waiter(m, ms, r);
    victim->pending = 1;
    set_key(victim);
    victim->dirty = kind == MEM_ATOMIC;
    victim->mshr = mi;
    ms_dram_enqueue(m, part, q->local, 0, mi, (uint32_t)m->cfg.l2_line, t);
    return 0;
}

void ms_l2_process(memsys *m, uint32_t part, uint64_t t)
{
    ms_part *p = &m->parts[part];
    p->proc_pending = 0;
    uint32_t r = p->in_head;
    if (r == MS_NIL) return;
    uint64_t e = ms_edge(&m->clk_l2, t); /* the L2 cycle now */
    if (e < p->l2_next) e = p->l2_next;
    if (m->reqs[r].ready > t || ms_core(&m->clk_l2, e) > t) {
        schedule_process(m, part, t);
        return;
    }
    uint32_t sectors;
    int why = accept(m, part, r, t, e, &sectors);
    if (why) {
        p->stalled = (uint8_t)why;
        return;
    }
    /* GPGPU-Sim splits a request into its sectors, one L2 access a cycle (l2_sector_cycles) */
    p->l2_next = e + (m->cfg.l2_sector_cycles ? sectors : 1);
    schedule_process(m, part, t);
}

/* The DRAM read for MSHR mi finished at t: validate the line and release the waiters. */
void ms_l2_fill(memsys *m, uint32_t part, uint32_t mi, uint64_t t)
{
    ms_part *p = &m->parts[part];
    ms_mshr *ms = &p->mshrs[mi];
    ms_line *l = &p->lines[ms->line];
    if (m->cfg.l2_sectored) {
        l->svalid |= (uint8_t)ms->sectors;
        l->spend &= (uint8_t)~ms->sectors;
        l->pending = l->spend != 0;
    } else {
        l->pending = 0;
    }
    l->valid = 1;
    set_key(l);
    p->retry_way = -1; /* the stalled head's lookup may differ now */
    const ms_clock *k = &m->clk_l2;
    uint64_t reply_at = ms_core(k, ms_edge(k, t) + (uint64_t)m->cfg.l2_hit_latency);
    for (uint32_t r = ms->head; r != MS_NIL;) {
        uint32_t next = m->reqs[r].next;
        m->reqs[r].next = MS_NIL;
        ms_push(m, reply_at, EV_REPLY_READY, r, 0);
        r = next;
    }
    ms->head = ms->tail = MS_NIL;
    ms->n = 0;
    p->mshr_free[p->mshr_nfree++] = mi;
    ms_l2_wake(m, part, MS_STALL_FILL, t);
}

void ms_l2_warm(memsys *m, uint32_t part, uint64_t line, uint64_t local, uint32_t set_index,
                uint32_t need, int write)
{
    ms_part *p = &m->parts[part];
    const int ways = m->cfg.l2_ways;
    ms_line *set = &p->lines[(size_t)set_index * (size_t)ways];
    uint16_t *hint = &p->hint[local & m->hint_mask];
    int v = -1, hw = lookup(set, ways, line, *hint, &v);
    ms_line *l = hw >= 0 ? &set[hw] : NULL;
    if (l && l->pending) return; /* a fill in flight decides this line */
    if (!l) {
        if (v < 0) return; /* every way awaits a fill */
        l = &set[v];
        line_clear(m, p, l); /* functional: the victim leaves without a write-back or a count */
        l->tag = line;
        *hint = (uint16_t)v;
    }
    if (m->cfg.l2_sectored) {
        l->svalid |= (uint8_t)need;
        l->sunread &= (uint8_t)~need; /* functional warming does not track written bytes */
        if (write) l->dirty |= (uint8_t)need;
    } else if (write) {
        l->dirty = 1;
    }
    l->valid = 1;
    touch(p, l);
}
