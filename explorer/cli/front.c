/* warptune front: the non-dominated rows of any CSV table with a header, and their hypervolume
 * against the worst value of each objective in the file. */
#include <csv.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "explorer/cli/cli.h"
#include "explorer/cli/commands.h"
#include "core/util/textfile.h"
#include "explorer/front.h"
#include "explorer/space.h"
#include "explorer/table.h"

/* ------------------------------------------------------------------ reading the CSV ---- */

typedef struct csv_doc {
    size_t ncols;      /* from the header */
    char **header;     /* ncols */
    char **cells;      /* nrows * ncols */
    size_t *cell_line; /* nrows * ncols: the line each cell ended on */
    size_t nrows, cap;
    /* the row being read */
    char **row;
    size_t *row_line;
    size_t row_n, row_cap;
    size_t line;      /* current physical line (1-based) */
    size_t row_start; /* the earliest line the row being read can have started on */
    int have_header;
    int failed; /* 1 out of memory, 2 ragged row, 3 a NUL byte */
    size_t bad_line, bad_fields;
} csv_doc;

static void on_field(void *s, size_t len, void *data)
{
    csv_doc *d = data;
    if (d->failed) return;
    if (len && memchr(s, '\0', len)) { /* as a C string the cell would end there */
        d->failed = 3;
        d->bad_line = d->line;
        return;
    }
    if (d->row_n == d->row_cap) {
        size_t cap = d->row_cap ? 2 * d->row_cap : 16;
        char **r = realloc(d->row, cap * sizeof *r);
        if (r) d->row = r;
        size_t *l = realloc(d->row_line, cap * sizeof *l);
        if (l) d->row_line = l;
        if (!r || !l) {
            d->failed = 1;
            return;
        }
        d->row_cap = cap;
    }
    char *c = malloc(len + 1);
    if (!c) {
        d->failed = 1;
        return;
    }
    if (len) memcpy(c, s, len);
    c[len] = '\0';
    d->row_line[d->row_n] = d->line;
    d->row[d->row_n++] = c;
}

static void drop_row(csv_doc *d)
{
    for (size_t i = 0; i < d->row_n; i++)
        free(d->row[i]);
    d->row_n = 0;
}

static void on_row(int c, void *data)
{
    (void)c;
    csv_doc *d = data;
    d->row_start = d->line + 1;
    if (d->failed) {
        drop_row(d);
        return;
    }
    if (!d->have_header) {
        d->header = d->row;
        d->ncols = d->row_n;
        d->row = NULL;
        d->row_line = (free(d->row_line), NULL);
        d->row_n = d->row_cap = 0;
        d->have_header = 1;
        return;
    }
    if (d->row_n != d->ncols) {
        d->failed = 2;
        d->bad_line = d->line;
        d->bad_fields = d->row_n;
        drop_row(d);
        return;
    }
    if (d->nrows == d->cap) {
        size_t cap = d->cap ? 2 * d->cap : 64;
        char **cells = realloc(d->cells, cap * d->ncols * sizeof *cells);
        if (cells) d->cells = cells;
        size_t *lines = realloc(d->cell_line, cap * d->ncols * sizeof *lines);
        if (lines) d->cell_line = lines;
        if (!cells || !lines) {
            d->failed = 1;
            drop_row(d);
            return;
        }
        d->cap = cap;
    }
    memcpy(d->cells + d->nrows * d->ncols, d->row, d->ncols * sizeof *d->row);
    memcpy(d->cell_line + d->nrows * d->ncols, d->row_line, d->ncols * sizeof *d->row_line);
    d->nrows++;
    d->row_n = 0;
}

static void doc_free(csv_doc *d)
{
    for (size_t i = 0; i < d->ncols; i++)
        free(d->header[i]);
    free(d->header);
    for (size_t i = 0; i < d->nrows * d->ncols; i++)
        free(d->cells[i]);
    free(d->cells);
    free(d->cell_line);
    drop_row(d);
    free(d->row);
    free(d->row_line);
}

/* The longest physical line read: far more than any CSV row needs. */
#define LINE_MAX_BYTES ((size_t)16 << 20)

/* getline() with a bound: the line's length, 0 at the end of the file, -1 when memory runs
 * out, -2 when the line is longer than LINE_MAX_BYTES (a stream that never ends, such as
 * /dev/zero, stops there instead of filling memory). */
