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

static int lru_victim(void *self, const l1_request *r, const l1_set_view *s)
{
    (void)self, (void)r;
    /* One pass: the first way neither valid nor reserved (l1_first_free_way) ends it; until
     * then the oldest unreserved stamp is kept. */
    int way = -1;
    uint64_t oldest = 0;
    for (int w = 0; w < s->ways; w++) {
        int reserved = s->reserved[w];
        if (!reserved && !s->valid[w]) return w; /* rare once the cache is warm */
        /* which ways are reserved is unpredictable: selects, not branches */
        uint64_t t = stamp_of(s, w);
        int older = !reserved && (way < 0 || t < oldest);
        way = older ? w : way;
        oldest = older ? t : oldest;
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
