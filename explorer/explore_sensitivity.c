/* A sensitivity study's indices (search.strategy morris or sobol): its design rebuilt from the
 * space and seed, each row's objectives read from the archive by configuration, the indices
 * of explorer/sensitivity.h per objective, and their outputs, sensitivity.csv and
 * summary.json's "sensitivity" object. */
#include "explorer/explore_internal.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explorer/table.h"

void explore_sensitivity_free(study_sensitivity *x)
{
    for (size_t k = 0; k < x->nobjectives; k++)
        sens_result_free(&x->r[k]);
    memset(x, 0, sizeof *x);
}

typedef struct hash_at {
    uint64_t hash;
    size_t point;
} hash_at;

static int cmp_hash_at(const void *a, const void *b)
{
    uint64_t x = ((const hash_at *)a)->hash, y = ((const hash_at *)b)->hash;
    return (x > y) - (x < y);
}

int explore_sensitivity(const space *s, const archive *a, study_sensitivity *out, char *err,
                        size_t errlen)
{
    memset(out, 0, sizeof *out);
    sens_design dz;
    if (search_sensitivity_design(s, &dz, err, errlen)) return -1;
    out->method = dz.method;
    out->base = dz.base;
    out->design_points = dz.npoints;
    hash_at *index = malloc((a->n ? a->n : 1) * sizeof *index);
    double *y = malloc(dz.npoints * s->nobjectives * sizeof *y);
    param_set *cfg = param_set_clone(s->base);
    int rc = -1;
    if (!index || !y || !cfg) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < a->n; i++)
        index[i] = (hash_at){a->p[i].hash, i};
    qsort(index, a->n, sizeof *index, cmp_hash_at);
    /* each row's objectives, normalised as the searches see them (all minimised); a row that
     * is infeasible, failed or was not simulated (a stopped study) has none */
    double x[64];
    for (size_t p = 0; p < dz.npoints; p++) {
        search_sensitivity_point(s, &dz, p, x);
        if (space_decode(s, x, cfg, err, errlen) != 0) goto out;
        hash_at key = {param_set_hash(cfg), 0};
        const hash_at *hit = a->n ? bsearch(&key, index, a->n, sizeof *index, cmp_hash_at) : NULL;
        const archive_point *pt = hit ? &a->p[hit->point] : NULL;
        for (size_t k = 0; k < s->nobjectives; k++)
            y[k * dz.npoints + p] = pt && pt->status == PS_OK ? pt->norm[k] : NAN;
    }
    out->nobjectives = s->nobjectives;
    rc = 0;
    for (size_t k = 0; k < s->nobjectives && rc == 0; k++)
        rc = sens_indices(&dz, y + k * dz.npoints, SENS_BOOTSTRAP, s->search.seed, &out->r[k], err,
                          errlen);
    if (rc != 0) explore_sensitivity_free(out);
out:
    param_set_free(cfg);
    free(index);
    free(y);
    sens_design_free(&dz);
    return rc;
}

int explore_write_sensitivity(const space *s, const study_sensitivity *x, const char *path,
                              char *err, size_t errlen)
{
    static const char *const cols[] = {"objective", "parameter", "method",  "index",
                                       "value",     "ci_low",    "ci_high", "evaluations"};
    table *t = table_new(cols, 8);
    if (!t) {
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    size_t ni = sens_index_count(x->method);
    for (size_t k = 0; k < x->nobjectives; k++)
        for (size_t d = 0; d < s->ndims; d++)
            for (size_t i = 0; i < ni; i++) {
                const sens_index *v = &x->r[k].idx[d * ni + i];
                char value[64], lo[64], hi[64], n[32];
                table_format_double(v->value, value, sizeof value);
                table_format_double(v->lo, lo, sizeof lo);
                table_format_double(v->hi, hi, sizeof hi);
                snprintf(n, sizeof n, "%zu", x->r[k].evaluations[d]);
                const char *cells[] = {s->objectives[k].name,
                                       s->dims[d].name,
                                       sens_method_name(x->method),
                                       sens_index_name(x->method, i),
                                       value,
                                       lo,
                                       hi,
                                       n};
                if (table_add_row(t, cells) != 0) {
                    table_free(t);
                    snprintf(err, errlen, "%s: out of memory", path);
                    return -1;
                }
            }
    int rc = table_write_csv(t, path, err, errlen);
    table_free(t);
    return rc;
}

static void add_number(cJSON *o, const char *k, double v)
{
    if (isfinite(v))
        cJSON_AddNumberToObject(o, k, v);
    else
        cJSON_AddNullToObject(o, k);
}

void explore_sensitivity_json(const space *s, const study_sensitivity *x, struct cJSON *root)
{
    cJSON *o = cJSON_AddObjectToObject(root, "sensitivity");
    cJSON_AddStringToObject(o, "method", sens_method_name(x->method));
    cJSON_AddNumberToObject(o, x->method == SENS_MORRIS ? "trajectories" : "base_samples",
                            (double)x->base);
    cJSON_AddNumberToObject(o, "design_points", (double)x->design_points);
    cJSON_AddNumberToObject(o, "bootstrap_resamples", SENS_BOOTSTRAP);
    cJSON_AddNumberToObject(o, "confidence", 0.95);
    cJSON_AddStringToObject(
        o, "meaning",
        x->method == SENS_MORRIS
            ? "Morris elementary effects of one-level steps, per the parameter's whole range, of "
              "the objectives normalised as the searches see them (value/reference for min, "
              "reference/value for max: positive mu means raising the parameter makes the "
              "objective worse); mu_star: mean absolute effect, mu: mean, sigma: standard "
              "deviation; ci: bootstrap percentile interval over trajectories; evaluations: "
              "design rows that entered (two per effect) (docs/spaces.md)"
            : "Sobol indices of the normalised objectives over the parameters' levels: S1 "
              "first-order (Saltelli 2010), ST total (Jansen 1999); ci: bootstrap percentile "
              "interval over base samples; evaluations: design rows that entered (three per base "
              "sample) (docs/spaces.md)");
    cJSON *idx = cJSON_AddObjectToObject(o, "indices");
    size_t ni = sens_index_count(x->method);
    for (size_t k = 0; k < x->nobjectives; k++) {
        cJSON *jo = cJSON_AddObjectToObject(idx, s->objectives[k].name);
        for (size_t d = 0; d < s->ndims; d++) {
            cJSON *jp = cJSON_AddObjectToObject(jo, s->dims[d].name);
            for (size_t i = 0; i < ni; i++) {
                const sens_index *v = &x->r[k].idx[d * ni + i];
                cJSON *ji = cJSON_AddObjectToObject(jp, sens_index_name(x->method, i));
                add_number(ji, "value", v->value);
                add_number(ji, "ci_low", v->lo);
                add_number(ji, "ci_high", v->hi);
                cJSON_AddNumberToObject(ji, "evaluations", (double)x->r[k].evaluations[d]);
            }
        }
    }
}
