/* report.html from a study's output folder: the provenance as a table, and the points, the
 * per-workload metrics and the sensitivity indices as a JSON block that the page's script
 * (report_page.c) draws. Cells are carried as the CSVs spell them, so the page shows exactly
 * what the files hold, and the same folder gives the same bytes. */
#include "explorer/report.h"

#include <csv.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util/hash.h"
#include "core/util/strbuf.h"
#include "core/util/textfile.h"
#include "explorer/report_internal.h"
#include "explorer/table.h"

/* The largest input file read: far beyond any study's evaluations.csv. */
#define REPORT_FILE_MAX ((size_t)1 << 30)

/* The per-workload metrics the page compares, those of them evaluations.csv has, in this order
 * (the objectives' metrics are added after them). */
static const char *const report_metrics[] = {"cycles", "ipc", "mpki", "l1d_miss_rate", "energy_j"};
#define NREPORT_METRICS (sizeof report_metrics / sizeof report_metrics[0])

/* The presets validated against GPGPU-Sim (Accel-Sim) on the same traces, and their cycles
 * error: the summary table of docs/validation.md (38 workloads each), to be kept in step with
 * it. */
static const struct {
    const char *preset;
    const char *error;
} validated[] = {
    {"qv100-accelsim", "cycles MAPE 2.1% against GPGPU-Sim (38 workloads, docs/validation.md)"},
    {"fermi-gtx480", "cycles MAPE 2.9% against GPGPU-Sim (38 workloads, docs/validation.md)"},
};

/* JSON inside a script element: '<', '>' and '&' (only ever inside JSON strings) as \u escapes,
 * so no text of the study can close the element or open a comment there. */
static void sb_json(wt_strbuf *b, const char *json)
{
    for (const char *p = json; *p; p++) {
        if (*p == '<')
            wt_strbuf_str(b, "\\u003c");
        else if (*p == '>')
            wt_strbuf_str(b, "\\u003e");
        else if (*p == '&')
            wt_strbuf_str(b, "\\u0026");
        else
            wt_strbuf_put(b, p, 1);
    }
}

/* ------------------------------------------------------------------ reading the folder ---- */

/* A CSV file as cells, row-major; row 0 is the header. */
typedef struct csv_table {
    char **cells;
    size_t n, cap;
    size_t ncols, nrows; /* nrows counts the header */
    size_t row_n;        /* cells of the record being read */
    int failed;          /* 1 out of memory, 2 a record with a different number of fields */
    size_t bad_fields;
} csv_table;

static void ct_field(void *s, size_t len, void *data)
{
    csv_table *t = data;
    if (t->failed) return;
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 1024;
        char **c = realloc(t->cells, cap * sizeof *c);
        if (!c) {
            t->failed = 1;
            return;
        }
        t->cells = c;
        t->cap = cap;
    }
    char *c = malloc(len + 1);
    if (!c) {
        t->failed = 1;
        return;
    }
    if (len) memcpy(c, s, len);
    c[len] = '\0';
    t->cells[t->n++] = c;
    t->row_n++;
}

static void ct_row(int c, void *data)
{
    (void)c;
    csv_table *t = data;
    if (t->failed) return;
    if (t->nrows == 0) {
        t->ncols = t->row_n;
    } else if (t->row_n != t->ncols) {
        t->failed = 2;
        t->bad_fields = t->row_n;
        return;
    }
    t->nrows++;
    t->row_n = 0;
}

static void ct_free(csv_table *t)
{
    for (size_t i = 0; i < t->n; i++)
        free(t->cells[i]);
    free(t->cells);
}

static const char *ct_cell(const csv_table *t, size_t row, size_t col)
{
    return t->cells[row * t->ncols + col];
}

/* The column called name, or -1. */
static long ct_col(const csv_table *t, const char *name)
{
    for (size_t c = 0; c < t->ncols; c++)
        if (!strcmp(ct_cell(t, 0, c), name)) return (long)c;
    return -1;
}

