/* The L1D's private state and its inline helpers (l1d.c). Nothing else includes it. */
#ifndef WT_L1D_INTERNAL_H
#define WT_L1D_INTERNAL_H

#include <assert.h>
#include <string.h>

#include "core/config/config.h"
#include "core/sim/l1d.h"
#include "core/sim/l1d_fingerprint.h"
#include "core/sim/l1d_map.h"
#include "core/util/bits.h"

/* What a fill reads of an MSHR, 24 bytes with its first waiter: a fill comes long after the
 * miss, when the MSHRs of a large GPU's SMs have left the host's caches, and it should cost one
 * host cache miss, not two or three. The allocating request is apart (mshr_req), read only by
 * a policy's fill. Ways, sets and merges are far below 2^15 (parameter ranges). */
typedef struct mshr_entry {
    uint64_t line;
    int16_t way; /* reserved way, in set `set` */
    int16_t set;
    int16_t sector; /* sectored: the one sector it fetches */
    int16_t nwaiters;
    uint32_t waiter0; /* the first waiter; the others in waiters[] from index 1 */
} mshr_entry;

struct l1d {
    l1d_config cfg;
    int line_shift;
    int set_bits; /* log2(sets) when sets is a power of two */
    uint64_t *tags;
    uint8_t *fp;   /* per way: a byte hash of its tag, so a lookup compares 8 ways per word */
    l1d_map map;   /* sets of L1D_MAP_WAYS or more ways: the ways valid or reserved, by line */
    int fp_stride; /* fingerprint bytes per set: ways rounded up to whole 16-byte blocks */
    uint8_t *valid;
    uint8_t *reserved;
    uint16_t *nreserved; /* per set: reserved ways (a miss needs fewer than all) */
    uint16_t *nused;     /* per set: ways valid or reserved (all of them: l1_set_view.full) */
    int16_t *owner;      /* warp that brought the line in */
    int16_t *mshr_of;    /* for a reserved way, its MSHR */
    uint8_t *state;      /* policy bytes, sets*ways*line_state_bytes */
    /* sectored only: per way its valid and outstanding sectors (valid[] is svalid != 0,
     * reserved[] spend != 0), and per way and sector the MSHR fetching it */
    uint16_t *svalid, *spend;
    int16_t *smshr;
    int nsec;
    size_t state_bytes;
    mshr_entry *mshr;
    l1_request *mshr_req; /* per MSHR: the allocating request, handed to the policy at fill */
    uint64_t *mshr_free;  /* bit per MSHR: free (the lowest free one is allocated first) */
    int mshr_words;
    uint32_t *waiters; /* mshrs * mshr_merge */
    int mshr_in_use;
    l1_fail last_fail;
    const l1_policy_ops *ops;
    void *policy;
};

/* Fermi's L1 as Nugteren et al. measured it (HPCA 2014, 4.1): line-address bits 7-11 XOR
 * address bits 13, 14, 15, 17 and 19; 64 sets add bit 12 on top. */
static inline int fermi_set(const l1d *c, uint64_t line_addr)
{
    uint32_t a = (uint32_t)line_addr;
    uint32_t upper = ((a >> 13) & 7u) | ((a >> 17) & 1u) << 3 | ((a >> 19) & 1u) << 4;
    uint32_t set = (((a >> 7) & 31u) ^ upper);
    if (c->cfg.sets == 64) set |= ((a >> 12) & 1u) << 5;
    return (int)set;
}

/* l1d_set_of's common cases inline: plain indexing with a power-of-two set count (QV100) and
 * Fermi's hash (l1d.hash=2). */
static inline int set_index(const l1d *c, uint64_t line_addr)
{
    if (c->cfg.hash == L1D_HASH_linear && c->set_bits > 0)
        return (int)((line_addr >> c->line_shift) & (((uint64_t)1 << c->set_bits) - 1));
    if (c->cfg.hash == L1D_HASH_fermi && c->set_bits != 0) return fermi_set(c, line_addr);
    return l1d_set_of(c, line_addr);
}

#ifndef NDEBUG
/* The set's ways valid or reserved, counted (debug builds check nused against it). */
static inline int used_ways(const l1d *c, int set)
{
    int n = 0;
    for (size_t i = (size_t)set * (size_t)c->cfg.ways, e = i + (size_t)c->cfg.ways; i < e; i++)
        n += c->valid[i] || c->reserved[i];
    return n;
}
#endif

static inline l1_set_view set_view(l1d *c, int set)
{
    size_t base = (size_t)set * (size_t)c->cfg.ways;
    return (l1_set_view){set,
                         c->cfg.ways,
                         c->valid + base,
                         c->reserved + base,
                         c->tags + base,
                         c->state + base * c->state_bytes,
                         false};
}

#ifndef NDEBUG
/* Is way a legal answer of a policy's victim() for the set (core/policy.h): an unreserved way
 * of the set, L1_BYPASS or L1_STALL? */
