/* Tests of the sectored caches and of the L1D's insertion at the miss, driven directly: the
 * coalescer's sector masks of the two textbook warps, a sectored L1D (MISS, SECTOR_MISS,
 * HIT_RESERVED, per-sector MSHRs and every reservation failure), a sectored L2 slice with
 * hand-computed times and DRAM bytes, and LRU's order with l1d.recency=miss. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "core/mem/memsys.h"
#include "tests/support/memsys_support.h"
#include "core/sim/coalescer.h"
#include "core/sim/l1d.h"
#include "tests/support/policy_harness.h"

/* ------------------------------------------------------------------ coalescer ---- */

/* 32 consecutive 4-byte words: one access of the four sectors of one line. A stride of 128
 * bytes: 32 accesses of one sector each. */
static void test_coalescer_sectors(void **state)
{
    (void)state;
    uint32_t addr[32];
    line_access acc[32];
    for (int l = 0; l < 32; l++)
        addr[l] = 4096 + 4u * (uint32_t)l;
    assert_int_equal(coalesce(addr, ~0u, 128, 32, acc), 1);
    assert_int_equal(acc[0].sectors, 0xf);
    for (int l = 0; l < 32; l++)
        addr[l] = 4096 + 128u * (uint32_t)l + 36;
    assert_int_equal(coalesce(addr, ~0u, 128, 32, acc), 32);
    for (int i = 0; i < 32; i++)
        assert_int_equal(acc[i].sectors, 0x2);
}

/* ---------------------------------------------------------------- sectored L1D ---- */

typedef ph_l1d fixture;

static void make(fixture *f, int ways, int mshrs, int merge, int recency_miss, int sectored)
{
    ph_l1d_make(f, "lru", (l1d_config){1, ways, 128, 0, mshrs, merge, sectored, recency_miss, 0},
                48, 1, NULL);
}

typedef struct res {
    l1_outcome o;
    l1_sectors s;
    int evicted;
    uint64_t evicted_line;
} res;

static res ld(fixture *f, uint64_t line, uint32_t sectors, uint32_t waiter, int slots)
{
    l1_request r = {0};
    r.line_addr = line;
    r.warp_slot = (int)waiter;
    r.divergence = 1;
    res x;
    memset(&x, 0, sizeof x);
    int owner = -1;
    x.o = l1d_load_sectors(f->c, &r, sectors, waiter, slots, &x.s, &owner, &x.evicted,
                           &x.evicted_line);
    return x;
}

static int fill(fixture *f, int mshr, uint32_t *waiters)
{
    uint64_t line;
    return l1d_fill(f->c, mshr, waiters, &line);
}

/* Hand-checked on one set of two 128-byte ways (four sectors each), 4 MSHRs merging 2:
 *   load line 0 sector 0          MISS: way reserved, 1 MSHR, 1 request
 *   load line 0 sectors 0,1       sector 0 on its way (HIT_RESERVED), sector 1 SECTOR_MISS
 *   fill sector 0                 both waiters; the line valid, still reserved for sector 1
 *   load line 0 sector 0          HIT
 *   load line 0 sectors 0,2       sector 0 hit, sector 2 fetched */
static void test_l1d_sector_sequence(void **state)
{
    (void)state;
    fixture f;
    make(&f, 2, 4, 2, 0, 1);
    res a = ld(&f, 0, 0x1, 10, 4);
    assert_int_equal(a.o, L1_MISS);
    assert_int_equal(a.s.miss, 0x1);
    assert_int_equal(a.s.hit, 0);
    assert_int_equal(a.s.merged, 0);
    assert_true(a.s.line_miss);
    int m0 = a.s.mshr[0];

    res b = ld(&f, 0, 0x3, 11, 4);
    assert_int_equal(b.o, L1_MISS);
    assert_int_equal(b.s.merged, 0x1);
    assert_int_equal(b.s.miss, 0x2);
    assert_false(b.s.line_miss); /* SECTOR_MISS */
    assert_int_equal(b.s.mshr[0], m0);
    int m1 = b.s.mshr[1];
    assert_int_not_equal(m1, m0);

    uint32_t w[8];
    assert_int_equal(fill(&f, m0, w), 2);
    assert_int_equal(w[0], 10);
    assert_int_equal(w[1], 11);

    res c = ld(&f, 0, 0x1, 12, 4);
    assert_int_equal(c.o, L1_HIT);
    assert_int_equal(c.s.hit, 0x1);

    res d = ld(&f, 0, 0x5, 13, 4);
    assert_int_equal(d.o, L1_MISS);
    assert_int_equal(d.s.hit, 0x1);
    assert_int_equal(d.s.miss, 0x4);

    /* sector 1 merges (HIT_RESERVED) without fetching anything */
    res e = ld(&f, 0, 0x2, 14, 0);
    assert_int_equal(e.o, L1_MERGED);
    assert_int_equal(e.s.merged, 0x2);
    assert_int_equal(fill(&f, m1, w), 2);
    assert_int_equal(w[0], 11);
    assert_int_equal(w[1], 14);
    ph_l1d_free(&f);
}

