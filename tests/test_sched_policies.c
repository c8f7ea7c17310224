/* Unit tests of each warp scheduler on hand-made warp views and event sequences, one section
 * per scheduler in registry order (policies/list.h): LRR and GTO (hand-checked picks and their
 * properties over random ready sets), two-level (fetch groups and when their turn ends), SWL
 * (the active set, both readings), CCWS (victim tag arrays, score arithmetic and cutoff, per-SM
 * scoring), CAWS (count-down counters of each variant), gCAWS (against CPL's counters) and
 * GPGPU-Sim's two-level active scheduler (its pools, the long-operation readings, the closed
 * form of the cycles it sleeps through). What every scheduler must do is checked in
 * test_policy_conformance.c; the schedulers in whole simulations in test_sched_behaviour.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "explorer/catalog.h"
#include "core/sim/cpl.h"
#include "core/isource.h"
#include "core/config/params.h"
#include "core/policy.h"
#include "core/util/rng.h"
#include "policies/registry.h"
#include "tests/support/policy_harness.h"
#include "tests/support/support.h"

/* ------------------------------------------------------- driving a scheduler ---- */

/* Scheduler `name` with 1 scheduler per SM, 16 warp slots, `sets` "name=value" overrides
 * (NULL-terminated) and an optional CPL. */
static void make(ph_sched *s, const char *name, const char *const *sets, const cpl *c)
{
    warp_criticality crit = cpl_as_criticality(c);
    ph_sched_make(s, name, (sched_env){0, 0, 16, 1, NULL, c ? &crit : NULL, NULL, NULL}, 9, sets);
}

/* The scheduler's VTA hits: its collect() into one sum per metric it declares, the one named
 * vta_hits. */
static double vta_hits(ph_sched *s)
{
    double sums[WT_POLICY_METRICS_MAX] = {0};
    assert_in_range(s->ops->nmetrics, 0, WT_POLICY_METRICS_MAX);
    s->ops->collect(s->self, sums);
    for (size_t i = 0; i < s->ops->nmetrics; i++)
        if (strcmp(s->ops->metrics[i].name, "vta_hits") == 0) return sums[i];
    fail_msg("%s declares no metric vta_hits", s->ops->name);
    return 0;
}

static void start(ph_sched *s, int slot, int cta_slot, uint64_t oracle, uint64_t now)
{
    s->v[slot].cta_slot = cta_slot;
    s->v[slot].oracle_cycles = oracle;
    if (s->ops->on_warp_start) s->ops->on_warp_start(s->self, &s->v[slot], now);
}

static void exit_warp(ph_sched *s, int slot, uint64_t now)
{
    if (s->ops->on_warp_exit) s->ops->on_warp_exit(s->self, slot, now);
}

/* Picks among the ready slots (ascending, -1 terminated) at cycle now and reports the issue as
 * the SM does. Returns the slot, or -1 when the scheduler issues nothing. */
static int pick_at(ph_sched *s, const int *ready, uint64_t now)
{
    const warp_view *list[64];
    int n = 0;
    while (ready[n] >= 0) {
        list[n] = &s->v[ready[n]];
        n++;
    }
    if (s->ops->on_cycles) s->ops->on_cycles(s->self, now ? now - 1 : 0, now);
    int k = ph_sched_pick(s, list, n, now);
    return k < 0 ? -1 : list[k]->slot;
}

#define R(...) ((const int[]){__VA_ARGS__, -1})

/* The LRR and GTO tests give each pick its own views, with ages of their own. */

/* Scheduler `name` with its defaults, 1 scheduler per SM, 48 warp slots. */
static void sched_make(ph_sched *s, const char *name)
{
    ph_sched_make(s, name, (sched_env){0, 0, 48, 1, NULL, NULL, NULL, NULL}, 5, NULL);
}

/* Builds a ready list from slots (ascending) with the given ages; returns the picked slot and
 * reports the issue as the SM does. */
static int pick(ph_sched *s, const int *slots, const uint64_t *ages, int n, uint64_t now)
{
    warp_view v[64];
    memset(v, 0, sizeof v);
    for (int i = 0; i < n; i++) {
        v[i].slot = slots[i];
        v[i].warp_in_cta = slots[i] % 4;
        v[i].age = ages ? ages[i] : (uint64_t)slots[i];
    }
    const warp_view *list[64];
    for (int i = 0; i < n; i++)
        list[i] = &v[i];
    int k = ph_sched_pick(s, list, n, now);
    assert_in_range(k, 0, n - 1);
    return v[k].slot;
}

static bool mock_stalled(const void *ctx, int slot)
{
    return ((const bool *)ctx)[slot];
}

/* ---------------------------------------------------- lrr: loose round-robin ---- */

