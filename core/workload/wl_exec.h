/* Workload language: the per-simulation instance (memory image, warps, CTAs, host state)
 * shared by the instance management (wl_instance.c) and the interpreter (wl_exec.c). */
#ifndef WT_WL_EXEC_H
#define WT_WL_EXEC_H

#include <stdbool.h>

#include "core/workload/wl_internal.h"

typedef struct wl_entry {
    uint32_t pc, rpc, mask;
} wl_entry;

typedef struct wl_warp {
    uint32_t *regs; /* regs[r * 32 + lane] */
    uint32_t pred[WT_MAX_PREDS];
    wl_entry *stack;
    int sp;
    int cta_slot;
    uint32_t cta_id, warp_in_cta;
} wl_warp;

/* A global load, store or atomic issued in deferred mode (isource_ops.defer): its addresses
 * are checked and handed to the timing model at issue, its data move at wl_commit. */
typedef struct wl_pending {
    uint8_t op, sub;
    uint32_t act;
    uint32_t *d; /* loads and atomics: the destination register's lanes */
    uint32_t addr[WT_WARP_SIZE];
    uint32_t a[WT_WARP_SIZE], b[WT_WARP_SIZE]; /* stores: a; atomics: a, b */
} wl_pending;

typedef struct wl_pending_list {
    wl_pending *e;
    uint32_t n, cap;
} wl_pending_list;

typedef struct wl_instance {
    const workload *w;
    int nsm, max_warps, max_ctas;
    uint32_t *mem; /* words from WL_MEM_BASE */
    wl_warp *warps;
    uint32_t *regfile;
    wl_entry *stacks;
    int stack_cap;
    uint32_t *shared; /* max_shared/4 words per (sm, cta slot) */
    uint32_t shared_words;
    /* host program */
    size_t host_pc;
    uint32_t *iters;         /* per host op: iterations done by a HOST_DO */
    uint64_t launches;       /* kernels launched so far */
    uint64_t *iter_launches; /* per HOST_DO: `launches` when its current iteration began */
    const wl_kernel *k;
    uint32_t grid, block;
    /* deferred mode: per SM, the global accesses issued since its last wl_commit */
    bool deferred;
    wl_pending_list *pending;
} wl_instance;

extern const isource_ops wl_isource_ops;

int wl_issue(void *self, int sm, int warp_slot, inst_exec *out, char *err, size_t errlen);
/* isource_ops.commit: SM sm's pending global accesses, in issue order. */
void wl_commit(void *self, int sm);

#endif
