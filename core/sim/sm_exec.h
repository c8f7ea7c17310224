/* The SM's execution stage: from issue to the units. The INT, FP, SFU and branch units (when
 * each is free), the operand collector in front of them (sm.operand_collector, in GPGPU-Sim's
 * issue order or its sub-core order, sm.oc_dispatch), and the path of memory instructions to
 * the load/store unit (sm.mem_queue: ID_OC_MEM, a collector unit, OC_EX_MEM), which the SM
 * drains into the load/store unit when that is free.
 *
 * An INT, FP or SFU result is queued as a timed event (EV_WB) for the cycle it is written
 * back; its destinations are reserved in the scoreboard at issue. A unit or queue place that
 * frees posts a wake-up; an instruction that leaves the collector reports its warp (SMR_LEAVE),
 * which may then be done. The stage calls no other part of the SM. */
#ifndef WT_SM_EXEC_H
#define WT_SM_EXEC_H

#include <stdbool.h>
#include <stdint.h>

#include "core/config/config.h"
#include "core/isource.h"
#include "core/sim/sm.h"
#include "core/sim/sm_events.h"
#include "core/sim/sm_scoreboard.h"
#include "core/sim/sm_warps.h"

typedef struct sm_exec sm_exec;

/* A memory instruction leaving the queue for the load/store unit. */
typedef struct exec_mem {
    int warp;
    inst_info in;
    inst_exec x;
} exec_mem;

int exec_create(sm_exec **out, const gpu_config *cfg, sm_evq *ev, scoreboard *sb, sm_warps *wp,
                sm_wakes *wakes, sm_reports *rep, sm_stats *st);
void exec_destroy(sm_exec *ex);

/* For the issue stage, scheduler k: the cycle from which an instruction of class cls (INT,
 * FP, SFU, a branch) finds its unit or collector slot free; whether queued memory instructions
 * hold every collector unit it could use (sm.mem_queue_collectors); whether the memory queue is
 * full. */
uint64_t exec_free_at(const sm_exec *ex, int k, int cls);
bool exec_units_held(const sm_exec *ex, int k, int cls);
bool exec_mem_full(const sm_exec *ex);

/* Warp wi's INT, FP or SFU instruction of scheduler k, `lanes` active, holding its unit ii
 * cycles (0: the unit's own initiation interval). */
void exec_alu(sm_exec *ex, int wi, int k, const inst_info *in, uint64_t now, uint32_t lanes,
              int ii);
/* A branch of scheduler k holds its branch unit (sm.branch_unit_ii). */
void exec_branch(sm_exec *ex, int k, uint64_t now);

/* Warp wi's memory instruction joins the queue to the load/store unit (sm.mem_queue); its
 * destinations are reserved now. */
void exec_mem_push(sm_exec *ex, int wi, const inst_info *in, const inst_exec *x, uint64_t now);
/* The instruction to enter the load/store unit now, taken off the queue, or NULL when none is
 * due; valid until the next exec_mem_push. */
const exec_mem *exec_mem_pop(sm_exec *ex, uint64_t now);

/* sm.oc_dispatch=unit: the collector's steps of cycle now that can change anything. */
void exec_step(sm_exec *ex, uint64_t now);
/* The next cycle the stage needs the SM (UINT64_MAX: none before an outside event); the
 * memory queue waits while the load/store unit is busy. */
uint64_t exec_wake(sm_exec *ex, uint64_t now, bool ldst_busy);
/* Instructions queued or in the collector. */
bool exec_busy(const sm_exec *ex);

#endif
