/* Unit tests of each L1D policy, one section per policy in registry order (policies/list.h):
 * hand-written access sequences on a tiny cache checking every victim, insertion position and
 * promotion: LRU order (lru), RRPV values (rrip, ship, cacp), LRU positions (dip, dacache), the
 * partition chosen (cacp), set dueling (rrip, dip), constrained replacement and dynamic
 * partitioning (dacache); and properties over streams replayed through a whole L1D: LRU never
 * misses more with more ways, DRRIP and DIP resist a cyclic scan that makes LRU thrash. The
 * driver below keeps the lines as the L1D does (victim only when a way is unreserved, eviction
 * before reuse, insertion at fill) and exposes the policies' per-line state. What every L1D
 * policy must do is checked in test_policy_conformance.c, the bound Belady's MIN sets them in
 * test_belady.c, the policies in whole simulations in test_cache_behaviour.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "explorer/catalog.h"
#include "core/config/params.h"
#include "core/policy.h"
#include "core/util/rng.h"
#include "policies/registry.h"
#include "tests/support/policy_harness.h"
#include "tests/support/support.h"

#define MAXL 256

typedef struct drv {
    ph_l1 c;
    l1_request pend[MAXL]; /* the request of each reserved line */
} drv;

/* Policy `policy` on a sets x ways cache of PH_LINE-byte lines, SM 0 with 48 warp slots, and the
 * "name=value" overrides in kv (NULL-terminated, may be NULL). */
static void drv_make(drv *d, const char *policy, int sets, int ways, const char *const *kv)
{
    memset(d, 0, sizeof *d);
    assert_in_range(sets * ways, 1, MAXL);
    ph_l1_make(&d->c, policy, (l1_env){{sets, ways, PH_LINE}, 0, 48, NULL, false}, 11, kv);
}

static void drv_free(drv *d)
{
    ph_l1_free(&d->c);
}

/* A request: line number `blk` (set blk % sets), pc, warp, rank, divergence, critical. */
static l1_request req(uint64_t blk, uint32_t pc, int warp, int prio, int div, bool critical)
{
    l1_request r = {0};
    r.line_addr = blk * PH_LINE;
    r.pc = pc;
    r.warp_slot = warp;
    r.warp_prio = prio;
    r.divergence = div;
    r.critical = critical;
    r.criticality = critical ? 100 : 0;
    return r;
}

enum { HIT = 100, BYPASS = 101, STALL = 102, PENDING = 103 };

/* One load: returns HIT, BYPASS, STALL, or the way that was allocated (filled at once unless
 * `keep` leaves it reserved: then the caller fills it with drv_fill). */
static int access_keep(drv *d, l1_request r, int keep)
{
    int set = (int)((r.line_addr / PH_LINE) % (uint64_t)d->c.sets);
    l1_set_view v = ph_l1_view(&d->c, set);
    for (int w = 0; w < d->c.ways; w++)
        if (v.valid[w] && v.tags[w] == r.line_addr) {
            if (d->c.ops->on_hit) d->c.ops->on_hit(d->c.self, &r, &v, w);
            return HIT;
        }
    int unreserved = 0;
    for (int w = 0; w < d->c.ways; w++)
        unreserved += !v.reserved[w];
    if (!unreserved) return STALL;
    int way = d->c.ops->victim(d->c.self, &r, &v);
    if (way == L1_BYPASS) return BYPASS;
    if (way == L1_STALL) return STALL;
    assert_in_range(way, 0, d->c.ways - 1);
    assert_false(v.reserved[way]);
    if (v.valid[way] && d->c.ops->on_evict) d->c.ops->on_evict(d->c.self, &v, way);
    int i = set * d->c.ways + way;
    d->c.valid[i] = 0;
    d->c.reserved[i] = 1;
    d->c.tags[i] = r.line_addr;
    d->pend[i] = r;
    if (!keep) {
        d->c.reserved[i] = 0;
        d->c.valid[i] = 1;
        if (d->c.ops->on_fill) d->c.ops->on_fill(d->c.self, &r, &v, way);
    }
    return way;
}

static int acc(drv *d, l1_request r)
{
    return access_keep(d, r, 0);
}

static void drv_fill(drv *d, int set, int way)
{
    l1_set_view v = ph_l1_view(&d->c, set);
    int i = set * d->c.ways + way;
    assert_true(d->c.reserved[i]);
    d->c.reserved[i] = 0;
    d->c.valid[i] = 1;
    if (d->c.ops->on_fill) d->c.ops->on_fill(d->c.self, &d->pend[set * d->c.ways + way], &v, way);
}

static uint8_t st(drv *d, int set, int way, size_t byte)
{
    return d->c.state[(size_t)(set * d->c.ways + way) * d->c.sb + byte];
}

/* The policy's statistics: its collect() into one sum per metric it declares, read by name. */
typedef struct stats {
    const l1_policy_ops *ops;
    double sums[WT_POLICY_METRICS_MAX];
} stats;

static stats collect(drv *d)
{
    stats s = {d->c.ops, {0}};
    assert_in_range(d->c.ops->nmetrics, 0, WT_POLICY_METRICS_MAX);
    d->c.ops->collect(d->c.self, s.sums);
    return s;
}

