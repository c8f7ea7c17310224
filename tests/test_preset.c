/* Tests of presets: the built-in presets and the machines of the papers they stand for, `base`
 * inheritance (built-in and by file), and the "file:LINE: message" diagnostics for malformed
 * preset text. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "explorer/catalog.h"
#include "core/config/config.h"
#include "core/config/params.h"
#include "core/config/preset.h"
#include "tests/support/support.h"

static void assert_contains(const char *haystack, const char *needle)
{
    if (!strstr(haystack, needle)) fail_msg("expected \"%s\" in \"%s\"", needle, haystack);
}

static int64_t geti(const param_set *p, const char *name)
{
    return param_get_int(p, name);
}

static param_set *applied(const char *preset)
{
    param_set *p = param_set_new();
    char err[512] = "";
    if (preset_apply(p, preset, err, sizeof err) != 0) fail_msg("preset %s: %s", preset, err);
    return p;
}

/* ---------------------------------------------------------------- built-ins ---- */

static void test_builtins_apply(void **state)
{
    (void)state;
    size_t n = preset_builtin_count();
    assert_int_equal(n, 6);
    static const char *const want[] = {"ccws-micro12", "dacache-ics15",  "dyncta-pact13",
                                       "fermi-gtx480", "qv100-accelsim", "gtx480-cawa"};
    for (size_t k = 0; k < 6; k++) {
        int found = 0;
        for (size_t i = 0; i < n; i++)
            found += strcmp(preset_builtin_name(i), want[k]) == 0;
        if (found != 1) fail_msg("built-in preset %s found %d times", want[k], found);
    }
    for (size_t i = 0; i < n; i++) {
        const char *name = preset_builtin_name(i);
        param_set *p = applied(name);
        gpu_config c;
        char err[512] = "";
        if (gpu_config_from_params(p, &c, err, sizeof err) != 0)
            fail_msg("preset %s is inconsistent: %s", name, err);
        char desc[512];
        preset_builtin_describe(i, desc, sizeof desc);
        if (strlen(desc) < 10) fail_msg("preset %s has no description", name);
        assert_contains(desc, "("); /* the source, in parentheses */
        /* applying it a second time changes nothing */
        uint64_t h = param_set_hash(p);
        assert_int_equal(preset_apply(p, name, err, sizeof err), 0);
        assert_int_equal(param_set_hash(p), h);
        param_set_free(p);
    }
    assert_string_equal(WT_DEFAULT_PRESET, "fermi-gtx480");
}

static void test_fermi_gtx480(void **state)
{
    (void)state;
    param_set *p = applied("fermi-gtx480");
    /* GPGPU-Sim's SM2_GTX480 config (docs/presets.md) */
    assert_int_equal(geti(p, "gpu.sms"), 15);
    assert_int_equal(geti(p, "sm.max_warps"), 48);
    assert_int_equal(geti(p, "sm.max_ctas"), 8);
    assert_int_equal(geti(p, "sm.max_threads"), 1536);
    assert_int_equal(geti(p, "sm.schedulers"), 2);
    assert_int_equal(geti(p, "sm.registers"), 32768);
    assert_int_equal(geti(p, "sm.shared_bytes"), 48 * 1024);
    assert_int_equal(geti(p, "l1d.sets"), 32); /* N:32:128:4 */
    assert_int_equal(geti(p, "l1d.ways"), 4);
    assert_int_equal(geti(p, "l1d.line"), 128);
    assert_string_equal(param_get_choice(p, "l1d.hash"), "fermi");
    assert_int_equal(geti(p, "l2.line"), 128);
    assert_double_near(param_get_real(p, "gpu.clock_mhz"), 700.0,
                       0); /* -gpgpu_clock_domains 700:.. */

    gpu_config c;
    char err[512];
    assert_int_equal(gpu_config_from_params(p, &c, err, sizeof err), 0);
    assert_int_equal(c.l1d_sets * c.l1d_ways * c.l1d_line, 16 * 1024);
    assert_int_equal(c.mem.partitions * c.mem.l2_sets * c.mem.l2_ways * c.mem.l2_line, 768 * 1024);
    /* the registry's defaults are CAWA Table 1's machine, which gtx480-cawa names */
    param_set *d = param_set_new();
    param_set *cawa = applied("gtx480-cawa");
    assert_int_equal(param_set_hash(d), param_set_hash(cawa));
    assert_int_not_equal(param_set_hash(d), param_set_hash(p));
    param_set_free(cawa);
    param_set_free(d);
    param_set_free(p);
}

