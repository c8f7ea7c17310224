/* Tests of the L1 data cache driven directly with the LRU policy: a hand-checked sequence on a
 * 2-set 2-way cache, equivalence with a reference LRU model on random streams, MSHR merging and
 * every reservation failure, write-evict, and the set-index hashes; and the check debug builds
 * make of a policy's victim. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "explorer/catalog.h"
#include "core/sim/l1d.h"
#include "core/config/params.h"
#include "core/util/rng.h"
#include "policies/registry.h"
#include "tests/support/policy_harness.h"

typedef ph_l1d fixture;

/* An L1D of the geometry with LRU, 48 warp slots. */
static void make(fixture *f, int sets, int ways, int line, int hash, int mshrs, int merge)
{
    ph_l1d_make(f, "lru", (l1d_config){sets, ways, line, hash, mshrs, merge, 0, 0, 0}, 48, 1, NULL);
}

static void unmake(fixture *f)
{
    ph_l1d_free(f);
}

typedef struct result {
    l1_outcome out;
    int mshr, owner, evicted_warp;
    uint64_t evicted_line;
} result;

static result load_ex(fixture *f, uint64_t line, int warp, uint32_t waiter, int can_send)
{
    l1_request r = {0};
    r.line_addr = line;
    r.warp_slot = warp;
    r.divergence = 1;
    result x = {L1_RESFAIL, -7, -7, -7, 0xdeadbeef};
    x.out =
        l1d_load(f->c, &r, waiter, can_send, &x.mshr, &x.owner, &x.evicted_warp, &x.evicted_line);
    return x;
}

static result load(fixture *f, uint64_t line, int warp)
{
    return load_ex(f, line, warp, (uint32_t)warp, 1);
}

/* Fills MSHR m at once and checks it returns exactly one waiter for line. */
static void fill_one(fixture *f, int m, uint64_t line)
{
    uint32_t w[64];
    uint64_t got = 0;
    assert_int_equal(l1d_fill(f->c, m, w, &got), 1);
    assert_int_equal(got, line);
}

/* A load that misses, is filled at once, and checks the eviction it caused. */
static void miss_fill(fixture *f, uint64_t line, int warp, int ev_warp, uint64_t ev_line)
{
    result x = load(f, line, warp);
    if (x.out != L1_MISS)
        fail_msg("line %#llx: %s, expected miss", (unsigned long long)line,
                 l1_outcome_names[x.out]);
    assert_int_equal(x.evicted_warp, ev_warp);
    if (ev_warp >= 0) assert_int_equal(x.evicted_line, ev_line);
    fill_one(f, x.mshr, line);
}

static void hit(fixture *f, uint64_t line, int warp, int owner)
{
    result x = load(f, line, warp);
    if (x.out != L1_HIT)
        fail_msg("line %#llx: %s, expected hit", (unsigned long long)line, l1_outcome_names[x.out]);
    assert_int_equal(x.owner, owner);
    assert_int_equal(x.evicted_warp, -1);
}

/* ---------------------------------------------------------- (a) by hand ---- */

static void test_hand_sequence(void **state)
{
    (void)state;
    fixture f;
    make(&f, 2, 2, 128, 0, 4, 4);
    /* Lines: block k goes to set k % 2. A, B, C in set 0; D in set 1. */
    const uint64_t A = 0x000, B = 0x100, C = 0x200, D = 0x080;
    assert_int_equal(l1d_line_of(f.c, 0x17f), 0x100);
    assert_int_equal(l1d_line_of(f.c, 0x180), 0x180);
    assert_int_equal(l1d_set_of(f.c, A), 0);
    assert_int_equal(l1d_set_of(f.c, B), 0);
    assert_int_equal(l1d_set_of(f.c, C), 0);
    assert_int_equal(l1d_set_of(f.c, D), 1);

    miss_fill(&f, A, 0, -1, 0); /* set 0: A */
    hit(&f, A, 1, 0);           /* inter-warp hit: warp 0 brought A in */
    hit(&f, A, 0, 0);           /* intra-warp hit */
    miss_fill(&f, B, 1, -1, 0); /* set 0: A B (free way, no eviction) */
    miss_fill(&f, D, 2, -1, 0); /* set 1: D */
    hit(&f, A, 0, 0);           /* A most recent, B least */
    miss_fill(&f, C, 3, 1, B);  /* evicts B (warp 1's) */
    miss_fill(&f, B, 1, 0, A);  /* A now least recent: evicted */
    hit(&f, C, 0, 3);           /* inter-warp: warp 3 owns C */
    hit(&f, D, 2, 2);           /* set 1 untouched by set 0's traffic */
    miss_fill(&f, A, 0, 1, B);  /* B filled before C's last hit: evicted */
    hit(&f, C, 3, 3);
    hit(&f, A, 5, 0);
    miss_fill(&f, B, 4, 3, C); /* C least recent after A's hit */
    hit(&f, B, 4, 4);
    unmake(&f);
}

