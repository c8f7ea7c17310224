/* Workload language: the interpreter driven directly through the isource seam, on tiny
 * kernels with hand-computed active masks, reconvergence points and memory results. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "core/workload/wl_cfg.h"
#include "core/workload/wl_inspect.h"
#include "core/workload/workload.h"
#include "tests/support/support.h"

typedef struct step {
    uint32_t pc, mask;
} step;

static workload *parse(const char *text)
{
    char err[512];
    workload *w = NULL;
    int rc = workload_parse(text, "t.wl", NULL, NULL, 0, &w, err, sizeof err);
    if (rc) fprintf(stderr, "%s\n", err);
    assert_int_equal(rc, 0);
    return w;
}

/* Runs the first kernel as one CTA of one SM, warps issued in order, recording warp 0's
 * (pc, active mask) and its last exec record per pc in `ex`. Returns the steps of warp 0. */
static int run_one(isource *s, step *trace, int max, inst_exec *ex, kernel_launch *kl)
{
    char err[256];
    assert_int_equal(s->ops->next_kernel(s->self, kl, err, sizeof err), 1);
    int nw = (int)((kl->block + 31) / 32), n = 0;
    s->ops->cta_start(s->self, 0, 0, 0);
    for (int w = 0; w < nw; w++)
        s->ops->warp_start(s->self, 0, w, 0, 0, w);
    int live = nw;
    while (live) {
        live = 0;
        for (int w = 0; w < nw; w++) {
            const inst_info *ii = s->ops->peek(s->self, 0, w);
            if (!ii) continue;
            live++;
            inst_exec e;
            uint32_t pc = ii->pc;
            int rc = s->ops->issue(s->self, 0, w, &e, err, sizeof err);
            if (rc) fprintf(stderr, "%s\n", err);
            assert_int_equal(rc, 0);
            if (w == 0 && n < max) {
                trace[n].pc = pc;
                trace[n].mask = e.active_mask;
                n++;
                if (ex) ex[pc] = e;
            }
        }
    }
    return n;
}

static const char *NESTED = ".array out i32 [32] zero\n"
                            ".kernel k block=32\n"
                            "        mov     r0, %laneid\n"      /* 0 */
                            "        and     r1, r0, 1\n"        /* 1 */
                            "        setp.eq p0, r1, 0\n"        /* 2 */
                            "    @p0 bra     even\n"             /* 3 */
                            "        setp.lt p1, r0, 16\n"       /* 4 */
                            "    @p1 bra     odd_low\n"          /* 5 */
                            "        mov     r2, 3\n"            /* 6 */
                            "        bra     odd_end\n"          /* 7 */
                            "odd_low: mov    r2, 2\n"            /* 8 */
                            "odd_end: bra    join\n"             /* 9 */
                            "even:   mov     r2, 1\n"            /* 10 */
                            "join:   st.i32  [out + r0*4], r2\n" /* 11 */
                            "        exit\n"                     /* 12 */
                            ".host\n  launch k grid=1\n";

