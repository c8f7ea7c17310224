/* Interconnect ports. Four kinds of port, each a serializer moving icnt_bytes_per_cycle:
 * an SM's injection port, a partition's input port, a partition's output port and an SM's
 * ejection port. A packet occupies a port for ser = ceil((icnt_header_bytes + data) / bpc)
 * cycles (at least 1; data per ms_req_bytes / ms_reply_bytes).
 *
 * Timing of one direction (cut-through): the packet starts leaving its source port at
 * start = max(ready, source_free); its head reaches the destination port icnt_latency cycles
 * later; the destination receives it from rx = max(head arrival, dest_free) for ser cycles.
 * Unloaded, a hop costs icnt_latency + ser; each busy port adds its queueing.
 *
 * All of this counts in icnt cycles (ms_clock clk_icnt): a hop that becomes possible at core
 * cycle t starts at the first icnt edge at or after t, the port free times are icnt cycles, and
 * a packet's arrival is handed on at the first core cycle at or after its icnt edge. A request
 * may enter the L2 l2_rop_latency core cycles after it is fully received (GPGPU-Sim's ROP delay
 * queue, l2cache.cc memory_sub_partition::push, counted in core cycles). */
#include "core/mem/memsys_internal.h"

#include <stdlib.h>

static uint64_t max_u64(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

/* ---- the request crossbar (icnt_crossbar) ----
 *
 * GPGPU-Sim's local crossbar (-network_mode 2, local_interconnect.cc, xbar_router with
 * -icnt_arbiter_algo 1): a packet the SM injects waits in the SM's input buffer, and each icnt
 * cycle every output (partition), in increasing order, takes the head of one input buffer
 * headed for it, searching round robin from the input after the one it took last. Only heads
 * compete, so a head whose partition another SM won holds everything behind it; a buffer whose
 * head leaves offers its next packet to the outputs still to come in the same cycle, as the
 * router's loop over outputs does. The packet's head reaches the partition icnt_latency cycles
 * after its grant (ms_icnt_part_arrive). The buffers are not bounded unless icnt_sm_buffer
 * bounds each SM's packets not yet granted (a full one refuses the SM's sends: GPGPU-Sim's
 * icnt_has_buffer, BookSim's input queue of 9 flits on the GTX480) and l2_input_queue each
 * slice's requests past their ROP delay and not yet taken by its L2 (a full one is granted
 * nothing: GPGPU-Sim's icnt_L2 queue, whose fullness stops the icnt from popping into the
 * sub-partition). The local crossbar's 512 packets are never full in the validation
 * workloads. */

static uint64_t *xb_heads_of(memsys *m, uint32_t part)
{
    return m->xb.heads + (size_t)part * (size_t)m->xb.words;
}

int ms_xbar_init(memsys *m)
{
    ms_xbar *x = &m->xb;
    x->words = (m->cfg.num_sms + 63) / 64;
    size_t P = (size_t)m->cfg.partitions;
    x->heads = calloc(P * (size_t)x->words, sizeof *x->heads);
    x->outs = calloc((P + 63) / 64, sizeof *x->outs);
    x->wait = calloc((size_t)x->words, sizeof *x->wait);
    x->rr = calloc(P, sizeof *x->rr);
    x->time = MS_NEVER;
    for (int i = 0; i < m->cfg.num_sms; i++)
        m->sms[i].xq_head = m->sms[i].xq_tail = MS_NIL;
    return x->heads && x->outs && x->wait && x->rr ? 0 : -1;
}

void ms_xbar_free(memsys *m)
{
    free(m->xb.heads);
    free(m->xb.outs);
    free(m->xb.wait);
    free(m->xb.rr);
}

/* Queues an arbitration at core cycle t unless one comes first. */
static void xbar_schedule(memsys *m, uint64_t t)
{
    if (t >= m->xb.time) return;
    m->xb.time = t;
    ms_push(m, t, EV_XBAR, 0, ++m->xb.gen);
}

/* l2_input_queue: may slice p take another packet at core cycle t? GPGPU-Sim's icnt pops into
 * a sub-partition while its icnt_L2 queue has room (the requests past the ROP delay and not yet
 * taken by the L2); the ROP queue before it is not bounded. */
static int xbar_room(memsys *m, ms_part *p, uint64_t t, uint32_t cap)
{
    while (p->in_rop != MS_NIL && m->reqs[p->in_rop].ready <= t) {
        p->in_past++;
        p->in_rop = m->reqs[p->in_rop].next;
    }
    return p->in_past < cap;
}

void ms_xbar_taken(memsys *m, uint32_t part, uint32_t r, uint64_t t)
{
    ms_part *p = &m->parts[part];
    if (!m->cfg.l2_input_queue || !m->cfg.icnt_crossbar) return;
    if (r == p->in_rop) { /* taken before a step counted it */
        p->in_rop = m->reqs[r].next;
        return;
    }
    if (p->in_past-- == (uint32_t)m->cfg.l2_input_queue) xbar_schedule(m, t);
}

void ms_xbar_input(memsys *m, uint32_t part, uint32_t r)
{
    ms_part *p = &m->parts[part];
    if (m->cfg.l2_input_queue && m->cfg.icnt_crossbar && p->in_rop == MS_NIL) p->in_rop = r;
}

/* SM sm's buffer head competes from now on. */
static void xbar_offer(memsys *m, int sm)
{
    uint32_t part = m->reqs[m->sms[sm].xq_head].part;
    xb_heads_of(m, part)[sm >> 6] |= 1ull << (sm & 63);
    m->xb.outs[part >> 6] |= 1ull << (part & 63);
}

/* Request r is all in its SM's input buffer at icnt cycle `in`. */
static void xbar_enter(memsys *m, uint32_t r, uint64_t in)
{
    ms_req *q = &m->reqs[r];
    int sm = q->pkt.sm;
    ms_sm *s = &m->sms[sm];
    q->ready = in;
    q->next = MS_NIL;
    if (s->xq_tail != MS_NIL) { /* behind another: it competes when that one leaves */
        m->reqs[s->xq_tail].next = r;
        s->xq_tail = r;
        return;
    }
    s->xq_head = s->xq_tail = r;
    m->xb.wait[sm >> 6] |= 1ull << (sm & 63);
    xbar_schedule(m, ms_core(&m->clk_icnt, in));
}

/* The first SM of set `set` at or after `from`, cyclically (the set is not empty). */
static int xbar_pick(const uint64_t *set, int words, int n, uint32_t from)
{
    int w = (int)(from >> 6);
    uint64_t bits = set[w] & (~0ull << (from & 63));
    for (int k = 0; k <= words; k++) {
        if (bits) {
            int sm = w * 64 + __builtin_ctzll(bits);
            if (sm < n) return sm;
        }
        w = w + 1 == words ? 0 : w + 1;
        bits = set[w];
    }
    return -1; /* not reached */
}

/* One arbitration, at core cycle t (its icnt cycle c): heads that are in by c compete; each
 * partition with a contender, lowest first, takes one. */
void ms_xbar_step(memsys *m, uint32_t gen, uint64_t t)
{
    ms_xbar *x = &m->xb;
    if (gen != x->gen) return; /* replaced by an earlier one */
    x->time = MS_NEVER;
    const ms_clock *k = &m->clk_icnt;
    uint64_t c = ms_edge(k, t), next = MS_NEVER;
    for (int w = 0; w < x->words; w++)
        for (uint64_t b = x->wait[w]; b; b &= b - 1) {
            int sm = w * 64 + __builtin_ctzll(b);
            uint64_t in = m->reqs[m->sms[sm].xq_head].ready;
            if (in <= c) {
                x->wait[w] &= ~(1ull << (sm & 63));
                xbar_offer(m, sm);
            } else if (in < next) {
                next = in;
            }
        }
    int owords = (m->cfg.partitions + 63) / 64;
    const uint32_t in_cap = (uint32_t)m->cfg.l2_input_queue;
    for (int ow = 0; ow < owords; ow++) {
        uint64_t full = 0; /* outputs whose slice is full: its L2 asks for a step when it takes */
        /* re-read: a buffer whose head leaves may offer its next packet to a later output */
        for (uint64_t ob = x->outs[ow]; ob; ob = x->outs[ow] & (~1ull << __builtin_ctzll(ob))) {
            uint32_t part = (uint32_t)(ow * 64 + __builtin_ctzll(ob));
            if (in_cap && !xbar_room(m, &m->parts[part], t, in_cap)) { /* its L2 takes one first */
                full |= 1ull << (part & 63);
                continue;
            }
            uint64_t *heads = xb_heads_of(m, part);
            int sm = xbar_pick(heads, x->words, m->cfg.num_sms, x->rr[part]);
            ms_sm *s = &m->sms[sm];
            uint32_t r = s->xq_head;
            heads[sm >> 6] &= ~(1ull << (sm & 63));
            int left = 0;
            for (int w = 0; w < x->words && !left; w++)
                left = heads[w] != 0;
            if (!left) x->outs[ow] &= ~(1ull << (part & 63));
            x->rr[part] = sm + 1 == m->cfg.num_sms ? 0 : (uint32_t)sm + 1;
            s->xq_head = m->reqs[r].next;
            if (s->xq_head == MS_NIL) {
                s->xq_tail = MS_NIL;
            } else if (m->reqs[s->xq_head].ready <= c) {
                xbar_offer(m, sm);
            } else {
                x->wait[sm >> 6] |= 1ull << (sm & 63);
                if (m->reqs[s->xq_head].ready < next) next = m->reqs[s->xq_head].ready;
            }
            s->xb_n -= s->xb_n > 0;
            ms_push(m, ms_core(k, c + (uint64_t)m->cfg.icnt_latency), EV_PART_ARRIVE, r, 0);
        }
        if (x->outs[ow] & ~full) next = c + 1; /* a head lost this cycle: it tries again */
    }
    if (next != MS_NEVER) xbar_schedule(m, ms_core(k, next));
}

/* Takes request q's turn on its SM's injection port (the SM's own state only): sets q->ser and
 * returns the icnt cycle it starts injecting. Requests of one SM leave in send order, so the
 * start times are computed at once. */
uint64_t ms_icnt_start(memsys *m, ms_req *q, uint64_t now)
{
    ms_sm *s = &m->sms[q->pkt.sm];
    q->ser = ms_ser(m, ms_req_bytes(&q->pkt)); /* again at the partition's input port */
    uint64_t start = max_u64(ms_edge(&m->clk_icnt, now), s->inj_free);
    s->inj_free = start + q->ser;
    return start;
}

/* Request r, injecting from icnt cycle start (ms_icnt_start), enters the interconnect. */
void ms_icnt_enter(memsys *m, uint32_t r, uint64_t start)
{
    const ms_req *q = &m->reqs[r];
    m->st.icnt_packets++;
    m->st.icnt_bytes += (uint64_t)m->cfg.icnt_header_bytes + ms_req_bytes(&q->pkt);
    if (m->cfg.icnt_crossbar)
        xbar_enter(m, r, start + q->ser);
    else
        ms_push(m, ms_core(&m->clk_icnt, start + (uint64_t)m->cfg.icnt_latency), EV_PART_ARRIVE, r,
                0);
}

/* The head of request r reached its partition at t: receive it, then queue it for the L2. */
void ms_icnt_part_arrive(memsys *m, uint32_t r, uint64_t t)
{
    ms_req *q = &m->reqs[r];
    ms_part *p = &m->parts[q->part];
    uint64_t rx = max_u64(ms_edge(&m->clk_icnt, t), p->in_free);
    p->in_free = rx + q->ser;
    q->ready = ms_core(&m->clk_icnt, p->in_free) + (uint64_t)m->cfg.l2_rop_latency;
    ms_l2_input(m, q->part, r);
}

/* ---- the reply crossbar (icnt_reply_crossbar) ----
 *
 * BookSim with one virtual channel and no input speedup (GPGPU-Sim's Fermi interconnect,
 * config_fermi_islip.icnt): a partition's replies wait in its queue in order; each icnt cycle
 * every SM whose ejection port is free takes the head of one queue headed for it, searching
 * round robin from the partition after the one it took last; the partition then sends nothing
 * else for the reply's serialization, and the SM receives nothing else. A head whose SM is
 * busy or taken holds the replies behind it. The reply is in at the SM icnt_latency cycles
 * after its last flit left. With icnt_reply_chain (GPGPU-Sim's local crossbar, QV100) a queue
 * whose head crossed offers its next reply to the SMs still to come in the same cycle, as
 * iSLIP_Advance's loop over the outputs does, and the partition's port does not serialize. */

int ms_rxbar_init(memsys *m)
{
    size_t S = (size_t)m->cfg.num_sms;
    m->rx_rr = calloc(S, sizeof *m->rx_rr);
    m->rx_hat = calloc((size_t)m->cfg.partitions, sizeof *m->rx_hat);
    m->rx_bucket = calloc(S, sizeof *m->rx_bucket);
    m->rx_late = calloc(S, sizeof *m->rx_late);
    m->rx_sms = calloc((S + 63) / 64, sizeof *m->rx_sms);
    m->rx_redo = calloc((S + 63) / 64, sizeof *m->rx_redo);
    m->rx_time = MS_NEVER;
    return m->rx_rr && m->rx_hat && m->rx_bucket && m->rx_late && m->rx_sms && m->rx_redo ? 0 : -1;
}

void ms_rxbar_free(memsys *m)
{
    free(m->rx_rr);
    free(m->rx_hat);
    free(m->rx_bucket);
    free(m->rx_late);
    free(m->rx_sms);
    free(m->rx_redo);
}

static void rxbar_schedule(memsys *m, uint64_t c)
{
    if (c >= m->rx_time) return;
    m->rx_time = c;
    ms_push(m, ms_core(&m->clk_icnt, c), EV_RXBAR, 0, ++m->rx_gen);
}

static int rx_head_note(memsys *m, int pi);

static void rxbar_enter(memsys *m, uint32_t r, uint64_t t)
{
    ms_req *q = &m->reqs[r];
    ms_part *p = &m->parts[q->part];
    q->ready = ms_edge(&m->clk_icnt, t);
    q->next = MS_NIL;
    if (p->rq_tail == MS_NIL)
        p->rq_head = r;
    else
        m->reqs[p->rq_tail].next = r;
    p->rq_tail = r;
    if (p->rq_head != r) return;
    rx_head_note(m, (int)q->part);
    rxbar_schedule(m, m->rx_hat[q->part]);
}

/* The icnt cycle partition p's head may cross (its queue is not empty). With chaining the
 * partition's port never holds it: out_free stays 0. */
static uint64_t rx_head_at(const memsys *m, const ms_part *p)
{
    return max_u64(m->reqs[p->rq_head].ready, p->out_free);
}

/* Partition pi's new head (if it has one): the cycle it may cross, and the partition in its
 * SM's set of heads (partitions <= 64), and in the SM's set of heads that may still be late,
 * which a step clears of those that are in. The sets are kept as heads come and go, so a step
 * looks at the SMs with heads only, not at every partition. Returns the head's SM, or -1. */
static int rx_head_note(memsys *m, int pi)
{
    const ms_part *p = &m->parts[pi];
    if (p->rq_head == MS_NIL) return -1;
    int sm = m->reqs[p->rq_head].pkt.sm;
    m->rx_hat[pi] = rx_head_at(m, p);
    m->rx_bucket[sm] |= 1ull << pi;
    m->rx_late[sm] |= 1ull << pi;
    m->rx_sms[sm >> 6] |= 1ull << (sm & 63);
    return sm;
}

/* The earliest cycle after c at which one of SM sm's heads may cross: its partition and the SM
 * free, and not before c + 1. A head known to be in (not in rx_late) gives the least possible,
 * so the loop is only over the others. */
static uint64_t rx_sm_next(const memsys *m, int sm, uint64_t c)
{
    uint64_t base = max_u64(m->sms[sm].ej_free, c + 1), next = MS_NEVER;
    if (m->rx_bucket[sm] & ~m->rx_late[sm]) return base;
    for (uint64_t h = m->rx_late[sm]; h; h &= h - 1) {
        uint64_t at = max_u64(m->rx_hat[__builtin_ctzll(h)], base);
        if (at < next) next = at;
    }
    return next;
}

/* One arbitration. Each SM, lowest first, looks at the heads headed for it from the partition
 * after the one it took last: heads not in yet ask for a step when they are, until the first
 * that is in, which the SM takes if its port is free (else it asks for a step then). Then
 * every head still queued asks for a step once it may cross (rx_sm_next); only the SMs that
 * took a head or got a new one can ask for an earlier step than the first pass asked for, so
 * only theirs are looked at again. */
void ms_rxbar_step(memsys *m, uint32_t gen, uint64_t t)
{
    if (gen != m->rx_gen) return; /* replaced by an earlier one */
    m->rx_time = MS_NEVER;
    const uint64_t c = ms_edge(&m->clk_icnt, t);
    const int P = m->cfg.partitions, words = (m->cfg.num_sms + 63) / 64;
    uint64_t next = MS_NEVER;
    for (int w = 0; w < words; w++) {
        /* re-read: a partition that sends offers its next head to the SMs still to come */
        for (uint64_t b = m->rx_sms[w]; b; b = m->rx_sms[w] & (~1ull << __builtin_ctzll(b))) {
            int sm = w * 64 + __builtin_ctzll(b);
            uint64_t heads = m->rx_bucket[sm], late = m->rx_late[sm];
            for (uint64_t h = late; h; h &= h - 1)
                if (m->rx_hat[__builtin_ctzll(h)] <= c) late &= ~(h & -h);
            m->rx_late[sm] = late;
            uint64_t in = heads & ~late;
            /* the heads in the round robin's order: from rx_rr on, then from 0 */
            uint64_t hi = ~0ull << m->rx_rr[sm];
            uint64_t in_hi = in & hi, first;
            if (in_hi)
                first = in_hi & -in_hi;
            else
                first = in & -in;
            /* the heads not in yet that come before the first in (all of them, with none) */
            uint64_t out = late, before;
            if (!first)
                before = out;
            else if (first & hi)
                before = out & hi & (first - 1);
            else
                before = (out & hi) | (out & (first - 1));
            for (uint64_t h = before; h; h &= h - 1) {
                uint64_t at = m->rx_hat[__builtin_ctzll(h)];
                if (at < next) next = at;
            }
            if (!first) continue;
            ms_sm *s = &m->sms[sm];
            if (s->ej_free > c) { /* the SM is busy: try again when it is free */
                if (s->ej_free < next) next = s->ej_free;
                continue;
            }
            int pick = __builtin_ctzll(first);
            ms_part *p = &m->parts[pick];
            uint32_t r = p->rq_head;
            ms_req *q = &m->reqs[r];
            p->rq_head = q->next;
            if (p->rq_head == MS_NIL) p->rq_tail = MS_NIL;
            if (!m->cfg.icnt_reply_chain) p->out_free = c + q->ser;
            s->ej_free = c + q->ser;
            m->rx_rr[sm] = (uint32_t)(pick + 1 == P ? 0 : pick + 1);
            q->ready = ms_core(&m->clk_icnt, c + q->ser + (uint64_t)m->cfg.icnt_latency);
            ms_push(m, q->ready, EV_DELIVER, r, 0);
            m->rx_bucket[sm] &= ~first;
            m->rx_redo[w] |= 1ull << (sm & 63);
            int to = rx_head_note(m, pick); /* its next head, which cannot cross before out_free */
            if (to >= 0) m->rx_redo[to >> 6] |= 1ull << (to & 63);
            if (!m->rx_bucket[sm]) m->rx_sms[w] &= ~(1ull << (sm & 63));
        }
    }
    for (int w = 0; w < words; w++) {
        for (uint64_t b = m->rx_redo[w]; b; b &= b - 1) {
            uint64_t at = rx_sm_next(m, w * 64 + __builtin_ctzll(b), c);
            if (at < next) next = at;
        }
        m->rx_redo[w] = 0;
    }
    if (next != MS_NEVER) rxbar_schedule(m, next);
}

/* A reply for request r leaves the L2 pipeline at t toward the partition's output port. */
void ms_icnt_reply_ready(memsys *m, uint32_t r, uint64_t t)
{
    ms_req *q = &m->reqs[r];
    ms_part *p = &m->parts[q->part];
    uint32_t data = ms_reply_bytes(&q->pkt);
    /* a write's acknowledgement: one header-only packet per sector on a sectored L2, sent
     * back to back, as one reply that arrives with the last of them */
    uint32_t n = 1;
    if (q->pkt.kind == MEM_WRITE && m->cfg.l2_sectored)
        n = (uint32_t)__builtin_popcount(ms_req_sectors(m, &q->pkt));
    q->ser = n * ms_ser(m, data); /* again at the SM's ejection port */
    m->st.icnt_packets += n;
    m->st.icnt_bytes += n * ((uint64_t)m->cfg.icnt_header_bytes + data);
    if (m->cfg.icnt_reply_crossbar) {
        rxbar_enter(m, r, t);
        return;
    }
    uint64_t tx = max_u64(ms_edge(&m->clk_icnt, t), p->out_free);
    p->out_free = tx + q->ser;
    ms_push(m, ms_core(&m->clk_icnt, tx + (uint64_t)m->cfg.icnt_latency), EV_SM_ARRIVE, r, 0);
}

/* The head of a reply reached its SM at t: receive it through the ejection port. */
void ms_icnt_sm_arrive(memsys *m, uint32_t r, uint64_t t)
{
    ms_req *q = &m->reqs[r];
    ms_sm *s = &m->sms[q->pkt.sm];
    uint64_t rx = max_u64(ms_edge(&m->clk_icnt, t), s->ej_free);
    s->ej_free = rx + q->ser;
    q->ready = ms_core(&m->clk_icnt, s->ej_free);
    /* Delivering through an event keeps memsys_next_event exact for the SM's pop. */
    ms_push(m, q->ready, EV_DELIVER, r, 0);
}

/* The reply is fully received: append it to its SM's reply queue. Ejection serializes, so
 * arrival order is delivery order. */
void ms_icnt_deliver(memsys *m, uint32_t r)
{
    ms_req *q = &m->reqs[r];
    ms_sm *s = &m->sms[q->pkt.sm];
    q->next = MS_NIL;
    if (s->rep_tail == MS_NIL) {
        s->rep_head = r;
        m->reply_mask[q->pkt.sm >> 6] |= 1ull << (q->pkt.sm & 63);
    } else {
        m->reqs[s->rep_tail].next = r;
    }
    s->rep_tail = r;
}
