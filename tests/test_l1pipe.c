/* The L1D access pipeline (l1d.tag_pipeline, l1d.banks; GPGPU-Sim's ldst_unit::l1_latency_queue):
 * hand-computed timelines of tiny kernels through the L1D observer, which sees each access when
 * it reaches its queue's head, and skipping kept exact with the pipeline on. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/config/metrics.h"
#include "core/config/preset.h"
#include "explorer/simulate.h"
#include "tests/support/support.h"

/* One SM, one scheduler, full-width units, int latency 4, an L1D hit latency (the queue's
 * depth) of H = 20, the pipeline on. */
#define H 20
#define TINY                                                                                       \
    "gpu.sms=1", "sm.schedulers=1", "sm.simd_width=32", "sm.int_latency=4", "l1d.hit_latency=20",  \
        "sm.branch_latency=2", "l1d.tag_pipeline=true"

typedef struct access_log {
    int n;
    struct {
        uint64_t cycle, line;
        char outcome[24];
    } a[256];
} access_log;

static void log_access(void *arg, const l1_access_record *r)
{
    access_log *log = arg;
    if (log->n == 256) return;
    log->a[log->n].cycle = r->cycle;
    log->a[log->n].line = r->line;
    snprintf(log->a[log->n].outcome, sizeof log->a[log->n].outcome, "%s", r->outcome);
    log->n++;
}

static void run_logged(const char *text, const char *const *sets, access_log *log, sim_metrics *m)
{
    char err[1024] = "";
    param_set *p = param_set_new();
    if (test_apply_sets(p, TEST_PRESET, sets, err, sizeof err) != 0) fail_msg("%s", err);
    workload *w = NULL;
    if (workload_parse(text, "t.wl", NULL, NULL, 0, &w, err, sizeof err) != 0) fail_msg("%s", err);
    sim_options opt = {0};
    opt.l1_observer = log_access;
    opt.l1_observer_arg = log;
    memset(log, 0, sizeof *log);
    sim_status st = sim_run(p, w, &opt, m, err, sizeof err);
    workload_free(w);
    param_set_free(p);
    if (st != SIM_OK) fail_msg("simulation failed: %s", err);
}

static void expect(const access_log *log, int i, uint64_t cycle, const char *outcome)
{
    if (i >= log->n) fail_msg("access %d: only %d logged", i, log->n);
    if (log->a[i].cycle != cycle || strcmp(log->a[i].outcome, outcome) != 0)
        fail_msg("access %d: %s at %llu, expected %s at %llu", i, log->a[i].outcome,
                 (unsigned long long)log->a[i].cycle, outcome, (unsigned long long)cycle);
}

/* A load that misses, a dependent add, the same load again, a dependent add:
 *   8 ld: enters the queue at 9, at the head at 9+H: miss, sent; reply at 9+H+L | 9+H+L add |
 *   10+H+L ld: enters at 11+H+L, head at 11+2H+L: hit, written back then | 11+2H+L add
 *   (written back 15+2H+L) | exit: 16 + L + 2H cycles (without the pipeline 16 + L + H). */
static void test_hit_writes_back_at_the_head(void **state)
{
    (void)state;
    const char *wl = TEST_WL_LOAD_TWICE;
    const char *sets[] = {TINY, NULL};
    access_log *log = malloc(sizeof *log);
    sim_metrics m;
    run_logged(wl, sets, log, &m);
    int L = (int)m.lat_rt;
    assert_int_equal(L, 220);
    assert_int_equal(log->n, 2);
    expect(log, 0, 9 + H, "miss");
    expect(log, 1, (uint64_t)(11 + 2 * H + L), "hit");
    assert_int_equal((int)m.l1d_accesses, 2);
    assert_int_equal((int)m.l1d_hits, 1);
    assert_int_equal((int)m.l1d_misses, 1);
    assert_int_equal((int)m.cycles, 16 + L + 2 * H);
    free(log);
}

/* Two loads of one line back to back: the first enters at 9 and misses at the head at 9+H; the
 * second enters at 10 and finds the line reserved at 10+H (HIT_RESERVED: merged). Both are back
 * with the fill at 9+H+L; the add then writes back at 13+H+L: 14 + H + L cycles. */
