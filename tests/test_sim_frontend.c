/* The SM front end behind sm.fetch (instruction buffers), sm.operand_collector (collector
 * units, register banks, ID_OC and OC_EX) and sm.sub_core: exact cycle counts on tiny kernels,
 * worked out by hand from GPGPU-Sim's rules (shader.cc: fetch, decode, opndcoll_rfu_t), and
 * skipping idle cycles changing nothing with them on. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tests/support/support.h"

/* One SM, one scheduler, full-width units (a warp per cycle), 4-cycle ALU latency. */
#define TINY                                                                                       \
    "gpu.sms=1", "sm.schedulers=1", "sm.simd_width=32", "sm.int_latency=4", "sm.branch_latency=2"

static uint64_t cycles_of(const char *text, const char *const *sets)
{
    char err[1024] = "";
    sim_metrics m;
    sim_status st = test_sim(text, sets, NULL, &m, err, sizeof err);
    if (st != SIM_OK) fail_msg("simulation failed: %s", err);
    return m.cycles;
}

static const char two_movs[] = ".kernel k block=32\n"
                               "    mov r0, 1\n"
                               "    mov r1, 2\n"
                               "    exit\n"
                               ".host\n"
                               "    launch k grid=1\n";

/* Without fetch: movs at 0 and 1, exit at 2, last write-back at 5: 6 cycles.
 * Fetch, one pass a cycle: the new warp's buffer is empty; fetched at 0, decoded at 1 after
 * issue, so the movs issue at 2 and 3; the buffer is empty again at 3, refetched at 3, exit at
 * 5; last write-back 3+4 = 7: 8 cycles.
 * Two passes: a warp fetched in the first pass is decoded by the second, so it can issue the
 * next cycle: movs at 1 and 2, refetch at 2, exit at 3, write-back at 6: 7 cycles.
 * A one-entry buffer: fetch 0, mov 2, fetch 2, mov 4, fetch 4, exit 6, write-back 8: 9. */
static void test_fetch_buffer_timeline(void **state)
{
    (void)state;
    const char *off[] = {TINY, NULL};
    const char *on[] = {TINY, "sm.fetch=true", NULL};
    const char *two[] = {TINY, "sm.fetch=true", "sm.fetch_throughput=2", NULL};
    const char *one[] = {TINY, "sm.fetch=true", "sm.ibuffer=1", NULL};
    assert_int_equal((int)cycles_of(two_movs, off), 6);
    assert_int_equal((int)cycles_of(two_movs, on), 8);
    assert_int_equal((int)cycles_of(two_movs, two), 7);
    assert_int_equal((int)cycles_of(two_movs, one), 9);
}

/* gpu.cta_dispatch_late: the CTA is handed out after the SMs ran the launch cycle, so it works
 * from cycle 1 and every time of test_fetch_buffer_timeline moves one cycle later: 7 cycles
 * without fetch, 9 with it. */
static void test_cta_dispatch_late(void **state)
{
    (void)state;
    const char *off[] = {TINY, "gpu.cta_dispatch_late=true", NULL};
    const char *on[] = {TINY, "sm.fetch=true", "gpu.cta_dispatch_late=true", NULL};
    assert_int_equal((int)cycles_of(two_movs, off), 7);
    assert_int_equal((int)cycles_of(two_movs, on), 9);
}

/* Round robin from the warp after the last fetched, which starts as warp 0 (GPGPU-Sim's
 * m_last_warp_fetched): two warps start with empty buffers; one pass a cycle fetches warp 1 at
 * 0 and warp 0 at 1 (ready at 2 and 3). Warp 1 issues its movs at 2 and 3 (GTO keeps it) and is
 * refetched at 3 (ready 5); warp 0 issues its movs at 4 and 5 (GTO keeps it over warp 1) and is
 * refetched at 5; warp 1 exits at 6, warp 0 at 7. The last write-back is warp 0's second mov,
 * 5+4 = 9: 10 cycles. */
