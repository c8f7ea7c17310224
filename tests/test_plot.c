/* Tests of what a run shows: the SVG plot of the front (well-formed, one circle per finite
 * point and panel, deterministic, robust to single points, equal values and NaNs) and the
 * progress reporter off a terminal (quiet means silent; plain lines; a final line). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/util/rng.h"
#include "explorer/front.h"
#include "explorer/plot.h"
#include "explorer/progress.h"
#include "tests/support/support.h"

static void temp_path(char *buf, size_t len, const char *name)
{
    snprintf(buf, len, "/tmp/wt_test_plot_%ld_%s", (long)getpid(), name);
}

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

/* Writes the plot and returns the file's text; checks the SVG envelope. */
static char *plot(const char *name, const char *title, const double *obj, size_t n, size_t m,
                  const unsigned char *on)
{
    char path[256], err[256];
    temp_path(path, sizeof path, name);
    const char *names[] = {"ipc (max)", "mpki (min)", "energy_j <min> & co"};
    if (plot_front_svg(path, title, obj, n, m, names, on, err, sizeof err) != 0)
        fail_msg("plot_front_svg: %s", err);
    size_t len;
    char *text = test_read_file(path, &len);
    assert_non_null(text);
    remove(path);
    assert_string_prefix(text, "<svg");
    while (len && (text[len - 1] == '\n' || text[len - 1] == ' '))
        len--;
    assert_in_range(len, 6, SIZE_MAX);
    assert_memory_equal(text + len - 6, "</svg>", 6);
    assert_null(strstr(text, "<script"));
    assert_null(strstr(text, "@font-face"));
    assert_null(strstr(text, "href"));
    assert_int_equal(count(text, "<svg"), 1);
    assert_int_equal(count(text, "<g"), count(text, "</g>"));
    assert_int_equal(count(text, "<text"), count(text, "</text>"));
    assert_null(strstr(text, "nan"));
    assert_null(strstr(text, "inf"));
    return text;
}

static void test_plot_2d(void **state)
{
    (void)state;
    wt_rng r;
    wt_rng_seed(&r, 5);
    size_t n = 200;
    double *obj = malloc(n * 2 * sizeof *obj);
    double *neg = malloc(n * 2 * sizeof *neg);
    unsigned char *on = malloc(n);
    size_t finite = 0;
    for (size_t i = 0; i < n; i++) {
        obj[2 * i] = 0.2 + 1.5 * wt_rng_unit(&r);
        obj[2 * i + 1] = 3 + 20 * wt_rng_unit(&r);
        if (i % 17 == 3) obj[2 * i + wt_rng_below(&r, 2)] = NAN;
        if (i == 100) obj[2 * i] = INFINITY;
        finite += isfinite(obj[2 * i]) && isfinite(obj[2 * i + 1]);
        neg[2 * i] = -obj[2 * i];
        neg[2 * i + 1] = obj[2 * i + 1];
    }
    front_mark(neg, n, 2, on);
    size_t nf = 0; /* front rows the plot can show: the infinite one is on the front, unplotted */
    for (size_t i = 0; i < n; i++)
        nf += on[i] && isfinite(obj[2 * i]) && isfinite(obj[2 * i + 1]);
    assert_true(on[100]);
    assert_true(nf >= 1);
    char *a = plot("a.svg", "kmeans <ipc vs mpki> & more", obj, n, 2, on);
    char *b = plot("b.svg", "kmeans <ipc vs mpki> & more", obj, n, 2, on);
    assert_string_equal(a, b); /* deterministic */
    assert_int_equal(count(a, "<circle"), finite);
    assert_int_equal(count(a, "class=\"fp\""), nf);
    assert_int_equal(count(a, "<polyline"), nf > 1 ? 1 : 0);
    assert_non_null(strstr(a, "kmeans &lt;ipc vs mpki&gt; &amp; more"));
    assert_non_null(strstr(a, "ipc (max)"));
    assert_non_null(strstr(a, "mpki (min)"));
    free(a);
    free(b);
    /* without front flags: grey points only */
    a = plot("c.svg", "t", obj, n, 2, NULL);
    assert_int_equal(count(a, "<circle"), finite);
    assert_int_equal(count(a, "class=\"fp\""), 0);
    free(a);
    free(obj);
    free(neg);
    free(on);
}

