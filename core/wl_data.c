/* Workload language: arrays, their generators, graphs in CSR (R-MAT, uniform, edge-list
 * files), and the memory image they are laid out in. */
#include "core/wl_internal.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/rng.h"

const wl_array *wl_array_by_name(const workload *w, const char *name)
{
    for (size_t i = 0; i < w->narrays; i++)
        if (strcmp(w->arrays[i].name, name) == 0) return &w->arrays[i];
    return NULL;
}

/* Reserves an array of `count` words; returns a pointer to its words in the image. */
static uint32_t *alloc_array(wl_parser *P, const char *name, int type, uint64_t count)
{
    workload *w = P->w;
    if (count == 0) {
        wl_error(P, "array '%s' must have at least one element", name);
        return NULL;
    }
    uint64_t end = WL_MEM_BASE + (uint64_t)w->image_words * 4;
    uint64_t base = (end + WL_ALIGN - 1) / WL_ALIGN * WL_ALIGN;
    if (base + count * 4 > (uint64_t)WL_MEM_BASE + WL_MEM_MAX) {
        wl_error(P, "array '%s' does not fit: the memory image is limited to %u MiB", name,
                 WL_MEM_MAX >> 20);
        return NULL;
    }
    size_t words = (size_t)((base + count * 4 - WL_MEM_BASE) / 4);
    if (words > P->capwords) {
        size_t cap = P->capwords ? P->capwords : 1024;
        while (cap < words)
            cap *= 2;
        uint32_t *img = realloc(w->image, cap * 4);
        if (!img) {
            wl_error(P, "out of memory for array '%s'", name);
            return NULL;
        }
        w->image = img;
        P->capwords = cap;
    }
    memset(w->image + w->image_words, 0, (words - w->image_words) * 4);
    w->image_words = words;
    if (w->narrays == P->caparrays) {
        size_t cap = P->caparrays ? P->caparrays * 2 : 8;
        wl_array *a = realloc(w->arrays, cap * sizeof *a);
        if (!a) {
            wl_error(P, "out of memory");
            return NULL;
        }
        w->arrays = a;
        P->caparrays = cap;
    }
    wl_array *a = &w->arrays[w->narrays];
    memset(a, 0, sizeof *a);
    snprintf(a->name, sizeof a->name, "%s", name);
    a->type = type;
    a->base = (uint32_t)base;
    a->count = (uint32_t)count;
    wl_val v = {0, (int64_t)base, 0};
    if (wl_sym_add(P, name, v, 0)) return NULL;
    w->narrays++;
    return w->image + (base - WL_MEM_BASE) / 4;
}

/* Generator arguments: `name(key=EXPR, EXPR, ...)`; positional ones fill keys in order. */
typedef struct gen_args {
    wl_val v[6];
    unsigned given;
    char str[512];
    int has_str;
} gen_args;

static int parse_args(wl_parser *P, wl_cur *c, const char *gen, const char *const *keys, int nkeys,
                      int want_str, gen_args *ga)
{
    ga->given = 0;
    ga->has_str = 0;
    if (!wl_accept(c, '(')) return 0;
    if (wl_accept(c, ')')) return 0;
    int pos = 0;
    for (;;) {
        wl_skip_ws(c);
        if (*c->p == '"') {
            if (!want_str) return wl_error(P, "%s() takes no string argument", gen);
            if (wl_string(P, c, ga->str, sizeof ga->str)) return -1;
            ga->has_str = 1;
        } else {
            char key[WL_NAME_MAX];
            wl_cur save = *c;
            int k = -1;
            if (wl_ident(c, key, 0) && wl_accept(c, '=')) {
                for (int i = 0; i < nkeys; i++)
                    if (strcmp(keys[i], key) == 0) k = i;
                if (k < 0) {
                    char list[160] = "";
                    for (int i = 0; i < nkeys; i++) {
                        strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
                        strncat(list, keys[i], sizeof list - strlen(list) - 1);
                    }
                    return wl_error(P, "%s() has no argument '%s' (expected %s)", gen, key,
                                    nkeys ? list : "none");
                }
            } else {
                *c = save;
                if (pos >= nkeys)
                    return wl_error(P, "too many arguments to %s() (it takes %d)", gen, nkeys);
                k = pos++;
            }
            if (ga->given & (1u << k)) return wl_error(P, "%s given twice to %s()", keys[k], gen);
            if (wl_expr(P, c, &ga->v[k])) return -1;
            ga->given |= 1u << k;
        }
        if (wl_accept(c, ')')) return 0;
        if (wl_expect(P, c, ',', "between generator arguments")) return -1;
    }
}