static void test_lrr(void **state)
{
    (void)state;
    ph_sched s;
    sched_make(&s, "lrr");
    const int all[] = {0, 1, 2, 3};
    /* everyone ready: strict turns, wrapping */
    for (int round = 0; round < 3; round++)
        for (int w = 0; w < 4; w++)
            assert_int_equal(pick(&s, all, NULL, 4, 0), w);
    /* last issuer was 3: the first ready slot after it, then wrap to the lowest */
    const int some[] = {0, 2, 5};
    assert_int_equal(pick(&s, some, NULL, 3, 0), 5);
    assert_int_equal(pick(&s, some, NULL, 3, 0), 0);
    assert_int_equal(pick(&s, some, NULL, 3, 0), 2);
    /* warps that cannot issue pass their turn to the next in slot order */
    const int late[] = {1, 3, 5, 7};
    assert_int_equal(pick(&s, late, NULL, 4, 0), 3);
    assert_int_equal(pick(&s, late, NULL, 4, 0), 5);
    const int low[] = {1, 2};
    assert_int_equal(pick(&s, low, NULL, 2, 0), 1); /* nothing after 5: wrap */
    const int one[] = {1};
    assert_int_equal(pick(&s, one, NULL, 1, 0), 1); /* the only ready warp, even if last */
    assert_int_equal(pick(&s, one, NULL, 1, 0), 1);
    const int two[] = {0, 1};
    assert_int_equal(pick(&s, two, NULL, 2, 0), 0);
    /* ages do not matter to LRR */
    const uint64_t ages[] = {9, 1, 5};
    const int three[] = {4, 6, 9};
    assert_int_equal(pick(&s, three, ages, 3, 0), 4);
    ph_sched_free(&s);

    /* property: over random ready sets, LRR picks the first ready slot after the last pick,
     * else the first ready slot */
    sched_make(&s, "lrr");
    wt_rng rng;
    wt_rng_seed(&rng, 11);
    int last = -1;
    for (int it = 0; it < 5000; it++) {
        int slots[48], n = 0;
        uint64_t bits = wt_rng_next(&rng);
        for (int w = 0; w < 48; w++)
            if (bits >> w & 1) slots[n++] = w;
        if (n == 0) continue;
        int want = slots[0];
        for (int i = 0; i < n; i++)
            if (slots[i] > last) {
                want = slots[i];
                break;
            }
        assert_int_equal(pick(&s, slots, NULL, n, (uint64_t)it), want);
        last = want;
    }
    ph_sched_free(&s);
}

/* --------------------------------------------------- gto: greedy-then-oldest ---- */

static void test_gto(void **state)
{
    (void)state;
    ph_sched s;
    sched_make(&s, "gto");
    /* slots 0..3 with ages: slot 2 is the oldest, then 0, 3, 1 */
    const int all[] = {0, 1, 2, 3};
    const uint64_t ages[] = {10, 40, 5, 20};
    assert_int_equal(pick(&s, all, ages, 4, 0), 2); /* oldest */
    assert_int_equal(pick(&s, all, ages, 4, 1), 2); /* greedy */
    assert_int_equal(pick(&s, all, ages, 4, 2), 2);
    /* 2 stalls: the oldest of the rest */
    const int no2[] = {0, 1, 3};
    const uint64_t ages_no2[] = {10, 40, 20};
    assert_int_equal(pick(&s, no2, ages_no2, 3, 3), 0);
    /* 2 is ready again but 0 is now the greedy warp, and stays so while ready */
    assert_int_equal(pick(&s, all, ages, 4, 4), 0);
    assert_int_equal(pick(&s, all, ages, 4, 5), 0);
    /* 0 stalls: back to the oldest, 2 */
    const int no0[] = {1, 2, 3};
    const uint64_t ages_no0[] = {40, 5, 20};
    assert_int_equal(pick(&s, no0, ages_no0, 3, 6), 2);
    /* only the youngest is ready: it becomes greedy */
    const int just1[] = {1};
    const uint64_t age1[] = {40};
    assert_int_equal(pick(&s, just1, age1, 1, 7), 1);
    assert_int_equal(pick(&s, all, ages, 4, 8), 1);
    /* age, not slot order, decides: the oldest is in the highest slot */
    ph_sched_free(&s);
    sched_make(&s, "gto");
    const int slots[] = {3, 7, 11};
    const uint64_t rev[] = {30, 20, 10};
    assert_int_equal(pick(&s, slots, rev, 3, 0), 11);
    assert_int_equal(pick(&s, slots, rev, 3, 1), 11);
    ph_sched_free(&s);

    /* property: the greedy warp while it is ready, else the oldest ready warp */
    sched_make(&s, "gto");
    wt_rng rng;
    wt_rng_seed(&rng, 12);
    uint64_t age[48];
    for (int w = 0; w < 48; w++)
        age[w] = wt_rng_below(&rng, 1000) * 48 + (uint64_t)w; /* distinct */
    int greedy = -1, kept = 0, switched = 0;
    for (int it = 0; it < 5000; it++) {
        int sl[48], n = 0;
        uint64_t ag[48];
        uint64_t bits = wt_rng_next(&rng) & wt_rng_next(&rng); /* about a quarter ready */
        for (int w = 0; w < 48; w++)
            if (bits >> w & 1) {
                sl[n] = w;
                ag[n++] = age[w];
            }
        if (n == 0) continue;
        int want = -1;
        for (int i = 0; i < n; i++)
            if (sl[i] == greedy) want = greedy;
        if (want < 0) {
            want = sl[0];
            for (int i = 1; i < n; i++)
                if (age[sl[i]] < age[want]) want = sl[i];
            switched++;
        } else {
            kept++;
        }
        assert_int_equal(pick(&s, sl, ag, n, (uint64_t)it), want);
        greedy = want;
    }
    if (kept <= 100 || switched <= 100)
        fail_msg("greedy warp kept %d times, switched %d times: expected over 100 each", kept,
                 switched);
    ph_sched_free(&s);
}

/* --------------------------------------------------- two_level: fetch groups ---- */

