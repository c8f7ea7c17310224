/* Sparse matrices and real input files: the Matrix Market reader and the banded and random
 * generators of `.matrix`, and the shipped inputs in workloads/data/ (written by
 * bench/gen_inputs from the generators, so reading them back must give the generators' CSR
 * bit for bit). Malformed files are rejected with `file:line: message`. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <sys/stat.h>

#include "core/workload/wl_inspect.h"
#include "core/workload/workload.h"
#include "tests/support/support.h"

#define TAIL ".kernel k block=32\n exit\n.host\n launch k grid=1\n"

static workload *parse_ok(const char *data)
{
    char text[1024], err[1024];
    snprintf(text, sizeof text, "%s" TAIL, data);
    workload *w = NULL;
    if (workload_parse(text, "t.wl", "workloads", NULL, 0, &w, err, sizeof err) != 0)
        fail_msg("%s", err);
    return w;
}

static void same_array(const workload *w, const char *a, const char *b)
{
    uint32_t na = 0, nb = 0;
    const uint32_t *x = wl_workload_array(w, a, &na), *y = wl_workload_array(w, b, &nb);
    assert_non_null(x);
    assert_non_null(y);
    assert_int_equal(na, nb);
    assert_memory_equal(x, y, (size_t)na * 4);
}

static void same_csr(const char *data, const char *p, const char *q, int with_values)
{
    workload *w = parse_ok(data);
    char a[64], b[64];
    const char *parts[] = {"rowptr", "col", "val"};
    for (int i = 0; i < 2 + with_values; i++) {
        snprintf(a, sizeof a, "%s_%s", p, parts[i]);
        snprintf(b, sizeof b, "%s_%s", q, parts[i]);
        same_array(w, a, b);
    }
    workload_free(w);
}

static void test_banded_file_matches_generator(void **state)
{
    (void)state;
    same_csr(".matrix a mtx(\"data/banded-1k.mtx\")\n"
             ".matrix b banded(rows=1024, band=4, seed=5)\n"
             ".array chk i32 [a_nnz - b_nnz + a_rows - b_rows + a_cols - b_cols + 1] zero\n",
             "a", "b", 1);
}

static void test_random_file_matches_generator(void **state)
{
    (void)state;
    same_csr(".matrix a mtx(\"data/random-1k.mtx\")\n"
             ".matrix b random(rows=1024, nnz=8192, seed=5)\n",
             "a", "b", 1);
}

/* A symmetric pattern file stores the lower triangle; reading mirrors it and gives 1.0. */
static void test_symmetric_pattern(void **state)
{
    (void)state;
    workload *w = parse_ok(".matrix a mtx(\"data/banded-sym-256.mtx\")\n"
                           ".matrix b banded(rows=256, band=2, seed=5)\n");
    same_array(w, "a_rowptr", "b_rowptr");
    same_array(w, "a_col", "b_col");
    uint32_t n;
    const uint32_t *v = wl_workload_array(w, "a_val", &n);
    assert_int_equal(n, 256 * 5 - 6);
    for (uint32_t i = 0; i < n; i++)
        assert_int_equal(v[i], 0x3f800000u); /* 1.0f */
    workload_free(w);
}

static void test_edge_list_files_match_generators(void **state)
{
    (void)state;
    workload *w = parse_ok(".graph a edgelist(\"data/rmat-1k.txt\")\n"
                           ".graph b rmat(nodes=1024, edges=8192, seed=7)\n"
                           ".graph c edgelist(\"data/uniform-1k.txt\")\n"
                           ".graph d uniform(nodes=1024, edges=8192, seed=7)\n");
    uint32_t na, nb;
    assert_non_null(wl_workload_array(w, "a_rowptr", &na));
    assert_non_null(wl_workload_array(w, "b_rowptr", &nb));
    /* the file knows only the largest node id that occurs */
    assert_true(na <= nb);
    assert_memory_equal(wl_workload_array(w, "a_rowptr", NULL),
                        wl_workload_array(w, "b_rowptr", NULL), (size_t)na * 4);
    same_array(w, "a_col", "b_col");
    same_array(w, "c_col", "d_col");
    workload_free(w);
}

