/* Workload language: malformed workloads are rejected before simulation with
 * `file:line: message`, and nothing leaks or crashes on the way out. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/workload/wl_inspect.h"
#include "core/workload/workload.h"
#include "tests/support/support.h"

#define KERNEL_OK ".kernel k block=32\n exit\n"
#define HOST_OK   ".host\n launch k grid=1\n"

typedef struct bad {
    const char *text;
    const char *where; /* expected prefix, "t.wl:N:" */
    const char *what;  /* expected part of the message */
} bad;

static const bad CASES[] = {
    /* instructions */
    {".kernel k block=32\n  frob r1, r2\n" HOST_OK, "t.wl:2:", "unknown opcode 'frob'"},
    {".kernel k block=32\n  setp.zz p0, r1, 2\n" HOST_OK, "t.wl:2:", "setp needs a comparison"},
    {".kernel k block=32\n  add.f32 r1, r1, 2\n" HOST_OK, "t.wl:2:", "unknown opcode 'add.f32'"},
    {".kernel k block=32\n  mov r1, r2\n  add r64, r1, 1\n" HOST_OK,
     "t.wl:3:", "bad register 'r64'"},
    {".kernel k block=32\n  @p8 mov r1, 1\n" HOST_OK, "t.wl:2:", "bad predicate 'p8'"},
    {".kernel k block=32\n  add r1, p0, 1\n" HOST_OK, "t.wl:2:", "predicate 'p0' where"},
    {".kernel k block=32\n  mov r1, %foo\n" HOST_OK, "t.wl:2:", "unknown special register '%foo'"},
    {".kernel k block=32\n  add r1, r1\n" HOST_OK, "t.wl:2:", "expected ',' between operands"},
    {".kernel k block=32\n  add r1, r1, 2 3\n" HOST_OK, "t.wl:2:", "unexpected '3'"},
    {".kernel k block=32\n  add r1, r1, 1.5\n" HOST_OK, "t.wl:2:", "must be an integer"},
    /* a whole number too large is out of range, not "not an integer" */
    {".array a i32 [1e300] zero\n" KERNEL_OK HOST_OK, "t.wl:1:", "must be in [1, "},
    {".array a i32 [100000] iota(0, 100000)\n" KERNEL_OK HOST_OK,
     "t.wl:1:", "runs from 0 to 9999900000, outside the range of i32"},
    {".array a u32 [4] iota(3, -2)\n" KERNEL_OK HOST_OK,
     "t.wl:1:", "runs from 3 to -3, outside the range of u32"},
    {".array a i32 [2] iota(2147483647, 1)\n" KERNEL_OK HOST_OK,
     "t.wl:1:", "outside the range of i32"},
    {".kernel k block=32\nl: mov r1, 1\n  bra nowhere\n" HOST_OK,
     "t.wl:3:", "undefined label 'nowhere'"},
    {".kernel k block=32\nl: mov r1, 1\nl: mov r1, 2\n" HOST_OK,
     "t.wl:3:", "duplicate label 'l' (first defined at line 2)"},
    /* registers and predicates name nothing else, labels included */
    {".kernel k block=32\n  bra r1\nr1: exit\n" HOST_OK,
     "t.wl:3:", "label 'r1' looks like a register or predicate"},
    {".kernel k block=32\np0: exit\n" HOST_OK,
     "t.wl:2:", "label 'p0' looks like a register or predicate"},
    {".kernel r1 block=64\n exit\n.host\n launch r1 grid=1\n",
     "t.wl:1:", "kernel 'r1' looks like a register or predicate; choose another name"},
    {KERNEL_OK ".kernel p2 block=32\n exit\n" HOST_OK, "t.wl:3:", "kernel 'p2' looks like a"},
    {".graph r3 rmat(nodes=16, edges=32)\n" KERNEL_OK HOST_OK,
     "t.wl:1:", "graph 'r3' looks like a register or predicate"},
    {".matrix p1 banded(rows=8, band=1)\n" KERNEL_OK HOST_OK,
     "t.wl:1:", "matrix 'p1' looks like a register or predicate"},
    {".array a i32 [4] zero\n.kernel k block=32\n  ld.i32 r1, [a + r1 + r2 + r3]\n" HOST_OK,
     "t.wl:3:", "too many registers in an address (at most two)"},
    {".array a i32 [4] zero\n.kernel k block=32\n  ld.i32 r1, [a - r2]\n" HOST_OK,
     "t.wl:3:", "cannot be subtracted"},
    {".array a i32 [4] zero\n.kernel k block=32\n  ld.i32 r1, [a + r2\n" HOST_OK,
     "t.wl:3:", "expected '+', '-' or ']'"},
    {".array a i32 [4] zero\n.kernel k block=32\n @p0 atom.cas r1, [a + r2 + r3], r4, r5\n" HOST_OK,
     "t.wl:3:", "too many source registers"},
    {".kernel k block=32 regs=2\n  mov r5, 1\n" HOST_OK, "t.wl:1:", "has regs=2 but uses r5"},
    {"  mov r1, 2\n" KERNEL_OK HOST_OK, "t.wl:1:", "instruction outside a .kernel"},
    /* kernels */
    {".kernel k\n exit\n" HOST_OK, "t.wl:1:", "expected block=THREADS in .kernel k"},
    {".kernel k block=2000\n exit\n" HOST_OK, "t.wl:1:", "block must be in [1, 1024]"},
    {".kernel k block=32 shared=6\n exit\n" HOST_OK, "t.wl:1:", "multiple of 4"},
    {".kernel k block=32 colour=2\n exit\n" HOST_OK, "t.wl:1:", "unknown .kernel attribute"},
    {KERNEL_OK KERNEL_OK HOST_OK, "t.wl:3:", "duplicate kernel 'k'"},
    /* params and expressions */
    {".param n 4\n.param n 5\n" KERNEL_OK HOST_OK, "t.wl:2:", "'n' is already defined"},
    {".param n\n" KERNEL_OK HOST_OK, "t.wl:1:", "expected a value after .param n"},
    {".param r1 4\n" KERNEL_OK HOST_OK, "t.wl:1:", "looks like a register"},
    /* names longer than 63 characters are refused, not truncated (two would then clash) */
    {".param aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa 4\n" KERNEL_OK
         HOST_OK,
     "t.wl:1:", "name too long (at most 63 characters)"},
    {".param aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa 4\n.param "
     "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab 5\n" KERNEL_OK HOST_OK,
     "t.wl:2:", "name too long (at most 63 characters)"},
    {".param aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa 4\n.array a i32 "
     "[aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaax] zero\n" KERNEL_OK HOST_OK,
     "t.wl:2:", "name too long (at most 63 characters)"},
    {".kernel aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa block=32\n "
     "exit\n" HOST_OK,
     "t.wl:1:", "name too long (at most 63"},
    {".array aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa i32 [4] "
     "zero\n" KERNEL_OK HOST_OK,
     "t.wl:1:", "name too long (at most 63"},
    {".graph aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa rmat(64, 256, "
     "1)\n" KERNEL_OK HOST_OK,
     "t.wl:1:", "name too long (at most 63"},
    {".kernel aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa block=32\n "
     "exit\n.host\n launch aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab "
     "grid=1\n",
     "t.wl:4:", "name too long (at most 63"},
    {".kernel k block=32\naaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa: "
     "exit\n" HOST_OK,
     "t.wl:2:", "name too long (at most 63"},
    {".kernel k block=32\naaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa: bra "
     "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n" HOST_OK,
     "t.wl:2:", "name too long (at most 63"},
    {".param n 4\n.array a i32 [n*] zero\n" KERNEL_OK HOST_OK,
     "t.wl:2:", "expected a number or a name, got ']'"},
    {".array a i32 [m] zero\n" KERNEL_OK HOST_OK, "t.wl:1:", "unknown name 'm'"},
    {".array a i32 [4/0] zero\n" KERNEL_OK HOST_OK, "t.wl:1:", "division by zero in expression"},
    {".array a i32 [10/4] zero\n" KERNEL_OK HOST_OK, "t.wl:1:", "must be an integer, got 2.5"},
    {".array a i32 [(3+4] zero\n" KERNEL_OK HOST_OK, "t.wl:1:", "expected ')' to close '('"},
    {".array a i32 [sqrt(4)] zero\n" KERNEL_OK HOST_OK, "t.wl:1:", "unknown function 'sqrt'"},
    {".array a i32 [9223372036854775807 + 1] zero\n" KERNEL_OK HOST_OK,
     "t.wl:1:", "integer overflow"},
    /* arrays and generators */
    {".array a f64 [4] zero\n" KERNEL_OK HOST_OK, "t.wl:1:", "bad array type f64"},
    {".array a i32 [4] gaussian(1)\n" KERNEL_OK HOST_OK, "t.wl:1:", "unknown generator 'gaussian'"},
    {".array a i32 [4] uniform(seed=1, mu=3)\n" KERNEL_OK HOST_OK,
     "t.wl:1:", "uniform() has no argument 'mu'"},
    {".array a i32 [4] uniform(lo=5, hi=5)\n" KERNEL_OK HOST_OK, "t.wl:1:", "needs lo < hi"},
    {".array a i32 [4] const()\n" KERNEL_OK HOST_OK, "t.wl:1:", "const() needs a value"},
    {".array a i32 [0] zero\n" KERNEL_OK HOST_OK, "t.wl:1:", "count must be in [1,"},
    {".array a u32 [4] const(-1)\n" KERNEL_OK HOST_OK, "t.wl:1:", "const() value must be in"},
    {".graph g rmat(nodes=10)\n" KERNEL_OK HOST_OK, "t.wl:1:", "needs nodes= and edges="},
    {".graph g tree(3)\n" KERNEL_OK HOST_OK, "t.wl:1:", "unknown graph generator 'tree'"},
    {".graph g edgelist(\"no-such-file.txt\")\n" KERNEL_OK HOST_OK,
     "t.wl:1:", "cannot open edge list"},
    {".frob x\n" KERNEL_OK HOST_OK, "t.wl:1:", "unknown directive '.frob'"},
    /* host */
    {KERNEL_OK ".host\n launch foo grid=1\n", "t.wl:4:", "launch of unknown kernel 'foo'"},
    {KERNEL_OK ".host\n launch k\n", "t.wl:4:", "expected grid=CTAS in launch"},
    {KERNEL_OK ".host\n launch k grid=0\n", "t.wl:4:", "grid must be in [1,"},
    {KERNEL_OK ".host\n jump k\n", "t.wl:4:", "unknown host statement 'jump'"},
    {".array f i32 [4] zero\n" KERNEL_OK ".host\n set f[4] = 1\n",
     "t.wl:5:", "the index must be in [0, 3]"},
    {".array f i32 [4] zero\n" KERNEL_OK ".host\n set g[0] = 1\n", "t.wl:5:", "unknown array 'g'"},
    {".array f i32 [4] zero\n" KERNEL_OK ".host\n do max=4\n launch k grid=1\n",
     "t.wl:5:", "do without a matching while"},
    {".array f i32 [4] zero\n" KERNEL_OK ".host\n while f[0] != 0\n",
     "t.wl:5:", "while without a matching do"},
    {".array f i32 [4] zero\n" KERNEL_OK ".host\n do max=2\n while f[0] > 0\n",
     "t.wl:6:", "expected != or == after the element"},
    {KERNEL_OK ".host\n.host\n", "t.wl:4:", "a second .host section"},
    {KERNEL_OK, "t.wl:2:", "no .host section"},
    {KERNEL_OK ".host\n launch k grid=1\n.param late 3\n", "t.wl:5:", ".param after .host"},
};