static double stat(const stats *s, const char *metric)
{
    for (size_t i = 0; i < s->ops->nmetrics; i++)
        if (strcmp(s->ops->metrics[i].name, metric) == 0) return s->sums[i];
    fail_msg("%s declares no metric %s", s->ops->name, metric);
    return 0;
}

/* A plain load by warp 0 of line blk. */
static int ld(drv *d, uint64_t blk)
{
    return acc(d, req(blk, 1, 0, 0, 1, false));
}

/* A cyclic scan larger than the cache: 8 sets x 4 ways = 32 lines, a loop over 48 lines, 60
 * times. LRU thrashes on it (every access misses); policies that insert bimodally keep part of
 * the loop. */
enum { SCAN_SETS = 8, SCAN_WAYS = 4, SCAN_LINES = 48, SCAN_ROUNDS = 60 };

static ph_access *scan_stream(size_t *n)
{
    *n = (size_t)SCAN_LINES * SCAN_ROUNDS;
    ph_access *s = calloc(*n, sizeof *s);
    assert_non_null(s);
    for (size_t i = 0; i < *n; i++)
        s[i] = (ph_access){(uint64_t)(i % SCAN_LINES) * PH_LINE, 1, 0, 0, 1, false, false};
    return s;
}

/* The policy's replay of the scan, against LRU's, which misses every access. */
static ph_replay scan_against_lru(const char *policy, const char *const *kv)
{
    size_t n;
    ph_access *s = scan_stream(&n);
    ph_replay lru = ph_l1d_replay("lru", NULL, SCAN_SETS, SCAN_WAYS, 0, s, n);
    ph_replay c = ph_l1d_replay(policy, kv, SCAN_SETS, SCAN_WAYS, 0, s, n);
    print_message("cyclic scan of %d lines over %d: LRU %llu, %s %llu misses of %zu\n", SCAN_LINES,
                  SCAN_SETS * SCAN_WAYS, (unsigned long long)lru.misses, policy,
                  (unsigned long long)c.misses, n);
    assert_int_equal(lru.misses, n); /* LRU thrashes */
    assert_in_range(c.misses, 0, lru.misses - 1);
    free(s);
    return c;
}

/* -------------------------------------------------- lru: least recently used ---- */

typedef struct lru_fixture {
    ph_l1 c;
    l1_set_view v; /* its only set */
} lru_fixture;

static void lru_make(lru_fixture *f, int ways)
{
    ph_l1_make(&f->c, "lru", (l1_env){{1, ways, 128}, 0, 48, NULL, false}, 8, NULL);
    assert_in_range(f->c.ops->line_state_bytes, 0, 16);
    f->v = ph_l1_view(&f->c, 0);
}

static void lru_free(lru_fixture *f)
{
    ph_l1_free(&f->c);
}

static int victim(lru_fixture *f)
{
    l1_request r = {0};
    int w = f->c.ops->victim(f->c.self, &r, &f->v);
    assert_in_range(w, 0, f->v.ways - 1);
    assert_false(f->c.reserved[w]);
    return w;
}

/* Fills way w (it must be chosen and reserved first, as the cache does). */
static void fill(lru_fixture *f, int w)
{
    l1_request r = {0};
    f->c.reserved[w] = 0;
    f->c.valid[w] = 1;
    f->c.ops->on_fill(f->c.self, &r, &f->v, w);
}

static void touch(lru_fixture *f, int w)
{
    l1_request r = {0};
    f->c.ops->on_hit(f->c.self, &r, &f->v, w);
}

