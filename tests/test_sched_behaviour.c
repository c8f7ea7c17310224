/* Behaviour of the warp schedulers on built-in workloads and small configurations (one SM),
 * one section per scheduler in registry order (policies/list.h), then what every scheduler
 * does: GTO against LRR on kmeans, Best-SWL and CCWS against GTO on the cache-sensitive kmeans
 * kernel, CAWS's profiling pass and gCAWS against LRR on a kernel of unequal branch paths,
 * two_level_active's register marks; every scheduler on a compute-bound kernel, and every
 * registered scheduler on a small kmeans with the results the workload fixes. Each scheduler's
 * unit tests are in test_sched_policies.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explorer/catalog.h"
#include "core/config/preset.h"
#include "explorer/simulate.h"
#include "core/sim/warp_profile.h"
#include "policies/registry.h"
#include "tests/support/support.h"

/* ------------------------------------------------------- running a scheduler ---- */

/* kmeans small enough for a test: 2 CTAs of 8 warps on one SM, 34 features, 2 clusters */
static const char *const kmeans_small[] = {"npoints=512", "nclusters=2", NULL};

static void run(const char *wl, const char *const *wparams, const char *policy, const char *extra,
                sim_metrics *m)
{
    char pol[64];
    snprintf(pol, sizeof pol, "sched.policy=%s", policy);
    const char *sets[] = {"gpu.sms=1", pol, extra, NULL};
    char err[1024] = "";
    sim_status st = test_sim(wl, sets, wparams, m, err, sizeof err);
    if (st != SIM_OK) fail_msg("%s on %s: %s", policy, wl, err);
}

/* A kernel of unequal branch paths (CAWA Fig. 6 and Alg. 2): warps 2, 3, 6, 7 of each CTA run a
 * long path of 64 instructions, warps 0, 1, 4, 5 jump over it to a short one, eight times; no
 * barrier, so a warp's execution time ends at its own exit. (Pairs, not odd and even warps: an
 * SM's schedulers own slots slot % 2, so odd/even would put every long warp on one scheduler
 * and every short one on the other, where no scheduler could trade between them.) The
 * built-in imbalance and branchpath workloads end in a CTA-wide reduction behind barriers, so
 * their warps exit together and the exit-time disparity stays below 1% whatever the
 * scheduler. */
static char *paths_kernel(void)
{
    static const char head[] = ".param n 2048\n"
                               ".array out f32 [n] zero\n"
                               ".kernel paths block=256\n"
                               "        mov     r0, %gtid\n"
                               "        mov     r1, %warpid\n"
                               "        shr     r2, r1, 1\n"
                               "        and     r2, r2, 1\n"
                               "        setp.eq p0, r2, 0\n"
                               "        mov     r3, 0\n"
                               "        mov     r4, 1.0\n"
                               "        mov     r5, 2.0\n"
                               "        mov     r6, 3.0\n"
                               "        mov     r7, 4.0\n"
                               "again:\n"
                               "    @p0 bra     light\n";
    static const char tail[] = "        add     r3, r3, 1\n"
                               "        setp.lt p1, r3, 8\n"
                               "    @p1 bra     again\n"
                               "        fadd    r4, r4, r5\n"
                               "        fadd    r6, r6, r7\n"
                               "        fadd    r4, r4, r6\n"
                               "        st.f32  [out + r0*4], r4\n"
                               "        exit\n"
                               ".host\n"
                               "        launch paths grid=n/256\n";
    size_t cap = sizeof head + sizeof tail + 80 * 64;
    char *text = malloc(cap);
    assert_non_null(text);
    size_t len = (size_t)snprintf(text, cap, "%s", head);
    for (int i = 0; i < 72; i++) {
        if (i == 64) len += (size_t)snprintf(text + len, cap - len, "light:\n");
        len += (size_t)snprintf(text + len, cap - len, "        ffma    r%d, r%d, 0.999, 0.5\n",
                                4 + i % 4, 4 + i % 4);
    }
    snprintf(text + len, cap - len, "%s", tail);
    return text;
}

/* --------------------------------------------------- gto: greedy-then-oldest ---- */

