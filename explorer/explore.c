#include "explorer/explore.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <nlopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "explorer/cli.h"
#include "explorer/front.h"
#include "explorer/plot.h"
#include "explorer/progress.h"
#include "explorer/table.h"
#include "explorer/version.h"

static double wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---------------------------------------------------------------- the archive */

int explore_reference(const space *s, evaluator *ev, double *ref)
{
    const eval_entry **res = calloc(s->nworkloads, sizeof *res);
    param_set *base = s->base;
    int ok = 0;
    for (size_t i = 0; i < s->nobjectives; i++)
        ref[i] = NAN;
    if (!res) return 0;
    if (evaluator_batch(ev, &base, 1, res) == 0 && search_objectives(s, res, ref) == 0) ok = 1;
    if (!ok)
        for (size_t i = 0; i < s->nobjectives; i++)
            ref[i] = NAN;
    free(res);
    return ok;
}

void archive_free(archive *a)
{
    for (size_t i = 0; i < a->n; i++) {
        param_set_free(a->p[i].cfg);
        free(a->p[i].res);
    }
    free(a->p);
    memset(a, 0, sizeof *a);
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

void archive_hv_point(const space *s, const archive *a, double *point)
{
    for (size_t i = 0; i < s->nobjectives; i++) {
        const space_objective *o = &s->objectives[i];
        if (o->has_hv_ref) {
            point[i] = search_normalised(s, i, o->hv_ref, a->ref[i]);
        } else if (isfinite(a->ref[i]) && a->ref[i] > 0) {
            point[i] = 2;
        } else {
            double lo = HUGE_VAL, hi = -HUGE_VAL;
            for (size_t k = 0; k < a->n; k++)
                if (a->p[k].status == PS_OK && isfinite(a->p[k].norm[i])) {
                    lo = fmin(lo, a->p[k].norm[i]);
                    hi = fmax(hi, a->p[k].norm[i]);
                }
            point[i] = hi >= lo ? hi + (hi > lo ? 0.1 * (hi - lo) : fabs(hi) * 0.1 + 1) : 1;
        }
    }
}

double archive_hypervolume(const space *s, const archive *a, size_t k, const double *point)
{
    size_t m = s->nobjectives;
    if (m > 3) return -1;
    double *rows = malloc((k ? k : 1) * m * sizeof *rows);
    if (!rows) return NAN;
    size_t n = 0;
    for (size_t i = 0; i < a->n && i < k; i++)
        if (a->p[i].status == PS_OK) memcpy(rows + m * n++, a->p[i].norm, m * sizeof *rows);
    double hv = front_hypervolume(rows, n, m, point);
    free(rows);
    return hv;
}

int archive_build(const space *s, evaluator *ev, proposal_list *props, const double *ref,
                  archive *a, char *err, size_t errlen)
{
    memset(a, 0, sizeof *a);
    size_t m = s->nobjectives;
    for (size_t i = 0; i < m; i++)
        a->ref[i] = ref ? ref[i] : NAN;
    a->ref_ok = 1;
    for (size_t i = 0; i < m; i++)
        a->ref_ok &= isfinite(a->ref[i]);
    a->p = calloc(props->n ? props->n : 1, sizeof *a->p);
    uint64_t *seen = malloc((props->n ? props->n : 1) * sizeof *seen);
    if (!a->p || !seen) {
        free(seen);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    size_t nseen = 0;
    for (size_t i = 0; i < props->n; i++) {
        proposal *pr = &props->p[i];
        /* the first proposal of a configuration wins: a sorted set of hashes seen so far */
        uint64_t *hit = nseen ? bsearch(&pr->hash, seen, nseen, sizeof *seen, cmp_u64) : NULL;
        if (hit) continue;
        size_t pos = nseen;
        while (pos > 0 && seen[pos - 1] > pr->hash) {
            seen[pos] = seen[pos - 1];
            pos--;
        }
        seen[pos] = pr->hash;
        nseen++;
        archive_point *p = &a->p[a->n];
        memset(p, 0, sizeof *p);
        p->hash = pr->hash;
        p->run = pr->run;
        p->violation = pr->violation;
        for (size_t k = 0; k < m; k++)
            p->obj[k] = p->norm[k] = NAN;
        if (pr->violation > 0) {
            p->status = PS_INFEASIBLE;
        } else {
            p->res = calloc(s->nworkloads, sizeof *p->res);
            if (!p->res) {
                free(seen);
                snprintf(err, errlen, "out of memory");
                return -1;
            }
            int complete = 1;
            for (size_t w = 0; w < s->nworkloads && complete; w++)
                complete = (p->res[w] = evaluator_peek(ev, pr->cfg, w)) != NULL;
            if (!complete) { /* stopped before it finished: not part of the study */
                free(p->res);
                continue;
            }
            p->status = search_objectives(s, p->res, p->obj) ? PS_FAILED : PS_OK;
            for (size_t k = 0; k < m && p->status == PS_OK; k++)
                p->norm[k] = search_normalised(s, k, p->obj[k], a->ref[k]);
        }
        p->cfg = pr->cfg;
        pr->cfg = NULL;
        a->n++;
    }
    free(seen);
    double *rows = malloc((a->n ? a->n : 1) * m * sizeof *rows);
    unsigned char *on = calloc(a->n ? a->n : 1, 1);
    if (!rows || !on) {
        free(rows);
        free(on);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < a->n; i++) {
        a->nfailed += a->p[i].status == PS_FAILED;
        a->ninfeasible += a->p[i].status == PS_INFEASIBLE;
        for (size_t k = 0; k < m; k++)
            rows[i * m + k] = a->p[i].status == PS_OK ? a->p[i].norm[k] : NAN;
    }
    a->nfront = front_mark(rows, a->n, m, on);
    for (size_t i = 0; i < a->n; i++)
        a->p[i].on_front = on[i];
    free(rows);
    free(on);
    archive_hv_point(s, a, a->hv_point);
    a->hv = archive_hypervolume(s, a, a->n, a->hv_point);
    return 0;
}

/* ---------------------------------------------------------------- outputs */

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

static const char *status_name(point_status st)
{
    return st == PS_OK ? "ok" : st == PS_FAILED ? "failed" : "infeasible";
}

static const char *sim_status_name(int st)
{
    return st == SIM_OK ? "ok" : st == SIM_FAILED ? "failed" : "bad-config";
}

static int write_evaluations(const space *s, const archive *a, const char *path, char *err,
                             size_t errlen)
{
    size_t nm = metric_count();
    size_t ncols = 5 + s->ndims + nm;
    const char **cols = calloc(ncols, sizeof *cols);
    char **cells = calloc(ncols, sizeof *cells);
    char *store = malloc(ncols * 64);
    table *t = NULL;
    int rc = -1;
    if (!cols || !cells || !store) goto out;
    size_t c = 0;
    cols[c++] = "point";
    cols[c++] = "workload";
    cols[c++] = "config_hash";
    cols[c++] = "status";
    cols[c++] = "error";
    for (size_t d = 0; d < s->ndims; d++)
        cols[c++] = s->dims[d].name;
    for (size_t i = 0; i < nm; i++)
        cols[c++] = metric_at(i)->name;
    t = table_new(cols, ncols);
    if (!t) goto out;
    for (size_t c2 = 0; c2 < ncols; c2++)
        cells[c2] = store + c2 * 64;
    for (size_t i = 0; i < a->n; i++) {
        const archive_point *p = &a->p[i];
        if (p->status == PS_INFEASIBLE) continue;
        for (size_t w = 0; w < s->nworkloads; w++) {
            const eval_entry *e = p->res[w];
            c = 0;
            snprintf(cells[c++], 64, "%zu", i);
            cells[c] = (char *)s->workloads[w].label;
            c++;
            snprintf(cells[c++], 64, "%016llx", (unsigned long long)p->hash);
            cells[c] = (char *)sim_status_name(e->status);
            c++;
            cells[c] = (char *)e->error;
            c++;
            for (size_t d = 0; d < s->ndims; d++) {
                cells[c] = store + c * 64;
                param_format(p->cfg, s->dims[d].param, cells[c++], 64);
            }
            for (size_t k = 0; k < nm; k++) {
                cells[c] = store + c * 64;
                table_format_double(metric_value(&e->m, k), cells[c++], 64);
            }
            if (table_add_row(t, (const char *const *)cells) != 0) goto out;
            /* restore the cells that pointed elsewhere */
            for (size_t c2 = 0; c2 < 5; c2++)
                cells[c2] = store + c2 * 64;
        }
    }
    rc = table_write_csv(t, path, err, errlen);
    goto done;
out:
    snprintf(err, errlen, "%s: out of memory", path);
done:
    table_free(t);
    free(cols);
    free(cells);
    free(store);
    return rc;
}

static int write_points(const space *s, const archive *a, const char *path, int front_only,
                        char *err, size_t errlen)
{
    size_t ncols = 3 + s->ndims + s->nobjectives + 4;
    const char **cols = calloc(ncols, sizeof *cols);
    char *store = malloc(ncols * 64);
    char **cells = calloc(ncols, sizeof *cells);
    table *t = NULL;
    int rc = -1;
    if (!cols || !store || !cells) goto oom;
    size_t c = 0;
    cols[c++] = "point";
    cols[c++] = "run";
    cols[c++] = "config_hash";
    for (size_t d = 0; d < s->ndims; d++)
        cols[c++] = s->dims[d].name;
    for (size_t k = 0; k < s->nobjectives; k++)
        cols[c++] = s->objectives[k].name;
    cols[c++] = "status";
    cols[c++] = "violation";
    cols[c++] = "feasible";
    cols[c++] = "on_front";
    t = table_new(cols, ncols);
    if (!t) goto oom;
    for (size_t c2 = 0; c2 < ncols; c2++)
        cells[c2] = store + c2 * 64;
    for (size_t i = 0; i < a->n; i++) {
        const archive_point *p = &a->p[i];
        if (front_only && !p->on_front) continue;
        c = 0;
        snprintf(cells[c++], 64, "%zu", i);
        snprintf(cells[c++], 64, "%u", p->run);
        snprintf(cells[c++], 64, "%016llx", (unsigned long long)p->hash);
        for (size_t d = 0; d < s->ndims; d++)
            param_format(p->cfg, s->dims[d].param, cells[c++], 64);
        for (size_t k = 0; k < s->nobjectives; k++)
            table_format_double(p->obj[k], cells[c++], 64);
        snprintf(cells[c++], 64, "%s", status_name(p->status));
        table_format_double(p->violation, cells[c++], 64);
        snprintf(cells[c++], 64, "%d", p->status != PS_INFEASIBLE);
        snprintf(cells[c++], 64, "%d", p->on_front);
        if (table_add_row(t, (const char *const *)cells) != 0) goto oom;
    }
    rc = table_write_csv(t, path, err, errlen);
    goto done;
oom:
    snprintf(err, errlen, "%s: out of memory", path);
done:
    table_free(t);
    free(cols);
    free(cells);
    free(store);
    return rc;
}

static cJSON *config_json(const space *s, const param_set *cfg)
{
    cJSON *o = cJSON_CreateObject();
    char buf[64];
    for (size_t d = 0; d < s->ndims; d++) {
        const param_def *pd = param_def_at((size_t)s->dims[d].param);
        param_format(cfg, s->dims[d].param, buf, sizeof buf);
        if (pd->type == PT_CHOICE)
            cJSON_AddStringToObject(o, s->dims[d].name, buf);
        else if (pd->type == PT_BOOL)
            cJSON_AddBoolToObject(o, s->dims[d].name, param_get(cfg, s->dims[d].param) != 0);
        else
            cJSON_AddNumberToObject(o, s->dims[d].name, param_get(cfg, s->dims[d].param));
    }
    return o;
}

static void add_number(cJSON *o, const char *k, double v)
{
    if (isfinite(v))
        cJSON_AddNumberToObject(o, k, v);
    else
        cJSON_AddNullToObject(o, k);
}

typedef struct run_facts {
    double wall;
    int threads;
    int interrupted;
    eval_counts counts;
    const search_info *info;
} run_facts;

static int write_summary(const space *s, const archive *a, const run_facts *f, const char *path,
                         char *err, size_t errlen)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "study", s->name);
    cJSON_AddStringToObject(root, "space", s->file);
    cJSON_AddStringToObject(root, "description", s->description);
    cJSON_AddStringToObject(root, "version", wt_version());
    int maj, min, fix;
    nlopt_version(&maj, &min, &fix);
    char buf[128];
    snprintf(buf, sizeof buf, "%d.%d.%d", maj, min, fix);
    cJSON_AddStringToObject(root, "nlopt_version", buf);
    cJSON_AddStringToObject(root, "preset", s->preset);
    cJSON *search = cJSON_AddObjectToObject(root, "search");
    cJSON_AddStringToObject(search, "strategy",
                            s->search.kind == SEARCH_NLOPT ? s->search.algorithm
                                                           : search_kind_name(s->search.kind));
    cJSON_AddNumberToObject(search, "seed", (double)s->search.seed);
    cJSON_AddNumberToObject(search, "evaluations_budget", (double)s->search.max_evaluations);
    cJSON_AddNumberToObject(search, "seconds_budget", s->search.max_seconds);
    if (s->search.kind == SEARCH_NLOPT) {
        cJSON_AddNumberToObject(search, "runs", (double)f->info->runs);
        cJSON_AddNumberToObject(search, "restarts", (double)f->info->restarts);
        cJSON *ws = cJSON_AddArrayToObject(search, "weights");
        for (size_t r = 0; r < f->info->runs; r++) {
            if ((r + 1) * s->nobjectives > sizeof f->info->weights / sizeof(double)) break;
            cJSON *wv =
                cJSON_CreateDoubleArray(f->info->weights + r * s->nobjectives, (int)s->nobjectives);
            cJSON_AddItemToArray(ws, wv);
        }
    }
    cJSON *objs = cJSON_AddArrayToObject(root, "objectives");
    for (size_t k = 0; k < s->nobjectives; k++) {
        const space_objective *o = &s->objectives[k];
        cJSON *jo = cJSON_CreateObject();
        cJSON_AddStringToObject(jo, "name", o->name);
        cJSON_AddStringToObject(jo, "metric", metric_at((size_t)o->metric)->name);
        cJSON_AddStringToObject(jo, "goal", o->maximise ? "max" : "min");
        cJSON_AddStringToObject(jo, "aggregate", agg_name(o->agg));
        add_number(jo, "reference_value", a->ref[k]);
        cJSON_AddItemToArray(objs, jo);
    }
    cJSON *counts = cJSON_AddObjectToObject(root, "counts");
    cJSON_AddNumberToObject(counts, "points", (double)a->n);
    cJSON_AddNumberToObject(counts, "front", (double)a->nfront);
    cJSON_AddNumberToObject(counts, "infeasible_points", (double)a->ninfeasible);
    cJSON_AddNumberToObject(counts, "failed_points", (double)a->nfailed);
    cJSON_AddNumberToObject(counts, "workloads", (double)s->nworkloads);
    cJSON_AddNumberToObject(counts, "simulated", (double)f->counts.simulated);
    cJSON_AddNumberToObject(counts, "failed_simulations", (double)f->counts.failed);
    cJSON_AddNumberToObject(counts, "replayed", (double)f->counts.replayed);
    cJSON_AddNumberToObject(counts, "memo_hits", (double)f->counts.memo_hits);
    cJSON_AddNumberToObject(counts, "skipped", (double)f->counts.skipped);
    cJSON_AddNumberToObject(counts, "journal_lines_ignored", (double)f->counts.torn);
    cJSON *hv = cJSON_AddObjectToObject(root, "hypervolume");
    add_number(hv, "value", a->hv >= 0 ? a->hv : NAN);
    cJSON_AddItemToObject(hv, "reference_point",
                          cJSON_CreateDoubleArray(a->hv_point, (int)s->nobjectives));
    cJSON_AddStringToObject(hv, "space",
                            "objectives normalised by the reference configuration (value/ref "
                            "for min, ref/value for max), all minimised");
    cJSON *best = cJSON_AddObjectToObject(root, "best");
    for (size_t k = 0; k < s->nobjectives; k++) {
        const space_objective *o = &s->objectives[k];
        size_t bi = SIZE_MAX;
        for (size_t i = 0; i < a->n; i++) {
            if (a->p[i].status != PS_OK || !isfinite(a->p[i].obj[k])) continue;
            if (bi == SIZE_MAX ||
                (o->maximise ? a->p[i].obj[k] > a->p[bi].obj[k] : a->p[i].obj[k] < a->p[bi].obj[k]))
                bi = i;
        }
        if (bi == SIZE_MAX) {
            cJSON_AddNullToObject(best, o->name);
            continue;
        }
        cJSON *b = cJSON_AddObjectToObject(best, o->name);
        cJSON_AddNumberToObject(b, "point", (double)bi);
        add_number(b, "value", a->p[bi].obj[k]);
        cJSON_AddItemToObject(b, "config", config_json(s, a->p[bi].cfg));
    }
    cJSON_AddNumberToObject(root, "threads", f->threads);
    cJSON_AddNumberToObject(root, "wall_seconds", f->wall);
    add_number(root, "simulations_per_second",
               f->wall > 0 ? (double)f->counts.simulated / f->wall : NAN);
    cJSON_AddBoolToObject(root, "interrupted", f->interrupted);
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    if (!text) {
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    size_t len = strlen(text);
    char *t2 = realloc(text, len + 2);
    if (t2) {
        text = t2;
        text[len++] = '\n';
        text[len] = '\0';
    }
    int rc = write_file_atomic(path, text, len, err, errlen);
    free(text);
    return rc;
}

static int write_plot(const space *s, const archive *a, const char *path, char *err, size_t errlen)
{
    size_t m = s->nobjectives;
    double *obj = malloc((a->n ? a->n : 1) * m * sizeof *obj);
    unsigned char *on = malloc(a->n ? a->n : 1);
    char names[8][160];
    const char *np[8];
    int rc = -1;
    if (!obj || !on) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    size_t n = 0;
    for (size_t i = 0; i < a->n; i++) {
        if (a->p[i].status != PS_OK) continue;
        memcpy(obj + n * m, a->p[i].obj, m * sizeof *obj);
        on[n++] = a->p[i].on_front;
    }
    for (size_t k = 0; k < m; k++) {
        snprintf(names[k], sizeof names[k], "%s (%s)", s->objectives[k].name,
                 s->objectives[k].maximise ? "max" : "min");
        np[k] = names[k];
    }
    char title[512];
    snprintf(title, sizeof title, "%s: %zu points, %zu on the front", s->name, n, a->nfront);
    rc = plot_front_svg(path, title, obj, n, m, np, on, err, errlen);
out:
    free(obj);
    free(on);
    return rc;
}

static int write_study(const space *s, const char *const *sets, size_t nsets, const char *path,
                       char *err, size_t errlen)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "space_file", s->file);
    cJSON_AddItemToObject(root, "space", cJSON_Parse(s->canonical));
    cJSON *arr = cJSON_AddArrayToObject(root, "set");
    for (size_t i = 0; i < nsets; i++)
        cJSON_AddItemToArray(arr, cJSON_CreateString(sets[i]));
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    if (!text) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int rc = write_file_atomic(path, text, strlen(text), err, errlen);
    free(text);
    return rc;
}