/* Every failure, each before anything changes: a full merge slot, too few MSHRs for the
 * missing sectors, too few requests the SM can send, every way reserved. */
static void test_l1d_sector_failures(void **state)
{
    (void)state;
    fixture f;
    make(&f, 1, 3, 1, 0, 1);
    res a = ld(&f, 0, 0x3, 1, 4); /* 2 MSHRs */
    assert_int_equal(a.o, L1_MISS);
    /* sector 0 again: its MSHR merges one request only */
    assert_int_equal(ld(&f, 0, 0x1, 2, 4).o, L1_RESFAIL);
    assert_int_equal(l1d_last_fail(f.c), L1F_MERGE);
    assert_true(l1d_load_sectors_needs_fill(f.c, 0, 0x1, 4));
    /* sectors 2 and 3: two more MSHRs, one left */
    assert_int_equal(ld(&f, 0, 0xc, 3, 4).o, L1_RESFAIL);
    assert_int_equal(l1d_last_fail(f.c), L1F_MSHR);
    assert_true(l1d_load_sectors_needs_fill(f.c, 0, 0xc, 4));
    /* sector 2 alone fits, but not without a request slot */
    assert_int_equal(ld(&f, 0, 0x4, 3, 0).o, L1_RESFAIL);
    assert_int_equal(l1d_last_fail(f.c), L1F_SEND);
    assert_false(l1d_load_sectors_needs_fill(f.c, 0, 0x4, 0));
    /* another line: the only way is reserved */
    assert_int_equal(ld(&f, 128, 0x1, 4, 4).o, L1_RESFAIL);
    assert_int_equal(l1d_last_fail(f.c), L1F_RESERVED);
    assert_true(l1d_load_sectors_needs_fill(f.c, 128, 0x1, 4));
    uint32_t w[4];
    assert_int_equal(fill(&f, a.s.mshr[0], w), 1);
    assert_int_equal(fill(&f, a.s.mshr[1], w), 1);
    /* the line is valid and no longer reserved: the other line replaces it */
    res b = ld(&f, 128, 0x1, 4, 4);
    assert_int_equal(b.o, L1_MISS);
    assert_int_equal(b.evicted, 1);
    assert_int_equal(b.evicted_line, 0);
    ph_l1d_free(&f);
}

/* A store drops the valid sectors; the line's outstanding sector still arrives. */
static void test_l1d_sector_store(void **state)
{
    (void)state;
    fixture f;
    make(&f, 2, 4, 2, 0, 1);
    res a = ld(&f, 0, 0x1, 1, 4);
    uint32_t w[4];
    fill(&f, a.s.mshr[0], w);
    res b = ld(&f, 0, 0x2, 2, 4);
    assert_false(b.s.line_miss);
    assert_int_equal(l1d_store(f.c, 0), 1);
    res c = ld(&f, 0, 0x1, 3, 4); /* dropped: fetched again, in the same way */
    assert_int_equal(c.o, L1_MISS);
    assert_false(c.s.line_miss);
    fill(&f, b.s.mshr[1], w);
    assert_int_equal(ld(&f, 0, 0x2, 4, 4).o, L1_HIT);
    ph_l1d_free(&f);
}

/* ------------------------------------------------------------- insertion time ---- */

/* Two ways, lines A and B missed in that order, filled in the other order, then C misses.
 * l1d.recency=fill (today): B was inserted first, so it is the LRU victim. miss (GPGPU-Sim,
 * tag_array::access stamps the line when it allocates it): A was allocated first: A goes. */