static void test_second_access_merges_at_the_head(void **state)
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
    access_log *log = malloc(sizeof *log);
    sim_metrics m;
    run_logged(wl, sets, log, &m);
    int L = (int)m.lat_rt;
    assert_int_equal(log->n, 2);
    expect(log, 0, 9 + H, "miss");
    expect(log, 1, 10 + H, "merged");
    assert_int_equal((int)m.l1d_misses, 1);
    assert_int_equal((int)m.l1d_merged, 1);
    assert_int_equal((int)m.dram_reads, 1);
    assert_int_equal((int)m.cycles, 14 + H + L);
    free(log);
}

/* One MSHR, one load of four lines (lane l at byte 16 l: lanes 8k..8k+7 in line k), entering
 * at 9, 10, 11, 12. Line 0 misses at the head at 9+H; line 1 is at the head from 10+H but
 * fails (no MSHR) until line 0's fill at 9+H+L frees the MSHR, and the queue behind it stands
 * still: line 2 comes to the head the cycle after line 1 leaves, 10+H+L, and waits for line
 * 1's fill at 9+H+2L; line 3 for line 2's at 9+H+3L. The last fill is back at 9+H+4L; the add
 * writes back at 13+H+4L: 14 + H + 4L cycles. Each blocked head failed every cycle it waited:
 * (L - 1) + (L - 1) + (L - 1) reservation fails. */
static void test_reservation_fail_holds_the_queue(void **state)
{
    (void)state;
    const char *wl = ".array a i32 [128] zero\n"
                     ".kernel k block=32\n"
                     "    mov r0, %laneid\n"
                     "    shl r1, r0, 4\n"
                     "    ld.i32 r2, [a + r1]\n"
                     "    add r3, r2, 1\n"
                     "    exit\n"
                     ".host\n"
                     "    launch k grid=1\n";
    const char *sets[] = {TINY, "l1d.mshrs=1", NULL};
    access_log *log = malloc(sizeof *log);
    sim_metrics m;
    run_logged(wl, sets, log, &m);
    int L = (int)m.lat_rt;
    assert_int_equal(L, 220);
    assert_int_equal((int)m.l1d_misses, 4);
    assert_int_equal((int)m.l1d_reservation_fails, 3 * (L - 1));
    assert_int_equal((int)m.cycles, 14 + H + 4 * L);
    /* the observer sees the first try of each blocked head and its success */
    expect(log, 0, 9 + H, "miss");
    expect(log, 1, 10 + H, "reservation_fail");
    expect(log, 2, (uint64_t)(9 + H + L), "miss");
    expect(log, 3, (uint64_t)(10 + H + L), "reservation_fail");
    expect(log, 4, (uint64_t)(9 + H + 2 * L), "miss");
    expect(log, 5, (uint64_t)(10 + H + 2 * L), "reservation_fail");
    expect(log, 6, (uint64_t)(9 + H + 3 * L), "miss");
    assert_int_equal(log->n, 7);
    free(log);
}

/* 32 lanes, lane l at byte 160 l: 32 lines, lane l's in the l mod 4-th 32-byte sector of its
 * line, so in bank l mod 2 of two (32-byte interleaving). A first load brings the lines in;
 * the second's 32 hits enter the queues one a cycle with one bank, two a cycle (banks 0 and
 * 1 alternating) with two: access i reaches the head i, or i / 2, cycles after the first. */
static void test_two_banks_take_two_accesses_a_cycle(void **state)
{
    (void)state;
    const char *wl = ".array a i32 [40*32] zero\n"
                     ".kernel k block=32\n"
                     "    mov r0, %laneid\n"
                     "    mul r1, r0, 160\n"
                     "    ld.i32 r2, [a + r1]\n"
                     "    add r3, r2, 1\n"
                     "    ld.i32 r4, [a + r1]\n"
                     "    add r5, r4, 1\n"
                     "    exit\n"
                     ".host\n"
                     "    launch k grid=1\n";
    access_log *log = malloc(sizeof *log);
    for (int banks = 1; banks <= 2; banks++) {
        const char *sets[] = {TINY, "l1d.mshrs=64", banks == 1 ? "l1d.banks=1" : "l1d.banks=2",
                              NULL};
        sim_metrics m;
        run_logged(wl, sets, log, &m);
        assert_int_equal((int)m.l1d_accesses, 64);
        assert_int_equal((int)m.l1d_hits, 32);
        /* the second load's hits are the last 32 (the first's misses may have been retried) */
        int base = log->n - 32;
        assert_in_range(base, 32, log->n);
        uint64_t first = log->a[base].cycle;
        for (int i = 0; i < 32; i++)
            expect(log, base + i, first + (uint64_t)(banks == 1 ? i : i / 2), "hit");
        /* the last hit writes back r4 at its head; the add then writes back 4 cycles later */
        assert_int_equal((int)m.cycles, (int)log->a[log->n - 1].cycle + 5);
    }
    free(log);
}

