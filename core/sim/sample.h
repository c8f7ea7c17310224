/* Sampled simulation (docs/sampling.md): simulate a representative part of a run in detail,
 * run the rest functionally (its data stay right for later launches) and project its
 * statistics from the detailed part.
 *
 *  - Kernel sampling (sample.kernels): a functional pass over the whole program first measures
 *    every launch's features (core/sim/functional.h); a launch whose features match an earlier
 *    launch's within sample.kernel_tolerance joins that launch's group and, in the run, executes
 *    functionally, its counters projected from the group's first launch (its representative),
 *    scaled by their warp instructions.
 *  - Intra-kernel sampling (sample.intra): the detailed part of a launch is measured at the end of
 *    every interval (a CTA wave, or a window of cycles for a grid of few waves); once the cycles
 *    per warp instruction of sample.stable_waves intervals in a row each stay within
 *    sample.wave_tolerance of the interval before (the first sample.warmup_waves not compared),
 *    no CTA is handed out any more, the resident warps run functionally up to their exits (which
 *    the timing model then issues, draining what is in flight), the CTAs not handed out run
 *    functionally, and all of it is projected at the rates of the stable intervals.
 *
 * The cycle loop (core/sim/gpu.c) drives it; the sampler keeps the groups, the wave
 * measurements and the projected counters. Warp instructions, thread instructions and CTAs of
 * the functional parts are counted exactly, every other counter is projected. */
#ifndef WT_SAMPLE_H
#define WT_SAMPLE_H

#include <stdbool.h>

#include "core/config/config.h"
#include "core/sim/functional.h"
#include "core/sim/sim.h"
#include "core/sim/stats.h"

typedef struct sampler sampler;

/* A sampler for configuration c, or *out NULL when c samples nothing. With kernel sampling,
 * runs the functional pass over a second instance of the program (`make`). Returns 0, or -1 with
 * err. */
int sampler_create(sampler **out, const gpu_config *c, isource_factory make, void *arg, char *err,
                   size_t errlen);
void sampler_destroy(sampler *s);

/* The functional execution cap per CTA (warp instructions). */
#define SAMPLE_CTA_CAP ((uint64_t)1 << 28)

/* Launch k begins: whether it runs functionally (a member of an earlier launch's group). */
bool sampler_launch_functional(sampler *s, const kernel_launch *k);
/* The functional launch's counts: its counters are projected from its group's representative. */
void sampler_project_launch(sampler *s, const func_counts *fc);
/* A detailed launch begins, and ends, with the run's counters then (stats_capture). */
void sampler_launch_begin(sampler *s, const stats_counters *now);
void sampler_launch_end(sampler *s, const stats_counters *now);

/* Intra-kernel sampling measures a detailed launch at the ends of intervals: CTA waves (the CTAs
 * the GPU holds at once) when the grid holds enough of them, else windows of sample.window
 * cycles. The next interval ends when the kernel's finished CTAs reach *wave_at or the cycle
 * reaches *window_at (UINT32_MAX, UINT64_MAX: never). */
typedef struct sample_next {
    uint32_t wave_at;
    uint64_t window_at;
} sample_next;

/* The detailed launch starts at cycle `cycle` (the run's counters `now`, each SM's warp
 * instructions sm_insts), of `grid` CTAs with `wave` resident at once. */
sample_next sampler_kernel_start(sampler *s, uint32_t grid, uint32_t wave, uint64_t cycle,
                                 const stats_counters *now, const double *sm_insts);
/* An interval ended at cycle `cycle` (`finished` CTAs of the kernel finished, `dispatched` handed
 * out), with the run's counters `now`. Returns true when the kernel is stable: no more CTAs are
 * handed out and the resident ones are fast-forwarded (sm_fast_forward); else *next is where
 * the next interval ends. */
bool sampler_interval(sampler *s, uint32_t finished, uint32_t dispatched, uint64_t cycle,
                      const stats_counters *now, const double *sm_insts, sample_next *next);
/* The instructions the stable kernel did not simulate (fast-forwarded and the CTAs not handed
 * out) ran functionally: project them. sm_left[i]: the instructions fast-forwarded on SM i;
 * end_cycle: when the kernel's drain after the stop ended. The cycles they add are the larger
 * of the GPU's rate over all of them and the slowest SM's own rate over its own (a kernel whose
 * end waits for one SM's warps), and the kernel's last wave: half a CTA's life, less the
 * drain, which stood for it. */
void sampler_project_rest(sampler *s, const func_counts *fc, const double *sm_left,
                          uint64_t end_cycle);

/* The projected counters so far, to add to the measured ones (stats_collect_projected). */
const stats_counters *sampler_extra(const sampler *s);
/* Warp instructions projected (run functionally) so far. */
uint64_t sampler_projected_insts(const sampler *s);

#endif
