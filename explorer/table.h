/* Writing result tables: CSV through libcsv (RFC 4180 quoting, what pandas, R and gnuplot
 * read), always to a temporary file in the same folder renamed into place, so a reader never
 * sees a half-written file. */
#ifndef WT_TABLE_H
#define WT_TABLE_H

#include <stddef.h>

typedef struct table table;

/* A table with the given column names. */
table *table_new(const char *const *columns, size_t ncols);
void table_free(table *t);
/* Appends a row of ncols cells (strings; NULL writes an empty cell). Returns 0 or -1. */
int table_add_row(table *t, const char *const *cells);
size_t table_rows(const table *t);
/* Writes the table as CSV to path (temporary file + rename). Returns 0, or -1 with err. */
int table_write_csv(const table *t, const char *path, char *err, size_t errlen);

/* Formats a double so that it reads back exactly ("%.17g", with "nan"/"inf" spelt out). */
void table_format_double(double v, char *buf, size_t buflen);

/* Writes text to path through a temporary file and rename. Returns 0, or -1 with err. */
int write_file_atomic(const char *path, const char *text, size_t len, char *err, size_t errlen);

/* Appended: writes the table as CSV to an open stream (no atomicity). Returns 0 or -1. */
#include <stdio.h>
int table_write_csv_stream(const table *t, FILE *f);

#endif