static void test_nested_if_else(void **state)
{
    (void)state;
    workload *w = parse(NESTED);
    isource s;
    char err[256];
    assert_int_equal(workload_instance(w, 1, 4, 1, &s, err, sizeof err), 0);
    step t[64];
    inst_exec ex[16];
    kernel_launch kl;
    int n = run_one(&s, t, 64, ex, &kl);
    assert_int_equal(kl.num_insts, 13);
    assert_int_equal(kl.regs_per_thread, 3);
    const uint32_t F = 0xFFFFFFFFu, E = 0x55555555u, O = 0xAAAAAAAAu;
    step want[] = {{0, F}, {1, F},  {2, F},           {3, F},          {10, E},
                   {4, O}, {5, O},  {8, 0x0000AAAAu}, {6, 0xAAAA0000}, {7, 0xAAAA0000},
                   {9, O}, {11, F}, {12, F}};
    assert_int_equal(n, (int)(sizeof want / sizeof want[0]));
    for (int i = 0; i < n; i++) {
        assert_int_equal(t[i].pc, want[i].pc);
        assert_int_equal(t[i].mask, want[i].mask);
    }
    assert_true(ex[3].diverged);
    assert_int_equal(ex[3].taken_mask, E);
    assert_int_equal(ex[3].reconv_pc, 11);
    assert_int_equal(ex[3].target_pc, 10);
    assert_int_equal(ex[3].fallthru_pc, 4);
    assert_int_equal(ex[3].next_pc, 10);
    assert_true(ex[5].diverged);
    assert_int_equal(ex[5].taken_mask, 0x0000AAAAu);
    assert_int_equal(ex[5].reconv_pc, 9);
    assert_int_equal(ex[5].next_pc, 8);
    assert_false(ex[7].diverged);
    assert_int_equal(ex[7].next_pc, 9);
    assert_int_equal(ex[9].next_pc, 11);
    assert_true(ex[12].warp_done);
    assert_int_equal(wl_kernel_reconv(w, "k", 3), 11);
    assert_int_equal(wl_kernel_reconv(w, "k", 5), 9);
    uint32_t cnt;
    const uint32_t *out = wl_instance_array(&s, "out", &cnt);
    assert_int_equal(cnt, 32);
    for (uint32_t l = 0; l < 32; l++)
        assert_int_equal(out[l], l % 2 == 0 ? 1 : l < 16 ? 2 : 3);
    assert_int_equal(s.ops->next_kernel(s.self, &kl, err, sizeof err), 0);
    s.ops->destroy(s.self);
    workload_free(w);
}

static void test_loop_divergent_trips(void **state)
{
    (void)state;
    workload *w = parse(".array out i32 [32] zero\n"
                        ".kernel k block=32\n"
                        "      mov r0, %laneid\n"       /* 0 */
                        "      and r1, r0, 3\n"         /* 1 */
                        "      mov r2, 0\n"             /* 2 */
                        "loop: add r2, r2, 1\n"         /* 3 */
                        "      setp.le p0, r2, r1\n"    /* 4 */
                        "  @p0 bra loop\n"              /* 5 */
                        "      shl r3, r0, 2\n"         /* 6 */
                        "      st.i32 [out + r3], r2\n" /* 7 */
                        "      exit\n"
                        ".host\n launch k grid=1\n");
    isource s;
    char err[256];
    assert_int_equal(workload_instance(w, 1, 1, 1, &s, err, sizeof err), 0);
    step t[64];
    inst_exec ex[16];
    kernel_launch kl;
    int n = run_one(&s, t, 64, ex, &kl);
    const uint32_t F = 0xFFFFFFFFu;
    uint32_t m[4] = {F, 0xEEEEEEEEu, 0xCCCCCCCCu, 0x88888888u};
    int i = 0;
    for (int k = 0; k < 3; k++)
        assert_int_equal(t[i++].mask, F);
    for (int it = 0; it < 4; it++)
        for (int k = 0; k < 3; k++) {
            assert_int_equal(t[i].pc, 3 + k);
            assert_int_equal(t[i++].mask, m[it]);
        }
    for (int k = 6; k <= 8; k++) {
        assert_int_equal(t[i].pc, k);
        assert_int_equal(t[i++].mask, F);
    }
    assert_int_equal(n, i);
    assert_int_equal(ex[5].reconv_pc, 6);
    assert_int_equal(ex[5].next_pc, 6); /* the last iteration: nobody loops */
    const uint32_t *out = wl_instance_array(&s, "out", NULL);
    for (uint32_t l = 0; l < 32; l++)
        assert_int_equal(out[l], l % 4 + 1);
    s.ops->destroy(s.self);
    workload_free(w);
}

