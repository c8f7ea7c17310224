/* Workload language: kernel instruction lines, pre-decoded for the interpreter, and the
 * end-of-kernel work (labels, implicit exit, reconvergence points, scoreboard slots). */
#include "core/workload/wl_internal.h"

#include <stdlib.h>
#include <string.h>
#include "core/util/hash.h"
#include "core/workload/wl_cfg.h"

/* Signature letters: d destination register, P destination predicate, s value source,
 * q source predicate, A address, L label. Immediate kinds: i integer, f float, r raw. */
typedef struct opdef {
    const char *name;
    uint8_t op, cls;
    const char *sig;
    char imm;
} opdef;

static const opdef OPS[] = {
    {"mov", OP_MOV, IC_INT, "ds", 'r'},      {"add", OP_ADD, IC_INT, "dss", 'i'},
    {"sub", OP_SUB, IC_INT, "dss", 'i'},     {"mul", OP_MUL, IC_INT, "dss", 'i'},
    {"mad", OP_MAD, IC_INT, "dsss", 'i'},    {"div", OP_DIV, IC_INT, "dss", 'i'},
    {"rem", OP_REM, IC_INT, "dss", 'i'},     {"min", OP_MIN, IC_INT, "dss", 'i'},
    {"max", OP_MAX, IC_INT, "dss", 'i'},     {"and", OP_AND, IC_INT, "dss", 'i'},
    {"or", OP_OR, IC_INT, "dss", 'i'},       {"xor", OP_XOR, IC_INT, "dss", 'i'},
    {"not", OP_NOT, IC_INT, "ds", 'i'},      {"shl", OP_SHL, IC_INT, "dss", 'i'},
    {"shr", OP_SHR, IC_INT, "dss", 'i'},     {"abs", OP_ABS, IC_INT, "ds", 'i'},
    {"neg", OP_NEG, IC_INT, "ds", 'i'},      {"setp", OP_SETP_S, IC_INT, "Pss", 'i'},
    {"selp", OP_SELP, IC_INT, "dssq", 'r'},  {"fadd", OP_FADD, IC_FP, "dss", 'f'},
    {"fsub", OP_FSUB, IC_FP, "dss", 'f'},    {"fmul", OP_FMUL, IC_FP, "dss", 'f'},
    {"ffma", OP_FFMA, IC_FP, "dsss", 'f'},   {"fmin", OP_FMIN, IC_FP, "dss", 'f'},
    {"fmax", OP_FMAX, IC_FP, "dss", 'f'},    {"fabs", OP_FABS, IC_FP, "ds", 'f'},
    {"fneg", OP_FNEG, IC_FP, "ds", 'f'},     {"i2f", OP_I2F, IC_FP, "ds", 'i'},
    {"f2i", OP_F2I, IC_FP, "ds", 'f'},       {"fdiv", OP_FDIV, IC_SFU, "dss", 'f'},
    {"fsqrt", OP_FSQRT, IC_SFU, "ds", 'f'},  {"frsqrt", OP_FRSQRT, IC_SFU, "ds", 'f'},
    {"fexp", OP_FEXP, IC_SFU, "ds", 'f'},    {"flog", OP_FLOG, IC_SFU, "ds", 'f'},
    {"fsin", OP_FSIN, IC_SFU, "ds", 'f'},    {"fcos", OP_FCOS, IC_SFU, "ds", 'f'},
    {"frcp", OP_FRCP, IC_SFU, "ds", 'f'},    {"ld", OP_LDG, IC_LD_GLOBAL, "dA", 'r'},
    {"st", OP_STG, IC_ST_GLOBAL, "As", 'r'}, {"atom", OP_ATOM, IC_ATOMIC, "dAs", 'i'},
    {"bra", OP_BRA, IC_BRANCH, "L", 'i'},    {"bar", OP_BAR, IC_BARRIER, "", 'i'},
    {"exit", OP_EXIT, IC_EXIT, "", 'i'},
};

static const char *const SPECIALS[] = {"tid",  "ntid",   "ctaid", "nctaid",
                                       "gtid", "laneid", "warpid"};

static int oneof(const char *s, const char *const *list, int n)
{
    for (int i = 0; i < n; i++)
        if (strcmp(s, list[i]) == 0) return i;
    return -1;
}