static void test_fetch_round_robin(void **state)
{
    (void)state;
    const char *wl = ".kernel k block=64\n"
                     "    mov r0, 1\n"
                     "    mov r1, 2\n"
                     "    exit\n"
                     ".host\n"
                     "    launch k grid=1\n";
    const char *on[] = {TINY, "sm.fetch=true", "sched.policy=gto", NULL};
    assert_int_equal((int)cycles_of(wl, on), 10);
}

/* Two banks: r0 and r2 of warp 0 share bank 0, r0 and r1 do not. With the collector, one port
 * pass a cycle:
 *   mov r0: issue 0, collector unit at 1, no reads, dispatch 2, unit starts 3, written 7
 *   mov rX: issue 1 (ID_OC freed at 1), unit at 2, dispatch 3 (OC_EX freed at 3), starts 4,
 *           written 8
 *   add r3, r0, rX: issue 8, unit at 9, reads from 10; different banks: both at 10,
 *           dispatch 11, starts 12, written 16: 17 cycles; same bank: reads at 10 and 11,
 *           dispatch 12, starts 13, written 17: 18 cycles.
 * Two passes a cycle hide the one conflict (reads in passes 17 and 18, dispatch in pass 19,
 * cycle 9 either way; see the comment in the test): 15 cycles both. Without the collector:
 * movs at 0 and 1, add at 5, written 9: 10 cycles. */
static void test_collector_bank_conflict(void **state)
{
    (void)state;
    const char *same = ".kernel k block=32\n"
                       "    mov r0, 1\n"
                       "    mov r2, 2\n"
                       "    add r3, r0, r2\n"
                       "    exit\n"
                       ".host\n"
                       "    launch k grid=1\n";
    const char *diff = ".kernel k block=32\n"
                       "    mov r0, 1\n"
                       "    mov r1, 2\n"
                       "    add r3, r0, r1\n"
                       "    exit\n"
                       ".host\n"
                       "    launch k grid=1\n";
    const char *off[] = {TINY, "sm.reg_banks=2", NULL};
    const char *on[] = {TINY, "sm.operand_collector=true", "sm.reg_banks=2", NULL};
    const char *ports2[] = {TINY, "sm.operand_collector=true", "sm.reg_banks=2",
                            "sm.reg_port_throughput=2", NULL};
    assert_int_equal((int)cycles_of(same, off), 10);
    assert_int_equal((int)cycles_of(diff, off), 10);
    assert_int_equal((int)cycles_of(diff, on), 17);
    assert_int_equal((int)cycles_of(same, on), 18);
    /* passes: mov r0 unit at 2, dispatch 3 (cycle 1), starts 2, written 6; mov r2 issue 1,
     * unit at 4, dispatch 5 (cycle 2), starts 3, written 7; add issue 7, unit at 16 */
    assert_int_equal((int)cycles_of(diff, ports2), 15);
    assert_int_equal((int)cycles_of(same, ports2), 15);
}

/* One collector unit and a one-slot OC_EX: three independent movs issue at 0, 1, 2 (each
 * frees ID_OC when it gets the unit the next cycle) and start at 3, 4, 5; the unit frees at
 * each dispatch. The last is written at 9: with the exit at 3, 10 cycles. A slow unit (half
 * width: one instruction every 2 cycles) holds OC_EX: starts 3, 5, 7, so OC_EX frees at 5 for
 * the third's dispatch in 5: written 11, 12 cycles. */
static void test_collector_unit_backpressure(void **state)
{
    (void)state;
    const char *wl = ".kernel k block=32\n"
                     "    mov r0, 1\n"
                     "    mov r1, 2\n"
                     "    mov r2, 3\n"
                     "    exit\n"
                     ".host\n"
                     "    launch k grid=1\n";
    const char *fast[] = {TINY, "sm.operand_collector=true", "sm.oc_units=1", NULL};
    const char *slow[] = {TINY, "sm.operand_collector=true", "sm.oc_units=1", "sm.simd_width=16",
                          NULL};
    assert_int_equal((int)cycles_of(wl, fast), 10);
    assert_int_equal((int)cycles_of(wl, slow), 12);
}

