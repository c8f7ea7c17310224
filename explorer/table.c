/* Result tables as CSV (libcsv quoting) and atomic file replacement: write a temporary file in
 * the same folder, flush and sync it, then rename it over the target. */
#include "explorer/table.h"

#include <csv.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/util/outfile.h"

struct table {
    size_t ncols;
    char **header; /* ncols strings */
    char **cells;  /* rows * ncols strings, NULL for an empty cell */
    size_t rows, cap;
};

static char *dup_str(const char *s)
{
    if (!s) return NULL;
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

table *table_new(const char *const *columns, size_t ncols)
{
    table *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->ncols = ncols;
    t->header = calloc(ncols ? ncols : 1, sizeof *t->header);
    if (!t->header) {
        free(t);
        return NULL;
    }
    for (size_t c = 0; c < ncols; c++) {
        t->header[c] = dup_str(columns[c] ? columns[c] : "");
        if (!t->header[c]) {
            table_free(t);
            return NULL;
        }
    }
    return t;
}

void table_free(table *t)
{
    if (!t) return;
    for (size_t c = 0; c < t->ncols; c++)
        free(t->header[c]);
    free(t->header);
    for (size_t i = 0; i < t->rows * t->ncols; i++)
        free(t->cells[i]);
    free(t->cells);
    free(t);
}

int table_add_row(table *t, const char *const *cells)
{
    if (!t) return -1;
    if (t->rows == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 16;
        char **c = realloc(t->cells, cap * (t->ncols ? t->ncols : 1) * sizeof *c);
        if (!c) return -1;
        t->cells = c;
        t->cap = cap;
    }
    char **row = t->cells + t->rows * t->ncols;
    for (size_t c = 0; c < t->ncols; c++) {
        row[c] = NULL;
        if (cells[c] && !(row[c] = dup_str(cells[c]))) {
            for (size_t d = 0; d < c; d++)
                free(row[d]);
            return -1;
        }
    }
    t->rows++;
    return 0;
}

size_t table_rows(const table *t)
{
    return t ? t->rows : 0;
}

/* A cell needs quoting when it holds the delimiter, a quote, a line break, or leading or
 * trailing blanks (which some readers strip). */
static int needs_quotes(const char *s, size_t n)
{
    if (n == 0) return 0;
    if (s[0] == ' ' || s[0] == '\t' || s[n - 1] == ' ' || s[n - 1] == '\t') return 1;
    return strpbrk(s, ",\"\r\n") != NULL;
}

static int write_cell(FILE *f, const char *s)
{
    if (!s) return 0;
    size_t n = strlen(s);
    if (needs_quotes(s, n)) return csv_fwrite(f, s, n) == 0 ? 0 : -1;
    return fwrite(s, 1, n, f) == n ? 0 : -1;
}

static int write_row(FILE *f, char *const *cells, size_t ncols)
{
    for (size_t c = 0; c < ncols; c++) {
        if (c && fputc(',', f) == EOF) return -1;
        if (write_cell(f, cells[c]) != 0) return -1;
    }
    return fputc('\n', f) == EOF ? -1 : 0;
}

int table_write_csv_stream(const table *t, FILE *f)
{
    if (write_row(f, t->header, t->ncols) != 0) return -1;
    for (size_t r = 0; r < t->rows; r++)
        if (write_row(f, t->cells + r * t->ncols, t->ncols) != 0) return -1;
    return 0;
}

typedef int (*writer_fn)(FILE *f, const void *data);

/* Opens path.tmp.<pid>, lets fn fill it, flushes, syncs and renames it over path. A link is
 * followed to its file and a device or FIFO is written in place (wt_out_target). */
static int write_atomic(const char *path, writer_fn fn, const void *data, char *err, size_t errlen)
{
    int direct;
    char *target = wt_out_target(path, &direct, err, errlen);
    if (!target) return -1;
    size_t plen = strlen(target);
    char *tmp = malloc(plen + 48);
    if (!tmp) {
        snprintf(err, errlen, "%s: out of memory", path);
        free(target);
        return -1;
    }
    snprintf(tmp, plen + 48, "%s.tmp.%ld", target, (long)getpid());
    const char *name = direct ? target : tmp;
    FILE *f = fopen(name, "wb");
    if (!f) {
        snprintf(err, errlen, "%s: write failed: %s", path, strerror(errno));
        free(tmp);
        free(target);
        return -1;
    }
    int rc = fn(f, data);
    int saved = errno;
    if (rc == 0 && fflush(f) != 0) rc = -1, saved = errno;
    if (rc == 0 && !direct && fsync(fileno(f)) != 0) rc = -1, saved = errno;
    if (fclose(f) != 0 && rc == 0) rc = -1, saved = errno;
    if (rc != 0) {
        snprintf(err, errlen, "%s: write failed: %s", path, strerror(saved));
        if (!direct) remove(tmp);
    } else if (!direct && rename(tmp, target) != 0) {
        snprintf(err, errlen, "%s: cannot rename into place: %s", path, strerror(errno));
        remove(tmp);
        rc = -1;
    }
    free(tmp);
    free(target);
    return rc;
}

static int write_table(FILE *f, const void *data)
{
    return table_write_csv_stream(data, f);
}

int table_write_csv(const table *t, const char *path, char *err, size_t errlen)
{
    if (!t) {
        snprintf(err, errlen, "%s: no table", path);
        return -1;
    }
    return write_atomic(path, write_table, t, err, errlen);
}

void table_format_double(double v, char *buf, size_t buflen)
{
    if (!buf || buflen == 0) return;
    if (isnan(v))
        snprintf(buf, buflen, "nan");
    else if (isinf(v))
        snprintf(buf, buflen, v > 0 ? "inf" : "-inf");
    else {
        /* the shortest of 15, 16 or 17 significant digits that reads back as v */
        for (int digits = 15; digits <= 17; digits++) {
            snprintf(buf, buflen, "%.*g", digits, v);
            if (digits == 17 || strtod(buf, NULL) == v) break;
        }
    }
}

typedef struct text_span {
    const char *text;
    size_t len;
} text_span;

static int write_text(FILE *f, const void *data)
{
    const text_span *s = data;
    return fwrite(s->text, 1, s->len, f) == s->len ? 0 : -1;
}

int write_file_atomic(const char *path, const char *text, size_t len, char *err, size_t errlen)
{
    text_span s = {text ? text : "", text ? len : 0};
    return write_atomic(path, write_text, &s, err, errlen);
}
