/* Tests of the memory system: exact unloaded timings, MSHR merging, DRAM bandwidth and
 * FR-FCFS, contention, backpressure, determinism and cycle skipping, configuration checks.
 *
 * Unloaded timings with tm_base_config (tests/support/memsys_support.c): latency L = 10,
 * 32 B/cycle ports, 8-byte header, 128-byte lines, L2 hit latency H = 100, DRAM 16 B/cycle so
 * burst = 8, t_cl = t_rcd = t_rp = 12, t_ras = 28:
 *   request hop  = L + ceil(8 / 32)          = 11
 *   reply hop    = L + ceil((8 + 128) / 32)  = 15
 *   L2 hit       = 11 + H + 15               = 126
 *   L2 miss, row closed = 11 + t_rcd + t_cl + burst + H + 15 = 158 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/mem/memsys.h"
#include "core/util/rng.h"
#include "tests/support/memsys_support.h"
#include "tests/support/support.h"

/* GTX480-like: 15 SMs, 6 partitions of 64 x 16 x 128 B. */
static memsys_config gtx480_config(void)
{
    memsys_config c = tm_base_config();
    c.num_sms = 15;
    c.partitions = 6;
    c.icnt_sm_queue = 16;
    return c;
}

/* gtx480_config with a two-entry injection queue, a small L2 and short queues: refused sends,
 * evictions and write-backs. */
static memsys_config contended_config(void)
{
    memsys_config c = gtx480_config();
    c.icnt_sm_queue = 2;
    c.l2_sets = 4;
    c.l2_mshrs = 4;
    c.dram_queue = 4;
    return c;
}

/* Reads p's line from *now until the memory system is idle again: the line is then in the L2. */
static void bring_into_l2(memsys *m, const mem_packet *p, uint64_t *now)
{
    mem_packet r;
    assert_int_equal(memsys_send(m, p, *now), 0);
    tm_wait_reply(m, p->sm, now, &r);
    tm_run_idle(m, now);
}

/* Functional warming (sampled simulation): a warmed line is an L2 hit at the hit's timing, and
 * warming, read or write, counts nothing, sends nothing and leaves nothing in flight. */
static void test_warm_makes_a_hit(void **state)
{
    (void)state;
    memsys_config c = tm_base_config();
    memsys *m = tm_make(&c);
    mem_packet r;
    uint64_t now = 0;
    memsys_warm(m, 0, 128, 0);
    memsys_warm(m, 4096 * 2, 32, 1); /* another line, written */
    memsys_stats st;
    memsys_get_stats(m, &st);
    assert_int_equal(st.l2_accesses + st.dram_reads + st.dram_writes + st.icnt_packets, 0);
    assert_false(memsys_busy(m));
    mem_packet p = tm_pkt(0, 128, MEM_READ, 0, 8);
    assert_int_equal(memsys_send(m, &p, now), 0);
    assert_int_equal(tm_wait_reply(m, 0, &now, &r), 126); /* the hit of the test below */
    memsys_get_stats(m, &st);
    assert_int_equal(st.l2_hits, 1);
    assert_int_equal(st.l2_misses, 0);
    assert_int_equal(st.dram_reads, 0);
    memsys_destroy(m);
}

static void test_idle_read_miss_then_hit(void **state)
{
    (void)state;
    memsys_config c = tm_base_config();
    memsys *m = tm_make(&c);
    mem_packet r;
    uint64_t now = 0;
    assert_int_equal(
        memsys_send(
            m, &(mem_packet){.addr = 0, .bytes = 128, .kind = MEM_READ, .sm = 0, .token = 7}, now),
        0);
    assert_int_equal(tm_wait_reply(m, 0, &now, &r), 158);
    assert_int_equal(r.token, 7);
    assert_int_equal(r.sent_cycle, 0);
    assert_int_equal(r.addr, 0);

    now = 200;
    mem_packet p = tm_pkt(0, 128, MEM_READ, 0, 8);
    assert_int_equal(memsys_send(m, &p, now), 0);
    assert_int_equal(tm_wait_reply(m, 0, &now, &r), 200 + 126);
    assert_int_equal(r.token, 8);

    /* a 32-byte segment hit: the reply carries 32 bytes, ceil(40 / 32) = 2 cycles */
    now = 400;
    p = tm_pkt(32, 32, MEM_READ, 0, 9);
    assert_int_equal(memsys_send(m, &p, now), 0);
    assert_int_equal(tm_wait_reply(m, 0, &now, &r), 400 + 11 + 100 + 12);

    memsys_stats st;
    memsys_get_stats(m, &st);
    assert_int_equal(st.l2_accesses, 3);
    assert_int_equal(st.l2_misses, 1);
    assert_int_equal(st.l2_hits, 2);
    assert_int_equal(st.dram_reads, 1);
    assert_int_equal(st.dram_activations, 1);
    assert_int_equal(st.dram_row_hits, 0);
    assert_int_equal(st.dram_bytes, 128);
    assert_int_equal(st.dram_busy_cycles, 8);
    assert_int_equal(st.icnt_packets, 6);
    assert_false(memsys_busy(m));
    assert_int_equal(memsys_next_event(m, now), UINT64_MAX);
    memsys_destroy(m);
}

static void test_write_then_read_hits(void **state)
{
    (void)state;
    memsys_config c = tm_base_config();
    memsys *m = tm_make(&c);
    mem_packet p = tm_pkt(4096, 128, MEM_WRITE, 0, 1), r;
    uint64_t now = 0;
    assert_int_equal(memsys_send(m, &p, now), 0);
    now = 100;
    p = tm_pkt(4096, 128, MEM_READ, 0, 2);
    assert_int_equal(memsys_send(m, &p, now), 0);
    assert_int_equal(tm_wait_reply(m, 0, &now, &r), 100 + 126);
    assert_int_equal(r.token, 2);
    tm_run_idle(m, &now);
    memsys_stats st;
    memsys_get_stats(m, &st);
    assert_int_equal(st.l2_accesses, 2);
    assert_int_equal(st.l2_hits, 1);
    assert_int_equal(st.l2_misses, 1); /* the write allocated without a fetch */
    assert_int_equal(st.dram_reads, 0);
    assert_int_equal(st.dram_writes, 0);
    memsys_destroy(m);
}

static void test_atomic(void **state)
{
    (void)state;
    memsys_config c = tm_base_config();
    memsys *m = tm_make(&c);
    mem_packet p = tm_pkt(256, 4, MEM_ATOMIC, 0, 3), r;
    uint64_t now = 0;
    assert_int_equal(memsys_send(m, &p, now), 0);
    /* request carries 8 + 4 bytes (1 cycle), reply 8 + 4 (1 cycle): miss = 11 + 32 + 100 + 11 */
    assert_int_equal(tm_wait_reply(m, 0, &now, &r), 154);
    assert_int_equal(r.token, 3);
    memsys_stats st;
    memsys_get_stats(m, &st);
    assert_int_equal(st.atomics, 1);
    assert_int_equal(st.dram_reads, 1);
    memsys_destroy(m);
}

static void test_mshr_merge(void **state)
{
    (void)state;
    memsys_config c = tm_base_config();
    memsys *m = tm_make(&c);
    mem_packet p = tm_pkt(0, 128, MEM_READ, 0, 1), r;
    assert_int_equal(memsys_send(m, &p, 0), 0);
    p.token = 2;
    assert_int_equal(memsys_send(m, &p, 1), 0);
    uint64_t now = 1;
    /* fill at 43, both leave the L2 at 143; the partition output port and the SM ejection
     * port serialize them 5 cycles apart */
    assert_int_equal(tm_wait_reply(m, 0, &now, &r), 158);
    assert_int_equal(r.token, 1);
    now++;
    assert_int_equal(tm_wait_reply(m, 0, &now, &r), 163);
    assert_int_equal(r.token, 2);
    memsys_stats st;
    memsys_get_stats(m, &st);
    assert_int_equal(st.dram_reads, 1);
    /* the second read finds the line on its way: HIT_RESERVED, as GPGPU-Sim counts it */
    assert_int_equal(st.l2_misses, 1);
    assert_int_equal(st.l2_hit_reserved, 1);
    assert_int_equal(st.l2_load_accesses, 2);
    assert_int_equal(st.l2_load_misses, 1);
    memsys_destroy(m);
}

/* An L1I miss reads through the L2 like a load, but GPGPU-Sim files it under INST_ACC_R: it
 * counts in the L2's totals and not among the loads (GLOBAL_ACC_R), on a line slice and on a
 * sectored one. */
