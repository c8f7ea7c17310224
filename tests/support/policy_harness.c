#include "tests/support/policy_harness.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explorer/catalog.h"
#include "core/isource.h"
#include "policies/registry.h"
#include "tests/support/support.h"

/* A parameter set of the registry's defaults plus sets, or NULL with err. */
static param_set *params(const char *const *sets, char *err, size_t errlen)
{
    param_set *p = param_set_new();
    if (!p) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (test_apply_sets(p, NULL, sets, err, errlen) != 0) {
        param_set_free(p);
        return NULL;
    }
    return p;
}

/* ------------------------------------------------------------- warp schedulers ---- */

int ph_sched_try(ph_sched *s, const char *name, sched_env env, uint64_t seed,
                 const char *const *sets, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    for (int i = 0; i < PH_WARPS; i++)
        s->v[i] = (warp_view){.slot = i, .age = (uint64_t)i, .cls = IC_INT};
    s->ops = sched_policy_find(name);
    if (!s->ops) {
        snprintf(err, errlen, "no warp scheduler named %s", name);
        return -1;
    }
    if (!(s->p = params(sets, err, errlen))) return -1;
    wt_rng_seed(&s->rng, seed);
    env.rng = &s->rng;
    if (env.crit) {
        s->crit = *env.crit;
        env.crit = &s->crit;
    }
    int rc = s->ops->create(&s->self, &env, s->p, err, errlen);
    if (rc != 0) {
        param_set_free(s->p);
        s->p = NULL;
        s->self = NULL;
    }
    return rc;
}

void ph_sched_make(ph_sched *s, const char *name, sched_env env, uint64_t seed,
                   const char *const *sets)
{
    char err[512];
    if (ph_sched_try(s, name, env, seed, sets, err, sizeof err) != 0)
        fail_msg("scheduler %s: %s", name, err);
}

int ph_sched_pick(ph_sched *s, const warp_view *const *ready, int n, uint64_t now)
{
    int k = s->ops->pick(s->self, ready, n, now);
    if (k < 0) return -1;
    assert_true(k < n);
    if (s->ops->on_issue) s->ops->on_issue(s->self, ready[k], now);
    return k;
}

void ph_sched_free(ph_sched *s)
{
    if (s->self) s->ops->destroy(s->self);
    param_set_free(s->p);
    s->self = NULL;
    s->p = NULL;
}

int ph_sched_sm_try(ph_sched_sm *s, const char *name, int max_warps, int num_schedulers,
                    const warp_criticality *crit, const warp_stalls *stalls, uint64_t seed,
                    const char *const *sets, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    assert_in_range(num_schedulers, 1, PH_MAX_SCHEDULERS);
    assert_in_range(max_warps, num_schedulers, PH_WARPS);
    s->ops = sched_policy_find(name);
    if (!s->ops) {
        snprintf(err, errlen, "no warp scheduler named %s", name);
        return -1;
    }
    if (!(s->p = params(sets, err, errlen))) return -1;
    s->num_schedulers = num_schedulers;
    s->max_warps = max_warps;
    wt_rng_seed(&s->rng, seed);
    if (crit) s->crit = *crit;
    if (stalls) s->stalls = *stalls;
    sched_env env = {0,         0,
                     max_warps, num_schedulers,
                     &s->rng,   crit ? &s->crit : NULL,
                     NULL,      stalls ? &s->stalls : NULL};
    if (s->ops->create_shared && s->ops->create_shared(&s->shared, &env, s->p) != 0) {
        snprintf(err, errlen, "create_shared failed");
        ph_sched_sm_free(s);
        return -1;
    }
    env.shared = s->shared;
    for (int k = 0; k < num_schedulers; k++) {
        env.scheduler = k;
        if (s->ops->create(&s->self[k], &env, s->p, err, errlen) != 0) {
            s->self[k] = NULL;
            ph_sched_sm_free(s);
            return -1;
        }
    }
    return 0;
}

void *ph_sched_sm_of(const ph_sched_sm *s, int w)
{
    return s->self[w % s->num_schedulers];
}

void ph_sched_sm_free(ph_sched_sm *s)
{
    for (int k = 0; k < PH_MAX_SCHEDULERS; k++)
        if (s->self[k]) s->ops->destroy(s->self[k]);
    if (s->shared) s->ops->destroy_shared(s->shared);
    param_set_free(s->p);
    memset(s, 0, sizeof *s);
}

/* -------------------------------------------------------------- L1D policies ---- */

