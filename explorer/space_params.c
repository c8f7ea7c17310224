/* Parameters of a space: the fixed settings, the explored dimensions (ranges, steps, log
 * scales, value lists) and how a point of the unit cube rounds to their levels. */
#include "explorer/space_internal.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DIMS      64
#define MAX_GRID_REAL 1000
#define MAX_LEVELS    1000000

static size_t count_levels(const space_dim *d)
{
    if (d->kind == DIM_VALUES) return d->nvalues;
    if (d->kind == DIM_REAL) return 0;
    double n = d->log ? floor(log(d->hi / d->lo) / log(d->step) + 1e-9) + 1
                      : floor((d->hi - d->lo) / d->step + 1e-9) + 1;
    return n > MAX_LEVELS ? MAX_LEVELS + 1 : (size_t)n;
}

size_t space_level(const space_dim *d, double u)
{
    size_t n = d->kind == DIM_REAL ? d->grid : d->nlevels;
    if (!(u > 0)) return 0; /* also NaN */
    double k = floor(u * (double)n);
    return k >= (double)n ? n - 1 : (size_t)k;
}

double space_level_value(const space_dim *d, size_t k)
{
    switch (d->kind) {
    case DIM_VALUES:
        return d->values[k];
    case DIM_INT: {
        double v = d->log ? d->lo * pow(d->step, (double)k) : d->lo + (double)k * d->step;
        const param_def *pd = param_def_at((size_t)d->param);
        if (pd->type == PT_INT) v = round(v);
        return v > d->hi ? d->hi : v;
    }
    case DIM_REAL:
        if (d->grid <= 1) return d->log ? sqrt(d->lo * d->hi) : 0.5 * (d->lo + d->hi);
        double t = (double)k / (double)(d->grid - 1);
        return d->log ? exp(log(d->lo) + t * (log(d->hi) - log(d->lo)))
                      : d->lo + t * (d->hi - d->lo);
    }
    return 0;
}

double space_dim_value(const space_dim *d, double u)
{
    if (d->kind != DIM_REAL) return space_level_value(d, space_level(d, u));
    if (!(u > 0)) return d->lo;
    if (u >= 1) return d->hi;
    double v =
        d->log ? exp(log(d->lo) + u * (log(d->hi) - log(d->lo))) : d->lo + u * (d->hi - d->lo);
    return v < d->lo ? d->lo : v > d->hi ? d->hi : v;
}

double space_dim_coord(const space_dim *d, double v)
{
    if (d->kind == DIM_REAL) {
        double u = d->log ? (log(v) - log(d->lo)) / (log(d->hi) - log(d->lo))
                          : (v - d->lo) / (d->hi - d->lo);
        return u < 0 ? 0 : u > 1 ? 1 : (isnan(u) ? 0.5 : u);
    }
    size_t best = 0;
    double bd = HUGE_VAL;
    for (size_t k = 0; k < d->nlevels; k++) {
        double dist = fabs(space_level_value(d, k) - v);
        if (dist < bd) bd = dist, best = k;
    }
    return ((double)best + 0.5) / (double)d->nlevels;
}

int space_decode(const space *s, const double *x, param_set *cfg, char *err, size_t errlen)
{
    param_set_copy(cfg, s->base);
    for (size_t i = 0; i < s->ndims; i++) {
        const space_dim *d = &s->dims[i];
        if (param_set_value(cfg, d->name, space_dim_value(d, x[i]), err, errlen) != 0) return -1;
    }
    return 0;
}

void space_dim_free(space_dim *d)
{
    free(d->name);
    free(d->values);
}

/* The value of one level of a dimension over parameter id, as the registry stores it: a
 * choice or an alias of one by its index (param_get_shown), read on tmp reset to the defaults
 * (def) so that an alias's other parameter cannot leak from one level into the next; the two
 * sets serve every level of the dimension, which may have up to MAX_LEVELS. Returns 0, or -1
 * with why in msg. */