static void test_lru_victim(void **state)
{
    (void)state;
    lru_fixture f;
    lru_make(&f, 4);
    /* empty set: free ways in order */
    for (int w = 0; w < 4; w++) {
        assert_int_equal(victim(&f), w);
        f.c.reserved[w] = 1;
    }
    /* fills in the order 2, 0, 3, 1: LRU order is that order */
    fill(&f, 2);
    fill(&f, 0);
    fill(&f, 3);
    fill(&f, 1);
    assert_int_equal(victim(&f), 2);
    touch(&f, 2); /* 0 3 1 2 */
    assert_int_equal(victim(&f), 0);
    touch(&f, 3); /* 0 1 2 3 */
    touch(&f, 0); /* 1 2 3 0 */
    assert_int_equal(victim(&f), 1);
    /* the LRU way reserved (a miss to it in flight): the next least recent */
    f.c.reserved[1] = 1;
    f.c.valid[1] = 0;
    assert_int_equal(victim(&f), 2);
    f.c.reserved[2] = 1;
    f.c.valid[2] = 0;
    assert_int_equal(victim(&f), 3);
    f.c.reserved[3] = 1;
    f.c.valid[3] = 0;
    assert_int_equal(victim(&f), 0); /* the only unreserved way, even the most recent */
    /* a reserved way is not free even though not valid; an invalid unreserved one is free and
     * goes first, whatever the stamps */
    fill(&f, 1);      /* 0 1 */
    fill(&f, 3);      /* 0 1 3 */
    f.c.valid[0] = 0; /* dropped by a store */
    assert_int_equal(victim(&f), 0);
    f.c.valid[0] = 1;
    f.c.valid[3] = 0;
    assert_int_equal(victim(&f), 3);
    lru_free(&f);

    /* property: random states; the victim is never reserved, the first free way if any, else
     * the least recently used unreserved way */
    lru_make(&f, 8);
    wt_rng rng;
    wt_rng_seed(&rng, 13);
    uint64_t used[8] = {0}, clock = 0;
    int free_cases = 0, lru_cases = 0;
    for (int w = 0; w < 8; w++) {
        f.c.reserved[w] = 1;
        fill(&f, w);
        used[w] = ++clock;
    }
    for (int it = 0; it < 5000; it++) {
        int w = (int)wt_rng_below(&rng, 8);
        switch (wt_rng_below(&rng, 4)) {
        case 0:
            if (f.c.valid[w]) {
                touch(&f, w);
                used[w] = ++clock;
            }
            break;
        case 1:
            if (f.c.reserved[w]) {
                fill(&f, w);
                used[w] = ++clock;
            }
            break;
        case 2:
            if (!f.c.reserved[w] && wt_rng_below(&rng, 4) == 0) f.c.valid[w] = 0;
            break;
        default:
            break;
        }
        int unreserved = 0, first_free = -1, lru = -1;
        for (int k = 0; k < 8; k++) {
            if (f.c.reserved[k]) continue;
            unreserved++;
            if (!f.c.valid[k] && first_free < 0) first_free = k;
            if (lru < 0 || used[k] < used[lru]) lru = k;
        }
        if (!unreserved) continue;
        int want = first_free >= 0 ? first_free : lru;
        free_cases += first_free >= 0;
        lru_cases += first_free < 0;
        int got = victim(&f);
        if (got != want) fail_msg("step %d: victim %d, expected %d", it, got, want);
        /* allocate it sometimes, as the cache does */
        if (wt_rng_below(&rng, 3) == 0) {
            f.c.valid[got] = 0;
            f.c.reserved[got] = 1;
        }
    }
    if (free_cases <= 100 || lru_cases <= 100)
        fail_msg("%d cases with a free way, %d without: expected over 100 each", free_cases,
                 lru_cases);
    lru_free(&f);
}

/* Over random streams, LRU with more ways never misses more (LRU is a stack algorithm). */
static void test_lru_more_ways(void **state)
{
    (void)state;
    wt_rng rng;
    wt_rng_seed(&rng, 7);
    for (int trial = 0; trial < 6; trial++) {
        int sets = 1 << (trial % 3);
        ph_access *s = ph_random_stream(&rng, 4000, (uint64_t)(sets * 12), trial % 2);
        uint64_t prev = UINT64_MAX;
        for (int ways = 1; ways <= 16; ways++) {
            ph_replay c = ph_l1d_replay("lru", NULL, sets, ways, 0, s, 4000);
            if (c.misses > prev)
                fail_msg("%d sets: %d ways missed %llu, %d ways %llu", sets, ways,
                         (unsigned long long)c.misses, ways - 1, (unsigned long long)prev);
            prev = c.misses;
        }
        free(s);
    }
}

/* ------------------------------------ rrip: re-reference interval prediction ---- */

static void test_srrip_hit_priority(void **state)
{
    (void)state;
    const char *kv[] = {"rrip.bits=2", "rrip.insertion=srrip", "rrip.promotion=hit", NULL};
    drv d;
    drv_make(&d, "rrip", 1, 4, kv);
    for (int b = 0; b < 4; b++)
        assert_int_equal(ld(&d, (uint64_t)b), b); /* free ways in order */
    for (int w = 0; w < 4; w++)
        assert_int_equal(st(&d, 0, w, 0), 2); /* inserted "long" */
    /* no line at 3: everything ages by one, the first distant line (way 0) goes */
    assert_int_equal(ld(&d, 4), 0);
    assert_int_equal(st(&d, 0, 0, 0), 2);
    for (int w = 1; w < 4; w++)
        assert_int_equal(st(&d, 0, w, 0), 3);
    assert_int_equal(ld(&d, 1), HIT); /* way 1: hit priority to 0 */
    assert_int_equal(st(&d, 0, 1, 0), 0);
    assert_int_equal(ld(&d, 5), 2); /* way 2 is the first at 3 */
    assert_int_equal(ld(&d, 6), 3);
    /* now 0:2 1:0 2:2 3:2: age by one, way 0 */
    assert_int_equal(ld(&d, 7), 0);
    assert_int_equal(st(&d, 0, 1, 0), 1);
    assert_int_equal(st(&d, 0, 2, 0), 3);
    drv_free(&d);
}

