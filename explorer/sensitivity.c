/* Morris and Sobol designs, their indices and bootstrap intervals (sensitivity.h). */
#include "explorer/sensitivity.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util/rng.h"

/* The generator streams of a study's seed: the designs and the bootstrap draw apart from each
 * other and from the other searches' streams. */
enum { STREAM_MORRIS = 0x5e45, STREAM_SOBOL = 0x5e46, STREAM_BOOT = 0x5e47 };

size_t sens_design_points(sens_method m, size_t d, size_t base)
{
    size_t per = d + (m == SENS_MORRIS ? 1 : 2);
    if (base && per > SIZE_MAX / base) return SIZE_MAX;
    return per * base;
}

size_t sens_index_count(sens_method m)
{
    return m == SENS_MORRIS ? 3 : 2;
}

const char *sens_index_name(sens_method m, size_t k)
{
    static const char *const morris[] = {"mu_star", "mu", "sigma"};
    static const char *const sobol[] = {"S1", "ST"};
    return m == SENS_MORRIS ? morris[k] : sobol[k];
}

const char *sens_method_name(sens_method m)
{
    return m == SENS_MORRIS ? "morris" : "sobol";
}

void sens_design_free(sens_design *dz)
{
    free(dz->x);
    free(dz->level);
    free(dz->moved);
    memset(dz, 0, sizeof *dz);
}

void sens_result_free(sens_result *r)
{
    free(r->idx);
    free(r->evaluations);
    memset(r, 0, sizeof *r);
}

static int alloc_design(sens_design *out, sens_method m, size_t d, size_t base, char *err,
                        size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->method = m;
    out->d = d;
    out->base = base;
    out->npoints = sens_design_points(m, d, base);
    if (d == 0 || base == 0 || out->npoints == SIZE_MAX || out->npoints > SIZE_MAX / 8 / d) {
        snprintf(err, errlen, "expected at least one parameter and one %s, and a design that fits",
                 m == SENS_MORRIS ? "trajectory" : "base sample");
        return -1;
    }
    out->x = malloc(out->npoints * d * sizeof *out->x);
    if (m == SENS_MORRIS) {
        out->level = malloc(out->npoints * d * sizeof *out->level);
        out->moved = malloc(base * d * sizeof *out->moved);
    }
    if (!out->x || (m == SENS_MORRIS && (!out->level || !out->moved))) {
        sens_design_free(out);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    return 0;
}

int sens_morris_design(size_t d, const size_t *levels, size_t r, uint64_t seed, sens_design *out,
                       char *err, size_t errlen)
{
    if (alloc_design(out, SENS_MORRIS, d, r, err, errlen)) return -1;
    for (size_t i = 0; i < d; i++)
        if (levels[i] == 0) {
            sens_design_free(out);
            snprintf(err, errlen, "parameter %zu has no level", i);
            return -1;
        }
    wt_rng g;
    wt_rng_seed_stream(&g, seed, STREAM_MORRIS);
    for (size_t t = 0; t < r; t++) {
        size_t *row = out->level + t * (d + 1) * d;
        size_t *order = out->moved + t * d;
        for (size_t i = 0; i < d; i++) {
            row[i] = (size_t)wt_rng_below(&g, levels[i]);
            order[i] = i;
        }
        for (size_t i = d; i > 1; i--) { /* Fisher-Yates: the order the steps move in */
            size_t j = (size_t)wt_rng_below(&g, i), tmp = order[i - 1];
            order[i - 1] = order[j];
            order[j] = tmp;
        }
        for (size_t k = 1; k <= d; k++) {
            size_t *prev = row + (k - 1) * d, *cur = row + k * d, i = order[k - 1];
            memcpy(cur, prev, d * sizeof *cur);
            if (levels[i] < 2) continue; /* one level: nothing to move (its row repeats) */
            int up = prev[i] == 0 ? 1 : prev[i] + 1 == levels[i] ? 0 : (int)wt_rng_below(&g, 2);
            cur[i] = up ? prev[i] + 1 : prev[i] - 1;
        }
    }
    for (size_t p = 0; p < out->npoints; p++)
        for (size_t i = 0; i < d; i++)
            out->x[p * d + i] =
                levels[i] > 1 ? (double)out->level[p * d + i] / (double)(levels[i] - 1) : 0.5;
    return 0;
}

/* The k-th prime (k < 128: 2d bases for at most 64 parameters). */
static unsigned prime_at(size_t k)
{
    unsigned n = 1;
    for (size_t found = 0; found <= k;) {
        n++;
        int prime = 1;
        for (unsigned q = 2; q * q <= n && prime; q++)
            prime = n % q != 0;
        found += (size_t)prime;
    }
    return n;
}

/* The radical inverse of j in base b: j's digits mirrored about the point (van der Corput). */
static double radical_inverse(size_t j, unsigned b)
{
    double v = 0, f = 1.0 / b;
    for (; j; j /= b, f /= b)
        v += (double)(j % b) * f;
    return v;
}

int sens_sobol_design(size_t d, size_t n, uint64_t seed, sens_design *out, char *err, size_t errlen)
{
    if (d > 64) {
        snprintf(err, errlen, "at most 64 parameters");
        return -1;
    }
    if (alloc_design(out, SENS_SOBOL, d, n, err, errlen)) return -1;
    /* A and B are the two halves of a 2d-dimensional Halton sequence, each coordinate shifted
     * modulo 1 by a seeded uniform draw (a Cranley-Patterson rotation): quasi-random, as
     * Saltelli 2010 recommends for its faster convergence than independent draws, and the
     * seed still chooses the points. */
    unsigned base[128];
    double shift[128];
    wt_rng g;
    wt_rng_seed_stream(&g, seed, STREAM_SOBOL);
    for (size_t k = 0; k < 2 * d; k++) {
        base[k] = prime_at(k);
        shift[k] = wt_rng_unit(&g);
    }
    for (size_t j = 0; j < n; j++) {
        double *a = out->x + j * (d + 2) * d, *b = a + d;
        for (size_t k = 0; k < 2 * d; k++) {
            double u = radical_inverse(j + 1, base[k]) + shift[k];
            a[k] = u >= 1 ? u - 1 : u; /* a[d..2d) is b */
        }
        for (size_t i = 0; i < d; i++) { /* A_B^i: A with column i from B */
            double *ab = a + (2 + i) * d;
            memcpy(ab, a, d * sizeof *ab);
            ab[i] = b[i];
        }
    }
    return 0;
}

/* ---------------------------------------------------------------- intervals */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The 2.5% and 97.5% percentiles of the finite values among v[0..n) (sorted in place first),
 * interpolated between order statistics (Hyndman and Fan's type 7). */
static void percentile_interval(double *v, size_t n, double *lo, double *hi)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(v[i])) v[m++] = v[i];
    if (m == 0) {
        *lo = *hi = NAN;
        return;
    }
    qsort(v, m, sizeof *v, cmp_double);
    double q[2] = {0.025, 0.975}, *out[2] = {lo, hi};
    for (int k = 0; k < 2; k++) {
        double h = q[k] * (double)(m - 1);
        size_t f = (size_t)floor(h);
        size_t c = f + 1 < m ? f + 1 : f;
        *out[k] = v[f] + (h - (double)f) * (v[c] - v[f]);
    }
}

