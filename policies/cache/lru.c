/* LRU: fill a free way first, else evict the least recently used unreserved line; insert and
 * promote to most recently used.
 *
 * Each set keeps its ways in a list from least to most recently used (per-line state: the
 * neighbours and whether the way is listed), so the victim is the head of the list instead of
 * the oldest of every way's time of last use. A way reserved for a fill is dropped from the
 * list when it reaches the head (it cannot be a victim, and only its fill, a use, clears the
 * reservation and lists it again at the tail); an invalidated way stays listed but is free,
 * and a free way is taken before the list is consulted. So whenever no way is free, the head
 * after dropping reserved ways is exactly the unreserved way used longest ago. */
#include <stdlib.h>
#include <string.h>

#include "core/policy.h"

#define LRU_NONE 0xffff /* no way */

typedef struct lru_node {
    uint16_t prev, next; /* towards the least / most recently used way */
    uint16_t listed;
} lru_node;

typedef struct lru {
    uint16_t *head, *tail; /* per set: least and most recently used listed way */
    bool keep_reserved;    /* insertion at the miss: reserved ways keep their place */
} lru;

static int lru_create(void **self, const l1_env *env, const param_set *p, char *err, size_t errlen)
{
    (void)p, (void)err, (void)errlen;
    lru *s = calloc(1, sizeof *s);
    if (!s) return -1;
    size_t sets = env->geom.sets > 0 ? (size_t)env->geom.sets : 1;
    s->head = malloc(sets * sizeof *s->head);
    s->tail = malloc(sets * sizeof *s->tail);
    if (!s->head || !s->tail) {
        free(s->head);
        free(s->tail);
        free(s);
        return -1;
    }
    memset(s->head, 0xff, sets * sizeof *s->head); /* LRU_NONE */
    memset(s->tail, 0xff, sets * sizeof *s->tail);
    s->keep_reserved = env->insert_at_miss;
    *self = s;
    return 0;
}

static void lru_destroy(void *self)
{
    lru *l = self;
    if (!l) return; /* the cache failed before creating its policy */
    free(l->head);
    free(l->tail);
    free(l);
}

static lru_node *node(const l1_set_view *s, int way)
{
    lru_node *lines = s->state;
    return &lines[way];
}

static void unlink_way(lru *l, const l1_set_view *s, int way)
{
    lru_node *n = node(s, way);
    if (n->prev == LRU_NONE)
        l->head[s->set] = n->next;
    else
        node(s, n->prev)->next = n->next;
    if (n->next == LRU_NONE)
        l->tail[s->set] = n->prev;
    else
        node(s, n->next)->prev = n->prev;
    n->listed = 0;
}

/* The way was used: it becomes the most recently used. */
static void touch(lru *l, const l1_set_view *s, int way)
{
    lru_node *n = node(s, way);
    if (n->listed) {
        if (l->tail[s->set] == way) return;
        unlink_way(l, s, way);
    }
    uint16_t t = l->tail[s->set];
    n->prev = t;
    n->next = LRU_NONE;
    n->listed = 1;
    if (t == LRU_NONE)
        l->head[s->set] = (uint16_t)way;
    else
        node(s, t)->next = (uint16_t)way;
    l->tail[s->set] = (uint16_t)way;
}

static int lru_victim(void *self, const l1_request *r, const l1_set_view *s)
{
    (void)r;
    lru *l = self;
    int way = l1_first_free_way(s);
    if (way >= 0) return way; /* rare once the cache is warm */
    uint16_t h;
    if (l->keep_reserved) { /* the oldest unreserved way; reserved ones stay where they are */
        for (h = l->head[s->set]; h != LRU_NONE && s->reserved[h]; h = node(s, h)->next)
            ;
        return h == LRU_NONE ? -1 : h;
    }
    while ((h = l->head[s->set]) != LRU_NONE && s->reserved[h])
        unlink_way(l, s, h);
    return h == LRU_NONE ? -1 : h;
}

static void lru_touch(void *self, const l1_request *r, const l1_set_view *s, int way)
{
    (void)r;
    touch(self, s, way);
}

const l1_policy_ops l1_lru_ops = {
    .name = "lru",
    .doc = "least recently used replacement, insertion at MRU",
    .line_state_bytes = sizeof(lru_node),
    .create = lru_create,
    .destroy = lru_destroy,
    .victim = lru_victim,
    .on_fill = lru_touch,
    .on_hit = lru_touch,
};
