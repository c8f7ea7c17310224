#include "tests/support/memsys_support.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

memsys_config tm_base_config(void)
{
    memsys_config c = {
        .num_sms = 1,
        .icnt_latency = 10,
        .icnt_bytes_per_cycle = 32,
        .icnt_header_bytes = 8,
        .icnt_sm_queue = 8,
        .partitions = 2,
        .l2_sets = 64,
        .l2_ways = 16,
        .l2_line = 128,
        .l2_hit_latency = 100,
        .l2_mshrs = 32,
        .dram_banks = 16,
        .dram_row_bytes = 2048,
        .dram_queue = 32,
        .dram_bytes_per_cycle = 16,
        .dram_t_cl = 12,
        .dram_t_rcd = 12,
        .dram_t_rp = 12,
        .dram_t_ras = 28,
    };
    return c;
}

memsys *tm_make(const memsys_config *c)
{
    memsys *m = NULL;
    char err[256] = "";
    int rc = memsys_create(&m, c, err, sizeof err);
    if (rc) fprintf(stderr, "%s\n", err);
    assert_int_equal(rc, 0);
    assert_non_null(m);
    return m;
}

mem_packet tm_pkt(uint64_t addr, uint32_t bytes, mem_kind kind, int sm, uint32_t token)
{
    mem_packet p = {
        .addr = addr, .bytes = bytes, .kind = (uint8_t)kind, .sm = (uint16_t)sm, .token = token};
    return p;
}

uint64_t tm_wait_reply(memsys *m, int sm, uint64_t *now, mem_packet *out)
{
    for (uint64_t limit = *now + 100000; *now < limit; (*now)++) {
        memsys_tick(m, *now);
        if (memsys_pop_reply(m, sm, *now, out)) return *now;
    }
    fail_msg("no reply");
    return 0;
}

void tm_run_idle(memsys *m, uint64_t *now)
{
    while (memsys_busy(m)) {
        uint64_t t = memsys_next_event(m, *now);
        assert_true(t != UINT64_MAX);
        *now = t;
        memsys_tick(m, *now);
    }
}