static void test_inst_read_not_a_load(void **state)
{
    (void)state;
    for (int sectored = 0; sectored <= 1; sectored++) {
        memsys_config c = tm_base_config();
        c.l2_sectored = sectored;
        memsys *m = tm_make(&c);
        mem_packet inst = tm_pkt(0, 128, MEM_READ, 0, 1), load = tm_pkt(4096, 128, MEM_READ, 0, 2);
        inst.inst = 1;
        assert_int_equal(memsys_send(m, &inst, 0), 0);
        assert_int_equal(memsys_send(m, &load, 0), 0);
        uint64_t now = 0;
        mem_packet r;
        tm_wait_reply(m, 0, &now, &r);
        now++;
        tm_wait_reply(m, 0, &now, &r);
        memsys_stats st;
        memsys_get_stats(m, &st);
        const uint64_t per_line = sectored ? 4 : 1; /* a line's accesses: its sectors */
        assert_int_equal(st.l2_accesses, 2 * per_line);
        assert_int_equal(st.l2_misses, 2 * per_line);
        assert_int_equal(st.l2_load_accesses, per_line);
        assert_int_equal(st.l2_load_misses, per_line);
        memsys_destroy(m);
    }
}

/* Closed-loop driver, skipping idle cycles: each SM keeps at most `window` reads in flight and
 * walks its share (index % num_sms) of addrs. Returns the achieved bytes per cycle between the
 * first send and the last reply; *avg_lat gets the mean round trip. */
static double run_closed(memsys *m, int sms, int window, const uint64_t *addrs, int n,
                         double *avg_lat, uint64_t *span)
{
    int *next = calloc((size_t)sms, sizeof *next);
    int *out = calloc((size_t)sms, sizeof *out);
    for (int s = 0; s < sms; s++)
        next[s] = s;
    uint64_t now = 0, last = 0, lat = 0;
    int done = 0;
    while (done < n) {
        memsys_tick(m, now);
        mem_packet r;
        for (int s = 0; s < sms; s++)
            while (memsys_pop_reply(m, s, now, &r)) {
                out[s]--;
                done++;
                last = now;
                lat += now - r.sent_cycle;
            }
        for (int s = 0; s < sms; s++)
            while (next[s] < n && out[s] < window && memsys_can_send(m, s, now)) {
                mem_packet p = tm_pkt(addrs[next[s]], 128, MEM_READ, s, (uint32_t)next[s]);
                assert_int_equal(memsys_send(m, &p, now), 0);
                next[s] += sms;
                out[s]++;
            }
        if (done == n) break;
        uint64_t t = memsys_next_event(m, now);
        assert_in_range(t, now + 1, UINT64_MAX - 1);
        now = t;
    }
    free(next);
    free(out);
    *avg_lat = (double)lat / n;
    if (span) *span = last;
    return (double)n * 128.0 / (double)last;
}

static void test_dram_stream_bandwidth(void **state)
{
    (void)state;
    memsys_config c = gtx480_config();
    memsys *m = tm_make(&c);
    const int n = 24000;
    uint64_t *a = malloc(n * sizeof *a);
    for (int i = 0; i < n; i++)
        a[i] = (uint64_t)i * 128;
    double lat;
    uint64_t span;
    double bw = run_closed(m, c.num_sms, 64, a, n, &lat, &span);
    double peak = memsys_peak_dram_bandwidth(m);
    assert_double_near(peak, 96.0, 0);
    memsys_stats st;
    memsys_get_stats(m, &st);
    fprintf(stderr, "stream: %.2f B/cycle of %.0f, row hits %llu / %llu, lat %.1f\n", bw, peak,
            (unsigned long long)st.dram_row_hits, (unsigned long long)st.dram_reads, lat);
    assert_int_equal(st.dram_reads, n);
    assert_double_in_range(bw, 0.9 * peak, peak);
    /* every channel's bus is busy at most every cycle */
    assert_true(st.dram_busy_cycles <= (uint64_t)c.partitions * span);
    assert_true(st.dram_row_hits >= (uint64_t)n * 14 / 16);
    free(a);
    memsys_destroy(m);
}

static void test_dram_random_rows(void **state)
{
    (void)state;
    memsys_config c = gtx480_config();
    c.dram_banks = 4; /* few banks: activations cannot all hide behind other banks' data */
    const int n = 24000;
    uint64_t *a = malloc(n * sizeof *a);
    for (int i = 0; i < n; i++)
        a[i] = (uint64_t)i * 128;
    double lat;
    memsys *m = tm_make(&c);
    double bw_stream = run_closed(m, c.num_sms, 64, a, n, &lat, NULL);
    memsys_destroy(m);

    wt_rng g;
    wt_rng_seed(&g, 42);
    for (int i = 0; i < n; i++)
        a[i] = wt_rng_below(&g, 1u << 24) * 128;
    m = tm_make(&c);
    double bw_rand = run_closed(m, c.num_sms, 64, a, n, &lat, NULL);
    memsys_stats st;
    memsys_get_stats(m, &st);
    fprintf(stderr, "random: %.2f B/cycle (stream %.2f), row hits %llu, activations %llu\n",
            bw_rand, bw_stream, (unsigned long long)st.dram_row_hits,
            (unsigned long long)st.dram_activations);
    assert_double_less(bw_rand, 0.85 * bw_stream);
    assert_true(st.dram_row_hits < (uint64_t)n / 10);
    assert_true(st.dram_activations > (uint64_t)n * 9 / 10);
    free(a);
    memsys_destroy(m);
}

static void test_frfcfs_row_hit_first(void **state)
{
    (void)state;
    memsys_config c = tm_base_config();
    c.partitions = 1;
    memsys *m = tm_make(&c);
    /* 16 lines per row, 16 banks: line 0 is bank 0 row 0; row block 17 is row 1 and bank
     * (17 ^ 1) % 16 = 0, i.e. line 272. */
    mem_packet a = tm_pkt(0, 128, MEM_READ, 0, 1);
    mem_packet b = tm_pkt(272 * 128, 128, MEM_READ, 0, 2);
    mem_packet h = tm_pkt(1 * 128, 128, MEM_READ, 0, 3);
    assert_int_equal(memsys_send(m, &a, 0), 0);
    assert_int_equal(memsys_send(m, &b, 1), 0);
    assert_int_equal(memsys_send(m, &h, 2), 0);
    uint64_t when[4] = {0};
    uint64_t now = 2;
    mem_packet r;
    for (int i = 0; i < 3; i++) {
        uint64_t t = tm_wait_reply(m, 0, &now, &r);
        when[r.token] = t;
    }
    /* A: ACT 11, RD 23, data 35..43, reply 158. H (younger row hit): RD 31, data 43..51,
     * reply 166. B (older row conflict): PRE at 39 (t_ras and last column), ACT 51, RD 63,
     * data 75..83, reply 198. */
    assert_int_equal(when[1], 158);
    assert_int_equal(when[3], 166);
    assert_int_equal(when[2], 198);
    memsys_stats st;
    memsys_get_stats(m, &st);
    assert_int_equal(st.dram_row_hits, 1);
    assert_int_equal(st.dram_activations, 2);
    memsys_destroy(m);
}

static void test_contention_raises_latency(void **state)
{
    (void)state;
    memsys_config c = gtx480_config();
    const int n = 6000;
    uint64_t *a = malloc(n * sizeof *a);
    wt_rng g;
    wt_rng_seed(&g, 7);
    for (int i = 0; i < n; i++)
        a[i] = wt_rng_below(&g, 1u << 22) * 128;
    double lat[3];
    int windows[3] = {1, 8, 48};
    for (int k = 0; k < 3; k++) {
        memsys *m = tm_make(&c);
        run_closed(m, c.num_sms, windows[k], a, n, &lat[k], NULL);
        memsys_destroy(m);
    }
    fprintf(stderr, "round trip: %.1f, %.1f, %.1f cycles\n", lat[0], lat[1], lat[2]);
    assert_double_in_range(lat[0], 158.0, INFINITY);
    assert_double_less(lat[0] * 1.05, lat[1]);
    assert_double_less(lat[1] * 1.5, lat[2]);
    free(a);
}

/* Random reads, writes and atomics from four SMs into a one-line L2 with one MSHR and a DRAM
 * queue of two: every request is served (no deadlock, nothing lost or repeated) and the
 * memory drains. With `bounded`, through the crossbar with two packets per SM in the network
 * and two requests per slice past the ROP delay. */
