/* Tests of the policy registry and of the catalogues it feeds: the one-line registration of
 * policies/list.h (every policy file listed, every name found once, the named defaults and
 * aliases), the tables and the parameter groups built from it, the metrics policies declare and
 * where the metric catalogue reports them. What every registered policy must do is checked in
 * test_policy_conformance.c, each policy's own behaviour in test_sched_policies.c,
 * test_cache_policies.c and test_cta_policies.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explorer/catalog.h"
#include "core/config/params.h"
#include "core/policy.h"
#include "policies/registry.h"
#include "explorer/simulate.h"
#include "tests/support/support.h"

/* ---------------------------------------------------------------- registry ---- */

static size_t count_names(const char *const *names)
{
    size_t n = 0;
    while (names[n])
        n++;
    return n;
}

static void check_params(const char *policy, const param_def *params, size_t nparams)
{
    if (nparams) assert_non_null(params);
    for (size_t i = 0; i < nparams; i++) {
        if (param_lookup(params[i].name) < 0)
            fail_msg("policy %s: parameter %s not registered", policy, params[i].name);
        /* a policy's parameters are named after it */
        if (strncmp(params[i].name, policy, strlen(policy)) != 0 ||
            params[i].name[strlen(policy)] != '.')
            fail_msg("policy %s: parameter %s outside its namespace", policy, params[i].name);
    }
}

static void test_registry_tables(void **state)
{
    (void)state;
    size_t ns = count_names(sched_policy_names);
    size_t nl = count_names(l1_policy_names);
    size_t nc = count_names(cta_policy_names);
    assert_true(ns >= 2);
    assert_true(nl >= 1);
    assert_true(nc >= 1);
    for (size_t i = 0; i < ns; i++) {
        const sched_ops *o = sched_policies[i];
        assert_non_null(o);
        assert_string_equal(o->name, sched_policy_names[i]);
        assert_ptr_equal(sched_policy_find(o->name), o);
        assert_non_null(o->doc);
        assert_non_null(o->create);
        assert_non_null(o->destroy);
        assert_non_null(o->pick);
        check_params(o->name, o->params, o->nparams);
    }
    assert_null(sched_policies[ns]);
    for (size_t i = 0; i < nl; i++) {
        const l1_policy_ops *o = l1_policies[i];
        assert_non_null(o);
        assert_string_equal(o->name, l1_policy_names[i]);
        assert_ptr_equal(l1_policy_find(o->name), o);
        assert_non_null(o->doc);
        assert_non_null(o->create);
        assert_non_null(o->destroy);
        assert_non_null(o->victim);
        check_params(o->name, o->params, o->nparams);
    }
    assert_null(l1_policies[nl]);
    for (size_t i = 0; i < nc; i++) {
        const cta_ops *o = cta_policies[i];
        assert_non_null(o);
        assert_string_equal(o->name, cta_policy_names[i]);
        assert_ptr_equal(cta_policy_find(o->name), o);
        assert_non_null(o->doc);
        assert_non_null(o->create);
        assert_non_null(o->destroy);
        assert_non_null(o->limit);
        check_params(o->name, o->params, o->nparams);
    }
    assert_null(cta_policies[nc]);
    assert_null(sched_policy_find("nope"));
    assert_null(l1_policy_find("nope"));
    assert_null(cta_policy_find("nope"));
    assert_null(sched_policy_find(""));
    assert_non_null(sched_policy_find("lrr"));
    assert_non_null(sched_policy_find("gto"));
    assert_non_null(l1_policy_find("lru"));
    assert_non_null(cta_policy_find("max_tlp"));

    /* one parameter group per policy, in table order */
    assert_int_equal(policy_param_group_count(), ns + nl + nc);
    for (size_t i = 0; i < ns + nl + nc; i++) {
        param_group g = policy_param_group(i);
        const char *want = i < ns        ? sched_policy_names[i]
                           : i < ns + nl ? l1_policy_names[i - ns]
                                         : cta_policy_names[i - ns - nl];
        assert_string_equal(g.name, want);
    }
}

/* ------------------------------------------------------- policies/list.h ---- */

/* The list, walked here as registry.c walks it. */
static const char *const listed_sched[] = {
#define WT_SCHED(n) #n,
#include "policies/list.h"
    NULL};
static const char *const listed_l1[] = {
#define WT_L1(n) #n,
#include "policies/list.h"
    NULL};
static const char *const listed_cta[] = {
#define WT_CTA(n) #n,
#include "policies/list.h"
    NULL};
