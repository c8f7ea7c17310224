/* Whole simulations with sectored caches (l1d.sectored, l2.sectored) and insertion at the miss
 * (l1d.recency=miss): hand-counted sector accesses, misses and DRAM bytes on tiny kernels, the
 * adaptive L1D carveout (l1d.unified_kb), and skipping idle cycles exact with the new state. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "tests/support/support.h"

#define TINY     "gpu.sms=1", "sm.schedulers=1", "sm.simd_width=32", "l1d.hit_latency=20"
#define SECTORED "l1d.sectored=true", "l2.sectored=true"

/* Bytes the DRAM moved: the bandwidth utilisation times cycles times the default peak (6
 * channels of 21 bytes a cycle). */
static double dram_bytes(const sim_metrics *m)
{
    return m->dram_bandwidth_util * m->cycles * 6 * 21;
}

/* A warp loads 32 consecutive words (one line, four sectors), uses them, loads them again:
 * sectored, 4 sector misses then 4 sector hits (8 accesses); each miss is a 32-byte request,
 * so the sectored L2 reads 4 sectors of 32 bytes from DRAM. Unsectored: 2 accesses, 1 miss,
 * one 128-byte line. */
static void test_coherent_load_sectors(void **state)
{
    (void)state;
    const char *wl = TEST_WL_LOAD_TWICE;
    const char *sec[] = {TINY, SECTORED, NULL};
    const char *line[] = {TINY, NULL};
    sim_metrics s, l;
    test_sim_ok(wl, sec, NULL, &s);
    test_sim_ok(wl, line, NULL, &l);
    assert_int_equal((int)s.l1d_accesses, 8);
    assert_int_equal((int)s.l1d_misses, 4);
    assert_int_equal((int)s.l1d_hits, 4);
    assert_int_equal((int)s.l1d_merged, 0);
    assert_double_near(s.l1d_miss_rate, 0.5, 0);
    assert_int_equal((int)s.fully_cached_loads, 1);
    assert_int_equal((int)s.l2_accesses, 4);
    assert_int_equal((int)s.l2_misses, 4);
    assert_int_equal((int)s.dram_reads, 4);
    assert_double_near(dram_bytes(&s), 128, 0.5);

    assert_int_equal((int)l.l1d_accesses, 2);
    assert_int_equal((int)l.l1d_misses, 1);
    assert_int_equal((int)l.dram_reads, 1);
    assert_double_near(dram_bytes(&l), 128, 0.5);
}

/* One warp loads a word of each of 32 lines (a stride of 128 bytes): 32 one-sector misses. */
static const char *const STRIDED_LOAD = ".array a i32 [32*32] zero\n"
                                        ".kernel k block=32\n"
                                        "    mov r0, %laneid\n"
                                        "    shl r1, r0, 7\n"
                                        "    ld.i32 r2, [a + r1]\n"
                                        "    exit\n"
                                        ".host\n"
                                        "    launch k grid=1\n";

/* A stride of 128 bytes: 32 lines of one sector each. Sectored: 32 accesses, 32 misses, 32
 * requests of 32 bytes and 32 sectors from DRAM (1 KB); unsectored, 32 lines (4 KB). */
static void test_strided_load_sectors(void **state)
{
    (void)state;
    const char *wl = STRIDED_LOAD;
    const char *sec[] = {TINY, SECTORED, NULL};
    const char *line[] = {TINY, NULL};
    sim_metrics s, l;
    test_sim_ok(wl, sec, NULL, &s);
    test_sim_ok(wl, line, NULL, &l);
    assert_int_equal((int)s.l1d_accesses, 32);
    assert_int_equal((int)s.l1d_misses, 32);
    assert_int_equal((int)s.l2_accesses, 32);
    assert_double_near(dram_bytes(&s), 32 * 32, 0.5);
    assert_int_equal((int)l.l1d_accesses, 32);
    assert_double_near(dram_bytes(&l), 32 * 128, 0.5);
    assert_double_near(s.mpli, 32.0, 0);
}

/* Lanes all load words 0..7 (sector 0), then the whole line after the first is back: the
 * second load finds sector 0 valid and misses the other three (SECTOR_MISS): 1 + 4 sector
 * accesses, 1 hit, 4 misses; the load counts as missing. */