static void test_exit_in_divergent_path(void **state)
{
    (void)state;
    workload *w = parse(".array out i32 [32] const(-5)\n"
                        ".kernel k block=32\n"
                        "      mov r0, %laneid\n"         /* 0 */
                        "      setp.ge p0, r0, 8\n"       /* 1 */
                        "  @p0 bra big\n"                 /* 2 */
                        "      setp.lt p1, r0, 4\n"       /* 3 */
                        "  @p1 exit\n"                    /* 4 */
                        "      mov r1, 7\n"               /* 5 */
                        "      bra join\n"                /* 6 */
                        "big:  mov r1, 9\n"               /* 7 */
                        "join: st.i32 [out + r0*4], r1\n" /* 8 */
                        "      exit\n"                    /* 9 */
                        ".host\n launch k grid=1\n");
    isource s;
    char err[256];
    assert_int_equal(workload_instance(w, 1, 1, 1, &s, err, sizeof err), 0);
    step t[64];
    inst_exec ex[16];
    kernel_launch kl;
    int n = run_one(&s, t, 64, ex, &kl);
    step want[] = {{0, 0xFFFFFFFF}, {1, 0xFFFFFFFF}, {2, 0xFFFFFFFF}, {7, 0xFFFFFF00},
                   {8, 0xFFFFFF00}, {9, 0xFFFFFF00}, {3, 0xFF},       {4, 0x0F},
                   {5, 0xF0},       {6, 0xF0},       {8, 0xF0},       {9, 0xF0}};
    assert_int_equal(n, 12);
    for (int i = 0; i < n; i++) {
        assert_int_equal(t[i].pc, want[i].pc);
        assert_int_equal(t[i].mask, want[i].mask);
    }
    assert_int_equal(ex[2].reconv_pc, 10); /* the end node: lanes 0-3 may exit */
    assert_true(ex[9].warp_done);
    assert_null(s.ops->peek(s.self, 0, 0));
    const uint32_t *out = wl_instance_array(&s, "out", NULL);
    for (uint32_t l = 0; l < 32; l++)
        assert_int_equal(out[l], l < 4 ? (uint32_t)-5 : l < 8 ? 7 : 9);
    s.ops->destroy(s.self);
    workload_free(w);
}

static void test_ipdom_hand_cfgs(void **state)
{
    (void)state;
    uint32_t ip[8];
    int diamond[] = {1, 2, 3, -1, 3, -1, 4, -1};
    assert_int_equal(wl_ipdom(4, diamond, ip), 0);
    assert_int_equal(ip[0], 3);
    assert_int_equal(ip[1], 3);
    assert_int_equal(ip[2], 3);
    assert_int_equal(ip[3], 4);
    /* 0 -> 1; 1 -> 2|4; 2 -> 3|5 (break); 3 -> 1; 4 -> 5; 5 -> end */
    int loop[] = {1, -1, 2, 4, 3, 5, 1, -1, 5, -1, 6, -1};
    assert_int_equal(wl_ipdom(6, loop, ip), 0);
    uint32_t want[] = {1, 5, 5, 1, 5, 6};
    for (int i = 0; i < 6; i++)
        assert_int_equal(ip[i], want[i]);
    /* node 1 loops forever: it never reaches the end, so its ipdom is the end node */
    int inf[] = {1, 2, 1, -1, 3, -1};
    assert_int_equal(wl_ipdom(3, inf, ip), 0);
    assert_int_equal(ip[1], 3);
    assert_int_equal(ip[2], 3);
    assert_int_equal(ip[0], 2);
    /* nested: 0 -> 1|6; 1 -> 2|3; 2 -> 4; 3 -> 4; 4 -> 5|1 (loop); 5 -> 7; 6 -> 7; 7 -> end */
    int nest[] = {1, 6, 2, 3, 4, -1, 4, -1, 5, 1, 7, -1, 7, -1, 8, -1};
    assert_int_equal(wl_ipdom(8, nest, ip), 0);
    uint32_t w2[] = {7, 4, 4, 4, 5, 7, 7, 8};
    for (int i = 0; i < 8; i++)
        assert_int_equal(ip[i], w2[i]);
}

