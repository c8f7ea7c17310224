/* End-to-end tests of the timing model through sim_run: exact cycle counts on tiny kernels
 * and configurations, watchdogs, determinism, and GPU-like behaviour on built-in workloads. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdatomic.h>
#include <string.h>

#include <cmocka.h>

#include "tests/support/support.h"

/* One SM, one scheduler, full-width units (a warp per cycle), latencies set by the test. */
#define TINY                                                                                       \
    "gpu.sms=1", "sm.schedulers=1", "sm.simd_width=32", "sm.int_latency=4", "l1d.hit_latency=20",  \
        "sm.branch_latency=2"

/* mov at 0 (r0 ready at 4), add waits for r0 and issues at 4 (r1 ready at 8), exit at 5; the
 * kernel ends when the last write-back lands at 8, so 9 cycles. */
static void test_alu_chain_exact_cycles(void **state)
{
    (void)state;
    const char *wl = ".kernel k block=32\n"
                     "    mov r0, 1\n"
                     "    add r1, r0, 1\n"
                     "    exit\n"
                     ".host\n"
                     "    launch k grid=1\n";
    const char *sets[] = {TINY, NULL};
    sim_metrics m;
    test_sim_ok(wl, sets, NULL, &m);
    assert_int_equal((int)m.cycles, 9);
    assert_int_equal((int)m.warp_insts, 3);
    assert_int_equal((int)m.thread_insts, 96);
    assert_int_equal((int)m.ctas, 1);
    /* a warp spends 9 cycles live... until exit at 5: issued 3 of its 6 live cycles */
    assert_double_less(0.49, m.stall_exec);
    assert_double_less(m.stall_exec, 0.51);
}

/* Three one-warp CTAs on one SM, each warp on its own scheduler: mov, a dependent add, exit.
 * Handed out at once, each warp issues mov 0, add 4, exit 5, last write-back 8: 9 cycles. With
 * gpu.cta_per_cycle=1 (GPGPU-Sim's one CTA per SM per cycle) the third CTA starts at cycle 2,
 * after that cycle's issue, so its warp runs 3 cycles later: 12 cycles; with 2 a cycle the
 * third starts at 1: 11. */
static void test_cta_per_cycle(void **state)
{
    (void)state;
    const char *wl = ".kernel k block=32\n"
                     "    mov r0, 1\n"
                     "    add r1, r0, 1\n"
                     "    exit\n"
                     ".host\n"
                     "    launch k grid=3\n";
    const char *sets[][6] = {
        {"gpu.sms=1", "sm.schedulers=4", "sm.simd_width=32", "sm.int_latency=4",
         "gpu.cta_per_cycle=0", NULL},
        {"gpu.sms=1", "sm.schedulers=4", "sm.simd_width=32", "sm.int_latency=4",
         "gpu.cta_per_cycle=1", NULL},
        {"gpu.sms=1", "sm.schedulers=4", "sm.simd_width=32", "sm.int_latency=4",
         "gpu.cta_per_cycle=2", NULL},
    };
    const int want[] = {9, 12, 11};
    for (int i = 0; i < 3; i++) {
        sim_metrics m;
        test_sim_ok(wl, sets[i], NULL, &m);
        assert_int_equal((int)m.cycles, want[i]);
        assert_int_equal((int)m.ctas, 3);
    }
}

/* The GPU's dispatch of CTAs to SMs, seen through the L1D observer: the loads of each SM. */

/* Two kernels of five one-warp CTAs on four SMs; each CTA loads the line of its own index,
 * kernel 1 from a, kernel 2 from b, so the L1D observer tells which SM ran which CTA. */
static const char two_kernels_wl[] = ".array a i32 [5*32] zero\n"
                                     ".array b i32 [5*32] zero\n"
                                     ".kernel k1 block=32\n"
                                     "        mov     r1, %ctaid\n"
                                     "        shl     r2, r1, 7\n"
                                     "        ld.i32  r5, [a + r2]\n"
                                     "        exit\n"
                                     ".kernel k2 block=32\n"
                                     "        mov     r1, %ctaid\n"
                                     "        shl     r2, r1, 7\n"
                                     "        ld.i32  r5, [b + r2]\n"
                                     "        exit\n"
                                     ".host\n"
                                     "        launch k1 grid=5\n"
                                     "        launch k2 grid=5\n";

