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

/* The histogram counts every key once, in the bin of its (squared, with skew) key. */
static void test_histogram(void **state)
{
    (void)state;
    for (int skew = 0; skew < 2; skew++) {
        wl_override ov[] = {{"n", "5000"}, {"nbins", "100"}, {"skew", skew ? "1" : "0"}};
        run r;
        start(&r, "histogram", ov, 3);
        uint32_t n, nb;
        const uint32_t *keys = wl_instance_array(&r.s, "keys", &n);
        const uint32_t *hist = wl_instance_array(&r.s, "hist", &nb);
        assert_int_equal(n, 5000);
        assert_int_equal(nb, 100);
        uint32_t want[100] = {0};
        for (uint32_t i = 0; i < n; i++) {
            uint32_t k = keys[i], m = skew ? k : 65536;
            want[((k * m) >> 16) * 100 >> 16]++;
        }
        assert_memory_equal(hist, want, sizeof want);
        if (skew) assert_true(want[0] > 4 * want[99]); /* the low bins take most keys */
        stop(&r);
    }
}

/* Both transposes write the transpose, with and without padded tile rows. */
static void test_transpose(void **state)
{
    (void)state;
    const char *names[] = {"transpose", "transpose_tiled", "transpose_tiled"};
    for (int k = 0; k < 3; k++) {
        wl_override ov[] = {{"n", "96"}, {"pad", "1"}};
        run r;
        start(&r, names[k], ov, k == 2 ? 2 : 1);
        uint32_t nn;
        const uint32_t *in = wl_instance_array(&r.s, "idata", &nn);
        const uint32_t *out = wl_instance_array(&r.s, "odata", NULL);
        assert_int_equal(nn, 96 * 96);
        for (uint32_t y = 0; y < 96; y++)
            for (uint32_t x = 0; x < 96; x++)
                assert_int_equal(out[x * 96 + y], in[y * 96 + x]);
        stop(&r);
    }
}

/* reduce3's tree over one CTA of shared memory, in the kernel's order of additions. */
static float tree(float *sd, uint32_t block)
{
    for (uint32_t s = block / 2; s > 0; s >>= 1)
        for (uint32_t t = 0; t < s; t++)
            sd[t] += sd[t + s];
    return sd[0];
}

static void test_reduction(void **state)
{
    (void)state;
    wl_override ov[] = {{"n", "10000"}, {"block", "128"}}; /* a partial last CTA */
    run r;
    start(&r, "reduction", ov, 2);
    uint32_t n, np;
    const uint32_t *in = wl_instance_array(&r.s, "idata", &n);
    const uint32_t *part = wl_instance_array(&r.s, "part", &np);
    const uint32_t *res = wl_instance_array(&r.s, "result", NULL);
    assert_int_equal(np, (10000 + 255) / 256);
    float sd[128], want[40];
    for (uint32_t c = 0; c < np; c++) {
        for (uint32_t t = 0; t < 128; t++) {
            uint32_t i = c * 256 + t;
            sd[t] = i < n ? fl(in[i]) : 0.0f;
            if (i + 128 < n) sd[t] += fl(in[i + 128]);
        }
        want[c] = tree(sd, 128);
        assert_double_near(fl(part[c]), want[c], 0);
    }
    for (uint32_t t = 0; t < 128; t++) {
        sd[t] = 0.0f;
        for (uint32_t i = t; i < np; i += 128)
            sd[t] += want[i];
    }
    assert_double_near(fl(res[0]), tree(sd, 128), 0);
    assert_double_near(fl(res[0]), 5000, 100); /* uniform in [0, 1) */
    assert_int_equal(r.st.launches, 2);
    stop(&r);
}