static void backpressure_run(int bounded)
{
    memsys_config c = tm_base_config();
    c.num_sms = 4;
    c.icnt_sm_queue = 1;
    c.l2_sets = 1;
    c.l2_ways = 1;
    c.l2_mshrs = 1;
    c.dram_queue = 2;
    c.dram_banks = 2;
    c.dram_row_bytes = 256;
    if (bounded) {
        c.icnt_crossbar = 1;
        c.icnt_sm_buffer = 2;
        c.l2_input_queue = 2;
        c.l2_rop_latency = 5;
    }
    memsys *m = tm_make(&c);
    enum { N = 4000 };
    static uint8_t seen[N];
    memset(seen, 0, sizeof seen);
    wt_rng g;
    wt_rng_seed(&g, 3);
    int sent = 0, expect = 0, got = 0, refused = 0;
    uint64_t now = 0;
    while ((sent < N || memsys_busy(m)) && now < 10000000) {
        memsys_tick(m, now);
        mem_packet r;
        for (int s = 0; s < c.num_sms; s++)
            while (memsys_pop_reply(m, s, now, &r)) {
                assert_true(r.token < N);
                assert_int_equal(seen[r.token], 1);
                assert_int_not_equal(r.kind, MEM_WRITE);
                seen[r.token] = 2;
                got++;
            }
        for (int s = 0; s < c.num_sms && sent < N; s++) {
            int k = (int)wt_rng_below(&g, 3);
            uint64_t addr = wt_rng_below(&g, 64) * 128;
            mem_packet p = tm_pkt(addr, k == MEM_ATOMIC ? 4 : 128, (mem_kind)k, s, (uint32_t)sent);
            if (memsys_send(m, &p, now)) {
                refused++;
                continue;
            }
            seen[sent] = k == MEM_WRITE ? 3 : 1;
            expect += k != MEM_WRITE;
            sent++;
        }
        now++;
    }
    assert_int_equal(sent, N);
    assert_int_equal(got, expect);
    assert_false(memsys_busy(m));
    for (int i = 0; i < N; i++)
        assert_in_range(seen[i], 2, 3);
    memsys_stats st;
    memsys_get_stats(m, &st);
    assert_int_equal(st.l2_accesses, N);
    assert_int_equal(st.l2_hits + st.l2_misses + st.l2_hit_reserved, N);
    assert_true(refused > 0);
    assert_true(st.l2_writebacks > 0);
    assert_int_equal(st.dram_writes, st.l2_writebacks);
    memsys_destroy(m);
}

static void test_backpressure(void **state)
{
    (void)state;
    backpressure_run(0);
    backpressure_run(1);
}

/* icnt_sm_buffer: one SM, one-cycle packets, a buffer of two. Two reads sent at t0 fill it,
 * though the injection queue has room; the first is in at t0 + 1 and granted at once, which
 * frees a place. */
static void test_icnt_sm_buffer(void **state)
{
    (void)state;
    memsys_config c = tm_base_config();
    c.num_sms = 1;
    c.icnt_bytes_per_cycle = 4096;
    c.icnt_crossbar = 1;
    c.icnt_sm_buffer = 2;
    memsys *m = tm_make(&c);
    const uint64_t t0 = 100;
    mem_packet x = tm_pkt(0, 32, MEM_READ, 0, 1), y = tm_pkt(384, 32, MEM_READ, 0, 2);
    assert_int_equal(memsys_send(m, &x, t0), 0);
    assert_true(memsys_can_send(m, 0, t0));
    assert_int_equal(memsys_send(m, &y, t0), 0);
    assert_false(memsys_can_send(m, 0, t0));
    assert_int_equal(memsys_send_slots(m, 0, t0, 4), 0);
    assert_int_equal(memsys_send_ready(m, 0, t0), t0 + 1); /* a grant: only a try tells */
    memsys_tick(m, t0);
    assert_false(memsys_can_send(m, 0, t0));
    memsys_tick(m, t0 + 1);
    assert_true(memsys_can_send(m, 0, t0 + 1));
    assert_int_equal(memsys_send_slots(m, 0, t0 + 1, 4), 1);
    memsys_destroy(m);
}

/* ---- determinism and cycle skipping ---- */

typedef struct tr_item {
    uint64_t cycle;
    mem_packet p;
} tr_item;

typedef struct rep_rec {
    uint64_t cycle;
    uint32_t token;
    uint16_t sm;
} rep_rec;

/* Replays a timed trace (each item sent at its cycle, or retried until accepted) and records
 * every reply with its pop cycle. skip: jump to the next event instead of ticking each cycle. */
static int replay(const memsys_config *c, const tr_item *tr, int n, int skip, rep_rec *out,
                  memsys_stats *st)
{
    memsys *m = tm_make(c);
    int i = 0, nrep = 0;
    uint64_t now = 0;
    for (;;) {
        memsys_tick(m, now);
        mem_packet r;
        for (int s = 0; s < c->num_sms; s++)
            while (memsys_pop_reply(m, s, now, &r))
                out[nrep++] = (rep_rec){now, r.token, r.sm};
        while (i < n && tr[i].cycle <= now && memsys_send(m, &tr[i].p, now) == 0)
            i++;
        if (i == n && !memsys_busy(m)) break;
        if (!skip) {
            now++;
            continue;
        }
        uint64_t t = memsys_next_event(m, now);
        if (i < n && tr[i].cycle > now && tr[i].cycle < t) t = tr[i].cycle;
        assert_int_not_equal(t, UINT64_MAX);
        now = t;
    }
    memsys_get_stats(m, st);
    memsys_destroy(m);
    return nrep;
}

/* A random timed trace of n reads, writes and atomics (60/30/10%) of whole lines and 32-byte
 * sectors from c's SMs, a quarter of the items after a gap of up to max_gap cycles. */
static tr_item *random_trace(const memsys_config *c, int n, uint64_t seed, uint64_t max_gap)
{
    tr_item *tr = calloc((size_t)n, sizeof *tr);
    wt_rng g;
    wt_rng_seed(&g, seed);
    uint64_t cyc = 0;
    for (int i = 0; i < n; i++) {
        cyc += wt_rng_below(&g, 4) == 0 ? wt_rng_below(&g, max_gap) : 0;
        int k = (int)wt_rng_below(&g, 10);
        mem_kind kind = k < 6 ? MEM_READ : k < 9 ? MEM_WRITE : MEM_ATOMIC;
        uint32_t bytes = kind == MEM_ATOMIC ? 4 : wt_rng_below(&g, 2) ? 128 : 32;
        uint64_t addr = wt_rng_below(&g, 4096) * 128 + (bytes == 32 ? 32 * wt_rng_below(&g, 4) : 0);
        tr[i].cycle = cyc;
        tr[i].p =
            tm_pkt(addr, bytes, kind, (int)wt_rng_below(&g, (uint64_t)c->num_sms), (uint32_t)i);
    }
    return tr;
}

static void test_determinism_and_skipping(void **state)
{
    (void)state;
    memsys_config c = contended_config();
    enum { N = 5000 };
    tr_item *tr = random_trace(&c, N, 11, 200);
    rep_rec *a = calloc(N, sizeof *a), *b = calloc(N, sizeof *b), *d = calloc(N, sizeof *d);
    /* with the request crossbar too: its arbitration events keep skipping exact */
    for (int xbar = 0; xbar <= 1; xbar++) {
        c.icnt_crossbar = xbar;
        memsys_stats sa, sb, sd;
        int na = replay(&c, tr, N, 0, a, &sa);
        int nb = replay(&c, tr, N, 0, b, &sb);
        int nd = replay(&c, tr, N, 1, d, &sd);
        assert_true(na > N / 2);
        assert_int_equal(na, nb);
        assert_int_equal(na, nd);
        assert_memory_equal(a, b, (size_t)na * sizeof *a);
        assert_memory_equal(a, d, (size_t)na * sizeof *a);
        assert_memory_equal(&sa, &sb, sizeof sa);
        assert_memory_equal(&sa, &sd, sizeof sa);
        assert_true(sa.l2_writebacks > 0);
    }
    free(tr);
    free(a);
    free(b);
    free(d);
}

/* Replays a timed trace SM by SM, as the cycle loop does: each cycle every SM in index order
 * pops its replies, then sends its packets that are due (in trace order, until one is
 * refused). deferred: the memory system defers the shared part of both (memsys_defer) and each
 * SM's is flushed in index order once all SMs had their turn. Returns the replies recorded. */
