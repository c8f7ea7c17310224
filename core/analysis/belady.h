/* Belady-optimal replacement (MIN) as an offline pass over a recorded L1D access stream, per
 * SM, with the run's geometry and set-index hash: only misses are counted, no timing (CCWS's
 * SAGCS). Two bounds: MIN, which allocates every miss and evicts the line re-referenced
 * furthest in the future (CCWS's Belady), and MIN with bypass, which may also decline to
 * allocate when the missing line is the one re-referenced furthest: the lower bound for
 * policies that bypass. A write-evict store that dropped a line in the run drops it here too. */
#ifndef WT_BELADY_H
#define WT_BELADY_H

#include <stddef.h>
#include <stdint.h>

#include "core/config/metrics.h"
#include "core/config/params.h"
#include "core/sim/sim.h"

typedef struct belady_geometry {
    int sets, ways, line_bytes;
    int hash; /* as l1d.hash: 0 linear, 1 xor */
} belady_geometry;

/* One access of the stream: a load of `line`, or (invalidate) a store that drops it. */
typedef struct belady_access {
    uint64_t line;
    uint8_t invalidate;
} belady_access;

typedef struct belady_result {
    uint64_t loads;         /* load accesses in the stream */
    uint64_t misses;        /* MIN */
    uint64_t bypass_misses; /* MIN with bypass */
} belady_result;

/* Runs both passes over one SM's stream. Returns 0, or -1 (out of memory, bad geometry). */
int belady_run(const belady_geometry *g, const belady_access *a, size_t n, belady_result *out);

/* Records the L1D stream of every SM through sim_options.l1_observer. */
typedef struct belady_recorder belady_recorder;

belady_recorder *belady_recorder_new(void);
void belady_recorder_free(belady_recorder *r);
/* The observer: pass it with the recorder as l1_observer_arg. Loads that were accepted (any
 * outcome but a reservation failure) are accesses; stores and atomics that dropped a line
 * ("hit") are invalidations. */
void belady_observe(void *recorder, const l1_access_record *rec);
/* Runs the passes over every SM's stream with the geometry of `config` (l1d.*) and sums them.
 * Returns 0, or -1 with err. */
int belady_recorder_result(const belady_recorder *r, const param_set *config, belady_result *out,
                           char *err, size_t errlen);
/* Puts a result into the metrics (belady_misses, belady_bypass_misses, belady_mpki). */
void belady_fill_metrics(const belady_result *b, sim_metrics *m);

#endif
