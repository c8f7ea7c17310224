/* Tests of GPGPU-Sim's further DRAM timings (dram.t_rrd, t_rc, bank groups with t_ccdl and
 * t_rtpl, the read/write turnarounds, t_wtp, the dual command bus): hand-worked timelines on
 * one channel, each against the same run with the timing off.
 *
 * The machine: one SM, one partition, latency L = 10, 256 B/cycle ports (every packet one
 * cycle), L2 hit latency H = 100, DRAM 128 B/cycle (a line's burst is 1 cycle), t_cl = t_rcd =
 * t_rp = 12, t_ras = 28; 16 lines per row and 16 banks, so lines 0..15 are bank 0 row 0, lines
 * 16..31 bank 1 row 0, lines 32..47 bank 2 row 0. A read sent at s that misses on a closed bank
 * arrives at the partition at s + 11 and is queued for DRAM then; its activation issues then,
 * its column t_rcd later, its data moves t_cl after the column for one cycle, and it reaches
 * the SM H + 11 cycles after its data is in:
 *   reply = column + t_cl + 1 + H + 11 = column + 124. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "core/mem/memsys.h"
#include "tests/support/memsys_support.h"

/* tm_base_config with one partition, one-cycle packets and one-cycle line bursts. */
static memsys_config channel_config(void)
{
    memsys_config c = tm_base_config();
    c.icnt_bytes_per_cycle = 256;
    c.partitions = 1;
    c.dram_bytes_per_cycle = 128;
    return c;
}

typedef struct send {
    uint64_t at;   /* cycle sent */
    uint64_t line; /* line number */
    mem_kind kind;
} send;

/* Sends each read or write at its cycle (in order) and returns in reply[i] the arrival of the
 * i-th send's reply (reads only; writes get none). */
static void run(const memsys_config *c, const send *s, int n, uint64_t *reply)
{
    memsys *m = tm_make(c);
    uint64_t now = 0;
    int next = 0, reads = 0, got = 0;
    for (int i = 0; i < n; i++) {
        reply[i] = 0;
        reads += s[i].kind == MEM_READ;
    }
    for (; got < reads && now < 100000; now++) {
        while (next < n && s[next].at == now) {
            mem_packet p = tm_pkt(s[next].line * 128, 128, s[next].kind, 0, (uint32_t)next);
            assert_int_equal(memsys_send(m, &p, now), 0);
            next++;
        }
        memsys_tick(m, now);
        mem_packet r;
        while (memsys_pop_reply(m, 0, now, &r)) {
            reply[r.token] = now;
            got++;
        }
    }
    assert_int_equal(got, reads);
    tm_run_idle(m, &now);
    memsys_destroy(m);
}

/* Two reads to closed banks 0 and 1, a cycle apart: the second activation waits t_rrd after
 * the first. A: ACT 11, RD 23, reply 147. B: ACT 12, RD 24, reply 148; with t_rrd = 6 its ACT
 * is at 17, RD 29, reply 153. */
static void test_rrd(void **state)
{
    (void)state;
    const send s[] = {{0, 0, MEM_READ}, {1, 16, MEM_READ}};
    uint64_t r[2];
    memsys_config c = channel_config();
    run(&c, s, 2, r);
    assert_int_equal(r[0], 147);
    assert_int_equal(r[1], 148);
    c.dram_t_rrd = 6;
    run(&c, s, 2, r);
    assert_int_equal(r[0], 147);
    assert_int_equal(r[1], 153);
}

/* Two hits to one row of bank 0: B's column follows A's by the burst (1), or by t_ccdl = 4 in
 * one bank group: RD 24 (reply 148) or 27 (151). In banks 0 and 2 of two bank groups (bank b
 * in group b % 2) both are in group 0 and the same holds; in banks 0 and 1 they are in
 * different groups, and B's own activation at 12 gives RD 24 whatever t_ccdl is. */
static void test_ccdl_bank_groups(void **state)
{
    (void)state;
    uint64_t r[2];
    memsys_config c = channel_config();
    const send same_row[] = {{0, 0, MEM_READ}, {1, 1, MEM_READ}};
    run(&c, same_row, 2, r);
    assert_int_equal(r[1], 148);
    c.dram_t_ccdl = 4;
    run(&c, same_row, 2, r);
    assert_int_equal(r[0], 147);
    assert_int_equal(r[1], 151);

    c.dram_bank_groups = 2;
    const send same_group[] = {{0, 0, MEM_READ}, {1, 32, MEM_READ}};
    run(&c, same_group, 2, r);
    assert_int_equal(r[1], 151);
    const send other_group[] = {{0, 0, MEM_READ}, {1, 16, MEM_READ}};
    run(&c, other_group, 2, r);
    assert_int_equal(r[1], 148);
}