static double arg_real(const gen_args *ga, int k, double def)
{
    return ga->given & (1u << k) ? wl_val_real(ga->v[k]) : def;
}

static int arg_int(wl_parser *P, const gen_args *ga, int k, const char *what, int64_t lo,
                   int64_t hi, int64_t def, int64_t *out)
{
    if (!(ga->given & (1u << k))) {
        *out = def;
        return 0;
    }
    return wl_val_int(P, ga->v[k], lo, hi, what, out);
}

/* Converts a constant to the bits of an element of `type`. */
static int elem_bits(wl_parser *P, int type, wl_val v, const char *what, uint32_t *out)
{
    if (type == WL_F32) {
        *out = wl_f32_bits(wl_val_real(v));
        return 0;
    }
    int64_t i;
    if (type == WL_I32) {
        if (wl_val_int(P, v, INT32_MIN, INT32_MAX, what, &i)) return -1;
    } else if (wl_val_int(P, v, 0, UINT32_MAX, what, &i)) {
        return -1;
    }
    *out = (uint32_t)i;
    return 0;
}

int wl_parse_array(wl_parser *P, wl_cur *c)
{
    char name[WL_NAME_MAX], type[WL_NAME_MAX], gen[WL_NAME_MAX], q[40];
    if (!wl_ident(c, name, 0)) return wl_error(P, "expected an array name after .array");
    size_t tl = wl_ident(c, type, 0);
    int t = !tl                        ? -1
            : strcmp(type, "i32") == 0 ? WL_I32
            : strcmp(type, "u32") == 0 ? WL_U32
            : strcmp(type, "f32") == 0 ? WL_F32
                                       : -1;
    if (t < 0)
        return wl_error(P, "bad array type %s (expected i32, u32 or f32)",
                        tl ? type : wl_quote(c, q, sizeof q));
    if (wl_expect(P, c, '[', "before the element count")) return -1;
    int64_t count;
    if (wl_expr_int(P, c, 1, WL_MEM_MAX / 4, "array element count", &count)) return -1;
    if (wl_expect(P, c, ']', "after the element count")) return -1;
    if (!wl_ident(c, gen, 0))
        return wl_error(P, "expected a generator (zero, const, iota or uniform), got %s",
                        wl_quote(c, q, sizeof q));
    static const char *const k_const[] = {"value"}, *const k_iota[] = {"start", "step"},
                             *const k_unif[] = {"seed", "lo", "hi"};
    gen_args ga;
    int g;
    if (strcmp(gen, "zero") == 0) {
        g = 0;
        if (parse_args(P, c, gen, NULL, 0, 0, &ga)) return -1;
    } else if (strcmp(gen, "const") == 0) {
        g = 1;
        if (parse_args(P, c, gen, k_const, 1, 0, &ga)) return -1;
        if (!(ga.given & 1)) return wl_error(P, "const() needs a value");
    } else if (strcmp(gen, "iota") == 0) {
        g = 2;
        if (parse_args(P, c, gen, k_iota, 2, 0, &ga)) return -1;
    } else if (strcmp(gen, "uniform") == 0) {
        g = 3;
        if (parse_args(P, c, gen, k_unif, 3, 0, &ga)) return -1;
    } else {
        return wl_error(P, "unknown generator '%s' (expected zero, const, iota or uniform)", gen);
    }
    if (!wl_at_end(c))
        return wl_error(P, "unexpected %s after the generator", wl_quote(c, q, sizeof q));
    uint32_t bits = 0;
    if (g == 1 && elem_bits(P, t, ga.v[0], "const() value", &bits)) return -1;
    double r_lo = 0, r_hi = 1, start = 0, step = 1;
    int64_t i_lo = 0, i_hi = 1000, seed = 1;
    if (g == 2) {
        start = arg_real(&ga, 0, 0);
        step = arg_real(&ga, 1, 1);
        if (fabs(start) > 9.0e15 || fabs(step) > 9.0e15)
            return wl_error(P, "iota() start and step must be below 9e15 in magnitude");
        if (t != WL_F32 && (start != floor(start) || step != floor(step)))
            return wl_error(P, "iota() on an integer array needs integer start and step");
    }
    if (g == 3) {
        if (arg_int(P, &ga, 0, "seed", 0, INT64_MAX, 1, &seed)) return -1;
        if (t == WL_F32) {
            r_lo = arg_real(&ga, 1, 0);
            r_hi = arg_real(&ga, 2, 1);
            if (!(r_lo < r_hi)) return wl_error(P, "uniform() needs lo < hi");
        } else {
            int64_t lo = t == WL_I32 ? INT32_MIN : 0, hi = t == WL_I32 ? INT32_MAX : UINT32_MAX;
            if (arg_int(P, &ga, 1, "uniform() lo", lo, hi, 0, &i_lo)) return -1;
            if (arg_int(P, &ga, 2, "uniform() hi", lo, hi + 1, 1000, &i_hi)) return -1;
            if (!(i_lo < i_hi)) return wl_error(P, "uniform() needs lo < hi");
        }
    }
    uint32_t *m = alloc_array(P, name, t, (uint64_t)count);
    if (!m) return -1;
    wt_rng rng;
    wt_rng_seed(&rng, (uint64_t)seed);
    for (int64_t i = 0; i < count; i++) {
        switch (g) {
        case 0:
            m[i] = 0;
            break;
        case 1:
            m[i] = bits;
            break;
        case 2:
            if (t == WL_F32)
                m[i] = wl_f32_bits(start + step * (double)i);
            else
                m[i] = (uint32_t)((uint64_t)(int64_t)start + (uint64_t)(int64_t)step * (uint64_t)i);
            break;
        case 3:
            if (t == WL_F32)
                m[i] = wl_f32_bits(r_lo + (r_hi - r_lo) * wt_rng_unit(&rng));
            else
                m[i] = (uint32_t)(i_lo + (int64_t)wt_rng_below(&rng, (uint64_t)(i_hi - i_lo)));
            break;
        }
    }
    return 0;
}