/* The SM of each kernel's CTAs (by[kernel][cta]) with gpu.cta_rr_carry as given. The lines of
 * a come first (arrays are laid out in order, each line-aligned), so line order is kernel 1's
 * CTAs, then kernel 2's. */
static void ctas_to_sms(const char *carry, int by[2][5])
{
    const char *sets[] = {"gpu.sms=4", carry, NULL};
    test_load_log *log = calloc(1, sizeof *log);
    assert_non_null(log);
    sim_options opt = {0};
    opt.l1_observer = test_log_loads;
    opt.l1_observer_arg = log;
    sim_metrics m;
    test_sim_opt_ok(two_kernels_wl, sets, &opt, &m);
    assert_int_equal((int)m.kernels, 2);
    uint64_t lines[10];
    int nl = 0;
    for (int i = 0; i < log->n; i++) {
        int seen = 0;
        for (int j = 0; j < nl; j++)
            seen |= lines[j] == log->a[i].line;
        if (!seen && nl < 10) lines[nl++] = log->a[i].line;
    }
    assert_int_equal(nl, 10);
    for (int i = 0; i < nl; i++) /* sort the lines: a's five, then b's */
        for (int j = i + 1; j < nl; j++)
            if (lines[j] < lines[i]) {
                uint64_t t = lines[i];
                lines[i] = lines[j], lines[j] = t;
            }
    for (int i = 0; i < log->n; i++)
        for (int j = 0; j < nl; j++)
            if (log->a[i].line == lines[j]) by[j / 5][j % 5] = log->a[i].sm;
    free(log);
}

/* Kernel 1's fifth CTA goes to SM 0 after one round, so SM 1 is next: with
 * gpu.cta_rr_carry kernel 2 starts there (GPGPU-Sim's m_last_cluster_issue), without it at
 * SM 0 again. */
static void test_dispatch_carries_over_kernels(void **state)
{
    (void)state;
    int by[2][5];
    ctas_to_sms("gpu.cta_rr_carry=false", by);
    for (int c = 0; c < 5; c++) {
        assert_int_equal(by[0][c], c % 4);
        assert_int_equal(by[1][c], c % 4);
    }
    ctas_to_sms("gpu.cta_rr_carry=true", by);
    for (int c = 0; c < 5; c++) {
        assert_int_equal(by[0][c], c % 4);
        assert_int_equal(by[1][c], (c + 1) % 4);
    }
}

/* Two independent instructions issue back to back; a half-width unit makes the second wait
 * one cycle (initiation interval 32/16 = 2). */
static void test_unit_initiation_interval(void **state)
{
    (void)state;
    const char *wl = ".kernel k block=32\n"
                     "    mov r0, 1\n"
                     "    mov r1, 2\n"
                     "    exit\n"
                     ".host\n"
                     "    launch k grid=1\n";
    const char *full[] = {TINY, NULL};
    const char *half[] = {TINY, "sm.simd_width=16", NULL};
    sim_metrics a, b;
    test_sim_ok(wl, full, NULL, &a);
    test_sim_ok(wl, half, NULL, &b);
    /* full: movs at 0 and 1, exit at 2, last write-back at 1+4=5: 6 cycles */
    assert_int_equal((int)a.cycles, 6);
    /* half: movs at 0 and 2, exit at 3, last write-back at 6: 7 cycles */
    assert_int_equal((int)b.cycles, 7);
}

/* A load that misses, a dependent add, the same load again (a hit), a dependent add.
 *   0 mov r0  | 4 shl r1 | 8 ld (access at 9, miss, reply at 9+L) | 9+L add | 10+L ld
 *   (access at 11+L, hit, data at 11+L+H) | 11+L+H add (write-back at 15+L+H) | exit
 * so cycles = 16 + L + H, with L the round trip the memory system reports (one request). */