/* The scatter is a permutation: every element lands once, at the kernel's hash of its index. */
static void test_scatter(void **state)
{
    (void)state;
    const char *spans[] = {"4096", "32"};
    for (int k = 0; k < 2; k++) {
        wl_override ov[] = {{"n", "4096"}, {"span", spans[k]}};
        run r;
        start(&r, "scatter", ov, 2);
        uint32_t n, span = (uint32_t)atoi(spans[k]), sh = k ? 2 : 6;
        const uint32_t *in = wl_instance_array(&r.s, "in", &n);
        const uint32_t *out = wl_instance_array(&r.s, "out", NULL);
        char *hit = calloc(n, 1);
        uint32_t far = 0;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t h = (i & (span - 1)) * 40503u & (span - 1);
            h ^= h >> sh;
            h = (h * 1540483477u & (span - 1)) | (i & ~(span - 1));
            assert_true(h < n && !hit[h]);
            hit[h] = 1;
            assert_int_equal(out[h], in[i]);
            far += h / 32 != i / 32;
        }
        if (k)
            assert_int_equal(far, 0); /* span 32: within the line */
        else
            assert_true(far > n * 9 / 10);
        free(hit);
        stop(&r);
    }
}

/* Horner's rule with the CTA's polynomial. */
static void test_lut(void **state)
{
    (void)state;
    wl_override ov[] = {{"n", "1000"}, {"ncoef", "5"}, {"nsets", "3"}};
    run r;
    start(&r, "lut", ov, 3);
    uint32_t n;
    const uint32_t *x = wl_instance_array(&r.s, "x", &n),
                   *c = wl_instance_array(&r.s, "coef", NULL);
    const uint32_t *y = wl_instance_array(&r.s, "y", NULL);
    for (uint32_t i = 0; i < n; i++) {
        const uint32_t *p = c + (i / 256) % 3 * 5;
        float acc = 0.0f;
        for (int k = 0; k < 5; k++)
            acc = fmaf(acc, fl(x[i]), fl(p[k]));
        assert_double_near(fl(y[i]), acc, 0);
    }
    stop(&r);
}

/* Mandelbrot escape counts, the kernel's operations in single precision. */
static void test_escape(void **state)
{
    (void)state;
    wl_override ov[] = {{"w", "64"}, {"h", "40"}, {"maxit", "30"}};
    run r;
    start(&r, "escape", ov, 3);
    uint32_t n;
    const uint32_t *img = wl_instance_array(&r.s, "img", &n);
    assert_int_equal(n, 64 * 40);
    uint32_t inside = 0, quick = 0;
    for (uint32_t i = 0; i < n; i++) {
        float cr = fmaf((float)(i % 64), (float)((0.6 - -2.0) / 64), -2.0f);
        float ci = fmaf((float)(i / 64), (float)((1.2 - -1.2) / 40), (float)-1.2);
        float zr = 0.0f, zi = 0.0f;
        uint32_t it = 0;
        while (it < 30) {
            float zr2 = zr * zr, zi2 = zi * zi, m = zr2 + zi2;
            if (m > 4.0f) break;
            float t = zr * zi;
            zi = fmaf(t, 2.0f, ci);
            float d = zr2 - zi2;
            zr = d + cr;
            it++;
        }
        assert_int_equal(img[i], it);
        inside += it == 30;
        quick += it < 4;
    }
    assert_true(inside > n / 10 && quick > n / 10); /* lanes leave at different iterations */
    stop(&r);
}

/* Column sums in the kernel's order: each lane's rows, then the warp's tree. */
static void test_strided(void **state)
{
    (void)state;
    wl_override ov[] = {{"rows", "256"}, {"cols", "64"}};
    run r;
    start(&r, "strided", ov, 2);
    uint32_t nn;
    const uint32_t *A = wl_instance_array(&r.s, "A", &nn),
                   *cs = wl_instance_array(&r.s, "colsum", NULL);
    assert_int_equal(nn, 256 * 64);
    for (uint32_t c = 0; c < 64; c++) {
        float s[32];
        for (uint32_t l = 0; l < 32; l++) {
            s[l] = 0.0f;
            for (uint32_t row = l; row < 256; row += 32)
                s[l] += fl(A[row * 64 + c]);
        }
        for (uint32_t d = 16; d > 0; d /= 2)
            for (uint32_t l = 0; l < d; l++)
                s[l] += s[l + d];
        assert_double_near(fl(cs[c]), s[0], 0);
    }
    stop(&r);
}