/* GPGPU-Sim's sub-core dispatch (sm.oc_dispatch=unit): of a scheduler's ready collector units,
 * the lowest-numbered goes first, so an instruction in unit 1 waits while unit 0 is refilled.
 * Two warps (LRR, one scheduler, two units, a one-slot ID_OC and OC_EX, half-width units: one
 * start every 2 cycles) run mov r0; mov r1; mov r2; add r3, r1, r1. Each mov is ready the step
 * after it takes a unit. In issue order, w0's movs start at 3, 7, 11 and w1's at 5, 9, 13 (r1
 * written at 11 and 13); w0's add issues at 11, reads r1 at 13, starts 15; w1's issues at 13,
 * reads at 15, starts 17, written 21: 22 cycles. In unit order w1's mov r1 takes unit 1 at 4
 * (unit 0 holds w0's mov r1) and waits there while unit 0 is ready each time OC_EX frees: w0's
 * movs start at 3, 7, 9, w1's mov r0 at 5, its mov r2 at 11, its mov r1 only at 13 (written
 * 17). w0's add issues at 11, starts 15; w1's issues at 17, takes unit 0 at 18, reads r1 at 19,
 * starts 21, written 25: 26 cycles. */
static void test_collector_unit_order(void **state)
{
    (void)state;
    const char *wl = ".kernel k block=64\n"
                     "    mov r0, 1\n"
                     "    mov r1, 2\n"
                     "    mov r2, 3\n"
                     "    add r3, r1, r1\n"
                     "    exit\n"
                     ".host\n"
                     "    launch k grid=1\n";
#define UNITS2                                                                                     \
    TINY, "sched.policy=lrr", "sm.simd_width=16", "sm.operand_collector=true", "sm.oc_units=2",    \
        "sm.sub_core=true"
    const char *issue[] = {UNITS2, NULL};
    const char *unit[] = {UNITS2, "sm.oc_dispatch=unit", NULL};
    const char *unit_noskip[] = {UNITS2, "sm.oc_dispatch=unit", "sim.skip_idle=false", NULL};
#undef UNITS2
    assert_int_equal((int)cycles_of(wl, issue), 22);
    assert_int_equal((int)cycles_of(wl, unit), 26);
    assert_int_equal((int)cycles_of(wl, unit_noskip), 26);
}

/* The unit order is the sub-core model's: without sm.sub_core it is refused, by name. */
static void test_collector_unit_order_needs_sub_core(void **state)
{
    (void)state;
    const char *sets[] = {"sm.operand_collector=true", "sm.oc_dispatch=unit", NULL};
    char err[1024] = "";
    sim_metrics m;
    assert_int_equal(test_sim("stream", sets, NULL, &m, err, sizeof err), SIM_BAD_CONFIG);
    assert_non_null(strstr(err, "sm.oc_dispatch=unit"));
}

/* Two warps on two schedulers each issue one SFU instruction at 0 (4 lanes: the unit is busy
 * 8 cycles). A shared SFU makes warp 1 wait until 8, written at 28: 29 cycles; with a sub-core
 * SFU each, both are written at 20: 21 cycles. */
static void test_sub_core_sfu(void **state)
{
    (void)state;
    const char *wl = ".kernel k block=64\n"
                     "    fsqrt r1, r0\n"
                     "    exit\n"
                     ".host\n"
                     "    launch k grid=1\n";
    const char *shared[] = {"gpu.sms=1", "sm.schedulers=2", "sm.sfu_width=4", "sm.sfu_latency=20",
                            NULL};
    const char *sub[] = {"gpu.sms=1",         "sm.schedulers=2",  "sm.sfu_width=4",
                         "sm.sfu_latency=20", "sm.sub_core=true", NULL};
    assert_int_equal((int)cycles_of(wl, shared), 29);
    assert_int_equal((int)cycles_of(wl, sub), 21);
}