static void test_sector_miss_in_present_line(void **state)
{
    (void)state;
    const char *wl = ".array a i32 [64] iota(0, 1)\n"
                     ".kernel k block=32\n"
                     "    mov r0, %laneid\n"
                     "    and r6, r0, 7\n"
                     "    shl r7, r6, 2\n"
                     "    ld.i32 r2, [a + r7]\n"
                     "    add r3, r2, 1\n"
                     "    shl r1, r0, 2\n"
                     "    ld.i32 r4, [a + r1]\n"
                     "    add r5, r4, r3\n"
                     "    exit\n"
                     ".host\n"
                     "    launch k grid=1\n";
    const char *sec[] = {TINY, SECTORED, NULL};
    sim_metrics s;
    test_sim_ok(wl, sec, NULL, &s);
    assert_int_equal((int)s.l1d_accesses, 5);
    assert_int_equal((int)s.l1d_hits, 1);
    assert_int_equal((int)s.l1d_misses, 4);
    assert_int_equal((int)s.fully_cached_loads, 0);
    assert_double_near(dram_bytes(&s), 128, 0.5);
}

/* Volta's adaptive carveout (l1d.unified_kb=128 over 4 sets of 128-byte lines): a warp reads
 * 384 lines (48 KB, 96 a set) with stride loads, waits for them, and reads them again.
 *   no shared memory: option 0 KB, the L1D 128 KB (256 ways): the second pass hits, 384 misses
 *   64 KB a CTA, one CTA: option 64, 64 KB (128 ways): hits again
 *   96 KB: option 96, 32 KB (64 ways): LRU over 96 lines a set misses all 768, as without
 *   16 KB a CTA: 6 CTAs fit (96 KB: misses all); with sm.max_ctas=2, 32 KB: 96 KB of L1D. */
static void test_adaptive_carveout(void **state)
{
    (void)state;
    const char *fmt = ".array a i32 [384*32] zero\n"
                      ".kernel k block=32 shared=%d\n"
                      "    mov r0, %%laneid\n"
                      "    shl r1, r0, 7\n"
                      "    ld.i32 r2, [a + r1]\n"
                      "    ld.i32 r3, [a + r1 + 4096]\n"
                      "    ld.i32 r4, [a + r1 + 8192]\n"
                      "    ld.i32 r5, [a + r1 + 12288]\n"
                      "    ld.i32 r6, [a + r1 + 16384]\n"
                      "    ld.i32 r7, [a + r1 + 20480]\n"
                      "    ld.i32 r8, [a + r1 + 24576]\n"
                      "    ld.i32 r9, [a + r1 + 28672]\n"
                      "    ld.i32 r10, [a + r1 + 32768]\n"
                      "    ld.i32 r11, [a + r1 + 36864]\n"
                      "    ld.i32 r12, [a + r1 + 40960]\n"
                      "    ld.i32 r13, [a + r1 + 45056]\n"
                      "    add r14, r2, r3\n"
                      "    add r14, r14, r4\n"
                      "    add r14, r14, r5\n"
                      "    add r14, r14, r6\n"
                      "    add r14, r14, r7\n"
                      "    add r14, r14, r8\n"
                      "    add r14, r14, r9\n"
                      "    add r14, r14, r10\n"
                      "    add r14, r14, r11\n"
                      "    add r14, r14, r12\n"
                      "    add r14, r14, r13\n"
                      "    ld.i32 r2, [a + r1]\n"
                      "    ld.i32 r3, [a + r1 + 4096]\n"
                      "    ld.i32 r4, [a + r1 + 8192]\n"
                      "    ld.i32 r5, [a + r1 + 12288]\n"
                      "    ld.i32 r6, [a + r1 + 16384]\n"
                      "    ld.i32 r7, [a + r1 + 20480]\n"
                      "    ld.i32 r8, [a + r1 + 24576]\n"
                      "    ld.i32 r9, [a + r1 + 28672]\n"
                      "    ld.i32 r10, [a + r1 + 32768]\n"
                      "    ld.i32 r11, [a + r1 + 36864]\n"
                      "    ld.i32 r12, [a + r1 + 40960]\n"
                      "    ld.i32 r13, [a + r1 + 45056]\n"
                      "    exit\n"
                      ".host\n"
                      "    launch k grid=1\n";
    struct {
        int shared, max_ctas, unified, misses;
    } cases[] = {{0, 8, 0, 768},       {0, 8, 128, 384},     {65536, 8, 128, 384},
                 {98304, 8, 128, 768}, {16384, 8, 128, 768}, {16384, 2, 128, 384}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char wl[4096], ctas[64], uni[64];
        snprintf(wl, sizeof wl, fmt, cases[i].shared);
        snprintf(ctas, sizeof ctas, "sm.max_ctas=%d", cases[i].max_ctas);
        snprintf(uni, sizeof uni, "l1d.unified_kb=%d", cases[i].unified);
        const char *sets[] = {
            "gpu.sms=1", "l1d.sets=4", "l1d.ways=64", "l1d.mshrs=256", "sm.shared_bytes=98304",
            ctas,        uni,          NULL};
        sim_metrics m;
        test_sim_ok(wl, sets, NULL, &m);
        assert_int_equal((int)m.l1d_accesses, 768);
        if ((int)m.l1d_misses != cases[i].misses)
            fail_msg("case %zu: %d misses, expected %d", i, (int)m.l1d_misses, cases[i].misses);
    }
}

