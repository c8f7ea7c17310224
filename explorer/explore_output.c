/* The outputs of a study: evaluations.csv, points.csv and pareto.csv, summary.json, front.svg
 * and study.json (report.html: explorer/report.c), each written through a temporary file renamed
 * into place. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "explorer/explore_internal.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <nlopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explorer/catalog.h"
#include "explorer/plot.h"
#include "explorer/table.h"
#include "explorer/version.h"

static const char *status_name(point_status st)
{
    return st == PS_OK         ? "ok"
           : st == PS_FAILED   ? "failed"
           : st == PS_SCREENED ? "screened"
                               : "infeasible";
}

static const char *sim_status_name(int st)
{
    return st == SIM_OK ? "ok" : st == SIM_FAILED ? "failed" : "bad-config";
}

/* The share of warp instructions simulated in detail (docs/sampling.md) of a result: 1 when
 * nothing of it was projected. */
static double detailed_share(const sim_metrics *m)
{
    return m->projected_warp_insts > 0 ? m->detailed_warp_insts / m->warp_insts : 1.0;
}

/* Results tallied for sampling: their warp instructions simulated in detail, all of them, and
 * how many results were projected. */
typedef struct share_tally {
    double detailed, all;
    size_t projected;
} share_tally;

/* Adds a point's results to t. */
static void tally_point(share_tally *t, const space *s, const archive_point *p)
{
    for (size_t w = 0; w < s->nworkloads; w++) {
        const sim_metrics *m = &p->res[w]->m;
        t->projected += m->projected_warp_insts > 0;
        t->detailed += m->projected_warp_insts > 0 ? m->detailed_warp_insts : m->warp_insts;
        t->all += m->warp_insts;
    }
}

static double tally_share(const share_tally *t)
{
    return t->all > 0 ? t->detailed / t->all : 1.0;
}

/* The study's feasible points tallied. Any result projected: evaluations.csv and points.csv
 * have a detailed_share column and summary.json a "sampled" object (none otherwise, so a study
 * without sampling writes what it always did). */
static share_tally tally_study(const space *s, const archive *a)
{
    share_tally t = {0};
    for (size_t i = 0; i < a->n; i++)
        if (a->p[i].status != PS_INFEASIBLE) tally_point(&t, s, &a->p[i]);
    return t;
}

static int study_projected(const space *s, const archive *a)
{
    return tally_study(s, a).projected > 0;
}

