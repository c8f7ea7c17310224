/* Properties of the L1D policies over random and workload streams, driving the real L1D with
 * fills at once: Belady-optimal replacement never misses more than any policy on the same
 * stream and geometry (MIN against the policies that always allocate, MIN with bypass against
 * every policy), and never more than a simulated run's own misses; LRU with more ways never
 * misses more; on a cyclic scan larger than the cache DRRIP misses fewer than LRU and DIP's
 * followers insert bimodally. */
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

#define LINE 128

/* One access of a stream: a load (with what a policy may know of it) or a store. */
typedef struct acc {
    uint64_t line;
    uint32_t pc;
    int warp, prio, div;
    bool critical, store;
} acc;

typedef struct counts {
    uint64_t misses, bypasses;
    sim_metrics m; /* the policy's collected statistics */
} counts;

/* Runs the stream through an L1D of the geometry with l1d.policy=`policy` (a policy or an
 * alias; "name=value" overrides in kv), every miss filled at once. */
static counts replay(const char *policy, const char *const *kv, int sets, int ways, int hash,
                     const acc *s, size_t n)
{
    counts c;
    memset(&c, 0, sizeof c);
    ph_l1d f;
    ph_l1d_make(&f, policy, (l1d_config){sets, ways, LINE, hash, 4, 4, 0, 0}, 48, 5, kv);
    l1d *l = f.c;
    for (size_t i = 0; i < n; i++) {
        if (s[i].store) {
            l1d_store(l, s[i].line);
            continue;
        }
        l1_request r = {s[i].line,     s[i].pc,  s[i].warp, s[i].prio, s[i].critical ? 9 : 0,
                        s[i].critical, s[i].div, false,     i};
        int mshr = -1, owner, ew;
        uint64_t el;
        l1_outcome o = l1d_load(l, &r, 0, 1, &mshr, &owner, &ew, &el);
        if (o == L1_RESFAIL) fail_msg("%s: a replay with every line filled", policy);
        if (o == L1_MISS) {
            uint32_t w[8];
            uint64_t line;
            l1d_fill(l, mshr, w, &line);
            c.misses++;
        }
        if (o == L1_BYPASSED) {
            c.misses++;
            c.bypasses++;
        }
        if (o != L1_HIT && o != L1_MISS && o != L1_BYPASSED) fail_msg("outcome %d", (int)o);
    }
    double sums[WT_POLICY_METRICS_MAX] = {0};
    l1d_collect(l, sums);
    const l1_policy_ops *ops = l1_policy_find(param_get_choice(f.p, "l1d.policy"));
    for (size_t k = 0; k < ops->nmetrics; k++)
        c.m.policy[metric_policy_slot(ops->metrics[k].name)] = sums[k];
    ph_l1d_free(&f);
    return c;
}

/* Belady over the same stream: stores drop a line only when it was valid in the cache, which
 * with fills at once is whenever it is present: the same as an unconditional drop. */
static belady_result opt(int sets, int ways, int hash, const acc *s, size_t n)
{
    belady_access *a = calloc(n ? n : 1, sizeof *a);
    for (size_t i = 0; i < n; i++)
        a[i] = (belady_access){s[i].line, s[i].store};
    belady_geometry g = {sets, ways, LINE, hash};
    belady_result b;
    assert_int_equal(belady_run(&g, a, n, &b), 0);
    free(a);
    return b;
}

static acc *random_stream(wt_rng *rng, size_t n, uint64_t universe, int stores)
{
    acc *s = calloc(n, sizeof *s);
    uint64_t hot = universe / 4 ? universe / 4 : 1;
    for (size_t i = 0; i < n; i++) {
        /* half the accesses go to a hot quarter: reuse for the policies to find */
        uint64_t blk = wt_rng_below(rng, 2) ? wt_rng_below(rng, hot) : wt_rng_below(rng, universe);
        s[i].line = blk * LINE;
        s[i].pc = (uint32_t)wt_rng_below(rng, 12);
        s[i].warp = (int)wt_rng_below(rng, 48);
        s[i].prio = (int)wt_rng_below(rng, 48);
        s[i].div = wt_rng_below(rng, 3) == 0 ? 1 : 1 + (int)wt_rng_below(rng, 32);
        s[i].critical = wt_rng_below(rng, 2) == 1;
        s[i].store = stores && wt_rng_below(rng, 20) == 0;
    }
    return s;
}

/* Does this policy always allocate (never bypass)? */
static int allocates(const char *policy)
{
    return strcmp(policy, "dacache") != 0;
}

