#include "tests/support/memsys_support.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

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