/* What report_write reads: the summary, and whether the files are to be checked against it. */
typedef struct report_input {
    const char *dir;
    const cJSON *summary;
    int check; /* the summary was read from the folder: a file it names must match it */
} report_input;

/* The file dir/name into *text. Returns REPORT_OK; REPORT_BAD_INPUT with *missing set when it
 * does not exist (and missing is not NULL), otherwise with err. */
static report_status read_text(const report_input *in, const char *name, char **text, size_t *len,
                               int *missing, char *err, size_t errlen)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", in->dir, name);
    if (missing) *missing = 0;
    const char *refused = NULL;
    FILE *f = wt_open_regular(path, &refused);
    if (!f && !refused && errno == ENOENT && missing) {
        *missing = 1;
        return REPORT_BAD_INPUT;
    }
    if (!f) {
        snprintf(err, errlen, "%s: cannot open: %s%s", path, refused ? refused : strerror(errno),
                 errno == ENOENT ? " (expected a study's output folder)" : "");
        return REPORT_BAD_INPUT;
    }
    *text = wt_read_stream_max(f, len, REPORT_FILE_MAX);
    int e = errno, failed = ferror(f);
    fclose(f);
    if (!*text || failed) {
        free(*text);
        *text = NULL;
        snprintf(err, errlen, "%s: cannot read: %s", path, failed ? "read error" : strerror(e));
        return e == ENOMEM ? REPORT_FAILED : REPORT_BAD_INPUT;
    }
    if (in->check) { /* a file of another run than the summary's is refused */
        const cJSON *fo =
            cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItem(in->summary, "files"), name);
        const cJSON *bytes = cJSON_GetObjectItemCaseSensitive(fo, "bytes");
        const char *hash = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(fo, "fnv1a64"));
        char mine[32];
        snprintf(mine, sizeof mine, "%016llx",
                 (unsigned long long)wt_fnv1a(WT_FNV_INIT, *text, *len));
        if (fo && (!cJSON_IsNumber(bytes) || bytes->valuedouble != (double)*len || !hash ||
                   strcmp(hash, mine))) {
            snprintf(err, errlen,
                     "%s: does not match the size and hash summary.json names (another run's "
                     "file: run the study again)",
                     path);
            free(*text);
            *text = NULL;
            return REPORT_BAD_INPUT;
        }
    }
    return REPORT_OK;
}

/* The CSV file dir/name into t, which ct_free frees whatever the outcome. */
static report_status read_csv(const report_input *in, const char *name, csv_table *t, int *missing,
                              char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    char *text = NULL;
    size_t len = 0;
    report_status rc = read_text(in, name, &text, &len, missing, err, errlen);
    if (rc != REPORT_OK) return rc;
    struct csv_parser p;
    if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL) != 0) {
        free(text);
        snprintf(err, errlen, "out of memory");
        return REPORT_FAILED;
    }
    int ok = csv_parse(&p, text, len, ct_field, ct_row, t) == len &&
             csv_fini(&p, ct_field, ct_row, t) == 0;
    csv_free(&p);
    free(text);
    if (t->failed == 1) {
        snprintf(err, errlen, "out of memory");
        return REPORT_FAILED;
    }
    if (!ok || t->failed || t->nrows == 0) {
        snprintf(err, errlen, "%s/%s: %s", in->dir, name,
                 t->failed == 2 ? "a record has a different number of fields than the header"
                 : !ok          ? "bad CSV"
                                : "empty file (expected a header)");
        return REPORT_BAD_INPUT;
    }
    return REPORT_OK;
}

/* ------------------------------------------------------------------ the page's data ---- */

static cJSON *row_json(const csv_table *t, size_t r, const long *cols, size_t n)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; i < n && a; i++)
        cJSON_AddItemToArray(
            a, cJSON_CreateString(cols[i] >= 0 ? ct_cell(t, r, (size_t)cols[i]) : ""));
    return a;
}

