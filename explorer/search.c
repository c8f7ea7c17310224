#include "explorer/search.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explorer/catalog.h"
#include "core/util/rng.h"

void proposal_list_free(proposal_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        param_set_free(l->p[i].cfg);
    free(l->p);
    memset(l, 0, sizeof *l);
}

int proposal_add(proposal_list *l, param_set *cfg, unsigned run, double violation)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 64;
        proposal *p = realloc(l->p, cap * sizeof *p);
        if (!p) {
            param_set_free(cfg);
            return -1;
        }
        l->p = p;
        l->cap = cap;
    }
    l->p[l->n++] = (proposal){cfg, param_set_hash(cfg), run, violation};
    return 0;
}

int search_objectives(const space *s, const eval_entry *const *res, double *obj)
{
    int failed = 0;
    for (size_t w = 0; w < s->nworkloads; w++)
        failed |= res[w]->status != SIM_OK;
    for (size_t i = 0; i < s->nobjectives; i++) {
        const space_objective *o = &s->objectives[i];
        double sw = 0, acc = 0;
        int zero = 0;
        for (size_t w = 0; w < s->nworkloads; w++) {
            double v = metric_value(&res[w]->m, (size_t)o->metric);
            double wt = s->workloads[w].weight;
            sw += wt;
            switch (o->agg) {
            case AGG_GEOMEAN:
                if (v == 0)
                    zero = 1;
                else
                    acc += wt * log(v); /* NaN for negative values */
                break;
            case AGG_HMEAN:
                if (v == 0)
                    zero = 1;
                else
                    acc += wt / v;
                break;
            case AGG_MEAN:
            case AGG_SUM:
                acc += wt * v;
                break;
            }
        }
        switch (o->agg) {
        case AGG_GEOMEAN:
            obj[i] = zero ? 0 : exp(acc / sw);
            break;
        case AGG_HMEAN:
            obj[i] = zero ? 0 : sw / acc;
            break;
        case AGG_MEAN:
            obj[i] = acc / sw;
            break;
        case AGG_SUM:
            obj[i] = acc;
            break;
        }
    }
    return failed;
}

double search_normalised(const space *s, size_t i, double v, double ref)
{
    int usable = isfinite(ref) && ref > 0;
    if (s->objectives[i].maximise) {
        if (!(v > 0)) return HUGE_VAL;
        return (usable ? ref : 1) / v;
    }
    return usable ? v / ref : v;
}

/* A stream of the study's generator for one purpose: the same seed gives each search its own
 * independent sequence. */
static void seed_rng(wt_rng *r, uint64_t seed, uint64_t purpose)
{
    wt_rng_seed(r, seed * 0x9e3779b97f4a7c15ULL ^ (purpose + 0x632be59bd9b4e019ULL));
}

static int decode_add(const space *s, proposal_list *out, const double *x, int keep_infeasible,
                      uint64_t **seen, size_t *nseen, size_t *capseen, int *added, char *err,
                      size_t errlen)
{
    *added = 0;
    param_set *cfg = param_set_clone(s->base);
    if (!cfg) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (space_decode(s, x, cfg, err, errlen) != 0) {
        param_set_free(cfg);
        return -1;
    }
    uint64_t h = param_set_hash(cfg);
    if (seen) {
        for (size_t i = 0; i < *nseen; i++)
            if ((*seen)[i] == h) {
                param_set_free(cfg);
                return 0;
            }
    }
    double v = space_violation(s, cfg, NULL);
    if (v > 0 && !keep_infeasible) {
        param_set_free(cfg);
        return 0;
    }
    if (seen) {
        if (*nseen == *capseen) {
            size_t cap = *capseen ? *capseen * 2 : 64;
            uint64_t *t = realloc(*seen, cap * sizeof *t);
            if (!t) {
                param_set_free(cfg);
                snprintf(err, errlen, "out of memory");
                return -1;
            }
            *seen = t;
            *capseen = cap;
        }
        (*seen)[(*nseen)++] = h;
    }
    if (proposal_add(out, cfg, 0, v > 0 ? v : 0) != 0) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    *added = 1;
    return 0;
}

