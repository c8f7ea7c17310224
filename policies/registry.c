/* The policy tables, built from policies/list.h: adding a policy adds nothing here. */
#include "policies/registry.h"

#include <string.h>

#define WT_SCHED(n) extern const sched_ops sched_##n##_ops;
#define WT_L1(n)    extern const l1_policy_ops l1_##n##_ops;
#define WT_CTA(n)   extern const cta_ops cta_##n##_ops;
#include "policies/list.h"

const sched_ops *const sched_policies[] = {
#define WT_SCHED(n) &sched_##n##_ops,
#include "policies/list.h"
    NULL};
const char *const sched_policy_names[] = {
#define WT_SCHED(n) #n,
#include "policies/list.h"
    NULL};

const l1_policy_ops *const l1_policies[] = {
#define WT_L1(n) &l1_##n##_ops,
#include "policies/list.h"
    NULL};
const char *const l1_policy_names[] = {
#define WT_L1(n) #n,
#include "policies/list.h"
    NULL};

const cta_ops *const cta_policies[] = {
#define WT_CTA(n) &cta_##n##_ops,
#include "policies/list.h"
    NULL};
const char *const cta_policy_names[] = {
#define WT_CTA(n) #n,
#include "policies/list.h"
    NULL};

/* Each policy's position among its kind's choices, so that the defaults, named in the list,
 * become choice indices at compile time (a misspelt default does not compile). */
enum {
#define WT_SCHED(n) SCHED_AT_##n,
#include "policies/list.h"
};
enum {
#define WT_L1(n) L1_AT_##n,
#include "policies/list.h"
};
enum {
#define WT_CTA(n) CTA_AT_##n,
#include "policies/list.h"
};
#define WT_SCHED_DEFAULT(n) enum { SCHED_DEFAULT = SCHED_AT_##n };
#define WT_L1_DEFAULT(n)    enum { L1_DEFAULT = L1_AT_##n };
#define WT_CTA_DEFAULT(n)   enum { CTA_DEFAULT = CTA_AT_##n };
#include "policies/list.h"

/* The parameters that pick a policy of each kind. */
static const param_def policy_choice_defs[] = {
    {"sched.policy", PT_CHOICE, SCHED_DEFAULT, 0, 0, sched_policy_names, "", "warp scheduler"},
    {"l1d.policy", PT_CHOICE, L1_DEFAULT, 0, 0, l1_policy_names, "",
     "L1D replacement, insertion and bypass policy"},
    {"cta.policy", PT_CHOICE, CTA_DEFAULT, 0, 0, cta_policy_names, "", "CTA scheduler"},
};
const param_group policy_choice_group = {"policy", policy_choice_defs,
                                         sizeof policy_choice_defs / sizeof policy_choice_defs[0]};

const param_alias policy_choice_aliases[] = {
#define WT_L1_ALIAS(alias, n, param, value) {"l1d.policy", #alias, #n, #n "." #param, #value},
#include "policies/list.h"
    {NULL, NULL, NULL, NULL, NULL}};

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