/* Two warps, one per scheduler: both take the SFU at cycle 3; warp 0 then adds the root. */
#define ROTATE_KERNEL                                                                              \
    ".kernel k block=64\n"                                                                         \
    "    mov r0, %warpid\n"                                                                        \
    "    mov r6, 7\n"                                                                              \
    "    mov r7, 7\n"                                                                              \
    "    fsqrt r1, r5\n"                                                                           \
    "    setp.ne p0, r0, 0\n"                                                                      \
    "    @p0 bra done\n"                                                                           \
    "    add r2, r1, r1\n"                                                                         \
    "done:\n"                                                                                      \
    "    exit\n"                                                                                   \
    ".host\n"                                                                                      \
    "    launch k grid=1\n"

/* Two warps on two schedulers contend for the shared SFU at cycle 3 (4 lanes: busy 8 cycles);
 * only warp 0 then adds the root (warp 1 branches past it). Scheduler 0 first every cycle:
 * warp 0's fsqrt at 3, written 23, add at 23, written 27; warp 1's at 11, written 31: 32
 * cycles. sm.issue_rotate (GPGPU-Sim's Issue_Prio): at cycle 3 scheduler 3 mod 2 = 1 goes
 * first: warp 1's fsqrt at 3 (written 23), warp 0's at 11, written 31, add written 35: 36. */
static void test_issue_rotate(void **state)
{
    (void)state;
    const char *wl = ROTATE_KERNEL;
#define TWO_SCHED                                                                                  \
    "gpu.sms=1", "sm.schedulers=2", "sm.simd_width=32", "sm.int_latency=4", "sm.sfu_width=4",      \
        "sm.sfu_latency=20", "sm.branch_latency=2"
    const char *fixed[] = {TWO_SCHED, NULL};
    const char *rotate[] = {TWO_SCHED, "sm.issue_rotate=true", NULL};
    assert_int_equal((int)cycles_of(wl, fixed), 32);
    assert_int_equal((int)cycles_of(wl, rotate), 36);
    /* counting only the cycles with a CTA changes nothing while the SM always has one */
    const char *active[] = {TWO_SCHED, "sm.issue_rotate=true", "sm.issue_rotate_active=true", NULL};
    assert_int_equal((int)cycles_of(wl, active), 36);
    /* gpu.cta_dispatch_late: the CTA comes after cycle 0 and its contention is at cycle 4.
     * Every cycle counted, 4 mod 2 puts scheduler 0 first: 1 + 32. Only the cycles with a CTA
     * counted, as GPGPU-Sim's Issue_Prio starts at a core's first active cycle, cycle 4 is
     * step 3 of the rotation (cycle 1 its step 0): scheduler 1 first, 1 + 36. */
    const char *late[] = {TWO_SCHED, "sm.issue_rotate=true", "gpu.cta_dispatch_late=true", NULL};
    const char *late_active[] = {TWO_SCHED, "sm.issue_rotate=true", "sm.issue_rotate_active=true",
                                 "gpu.cta_dispatch_late=true", NULL};
    assert_int_equal((int)cycles_of(wl, late), 33);
    assert_int_equal((int)cycles_of(wl, late_active), 37);
}

/* --issue-trace (sim_options.issue_trace) lists the issues of the rotating run above as the
 * comment there computes them: both warps' first movs at 0 (scheduler 0 first, then 1), at 1
 * scheduler 1 first, warp 1's fsqrt (pc 3) at 3 and warp 0's at 11, warp 0's add (pc 6) at 31. */
