/* gen_inputs: writes the small real-format inputs shipped in workloads/data/ from warptune's
 * own generators (not a benchmark; it lives here because bench/ builds small tools). Each file
 * is the CSR a workload generator makes, written out as a SNAP edge list or a Matrix Market
 * file, so that reading the file back gives the generator's CSR bit for bit.
 *
 *   gen_inputs [DIR]      (default: workloads/data) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/workload/wl_inspect.h"
#include "core/workload/workload.h"

static workload *gen(const char *text)
{
    workload *w = NULL;
    char err[1024];
    if (workload_parse(text, "gen_inputs.wl", NULL, NULL, 0, &w, err, sizeof err) != 0) {
        fprintf(stderr, "gen_inputs: %s\n", err);
        exit(1);
    }
    return w;
}

static FILE *create(const char *dir, const char *name, char *path, size_t len)
{
    snprintf(path, len, "%s/%s.tmp", dir, name);
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        exit(1);
    }
    return f;
}

static void finish(FILE *f, const char *dir, const char *name, char *tmp)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (fclose(f) != 0 || rename(tmp, path) != 0) {
        perror(path);
        exit(1);
    }
    printf("wrote %s\n", path);
}

/* A graph generator line ".graph g GEN" written as a SNAP edge list. */
static void edgelist(const char *dir, const char *name, const char *genline)
{
    char text[512], tmp[1024];
    snprintf(text, sizeof text, ".graph g %s\n.kernel k block=32\n exit\n.host\n launch k grid=1\n",
             genline);
    workload *w = gen(text);
    uint32_t nrp, ne;
    const uint32_t *rp = wl_workload_array(w, "g_rowptr", &nrp);
    const uint32_t *col = wl_workload_array(w, "g_col", &ne);
    FILE *f = create(dir, name, tmp, sizeof tmp);
    fprintf(f, "# Directed graph: %s\n", name);
    fprintf(f, "# Made by warptune's bench/gen_inputs from: .graph g %s\n", genline);
    fprintf(f, "# Nodes: %u Edges: %u\n", nrp - 1, ne);
    fprintf(f, "# FromNodeId\tToNodeId\n");
    for (uint32_t v = 0; v + 1 < nrp; v++)
        for (uint32_t e = rp[v]; e < rp[v + 1]; e++)
            fprintf(f, "%u\t%u\n", v, col[e]);
    finish(f, dir, name, tmp);
    workload_free(w);
}

/* A matrix generator line ".matrix m GEN" written as a Matrix Market coordinate file; with
 * `symmetric`, only the lower triangle as a symmetric pattern matrix. */
static void mtx(const char *dir, const char *name, const char *genline, int symmetric)
{
    char text[512], tmp[1024];
    snprintf(text, sizeof text,
             ".matrix m %s\n.kernel k block=32\n exit\n.host\n launch k grid=1\n", genline);
    workload *w = gen(text);
    uint32_t nrp, nnz;
    const uint32_t *rp = wl_workload_array(w, "m_rowptr", &nrp);
    const uint32_t *col = wl_workload_array(w, "m_col", &nnz);
    const uint32_t *val = wl_workload_array(w, "m_val", &nnz);
    uint32_t rows = nrp - 1, cols = 0, lower = 0;
    for (uint32_t i = 0; i < nnz; i++) {
        if (col[i] + 1 > cols) cols = col[i] + 1;
    }
    for (uint32_t r = 0; r < rows; r++)
        for (uint32_t e = rp[r]; e < rp[r + 1]; e++)
            lower += col[e] <= r;
    if (cols < rows) cols = rows;
    FILE *f = create(dir, name, tmp, sizeof tmp);
    fprintf(f, "%%%%MatrixMarket matrix coordinate %s %s\n", symmetric ? "pattern" : "real",
            symmetric ? "symmetric" : "general");
    fprintf(f, "%% Made by warptune's bench/gen_inputs from: .matrix m %s\n", genline);
    if (symmetric) fprintf(f, "%% (the lower triangle of its pattern)\n");
    fprintf(f, "%u %u %u\n", rows, cols, symmetric ? lower : nnz);
    for (uint32_t r = 0; r < rows; r++)
        for (uint32_t e = rp[r]; e < rp[r + 1]; e++) {
            if (symmetric) {
                if (col[e] <= r) fprintf(f, "%u %u\n", r + 1, col[e] + 1);
            } else {
                float x;
                memcpy(&x, &val[e], 4);
                fprintf(f, "%u %u %.9g\n", r + 1, col[e] + 1, (double)x);
            }
        }
    finish(f, dir, name, tmp);
    workload_free(w);
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "workloads/data";
    edgelist(dir, "rmat-1k.txt", "rmat(nodes=1024, edges=8192, seed=7)");
    edgelist(dir, "uniform-1k.txt", "uniform(nodes=1024, edges=8192, seed=7)");
    mtx(dir, "banded-1k.mtx", "banded(rows=1024, band=4, seed=5)", 0);
    mtx(dir, "random-1k.mtx", "random(rows=1024, nnz=8192, seed=5)", 0);
    mtx(dir, "banded-sym-256.mtx", "banded(rows=256, band=2, seed=5)", 1);
    return 0;
}
