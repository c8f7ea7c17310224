/* Per-warp execution-time profiles: the oracle knowledge of CAWS (CAWS slides, "CAWS speedup
 * with oracle knowledge"). A profile maps (kernel launch, CTA id, warp in CTA) to the warp's
 * execution time, from its CTA's start to its exit, in one run.
 *
 * A scheduler that wants one says so through sched_ops.profile_policy. The simulator records
 * every warp's time into sim_options.warp_profile_out and hands the times of
 * sim_options.warp_profile to the scheduler as warp_view.oracle_cycles; the profiling pass that
 * makes one (explorer/simulate.c: the same configuration run first with the scheduler that
 * hook names) is its caller's. */
#ifndef WT_WARP_PROFILE_H
#define WT_WARP_PROFILE_H

#include <stddef.h>
#include <stdint.h>

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

#endif