static int l1_bytes(const param_set *p)
{
    return (int)(geti(p, "l1d.sets") * geti(p, "l1d.ways") * geti(p, "l1d.line"));
}

static void test_paper_presets(void **state)
{
    (void)state;
    param_set *p = applied("ccws-micro12"); /* CCWS, MICRO 2012, Table 1 */
    assert_int_equal(l1_bytes(p), 32 * 1024);
    assert_int_equal(geti(p, "l1d.ways"), 8);
    assert_int_equal(geti(p, "gpu.sms"), 30);
    assert_int_equal(geti(p, "sm.max_warps"), 32);
    assert_int_equal(geti(p, "sm.simd_width"), 8);
    assert_string_equal(param_get_choice(p, "sched.policy"), "gto");
    param_set_free(p);

    p = applied("dacache-ics15"); /* DaCache, ICS 2015, Table 2 */
    assert_int_equal(l1_bytes(p), 32 * 1024);
    assert_int_equal(geti(p, "l1d.ways"), 8);
    assert_string_equal(param_get_choice(p, "l1d.hash"), "xor");
    assert_int_equal(geti(p, "gpu.sms"), 30);
    assert_string_equal(param_get_choice(p, "sched.policy"), "gto");
    param_set_free(p);

    p = applied("dyncta-pact13"); /* DYNCTA, PACT 2013, Table I */
    assert_int_equal(l1_bytes(p), 32 * 1024);
    assert_int_equal(geti(p, "l1d.ways"), 8);
    assert_int_equal(geti(p, "l1d.line"), 64);
    assert_int_equal(geti(p, "gpu.sms"), 30);
    assert_string_equal(param_get_choice(p, "sched.policy"), "lrr");
    param_set_free(p);
}

/* ------------------------------------------------------------- inheritance ---- */

static void test_builtin_base(void **state)
{
    (void)state;
    char err[512] = "";
    /* Start from a set far from Fermi, so that whatever the base does not write shows. */
    param_set *p = param_set_new();
    assert_int_equal(param_set_parse(p, "sm.max_ctas", "3", err, sizeof err), 0);
    assert_int_equal(param_set_parse(p, "l2.hit_latency", "77", err, sizeof err), 0);
    assert_int_equal(param_set_parse(p, "gpu.sms", "2", err, sizeof err), 0);
    assert_int_equal(param_set_parse(p, "sim.watchdog", "9999", err, sizeof err), 0);
    /* ccws-micro12 does not set these: they come from its base, fermi-gtx480 */
    assert_int_equal(preset_apply(p, "ccws-micro12", err, sizeof err), 0);
    assert_int_equal(geti(p, "sm.max_ctas"), 8);
    assert_int_equal(geti(p, "l2.hit_latency"), 2);  /* fermi-gtx480's */
    assert_int_equal(geti(p, "gpu.sms"), 30);        /* its own setting wins over the base's 15 */
    assert_int_equal(geti(p, "sim.watchdog"), 9999); /* in neither: untouched */
    param_set_free(p);

    p = param_set_new();
    assert_int_equal(param_set_parse(p, "l1d.sets", "2", err, sizeof err), 0);
    const char *text = "{\n"
                       "  \"name\": \"mine\",\n"
                       "  \"base\": \"fermi-gtx480\",\n"
                       "  \"settings\": {\"gpu.sms\": 30, \"l1d.hash\": \"xor\"}\n"
                       "}\n";
    assert_int_equal(preset_apply_text(p, text, "mine.json", err, sizeof err), 0);
    assert_int_equal(geti(p, "gpu.sms"), 30);
    assert_int_equal(geti(p, "l1d.sets"), 32);
    assert_string_equal(param_get_choice(p, "l1d.hash"), "xor");
    param_set_free(p);
}

