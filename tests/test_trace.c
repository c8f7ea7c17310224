/* The Accel-Sim trace reader on hand-written traces: every line kind, the three address modes,
 * tracer versions 3 to 5, xz files, simulation, and malformed traces rejected with file:line. */
#include <lzma.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "explorer/catalog.h"
#include "core/config/preset.h"
#include "explorer/simulate.h"
#include "core/trace/trace.h"
#include "tests/support/support.h"

static char dir[256];

static void put(const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void put_xz(const char *name, const char *text)
{
    size_t n = strlen(text), cap = n + 4096, len = 0;
    uint8_t *buf = malloc(cap);
    assert_non_null(buf);
    assert_int_equal(lzma_easy_buffer_encode(1, LZMA_CHECK_CRC64, NULL, (const uint8_t *)text, n,
                                             buf, &len, cap),
                     LZMA_OK);
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fwrite(buf, 1, len, f);
    fclose(f);
    free(buf);
}

static const char *list_path(void)
{
    static char p[300];
    snprintf(p, sizeof p, "%s/kernelslist.g", dir);
    return p;
}

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/wt_test_trace_%ld", (long)getpid());
    mkdir(dir, 0777);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    const char *names[] = {"kernelslist.g", "kernel-1.traceg", "kernel-2.traceg",
                           "kernel-1.traceg.xz"};
    char path[512];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        unlink(path);
    }
    rmdir(dir);
    return 0;
}

#define HEADER70                                                                                   \
    "-kernel name = _Z6kernelPfS_i\n"                                                              \
    "-kernel id = 1\n"                                                                             \
    "-grid dim = (2,1,1)\n"                                                                        \
    "-block dim = (40,1,1)\n"                                                                      \
    "-shmem = 256\n"                                                                               \
    "-nregs = 16\n"                                                                                \
    "-binary version = 70\n"                                                                       \
    "-cuda stream id = 0\n"                                                                        \
    "-shmem base_addr = 0x00007f0e8e000000\n"                                                      \
    "-local mem base_addr = 0x00007f0e8c000000\n"                                                  \
    "-nvbit version = 1.5.5\n"                                                                     \
    "-accelsim tracer version = 5\n"                                                               \
    "-enable lineinfo = 0\n"                                                                       \
    "\n"                                                                                           \
    "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] "          \
    "mem_width [adrrescompress?] [mem_addresses] immediate\n"                                      \
    "\n"

/* Warp 0 of block 0 has one line of each kind and each address mode. */
static const char *kernel70(void)
{
    static char text[8192];
    size_t n = (size_t)snprintf(text, sizeof text,
                                HEADER70 "#BEGIN_TB\n"
                                         "\n"
                                         "thread block = 0,0,0\n"
                                         "cluster id = 0,0,0\n"
                                         "\n"
                                         "warp = 0\n"
                                         "insts = 8\n"
                                         "0000 ffffffff 1 R1 IMAD.MOV.U32 2 R255 R255 0 0\n"
                                         "0010 ffffffff 1 R2 S2R 0 0 0\n"
                                         "0020 ffffffff 1 R4 LDG.E.SYS 2 R2 R3 4 0");
    for (int l = 0; l < 32; l++)
        n += (size_t)snprintf(text + n, sizeof text - n, " 0x00007f0e5f7180%02x", 4 * l);
    n += (size_t)snprintf(text + n, sizeof text - n,
                          " 0\n"
                          "0030 0000ffff 0 STG.E.64 2 R2 R4 8 1 0x7f0e5f719000 8 0\n"
                          "0040 ffffffff 1 R5 LDS.U.128 1 R6 16 2 0x100");
    for (int l = 1; l < 32; l++)
        n += (size_t)snprintf(text + n, sizeof text - n, " %d", l == 5 ? -64 : 16);
    snprintf(text + n, sizeof text - n,
             " 0\n"
             "0050 ffffffff 0 BAR.SYNC 0 0 0\n"
             "0060 00000001 0 BRA 0 0 0\n"
             "0070 ffffffff 0 EXIT 0 0\n"
             "\n"
             "warp = 1\n"
             "insts = 1\n"
             "0000 000000ff 0 EXIT 0 0 0\n"
             "\n"
             "#END_TB\n"
             "\n"
             "#BEGIN_TB\n"
             "thread block = 1,0,0\n"
             "warp = 1\n"
             "insts = 0\n"
             "warp = 0\n"
             "insts = 2\n"
             "0000 ffffffff 1 R100 IADD3 3 R240 R100 R64 0 0\n"
             "0010 ffffffff 0 EXIT 0 0 0\n"
             "#END_TB\n");
    return text;
}

