/* Bit counting for lane and sector masks, without the library call __builtin_popcount becomes
 * on CPUs targeted without a popcount instruction (it sits on the simulator's hot paths). */
#ifndef WT_BITS_H
#define WT_BITS_H

#include <stdint.h>

static inline uint32_t wt_popcount32(uint32_t x)
{
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0F0F0F0Fu;
    return (x * 0x01010101u) >> 24;
}

/* The same for masks that are mostly below 16 (sector masks: four sectors to a 128-byte line):
 * those read their count from a table of sixteen nibbles. */
static inline uint32_t wt_popcount_small(uint32_t x)
{
    if (x < 16) return (uint32_t)(0x4332322132212110ull >> (x << 2)) & 15u;
    return wt_popcount32(x);
}

/* x mod n (n >= 1): a mask for a power of two, as the simulator's counts (schedulers, banks,
 * ports) usually are, since the division is a slow instruction on its hot paths. */
static inline uint64_t wt_mod(uint64_t x, uint64_t n)
{
    return n & (n - 1) ? x % n : x & (n - 1);
}

/* Whether v is a (positive) power of two. */
static inline int wt_is_pow2(long v)
{
    return v > 0 && (v & (v - 1)) == 0;
}

#endif