static void test_rrip_frequency_and_bimodal(void **state)
{
    (void)state;
    const char *kv[] = {"rrip.bits=3", "rrip.insertion=srrip", "rrip.promotion=frequency", NULL};
    drv d;
    drv_make(&d, "rrip", 1, 2, kv);
    assert_int_equal(ld(&d, 0), 0);
    assert_int_equal(st(&d, 0, 0, 0), 6); /* 2^3 - 2 */
    assert_int_equal(ld(&d, 0), HIT);
    assert_int_equal(st(&d, 0, 0, 0), 5); /* frequency priority: one step */
    assert_int_equal(ld(&d, 0), HIT);
    assert_int_equal(st(&d, 0, 0, 0), 4);
    assert_int_equal(ld(&d, 1), 1);
    assert_int_equal(ld(&d, 2), 1); /* way 1 (6) ages to 7 first */
    assert_int_equal(st(&d, 0, 0, 0), 5);
    drv_free(&d);

    const char *never[] = {"rrip.bits=2", "rrip.insertion=brrip", "rrip.epsilon=0", NULL};
    drv_make(&d, "rrip", 1, 2, never);
    assert_int_equal(ld(&d, 0), 0);
    assert_int_equal(st(&d, 0, 0, 0), 3); /* distant */
    drv_free(&d);
    const char *always[] = {"rrip.bits=2", "rrip.insertion=brrip", "rrip.epsilon=1", NULL};
    drv_make(&d, "rrip", 1, 2, always);
    assert_int_equal(ld(&d, 0), 0);
    assert_int_equal(st(&d, 0, 0, 0), 2);
    drv_free(&d);
}

static void test_drrip_dueling(void **state)
{
    (void)state;
    /* 8 sets, 4 leaders asked, clamped to 8/4 = 2 per policy: sets 0 and 4 lead SRRIP, 2 and 6
     * lead BRRIP, the odd sets follow */
    const char *kv[] = {"rrip.bits=2", "rrip.insertion=drrip", "rrip.epsilon=0", "rrip.psel_bits=2",
                        NULL};
    drv d;
    drv_make(&d, "rrip", 8, 1, kv);
    assert_int_equal(ld(&d, 0), 0);       /* an SRRIP-leader miss: psel 2 -> 3 */
    assert_int_equal(st(&d, 0, 0, 0), 2); /* SRRIP leader */
    assert_int_equal(ld(&d, 2), 0);       /* a BRRIP-leader miss: psel 3 -> 2 */
    assert_int_equal(st(&d, 2, 0, 0), 3); /* BRRIP leader */
    assert_int_equal(ld(&d, 1), 0);
    assert_int_equal(st(&d, 1, 0, 0), 2); /* follower: psel 2, not above 2: SRRIP */
    assert_int_equal(ld(&d, 8), 0);       /* SRRIP leader misses: psel 3 */
    assert_int_equal(ld(&d, 12), 0);      /* set 4 leads SRRIP too: psel stays 3 */
    assert_int_equal(ld(&d, 9), 0);
    assert_int_equal(st(&d, 1, 0, 0), 3); /* follower now inserts with BRRIP */
    stats m = collect(&d);
    assert_double_near(stat(&m, "duel_follower_fills"), 2, 0);
    assert_double_near(stat(&m, "duel_bimodal_fills"), 1, 0);
    drv_free(&d);
}

/* DRRIP on the cyclic scan misses fewer than LRU: its followers chose bimodal insertion
 * nearly always. */
static void test_drrip_cyclic_scan(void **state)
{
    (void)state;
    const char *drrip[] = {"rrip.insertion=drrip", NULL};
    ph_replay rr = scan_against_lru("rrip", drrip);
    assert_double_in_range(metric_get(&rr.m, "duel_bimodal_fills"),
                           0.9 * metric_get(&rr.m, "duel_follower_fills"), INFINITY);
}

/* ---------------------------------------------------- dip: dynamic insertion ---- */

/* LRU position of way (0 = MRU) among the valid lines, from DIP's stamps. */
static int dip_pos(drv *d, int set, int way)
{
    int64_t t, u;
    memcpy(&t, d->c.state + (size_t)(set * d->c.ways + way) * d->c.sb, sizeof t);
    int pos = 0;
    for (int w = 0; w < d->c.ways; w++) {
        if (w == way || !d->c.valid[set * d->c.ways + w]) continue;
        memcpy(&u, d->c.state + (size_t)(set * d->c.ways + w) * d->c.sb, sizeof u);
        pos += u > t;
    }
    return pos;
}

static void test_dip(void **state)
{
    (void)state;
    const char *bip[] = {"dip.insertion=bip", "dip.epsilon=0", NULL};
    drv d;
    drv_make(&d, "dip", 1, 4, bip);
    for (int b = 0; b < 4; b++)
        assert_int_equal(ld(&d, (uint64_t)b), b);
    /* every line went in at LRU: the newest is at the bottom */
    assert_int_equal(dip_pos(&d, 0, 3), 3);
    assert_int_equal(dip_pos(&d, 0, 0), 0);
    assert_int_equal(ld(&d, 4), 3); /* the LRU line (the last inserted) goes */
    assert_int_equal(dip_pos(&d, 0, 3), 3);
    assert_int_equal(ld(&d, 1), HIT); /* hit: to MRU */
    assert_int_equal(dip_pos(&d, 0, 1), 0);
    assert_int_equal(dip_pos(&d, 0, 0), 1);
    assert_int_equal(ld(&d, 5), 3);
    drv_free(&d);

    const char *lru[] = {"dip.insertion=lru", NULL};
    drv_make(&d, "dip", 1, 4, lru);
    for (int b = 0; b < 4; b++)
        assert_int_equal(ld(&d, (uint64_t)b), b);
    assert_int_equal(dip_pos(&d, 0, 3), 0); /* MRU insertion */
    assert_int_equal(ld(&d, 4), 0);
    assert_int_equal(dip_pos(&d, 0, 0), 0);
    assert_int_equal(dip_pos(&d, 0, 1), 3);
    drv_free(&d);

    /* dueling: set 0 leads LRU, set 2 leads BIP, set 1 follows */
    const char *duel[] = {"dip.epsilon=0", "dip.psel_bits=2", NULL};
    drv_make(&d, "dip", 8, 2, duel);
    assert_int_equal(ld(&d, 1), 0);
    assert_int_equal(ld(&d, 9), 1);
    assert_int_equal(dip_pos(&d, 1, 1), 0); /* psel at its midpoint: LRU (MRU insertion) */
    assert_int_equal(ld(&d, 0), 0);
    assert_int_equal(ld(&d, 8), 1); /* LRU-leader misses: psel 2 -> 3 */
    assert_int_equal(ld(&d, 17), 0);
    assert_int_equal(dip_pos(&d, 1, 0), 1); /* follower now inserts at LRU */
    drv_free(&d);
}

