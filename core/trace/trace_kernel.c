/* A kernel file of a trace: its header, then its thread blocks read one at a time; each
 * instruction line is decoded by core/trace/trace_decode.c (docs/traces.md has the format). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/trace/trace_internal.h"

int kreader_error(const kreader *r, char *err, size_t errlen, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return trace_failf(err, errlen, "%s:%ld: %s", r->f.path, r->f.lineno, msg);
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
    return kreader_error(r, err, errlen, "%s", what);
}

/* "(x,y,z)" after '=' */
static int parse_dim(const char *p, uint32_t d[3])
{
    p = skip_ws(p);
    if (*p++ != '(') return -1;
    for (int i = 0; i < 3; i++) {
        uint64_t v;
        if (lex_digits(&p, 0x7FFFFFFF, &v) || v == 0) return -1;
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
            if (!b) return trace_failf(err, errlen, "out of memory");
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

const tbranch *kheader_branch(const kheader *h, uint32_t pc)
{
    tbranch key = {pc, 0, 0};
    return bsearch(&key, h->branches, h->nbranches, sizeof key, cmp_branch);
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
    if (missing && r->f.lineno == 0)
        return trace_failf(err, errlen, "%s: empty file (expected a kernel header: %s, ...)", path,
                           missing);
    if (missing)
        return trace_failf(err, errlen, "%s:%ld: the kernel header has no %s line", path,
                           r->f.lineno, missing);
    uint64_t ctas = (uint64_t)h->grid[0] * h->grid[1] * h->grid[2];
    uint64_t threads = (uint64_t)h->block[0] * h->block[1] * h->block[2];
    if (ctas > 0xFFFFFFFFu || threads > 4096)
        return trace_failf(err, errlen, "%s: grid of %llu blocks of %llu threads is too large",
                           path, (unsigned long long)ctas, (unsigned long long)threads);
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

void ttb_free(ttb *b)
{
    free(b->insts);
    free(b->pool);
    free(b->wfirst);
    free(b->wcount);
    free(b->wseen);
    memset(b, 0, sizeof *b);
}

/* "thread block = x,y,z" */
static int parse_block_id(const char *v, uint32_t id[3])
{
    for (int i = 0; i < 3; i++) {
        uint64_t x;
        if (lex_digits(&v, 0xFFFFFFFF, &x)) return -1;
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
    if (expect == UINT64_MAX)
        return kreader_error(r, err, errlen, "warp %ld has no 'insts =' line", warp);
    return kreader_error(r, err, errlen, "warp %ld has %llu instruction lines but insts = %llu",
                         warp, (unsigned long long)got, (unsigned long long)expect);
}

/* Makes b an empty block of the header's warps. */
static int block_reset(const kheader *h, ttb *b, char *err, size_t errlen)
{
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
        if (!f || !c || !s) return trace_failf(err, errlen, "out of memory");
        b->capwarps = n;
    }
    b->nwarps = h->warps_per_block;
    memset(b->wcount, 0, b->nwarps * sizeof *b->wcount);
    memset(b->wfirst, 0, b->nwarps * sizeof *b->wfirst);
    memset(b->wseen, 0, b->nwarps);
    return 0;
}

/* Where the reading of a thread block stands. */
typedef struct block_state {
    int in_tb, have_id;
    long warp;       /* the warp being read, -1 before the first */
    uint64_t expect; /* its 'insts =' count, UINT64_MAX until that line */
    uint64_t got;    /* its instruction lines so far */
} block_state;

/* #END_TB: the block is complete. Trims a pool much larger than the block needed. */
static int block_end(kreader *r, ttb *b, const block_state *st, char *err, size_t errlen)
{
    if (warp_incomplete(r, st->warp, st->got, st->expect, err, errlen)) return -1;
    if (!st->have_id) return kreader_error(r, err, errlen, "thread block without 'thread block ='");
    if (b->cappool > 4096 && b->cappool > b->npool + b->npool / 8) {
        size_t cap = b->npool + b->npool / 16 + 64;
        uint32_t *np = realloc(b->pool, cap * sizeof *np);
        if (np) {
            b->pool = np;
            b->cappool = cap;
        }
    }
    b->present = 1;
    return 0;
}

/* "thread block = x,y,z", inside the grid and before the first warp. */
static int block_id_line(kreader *r, ttb *b, const char *s, block_state *st, char *err,
                         size_t errlen)
{
    const kheader *h = &r->h;
    const char *v = header_value(s);
    uint32_t id[3];
    if (!v || strncmp(skip_ws(s + 6), "block", 5) || parse_block_id(v, id))
        return kreader_error(r, err, errlen, "expected 'thread block = x,y,z'");
    if (id[0] >= h->grid[0] || id[1] >= h->grid[1] || id[2] >= h->grid[2])
        return kreader_error(r, err, errlen, "thread block %u,%u,%u is outside the grid (%u,%u,%u)",
                             id[0], id[1], id[2], h->grid[0], h->grid[1], h->grid[2]);
    if (st->warp >= 0)
        return kreader_error(r, err, errlen, "'thread block =' after the first warp");
    b->x = id[0], b->y = id[1], b->z = id[2];
    st->have_id = 1;
    return 0;
}

/* "warp = N": the previous warp is complete, N is a new warp of the block. */
static int block_warp_line(kreader *r, ttb *b, const char *s, block_state *st, char *err,
                           size_t errlen)
{
    const char *v = header_value(s);
    uint64_t w;
    if (!v || lex_dec(&v, UINT32_MAX, &w) || *skip_ws(v))
        return kreader_error(r, err, errlen, "expected 'warp = N'");
    if (warp_incomplete(r, st->warp, st->got, st->expect, err, errlen)) return -1;
    if (w >= r->h.warps_per_block)
        return kreader_error(r, err, errlen, "warp %llu of a block of %u warps",
                             (unsigned long long)w, r->h.warps_per_block);
    if (b->wseen[w])
        return kreader_error(r, err, errlen, "warp %llu appears twice in the block",
                             (unsigned long long)w);
    b->wseen[w] = 1;
    st->warp = (long)w;
    st->expect = UINT64_MAX; /* until insts = */
    st->got = 0;
    b->wfirst[w] = (uint32_t)b->ninsts;
    return 0;
}

/* "insts = N" of the current warp. */
static int block_insts_line(kreader *r, ttb *b, const char *s, block_state *st, char *err,
                            size_t errlen)
{
    const char *v = header_value(s);
    uint64_t m;
    if (!v || lex_dec(&v, TRACE_MAX_INSTS, &m) || *skip_ws(v))
        return kreader_error(r, err, errlen, "expected 'insts = N' (N up to %u)", TRACE_MAX_INSTS);
    if (st->warp < 0 || st->expect != UINT64_MAX)
        return kreader_error(r, err, errlen, "'insts =' without a 'warp =' before it");
    st->expect = m;
    /* room for exactly the block's lines: a CTA slot keeps its largest block */
    if (b->ninsts + m > b->capinsts && m <= (1u << 22)) {
        tinst *ni = realloc(b->insts, (b->ninsts + m) * sizeof *ni);
        if (!ni) return trace_failf(err, errlen, "out of memory");
        b->insts = ni;
        b->capinsts = b->ninsts + m;
    }
    return 0;
}

/* An instruction line of the current warp. */
static int block_inst_line(kreader *r, ttb *b, const char *s, block_state *st, char *err,
                           size_t errlen)
{
    if (st->warp < 0 || st->expect == UINT64_MAX)
        return kreader_error(r, err, errlen, "instruction line before 'warp =' and 'insts ='");
    if (st->got == st->expect)
        return kreader_error(r, err, errlen,
                             "more instruction lines than insts = %llu for warp %ld",
                             (unsigned long long)st->expect, st->warp);
    if (b->ninsts >= 0xFFFFFFFFu) return kreader_error(r, err, errlen, "thread block too large");
    if (kreader_decode(r, b, s, err, errlen)) return -1;
    st->got++;
    b->wcount[st->warp]++;
    return 0;
}

/* A line inside a thread block (after #BEGIN_TB). Returns 1 at #END_TB, 0 to read on, -1 with
 * err. */
static int block_line(kreader *r, ttb *b, const char *s, block_state *st, char *err, size_t errlen)
{
    char q[64];
    if (*s == '#') {
        if (starts(s, "#BEGIN_TB"))
            return kreader_error(r, err, errlen,
                                 "#BEGIN_TB inside a thread block (no #END_TB before)");
        if (!starts(s, "#END_TB"))
            return kreader_error(r, err, errlen, "unexpected %s inside a thread block",
                                 quote(s, q, sizeof q));
        return block_end(r, b, st, err, errlen) ? -1 : 1;
    }
    if (starts(s, "thread")) return block_id_line(r, b, s, st, err, errlen);
    if (starts(s, "cluster")) return 0; /* cluster id / cta / rank of later tracers */
    if (starts(s, "warp")) return block_warp_line(r, b, s, st, err, errlen);
    if (starts(s, "insts")) return block_insts_line(r, b, s, st, err, errlen);
    return block_inst_line(r, b, s, st, err, errlen);
}

int kreader_next_block(kreader *r, ttb *b, char *err, size_t errlen)
{
    if (block_reset(&r->h, b, err, errlen)) return -1;
    block_state st = {0, 0, -1, 0, 0};
    for (;;) {
        long n;
        if (r->pushed) { /* kreader_open stopped at the first block's #BEGIN_TB */
            r->pushed = 0;
            n = (long)strlen(r->f.line);
        } else {
            n = tfile_getline(&r->f, err, errlen);
        }
        if (n == -1) return -1;
        if (n == -2) {
            if (st.in_tb)
                return kreader_error(r, err, errlen,
                                     "the file ends inside a thread block (no #END_TB)");
            return 0;
        }
        const char *s = skip_ws(r->f.line);
        if (!*s) continue;
        if (!st.in_tb) {
            if (starts(s, "#BEGIN_TB")) {
                st.in_tb = 1;
                b->begin_line = r->f.lineno;
                continue;
            }
            char q[64];
            return kreader_error(r, err, errlen, "expected #BEGIN_TB, got %s",
                                 quote(s, q, sizeof q));
        }
        int rc = block_line(r, b, s, &st, err, errlen);
        if (rc) return rc;
    }
}
