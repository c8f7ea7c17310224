/* The trace reader's application: a kernelslist.g, its kernel files and MemcpyHtoD commands
 * (docs/traces.md has the format). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/util/hash.h"
#include "core/util/textfile.h"
#include "core/trace/trace_internal.h"

/* ------------------------------------------------------------------ kernelslist ---- */

void trace_close(trace_app *t)
{
    if (!t) return;
    for (size_t i = 0; i < t->ncmds; i++)
        free(t->cmds[i].file);
    free(t->cmds);
    free(t->path);
    trace_opcodes_free(t->ops);
    free(t);
}

int trace_name_is_list(const char *name)
{
    const char *b = strrchr(name, '/');
    return !strncmp(b ? b + 1 : name, "kernelslist", 11);
}

const char *trace_path(const trace_app *t)
{
    return t->path;
}

size_t trace_kernel_count(const trace_app *t)
{
    return t->nkernels;
}

size_t trace_memcpy_count(const trace_app *t)
{
    return t->nmemcpy;
}

static int hash_file(const char *path, uint64_t *h, char *err, size_t errlen)
{
    const char *refused;
    FILE *f = wt_open_regular(path, &refused);
    if (!f)
        return trace_failf(err, errlen, "%s: cannot open: %s", path,
                           refused ? refused : strerror(errno));
    int bad = wt_hash_stream(f, h);
    fclose(f);
    return bad ? trace_failf(err, errlen, "%s: read error", path) : 0;
}

int trace_content_hash(const trace_app *t, uint64_t *out, char *err, size_t errlen)
{
    uint64_t h = WT_FNV_INIT;
    if (hash_file(t->path, &h, err, errlen)) return -1;
    for (size_t i = 0; i < t->ncmds; i++)
        if (t->cmds[i].kind == TCMD_KERNEL && hash_file(t->cmds[i].file, &h, err, errlen))
            return -1;
    *out = h;
    return 0;
}

/* "MemcpyHtoD,0xADDR,BYTES" */
static int parse_memcpy(const char *s, tcmd *c)
{
    const char *p = strchr(s, ',');
    if (!p) return -1;
    p++;
    const char *q = strchr(p, ',');
    if (!q || q == p) return -1;
    char buf[40];
    if ((size_t)(q - p) >= sizeof buf) return -1;
    memcpy(buf, p, (size_t)(q - p));
    buf[q - p] = '\0';
    const char *b = buf;
    if (lex_hex(&b, &c->addr) || *skip_ws(b)) return -1;
    const char *r = q + 1;
    if (lex_dec(&r, UINT64_MAX, &c->bytes) || *skip_ws(r)) return -1;
    return 0;
}

int trace_open(const char *kernelslist, trace_app **out, char *err, size_t errlen)
{
    *out = NULL;
    trace_app *t = calloc(1, sizeof *t);
    if (!t || !(t->path = strdup(kernelslist))) {
        free(t);
        return trace_failf(err, errlen, "out of memory");
    }
    if (trace_opcodes_load(&t->ops, err, errlen) != 0) {
        trace_close(t);
        return -1;
    }
    size_t dirlen = 0;
    const char *slash = strrchr(kernelslist, '/');
    if (slash) dirlen = (size_t)(slash - kernelslist) + 1;
    tfile f;
    if (tfile_open(&f, kernelslist, err, errlen) != 0) {
        trace_close(t);
        return -1;
    }
    size_t cap = 0;
    long n;
    int rc = 0;
    while ((n = tfile_getline(&f, err, errlen)) >= 0) {
        while (n > 0 && (f.line[n - 1] == ' ' || f.line[n - 1] == '\t'))
            f.line[--n] = '\0';
        const char *s = skip_ws(f.line);
        if (!*s) continue;
        tcmd c = {0};
        c.line = (int)f.lineno;
        if (!strncmp(s, "MemcpyHtoD", 10) || !strncmp(s, "MemcpyDtoH", 10)) {
            if (parse_memcpy(s, &c) != 0) {
                rc = trace_failf(err, errlen, "%s:%ld: expected %.10s,0xADDRESS,BYTES", kernelslist,
                                 f.lineno, s);
                break;
            }
            c.kind = TCMD_MEMCPY;
            if (s[6] == 'D') continue; /* device to host: nothing to simulate */
            t->nmemcpy++;
        } else if (!strncmp(s, "kernel", 6)) {
            c.kind = TCMD_KERNEL;
            size_t len = strlen(s);
            int abs = s[0] == '/';
            c.file = malloc((abs ? 0 : dirlen) + len + 1);
            if (!c.file) {
                rc = trace_failf(err, errlen, "out of memory");
                break;
            }
            if (!abs) memcpy(c.file, kernelslist, dirlen);
            memcpy(c.file + (abs ? 0 : dirlen), s, len + 1);
            const char *refused;
            FILE *k = wt_open_regular(c.file, &refused);
            if (!k) {
                rc =
                    trace_failf(err, errlen, "%s:%ld: cannot open kernel trace %s: %s", kernelslist,
                                f.lineno, c.file, refused ? refused : strerror(errno));
                free(c.file);
                break;
            }
            fclose(k);
            t->nkernels++;
        } else {
            char q[64];
            rc = trace_failf(err, errlen,
                             "%s:%ld: unknown command %s (expected a kernel file or MemcpyHtoD)",
                             kernelslist, f.lineno, quote(s, q, sizeof q));
            break;
        }
        if (t->ncmds == cap) {
            cap = cap ? cap * 2 : 16;
            tcmd *cc = realloc(t->cmds, cap * sizeof *cc);
            if (!cc) {
                free(c.file);
                rc = trace_failf(err, errlen, "out of memory");
                break;
            }
            t->cmds = cc;
        }
        t->cmds[t->ncmds++] = c;
    }
    if (n == -1) rc = -1;
    tfile_close(&f);
    if (rc == 0 && t->nkernels == 0)
        rc =
            trace_failf(err, errlen, "%s: no kernel to run (no kernel-N.traceg line)", kernelslist);
    if (rc != 0) {
        trace_close(t);
        return -1;
    }
    *out = t;
    return 0;
}