/* ------------------------------------------------- (b) reference LRU model ---- */

typedef struct ref_line {
    uint64_t line;
    uint64_t stamp;
    int owner;
} ref_line;

typedef struct ref_cache {
    int sets, ways, line, hash;
    int *count;
    ref_line *lines; /* sets * ways */
    uint64_t clock;
} ref_cache;

static int ref_set(const ref_cache *r, uint64_t line)
{
    uint64_t block = line / (uint64_t)r->line;
    if (!r->hash) return (int)(block % (uint64_t)r->sets);
    int bits = 0;
    while ((1 << bits) < r->sets)
        bits++;
    uint64_t set = 0;
    for (int shift = 0; shift < 64 && bits; shift += bits)
        set ^= (block >> shift) & (((uint64_t)1 << bits) - 1);
    return (int)set;
}

static ref_line *ref_find(ref_cache *r, uint64_t line, int *set_out)
{
    int s = ref_set(r, line);
    *set_out = s;
    for (int i = 0; i < r->count[s]; i++)
        if (r->lines[s * r->ways + i].line == line) return &r->lines[s * r->ways + i];
    return NULL;
}

/* Returns 1 on hit (owner in *owner); on a miss inserts and returns 0 with the evicted line, if
 * any, in *ev_line / *ev_owner (*ev_owner = -1 if none). */
static int ref_load(ref_cache *r, uint64_t line, int warp, int *owner, int *ev_owner,
                    uint64_t *ev_line)
{
    int s;
    ref_line *l = ref_find(r, line, &s);
    *ev_owner = -1;
    if (l) {
        l->stamp = ++r->clock;
        *owner = l->owner;
        return 1;
    }
    ref_line *base = &r->lines[s * r->ways];
    if (r->count[s] < r->ways) {
        l = &base[r->count[s]++];
    } else {
        l = &base[0];
        for (int i = 1; i < r->ways; i++)
            if (base[i].stamp < l->stamp) l = &base[i];
        *ev_owner = l->owner;
        *ev_line = l->line;
    }
    *l = (ref_line){line, ++r->clock, warp};
    return 0;
}

static int ref_store(ref_cache *r, uint64_t line)
{
    int s;
    ref_line *l = ref_find(r, line, &s);
    if (!l) return 0;
    *l = r->lines[s * r->ways + --r->count[s]];
    return 1;
}