/* The points: [point, run, status, feasible, on_front, parameters..., objectives...] per row,
 * and the parameters' names. points.csv holds point, run, config_hash, the parameters, the
 * objectives, status, violation, feasible, on_front and, in a sampled study, detailed_share. */
static report_status add_points(cJSON *data, const csv_table *t, const cJSON *objs,
                                size_t *ndims_out, char *err, size_t errlen)
{
    size_t m = (size_t)cJSON_GetArraySize(objs);
    size_t tail = 4 + (t->ncols > 0 && !strcmp(ct_cell(t, 0, t->ncols - 1), "detailed_share"));
    int ok = t->ncols >= 3 + m + tail && ct_col(t, "point") == 0 && ct_col(t, "run") == 1 &&
             ct_col(t, "config_hash") == 2;
    size_t ndims = ok ? t->ncols - 3 - m - tail : 0;
    for (size_t k = 0; ok && k < m; k++) {
        const char *name = cJSON_GetStringValue(
            cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(objs, (int)k), "name"));
        ok = name && !strcmp(ct_cell(t, 0, 3 + ndims + k), name);
    }
    static const char *const fixed[] = {"status", "feasible", "on_front"};
    long cols[3];
    for (size_t i = 0; i < 3; i++)
        ok = ok && (cols[i] = ct_col(t, fixed[i])) >= 0;
    if (!ok) {
        snprintf(err, errlen,
                 "points.csv: its columns do not match summary.json's objectives (expected "
                 "point, run, config_hash, the parameters, the objectives, status, violation, "
                 "feasible, on_front)");
        return REPORT_BAD_INPUT;
    }
    cJSON *params = cJSON_AddArrayToObject(data, "params");
    for (size_t d = 0; d < ndims; d++)
        cJSON_AddItemToArray(params, cJSON_CreateString(ct_cell(t, 0, 3 + d)));
    size_t n = 5 + ndims + m;
    long *pick = malloc(n * sizeof *pick);
    if (!pick) {
        snprintf(err, errlen, "out of memory");
        return REPORT_FAILED;
    }
    pick[0] = 0;
    pick[1] = 1;
    pick[2] = cols[0];
    pick[3] = cols[1];
    pick[4] = cols[2];
    for (size_t c = 0; c < ndims + m; c++)
        pick[5 + c] = (long)(3 + c);
    cJSON *rows = cJSON_AddArrayToObject(data, "points");
    for (size_t r = 1; r < t->nrows; r++)
        cJSON_AddItemToArray(rows, row_json(t, r, pick, n));
    free(pick);
    *ndims_out = ndims;
    return REPORT_OK;
}

/* The per-workload metrics: [point, workload, status, error, metrics...] per row of
 * evaluations.csv, and the metrics' names. */
static report_status add_evaluations(cJSON *data, const csv_table *t, const cJSON *objs,
                                     size_t ndims, char *err, size_t errlen)
{
    static const char *const fixed[] = {"point", "workload", "status", "error"};
    long pick[4 + NREPORT_METRICS + 8];
    const char *names[NREPORT_METRICS + 8];
    size_t n = 0, nm = 0;
    for (size_t i = 0; i < 4; i++)
        if ((pick[n++] = ct_col(t, fixed[i])) < 0) {
            snprintf(err, errlen, "evaluations.csv: no column %s", fixed[i]);
            return REPORT_BAD_INPUT;
        }
    /* the metrics come after point, workload, config_hash, status, error and the parameters */
    size_t first = 5 + ndims;
    const cJSON *o;
    const char *wanted[NREPORT_METRICS + 8];
    size_t nwanted = 0;
    for (size_t i = 0; i < NREPORT_METRICS; i++)
        wanted[nwanted++] = report_metrics[i];
    cJSON_ArrayForEach(o, objs)
    {
        const char *mname = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "metric"));
        int seen = !mname || nwanted == sizeof wanted / sizeof wanted[0];
        for (size_t i = 0; i < nwanted && !seen; i++)
            seen = !strcmp(wanted[i], mname);
        if (!seen) wanted[nwanted++] = mname;
    }
    for (size_t i = 0; i < nwanted; i++)
        for (size_t c = first; c < t->ncols; c++)
            if (!strcmp(ct_cell(t, 0, c), wanted[i])) {
                pick[n++] = (long)c;
                names[nm++] = wanted[i];
                break;
            }
    cJSON *metrics = cJSON_AddArrayToObject(data, "metrics");
    for (size_t i = 0; i < nm; i++)
        cJSON_AddItemToArray(metrics, cJSON_CreateString(names[i]));
    cJSON *rows = cJSON_AddArrayToObject(data, "evals");
    for (size_t r = 1; r < t->nrows; r++)
        cJSON_AddItemToArray(rows, row_json(t, r, pick, n));
    return REPORT_OK;
}