/* ---------------------------------------------------------------- Morris */

/* mu*, mu and sigma of parameter i over the trajectories pick[0..n) (Morris 1991; mu* as
 * Campolongo et al. 2007 use it): ee is r x d, NaN where a trajectory has no effect. sigma is
 * the sample standard deviation (NaN below two effects). */
static size_t morris_stats(const double *ee, size_t d, size_t i, const size_t *pick, size_t n,
                           double *out)
{
    double sa = 0, s = 0;
    size_t k = 0;
    for (size_t t = 0; t < n; t++) {
        double e = ee[pick[t] * d + i];
        if (!isfinite(e)) continue;
        sa += fabs(e);
        s += e;
        k++;
    }
    double mu = k ? s / (double)k : NAN, ss = 0;
    for (size_t t = 0; t < n && k > 1; t++) {
        double e = ee[pick[t] * d + i];
        if (isfinite(e)) ss += (e - mu) * (e - mu);
    }
    out[0] = k ? sa / (double)k : NAN;
    out[1] = mu;
    out[2] = k > 1 ? sqrt(ss / (double)(k - 1)) : NAN;
    return k;
}

static int morris_indices(const sens_design *dz, const double *y, size_t nboot, wt_rng *g,
                          sens_result *out, double *boot, size_t *pick)
{
    size_t d = dz->d, r = dz->base;
    double *ee = malloc(r * d * sizeof *ee);
    if (!ee) return -1;
    for (size_t t = 0; t < r * d; t++)
        ee[t] = NAN;
    for (size_t t = 0; t < r; t++) {
        size_t row = t * (d + 1);
        for (size_t k = 1; k <= d; k++) {
            size_t i = dz->moved[t * d + k - 1];
            double du = dz->x[(row + k) * d + i] - dz->x[(row + k - 1) * d + i];
            double dy = y[row + k] - y[row + k - 1];
            if (du != 0 && isfinite(dy)) ee[t * d + i] = dy / du;
        }
    }
    for (size_t t = 0; t < r; t++)
        pick[t] = t;
    for (size_t i = 0; i < d; i++) {
        double v[3];
        out->evaluations[i] = 2 * morris_stats(ee, d, i, pick, r, v);
        for (size_t k = 0; k < 3; k++)
            out->idx[i * 3 + k].value = v[k];
    }
    /* resampling whole trajectories: the effects of one trajectory share its rows */
    for (size_t b = 0; b < nboot; b++) {
        for (size_t t = 0; t < r; t++)
            pick[t] = (size_t)wt_rng_below(g, r);
        for (size_t i = 0; i < d; i++) {
            double v[3];
            morris_stats(ee, d, i, pick, r, v);
            for (size_t k = 0; k < 3; k++)
                boot[(i * 3 + k) * nboot + b] = v[k];
        }
    }
    free(ee);
    return 0;
}

