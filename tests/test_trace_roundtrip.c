/* Every built-in workload exported as an Accel-Sim trace and read back gives the same
 * warp-instruction stream, cycles and L1D hits as running the workload directly. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "explorer/catalog.h"
#include "core/config/preset.h"
#include "explorer/simulate.h"
#include "core/analysis/trace_export.h"
#include "core/trace/trace.h"
#include "tests/support/support.h"

/* ---- a pass-through source that digests the instruction stream ---- */

typedef struct digest {
    isource_factory make;
    void *arg;
    isource inner;
    int max_warps;
    struct dslot {
        uint32_t cta, wic, seq;
    } * slots;
    uint32_t kernel;
    uint64_t sum, mix, n;
} digest;

static uint64_t h64(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    h *= 0xff51afd7ed558ccdull;
    return h ^ (h >> 33);
}

static int d_next_kernel(void *self, kernel_launch *k, char *err, size_t errlen)
{
    digest *D = self;
    D->kernel++;
    return D->inner.ops->next_kernel(D->inner.self, k, err, errlen);
}

static void d_cta_start(void *self, int sm, int slot, uint32_t cta)
{
    digest *D = self;
    D->inner.ops->cta_start(D->inner.self, sm, slot, cta);
}

static void d_warp_start(void *self, int sm, int ws, int cs, uint32_t cta, int wic)
{
    digest *D = self;
    D->inner.ops->warp_start(D->inner.self, sm, ws, cs, cta, wic);
    D->slots[(size_t)sm * (size_t)D->max_warps + (size_t)ws] =
        (struct dslot){cta, (uint32_t)wic, 0};
}

static const inst_info *d_peek(void *self, int sm, int ws)
{
    digest *D = self;
    return D->inner.ops->peek(D->inner.self, sm, ws);
}

static int d_issue(void *self, int sm, int ws, inst_exec *x, char *err, size_t errlen)
{
    digest *D = self;
    inst_info in = *D->inner.ops->peek(D->inner.self, sm, ws);
    int rc = D->inner.ops->issue(D->inner.self, sm, ws, x, err, errlen);
    if (rc) return rc;
    struct dslot *s = &D->slots[(size_t)sm * (size_t)D->max_warps + (size_t)ws];
    uint64_t h = h64(h64(h64(h64(0, D->kernel), s->cta), s->wic), s->seq++);
    h = h64(h, in.pc);
    h = h64(h, in.cls);
    h = h64(h, in.ndst);
    h = h64(h, in.nsrc);
    for (int i = 0; i < in.ndst; i++)
        h = h64(h, in.dst[i]);
    for (int i = 0; i < in.nsrc; i++)
        h = h64(h, in.src[i]);
    h = h64(h, x->active_mask);
    h = h64(h, x->warp_done);
    if (in.cls >= IC_LD_GLOBAL && in.cls <= IC_ATOMIC) {
        h = h64(h, x->access_size);
        for (uint32_t m = x->active_mask; m; m &= m - 1)
            h = h64(h, x->addr[__builtin_ctz(m)]);
    }
    if (in.cls == IC_BRANCH) {
        h = h64(h, x->taken_mask);
        h = h64(h, x->target_pc);
        h = h64(h, x->fallthru_pc);
        h = h64(h, x->reconv_pc);
        h = h64(h, x->diverged);
    }
    D->sum += h;
    D->mix ^= h * 0x2545f4914f6cdd1dull;
    D->n++;
    return 0;
}

static void d_destroy(void *self)
{
    digest *D = self;
    D->inner.ops->destroy(D->inner.self);
    free(D->slots);
    D->slots = NULL;
}

static const isource_ops digest_ops = {d_next_kernel, d_cta_start, d_warp_start, d_peek,
                                       d_issue,       d_destroy,   NULL,         NULL};

static int digest_factory(void *arg, int nsm, int mw, int mc, isource *out, char *err, size_t n)
{
    digest *D = arg;
    if (D->make(D->arg, nsm, mw, mc, &D->inner, err, n)) return -1;
    D->max_warps = mw;
    D->slots = calloc((size_t)nsm * (size_t)mw, sizeof *D->slots);
    out->ops = &digest_ops;
    out->self = D;
    return D->slots ? 0 : -1;
}

static int wl_factory(void *arg, int nsm, int mw, int mc, isource *out, char *err, size_t n)
{
    return workload_instance(arg, nsm, mw, mc, out, err, n);
}

/* ---- the round trip ---- */

static param_set *config(const char *const *sets)
{
    char err[1024];
    param_set *p = param_set_new();
    assert_non_null(p);
    if (test_apply_sets(p, TEST_PRESET, sets, err, sizeof err)) fail_msg("%s", err);
    return p;
}