static int replay_by_sm(const memsys_config *c, const tr_item *tr, int n, int deferred,
                        rep_rec *out, memsys_stats *st)
{
    memsys *m = tm_make(c);
    memsys_defer(m, deferred);
    int *next = calloc((size_t)c->num_sms, sizeof *next); /* per SM: its next item to send */
    int nrep = 0, sent = 0;
    for (uint64_t now = 0;; now++) {
        memsys_tick(m, now);
        for (int s = 0; s < c->num_sms; s++) {
            mem_packet r;
            while (memsys_pop_reply(m, s, now, &r))
                out[nrep++] = (rep_rec){now, r.token, r.sm};
            for (int *i = &next[s]; *i < n; ++*i) {
                if (tr[*i].p.sm != s) continue;
                if (tr[*i].cycle > now || memsys_send(m, &tr[*i].p, now) != 0) break;
                sent++;
            }
        }
        if (deferred)
            for (int s = 0; s < c->num_sms; s++)
                memsys_flush(m, s, now);
        if (sent == n && !memsys_busy(m)) break;
        assert_true(now < 10000000);
    }
    free(next);
    memsys_get_stats(m, st);
    memsys_destroy(m);
    return nrep;
}

/* The SMs' sends and pops deferred and flushed in SM order after the cycle's SM phase (SMs on
 * several threads) leave every reply and counter as doing them at once, SM after SM; with the
 * request and reply crossbars and a full injection queue (sends refused, retried). */
static void test_deferred_sends_and_pops(void **state)
{
    (void)state;
    memsys_config c = contended_config();
    enum { N = 4000 };
    tr_item *tr = random_trace(&c, N, 23, 50);
    rep_rec *a = calloc(2 * N, sizeof *a), *d = calloc(2 * N, sizeof *d);
    for (int xbar = 0; xbar <= 1; xbar++) {
        c.icnt_crossbar = xbar;
        c.icnt_reply_crossbar = xbar;
        c.write_acks = xbar;
        memsys_stats sa, sd;
        int na = replay_by_sm(&c, tr, N, 0, a, &sa);
        int nd = replay_by_sm(&c, tr, N, 1, d, &sd);
        assert_true(na > N / 2);
        assert_int_equal(na, nd);
        assert_memory_equal(a, d, (size_t)na * sizeof *a);
        assert_memory_equal(&sa, &sd, sizeof sa);
    }
    free(tr);
    free(a);
    free(d);
}

/* The same trace with memory-side clocks of their own, slower and faster than the core's and at
 * non-integer ratios (and a ROP delay): skipping is still exact. */
static void expect_bad(memsys_config c, const char *name);

static void test_clock_domains_skipping(void **state)
{
    (void)state;
    memsys_config c = contended_config();
    c.core_mhz = 700;
    c.icnt_mhz = 1000; /* faster: n/d = 7/10 */
    c.l2_mhz = 450;    /* slower: 14/9 */
    c.dram_mhz = 924;  /* GTX480's: 25/33 */
    c.l2_rop_latency = 7;
    c.l2_slices_per_channel = 2; /* 3 channels of 2 slices */
    c.dram_latency = 30;
    c.dram_latency_first = 1;
    enum { N = 3000 };
    tr_item *tr = calloc(N, sizeof *tr);
    wt_rng g;
    wt_rng_seed(&g, 5);
    uint64_t cyc = 0;
    for (int i = 0; i < N; i++) {
        cyc += wt_rng_below(&g, 4) == 0 ? wt_rng_below(&g, 100) : 0;
        int k = (int)wt_rng_below(&g, 10);
        mem_kind kind = k < 6 ? MEM_READ : k < 9 ? MEM_WRITE : MEM_ATOMIC;
        uint32_t bytes = kind == MEM_ATOMIC ? 4 : 128;
        tr[i].cycle = cyc;
        tr[i].p = tm_pkt(wt_rng_below(&g, 4096) * 128, bytes, kind,
                         (int)wt_rng_below(&g, (uint64_t)c.num_sms), (uint32_t)i);
    }
    rep_rec *a = calloc(N, sizeof *a), *d = calloc(N, sizeof *d), *o = calloc(N, sizeof *o);
    memsys_stats sa, sd, so;
    int na = replay(&c, tr, N, 0, a, &sa);
    int nd = replay(&c, tr, N, 1, d, &sd);
    assert_true(na > N / 2);
    assert_int_equal(na, nd);
    assert_memory_equal(a, d, (size_t)na * sizeof *a);
    assert_memory_equal(&sa, &sd, sizeof sa);
    /* and the clocks matter */
    memsys_config same = c;
    same.icnt_mhz = same.l2_mhz = same.dram_mhz = 0;
    same.l2_rop_latency = 0;
    int no = replay(&same, tr, N, 1, o, &so);
    assert_int_equal(no, na);
    assert_memory_not_equal(a, o, (size_t)na * sizeof *a);
    free(tr);
    free(a);
    free(d);
    free(o);
}

/* Unloaded latencies with an L2 at half the core clock (core 1000 MHz, L2 500 MHz: an L2 cycle
 * is 2 core cycles; icnt and DRAM at the core clock). Base timings (see the top of the file):
 *   miss sent at 0: fully received at 11; the L2 takes it at its first edge at or after 11,
 *     L2 cycle 6 = core 12; DRAM activates at 12, reads at 24, data 36..44 (burst 8); the
 *     fill at 44 is L2 cycle 22, the reply leaves 100 L2 cycles later, at L2 cycle 122 = core
 *     244, and arrives 15 later: 259 (158 with one clock: + 1 to meet the edge + 100);
 *   hit sent at 400: received 411, L2 cycle 206 (core 412), replies at L2 cycle 306 = core
 *     612, arrives 627 (a latency of 227 instead of 126);
 *   hit sent at 401: received 412 = L2 cycle 206 exactly: arrives 627 again.
 * With rop latency 5 the hit sent at 400 is received at 411, may enter the L2 at 416 = L2
 * cycle 208: replies at core 2 * 308 = 616, arrives 631. */
static void test_clock_l2_half(void **state)
{
    (void)state;
    memsys_config c = tm_base_config();
    c.core_mhz = 1000;
    c.l2_mhz = 500;
    memsys *m = tm_make(&c);
    mem_packet r;
    uint64_t now = 0;
    mem_packet p = tm_pkt(0, 128, MEM_READ, 0, 1);
    assert_int_equal(memsys_send(m, &p, now), 0);
    assert_int_equal(tm_wait_reply(m, 0, &now, &r), 259);
    now = 400;
    assert_int_equal(memsys_send(m, &p, now), 0);
    assert_int_equal(tm_wait_reply(m, 0, &now, &r), 627);
    now = 1001;
    assert_int_equal(memsys_send(m, &p, now), 0);
    assert_int_equal(tm_wait_reply(m, 0, &now, &r), 1001 + 226);
    memsys_destroy(m);

    c.l2_rop_latency = 5;
    m = tm_make(&c);
    now = 0;
    assert_int_equal(memsys_send(m, &p, now), 0);
    /* received 11, L2 from 16 = L2 cycle 8: DRAM act 16, read 28, data 40..48, fill 48 = L2
     * cycle 24, reply at L2 cycle 124 = core 248, arrives 263 */
    assert_int_equal(tm_wait_reply(m, 0, &now, &r), 263);
    now = 400;
    assert_int_equal(memsys_send(m, &p, now), 0);
    assert_int_equal(tm_wait_reply(m, 0, &now, &r), 631);
    memsys_destroy(m);
}

/* Interconnect and DRAM clocks, unloaded (core 1000 MHz):
 * icnt at 2000 MHz (half a core cycle per icnt cycle), L = 10, 32 B per icnt cycle: a request
 * injected at core 0 (icnt 0) is received at icnt 11 = core 5.5, seen at core 6; the L2 (core
 * clock) takes it at 6, a hit replies at 106 = icnt 212, arrives at icnt 212 + 10 + 5 = 227 =
 * core 113.5: popped at 114.
 * DRAM at 250 MHz (4 core cycles per DRAM cycle; t_* = 12 DRAM cycles, burst 8): the miss
 * received at core 11 meets DRAM cycle 3 (core 12): activate, read at 15, data 27..35 = core 140,
 * fill 140, reply 240, arrives 255. */
