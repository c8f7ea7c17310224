#include "tests/support/support.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "explorer/catalog.h"
#include "explorer/simulate.h"
#include "core/config/preset.h"
#include "core/util/kv.h"
#include "core/util/textfile.h"

void test_assert_double_near(double a, double b, double eps, const char *a_text, const char *b_text,
                             const char *file, int line)
{
    if (a == b || fabs(a - b) <= eps) return;
    print_error("%s = %.17g, %s = %.17g: they differ by %g, more than %g\n", a_text, a, b_text, b,
                fabs(a - b), eps);
    _fail(file, line);
}

void test_assert_double_in_range(double v, double lo, double hi, const char *v_text,
                                 const char *file, int line)
{
    if (v >= lo && v <= hi) return;
    print_error("%s = %.17g is not in [%.17g, %.17g]\n", v_text, v, lo, hi);
    _fail(file, line);
}

void test_assert_double_less(double a, double b, const char *a_text, const char *b_text,
                             const char *file, int line)
{
    if (a < b) return;
    print_error("%s = %.17g is not below %s = %.17g\n", a_text, a, b_text, b);
    _fail(file, line);
}

void test_assert_string_prefix(const char *s, const char *prefix, const char *s_text,
                               const char *file, int line)
{
    if (s && strncmp(s, prefix, strlen(prefix)) == 0) return;
    print_error("%s = \"%s\" does not start with \"%s\"\n", s_text, s ? s : "(null)", prefix);
    _fail(file, line);
}

char *test_read_file(const char *path, size_t *len)
{
    return wt_read_file(path, len);
}

const char *test_write_temp(const char *name, const char *text)
{
    static char paths[8][256];
    static int next;
    char *path = paths[next++ % 8];
    snprintf(path, sizeof paths[0], "/tmp/wt_test_%ld_%s", (long)getpid(), name);
    FILE *f = fopen(path, "wb");
    if (!f) return NULL;
    fputs(text, f);
    fclose(f);
    return path;
}

int test_apply_sets(param_set *p, const char *preset, const char *const *sets, char *err,
                    size_t errlen)
{
    if (preset && preset_apply(p, preset, err, errlen) != 0) return -1;
    for (size_t i = 0; sets && sets[i]; i++) {
        char name[128];
        const char *value;
        if (wt_split_kv(sets[i], name, sizeof name, &value) != 0) {
            snprintf(err, errlen, "%s: expected name=value", sets[i]);
            return -1;
        }
        if (param_set_parse(p, name, value, err, errlen) != 0) return -1;
    }
    return 0;
}

int test_split_wparams(test_wparams *w, const char *const *wparams, char *err, size_t errlen)
{
    w->n = 0;
    for (size_t i = 0; wparams && wparams[i]; i++) {
        const char *value;
        if (w->n == TEST_MAX_WPARAMS) {
            snprintf(err, errlen, "more than %d workload overrides", TEST_MAX_WPARAMS);
            return -1;
        }
        if (wt_split_kv(wparams[i], w->names[w->n], sizeof w->names[0], &value) != 0) {
            snprintf(err, errlen, "%s: expected name=value", wparams[i]);
            return -1;
        }
        w->ov[w->n] = (wl_override){w->names[w->n], value};
        w->n++;
    }
    return 0;
}

/* test_sim with sim_options (NULL: none). */
static sim_status run(const char *workload_text, const char *const *sets,
                      const char *const *wparams, const sim_options *opt, sim_metrics *m, char *err,
                      size_t errlen)
{
    param_set *p = param_set_new();
    workload *w = NULL;
    sim_status st = SIM_BAD_CONFIG;
    test_wparams wp;
    if (test_apply_sets(p, TEST_PRESET, sets, err, errlen) != 0) goto out;
    if (test_split_wparams(&wp, wparams, err, errlen) != 0) goto out;
    int rc = strchr(workload_text, '\n')
                 ? workload_parse(workload_text, "test.wl", NULL, wp.ov, wp.n, &w, err, errlen)
                 : workload_load(workload_text, wp.ov, wp.n, &w, err, errlen);
    if (rc != 0) goto out;
    st = sim_run(p, w, opt, m, err, errlen);
out:
    workload_free(w);
    param_set_free(p);
    return st;
}

sim_status test_sim(const char *workload_text, const char *const *sets, const char *const *wparams,
                    sim_metrics *m, char *err, size_t errlen)
{
    return run(workload_text, sets, wparams, NULL, m, err, errlen);
}

sim_status test_sim_opt(const char *workload_text, const char *const *sets,
                        const char *const *wparams, const sim_options *opt, sim_metrics *m,
                        char *err, size_t errlen)
{
    return run(workload_text, sets, wparams, opt, m, err, errlen);
}

void test_sim_opt_ok(const char *workload_text, const char *const *sets, const sim_options *opt,
                     sim_metrics *m)
{
    char err[1024] = "";
    if (run(workload_text, sets, NULL, opt, m, err, sizeof err) != SIM_OK)
        fail_msg("simulation failed: %s", err);
}

void test_sim_ok(const char *workload_text, const char *const *sets, const char *const *wparams,
                 sim_metrics *m)
{
    char err[1024] = "";
    if (test_sim(workload_text, sets, wparams, m, err, sizeof err) != SIM_OK)
        fail_msg("simulation failed: %s", err);
}

void test_log_loads(void *arg, const l1_access_record *r)
{
    test_load_log *l = arg;
    if (strcmp(r->kind, "load") == 0 && l->n < (int)(sizeof l->a / sizeof l->a[0]))
        l->a[l->n].cycle = r->cycle, l->a[l->n].line = r->line, l->a[l->n].sm = r->sm, l->n++;
}