static ssize_t read_line(FILE *f, char **buf, size_t *cap)
{
    size_t n = 0;
    int ch;
    while ((ch = getc(f)) != EOF) {
        if (n >= LINE_MAX_BYTES) return -2;
        if (n + 2 > *cap) {
            size_t c = *cap ? 2 * *cap : 4096;
            char *b = realloc(*buf, c);
            if (!b) return -1;
            *buf = b;
            *cap = c;
        }
        (*buf)[n++] = (char)ch;
        if (ch == '\n') break;
    }
    if (n) (*buf)[n] = '\0';
    return (ssize_t)n;
}

/* Reads path into d. Returns 0, or prints `path:line: message` and returns an exit status. */
static int read_csv(const char *path, csv_doc *d)
{
    memset(d, 0, sizeof *d);
    const char *refused;
    FILE *f = wt_open_regular(path, &refused);
    if (!f) {
        fprintf(stderr, "%s: cannot open: %s\n", path, refused ? refused : strerror(errno));
        return WT_EXIT_BAD_INPUT;
    }
    struct csv_parser p;
    if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL) != 0) {
        fclose(f);
        fprintf(stderr, "%s: out of memory\n", path);
        return WT_EXIT_INTERNAL;
    }
    /* Feed one physical line at a time so that every field and row knows its line. */
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    int rc = 0;
    while ((len = read_line(f, &line, &cap)) > 0) {
        d->line++;
        /* a UTF-8 byte order mark (spreadsheets write one) is not part of the first column */
        size_t skip = d->line == 1 && len >= 3 && !memcmp(line, "\xEF\xBB\xBF", 3) ? 3 : 0;
        len -= (ssize_t)skip;
        if (csv_parse(&p, line + skip, (size_t)len, on_field, on_row, d) != (size_t)len) {
            int e = csv_error(&p);
            if (e == CSV_EPARSE)
                fprintf(stderr,
                        "%s:%zu: bad CSV: a quote inside an unquoted field or text after a "
                        "closing quote\n",
                        path, d->line);
            else
                fprintf(stderr, "%s:%zu: bad CSV: %s\n", path, d->line, csv_strerror(e));
            rc = WT_EXIT_BAD_INPUT;
            break;
        }
        if (d->failed) break;
    }
    if (len == -1) {
        fprintf(stderr, "%s: out of memory\n", path);
        rc = WT_EXIT_INTERNAL;
    } else if (len == -2) {
        fprintf(stderr, "%s:%zu: line longer than %zu bytes (expected CSV text)\n", path,
                d->line + 1, LINE_MAX_BYTES);
        rc = WT_EXIT_BAD_INPUT;
    }
    if (rc == 0 && !d->failed && ferror(f)) {
        fprintf(stderr, "%s: read error: %s\n", path, strerror(errno));
        rc = WT_EXIT_BAD_INPUT;
    }
    if (rc == 0 && !d->failed && csv_fini(&p, on_field, on_row, d) != 0) {
        fprintf(stderr, "%s:%zu: bad CSV: a quoted field is never closed\n", path,
                d->row_start ? d->row_start : 1);
        rc = WT_EXIT_BAD_INPUT;
    }
    free(line);
    csv_free(&p);
    fclose(f);
    if (rc) return rc;
    if (d->failed == 1) {
        fprintf(stderr, "%s: out of memory\n", path);
        return WT_EXIT_INTERNAL;
    }
    if (d->failed == 2) {
        fprintf(stderr, "%s:%zu: bad CSV: %zu fields where the header has %zu\n", path, d->bad_line,
                d->bad_fields, d->ncols);
        return WT_EXIT_BAD_INPUT;
    }
    if (d->failed == 3) {
        fprintf(stderr, "%s:%zu: NUL byte (expected CSV text)\n", path, d->bad_line);
        return WT_EXIT_BAD_INPUT;
    }
    if (!d->have_header) {
        fprintf(stderr, "%s:1: empty file: expected a header line\n", path);
        return WT_EXIT_BAD_INPUT;
    }
    return 0;
}

/* ------------------------------------------------------------------ the command ---- */

typedef struct objective {
    char name[256];
    int maximise;
    size_t col;
} objective;

