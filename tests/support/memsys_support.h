/* Helpers for the tests that drive the memory system alone (tests/test_memsys.c,
 * tests/test_dram_timing.c). */
#ifndef WT_TEST_MEMSYS_SUPPORT_H
#define WT_TEST_MEMSYS_SUPPORT_H

#include <stdint.h>

#include "core/mem/memsys.h"

/* One SM, two partitions: latency 10, 32 B/cycle ports, 8-byte header, 64 x 16 x 128-byte L2
 * sets, L2 hit latency 100, 16 banks of 2 KB rows, DRAM 16 B/cycle, t_cl = t_rcd = t_rp = 12,
 * t_ras = 28 (tests/test_memsys.c works out its unloaded timings). */
memsys_config tm_base_config(void);
/* Creates a memory system, failing the test with its message if the config is refused. */
memsys *tm_make(const memsys_config *c);
mem_packet tm_pkt(uint64_t addr, uint32_t bytes, mem_kind kind, int sm, uint32_t token);
/* Ticks cycle by cycle from *now until SM sm has a reply; returns its arrival cycle. */
uint64_t tm_wait_reply(memsys *m, int sm, uint64_t *now, mem_packet *out);
/* Runs event to event until the memory system is idle. */
void tm_run_idle(memsys *m, uint64_t *now);

#endif