/* Applies an opcode's dotted suffixes; fills op, sub, imm kind and signature. */
static int suffixes(wl_parser *P, const char *full, const opdef *d, const char *rest, wl_inst *in,
                    char *imm, const char **sig, uint8_t *cls)
{
    char parts[4][16];
    int np = 0;
    while (rest && *rest) {
        if (np == 4) goto bad;
        const char *dot = strchr(rest, '.');
        size_t n = dot ? (size_t)(dot - rest) : strlen(rest);
        if (n == 0 || n >= 16) goto bad;
        memcpy(parts[np], rest, n);
        parts[np++][n] = '\0';
        rest = dot ? dot + 1 : NULL;
    }
    static const char *const types[] = {"s32", "i32", "u32", "f32", "b32"};
    static const char *const cmps[] = {"eq", "ne", "lt", "le", "gt", "ge"};
    static const char *const atoms[] = {"add", "min", "max", "exch", "cas"};
    int t, i = 0;
    switch (d->op) {
    case OP_SETP_S:
        if (np < 1 || np > 2 || (t = oneof(parts[0], cmps, 6)) < 0) {
            return wl_error(P,
                            "'%s': setp needs a comparison (setp.eq, .ne, .lt, .le, .gt, "
                            ".ge, optionally followed by .s32, .u32 or .f32)",
                            full);
        }
        in->sub = (uint8_t)t;
        if (np == 2) {
            int ty = oneof(parts[1], types, 5);
            if (ty < 0 || ty == 4) goto bad;
            if (ty == 2) in->op = OP_SETP_U;
            if (ty == 3) in->op = OP_SETP_F, *imm = 'f';
        }
        return 0;
    case OP_DIV:
    case OP_REM:
    case OP_MIN:
    case OP_MAX:
    case OP_SHR:
        if (np == 0) return 0;
        if (np > 1 || (t = oneof(parts[0], types, 5)) < 0 || t == 3) goto bad;
        if (d->op == OP_SHR) {
            if (t <= 1) in->op = OP_SRA;
        } else if (t == 2 || t == 4) {
            in->op = (uint8_t)(d->op + 1); /* the unsigned variant follows the signed one */
        }
        return 0;
    case OP_LDG:
    case OP_STG:
        if (i < np && strcmp(parts[i], "global") == 0)
            i++;
        else if (i < np && strcmp(parts[i], "shared") == 0) {
            i++;
            in->op = d->op == OP_LDG ? OP_LDS : OP_STS;
            *cls = d->op == OP_LDG ? IC_LD_SHARED : IC_ST_SHARED;
        }
        if (i < np) {
            if ((t = oneof(parts[i], types, 5)) < 0) goto bad;
            *imm = t == 3 ? 'f' : 'i';
            i++;
        }
        if (i != np) goto bad;
        return 0;
    case OP_ATOM:
        if (np >= 1 && strcmp(parts[0], "global") == 0) i++;
        if (i >= np || (t = oneof(parts[i], atoms, 5)) < 0)
            return wl_error(P,
                            "'%s': atom needs an operation (atom.add, .min, .max, .exch or "
                            ".cas, optionally followed by .s32, .u32 or .f32)",
                            full);
        i++;
        int ty = 0;
        if (i < np) {
            if ((ty = oneof(parts[i], types, 5)) < 0) goto bad;
            i++;
        }
        if (i != np) goto bad;
        if (ty == 3 && t != 0 && t != 3 && t != 4)
            return wl_error(P, "'%s': only atom.add, .exch and .cas take .f32", full);
        static const uint8_t base[] = {AT_ADD, AT_MIN, AT_MAX, AT_EXCH, AT_CAS};
        in->sub = base[t];
        if (t == 0 && ty == 3) in->sub = AT_ADDF;
        if ((t == 1 || t == 2) && (ty == 2 || ty == 4)) in->sub = (uint8_t)(in->sub + 1);
        if (ty == 3) *imm = 'f';
        if (t == 4) *sig = "dAss";
        return 0;
    default:
        if (np == 0) return 0;
    }
bad:
    return wl_error(P, "unknown opcode '%s'", full);
}

static int reg_operand(wl_parser *P, const char *name, int *num)
{
    if (*num >= WT_MAX_REGS)
        return wl_error(P, "bad register '%s' (registers are r0..r%d)", name, WT_MAX_REGS - 1);
    return 0;
}

static void note_reg(wl_kbuild *kb, int r)
{
    if (r > kb->max_reg) kb->max_reg = r;
}

