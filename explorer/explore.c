/* A study from end to end: the space (named, or the one saved with a study to resume), the
 * --set overrides, the evaluator and its journal, the reference configuration, the search,
 * the archive and the outputs. */
#include "explorer/explore_internal.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "core/preset.h"
#include "core/util/textfile.h"
#include "explorer/progress.h"

static double wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int mkdirs(const char *path, char *err, size_t errlen)
{
    char buf[2048];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1;; p++) {
        if (*p == '/' || !*p) {
            char c = *p;
            *p = '\0';
            if (mkdir(buf, 0777) != 0 && errno != EEXIST) {
                snprintf(err, errlen, "%s: cannot create the folder: %s", buf, strerror(errno));
                return -1;
            }
            *p = c;
            if (!c) break;
        }
    }
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%s: not a folder", path);
        return -1;
    }
    return 0;
}

static void join(char *out, size_t n, const char *dir, const char *file)
{
    snprintf(out, n, "%s/%s", dir, file);
}

/* ---------------------------------------------------------------- the study */

typedef struct study_sets {
    char **v;
    size_t n;
} study_sets;

static void sets_free(study_sets *ss)
{
    for (size_t i = 0; i < ss->n; i++)
        free(ss->v[i]);
    free(ss->v);
}

static int sets_add(study_sets *ss, const char *kv)
{
    char **v = realloc(ss->v, (ss->n + 1) * sizeof *v);
    if (!v) return -1;
    ss->v = v;
    size_t l = strlen(kv) + 1;
    if (!(ss->v[ss->n] = malloc(l))) return -1;
    memcpy(ss->v[ss->n++], kv, l);
    return 0;
}

/* Loads the study saved in folder/study.json: its space and its --set list. */
static space *load_saved(const char *folder, study_sets *ss, char *err, size_t errlen)
{
    char path[2048];
    join(path, sizeof path, folder, "study.json");
    size_t len = 0;
    char *text = wt_read_file_max(path, &len, WT_TEXT_MAX);
    if (!text && errno != ENOENT) { /* a folder, unreadable, or endless (/dev/zero) */
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        return NULL;
    }
    if (!text) {
        snprintf(err, errlen, "%s: nothing to resume (no study.json; run the study first)", folder);
        return NULL;
    }
    if (wt_json_refuse_nul(path, text, len, err, errlen) != 0) {
        free(text);
        return NULL;
    }
    cJSON *root = cJSON_ParseWithOpts(text, NULL, 1);
    if (!root) {
        snprintf(err, errlen, "%s:%d: malformed JSON (expected {space_file, space, set})", path,
                 json_line_of(text, NULL, cJSON_GetErrorPtr()));
        free(text);
        return NULL;
    }
    free(text);
    const cJSON *sp = cJSON_GetObjectItemCaseSensitive(root, "space");
    const cJSON *file = cJSON_GetObjectItemCaseSensitive(root, "space_file");
    const cJSON *set = cJSON_GetObjectItemCaseSensitive(root, "set");
    if (!cJSON_IsObject(sp) || !cJSON_IsString(file) || !cJSON_IsArray(set)) {
        snprintf(err, errlen, "%s: expected {space_file, space, set}", path);
        cJSON_Delete(root);
        return NULL;
    }
    char *sptext = cJSON_PrintUnformatted(sp);
    space *s = sptext ? space_parse(sptext, file->valuestring, err, errlen) : NULL;
    free(sptext);
    for (const cJSON *it = set->child; s && it; it = it->next)
        if (!cJSON_IsString(it) || sets_add(ss, it->valuestring) != 0) {
            snprintf(err, errlen, "%s: set: expected strings", path);
            space_free(s);
            s = NULL;
        }
    cJSON_Delete(root);
    return s;
}

/* Grid points checked against the constraints by --validate: every one up to this many. */
#define VALIDATE_MAX_POINTS 100000

/* The --validate report of one space: its shape and, with constraints, how many grid points
 * satisfy them. A grid checked whole with none feasible is an error (the study could not
 * evaluate anything); a sample with none is a warning. Returns an exit status. */
