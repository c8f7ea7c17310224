/* Internals of the trace reader shared by its files: core/trace/trace_file.c (a text file, plain or
 * xz), core/trace/trace_read.c (the kernelslist), core/trace/trace_kernel.c (a kernel file's header
 * and thread blocks), core/trace/trace_decode.c (instruction lines) and core/trace/trace_source.c
 * (the instruction source). Not a public interface: see core/trace/trace.h and docs/traces.md. */
#ifndef WT_TRACE_INTERNAL_H
#define WT_TRACE_INTERNAL_H

#include <lzma.h>
#include <stdint.h>
#include <stdio.h>

#include "core/trace/trace.h"

#define TRACE_LINE_MAX  (1u << 20) /* longest line accepted, bytes */
#define TRACE_MAX_INSTS (1u << 30) /* largest `insts =` of one warp */

/* Formats err as printf does and returns -1 (core/trace/trace_file.c). */
int trace_failf(char *err, size_t errlen, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* ---- lexing the fields of a line (inline: instruction lines are the reader's hot path) ---- */

static inline const char *skip_ws(const char *p)
{
    while (*p == ' ' || *p == '\t')
        p++;
    return p;
}

static inline int is_end(const char *p)
{
    return *p == '\0' || *p == ' ' || *p == '\t';
}

/* Unsigned decimal digits, at most max, wherever they end. Returns 0 and advances, or -1. */
static inline int lex_digits(const char **pp, uint64_t max, uint64_t *out)
{
    const char *p = skip_ws(*pp);
    uint64_t v = 0;
    if (*p < '0' || *p > '9') return -1;
    while (*p >= '0' && *p <= '9') {
        uint64_t d = (uint64_t)(*p++ - '0');
        if (d > max || v > (max - d) / 10) return -1;
        v = v * 10 + d;
    }
    *out = v;
    *pp = p;
    return 0;
}

/* Unsigned decimal that ends its token. Returns 0 and advances, or -1. */
static inline int lex_dec(const char **pp, uint64_t max, uint64_t *out)
{
    const char *p = *pp;
    uint64_t v;
    if (lex_digits(&p, max, &v) || !is_end(p)) return -1;
    *out = v;
    *pp = p;
    return 0;
}

/* Signed decimal in the int64 range. */
static inline int lex_sdec(const char **pp, int64_t *out)
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

static inline int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Hexadecimal with or without 0x, at most 16 digits. */
static inline int lex_hex(const char **pp, uint64_t *out)
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
static inline int lex_reg(const char **pp, unsigned *out)
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
static inline size_t lex_token(const char **pp, const char **start)
{
    const char *p = skip_ws(*pp);
    *start = p;
    while (!is_end(p))
        p++;
    *pp = p;
    return (size_t)(p - *start);
}

/* A short quote of the text at p, for messages. */
static inline const char *quote(const char *p, char *buf, size_t n)
{
    p = skip_ws(p);
    if (!*p) return "the end of the line";
    size_t len = 0;
    while (p[len] && !is_end(p + len) && len < 24)
        len++;
    snprintf(buf, n, "'%.*s%s'", (int)len, p, p[len] && !is_end(p + len) ? "..." : "");
    return buf;
}

/* ---- one text file, plain or xz, read a line at a time ---- */

typedef struct tfile {
    FILE *f;
    int xz; /* the file starts with the xz magic bytes */
    lzma_stream strm;
    uint8_t *in;  /* xz: compressed input */
    uint8_t *out; /* text read ahead (decompressed for xz) */
    size_t out_pos, out_len;
    int in_eof, out_eof;
    char *line; /* the current line, NUL-terminated, without its newline */
    size_t cap;
    long lineno;
    const char *path;
} tfile;

int tfile_open(tfile *t, const char *path, char *err, size_t errlen);
/* Reads the next line into t->line. Returns its length (>= 0), -2 at the end of the file, -1
 * with err. */
long tfile_getline(tfile *t, char *err, size_t errlen);
void tfile_close(tfile *t);

/* ---- the application ---- */

enum { TCMD_KERNEL, TCMD_MEMCPY };

typedef struct tcmd {
    int kind;
    int line;             /* in the kernelslist */
    char *file;           /* kernel file path */
    uint64_t addr, bytes; /* memcpy */
} tcmd;

struct trace_app {
    char *path;
    tcmd *cmds;
    size_t ncmds, nkernels, nmemcpy;
    trace_opcodes *ops;
};

/* ---- one kernel file ---- */

typedef struct tbranch {
    uint32_t pc, target, reconv; /* instruction indices */
} tbranch;

typedef struct kheader {
    char name[256];
    int id;
    uint32_t grid[3], block[3];
    uint32_t shmem, nregs;
    int binary_version;
    uint64_t stream;
    uint64_t shmem_base, local_base;
    int tracer_version;
    int lineinfo;
    int pc_shift; /* log2 of the instruction size: 4 from Volta (16 bytes), 3 before */
    uint32_t nctas, warps_per_block;
    tbranch *branches; /* warptune exports: static branch targets, sorted by pc */
    size_t nbranches, capbranches;
} kheader;

/* A decoded instruction line, 24 bytes: blocks are held while their CTAs run. The source
 * unpacks the next line of each warp into an inst_info. */
typedef struct tinst {
    uint32_t pc;   /* instruction index */
    uint32_t mask; /* lanes that executed (the line's mask) */
    uint32_t aux;  /* first pool word of the addresses or of the branch record */
    uint8_t cls;
    uint8_t dst; /* scoreboard slot written, or TRACE_NO_SLOT */
    uint8_t nsrc;
    uint8_t src[4];
    uint8_t access_size;
    uint8_t amode; /* TA_* */
} tinst;

#define TRACE_NO_SLOT 0xFF

/* What the pool words at aux hold: TA_STRIDE base, stride; TA_LIST one address per active lane;
 * TA_BRANCH (branches of warptune exports) target pc, reconvergence pc, the warp's active lanes. */
enum { TA_NONE, TA_STRIDE, TA_LIST, TA_BRANCH };

/* A decoded thread block. */
typedef struct ttb {
    tinst *insts;
    size_t ninsts, capinsts;
    uint32_t *pool;
    size_t npool, cappool;
    uint32_t *wfirst, *wcount; /* per warp of the block */
    uint8_t *wseen;
    uint32_t nwarps, capwarps;
    uint32_t x, y, z;
    int present;     /* 0: the file had no block left for this CTA */
    long begin_line; /* of its #BEGIN_TB */
} ttb;

void ttb_free(ttb *b);

typedef struct kreader {
    tfile f;
    kheader h;
    int open;
    int pushed; /* t->f.line holds a line read ahead */
    const trace_opcodes *ops;
    /* opcode token -> class cache (per reader: the app stays immutable) */
    struct opcache {
        char name[40];
        int16_t cls;
        uint8_t width;
        uint8_t used;
    } cache[512];
} kreader;

/* Opens a kernel file and reads its header. Returns 0, or -1 with err "file:line: ...". */
int kreader_open(kreader *r, const char *path, const trace_opcodes *ops, char *err, size_t errlen);
/* Reads the next thread block into b. Returns 1, 0 when the file has no more blocks, -1 with
 * err. */
int kreader_next_block(kreader *r, ttb *b, char *err, size_t errlen);
void kreader_close(kreader *r);
/* Formats err as "file:line: message" at the reader's current line and returns -1. */
int kreader_error(const kreader *r, char *err, size_t errlen, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* The static branch record of instruction index pc (warptune exports), or NULL. */
const tbranch *kheader_branch(const kheader *h, uint32_t pc);
/* Decodes one instruction line of the warp being read into b (core/trace/trace_decode.c). Returns
 * 0, or -1 with err. */
int kreader_decode(kreader *r, ttb *b, const char *s, char *err, size_t errlen);

#endif