/* l1d.sectored with a bypass segment other than 32 bytes is refused. */
static void test_bad_sector_config(void **state)
{
    (void)state;
    const char *sets[] = {"l1d.sectored=true", "l1d.bypass_segment=64", NULL};
    sim_metrics m;
    char err[512] = "";
    assert_int_equal(test_sim("stream", sets, NULL, &m, err, sizeof err), SIM_BAD_CONFIG);
    assert_non_null(strstr(err, "l1d.sectored"));
}

/* A kernel `w` whose lanes (those `write_lanes` sets p0 for) write words of a from byte
 * `first` on, then a kernel reading the 128-byte line at byte `read` (four sectors, all missing
 * in the L1D): the L2 sees the writes, then four sector reads. */
static void write_read_at(const char *write_lanes, int first, int read, const char *const *sets,
                          sim_metrics *m)
{
    char wl[1024];
    snprintf(wl, sizeof wl,
             ".array a i32 [64] zero\n"
             ".kernel w block=32\n"
             "    mov r0, %%laneid\n"
             "    %s\n"
             "    shl r1, r0, 2\n"
             "    add r1, r1, %d\n"
             "    @p0 st.i32 [a + r1], r0\n"
             "    exit\n"
             ".kernel r block=32\n"
             "    mov r0, %%laneid\n"
             "    shl r1, r0, 2\n"
             "    add r1, r1, %d\n"
             "    ld.i32 r2, [a + r1]\n"
             "    exit\n"
             ".host\n"
             "    launch w grid=1\n"
             "    launch r grid=1\n",
             write_lanes, first, read);
    test_sim_ok(wl, sets, NULL, m);
}

static void write_then_read(const char *write_lanes, int first, const char *const *sets,
                            sim_metrics *m)
{
    write_read_at(write_lanes, first, 0, sets, m);
}

/* l2.lazy_fetch (GPGPU-Sim's LAZY_FETCH_ON_READ): four lanes write half of sector 0, which
 * stays unreadable, so the read misses all four sectors and fetches all four from DRAM;
 * without it the written sector hits (3 misses). Eight lanes write the sector whole: readable
 * either way. The writes allocate the line: each write is an L2 miss too. */
static void test_lazy_fetch_partial_sector(void **state)
{
    (void)state;
    const char *lazy[] = {TINY, SECTORED, "l2.lazy_fetch=true", NULL};
    const char *eager[] = {TINY, SECTORED, NULL};
    sim_metrics half_lazy, half_eager, whole_lazy;
    write_then_read("setp.lt p0, r0, 4", 0, lazy, &half_lazy);
    write_then_read("setp.lt p0, r0, 4", 0, eager, &half_eager);
    write_then_read("setp.lt p0, r0, 8", 0, lazy, &whole_lazy);
    assert_int_equal((int)half_lazy.l2_load_accesses, 4);
    assert_int_equal((int)half_lazy.l2_load_misses, 4);
    assert_int_equal((int)half_lazy.dram_reads, 4);
    assert_int_equal((int)half_eager.l2_load_misses, 3);
    assert_int_equal((int)half_eager.dram_reads, 3);
    assert_int_equal((int)whole_lazy.l2_load_misses, 3);
    assert_int_equal((int)whole_lazy.dram_reads, 3);
}

/* The written bytes add up over writes (update_m_readable): two launches each writing half of
 * sector 0 leave it readable; the same half written twice does not. Either way the second write
 * hits. */
