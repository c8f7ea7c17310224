/* Workload language: the interpreter's lane arithmetic (wl_exec.c's only user). Integer,
 * predicate and single-precision operations over a warp's active lanes, as static inline
 * functions so that they inline into wl_issue's dispatch. */
#ifndef WT_WL_ALU_H
#define WT_WL_ALU_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "core/workload/wl_exec.h"

/* Runs the statement `...` for each active lane l of m, in lane order. A full warp (the
 * common case) takes a plain counted loop the compiler can vectorise; otherwise the set bits
 * are visited one by one, so inactive lanes are neither read nor written. */
#define LANES(m, l, ...)                                                                           \
    do {                                                                                           \
        uint32_t _m = (m);                                                                         \
        if (_m == ~0u) {                                                                           \
            for (uint32_t l = 0; l < WT_WARP_SIZE; l++) {                                          \
                __VA_ARGS__;                                                                       \
            }                                                                                      \
        } else {                                                                                   \
            for (; _m; _m &= _m - 1) {                                                             \
                uint32_t l = (uint32_t)__builtin_ctz(_m);                                          \
                __VA_ARGS__;                                                                       \
            }                                                                                      \
        }                                                                                          \
    } while (0)

/* 1 << l, for loops that vectorise without a shift by a per-lane amount. */
static const uint32_t lane_bit[WT_WARP_SIZE] = {
    1u << 0,  1u << 1,  1u << 2,  1u << 3,  1u << 4,  1u << 5,  1u << 6,  1u << 7,
    1u << 8,  1u << 9,  1u << 10, 1u << 11, 1u << 12, 1u << 13, 1u << 14, 1u << 15,
    1u << 16, 1u << 17, 1u << 18, 1u << 19, 1u << 20, 1u << 21, 1u << 22, 1u << 23,
    1u << 24, 1u << 25, 1u << 26, 1u << 27, 1u << 28, 1u << 29, 1u << 30, 1u << 31};

