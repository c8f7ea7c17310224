/* The trace reader's files: kernelslist.g, kernel headers and thread blocks, plain or
 * xz-compressed, read a line at a time (docs/traces.md has the format). */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/trace_internal.h"

#define XZ_IN  (1u << 16)
#define XZ_OUT (1u << 18)

static int failf(char *err, size_t errlen, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static int failf(char *err, size_t errlen, const char *fmt, ...)
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
    t->f = fopen(path, "rb");
    if (!t->f) return failf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
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
            return failf(err, errlen, "%s: cannot start the xz decoder", path);
        }
    }
    t->cap = 256;
    t->line = malloc(t->cap);
    if (!t->line || !t->out) {
        tfile_close(t);
        return failf(err, errlen, "out of memory");
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
                    return failf(err, errlen, "%s:%ld: read error", t->path, t->lineno + 1);
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
            return failf(err, errlen, "%s:%ld: corrupt xz data (liblzma error %d)", t->path,
                         t->lineno + 1, (int)r);
        if (t->in_eof && t->strm.avail_in == 0 && t->strm.avail_out == XZ_OUT)
            return failf(err, errlen, "%s:%ld: truncated xz data", t->path, t->lineno + 1);
    }
    t->out_pos = 0;
    t->out_len = XZ_OUT - t->strm.avail_out;
    return t->out_len > 0 || !t->out_eof ? 1 : 0;
}

static int grow_line(tfile *t, size_t need, char *err, size_t errlen)
{
    if (need <= t->cap) return 0;
    if (need > TRACE_LINE_MAX)
        return failf(err, errlen, "%s:%ld: line longer than %u bytes", t->path, t->lineno,
                     TRACE_LINE_MAX);
    size_t cap = t->cap;
    while (cap < need)
        cap *= 2;
    char *l = realloc(t->line, cap);
    if (!l) return failf(err, errlen, "out of memory");
    t->line = l;
    t->cap = cap;
    return 0;
}

/* Plain files: refills the output buffer. Returns 1, 0 at the end of the file, -1 with err. */
static int plain_fill(tfile *t, char *err, size_t errlen)
{
    size_t n = fread(t->out, 1, XZ_OUT, t->f);
    if (n == 0 && ferror(t->f)) return failf(err, errlen, "%s:%ld: read error", t->path, t->lineno);
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
        return failf(err, errlen, "%s:%ld: NUL byte in a text line", t->path, t->lineno);
    return (long)len;
}

/* ------------------------------------------------------------------- lexing ---- */

static const char *skip_ws(const char *p)
{
    while (*p == ' ' || *p == '\t')
        p++;
    return p;
}

static int is_end(const char *p)
{
    return *p == '\0' || *p == ' ' || *p == '\t';
}

/* Unsigned decimal. Returns 0 and advances, or -1. */
static int lex_dec(const char **pp, uint64_t max, uint64_t *out)
{
    const char *p = skip_ws(*pp);
    uint64_t v = 0;
    if (*p < '0' || *p > '9') return -1;
    while (*p >= '0' && *p <= '9') {
        uint64_t d = (uint64_t)(*p++ - '0');
        if (v > (max - d) / 10) return -1;
        v = v * 10 + d;
    }
    if (!is_end(p)) return -1;
    *out = v;
    *pp = p;
    return 0;
}

/* Signed decimal in the int64 range. */
static int lex_sdec(const char **pp, int64_t *out)
{
    const char *p = skip_ws(*pp);
    int neg = *p == '-';
    if (*p == '-' || *p == '+') p++;
    uint64_t v;
    if (*p < '0' || *p > '9') return -1;
    if (lex_dec(&p, neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX, &v)) return -1;
    *out = neg ? (int64_t)(0 - v) : (int64_t)v;
    *pp = p;
    return 0;
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Hexadecimal with or without 0x, at most 16 digits. */
static int lex_hex(const char **pp, uint64_t *out)
{
    const char *p = skip_ws(*pp);
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) p += 2;
    uint64_t v = 0;
    int n = 0;
    for (int d; (d = hexval(*p)) >= 0; p++) {
        if (++n > 16) return -1;
        v = v << 4 | (uint64_t)d;
    }
    if (n == 0 || !is_end(p)) return -1;
    *out = v;
    *pp = p;
    return 0;
}

