/* Control-flow analysis of a kernel: immediate post-dominators, for SIMT reconvergence. */
#ifndef WT_WL_CFG_H
#define WT_WL_CFG_H

#include <stdint.h>

/* A CFG of n nodes 0..n-1 plus the virtual end node n. succ holds two successors per node
 * (succ[2*i], succ[2*i+1]); -1 means none, n means the end node. Fills ipdom[0..n-1] with
 * each node's immediate post-dominator (n when it is the end node, which is also what nodes
 * that cannot reach the end get). Returns 0, or -1 when out of memory. */
int wl_ipdom(int n, const int *succ, uint32_t *ipdom);

#endif