/* ---- graphs ---- */

typedef struct edges {
    uint32_t *src, *dst;
    size_t n, cap;
    uint32_t nodes;
} edges;

static int edge_push(wl_parser *P, edges *e, uint32_t s, uint32_t d)
{
    if (e->n == e->cap) {
        size_t cap = e->cap ? e->cap * 2 : 1024;
        if (cap > WL_MEM_MAX / 4) return wl_error(P, "edge list too large");
        uint32_t *a = realloc(e->src, cap * 4), *b;
        if (!a) return wl_error(P, "out of memory");
        e->src = a;
        b = realloc(e->dst, cap * 4);
        if (!b) return wl_error(P, "out of memory");
        e->dst = b;
        e->cap = cap;
    }
    e->src[e->n] = s;
    e->dst[e->n] = d;
    e->n++;
    return 0;
}

static int read_edgelist(wl_parser *P, const char *file, edges *e)
{
    char path[1024];
    if (P->basedir && P->basedir[0] && file[0] != '/')
        snprintf(path, sizeof path, "%s/%s", P->basedir, file);
    else
        snprintf(path, sizeof path, "%s", file);
    FILE *f = fopen(path, "r");
    if (!f) return wl_error(P, "cannot open edge list '%s': %s", path, strerror(errno));
    const char *wfile = P->filename;
    int wline = P->line, rc = 0;
    char buf[4096];
    int ln = 0;
    uint64_t maxid = 0;
    while (fgets(buf, sizeof buf, f)) {
        ln++;
        char *s = buf;
        while (isspace((unsigned char)*s))
            s++;
        if (*s == '\0' || *s == '#' || *s == '%') continue;
        unsigned long long v[2];
        int ok = 1;
        for (int k = 0; k < 2 && ok; k++) {
            while (*s == ' ' || *s == '\t')
                s++;
            char *end;
            errno = 0;
            if (!isdigit((unsigned char)*s)) ok = 0;
            v[k] = ok ? strtoull(s, &end, 10) : 0;
            if (!ok || errno || v[k] >= (1u << 28) || end == s)
                ok = 0;
            else
                s = end;
        }
        while (ok && isspace((unsigned char)*s))
            s++;
        if (!ok || *s != '\0') {
            buf[strcspn(buf, "\r\n")] = '\0';
            P->filename = path;
            P->line = ln;
            rc = wl_error(P,
                          "expected an edge 'src dst' (two non-negative integers below 2^28), "
                          "got '%.60s' (edge list of %s:%d)",
                          buf, wfile, wline);
            P->filename = wfile;
            P->line = wline;
            break;
        }
        if (edge_push(P, e, (uint32_t)v[0], (uint32_t)v[1])) {
            rc = -1;
            break;
        }
        if (v[0] > maxid) maxid = v[0];
        if (v[1] > maxid) maxid = v[1];
    }
    fclose(f);
    if (rc) return rc;
    if (e->n == 0) return wl_error(P, "edge list '%s' has no edges", path);
    e->nodes = (uint32_t)maxid + 1;
    return 0;
}

