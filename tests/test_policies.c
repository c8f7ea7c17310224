/* Tests of the policy registry and of the baseline policies: the one-line registration of
 * policies/list.h (every policy file listed, every name found once, the named defaults and
 * aliases), the metrics policies declare and where the catalogue reports them, LRR and GTO warp
 * scheduling, LRU victim selection, the max-TLP CTA limit. */
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
#include "core/util/rng.h"
#include "policies/registry.h"
#include "explorer/simulate.h"
#include "tests/support/policy_harness.h"

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
    assert_true(ns >= 2 && nl >= 1 && nc >= 1);
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
    assert_true(param_def_at((size_t)param_lookup("sched.policy"))->def == 1);
    assert_true(param_def_at((size_t)param_lookup("l1d.policy"))->def == 0);
    assert_true(param_def_at((size_t)param_lookup("cta.policy"))->def == 0);
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
        assert_true(id >= 0);
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
            assert_true(m->doc[0] != '\0');
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
    assert_true(distinct <= WT_POLICY_METRICS_MAX);
    /* the core's 72 metrics and the policies' distinct ones, each once */
    assert_int_equal(distinct, 8);
    assert_int_equal(metric_count(), 72 + distinct); /* 80: energy_sm_j, energy_inst_j added */
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
        assert_true(slot >= 0);
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
    assert_true(metric_get(&m, "dacache_fcw_increases") == 4);
    assert_true(metric_get(&m, "dacache_fcw_decreases") == 5);
    assert_true(metric_value(&m, (size_t)metric_lookup("dacache_constrained")) == 6);
    assert_true(metric_get(&m, "duel_follower_fills") == 0);
    assert_true(metric_get(&m, "cycles") == 0);
    assert_true(isnan(metric_get(&m, "nope")));
    const l1_policy_ops *dip = l1_policy_find("dip");
    const double w[] = {7, 8};
    store_policy_metrics(&m, dip->metrics, dip->nmetrics, w); /* shared with rrip */
    assert_true(metric_get(&m, "duel_follower_fills") == 7);
    assert_true(metric_get(&m, "duel_bimodal_fills") == 8);
    assert_true(metric_get(&m, "dacache_fcw_increases") == 4);

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

/* Every policy can be created with default parameters and destroyed. */
static void test_create_all(void **state)
{
    (void)state;
    char err[256];
    for (size_t i = 0; sched_policies[i]; i++) {
        ph_sched s;
        sched_env env = {0, 0, 48, 2, NULL, NULL, NULL, NULL};
        assert_int_equal(ph_sched_try(&s, sched_policies[i]->name, env, 3, NULL, err, sizeof err),
                         0);
        ph_sched_free(&s);
    }
    for (size_t i = 0; l1_policies[i]; i++) {
        ph_l1 c;
        ph_l1_make(&c, l1_policies[i]->name, (l1_env){{8, 16, 128}, 0, 48, NULL, false}, 3, NULL);
        ph_l1_free(&c);
    }
    for (size_t i = 0; cta_policies[i]; i++) {
        ph_cta c;
        ph_cta_make(&c, cta_policies[i]->name, (cta_env){15, NULL}, 3, NULL);
        ph_cta_free(&c);
    }
}

/* ---------------------------------------------------------- warp schedulers ---- */

/* Scheduler `name` with its defaults, 1 scheduler per SM, 48 warp slots. */
static void sched_make(ph_sched *s, const char *name)
{
    ph_sched_make(s, name, (sched_env){0, 0, 48, 1, NULL, NULL, NULL, NULL}, 5, NULL);
}

/* Builds a ready list from slots (ascending) with the given ages; returns the picked slot and
 * reports the issue as the SM does. */
static int pick(ph_sched *s, const int *slots, const uint64_t *ages, int n, uint64_t now)
{
    warp_view v[64];
    memset(v, 0, sizeof v);
    for (int i = 0; i < n; i++) {
        v[i].slot = slots[i];
        v[i].warp_in_cta = slots[i] % 4;
        v[i].age = ages ? ages[i] : (uint64_t)slots[i];
    }
    const warp_view *list[64];
    for (int i = 0; i < n; i++)
        list[i] = &v[i];
    int k = ph_sched_pick(s, list, n, now);
    assert_true(k >= 0 && k < n);
    return v[k].slot;
}

