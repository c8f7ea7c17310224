/* The tables of plug-in policies, built from policies/list.h. Adding a policy is one file under
 * policies/<kind>/ and one line in policies/list.h. */
#ifndef WT_POLICY_REGISTRY_H
#define WT_POLICY_REGISTRY_H

#include "core/policy.h"

/* NULL-terminated, in the same order as the name lists (a test checks it). */
extern const sched_ops *const sched_policies[];
extern const l1_policy_ops *const l1_policies[];
extern const cta_ops *const cta_policies[];
/* The names, as choice lists for sched.policy, l1d.policy and cta.policy. */
extern const char *const sched_policy_names[];
extern const char *const l1_policy_names[];
extern const char *const cta_policy_names[];

const sched_ops *sched_policy_find(const char *name);
const l1_policy_ops *l1_policy_find(const char *name);
const cta_ops *cta_policy_find(const char *name);

/* sched.policy, l1d.policy and cta.policy: the choice of a policy of each kind. */
extern const param_group policy_choice_group;
/* Other names of their choices (policies/list.h's WT_L1_ALIAS lines), ended by an entry whose
 * param is NULL: the catalogue's aliases. */
extern const param_alias policy_choice_aliases[];

/* Parameter groups of every policy, in table order, for the registry: returns the number of
 * groups and, for i below it, the group. */
size_t policy_param_group_count(void);
param_group policy_param_group(size_t i);

#endif
