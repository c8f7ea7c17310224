/* The study sections of a space: the workloads (weights, .param overrides, labels), the
 * objectives (metric, goal, aggregation) and the search (strategy, NLopt algorithm, budget). */
#include "explorer/space_internal.h"

#include <cjson/cJSON.h>
#include <nlopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explorer/catalog.h"
#include "core/config/metrics.h"
#include "core/trace/trace.h"

int space_parse_workloads(space_ctx *c, space *s, const cJSON *wls)
{
    if (!cJSON_IsArray(wls) || cJSON_GetArraySize(wls) == 0)
        return space_fail(c, "workloads",
                          "expected a non-empty array of workload names or {name, weight, params}");
    size_t n = (size_t)cJSON_GetArraySize(wls);
    s->workloads = calloc(n, sizeof *s->workloads);
    if (!s->workloads) return space_fail(c, "workloads", "out of memory");
    size_t i = 0;
    for (const cJSON *it = wls->child; it; it = it->next, i++) {
        char p[512];
        space_path_index(p, sizeof p, "workloads", i);
        space_workload *w = &s->workloads[s->nworkloads++];
        w->weight = 1;
        const char *name = NULL;
        const cJSON *params = NULL;
        if (cJSON_IsString(it)) {
            name = it->valuestring;
        } else if (cJSON_IsObject(it)) {
            static const char *const keys[] = {"name", "weight", "params", NULL};
            if (space_check_keys(c, it, p, keys)) return -1;
            if (space_get_string(c, it, "name", p, &name) < 0) return -1;
            if (!name)
                return space_fail(c, p, "expected \"name\": a built-in workload or a .wl path");
            if (space_get_number(c, it, "weight", p, &w->weight, 0, 1e-12, 1e12) < 0) return -1;
            params = cJSON_GetObjectItemCaseSensitive(it, "params");
        } else {
            return space_fail(c, p, "expected a workload name or an object {name, weight, params}");
        }
        w->name = strdup(name);
        if (!w->name) return space_fail(c, p, "out of memory");
        if (params) {
            char pp[512];
            space_path_key(pp, sizeof pp, p, "params");
            if (!cJSON_IsObject(params))
                return space_fail(c, pp, "expected an object of .param name: number");
            if (space_check_unique(c, params, pp)) return -1;
            size_t np = (size_t)cJSON_GetArraySize(params);
            w->ov = calloc(np ? np : 1, sizeof *w->ov);
            w->ov_text = calloc(2 * np + 1, sizeof *w->ov_text);
            if (!w->ov || !w->ov_text) return space_fail(c, pp, "out of memory");
            for (const cJSON *q = params->child; q; q = q->next) {
                char qp[600], num[64];
                space_path_key(qp, sizeof qp, pp, q->string);
                if (cJSON_IsNumber(q))
                    snprintf(num, sizeof num, "%.17g", q->valuedouble);
                else if (cJSON_IsString(q))
                    snprintf(num, sizeof num, "%s", q->valuestring);
                else
                    return space_fail(c, qp, "expected a number");
                char *key = strdup(q->string), *value = strdup(num);
                w->ov_text[2 * w->nov] = key;
                w->ov_text[2 * w->nov + 1] = value;
                w->ov[w->nov++] = (wl_override){key, value};
                if (!key || !value) return space_fail(c, qp, "out of memory");
            }
        }
        workload *wl = NULL;
        char msg[1024];
        if (trace_name_is_list(w->name)) { /* an Accel-Sim trace (docs/traces.md) */
            trace_app *t = NULL;
            if (w->nov) return space_fail(c, p, "a trace (%s) takes no params", w->name);
            if (trace_open(w->name, &t, msg, sizeof msg) != 0) return space_fail(c, p, "%s", msg);
            trace_close(t);
            continue;
        }
        if (workload_load(w->name, w->ov, w->nov, &wl, msg, sizeof msg) != 0)
            return space_fail(c, p, "%s", msg);
        workload_free(wl);
    }
    /* labels: the name, or name#k (k: 1-based position) when a name is listed twice */
    for (i = 0; i < s->nworkloads; i++) {
        int dup = 0;
        for (size_t j = 0; j < s->nworkloads; j++)
            dup |= j != i && !strcmp(s->workloads[i].name, s->workloads[j].name);
        char label[512];
        snprintf(label, sizeof label, dup ? "%s#%zu" : "%s", s->workloads[i].name, i + 1);
        s->workloads[i].label = strdup(label);
        if (!s->workloads[i].label) return space_fail(c, "workloads", "out of memory");
    }
    return 0;
}