static void test_atomics_and_arith(void **state)
{
    (void)state;
    workload *w = parse(".array ctr i32 [4] const(0)\n"
                        ".array out i32 [32*8] zero\n"
                        ".kernel k block=32\n"
                        "   mov r0, %laneid\n"
                        "   shl r9, r0, 2\n"
                        "   atom.add r1, [ctr], 1\n"
                        "   add r5, r0, 1\n"
                        "   atom.cas r2, [ctr + 4], 0, r5\n"
                        "   atom.max r3, [ctr + 8], r0\n"
                        "   atom.exch r4, [ctr + 12], r5\n"
                        "   st.i32 [out + r9], r1\n"
                        "   st.i32 [out + r9 + 128], r2\n"
                        "   st.i32 [out + r9 + 256], r3\n"
                        "   st.i32 [out + r9 + 384], r4\n"
                        "   sub r6, r0, 16\n"
                        "   div r7, 7, r6\n" /* lane 16 divides by zero */
                        "   rem r8, 7, r6\n"
                        "   st.i32 [out + r9 + 512], r7\n"
                        "   st.i32 [out + r9 + 640], r8\n"
                        "   div.u32 r7, r0, 0\n"
                        "   mov r8, 0x80000000\n"
                        "   div r8, r8, -1\n"
                        "   st.i32 [out + r9 + 768], r7\n"
                        "   st.i32 [out + r9 + 896], r8\n"
                        ".host\n launch k grid=1\n");
    isource s;
    char err[256];
    assert_int_equal(workload_instance(w, 1, 1, 1, &s, err, sizeof err), 0);
    step t[64];
    kernel_launch kl;
    run_one(&s, t, 64, NULL, &kl);
    const uint32_t *ctr = wl_instance_array(&s, "ctr", NULL);
    const uint32_t *out = wl_instance_array(&s, "out", NULL);
    assert_int_equal(ctr[0], 32);
    assert_int_equal(ctr[1], 1); /* lane 0 won the compare-and-swap */
    assert_int_equal(ctr[2], 31);
    assert_int_equal(ctr[3], 32); /* the last lane's exchange stays */
    for (uint32_t l = 0; l < 32; l++) {
        int32_t d = (int32_t)l - 16;
        assert_int_equal(out[l], l); /* lanes in lane order */
        assert_int_equal(out[32 + l], l == 0 ? 0 : 1);
        assert_int_equal(out[64 + l], l == 0 ? 0 : l - 1);
        assert_int_equal(out[96 + l], l); /* previous lane's value */
        assert_int_equal(out[128 + l], d == 0 ? 0xFFFFFFFFu : (uint32_t)(7 / d));
        assert_int_equal(out[160 + l], d == 0 ? 7u : (uint32_t)(7 % d));
        assert_int_equal(out[192 + l], 0xFFFFFFFFu);
        assert_int_equal(out[224 + l], 0x80000000u);
    }
    s.ops->destroy(s.self);
    workload_free(w);
}

static void test_predication_and_info(void **state)
{
    (void)state;
    workload *w = parse(".array out f32 [32] zero\n"
                        ".kernel k block=20 regs=12\n"
                        "   mov r0, %tid\n"
                        "   setp.lt p1, r0, 5\n"
                        "@!p1 mov r1, 2.5\n"
                        "@p1 mad r3, r0, r1, r0\n"
                        "   i2f r2, r0\n"
                        "   fmul r2, r2, 0.5\n"
                        "@p1 fadd r2, r2, r1\n"
                        "   f2i r4, 1e20\n"
                        "   st.f32 [out + r0*4], r2\n"
                        "   ld.f32 r5, [out + r0 * 4]\n"
                        ".host\n launch k grid=1\n");
    isource s;
    char err[256];
    assert_int_equal(workload_instance(w, 1, 1, 1, &s, err, sizeof err), 0);
    kernel_launch kl;
    assert_int_equal(s.ops->next_kernel(s.self, &kl, err, sizeof err), 1);
    assert_int_equal(kl.regs_per_thread, 12);
    assert_int_equal(kl.block, 20);
    assert_int_equal(kl.num_insts, 11); /* with the implicit exit */
    s.ops->cta_start(s.self, 0, 0, 0);
    s.ops->warp_start(s.self, 0, 0, 0, 0, 0);
    inst_exec e;
    uint32_t masks[11];
    for (int i = 0; i < 11; i++) {
        const inst_info *ii = s.ops->peek(s.self, 0, 0);
        assert_non_null(ii);
        assert_int_equal(ii->pc, i);
        if (i == 1) {
            assert_int_equal(ii->ndst, 1);
            assert_int_equal(ii->dst[0], WT_SB_PRED(1));
        }
        if (i == 3) {
            assert_int_equal(ii->cls, IC_INT);
            assert_int_equal(ii->nsrc, 3); /* guard, r0, r1 */
            assert_int_equal(ii->src[0], WT_SB_PRED(1));
            assert_int_equal(ii->src[1], 0);
            assert_int_equal(ii->src[2], 1);
            assert_int_equal(ii->dst[0], 3);
        }
        if (i == 8) assert_int_equal(ii->cls, IC_ST_GLOBAL);
        if (i == 9) {
            assert_int_equal(ii->cls, IC_LD_GLOBAL);
            assert_int_equal(ii->nsrc, 1);
        }
        assert_int_equal(s.ops->issue(s.self, 0, 0, &e, err, sizeof err), 0);
        masks[i] = e.active_mask;
        if (i == 9) {
            assert_int_equal(e.access_size, 4);
            for (uint32_t l = 0; l < 20; l++)
                assert_int_equal(e.addr[l], wl_array_base(w, "out") + 4 * l);
        }
    }
    assert_true(e.warp_done);
    assert_int_equal(masks[0], 0xFFFFF);
    assert_int_equal(masks[2], 0xFFFE0);
    assert_int_equal(masks[3], 0x1F);
    assert_int_equal(masks[6], 0x1F);
    const uint32_t *out = wl_instance_array(&s, "out", NULL);
    for (uint32_t l = 0; l < 32; l++) {
        float f;
        memcpy(&f, &out[l], 4);
        /* lanes < 5 add r1, which is 0 for them (never written) */
        assert_double_near(f, l < 20 ? 0.5f * (float)l : 0.0f, 0);
    }
    s.ops->destroy(s.self);
    workload_free(w);
}

