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
#include <assert.h>
#include <stdlib.h>

#include "core/sim/sm_internal.h"

#define MQ_WAITING (-2) /* sm.oc_dispatch=unit: in ID_OC_MEM, waiting for a unit */
#define MQ_EX      (-3) /* sm.oc_dispatch=unit: in its scheduler's OC_EX_MEM slot */

typedef struct mem_queued {
    int warp;
    int cu;         /* the collector unit it holds (sm.mem_queue_collectors), or -1; with
                     * sm.oc_dispatch=unit, MQ_WAITING until the collector allocates one */
    uint64_t ready; /* first cycle it may enter the unit (UINT64_MAX while MQ_WAITING) */
    uint64_t at;    /* MQ_WAITING: the collector step from which it may take a unit */
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
    if (s->cfg->oc_unit_order) {
        /* it waits in ID_OC_MEM; the collector's steps give it a unit (sm_memq_take_unit) */
        e->cu = MQ_WAITING;
        e->at = (now + 1) * (uint64_t)s->cfg->reg_ports;
        e->ready = UINT64_MAX;
        s->mq_waiting[sm_sched_of(s, wi)]++;
        s->oc.inflight++;
        if (e->at < s->oc.next) s->oc.next = e->at; /* the collector's next step, at the latest */
    } else if (s->cfg->mem_queue_collectors && s->cfg->operand_collector) {
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
            sm_mark_long(s, wi, in->dst[i] >> 6, bit);
    }
}

/* sm.oc_dispatch=unit: the unit takes the oldest instruction in an OC_EX_MEM slot
 * (register_set::get_ready), which swaps places with the head; -1 if none is due. */
static int next_from_ex(sm *s, uint64_t now)
{
    int cap = s->cfg->mem_queue;
    for (int i = 0; i < s->mq_n; i++) {
        int k = s->mq_head + i;
        mem_queued *e = &s->mq[k >= cap ? k - cap : k];
        if (e->cu != MQ_EX) continue;
        if (e->ready > now) return -1;
        if (i > 0) {
            mem_queued t = *e;
            *e = s->mq[s->mq_head];
            s->mq[s->mq_head] = t;
        }
        return i;
    }
    return -1;
}

/* The queue's position (from its head) of the instruction that enters the unit next if it is
 * due at now, or -1: the head, or with sm.mem_queue_order=collector the due one whose unit
 * the collector's round robin reaches first. That one then swaps places with the head: the
 * order of the others does not matter in that mode. */
static int next_due(sm *s, uint64_t now)
{
    int cap = s->cfg->mem_queue;
    if (s->cfg->oc_unit_order) return next_from_ex(s, now);
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
        if (e.cu == MQ_EX) {
            s->oc.ex_mem_busy[sm_sched_of(s, e.warp)] = false;
            s->oc.next_stale = true;
        }
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
    if (s->cfg->oc_unit_order) { /* the oldest in OC_EX_MEM; the collector wakes for the rest */
        r = UINT64_MAX;
        for (int i = 0, cap = s->cfg->mem_queue; i < s->mq_n && r == UINT64_MAX; i++) {
            int k = s->mq_head + i;
            if (s->mq[k >= cap ? k - cap : k].cu == MQ_EX) r = s->mq[k >= cap ? k - cap : k].ready;
        }
        if (r == UINT64_MAX) return r;
    }
    if (s->cfg->mem_queue_rr) /* any of them may go first */
        for (int i = 1, cap = s->cfg->mem_queue; i < s->mq_n; i++) {
            int k = s->mq_head + i;
            uint64_t q = s->mq[k >= cap ? k - cap : k].ready;
            r = q < r ? q : r;
        }
    return r > now ? r : now + 1;
}

/* sm.oc_dispatch=unit: the queue position of the oldest instruction still waiting in ID_OC_MEM
 * for a collector unit, or -1; *at is the step from which it may take one, *k its scheduler. */
int sm_memq_waiting(const sm *s, uint64_t *at, int *k)
{
    for (int i = 0, cap = s->cfg->mem_queue; i < s->mq_n; i++) {
        int j = s->mq_head + i;
        const mem_queued *e = &s->mq[j >= cap ? j - cap : j];
        if (e->cu != MQ_WAITING) continue;
        *at = e->at;
        *k = sm_sched_of(s, e->warp);
        return i;
    }
    return -1;
}

/* The instruction at queue position i takes collector unit cu at step p and reads its operands;
 * the unit may pass it to OC_EX_MEM from the step after the last read. */
void sm_memq_take_unit(sm *s, int i, int cu, uint64_t p)
{
    int j = s->mq_head + i, cap = s->cfg->mem_queue;
    mem_queued *e = &s->mq[j >= cap ? j - cap : j];
    int k = sm_sched_of(s, e->warp);
    e->cu = cu;
    s->oc.cu_free[cu] = UINT64_MAX;
    s->oc.cu_mem[cu >> 6] |= 1ull << (cu & 63);
    s->oc.cu_mem_at[cu] = sm_oc_reads(s, k, e->warp, &e->in, p) + 1;
    s->mq_waiting[k]--;
    s->scan_at = 0; /* its ID_OC_MEM slot takes an issue */
    s->recheck |= s->stage_waiters;
}

/* The instruction in unit cu enters its scheduler's OC_EX_MEM slot at step p (the unit frees):
 * the load/store unit may take it in the next cycle, and no sooner than sm.mem_queue_delay
 * cycles after its issue. */
void sm_memq_to_ex(sm *s, int cu, uint64_t p)
{
    for (int i = 0, cap = s->cfg->mem_queue; i < s->mq_n; i++) {
        int j = s->mq_head + i;
        mem_queued *e = &s->mq[j >= cap ? j - cap : j];
        if (e->cu != cu) continue;
        uint64_t ports = (uint64_t)s->cfg->reg_ports;
        e->cu = MQ_EX;
        e->ready = e->at / ports - 1 + (uint64_t)s->cfg->mem_queue_delay;
        if (p / ports + 1 > e->ready) e->ready = p / ports + 1;
        s->oc.ex_mem_busy[sm_sched_of(s, e->warp)] = true;
        return;
    }
    assert(0 && "a unit's memory instruction is queued");
}
