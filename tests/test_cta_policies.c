/* Unit tests of each CTA scheduler, one section per policy in registry order (policies/list.h):
 * max_tlp (every CTA the resources allow), the static limit and DYNCTA (Kayiran et al., PACT
 * 2013), driven directly with scripted C_idle/C_mem samples: the initial n, every branch of
 * Algorithm 1 at its threshold boundaries, the bounds 1 <= n <= N. What every CTA scheduler must
 * do is checked in test_policy_conformance.c; the same policies through the core in
 * test_cta_behaviour.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "explorer/catalog.h"
#include "core/config/params.h"
#include "core/policy.h"
#include "tests/support/policy_harness.h"

/* ------------------------------------------------------------- driving the ops ---- */

/* Creates policy `name` for `sms` SMs with the registry's defaults plus `sets`. */
static void cta_make(ph_cta *c, const char *name, int sms, const char *const *sets)
{
    ph_cta_make(c, name, (cta_env){sms, NULL}, 7, sets);
}

/* One sampling period of SM sm; returns the SM's n after the decision. */
static int sample(ph_cta *c, int sm, uint32_t c_idle, uint32_t c_mem)
{
    cta_sample s = {c_idle, c_mem, c->ops->limit(c->self, sm)};
    c->ops->on_sample(c->self, sm, &s, 0);
    return c->ops->limit(c->self, sm);
}

/* ------------------------------------------- max_tlp: the default dispatcher ---- */

static void test_max_tlp(void **state)
{
    (void)state;
    ph_cta c;
    ph_cta_make(&c, "max_tlp", (cta_env){15, NULL}, 2, NULL);
    const cta_ops *o = c.ops;
    void *self = c.self;
    assert_non_null(o->on_kernel_start);
    o->on_kernel_start(self, 6);
    for (int sm = 0; sm < 15; sm++)
        assert_int_equal(o->limit(self, sm), 6);
    if (o->on_sample) {
        cta_sample smp = {1000, 1000, 6};
        o->on_sample(self, 3, &smp, 5000);
        assert_int_equal(o->limit(self, 3), 6);
    }
    if (o->period) assert_int_equal(o->period(self), 0);
    o->on_kernel_start(self, 1); /* a new kernel with other resources */
    for (int sm = 0; sm < 15; sm++)
        assert_int_equal(o->limit(self, sm), 1);
    o->on_kernel_start(self, 32);
    assert_int_equal(o->limit(self, 14), 32);
    ph_cta_free(&c);
}

/* ----------------------------------------------- static_limit: a fixed limit ---- */

static void test_static_limit(void **state)
{
    (void)state;
    const char *three[] = {"static_limit.n=3", NULL};
    ph_cta c;
    cta_make(&c, "static_limit", 4, three);
    assert_null(c.ops->period);
    c.ops->on_kernel_start(c.self, 8);
    for (int sm = 0; sm < 4; sm++)
        assert_int_equal(c.ops->limit(c.self, sm), 3);
    /* a kernel whose resources allow fewer CTAs runs with its N */
    c.ops->on_kernel_start(c.self, 2);
    assert_int_equal(c.ops->limit(c.self, 0), 2);
    c.ops->on_kernel_start(c.self, 3);
    assert_int_equal(c.ops->limit(c.self, 3), 3);
    ph_cta_free(&c);

    const char *one[] = {"static_limit.n=1", NULL};
    cta_make(&c, "static_limit", 1, one);
    c.ops->on_kernel_start(c.self, 6);
    assert_int_equal(c.ops->limit(c.self, 0), 1);
    ph_cta_free(&c);

    /* the registered range is 1..32 */
    param_set *p = param_set_new();
    char err[256];
    assert_int_not_equal(param_set_parse(p, "static_limit.n", "0", err, sizeof err), 0);
    assert_int_not_equal(param_set_parse(p, "static_limit.n", "33", err, sizeof err), 0);
    param_set_free(p);
}

