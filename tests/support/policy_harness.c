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
    memset(f, 0, sizeof *f);
    f->cfg = cfg;
    const l1_policy_ops *ops = NULL;
    if (!(f->p = l1_params(name, sets, &ops, err, errlen))) return -1;
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

/* ------------------------------------------------------------- CTA schedulers ---- */

void ph_cta_make(ph_cta *c, const char *name, cta_env env, uint64_t seed, const char *const *sets)
{
    char err[512];
    memset(c, 0, sizeof *c);
    c->ops = cta_policy_find(name);
    if (!c->ops) fail_msg("no CTA scheduler named %s", name);
    if (!(c->p = params(sets, err, sizeof err))) fail_msg("CTA scheduler %s: %s", name, err);
    wt_rng_seed(&c->rng, seed);
    env.rng = &c->rng;
    if (c->ops->create(&c->self, &env, c->p, err, sizeof err) != 0)
        fail_msg("CTA scheduler %s: %s", name, err);
}

void ph_cta_free(ph_cta *c)
{
    if (c->self) c->ops->destroy(c->self);
    param_set_free(c->p);
    c->self = NULL;
    c->p = NULL;
}