static int gen_rmat(wl_parser *P, edges *e, int64_t nodes, int64_t nedges, int64_t seed, double a,
                    double b, double cc)
{
    wt_rng rng;
    wt_rng_seed(&rng, (uint64_t)seed);
    int scale = 0;
    while (((int64_t)1 << scale) < nodes)
        scale++;
    for (int64_t i = 0; i < nedges; i++) {
        uint32_t s = 0, d = 0;
        for (int tries = 0; tries < 64; tries++) {
            s = d = 0;
            for (int l = 0; l < scale; l++) {
                double r = wt_rng_unit(&rng);
                int sb = r >= a + b, db = (r >= a && r < a + b) || r >= a + b + cc;
                s = s << 1 | (uint32_t)sb;
                d = d << 1 | (uint32_t)db;
            }
            if (s < nodes && d < nodes) break;
        }
        if (edge_push(P, e, s % (uint32_t)nodes, d % (uint32_t)nodes)) return -1;
    }
    e->nodes = (uint32_t)nodes;
    return 0;
}

static int build_csr(wl_parser *P, const char *name, const edges *e)
{
    char n1[WL_NAME_MAX + 8], n2[WL_NAME_MAX + 8];
    snprintf(n1, sizeof n1, "%s_rowptr", name);
    snprintf(n2, sizeof n2, "%s_col", name);
    if (strlen(n1) >= WL_NAME_MAX) return wl_error(P, "graph name '%s' is too long", name);
    uint32_t *rp = alloc_array(P, n1, WL_I32, (uint64_t)e->nodes + 1);
    if (!rp) return -1;
    size_t rpoff = (size_t)(rp - P->w->image);
    uint32_t *col = alloc_array(P, n2, WL_I32, e->n);
    if (!col) return -1;
    rp = P->w->image + rpoff; /* the image may have moved */
    memset(rp, 0, ((size_t)e->nodes + 1) * 4);
    for (size_t i = 0; i < e->n; i++)
        rp[e->src[i] + 1]++;
    for (uint32_t v = 0; v < e->nodes; v++)
        rp[v + 1] += rp[v];
    uint32_t *fill = calloc((size_t)e->nodes + 1, 4);
    if (!fill) return wl_error(P, "out of memory");
    for (size_t i = 0; i < e->n; i++) {
        uint32_t s = e->src[i];
        col[rp[s] + fill[s]++] = e->dst[i];
    }
    free(fill);
    wl_val vn = {0, e->nodes, 0}, ve = {0, (int64_t)e->n, 0};
    snprintf(n1, sizeof n1, "%s_nodes", name);
    snprintf(n2, sizeof n2, "%s_edges", name);
    if (wl_sym_add(P, n1, vn, 0) || wl_sym_add(P, n2, ve, 0)) return -1;
    return 0;
}

