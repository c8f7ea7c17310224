/* Multi-fidelity screening's rule (explorer/screen.h) on hand-made objective values: the bias
 * and delta it learns from the configurations simulated in full, what it rules out, and which
 * candidates it simulates in full next. Values are logs of normalised objectives, minimised. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "explorer/screen.h"

#define M 2

static void assert_near(double a, double b)
{
    assert_true(fabs(a - b) < 1e-12);
}

/* Nothing calibrates the error yet: delta is infinite, so nothing is ruled out, and the
 * candidates' screening front runs first. */
static void test_no_calibration_runs_the_screening_front(void **state)
{
    (void)state;
    /* 0: the reference, in full but its screening failed; 1 and 2 on the screening front,
     * 3 dominated by 1 */
    double low[] = {NAN, NAN, 0.0, 1.0, 1.0, 0.0, 0.5, 1.5};
    double high[] = {0.2, 0.2, NAN, NAN, NAN, NAN, NAN, NAN};
    unsigned char full[] = {1, 0, 0, 0}, run[4];
    double bias[M], delta[M];
    size_t cal;
    assert_int_equal(screen_plan(4, M, low, high, full, 1.5, run, bias, delta, &cal), 2);
    assert_int_equal(cal, 0);
    assert_true(isinf(delta[0]) && isinf(delta[1]));
    assert_true(!run[0] && run[1] && run[2] && !run[3]);
}

/* One calibrated configuration: bias its error, delta 0. A configuration whose screened value
 * plus bias the full-detail one dominates is ruled out; of the rest, a candidate another
 * candidate dominates waits. */
static void test_rules_out_and_waits(void **state)
{
    (void)state;
    double low[] = {0.0, 0.0, 0.5, 0.5, -0.5, 1.0, -0.4, 1.2};
    double high[] = {0.1, 0.1, NAN, NAN, NAN, NAN, NAN, NAN};
    unsigned char full[] = {1, 0, 0, 0}, run[4];
    double bias[M], delta[M];
    size_t cal;
    assert_int_equal(screen_plan(4, M, low, high, full, 1.5, run, bias, delta, &cal), 1);
    assert_int_equal(cal, 1);
    assert_near(bias[0], 0.1);
    assert_near(bias[1], 0.1);
    assert_near(delta[0], 0);
    assert_near(delta[1], 0);
    /* 1: (0.6, 0.6), dominated by 0's (0.1, 0.1): ruled out; 2: (-0.4, 1.1) run; 3: (-0.3,
     * 1.3), dominated by 2's estimate: waits */
    assert_true(!run[0] && !run[1] && run[2] && !run[3]);
}

/* Two calibrated configurations with errors 0.1 and 0.3: bias 0.2, delta the margin times 0.1.
 * A configuration whose optimistic value reaches a full-detail one's stays a candidate. */
static void test_delta_is_the_margin_times_the_largest_error(void **state)
{
    (void)state;
    double low[] = {0.0, 0.0, 0.0, 0.0, 0.5, 0.5, 0.3, 0.3};
    double high[] = {0.1, 0.1, 0.3, 0.3, NAN, NAN, NAN, NAN};
    unsigned char full[] = {1, 1, 0, 0}, run[4];
    double bias[M], delta[M];
    size_t cal;
    assert_int_equal(screen_plan(4, M, low, high, full, 1.5, run, bias, delta, &cal), 0);
    assert_int_equal(cal, 2);
    assert_near(bias[0], 0.2);
    assert_near(delta[0], 0.15);
    /* 2: optimistic 0.5 + 0.2 - 0.15 = 0.55 and 3: 0.3 + 0.2 - 0.15 = 0.35, both dominated by
     * 0's 0.1: both ruled out, the study is done */
    assert_true(!run[2] && !run[3]);
    /* with margin 4, delta 0.4: 3's optimistic 0.3 + 0.2 - 0.4 = 0.1 ties 0's, which then
     * does not dominate it; 2's 0.3 is still dominated */
    assert_int_equal(screen_plan(4, M, low, high, full, 4, run, bias, delta, &cal), 1);
    assert_true(!run[2] && run[3]);
}

/* A failed screening rules nothing out: the configuration runs in full. The study ends when
 * every configuration is in full or ruled out. */
static void test_failed_screening_runs_and_the_rounds_end(void **state)
{
    (void)state;
    double low[] = {0.0, 0.0, NAN, 0.0, 0.9, 0.9};
    double high[] = {0.0, 0.0, NAN, NAN, NAN, NAN};
    unsigned char full[] = {1, 0, 0}, run[3];
    double bias[M], delta[M];
    size_t cal;
    assert_int_equal(screen_plan(3, M, low, high, full, 1.5, run, bias, delta, &cal), 1);
    assert_true(run[1] && !run[2]);
    full[1] = 1; /* its full-detail simulation failed too: high stays NaN */
    assert_int_equal(screen_plan(3, M, low, high, full, 1.5, run, bias, delta, &cal), 0);
    assert_true(!run[0] && !run[1] && !run[2]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_calibration_runs_the_screening_front),
        cmocka_unit_test(test_rules_out_and_waits),
        cmocka_unit_test(test_delta_is_the_margin_times_the_largest_error),
        cmocka_unit_test(test_failed_screening_runs_and_the_rounds_end),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
