/* CAWS, criticality-aware warp scheduling with oracle knowledge (CAWS slides, PACT 2014).
 *
 * A warp's criticality is its execution time in a profiling run of the same configuration
 * (sim_run makes it first, with the scheduler caws.profile_policy; the time reaches the policy
 * as warp_view.oracle_cycles). Each warp has a count-down priority counter: it starts at the
 * warp's initial value, falls by one every cycle, and is reset to the initial value when the
 * warp issues; the ready warp with the lowest counter issues (the oldest on ties). A more
 * critical warp gets a smaller initial value, so it waits less between issues. With T the
 * warp's oracle time and S = caws.scale:
 *
 *   blk: initial = S * Tmax / T, Tmax the longest time among its CTA's warps: the critical
 *        warp of each CTA restarts at S, the others in proportion to how much faster they are;
 *   sm:  the same with Tmax the longest time among the SM's live warps;
 *   avg: warps slower than the mean time of the SM's live warps are critical and restart at
 *        S * mean / T; every other warp restarts at S (nobody is pushed back for being fast).
 *
 * A count-down counter stops at zero (caws.counter=saturating): once several warps have
 * waited out their counters they tie at zero, and the oldest of them issues. The counter is kept
 * as the cycle at which it reaches zero (reset cycle + initial value), and read at the cycle of
 * the pick, so it is exact however the SM skips idle cycles. caws.counter=unbounded keeps
 * counting below zero (the deadline itself orders the warps), an earlier reading under which a
 * memory-bound kernel, whose counters all run out, is scheduled least-recently-issued first.
 * "The SM" is this scheduler's pool of warps when an SM has several schedulers. */
#include <stdbool.h>
#include <stdlib.h>

#include "core/policy.h"

#define VARIANT_CHOICES(X, p) X(p, blk) X(p, sm) X(p, avg)
WT_CHOICE_ENUM(VARIANT);
static const char *const variant_names[] = WT_CHOICE_NAMES(VARIANT);
#define COUNTER_CHOICES(X, p) X(p, saturating) X(p, unbounded)
WT_CHOICE_ENUM(COUNTER);
static const char *const counter_names[] = WT_CHOICE_NAMES(COUNTER);
static const char *const profile_names[] = {"lrr",  "gto",   "two_level", "swl",
                                            "ccws", "gcaws", NULL};

static const param_def caws_params[] = {
    {"caws.variant", PT_CHOICE, VARIANT_blk, 0, 0, variant_names, "",
     "whose criticality the counters compare (CAWS slides): blk (within the CTA), sm (within the "
     "SM), avg (warps slower than the SM's average)"},
    {"caws.scale", PT_INT, 100, 1, 1e9, NULL, "cycles",
     "initial counter value of a critical warp; slower-than-critical warps get proportionally "
     "more"},
    {"caws.counter", PT_CHOICE, COUNTER_saturating, 0, 0, counter_names, "",
     "priority counters count down to zero and stop (saturating, the slides' count-down "
     "counters), or keep counting below zero (unbounded)"},
    {"caws.profile_policy", PT_CHOICE, 0, 0, 0, profile_names, "",
     "scheduler of the profiling run that measures each warp's execution time (the oracle)"},
};

typedef struct caws_warp {
    bool live;
    int cta_slot;
    uint64_t age;
    uint64_t oracle; /* execution time in the profile, 0 if unknown */
    uint64_t reset;  /* cycle of the last reset */
    uint64_t init;   /* initial counter value */
} caws_warp;

typedef struct caws {
    int variant;
    bool saturating; /* counters stop at zero */
    int max_warps;
    uint64_t scale;
    caws_warp *w;
    uint64_t *cta_max; /* blk: per CTA slot, the longest oracle time of its warps seen */
    int *cta_live;     /* warps of the CTA slot live in this pool */
    bool dirty;        /* initial values need recomputing */
} caws;

static const char *caws_profile_policy(const param_set *p)
{
    return param_get_choice(p, "caws.profile_policy");
}

static int caws_create(void **self, const sched_env *env, const param_set *p, char *err,
                       size_t errlen)
{
    (void)err, (void)errlen;
    caws *s = calloc(1, sizeof *s);
    if (!s) return -1;
    s->variant = param_get_choice_index(p, "caws.variant");
    s->scale = (uint64_t)param_get_int(p, "caws.scale");
    s->saturating = param_get_choice_index(p, "caws.counter") == COUNTER_saturating;
    s->max_warps = env->max_warps;
    s->w = calloc((size_t)env->max_warps, sizeof *s->w);
    s->cta_max = calloc((size_t)env->max_warps, sizeof *s->cta_max);
    s->cta_live = calloc((size_t)env->max_warps, sizeof *s->cta_live);
    if (!s->w || !s->cta_max || !s->cta_live) {
        free(s->w), free(s->cta_max), free(s->cta_live), free(s);
        return -1;
    }
    *self = s;
    return 0;
}

