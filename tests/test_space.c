/* Tests of space files: a full space parsed field by field, defaults, rounding of the unit cube
 * onto levels, constraint expressions and their measures, --set overrides, every bundled
 * space, and malformed spaces with the file, JSON path and expectation their messages name. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/config/metrics.h"
#include "explorer/space.h"
#include "tests/support/support.h"

static void assert_contains(const char *haystack, const char *needle)
{
    if (!strstr(haystack, needle)) fail_msg("expected \"%s\" in \"%s\"", needle, haystack);
}

static space *parse_ok(const char *text)
{
    char err[2048] = "";
    space *s = space_parse(text, "t.json", err, sizeof err);
    if (!s) fail_msg("unexpected error: %s", err);
    return s;
}

#define WL "\"workloads\": [{\"name\": \"stream\", \"params\": {\"n\": 1024}}]"

static void test_fields(void **state)
{
    (void)state;
    space *s = parse_ok("{\"settings\": {\"gpu.sms\": 2},\n"
                        " \"parameters\": {\n"
                        "   \"l1d.ways\": {\"min\": 1, \"max\": 16, \"log\": true},\n"
                        "   \"sm.max_ctas\": {\"min\": 1, \"max\": 8, \"step\": 3},\n"
                        "   \"sched.policy\": {},\n"
                        "   \"gpu.clock_mhz\": {\"min\": 700, \"max\": 1400, \"grid\": 3}\n"
                        " },\n"
                        " \"constraints\": [\"l1d.ways * l1d.sets <= 64\"],\n"
                        " \"workloads\": [\"kmeans\", {\"name\": \"kmeans\", \"weight\": 2, "
                        "\"params\": {\"npoints\": 256}}],\n"
                        " \"objectives\": [\"ipc\", {\"metric\": \"energy\"}, {\"metric\": "
                        "\"cycles\", \"goal\": \"min\", \"aggregate\": \"sum\"}],\n"
                        " \"search\": {\"strategy\": \"COBYLA\", \"budget\": {\"evaluations\": 40, "
                        "\"seconds\": 5}, \"seed\": 9, \"threads\": 2}}");
    assert_string_equal(s->name, "t");
    assert_string_equal(s->output, "results/t");
    assert_int_equal(param_get_int(s->base, "gpu.sms"), 2);
    assert_int_equal(s->ndims, 4);
    /* l1d.ways: 1 2 4 8 16 */
    assert_int_equal(s->dims[0].kind, DIM_INT);
    assert_int_equal(s->dims[0].nlevels, 5);
    assert_double_near(space_level_value(&s->dims[0], 4), 16, 0);
    /* sm.max_ctas: 1 4 7 */
    assert_int_equal(s->dims[1].nlevels, 3);
    assert_double_near(space_level_value(&s->dims[1], 2), 7, 0);
    /* sched.policy: every choice */
    assert_int_equal(s->dims[2].kind, DIM_VALUES);
    assert_true(s->dims[2].nvalues >= 2);
    assert_int_equal(s->dims[3].kind, DIM_REAL);
    assert_int_equal(space_grid_size(s), 5 * 3 * s->dims[2].nvalues * 3);
    assert_int_equal(s->nworkloads, 2);
    assert_string_equal(s->workloads[0].label, "kmeans#1");
    assert_string_equal(s->workloads[1].label, "kmeans#2");
    assert_double_near(s->workloads[1].weight, 2, 0);
    assert_int_equal(s->nobjectives, 3);
    assert_string_equal(s->objectives[0].name, "ipc");
    assert_true(s->objectives[0].maximise);
    assert_int_equal(s->objectives[0].agg, AGG_GEOMEAN);
    assert_string_equal(s->objectives[1].name, "energy_j");
    assert_false(s->objectives[1].maximise);
    assert_int_equal(s->objectives[1].agg, AGG_SUM);
    assert_string_equal(s->objectives[2].name, "cycles_sum");
    assert_int_equal(s->search.kind, SEARCH_NLOPT);
    assert_int_equal(s->search.max_evaluations, 40);
    assert_double_near(s->search.max_seconds, 5, 0);
    assert_int_equal(s->search.seed, 9);
    assert_int_equal(s->search.threads, 2);
    space_free(s);
}

