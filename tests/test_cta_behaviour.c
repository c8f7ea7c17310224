/* The CTA schedulers through the core (DYNCTA, Kayiran et al., PACT 2013, against max_tlp and
 * the static limit): the pausing order (newest first), the unpausing order (the last paused
 * resumes first, before any new CTA), the n time series, the behaviour DYNCTA section III/V
 * reports on a Type-M and a Type-C built-in workload, DYNCTA under every warp scheduler and L1D
 * policy. Every simulation is small (one or two SMs). The policies' own unit tests are in
 * test_cta_policies.c; how the GPU dispatches CTAs to SMs, in test_sim.c. */
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
#include "core/config/params.h"
#include "core/policy.h"
#include "core/config/preset.h"
#include "policies/registry.h"
#include "tests/support/support.h"

/* ------------------------------- dyncta: the pausing order, through the core ---- */

/* Eight CTAs of eight warps; every iteration each warp loads its CTA's own line, so the L1D
 * observer shows which CTA issues when. */
static const char pause_wl[] = ".array out i32 [8*32] zero\n"
                               ".kernel k block=256\n"
                               "        mov     r1, %ctaid\n"
                               "        shl     r2, r1, 7\n"
                               "        mov     r0, 0\n"
                               "loop:   ld.i32  r5, [out + r2]\n"
                               "        add     r0, r0, 1\n"
                               "        mov     r6, 1\n"
                               "        mov     r7, 2\n"
                               "        mov     r8, 3\n"
                               "        mov     r9, 4\n"
                               "        setp.lt p0, r0, 100\n"
                               "        mov     r10, 5\n"
                               "    @p0 bra     loop\n"
                               "        exit\n"
                               ".host\n"
                               "        launch k grid=8\n";

/* Share of the accesses in cycles [from, to] made by the CTAs in mask. */
static double share(const test_load_log *log, const int *who, uint64_t from, uint64_t to,
                    unsigned mask)
{
    int mine = 0, all = 0;
    for (int i = 0; i < log->n; i++) {
        if (log->a[i].cycle < from || log->a[i].cycle > to) continue;
        all++;
        mine += (mask >> who[i]) & 1;
    }
    if (all == 0)
        fail_msg("no access in cycles %llu..%llu", (unsigned long long)from,
                 (unsigned long long)to);
    return (double)mine / all;
}

/* DYNCTA started at N = 4 and forced to lower n every period (1024 cycles): n goes 4, 3, 2, 1
 * while the four first CTAs are resident, so CTAs 3, 2 and 1 are paused in that order. CTA 0
 * then runs alone; as soon as it finishes, CTA 1 (paused last) resumes, not at the next
 * sample; then 2, then 3; no new CTA is issued while a paused one is left. */