/* CCWS section 5.1: GTO keeps the working set of few warps in the L1D; LRR thrashes it. */
static void test_gto_misses_less_than_lrr_on_kmeans(void **state)
{
    (void)state;
    const char *gto[] = {"gpu.sms=2", "sched.policy=gto", NULL};
    const char *lrr[] = {"gpu.sms=2", "sched.policy=lrr", NULL};
    sim_metrics g, l;
    test_sim_ok("kmeans", gto, NULL, &g);
    test_sim_ok("kmeans", lrr, NULL, &l);
    assert_double_less(g.mpki, l.mpki);
    assert_double_less(l.ipc, g.ipc);
}

/* ------------------------------------------------- swl: static warp limiting ---- */

/* CCWS 5.1 Best-SWL: the best static limit beats GTO's IPC on kmeans (Table 3: KMN's best is
 * a handful of warps). */
static void test_best_swl_beats_gto(void **state)
{
    (void)state;
    sim_metrics gto, m;
    run("kmeans", kmeans_small, "gto", NULL, &gto);
    const char *limits[] = {"swl.limit=1", "swl.limit=2", "swl.limit=4", "swl.limit=8",
                            "swl.limit=16"};
    double best = 0;
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++) {
        run("kmeans", kmeans_small, "swl", limits[i], &m);
        print_message("  %s: IPC %.3f, MPKI %.1f\n", limits[i], m.ipc, m.mpki);
        if (m.ipc > best) best = m.ipc;
    }
    /* 16 warps of 16: no limit at all, GTO itself */
    assert_double_in_range(m.ipc, 0.99 * gto.ipc, 1.01 * gto.ipc);
    print_message("kmeans IPC: gto %.3f, best SWL %.3f\n", gto.ipc, best);
    assert_double_less(1.2 * gto.ipc, best);
}

/* -------------------------------- ccws: cache-conscious wavefront scheduling ---- */

/* CCWS 5.1 / Fig. 8: CCWS misses far less than GTO on the highly cache-sensitive kernel, and
 * throttles harder, missing less, as K_THROTTLE grows (3.3.5). */
static void test_ccws_lowers_mpki(void **state)
{
    (void)state;
    sim_metrics gto, m;
    run("kmeans", kmeans_small, "gto", NULL, &gto);
    run("kmeans", kmeans_small, "ccws", NULL, &m);
    print_message("kmeans MPKI: gto %.1f, ccws %.1f (%.0f VTA hits)\n", gto.mpki, m.mpki,
                  metric_get(&m, "vta_hits"));
    assert_double_less(0, metric_get(&m, "vta_hits"));
    assert_double_less(m.mpki, 0.5 * gto.mpki);
    assert_double_less(gto.ipc, m.ipc);

    const char *k[] = {"ccws.k_throttle=1", "ccws.k_throttle=2",  "ccws.k_throttle=4",
                       "ccws.k_throttle=8", "ccws.k_throttle=16", "ccws.k_throttle=32"};
    double prev = 0;
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        run("kmeans", kmeans_small, "ccws", k[i], &m);
        print_message("  %s: MPKI %.1f, IPC %.3f\n", k[i], m.mpki, m.ipc);
        if (i > 0) assert_double_less(m.mpki, prev);
        assert_double_less(m.mpki, gto.mpki);
        prev = m.mpki;
    }
}

/* ------------------------------------------- caws: criticality-aware, oracle ---- */

/* CAWS gets its oracle from a profiling pass that sim_run makes itself; a caller may hand one
 * over instead, and the result is the same run. */
