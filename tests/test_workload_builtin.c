/* Built-in workloads: each parses, runs to completion when driven round-robin over warps,
 * deterministically, and computes the right answer where a C reference can check it. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/workload/wl_inspect.h"
#include "core/workload/workload.h"
#include "tests/support/support.h"

#define NSM    2
#define NWARPS 24
#define NCTAS  3

typedef struct rr_stats {
    long launches, warp_insts, thread_insts;
} rr_stats;

/* A round-robin driver with barriers: CTAs fill free slots, every live warp not waiting at
 * a barrier issues one instruction per round. */
static int run_rr(isource *s, rr_stats *st, char *err, size_t errlen)
{
    kernel_launch kl;
    int rc;
    memset(st, 0, sizeof *st);
    while ((rc = s->ops->next_kernel(s->self, &kl, err, errlen)) == 1) {
        st->launches++;
        int wpc = (int)((kl.block + 31) / 32);
        int slots = NWARPS / wpc < NCTAS ? NWARPS / wpc : NCTAS;
        if (slots < 1) return -1;
        int cta_live[NSM][NCTAS] = {{0}}, cta_wait[NSM][NCTAS] = {{0}};
        int alive[NSM][NWARPS] = {{0}}, waiting[NSM][NWARPS] = {{0}};
        uint32_t next = 0;
        long done = 0;
        while (done < (long)kl.grid) {
            for (int sm = 0; sm < NSM; sm++)
                for (int c = 0; c < slots && next < kl.grid; c++) {
                    if (cta_live[sm][c]) continue;
                    s->ops->cta_start(s->self, sm, c, next);
                    for (int w = 0; w < wpc; w++) {
                        s->ops->warp_start(s->self, sm, c * wpc + w, c, next, w);
                        alive[sm][c * wpc + w] = 1;
                        waiting[sm][c * wpc + w] = 0;
                    }
                    cta_live[sm][c] = wpc;
                    cta_wait[sm][c] = 0;
                    next++;
                }
            int progress = 0;
            for (int sm = 0; sm < NSM; sm++)
                for (int ws = 0; ws < slots * wpc; ws++) {
                    if (!alive[sm][ws] || waiting[sm][ws]) continue;
                    int c = ws / wpc;
                    const inst_info *ii = s->ops->peek(s->self, sm, ws);
                    inst_exec e;
                    if (ii) {
                        if (s->ops->issue(s->self, sm, ws, &e, err, errlen)) return -1;
                        st->warp_insts++;
                        st->thread_insts += __builtin_popcount(e.active_mask);
                        if (ii->cls == IC_BARRIER) {
                            waiting[sm][ws] = 1;
                            cta_wait[sm][c]++;
                        }
                    }
                    progress = 1;
                    if (!ii || e.warp_done) {
                        alive[sm][ws] = 0;
                        if (--cta_live[sm][c] == 0) done++;
                    }
                }
            for (int sm = 0; sm < NSM; sm++)
                for (int c = 0; c < slots; c++) {
                    if (!cta_live[sm][c] || cta_wait[sm][c] < cta_live[sm][c]) continue;
                    for (int w = 0; w < wpc; w++)
                        waiting[sm][c * wpc + w] = 0;
                    cta_wait[sm][c] = 0;
                    progress = 1;
                }
            if (!progress) {
                snprintf(err, errlen, "deadlock");
                return -1;
            }
        }
    }
    return rc;
}

typedef struct run {
    workload *w;
    isource s;
    rr_stats st;
} run;

static void start(run *r, const char *name, const wl_override *ov, size_t nov)
{
    char err[512];
    int rc = workload_load(name, ov, nov, &r->w, err, sizeof err);
    if (rc) fprintf(stderr, "%s\n", err);
    assert_int_equal(rc, 0);
    assert_int_equal(workload_instance(r->w, NSM, NWARPS, NCTAS, &r->s, err, sizeof err), 0);
    rc = run_rr(&r->s, &r->st, err, sizeof err);
    if (rc) fprintf(stderr, "%s\n", err);
    assert_int_equal(rc, 0);
}

static void stop(run *r)
{
    r->s.ops->destroy(r->s.self);
    workload_free(r->w);
}

