/* Tests of result tables: CSV quoting that round-trips through libcsv's own parser, atomic
 * replacement (no temporary left behind, an existing file replaced, errors named), and number
 * formatting that reads back exactly. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <csv.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/util/rng.h"
#include "explorer/table.h"
#include "tests/support/support.h"

typedef struct tmpdir {
    char path[256];
} tmpdir;

static void make_dir(tmpdir *d)
{
    snprintf(d->path, sizeof d->path, "/tmp/wt_test_table_XXXXXX");
    assert_non_null(mkdtemp(d->path));
}

static void remove_dir(tmpdir *d)
{
    DIR *dir = opendir(d->path);
    if (dir) {
        struct dirent *e;
        while ((e = readdir(dir))) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
            char p[512];
            snprintf(p, sizeof p, "%s/%s", d->path, e->d_name);
            remove(p);
        }
        closedir(dir);
    }
    rmdir(d->path);
}

/* Number of entries in the folder other than . and .., and whether any is a temporary. */
static size_t count_entries(const char *path, int *has_tmp)
{
    DIR *dir = opendir(path);
    assert_non_null(dir);
    size_t n = 0;
    *has_tmp = 0;
    struct dirent *e;
    while ((e = readdir(dir))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        n++;
        if (strstr(e->d_name, ".tmp")) *has_tmp = 1;
    }
    closedir(dir);
    return n;
}

/* ------------------------------------------------------------------ parsing back ---- */

typedef struct parsed {
    char *cells[64];
    size_t ncells;
    size_t row_ends[16];
    size_t nrows;
} parsed;

static void on_field(void *s, size_t len, void *data)
{
    parsed *p = data;
    assert_true(p->ncells < 64);
    char *c = malloc(len + 1);
    if (len) memcpy(c, s, len);
    c[len] = '\0';
    p->cells[p->ncells++] = c;
}

static void on_row(int c, void *data)
{
    (void)c;
    parsed *p = data;
    assert_true(p->nrows < 16);
    p->row_ends[p->nrows++] = p->ncells;
}

static void parse_csv(const char *text, size_t len, parsed *out)
{
    memset(out, 0, sizeof *out);
    struct csv_parser p;
    assert_int_equal(csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL), 0);
    assert_int_equal(csv_parse(&p, text, len, on_field, on_row, out), len);
    assert_int_equal(csv_fini(&p, on_field, on_row, out), 0);
    csv_free(&p);
}

static void free_parsed(parsed *p)
{
    for (size_t i = 0; i < p->ncells; i++)
        free(p->cells[i]);
}

static void test_quoting_round_trip(void **state)
{
    (void)state;
    tmpdir d;
    make_dir(&d);
    const char *cols[] = {"name", "value, with comma", "say \"hi\""};
    table *t = table_new(cols, 3);
    assert_non_null(t);
    const char *rows[][3] = {
        {"plain", "1.5", "x"},           {"a,b", "he said \"no\"", "two\nlines"},
        {" padded ", "", "crlf\r\nend"}, {"\"", ",", "\n"},
        {NULL, "null first", NULL},
    };
    for (size_t r = 0; r < 5; r++)
        assert_int_equal(table_add_row(t, rows[r]), 0);
    assert_int_equal(table_rows(t), 5);
    char path[512], err[256];
    snprintf(path, sizeof path, "%s/out.csv", d.path);
    assert_int_equal(table_write_csv(t, path, err, sizeof err), 0);

    size_t len;
    char *text = test_read_file(path, &len);
    assert_non_null(text);
    /* plain cells stay unquoted, so the header and first row read naturally */
    assert_string_prefix(text, "name,\"value, with comma\",\"say \"\"hi\"\"\"\nplain,1.5,x\n");
    parsed p;
    parse_csv(text, len, &p);
    assert_int_equal(p.nrows, 6);
    for (size_t r = 0; r < 6; r++)
        assert_int_equal(p.row_ends[r], 3 * (r + 1));
    for (size_t c = 0; c < 3; c++)
        assert_string_equal(p.cells[c], cols[c]);
    for (size_t r = 0; r < 5; r++)
        for (size_t c = 0; c < 3; c++)
            assert_string_equal(p.cells[3 * (r + 1) + c], rows[r][c] ? rows[r][c] : "");
    free_parsed(&p);
    free(text);

    /* the same table through a stream gives the same bytes */
    char *mem = NULL;
    size_t memlen = 0;
    FILE *f = open_memstream(&mem, &memlen);
    assert_non_null(f);
    assert_int_equal(table_write_csv_stream(t, f), 0);
    fclose(f);
    text = test_read_file(path, &len);
    assert_int_equal(memlen, len);
    assert_memory_equal(mem, text, len);
    free(mem);
    free(text);

    int has_tmp;
    assert_int_equal(count_entries(d.path, &has_tmp), 1);
    assert_false(has_tmp);
    table_free(t);
    remove_dir(&d);
}

