/* Workload language: sparse matrices in CSR, generated (banded, random) or read from Matrix
 * Market files. */
#include "core/workload/wl_internal.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/util/rng.h"

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
    return wl_data_error(P, path, ln, "matrix", msg, text);
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

/* A Matrix Market file being read: its header's kind and the entries seen so far. */
typedef struct mtx_reader {
    wl_parser *P;
    const char *path;
    int symmetric, pattern, integer;
    int have_size;
    size_t nnz, seen; /* entries declared by the size line, and read */
} mtx_reader;

/* The header line "%%MatrixMarket matrix coordinate FIELD SYMMETRY" (any case; buf is
 * lowered in place). */
static int mtx_header(mtx_reader *m, char *buf)
{
    char banner[64], object[64], format[64], field[64], sym[64];
    for (char *s = buf; *s; s++)
        *s = (char)tolower((unsigned char)*s);
    int n = sscanf(buf, "%63s %63s %63s %63s %63s", banner, object, format, field, sym);
    if (n != 5 || strcmp(banner, "%%matrixmarket") != 0 || strcmp(object, "matrix") != 0)
        return mtx_error(m->P, m->path, 1,
                         "expected the header '%%MatrixMarket matrix coordinate FIELD SYMMETRY'",
                         buf);
    if (strcmp(format, "coordinate") != 0)
        return mtx_error(m->P, m->path, 1,
                         "only the sparse 'coordinate' format is supported (not 'array')", NULL);
    m->integer = strcmp(field, "integer") == 0;
    m->pattern = strcmp(field, "pattern") == 0;
    if (!m->integer && !m->pattern && strcmp(field, "real") != 0 && strcmp(field, "double") != 0)
        return mtx_error(m->P, m->path, 1, "unsupported field (expected real, integer or pattern)",
                         field);
    if (strcmp(sym, "symmetric") == 0)
        m->symmetric = 1;
    else if (strcmp(sym, "general") != 0)
        return mtx_error(m->P, m->path, 1, "unsupported symmetry (expected general or symmetric)",
                         sym);
    return 0;
}

/* The size line "rows cols entries" (tokens of line ln, whose text is buf). */
static int mtx_size_line(mtx_reader *m, triplets *t, int ln, const char *buf, char **tok, int ntok)
{
    double v[3] = {0, 0, 0};
    if (ntok != 3 || (v[0] = token_index(tok[0])) < 1 || (v[1] = token_index(tok[1])) < 1 ||
        (v[2] = token_index(tok[2])) < 0 || v[0] > (1 << 26) || v[1] > (1 << 26))
        return mtx_error(m->P, m->path, ln,
                         "expected the size line 'rows cols entries' (rows and cols in "
                         "[1, 2^26])",
                         buf);
    t->rows = (uint32_t)v[0];
    t->cols = (uint32_t)v[1];
    m->nnz = (size_t)v[2];
    if (m->nnz == 0) return mtx_error(m->P, m->path, ln, "the matrix has no entries", NULL);
    if (m->symmetric && t->rows != t->cols) {
        char msg[160];
        snprintf(msg, sizeof msg, "a symmetric matrix must be square, got %ux%u", t->rows, t->cols);
        return mtx_error(m->P, m->path, ln, msg, NULL);
    }
    if (m->nnz > (m->symmetric ? WL_MEM_MAX / 16 : WL_MEM_MAX / 8))
        return mtx_error(m->P, m->path, ln, "too many entries for the memory image", NULL);
    m->have_size = 1;
    return 0;
}

/* An entry "row col [value]" (1-based): into t, and its mirror for a symmetric matrix. */
static int mtx_entry_line(mtx_reader *m, triplets *t, int ln, const char *buf, char **tok, int ntok)
{
    double v[3] = {0, 0, 0};
    int want = m->pattern ? 2 : 3, ok = ntok == want;
    if (ok) {
        v[0] = token_index(tok[0]);
        v[1] = token_index(tok[1]);
        ok = v[0] >= 0 && v[1] >= 0;
    }
    if (ok && !m->pattern)
        ok = token_real(tok[2], &v[2]) == 0 && (!m->integer || v[2] == floor(v[2]));
    if (!ok)
        return mtx_error(m->P, m->path, ln,
                         m->pattern   ? "expected an entry 'row col' (1-based integers)"
                         : m->integer ? "expected an entry 'row col value' (1-based row and "
                                        "column, an integer value)"
                                      : "expected an entry 'row col value' (1-based row and "
                                        "column, a real value)",
                         buf);
    char msg[160];
    if (v[0] < 1 || v[0] > t->rows || v[1] < 1 || v[1] > t->cols) {
        snprintf(msg, sizeof msg, "entry (%.0f, %.0f) is outside the %ux%u matrix", v[0], v[1],
                 t->rows, t->cols);
        return mtx_error(m->P, m->path, ln, msg, NULL);
    }
    if (++m->seen > m->nnz) {
        snprintf(msg, sizeof msg, "more entries than the %zu the size line declares", m->nnz);
        return mtx_error(m->P, m->path, ln, msg, NULL);
    }
    uint32_t r = (uint32_t)v[0] - 1, c = (uint32_t)v[1] - 1;
    float x = m->pattern ? 1.0f : (float)v[2];
    if (trip_push(m->P, t, r, c, x) || (m->symmetric && r != c && trip_push(m->P, t, c, r, x)))
        return -1;
    return 0;
}