/* sensitivity.csv's rows as [objective, parameter, method, index, value, ci_low, ci_high,
 * evaluations]. */
static report_status add_sensitivity(cJSON *data, const csv_table *t, char *err, size_t errlen)
{
    static const char *const names[] = {"objective", "parameter", "method",  "index",
                                        "value",     "ci_low",    "ci_high", "evaluations"};
    long pick[8];
    for (size_t i = 0; i < 8; i++)
        if ((pick[i] = ct_col(t, names[i])) < 0) {
            snprintf(err, errlen,
                     "sensitivity.csv: no column %s (expected objective, parameter, method, "
                     "index, value, ci_low, ci_high, evaluations)",
                     names[i]);
            return REPORT_BAD_INPUT;
        }
    cJSON *rows = cJSON_AddArrayToObject(data, "sensitivity");
    for (size_t r = 1; r < t->nrows; r++)
        cJSON_AddItemToArray(rows, row_json(t, r, pick, 8));
    return REPORT_OK;
}

/* ------------------------------------------------------------------ the page ---- */

static const char *jstr(const cJSON *o, const char *key)
{
    const char *s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, key));
    return s ? s : "";
}

/* A number of the summary as summary.json spells it (%.17g), or "n/a". */
static const char *jnum(const cJSON *o, const char *key, char *buf, size_t n)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsNumber(v)) return "n/a";
    table_format_double(v->valuedouble, buf, n);
    return buf;
}

static void prov_row(wt_strbuf *b, const char *name, const char *value)
{
    wt_strbuf_str(b, "<tr><th>");
    wt_strbuf_str(b, name);
    wt_strbuf_str(b, "</th><td>");
    wt_strbuf_markup(b, value);
    wt_strbuf_str(b, "</td></tr>\n");
}

/* The provenance: what the study was, what ran it and how far to trust its simulator. */
static void provenance(wt_strbuf *b, const cJSON *sum, const cJSON *sets)
{
    char n1[64], n2[64], n3[64], n4[64], line[1024];
    const cJSON *search = cJSON_GetObjectItemCaseSensitive(sum, "search");
    const cJSON *counts = cJSON_GetObjectItemCaseSensitive(sum, "counts");
    const char *preset = jstr(sum, "preset");
    const char *validation = "not validated against GPGPU-Sim (docs/validation.md)";
    for (size_t i = 0; i < sizeof validated / sizeof validated[0]; i++)
        if (!strcmp(preset, validated[i].preset)) validation = validated[i].error;
    wt_strbuf_str(b, "<table id=\"prov\">\n");
    prov_row(b, "study", jstr(sum, "study"));
    prov_row(b, "space", jstr(sum, "space"));
    prov_row(b, "preset", preset);
    prov_row(b, "validation", validation);
    wt_strbuf_str(b, "<tr><th>--set</th><td id=\"sets\">");
    const cJSON *s;
    int any = 0;
    cJSON_ArrayForEach(s, sets)
    {
        if (!cJSON_IsString(s)) continue;
        wt_strbuf_str(b, any ? " <code>" : "<code>");
        wt_strbuf_markup(b, s->valuestring);
        wt_strbuf_str(b, "</code>");
        any = 1;
    }
    if (!any) wt_strbuf_str(b, "none");
    wt_strbuf_str(b, "</td></tr>\n");
    snprintf(line, sizeof line, "warptune %s, NLopt %s", jstr(sum, "version"),
             jstr(sum, "nlopt_version"));
    prov_row(b, "version", line);
    snprintf(line, sizeof line, "%s, seed %s, budget %s evaluations", jstr(search, "strategy"),
             jnum(search, "seed", n1, sizeof n1),
             jnum(search, "evaluations_budget", n2, sizeof n2));
    prov_row(b, "search", line);
    snprintf(line, sizeof line, "%s points: %s on the front, %s infeasible, %s failed",
             jnum(counts, "points", n1, sizeof n1), jnum(counts, "front", n2, sizeof n2),
             jnum(counts, "infeasible_points", n3, sizeof n3),
             jnum(counts, "failed_points", n4, sizeof n4));
    prov_row(b, "points", line);
    prov_row(b, "hypervolume",
             jnum(cJSON_GetObjectItemCaseSensitive(sum, "hypervolume"), "value", n1, sizeof n1));
    wt_strbuf_str(b, "</table>\n");
}