static void test_clock_icnt_and_dram(void **state)
{
    (void)state;
    memsys_config c = tm_base_config();
    c.core_mhz = 1000;
    c.icnt_mhz = 2000;
    memsys *m = tm_make(&c);
    mem_packet r, p = tm_pkt(0, 128, MEM_READ, 0, 1);
    uint64_t now = 0;
    assert_int_equal(memsys_send(m, &p, now), 0);
    /* miss: received icnt 11 = core 6 (5.5), DRAM act 6, read 18, data 30..38, reply 138 =
     * icnt 276, arrives icnt 291 = core 146 (145.5) */
    assert_int_equal(tm_wait_reply(m, 0, &now, &r), 146);
    now = 1000;
    assert_int_equal(memsys_send(m, &p, now), 0);
    assert_int_equal(tm_wait_reply(m, 0, &now, &r), 1000 + 114);
    memsys_destroy(m);

    c.icnt_mhz = 0;
    c.dram_mhz = 250;
    m = tm_make(&c);
    now = 0;
    assert_int_equal(memsys_send(m, &p, now), 0);
    assert_int_equal(tm_wait_reply(m, 0, &now, &r), 255);
    assert_double_near(memsys_peak_dram_bandwidth(m), 2 * 16 / 4.0, 0);
    memsys_destroy(m);
}

/* The last reply of a stream of n line reads at one DRAM channel of dram_mhz against a core of
 * 1000 MHz (see test_clock_dram_bandwidth_exact). */
static uint64_t stream_last_reply(int dram_mhz, int n, uint64_t *busy)
{
    memsys_config c = tm_base_config();
    c.partitions = 1;
    c.core_mhz = 1000;
    c.dram_mhz = dram_mhz;
    memsys *m = tm_make(&c);
    int sent = 0, got = 0;
    uint64_t now = 0, last = 0;
    while (got < n) {
        memsys_tick(m, now);
        mem_packet r;
        while (memsys_pop_reply(m, 0, now, &r)) {
            assert_int_equal(r.token, got); /* in order */
            got++;
            last = now;
        }
        if (sent < n) {
            mem_packet p = tm_pkt((uint64_t)sent * 128, 128, MEM_READ, 0, (uint32_t)sent);
            if (memsys_send(m, &p, now) == 0) sent++;
        }
        now++;
        assert_true(now < 1000000);
    }
    memsys_stats st;
    memsys_get_stats(m, &st);
    *busy = st.dram_busy_cycles;
    assert_int_equal(st.dram_reads, n);
    memsys_destroy(m);
    return last;
}

/* Property: for any DRAM clock from 500 to 1499 MHz (a line every 8 DRAM cycles, 5.3 core
 * cycles or more: the reply ports keep up), the first request reaches the DRAM at its first
 * edge at or after core 11, E = ceil(11 * f / 1000), activates, reads t_rcd = 12 later and
 * its data starts t_cl = 12 after that; from then the bus never idles, so the last data ends
 * at DRAM cycle E + 24 + 8n, seen at core ceil((E + 24 + 8n) * 1000 / f), and its reply
 * arrives 100 + 15 core cycles later. */
static void test_clock_dram_bandwidth_property(void **state)
{
    (void)state;
    wt_rng g;
    wt_rng_seed(&g, 42);
    for (int k = 0; k < 12; k++) {
        uint64_t f = 500 + wt_rng_below(&g, 1000);
        int n = 150 + (int)wt_rng_below(&g, 100);
        uint64_t busy, last = stream_last_reply((int)f, n, &busy);
        uint64_t E = (11 * f + 999) / 1000, end = E + 24 + 8 * (uint64_t)n;
        uint64_t want = (end * 1000 + f - 1) / f + 115;
        if (last != want)
            fail_msg("dram %llu MHz, n %d: last reply %llu, want %llu", (unsigned long long)f, n,
                     (unsigned long long)last, (unsigned long long)want);
        assert_int_equal(busy, 8 * (uint64_t)n);
    }
}

/* DRAM at 3/4 of the core clock (core 1000, DRAM 750 MHz: a DRAM cycle is 4/3 core cycles),
 * 16 bytes per DRAM cycle, one partition: a stream of N line reads keeps the bus busy from the
 * first read's data on, 8 DRAM cycles a line, with no rounding accumulating. The first request
 * is received at core 11 = DRAM edge ceil(8.25) = 9: activate 9, read 21, data from 33; the
 * last line's data ends at DRAM cycle 33 + 8N, seen at core ceil((33 + 8N) * 4 / 3); its reply
 * leaves 100 later and arrives 15 after that (one reply per 10.7 core cycles: no queueing). */
static void test_clock_dram_bandwidth_exact(void **state)
{
    (void)state;
    const int ns[] = {300, 301, 302};
    for (int k = 0; k < 3; k++) {
        uint64_t busy, last = stream_last_reply(750, ns[k], &busy);
        uint64_t end = (uint64_t)(33 + 8 * ns[k]) * 4, end_core = (end + 2) / 3;
        assert_int_equal(last, end_core + 100 + 15);
        assert_int_equal(busy, 8 * (uint64_t)ns[k]); /* DRAM cycles */
    }
}

/* Two L2 slices on one DRAM channel (base config: partitions = 2). Lines 0 and 1 go to slices
 * 0 and 1 (local line 0 in each); the channel sees them as its lines 0 and 1, one row. Sent at
 * 0 and 1: slice 0 takes line 0 at 11 (activate 11, read 23, data 35..43, reply 158); slice 1
 * takes line 1 at 12, a row hit on the same bank, whose read waits for the bus: read 31, data
 * 43..51, fill 51, reply leaves 151, arrives 161, ejected after reply 0 (158): 166. With a
 * channel per slice line 1 would have its own: activate 12, data 36..44, reply arrives at 154
 * but waits for the ejection port (busy with reply 0 until 158): 163. */
static void test_slices_share_channel(void **state)
{
    (void)state;
    for (int shared = 0; shared < 2; shared++) {
        memsys_config c = tm_base_config();
        c.l2_slices_per_channel = shared ? 2 : 1;
        memsys *m = tm_make(&c);
        mem_packet r, p0 = tm_pkt(0, 128, MEM_READ, 0, 0), p1 = tm_pkt(128, 128, MEM_READ, 0, 1);
        uint64_t now = 0;
        assert_int_equal(memsys_send(m, &p0, 0), 0);
        memsys_tick(m, 0);
        assert_int_equal(memsys_send(m, &p1, 1), 0);
        now = 1;
        assert_int_equal(tm_wait_reply(m, 0, &now, &r), 158);
        assert_int_equal(r.token, 0);
        now++;
        assert_int_equal(tm_wait_reply(m, 0, &now, &r), shared ? 166 : 163);
        assert_double_near(memsys_peak_dram_bandwidth(m), shared ? 16.0 : 32.0, 0);
        memsys_stats st;
        memsys_get_stats(m, &st);
        assert_int_equal(st.dram_activations, shared ? 1 : 2);
        memsys_destroy(m);
    }
    memsys_config c = tm_base_config();
    c.partitions = 3;
    c.l2_slices_per_channel = 2;
    expect_bad(c, "l2_slices_per_channel");
}

/* dram_latency in front of the queue or behind the data (core 1000, DRAM 250 MHz: 4 core cycles
 * per DRAM cycle; latency 22 core cycles). The miss is taken by the L2 at 11.
 * behind: DRAM cycle 3 (core 12) activates, 15 reads, data 27..35 = core 140, + 22 = 162,
 *   reply 262, arrives 277;
 * in front: reaches the queue at 33 = DRAM cycle 9 (core 36), reads at 21, data 33..41 =
 *   core 164, reply 264, arrives 279. */
static void test_dram_latency_first(void **state)
{
    (void)state;
    for (int first = 0; first < 2; first++) {
        memsys_config c = tm_base_config();
        c.core_mhz = 1000;
        c.dram_mhz = 250;
        c.dram_latency = 22;
        c.dram_latency_first = first;
        memsys *m = tm_make(&c);
        mem_packet r, p = tm_pkt(0, 128, MEM_READ, 0, 0);
        uint64_t now = 0;
        assert_int_equal(memsys_send(m, &p, now), 0);
        assert_int_equal(tm_wait_reply(m, 0, &now, &r), first ? 279 : 277);
        memsys_destroy(m);
    }
}

static void expect_bad(memsys_config c, const char *name)
{
    memsys *m = (memsys *)&c; /* must be reset to NULL */
    char err[256] = "";
    assert_int_equal(memsys_create(&m, &c, err, sizeof err), -1);
    assert_null(m);
    if (!strstr(err, name)) fail_msg("message '%s' does not name %s", err, name);
}

