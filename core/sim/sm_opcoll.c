/* The operand collector (sm.operand_collector), as GPGPU-Sim models it (shader.cc,
 * opndcoll_rfu_t: step, allocate_cu, allocate_reads, dispatch_ready_cu; register_bank).
 *
 * An INT, FP or SFU instruction issues into a slot of its class's ID_OC pipeline register.
 * Each port pass (-gpgpu_reg_file_port_throughput per cycle, after execute and before issue
 * in the cycle) first dispatches collector units whose operands are all read into OC_EX,
 * then lets each bank serve the oldest read queued on it, then moves instructions from
 * ID_OC into free collector units, which queue one read per distinct source register on its
 * bank. The wavefront arbiter grants every bank's queue head (a collector unit may read
 * several banks at once), so a bank is a FIFO serving one read per pass. The unit takes the
 * instruction from OC_EX in the next cycle's execute, when it is free.
 *
 * Every one of these steps is in order per resource, so the whole path of an instruction is
 * known when it issues: oc_issue computes it from the times each resource frees and
 * returns the cycle the unit starts it. Not modelled: bank writes (GPGPU-Sim gives them
 * priority over reads) and the limit of dispatch units per collector set (out ports). Memory
 * instructions go to the load/store unit as without the collector, unless
 * sm.mem_queue_collectors makes each queued one hold a unit (oc_hold) until it enters it.
 *
 * With sm.oc_dispatch=unit (GPGPU-Sim's sub-core order) a later instruction can overtake an
 * earlier one, and sm_exec.c decides the path step by step instead, with the resources here.
 * These functions read and change the collector's state alone (sm_exec_internal.h). */
#include <assert.h>
#include <stdbool.h>
#include <string.h>

#include "core/sim/sm_exec_internal.h"
#include "core/util/bits.h"

/* The share [*lo, *hi) of n resources that scheduler k uses: its own with sm.sub_core. */
static void share(const gpu_config *c, int n, int k, int *lo, int *hi)
{
    if (c->sub_core) {
        int per = n / c->schedulers;
        *lo = k * per;
        *hi = *lo + per;
    } else {
        *lo = 0;
        *hi = n;
    }
}

/* Each scheduler's share of each resource, once: the issue path reads them. */
void oc_init(opcoll *o, const gpu_config *c)
{
    o->cfg = c;
    int n[OCS_COUNT] = {c->pipe_width, c->pipe_width_sfu, c->oc_units, c->oc_units_sfu,
                        c->reg_banks};
    for (int r = 0; r < OCS_COUNT; r++)
        for (int k = 0; k < c->schedulers; k++) {
            int lo, hi;
            share(c, n[r], k, &lo, &hi);
            o->share_lo[r][k] = (uint8_t)lo;
            o->share_hi[r][k] = (uint8_t)hi;
        }
    /* the generic units' shares are one per scheduler (sub-cores) or one for all */
    memset(o->cu_share, 4, sizeof o->cu_share);
    for (int k = 0; k < c->schedulers; k++) {
        o->k_share[k] = (uint8_t)(c->sub_core ? k : 0);
        for (int cu = o->share_lo[OCS_UNIT][k]; cu < o->share_hi[OCS_UNIT][k]; cu++)
            o->cu_share[cu] = o->k_share[k];
    }
}

/* Unit cu starts (d = 1) or stops (d = -1) being held: its share counts it. */
static void count_held(opcoll *o, int cu, int d)
{
    o->held[o->cu_share[cu]] = (uint8_t)(o->held[o->cu_share[cu]] + d);
}

/* earliest, and in *rest the smallest of the others (UINT64_MAX when there are none): the
 * earliest after the one found changes is then known without a second pass. */
static int earliest_rest(const uint64_t *t, int lo, int hi, uint64_t *rest)
{
    int best = lo;
    uint64_t r = UINT64_MAX;
    for (int i = lo + 1; i < hi; i++) {
        if (t[i] < t[best]) {
            r = t[best]; /* the smallest so far, so no larger than r */
            best = i;
        } else if (t[i] < r) {
            r = t[i];
        }
    }
    *rest = r;
    return best;
}

/* The collector unit an instruction issued at now is allocated: the one that frees first, or
 * with sm.mem_queue_order=collector, GPGPU-Sim's choice (allocate_cu searches from the first
 * unit): the lowest-numbered one free at the first pass of the next cycle, if any. */
