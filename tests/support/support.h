/* Shared helpers for the cmocka tests. The policy harness (policies built by name outside any
 * SM) is in tests/support/policy_harness.h. */
#ifndef WT_TEST_SUPPORT_H
#define WT_TEST_SUPPORT_H

#include <stddef.h>

#include "core/config/params.h"
#include "explorer/simulate.h"
#include "core/workload/workload.h"

/* Comparisons cmocka 1.1.5 lacks, that print both sides when they fail (its assert_float_equal
 * rounds to float): |a - b| <= eps (0: exactly equal; NaN never is), lo <= v <= hi, a < b, and
 * that s starts with prefix. */
#define assert_double_near(a, b, eps)                                                              \
    test_assert_double_near((a), (b), (eps), #a, #b, __FILE__, __LINE__)
#define assert_double_in_range(v, lo, hi)                                                          \
    test_assert_double_in_range((v), (lo), (hi), #v, __FILE__, __LINE__)
#define assert_double_less(a, b) test_assert_double_less((a), (b), #a, #b, __FILE__, __LINE__)
#define assert_string_prefix(s, prefix)                                                            \
    test_assert_string_prefix((s), (prefix), #s, __FILE__, __LINE__)
void test_assert_double_near(double a, double b, double eps, const char *a_text, const char *b_text,
                             const char *file, int line);
void test_assert_double_in_range(double v, double lo, double hi, const char *v_text,
                                 const char *file, int line);
void test_assert_double_less(double a, double b, const char *a_text, const char *b_text,
                             const char *file, int line);
void test_assert_string_prefix(const char *s, const char *prefix, const char *s_text,
                               const char *file, int line);

/* Reads a whole file into a NUL-terminated heap buffer, or returns NULL. */
char *test_read_file(const char *path, size_t *len);
/* Writes text to a fresh temporary file and returns its path (static buffer per call slot). */
const char *test_write_temp(const char *name, const char *text);

/* Applies the preset (NULL: none, the registry's defaults stay) to p, then each "name=value" of
 * sets (NULL-terminated, may be NULL) in order. Returns 0, or -1 with the message in err
 * ("X: expected name=value", or what param_set_parse says). */
int test_apply_sets(param_set *p, const char *preset, const char *const *sets, char *err,
                    size_t errlen);

/* Workload overrides split from "name=value" strings; the names live in the struct. */
#define TEST_MAX_WPARAMS 32

/* The machine the hand-computed timelines and the behaviour tests were worked out on: CAWA
 * Table 1's GTX480 with every pipeline model off (the registered defaults). The default preset
 * follows GPGPU-Sim's SM2_GTX480 since the calibration; tests that name no preset keep this one
 * so that their expectations stay the ones computed by hand. */
#define TEST_PRESET "gtx480-cawa"

/* One warp loads 32 consecutive words (one 128-byte line) into r2, adds 1, loads the same words
 * again into r4 and adds 1: a miss then a hit, the timelines several tests work out by hand. */
#define TEST_WL_LOAD_TWICE                                                                         \
    ".array a i32 [64] iota(0, 1)\n"                                                               \
    ".kernel k block=32\n"                                                                         \
    "    mov r0, %laneid\n"                                                                        \
    "    shl r1, r0, 2\n"                                                                          \
    "    ld.i32 r2, [a + r1]\n"                                                                    \
    "    add r3, r2, 1\n"                                                                          \
    "    ld.i32 r4, [a + r1]\n"                                                                    \
    "    add r5, r4, 1\n"                                                                          \
    "    exit\n"                                                                                   \
    ".host\n"                                                                                      \
    "    launch k grid=1\n"
typedef struct test_wparams {
    wl_override ov[TEST_MAX_WPARAMS];
    char names[TEST_MAX_WPARAMS][128];
    size_t n;
} test_wparams;
/* Fills w from wparams (NULL-terminated, may be NULL). Returns 0, or -1 with a message in err
 * when one is not "name=value" or there are more than TEST_MAX_WPARAMS. */
int test_split_wparams(test_wparams *w, const char *const *wparams, char *err, size_t errlen);

/* The loads of a run's L1D stream, in simulation order: test_log_loads is the observer
 * (sim_options.l1_observer, the log its arg; allocate the log, it is large), keeping each
 * load's cycle, line and SM, up to 65,536 of them. */
typedef struct test_load_log {
    int n;
    struct {
        uint64_t cycle, line;
        int sm;
    } a[65536];
} test_load_log;
void test_log_loads(void *arg, const l1_access_record *r);

/* test_sim that must succeed: a failure fails the running cmocka test with the message. */
void test_sim_ok(const char *workload_text, const char *const *sets, const char *const *wparams,
                 sim_metrics *m);

/* test_sim with sim_options too. */
sim_status test_sim_opt(const char *workload_text, const char *const *sets,
                        const char *const *wparams, const sim_options *opt, sim_metrics *m,
                        char *err, size_t errlen);
/* test_sim_ok with sim_options (observers, trace files) and no workload overrides. */
void test_sim_opt_ok(const char *workload_text, const char *const *sets, const sim_options *opt,
                     sim_metrics *m);

/* Simulates workload text (or a built-in name when text has no newline) under the default
 * preset plus `sets` ("name=value" strings, NULL-terminated, may be NULL) and `wparams`
 * (workload overrides, same form). Returns the sim_status; on SIM_BAD_CONFIG or a parse
 * error the message is in err. Parse errors return SIM_BAD_CONFIG too. */
sim_status test_sim(const char *workload_text, const char *const *sets, const char *const *wparams,
                    sim_metrics *m, char *err, size_t errlen);
#endif