static void page(wt_strbuf *b, const cJSON *sum, const cJSON *sets, const char *data, int sens)
{
    const char *name = jstr(sum, "study"), *desc = jstr(sum, "description");
    wt_strbuf_str(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                     "<meta name=\"viewport\" content=\"width=device-width\">\n<title>");
    wt_strbuf_markup(b, name);
    wt_strbuf_str(b, ": warptune study report</title>\n<style>\n");
    wt_strbuf_str(b, report_css);
    wt_strbuf_str(b, "</style>\n</head>\n<body>\n<h1 id=\"study\">");
    wt_strbuf_markup(b, name);
    wt_strbuf_str(b, "</h1>\n");
    if (*desc) {
        wt_strbuf_str(b, "<p id=\"description\">");
        wt_strbuf_markup(b, desc);
        wt_strbuf_str(b, "</p>\n");
    }
    wt_strbuf_str(
        b, "<noscript><p>The plots need JavaScript; the data are in points.csv and "
           "evaluations.csv.</p></noscript>\n"
           "<h2>Front</h2>\n<p class=\"legend\">Every feasible point of the study, in each "
           "pair of objectives: <b style=\"color:#1f77b4\">&#9679;</b> on the front, "
           "<b style=\"color:#999\">&#9679;</b> not on it, &#9633; the reference "
           "configuration (point 0), <b style=\"color:#d62728\">&#9675;</b> the selected "
           "point. Hover over a point to see its configuration, click to pin it.</p>\n"
           "<div class=\"top\"><div id=\"front\"></div><aside id=\"sel\"></aside></div>\n"
           "<h2>Parallel coordinates</h2>\n<p class=\"legend\">The parameters and objectives "
           "of every feasible point; the front in blue, the selected point in red.</p>\n"
           "<div id=\"pc\"></div>\n<h2>Per workload</h2>\n<div id=\"wl\"></div>\n");
    if (sens)
        wt_strbuf_str(b, "<h2>Sensitivity</h2>\n<p class=\"legend\">The sensitivity indices of "
                         "sensitivity.csv, each with its interval.</p>\n<div id=\"sens\"></div>\n");
    wt_strbuf_str(b, "<h2>Provenance</h2>\n");
    provenance(b, sum, sets);
    wt_strbuf_str(b, "<script type=\"application/json\" id=\"data\">");
    sb_json(b, data);
    wt_strbuf_str(b, "</script>\n<script>\n");
    wt_strbuf_str(b, report_js);
    wt_strbuf_str(b, "</script>\n</body>\n</html>\n");
}