static const char *const agg_names[] = {"geomean", "hmean", "mean", "sum"};

const char *agg_name(agg_kind a)
{
    return agg_names[a];
}

int space_parse_objectives(space_ctx *c, space *s, const cJSON *objs)
{
    if (!cJSON_IsArray(objs) || cJSON_GetArraySize(objs) == 0)
        return space_fail(
            c, "objectives",
            "expected a non-empty array of metric names or {metric, goal, aggregate}");
    size_t n = (size_t)cJSON_GetArraySize(objs);
    if (n > SPACE_MAX_OBJECTIVES)
        return space_fail(c, "objectives", "expected at most %d objectives", SPACE_MAX_OBJECTIVES);
    s->objectives = calloc(n, sizeof *s->objectives);
    if (!s->objectives) return space_fail(c, "objectives", "out of memory");
    size_t i = 0;
    for (const cJSON *it = objs->child; it; it = it->next, i++) {
        char p[512];
        space_path_index(p, sizeof p, "objectives", i);
        space_objective *o = &s->objectives[s->nobjectives++];
        const char *metric = NULL, *goal = NULL, *agg = NULL;
        if (cJSON_IsString(it)) {
            metric = it->valuestring;
        } else if (cJSON_IsObject(it)) {
            static const char *const keys[] = {"metric", "goal", "aggregate", "hv_reference", NULL};
            if (space_check_keys(c, it, p, keys)) return -1;
            if (space_get_string(c, it, "metric", p, &metric) < 0) return -1;
            if (space_get_string(c, it, "goal", p, &goal) < 0) return -1;
            if (space_get_string(c, it, "aggregate", p, &agg) < 0) return -1;
            int has = space_get_number(c, it, "hv_reference", p, &o->hv_ref, 0, -1e300, 1e300);
            if (has < 0) return -1;
            o->has_hv_ref = has;
            if (!metric) return space_fail(c, p, "expected \"metric\": the name of a metric");
        } else {
            return space_fail(c, p,
                              "expected a metric name or an object {metric, goal, aggregate}");
        }
        if (!strcmp(metric, "energy")) metric = "energy_j";
        o->metric = metric_lookup(metric);
        if (o->metric < 0) {
            char near[512] = "";
            size_t used = 0, found = 0;
            for (size_t m = 0; m < metric_count() && found < 6; m++) {
                const char *cand = metric_at(m).name;
                if (strstr(cand, metric) || strstr(metric, cand) || !strncmp(cand, metric, 3)) {
                    used += (size_t)snprintf(near + used, sizeof near - used, "%s%s",
                                             found ? ", " : "", cand);
                    found++;
                }
            }
            if (found)
                return space_fail(c, p, "unknown metric '%s' (did you mean: %s?)", metric, near);
            return space_fail(c, p, "unknown metric '%s' (see docs/metrics.md)", metric);
        }
        const char *m = metric_at((size_t)o->metric).name;
        int def_max = -1;
        agg_kind def_agg = AGG_MEAN;
        if (!strcmp(m, "ipc") || !strcmp(m, "warp_ipc"))
            def_max = 1, def_agg = AGG_GEOMEAN;
        else if (!strcmp(m, "mpki"))
            def_max = 0, def_agg = AGG_MEAN;
        else if (!strcmp(m, "energy_j"))
            def_max = 0, def_agg = AGG_SUM;
        if (goal) {
            if (!strcmp(goal, "max"))
                o->maximise = 1;
            else if (!strcmp(goal, "min"))
                o->maximise = 0;
            else {
                char gp[600];
                space_path_key(gp, sizeof gp, p, "goal");
                return space_fail(c, gp, "expected \"min\" or \"max\", got \"%s\"", goal);
            }
        } else if (def_max < 0) {
            return space_fail(c, p,
                              "expected \"goal\": \"min\" or \"max\" (%s has no default goal)", m);
        } else {
            o->maximise = def_max;
        }
        o->agg = def_agg;
        if (agg) {
            int k = -1;
            for (int a = 0; a < 4; a++)
                if (!strcmp(agg, agg_names[a])) k = a;
            if (k < 0) {
                char ap[600];
                space_path_key(ap, sizeof ap, p, "aggregate");
                return space_fail(c, ap, "expected geomean, hmean, mean or sum, got \"%s\"", agg);
            }
            o->agg = (agg_kind)k;
        }
        char name[160];
        if (o->agg == def_agg)
            snprintf(name, sizeof name, "%s", m);
        else
            snprintf(name, sizeof name, "%s_%s", m, agg_names[o->agg]);
        for (size_t j = 0; j + 1 < s->nobjectives; j++)
            if (!strcmp(s->objectives[j].name, name))
                return space_fail(c, p, "objective %s given twice (expected each once)", name);
        o->name = strdup(name);
        if (!o->name) return space_fail(c, p, "out of memory");
    }
    return 0;
}

