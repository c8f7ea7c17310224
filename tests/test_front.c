/* Tests of Pareto fronts: front_mark against a brute-force definition on random sets full of
 * ties, duplicates and NaNs; the hypervolume against hand-computed cases, against identities
 * (permutation, dominated rows, flat fronts) and against a Monte Carlo estimate. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util/rng.h"
#include "explorer/front.h"
#include "tests/support/support.h"

/* ------------------------------------------------------------------ brute force ---- */

static int brute_on_front(const double *obj, size_t n, size_t m, size_t i)
{
    for (size_t k = 0; k < m; k++)
        if (isnan(obj[i * m + k])) return 0;
    for (size_t j = 0; j < n; j++) {
        if (j == i) continue;
        int le = 1, lt = 0, nan = 0;
        for (size_t k = 0; k < m; k++) {
            double a = obj[j * m + k], b = obj[i * m + k];
            if (isnan(a)) nan = 1;
            if (a > b) le = 0;
            if (a < b) lt = 1;
        }
        if (!nan && le && lt) return 0;
    }
    return 1;
}

static void fill_random(wt_rng *r, double *obj, size_t n, size_t m, unsigned levels, int nans)
{
    for (size_t i = 0; i < n * m; i++)
        obj[i] = (double)wt_rng_below(r, levels) * 0.5 - 1.0;
    /* exact duplicates of earlier rows */
    for (size_t i = 1; i < n; i++)
        if (wt_rng_below(r, 5) == 0)
            memcpy(obj + i * m, obj + wt_rng_below(r, i) * m, m * sizeof *obj);
    if (nans)
        for (size_t i = 0; i < n; i++)
            if (wt_rng_below(r, 10) == 0) obj[i * m + wt_rng_below(r, m)] = NAN;
}

static void check_against_brute(size_t m, uint64_t seed)
{
    wt_rng r;
    wt_rng_seed(&r, seed);
    for (int trial = 0; trial < 60; trial++) {
        size_t n = 1 + wt_rng_below(&r, 120);
        unsigned levels = 2 + (unsigned)wt_rng_below(&r, 8);
        double *obj = malloc(n * m * sizeof *obj);
        unsigned char *on = malloc(n);
        fill_random(&r, obj, n, m, levels, trial % 2);
        size_t count = front_mark(obj, n, m, on);
        size_t want = 0;
        for (size_t i = 0; i < n; i++) {
            int b = brute_on_front(obj, n, m, i);
            want += (size_t)b;
            if (on[i] != b)
                fail_msg("m=%zu trial %d n=%zu row %zu: front_mark %d, brute force %d", m, trial, n,
                         i, on[i], b);
        }
        assert_int_equal(count, want);
        free(obj);
        free(on);
    }
}

static void test_mark_brute_m1(void **state)
{
    (void)state;
    check_against_brute(1, 11);
}

static void test_mark_brute_m2(void **state)
{
    (void)state;
    check_against_brute(2, 12);
}

static void test_mark_brute_m3(void **state)
{
    (void)state;
    check_against_brute(3, 13);
}

static void test_mark_brute_m4(void **state)
{
    (void)state;
    check_against_brute(4, 14);
}

static void test_mark_hand(void **state)
{
    (void)state;
    /* (1,3) (2,2) (2,2) (3,1) on the front; (3,3) dominated; (2,3) dominated by (2,2);
     * NaN row never; (1,NaN) does not dominate (1,3). */
    const double obj[] = {1, 3, 2, 2, 3, 3, 2, 2, 3, 1, 2, 3, NAN, 0, 1, NAN};
    unsigned char on[8];
    size_t c = front_mark(obj, 8, 2, on);
    const unsigned char want[8] = {1, 1, 0, 1, 1, 0, 0, 0};
    assert_memory_equal(on, want, 8);
    assert_int_equal(c, 4);
    /* all rows equal: all on the front */
    const double same[] = {5, 5, 5, 5, 5, 5, 5, 5, 5};
    assert_int_equal(front_mark(same, 3, 3, on), 3);
    assert_true(on[0] && on[1] && on[2]);
    /* empty input */
    assert_int_equal(front_mark(obj, 0, 2, on), 0);
    /* infinities compare like numbers */
    const double inf[] = {-INFINITY, 5, 0, INFINITY, 1, 1};
    assert_int_equal(front_mark(inf, 3, 2, on), 2);
    assert_true(on[0] && !on[1] && on[2]);
}

/* ------------------------------------------------------------------ hypervolume ---- */