static float fl(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static void test_list(void **state)
{
    (void)state;
    const char *want[] = {"bfs", "kmeans", "matmul", "stream"};
    for (size_t k = 0; k < 4; k++) {
        size_t i = 0;
        while (i < workload_builtin_count() && strcmp(workload_builtin_name(i), want[k]))
            i++;
        assert_true(i < workload_builtin_count());
        char buf[128];
        const char *sum = workload_builtin_summary(i, buf, sizeof buf);
        assert_true(strlen(sum) > 10);
        assert_string_prefix(sum, want[k]);
        assert_non_null(strstr(workload_builtin_text(i), ".host"));
    }
    workload *w;
    char err[256];
    assert_int_equal(workload_load("nosuch", NULL, 0, &w, err, sizeof err), -1);
    assert_non_null(strstr(err, "unknown workload 'nosuch'"));
    assert_non_null(strstr(err, "kmeans"));
    assert_int_equal(workload_load("no/such.wl", NULL, 0, &w, err, sizeof err), -1);
    assert_non_null(strstr(err, "no/such.wl"));
}

static void test_stream(void **state)
{
    (void)state;
    wl_override ov[] = {{"n", "1000"}, {"s", "0.5"}}; /* a partial last CTA */
    run r;
    start(&r, "workloads/stream.wl", ov, 2);
    uint32_t n;
    const uint32_t *a = wl_instance_array(&r.s, "a", &n), *b = wl_instance_array(&r.s, "b", NULL),
                   *c = wl_instance_array(&r.s, "c", NULL);
    assert_int_equal(n, 1000);
    for (uint32_t i = 0; i < n; i++)
        assert_double_near(fl(c[i]), fmaf(fl(b[i]), 0.5f, fl(a[i])), 0);
    assert_int_equal(r.st.launches, 1);
    assert_int_equal(r.st.thread_insts, 1000 * 8 + 24 * 3); /* 24 tail threads exit early */
    stop(&r);
}

static void test_kmeans(void **state)
{
    (void)state;
    run r;
    start(&r, "kmeans", NULL, 0);
    uint32_t np, nf = 34, nc = 5, cnt;
    const uint32_t *feat = wl_instance_array(&r.s, "features", &cnt);
    const uint32_t *cl = wl_instance_array(&r.s, "clusters", NULL);
    const uint32_t *mem = wl_instance_array(&r.s, "membership", &np);
    assert_int_equal(cnt, np * nf);
    int used[5] = {0};
    for (uint32_t p = 0; p < np; p++) {
        float best = 3.0e38f;
        uint32_t bi = 0;
        for (uint32_t c = 0; c < nc; c++) {
            float d = 0;
            for (uint32_t f = 0; f < nf; f++) {
                float t = fl(feat[p * nf + f]) - fl(cl[c * nf + f]);
                d = fmaf(t, t, d);
            }
            if (d < best) best = d, bi = c;
        }
        assert_int_equal(mem[p], bi);
        used[bi]++;
    }
    for (int c = 0; c < 5; c++)
        assert_true(used[c] > 0);
    assert_true(r.st.thread_insts > 100000 && r.st.thread_insts < 5000000);
    stop(&r);
}

static void test_matmul(void **state)
{
    (void)state;
    wl_override ov[] = {{"n", "48"}};
    run r;
    start(&r, "matmul", ov, 1);
    uint32_t nn;
    const uint32_t *A = wl_instance_array(&r.s, "A", &nn), *B = wl_instance_array(&r.s, "B", NULL),
                   *C = wl_instance_array(&r.s, "C", NULL);
    assert_int_equal(nn, 48 * 48);
    for (int i = 0; i < 48; i++)
        for (int j = 0; j < 48; j++) {
            float acc = 0;
            for (int k = 0; k < 48; k++)
                acc = fmaf(fl(A[i * 48 + k]), fl(B[k * 48 + j]), acc);
            assert_double_near(fl(C[i * 48 + j]), acc, 0);
        }
    stop(&r);
    start(&r, "matmul", NULL, 0); /* the default size runs too */
    assert_true(r.st.thread_insts > 100000 && r.st.thread_insts < 5000000);
    stop(&r);
}

static void test_bfs(void **state)
{
    (void)state;
    run r;
    start(&r, "bfs", NULL, 0);
    uint32_t n, m;
    const uint32_t *rp = wl_instance_array(&r.s, "g_rowptr", &n);
    const uint32_t *col = wl_instance_array(&r.s, "g_col", &m);
    const uint32_t *cost = wl_instance_array(&r.s, "cost", NULL);
    n--;
    assert_int_equal(n, 32768);
    assert_int_equal(m, 262144);
    int32_t *lev = malloc(n * sizeof *lev);
    uint32_t *q = malloc(n * sizeof *q);
    for (uint32_t v = 0; v < n; v++)
        lev[v] = -1;
    uint32_t h = 0, t = 0;
    lev[0] = 0;
    q[t++] = 0;
    int32_t maxlev = 0;
    while (h < t) {
        uint32_t v = q[h++];
        for (uint32_t e = rp[v]; e < rp[v + 1]; e++)
            if (lev[col[e]] < 0) {
                lev[col[e]] = lev[v] + 1;
                maxlev = lev[v] + 1;
                q[t++] = col[e];
            }
    }
    for (uint32_t v = 0; v < n; v++)
        assert_int_equal((int32_t)cost[v], lev[v]);
    assert_true(t > n / 4); /* the source reaches a good part of the graph */
    /* one pair of launches per level, plus the last one that finds nothing new */
    assert_int_equal(r.st.launches, 2 * (maxlev + 1));
    free(lev);
    free(q);
    stop(&r);
}

static void test_deterministic(void **state)
{
    (void)state;
    const char *names[] = {"stream", "kmeans", "bfs", "matmul"};
    for (int i = 0; i < 4; i++) {
        run x, y;
        start(&x, names[i], NULL, 0);
        start(&y, names[i], NULL, 0);
        assert_int_equal(x.st.thread_insts, y.st.thread_insts);
        const char *arr[] = {"c", "membership", "cost", "C"};
        uint32_t n;
        const uint32_t *a = wl_instance_array(&x.s, arr[i], &n);
        const uint32_t *b = wl_instance_array(&y.s, arr[i], NULL);
        assert_non_null(a);
        assert_memory_equal(a, b, n * 4);
        fprintf(stderr, "%-7s %ld launches, %ld warp / %ld thread instructions\n", names[i],
                x.st.launches, x.st.warp_insts, x.st.thread_insts);
        stop(&x);
        stop(&y);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_list),   cmocka_unit_test(test_stream),
        cmocka_unit_test(test_kmeans), cmocka_unit_test(test_matmul),
        cmocka_unit_test(test_bfs),    cmocka_unit_test(test_deterministic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
