/* Tests of the searches and the evaluator on tiny simulations: the grid is complete, LHS is
 * stratified, random draws are distinct and feasible, NLopt proposals are rounded onto the
 * levels and never simulate a configuration that breaks a constraint (as NLopt constraints or
 * as penalties), searches are identical with one and two threads, the memo simulates nothing
 * twice, Morris and Sobol designs reach the space as their steps and columns say, and
 * objectives aggregate over workloads as documented. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explorer/evaluator.h"
#include "explorer/explore.h"
#include "explorer/search.h"
#include "explorer/space.h"
#include "tests/support/support.h"

#define SPACE_HEAD                                                                                 \
    "{\"settings\": {\"gpu.sms\": 1, \"l2.partitions\": 1},\n"                                     \
    " \"parameters\": {\"l1d.ways\": {\"min\": 1, \"max\": 8}, \"sched.policy\": [\"lrr\", "       \
    "\"gto\"], \"sm.max_ctas\": [1, 2, 4]},\n"                                                     \
    " \"workloads\": [{\"name\": \"stream\", \"params\": {\"n\": 256}}, {\"name\": \"kmeans\", "   \
    "\"params\": {\"npoints\": 64}}],\n"

static space *make(const char *tail)
{
    char text[4096];
    snprintf(text, sizeof text, "%s%s", SPACE_HEAD, tail);
    char err[2048] = "";
    space *s = space_parse(text, "t.json", err, sizeof err);
    if (!s) fail_msg("%s", err);
    return s;
}

typedef struct run {
    proposal_list props;
    eval_counts counts;
} run;

static run search(space *s, evaluator *ev)
{
    run r;
    memset(&r, 0, sizeof r);
    double ref[8];
    explore_reference(s, ev, ref);
    search_info info;
    char err[512] = "";
    if (search_run(s, ev, ref, &r.props, &info, err, sizeof err) != 0) fail_msg("%s", err);
    r.counts = evaluator_counts(ev);
    return r;
}

static evaluator *make_ev(space *s, int threads)
{
    char err[512];
    evaluator *ev = evaluator_new(s, NULL, threads, err, sizeof err);
    if (!ev) fail_msg("%s", err);
    return ev;
}

static int on_levels(const space *s, const param_set *cfg)
{
    for (size_t d = 0; d < s->ndims; d++) {
        double v = param_get(cfg, s->dims[d].param);
        int found = 0;
        for (size_t k = 0; k < s->dims[d].nlevels; k++)
            found |= space_level_value(&s->dims[d], k) == v;
        if (!found) return 0;
    }
    return 1;
}

static void test_grid(void **state)
{
    (void)state;
    space *s = make("\"constraints\": [\"l1d.ways != 3\"]}");
    evaluator *ev = make_ev(s, 2);
    run r = search(s, ev);
    assert_int_equal(r.props.n, 8 * 2 * 3);
    size_t infeasible = 0;
    for (size_t i = 0; i < r.props.n; i++) {
        assert_true(on_levels(s, r.props.p[i].cfg));
        for (size_t j = 0; j < i; j++)
            assert_int_not_equal(r.props.p[i].hash, r.props.p[j].hash);
        int bad = param_get_int(r.props.p[i].cfg, "l1d.ways") == 3;
        infeasible += bad;
        assert_int_equal(bad, r.props.p[i].violation > 0);
        /* infeasible points are never simulated */
        assert_int_equal(evaluator_peek(ev, r.props.p[i].cfg, 0) == NULL, bad);
    }
    assert_int_equal(infeasible, 6);
    /* 42 feasible points x 2 workloads, the reference (l1d.ways 16) besides */
    assert_int_equal(r.counts.simulated, 42 * 2 + 2);
    /* again: all from the memo */
    run again = search(s, ev);
    assert_int_equal(again.counts.simulated, r.counts.simulated);
    proposal_list_free(&again.props);
    proposal_list_free(&r.props);
    evaluator_free(ev);
    space_free(s);
}