static void test_rejected(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        char err[512] = "";
        workload *w = (workload *)1;
        int rc = workload_parse(CASES[i].text, "t.wl", NULL, NULL, 0, &w, err, sizeof err);
        if (getenv("WL_SHOW_ERRORS")) fprintf(stderr, "%s\n", err);
        if (rc != -1 || strncmp(err, CASES[i].where, strlen(CASES[i].where)) ||
            !strstr(err, CASES[i].what))
            fprintf(stderr, "case %zu: rc %d, got \"%s\", want \"%s ... %s\"\n", i, rc, err,
                    CASES[i].where, CASES[i].what);
        assert_int_equal(rc, -1);
        assert_null(w);
        assert_string_prefix(err, CASES[i].where);
        assert_non_null(strstr(err, CASES[i].what));
    }
}

static void test_overrides(void **state)
{
    (void)state;
    const char *text = ".param n 4\n.param seed 1\n" KERNEL_OK HOST_OK;
    char err[512];
    workload *w;
    wl_override ov[] = {{"n", "8"}, {"zzz", "1"}};
    assert_int_equal(workload_parse(text, "t.wl", NULL, ov, 2, &w, err, sizeof err), -1);
    assert_string_equal(err, "t.wl: override 'zzz': no .param zzz in this workload "
                             "(its params: n, seed)");
    wl_override ov2[] = {{"n", "abc"}};
    assert_int_equal(workload_parse(text, "t.wl", NULL, ov2, 1, &w, err, sizeof err), -1);
    assert_string_equal(err, "t.wl: override n=abc: expected a number");
    wl_override ov3[] = {{"seed", "2*n+1"}}; /* earlier params are in scope */
    assert_int_equal(workload_parse(text, "t.wl", NULL, ov3, 1, &w, err, sizeof err), 0);
    workload_free(w);
}