static void test_file_base(void **state)
{
    (void)state;
    char err[512] = "", text[1024];
    const char *a = test_write_temp("base_a.json", "{\"base\": \"dyncta-pact13\",\n"
                                                   " \"settings\": {\"l1d.ways\": 4,\n"
                                                   "              \"sm.max_warps\": 24}}\n");
    assert_non_null(a);
    snprintf(text, sizeof text, "{\"base\": \"%s\", \"settings\": {\"l1d.ways\": 2}}", a);
    const char *b = test_write_temp("base_b.json", text);
    assert_non_null(b);
    param_set *p = param_set_new();
    assert_int_equal(preset_apply(p, b, err, sizeof err), 0);
    assert_int_equal(geti(p, "l1d.ways"), 2);      /* b */
    assert_int_equal(geti(p, "sm.max_warps"), 24); /* a */
    assert_int_equal(geti(p, "l1d.line"), 64);     /* dyncta-pact13 */
    assert_int_equal(geti(p, "sm.max_ctas"), 8);   /* fermi-gtx480 */
    param_set_free(p);
    /* the same file by path given as a base in text */
    p = param_set_new();
    snprintf(text, sizeof text, "{\"base\": \"%s\", \"settings\": {}}", a);
    assert_int_equal(preset_apply_text(p, text, "c.json", err, sizeof err), 0);
    assert_int_equal(geti(p, "l1d.ways"), 4);
    param_set_free(p);
    remove(a);
    remove(b);
}

/* A relative base path is found beside the preset file that names it, wherever the working
 * directory is (the tests run in the build directory, the files are in /tmp). */
static void test_relative_base_beside_the_file(void **state)
{
    (void)state;
    char err[512] = "", text[256], parent_name[128];
    snprintf(parent_name, sizeof parent_name, "wt_test_%ld_rel_parent.json", (long)getpid());
    const char *parent = test_write_temp("rel_parent.json", "{\"base\": \"ccws-micro12\",\n"
                                                            " \"settings\": {\"l1d.ways\": 4}}\n");
    assert_non_null(parent);
    assert_non_null(strstr(parent, parent_name)); /* the base below names it relatively */
    snprintf(text, sizeof text, "{\"base\": \"%s\", \"settings\": {\"sm.max_warps\": 16}}",
             parent_name);
    const char *child = test_write_temp("rel_child.json", text);
    assert_non_null(child);
    param_set *p = param_set_new();
    if (preset_apply(p, child, err, sizeof err) != 0) fail_msg("%s", err);
    assert_int_equal(geti(p, "sm.max_warps"), 16); /* child */
    assert_int_equal(geti(p, "l1d.ways"), 4);      /* parent, found beside child */
    param_set_free(p);
    /* applied as text with no directory, the same base is looked for in the working directory */
    p = param_set_new();
    assert_int_not_equal(preset_apply_text(p, text, "c.json", err, sizeof err), 0);
    assert_contains(err, "c.json:1: base: ");
    assert_contains(err, "cannot open preset file");
    param_set_free(p);
    remove(parent);
    remove(child);
}

/* ------------------------------------------------------------- diagnostics ---- */

/* Applies text as "t.json"; expects failure with a message starting "t.json:LINE: " and
 * containing the fragments. */
static void expect_error(const char *text, int line, const char *frag1, const char *frag2)
{
    param_set *p = param_set_new();
    char err[1024] = "";
    if (preset_apply_text(p, text, "t.json", err, sizeof err) == 0) fail_msg("accepted:\n%s", text);
    char prefix[64];
    snprintf(prefix, sizeof prefix, "t.json:%d: ", line);
    if (strncmp(err, prefix, strlen(prefix)) != 0)
        fail_msg("expected a message starting \"%s\", got \"%s\"", prefix, err);
    if (frag1) assert_contains(err, frag1);
    if (frag2) assert_contains(err, frag2);
    param_set_free(p);
}

