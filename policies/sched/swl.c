/* SWL, static warp limiting (CCWS section 3.2): only the swl.limit oldest warps of the SM are
 * actively scheduled, GTO among them (CCWS 5.1 Best-SWL); a younger warp becomes active when
 * an older one finishes. Warps waiting at a barrier leave the active set so the rest of their
 * CTA can reach it ("SWL limits the number of wavefronts running until a barrier, allows the
 * rest of the work-group to reach the barrier, then continues with the same multithreading
 * constraints"). With several schedulers per SM the limit is shared out among them, each
 * keeping at least one warp. */
#include <stdbool.h>
#include <stdlib.h>

#include "core/isource.h"
#include "core/policy.h"

#define READING_CHOICES(X, p) X(p, ccws) X(p, gpgpusim)
WT_CHOICE_ENUM(READING);
static const char *const reading_names[] = WT_CHOICE_NAMES(READING);

static const param_def swl_params[] = {
    {"swl.limit", PT_INT, 32, 1, 1024, NULL, "warps",
     "warps actively scheduled per SM (CCWS Table 3, Best-SWL: KMN 4, BFS 5, MEMC 7, GC 4, all "
     "others 32)"},
    {"swl.reading", PT_CHOICE, READING_ccws, 0, 0, reading_names, "",
     "ccws: the limit's oldest warps not at a barrier, GTO among them (CCWS 3.2); gpgpusim: "
     "GPGPU-Sim's warp_limiting scheduler (shader.cc swl_scheduler::order_warps), the last "
     "issued warp and the limit's oldest warps not waiting (at a barrier, with an atomic in "
     "flight, or done and waiting to leave: shd_warp_t::waiting), GTO among them"},
};

typedef struct swl {
    int limit; /* this scheduler's share of swl.limit */
    int reading;
    const warp_stalls *stalls; /* the SM's, for the gpgpusim reading's waiting warps */
    int max_warps;
    int last; /* GTO's greedy warp, or -1 */
    bool *live, *at_barrier;
    uint64_t *age;
    uint64_t *oldest; /* scratch: the smallest eligible ages while a pick finds the limit's */
} swl;

static int swl_create(void **self, const sched_env *env, const param_set *p, char *err,
                      size_t errlen)
{
    (void)err, (void)errlen;
    swl *s = calloc(1, sizeof *s);
    if (!s) return -1;
    int n = env->num_schedulers > 0 ? env->num_schedulers : 1;
    int limit = (int)param_get_int(p, "swl.limit");
    s->limit = limit / n + (env->scheduler < limit % n);
    if (s->limit < 1) s->limit = 1;
    s->reading = param_get_choice_index(p, "swl.reading");
    s->stalls = env->stalls && env->stalls->waiting ? env->stalls : NULL;
    s->max_warps = env->max_warps;
    s->last = -1;
    s->live = calloc((size_t)env->max_warps, sizeof *s->live);
    s->at_barrier = calloc((size_t)env->max_warps, sizeof *s->at_barrier);
    s->age = calloc((size_t)env->max_warps, sizeof *s->age);
    s->oldest = calloc((size_t)env->max_warps, sizeof *s->oldest);
    if (!s->live || !s->at_barrier || !s->age || !s->oldest) {
        free(s->live), free(s->at_barrier), free(s->age), free(s->oldest), free(s);
        return -1;
    }
    *self = s;
    return 0;
}

static void swl_destroy(void *self)
{
    swl *s = self;
    free(s->live);
    free(s->at_barrier);
    free(s->age);
    free(s->oldest);
    free(s);
}

static bool waits(const swl *s, int slot)
{
    if (s->reading == READING_gpgpusim && s->stalls)
        return s->stalls->waiting(s->stalls->ctx, slot);
    return s->at_barrier[slot];
}

/* The age of the youngest of the `limit` oldest live warps that are not waiting (ccws: at a
 * barrier), or UINT64_MAX when fewer are: a warp is among them when its age is at most this
 * (ages are distinct). Found once per pick by keeping the smallest ages in order. */
static uint64_t limit_age(swl *s)
{
    int n = 0, k = s->limit < s->max_warps ? s->limit : s->max_warps;
    for (int i = 0; i < s->max_warps; i++) {
        if (!s->live[i] || waits(s, i)) continue;
        uint64_t a = s->age[i];
        if (n == k && a >= s->oldest[n - 1]) continue;
        int j = n < k ? n++ : n - 1;
        for (; j > 0 && s->oldest[j - 1] > a; j--)
            s->oldest[j] = s->oldest[j - 1];
        s->oldest[j] = a;
    }
    return n == s->limit ? s->oldest[n - 1] : UINT64_MAX;
}

static int swl_pick(void *self, const warp_view *const *ready, int n, uint64_t now)
{
    (void)now;
    swl *s = self;
    for (int i = 0; i < n; i++) {
        int w = ready[i]->slot;
        s->at_barrier[w] = false; /* ready again: its barrier was released */
        if (!s->live[w]) {        /* not announced (unit tests): take it as it comes */
            s->live[w] = true;
            s->age[w] = ready[i]->age;
        }
    }
    /* active: among the limit's oldest; the gpgpusim reading also lets the last issued warp
     * in (order_by_priority puts the greedy warp first and the limit's oldest others after) */
    uint64_t youngest = limit_age(s);
    bool greedy_in = s->reading == READING_gpgpusim;
    int best = -1;
    for (int i = 0; i < n; i++) {
        if (s->age[ready[i]->slot] > youngest && !(greedy_in && ready[i]->slot == s->last))
            continue;
        if (ready[i]->slot == s->last) return i;
        if (best < 0 || ready[i]->age < ready[best]->age) best = i;
    }
    if (best >= 0) s->last = ready[best]->slot;
    return best; /* -1: every active warp is stalled, the others wait */
}

static void swl_on_issue(void *self, const warp_view *w, uint64_t now)
{
    (void)now;
    swl *s = self;
    if (w->cls == IC_BARRIER) s->at_barrier[w->slot] = true;
}

static void swl_on_warp_start(void *self, const warp_view *w, uint64_t now)
{
    (void)now;
    swl *s = self;
    s->live[w->slot] = true;
    s->at_barrier[w->slot] = false;
    s->age[w->slot] = w->age;
}

static void swl_on_warp_exit(void *self, int warp_slot, uint64_t now)
{
    (void)now;
    swl *s = self;
    s->live[warp_slot] = false;
    s->at_barrier[warp_slot] = false;
    if (s->last == warp_slot) s->last = -1;
}

const sched_ops sched_swl_ops = {
    .name = "swl",
    .doc = "static warp limiting (CCWS 3.2): only the swl.limit oldest warps are scheduled, GTO "
           "among them",
    .params = swl_params,
    .nparams = sizeof swl_params / sizeof swl_params[0],
    .create = swl_create,
    .destroy = swl_destroy,
    .pick = swl_pick,
    .on_issue = swl_on_issue,
    .on_warp_start = swl_on_warp_start,
    .on_warp_exit = swl_on_warp_exit,
};
