/* The front as a picture: an SVG scatter of every evaluated point with the Pareto front drawn
 * over it; for three objectives, the three pairwise projections side by side. */
#ifndef WT_PLOT_H
#define WT_PLOT_H

#include <stddef.h>

/* obj: n x m row-major objective values in their natural units and directions; names: m
 * axis labels (with "(max)"/"(min)" added by the caller if wanted); on_front: n flags.
 * m must be 2 or 3. Writes path atomically. Returns 0, or -1 with err. */
int plot_front_svg(const char *path, const char *title, const double *obj, size_t n, size_t m,
                   const char *const *names, const unsigned char *on_front, char *err,
                   size_t errlen);

#endif