int wl_parse_graph(wl_parser *P, wl_cur *c)
{
    char name[WL_NAME_MAX], gen[WL_NAME_MAX], q[40];
    if (!wl_ident(c, name, 0)) return wl_error(P, "expected a graph name after .graph");
    if (!wl_ident(c, gen, 0))
        return wl_error(P, "expected a graph generator (rmat, uniform or edgelist), got %s",
                        wl_quote(c, q, sizeof q));
    static const char *const k_rmat[] = {"nodes", "edges", "seed", "a", "b", "c"};
    gen_args ga;
    edges e = {0};
    int rc = -1;
    if (strcmp(gen, "rmat") == 0 || strcmp(gen, "uniform") == 0) {
        int rmat = gen[0] == 'r';
        if (parse_args(P, c, gen, k_rmat, rmat ? 6 : 3, 0, &ga)) goto out;
        if (!wl_at_end(c)) {
            wl_error(P, "unexpected %s after the generator", wl_quote(c, q, sizeof q));
            goto out;
        }
        if ((ga.given & 3) != 3) {
            wl_error(P, "%s() needs nodes= and edges=", gen);
            goto out;
        }
        int64_t nodes, ne, seed;
        if (arg_int(P, &ga, 0, "nodes", 1, 1 << 26, 0, &nodes) ||
            arg_int(P, &ga, 1, "edges", 1, 1 << 27, 0, &ne) ||
            arg_int(P, &ga, 2, "seed", 0, INT64_MAX, 1, &seed))
            goto out;
        if (rmat) {
            double a = arg_real(&ga, 3, 0.57), b = arg_real(&ga, 4, 0.19),
                   cc = arg_real(&ga, 5, 0.19);
            if (a < 0 || b < 0 || cc < 0 || a + b + cc > 1.0 + 1e-12) {
                wl_error(P, "rmat() needs a, b, c >= 0 with a + b + c <= 1");
                goto out;
            }
            if (gen_rmat(P, &e, nodes, ne, seed, a, b, cc)) goto out;
        } else {
            wt_rng rng;
            wt_rng_seed(&rng, (uint64_t)seed);
            for (int64_t i = 0; i < ne; i++) {
                uint32_t s = (uint32_t)wt_rng_below(&rng, (uint64_t)nodes);
                uint32_t d = (uint32_t)wt_rng_below(&rng, (uint64_t)nodes);
                if (edge_push(P, &e, s, d)) goto out;
            }
            e.nodes = (uint32_t)nodes;
        }
    } else if (strcmp(gen, "edgelist") == 0) {
        static const char *const k_file[] = {"file"};
        if (parse_args(P, c, gen, k_file, 0, 1, &ga)) goto out;
        if (!ga.has_str) {
            wl_error(P, "edgelist() needs a quoted file name");
            goto out;
        }
        if (!wl_at_end(c)) {
            wl_error(P, "unexpected %s after the generator", wl_quote(c, q, sizeof q));
            goto out;
        }
        if (read_edgelist(P, ga.str, &e)) goto out;
    } else {
        wl_error(P, "unknown graph generator '%s' (expected rmat, uniform or edgelist)", gen);
        goto out;
    }
    rc = build_csr(P, name, &e);
out:
    free(e.src);
    free(e.dst);
    return rc;
}

/* ---- sparse matrices ---- */

typedef struct triplets {
    uint32_t *row, *col;
    float *val;
    size_t n, cap;
    uint32_t rows, cols;
} triplets;

static int trip_push(wl_parser *P, triplets *t, uint32_t r, uint32_t c, float v)
{
    if (t->n == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 1024;
        if (cap > WL_MEM_MAX / 4) return wl_error(P, "sparse matrix too large");
        uint32_t *a = realloc(t->row, cap * 4);
        if (!a) return wl_error(P, "out of memory");
        t->row = a;
        a = realloc(t->col, cap * 4);
        if (!a) return wl_error(P, "out of memory");
        t->col = a;
        float *b = realloc(t->val, cap * sizeof *b);
        if (!b) return wl_error(P, "out of memory");
        t->val = b;
        t->cap = cap;
    }
    t->row[t->n] = r;
    t->col[t->n] = c;
    t->val[t->n] = v;
    t->n++;
    return 0;
}

/* Reports a problem at line `ln` of the matrix file, naming the workload line that reads it. */
static int mtx_error(wl_parser *P, const char *path, int ln, const char *msg, const char *text)
{
    const char *wfile = P->filename;
    int wline = P->line;
    P->filename = path;
    P->line = ln;
    int rc = text ? wl_error(P, "%s, got '%.60s' (matrix of %s:%d)", msg, text, wfile, wline)
                  : wl_error(P, "%s (matrix of %s:%d)", msg, wfile, wline);
    P->filename = wfile;
    P->line = wline;
    return rc;
}

/* Splits a line into at most `max` whitespace-separated tokens; returns how many, or max+1 when
 * there are more. */
static int split_tokens(char *s, char **tok, int max)
{
    int n = 0;
    for (;;) {
        while (isspace((unsigned char)*s))
            s++;
        if (*s == '\0') return n;
        if (n == max) return max + 1;
        tok[n++] = s;
        while (*s && !isspace((unsigned char)*s))
            s++;
        if (*s) *s++ = '\0';
    }
}