static int lowest_free(const opcoll *o, const uint64_t *t, int lo, int hi, uint64_t now)
{
    if (o->cfg->mem_queue_rr || o->cfg->oc_unit_order) {
        uint64_t alloc = (now + 1) * (uint64_t)o->cfg->reg_ports;
        for (int i = lo; i < hi; i++)
            if (t[i] <= alloc) return i;
    }
    return oc_earliest(t, lo, hi);
}

/* The port pass from which unit cu can be allocated to an instruction issued at now: the first
 * of the next cycle, or when the unit frees. */
static uint64_t unit_alloc(const opcoll *o, int cu, uint64_t now, uint64_t ports)
{
    uint64_t alloc = (now + 1) * ports;
    return o->cu_free[cu] > alloc ? o->cu_free[cu] : alloc;
}

/* The first cycle scheduler k can issue an instruction of class cls (INT, FP or SFU): kept
 * in id_free as the slots change (only an issue changes one), since every look at a warp
 * waiting to issue such an instruction asks. */
uint64_t oc_slot_free(const opcoll *o, int k, int cls)
{
    return o->id_free[cls][k];
}

/* The banks of the distinct general registers warp wi's instruction reads (predicates are not
 * in banks), in scheduler k's share: register r of warp w is in bank (r + w) mod banks. */
int oc_banks(const opcoll *o, int k, int wi, const inst_info *in, uint8_t bank[4])
{
    int blo = o->share_lo[OCS_BANK][k], bhi = o->share_hi[OCS_BANK][k], n = 0;
    for (int i = 0; i < in->nsrc; i++) {
        int r = in->src[i];
        if (r >= WT_MAX_REGS && r < WT_MAX_REGS + WT_MAX_PREDS) continue;
        int dup = 0;
        for (int j = 0; j < i; j++)
            dup |= in->src[j] == in->src[i];
        if (dup) continue;
        int reg = r < WT_MAX_REGS ? r : r - WT_MAX_PREDS;
        bank[n++] = (uint8_t)(blo + (int)wt_mod((unsigned)(reg + wi), (unsigned)(bhi - blo)));
    }
    return n;
}

/* A unit allocated at step p reads the n banks, each a FIFO serving one read per step from
 * the step after; returns the step of the last read (p if none). */
uint64_t oc_read(opcoll *o, const uint8_t *bank, int n, uint64_t p)
{
    uint64_t done = p;
    for (int i = 0; i < n; i++) {
        uint64_t r = p + 1;
        if (o->bank_next[bank[i]] > r) r = o->bank_next[bank[i]];
        o->bank_next[bank[i]] = r + 1;
        if (r > done) done = r;
    }
    return done;
}

/* An INT, FP or SFU instruction of warp wi issued at now by scheduler k goes through a
 * collector unit to its execution unit (free from *unit) and holds that unit ii cycles.
 * Returns its start cycle. */
uint64_t oc_issue(opcoll *o, int wi, int k, const inst_info *in, uint64_t now, int ii,
                  uint64_t *unit)
{
    const gpu_config *c = o->cfg;
    int cls = in->cls;
    uint64_t ports = (uint64_t)c->reg_ports;
    int ws = cls == IC_SFU ? OCS_SLOT_SFU : OCS_SLOT;
    int lo = o->share_lo[ws][k], hi = o->share_hi[ws][k];
    uint64_t others;
    int slot = earliest_rest(o->id_oc[cls], lo, hi, &others);
    assert(o->id_oc[cls][slot] <= now);

    /* a collector unit: the first pass of the next cycle, or when one frees */
    int base = 0, us = OCS_UNIT;
    if (cls == IC_SFU && c->oc_units_sfu) {
        base = c->oc_units;
        us = OCS_UNIT_SFU;
    }
    int clo = o->share_lo[us][k], chi = o->share_hi[us][k];
    int cu = base + lowest_free(o, o->cu_free + base, clo, chi, now);
    uint64_t alloc = unit_alloc(o, cu, now, ports);
    o->id_oc[cls][slot] = oc_per_ports(alloc, ports); /* issue follows the cycle's port passes */
    uint64_t first = o->id_oc[cls][slot] < others ? o->id_oc[cls][slot] : others;
    if (c->sub_core && hi > lo) /* shares of their own: only k's holds the slot */
        o->id_free[cls][k] = first;
    else /* one share for all (without sub-cores, or sub-cores sharing slot 0) */
        for (int j = 0; j < c->schedulers; j++)
            o->id_free[cls][j] = first;

    /* the reads, one per distinct general register, from the pass after allocation */
    uint8_t banks[4];
    uint64_t done = oc_read(o, banks, oc_banks(o, k, wi, in, banks), alloc);

    /* dispatch into OC_EX in the pass after the last read, once a slot is free */
    int ex = oc_earliest(o->oc_ex[cls], lo, hi);
    uint64_t disp = done + 1;
    if (o->oc_ex[cls][ex] * ports > disp) disp = o->oc_ex[cls][ex] * ports;
    if (o->cu_free[cu] == UINT64_MAX) count_held(o, cu, -1); /* not reached: classify's check */
    o->cu_free[cu] = disp;
    o->cu_disp[cu] = disp;

    /* the unit takes it in the next cycle's execute, once it is free */
    uint64_t start = oc_per_ports(disp, ports) + 1;
    if (*unit > start) start = *unit;
    *unit = start + (uint64_t)ii;
    o->oc_ex[cls][ex] = start;
    return start;
}

