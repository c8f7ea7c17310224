/* Searches: they propose configurations of a space and have the evaluator simulate them.
 *
 * grid    every combination of the levels (real dimensions: `grid` levels each)
 * random  uniform draws of the unit cube, rejecting infeasible and repeated configurations
 * lhs     a Latin hypercube of `evaluations` samples
 * morris  Morris trajectories (`evaluations` of them) on the parameters' levels
 * sobol   Saltelli's A, B and A_B^i samples (`evaluations` base samples) of the unit cube
 * NLopt   any derivative-free NLopt algorithm on the unit cube, integer and categorical
 *         dimensions rounded inside the objective (space_decode); constraints as NLopt
 *         inequality constraints for the algorithms that take them (COBYLA, ISRES,
 *         ORIG-DIRECT*) and as penalties for every algorithm; several objectives as a sweep of
 *         augmented weighted-Chebyshev scalarisations normalised by the reference
 *         configuration, each an independent NLopt run, run concurrently as OpenMP tasks.
 *
 * Every search is deterministic for a given space and seed, whatever the thread count:
 * proposals are ordered by (run, position in the run), never by completion time. NLopt's own
 * generator is per thread (thread-local in NLopt); each run is one tied OpenMP task, seeded with
 * nlopt_srand(seed, run, restart) right before nlopt_optimize, and a tied task's thread only
 * runs that task's own descendants (the simulations of its points) while it waits, so no other
 * run draws from that generator in between. Budgets count distinct configurations other than
 * the reference configuration (repeats caused by rounding, and the reference, which the study
 * evaluates first, are free memo lookups); a time budget makes a search stop early and is
 * the one thing that is not reproducible. A Morris or Sobol design is proposed whole, every row
 * in order, repeats included: a repeat is a memo hit, and the indices need each row's value
 * (explore_sensitivity.c). */
#ifndef WT_SEARCH_H
#define WT_SEARCH_H

#include <stddef.h>
#include <stdint.h>

#include "explorer/evaluator.h"
#include "explorer/sensitivity.h"
#include "explorer/space.h"

typedef struct proposal {
    param_set *cfg;
    uint64_t hash;    /* param_set_hash(cfg) */
    unsigned run;     /* NLopt run (scalarisation); 0 for the other searches */
    double violation; /* > 0: breaks a constraint, not simulated */
} proposal;

typedef struct proposal_list {
    proposal *p;
    size_t n, cap;
} proposal_list;

void proposal_list_free(proposal_list *l);

typedef struct search_info {
    size_t runs;          /* NLopt runs */
    size_t restarts;      /* NLopt restarts over all runs */
    double weights[1024]; /* runs x objectives scalarisation weights (first runs only) */
    char nlopt_result[64];
} search_info;

/* Runs the space's search. ref: the reference configuration's aggregated objective values
 * (NaN when unknown) for normalisation. Appends proposals in their deterministic order, and
 * evaluates them, except in a study that screens (search.screen), whose grid, random or lhs
 * proposals screen_run evaluates (explorer/screen.h). Returns 0, or -1 with err. */
int search_run(const space *s, evaluator *ev, const double *ref, proposal_list *out,
               search_info *info, char *err, size_t errlen);

/* Aggregates per-workload results into the objectives (natural units). Returns 0, or 1 when a
 * simulation failed (values still computed from what it produced). */
int search_objectives(const space *s, const eval_entry *const *res, double *obj);
/* Objective i of obj as a value to minimise, normalised by the reference ref (value / ref for
 * a min objective, ref / value for max; without a usable reference: value, or -value). */
double search_normalised(const space *s, size_t i, double v, double ref);

/* The Morris or Sobol design of a sensitivity study (search.strategy morris or sobol), from the
 * space's parameters and the study's seed: Morris steps one level of a discrete parameter, or
 * of a real parameter's `grid` levels. Returns 0, or -1 with err. */
int search_sensitivity_design(const space *s, sens_design *dz, char *err, size_t errlen);
/* The unit-cube point of row p of the design (ndims coordinates) into x: a Morris level at
 * the coordinate a grid gives it, a Sobol point as it is. */
void search_sensitivity_point(const space *s, const sens_design *dz, size_t p, double *x);

/* NLopt part (search_nlopt.c). */
int search_nlopt(const space *s, evaluator *ev, const double *ref, proposal_list *out,
                 search_info *info, char *err, size_t errlen);
/* Appends a proposal (takes cfg). Returns 0 or -1. */
int proposal_add(proposal_list *l, param_set *cfg, unsigned run, double violation);

#endif
