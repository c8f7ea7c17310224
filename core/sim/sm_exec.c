/* The SM's execution stage (core/sim/sm_exec.h): the units, the operand collector in either
 * order, and the memory queue to the load/store unit. The collector's resources are computed
 * in sm_opcoll.c. */
#include "core/sim/sm_exec.h"

#include <assert.h>
#include <stdlib.h>

#include "core/sim/sm_exec_internal.h"
#include "core/util/bits.h"

#define MQ_WAITING (-2) /* sm.oc_dispatch=unit: in ID_OC_MEM, waiting for a unit */
#define MQ_EX      (-3) /* sm.oc_dispatch=unit: in its scheduler's OC_EX_MEM slot */

typedef struct mem_queued {
    exec_mem m;     /* the instruction: its warp, what it is and what it did */
    int cu;         /* the collector unit it holds (sm.mem_queue_collectors), or -1; with
                     * sm.oc_dispatch=unit, MQ_WAITING until the collector allocates one */
    uint64_t ready; /* first cycle it may enter the unit (UINT64_MAX while MQ_WAITING) */
    uint64_t at;    /* MQ_WAITING: the collector step from which it may take a unit */
} mem_queued;

struct sm_exec {
    const gpu_config *cfg;
    sm_evq *ev;
    scoreboard *sb;
    sm_warps *wp;
    sm_wakes *wakes;
    sm_reports *rep;
    sm_stats *st;
    uint64_t unit_free[4][IC_COUNT]; /* per scheduler: INT and FP; [0][IC_SFU] for the SFU */
    int ii_alu, ii_sfu;
    opcoll oc; /* sm.operand_collector */
    /* sm.mem_queue: memory instructions issued and on their way to the load/store unit, in
     * issue order (a ring of cfg->mem_queue entries) */
    mem_queued *mq;
    int mq_head, mq_n;
};

static int ceil_div(int a, int b)
{
    return (a + b - 1) / b;
}

static int sched_of(const sm_exec *ex, int wi)
{
    return (int)wt_mod((uint64_t)wi, (uint64_t)ex->cfg->schedulers);
}

int exec_create(sm_exec **out, const gpu_config *cfg, sm_evq *ev, scoreboard *sb, sm_warps *wp,
                sm_wakes *wakes, sm_reports *rep, sm_stats *st)
{
    sm_exec *ex = calloc(1, sizeof *ex);
    if (!ex) return -1;
    ex->cfg = cfg;
    ex->ev = ev;
    ex->sb = sb;
    ex->wp = wp;
    ex->wakes = wakes;
    ex->rep = rep;
    ex->st = st;
    ex->ii_alu = ceil_div(WT_WARP_SIZE, cfg->simd_width);
    ex->ii_sfu = ceil_div(WT_WARP_SIZE, cfg->sfu_width);
    oc_init(&ex->oc, cfg);
    if (cfg->mem_queue && !(ex->mq = malloc((size_t)cfg->mem_queue * sizeof *ex->mq))) {
        free(ex);
        return -1;
    }
    *out = ex;
    return 0;
}

void exec_destroy(sm_exec *ex)
{
    if (!ex) return;
    free(ex->mq);
    free(ex);
}

/* ------------------------------------------------------- the issue stage's view ---- */

uint64_t exec_free_at(const sm_exec *ex, int k, int cls)
{
    const gpu_config *c = ex->cfg;
    if (cls == IC_BRANCH) return c->branch_unit_ii ? ex->unit_free[k][IC_BRANCH] : 0;
    if (c->operand_collector) /* a free ID_OC slot; the unit is the collector's */
        return oc_slot_free(&ex->oc, k, cls);
    return ex->unit_free[cls == IC_SFU && !c->sub_core ? 0 : k][cls];
}

bool exec_units_held(const sm_exec *ex, int k, int cls)
{
    return ex->cfg->mem_queue_collectors && ex->cfg->operand_collector &&
           !oc_unit_free(&ex->oc, k, cls);
}