/* ---------------------------------------------------------------- the study */

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len + 4097 > cap) {
            cap = cap ? cap * 2 : 8192;
            char *t = realloc(buf, cap);
            if (!t) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = t;
        }
        size_t got = fread(buf + len, 1, 4096, f);
        len += got;
        if (got < 4096) break;
    }
    fclose(f);
    buf[len] = '\0';
    return buf;
}

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
    char *text = read_text(path);
    if (!text) {
        snprintf(err, errlen, "%s: nothing to resume (no study.json; run the study first)", folder);
        return NULL;
    }
    cJSON *root = cJSON_Parse(text);
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

static int validate_bundled(void)
{
    int rc = WT_EXIT_OK;
    char err[2048];
    for (size_t i = 0; i < space_builtin_count(); i++) {
        char file[256];
        snprintf(file, sizeof file, "spaces/%s.json", space_builtin_name(i));
        space *s = space_parse(space_builtin_text(i), file, err, sizeof err);
        if (!s) {
            fprintf(stderr, "warptune explore: %s\n", err);
            rc = WT_EXIT_BAD_INPUT;
            continue;
        }
        printf("%s: ok (%zu parameters, grid of %zu points, %zu workloads, %s)\n", file, s->ndims,
               space_grid_size(s), s->nworkloads,
               s->search.kind == SEARCH_NLOPT ? s->search.algorithm
                                              : search_kind_name(s->search.kind));
        space_free(s);
    }
    return rc;
}

