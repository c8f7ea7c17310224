/* Immediate post-dominators by Cooper, Harvey and Kennedy's "A Simple, Fast Dominance
 * Algorithm" run on the reversed CFG, rooted at the virtual end node. */
#include "core/workload/wl_cfg.h"

#include <stdlib.h>

int wl_ipdom(int n, const int *succ, uint32_t *ipdom)
{
    int N = n + 1, root = n;
    /* predecessors in the original graph = successors in the reversed one */
    int *npred = calloc((size_t)N + 1, sizeof(int));
    int *pred = malloc(sizeof(int) * (size_t)(2 * n + 1));
    int *po = malloc(sizeof(int) * (size_t)N);    /* postorder number, -1 unvisited */
    int *order = malloc(sizeof(int) * (size_t)N); /* nodes by postorder number */
    int *idom = malloc(sizeof(int) * (size_t)N);
    int *stack = malloc(sizeof(int) * (size_t)N);
    int *it = malloc(sizeof(int) * (size_t)N);
    if (!npred || !pred || !po || !order || !idom || !stack || !it) {
        free(npred), free(pred), free(po), free(order), free(idom), free(stack), free(it);
        return -1;
    }
    for (int i = 0; i < n; i++)
        for (int k = 0; k < 2; k++) {
            int s = succ[2 * i + k];
            if (s >= 0 && s <= n && !(k == 1 && s == succ[2 * i])) npred[s + 1]++;
        }
    for (int v = 0; v < N; v++)
        npred[v + 1] += npred[v];
    int *fill = it;
    for (int v = 0; v < N; v++)
        fill[v] = npred[v];
    for (int i = 0; i < n; i++)
        for (int k = 0; k < 2; k++) {
            int s = succ[2 * i + k];
            if (s >= 0 && s <= n && !(k == 1 && s == succ[2 * i])) pred[fill[s]++] = i;
        }
    /* iterative DFS from the end node over predecessor edges */
    for (int v = 0; v < N; v++)
        po[v] = -1, idom[v] = -1, it[v] = npred[v];
    int sp = 0, cnt = 0;
    stack[sp++] = root;
    po[root] = -2; /* on the stack */
    while (sp) {
        int v = stack[sp - 1];
        if (it[v] < npred[v + 1]) {
            int u = pred[it[v]++];
            if (po[u] == -1) {
                po[u] = -2;
                stack[sp++] = u;
            }
        } else {
            sp--;
            po[v] = cnt;
            order[cnt++] = v;
        }
    }
    idom[root] = root;
    int changed = 1;
    while (changed) {
        changed = 0;
        for (int j = cnt - 2; j >= 0; j--) { /* reverse postorder, root excluded */
            int b = order[j], nd = -1;
            for (int k = 0; k < 2; k++) {
                int s = succ[2 * b + k];
                if (s < 0 || s > n || idom[s] < 0) continue;
                if (nd < 0) {
                    nd = s;
                    continue;
                }
                int x = s, y = nd;
                while (x != y) {
                    while (po[x] < po[y])
                        x = idom[x];
                    while (po[y] < po[x])
                        y = idom[y];
                }
                nd = x;
            }
            if (nd >= 0 && idom[b] != nd) {
                idom[b] = nd;
                changed = 1;
            }
        }
    }
    for (int i = 0; i < n; i++)
        ipdom[i] = (uint32_t)(idom[i] >= 0 ? idom[i] : n);
    free(npred), free(pred), free(po), free(order), free(idom), free(stack), free(it);
    return 0;
}
