/* Turns the SMs' and the memory system's counters into the exported metrics, energy
 * included (docs/metrics.md). */
#ifndef WT_STATS_H
#define WT_STATS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/config/config.h"
#include "core/config/metrics.h"
#include "core/sim/sm.h"

/* Writes one CSV row per SM (with a header): cycles, instructions, IPC, C_idle, C_mem, RACT,
 * util, lat_rt, L1D accesses and misses, CTAs. */
void stats_write_per_sm(FILE *f, const gpu_config *c, const sm *const *sms, uint64_t cycles);

void stats_collect(const gpu_config *c, const sm *const *sms, const memsys *mem, uint64_t cycles,
                   int kernels, sim_metrics *m);

/* Every counter the metrics derive from, summed over the SMs, as one vector: what sampled
 * simulation (core/sim/sample.h) measures over a stretch of a run and projects onto the work it
 * did not simulate. The cycles, then the SMs' counters (sm_stats up to its disparity fields),
 * then the memory system's (memsys_stats). */
#define STATS_SM_WORDS  (offsetof(sm_stats, disparity_sum) / sizeof(uint64_t))
#define STATS_MEM_WORDS (sizeof(memsys_stats) / sizeof(uint64_t))
#define STATS_WORDS     (1 + STATS_SM_WORDS + STATS_MEM_WORDS)
/* Slots of the vector that sampling counts exactly instead of projecting. */
#define STATS_CYCLES       0
#define STATS_WARP_INSTS   (1 + offsetof(sm_stats, warp_insts) / sizeof(uint64_t))
#define STATS_THREAD_INSTS (1 + offsetof(sm_stats, thread_insts) / sizeof(uint64_t))
#define STATS_CTAS         (1 + offsetof(sm_stats, ctas_done) / sizeof(uint64_t))
typedef struct stats_counters {
    double v[STATS_WORDS];
} stats_counters;

/* The counters as of cycle `cycles` (the SMs' statistics brought up to it first: sm_account),
 * and, if sm_insts is not NULL, each SM's warp instructions in it. */
void stats_capture(const gpu_config *c, sm *const *sms, const memsys *mem, uint64_t cycles,
                   stats_counters *out, double *sm_insts);

/* stats_collect with `extra` (projected counters) added to the measured ones: the metrics of a
 * sampled run. Means over SMs (ract, util) come from the sums; the warp disparities are the
 * measured CTAs'. */
void stats_collect_projected(const gpu_config *c, const sm *const *sms, const memsys *mem,
                             uint64_t cycles, const stats_counters *extra, int kernels,
                             sim_metrics *m);

#endif