/* DIP on the cyclic scan misses fewer than LRU: its followers chose bimodal insertion nearly
 * always. */
static void test_dip_cyclic_scan(void **state)
{
    (void)state;
    ph_replay dip = scan_against_lru("dip", NULL);
    assert_double_less(0, metric_get(&dip.m, "duel_follower_fills"));
    assert_double_in_range(metric_get(&dip.m, "duel_bimodal_fills"),
                           0.9 * metric_get(&dip.m, "duel_follower_fills"), INFINITY);
}

/* --------------------------------------- ship: signature-based hit predictor ---- */

static void test_ship(void **state)
{
    (void)state;
    drv d;
    drv_make(&d, "ship", 1, 2, NULL);
    /* pc 5, lines 0 and 1: signatures 5 and 4 */
    assert_int_equal(acc(&d, req(0, 5, 0, 0, 1, false)), 0);
    assert_int_equal(st(&d, 0, 0, 0), 2); /* counter 1: long */
    assert_int_equal(st(&d, 0, 0, 1), 5);
    assert_int_equal(acc(&d, req(1, 5, 0, 0, 1, false)), 1);
    assert_int_equal(st(&d, 0, 1, 1), 4);
    assert_int_equal(acc(&d, req(1, 5, 0, 0, 1, false)), HIT);
    assert_int_equal(st(&d, 0, 1, 0), 0);
    assert_int_equal(st(&d, 0, 1, 2), 1); /* reused; SHCT[4] = 2 */
    /* line 0 was never reused: evicting it takes SHCT[5] to 0 */
    assert_int_equal(acc(&d, req(2, 7, 0, 0, 1, false)), 0); /* sig 5 again (7 ^ 2) */
    assert_int_equal(st(&d, 0, 0, 0), 3);                    /* now distant */
    /* a line of signature 4 (reused before, SHCT[4] = 2) goes in long */
    assert_int_equal(acc(&d, req(4, 0, 0, 0, 1, false)), 0); /* way 0 is at 3 */
    assert_int_equal(st(&d, 0, 0, 0), 2);
    assert_int_equal(st(&d, 0, 1, 0), 1); /* aged once, at the miss of line 2 */
    drv_free(&d);
}

/* ---------------------------------------- cacp: criticality-aware partitions ---- */

