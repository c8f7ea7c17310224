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

static uint64_t max_u64(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

/* Places request r on its SM's injection port; returns the cycle it starts injecting. Requests
 * of one SM leave in send order, so the start times are computed at once. */
uint64_t ms_icnt_inject(memsys *m, uint32_t r, uint64_t now)
{
    ms_req *q = &m->reqs[r];
    ms_sm *s = &m->sms[q->pkt.sm];
    uint32_t data = ms_req_bytes(&q->pkt);
    uint64_t ser = ms_ser(m, data);
    q->ser = ser; /* again at the partition's input port */
    const ms_clock *k = &m->clk_icnt;
    uint64_t start = max_u64(ms_edge(k, now), s->inj_free);
    s->inj_free = start + ser;
    m->st.icnt_packets++;
    m->st.icnt_bytes += (uint64_t)m->cfg.icnt_header_bytes + data;
    ms_push(m, ms_core(k, start + (uint64_t)m->cfg.icnt_latency), EV_PART_ARRIVE, r, 0);
    return ms_core(k, start);
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
    uint64_t tx = max_u64(ms_edge(&m->clk_icnt, t), p->out_free);
    q->ser = n * ms_ser(m, data); /* again at the SM's ejection port */
    p->out_free = tx + q->ser;
    m->st.icnt_packets += n;
    m->st.icnt_bytes += n * ((uint64_t)m->cfg.icnt_header_bytes + data);
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
