/* The simulator's entry point: a configuration, the policies to run (injected by the caller),
 * an instruction source, and the metrics the run produced. One simulation is single-threaded
 * and owns all its state, so any number run side by side. The rest of warptune simulates
 * through explorer/simulate.h, which picks the policies the configuration names. */
#ifndef WT_SIM_H
#define WT_SIM_H

#include <stdint.h>
#include <stdio.h>

#include "core/config/metrics.h"
#include "core/config/params.h"
#include "core/isource.h"
#include "core/policy.h"

typedef enum sim_status {
    SIM_OK = 0,
    SIM_BAD_CONFIG = -1, /* the configuration cannot be simulated (message says why) */
    SIM_FAILED = -2,     /* the run stopped: watchdog, cycle cap, workload runtime error */
} sim_status;

/* One L1D access attempt, as an observer sees it. */
typedef struct l1_access_record {
    int sm;
    uint64_t cycle;
    int warp;
    uint32_t pc;
    uint64_t line;
    const char *kind;    /* "load", "store", "atomic" */
    const char *outcome; /* "hit", "miss", "merged", "reservation_fail", "bypass" */
} l1_access_record;

/* Threads that simulations running side by side lend each other: the explorer's, at the tail of
 * a batch, when fewer simulations are left than it has threads. A simulation given a share
 * borrows its part of the idle threads (the idle ones over the running simulations, rounded
 * up, within `max` in all) at each kernel start and every few thousand cycles, and gives them
 * back after; the threads only change how fast it runs. */
typedef struct sim_thread_share {
    _Atomic int idle;    /* threads with nothing to do, free to lend */
    _Atomic int running; /* simulations running that may borrow */
    int max;             /* the most threads one simulation uses */
} sim_thread_share;

typedef struct sim_options {
    FILE *l1_trace; /* if set, every L1D access as CSV: sm,cycle,warp,pc,line,kind,outcome (a
                     * replay that can only fail, waiting for a fill or an injection slot, is
                     * counted in l1d_reservation_fails but not listed) */
    /* if set, called for every L1D access attempt, in simulation order (Belady's offline
     * pass, outside analysis, which skips the failed ones), replays that can only fail
     * excepted, as in l1_trace */
    void (*l1_observer)(void *arg, const l1_access_record *r);
    void *l1_observer_arg;
    /* if set, every warp instruction issued as CSV, in simulation order: sm,cycle,warp,pc,
     * scheduler (pc as the instruction's index in its kernel; the order within a cycle is the
     * order the schedulers issued in) */
    FILE *issue_trace;
    /* if set, every SM's CTA limit at each kernel start and each CTA-scheduler sample, as CSV:
     * sm,cycle,n,n_max,ctas,c_idle,c_mem (n after the sample's decision, ctas resident with
     * paused ones, c_idle and c_mem of the period that ended; docs/policies.md) */
    FILE *cta_trace;
    /* if set, the per-SM statistics as CSV (a header line, then one row per SM): DYNCTA's
     * C_idle, C_mem, RACT, util and lat_rt per core */
    FILE *per_sm;
    /* Oracle per-warp execution times for a scheduler that uses them (CAWS), handed to it as
     * warp_view.oracle_cycles. NULL: none (explorer/simulate.h's sim_run makes one with a
     * profiling pass when the scheduler asks for it; core/sim/warp_profile.h). */
    const struct warp_profile *warp_profile;
    /* if set, every warp's execution time (its CTA's start to its exit) is recorded in it */
    struct warp_profile *warp_profile_out;
    /* Threads the SMs of a cycle step on (0 or 1: one after another). Results are the same at
     * every count (docs/architecture.md, "Parallel SMs"), so it is not a parameter of the
     * configuration. Ignored with l1_trace, l1_observer, issue_trace or warp_profile_out, and
     * for a source
     * that cannot defer its shared effects (isource_ops.defer). */
    int threads;
    /* if set, idle threads this simulation may borrow (same conditions as threads) */
    sim_thread_share *share;
} sim_options;

/* Makes the instruction source of one simulation (a workload instance, a trace reader) for a
 * GPU of num_sms SMs with max_warps warp and max_ctas CTA slots each. Returns 0, or -1 with
 * err. */
typedef int (*isource_factory)(void *arg, int num_sms, int max_warps, int max_ctas, isource *out,
                               char *err, size_t errlen);

/* The policies a simulation runs, chosen by its caller: the simulator knows a policy only by
 * its operations (core/policy.h), never by name. A policy's statistics (one sum per metric it
 * declares) go to the sim_metrics.policy slots its caller assigns: its k-th declared metric to
 * policy[*_slot[k]]. */
typedef struct sim_plugins {
    const sched_ops *sched;
    const l1_policy_ops *l1;
    const cta_ops *cta;
    uint8_t sched_slot[WT_POLICY_METRICS_MAX];
    uint8_t l1_slot[WT_POLICY_METRICS_MAX];
    uint8_t cta_slot[WT_POLICY_METRICS_MAX];
} sim_plugins;

/* Runs the instruction source `make` gives on the GPU `config` describes (every parameter of
 * the core's groups and of the plug-ins' is read from it), with the policies of `plugins`. On
 * SIM_FAILED the metrics describe the run up to the failure. `opt` may be NULL. A scheduler
 * that wants an oracle profile (sched_ops.profile_policy) gets the one in opt->warp_profile,
 * or none: making it is the caller's. */
sim_status sim_run_plugins(const param_set *config, const sim_plugins *plugins,
                           isource_factory make, void *arg, const sim_options *opt,
                           sim_metrics *out, char *err, size_t errlen);

/* A way to run a simulation by its configuration alone, as the composition above the core
 * offers it (sim_run_source): analyses that run simulations (core/analysis) are handed one. */
typedef sim_status (*sim_source_runner)(const param_set *config, isource_factory make, void *arg,
                                        const sim_options *opt, sim_metrics *out, char *err,
                                        size_t errlen);

#endif
