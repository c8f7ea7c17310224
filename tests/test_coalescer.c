/* Tests of the coalescer: coherent, strided and random warps, inactive lanes, sector masks, and
 * the invariants of its output checked against a brute-force model. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "core/sim/coalescer.h"
#include "core/util/rng.h"

#define ALL 0xffffffffu

static void fill_stride(uint32_t *addr, uint32_t base, uint32_t stride)
{
    for (int l = 0; l < 32; l++)
        addr[l] = base + (uint32_t)l * stride;
}

/* Checks every invariant of a coalescer result against the input, by brute force:
 * - the accesses are distinct lines, each line-aligned;
 * - their lane masks partition the active lanes, each lane in the line of its address;
 * - the number of accesses is the number of distinct lines of active lanes;
 * - accesses come in the order of their lowest lane;
 * - the sector mask is exactly the sectors the lanes' addresses fall in. */
static void check(const uint32_t *addr, uint32_t mask, int line, int sector, const line_access *out,
                  int n)
{
    uint64_t lm = ~(uint64_t)(line - 1);
    /* distinct lines of active lanes */
    uint64_t lines[32];
    int nd = 0;
    for (int l = 0; l < 32; l++) {
        if (!(mask >> l & 1)) continue;
        uint64_t ln = addr[l] & lm;
        int seen = 0;
        for (int k = 0; k < nd; k++)
            seen |= lines[k] == ln;
        if (!seen) lines[nd++] = ln;
    }
    assert_int_equal(n, nd);
    uint32_t covered = 0;
    int prev_low = -1;
    for (int i = 0; i < n; i++) {
        assert_int_equal(out[i].line & ~lm, 0);
        for (int j = 0; j < i; j++)
            assert_int_not_equal(out[j].line, out[i].line);
        assert_int_not_equal(out[i].lanes, 0);
        assert_int_equal(out[i].lanes & covered, 0);
        covered |= out[i].lanes;
        int low = __builtin_ctz(out[i].lanes);
        assert_in_range(low, prev_low + 1, 31);
        prev_low = low;
        uint32_t sectors = 0;
        for (int l = 0; l < 32; l++) {
            uint64_t ln = addr[l] & lm;
            int in = (mask >> l & 1) && ln == out[i].line;
            assert_int_equal((out[i].lanes >> l) & 1, in);
            if (in) sectors |= 1u << ((addr[l] - ln) / (uint64_t)sector);
        }
        assert_int_equal(out[i].sectors, sectors);
        if (line / sector < 32) assert_int_equal(out[i].sectors >> (line / sector), 0);
    }
    assert_int_equal(covered, mask);
}

/* One access as expected: its line, sectors and lanes. */
static void expect_access(const line_access *a, uint64_t line, uint32_t sectors, uint32_t lanes)
{
    assert_int_equal(a->line, line);
    assert_int_equal(a->sectors, sectors);
    assert_int_equal(a->lanes, lanes);
}

static int run(const uint32_t *addr, uint32_t mask, int line, int sector, line_access *out)
{
    memset(out, 0xa5, 33 * sizeof *out);
    int n = coalesce(addr, mask, line, sector, out);
    assert_in_range(n, 0, 32);
    check(addr, mask, line, sector, out, n);
    return n;
}