static void test_lrr(void **state)
{
    (void)state;
    ph_sched s;
    sched_make(&s, "lrr");
    const int all[] = {0, 1, 2, 3};
    /* everyone ready: strict turns, wrapping */
    for (int round = 0; round < 3; round++)
        for (int w = 0; w < 4; w++)
            assert_int_equal(pick(&s, all, NULL, 4, 0), w);
    /* last issuer was 3: the first ready slot after it, then wrap to the lowest */
    const int some[] = {0, 2, 5};
    assert_int_equal(pick(&s, some, NULL, 3, 0), 5);
    assert_int_equal(pick(&s, some, NULL, 3, 0), 0);
    assert_int_equal(pick(&s, some, NULL, 3, 0), 2);
    /* warps that cannot issue pass their turn to the next in slot order */
    const int late[] = {1, 3, 5, 7};
    assert_int_equal(pick(&s, late, NULL, 4, 0), 3);
    assert_int_equal(pick(&s, late, NULL, 4, 0), 5);
    const int low[] = {1, 2};
    assert_int_equal(pick(&s, low, NULL, 2, 0), 1); /* nothing after 5: wrap */
    const int one[] = {1};
    assert_int_equal(pick(&s, one, NULL, 1, 0), 1); /* the only ready warp, even if last */
    assert_int_equal(pick(&s, one, NULL, 1, 0), 1);
    const int two[] = {0, 1};
    assert_int_equal(pick(&s, two, NULL, 2, 0), 0);
    /* ages do not matter to LRR */
    const uint64_t ages[] = {9, 1, 5};
    const int three[] = {4, 6, 9};
    assert_int_equal(pick(&s, three, ages, 3, 0), 4);
    ph_sched_free(&s);

    /* property: over random ready sets, LRR picks the first ready slot after the last pick,
     * else the first ready slot */
    sched_make(&s, "lrr");
    wt_rng rng;
    wt_rng_seed(&rng, 11);
    int last = -1;
    for (int it = 0; it < 5000; it++) {
        int slots[48], n = 0;
        uint64_t bits = wt_rng_next(&rng);
        for (int w = 0; w < 48; w++)
            if (bits >> w & 1) slots[n++] = w;
        if (n == 0) continue;
        int want = slots[0];
        for (int i = 0; i < n; i++)
            if (slots[i] > last) {
                want = slots[i];
                break;
            }
        assert_int_equal(pick(&s, slots, NULL, n, (uint64_t)it), want);
        last = want;
    }
    ph_sched_free(&s);
}