static void run_random(int sets, int ways, int line, int hash, uint64_t seed, int n)
{
    fixture f;
    make(&f, sets, ways, line, hash, 4, 4);
    ref_cache r = {sets,
                   ways,
                   line,
                   hash,
                   calloc((size_t)sets, sizeof(int)),
                   calloc((size_t)(sets * ways), sizeof(ref_line)),
                   0};
    assert_non_null(r.count);
    assert_non_null(r.lines);
    wt_rng rng;
    wt_rng_seed(&rng, seed);
    /* About three times as many lines as the cache holds, so there are hits and misses. */
    uint64_t span = (uint64_t)sets * (uint64_t)ways * 3 * (uint64_t)line;
    uint64_t base = wt_rng_below(&rng, 1 << 20) * (uint64_t)line;
    int hits = 0, misses = 0, evictions = 0, drops = 0;
    for (int i = 0; i < n; i++) {
        uint64_t addr = base + wt_rng_below(&rng, span);
        uint64_t ln = l1d_line_of(f.c, addr);
        assert_int_equal(ln, addr / (uint64_t)line * (uint64_t)line);
        int warp = (int)wt_rng_below(&rng, 8);
        if (wt_rng_below(&rng, 8) == 0) {
            int want = ref_store(&r, ln);
            if (l1d_store(f.c, ln) != want)
                fail_msg("geometry %dx%dx%d hash %d, step %d: store %#llx dropped %d, model %d",
                         sets, ways, line, hash, i, (unsigned long long)ln, !want, want);
            drops += want;
            continue;
        }
        int owner = -1, ev_owner, rhit;
        uint64_t ev_line = 0;
        rhit = ref_load(&r, ln, warp, &owner, &ev_owner, &ev_line);
        result x = load(&f, ln, warp);
        if (x.out != (rhit ? L1_HIT : L1_MISS))
            fail_msg("geometry %dx%dx%d hash %d, step %d: line %#llx %s, model %s", sets, ways,
                     line, hash, i, (unsigned long long)ln, l1_outcome_names[x.out],
                     rhit ? "hit" : "miss");
        if (rhit) {
            hits++;
            assert_int_equal(x.owner, owner);
            continue;
        }
        misses++;
        if (x.evicted_warp != ev_owner || (ev_owner >= 0 && x.evicted_line != ev_line))
            fail_msg("geometry %dx%dx%d hash %d, step %d: evicted %#llx (warp %d), model %#llx "
                     "(warp %d)",
                     sets, ways, line, hash, i, (unsigned long long)x.evicted_line, x.evicted_warp,
                     (unsigned long long)ev_line, ev_owner);
        evictions += ev_owner >= 0;
        uint32_t w[4];
        uint64_t got;
        assert_int_equal(l1d_fill(f.c, x.mshr, w, &got), 1);
        assert_int_equal(got, ln);
        assert_int_equal(w[0], (uint32_t)warp);
        assert_int_equal(l1d_mshr_free(f.c), 1);
    }
    /* the stream exercised every path */
    assert_in_range(hits, n / 20 + 1, n);
    assert_in_range(misses, n / 20 + 1, n);
    if (ways > 1) assert_in_range(evictions, 1, n);
    assert_in_range(drops, 1, n);
    free(r.count);
    free(r.lines);
    unmake(&f);
}

static void test_random_vs_reference(void **state)
{
    (void)state;
    static const struct {
        int sets, ways, line, hash;
    } g[] = {
        {1, 4, 128, 0},  {2, 2, 128, 0}, {4, 4, 64, 0},    {8, 2, 32, 0},    {16, 1, 128, 0},
        {3, 2, 128, 0},  {5, 3, 64, 0},  {4, 2, 128, 1},   {8, 4, 128, 1},   {32, 8, 128, 1},
        {8, 16, 128, 0}, {1, 1, 128, 1}, {2, 100, 128, 0}, {4, 256, 128, 0}, /* more ways than one
                                                                                64-bit lookup mask
                                                                              */
    };
    for (size_t i = 0; i < sizeof g / sizeof g[0]; i++)
        run_random(g[i].sets, g[i].ways, g[i].line, g[i].hash, 1000 + i, 6000);
}

/* ------------------------------------------------------------- (c) MSHRs ---- */