static void test_coherent(void **state)
{
    (void)state;
    uint32_t a[32];
    line_access out[33];
    fill_stride(a, 0x1000, 4);
    assert_int_equal(run(a, ALL, 128, 32, out), 1);
    assert_int_equal(out[0].line, 0x1000);
    assert_int_equal(out[0].lanes, ALL);
    assert_int_equal(out[0].sectors, 0xf);
    /* 4-byte sectors: each lane its own */
    assert_int_equal(run(a, ALL, 128, 4, out), 1);
    assert_int_equal(out[0].sectors, ALL);
    /* a sector-wide line: one sector */
    assert_int_equal(run(a, ALL, 128, 128, out), 1);
    assert_int_equal(out[0].sectors, 1);
    /* misaligned by 64 bytes: two lines, the second half of one and the first of the next */
    fill_stride(a, 0x1040, 4);
    assert_int_equal(run(a, ALL, 128, 32, out), 2);
    assert_int_equal(out[0].line, 0x1000);
    assert_int_equal(out[0].lanes, 0x0000ffffu);
    assert_int_equal(out[0].sectors, 0xc);
    assert_int_equal(out[1].line, 0x1080);
    assert_int_equal(out[1].lanes, 0xffff0000u);
    assert_int_equal(out[1].sectors, 0x3);
    /* 64-byte lines: two accesses of two sectors each */
    fill_stride(a, 0x2000, 4);
    assert_int_equal(run(a, ALL, 64, 32, out), 2);
    assert_int_equal(out[0].line, 0x2000);
    assert_int_equal(out[0].lanes, 0x0000ffffu);
    assert_int_equal(out[0].sectors, 0x3);
    assert_int_equal(out[1].line, 0x2040);
    assert_int_equal(out[1].sectors, 0x3);
    /* every lane the same word: one access, one sector */
    for (int l = 0; l < 32; l++)
        a[l] = 0x3064;
    assert_int_equal(run(a, ALL, 128, 32, out), 1);
    assert_int_equal(out[0].line, 0x3000);
    assert_int_equal(out[0].sectors, 0x8);
}

static void test_strided(void **state)
{
    (void)state;
    uint32_t a[32];
    line_access out[33];
    /* stride 128: a line per lane, in lane order */
    fill_stride(a, 0x10000, 128);
    assert_int_equal(run(a, ALL, 128, 32, out), 32);
    for (int l = 0; l < 32; l++) {
        assert_int_equal(out[l].line, 0x10000 + 128 * (uint32_t)l);
        assert_int_equal(out[l].lanes, 1u << l);
        assert_int_equal(out[l].sectors, 1);
    }
    /* descending addresses still come out in lane order */
    for (int l = 0; l < 32; l++)
        a[l] = 0x20000 - 256 * (uint32_t)l + 40;
    assert_int_equal(run(a, ALL, 128, 32, out), 32);
    for (int l = 0; l < 32; l++) {
        assert_int_equal(out[l].line, 0x20000 - 256 * (uint32_t)l);
        assert_int_equal(out[l].lanes, 1u << l);
        assert_int_equal(out[l].sectors, 2); /* offset 40: sector 1 */
    }
    /* stride 8: 256 bytes, two lines of sixteen lanes */
    fill_stride(a, 0x4000, 8);
    assert_int_equal(run(a, ALL, 128, 32, out), 2);
    assert_int_equal(out[0].line, 0x4000);
    assert_int_equal(out[0].lanes, 0x0000ffffu);
    assert_int_equal(out[0].sectors, 0xf);
    assert_int_equal(out[1].line, 0x4080);
    assert_int_equal(out[1].lanes, 0xffff0000u);
    assert_int_equal(out[1].sectors, 0xf);
    /* stride 64: two lanes per line, sectors 0 and 2 */
    fill_stride(a, 0, 64);
    assert_int_equal(run(a, ALL, 128, 32, out), 16);
    for (int i = 0; i < 16; i++) {
        assert_int_equal(out[i].line, 128 * (uint32_t)i);
        assert_int_equal(out[i].lanes, 3u << (2 * i));
        assert_int_equal(out[i].sectors, 0x5);
    }
    /* stride 32 with 32-byte lines: one line per lane */
    fill_stride(a, 0x100, 32);
    assert_int_equal(run(a, ALL, 32, 32, out), 32);
}