static int parse_reg(wl_parser *P, wl_kbuild *kb, wl_cur *c, int pred, uint8_t *out)
{
    char name[WL_NAME_MAX], q[40];
    wl_cur save = *c;
    int n;
    if (!wl_ident(c, name, 0) || !(pred ? wl_is_pred_name(name, &n) : wl_is_reg_name(name, &n))) {
        *c = save;
        return wl_error(P, "expected a %s, got %s", pred ? "predicate p0..p7" : "register r0..r63",
                        wl_quote(c, q, sizeof q));
    }
    if (pred && n >= WT_MAX_PREDS)
        return wl_error(P, "bad predicate '%s' (predicates are p0..p%d)", name, WT_MAX_PREDS - 1);
    if (!pred) {
        if (reg_operand(P, name, &n)) return -1;
        note_reg(kb, n);
    }
    *out = (uint8_t)n;
    return 0;
}

static int imm_bits(wl_parser *P, wl_val v, char kind, uint32_t *out)
{
    if (kind == 'f' || (kind == 'r' && v.isreal)) {
        *out = wl_f32_bits(wl_val_real(v));
        return 0;
    }
    int64_t i;
    if (wl_val_int(P, v, INT32_MIN, UINT32_MAX, "the operand", &i)) return -1;
    *out = (uint32_t)i;
    return 0;
}

static int parse_source(wl_parser *P, wl_kbuild *kb, wl_cur *c, char imm, wl_operand *o)
{
    char name[WL_NAME_MAX];
    wl_skip_ws(c);
    if (*c->p == '%') {
        c->p++;
        size_t n = wl_ident(c, name, 0);
        int s = n ? oneof(name, SPECIALS, 7) : -1;
        if (s < 0)
            return wl_error(P,
                            "unknown special register '%%%s' (expected %%tid, %%ntid, %%ctaid, "
                            "%%nctaid, %%gtid, %%laneid or %%warpid)",
                            n ? name : "");
        o->kind = WL_OPND_SPECIAL;
        o->reg = (uint8_t)s;
        return 0;
    }
    if (wl_peek_ident(c, name, 0)) {
        int n;
        wl_cur save = *c;
        wl_ident(c, name, 0);
        wl_skip_ws(c);
        if (wl_is_reg_name(name, &n) && *c->p != '(') {
            if (reg_operand(P, name, &n)) return -1;
            note_reg(kb, n);
            o->kind = WL_OPND_REG;
            o->reg = (uint8_t)n;
            return 0;
        }
        if (wl_is_pred_name(name, &n) && *c->p != '(')
            return wl_error(P, "predicate '%s' where a register or constant is expected", name);
        *c = save;
    }
    wl_val v;
    if (wl_expr(P, c, &v)) return -1;
    o->kind = WL_OPND_IMM;
    return imm_bits(P, v, imm, &o->imm);
}

static int parse_address(wl_parser *P, wl_kbuild *kb, wl_cur *c, wl_inst *in)
{
    if (wl_expect(P, c, '[', "to start an address")) return -1;
    int neg = 0;
    int64_t off = 0;
    if (wl_accept(c, '-'))
        neg = 1;
    else
        wl_accept(c, '+');
    for (;;) {
        char name[WL_NAME_MAX], q[40];
        int n;
        wl_cur save = *c;
        if (wl_ident(c, name, 0) && wl_is_reg_name(name, &n)) {
            if (reg_operand(P, name, &n)) return -1;
            if (neg) return wl_error(P, "a register cannot be subtracted in an address");
            if (in->nareg == 2)
                return wl_error(P, "too many registers in an address (at most two)");
            note_reg(kb, n);
            uint32_t scale = 1;
            if (wl_accept(c, '*')) {
                wl_val v;
                int64_t s;
                if (wl_expr_term(P, c, &v) ||
                    wl_val_int(P, v, INT32_MIN, UINT32_MAX, "an address scale", &s))
                    return -1;
                scale = (uint32_t)s;
            }
            in->areg[in->nareg] = (uint8_t)n;
            in->ascale[in->nareg++] = scale;
        } else {
            *c = save;
            wl_val v;
            int64_t t;
            if (wl_expr_term(P, c, &v) ||
                wl_val_int(P, v, -(int64_t)UINT32_MAX, UINT32_MAX, "an address offset", &t))
                return -1;
            off += neg ? -t : t;
            if (off > (int64_t)UINT32_MAX * 4 || off < -(int64_t)UINT32_MAX * 4)
                return wl_error(P, "address offset out of range");
        }
        if (wl_accept(c, ']')) break;
        if (wl_accept(c, '+'))
            neg = 0;
        else if (wl_accept(c, '-'))
            neg = 1;
        else
            return wl_error(P, "expected '+', '-' or ']' in an address, got %s",
                            wl_quote(c, q, sizeof q));
    }
    in->aoff = (uint32_t)(uint64_t)off;
    return 0;
}