const char *search_kind_name(search_kind k)
{
    static const char *const n[] = {"grid", "random", "lhs", "nlopt", "morris", "sobol"};
    return n[k];
}

/* NLopt algorithms by the names the papers and NLopt's manual use, or NLopt's own
 * identifiers (GN_DIRECT_L, LN_COBYLA, ...). Only derivative-free ones. */
static const struct {
    const char *name;
    nlopt_algorithm alg;
} nlopt_names[] = {
    {"DIRECT", NLOPT_GN_DIRECT},
    {"DIRECT-L", NLOPT_GN_DIRECT_L},
    {"DIRECT-L-RAND", NLOPT_GN_DIRECT_L_RAND},
    {"ORIG-DIRECT", NLOPT_GN_ORIG_DIRECT},
    {"ORIG-DIRECT-L", NLOPT_GN_ORIG_DIRECT_L},
    {"CRS2-LM", NLOPT_GN_CRS2_LM},
    {"CRS2", NLOPT_GN_CRS2_LM},
    {"ISRES", NLOPT_GN_ISRES},
    {"ESCH", NLOPT_GN_ESCH},
    {"MLSL", NLOPT_G_MLSL},
    {"MLSL-LDS", NLOPT_G_MLSL_LDS},
    {"BOBYQA", NLOPT_LN_BOBYQA},
    {"COBYLA", NLOPT_LN_COBYLA},
    {"Sbplx", NLOPT_LN_SBPLX},
    {"SBPLX", NLOPT_LN_SBPLX},
    {"Subplex", NLOPT_LN_SBPLX},
    {"Nelder-Mead", NLOPT_LN_NELDERMEAD},
    {"NELDERMEAD", NLOPT_LN_NELDERMEAD},
    {"NEWUOA", NLOPT_LN_NEWUOA_BOUND},
    {"PRAXIS", NLOPT_LN_PRAXIS},
};

static int lookup_nlopt(const char *name)
{
    for (size_t i = 0; i < sizeof nlopt_names / sizeof nlopt_names[0]; i++)
        if (!strcmp(name, nlopt_names[i].name)) return (int)nlopt_names[i].alg;
    nlopt_algorithm a = nlopt_algorithm_from_string(name);
    if ((int)a < 0) return -1;
    /* derivative-free only: NLopt names them GN_, LN_ and G_MLSL* */
    const char *s = nlopt_algorithm_to_string(a);
    (void)s;
    if (!strncmp(name, "GN_", 3) || !strncmp(name, "LN_", 3) || !strcmp(name, "G_MLSL") ||
        !strcmp(name, "G_MLSL_LDS"))
        return (int)a;
    return -1;
}