static void test_shared_and_barrier(void **state)
{
    (void)state;
    workload *w = parse(".array out i32 [64] zero\n"
                        ".kernel k block=64 shared=64*4\n"
                        "   mov r0, %tid\n"
                        "   shl r1, r0, 2\n"
                        "   st.shared.i32 [r1], r0\n"
                        "   bar\n"
                        "   add r2, r0, 1\n"
                        "   rem r2, r2, %ntid\n"
                        "   ld.shared.i32 r3, [r2*4]\n"
                        "   mov r4, %warpid\n"
                        "   mad r3, r4, 1000, r3\n"
                        "   st.i32 [out + r1], r3\n"
                        ".host\n launch k grid=1\n");
    isource s;
    char err[256];
    assert_int_equal(workload_instance(w, 1, 2, 1, &s, err, sizeof err), 0);
    kernel_launch kl;
    assert_int_equal(s.ops->next_kernel(s.self, &kl, err, sizeof err), 1);
    assert_int_equal(kl.shared_bytes, 256);
    s.ops->cta_start(s.self, 0, 0, 0);
    s.ops->warp_start(s.self, 0, 0, 0, 0, 0);
    s.ops->warp_start(s.self, 0, 1, 0, 0, 1);
    inst_exec e;
    /* warp 0 runs up to and through its barrier, then warp 1 does; then both finish */
    for (int wi = 0; wi < 2; wi++)
        for (int i = 0; i < 4; i++)
            assert_int_equal(s.ops->issue(s.self, 0, wi, &e, err, sizeof err), 0);
    assert_int_equal(s.ops->peek(s.self, 0, 0)->pc, 4);
    for (int wi = 0; wi < 2; wi++)
        while (s.ops->peek(s.self, 0, wi)) {
            assert_int_equal(s.ops->issue(s.self, 0, wi, &e, err, sizeof err), 0);
            if (s.ops->peek(s.self, 0, wi) == NULL) assert_true(e.warp_done);
        }
    const uint32_t *out = wl_instance_array(&s, "out", NULL);
    for (uint32_t t = 0; t < 64; t++)
        assert_int_equal(out[t], (t / 32) * 1000 + (t + 1) % 64);
    s.ops->destroy(s.self);
    workload_free(w);
}

static int host_launches(const char *text)
{
    workload *w = parse(text);
    isource s;
    char err[256];
    assert_int_equal(workload_instance(w, 1, 1, 1, &s, err, sizeof err), 0);
    kernel_launch kl;
    int n = 0;
    step t[16];
    while (s.ops->next_kernel(s.self, &kl, err, sizeof err) == 1) {
        n++;
        s.ops->cta_start(s.self, 0, 0, 0);
        s.ops->warp_start(s.self, 0, 0, 0, 0, 0);
        inst_exec e;
        while (s.ops->peek(s.self, 0, 0))
            assert_int_equal(s.ops->issue(s.self, 0, 0, &e, err, sizeof err), 0);
    }
    (void)t;
    s.ops->destroy(s.self);
    workload_free(w);
    return n;
}