/* A register token R<n>, n <= 255. */
static int lex_reg(const char **pp, unsigned *out)
{
    const char *p = skip_ws(*pp);
    if (*p != 'R') return -1;
    p++;
    uint64_t v;
    if (lex_dec(&p, 255, &v)) return -1;
    *out = (unsigned)v;
    *pp = p;
    return 0;
}

/* The next whitespace-delimited token. */
static size_t lex_token(const char **pp, const char **start)
{
    const char *p = skip_ws(*pp);
    *start = p;
    while (!is_end(p))
        p++;
    *pp = p;
    return (size_t)(p - *start);
}

/* A short quote of the text at p, for messages. */
static const char *quote(const char *p, char *buf, size_t n)
{
    p = skip_ws(p);
    if (!*p) return "the end of the line";
    size_t len = 0;
    while (p[len] && !is_end(p + len) && len < 24)
        len++;
    snprintf(buf, n, "'%.*s%s'", (int)len, p, p[len] && !is_end(p + len) ? "..." : "");
    return buf;
}

/* ---------------------------------------------------------------- registers ---- */

int trace_reg_slot(unsigned n)
{
    if (n >= 255) return -1;
    if (n < WT_MAX_REGS) return (int)n;
    if (n >= 240 && n < 240 + WT_MAX_PREDS) return WT_SB_PRED((int)n - 240);
    return WT_MAX_REGS + WT_MAX_PREDS +
           (int)((n - WT_MAX_REGS) % (128 - WT_MAX_REGS - WT_MAX_PREDS));
}

unsigned trace_slot_reg(unsigned slot)
{
    if (slot < WT_MAX_REGS) return slot;
    if (slot < WT_MAX_REGS + WT_MAX_PREDS) return 240 + slot - WT_MAX_REGS;
    return WT_MAX_REGS + (slot - WT_MAX_REGS - WT_MAX_PREDS);
}

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
        return failf(err, errlen, "out of memory");
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
        char *s = f.line;
        while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
            s[--n] = '\0';
        s = (char *)skip_ws(s);
        if (!*s) continue;
        tcmd c = {0};
        c.line = (int)f.lineno;
        if (!strncmp(s, "MemcpyHtoD", 10) || !strncmp(s, "MemcpyDtoH", 10)) {
            if (parse_memcpy(s, &c) != 0) {
                rc = failf(err, errlen, "%s:%ld: expected %.10s,0xADDRESS,BYTES", kernelslist,
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
                rc = failf(err, errlen, "out of memory");
                break;
            }
            if (!abs) memcpy(c.file, kernelslist, dirlen);
            memcpy(c.file + (abs ? 0 : dirlen), s, len + 1);
            FILE *k = fopen(c.file, "rb");
            if (!k) {
                rc = failf(err, errlen, "%s:%ld: cannot open kernel trace %s: %s", kernelslist,
                           f.lineno, c.file, strerror(errno));
                free(c.file);
                break;
            }
            fclose(k);
            t->nkernels++;
        } else {
            char q[64];
            rc = failf(err, errlen,
                       "%s:%ld: unknown command %s (expected a kernel file or MemcpyHtoD)",
                       kernelslist, f.lineno, quote(s, q, sizeof q));
            break;
        }
        if (t->ncmds == cap) {
            cap = cap ? cap * 2 : 16;
            tcmd *cc = realloc(t->cmds, cap * sizeof *cc);
            if (!cc) {
                free(c.file);
                rc = failf(err, errlen, "out of memory");
                break;
            }
            t->cmds = cc;
        }
        t->cmds[t->ncmds++] = c;
    }
    if (n == -1) rc = -1;
    tfile_close(&f);
    if (rc == 0 && t->nkernels == 0)
        rc = failf(err, errlen, "%s: no kernel to run (no kernel-N.traceg line)", kernelslist);
    if (rc != 0) {
        trace_close(t);
        return -1;
    }
    *out = t;
    return 0;
}

/* ------------------------------------------------------------------ kernel header ---- */

void kreader_close(kreader *r)
{
    if (r->open) tfile_close(&r->f);
    free(r->h.branches);
    memset(r, 0, sizeof *r);
}