static void test_lazy_fetch_bytes_accumulate(void **state)
{
    (void)state;
    const char *wl_fmt = ".array a i32 [64] zero\n"
                         ".kernel w block=32\n"
                         "    mov r0, %%laneid\n"
                         "    setp.lt p0, r0, 4\n"
                         "    shl r1, r0, 2\n"
                         "    @p0 st.i32 [a + r1], r0\n"
                         "    exit\n"
                         ".kernel w2 block=32\n"
                         "    mov r0, %%laneid\n"
                         "    setp.lt p0, r0, 4\n"
                         "    shl r1, r0, 2\n"
                         "    add r1, r1, %d\n"
                         "    @p0 st.i32 [a + r1], r0\n"
                         "    exit\n"
                         ".kernel r block=32\n"
                         "    mov r0, %%laneid\n"
                         "    shl r1, r0, 2\n"
                         "    ld.i32 r2, [a + r1]\n"
                         "    exit\n"
                         ".host\n"
                         "    launch w grid=1\n"
                         "    launch w2 grid=1\n"
                         "    launch r grid=1\n";
    const char *lazy[] = {TINY, SECTORED, "l2.lazy_fetch=true", NULL};
    char wl[1200];
    sim_metrics halves, same;
    snprintf(wl, sizeof wl, wl_fmt, 16);
    test_sim_ok(wl, lazy, NULL, &halves);
    snprintf(wl, sizeof wl, wl_fmt, 0);
    test_sim_ok(wl, lazy, NULL, &same);
    assert_int_equal((int)halves.l2_load_misses, 3);
    assert_int_equal((int)same.l2_load_misses, 4);
    /* the second write finds sector 0 present, unreadable or not: a HIT, as GPGPU-Sim's probe
     * counts a MODIFIED sector; the read of `halves` hits it too */
    assert_int_equal((int)same.l2_hits, 1);
    assert_int_equal((int)halves.l2_hits, 2);
}

/* sm.store_request=reduce (GPGPU-Sim's Fermi store requests, as the reference's
 * breakdown_request_to_sector_requests cuts them): sixteen lanes writing the upper two sectors
 * of line 0 whole make a 64-byte request that lands on sectors 2 and 3 of line 1, in line 0's
 * slice, so line 0 reads four misses (two with the touched sectors) and, with one slice, line 1
 * two hits and two misses (four misses); lanes 0 and 31 writing sectors 0 and 3 make a 128-byte
 * request that writes all four sectors (4 write accesses against 2). */
static void test_store_request_reduce(void **state)
{
    (void)state;
    const char *reduce[] = {TINY, "l2.sectored=true", "l2.lazy_fetch=true",
                            "sm.store_request=reduce", NULL};
    const char *sectors[] = {TINY, "l2.sectored=true", "l2.lazy_fetch=true", NULL};
    sim_metrics upper_r, upper_s, next_r, next_s, ends_r, ends_s;
    write_then_read("setp.lt p0, r0, 16", 64, reduce, &upper_r);
    write_then_read("setp.lt p0, r0, 16", 64, sectors, &upper_s);
    assert_int_equal((int)upper_r.l2_load_misses, 4);
    assert_int_equal((int)upper_s.l2_load_misses, 2);
    /* one L2 slice: the next line's own (a slice holding the written line but not the next
     * keeps sectors that line's reads never see, as in GPGPU-Sim) */
    const char *reduce1[] = {TINY,
                             "l2.sectored=true",
                             "l2.lazy_fetch=true",
                             "sm.store_request=reduce",
                             "l2.partitions=1",
                             NULL};
    const char *sectors1[] = {TINY, "l2.sectored=true", "l2.lazy_fetch=true", "l2.partitions=1",
                              NULL};
    write_read_at("setp.lt p0, r0, 16", 64, 128, reduce1, &next_r);
    write_read_at("setp.lt p0, r0, 16", 64, 128, sectors1, &next_s);
    assert_int_equal((int)next_r.l2_load_misses, 2);
    assert_int_equal((int)next_s.l2_load_misses, 4);
    const char *ends = "rem r2, r0, 31\n    setp.eq p0, r2, 0"; /* lanes 0 and 31 */
    write_then_read(ends, 0, reduce, &ends_r);
    write_then_read(ends, 0, sectors, &ends_s);
    assert_int_equal((int)(ends_r.l2_accesses - ends_r.l2_load_accesses), 4);
    assert_int_equal((int)(ends_s.l2_accesses - ends_s.l2_load_accesses), 2);
}

/* l2.lazy_fetch needs a sectored L2; sm.store_request=reduce a 128-byte line of 32-byte
 * segments. */
static void test_lazy_fetch_config(void **state)
{
    (void)state;
    const char *unsectored[] = {"l2.lazy_fetch=true", NULL};
    const char *wide[] = {"l1d.line=256", "sm.store_request=reduce", NULL};
    sim_metrics m;
    char err[512] = "";
    assert_int_equal(test_sim("stream", unsectored, NULL, &m, err, sizeof err), SIM_BAD_CONFIG);
    assert_non_null(strstr(err, "l2.lazy_fetch needs l2.sectored"));
    assert_int_equal(test_sim("stream", wide, NULL, &m, err, sizeof err), SIM_BAD_CONFIG);
    assert_non_null(strstr(err, "sm.store_request=reduce needs l1d.line=128"));
}