static void test_two_level_gto(void **state)
{
    (void)state;
    ph_sched s;
    make(&s, "two_level", NULL, NULL); /* groups of 2, GTO within and between */
    for (int w = 0; w < 8; w++)
        start(&s, w, 0, 0, 0);
    /* groups {0,1} {2,3} {4,5} {6,7}: the oldest ready warp's group first, greedy in it */
    assert_int_equal(pick_at(&s, R(0, 1, 2, 3, 4, 5, 6, 7), 1), 0);
    assert_int_equal(pick_at(&s, R(0, 1, 2, 3, 4, 5, 6, 7), 2), 0);
    assert_int_equal(pick_at(&s, R(1, 2, 3), 3), 1); /* 0 stalls: its group-mate */
    /* the whole group stalls: the group of the oldest ready warp */
    assert_int_equal(pick_at(&s, R(3, 4, 5), 4), 3);
    /* 0 is ready again and older, but the current group {2,3} still has a ready warp */
    assert_int_equal(pick_at(&s, R(0, 1, 2, 3), 5), 3);
    assert_int_equal(pick_at(&s, R(0, 1, 2), 6), 2);
    assert_int_equal(pick_at(&s, R(0, 1, 4), 7), 0); /* group {2,3} stalled: back to {0,1} */
    ph_sched_free(&s);

    /* groups of 4 */
    make(&s, "two_level", (const char *const[]){"two_level.group_size=4", NULL}, NULL);
    for (int w = 0; w < 8; w++)
        start(&s, w, 0, 0, 0);
    assert_int_equal(pick_at(&s, R(5, 6), 1), 5);
    assert_int_equal(pick_at(&s, R(0, 6), 2), 6); /* group {4..7} keeps the issue slot */
    assert_int_equal(pick_at(&s, R(0, 1), 3), 0);
    ph_sched_free(&s);
}

static void test_two_level_rr(void **state)
{
    (void)state;
    ph_sched s;
    make(&s, "two_level",
         (const char *const[]){"two_level.intra=rr", "two_level.inter=rr", "two_level.group_size=2",
                               NULL},
         NULL);
    for (int w = 0; w < 6; w++)
        start(&s, w, 0, 0, 0);
    /* round-robin inside group {0,1} */
    assert_int_equal(pick_at(&s, R(0, 1, 2, 3, 4, 5), 1), 0);
    assert_int_equal(pick_at(&s, R(0, 1, 2, 3, 4, 5), 2), 1);
    assert_int_equal(pick_at(&s, R(0, 1, 2, 3, 4, 5), 3), 0);
    /* group {0,1} stalled: the next group in order, {2,3}, not the oldest */
    assert_int_equal(pick_at(&s, R(3, 4, 5), 4), 3);
    assert_int_equal(pick_at(&s, R(2, 3, 4), 5), 2);
    assert_int_equal(pick_at(&s, R(2, 3, 4), 6), 3);
    /* {2,3} stalled: next is {4,5}; after it, wrap to {0,1}, whose turn is at 1 (0 issued
     * last in it) */
    assert_int_equal(pick_at(&s, R(0, 5), 7), 5);
    assert_int_equal(pick_at(&s, R(0, 1), 8), 1);
    ph_sched_free(&s);
}

/* Two-level keeps its fetch group until every warp of it is stalled on a long-latency event
 * (CCWS 5.1 after Narasiman et al.): a warp held for a cycle by a busy unit does not end the
 * group's turn. Groups of 2: {0, 1} and {2, 3}. */
static void test_two_level_switches_when_stalled(void **state)
{
    (void)state;
    const char *modes[] = {"stalled", "not_ready", "stalled_exclusive"};
    for (int m = 0; m < 3; m++) {
        const sched_ops *o = sched_policy_find("two_level");
        param_set *p = param_set_new();
        char err[256];
        assert_int_equal(param_set_parse(p, "two_level.switch_on", modes[m], err, sizeof err), 0);
        bool stalled[4] = {false, false, false, false};
        warp_stalls ws = {stalled, mock_stalled, NULL, NULL, NULL};
        wt_rng rng;
        wt_rng_seed(&rng, 1);
        sched_env env = {0, 0, 4, 1, &rng, NULL, NULL, &ws};
        void *self;
        assert_int_equal(o->create(&self, &env, p, err, sizeof err), 0);
        warp_view v[4];
        const warp_view *all[4], *others[2] = {&v[2], &v[3]}, *back[3] = {&v[1], &v[2], &v[3]};
        for (int w = 0; w < 4; w++) {
            v[w] = (warp_view){.slot = w, .age = (uint64_t)w, .cls = IC_INT};
            all[w] = &v[w];
        }
        assert_int_equal(o->pick(self, all, 4, 0), 0); /* group 0, its oldest */
        /* 0 waits on memory, 1 on the busy unit: only group 1 is ready */
        stalled[0] = true;
        int fill = o->pick(self, others, 2, 1);
        if (m == 2) {
            assert_int_equal(fill, -1); /* exclusive: group 0 keeps the scheduler */
        } else {
            assert_int_equal(fill, 0); /* warp 2 fills the cycle */
        }
        /* 1 is ready again: group 0 still has priority, unless the fill moved the turn */
        int next = o->pick(self, back, 3, 2);
        assert_int_equal(back[next]->slot, m == 1 ? 2 : 1);
        /* once 1 waits on memory too, group 0 is stalled: the turn goes to group 1 */
        stalled[1] = true;
        assert_int_equal(o->pick(self, others, 2, 3), 0);
        stalled[0] = stalled[1] = false;
        assert_int_equal(back[o->pick(self, back, 3, 4)]->slot, 2); /* greedy in group 1 */
        o->destroy(self);
        param_set_free(p);
    }
}