/* -------------------------------------------- dyncta: dynamic CTA scheduling ---- */

/* n starts at floor(N/2), at least 1, on every SM, at every kernel start. */
static void test_dyncta_initial_n(void **state)
{
    (void)state;
    ph_cta c;
    cta_make(&c, "dyncta", 3, NULL);
    assert_non_null(c.ops->period);
    assert_int_equal(c.ops->period(c.self), 2048);
    for (int n_max = 1; n_max <= 32; n_max++) {
        c.ops->on_kernel_start(c.self, n_max);
        int want = n_max / 2 < 1 ? 1 : n_max / 2;
        for (int sm = 0; sm < 3; sm++)
            assert_int_equal(c.ops->limit(c.self, sm), want);
    }
    /* a new kernel resets the n a previous one reached */
    c.ops->on_kernel_start(c.self, 8);
    assert_int_equal(sample(&c, 1, 0, 0), 5);
    c.ops->on_kernel_start(c.self, 8);
    assert_int_equal(c.ops->limit(c.self, 1), 4);
    ph_cta_free(&c);

    const char *one[] = {"dyncta.start=one", "dyncta.period=100", NULL};
    cta_make(&c, "dyncta", 1, one);
    assert_int_equal(c.ops->period(c.self), 100);
    c.ops->on_kernel_start(c.self, 8);
    assert_int_equal(c.ops->limit(c.self, 0), 1);
    ph_cta_free(&c);
    const char *max[] = {"dyncta.start=max", NULL};
    cta_make(&c, "dyncta", 1, max);
    c.ops->on_kernel_start(c.self, 6);
    assert_int_equal(c.ops->limit(c.self, 0), 6);
    ph_cta_free(&c);
}

/* Every branch of Algorithm 1 at the default thresholds (t_idle 16, t_mem_l 128, t_mem_h 384),
 * from n = 4 of N = 8, each case on a fresh kernel. */
static void test_dyncta_threshold_cases(void **state)
{
    (void)state;
    static const struct {
        uint32_t c_idle, c_mem;
        int delta;
    } cases[] = {
        {16, 0, +1},     /* C_idle >= t_idle: raise (the boundary counts as high) */
        {16, 2000, +1},  /* idle wins over a high C_mem */
        {2047, 384, +1}, /* idle wins over a high C_mem */
        {15, 0, +1},     /* C_idle low, C_mem low: raise */
        {15, 127, +1},   /* C_mem just below t_mem_l */
        {0, 128, 0},     /* C_mem at t_mem_l: medium, keep */
        {0, 300, 0},     /* medium */
        {15, 383, 0},    /* just below t_mem_h: medium */
        {0, 384, -1},    /* C_mem at t_mem_h: high, lower */
        {15, 2048, -1},  /* high */
    };
    ph_cta c;
    cta_make(&c, "dyncta", 2, NULL);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        c.ops->on_kernel_start(c.self, 8);
        int n = sample(&c, 0, cases[i].c_idle, cases[i].c_mem);
        if (n != 4 + cases[i].delta)
            fail_msg("C_idle %u C_mem %u: n %d, expected %d", cases[i].c_idle, cases[i].c_mem, n,
                     4 + cases[i].delta);
        /* decisions are local: the other SM did not move */
        assert_int_equal(c.ops->limit(c.self, 1), 4);
    }
    ph_cta_free(&c);

    /* thresholds are parameters */
    const char *sets[] = {"dyncta.t_idle=100", "dyncta.t_mem_l=10", "dyncta.t_mem_h=20", NULL};
    cta_make(&c, "dyncta", 1, sets);
    c.ops->on_kernel_start(c.self, 8);
    assert_int_equal(sample(&c, 0, 99, 20), 3);  /* idle low now, C_mem high */
    assert_int_equal(sample(&c, 0, 100, 20), 4); /* idle high */
    assert_int_equal(sample(&c, 0, 0, 9), 5);    /* low */
    assert_int_equal(sample(&c, 0, 0, 10), 5);   /* medium */
    assert_int_equal(sample(&c, 0, 0, 19), 5);   /* medium */
    ph_cta_free(&c);
}