static void test_mshr_merge(void **state)
{
    (void)state;
    fixture f;
    make(&f, 2, 2, 128, 0, 2, 2);
    const uint64_t A = 0x000, B = 0x080, C = 0x100, D = 0x180;
    result a = load_ex(&f, A, 0, 100, 1);
    assert_int_equal(a.out, L1_MISS);
    assert_in_range(a.mshr, 0, 1);
    result a2 = load_ex(&f, A, 1, 101, 1);
    assert_int_equal(a2.out, L1_MERGED);
    assert_int_equal(a2.mshr, a.mshr);
    /* merge capacity (2) exhausted */
    assert_int_equal(load_ex(&f, A, 2, 102, 1).out, L1_RESFAIL);
    /* a second line takes the second MSHR */
    result b = load_ex(&f, B, 3, 200, 1);
    assert_int_equal(b.out, L1_MISS);
    assert_in_range(b.mshr, 0, 1);
    assert_int_not_equal(b.mshr, a.mshr);
    assert_int_equal(l1d_mshr_free(f.c), 0);
    /* all MSHRs busy: a new line fails; the pending ones still cannot merge more than 2 */
    assert_int_equal(load_ex(&f, C, 4, 300, 1).out, L1_RESFAIL);
    assert_int_equal(load_ex(&f, D, 4, 301, 1).out, L1_RESFAIL);
    result b2 = load_ex(&f, B, 5, 201, 1);
    assert_int_equal(b2.out, L1_MERGED);
    assert_int_equal(b2.mshr, b.mshr);
    assert_int_equal(load_ex(&f, B, 5, 202, 1).out, L1_RESFAIL); /* B's merge slots full too */

    uint32_t w[8];
    uint64_t line = 1;
    assert_int_equal(l1d_fill(f.c, a.mshr, w, &line), 2);
    assert_int_equal(line, A);
    assert_int_equal(w[0], 100);
    assert_int_equal(w[1], 101);
    assert_int_equal(l1d_mshr_free(f.c), 1);
    hit(&f, A, 2, 0); /* the allocating warp owns the line, not the merged one */

    /* one MSHR free again, but nothing may leave the SM */
    assert_int_equal(load_ex(&f, C, 6, 400, 0).out, L1_RESFAIL);
    assert_int_equal(l1d_mshr_free(f.c), 1);
    result c = load_ex(&f, C, 6, 400, 1);
    assert_int_equal(c.out, L1_MISS);
    assert_int_equal(c.mshr, a.mshr); /* the freed entry is reused */
    assert_int_equal(c.evicted_warp, -1);
    /* a hit needs neither an MSHR nor can_send */
    assert_int_equal(load_ex(&f, A, 7, 0, 0).out, L1_HIT);

    assert_int_equal(l1d_fill(f.c, b.mshr, w, &line), 2);
    assert_int_equal(line, B);
    assert_int_equal(w[0], 200);
    assert_int_equal(w[1], 201);
    /* merging sends nothing: with can_send = 0 a merge still succeeds */
    result d = load_ex(&f, D, 8, 500, 1);
    assert_int_equal(d.out, L1_MISS);
    result d2 = load_ex(&f, D, 9, 501, 0);
    assert_int_equal(d2.out, L1_MERGED);
    assert_int_equal(d2.mshr, d.mshr);
    assert_int_equal(l1d_fill(f.c, c.mshr, w, &line), 1);
    assert_int_equal(line, C);
    assert_int_equal(w[0], 400);
    assert_int_equal(l1d_fill(f.c, d.mshr, w, &line), 2);
    assert_int_equal(line, D);
    assert_int_equal(w[0], 500);
    assert_int_equal(w[1], 501);
    hit(&f, D, 0, 8);
    unmake(&f);
}

static void test_reserved_set(void **state)
{
    (void)state;
    fixture f;
    make(&f, 2, 2, 128, 0, 8, 4);
    const uint64_t A = 0x000, C = 0x100, E = 0x200, B = 0x080;
    result a = load(&f, A, 0);
    result c = load(&f, C, 1);
    assert_int_equal(a.out, L1_MISS);
    assert_int_equal(c.out, L1_MISS);
    /* both ways of set 0 reserved: a third line of set 0 cannot allocate */
    assert_int_equal(load(&f, E, 2).out, L1_RESFAIL);
    assert_int_equal(l1d_mshr_free(f.c), 1);
    /* the other set is unaffected */
    result b = load(&f, B, 3);
    assert_int_equal(b.out, L1_MISS);
    fill_one(&f, b.mshr, B);
    /* A arrives: its way is the only candidate, never C's reserved one */
    fill_one(&f, a.mshr, A);
    hit(&f, A, 4, 0);
    result e = load(&f, E, 2);
    assert_int_equal(e.out, L1_MISS);
    assert_int_equal(e.evicted_warp, 0);
    assert_int_equal(e.evicted_line, A);
    assert_int_equal(load(&f, A, 0).out, L1_RESFAIL); /* set 0 fully reserved again */
    fill_one(&f, c.mshr, C);
    fill_one(&f, e.mshr, E);
    hit(&f, C, 0, 1);
    hit(&f, E, 0, 2);
    hit(&f, B, 0, 3);
    unmake(&f);
}