static void test_hv_hand_1d_2d(void **state)
{
    (void)state;
    const double one[] = {3, 1, 7};
    const double r1[] = {5};
    assert_double_near(front_hypervolume(one, 3, 1, r1), 4, 0);
    const double beyond[] = {5, 6};
    assert_double_near(front_hypervolume(beyond, 2, 1, r1), 0, 0);

    const double ref[] = {3, 3};
    const double single[] = {1, 1};
    assert_double_near(front_hypervolume(single, 1, 2, ref), 4, 0);
    /* two overlapping boxes: 2 + 2 - 1 */
    const double two[] = {1, 2, 2, 1};
    assert_double_near(front_hypervolume(two, 2, 2, ref), 3, 0);
    /* a staircase against (4,4): 3 + 2 + 1, plus dominated rows and duplicates adding nothing */
    const double ref4[] = {4, 4};
    const double stair[] = {3, 1, 1, 3, 2, 2, 3, 3, 2, 2, 2, 3.5};
    assert_double_near(front_hypervolume(stair, 6, 2, ref4), 6, 0);
    /* rows not strictly better than ref in every objective contribute nothing */
    const double edge[] = {1, 4, 4, 1, 5, 0, NAN, 0};
    assert_double_near(front_hypervolume(edge, 4, 2, ref4), 0, 0);
    assert_double_near(front_hypervolume(edge, 0, 2, ref4), 0, 0);
    /* unsupported dimension */
    const double four[] = {0, 0, 0, 0};
    const double ref44[] = {1, 1, 1, 1};
    assert_double_near(front_hypervolume(four, 1, 4, ref44), -1, 0);
}

static void test_hv_hand_3d(void **state)
{
    (void)state;
    const double ref[] = {1, 2, 3};
    const double single[] = {0, 0, 0};
    assert_double_near(front_hypervolume(single, 1, 3, ref), 6, 0);
    /* two boxes: 4 + 2 - 1 */
    const double ref2[] = {2, 2, 2};
    const double two[] = {0, 0, 1, 1, 1, 0};
    assert_double_near(front_hypervolume(two, 2, 3, ref2), 5, 0);
    /* three unit-offset corners of the cube [0,2]^3: each box 1*2*2 = 4 ... by inclusion-
     * exclusion: 3*4 - 3*2 + 1 = 7 */
    const double corners[] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    assert_double_near(front_hypervolume(corners, 3, 3, ref2), 7, 0);
    /* duplicates, dominated rows and rows on the reference boundary change nothing */
    const double more[] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0, 0, 1, 1, 1, 0, 0, 2, 2, 0, 0};
    assert_double_near(front_hypervolume(more, 7, 3, ref2), 7, 0);
    /* all rows at one z: the 2D area times the depth */
    const double flat[] = {1, 3, 0.5, 3, 1, 0.5, 2, 2, 0.5};
    const double flat2[] = {1, 3, 3, 1, 2, 2};
    const double ref3[] = {4, 4, 2.5};
    assert_double_near(front_hypervolume(flat, 3, 3, ref3),
                       2 * front_hypervolume(flat2, 3, 2, ref3), 1e-12);
    const double edge[] = {0, 0, 2, NAN, 0, 0};
    assert_double_near(front_hypervolume(edge, 2, 3, ref2), 0, 0);
}

/* Random points on the positive octant of the unit sphere, mirrored so that they are
 * mutually non-dominated for minimisation: 1 - (direction). */
static void sphere_front(wt_rng *r, double *obj, size_t n, size_t m)
{
    for (size_t i = 0; i < n; i++) {
        double s = 0;
        for (size_t k = 0; k < m; k++) {
            double u = wt_rng_unit(r) + 1e-3;
            obj[i * m + k] = u;
            s += u * u;
        }
        s = sqrt(s);
        for (size_t k = 0; k < m; k++)
            obj[i * m + k] = 1 - obj[i * m + k] / s;
    }
}

static double monte_carlo(wt_rng *r, const double *obj, size_t n, size_t m, const double *ref,
                          size_t samples)
{
    size_t hit = 0;
    double z[3];
    for (size_t s = 0; s < samples; s++) {
        for (size_t k = 0; k < m; k++)
            z[k] = wt_rng_unit(r) * ref[k];
        for (size_t i = 0; i < n; i++) {
            int dom = 1;
            for (size_t k = 0; k < m && dom; k++)
                dom = obj[i * m + k] <= z[k];
            if (dom) {
                hit++;
                break;
            }
        }
    }
    double box = 1;
    for (size_t k = 0; k < m; k++)
        box *= ref[k];
    return box * (double)hit / (double)samples;
}

static void check_monte_carlo(size_t m, size_t n, uint64_t seed)
{
    wt_rng r;
    wt_rng_seed(&r, seed);
    double *obj = malloc(n * m * sizeof *obj);
    sphere_front(&r, obj, n, m);
    /* add dominated noise */
    for (size_t i = n / 2; i < n; i++)
        for (size_t k = 0; k < m; k++)
            obj[i * m + k] = 0.3 + 0.7 * wt_rng_unit(&r);
    const double ref[3] = {1.1, 1.0, 1.2};
    double hv = front_hypervolume(obj, n, m, ref);
    size_t samples = 200000;
    double est = monte_carlo(&r, obj, n, m, ref, samples);
    double box = ref[0] * ref[1] * (m == 3 ? ref[2] : 1);
    double p = hv / box;
    double sigma = box * sqrt(p * (1 - p) / (double)samples);
    if (fabs(hv - est) > 5 * sigma + 1e-12)
        fail_msg("m=%zu n=%zu: exact %.6f, Monte Carlo %.6f (sigma %.6f)", m, n, hv, est, sigma);
    free(obj);
}