int space_set_strategy(space_ctx *c, space_search *q, const char *strategy, const char *path)
{
    free(q->algorithm);
    q->algorithm = NULL;
    if (!strcmp(strategy, "grid"))
        q->kind = SEARCH_GRID;
    else if (!strcmp(strategy, "random"))
        q->kind = SEARCH_RANDOM;
    else if (!strcmp(strategy, "lhs") || !strcmp(strategy, "latin-hypercube"))
        q->kind = SEARCH_LHS;
    else if (!strcmp(strategy, "morris"))
        q->kind = SEARCH_MORRIS;
    else if (!strcmp(strategy, "sobol"))
        q->kind = SEARCH_SOBOL;
    else {
        int a = lookup_nlopt(strategy);
        if (a < 0)
            return space_fail(
                c, path,
                "expected grid, random, lhs, morris, sobol or a derivative-free NLopt algorithm "
                "(DIRECT-L, CRS2-LM, ISRES, ESCH, MLSL-LDS, BOBYQA, COBYLA, Sbplx, "
                "Nelder-Mead, or NLopt's GN_/LN_ names), got \"%s\"",
                strategy);
        q->kind = SEARCH_NLOPT;
        q->nlopt_algorithm = a;
        q->algorithm = strdup(strategy);
        if (!q->algorithm) return space_fail(c, path, "out of memory");
    }
    return 0;
}

int space_parse_search(space_ctx *c, space *s, const cJSON *search)
{
    space_search *q = &s->search;
    if (!search) return 0;
    if (!cJSON_IsObject(search))
        return space_fail(c, "search", "expected an object {strategy, budget, seed, threads}");
    static const char *const keys[] = {"strategy",       "budget", "seed",          "threads",
                                       "scalarisations", "screen", "screen_margin", NULL};
    if (space_check_keys(c, search, "search", keys)) return -1;
    const char *strategy = NULL;
    if (space_get_string(c, search, "strategy", "search", &strategy) < 0) return -1;
    if (strategy && space_set_strategy(c, q, strategy, "search.strategy")) return -1;
    double v;
    int r = space_get_number(c, search, "seed", "search", &v, 1, 0, 9007199254740991.0);
    if (r < 0) return -1;
    if (r) q->seed = (uint64_t)v;
    if ((r = space_get_number(c, search, "threads", "search", &v, 1, 0, 1024)) < 0) return -1;
    if (r) q->threads = (int)v;
    if ((r = space_get_number(c, search, "scalarisations", "search", &v, 1, 1, 1000)) < 0)
        return -1;
    if (r) q->scalarisations = (size_t)v;
    if ((r = space_get_number(c, search, "screen", "search", &v, 0, 0, 0.999)) < 0) return -1;
    if (r) q->screen = v;
    if ((r = space_get_number(c, search, "screen_margin", "search", &v, 0, 1, 100)) < 0) return -1;
    if (r) q->screen_margin = v;
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(search, "budget");
    if (b) {
        if (!cJSON_IsObject(b))
            return space_fail(c, "search.budget", "expected an object {evaluations, seconds}");
        static const char *const bkeys[] = {"evaluations", "seconds", NULL};
        if (space_check_keys(c, b, "search.budget", bkeys)) return -1;
        if ((r = space_get_number(c, b, "evaluations", "search.budget", &v, 1, 1, 1e9)) < 0)
            return -1;
        if (r) q->max_evaluations = (size_t)v;
        if ((r = space_get_number(c, b, "seconds", "search.budget", &v, 0, 0, 1e9)) < 0) return -1;
        if (r) q->max_seconds = v;
    }
    return 0;
}