static void caws_destroy(void *self)
{
    caws *s = self;
    free(s->w), free(s->cta_max), free(s->cta_live), free(s);
}

static uint64_t scaled(uint64_t scale, uint64_t ref, uint64_t t)
{
    double v = (double)scale * (double)ref / (double)t;
    if (v > 1e15) v = 1e15;
    return v < 1 ? 1 : (uint64_t)(v + 0.5);
}

/* Recomputes every live warp's initial counter value from the oracle times. */
static void recompute(caws *s)
{
    uint64_t max = 0, sum = 0;
    int n = 0;
    for (int i = 0; i < s->max_warps; i++) {
        if (!s->w[i].live || !s->w[i].oracle) continue;
        if (s->w[i].oracle > max) max = s->w[i].oracle;
        sum += s->w[i].oracle;
        n++;
    }
    for (int i = 0; i < s->max_warps; i++) {
        caws_warp *w = &s->w[i];
        if (!w->live) continue;
        w->init = s->scale;
        if (!w->oracle) continue; /* unknown: neutral */
        if (s->variant == VARIANT_blk)
            w->init = scaled(s->scale, s->cta_max[w->cta_slot], w->oracle);
        else if (s->variant == VARIANT_sm)
            w->init = scaled(s->scale, max, w->oracle);
        else if ((double)w->oracle * n > (double)sum)
            w->init = scaled(s->scale, sum, w->oracle * (uint64_t)n);
    }
    s->dirty = false;
}

static void start(caws *s, const warp_view *v, uint64_t now)
{
    caws_warp *w = &s->w[v->slot];
    int cs = v->cta_slot >= 0 && v->cta_slot < s->max_warps ? v->cta_slot : 0;
    if (s->cta_live[cs] == 0) s->cta_max[cs] = 0; /* a new CTA in this slot */
    s->cta_live[cs]++;
    if (v->oracle_cycles > s->cta_max[cs]) s->cta_max[cs] = v->oracle_cycles;
    *w = (caws_warp){true, cs, v->age, v->oracle_cycles, now, s->scale};
    s->dirty = true;
}

static int caws_pick(void *self, const warp_view *const *ready, int n, uint64_t now)
{
    caws *s = self;
    for (int i = 0; i < n; i++)
        if (!s->w[ready[i]->slot].live) start(s, ready[i], now);
    if (s->dirty) recompute(s);
    /* The lowest counter issues, the oldest warp on ties (CAWS slides, "CAWS Implementation").
     * The zero-crossing cycle orders the counters; a saturating counter reads zero from it. */
    uint64_t floor = s->saturating ? now : 0;
    int best = 0;
    uint64_t kb = 0;
    for (int i = 0; i < n; i++) {
        const caws_warp *a = &s->w[ready[i]->slot];
        uint64_t ka = a->reset + a->init;
        if (ka < floor) ka = floor;
        if (i == 0 || ka < kb || (ka == kb && ready[i]->age < ready[best]->age)) best = i, kb = ka;
    }
    return best;
}

static void caws_on_issue(void *self, const warp_view *w, uint64_t now)
{
    caws *s = self;
    s->w[w->slot].reset = now;
}

static void caws_on_warp_start(void *self, const warp_view *w, uint64_t now)
{
    start(self, w, now);
}

static void caws_on_warp_exit(void *self, int warp_slot, uint64_t now)
{
    (void)now;
    caws *s = self;
    caws_warp *w = &s->w[warp_slot];
    if (!w->live) return;
    w->live = false;
    s->cta_live[w->cta_slot]--;
    s->dirty = true;
}

const sched_ops sched_caws_ops = {
    .name = "caws",
    .doc = "criticality-aware warp scheduling with oracle knowledge (CAWS slides): count-down "
           "priority counters from a profiling run's warp times; variants blk, sm, avg",
    .params = caws_params,
    .nparams = sizeof caws_params / sizeof caws_params[0],
    .create = caws_create,
    .destroy = caws_destroy,
    .pick = caws_pick,
    .on_issue = caws_on_issue,
    .on_warp_start = caws_on_warp_start,
    .on_warp_exit = caws_on_warp_exit,
    .profile_policy = caws_profile_policy,
};
