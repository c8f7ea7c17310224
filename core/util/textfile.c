#include "core/util/textfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/util/hash.h"

#define CHUNK 65536

char *wt_read_stream(FILE *f, size_t *len)
{
    return wt_read_stream_max(f, len, SIZE_MAX);
}

char *wt_read_stream_max(FILE *f, size_t *len, size_t max)
{
    char *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n > max) { /* a device such as /dev/zero, or a FIFO that never ends, stops here */
            free(buf);
            errno = EFBIG;
            return NULL;
        }
        if (n + CHUNK + 1 > cap) {
            cap = cap ? cap * 2 : 2 * CHUNK;
            char *t = realloc(buf, cap);
            if (!t) {
                free(buf);
                errno = ENOMEM;
                return NULL;
            }
            buf = t;
        }
        size_t got = fread(buf + n, 1, CHUNK, f);
        n += got;
        if (got < CHUNK) break;
    }
    if (ferror(f)) { /* a folder opens, then fails to read (EISDIR): not an empty file */
        int saved = errno ? errno : EIO;
        free(buf);
        errno = saved;
        return NULL;
    }
    buf[n] = '\0';
    if (len) *len = n;
    return buf;
}

FILE *wt_open_regular(const char *path, const char **refused)
{
    *refused = NULL;
    int fd = open(path, O_RDONLY | O_NONBLOCK);
    if (fd < 0) return NULL;
    struct stat sb;
    int flags;
    if (fstat(fd, &sb) != 0 || (flags = fcntl(fd, F_GETFL)) < 0 ||
        (S_ISREG(sb.st_mode) && fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0)) {
        int saved = errno;
        close(fd);
        errno = saved;
        return NULL;
    }
    if (!S_ISREG(sb.st_mode)) {
        *refused = S_ISDIR(sb.st_mode) ? strerror(EISDIR) : "not a regular file";
        close(fd);
        return NULL;
    }
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        int saved = errno;
        close(fd);
        errno = saved;
    }
    return f;
}

char *wt_read_file(const char *path, size_t *len)
{
    return wt_read_file_max(path, len, SIZE_MAX);
}

char *wt_read_file_max(const char *path, size_t *len, size_t max)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = wt_read_stream_max(f, len, max);
    int saved = errno;
    fclose(f);
    errno = saved;
    return buf;
}

int wt_hash_stream(FILE *f, uint64_t *h)
{
    unsigned char buf[1 << 14];
    uint64_t v = *h;
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        v = wt_fnv1a(v, buf, n);
    if (ferror(f)) return -1;
    const unsigned char boundary = 0xFF;
    *h = wt_fnv1a(v, &boundary, 1);
    return 0;
}

int wt_json_refuse_nul(const char *name, const char *text, size_t len, char *err, size_t errlen)
{
    int line;
    size_t at = wt_find_nul(text, len, &line);
    if (at == len) return 0;
    snprintf(err, errlen, "%s:%d: NUL byte at offset %zu (expected JSON text)", name, line, at);
    return -1;
}

size_t wt_find_nul(const char *text, size_t len, int *line)
{
    const char *z = memchr(text, '\0', len);
    size_t at = z ? (size_t)(z - text) : len;
    if (line) *line = wt_line_at(text, at);
    return at;
}

int wt_line_at(const char *text, size_t at)
{
    int n = 1;
    for (const char *s = text; (s = memchr(s, '\n', (size_t)(text + at - s))) != NULL; s++)
        n++;
    return n;
}
