/* Design spaces: what a study explores (docs/spaces.md, spaces/space.schema.json).
 *
 * A space file names a preset, fixed settings, the parameters to explore (dimensions), the
 * constraints between parameters, the workloads with weights and `.param` overrides, the
 * objectives with their aggregation over workloads, the search and the output folder. Every
 * error names the file, the JSON path and what was expected.
 *
 * Searches see a space as the unit cube [0,1]^d: space_decode() maps a point of the cube to a
 * configuration, rounding integer and categorical dimensions (level k of n covers
 * [k/n, (k+1)/n)), so every search, NLopt's included, shares one rounding. */
#ifndef WT_SPACE_H
#define WT_SPACE_H

#include <stddef.h>
#include <stdint.h>

#include "explorer/catalog.h"
#include "core/config/params.h"
#include "core/workload/workload.h"

typedef enum dim_kind {
    DIM_INT,    /* integers lo, lo+step, ... <= hi; with log: lo, lo*step, lo*step^2, ... */
    DIM_REAL,   /* continuous in [lo, hi] (log: uniform in log space) */
    DIM_VALUES, /* an explicit list of values (numbers or choice names) */
} dim_kind;

typedef struct space_dim {
    char *name; /* the registry name */
    int param;  /* registry id */
    dim_kind kind;
    double lo, hi, step;
    int log;
    size_t grid;    /* levels a grid uses for a real dimension */
    size_t nvalues; /* DIM_VALUES */
    double *values; /* DIM_VALUES: numeric values (choice indices for choice parameters) */
    size_t nlevels; /* discrete levels (0 for DIM_REAL) */
} space_dim;

typedef enum agg_kind { AGG_GEOMEAN, AGG_HMEAN, AGG_MEAN, AGG_SUM } agg_kind;

/* The most objectives a space may have (the parser refuses more, and the schema's maxItems in
 * spaces/space.schema.json says the same): the explorer's per-point arrays (explore.h,
 * search_nlopt.c), its outputs and `warptune front` hold this many. */
#define SPACE_MAX_OBJECTIVES 8
/* The longest study name, in bytes: it names the folder results/NAME, and a folder's name is
 * at most 255 bytes on common file systems. */
#define SPACE_MAX_NAME 128
/* The longest output folder, in bytes: the paths of the files in it must fit the buffers the
 * study builds them in. */
#define SPACE_MAX_OUTPUT 1024

typedef struct space_objective {
    char *name;   /* column name: the metric, or "metric_aggregate" when not the default */
    int metric;   /* metric index */
    int maximise; /* 1: max, 0: min */
    agg_kind agg;
    int has_hv_ref;
    double hv_ref; /* hypervolume reference in the metric's units, if given */
} space_objective;

typedef struct space_workload {
    char *name;  /* built-in name or path, as written */
    char *label; /* unique label for CSV rows: the name, or name#k when listed again */
    double weight;
    size_t nov;
    wl_override *ov; /* the params, as workload_load takes them */
    char **ov_text;  /* owned: the 2 * nov strings of ov, each name then its value */
} space_workload;

typedef struct space_constraint {
    char *text;
    struct cexpr *expr;
} space_constraint;

/* SEARCH_MORRIS and SEARCH_SOBOL: sensitivity studies (explorer/sensitivity.h), whose budget
 * is the trajectories or base samples of their design */
typedef enum search_kind {
    SEARCH_GRID,
    SEARCH_RANDOM,
    SEARCH_LHS,
    SEARCH_NLOPT,
    SEARCH_MORRIS,
    SEARCH_SOBOL
} search_kind;

/* Whether a search is a sensitivity study. */
static inline int search_is_sensitivity(search_kind k)
{
    return k == SEARCH_MORRIS || k == SEARCH_SOBOL;
}