static void test_bad_edgelist(void **state)
{
    (void)state;
    const char *path = test_write_temp("edges.txt", "# a comment\n0 1\n1 x\n");
    assert_non_null(path);
    char text[512], err[512];
    snprintf(text, sizeof text, "# doc\n.graph g edgelist(\"%s\")\n" KERNEL_OK HOST_OK, path);
    workload *w;
    assert_int_equal(workload_parse(text, "t.wl", NULL, NULL, 0, &w, err, sizeof err), -1);
    char want[300];
    snprintf(want, sizeof want, "%s:3: expected an edge 'src dst'", path);
    assert_string_prefix(err, want);
    assert_non_null(strstr(err, "(edge list of t.wl:2)"));
    path = test_write_temp("edges2.txt", "0 1 2\n");
    snprintf(text, sizeof text, ".graph g edgelist(\"%s\")\n" KERNEL_OK HOST_OK, path);
    assert_int_equal(workload_parse(text, "t.wl", NULL, NULL, 0, &w, err, sizeof err), -1);
    assert_non_null(strstr(err, ":1: expected an edge"));
    path = test_write_temp("edges3.txt", "# only comments\n");
    snprintf(text, sizeof text, ".graph g edgelist(\"%s\")\n" KERNEL_OK HOST_OK, path);
    assert_int_equal(workload_parse(text, "t.wl", NULL, NULL, 0, &w, err, sizeof err), -1);
    assert_non_null(strstr(err, "has no edges"));
    /* a file path: data files resolve relative to the workload's directory */
    path = test_write_temp("g.wl", ".graph g edgelist(\"missing.txt\")\n" KERNEL_OK HOST_OK);
    assert_int_equal(workload_load(path, NULL, 0, &w, err, sizeof err), -1);
    assert_non_null(strstr(err, "cannot open edge list '/tmp/missing.txt'"));
}

