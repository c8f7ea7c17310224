/* Belady-optimal replacement (core/analysis/belady.h) as the bound of every L1D policy: on
 * hand-checked streams; over random streams, where MIN never misses more than a policy that
 * always allocates and MIN with bypass never more than any policy, on the same stream and
 * geometry, every policy and alias replayed through the real L1D with fills at once
 * (tests/support/policy_harness.h); and on a simulated run's own stream, which it never misses
 * more than. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explorer/catalog.h"
#include "explorer/simulate.h"
#include "core/analysis/belady.h"
#include "core/sim/l1d.h"
#include "core/config/params.h"
#include "core/util/rng.h"
#include "policies/registry.h"
#include "tests/support/policy_harness.h"
#include "tests/support/support.h"

/* Belady over the same stream: stores drop a line only when it was valid in the cache, which
 * with fills at once is whenever it is present: the same as an unconditional drop. */
static belady_result opt(int sets, int ways, int hash, const ph_access *s, size_t n)
{
    belady_access *a = calloc(n ? n : 1, sizeof *a);
    for (size_t i = 0; i < n; i++)
        a[i] = (belady_access){s[i].line, s[i].store};
    belady_geometry g = {sets, ways, PH_LINE, hash};
    belady_result b;
    assert_int_equal(belady_run(&g, a, n, &b), 0);
    free(a);
    return b;
}

/* Does this policy always allocate (never bypass)? */
static int allocates(const char *policy)
{
    return strcmp(policy, "dacache") != 0;
}

static void check_belady_bound(const char *what, int sets, int ways, int hash, const ph_access *s,
                               size_t n)
{
    belady_result b = opt(sets, ways, hash, s, n);
    assert_in_range(b.bypass_misses, 0, b.misses);
    /* every policy, and every alias (DaCache's variants) */
    size_t id = (size_t)param_lookup("l1d.policy");
    const char *pol;
    for (size_t k = 0; (pol = param_choice_name(&sim_catalog, id, k)); k++) {
        ph_replay c = ph_l1d_replay(pol, NULL, sets, ways, hash, s, n);
        if (b.bypass_misses > c.misses)
            fail_msg("%s %dx%d: %s missed %llu, optimal with bypass %llu", what, sets, ways, pol,
                     (unsigned long long)c.misses, (unsigned long long)b.bypass_misses);
        if (allocates(pol) && b.misses > c.misses)
            fail_msg("%s %dx%d: %s missed %llu, Belady %llu", what, sets, ways, pol,
                     (unsigned long long)c.misses, (unsigned long long)b.misses);
        if (!allocates(pol) && c.bypasses == 0 && c.misses < b.misses)
            fail_msg("%s %dx%d: %s bypassed nothing and missed %llu, below Belady's %llu", what,
                     sets, ways, pol, (unsigned long long)c.misses, (unsigned long long)b.misses);
    }
}

static void test_belady_random_streams(void **state)
{
    (void)state;
    wt_rng rng;
    wt_rng_seed(&rng, 42);
    const int geo[][3] = {{1, 4, 0}, {4, 4, 0}, {8, 2, 1}, {2, 8, 1}, {8, 16, 0}};
    for (size_t g = 0; g < sizeof geo / sizeof geo[0]; g++) {
        for (int trial = 0; trial < 4; trial++) {
            int sets = geo[g][0], ways = geo[g][1], hash = geo[g][2];
            uint64_t universe = (uint64_t)(sets * ways) * (uint64_t)(2 + trial);
            size_t n = 3000;
            ph_access *s = ph_random_stream(&rng, n, universe, trial % 2);
            check_belady_bound("random", sets, ways, hash, s, n);
            free(s);
        }
    }
}

