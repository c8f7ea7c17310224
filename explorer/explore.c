/* A study from end to end: the space (named, or the one saved with a study to resume), the
 * --set overrides, the evaluator and its journal, the reference configuration, the search,
 * the archive and the outputs. */
#include "explorer/explore_internal.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "core/config/preset.h"
#include "core/util/hash.h"
#include "core/util/kv.h"
#include "core/util/textfile.h"
#include "explorer/mpi_eval.h"
#include "explorer/progress.h"
#include "explorer/report.h"
#include "explorer/screen.h"
#include "explorer/shard.h"

static double wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Creates the folder path and the ones above it. Returns 0; -1 with err when path is there but
 * not a folder (bad input); -2 with err when a folder cannot be created. */
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
                return -2;
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

/* The name of a --set name=value into key (empty when there is no '='). */
static void set_name(const char *kv, char *key, size_t n)
{
    const char *val;
    if (wt_split_kv(kv, key, n, &val) != 0) key[0] = '\0';
}

/* A parameter set twice on the command line is a mistake, as a key twice in a space file:
 * which value was meant? Returns 0, or -1 with err naming both. */
static int sets_check_repeats(const char *const *sets, size_t n, char *err, size_t errlen)
{
    for (size_t i = 1; i < n; i++) {
        char ki[256];
        set_name(sets[i], ki, sizeof ki);
        for (size_t k = 0; ki[0] && k < i; k++) {
            char kk[256];
            set_name(sets[k], kk, sizeof kk);
            if (!strcmp(ki, kk)) {
                snprintf(err, errlen,
                         "--set %s: %s is already set by --set %s (expected each "
                         "parameter once)",
                         sets[i], ki, sets[k]);
                return -1;
            }
        }
    }
    return 0;
}