static void test_load_miss_then_hit_exact_cycles(void **state)
{
    (void)state;
    const char *wl = TEST_WL_LOAD_TWICE;
    const char *sets[] = {TINY, NULL};
    sim_metrics m;
    test_sim_ok(wl, sets, NULL, &m);
    assert_int_equal((int)m.l1d_accesses, 2);
    assert_int_equal((int)m.l1d_misses, 1);
    assert_int_equal((int)m.l1d_hits, 1);
    assert_int_equal((int)m.l1d_intra_warp_hits, 1);
    assert_int_equal((int)m.l1d_inter_warp_hits, 0);
    assert_int_equal((int)m.global_loads, 2);
    assert_int_equal((int)m.coherent_loads, 2);
    assert_int_equal((int)m.fully_cached_loads, 1);
    /* the default preset's unloaded DRAM round trip: CAWA Table 1's minimum of 220 cycles */
    assert_double_near(m.lat_rt, 220.0, 0);
    assert_int_equal((int)m.cycles, 16 + (int)m.lat_rt + 20);
}

/* Two loads of one line back to back: the second merges into the first's MSHR. */
static void test_mshr_merge(void **state)
{
    (void)state;
    const char *wl = ".array a i32 [64] zero\n"
                     ".kernel k block=32\n"
                     "    mov r0, %laneid\n"
                     "    shl r1, r0, 2\n"
                     "    ld.i32 r2, [a + r1]\n"
                     "    ld.i32 r3, [a + r1]\n"
                     "    add r4, r2, r3\n"
                     "    exit\n"
                     ".host\n"
                     "    launch k grid=1\n";
    const char *sets[] = {TINY, NULL};
    sim_metrics m;
    test_sim_ok(wl, sets, NULL, &m);
    assert_int_equal((int)m.l1d_misses, 1);
    assert_int_equal((int)m.l1d_merged, 1);
    assert_int_equal((int)m.l1d_hits, 0);
    assert_int_equal((int)m.dram_reads, 1);
    assert_int_equal((int)m.fully_cached_loads, 0);
}

/* A strided load touches one line per lane: 32 accesses, one divergent load. */
static void test_divergent_load_accesses(void **state)
{
    (void)state;
    const char *wl = ".array a i32 [32*32] zero\n"
                     ".kernel k block=32\n"
                     "    mov r0, %laneid\n"
                     "    shl r1, r0, 7\n"
                     "    ld.i32 r2, [a + r1]\n"
                     "    exit\n"
                     ".host\n"
                     "    launch k grid=1\n";
    const char *sets[] = {TINY, NULL};
    sim_metrics m;
    test_sim_ok(wl, sets, NULL, &m);
    assert_int_equal((int)m.l1d_accesses, 32);
    assert_int_equal((int)m.divergent_loads, 1);
    assert_int_equal((int)m.coherent_loads, 0);
    assert_double_near(m.mpli, 32.0, 0);
}

/* Warps of a CTA wait at a barrier for the slowest: the fast warp cannot pass it early. */
static void test_barrier_waits_for_all_warps(void **state)
{
    (void)state;
    /* warp 1 runs a 50-iteration loop before the barrier; warp 0 none */
    const char *wl = ".array out i32 [64] zero\n"
                     ".kernel k block=64\n"
                     "    mov r0, %tid\n"
                     "    mov r1, 0\n"
                     "    setp.lt p0, r0, 32\n"
                     "@p0 bra wait\n"
                     "spin: add r1, r1, 1\n"
                     "    setp.lt p1, r1, 50\n"
                     "@p1 bra spin\n"
                     "wait: bar\n"
                     "    shl r2, r0, 2\n"
                     "    st.i32 [out + r2], r1\n"
                     "    exit\n"
                     ".host\n"
                     "    launch k grid=1\n";
    const char *sets[] = {TINY, NULL};
    sim_metrics m;
    test_sim_ok(wl, sets, NULL, &m);
    assert_double_less(0.2, m.stall_sync);         /* warp 0 waited most of the run */
    assert_double_less(m.warp_disparity_max, 0.2); /* and so both finished close together */
}

/* A barrier that one warp never reaches (it spins on a flag only set after the barrier) is
 * stopped by the cycle cap and reported, not hung. */
