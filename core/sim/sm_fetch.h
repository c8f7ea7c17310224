/* The SM's front end (sm.fetch): per-warp instruction buffers filled by fetch and decode, one
 * warp per fetch pass, round robin among the warps whose buffer is empty, through an
 * instruction cache (l1i.enabled) whose misses go to the memory system. A filled buffer posts
 * a wake-up for its warp; an instruction-cache fill comes back as a reply (TOK_IFETCH). */
#ifndef WT_SM_FETCH_H
#define WT_SM_FETCH_H

#include <stdbool.h>
#include <stdint.h>

#include "core/config/config.h"
#include "core/mem/memsys.h"
#include "core/sim/sm_events.h"
#include "core/sim/sm_warps.h"

typedef struct sm_frontend sm_frontend;

/* The front end of SM sm_id: it reads the warps' next instructions from wp, sends instruction
 * cache misses to mem and posts wake-ups to wakes. Returns 0, or -1 when out of memory. */
int fe_create(sm_frontend **out, const gpu_config *cfg, int sm_id, memsys *mem, const sm_warps *wp,
              sm_wakes *wakes);
void fe_destroy(sm_frontend *fe);

/* A warp starts in slot wi with an empty buffer. */
void fe_warp_start(sm_frontend *fe, int wi);
/* Warp wi issued an instruction from its buffer. */
void fe_consume(sm_frontend *fe, int wi);
/* Instructions left in warp wi's buffer, and the cycle from which they can issue. */
int fe_buffered(const sm_frontend *fe, int wi);
uint64_t fe_ready_at(const sm_frontend *fe, int wi);
/* Whether a fetch could happen next cycle (a warp to fetch for, or one whose line is back). */
bool fe_pending(const sm_frontend *fe);
/* The cycle's fetch and decode passes, after issue (GPGPU-Sim's order). */
void fe_cycle(sm_frontend *fe, uint64_t now);
/* The instruction cache's MSHR m is filled (a TOK_IFETCH reply). */
void fe_l1i_fill(sm_frontend *fe, int m);

#endif