static const char *const LIST = "MemcpyHtoD,0x00007f0e5f718000,4096\n"
                                "\n"
                                "kernel-1.traceg\n"
                                "MemcpyDtoH,0x00007f0e5f718000,4096\n";

/* Drives a reader by hand: one SM, the kernel's first CTA in slot 0. */
static void open_source(isource *src, trace_app **t, kernel_launch *k)
{
    char err[1024];
    if (trace_open(list_path(), t, err, sizeof err)) fail_msg("%s", err);
    if (trace_instance(*t, 1, 8, 2, src, err, sizeof err)) fail_msg("%s", err);
    assert_int_equal(src->ops->next_kernel(src->self, k, err, sizeof err), 1);
}

static void issue(isource *src, int warp, inst_exec *x)
{
    char err[1024];
    if (src->ops->issue(src->self, 0, warp, x, err, sizeof err)) fail_msg("%s", err);
}

static void test_every_line_kind(void **state)
{
    (void)state;
    put("kernelslist.g", LIST);
    put("kernel-1.traceg", kernel70());
    trace_app *t;
    isource src;
    kernel_launch k;
    open_source(&src, &t, &k);
    assert_int_equal(trace_kernel_count(t), 1);
    assert_int_equal(trace_memcpy_count(t), 1);
    assert_string_equal(k.name, "_Z6kernelPfS_i");
    assert_int_equal(k.grid, 2);
    assert_int_equal(k.block, 40);
    assert_int_equal(k.regs_per_thread, 16);
    assert_int_equal(k.shared_bytes, 256);

    src.ops->cta_start(src.self, 0, 0, 0);
    src.ops->warp_start(src.self, 0, 0, 0, 0, 0);
    src.ops->warp_start(src.self, 0, 1, 0, 0, 1);
    inst_exec x;
    const inst_info *in = src.ops->peek(src.self, 0, 0);
    /* IMAD.MOV: R1 written, RZ read (no slot) */
    assert_int_equal(in->pc, 0);
    assert_int_equal(in->cls, IC_INT);
    assert_int_equal(in->ndst, 1);
    assert_int_equal(in->dst[0], 1);
    assert_int_equal(in->nsrc, 0);
    issue(&src, 0, &x);
    assert_int_equal(x.active_mask, 0xFFFFFFFFu);
    assert_false(x.warp_done);
    issue(&src, 0, &x); /* S2R */
    /* LDG, list of addresses */
    in = src.ops->peek(src.self, 0, 0);
    assert_int_equal(in->pc, 2);
    assert_int_equal(in->cls, IC_LD_GLOBAL);
    assert_int_equal(in->nsrc, 2);
    assert_int_equal(in->src[0], 2);
    assert_int_equal(in->src[1], 3);
    issue(&src, 0, &x);
    assert_int_equal(x.access_size, 4);
    for (int l = 0; l < 32; l++)
        assert_int_equal(x.addr[l], 0x5f718000u + 4u * (uint32_t)l);
    /* STG.E.64, base+stride on 16 lanes: 8 bytes per lane from the opcode */
    in = src.ops->peek(src.self, 0, 0);
    assert_int_equal(in->cls, IC_ST_GLOBAL);
    issue(&src, 0, &x);
    assert_int_equal(x.active_mask, 0xFFFFu);
    assert_int_equal(x.access_size, 8);
    for (int l = 0; l < 16; l++)
        assert_int_equal(x.addr[l], 0x5f719000u + 8u * (uint32_t)l);
    /* LDS.U.128, base+delta */
    in = src.ops->peek(src.self, 0, 0);
    assert_int_equal(in->cls, IC_LD_SHARED);
    issue(&src, 0, &x);
    assert_int_equal(x.access_size, 16);
    assert_int_equal(x.addr[0], 0x100);
    assert_int_equal(x.addr[4], 0x140);
    assert_int_equal(x.addr[5], 0x100);
    assert_int_equal(x.addr[31], 0x100 + 16 * 26);
    assert_int_equal(src.ops->peek(src.self, 0, 0)->cls, IC_BARRIER);
    issue(&src, 0, &x);
    /* BRA of a recorded trace: taken lanes, the target is where the warp goes next */
    in = src.ops->peek(src.self, 0, 0);
    assert_int_equal(in->cls, IC_BRANCH);
    issue(&src, 0, &x);
    assert_int_equal(x.taken_mask, 1);
    assert_int_equal(x.active_mask, 1);
    assert_int_equal(x.target_pc, 7);
    assert_int_equal(x.fallthru_pc, 7);
    /* EXIT, the warp's last line (tracer version 5 without an immediate is accepted) */
    assert_int_equal(src.ops->peek(src.self, 0, 0)->cls, IC_EXIT);
    issue(&src, 0, &x);
    assert_true(x.warp_done);
    assert_null(src.ops->peek(src.self, 0, 0));
    /* warp 1: 8 lanes */
    issue(&src, 1, &x);
    assert_int_equal(x.active_mask, 0xFFu);
    assert_true(x.warp_done);

    /* block 1: warps listed out of order, warp 1 empty; registers folded onto slots */
    src.ops->cta_start(src.self, 0, 1, 1);
    src.ops->warp_start(src.self, 0, 2, 1, 1, 0);
    src.ops->warp_start(src.self, 0, 3, 1, 1, 1);
    in = src.ops->peek(src.self, 0, 2);
    assert_int_equal(in->dst[0], trace_reg_slot(100));
    assert_int_equal(in->nsrc, 3);
    assert_int_equal(in->src[0], WT_SB_PRED(0)); /* R240 */
    assert_int_equal(in->src[1], trace_reg_slot(100));
    assert_int_equal(in->src[2], trace_reg_slot(64));
    assert_in_range(trace_reg_slot(100), 72, 127);
    in = src.ops->peek(src.self, 0, 3); /* the empty warp exits at once */
    assert_int_equal(in->cls, IC_EXIT);
    issue(&src, 3, &x);
    assert_true(x.warp_done);
    assert_int_equal(x.active_mask, 0);
    char err[256];
    assert_int_equal(src.ops->next_kernel(src.self, &k, err, sizeof err), 0);
    src.ops->destroy(src.self);
    trace_close(t);
}

