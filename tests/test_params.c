/* Tests of the parameter registry: the registered table itself (defaults in range, unique names,
 * lookup), parsing and its error messages, formatting round trips, the configuration hash and
 * cloning. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explorer/catalog.h"
#include "core/config/config.h"
#include "core/config/params.h"
#include "core/config/preset.h"
#include "core/util/rng.h"
#include "policies/registry.h"
#include "explorer/simulate.h"
#include "tests/support/support.h"

static size_t n_choices(const param_def *d)
{
    size_t n = 0;
    while (d->choices[n])
        n++;
    return n;
}

static void assert_contains(const char *haystack, const char *needle)
{
    if (!strstr(haystack, needle)) fail_msg("expected \"%s\" in \"%s\"", needle, haystack);
}

/* ------------------------------------------------------------------ the table ---- */

static void test_defaults_in_range(void **state)
{
    (void)state;
    size_t n = param_count();
    assert_true(n > 40); /* the core group alone has more than forty */
    for (size_t id = 0; id < n; id++) {
        const param_def *d = param_def_at(id);
        assert_non_null(d);
        assert_non_null(d->name);
        assert_non_null(d->unit);
        assert_non_null(d->doc);
        if (!d->doc[0]) fail_msg("%s has an empty doc", d->name);
        switch (d->type) {
        case PT_INT:
            if (d->def != floor(d->def)) fail_msg("%s: integer default %g", d->name, d->def);
            /* fall through */
        case PT_REAL:
            if (!(d->lo <= d->hi)) fail_msg("%s: empty range", d->name);
            if (d->def < d->lo || d->def > d->hi)
                fail_msg("%s: default %g outside [%g, %g]", d->name, d->def, d->lo, d->hi);
            assert_null(d->choices);
            break;
        case PT_BOOL:
            if (d->def != 0 && d->def != 1) fail_msg("%s: bool default %g", d->name, d->def);
            break;
        case PT_CHOICE: {
            assert_non_null(d->choices);
            size_t k = n_choices(d);
            assert_true(k >= 1);
            if (d->def != floor(d->def) || d->def < 0 || d->def >= (double)k)
                fail_msg("%s: choice default %g with %zu choices", d->name, d->def, k);
            break;
        }
        default:
            fail_msg("%s: unknown type %d", d->name, (int)d->type);
        }
    }
    assert_null(param_def_at(n));
    assert_null(param_def_at(n + 100));
}

static void test_names_unique_and_lookup(void **state)
{
    (void)state;
    size_t n = param_count();
    for (size_t i = 0; i < n; i++) {
        const char *a = param_def_at(i)->name;
        if (!strchr(a, '.')) fail_msg("parameter '%s' is not a dotted name", a);
        for (size_t j = i + 1; j < n; j++)
            if (strcmp(a, param_def_at(j)->name) == 0)
                fail_msg("parameter '%s' registered twice (%zu, %zu)", a, i, j);
        assert_int_equal(param_lookup(a), (int)i);
    }
    assert_int_equal(param_lookup("no.such.param"), -1);
    assert_int_equal(param_lookup(""), -1);
    assert_int_equal(param_lookup("l1d"), -1);
    assert_int_equal(param_lookup("l1d.ways "), -1);
    assert_int_equal(param_lookup("L1D.WAYS"), -1);
}

static void test_choice_lists_are_registry_lists(void **state)
{
    (void)state;
    assert_ptr_equal(param_def_at((size_t)param_lookup("sched.policy"))->choices,
                     sched_policy_names);
    assert_ptr_equal(param_def_at((size_t)param_lookup("l1d.policy"))->choices, l1_policy_names);
    assert_ptr_equal(param_def_at((size_t)param_lookup("cta.policy"))->choices, cta_policy_names);
}

static void test_new_set_holds_defaults(void **state)
{
    (void)state;
    param_set *p = param_set_new();
    assert_non_null(p);
    for (size_t id = 0; id < param_count(); id++)
        assert_double_near(param_get(p, (int)id), param_def_at(id)->def, 0);
    /* A few values read through the typed getters (the Fermi GTX480 baseline). */
    assert_int_equal(param_get_int(p, "gpu.sms"), 15);
    assert_int_equal(param_get_int(p, "l1d.ways"), 16);
    assert_double_near(param_get_real(p, "gpu.clock_mhz"), 1400.0, 0);
    assert_string_equal(param_get_choice(p, "l1d.hash"), "linear");
    assert_string_equal(param_get_choice(p, "sched.policy"), "gto");
    param_set_free(p);
}

