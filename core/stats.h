/* Turns the SMs' and the memory system's counters into the exported metrics, energy
 * included (docs/metrics.md). */
#ifndef WT_STATS_H
#define WT_STATS_H

#include <stdint.h>

#include "core/config.h"
#include "core/metrics.h"
#include "core/sm.h"

void stats_collect(const gpu_config *c, const sm *const *sms, const memsys *mem, uint64_t cycles,
                   int kernels, sim_metrics *m);

#endif