static void list_columns(const csv_doc *d)
{
    fprintf(stderr, "the columns are:");
    for (size_t c = 0; c < d->ncols; c++)
        fprintf(stderr, " %s", d->header[c]);
    fprintf(stderr, "\n");
}

static int find_column(const csv_doc *d, const char *name, size_t *col)
{
    for (size_t c = 0; c < d->ncols; c++)
        if (!strcmp(d->header[c], name)) {
            *col = c;
            return 0;
        }
    return -1;
}

/* The longest cell read as a number: 17 significant digits, a sign, a point, an exponent and
 * blanks fit many times over; a longer one is not a number a table of results holds. */
#define NUMBER_MAX_CHARS 64
#define WT_STR_(x)       #x
#define WT_STR(x)        WT_STR_(x)

/* A whole cell as a number (surrounding blanks allowed; nan, a missing value, too). Returns 0,
 * or -1 with why in *why: not a number, not finite, out of range or too long. */
static int parse_number(const char *s, double *v, const char **why)
{
    *why = "is not a number";
    if (strlen(s) > NUMBER_MAX_CHARS) {
        *why = "is longer than " WT_STR(NUMBER_MAX_CHARS) " characters (expected a number)";
        return -1;
    }
    char *end;
    errno = 0;
    double x = strtod(s, &end);
    if (end == s) return -1;
    while (*end == ' ' || *end == '\t')
        end++;
    if (*end) return -1;
    if (isinf(x) || (errno == ERANGE && x != 0)) {
        *why = "is not a finite number";
        return -1;
    }
    *v = x;
    return 0;
}

static void usage(void)
{
    cli_command_usage(stderr, "front");
}

/* The command line: the input file, the output, the --objective specifications. */
typedef struct front_args {
    const char *file, *out;
    const char *specs[SPACE_MAX_OBJECTIVES];
    size_t nspecs;
} front_args;

/* Parses the options into a. Returns -1 to go on, or the exit status to end with (--help, a
 * mistake). */
static int parse_args(int argc, char **argv, front_args *a)
{
    memset(a, 0, sizeof *a);
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        if (!strcmp(o, "--objective") && i + 1 < argc) {
            if (a->nspecs == SPACE_MAX_OBJECTIVES) {
                fprintf(stderr, "warptune front: at most %d objectives\n", SPACE_MAX_OBJECTIVES);
                return WT_EXIT_BAD_INPUT;
            }
            a->specs[a->nspecs++] = argv[++i];
        } else if (!strcmp(o, "--out") && i + 1 < argc) {
            a->out = argv[++i];
            if (!*a->out) {
                fprintf(stderr, "warptune front: --out: expected a file name\n");
                return WT_EXIT_BAD_INPUT;
            }
        } else if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
            usage();
            return WT_EXIT_OK;
        } else if (o[0] == '-' && o[1] == '-') {
            fprintf(stderr, "warptune front: unknown or incomplete option '%s'\n", o);
            usage();
            return WT_EXIT_BAD_INPUT;
        } else if (!a->file) {
            a->file = o;
        } else {
            fprintf(stderr, "warptune front: one input file only ('%s' and '%s')\n", a->file, o);
            return WT_EXIT_BAD_INPUT;
        }
    }
    if (!a->file) {
        usage();
        return WT_EXIT_BAD_INPUT;
    }
    return -1;
}

/* The --objective specifications COLUMN:min|max into obj, before the file is read (a mistake
 * shows without reading it). Returns 0 or an exit status. */
static int parse_objectives(const front_args *a, objective *obj, size_t *m)
{
    *m = 0;
    for (size_t s = 0; s < a->nspecs; s++) {
        const char *colon = strrchr(a->specs[s], ':');
        const char *dir = colon ? colon + 1 : "";
        size_t nlen = colon ? (size_t)(colon - a->specs[s]) : 0;
        if (!colon || (strcmp(dir, "min") && strcmp(dir, "max")) || nlen == 0 ||
            nlen >= sizeof obj[0].name) {
            fprintf(stderr, "warptune front: --objective %s: expected COLUMN:min or COLUMN:max\n",
                    a->specs[s]);
            return WT_EXIT_BAD_INPUT;
        }
        memcpy(obj[*m].name, a->specs[s], nlen);
        obj[*m].name[nlen] = '\0';
        for (size_t k = 0; k < *m; k++) /* twice would weigh one column double */
            if (!strcmp(obj[k].name, obj[*m].name)) {
                fprintf(stderr,
                        "warptune front: --objective %s: column %s is already an objective "
                        "(--objective %s; expected each column once)\n",
                        a->specs[s], obj[*m].name, a->specs[k]);
                return WT_EXIT_BAD_INPUT;
            }
        obj[*m].maximise = !strcmp(dir, "max");
        (*m)++;
    }
    return 0;
}