static int herr(kreader *r, char *err, size_t errlen, const char *what)
{
    return failf(err, errlen, "%s:%ld: %s", r->f.path, r->f.lineno, what);
}

/* "(x,y,z)" after '=' */
static int parse_dim(const char *p, uint32_t d[3])
{
    p = skip_ws(p);
    if (*p++ != '(') return -1;
    for (int i = 0; i < 3; i++) {
        p = skip_ws(p);
        uint64_t v = 0;
        if (*p < '0' || *p > '9') return -1;
        while (*p >= '0' && *p <= '9') {
            v = v * 10 + (uint64_t)(*p++ - '0');
            if (v > 0x7FFFFFFF) return -1;
        }
        if (v == 0) return -1;
        d[i] = (uint32_t)v;
        p = skip_ws(p);
        if (*p++ != (i < 2 ? ',' : ')')) return -1;
    }
    return *skip_ws(p) ? -1 : 0;
}

/* The value of "-key words = value": the text after '='. */
static const char *header_value(const char *line)
{
    const char *eq = strchr(line, '=');
    return eq ? skip_ws(eq + 1) : NULL;
}

static int key_is(const char *line, const char *key)
{
    size_t n = strlen(key);
    if (strncmp(line + 1, key, n)) return 0;
    const char *p = skip_ws(line + 1 + n);
    return *p == '=';
}

static int header_line(kreader *r, const char *s, char *err, size_t errlen)
{
    kheader *h = &r->h;
    const char *v = header_value(s);
    uint64_t x;
    if (!v) return herr(r, err, errlen, "expected '-name = value' in the kernel header");
    if (key_is(s, "kernel name")) {
        snprintf(h->name, sizeof h->name, "%s", v);
    } else if (key_is(s, "kernel id")) {
        if (lex_dec(&v, 0x7FFFFFFF, &x) || *skip_ws(v))
            return herr(r, err, errlen, "-kernel id: expected a number");
        h->id = (int)x;
    } else if (key_is(s, "grid dim")) {
        if (parse_dim(v, h->grid))
            return herr(r, err, errlen, "-grid dim: expected (x,y,z) of positive numbers");
    } else if (key_is(s, "block dim")) {
        if (parse_dim(v, h->block))
            return herr(r, err, errlen, "-block dim: expected (x,y,z) of positive numbers");
    } else if (key_is(s, "shmem")) {
        if (lex_dec(&v, 0xFFFFFFFF, &x) || *skip_ws(v))
            return herr(r, err, errlen, "-shmem: expected a byte count");
        h->shmem = (uint32_t)x;
    } else if (key_is(s, "nregs")) {
        if (lex_dec(&v, 255, &x) || *skip_ws(v))
            return herr(r, err, errlen, "-nregs: expected a register count (0 to 255)");
        h->nregs = (uint32_t)x;
    } else if (key_is(s, "binary version")) {
        if (lex_dec(&v, 1000, &x) || *skip_ws(v))
            return herr(r, err, errlen, "-binary version: expected a number");
        h->binary_version = (int)x;
        if (!trace_opcodes_supports(r->ops, h->binary_version)) {
            char m[160];
            snprintf(m, sizeof m,
                     "-binary version = %d: no opcode table for it (supported: 35, 60, 61, 70, "
                     "75, 80, 86)",
                     h->binary_version);
            return herr(r, err, errlen, m);
        }
    } else if (key_is(s, "cuda stream id")) {
        if (lex_dec(&v, UINT64_MAX, &x) || *skip_ws(v))
            return herr(r, err, errlen, "-cuda stream id: expected a number");
        h->stream = x;
    } else if (key_is(s, "shmem base_addr")) {
        if (lex_hex(&v, &h->shmem_base) || *skip_ws(v))
            return herr(r, err, errlen, "-shmem base_addr: expected a hexadecimal address");
    } else if (key_is(s, "local mem base_addr")) {
        if (lex_hex(&v, &h->local_base) || *skip_ws(v))
            return herr(r, err, errlen, "-local mem base_addr: expected a hexadecimal address");
    } else if (key_is(s, "accelsim tracer version")) {
        if (lex_dec(&v, 1000, &x) || *skip_ws(v) || x < 3 || x > 5)
            return herr(r, err, errlen,
                        "-accelsim tracer version: expected 3, 4 or 5 (the versions this "
                        "reader knows)");
        h->tracer_version = (int)x;
    } else if (key_is(s, "enable lineinfo")) {
        if (lex_dec(&v, 1, &x) || *skip_ws(v))
            return herr(r, err, errlen, "-enable lineinfo: expected 0 or 1");
        h->lineinfo = (int)x;
    } else if (key_is(s, "warptune branch")) {
        uint64_t pc, tg, rc;
        if (lex_hex(&v, &pc) || lex_hex(&v, &tg) || lex_hex(&v, &rc) || *skip_ws(v))
            return herr(r, err, errlen, "-warptune branch: expected PC TARGET RECONV in hex");
        if (h->nbranches == h->capbranches) {
            size_t cap = h->capbranches ? h->capbranches * 2 : 16;
            tbranch *b = realloc(h->branches, cap * sizeof *b);
            if (!b) return failf(err, errlen, "out of memory");
            h->branches = b;
            h->capbranches = cap;
        }
        /* shifted once the binary version is known */
        h->branches[h->nbranches++] = (tbranch){(uint32_t)pc, (uint32_t)tg, (uint32_t)rc};
    }
    /* other header lines (-nvbit version, later additions) carry nothing to simulate */
    return 0;
}