static void test_caws_profiling_pass(void **state)
{
    (void)state;
    char *wl = paths_kernel();
    sim_metrics lrr, caws;
    run(wl, NULL, "lrr", NULL, &lrr);
    run(wl, NULL, "caws", NULL, &caws);
    print_message("disparity: lrr %.3f, caws %.3f; criticality inversions %.3f\n",
                  lrr.warp_disparity_mean, caws.warp_disparity_mean, caws.criticality_inversions);
    assert_double_less(caws.warp_disparity_mean, lrr.warp_disparity_mean);
    assert_double_in_range(caws.criticality_inversions, 0, 1);

    /* by hand: record a profile under LRR, then run CAWS with it */
    param_set *p = param_set_new();
    char err[1024];
    workload *w = NULL;
    assert_int_equal(preset_apply(p, TEST_PRESET, err, sizeof err), 0);
    assert_int_equal(param_set_parse(p, "gpu.sms", "1", err, sizeof err), 0);
    assert_int_equal(param_set_parse(p, "sched.policy", "lrr", err, sizeof err), 0);
    assert_int_equal(workload_parse(wl, "paths.wl", NULL, NULL, 0, &w, err, sizeof err), 0);
    warp_profile *prof = warp_profile_new();
    sim_options opt;
    memset(&opt, 0, sizeof opt);
    opt.warp_profile_out = prof;
    sim_metrics m;
    assert_int_equal(sim_run(p, w, &opt, &m, err, sizeof err), SIM_OK);
    assert_int_equal((int)warp_profile_count(prof), (int)m.ctas * 8);
    assert_double_near(m.cycles, lrr.cycles, 0);
    assert_int_equal(param_set_parse(p, "sched.policy", "caws", err, sizeof err), 0);
    memset(&opt, 0, sizeof opt);
    opt.warp_profile = prof;
    assert_int_equal(sim_run(p, w, &opt, &m, err, sizeof err), SIM_OK);
    assert_double_near(m.cycles, caws.cycles, 0);
    assert_double_near(m.warp_disparity_mean, caws.warp_disparity_mean, 0);
    warp_profile_free(prof);
    workload_free(w);
    param_set_free(p);
    free(wl);
}

/* ------------------------------------------- gcaws: greedy criticality-aware ---- */

/* CAWA 3.2 / Fig. 1: gCAWS accelerates the warps CPL sees falling behind, so the warps of a
 * CTA finish closer together than under round-robin. */
static void test_gcaws_lowers_disparity(void **state)
{
    (void)state;
    char *wl = paths_kernel();
    sim_metrics lrr, g;
    run(wl, NULL, "lrr", NULL, &lrr);
    run(wl, NULL, "gcaws", NULL, &g);
    print_message("per-CTA warp disparity: lrr mean %.3f max %.3f, gcaws mean %.3f max %.3f; "
                  "CPL accuracy under gcaws %.2f\n",
                  lrr.warp_disparity_mean, lrr.warp_disparity_max, g.warp_disparity_mean,
                  g.warp_disparity_max, g.cpl_accuracy);
    assert_double_less(g.warp_disparity_mean, lrr.warp_disparity_mean - 0.05);
    assert_double_less(0, g.cpl_samples);
    free(wl);
}

/* --------------------------------------- two_level_active: GPGPU-Sim's pools ---- */

/* two_level_active.long_op: one warp among 8 slots, a pool of 1. A global load writes r1, then
 * 8 instructions read it. With the marked reading the mark outlives the load, so each reader
 * finds the warp waiting whenever it sits in the pool: it issues only in a cycle it is promoted,
 * once per turn of the 8 slots through the pool, 8 cycles a reader instead of 1. An ALU write
 * of r1 unmarks it as it writes back; a shared load's write, through the load/store unit, does
 * not. */
static double marked_run(const char *overwrite, const char *reading)
{
    char wl[1024];
    snprintf(wl, sizeof wl,
             ".array a i32 [32] zero\n"
             ".kernel k block=32 shared=128\n"
             "    mov r0, %%laneid\n"
             "    shl r9, r0, 2\n"
             "    ld.i32 r1, [a + r9]\n"
             "    %s\n"
             "    add r2, r1, 1\n    add r3, r1, 2\n    add r4, r1, 3\n    add r5, r1, 4\n"
             "    add r6, r1, 5\n    add r7, r1, 6\n    add r8, r1, 7\n    add r10, r1, 8\n"
             "    exit\n"
             ".host\n"
             "    launch k grid=1\n",
             overwrite);
    char rd[64];
    snprintf(rd, sizeof rd, "two_level_active.long_op=%s", reading);
    const char *sets[] = {"gpu.sms=1",
                          "sm.schedulers=1",
                          "sm.max_warps=8",
                          "sm.simd_width=32",
                          "sched.policy=two_level_active",
                          "two_level_active.warps=1",
                          rd,
                          NULL};
    sim_metrics m;
    test_sim_ok(wl, sets, NULL, &m);
    assert_int_equal((int)m.warp_insts, 13);
    return m.cycles;
}

