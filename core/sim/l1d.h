/* The L1 data cache of one SM: sets x ways x line, a selectable set-index hash, allocate on
 * miss with line reservation, MSHRs that merge misses to the same line, and the replacement /
 * insertion / promotion / bypass decisions delegated to an l1_policy_ops plug-in. */
#ifndef WT_L1D_H
#define WT_L1D_H

#include <stddef.h>
#include <stdint.h>

#include "core/policy.h"

typedef enum l1_outcome {
    L1_HIT,      /* data present */
    L1_MISS,     /* a line was reserved and an MSHR allocated: send the fill request */
    L1_MERGED,   /* joined an outstanding MSHR for the same line */
    L1_RESFAIL,  /* no MSHR, merge slot or unreserved way, or the policy stalled: replay */
    L1_BYPASSED, /* the policy chose to bypass: send the request around the cache */
} l1_outcome;

extern const char *const l1_outcome_names[]; /* "hit", "miss", "merged", ... */

/* Why the last L1_RESFAIL happened: what must change before a replay can succeed. */
typedef enum l1_fail {
    L1F_MSHR,     /* no free MSHR: a fill frees one */
    L1F_MERGE,    /* the line's MSHR has no merge slot: its fill frees it */
    L1F_RESERVED, /* every way of the set waits for a fill */
    L1F_SEND,     /* the SM cannot send a request now */
    L1F_STALL,    /* the policy chose to stall */
} l1_fail;

typedef struct l1d_config {
    int sets, ways, line_bytes;
    int hash; /* 0 linear, 1 xor */
    int mshrs, mshr_merge;
} l1d_config;

typedef struct l1d l1d;

/* Creates the cache and its policy instance (1 to 64 ways). Returns 0 or -1 with err. */
int l1d_create(l1d **out, const l1d_config *cfg, const l1_policy_ops *ops, const l1_env *env,
               const param_set *p, char *err, size_t errlen);
void l1d_destroy(l1d *c);

uint64_t l1d_line_of(const l1d *c, uint64_t addr);
int l1d_set_of(const l1d *c, uint64_t line_addr);

/* One load access. `waiter` is the caller's tag for who waits on a miss or merge;
 * `can_send` says whether a new request could leave the SM now (a miss needs it).
 * On L1_MISS *mshr receives the MSHR id to put in the request. On a hit *owner_warp receives
 * the warp that brought the line in. When a valid line is replaced, *evicted_warp and
 * *evicted_line receive its owner and address (else *evicted_warp = -1). */
l1_outcome l1d_load(l1d *c, const l1_request *r, uint32_t waiter, int can_send, int *mshr,
                    int *owner_warp, int *evicted_warp, uint64_t *evicted_line);

/* Would l1d_load of line_addr with can_send set now fail for a reason only a fill lifts
 * (L1F_MSHR, L1F_MERGE, L1F_RESERVED), whatever the policy? 0 may also mean "not known
 * cheaply". Changes nothing. */
int l1d_load_needs_fill(const l1d *c, uint64_t line_addr);

/* Write-evict for a global store or atomic: drops the line if it is present and valid.
 * Returns 1 if a line was dropped. */
int l1d_store(l1d *c, uint64_t line_addr);

/* The fill for MSHR id arrived: the reserved line becomes valid (insertion by the policy)
 * and the waiters are returned (up to mshr_merge of them). Returns their number. */
int l1d_fill(l1d *c, int mshr, uint32_t *waiters, uint64_t *line_addr);

/* Is there a free MSHR? (Whether a replay may succeed before the next fill.) */
int l1d_mshr_free(const l1d *c);
/* The reason of the last L1_RESFAIL. */
l1_fail l1d_last_fail(const l1d *c);

/* Adds the policy instance's statistics into sums (l1_policy_ops.collect). */
void l1d_collect(const l1d *c, double *sums);

/* Reports a finished load to the policy (DaCache's fully-cached-load tracking). */
void l1d_load_done(l1d *c, int warp_slot, int warp_prio, int accesses, int misses);

#endif