static void test_barrier_never_reached_is_an_error(void **state)
{
    (void)state;
    const char *wl = ".array flag i32 [1] zero\n"
                     ".kernel k block=64\n"
                     "    mov r0, %tid\n"
                     "    setp.lt p0, r0, 32\n"
                     "@p0 bra first\n"
                     "spin: ld.i32 r1, [flag]\n"
                     "    setp.eq p1, r1, 0\n"
                     "@p1 bra spin\n"
                     "first: bar\n"
                     "    st.i32 [flag], 1\n"
                     "    exit\n"
                     ".host\n"
                     "    launch k grid=1\n";
    const char *sets[] = {TINY, "sim.max_cycles=20000", NULL};
    sim_metrics m;
    char err[1024];
    assert_int_equal(test_sim(wl, sets, NULL, &m, err, sizeof err), SIM_FAILED);
    assert_non_null(strstr(err, "sim.max_cycles"));
    assert_double_in_range(m.cycles, 0, 20001);
}

/* A load whose reply takes longer than sim.watchdog stops the run, and the message says the
 * warps were waiting on memory (raise the watchdog), not at a barrier. */
static void test_watchdog_shorter_than_memory_latency(void **state)
{
    (void)state;
    const char *wl = ".array a i32 [32] iota(0, 1)\n"
                     ".kernel k block=32\n"
                     "    mov r0, %laneid\n"
                     "    shl r1, r0, 2\n"
                     "    ld.i32 r2, [a + r1]\n"
                     "    add r3, r2, 1\n"
                     "    exit\n"
                     ".host\n"
                     "    launch k grid=1\n";
    const char *sets[] = {TINY, "sim.watchdog=100", "dram.latency=5000", NULL};
    sim_metrics m;
    char err[1024];
    assert_int_equal(test_sim(wl, sets, NULL, &m, err, sizeof err), SIM_FAILED);
    assert_non_null(strstr(err, "sim.watchdog=100"));
    assert_non_null(strstr(err, "memory requests were in flight"));
    assert_null(strstr(err, "never reached"));
    /* with a watchdog above the latency the same kernel completes */
    const char *longer[] = {TINY, "sim.watchdog=100000", "dram.latency=5000", NULL};
    assert_int_equal(test_sim(wl, longer, NULL, &m, err, sizeof err), SIM_OK);
}

/* One warp's 32 atomics on 32 lines, serialised through one L2 slice and one DRAM channel
 * moving a byte a cycle: about 4,000 cycles in which no warp issues but the memory system works
 * through its queue. A watchdog of 1,000 cycles does not stop it (it would with no progress:
 * test_watchdog_shorter_than_memory_latency), and the run ends as with a longer one. */
static void test_watchdog_waits_for_a_working_memory(void **state)
{
    (void)state;
    const char *wl = ".array h i32 [4096] zero\n"
                     ".kernel k block=32\n"
                     "    mov r0, %laneid\n"
                     "    shl r1, r0, 7\n"
                     "    atom.add.i32 r2, [h + r1], 1\n"
                     "    add r3, r2, 1\n"
                     "    exit\n"
                     ".host\n"
                     "    launch k grid=1\n";
    const char *shortwd[] = {TINY,
                             "l2.partitions=1",
                             "sm.atomic_path=serial",
                             "dram.bytes_per_cycle=1",
                             "sim.watchdog=1000",
                             NULL};
    const char *longwd[] = {TINY,
                            "l2.partitions=1",
                            "sm.atomic_path=serial",
                            "dram.bytes_per_cycle=1",
                            "sim.watchdog=1000000",
                            NULL};
    sim_metrics a, b;
    char err[1024];
    assert_int_equal(test_sim(wl, shortwd, NULL, &a, err, sizeof err), SIM_OK);
    assert_int_equal(test_sim(wl, longwd, NULL, &b, err, sizeof err), SIM_OK);
    assert_double_less(32 * 128, a.cycles);
    assert_double_near(a.cycles, b.cycles, 0);
}