/* The parameters with l1d.policy set to `name` (a policy or an alias, which also sets its
 * variant parameter) before the overrides, and the policy they name; NULL with err. */
static param_set *l1_params(const char *name, const char *const *sets, const l1_policy_ops **ops,
                            char *err, size_t errlen)
{
    param_set *p = param_set_new();
    if (!p) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (param_set_parse(p, "l1d.policy", name, err, errlen) != 0 ||
        test_apply_sets(p, NULL, sets, err, errlen) != 0) {
        param_set_free(p);
        return NULL;
    }
    *ops = l1_policy_find(param_get_choice(p, "l1d.policy"));
    return p;
}

void ph_l1_make(ph_l1 *c, const char *name, l1_env env, uint64_t seed, const char *const *sets)
{
    char err[512];
    memset(c, 0, sizeof *c);
    if (!(c->p = l1_params(name, sets, &c->ops, err, sizeof err)))
        fail_msg("L1D policy %s: %s", name, err);
    assert_true(env.geom.sets > 0 && env.geom.ways > 0);
    c->sets = env.geom.sets;
    c->ways = env.geom.ways;
    c->sb = c->ops->line_state_bytes;
    size_t lines = (size_t)c->sets * (size_t)c->ways;
    c->valid = calloc(lines, 1);
    c->reserved = calloc(lines, 1);
    c->tags = calloc(lines, sizeof *c->tags);
    c->state = calloc(lines * (c->sb ? c->sb : 1), 1);
    assert_true(c->valid && c->reserved && c->tags && c->state);
    wt_rng_seed(&c->rng, seed);
    env.rng = &c->rng;
    if (c->ops->create(&c->self, &env, c->p, err, sizeof err) != 0)
        fail_msg("L1D policy %s: create: %s", name, err);
}

l1_set_view ph_l1_view(ph_l1 *c, int set)
{
    size_t b = (size_t)set * (size_t)c->ways;
    return (l1_set_view){
        set, c->ways, c->valid + b, c->reserved + b, c->tags + b, c->state + b * c->sb, false};
}

void ph_l1_free(ph_l1 *c)
{
    if (c->self) c->ops->destroy(c->self);
    param_set_free(c->p);
    free(c->valid);
    free(c->reserved);
    free(c->tags);
    free(c->state);
    memset(c, 0, sizeof *c);
}

int ph_l1d_try(ph_l1d *f, const char *name, l1d_config cfg, int max_warps, uint64_t seed,
               const char *const *sets, char *err, size_t errlen)
{
    return ph_l1d_try_ops(f, name, NULL, cfg, max_warps, seed, sets, err, errlen);
}

int ph_l1d_try_ops(ph_l1d *f, const char *name, const l1_policy_ops *with, l1d_config cfg,
                   int max_warps, uint64_t seed, const char *const *sets, char *err, size_t errlen)
{
    memset(f, 0, sizeof *f);
    f->cfg = cfg;
    const l1_policy_ops *ops = NULL;
    if (!(f->p = l1_params(name, sets, &ops, err, errlen))) return -1;
    if (with) ops = with;
    wt_rng_seed(&f->rng, seed);
    l1_env env = {
        {cfg.sets, cfg.ways, cfg.line_bytes}, 0, max_warps, &f->rng, cfg.recency_miss != 0};
    int rc = l1d_create(&f->c, &f->cfg, ops, &env, f->p, err, errlen);
    if (rc != 0) {
        param_set_free(f->p);
        f->p = NULL;
        f->c = NULL;
    }
    return rc;
}

void ph_l1d_make(ph_l1d *f, const char *name, l1d_config cfg, int max_warps, uint64_t seed,
                 const char *const *sets)
{
    char err[512];
    if (ph_l1d_try(f, name, cfg, max_warps, seed, sets, err, sizeof err) != 0)
        fail_msg("L1D with %s: %s", name, err);
}

void ph_l1d_free(ph_l1d *f)
{
    if (f->c) l1d_destroy(f->c);
    param_set_free(f->p);
    f->c = NULL;
    f->p = NULL;
}

