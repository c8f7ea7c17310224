/* The archive of a study: every configuration a search proposed, once, with its aggregated
 * and normalised objectives, its feasibility, the Pareto front and its hypervolume. */
#include "explorer/explore.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explorer/front.h"

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

/* The hypervolume in the objectives' own units (see archive.hv_abs): maximised objectives
 * negated, so that every one is minimised. */
static void archive_hv_absolute(const space *s, archive *a)
{
    size_t m = s->nobjectives;
    double point[SPACE_MAX_OBJECTIVES];
    int usable = m <= 3;
    for (size_t i = 0; i < m; i++) {
        const space_objective *o = &s->objectives[i];
        a->hv_abs_point[i] = o->has_hv_ref ? o->hv_ref : o->maximise ? 0 : NAN;
        point[i] = o->maximise ? -a->hv_abs_point[i] : a->hv_abs_point[i];
        usable &= isfinite(point[i]);
    }
    a->hv_abs = NAN;
    if (!usable) return;
    double *rows = malloc((a->n ? a->n : 1) * m * sizeof *rows);
    if (!rows) return;
    size_t n = 0;
    for (size_t i = 0; i < a->n; i++) {
        if (a->p[i].status != PS_OK) continue;
        for (size_t k = 0; k < m; k++)
            rows[n * m + k] = s->objectives[k].maximise ? -a->p[i].obj[k] : a->p[i].obj[k];
        n++;
    }
    a->hv_abs = front_hypervolume(rows, n, m, point);
    free(rows);
}

int archive_build(const space *s, evaluator *ev, proposal_list *props, const double *ref,
                  const screen_stats *screened, archive *a, char *err, size_t errlen)
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
            int complete = 1, ruled = 0;
            for (size_t w = 0; w < s->nworkloads && complete; w++)
                complete = (p->res[w] = evaluator_peek(ev, pr->cfg, w)) != NULL;
            if (!complete && screen_ruled_out(screened, pr->hash)) { /* its screening results */
                param_set *sc = screen_config(s, pr->cfg);
                if (!sc) {
                    free(seen);
                    free(p->res);
                    snprintf(err, errlen, "out of memory");
                    return -1;
                }
                complete = ruled = 1;
                for (size_t w = 0; w < s->nworkloads && complete; w++)
                    complete = (p->res[w] = evaluator_peek(ev, sc, w)) != NULL;
                param_set_free(sc);
            }
            if (!complete) { /* stopped before it finished: not part of the study */
                free(p->res);
                continue;
            }
            p->status = search_objectives(s, p->res, p->obj) ? PS_FAILED
                        : ruled                              ? PS_SCREENED
                                                             : PS_OK;
            for (size_t k = 0; k < m; k++) /* a failed run's numbers (a cycle cap) are not
                                            * the configuration's: NaN, as when infeasible */
                if (p->status == PS_OK || p->status == PS_SCREENED)
                    p->norm[k] = search_normalised(s, k, p->obj[k], a->ref[k]);
                else
                    p->obj[k] = NAN;
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
        a->nscreened += a->p[i].status == PS_SCREENED;
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
    archive_hv_absolute(s, a);
    return 0;
}