static void test_rounding(void **state)
{
    (void)state;
    space *s =
        parse_ok("{\"parameters\": {\"l1d.ways\": {\"min\": 2, \"max\": 8},\n"
                 " \"sched.policy\": [\"lrr\", \"gto\"],\n"
                 " \"gpu.clock_mhz\": {\"min\": 100, \"max\": 1000, \"log\": true}},\n" WL "}");
    const space_dim *w = &s->dims[0];
    assert_int_equal(w->nlevels, 7);
    /* level k covers [k/7, (k+1)/7) */
    assert_double_near(space_dim_value(w, 0.0), 2, 0);
    assert_double_near(space_dim_value(w, 0.999 / 7), 2, 0);
    assert_double_near(space_dim_value(w, 1.0 / 7 + 1e-9), 3, 0);
    assert_double_near(space_dim_value(w, 1.0), 8, 0);
    assert_double_near(space_dim_value(w, 1.5), 8, 0);
    assert_double_near(space_dim_value(w, -0.5), 2, 0);
    assert_double_near(space_dim_value(w, NAN), 2, 0);
    /* coordinates of values are level centres */
    assert_double_near(space_dim_coord(w, 5), 3.5 / 7, 1e-12);
    assert_double_near(space_dim_value(w, space_dim_coord(w, 5)), 5, 0);
    const space_dim *p = &s->dims[1];
    assert_double_near(space_dim_value(p, 0.49), 0, 0); /* lrr */
    assert_double_near(space_dim_value(p, 0.5), 1, 0);  /* gto */
    const space_dim *c = &s->dims[2];
    assert_double_near(space_dim_value(c, 0.5), sqrt(100.0 * 1000.0), 1e-6);
    assert_double_near(space_dim_value(c, 0), 100, 0);
    assert_double_near(space_dim_value(c, 1), 1000, 1e-9);
    double x[3] = {0.99, 0.1, 0.0};
    param_set *cfg = param_set_clone(s->base);
    char err[256];
    assert_int_equal(space_decode(s, x, cfg, err, sizeof err), 0);
    assert_int_equal(param_get_int(cfg, "l1d.ways"), 8);
    assert_string_equal(param_get_choice(cfg, "sched.policy"), "lrr");
    param_set_free(cfg);
    space_free(s);
}

static void test_constraints(void **state)
{
    (void)state;
    space *s = parse_ok("{\"preset\": \"gtx480-cawa\", \"parameters\": {\"l1d.ways\": {\"min\": 1, "
                        "\"max\": 16}},\n"
                        " \"constraints\": [\"l1d.ways < l1d.sets\", \"l1d.ways % 2 == 0 || "
                        "l1d.ways == 1\", \"!(sched.policy == 'lrr') && max(l1d.ways, 2) >= "
                        "-(-2)\"],\n" WL "}");
    param_set *cfg = param_set_clone(s->base); /* l1d.sets = 8, sched.policy = gto */
    char err[256];
    double g[3];
    assert_int_equal(param_set_value(cfg, "l1d.ways", 4, err, sizeof err), 0);
    assert_true(space_violation(s, cfg, g) <= 0);
    assert_double_near(g[0], -4, 0);
    assert_true(g[1] <= 0);
    assert_true(g[2] <= 0);
    assert_int_equal(param_set_value(cfg, "l1d.ways", 8, err, sizeof err), 0);
    space_violation(s, cfg, g);
    assert_double_near(g[0], 1, 0); /* equality breaks a strict < by one step */
    assert_int_equal(param_set_value(cfg, "l1d.ways", 11, err, sizeof err), 0);
    space_violation(s, cfg, g);
    assert_double_near(g[0], 4, 0);
    assert_true(g[1] > 0);
    assert_int_equal(param_set_value(cfg, "l1d.ways", 1, err, sizeof err), 0);
    assert_true(space_violation(s, cfg, g) <= 0);
    assert_int_equal(param_set_parse(cfg, "sched.policy", "lrr", err, sizeof err), 0);
    assert_true(space_violation(s, cfg, g) > 0 && g[2] > 0);
    param_set_free(cfg);
    space_free(s);
}

/* DaCache's variants, l1d.policy aliases, in a space as when they were choices: as dimension
 * levels (the alias's index after the six policies), in {} (every choice and alias), in
 * settings and in constraints. */