static void test_recency_fill_vs_miss(void **state)
{
    (void)state;
    for (int sectored = 0; sectored <= 1; sectored++) {
        for (int miss = 0; miss <= 1; miss++) {
            fixture f;
            make(&f, 2, 4, 2, miss, sectored);
            uint32_t w[4];
            int ma, mb;
            l1_request r = {0};
            int owner, ev;
            uint64_t evl;
            if (sectored) {
                ma = ld(&f, 0, 0x1, 1, 4).s.mshr[0];
                mb = ld(&f, 128, 0x1, 2, 4).s.mshr[0];
            } else {
                r.line_addr = 0;
                assert_int_equal(l1d_load(f.c, &r, 1, 1, &ma, &owner, &ev, &evl), L1_MISS);
                r.line_addr = 128;
                assert_int_equal(l1d_load(f.c, &r, 2, 1, &mb, &owner, &ev, &evl), L1_MISS);
            }
            fill(&f, mb, w);
            fill(&f, ma, w);
            uint64_t victim;
            if (sectored) {
                res c = ld(&f, 256, 0x1, 3, 4);
                assert_int_equal(c.o, L1_MISS);
                victim = c.evicted_line;
            } else {
                int mc;
                r.line_addr = 256;
                assert_int_equal(l1d_load(f.c, &r, 3, 1, &mc, &owner, &ev, &evl), L1_MISS);
                victim = evl;
            }
            assert_int_equal(victim, miss ? 0 : 128);
            ph_l1d_free(&f);
        }
    }
}

/* One set of 256 ways (Volta's carveout with no shared memory: 4 sets of 256): 256 lines miss
 * and fill without an eviction; each line then hits a new sector as a SECTOR_MISS in its own
 * way (ways past the first 64 are found), line 0 is used again, and the 257th line evicts line
 * 1, the least recently allocated after line 0 was touched. */
static void test_l1d_sector_many_ways(void **state)
{
    (void)state;
    fixture f;
    make(&f, 256, 512, 2, 1, 1);
    uint32_t w[4];
    for (uint64_t i = 0; i < 256; i++) {
        res a = ld(&f, i * 128, 0x1, (uint32_t)i, 4);
        assert_int_equal(a.o, L1_MISS);
        assert_true(a.s.line_miss);
        assert_int_equal(a.evicted, -1);
        assert_int_equal(fill(&f, a.s.mshr[0], w), 1);
    }
    for (uint64_t i = 0; i < 256; i += 51) {
        res h = ld(&f, i * 128, 0x1, 1, 4);
        assert_int_equal(h.o, L1_HIT);
        res m = ld(&f, i * 128, 0x2, 1, 4);
        assert_int_equal(m.o, L1_MISS);
        assert_false(m.s.line_miss); /* the line was found, in way i */
        assert_int_equal(fill(&f, m.s.mshr[0], w), 1);
    }
    res n = ld(&f, 256 * 128, 0x1, 2, 4);
    assert_int_equal(n.o, L1_MISS);
    assert_int_equal(n.evicted_line, 1 * 128);
    ph_l1d_free(&f);
}

/* With insertion at the miss a merge is a use (HIT_RESERVED touches the line): A missed
 * first, B second, a merge into A's miss, both filled: B is the older. */
static void test_recency_miss_merge_promotes(void **state)
{
    (void)state;
    fixture f;
    make(&f, 2, 4, 2, 1, 0);
    l1_request r = {0};
    int ma, mb, mm, owner, ev;
    uint64_t evl;
    r.line_addr = 0;
    l1d_load(f.c, &r, 1, 1, &ma, &owner, &ev, &evl);
    r.line_addr = 128;
    l1d_load(f.c, &r, 2, 1, &mb, &owner, &ev, &evl);
    r.line_addr = 0;
    assert_int_equal(l1d_load(f.c, &r, 3, 1, &mm, &owner, &ev, &evl), L1_MERGED);
    uint32_t w[4];
    uint64_t line;
    l1d_fill(f.c, ma, w, &line);
    l1d_fill(f.c, mb, w, &line);
    r.line_addr = 256;
    int mc;
    assert_int_equal(l1d_load(f.c, &r, 4, 1, &mc, &owner, &ev, &evl), L1_MISS);
    assert_int_equal(evl, 128);
    ph_l1d_free(&f);
}

/* ----------------------------------------------------------------- sectored L2 ---- */

static memsys_config l2_config(void)
{
    memsys_config c = tm_base_config();
    c.l2_sectored = 1;
    return c;
}

static uint64_t read_at(memsys *m, uint64_t addr, uint32_t bytes, uint64_t now)
{
    mem_packet p = {.addr = addr, .bytes = bytes, .kind = MEM_READ, .sm = 0, .token = 1};
    assert_int_equal(memsys_send(m, &p, now), 0);
    for (uint64_t t = now; t < now + 10000; t++) {
        memsys_tick(m, t);
        mem_packet r;
        if (memsys_pop_reply(m, 0, t, &r)) return t;
    }
    fail_msg("no reply");
    return 0;
}

