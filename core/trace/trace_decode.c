/* A trace's instruction lines decoded into a thread block: opcodes through the reader's
 * cache, registers to scoreboard slots, the three address modes and warptune's branch
 * records (docs/traces.md has the format). */
#include <stdlib.h>
#include <string.h>

#include "core/trace/trace_internal.h"

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

/* ------------------------------------------------------------ instruction lines ---- */

_Static_assert(sizeof(tinst) == 24, "a decoded instruction stays small");

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

/* The destination (dst) or source registers of a line, "N R<a> R<b> ...", into in. */
static int decode_regs(kreader *r, const char **pp, inst_info *in, int dst, char *err,
                       size_t errlen)
{
    const char *what = dst ? "destination" : "source";
    unsigned most = dst ? 1 : 4;
    char q[64];
    uint64_t v;
    if (lex_dec(pp, dst ? 9 : 99, &v))
        return kreader_error(r, err, errlen, "expected the number of %s registers, got %s", what,
                             quote(*pp, q, sizeof q));
    if (v > most)
        return kreader_error(r, err, errlen, "%llu %s registers (at most %u)",
                             (unsigned long long)v, what, most);
    for (uint64_t i = 0; i < v; i++) {
        unsigned reg;
        if (lex_reg(pp, &reg))
            return kreader_error(r, err, errlen, "expected a %s register R0-R255, got %s", what,
                                 quote(*pp, q, sizeof q));
        add_slot(in, trace_reg_slot(reg), dst);
    }
    return 0;
}

int kreader_decode(kreader *r, ttb *b, const char *s, char *err, size_t errlen)
{
    const kheader *h = &r->h;
    const char *p = s;
    char q[64];
    uint64_t v, pc, mask;
    if (h->lineinfo && lex_dec(&p, UINT32_MAX, &v))
        return kreader_error(r, err, errlen, "expected a source line number, got %s",
                             quote(p, q, sizeof q));
    const char *tok = p; /* lex_hex moves p past a number it read, even one out of range */
    if (lex_hex(&p, &pc) || pc > 0xFFFFFFFFull)
        return kreader_error(r, err, errlen, "expected a 32-bit hexadecimal PC, got %s",
                             quote(tok, q, sizeof q));
    tok = p;
    if (lex_hex(&p, &mask) || mask > 0xFFFFFFFFull)
        return kreader_error(r, err, errlen, "expected a 32-bit hexadecimal active mask, got %s",
                             quote(tok, q, sizeof q));
    if (b->ninsts == b->capinsts) {
        size_t cap = b->capinsts ? b->capinsts * 2 : 256;
        tinst *ni = realloc(b->insts, cap * sizeof *ni);
        if (!ni) return trace_failf(err, errlen, "out of memory");
        b->insts = ni;
        b->capinsts = cap;
    }
    tinst *t = &b->insts[b->ninsts];
    memset(t, 0, sizeof *t);
    inst_info info = {0};
    t->pc = (uint32_t)(pc >> h->pc_shift);
    t->mask = (uint32_t)mask;
    if (decode_regs(r, &p, &info, 1, err, errlen)) return -1;
    const char *op;
    size_t oplen = lex_token(&p, &op);
    if (oplen == 0)
        return kreader_error(r, err, errlen, "expected an opcode, got the end of the line");
    int width;
    int cls = opcode_lookup(r, op, oplen, &width);
    if (cls < 0)
        return kreader_error(r, err, errlen, "unknown opcode '%.*s' for binary version %d",
                             (int)oplen, op, h->binary_version);
    if (decode_regs(r, &p, &info, 0, err, errlen)) return -1;
    uint64_t mem_width;
    if (lex_dec(&p, 4096, &mem_width))
        return kreader_error(r, err, errlen, "expected the memory width, got %s",
                             quote(p, q, sizeof q));
    int lanes = __builtin_popcount(t->mask);
    uint64_t first = 0;
    if (mem_width > 0) {
        uint64_t mode;
        if (lex_dec(&p, 9, &mode))
            return kreader_error(r, err, errlen, "expected an address mode, got %s",
                                 quote(p, q, sizeof q));
        if (mode > 2)
            return kreader_error(r, err, errlen,
                                 "unknown address mode %llu (0 list, 1 base+stride, 2 base+delta)",
                                 (unsigned long long)mode);
        if (pool_reserve(b, (size_t)lanes + 2)) return trace_failf(err, errlen, "out of memory");
        t->aux = (uint32_t)b->npool;
        if (mode == 1) {
            int64_t stride;
            if (lex_hex(&p, &first) || lex_sdec(&p, &stride))
                return kreader_error(r, err, errlen,
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
                        return kreader_error(
                            r, err, errlen,
                            "expected %d hexadecimal addresses (one per active lane), "
                            "got %s after %d",
                            mode == 0 ? lanes : 1, quote(p, q, sizeof q), i);
                } else {
                    int64_t d;
                    if (lex_sdec(&p, &d))
                        return kreader_error(
                            r, err, errlen,
                            "base+delta: expected %d decimal deltas, got %s after %d", lanes - 1,
                            quote(p, q, sizeof q), i - 1);
                    a += (uint64_t)d;
                }
                if (i == 0) first = a;
                b->pool[b->npool++] = (uint32_t)a;
            }
            if (mode == 2 && lanes == 0) { /* base with no lanes */
                if (lex_hex(&p, &a))
                    return kreader_error(r, err, errlen,
                                         "base+delta: expected a hexadecimal base, got %s",
                                         quote(p, q, sizeof q));
            }
        }
    } else if (is_mem_class(cls)) {
        return kreader_error(r, err, errlen,
                             "memory instruction '%.*s' without addresses (width 0)", (int)oplen,
                             op);
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
        return kreader_error(r, err, errlen, "unexpected %s at the end of the instruction",
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
        const tbranch *e = kheader_branch(h, t->pc);
        if (e) {
            if (pool_reserve(b, 3)) return trace_failf(err, errlen, "out of memory");
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