static void test_error_buffer_edge_cases(void **state)
{
    (void)state;
    workload *w;
    char tiny[8];
    assert_int_equal(workload_parse(".kernel k\n", "t.wl", NULL, NULL, 0, &w, tiny, sizeof tiny),
                     -1);
    assert_int_equal(strlen(tiny), 7);
    assert_int_equal(workload_parse(".kernel k\n", "t.wl", NULL, NULL, 0, &w, NULL, 0), -1);
    assert_int_equal(workload_parse("", NULL, NULL, NULL, 0, &w, tiny, sizeof tiny), -1);
    /* very long lines and names are handled */
    static char big[20000];
    memset(big, 'x', sizeof big - 1);
    big[0] = '.';
    char err[256];
    assert_int_equal(workload_parse(big, "t.wl", NULL, NULL, 0, &w, err, sizeof err), -1);
    assert_string_prefix(err, "t.wl:1:");
}

/* Nesting is bounded (parentheses, calls and signs alike) so that deep input is an error
 * rather than a stack overflow; 256 levels are still fine. */
static char *nested(const char *open, size_t n, const char *close)
{
    size_t lo = strlen(open), lc = strlen(close);
    char *s = malloc(256 + n * (lo + lc));
    assert_non_null(s);
    char *p = s + sprintf(s, ".kernel k block=32\n  mov r0, ");
    for (size_t i = 0; i < n; i++)
        p += sprintf(p, "%s", open);
    *p++ = '1';
    for (size_t i = 0; i < n; i++)
        p += sprintf(p, "%s", close);
    sprintf(p, "\n  exit\n" HOST_OK);
    return s;
}

