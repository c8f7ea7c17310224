/* Workload language: the warp interpreter. Executes one pre-decoded instruction for the
 * active lanes of a warp and maintains its SIMT reconvergence stack (immediate
 * post-dominator reconvergence). */
#include "core/workload/wl_exec.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/workload/wl_alu.h"

/* A value source as 32 lanes: a register row, or `buf` filled with the immediate or the
 * special register (all 32 lanes: the operations read only the active ones). */
static const uint32_t *source(const wl_instance *I, const wl_warp *W, const wl_operand *o,
                              uint32_t *buf)
{
    if (o->kind == WL_OPND_REG) return W->regs + (size_t)o->reg * WT_WARP_SIZE;
    uint32_t v = o->imm, step = 0; /* lane l gets v + (l & step): step is 0 or ~0 */
    if (o->kind == WL_OPND_SPECIAL) {
        uint32_t base = W->warp_in_cta * WT_WARP_SIZE;
        switch (o->reg) {
        case WL_SR_TID:
            v = base;
            step = ~0u;
            break;
        case WL_SR_NTID:
            v = I->block;
            break;
        case WL_SR_CTAID:
            v = W->cta_id;
            break;
        case WL_SR_NCTAID:
            v = I->grid;
            break;
        case WL_SR_GTID:
            v = W->cta_id * I->block + base;
            step = ~0u;
            break;
        case WL_SR_LANEID:
            v = 0;
            step = ~0u;
            break;
        case WL_SR_WARPID:
            v = W->warp_in_cta;
            break;
        default:
            v = 0;
            break;
        }
    }
    for (uint32_t l = 0; l < WT_WARP_SIZE; l++)
        buf[l] = v + (l & step);
    return buf;
}

static int push(wl_instance *I, wl_warp *W, uint32_t pc, uint32_t rpc, uint32_t mask)
{
    if (W->sp >= I->stack_cap) return -1;
    W->stack[W->sp].pc = pc;
    W->stack[W->sp].rpc = rpc;
    W->stack[W->sp].mask = mask;
    W->sp++;
    return 0;
}

/* Moves the top entry to npc and pops entries that reached their reconvergence point. */
static void advance(const wl_kernel *k, wl_warp *W, uint32_t npc)
{
    if (W->sp == 0) return;
    W->stack[W->sp - 1].pc = npc;
    while (W->sp > 0 &&
           (W->stack[W->sp - 1].pc == W->stack[W->sp - 1].rpc || W->stack[W->sp - 1].mask == 0))
        W->sp--;
    if (W->sp > 0 && W->stack[W->sp - 1].pc >= k->ninsts) W->sp = 0; /* ran off the end */
}

static int mem_error(const wl_instance *I, const wl_inst *in, uint32_t pc, const char *what,
                     uint32_t lane, uint32_t addr, const char *why, char *err, size_t errlen)
{
    if (err && errlen)
        snprintf(err, errlen, "%s: kernel '%s', pc %u (line %d): %s address 0x%x of lane %u %s",
                 I->w->name, I->k->name, pc, in->line, what, addr, lane, why);
    return -1;
}