/* Rows are sorted by column, duplicates kept, and constants name the shape. */
static void test_small_file_contents(void **state)
{
    (void)state;
    const char *path = test_write_temp("small.mtx", "%%MatrixMarket matrix coordinate integer "
                                                    "general\n"
                                                    "% a comment\n"
                                                    "\n"
                                                    "3 4 5\n"
                                                    "2 4 7\n"
                                                    "1 3 -2\n"
                                                    "2 1 5\n"
                                                    "1 1 1\n"
                                                    "2 4 3\n");
    char data[512];
    snprintf(data, sizeof data,
             ".matrix m mtx(\"%s\")\n.array shape i32 [m_rows*100 + m_cols*10 + m_nnz] zero\n",
             path);
    workload *w = parse_ok(data);
    uint32_t n;
    const uint32_t *rp = wl_workload_array(w, "m_rowptr", &n);
    assert_int_equal(n, 4);
    uint32_t want_rp[] = {0, 2, 5, 5};
    assert_memory_equal(rp, want_rp, sizeof want_rp);
    const uint32_t *col = wl_workload_array(w, "m_col", &n);
    uint32_t want_col[] = {0, 2, 0, 3, 3};
    assert_int_equal(n, 5);
    assert_memory_equal(col, want_col, sizeof want_col);
    const uint32_t *val = wl_workload_array(w, "m_val", NULL);
    float want_val[] = {1, -2, 5, 7, 3};
    assert_memory_equal(val, want_val, sizeof want_val);
    wl_workload_array(w, "shape", &n);
    assert_int_equal(n, 345);
    workload_free(w);
}

/* A comment line longer than any line buffer is one line: its tail is not read as data. */
static void test_long_comment_lines(void **state)
{
    (void)state;
    static char text[12000];
    char pad[9000];
    memset(pad, 'x', sizeof pad - 1);
    pad[sizeof pad - 1] = '\0';
    for (size_t cut = 4090; cut < 4100; cut += 3) {
        /* the tail of each comment looks like a size line, an entry or an edge */
        snprintf(text, sizeof text,
                 "%%%%MatrixMarket matrix coordinate real general\n%%%.*s 1 1 1\n3 3 1\n"
                 "%%%.*s 2 2 2\n2 3 4.5\n",
                 (int)cut, pad, (int)cut, pad);
        const char *mtx = test_write_temp("long.mtx", text);
        snprintf(text, sizeof text, "#%.*s 5 6\n0 1\n#%s 7 8\n", (int)cut, pad, pad);
        const char *edges = test_write_temp("long.txt", text);
        assert_non_null(mtx);
        assert_non_null(edges);
        char data[512];
        snprintf(data, sizeof data,
                 ".matrix m mtx(\"%s\")\n.graph g edgelist(\"%s\")\n"
                 ".array shape i32 [m_rows*1000 + m_cols*100 + m_nnz*10 + g_edges] zero\n"
                 ".array nodes i32 [g_nodes] zero\n",
                 mtx, edges);
        workload *w = parse_ok(data);
        uint32_t n;
        wl_workload_array(w, "shape", &n);
        assert_int_equal(n, 3311);
        wl_workload_array(w, "nodes", &n);
        assert_int_equal(n, 2);
        workload_free(w);
    }
}

typedef struct bad {
    const char *file; /* contents of the matrix file */
    int line;         /* expected line of the message in the file */
    const char *what; /* expected part of the message */
} bad;