static void test_gto(void **state)
{
    (void)state;
    ph_sched s;
    sched_make(&s, "gto");
    /* slots 0..3 with ages: slot 2 is the oldest, then 0, 3, 1 */
    const int all[] = {0, 1, 2, 3};
    const uint64_t ages[] = {10, 40, 5, 20};
    assert_int_equal(pick(&s, all, ages, 4, 0), 2); /* oldest */
    assert_int_equal(pick(&s, all, ages, 4, 1), 2); /* greedy */
    assert_int_equal(pick(&s, all, ages, 4, 2), 2);
    /* 2 stalls: the oldest of the rest */
    const int no2[] = {0, 1, 3};
    const uint64_t ages_no2[] = {10, 40, 20};
    assert_int_equal(pick(&s, no2, ages_no2, 3, 3), 0);
    /* 2 is ready again but 0 is now the greedy warp, and stays so while ready */
    assert_int_equal(pick(&s, all, ages, 4, 4), 0);
    assert_int_equal(pick(&s, all, ages, 4, 5), 0);
    /* 0 stalls: back to the oldest, 2 */
    const int no0[] = {1, 2, 3};
    const uint64_t ages_no0[] = {40, 5, 20};
    assert_int_equal(pick(&s, no0, ages_no0, 3, 6), 2);
    /* only the youngest is ready: it becomes greedy */
    const int just1[] = {1};
    const uint64_t age1[] = {40};
    assert_int_equal(pick(&s, just1, age1, 1, 7), 1);
    assert_int_equal(pick(&s, all, ages, 4, 8), 1);
    /* age, not slot order, decides: the oldest is in the highest slot */
    ph_sched_free(&s);
    sched_make(&s, "gto");
    const int slots[] = {3, 7, 11};
    const uint64_t rev[] = {30, 20, 10};
    assert_int_equal(pick(&s, slots, rev, 3, 0), 11);
    assert_int_equal(pick(&s, slots, rev, 3, 1), 11);
    ph_sched_free(&s);

    /* property: the greedy warp while it is ready, else the oldest ready warp */
    sched_make(&s, "gto");
    wt_rng rng;
    wt_rng_seed(&rng, 12);
    uint64_t age[48];
    for (int w = 0; w < 48; w++)
        age[w] = wt_rng_below(&rng, 1000) * 48 + (uint64_t)w; /* distinct */
    int greedy = -1, kept = 0, switched = 0;
    for (int it = 0; it < 5000; it++) {
        int sl[48], n = 0;
        uint64_t ag[48];
        uint64_t bits = wt_rng_next(&rng) & wt_rng_next(&rng); /* about a quarter ready */
        for (int w = 0; w < 48; w++)
            if (bits >> w & 1) {
                sl[n] = w;
                ag[n++] = age[w];
            }
        if (n == 0) continue;
        int want = -1;
        for (int i = 0; i < n; i++)
            if (sl[i] == greedy) want = greedy;
        if (want < 0) {
            want = sl[0];
            for (int i = 1; i < n; i++)
                if (age[sl[i]] < age[want]) want = sl[i];
            switched++;
        } else {
            kept++;
        }
        assert_int_equal(pick(&s, sl, ag, n, (uint64_t)it), want);
        greedy = want;
    }
    assert_true(kept > 100 && switched > 100);
    ph_sched_free(&s);
}

/* ---------------------------------------------------------------- LRU ---- */

typedef struct lru_fixture {
    ph_l1 c;
    l1_set_view v; /* its only set */
} lru_fixture;

static void lru_make(lru_fixture *f, int ways)
{
    ph_l1_make(&f->c, "lru", (l1_env){{1, ways, 128}, 0, 48, NULL, false}, 8, NULL);
    assert_true(f->c.ops->line_state_bytes <= 16);
    f->v = ph_l1_view(&f->c, 0);
}

static void lru_free(lru_fixture *f)
{
    ph_l1_free(&f->c);
}

static int victim(lru_fixture *f)
{
    l1_request r = {0};
    int w = f->c.ops->victim(f->c.self, &r, &f->v);
    assert_true(w >= 0 && w < f->v.ways);
    assert_false(f->c.reserved[w]);
    return w;
}

/* Fills way w (it must be chosen and reserved first, as the cache does). */
static void fill(lru_fixture *f, int w)
{
    l1_request r = {0};
    f->c.reserved[w] = 0;
    f->c.valid[w] = 1;
    f->c.ops->on_fill(f->c.self, &r, &f->v, w);
}

static void touch(lru_fixture *f, int w)
{
    l1_request r = {0};
    f->c.ops->on_hit(f->c.self, &r, &f->v, w);
}