/* Version 3 (no immediates), Pascal PCs of 8 bytes, generic loads without base addresses
 * (shared, as Accel-Sim decides); version 4 with line numbers, Kepler LD (global). */
static void test_tracer_versions(void **state)
{
    (void)state;
    put("kernelslist.g", "kernel-1.traceg\nkernel-2.traceg\n");
    put("kernel-1.traceg",
        "-grid dim = (1,1,1)\n"
        "-block dim = (32,1,1)\n"
        "-binary version = 61\n"
        "-accelsim tracer version = 3\n"
        "#traces format = PC mask dest_num [reg_dests] opcode src_num [reg_srcs] "
        "mem_width [adrrescompress?] [mem_addresses]\n"
        "#BEGIN_TB\n"
        "thread block = 0,0,0\n"
        "warp = 0\n"
        "insts = 3\n"
        "0008 ffffffff 1 R3 LD.E 1 R2 4 1 0x20 4\n"
        "0010 ffffffff 1 R4 XMAD 2 R3 R3 0\n"
        "0018 ffffffff 0 EXIT 0 0\n"
        "#END_TB\n");
    put("kernel-2.traceg", "-kernel name = k2\n"
                           "-grid dim = (1,1,1)\n"
                           "-block dim = (32,1,1)\n"
                           "-binary version = 35\n"
                           "-accelsim tracer version = 4\n"
                           "-enable lineinfo = 1\n"
                           "#BEGIN_TB\n"
                           "thread block = 0,0,0\n"
                           "warp = 0\n"
                           "insts = 2\n"
                           "17 0008 0000000f 1 R3 LD.E.64 1 R2 8 0 0x1000 0x1008 0x1010 0x1018\n"
                           "18 0010 ffffffff 0 EXIT 0 0\n"
                           "#END_TB\n");
    trace_app *t;
    isource src;
    kernel_launch k;
    inst_exec x;
    char err[1024];
    open_source(&src, &t, &k);
    src.ops->cta_start(src.self, 0, 0, 0);
    src.ops->warp_start(src.self, 0, 0, 0, 0, 0);
    const inst_info *in = src.ops->peek(src.self, 0, 0);
    assert_int_equal(in->pc, 1);
    assert_int_equal(in->cls, IC_LD_SHARED);
    issue(&src, 0, &x);
    assert_int_equal(x.addr[31], 0x20 + 4 * 31);
    assert_int_equal(src.ops->peek(src.self, 0, 0)->cls, IC_INT);
    issue(&src, 0, &x);
    issue(&src, 0, &x);
    assert_true(x.warp_done);
    assert_int_equal(src.ops->next_kernel(src.self, &k, err, sizeof err), 1);
    assert_string_equal(k.name, "k2");
    src.ops->cta_start(src.self, 0, 0, 0);
    src.ops->warp_start(src.self, 0, 0, 0, 0, 0);
    in = src.ops->peek(src.self, 0, 0);
    assert_int_equal(in->cls, IC_LD_GLOBAL);
    assert_int_equal(in->pc, 1);
    issue(&src, 0, &x);
    assert_int_equal(x.access_size, 8);
    assert_int_equal(x.addr[3], 0x1018);
    src.ops->destroy(src.self);
    trace_close(t);
}