static int level_value(const param_def *pd, int id, const cJSON *v, param_set *tmp,
                       const param_set *def, double *out, char *msg, size_t msglen)
{
    if (pd->type == PT_CHOICE && !cJSON_IsString(v)) {
        snprintf(msg, msglen, "expected the name of a %s choice (a string)", pd->name);
        return -1;
    }
    if (pd->type == PT_BOOL && !cJSON_IsBool(v)) {
        snprintf(msg, msglen, "expected true or false");
        return -1;
    }
    if (pd->type != PT_CHOICE && pd->type != PT_BOOL && !cJSON_IsNumber(v)) {
        snprintf(msg, msglen, "expected a number");
        return -1;
    }
    param_set_copy(tmp, def);
    int rc;
    if (pd->type == PT_CHOICE)
        rc = param_set_parse(tmp, pd->name, v->valuestring, msg, msglen);
    else if (pd->type == PT_BOOL)
        rc = param_set_parse(tmp, pd->name, cJSON_IsTrue(v) ? "true" : "false", msg, msglen);
    else
        rc = param_set_value(tmp, pd->name, v->valuedouble, msg, msglen);
    if (rc == 0) *out = param_get_shown(tmp, id);
    return rc;
}

/* A level's value and its position in the list, sorted to find repeats. */
typedef struct indexed_value {
    double v;
    size_t i;
} indexed_value;

