/* The operand collector in GPGPU-Sim's sub-core order (sm.oc_dispatch=unit; shader.cc
 * opndcoll_rfu_t::step, allocate_cu, dispatch_unit_t::find_ready).
 *
 * With -gpgpu_sub_core_model, each scheduler has its own collector units and its own slot in
 * each ID_OC and OC_EX pipeline register. find_ready searches for a ready unit from the first
 * unit of the share after the one that dispatched last, so of a scheduler's ready units the
 * lowest-numbered always goes first: an instruction in unit 1 waits while unit 0 is ready each
 * time the OC_EX slot frees (hotspot's first kernel under LRR: warps held for hundreds of
 * cycles). allocate_cu gives each pipeline register's oldest instruction its scheduler's
 * lowest-numbered free unit, in port order (SP, SFU, MEM, then INT), and no younger one of that
 * register a unit while the oldest finds none.
 *
 * A later instruction can so overtake an earlier one, and the path is decided step by step (a
 * step is one of the cycle's -gpgpu_reg_file_port_throughput passes): sm_oc_step runs the steps
 * of a cycle before its issue, only those where something can change. Each step dispatches
 * first (a ready unit whose OC_EX slot is free; the unit takes the instruction in the next
 * cycle's execute, and its writeback is queued then), then allocates; a unit reads its
 * registers as sm_oc_issue's do. Queued memory instructions (sm.mem_queue) wait in their
 * scheduler's ID_OC_MEM slot, take a unit like the others, move to their scheduler's OC_EX_MEM
 * slot when it is free (freeing the unit), and the load/store unit takes the oldest there
 * (sm_memq.c). */
#include <assert.h>
#include <stdbool.h>

#include "core/sim/sm_internal.h"

/* Scheduler k's unit, allocated at step p to warp wi's instruction, reads its registers;
 * returns the step of the last read. */
uint64_t sm_oc_reads(sm *s, int k, int wi, const inst_info *in, uint64_t p)
{
    uint8_t banks[4];
    return sm_oc_read(s, banks, sm_oc_banks(s, k, wi, in, banks), p);
}

/* An INT, FP or SFU instruction of warp wi issued at now by scheduler k enters a free slot of
 * its class's ID_OC share (classify saw one: sm_oc_slot_free). Its destinations are pending from
 * now; their release, latency cycles after its unit starts it, is queued on event queue `queue`
 * when it leaves its collector unit (unit_dispatch). */
void sm_oc_enqueue(sm *s, int wi, int k, const inst_info *in, uint64_t now, uint32_t latency,
                   int ii, int queue)
{
    opcoll *o = &s->oc;
    int cls = in->cls;
    int ws = cls == IC_SFU ? OCS_SLOT_SFU : OCS_SLOT;
    int lo = o->share_lo[ws][k], hi = o->share_hi[ws][k];
    int slot = lo;
    while (slot < hi && (o->idoc_used[cls] >> slot & 1))
        slot++;
    assert(slot < hi);
    oc_inst *x = &o->idoc[cls][slot];
    x->at = (now + 1) * (uint64_t)s->cfg->reg_ports;
    x->seq = o->seq++;
    sm_dst_slots(in, x->m);
    s->warps[wi].pending[0] |= x->m[0];
    s->warps[wi].pending[1] |= x->m[1];
    x->latency = latency;
    x->ii = (uint8_t)ii;
    x->wi = (int8_t)wi;
    x->k = (int8_t)k;
    x->cls = (int8_t)cls;
    x->queue = (int8_t)queue;
    x->nbanks = (int8_t)sm_oc_banks(s, k, wi, in, x->bank);
    o->idoc_used[cls] |= 1u << slot;
    bool full = true;
    for (int i = lo; i < hi; i++)
        full &= (o->idoc_used[cls] >> i & 1) != 0;
    if (full) o->id_free[cls][k] = UINT64_MAX; /* until one of them takes a unit */
    o->inflight++;
    /* nothing it brings can happen before it may take a unit: no recount needed */
    if (x->at < o->next) o->next = x->at;
    s->warps[wi].oc_count++;
}

static bool holds_alu(const opcoll *o, int u)
{
    return (o->cu_alu[u >> 6] >> (u & 63)) & 1;
}

/* The step from which scheduler k's OC_EX share for class cls has a free slot. */
static uint64_t ex_free_step(const sm *s, int k, int cls)
{
    const opcoll *o = &s->oc;
    int ws = cls == IC_SFU ? OCS_SLOT_SFU : OCS_SLOT;
    int lo = o->share_lo[ws][k], hi = o->share_hi[ws][k];
    int ex = hi - lo == 1 ? lo : sm_earliest(o->oc_ex[cls], lo, hi); /* one slot each: Volta */
    return o->oc_ex[cls][ex] * (uint64_t)s->cfg->reg_ports;
}