static int grow(wl_parser *P, void **p, size_t *cap, size_t n, size_t size)
{
    if (n < *cap) return 0;
    size_t c = *cap ? *cap * 2 : 16;
    void *q = realloc(*p, c * size);
    if (!q) return wl_error(P, "out of memory");
    *p = q;
    *cap = c;
    return 0;
}

/* Labels are found through a hash table: a kernel may have very many, and a search per label
 * or per branch would make parsing quadratic. */
static size_t label_hash(const char *s)
{
    return (size_t)wt_fnv1a(WT_FNV_INIT, s, strlen(s));
}

/* The index of the label `name`, or -1. */
static long label_find(const wl_kbuild *kb, const char *name)
{
    if (!kb->ltabcap) return -1;
    for (size_t i = label_hash(name) & (kb->ltabcap - 1);; i = (i + 1) & (kb->ltabcap - 1)) {
        uint32_t e = kb->ltab[i];
        if (!e) return -1;
        if (strcmp(kb->labels[e - 1].name, name) == 0) return (long)(e - 1);
    }
}

static void label_insert(wl_kbuild *kb, size_t idx)
{
    size_t i = label_hash(kb->labels[idx].name) & (kb->ltabcap - 1);
    while (kb->ltab[i])
        i = (i + 1) & (kb->ltabcap - 1);
    kb->ltab[i] = (uint32_t)(idx + 1);
}

/* Makes room in the table for one more label. */
static int label_reserve(wl_parser *P, wl_kbuild *kb)
{
    if (2 * (kb->nlabels + 1) < kb->ltabcap) return 0;
    size_t cap = kb->ltabcap ? kb->ltabcap * 2 : 64;
    uint32_t *t = calloc(cap, sizeof *t);
    if (!t) return wl_error(P, "out of memory");
    free(kb->ltab);
    kb->ltab = t;
    kb->ltabcap = cap;
    for (size_t i = 0; i < kb->nlabels; i++)
        label_insert(kb, i);
    return 0;
}

/* The labels "name:" at the start of a line: each names the line's instruction (the next one
 * when the line has none). */
static int parse_labels(wl_parser *P, wl_kbuild *kb, wl_cur *c)
{
    char name[WL_NAME_MAX];
    for (;;) {
        wl_cur save = *c;
        size_t n = wl_ident(c, name, 0);
        if (!n || *c->p != ':') {
            *c = save;
            return 0;
        }
        c->p++;
        if (wl_name_fits(P, n)) return -1;
        if (wl_is_reg_name(name, NULL) || wl_is_pred_name(name, NULL))
            return wl_error(P,
                            "label '%s' looks like a register or predicate; choose another "
                            "name",
                            name);
        long d = label_find(kb, name);
        if (d >= 0)
            return wl_error(P, "duplicate label '%s' (first defined at line %d)", name,
                            kb->labels[d].line);
        if (grow(P, (void **)&kb->labels, &kb->caplabels, kb->nlabels, sizeof *kb->labels) ||
            label_reserve(P, kb))
            return -1;
        struct wl_label *l = &kb->labels[kb->nlabels];
        strcpy(l->name, name);
        l->pc = kb->k->ninsts;
        l->line = P->line;
        label_insert(kb, kb->nlabels++);
    }
}

/* The opcode and its dotted suffixes: sets in->op (and in->sub), and gives the kind of
 * immediate its sources take, its operand signature and its class. */