static void test_cacp(void **state)
{
    (void)state;
    const char *kv[] = {"cacp.critical_ways=2", NULL};
    drv d;
    drv_make(&d, "cacp", 1, 4, kv);
    /* CCBP starts at 0: non-critical, the ways 2 and 3 only */
    assert_int_equal(acc(&d, req(0, 1, 0, 0, 1, false)), 2); /* sig 1 */
    assert_int_equal(acc(&d, req(1, 1, 0, 0, 1, false)), 3); /* sig 0 */
    assert_int_equal(st(&d, 0, 2, 0), 2);                    /* SHiP 1: long */
    /* a third non-critical line replaces within the partition though ways 0-1 are free */
    assert_int_equal(acc(&d, req(2, 1, 0, 0, 1, false)), 2); /* sig 3; ages both to 3 */
    /* line 0 left without reuse: SHiP[1] 1 -> 0 */
    /* critical warps hit line 2 (sig 3) twice: CCBP[3] = 2 > 1 */
    assert_int_equal(acc(&d, req(2, 1, 3, 0, 1, true)), HIT);
    assert_int_equal(st(&d, 0, 2, 0), 0);
    assert_int_equal(st(&d, 0, 2, 2), 1); /* c_reuse */
    assert_int_equal(acc(&d, req(2, 1, 3, 0, 1, true)), HIT);
    /* line 258 has signature (1 ^ 258) & 255 = 3: critical partition */
    assert_int_equal(acc(&d, req(258, 1, 0, 0, 1, false)), 0);
    assert_int_equal(st(&d, 0, 0, 0), 2);
    /* pc 0 at line 1 is signature 1: SHiP[1] is 0 now, so distant, non-critical */
    assert_int_equal(acc(&d, req(1 + 256, 0, 0, 0, 1, false)), 3); /* way 3: RRPV 3 */
    assert_int_equal(st(&d, 0, 3, 0), 3);
    /* a non-critical warp's hit on a critical line, then its eviction, lowers CCBP[3] */
    assert_int_equal(acc(&d, req(258, 1, 5, 0, 1, false)), HIT); /* nc_reuse */
    assert_int_equal(st(&d, 0, 0, 2), 2);
    assert_int_equal(acc(&d, req(514, 1, 0, 0, 1, false)), 1); /* sig 3: way 1 free */
    /* RRPVs 0 and 2 age to 1 and 3: way 1 goes (unreused: SHiP[3] 3 -> 2) */
    assert_int_equal(acc(&d, req(770, 1, 0, 0, 1, false)), 1);
    assert_int_equal(st(&d, 0, 0, 0), 1);
    assert_int_equal(acc(&d, req(1026, 1, 0, 0, 1, false)), 1); /* 1, 2 -> 2, 3 */
    assert_int_equal(acc(&d, req(1282, 1, 0, 0, 1, false)), 0); /* 2, 2 -> 3, 3 */
    /* way 0 held line 258: critical partition, reused by a non-critical warp only: CCBP[3]
     * 2 -> 1, and signature 3 now goes to the non-critical partition */
    assert_int_equal(acc(&d, req(1538, 1, 0, 0, 1, false)) >= 2, 1);
    stats m = collect(&d);
    assert_double_near(stat(&m, "cacp_critical_fills"), 5, 0);
    assert_double_near(stat(&m, "cacp_noncritical_fills"), 5, 0);
    drv_free(&d);

    /* a partition whose ways are all reserved replays the access */
    drv_make(&d, "cacp", 1, 4, kv);
    assert_int_equal(access_keep(&d, req(0, 1, 0, 0, 1, false), 1), 2);
    assert_int_equal(access_keep(&d, req(1, 1, 0, 0, 1, false), 1), 3);
    assert_int_equal(acc(&d, req(2, 1, 0, 0, 1, false)), STALL);
    drv_fill(&d, 0, 2);
    assert_int_equal(acc(&d, req(2, 1, 0, 0, 1, false)), 2);
    drv_free(&d);

    /* critical_ways above l1d.ways is clamped: one partition, the whole cache */
    const char *big[] = {"cacp.critical_ways=8", NULL};
    drv_make(&d, "cacp", 1, 4, big);
    for (int b = 0; b < 4; b++)
        assert_int_equal(acc(&d, req((uint64_t)b, 1, 0, 0, 1, false)), b);
    drv_free(&d);
}

/* ------------------------------------------------- dacache: divergence-aware ---- */

enum { DA_POS = 1 };

static int da_pos(drv *d, int set, int way)
{
    return st(d, set, way, DA_POS);
}

/* DaCache's baseline geometry (32 sets x 8 ways, 2 schedulers) in set 0: 32 lanes over 32 sets
 * give eq. 1 a step of 2 positions per per-scheduler priority, and FCW 4 a locality region of
 * positions 0-3. */
static const char *da_static[] = {"dacache.partitioning=static", NULL};

static int dload(drv *d, uint64_t n, int prio, int div)
{
    return acc(d, req(n * 32, 9, prio, prio, div, false));
}

static void test_dacache_insertion_promotion(void **state)
{
    (void)state;
    drv d;
    drv_make(&d, "dacache", 32, 8, da_static);
    for (int n = 0; n < 8; n++) /* divergent loads of the top warp: MRU */
        assert_int_equal(dload(&d, (uint64_t)n, 0, 32), 7 - n); /* free ways nearest LRU */
    for (int n = 0; n < 8; n++)
        assert_int_equal(da_pos(&d, 0, 7 - n), 7 - n); /* the first fill is now LRU */
    /* a thrashing warp (rank 4 >= FCW): replaces the LRU line, inserts at LRU */
    assert_int_equal(dload(&d, 8, 4, 32), 7);
    assert_int_equal(da_pos(&d, 0, 7), 7);
    assert_int_equal(dload(&d, 9, 5, 32), 7); /* and again the same way */
    /* rank 2: per-scheduler priority 1, eq. 1: position 2 */
    assert_int_equal(dload(&d, 10, 2, 32), 7);
    assert_int_equal(da_pos(&d, 0, 7), 2);
    assert_int_equal(da_pos(&d, 0, 6), 7); /* the rest shifted down */
    /* divergent loads of at most 5 requests: MRU whatever the rank */
    assert_int_equal(dload(&d, 11, 20, 5), 6);
    assert_int_equal(da_pos(&d, 0, 6), 0);
    /* promotion by 4: the line at 7 goes to 3, then to 0 */
    int w7 = -1;
    for (int w = 0; w < 8; w++)
        if (da_pos(&d, 0, w) == 7) w7 = w;
    uint64_t line = d.c.tags[w7] / PH_LINE / 32;
    assert_int_equal(dload(&d, line, 0, 32), HIT);
    assert_int_equal(da_pos(&d, 0, w7), 3);
    assert_int_equal(dload(&d, line, 0, 32), HIT);
    assert_int_equal(da_pos(&d, 0, w7), 0);
    drv_free(&d);

    const char *mru[] = {"dacache.partitioning=static", "dacache.promotion=0", NULL};
    drv_make(&d, "dacache", 32, 8, mru);
    for (int n = 0; n < 8; n++)
        dload(&d, (uint64_t)n, 0, 32);
    assert_int_equal(dload(&d, 0, 0, 32), HIT); /* at 7: straight to MRU */
    assert_int_equal(da_pos(&d, 0, 7), 0);
    drv_free(&d);
}