static void test_two_level_active_marked_registers(void **state)
{
    (void)state;
    /* the readers: 7 of the 8 take a whole turn (8 cycles) more, the first one up to one */
    double gap = marked_run("mov r11, 0", "marked") - marked_run("mov r11, 0", "inflight");
    assert_double_in_range(gap, 7 * 7, 8 * 7 + 7);
    /* an ALU write of r1 after the load unmarks it as it writes back: until then the first
     * reader waits marked (at most one turn more), then the readers run unmarked */
    double alu = marked_run("mov r1, 9", "marked") - marked_run("mov r1, 9", "inflight");
    assert_double_in_range(alu, 0, 8);
    /* a shared load's write leaves the mark */
    double shared = marked_run("ld.shared.i32 r1, [r9]", "marked") -
                    marked_run("ld.shared.i32 r1, [r9]", "inflight");
    assert_double_in_range(shared, 7 * 7, 8 * 7 + 7);
}

/* ----------------------------------------------------------- every scheduler ---- */

/* Scheduling hardly matters when the functional units are the bottleneck: every scheduler of
 * issue 4 keeps within 3% of GTO's IPC on Black-Scholes. What remains is the CTA boundary:
 * schedulers that keep a CTA's warps abreast (gCAWS, and LRR) finish its CTAs together and
 * leave the SM emptier while the next ones start, a cost that shrinks with the number of CTA
 * waves: gCAWS is 3.1% below GTO with 64 CTAs and 2.3% with the 128 used here (LRR: 4.2%
 * and 4.9%). */
static void test_compute_bound_within_3pct(void **state)
{
    (void)state;
    static const char *const bs[] = {"nopt=65536", NULL};
    sim_metrics gto, m;
    run("blackscholes", bs, "gto", NULL, &gto);
    assert_double_less(0.4, gto.stall_struct); /* busy units: compute-bound */
    const char *policies[] = {"two_level", "swl", "ccws", "caws", "gcaws"};
    for (size_t i = 0; i < sizeof policies / sizeof policies[0]; i++) {
        run("blackscholes", bs, policies[i], NULL, &m);
        print_message("  %s: IPC %.3f (gto %.3f, %+.1f%%)\n", policies[i], m.ipc, gto.ipc,
                      100 * (m.ipc / gto.ipc - 1));
        assert_double_in_range(m.ipc, 0.97 * gto.ipc, 1.03 * gto.ipc);
    }
}

/* The per-SM output of a run: the number of SM rows after the header, and the sums of their
 * warp_insts and ctas columns (the header is checked). */
static int per_sm_rows(FILE *f, double *warp_insts, double *ctas)
{
    char line[1024];
    rewind(f);
    assert_non_null(fgets(line, sizeof line, f));
    assert_string_prefix(line, "sm,cycles,warp_insts,thread_insts,");
    int rows = 0;
    *warp_insts = *ctas = 0;
    while (fgets(line, sizeof line, f)) {
        /* sm,cycles,warp_insts,...: the third column; ctas is the last */
        char *c = strchr(line, ',');
        assert_non_null(c);
        c = strchr(c + 1, ',');
        assert_non_null(c);
        *warp_insts += strtod(c + 1, NULL);
        char *last = strrchr(line, ',');
        assert_non_null(last);
        *ctas += strtod(last + 1, NULL);
        rows++;
    }
    return rows;
}

/* Is metric `name` declared by scheduler o? */
static bool declares(const sched_ops *o, const char *name)
{
    for (size_t k = 0; k < o->nmetrics; k++)
        if (strcmp(o->metrics[k].name, name) == 0) return true;
    return false;
}

/* Every registered scheduler runs a small kmeans (one CTA of 8 warps, on the first of two SMs
 * with two schedulers each) to completion, with the results the workload fixes: kmeans's
 * program and data do not depend on the order its warps issue in, so every scheduler runs the
 * same CTAs, warp and thread instructions, global loads and L1D accesses (one per line a load
 * touches), and writes one row per SM in the per-SM output, summing to the same totals; every
 * metric of the catalogue has a value. What is the scheduler's own moves: the metrics it
 * declares are in the catalogue, those only other schedulers declare stay 0, CCWS's victim tag
 * arrays find lost locality on this cache-sensitive kernel, and the schedulers do not all take
 * the same number of cycles. */
