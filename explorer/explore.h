/* A study from end to end: the space, the reference configuration, the search, the archive of
 * every evaluated configuration, its Pareto front and hypervolume, and the outputs in the
 * output folder (evaluations.csv, points.csv, pareto.csv, summary.json, front.svg, report.html,
 * plus the journal and study.json that make a rerun or --resume cheap). */
#ifndef WT_EXPLORE_H
#define WT_EXPLORE_H

#include <stddef.h>
#include <stdint.h>

#include "explorer/evaluator.h"
#include "explorer/screen.h"
#include "explorer/search.h"
#include "explorer/space.h"

/* How a study ended (the command line maps it to an exit status). */
typedef enum explore_status {
    EXPLORE_OK,
    EXPLORE_FAILED,      /* a simulation or an output failed */
    EXPLORE_BAD_INPUT,   /* the space, a --set or the folder's study is wrong */
    EXPLORE_INTERRUPTED, /* SIGINT: the outputs describe what finished */
} explore_status;

/* PS_SCREENED: a study that screens (search.screen) simulated the point only sampled, and ruled
 * it out of the front; its objectives are the screening run's */
typedef enum point_status { PS_OK, PS_FAILED, PS_INFEASIBLE, PS_SCREENED } point_status;

typedef struct archive_point {
    param_set *cfg;
    uint64_t hash;
    unsigned run;
    point_status status;
    double violation;
    /* the aggregated objectives in natural units (NaN when infeasible or failed), and normalised by
     * the reference, all minimised */
    double obj[SPACE_MAX_OBJECTIVES];
    double norm[SPACE_MAX_OBJECTIVES];
    unsigned char on_front;
    const eval_entry **res; /* per workload (NULL when infeasible) */
} archive_point;

typedef struct archive {
    size_t n;
    archive_point *p;
    size_t nfront, nfailed, ninfeasible, nscreened;
    /* the reference configuration's objectives (NaN: unknown) */
    double ref[SPACE_MAX_OBJECTIVES];
    int ref_ok;
    /* the hypervolume of the front (normalised space; -1 when m > 3) and its reference point,
     * normalised */
    double hv;
    double hv_point[SPACE_MAX_OBJECTIVES];
    /* the hypervolume in the objectives' own units, comparable across studies: against each
     * objective's hv_reference, else 0 for a maximised one (NaN: a minimised objective
     * without one, which has no fixed bound); hv_abs is NaN when any is NaN or m > 3 */
    double hv_abs;
    double hv_abs_point[SPACE_MAX_OBJECTIVES];
} archive;

/* Builds the archive from a search's proposals (taking their configurations): unique
 * configurations in proposal order, the ones with every result done (a stopped study leaves
 * some out), their objectives, the front and its hypervolume. In a study that screens
 * (screened: its screen_run's statistics; NULL otherwise), a configuration ruled out enters
 * with its screening results, as PS_SCREENED. Returns 0 or -1 with err. */
int archive_build(const space *s, evaluator *ev, proposal_list *props, const double *ref,
                  const screen_stats *screened, archive *a, char *err, size_t errlen);
void archive_free(archive *a);
/* Hypervolume of the first k points of the archive that are ok, against point (normalised). */
double archive_hypervolume(const space *s, const archive *a, size_t k, const double *point);
/* The default hypervolume reference point of a space (normalised): each objective's
 * hv_reference if given, else twice as bad as the reference configuration (2), else the worst
 * value among the archive's points plus a tenth of the spread. */
void archive_hv_point(const space *s, const archive *a, double *point);

/* Evaluates the reference configuration (the space's base) and writes its objectives into
 * ref (NaN when it fails). Returns 1 when it succeeded. */
int explore_reference(const space *s, evaluator *ev, double *ref);

/* Receives a warning of the study (a message that does not stop it); the command line shows
 * it under its own name. */
typedef void (*explore_warn_fn)(void *ctx, const char *msg);

typedef struct explore_options {
    const char *space; /* path or built-in name; NULL: "default", or the folder's study */
    const char *out;   /* overrides the space's output folder */
    int threads;       /* with threads_given: OpenMP threads, 0 meaning every core */
    int threads_given; /* --threads: threads overrides the space's search.threads */
    int resume;
    int force; /* with resume: a changed study is started in the folder, its journal kept */
    int quiet;
    int validate;         /* check the space (and the bundled ones when space is NULL) and stop */
    int shard_k, shard_n; /* shard K of N (explorer/shard.h); shard_n 0: the whole study */
    int mpi, mpi_rank;    /* simulations on MPI workers (explorer/mpi_eval.h), MPI started */
    const char *const *sets;
    size_t nsets;
    explore_warn_fn warn; /* NULL: warnings are dropped */
    void *warn_ctx;
} explore_options;

/* Runs a study: the progress bar on stderr and a short report on stdout (neither with quiet;
 * --validate prints a line per space), warnings through o->warn. Returns EXPLORE_OK, or another
 * status with what went wrong in err: one message per line (--validate of every bundled space
 * reports each one that fails), none naming the command. */
explore_status explore_main(const explore_options *o, char *err, size_t errlen);

#endif
