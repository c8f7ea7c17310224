#include "core/sim/warp_profile.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Open addressing with linear probing. Keys pack (kernel, CTA, warp) into 63 bits; the top bit
 * marks a used slot. */
#define USED ((uint64_t)1 << 63)

typedef struct slot {
    uint64_t key; /* USED | packed key, 0 when free */
    uint64_t val;
} slot;

struct warp_profile {
    slot *t;
    size_t cap, n; /* cap is a power of two */
};

static uint64_t pack(uint32_t kernel, uint32_t cta_id, int warp_in_cta)
{
    /* 25 bits of launch index, 32 of CTA id, 6 of warp (a CTA has at most 32 warps) */
    return USED | ((uint64_t)(kernel & 0x1ffffffu) << 38) | ((uint64_t)cta_id << 6) |
           (uint64_t)(warp_in_cta & 63);
}

static size_t hash(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ULL;
    k ^= k >> 33;
    return (size_t)k;
}

static slot *find(const warp_profile *p, uint64_t key)
{
    size_t i = hash(key) & (p->cap - 1);
    while (p->t[i].key && p->t[i].key != key)
        i = (i + 1) & (p->cap - 1);
    return &p->t[i];
}

static int grow(warp_profile *p)
{
    size_t cap = p->cap ? p->cap * 2 : 256;
    slot *old = p->t;
    size_t ocap = p->cap;
    p->t = calloc(cap, sizeof *p->t);
    if (!p->t) {
        p->t = old;
        return -1;
    }
    p->cap = cap;
    for (size_t i = 0; i < ocap; i++)
        if (old[i].key) *find(p, old[i].key) = old[i];
    free(old);
    return 0;
}

warp_profile *warp_profile_new(void)
{
    warp_profile *p = calloc(1, sizeof *p);
    if (p && grow(p) != 0) {
        free(p);
        return NULL;
    }
    return p;
}

void warp_profile_free(warp_profile *p)
{
    if (!p) return;
    free(p->t);
    free(p);
}

static void put(warp_profile *p, uint64_t key, uint64_t val)
{
    if (2 * (p->n + 1) > p->cap && grow(p) != 0) abort();
    slot *s = find(p, key);
    if (!s->key) p->n++;
    s->key = key;
    s->val = val;
}

void warp_profile_add(warp_profile *p, uint32_t kernel, uint32_t cta_id, int warp_in_cta,
                      uint64_t cycles)
{
    put(p, pack(kernel, cta_id, warp_in_cta), cycles);
}

uint64_t warp_profile_get(const warp_profile *p, uint32_t kernel, uint32_t cta_id, int warp_in_cta)
{
    const slot *s = find(p, pack(kernel, cta_id, warp_in_cta));
    return s->key ? s->val : 0;
}

size_t warp_profile_count(const warp_profile *p)
{
    return p->n;
}

/* Per-CTA sums, kept in a second table keyed by the CTA (warp bits zero) whose value indexes
 * an array of these. */
typedef struct cta_agg {
    double oracle_sum;
    int oracle_n;
    uint64_t run_max;
    bool any_slow_last; /* a warp that finished last is not fast by the oracle */
} cta_agg;

static uint64_t cta_key(uint64_t warp_key)
{
    return warp_key & ~(uint64_t)63;
}

double warp_profile_inversions(const warp_profile *oracle, const warp_profile *run)
{
    warp_profile *idx = warp_profile_new();
    cta_agg *agg = calloc(run->n + 1, sizeof *agg);
    size_t nagg = 0;
    double result = 0.0;
    if (!idx || !agg) goto out;
    /* the CTAs of the run, and the longest time in each */
    for (size_t i = 0; i < run->cap; i++) {
        if (!run->t[i].key) continue;
        slot *s = find(idx, cta_key(run->t[i].key));
        if (!s->key) {
            put(idx, cta_key(run->t[i].key), nagg++);
            s = find(idx, cta_key(run->t[i].key));
        }
        cta_agg *a = &agg[s->val];
        if (run->t[i].val > a->run_max) a->run_max = run->t[i].val;
    }
    /* the oracle's mean per CTA */
    for (size_t i = 0; i < oracle->cap; i++) {
        if (!oracle->t[i].key) continue;
        const slot *s = find(idx, cta_key(oracle->t[i].key));
        if (!s->key) continue;
        agg[s->val].oracle_sum += (double)oracle->t[i].val;
        agg[s->val].oracle_n++;
    }
    /* is every warp that finished last fast by the oracle? */
    for (size_t i = 0; i < run->cap; i++) {
        if (!run->t[i].key) continue;
        cta_agg *a = &agg[find(idx, cta_key(run->t[i].key))->val];
        if (run->t[i].val != a->run_max || !a->oracle_n) continue;
        const slot *o = find(oracle, run->t[i].key);
        double mean = a->oracle_sum / a->oracle_n;
        if (!o->key || (double)o->val >= mean) a->any_slow_last = true;
    }
    size_t ctas = 0, inverted = 0;
    for (size_t k = 0; k < nagg; k++) {
        if (!agg[k].oracle_n) continue;
        ctas++;
        inverted += !agg[k].any_slow_last;
    }
    if (ctas) result = (double)inverted / (double)ctas;
out:
    warp_profile_free(idx);
    free(agg);
    return result;
}