static void test_dacache_constrained(void **state)
{
    (void)state;
    const char *variants[] = {"full", "stall", "uncon"};
    const int want[] = {BYPASS, STALL, -1};
    for (int k = 0; k < 3; k++) {
        char variant[64];
        snprintf(variant, sizeof variant, "dacache.variant=%s", variants[k]);
        const char *kv[] = {"dacache.partitioning=static", variant, NULL};
        drv d;
        drv_make(&d, "dacache", 32, 8, kv);
        for (int n = 0; n < 8; n++)
            dload(&d, (uint64_t)n, 0, 32);
        /* four misses of thrashing warps stay in flight: each reserves the LRU line and the
         * next takes the line above it; the thrashing region (positions 4-7) is all reserved */
        for (int n = 0; n < 4; n++)
            assert_int_equal(access_keep(&d, req((uint64_t)(8 + n) * 32, 9, 6, 6, 32, false), 1),
                             7 - n);
        int got = dload(&d, 20, 6, 32);
        if (want[k] >= 0) {
            assert_int_equal(got, want[k]);
        } else {
            assert_int_equal(got, 3); /* unconstrained: the line nearest LRU in the region 0-3 */
            assert_int_equal(da_pos(&d, 0, 3), 7);
        }
        stats m = collect(&d);
        assert_double_near(stat(&m, "dacache_constrained"), (k < 2 ? 1 : 0), 0);
        drv_free(&d);
    }
}

static void test_dacache_dynamic_partitioning(void **state)
{
    (void)state;
    /* the locality region may grow to 7 of 8 ways here, and CNT restarts at Cmax/2 both ways */
    const char *kv[] = {"dacache.cmax=4", "dacache.cnt_start=2", "dacache.locality_fraction=0.875",
                        "dacache.cnt_reset_down=true", NULL};
    drv d;
    drv_make(&d, "dacache", 32, 8, kv);
    for (int n = 0; n < 8; n++)
        dload(&d, (uint64_t)n, 0, 32);
    /* FCW 4: rank 4 is a thrashing warp */
    assert_int_equal(dload(&d, 8, 4, 32), 7);
    assert_int_equal(da_pos(&d, 0, 7), 7);
    /* coherent loads and fully cached loads of one access do not count */
    d.c.ops->on_load_done(d.c.self, 0, 0, 1, 0);
    d.c.ops->on_load_done(d.c.self, 0, 0, 32, 0); /* CNT 3 */
    d.c.ops->on_load_done(d.c.self, 0, 0, 32, 0); /* CNT 4 = Cmax: FCW 5, CNT 2 */
    /* FCW 5: rank 4 is a locality warp at eq. 1 position 2 * 2 = 4 (p = 4) */
    assert_int_equal(dload(&d, 9, 4, 32), 7);
    assert_int_equal(da_pos(&d, 0, 7), 4);
    /* a partially cached load of rank 0 lowers CNT by FCW - 0 = 5: FCW back to 4 */
    d.c.ops->on_load_done(d.c.self, 0, 0, 32, 3);
    assert_int_equal(dload(&d, 10, 4, 32), 6);
    assert_int_equal(da_pos(&d, 0, 6), 7);
    /* thrashing warps' partial loads lower CNT by 1; FCW never drops below one warp per
     * scheduler */
    for (int i = 0; i < 20; i++)
        d.c.ops->on_load_done(d.c.self, 0, 30, 32, 1);
    stats m = collect(&d);
    assert_double_near(stat(&m, "dacache_fcw_increases"), 1, 0);
    assert_double_near(stat(&m, "dacache_fcw_decreases"), 3, 0); /* 5->4->3->2 */
    drv_free(&d);
}

/* How many misses of thrashing warps can be in flight in set 0 before one is bypassed, with a
 * static FCW of 8 (a locality region of every position, were it not limited). */
static int dacache_in_flight(const char *fraction)
{
    char frac[64];
    snprintf(frac, sizeof frac, "dacache.locality_fraction=%s", fraction);
    const char *kv[] = {"dacache.partitioning=static", "dacache.fcw=8", frac, NULL};
    drv d;
    drv_make(&d, "dacache", 32, 8, kv);
    for (int n = 0; n < 8; n++)
        dload(&d, (uint64_t)n, 0, 32);
    int placed = 0;
    while (placed < 8 &&
           access_keep(&d, req((uint64_t)(8 + placed) * 32, 9, 10, 10, 32, false), 1) < d.c.ways)
        placed++;
    drv_free(&d);
    return placed;
}