static explore_status report_valid(const space *s)
{
    char err[1024], feasible[160] = "";
    size_t tried = 0, ok = 0, n = space_grid_size(s);
    if (s->nconstraints) {
        if (space_count_feasible(s, VALIDATE_MAX_POINTS, &tried, &ok, err, sizeof err) != 0) {
            fprintf(stderr, "warptune explore: %s: %s\n", s->file, err);
            return EXPLORE_BAD_INPUT;
        }
        if (ok == 0 && tried == n) {
            fprintf(stderr,
                    "warptune explore: %s: constraints: no point of the %zu-point grid satisfies "
                    "them (expected at least one feasible configuration)\n",
                    s->file, n);
            return EXPLORE_BAD_INPUT;
        }
        if (ok == 0)
            fprintf(stderr,
                    "warptune explore: %s: warning: constraints: none of %zu grid points spread "
                    "over the space satisfies them\n",
                    s->file, tried);
        snprintf(feasible, sizeof feasible, ", %zu of %zu %spoints feasible", ok, tried,
                 tried == n ? "" : "sampled grid ");
    }
    printf("%s: ok (%zu parameters, grid of %zu points%s, %zu workloads, %s)\n", s->file, s->ndims,
           n, feasible, s->nworkloads,
           s->search.kind == SEARCH_NLOPT ? s->search.algorithm : search_kind_name(s->search.kind));
    return EXPLORE_OK;
}

/* Every bundled space, with the command line's --set applied to each as a run would. */
static explore_status validate_bundled(const explore_options *o)
{
    explore_status rc = EXPLORE_OK;
    char err[2048];
    for (size_t i = 0; i < space_builtin_count(); i++) {
        char file[256];
        snprintf(file, sizeof file, "spaces/%s.json", space_builtin_name(i));
        space *s = space_parse(space_builtin_text(i), file, err, sizeof err);
        for (size_t k = 0; s && k < o->nsets; k++)
            if (space_override(s, o->sets[k], err, sizeof err) != 0) {
                space_free(s);
                s = NULL;
            }
        if (!s) {
            fprintf(stderr, "warptune explore: %s\n", err);
            rc = EXPLORE_BAD_INPUT;
            continue;
        }
        explore_status r = report_valid(s);
        if (r != EXPLORE_OK) rc = r;
        space_free(s);
    }
    return rc;
}