/* What the end of the file leaves wrong: no size line, or fewer entries than it declares. */
static int mtx_at_end(const mtx_reader *m, int ln)
{
    if (!m->have_size)
        return mtx_error(m->P, m->path, ln, "missing the size line 'rows cols entries'", NULL);
    if (m->seen < m->nnz) {
        char msg[160];
        snprintf(msg, sizeof msg,
                 "the file ends after %zu of the %zu entries the size line declares", m->seen,
                 m->nnz);
        return mtx_error(m->P, m->path, ln, msg, NULL);
    }
    return 0;
}

static int read_mtx(wl_parser *P, const char *file, triplets *t)
{
    char path[1024];
    FILE *f = wl_data_open(P, file, "matrix", path, sizeof path);
    if (!f) return -1;
    if (wl_data_hash(P, f, path)) {
        fclose(f);
        return -1;
    }
    mtx_reader m = {P, path, 0, 0, 0, 0, 0, 0};
    char *buf = NULL, *line = NULL; /* a line, and a copy of it to cut into tokens */
    size_t cap = 0, linecap = 0;
    int ln = 0, rc = 0;
    long len = wl_data_line(P, f, path, 1, "matrix", &buf, &cap);
    if (len < 0) {
        rc = len == -1
                 ? mtx_error(P, path, 1, "empty file: expected a '%%MatrixMarket' header", NULL)
                 : -1;
        goto out;
    }
    ln = 1;
    if ((rc = mtx_header(&m, buf)) != 0) goto out;
    while ((len = wl_data_line(P, f, path, ln + 1, "matrix", &buf, &cap)) >= 0) {
        ln++;
        char *s = buf;
        while (isspace((unsigned char)*s))
            s++;
        if (*s == '%' || *s == '\0') continue; /* comments and blank lines */
        if (linecap < (size_t)len + 1) {
            char *l = realloc(line, (size_t)len + 1);
            if (!l) {
                rc = wl_error(P, "out of memory");
                goto out;
            }
            line = l;
            linecap = (size_t)len + 1;
        }
        char *tok[4];
        memcpy(line, s, strlen(s) + 1);
        int ntok = split_tokens(line, tok, 3);
        rc = m.have_size ? mtx_entry_line(&m, t, ln, buf, tok, ntok)
                         : mtx_size_line(&m, t, ln, buf, tok, ntok);
        if (rc) goto out;
    }
    rc = len == -2 ? -1 : mtx_at_end(&m, ln);
out:
    free(buf);
    free(line);
    fclose(f);
    return rc;
}

/* CSR with the entries of each row sorted by column (a stable order: equal columns keep their
 * file or generation order). */
static int build_sparse(wl_parser *P, const char *name, const triplets *t)
{
    char n1[WL_NAME_MAX + 8], n2[WL_NAME_MAX + 8], n3[WL_NAME_MAX + 8];
    size_t rpoff, coloff;
    if (wl_csr_arrays(P, "matrix", name, t->rows, t->row, t->n, &rpoff, &coloff)) return -1;
    snprintf(n3, sizeof n3, "%s_val", name);
    uint32_t *val = wl_alloc_array(P, n3, WL_F32, t->n);
    if (!val) return -1;
    uint32_t *rp = P->w->image + rpoff, *col = P->w->image + coloff; /* it may have moved */
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
    char name[WL_NAME_MAX], gen[WL_NAME_MAX];
    if (wl_gen_head(P, c, "matrix", "banded, random or mtx", name, gen)) return -1;
    wl_gen_args ga;
    triplets t = {0};
    int rc = -1;
    if (strcmp(gen, "banded") == 0) {
        static const char *const k_band[] = {"rows", "band", "seed"};
        if (wl_gen_parse_args(P, c, gen, k_band, 3, 0, &ga)) goto out;
        if ((ga.given & 3) != 3) {
            wl_error(P, "banded() needs rows= and band=");
            goto out;
        }
        int64_t rows, band, seed;
        if (wl_gen_int(P, &ga, 0, "rows", 1, 1 << 24, 0, &rows) ||
            wl_gen_int(P, &ga, 1, "band", 0, 4096, 0, &band) ||
            wl_gen_int(P, &ga, 2, "seed", 0, INT64_MAX, 1, &seed))
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
        if (wl_gen_parse_args(P, c, gen, k_rand, 4, 0, &ga)) goto out;
        if ((ga.given & 5) != 5) {
            wl_error(P, "random() needs rows= and nnz=");
            goto out;
        }
        int64_t rows, cols, nnz, seed;
        if (wl_gen_int(P, &ga, 0, "rows", 1, 1 << 24, 0, &rows) ||
            wl_gen_int(P, &ga, 1, "cols", 1, 1 << 24, rows, &cols) ||
            wl_gen_int(P, &ga, 2, "nnz", 1, WL_MEM_MAX / 8, 0, &nnz) ||
            wl_gen_int(P, &ga, 3, "seed", 0, INT64_MAX, 1, &seed))
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
        if (wl_gen_file(P, c, gen, &ga) || read_mtx(P, ga.str, &t)) goto out;
    } else {
        wl_error(P, "unknown matrix generator '%s' (expected banded, random or mtx)", gen);
        goto out;
    }
    if (wl_gen_end(P, c)) goto out;
    rc = build_sparse(P, name, &t);
out:
    free(t.row);
    free(t.col);
    free(t.val);
    return rc;
}
