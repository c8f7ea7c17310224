/* The execution stage's private parts (core/sim/sm_exec.h): the operand collector's state and
 * the computations over its resources (sm_opcoll.c), which sm_exec.c drives. sm_opcoll.c calls
 * nothing of sm_exec.c. */
#ifndef WT_SM_EXEC_INTERNAL_H
#define WT_SM_EXEC_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "core/config/config.h"
#include "core/isource.h"

/* Everything the collector decides is known when an instruction issues (in GPGPU-Sim's issue
 * order), so it keeps only when each resource frees: collector units and banks in port passes
 * ("steps": cycle * sm.reg_port_throughput + pass), pipeline-register slots in cycles. Unit
 * classes index the slot arrays: IC_INT, IC_FP, IC_SFU. */
#define OC_MAX_BANKS 64
#define OC_MAX_UNITS 128 /* the generic set, then the SFU's own */
#define OC_MAX_SLOTS 16
enum oc_share { OCS_SLOT, OCS_SLOT_SFU, OCS_UNIT, OCS_UNIT_SFU, OCS_BANK, OCS_COUNT };

/* sm.oc_dispatch=unit: an INT, FP or SFU instruction in an ID_OC slot or a collector unit. Its
 * way through is then decided step by step (exec_step), not when it issues. */
typedef struct oc_inst {
    uint64_t at;      /* in ID_OC: the step it may take a unit from; in a unit: may dispatch */
    uint64_t seq;     /* issue order (GPGPU-Sim's uid): ID_OC's oldest takes a unit first */
    uint64_t m[2];    /* the scoreboard slots its writeback releases */
    uint32_t latency; /* cycles from its unit's start to that release */
    int8_t wi, k, cls, queue, nbanks;
    uint8_t ii;      /* cycles it holds its unit */
    uint8_t bank[4]; /* the banks of its distinct source registers */
} oc_inst;

typedef struct opcoll {
    const gpu_config *cfg;
    uint64_t bank_next[OC_MAX_BANKS]; /* step from which the bank can serve a read */
    uint64_t cu_free[OC_MAX_UNITS];   /* step from which the collector unit can be allocated */
    uint64_t id_oc[3][OC_MAX_SLOTS];  /* cycle from which the ID_OC slot takes an issue */
    uint64_t id_free[3][4];           /* the earliest of them in scheduler k's share */
    /* scheduler k's share [lo, hi) of each resource (enum oc_share), from the configuration */
    uint8_t share_lo[OCS_COUNT][4], share_hi[OCS_COUNT][4];
    uint64_t oc_ex[3][OC_MAX_SLOTS]; /* cycle from which the OC_EX slot takes a dispatch */
    uint64_t cu_disp[OC_MAX_UNITS];  /* step of the unit's last dispatch (sm.mem_queue_order) */
    /* sm.oc_dispatch=unit: the instructions in ID_OC slots (bit i of idoc_used[cls]: slot i
     * holds idoc[cls][i]) and in units (bit u of cu_alu: unit u holds cu_inst[u]; its cu_free
     * is UINT64_MAX meanwhile), the first step not yet run */
    oc_inst idoc[3][OC_MAX_SLOTS];
    uint32_t idoc_used[3];
    oc_inst cu_inst[OC_MAX_UNITS];
    uint64_t cu_alu[OC_MAX_UNITS / 64];
    /* and the queued memory instructions in units (bit u of cu_mem: it may dispatch from step
     * cu_mem_at[u]), per scheduler whether its OC_EX_MEM slot holds one, and how many of its
     * wait in ID_OC_MEM for a unit */
    uint64_t cu_mem[OC_MAX_UNITS / 64];
    uint64_t cu_mem_at[OC_MAX_UNITS];
    bool ex_mem_busy[4];
    int mq_waiting[4];
    uint64_t step, seq;
    int inflight;  /* instructions in ID_OC slots or units, memory ones included */
    uint64_t next; /* a lower bound on the first step that can change anything, exact after
                    * a recount (next_stale: recount before use) */
    bool next_stale;
    /* units held by queued memory instructions (cu_free UINT64_MAX) per share of the generic
     * units, so that whether scheduler k's share has a free one is a comparison, not a walk:
     * held[k_share[k]]; a unit counts in held[cu_share[cu]] (4: in no share) */
    uint8_t held[5], k_share[4], cu_share[OC_MAX_UNITS];
} opcoll;

/* x / ports, a shift for a power of two (the division is a slow instruction; every INT, FP
 * and SFU issue makes two). */
static inline uint64_t oc_per_ports(uint64_t x, uint64_t ports)
{
    return ports & (ports - 1) ? x / ports : x >> __builtin_ctzll(ports);
}

/* The index in [lo, hi) of the smallest t, the first of equals. */
static inline int oc_earliest(const uint64_t *t, int lo, int hi)
{
    int best = lo;
    for (int i = lo + 1; i < hi; i++)
        if (t[i] < t[best]) best = i;
    return best;
}

/* sm_opcoll.c: the collector's resources */
void oc_init(opcoll *o, const gpu_config *c);
uint64_t oc_slot_free(const opcoll *o, int k, int cls);
bool oc_unit_free(const opcoll *o, int k, int cls);
int oc_hold(opcoll *o, int k, uint64_t now, uint64_t *from);
void oc_release(opcoll *o, int cu, uint64_t now);
int oc_rr_start(const opcoll *o, uint64_t now);
uint64_t oc_issue(opcoll *o, int wi, int k, const inst_info *in, uint64_t now, int ii,
                  uint64_t *unit);
int oc_banks(const opcoll *o, int k, int wi, const inst_info *in, uint8_t bank[4]);
uint64_t oc_read(opcoll *o, const uint8_t *bank, int n, uint64_t p);

#endif