/* ------------------------------------------------- swl: static warp limiting ---- */

static void test_swl(void **state)
{
    (void)state;
    ph_sched s;
    make(&s, "swl", (const char *const[]){"swl.limit=2", NULL}, NULL);
    for (int w = 0; w < 4; w++)
        start(&s, w, 0, 0, 0);
    /* active: the two oldest, 0 and 1; GTO among them */
    assert_int_equal(pick_at(&s, R(0, 1, 2, 3), 1), 0);
    assert_int_equal(pick_at(&s, R(0, 1, 2, 3), 2), 0);
    assert_int_equal(pick_at(&s, R(1, 2, 3), 3), 1);
    /* both active warps stalled: nothing issues, the others wait */
    assert_int_equal(pick_at(&s, R(2, 3), 4), -1);
    /* 0 finishes: 2 becomes active */
    exit_warp(&s, 0, 5);
    assert_int_equal(pick_at(&s, R(2, 3), 6), 2);
    /* 1 reaches a barrier: it leaves the active set so the rest of its CTA can reach it */
    s.v[1].cls = IC_BARRIER;
    assert_int_equal(pick_at(&s, R(1, 3), 7), 1);
    s.v[1].cls = IC_INT;
    assert_int_equal(pick_at(&s, R(3), 8), 3);
    /* released, 1 is active again and 3 waits */
    assert_int_equal(pick_at(&s, R(1, 3), 9), 1);
    assert_int_equal(pick_at(&s, R(3), 10), -1);
    ph_sched_free(&s);
}

/* swl.reading=gpgpusim, GPGPU-Sim's warp_limiting: the greedy warp is tried first even when
 * it is no longer among the limit's oldest, and waiting warps (an atomic in flight, as the SM
 * reports through warp_stalls.waiting) do not count toward the limit. Limit 2, warps 0..3. */
static void test_swl_gpgpusim_reading(void **state)
{
    (void)state;
    bool waiting[4] = {false, false, false, false};
    warp_stalls ws = {waiting, mock_stalled, mock_stalled, mock_stalled, NULL};
    ph_sched s;
    ph_sched_make(&s, "swl", (sched_env){0, 0, 4, 1, NULL, NULL, NULL, &ws}, 9,
                  (const char *const[]){"swl.limit=2", "swl.reading=gpgpusim", NULL});
    for (int w = 0; w < 4; w++)
        start(&s, w, 0, 0, 0);
    assert_int_equal(pick_at(&s, R(2, 3), 1), -1); /* 0 and 1 are the active two */
    waiting[0] = true;                             /* 0's atomic in flight: 1 and 2 active */
    assert_int_equal(pick_at(&s, R(2, 3), 2), 2);
    waiting[0] = false; /* back: 0 and 1 are the oldest two, but 2 issued last and stays */
    assert_int_equal(pick_at(&s, R(2, 3), 3), 2);
    assert_int_equal(pick_at(&s, R(0, 2, 3), 4), 2); /* greedy first */
    assert_int_equal(pick_at(&s, R(0, 3), 5), 0);    /* 2 stalls: the oldest active */
    assert_int_equal(pick_at(&s, R(2, 3), 6), -1);   /* 0 greedy now; 2 is third oldest */
    ph_sched_free(&s);

    /* the paper's reading counts the waiting warp: 2 stays out */
    waiting[0] = true;
    ph_sched_make(&s, "swl", (sched_env){0, 0, 4, 1, NULL, NULL, NULL, &ws}, 9,
                  (const char *const[]){"swl.limit=2", NULL});
    for (int w = 0; w < 4; w++)
        start(&s, w, 0, 0, 0);
    assert_int_equal(pick_at(&s, R(2, 3), 1), -1);
    ph_sched_free(&s);
}

/* -------------------------------- ccws: cache-conscious wavefront scheduling ---- */

static bool can_load(ph_sched *s, int w)
{
    return s->ops->may_issue_load(s->self, w);
}

static void l1(ph_sched *s, int kind, int warp, uint64_t line)
{
    l1_event e = {(uint8_t)kind, warp, line, 0, 0};
    s->ops->on_l1_event(s->self, &e);
}

