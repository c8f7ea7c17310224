/* CAWA's criticality prediction logic (CPL, ISCA 2015 section 3.1): a per-warp criticality
 * counter, nCriticality = nInst * CPI_avg + nStall (eq. 1), fed by the SM's issue, branch and
 * stall events. It runs beside whatever warp scheduler is chosen, so schedulers (gCAWS) and
 * L1D policies (CACP) can ask any warp's criticality. */
#ifndef WT_CPL_H
#define WT_CPL_H

#include <stdbool.h>
#include <stdint.h>

#include "core/metrics.h"
#include "core/params.h"
#include "core/policy.h"

typedef struct cpl cpl;

extern const param_group cpl_param_group;

int cpl_create(cpl **out, int max_warps, const param_set *p, char *err, size_t errlen);
void cpl_destroy(cpl *c);

void cpl_warp_start(cpl *c, int warp, int cta_slot, uint64_t now);
/* The warp issued (committed) an instruction at cycle now. */
void cpl_on_issue(cpl *c, int warp, uint64_t now);
/* The warp waited `cycles` cycles between two consecutive instructions (Alg. 3). */
void cpl_on_stall(cpl *c, int warp, uint32_t cycles);
void cpl_on_branch(cpl *c, const branch_event *b);
void cpl_warp_exit(cpl *c, int warp, uint64_t now);

/* The warp's criticality counter (larger: further behind, more critical). */
int64_t cpl_criticality(const cpl *c, int warp);
/* Is the warp critical: more critical than at least half of the other live warps of its CTA
 * (CAWA 5.2's "slow warp")? */
bool cpl_is_critical(const cpl *c, int warp);

/* Adds CPL's statistics of this SM into m (summed over SMs). */
void cpl_collect(const cpl *c, sim_metrics *m);

#endif