/* npass in-place updates of every vector. */
static void test_rmw(void **state)
{
    (void)state;
    wl_override ov[] = {{"n", "1000"}, {"nvec", "3"}, {"npass", "3"}};
    run r;
    workload *w; /* the initial vectors, from the program's memory image */
    char err[256];
    assert_int_equal(workload_load("rmw", ov, 3, &w, err, sizeof err), 0);
    const uint32_t *x0 = wl_workload_array(w, "x", NULL);
    start(&r, "rmw", ov, 3);
    uint32_t n;
    const uint32_t *y = wl_instance_array(&r.s, "y", &n), *x = wl_instance_array(&r.s, "x", NULL);
    const uint32_t *it = wl_instance_array(&r.s, "it", NULL);
    for (uint32_t k = 0; k < 3; k++)
        for (uint32_t i = 0; i < n; i++) {
            float v = fl(x0[k * n + i]);
            for (int p = 0; p < 3; p++)
                v = fmaf(v, 0.999f, fl(y[i]));
            assert_double_near(fl(x[k * n + i]), v, 0);
        }
    assert_int_equal(it[0], 3);
    assert_int_equal(r.st.launches, 6);
    workload_free(w);
    stop(&r);
}

/* Every particle is once in the cell its position gives, or in the overflow list. */
static void test_binning(void **state)
{
    (void)state;
    wl_override ov[] = {{"n", "5000"}, {"ncells", "64"}};
    run r;
    start(&r, "binning", ov, 2);
    uint32_t n, ncells, cap = (2 * 5000 + 63) / 64;
    const uint32_t *pos = wl_instance_array(&r.s, "pos", &n);
    const uint32_t *cnt = wl_instance_array(&r.s, "cnt", &ncells);
    const uint32_t *slots = wl_instance_array(&r.s, "slots", NULL);
    const uint32_t *novf = wl_instance_array(&r.s, "novf", NULL);
    const uint32_t *ovf = wl_instance_array(&r.s, "ovf", NULL);
    assert_int_equal(ncells, 64);
    uint32_t *seen = calloc(n, sizeof *seen), want[64] = {0}, stored = 0;
    for (uint32_t i = 0; i < n; i++) {
        float p = fl(pos[i]);
        uint32_t b = p < 0.0f ? 0 : p >= 1.0f ? 63 : (uint32_t)((p - 0.0f) * 64.0f);
        want[b < 63 ? b : 63]++;
    }
    for (uint32_t b = 0; b < 64; b++) {
        assert_int_equal(cnt[b], want[b]);
        for (uint32_t s = 0; s < cnt[b] && s < cap; s++) {
            uint32_t j = slots[b * cap + s];
            assert_true(j < n);
            seen[j]++;
            stored++;
            float p = fl(pos[j]);
            uint32_t bj = p < 0.0f ? 0 : p >= 1.0f ? 63 : (uint32_t)(p * 64.0f);
            assert_int_equal(bj < 63 ? bj : 63, b);
        }
    }
    for (uint32_t k = 0; k < novf[0]; k++)
        seen[ovf[k]]++;
    assert_int_equal(stored + novf[0], n);
    for (uint32_t i = 0; i < n; i++)
        assert_int_equal(seen[i], 1);
    assert_true(novf[0] > 0); /* the edge cells overflow */
    free(seen);
    stop(&r);
}

static void test_gather(void **state)
{
    (void)state;
    wl_override ov[] = {{"n", "3000"}, {"tsize", "100000"}};
    run r;
    start(&r, "gather", ov, 2);
    uint32_t n, ts;
    const uint32_t *idx = wl_instance_array(&r.s, "idx", &n);
    const uint32_t *t = wl_instance_array(&r.s, "table", &ts);
    const uint32_t *out = wl_instance_array(&r.s, "out", NULL);
    for (uint32_t i = 0; i < n; i++) {
        assert_true(idx[i] < ts);
        assert_int_equal(out[i], t[idx[i]]);
    }
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
        cmocka_unit_test(test_list),      cmocka_unit_test(test_stream),
        cmocka_unit_test(test_kmeans),    cmocka_unit_test(test_matmul),
        cmocka_unit_test(test_bfs),       cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_histogram), cmocka_unit_test(test_transpose),
        cmocka_unit_test(test_reduction), cmocka_unit_test(test_scatter),
        cmocka_unit_test(test_lut),       cmocka_unit_test(test_escape),
        cmocka_unit_test(test_strided),   cmocka_unit_test(test_rmw),
        cmocka_unit_test(test_binning),   cmocka_unit_test(test_gather),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