static void test_bad_configs(void **state)
{
    (void)state;
    memsys_config c;
    c = tm_base_config(), c.partitions = 0, expect_bad(c, "partitions");
    c = tm_base_config(), c.icnt_reply_crossbar = 1, c.partitions = 128,
    expect_bad(c, "icnt_reply_crossbar");
    c = tm_base_config(), c.num_sms = 0, expect_bad(c, "num_sms");
    c = tm_base_config(), c.l2_sets = 48, expect_bad(c, "l2_sets");
    c = tm_base_config(), c.l2_line = 100, expect_bad(c, "l2_line");
    c = tm_base_config(), c.l2_ways = 0, expect_bad(c, "l2_ways");
    c = tm_base_config(), c.l2_mshrs = 0, expect_bad(c, "l2_mshrs");
    c = tm_base_config(), c.dram_banks = 3, expect_bad(c, "dram_banks");
    c = tm_base_config(), c.dram_row_bytes = 64, expect_bad(c, "dram_row_bytes");
    c = tm_base_config(), c.dram_queue = 1, expect_bad(c, "dram_queue");
    c = tm_base_config(), c.dram_bytes_per_cycle = 0, expect_bad(c, "dram_bytes_per_cycle");
    c = tm_base_config(), c.icnt_latency = 0, expect_bad(c, "icnt_latency");
    c = tm_base_config(), c.icnt_bytes_per_cycle = 0, expect_bad(c, "icnt_bytes_per_cycle");
    c = tm_base_config(), c.icnt_sm_queue = 0, expect_bad(c, "icnt_sm_queue");
    c = tm_base_config(), c.dram_t_cl = 0, expect_bad(c, "dram_t_cl");
    c = tm_base_config(), c.dram_t_ras = -1, expect_bad(c, "dram_t_ras");
    c = tm_base_config(), c.l2_rop_latency = -1, expect_bad(c, "l2_rop_latency");
    c = tm_base_config(), c.dram_mhz = -850, expect_bad(c, "dram clock");
    c = tm_base_config(), c.core_mhz = 1000, c.l2_mhz = 0.0004, expect_bad(c, "l2 clock");
    c = tm_base_config(), c.icnt_mhz = 1132.0001, expect_bad(c, "icnt clock");
}

static void test_injection_queue_limit(void **state)
{
    (void)state;
    memsys_config c = tm_base_config();
    c.icnt_sm_queue = 2;
    c.icnt_bytes_per_cycle = 8; /* a 128-byte write takes 17 cycles to inject */
    memsys *m = tm_make(&c);
    mem_packet w = tm_pkt(0, 128, MEM_WRITE, 0, 0);
    assert_int_equal(memsys_send(m, &w, 0), 0); /* injecting 0..17 */
    assert_int_equal(memsys_send(m, &w, 0), 0); /* waits, starts at 17 */
    assert_int_equal(memsys_send(m, &w, 0), 0); /* waits, starts at 34 */
    assert_false(memsys_can_send(m, 0, 0));
    assert_int_equal(memsys_send(m, &w, 16), -1);
    memsys_tick(m, 16);
    assert_int_equal(memsys_next_event(m, 16), 17); /* the slot frees exactly then */
    assert_true(memsys_can_send(m, 0, 17));
    uint64_t now = 17;
    tm_run_idle(m, &now);
    memsys_destroy(m);
}

/* icnt_sm_queue_hold: a request keeps its place in the injection queue for that many cycles
 * after it starts injecting (GPGPU-Sim's miss queue pops its head before the cycle's accesses).
 * The writes of test_injection_queue_limit start at 0, 17 and 34; with a hold of 1 the first
 * still holds its place in cycle 0 (the third is sent at 1), and the place the second frees
 * serves from 18, not 17. */
static void test_injection_queue_hold(void **state)
{
    (void)state;
    for (int hold = 0; hold <= 1; hold++) {
        memsys_config c = tm_base_config();
        c.icnt_sm_queue = 2;
        c.icnt_bytes_per_cycle = 8;
        c.icnt_sm_queue_hold = hold;
        memsys *m = tm_make(&c);
        mem_packet w = tm_pkt(0, 128, MEM_WRITE, 0, 0);
        assert_int_equal(memsys_send(m, &w, 0), 0);
        assert_int_equal(memsys_send_slots(m, 0, 0, 2), 2 - hold);
        assert_int_equal(memsys_send_slots(m, 0, 1, 2), 2);
        assert_int_equal(memsys_send(m, &w, 0), 0);
        /* the queue now holds two: the third waits for the first's place */
        assert_int_equal(memsys_send(m, &w, 0), hold ? -1 : 0);
        if (hold) assert_int_equal(memsys_send(m, &w, 1), 0);
        assert_false(memsys_can_send(m, 0, 16));
        assert_int_equal(memsys_send_ready(m, 0, 16), 17 + hold);
        memsys_tick(m, 16);
        assert_int_equal(memsys_next_event(m, 16), 17 + hold);
        assert_int_equal(memsys_can_send(m, 0, 17), !hold);
        assert_true(memsys_can_send(m, 0, 17 + hold));
        assert_int_equal(memsys_send_slots(m, 0, 17 + hold, 2), 1);
        uint64_t now = 17;
        tm_run_idle(m, &now);
        memsys_destroy(m);
    }
}

/* write_acks: a write is acknowledged when the L2 takes it, as a read hit would reply, by a
 * header-only packet (one per sector on a sectored L2). A 128-byte write: request hop
 * L + ceil((8 + 128) / 32) = 15, taken at 15 (a miss allocates without a fetch), H = 100, the
 * acknowledgement's hop L + ceil(8 / 32) = 11: at 126, token and kind intact. Sectored, its
 * four sectors' acknowledgements leave back to back and the last arrives 3 cycles later (129);
 * a one-sector write (request hop L + ceil(40 / 32) = 12) gets one, at 12 + 100 + 11 = 123.
 * Without write_acks no reply comes and the memory system is idle once the write is taken. */
static void test_write_acks(void **state)
{
    (void)state;
    mem_packet r;
    for (int sectored = 0; sectored <= 1; sectored++) {
        memsys_config c = tm_base_config();
        c.write_acks = 1;
        c.l2_sectored = sectored;
        memsys *m = tm_make(&c);
        uint64_t now = 0;
        mem_packet w = tm_pkt(0, 128, MEM_WRITE, 0, 42);
        assert_int_equal(memsys_send(m, &w, now), 0);
        assert_int_equal(tm_wait_reply(m, 0, &now, &r), sectored ? 129 : 126);
        assert_int_equal(r.token, 42);
        assert_int_equal(r.kind, MEM_WRITE);
        assert_false(memsys_busy(m));
        memsys_stats st;
        memsys_get_stats(m, &st);
        assert_int_equal(st.icnt_packets, sectored ? 5 : 2);
        assert_int_equal(st.icnt_bytes, 8 + 128 + (sectored ? 4 : 1) * 8);
        now = 1000;
        mem_packet one = tm_pkt(4096, 32, MEM_WRITE, 0, 43);
        one.sectors = 1;
        assert_int_equal(memsys_send(m, &one, now), 0);
        assert_int_equal(tm_wait_reply(m, 0, &now, &r), 1000 + 123);
        memsys_destroy(m);
    }
    memsys_config c = tm_base_config();
    memsys *m = tm_make(&c);
    uint64_t now = 0;
    mem_packet w = tm_pkt(0, 128, MEM_WRITE, 0, 42);
    assert_int_equal(memsys_send(m, &w, now), 0);
    tm_run_idle(m, &now);
    assert_int_equal(now, 15);
    assert_int_equal(memsys_pop_reply(m, 0, now + 1000, &r), 0);
    memsys_destroy(m);
}

/* l2_mshr_merge: a read to a line on its way that would make its MSHR hold more than the bound
 * waits at the head of the input queue, holding the requests behind it, until the fill. One
 * partition; line B (4096) is in the L2. At 1000 an SM sends A (line 0, a miss), A again and
 * B; they are received at 1011, 1012 and 1013. Without a bound the second A merges and B hits
 * at 1013, replying first, at 1013 + H + 15 = 1128. With a bound of 1 the second A waits for
 * A's fill at F, then hits at F and B at F + 1: the replies leave in order, each 5 cycles of
 * ejection after the other, B last, 10 cycles after A; the second A counts as a hit (sectored:
 * four sector hits). */