static void rm_dir(const char *dir)
{
    char path[512];
    for (int i = 1; i < 100; i++) {
        snprintf(path, sizeof path, "%s/kernel-%d.traceg", dir, i);
        if (unlink(path) != 0) break;
    }
    snprintf(path, sizeof path, "%s/kernelslist.g", dir);
    unlink(path);
    rmdir(dir);
}

/* Runs workload `name` directly and through its exported trace (`label` names the trace's
 * folder) and checks that both give the same run; their metrics into *direct and *traced when
 * not NULL. */
static void round_trip_metrics(const char *name, const char *label, const char *const *sets,
                               const char *const *wparams, sim_metrics *direct, sim_metrics *traced)
{
    char err[4096];
    test_wparams wp;
    if (test_split_wparams(&wp, wparams, err, sizeof err)) fail_msg("%s", err);
    workload *w = NULL;
    if (workload_load(name, wp.ov, wp.n, &w, err, sizeof err)) fail_msg("%s", err);
    param_set *p = config(sets);

    digest d0 = {wl_factory, w, {0}, 0, NULL, 0, 0, 0, 0};
    sim_metrics m0, m1, m2;
    if (sim_run_source(p, digest_factory, &d0, NULL, &m0, err, sizeof err) != SIM_OK)
        fail_msg("%s: direct run: %s", name, err);

    char dir[256];
    snprintf(dir, sizeof dir, "/tmp/wt_trace_rt_%ld_%s", (long)getpid(), label);
    trace_export_stats st;
    if (trace_export(p, sim_run_source, w, dir, &st, &m1, err, sizeof err))
        fail_msg("%s: export: %s", name, err);
    /* the recorder does not change the run */
    assert_double_near(m1.cycles, m0.cycles, 0);
    assert_int_equal(st.warp_insts, d0.n);

    char list[300];
    snprintf(list, sizeof list, "%s/kernelslist.g", dir);
    trace_app *t = NULL;
    if (trace_open(list, &t, err, sizeof err)) fail_msg("%s: %s", name, err);
    digest d2 = {trace_isource_factory, t, {0}, 0, NULL, 0, 0, 0, 0};
    if (sim_run_source(p, digest_factory, &d2, NULL, &m2, err, sizeof err) != SIM_OK)
        fail_msg("%s: trace run: %s", name, err);
    if (m2.cycles != m0.cycles || m2.l1d_hits != m0.l1d_hits || d2.sum != d0.sum ||
        d2.mix != d0.mix)
        fail_msg("%s: direct %.0f cycles %.0f L1D hits %llu insts, trace %.0f cycles %.0f hits "
                 "%llu insts, streams %s",
                 name, m0.cycles, m0.l1d_hits, (unsigned long long)d0.n, m2.cycles, m2.l1d_hits,
                 (unsigned long long)d2.n,
                 d2.sum == d0.sum && d2.mix == d0.mix ? "equal" : "differ");
    assert_double_near(m2.warp_insts, m0.warp_insts, 0);
    assert_double_near(m2.thread_insts, m0.thread_insts, 0);
    assert_double_near(m2.l1d_misses, m0.l1d_misses, 0);
    assert_double_near(m2.kernels, m0.kernels, 0);
    trace_close(t);
    rm_dir(dir);
    param_set_free(p);
    workload_free(w);
    if (direct) *direct = m0;
    if (traced) *traced = m2;
}

static void round_trip(const char *name, const char *const *sets, const char *const *wparams)
{
    round_trip_metrics(name, name, sets, wparams, NULL, NULL);
}

/* Smaller inputs for the workloads whose defaults take long under the sanitizers. */
static const char *const *small_params(const char *name)
{
    static const struct {
        const char *name;
        const char *params[4];
    } SMALL[] = {
        {"2mm", {"n=64"}},
        {"atax", {"n=256"}},
        {"bicg", {"n=256"}},
        {"gesummv", {"n=256"}},
        {"mvt", {"n=256"}},
        {"syr2k", {"n=64", "m=64"}},
        {"syrk", {"n=64", "m=64"}},
        {"covariance", {"m=64", "n=64"}},
        {"hotspot", {"rows=64", "cols=64"}},
        {"srad", {"rows=64", "cols=64"}},
        {"needle", {"nb=8"}},
        {"pathfinder", {"cols=4096"}},
        {"backprop", {"nin=2048"}},
        {"memcached", {"nkeys=1024"}},
        {"spmv", {"rows=1024"}},
        {"branchpath", {"n=8192"}},
        {"conv2d", {"ni=128", "nj=128"}},
        {"conv3d", {"ni=32", "nj=32", "nk=32"}},
        {"fdtd2d", {"nx=64", "ny=64"}},
        {"iix", {"ndocs=2048"}},
        {"imbalance", {"nodes=2048"}},
        {"gc", {"nobj=4096"}},
        {"pvc", {"nrec=4096"}},
        {"bfs", {"nodes=4096", "edges=32768"}},
        {"streamcluster", {"npoints=4096"}},
        {"histogram", {"n=16384"}},
        {"transpose", {"n=128"}},
        {"transpose_tiled", {"n=128"}},
        {"reduction", {"n=16384"}},
        {"scatter", {"n=16384"}},
        {"lut", {"n=8192"}},
        {"escape", {"w=64", "h=64"}},
        {"strided", {"rows=128", "cols=256"}},
        {"rmw", {"n=8192"}},
        {"binning", {"n=16384"}},
        {"gather", {"n=16384", "tsize=65536"}},
    };
    for (size_t i = 0; i < sizeof SMALL / sizeof SMALL[0]; i++)
        if (!strcmp(SMALL[i].name, name)) return SMALL[i].params;
    return NULL;
}

