/* Workload language: graphs in CSR, generated (R-MAT, uniform) or read from edge-list files. */
#include "core/workload/wl_internal.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/util/rng.h"

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
    FILE *f = wl_data_open(P, file, "edge list", path, sizeof path);
    if (!f) return -1;
    if (wl_data_hash(P, f, path)) {
        fclose(f);
        return -1;
    }
    int rc = 0;
    char *buf = NULL;
    size_t cap = 0;
    int ln = 0;
    uint64_t maxid = 0;
    for (;;) {
        long len = wl_data_line(P, f, path, ln + 1, "edge list", &buf, &cap);
        if (len < 0) {
            rc = len == -1 ? 0 : -1;
            break;
        }
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
            rc = wl_data_error(P, path, ln, "edge list",
                               "expected an edge 'src dst' (two non-negative integers below 2^28)",
                               buf);
            break;
        }
        if (edge_push(P, e, (uint32_t)v[0], (uint32_t)v[1])) {
            rc = -1;
            break;
        }
        if (v[0] > maxid) maxid = v[0];
        if (v[1] > maxid) maxid = v[1];
    }
    free(buf);
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
    size_t rpoff, coloff;
    if (wl_csr_arrays(P, "graph", name, e->nodes, e->src, e->n, &rpoff, &coloff)) return -1;
    uint32_t *rp = P->w->image + rpoff, *col = P->w->image + coloff;
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
    char name[WL_NAME_MAX], gen[WL_NAME_MAX];
    if (wl_gen_head(P, c, "graph", "rmat, uniform or edgelist", name, gen)) return -1;
    static const char *const k_rmat[] = {"nodes", "edges", "seed", "a", "b", "c"};
    wl_gen_args ga;
    edges e = {0};
    int rc = -1;
    if (strcmp(gen, "rmat") == 0 || strcmp(gen, "uniform") == 0) {
        int rmat = gen[0] == 'r';
        if (wl_gen_parse_args(P, c, gen, k_rmat, rmat ? 6 : 3, 0, &ga)) goto out;
        if (wl_gen_end(P, c)) goto out;
        if ((ga.given & 3) != 3) {
            wl_error(P, "%s() needs nodes= and edges=", gen);
            goto out;
        }
        int64_t nodes, ne, seed;
        if (wl_gen_int(P, &ga, 0, "nodes", 1, 1 << 26, 0, &nodes) ||
            wl_gen_int(P, &ga, 1, "edges", 1, 1 << 27, 0, &ne) ||
            wl_gen_int(P, &ga, 2, "seed", 0, INT64_MAX, 1, &seed))
            goto out;
        if (rmat) {
            double a = wl_gen_real(&ga, 3, 0.57), b = wl_gen_real(&ga, 4, 0.19),
                   cc = wl_gen_real(&ga, 5, 0.19);
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
        if (wl_gen_file(P, c, gen, &ga) || read_edgelist(P, ga.str, &e)) goto out;
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