ph_replay ph_l1d_replay(const char *policy, const char *const *kv, int sets, int ways, int hash,
                        const ph_access *s, size_t n)
{
    ph_replay c;
    memset(&c, 0, sizeof c);
    ph_l1d f;
    ph_l1d_make(&f, policy, (l1d_config){sets, ways, PH_LINE, hash, 4, 4, 0, 0, 0}, 48, 5, kv);
    l1d *l = f.c;
    for (size_t i = 0; i < n; i++) {
        if (s[i].store) {
            l1d_store(l, s[i].line);
            continue;
        }
        l1_request r = {s[i].line,     s[i].pc,  s[i].warp, s[i].prio, s[i].critical ? 9 : 0,
                        s[i].critical, s[i].div, false,     i};
        int mshr = -1, owner, ew;
        uint64_t el;
        l1_outcome o = l1d_load(l, &r, 0, 1, &mshr, &owner, &ew, &el);
        if (o == L1_RESFAIL) fail_msg("%s: a replay with every line filled", policy);
        if (o == L1_MISS) {
            uint32_t w[8];
            uint64_t line;
            l1d_fill(l, mshr, w, &line);
            c.misses++;
        }
        if (o == L1_BYPASSED) {
            c.misses++;
            c.bypasses++;
        }
        if (o != L1_HIT && o != L1_MISS && o != L1_BYPASSED) fail_msg("outcome %d", (int)o);
    }
    double sums[WT_POLICY_METRICS_MAX] = {0};
    l1d_collect(l, sums);
    const l1_policy_ops *ops = l1_policy_find(param_get_choice(f.p, "l1d.policy"));
    for (size_t k = 0; k < ops->nmetrics; k++)
        c.m.policy[metric_policy_slot(ops->metrics[k].name)] = sums[k];
    ph_l1d_free(&f);
    return c;
}

ph_access *ph_random_stream(wt_rng *rng, size_t n, uint64_t universe, int stores)
{
    ph_access *s = calloc(n, sizeof *s);
    assert_non_null(s);
    uint64_t hot = universe / 4 ? universe / 4 : 1;
    for (size_t i = 0; i < n; i++) {
        /* half the accesses go to a hot quarter: reuse for the policies to find */
        uint64_t blk = wt_rng_below(rng, 2) ? wt_rng_below(rng, hot) : wt_rng_below(rng, universe);
        s[i].line = blk * PH_LINE;
        s[i].pc = (uint32_t)wt_rng_below(rng, 12);
        s[i].warp = (int)wt_rng_below(rng, 48);
        s[i].prio = (int)wt_rng_below(rng, 48);
        s[i].div = wt_rng_below(rng, 3) == 0 ? 1 : 1 + (int)wt_rng_below(rng, 32);
        s[i].critical = wt_rng_below(rng, 2) == 1;
        s[i].store = stores && wt_rng_below(rng, 20) == 0;
    }
    return s;
}

/* ------------------------------------------------------------- CTA schedulers ---- */

int ph_cta_try(ph_cta *c, const char *name, cta_env env, uint64_t seed, const char *const *sets,
               char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    c->ops = cta_policy_find(name);
    if (!c->ops) {
        snprintf(err, errlen, "no CTA scheduler named %s", name);
        return -1;
    }
    if (!(c->p = params(sets, err, errlen))) return -1;
    wt_rng_seed(&c->rng, seed);
    env.rng = &c->rng;
    int rc = c->ops->create(&c->self, &env, c->p, err, errlen);
    if (rc != 0) {
        param_set_free(c->p);
        c->p = NULL;
        c->self = NULL;
    }
    return rc;
}

void ph_cta_make(ph_cta *c, const char *name, cta_env env, uint64_t seed, const char *const *sets)
{
    char err[512];
    if (ph_cta_try(c, name, env, seed, sets, err, sizeof err) != 0)
        fail_msg("CTA scheduler %s: %s", name, err);
}

void ph_cta_free(ph_cta *c)
{
    if (c->self) c->ops->destroy(c->self);
    param_set_free(c->p);
    c->self = NULL;
    c->p = NULL;
}

cpl *ph_cpl_make(const char *const *sets)
{
    param_set *p = param_set_new();
    char err[256];
    if (test_apply_sets(p, NULL, sets, err, sizeof err) != 0) fail_msg("%s", err);
    cpl *c = NULL;
    assert_int_equal(cpl_create(&c, 16, p, err, sizeof err), 0);
    param_set_free(p);
    return c;
}

void ph_cpl_branch(cpl *c, int warp, uint32_t pc, uint32_t target, uint32_t reconv, uint32_t active,
                   uint32_t taken)
{
    branch_event b = {warp, pc, target, pc + 1, reconv, active, taken, taken && taken != active, 0};
    cpl_on_branch(c, &b);
}