static const char *const listed_defaults[] = {
#define WT_SCHED_DEFAULT(n) #n,
#define WT_L1_DEFAULT(n)    #n,
#define WT_CTA_DEFAULT(n)   #n,
#include "policies/list.h"
    NULL};
static const char *const listed_aliases[][4] = {
#define WT_L1_ALIAS(alias, n, param, value) {#alias, #n, #n "." #param, #value},
#include "policies/list.h"
    {NULL, NULL, NULL, NULL}};

static int listed_in(const char *const *list, const char *name)
{
    for (size_t i = 0; list[i]; i++)
        if (strcmp(list[i], name) == 0) return 1;
    return 0;
}

/* Every C file of policies/<dir> is listed as a policy of its kind, and every listed policy
 * has its file: a policy is its file plus its line. */
static void check_files(const char *dir, const char *const *listed)
{
    char path[256];
    snprintf(path, sizeof path, "policies/%s", dir);
    DIR *d = opendir(path); /* the tests run in the repository root */
    if (!d) fail_msg("cannot read %s", path);
    size_t files = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len < 3 || strcmp(e->d_name + len - 2, ".c") != 0) continue;
        char name[128];
        snprintf(name, sizeof name, "%.*s", (int)(len - 2), e->d_name);
        if (!listed_in(listed, name)) fail_msg("%s/%s is not in policies/list.h", path, e->d_name);
        files++;
    }
    closedir(d);
    size_t n = 0;
    for (; listed[n]; n++) {
        snprintf(path, sizeof path, "policies/%s/%s.c", dir, listed[n]);
        FILE *f = fopen(path, "r");
        if (!f) fail_msg("%s is listed but %s is missing", listed[n], path);
        fclose(f);
    }
    assert_int_equal(files, n);
}

static void test_list_one_line_per_policy(void **state)
{
    (void)state;
    /* the registry's tables are the list, in its order */
    for (size_t i = 0; listed_sched[i] || sched_policy_names[i]; i++) {
        assert_non_null(listed_sched[i]);
        assert_string_equal(sched_policy_names[i], listed_sched[i]);
        assert_string_equal(sched_policies[i]->name, listed_sched[i]);
        assert_ptr_equal(sched_policy_find(listed_sched[i]), sched_policies[i]);
    }
    for (size_t i = 0; listed_l1[i] || l1_policy_names[i]; i++) {
        assert_non_null(listed_l1[i]);
        assert_string_equal(l1_policy_names[i], listed_l1[i]);
        assert_string_equal(l1_policies[i]->name, listed_l1[i]);
        assert_ptr_equal(l1_policy_find(listed_l1[i]), l1_policies[i]);
    }
    for (size_t i = 0; listed_cta[i] || cta_policy_names[i]; i++) {
        assert_non_null(listed_cta[i]);
        assert_string_equal(cta_policy_names[i], listed_cta[i]);
        assert_string_equal(cta_policies[i]->name, listed_cta[i]);
        assert_ptr_equal(cta_policy_find(listed_cta[i]), cta_policies[i]);
    }
    /* today's order, on which parameter ids and configuration hashes depend */
    assert_string_equal(listed_sched[0], "lrr");
    assert_string_equal(listed_sched[6], "gcaws");
    assert_string_equal(listed_l1[5], "dacache");
    assert_null(listed_l1[6]);
    assert_string_equal(listed_cta[2], "dyncta");

    /* a name is one policy's, whatever its kind (it also names the policy's parameters) */
    const char *const *kinds[] = {listed_sched, listed_l1, listed_cta};
    for (size_t a = 0; a < 3; a++)
        for (size_t i = 0; kinds[a][i]; i++)
            for (size_t b = 0; b < 3; b++)
                for (size_t j = 0; kinds[b][j]; j++)
                    if ((a != b || i != j) && strcmp(kinds[a][i], kinds[b][j]) == 0)
                        fail_msg("policy name %s listed twice", kinds[a][i]);

    check_files("sched", listed_sched);
    check_files("cache", listed_l1);
    check_files("cta", listed_cta);
}

static void test_list_defaults(void **state)
{
    (void)state;
    /* named in the list: GTO (CCWS 5.1's baseline), LRU, every CTA the SM holds */
    assert_string_equal(listed_defaults[0], "gto");
    assert_string_equal(listed_defaults[1], "lru");
    assert_string_equal(listed_defaults[2], "max_tlp");
    assert_null(listed_defaults[3]);
    const char *params[] = {"sched.policy", "l1d.policy", "cta.policy"};
    param_set *p = param_set_new();
    for (int k = 0; k < 3; k++) {
        const param_def *d = param_def_at((size_t)param_lookup(params[k]));
        assert_string_equal(d->choices[(size_t)d->def], listed_defaults[k]);
        assert_string_equal(param_get_choice(p, params[k]), listed_defaults[k]);
    }
    /* the indices the default had before it was named */
    assert_double_near(param_def_at((size_t)param_lookup("sched.policy"))->def, 1, 0);
    assert_double_near(param_def_at((size_t)param_lookup("l1d.policy"))->def, 0, 0);
    assert_double_near(param_def_at((size_t)param_lookup("cta.policy"))->def, 0, 0);
    param_set_free(p);
}

