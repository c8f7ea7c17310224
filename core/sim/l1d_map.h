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

/* A slot holds the index of a way and a 32-bit hash of its line, not the line: eight bytes
 * instead of sixteen, so that the map of a 1,024-line L1D is 16 KB. The line itself is the
 * cache's tag of that way (tags[i], which the cache changes only while the way is out of the
 * map); a hash match is confirmed against it. */
typedef struct l1d_map_slot {
    uint32_t hash; /* l1d_map_hash of the line */
    uint32_t i;    /* set * ways + way; L1D_MAP_EMPTY: a free slot */
} l1d_map_slot;

typedef struct l1d_map {
    l1d_map_slot *slot;
    const uint64_t *tags; /* the cache's tags: the line of way i */
    uint32_t mask;        /* slots - 1 */
    int shift;            /* 64 - log2(slots) */
} l1d_map;

/* A map for `lines` entries (two slots each, rounded up to a power of two) of the cache whose
 * tags are `tags`. 0, or -1. */
static inline int l1d_map_init(l1d_map *m, size_t lines, const uint64_t *tags)
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
    m->tags = tags;
    m->mask = (uint32_t)(n - 1);
    m->shift = 64 - bits;
    return 0;
}

static inline void l1d_map_clear(l1d_map *m)
{
    for (size_t k = 0; k <= m->mask; k++)
        m->slot[k].i = L1D_MAP_EMPTY;
}

/* The slot a line's probe starts at (the product's top bits) and the hash kept of it (its low
 * half: other bits than the home's). */
static inline uint32_t l1d_map_home(const l1d_map *m, uint64_t line)
{
    return (uint32_t)((line * 0x9E3779B97F4A7C15ull) >> m->shift);
}

static inline uint32_t l1d_map_hash(uint64_t line)
{
    return (uint32_t)(line * 0x9E3779B97F4A7C15ull);
}

/* The index (set * ways + way) of the way holding line, or L1D_MAP_EMPTY. */
static inline uint32_t l1d_map_find(const l1d_map *m, uint64_t line)
{
    uint32_t h = l1d_map_hash(line);
    for (uint32_t k = l1d_map_home(m, line);; k = (k + 1) & m->mask) {
        const l1d_map_slot *s = &m->slot[k];
        if (s->i == L1D_MAP_EMPTY || (s->hash == h && m->tags[s->i] == line)) return s->i;
    }
}

/* Starts loading the slot a lookup of line probes first: with one map per SM, the maps of a
 * large GPU do not stay in the host's caches, and the probe's load otherwise stalls. */
static inline void l1d_map_prefetch(const l1d_map *m, uint64_t line)
{
    __builtin_prefetch(&m->slot[l1d_map_home(m, line)]);
}

/* Adds line (not in the map), held by way i (tags[i] is line). */
static inline void l1d_map_add(l1d_map *m, uint64_t line, uint32_t i)
{
    uint32_t k = l1d_map_home(m, line);
    while (m->slot[k].i != L1D_MAP_EMPTY)
        k = (k + 1) & m->mask;
    m->slot[k] = (l1d_map_slot){l1d_map_hash(line), i};
}

/* Removes line (in the map; its way still holds it). The entries after it in its probe run move
 * back into the gap when their home allows, so every entry stays reachable from its home
 * without tombstones. */
static inline void l1d_map_remove(l1d_map *m, uint64_t line)
{
    uint32_t h = l1d_map_hash(line), k = l1d_map_home(m, line);
    while (m->slot[k].i == L1D_MAP_EMPTY || m->slot[k].hash != h || m->tags[m->slot[k].i] != line)
        k = (k + 1) & m->mask;
    for (uint32_t j = (k + 1) & m->mask; m->slot[j].i != L1D_MAP_EMPTY; j = (j + 1) & m->mask) {
        uint32_t home = l1d_map_home(m, m->tags[m->slot[j].i]);
        /* j's entry may fill the gap at k unless its home lies cyclically in (k, j] */
        if (((j - home) & m->mask) >= ((j - k) & m->mask)) {
            m->slot[k] = m->slot[j];
            k = j;
        }
    }
    m->slot[k].i = L1D_MAP_EMPTY;
}

#endif