/* A whole token as a non-negative integer of at most 2^31; -1 if it is not one. */
static double token_index(const char *s)
{
    if (!isdigit((unsigned char)*s)) return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end || v > (1ull << 31)) return -1;
    return (double)v;
}

/* A whole token as a finite real; returns -1 if it is not one. */
static int token_real(const char *s, double *out)
{
    char *end;
    errno = 0;
    *out = strtod(s, &end);
    if (end == s || *end || !isfinite(*out) || (errno == ERANGE && fabs(*out) > 1)) return -1;
    return 0;
}

static int read_mtx(wl_parser *P, const char *file, triplets *t)
{
    char path[1024];
    if (P->basedir && P->basedir[0] && file[0] != '/')
        snprintf(path, sizeof path, "%s/%s", P->basedir, file);
    else
        snprintf(path, sizeof path, "%s", file);
    FILE *f = fopen(path, "r");
    if (!f) return wl_error(P, "cannot open matrix '%s': %s", path, strerror(errno));
    char buf[4096];
    int ln = 0, rc = 0, symmetric = 0, pattern = 0, integer = 0, have_size = 0;
    size_t nnz = 0, seen = 0;
    if (!fgets(buf, sizeof buf, f)) {
        fclose(f);
        return mtx_error(P, path, 1, "empty file: expected a '%%MatrixMarket' header", NULL);
    }
    ln = 1;
    buf[strcspn(buf, "\r\n")] = '\0';
    {
        char banner[64], object[64], format[64], field[64], sym[64];
        for (char *s = buf; *s; s++)
            *s = (char)tolower((unsigned char)*s);
        int n = sscanf(buf, "%63s %63s %63s %63s %63s", banner, object, format, field, sym);
        if (n != 5 || strcmp(banner, "%%matrixmarket") != 0 || strcmp(object, "matrix") != 0) {
            rc = mtx_error(P, path, 1,
                           "expected the header '%%MatrixMarket matrix coordinate FIELD SYMMETRY'",
                           buf);
            goto out;
        }
        if (strcmp(format, "coordinate") != 0) {
            rc = mtx_error(P, path, 1,
                           "only the sparse 'coordinate' format is supported (not 'array')", NULL);
            goto out;
        }
        integer = strcmp(field, "integer") == 0;
        pattern = strcmp(field, "pattern") == 0;
        if (!integer && !pattern && strcmp(field, "real") != 0 && strcmp(field, "double") != 0) {
            rc = mtx_error(P, path, 1, "unsupported field (expected real, integer or pattern)",
                           field);
            goto out;
        }
        if (strcmp(sym, "symmetric") == 0)
            symmetric = 1;
        else if (strcmp(sym, "general") != 0) {
            rc = mtx_error(P, path, 1, "unsupported symmetry (expected general or symmetric)", sym);
            goto out;
        }
    }
    while (fgets(buf, sizeof buf, f)) {
        ln++;
        buf[strcspn(buf, "\r\n")] = '\0';
        char *s = buf;
        while (isspace((unsigned char)*s))
            s++;
        if (*s == '%' || *s == '\0') continue;
        char line[4096], *tok[4];
        snprintf(line, sizeof line, "%s", s);
        int ntok = split_tokens(line, tok, 3);
        double v[3] = {0, 0, 0};
        if (!have_size) {
            if (ntok != 3 || (v[0] = token_index(tok[0])) < 1 || (v[1] = token_index(tok[1])) < 1 ||
                (v[2] = token_index(tok[2])) < 0 || v[0] > (1 << 26) || v[1] > (1 << 26)) {
                rc = mtx_error(P, path, ln,
                               "expected the size line 'rows cols entries' (rows and cols in "
                               "[1, 2^26])",
                               buf);
                goto out;
            }
            t->rows = (uint32_t)v[0];
            t->cols = (uint32_t)v[1];
            nnz = (size_t)v[2];
            if (nnz == 0) {
                rc = mtx_error(P, path, ln, "the matrix has no entries", NULL);
                goto out;
            }
            if (nnz > (symmetric ? WL_MEM_MAX / 16 : WL_MEM_MAX / 8)) {
                rc = mtx_error(P, path, ln, "too many entries for the memory image", NULL);
                goto out;
            }
            have_size = 1;
            continue;
        }
        int want = pattern ? 2 : 3, ok = ntok == want;
        if (ok) {
            v[0] = token_index(tok[0]);
            v[1] = token_index(tok[1]);
            ok = v[0] >= 0 && v[1] >= 0;
        }
        if (ok && !pattern) {
            ok = token_real(tok[2], &v[2]) == 0 && (!integer || v[2] == floor(v[2]));
        }
        if (!ok) {
            rc = mtx_error(P, path, ln,
                           pattern   ? "expected an entry 'row col' (1-based integers)"
                           : integer ? "expected an entry 'row col value' (1-based row and "
                                       "column, an integer value)"
                                     : "expected an entry 'row col value' (1-based row and "
                                       "column, a real value)",
                           buf);
            goto out;
        }
        if (v[0] < 1 || v[0] > t->rows || v[1] < 1 || v[1] > t->cols) {
            char msg[160];
            snprintf(msg, sizeof msg, "entry (%.0f, %.0f) is outside the %ux%u matrix", v[0], v[1],
                     t->rows, t->cols);
            rc = mtx_error(P, path, ln, msg, NULL);
            goto out;
        }
        if (++seen > nnz) {
            char msg[160];
            snprintf(msg, sizeof msg, "more entries than the %zu the size line declares", nnz);
            rc = mtx_error(P, path, ln, msg, NULL);
            goto out;
        }
        uint32_t r = (uint32_t)v[0] - 1, c = (uint32_t)v[1] - 1;
        float x = pattern ? 1.0f : (float)v[2];
        if (trip_push(P, t, r, c, x) || (symmetric && r != c && trip_push(P, t, c, r, x))) {
            rc = -1;
            goto out;
        }
    }
    if (!have_size) {
        rc = mtx_error(P, path, ln, "missing the size line 'rows cols entries'", NULL);
    } else if (seen < nnz) {
        char msg[160];
        snprintf(msg, sizeof msg,
                 "the file ends after %zu of the %zu entries the size line declares", seen, nnz);
        rc = mtx_error(P, path, ln, msg, NULL);
    }
out:
    fclose(f);
    return rc;
}

