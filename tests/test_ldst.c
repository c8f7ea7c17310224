/* Shared-memory accesses through the load/store unit with bank conflicts
 * (sm.shared_path=ldst, GPGPU-Sim's ldst_unit::shared_cycle) and global atomics made as
 * GPGPU-Sim makes them, one request per segment and per repeated address
 * (sm.atomic_path=serial, warp_inst_t::memory_coalescing_arch_atomic): exact cycle counts on
 * tiny kernels, a property over strides, workload-level effects, and skipping. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "tests/support/support.h"

/* One SM, one scheduler, full-width units (a warp per cycle), int latency 4, shared latency
 * 10, shared accesses through the load/store unit. */
#define TINY                                                                                       \
    "gpu.sms=1", "sm.schedulers=1", "sm.simd_width=32", "sm.int_latency=4",                        \
        "sm.shared_latency=10", "sm.branch_latency=2"
#define S 10

/* One warp: lane l loads the shared word at byte `l * stride` (the `addr` line computes it),
 * then adds 1 to it.
 *   0 mov | 4 addr | 8 ld.shared: in the unit at 9..8+k, written back at 8+k+S | 8+k+S add
 *   (written back 12+k+S) | 9+k+S exit: 13+k+S cycles, k the bank-conflict degree.
 * Through the bypass the load writes back at 8+S: 13+S cycles, as k = 0. */
static double one_load(const char *addr_line, const char *path)
{
    char wl[512];
    snprintf(wl, sizeof wl,
             ".kernel k block=32 shared=8192\n"
             "    mov r0, %%laneid\n"
             "    %s\n"
             "    ld.shared.i32 r2, [r1]\n"
             "    add r3, r2, 1\n"
             "    exit\n"
             ".host\n"
             "    launch k grid=1\n",
             addr_line);
    char p[64];
    snprintf(p, sizeof p, "sm.shared_path=%s", path);
    const char *sets[] = {TINY, p, NULL};
    sim_metrics m;
    test_sim_ok(wl, sets, NULL, &m);
    assert_int_equal((int)m.shared_accesses, 1);
    return m.cycles;
}

static void test_conflict_degree_exact_cycles(void **state)
{
    (void)state;
    /* 32 consecutive words: one per bank, one cycle in the unit */
    assert_int_equal((int)one_load("shl r1, r0, 2", "ldst"), 13 + 1 + S);
    /* a stride of 32 words: every lane in bank 0, 32 cycles */
    assert_int_equal((int)one_load("shl r1, r0, 7", "ldst"), 13 + 32 + S);
    /* a stride of 2 words: banks 0, 2, ... 30 twice each, 2 cycles */
    assert_int_equal((int)one_load("shl r1, r0, 3", "ldst"), 13 + 2 + S);
    /* every lane the same word: one read broadcast, 1 cycle */
    assert_int_equal((int)one_load("and r1, r0, 0", "ldst"), 13 + 1 + S);
    /* two words of one bank, 16 lanes each: 2 cycles */
    assert_int_equal((int)one_load("and r1, r0, 1\n    shl r1, r1, 7", "ldst"), 13 + 4 + 2 + S);
    /* the bypass: written back S cycles after issue whatever the addresses */
    assert_int_equal((int)one_load("shl r1, r0, 2", "bypass"), 13 + S);
    assert_int_equal((int)one_load("shl r1, r0, 7", "bypass"), 13 + S);
}