static void test_issue_trace(void **state)
{
    (void)state;
    const char *rotate[] = {TWO_SCHED, "sm.issue_rotate=true", NULL};
    FILE *f = tmpfile();
    assert_non_null(f);
    sim_options opt = {0};
    opt.issue_trace = f;
    sim_metrics m;
    test_sim_opt_ok(ROTATE_KERNEL, rotate, &opt, &m);
    assert_int_equal((int)m.cycles, 36);
    rewind(f);
    char text[1024];
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = 0;
    fclose(f);
    const char *first = "0,0,0,0,0\n0,0,1,0,1\n0,1,1,1,1\n0,1,0,1,0\n";
    assert_int_equal(strncmp(text, first, strlen(first)), 0);
    assert_non_null(strstr(text, "\n0,3,1,3,1\n"));
    assert_non_null(strstr(text, "\n0,11,0,3,0\n"));
    assert_non_null(strstr(text, "\n0,31,0,6,0\n"));
    int lines = 0;
    for (const char *c = text; *c; c++)
        lines += *c == '\n';
    assert_int_equal(lines, (int)m.warp_insts);
}

/* The kernel above launched twice (the second starts at the first's end, 32 or 36). Counting
 * every cycle, the second kernel's contention at its cycle 3 is at 39 with sm.issue_rotate:
 * scheduler 1 first again, 36 + 36 = 72. sm.issue_rotate_active (Issue_Prio advances only in
 * cycles with a CTA): the CTA left at 32 (warp 0's exit after its add at 31), so cycles 33 to
 * 35 do not count and 39 is the rotation's 36th step: scheduler 0 first, 36 + 32 = 68. */
static void test_issue_rotate_active(void **state)
{
    (void)state;
    const char *wl = ROTATE_KERNEL "    launch k grid=1\n";
    const char *fixed[] = {TWO_SCHED, NULL};
    const char *every[] = {TWO_SCHED, "sm.issue_rotate=true", NULL};
    const char *active[] = {TWO_SCHED, "sm.issue_rotate=true", "sm.issue_rotate_active=true", NULL};
    assert_int_equal((int)cycles_of(wl, fixed), 64);
    assert_int_equal((int)cycles_of(wl, every), 72);
    assert_int_equal((int)cycles_of(wl, active), 68);
}

/* A dependent add after a mov, 4-cycle INT latency: mov at 0, written at 4, add at 4, written
 * at 8: 9 cycles. With sm.result_delay=2 (GPGPU-Sim's EX_WB register and write-back) each
 * result comes 2 cycles later: mov written at 6, add at 6, written at 12: 13 cycles. */
static void test_result_delay(void **state)
{
    (void)state;
    const char *wl = ".kernel k block=32\n"
                     "    mov r0, 1\n"
                     "    add r1, r0, r0\n"
                     "    exit\n"
                     ".host\n"
                     "    launch k grid=1\n";
    const char *none[] = {TINY, NULL};
    const char *two[] = {TINY, "sm.result_delay=2", NULL};
    assert_int_equal((int)cycles_of(wl, none), 9);
    assert_int_equal((int)cycles_of(wl, two), 13);
}

/* Half-width INT units: an integer instruction holds its scheduler's unit 2 cycles. */
#define HALF                                                                                       \
    "gpu.sms=1", "sm.schedulers=1", "sm.simd_width=16", "sm.int_latency=4", "sm.branch_latency=2"

/* sm.exit_on_int: three warps of `mov r0; exit`. Without it the movs issue at 0, 2 and 4 (the
 * INT unit takes one every 2 cycles) and the exits fill the gaps (1, 3, 5); the last mov is
 * written at 4+4 = 8: 9 cycles. With it the exits need the unit too: movs and exits alternate
 * every 2 cycles (mov 0, exit 2, mov 4, exit 6, mov 8, exit 10; GTO keeps the oldest ready
 * warp), the last mov written at 12: 13 cycles. With sm.exit_ii=1 an exit holds the unit one
 * cycle (GPGPU-Sim's EXIT_OPS): mov 0, exit 2, mov 3, exit 5, mov 6, exit 8, the last mov
 * written at 10: 11 cycles. */