/* ---------------------------------------------------------------- Sobol */

/* S1 (Saltelli 2010, Table 2 (b): V_i = 1/N sum f(B)(f(A_B^i) - f(A))) and ST (Jansen 1999,
 * Saltelli 2010 Table 2 (f): 1/2N sum (f(A) - f(A_B^i))^2), each over the variance of the
 * f(A) and f(B) values together, from the base samples pick[0..n). NaN without variance. */
static void sobol_stats(const double *y, size_t d, const size_t *pick, size_t n, double *s1,
                        double *st)
{
    double mean = 0, var = 0;
    for (size_t j = 0; j < n; j++) {
        const double *r = y + pick[j] * (d + 2);
        mean += r[0] + r[1];
    }
    mean /= 2.0 * (double)n;
    for (size_t j = 0; j < n; j++) {
        const double *r = y + pick[j] * (d + 2);
        var += (r[0] - mean) * (r[0] - mean) + (r[1] - mean) * (r[1] - mean);
    }
    var /= 2.0 * (double)n;
    for (size_t i = 0; i < d; i++) {
        double v1 = 0, vt = 0;
        for (size_t j = 0; j < n; j++) {
            const double *r = y + pick[j] * (d + 2);
            v1 += r[1] * (r[2 + i] - r[0]);
            vt += (r[0] - r[2 + i]) * (r[0] - r[2 + i]);
        }
        s1[i] = var > 0 ? v1 / (double)n / var : NAN;
        st[i] = var > 0 ? vt / (2.0 * (double)n) / var : NAN;
    }
}

static int sobol_indices(const sens_design *dz, const double *y, size_t nboot, wt_rng *g,
                         sens_result *out, double *boot, size_t *pick)
{
    size_t d = dz->d, n = 0;
    double *s1 = malloc(2 * d * sizeof *s1);
    if (!s1) return -1;
    double *st = s1 + d;
    /* the base samples whose d+2 values are all there (no infeasible or failed row) */
    for (size_t j = 0; j < dz->base; j++) {
        int ok = 1;
        for (size_t k = 0; k < d + 2; k++)
            ok &= isfinite(y[j * (d + 2) + k]) != 0;
        if (ok) pick[n++] = j;
    }
    size_t *used = pick + dz->base; /* the usable samples, which the bootstrap draws from */
    memcpy(used, pick, n * sizeof *used);
    for (size_t i = 0; i < d; i++)
        out->evaluations[i] = 3 * n;
    if (n == 0) {
        for (size_t i = 0; i < 2 * d; i++)
            out->idx[i].value = NAN;
        for (size_t i = 0; i < 2 * d * nboot; i++)
            boot[i] = NAN;
        free(s1);
        return 0;
    }
    sobol_stats(y, d, used, n, s1, st);
    for (size_t i = 0; i < d; i++) {
        out->idx[i * 2].value = s1[i];
        out->idx[i * 2 + 1].value = st[i];
    }
    for (size_t b = 0; b < nboot; b++) {
        for (size_t j = 0; j < n; j++)
            pick[j] = used[wt_rng_below(g, n)];
        sobol_stats(y, d, pick, n, s1, st);
        for (size_t i = 0; i < d; i++) {
            boot[(i * 2) * nboot + b] = s1[i];
            boot[(i * 2 + 1) * nboot + b] = st[i];
        }
    }
    free(s1);
    return 0;
}

int sens_indices(const sens_design *dz, const double *y, size_t nboot, uint64_t seed,
                 sens_result *out, char *err, size_t errlen)
{
    size_t d = dz->d, ni = sens_index_count(dz->method);
    memset(out, 0, sizeof *out);
    out->method = dz->method;
    out->d = d;
    out->idx = calloc(d * ni, sizeof *out->idx);
    out->evaluations = calloc(d, sizeof *out->evaluations);
    double *boot = malloc((nboot ? nboot : 1) * d * ni * sizeof *boot);
    size_t *pick = malloc(2 * dz->base * sizeof *pick);
    int rc = -1;
    if (out->idx && out->evaluations && boot && pick) {
        wt_rng g;
        wt_rng_seed_stream(&g, seed, STREAM_BOOT);
        rc = dz->method == SENS_MORRIS ? morris_indices(dz, y, nboot, &g, out, boot, pick)
                                       : sobol_indices(dz, y, nboot, &g, out, boot, pick);
    }
    if (rc == 0)
        for (size_t k = 0; k < d * ni; k++) {
            if (nboot)
                percentile_interval(boot + k * nboot, nboot, &out->idx[k].lo, &out->idx[k].hi);
            else
                out->idx[k].lo = out->idx[k].hi = NAN;
        }
    free(boot);
    free(pick);
    if (rc != 0) {
        sens_result_free(out);
        snprintf(err, errlen, "out of memory");
    }
    return rc;
}
