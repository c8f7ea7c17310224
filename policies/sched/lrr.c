/* LRR, loose round-robin (CCWS section 5.1): warps take turns in slot order; a warp that
 * cannot issue on its turn passes it to the next one in round-robin order. */
#include <stdlib.h>

#include "core/policy.h"

typedef struct lrr {
    int last; /* slot that issued last */
} lrr;

static int lrr_create(void **self, const sched_env *env, const param_set *p, char *err,
                      size_t errlen)
{
    (void)env, (void)p, (void)err, (void)errlen;
    lrr *s = calloc(1, sizeof *s);
    if (!s) return -1;
    s->last = -1;
    *self = s;
    return 0;
}

static void lrr_destroy(void *self)
{
    free(self);
}

static int lrr_pick(void *self, const warp_view *const *ready, int n, uint64_t now)
{
    (void)now;
    lrr *s = self;
    /* ready is in slot order: the first slot after the last issuer, wrapping around. */
    int pick = 0;
    for (int i = 0; i < n; i++) {
        if (ready[i]->slot > s->last) {
            pick = i;
            break;
        }
    }
    s->last = ready[pick]->slot;
    return pick;
}

const sched_ops sched_lrr_ops = {
    .name = "lrr",
    .doc = "loose round-robin: warps take turns; one that cannot issue yields to the next",
    .create = lrr_create,
    .destroy = lrr_destroy,
    .pick = lrr_pick,
};