static const bad BAD[] = {
    {"", 1, "empty file"},
    {"%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n", 1, "coordinate"},
    {"%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 1\n", 1, "expected the header"},
    {"%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n", 1, "unsupported field"},
    {"%%MatrixMarket matrix coordinate real hermitian\n1 1 1\n1 1 1\n", 1, "unsupported symmetry"},
    {"%%MatrixMarket matrix coordinate real general\n% c\n3 3\n1 1 1\n", 3, "size line"},
    {"%%MatrixMarket matrix coordinate real general\n3 x 1\n1 1 1\n", 2, "size line"},
    {"%%MatrixMarket matrix coordinate real general\n0 3 1\n1 1 1\n", 2, "size line"},
    {"%%MatrixMarket matrix coordinate real general\n3 3 0\n", 2, "no entries"},
    {"%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1.5\n4 1 2\n", 4,
     "outside the 3x3 matrix"},
    {"%%MatrixMarket matrix coordinate real general\n3 3 2\n0 1 1.5\n", 3, "outside"},
    {"%%MatrixMarket matrix coordinate real general\n3 3 2\n1 x 1.5\n", 3, "expected an entry"},
    {"%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2\n", 3, "expected an entry"},
    {"%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 1.5 7\n", 3, "expected an entry"},
    {"%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 abc\n", 3, "a real value"},
    {"%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 2 1.5\n", 3, "an integer value"},
    {"%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 2 1\n", 3, "'row col'"},
    {"%%MatrixMarket matrix coordinate real general\n3 3 3\n1 1 1\n2 2 2\n", 4,
     "ends after 2 of the 3"},
    {"%%MatrixMarket matrix coordinate real general\n3 3 1\n1 1 1\n2 2 2\n", 4,
     "more entries than the 1"},
    {"%%MatrixMarket matrix coordinate real general\n% only comments\n", 2, "missing the size"},
    /* mirroring (1, 3) of a 1x3 "symmetric" matrix gave row 3 of a 1-row matrix */
    {"%%MatrixMarket matrix coordinate real symmetric\n1 3 1\n1 3 1\n", 2,
     "a symmetric matrix must be square, got 1x3"},
    {"%%MatrixMarket matrix coordinate pattern symmetric\n4 3 1\n4 1\n", 2,
     "must be square, got 4x3"},
};

static void test_malformed_files(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        char name[32], text[1024], err[1024], want[1200];
        snprintf(name, sizeof name, "bad%zu.mtx", i);
        const char *path = test_write_temp(name, BAD[i].file);
        assert_non_null(path);
        snprintf(text, sizeof text, "# m\n.matrix m mtx(\"%s\")\n" TAIL, path);
        workload *w = NULL;
        int rc = workload_parse(text, "t.wl", NULL, NULL, 0, &w, err, sizeof err);
        if (rc == 0) fail_msg("case %zu: accepted", i);
        snprintf(want, sizeof want, "%s:%d: ", path, BAD[i].line);
        if (strncmp(err, want, strlen(want)) != 0 || !strstr(err, BAD[i].what) ||
            !strstr(err, "(matrix of t.wl:2)"))
            fail_msg("case %zu: got '%s', want '%s...%s'", i, err, want, BAD[i].what);
        remove(path);
    }
}

/* Data files are text: a NUL byte would silently end its line (the rest of the line, an
 * entry's value or a second node id, dropped), so it is an error at its line. */