/* An atomic, then a chain independent of it: mov r5 and four adds, 4 cycles apart. With
 * sm.atomic_wait (GPGPU-Sim's shd_warp_t::waiting: an atomic in flight holds the warp) the chain
 * issues only once the atomic's reply is in, so the run is 20 cycles longer than without (the
 * last add's write-back lands 20 cycles after the reply; without, the exit waits for the reply
 * alone). The atomic counts from its issue: queued for the load/store unit
 * (sm.mem_queue_delay=16) it holds the warp there too, and both runs are 16 cycles longer. */
static void test_atomic_holds_warp_from_issue(void **state)
{
    (void)state;
    const char *wl = ".array h i32 [64] zero\n"
                     ".kernel k block=32\n"
                     "    mov r0, %laneid\n"
                     "    shl r1, r0, 2\n"
                     "    atom.add.i32 r2, [h + r1], 1\n"
                     "    mov r5, 1\n"
                     "    add r5, r5, 1\n"
                     "    add r5, r5, 1\n"
                     "    add r5, r5, 1\n"
                     "    add r5, r5, 1\n"
                     "    exit\n"
                     ".host\n"
                     "    launch k grid=1\n";
    uint64_t c[2][2];
    for (int q = 0; q < 2; q++)
        for (int aw = 0; aw < 2; aw++) {
            const char *sets[] = {TINY, q ? "sm.mem_queue=4" : "sm.mem_queue=0",
                                  "sm.mem_queue_delay=16",
                                  aw ? "sm.atomic_wait=true" : "sm.atomic_wait=false", NULL};
            sim_metrics m;
            test_sim_ok(wl, sets, NULL, &m);
            c[q][aw] = (uint64_t)m.cycles;
        }
    assert_int_equal(c[0][1] - c[0][0], 20);
    assert_int_equal(c[1][1] - c[1][0], 20);
    assert_int_equal(c[1][0] - c[0][0], 16);
    assert_int_equal(c[1][1] - c[0][1], 16);
}

/* Kernels that each finish in one cycle, launched by a host loop that would run ~2^62 times:
 * the cycle cap still ends the run, after about sim.max_cycles launches. */
static void test_cycle_cap_counts_across_launches(void **state)
{
    (void)state;
    const char *wl = ".array a i32 [1] zero\n"
                     ".kernel k block=32\n"
                     "    exit\n"
                     ".host\n"
                     "    set a[0] = 1\n"
                     "    do max=2147483647\n"
                     "    do max=2147483647\n"
                     "        launch k grid=1\n"
                     "    while a[0] != 0\n"
                     "    while a[0] != 0\n";
    const char *sets[] = {TINY, "sim.max_cycles=1000", NULL};
    sim_metrics m;
    char err[1024];
    assert_int_equal(test_sim(wl, sets, NULL, &m, err, sizeof err), SIM_FAILED);
    assert_non_null(strstr(err, "sim.max_cycles"));
    assert_double_in_range(m.kernels, 900, 1001);
}

/* Host loops whose iterations launch nothing cannot change the memory their condition reads:
 * they end after one iteration, as running out their (here ~2^62) iterations would, and the
 * launch before them is the only kernel. */
static void test_host_loop_without_launch_ends(void **state)
{
    (void)state;
    const char *wl = ".array a i32 [1] zero\n"
                     ".kernel k block=32\n"
                     "    exit\n"
                     ".host\n"
                     "    launch k grid=1\n"
                     "    do max=2147483647\n"
                     "    do max=2147483647\n"
                     "        set a[0] = 1\n"
                     "    while a[0] != 0\n"
                     "    while a[0] != 0\n"
                     "    launch k grid=2\n";
    const char *sets[] = {TINY, "sim.max_cycles=100000", NULL};
    sim_metrics m;
    test_sim_ok(wl, sets, NULL, &m);
    assert_int_equal((int)m.kernels, 2);
    assert_int_equal((int)m.ctas, 3);
}