/* The slot of the oldest instruction of class cls in ID_OC, or -1. */
static int oldest_waiting(const opcoll *o, int cls)
{
    int best = -1;
    for (uint32_t m = o->idoc_used[cls]; m; m &= m - 1) {
        int i = __builtin_ctz(m);
        if (best < 0 || o->idoc[cls][i].seq < o->idoc[cls][best].seq) best = i;
    }
    return best;
}

/* The earliest step from which one of scheduler k's units is free (UINT64_MAX: all held). */
static uint64_t lowest_unit_free(const opcoll *o, int k)
{
    uint64_t free = UINT64_MAX;
    for (int u = o->share_lo[OCS_UNIT][k]; u < o->share_hi[OCS_UNIT][k]; u++)
        if (o->cu_free[u] < free) free = o->cu_free[u];
    return free;
}

/* The lowest-numbered of scheduler k's units free at step p, or -1. */
static int unit_free_at(const opcoll *o, int k, uint64_t p)
{
    for (int u = o->share_lo[OCS_UNIT][k]; u < o->share_hi[OCS_UNIT][k]; u++)
        if (o->cu_free[u] <= p) return u;
    return -1;
}

/* A lower bound on the next step at which something can happen: a held instruction is ready
 * and its OC_EX share has a free slot, or the oldest of a class in ID_OC has a free unit. */
static uint64_t unit_next(const sm *s)
{
    const opcoll *o = &s->oc;
    uint64_t next = UINT64_MAX;
    for (int w = 0; w < OC_MAX_UNITS / 64; w++)
        for (uint64_t m = o->cu_alu[w]; m; m &= m - 1) {
            const oc_inst *x = &o->cu_inst[w * 64 + __builtin_ctzll(m)];
            uint64_t ex = ex_free_step(s, x->k, x->cls);
            uint64_t t = x->at > ex ? x->at : ex;
            if (t < next) next = t;
        }
    for (int w = 0; w < OC_MAX_UNITS / 64; w++)
        for (uint64_t m = o->cu_mem[w]; m; m &= m - 1) {
            int u = w * 64 + __builtin_ctzll(m);
            if (!o->ex_mem_busy[o->cu_share[u]] && o->cu_mem_at[u] < next) next = o->cu_mem_at[u];
        }
    for (int cls = 0; cls < 3; cls++) {
        int slot = oldest_waiting(o, cls);
        if (slot < 0) continue;
        const oc_inst *x = &o->idoc[cls][slot];
        uint64_t free = lowest_unit_free(o, x->k);
        if (free == UINT64_MAX) continue; /* a dispatch frees one first */
        uint64_t t = x->at > free ? x->at : free;
        if (t < next) next = t;
    }
    uint64_t at;
    int k, waiting = 0;
    for (k = 0; k < s->cfg->schedulers; k++)
        waiting |= s->mq_waiting[k];
    if (waiting && sm_memq_waiting(s, &at, &k) >= 0) {
        uint64_t free = lowest_unit_free(o, k);
        if (free != UINT64_MAX) {
            uint64_t t = at > free ? at : free;
            if (t < next) next = t;
        }
    }
    return next;
}

/* unit_next, computed again only after something it reads changed. */
static uint64_t next_step(sm *s)
{
    opcoll *o = &s->oc;
    if (o->next_stale) {
        o->next = unit_next(s);
        o->next_stale = false;
    }
    return o->next;
}

/* Unit u's instruction enters its OC_EX slot at step p; its unit takes it in the next cycle's
 * execute, once free, and its writeback is queued. */
static void unit_dispatch(sm *s, int u, uint64_t p, uint64_t now)
{
    opcoll *o = &s->oc;
    oc_inst *x = &o->cu_inst[u];
    uint64_t ports = (uint64_t)s->cfg->reg_ports;
    int ws = x->cls == IC_SFU ? OCS_SLOT_SFU : OCS_SLOT;
    int ex = sm_earliest(o->oc_ex[x->cls], o->share_lo[ws][x->k], o->share_hi[ws][x->k]);
    uint64_t *unit = &s->unit_free[x->k][x->cls];
    uint64_t start = sm_per_ports(p, ports) + 1;
    if (*unit > start) start = *unit;
    *unit = start + (uint64_t)x->ii;
    o->oc_ex[x->cls][ex] = start;
    o->cu_free[u] = p;
    o->cu_disp[u] = p;
    o->cu_alu[u >> 6] &= ~(1ull << (u & 63));
    o->inflight--;
    if (x->m[0] | x->m[1]) {
        sm_event e = {.cycle = start + x->latency, .kind = EV_WB, .a = x->wi};
        e.m[0] = x->m[0];
        e.m[1] = x->m[1];
        sm_push_event_sorted(s, &e, x->queue);
    }
    /* a unit is free: a memory instruction waiting for one may issue */
    s->scan_at = 0;
    s->recheck |= s->stage_waiters;
    if (--s->warps[x->wi].oc_count == 0) sm_exit_if_done(s, x->wi, now);
}