/* A read of line 0 opens bank 0 row 0; a read of line 256 (row block 16: row 1, bank
 * (16 ^ 1) % 16 = 1)... is another bank, so use line 272 (row block 17, row 1, bank 0): a row
 * conflict. A: ACT 11, RD 23. B arrives at 12 and waits for the precharge, allowed at
 * max(ACT + t_ras, RD + burst) = 39; ACT 51, RD 63, reply 187. With t_rc = 60 the activation
 * waits for 11 + 60 = 71: RD 83, reply 207. With t_rtpl = 20 (one bank group) the precharge
 * waits for 23 + 20 = 43: ACT 55, RD 67, reply 191. */
static void test_rc_and_rtpl(void **state)
{
    (void)state;
    const send s[] = {{0, 0, MEM_READ}, {1, 272, MEM_READ}};
    uint64_t r[2];
    memsys_config c = channel_config();
    run(&c, s, 2, r);
    assert_int_equal(r[0], 147);
    assert_int_equal(r[1], 187);
    c.dram_t_rc = 60;
    run(&c, s, 2, r);
    assert_int_equal(r[1], 207);
    c.dram_t_rc = 0;
    c.dram_t_rtpl = 20;
    run(&c, s, 2, r);
    assert_int_equal(r[1], 191);
}

/* A column and an activation possible in the same cycle: with t_rrd = 12, B's activation
 * (bank 1, arrived at 12) may issue at 11 + 12 = 23, the cycle of A's column. With one command
 * bus the column goes first and B's activation waits a cycle: ACT 24, RD 36, reply 160. With
 * two buses both issue at 23: RD 35, reply 159. */
static void test_dual_bus(void **state)
{
    (void)state;
    const send s[] = {{0, 0, MEM_READ}, {1, 16, MEM_READ}};
    uint64_t r[2];
    memsys_config c = channel_config();
    c.dram_t_rrd = 12;
    run(&c, s, 2, r);
    assert_int_equal(r[0], 147);
    assert_int_equal(r[1], 160);
    c.dram_dual_bus = 1;
    run(&c, s, 2, r);
    assert_int_equal(r[0], 147);
    assert_int_equal(r[1], 159);
}

/* Read and write turnarounds, and write to precharge, through a one-way L2: a write to line 0
 * leaves it dirty in the L2 (no DRAM traffic); a read of line 2 (the same set) at 100 arrives
 * at 111, misses, evicts line 0 and queues its write before its own read, both in bank 0 row 0.
 * ACT 111, write column 123, read column 124: reply 248. With t_wtr = 5 the read waits for 128:
 * reply 252. */
static void test_turnaround_and_wtp(void **state)
{
    (void)state;
    const send s[] = {{0, 0, MEM_WRITE}, {100, 2, MEM_READ}};
    uint64_t r[2];
    memsys_config c = channel_config();
    c.l2_sets = 2;
    c.l2_ways = 1;
    run(&c, s, 2, r);
    assert_int_equal(r[1], 248);
    c.dram_t_wtr = 5;
    run(&c, s, 2, r);
    assert_int_equal(r[1], 252);
    c.dram_t_wtr = 0;

    /* A read of line 273 (the other set; row block 17: bank 0, row 1) sent at 101 conflicts:
     * queued at 112, its precharge waits for max(ACT + t_ras, last column + burst) = 139: ACT
     * 151, RD 163, reply 287. With t_wtp = 40 the precharge waits for write column + 40 = 163:
     * ACT 175, RD 187, reply 311. t_rtw bounds a write after a read: no write follows the read
     * at 124, so it changes nothing here. */
    const send t[] = {{0, 0, MEM_WRITE}, {100, 2, MEM_READ}, {101, 273, MEM_READ}};
    uint64_t q[3];
    run(&c, t, 3, q);
    assert_int_equal(q[1], 248);
    assert_int_equal(q[2], 287);
    c.dram_t_rtw = 30;
    run(&c, t, 3, q);
    assert_int_equal(q[2], 287);
    c.dram_t_wtp = 40;
    run(&c, t, 3, q);
    assert_int_equal(q[2], 311);
}

/* A read then a write: a read of line 2 at 0 (ACT 11, RD 23, reply 147) opens bank 0 row 0
 * and fills set 0; a write of line 4 (set 0) at 50 replaces it (clean: no DRAM traffic); a
 * read of line 6 (set 0) at 100 arrives at 111 and evicts the dirty line 4. The row is still
 * open: the write's column at 111, the read's at 112, reply 236. With t_rtw = 200 a write
 * column waits for the last read column + 200 = 223, so the younger read goes first, at 111
 * (FR-FCFS: the oldest column that may issue): reply 235. */
static void test_rtw(void **state)
{
    (void)state;
    const send s[] = {{0, 2, MEM_READ}, {50, 4, MEM_WRITE}, {100, 6, MEM_READ}};
    uint64_t r[3];
    memsys_config c = channel_config();
    c.l2_sets = 2;
    c.l2_ways = 1;
    run(&c, s, 3, r);
    assert_int_equal(r[0], 147);
    assert_int_equal(r[2], 236);
    c.dram_t_rtw = 200;
    run(&c, s, 3, r);
    assert_int_equal(r[2], 235);
}