static void test_mshr_count_exact(void **state)
{
    (void)state;
    /* mshrs = 5: exactly five outstanding distinct lines, whatever their sets */
    fixture f;
    make(&f, 8, 4, 64, 0, 5, 1);
    int m[5];
    for (int i = 0; i < 5; i++) {
        result x = load(&f, (uint64_t)i * 64 * 3, i);
        assert_int_equal(x.out, L1_MISS);
        m[i] = x.mshr;
        for (int j = 0; j < i; j++)
            assert_int_not_equal(m[i], m[j]);
        assert_int_equal(l1d_mshr_free(f.c), i < 4);
    }
    assert_int_equal(load(&f, 0x10000, 7).out, L1_RESFAIL);
    /* merge = 1: no merging at all */
    assert_int_equal(load(&f, 0, 7).out, L1_RESFAIL);
    fill_one(&f, m[2], 2 * 64 * 3);
    result x = load(&f, 0x10000, 7);
    assert_int_equal(x.out, L1_MISS);
    assert_int_equal(x.mshr, m[2]);
    unmake(&f);
}

/* ------------------------------------------------------- (d) write-evict ---- */

static void test_store_drops(void **state)
{
    (void)state;
    fixture f;
    make(&f, 2, 2, 128, 0, 4, 4);
    const uint64_t A = 0x000, C = 0x100, E = 0x200;
    assert_int_equal(l1d_store(f.c, A), 0); /* absent */
    miss_fill(&f, A, 0, -1, 0);
    hit(&f, A, 1, 0);
    assert_int_equal(l1d_store(f.c, A), 1);
    assert_int_equal(l1d_store(f.c, A), 0); /* already dropped */
    miss_fill(&f, A, 2, -1, 0);             /* misses again, into a free way */
    hit(&f, A, 0, 2);
    miss_fill(&f, C, 1, -1, 0); /* set 0 full: A, C */
    assert_int_equal(l1d_store(f.c, C), 1);
    miss_fill(&f, E, 3, -1, 0); /* the dropped way is reused: no eviction */
    hit(&f, A, 0, 2);
    hit(&f, E, 0, 3);
    /* a store to a line whose fill is pending does not touch it */
    result c = load(&f, C, 4);
    assert_int_equal(c.out, L1_MISS);
    assert_int_equal(c.evicted_warp, 2); /* A, least recently used */
    assert_int_equal(l1d_store(f.c, C), 0);
    fill_one(&f, c.mshr, C);
    hit(&f, C, 0, 4);
    unmake(&f);
}

/* ----------------------------------------------------------- (e) hashing ---- */

static void test_xor_hash(void **state)
{
    (void)state;
    fixture lin, xr;
    make(&lin, 8, 4, 128, 0, 4, 4);
    make(&xr, 8, 4, 128, 1, 4, 4);
    /* A stride of sets * line = 1024 bytes: every line in set 0 with linear indexing. */
    int seen_lin[8] = {0}, seen_xor[8] = {0};
    for (uint64_t k = 0; k < 8; k++) {
        seen_lin[l1d_set_of(lin.c, k * 1024)]++;
        int s = l1d_set_of(xr.c, k * 1024);
        assert_int_equal(s, (int)k); /* block 8k: (8k & 7) ^ (k & 7) = k */
        seen_xor[s]++;
    }
    assert_int_equal(seen_lin[0], 8);
    int used = 0;
    for (int s = 0; s < 8; s++)
        used += seen_xor[s] > 0;
    assert_int_equal(used, 8);
    /* by hand: block 0b101011 -> 0b011 ^ 0b101 = 0b110; linear: 0b011 */
    assert_int_equal(l1d_set_of(xr.c, 0x2bULL * 128), 6);
    assert_int_equal(l1d_set_of(lin.c, 0x2bULL * 128), 3);
    /* three slices: block 0b111_010_001 -> 1 ^ 2 ^ 7 = 4 */
    assert_int_equal(l1d_set_of(xr.c, 0x1d1ULL * 128), 4);

    /* The access pattern of the stride: thrashes one set of 4 ways linearly, fits with xor. */
    for (int round = 0; round < 3; round++) {
        for (uint64_t k = 0; k < 8; k++) {
            result a = load(&lin, k * 1024, 0);
            assert_int_equal(a.out, L1_MISS);
            fill_one(&lin, a.mshr, k * 1024);
            result b = load(&xr, k * 1024, 0);
            assert_int_equal(b.out, round == 0 ? L1_MISS : L1_HIT);
            if (b.out == L1_MISS) fill_one(&xr, b.mshr, k * 1024);
        }
    }
    unmake(&lin);
    unmake(&xr);
}

