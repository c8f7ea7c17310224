/* The plug-in policies: one line each. A policy `name` of a kind is the file
 * policies/<kind>/<name>.c defining sched_<name>_ops, l1_<name>_ops or cta_<name>_ops, and one
 * line here; policies/registry.c builds its tables from these lines.
 *
 * The order is the order of the choices of sched.policy, l1d.policy and cta.policy and of the
 * parameter catalogue's policy groups: a parameter's id and a configuration's hash depend on
 * it, so new policies go at the end of their kind.
 *
 * Included several times (no include guard), each time with the macros the includer needs
 * defined; the others expand to nothing, and all are undefined at the end:
 *   WT_SCHED(name), WT_L1(name), WT_CTA(name)   a policy of each kind
 *   WT_SCHED_DEFAULT(name), ...                 the default of each kind
 *   WT_L1_ALIAS(alias, name, param, value)      l1d.policy=alias stands for l1d.policy=name
 *                                               with name.param=value (param_alias) */
#ifndef WT_SCHED
#define WT_SCHED(name)
#endif
#ifndef WT_L1
#define WT_L1(name)
#endif
#ifndef WT_CTA
#define WT_CTA(name)
#endif
#ifndef WT_SCHED_DEFAULT
#define WT_SCHED_DEFAULT(name)
#endif
#ifndef WT_L1_DEFAULT
#define WT_L1_DEFAULT(name)
#endif
#ifndef WT_CTA_DEFAULT
#define WT_CTA_DEFAULT(name)
#endif
#ifndef WT_L1_ALIAS
#define WT_L1_ALIAS(alias, name, param, value)
#endif

WT_SCHED(lrr)
WT_SCHED(gto)
WT_SCHED(two_level)
WT_SCHED(swl)
WT_SCHED(ccws)
WT_SCHED(caws)
WT_SCHED(gcaws)
WT_SCHED(two_level_active)
WT_SCHED_DEFAULT(gto)

WT_L1(lru)
WT_L1(rrip)
WT_L1(dip)
WT_L1(ship)
WT_L1(cacp)
WT_L1(dacache)
WT_L1_DEFAULT(lru)
/* DaCache's variants were choices of l1d.policy before dacache.variant existed. */
WT_L1_ALIAS(dacache_stall, dacache, variant, stall)
WT_L1_ALIAS(dacache_uncon, dacache, variant, uncon)

WT_CTA(max_tlp)
WT_CTA(static_limit)
WT_CTA(dyncta)
WT_CTA_DEFAULT(max_tlp)

#undef WT_SCHED
#undef WT_L1
#undef WT_CTA
#undef WT_SCHED_DEFAULT
#undef WT_L1_DEFAULT
#undef WT_CTA_DEFAULT
#undef WT_L1_ALIAS