/* Times as test_memsys's idle read (request 1 cycle, icnt 10, L2 100, DRAM t_rcd 12 and t_cl
 * 12, 16 bytes a cycle), with only the sectors asked for on the DRAM bus:
 *   32 B at 0 (MISS):           arrive 11, activate, column 23, data 35 + 2, reply 137 + 10 + 2
 *   32 B at 32 (SECTOR_MISS):   200 + 11, open row: column 211, data 223 + 2, reply + 100 + 12
 *   32 B at 0 (HIT):            400 + 11 + 100 + 12
 *   128 B at 0 (two missing):   600 + 11, column, data 623 + 4, + 100, reply 10 + ceil(136/32)
 * Sectors: 1 + 1 + 1 + 4 accesses, 3 hits; 32 + 32 + 64 DRAM bytes in 3 reads. */
static void test_l2_sectored_idle(void **state)
{
    (void)state;
    memsys_config c = l2_config();
    memsys *m = NULL;
    char err[256];
    assert_int_equal(memsys_create(&m, &c, err, sizeof err), 0);
    assert_int_equal(read_at(m, 0, 32, 0), 149);
    assert_int_equal(read_at(m, 32, 32, 200), 200 + 11 + 12 + 2 + 100 + 12);
    assert_int_equal(read_at(m, 0, 32, 400), 400 + 11 + 100 + 12);
    assert_int_equal(read_at(m, 0, 128, 600), 600 + 11 + 12 + 4 + 100 + 10 + 5);
    memsys_stats st;
    memsys_get_stats(m, &st);
    assert_int_equal(st.l2_accesses, 7);
    assert_int_equal(st.l2_hits, 3);
    assert_int_equal(st.l2_misses, 4);
    assert_int_equal(st.dram_reads, 3);
    assert_int_equal(st.dram_bytes, 128);
    memsys_destroy(m);

    /* the same reads unsectored: the first fetches the whole line, the rest hit */
    c.l2_sectored = 0;
    assert_int_equal(memsys_create(&m, &c, err, sizeof err), 0);
    assert_int_equal(read_at(m, 0, 32, 0), 149 + 6); /* 8 burst cycles instead of 2 */
    read_at(m, 32, 32, 200);
    read_at(m, 0, 32, 400);
    read_at(m, 0, 128, 600);
    memsys_get_stats(m, &st);
    assert_int_equal(st.l2_accesses, 4);
    assert_int_equal(st.l2_misses, 1);
    assert_int_equal(st.dram_bytes, 128);
    memsys_destroy(m);
}

/* dram.atom_bytes: the bus moves whole 64-byte atoms (4 cycles at 16 bytes a cycle), each
 * sector of a sectored L2 its own. The reads of test_l2_sectored_idle, each missing sector
 * taking 4 bus cycles instead of 2:
 *   32 B at 0 (MISS):           149 + 2
 *   32 B at 32 (SECTOR_MISS):   200 + 11 + 12 + 4 + 100 + 12
 *   128 B at 0 (two missing):   600 + 11 + 12 + 8 + 100 + 10 + 5
 * Unsectored, a 128-byte line is two atoms (8 cycles, as without atoms); with 256-byte atoms
 * it is one atom of 16 cycles. */
static void test_dram_atoms(void **state)
{
    (void)state;
    memsys_config c = l2_config();
    c.dram_atom_bytes = 64;
    memsys *m = NULL;
    char err[256];
    assert_int_equal(memsys_create(&m, &c, err, sizeof err), 0);
    assert_int_equal(read_at(m, 0, 32, 0), 149 + 2);
    assert_int_equal(read_at(m, 32, 32, 200), 200 + 11 + 12 + 4 + 100 + 12);
    assert_int_equal(read_at(m, 0, 32, 400), 400 + 11 + 100 + 12);
    assert_int_equal(read_at(m, 0, 128, 600), 600 + 11 + 12 + 8 + 100 + 10 + 5);
    memsys_stats st;
    memsys_get_stats(m, &st);
    assert_int_equal(st.dram_reads, 3);
    assert_int_equal(st.dram_bytes, 128); /* the bytes asked for; the bus time is the atoms' */
    memsys_destroy(m);

    c.l2_sectored = 0;
    assert_int_equal(memsys_create(&m, &c, err, sizeof err), 0);
    assert_int_equal(read_at(m, 0, 32, 0), 149 + 6);
    memsys_destroy(m);
    c.dram_atom_bytes = 256;
    assert_int_equal(memsys_create(&m, &c, err, sizeof err), 0);
    assert_int_equal(read_at(m, 0, 32, 0), 149 + 14);
    memsys_destroy(m);
}

