/* CAWA's criticality prediction logic (CPL, ISCA 2015 section 3.1): a per-warp criticality
 * counter, nCriticality = nInst * CPI_avg + nStall (eq. 1), fed by the SM's issue, branch and
 * stall events. It runs beside whatever warp scheduler is chosen, so schedulers (gCAWS) and
 * L1D policies (CACP) can ask any warp's criticality.
 *
 * Each warp keeps an instruction count: a branch adds the instructions its outcome adds to the
 * warp's path, or subtracts those it skips, measured against falling through (Alg. 2), and every
 * committed instruction subtracts one. nInst, the relative instruction-count disparity, is how
 * far the warp's count is above the lowest of its CTA (its most advanced warp). nStall sums the
 * cycles the warp stalled on shared resources and the scheduler between consecutive
 * instructions: ready while another warp issued, or held by a busy unit; a wait is added when
 * the warp issues again (Alg. 3). Waits for its own operands, memory and barriers are not
 * contention. CPI_avg is the warp's own cycles per instruction so far, every wait included.
 * cpl.stall_cycles and cpl.stall_in_progress select other readings; docs/policies.md gives
 * them in full.
 *
 * CPL also measures its own prediction accuracy as CAWA 5.2 defines it: every
 * cpl.sample_period cycles it records, for each resident CTA, which warps it predicts slow;
 * when the CTA finishes, the sample counts in which its critical warp (the last to finish)
 * was predicted slow. */
#ifndef WT_CPL_H
#define WT_CPL_H

#include <stdbool.h>
#include <stdint.h>

#include "core/config/metrics.h"
#include "core/config/params.h"
#include "core/policy.h"

typedef struct cpl cpl;

extern const param_group cpl_param_group;

int cpl_create(cpl **out, int max_warps, const param_set *p, char *err, size_t errlen);
void cpl_destroy(cpl *c);

void cpl_warp_start(cpl *c, int warp, int cta_slot, uint64_t now);
/* The warp issued (committed) an instruction at cycle now. */
void cpl_on_issue(cpl *c, int warp, uint64_t now);
/* The warp waited `cycles` cycles between two consecutive instructions, `contended` of them
 * ready but not issued (another warp issued) or held by a busy unit (Alg. 3); reported just
 * before the cpl_on_issue of the second one, which applies it. */
void cpl_on_stall(cpl *c, int warp, uint32_t cycles, uint32_t contended);
void cpl_on_branch(cpl *c, const branch_event *b);
void cpl_warp_exit(cpl *c, int warp, uint64_t now);

/* The warp's criticality counter at cycle now, eq. 1 rounded to a whole number of cycles
 * (larger: further behind, more critical). */
int64_t cpl_criticality_at(const cpl *c, int warp, uint64_t now);
/* The predictor as the policy seam offers it to schedulers (sched_env.crit). */
warp_criticality cpl_as_criticality(const cpl *c);
/* The same at the cycle of the latest event CPL saw (the SM's current cycle, give or take the
 * issues of this cycle). */
int64_t cpl_criticality(const cpl *c, int warp);
/* The counter's terms, for tests and tools: the warp's own instruction count against the
 * straight-line path (nInst is this minus the lowest of its CTA) and its nStall at cycle now. */
int64_t cpl_n_inst(const cpl *c, int warp);
uint64_t cpl_n_stall(const cpl *c, int warp, uint64_t now);
/* Is the warp a slow warp (CAWA 5.2): its counter larger than those of at least
 * cpl.slow_fraction of the other warps of its CTA (warps that already finished included)? */
bool cpl_is_critical(const cpl *c, int warp);

/* Adds CPL's statistics of this SM into m (cpl_samples, cpl_accuracy; summed over SMs). */
void cpl_collect(const cpl *c, sim_metrics *m);

#endif