static void test_list_aliases(void **state)
{
    (void)state;
    size_t n = 0;
    for (; listed_aliases[n][0]; n++) {
        const param_alias *a = &policy_choice_aliases[n];
        assert_non_null(a->param);
        assert_string_equal(a->param, "l1d.policy");
        assert_string_equal(a->name, listed_aliases[n][0]);
        assert_string_equal(a->choice, listed_aliases[n][1]);
        assert_string_equal(a->implied, listed_aliases[n][2]);
        assert_string_equal(a->value, listed_aliases[n][3]);
        /* an alias is no policy, stands for a listed one and sets one of its parameters */
        assert_null(l1_policy_find(a->name));
        assert_non_null(l1_policy_find(a->choice));
        int id = param_lookup(a->implied);
        if (id < 0) fail_msg("alias %s implies %s, no parameter", a->name, a->implied);
        assert_int_equal(param_def_at((size_t)id)->type, PT_CHOICE);
        param_set *p = param_set_new();
        char err[256], buf[64];
        assert_int_equal(param_set_parse(p, "l1d.policy", a->name, err, sizeof err), 0);
        assert_string_equal(param_get_choice(p, "l1d.policy"), a->choice);
        assert_string_equal(param_get_choice(p, a->implied), a->value);
        param_format(p, param_lookup("l1d.policy"), buf, sizeof buf);
        assert_string_equal(buf, a->name);
        param_set_free(p);
    }
    assert_null(policy_choice_aliases[n].param);
    /* DaCache's variants, the choices of l1d.policy they were */
    assert_int_equal(n, 2);
    assert_string_equal(listed_aliases[0][0], "dacache_stall");
    assert_string_equal(listed_aliases[0][2], "dacache.variant");
    assert_string_equal(listed_aliases[1][0], "dacache_uncon");
}

/* ----------------------------------------------------------- policy metrics ---- */

typedef struct declared {
    const char *policy;
    int kind; /* 0 sched, 1 l1, 2 cta */
    const metric_def *defs;
    size_t n;
} declared;

static size_t all_declared(declared *out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; sched_policies[i] && n < max; i++)
        out[n++] = (declared){sched_policies[i]->name, 0, sched_policies[i]->metrics,
                              sched_policies[i]->nmetrics};
    for (size_t i = 0; l1_policies[i] && n < max; i++)
        out[n++] =
            (declared){l1_policies[i]->name, 1, l1_policies[i]->metrics, l1_policies[i]->nmetrics};
    for (size_t i = 0; cta_policies[i] && n < max; i++)
        out[n++] = (declared){cta_policies[i]->name, 2, cta_policies[i]->metrics,
                              cta_policies[i]->nmetrics};
    return n;
}

static void test_policy_metrics_declared(void **state)
{
    (void)state;
    declared d[64];
    size_t np = all_declared(d, 64);
    size_t distinct = 0;
    for (size_t a = 0; a < np; a++) {
        if (d[a].n) assert_non_null(d[a].defs);
        for (size_t i = 0; i < d[a].n; i++) {
            const metric_def *m = &d[a].defs[i];
            assert_non_null(m->name);
            assert_non_null(m->doc);
            if (!m->doc[0]) fail_msg("%s's metric %s has an empty doc", d[a].policy, m->name);
            int first = 1;
            for (size_t b = 0; b <= a; b++)
                for (size_t j = 0; j < (b == a ? i : d[b].n); j++) {
                    if (strcmp(d[b].defs[j].name, m->name) != 0) continue;
                    first = 0;
                    /* shared only within a kind, meaning the same */
                    if (b == a) fail_msg("%s declares %s twice", d[a].policy, m->name);
                    if (d[b].kind != d[a].kind)
                        fail_msg("%s and %s, of other kinds, both declare %s", d[b].policy,
                                 d[a].policy, m->name);
                    assert_string_equal(d[b].defs[j].doc, m->doc);
                }
            distinct += first;
            /* reported once, under its own name */
            int id = metric_lookup(m->name);
            if (id < 0) fail_msg("%s's metric %s is not in the catalogue", d[a].policy, m->name);
            assert_string_equal(metric_at((size_t)id).doc, m->doc);
        }
    }
    assert_in_range(distinct, 0, WT_POLICY_METRICS_MAX);
    /* the core's 76 metrics and the policies' distinct ones, each once */
    assert_int_equal(distinct, 8);
    assert_int_equal(metric_count(), 76 + distinct); /* 84: the L2's HIT_RESERVED and load counts */
    for (size_t i = 0; i < metric_count(); i++)
        for (size_t j = 0; j < i; j++)
            if (strcmp(metric_at(i).name, metric_at(j).name) == 0)
                fail_msg("metric %s reported twice", metric_at(i).name);
}