static void test_masks(void **state)
{
    (void)state;
    uint32_t a[32];
    line_access out[33];
    fill_stride(a, 0x1000, 128);
    assert_int_equal(coalesce(a, 0, 128, 32, out), 0);
    assert_int_equal(run(a, 0x80000001u, 128, 32, out), 2);
    assert_int_equal(out[0].line, 0x1000);
    assert_int_equal(out[0].lanes, 1);
    assert_int_equal(out[1].line, 0x1000 + 31 * 128);
    assert_int_equal(out[1].lanes, 0x80000000u);
    /* inactive lanes' addresses are ignored, even wild ones */
    fill_stride(a, 0x1000, 4);
    for (int l = 1; l < 32; l += 2)
        a[l] = 0xdead0000u + (uint32_t)l * 4096;
    assert_int_equal(run(a, 0x55555555u, 128, 32, out), 1);
    assert_int_equal(out[0].line, 0x1000);
    assert_int_equal(out[0].lanes, 0x55555555u);
    assert_int_equal(out[0].sectors, 0xf);
    /* only the first eight lanes: the first sector only */
    fill_stride(a, 0x1000, 4);
    assert_int_equal(run(a, 0xffu, 128, 32, out), 1);
    assert_int_equal(out[0].sectors, 0x1);
    assert_int_equal(run(a, 0xff000000u, 128, 32, out), 1);
    assert_int_equal(out[0].sectors, 0x8);
    assert_int_equal(out[0].lanes, 0xff000000u);
    assert_int_equal(run(a, 0x01010101u, 128, 32, out), 1);
    assert_int_equal(out[0].sectors, 0xf);
    /* one lane */
    assert_int_equal(run(a, 1u << 17, 128, 32, out), 1);
    assert_int_equal(out[0].lanes, 1u << 17);
    assert_int_equal(out[0].sectors, 1u << 2); /* byte 68 */
    /* the highest addresses */
    for (int l = 0; l < 32; l++)
        a[l] = 0xffffffffu - (uint32_t)l;
    assert_int_equal(run(a, ALL, 128, 32, out), 1);
    assert_int_equal(out[0].line, 0xffffff80u);
    assert_int_equal(out[0].sectors, 0x8);
}

static void test_random(void **state)
{
    (void)state;
    static const int geom[][2] = {{32, 32},   {64, 32},  {128, 32}, {128, 4},
                                  {128, 128}, {256, 32}, {64, 8},   {512, 16}};
    wt_rng rng;
    wt_rng_seed(&rng, 424242);
    uint32_t a[32];
    line_access out[33];
    for (int iter = 0; iter < 4000; iter++) {
        int line = geom[iter % 8][0], sector = geom[iter % 8][1];
        uint32_t mask = (uint32_t)wt_rng_next(&rng);
        if (iter % 5 == 0) mask = ALL;
        /* a region from one line to far more than 32 lines, so the count varies widely */
        uint32_t span = 1u << (5 + wt_rng_below(&rng, 14));
        uint32_t base = (uint32_t)wt_rng_next(&rng) & ~(uint32_t)3;
        if (base > 0xffffffffu - span) base -= span;
        for (int l = 0; l < 32; l++)
            a[l] = base + ((uint32_t)wt_rng_below(&rng, span) & ~(uint32_t)3);
        run(a, mask, line, sector, out);
    }
}

/* Full warps whose addresses rise lane by lane (the coalescer's shortcut for coherent
 * accesses) with steps around the sector size, within a line and across lines, and falling or
 * wrapping ones, which must take the general path: all checked by brute force. */
