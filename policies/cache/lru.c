/* LRU: fill a free way first, else evict the least recently used unreserved line; insert and
 * promote to most recently used. Per-line state is the time of last use. */
#include <stdlib.h>
#include <string.h>

#include "core/policy.h"

typedef struct lru {
    uint64_t clock;
} lru;

static int lru_create(void **self, const l1_env *env, const param_set *p, char *err, size_t errlen)
{
    (void)env, (void)p, (void)err, (void)errlen;
    lru *s = calloc(1, sizeof *s);
    if (!s) return -1;
    *self = s;
    return 0;
}

static void lru_destroy(void *self)
{
    free(self);
}

static uint64_t stamp_of(const l1_set_view *s, int way)
{
    uint64_t v;
    memcpy(&v, s->state + (size_t)way * sizeof v, sizeof v);
    return v;
}

static void touch(lru *l, const l1_set_view *s, int way)
{
    uint64_t v = ++l->clock;
    memcpy(s->state + (size_t)way * sizeof v, &v, sizeof v);
}

/* Bit w set for each way neither valid nor reserved, eight ways per 64-bit word. */
static uint64_t free_ways(const l1_set_view *s)
{
    const uint64_t ones = 0x0101010101010101ull;
    uint64_t mask = 0;
    int w = 0;
    for (; w + 8 <= s->ways; w += 8) {
        uint64_t v, r;
        memcpy(&v, s->valid + w, 8);
        memcpy(&r, s->reserved + w, 8);
        uint64_t used = (v | r) & ones; /* the flags are 0 or 1: bit 0 of each byte */
        /* gather bit 0 of each byte into one byte (see l1d.c's fingerprint_matches) */
        mask |= ((((used ^ ones) * 0x0102040810204080ull) >> 56) & 0xff) << w;
    }
    for (; w < s->ways; w++)
        mask |= (uint64_t)(!s->valid[w] && !s->reserved[w]) << w;
    return mask;
}

static int lru_victim(void *self, const l1_request *r, const l1_set_view *s)
{
    (void)self, (void)r;
    /* The first way neither valid nor reserved (l1_first_free_way) wins; else the oldest
     * unreserved stamp. */
    uint64_t free_mask = free_ways(s);
    if (free_mask) return __builtin_ctzll(free_mask); /* rare once the cache is warm */
    /* Every way is valid or reserved, and valid stamps are distinct and below UINT64_MAX: a
     * reserved way keyed UINT64_MAX drops out of a strict minimum, no branch per way. */
    int way = -1;
    uint64_t oldest = UINT64_MAX;
    for (int w = 0; w < s->ways; w++) {
        uint64_t t = stamp_of(s, w) | (0 - (uint64_t)s->reserved[w]);
        if (t < oldest) {
            oldest = t;
            way = w;
        }
    }
    return way;
}

static void lru_touch(void *self, const l1_request *r, const l1_set_view *s, int way)
{
    (void)r;
    touch(self, s, way);
}

const l1_policy_ops l1_lru_ops = {
    .name = "lru",
    .doc = "least recently used replacement, insertion at MRU",
    .line_state_bytes = sizeof(uint64_t),
    .create = lru_create,
    .destroy = lru_destroy,
    .victim = lru_victim,
    .on_fill = lru_touch,
    .on_hit = lru_touch,
};
