/* The policy harness: warp schedulers, L1D policies and CTA schedulers built by name outside any
 * SM, for the unit tests of single policies (tests/test_sched_policies.c, test_cache_policies.c,
 * test_cta_policies.c, test_policy_conformance.c, test_belady.c, test_l1d.c).
 *
 * Each ph_*_make looks the policy up in the registry, starts from the registry's defaults,
 * applies the "name=value" overrides (NULL-terminated, may be NULL), seeds the policy's own
 * generator and calls the policy's create with the given environment, whose rng (and crit)
 * the harness points at its own copies; any failure fails the test. ph_*_try does the same
 * but returns create's status with its message instead. Every ph_* struct points into itself:
 * make it in place and do not copy it. ph_*_free tears everything down. */
#ifndef WT_TEST_POLICY_HARNESS_H
#define WT_TEST_POLICY_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/config/metrics.h"
#include "core/config/params.h"
#include "core/policy.h"
#include "core/util/rng.h"
#include "core/sim/cpl.h"
#include "core/sim/l1d.h"

/* ------------------------------------------------------------- warp schedulers ---- */

#define PH_WARPS 64

typedef struct ph_sched {
    const sched_ops *ops;
    void *self;
    param_set *p;
    wt_rng rng;
    warp_criticality crit; /* a copy of *env.crit, when given one */
    warp_view v[PH_WARPS]; /* a view per warp slot: slot and age its index, class IC_INT */
} ph_sched;

int ph_sched_try(ph_sched *s, const char *name, sched_env env, uint64_t seed,
                 const char *const *sets, char *err, size_t errlen);
void ph_sched_make(ph_sched *s, const char *name, sched_env env, uint64_t seed,
                   const char *const *sets);
/* Asks the scheduler to pick among ready (n >= 1 views) at cycle now and reports the issue as
 * the SM does (on_issue). Returns the index into ready, or -1 when it issues nothing. */
int ph_sched_pick(ph_sched *s, const warp_view *const *ready, int n, uint64_t now);
void ph_sched_free(ph_sched *s);

/* The instances of scheduler `name` one SM makes (core/sim/sm.c): the state they share, when
 * the policy has create_shared (made first, with env.scheduler 0), then one instance per
 * scheduler k = 0..num_schedulers-1, each with env.scheduler k and the shared state; warp slot
 * w belongs to instance w % num_schedulers. Every instance sees the harness's generator and
 * its copies of *crit and *stalls (either may be NULL). ph_sched_sm_try returns 0, or -1 with
 * the message create gave (nothing is left to free). */
#define PH_MAX_SCHEDULERS 4

typedef struct ph_sched_sm {
    const sched_ops *ops;
    void *shared;
    void *self[PH_MAX_SCHEDULERS];
    int num_schedulers, max_warps;
    param_set *p;
    wt_rng rng;
    warp_criticality crit;
    warp_stalls stalls;
} ph_sched_sm;

int ph_sched_sm_try(ph_sched_sm *s, const char *name, int max_warps, int num_schedulers,
                    const warp_criticality *crit, const warp_stalls *stalls, uint64_t seed,
                    const char *const *sets, char *err, size_t errlen);
/* The instance that schedules warp slot w. */
void *ph_sched_sm_of(const ph_sched_sm *s, int w);
void ph_sched_sm_free(ph_sched_sm *s);

/* -------------------------------------------------------------- L1D policies ---- */

/* A policy with the lines of an env.geom.sets x env.geom.ways cache as the L1D keeps them for
 * it: valid, reserved, tag and the policy's line_state_bytes of state per line, all zero at
 * start, set by set (line i of set s at index s * ways + i). */
typedef struct ph_l1 {
    const l1_policy_ops *ops;
    void *self;
    param_set *p;
    wt_rng rng;
    int sets, ways;
    size_t sb; /* the policy's line_state_bytes */
    uint8_t *valid, *reserved;
    uint64_t *tags;
    uint8_t *state;
} ph_l1;