/* A workload runtime error (an address outside every array) ends the run with a message. */
static void test_out_of_bounds_is_an_error(void **state)
{
    (void)state;
    const char *wl = ".array a i32 [4] zero\n"
                     ".kernel k block=32\n"
                     "    mov r0, %laneid\n"
                     "    shl r1, r0, 12\n"
                     "    ld.i32 r2, [a + r1]\n"
                     "    exit\n"
                     ".host\n"
                     "    launch k grid=1\n";
    const char *sets[] = {TINY, NULL};
    sim_metrics m;
    char err[1024];
    assert_int_equal(test_sim(wl, sets, NULL, &m, err, sizeof err), SIM_FAILED);
    assert_non_null(strstr(err, "address"));
}

static void test_bad_config_is_rejected(void **state)
{
    (void)state;
    const char *sets[] = {"l1d.hash=xor", "l1d.sets=12", NULL};
    sim_metrics m;
    char err[1024];
    assert_int_equal(test_sim("stream", sets, NULL, &m, err, sizeof err), SIM_BAD_CONFIG);
    assert_non_null(strstr(err, "l1d.sets"));
}

/* Same inputs, same bytes; skipping idle cycles changes nothing but speed. */
static void test_deterministic_and_skip_exact(void **state)
{
    (void)state;
    const char *names[] = {"kmeans", "bfs", "matmul", "stream"};
    /* the per-SM energy terms read the resident cycles, which skipping must keep exact */
#define SKIP_SETS "gpu.sms=4", "energy.sm_active_watts=0.5", "energy.sm_idle_watts=0.25"
    const char *small[] = {SKIP_SETS, NULL};
    const char *noskip[] = {SKIP_SETS, "sim.skip_idle=false", NULL};
#undef SKIP_SETS
    for (size_t i = 0; i < 4; i++) {
        sim_metrics a, b, c;
        /* bfs's default graph is sized for the whole GPU; a smaller one keeps this quick */
        const char *const bfs_small[] = {"nodes=4096", "edges=32768", NULL};
        const char *const *wp = strcmp(names[i], "bfs") == 0 ? bfs_small : NULL;
        test_sim_ok(names[i], small, wp, &a);
        test_sim_ok(names[i], small, wp, &b);
        test_sim_ok(names[i], noskip, wp, &c);
        assert_memory_equal(&a, &b, sizeof a);
        if (memcmp(&a, &c, sizeof a) != 0) {
            for (size_t k = 0; k < metric_count(); k++)
                if (metric_value(&a, k) != metric_value(&c, k))
                    print_error("%s: %s skip=%.17g noskip=%.17g\n", names[i], metric_at(k).name,
                                metric_value(&a, k), metric_value(&c, k));
            fail_msg("%s: skipping idle cycles changed the results", names[i]);
        }
    }
}

/* SMs stepping on three threads, or on threads borrowed from a share (as the explorer lends
 * them), give every metric of the one-thread run, on kernels with global stores, atomics,
 * barriers and several launches (kmeans, bfs, stream); the borrowed threads are given back. */
static void test_threads_give_the_same_results(void **state)
{
    (void)state;
    const char *names[] = {"kmeans", "bfs", "stream"};
    const char *sets[] = {"gpu.sms=8", NULL};
    for (size_t i = 0; i < 3; i++) {
        const char *const bfs_small[] = {"nodes=4096", "edges=32768", NULL};
        const char *const *wp = strcmp(names[i], "bfs") == 0 ? bfs_small : NULL;
        sim_metrics one, three, lent;
        test_sim_ok(names[i], sets, wp, &one);
        char err[1024] = "";
        sim_options opt = {0};
        opt.threads = 3;
        assert_int_equal(test_sim_opt(names[i], sets, wp, &opt, &three, err, sizeof err), SIM_OK);
        sim_thread_share share = {.max = 3};
        atomic_init(&share.idle, 2);
        atomic_init(&share.running, 1);
        sim_options borrow = {0};
        borrow.share = &share;
        assert_int_equal(test_sim_opt(names[i], sets, wp, &borrow, &lent, err, sizeof err), SIM_OK);
        assert_int_equal(atomic_load(&share.idle), 2);
        assert_memory_equal(&one, &three, sizeof one);
        assert_memory_equal(&one, &lent, sizeof one);
    }
}