static inline float F(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static inline uint32_t U(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static uint32_t f2i(float f)
{
    if (f != f) return 0;
    if (f >= 2147483648.0f) return (uint32_t)INT32_MAX;
    if (f <= -2147483648.0f) return 0x80000000u;
    return (uint32_t)(int32_t)f;
}

static inline uint32_t sdiv(uint32_t a, uint32_t b)
{
    int32_t x = (int32_t)a, y = (int32_t)b;
    if (y == 0) return 0xFFFFFFFFu;
    if (x == INT32_MIN && y == -1) return a;
    return (uint32_t)(x / y);
}

static inline uint32_t srem(uint32_t a, uint32_t b)
{
    int32_t x = (int32_t)a, y = (int32_t)b;
    if (y == 0) return a;
    if (x == INT32_MIN && y == -1) return 0;
    return (uint32_t)(x % y);
}

/* The comparison over all 32 lanes into `res`, for the caller to keep the active ones: a loop
 * without the mask vectorises, and comparing registers of inactive lanes has no effect. */
#define CMP_ALL(cond)                                                                              \
    for (uint32_t l = 0; l < WT_WARP_SIZE; l++)                                                    \
    res |= (cond) ? lane_bit[l] : 0

#define CMP_LOOP(T, CONV)                                                                          \
    do {                                                                                           \
        switch (in->sub) {                                                                         \
        case CMP_EQ:                                                                               \
            CMP_ALL((T)CONV(a[l]) == (T)CONV(b[l]));                                               \
            break;                                                                                 \
        case CMP_NE:                                                                               \
            CMP_ALL((T)CONV(a[l]) != (T)CONV(b[l]));                                               \
            break;                                                                                 \
        case CMP_LT:                                                                               \
            CMP_ALL((T)CONV(a[l]) < (T)CONV(b[l]));                                                \
            break;                                                                                 \
        case CMP_LE:                                                                               \
            CMP_ALL((T)CONV(a[l]) <= (T)CONV(b[l]));                                               \
            break;                                                                                 \
        case CMP_GT:                                                                               \
            CMP_ALL((T)CONV(a[l]) > (T)CONV(b[l]));                                                \
            break;                                                                                 \
        default:                                                                                   \
            CMP_ALL((T)CONV(a[l]) >= (T)CONV(b[l]));                                               \
            break;                                                                                 \
        }                                                                                          \
    } while (0)

#define NOCONV(x) (x)

/* The instruction's three value sources, each a row of 32 lanes (NULL when the instruction has
 * no such operand), and the destination register's row. */
typedef struct wl_operands {
    const uint32_t *a, *b, *c;
    uint32_t *d;
} wl_operands;

/* Integer arithmetic, logic and shifts (OP_MOV .. OP_NEG) on the active lanes. */
static inline void exec_integer(const wl_inst *in, uint32_t act, const wl_operands *o)
{
    const uint32_t *a = o->a, *b = o->b, *c = o->c;
    uint32_t *d = o->d;
    switch (in->op) {
    case OP_MOV:
        LANES(act, l, d[l] = a[l]);
        break;
    case OP_ADD:
        LANES(act, l, d[l] = a[l] + b[l]);
        break;
    case OP_SUB:
        LANES(act, l, d[l] = a[l] - b[l]);
        break;
    case OP_MUL:
        LANES(act, l, d[l] = a[l] * b[l]);
        break;
    case OP_MAD:
        LANES(act, l, d[l] = a[l] * b[l] + c[l]);
        break;
    case OP_DIV:
        LANES(act, l, d[l] = sdiv(a[l], b[l]));
        break;
    case OP_DIVU:
        LANES(act, l, d[l] = b[l] ? a[l] / b[l] : 0xFFFFFFFFu);
        break;
    case OP_REM:
        LANES(act, l, d[l] = srem(a[l], b[l]));
        break;
    case OP_REMU:
        LANES(act, l, d[l] = b[l] ? a[l] % b[l] : a[l]);
        break;
    case OP_MIN:
        LANES(act, l, d[l] = (int32_t)a[l] < (int32_t)b[l] ? a[l] : b[l]);
        break;
    case OP_MINU:
        LANES(act, l, d[l] = a[l] < b[l] ? a[l] : b[l]);
        break;
    case OP_MAX:
        LANES(act, l, d[l] = (int32_t)a[l] > (int32_t)b[l] ? a[l] : b[l]);
        break;
    case OP_MAXU:
        LANES(act, l, d[l] = a[l] > b[l] ? a[l] : b[l]);
        break;
    case OP_AND:
        LANES(act, l, d[l] = a[l] & b[l]);
        break;
    case OP_OR:
        LANES(act, l, d[l] = a[l] | b[l]);
        break;
    case OP_XOR:
        LANES(act, l, d[l] = a[l] ^ b[l]);
        break;
    case OP_NOT:
        LANES(act, l, d[l] = ~a[l]);
        break;
    /* An immediate amount is one count for every lane: a shift the compiler can vectorise. */
    case OP_SHL:
        if (in->s[1].kind == WL_OPND_IMM) {
            uint32_t n = in->s[1].imm;
            LANES(act, l, d[l] = n >= 32 ? 0 : a[l] << n);
        } else {
            LANES(act, l, d[l] = b[l] >= 32 ? 0 : a[l] << b[l]);
        }
        break;
    case OP_SHR:
        if (in->s[1].kind == WL_OPND_IMM) {
            uint32_t n = in->s[1].imm;
            LANES(act, l, d[l] = n >= 32 ? 0 : a[l] >> n);
        } else {
            LANES(act, l, d[l] = b[l] >= 32 ? 0 : a[l] >> b[l]);
        }
        break;
    case OP_SRA:
        if (in->s[1].kind == WL_OPND_IMM) {
            uint32_t n = in->s[1].imm >= 31 ? 31 : in->s[1].imm;
            LANES(act, l, d[l] = (uint32_t)((int32_t)a[l] >> n));
        } else {
            LANES(act, l, d[l] = (uint32_t)((int32_t)a[l] >> (b[l] >= 31 ? 31 : b[l])));
        }
        break;
    case OP_ABS:
        LANES(act, l, d[l] = (int32_t)a[l] < 0 ? 0u - a[l] : a[l]);
        break;
    case OP_NEG:
        LANES(act, l, d[l] = 0u - a[l]);
        break;
    default:
        break;
    }
}

/* Comparisons into a predicate and the select on one (OP_SETP_S .. OP_SELP). */
static inline void exec_predicate(wl_warp *W, const wl_inst *in, uint32_t act, const wl_operands *o)
{
    const uint32_t *a = o->a, *b = o->b;
    if (in->op == OP_SELP) {
        uint32_t p = W->pred[in->psrc], *d = o->d;
        LANES(act, l, {
            uint32_t x = a[l], y = b[l]; /* both loaded: a select the compiler can vectorise */
            d[l] = p & lane_bit[l] ? x : y;
        });
        return;
    }
    uint32_t res = 0;
    if (in->op == OP_SETP_S)
        CMP_LOOP(int32_t, NOCONV);
    else if (in->op == OP_SETP_U)
        CMP_LOOP(uint32_t, NOCONV);
    else
        CMP_LOOP(float, F);
    W->pred[in->dst] = (W->pred[in->dst] & ~act) | (res & act);
}

/* Single-precision arithmetic and conversions (OP_FADD .. OP_FRCP) on the active lanes. */
static inline void exec_float(const wl_inst *in, uint32_t act, const wl_operands *o)
{
    const uint32_t *a = o->a, *b = o->b, *c = o->c;
    uint32_t *d = o->d;
    switch (in->op) {
    case OP_FADD:
        LANES(act, l, d[l] = U(F(a[l]) + F(b[l])));
        break;
    case OP_FSUB:
        LANES(act, l, d[l] = U(F(a[l]) - F(b[l])));
        break;
    case OP_FMUL:
        LANES(act, l, d[l] = U(F(a[l]) * F(b[l])));
        break;
    case OP_FFMA:
        LANES(act, l, d[l] = U(fmaf(F(a[l]), F(b[l]), F(c[l]))));
        break;
    case OP_FMIN:
        LANES(act, l, d[l] = U(fminf(F(a[l]), F(b[l]))));
        break;
    case OP_FMAX:
        LANES(act, l, d[l] = U(fmaxf(F(a[l]), F(b[l]))));
        break;
    case OP_FABS:
        LANES(act, l, d[l] = a[l] & 0x7FFFFFFFu);
        break;
    case OP_FNEG:
        LANES(act, l, d[l] = a[l] ^ 0x80000000u);
        break;
    case OP_I2F:
        LANES(act, l, d[l] = U((float)(int32_t)a[l]));
        break;
    case OP_F2I:
        LANES(act, l, d[l] = f2i(F(a[l])));
        break;
    case OP_FDIV:
        LANES(act, l, d[l] = U(F(a[l]) / F(b[l])));
        break;
    case OP_FSQRT:
        LANES(act, l, d[l] = U(sqrtf(F(a[l]))));
        break;
    case OP_FRSQRT:
        LANES(act, l, d[l] = U(1.0f / sqrtf(F(a[l]))));
        break;
    case OP_FEXP:
        LANES(act, l, d[l] = U(expf(F(a[l]))));
        break;
    case OP_FLOG:
        LANES(act, l, d[l] = U(logf(F(a[l]))));
        break;
    case OP_FSIN:
        LANES(act, l, d[l] = U(sinf(F(a[l]))));
        break;
    case OP_FCOS:
        LANES(act, l, d[l] = U(cosf(F(a[l]))));
        break;
    case OP_FRCP:
        LANES(act, l, d[l] = U(1.0f / F(a[l])));
        break;
    default:
        break;
    }
}

#endif