/* Starts a search's set of seen configurations with the reference configuration: the study
 * evaluates it anyway (point 0), so a draw of it would be no new configuration and must not
 * count against the budget. */
static int seen_reference(const space *s, uint64_t **seen, size_t *nseen, size_t *capseen,
                          char *err, size_t errlen)
{
    *seen = malloc(64 * sizeof **seen);
    if (!*seen) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    (*seen)[0] = param_set_hash(s->base);
    *nseen = 1;
    *capseen = 64;
    return 0;
}

static int search_grid(const space *s, proposal_list *out, char *err, size_t errlen)
{
    size_t n = space_grid_size(s);
    double x[64];
    for (size_t p = 0; p < n; p++) {
        space_grid_point(s, p, x);
        int added;
        if (decode_add(s, out, x, 1, NULL, NULL, NULL, &added, err, errlen)) return -1;
    }
    return 0;
}

static int search_random(const space *s, proposal_list *out, char *err, size_t errlen)
{
    wt_rng r;
    seed_rng(&r, s->search.seed, 1);
    double x[64];
    uint64_t *seen = NULL;
    size_t nseen = 0, capseen = 0, found = 0;
    size_t budget = s->search.max_evaluations;
    if (seen_reference(s, &seen, &nseen, &capseen, err, errlen)) return -1;
    for (size_t tries = 0; found < budget && tries < 100 * budget + 1000; tries++) {
        for (size_t d = 0; d < s->ndims; d++)
            x[d] = wt_rng_unit(&r);
        int added;
        if (decode_add(s, out, x, 0, &seen, &nseen, &capseen, &added, err, errlen)) {
            free(seen);
            return -1;
        }
        found += (size_t)added;
    }
    free(seen);
    return 0;
}

static int search_lhs(const space *s, proposal_list *out, char *err, size_t errlen)
{
    wt_rng r;
    seed_rng(&r, s->search.seed, 2);
    size_t n = s->search.max_evaluations;
    size_t *perm = malloc(n * s->ndims * sizeof *perm);
    double *x = malloc((s->ndims ? s->ndims : 1) * sizeof *x);
    uint64_t *seen = NULL;
    size_t nseen = 0, capseen = 0;
    int rc = 0;
    if (!perm || !x) {
        snprintf(err, errlen, "out of memory");
        rc = -1;
        goto out;
    }
    if (seen_reference(s, &seen, &nseen, &capseen, err, errlen)) {
        rc = -1;
        goto out;
    }
    /* Rounds of n-point Latin hypercubes until n distinct feasible configurations were found:
     * cells that round to a configuration already proposed, or break the constraints, do not
     * count. The space may hold fewer: a bounded number of tries, as random search. */
    size_t found = 0, tries = 0;
    while (found < n && tries < 100 * n + 1000) {
        for (size_t d = 0; d < s->ndims; d++) {
            size_t *p = perm + d * n;
            for (size_t i = 0; i < n; i++)
                p[i] = i;
            for (size_t i = n; i > 1; i--) {
                size_t j = (size_t)wt_rng_below(&r, i);
                size_t t = p[i - 1];
                p[i - 1] = p[j];
                p[j] = t;
            }
        }
        for (size_t i = 0; i < n && found < n; i++, tries++) {
            for (size_t d = 0; d < s->ndims; d++)
                x[d] = ((double)perm[d * n + i] + wt_rng_unit(&r)) / (double)n;
            int added;
            size_t before = out->n;
            if (decode_add(s, out, x, 1, &seen, &nseen, &capseen, &added, err, errlen)) {
                rc = -1;
                goto out;
            }
            found += (size_t)(added && !(out->p[before].violation > 0));
        }
    }
out:
    free(perm);
    free(x);
    free(seen);
    return rc;
}