/* ------------------------------------------------------------------- parsing ---- */

static void test_parse_valid(void **state)
{
    (void)state;
    param_set *p = param_set_new();
    char err[512] = "";
    assert_int_equal(param_set_parse(p, "l1d.ways", "4", err, sizeof err), 0);
    assert_int_equal(param_get_int(p, "l1d.ways"), 4);
    assert_int_equal(param_set_parse(p, "l1d.ways", " 8 ", err, sizeof err), 0);
    assert_int_equal(param_get_int(p, "l1d.ways"), 8);
    assert_int_equal(param_set_parse(p, "l1d.ways", "64", err, sizeof err), 0); /* hi */
    assert_int_equal(param_get_int(p, "l1d.ways"), 64);
    assert_int_equal(param_set_parse(p, "l1d.ways", "1", err, sizeof err), 0); /* lo */
    assert_int_equal(param_get_int(p, "l1d.ways"), 1);
    assert_int_equal(param_set_parse(p, "gpu.sms", "3e1", err, sizeof err), 0);
    assert_int_equal(param_get_int(p, "gpu.sms"), 30);
    assert_int_equal(param_set_parse(p, "gpu.sms", "30.0", err, sizeof err), 0);
    assert_int_equal(param_get_int(p, "gpu.sms"), 30);
    assert_int_equal(param_set_parse(p, "sim.seed", "9007199254740991", err, sizeof err), 0);
    assert_int_equal(param_get_int(p, "sim.seed"), 9007199254740991LL);
    assert_int_equal(param_set_parse(p, "gpu.clock_mhz", "1234.5", err, sizeof err), 0);
    assert_double_near(param_get_real(p, "gpu.clock_mhz"), 1234.5, 0);
    assert_int_equal(param_set_parse(p, "energy.int_op_pj", "0", err, sizeof err), 0);
    assert_double_near(param_get_real(p, "energy.int_op_pj"), 0.0, 0);

    static const char *const yes[] = {"true", "1", "yes", "on"};
    static const char *const no[] = {"false", "0", "no", "off"};
    for (int i = 0; i < 4; i++) {
        assert_int_equal(param_set_parse(p, "l1d.enabled", no[i], err, sizeof err), 0);
        assert_int_equal(param_get_int(p, "l1d.enabled"), 0);
        assert_int_equal(param_set_parse(p, "l1d.enabled", yes[i], err, sizeof err), 0);
        assert_int_equal(param_get_int(p, "l1d.enabled"), 1);
    }

    assert_int_equal(param_set_parse(p, "l1d.hash", "xor", err, sizeof err), 0);
    assert_string_equal(param_get_choice(p, "l1d.hash"), "xor");
    assert_int_equal(param_get_int(p, "l1d.hash"), 1);
    assert_int_equal(param_set_parse(p, "sched.policy", "lrr", err, sizeof err), 0);
    assert_string_equal(param_get_choice(p, "sched.policy"), "lrr");
    assert_int_equal(param_set_parse(p, "sched.policy", "gto", err, sizeof err), 0);
    assert_string_equal(param_get_choice(p, "sched.policy"), "gto");

    assert_int_equal(param_set_value(p, "l1d.sets", 32, err, sizeof err), 0);
    assert_int_equal(param_get_int(p, "l1d.sets"), 32);
    assert_int_equal(param_set_value(p, "l1d.hash", 0, err, sizeof err), 0);
    assert_string_equal(param_get_choice(p, "l1d.hash"), "linear");
    param_set_free(p);
}

/* Expects a rejection whose message contains every one of the given fragments, and no change to
 * any value in the set. */
static void expect_reject(const char *name, const char *text, const char *frag1, const char *frag2)
{
    param_set *p = param_set_new();
    uint64_t before = param_set_hash(p);
    char err[512] = "";
    if (param_set_parse(p, name, text, err, sizeof err) == 0)
        fail_msg("%s = '%s' was accepted", name, text);
    assert_contains(err, name);
    if (frag1) assert_contains(err, frag1);
    if (frag2) assert_contains(err, frag2);
    assert_int_equal(param_set_hash(p), before);
    param_set_free(p);
}