static bool holds_mem(const opcoll *o, int u)
{
    return (o->cu_mem[u >> 6] >> (u & 63)) & 1;
}

/* Unit u's queued memory instruction enters its scheduler's OC_EX_MEM slot at step p. */
static void mem_dispatch(sm *s, int u, uint64_t p)
{
    opcoll *o = &s->oc;
    o->cu_mem[u >> 6] &= ~(1ull << (u & 63));
    o->inflight--;
    o->cu_free[u] = p;
    o->cu_disp[u] = p;
    sm_memq_to_ex(s, u, p);
    s->scan_at = 0; /* a memory instruction waiting for a unit may issue */
    s->recheck |= s->stage_waiters;
}

/* ID_OC's instruction in slot `slot` of class cls takes unit u at step p and queues its reads,
 * one per bank, each a FIFO serving one per step. */
static void unit_allocate(sm *s, int cls, int slot, int u, uint64_t p)
{
    opcoll *o = &s->oc;
    oc_inst *x = &o->cu_inst[u];
    *x = o->idoc[cls][slot];
    x->at = sm_oc_read(s, x->bank, x->nbanks, p) + 1;
    o->cu_free[u] = UINT64_MAX;
    o->cu_alu[u >> 6] |= 1ull << (u & 63);
    o->idoc_used[cls] &= ~(1u << slot);
    o->id_free[cls][x->k] = sm_per_ports(p, (uint64_t)s->cfg->reg_ports);
    s->scan_at = 0; /* the slot takes an issue this cycle */
}

/* One step p: dispatch (per scheduler and class, the lowest-numbered ready unit, while its
 * OC_EX share has a free slot), then allocation (per class in GPGPU-Sim's port order, SP, SFU,
 * INT: ID_OC's oldest takes its scheduler's lowest-numbered free unit, until the oldest left
 * finds none). */
static void unit_run_step(sm *s, uint64_t p, uint64_t now)
{
    opcoll *o = &s->oc;
    o->next_stale = true;
    /* the held units in ascending order: each scheduler's share is a run of them, and with
     * sub-cores (which this order needs) a unit's share is its scheduler's (cu_share) */
    for (int w = 0; w < OC_MAX_UNITS / 64; w++)
        for (uint64_t m = o->cu_alu[w] | o->cu_mem[w]; m; m &= m - 1) {
            int u = w * 64 + __builtin_ctzll(m), k = o->cu_share[u];
            if (holds_alu(o, u) && o->cu_inst[u].at <= p &&
                ex_free_step(s, k, o->cu_inst[u].cls) <= p)
                unit_dispatch(s, u, p, now);
            else if (holds_mem(o, u) && o->cu_mem_at[u] <= p && !o->ex_mem_busy[k])
                mem_dispatch(s, u, p);
        }
    static const int order[4] = {IC_FP, IC_SFU, -1, IC_INT}; /* -1: ID_OC_MEM */
    for (int c = 0; c < 4; c++) {
        int cls = order[c], slot, u, k;
        uint64_t at;
        if (cls < 0) {
            while ((slot = sm_memq_waiting(s, &at, &k)) >= 0 && at <= p &&
                   (u = unit_free_at(o, k, p)) >= 0) {
                sm_memq_take_unit(s, slot, u, p);
            }
            continue;
        }
        /* every port tries the same oldest: none of the class goes while it finds no unit */
        while ((slot = oldest_waiting(o, cls)) >= 0 && o->idoc[cls][slot].at <= p &&
               (u = unit_free_at(o, o->idoc[cls][slot].k, p)) >= 0)
            unit_allocate(s, cls, slot, u, p);
    }
}

/* Runs the steps of cycle now that can change anything (the SM wakes for the first). */
void sm_oc_step(sm *s, uint64_t now)
{
    opcoll *o = &s->oc;
    uint64_t ports = (uint64_t)s->cfg->reg_ports, end = (now + 1) * ports;
    /* Steps of cycles the SM slept through changed nothing (it wakes for the first that can):
     * what made a step possible now (a pop freeing OC_EX_MEM) happened this cycle. */
    if (o->step < now * ports) o->step = now * ports;
    while (o->inflight) {
        uint64_t p = next_step(s);
        if (p < o->step) p = o->step;
        if (p >= end) break;
        unit_run_step(s, p, now);
        o->step = p + 1;
    }
    if (o->step < end) o->step = end;
}

/* The cycle of the next step that can change anything, UINT64_MAX when none is held. */
uint64_t sm_oc_wake(sm *s)
{
    if (!s->oc.inflight) return UINT64_MAX;
    uint64_t p = next_step(s);
    if (p < s->oc.step) p = s->oc.step;
    return p == UINT64_MAX ? p : sm_per_ports(p, (uint64_t)s->cfg->reg_ports);
}