static void test_empty_table(void **state)
{
    (void)state;
    tmpdir d;
    make_dir(&d);
    const char *cols[] = {"a", "b"};
    table *t = table_new(cols, 2);
    char path[512], err[256];
    snprintf(path, sizeof path, "%s/empty.csv", d.path);
    assert_int_equal(table_write_csv(t, path, err, sizeof err), 0);
    char *text = test_read_file(path, NULL);
    assert_string_equal(text, "a,b\n");
    free(text);
    table_free(t);
    table_free(NULL);
    remove_dir(&d);
}

/* ------------------------------------------------------------------ atomicity ---- */

static void test_atomic_replace(void **state)
{
    (void)state;
    tmpdir d;
    make_dir(&d);
    char path[512], err[256];
    snprintf(path, sizeof path, "%s/summary.json", d.path);
    const char *old = "old content that is longer than the new one\n";
    FILE *f = fopen(path, "w");
    fputs(old, f);
    fclose(f);

    assert_int_equal(write_file_atomic(path, "{}\n", 3, err, sizeof err), 0);
    char *text = test_read_file(path, NULL);
    assert_string_equal(text, "{}\n");
    free(text);
    int has_tmp;
    assert_int_equal(count_entries(d.path, &has_tmp), 1);
    assert_false(has_tmp);

    /* embedded NULs and an empty file */
    assert_int_equal(write_file_atomic(path, "a\0b", 3, err, sizeof err), 0);
    size_t len;
    text = test_read_file(path, &len);
    assert_int_equal(len, 3);
    assert_memory_equal(text, "a\0b", 3);
    free(text);
    assert_int_equal(write_file_atomic(path, "", 0, err, sizeof err), 0);
    text = test_read_file(path, &len);
    assert_int_equal(len, 0);
    free(text);

    /* a folder that does not exist: an error naming the path, nothing created */
    char bad[600];
    snprintf(bad, sizeof bad, "%s/no/such/dir/x.csv", d.path);
    err[0] = '\0';
    assert_int_equal(write_file_atomic(bad, "x", 1, err, sizeof err), -1);
    assert_non_null(strstr(err, "no/such/dir/x.csv"));
    const char *cols[] = {"a"};
    table *t = table_new(cols, 1);
    assert_int_equal(table_write_csv(t, bad, err, sizeof err), -1);
    assert_non_null(strstr(err, "no/such/dir/x.csv"));
    table_free(t);
    assert_int_equal(count_entries(d.path, &has_tmp), 1);
    remove_dir(&d);
}

/* ------------------------------------------------------------------ numbers ---- */

static void test_format_double(void **state)
{
    (void)state;
    char buf[64];
    table_format_double(NAN, buf, sizeof buf);
    assert_string_equal(buf, "nan");
    table_format_double(INFINITY, buf, sizeof buf);
    assert_string_equal(buf, "inf");
    table_format_double(-INFINITY, buf, sizeof buf);
    assert_string_equal(buf, "-inf");
    table_format_double(0.1, buf, sizeof buf);
    assert_string_equal(buf, "0.1");
    table_format_double(2, buf, sizeof buf);
    assert_string_equal(buf, "2");
    table_format_double(1.0 / 3, buf, sizeof buf);
    assert_double_near(strtod(buf, NULL), 1.0 / 3, 0);
    table_format_double(-0.0, buf, sizeof buf);
    assert_double_near(strtod(buf, NULL), 0, 0);
    assert_true(signbit(strtod(buf, NULL)));

    wt_rng r;
    wt_rng_seed(&r, 7);
    for (int i = 0; i < 20000; i++) {
        uint64_t bits = wt_rng_next(&r);
        double v;
        memcpy(&v, &bits, sizeof v);
        if (isnan(v) || isinf(v)) continue;
        table_format_double(v, buf, sizeof buf);
        if (strtod(buf, NULL) != v) fail_msg("%a formatted as %s", v, buf);
        double u = wt_rng_unit(&r) * 1000;
        table_format_double(u, buf, sizeof buf);
        if (strtod(buf, NULL) != u) fail_msg("%a formatted as %s", u, buf);
    }
    /* too small a buffer still terminates */
    char tiny[4];
    table_format_double(123456.5, tiny, sizeof tiny);
    assert_int_equal(strlen(tiny), 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quoting_round_trip),
        cmocka_unit_test(test_empty_table),
        cmocka_unit_test(test_atomic_replace),
        cmocka_unit_test(test_format_double),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
