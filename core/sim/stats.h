/* Turns the SMs' and the memory system's counters into the exported metrics, energy
 * included (docs/metrics.md). */
#ifndef WT_STATS_H
#define WT_STATS_H

#include <stdint.h>
#include <stdio.h>

#include "core/config/config.h"
#include "core/config/metrics.h"
#include "core/sim/sm.h"

/* Writes one CSV row per SM (with a header): cycles, instructions, IPC, C_idle, C_mem, RACT,
 * util, lat_rt, L1D accesses and misses, CTAs. */
void stats_write_per_sm(FILE *f, const gpu_config *c, const sm *const *sms, uint64_t cycles);

void stats_collect(const gpu_config *c, const sm *const *sms, const memsys *mem, uint64_t cycles,
                   int kernels, sim_metrics *m);

#endif