static void test_set_of_range(void **state)
{
    (void)state;
    static const struct {
        int sets, line, hash;
    } g[] = {{1, 128, 0}, {3, 128, 0}, {5, 64, 0},  {8, 128, 0}, {12, 32, 0},   {1, 128, 1},
             {2, 128, 1}, {8, 128, 1}, {32, 64, 1}, {64, 32, 1}, {1024, 512, 1}};
    wt_rng rng;
    wt_rng_seed(&rng, 99);
    for (size_t i = 0; i < sizeof g / sizeof g[0]; i++) {
        fixture f;
        make(&f, g[i].sets, 1, g[i].line, g[i].hash, 1, 1);
        int *seen = calloc((size_t)g[i].sets, sizeof(int));
        assert_non_null(seen);
        for (int k = 0; k < 20000; k++) {
            uint64_t a = k < 10000 ? wt_rng_next(&rng) : wt_rng_below(&rng, 1 << 24);
            uint64_t ln = l1d_line_of(f.c, a);
            int s = l1d_set_of(f.c, ln);
            if (s < 0 || s >= g[i].sets)
                fail_msg("sets %d hash %d: line %#llx -> set %d", g[i].sets, g[i].hash,
                         (unsigned long long)ln, s);
            seen[s]++;
            if (!g[i].hash) assert_int_equal(s, (int)(ln / (uint64_t)g[i].line % g[i].sets));
        }
        for (int s = 0; s < g[i].sets; s++)
            if (!seen[s]) fail_msg("sets %d hash %d: set %d never used", g[i].sets, g[i].hash, s);
        free(seen);
        unmake(&f);
    }
    /* extreme addresses */
    fixture f;
    make(&f, 16, 2, 128, 1, 1, 1);
    /* block 2^57 - 1: fourteen 4-bit slices of 0xf cancel, the 57th bit is left */
    assert_int_equal(l1d_set_of(f.c, l1d_line_of(f.c, UINT64_MAX)), 1);
    assert_int_equal(l1d_set_of(f.c, 0), 0);
    unmake(&f);
}

static void test_create_rejects(void **state)
{
    (void)state;
    fixture f;
    char err[256];
    l1d_config bad_line = {4, 2, 96, 0, 4, 4, 0, 0, 0};
    assert_int_equal(ph_l1d_try(&f, "lru", bad_line, 48, 1, NULL, err, sizeof err), -1);
    assert_non_null(strstr(err, "power"));
    l1d_config bad_xor = {6, 2, 128, 1, 4, 4, 0, 0, 0};
    assert_int_equal(ph_l1d_try(&f, "lru", bad_xor, 48, 1, NULL, err, sizeof err), -1);
    l1d_config too_many_ways = {4, L1D_MAX_WAYS + 1, 128, 0, 4, 4, 0, 0, 0};
    assert_int_equal(ph_l1d_try(&f, "lru", too_many_ways, 48, 1, NULL, err, sizeof err), -1);
    assert_non_null(strstr(err, "256 ways"));
    l1d_config ok_linear = {6, 2, 128, 0, 4, 4, 0, 0, 0};
    assert_int_equal(ph_l1d_try(&f, "lru", ok_linear, 48, 1, NULL, err, sizeof err), 0);
    ph_l1d_free(&f);
}

