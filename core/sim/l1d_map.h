/* The L1D's line map of a wide cache: line address -> the way holding it, for every way that
 * is valid or reserved. A lookup then probes a hash table instead of comparing the
 * fingerprints of every way of the set (sixteen compares per 256 ways, and a miss, the common
 * case of a streaming kernel, has to compare them all to prove the line absent). A line is valid
 * or reserved in at most one way, so the map's keys are unique. Internal to l1d.c, which keeps
 * it current where a way starts or stops being valid or reserved. Open addressing, linear
 * probing, deletion by backward shift (no tombstones), at most half full. */
#ifndef WT_L1D_MAP_H
#define WT_L1D_MAP_H

#include <stdint.h>
#include <stdlib.h>

#define L1D_MAP_EMPTY UINT32_MAX
#define L1D_MAP_WAYS  32 /* narrower sets: the fingerprints take one or two compares */

typedef struct l1d_map_slot {
    uint64_t line;
    uint32_t i; /* set * ways + way; L1D_MAP_EMPTY: a free slot */
} l1d_map_slot;

typedef struct l1d_map {
    l1d_map_slot *slot;
    uint32_t mask; /* slots - 1 */
    int shift;     /* 64 - log2(slots) */
} l1d_map;

/* A map for `lines` entries (two slots each, rounded up to a power of two). 0, or -1. */
static inline int l1d_map_init(l1d_map *m, size_t lines)
{
    size_t n = 16;
    int bits = 4;
    while (n < 2 * lines) {
        n <<= 1;
        bits++;
    }
    m->slot = malloc(n * sizeof *m->slot);
    if (!m->slot) return -1;
    for (size_t k = 0; k < n; k++)
        m->slot[k].i = L1D_MAP_EMPTY;
    m->mask = (uint32_t)(n - 1);
    m->shift = 64 - bits;
    return 0;
}

static inline void l1d_map_clear(l1d_map *m)
{
    for (size_t k = 0; k <= m->mask; k++)
        m->slot[k].i = L1D_MAP_EMPTY;
}

static inline uint32_t l1d_map_home(const l1d_map *m, uint64_t line)
{
    return (uint32_t)((line * 0x9E3779B97F4A7C15ull) >> m->shift);
}

/* The index (set * ways + way) of the way holding line, or L1D_MAP_EMPTY. */
static inline uint32_t l1d_map_find(const l1d_map *m, uint64_t line)
{
    for (uint32_t k = l1d_map_home(m, line);; k = (k + 1) & m->mask) {
        const l1d_map_slot *s = &m->slot[k];
        if (s->i == L1D_MAP_EMPTY || s->line == line) return s->i;
    }
}

/* Adds line (not in the map) at index i. */
static inline void l1d_map_add(l1d_map *m, uint64_t line, uint32_t i)
{
    uint32_t k = l1d_map_home(m, line);
    while (m->slot[k].i != L1D_MAP_EMPTY)
        k = (k + 1) & m->mask;
    m->slot[k] = (l1d_map_slot){line, i};
}

/* Removes line (in the map). The entries after it in its probe run move back into the gap
 * when their home allows, so every entry stays reachable from its home without tombstones. */
static inline void l1d_map_remove(l1d_map *m, uint64_t line)
{
    uint32_t k = l1d_map_home(m, line);
    while (m->slot[k].line != line || m->slot[k].i == L1D_MAP_EMPTY)
        k = (k + 1) & m->mask;
    for (uint32_t j = (k + 1) & m->mask; m->slot[j].i != L1D_MAP_EMPTY; j = (j + 1) & m->mask) {
        uint32_t h = l1d_map_home(m, m->slot[j].line);
        /* j's entry may fill the gap at k unless its home lies cyclically in (k, j] */
        if (((j - h) & m->mask) >= ((j - k) & m->mask)) {
            m->slot[k] = m->slot[j];
            k = j;
        }
    }
    m->slot[k].i = L1D_MAP_EMPTY;
}

#endif