static void test_exit_on_int(void **state)
{
    (void)state;
    const char *wl = ".kernel k block=96\n"
                     "    mov r0, 1\n"
                     "    exit\n"
                     ".host\n"
                     "    launch k grid=1\n";
    const char *off[] = {HALF, "sched.policy=gto", NULL};
    const char *on[] = {HALF, "sched.policy=gto", "sm.exit_on_int=true", NULL};
    const char *one[] = {HALF, "sched.policy=gto", "sm.exit_on_int=true", "sm.exit_ii=1", NULL};
    assert_int_equal((int)cycles_of(wl, off), 9);
    assert_int_equal((int)cycles_of(wl, on), 13);
    assert_int_equal((int)cycles_of(wl, one), 11);
    /* through the collector units, in their dispatch order: the exit's hold reaches the unit
     * there too (2, the unit's own, is the default; 1 frees the unit sooner) */
#define UNIT_ORDER                                                                                 \
    HALF, "sched.policy=gto", "sm.exit_on_int=true", "sm.operand_collector=true",                  \
        "sm.sub_core=true", "sm.oc_units_sfu=0", "sm.oc_dispatch=unit"
    const char *oc0[] = {UNIT_ORDER, NULL};
    const char *oc2[] = {UNIT_ORDER, "sm.exit_ii=2", NULL};
    const char *oc1[] = {UNIT_ORDER, "sm.exit_ii=1", NULL};
#undef UNIT_ORDER
    uint64_t c0 = cycles_of(wl, oc0);
    assert_int_equal((int)cycles_of(wl, oc2), (int)c0);
    assert_in_range(cycles_of(wl, oc1), 0, c0 - 1);
}

/* sm.branch_unit_ii: two warps of `bra next; next: mov r0; exit`, full-width units, GTO.
 * Without a unit: bras at 0 and 1 (each warp ready 2 cycles later), warp 0's mov at 2 and exit
 * at 3, warp 1's mov at 4 (written at 8) and exit at 5: 9 cycles. With a branch unit held 4
 * cycles warp 1's bra waits for 4: its mov at 6, written at 10: 11 cycles. */
static void test_branch_unit(void **state)
{
    (void)state;
    const char *wl = ".kernel k block=64\n"
                     "    bra next\n"
                     "next:\n"
                     "    mov r0, 1\n"
                     "    exit\n"
                     ".host\n"
                     "    launch k grid=1\n";
    const char *off[] = {TINY, "sched.policy=gto", NULL};
    const char *on[] = {TINY, "sched.policy=gto", "sm.branch_unit_ii=4", NULL};
    assert_int_equal((int)cycles_of(wl, off), 9);
    assert_int_equal((int)cycles_of(wl, on), 11);
}

/* A kernel of n movs and an exit, launched `launches` times, `block` threads. */
static void movs_kernel(char *buf, size_t len, int block, int n, int launches)
{
    int k = snprintf(buf, len, ".kernel k block=%d\n", block);
    for (int i = 0; i < n; i++)
        k += snprintf(buf + k, len - (size_t)k, "    mov r%d, %d\n", i % 8, i);
    k += snprintf(buf + k, len - (size_t)k, "    exit\n.host\n");
    for (int i = 0; i < launches; i++)
        k += snprintf(buf + k, len - (size_t)k, "    launch k grid=1\n");
}

/* l1i.enabled: 16-byte instructions in 128-byte lines, 8 a line. A cold line costs one memory
 * round trip P, whatever fetches it: 8 instructions (one line) take P more than with a perfect
 * cache, 16 (two lines) 2P, two warps missing on the same line still P (one MSHR, merged), and
 * a second launch of the kernel nothing more (the L1I keeps its lines). Skipping idle cycles
 * changes nothing, and the cache needs the fetch stage. */
