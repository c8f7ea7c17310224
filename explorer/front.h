/* Pareto fronts and their quality: the non-dominated subset of a set of points and the
 * hypervolume it dominates. Every objective is minimised here; callers negate the ones to
 * maximise. */
#ifndef WT_FRONT_H
#define WT_FRONT_H

#include <stddef.h>

/* Marks in on_front[i] (1/0) whether row i of the n x m row-major matrix obj is non-dominated:
 * no other row is <= in every objective and < in one. Equal rows are all on the front. Rows
 * with a NaN are never on the front. Returns the number on the front. */
size_t front_mark(const double *obj, size_t n, size_t m, unsigned char *on_front);

/* Hypervolume dominated by the rows of obj (n x m, minimised) and bounded by the reference
 * point ref (rows not strictly better than ref in every objective contribute nothing).
 * Exact for m = 1, 2 and 3; returns -1 for other m. */
double front_hypervolume(const double *obj, size_t n, size_t m, const double *ref);

#endif
