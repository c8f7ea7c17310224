/* Multi-fidelity screening (explorer/screen.h). */
#include "explorer/screen.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explorer/search.h"

/* a dominates b (both minimised): no worse in every objective, better in one; unknown values
 * decide nothing */
static int dominates(const double *a, const double *b, size_t m)
{
    int better = 0;
    for (size_t k = 0; k < m; k++) {
        if (!(a[k] <= b[k])) return 0;
        better |= a[k] < b[k];
    }
    return better;
}

static int known(const double *v, size_t m)
{
    for (size_t k = 0; k < m; k++)
        if (!isfinite(v[k])) return 0;
    return 1;
}

size_t screen_plan(size_t n, size_t m, const double *low, const double *high,
                   const unsigned char *full, double margin, unsigned char *run, double *bias,
                   double *delta, size_t *calibrated)
{
    /* 1. the error seen so far, on the configurations known at both fidelities */
    size_t cal = 0;
    for (size_t k = 0; k < m; k++)
        bias[k] = 0;
    for (size_t i = 0; i < n; i++)
        if (full[i] && known(low + i * m, m) && known(high + i * m, m)) {
            cal++;
            for (size_t k = 0; k < m; k++)
                bias[k] += high[i * m + k] - low[i * m + k];
        }
    for (size_t k = 0; k < m; k++) {
        bias[k] = cal ? bias[k] / (double)cal : 0;
        delta[k] = cal ? 0 : INFINITY;
    }
    for (size_t i = 0; i < n; i++)
        if (full[i] && known(low + i * m, m) && known(high + i * m, m))
            for (size_t k = 0; k < m; k++) {
                double d = margin * fabs(high[i * m + k] - low[i * m + k] - bias[k]);
                if (d > delta[k]) delta[k] = d;
            }
    *calibrated = cal;
    /* 2. the candidates: not in full yet, and not ruled out by a full-detail result */
    double opt[SPACE_MAX_OBJECTIVES], est[SPACE_MAX_OBJECTIVES], other[SPACE_MAX_OBJECTIVES];
    for (size_t i = 0; i < n; i++) {
        run[i] = 0;
        if (full[i]) continue;
        run[i] = 1;
        if (!known(low + i * m, m)) continue; /* a failed screening rules nothing out */
        for (size_t k = 0; k < m; k++)
            opt[k] = low[i * m + k] + bias[k] - delta[k];
        for (size_t j = 0; j < n && run[i]; j++)
            if (full[j] && known(high + j * m, m) && dominates(high + j * m, opt, m)) run[i] = 0;
    }
    /* 3. of the candidates, the ones no other candidate's estimate dominates */
    size_t count = 0;
    for (size_t i = 0; i < n; i++) {
        if (!run[i]) continue;
        if (known(low + i * m, m)) {
            for (size_t k = 0; k < m; k++)
                est[k] = low[i * m + k] + bias[k];
            for (size_t j = 0; j < n; j++) {
                /* j a candidate of this round (marked 1, or 2 once found dominated) */
                if (j == i || !run[j] || !known(low + j * m, m)) continue;
                for (size_t k = 0; k < m; k++)
                    other[k] = low[j * m + k] + bias[k];
                if (dominates(other, est, m)) {
                    run[i] = 2; /* a candidate, not run this round */
                    break;
                }
            }
        }
        count += run[i] == 1;
    }
    for (size_t i = 0; i < n; i++)
        run[i] = run[i] == 1;
    return count;
}