typedef struct named_col {
    const char *name;
    size_t col;
} named_col;

static int cmp_name(const void *x, const void *y)
{
    const named_col *a = x, *b = y;
    int c = strcmp(a->name, b->name);
    return c ? c : (a->col > b->col) - (a->col < b->col); /* equal names: by position */
}

/* A name is one column (which would an objective be otherwise?): the header's names sorted,
 * equal ones side by side. Returns 0, or -1 after naming the first repeated one. */
static int check_header(const csv_doc *d, const char *file)
{
    named_col *names = malloc((d->ncols ? d->ncols : 1) * sizeof *names);
    if (!names) return 0; /* the objectives' lookup still takes the first of a name */
    for (size_t c = 0; c < d->ncols; c++)
        names[c] = (named_col){d->header[c], c};
    qsort(names, d->ncols, sizeof *names, cmp_name);
    int rc = 0;
    for (size_t c = 1; c < d->ncols && rc == 0; c++)
        if (!strcmp(names[c].name, names[c - 1].name)) {
            fprintf(stderr, "%s:1: column '%s' appears twice (columns %zu and %zu)\n", file,
                    names[c].name, names[c - 1].col + 1, names[c].col + 1);
            rc = -1;
        }
    free(names);
    return rc;
}

/* Without --objective, the defaults that are columns of the file: ipc (max), mpki and energy_j
 * (min), at least one. Then every objective's column. Returns 0 or an exit status. */
static int find_objective_columns(const csv_doc *d, const char *file, objective *obj, size_t *m)
{
    if (check_header(d, file) != 0) return WT_EXIT_BAD_INPUT;
    if (*m == 0) {
        static const struct {
            const char *name;
            int maximise;
        } defaults[] = {{"ipc", 1}, {"mpki", 0}, {"energy_j", 0}};
        for (size_t k = 0; k < sizeof defaults / sizeof defaults[0]; k++) {
            size_t col;
            if (find_column(d, defaults[k].name, &col) == 0) {
                snprintf(obj[*m].name, sizeof obj[*m].name, "%s", defaults[k].name);
                obj[*m].maximise = defaults[k].maximise;
                (*m)++;
            }
        }
        if (*m == 0) {
            fprintf(stderr,
                    "%s:1: no --objective given and none of the default objectives ipc, mpki, "
                    "energy_j is a column; ",
                    file);
            list_columns(d);
            return WT_EXIT_BAD_INPUT;
        }
    }
    for (size_t k = 0; k < *m; k++) {
        if (find_column(d, obj[k].name, &obj[k].col) != 0) {
            fprintf(stderr, "%s:1: unknown column '%s'; ", file, obj[k].name);
            list_columns(d);
            return WT_EXIT_BAD_INPUT;
        }
    }
    return 0;
}

/* The objectives of every row as numbers into val (n x m, row-major), the maximised ones
 * negated: the front code minimises. Returns 0 or an exit status. */
static int objective_values(const csv_doc *d, const char *file, const objective *obj, size_t m,
                            double *val)
{
    for (size_t i = 0; i < d->nrows; i++) {
        for (size_t k = 0; k < m; k++) {
            size_t cell = i * d->ncols + obj[k].col;
            double v;
            const char *why;
            if (parse_number(d->cells[cell], &v, &why) != 0) {
                fprintf(stderr, "%s:%zu: column %zu (%s): '%.*s%s' %s\n", file, d->cell_line[cell],
                        obj[k].col + 1, obj[k].name, NUMBER_MAX_CHARS, d->cells[cell],
                        strlen(d->cells[cell]) > NUMBER_MAX_CHARS ? "..." : "", why);
                return WT_EXIT_BAD_INPUT;
            }
            val[i * m + k] = obj[k].maximise ? -v : v;
        }
    }
    return 0;
}

/* The rows on the front (on[i]), with the header, as CSV to the file out or to stdout.
 * Returns 0 or an exit status. */
