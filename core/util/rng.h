/* A small deterministic generator (xoshiro256**, seeded through splitmix64), one per
 * simulation or per data generator: nothing in warptune draws from global random state. */
#ifndef WT_RNG_H
#define WT_RNG_H

#include <stdint.h>

typedef struct wt_rng {
    uint64_t s[4];
} wt_rng;

void wt_rng_seed(wt_rng *r, uint64_t seed);
/* Stream `stream` of seed: generators seeded with one seed and different streams draw
 * independent sequences (each SM draws from its own, whatever order the SMs run in). */
void wt_rng_seed_stream(wt_rng *r, uint64_t seed, uint64_t stream);
/* Uniform in [0, n), n > 0, without modulo bias. */
uint64_t wt_rng_below(wt_rng *r, uint64_t n);

static inline uint64_t wt_rng_rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

/* The next 64 random bits. Inline: data generators draw one per element. */
static inline uint64_t wt_rng_next(wt_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = wt_rng_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = wt_rng_rotl(s[3], 45);
    return result;
}

/* Uniform in [0, 1). */
static inline double wt_rng_unit(wt_rng *r)
{
    /* 53 bits: the signed conversion is exact and a single instruction */
    return (double)(int64_t)(wt_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

#endif