typedef struct space_search {
    search_kind kind;
    char *algorithm;        /* NLopt algorithm name as written (NLopt searches) */
    int nlopt_algorithm;    /* nlopt_algorithm value */
    size_t max_evaluations; /* distinct configurations (Morris: trajectories, Sobol: base
                               samples); 0 = strategy default */
    double max_seconds;     /* 0 = none */
    uint64_t seed;
    int threads;           /* 0 = every core */
    size_t scalarisations; /* weight vectors for several objectives (NLopt) */
    double screen;         /* multi-fidelity screening's detailed budget (0: none; screen.h) */
    double screen_margin;  /* its error margin */
} space_search;

typedef struct space {
    char *file; /* as given, for messages */
    char *name;
    char *description;
    char *preset;
    param_set *base; /* preset + settings: the reference configuration */
    size_t ndims;
    space_dim *dims;
    size_t nconstraints;
    space_constraint *constraints;
    size_t nworkloads;
    space_workload *workloads;
    size_t nobjectives;
    space_objective *objectives;
    space_search search;
    char *output;
    char *canonical; /* the space re-serialised (cJSON, unformatted): identity of the study */
} space;

/* Parses space text; `file` names it in messages. Returns NULL with "file: path: message" in
 * err. */
space *space_parse(const char *text, const char *file, char *err, size_t errlen);
/* Loads a space file by path, or the built-in space of that name (no '/' and no ".json"). */
space *space_load(const char *name_or_path, char *err, size_t errlen);
void space_free(space *s);

/* Applies a `--set key=value` override: a registry parameter becomes a fixed setting (and
 * leaves the dimensions if it was one); search.strategy, search.seed, search.evaluations,
 * search.seconds, search.threads, search.scalarisations and output override the search.
 * Returns 0 or -1 with err. */
int space_override(space *s, const char *key_eq_value, char *err, size_t errlen);

/* Whether some configuration of the study may sample (docs/sampling.md): sample.kernels or
 * sample.intra is on in its base configuration or one of its dimensions. */
int space_samples(const space *s);

/* Number of points a full grid holds (SIZE_MAX when it overflows). */
size_t space_grid_size(const space *s);
/* Cube coordinates of grid point p (0 <= p < space_grid_size): real dimensions at their grid
 * levels from 0 to 1, discrete ones at the centres of their levels. */
void space_grid_point(const space *s, size_t p, double *x);
/* Counts the grid points that satisfy every constraint: all of them when the grid holds at most
 * max_points, else max_points spread evenly over it (*tried says how many). Returns 0, or -1
 * with err. */
int space_count_feasible(const space *s, size_t max_points, size_t *tried, size_t *feasible,
                         char *err, size_t errlen);
/* Level index of dimension d for the cube coordinate u in [0,1]. */
size_t space_level(const space_dim *d, double u);
/* Value of level k of a discrete dimension. */
double space_level_value(const space_dim *d, size_t k);
/* Value of dimension d at cube coordinate u (rounded for discrete dimensions). */
double space_dim_value(const space_dim *d, double u);
/* The cube coordinate at the centre of level k (discrete) or the coordinate of v (real). */
double space_dim_coord(const space_dim *d, double v);

/* Writes the configuration of cube point x (ndims coordinates) into cfg: the base with each
 * dimension's value. (cfg starts over from the base: a level that is a choice's alias also
 * sets another parameter, which must not carry over to the next point decoded into cfg.)
 * Returns 0, or -1 with err when a value is out of its parameter's range. */
int space_decode(const space *s, const double *x, param_set *cfg, char *err, size_t errlen);

/* Constraint measure of cfg: the largest violation over the constraints, <= 0 when every
 * constraint holds. Per-constraint measures go to g[i] if g is not NULL. */
double space_violation(const space *s, const param_set *cfg, double *g);

/* The built-in spaces, compiled into the binary. */
size_t space_builtin_count(void);
const char *space_builtin_name(size_t i);
const char *space_builtin_text(size_t i);

const char *agg_name(agg_kind a);
const char *search_kind_name(search_kind k);

#endif
