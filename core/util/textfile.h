/* Whole files as text: one NUL-terminated heap buffer per file. */
#ifndef WT_TEXTFILE_H
#define WT_TEXTFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Reads f from its current position to the end into a NUL-terminated heap buffer; the length
 * (without the NUL) goes to *len if len is not NULL. A read error ends the text as the end of
 * the file does: a caller that must tell them apart asks ferror(f). Returns NULL with errno
 * ENOMEM when memory runs out. */
char *wt_read_stream(FILE *f, size_t *len);

/* As wt_read_stream, but NULL with errno EFBIG once more than max bytes have been read (a file
 * that is far too large for its kind, or a device or FIFO that never ends). */
char *wt_read_stream_max(FILE *f, size_t *len, size_t max);
/* The most bytes of a workload, preset or space file: far more than any needs. */
#define WT_TEXT_MAX ((size_t)64 << 20)

/* Opens path for reading ("rb") only when it is a regular file. The open does not block, so a
 * FIFO is refused rather than waited on (a writer may never come), and neither is a device or
 * a folder read. Returns the stream; or NULL with *refused NULL and errno set when the file
 * cannot be opened; or NULL with *refused "Is a directory" or "not a regular file". */
FILE *wt_open_regular(const char *path, const char **refused);

/* Reads the file at path, as wt_read_stream does. Returns NULL, errno preserved, when the file
 * cannot be opened or memory runs out. */
char *wt_read_file(const char *path, size_t *len);
/* As wt_read_file, with the limit of wt_read_stream_max. */
char *wt_read_file_max(const char *path, size_t *len, size_t max);

/* Extends the FNV-1a chain *h (core/util/hash.h) by the bytes of f from its position to the end,
 * then by a file-boundary byte (so that bytes moved from one file to the next change a chain
 * over several files). Returns 0, or -1 on a read error (*h unchanged). */
int wt_hash_stream(FILE *f, uint64_t *h);

/* The byte offset of the first NUL byte in text[0, len), or len when there is none; its line
 * (1-based) goes to *line if line is not NULL. Text and JSON files may hold no NUL: as a C
 * string the text would end there, silently dropping the rest of the file. */
size_t wt_find_nul(const char *text, size_t len, int *line);

/* The line (1-based) of byte offset `at` of text: one more than the line feeds before it. */
int wt_line_at(const char *text, size_t at);

/* For a JSON file `name` read into text[0, len): 0 when it holds no NUL byte, else -1 with
 * "NAME:LINE: NUL byte at offset N (expected JSON text)" in err. */
int wt_json_refuse_nul(const char *name, const char *text, size_t len, char *err, size_t errlen);

#endif
