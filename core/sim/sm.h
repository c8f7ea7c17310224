/* One streaming multiprocessor: warp and CTA slots, warp schedulers, scoreboard, functional
 * units, barriers, the load/store unit with its L1D, and the per-SM statistics.
 *
 * An SM runs a cycle only when something can happen (sm_wake); between such cycles its state
 * is constant, and the cycles it skipped are accounted in bulk with the classification of the
 * last cycle it ran. Everything that changes an SM from outside (a reply, a new CTA) first
 * brings its accounting up to date. */
#ifndef WT_SM_H
#define WT_SM_H

#include <stdint.h>
#include <stdio.h>

#include "core/config/config.h"
#include "core/isource.h"
#include "core/sim/functional.h"
#include "core/config/metrics.h"
#include "core/mem/memsys.h"
#include "core/policy.h"

/* Counters kept per SM and summed into sim_metrics. */
enum stall_kind { ST_EXEC, ST_SCHED, ST_SYNC, ST_CTRL, ST_MEM, ST_DATA, ST_STRUCT, ST_COUNT };

typedef struct sm_stats {
    uint64_t warp_insts, thread_insts;
    uint64_t lanes_int, lanes_fp, lanes_sfu, reg_operands;
    uint64_t l1d_accesses, l1d_hits, l1d_misses, l1d_merged, l1d_resfails, l1d_bypasses;
    uint64_t l1d_intra_hits, l1d_inter_hits, l1d_bytes;
    uint64_t global_loads, coherent_loads, divergent_loads, fully_cached_loads,
        fully_cached_divergent_loads, load_misses;
    uint64_t mpli_hist[4]; /* loads with 1, 2, 3..31, 32+ misses (DaCache Fig. 2) */
    uint64_t global_stores, shared_accesses, shared_bytes, atomics;
    uint64_t rt_latency_sum, rt_count;
    uint64_t stall[ST_COUNT];
    uint64_t c_idle, c_mem, active_cycles, resident_cycles, cycles;
    uint64_t ctas_done;
    double disparity_sum, disparity_max;
    /* counters since the last sample (DYNCTA) */
    uint32_t sample_idle, sample_mem;
} sm_stats;

typedef struct sm sm;

typedef struct sm_env {
    int id;
    const gpu_config *cfg;
    const param_set *params;
    const sched_ops *sched;  /* the warp scheduler, one instance per scheduler of the SM */
    const l1_policy_ops *l1; /* the L1D's policy */
    memsys *mem;
    isource *src;
    uint64_t seed;                 /* sim.seed: the SM draws from its own stream of it */
    const struct sim_options *opt; /* L1D trace and observer, or NULL */
} sm_env;

int sm_create(sm **out, const sm_env *env, char *err, size_t errlen);
void sm_destroy(sm *s);

/* A kernel begins: CTAs of `warps_per_cta` warps. */
void sm_kernel_start(sm *s, const kernel_launch *k);
/* The L1D at a kernel's start, `ctas` of which fit on an SM: the adaptive carveout's geometry
 * (l1d.unified_kb) and the invalidation between kernels (l1d.kernel_flush). Returns 0, or -1
 * with err. */
int sm_l1d_kernel_start(sm *s, const kernel_launch *k, int ctas, char *err, size_t errlen);
/* Starts CTA cta_id at cycle now, before the SMs run it, or after (after_cycle: it issues from
 * the next). The caller has checked sm_resident_ctas() < the limit. */
void sm_start_cta(sm *s, uint32_t cta_id, uint64_t now, bool after_cycle);
int sm_resident_ctas(const sm *s);
/* Pauses the newest CTAs beyond `limit` (DYNCTA: deprioritised, not preempted). */
void sm_set_cta_limit(sm *s, int limit, uint64_t now);
/* CTAs finished since the last call. */
int sm_take_finished(sm *s);

/* Runs cycle now. Returns the number of instructions issued, or -1 with err (a workload
 * runtime error). */
int sm_cycle(sm *s, uint64_t now, char *err, size_t errlen);
/* Sampled simulation's stop inside a kernel (core/sim/sample.h): every resident warp runs
 * functionally up to its exit, which it then issues in the cycles after now, and its CTA's
 * barriers hold only as long as the warps still to arrive at them take functionally. Adds the
 * instructions run to *add; with `warm`, their global accesses warm its L2. Returns 0, or -1 with
 * err (a workload runtime error). */
int sm_fast_forward(sm *s, uint64_t now, memsys *warm, func_counts *add, char *err, size_t errlen);
/* A reply from the memory system arrived at cycle now. */
void sm_deliver(sm *s, const mem_packet *p, uint64_t now);
/* The next cycle this SM must run (UINT64_MAX: only an outside event can wake it). */
uint64_t sm_wake(const sm *s);
/* Does the SM hold live warps or work in flight? */
int sm_busy(const sm *s);
/* Brings the statistics up to cycle now (exclusive) without running a cycle. */
void sm_account(sm *s, uint64_t now);
/* Reads and resets the sample counters (DYNCTA's C_idle and C_mem). */
void sm_take_sample(sm *s, uint64_t now, uint32_t *c_idle, uint32_t *c_mem);
const sm_stats *sm_get_stats(const sm *s);
/* Adds the statistics of the SM's warp scheduler instances into sched_sums and of its L1D
 * policy into l1_sums (one per metric each policy declares), and CPL's into m. */
void sm_collect_policies(const sm *s, double *sched_sums, double *l1_sums, sim_metrics *m);
/* Warps of the SM stuck at a barrier (for the no-progress message). */
int sm_warps_at_barrier(const sm *s);

/* 0 when one CTA of k fits in an SM of c (warp slots, threads, registers, shared memory);
 * else -1 with "kernel NAME (FILE:LINE): a CTA ... more than an SM's N (PARAMETER)" in err,
 * naming the first limit it exceeds. Such a kernel can never run, whatever the timing. */
int sm_cta_fit(const gpu_config *c, const kernel_launch *k, char *err, size_t errlen);

#endif