static void test_hv_monte_carlo(void **state)
{
    (void)state;
    check_monte_carlo(2, 40, 21);
    check_monte_carlo(2, 7, 22);
    check_monte_carlo(3, 40, 23);
    check_monte_carlo(3, 9, 24);
}

/* The hypervolume ignores row order and dominated rows. */
static void test_hv_invariants(void **state)
{
    (void)state;
    wt_rng r;
    wt_rng_seed(&r, 31);
    for (size_t m = 2; m <= 3; m++) {
        for (int trial = 0; trial < 30; trial++) {
            size_t n = 1 + wt_rng_below(&r, 80);
            double *obj = malloc(n * m * sizeof *obj);
            double *front = malloc(n * m * sizeof *front);
            double *shuf = malloc(n * m * sizeof *shuf);
            unsigned char *on = malloc(n);
            fill_random(&r, obj, n, m, 2 + (unsigned)wt_rng_below(&r, 6), 0);
            double ref[3] = {1.2, 1.0, 1.5};
            double hv = front_hypervolume(obj, n, m, ref);
            front_mark(obj, n, m, on);
            size_t k = 0;
            for (size_t i = 0; i < n; i++)
                if (on[i]) memcpy(front + m * k++, obj + i * m, m * sizeof *obj);
            assert_double_near(front_hypervolume(front, k, m, ref), hv, 1e-12);
            memcpy(shuf, obj, n * m * sizeof *obj);
            for (size_t i = n; i > 1; i--) {
                size_t j = wt_rng_below(&r, i);
                double t[3];
                memcpy(t, shuf + (i - 1) * m, m * sizeof *t);
                memcpy(shuf + (i - 1) * m, shuf + j * m, m * sizeof *t);
                memcpy(shuf + j * m, t, m * sizeof *t);
            }
            assert_double_near(front_hypervolume(shuf, n, m, ref), hv, 1e-12);
            /* 3D: on a grid the volume is a sum of unit cells; compare with counting them */
            if (m == 3) {
                /* values are -1 + 0.5 j; cells of side 0.5 from -1 to ref */
                double vol = 0;
                for (double x = -1; x < ref[0]; x += 0.5)
                    for (double y = -1; y < ref[1]; y += 0.5)
                        for (double z = -1; z < ref[2]; z += 0.5) {
                            double cx = fmin(x + 0.5, ref[0]) - x, cy = fmin(y + 0.5, ref[1]) - y;
                            double cz = fmin(z + 0.5, ref[2]) - z;
                            for (size_t i = 0; i < n; i++)
                                if (obj[i * m] <= x && obj[i * m + 1] <= y && obj[i * m + 2] <= z) {
                                    vol += cx * cy * cz;
                                    break;
                                }
                        }
                assert_double_near(hv, vol, 1e-9);
            }
            free(obj);
            free(front);
            free(shuf);
            free(on);
        }
    }
}

/* A few thousand mutually non-dominated points: every one is on the front and the volume
 * is a proper share of the unit cube (how fast this runs is for benchmarks, not tests). */
static void test_large_fronts(void **state)
{
    (void)state;
    wt_rng r;
    wt_rng_seed(&r, 41);
    size_t n = 4000;
    double *obj = malloc(n * 3 * sizeof *obj);
    unsigned char *on = malloc(n);
    sphere_front(&r, obj, n, 3);
    const double ref[3] = {1, 1, 1};
    double hv = front_hypervolume(obj, n, 3, ref);
    size_t c = front_mark(obj, n, 3, on);
    assert_double_less(0, hv);
    assert_double_less(hv, 1);
    assert_int_equal(c, n);
    /* 2D: the sorted path */
    sphere_front(&r, obj, n, 2);
    assert_int_equal(front_mark(obj, n, 2, on), n);
    hv = front_hypervolume(obj, n, 2, ref);
    assert_double_less(0, hv);
    assert_double_less(hv, 1);
    free(obj);
    free(on);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mark_hand),     cmocka_unit_test(test_mark_brute_m1),
        cmocka_unit_test(test_mark_brute_m2), cmocka_unit_test(test_mark_brute_m3),
        cmocka_unit_test(test_mark_brute_m4), cmocka_unit_test(test_hv_hand_1d_2d),
        cmocka_unit_test(test_hv_hand_3d),    cmocka_unit_test(test_hv_monte_carlo),
        cmocka_unit_test(test_hv_invariants), cmocka_unit_test(test_large_fronts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