bool exec_mem_full(const sm_exec *ex)
{
    return ex->mq_n >= ex->cfg->mem_queue;
}

bool exec_busy(const sm_exec *ex)
{
    return ex->mq_n > 0 || ex->oc.inflight > 0;
}

/* ------------------------------------------------- the sub-core order ---- */

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
 * step is one of the cycle's -gpgpu_reg_file_port_throughput passes): exec_step runs the steps
 * of a cycle before its issue, only those where something can change. Each step dispatches
 * first (a ready unit whose OC_EX slot is free; the unit takes the instruction in the next
 * cycle's execute, and its writeback is queued then), then allocates; a unit reads its
 * registers as oc_issue's do. Queued memory instructions (sm.mem_queue) wait in their
 * scheduler's ID_OC_MEM slot, take a unit like the others, move to their scheduler's OC_EX_MEM
 * slot when it is free (freeing the unit), and the load/store unit takes the oldest there
 * (below). */

/* An INT, FP or SFU instruction of warp wi issued at now by scheduler k enters a free slot of
 * its class's ID_OC share (the issue stage saw one: exec_free_at). Its destinations are pending
 * from now; their release, latency cycles after its unit starts it, is queued on event queue
 * `queue` when it leaves its collector unit (unit_dispatch). */
static void oc_enqueue(sm_exec *ex, int wi, int k, const inst_info *in, uint64_t now,
                       uint32_t latency, int ii, int queue)
{
    opcoll *o = &ex->oc;
    int cls = in->cls;
    int ws = cls == IC_SFU ? OCS_SLOT_SFU : OCS_SLOT;
    int lo = o->share_lo[ws][k], hi = o->share_hi[ws][k];
    int slot = lo;
    while (slot < hi && (o->idoc_used[cls] >> slot & 1))
        slot++;
    assert(slot < hi);
    oc_inst *x = &o->idoc[cls][slot];
    x->at = (now + 1) * (uint64_t)ex->cfg->reg_ports;
    x->seq = o->seq++;
    sb_dst_slots(in, x->m);
    sb_reserve(ex->sb, wi, x->m);
    x->latency = latency;
    x->ii = (uint8_t)ii;
    x->wi = (int8_t)wi;
    x->k = (int8_t)k;
    x->cls = (int8_t)cls;
    x->queue = (int8_t)queue;
    x->nbanks = (int8_t)oc_banks(o, k, wi, in, x->bank);
    o->idoc_used[cls] |= 1u << slot;
    bool full = true;
    for (int i = lo; i < hi; i++)
        full &= (o->idoc_used[cls] >> i & 1) != 0;
    if (full) o->id_free[cls][k] = UINT64_MAX; /* until one of them takes a unit */
    o->inflight++;
    /* nothing it brings can happen before it may take a unit: no recount needed */
    if (x->at < o->next) o->next = x->at;
    warps_in_collector(ex->wp, wi, 1);
}

static bool holds_alu(const opcoll *o, int u)
{
    return (o->cu_alu[u >> 6] >> (u & 63)) & 1;
}

/* The step from which scheduler k's OC_EX share for class cls has a free slot. */
static uint64_t ex_free_step(const opcoll *o, int k, int cls)
{
    int ws = cls == IC_SFU ? OCS_SLOT_SFU : OCS_SLOT;
    int lo = o->share_lo[ws][k], hi = o->share_hi[ws][k];
    int ex = hi - lo == 1 ? lo : oc_earliest(o->oc_ex[cls], lo, hi); /* one slot each: Volta */
    return o->oc_ex[cls][ex] * (uint64_t)o->cfg->reg_ports;
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

static int memq_waiting(const sm_exec *ex, uint64_t *at, int *k);

/* A lower bound on the next step at which something can happen: a held instruction is ready
 * and its OC_EX share has a free slot, or the oldest of a class in ID_OC has a free unit. */
static uint64_t unit_next(const sm_exec *ex)
{
    const opcoll *o = &ex->oc;
    uint64_t next = UINT64_MAX;
    for (int w = 0; w < OC_MAX_UNITS / 64; w++)
        for (uint64_t m = o->cu_alu[w]; m; m &= m - 1) {
            const oc_inst *x = &o->cu_inst[w * 64 + __builtin_ctzll(m)];
            uint64_t exs = ex_free_step(o, x->k, x->cls);
            uint64_t t = x->at > exs ? x->at : exs;
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
    for (k = 0; k < ex->cfg->schedulers; k++)
        waiting |= o->mq_waiting[k];
    if (waiting && memq_waiting(ex, &at, &k) >= 0) {
        uint64_t free = lowest_unit_free(o, k);
        if (free != UINT64_MAX) {
            uint64_t t = at > free ? at : free;
            if (t < next) next = t;
        }
    }
    return next;
}

/* unit_next, computed again only after something it reads changed. */
static uint64_t next_step(sm_exec *ex)
{
    opcoll *o = &ex->oc;
    if (o->next_stale) {
        o->next = unit_next(ex);
        o->next_stale = false;
    }
    return o->next;
}

/* Unit u's instruction enters its OC_EX slot at step p; its unit takes it in the next cycle's
 * execute, once free, and its writeback is queued. */
static void unit_dispatch(sm_exec *ex, int u, uint64_t p)
{
    opcoll *o = &ex->oc;
    oc_inst *x = &o->cu_inst[u];
    uint64_t ports = (uint64_t)ex->cfg->reg_ports;
    int ws = x->cls == IC_SFU ? OCS_SLOT_SFU : OCS_SLOT;
    int exs = oc_earliest(o->oc_ex[x->cls], o->share_lo[ws][x->k], o->share_hi[ws][x->k]);
    uint64_t *unit = &ex->unit_free[x->k][x->cls];
    uint64_t start = oc_per_ports(p, ports) + 1;
    if (*unit > start) start = *unit;
    *unit = start + (uint64_t)x->ii;
    o->oc_ex[x->cls][exs] = start;
    o->cu_free[u] = p;
    o->cu_disp[u] = p;
    o->cu_alu[u >> 6] &= ~(1ull << (u & 63));
    o->inflight--;
    if (x->m[0] | x->m[1]) {
        sm_event e = {.cycle = start + x->latency, .kind = EV_WB, .a = x->wi};
        e.m[0] = x->m[0];
        e.m[1] = x->m[1];
        sm_evq_push_sorted(ex->ev, &e, x->queue);
    }
    /* a unit is free: a memory instruction waiting for one may issue */
    sm_wake_unit(ex->wakes);
    warps_in_collector(ex->wp, x->wi, -1);
    const sm_warp *w = warps_get(ex->wp, x->wi);
    if (w->oc_count == 0 && w->exit_pending) { /* its last one: the warp may leave */
        sm_report r = {.kind = SMR_LEAVE, .warp = x->wi};
        sm_report_add(ex->rep, &r);
    }
}

static bool holds_mem(const opcoll *o, int u)
{
    return (o->cu_mem[u >> 6] >> (u & 63)) & 1;
}

static void memq_to_ex(sm_exec *ex, int cu, uint64_t p);

/* Unit u's queued memory instruction enters its scheduler's OC_EX_MEM slot at step p. */
static void mem_dispatch(sm_exec *ex, int u, uint64_t p)
{
    opcoll *o = &ex->oc;
    o->cu_mem[u >> 6] &= ~(1ull << (u & 63));
    o->inflight--;
    o->cu_free[u] = p;
    o->cu_disp[u] = p;
    memq_to_ex(ex, u, p);
    sm_wake_unit(ex->wakes); /* a memory instruction waiting for a unit may issue */
}

/* ID_OC's instruction in slot `slot` of class cls takes unit u at step p and queues its reads,
 * one per bank, each a FIFO serving one per step. */
static void unit_allocate(sm_exec *ex, int cls, int slot, int u, uint64_t p)
{
    opcoll *o = &ex->oc;
    oc_inst *x = &o->cu_inst[u];
    *x = o->idoc[cls][slot];
    x->at = oc_read(o, x->bank, x->nbanks, p) + 1;
    o->cu_free[u] = UINT64_MAX;
    o->cu_alu[u >> 6] |= 1ull << (u & 63);
    o->idoc_used[cls] &= ~(1u << slot);
    o->id_free[cls][x->k] = oc_per_ports(p, (uint64_t)ex->cfg->reg_ports);
    ex->wakes->scan_at = 0; /* the slot takes an issue this cycle */
}

static void memq_take_unit(sm_exec *ex, int i, int cu, uint64_t p);

/* One step p: dispatch (per scheduler and class, the lowest-numbered ready unit, while its
 * OC_EX share has a free slot), then allocation (per class in GPGPU-Sim's port order, SP, SFU,
 * INT: ID_OC's oldest takes its scheduler's lowest-numbered free unit, until the oldest left
 * finds none). */
static void unit_run_step(sm_exec *ex, uint64_t p)
{
    opcoll *o = &ex->oc;
    o->next_stale = true;
    /* the held units in ascending order: each scheduler's share is a run of them, and with
     * sub-cores (which this order needs) a unit's share is its scheduler's (cu_share) */
    for (int w = 0; w < OC_MAX_UNITS / 64; w++)
        for (uint64_t m = o->cu_alu[w] | o->cu_mem[w]; m; m &= m - 1) {
            int u = w * 64 + __builtin_ctzll(m), k = o->cu_share[u];
            if (holds_alu(o, u) && o->cu_inst[u].at <= p &&
                ex_free_step(o, k, o->cu_inst[u].cls) <= p)
                unit_dispatch(ex, u, p);
            else if (holds_mem(o, u) && o->cu_mem_at[u] <= p && !o->ex_mem_busy[k])
                mem_dispatch(ex, u, p);
        }
    static const int order[4] = {IC_FP, IC_SFU, -1, IC_INT}; /* -1: ID_OC_MEM */
    for (int c = 0; c < 4; c++) {
        int cls = order[c], slot, u, k;
        uint64_t at;
        if (cls < 0) {
            while ((slot = memq_waiting(ex, &at, &k)) >= 0 && at <= p &&
                   (u = unit_free_at(o, k, p)) >= 0) {
                memq_take_unit(ex, slot, u, p);
            }
            continue;
        }
        /* every port tries the same oldest: none of the class goes while it finds no unit */
        while ((slot = oldest_waiting(o, cls)) >= 0 && o->idoc[cls][slot].at <= p &&
               (u = unit_free_at(o, o->idoc[cls][slot].k, p)) >= 0)
            unit_allocate(ex, cls, slot, u, p);
    }
}

void exec_step(sm_exec *ex, uint64_t now)
{
    opcoll *o = &ex->oc;
    uint64_t ports = (uint64_t)ex->cfg->reg_ports, end = (now + 1) * ports;
    /* Steps of cycles the SM slept through changed nothing (it wakes for the first that can):
     * what made a step possible now (a pop freeing OC_EX_MEM) happened this cycle. */
    if (o->step < now * ports) o->step = now * ports;
    while (o->inflight) {
        uint64_t p = next_step(ex);
        if (p < o->step) p = o->step;
        if (p >= end) break;
        unit_run_step(ex, p);
        o->step = p + 1;
    }
    if (o->step < end) o->step = end;
}

/* The cycle of the next step that can change anything, UINT64_MAX when none is held. */
static uint64_t oc_wake(sm_exec *ex)
{
    if (!ex->oc.inflight) return UINT64_MAX;
    uint64_t p = next_step(ex);
    if (p < ex->oc.step) p = ex->oc.step;
    return p == UINT64_MAX ? p : oc_per_ports(p, (uint64_t)ex->cfg->reg_ports);
}

/* ---------------------------------------------------------------- the units ---- */

/* The destinations of an INT, FP or SFU instruction are pending from now and written back at
 * cycle `at` (with the operand collector, results come back out of order). */
static void writeback_after(sm_exec *ex, int wi, const inst_info *in, uint64_t at, int queue)
{
    sm_event e = {.cycle = at, .kind = EV_WB, .a = wi};
    sb_dst_slots(in, e.m);
    if (!(e.m[0] | e.m[1])) return;
    sb_reserve(ex->sb, wi, e.m);
    if (ex->cfg->operand_collector)
        sm_evq_push_sorted(ex->ev, &e, queue);
    else
        sm_evq_push(ex->ev, &e, queue);
}

/* Its unit, through the collector if there is one, held for ii cycles, and its writeback the
 * unit's latency after the unit starts it (with sm.oc_dispatch=unit the collector queues the
 * writeback when the instruction leaves it). */
void exec_alu(sm_exec *ex, int wi, int k, const inst_info *in, uint64_t now, uint32_t lanes, int ii)
{
    const gpu_config *c = ex->cfg;
    int cls = in->cls;
    if (!ii) ii = cls == IC_SFU ? ex->ii_sfu : ex->ii_alu;
    int queue = cls == IC_INT ? EVQ_INT : cls == IC_FP ? EVQ_FP : EVQ_SFU;
    int lat = cls == IC_INT ? c->int_latency : cls == IC_FP ? c->fp_latency : c->sfu_latency;
    uint64_t delay = (uint64_t)c->result_delay + (uint64_t)lat;
    if (cls == IC_INT)
        ex->st->lanes_int += lanes;
    else if (cls == IC_FP)
        ex->st->lanes_fp += lanes;
    else
        ex->st->lanes_sfu += lanes;
    if (c->oc_unit_order) {
        oc_enqueue(ex, wi, k, in, now, (uint32_t)delay, ii, queue);
        return;
    }
    uint64_t *unit =
        &ex->unit_free[cls == IC_SFU && !c->sub_core ? 0 : k][cls]; /* one SFU without sub-cores */
    uint64_t start = now; /* the cycle its unit starts it */
    if (c->operand_collector)
        start = oc_issue(&ex->oc, wi, k, in, now, ii, unit);
    else
        *unit = now + (uint64_t)ii;
    writeback_after(ex, wi, in, start + delay, queue);
}

void exec_branch(sm_exec *ex, int k, uint64_t now)
{
    if (ex->cfg->branch_unit_ii)
        ex->unit_free[k][IC_BRANCH] = now + (uint64_t)ex->cfg->branch_unit_ii;
}

/* ------------------------------------------------------ the memory queue ---- */

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

void exec_mem_push(sm_exec *ex, int wi, const inst_info *in, const inst_exec *x, uint64_t now)
{
    int cap = ex->cfg->mem_queue, k = ex->mq_head + ex->mq_n;
    mem_queued *e = &ex->mq[k >= cap ? k - cap : k];
    e->m.warp = wi;
    e->ready = now + (uint64_t)ex->cfg->mem_queue_delay;
    e->cu = -1;
    if (ex->cfg->oc_unit_order) {
        /* it waits in ID_OC_MEM; the collector's steps give it a unit (memq_take_unit) */
        e->cu = MQ_WAITING;
        e->at = (now + 1) * (uint64_t)ex->cfg->reg_ports;
        e->ready = UINT64_MAX;
        ex->oc.mq_waiting[sched_of(ex, wi)]++;
        ex->oc.inflight++;
        if (e->at < ex->oc.next) ex->oc.next = e->at; /* the collector's next step, at the latest */
    } else if (ex->cfg->mem_queue_collectors && ex->cfg->operand_collector) {
        uint64_t from;
        e->cu = oc_hold(&ex->oc, sched_of(ex, wi), now, &from);
        if (from + 1 > e->ready) e->ready = from + 1; /* a pass to read its operands */
    }
    e->m.in = *in;
    e->m.x = *x;
    ex->mq_n++;
    warps_mem_queued(ex->wp, wi, 1);
    /* the scoreboard reserves the destinations at issue; a global access with every lane off
     * accesses nothing and writes nothing (ldst_issue) */
    bool writes = x->active_mask || in->cls == IC_LD_SHARED;
    for (int i = 0; i < in->ndst && writes; i++) {
        uint64_t m[2] = {0, 0};
        m[in->dst[i] >> 6] = (uint64_t)1 << (in->dst[i] & 63);
        sb_reserve(ex->sb, wi, m);
        if (in->cls == IC_LD_GLOBAL || in->cls == IC_ATOMIC)
            sb_mark_long(ex->sb, wi, in->dst[i] >> 6, m[in->dst[i] >> 6]);
    }
}

/* sm.oc_dispatch=unit: the unit takes the oldest instruction in an OC_EX_MEM slot
 * (register_set::get_ready), which swaps places with the head; -1 if none is due. */
static int next_from_ex(sm_exec *ex, uint64_t now)
{
    int cap = ex->cfg->mem_queue;
    for (int i = 0; i < ex->mq_n; i++) {
        int k = ex->mq_head + i;
        mem_queued *e = &ex->mq[k >= cap ? k - cap : k];
        if (e->cu != MQ_EX) continue;
        if (e->ready > now) return -1;
        if (i > 0) {
            mem_queued t = *e;
            *e = ex->mq[ex->mq_head];
            ex->mq[ex->mq_head] = t;
        }
        return i;
    }
    return -1;
}

/* The queue's position (from its head) of the instruction that enters the unit next if it is
 * due at now, or -1: the head, or with sm.mem_queue_order=collector the due one whose unit
 * the collector's round robin reaches first. That one then swaps places with the head: the
 * order of the others does not matter in that mode. */
static int next_due(sm_exec *ex, uint64_t now)
{
    int cap = ex->cfg->mem_queue;
    if (ex->cfg->oc_unit_order) return next_from_ex(ex, now);
    if (!ex->cfg->mem_queue_rr) return ex->mq[ex->mq_head].ready <= now ? 0 : -1;
    int start = oc_rr_start(&ex->oc, now), n = ex->cfg->oc_units, best = -1, best_d = n;
    for (int i = 0; i < ex->mq_n; i++) {
        int k = ex->mq_head + i;
        const mem_queued *e = &ex->mq[k >= cap ? k - cap : k];
        if (e->ready > now) continue;
        int d = e->cu - start;
        if (d < 0) d += n;
        if (d < best_d) best_d = d, best = i;
    }
    if (best > 0) {
        int k = ex->mq_head + best;
        mem_queued *e = &ex->mq[k >= cap ? k - cap : k], t = *e;
        *e = ex->mq[ex->mq_head];
        ex->mq[ex->mq_head] = t;
    }
    return best;
}

const exec_mem *exec_mem_pop(sm_exec *ex, uint64_t now)
{
    if (!ex->mq_n || next_due(ex, now) < 0) return NULL;
    int cap = ex->cfg->mem_queue;
    const mem_queued *e = &ex->mq[ex->mq_head]; /* its slot is not reused before the next push */
    ex->mq_head = ex->mq_head + 1 == cap ? 0 : ex->mq_head + 1;
    ex->mq_n--;
    warps_mem_queued(ex->wp, e->m.warp, -1);
    if (e->cu >= 0) oc_release(&ex->oc, e->cu, now);
    if (e->cu == MQ_EX) {
        ex->oc.ex_mem_busy[sched_of(ex, e->m.warp)] = false;
        ex->oc.next_stale = true;
    }
    return &e->m;
}

/* When the queue needs the SM next: its head's due cycle while the unit is free. */
static uint64_t memq_wake(const sm_exec *ex, uint64_t now, bool ldst_busy)
{
    if (!ex->mq_n || ldst_busy) return UINT64_MAX;
    uint64_t r = ex->mq[ex->mq_head].ready;
    if (ex->cfg->oc_unit_order) { /* the oldest in OC_EX_MEM; the collector wakes for the rest */
        r = UINT64_MAX;
        for (int i = 0, cap = ex->cfg->mem_queue; i < ex->mq_n && r == UINT64_MAX; i++) {
            int k = ex->mq_head + i;
            if (ex->mq[k >= cap ? k - cap : k].cu == MQ_EX)
                r = ex->mq[k >= cap ? k - cap : k].ready;
        }
        if (r == UINT64_MAX) return r;
    }
    if (ex->cfg->mem_queue_rr) /* any of them may go first */
        for (int i = 1, cap = ex->cfg->mem_queue; i < ex->mq_n; i++) {
            int k = ex->mq_head + i;
            uint64_t q = ex->mq[k >= cap ? k - cap : k].ready;
            r = q < r ? q : r;
        }
    return r > now ? r : now + 1;
}

uint64_t exec_wake(sm_exec *ex, uint64_t now, bool ldst_busy)
{
    uint64_t wake = UINT64_MAX;
    if (ex->mq_n) wake = memq_wake(ex, now, ldst_busy);
    if (ex->cfg->oc_unit_order) {
        uint64_t q = oc_wake(ex);
        if (q < wake) wake = q;
    }
    return wake;
}

/* sm.oc_dispatch=unit: the queue position of the oldest instruction still waiting in ID_OC_MEM
 * for a collector unit, or -1; *at is the step from which it may take one, *k its scheduler. */
static int memq_waiting(const sm_exec *ex, uint64_t *at, int *k)
{
    for (int i = 0, cap = ex->cfg->mem_queue; i < ex->mq_n; i++) {
        int j = ex->mq_head + i;
        const mem_queued *e = &ex->mq[j >= cap ? j - cap : j];
        if (e->cu != MQ_WAITING) continue;
        *at = e->at;
        *k = sched_of(ex, e->m.warp);
        return i;
    }
    return -1;
}

/* The instruction at queue position i takes collector unit cu at step p and reads its operands;
 * the unit may pass it to OC_EX_MEM from the step after the last read. */
static void memq_take_unit(sm_exec *ex, int i, int cu, uint64_t p)
{
    int j = ex->mq_head + i, cap = ex->cfg->mem_queue;
    mem_queued *e = &ex->mq[j >= cap ? j - cap : j];
    int k = sched_of(ex, e->m.warp);
    uint8_t banks[4];
    e->cu = cu;
    ex->oc.cu_free[cu] = UINT64_MAX;
    ex->oc.cu_mem[cu >> 6] |= 1ull << (cu & 63);
    ex->oc.cu_mem_at[cu] =
        oc_read(&ex->oc, banks, oc_banks(&ex->oc, k, e->m.warp, &e->m.in, banks), p) + 1;
    ex->oc.mq_waiting[k]--;
    sm_wake_unit(ex->wakes); /* its ID_OC_MEM slot takes an issue */
}

/* The instruction in unit cu enters its scheduler's OC_EX_MEM slot at step p (the unit frees):
 * the load/store unit may take it in the next cycle, and no sooner than sm.mem_queue_delay
 * cycles after its issue. */
static void memq_to_ex(sm_exec *ex, int cu, uint64_t p)
{
    for (int i = 0, cap = ex->cfg->mem_queue; i < ex->mq_n; i++) {
        int j = ex->mq_head + i;
        mem_queued *e = &ex->mq[j >= cap ? j - cap : j];
        if (e->cu != cu) continue;
        uint64_t ports = (uint64_t)ex->cfg->reg_ports;
        e->cu = MQ_EX;
        e->ready = e->at / ports - 1 + (uint64_t)ex->cfg->mem_queue_delay;
        if (p / ports + 1 > e->ready) e->ready = p / ports + 1;
        ex->oc.ex_mem_busy[sched_of(ex, e->m.warp)] = true;
        return;
    }
    assert(0 && "a unit's memory instruction is queued");
}
