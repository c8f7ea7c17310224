/* Multi-fidelity studies (search.screen, docs/spaces.md "Screening"): every configuration of a
 * grid, random or lhs search is first simulated sampled, with at most search.screen of each
 * launch in detail (sample.budget, docs/sampling.md), and only the configurations that may
 * still reach the front are then simulated in full detail. The front is made of full-detail
 * results only.
 *
 * The rule works on each objective as the log of its normalised, minimised value (so a
 * screening error is a ratio, alike for every objective), in rounds:
 *  1. bias_k and delta_k from the configurations simulated in full so far (the reference
 *     configuration first): bias_k the mean of full minus screened, delta_k the margin
 *     (search.screen_margin) times the largest distance of one of them from that mean;
 *  2. a configuration not simulated in full is ruled out when one that was dominates even its
 *     most optimistic value (screened + bias - delta) in every objective, strictly in one;
 *  3. of the others, those whose screened values plus bias no other of them dominates are
 *     simulated in full, and the round repeats, until no configuration is left.
 * A ruled-out configuration is reconsidered in every round (delta grows as the error seen
 * grows), and every round simulates at least one, so the rounds end. If no configuration's
 * error exceeds delta, every configuration of the full-detail front is simulated in full, and
 * the front equals the full-detail study's. Decisions depend only on the results, so the study
 * is the same at any thread count and on --resume. */
#ifndef WT_SCREEN_H
#define WT_SCREEN_H

#include <stddef.h>
#include <stdint.h>

#include "explorer/evaluator.h"
#include "explorer/space.h"

typedef struct screen_stats {
    size_t screened;   /* configurations screened, the reference included */
    size_t full;       /* of them, simulated in full detail, the reference included */
    size_t rounds;     /* rounds of full-detail simulations */
    size_t calibrated; /* configurations the last round's bias and delta came from */
    double bias[SPACE_MAX_OBJECTIVES], delta[SPACE_MAX_OBJECTIVES]; /* the last round's */
    /* warp instructions: simulated in detail by the screening and full-detail simulations
     * (the journal's included), and those of every configuration in full detail */
    double detailed_insts, full_insts;
    /* the configurations ruled out when the rounds ended (param_set_hash, sorted); none when
     * the study stopped before (interrupted or out of time: what was not simulated in full is
     * then undecided, not ruled out) */
    uint64_t *ruled;
    size_t nruled;
} screen_stats;

void screen_stats_free(screen_stats *st);
/* Whether the configuration of hash h was ruled out (st may be NULL: no screening). */
int screen_ruled_out(const screen_stats *st, uint64_t h);

/* One round of the rule over n configurations and m objectives: low[i * m + k] and
 * high[i * m + k] are configuration i's objective k screened and in full detail (log of the
 * normalised minimised value; NaN when unknown), full[i] whether it was simulated in full (its
 * high values NaN if that failed). Marks in run the configurations to simulate in full next
 * and returns how many (0: the study is done); bias and delta get the round's m values
 * (delta INFINITY while no configuration calibrates it). */
size_t screen_plan(size_t n, size_t m, const double *low, const double *high,
                   const unsigned char *full, double margin, unsigned char *run, double *bias,
                   double *delta, size_t *calibrated);

/* The screening configuration of cfg: cfg sampled (sample.kernels, sample.intra) with
 * sample.budget = search.screen. NULL when out of memory. */
param_set *screen_config(const space *s, const param_set *cfg);

/* Screens the n configurations cfgs and the space's reference configuration (already simulated
 * in full), then simulates in full the ones the rule keeps. ref: the reference's objectives
 * (NaN when unknown). Returns 0 (also when the study stopped before the end), or -1 with err. */
int screen_run(const space *s, evaluator *ev, const double *ref, param_set *const *cfgs, size_t n,
               screen_stats *st, char *err, size_t errlen);

#endif
