/* The SM's load/store unit: one memory instruction at a time, its accesses one a cycle (or, with
 * l1d.tag_pipeline, through the banks' queues of the L1D access pipeline) through the L1D and
 * its policy; misses and stores go to the memory system, and the replies complete the load
 * records that release the waiting registers. Shared-memory accesses take the unit for their
 * bank-conflict degree (sm.shared_path=ldst) or only a fixed latency.
 *
 * The unit writes the scoreboard (the destinations it reserves and releases), queues its timed
 * results (L1D hits, shared writebacks, drained fills), posts a wake-up when the unit frees or
 * a warp starts waiting on a miss, and reports L1D events for the schedulers. It calls no other
 * part of the SM. */
#ifndef WT_SM_LDST_H
#define WT_SM_LDST_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/config/config.h"
#include "core/mem/memsys.h"
#include "core/sim/cpl.h"
#include "core/sim/sim.h"
#include "core/sim/sm.h"
#include "core/sim/sm_events.h"
#include "core/sim/sm_scoreboard.h"
#include "core/sim/sm_warps.h"

typedef struct sm_ldst sm_ldst;

typedef struct ldst_env {
    int sm;
    const gpu_config *cfg;
    const param_set *params; /* the L1D policy's parameters */
    const l1_policy_ops *l1; /* the L1D's policy */
    wt_rng *rng;
    memsys *mem;
    const cpl *cpl;         /* the criticality an L1D policy may read */
    bool report_l1;         /* report L1D events (the scheduler learns from them) */
    const sim_options *opt; /* the L1D access trace and observer, or NULL */
    sm_evq *ev;
    scoreboard *sb;
    sm_warps *wp;
    sm_wakes *wakes;
    sm_reports *rep;
    sm_stats *st;
} ldst_env;

int ldst_create(sm_ldst **out, const ldst_env *env, char *err, size_t errlen);
void ldst_destroy(sm_ldst *ld);

/* The L1D at a kernel's start, `ctas` of which fit on an SM: the adaptive carveout's geometry
 * (l1d.unified_kb) and the invalidation between kernels (l1d.kernel_flush). Returns 0, or -1
 * with err. */
int ldst_kernel_start(sm_ldst *ld, const kernel_launch *k, int ctas, char *err, size_t errlen);

/* Does the unit hold an instruction (it takes no other)? */
bool ldst_busy(const sm_ldst *ld);
/* Does the L1D's policy read the warps' scheduling priority (l1_request.warp_prio)? */
bool ldst_wants_priority(const sm_ldst *ld);

/* Warp wi's global load, store or atomic takes the unit (prio: the warp's scheduling rank). */
void ldst_issue(sm_ldst *ld, int wi, const inst_info *in, const inst_exec *x, uint64_t now,
                int prio);
/* Warp wi's shared load or store takes the unit for its bank-conflict degree. */
void ldst_shared(sm_ldst *ld, int wi, const inst_info *in, const inst_exec *x, uint64_t now);
/* Warp wi's shared load or store without the unit: written back sm.shared_latency later. */
void ldst_shared_fixed(sm_ldst *ld, int wi, const inst_info *in, uint64_t now);

/* The cycle's load/store work: the L1D access pipeline's heads, then the unit's access. */
void ldst_cycle(sm_ldst *ld, uint64_t now);
/* One access of load record rec is done (a timed EV_ACCESS event). */
void ldst_access_done(sm_ldst *ld, int rec, uint64_t now);
/* A reply for the unit: an L1D fill, a load around the L1D or an atomic. */
void ldst_deliver(sm_ldst *ld, const mem_packet *p, uint64_t now);
/* The next cycle the unit has something to do (UINT64_MAX: nothing before a fill or an
 * outside event). */
uint64_t ldst_wake(const sm_ldst *ld, uint64_t now);
/* Accesses in the unit, its pipeline or in flight. */
bool ldst_pending(const sm_ldst *ld);

/* Adds the L1D policy's statistics (its current L1D's and those of the L1Ds the carveout
 * replaced) into sums, one per metric the policy declares. */
void ldst_collect(const sm_ldst *ld, double *sums);

#endif