static void test_rising(void **state)
{
    (void)state;
    static const int geom[][2] = {{128, 32}, {128, 4}, {128, 128}, {64, 8}, {256, 32}, {32, 32}};
    wt_rng rng;
    wt_rng_seed(&rng, 777);
    uint32_t a[32];
    line_access out[33];
    int single = 0;
    for (int iter = 0; iter < 6000; iter++) {
        int line = geom[iter % 6][0], sector = geom[iter % 6][1];
        uint32_t base = (uint32_t)wt_rng_next(&rng) & ~(uint32_t)3;
        if (iter % 7 == 0) base = 0xffffffffu - (uint32_t)wt_rng_below(&rng, 256); /* wraps */
        int max_step = (int)wt_rng_below(&rng, 3) == 0 ? sector + 4 : sector;
        a[0] = base;
        for (int l = 1; l < 32; l++)
            a[l] = a[l - 1] + 4u * (uint32_t)wt_rng_below(&rng, (uint64_t)max_step / 4 + 1);
        if (iter % 11 == 0) /* falling: lanes in reverse */
            for (int l = 0; l < 16; l++) {
                uint32_t t = a[l];
                a[l] = a[31 - l];
                a[31 - l] = t;
            }
        single += run(a, ALL, line, sector, out) == 1;
    }
    assert_true(single > 100); /* the shortcut's case did come up */
    /* by hand: 4-byte words from byte 8 of a line, 32-byte sectors: bytes 8..131 cross into
     * the next line; from byte 0: sectors 0-3 of one line; 8-byte words from byte 0 of a
     * 256-byte line: bytes 0..255, all eight sectors */
    fill_stride(a, 0x2008, 4);
    assert_int_equal(run(a, ALL, 128, 32, out), 2);
    fill_stride(a, 0x2000, 4);
    assert_int_equal(run(a, ALL, 128, 32, out), 1);
    assert_int_equal(out[0].sectors, 0xf);
    fill_stride(a, 0x2000, 8);
    assert_int_equal(run(a, ALL, 256, 32, out), 1);
    assert_int_equal(out[0].sectors, 0xff);
    /* every lane on one word: sector 2 only */
    fill_stride(a, 0x2044, 0);
    assert_int_equal(run(a, ALL, 128, 32, out), 1);
    assert_int_equal(out[0].sectors, 0x4);
}

/* Volta's 32-byte transactions: lanes 0-23 read words 0-23 of line 0 (sectors 0, 1 and 2)
 * and lanes 24-31 word 0 of line 4096 (its sector 0). Split: line 0's sectors in order, each
 * with its eight lanes, then line 4096's. Over random addresses every lane lands in exactly
 * one piece, of one sector, the one its address is in. */
static void test_split_sectors(void **state)
{
    (void)state;
    uint32_t addr[32];
    for (int l = 0; l < 32; l++)
        addr[l] = l < 24 ? 4u * (uint32_t)l : 4096u;
    line_access acc[32];
    int n = coalesce(addr, ~0u, 128, 32, acc);
    assert_int_equal(n, 2);
    n = coalesce_split_sectors(addr, acc, n, 32);
    assert_int_equal(n, 4);
    expect_access(&acc[0], 0, 1, 0xffu);
    expect_access(&acc[1], 0, 2, 0xff00u);
    expect_access(&acc[2], 0, 4, 0xff0000u);
    expect_access(&acc[3], 4096, 1, 0xff000000u);
    /* already one sector each: unchanged */
    assert_int_equal(coalesce_split_sectors(addr, acc, 4, 32), 4);
    /* property: over random addresses the pieces partition the lanes, one sector each */
    uint64_t x = 88172645463325252ull;
    for (int t = 0; t < 200; t++) {
        for (int l = 0; l < 32; l++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            addr[l] = (uint32_t)(x % 2048) & ~3u;
        }
        int m = coalesce(addr, ~0u, 128, 32, acc);
        int k = coalesce_split_sectors(addr, acc, m, 32);
        uint32_t seen = 0;
        for (int i = 0; i < k; i++) {
            assert_int_equal(__builtin_popcount(acc[i].sectors), 1);
            assert_int_equal(seen & acc[i].lanes, 0);
            seen |= acc[i].lanes;
            for (uint32_t l = acc[i].lanes; l; l &= l - 1) {
                uint32_t a = addr[__builtin_ctz(l)];
                assert_int_equal(a & ~127u, acc[i].line);
                assert_int_equal(1u << ((a & 127u) >> 5), acc[i].sectors);
            }
        }
        assert_int_equal(seen, ~0u);
    }
}