static void test_nul_bytes(void **state)
{
    (void)state;
    static const char mtx[] = "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n"
                              "2 2\0 7\n";
    static const char edges[] = "0 1\n1\0 2\n";
    static const struct {
        const char *name, *line, *kind;
        const char *data;
        size_t len;
    } cases[] = {
        {"nul.mtx", ".matrix m mtx", "matrix", mtx, sizeof mtx - 1},
        {"nul.txt", ".graph g edgelist", "edge list", edges, sizeof edges - 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *path = test_write_temp(cases[i].name, "");
        assert_non_null(path);
        FILE *f = fopen(path, "wb");
        assert_non_null(f);
        assert_int_equal(fwrite(cases[i].data, 1, cases[i].len, f), cases[i].len);
        fclose(f);
        char text[1024], err[1024], want[1200];
        snprintf(text, sizeof text, "%s(\"%s\")\n" TAIL, cases[i].line, path);
        workload *w = NULL;
        if (workload_parse(text, "t.wl", NULL, NULL, 0, &w, err, sizeof err) == 0)
            fail_msg("%s: accepted", cases[i].name);
        snprintf(want, sizeof want, "%s:%d: NUL byte (expected text) (%s of t.wl:1)", path,
                 i == 0 ? 4 : 2, cases[i].kind);
        if (strcmp(err, want) != 0) fail_msg("got '%s', want '%s'", err, want);
        remove(path);
    }
}

/* A data file is hashed, then read: a device or FIFO is refused before it is opened (hashing
 * /dev/zero went on for ever; opening a FIFO waited for a writer). */
static void test_not_regular_files(void **state)
{
    (void)state;
    const char *fifo = test_write_temp("fifo.txt", "");
    assert_non_null(fifo);
    remove(fifo);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    static const char *const lines[] = {".graph g edgelist", ".matrix m mtx"};
    static const char *const kinds[] = {"edge list", "matrix"};
    const char *files[] = {"/dev/zero", fifo};
    for (size_t i = 0; i < 2; i++)
        for (size_t k = 0; k < 2; k++) {
            char text[1024], err[1024], want[1200];
            snprintf(text, sizeof text, "%s(\"%s\")\n" TAIL, lines[i], files[k]);
            workload *w = NULL;
            assert_int_equal(workload_parse(text, "t.wl", NULL, NULL, 0, &w, err, sizeof err), -1);
            snprintf(want, sizeof want, "t.wl:1: cannot read %s '%s': not a regular file", kinds[i],
                     files[k]);
            assert_string_equal(err, want);
        }
    remove(fifo);
}

static void test_generator_errors(void **state)
{
    (void)state;
    static const struct {
        const char *line, *what;
    } cases[] = {
        {".matrix m banded(rows=8)\n", "banded() needs rows= and band="},
        {".matrix m random(rows=8)\n", "random() needs rows= and nnz="},
        {".matrix m random(rows=8, nnz=0)\n", "nnz"},
        {".matrix m dense(rows=8)\n", "unknown matrix generator 'dense'"},
        {".matrix m mtx()\n", "mtx() needs a quoted file name"},
        {".matrix m mtx(\"no-such-file.mtx\")\n", "cannot open matrix"},
        {".matrix m banded(rows=8, band=1) x\n", "unexpected"},
        {".matrix\n", "expected a matrix name"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[512], err[1024];
        snprintf(text, sizeof text, "%s" TAIL, cases[i].line);
        workload *w = NULL;
        assert_int_not_equal(workload_parse(text, "t.wl", NULL, NULL, 0, &w, err, sizeof err), 0);
        if (strncmp(err, "t.wl:1: ", 8) != 0 || !strstr(err, cases[i].what))
            fail_msg("case %zu: got '%s', want 't.wl:1: ...%s'", i, err, cases[i].what);
    }
}

/* The spmv built-in reads a shipped Matrix Market file through its `.matrix` line. */
static void test_spmv_on_a_file(void **state)
{
    (void)state;
    char *text = NULL;
    for (size_t i = 0; i < workload_builtin_count(); i++)
        if (!strcmp(workload_builtin_name(i), "spmv")) text = strdup(workload_builtin_text(i));
    assert_non_null(text);
    char *line = strstr(text, ".matrix A random(");
    assert_non_null(line);
    char *end = strchr(line, '\n');
    char *out = malloc(strlen(text) + 64);
    sprintf(out, "%.*s.matrix A mtx(\"data/banded-1k.mtx\")%s", (int)(line - text), text, end);
    workload *w = NULL;
    char err[1024];
    if (workload_parse(out, "spmv-file.wl", "workloads", NULL, 0, &w, err, sizeof err) != 0)
        fail_msg("%s", err);
    workload_free(w);
    sim_metrics m;
    const char *sets[] = {"gpu.sms=2", NULL};
    /* test_sim resolves files against the current directory, the repository root */
    char *rooted = malloc(strlen(out) + 64);
    line = strstr(out, "data/banded-1k.mtx");
    sprintf(rooted, "%.*sworkloads/%s", (int)(line - out), out, line);
    assert_int_equal(test_sim(rooted, sets, NULL, &m, err, sizeof err), SIM_OK);
    assert_double_less(0, m.divergent_loads);
    free(rooted);
    free(out);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_banded_file_matches_generator),
        cmocka_unit_test(test_random_file_matches_generator),
        cmocka_unit_test(test_symmetric_pattern),
        cmocka_unit_test(test_edge_list_files_match_generators),
        cmocka_unit_test(test_small_file_contents),
        cmocka_unit_test(test_long_comment_lines),
        cmocka_unit_test(test_malformed_files),
        cmocka_unit_test(test_nul_bytes),
        cmocka_unit_test(test_not_regular_files),
        cmocka_unit_test(test_generator_errors),
        cmocka_unit_test(test_spmv_on_a_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