/* sm.mem_queue_collectors: is one of scheduler k's generic collector units not held by a
 * queued memory instruction? (An instruction of class cls using the SFU's own units needs none
 * of them.) */
bool oc_unit_free(const opcoll *o, int k, int cls)
{
    if (cls == IC_SFU && o->cfg->oc_units_sfu) return true;
    /* sm.oc_dispatch=unit: every instruction waits in its ID_OC slot for a unit; an INT, FP or
     * SFU one issues when its slot is free (oc_slot_free), a memory one when no other of its
     * scheduler's waits in ID_OC_MEM (one slot each, as -gpgpu_pipeline_widths give it) */
    if (o->cfg->oc_unit_order) {
        if (cls == IC_INT || cls == IC_FP || cls == IC_SFU) return true;
        return o->mq_waiting[k] < (o->share_hi[OCS_SLOT][k] - o->share_lo[OCS_SLOT][k]);
    }
    int lo = o->share_lo[OCS_UNIT][k], hi = o->share_hi[OCS_UNIT][k];
#ifndef NDEBUG
    int held = 0;
    for (int i = lo; i < hi; i++)
        held += o->cu_free[i] == UINT64_MAX;
    assert(held == o->held[o->k_share[k]]);
#endif
    return o->held[o->k_share[k]] < hi - lo;
}

/* A memory instruction of scheduler k issued at now takes the generic collector unit that
 * frees first (there is one: oc_unit_free), or with sm.mem_queue_order=collector the
 * lowest-numbered one free when it is allocated (GPGPU-Sim's allocate_cu searches from the
 * first), and holds it until oc_release. Returns the unit; *from is the cycle it has it. */
int oc_hold(opcoll *o, int k, uint64_t now, uint64_t *from)
{
    int cu = lowest_free(o, o->cu_free, o->share_lo[OCS_UNIT][k], o->share_hi[OCS_UNIT][k], now);
    assert(o->cu_free[cu] != UINT64_MAX);
    uint64_t ports = (uint64_t)o->cfg->reg_ports;
    *from = oc_per_ports(unit_alloc(o, cu, now, ports), ports);
    o->cu_free[cu] = UINT64_MAX;
    count_held(o, cu, 1);
    return cu;
}

/* The memory instruction holding unit cu entered the load/store unit at now: the unit is free
 * for the next cycle's passes. */
void oc_release(opcoll *o, int cu, uint64_t now)
{
    if (o->cu_free[cu] == UINT64_MAX) count_held(o, cu, -1);
    o->cu_free[cu] = (now + 1) * (uint64_t)o->cfg->reg_ports;
    o->cu_disp[cu] = now * (uint64_t)o->cfg->reg_ports;
}

/* The generic collector unit from which GPGPU-Sim's dispatch unit searches for a ready one at
 * cycle now (dispatch_unit_t::find_ready): the one after the unit that dispatched last (an
 * INT, FP or SFU instruction's or a memory instruction's). One search position stands for the
 * dispatch units of the set (-gpgpu_operand_collector_num_out_ports_gen), each of which keeps
 * its own in GPGPU-Sim. */
int oc_rr_start(const opcoll *o, uint64_t now)
{
    int n = o->cfg->oc_units, last = n - 1;
    uint64_t limit = (now + 1) * (uint64_t)o->cfg->reg_ports, best = 0;
    for (int i = 0; i < n; i++)
        if (o->cu_disp[i] < limit && o->cu_disp[i] >= best) {
            best = o->cu_disp[i];
            last = i;
        }
    return last + 1 == n ? 0 : last + 1;
}
