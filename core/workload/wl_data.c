/* Workload language: arrays and their generators, the memory image they are laid out in, and
 * what the graph (wl_graph.c) and sparse-matrix (wl_matrix.c) generators share: generator
 * arguments, data files, CSR row pointers. */
#include "core/workload/wl_internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/util/hash.h"
#include "core/util/rng.h"
#include "core/util/textfile.h"

const wl_array *wl_array_by_name(const workload *w, const char *name)
{
    for (size_t i = 0; i < w->narrays; i++)
        if (strcmp(w->arrays[i].name, name) == 0) return &w->arrays[i];
    return NULL;
}

/* Reserves an array of `count` words; returns a pointer to its words in the image. Its words
 * are zeroed when `zero`; otherwise the caller writes every one. */
static uint32_t *alloc_array(wl_parser *P, const char *name, int type, uint64_t count, int zero)
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
    size_t first = (size_t)((base - WL_MEM_BASE) / 4); /* the padding before it is zeroed */
    memset(w->image + w->image_words, 0, ((zero ? words : first) - w->image_words) * 4);
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
    return w->image + first;
}

uint32_t *wl_alloc_array(wl_parser *P, const char *name, int type, uint64_t count)
{
    return alloc_array(P, name, type, count, 1);
}

/* ---- generator arguments ---- */

int wl_gen_parse_args(wl_parser *P, wl_cur *c, const char *gen, const char *const *keys, int nkeys,
                      int want_str, wl_gen_args *ga)
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

double wl_gen_real(const wl_gen_args *ga, int k, double def)
{
    return ga->given & (1u << k) ? wl_val_real(ga->v[k]) : def;
}

int wl_gen_int(wl_parser *P, const wl_gen_args *ga, int k, const char *what, int64_t lo, int64_t hi,
               int64_t def, int64_t *out)
{
    if (!(ga->given & (1u << k))) {
        *out = def;
        return 0;
    }
    return wl_val_int(P, ga->v[k], lo, hi, what, out);
}

int wl_gen_head(wl_parser *P, wl_cur *c, const char *kind, const char *gens, char *name, char *gen)
{
    char q[40];
    size_t n = wl_ident(c, name, 0);
    if (!n) return wl_error(P, "expected a %s name after .%s", kind, kind);
    if (wl_name_fits(P, n) || wl_name_not_register(P, kind, name)) return -1;
    if (!wl_ident(c, gen, 0))
        return wl_error(P, "expected a %s generator (%s), got %s", kind, gens,
                        wl_quote(c, q, sizeof q));
    return 0;
}

int wl_gen_end(wl_parser *P, wl_cur *c)
{
    char q[40];
    if (!wl_at_end(c))
        return wl_error(P, "unexpected %s after the generator", wl_quote(c, q, sizeof q));
    return 0;
}

int wl_gen_file(wl_parser *P, wl_cur *c, const char *gen, wl_gen_args *ga)
{
    if (wl_gen_parse_args(P, c, gen, NULL, 0, 1, ga)) return -1;
    if (!ga->has_str) return wl_error(P, "%s() needs a quoted file name", gen);
    return wl_gen_end(P, c);
}

/* ---- data files ---- */

FILE *wl_data_open(wl_parser *P, const char *file, const char *what, char *path, size_t pathlen)
{
    if (P->basedir && P->basedir[0] && file[0] != '/')
        snprintf(path, pathlen, "%s/%s", P->basedir, file);
    else
        snprintf(path, pathlen, "%s", file);
    /* the file is read twice (its bytes hashed, then parsed): a device or FIFO cannot be, one
     * that never ends (/dev/zero) would be hashed for ever, and opening a FIFO waits for a
     * writer */
    const char *refused;
    FILE *f = wt_open_regular(path, &refused);
    if (!f) {
        if (refused && !strcmp(refused, "not a regular file"))
            wl_error(P, "cannot read %s '%s': %s", what, path, refused);
        else /* cannot be opened, or a folder */
            wl_error(P, "cannot open %s '%s': %s", what, path, refused ? refused : strerror(errno));
        return NULL;
    }
    return f;
}