static void test_l2_mshr_merge(void **state)
{
    (void)state;
    for (int k = 0; k < 4; k++) {
        int bound = k & 1;
        memsys_config c = tm_base_config();
        c.partitions = 1;
        c.l2_mshr_merge = bound;
        c.l2_sectored = k >> 1; /* the same on a sectored slice, the line's four sectors */
        memsys *m = tm_make(&c);
        mem_packet r, a = tm_pkt(0, 128, MEM_READ, 0, 1), b = tm_pkt(4096, 128, MEM_READ, 0, 3);
        uint64_t now = 0;
        bring_into_l2(m, &b, &now);
        memsys_stats before;
        memsys_get_stats(m, &before);
        now = 1000;
        mem_packet a2 = a;
        a2.token = 2;
        assert_int_equal(memsys_send(m, &a, now), 0);
        assert_int_equal(memsys_send(m, &a2, now), 0);
        assert_int_equal(memsys_send(m, &b, now), 0);
        uint64_t t[3];
        uint32_t tok[3];
        for (int i = 0; i < 3; i++) {
            t[i] = tm_wait_reply(m, 0, &now, &r);
            tok[i] = r.token;
        }
        memsys_stats st;
        memsys_get_stats(m, &st);
        if (!bound) {
            assert_int_equal(tok[0], 3);
            assert_int_equal(t[0], 1128);
            assert_int_equal(st.l2_hits - before.l2_hits, c.l2_sectored ? 4 : 1);
        } else {
            assert_int_equal(tok[0], 1);
            assert_int_equal(tok[1], 2);
            assert_int_equal(tok[2], 3);
            assert_int_equal(t[2], t[0] + 10);
            assert_true(t[0] > 1128);
            assert_int_equal(st.l2_hits - before.l2_hits, c.l2_sectored ? 8 : 2);
        }
        memsys_destroy(m);
    }
}

/* l2_sector_cycles: a sectored slice takes a request one L2 cycle per sector. One partition,
 * line B (4096) in the L2; at 1000 an SM sends a 128-byte write W (4 sectors; request hop
 * L + ceil(136 / 32) = 15: taken at 1015) and then a read of B (injected after W, at 1005,
 * received at 1016). One cycle per request: B is taken at 1016 and replies at
 * 1016 + H + 15 = 1131. One per sector: W holds the slice until 1019, and B replies at 1134. */
static void test_l2_sector_cycles(void **state)
{
    (void)state;
    for (int on = 0; on <= 1; on++) {
        memsys_config c = tm_base_config();
        c.partitions = 1;
        c.l2_sectored = 1;
        c.l2_sector_cycles = on;
        memsys *m = tm_make(&c);
        mem_packet r, w = tm_pkt(0, 128, MEM_WRITE, 0, 1), b = tm_pkt(4096, 128, MEM_READ, 0, 2);
        uint64_t now = 0;
        bring_into_l2(m, &b, &now);
        now = 1000;
        assert_int_equal(memsys_send(m, &w, now), 0);
        assert_int_equal(memsys_send(m, &b, now), 0);
        assert_int_equal(tm_wait_reply(m, 0, &now, &r), on ? 1134 : 1131);
        assert_int_equal(r.token, 2);
        memsys_destroy(m);
    }
}

/* Ticks from *now until n replies have reached SMs 0..sms-1 (within 1000 cycles of t0);
 * at[token] gets each one's arrival cycle less t0. */
static void collect_replies(memsys *m, int sms, uint64_t *now, uint64_t t0, int n, uint64_t *at)
{
    for (int got = 0; got < n; (*now)++) {
        assert_true(*now < t0 + 1000);
        memsys_tick(m, *now);
        mem_packet r;
        for (int sm = 0; sm < sms; sm++)
            while (memsys_pop_reply(m, sm, *now, &r)) {
                at[r.token] = *now - t0;
                got++;
            }
    }
}

/* icnt_crossbar: three SMs, two partitions, one-cycle packets, icnt latency L = 10, all four
 * reads L2 hits (line 0, 3 and 4 map to partition 0, line 1 to partition 1). At 0, SM 0 sends
 * X (line 0), SM 1 W (line 3), SM 2 Y (line 4) and then Z (line 1): each is in its SM's
 * buffer one cycle after its injection starts (X, W, Y at 1; Z at 2). Partition 0 takes one
 * head per cycle, round robin from SM 0: X at 1, W at 2, Y at 3; Z waits behind Y and leaves
 * with it at 3 (partition 1 comes after 0 in the same cycle). A grant at g replies at
 * g + L + 1 + H + L + 1 = g + 122 (H = 100), and SM 2's two replies arrive together and
 * leave its ejection port one cycle apart: X 123, W 124, Y and Z 125 and 126. With the ports
 * alone, the three partition-0 requests are received one per cycle from 10 and Z at 11:
 * X 122, W 123, Z 123, Y 124. */
static void test_icnt_crossbar(void **state)
{
    (void)state;
    for (int on = 0; on <= 1; on++) {
        memsys_config c = tm_base_config();
        c.num_sms = 3;
        c.icnt_bytes_per_cycle = 4096;
        c.icnt_crossbar = on;
        memsys *m = tm_make(&c);
        mem_packet x = tm_pkt(0, 32, MEM_READ, 0, 1), w = tm_pkt(384, 32, MEM_READ, 1, 2),
                   y = tm_pkt(512, 32, MEM_READ, 2, 3), z = tm_pkt(128, 32, MEM_READ, 2, 4);
        uint64_t now = 0;
        bring_into_l2(m, &x, &now);
        bring_into_l2(m, &w, &now);
        bring_into_l2(m, &y, &now);
        bring_into_l2(m, &z, &now);
        uint64_t t0 = now = 10000, at[5] = {0};
        assert_int_equal(memsys_send(m, &x, now), 0);
        assert_int_equal(memsys_send(m, &w, now), 0);
        assert_int_equal(memsys_send(m, &y, now), 0);
        assert_int_equal(memsys_send(m, &z, now), 0);
        collect_replies(m, 3, &now, t0, 4, at);
        if (on) {
            assert_int_equal(at[1], 123);
            assert_int_equal(at[2], 124);
            assert_int_equal(at[3] + at[4], 125 + 126);
            assert_int_not_equal(at[3], at[4]);
        } else {
            assert_int_equal(at[1], 122);
            assert_int_equal(at[2], 123);
            assert_int_equal(at[4], 123);
            assert_int_equal(at[3], 124);
        }
        memsys_destroy(m);
    }
}

/* icnt_reply_crossbar: L2 hits (H = 100, 32-byte ports, L = 10). A, 128 bytes of line 0 (slice
 * 0) for SM 0; B, 32 bytes of line 1 (slice 1) for SM 0, sent in the same cycle (it injects one
 * cycle later); C, 32 bytes of line 2 (slice 1) for SM 1, sent 2 cycles later. Their replies
 * are ready at their slices at 111, 112 and 113; A's takes 5 cycles on a port
 * (ceil(136 / 32)), B's and C's 2.
 *   ports only: A leaves at 111, in at SM 0 121..126; B leaves at 112, waits for SM 0's port:
 *   126..128; C leaves slice 1 at 114, after B, in at SM 1 124..126.
 *   crossbar: SM 0 takes A at 111 (busy until 116); slice 1's head B waits for SM 0 and is
 *   taken at 116, in at 116 + 2 + 10 = 128; C, behind B, leaves at 118 and is in at 130,
 *   although SM 1 was free all along. */
static void test_icnt_reply_crossbar(void **state)
{
    (void)state;
    for (int on = 0; on <= 1; on++) {
        memsys_config c = tm_base_config();
        c.num_sms = 2;
        c.icnt_reply_crossbar = on;
        memsys *m = tm_make(&c);
        mem_packet a = tm_pkt(0, 128, MEM_READ, 0, 0), b = tm_pkt(128, 32, MEM_READ, 0, 1),
                   d = tm_pkt(256, 32, MEM_READ, 1, 2);
        assert_int_equal(memsys_slice_of(m, 0), 0);
        assert_int_equal(memsys_slice_of(m, 128), 1);
        assert_int_equal(memsys_slice_of(m, 256), 1);
        uint64_t now = 0;
        bring_into_l2(m, &a, &now);
        bring_into_l2(m, &b, &now);
        bring_into_l2(m, &d, &now);
        uint64_t t0 = now = 1000, at[3] = {0};
        assert_int_equal(memsys_send(m, &a, now), 0);
        assert_int_equal(memsys_send(m, &b, now), 0);
        for (int got = 0; got < 3; now++) {
            assert_true(now < t0 + 1000);
            if (now == t0 + 2) assert_int_equal(memsys_send(m, &d, now), 0);
            memsys_tick(m, now);
            mem_packet r;
            for (int sm = 0; sm < 2; sm++)
                while (memsys_pop_reply(m, sm, now, &r)) {
                    at[r.token] = now - t0;
                    got++;
                }
        }
        assert_int_equal(at[0], 126);
        assert_int_equal(at[1], 128);
        assert_int_equal(at[2], on ? 130 : 126);
        memsys_destroy(m);
    }
}

