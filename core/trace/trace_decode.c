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

/* The start of an instruction line: the source line number (with lineinfo), the PC (an
 * instruction index after the header's shift) and the active mask. */
static int decode_pc_mask(kreader *r, const char **pp, uint32_t *pc_out, uint32_t *mask_out,
                          char *err, size_t errlen)
{
    const kheader *h = &r->h;
    char q[64];
    uint64_t v, pc, mask;
    if (h->lineinfo && lex_dec(pp, UINT32_MAX, &v))
        return kreader_error(r, err, errlen, "expected a source line number, got %s",
                             quote(*pp, q, sizeof q));
    const char *tok = *pp; /* lex_hex moves past a number it read, even one out of range */
    if (lex_hex(pp, &pc) || pc > 0xFFFFFFFFull)
        return kreader_error(r, err, errlen, "expected a 32-bit hexadecimal PC, got %s",
                             quote(tok, q, sizeof q));
    tok = *pp;
    if (lex_hex(pp, &mask) || mask > 0xFFFFFFFFull)
        return kreader_error(r, err, errlen, "expected a 32-bit hexadecimal active mask, got %s",
                             quote(tok, q, sizeof q));
    unsigned isize = 1u << h->pc_shift;
    if (pc % isize) /* a byte offset: shifting would quietly land it on another instruction */
        return kreader_error(r, err, errlen,
                             "PC 0x%llx is not a multiple of the %u-byte instruction size "
                             "(binary version %d)",
                             (unsigned long long)pc, isize, h->binary_version);
    *pc_out = (uint32_t)(pc >> h->pc_shift);
    *mask_out = (uint32_t)mask;
    return 0;
}

/* The addresses of a memory instruction with `lanes` active lanes, after its width: an address
 * mode, then base+stride (mode 1) or one address per lane, listed (0) or as a base and deltas
 * (2). They go to the block's pool, and t points at them; *first is the first lane's address. */
static int decode_addresses(kreader *r, ttb *b, tinst *t, const char **pp, int lanes,
                            uint64_t *first, char *err, size_t errlen)
{
    char q[64];
    uint64_t mode;
    if (lex_dec(pp, 9, &mode))
        return kreader_error(r, err, errlen, "expected an address mode, got %s",
                             quote(*pp, q, sizeof q));
    if (mode > 2)
        return kreader_error(r, err, errlen,
                             "unknown address mode %llu (0 list, 1 base+stride, 2 base+delta)",
                             (unsigned long long)mode);
    if (pool_reserve(b, (size_t)lanes + 2)) return trace_failf(err, errlen, "out of memory");
    t->aux = (uint32_t)b->npool;
    if (mode == 1) {
        int64_t stride;
        if (lex_hex(pp, first) || lex_sdec(pp, &stride))
            return kreader_error(r, err, errlen,
                                 "base+stride: expected a hexadecimal base and a "
                                 "decimal stride, got %s",
                                 quote(*pp, q, sizeof q));
        t->amode = TA_STRIDE;
        b->pool[b->npool++] = (uint32_t)*first;
        b->pool[b->npool++] = (uint32_t)(uint64_t)stride;
        return 0;
    }
    t->amode = TA_LIST;
    uint64_t a = 0;
    for (int i = 0; i < lanes; i++) {
        if (mode == 0 || i == 0) {
            if (lex_hex(pp, &a))
                return kreader_error(r, err, errlen,
                                     "expected %d hexadecimal addresses (one per active lane), "
                                     "got %s after %d",
                                     mode == 0 ? lanes : 1, quote(*pp, q, sizeof q), i);
        } else {
            int64_t d;
            if (lex_sdec(pp, &d))
                return kreader_error(r, err, errlen,
                                     "base+delta: expected %d decimal deltas, got %s after %d",
                                     lanes - 1, quote(*pp, q, sizeof q), i - 1);
            a += (uint64_t)d;
        }
        if (i == 0) *first = a;
        b->pool[b->npool++] = (uint32_t)a;
    }
    if (mode == 2 && lanes == 0 && lex_hex(pp, &a)) /* base with no lanes */
        return kreader_error(r, err, errlen, "base+delta: expected a hexadecimal base, got %s",
                             quote(*pp, q, sizeof q));
    return 0;
}