static int gcd(int a, int b)
{
    while (b) {
        int t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* Property: with B banks, a stride of s words puts lane l's word l*s in bank l*s mod B: the
 * lanes use the B/g banks that are multiples of g = gcd(s, B), 32*g/B distinct words in each
 * (s = 0: one word, broadcast, 1 cycle). Checked for 32 and 16 banks over strides 0..40. */
static void test_conflict_degree_over_strides(void **state)
{
    (void)state;
    const char *wl = ".param s 0\n"
                     ".kernel k block=32 shared=8192\n"
                     "    mov r0, %laneid\n"
                     "    mul r1, r0, s*4\n"
                     "    ld.shared.i32 r2, [r1]\n"
                     "    add r3, r2, 1\n"
                     "    exit\n"
                     ".host\n"
                     "    launch k grid=1\n";
    for (int banks = 16; banks <= 32; banks += 16) {
        char b[64];
        snprintf(b, sizeof b, "sm.shared_banks=%d", banks);
        const char *sets[] = {TINY, "sm.shared_path=ldst", b, NULL};
        for (int s = 0; s <= 40; s++) {
            char wp[32];
            snprintf(wp, sizeof wp, "s=%d", s);
            const char *wparams[] = {wp, NULL};
            sim_metrics m;
            test_sim_ok(wl, sets, wparams, &m);
            int k = s == 0 ? 1 : 32 * gcd(s, banks) / banks;
            if ((int)m.cycles != 13 + k + S)
                fail_msg("banks %d stride %d: %d cycles, expected %d", banks, s, (int)m.cycles,
                         13 + k + S);
        }
    }
}

/* The same two conflicting loads with sm.mem_queue=2 (GPGPU-Sim's path through the operand
 * collector, 2 cycles): w0's load issues at 8 and enters the unit at the end of 10 (in it
 * 11..42); w1's issues at 9 into the queue instead of waiting, is due at 11, enters when the
 * unit frees at 42 (in it 43..74) and writes back at 74+S: 75+S cycles, 2 more than through a
 * free unit at issue. */
static void test_mem_queue_path(void **state)
{
    (void)state;
    const char *wl = ".kernel k block=64 shared=8192\n"
                     "    mov r0, %laneid\n"
                     "    shl r1, r0, 7\n"
                     "    ld.shared.i32 r2, [r1]\n"
                     "    exit\n"
                     ".host\n"
                     "    launch k grid=1\n";
    const char *direct[] = {TINY, "sm.shared_path=ldst", NULL};
    const char *queued[] = {TINY, "sm.shared_path=ldst", "sm.mem_queue=2", NULL};
    const char *noskip[] = {TINY, "sm.shared_path=ldst", "sm.mem_queue=2", "sim.skip_idle=false",
                            NULL};
    sim_metrics a, b, c;
    test_sim_ok(wl, direct, NULL, &a);
    test_sim_ok(wl, queued, NULL, &b);
    test_sim_ok(wl, noskip, NULL, &c);
    assert_int_equal((int)a.cycles, 73 + S);
    assert_int_equal((int)b.cycles, 75 + S);
    assert_memory_equal(&b, &c, sizeof b);
    /* a load with every lane off accesses nothing and writes nothing: queued, it must not
     * leave its destination reserved (the add would wait for it forever) */
    const char *off = ".kernel k block=32\n"
                      "    mov r0, 0\n"
                      "    setp.ne p0, r0, 0\n"
                      "    @p0 ld r1, [r0]\n"
                      "    add r2, r1, r1\n"
                      "    exit\n"
                      ".host\n"
                      "    launch k grid=1\n";
    const char *q[] = {TINY, "sm.mem_queue=2", "sim.watchdog=1000", NULL};
    test_sim_ok(off, q, NULL, &a);
}

/* sm.mem_queue_collectors with one collector unit (sm.oc_units=1): two warps, each a 32-way
 * conflicting shared load and then a chain of ten dependent adds. Without the hold the adds of
 * both warps run under the loads (w0's from 16, w1's from 18, 8 cycles apart each: the collector
 * read and the int latency), and the run ends at 99. With it, w0's load (issued at 15) holds
 * the unit until it enters the load/store unit at 17; w0's first add takes it next; w1's load
 * (issued at 18) then holds it until w0's access leaves the load/store unit and w1's enters, at
 * 49. No add is collected in between: w1's first add issues at 49, w0's second at 50, and
 * everything after moves 31 to 33 cycles later: the run ends at 130. */
static void test_mem_queue_holds_collectors(void **state)
{
    (void)state;
    const char *wl = ".kernel k block=64 shared=8192\n"
                     "    mov r0, %laneid\n"
                     "    shl r1, r0, 7\n"
                     "    ld.shared.i32 r2, [r1]\n"
                     "    add r3, r0, 1\n"
                     "    add r3, r3, 1\n"
                     "    add r3, r3, 1\n"
                     "    add r3, r3, 1\n"
                     "    add r3, r3, 1\n"
                     "    add r3, r3, 1\n"
                     "    add r3, r3, 1\n"
                     "    add r3, r3, 1\n"
                     "    add r3, r3, 1\n"
                     "    add r3, r3, 1\n"
                     "    exit\n"
                     ".host\n"
                     "    launch k grid=1\n";
#define MQC                                                                                        \
    TINY, "sm.shared_path=ldst", "sm.mem_queue=2", "sm.operand_collector=true", "sm.oc_units=1"
    const char *free_cu[] = {MQC, NULL};
    const char *held[] = {MQC, "sm.mem_queue_collectors=true", NULL};
    const char *held_noskip[] = {MQC, "sm.mem_queue_collectors=true", "sim.skip_idle=false", NULL};
#undef MQC
    sim_metrics a, b, c;
    test_sim_ok(wl, free_cu, NULL, &a);
    test_sim_ok(wl, held, NULL, &b);
    test_sim_ok(wl, held_noskip, NULL, &c);
    assert_int_equal((int)a.cycles, 99);
    assert_int_equal((int)b.cycles, 130);
    assert_memory_equal(&b, &c, sizeof b);
}

/* Two warps, each a 32-way conflicting load (GTO). w0: mov 0, shl 4, ld 8 (unit 9..40), exit
 * 9; w1: mov 1, shl 5, its load waits for the unit (ST_STAGE) until it frees at 40, then is
 * in it 41..72 and writes back at 72+S: 73+S cycles. Conflict-free, w1's load issues at 10
 * (after w0's exit, the older warp, at 9), is in the unit at 11 and writes back at 11+S:
 * 12+S cycles; through the bypass it writes back at 10+S: 11+S. */
static void test_warp_behind_waits_for_the_unit(void **state)
{
    (void)state;
    const char *fmt = ".kernel k block=64 shared=8192\n"
                      "    mov r0, %%laneid\n"
                      "    shl r1, r0, %d\n"
                      "    ld.shared.i32 r2, [r1]\n"
                      "    exit\n"
                      ".host\n"
                      "    launch k grid=1\n";
    char conflict[512], coherent[512];
    snprintf(conflict, sizeof conflict, fmt, 7);
    snprintf(coherent, sizeof coherent, fmt, 2);
    const char *ldst[] = {TINY, "sm.shared_path=ldst", NULL};
    const char *bypass[] = {TINY, NULL};
    sim_metrics a, b, c;
    test_sim_ok(conflict, ldst, NULL, &a);
    test_sim_ok(coherent, ldst, NULL, &b);
    test_sim_ok(conflict, bypass, NULL, &c);
    assert_int_equal((int)a.cycles, 73 + S);
    assert_int_equal((int)b.cycles, 12 + S);
    assert_int_equal((int)c.cycles, 11 + S);
    assert_double_less(0, a.stall_struct); /* the cycles w1 waited for the unit */
}

/* A 32x32 tile transpose: the column read of a 32-word-row tile is a 32-way conflict, the
 * 33-word padded tile's is conflict-free. Only the load/store path sees the difference. */
static const char *const TRANSPOSE = ".param n 128\n"
                                     ".param w 32\n"
                                     ".array A f32 [n*n] iota(0, 1)\n"
                                     ".array B f32 [n*n] zero\n"
                                     ".kernel tr block=1024 shared=32*33*4\n"
                                     "    mov r0, %tid\n"
                                     "    and r1, r0, 31\n"
                                     "    shr r2, r0, 5\n"
                                     "    mov r3, %ctaid\n"
                                     "    rem r4, r3, n/32\n"
                                     "    div r5, r3, n/32\n"
                                     "    shl r4, r4, 5\n"
                                     "    shl r5, r5, 5\n"
                                     "    add r6, r5, r2\n"
                                     "    add r7, r4, r1\n"
                                     "    mad r8, r6, n, r7\n"
                                     "    shl r8, r8, 2\n"
                                     "    ld.f32 r9, [A + r8]\n"
                                     "    mad r10, r2, w, r1\n"
                                     "    shl r10, r10, 2\n"
                                     "    st.shared.f32 [r10], r9\n"
                                     "    bar\n"
                                     "    mad r11, r1, w, r2\n"
                                     "    shl r11, r11, 2\n"
                                     "    ld.shared.f32 r12, [r11]\n"
                                     "    add r13, r4, r2\n"
                                     "    add r14, r5, r1\n"
                                     "    mad r15, r13, n, r14\n"
                                     "    shl r15, r15, 2\n"
                                     "    st.f32 [B + r15], r12\n"
                                     "    exit\n"
                                     ".host\n"
                                     "    launch tr grid=(n/32)*(n/32)\n";

static void test_transpose_padding_avoids_conflicts(void **state)
{
    (void)state;
    const char *w32[] = {"w=32", NULL}, *w33[] = {"w=33", NULL};
    const char *ldst[] = {"gpu.sms=2", "sm.shared_path=ldst", NULL};
    const char *bypass[] = {"gpu.sms=2", NULL};
    sim_metrics a, b, c, d;
    test_sim_ok(TRANSPOSE, ldst, w32, &a);
    test_sim_ok(TRANSPOSE, ldst, w33, &b);
    test_sim_ok(TRANSPOSE, bypass, w32, &c);
    test_sim_ok(TRANSPOSE, bypass, w33, &d);
    assert_double_less(1.2 * b.cycles, a.cycles);
    assert_double_near(c.cycles, d.cycles, 0);
}

/* One warp's atomic add, every lane on one word (`and r1, r0, 0`) or on 32 consecutive words
 * (`shl r1, r0, 2`): per line, 1 L2 request either way; per GPGPU-Sim's atomic coalescer,
 * 32 requests (one per repeated address) and 4 (one per 32-byte segment). */
static sim_metrics one_atomic(const char *addr_line, const char *path)
{
    char wl[512];
    snprintf(wl, sizeof wl,
             ".array h i32 [64] zero\n"
             ".kernel k block=32\n"
             "    mov r0, %%laneid\n"
             "    %s\n"
             "    atom.add.i32 r2, [h + r1], 1\n"
             "    exit\n"
             ".host\n"
             "    launch k grid=1\n",
             addr_line);
    char p[64];
    snprintf(p, sizeof p, "sm.atomic_path=%s", path);
    const char *sets[] = {TINY, p, NULL};
    sim_metrics m;
    test_sim_ok(wl, sets, NULL, &m);
    assert_int_equal((int)m.atomics, 1);
    return m;
}

static void test_atomic_requests(void **state)
{
    (void)state;
    sim_metrics same_line = one_atomic("and r1, r0, 0", "line");
    sim_metrics same_serial = one_atomic("and r1, r0, 0", "serial");
    sim_metrics run_line = one_atomic("shl r1, r0, 2", "line");
    sim_metrics run_serial = one_atomic("shl r1, r0, 2", "serial");
    sim_metrics pairs_serial = one_atomic("shr r1, r0, 1\n    shl r1, r1, 2", "serial");
    assert_int_equal((int)same_line.l2_accesses, 1);
    assert_int_equal((int)same_serial.l2_accesses, 32);
    assert_int_equal((int)run_line.l2_accesses, 1);
    assert_int_equal((int)run_serial.l2_accesses, 4);
    /* lanes 2i and 2i+1 share word i: 16 words in 2 segments, 2 requests per segment */
    assert_int_equal((int)pairs_serial.l2_accesses, 4);
    /* the requests leave the unit one per cycle and the L2 takes one per cycle: the last of
     * 32 replies comes 31 cycles after the first, the last of 4 three cycles after */
    assert_int_equal((int)same_serial.cycles, (int)same_line.cycles + 31);
    assert_int_equal((int)run_serial.cycles, (int)run_line.cycles + 3);
}

/* On a sectored L2, each of GPGPU-Sim's atomic requests reads its one 32-byte sector, wherever
 * the segment lies in its line: a warp whose lanes each add to the last word of their own line
 * (a stride of 128 bytes, so the segments sit at every offset of the address space's sector
 * numbering) makes 32 requests, 32 sector accesses and 32 misses from a cold L2, 32 DRAM
 * reads. */
static void test_atomic_sectors(void **state)
{
    (void)state;
    const char *wl = ".array h i32 [32*32] zero\n"
                     ".kernel k block=32\n"
                     "    mov r0, %laneid\n"
                     "    shl r1, r0, 7\n"
                     "    add r1, r1, 124\n"
                     "    atom.add.i32 r2, [h + r1], 1\n"
                     "    exit\n"
                     ".host\n"
                     "    launch k grid=1\n";
    const char *sets[] = {TINY, "sm.atomic_path=serial", "l2.sectored=true", NULL};
    sim_metrics m;
    test_sim_ok(wl, sets, NULL, &m);
    assert_int_equal((int)m.l2_accesses, 32);
    assert_int_equal((int)m.l2_load_accesses, 32);
    assert_int_equal((int)m.l2_load_misses, 32);
    assert_int_equal((int)m.dram_reads, 32);
}

/* A histogram: with GPGPU-Sim's atomics one bin (every lane of every warp on one address) is
 * far slower than 256 bins; per line it is the other way round. */
static const char *const HISTOGRAM = ".param n 8192\n"
                                     ".param bins 256\n"
                                     ".array X i32 [n] uniform(seed=1, lo=0, hi=1000000)\n"
                                     ".array H i32 [bins] zero\n"
                                     ".kernel h block=256\n"
                                     "    mov r0, %gtid\n"
                                     "    shl r1, r0, 2\n"
                                     "    ld.i32 r2, [X + r1]\n"
                                     "    rem r3, r2, bins\n"
                                     "    shl r3, r3, 2\n"
                                     "    atom.add.i32 r4, [H + r3], 1\n"
                                     "    exit\n"
                                     ".host\n"
                                     "    launch h grid=n/256\n";

static void test_histogram_one_bin_serialises(void **state)
{
    (void)state;
    const char *one[] = {"bins=1", NULL}, *many[] = {"bins=256", NULL};
    const char *serial[] = {"gpu.sms=4", "sm.atomic_path=serial", NULL};
    const char *line[] = {"gpu.sms=4", NULL};
    sim_metrics a, b, c, d;
    test_sim_ok(HISTOGRAM, serial, one, &a);
    test_sim_ok(HISTOGRAM, serial, many, &b);
    test_sim_ok(HISTOGRAM, line, one, &c);
    test_sim_ok(HISTOGRAM, line, many, &d);
    assert_double_less(2 * b.cycles, a.cycles);
    /* one request per lane instead of one per warp; the loads of X are the same */
    assert_double_near(a.l2_accesses - c.l2_accesses, 8192 - 8192 / 32, 0);
    assert_double_less(c.cycles, d.cycles);
}

/* sm.atomic_wait: with an atomic in flight the warp issues nothing, not even instructions
 * that do not read its result. Three dependent adds after the atomic (int latency 4), the
 * atomic back at T: without the wait they run under it and the kernel ends at T + 1; with it
 * they issue at T, T + 4 and T + 8, the exit waits for the last result (T + 12), and the
 * kernel ends at T + 13. */
static void test_atomic_wait_holds_the_warp(void **state)
{
    (void)state;
    const char *wl = ".array h i32 [64] zero\n"
                     ".kernel k block=32\n"
                     "    mov r0, %laneid\n"
                     "    shl r1, r0, 2\n"
                     "    atom.add.i32 r2, [h + r1], 1\n"
                     "    add r3, r0, 1\n"
                     "    add r4, r3, 1\n"
                     "    add r5, r4, 1\n"
                     "    exit\n"
                     ".host\n"
                     "    launch k grid=1\n";
    const char *off[] = {TINY, NULL}, *on[] = {TINY, "sm.atomic_wait=true", NULL};
    const char *on_noskip[] = {TINY, "sm.atomic_wait=true", "sim.skip_idle=false", NULL};
    sim_metrics a, b, c;
    test_sim_ok(wl, off, NULL, &a);
    test_sim_ok(wl, on, NULL, &b);
    test_sim_ok(wl, on_noskip, NULL, &c);
    assert_int_equal((int)b.cycles, (int)a.cycles + 12);
    assert_int_equal((int)c.cycles, (int)b.cycles);
}

/* sm.store_acks: a warp that stored leaves, and its CTA's slot frees, only when the last of its
 * stores is acknowledged. One warp stores 4 bytes a lane and exits; without acknowledgements
 * the run ends as the L2 takes the write, with them when the acknowledgement is back:
 * l2.hit_latency 40 + icnt.latency 37 + one cycle for its 8-byte packet = 78 cycles later,
 * 81 on a sectored L2 (four sectors, four packets back to back), 78 again for a store of one
 * lane (one sector). With two CTAs and one CTA slot the second starts only once the first's
 * acknowledgement is back (without them, while the first's write is still on its way).
 * Skipping idle cycles changes nothing. */
static double store_then_exit(const char *lanes, int grid, const char *acks, const char *sectored,
                              const char *skip)
{
    char wl[512];
    snprintf(wl, sizeof wl,
             ".array h i32 [64] zero\n"
             ".kernel k block=32\n"
             "    mov r0, %%laneid\n"
             "    shl r1, r0, 2\n"
             "    setp.lt.s32 p0, r0, %s\n"
             "    @p0 st.i32 [h + r1], r0\n"
             "    exit\n"
             ".host\n"
             "    launch k grid=%d\n",
             lanes, grid);
    const char *sets[] = {TINY, "sm.max_ctas=1", acks, sectored, skip, NULL};
    sim_metrics m;
    test_sim_ok(wl, sets, NULL, &m);
    return m.cycles;
}

static void test_store_acks_hold_the_warp(void **state)
{
    (void)state;
    const char *off = "sm.store_acks=false", *on = "sm.store_acks=true";
    const char *flat = "l2.sectored=false", *sect = "l2.sectored=true";
    const char *skip = "sim.skip_idle=true", *noskip = "sim.skip_idle=false";
    double base = store_then_exit("32", 1, off, flat, skip);
    assert_int_equal((int)store_then_exit("32", 1, on, flat, skip), (int)base + 78);
    assert_int_equal((int)store_then_exit("32", 1, on, sect, skip), (int)base + 81);
    assert_int_equal((int)store_then_exit("32", 1, on, sect, noskip), (int)base + 81);
    assert_int_equal((int)store_then_exit("1", 1, on, sect, skip),
                     (int)store_then_exit("1", 1, off, sect, skip) + 78);
    /* the second CTA starts in the cycle the first's acknowledgement arrives, the cycle at
     * which the first ran alone ended: the same timeline again, shifted by the first's length */
    assert_int_equal((int)store_then_exit("32", 2, on, flat, skip),
                     2 * (int)store_then_exit("32", 1, on, flat, skip));
    assert_double_less(store_then_exit("32", 2, off, flat, skip), 2 * base);
}

/* A warp that issued its exit and waits for its stores' acknowledgements is waiting()
 * (GPGPU-Sim's functional_done), so SWL's GPGPU-Sim reading does not count it toward the
 * limit. Two warps store and exit under a limit of one: the second runs while the first
 * waits, and only the last acknowledgement (78 cycles, as above) adds to the run. */
static void test_finished_warp_leaves_the_limit(void **state)
{
    (void)state;
    const char *wl = ".array h i32 [64] zero\n"
                     ".kernel k block=64\n"
                     "    mov r0, %laneid\n"
                     "    shl r1, r0, 2\n"
                     "    st.i32 [h + r1], r0\n"
                     "    exit\n"
                     ".host\n"
                     "    launch k grid=1\n";
    const char *off[] = {TINY, "sched.policy=swl", "swl.limit=1", "swl.reading=gpgpusim", NULL};
    const char *on[] = {
        TINY, "sched.policy=swl", "swl.limit=1", "swl.reading=gpgpusim", "sm.store_acks=true",
        NULL};
    sim_metrics a, b;
    test_sim_ok(wl, off, NULL, &a);
    test_sim_ok(wl, on, NULL, &b);
    assert_int_equal((int)b.cycles, (int)a.cycles + 78);
}

/* Skipping idle cycles changes nothing with either path on (the shared access's time in the
 * unit feeds the SM's wake). */
static void test_skip_exact(void **state)
{
    (void)state;
    const char *skip[] = {"gpu.sms=4", "sm.shared_path=ldst", "sm.atomic_path=serial", NULL};
    const char *noskip[] = {"gpu.sms=4", "sm.shared_path=ldst", "sm.atomic_path=serial",
                            "sim.skip_idle=false", NULL};
    const char *w32[] = {"w=32", NULL};
    const char *texts[] = {"matmul", "needle", TRANSPOSE, HISTOGRAM};
    const char *const *wps[] = {NULL, (const char *const[]){"nb=8", NULL}, w32, NULL};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        sim_metrics a, b;
        test_sim_ok(texts[i], skip, wps[i], &a);
        test_sim_ok(texts[i], noskip, wps[i], &b);
        if (memcmp(&a, &b, sizeof a) != 0)
            fail_msg("workload %zu: skipping idle cycles changed the results (%.0f vs %.0f "
                     "cycles)",
                     i, a.cycles, b.cycles);
    }
}

/* ------------------------------------------- the order queued loads leave in ---- */

typedef struct load_order {
    int n;
    int warp[64];
    uint64_t cycle[64];
} load_order;

static void log_load(void *arg, const l1_access_record *r)
{
    load_order *o = arg;
    if (strcmp(r->kind, "load") != 0 || o->n == 64) return;
    o->warp[o->n] = r->warp, o->cycle[o->n] = r->cycle, o->n++;
}

/* Four warps, one scheduler (LRR), four collector units, the L1D off (each line one cycle of
 * the load/store unit): w0 loads 32 lines, w1..w3 one line each, which wait in collector units
 * meanwhile. o gets every access: warp and cycle. */
static void queued_load_order(const char *order, load_order *o)
{
    const char *wl = ".array a i32 [32*1024] zero\n"
                     ".kernel k block=128\n"
                     "    mov r0, %warpid\n"
                     "    mov r1, %laneid\n"
                     "    setp.eq p0, r0, 0\n"
                     "    selp r2, 128, 4, p0\n"
                     "    mul r3, r1, r2\n"
                     "    shl r4, r0, 12\n"
                     "    add r5, r3, r4\n"
                     "    ld.i32 r6, [a + r5]\n"
                     "    exit\n"
                     ".host\n"
                     "    launch k grid=1\n";
    char ord[64];
    snprintf(ord, sizeof ord, "sm.mem_queue_order=%s", order);
    const char *sets[] = {"gpu.sms=1",
                          "sm.schedulers=1",
                          "sm.simd_width=32",
                          "sched.policy=lrr",
                          "sm.operand_collector=true",
                          "sm.oc_units=4",
                          "sm.mem_queue=4",
                          "sm.mem_queue_collectors=true",
                          "l1d.enabled=false",
                          ord,
                          NULL};
    memset(o, 0, sizeof *o);
    sim_options opt = {0};
    opt.l1_observer = log_load;
    opt.l1_observer_arg = o;
    sim_metrics m;
    test_sim_opt_ok(wl, sets, &opt, &m);
}

/* The loads issue at 43 (w0), 44, 45 and 46. w0's takes unit 0 (the lowest free at pass 44),
 * enters the load/store unit at the end of 45 and leaves unit 0 then; its 32 lines take
 * cycles 46..77. w1's takes unit 1 (unit 0 is still held at pass 45), w2's unit 0 (free from
 * pass 46), w3's unit 2. In issue order they reach the unit at 78, 79 and 80. In the
 * collector's order the search at 78 starts after unit 0 (w0's, the last dispatched): w1
 * (unit 1); at 79 after unit 1: w3 (unit 2); at 80 after unit 2, round to unit 0: w2. */
static void test_queued_loads_leave_in_collector_order(void **state)
{
    (void)state;
    const int by_issue[3] = {1, 2, 3}, by_collector[3] = {1, 3, 2};
    for (int k = 0; k < 2; k++) {
        load_order o;
        queued_load_order(k ? "collector" : "issue", &o);
        assert_int_equal(o.n, 35);
        for (int i = 0; i < 32; i++) {
            assert_int_equal(o.warp[i], 0);
            assert_int_equal((int)o.cycle[i], 46 + i);
        }
        for (int i = 0; i < 3; i++) {
            assert_int_equal(o.warp[32 + i], k ? by_collector[i] : by_issue[i]);
            assert_int_equal((int)o.cycle[32 + i], 78 + i);
        }
    }
}

/* l1d.access_order: one warp's load, lane l at byte 16 l, touches lines 0, 128, 256 and 384,
 * one a cycle of the load/store unit (the L1D off). In lane order they leave lowest first;
 * descending (GPGPU-Sim's accessq_back), 384 first, on the same cycles. */
typedef struct line_order {
    int n;
    uint64_t line[8], cycle[8];
} line_order;

static void log_line(void *arg, const l1_access_record *r)
{
    line_order *o = arg;
    if (strcmp(r->kind, "load") != 0 || o->n == 8) return;
    o->line[o->n] = r->line, o->cycle[o->n] = r->cycle, o->n++;
}

static void test_access_order(void **state)
{
    (void)state;
    const char *wl = ".array a i32 [1024] zero\n"
                     ".kernel k block=32\n"
                     "    mov r1, %laneid\n"
                     "    shl r3, r1, 4\n"
                     "    ld.i32 r6, [a + r3]\n"
                     "    exit\n"
                     ".host\n"
                     "    launch k grid=1\n";
    line_order o[2];
    for (int k = 0; k < 2; k++) {
        const char *sets[] = {"gpu.sms=1", "sm.schedulers=1", "l1d.enabled=false",
                              k ? "l1d.access_order=descending" : "l1d.access_order=lane", NULL};
        memset(&o[k], 0, sizeof o[k]);
        sim_options opt = {0};
        opt.l1_observer = log_line;
        opt.l1_observer_arg = &o[k];
        sim_metrics m;
        test_sim_opt_ok(wl, sets, &opt, &m);
        assert_int_equal(o[k].n, 4);
    }
    uint64_t base = o[0].line[0];
    for (int i = 0; i < 4; i++) {
        assert_int_equal(o[0].line[i], base + 128u * (uint64_t)i);
        assert_int_equal(o[1].line[i], base + 128u * (uint64_t)(3 - i));
        assert_int_equal(o[1].cycle[i], o[0].cycle[i]);
        assert_int_equal(o[0].cycle[i], o[0].cycle[0] + (uint64_t)i);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_conflict_degree_exact_cycles),
        cmocka_unit_test(test_conflict_degree_over_strides),
        cmocka_unit_test(test_warp_behind_waits_for_the_unit),
        cmocka_unit_test(test_mem_queue_path),
        cmocka_unit_test(test_mem_queue_holds_collectors),
        cmocka_unit_test(test_queued_loads_leave_in_collector_order),
        cmocka_unit_test(test_access_order),
        cmocka_unit_test(test_transpose_padding_avoids_conflicts),
        cmocka_unit_test(test_atomic_requests),
        cmocka_unit_test(test_atomic_sectors),
        cmocka_unit_test(test_atomic_wait_holds_the_warp),
        cmocka_unit_test(test_store_acks_hold_the_warp),
        cmocka_unit_test(test_finished_warp_leaves_the_limit),
        cmocka_unit_test(test_histogram_one_bin_serialises),
        cmocka_unit_test(test_skip_exact),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