static void test_malformed_json(void **state)
{
    (void)state;
    /* a doubled comma on line 3 */
    expect_error("{\n"
                 "  \"settings\": {\n"
                 "    \"gpu.sms\": 30,,\n"
                 "    \"l1d.ways\": 4\n"
                 "  }\n"
                 "}\n",
                 3, "malformed JSON", NULL);
    /* a missing comma: the error is at the key on line 4 */
    expect_error("{\n"
                 "  \"settings\": {\n"
                 "    \"gpu.sms\": 30\n"
                 "    \"l1d.ways\": 4\n"
                 "  }\n"
                 "}\n",
                 4, "malformed JSON", NULL);
    /* a bad literal on line 2 */
    expect_error("{\"settings\": {\n  \"l1d.enabled\": tru\n}}\n", 2, "malformed JSON", NULL);
    /* empty text */
    expect_error("", 1, "malformed JSON", NULL);
    /* trailing text after the object */
    expect_error("{\n  \"settings\": {}\n}\n}\n", 4, "malformed JSON", NULL);
    expect_error("{\"settings\": {}}\n\ngarbage\n", 3, "malformed JSON", NULL);
}

static void test_structure_errors(void **state)
{
    (void)state;
    /* top level not an object */
    expect_error("[1, 2]\n", 1, "object", NULL);
    expect_error("\n\n\"fermi\"\n", 3, "object", NULL);
    expect_error("42", 1, "object", NULL);
    /* unknown top-level key, on line 3 */
    expect_error("{\n"
                 "  \"name\": \"x\",\n"
                 "  \"setings\": {}\n"
                 "}\n",
                 3, "unknown key \"setings\"", "settings");
    /* top-level key of the wrong type */
    expect_error("{\n  \"settings\": {},\n  \"name\": 5\n}\n", 3, "\"name\"", "string");
    expect_error("{\n  \"settings\": {},\n\n  \"base\": [\"fermi-gtx480\"]\n}\n", 4, "\"base\"",
                 "string");
    /* settings missing */
    expect_error("{\"name\": \"x\", \"description\": \"y\"}", 1, "\"settings\"", "object");
    /* settings not an object, on line 4 */
    expect_error("{\n"
                 "  \"name\": \"x\",\n"
                 "  \"source\": \"y\",\n"
                 "  \"settings\": [\"gpu.sms\", 30]\n"
                 "}\n",
                 4, "\"settings\"", "object");
    expect_error("{\n  \"settings\": \"gpu.sms=30\"\n}\n", 2, "\"settings\"", "object");
    /* a key given twice, at the line of its repeat: the last would otherwise win silently */
    expect_error("{\n  \"name\": \"x\",\n  \"settings\": {\n    \"gpu.sms\": 1,\n"
                 "    \"gpu.sms\": 200\n  }\n}\n",
                 5, "settings.\"gpu.sms\": given twice (expected each key once)", NULL);
    expect_error("{\"name\": \"x\",\n \"settings\": {},\n \"name\": \"y\"}\n", 3,
                 "\"name\": given twice (expected each key once)", NULL);
    /* many keys, the repeat of an early one last */
    expect_error("{\"settings\": {\"gpu.sms\": 2, \"l1d.ways\": 4, \"l1d.sets\": 32, "
                 "\"l2.sets\": 64, \"sm.max_ctas\": 4, \"sm.max_warps\": 32, \"l1d.line\": 128,"
                 "\"l2.ways\": 8, \"l2.partitions\": 2, \"sched.policy\": \"gto\", "
                 "\"l1d.enabled\": true, \"gpu.clock_mhz\": 700, \"dram.channels\": 2, "
                 "\"sm.schedulers\": 2, \"sm.max_threads\": 1024, \"l1d.mshrs\": 32, "
                 "\"l1d.hash\": \"xor\",\n\"l1d.ways\": 8}}\n",
                 2, "settings.\"l1d.ways\": given twice", NULL);
}