static void test_every_builtin(void **state)
{
    (void)state;
    for (size_t i = 0; i < workload_builtin_count(); i++) {
        const char *name = workload_builtin_name(i);
        round_trip(name, NULL, small_params(name));
        if (getenv("WT_TEST_VERBOSE")) fprintf(stderr, "  %s ok\n", name);
    }
}

/* A scheduler that reads the branch events (CPL): the exported branch targets, reconvergence
 * points and masks must come back exactly. */
static void test_criticality_scheduler(void **state)
{
    (void)state;
    const char *sets[] = {"sched.policy=gcaws", NULL};
    round_trip("branchpath", sets, small_params("branchpath"));
    round_trip("bfs", sets, small_params("bfs"));
}

/* Shared accesses through the load/store unit and GPGPU-Sim's atomics read the per-lane
 * addresses: the exported shared and atomic addresses must come back exactly. */
static void test_ldst_paths(void **state)
{
    (void)state;
    const char *sets[] = {"sm.shared_path=ldst", "sm.atomic_path=serial", NULL};
    round_trip("matmul", sets, small_params("matmul"));
    round_trip("needle", sets, small_params("needle"));
    round_trip("pvc", sets, small_params("pvc"));
}

/* The L1D access pipeline (l1d.tag_pipeline) with banks: its bank of an access reads the
 * access's sectors, which the trace must give back exactly. */
static void test_l1d_tag_pipeline(void **state)
{
    (void)state;
    const char *sets[] = {"l1d.tag_pipeline=true", "l1d.banks=4", NULL};
    round_trip("kmeans", sets, small_params("kmeans"));
    round_trip("pvc", sets, small_params("pvc"));
}

/* Schedulers that watch each issue (on_issue) see the warp as it issued: the trace source
 * moves to the next instruction as one issues, and the view the policy gets must not. */
static void test_issue_watching_schedulers(void **state)
{
    (void)state;
    const char *swl[] = {"sched.policy=swl", "swl.limit=8", NULL};
    round_trip("iix", swl, small_params("iix"));
    const char *ccws[] = {"sched.policy=ccws", NULL};
    round_trip("kmeans", ccws, small_params("kmeans"));
}

/* Thread instructions count the lanes that executed each instruction, as GPGPU-Sim counts them:
 * a lane whose guard is false does not execute a guarded instruction, branches included. Per
 * warp: mov, and, two setp and the exit on 32 lanes, the guarded add on 8, the guarded branch
 * on the 20 that take it, the add after it on the 12 that do not: 200 lanes in 8 warp
 * instructions; two CTAs of two warps. */
#define WL_GUARDS                                                                                  \
    ".kernel k block=64\n"                                                                         \
    "        mov     r0, %tid\n"                                                                   \
    "        and     r1, r0, 31\n"                                                                 \
    "        setp.lt p0, r1, 8\n"                                                                  \
    "    @p0 add     r2, r1, 1\n"                                                                  \
    "        setp.lt p1, r1, 20\n"                                                                 \
    "    @p1 bra     done\n"                                                                       \
    "        add     r3, r1, 2\n"                                                                  \
    "done:   exit\n"                                                                               \
    ".host\n"                                                                                      \
    "        launch k grid=2\n"

static void test_guarded_lanes_do_not_count(void **state)
{
    (void)state;
    char path[256];
    snprintf(path, sizeof path, "/tmp/wt_guards_%ld.wl", (long)getpid());
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(WL_GUARDS, f);
    assert_int_equal(fclose(f), 0);
    sim_metrics direct, traced;
    round_trip_metrics(path, "guards", NULL, NULL, &direct, &traced);
    unlink(path);
    assert_double_near(direct.warp_insts, 4 * 8, 0);
    assert_double_near(direct.thread_insts, 4 * 200, 0);
    assert_double_near(traced.thread_insts, 4 * 200, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_builtin),
        cmocka_unit_test(test_criticality_scheduler),
        cmocka_unit_test(test_ldst_paths),
        cmocka_unit_test(test_l1d_tag_pipeline),
        cmocka_unit_test(test_issue_watching_schedulers),
        cmocka_unit_test(test_guarded_lanes_do_not_count),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