static void test_every_policy_runs(void **state)
{
    (void)state;
    wl_override tiny[] = {{"npoints", "256"}, {"nclusters", "2"}};
    char err[1024] = "";
    workload *w = NULL;
    if (workload_load("kmeans", tiny, 2, &w, err, sizeof err) != 0) fail_msg("%s", err);
    sim_metrics first;
    double cycles[64];
    size_t n = 0;
    for (; sched_policies[n]; n++) {
        const sched_ops *o = sched_policies[n];
        assert_in_range(n, 0, 63);
        char pol[64];
        snprintf(pol, sizeof pol, "sched.policy=%s", o->name);
        const char *sets[] = {"gpu.sms=2", "sm.schedulers=2", pol, NULL};
        param_set *p = param_set_new();
        if (test_apply_sets(p, TEST_PRESET, sets, err, sizeof err) != 0) fail_msg("%s", err);
        FILE *per_sm = tmpfile();
        assert_non_null(per_sm);
        sim_options opt = {0};
        opt.per_sm = per_sm;
        sim_metrics m;
        sim_status st = sim_run(p, w, &opt, &m, err, sizeof err);
        if (st != SIM_OK) fail_msg("%s: status %d: %s", o->name, (int)st, err);
        param_set_free(p);
        print_message("%-17s %8.0f cycles, %.0f warp instructions\n", o->name, m.cycles,
                      m.warp_insts);
        double sm_insts, sm_ctas;
        assert_int_equal(per_sm_rows(per_sm, &sm_insts, &sm_ctas), 2);
        fclose(per_sm);
        assert_double_near(sm_insts, m.warp_insts, 0);
        assert_double_near(sm_ctas, m.ctas, 0);
        for (size_t i = 0; i < metric_count(); i++)
            if (!isfinite(metric_value(&m, i)))
                fail_msg("%s: metric %s is %g", o->name, metric_at(i).name, metric_value(&m, i));
        if (n == 0) {
            first = m;
            assert_double_near(m.ctas, 1, 0);
            assert_double_less(0, m.warp_insts);
            assert_double_less(0, m.l1d_accesses);
        }
        assert_double_near(m.kernels, first.kernels, 0);
        assert_double_near(m.ctas, first.ctas, 0);
        assert_double_near(m.warp_insts, first.warp_insts, 0);
        assert_double_near(m.thread_insts, first.thread_insts, 0);
        assert_double_near(m.global_loads, first.global_loads, 0);
        assert_double_near(m.l1d_accesses, first.l1d_accesses, 0);
        /* the scheduler's own metrics are reported; another scheduler's count nothing here */
        for (size_t k = 0; k < o->nmetrics; k++)
            if (metric_lookup(o->metrics[k].name) < 0)
                fail_msg("%s: its metric %s is not reported", o->name, o->metrics[k].name);
        for (size_t j = 0; sched_policies[j]; j++)
            for (size_t k = 0; k < sched_policies[j]->nmetrics; k++) {
                const char *name = sched_policies[j]->metrics[k].name;
                if (!declares(o, name) && metric_get(&m, name) != 0)
                    fail_msg("%s: %s's metric %s is %g", o->name, sched_policies[j]->name, name,
                             metric_get(&m, name));
            }
        if (strcmp(o->name, "ccws") == 0) assert_double_less(0, metric_get(&m, "vta_hits"));
        cycles[n] = m.cycles;
    }
    /* every scheduler ran, and the choice reached the simulator */
    assert_in_range(n, 8, 64); /* today's eight, two_level_active among them */
    size_t distinct = 0;
    for (size_t i = 0; i < n; i++) {
        size_t j = 0;
        while (j < i && cycles[j] != cycles[i])
            j++;
        distinct += j == i;
    }
    if (distinct < 2) fail_msg("all %zu schedulers took %.0f cycles", n, cycles[0]);
    workload_free(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gto_misses_less_than_lrr_on_kmeans),
        cmocka_unit_test(test_best_swl_beats_gto),
        cmocka_unit_test(test_ccws_lowers_mpki),
        cmocka_unit_test(test_caws_profiling_pass),
        cmocka_unit_test(test_gcaws_lowers_disparity),
        cmocka_unit_test(test_two_level_active_marked_registers),
        cmocka_unit_test(test_compute_bound_within_3pct),
        cmocka_unit_test(test_every_policy_runs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