void screen_stats_free(screen_stats *st)
{
    free(st->ruled);
    st->ruled = NULL;
    st->nruled = 0;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

int screen_ruled_out(const screen_stats *st, uint64_t h)
{
    return st && st->nruled && bsearch(&h, st->ruled, st->nruled, sizeof h, cmp_u64) != NULL;
}

param_set *screen_config(const space *s, const param_set *cfg)
{
    param_set *p = param_set_clone(cfg);
    char msg[256];
    if (!p || param_set_parse(p, "sample.kernels", "true", msg, sizeof msg) != 0 ||
        param_set_parse(p, "sample.intra", "true", msg, sizeof msg) != 0 ||
        param_set_value(p, "sample.budget", s->search.screen, msg, sizeof msg) != 0) {
        param_set_free(p);
        return NULL;
    }
    return p;
}

/* Adds the warp instructions the results res (one per workload) simulated in detail to st. */
static void tally(screen_stats *st, size_t nw, const eval_entry *const *res)
{
    for (size_t w = 0; w < nw; w++) {
        const sim_metrics *m = &res[w]->m;
        st->detailed_insts += m->projected_warp_insts > 0 ? m->detailed_warp_insts : m->warp_insts;
    }
}

/* Configuration i's objectives from its results res (one per workload) into v: the log of
 * each normalised, minimised value; NaN when a simulation failed or a value is not positive. */
static void log_objectives(const space *s, const double *ref, const eval_entry *const *res,
                           double *v)
{
    double obj[SPACE_MAX_OBJECTIVES];
    int failed = search_objectives(s, res, obj);
    for (size_t k = 0; k < s->nobjectives; k++) {
        double x = search_normalised(s, k, obj[k], ref[k]);
        v[k] = !failed && x > 0 && isfinite(x) ? log(x) : NAN;
    }
}

int screen_run(const space *s, evaluator *ev, const double *ref, param_set *const *cfgs, size_t n,
               screen_stats *st, char *err, size_t errlen)
{
    screen_stats_free(st);
    memset(st, 0, sizeof *st);
    size_t np = n + 1, m = s->nobjectives, nw = s->nworkloads;
    param_set **all = malloc(np * sizeof *all), **scr = calloc(np, sizeof *scr),
              **batch = malloc(np * sizeof *batch);
    const eval_entry **res = malloc(np * nw * sizeof *res);
    double *low = malloc(np * m * sizeof *low), *high = malloc(np * m * sizeof *high);
    unsigned char *full = calloc(np, 1), *run = calloc(np, 1);
    size_t *which = malloc(np * sizeof *which);
    int rc = -1;
    if (!all || !scr || !batch || !res || !low || !high || !full || !run || !which) goto out;
    /* the reference configuration last (simulated in full before the search), and once: it is
     * often one of the configurations too */
    uint64_t hb = param_set_hash(s->base);
    size_t kept = 0;
    for (size_t i = 0; i < n; i++)
        if (param_set_hash(cfgs[i]) != hb) all[kept++] = cfgs[i];
    n = kept;
    np = n + 1;
    all[n] = s->base;
    for (size_t i = 0; i < np; i++)
        if (!(scr[i] = screen_config(s, all[i]))) goto out;
    for (size_t i = 0; i < np * m; i++)
        high[i] = NAN;
    st->screened = np;
    if (evaluator_batch(ev, scr, np, res) != 0) goto stopped;
    for (size_t i = 0; i < np; i++) {
        log_objectives(s, ref, res + i * nw, low + i * m);
        tally(st, nw, res + i * nw);
        for (size_t w = 0; w < nw; w++) /* counted exactly at every fidelity */
            st->full_insts += res[i * nw + w]->m.warp_insts;
    }
    if (evaluator_batch(ev, &all[n], 1, res) != 0) goto stopped;
    log_objectives(s, ref, res, high + n * m);
    tally(st, nw, res);
    full[n] = 1;
    st->full = 1;
    for (;;) {
        size_t k = screen_plan(np, m, low, high, full, s->search.screen_margin, run, st->bias,
                               st->delta, &st->calibrated);
        if (k == 0) { /* done: what is not in full was ruled out */
            if (!(st->ruled = malloc((n ? n : 1) * sizeof *st->ruled))) goto out;
            for (size_t i = 0; i < n; i++)
                if (!full[i]) st->ruled[st->nruled++] = param_set_hash(all[i]);
            qsort(st->ruled, st->nruled, sizeof *st->ruled, cmp_u64);
            break;
        }
        size_t nb = 0;
        for (size_t i = 0; i < np; i++)
            if (run[i]) {
                which[nb] = i;
                batch[nb++] = all[i];
            }
        st->rounds++;
        if (evaluator_batch(ev, batch, nb, res) != 0) goto stopped;
        for (size_t b = 0; b < nb; b++) {
            full[which[b]] = 1;
            log_objectives(s, ref, res + b * nw, high + which[b] * m);
            tally(st, nw, res + b * nw);
        }
        st->full += nb;
    }
stopped:
    rc = 0;
out:
    if (rc) snprintf(err, errlen, "out of memory");
    for (size_t i = 0; scr && i < np; i++)
        param_set_free(scr[i]);
    free(all);
    free(scr);
    free(batch);
    free(res);
    free(low);
    free(high);
    free(full);
    free(run);
    free(which);
    return rc;
}