static void test_plot_degenerate(void **state)
{
    (void)state;
    const double one[] = {1.5, 7};
    const unsigned char on1[] = {1};
    char *s = plot("one.svg", "single", one, 1, 2, on1);
    assert_int_equal(count(s, "<circle"), 1);
    assert_int_equal(count(s, "<polyline"), 0);
    free(s);
    /* all values equal, including zero */
    const double same[] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
    const unsigned char on3[] = {1, 1, 1};
    s = plot("same.svg", "same", same, 3, 3, on3);
    assert_int_equal(count(s, "<circle"), 9); /* three panels */
    free(s);
    /* nothing finite at all */
    const double nan2[] = {NAN, 1, 2, NAN};
    const unsigned char off[] = {0, 0};
    s = plot("nan.svg", "none finite", nan2, 2, 2, off);
    assert_int_equal(count(s, "<circle"), 0);
    free(s);
    s = plot("empty.svg", "empty", nan2, 0, 2, off);
    assert_int_equal(count(s, "<circle"), 0);
    free(s);
    /* tiny and huge magnitudes still give finite coordinates */
    const double tiny[] = {1e-9, 3e-9, 2e-9, 1e-9, 1e300, 1e-300, -1e300, 0};
    const unsigned char on4[] = {1, 1, 0, 0};
    s = plot("tiny.svg", "tiny", tiny, 2, 2, on4);
    assert_int_equal(count(s, "<circle"), 2);
    free(s);
    s = plot("huge.svg", "huge", tiny + 4, 2, 2, on4);
    assert_int_equal(count(s, "<circle"), 2);
    free(s);
}

static void test_plot_3d(void **state)
{
    (void)state;
    wt_rng r;
    wt_rng_seed(&r, 6);
    size_t n = 60;
    double obj[60 * 3];
    unsigned char on[60];
    for (size_t i = 0; i < n * 3; i++)
        obj[i] = wt_rng_unit(&r);
    obj[7] = NAN;
    size_t nf = front_mark(obj, n, 3, on);
    char *a = plot("p3a.svg", "three", obj, n, 3, on);
    char *b = plot("p3b.svg", "three", obj, n, 3, on);
    assert_string_equal(a, b);
    assert_int_equal(count(a, "<circle"), 3 * (n - 1));
    assert_int_equal(count(a, "class=\"fp\""), 3 * nf);
    assert_int_equal(count(a, "class=\"panel\""), 3);
    assert_non_null(strstr(a, "energy_j &lt;min&gt; &amp; co"));
    free(a);
    free(b);

    char path[256], err[256] = "";
    temp_path(path, sizeof path, "bad.svg");
    const char *names[] = {"a", "b", "c", "d"};
    assert_int_equal(plot_front_svg(path, "t", obj, 2, 4, names, on, err, sizeof err), -1);
    if (!err[0]) fail_msg("plot_front_svg failed without a message");
    assert_int_equal(access(path, F_OK), -1);
}

/* ------------------------------------------------------------------ progress ---- */

/* Runs fn with stderr redirected to a file and returns what it wrote. */
static char *capture_stderr(void (*fn)(void *), void *arg)
{
    char path[256];
    temp_path(path, sizeof path, "stderr.txt");
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    assert_true(saved >= 0 && fd >= 0);
    dup2(fd, STDERR_FILENO);
    close(fd);
    fn(arg);
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    char *text = test_read_file(path, NULL);
    remove(path);
    assert_non_null(text);
    return text;
}

typedef struct prog_case {
    size_t total;
    int quiet;
} prog_case;

static void run_progress(void *arg)
{
    const prog_case *c = arg;
    progress *p = progress_new("explore", c->total, c->quiet);
    assert_non_null(p);
    for (size_t i = 0; i <= 1000; i++)
        progress_update(p, i, i / 100);
    progress_finish(p, 1000, 10);
    progress_finish(p, 1000, 10); /* a second finish is ignored */
    progress_update(p, 1000, 10);
    progress_free(p);
}

static void test_progress_plain(void **state)
{
    (void)state;
    prog_case c = {1000, 0};
    char *out = capture_stderr(run_progress, &c);
    /* a fast run: no periodic line, exactly one final line */
    assert_int_equal(count(out, "\n"), 1);
    assert_non_null(strstr(out, "explore: finished 1000/1000 (100%)"));
    assert_non_null(strstr(out, "10 failed"));
    assert_null(strstr(out, "\r"));
    free(out);

    c = (prog_case){0, 0};
    out = capture_stderr(run_progress, &c);
    assert_int_equal(count(out, "\n"), 1);
    assert_non_null(strstr(out, "explore: finished 1000 done"));
    free(out);

    c = (prog_case){1000, 1};
    out = capture_stderr(run_progress, &c);
    assert_string_equal(out, "");
    free(out);

    /* NULL is harmless */
    progress_update(NULL, 1, 0);
    progress_finish(NULL, 1, 0);
    progress_free(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plot_2d),
        cmocka_unit_test(test_plot_degenerate),
        cmocka_unit_test(test_plot_3d),
        cmocka_unit_test(test_progress_plain),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