/* The level of dimension d that cfg holds. */
static size_t level_of(const space *s, const param_set *cfg, size_t d)
{
    double v = param_get(cfg, s->dims[d].param);
    for (size_t k = 0; k < s->dims[d].nlevels; k++)
        if (space_level_value(&s->dims[d], k) == v) return k;
    fail_msg("%s: %g is no level", s->dims[d].name, v);
    return 0;
}

/* A Morris study proposes its whole design, in order and repeats included: each step of a
 * trajectory changes one parameter by one level of its list (a choice to its neighbour in the
 * order written), and every parameter once; a repeat is a memo hit, never a second
 * simulation. A Sobol study proposes N(d+2) points, each A_B^i differing from A at most in
 * parameter i. */
static void test_sensitivity_designs(void **state)
{
    (void)state;
    space *s = make("\"search\": {\"strategy\": \"morris\", \"budget\": {\"evaluations\": "
                    "5}, \"seed\": 4}}");
    evaluator *ev = make_ev(s, 2);
    run r = search(s, ev);
    assert_int_equal(r.props.n, 5 * 4);
    for (size_t t = 0; t < 5; t++) {
        unsigned moved = 0;
        for (size_t k = 1; k <= 3; k++) {
            const param_set *a = r.props.p[t * 4 + k - 1].cfg, *b = r.props.p[t * 4 + k].cfg;
            size_t changed = 0;
            for (size_t d = 0; d < 3; d++) {
                long la = (long)level_of(s, a, d), lb = (long)level_of(s, b, d);
                if (la == lb) continue;
                changed++;
                moved |= 1u << d;
                assert_true(la - lb == 1 || lb - la == 1);
            }
            assert_int_equal(changed, 1);
        }
        assert_int_equal(moved, 7);
    }
    /* distinct configurations (the reference's besides) simulated once each, on 2 workloads */
    size_t distinct = 0;
    for (size_t i = 0; i < r.props.n; i++) {
        int seen = r.props.p[i].hash == param_set_hash(s->base);
        for (size_t j = 0; j < i && !seen; j++)
            seen = r.props.p[j].hash == r.props.p[i].hash;
        distinct += !seen;
    }
    assert_int_equal(r.counts.simulated, 2 * (distinct + 1));
    proposal_list_free(&r.props);
    evaluator_free(ev);
    space_free(s);

    s = make("\"search\": {\"strategy\": \"sobol\", \"budget\": {\"evaluations\": 3}}}");
    ev = make_ev(s, 2);
    r = search(s, ev);
    assert_int_equal(r.props.n, 3 * 5);
    for (size_t j = 0; j < 3; j++)
        for (size_t i = 0; i < 3; i++)
            for (size_t d = 0; d < 3; d++)
                if (d != i)
                    assert_int_equal(level_of(s, r.props.p[j * 5].cfg, d),
                                     level_of(s, r.props.p[j * 5 + 2 + i].cfg, d));
    proposal_list_free(&r.props);
    evaluator_free(ev);
    space_free(s);
}

static void test_lhs_and_random(void **state)
{
    (void)state;
    space *s = make("\"search\": {\"strategy\": \"lhs\", \"budget\": {\"evaluations\": 8}}}");
    evaluator *ev = make_ev(s, 2);
    run r = search(s, ev);
    /* 8 samples over the 8 levels of l1d.ways: each level exactly once */
    assert_int_equal(r.props.n, 8);
    int count[9] = {0};
    for (size_t i = 0; i < r.props.n; i++)
        count[param_get_int(r.props.p[i].cfg, "l1d.ways")]++;
    for (int k = 1; k <= 8; k++)
        assert_int_equal(count[k], 1);
    proposal_list_free(&r.props);
    char err[256];
    assert_int_equal(space_override(s, "search.strategy=random", err, sizeof err), 0);
    assert_int_equal(space_override(s, "search.evaluations=20", err, sizeof err), 0);
    r = search(s, ev);
    assert_int_equal(r.props.n, 20);
    for (size_t i = 0; i < r.props.n; i++)
        for (size_t j = 0; j < i; j++)
            assert_int_not_equal(r.props.p[i].hash, r.props.p[j].hash);
    proposal_list_free(&r.props);
    evaluator_free(ev);
    space_free(s);
}