/* The energy terms of idle/active SMs and of the front end, on the chain of
 * test_alu_chain_exact_cycles (9 cycles, 3 warp instructions) on 2 SMs, only one of which gets
 * the CTA. At 1000 MHz a cycle is 1 ns, so 1 W for one SM-cycle is 1e-9 J.
 *   equal active and idle power: 2 SMs x 9 cycles x 1 W = 18e-9 J, whatever SM 0's residency;
 *   inst: 3 warp instructions x 10 pJ = 30e-12 J;
 *   active/idle: SM 0 holds its CTA from cycle 0 until the exit issues at 5 (the CTA leaves
 *   as its last warp exits), so 5 active SM-cycles (0-4); cycles 5-8 (the add's write-back)
 *   and all 9 of SM 1 are idle: 13 idle SM-cycles, util = (5/9 + 0/9) / 2. */
static void test_energy_sm_and_front_end_terms(void **state)
{
    (void)state;
    const char *wl = ".kernel k block=32\n"
                     "    mov r0, 1\n"
                     "    add r1, r0, 1\n"
                     "    exit\n"
                     ".host\n"
                     "    launch k grid=1\n";
#define ENERGY_ZERO                                                                                \
    TINY, "gpu.sms=2", "gpu.clock_mhz=1000", "energy.int_op_pj=0", "energy.fp_op_pj=0",            \
        "energy.sfu_op_pj=0", "energy.regfile_pj=0", "energy.l1d_pj_per_byte=0",                   \
        "energy.shared_pj_per_byte=0", "energy.icnt_pj_per_byte=0", "energy.l2_pj_per_byte=0",     \
        "energy.dram_pj_per_byte=0", "energy.dram_activate_pj=0", "energy.static_watts=0"
    const char *old[] = {ENERGY_ZERO, NULL};
    const char *flat[] = {ENERGY_ZERO, "energy.sm_active_watts=1", "energy.sm_idle_watts=1",
                          "energy.inst_pj=10", NULL};
    const char *active[] = {ENERGY_ZERO, "energy.sm_active_watts=1", NULL};
    const char *idle[] = {ENERGY_ZERO, "energy.sm_idle_watts=1", NULL};
#undef ENERGY_ZERO
    sim_metrics o, f, a, i;
    test_sim_ok(wl, old, NULL, &o);
    test_sim_ok(wl, flat, NULL, &f);
    test_sim_ok(wl, active, NULL, &a);
    test_sim_ok(wl, idle, NULL, &i);
    /* the defaults (0) leave the energy as it was: nothing at all here */
    assert_int_equal((int)o.cycles, 9);
    assert_double_near(o.energy_j, 0.0, 0);
    assert_double_near(o.energy_sm_j, 0.0, 0);
    assert_double_near(o.energy_inst_j, 0.0, 0);
    assert_int_equal((int)f.cycles, 9);
    assert_double_near(f.energy_sm_j, 18e-9, 1e-15);
    assert_double_near(f.energy_inst_j, 30e-12, 1e-18);
    assert_double_near(f.energy_j, 18e-9 + 30e-12, 1e-15);
    assert_double_near(f.power_w, (18e-9 + 30e-12) / 9e-9, 1e-9);
    assert_double_near(a.util, 5.0 / 18.0, 1e-12);
    assert_double_near(a.energy_sm_j, 5e-9, 1e-15);
    assert_double_near(a.energy_j, 5e-9, 1e-15);
    assert_double_near(i.energy_sm_j, 13e-9, 1e-15);
}

/* Memory-side clock domains (faster and slower than the core, at non-integer ratios), shared
 * DRAM channels, the ROP delay and the DRAM latency in front: skipping idle cycles is still
 * exact, and the clocks change the result. */