static void test_l1i_misses(void **state)
{
    (void)state;
#define L1I_SETS                                                                                   \
    "gpu.sms=1", "sm.schedulers=1", "sm.simd_width=32", "sm.int_latency=4", "sm.fetch=true"
    const char *perfect[] = {L1I_SETS, NULL};
    const char *cached[] = {L1I_SETS, "l1i.enabled=true", NULL};
    const char *noskip[] = {L1I_SETS, "l1i.enabled=true", "sim.skip_idle=false", NULL};
#undef L1I_SETS
    char one[1024], two[1024], twice[1024], warps[1024];
    movs_kernel(one, sizeof one, 32, 7, 1);
    movs_kernel(two, sizeof two, 32, 15, 1);
    movs_kernel(twice, sizeof twice, 32, 7, 2);
    movs_kernel(warps, sizeof warps, 64, 7, 1);
    int64_t p = (int64_t)cycles_of(one, cached) - (int64_t)cycles_of(one, perfect);
    assert_in_range(p, 101, INT64_MAX); /* a trip to DRAM and back */
    assert_int_equal((int64_t)cycles_of(two, cached) - (int64_t)cycles_of(two, perfect), 2 * p);
    assert_int_equal((int64_t)cycles_of(twice, cached) - (int64_t)cycles_of(twice, perfect), p);
    assert_int_equal((int64_t)cycles_of(warps, cached) - (int64_t)cycles_of(warps, perfect), p);
    char err[1024] = "";
    sim_metrics a, b;
    assert_int_equal(test_sim(two, cached, NULL, &a, err, sizeof err), SIM_OK);
    assert_int_equal(test_sim(two, noskip, NULL, &b, err, sizeof err), SIM_OK);
    assert_memory_equal(&a, &b, sizeof a);
    const char *no_fetch[] = {"l1i.enabled=true", NULL};
    assert_int_equal(test_sim(one, no_fetch, NULL, &a, err, sizeof err), SIM_BAD_CONFIG);
    assert_non_null(strstr(err, "sm.fetch"));
}

static void test_sub_core_shares_must_divide(void **state)
{
    (void)state;
    const char *sets[] = {"sm.schedulers=4", "sm.sub_core=true", "sm.operand_collector=true",
                          "sm.reg_banks=6", NULL};
    char err[1024] = "";
    sim_metrics m;
    assert_int_equal(test_sim("stream", sets, NULL, &m, err, sizeof err), SIM_BAD_CONFIG);
    assert_non_null(strstr(err, "sm.sub_core"));
}