int wl_data_hash(wl_parser *P, FILE *f, const char *path)
{
    /* chained over the files in the order the workload reads them; 0 means "none read" */
    uint64_t h = P->w->data_hash ? P->w->data_hash : WT_FNV_INIT;
    if (wt_hash_stream(f, &h)) return wl_error(P, "cannot read '%s'", path);
    rewind(f);
    P->w->data_hash = h ? h : 1;
    return 0;
}

int wl_data_error(wl_parser *P, const char *path, int ln, const char *what, const char *msg,
                  const char *text)
{
    const char *wfile = P->filename;
    int wline = P->line;
    P->filename = path;
    P->line = ln;
    int rc = text ? wl_error(P, "%s, got '%.60s' (%s of %s:%d)", msg, text, what, wfile, wline)
                  : wl_error(P, "%s (%s of %s:%d)", msg, what, wfile, wline);
    P->filename = wfile;
    P->line = wline;
    return rc;
}

long wl_data_line(wl_parser *P, FILE *f, const char *path, int ln, const char *what, char **buf,
                  size_t *cap)
{
    errno = 0;
    ssize_t n = getline(buf, cap, f);
    if (n < 0) {
        if (!ferror(f) && errno != ENOMEM) return -1;
        wl_data_error(P, path, ln, what, errno == ENOMEM ? "out of memory" : "read error", NULL);
        return -2;
    }
    if (strlen(*buf) != (size_t)n) {
        wl_data_error(P, path, ln, what, "NUL byte (expected text)", NULL);
        return -2;
    }
    while (n > 0 && ((*buf)[n - 1] == '\n' || (*buf)[n - 1] == '\r'))
        (*buf)[--n] = '\0';
    return (long)n;
}

int wl_csr_arrays(wl_parser *P, const char *kind, const char *name, uint32_t rows,
                  const uint32_t *row, size_t n, size_t *rpoff, size_t *coloff)
{
    char n1[WL_NAME_MAX + 8], n2[WL_NAME_MAX + 8];
    snprintf(n1, sizeof n1, "%s_rowptr", name);
    snprintf(n2, sizeof n2, "%s_col", name);
    if (strlen(n1) >= WL_NAME_MAX) return wl_error(P, "%s name '%s' is too long", kind, name);
    uint32_t *rp = wl_alloc_array(P, n1, WL_I32, (uint64_t)rows + 1);
    if (!rp) return -1;
    *rpoff = (size_t)(rp - P->w->image);
    uint32_t *col = wl_alloc_array(P, n2, WL_I32, n);
    if (!col) return -1;
    *coloff = (size_t)(col - P->w->image);
    rp = P->w->image + *rpoff; /* the image may have moved */
    memset(rp, 0, ((size_t)rows + 1) * 4);
    for (size_t i = 0; i < n; i++)
        rp[row[i] + 1]++;
    for (uint32_t r = 0; r < rows; r++)
        rp[r + 1] += rp[r];
    return 0;
}