/* Belady on hand-checked streams: 1 set of 2 ways. */
static void test_belady_small(void **state)
{
    (void)state;
    const uint64_t seq[] = {1, 2, 3, 1, 2, 3};
    belady_access a[6];
    for (int i = 0; i < 6; i++)
        a[i] = (belady_access){seq[i] * PH_LINE, 0};
    belady_geometry g = {1, 2, PH_LINE, 0};
    belady_result b;
    assert_int_equal(belady_run(&g, a, 6, &b), 0);
    /* 1 2 miss; 3 misses and evicts 2 (1 comes back first); 1 hits; 2 misses, evicts 1 (never
     * again) ; 3 hits: 4 misses. With bypass: 3 is bypassed (its reuse is after 2's), 1 and 2
     * hit, 3 misses: 4 as well. */
    assert_int_equal(b.loads, 6);
    assert_int_equal(b.misses, 4);
    assert_int_equal(b.bypass_misses, 4);
    /* A B C A B: with bypass C goes around: A B hit: 3 misses; MIN 4 */
    const uint64_t seq2[] = {1, 2, 3, 1, 2};
    for (int i = 0; i < 5; i++)
        a[i] = (belady_access){seq2[i] * PH_LINE, 0};
    assert_int_equal(belady_run(&g, a, 5, &b), 0);
    assert_int_equal(b.misses, 4);
    assert_int_equal(b.bypass_misses, 3);
    /* an invalidation makes the line's next load a miss even for MIN */
    const belady_access inv[] = {{PH_LINE, 0}, {PH_LINE, 1}, {PH_LINE, 0}};
    assert_int_equal(belady_run(&g, inv, 3, &b), 0);
    assert_int_equal(b.loads, 2);
    assert_int_equal(b.misses, 2);
}

/* ----------------------------------------------------------- workload stream ---- */

typedef struct recorded {
    ph_access *a;
    size_t n, cap;
    uint64_t run_misses; /* miss and bypass outcomes */
    int sm;
} recorded;

static void record(void *arg, const l1_access_record *r)
{
    recorded *rec = arg;
    if (r->sm != rec->sm) return;
    int load = strcmp(r->kind, "load") == 0;
    if (load && strcmp(r->outcome, "reservation_fail") == 0) return;
    if (!load && strcmp(r->outcome, "hit") != 0) return;
    if (load && (!strcmp(r->outcome, "miss") || !strcmp(r->outcome, "bypass"))) rec->run_misses++;
    if (rec->n == rec->cap) {
        rec->cap = rec->cap ? 2 * rec->cap : 4096;
        rec->a = realloc(rec->a, rec->cap * sizeof *rec->a);
    }
    rec->a[rec->n++] = (ph_access){r->line, r->pc, r->warp, r->warp, 1, false, !load};
}

static void test_belady_workload_stream(void **state)
{
    (void)state;
    const char *pols[] = {"lru", "dacache"};
    for (int k = 0; k < 2; k++) {
        param_set *p = param_set_new();
        char err[512];
        char setting[64];
        snprintf(setting, sizeof setting, "%s", pols[k]);
        assert_int_equal(param_set_parse(p, "gpu.sms", "1", err, sizeof err), 0);
        assert_int_equal(param_set_parse(p, "l1d.policy", setting, err, sizeof err), 0);
        wl_override ov[] = {{"npoints", "512"}};
        workload *w = NULL;
        if (workload_load("kmeans", ov, 1, &w, err, sizeof err) != 0) fail_msg("%s", err);
        recorded rec = {0};
        belady_recorder *br = belady_recorder_new();
        sim_options opt2 = {0};
        opt2.l1_observer = record;
        opt2.l1_observer_arg = &rec;
        sim_metrics m;
        assert_int_equal(sim_run(p, w, &opt2, &m, err, sizeof err), SIM_OK);
        /* the run's own stream: Belady is a lower bound of the run's misses */
        opt2.l1_observer = belady_observe;
        opt2.l1_observer_arg = br;
        sim_metrics m2;
        assert_int_equal(sim_run(p, w, &opt2, &m2, err, sizeof err), SIM_OK);
        belady_result b;
        assert_int_equal(belady_recorder_result(br, p, &b, err, sizeof err), 0);
        assert_in_range(b.misses, 0, (uint64_t)m2.l1d_misses);
        assert_in_range(b.bypass_misses, 0, b.misses);
        assert_int_equal(b.loads, (uint64_t)m2.l1d_accesses);
        assert_int_equal(rec.run_misses, (uint64_t)m.l1d_misses);
        belady_fill_metrics(&b, &m2);
        assert_double_less(0, m2.belady_mpki);
        assert_double_in_range(m2.belady_mpki, 0, m2.mpki);
        /* the same stream through every policy */
        int sets = (int)param_get_int(p, "l1d.sets"), ways = (int)param_get_int(p, "l1d.ways");
        int hash = strcmp(param_get_choice(p, "l1d.hash"), "xor") == 0;
        check_belady_bound("kmeans", sets, ways, hash, rec.a, rec.n);
        free(rec.a);
        belady_recorder_free(br);
        workload_free(w);
        param_set_free(p);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_belady_small),
        cmocka_unit_test(test_belady_random_streams),
        cmocka_unit_test(test_belady_workload_stream),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