/* The last of the arrays (sorted by base) whose base is at or below addr; 0 if none is. */
static size_t array_at(const wl_array *arr, size_t na, uint32_t addr)
{
    size_t lo = 0, hi = na;
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (arr[mid].base <= addr)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* Whether the 4 bytes at aligned address a lie in one of the na arrays; *ai, the array the
 * last address fell in, is tried first and updated. A workload may have no arrays at all. */
static bool in_an_array(const wl_array *arr, size_t na, size_t *ai, uint32_t a)
{
    if (!na) return false;
    if (a >= arr[*ai].base && a - arr[*ai].base < arr[*ai].count * 4u) return true;
    *ai = array_at(arr, na, a);
    return a >= arr[*ai].base && a - arr[*ai].base < arr[*ai].count * 4u;
}

/* Computes and checks every active lane's address. Returns 0 or -1 with err. */
static int addresses(const wl_instance *I, const wl_warp *W, const wl_inst *in, uint32_t pc,
                     uint32_t act, int shared, const char *what, inst_exec *out, char *err,
                     size_t errlen)
{
    const uint32_t *r0 = W->regs + (size_t)in->areg[0] * WT_WARP_SIZE;
    const uint32_t *r1 = W->regs + (size_t)in->areg[1] * WT_WARP_SIZE;
    uint32_t s0 = in->nareg > 0 ? in->ascale[0] : 0, s1 = in->nareg > 1 ? in->ascale[1] : 0;
    uint32_t off = in->aoff, *addr = out->addr;
    out->access_size = 4;
    if (!act) return 0;
    /* The space the first active lane's address falls in: [base, base + size), size a multiple
     * of 4 (an aligned address below it has its 4 bytes inside). Every lane aligned and inside
     * it is the usual case and needs no more; anything else takes the checks below, to find
     * the lane to report. */
    const wl_array *arr = I->w->arrays;
    size_t na = I->w->narrays, ai = 0;
    uint32_t f = (uint32_t)__builtin_ctz(act), base = 0, size = 0;
    if (shared) {
        size = I->k->shared & ~3u;
    } else if (na) {
        ai = array_at(arr, na, off + r0[f] * s0 + r1[f] * s1);
        base = arr[ai].base;
        size = arr[ai].count * 4u;
    }
    uint32_t bits = 0, out_of = 0;
#define ADDRESSES(expr)                                                                            \
    LANES(act, l, {                                                                                \
        uint32_t a = (expr);                                                                       \
        addr[l] = a;                                                                               \
        bits |= a;                                                                                 \
        out_of |= a - base >= size;                                                                \
    })
    if (in->nareg == 1 && s0 && !(s0 & (s0 - 1))) { /* one register times 2^k: a shift */
        uint32_t k = (uint32_t)__builtin_ctz(s0);
        ADDRESSES(off + (r0[l] << k));
    } else {
        ADDRESSES(off + r0[l] * s0 + r1[l] * s1);
    }
#undef ADDRESSES
    if (!(bits & 3) && !out_of) return 0;
    if (shared) {
        uint32_t lim = I->k->shared;
        LANES(act, l, {
            uint32_t a = addr[l];
            if (a & 3)
                return mem_error(I, in, pc, what, l, a, "is not 4-byte aligned", err, errlen);
            if (a >= lim || lim - a < 4)
                return mem_error(I, in, pc, what, l, a, "is outside the CTA's shared memory", err,
                                 errlen);
        });
        return 0;
    }
    ai = 0;
    LANES(act, l, {
        uint32_t a = addr[l];
        if (a & 3) return mem_error(I, in, pc, what, l, a, "is not 4-byte aligned", err, errlen);
        if (!in_an_array(arr, na, &ai, a))
            return mem_error(I, in, pc, what, l, a, "is outside every array", err, errlen);
    });
    return 0;
}

static uint32_t atom_op(int sub, uint32_t old, uint32_t b)
{
    switch (sub) {
    case AT_ADD:
        return old + b;
    case AT_ADDF:
        return U(F(old) + F(b));
    case AT_MIN:
        return (int32_t)b < (int32_t)old ? b : old;
    case AT_MINU:
        return b < old ? b : old;
    case AT_MAX:
        return (int32_t)b > (int32_t)old ? b : old;
    case AT_MAXU:
        return b > old ? b : old;
    default:
        return b; /* AT_EXCH */
    }
}

/* The warp's words are consecutive in memory (every lane active, each address 4 past the
 * previous one): a load or store moves them as one block. The test has no per-lane branch, so
 * it vectorizes. */
static inline bool consecutive_words(uint32_t act, const uint32_t *addr)
{
    if (act != ~0u) return false;
    uint32_t off = 0;
    for (int l = 0; l + 1 < WT_WARP_SIZE; l++)
        off |= addr[l + 1] - addr[l] - 4u;
    return off == 0;
}

/* A global load, store or atomic's data movement, at checked addresses: d gets the loaded
 * (or, for an atomic, the old) words, a and b are the stored value and the atomic's operands. */
static inline void global_access(wl_instance *I, int op, int sub, uint32_t act,
                                 const uint32_t *addr, const uint32_t *a, const uint32_t *b,
                                 uint32_t *d)
{
    switch (op) {
    case OP_LDG:
        if (consecutive_words(act, addr))
            memcpy(d, &I->mem[(addr[0] - WL_MEM_BASE) >> 2], WT_WARP_SIZE * sizeof *d);
        else
            LANES(act, l, d[l] = I->mem[(addr[l] - WL_MEM_BASE) >> 2]);
        break;
    case OP_STG:
        if (consecutive_words(act, addr))
            memcpy(&I->mem[(addr[0] - WL_MEM_BASE) >> 2], a, WT_WARP_SIZE * sizeof *a);
        else
            LANES(act, l, I->mem[(addr[l] - WL_MEM_BASE) >> 2] = a[l]);
        break;
    default: /* OP_ATOM */
        LANES(act, l, {
            uint32_t *m = &I->mem[(addr[l] - WL_MEM_BASE) >> 2];
            uint32_t old = *m;
            *m = sub == AT_CAS ? (old == a[l] ? b[l] : old) : atom_op(sub, old, a[l]);
            d[l] = old;
        });
        break;
    }
}

/* Deferred mode: the access waits in SM sm's list for wl_commit. Nothing but the warp itself
 * reads its destination before its next issue, which comes after the commit, and the values
 * it stores are copied now (an immediate's lanes live on the issuer's stack). Returns 0, or
 * -1 with err when out of memory. */
static int defer_global(wl_instance *I, int sm, const wl_inst *in, uint32_t act,
                        const uint32_t *addr, const wl_operands *o, char *err, size_t errlen)
{
    wl_pending_list *p = &I->pending[sm];
    if (p->n == p->cap) {
        uint32_t cap = p->cap ? 2 * p->cap : 8;
        wl_pending *e = realloc(p->e, cap * sizeof *e);
        if (!e) {
            if (err && errlen) snprintf(err, errlen, "%s: out of memory", I->w->name);
            return -1;
        }
        p->e = e;
        p->cap = cap;
    }
    wl_pending *x = &p->e[p->n++];
    x->op = (uint8_t)in->op;
    x->sub = (uint8_t)in->sub;
    x->act = act;
    x->d = o->d;
    memcpy(x->addr, addr, sizeof x->addr);
    if (o->a) memcpy(x->a, o->a, sizeof x->a);
    if (o->b) memcpy(x->b, o->b, sizeof x->b);
    return 0;
}

void wl_commit(void *self, int sm)
{
    wl_instance *I = self;
    wl_pending_list *p = &I->pending[sm];
    for (uint32_t i = 0; i < p->n; i++) {
        const wl_pending *x = &p->e[i];
        global_access(I, x->op, x->sub, x->act, x->addr, x->a, x->b, x->d);
    }
    p->n = 0;
}

/* Loads, stores and atomics (OP_LDG .. OP_ATOM): the addresses go to out for the memory
 * system, the data moves here (or at wl_commit, deferred). Returns 0, or -1 with err for a
 * bad address. */
static inline int exec_memory(wl_instance *I, const wl_warp *W, int sm, const wl_inst *in,
                              uint32_t pc, uint32_t act, const wl_operands *o, inst_exec *out,
                              char *err, size_t errlen)
{
    const uint32_t *a = o->a;
    uint32_t *d = o->d;
    switch (in->op) {
    case OP_LDG:
    case OP_STG:
    case OP_ATOM: {
        static const char *const what[] = {"global load", "global store", "atomic"};
        int k = in->op == OP_LDG ? 0 : in->op == OP_STG ? 1 : 2;
        if (addresses(I, W, in, pc, act, 0, what[k], out, err, errlen)) return -1;
        if (I->deferred) return defer_global(I, sm, in, act, out->addr, o, err, errlen);
        global_access(I, in->op, in->sub, act, out->addr, o->a, o->b, d);
        break;
    }
    case OP_LDS:
    case OP_STS: {
        if (addresses(I, W, in, pc, act, 1, in->op == OP_LDS ? "shared load" : "shared store", out,
                      err, errlen))
            return -1;
        uint32_t *sh =
            I->shared + ((size_t)sm * (size_t)I->max_ctas + (size_t)W->cta_slot) * I->shared_words;
        if (in->op == OP_LDS)
            LANES(act, l, d[l] = sh[out->addr[l] >> 2]);
        else
            LANES(act, l, sh[out->addr[l] >> 2] = a[l]);
        break;
    }
    }
    return 0;
}

/* Where the warp goes next, once the stack is up to date. Returns 0 for wl_issue. */
static inline int issue_done(const wl_kernel *k, const wl_warp *W, inst_exec *out)
{
    out->next_pc = W->sp ? W->stack[W->sp - 1].pc : k->ninsts;
    out->warp_done = W->sp == 0;
    return 0;
}

/* A branch: a uniform one moves the path, a divergent one replaces the top entry by a
 * waiting one at the reconvergence point and pushes the two paths (the taken one on top, so
 * it runs first). Returns 0, or -1 with err when the SIMT stack overflows. */
static inline int exec_branch(wl_instance *I, wl_warp *W, const wl_inst *in, uint32_t pc,
                              uint32_t mask, uint32_t act, inst_exec *out, char *err, size_t errlen)
{
    const wl_kernel *k = I->k;
    wl_entry *top = &W->stack[W->sp - 1];
    uint32_t taken = act, nt = mask & ~act, R = in->reconv;
    out->active_mask = mask;
    out->taken_mask = taken;
    out->target_pc = in->target;
    out->reconv_pc = R;
    if (nt == 0) {
        advance(k, W, in->target);
    } else if (taken == 0) {
        advance(k, W, pc + 1);
    } else {
        out->diverged = 1;
        if (top->rpc == R)
            W->sp--; /* same reconvergence point: replace the path */
        else
            top->pc = R; /* the top entry waits at the reconvergence point */
        int rc = 0;
        if (pc + 1 != R) rc |= push(I, W, pc + 1, R, nt);
        if (in->target != R) rc |= push(I, W, in->target, R, taken);
        if (rc) {
            if (err && errlen)
                snprintf(err, errlen, "%s: kernel '%s', pc %u: SIMT stack overflow", I->w->name,
                         k->name, pc);
            return -1;
        }
        if (W->sp) advance(k, W, W->stack[W->sp - 1].pc);
    }
    return issue_done(k, W, out);
}

/* exit: the active lanes leave every path of the stack. Returns 1 when the top path has no
 * lane left (the warp moved on to the next path, out is complete), else 0 for the caller to
 * step past the instruction. */
static inline int exec_exit(const wl_kernel *k, wl_warp *W, uint32_t act, inst_exec *out)
{
    if (!act) return 0;
    for (int i = 0; i < W->sp; i++)
        W->stack[i].mask &= ~act;
    wl_entry *top = &W->stack[W->sp - 1];
    if (top->mask != 0) return 0;
    advance(k, W, top->pc); /* every lane of this path left */
    issue_done(k, W, out);
    return 1;
}

/* The groups of opcodes the interpreter dispatches on are ranges of the opcode order
 * (core/workload/wl_internal.h): these pin its ends. */
_Static_assert(OP_MOV == 0 && OP_NEG + 1 == OP_SETP_S && OP_SELP + 1 == OP_FADD &&
                   OP_FRCP + 1 == OP_LDG && OP_ATOM + 1 == OP_BRA,
               "the opcode groups of wl_issue are contiguous");

int wl_issue(void *self, int sm, int warp_slot, inst_exec *out, char *err, size_t errlen)
{
    wl_instance *I = self;
    wl_warp *W = &I->warps[(size_t)sm * (size_t)I->max_warps + (size_t)warp_slot];
    const wl_kernel *k = I->k;
    if (!k || W->sp == 0) {
        if (err && errlen) snprintf(err, errlen, "%s: issue on a finished warp", I->w->name);
        return -1;
    }
    const wl_entry *top = &W->stack[W->sp - 1];
    uint32_t pc = top->pc, mask = top->mask;
    const wl_inst *in = &k->insts[pc];
    uint32_t act = mask;
    if (in->guard) act &= in->guard == 1 ? W->pred[in->gpred] : ~W->pred[in->gpred];
    out->active_mask = act;
    out->access_size = 0;
    out->diverged = 0;
    out->taken_mask = 0;
    out->target_pc = 0;
    out->fallthru_pc = pc + 1;
    out->reconv_pc = 0;
    out->warp_done = 0;

    uint32_t ba[WT_WARP_SIZE], bb[WT_WARP_SIZE], bc[WT_WARP_SIZE];
    wl_operands o = {NULL, NULL, NULL, W->regs + (size_t)in->dst * WT_WARP_SIZE};
    if (in->s[0].kind) o.a = source(I, W, &in->s[0], ba);
    if (in->s[1].kind) o.b = source(I, W, &in->s[1], bb);
    if (in->s[2].kind) o.c = source(I, W, &in->s[2], bc);

    /* One compare per group, then the group's own switch: the common arithmetic comes first. */
    if (in->op <= OP_NEG) {
        exec_integer(in, act, &o);
    } else if (in->op <= OP_SELP) {
        exec_predicate(W, in, act, &o);
    } else if (in->op <= OP_FRCP) {
        exec_float(in, act, &o);
    } else if (in->op <= OP_ATOM) {
        if (exec_memory(I, W, sm, in, pc, act, &o, out, err, errlen)) return -1;
    } else if (in->op == OP_BRA) {
        return exec_branch(I, W, in, pc, mask, act, out, err, errlen);
    } else if (in->op == OP_EXIT) {
        if (exec_exit(k, W, act, out)) return 0;
    } else if (W->sp > 1 || act != mask) {
        /* OP_BAR on a path some of the warp's lanes did not take: the lanes of the other path
         * can never arrive (CUDA leaves it undefined); the workload is wrong, not the model */
        if (err && errlen)
            snprintf(err, errlen,
                     "%s:%d: bar on a divergent path (kernel '%s', pc %u: %d of the warp's "
                     "lanes at it; expected every lane of the warp)",
                     I->w->file, in->line, k->name, pc, __builtin_popcount(act));
        return -1;
    } /* OP_BAR: nothing to execute, the SM holds the warp at the barrier */
    advance(k, W, pc + 1);
    return issue_done(k, W, out);
}