int search_sensitivity_design(const space *s, sens_design *dz, char *err, size_t errlen)
{
    if (s->search.kind == SEARCH_SOBOL)
        return sens_sobol_design(s->ndims, s->search.max_evaluations, s->search.seed, dz, err,
                                 errlen);
    size_t levels[64];
    if (s->ndims > 64) {
        snprintf(err, errlen, "at most 64 dimensions");
        return -1;
    }
    for (size_t d = 0; d < s->ndims; d++)
        levels[d] = s->dims[d].kind == DIM_REAL ? s->dims[d].grid : s->dims[d].nlevels;
    return sens_morris_design(s->ndims, levels, s->search.max_evaluations, s->search.seed, dz, err,
                              errlen);
}

void search_sensitivity_point(const space *s, const sens_design *dz, size_t p, double *x)
{
    for (size_t d = 0; d < s->ndims; d++) {
        const space_dim *dim = &s->dims[d];
        if (dz->method == SENS_SOBOL) {
            x[d] = dz->x[p * dz->d + d];
        } else { /* as space_grid_point places level k */
            size_t k = dz->level[p * dz->d + d];
            size_t n = dim->kind == DIM_REAL ? dim->grid : dim->nlevels;
            if (dim->kind == DIM_REAL)
                x[d] = n > 1 ? (double)k / (double)(n - 1) : 0.5;
            else
                x[d] = ((double)k + 0.5) / (double)n;
        }
    }
}

/* Every row of the design in order, repeats and the reference configuration included (memo
 * hits), infeasible rows recorded as such. */
static int search_sensitivity(const space *s, proposal_list *out, char *err, size_t errlen)
{
    sens_design dz;
    if (search_sensitivity_design(s, &dz, err, errlen)) return -1;
    double x[64];
    int rc = 0;
    for (size_t p = 0; p < dz.npoints && rc == 0; p++) {
        search_sensitivity_point(s, &dz, p, x);
        int added;
        rc = decode_add(s, out, x, 1, NULL, NULL, NULL, &added, err, errlen);
    }
    sens_design_free(&dz);
    return rc;
}

int search_run(const space *s, evaluator *ev, const double *ref, proposal_list *out,
               search_info *info, char *err, size_t errlen)
{
    memset(info, 0, sizeof *info);
    if (s->ndims > 64) {
        snprintf(err, errlen, "at most 64 dimensions");
        return -1;
    }
    int rc;
    switch (s->search.kind) {
    case SEARCH_GRID:
        rc = search_grid(s, out, err, errlen);
        break;
    case SEARCH_RANDOM:
        rc = search_random(s, out, err, errlen);
        break;
    case SEARCH_LHS:
        rc = search_lhs(s, out, err, errlen);
        break;
    case SEARCH_MORRIS:
    case SEARCH_SOBOL:
        rc = search_sensitivity(s, out, err, errlen);
        break;
    case SEARCH_NLOPT:
        return search_nlopt(s, ev, ref, out, info, err, errlen);
    default:
        snprintf(err, errlen, "unknown search");
        return -1;
    }
    if (rc) return rc;
    if (s->search.screen > 0) return 0; /* the study screens them (explorer/screen.h) */
    /* evaluate every feasible proposal at once: points x workloads over the threads */
    param_set **cfgs = malloc((out->n ? out->n : 1) * sizeof *cfgs);
    const eval_entry **res = malloc((out->n ? out->n : 1) * s->nworkloads * sizeof *res);
    if (!cfgs || !res) {
        free(cfgs);
        free(res);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    size_t n = 0;
    for (size_t i = 0; i < out->n; i++)
        if (!(out->p[i].violation > 0)) cfgs[n++] = out->p[i].cfg;
    evaluator_batch(ev, cfgs, n, res);
    free(cfgs);
    free(res);
    return 0;
}