static void test_parse_rejects(void **state)
{
    (void)state;
    /* not numbers */
    expect_reject("l1d.ways", "four", "integer", "'four'");
    expect_reject("l1d.ways", "", "integer", NULL);
    expect_reject("l1d.ways", "  ", "integer", NULL);
    expect_reject("l1d.ways", "12abc", "integer", "12abc");
    expect_reject("l1d.ways", "0x", "integer", NULL);
    expect_reject("l1d.ways", "nan", "integer", NULL);
    expect_reject("l1d.ways", "inf", "integer", NULL);
    expect_reject("gpu.clock_mhz", "fast", "number", "'fast'");
    expect_reject("gpu.clock_mhz", "1400MHz", "number", NULL);
    /* out of range: the message gives the range */
    expect_reject("l1d.ways", "0", "[1, 256]", NULL);
    expect_reject("l1d.ways", "257", "[1, 256]", "257");
    expect_reject("l1d.ways", "-4", "[1, 256]", NULL);
    expect_reject("gpu.sms", "1e9", "[1, 256]", NULL);
    expect_reject("gpu.clock_mhz", "99.5", "[100, 5000]", NULL);
    expect_reject("gpu.clock_mhz", "5000.001", "[100, 5000]", NULL);
    expect_reject("energy.int_op_pj", "-0.1", "[0, ", NULL);
    /* non-integers for integers */
    expect_reject("l1d.ways", "2.5", "integer", "2.5");
    expect_reject("gpu.sms", "1.0000001", "integer", NULL);
    /* bools */
    expect_reject("l1d.enabled", "maybe", "true or false", "'maybe'");
    expect_reject("l1d.enabled", "2", "true or false", NULL);
    expect_reject("l1d.enabled", "TRUE", "true or false", NULL);
    /* unknown choices: the message lists the legal ones */
    expect_reject("sched.policy", "fifo", "lrr, gto", "'fifo'");
    expect_reject("sched.policy", "1", "lrr, gto", NULL);
    expect_reject("sched.policy", "GTO", "lrr, gto", NULL);
    expect_reject("l1d.hash", "", "linear, xor", NULL);
}

static void test_set_value_rejects(void **state)
{
    (void)state;
    param_set *p = param_set_new();
    uint64_t before = param_set_hash(p);
    char err[512];
    assert_int_equal(param_set_value(p, "l1d.ways", 257, err, sizeof err), -1);
    assert_contains(err, "l1d.ways");
    assert_int_equal(param_set_value(p, "l1d.ways", 2.5, err, sizeof err), -1);
    assert_contains(err, "integer");
    assert_int_equal(param_set_value(p, "gpu.clock_mhz", INFINITY, err, sizeof err), -1);
    assert_contains(err, "gpu.clock_mhz");
    assert_int_equal(param_set_value(p, "gpu.clock_mhz", NAN, err, sizeof err), -1);
    assert_int_equal(param_set_value(p, "l1d.enabled", 0.5, err, sizeof err), -1);
    assert_contains(err, "true or false");
    assert_int_equal(param_set_value(p, "l1d.hash", 3, err, sizeof err), -1);
    assert_contains(err, "linear, xor");
    assert_int_equal(param_set_value(p, "l1d.hash", -1, err, sizeof err), -1);
    assert_int_equal(param_set_value(p, "l1d.hash", 0.5, err, sizeof err), -1);
    assert_int_equal(param_set_value(p, "l1d.wayz", 4, err, sizeof err), -1);
    assert_contains(err, "unknown parameter 'l1d.wayz'");
    assert_contains(err, "l1d.ways");
    assert_int_equal(param_set_hash(p), before);
    param_set_free(p);
}