static void test_policy_aliases(void **state)
{
    (void)state;
    space *s = parse_ok("{\"settings\": {\"dacache.partitioning\": \"static\"},\n"
                        " \"parameters\": {\"l1d.policy\": [\"lru\", \"dacache_uncon\", "
                        "\"dacache_stall\", \"dacache\"], \"cta.policy\": {}},\n"
                        " \"constraints\": [\"l1d.policy != 'dacache_stall'\"],\n" WL "}");
    const space_dim *d = &s->dims[0];
    assert_int_equal(d->nvalues, 4);
    assert_double_near(d->values[0], 0, 0);
    assert_double_near(d->values[1], 7, 0);
    assert_double_near(d->values[2], 6, 0);
    assert_double_near(d->values[3], 5, 0);
    param_set *cfg = param_set_clone(s->base);
    char err[256], buf[64];
    double g[1];
    const char *want[] = {"lru", "dacache_uncon", "dacache_stall", "dacache"};
    const char *variant[] = {"full", "uncon", "stall", "full"};
    for (int k = 0; k < 4; k++) {
        double x[2] = {(k + 0.5) / 4, 0};
        assert_int_equal(space_decode(s, x, cfg, err, sizeof err), 0);
        param_format(cfg, d->param, buf, sizeof buf);
        assert_string_equal(buf, want[k]);
        assert_string_equal(param_get_choice(cfg, "dacache.variant"), variant[k]);
        assert_string_equal(param_get_choice(cfg, "l1d.policy"), k ? "dacache" : "lru");
        /* the level a configuration is at */
        assert_double_near(space_dim_coord(d, param_get_shown(cfg, d->param)), x[0], 1e-12);
        space_violation(s, cfg, g);
        assert_true(k == 2 ? g[0] > 0 : g[0] <= 0);
    }
    param_set_free(cfg);
    space_free(s);

    s = parse_ok("{\"settings\": {\"l1d.policy\": \"dacache_uncon\"},\n"
                 " \"parameters\": {\"cta.policy\": {}},\n" WL "}");
    assert_string_equal(param_get_choice(s->base, "l1d.policy"), "dacache");
    assert_string_equal(param_get_choice(s->base, "dacache.variant"), "uncon");
    space_free(s);
    s = parse_ok("{\"parameters\": {\"l1d.policy\": {}},\n" WL "}");
    assert_int_equal(s->dims[0].nvalues, 8); /* six policies, two aliases */
    assert_double_near(s->dims[0].values[7], 7, 0);
    space_free(s);
}

static void test_overrides(void **state)
{
    (void)state;
    space *s = parse_ok("{\"parameters\": {\"l1d.ways\": {\"min\": 1, \"max\": 16}, "
                        "\"sm.max_ctas\": [1, 2]},\n" WL "}");
    char err[512];
    assert_int_equal(space_override(s, "l1d.ways=4", err, sizeof err), 0);
    assert_int_equal(s->ndims, 1);
    assert_string_equal(s->dims[0].name, "sm.max_ctas");
    assert_int_equal(param_get_int(s->base, "l1d.ways"), 4);
    assert_int_equal(space_override(s, "search.strategy=DIRECT-L", err, sizeof err), 0);
    assert_int_equal(s->search.kind, SEARCH_NLOPT);
    assert_int_equal(space_override(s, "search.evaluations=7", err, sizeof err), 0);
    assert_int_equal(s->search.max_evaluations, 7);
    assert_int_equal(space_override(s, "output=/tmp/x", err, sizeof err), 0);
    assert_string_equal(s->output, "/tmp/x");
    assert_int_equal(space_override(s, "l1d.wayz=4", err, sizeof err), -1);
    assert_contains(err, "did you mean: l1d.ways");
    assert_int_equal(space_override(s, "search.strategy=simplex", err, sizeof err), -1);
    assert_contains(
        err, "expected grid, random, lhs, morris, sobol or a derivative-free NLopt algorithm");
    assert_int_equal(space_override(s, "search.seed=x", err, sizeof err), -1);
    /* the ranges of the file's search keys: a value beyond them was converted out of range
     * (1e30 evaluations became a budget of 0, and the study evaluated nothing) */
    assert_int_equal(space_override(s, "search.evaluations=1e30", err, sizeof err), -1);
    assert_contains(err, "search.evaluations: expected a value in [1, 1000000000], got '1e30'");
    assert_int_equal(s->search.max_evaluations, 7);
    assert_int_equal(space_override(s, "search.seed=1e300", err, sizeof err), -1);
    assert_contains(err, "search.seed: expected a value in [0, 9007199254740991]");
    assert_int_equal(space_override(s, "search.seed=9007199254740991", err, sizeof err), 0);
    assert_int_equal(s->search.seed, 9007199254740991ull);
    assert_int_equal(space_override(s, "search.seconds=2e9", err, sizeof err), -1);
    assert_contains(err, "search.seconds: expected a value in [0, 1000000000]");
    assert_int_equal(space_override(s, "search.threads=1025", err, sizeof err), -1);
    assert_int_equal(space_override(s, "search.scalarisations=0", err, sizeof err), -1);
    assert_contains(err, "search.scalarisations: expected a value in [1, 1000], got '0'");
    assert_int_equal(space_override(s, "noequals", err, sizeof err), -1);
    assert_contains(err, "expected name=value");
    space_free(s);
}