static void test_host_loop(void **state)
{
    (void)state;
    const char *base = ".param max 100\n.param start 5\n"
                       ".array flag i32 [2] zero\n"
                       ".kernel dec block=1\n"
                       "   ld.i32 r0, [flag]\n"
                       "   sub r0, r0, 1\n"
                       "   st.i32 [flag], r0\n"
                       "   atom.add r1, [flag + 4], 1\n"
                       ".host\n"
                       "   set flag[0] = start\n"
                       "   do max=max\n"
                       "      launch dec grid=1\n"
                       "   while flag[0] != 0\n";
    assert_int_equal(host_launches(base), 5);
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", base);
    char *p = strstr(buf, ".param max 100");
    memcpy(p, ".param max   3", 14); /* the bound stops the loop */
    assert_int_equal(host_launches(buf), 3);
    /* == loops while equal; a nested loop runs its body max times per outer iteration */
    assert_int_equal(host_launches(".array f i32 [1] zero\n.kernel k block=1\n exit\n"
                                   ".host\n do max=3\n  do max=4\n   launch k grid=1\n"
                                   "  while f[0] == 0\n while f[0] == 0\n"),
                     12);
    /* a workload without any array */
    assert_int_equal(host_launches(".kernel k block=32\n exit\n.host\n launch k grid=1\n"
                                   " launch k grid=2 block=64\n"),
                     2);
}

static void test_overrides_and_expressions(void **state)
{
    (void)state;
    const char *text =
        "# doc line\n.param n 10\n.param half n/2\n.param r 2.5\n"
        ".array a i32 [ceil(n/4)] iota(start=n, step=-1)\n"
        ".array b f32 [max(n, 3) - min(1, 2)] iota(r, 0.5)\n"
        ".array c u32 [log2(n) + ceil_div(n, 3) + half] uniform(seed=4, lo=3, hi=5)\n"
        ".kernel k block=32\n exit\n.host\n launch k grid=ceil_div(n,32)\n";
    workload *w = parse(text);
    uint32_t cnt;
    const uint32_t *a = wl_workload_array(w, "a", &cnt);
    assert_int_equal(cnt, 3);
    assert_int_equal(a[0], 10);
    assert_int_equal(a[2], 8);
    const uint32_t *b = wl_workload_array(w, "b", &cnt);
    assert_int_equal(cnt, 9);
    float f;
    memcpy(&f, &b[3], 4);
    assert_double_near(f, 4.0f, 0);
    const uint32_t *c = wl_workload_array(w, "c", &cnt);
    assert_int_equal(cnt, 3 + 4 + 5);
    for (uint32_t i = 0; i < cnt; i++)
        assert_in_range(c[i], 3, 4);
    assert_int_equal(wl_array_base(w, "a") % 256, 0);
    assert_true(wl_array_base(w, "a") > 0);
    assert_true(wl_array_base(w, "b") >= wl_array_base(w, "a") + 12);
    assert_string_equal(workload_name(w), "t");
    workload_free(w);
    wl_override ov[] = {{"n", "40"}, {"r", "1"}};
    char err[256];
    assert_int_equal(workload_parse(text, "dir/t2.wl", NULL, ov, 2, &w, err, sizeof err), 0);
    wl_workload_array(w, "a", &cnt);
    assert_int_equal(cnt, 10);
    assert_string_equal(workload_name(w), "t2");
    workload_free(w);
}