int explore_main(const explore_options *o)
{
    char err[4096] = "";
    double t0 = wall_now();
    int rc = WT_EXIT_OK;
    space *s = NULL;
    evaluator *ev = NULL;
    progress *prog = NULL;
    study_sets ss = {0};
    proposal_list props = {0};
    archive a = {0};
    search_info info;
    memset(&info, 0, sizeof info);

    if (o->validate && !o->space) return validate_bundled();
    /* the space: the one named, or with --resume and none named, the folder's own */
    if (!o->space && o->resume) {
        const char *folder = o->out ? o->out : "results/default";
        s = load_saved(folder, &ss, err, sizeof err);
        if (!s) {
            fprintf(stderr, "warptune explore: %s\n", err);
            rc = WT_EXIT_BAD_INPUT;
            goto out;
        }
    } else {
        s = space_load(o->space ? o->space : "default", err, sizeof err);
        if (!s) {
            fprintf(stderr, "warptune explore: %s\n", err);
            rc = WT_EXIT_BAD_INPUT;
            goto out;
        }
    }
    for (size_t i = 0; i < o->nsets; i++)
        if (sets_add(&ss, o->sets[i]) != 0) {
            rc = WT_EXIT_INTERNAL;
            goto out;
        }
    for (size_t i = 0; i < ss.n; i++)
        if (space_override(s, ss.v[i], err, sizeof err) != 0) {
            fprintf(stderr, "warptune explore: %s\n", err);
            rc = WT_EXIT_BAD_INPUT;
            goto out;
        }
    if (o->out) {
        free(s->output);
        s->output = malloc(strlen(o->out) + 1);
        if (!s->output) {
            rc = WT_EXIT_INTERNAL;
            goto out;
        }
        strcpy(s->output, o->out);
    }
    if (o->validate) {
        printf("%s: ok (%zu parameters, grid of %zu points, %zu workloads, %s)\n", s->file,
               s->ndims, space_grid_size(s), s->nworkloads,
               s->search.kind == SEARCH_NLOPT ? s->search.algorithm
                                              : search_kind_name(s->search.kind));
        goto out;
    }
    if (mkdirs(s->output, err, sizeof err) != 0) {
        fprintf(stderr, "warptune explore: %s\n", err);
        rc = WT_EXIT_BAD_INPUT;
        goto out;
    }
    char path[2048];
    join(path, sizeof path, s->output, "journal");
    if (o->resume) {
        struct stat st;
        if (stat(path, &st) != 0) {
            fprintf(stderr, "warptune explore: %s: nothing to resume (no journal)\n", s->output);
            rc = WT_EXIT_BAD_INPUT;
            goto out;
        }
    }
    int threads = o->threads > 0 ? o->threads : s->search.threads;
    ev = evaluator_new(s, path, threads, err, sizeof err);
    if (!ev) {
        fprintf(stderr, "warptune explore: %s\n", err);
        rc = WT_EXIT_BAD_INPUT;
        goto out;
    }
    join(path, sizeof path, s->output, "study.json");
    if (write_study(s, (const char *const *)ss.v, ss.n, path, err, sizeof err) != 0) {
        fprintf(stderr, "warptune explore: %s\n", err);
        rc = WT_EXIT_INTERNAL;
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

    double ref[8];
    explore_reference(s, ev, ref);
    if (search_run(s, ev, ref, &props, &info, err, sizeof err) != 0) {
        fprintf(stderr, "warptune explore: %s\n", err);
        rc = WT_EXIT_INTERNAL;
        goto out;
    }
    eval_counts counts = evaluator_counts(ev);
    if (prog) progress_finish(prog, counts.simulated + counts.memo_hits, counts.failed);
    if (archive_build(s, ev, &props, ref, &a, err, sizeof err) != 0) {
        fprintf(stderr, "warptune explore: %s\n", err);
        rc = WT_EXIT_INTERNAL;
        goto out;
    }
    run_facts facts = {wall_now() - t0, evaluator_threads(ev), wt_stop_requested != 0, counts,
                       &info};
    join(path, sizeof path, s->output, "evaluations.csv");
    if (write_evaluations(s, &a, path, err, sizeof err) != 0) goto write_failed;
    join(path, sizeof path, s->output, "points.csv");
    if (write_points(s, &a, path, 0, err, sizeof err) != 0) goto write_failed;
    join(path, sizeof path, s->output, "pareto.csv");
    if (write_points(s, &a, path, 1, err, sizeof err) != 0) goto write_failed;
    if (s->nobjectives == 2 || s->nobjectives == 3) {
        join(path, sizeof path, s->output, "front.svg");
        if (write_plot(s, &a, path, err, sizeof err) != 0) goto write_failed;
    }
    facts.wall = wall_now() - t0;
    join(path, sizeof path, s->output, "summary.json");
    if (write_summary(s, &a, &facts, path, err, sizeof err) != 0) goto write_failed;
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
        rc = WT_EXIT_INTERRUPTED;
    }
    goto out;
write_failed:
    fprintf(stderr, "warptune explore: %s\n", err);
    rc = WT_EXIT_INTERNAL;
out:
    archive_free(&a);
    proposal_list_free(&props);
    if (prog) progress_free(prog);
    evaluator_free(ev);
    space_free(s);
    sets_free(&ss);
    return rc;
}
