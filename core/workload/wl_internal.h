/* Internals of the workload language: the parsed program and the helpers the parser files
 * share (lexing cursor, constant expressions, data generators). Not part of the public
 * interface; see core/workload/workload.h and docs/workload-language.md. */
#ifndef WT_WL_INTERNAL_H
#define WT_WL_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "core/workload/workload.h"

#define WL_MEM_BASE   0x1000u    /* byte address of the first array; 0 is never valid */
#define WL_ALIGN      256u       /* arrays start at 256-byte aligned addresses */
#define WL_MEM_MAX    (1u << 30) /* largest memory image, bytes */
#define WL_MAX_BLOCK  1024u      /* largest CTA */
#define WL_MAX_NEST   16         /* nesting of host do ... while loops */
#define WL_NAME_MAX   64
#define WL_EXPR_DEPTH 256 /* nesting of (), calls and signs in an expression: bounds the stack */
#define WL_EXIT_PC(k) ((k)->ninsts) /* the virtual end node of a kernel's CFG */

/* ---- constant values and symbols ---- */

typedef struct wl_val {
    int isreal;
    int64_t i;
    double d;
} wl_val;

typedef struct wl_sym {
    char name[WL_NAME_MAX];
    wl_val v;
    int is_param;
} wl_sym;

/* ---- arrays ---- */

enum { WL_I32, WL_U32, WL_F32 };

typedef struct wl_array {
    char name[WL_NAME_MAX];
    int type;       /* WL_I32, WL_U32, WL_F32 */
    uint32_t base;  /* byte address */
    uint32_t count; /* elements, 4 bytes each */
} wl_array;

/* ---- kernels ---- */

enum wl_opkind { WL_OPND_NONE, WL_OPND_REG, WL_OPND_IMM, WL_OPND_SPECIAL };
enum wl_special {
    WL_SR_TID,
    WL_SR_NTID,
    WL_SR_CTAID,
    WL_SR_NCTAID,
    WL_SR_GTID,
    WL_SR_LANEID,
    WL_SR_WARPID
};

typedef struct wl_operand {
    uint8_t kind; /* wl_opkind */
    uint8_t reg;  /* register number, or wl_special */
    uint32_t imm;
} wl_operand;

/* The interpreter (wl_exec.c) dispatches on runs of this order: integer (mov .. neg),
 * predicate (setp .. selp), float (fadd .. frcp), memory (ldg .. atom), then control. A new
 * opcode goes inside its run. */
enum wl_op {
    OP_MOV,
    OP_ADD,
    OP_SUB,
    OP_MUL,
    OP_MAD,
    OP_DIV,
    OP_DIVU,
    OP_REM,
    OP_REMU,
    OP_MIN,
    OP_MINU,
    OP_MAX,
    OP_MAXU,
    OP_AND,
    OP_OR,
    OP_XOR,
    OP_NOT,
    OP_SHL,
    OP_SHR,
    OP_SRA,
    OP_ABS,
    OP_NEG,
    OP_SETP_S,
    OP_SETP_U,
    OP_SETP_F,
    OP_SELP,
    OP_FADD,
    OP_FSUB,
    OP_FMUL,
    OP_FFMA,
    OP_FMIN,
    OP_FMAX,
    OP_FABS,
    OP_FNEG,
    OP_I2F,
    OP_F2I,
    OP_FDIV,
    OP_FSQRT,
    OP_FRSQRT,
    OP_FEXP,
    OP_FLOG,
    OP_FSIN,
    OP_FCOS,
    OP_FRCP,
    OP_LDG,
    OP_STG,
    OP_LDS,
    OP_STS,
    OP_ATOM,
    OP_BRA,
    OP_BAR,
    OP_EXIT
};
enum wl_cmp { CMP_EQ, CMP_NE, CMP_LT, CMP_LE, CMP_GT, CMP_GE };
enum wl_atom { AT_ADD, AT_ADDF, AT_MIN, AT_MINU, AT_MAX, AT_MAXU, AT_EXCH, AT_CAS };

typedef struct wl_inst {
    uint8_t op;    /* wl_op */
    uint8_t sub;   /* wl_cmp for setp, wl_atom for atom */
    uint8_t guard; /* 0: none, 1: @p, 2: @!p */
    uint8_t gpred; /* guard predicate */
    uint8_t dst;   /* destination register or predicate */
    uint8_t psrc;  /* predicate source of selp */
    uint8_t nareg; /* registers in the address, 0..2 */
    uint8_t areg[2];
    uint32_t ascale[2];
    uint32_t aoff;   /* constant part of the address */
    wl_operand s[3]; /* value sources */
    uint32_t target; /* branch target pc */
    uint32_t reconv; /* immediate post-dominator (branches) */
    int line;
} wl_inst;

