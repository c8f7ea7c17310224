/* Internals of a study, shared by explore.c (the study end to end) and explore_output.c (its
 * output files); the archive (explore_archive.c) is public in explorer/explore.h. */
#ifndef WT_EXPLORE_INTERNAL_H
#define WT_EXPLORE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "explorer/explore.h"
#include "explorer/screen.h"

/* An output written before summary.json: its name, size and FNV-1a hash. */
typedef struct output_file {
    const char *name;
    size_t bytes;
    uint64_t fnv1a;
} output_file;

/* A sensitivity study's indices, per objective (explore_sensitivity.c). */
typedef struct study_sensitivity {
    sens_method method;
    size_t base;          /* trajectories or base samples */
    size_t design_points; /* the design's rows */
    size_t nobjectives;
    sens_result r[SPACE_MAX_OBJECTIVES];
} study_sensitivity;

/* The indices of a morris or sobol study from its archive: the design rebuilt from the space
 * and seed, each row's normalised objectives looked up by configuration (none for a row that
 * is infeasible, failed or was not simulated). Returns 0, or -1 with err. */
int explore_sensitivity(const space *s, const archive *a, study_sensitivity *out, char *err,
                        size_t errlen);
void explore_sensitivity_free(study_sensitivity *x);
/* sensitivity.csv: objective, parameter, method, index, value, ci_low, ci_high, evaluations. */
int explore_write_sensitivity(const space *s, const study_sensitivity *x, const char *path,
                              char *err, size_t errlen);
/* summary.json's "sensitivity" object, the same numbers, added to root. */
struct cJSON;
void explore_sensitivity_json(const space *s, const study_sensitivity *x, struct cJSON *root);

/* What summary.json says about the run besides the archive. */
typedef struct run_facts {
    double wall;
    int threads;
    int interrupted;
    eval_counts counts;
    const search_info *info;
    const screen_stats *screen;    /* a study that screens, else NULL */
    const study_sensitivity *sens; /* a sensitivity study, else NULL */
    output_file files[6];          /* the outputs of the set summary.json closes */
    size_t nfiles;
} run_facts;

/* The path dir/file into out (n bytes). */
void explore_join(char *out, size_t n, const char *dir, const char *file);

/* The output folder belongs to one run at a time (explore_folder.c): a POSIX write lock on
 * folder/lock for a run of the whole study (shard_n 0), or on folder/lock.K-of-N for shard K
 * of N, refused while the other kind of run holds the folder. Returns the open descriptor; -1
 * with err when another run holds the folder; -2 with err when the lock file cannot be opened,
 * locked or written (output that cannot be written). Unlock closes it. */
int explore_folder_lock(const char *folder, int shard_k, int shard_n, char *err, size_t errlen);
void explore_folder_unlock(int fd);
/* Removes the temporaries (NAME.tmp.PID) whose process is gone: call it holding the folder. */
void explore_remove_orphans(const char *folder);

/* Each writes one output file at path and returns 0, or -1 with the message in err. */
/* evaluations.csv: a row per feasible point and workload, with every metric. */
int explore_write_evaluations(const space *s, const archive *a, const char *path, char *err,
                              size_t errlen);
/* points.csv (every point) or pareto.csv (front_only: the front's points). */
int explore_write_points(const space *s, const archive *a, const char *path, int front_only,
                         char *err, size_t errlen);
/* summary.json's contents (NULL when memory runs out), which report.html reads before the file
 * is written. */
cJSON *explore_summary_json(const space *s, const archive *a, const run_facts *f);
/* summary.json: the study, its search, objectives, counts, hypervolume and best points. */
int explore_write_summary(const space *s, const archive *a, const run_facts *f, const char *path,
                          char *err, size_t errlen);
/* front.svg: the points that are ok, the front marked (two or three objectives). */
int explore_write_plot(const space *s, const archive *a, const char *path, char *err,
                       size_t errlen);
/* Grid points checked against the constraints (by --validate, and for a grid's progress
 * total): every one up to this many. */
#define EXPLORE_VALIDATE_MAX_POINTS 100000

/* --validate (explore_validate.c): the report of one space, and of every bundled space with
 * the command line's --set applied to each. Return a status, with err when not EXPLORE_OK. */
explore_status explore_validate_space(const explore_options *o, const space *s, char *err,
                                      size_t errlen);
explore_status explore_validate_bundled(const explore_options *o, char *err, size_t errlen);

/* study.json: the space as parsed and the --set list, for --resume. */
int explore_write_study(const space *s, const char *const *sets, size_t nsets, const char *path,
                        char *err, size_t errlen);

#endif