static void test_xz(void **state)
{
    (void)state;
    put("kernelslist.g", "kernel-1.traceg.xz\n");
    put_xz("kernel-1.traceg.xz", kernel70());
    char err[1024];
    trace_app *t;
    if (trace_open(list_path(), &t, err, sizeof err)) fail_msg("%s", err);
    trace_scan_stats st;
    if (trace_scan(t, &st, err, sizeof err)) fail_msg("%s", err);
    assert_int_equal(st.kernels, 1);
    assert_int_equal(st.blocks, 2);
    assert_int_equal(st.warps, 4);
    assert_int_equal(st.insts, 11);
    assert_int_equal(st.mem_insts, 3);
    trace_close(t);
}

/* The hand-written application runs; every line issues once. */
static void test_simulate(void **state)
{
    (void)state;
    put("kernelslist.g", LIST);
    put("kernel-1.traceg", kernel70());
    char err[1024];
    trace_app *t;
    if (trace_open(list_path(), &t, err, sizeof err)) fail_msg("%s", err);
    param_set *p = param_set_new();
    assert_int_equal(preset_apply(p, TEST_PRESET, err, sizeof err), 0);
    sim_metrics m;
    if (sim_run_source(p, trace_isource_factory, t, NULL, &m, err, sizeof err) != SIM_OK)
        fail_msg("%s", err);
    assert_double_near(m.warp_insts, 12, 0); /* 11 lines and the empty warp's exit */
    assert_double_near(m.ctas, 2, 0);
    assert_double_less(0, m.cycles);
    assert_double_near(m.global_loads, 1, 0);
    assert_double_in_range(m.l1d_accesses, 1, INFINITY);
    param_set_free(p);
    trace_close(t);
}

/* ---- malformed traces ---- */

typedef struct bad_case {
    const char *list;   /* kernelslist.g, or NULL for the default */
    const char *kernel; /* kernel-1.traceg */
    const char *expect; /* the start of the message after the directory */
} bad_case;

#define H(grid, rest)                                                                              \
    "-grid dim = " grid "\n-block dim = (32,1,1)\n-binary version = 70\n"                          \
    "-accelsim tracer version = 5\n" rest
#define TB(insts, lines)                                                                           \
    "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = " insts "\n" lines "#END_TB\n"
#define OK_LINE "0000 ffffffff 0 EXIT 0 0 0\n"