static int parse_opcode(wl_parser *P, wl_cur *c, wl_inst *in, char *imm, const char **sig,
                        uint8_t *cls)
{
    char full[WL_NAME_MAX], base[WL_NAME_MAX], q[40];
    size_t n = wl_ident(c, full, 1);
    if (!n) return wl_error(P, "expected an opcode, got %s", wl_quote(c, q, sizeof q));
    if (n >= WL_NAME_MAX) return wl_error(P, "unknown opcode (too long)");
    strcpy(base, full);
    char *dot = strchr(base, '.');
    if (dot) *dot = '\0';
    const opdef *d = NULL;
    for (size_t i = 0; i < sizeof OPS / sizeof OPS[0]; i++)
        if (strcmp(OPS[i].name, base) == 0) d = &OPS[i];
    if (!d) return wl_error(P, "unknown opcode '%s'", full);
    in->op = d->op;
    *imm = d->imm;
    *sig = d->sig;
    *cls = d->cls;
    return suffixes(P, full, d, dot ? strchr(full, '.') + 1 : NULL, in, imm, sig, cls);
}

/* A branch's target label: recorded as a use, resolved when the kernel ends (a label may come
 * after the branch). */
static int parse_label_use(wl_parser *P, wl_kbuild *kb, wl_cur *c)
{
    char name[WL_NAME_MAX], q[40];
    size_t ln = wl_ident(c, name, 0);
    if (!ln) return wl_error(P, "expected a label after bra, got %s", wl_quote(c, q, sizeof q));
    if (wl_name_fits(P, ln)) return -1;
    if (grow(P, (void **)&kb->uses, &kb->capuses, kb->nuses, sizeof *kb->uses)) return -1;
    struct wl_label *u = &kb->uses[kb->nuses++];
    strcpy(u->name, name);
    u->pc = kb->k->ninsts;
    u->line = P->line;
    return 0;
}

/* The operands, comma-separated, in the order of the signature sig; *ns gets the number of
 * value sources. */
static int parse_operands(wl_parser *P, wl_kbuild *kb, wl_cur *c, wl_inst *in, char imm,
                          const char *sig, int *ns)
{
    *ns = 0;
    for (const char *s = sig; *s; s++) {
        if (s != sig && wl_expect(P, c, ',', "between operands")) return -1;
        int rc = 0;
        switch (*s) {
        case 'd':
            rc = parse_reg(P, kb, c, 0, &in->dst);
            break;
        case 'P':
            rc = parse_reg(P, kb, c, 1, &in->dst);
            break;
        case 'q':
            rc = parse_reg(P, kb, c, 1, &in->psrc);
            break;
        case 's':
            rc = parse_source(P, kb, c, imm, &in->s[(*ns)++]);
            break;
        case 'A':
            rc = parse_address(P, kb, c, in);
            break;
        case 'L':
            rc = parse_label_use(P, kb, c);
            break;
        }
        if (rc) return -1;
    }
    return 0;
}

/* The scoreboard slots of an instruction for the SM: its sources (guard predicate, address
 * registers, register sources, selp's predicate; each once, at most four) and destinations. */
static int scoreboard_slots(wl_parser *P, const wl_inst *in, const char *sig, int ns,
                            inst_info *info)
{
    uint8_t srcs[8];
    int nsrc = 0;
    if (in->guard) srcs[nsrc++] = (uint8_t)WT_SB_PRED(in->gpred);
    for (int i = 0; i < in->nareg; i++)
        srcs[nsrc++] = in->areg[i];
    for (int i = 0; i < ns; i++)
        if (in->s[i].kind == WL_OPND_REG) srcs[nsrc++] = in->s[i].reg;
    if (in->op == OP_SELP) srcs[nsrc++] = (uint8_t)WT_SB_PRED(in->psrc);
    for (int i = 0; i < nsrc; i++) {
        int dup = 0;
        for (int j = 0; j < info->nsrc; j++)
            dup |= info->src[j] == srcs[i];
        if (dup) continue;
        if (info->nsrc == 4)
            return wl_error(P, "too many source registers (at most four, counting the guard "
                               "predicate and address registers)");
        info->src[info->nsrc++] = srcs[i];
    }
    if (strchr(sig, 'd')) info->dst[info->ndst++] = in->dst;
    if (strchr(sig, 'P')) info->dst[info->ndst++] = (uint8_t)WT_SB_PRED(in->dst);
    return 0;
}