/* The readings of DaCache where the paper leaves a choice (docs/policies.md). */
static void test_dacache_readings(void **state)
{
    (void)state;
    /* When FCW asks for more locality positions than the ways hold, the region stops at half
     * the ways (dacache.locality_fraction 0.5): four ways stay replaceable. Stopping it one way
     * short of the set left one, and bypassed nearly every miss. */
    assert_int_equal(dacache_in_flight("0.5"), 4);
    assert_int_equal(dacache_in_flight("0.875"), 1);

    /* A load of two accesses is coherent ("more than 2 uncoalescable memory accesses" make
     * a divergent one): it does not count for dynamic partitioning unless
     * dacache.coherent_accesses=1. */
    for (int one = 0; one <= 1; one++) {
        const char *kv[] = {"dacache.cmax=4", "dacache.cnt_start=3",
                            one ? "dacache.coherent_accesses=1" : "dacache.coherent_accesses=2",
                            NULL};
        drv d;
        drv_make(&d, "dacache", 32, 8, kv);
        d.c.ops->on_load_done(d.c.self, 0, 0, 2, 0);
        d.c.ops->on_load_done(d.c.self, 0, 0, 3, 0); /* divergent either way: CNT 4 or 5 */
        stats m = collect(&d);
        assert_double_near(stat(&m, "dacache_fcw_increases"), 1, 0);
        /* with two-access loads counted, the increase came one load earlier: CNT restarted
         * at 2 and the three-access load raised it to 3; else CNT is 2 */
        d.c.ops->on_load_done(d.c.self, 0, 0, 3, 0);
        m = collect(&d);
        assert_double_near(stat(&m, "dacache_fcw_increases"), (one ? 2 : 1), 0);
        drv_free(&d);
    }

    /* Fig. 7 restarts CNT at Cmax/2 when FCW rises; when it falls CNT stays at zero unless
     * dacache.cnt_reset_down: three fully cached loads then raise FCW again only from Cmax/2. */
    for (int reset = 0; reset <= 1; reset++) {
        const char *kv[] = {"dacache.cmax=4", "dacache.cnt_start=1",
                            reset ? "dacache.cnt_reset_down=true" : "dacache.cnt_reset_down=false",
                            NULL};
        drv d;
        drv_make(&d, "dacache", 32, 8, kv);
        d.c.ops->on_load_done(d.c.self, 0, 30, 32, 1); /* CNT 0: FCW 4 -> 3 */
        for (int i = 0; i < 3; i++)
            d.c.ops->on_load_done(d.c.self, 0, 0, 32, 0);
        stats m = collect(&d);
        assert_double_near(stat(&m, "dacache_fcw_decreases"), 1, 0);
        assert_double_near(stat(&m, "dacache_fcw_increases"), reset, 0);
        drv_free(&d);
    }
}

static void test_dacache_profiler(void **state)
{
    (void)state;
    const char *kv[] = {"dacache.partitioning=static", "dacache.victim_entries=2", NULL};
    drv d;
    drv_make(&d, "dacache", 32, 8, kv);
    for (int n = 0; n < 8; n++)
        dload(&d, (uint64_t)n, 0, 32);
    /* pc 3, coherent, of the top warp: no verdict yet, gauged (rank 0: MRU); sampled */
    assert_int_equal(acc(&d, req(100 * 32, 3, 0, 0, 1, false)), 7);
    assert_int_equal(da_pos(&d, 0, 7), 0);
    /* the same warp hits it: locality for pc 3; a thrashing warp's coherent load of pc 3 now
     * goes to MRU */
    assert_int_equal(acc(&d, req(100 * 32, 3, 0, 0, 1, false)), HIT);
    assert_int_equal(acc(&d, req(101 * 32, 3, 7, 9, 1, false)), 6);
    assert_int_equal(da_pos(&d, 0, 6), 0);
    /* pc 4: sampled lines evicted and pushed out of the 2-entry victim cache unreferenced:
     * no locality; its loads then go to LRU even from the top warp */
    for (int n = 0; n < 3; n++) {
        int w = acc(&d, req((uint64_t)(200 + n) * 32, 4, 0, 0, 1, false));
        assert_in_range(w, 0, 7);
        /* push it down the chain and out with the top warp's divergent loads (MRU) */
        for (int k = 0; k < 8; k++)
            dload(&d, (uint64_t)(300 + 10 * n + k), 0, 32);
    }
    int w = acc(&d, req(400 * 32, 4, 0, 0, 1, false));
    assert_int_equal(da_pos(&d, 0, w), 7);
    /* pc 5: sampled, evicted, missed again by the same warp: a victim-cache hit, locality */
    w = acc(&d, req(500 * 32, 5, 0, 0, 1, false));
    for (int k = 0; k < 8; k++)
        dload(&d, (uint64_t)(600 + k), 0, 32);
    w = acc(&d, req(500 * 32, 5, 0, 0, 1, false));
    assert_in_range(w, 0, 7);
    w = acc(&d, req(501 * 32, 5, 9, 12, 1, false));
    assert_int_equal(da_pos(&d, 0, w), 0);
    drv_free(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lru_victim),
        cmocka_unit_test(test_lru_more_ways),
        cmocka_unit_test(test_srrip_hit_priority),
        cmocka_unit_test(test_rrip_frequency_and_bimodal),
        cmocka_unit_test(test_drrip_dueling),
        cmocka_unit_test(test_drrip_cyclic_scan),
        cmocka_unit_test(test_dip),
        cmocka_unit_test(test_dip_cyclic_scan),
        cmocka_unit_test(test_ship),
        cmocka_unit_test(test_cacp),
        cmocka_unit_test(test_dacache_insertion_promotion),
        cmocka_unit_test(test_dacache_constrained),
        cmocka_unit_test(test_dacache_dynamic_partitioning),
        cmocka_unit_test(test_dacache_readings),
        cmocka_unit_test(test_dacache_profiler),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