/* Every NLopt algorithm: proposals on the levels, feasible ones within budget, infeasible ones
 * unsimulated, and the same sequence with one and two threads. */
static void test_nlopt_algorithms(void **state)
{
    (void)state;
    static const char *const algs[] = {"DIRECT-L", "CRS2-LM", "ISRES", "ESCH",       "MLSL-LDS",
                                       "BOBYQA",   "COBYLA",  "Sbplx", "Nelder-Mead"};
    for (size_t a = 0; a < sizeof algs / sizeof algs[0]; a++) {
        char tail[512];
        snprintf(tail, sizeof tail,
                 "\"constraints\": [\"l1d.ways >= sm.max_ctas\"], \"objectives\": [\"ipc\", "
                 "\"mpki\"], \"search\": {\"strategy\": \"%s\", \"budget\": {\"evaluations\": "
                 "16}, \"seed\": 3, \"scalarisations\": 2}}",
                 algs[a]);
        uint64_t first[64];
        size_t nfirst = 0;
        for (int threads = 1; threads <= 2; threads++) {
            space *s = make(tail);
            evaluator *ev = make_ev(s, threads);
            run r = search(s, ev);
            /* the budget counts distinct feasible configurations (two runs may propose one
             * configuration each); infeasible proposals are recorded besides */
            size_t feasible = 0;
            for (size_t i = 0; i < r.props.n; i++) {
                int repeat = 0;
                for (size_t j = 0; j < i && !repeat; j++)
                    repeat = r.props.p[j].hash == r.props.p[i].hash;
                feasible += !repeat && !(r.props.p[i].violation > 0);
            }
            if (r.props.n == 0 || feasible > 16 || r.props.n > 64)
                fail_msg("%s: %zu proposals, %zu feasible", algs[a], r.props.n, feasible);
            for (size_t i = 0; i < r.props.n; i++) {
                const param_set *c = r.props.p[i].cfg;
                assert_true(on_levels(s, c));
                int bad = param_get_int(c, "l1d.ways") < param_get_int(c, "sm.max_ctas");
                assert_int_equal(bad, r.props.p[i].violation > 0);
                if (bad && evaluator_peek(ev, c, 0))
                    fail_msg("%s simulated an infeasible configuration", algs[a]);
            }
            if (threads == 1) {
                nfirst = r.props.n;
                for (size_t i = 0; i < r.props.n; i++)
                    first[i] = r.props.p[i].hash;
            } else {
                if (nfirst != r.props.n)
                    fail_msg("%s: %zu proposals with 1 thread, %zu with 2", algs[a], nfirst,
                             r.props.n);
                for (size_t i = 0; i < r.props.n; i++)
                    if (first[i] != r.props.p[i].hash)
                        fail_msg("%s: proposal %zu differs between 1 and 2 threads", algs[a], i);
            }
            proposal_list_free(&r.props);
            evaluator_free(ev);
            space_free(s);
        }
    }
}

/* A budget of N gives N new distinct feasible configurations, none of them the reference
 * configuration (point 0 of every study, evaluated before the search), with every strategy
 * that takes a budget: NLopt runs that start at the reference, and random or LHS draws that
 * meet it, must not spend the budget on it. */