typedef struct wl_kernel {
    char name[WL_NAME_MAX];
    int line; /* of its .kernel, for messages */
    uint32_t block, regs, shared;
    uint32_t ninsts;
    wl_inst *insts;
    inst_info *info;
} wl_kernel;

/* ---- host program ---- */

enum { HOST_LAUNCH, HOST_SET, HOST_DO, HOST_WHILE };

typedef struct wl_hostop {
    int kind;
    int line;
    uint32_t kernel;      /* HOST_LAUNCH */
    uint32_t grid, block; /* HOST_LAUNCH */
    uint32_t word;        /* HOST_SET, HOST_WHILE: word index into the image */
    uint32_t value;       /* HOST_SET: value; HOST_WHILE: compared value */
    int ne;               /* HOST_WHILE: 1 for !=, 0 for == */
    uint32_t max;         /* HOST_DO: iteration bound */
    uint32_t match;       /* HOST_DO: index of its WHILE; HOST_WHILE: index of its DO */
} wl_hostop;

struct workload {
    char *name;
    char *file; /* the file it was read from, as named (a built-in's NAME.wl), for messages */
    wl_array *arrays;
    size_t narrays;
    uint32_t *image; /* initial memory image, words from WL_MEM_BASE */
    size_t image_words;
    wl_kernel *kernels;
    size_t nkernels;
    wl_hostop *host;
    size_t nhost;
    uint32_t max_regs, max_shared, max_insts;
    uint64_t data_hash; /* of the data files read, 0 if none: see workload_data_hash */
};

/* ---- parser state ---- */

typedef struct wl_parser {
    const char *filename;
    const char *basedir;
    int line;
    char *err;
    size_t errlen;
    int failed;
    const wl_override *ov;
    size_t nov;
    unsigned char *ov_used;
    wl_sym *syms;
    size_t nsyms, capsyms;
    int depth; /* current expression nesting, against WL_EXPR_DEPTH */
    workload *w;
    size_t caparrays, capwords;
} wl_parser;

/* A cursor over one line. */
typedef struct wl_cur {
    const char *p;
} wl_cur;