static void test_lru_victim(void **state)
{
    (void)state;
    lru_fixture f;
    lru_make(&f, 4);
    /* empty set: free ways in order */
    for (int w = 0; w < 4; w++) {
        assert_int_equal(victim(&f), w);
        f.c.reserved[w] = 1;
    }
    /* fills in the order 2, 0, 3, 1: LRU order is that order */
    fill(&f, 2);
    fill(&f, 0);
    fill(&f, 3);
    fill(&f, 1);
    assert_int_equal(victim(&f), 2);
    touch(&f, 2); /* 0 3 1 2 */
    assert_int_equal(victim(&f), 0);
    touch(&f, 3); /* 0 1 2 3 */
    touch(&f, 0); /* 1 2 3 0 */
    assert_int_equal(victim(&f), 1);
    /* the LRU way reserved (a miss to it in flight): the next least recent */
    f.c.reserved[1] = 1;
    f.c.valid[1] = 0;
    assert_int_equal(victim(&f), 2);
    f.c.reserved[2] = 1;
    f.c.valid[2] = 0;
    assert_int_equal(victim(&f), 3);
    f.c.reserved[3] = 1;
    f.c.valid[3] = 0;
    assert_int_equal(victim(&f), 0); /* the only unreserved way, even the most recent */
    /* a reserved way is not free even though not valid; an invalid unreserved one is free and
     * goes first, whatever the stamps */
    fill(&f, 1);      /* 0 1 */
    fill(&f, 3);      /* 0 1 3 */
    f.c.valid[0] = 0; /* dropped by a store */
    assert_int_equal(victim(&f), 0);
    f.c.valid[0] = 1;
    f.c.valid[3] = 0;
    assert_int_equal(victim(&f), 3);
    lru_free(&f);

    /* property: random states; the victim is never reserved, the first free way if any, else
     * the least recently used unreserved way */
    lru_make(&f, 8);
    wt_rng rng;
    wt_rng_seed(&rng, 13);
    uint64_t used[8] = {0}, clock = 0;
    int free_cases = 0, lru_cases = 0;
    for (int w = 0; w < 8; w++) {
        f.c.reserved[w] = 1;
        fill(&f, w);
        used[w] = ++clock;
    }
    for (int it = 0; it < 5000; it++) {
        int w = (int)wt_rng_below(&rng, 8);
        switch (wt_rng_below(&rng, 4)) {
        case 0:
            if (f.c.valid[w]) {
                touch(&f, w);
                used[w] = ++clock;
            }
            break;
        case 1:
            if (f.c.reserved[w]) {
                fill(&f, w);
                used[w] = ++clock;
            }
            break;
        case 2:
            if (!f.c.reserved[w] && wt_rng_below(&rng, 4) == 0) f.c.valid[w] = 0;
            break;
        default:
            break;
        }
        int unreserved = 0, first_free = -1, lru = -1;
        for (int k = 0; k < 8; k++) {
            if (f.c.reserved[k]) continue;
            unreserved++;
            if (!f.c.valid[k] && first_free < 0) first_free = k;
            if (lru < 0 || used[k] < used[lru]) lru = k;
        }
        if (!unreserved) continue;
        int want = first_free >= 0 ? first_free : lru;
        free_cases += first_free >= 0;
        lru_cases += first_free < 0;
        int got = victim(&f);
        if (got != want) fail_msg("step %d: victim %d, expected %d", it, got, want);
        /* allocate it sometimes, as the cache does */
        if (wt_rng_below(&rng, 3) == 0) {
            f.c.valid[got] = 0;
            f.c.reserved[got] = 1;
        }
    }
    assert_true(free_cases > 100 && lru_cases > 100);
    lru_free(&f);
}

/* --------------------------------------------------------------- max TLP ---- */

static void test_max_tlp(void **state)
{
    (void)state;
    ph_cta c;
    ph_cta_make(&c, "max_tlp", (cta_env){15, NULL}, 2, NULL);
    const cta_ops *o = c.ops;
    void *self = c.self;
    assert_non_null(o->on_kernel_start);
    o->on_kernel_start(self, 6);
    for (int sm = 0; sm < 15; sm++)
        assert_int_equal(o->limit(self, sm), 6);
    if (o->on_sample) {
        cta_sample smp = {1000, 1000, 6};
        o->on_sample(self, 3, &smp, 5000);
        assert_int_equal(o->limit(self, 3), 6);
    }
    assert_true(o->period == NULL || o->period(self) == 0);
    o->on_kernel_start(self, 1); /* a new kernel with other resources */
    for (int sm = 0; sm < 15; sm++)
        assert_int_equal(o->limit(self, sm), 1);
    o->on_kernel_start(self, 32);
    assert_int_equal(o->limit(self, 14), 32);
    ph_cta_free(&c);
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
        cmocka_unit_test(test_create_all),
        cmocka_unit_test(test_lrr),
        cmocka_unit_test(test_gto),
        cmocka_unit_test(test_lru_victim),
        cmocka_unit_test(test_max_tlp),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