/* CSR with the entries of each row sorted by column (a stable order: equal columns keep their
 * file or generation order). */
static int build_sparse(wl_parser *P, const char *name, const triplets *t)
{
    char n1[WL_NAME_MAX + 8], n2[WL_NAME_MAX + 8], n3[WL_NAME_MAX + 8];
    snprintf(n1, sizeof n1, "%s_rowptr", name);
    snprintf(n2, sizeof n2, "%s_col", name);
    snprintf(n3, sizeof n3, "%s_val", name);
    if (strlen(n1) >= WL_NAME_MAX) return wl_error(P, "matrix name '%s' is too long", name);
    uint32_t *rp = alloc_array(P, n1, WL_I32, (uint64_t)t->rows + 1);
    if (!rp) return -1;
    size_t rpoff = (size_t)(rp - P->w->image);
    uint32_t *col = alloc_array(P, n2, WL_I32, t->n);
    if (!col) return -1;
    size_t coloff = (size_t)(col - P->w->image);
    uint32_t *val = alloc_array(P, n3, WL_F32, t->n);
    if (!val) return -1;
    rp = P->w->image + rpoff; /* the image may have moved */
    col = P->w->image + coloff;
    memset(rp, 0, ((size_t)t->rows + 1) * 4);
    for (size_t i = 0; i < t->n; i++)
        rp[t->row[i] + 1]++;
    for (uint32_t r = 0; r < t->rows; r++)
        rp[r + 1] += rp[r];
    uint32_t *fill = calloc((size_t)t->rows + 1, 4);
    if (!fill) return wl_error(P, "out of memory");
    for (size_t i = 0; i < t->n; i++) {
        uint32_t r = t->row[i], at = rp[r] + fill[r]++;
        /* insertion into the row, kept sorted by column */
        while (at > rp[r] && col[at - 1] > t->col[i]) {
            col[at] = col[at - 1];
            val[at] = val[at - 1];
            at--;
        }
        col[at] = t->col[i];
        float x = t->val[i];
        memcpy(&val[at], &x, 4);
    }
    free(fill);
    wl_val vr = {0, t->rows, 0}, vc = {0, t->cols, 0}, vn = {0, (int64_t)t->n, 0};
    snprintf(n1, sizeof n1, "%s_rows", name);
    snprintf(n2, sizeof n2, "%s_cols", name);
    snprintf(n3, sizeof n3, "%s_nnz", name);
    if (wl_sym_add(P, n1, vr, 0) || wl_sym_add(P, n2, vc, 0) || wl_sym_add(P, n3, vn, 0)) return -1;
    return 0;
}