/* wl_lex.c */
int wl_error(wl_parser *P, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void wl_skip_ws(wl_cur *c);
int wl_at_end(wl_cur *c);
int wl_accept(wl_cur *c, char ch);
int wl_expect(wl_parser *P, wl_cur *c, char ch, const char *what);
/* An identifier [A-Za-z_][A-Za-z0-9_]*, or with dots when `dots`. Returns its length (0 if
 * none) and copies at most WL_NAME_MAX-1 characters into buf. */
size_t wl_ident(wl_cur *c, char *buf, int dots);
size_t wl_peek_ident(const wl_cur *c, char *buf, int dots);
/* The error for a name of `n` characters that does not fit WL_NAME_MAX (wl_ident truncates it,
 * and a truncated name could silently match another); 0 when it fits. */
int wl_name_fits(wl_parser *P, size_t n);
/* 0, or an error "WHAT 'NAME' looks like a register or predicate ..." for r<digits>, p<digits> */
int wl_name_not_register(wl_parser *P, const char *what, const char *name);
int wl_is_reg_name(const char *s, int *num);  /* r0..r99... */
int wl_is_pred_name(const char *s, int *num); /* p0..p9... */
/* A string literal "..." (no escapes) into buf. */
int wl_string(wl_parser *P, wl_cur *c, char *buf, size_t buflen);
/* A short quote of the text at the cursor, for messages. */
const char *wl_quote(const wl_cur *c, char *buf, size_t buflen);

/* wl_expr.c */
int wl_sym_add(wl_parser *P, const char *name, wl_val v, int is_param);
const wl_sym *wl_sym_find(const wl_parser *P, const char *name);
int wl_expr(wl_parser *P, wl_cur *c, wl_val *out);
int wl_expr_term(wl_parser *P, wl_cur *c, wl_val *out); /* one multiplicative term */
/* An expression that must be an integer in [lo, hi]; `what` names it in messages. */
int wl_expr_int(wl_parser *P, wl_cur *c, int64_t lo, int64_t hi, const char *what, int64_t *out);
int wl_val_int(wl_parser *P, wl_val v, int64_t lo, int64_t hi, const char *what, int64_t *out);
double wl_val_real(wl_val v);
/* The nearest f32, +-inf beyond its range (no undefined out-of-range conversion), the default
 * NaN for a NaN. Inline: generators convert one per element. */
static inline uint32_t wl_f32_bits(double d)
{
    float f = fabs(d) <= FLT_MAX ? (float)d : d != d ? NAN : d > 0 ? INFINITY : -INFINITY;
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* wl_data.c (arrays), wl_graph.c (graphs), wl_matrix.c (sparse matrices) */
int wl_parse_array(wl_parser *P, wl_cur *c);
int wl_parse_graph(wl_parser *P, wl_cur *c);
int wl_parse_matrix(wl_parser *P, wl_cur *c);
const wl_array *wl_array_by_name(const workload *w, const char *name);

/* wl_data.c: what the generators share. */
/* Reserves an array of `count` words; returns a pointer to its words in the image (which may
 * move with the next array), or NULL after wl_error. */
uint32_t *wl_alloc_array(wl_parser *P, const char *name, int type, uint64_t count);
/* Generator arguments: `name(key=EXPR, EXPR, ...)`; positional ones fill keys in order. */
typedef struct wl_gen_args {
    wl_val v[6];
    unsigned given;
    char str[512];
    int has_str;
} wl_gen_args;
int wl_gen_parse_args(wl_parser *P, wl_cur *c, const char *gen, const char *const *keys, int nkeys,
                      int want_str, wl_gen_args *ga);
double wl_gen_real(const wl_gen_args *ga, int k, double def);
int wl_gen_int(wl_parser *P, const wl_gen_args *ga, int k, const char *what, int64_t lo, int64_t hi,
               int64_t def, int64_t *out);
/* ".KIND NAME GEN": the name (into name) and the generator (into gen), each WL_NAME_MAX bytes;
 * gens lists the generators for the message. */
int wl_gen_head(wl_parser *P, wl_cur *c, const char *kind, const char *gens, char *name, char *gen);
/* Nothing may follow the generator on its line. */
int wl_gen_end(wl_parser *P, wl_cur *c);
/* The arguments of a file reader `gen("file")`, the line's end included. */
int wl_gen_file(wl_parser *P, wl_cur *c, const char *gen, wl_gen_args *ga);
/* Opens a data file named relative to the workload's folder (`what` names its kind in
 * messages); its path goes to path. NULL after wl_error. */
FILE *wl_data_open(wl_parser *P, const char *file, const char *what, char *path, size_t pathlen);
/* Reports a problem at line `ln` of a data file, naming the workload line that reads it; text,
 * if not NULL, is quoted as what was found. */
int wl_data_error(wl_parser *P, const char *path, int ln, const char *what, const char *msg,
                  const char *text);
/* The next line of a data file, whatever its length, into *buf (grown as needed, free it
 * after), without its line ending: its length, -1 at the end of the file, or -2 after
 * wl_data_error (a NUL byte: data files are text; a read error). ln is the line's number. */
long wl_data_line(wl_parser *P, FILE *f, const char *path, int ln, const char *what, char **buf,
                  size_t *cap);
/* Adds the bytes of an opened data file to the workload's data hash and rewinds it. Returns 0,
 * or -1 after wl_error. */
int wl_data_hash(wl_parser *P, FILE *f, const char *path);
/* The arrays NAME_rowptr (filled: n entries, entry i in row row[i]) and NAME_col (n words) of
 * a CSR structure; `kind` names it in messages. Their word offsets in the image go to rpoff and
 * coloff: the image moves as arrays are added. */
int wl_csr_arrays(wl_parser *P, const char *kind, const char *name, uint32_t rows,
                  const uint32_t *row, size_t n, size_t *rpoff, size_t *coloff);

/* wl_kparse.c: one instruction line of a kernel; labels are resolved by wl_kernel_finish. */
typedef struct wl_kbuild {
    wl_kernel *k;
    size_t capinsts, capinfo;
    struct wl_label {
        char name[WL_NAME_MAX];
        uint32_t pc;
        int line;
    } * labels, *uses;
    size_t nlabels, caplabels, nuses, capuses;
    uint32_t *ltab; /* hash table of labels by name: index + 1, 0 when free */
    size_t ltabcap; /* a power of two, more than twice nlabels */
    int max_reg;
    int regs_given;
    int header_line;
} wl_kbuild;
int wl_kernel_line(wl_parser *P, wl_kbuild *kb, wl_cur *c);
int wl_kernel_finish(wl_parser *P, wl_kbuild *kb);
void wl_kbuild_free(wl_kbuild *kb);

/* wl_cfg.h has the post-dominator analysis. */

#endif
