/* Per-warp execution-time profiles: the oracle knowledge of CAWS (CAWS slides, "CAWS speedup
 * with oracle knowledge"). A profile maps (kernel launch, CTA id, warp in CTA) to the warp's
 * execution time, from its CTA's start to its exit, in one run.
 *
 * A scheduler that wants one says so through sched_ops.profile_policy. sim_run then makes the
 * profile itself: it first runs the same configuration with the scheduler that hook names,
 * recording every warp's time (sim_options.warp_profile_out), then runs the configuration
 * asked for with that profile (sim_options.warp_profile), where each warp's time reaches the
 * scheduler as warp_view.oracle_cycles. The reported metrics are the second run's; it also
 * reports criticality_inversions. A caller that already has a profile passes it in
 * sim_options.warp_profile and no profiling pass is run. */
#ifndef WT_WARP_PROFILE_H
#define WT_WARP_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "core/sim/sim.h"

typedef struct warp_profile warp_profile;

warp_profile *warp_profile_new(void); /* NULL when out of memory */
void warp_profile_free(warp_profile *p);
/* Records (or overwrites) a warp's time. Aborts when out of memory (a few bytes per warp). */
void warp_profile_add(warp_profile *p, uint32_t kernel, uint32_t cta_id, int warp_in_cta,
                      uint64_t cycles);
/* The recorded time, or 0 when the warp is not in the profile. */
uint64_t warp_profile_get(const warp_profile *p, uint32_t kernel, uint32_t cta_id, int warp_in_cta);
size_t warp_profile_count(const warp_profile *p);

/* Share of the CTAs of `run` in which every warp that finished last (longest time in `run`) is
 * fast by `oracle`: its oracle time is below the mean oracle time of its CTA's warps. A fast
 * warp that became the CTA's critical one is a criticality inversion (CAWS slides). CTAs
 * missing from the oracle are skipped; 0 when none is left. */
double warp_profile_inversions(const warp_profile *oracle, const warp_profile *run);

/* The profiling pass and the profiled run (sim_run_source does this when the scheduler asks):
 * runs `config` with sched.policy=profile_policy to record the profile, then `config` itself
 * with it. The profiling pass gets no trace or observer of `opt`. Errors of the profiling pass
 * are reported as such. */
sim_status warp_profile_run(const param_set *config, isource_factory make, void *arg,
                            const sim_options *opt, const char *profile_policy, sim_metrics *out,
                            char *err, size_t errlen);

#endif
