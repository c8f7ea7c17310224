/* Sampled simulation: functional execution on a tiny kernel with hand-computed counts and
 * memory, the sampler's stability rule and projection on hand-made counters, and whole runs
 * whose projected results keep the exact counts and stay near the full runs. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "core/sim/functional.h"
#include "core/sim/sample.h"
#include "core/workload/wl_inspect.h"
#include "core/workload/workload.h"
#include "tests/support/support.h"

/* Two warps per CTA: warp 1 writes ctaid*100 + lane to shared memory before the barrier, and
 * both warps read it after and store it. A warp 0 that ran past the barrier first would read
 * what the CTA before it left in the same shared slot (or zero). 14 instructions per warp. */
#define WL_BARRIER                                                                                 \
    ".array out i32 [192] zero\n"                                                                  \
    ".kernel k block=64 shared=128\n"                                                              \
    "    mov     r0, %tid\n"                                                                       \
    "    shr     r1, r0, 5\n"                                                                      \
    "    and     r2, r0, 31\n"                                                                     \
    "    shl     r3, r2, 2\n"                                                                      \
    "    mov     r4, %ctaid\n"                                                                     \
    "    setp.eq p0, r1, 1\n"                                                                      \
    "    mad     r5, r4, 100, r2\n"                                                                \
    "@p0 st.shared.i32 [r3], r5\n"                                                                 \
    "    bar\n"                                                                                    \
    "    ld.shared.i32 r6, [r3]\n"                                                                 \
    "    mov     r7, %gtid\n"                                                                      \
    "    shl     r8, r7, 2\n"                                                                      \
    "    st.i32  [out + r8], r6\n"                                                                 \
    "    exit\n"                                                                                   \
    ".host\n"                                                                                      \
    "    launch k grid=3\n"

static void test_functional_counts_and_barrier(void **state)
{
    (void)state;
    char err[512];
    workload *w = NULL;
    int rc = workload_parse(WL_BARRIER, "t.wl", NULL, NULL, 0, &w, err, sizeof err);
    if (rc) fprintf(stderr, "%s\n", err);
    assert_int_equal(rc, 0);
    isource src;
    assert_int_equal(workload_instance(w, 1, 48, 8, &src, err, sizeof err), 0);
    kernel_launch k;
    assert_int_equal(src.ops->next_kernel(src.self, &k, err, sizeof err), 1);
    func_counts fc;
    memset(&fc, 0, sizeof fc);
    rc = func_run(&src, &k, 0, k.grid, FUNC_CTA_CAP, NULL, &fc, err, sizeof err);
    if (rc) fprintf(stderr, "%s\n", err);
    assert_int_equal(rc, 0);
    /* 3 CTAs x 2 warps x 14 instructions; warp 0's predicated store runs no lane */
    assert_int_equal(fc.ctas, 3);
    assert_int_equal(fc.warp_insts, 84);
    assert_int_equal(fc.thread_insts, 84 * 32 - 3 * 32);
    assert_int_equal(fc.cls[IC_BARRIER], 6);
    assert_int_equal(fc.cls[IC_ST_SHARED], 6);
    assert_int_equal(fc.cls[IC_LD_SHARED], 6);
    assert_int_equal(fc.cls[IC_ST_GLOBAL], 6);
    assert_int_equal(fc.cls[IC_EXIT], 6);
    assert_int_equal(fc.lines, 6); /* each warp's store: 32 words, one 128-byte line */
    uint32_t n;
    const uint32_t *out = wl_instance_array(&src, "out", &n);
    assert_int_equal(n, 192);
    for (uint32_t g = 0; g < 192; g++)
        assert_int_equal(out[g], (g / 64) * 100 + g % 32);
    assert_int_equal(src.ops->next_kernel(src.self, &k, err, sizeof err), 0);
    src.ops->destroy(src.self);
    workload_free(w);

    /* the timing model issues as many */
    sim_metrics m;
    test_sim_ok(WL_BARRIER, NULL, NULL, &m);
    assert_int_equal((int)m.warp_insts, 84);
    assert_int_equal((int)m.thread_insts, 84 * 32 - 3 * 32);
}

