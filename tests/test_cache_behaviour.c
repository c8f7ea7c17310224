/* Behaviour of the L1D policies in whole simulations of built-in workloads (small sizes, few
 * SMs), the tests of one policy, then those of every policy: DaCache fully caches more
 * divergent loads than LRU on the memory-divergent kmeans, and its bypass issues fewer
 * reservation failures than DaCache-Stall; the coherent-only stream changes IPC by under 3%
 * under every policy (in DaCache's configuration, where the paper makes that claim:
 * docs/policies.md says why the 16-way 8-set default differs); every policy runs under every
 * warp scheduler. Each policy's unit tests are in test_cache_policies.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "explorer/catalog.h"
#include "explorer/simulate.h"
#include "core/config/preset.h"
#include "policies/registry.h"
#include "tests/support/support.h"

/* A simulation under a named preset plus settings. */
static sim_metrics run_preset(const char *preset, const char *wl, const char *const *sets,
                              const char *const *wparams)
{
    param_set *p = param_set_new();
    char err[1024] = "";
    if (test_apply_sets(p, preset, sets, err, sizeof err) != 0) fail_msg("%s", err);
    test_wparams wp;
    if (test_split_wparams(&wp, wparams, err, sizeof err) != 0) fail_msg("%s", err);
    workload *w = NULL;
    if (workload_load(wl, wp.ov, wp.n, &w, err, sizeof err) != 0) fail_msg("%s", err);
    sim_metrics m;
    if (sim_run(p, w, NULL, &m, err, sizeof err) != SIM_OK) fail_msg("%s: %s", wl, err);
    workload_free(w);
    param_set_free(p);
    return m;
}

static sim_metrics run(const char *wl, const char *const *sets, const char *const *wparams)
{
    sim_metrics m;
    char err[1024] = "";
    sim_status st = test_sim(wl, sets, wparams, &m, err, sizeof err);
    if (st != SIM_OK) fail_msg("%s: status %d: %s", wl, (int)st, err);
    return m;
}

/* ------------------------------------------------- dacache: divergence-aware ---- */

static void test_dacache_fully_caches_divergent_loads(void **state)
{
    (void)state;
    const char *wp[] = {"npoints=1024", NULL};
    const char *lru[] = {"gpu.sms=2", "l1d.policy=lru", NULL};
    const char *da[] = {"gpu.sms=2", "l1d.policy=dacache", NULL};
    const char *stall[] = {"gpu.sms=2", "l1d.policy=dacache_stall", NULL};
    sim_metrics ml = run("kmeans", lru, wp);
    sim_metrics md = run("kmeans", da, wp);
    sim_metrics ms = run("kmeans", stall, wp);
    print_message("kmeans: fully cached divergent loads of %.0f: LRU %.0f, DaCache %.0f, "
                  "DaCache-Stall %.0f; reservation failures DaCache %.0f, DaCache-Stall %.0f\n",
                  ml.divergent_loads, ml.fully_cached_divergent_loads,
                  md.fully_cached_divergent_loads, ms.fully_cached_divergent_loads,
                  md.l1d_reservation_fails, ms.l1d_reservation_fails);
    assert_double_less(0, ml.divergent_loads);
    assert_double_near(ml.divergent_loads, md.divergent_loads, 0);
    assert_double_less(ml.fully_cached_divergent_loads, md.fully_cached_divergent_loads);
    assert_double_less(0, md.l1d_bypasses);
    assert_double_near(ms.l1d_bypasses, 0, 0);
    assert_double_less(md.l1d_reservation_fails, ms.l1d_reservation_fails);
    /* the MPLI groups partition the loads that missed */
    double missed = md.mpli_1_loads + md.mpli_2_loads + md.mpli_3_31_loads + md.mpli_32_loads;
    assert_double_near(missed + md.fully_cached_loads, md.global_loads, 0);

    /* the same in DaCache's own configuration (32 sets x 8 ways, xor indexing) */
    const char *lru15[] = {"gpu.sms=2",  "l1d.policy=lru", "l1d.sets=32",
                           "l1d.ways=8", "l1d.hash=xor",   NULL};
    const char *da15[] = {"gpu.sms=2",  "l1d.policy=dacache", "l1d.sets=32",
                          "l1d.ways=8", "l1d.hash=xor",       NULL};
    const char *st15[] = {
        "gpu.sms=2", "l1d.policy=dacache_stall", "l1d.sets=32", "l1d.ways=8", "l1d.hash=xor", NULL};
    ml = run("kmeans", lru15, wp);
    md = run("kmeans", da15, wp);
    ms = run("kmeans", st15, wp);
    print_message("kmeans, 32x8: LRU %.0f, DaCache %.0f fully cached divergent loads; "
                  "reservation failures DaCache %.0f, DaCache-Stall %.0f\n",
                  ml.fully_cached_divergent_loads, md.fully_cached_divergent_loads,
                  md.l1d_reservation_fails, ms.l1d_reservation_fails);
    assert_double_less(ml.fully_cached_divergent_loads, md.fully_cached_divergent_loads);
    /* half the ways stay replaceable (dacache.locality_fraction): here the thrashing region
     * is seldom all reserved, so bypassing can only save failures, never add any */
    assert_double_in_range(md.l1d_reservation_fails, 0, ms.l1d_reservation_fails);
}