void ph_l1_make(ph_l1 *c, const char *name, l1_env env, uint64_t seed, const char *const *sets);
/* The view of one set, as the policy's hooks take it. */
l1_set_view ph_l1_view(ph_l1 *c, int set);
void ph_l1_free(ph_l1 *c);

/* A whole L1 data cache (core/sim/l1d.h) with L1D policy `name`, on SM 0 with max_warps warp
 * slots; the policy's geometry is the cache's. */
typedef struct ph_l1d {
    l1d *c;
    param_set *p;
    wt_rng rng;
    l1d_config cfg;
} ph_l1d;

int ph_l1d_try(ph_l1d *f, const char *name, l1d_config cfg, int max_warps, uint64_t seed,
               const char *const *sets, char *err, size_t errlen);
/* ph_l1d_try with the cache driving *ops instead of the operations `name` resolves to (a
 * wrapper that checks every call, for instance); `name` still gives the parameters (an alias
 * sets its variant). ops NULL: the named policy's own. */
int ph_l1d_try_ops(ph_l1d *f, const char *name, const l1_policy_ops *ops, l1d_config cfg,
                   int max_warps, uint64_t seed, const char *const *sets, char *err, size_t errlen);
void ph_l1d_make(ph_l1d *f, const char *name, l1d_config cfg, int max_warps, uint64_t seed,
                 const char *const *sets);
void ph_l1d_free(ph_l1d *f);

/* Streams of L1D accesses replayed through a whole L1D (PH_LINE-byte lines, every miss filled
 * at once), for the properties of the policies over streams (test_cache_policies.c) and
 * Belady's bound (test_belady.c). One access: a load, with what a policy may know of it, or a
 * store (write-evict). */
#define PH_LINE 128

typedef struct ph_access {
    uint64_t line; /* byte address, line-aligned */
    uint32_t pc;
    int warp, prio, div;
    bool critical, store;
} ph_access;

typedef struct ph_replay {
    uint64_t misses, bypasses;
    sim_metrics m; /* the policy's collected statistics, where the catalogue puts them */
} ph_replay;

/* Runs the stream through an L1D of the geometry with l1d.policy=`policy` (a policy or an
 * alias; "name=value" overrides in kv), SM 0 with 48 warp slots. */
ph_replay ph_l1d_replay(const char *policy, const char *const *kv, int sets, int ways, int hash,
                        const ph_access *s, size_t n);
/* n random accesses (calloc'd) over `universe` lines, half of them to a hot quarter (reuse for
 * the policies to find), one in 20 a store when `stores`; random pc, warp, rank, divergence and
 * criticality. */
ph_access *ph_random_stream(wt_rng *rng, size_t n, uint64_t universe, int stores);

/* ------------------------------------------------------------- CTA schedulers ---- */

typedef struct ph_cta {
    const cta_ops *ops;
    void *self;
    param_set *p;
    wt_rng rng;
} ph_cta;

int ph_cta_try(ph_cta *c, const char *name, cta_env env, uint64_t seed, const char *const *sets,
               char *err, size_t errlen);
void ph_cta_make(ph_cta *c, const char *name, cta_env env, uint64_t seed, const char *const *sets);
void ph_cta_free(ph_cta *c);

/* CAWA's predictor of 16 warp slots with the settings "name=value" (NULL: the defaults), as
 * the SM runs it beside the scheduler; free it with cpl_destroy. */
cpl *ph_cpl_make(const char *const *sets);
/* Warp `warp`'s branch at pc to target (reconverging at reconv) with `active` lanes, `taken` of
 * them taking it, told to c at cycle 0. */
void ph_cpl_branch(cpl *c, int warp, uint32_t pc, uint32_t target, uint32_t reconv, uint32_t active,
                   uint32_t taken);

#endif
