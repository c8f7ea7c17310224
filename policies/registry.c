#include "policies/registry.h"

#include <string.h>

extern const sched_ops sched_lrr_ops, sched_gto_ops;
extern const sched_ops sched_two_level_ops, sched_swl_ops, sched_ccws_ops, sched_caws_ops,
    sched_gcaws_ops;
extern const l1_policy_ops l1_lru_ops;
extern const l1_policy_ops l1_rrip_ops, l1_dip_ops, l1_ship_ops, l1_cacp_ops, l1_dacache_ops,
    l1_dacache_stall_ops, l1_dacache_uncon_ops;
extern const cta_ops cta_max_tlp_ops;
extern const cta_ops cta_static_limit_ops, cta_dyncta_ops;

const sched_ops *const sched_policies[] = {
    &sched_lrr_ops,  &sched_gto_ops,  &sched_two_level_ops, &sched_swl_ops,
    &sched_ccws_ops, &sched_caws_ops, &sched_gcaws_ops,     NULL};
const char *const sched_policy_names[] = {"lrr",  "gto",  "two_level", "swl",
                                          "ccws", "caws", "gcaws",     NULL};

const l1_policy_ops *const l1_policies[] = {
    &l1_lru_ops,     &l1_rrip_ops,          &l1_dip_ops,           &l1_ship_ops, &l1_cacp_ops,
    &l1_dacache_ops, &l1_dacache_stall_ops, &l1_dacache_uncon_ops, NULL};
const char *const l1_policy_names[] = {"lru",     "rrip",          "dip",           "ship", "cacp",
                                       "dacache", "dacache_stall", "dacache_uncon", NULL};

const cta_ops *const cta_policies[] = {&cta_max_tlp_ops, &cta_static_limit_ops, &cta_dyncta_ops,
                                       NULL};
const char *const cta_policy_names[] = {"max_tlp", "static_limit", "dyncta", NULL};

/* The parameters that pick a policy of each kind. */
static const param_def policy_choice_defs[] = {
    {"sched.policy", PT_CHOICE, 1, 0, 0, sched_policy_names, "", "warp scheduler"},
    {"l1d.policy", PT_CHOICE, 0, 0, 0, l1_policy_names, "",
     "L1D replacement, insertion and bypass policy"},
    {"cta.policy", PT_CHOICE, 0, 0, 0, cta_policy_names, "", "CTA scheduler"},
};
const param_group policy_choice_group = {"policy", policy_choice_defs,
                                         sizeof policy_choice_defs / sizeof policy_choice_defs[0]};

const sched_ops *sched_policy_find(const char *name)
{
    for (size_t i = 0; sched_policies[i]; i++)
        if (strcmp(sched_policies[i]->name, name) == 0) return sched_policies[i];
    return NULL;
}

const l1_policy_ops *l1_policy_find(const char *name)
{
    for (size_t i = 0; l1_policies[i]; i++)
        if (strcmp(l1_policies[i]->name, name) == 0) return l1_policies[i];
    return NULL;
}

const cta_ops *cta_policy_find(const char *name)
{
    for (size_t i = 0; cta_policies[i]; i++)
        if (strcmp(cta_policies[i]->name, name) == 0) return cta_policies[i];
    return NULL;
}

static size_t count_of(const void *const *table)
{
    size_t n = 0;
    while (table[n])
        n++;
    return n;
}

size_t policy_param_group_count(void)
{
    return count_of((const void *const *)sched_policies) +
           count_of((const void *const *)l1_policies) + count_of((const void *const *)cta_policies);
}

param_group policy_param_group(size_t i)
{
    size_t ns = count_of((const void *const *)sched_policies);
    size_t nl = count_of((const void *const *)l1_policies);
    if (i < ns) {
        const sched_ops *o = sched_policies[i];
        return (param_group){o->name, o->params, o->nparams};
    }
    i -= ns;
    if (i < nl) {
        const l1_policy_ops *o = l1_policies[i];
        return (param_group){o->name, o->params, o->nparams};
    }
    i -= nl;
    const cta_ops *o = cta_policies[i];
    return (param_group){o->name, o->params, o->nparams};
}