static const bad_case BAD[] = {
    {"kernel-1.traceg\nlaunch foo\n", H("(1,1,1)", "") TB("1", OK_LINE),
     "kernelslist.g:2: unknown command 'launch'"},
    {"MemcpyHtoD,0x10\nkernel-1.traceg\n", H("(1,1,1)", "") TB("1", OK_LINE),
     "kernelslist.g:1: expected MemcpyHtoD,0xADDRESS,BYTES"},
    {"kernel-7.traceg\n", "", "kernelslist.g:1: cannot open kernel trace"},
    /* an empty file has no line 0 */
    {NULL, "", "kernel-1.traceg: empty file (expected a kernel header: -grid dim, ...)"},
    {NULL, "-grid dim = (1,x,1)\n", "kernel-1.traceg:1: -grid dim: expected (x,y,z)"},
    {NULL, "-grid dim = (1,1,1)\n-binary version = 52\n",
     "kernel-1.traceg:2: -binary version = 52: no opcode table"},
    {NULL, "-accelsim tracer version = 2\n", "kernel-1.traceg:1: -accelsim tracer version"},
    {NULL, "-enable lineinfo = 5\n", "kernel-1.traceg:1: -enable lineinfo: expected 0 or 1"},
    {NULL, "-grid dim = (1,1,1)\n-binary version = 70\n-accelsim tracer version = 5\n#x\n",
     "kernel-1.traceg:4: the kernel header has no -block dim line"},
    {NULL, H("(1,1,1)", "#f\n") OK_LINE, "kernel-1.traceg:6: expected #BEGIN_TB, got '0000'"},
    {NULL, H("(1,1,1)", "#BEGIN_TB\nthread block = 0,0,0\n#BEGIN_TB\n"),
     "kernel-1.traceg:7: #BEGIN_TB inside a thread block"},
    {NULL, H("(1,1,1)", "#BEGIN_TB\nthread block = 0,0,0\nwarp = 1\n"),
     "kernel-1.traceg:7: warp 1 of a block of 1 warps"},
    {NULL, H("(1,1,1)", TB("2", OK_LINE)),
     "kernel-1.traceg:10: warp 0 has 1 instruction lines but insts = 2"},
    {NULL, H("(1,1,1)", TB("1", OK_LINE OK_LINE)),
     "kernel-1.traceg:10: more instruction lines than insts = 1"},
    {NULL, H("(1,1,1)", TB("1", "00g0 ffffffff 0 EXIT 0 0 0\n")),
     "kernel-1.traceg:9: expected a 32-bit hexadecimal PC, got '00g0'"},
    {NULL, H("(1,1,1)", TB("1", "0000 ffffffff 0 FROB 0 0 0\n")),
     "kernel-1.traceg:9: unknown opcode 'FROB' for binary version 70"},
    {NULL, H("(1,1,1)", TB("1", "0000 ffffffff 2 R1 R2 MOV 0 0 0\n")),
     "kernel-1.traceg:9: 2 destination registers (at most 1)"},
    {NULL, H("(1,1,1)", TB("1", "0000 ffffffff 1 Q1 MOV 0 0 0\n")),
     "kernel-1.traceg:9: expected a destination register R0-R255, got 'Q1'"},
    {NULL, H("(1,1,1)", TB("1", "0000 ffffffff 1 R1 LDG.E 1 R2 4 3 0x10 0\n")),
     "kernel-1.traceg:9: unknown address mode 3"},
    {NULL, H("(1,1,1)", TB("1", "0000 00000003 1 R1 LDG.E 1 R2 4 0 0x10\n")),
     "kernel-1.traceg:9: expected 2 hexadecimal addresses (one per active lane), got the end of "
     "the line after 1"},
    {NULL, H("(1,1,1)", TB("1", "0000 00000007 1 R1 LDG.E 1 R2 4 2 0x10 4\n")),
     "kernel-1.traceg:9: base+delta: expected 2 decimal deltas, got the end of the line after 1"},
    {NULL,
     "-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-binary version = 70\n"
     "-accelsim tracer version = 4\n" TB("1", "0000 ffffffff 0 EXIT 0 0 7\n"),
     "kernel-1.traceg:9: unexpected '7' at the end of the instruction"},
    {NULL, H("(1,1,1)", TB("1", "0000 ffffffff 1 R1 LDG.E 1 R2 0 0\n")),
     "kernel-1.traceg:9: memory instruction 'LDG.E' without addresses"},
    {NULL, H("(1,1,1)", TB("1", "0000 ffffffff 1 R1 LDG.E 1 R2 3 1 0x10 4\n")),
     "kernel-1.traceg:9: memory width 3 (expected 0 for no access, or 1, 2, 4, 8 or 16 bytes)"},
    {NULL, H("(1,1,1)", TB("1", "0000 ffffffff 1 R1 LDG.E 1 R2 32 1 0x10 4\n")),
     "kernel-1.traceg:9: memory width 32 (expected 0"},
    /* PCs are byte offsets of whole instructions: 16 bytes from binary version 70, 8 before */
    {NULL, H("(1,1,1)", TB("1", "0008 ffffffff 0 EXIT 0 0 0\n")),
     "kernel-1.traceg:9: PC 0x8 is not a multiple of the 16-byte instruction size (binary "
     "version 70)"},
    {NULL,
     "-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-binary version = 61\n"
     "-accelsim tracer version = 5\n" TB("1", "0004 ffffffff 0 EXIT 0 0 0\n"),
     "kernel-1.traceg:9: PC 0x4 is not a multiple of the 8-byte instruction size (binary "
     "version 61)"},
    {NULL, H("(1,1,1)", "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n" OK_LINE),
     "kernel-1.traceg:9: the file ends inside a thread block"},
    {NULL, H("(1,1,1)", "#BEGIN_TB\nthread block = 0,1,0\n"),
     "kernel-1.traceg:6: thread block 0,1,0 is outside the grid (1,1,1)"},
    {NULL, H("(1,1,1)", TB("1", OK_LINE) TB("1", OK_LINE)),
     "kernel-1.traceg:11: more thread blocks than the grid's 1"},
    {NULL, H("(1,1,1)", "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\n" OK_LINE),
     "kernel-1.traceg:8: instruction line before 'warp =' and 'insts ='"},
    {NULL, H("(1,1,1)", TB("1", "0000 1ffffffff 0 EXIT 0 0 0\n")),
     "kernel-1.traceg:9: expected a 32-bit hexadecimal active mask, got '1ffffffff'"},
    /* a number out of range is quoted, not the token after it */
    {NULL, H("(1,1,1)", TB("1", "100000000 ffffffff 0 EXIT 0 0 0\n")),
     "kernel-1.traceg:9: expected a 32-bit hexadecimal PC, got '100000000'"},
};