static void test_budget_counts_new_configurations(void **state)
{
    (void)state;
    static const char *const strategies[] = {
        "random",        "lhs",     "DIRECT", "DIRECT-L",    "DIRECT-L-RAND", "ORIG-DIRECT",
        "ORIG-DIRECT-L", "CRS2-LM", "ISRES",  "ESCH",        "MLSL",          "MLSL-LDS",
        "BOBYQA",        "COBYLA",  "Sbplx",  "Nelder-Mead", "NEWUOA",        "PRAXIS"};
    /* the reference (the preset's l1d.ways 4, gto, sm.max_ctas 8) lies on the levels: 32
     * configurations, 30 of them feasible, so 29 besides the reference */
    char err[2048] = "";
    space *s = space_parse(
        "{\"settings\": {\"gpu.sms\": 1, \"l2.partitions\": 1},\n"
        " \"parameters\": {\"l1d.ways\": [2, 4, 8, 16], \"sched.policy\": [\"lrr\", \"gto\"], "
        "\"sm.max_ctas\": [1, 2, 4, 8]},\n"
        " \"constraints\": [\"sm.max_ctas <= 2 * l1d.ways\"],\n"
        " \"workloads\": [{\"name\": \"stream\", \"params\": {\"n\": 256}}],\n"
        " \"objectives\": [\"ipc\", \"mpki\"],\n"
        " \"search\": {\"budget\": {\"evaluations\": 16}, \"scalarisations\": 2}}",
        "t.json", err, sizeof err);
    if (!s) fail_msg("%s", err);
    evaluator *ev = make_ev(s, 2); /* one memo for every strategy: each configuration once */
    uint64_t ref = param_set_hash(s->base);
    /* seed 1 has random search draw the reference, seed 5 LHS */
    static const char *const seeds[] = {"search.seed=1", "search.seed=5"};
    for (size_t k = 0; k < 2 * sizeof strategies / sizeof strategies[0]; k++) {
        const char *strategy = strategies[k / 2];
        char set[64];
        snprintf(set, sizeof set, "search.strategy=%s", strategy);
        if (space_override(s, set, err, sizeof err) != 0 ||
            space_override(s, seeds[k % 2], err, sizeof err) != 0)
            fail_msg("%s", err);
        run r = search(s, ev);
        size_t fresh = 0;
        for (size_t i = 0; i < r.props.n; i++) {
            int repeat = r.props.p[i].hash == ref;
            for (size_t j = 0; j < i && !repeat; j++)
                repeat = r.props.p[j].hash == r.props.p[i].hash;
            fresh += !repeat && !(r.props.p[i].violation > 0);
        }
        if (fresh != 16)
            fail_msg("%s, %s: %zu new distinct feasible configurations for a budget of 16",
                     strategy, seeds[k % 2], fresh);
        proposal_list_free(&r.props);
    }
    evaluator_free(ev);
    space_free(s);
}

static void test_objectives(void **state)
{
    (void)state;
    space *s = make("\"objectives\": [\"ipc\", {\"metric\": \"ipc\", \"aggregate\": \"hmean\"}, "
                    "{\"metric\": \"ipc\", \"aggregate\": \"mean\"}, {\"metric\": \"ipc\", "
                    "\"aggregate\": \"sum\"}, \"mpki\"]}");
    s->workloads[0].weight = 1;
    s->workloads[1].weight = 3;
    eval_entry a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    a.m.ipc = 2;
    b.m.ipc = 8;
    a.m.mpki = 10;
    b.m.mpki = 30;
    const eval_entry *res[2] = {&a, &b};
    double obj[5];
    assert_int_equal(search_objectives(s, res, obj), 0);
    assert_double_near(obj[0], exp((log(2) + 3 * log(8)) / 4), 1e-12);
    assert_double_near(obj[1], 4 / (1 / 2.0 + 3 / 8.0), 1e-12);
    assert_double_near(obj[2], (2 + 24) / 4.0, 1e-12);
    assert_double_near(obj[3], 26, 1e-12);
    assert_double_near(obj[4], 25, 1e-12);
    /* normalisation: min objectives value/ref, max ref/value */
    assert_double_near(search_normalised(s, 4, 50, 25), 2, 0);
    assert_double_near(search_normalised(s, 0, 4, 2), 0.5, 0);
    assert_double_near(search_normalised(s, 0, 0, 2), HUGE_VAL, 0);
    b.status = SIM_FAILED;
    assert_int_equal(search_objectives(s, res, obj), 1);
    space_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grid),
        cmocka_unit_test(test_lhs_and_random),
        cmocka_unit_test(test_sensitivity_designs),
        cmocka_unit_test(test_nlopt_algorithms),
        cmocka_unit_test(test_budget_counts_new_configurations),
        cmocka_unit_test(test_objectives),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