static void test_ccws_scores_and_cutoff(void **state)
{
    (void)state;
    ph_sched s;
    /* Table 3 defaults: K = 8, base 100, 16 entries 8-way */
    make(&s, "ccws", NULL, NULL);
    for (int w = 0; w < 4; w++)
        start(&s, w, 0, 0, 0);
    for (int w = 0; w < 4; w++)
        assert_true(can_load(&s, w));
    /* 10 instructions issued */
    for (int i = 0; i < 10; i++)
        assert_int_equal(pick_at(&s, R(0), 0), 0);
    /* warp 0 reserved line 0x1000, the L1D evicts it, warp 0 misses on it: a VTA hit */
    l1(&s, L1E_EVICT, 0, 0x1000);
    l1(&s, L1E_MISS, 1, 0x1000); /* warp 1 never had it: no hit */
    assert_int_equal((int)vta_hits(&s), 0);
    l1(&s, L1E_MISS, 0, 0x1000);
    assert_int_equal((int)vta_hits(&s), 1);
    /* LLDS = 1/10 * 8 * (4 x 100) = 320: stack 0 (320), 1, 2, 3 (100 each); cutoff 400: 2
     * starts at 420 and 3 at 520, above it */
    assert_true(can_load(&s, 0));
    assert_true(can_load(&s, 1));
    assert_false(can_load(&s, 2));
    assert_false(can_load(&s, 3));
    /* a VTA hit removes the tag: the same miss again is no hit */
    l1(&s, L1E_MISS, 0, 0x1000);
    assert_int_equal((int)vta_hits(&s), 1);
    /* scores fall one point per cycle: after 120 cycles 0 has 200, the stack starts 0, 200,
     * 300 and 400: 3 is at the cutoff, still held */
    s.ops->on_cycles(s.self, 100, 220);
    assert_true(can_load(&s, 2));
    assert_false(can_load(&s, 3));
    s.ops->on_cycles(s.self, 220, 221); /* 199: 3 starts at 399 */
    assert_true(can_load(&s, 3));
    /* decay stops at the base score: a long idle span */
    s.ops->on_cycles(s.self, 221, 100000);
    for (int w = 0; w < 4; w++)
        assert_true(can_load(&s, w));
    /* second hit, by warp 2: LLDS = 2/10 * 8 * 400 = 640 >= the cutoff; only 2 may load */
    l1(&s, L1E_EVICT, 2, 0x2000);
    l1(&s, L1E_MISS, 2, 0x2000);
    assert_true(can_load(&s, 2));
    assert_false(can_load(&s, 0));
    assert_false(can_load(&s, 1));
    assert_false(can_load(&s, 3));
    /* a warp leaves: the cutoff becomes 3 x 100 */
    exit_warp(&s, 3, 0);
    assert_true(can_load(&s, 2));
    assert_false(can_load(&s, 0));
    ph_sched_free(&s);
}

static void test_ccws_cutoff_is_per_live_warp(void **state)
{
    (void)state;
    ph_sched s;
    make(&s, "ccws", (const char *const[]){"ccws.k_throttle=1", "ccws.base_score=10", NULL}, NULL);
    for (int w = 0; w < 8; w++)
        start(&s, w, 0, 0, 0);
    for (int i = 0; i < 4; i++)
        pick_at(&s, R(0, 1, 2, 3, 4, 5, 6, 7), 0);
    /* one hit in 4 instructions: LLDS = 1/4 * 1 * (8 x 10) = 20; cutoff 80: stack 5 (20), then
     * 0..4, 6, 7 at 10 each by age: 7 starts at 20 + 60 = 80, held */
    l1(&s, L1E_EVICT, 5, 0x40);
    l1(&s, L1E_MISS, 5, 0x40);
    for (int w = 0; w < 7; w++)
        assert_true(can_load(&s, w));
    assert_false(can_load(&s, 7));
    ph_sched_free(&s);
}

/* CCWS 3.3 keeps one scoring system per SM: with two schedulers, a warp of one that loses
 * locality raises the cutoff stack for the warps of both. Per scheduler (ccws.scope=scheduler),
 * the other scheduler's warps would not see it. */
static void test_ccws_scores_are_per_sm(void **state)
{
    (void)state;
    for (int per_sched = 0; per_sched <= 1; per_sched++) {
        const sched_ops *o = sched_policy_find("ccws");
        param_set *p = param_set_new();
        char err[256];
        assert_int_equal(
            param_set_parse(p, "ccws.scope", per_sched ? "scheduler" : "sm", err, sizeof err), 0);
        wt_rng rng;
        wt_rng_seed(&rng, 1);
        sched_env env = {0, 0, 4, 2, &rng, NULL, NULL, NULL};
        void *shared = NULL, *inst[2];
        assert_int_equal(o->create_shared(&shared, &env, p), 0);
        assert_int_equal(shared == NULL, per_sched);
        env.shared = shared;
        warp_view v[4];
        for (int k = 0; k < 2; k++) {
            env.scheduler = k;
            assert_int_equal(o->create(&inst[k], &env, p, err, sizeof err), 0);
        }
        /* warps 0 and 2 belong to scheduler 0, 1 and 3 to scheduler 1 */
        for (int w = 0; w < 4; w++) {
            v[w] = (warp_view){.slot = w, .age = (uint64_t)w, .cls = IC_INT};
            o->on_warp_start(inst[w % 2], &v[w], 0);
        }
        /* warp 0 issues once, loses a line and misses on it: LLDS = 1/1 x 8 x cutoff */
        o->on_issue(inst[0], &v[0], 1);
        l1_event ev = {L1E_EVICT, 0, 128, 0, 2};
        o->on_l1_event(inst[0], &ev);
        ev.kind = L1E_MISS;
        o->on_l1_event(inst[0], &ev);
        assert_true(o->may_issue_load(inst[0], 0));
        assert_false(o->may_issue_load(inst[0], 2));
        /* scheduler 1's warps: throttled by the SM's stack, free under their own */
        assert_int_equal(o->may_issue_load(inst[1], 1), per_sched);
        assert_int_equal(o->may_issue_load(inst[1], 3), per_sched);
        /* one count of the SM's VTA hits, however many schedulers */
        double sums[WT_POLICY_METRICS_MAX] = {0};
        o->collect(inst[0], sums);
        o->collect(inst[1], sums);
        assert_int_equal(o->nmetrics, 1);
        assert_string_equal(o->metrics[0].name, "vta_hits");
        assert_int_equal((int)sums[0], 1);
        for (int k = 0; k < 2; k++)
            o->destroy(inst[k]);
        o->destroy_shared(shared);
        param_set_free(p);
    }
}

