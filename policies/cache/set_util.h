/* What several L1D policies (and the Belady bound) do with a set's view. */
#ifndef WT_SET_UTIL_H
#define WT_SET_UTIL_H

#include <stdint.h>
#include <string.h>

#include "core/policy.h"

/* The first way that is neither valid nor reserved, or -1: most policies fill those first. */
static inline int l1_first_free_way(const l1_set_view *s)
{
    /* eight ways per word: the flags are 0 or 1, so a way is used when bit 0 of either is set;
     * the product gathers bit 0 of each byte into the top byte (byte i to bit i) */
    const uint64_t ones = 0x0101010101010101ull;
    if (s->full) return -1; /* a warm cache: no scan of its (up to 256) ways */
    int w = 0;
    for (; w + 8 <= s->ways; w += 8) {
        uint64_t v, r;
        memcpy(&v, s->valid + w, 8);
        memcpy(&r, s->reserved + w, 8);
        uint64_t free8 = ((((v | r) & ones) ^ ones) * 0x0102040810204080ull) >> 56;
        if (free8) return w + __builtin_ctzll(free8);
    }
    for (; w < s->ways; w++)
        if (!s->valid[w] && !s->reserved[w]) return w;
    return -1;
}

#endif