/* ------------------------------------------------------ the victim check ---- */

/* Policies that answer victim() the same whatever the set holds. */
static int answer_create(void **self, const l1_env *env, const param_set *p, char *err,
                         size_t errlen)
{
    (void)env, (void)p, (void)err, (void)errlen;
    *self = NULL;
    return 0;
}

static void answer_destroy(void *self)
{
    (void)self;
}

static int way0(void *self, const l1_request *r, const l1_set_view *s)
{
    (void)self, (void)r, (void)s;
    return 0;
}

static int past_the_ways(void *self, const l1_request *r, const l1_set_view *s)
{
    (void)self, (void)r;
    return s->ways;
}

static int negative(void *self, const l1_request *r, const l1_set_view *s)
{
    (void)self, (void)r, (void)s;
    return -3; /* neither L1_BYPASS nor L1_STALL */
}

static const l1_policy_ops answer_ops[] = {
    {.name = "way0",
     .doc = "way 0",
     .create = answer_create,
     .destroy = answer_destroy,
     .victim = way0},
    {.name = "past",
     .doc = "way `ways`",
     .create = answer_create,
     .destroy = answer_destroy,
     .victim = past_the_ways},
    {.name = "negative",
     .doc = "-3",
     .create = answer_create,
     .destroy = answer_destroy,
     .victim = negative},
};

/* Loads `loads` lines of set 0 of a 1-set 2-way cache (no fills) with the policy; returns the
 * last outcome. */
static l1_outcome load_with(const l1_policy_ops *ops, int loads)
{
    l1d_config cfg = {1, 2, 128, 0, 8, 4, 0, 0, 0};
    param_set *p = param_set_new();
    wt_rng rng;
    wt_rng_seed(&rng, 1);
    l1_env env = {{1, 2, 128}, 0, 48, &rng, false};
    l1d *c = NULL;
    char err[256];
    if (l1d_create(&c, &cfg, ops, &env, p, err, sizeof err) != 0) fail_msg("%s", err);
    l1_outcome o = L1_HIT;
    for (int k = 0; k < loads; k++) {
        l1_request r = {0};
        r.line_addr = (uint64_t)k * 128;
        r.divergence = 1;
        int m, owner, ew;
        uint64_t el;
        o = l1d_load(c, &r, 0, 1, &m, &owner, &ew, &el);
    }
    l1d_destroy(c);
    param_set_free(p);
    return o;
}

/* Did loading in a child process abort it (the debug check)? */
static int aborts(const l1_policy_ops *ops, int loads)
{
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        signal(SIGABRT, SIG_DFL); /* not the test runner's handler */
        if (!freopen("/dev/null", "w", stderr)) _exit(3);
        load_with(ops, loads);
        _exit(0);
    }
    int st = 0;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    return WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT;
}

static void test_victim_check(void **state)
{
    (void)state;
    /* a legal answer: way 0, free, is allocated and reserved */
    assert_int_equal(load_with(&answer_ops[0], 1), L1_MISS);
    assert_false(aborts(&answer_ops[0], 1));
#ifndef NDEBUG
    /* way 0 again while it waits for its fill, a way past the set, a negative way */
    assert_true(aborts(&answer_ops[0], 2));
    assert_true(aborts(&answer_ops[1], 1));
    assert_true(aborts(&answer_ops[2], 1));
#else
    /* without the check an illegal answer is taken as a stall */
    assert_int_equal(load_with(&answer_ops[0], 2), L1_RESFAIL);
    assert_int_equal(load_with(&answer_ops[1], 1), L1_RESFAIL);
    assert_int_equal(load_with(&answer_ops[2], 1), L1_RESFAIL);
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_sequence),    cmocka_unit_test(test_random_vs_reference),
        cmocka_unit_test(test_mshr_merge),       cmocka_unit_test(test_reserved_set),
        cmocka_unit_test(test_mshr_count_exact), cmocka_unit_test(test_store_drops),
        cmocka_unit_test(test_xor_hash),         cmocka_unit_test(test_set_of_range),
        cmocka_unit_test(test_create_rejects),   cmocka_unit_test(test_victim_check),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