/* Loads the study saved in folder/study.json: its space and its --set list. */
static space *load_saved(const char *folder, study_sets *ss, char *err, size_t errlen)
{
    char path[2048];
    explore_join(path, sizeof path, folder, "study.json");
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

/* ---------------------------------------------------------------- the study's identity */

/* The --set list as the study applies it: for each name the last value, sorted by name, one
 * "name=value" a line. NULL when out of memory. */
static char *sets_effective(const study_sets *ss)
{
    char **v = calloc(ss->n ? ss->n : 1, sizeof *v);
    size_t n = 0, len = 1;
    if (!v) return NULL;
    for (size_t i = ss->n; i-- > 0;) { /* from the last: a later value overrides */
        char ki[256];
        set_name(ss->v[i], ki, sizeof ki);
        int seen = 0;
        for (size_t k = 0; k < n && !seen; k++) {
            char kk[256];
            set_name(v[k], kk, sizeof kk);
            seen = !strcmp(ki, kk);
        }
        if (!seen) {
            v[n++] = ss->v[i];
            len += strlen(ss->v[i]) + 2;
        }
    }
    for (size_t i = 1; i < n; i++) /* insertion sort: a few dozen at most */
        for (size_t k = i; k > 0 && strcmp(v[k - 1], v[k]) > 0; k--) {
            char *t = v[k];
            v[k] = v[k - 1];
            v[k - 1] = t;
        }
    char *out = malloc(len);
    if (out) {
        out[0] = '\0';
        for (size_t i = 0; i < n; i++) {
            if (i) strcat(out, ", ");
            strcat(out, v[i]);
        }
    }
    free(v);
    return out;
}

/* --resume continues the study the folder holds, and only that one: the space (as parsed) and
 * the --set list in force must be those of its study.json. Returns EXPLORE_OK, or
 * EXPLORE_BAD_INPUT with err saying what differs and how to go on. */
static explore_status check_identity(const space *s, const study_sets *ss, char *err, size_t errlen)
{
    char path[2048];
    explore_join(path, sizeof path, s->output, "study.json");
    struct stat sb;
    if (stat(path, &sb) != 0) return EXPLORE_OK; /* none: the journal decides (study_open) */
    study_sets saved = {0};
    space *old = load_saved(s->output, &saved, err, errlen);
    if (!old) {
        sets_free(&saved);
        return EXPLORE_BAD_INPUT;
    }
    char *was = sets_effective(&saved), *now = sets_effective(ss);
    explore_status rc = EXPLORE_OK;
    if (!was || !now) {
        snprintf(err, errlen, "out of memory");
        rc = EXPLORE_FAILED;
    } else if (strcmp(old->canonical, s->canonical) != 0 || strcmp(was, now) != 0) {
        char what[1024];
        if (strcmp(old->canonical, s->canonical) != 0)
            snprintf(what, sizeof what, "the space differs from the study's (%s)", old->file);
        else
            snprintf(what, sizeof what,
                     "the --set list differs: the study has [%.400s], this run [%.400s]", was, now);
        snprintf(err, errlen,
                 "%s: --resume: not the study in %s: %s; resume with the study's own space and "
                 "--set (or none, to take them from study.json), or start the changed study "
                 "there with --resume --force (the journal's simulations are kept)",
                 s->output, path, what);
        rc = EXPLORE_BAD_INPUT;
    }
    free(was);
    free(now);
    space_free(old);
    sets_free(&saved);
    return rc;
}

/* A study from start to end; study_free releases what it holds. */
typedef struct study {
    const explore_options *o;
    double t0; /* when it started */
    space *s;
    study_sets ss; /* the --set list: the saved study's, then the command line's */
    evaluator *ev;
    progress *prog;
    double ref[SPACE_MAX_OBJECTIVES]; /* the reference configuration's objectives */
    proposal_list props;
    search_info info;
    screen_stats screen; /* a study that screens (search.screen) */
    archive a;
    study_sensitivity sens; /* a sensitivity study's indices */
    int lock_fd;            /* the output folder's lock (-1: none) */
} study;

static void study_free(study *st)
{
    explore_sensitivity_free(&st->sens);
    archive_free(&st->a);
    screen_stats_free(&st->screen);
    proposal_list_free(&st->props);
    if (st->prog) progress_free(st->prog);
    evaluator_free(st->ev);
    space_free(st->s);
    sets_free(&st->ss);
    explore_folder_unlock(st->lock_fd);
}

/* The space: the one named, or with --resume and none named, the output folder's own; then
 * the --set overrides and --out. */
static explore_status study_space(study *st, char *err, size_t errlen)
{
    const explore_options *o = st->o;
    if (o->out && (!o->out[0] || strlen(o->out) > SPACE_MAX_OUTPUT)) {
        snprintf(err, errlen, "--out: expected a folder name of 1 to %d bytes, got %zu",
                 SPACE_MAX_OUTPUT, strlen(o->out));
        return EXPLORE_BAD_INPUT;
    }
    if (!o->space && o->resume)
        st->s = load_saved(o->out ? o->out : "results/default", &st->ss, err, errlen);
    else
        st->s = space_load(o->space ? o->space : "default", err, errlen);
    if (!st->s) return EXPLORE_BAD_INPUT;
    if (sets_check_repeats(o->sets, o->nsets, err, errlen) != 0) return EXPLORE_BAD_INPUT;
    for (size_t i = 0; i < o->nsets; i++)
        if (sets_add(&st->ss, o->sets[i]) != 0) {
            snprintf(err, errlen, "out of memory");
            return EXPLORE_FAILED;
        }
    for (size_t i = 0; i < st->ss.n; i++)
        if (space_override(st->s, st->ss.v[i], err, errlen) != 0) return EXPLORE_BAD_INPUT;
    if (o->out) {
        char *out = strdup(o->out);
        if (!out) {
            snprintf(err, errlen, "out of memory");
            return EXPLORE_FAILED;
        }
        free(st->s->output);
        st->s->output = out;
    }
    if (o->force && !o->resume) {
        snprintf(err, errlen, "--force: expected with --resume (a run without it starts anew)");
        return EXPLORE_BAD_INPUT;
    }
    if (o->resume && !o->force && !o->validate) return check_identity(st->s, &st->ss, err, errlen);
    return EXPLORE_OK;
}

/* The output folder, the evaluator with its journal (which --resume needs to exist),
 * study.json, the deadline and the progress bar. */
static explore_status study_open(study *st, char *err, size_t errlen)
{
    const explore_options *o = st->o;
    space *s = st->s;
    /* an output that cannot be written fails the study (exit 1), as any output that cannot be
     * written does; a folder held by another run, or a file that is not what it should be, is
     * bad input */
    int r = mkdirs(s->output, err, errlen);
    if (r != 0) return r == -2 ? EXPLORE_FAILED : EXPLORE_BAD_INPUT;
    if ((st->lock_fd = explore_folder_lock(s->output, o->shard_k, o->shard_n, err, errlen)) < 0)
        return st->lock_fd == -2 ? EXPLORE_FAILED : EXPLORE_BAD_INPUT;
    /* only a run of the whole study, which no shard runs beside, clears the folder */
    if (!o->shard_n) explore_remove_orphans(s->output);
    char path[2048];
    explore_join(path, sizeof path, s->output, "journal");
    if (o->shard_n && shard_prepare(s, (const char *const *)st->ss.v, st->ss.n, o->shard_k,
                                    o->shard_n, path, sizeof path, err, errlen) != 0)
        return EXPLORE_BAD_INPUT;
    struct stat sb;
    if (o->resume && stat(path, &sb) != 0 && !shard_journals(s->output)) {
        snprintf(err, errlen, "%s: nothing to resume (no journal)", s->output);
        return EXPLORE_BAD_INPUT;
    }
    int threads = o->mpi ? 1 : o->threads_given ? o->threads : s->search.threads;
    st->ev = evaluator_new(s, NULL, threads, err, errlen);
    if (!st->ev) return EXPLORE_BAD_INPUT;
    if ((r = evaluator_open_journal(st->ev, path, err, errlen)) != 0)
        return r == -2 ? EXPLORE_FAILED : EXPLORE_BAD_INPUT;
    if (o->mpi && mpi_eval_attach(st->ev, err, errlen) != 0) return EXPLORE_BAD_INPUT;
    /* the shards' journals, once they have run: a run over the whole study merges them */
    if (!o->shard_n && (r = shard_merge(st->ev, s->output, err, errlen)) != 0)
        return r == -2 ? EXPLORE_FAILED : EXPLORE_BAD_INPUT;
    explore_join(path, sizeof path, s->output, "study.json");
    if (explore_write_study(s, (const char *const *)st->ss.v, st->ss.n, path, err, errlen) != 0)
        return EXPLORE_FAILED;
    if (s->search.max_seconds > 0) {
#ifdef _OPENMP
        evaluator_set_deadline(st->ev, omp_get_wtime() + s->search.max_seconds);
#endif
    }
    /* the points to simulate: a grid's feasible ones (every grid point checked up to
     * EXPLORE_VALIDATE_MAX_POINTS), the budget otherwise; and the reference configuration */
    size_t expected =
        s->search.kind == SEARCH_GRID ? space_grid_size(s)
        : search_is_sensitivity(s->search.kind)
            ? sens_design_points(s->search.kind == SEARCH_MORRIS ? SENS_MORRIS : SENS_SOBOL,
                                 s->ndims, s->search.max_evaluations)
            : s->search.max_evaluations;
    size_t tried = 0, feasible = 0;
    char msg[256];
    if (s->search.kind == SEARCH_GRID && s->nconstraints &&
        space_count_feasible(s, EXPLORE_VALIDATE_MAX_POINTS, &tried, &feasible, msg, sizeof msg) ==
            0 &&
        tried == expected)
        expected = feasible;
    st->prog = progress_new(s->name, (expected + 1) * s->nworkloads, o->quiet);
    evaluator_set_progress(st->ev, st->prog);
    return EXPLORE_OK;
}

/* The reference configuration, the search and the archive of what it evaluated. */
static explore_status study_search(study *st, eval_counts *counts, char *err, size_t errlen)
{
    explore_reference(st->s, st->ev, st->ref);
    if (st->o->shard_n &&
        evaluator_set_shard(st->ev, st->o->shard_k - 1, st->o->shard_n, st->s->base) != 0) {
        snprintf(err, errlen, "out of memory");
        return EXPLORE_FAILED;
    }
    if (search_run(st->s, st->ev, st->ref, &st->props, &st->info, err, errlen) != 0)
        return EXPLORE_FAILED;
    if (st->s->search.screen > 0) { /* the feasible proposals, screened */
        param_set **cfgs = malloc((st->props.n ? st->props.n : 1) * sizeof *cfgs);
        if (!cfgs) {
            snprintf(err, errlen, "out of memory");
            return EXPLORE_FAILED;
        }
        size_t n = 0;
        for (size_t i = 0; i < st->props.n; i++)
            if (!(st->props.p[i].violation > 0)) cfgs[n++] = st->props.p[i].cfg;
        int rc = screen_run(st->s, st->ev, st->ref, cfgs, n, &st->screen, err, errlen);
        free(cfgs);
        if (rc != 0) return EXPLORE_FAILED;
    }
    /* the reference configuration is point 0 of the study: a front it dominates is no front
     * (it breaks the constraints like any point, and is then infeasible) */
    param_set *refcfg = param_set_clone(st->s->base);
    double v = refcfg ? space_violation(st->s, refcfg, NULL) : 0;
    if (!refcfg || proposal_add(&st->props, refcfg, 0, v > 0 ? v : 0) != 0) {
        snprintf(err, errlen, "out of memory");
        return EXPLORE_FAILED;
    }
    proposal first = st->props.p[st->props.n - 1];
    memmove(st->props.p + 1, st->props.p, (st->props.n - 1) * sizeof *st->props.p);
    st->props.p[0] = first;
    *counts = evaluator_counts(st->ev);
    if (evaluator_failure(st->ev)) {
        if (st->prog)
            progress_finish(st->prog, counts->simulated + counts->replayed, counts->failed);
        snprintf(err, errlen, "%s", evaluator_failure(st->ev));
        return EXPLORE_FAILED;
    }
    /* done: every simulation the study ran or took from the journal; a search that finished
     * asked for all it was going to, so that is the total (repeats and infeasible points never
     * counted in it) */
    size_t done = counts->simulated + counts->replayed;
    if (st->prog && !evaluator_stopped(st->ev)) progress_set_total(st->prog, done);
    if (st->prog) progress_finish(st->prog, done, counts->failed);
    if (archive_build(st->s, st->ev, &st->props, st->ref,
                      st->s->search.screen > 0 ? &st->screen : NULL, &st->a, err, errlen) != 0)
        return EXPLORE_FAILED;
    return EXPLORE_OK;
}

/* Records the size and FNV-1a hash of the output just written at path, for summary.json. */
static explore_status note_output(run_facts *facts, const char *name, const char *path, char *err,
                                  size_t errlen)
{
    size_t len = 0;
    char *text = wt_read_file(path, &len);
    if (!text) {
        snprintf(err, errlen, "%s: cannot read back: %s", path, strerror(errno));
        return EXPLORE_FAILED;
    }
    output_file *f = &facts->files[facts->nfiles++];
    f->name = name;
    f->bytes = len;
    f->fnv1a = wt_fnv1a(WT_FNV_INIT, text, len);
    free(text);
    return EXPLORE_OK;
}

/* The output files as one set: the earlier summary.json is removed first (a reader finding
 * none knows the set is being written, or was cut short by a kill), then the others are
 * written, and summary.json last, naming the size and hash of every file of its set: a reader
 * that finds it, and files that match it, has one run's outputs, never a mix of two. */
static explore_status study_write(study *st, run_facts *facts, char *err, size_t errlen)
{
    const space *s = st->s;
    const archive *a = &st->a;
    char path[2048];
    explore_join(path, sizeof path, s->output, "summary.json");
    if (remove(path) != 0 && errno != ENOENT) {
        snprintf(err, errlen, "%s: cannot remove the earlier summary: %s", path, strerror(errno));
        return EXPLORE_FAILED;
    }
    facts->nfiles = 0;
    explore_join(path, sizeof path, s->output, "evaluations.csv");
    if (explore_write_evaluations(s, a, path, err, errlen) != 0 ||
        note_output(facts, "evaluations.csv", path, err, errlen) != EXPLORE_OK)
        return EXPLORE_FAILED;
    explore_join(path, sizeof path, s->output, "points.csv");
    if (explore_write_points(s, a, path, 0, err, errlen) != 0 ||
        note_output(facts, "points.csv", path, err, errlen) != EXPLORE_OK)
        return EXPLORE_FAILED;
    explore_join(path, sizeof path, s->output, "pareto.csv");
    if (explore_write_points(s, a, path, 1, err, errlen) != 0 ||
        note_output(facts, "pareto.csv", path, err, errlen) != EXPLORE_OK)
        return EXPLORE_FAILED;
    if (s->nobjectives == 2 || s->nobjectives == 3) {
        explore_join(path, sizeof path, s->output, "front.svg");
        if (explore_write_plot(s, a, path, err, errlen) != 0 ||
            note_output(facts, "front.svg", path, err, errlen) != EXPLORE_OK)
            return EXPLORE_FAILED;
    } else { /* no plot of this study: an earlier study's would be taken for it */
        explore_join(path, sizeof path, s->output, "front.svg");
        if (remove(path) != 0 && errno != ENOENT) {
            snprintf(err, errlen, "%s: cannot remove the earlier study's plot: %s", path,
                     strerror(errno));
            return EXPLORE_FAILED;
        }
    }
    explore_join(path, sizeof path, s->output, "sensitivity.csv");
    if (search_is_sensitivity(s->search.kind)) {
        if (explore_sensitivity(s, a, &st->sens, err, errlen) != 0 ||
            explore_write_sensitivity(s, &st->sens, path, err, errlen) != 0 ||
            note_output(facts, "sensitivity.csv", path, err, errlen) != EXPLORE_OK)
            return EXPLORE_FAILED;
        facts->sens = &st->sens;
    } else if (remove(path) != 0 && errno != ENOENT) { /* another study's indices */
        snprintf(err, errlen, "%s: cannot remove the earlier study's indices: %s", path,
                 strerror(errno));
        return EXPLORE_FAILED;
    }
    facts->wall = wall_now() - st->t0;
    /* the report reads the files above, and the summary about to close the set */
    cJSON *sum = explore_summary_json(s, a, facts);
    if (!sum) {
        snprintf(err, errlen, "out of memory");
        return EXPLORE_FAILED;
    }
    explore_join(path, sizeof path, s->output, "report.html");
    report_status r = report_write(s->output, sum, path, err, errlen);
    cJSON_Delete(sum);
    if (r != REPORT_OK || note_output(facts, "report.html", path, err, errlen) != EXPLORE_OK)
        return EXPLORE_FAILED;
    explore_join(path, sizeof path, s->output, "summary.json");
    if (explore_write_summary(s, a, facts, path, err, errlen) != 0) return EXPLORE_FAILED;
    return EXPLORE_OK;
}

/* The message of the study's simulations when every one that ran was refused as a bad
 * configuration (SIM_BAD_CONFIG), else NULL. */
static const char *all_bad_config(const space *s, const archive *a)
{
    const char *why = NULL;
    for (size_t i = 0; i < a->n; i++) {
        const archive_point *p = &a->p[i];
        if (p->status == PS_INFEASIBLE) continue;
        for (size_t w = 0; w < s->nworkloads; w++) {
            if (p->res[w]->status != SIM_BAD_CONFIG) return NULL;
            if (!why) why = p->res[w]->error;
        }
    }
    return why;
}

/* The short report on stdout. */
static void study_report(const study *st, const run_facts *facts)
{
    const archive *a = &st->a;
    printf("%s: %zu points (%zu on the front, %zu infeasible, %zu failed", st->s->name, a->n,
           a->nfront, a->ninfeasible, a->nfailed);
    if (facts->screen)
        printf(", %zu ruled out by screening; %.2fx fewer warp instructions in detail",
               a->nscreened,
               facts->screen->detailed_insts > 0
                   ? facts->screen->full_insts / facts->screen->detailed_insts
                   : 0.0);
    printf("); %zu simulated, %zu from the journal; ", facts->counts.simulated,
           facts->counts.replayed);
    if (a->hv >= 0) printf("hypervolume %.6g; ", a->hv);
    printf("%.1f s; results in %s/\n", facts->wall, st->s->output);
}

explore_status explore_main(const explore_options *o, char *err, size_t errlen)
{
    err[0] = '\0';
    if (o->validate && !o->space) return explore_validate_bundled(o, err, errlen);
    study st;
    memset(&st, 0, sizeof st);
    st.o = o;
    st.lock_fd = -1;
    st.t0 = wall_now();
    explore_status rc = study_space(&st, err, errlen);
    if (rc == EXPLORE_OK && o->validate) {
        rc = explore_validate_space(o, st.s, err, errlen);
        study_free(&st);
        return rc;
    }
    if (rc == EXPLORE_OK && o->mpi && o->mpi_rank > 0) { /* an MPI worker */
        rc = mpi_eval_work(st.s, err, errlen) == 0 ? EXPLORE_OK : EXPLORE_FAILED;
        study_free(&st);
        return rc;
    }
    if (rc == EXPLORE_OK) rc = study_open(&st, err, errlen);
    eval_counts counts = {0};
    if (rc == EXPLORE_OK) rc = study_search(&st, &counts, err, errlen);
    if (rc == EXPLORE_OK && o->shard_n) { /* a shard writes its journal only */
        if (!o->quiet)
            printf("%s: shard %d of %d: %zu simulated, %zu from the journal; journal in "
                   "%s/journal.%d-of-%d\n",
                   st.s->name, o->shard_k, o->shard_n, counts.simulated, counts.replayed,
                   st.s->output, o->shard_k, o->shard_n);
        if (wt_stop_requested) {
            snprintf(err, errlen, "interrupted; rerun the shard to continue");
            rc = EXPLORE_INTERRUPTED;
        }
    } else if (rc == EXPLORE_OK) {
        run_facts facts = {.wall = wall_now() - st.t0,
                           .threads = evaluator_threads(st.ev),
                           .interrupted = wt_stop_requested != 0,
                           .counts = counts,
                           .info = &st.info,
                           .screen = st.s->search.screen > 0 ? &st.screen : NULL};
        rc = study_write(&st, &facts, err, errlen);
        if (rc == EXPLORE_OK && !o->quiet) study_report(&st, &facts);
        /* nothing feasible: the study measured nothing (as --validate's error) */
        size_t ref_feasible = st.a.n > 0 && st.a.p[0].status != PS_INFEASIBLE;
        if (rc == EXPLORE_OK && !facts.interrupted && st.s->nconstraints &&
            st.a.ninfeasible + ref_feasible == st.a.n) {
            snprintf(err, errlen,
                     "%s: constraints: no point the search found satisfies them (%zu "
                     "infeasible; expected at least one feasible configuration)",
                     st.s->file, st.a.ninfeasible);
            rc = EXPLORE_BAD_INPUT;
        }
        /* every simulation refused as impossible (an inconsistent preset, a CTA no SM holds):
         * the study measured nothing, and says why, as sim does */
        const char *why =
            rc == EXPLORE_OK && !facts.interrupted ? all_bad_config(st.s, &st.a) : NULL;
        if (why) {
            snprintf(err, errlen,
                     "%s: no configuration of the study can be simulated: %s (preset %s; expected "
                     "a preset, settings and parameters that make a consistent machine)",
                     st.s->file, why, st.s->preset);
            rc = EXPLORE_BAD_INPUT;
        }
        if (rc == EXPLORE_OK && facts.interrupted) {
            snprintf(err, errlen,
                     "interrupted; the outputs describe the %zu points that finished (rerun "
                     "with --resume to continue)",
                     st.a.n);
            rc = EXPLORE_INTERRUPTED;
        }
    }
    if (o->mpi && o->mpi_rank == 0) mpi_eval_release();
    study_free(&st);
    return rc;
}