int explore_write_evaluations(const space *s, const archive *a, const char *path, char *err,
                              size_t errlen)
{
    size_t nm = metric_count();
    int sampled = study_projected(s, a);
    size_t ncols = 5 + s->ndims + nm + (size_t)sampled;
    const char **cols = calloc(ncols, sizeof *cols);
    const char **cells = calloc(ncols, sizeof *cells);
    char *store = malloc(ncols * 64); /* a 64-byte buffer per column, for the formatted cells */
    metric_info *mi = malloc(nm * sizeof *mi); /* the catalogue, walked once for every row */
    table *t = NULL;
    int rc = -1;
    if (!cols || !cells || !store || !mi) goto out;
    for (size_t i = 0; i < nm; i++)
        mi[i] = metric_at(i);
    size_t c = 0;
    cols[c++] = "point";
    cols[c++] = "workload";
    cols[c++] = "config_hash";
    cols[c++] = "status";
    cols[c++] = "error";
    for (size_t d = 0; d < s->ndims; d++)
        cols[c++] = s->dims[d].name;
    for (size_t i = 0; i < nm; i++)
        cols[c++] = mi[i].name;
    if (sampled) cols[c++] = "detailed_share";
    t = table_new(cols, ncols);
    if (!t) goto out;
    for (size_t i = 0; i < a->n; i++) {
        const archive_point *p = &a->p[i];
        if (p->status == PS_INFEASIBLE) continue;
        for (size_t w = 0; w < s->nworkloads; w++) {
            const eval_entry *e = p->res[w];
            c = 0;
            snprintf(store, 64, "%zu", i);
            cells[c++] = store;
            cells[c++] = s->workloads[w].label;
            snprintf(store + 2 * 64, 64, "%016llx", (unsigned long long)p->hash);
            cells[c++] = store + 2 * 64;
            cells[c++] = sim_status_name(e->status);
            cells[c++] = e->error;
            for (size_t d = 0; d < s->ndims; d++) {
                char *cell = store + c * 64;
                param_format(p->cfg, s->dims[d].param, cell, 64);
                cells[c++] = cell;
            }
            for (size_t k = 0; k < nm; k++) {
                char *cell = store + c * 64;
                table_format_double(metric_read(&e->m, &mi[k]), cell, 64);
                cells[c++] = cell;
            }
            if (sampled) {
                char *cell = store + c * 64;
                table_format_double(detailed_share(&e->m), cell, 64);
                cells[c++] = cell;
            }
            if (table_add_row(t, cells) != 0) goto out;
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
    free(mi);
    return rc;
}

int explore_write_points(const space *s, const archive *a, const char *path, int front_only,
                         char *err, size_t errlen)
{
    int sampled = study_projected(s, a);
    size_t ncols = 3 + s->ndims + s->nobjectives + 4 + (size_t)sampled;
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
    if (sampled) cols[c++] = "detailed_share";
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
        if (sampled) {
            share_tally pt = {0};
            if (p->status != PS_INFEASIBLE) tally_point(&pt, s, p);
            table_format_double(tally_share(&pt), cells[c++], 64);
        }
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

/* The space file as summary.json names it: as given when that is relative (or a built-in
 * name); an absolute path, relative to the output folder, so that a folder moved with its
 * space, or read on another machine, names no path of this one. */
static const char *space_shown_path(const space *s, char *buf, size_t n)
{
    if (s->file[0] != '/') return s->file;
    char *to = realpath(s->file, NULL), *from = realpath(s->output, NULL);
    const char *shown = NULL;
    if (to && from) {
        /* the common leading folders, then one ".." per folder of `from` left */
        size_t i = 0, common = 0;
        while (from[i] && to[i] && from[i] == to[i]) {
            i++;
            if (to[i] == '/' && (from[i] == '/' || !from[i])) common = i;
        }
        if (!from[i] && to[i] == '/') common = i;
        size_t used = 0;
        buf[0] = '\0';
        for (const char *c = from + common; *c; c++)
            if (*c == '/' && used + 4 < n) used += (size_t)snprintf(buf + used, n - used, "../");
        if (used + strlen(to + common + 1) < n) {
            snprintf(buf + used, n - used, "%s", to + common + 1);
            shown = buf;
        }
    }
    free(to);
    free(from);
    if (shown) return shown;
    /* gone, or too long: the file's name alone, never an absolute path */
    const char *slash = strrchr(s->file, '/');
    return slash ? slash + 1 : s->file;
}

cJSON *explore_summary_json(const space *s, const archive *a, const run_facts *f)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "study", s->name);
    char spath[4096];
    cJSON_AddStringToObject(root, "space", space_shown_path(s, spath, sizeof spath));
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
        cJSON_AddStringToObject(jo, "metric", metric_at((size_t)o->metric).name);
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
    if (f->screen) cJSON_AddNumberToObject(counts, "screened_points", (double)a->nscreened);
    cJSON_AddNumberToObject(counts, "workloads", (double)s->nworkloads);
    cJSON_AddNumberToObject(counts, "simulated", (double)f->counts.simulated);
    cJSON_AddNumberToObject(counts, "failed_simulations", (double)f->counts.failed);
    cJSON_AddNumberToObject(counts, "replayed", (double)f->counts.replayed);
    cJSON_AddNumberToObject(counts, "journal_records", (double)f->counts.journal_records);
    cJSON_AddNumberToObject(counts, "memo_hits", (double)f->counts.memo_hits);
    cJSON_AddNumberToObject(counts, "skipped", (double)f->counts.skipped);
    cJSON_AddNumberToObject(counts, "journal_lines_ignored", (double)f->counts.torn);
    share_tally sampled = tally_study(s, a);
    if (sampled.projected) { /* projected results say so (docs/sampling.md) */
        cJSON *smp = cJSON_AddObjectToObject(root, "sampled");
        cJSON_AddNumberToObject(smp, "projected_results", (double)sampled.projected);
        add_number(smp, "detailed_share", tally_share(&sampled));
        cJSON_AddStringToObject(smp, "meaning",
                                "results with projected_warp_insts > 0 ran partly functionally, "
                                "their statistics projected (docs/sampling.md); detailed_share: "
                                "warp instructions simulated in detail over all");
    }
    if (f->screen) { /* a multi-fidelity study (explorer/screen.h) */
        const screen_stats *q = f->screen;
        cJSON *scr = cJSON_AddObjectToObject(root, "screening");
        add_number(scr, "budget", s->search.screen);
        add_number(scr, "margin", s->search.screen_margin);
        cJSON_AddNumberToObject(scr, "screened", (double)q->screened);
        cJSON_AddNumberToObject(scr, "simulated_in_full", (double)q->full);
        cJSON_AddNumberToObject(scr, "ruled_out", (double)a->nscreened);
        cJSON_AddNumberToObject(scr, "rounds", (double)q->rounds);
        cJSON_AddNumberToObject(scr, "calibrated", (double)q->calibrated);
        cJSON_AddItemToObject(scr, "bias", cJSON_CreateDoubleArray(q->bias, (int)s->nobjectives));
        cJSON_AddItemToObject(scr, "delta", cJSON_CreateDoubleArray(q->delta, (int)s->nobjectives));
        add_number(scr, "detailed_warp_insts", q->detailed_insts);
        add_number(scr, "full_detail_warp_insts", q->full_insts);
        add_number(scr, "saving", q->detailed_insts > 0 ? q->full_insts / q->detailed_insts : NAN);
        cJSON_AddStringToObject(
            scr, "meaning",
            "every configuration simulated sampled (at most budget of each launch in detail), "
            "then in full detail the ones that may reach the front; points with status "
            "screened were ruled out and show their screening results; bias and delta: the last "
            "round's, per objective, as the log of the normalised value; detailed_warp_insts: "
            "the warp instructions the study simulated in detail (journal included), "
            "full_detail_warp_insts: those of every point in full detail (docs/spaces.md)");
    }
    if (f->sens) explore_sensitivity_json(s, f->sens, root);
    cJSON *hv = cJSON_AddObjectToObject(root, "hypervolume");
    add_number(hv, "value", a->hv >= 0 ? a->hv : NAN);
    cJSON_AddItemToObject(hv, "reference_point",
                          cJSON_CreateDoubleArray(a->hv_point, (int)s->nobjectives));
    cJSON_AddStringToObject(hv, "space",
                            "objectives normalised by the reference configuration (value/ref "
                            "for min, ref/value for max), all minimised");
    /* the same front against a point fixed by the space, in the objectives' units: comparable
     * across studies whose reference configurations differ */
    cJSON *abs = cJSON_AddObjectToObject(hv, "absolute");
    add_number(abs, "value", a->hv_abs);
    cJSON *ap = cJSON_AddArrayToObject(abs, "reference_point");
    for (size_t k = 0; k < s->nobjectives; k++)
        cJSON_AddItemToArray(ap, isfinite(a->hv_abs_point[k])
                                     ? cJSON_CreateNumber(a->hv_abs_point[k])
                                     : cJSON_CreateNull());
    cJSON_AddStringToObject(abs, "space",
                            "objectives in their own units, against each objective's "
                            "hv_reference, else 0 for a maximised one; null when a minimised "
                            "objective has no hv_reference (no fixed bound) or there are more "
                            "than 3 objectives");
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
    /* the set this summary closes: a file that does not match is another run's */
    cJSON *files = cJSON_AddObjectToObject(root, "files");
    for (size_t i = 0; i < f->nfiles; i++) {
        cJSON *fo = cJSON_AddObjectToObject(files, f->files[i].name);
        cJSON_AddNumberToObject(fo, "bytes", (double)f->files[i].bytes);
        snprintf(buf, sizeof buf, "%016llx", (unsigned long long)f->files[i].fnv1a);
        cJSON_AddStringToObject(fo, "fnv1a64", buf);
    }
    return root;
}

int explore_write_summary(const space *s, const archive *a, const run_facts *f, const char *path,
                          char *err, size_t errlen)
{
    cJSON *root = explore_summary_json(s, a, f);
    char *text = root ? cJSON_Print(root) : NULL;
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

int explore_write_plot(const space *s, const archive *a, const char *path, char *err, size_t errlen)
{
    size_t m = s->nobjectives;
    double *obj = malloc((a->n ? a->n : 1) * m * sizeof *obj);
    unsigned char *on = malloc(a->n ? a->n : 1);
    char names[SPACE_MAX_OBJECTIVES][160];
    const char *np[SPACE_MAX_OBJECTIVES];
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

int explore_write_study(const space *s, const char *const *sets, size_t nsets, const char *path,
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