/* dram.sector_writes: a whole line written and then evicted by reads of 4,096 other lines
 * (twice the L2's 2,048) goes back to DRAM as one write of its four dirty sectors. With
 * 64-byte atoms at 16 bytes a cycle each line read takes 4 x 4 bus cycles (a sector each, an
 * atom each); the write-back takes 2 atoms, 8 cycles, or with dram.sector_writes an atom per
 * sector, 16 cycles. */
static void test_dram_write_atoms(void **state)
{
    (void)state;
    for (int per_sector = 0; per_sector < 2; per_sector++) {
        memsys_config c = l2_config();
        c.dram_atom_bytes = 64;
        c.dram_sector_writes = per_sector;
        memsys *m = NULL;
        char err[256];
        assert_int_equal(memsys_create(&m, &c, err, sizeof err), 0);
        mem_packet w = {.addr = 0, .bytes = 128, .kind = MEM_WRITE, .sm = 0, .token = 1};
        assert_int_equal(memsys_send(m, &w, 0), 0);
        uint64_t now = 1000;
        for (uint64_t line = 1; line <= 4096; line++)
            now = read_at(m, line * 128, 128, now) + 1;
        for (; memsys_busy(m); now++)
            memsys_tick(m, now);
        memsys_stats st;
        memsys_get_stats(m, &st);
        assert_int_equal(st.l2_writebacks, 1);
        assert_int_equal(st.dram_reads, 4096);
        assert_int_equal(st.dram_busy_cycles, 4096 * 16 + (per_sector ? 16 : 8));
        memsys_destroy(m);
    }
}

/* Four sector reads of one line sent together: four MSHRs, four 32-byte DRAM reads; the
 * same sector twice merges into one read. A write makes its sectors valid without a read. */
static void test_l2_sectored_merge_and_write(void **state)
{
    (void)state;
    memsys_config c = l2_config();
    memsys *m = NULL;
    char err[256];
    assert_int_equal(memsys_create(&m, &c, err, sizeof err), 0);
    for (int s = 0; s < 4; s++) {
        mem_packet p = {.addr = 32u * (uint32_t)s, .bytes = 32, .kind = MEM_READ, .token = 1};
        assert_int_equal(memsys_send(m, &p, 0), 0);
    }
    mem_packet p = {.addr = 0, .bytes = 32, .kind = MEM_READ, .token = 2};
    assert_int_equal(memsys_send(m, &p, 0), 0);
    mem_packet w = {.addr = 4096, .bytes = 8, .kind = MEM_WRITE, .sectors = 0x4};
    assert_int_equal(memsys_send(m, &w, 0), 0);
    int replies = 0;
    for (uint64_t t = 0; t < 5000 && replies < 5; t++) {
        memsys_tick(m, t);
        mem_packet r;
        while (memsys_pop_reply(m, 0, t, &r))
            replies++;
    }
    assert_int_equal(replies, 5);
    memsys_stats st;
    memsys_get_stats(m, &st);
    assert_int_equal(st.dram_reads, 4);
    assert_int_equal(st.dram_bytes, 128);
    assert_int_equal(st.l2_accesses, 6);
    /* as GPGPU-Sim counts them: the four first reads and the write miss, the repeated sector
     * finds its read on its way (HIT_RESERVED); the loads alone: five, four missing */
    assert_int_equal(st.l2_misses, 5);
    assert_int_equal(st.l2_hit_reserved, 1);
    assert_int_equal(st.l2_load_accesses, 5);
    assert_int_equal(st.l2_load_misses, 4);
    /* the written sector (4096 + 64) hits, its neighbour misses */
    uint64_t t0 = 6000;
    assert_int_equal(read_at(m, 4096 + 64, 32, t0), t0 + 11 + 100 + 12);
    memsys_get_stats(m, &st);
    assert_int_equal(st.l2_hits, 1);
    memsys_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_coalescer_sectors),
        cmocka_unit_test(test_l1d_sector_sequence),
        cmocka_unit_test(test_l1d_sector_failures),
        cmocka_unit_test(test_l1d_sector_store),
        cmocka_unit_test(test_recency_fill_vs_miss),
        cmocka_unit_test(test_l1d_sector_many_ways),
        cmocka_unit_test(test_recency_miss_merge_promotes),
        cmocka_unit_test(test_l2_sectored_idle),
        cmocka_unit_test(test_l2_sectored_merge_and_write),
        cmocka_unit_test(test_dram_atoms),
        cmocka_unit_test(test_dram_write_atoms),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