/* l1d.miss_spare (GPGPU-Sim's miss_queue_full(1)): a load that misses waits while fewer than
 * two injection entries are free. 32 one-sector misses (a stride of 128 bytes) through a
 * slow injection port (4 cycles a request) that fills the queue: the same accesses and
 * misses, more failed tries, and no fewer cycles; a spare as large as the queue is refused. */
#define SLOW "icnt.bytes_per_cycle=2"
static void test_miss_spare(void **state)
{
    (void)state;
    const char *wl = STRIDED_LOAD;
    /* the sectored L1D (a line's four sectors need four entries) and the line L1D */
    const char *spare_s[] = {TINY, SECTORED, SLOW, "icnt.sm_queue=4", "l1d.miss_spare=1", NULL};
    const char *none_s[] = {TINY, SECTORED, SLOW, "icnt.sm_queue=4", NULL};
    const char *spare_l[] = {TINY, SLOW, "icnt.sm_queue=2", "l1d.miss_spare=1", NULL};
    const char *none_l[] = {TINY, SLOW, "icnt.sm_queue=2", NULL};
    const char *const *spare[] = {spare_s, spare_l}, *const * none[] = {none_s, none_l};
    sim_metrics s, n;
    for (int k = 0; k < 2; k++) {
        test_sim_ok(wl, spare[k], NULL, &s);
        test_sim_ok(wl, none[k], NULL, &n);
        assert_int_equal((int)s.l1d_accesses, 32);
        assert_int_equal((int)s.l1d_misses, 32);
        assert_int_equal((int)n.l1d_misses, 32);
        assert_true(s.l1d_reservation_fails > n.l1d_reservation_fails);
        assert_true(s.cycles >= n.cycles);
    }
    const char *bad[] = {"icnt.sm_queue=2", "l1d.miss_spare=2", NULL};
    char err[512] = "";
    assert_int_equal(test_sim("stream", bad, NULL, &s, err, sizeof err), SIM_BAD_CONFIG);
    assert_non_null(strstr(err, "l1d.miss_spare (2) must be below icnt.sm_queue (2)"));
}

/* Skipping idle cycles changes nothing with the sectored caches and insertion at the miss,
 * on the GTX480 defaults, and on the QV100 preset's cache geometry with the carveout and the
 * invalidation between kernels. */
static void test_skip_exact_sectored(void **state)
{
    (void)state;
    const char *names[] = {"kmeans", "stream", "matmul"};
    const char *skip[] = {"gpu.sms=4", SECTORED, "l1d.recency=miss", NULL};
    const char *noskip[] = {"gpu.sms=4", SECTORED, "l1d.recency=miss", "sim.skip_idle=false", NULL};
    const char *skip_v[] = {"gpu.sms=4",
                            SECTORED,
                            "l1d.sets=4",
                            "l1d.ways=64",
                            "l1d.mshrs=256",
                            "l1d.unified_kb=128",
                            "l1d.kernel_flush=true",
                            NULL};
    const char *noskip_v[] = {"gpu.sms=4",
                              SECTORED,
                              "l1d.sets=4",
                              "l1d.ways=64",
                              "l1d.mshrs=256",
                              "l1d.unified_kb=128",
                              "l1d.kernel_flush=true",
                              "sim.skip_idle=false",
                              NULL};
    for (size_t i = 0; i < 3; i++) {
        sim_metrics a, b;
        test_sim_ok(names[i], skip, NULL, &a);
        test_sim_ok(names[i], noskip, NULL, &b);
        if (memcmp(&a, &b, sizeof a) != 0) fail_msg("%s: skipping changed the results", names[i]);
        test_sim_ok(names[i], skip_v, NULL, &a);
        test_sim_ok(names[i], noskip_v, NULL, &b);
        if (memcmp(&a, &b, sizeof a) != 0) fail_msg("%s: skipping changed the results", names[i]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_coherent_load_sectors),
        cmocka_unit_test(test_strided_load_sectors),
        cmocka_unit_test(test_sector_miss_in_present_line),
        cmocka_unit_test(test_adaptive_carveout),
        cmocka_unit_test(test_bad_sector_config),
        cmocka_unit_test(test_skip_exact_sectored),
        cmocka_unit_test(test_lazy_fetch_partial_sector),
        cmocka_unit_test(test_lazy_fetch_bytes_accumulate),
        cmocka_unit_test(test_store_request_reduce),
        cmocka_unit_test(test_lazy_fetch_config),
        cmocka_unit_test(test_miss_spare),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