static void test_edgelist_graph(void **state)
{
    (void)state;
    char err[256];
    workload *w = NULL;
    const char *text = ".graph g edgelist(\"data/tiny.txt\")\n"
                       ".array deg i32 [g_nodes] zero\n"
                       ".kernel k block=32\n exit\n.host\n launch k grid=g_edges\n";
    int rc = workload_parse(text, "x.wl", "workloads", NULL, 0, &w, err, sizeof err);
    if (rc) fprintf(stderr, "%s\n", err);
    assert_int_equal(rc, 0);
    uint32_t n, m;
    const uint32_t *rp = wl_workload_array(w, "g_rowptr", &n);
    const uint32_t *col = wl_workload_array(w, "g_col", &m);
    assert_int_equal(n, 7);
    assert_int_equal(m, 7);
    uint32_t wrp[] = {0, 2, 3, 4, 5, 6, 7}, wcol[] = {1, 2, 3, 3, 4, 0, 5};
    for (int i = 0; i < 7; i++)
        assert_int_equal(rp[i], wrp[i]);
    for (int i = 0; i < 7; i++)
        assert_int_equal(col[i], wcol[i]);
    wl_workload_array(w, "deg", &n);
    assert_int_equal(n, 6);
    workload_free(w);
    /* graphs from generators are deterministic per seed */
    const char *g2 = ".graph g rmat(nodes=100, edges=500, seed=3)\n.graph h uniform(100, 500, 3)\n"
                     ".kernel k block=32\n exit\n.host\n launch k grid=1\n";
    workload *x, *y;
    assert_int_equal(workload_parse(g2, "g.wl", NULL, NULL, 0, &x, err, sizeof err), 0);
    assert_int_equal(workload_parse(g2, "g.wl", NULL, NULL, 0, &y, err, sizeof err), 0);
    const uint32_t *c1 = wl_workload_array(x, "g_col", &n), *c2 = wl_workload_array(y, "g_col", &m);
    assert_int_equal(n, 500);
    assert_memory_equal(c1, c2, 500 * 4);
    rp = wl_workload_array(x, "h_rowptr", &n);
    assert_int_equal(n, 101);
    assert_int_equal(rp[100], 500);
    for (uint32_t i = 0; i < 500; i++)
        assert_true(c1[i] < 100);
    workload_free(x);
    workload_free(y);
}

/* Runs the workload's only kernel: its first instruction issues, the second fails with an
 * error containing each of want[0..nwant). */
static void expect_second_issue_fails(const char *text, const char *const *want, int nwant)
{
    char err[256];
    workload *w = parse(text);
    isource s;
    assert_int_equal(workload_instance(w, 1, 1, 1, &s, err, sizeof err), 0);
    kernel_launch kl;
    assert_int_equal(s.ops->next_kernel(s.self, &kl, err, sizeof err), 1);
    s.ops->cta_start(s.self, 0, 0, 0);
    s.ops->warp_start(s.self, 0, 0, 0, 0, 0);
    inst_exec e;
    assert_int_equal(s.ops->issue(s.self, 0, 0, &e, err, sizeof err), 0);
    assert_int_equal(s.ops->issue(s.self, 0, 0, &e, err, sizeof err), -1);
    for (int i = 0; i < nwant; i++)
        assert_non_null(strstr(err, want[i]));
    s.ops->destroy(s.self);
    workload_free(w);
}

static void test_runtime_address_errors(void **state)
{
    (void)state;
    const char *cases[][2] = {
        {"   st.i32 [out + r0*4 + 128], r0\n", "outside every array"},
        {"   ld.i32 r1, [r0]\n", "outside every array"},
        {"   ld.i32 r1, [out + 2]\n", "not 4-byte aligned"},
        {"   ld.shared.i32 r1, [r0*4 + 60]\n", "shared memory"},
    };
    for (size_t i = 0; i < 4; i++) {
        char text[512];
        snprintf(text, sizeof text,
                 ".array out i32 [32] zero\n.kernel kern block=32 shared=64\n"
                 "   mov r0, %%laneid\n%s.host\n launch kern grid=1\n",
                 cases[i][0]);
        const char *want[] = {"kernel 'kern', pc 1 (line 4)", cases[i][1]};
        expect_second_issue_fails(text, want, 2);
    }
    /* a workload without any array: every global address is outside every array */
    const char *want[] = {"lane 0 is outside every array"};
    expect_second_issue_fails(".kernel kern block=32\n   mov r0, %laneid\n   ld.i32 r1, [r0*4]\n"
                              ".host\n launch kern grid=1\n",
                              want, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nested_if_else),
        cmocka_unit_test(test_loop_divergent_trips),
        cmocka_unit_test(test_exit_in_divergent_path),
        cmocka_unit_test(test_ipdom_hand_cfgs),
        cmocka_unit_test(test_atomics_and_arith),
        cmocka_unit_test(test_predication_and_info),
        cmocka_unit_test(test_shared_and_barrier),
        cmocka_unit_test(test_host_loop),
        cmocka_unit_test(test_overrides_and_expressions),
        cmocka_unit_test(test_edgelist_graph),
        cmocka_unit_test(test_runtime_address_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