static void test_ccws_vta_associativity(void **state)
{
    (void)state;
    ph_sched s;
    /* one fully associative set of 4 tags per warp */
    make(&s, "ccws", (const char *const[]){"ccws.vta_entries=4", "ccws.vta_ways=4", NULL}, NULL);
    start(&s, 0, 0, 0, 0);
    start(&s, 1, 0, 0, 0);
    pick_at(&s, R(0), 0);
    for (uint64_t line = 1; line <= 5; line++)
        l1(&s, L1E_EVICT, 0, line * 128);
    /* five tags into four entries: the first inserted is gone */
    l1(&s, L1E_MISS, 0, 128);
    l1(&s, L1E_MISS, 0, 256);
    l1(&s, L1E_MISS, 0, 640);
    l1(&s, L1E_MISS, 1, 384); /* another warp's array is its own */
    assert_int_equal((int)vta_hits(&s), 2);
    ph_sched_free(&s);

    /* entries must be a multiple of the ways */
    char err[256];
    const char *const twelve[] = {"ccws.vta_entries=12", NULL};
    assert_int_not_equal(ph_sched_try(&s, "ccws", (sched_env){0, 0, 16, 1, NULL, NULL, NULL, NULL},
                                      1, twelve, err, sizeof err),
                         0);
    assert_non_null(strstr(err, "ccws.vta_ways"));
}

/* ------------------------------------------- caws: criticality-aware, oracle ---- */

/* Two CTAs: CTA 0 holds warps 0 (oracle 1000 cycles) and 1 (500), CTA 1 warps 2 (200) and
 * 3 (100); scale 100. */
static void caws_make(ph_sched *s, const char *variant)
{
    char v[64];
    snprintf(v, sizeof v, "caws.variant=%s", variant);
    make(s, "caws", (const char *const[]){v, "caws.scale=100", NULL}, NULL);
    start(s, 0, 0, 1000, 0);
    start(s, 1, 0, 500, 0);
    start(s, 2, 1, 200, 0);
    start(s, 3, 1, 100, 0);
}

static void test_caws_blk(void **state)
{
    (void)state;
    ph_sched s;
    caws_make(&s, "blk");
    /* initial values: each CTA's slowest warp 100, the other 200 (twice as fast) */
    assert_int_equal(pick_at(&s, R(0, 1, 2, 3), 0), 0); /* 0 and 2 tie at 100: older */
    /* cycle 1: 0 restarted at 100 at cycle 0 and 2 started at 100: both at 99, older */
    assert_int_equal(pick_at(&s, R(0, 1, 2, 3), 1), 0);
    /* cycle 2: 0 at 99, 2 at 98 */
    assert_int_equal(pick_at(&s, R(0, 1, 2, 3), 2), 2);
    assert_int_equal(pick_at(&s, R(0, 1, 2, 3), 3), 0); /* 0 at 98, 2 at 99, 1 and 3 at 197 */
    assert_int_equal(pick_at(&s, R(1, 2, 3), 4), 2);
    /* ready 1 and 3 only: equal counters, older 1 */
    assert_int_equal(pick_at(&s, R(1, 3), 5), 1);
    /* by cycle 150, 1 restarted at 200 at cycle 5 (counter 55) and 3 reached 50: 3 first */
    assert_int_equal(pick_at(&s, R(1, 3), 150), 3);
    ph_sched_free(&s);
}

/* The slides' count-down counters stop at zero: warps whose counters ran out during a long
 * memory wait tie at zero and the oldest issues. Counting on below zero orders them by their
 * last issue instead, the least recently issued first, as LRR would. */
static void test_caws_counters_stop_at_zero(void **state)
{
    (void)state;
    for (int unbounded = 0; unbounded <= 1; unbounded++) {
        ph_sched s;
        make(&s, "caws",
             (const char *const[]){"caws.variant=blk", "caws.scale=100",
                                   unbounded ? "caws.counter=unbounded" : "caws.counter=saturating",
                                   NULL},
             NULL);
        start(&s, 0, 0, 1000, 0); /* the CTA's critical warp, the older: initial value 100 */
        start(&s, 1, 0, 500, 0);  /* twice as fast: 200 */
        assert_int_equal(pick_at(&s, R(1), 0), 1);   /* 1 restarts at 200: zero at 200 */
        assert_int_equal(pick_at(&s, R(0), 500), 0); /* 0 restarts at 100: zero at 600 */
        /* at 1000 both counters have run out */
        assert_int_equal(pick_at(&s, R(0, 1), 1000), unbounded ? 1 : 0);
        ph_sched_free(&s);
    }
}