static void test_setting_errors(void **state)
{
    (void)state;
    /* unknown parameter, with a suggestion */
    expect_error("{\n"
                 "  \"settings\": {\n"
                 "    \"gpu.sms\": 30,\n"
                 "    \"l1d.wayz\": 4\n"
                 "  }\n"
                 "}\n",
                 4, "unknown parameter 'l1d.wayz'", "did you mean: l1d.ways");
    /* out of range */
    expect_error("{\n"
                 "  \"settings\": {\n"
                 "    \"gpu.sms\": 30,\n"
                 "    \"l1d.sets\": 8,\n"
                 "    \"l1d.ways\": 257\n"
                 "  }\n"
                 "}\n",
                 5, "l1d.ways", "[1, 256]");
    expect_error("{\"settings\": {\n\"gpu.clock_mhz\": 99}}", 2, "gpu.clock_mhz", "[100, 5000]");
    /* an integer that is not one */
    expect_error("{\"settings\": {\n\n\"l1d.ways\": 2.5}}", 3, "l1d.ways", "integer");
    /* wrong type: an array, an object, null */
    expect_error("{\n  \"settings\": {\n    \"gpu.sms\": [30]\n  }\n}\n", 3, "gpu.sms",
                 "expected a number, a string or true/false");
    expect_error("{\n  \"settings\": {\n    \"gpu.sms\": {\"v\": 30}\n  }\n}\n", 3, "gpu.sms",
                 "expected a number");
    expect_error("{\n  \"settings\": {\n    \"gpu.sms\": null\n  }\n}\n", 3, "gpu.sms",
                 "expected a number");
    /* a string for an integer that is not a number */
    expect_error("{\n  \"settings\": {\n    \"gpu.sms\": \"thirty\"\n  }\n}\n", 3, "gpu.sms",
                 "integer");
    /* true for an integer */
    expect_error("{\n  \"settings\": {\n    \"gpu.sms\": true\n  }\n}\n", 3, "gpu.sms", "integer");
    /* a number for a choice (in range, and out of range) */
    expect_error("{\n  \"settings\": {\n    \"sched.policy\": 1\n  }\n}\n", 3, "sched.policy",
                 "choice");
    expect_error("{\n  \"settings\": {\n    \"sched.policy\": 7\n  }\n}\n", 3, "sched.policy",
                 NULL);
    /* an unknown choice name: the legal ones are listed */
    expect_error("{\n  \"settings\": {\n    \"sched.policy\": \"fifo\"\n  }\n}\n", 3,
                 "sched.policy", "lrr, gto");
    expect_error("{\n  \"settings\": {\n    \"l1d.hash\": \"XOR\"\n  }\n}\n", 3, "l1d.hash",
                 "linear, xor");
    /* a bool that is not one */
    expect_error("{\n  \"settings\": {\n    \"l1d.enabled\": \"maybe\"\n  }\n}\n", 3, "l1d.enabled",
                 "true or false");
    /* the line of the offending key, not of an earlier mention of the name in a string */
    expect_error("{\n"
                 "  \"description\": \"sets l1d.ways and gpu.sms\",\n"
                 "  \"settings\": {\n"
                 "    \"gpu.sms\": 0\n"
                 "  }\n"
                 "}\n",
                 4, "gpu.sms", NULL);
}

static void test_base_errors(void **state)
{
    (void)state;
    /* unknown built-in base: the line of "base"; the built-ins are listed */
    expect_error("{\n"
                 "  \"name\": \"x\",\n"
                 "  \"base\": \"fermi-gtx490\",\n"
                 "  \"settings\": {}\n"
                 "}\n",
                 3, "unknown preset 'fermi-gtx490'", "fermi-gtx480");
    /* a base file that does not exist */
    expect_error("{\n"
                 "  \"base\": \"/nonexistent/dir/base.json\",\n"
                 "  \"settings\": {}\n"
                 "}\n",
                 2, "/nonexistent/dir/base.json", "cannot open");
    /* a base file with an error of its own: reported at its own file and line */
    const char *bad =
        test_write_temp("bad_base.json", "{\n  \"settings\": {\n    \"l1d.ways\": 0\n  }\n}\n");
    assert_non_null(bad);
    char text[1024], err[1024] = "", want[512];
    snprintf(text, sizeof text, "{\n  \"base\": \"%s\",\n  \"settings\": {}\n}\n", bad);
    param_set *p = param_set_new();
    assert_int_equal(preset_apply_text(p, text, "t.json", err, sizeof err), -1);
    snprintf(want, sizeof want, "%s:3: ", bad);
    assert_contains(err, want);
    assert_contains(err, "l1d.ways");
    param_set_free(p);
    remove(bad);
}