/* Skipping idle cycles changes nothing with the pipeline on: blocked heads, full queues and
 * bank conflicts all feed the SM's wake. */
static void test_skip_exact(void **state)
{
    (void)state;
    const char *names[] = {"kmeans", "bfs", "matmul", "stream", "pvc"};
    const char *skip[] = {"gpu.sms=4", "l1d.tag_pipeline=true", "l1d.banks=2", "l1d.mshrs=8", NULL};
    const char *noskip[] = {"gpu.sms=4",   "l1d.tag_pipeline=true", "l1d.banks=2",
                            "l1d.mshrs=8", "sim.skip_idle=false",   NULL};
    const char *const bfs_small[] = {"nodes=4096", "edges=32768", NULL};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        sim_metrics a, c;
        char err[1024] = "";
        const char *const *wp = strcmp(names[i], "bfs") == 0 ? bfs_small : NULL;
        if (test_sim(names[i], skip, wp, &a, err, sizeof err) != SIM_OK) fail_msg("%s", err);
        if (test_sim(names[i], noskip, wp, &c, err, sizeof err) != SIM_OK) fail_msg("%s", err);
        if (memcmp(&a, &c, sizeof a) != 0) {
            for (size_t k = 0; k < metric_count(); k++)
                if (metric_value(&a, k) != metric_value(&c, k))
                    print_error("%s: %s skip=%.17g noskip=%.17g\n", names[i], metric_at(k).name,
                                metric_value(&a, k), metric_value(&c, k));
            fail_msg("%s: skipping idle cycles changed the results", names[i]);
        }
        assert_double_less(0, a.l1d_accesses);
    }
}

/* l1d.fill_drain: four warps (one per scheduler) load one word of the same line; one misses,
 * three merge into its MSHR. Without the drain all four write back at the fill F and their adds
 * issue together at F; with it they write back one a cycle from F + 1 (GPGPU-Sim's writeback
 * stage runs the cycle after the fill), so the last add, and the run, end 4 cycles later.
 * Skipping idle cycles stays exact. */
static void test_fill_drains_one_a_cycle(void **state)
{
    (void)state;
    const char *wl = ".array a i32 [32] iota(0, 1)\n"
                     ".kernel k block=128\n"
                     "    mov r0, %laneid\n"
                     "    ld.i32 r2, [a]\n"
                     "    add r3, r2, 1\n"
                     "    exit\n"
                     ".host\n"
                     "    launch k grid=1\n";
    const char *off[] = {TINY, "sm.schedulers=4", NULL};
    const char *on[] = {TINY, "sm.schedulers=4", "l1d.fill_drain=true", NULL};
    const char *on_noskip[] = {TINY, "sm.schedulers=4", "l1d.fill_drain=true",
                               "sim.skip_idle=false", NULL};
    sim_metrics a, b, c;
    test_sim_ok(wl, off, NULL, &a);
    test_sim_ok(wl, on, NULL, &b);
    test_sim_ok(wl, on_noskip, NULL, &c);
    assert_int_equal((int)a.l1d_misses, 1);
    assert_int_equal((int)a.l1d_merged, 3);
    assert_int_equal((int)b.cycles, (int)a.cycles + 4);
    assert_memory_equal(&b, &c, sizeof b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hit_writes_back_at_the_head),
        cmocka_unit_test(test_second_access_merges_at_the_head),
        cmocka_unit_test(test_reservation_fail_holds_the_queue),
        cmocka_unit_test(test_two_banks_take_two_accesses_a_cycle),
        cmocka_unit_test(test_skip_exact),
        cmocka_unit_test(test_fill_drains_one_a_cycle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
