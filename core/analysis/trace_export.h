/* A workload run written as an Accel-Sim trace (docs/traces.md), for GPGPU-Sim or Accel-Sim to
 * replay: the comparison of bench/accelsim. */
#ifndef WT_TRACE_EXPORT_H
#define WT_TRACE_EXPORT_H

#include <stddef.h>
#include <stdint.h>

#include "core/sim/sim.h"
#include "core/workload/workload.h"

typedef struct trace_export_stats {
    uint64_t kernels, blocks, warp_insts;
    uint64_t bytes; /* of the kernel files written */
} trace_export_stats;

/* Simulates `w` under `config` (through `run`, the caller's composition of the simulator with
 * the policies config names) and writes every warp instruction the interpreter executes to
 * outdir/kernelslist.g and outdir/kernel-N.traceg (binary version 70, tracer version 5),
 * grouped by thread block and warp. The recording does not change the simulation: *m gets
 * the metrics of the run (m may be NULL). Returns 0, or -1 with err. */
int trace_export(const param_set *config, sim_source_runner run, const workload *w,
                 const char *outdir, trace_export_stats *st, sim_metrics *m, char *err,
                 size_t errlen);

#endif
