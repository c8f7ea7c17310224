/* The policy harness: warp schedulers, L1D policies and CTA schedulers built by name outside any
 * SM, for the unit tests of single policies (tests/test_sched.c, test_cta.c, test_policies.c,
 * test_cache_policies.c, test_cache_properties.c, test_l1d.c).
 *
 * Each ph_*_make looks the policy up in the registry, starts from the registry's defaults,
 * applies the "name=value" overrides (NULL-terminated, may be NULL), seeds the policy's own
 * generator and calls the policy's create with the given environment, whose rng (and crit)
 * the harness points at its own copies; any failure fails the test. ph_*_try does the same
 * but returns create's status with its message instead. Every ph_* struct points into itself:
 * make it in place and do not copy it. ph_*_free tears everything down. */
#ifndef WT_TEST_POLICY_HARNESS_H
#define WT_TEST_POLICY_HARNESS_H

#include <stddef.h>
#include <stdint.h>

#include "core/config/params.h"
#include "core/policy.h"
#include "core/util/rng.h"
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
void ph_l1d_make(ph_l1d *f, const char *name, l1d_config cfg, int max_warps, uint64_t seed,
                 const char *const *sets);
void ph_l1d_free(ph_l1d *f);

/* ------------------------------------------------------------- CTA schedulers ---- */

typedef struct ph_cta {
    const cta_ops *ops;
    void *self;
    param_set *p;
    wt_rng rng;
} ph_cta;

void ph_cta_make(ph_cta *c, const char *name, cta_env env, uint64_t seed, const char *const *sets);
void ph_cta_free(ph_cta *c);

#endif