/* counters with cycles c and warp instructions w, and 3 L1D misses per warp instruction */
static stats_counters at(double c, double w)
{
    stats_counters s;
    memset(&s, 0, sizeof s);
    s.v[STATS_CYCLES] = c;
    s.v[STATS_WARP_INSTS] = w;
    s.v[STATS_THREAD_INSTS] = 32 * w;
    s.v[1 + offsetof(sm_stats, l1d_misses) / sizeof(uint64_t)] = 3 * w;
    return s;
}

/* An intra-kernel sampler: 3% tolerance, one warm-up wave, windows of 1000 cycles (growing to
 * a CTA's life with window_life), and `stable` comparisons in a row to stop. */
static sampler *intra_sampler_life(int stable, bool window_life)
{
    gpu_config c;
    memset(&c, 0, sizeof c);
    c.sample_intra = 1;
    c.sample_wave_tolerance = 0.03;
    c.sample_stable_waves = stable;
    c.sample_warmup_waves = 1;
    c.sample_window = 1000;
    c.sample_window_life = window_life;
    c.sample_budget = 1;
    char err[256];
    sampler *s;
    assert_int_equal(sampler_create(&s, &c, NULL, NULL, err, sizeof err), 0);
    assert_non_null(s);
    return s;
}

static sampler *intra_sampler(int stable)
{
    return intra_sampler_life(stable, false);
}

static void test_sampler_stability_and_projection(void **state)
{
    (void)state;
    sampler *s = intra_sampler(2);
    /* 100 CTAs, 10 at once: 10 >= 1 + 2 + 2 waves, so measured by waves */
    stats_counters now = at(0, 0);
    sample_next next = sampler_kernel_start(s, 100, 10, 0, &now, NULL);
    assert_int_equal(next.wave_at, 10);
    assert_true(next.window_at == UINT64_MAX);
    /* wave 1 (cold, cpi 10): the warm-up, not compared */
    now = at(1000, 100);
    assert_false(sampler_interval(s, 10, 20, 1000, &now, NULL, &next));
    assert_int_equal(next.wave_at, 20);
    /* wave 2 (cpi 8): nothing to compare it with yet */
    now = at(1800, 200);
    assert_false(sampler_interval(s, 20, 30, 1800, &now, NULL, &next));
    /* wave 3 (cpi 9): 12.5% over wave 2, not stable */
    now = at(2700, 300);
    assert_false(sampler_interval(s, 30, 40, 2700, &now, NULL, &next));
    /* wave 4 (cpi 9.2): 2.2% over wave 3, one comparison holds */
    now = at(3620, 400);
    assert_false(sampler_interval(s, 40, 50, 3620, &now, NULL, &next));
    assert_int_equal(next.wave_at, 50);
    /* wave 5 (cpi 9.0): 2.2% under, the second: stable over waves 3..5 (bounds 2 to 5) */
    now = at(4520, 500);
    assert_true(sampler_interval(s, 50, 60, 4520, &now, NULL, &next));
    /* the rest: 500 warp instructions, 15000 thread instructions, 40 CTAs */
    func_counts fc;
    memset(&fc, 0, sizeof fc);
    fc.warp_insts = 500;
    fc.thread_insts = 15000;
    fc.ctas = 40;
    sampler_project_rest(s, &fc, NULL, 4520);
    const stats_counters *x = sampler_extra(s);
    double cpi = (4520.0 - 1800.0) / 300.0;
    assert_true(fabs(x->v[STATS_CYCLES] - 500 * cpi) < 1e-6);
    assert_true(fabs(x->v[STATS_WARP_INSTS] - 500) < 1e-9);
    assert_true(fabs(x->v[STATS_THREAD_INSTS] - 15000) < 1e-9); /* counted, not projected */
    assert_true(fabs(x->v[STATS_CTAS] - 40) < 1e-9);
    assert_true(fabs(x->v[1 + offsetof(sm_stats, l1d_misses) / sizeof(uint64_t)] - 1500) < 1e-6);
    assert_int_equal(sampler_projected_insts(s), 500);
    sampler_destroy(s);
}

