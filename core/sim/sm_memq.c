/* Memory instructions on their way to the load/store unit (sm.mem_queue), as GPGPU-Sim moves
 * them: an issued load, store or atomic goes into the ID_OC_MEM pipeline register, a collector
 * unit reads its operands, and it waits in OC_EX_MEM until the unit's dispatch register is
 * free (shader.cc: scheduler_unit::cycle checks only m_mem_out->has_free, and
 * shader_core_ctx::execute hands the unit the oldest ready instruction, register_set::
 * get_ready). So a busy unit blocks issue only once those registers are full, and the unit
 * serves instructions in issue order. Here the path is a FIFO of sm.mem_queue entries; an
 * entry can enter the unit sm.mem_queue_delay cycles after its issue, at the end of a cycle's
 * load/store work (where the unit frees). Its destination registers are reserved at issue, as
 * GPGPU-Sim's scoreboard does. A warp leaves (exit) only once its queued instructions reached
 * the unit.
 *
 * With sm.mem_queue_order=collector the order is GPGPU-Sim's instead: OC_EX_MEM takes the
 * ready collector unit that the dispatch unit's round robin reaches first, whatever its age
 * (opndcoll_rfu_t::dispatch_ready_cu). While the unit is blocked, several loads wait in
 * collectors, and they reach the L1D in that order (one OC_EX_MEM slot, as GTX480's
 * -gpgpu_pipeline_widths give it; not with sub-cores, whose slots the unit takes oldest
 * first). */
#include <stdlib.h>

#include "core/sim/sm_internal.h"

typedef struct mem_queued {
    int warp;
    int cu;         /* the collector unit it holds (sm.mem_queue_collectors), or -1 */
    uint64_t ready; /* first cycle it may enter the unit */
    inst_info in;
    inst_exec x;
} mem_queued;

int sm_memq_init(sm *s)
{
    if (!s->cfg->mem_queue) return 0;
    s->mq = malloc((size_t)s->cfg->mem_queue * sizeof *s->mq);
    return s->mq ? 0 : -1;
}

void sm_memq_free(sm *s)
{
    free(s->mq);
    s->mq = NULL;
}

void sm_memq_push(sm *s, int wi, const inst_info *in, const inst_exec *x, uint64_t now)
{
    int cap = s->cfg->mem_queue, k = s->mq_head + s->mq_n;
    mem_queued *e = &s->mq[k >= cap ? k - cap : k];
    e->warp = wi;
    e->ready = now + (uint64_t)s->cfg->mem_queue_delay;
    e->cu = -1;
    if (s->cfg->mem_queue_collectors && s->cfg->operand_collector) {
        uint64_t from;
        e->cu = sm_oc_hold(s, sm_sched_of(s, wi), now, &from);
        if (from + 1 > e->ready) e->ready = from + 1; /* a pass to read its operands */
    }
    e->in = *in;
    e->x = *x;
    s->mq_n++;
    warp *w = &s->warps[wi];
    w->mq_count++;
    /* the scoreboard reserves the destinations at issue; a global access with every lane off
     * accesses nothing and writes nothing (sm_mem_issue) */
    bool writes = x->active_mask || in->cls == IC_LD_SHARED;
    for (int i = 0; i < in->ndst && writes; i++) {
        uint64_t bit = (uint64_t)1 << (in->dst[i] & 63);
        w->pending[in->dst[i] >> 6] |= bit;
        if (in->cls == IC_LD_GLOBAL || in->cls == IC_ATOMIC)
            w->pending_long[in->dst[i] >> 6] |= bit;
    }
}

/* The queue's position (from its head) of the instruction that enters the unit next if it is
 * due at now, or -1: the head, or with sm.mem_queue_order=collector the due one whose unit
 * the collector's round robin reaches first. That one then swaps places with the head: the
 * order of the others does not matter in that mode. */
static int next_due(sm *s, uint64_t now)
{
    int cap = s->cfg->mem_queue;
    if (!s->cfg->mem_queue_rr) return s->mq[s->mq_head].ready <= now ? 0 : -1;
    int start = sm_oc_rr_start(s, now), n = s->cfg->oc_units, best = -1, best_d = n;
    for (int i = 0; i < s->mq_n; i++) {
        int k = s->mq_head + i;
        const mem_queued *e = &s->mq[k >= cap ? k - cap : k];
        if (e->ready > now) continue;
        int d = e->cu - start;
        if (d < 0) d += n;
        if (d < best_d) best_d = d, best = i;
    }
    if (best > 0) {
        int k = s->mq_head + best;
        mem_queued *e = &s->mq[k >= cap ? k - cap : k], t = *e;
        *e = s->mq[s->mq_head];
        s->mq[s->mq_head] = t;
    }
    return best;
}

/* At the end of a cycle's load/store work: queued instructions enter the unit while it is free
 * and they are due, the oldest first (or in the collector's order). */
void sm_memq_pop(sm *s, uint64_t now)
{
    int cap = s->cfg->mem_queue;
    while (s->mq_n && !s->stage.busy && next_due(s, now) >= 0) {
        mem_queued e = s->mq[s->mq_head];
        s->mq_head = s->mq_head + 1 == cap ? 0 : s->mq_head + 1;
        s->mq_n--;
        warp *w = &s->warps[e.warp];
        w->mq_count--;
        if (e.cu >= 0) sm_oc_release(s, e.cu, now);
        if (e.in.cls == IC_LD_SHARED || e.in.cls == IC_ST_SHARED)
            sm_shared_issue(s, e.warp, &e.in, &e.x, now);
        else
            sm_mem_issue(s, e.warp, &e.in, &e.x, now);
        sm_exit_if_done(s, e.warp, now);
        /* a place in the queue freed: warps waiting for one may issue, and an exit may go */
        s->scan_at = 0;
        s->recheck |= s->stage_waiters | ((uint64_t)1 << e.warp);
        s->stage_waiters = 0;
    }
}

/* When the queue needs the SM next: its head's due cycle while the unit is free. */
uint64_t sm_memq_wake(const sm *s, uint64_t now)
{
    if (!s->mq_n || s->stage.busy) return UINT64_MAX;
    uint64_t r = s->mq[s->mq_head].ready;
    if (s->cfg->mem_queue_rr) /* any of them may go first */
        for (int i = 1, cap = s->cfg->mem_queue; i < s->mq_n; i++) {
            int k = s->mq_head + i;
            uint64_t q = s->mq[k >= cap ? k - cap : k].ready;
            r = q < r ? q : r;
        }
    return r > now ? r : now + 1;
}