/* A policy's values of the metrics it declares, stored where the catalogue puts them. */
static void store_policy_metrics(sim_metrics *m, const metric_def *defs, size_t n, const double *v)
{
    for (size_t k = 0; k < n; k++) {
        int slot = metric_policy_slot(defs[k].name);
        assert_in_range(slot, 0, WT_POLICY_METRICS_MAX - 1);
        m->policy[slot] = v[k];
    }
}

/* The policies' metrics sit where they always have in every output: the L1D policies' after
 * the load statistics, in registry order, the schedulers' after the scheduling ones. */
static void test_policy_metrics_order(void **state)
{
    (void)state;
    const char *order[] = {
        "mpli_32_loads",         "duel_follower_fills",    "duel_bimodal_fills",
        "cacp_critical_fills",   "cacp_noncritical_fills", "dacache_fcw_increases",
        "dacache_fcw_decreases", "dacache_constrained",    "global_stores"};
    int at = metric_lookup(order[0]);
    assert_int_equal(at, 29); /* cycles is 0 */
    for (size_t k = 1; k < sizeof order / sizeof order[0]; k++)
        assert_int_equal(metric_lookup(order[k]), at + (int)k);
    assert_int_equal(metric_lookup("vta_hits"), metric_lookup("criticality_inversions") + 1);
    assert_int_equal(metric_lookup("stall_exec"), metric_lookup("vta_hits") + 1);
    assert_int_equal(metric_lookup("warp_disparity_max"), metric_lookup("cta_n_avg") + 1);
    assert_string_equal(metric_at(0).name, "cycles");
    assert_string_equal(metric_at(metric_count() - 1).name, "power_w");
    assert_int_equal(metric_lookup("nope"), -1);

    /* a policy's values land in its metrics, read back by name and by index */
    sim_metrics m;
    memset(&m, 0, sizeof m);
    const l1_policy_ops *dac = l1_policy_find("dacache");
    assert_int_equal(dac->nmetrics, 3);
    const double v[] = {4, 5, 6};
    store_policy_metrics(&m, dac->metrics, dac->nmetrics, v);
    assert_double_near(metric_get(&m, "dacache_fcw_increases"), 4, 0);
    assert_double_near(metric_get(&m, "dacache_fcw_decreases"), 5, 0);
    assert_double_near(metric_value(&m, (size_t)metric_lookup("dacache_constrained")), 6, 0);
    assert_double_near(metric_get(&m, "duel_follower_fills"), 0, 0);
    assert_double_near(metric_get(&m, "cycles"), 0, 0);
    assert_true(isnan(metric_get(&m, "nope")));
    const l1_policy_ops *dip = l1_policy_find("dip");
    const double w[] = {7, 8};
    store_policy_metrics(&m, dip->metrics, dip->nmetrics, w); /* shared with rrip */
    assert_double_near(metric_get(&m, "duel_follower_fills"), 7, 0);
    assert_double_near(metric_get(&m, "duel_bimodal_fills"), 8, 0);
    assert_double_near(metric_get(&m, "dacache_fcw_increases"), 4, 0);

    /* the composition hands the simulator the same slots */
    param_set *p = param_set_new();
    char err[256];
    assert_int_equal(param_set_parse(p, "l1d.policy", "dacache", err, sizeof err), 0);
    sim_plugins pl;
    assert_int_equal(sim_plugins_for(p, &pl, err, sizeof err), 0);
    assert_ptr_equal(pl.l1, dac);
    for (size_t k = 0; k < dac->nmetrics; k++)
        assert_int_equal(pl.l1_slot[k], metric_policy_slot(dac->metrics[k].name));
    param_set_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registry_tables),
        cmocka_unit_test(test_list_one_line_per_policy),
        cmocka_unit_test(test_list_defaults),
        cmocka_unit_test(test_list_aliases),
        cmocka_unit_test(test_policy_metrics_declared),
        cmocka_unit_test(test_policy_metrics_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
