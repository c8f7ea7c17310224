/* The SM's issue stage: its warp schedulers (one instance of the scheduler per sm.schedulers,
 * with the state they share per SM), CAWA's criticality predictor fed beside them, the
 * classification of every warp (ready, or why not: the stall kinds of the statistics) and
 * the accounting of the cycles in each kind, C_idle and C_mem included.
 *
 * A scan classifies only the warps whose issue state may have changed (the wake-ups other
 * components post); the SM runs the schedulers in their order, asks each for its pick and
 * dispatches it. The stage reads the other components' state (the warps, the scoreboard, the
 * front end, the execution stage, the load/store unit) and changes none of it. */
#ifndef WT_SM_ISSUE_H
#define WT_SM_ISSUE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/config/config.h"
#include "core/policy.h"
#include "core/sim/cpl.h"
#include "core/sim/sm.h"
#include "core/sim/sm_events.h"
#include "core/sim/sm_exec.h"
#include "core/sim/sm_fetch.h"
#include "core/sim/sm_ldst.h"
#include "core/sim/sm_scoreboard.h"
#include "core/sim/sm_warps.h"

typedef struct sm_issue sm_issue;

typedef struct issue_env {
    int sm;
    const gpu_config *cfg;
    const param_set *params;
    const sched_ops *sched;
    wt_rng *rng;
    cpl *cpl;
    const sm_warps *wp;
    const scoreboard *sb;
    const sm_frontend *fe;
    const sm_exec *ex;
    const sm_ldst *ld;
    sm_wakes *wakes;
    sm_stats *st;
} issue_env;

int issue_create(sm_issue **out, const issue_env *env, char *err, size_t errlen);
void issue_destroy(sm_issue *is);

/* Classifies scheduler k's warps that may have changed and returns how many it may pick from,
 * in *list: the ready warps, or when none is ready the ready ones of paused CTAs (DYNCTA IV).
 * *wake gets the earliest cycle a warp that could not issue might become able to without an
 * outside event. */
int issue_scan(sm_issue *is, int k, uint64_t now, uint64_t *wake, const warp_view *const **list);
/* Scheduler k's pick among them: the warp slot to issue, or -1. */
int issue_pick(sm_issue *is, int k, const warp_view *const *list, int n, uint64_t now,
               uint64_t *wake);
/* The cycle's scan is over, `issued` instructions issued: its classification holds for the
 * cycles the SM may sleep through. */
void issue_scan_done(sm_issue *is, int issued);
/* Cycle now ran (after its scan, if any), issuing `issued`. */
void issue_cycle_done(sm_issue *is, uint64_t now, int issued);

/* The warp of scheduler k issues at now (view: as it was before the issue): the schedulers and
 * the predictor hear of it, with the cycles it waited since its last issue. */
void issue_issued(sm_issue *is, int wi, int k, const warp_view *view, uint64_t now);
void issue_branch(sm_issue *is, int k, const branch_event *b);
void issue_l1_event(sm_issue *is, const l1_event *e);
void issue_warp_start(sm_issue *is, int wi, int cta_slot, uint64_t now);
void issue_warp_exit(sm_issue *is, int wi, uint64_t now);
/* The scheduling priority rank of warp wi among the live warps (0 = highest). */
int issue_priority(const sm_issue *is, int wi);

/* Time passes for the schedulers up to now (on_cycles), before anything touches the SM. */
void issue_catch_up(sm_issue *is, uint64_t now);
/* Brings the statistics up to cycle now (exclusive): the cycles since go to a pending count,
 * charged with the classification in force when it is about to change. */
void issue_account_to(sm_issue *is, uint64_t now);
/* ... and charges every pending cycle now (the statistics are read). */
void issue_account(sm_issue *is, uint64_t now);
/* Reads and resets the sample counters (DYNCTA's C_idle and C_mem). */
void issue_take_sample(sm_issue *is, uint64_t now, uint32_t *c_idle, uint32_t *c_mem);

/* Adds the scheduler instances' statistics into sums (one per metric it declares). */
void issue_collect(const sm_issue *is, double *sums);

#endif
