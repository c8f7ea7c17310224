/* FNV-1a, 64-bit: the hash of bytes behind result identities and lookup tables. */
#ifndef WT_HASH_H
#define WT_HASH_H

#include <stddef.h>
#include <stdint.h>

#define WT_FNV_INIT 14695981039346656037ULL

/* h extended by n bytes of data (start a chain with WT_FNV_INIT). */
static inline uint64_t wt_fnv1a(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 1099511628211ULL;
    }
    return h;
}

#endif