/* GPGPU-Sim's bank bits (dram.bank_bit = 8): the channel's address keeps bit 8 as the bank's
 * lowest bit and the other three above the 2 KB row's columns (bits 12..14), the row above
 * them. Line 256 (address 2^15) is then bank 0 row 1, a conflict with line 0 (bank 0 row 0);
 * row-block interleaving puts it in bank 1 row 1. Reads of lines 0 at 0 and 256 at 1: A ACT
 * 11, RD 23, reply 147; B, interleaved, ACT 12, RD 24, reply 148; with the bank bits its
 * precharge waits for A's ACT + t_ras = 39: ACT 51, RD 63, reply 187. Line 258 (bit 8 set) is
 * bank 1 either way: ACT 12, RD 24, reply 148. */
static void test_bank_bit(void **state)
{
    (void)state;
    const send s[] = {{0, 0, MEM_READ}, {1, 256, MEM_READ}};
    const send t[] = {{0, 0, MEM_READ}, {1, 258, MEM_READ}};
    uint64_t r[2];
    memsys_config c = channel_config();
    run(&c, s, 2, r);
    assert_int_equal(r[1], 148);
    c.dram_bank_bit = 8;
    run(&c, s, 2, r);
    assert_int_equal(r[0], 147);
    assert_int_equal(r[1], 187);
    run(&c, t, 2, r);
    assert_int_equal(r[1], 148);
}

/* The latency pipe's slots (dram.latency_first, dram.latency = 50, dram.queue = 2): reads of
 * lines 0, 1 and 2 (bank 0 row 0) sent at 0, 1 and 2 miss at 11, 12 and 13. A enters the pipe
 * at 11 and the queue at 61: ACT 61, RD 73, reply 197; B the queue at 62, RD 74, reply 198.
 * When the pipe holds slots of the queue, C finds none at 13 and waits for A's column (73):
 * queue at 123, RD 123, reply 247. With dram.inflight = 8 it enters the pipe at 13: queue at
 * 63, RD 75, reply 199. With dram.latency = 5 as well, A and B are queued at 16 and 17
 * (ACT 16, RD 28 and 29). C, in the pipe at 13 while the queue had room, finds it full at 18
 * and waits at the pipe's end for A's column: queued at 28, RD 30, reply 154. Sent at 10
 * instead, C misses at 21 with the queue full and may not enter the pipe until A's column:
 * pipe at 28, queue at 33, RD 33, reply 157. */
static void test_inflight(void **state)
{
    (void)state;
    const send s[] = {{0, 0, MEM_READ}, {1, 1, MEM_READ}, {2, 2, MEM_READ}};
    uint64_t r[3];
    memsys_config c = channel_config();
    c.dram_latency_first = 1;
    c.dram_latency = 50;
    c.dram_queue = 2;
    run(&c, s, 3, r);
    assert_int_equal(r[0], 197);
    assert_int_equal(r[1], 198);
    assert_int_equal(r[2], 247);
    c.dram_inflight = 8;
    run(&c, s, 3, r);
    assert_int_equal(r[0], 197);
    assert_int_equal(r[1], 198);
    assert_int_equal(r[2], 199);
    c.dram_latency = 5;
    run(&c, s, 3, r);
    assert_int_equal(r[2], 154);
    const send late[] = {{0, 0, MEM_READ}, {1, 1, MEM_READ}, {10, 2, MEM_READ}};
    run(&c, late, 3, r);
    assert_int_equal(r[1], 153);
    assert_int_equal(r[2], 157);
}

static void test_bad_timing_configs(void **state)
{
    (void)state;
    memsys_config c = channel_config();
    c.dram_bank_groups = 3; /* does not divide 16 banks */
    memsys *m = NULL;
    char err[256] = "";
    assert_int_equal(memsys_create(&m, &c, err, sizeof err), -1);
    assert_non_null(strstr(err, "dram_bank_groups"));
    c = channel_config();
    c.dram_t_rrd = -1;
    assert_int_equal(memsys_create(&m, &c, err, sizeof err), -1);
    assert_non_null(strstr(err, "dram_t_rrd"));
    c = channel_config();
    c.dram_inflight = 1; /* below the queue */
    assert_int_equal(memsys_create(&m, &c, err, sizeof err), -1);
    assert_non_null(strstr(err, "dram_inflight"));
    c = channel_config();
    c.dram_bank_bit = 11; /* the row's top: no column bits above it */
    assert_int_equal(memsys_create(&m, &c, err, sizeof err), -1);
    assert_non_null(strstr(err, "dram_bank_bit"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rrd),
        cmocka_unit_test(test_ccdl_bank_groups),
        cmocka_unit_test(test_rc_and_rtpl),
        cmocka_unit_test(test_dual_bus),
        cmocka_unit_test(test_turnaround_and_wtp),
        cmocka_unit_test(test_rtw),
        cmocka_unit_test(test_bank_bit),
        cmocka_unit_test(test_inflight),
        cmocka_unit_test(test_bad_timing_configs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
