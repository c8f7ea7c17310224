/* GTO, greedy-then-oldest (CCWS section 5.1): keep issuing from one warp until it stalls, then
 * pick the oldest ready warp. Age is the order in which warps were assigned to the SM; warps of
 * one CTA are assigned together, lowest thread ids first, so they are ordered by id. */
#include <stdlib.h>

#include "core/policy.h"

typedef struct gto {
    int last; /* the greedy warp's slot, or -1 */
} gto;

static int gto_create(void **self, const sched_env *env, const param_set *p, char *err,
                      size_t errlen)
{
    (void)env, (void)p, (void)err, (void)errlen;
    gto *s = calloc(1, sizeof *s);
    if (!s) return -1;
    s->last = -1;
    *self = s;
    return 0;
}

static void gto_destroy(void *self)
{
    free(self);
}

static int gto_pick(void *self, const warp_view *const *ready, int n, uint64_t now)
{
    (void)now;
    gto *s = self;
    int oldest = 0;
    for (int i = 0; i < n; i++) {
        if (ready[i]->slot == s->last) return i;
        if (ready[i]->age < ready[oldest]->age) oldest = i;
    }
    s->last = ready[oldest]->slot;
    return oldest;
}

const sched_ops sched_gto_ops = {
    .name = "gto",
    .doc = "greedy-then-oldest: run one warp until it stalls, then the oldest ready warp",
    .create = gto_create,
    .destroy = gto_destroy,
    .pick = gto_pick,
};