static void test_caws_sm_and_avg(void **state)
{
    (void)state;
    ph_sched s;
    /* sm: against the SM's slowest (1000): 100, 200, 500, 1000 */
    caws_make(&s, "sm");
    assert_int_equal(pick_at(&s, R(1, 2, 3), 0), 1);
    assert_int_equal(pick_at(&s, R(2, 3), 10), 2);
    /* 2 restarted at 500 at cycle 10 (key 510), 3 still has 1000 from cycle 0 */
    assert_int_equal(pick_at(&s, R(2, 3), 11), 2);
    assert_int_equal(pick_at(&s, R(3), 12), 3);
    ph_sched_free(&s);

    /* avg: the mean is 450; 0 and 1 are slower: 100*450/1000 = 45 and 90; 2 and 3 are not
     * critical and restart at 100, however fast they are */
    caws_make(&s, "avg");
    assert_int_equal(pick_at(&s, R(0, 1, 2, 3), 0), 0);
    assert_int_equal(pick_at(&s, R(1, 2, 3), 1), 1);
    assert_int_equal(pick_at(&s, R(2, 3), 10), 2);
    /* 2 restarted at cycle 10 (key 110), 3 has 100 from cycle 0: 3, unlike sm */
    assert_int_equal(pick_at(&s, R(2, 3), 11), 3);
    /* warp 0 leaves: the mean of 500, 200, 100 is 266.7; 1 restarts at 53 */
    exit_warp(&s, 0, 12);
    assert_int_equal(pick_at(&s, R(1, 2, 3), 20), 1);  /* 1: key 1 + 53 = 54 */
    assert_int_equal(pick_at(&s, R(1, 2, 3), 100), 1); /* key 20 + 53 = 73 < 110, 111 */
    ph_sched_free(&s);

    /* without a profile every warp restarts at the scale: the least recently issued first */
    make(&s, "caws", NULL, NULL);
    for (int w = 0; w < 3; w++)
        start(&s, w, 0, 0, 0);
    assert_int_equal(pick_at(&s, R(0, 1, 2), 0), 0);
    assert_int_equal(pick_at(&s, R(0, 1, 2), 1), 0); /* all at 99: older */
    assert_int_equal(pick_at(&s, R(0, 1, 2), 2), 1);
    assert_int_equal(pick_at(&s, R(0, 1, 2), 3), 2);
    assert_int_equal(pick_at(&s, R(0, 1, 2), 4), 0);
    assert_non_null(s.ops->profile_policy);
    assert_string_equal(s.ops->profile_policy(s.p), "lrr");
    ph_sched_free(&s);
}

/* ------------------------------------------- gcaws: greedy criticality-aware ---- */

static void test_gcaws(void **state)
{
    (void)state;
    cpl *c = ph_cpl_make(NULL);
    ph_sched s;
    make(&s, "gcaws", NULL, c);
    for (int w = 0; w < 4; w++) {
        cpl_warp_start(c, w, 0, 0);
        start(&s, w, 0, 0, 0);
    }
    /* equal counters: the oldest, then greedily */
    assert_int_equal(pick_at(&s, R(0, 1, 2, 3), 0), 0);
    cpl_on_issue(c, 0, 0);
    assert_int_equal(pick_at(&s, R(0, 1, 2, 3), 1), 0);
    cpl_on_issue(c, 0, 1);
    /* 0 stalls; 2 takes a backward branch (its loop repeats 7 instructions): the most
     * critical ready warp */
    ph_cpl_branch(c, 2, 16, 10, 17, 1, 1);
    assert_int_equal(pick_at(&s, R(1, 2, 3), 2), 2);
    cpl_on_issue(c, 2, 2);
    /* greedy: 2 keeps the issue slot while it can issue, even once 3 is more critical */
    ph_cpl_branch(c, 3, 30, 10, 31, 1, 1);
    assert_int_equal(pick_at(&s, R(0, 1, 2, 3), 3), 2);
    /* 2 stalls: the most critical of the rest is 3 (21 instructions to repeat, 3 cycles of
     * stall), before 1 (3) and 0 (-2 + 2) */
    assert_int_equal(pick_at(&s, R(0, 1, 3), 4), 3);
    ph_sched_free(&s);
    cpl_destroy(c);

    /* without a predictor: GTO */
    make(&s, "gcaws", NULL, NULL);
    assert_int_equal(pick_at(&s, R(2, 3), 0), 2);
    assert_int_equal(pick_at(&s, R(1, 2, 3), 1), 2);
    assert_int_equal(pick_at(&s, R(1, 3), 2), 1);
    ph_sched_free(&s);
}

/* --------------------------------------- two_level_active: GPGPU-Sim's pools ---- */

/* GPGPU-Sim's two_level_active with a pool of 2 over slots 0-3 (one scheduler): pool [0 1],
 * queue [2 3]. A waiting warp (long_wait) leaves the pool for the back of the queue and the
 * queue's front takes its place; the issued warp goes to the back of the pool; a ready warp
 * outside the pool does not issue. */
static void test_two_level_active_pools(void **state)
{
    (void)state;
    bool waiting[4] = {false, false, false, false};
    warp_stalls ws = {waiting, mock_stalled, mock_stalled, NULL, NULL};
    ph_sched s;
    ph_sched_make(&s, "two_level_active", (sched_env){0, 0, 4, 1, NULL, NULL, NULL, &ws}, 9,
                  (const char *const[]){"two_level_active.warps=2", NULL});
    assert_int_equal(pick_at(&s, R(0, 1, 2, 3), 0), 0); /* pool [1 0] after */
    assert_int_equal(pick_at(&s, R(0, 1, 2, 3), 1), 1); /* pool [0 1] */
    waiting[0] = true;                                  /* 0 out, 2 in: pool [1 2], queue [3 0] */
    assert_int_equal(pick_at(&s, R(1, 2, 3), 2), 1);    /* pool [2 1] */
    assert_int_equal(pick_at(&s, R(2, 3), 3), 2);       /* 1 busy, not waiting: stays; [1 2] */
    assert_int_equal(pick_at(&s, R(3), 4), -1);         /* 3 is ready but pending */
    waiting[1] = true;                                  /* 1 out, 3 in: pool [2 3], queue [0 1] */
    assert_int_equal(pick_at(&s, R(3), 5), 3);
    ph_sched_free(&s);
}