static void test_deep_expressions(void **state)
{
    (void)state;
    const struct {
        const char *open, *close;
        size_t n;
        int ok;
    } cases[] = {
        {"(", ")", 256, 1},    {"(", ")", 257, 0},       {"(", ")", 20000, 0},
        {"min(", ")", 256, 1}, {"min(", ")", 100000, 0}, {"-", "", 256, 1},
        {"-", "", 200000, 0},  {"+", "", 200000, 0},     {"-(", ")", 200, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *text = nested(cases[i].open, cases[i].n, cases[i].close);
        char err[512] = "";
        workload *w = NULL;
        int rc = workload_parse(text, "t.wl", NULL, NULL, 0, &w, err, sizeof err);
        free(text);
        if (cases[i].ok) {
            assert_int_equal(rc, 0);
            workload_free(w);
        } else {
            assert_int_equal(rc, -1);
            assert_string_equal(err, "t.wl:2: expression nested deeper than 256");
        }
    }
}

/* Many labels and branches: duplicates and undefined labels are still found at this size
 * (labels are looked up by hash; a search per label made such a kernel take minutes). */
static void test_many_labels(void **state)
{
    (void)state;
    enum { N = 100000 };
    char *text = malloc((size_t)N * 40 + 256);
    assert_non_null(text);
    const char *tails[] = {"L0: exit\n", "  bra Lnope\n", "  exit\n"};
    const char *want[] = {"duplicate label 'L0' (first defined at line 2)",
                          "undefined label 'Lnope' in kernel 'k'", NULL};
    for (int t = 0; t < 3; t++) {
        char *p = text + sprintf(text, ".kernel k block=32\n");
        for (int i = 0; i < N; i++)
            p += sprintf(p, "L%d: bra L%d\n", i, i + 1);
        p += sprintf(p, "L%d: %s" HOST_OK, N, tails[t]);
        char err[512] = "", where[32];
        workload *w = NULL;
        int rc = workload_parse(text, "t.wl", NULL, NULL, 0, &w, err, sizeof err);
        if (want[t]) {
            assert_int_equal(rc, -1);
            snprintf(where, sizeof where, "t.wl:%d: ", N + 2);
            assert_string_prefix(err, where);
            assert_non_null(strstr(err, want[t]));
        } else {
            if (rc) fail_msg("%s", err);
            assert_int_equal(wl_workload_kernel_count(w), 1);
            workload_free(w);
        }
    }
    free(text);
}

/* A device or a FIFO is refused before it is read: /dev/zero never ends (it used to be read
 * until memory ran out), and opening a FIFO waits for a writer. */
static void test_endless_file(void **state)
{
    (void)state;
    char err[512];
    workload *w = NULL;
    assert_int_equal(workload_load("/dev/zero", NULL, 0, &w, err, sizeof err), -1);
    assert_string_equal(err, "/dev/zero: cannot read workload file: not a regular file");
}

/* Old Mac files end lines with a bare carriage return: named as such, at the line of the first
 * one; CRLF files load. */
static void test_line_endings(void **state)
{
    (void)state;
    char err[512];
    workload *w = NULL;
    const char *cr = test_write_temp("cr.wl", ".kernel k block=32\r    exit\r.host\r"
                                              "    launch k grid=1\r");
    assert_non_null(cr);
    assert_int_equal(workload_load(cr, NULL, 0, &w, err, sizeof err), -1);
    assert_non_null(strstr(err, "cr.wl:1: carriage return without a line feed"));
    const char *mixed = test_write_temp("mixed.wl", ".kernel k block=32\r\n    exit\r\n.host\r"
                                                    "    launch k grid=1\r\n");
    assert_non_null(mixed);
    assert_int_equal(workload_load(mixed, NULL, 0, &w, err, sizeof err), -1);
    assert_non_null(strstr(err, "mixed.wl:3: carriage return without a line feed"));
    const char *crlf = test_write_temp("crlf.wl", ".kernel k block=32\r\n    exit\r\n.host\r\n"
                                                  "    launch k grid=1\r\n");
    assert_non_null(crlf);
    if (workload_load(crlf, NULL, 0, &w, err, sizeof err) != 0) fail_msg("%s", err);
    workload_free(w);
    remove(cr);
    remove(mixed);
    remove(crlf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rejected),         cmocka_unit_test(test_overrides),
        cmocka_unit_test(test_bad_edgelist),     cmocka_unit_test(test_error_buffer_edge_cases),
        cmocka_unit_test(test_deep_expressions), cmocka_unit_test(test_many_labels),
        cmocka_unit_test(test_endless_file),     cmocka_unit_test(test_line_endings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