static int cmp_indexed(const void *a, const void *b)
{
    const indexed_value *x = a, *y = b;
    if (x->v != y->v) return x->v < y->v ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

/* The first of values[0..n) (in list order) that repeats an earlier one: its index, and the
 * earlier one's in *earlier; n when all are distinct. Sorted rather than compared pairwise: a
 * dimension may list up to MAX_LEVELS values. Returns n + 1 when out of memory. */
static size_t first_repeat(const double *values, size_t n, size_t *earlier)
{
    indexed_value *t = malloc((n ? n : 1) * sizeof *t);
    if (!t) return n + 1;
    for (size_t i = 0; i < n; i++)
        t[i] = (indexed_value){values[i], i};
    qsort(t, n, sizeof *t, cmp_indexed);
    size_t first = n;
    /* in a run of equal values the first is the earliest and the second the first repeat */
    for (size_t k = 1; k < n; k++)
        if (t[k].v == t[k - 1].v && (k < 2 || t[k - 2].v != t[k].v) && t[k].i < first) {
            first = t[k].i;
            *earlier = t[k - 1].i;
        }
    free(t);
    return first;
}

static int parse_values(space_ctx *c, space_dim *d, const param_def *pd, const cJSON *arr,
                        const char *path)
{
    size_t n = (size_t)cJSON_GetArraySize(arr);
    if (n == 0) return space_fail(c, path, "expected a non-empty array of values");
    d->values = calloc(n, sizeof *d->values);
    if (!d->values) return space_fail(c, path, "out of memory");
    d->kind = DIM_VALUES;
    /* the values up to the first that is not one (bad), then the first repeat among them: the
     * error is the one met first in list order */
    size_t i = 0, bad = n;
    char msg[512] = "";
    param_set *tmp = param_set_new(), *def = param_set_new();
    if (!tmp || !def) {
        param_set_free(tmp);
        param_set_free(def);
        return space_fail(c, path, "out of memory");
    }
    for (const cJSON *v = arr->child; v; v = v->next, i++)
        if (level_value(pd, d->param, v, tmp, def, &d->values[i], msg, sizeof msg) != 0) {
            bad = i;
            break;
        }
    param_set_free(tmp);
    param_set_free(def);
    size_t earlier = 0, rep = first_repeat(d->values, bad, &earlier);
    char p[512];
    if (rep > bad) return space_fail(c, path, "out of memory");
    if (rep < bad) {
        space_path_index(p, sizeof p, path, rep);
        return space_fail(c, p, "expected distinct values (this one repeats [%zu])", earlier);
    }
    if (bad < n) {
        space_path_index(p, sizeof p, path, bad);
        return space_fail(c, p, "%s", msg);
    }
    d->nvalues = n;
    return 0;
}

static int parse_dim(space_ctx *c, space_dim *d, const cJSON *spec, const char *path)
{
    const param_def *pd = param_def_at((size_t)d->param);
    if (cJSON_IsArray(spec)) return parse_values(c, d, pd, spec, path);
    if (!cJSON_IsObject(spec))
        return space_fail(
            c, path,
            "expected an array of values or an object with min/max (and optional step, "
            "log, grid) or values");
    static const char *const keys[] = {"values", "min", "max", "step", "log", "grid", NULL};
    if (space_check_keys(c, spec, path, keys)) return -1;
    const cJSON *values = cJSON_GetObjectItemCaseSensitive(spec, "values");
    const cJSON *mn = cJSON_GetObjectItemCaseSensitive(spec, "min");
    const cJSON *mx = cJSON_GetObjectItemCaseSensitive(spec, "max");
    if (values) {
        char p[512];
        space_path_key(p, sizeof p, path, "values");
        if (mn || mx) return space_fail(c, path, "expected either values or min/max, not both");
        if (!cJSON_IsArray(values)) return space_fail(c, p, "expected an array of values");
        return parse_values(c, d, pd, values, p);
    }
    if (pd->type == PT_CHOICE || pd->type == PT_BOOL) {
        if (mn || mx)
            return space_fail(c, path, "%s is a %s: expected values (or {} for all of them)",
                              pd->name, pd->type == PT_BOOL ? "boolean" : "choice");
        /* {}: every choice, and every alias of one */
        size_t n = pd->type == PT_BOOL ? 2 : param_choice_count(&sim_catalog, (size_t)d->param);
        d->values = calloc(n, sizeof *d->values);
        if (!d->values) return space_fail(c, path, "out of memory");
        for (size_t i = 0; i < n; i++)
            d->values[i] = (double)i;
        d->nvalues = n;
        d->kind = DIM_VALUES;
        return 0;
    }
    if (!mn || !mx) return space_fail(c, path, "expected both min and max (or values)");
    int integer = pd->type == PT_INT;
    double lo = 0, hi = 0, step = 0, grid = 5;
    if (space_get_number(c, spec, "min", path, &lo, integer, pd->lo, pd->hi) < 0) return -1;
    if (space_get_number(c, spec, "max", path, &hi, integer, pd->lo, pd->hi) < 0) return -1;
    if (hi < lo) {
        char p[512];
        space_path_key(p, sizeof p, path, "max");
        return space_fail(c, p, "expected max >= min (%.17g)", lo);
    }
    const cJSON *lg = cJSON_GetObjectItemCaseSensitive(spec, "log");
    if (lg && !cJSON_IsBool(lg)) {
        char p[512];
        space_path_key(p, sizeof p, path, "log");
        return space_fail(c, p, "expected true or false");
    }
    d->log = cJSON_IsTrue(lg);
    if (d->log && lo <= 0) {
        char p[512];
        space_path_key(p, sizeof p, path, "min");
        return space_fail(c, p, "expected min > 0 for a log-scale dimension");
    }
    int has_step = space_get_number(c, spec, "step", path, &step, 0, 0, 1e300);
    if (has_step < 0) return -1;
    if (space_get_number(c, spec, "grid", path, &grid, 1, 1, MAX_GRID_REAL) < 0) return -1;
    if (has_step) {
        char p[512];
        space_path_key(p, sizeof p, path, "step");
        if (d->log && step <= 1)
            return space_fail(c, p, "expected a factor > 1 (a log-scale step multiplies)");
        if (!d->log && step <= 0) return space_fail(c, p, "expected a step > 0");
        if (integer && step != floor(step)) return space_fail(c, p, "expected an integer step");
    }
    d->lo = lo;
    d->hi = hi;
    d->grid = (size_t)grid;
    if (integer || has_step) {
        d->kind = DIM_INT;
        d->step = has_step ? step : (d->log ? 2 : 1);
    } else {
        d->kind = DIM_REAL;
    }
    return 0;
}

int space_parse_parameters(space_ctx *c, space *s, const cJSON *params)
{
    if (!cJSON_IsObject(params))
        return space_fail(c, "parameters", "expected an object of parameter name: range or values");
    size_t n = (size_t)cJSON_GetArraySize(params);
    if (n > MAX_DIMS)
        return space_fail(c, "parameters", "expected at most %d parameters", MAX_DIMS);
    s->dims = calloc(n ? n : 1, sizeof *s->dims);
    if (!s->dims) return space_fail(c, "parameters", "out of memory");
    for (const cJSON *it = params->child; it; it = it->next) {
        char p[512];
        space_path_key(p, sizeof p, "parameters", it->string);
        int id = param_lookup(it->string);
        if (id < 0) {
            char near[256];
            param_suggest(it->string, near, sizeof near);
            if (near[0]) return space_fail(c, p, "unknown parameter (did you mean: %s?)", near);
            return space_fail(c, p, "unknown parameter (see `warptune params`)");
        }
        for (size_t j = 0; j < s->ndims; j++)
            if (s->dims[j].param == id) return space_fail(c, p, "given twice (expected it once)");
        space_dim *d = &s->dims[s->ndims++];
        d->name = strdup(it->string);
        d->param = id;
        if (!d->name) return space_fail(c, p, "out of memory");
        if (parse_dim(c, d, it, p)) return -1;
        d->nlevels = count_levels(d);
        if (d->nlevels > MAX_LEVELS)
            return space_fail(c, p, "expected at most %d levels (use a larger step or log)",
                              MAX_LEVELS);
    }
    return 0;
}

int space_parse_settings(space_ctx *c, space *s, const cJSON *settings)
{
    if (!cJSON_IsObject(settings))
        return space_fail(c, "settings", "expected an object of parameter name: value");
    if (space_check_unique(c, settings, "settings")) return -1;
    for (const cJSON *it = settings->child; it; it = it->next) {
        char p[512], msg[512];
        space_path_key(p, sizeof p, "settings", it->string);
        int rc;
        int id = param_lookup(it->string);
        if (id >= 0 && param_def_at((size_t)id)->type == PT_CHOICE && !cJSON_IsString(it))
            return space_fail(c, p, "expected the name of a choice (a string)");
        if (cJSON_IsBool(it))
            rc = param_set_parse(s->base, it->string, cJSON_IsTrue(it) ? "true" : "false", msg,
                                 sizeof msg);
        else if (cJSON_IsNumber(it))
            rc = param_set_value(s->base, it->string, it->valuedouble, msg, sizeof msg);
        else if (cJSON_IsString(it))
            rc = param_set_parse(s->base, it->string, it->valuestring, msg, sizeof msg);
        else
            return space_fail(c, p, "expected a number, a string or true/false");
        if (rc) {
            /* drop the "name: " the registry puts first; the path already says it */
            size_t n = strlen(it->string);
            const char *m = !strncmp(msg, it->string, n) && msg[n] == ':' ? msg + n + 2 : msg;
            return space_fail(c, p, "%s", m);
        }
    }
    return 0;
}

size_t space_grid_size(const space *s)
{
    size_t n = 1;
    for (size_t i = 0; i < s->ndims; i++) {
        const space_dim *d = &s->dims[i];
        size_t k = d->kind == DIM_REAL ? d->grid : d->nlevels;
        if (k && n > SIZE_MAX / k) return SIZE_MAX;
        n *= k;
    }
    return n;
}

void space_grid_point(const space *s, size_t p, double *x)
{
    size_t rest = p;
    for (size_t d = s->ndims; d-- > 0;) {
        const space_dim *dim = &s->dims[d];
        size_t k = dim->kind == DIM_REAL ? dim->grid : dim->nlevels;
        size_t lvl = rest % k;
        rest /= k;
        if (dim->kind == DIM_REAL)
            x[d] = k > 1 ? (double)lvl / (double)(k - 1) : 0.5;
        else
            x[d] = ((double)lvl + 0.5) / (double)k;
    }
}

int space_count_feasible(const space *s, size_t max_points, size_t *tried, size_t *feasible,
                         char *err, size_t errlen)
{
    size_t n = space_grid_size(s);
    size_t m = n < max_points ? n : max_points;
    double x[64];
    *tried = m;
    *feasible = 0;
    /* one copy of the base serves every point: decoding starts over from the base */
    param_set *cfg = param_set_clone(s->base);
    if (!cfg) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int rc = 0;
    for (size_t i = 0; i < m && rc == 0; i++) {
        /* every point, or m spread evenly over the grid's indices */
        size_t p = m == n ? i : (size_t)((double)i * ((double)n / (double)m));
        space_grid_point(s, p < n ? p : n - 1, x);
        rc = space_decode(s, x, cfg, err, errlen);
        if (rc == 0 && space_violation(s, cfg, NULL) <= 0) ++*feasible;
    }
    param_set_free(cfg);
    return rc;
}