static void test_bundled(void **state)
{
    (void)state;
    assert_true(space_builtin_count() >= 1);
    int has_default = 0;
    for (size_t i = 0; i < space_builtin_count(); i++) {
        char err[2048] = "";
        space *s = space_parse(space_builtin_text(i), space_builtin_name(i), err, sizeof err);
        if (!s) fail_msg("bundled space %s: %s", space_builtin_name(i), err);
        has_default |= !strcmp(space_builtin_name(i), "default");
        space_free(s);
    }
    assert_true(has_default);
    char err[512];
    space *s = space_load("no-such-space", err, sizeof err);
    assert_null(s);
    assert_contains(err, "built-in spaces: ");
    s = space_load("/nonexistent/x.json", err, sizeof err);
    assert_null(s);
    assert_contains(err, "/nonexistent/x.json: cannot read");
}

typedef struct bad_case {
    const char *text;
    const char *message; /* what the message must contain besides the file */
} bad_case;

static const bad_case bad_cases[] = {
    {"{\"parameters\": ", "t.json:1: malformed JSON"},
    {"[1, 2]", "expected a JSON object at the top level"},
    {"{\"workloads\": [\"stream\"], \"frobs\": 1}",
     "t.json: frobs: unknown key (expected one of: name, description"},
    {"{\"parameters\": {}}", "t.json: workloads: missing (expected an array of workloads)"},
    {"{\"workloads\": []}", "workloads: expected a non-empty array"},
    {"{\"workloads\": [\"nope\"]}", "workloads[0]: unknown workload 'nope'"},
    {"{\"workloads\": [{\"name\": \"stream\", \"weight\": -1}]}",
     "workloads[0].weight: expected a value in [1e-12"},
    {"{\"workloads\": [{\"name\": \"stream\", \"params\": {\"nn\": 4}}]}", "workloads[0]: "},
    {"{\"workloads\": [{\"weight\": 1}]}", "workloads[0]: expected \"name\""},
    {"{\"parameters\": {\"l1d.wayz\": [1, 2]}, " WL "}",
     "parameters.\"l1d.wayz\": unknown parameter (did you mean: l1d.ways"},
    {"{\"parameters\": {\"l1d.ways\": {\"min\": 0, \"max\": 4}}, " WL "}",
     "parameters.\"l1d.ways\".min: expected a value in [1, 256], got 0"},
    {"{\"parameters\": {\"l1d.ways\": {\"min\": 8, \"max\": 4}}, " WL "}",
     "parameters.\"l1d.ways\".max: expected max >= min (8)"},
    {"{\"parameters\": {\"l1d.ways\": {\"min\": 1.5, \"max\": 4}}, " WL "}",
     "parameters.\"l1d.ways\".min: expected an integer"},
    {"{\"parameters\": {\"l1d.ways\": {\"max\": 4}}, " WL "}",
     "parameters.\"l1d.ways\": expected both min and max"},
    {"{\"parameters\": {\"l1d.ways\": {\"min\": 1, \"max\": 4, \"stp\": 2}}, " WL "}",
     "parameters.\"l1d.ways\".stp: unknown key (expected one of: values, min, max"},
    {"{\"parameters\": {\"l1d.ways\": {\"min\": 1, \"max\": 4, \"log\": true, \"step\": 1}}, " WL
     "}",
     "parameters.\"l1d.ways\".step: expected a factor > 1"},
    {"{\"parameters\": {\"l1d.ways\": {\"min\": 0.5, \"max\": 4, \"log\": \"yes\"}}, " WL "}",
     "parameters.\"l1d.ways\".min: expected an integer"},
    {"{\"parameters\": {\"sched.policy\": [\"lrr\", \"fifo\"]}, " WL "}",
     "parameters.\"sched.policy\"[1]: sched.policy: expected one of lrr, gto"},
    {"{\"parameters\": {\"sched.policy\": [\"lrr\", \"lrr\"]}, " WL "}",
     "parameters.\"sched.policy\"[1]: expected distinct values"},
    /* the first repeat in list order, and the earliest of its value; a bad value before any
     * repeat is reported as such */
    {"{\"parameters\": {\"l1d.ways\": [4, 2, 8, 2, 4, 8]}, " WL "}",
     "parameters.\"l1d.ways\"[3]: expected distinct values (this one repeats [1])"},
    {"{\"parameters\": {\"l1d.ways\": [4, 2, 4, \"x\"]}, " WL "}",
     "parameters.\"l1d.ways\"[2]: expected distinct values (this one repeats [0])"},
    {"{\"parameters\": {\"l1d.ways\": [4, \"x\", 4]}, " WL "}",
     "parameters.\"l1d.ways\"[1]: expected a number"},
    {"{\"parameters\": {\"l1d.policy\": [\"lru\", \"dacache_stall\", \"lru\"]}, " WL "}",
     "parameters.\"l1d.policy\"[2]: expected distinct values (this one repeats [0])"},
    {"{\"parameters\": {\"sched.policy\": {\"min\": 0, \"max\": 1}}, " WL "}",
     "parameters.\"sched.policy\": sched.policy is a choice: expected values"},
    {"{\"parameters\": {\"l1d.ways\": []}, " WL "}",
     "parameters.\"l1d.ways\": expected a non-empty array of values"},
    {"{\"parameters\": {\"l1d.ways\": [\"4\"]}, " WL "}",
     "parameters.\"l1d.ways\"[0]: expected a number"},
    {"{\"parameters\": {\"l1d.ways\": 4}, " WL "}",
     "parameters.\"l1d.ways\": expected an array of values or an object"},
    {"{\"settings\": {\"l1d.ways\": 4}, \"parameters\": {\"l1d.ways\": [1, 2]}, " WL "}",
     "settings.\"l1d.ways\": is also explored in parameters"},
    {"{\"settings\": {\"gpu.sms\": 0}, " WL "}",
     "settings.\"gpu.sms\": expected a value in [1, 256], got 0"},
    {"{\"settings\": {\"sched.policy\": 1}, " WL "}",
     "settings.\"sched.policy\": expected the name of a choice (a string)"},
    {"{\"preset\": \"nope\", " WL "}", "t.json: preset: unknown preset 'nope'"},
    {"{\"constraints\": [\"l1d.wayz < 4\"], " WL "}",
     "constraints[0]: \"l1d.wayz < 4\": at column 1: unknown parameter 'l1d.wayz' (did you "
     "mean: l1d.ways"},
    {"{\"constraints\": [\"l1d.ways + 4\"], " WL "}",
     "constraints[0]: \"l1d.ways + 4\": at column 1: expected a condition"},
    {"{\"constraints\": [\"l1d.ways < (4\"], " WL "}", "constraints[0]: \"l1d.ways < (4\": at "
                                                       "column 14: expected ')'"},
    {"{\"constraints\": [\"sched.policy == 'fifo'\"], " WL "}",
     "sched.policy: expected one of lrr, gto"},
    {"{\"constraints\": [\"l1d.ways < 'a'\"], " WL "}",
     "a 'string' may only be compared with == or !="},
    {"{\"constraints\": [3], " WL "}", "constraints[0]: expected a condition (a string"},
    {"{\"objectives\": [\"ipcc\"], " WL "}", "objectives[0]: unknown metric 'ipcc' (did you "
                                             "mean: ipc"},
    {"{\"objectives\": [\"cycles\"], " WL "}",
     "objectives[0]: expected \"goal\": \"min\" or \"max\" (cycles has no default goal)"},
    {"{\"objectives\": [{\"metric\": \"ipc\", \"goal\": \"up\"}], " WL "}",
     "objectives[0].goal: expected \"min\" or \"max\", got \"up\""},
    {"{\"objectives\": [{\"metric\": \"ipc\", \"aggregate\": \"median\"}], " WL "}",
     "objectives[0].aggregate: expected geomean, hmean, mean or sum"},
    {"{\"objectives\": [\"ipc\", \"ipc\"], " WL "}", "objectives[1]: objective ipc given twice"},
    {"{\"objectives\": [], " WL "}", "objectives: expected a non-empty array"},
    {"{\"search\": {\"strategy\": \"simplex\"}, " WL "}",
     "search.strategy: expected grid, random, lhs, morris, sobol or a derivative-free NLopt "
     "algorithm"},
    {"{\"search\": {\"strategy\": \"LD_MMA\"}, " WL "}",
     "search.strategy: expected grid, random, lhs, morris, sobol or a derivative-free NLopt "
     "algorithm"},
    {"{\"search\": {\"strategy\": \"COBYLA\"}, " WL "}",
     "search.strategy: expected grid, random or lhs: there is nothing to explore"},
    {"{\"search\": {\"strategy\": \"morris\"}, " WL "}",
     "search.strategy: expected grid, random or lhs: a morris study measures the effect of "
     "parameters, and there are none to explore"},
    {"{\"parameters\": {\"l1d.ways\": [1, 2]}, \"search\": {\"strategy\": \"sobol\", \"screen\": "
     "0.1}, " WL "}",
     "search.strategy: expected search.screen 0 with sobol"},
    {"{\"parameters\": {\"l1d.ways\": [1, 2]}, \"search\": {\"strategy\": \"sobol\", \"budget\": "
     "{\"evaluations\": 4000000}}, " WL "}",
     "search.strategy: expected a design of at most 10000000 points: 4000000 base samples over 1 "
     "parameter make more"},
    {"{\"parameters\": {\"l1d.ways\": [1, 2]}, \"search\": {\"strategy\": \"BOBYQA\"}, " WL "}",
     "search.strategy: expected another algorithm: BOBYQA needs at least two parameters"},
    {"{\"search\": {\"budget\": {\"evaluations\": 0}}, " WL "}",
     "search.budget.evaluations: expected a value in [1, 1000000000], got 0"},
    {"{\"search\": {\"budget\": {\"evals\": 3}}, " WL "}",
     "search.budget.evals: unknown key (expected one of: evaluations, seconds)"},
    {"{\"search\": {\"seed\": -1}, " WL "}", "search.seed: expected a value in [0"},
    {"{\"search\": {\"threads\": 1.5}, " WL "}", "search.threads: expected an integer"},
    {"{\"output\": \"\", " WL "}", "output: expected a folder name"},
    {"{\"output\": 3, " WL "}", "output: expected a string"},
    {"{\"name\": \"a\", \"name\": \"b\", " WL "}", "name: given twice"},
    /* the name names results/NAME: one folder inside results/, in UTF-8 */
    {"{\"name\": \"../../../somewhere/escape\", " WL "}",
     "t.json: name: \"../../../somewhere/escape\" would name a folder outside results/ "
     "(expected a name without '/'"},
    {"{\"name\": \"..\", " WL "}", "t.json: name: \"..\" would name a folder outside results/"},
    {"{\"name\": \"a\\\\b\", " WL "}", "t.json: name: \"a\\b\" would name a folder outside"},
    {"{\"name\": \"\", " WL "}", "t.json: name: expected a non-empty name"},
    {"{\"name\": \"ab\xff\xfe\", " WL "}",
     "t.json: name: byte 3 (0xff) is not UTF-8 (expected UTF-8 text)"},
    {"{\"description\": \"x\xc0\xaf\", " WL "}", "t.json: description: byte 2 (0xc0) is not UTF-8"},
    {"{\"output\": \"r/\xed\xa0\x80\", " WL "}", "t.json: output: byte 3 (0xed) is not UTF-8"},
    {"{\"workloads\": [\"str\xe9"
     "am\"]}",
     "t.json: workloads[0]: byte 4 (0xe9) is not UTF-8"},
    {"{\"workloads\": [{\"name\": \"stream\", \"params\": {\"\xf5\": 1}}]}",
     "t.json: workloads[0].params: a key's byte 1 (0xf5) is not UTF-8"},
    {"{\"settings\": {\"gpu.sms\": 1, \"gpu.sms\": 200}, " WL "}",
     "t.json: settings.\"gpu.sms\": given twice (expected each key once)"},
    {"{\"workloads\": [{\"name\": \"stream\", \"params\": {\"n\": 1024, \"n\": 2048}}]}",
     "t.json: workloads[0].params.n: given twice (expected each key once)"},
    {"{\"workloads\": [\"stream\", {\"name\": \"stream\", \"params\": {\"a\": 1, \"b\": 1, "
     "\"c\": 1, \"d\": 1, \"e\": 1, \"f\": 1, \"g\": 1, \"h\": 1, \"i\": 1, \"j\": 1, "
     "\"k\": 1, \"l\": 1, \"m\": 1, \"n\": 1, \"o\": 1, \"p\": 1, \"q\": 1, \"c\": 2, "
     "\"b\": 2}}]}",
     "t.json: workloads[1].params.c: given twice (expected each key once)"},
    {"{\"parameters\": {\"l1d.ways\": [1], \"l1d.ways\": [2]}, " WL "}",
     "parameters.\"l1d.ways\": given twice"},
    {"{\"parameters\": {\"l1d.ways\": {\"min\": 1, \"max\": 64}, \"l1d.sets\": {\"min\": 1, "
     "\"max\": 4096}, \"sm.max_warps\": {\"min\": 1, \"max\": 64}, \"l2.sets\": {\"min\": 1, "
     "\"max\": 65536}}, " WL "}",
     "search.strategy: expected a grid of at most 1000000 points"},
};