/* two_level_active.long_op picks which of the SM's answers demotes a warp: marked (the
 * default, warp_stalls.long_marked: GPGPU-Sim's marks, which outlive the load) or inflight
 * (long_wait). Warp 0 is marked but its load is back: the marked reading demotes it, so 1
 * issues; the inflight reading keeps it. An SM without long_marked falls back to long_wait. */
typedef struct long_marks_mock {
    bool inflight[4], marked[4];
} long_marks_mock;

static bool mock_inflight(const void *ctx, int slot)
{
    return ((const long_marks_mock *)ctx)->inflight[slot];
}

static bool mock_marked(const void *ctx, int slot)
{
    return ((const long_marks_mock *)ctx)->marked[slot];
}

static void test_two_level_active_long_op(void **state)
{
    (void)state;
    long_marks_mock mk = {{false, false, false, false}, {true, false, false, false}};
    const char *const readings[] = {NULL, "two_level_active.long_op=marked",
                                    "two_level_active.long_op=inflight"};
    const int expect[] = {1, 1, 0};
    for (int i = 0; i < 3; i++) {
        warp_stalls ws = {&mk, mock_inflight, mock_inflight, NULL, mock_marked};
        ph_sched s;
        ph_sched_make(&s, "two_level_active", (sched_env){0, 0, 4, 1, NULL, NULL, NULL, &ws}, 9,
                      (const char *const[]){"two_level_active.warps=2", readings[i], NULL});
        assert_int_equal(pick_at(&s, R(0, 1, 2, 3), 0), expect[i]);
        ph_sched_free(&s);
    }
    warp_stalls without = {&mk, mock_inflight, mock_inflight, NULL, NULL};
    ph_sched s;
    ph_sched_make(&s, "two_level_active", (sched_env){0, 0, 4, 1, NULL, NULL, NULL, &without}, 9,
                  (const char *const[]){"two_level_active.warps=2", NULL});
    assert_int_equal(pick_at(&s, R(0, 1, 2, 3), 0), 0);
    ph_sched_free(&s);
}

/* The cycles the SM sleeps through are replayed in closed form once only waiting warps move:
 * an instance told of every cycle and one told of long spans pick the same warps. */
static void test_two_level_active_sleep_exact(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 40; seed++) {
        bool waiting[12] = {false};
        warp_stalls ws = {waiting, mock_stalled, mock_stalled, NULL, NULL};
        ph_sched a, b;
        sched_env env = {0, 1, 12, 2, NULL, NULL, NULL, &ws}; /* scheduler 1: odd slots */
        const char *const sets[] = {"two_level_active.warps=3", NULL};
        ph_sched_make(&a, "two_level_active", env, 9, sets);
        ph_sched_make(&b, "two_level_active", env, 9, sets);
        wt_rng rng;
        wt_rng_seed(&rng, seed);
        uint64_t now = 0;
        for (int event = 0; event < 60; event++) {
            for (int w = 1; w < 12; w += 2)
                waiting[w] = wt_rng_below(&rng, 3) != 0;
            uint64_t gap = 1 + wt_rng_below(&rng, 30);
            a.ops->on_cycles(a.self, now, now + gap); /* one span */
            for (uint64_t c = now; c < now + gap; c++)
                b.ops->on_cycles(b.self, c, c + 1); /* cycle by cycle */
            now += gap;
            int ready[7], n = 0;
            for (int w = 1; w < 12; w += 2)
                if (!waiting[w] && wt_rng_below(&rng, 2)) ready[n++] = w;
            ready[n] = -1;
            if (n == 0) continue;
            const warp_view *la[6], *lb[6];
            for (int i = 0; i < n; i++)
                la[i] = &a.v[ready[i]], lb[i] = &b.v[ready[i]];
            int ka = ph_sched_pick(&a, la, n, now), kb = ph_sched_pick(&b, lb, n, now);
            if (ka != kb)
                fail_msg("seed %llu, event %d: %d against %d", (unsigned long long)seed, event, ka,
                         kb);
        }
        ph_sched_free(&a);
        ph_sched_free(&b);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lrr),
        cmocka_unit_test(test_gto),
        cmocka_unit_test(test_two_level_gto),
        cmocka_unit_test(test_two_level_rr),
        cmocka_unit_test(test_two_level_switches_when_stalled),
        cmocka_unit_test(test_swl),
        cmocka_unit_test(test_swl_gpgpusim_reading),
        cmocka_unit_test(test_ccws_scores_and_cutoff),
        cmocka_unit_test(test_ccws_cutoff_is_per_live_warp),
        cmocka_unit_test(test_ccws_vta_associativity),
        cmocka_unit_test(test_ccws_scores_are_per_sm),
        cmocka_unit_test(test_caws_blk),
        cmocka_unit_test(test_caws_counters_stop_at_zero),
        cmocka_unit_test(test_caws_sm_and_avg),
        cmocka_unit_test(test_gcaws),
        cmocka_unit_test(test_two_level_active_pools),
        cmocka_unit_test(test_two_level_active_long_op),
        cmocka_unit_test(test_two_level_active_sleep_exact),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
