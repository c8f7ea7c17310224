/* Two-level warp scheduling (CCWS section 5.1, 2LVL-GTO; after Narasiman et al., MICRO 2011):
 * the scheduler's warps are split into fetch groups of two_level.group_size consecutive warps;
 * it issues from one fetch group until every warp of that group is stalled, then moves to
 * another. Within the group and between groups the order is GTO or round-robin
 * (two_level.intra, two_level.inter). CCWS's best configuration, the default, is groups of 2
 * with GTO at both levels; Narasiman et al. used groups of 8 with round-robin at both. */
#include <stdlib.h>

#include "core/policy.h"

enum { ORDER_GTO, ORDER_RR };
static const char *const order_names[] = {"gto", "rr", NULL};

static const param_def two_level_params[] = {
    {"two_level.group_size", PT_INT, 2, 1, 64, NULL, "warps",
     "warps per fetch group (CCWS 5.1: 2 performed best; Narasiman et al.: 8)"},
    {"two_level.intra", PT_CHOICE, ORDER_GTO, 0, 0, order_names, "",
     "order within the fetch group: gto (greedy, then oldest) or rr (round-robin)"},
    {"two_level.inter", PT_CHOICE, ORDER_GTO, 0, 0, order_names, "",
     "order between fetch groups: gto (the group of the oldest ready warp) or rr (the next group "
     "with a ready warp)"},
};

typedef struct two_level {
    int group_size, intra, inter, nsched;
    int group;       /* the fetch group being issued from, or -1 */
    int last;        /* the last warp issued (GTO's greedy warp), or -1 */
    int *group_last; /* per group: its last warp issued, for round-robin within it */
    int ngroups;
} two_level;

static int two_level_create(void **self, const sched_env *env, const param_set *p, char *err,
                            size_t errlen)
{
    (void)err, (void)errlen;
    two_level *s = calloc(1, sizeof *s);
    if (!s) return -1;
    s->group_size = (int)param_get_int(p, "two_level.group_size");
    s->intra = param_get_choice(p, "two_level.intra")[0] == 'r' ? ORDER_RR : ORDER_GTO;
    s->inter = param_get_choice(p, "two_level.inter")[0] == 'r' ? ORDER_RR : ORDER_GTO;
    s->nsched = env->num_schedulers > 0 ? env->num_schedulers : 1;
    s->ngroups = env->max_warps + 1;
    s->group_last = malloc((size_t)s->ngroups * sizeof *s->group_last);
    if (!s->group_last) {
        free(s);
        return -1;
    }
    for (int g = 0; g < s->ngroups; g++)
        s->group_last[g] = -1;
    s->group = -1;
    s->last = -1;
    *self = s;
    return 0;
}

static void two_level_destroy(void *self)
{
    two_level *s = self;
    free(s->group_last);
    free(s);
}

/* Fetch group of a warp slot: consecutive warps of this scheduler's pool (slot % nsched). */
static int group_of(const two_level *s, int slot)
{
    return slot / s->nsched / s->group_size;
}

/* Picks within group g, which has a ready warp. */
static int pick_within(two_level *s, const warp_view *const *ready, int n, int g)
{
    int best = -1;
    if (s->intra == ORDER_GTO) {
        for (int i = 0; i < n; i++) {
            if (group_of(s, ready[i]->slot) != g) continue;
            if (ready[i]->slot == s->last) return i;
            if (best < 0 || ready[i]->age < ready[best]->age) best = i;
        }
        return best;
    }
    /* round-robin: the first ready slot of the group after its last issued, wrapping */
    for (int i = 0; i < n; i++) {
        if (group_of(s, ready[i]->slot) != g) continue;
        if (best < 0) best = i;
        if (ready[i]->slot > s->group_last[g]) return i;
    }
    return best;
}

static int two_level_pick(void *self, const warp_view *const *ready, int n, uint64_t now)
{
    (void)now;
    two_level *s = self;
    int g = -1;
    for (int i = 0; i < n && s->group >= 0; i++)
        if (group_of(s, ready[i]->slot) == s->group) g = s->group;
    if (g < 0) {
        /* every warp of the current group is stalled: move to another group */
        if (s->inter == ORDER_GTO) {
            int oldest = 0;
            for (int i = 1; i < n; i++)
                if (ready[i]->age < ready[oldest]->age) oldest = i;
            g = group_of(s, ready[oldest]->slot);
        } else {
            /* the next group after the current one with a ready warp, wrapping */
            int first = -1, next = -1;
            for (int i = 0; i < n; i++) {
                int gi = group_of(s, ready[i]->slot);
                if (first < 0 || gi < first) first = gi;
                if (gi > s->group && (next < 0 || gi < next)) next = gi;
            }
            g = next >= 0 ? next : first;
        }
        s->group = g;
    }
    int k = pick_within(s, ready, n, g);
    s->last = ready[k]->slot;
    if (g < s->ngroups) s->group_last[g] = ready[k]->slot;
    return k;
}

const sched_ops sched_two_level_ops = {
    .name = "two_level",
    .doc = "two-level (CCWS 5.1 2LVL-GTO): issue from one fetch group until all its warps stall; "
           "GTO or round-robin within and between groups",
    .params = two_level_params,
    .nparams = sizeof two_level_params / sizeof two_level_params[0],
    .create = two_level_create,
    .destroy = two_level_destroy,
    .pick = two_level_pick,
};