static void check_bad(const bad_case *c, size_t i)
{
    put("kernelslist.g", c->list ? c->list : "kernel-1.traceg\n");
    put("kernel-1.traceg", c->kernel);
    char err[1024] = "";
    trace_app *t = NULL;
    int rc = trace_open(list_path(), &t, err, sizeof err);
    if (rc == 0) {
        trace_scan_stats st;
        rc = trace_scan(t, &st, err, sizeof err);
    }
    trace_close(t);
    char want[1024];
    snprintf(want, sizeof want, "%s/%s", dir, c->expect);
    if (rc == 0 || strncmp(err, want, strlen(want)) != 0)
        fail_msg("case %zu: expected \"%s...\", got \"%s\"", i, want, err);
}

static void test_malformed(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++)
        check_bad(&BAD[i], i);
}

/* Corrupt xz data, and a malformed line met while simulating: both stop with file:line. */
static void test_errors_while_running(void **state)
{
    (void)state;
    char err[1024];
    put("kernelslist.g", "kernel-1.traceg\n");
    put("kernel-1.traceg", H("(2,1,1)", TB("1", OK_LINE) "#BEGIN_TB\nthread block = 1,0,0\n"
                                                         "warp = 0\ninsts = 1\n"
                                                         "0000 ffffffff 0 NOPE 0 0 0\n#END_TB\n"));
    trace_app *t;
    if (trace_open(list_path(), &t, err, sizeof err)) fail_msg("%s", err);
    param_set *p = param_set_new();
    assert_int_equal(preset_apply(p, TEST_PRESET, err, sizeof err), 0);
    sim_metrics m;
    assert_int_equal(sim_run_source(p, trace_isource_factory, t, NULL, &m, err, sizeof err),
                     SIM_FAILED);
    char want[512];
    snprintf(want, sizeof want, "%s/kernel-1.traceg:15: unknown opcode 'NOPE'", dir);
    if (strncmp(err, want, strlen(want))) fail_msg("got \"%s\"", err);
    trace_close(t);
    param_set_free(p);

    put("kernelslist.g", "kernel-1.traceg.xz\n");
    put_xz("kernel-1.traceg.xz", kernel70());
    char path[512];
    snprintf(path, sizeof path, "%s/kernel-1.traceg.xz", dir);
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    fseek(f, 40, SEEK_SET);
    fputs("garbage garbage", f);
    fclose(f);
    assert_int_equal(trace_open(list_path(), &t, err, sizeof err), 0);
    trace_scan_stats st;
    assert_int_equal(trace_scan(t, &st, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s/kernel-1.traceg.xz:", dir);
    if (strncmp(err, want, strlen(want)) || !strstr(err, ": corrupt xz data"))
        fail_msg("got \"%s\"", err);
    trace_close(t);
}

/* A NUL byte and a line over the 1 MB limit, in plain files. */
static void test_bad_bytes(void **state)
{
    (void)state;
    char path[512], err[1024], want[600];
    put("kernelslist.g", "kernel-1.traceg\n");
    static const char head[] = H("(1,1,1)", "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\n");
    snprintf(path, sizeof path, "%s/kernel-1.traceg", dir);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fwrite(head, 1, sizeof head - 1, f);
    fwrite("insts = 1\0\n", 1, 12, f);
    fclose(f);
    trace_app *t;
    trace_scan_stats st;
    assert_int_equal(trace_open(list_path(), &t, err, sizeof err), 0);
    assert_int_equal(trace_scan(t, &st, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s/kernel-1.traceg:8: NUL byte in a text line", dir);
    assert_string_equal(err, want);
    trace_close(t);

    f = fopen(path, "wb");
    assert_non_null(f);
    fwrite(head, 1, sizeof head - 1, f);
    for (int i = 0; i < (1 << 20) / 8 + 1; i++)
        fputs("xxxxxxxx", f);
    fputs("\n", f);
    fclose(f);
    assert_int_equal(trace_open(list_path(), &t, err, sizeof err), 0);
    assert_int_equal(trace_scan(t, &st, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s/kernel-1.traceg:8: line longer than", dir);
    if (strncmp(err, want, strlen(want))) fail_msg("got \"%s\"", err);
    trace_close(t);
}

static void test_opcode_tables(void **state)
{
    (void)state;
    char err[256];
    trace_opcodes *o;
    assert_int_equal(trace_opcodes_load(&o, err, sizeof err), 0);
    const int versions[] = {35, 60, 61, 70, 75, 80, 86};
    for (size_t i = 0; i < sizeof versions / sizeof versions[0]; i++) {
        assert_true(trace_opcodes_supports(o, versions[i]));
        assert_int_equal(trace_opcode_class(o, versions[i], "FFMA", 4), IC_FP);
        assert_int_equal(trace_opcode_class(o, versions[i], "MUFU.RSQ", 8), IC_SFU);
        assert_int_equal(trace_opcode_class(o, versions[i], "BAR.SYNC", 8), IC_BARRIER);
        assert_int_equal(trace_opcode_class(o, versions[i], "EXIT", 4), IC_EXIT);
        assert_int_equal(trace_opcode_class(o, versions[i], "LDS.U.32", 8), IC_LD_SHARED);
    }
    assert_false(trace_opcodes_supports(o, 52));
    assert_int_equal(trace_opcode_class(o, 35, "LD.E", 4), IC_LD_GLOBAL);
    assert_int_equal(trace_opcode_class(o, 70, "LD.E", 4), TRACE_OP_LD_GENERIC);
    assert_int_equal(trace_opcode_class(o, 80, "LDGSTS.E.BYPASS.128", 19), IC_LD_GLOBAL);
    assert_int_equal(trace_opcode_class(o, 70, "LDGSTS", 6), -1);
    assert_int_equal(trace_opcode_class(o, 75, "UIADD3", 6), IC_INT);
    assert_int_equal(trace_opcode_class(o, 70, "ATOMG.E.ADD.STRONG.GPU", 22), IC_ATOMIC);
    assert_int_equal(trace_opcode_width("LDG.E.128.SYS", 13), 16);
    assert_int_equal(trace_opcode_width("LDG.E.U16", 9), 2);
    assert_int_equal(trace_opcode_width("LDG.E.SYS", 9), 4);
    trace_opcodes_free(o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_opcode_tables),
        cmocka_unit_test(test_every_line_kind),
        cmocka_unit_test(test_tracer_versions),
        cmocka_unit_test(test_xz),
        cmocka_unit_test(test_simulate),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_errors_while_running),
        cmocka_unit_test(test_bad_bytes),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
