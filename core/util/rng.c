#include "core/util/rng.h"

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void wt_rng_seed(wt_rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&seed);
}

void wt_rng_seed_stream(wt_rng *r, uint64_t seed, uint64_t stream)
{
    uint64_t x = seed;
    x = splitmix64(&x) ^ (stream * 0xD1B54A32D192ED03ull);
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&x);
}

uint64_t wt_rng_below(wt_rng *r, uint64_t n)
{
    uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t x;
    do
        x = wt_rng_next(r);
    while (x >= limit);
    return x % n;
}