int wl_kernel_line(wl_parser *P, wl_kbuild *kb, wl_cur *c)
{
    wl_kernel *k = kb->k;
    char q[40];
    if (parse_labels(P, kb, c)) return -1;
    if (wl_at_end(c)) return 0;
    if (k->ninsts >= (1u << 20)) return wl_error(P, "kernel too long");
    if (grow(P, (void **)&k->insts, &kb->capinsts, k->ninsts, sizeof *k->insts)) return -1;
    wl_inst *in = &k->insts[k->ninsts];
    memset(in, 0, sizeof *in);
    in->line = P->line;
    if (wl_accept(c, '@')) {
        in->guard = wl_accept(c, '!') ? 2 : 1;
        if (parse_reg(P, kb, c, 1, &in->gpred)) return -1;
    }
    char imm;
    const char *sig;
    uint8_t cls;
    int ns;
    if (parse_opcode(P, c, in, &imm, &sig, &cls) || parse_operands(P, kb, c, in, imm, sig, &ns))
        return -1;
    if (!wl_at_end(c))
        return wl_error(P, "unexpected %s after the operands", wl_quote(c, q, sizeof q));
    inst_info info = {0};
    info.cls = cls;
    if (scoreboard_slots(P, in, sig, ns, &info)) return -1;
    /* keep the info next to the instruction until the kernel is finished */
    if (grow(P, (void **)&k->info, &kb->capinfo, k->ninsts, sizeof *k->info)) return -1;
    info.pc = k->ninsts;
    k->info[k->ninsts] = info;
    k->ninsts++;
    return 0;
}

void wl_kbuild_free(wl_kbuild *kb)
{
    free(kb->labels);
    free(kb->uses);
    free(kb->ltab);
    memset(kb, 0, sizeof *kb);
}

int wl_kernel_finish(wl_parser *P, wl_kbuild *kb)
{
    wl_kernel *k = kb->k;
    for (size_t u = 0; u < kb->nuses; u++) {
        long i = label_find(kb, kb->uses[u].name);
        if (i < 0) {
            P->line = kb->uses[u].line;
            return wl_error(P, "undefined label '%s' in kernel '%s'", kb->uses[u].name, k->name);
        }
        k->insts[kb->uses[u].pc].target = kb->labels[i].pc;
    }
    int need_exit = k->ninsts == 0;
    if (!need_exit) {
        const wl_inst *last = &k->insts[k->ninsts - 1];
        need_exit = last->guard || (last->op != OP_EXIT && last->op != OP_BRA);
    }
    for (size_t i = 0; i < kb->nlabels; i++)
        need_exit |= kb->labels[i].pc == k->ninsts;
    if (need_exit) { /* an implicit exit ends every kernel */
        if (grow(P, (void **)&k->insts, &kb->capinsts, k->ninsts, sizeof *k->insts) ||
            grow(P, (void **)&k->info, &kb->capinfo, k->ninsts, sizeof *k->info))
            return -1;
        wl_inst *in = &k->insts[k->ninsts];
        memset(in, 0, sizeof *in);
        in->op = OP_EXIT;
        in->line = P->line;
        memset(&k->info[k->ninsts], 0, sizeof *k->info);
        k->info[k->ninsts].pc = k->ninsts;
        k->info[k->ninsts].cls = IC_EXIT;
        k->ninsts++;
    }
    if (kb->regs_given) {
        if ((int)k->regs <= kb->max_reg) {
            P->line = kb->header_line;
            return wl_error(P, "kernel '%s' has regs=%u but uses r%d", k->name, k->regs,
                            kb->max_reg);
        }
    } else {
        k->regs = (uint32_t)(kb->max_reg + 1);
        if (k->regs == 0) k->regs = 1;
    }
    int n = (int)k->ninsts;
    int *succ = malloc(sizeof(int) * 2 * (size_t)n);
    if (!succ) return wl_error(P, "out of memory");
    for (int i = 0; i < n; i++) {
        const wl_inst *in = &k->insts[i];
        int a = i + 1, b = -1;
        if (in->op == OP_BRA) a = (int)in->target, b = in->guard ? i + 1 : -1;
        if (in->op == OP_EXIT) a = n, b = in->guard ? i + 1 : -1;
        succ[2 * i] = a;
        succ[2 * i + 1] = b;
    }
    uint32_t *ip = malloc(sizeof(uint32_t) * (size_t)n);
    int rc = ip ? wl_ipdom(n, succ, ip) : -1;
    if (rc == 0)
        for (int i = 0; i < n; i++)
            k->insts[i].reconv = ip[i];
    free(succ);
    free(ip);
    if (rc) return wl_error(P, "out of memory");
    return 0;
}