static void test_sampler_windows_and_little_left(void **state)
{
    (void)state;
    sampler *s = intra_sampler(1);
    /* 30 CTAs, 10 at once: fewer than 1 + 1 + 2 waves, so windows of 1000 cycles from 500 */
    stats_counters now = at(500, 0);
    sample_next next = sampler_kernel_start(s, 30, 10, 500, &now, NULL);
    assert_true(next.wave_at == UINT32_MAX);
    assert_true(next.window_at == 1500);
    /* steady windows before a wave of CTAs finished are warm-up */
    now = at(1500, 100);
    assert_false(sampler_interval(s, 0, 10, 1500, &now, NULL, &next));
    now = at(2500, 200);
    assert_false(sampler_interval(s, 5, 10, 2500, &now, NULL, &next));
    assert_true(next.window_at == 3500);
    now = at(3500, 300);
    assert_false(sampler_interval(s, 10, 20, 3500, &now, NULL, &next)); /* warm from here */
    now = at(4500, 400);
    assert_false(sampler_interval(s, 12, 20, 4500, &now, NULL, &next)); /* one window: no pair */
    now = at(5500, 500);
    assert_true(sampler_interval(s, 15, 20, 5500, &now, NULL, &next));
    sampler_destroy(s);

    /* by waves, a kernel with less than a wave left to hand out is simulated to its end */
    s = intra_sampler(1);
    now = at(0, 0);
    next = sampler_kernel_start(s, 40, 10, 0, &now, NULL);
    assert_int_equal(next.wave_at, 10);
    now = at(1000, 100);
    assert_false(sampler_interval(s, 10, 20, 1000, &now, NULL, &next));
    now = at(2000, 200);
    assert_false(
        sampler_interval(s, 20, 35, 2000, &now, NULL, &next)); /* 5 CTAs left to hand out */
    assert_true(next.wave_at == UINT32_MAX && next.window_at == UINT64_MAX); /* no more waves */
    sampler_destroy(s);
}

/* With sample.window_life, once the warm-up wave's CTAs have finished, a window lasts at least
 * the cycles that wave took: the kernel of test_sampler_windows_and_little_left started at 500
 * and its first wave finished by 3500, a CTA's life of 3000 cycles, so its windows grow from
 * 1000 to 3000 cycles and the rate is compared over whole lives. */
static void test_sampler_windows_last_a_cta_life(void **state)
{
    (void)state;
    sampler *s = intra_sampler_life(1, true);
    stats_counters now = at(500, 0);
    sample_next next = sampler_kernel_start(s, 30, 10, 500, &now, NULL);
    assert_true(next.window_at == 1500);
    now = at(1500, 100);
    assert_false(sampler_interval(s, 0, 10, 1500, &now, NULL, &next));
    assert_true(next.window_at == 2500);
    now = at(2500, 200);
    assert_false(sampler_interval(s, 5, 10, 2500, &now, NULL, &next));
    now = at(3500, 300);
    assert_false(sampler_interval(s, 10, 20, 3500, &now, NULL, &next)); /* warm: a life known */
    assert_true(next.window_at == 6500);
    now = at(6500, 600);
    assert_false(sampler_interval(s, 16, 20, 6500, &now, NULL, &next)); /* one window: no pair */
    assert_true(next.window_at == 9500);
    /* the lives' rates: 10, then 6 cycles per warp instruction (not stable), then 6 again */
    now = at(9500, 1100);
    assert_false(sampler_interval(s, 22, 30, 9500, &now, NULL, &next));
    now = at(12500, 1600);
    assert_true(sampler_interval(s, 27, 30, 12500, &now, NULL, &next));
    sampler_destroy(s);
}