/* icnt_reply_chain: SMs 0 and 1 read the same 32 bytes of line 0 at once from a cold L2. SM 1's
 * request merges into SM 0's miss, so the fill makes both replies ready at slice 0 together,
 * SM 0's first. Each takes 2 cycles on a 32-byte port (40 bytes). BookSim's one reply at a
 * time: SM 1's crosses when SM 0's has left, 2 cycles later. The local crossbar's chaining:
 * slice 0's next head goes to SM 1, after SM 0 in the same arbitration, in the same cycle. */
static void test_icnt_reply_chain(void **state)
{
    (void)state;
    uint64_t at[2][2] = {{0}};
    for (int on = 0; on <= 1; on++) {
        memsys_config c = tm_base_config();
        c.num_sms = 2;
        c.icnt_reply_crossbar = 1;
        c.icnt_reply_chain = on;
        memsys *m = tm_make(&c);
        mem_packet a = tm_pkt(0, 32, MEM_READ, 0, 0), b = tm_pkt(0, 32, MEM_READ, 1, 1);
        uint64_t now = 0;
        assert_int_equal(memsys_send(m, &a, now), 0);
        assert_int_equal(memsys_send(m, &b, now), 0);
        collect_replies(m, 2, &now, 0, 2, at[on]);
        memsys_destroy(m);
    }
    assert_int_equal(at[1][0], at[0][0]);
    assert_int_equal(at[0][1], at[0][0] + 2);
    assert_int_equal(at[1][1], at[1][0]);
}

/* l2_map = 1: GPGPU-Sim's QV100 mapping (dramid@8, 32 channels of 2 slices, the slice bit 13,
 * IPOLY over 64 slices). 0x1000: channel 16, slice bit 0, nothing above bit 13: slice 32;
 * 0x1100: channel 17, slice 34; 0x3000: channel 16, slice bit 1: slice 33. 0x81e0: channel 1,
 * slice bit 0, so index 2, and address bit 15 (bit 1 above bit 14) adds x^7 mod x^6 + x + 1 =
 * x^2 + x: 2 ^ 6 = 4. The rest are the slices the reference gave these sector addresses on
 * fdtd2d (its sub-partition ids). Every aligned 16 KB (chip bit + 5 + 1 bits) spreads evenly. */
static void test_gpgpusim_map(void **state)
{
    (void)state;
    memsys_config c = tm_base_config();
    c.partitions = 64;
    c.l2_slices_per_channel = 2;
    c.l2_sets = 32;
    c.l2_map = 1;
    c.l2_map_chip_bit = 8;
    c.l2_map_sub_bit = 13;
    c.l2_set_ipoly = 1;
    memsys *m = tm_make(&c);
    static const struct {
        uint64_t addr;
        uint32_t slice;
    } v[] = {{0x1000, 32},  {0x1100, 34}, {0x3000, 33},  {0x81e0, 4},
             {0x2a700, 17}, {0x32e20, 9}, {0x34420, 31}, {0x43620, 29},
             {0x5f780, 22}, {0x61040, 8}, {0xa76a0, 21}, {0xa7ce0, 1}};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        assert_int_equal(memsys_slice_of(m, v[i].addr), v[i].slice);
    int count[64] = {0};
    for (uint64_t a = 5 << 14; a < 6 << 14; a += 128)
        count[memsys_slice_of(m, a)]++;
    for (int i = 0; i < 64; i++)
        assert_int_equal(count[i], 2);
    memsys_destroy(m);
    /* sizes the hash has no polynomial for are refused */
    c.partitions = 48;
    c.l2_slices_per_channel = 2;
    expect_bad(c, "48 partitions");
}

/* gpgpusim_linear (GPGPU-Sim's gap decoding, -gpgpu_memory_partition_indexing 0), GTX480-like:
 * 6 channels of 256-byte chunks, 2 sub-partitions each chosen by bit 8 of the address left once
 * the channel is taken out. Address 0x600 is chunk 6: channel 6 % 6 = 0, rest (6 / 6) << 8 =
 * 0x100, sub-partition 1, so slice 1; 0x500 is chunk 5: channel 5, rest 0, slice 10; 0xc80 is
 * chunk 12: channel 0, rest 0x280, bit 8 of which is 0: slice 0. */
static void test_gpgpusim_linear_map(void **state)
{
    (void)state;
    memsys_config c = tm_base_config();
    c.partitions = 12;
    c.l2_slices_per_channel = 2;
    c.l2_map = 2;
    c.l2_map_chip_bit = 8;
    c.l2_map_sub_bit = 8;
    memsys *m = tm_make(&c);
    assert_int_equal(memsys_slice_of(m, 0x000), 0);
    assert_int_equal(memsys_slice_of(m, 0x080), 0);
    assert_int_equal(memsys_slice_of(m, 0x100), 2);
    assert_int_equal(memsys_slice_of(m, 0x500), 10);
    assert_int_equal(memsys_slice_of(m, 0x600), 1);
    assert_int_equal(memsys_slice_of(m, 0xc80), 0);
    /* every 256-byte chunk of 12 consecutive ones goes to another slice */
    int count[12] = {0};
    for (uint64_t a = 0x6000; a < 0x6000 + 12 * 256; a += 128)
        count[memsys_slice_of(m, a)]++;
    for (int i = 0; i < 12; i++)
        assert_int_equal(count[i], 2);
    memsys_destroy(m);
}

/* l2_set_ipoly: one slice of 16 one-way sets. Lines 0 and 16 share set 0 when the index is the
 * line's low bits, so reading 16 evicts 0; with IPOLY line 16's index 0 and its higher bit 0
 * (1 above the index) give x^4 mod x^4 + x + 1 = x + 1: set 3, and 0 stays. */
static void test_l2_set_ipoly(void **state)
{
    (void)state;
    for (int on = 0; on <= 1; on++) {
        memsys_config c = tm_base_config();
        c.partitions = 1;
        c.l2_sets = 16;
        c.l2_ways = 1;
        c.l2_set_ipoly = on;
        memsys *m = tm_make(&c);
        mem_packet a = tm_pkt(0, 128, MEM_READ, 0, 1), b = tm_pkt(16 * 128, 128, MEM_READ, 0, 2);
        uint64_t now = 0;
        bring_into_l2(m, &a, &now);
        bring_into_l2(m, &b, &now);
        memsys_stats before, after;
        memsys_get_stats(m, &before);
        bring_into_l2(m, &a, &now);
        memsys_get_stats(m, &after);
        assert_int_equal(after.l2_hits - before.l2_hits, on ? 1 : 0);
        memsys_destroy(m);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_idle_read_miss_then_hit),
        cmocka_unit_test(test_warm_makes_a_hit),
        cmocka_unit_test(test_write_then_read_hits),
        cmocka_unit_test(test_atomic),
        cmocka_unit_test(test_write_acks),
        cmocka_unit_test(test_l2_mshr_merge),
        cmocka_unit_test(test_l2_sector_cycles),
        cmocka_unit_test(test_icnt_crossbar),
        cmocka_unit_test(test_icnt_reply_crossbar),
        cmocka_unit_test(test_icnt_reply_chain),
        cmocka_unit_test(test_gpgpusim_map),
        cmocka_unit_test(test_gpgpusim_linear_map),
        cmocka_unit_test(test_l2_set_ipoly),
        cmocka_unit_test(test_mshr_merge),
        cmocka_unit_test(test_inst_read_not_a_load),
        cmocka_unit_test(test_dram_stream_bandwidth),
        cmocka_unit_test(test_dram_random_rows),
        cmocka_unit_test(test_frfcfs_row_hit_first),
        cmocka_unit_test(test_contention_raises_latency),
        cmocka_unit_test(test_backpressure),
        cmocka_unit_test(test_icnt_sm_buffer),
        cmocka_unit_test(test_determinism_and_skipping),
        cmocka_unit_test(test_bad_configs),
        cmocka_unit_test(test_injection_queue_limit),
        cmocka_unit_test(test_injection_queue_hold),
        cmocka_unit_test(test_clock_l2_half),
        cmocka_unit_test(test_clock_icnt_and_dram),
        cmocka_unit_test(test_clock_dram_bandwidth_exact),
        cmocka_unit_test(test_clock_dram_bandwidth_property),
        cmocka_unit_test(test_clock_domains_skipping),
        cmocka_unit_test(test_deferred_sends_and_pops),
        cmocka_unit_test(test_slices_share_channel),
        cmocka_unit_test(test_dram_latency_first),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