static void test_clock_domains_skip_exact(void **state)
{
    (void)state;
    const char *names[] = {"kmeans", "stream"};
#define CLOCKS                                                                                     \
    "gpu.sms=4", "gpu.clock_mhz=700", "icnt.clock_mhz=1000", "l2.clock_mhz=450",                   \
        "dram.clock_mhz=924", "l2.rop_latency=20", "l2.slices_per_channel=2",                      \
        "dram.latency_first=true"
    const char *clk[] = {CLOCKS, NULL};
    const char *noskip[] = {CLOCKS, "sim.skip_idle=false", NULL};
#undef CLOCKS
    const char *plain[] = {"gpu.sms=4", NULL};
    for (size_t i = 0; i < 2; i++) {
        sim_metrics a, c, p;
        test_sim_ok(names[i], clk, NULL, &a);
        test_sim_ok(names[i], noskip, NULL, &c);
        test_sim_ok(names[i], plain, NULL, &p);
        if (memcmp(&a, &c, sizeof a) != 0) fail_msg("%s: skipping changed the results", names[i]);
        assert_int_not_equal((uint64_t)a.cycles, (uint64_t)p.cycles);
    }
}

/* DYNCTA's premise: on a bandwidth-bound kernel more CTAs per SM lengthen round trips. */
static void test_more_ctas_raise_latency_on_stream(void **state)
{
    (void)state;
    const char *one[] = {"sm.max_ctas=1", NULL};
    const char *eight[] = {"sm.max_ctas=8", NULL};
    sim_metrics a, b;
    test_sim_ok("stream", one, NULL, &a);
    test_sim_ok("stream", eight, NULL, &b);
    assert_double_less(1.5 * a.lat_rt, b.lat_rt);
}

/* The compute-bound matrix multiply gains from more CTAs per SM to hide its latencies. */
static void test_matmul_ipc_rises_with_ctas(void **state)
{
    (void)state;
    const char *one[] = {"gpu.sms=2", "sm.max_ctas=1", NULL};
    const char *two[] = {"gpu.sms=2", "sm.max_ctas=2", NULL};
    const char *four[] = {"gpu.sms=2", "sm.max_ctas=4", NULL};
    sim_metrics a, b, c;
    test_sim_ok("matmul", one, NULL, &a);
    test_sim_ok("matmul", two, NULL, &b);
    test_sim_ok("matmul", four, NULL, &c);
    assert_double_less(a.ipc, b.ipc);
    assert_double_in_range(c.ipc, b.ipc, INFINITY);
}

/* DRAM never moves more than its peak and a streaming kernel gets close to it. */
static void test_dram_bandwidth_bounded_and_approached(void **state)
{
    (void)state;
    sim_metrics m;
    test_sim_ok("stream", NULL, NULL, &m);
    assert_double_in_range(m.dram_bandwidth_util, 0, 1.0);
    assert_double_less(0.6, m.dram_bandwidth_util);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_alu_chain_exact_cycles),
        cmocka_unit_test(test_cta_per_cycle),
        cmocka_unit_test(test_dispatch_carries_over_kernels),
        cmocka_unit_test(test_atomic_holds_warp_from_issue),
        cmocka_unit_test(test_unit_initiation_interval),
        cmocka_unit_test(test_load_miss_then_hit_exact_cycles),
        cmocka_unit_test(test_mshr_merge),
        cmocka_unit_test(test_divergent_load_accesses),
        cmocka_unit_test(test_barrier_waits_for_all_warps),
        cmocka_unit_test(test_barrier_never_reached_is_an_error),
        cmocka_unit_test(test_watchdog_shorter_than_memory_latency),
        cmocka_unit_test(test_watchdog_waits_for_a_working_memory),
        cmocka_unit_test(test_cycle_cap_counts_across_launches),
        cmocka_unit_test(test_host_loop_without_launch_ends),
        cmocka_unit_test(test_out_of_bounds_is_an_error),
        cmocka_unit_test(test_bad_config_is_rejected),
        cmocka_unit_test(test_deterministic_and_skip_exact),
        cmocka_unit_test(test_threads_give_the_same_results),
        cmocka_unit_test(test_energy_sm_and_front_end_terms),
        cmocka_unit_test(test_clock_domains_skip_exact),
        cmocka_unit_test(test_more_ctas_raise_latency_on_stream),
        cmocka_unit_test(test_matmul_ipc_rises_with_ctas),
        cmocka_unit_test(test_dram_bandwidth_bounded_and_approached),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