static void test_pausing_order_through_core(void **state)
{
    (void)state;
    const char *sets[] = {"gpu.sms=1",
                          "sm.max_ctas=4",
                          "sm.schedulers=1",
                          "sched.policy=lrr",
                          "cta.policy=dyncta",
                          "dyncta.start=max",
                          "dyncta.period=1024",
                          "dyncta.t_idle=16777216",
                          "dyncta.t_mem_l=0",
                          "dyncta.t_mem_h=0",
                          NULL};
    test_load_log *log = calloc(1, sizeof *log);
    assert_non_null(log);
    FILE *trace = tmpfile();
    assert_non_null(trace);
    sim_options opt = {0};
    opt.l1_observer = test_log_loads;
    opt.l1_observer_arg = log;
    opt.cta_trace = trace;
    sim_metrics m;
    test_sim_opt_ok(pause_wl, sets, &opt, &m);
    assert_int_equal((int)m.ctas, 8);

    /* the n series: 4 at the start, one less every period down to 1 */
    rewind(trace);
    int sm, n, n_max, ctas, rows = 0;
    unsigned long long cycle;
    unsigned c_idle, c_mem;
    while (fscanf(trace, "%d,%llu,%d,%d,%d,%u,%u\n", &sm, &cycle, &n, &n_max, &ctas, &c_idle,
                  &c_mem) == 7) {
        assert_int_equal(sm, 0);
        assert_int_equal(n_max, 4);
        assert_int_equal(cycle, 1024ull * (unsigned)rows);
        int want = rows < 3 ? 4 - rows : 1;
        if (n != want) fail_msg("row %d (cycle %llu): n %d, expected %d", rows, cycle, n, want);
        if (rows >= 1 && rows <= 3) assert_int_equal(ctas, 4); /* all four stay resident */
        rows++;
    }
    fclose(trace);
    if (rows <= 10) fail_msg("%d rows of the n series, expected over 10", rows);
    assert_double_less(1.0, m.cta_n_avg);
    assert_double_less(m.cta_n_avg, 1.5);

    /* CTA of each access: the lines, in address order, are CTAs 0..7 */
    uint64_t lines[8];
    int nlines = 0;
    for (int i = 0; i < log->n; i++) {
        int k = 0;
        while (k < nlines && lines[k] != log->a[i].line)
            k++;
        if (k == nlines) {
            assert_in_range(nlines, 0, 7);
            lines[nlines++] = log->a[i].line;
        }
    }
    assert_int_equal(nlines, 8);
    for (int i = 0; i < 8; i++)
        for (int j = i + 1; j < 8; j++)
            if (lines[j] < lines[i]) {
                uint64_t t = lines[i];
                lines[i] = lines[j];
                lines[j] = t;
            }
    uint64_t first[8], last[8];
    for (int c = 0; c < 8; c++)
        first[c] = UINT64_MAX, last[c] = 0;
    int *who = calloc((size_t)log->n, sizeof *who);
    assert_non_null(who);
    for (int i = 0; i < log->n; i++) {
        int c = 0;
        while (lines[c] != log->a[i].line)
            c++;
        who[i] = c;
        if (log->a[i].cycle < first[c]) first[c] = log->a[i].cycle;
        if (log->a[i].cycle > last[c]) last[c] = log->a[i].cycle;
    }
    /* the first four start together; each later one only after the previous finished */
    for (int c = 0; c < 4; c++)
        assert_in_range(first[c], 0, 255);
    for (int c = 0; c < 7; c++)
        if (last[c] >= last[c + 1]) fail_msg("CTA %d finished after CTA %d", c, c + 1);
    for (int c = 4; c < 8; c++)
        if (first[c] <= last[c - 1])
            fail_msg("CTA %d started at %llu, before CTA %d finished at %llu", c,
                     (unsigned long long)first[c], c - 1, (unsigned long long)last[c - 1]);
    /* who issues (a paused CTA's warp issues only when no running warp is ready, so allow a
     * few): the newest are paused first... */
    assert_double_less(share(log, who, 1024 + 64, 2048, 1u << 3), 0.1);
    assert_double_less(share(log, who, 2048 + 64, 3072, 1u << 2 | 1u << 3), 0.1);
    assert_double_less(0.9, share(log, who, 3072 + 64, last[0], 1u << 0));
    /* ...and the last paused resumes first, at once */
    for (int c = 1; c < 4; c++) {
        double first_part = share(log, who, last[c - 1] + 1, last[c - 1] + 256, 1u << c);
        double all = share(log, who, last[c - 1] + 1, last[c], 1u << c);
        if (first_part < 0.9 || all < 0.9)
            fail_msg("after CTA %d finished at %llu, CTA %d made %.0f%% of the accesses in 256 "
                     "cycles, %.0f%% until it finished",
                     c - 1, (unsigned long long)last[c - 1], c, 100 * first_part, 100 * all);
    }
    free(who);
    free(log);
}

/* --------------------------------------------- dyncta: on built-in workloads ---- */

static double ipc_of(const char *wl, const char *const *wparams, const char *const *base,
                     const char *policy, int n, sim_metrics *out)
{
    const char *sets[16];
    char pol[64], lim[64];
    size_t k = 0;
    for (; base[k]; k++)
        sets[k] = base[k];
    snprintf(pol, sizeof pol, "cta.policy=%s", policy);
    sets[k++] = pol;
    if (n > 0) {
        snprintf(lim, sizeof lim, "static_limit.n=%d", n);
        sets[k++] = lim;
    }
    sets[k] = NULL;
    char err[1024] = "";
    sim_metrics m;
    if (test_sim(wl, sets, wparams, &m, err, sizeof err) != SIM_OK)
        fail_msg("%s under %s: %s", wl, policy, err);
    if (out) *out = m;
    return m.ipc;
}

typedef struct sweep {
    int n_max;       /* N, as max_tlp's average limit */
    double base_ipc; /* max_tlp */
    double ipc[33];  /* static_limit.n = 1..N */
    int best;        /* the n of the highest IPC (the smallest on a tie) */
} sweep;

