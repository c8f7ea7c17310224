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
    int hash; /* l1d.hash: L1D_HASH_linear, _xor, _fermi (Nugteren et al., HPCA 2014) */
    int mshrs, mshr_merge;
    int sectored;     /* lines of line_bytes / L1D_SECTOR sectors, each valid on its own */
    int recency_miss; /* the policy's insertion at the miss (reservation), merges promote, a fill
                       * touches nothing (GPGPU-Sim); 0: insertion at the fill */
    int miss_spare;   /* l1d.miss_spare: free send slots a non-hit leaves beyond its requests
                       * (last: initialisers that leave it out mean 0) */
} l1d_config;

#define L1D_MAX_WAYS 256 /* Volta's 128 KB unified L1D is 4 sets of 256 ways */
#define L1D_SECTOR   32  /* bytes of a sector of a sectored L1D (GPGPU-Sim's SECTOR_SIZE) */

/* What a sectored access found, sector by sector (bit s: the s-th sector of the line). */
typedef struct l1_sectors {
    uint32_t hit;    /* valid */
    uint32_t merged; /* its fetch is outstanding: the access joined its MSHR (HIT_RESERVED) */
    uint32_t miss;   /* fetched now, one MSHR and one request each */
    int line_miss;   /* the line was not present: a way was reserved (MISS, else SECTOR_MISS) */
    int mshr[32];    /* per sector of miss | merged: its MSHR (for miss: put it in the request) */
} l1_sectors;

typedef struct l1d l1d;

/* Creates the cache and its policy instance (1 to L1D_MAX_WAYS ways). Returns 0 or -1 with err. */
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

/* One load access of a sectored L1D (cfg.sectored): `sectors` are the sectors the access
 * needs; `send_slots` the requests the SM could send now. The access succeeds for all its
 * sectors or for none (L1_RESFAIL): L1_HIT when every sector is valid, L1_MISS when some are
 * fetched now (in *sec->miss: one MSHR and one request of L1D_SECTOR bytes each), L1_MERGED
 * when none is fetched but some wait for an outstanding fetch; `waiter` waits on every MSHR in
 * sec->mshr of miss | merged. Evictions and owner as l1d_load. */
l1_outcome l1d_load_sectors(l1d *c, const l1_request *r, uint32_t sectors, uint32_t waiter,
                            int send_slots, l1_sectors *sec, int *owner_warp, int *evicted_warp,
                            uint64_t *evicted_line);

/* l1d_load_needs_fill for a sectored access with send_slots requests sendable at the try. */
int l1d_load_sectors_needs_fill(const l1d *c, uint64_t line_addr, uint32_t sectors, int send_slots);

/* Would l1d_load of line_addr with can_send set now fail for a reason only a fill lifts
 * (L1F_MSHR, L1F_MERGE, L1F_RESERVED), whatever the policy? 0 may also mean "not known
 * cheaply". Changes nothing. */
int l1d_load_needs_fill(const l1d *c, uint64_t line_addr);

/* A hint that line_addr will be looked up soon: starts loading the host memory its lookup
 * reads. Changes nothing the cache holds. */
void l1d_prefetch(const l1d *c, uint64_t line_addr);

/* Write-evict for a global store or atomic: drops the line if it is present and valid.
 * Returns 1 if a line was dropped. */
int l1d_store(l1d *c, uint64_t line_addr);

/* The fill for MSHR id arrived: the reserved line becomes valid (insertion by the policy)
 * and the waiters are returned (up to mshr_merge of them). Returns their number. Sectored:
 * the MSHR's one sector becomes valid, and the line stays reserved while others are due. */
int l1d_fill(l1d *c, int mshr, uint32_t *waiters, uint64_t *line_addr);

/* Drops every line (the cache must have no MSHR in use): GPGPU-Sim's L1 invalidation between
 * kernels. Returns -1 when fills are outstanding (nothing changed). */
int l1d_invalidate(l1d *c);

/* Is there a free MSHR? (Whether a replay may succeed before the next fill.) */
int l1d_mshr_free(const l1d *c);
/* The reason of the last L1_RESFAIL. */
l1_fail l1d_last_fail(const l1d *c);

/* Adds the policy instance's statistics into sums (l1_policy_ops.collect). */
void l1d_collect(const l1d *c, double *sums);

/* Reports a finished load to the policy (DaCache's fully-cached-load tracking). */
void l1d_load_done(l1d *c, int warp_slot, int warp_prio, int accesses, int misses);

#endif