report_status report_write(const char *dir, const cJSON *summary, const char *path, char *err,
                           size_t errlen)
{
    report_input in = {.dir = dir, .summary = summary, .check = 0};
    cJSON *own = NULL, *study = NULL, *data = NULL;
    char *text = NULL, *json = NULL;
    csv_table points = {0}, evals = {0}, sens = {0};
    wt_strbuf b = {0};
    size_t len = 0, ndims = 0;
    int missing = 0;
    report_status rc;
    if (!summary) {
        if ((rc = read_text(&in, "summary.json", &text, &len, &missing, err, errlen)) !=
            REPORT_OK) {
            if (missing)
                snprintf(err, errlen,
                         "%s/summary.json: no such file (expected the output folder of a "
                         "finished study; a folder whose run is still writing has none)",
                         dir);
            goto done;
        }
        if (!(own = cJSON_ParseWithLength(text, len)) || !cJSON_IsObject(own)) {
            snprintf(err, errlen, "%s/summary.json: not a JSON object", dir);
            rc = REPORT_BAD_INPUT;
            goto done;
        }
        in.summary = own;
        in.check = 1;
        free(text);
        text = NULL;
    }
    const cJSON *objs = cJSON_GetObjectItemCaseSensitive(in.summary, "objectives");
    if (!cJSON_IsArray(objs) || cJSON_GetArraySize(objs) == 0) {
        snprintf(err, errlen, "%s/summary.json: no objectives", dir);
        rc = REPORT_BAD_INPUT;
        goto done;
    }
    if ((rc = read_text(&in, "study.json", &text, &len, NULL, err, errlen)) != REPORT_OK) goto done;
    if (!(study = cJSON_ParseWithLength(text, len))) {
        snprintf(err, errlen, "%s/study.json: not JSON", dir);
        rc = REPORT_BAD_INPUT;
        goto done;
    }
    const cJSON *sets = cJSON_GetObjectItemCaseSensitive(study, "set");
    data = cJSON_CreateObject();
    if (!data) goto oom;
    cJSON *objs_out = cJSON_AddArrayToObject(data, "objectives");
    const cJSON *o;
    cJSON_ArrayForEach(o, objs)
    {
        cJSON *jo = cJSON_CreateObject();
        cJSON_AddStringToObject(jo, "name", jstr(o, "name"));
        cJSON_AddStringToObject(jo, "goal", jstr(o, "goal"));
        cJSON_AddItemToArray(objs_out, jo);
    }
    if ((rc = read_csv(&in, "points.csv", &points, NULL, err, errlen)) != REPORT_OK ||
        (rc = add_points(data, &points, objs, &ndims, err, errlen)) != REPORT_OK ||
        (rc = read_csv(&in, "evaluations.csv", &evals, NULL, err, errlen)) != REPORT_OK ||
        (rc = add_evaluations(data, &evals, objs, ndims, err, errlen)) != REPORT_OK)
        goto done;
    /* sensitivity.csv is optional: shown when the folder has one. One that cannot be shown is
     * refused by warptune report, but only left out by explore: it is not the study's output,
     * and should not fail a study that has run. */
    rc = read_csv(&in, "sensitivity.csv", &sens, &missing, err, errlen);
    if (rc == REPORT_OK) rc = add_sensitivity(data, &sens, err, errlen);
    if (rc == REPORT_FAILED || (rc == REPORT_BAD_INPUT && !missing && in.check)) goto done;
    missing = rc != REPORT_OK;
    if (!(json = cJSON_PrintUnformatted(data))) goto oom;
    page(&b, in.summary, sets, json, !missing);
    if (b.failed) goto oom;
    rc = write_file_atomic(path, b.s, b.len, err, errlen) == 0 ? REPORT_OK : REPORT_FAILED;
    goto done;
oom:
    snprintf(err, errlen, "out of memory");
    rc = REPORT_FAILED;
done:
    ct_free(&points);
    ct_free(&evals);
    ct_free(&sens);
    cJSON_Delete(own);
    cJSON_Delete(study);
    cJSON_Delete(data);
    free(text);
    free(json);
    free(b.s);
    return rc;
}