/* The immediate that tracer version 5 and later may append (decimal or hexadecimal). Returns
 * whether there was one. */
static int decode_immediate(const kheader *h, const char **pp, int64_t *imm)
{
    if (!*skip_ws(*pp) || h->tracer_version < 5) return 0;
    const char *save = *pp;
    if (lex_sdec(pp, imm) == 0) return 1;
    *pp = save;
    uint64_t u;
    if (lex_hex(pp, &u) != 0) return 0;
    *imm = (int64_t)u;
    return 1;
}

/* The class a generic load or store runs as: shared when its first address lies in the
 * shared window, or when the header does not give the window. Other classes stay. */
static int resolve_generic(const kheader *h, int cls, int lanes, uint64_t first)
{
    if (cls != TRACE_OP_LD_GENERIC && cls != TRACE_OP_ST_GENERIC) return cls;
    int shared = h->shmem_base == 0 || h->local_base == 0 ||
                 (lanes > 0 && first >= h->shmem_base && first < h->local_base);
    return cls == TRACE_OP_LD_GENERIC ? (shared ? IC_LD_SHARED : IC_LD_GLOBAL)
                                      : (shared ? IC_ST_SHARED : IC_ST_GLOBAL);
}

/* A branch of a warptune export: its static target and reconvergence point from the header,
 * and the taken lanes, go to the pool as t's branch record. */
static int attach_branch(kreader *r, ttb *b, tinst *t, int has_imm, int64_t imm, char *err,
                         size_t errlen)
{
    const tbranch *e = kheader_branch(&r->h, t->pc);
    if (!e) return 0;
    if (pool_reserve(b, 3)) return trace_failf(err, errlen, "out of memory");
    t->amode = TA_BRANCH;
    t->aux = (uint32_t)b->npool;
    b->pool[b->npool++] = e->target;
    b->pool[b->npool++] = e->reconv;
    b->pool[b->npool++] = (has_imm ? (uint32_t)imm : 0) | t->mask;
    return 0;
}

int kreader_decode(kreader *r, ttb *b, const char *s, char *err, size_t errlen)
{
    const kheader *h = &r->h;
    const char *p = s;
    char q[64];
    uint32_t pc, mask;
    if (decode_pc_mask(r, &p, &pc, &mask, err, errlen)) return -1;
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
    t->pc = pc;
    t->mask = mask;
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
    if (mem_width & (mem_width - 1) || mem_width > 16) /* NVBit's access sizes */
        return kreader_error(r, err, errlen,
                             "memory width %llu (expected 0 for no access, or 1, 2, 4, 8 or 16 "
                             "bytes)",
                             (unsigned long long)mem_width);
    int lanes = __builtin_popcount(t->mask);
    uint64_t first = 0;
    if (mem_width > 0) {
        if (decode_addresses(r, b, t, &p, lanes, &first, err, errlen)) return -1;
    } else if (is_mem_class(cls)) {
        return kreader_error(r, err, errlen,
                             "memory instruction '%.*s' without addresses (width 0)", (int)oplen,
                             op);
    }
    int64_t imm = 0;
    int has_imm = decode_immediate(h, &p, &imm);
    if (*skip_ws(p))
        return kreader_error(r, err, errlen, "unexpected %s at the end of the instruction",
                             quote(p, q, sizeof q));
    cls = resolve_generic(h, cls, lanes, first);
    t->cls = (uint8_t)cls;
    t->dst = info.ndst ? info.dst[0] : TRACE_NO_SLOT;
    t->nsrc = info.nsrc;
    memcpy(t->src, info.src, sizeof t->src);
    if (is_mem_class(cls)) t->access_size = (uint8_t)width;
    if (cls == IC_BRANCH && h->nbranches && attach_branch(r, b, t, has_imm, imm, err, errlen))
        return -1;
    b->ninsts++;
    return 0;
}