static void test_unknown_names_suggest(void **state)
{
    (void)state;
    param_set *p = param_set_new();
    char err[512];
    static const struct {
        const char *typo, *want;
    } cases[] = {
        {"l1d.wayz", "l1d.ways"},          {"l1d.way", "l1d.ways"},
        {"sm.max_warp", "sm.max_warps"},   {"gpu.sm", "gpu.sms"},
        {"dram.t_cas", "dram.t_ras"},      {"l2.set", "l2.sets"},
        {"sched.polcy", "sched.policy"},   {"l1.ways", "l1d.ways"},
        {"sm.clock_mhz", "gpu.clock_mhz"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        err[0] = '\0';
        assert_int_equal(param_set_parse(p, cases[i].typo, "1", err, sizeof err), -1);
        char want[128];
        snprintf(want, sizeof want, "unknown parameter '%s'", cases[i].typo);
        assert_contains(err, want);
        assert_contains(err, "did you mean");
        assert_contains(err, cases[i].want);
        char near[256];
        param_suggest(cases[i].typo, near, sizeof near);
        assert_contains(near, cases[i].want);
    }
    /* nothing close: no suggestion, but a pointer to the list */
    assert_int_equal(param_set_parse(p, "zzzzzzzzzzzzzzzzzzzzzz", "1", err, sizeof err), -1);
    assert_contains(err, "unknown parameter 'zzzzzzzzzzzzzzzzzzzzzz'");
    assert_null(strstr(err, "did you mean"));
    char near[256];
    param_suggest("zzzzzzzzzzzzzzzzzzzzzz", near, sizeof near);
    assert_string_equal(near, "");
    /* a small buffer is never overrun and stays terminated */
    char tiny[6];
    param_suggest("l1d.wayz", tiny, sizeof tiny);
    assert_true(strlen(tiny) < sizeof tiny);
    param_set_free(p);
}

/* -------------------------------------------------------- formatting, hashing ---- */

/* Some legal values of parameter id other than its default (up to max), for round trips. */
static int legal_values(size_t id, wt_rng *rng, double *out, int max)
{
    const param_def *d = param_def_at(id);
    int n = 0;
    switch (d->type) {
    case PT_BOOL:
        out[n++] = 1 - d->def;
        break;
    case PT_CHOICE:
        for (size_t k = 0; k < n_choices(d) && n < max; k++)
            if ((double)k != d->def) out[n++] = (double)k;
        break;
    case PT_INT: {
        if (d->lo != d->def) out[n++] = d->lo;
        if (d->hi != d->def) out[n++] = d->hi;
        double span = d->hi - d->lo;
        if (span > 1e15) span = 1e15;
        while (n < max) {
            double v = d->lo + (double)wt_rng_below(rng, (uint64_t)span + 1);
            if (v != d->def) out[n++] = v;
        }
        break;
    }
    case PT_REAL:
        if (d->lo != d->def) out[n++] = d->lo;
        if (d->hi != d->def) out[n++] = d->hi;
        while (n < max) {
            double v = d->lo + (d->hi - d->lo) * wt_rng_unit(rng);
            if (v != d->def && v <= d->hi) out[n++] = v;
        }
        break;
    }
    return n;
}

static void test_format_round_trip(void **state)
{
    (void)state;
    wt_rng rng;
    wt_rng_seed(&rng, 20240611);
    param_set *p = param_set_new();
    param_set *q = param_set_new();
    char err[512], buf[128];
    for (size_t id = 0; id < param_count(); id++) {
        const param_def *d = param_def_at(id);
        double vals[12];
        int nv = legal_values(id, &rng, vals, 10);
        vals[nv++] = d->def;
        for (int k = 0; k < nv; k++) {
            if (param_set_value(p, d->name, vals[k], err, sizeof err) != 0)
                fail_msg("%s = %.17g rejected: %s", d->name, vals[k], err);
            param_format(p, (int)id, buf, sizeof buf);
            if (param_set_parse(q, d->name, buf, err, sizeof err) != 0)
                fail_msg("%s: formatted value '%s' does not parse: %s", d->name, buf, err);
            if (param_get(q, (int)id) != vals[k])
                fail_msg("%s: %.17g formatted as '%s' parsed back as %.17g", d->name, vals[k], buf,
                         param_get(q, (int)id));
        }
    }
    /* exact texts */
    assert_int_equal(param_set_parse(p, "l1d.ways", "12", err, sizeof err), 0);
    param_format(p, param_lookup("l1d.ways"), buf, sizeof buf);
    assert_string_equal(buf, "12");
    assert_int_equal(param_set_parse(p, "gpu.clock_mhz", "1234.5", err, sizeof err), 0);
    param_format(p, param_lookup("gpu.clock_mhz"), buf, sizeof buf);
    assert_string_equal(buf, "1234.5");
    assert_int_equal(param_set_parse(p, "l1d.enabled", "off", err, sizeof err), 0);
    param_format(p, param_lookup("l1d.enabled"), buf, sizeof buf);
    assert_string_equal(buf, "false");
    assert_int_equal(param_set_parse(p, "l1d.hash", "xor", err, sizeof err), 0);
    param_format(p, param_lookup("l1d.hash"), buf, sizeof buf);
    assert_string_equal(buf, "xor");
    assert_int_equal(param_set_parse(p, "sim.max_cycles", "1e12", err, sizeof err), 0);
    param_format(p, param_lookup("sim.max_cycles"), buf, sizeof buf);
    assert_string_equal(buf, "1000000000000");
    param_set_free(p);
    param_set_free(q);
}

static void test_hash(void **state)
{
    (void)state;
    wt_rng rng;
    wt_rng_seed(&rng, 7);
    param_set *a = param_set_new();
    param_set *b = param_set_new();
    uint64_t h0 = param_set_hash(a);
    assert_int_equal(param_set_hash(b), h0);
    assert_int_equal(param_set_hash(a), h0); /* stable */
    char err[512];
    int changed = 0;
    for (size_t id = 0; id < param_count(); id++) {
        const param_def *d = param_def_at(id);
        double vals[4];
        int nv = legal_values(id, &rng, vals, 3);
        for (int k = 0; k < nv; k++) {
            assert_int_equal(param_set_value(a, d->name, vals[k], err, sizeof err), 0);
            if (param_set_hash(a) == h0)
                fail_msg("hash unchanged after %s = %.17g", d->name, vals[k]);
            /* equal sets hash equally */
            assert_int_equal(param_set_value(b, d->name, vals[k], err, sizeof err), 0);
            assert_int_equal(param_set_hash(a), param_set_hash(b));
            changed++;
        }
        /* back to the default: back to the same hash */
        assert_int_equal(param_set_value(a, d->name, d->def, err, sizeof err), 0);
        assert_int_equal(param_set_value(b, d->name, d->def, err, sizeof err), 0);
        assert_int_equal(param_set_hash(a), h0);
    }
    assert_true(changed > 100);
    /* two parameters changed in either order: the same set, the same hash */
    assert_int_equal(param_set_parse(a, "gpu.sms", "30", err, sizeof err), 0);
    assert_int_equal(param_set_parse(a, "l1d.ways", "8", err, sizeof err), 0);
    assert_int_equal(param_set_parse(b, "l1d.ways", "8", err, sizeof err), 0);
    assert_int_equal(param_set_parse(b, "gpu.sms", "30", err, sizeof err), 0);
    assert_int_equal(param_set_hash(a), param_set_hash(b));
    /* distinct values of one parameter give distinct hashes */
    uint64_t seen[64];
    for (int w = 1; w <= 64; w++) {
        assert_int_equal(param_set_value(a, "l1d.ways", w, err, sizeof err), 0);
        seen[w - 1] = param_set_hash(a);
        for (int k = 0; k < w - 1; k++)
            assert_int_not_equal(seen[k], seen[w - 1]);
    }
    param_set_free(a);
    param_set_free(b);
}

/* FNV-1a, 64-bit, of the bytes of s after h: the configuration hash's lines by hand. */
static uint64_t fnv1a_text(uint64_t h, const char *s)
{
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

/* The hash covers only the parameters that differ from their defaults: a parameter set to its
 * default explicitly changes nothing, the defaults hash nothing, and a setting hashes its line.
 * Version 1's hash (param_set_hash_all) covers every parameter. */
static void test_hash_leaves_defaults_out(void **state)
{
    (void)state;
    char err[512];
    param_set *a = param_set_new();
    param_set *b = param_set_new();
    /* nothing hashed: FNV-1a's offset basis, 14695981039346656037 */
    const uint64_t offset_basis = 0xcbf29ce484222325ULL;
    assert_int_equal(param_set_hash(a), offset_basis);
    /* every parameter set explicitly to its default: the same configuration, the same hash */
    for (size_t id = 0; id < param_count(); id++) {
        const param_def *d = param_def_at(id);
        assert_int_equal(param_set_value(b, d->name, d->def, err, sizeof err), 0);
        assert_int_equal(param_set_hash(b), param_set_hash(a));
        assert_int_equal(param_set_hash_all(b), param_set_hash_all(a));
    }
    /* and beside a setting that is not a default */
    assert_int_equal(param_set_parse(a, "gpu.sms", "30", err, sizeof err), 0);
    assert_int_equal(param_set_parse(b, "gpu.sms", "30", err, sizeof err), 0);
    assert_int_equal(param_set_parse(b, "l1d.ways", "16", err, sizeof err), 0); /* its default */
    assert_int_equal(param_set_hash(b), param_set_hash(a));
    /* only the setting's line is hashed, the value as param_format writes it */
    assert_int_equal(param_set_hash(a), fnv1a_text(offset_basis, "gpu.sms=30\n"));
    assert_int_equal(param_set_parse(a, "l1d.hash", "xor", err, sizeof err), 0);
    assert_int_equal(param_set_parse(a, "sim.skip_idle", "false", err, sizeof err), 0);
    assert_int_equal(param_set_hash(a),
                     fnv1a_text(offset_basis, "sim.skip_idle=false\ngpu.sms=30\nl1d.hash=xor\n"));
    /* version 1's hash reads every parameter: the defaults are part of it */
    assert_int_not_equal(param_set_hash_all(a), param_set_hash(a));
    assert_int_equal(param_set_parse(a, "gpu.sms", "15", err, sizeof err), 0);
    assert_int_equal(param_set_parse(b, "gpu.sms", "15", err, sizeof err), 0);
    assert_int_equal(param_set_hash(a),
                     fnv1a_text(offset_basis, "sim.skip_idle=false\nl1d.hash=xor\n"));
    param_set_free(a);
    param_set_free(b);
}

/* The configuration hash of journal version 1 as it was before dacache.variant existed: FNV-1a
 * over "name=value\n" of every parameter but that one, values as shown (an alias by its name),
 * from version 1's start value. */
static uint64_t hash_without_variant(const param_set *p, int var)
{
    uint64_t h = 1469598103934665603ULL;
    char buf[64];
    for (size_t id = 0; id < param_count(); id++) {
        if ((int)id == var) continue;
        param_format(p, (int)id, buf, sizeof buf);
        for (const char *t = param_def_at(id)->name; *t; t++)
            h = (h ^ (unsigned char)*t) * 1099511628211ULL;
        h = (h ^ '=') * 1099511628211ULL;
        for (const char *t = buf; *t; t++)
            h = (h ^ (unsigned char)*t) * 1099511628211ULL;
        h = (h ^ '\n') * 1099511628211ULL;
    }
    return h;
}

/* l1d.policy's aliases: DaCache's variants, once choices of l1d.policy, are dacache with
 * dacache.variant. A configuration reads, prints and hashes as it did when they were choices. */
static void test_choice_aliases(void **state)
{
    (void)state;
    char err[512], buf[64];
    int pol = param_lookup("l1d.policy"), var = param_lookup("dacache.variant");
    assert_true(pol >= 0 && var >= 0);
    /* the names l1d.policy accepts: its six policies, then the two aliases */
    assert_int_equal(param_choice_count(&sim_catalog, (size_t)pol), 8);
    assert_string_equal(param_choice_name(&sim_catalog, (size_t)pol, 5), "dacache");
    assert_string_equal(param_choice_name(&sim_catalog, (size_t)pol, 6), "dacache_stall");
    assert_string_equal(param_choice_name(&sim_catalog, (size_t)pol, 7), "dacache_uncon");
    assert_null(param_choice_name(&sim_catalog, (size_t)pol, 8));
    assert_int_equal(param_choice_index(&sim_catalog, (size_t)pol, "dacache_uncon"), 7);
    assert_int_equal(param_choice_index(&sim_catalog, (size_t)pol, "dacache_fast"), -1);
    assert_int_equal(param_choice_count(&sim_catalog, (size_t)param_lookup("gpu.sms")), 0);

    /* The version-1 hashes the default preset has with each DaCache choice are those it had
     * before dacache.variant existed, with the alias as l1d.policy's value: journals keyed by
     * them stay valid. */
    const char *names[] = {NULL, "dacache", "dacache_stall", "dacache_uncon"};
    const char *variants[] = {"full", "full", "stall", "uncon"};
    for (int k = 0; k < 4; k++) {
        param_set *p = param_set_new();
        assert_int_equal(preset_apply(p, WT_DEFAULT_PRESET, err, sizeof err), 0);
        if (names[k])
            assert_int_equal(param_set_parse(p, "l1d.policy", names[k], err, sizeof err), 0);
        uint64_t before = hash_without_variant(p, var);
        if (param_set_hash_all(p) != before)
            fail_msg("%s: hash %016llx, before %016llx", names[k] ? names[k] : "default",
                     (unsigned long long)param_set_hash_all(p), (unsigned long long)before);
        /* shown as it was written; the policy and its variant underneath */
        param_format(p, pol, buf, sizeof buf);
        assert_string_equal(buf, names[k] ? names[k] : "lru");
        assert_string_equal(param_get_choice(p, "l1d.policy"), names[k] ? "dacache" : "lru");
        assert_string_equal(param_get_choice(p, "dacache.variant"), variants[k]);
        assert_double_near(param_get(p, pol), names[k] ? 5 : 0, 0);
        assert_double_near(param_get_shown(p, pol), names[k] ? 4 + k : 0, 0);
        assert_true(param_folded(p, var)); /* at its default, or shown by the alias */
        assert_false(param_folded(p, pol));
        /* the same configuration set the new way, in either order */
        param_set *q = param_set_new();
        assert_int_equal(preset_apply(q, WT_DEFAULT_PRESET, err, sizeof err), 0);
        assert_int_equal(param_set_parse(q, "dacache.variant", variants[k], err, sizeof err), 0);
        if (names[k])
            assert_int_equal(param_set_parse(q, "l1d.policy", "dacache", err, sizeof err), 0);
        assert_int_equal(param_set_hash_all(q), before);
        assert_int_equal(param_set_hash(q), param_set_hash(p));
        param_set_free(q);
        param_set_free(p);
    }

    param_set *p = param_set_new();
    uint64_t h0 = param_set_hash(p);
    /* a variant set under another policy is written out: another configuration */
    assert_int_equal(param_set_parse(p, "dacache.variant", "stall", err, sizeof err), 0);
    assert_false(param_folded(p, var));
    assert_int_not_equal(param_set_hash(p), h0);
    param_format(p, pol, buf, sizeof buf);
    assert_string_equal(buf, "lru");
    assert_double_near(param_get_shown(p, pol), 0, 0);
    /* choosing dacache keeps the variant: the configuration is then the alias's */
    assert_int_equal(param_set_parse(p, "l1d.policy", "dacache", err, sizeof err), 0);
    param_format(p, pol, buf, sizeof buf);
    assert_string_equal(buf, "dacache_stall");
    assert_true(param_folded(p, var));
    /* an alias by its index after the choices, as a space dimension stores it */
    assert_int_equal(param_set_value(p, "l1d.policy", 7, err, sizeof err), 0);
    assert_string_equal(param_get_choice(p, "dacache.variant"), "uncon");
    assert_double_near(param_get(p, pol), 5, 0);
    assert_int_equal(param_set_value(p, "l1d.policy", 1, err, sizeof err), 0);
    assert_string_equal(param_get_choice(p, "l1d.policy"), "rrip");
    assert_string_equal(param_get_choice(p, "dacache.variant"), "uncon");
    /* the names a message lists are every accepted one, as before the aliases */
    assert_int_equal(param_set_value(p, "l1d.policy", 8, err, sizeof err), -1);
    assert_contains(err, "expected one of lru, rrip, dip, ship, cacp, dacache, dacache_stall, "
                         "dacache_uncon, got index 8");
    assert_int_equal(param_set_parse(p, "l1d.policy", "dacache_fast", err, sizeof err), -1);
    assert_string_equal(err, "l1d.policy: expected one of lru, rrip, dip, ship, cacp, dacache, "
                             "dacache_stall, dacache_uncon, got 'dacache_fast'");
    assert_int_equal(param_set_parse(p, "dacache.variant", "bypass", err, sizeof err), -1);
    assert_string_equal(err, "dacache.variant: expected one of full, stall, uncon, got 'bypass'");
    param_set_free(p);
}

static void test_clone_independent(void **state)
{
    (void)state;
    char err[512];
    param_set *a = param_set_new();
    assert_int_equal(param_set_parse(a, "gpu.sms", "30", err, sizeof err), 0);
    assert_int_equal(param_set_parse(a, "l1d.hash", "xor", err, sizeof err), 0);
    param_set *b = param_set_clone(a);
    assert_non_null(b);
    assert_int_equal(param_set_hash(a), param_set_hash(b));
    for (size_t id = 0; id < param_count(); id++)
        assert_double_near(param_get(a, (int)id), param_get(b, (int)id), 0);
    uint64_t ha = param_set_hash(a);
    assert_int_equal(param_set_parse(b, "gpu.sms", "7", err, sizeof err), 0);
    assert_int_equal(param_get_int(a, "gpu.sms"), 30);
    assert_int_equal(param_get_int(b, "gpu.sms"), 7);
    assert_int_equal(param_set_hash(a), ha);
    assert_int_equal(param_set_parse(a, "l1d.hash", "linear", err, sizeof err), 0);
    assert_string_equal(param_get_choice(b, "l1d.hash"), "xor");
    param_set_free(a); /* b outlives a */
    assert_int_equal(param_get_int(b, "gpu.sms"), 7);
    param_set_free(b);
}

static void test_default_config(void **state)
{
    (void)state;
    param_set *p = param_set_new();
    gpu_config c;
    char err[512] = "";
    assert_int_equal(gpu_config_from_params(p, &c, err, sizeof err), 0);
    assert_int_equal(c.num_sms, 15);
    assert_int_equal(c.l1d_sets * c.l1d_ways * c.l1d_line, 16384);
    /* the policies are the composition's, not the core's */
    sim_plugins pl;
    assert_int_equal(sim_plugins_for(p, &pl, err, sizeof err), 0);
    assert_string_equal(pl.sched->name, "gto");
    assert_string_equal(pl.l1->name, "lru");
    assert_string_equal(pl.cta->name, "max_tlp");
    /* inconsistent settings are caught */
    assert_int_equal(param_set_parse(p, "l1d.line", "96", err, sizeof err), 0);
    assert_int_equal(gpu_config_from_params(p, &c, err, sizeof err), -1);
    assert_contains(err, "l1d.line");
    assert_int_equal(param_set_parse(p, "l1d.line", "128", err, sizeof err), 0);
    assert_int_equal(param_set_parse(p, "l1d.sets", "6", err, sizeof err), 0);
    assert_int_equal(param_set_parse(p, "l1d.hash", "xor", err, sizeof err), 0);
    assert_int_equal(gpu_config_from_params(p, &c, err, sizeof err), -1);
    assert_contains(err, "l1d.sets");
    param_set_free(p);
}

/* Settings inside their ranges that still cannot be simulated are refused by name: the
 * sectors of a line must fit a 32-bit mask, the L2 and DRAM indexes need powers of two. */
static void test_config_refuses_inconsistent_settings(void **state)
{
    (void)state;
    static const char *const bad[][4] = {
        {"l1d.line", "256", "l1d.bypass_segment", "4"},  /* 64 sectors */
        {"l1d.line", "128", "l1d.bypass_segment", "24"}, /* not a power of two */
        {"l2.sets", "48", NULL, NULL},
        {"dram.banks", "12", NULL, NULL},
        {"l2.line", "256", "dram.row_bytes", "128"}, /* a row smaller than a line */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        param_set *p = param_set_new();
        gpu_config c;
        char err[512] = "";
        for (int k = 0; k < 4 && bad[i][k]; k += 2)
            assert_int_equal(param_set_parse(p, bad[i][k], bad[i][k + 1], err, sizeof err), 0);
        assert_int_equal(gpu_config_from_params(p, &c, err, sizeof err), -1);
        assert_contains(err, bad[i][bad[i][2] ? 2 : 0]);
        param_set_free(p);
    }
    /* the smallest segment a 128-byte line allows is fine */
    param_set *p = param_set_new();
    gpu_config c;
    char err[512] = "";
    assert_int_equal(param_set_parse(p, "l1d.bypass_segment", "4", err, sizeof err), 0);
    assert_int_equal(gpu_config_from_params(p, &c, err, sizeof err), 0);
    /* a queue of one cannot take a fill and a write-back at once */
    assert_int_not_equal(param_set_parse(p, "dram.queue", "1", err, sizeof err), 0);
    param_set_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults_in_range),
        cmocka_unit_test(test_names_unique_and_lookup),
        cmocka_unit_test(test_choice_lists_are_registry_lists),
        cmocka_unit_test(test_new_set_holds_defaults),
        cmocka_unit_test(test_parse_valid),
        cmocka_unit_test(test_parse_rejects),
        cmocka_unit_test(test_set_value_rejects),
        cmocka_unit_test(test_unknown_names_suggest),
        cmocka_unit_test(test_format_round_trip),
        cmocka_unit_test(test_hash),
        cmocka_unit_test(test_hash_leaves_defaults_out),
        cmocka_unit_test(test_choice_aliases),
        cmocka_unit_test(test_clone_independent),
        cmocka_unit_test(test_default_config),
        cmocka_unit_test(test_config_refuses_inconsistent_settings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