/* ---- arrays ---- */

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
    size_t nl = wl_ident(c, name, 0);
    if (!nl) return wl_error(P, "expected an array name after .array");
    if (wl_name_fits(P, nl)) return -1;
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
    wl_gen_args ga;
    int g;
    if (strcmp(gen, "zero") == 0) {
        g = 0;
        if (wl_gen_parse_args(P, c, gen, NULL, 0, 0, &ga)) return -1;
    } else if (strcmp(gen, "const") == 0) {
        g = 1;
        if (wl_gen_parse_args(P, c, gen, k_const, 1, 0, &ga)) return -1;
        if (!(ga.given & 1)) return wl_error(P, "const() needs a value");
    } else if (strcmp(gen, "iota") == 0) {
        g = 2;
        if (wl_gen_parse_args(P, c, gen, k_iota, 2, 0, &ga)) return -1;
    } else if (strcmp(gen, "uniform") == 0) {
        g = 3;
        if (wl_gen_parse_args(P, c, gen, k_unif, 3, 0, &ga)) return -1;
    } else {
        return wl_error(P, "unknown generator '%s' (expected zero, const, iota or uniform)", gen);
    }
    if (wl_gen_end(P, c)) return -1;
    uint32_t bits = 0;
    if (g == 1 && elem_bits(P, t, ga.v[0], "const() value", &bits)) return -1;
    double r_lo = 0, r_hi = 1, start = 0, step = 1;
    int64_t i_lo = 0, i_hi = 1000, seed = 1;
    if (g == 2) {
        start = wl_gen_real(&ga, 0, 0);
        step = wl_gen_real(&ga, 1, 1);
        if (fabs(start) > 9.0e15 || fabs(step) > 9.0e15)
            return wl_error(P, "iota() start and step must be below 9e15 in magnitude");
        if (t != WL_F32 && (start != floor(start) || step != floor(step)))
            return wl_error(P, "iota() on an integer array needs integer start and step");
        /* The values are monotone, so both ends in range means all are: an integer array
         * never holds a silently wrapped value. */
        double last = start + (double)(count - 1) * step;
        double lo = t == WL_I32 ? -2147483648.0 : 0.0;
        double hi = t == WL_I32 ? 2147483647.0 : 4294967295.0;
        if (t != WL_F32 && (start < lo || start > hi || last < lo || last > hi))
            return wl_error(P,
                            "iota(%.0f, %.0f) over %lld elements runs from %.0f to %.0f, outside "
                            "the range of %s [%.0f, %.0f]",
                            start, step, (long long)count, start, last, t == WL_I32 ? "i32" : "u32",
                            lo, hi);
    }
    if (g == 3) {
        if (wl_gen_int(P, &ga, 0, "seed", 0, INT64_MAX, 1, &seed)) return -1;
        if (t == WL_F32) {
            r_lo = wl_gen_real(&ga, 1, 0);
            r_hi = wl_gen_real(&ga, 2, 1);
            if (!(r_lo < r_hi)) return wl_error(P, "uniform() needs lo < hi");
        } else {
            int64_t lo = t == WL_I32 ? INT32_MIN : 0, hi = t == WL_I32 ? INT32_MAX : UINT32_MAX;
            if (wl_gen_int(P, &ga, 1, "uniform() lo", lo, hi, 0, &i_lo)) return -1;
            if (wl_gen_int(P, &ga, 2, "uniform() hi", lo, hi + 1, 1000, &i_hi)) return -1;
            if (!(i_lo < i_hi)) return wl_error(P, "uniform() needs lo < hi");
        }
    }
    uint32_t *m = alloc_array(P, name, t, (uint64_t)count, g == 0);
    if (!m) return -1;
    size_t n = (size_t)count;
    wt_rng rng;
    wt_rng_seed(&rng, (uint64_t)seed);
    /* one loop per generator and type, each free of the choice */
    if (g == 1) {
        for (size_t i = 0; i < n; i++)
            m[i] = bits;
    } else if (g == 2 && t == WL_F32) {
        for (size_t i = 0; i < n; i++)
            m[i] = wl_f32_bits(start + step * (double)(int64_t)i);
    } else if (g == 2) {
        uint64_t a0 = (uint64_t)(int64_t)start, d = (uint64_t)(int64_t)step;
        for (size_t i = 0; i < n; i++)
            m[i] = (uint32_t)(a0 + d * (uint64_t)i);
    } else if (g == 3 && t == WL_F32) {
        double span = r_hi - r_lo;
        for (size_t i = 0; i < n; i++)
            m[i] = wl_f32_bits(r_lo + span * wt_rng_unit(&rng));
    } else if (g == 3) {
        uint64_t span = (uint64_t)(i_hi - i_lo);
        for (size_t i = 0; i < n; i++)
            m[i] = (uint32_t)(i_lo + (int64_t)wt_rng_below(&rng, span));
    }
    return 0;
}