static inline int victim_legal(const l1_set_view *v, int way)
{
    if (way == L1_BYPASS || way == L1_STALL) return 1;
    return way >= 0 && way < v->ways && !v->reserved[way];
}
#endif

/* The policy's victim for a miss in set (*v: the set as the policy saw it): a way, L1_BYPASS,
 * or L1_STALL, which any answer that is not an unreserved way of the set also counts as (debug
 * builds assert the answer is legal). */
static inline int pick_victim(l1d *c, int set, const l1_request *r, l1_set_view *v)
{
    *v = set_view(c, set);
    assert(c->nused[set] == used_ways(c, set));
    v->full = c->nused[set] == c->cfg.ways; /* only a victim search asks */
    int way = c->ops->victim(c->policy, r, v);
    assert(victim_legal(v, way) && "an L1D policy's victim must be an unreserved way, "
                                   "L1_BYPASS or L1_STALL");
    if (way == L1_BYPASS) return way;
    if (way == L1_STALL || way < 0 || way >= c->cfg.ways || v->reserved[way]) return L1_STALL;
    return way;
}

static inline l1_outcome fail(l1d *c, l1_fail why)
{
    c->last_fail = why;
    return L1_RESFAIL;
}

/* The first way of the set whose tag is line and that is valid or reserved, or -1: candidate
 * ways (fingerprint equal) in way order, 64 at a time; the tag decides. */
#ifndef NDEBUG
static inline int holding_way_scan(const l1d *c, int set, uint64_t line)
{
    size_t base = (size_t)set * (size_t)c->cfg.ways;
    const uint8_t *fp = c->fp + (size_t)set * (size_t)c->fp_stride, f = fingerprint(line);
    for (int w0 = 0; w0 < c->cfg.ways; w0 += 64) {
        int n = c->cfg.ways - w0 < 64 ? c->cfg.ways - w0 : 64;
        for (uint64_t match = fingerprint_matches(fp + w0, n, f); match; match &= match - 1) {
            int w = w0 + __builtin_ctzll(match);
            size_t i = base + (size_t)w;
            if (c->tags[i] == line && (c->valid[i] || c->reserved[i])) return w;
        }
    }
    return -1;
}
#endif

/* holding_way_scan's answer: from the line map where the cache has one, else from the
 * fingerprints of fewer than L1D_MAP_WAYS ways (one chunk). */
static inline int holding_way(const l1d *c, int set, uint64_t line)
{
    if (!c->map.slot) {
        size_t base = (size_t)set * (size_t)c->cfg.ways;
        const uint8_t *fp = c->fp + (size_t)set * (size_t)c->fp_stride, f = fingerprint(line);
        for (uint64_t match = fingerprint_matches(fp, c->cfg.ways, f); match; match &= match - 1) {
            size_t i = base + (size_t)__builtin_ctzll(match);
            if (c->tags[i] == line && (c->valid[i] || c->reserved[i])) return (int)(i - base);
        }
        return -1;
    }
    uint32_t i = l1d_map_find(&c->map, line);
    int w = i == L1D_MAP_EMPTY ? -1 : (int)(i - (uint32_t)set * (uint32_t)c->cfg.ways);
    assert(w == holding_way_scan(c, set, line));
    return w;
}

/* Sectored: the way holding line, valid or with sectors due (at most one: a line is allocated
 * only when no way holds it), or -1. */
static inline int lookup_sectored(const l1d *c, int set, uint64_t line)
{
    return holding_way(c, set, line);
}

/* The line map follows each way that becomes, or stops being, valid or reserved. */
static inline void map_add(l1d *c, uint64_t line, size_t i)
{
    if (c->map.slot) l1d_map_add(&c->map, line, (uint32_t)i);
}

static inline void map_remove(l1d *c, uint64_t line)
{
    if (c->map.slot) l1d_map_remove(&c->map, line);
}

/* The loads waiting on MSHR m, copied out; mostly one, which needs no memcpy call. */
static inline int copy_waiters(const l1d *c, int m, uint32_t *waiters)
{
    const uint32_t *w = c->waiters + (size_t)m * (size_t)c->cfg.mshr_merge;
    int n = c->mshr[m].nwaiters;
    waiters[0] = c->mshr[m].waiter0;
    if (n > 1) memcpy(waiters + 1, w + 1, (size_t)(n - 1) * sizeof *waiters);
    return n;
}

/* MSHR m, just allocated by request r for way `way` of `set` (and sector `sector`), with its
 * first waiter. */
static inline void mshr_set(l1d *c, int m, const l1_request *r, int way, int set, int sector,
                            uint32_t waiter)
{
    c->mshr[m] = (mshr_entry){r->line_addr, (int16_t)way, (int16_t)set, (int16_t)sector, 1, waiter};
    c->mshr_req[m] = *r;
}

/* One more load waits on MSHR m (it has room). */
static inline void mshr_add_waiter(l1d *c, int m, uint32_t waiter)
{
    c->waiters[(size_t)m * (size_t)c->cfg.mshr_merge + (size_t)c->mshr[m].nwaiters++] = waiter;
}

#endif