static int cmp_branch(const void *a, const void *b)
{
    uint32_t x = ((const tbranch *)a)->pc, y = ((const tbranch *)b)->pc;
    return x < y ? -1 : x > y;
}

int kreader_open(kreader *r, const char *path, const trace_opcodes *ops, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    r->ops = ops;
    if (tfile_open(&r->f, path, err, errlen) != 0) return -1;
    r->open = 1;
    long n;
    while ((n = tfile_getline(&r->f, err, errlen)) >= 0) {
        const char *s = skip_ws(r->f.line);
        if (!*s) continue;
        if (*s == '-') {
            if (header_line(r, s, err, errlen)) return -1;
            continue;
        }
        if (*s == '#') {
            if (!strncmp(s, "#BEGIN_TB", 9)) r->pushed = 1;
            break; /* the header ends at the first '#' line */
        }
        return herr(r, err, errlen, "expected a '-name = value' header line before the blocks");
    }
    if (n == -1) return -1;
    kheader *h = &r->h;
    const char *missing = !h->grid[0]          ? "-grid dim"
                          : !h->block[0]       ? "-block dim"
                          : !h->binary_version ? "-binary version"
                          : !h->tracer_version ? "-accelsim tracer version"
                                               : NULL;
    if (missing)
        return failf(err, errlen, "%s:%ld: the kernel header has no %s line", path, r->f.lineno,
                     missing);
    uint64_t ctas = (uint64_t)h->grid[0] * h->grid[1] * h->grid[2];
    uint64_t threads = (uint64_t)h->block[0] * h->block[1] * h->block[2];
    if (ctas > 0xFFFFFFFFu || threads > 4096)
        return failf(err, errlen, "%s: grid of %llu blocks of %llu threads is too large", path,
                     (unsigned long long)ctas, (unsigned long long)threads);
    h->nctas = (uint32_t)ctas;
    h->warps_per_block = (uint32_t)((threads + WT_WARP_SIZE - 1) / WT_WARP_SIZE);
    h->pc_shift = h->binary_version >= 70 ? 4 : 3;
    for (size_t i = 0; i < h->nbranches; i++) {
        h->branches[i].pc >>= h->pc_shift;
        h->branches[i].target >>= h->pc_shift;
        h->branches[i].reconv >>= h->pc_shift;
    }
    if (h->nbranches) qsort(h->branches, h->nbranches, sizeof *h->branches, cmp_branch);
    if (!h->name[0]) {
        const char *b = strrchr(path, '/');
        snprintf(h->name, sizeof h->name, "%s", b ? b + 1 : path);
    }
    return 0;
}

/* ------------------------------------------------------------------ thread blocks ---- */

_Static_assert(sizeof(tinst) == 24, "a decoded instruction stays small");

void ttb_free(ttb *b)
{
    free(b->insts);
    free(b->pool);
    free(b->wfirst);
    free(b->wcount);
    free(b->wseen);
    memset(b, 0, sizeof *b);
}