int wl_parse_matrix(wl_parser *P, wl_cur *c)
{
    char name[WL_NAME_MAX], gen[WL_NAME_MAX], q[40];
    if (!wl_ident(c, name, 0)) return wl_error(P, "expected a matrix name after .matrix");
    if (!wl_ident(c, gen, 0))
        return wl_error(P, "expected a matrix generator (banded, random or mtx), got %s",
                        wl_quote(c, q, sizeof q));
    gen_args ga;
    triplets t = {0};
    int rc = -1;
    if (strcmp(gen, "banded") == 0) {
        static const char *const k_band[] = {"rows", "band", "seed"};
        if (parse_args(P, c, gen, k_band, 3, 0, &ga)) goto out;
        if ((ga.given & 3) != 3) {
            wl_error(P, "banded() needs rows= and band=");
            goto out;
        }
        int64_t rows, band, seed;
        if (arg_int(P, &ga, 0, "rows", 1, 1 << 24, 0, &rows) ||
            arg_int(P, &ga, 1, "band", 0, 4096, 0, &band) ||
            arg_int(P, &ga, 2, "seed", 0, INT64_MAX, 1, &seed))
            goto out;
        if ((2 * band + 1) * rows > WL_MEM_MAX / 8) {
            wl_error(P, "banded() has too many entries for the memory image");
            goto out;
        }
        wt_rng rng;
        wt_rng_seed(&rng, (uint64_t)seed);
        for (int64_t r = 0; r < rows; r++)
            for (int64_t k = r - band; k <= r + band; k++)
                if (k >= 0 && k < rows &&
                    trip_push(P, &t, (uint32_t)r, (uint32_t)k,
                              (float)(2.0 * wt_rng_unit(&rng) - 1.0)))
                    goto out;
        t.rows = t.cols = (uint32_t)rows;
    } else if (strcmp(gen, "random") == 0) {
        static const char *const k_rand[] = {"rows", "cols", "nnz", "seed"};
        if (parse_args(P, c, gen, k_rand, 4, 0, &ga)) goto out;
        if ((ga.given & 5) != 5) {
            wl_error(P, "random() needs rows= and nnz=");
            goto out;
        }
        int64_t rows, cols, nnz, seed;
        if (arg_int(P, &ga, 0, "rows", 1, 1 << 24, 0, &rows) ||
            arg_int(P, &ga, 1, "cols", 1, 1 << 24, rows, &cols) ||
            arg_int(P, &ga, 2, "nnz", 1, WL_MEM_MAX / 8, 0, &nnz) ||
            arg_int(P, &ga, 3, "seed", 0, INT64_MAX, 1, &seed))
            goto out;
        wt_rng rng;
        wt_rng_seed(&rng, (uint64_t)seed);
        for (int64_t i = 0; i < nnz; i++) {
            uint32_t r = (uint32_t)wt_rng_below(&rng, (uint64_t)rows);
            uint32_t k = (uint32_t)wt_rng_below(&rng, (uint64_t)cols);
            if (trip_push(P, &t, r, k, (float)(2.0 * wt_rng_unit(&rng) - 1.0))) goto out;
        }
        t.rows = (uint32_t)rows;
        t.cols = (uint32_t)cols;
    } else if (strcmp(gen, "mtx") == 0) {
        static const char *const k_file[] = {"file"};
        if (parse_args(P, c, gen, k_file, 0, 1, &ga)) goto out;
        if (!ga.has_str) {
            wl_error(P, "mtx() needs a quoted file name");
            goto out;
        }
        if (!wl_at_end(c)) {
            wl_error(P, "unexpected %s after the generator", wl_quote(c, q, sizeof q));
            goto out;
        }
        if (read_mtx(P, ga.str, &t)) goto out;
    } else {
        wl_error(P, "unknown matrix generator '%s' (expected banded, random or mtx)", gen);
        goto out;
    }
    if (!wl_at_end(c)) {
        wl_error(P, "unexpected %s after the generator", wl_quote(c, q, sizeof q));
        goto out;
    }
    rc = build_sparse(P, name, &t);
out:
    free(t.row);
    free(t.col);
    free(t.val);
    return rc;
}