/* A sampled run keeps the exact counts (warp and thread instructions, CTAs, launches), says how
 * much it projected, and stays near the full run. */
static void check_projected(const char *name, const char *const *wparams, double tol)
{
    const char *full_sets[] = {NULL};
    const char *sampled_sets[] = {"sample.kernels=true", "sample.intra=true", NULL};
    sim_metrics full, smp;
    test_sim_ok(name, full_sets, wparams, &full);
    test_sim_ok(name, sampled_sets, wparams, &smp);
    assert_true(full.projected_warp_insts == 0 && full.detailed_warp_insts == 0);
    assert_true(smp.projected_warp_insts > 0);
    assert_true(smp.detailed_warp_insts + smp.projected_warp_insts == smp.warp_insts);
    assert_true(smp.warp_insts == full.warp_insts);
    assert_true(smp.thread_insts == full.thread_insts);
    assert_true(smp.ctas == full.ctas);
    assert_true(smp.kernels == full.kernels);
    test_assert_double_in_range(smp.cycles / full.cycles, 1 - tol, 1 + tol, "cycles ratio",
                                __FILE__, __LINE__);
}

static void test_intra_kernel_sampling_projects_near_full(void **state)
{
    (void)state;
    const char *wp[] = {"n=262144", NULL}; /* 1024 CTAs: 8.5 waves on 15 SMs */
    check_projected("stream", wp, 0.05);
}

static void test_kernel_sampling_projects_near_full(void **state)
{
    (void)state;
    check_projected("fdtd2d", NULL, 0.10); /* its time steps repeat three kernels */
}

/* Kernel a copies x to y, kernel b reads y back: b hits in L2 on what a left there. */
#define WL_ABB(launches)                                                                           \
    ".array x i32 [8192] iota(0, 1)\n"                                                             \
    ".array y i32 [8192] zero\n"                                                                   \
    ".array z i32 [8192] zero\n"                                                                   \
    ".kernel a block=256\n"                                                                        \
    "    mov r0, %gtid\n"                                                                          \
    "    shl r1, r0, 2\n"                                                                          \
    "    ld.i32 r2, [x + r1]\n"                                                                    \
    "    add r2, r2, 1\n"                                                                          \
    "    st.i32 [y + r1], r2\n"                                                                    \
    "    exit\n"                                                                                   \
    ".kernel b block=256\n"                                                                        \
    "    mov r0, %gtid\n"                                                                          \
    "    shl r1, r0, 2\n"                                                                          \
    "    ld.i32 r2, [y + r1]\n"                                                                    \
    "    st.i32 [z + r1], r2\n"                                                                    \
    "    exit\n"                                                                                   \
    ".host\n" launches

/* The warm-up kernel sampling states: a launch run functionally takes no simulated time and
 * touches no cache, so the detailed launch after it starts in exactly the state the detailed
 * launch before it left. Sampled, a;a;b is a;b in detail plus a's counters once more. */
static void test_functional_launch_leaves_the_machine_as_it_was(void **state)
{
    (void)state;
    const char *sampled_sets[] = {"sample.kernels=true", "sample.kernel_warmup=0",
                                  "sample.warm_l2=false", NULL};
    sim_metrics a, ab, aab;
    test_sim_ok(WL_ABB("    launch a grid=32\n"), NULL, NULL, &a);
    test_sim_ok(WL_ABB("    launch a grid=32\n    launch b grid=32\n"), NULL, NULL, &ab);
    test_sim_ok(WL_ABB("    launch a grid=32\n    launch a grid=32\n    launch b grid=32\n"),
                sampled_sets, NULL, &aab);
    assert_true(aab.projected_warp_insts == a.warp_insts);
    assert_true(ab.l2_hits > 0); /* b reads what a left in L2 */
    assert_true(aab.cycles == ab.cycles + a.cycles);
    assert_true(aab.warp_insts == ab.warp_insts + a.warp_insts);
    assert_true(aab.l2_accesses == ab.l2_accesses + a.l2_accesses);
    assert_true(aab.l2_hits == ab.l2_hits + a.l2_hits);
    assert_true(aab.l1d_misses == ab.l1d_misses + a.l1d_misses);
    assert_true(aab.dram_reads == ab.dram_reads + a.dram_reads);
    assert_true(aab.kernels == 3);
}