static void test_malformed(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
        char err[2048] = "";
        space *s = space_parse(bad_cases[i].text, "t.json", err, sizeof err);
        if (s) fail_msg("case %zu parsed: %s", i, bad_cases[i].text);
        if (strncmp(err, "t.json", 6) != 0) fail_msg("case %zu: no file name in \"%s\"", i, err);
        if (!strstr(err, bad_cases[i].message))
            fail_msg("case %zu: expected \"%s\" in \"%s\"", i, bad_cases[i].message, err);
    }
}

/* A space whose name or output folder (key) is n bytes 'x'; the caller frees it. */
static char *long_string_space(const char *key, size_t n)
{
    char *t = malloc(n + 256);
    assert_non_null(t);
    int head = sprintf(t, "{\"%s\": \"", key);
    memset(t + head, 'x', n);
    sprintf(t + head + n, "\", %s}", WL);
    return t;
}

/* Names: at most SPACE_MAX_NAME bytes of UTF-8 text, and the name taken from the file when the
 * space has none is held to the same rules; output folders at most SPACE_MAX_OUTPUT bytes. */
static void test_names(void **state)
{
    (void)state;
    char err[2048] = "";
    char *t = long_string_space("name", SPACE_MAX_NAME);
    space *s = parse_ok(t);
    assert_int_equal(strlen(s->name), SPACE_MAX_NAME);
    space_free(s);
    free(t);
    t = long_string_space("name", (size_t)10 << 20);
    assert_null(space_parse(t, "t.json", err, sizeof err));
    assert_contains(err, "t.json: name: 10485760 bytes long (expected at most 128)");
    free(t);
    t = long_string_space("output", SPACE_MAX_OUTPUT + 1);
    assert_null(space_parse(t, "t.json", err, sizeof err));
    assert_contains(err,
                    "t.json: output: 1025 bytes long (expected a folder name of at most 1024)");
    free(t);
    /* UTF-8 beyond ASCII is a name like any other */
    s = parse_ok("{\"name\": \"caf\xc3\xa9-\xf0\x9f\x98\x80\", " WL "}");
    assert_string_equal(s->output, "results/caf\xc3\xa9-\xf0\x9f\x98\x80");
    space_free(s);
    /* no "name": the file's, which must be a name too */
    assert_null(space_parse("{" WL "}", "dir/\xff.json", err, sizeof err));
    assert_contains(err, "dir/\xff.json: name: byte 1 (0xff) is not UTF-8 (the space file's name");
    assert_null(space_parse("{" WL "}", "dir/...json", err, sizeof err));
    assert_contains(err, "name: \"..\" (the space file's name, without \"name\") would name a "
                         "folder outside results/");
    s = parse_ok("{" WL "}");
    char *big = malloc(SPACE_MAX_OUTPUT + 16);
    assert_non_null(big);
    memcpy(big, "output=", 7);
    memset(big + 7, 'y', SPACE_MAX_OUTPUT + 1);
    big[7 + SPACE_MAX_OUTPUT + 1] = '\0';
    assert_int_equal(space_override(s, big, err, sizeof err), -1);
    assert_contains(err, "--set: output: 1025 bytes long");
    free(big);
    space_free(s);
}