/* ---------------------------------------------------------- every L1D policy ---- */

static void test_coherent_workload_ipc(void **state)
{
    (void)state;
    const char *wp[] = {"n=16384", NULL};
    double base = 0;
    size_t l1d_policy = (size_t)param_lookup("l1d.policy");
    const char *l1; /* every L1D policy and alias (DaCache's variants) */
    for (size_t k = 0; (l1 = param_choice_name(&sim_catalog, l1d_policy, k)); k++) {
        char pol[64];
        snprintf(pol, sizeof pol, "l1d.policy=%s", l1);
        const char *sets[] = {"gpu.sms=2", pol, NULL};
        sim_metrics m = run_preset("dacache-ics15", "stream", sets, wp);
        assert_double_near(m.divergent_loads, 0, 0);
        assert_double_less(0, m.coherent_loads);
        if (k == 0) base = m.ipc;
        double change = fabs(m.ipc / base - 1);
        print_message("stream: %-14s ipc %.4f (%+.2f%%)\n", l1, m.ipc, 100 * (m.ipc / base - 1));
        if (change >= 0.03)
            fail_msg("%s changes a coherent workload's IPC by %.1f%%", l1, 100 * change);
    }
}

static void test_every_policy_with_every_scheduler(void **state)
{
    (void)state;
    const char *wp[] = {"npoints=128", NULL};
    size_t l1d_policy = (size_t)param_lookup("l1d.policy");
    const char *l1; /* every L1D policy and alias (DaCache's variants) */
    for (size_t s = 0; sched_policy_names[s]; s++)
        for (size_t k = 0; (l1 = param_choice_name(&sim_catalog, l1d_policy, k)); k++) {
            char sp[64], lp[64];
            snprintf(sp, sizeof sp, "sched.policy=%s", sched_policy_names[s]);
            snprintf(lp, sizeof lp, "l1d.policy=%s", l1);
            const char *sets[] = {"gpu.sms=1", sp, lp, NULL};
            sim_metrics m = run("kmeans", sets, wp);
            assert_double_near(m.ctas, 1, 0);
            assert_double_less(0, m.global_loads);
            assert_double_near(m.l1d_hits + m.l1d_misses + m.l1d_merged, m.l1d_accesses, 0);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dacache_fully_caches_divergent_loads),
        cmocka_unit_test(test_coherent_workload_ipc),
        cmocka_unit_test(test_every_policy_with_every_scheduler),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
