/* One text file of a trace, plain or xz-compressed (recognised by its magic bytes), read a
 * line at a time; and the error formatting the reader's files share. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/trace/trace_internal.h"
#include "core/util/textfile.h"

#define XZ_IN  (1u << 16)
#define XZ_OUT (1u << 18)

int trace_failf(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* ------------------------------------------------------------------ text files ---- */

int tfile_open(tfile *t, const char *path, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    t->path = path;
    const char *refused;
    t->f = wt_open_regular(path, &refused);
    if (!t->f)
        return trace_failf(err, errlen, "%s: cannot open: %s", path,
                           refused ? refused : strerror(errno));
    unsigned char magic[6] = {0};
    size_t n = fread(magic, 1, sizeof magic, t->f);
    static const unsigned char XZ_MAGIC[6] = {0xFD, '7', 'z', 'X', 'Z', 0x00};
    t->xz = n == sizeof magic && memcmp(magic, XZ_MAGIC, sizeof magic) == 0;
    rewind(t->f);
    t->out = malloc(XZ_OUT);
    if (t->xz) {
        lzma_stream init = LZMA_STREAM_INIT;
        t->strm = init;
        t->in = malloc(XZ_IN);
        if (!t->in || !t->out ||
            lzma_stream_decoder(&t->strm, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK) {
            tfile_close(t);
            return trace_failf(err, errlen, "%s: cannot start the xz decoder", path);
        }
    }
    t->cap = 256;
    t->line = malloc(t->cap);
    if (!t->line || !t->out) {
        tfile_close(t);
        return trace_failf(err, errlen, "out of memory");
    }
    return 0;
}

void tfile_close(tfile *t)
{
    if (t->f) fclose(t->f);
    if (t->xz) lzma_end(&t->strm);
    free(t->in);
    free(t->out);
    free(t->line);
    memset(t, 0, sizeof *t);
}

/* xz: refills the output buffer. Returns 1, 0 at the end of the stream, -1 with err. */
static int xz_fill(tfile *t, char *err, size_t errlen)
{
    if (t->out_eof) return 0;
    t->strm.next_out = t->out;
    t->strm.avail_out = XZ_OUT;
    while (t->strm.avail_out == XZ_OUT) {
        if (t->strm.avail_in == 0 && !t->in_eof) {
            size_t n = fread(t->in, 1, XZ_IN, t->f);
            if (n < XZ_IN) {
                if (ferror(t->f))
                    return trace_failf(err, errlen, "%s:%ld: read error", t->path, t->lineno + 1);
                t->in_eof = 1;
            }
            t->strm.next_in = t->in;
            t->strm.avail_in = n;
        }
        lzma_ret r = lzma_code(&t->strm, t->in_eof ? LZMA_FINISH : LZMA_RUN);
        if (r == LZMA_STREAM_END) {
            t->out_eof = 1;
            break;
        }
        if (r != LZMA_OK)
            return trace_failf(err, errlen, "%s:%ld: corrupt xz data (liblzma error %d)", t->path,
                               t->lineno + 1, (int)r);
        if (t->in_eof && t->strm.avail_in == 0 && t->strm.avail_out == XZ_OUT)
            return trace_failf(err, errlen, "%s:%ld: truncated xz data", t->path, t->lineno + 1);
    }
    t->out_pos = 0;
    t->out_len = XZ_OUT - t->strm.avail_out;
    return t->out_len > 0 || !t->out_eof ? 1 : 0;
}

static int grow_line(tfile *t, size_t need, char *err, size_t errlen)
{
    if (need <= t->cap) return 0;
    if (need > TRACE_LINE_MAX)
        return trace_failf(err, errlen, "%s:%ld: line longer than %u bytes", t->path, t->lineno,
                           TRACE_LINE_MAX);
    size_t cap = t->cap;
    while (cap < need)
        cap *= 2;
    char *l = realloc(t->line, cap);
    if (!l) return trace_failf(err, errlen, "out of memory");
    t->line = l;
    t->cap = cap;
    return 0;
}

/* Plain files: refills the output buffer. Returns 1, 0 at the end of the file, -1 with err. */
static int plain_fill(tfile *t, char *err, size_t errlen)
{
    size_t n = fread(t->out, 1, XZ_OUT, t->f);
    if (n == 0 && ferror(t->f))
        return trace_failf(err, errlen, "%s:%ld: read error", t->path, t->lineno);
    t->out_pos = 0;
    t->out_len = n;
    return n > 0;
}

long tfile_getline(tfile *t, char *err, size_t errlen)
{
    size_t len = 0;
    int any = 0;
    t->lineno++;
    for (;;) {
        if (t->out_pos == t->out_len) {
            int r = t->xz ? xz_fill(t, err, errlen) : plain_fill(t, err, errlen);
            if (r < 0) return -1;
            if (r == 0) break;
        }
        const uint8_t *s = t->out + t->out_pos;
        size_t avail = t->out_len - t->out_pos;
        const uint8_t *nl = memchr(s, '\n', avail);
        size_t take = nl ? (size_t)(nl - s) + 1 : avail;
        if (grow_line(t, len + take + 1, err, errlen)) return -1;
        memcpy(t->line + len, s, take);
        len += take;
        t->out_pos += take;
        any = 1;
        if (nl) break;
    }
    t->line[len] = '\0';
    if (!any) {
        t->lineno--;
        return -2;
    }
    while (len > 0 && (t->line[len - 1] == '\n' || t->line[len - 1] == '\r'))
        t->line[--len] = '\0';
    if (memchr(t->line, '\0', len))
        return trace_failf(err, errlen, "%s:%ld: NUL byte in a text line", t->path, t->lineno);
    return (long)len;
}
