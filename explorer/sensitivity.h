/* Sensitivity studies: the designs of Morris's elementary effects (Morris 1991) and of
 * Saltelli's sampling for Sobol indices (Saltelli 2002, 2010), and the indices computed from a
 * design and its values, with seeded bootstrap intervals. Pure arithmetic: no space and no
 * simulation. The search (search.c) maps a design onto a space's parameters; a test maps it
 * onto an analytic function.
 *
 * Morris: r trajectories of d+1 rows each. Row 0 of a trajectory is a level drawn uniformly
 * per parameter; row k moves one parameter, in a random order, one level up or down (up from
 * the lowest level, down from the highest, else either at random). A parameter of n levels
 * sits at the position k/(n-1) of [0,1], so an elementary effect (f(x') - f(x)) / (u' - u) is
 * the change per the parameter's whole range, comparable between parameters.
 *
 * Sobol: N base samples. Base sample j gives d+2 rows: A_j, B_j (two independent uniform
 * points of the unit cube) and A_B^i_j for each i (A_j with coordinate i taken from B_j). */
#ifndef WT_SENSITIVITY_H
#define WT_SENSITIVITY_H

#include <stddef.h>
#include <stdint.h>

typedef enum sens_method { SENS_MORRIS, SENS_SOBOL } sens_method;

typedef struct sens_design {
    sens_method method;
    size_t d;       /* parameters */
    size_t base;    /* Morris: trajectories r; Sobol: base samples N */
    size_t npoints; /* rows: Morris r(d+1), Sobol N(d+2) */
    /* npoints x d, row-major. Morris: each parameter's level position k/(n-1) (0.5 for a
     * parameter of one level); Sobol: points of the unit cube */
    double *x;
    size_t *level; /* Morris: npoints x d level indices; NULL for Sobol */
    size_t *moved; /* Morris: r x d, the parameter that step k+1 of trajectory t moves */
} sens_design;

/* The rows of a design: Morris r trajectories over parameters of levels[i] >= 1 levels;
 * Sobol n base samples of d parameters. Both draw from seed only. Return 0, or -1 with err. */
int sens_morris_design(size_t d, const size_t *levels, size_t r, uint64_t seed, sens_design *out,
                       char *err, size_t errlen);
int sens_sobol_design(size_t d, size_t n, uint64_t seed, sens_design *out, char *err,
                      size_t errlen);
void sens_design_free(sens_design *dz);
/* The number of rows a design of base trajectories or samples over d parameters has
 * (SIZE_MAX when it overflows). */
size_t sens_design_points(sens_method m, size_t d, size_t base);

/* Indices per parameter: Morris mu_star, mu, sigma; Sobol S1, ST. */
#define SENS_MAX_INDICES 3
size_t sens_index_count(sens_method m);
const char *sens_index_name(sens_method m, size_t k);
const char *sens_method_name(sens_method m);

typedef struct sens_index {
    double value;
    double lo, hi; /* the bootstrap 95% percentile interval (NaN when it cannot be computed) */
} sens_index;

typedef struct sens_result {
    sens_method method;
    size_t d;
    sens_index *idx; /* d x sens_index_count(method) */
    /* per parameter, the design rows whose values entered its indices: Morris two per
     * elementary effect, Sobol three per base sample (A, B, A_B^i) */
    size_t *evaluations;
} sens_result;

/* Bootstrap resamples behind every interval. */
#define SENS_BOOTSTRAP 1000

/* The indices of design dz from its values y (one per row; a value that is not finite, an
 * infeasible or failed configuration, leaves out what it enters: a Morris elementary effect, a
 * Sobol base sample). nboot resamples of the trajectories or base samples, drawn from seed,
 * give the intervals. Returns 0, or -1 with err. */
int sens_indices(const sens_design *dz, const double *y, size_t nboot, uint64_t seed,
                 sens_result *out, char *err, size_t errlen);
void sens_result_free(sens_result *r);

#endif