static int write_front(const csv_doc *d, const unsigned char *on, const char *out)
{
    table *t = table_new((const char *const *)d->header, d->ncols);
    int rc = WT_EXIT_OK;
    if (!t) {
        fprintf(stderr, "warptune front: out of memory\n");
        return WT_EXIT_INTERNAL;
    }
    for (size_t i = 0; i < d->nrows; i++) {
        if (on[i] && table_add_row(t, (const char *const *)(d->cells + i * d->ncols)) != 0) {
            fprintf(stderr, "warptune front: out of memory\n");
            rc = WT_EXIT_INTERNAL;
            goto done;
        }
    }
    if (out) {
        char err[1024];
        if (table_write_csv(t, out, err, sizeof err) != 0) {
            fprintf(stderr, "warptune front: %s\n", err);
            rc = WT_EXIT_INTERNAL;
        }
    } else if (table_write_csv_stream(t, stdout) != 0 || fflush(stdout) != 0) {
        fprintf(stderr, "warptune front: cannot write the output: %s\n", strerror(errno));
        rc = WT_EXIT_INTERNAL;
    }
done:
    table_free(t);
    return rc;
}

/* The summary on stderr: rows on the front, and for up to three objectives the hypervolume
 * against the worst finite value of each objective in the file. */
static void report_front(const double *val, size_t n, const objective *obj, size_t m, size_t nfront)
{
    double ref[SPACE_MAX_OBJECTIVES];
    size_t usable = 0;
    for (size_t k = 0; k < m; k++) {
        ref[k] = -INFINITY;
        for (size_t i = 0; i < n; i++) {
            double v = val[i * m + k];
            if (isfinite(v) && v > ref[k]) ref[k] = v;
        }
    }
    for (size_t i = 0; i < n; i++) {
        int ok = 1;
        for (size_t k = 0; k < m; k++)
            ok = ok && !isnan(val[i * m + k]);
        usable += (size_t)ok;
    }
    fprintf(stderr, "%zu of %zu rows on the front (%zu with a missing objective)\n", nfront, n,
            n - usable);
    if (m > 3) {
        fprintf(stderr, "hypervolume: not computed for more than 3 objectives\n");
        return;
    }
    if (!isfinite(ref[0]) || (m > 1 && !isfinite(ref[1])) || (m > 2 && !isfinite(ref[2]))) {
        fprintf(stderr, "hypervolume: not computed (an objective has no finite value)\n");
        return;
    }
    double hv = front_hypervolume(val, n, m, ref);
    char buf[64];
    table_format_double(hv, buf, sizeof buf);
    fprintf(stderr, "hypervolume %s against the reference point (", buf);
    for (size_t k = 0; k < m; k++) {
        table_format_double(obj[k].maximise ? -ref[k] : ref[k], buf, sizeof buf);
        fprintf(stderr, "%s%s=%s", k ? ", " : "", obj[k].name, buf);
    }
    fprintf(stderr, "), the worst value of each objective in the file (");
    for (size_t k = 0; k < m; k++)
        fprintf(stderr, "%s%s %s", k ? ", " : "", obj[k].name, obj[k].maximise ? "max" : "min");
    fprintf(stderr, ")\n");
}

int cli_front(int argc, char **argv)
{
    front_args a;
    objective obj[SPACE_MAX_OBJECTIVES];
    size_t m;
    int rc = parse_args(argc, argv, &a);
    if (rc >= 0) return rc;
    if ((rc = parse_objectives(&a, obj, &m)) != 0) return rc;
    csv_doc d;
    if ((rc = read_csv(a.file, &d)) != 0 || (rc = find_objective_columns(&d, a.file, obj, &m))) {
        doc_free(&d);
        return rc;
    }
    size_t n = d.nrows;
    double *val = malloc((n > 0 ? n * m : 1) * sizeof *val);
    unsigned char *on = malloc(n ? n : 1);
    if (!val || !on) {
        fprintf(stderr, "warptune front: out of memory\n");
        rc = WT_EXIT_INTERNAL;
    } else if ((rc = objective_values(&d, a.file, obj, m, val)) == 0) {
        size_t nfront = front_mark(val, n, m, on);
        rc = write_front(&d, on, a.out);
        if (rc == 0) report_front(val, n, obj, m, nfront);
    }
    free(val);
    free(on);
    doc_free(&d);
    return rc;
}