/* Every front-end feature on (Volta's settings): skipping idle cycles changes nothing. */
static void test_frontend_skip_exact(void **state)
{
    (void)state;
#define VOLTA                                                                                      \
    "gpu.sms=2", "sm.schedulers=4", "sm.fetch=true", "sm.fetch_throughput=4",                      \
        "sm.operand_collector=true", "sm.sub_core=true", "sm.pipe_width=4", "sm.pipe_width_sfu=4", \
        "sm.reg_port_throughput=2", "sm.issue_rotate=true", "sm.result_delay=2", "sm.mem_queue=4", \
        "l1i.enabled=true"
    const char *names[] = {"kmeans", "matmul", "blackscholes"};
    const char *skip[] = {VOLTA, NULL};
    const char *noskip[] = {VOLTA, "sim.skip_idle=false", NULL};
    const char *uskip[] = {VOLTA,
                           "sm.mem_queue_collectors=true",
                           "sm.oc_dispatch=unit",
                           "sm.exit_on_int=true",
                           "sm.exit_ii=1",
                           "sm.branch_unit_ii=4",
                           "gpu.cta_per_cycle=1",
                           "gpu.cta_dispatch_late=true",
                           NULL};
    const char *unoskip[] = {VOLTA,
                             "sm.mem_queue_collectors=true",
                             "sm.oc_dispatch=unit",
                             "sm.exit_on_int=true",
                             "sm.exit_ii=1",
                             "sm.branch_unit_ii=4",
                             "gpu.cta_per_cycle=1",
                             "gpu.cta_dispatch_late=true",
                             "sim.skip_idle=false",
                             NULL};
    const char *off[] = {"gpu.sms=2", "sm.schedulers=4", "sm.sub_core=true", NULL};
    for (size_t i = 0; i < 3; i++) {
        char err[1024] = "";
        sim_metrics a, b, c, d, e;
        assert_int_equal(test_sim(names[i], skip, NULL, &a, err, sizeof err), SIM_OK);
        assert_int_equal(test_sim(names[i], noskip, NULL, &b, err, sizeof err), SIM_OK);
        assert_int_equal(test_sim(names[i], off, NULL, &c, err, sizeof err), SIM_OK);
        if (memcmp(&a, &b, sizeof a) != 0) fail_msg("%s: skipping changed the results", names[i]);
        if (i < 2) { /* the collector in sub-core order (kmeans found a skipped step) */
            assert_int_equal(test_sim(names[i], uskip, NULL, &d, err, sizeof err), SIM_OK);
            assert_int_equal(test_sim(names[i], unoskip, NULL, &e, err, sizeof err), SIM_OK);
            if (memcmp(&d, &e, sizeof d) != 0)
                fail_msg("%s: skipping changed the results in unit order", names[i]);
            assert_int_equal((int)d.warp_insts, (int)a.warp_insts);
        }
        /* the same work, in other cycles (later issue can also ease memory contention, as
         * on matmul, so the count may go either way) */
        assert_int_not_equal((uint64_t)a.cycles, (uint64_t)c.cycles);
        assert_int_equal((int)a.warp_insts, (int)c.warp_insts);
    }
}

/* GPGPU-Sim's two-level active pool changes every cycle, also while the SM would sleep: the
 * replayed cycles and the retry after a declined pick keep skipping exact (a ready warp left
 * pending behind a pool of barrier warps must not wait for an event that never comes). */
static void test_two_level_active_skip_exact(void **state)
{
    (void)state;
#define TLA                                                                                        \
    "gpu.sms=2", "sched.policy=two_level_active", "two_level_active.warps=2", "sm.fetch=true"
    const char *names[] = {"srad", "kmeans", "hotspot"};
    const char *skip[] = {TLA, NULL};
    const char *noskip[] = {TLA, "sim.skip_idle=false", NULL};
#undef TLA
    for (size_t i = 0; i < 3; i++) {
        char err[1024] = "";
        sim_metrics a, b;
        if (test_sim(names[i], skip, NULL, &a, err, sizeof err) != SIM_OK)
            fail_msg("%s: %s", names[i], err);
        if (test_sim(names[i], noskip, NULL, &b, err, sizeof err) != SIM_OK)
            fail_msg("%s: %s", names[i], err);
        if (memcmp(&a, &b, sizeof a) != 0) fail_msg("%s: skipping changed the results", names[i]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fetch_buffer_timeline),
        cmocka_unit_test(test_cta_dispatch_late),
        cmocka_unit_test(test_fetch_round_robin),
        cmocka_unit_test(test_collector_bank_conflict),
        cmocka_unit_test(test_collector_unit_backpressure),
        cmocka_unit_test(test_collector_unit_order),
        cmocka_unit_test(test_collector_unit_order_needs_sub_core),
        cmocka_unit_test(test_sub_core_sfu),
        cmocka_unit_test(test_issue_rotate),
        cmocka_unit_test(test_issue_rotate_active),
        cmocka_unit_test(test_issue_trace),
        cmocka_unit_test(test_result_delay),
        cmocka_unit_test(test_exit_on_int),
        cmocka_unit_test(test_branch_unit),
        cmocka_unit_test(test_l1i_misses),
        cmocka_unit_test(test_two_level_active_skip_exact),
        cmocka_unit_test(test_sub_core_shares_must_divide),
        cmocka_unit_test(test_frontend_skip_exact),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