static void sweep_static(const char *wl, const char *const *wparams, const char *const *base,
                         sweep *s)
{
    sim_metrics m;
    s->base_ipc = ipc_of(wl, wparams, base, "max_tlp", 0, &m);
    s->n_max = (int)(m.cta_n_avg + 0.5);
    assert_double_near(m.cta_n_avg, s->n_max, 0);
    assert_in_range(s->n_max, 2, 32);
    s->best = 1;
    for (int n = 1; n <= s->n_max; n++) {
        s->ipc[n] = ipc_of(wl, wparams, base, "static_limit", n, &m);
        assert_double_near(m.cta_n_avg, n, 0);
        if (s->ipc[n] > s->ipc[s->best]) s->best = n;
        print_message("%s static_limit.n=%d ipc %.4f\n", wl, n, s->ipc[n]);
    }
    print_message("%s max_tlp (N=%d) ipc %.4f; best static n=%d\n", wl, s->n_max, s->base_ipc,
                  s->best);
}

/* kmeans (Type-M, RACT well below 66%): less TLP thrashes the L1D less. The best static limit
 * lies below N and beats the default; DYNCTA gets within 10% of it with 1 <= avg n <= N. */
static void test_type_m_workload(void **state)
{
    (void)state;
    const char *wp[] = {"npoints=3072", "nclusters=2", NULL};
    const char *base[] = {"gpu.sms=2", NULL};
    sweep s;
    sweep_static("kmeans", wp, base, &s);
    sim_metrics m;
    ipc_of("kmeans", wp, base, "max_tlp", 0, &m);
    assert_double_less(m.ract, 0.66);
    assert_in_range(s.best, 1, s.n_max - 1);
    assert_double_less(s.base_ipc, s.ipc[s.best]);
    double dyn = ipc_of("kmeans", wp, base, "dyncta", 0, &m);
    print_message("kmeans dyncta ipc %.4f (%.1f%% of best static), avg n %.3f\n", dyn,
                  100.0 * dyn / s.ipc[s.best], m.cta_n_avg);
    assert_double_in_range(dyn, 0.9 * s.ipc[s.best], INFINITY);
    assert_double_in_range(m.cta_n_avg, 1.0, s.n_max);
}

/* matmul (Type-C) with enough CTAs that the tail does not dominate: the best static limit is
 * N. (With 16 CTAs on one SM the tail imbalance of DYNCTA III-C makes n = N-1 tie N.) */
static void test_type_c_workload(void **state)
{
    (void)state;
    const char *wp[] = {"n=96", NULL};
    const char *base[] = {"gpu.sms=2", NULL};
    sweep s;
    sweep_static("matmul", wp, base, &s);
    sim_metrics m;
    ipc_of("matmul", wp, base, "max_tlp", 0, &m);
    assert_double_less(0.66, m.ract);
    assert_int_equal(s.best, s.n_max);
    double dyn = ipc_of("matmul", wp, base, "dyncta", 0, &m);
    print_message("matmul dyncta ipc %.4f (%.1f%% of best static), avg n %.3f\n", dyn,
                  100.0 * dyn / s.ipc[s.best], m.cta_n_avg);
    assert_double_less(s.n_max / 2, m.cta_n_avg);
    assert_double_in_range(m.cta_n_avg, s.n_max / 2, s.n_max);
}

/* DYNCTA runs under every warp scheduler and every L1D policy of the registry. */
static void test_dyncta_with_every_policy(void **state)
{
    (void)state;
    const char *wp[] = {"npoints=2048", "nclusters=1", "nfeatures=8", NULL};
    /* every L1D policy and alias (DaCache's variants) */
    size_t l1d_policy = (size_t)param_lookup("l1d.policy");
    const char *l1;
    for (size_t i = 0; sched_policy_names[i]; i++) {
        for (size_t j = 0; (l1 = param_choice_name(&sim_catalog, l1d_policy, j)); j++) {
            char s1[64], s2[64];
            snprintf(s1, sizeof s1, "sched.policy=%s", sched_policy_names[i]);
            snprintf(s2, sizeof s2, "l1d.policy=%s", l1);
            const char *sets[] = {"gpu.sms=1", "cta.policy=dyncta", "dyncta.period=256", s1, s2,
                                  NULL};
            char err[1024] = "";
            sim_metrics m;
            if (test_sim("kmeans", sets, wp, &m, err, sizeof err) != SIM_OK)
                fail_msg("dyncta with %s and %s: %s", sched_policy_names[i], l1, err);
            assert_int_equal((int)m.ctas, 8);
            assert_double_less(0, m.ipc);
            if (!(m.cta_n_avg >= 1.0 && m.cta_n_avg <= 6.0))
                fail_msg("dyncta with %s and %s: avg n %g", sched_policy_names[i], l1, m.cta_n_avg);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pausing_order_through_core),
        cmocka_unit_test(test_type_m_workload),
        cmocka_unit_test(test_type_c_workload),
        cmocka_unit_test(test_dyncta_with_every_policy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