/* Sampling on where nothing is worth projecting (one kernel shorter than the windows it would
 * compare) is the full run. */
static void test_nothing_projected_is_the_full_run(void **state)
{
    (void)state;
    const char *sampled_sets[] = {"sample.kernels=true", "sample.intra=true", NULL};
    sim_metrics full, smp;
    test_sim_ok("stream", NULL, NULL, &full);
    test_sim_ok("stream", sampled_sets, NULL, &smp);
    assert_true(smp.projected_warp_insts == 0);
    assert_memory_equal(&full, &smp, sizeof full);
}

/* A budget stops a launch once its share of the launch's warp instructions ran in detail,
 * whatever its rates (here never stable: a tolerance of 0), and keeps the exact counts; a
 * floor above the launch's instructions leaves it whole, the full run. */
static void test_budget_stops_a_launch_at_its_share(void **state)
{
    (void)state;
    const char *wp[] = {"n=262144", NULL}; /* 8192 warps of 9 warp instructions, one launch */
    const char *budget_sets[] = {"sample.intra=true",  "sample.wave_tolerance=0",
                                 "sample.budget=0.25", "sample.budget_floor=0",
                                 "sample.window=200",  NULL};
    const char *floor_sets[] = {"sample.intra=true",  "sample.wave_tolerance=0",
                                "sample.budget=0.25", "sample.budget_floor=1000000",
                                "sample.window=200",  NULL};
    sim_metrics full, cut, floored;
    test_sim_ok("stream", NULL, wp, &full);
    test_sim_ok("stream", budget_sets, wp, &cut);
    test_sim_ok("stream", floor_sets, wp, &floored);
    double share = cut.detailed_warp_insts / cut.warp_insts;
    /* stopped at the end of the first window past a quarter, the residents then drained */
    test_assert_double_in_range(share, 0.25, 0.45, "detailed share", __FILE__, __LINE__);
    assert_true(cut.detailed_warp_insts + cut.projected_warp_insts == cut.warp_insts);
    assert_true(cut.warp_insts == full.warp_insts && cut.thread_insts == full.thread_insts);
    assert_true(cut.ctas == full.ctas);
    /* projected, not measured: a budget is a screening fidelity whose error a study calibrates
     * (explorer/screen.h; this one comes out about 25% short), so only a sane bound here */
    test_assert_double_in_range(cut.cycles / full.cycles, 0.5, 1.5, "cycles ratio", __FILE__,
                                __LINE__);
    assert_true(floored.projected_warp_insts == 0);
    assert_memory_equal(&full, &floored, sizeof full);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_functional_counts_and_barrier),
        cmocka_unit_test(test_sampler_stability_and_projection),
        cmocka_unit_test(test_sampler_windows_and_little_left),
        cmocka_unit_test(test_sampler_windows_last_a_cta_life),
        cmocka_unit_test(test_intra_kernel_sampling_projects_near_full),
        cmocka_unit_test(test_kernel_sampling_projects_near_full),
        cmocka_unit_test(test_functional_launch_leaves_the_machine_as_it_was),
        cmocka_unit_test(test_nothing_projected_is_the_full_run),
        cmocka_unit_test(test_budget_stops_a_launch_at_its_share),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
