/* Two-level warp scheduling (CCWS section 5.1, 2LVL-GTO; after Narasiman et al., MICRO 2011):
 * the scheduler's warps are split into fetch groups of two_level.group_size consecutive warps;
 * it issues from one fetch group until every warp of that group is stalled, then moves to
 * another. Within the group and between groups the order is GTO or round-robin
 * (two_level.intra, two_level.inter). CCWS's best configuration, the default, is groups of 2
 * with GTO at both levels; Narasiman et al. used groups of 8 with round-robin at both.
 *
 * "Stalled" is a long wait (sched_env.stalls: a global access in flight, a barrier, no warp):
 * while a warp of the group is held only for a moment (a busy unit or load/store unit, its
 * own ALU result), the group stays current and nothing issues from the others, as in
 * GPGPU-Sim's two-level scheduler, which keeps a warp active until it waits on a long
 * operation. two_level.switch_on=not_ready moves on whenever no warp of the group is ready. */
#include <stdbool.h>
#include <stdlib.h>

#include "core/policy.h"

#define ORDER_CHOICES(X, p) X(p, gto) X(p, rr)
WT_CHOICE_ENUM(ORDER);
static const char *const order_names[] = WT_CHOICE_NAMES(ORDER);

#define SWITCH_CHOICES(X, p) X(p, stalled) X(p, not_ready) X(p, stalled_exclusive)
WT_CHOICE_ENUM(SWITCH);
static const char *const switch_names[] = WT_CHOICE_NAMES(SWITCH);

static const param_def two_level_params[] = {
    {"two_level.group_size", PT_INT, 2, 1, 64, NULL, "warps",
     "warps per fetch group (CCWS 5.1: 2 performed best; Narasiman et al.: 8)"},
    {"two_level.intra", PT_CHOICE, ORDER_gto, 0, 0, order_names, "",
     "order within the fetch group: gto (greedy, then oldest) or rr (round-robin)"},
    {"two_level.inter", PT_CHOICE, ORDER_gto, 0, 0, order_names, "",
     "order between fetch groups: gto (the group of the oldest ready warp) or rr (the next group "
     "with a ready warp)"},
    {"two_level.switch_on", PT_CHOICE, SWITCH_stalled, 0, 0, switch_names, "",
     "when to leave the fetch group: once every warp of it is stalled on a long-latency event "
     "(stalled), or whenever none of it is ready (not_ready)"},
};

typedef struct two_level {
    int group_size, intra, inter, nsched;
    int sched; /* this scheduler's index: its slots are sched, sched + nsched.. */
    int max_warps;
    const warp_stalls *stalls; /* NULL: switch whenever no warp of the group is ready */
    bool exclusive;            /* a group held for a moment lets no other group issue */
    int group;                 /* the fetch group being issued from, or -1 */
    int last;                  /* the last warp issued (GTO's greedy warp), or -1 */
    int *group_last;           /* per group: its last warp issued, for round-robin within it */
    int ngroups;
} two_level;

static int two_level_create(void **self, const sched_env *env, const param_set *p, char *err,
                            size_t errlen)
{
    (void)err, (void)errlen;
    two_level *s = calloc(1, sizeof *s);
    if (!s) return -1;
    s->group_size = (int)param_get_int(p, "two_level.group_size");
    s->intra = param_get_choice_index(p, "two_level.intra");
    s->inter = param_get_choice_index(p, "two_level.inter");
    s->nsched = env->num_schedulers > 0 ? env->num_schedulers : 1;
    s->sched = env->scheduler;
    s->max_warps = env->max_warps;
    int sw = param_get_choice_index(p, "two_level.switch_on");
    s->stalls = sw != SWITCH_not_ready ? env->stalls : NULL;
    s->exclusive = sw == SWITCH_stalled_exclusive;
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
    if (s->intra == ORDER_gto) {
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

/* Is a warp of group g held only for a moment (not ready, not stalled)? */
static bool group_briefly_held(const two_level *s, int g)
{
    for (int i = 0; i < s->group_size; i++) {
        int slot = (g * s->group_size + i) * s->nsched + s->sched;
        if (slot >= s->max_warps) break;
        if (!s->stalls->stalled(s->stalls->ctx, slot)) return true;
    }
    return false;
}

static int two_level_pick(void *self, const warp_view *const *ready, int n, uint64_t now)
{
    (void)now;
    two_level *s = self;
    int g = -1;
    for (int i = 0; i < n && s->group >= 0; i++)
        if (group_of(s, ready[i]->slot) == s->group) g = s->group;
    /* No ready warp in the group, but not all of it stalled: it keeps its priority, and
     * another group's warp fills this cycle (or, exclusive, nothing issues). */
    bool keep = g < 0 && s->group >= 0 && s->stalls && group_briefly_held(s, s->group);
    if (keep && s->exclusive) return -1;
    int kept = s->group;
    if (g < 0) {
        /* every warp of the current group is stalled: move to another group */
        if (s->inter == ORDER_gto) {
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
    if (keep) s->group = kept;
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
