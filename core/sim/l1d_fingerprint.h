/* The L1D's way fingerprints: a byte hash per way, compared sixteen ways at a time, so a
 * lookup reads a tag only where the fingerprint matches. Internal to l1d.c. */
#ifndef WT_L1D_FINGERPRINT_H
#define WT_L1D_FINGERPRINT_H

#include <stdint.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Bit 0 of each byte of x (the other bits clear) gathered into the low byte: byte i's bit goes
 * to bit i. */
static inline uint64_t gather_byte_flags(uint64_t x)
{
    return (x * 0x0102040810204080ull) >> 56;
}

/* A byte hash of a line address: equal tags have equal fingerprints, so the ways whose
 * fingerprint matches are a superset of those whose tag does (about one in 256 more). */
static inline uint8_t fingerprint(uint64_t line)
{
    return (uint8_t)((line * 0x9E3779B97F4A7C15ull) >> 56);
}

/* Bit w set for each of up to 64 fingerprints in fp (ways of one chunk) equal to f: sixteen
 * ways per SSE2 compare, or without SSE2 eight per 64-bit word with the exact zero-byte test
 * (no false positives from borrows between bytes). Rows are padded to whole 16-byte blocks. */
static inline uint64_t fingerprint_matches(const uint8_t *fp, int ways, uint8_t f)
{
#if defined(__SSE2__)
    /* sixteen ways per compare (rows are padded to whole 16-byte blocks) */
    const __m128i pat = _mm_set1_epi8((char)f);
    uint64_t match = 0;
    for (int w = 0; w < ways; w += 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(fp + w));
        match |= (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(x, pat)) << w;
    }
    return ways < 64 ? match & ((1ull << ways) - 1) : match;
#else
    const uint64_t lo7 = 0x7F7F7F7F7F7F7F7Full, pat = f * 0x0101010101010101ull;
    uint64_t match = 0;
    for (int w = 0; w < ways; w += 8) {
        uint64_t x;
        memcpy(&x, fp + w, 8);
        x ^= pat;
        uint64_t zero = ~(((x & lo7) + lo7) | x | lo7); /* 0x80 in each byte of x that is 0 */
        match |= gather_byte_flags(zero >> 7) << w;
    }
    return ways < 64 ? match & ((1ull << ways) - 1) : match;
#endif
}

#endif
