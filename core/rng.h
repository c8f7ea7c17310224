/* A small deterministic generator (xoshiro256**, seeded through splitmix64), one per
 * simulation or per data generator: nothing in warptune draws from global random state. */
#ifndef WT_RNG_H
#define WT_RNG_H

#include <stdint.h>

typedef struct wt_rng {
    uint64_t s[4];
} wt_rng;

void wt_rng_seed(wt_rng *r, uint64_t seed);
uint64_t wt_rng_next(wt_rng *r);
/* Uniform in [0, n), n > 0, without modulo bias. */
uint64_t wt_rng_below(wt_rng *r, uint64_t n);
/* Uniform in [0, 1). */
double wt_rng_unit(wt_rng *r);

#endif