static void check_belady_bound(const char *what, int sets, int ways, int hash, const acc *s,
                               size_t n)
{
    belady_result b = opt(sets, ways, hash, s, n);
    assert_true(b.bypass_misses <= b.misses);
    /* every policy, and every alias (DaCache's variants) */
    size_t id = (size_t)param_lookup("l1d.policy");
    const char *pol;
    for (size_t k = 0; (pol = param_choice_name(&sim_catalog, id, k)); k++) {
        counts c = replay(pol, NULL, sets, ways, hash, s, n);
        if (b.bypass_misses > c.misses)
            fail_msg("%s %dx%d: %s missed %llu, optimal with bypass %llu", what, sets, ways, pol,
                     (unsigned long long)c.misses, (unsigned long long)b.bypass_misses);
        if (allocates(pol) && b.misses > c.misses)
            fail_msg("%s %dx%d: %s missed %llu, Belady %llu", what, sets, ways, pol,
                     (unsigned long long)c.misses, (unsigned long long)b.misses);
        if (!allocates(pol)) assert_true(c.bypasses > 0 || c.misses >= b.misses);
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
            acc *s = random_stream(&rng, n, universe, trial % 2);
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
        a[i] = (belady_access){seq[i] * LINE, 0};
    belady_geometry g = {1, 2, LINE, 0};
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
        a[i] = (belady_access){seq2[i] * LINE, 0};
    assert_int_equal(belady_run(&g, a, 5, &b), 0);
    assert_int_equal(b.misses, 4);
    assert_int_equal(b.bypass_misses, 3);
    /* an invalidation makes the line's next load a miss even for MIN */
    const belady_access inv[] = {{LINE, 0}, {LINE, 1}, {LINE, 0}};
    assert_int_equal(belady_run(&g, inv, 3, &b), 0);
    assert_int_equal(b.loads, 2);
    assert_int_equal(b.misses, 2);
}

/* ----------------------------------------------------------- workload stream ---- */

typedef struct recorded {
    acc *a;
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
    rec->a[rec->n++] = (acc){r->line, r->pc, r->warp, r->warp, 1, false, !load};
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
        assert_true(b.misses <= (uint64_t)m2.l1d_misses);
        assert_true(b.bypass_misses <= b.misses);
        assert_true(b.loads == (uint64_t)m2.l1d_accesses);
        assert_true(rec.run_misses == (uint64_t)m.l1d_misses);
        belady_fill_metrics(&b, &m2);
        assert_true(m2.belady_mpki > 0 && m2.belady_mpki <= m2.mpki);
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

/* ------------------------------------------------------------------ LRU, scan ---- */

static void test_lru_more_ways(void **state)
{
    (void)state;
    wt_rng rng;
    wt_rng_seed(&rng, 7);
    for (int trial = 0; trial < 6; trial++) {
        int sets = 1 << (trial % 3);
        acc *s = random_stream(&rng, 4000, (uint64_t)(sets * 12), trial % 2);
        uint64_t prev = UINT64_MAX;
        for (int ways = 1; ways <= 16; ways++) {
            counts c = replay("lru", NULL, sets, ways, 0, s, 4000);
            if (c.misses > prev)
                fail_msg("%d sets: %d ways missed %llu, %d ways %llu", sets, ways,
                         (unsigned long long)c.misses, ways - 1, (unsigned long long)prev);
            prev = c.misses;
        }
        free(s);
    }
}

static void test_cyclic_scan(void **state)
{
    (void)state;
    /* 8 sets x 4 ways = 32 lines; a loop over 48 lines, 60 times */
    const int sets = 8, ways = 4, lines = 48, rounds = 60;
    size_t n = (size_t)lines * rounds;
    acc *s = calloc(n, sizeof *s);
    for (size_t i = 0; i < n; i++)
        s[i] = (acc){(uint64_t)(i % lines) * LINE, 1, 0, 0, 1, false, false};
    counts lru = replay("lru", NULL, sets, ways, 0, s, n);
    const char *drrip[] = {"rrip.insertion=drrip", NULL};
    counts rr = replay("rrip", drrip, sets, ways, 0, s, n);
    counts dip = replay("dip", NULL, sets, ways, 0, s, n);
    belady_result b = opt(sets, ways, 0, s, n);
    print_message("cyclic scan of %d lines over %d: LRU %llu, DRRIP %llu, DIP %llu, Belady %llu "
                  "misses of %zu\n",
                  lines, sets * ways, (unsigned long long)lru.misses, (unsigned long long)rr.misses,
                  (unsigned long long)dip.misses, (unsigned long long)b.misses, n);
    assert_int_equal(lru.misses, n); /* LRU thrashes */
    assert_true(rr.misses < lru.misses);
    assert_true(dip.misses < lru.misses);
    /* the followers chose bimodal insertion nearly always */
    assert_true(metric_get(&dip.m, "duel_follower_fills") > 0);
    assert_true(metric_get(&dip.m, "duel_bimodal_fills") >=
                0.9 * metric_get(&dip.m, "duel_follower_fills"));
    assert_true(metric_get(&rr.m, "duel_bimodal_fills") >=
                0.9 * metric_get(&rr.m, "duel_follower_fills"));
    free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_belady_small),
        cmocka_unit_test(test_belady_random_streams),
        cmocka_unit_test(test_belady_workload_stream),
        cmocka_unit_test(test_lru_more_ways),
        cmocka_unit_test(test_cyclic_scan),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