static void test_base_cycle(void **state)
{
    (void)state;
    /* Two files that name each other as base. The paths are known before writing: write
     * placeholders first, then the real contents. */
    char pa[256], pb[256], text[1024], err[1024] = "";
    snprintf(pa, sizeof pa, "%s", test_write_temp("cycle_a.json", "{}"));
    snprintf(pb, sizeof pb, "%s", test_write_temp("cycle_b.json", "{}"));
    snprintf(text, sizeof text,
             "{\n  \"name\": \"a\",\n  \"base\": \"%s\",\n  \"settings\": {}\n}\n", pb);
    assert_string_equal(test_write_temp("cycle_a.json", text), pa);
    snprintf(text, sizeof text, "{\n  \"base\": \"%s\",\n  \"settings\": {}\n}\n", pa);
    assert_string_equal(test_write_temp("cycle_b.json", text), pb);

    param_set *p = param_set_new();
    assert_int_equal(preset_apply(p, pa, err, sizeof err), -1);
    assert_contains(err, "cycle");
    /* "FILE:LINE: " of one of the two files, at its "base" line */
    char wa[300], wb[300];
    snprintf(wa, sizeof wa, "%s:3: ", pa);
    snprintf(wb, sizeof wb, "%s:2: ", pb);
    if (strncmp(err, wa, strlen(wa)) != 0 && strncmp(err, wb, strlen(wb)) != 0)
        fail_msg("expected a message starting \"%s\" or \"%s\", got \"%s\"", wa, wb, err);
    /* a preset file that is its own base */
    char pc[256];
    snprintf(pc, sizeof pc, "%s", test_write_temp("cycle_c.json", "{}"));
    snprintf(text, sizeof text, "{\"settings\": {},\n\n \"base\": \"%s\"}\n", pc);
    assert_string_equal(test_write_temp("cycle_c.json", text), pc);
    assert_int_equal(preset_apply(p, pc, err, sizeof err), -1);
    char wc[300];
    snprintf(wc, sizeof wc, "%s:3: ", pc);
    if (strncmp(err, wc, strlen(wc)) != 0) fail_msg("expected \"%s...\", got \"%s\"", wc, err);
    assert_contains(err, "cycle");
    param_set_free(p);
    remove(pa);
    remove(pb);
    remove(pc);
}

static void test_preset_apply_names(void **state)
{
    (void)state;
    param_set *p = param_set_new();
    char err[1024] = "";
    assert_int_equal(preset_apply(p, "no-such-preset", err, sizeof err), -1);
    assert_contains(err, "unknown preset 'no-such-preset'");
    assert_contains(err, "dyncta-pact13");
    assert_int_equal(preset_apply(p, "/nonexistent/x.json", err, sizeof err), -1);
    assert_contains(err, "/nonexistent/x.json");
    assert_contains(err, "cannot open");
    assert_int_equal(preset_apply(p, "missing.json", err, sizeof err), -1);
    assert_contains(err, "cannot open");
    param_set_free(p);
}

/* A device or a FIFO is refused before it is read: /dev/zero never ends (it used to be read
 * until memory ran out), and opening a FIFO waits for a writer. */
static void test_endless_file(void **state)
{
    (void)state;
    char err[512] = "";
    param_set *p = param_set_new();
    assert_int_equal(preset_apply(p, "/dev/zero", err, sizeof err), -1);
    assert_string_equal(err, "/dev/zero: cannot read: not a regular file");
    param_set_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_builtins_apply), cmocka_unit_test(test_fermi_gtx480),
        cmocka_unit_test(test_paper_presets),  cmocka_unit_test(test_builtin_base),
        cmocka_unit_test(test_file_base),      cmocka_unit_test(test_relative_base_beside_the_file),
        cmocka_unit_test(test_malformed_json), cmocka_unit_test(test_structure_errors),
        cmocka_unit_test(test_setting_errors), cmocka_unit_test(test_base_errors),
        cmocka_unit_test(test_base_cycle),     cmocka_unit_test(test_preset_apply_names),
        cmocka_unit_test(test_endless_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