static int lerr(kreader *r, char *err, size_t errlen, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static int lerr(kreader *r, char *err, size_t errlen, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return failf(err, errlen, "%s:%ld: %s", r->f.path, r->f.lineno, msg);
}

static int pool_reserve(ttb *b, size_t n)
{
    if (b->npool + n <= b->cappool) return 0;
    size_t cap = b->cappool ? b->cappool : 1024;
    while (cap < b->npool + n)
        cap *= 2;
    uint32_t *p = realloc(b->pool, cap * sizeof *p);
    if (!p) return -1;
    b->pool = p;
    b->cappool = cap;
    return 0;
}

/* The class and width of an opcode token, through the reader's cache. */
static int opcode_lookup(kreader *r, const char *name, size_t len, int *width)
{
    uint32_t hsh = 2166136261u;
    for (size_t i = 0; i < len; i++)
        hsh = (hsh ^ (uint8_t)name[i]) * 16777619u;
    size_t ncache = sizeof r->cache / sizeof r->cache[0];
    struct opcache *c = &r->cache[hsh % ncache];
    if (len < sizeof c->name) {
        if (c->used && !strncmp(c->name, name, len) && c->name[len] == '\0') {
            *width = c->width;
            return c->cls;
        }
    }
    int cls = trace_opcode_class(r->ops, r->h.binary_version, name, len);
    *width = trace_opcode_width(name, len);
    if (len < sizeof c->name) {
        memcpy(c->name, name, len);
        c->name[len] = '\0';
        c->cls = (int16_t)cls;
        c->width = (uint8_t)(*width > 255 ? 255 : *width);
        c->used = 1;
    }
    return cls;
}

static int add_slot(inst_info *in, int slot, int dst)
{
    if (slot < 0) return 0;
    if (dst) {
        in->dst[in->ndst++] = (uint8_t)slot;
        return 0;
    }
    for (int j = 0; j < in->nsrc; j++)
        if (in->src[j] == slot) return 0;
    in->src[in->nsrc++] = (uint8_t)slot;
    return 0;
}

static int is_mem_class(int c)
{
    return (c >= IC_LD_GLOBAL && c <= IC_ATOMIC) || c == TRACE_OP_LD_GENERIC ||
           c == TRACE_OP_ST_GENERIC;
}

/* One instruction line into b. */
static int parse_inst(kreader *r, ttb *b, const char *s, char *err, size_t errlen)
{
    const kheader *h = &r->h;
    const char *p = s;
    char q[64];
    uint64_t v, pc, mask;
    if (h->lineinfo && lex_dec(&p, UINT32_MAX, &v))
        return lerr(r, err, errlen, "expected a source line number, got %s", quote(p, q, sizeof q));
    if (lex_hex(&p, &pc) || pc > 0xFFFFFFFFull)
        return lerr(r, err, errlen, "expected a hexadecimal PC, got %s", quote(p, q, sizeof q));
    if (lex_hex(&p, &mask) || mask > 0xFFFFFFFFull)
        return lerr(r, err, errlen, "expected a 32-bit hexadecimal active mask, got %s",
                    quote(p, q, sizeof q));
    if (b->ninsts == b->capinsts) {
        size_t cap = b->capinsts ? b->capinsts * 2 : 256;
        tinst *ni = realloc(b->insts, cap * sizeof *ni);
        if (!ni) return failf(err, errlen, "out of memory");
        b->insts = ni;
        b->capinsts = cap;
    }
    tinst *t = &b->insts[b->ninsts];
    memset(t, 0, sizeof *t);
    inst_info info = {0};
    t->pc = (uint32_t)(pc >> h->pc_shift);
    t->mask = (uint32_t)mask;
    if (lex_dec(&p, 9, &v))
        return lerr(r, err, errlen, "expected the number of destination registers, got %s",
                    quote(p, q, sizeof q));
    if (v > 1)
        return lerr(r, err, errlen, "%llu destination registers (at most 1)",
                    (unsigned long long)v);
    for (uint64_t i = 0; i < v; i++) {
        unsigned reg;
        if (lex_reg(&p, &reg))
            return lerr(r, err, errlen, "expected a destination register R0-R255, got %s",
                        quote(p, q, sizeof q));
        add_slot(&info, trace_reg_slot(reg), 1);
    }
    const char *op;
    size_t oplen = lex_token(&p, &op);
    if (oplen == 0) return lerr(r, err, errlen, "expected an opcode, got the end of the line");
    int width;
    int cls = opcode_lookup(r, op, oplen, &width);
    if (cls < 0)
        return lerr(r, err, errlen, "unknown opcode '%.*s' for binary version %d", (int)oplen, op,
                    h->binary_version);
    if (lex_dec(&p, 99, &v))
        return lerr(r, err, errlen, "expected the number of source registers, got %s",
                    quote(p, q, sizeof q));
    if (v > 4)
        return lerr(r, err, errlen, "%llu source registers (at most 4)", (unsigned long long)v);
    for (uint64_t i = 0; i < v; i++) {
        unsigned reg;
        if (lex_reg(&p, &reg))
            return lerr(r, err, errlen, "expected a source register R0-R255, got %s",
                        quote(p, q, sizeof q));
        add_slot(&info, trace_reg_slot(reg), 0);
    }
    uint64_t mem_width;
    if (lex_dec(&p, 4096, &mem_width))
        return lerr(r, err, errlen, "expected the memory width, got %s", quote(p, q, sizeof q));
    int lanes = __builtin_popcount(t->mask);
    uint64_t first = 0;
    if (mem_width > 0) {
        uint64_t mode;
        if (lex_dec(&p, 9, &mode))
            return lerr(r, err, errlen, "expected an address mode, got %s", quote(p, q, sizeof q));
        if (mode > 2)
            return lerr(r, err, errlen,
                        "unknown address mode %llu (0 list, 1 base+stride, 2 base+delta)",
                        (unsigned long long)mode);
        if (pool_reserve(b, (size_t)lanes + 2)) return failf(err, errlen, "out of memory");
        t->aux = (uint32_t)b->npool;
        if (mode == 1) {
            int64_t stride;
            if (lex_hex(&p, &first) || lex_sdec(&p, &stride))
                return lerr(r, err, errlen,
                            "base+stride: expected a hexadecimal base and a "
                            "decimal stride, got %s",
                            quote(p, q, sizeof q));
            t->amode = TA_STRIDE;
            b->pool[b->npool++] = (uint32_t)first;
            b->pool[b->npool++] = (uint32_t)(uint64_t)stride;
        } else {
            t->amode = TA_LIST;
            uint64_t a = 0;
            for (int i = 0; i < lanes; i++) {
                if (mode == 0 || i == 0) {
                    if (lex_hex(&p, &a))
                        return lerr(r, err, errlen,
                                    "expected %d hexadecimal addresses (one per active lane), "
                                    "got %s after %d",
                                    mode == 0 ? lanes : 1, quote(p, q, sizeof q), i);
                } else {
                    int64_t d;
                    if (lex_sdec(&p, &d))
                        return lerr(r, err, errlen,
                                    "base+delta: expected %d decimal deltas, got %s after %d",
                                    lanes - 1, quote(p, q, sizeof q), i - 1);
                    a += (uint64_t)d;
                }
                if (i == 0) first = a;
                b->pool[b->npool++] = (uint32_t)a;
            }
            if (mode == 2 && lanes == 0) { /* base with no lanes */
                if (lex_hex(&p, &a))
                    return lerr(r, err, errlen, "base+delta: expected a hexadecimal base, got %s",
                                quote(p, q, sizeof q));
            }
        }
    } else if (is_mem_class(cls)) {
        return lerr(r, err, errlen, "memory instruction '%.*s' without addresses (width 0)",
                    (int)oplen, op);
    }
    int64_t imm = 0;
    int has_imm = 0;
    if (*skip_ws(p) && h->tracer_version >= 5) {
        const char *save = p;
        uint64_t u;
        if (lex_sdec(&p, &imm) == 0) {
            has_imm = 1;
        } else {
            p = save;
            if (lex_hex(&p, &u) == 0) {
                imm = (int64_t)u;
                has_imm = 1;
            }
        }
    }
    if (*skip_ws(p))
        return lerr(r, err, errlen, "unexpected %s at the end of the instruction",
                    quote(p, q, sizeof q));
    if (cls == TRACE_OP_LD_GENERIC || cls == TRACE_OP_ST_GENERIC) {
        int shared = h->shmem_base == 0 || h->local_base == 0 ||
                     (lanes > 0 && first >= h->shmem_base && first < h->local_base);
        cls = cls == TRACE_OP_LD_GENERIC ? (shared ? IC_LD_SHARED : IC_LD_GLOBAL)
                                         : (shared ? IC_ST_SHARED : IC_ST_GLOBAL);
    }
    t->cls = (uint8_t)cls;
    t->dst = info.ndst ? info.dst[0] : TRACE_NO_SLOT;
    t->nsrc = info.nsrc;
    memcpy(t->src, info.src, sizeof t->src);
    if (is_mem_class(cls)) t->access_size = (uint8_t)width;
    if (cls == IC_BRANCH && h->nbranches) {
        tbranch key = {t->pc, 0, 0};
        const tbranch *e = bsearch(&key, h->branches, h->nbranches, sizeof key, cmp_branch);
        if (e) {
            if (pool_reserve(b, 3)) return failf(err, errlen, "out of memory");
            t->amode = TA_BRANCH;
            t->aux = (uint32_t)b->npool;
            b->pool[b->npool++] = e->target;
            b->pool[b->npool++] = e->reconv;
            b->pool[b->npool++] = (has_imm ? (uint32_t)imm : 0) | t->mask;
        }
    }
    b->ninsts++;
    return 0;
}

/* "thread block = x,y,z" */
static int parse_block_id(const char *v, uint32_t id[3])
{
    for (int i = 0; i < 3; i++) {
        v = skip_ws(v);
        uint64_t x = 0;
        if (*v < '0' || *v > '9') return -1;
        while (*v >= '0' && *v <= '9') {
            x = x * 10 + (uint64_t)(*v++ - '0');
            if (x > 0xFFFFFFFF) return -1;
        }
        id[i] = (uint32_t)x;
        v = skip_ws(v);
        if (i < 2 && *v++ != ',') return -1;
    }
    return *skip_ws(v) ? -1 : 0;
}

static int starts(const char *s, const char *word)
{
    size_t n = strlen(word);
    return !strncmp(s, word, n) && (is_end(s + n) || s[n] == '=');
}

/* The warp being read ended: checks its line count. */
static int warp_incomplete(kreader *r, long warp, uint64_t got, uint64_t expect, char *err,
                           size_t errlen)
{
    if (warp < 0 || got == expect) return 0;
    if (expect == UINT64_MAX) return lerr(r, err, errlen, "warp %ld has no 'insts =' line", warp);
    return lerr(r, err, errlen, "warp %ld has %llu instruction lines but insts = %llu", warp,
                (unsigned long long)got, (unsigned long long)expect);
}

int kreader_next_block(kreader *r, ttb *b, char *err, size_t errlen)
{
    const kheader *h = &r->h;
    b->ninsts = b->npool = 0;
    b->present = 0;
    if (b->capwarps < h->warps_per_block) {
        uint32_t n = h->warps_per_block;
        uint32_t *f = realloc(b->wfirst, n * sizeof *f);
        if (f) b->wfirst = f;
        uint32_t *c = realloc(b->wcount, n * sizeof *c);
        if (c) b->wcount = c;
        uint8_t *s = realloc(b->wseen, n);
        if (s) b->wseen = s;
        if (!f || !c || !s) return failf(err, errlen, "out of memory");
        b->capwarps = n;
    }
    b->nwarps = h->warps_per_block;
    memset(b->wcount, 0, b->nwarps * sizeof *b->wcount);
    memset(b->wfirst, 0, b->nwarps * sizeof *b->wfirst);
    memset(b->wseen, 0, b->nwarps);
    int in_tb = 0, have_id = 0;
    long warp = -1;
    uint64_t expect = 0, got = 0;
    long n;
    for (;;) {
        if (r->pushed) {
            r->pushed = 0;
            n = (long)strlen(r->f.line);
        } else {
            n = tfile_getline(&r->f, err, errlen);
        }
        if (n == -1) return -1;
        if (n == -2) {
            if (in_tb)
                return lerr(r, err, errlen, "the file ends inside a thread block (no #END_TB)");
            return 0;
        }
        const char *s = skip_ws(r->f.line);
        if (!*s) continue;
        if (!in_tb) {
            if (starts(s, "#BEGIN_TB")) {
                in_tb = 1;
                b->begin_line = r->f.lineno;
                continue;
            }
            char q[64];
            return lerr(r, err, errlen, "expected #BEGIN_TB, got %s", quote(s, q, sizeof q));
        }
        if (*s == '#') {
            if (starts(s, "#BEGIN_TB"))
                return lerr(r, err, errlen, "#BEGIN_TB inside a thread block (no #END_TB before)");
            if (!starts(s, "#END_TB")) {
                char q[64];
                return lerr(r, err, errlen, "unexpected %s inside a thread block",
                            quote(s, q, sizeof q));
            }
            if (warp_incomplete(r, warp, got, expect, err, errlen)) return -1;
            if (!have_id) return lerr(r, err, errlen, "thread block without 'thread block ='");
            if (b->cappool > 4096 && b->cappool > b->npool + b->npool / 8) { /* fit the pool */
                size_t cap = b->npool + b->npool / 16 + 64;
                uint32_t *np = realloc(b->pool, cap * sizeof *np);
                if (np) {
                    b->pool = np;
                    b->cappool = cap;
                }
            }
            b->present = 1;
            return 1;
        }
        if (starts(s, "thread")) {
            const char *v = header_value(s);
            uint32_t id[3];
            if (!v || strncmp(skip_ws(s + 6), "block", 5) || parse_block_id(v, id))
                return lerr(r, err, errlen, "expected 'thread block = x,y,z'");
            if (id[0] >= h->grid[0] || id[1] >= h->grid[1] || id[2] >= h->grid[2])
                return lerr(r, err, errlen, "thread block %u,%u,%u is outside the grid (%u,%u,%u)",
                            id[0], id[1], id[2], h->grid[0], h->grid[1], h->grid[2]);
            if (warp >= 0) return lerr(r, err, errlen, "'thread block =' after the first warp");
            b->x = id[0], b->y = id[1], b->z = id[2];
            have_id = 1;
            continue;
        }
        if (starts(s, "cluster")) continue; /* cluster id / cta / rank of later tracers */
        if (starts(s, "warp")) {
            const char *v = header_value(s);
            uint64_t w;
            if (!v || lex_dec(&v, UINT32_MAX, &w) || *skip_ws(v))
                return lerr(r, err, errlen, "expected 'warp = N'");
            if (warp_incomplete(r, warp, got, expect, err, errlen)) return -1;
            if (w >= h->warps_per_block)
                return lerr(r, err, errlen, "warp %llu of a block of %u warps",
                            (unsigned long long)w, h->warps_per_block);
            if (b->wseen[w])
                return lerr(r, err, errlen, "warp %llu appears twice in the block",
                            (unsigned long long)w);
            b->wseen[w] = 1;
            warp = (long)w;
            expect = UINT64_MAX; /* until insts = */
            got = 0;
            b->wfirst[w] = (uint32_t)b->ninsts;
            continue;
        }
        if (starts(s, "insts")) {
            const char *v = header_value(s);
            uint64_t m;
            if (!v || lex_dec(&v, TRACE_MAX_INSTS, &m) || *skip_ws(v))
                return lerr(r, err, errlen, "expected 'insts = N' (N up to %u)", TRACE_MAX_INSTS);
            if (warp < 0 || expect != UINT64_MAX)
                return lerr(r, err, errlen, "'insts =' without a 'warp =' before it");
            expect = m;
            /* room for exactly the block's lines: a CTA slot keeps its largest block */
            if (b->ninsts + m > b->capinsts && m <= (1u << 22)) {
                tinst *ni = realloc(b->insts, (b->ninsts + m) * sizeof *ni);
                if (!ni) return failf(err, errlen, "out of memory");
                b->insts = ni;
                b->capinsts = b->ninsts + m;
            }
            continue;
        }
        if (warp < 0 || expect == UINT64_MAX)
            return lerr(r, err, errlen, "instruction line before 'warp =' and 'insts ='");
        if (got == expect)
            return lerr(r, err, errlen, "more instruction lines than insts = %llu for warp %ld",
                        (unsigned long long)expect, warp);
        if (b->ninsts >= 0xFFFFFFFFu) return lerr(r, err, errlen, "thread block too large");
        if (parse_inst(r, b, s, err, errlen)) return -1;
        got++;
        b->wcount[warp]++;
    }
}