/* A condition of `reps` copies of `open`, a parameter, `reps` copies of `close`, then tail. */
static char *repeated(const char *open, size_t reps, const char *mid, const char *close,
                      const char *tail)
{
    size_t lo = strlen(open), lc = strlen(close);
    char *s = malloc(strlen(mid) + strlen(tail) + reps * (lo + lc) + 1);
    assert_non_null(s);
    char *p = s;
    for (size_t i = 0; i < reps; i++, p += lo)
        memcpy(p, open, lo);
    p += sprintf(p, "%s", mid);
    for (size_t i = 0; i < reps; i++, p += lc)
        memcpy(p, close, lc);
    sprintf(p, "%s", tail);
    return s;
}

/* Deep nesting and very long chains are errors naming the constraint, not stack overflows. */
static void test_deep_constraints(void **state)
{
    (void)state;
    const struct {
        const char *open, *mid, *close;
        size_t reps;
        const char *message; /* NULL: accepted */
    } cases[] = {
        {"(", "l1d.ways", ")", 256, NULL},
        {"(", "l1d.ways", ")", 257, "expression nested deeper than 256"},
        {"(", "l1d.ways", ")", 50000, "expression nested deeper than 256"},
        {"min(1, ", "l1d.ways", ")", 100000, "expression nested deeper than 256"},
        {"-", "l1d.ways", "", 200000, "expression nested deeper than 256"},
        {"!", "(l1d.ways > 1)", "", 200000, "expression nested deeper than 256"},
        {"l1d.ways + ", "1", "", 4000, NULL},
        {"l1d.ways + ", "1", "", 100000, "expression too large (more than 4096 operators"},
        {"l1d.ways < 99 && ", "l1d.ways > 0", "", 300000, "expression too large"},
        {"(l1d.ways + ", "1", ")", 200, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *cond =
            repeated(cases[i].open, cases[i].reps, cases[i].mid, cases[i].close,
                     strchr(cases[i].open, '!') || strchr(cases[i].open, '&') ? "" : " <= 16");
        char *text = malloc(strlen(cond) + 128);
        assert_non_null(text);
        sprintf(text, "{\"workloads\": [\"stream\"], \"constraints\": [\"%s\"]}", cond);
        char err[2048] = "";
        space *s = space_parse(text, "t.json", err, sizeof err);
        if (cases[i].message) {
            if (s) fail_msg("case %zu parsed", i);
            assert_string_prefix(err, "t.json: constraints[0]: \"");
            assert_contains(err, cases[i].message);
        } else if (!s) {
            fail_msg("case %zu: unexpected error: %s", i, err);
        }
        space_free(s);
        free(text);
        free(cond);
    }
}

/* Feasible grid points, counted by hand: l1d.ways in {2, 4, 8, 16} x l1d.sets in {8, 16, 32}
 * with sets * ways <= 128 holds for (2: 8, 16, 32), (4: 8, 16, 32), (8: 8, 16), (16: 8). */
static void test_count_feasible(void **state)
{
    (void)state;
    char err[256];
    size_t tried, ok;
    space *s = parse_ok("{\"parameters\": {\"l1d.ways\": [2, 4, 8, 16], \"l1d.sets\": [8, 16, 32]},"
                        " \"constraints\": [\"l1d.sets * l1d.ways <= 128\"], " WL "}");
    assert_int_equal(space_count_feasible(s, 1000, &tried, &ok, err, sizeof err), 0);
    assert_int_equal(tried, 12);
    assert_int_equal(ok, 9);
    /* a sample of 4 of the 12 points: indices 0, 3, 6, 9 = (2,8) (4,8) (8,8) (16,8), all fit */
    assert_int_equal(space_count_feasible(s, 4, &tried, &ok, err, sizeof err), 0);
    assert_int_equal(tried, 4);
    assert_int_equal(ok, 4);
    space_free(s);
    /* the grid points are the ones the grid search proposes: the last is the largest of each */
    s = parse_ok(
        "{\"parameters\": {\"l1d.ways\": [2, 16]}, \"constraints\": [\"l1d.ways / 0 < 1\"], " WL
        "}");
    assert_int_equal(space_count_feasible(s, 1000, &tried, &ok, err, sizeof err), 0);
    assert_int_equal(tried, 2);
    assert_int_equal(ok, 0);
    space_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fields),           cmocka_unit_test(test_rounding),
        cmocka_unit_test(test_constraints),      cmocka_unit_test(test_overrides),
        cmocka_unit_test(test_bundled),          cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_deep_constraints), cmocka_unit_test(test_count_feasible),
        cmocka_unit_test(test_policy_aliases),   cmocka_unit_test(test_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