/* 1 <= n <= N always: a change that would leave the range is not made. */
static void test_dyncta_bounds(void **state)
{
    (void)state;
    ph_cta c;
    cta_make(&c, "dyncta", 1, NULL);
    c.ops->on_kernel_start(c.self, 4);
    assert_int_equal(sample(&c, 0, 0, 0), 3);
    assert_int_equal(sample(&c, 0, 0, 0), 4);
    for (int i = 0; i < 5; i++)
        assert_int_equal(sample(&c, 0, 2048, 0), 4);
    for (int want = 3; want >= 1; want--)
        assert_int_equal(sample(&c, 0, 0, 2048), want);
    for (int i = 0; i < 5; i++)
        assert_int_equal(sample(&c, 0, 0, 2048), 1);
    assert_int_equal(sample(&c, 0, 0, 0), 2);

    /* N = 1 pins n at 1 */
    c.ops->on_kernel_start(c.self, 1);
    assert_int_equal(c.ops->limit(c.self, 0), 1);
    assert_int_equal(sample(&c, 0, 100, 0), 1);
    assert_int_equal(sample(&c, 0, 0, 1000), 1);
    /* N = 2 starts at 1 */
    c.ops->on_kernel_start(c.self, 2);
    assert_int_equal(sample(&c, 0, 0, 1000), 1);
    assert_int_equal(sample(&c, 0, 0, 0), 2);
    assert_int_equal(sample(&c, 0, 0, 0), 2);
    ph_cta_free(&c);
}

/* A scripted run of two SMs, N = 6, through a memory phase and a compute phase. */
static void test_dyncta_scripted_sequence(void **state)
{
    (void)state;
    static const struct {
        uint32_t idle0, mem0, idle1, mem1;
        int n0, n1; /* after the decision */
    } steps[] = {
        {0, 1500, 0, 50, 2, 4},    /* SM 0 memory-bound, SM 1 compute-bound */
        {0, 1500, 0, 50, 1, 5},    /* SM 0 reaches 1 */
        {0, 900, 0, 60, 1, 6},     /* SM 0 stays at 1; SM 1 reaches N */
        {0, 900, 0, 60, 1, 6},     /* both at their bound */
        {0, 200, 0, 200, 1, 6},    /* medium: both keep */
        {0, 100, 0, 400, 2, 5},    /* SM 0 low: raises (unpauses); SM 1 high: lowers */
        {30, 2000, 40, 400, 3, 6}, /* idle: both raise, whatever C_mem */
        {0, 384, 0, 384, 2, 5},    /* at t_mem_h: both lower */
    };
    ph_cta c;
    cta_make(&c, "dyncta", 2, NULL);
    c.ops->on_kernel_start(c.self, 6);
    assert_int_equal(c.ops->limit(c.self, 0), 3);
    assert_int_equal(c.ops->limit(c.self, 1), 3);
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        int n0 = sample(&c, 0, steps[i].idle0, steps[i].mem0);
        int n1 = sample(&c, 1, steps[i].idle1, steps[i].mem1);
        if (n0 != steps[i].n0 || n1 != steps[i].n1)
            fail_msg("step %zu: n %d,%d, expected %d,%d", i, n0, n1, steps[i].n0, steps[i].n1);
    }
    ph_cta_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_max_tlp),          cmocka_unit_test(test_static_limit),
        cmocka_unit_test(test_dyncta_initial_n), cmocka_unit_test(test_dyncta_threshold_cases),
        cmocka_unit_test(test_dyncta_bounds),    cmocka_unit_test(test_dyncta_scripted_sequence),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
