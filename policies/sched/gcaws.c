/* gCAWS, greedy criticality-aware warp scheduling (CAWA section 3.2): pick the ready warp that
 * CPL (core/sim/cpl.h, asked through sched_env.crit) predicts most critical, the oldest among
 * equals, and keep issuing from it greedily until it cannot issue; then pick again. Without a
 * predictor (a scheduler made outside an SM) every warp is equally critical and the order is GTO.
 */
#include <stdlib.h>

#include "core/policy.h"

typedef struct gcaws {
    const warp_criticality *crit;
    int last; /* the greedy warp, or -1 */
} gcaws;

static int gcaws_create(void **self, const sched_env *env, const param_set *p, char *err,
                        size_t errlen)
{
    (void)p, (void)err, (void)errlen;
    gcaws *s = calloc(1, sizeof *s);
    if (!s) return -1;
    s->crit = env->crit;
    s->last = -1;
    *self = s;
    return 0;
}

static void gcaws_destroy(void *self)
{
    free(self);
}

static int gcaws_pick(void *self, const warp_view *const *ready, int n, uint64_t now)
{
    gcaws *s = self;
    int best = 0;
    int64_t best_crit = s->crit ? s->crit->at(s->crit->ctx, ready[0]->slot, now) : 0;
    for (int i = 0; i < n; i++) {
        if (ready[i]->slot == s->last) return i;
        int64_t c = s->crit ? s->crit->at(s->crit->ctx, ready[i]->slot, now) : 0;
        if (c > best_crit || (c == best_crit && ready[i]->age < ready[best]->age)) {
            best = i;
            best_crit = c;
        }
    }
    s->last = ready[best]->slot;
    return best;
}

static void gcaws_on_warp_exit(void *self, int warp_slot, uint64_t now)
{
    (void)now;
    gcaws *s = self;
    if (s->last == warp_slot) s->last = -1;
}

const sched_ops sched_gcaws_ops = {
    .name = "gcaws",
    .doc = "greedy criticality-aware (CAWA 3.2): the ready warp CPL predicts most critical, "
           "oldest on ties, issued from greedily until it stalls",
    .create = gcaws_create,
    .destroy = gcaws_destroy,
    .pick = gcaws_pick,
    .on_warp_exit = gcaws_on_warp_exit,
};