/* coalesce_sort (l1d.access_order=descending takes the sorted list from its end): lanes 0-7
 * read line 4096, lanes 8-15 line 0 (sector 1) and lanes 16-31 line 0 (sector 0, two lanes a
 * word), so the lane order is 4096, 0; split, 4096 s0, 0 s0, 0 s1; sorted, 0 s0, 0 s1, 4096
 * s0, each piece keeping its lanes. Over random addresses the sort keeps the pieces and puts
 * them in address order. */
static void test_sort(void **state)
{
    (void)state;
    uint32_t addr[32];
    for (int l = 0; l < 32; l++)
        addr[l] = l < 8 ? 4096u : l < 16 ? 32u + 4u * (uint32_t)(l - 8) : 4u * (uint32_t)(l & 7);
    line_access acc[32];
    int n = coalesce(addr, ~0u, 128, 32, acc);
    assert_int_equal(n, 2);
    assert_int_equal(acc[0].line, 4096);
    assert_int_equal(acc[1].line, 0);
    n = coalesce_split_sectors(addr, acc, n, 32);
    assert_int_equal(n, 3);
    coalesce_sort(acc, n);
    expect_access(&acc[0], 0, 1, 0xffff0000u);
    expect_access(&acc[1], 0, 2, 0xff00u);
    expect_access(&acc[2], 4096, 1, 0xffu);
    uint64_t x = 88172645463325252ull;
    for (int t = 0; t < 200; t++) {
        for (int l = 0; l < 32; l++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            addr[l] = (uint32_t)(x % 8192) & ~3u;
        }
        int m = coalesce(addr, ~0u, 128, 32, acc);
        if (t & 1) m = coalesce_split_sectors(addr, acc, m, 32);
        uint32_t lanes = 0;
        coalesce_sort(acc, m);
        for (int i = 0; i < m; i++) {
            lanes |= acc[i].lanes;
            if (i == 0) continue;
            uint64_t a = acc[i - 1].line * 32u + (uint64_t)__builtin_ctz(acc[i - 1].sectors);
            uint64_t b = acc[i].line * 32u + (uint64_t)__builtin_ctz(acc[i].sectors);
            assert_true(a < b);
        }
        assert_int_equal(lanes, ~0u);
    }
}

/* GPGPU-Sim's atomic requests: one per segment and repeated address, in the order they are
 * made, each as its line and the segment's bit: lanes 0 and 1 on the last word of line 0x1000
 * (two requests, sector 3), lane 2 on line 0x2000's first word (sector 0), lane 3 beside lane
 * 0 (joining its first request). */
static void test_atomic(void **state)
{
    (void)state;
    uint32_t addr[32] = {0x107c, 0x107c, 0x2004, 0x1078};
    line_access out[32];
    int n = coalesce_atomic(addr, 0xf, 128, 32, out);
    assert_int_equal(n, 3);
    assert_int_equal(out[0].line, 0x1000);
    assert_int_equal(out[0].lanes, 0x9);
    assert_int_equal(out[0].sectors, 0x8);
    assert_int_equal(out[1].line, 0x1000);
    assert_int_equal(out[1].lanes, 0x2);
    assert_int_equal(out[1].sectors, 0x8);
    assert_int_equal(out[2].line, 0x2000);
    assert_int_equal(out[2].lanes, 0x4);
    assert_int_equal(out[2].sectors, 0x1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_coherent), cmocka_unit_test(test_strided),
        cmocka_unit_test(test_masks),    cmocka_unit_test(test_random),
        cmocka_unit_test(test_rising),   cmocka_unit_test(test_split_sectors),
        cmocka_unit_test(test_sort),     cmocka_unit_test(test_atomic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