explore_status explore_main(const explore_options *o)
{
    char err[4096] = "";
    double t0 = wall_now();
    explore_status rc = EXPLORE_OK;
    space *s = NULL;
    evaluator *ev = NULL;
    progress *prog = NULL;
    study_sets ss = {0};
    proposal_list props = {0};
    archive a = {0};
    search_info info;
    memset(&info, 0, sizeof info);

    if (o->validate && !o->space) return validate_bundled(o);
    /* the space: the one named, or with --resume and none named, the folder's own */
    if (!o->space && o->resume) {
        const char *folder = o->out ? o->out : "results/default";
        s = load_saved(folder, &ss, err, sizeof err);
        if (!s) {
            fprintf(stderr, "warptune explore: %s\n", err);
            rc = EXPLORE_BAD_INPUT;
            goto out;
        }
    } else {
        s = space_load(o->space ? o->space : "default", err, sizeof err);
        if (!s) {
            fprintf(stderr, "warptune explore: %s\n", err);
            rc = EXPLORE_BAD_INPUT;
            goto out;
        }
    }
    for (size_t i = 0; i < o->nsets; i++)
        if (sets_add(&ss, o->sets[i]) != 0) {
            rc = EXPLORE_FAILED;
            goto out;
        }
    for (size_t i = 0; i < ss.n; i++)
        if (space_override(s, ss.v[i], err, sizeof err) != 0) {
            fprintf(stderr, "warptune explore: %s\n", err);
            rc = EXPLORE_BAD_INPUT;
            goto out;
        }
    if (o->out) {
        free(s->output);
        s->output = malloc(strlen(o->out) + 1);
        if (!s->output) {
            rc = EXPLORE_FAILED;
            goto out;
        }
        strcpy(s->output, o->out);
    }
    if (o->validate) {
        rc = report_valid(s);
        goto out;
    }
    if (mkdirs(s->output, err, sizeof err) != 0) {
        fprintf(stderr, "warptune explore: %s\n", err);
        rc = EXPLORE_BAD_INPUT;
        goto out;
    }
    char path[2048];
    join(path, sizeof path, s->output, "journal");
    if (o->resume) {
        struct stat st;
        if (stat(path, &st) != 0) {
            fprintf(stderr, "warptune explore: %s: nothing to resume (no journal)\n", s->output);
            rc = EXPLORE_BAD_INPUT;
            goto out;
        }
    }
    int threads = o->threads > 0 ? o->threads : s->search.threads;
    ev = evaluator_new(s, path, threads, err, sizeof err);
    if (!ev) {
        fprintf(stderr, "warptune explore: %s\n", err);
        rc = EXPLORE_BAD_INPUT;
        goto out;
    }
    join(path, sizeof path, s->output, "study.json");
    if (explore_write_study(s, (const char *const *)ss.v, ss.n, path, err, sizeof err) != 0) {
        fprintf(stderr, "warptune explore: %s\n", err);
        rc = EXPLORE_FAILED;
        goto out;
    }
    if (s->search.max_seconds > 0) {
#ifdef _OPENMP
        evaluator_set_deadline(ev, omp_get_wtime() + s->search.max_seconds);
#endif
    }
    size_t expected =
        s->search.kind == SEARCH_GRID ? space_grid_size(s) : s->search.max_evaluations;
    prog = progress_new(s->name, (expected + 1) * s->nworkloads, o->quiet);
    evaluator_set_progress(ev, prog);

    double ref[SPACE_MAX_OBJECTIVES];
    explore_reference(s, ev, ref);
    if (search_run(s, ev, ref, &props, &info, err, sizeof err) != 0) {
        fprintf(stderr, "warptune explore: %s\n", err);
        rc = EXPLORE_FAILED;
        goto out;
    }
    eval_counts counts = evaluator_counts(ev);
    if (prog) progress_finish(prog, counts.simulated + counts.memo_hits, counts.failed);
    if (archive_build(s, ev, &props, ref, &a, err, sizeof err) != 0) {
        fprintf(stderr, "warptune explore: %s\n", err);
        rc = EXPLORE_FAILED;
        goto out;
    }
    run_facts facts = {wall_now() - t0, evaluator_threads(ev), wt_stop_requested != 0, counts,
                       &info};
    join(path, sizeof path, s->output, "evaluations.csv");
    if (explore_write_evaluations(s, &a, path, err, sizeof err) != 0) goto write_failed;
    join(path, sizeof path, s->output, "points.csv");
    if (explore_write_points(s, &a, path, 0, err, sizeof err) != 0) goto write_failed;
    join(path, sizeof path, s->output, "pareto.csv");
    if (explore_write_points(s, &a, path, 1, err, sizeof err) != 0) goto write_failed;
    if (s->nobjectives == 2 || s->nobjectives == 3) {
        join(path, sizeof path, s->output, "front.svg");
        if (explore_write_plot(s, &a, path, err, sizeof err) != 0) goto write_failed;
    }
    facts.wall = wall_now() - t0;
    join(path, sizeof path, s->output, "summary.json");
    if (explore_write_summary(s, &a, &facts, path, err, sizeof err) != 0) goto write_failed;
    if (!o->quiet) {
        printf("%s: %zu points (%zu on the front, %zu infeasible, %zu failed); %zu simulated, "
               "%zu from the journal; ",
               s->name, a.n, a.nfront, a.ninfeasible, a.nfailed, counts.simulated, counts.replayed);
        if (a.hv >= 0) printf("hypervolume %.6g; ", a.hv);
        printf("%.1f s; results in %s/\n", facts.wall, s->output);
    }
    if (facts.interrupted) {
        fprintf(stderr,
                "warptune explore: interrupted; the outputs describe the %zu points that "
                "finished (rerun with --resume to continue)\n",
                a.n);
        rc = EXPLORE_INTERRUPTED;
    }
    goto out;
write_failed:
    fprintf(stderr, "warptune explore: %s\n", err);
    rc = EXPLORE_FAILED;
out:
    archive_free(&a);
    proposal_list_free(&props);
    if (prog) progress_free(prog);
    evaluator_free(ev);
    space_free(s);
    sets_free(&ss);
    return rc;
}
