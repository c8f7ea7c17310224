/* Sampled simulation: launch groups, CTA waves and projection (core/sim/sample.h). */
#include "core/sim/sample.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sim/sm.h"
#include "core/util/hash.h"

/* A launch as the functional pass saw it. */
typedef struct launch_rec {
    uint64_t name; /* hash of the kernel's name */
    uint32_t grid, block;
    func_counts f;
    size_t group;  /* the index of its group's first launch (its own if it is one) */
    double spread; /* its CTAs' warp instructions: standard deviation over mean */
} launch_rec;

struct sampler {
    bool kernels, intra;
    double kernel_tol, wave_tol;
    int stable_waves, warmup_waves;
    /* kernel sampling: the functional pass's launches, and each representative's counters */
    launch_rec *rec;
    size_t nrec, next; /* launches seen; the next launch's index */
    bool diverged;     /* the run's launches stopped matching the pass: all detailed */
    /* per group (by its first launch's index): the launches of it run so far, and what the last
     * one run in detail added, projections included (the representative's counters) */
    size_t *members;
    stats_counters *delta;
    int kernel_warmup;   /* a group's launches run in detail before its representative */
    double cta_spread;   /* sample.cta_spread */
    double budget;       /* sample.budget: the most of a detailed launch simulated in detail */
    double budget_floor; /* sample.budget_floor: the least, in warp instructions */
    bool cur_detailed;   /* the running launch runs in detail */
    size_t cur;          /* the running launch */
    stats_counters begin, extra_begin;
    /* intra-kernel sampling of the running launch: the counters at its start and at each wave's
     * end so far, and how many comparisons in a row held */
    stats_counters *bound;
    double *bound_sm; /* per bound, each SM's warp instructions */
    int nbound, cap_bound, calm;
    int num_sms;
    double *sm_cpi;      /* per SM, cycles per its warp instruction over the stable intervals */
    double tail;         /* half a CTA's life over the stable intervals: a kernel's last wave */
    uint64_t stop_cycle; /* when the kernel stopped */
    int warm;            /* the first bound after the warm-up waves, -1 before it */
    uint32_t grid, wave;
    bool by_waves; /* the intervals are CTA waves, else windows of `window` cycles */
    int window;
    bool window_life;     /* sample.window_life */
    uint64_t start_cycle; /* the running launch's first cycle */
    uint64_t win;         /* its windows' length: `window`, or a CTA's life once known */
    stats_counters rate;  /* per warp instruction, over the stable waves */
    /* what the functional parts add */
    stats_counters extra;
    uint64_t projected;
};

static uint64_t name_hash(const char *name)
{
    return wt_fnv1a(WT_FNV_INIT, name, strlen(name));
}

static bool close_to(double a, double b, double tol)
{
    return fabs(a - b) <= tol * fmax(a, b);
}

/* Whether launch b may stand for launch a, its features within tol of each other's. */
static bool same_group(const launch_rec *a, const launch_rec *b, double tol)
{
    if (a->name != b->name || a->grid != b->grid || a->block != b->block) return false;
    const func_counts *x = &a->f, *y = &b->f;
    if (!close_to((double)x->warp_insts, (double)y->warp_insts, tol) ||
        !close_to((double)x->thread_insts, (double)y->thread_insts, tol) ||
        !close_to((double)x->lines, (double)y->lines, tol))
        return false;
    double w = fmax((double)x->warp_insts, (double)y->warp_insts);
    for (int c = 0; c < IC_COUNT; c++)
        if (fabs((double)x->cls[c] - (double)y->cls[c]) > tol * w) return false;
    return true;
}

/* The functional pass: every launch of a second instance of the program, its features and its
 * group. Returns 0, or -1 with err. */
static int functional_pass(sampler *s, const gpu_config *c, isource_factory make, void *arg,
                           char *err, size_t errlen)
{
    isource src;
    if (make(arg, c->num_sms, c->max_warps, c->max_ctas, &src, err, errlen) != 0) return -1;
    size_t cap = 0;
    int rc = 0;
    for (;;) {
        kernel_launch k;
        int r = src.ops->next_kernel(src.self, &k, err, errlen);
        if (r <= 0) {
            rc = r;
            break;
        }
        if (sm_cta_fit(c, &k, err, errlen) != 0) { /* its warps would overrun the slots */
            rc = -1;
            break;
        }
        if (s->nrec == cap) {
            cap = cap ? 2 * cap : 16;
            launch_rec *r2 = realloc(s->rec, cap * sizeof *r2);
            if (!r2) {
                snprintf(err, errlen, "out of memory");
                rc = -1;
                break;
            }
            s->rec = r2;
        }
        launch_rec *l = &s->rec[s->nrec];
        memset(l, 0, sizeof *l);
        l->name = name_hash(k.name);
        l->grid = k.grid;
        l->block = k.block;
        if (func_run(&src, &k, 0, k.grid, FUNC_CTA_CAP, NULL, &l->f, err, errlen) != 0) {
            rc = -1;
            break;
        }
        /* how alike its CTAs are */
        double mean = k.grid ? (double)l->f.warp_insts / k.grid : 0,
               var = k.grid ? l->f.cta_insts_sq / k.grid - mean * mean : 0;
        l->spread = mean > 0 && var > 0 ? sqrt(var) / mean : 0;
        l->group = s->nrec;
        for (size_t i = 0; i < s->nrec; i++)
            if (s->rec[i].group == i && same_group(&s->rec[i], l, s->kernel_tol)) {
                l->group = i;
                break;
            }
        s->nrec++;
    }
    src.ops->destroy(src.self);
    if (rc != 0) return -1;
    s->delta = calloc(s->nrec ? s->nrec : 1, sizeof *s->delta);
    s->members = calloc(s->nrec ? s->nrec : 1, sizeof *s->members);
    if (!s->delta || !s->members) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    return 0;
}

int sampler_create(sampler **out, const gpu_config *c, isource_factory make, void *arg, char *err,
                   size_t errlen)
{
    *out = NULL;
    if (!c->sample_kernels && !c->sample_intra) return 0;
    sampler *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    s->kernels = c->sample_kernels;
    s->intra = c->sample_intra;
    s->kernel_tol = c->sample_kernel_tolerance;
    s->wave_tol = c->sample_wave_tolerance;
    s->stable_waves = c->sample_stable_waves;
    s->warmup_waves = c->sample_warmup_waves;
    s->kernel_warmup = c->sample_kernel_warmup;
    s->cta_spread = c->sample_cta_spread;
    s->budget = c->sample_budget;
    s->budget_floor = c->sample_budget_floor;
    s->num_sms = c->num_sms > 0 ? c->num_sms : 1;
    s->sm_cpi = calloc((size_t)s->num_sms, sizeof *s->sm_cpi);
    if (!s->sm_cpi) {
        snprintf(err, errlen, "out of memory");
        sampler_destroy(s);
        return -1;
    }
    s->window = c->sample_window;
    s->window_life = c->sample_window_life;
    s->cur = SIZE_MAX;
    /* the pass also tells a budget what each launch holds */
    bool pass = s->kernels || (s->intra && s->budget < 1);
    if (pass && functional_pass(s, c, make, arg, err, errlen) != 0) {
        char why[1024];
        snprintf(why, sizeof why, "%s", err);
        snprintf(err, errlen, "kernel sampling's functional pass: %s", why);
        sampler_destroy(s);
        return -1;
    }
    *out = s;
    return 0;
}

void sampler_destroy(sampler *s)
{
    if (!s) return;
    free(s->rec);
    free(s->delta);

    free(s->members);
    free(s->bound);
    free(s->bound_sm);
    free(s->sm_cpi);
    free(s);
}

/* extra += v * scale, except the slots counted exactly (fc's warp and thread instructions and
 * CTAs), which get fc's counts */
static void project(sampler *s, const stats_counters *v, double scale, const func_counts *fc)
{
    for (size_t k = 0; k < STATS_WORDS; k++)
        s->extra.v[k] += v->v[k] * scale;
    s->extra.v[STATS_WARP_INSTS] += (double)fc->warp_insts - v->v[STATS_WARP_INSTS] * scale;
    s->extra.v[STATS_THREAD_INSTS] += (double)fc->thread_insts - v->v[STATS_THREAD_INSTS] * scale;
    s->extra.v[STATS_CTAS] += (double)fc->ctas - v->v[STATS_CTAS] * scale;
    s->projected += fc->warp_insts;
}

bool sampler_launch_functional(sampler *s, const kernel_launch *k)
{
    size_t j = s->next++;
    s->cur = j;
    if (s->diverged) return false;
    if (j >= s->nrec || s->rec[j].name != name_hash(k->name) || s->rec[j].grid != k->grid ||
        s->rec[j].block != k->block) {
        s->diverged = true; /* the program went another way than in the pass (or none ran) */
        return false;
    }
    if (!s->kernels) return false;
    /* a group's first launches warm the caches for their kind of work: the representative
     * is the last of the first 1 + sample.kernel_warmup, each run in detail (and ended, with
     * its counters in delta, before any later launch of the group begins) */
    size_t g = s->rec[j].group;
    s->cur_detailed = ++s->members[g] <= 1 + (size_t)s->kernel_warmup;
    return !s->cur_detailed;
}

void sampler_project_launch(sampler *s, const func_counts *fc)
{
    const stats_counters *d = &s->delta[s->rec[s->cur].group];
    double w = d->v[STATS_WARP_INSTS];
    project(s, d, w > 0 ? (double)fc->warp_insts / w : 1.0, fc);
}

void sampler_launch_begin(sampler *s, const stats_counters *now)
{
    s->begin = *now;
    s->extra_begin = s->extra;
}

void sampler_launch_end(sampler *s, const stats_counters *now)
{
    size_t j = s->cur;
    if (!s->kernels || s->diverged || j >= s->nrec || !s->cur_detailed) return;
    size_t g = s->rec[j].group;
    for (size_t k = 0; k < STATS_WORDS; k++)
        s->delta[g].v[k] = now->v[k] - s->begin.v[k] + s->extra.v[k] - s->extra_begin.v[k];
}

/* Keeps the counters of an interval's end; returns false when out of memory (the kernel is
 * then simulated to its end). */
static bool keep_bound(sampler *s, const stats_counters *now, const double *sm_insts)
{
    if (s->nbound == s->cap_bound) {
        int cap = s->cap_bound ? 2 * s->cap_bound : 16;
        stats_counters *b = realloc(s->bound, (size_t)cap * sizeof *b);
        if (!b) return false;
        s->bound = b;
        double *bs = realloc(s->bound_sm, (size_t)cap * (size_t)s->num_sms * sizeof *bs);
        if (!bs) return false;
        s->bound_sm = bs;
        s->cap_bound = cap;
    }
    s->bound[s->nbound] = *now;
    for (int i = 0; i < s->num_sms; i++)
        s->bound_sm[(size_t)s->nbound * (size_t)s->num_sms + (size_t)i] =
            sm_insts ? sm_insts[i] : 0;
    s->nbound++;
    return true;
}

sample_next sampler_kernel_start(sampler *s, uint32_t grid, uint32_t wave, uint64_t cycle,
                                 const stats_counters *now, const double *sm_insts)
{
    sample_next none = {UINT32_MAX, UINT64_MAX}, next = none;
    s->nbound = 0;
    s->calm = 0;
    s->warm = s->warmup_waves ? -1 : 0;
    s->grid = grid;
    s->wave = wave;
    s->start_cycle = cycle;
    s->win = (uint64_t)s->window;
    if (!s->intra || wave == 0) return none;
    /* a grid of unlike CTAs (some far heavier than others) ends when its heaviest do, which
     * no rate over the others tells: simulated whole (known with kernel sampling's pass), but
     * for a budget, which trades that for speed */
    if (s->kernels && !s->diverged && s->cur < s->nrec && s->rec[s->cur].spread > s->cta_spread &&
        s->budget >= 1)
        return none;
    /* waves when the grid holds the compared ones and one more to gain from, else windows; a
     * budget's share may end within a wave: windows */
    uint64_t needed = (uint64_t)wave * (uint64_t)(s->warmup_waves + s->stable_waves + 2);
    s->by_waves = needed <= grid && s->budget >= 1;
    if (s->by_waves)
        next.wave_at = wave;
    else
        next.window_at = cycle + s->win;
    if (!keep_bound(s, now, sm_insts)) return none; /* in detail: never wrong, only slower */
    return next;
}

/* cycles per warp instruction between bounds a and b */
static double cpi(const stats_counters *a, const stats_counters *b)
{
    double w = b->v[STATS_WARP_INSTS] - a->v[STATS_WARP_INSTS];
    return w > 0 ? (b->v[STATS_CYCLES] - a->v[STATS_CYCLES]) / w : INFINITY;
}

/* The running launch's warp instructions as the functional pass counted them; 0 when unknown. */
static uint64_t launch_total(const sampler *s)
{
    if (s->diverged || s->cur >= s->nrec || s->rec[s->cur].grid != s->grid) return 0;
    return s->rec[s->cur].f.warp_insts;
}

/* The kernel stops at cycle `cycle`, projected at its rates between bounds from and to. */
static void stop(sampler *s, int from, int to, uint64_t cycle)
{
    const stats_counters *a = &s->bound[from], *b = &s->bound[to];
    double w = b->v[STATS_WARP_INSTS] - a->v[STATS_WARP_INSTS];
    for (size_t k = 0; k < STATS_WORDS; k++)
        s->rate.v[k] = (b->v[k] - a->v[k]) / w;
    const double *as = &s->bound_sm[(size_t)from * (size_t)s->num_sms],
                 *bs = &s->bound_sm[(size_t)to * (size_t)s->num_sms];
    double cycles = b->v[STATS_CYCLES] - a->v[STATS_CYCLES];
    double ctas = b->v[STATS_CTAS] - a->v[STATS_CTAS];
    /* a CTA lives `wave` CTA finishes on average; the last wave's CTAs start spread over that
     * life and the last one ends a whole life after it starts, half a life past the rate */
    s->tail = ctas > 0 ? 0.5 * (double)s->wave * cycles / ctas : 0;
    /* from too few CTAs the life is no estimate (a window in which one CTA finished would
     * make it the window times the wave), and no CTA lives longer than its kernel has run */
    if (ctas < 0.5 * (double)s->wave) s->tail = 0;
    double ran = b->v[STATS_CYCLES] - s->bound[0].v[STATS_CYCLES];
    if (s->tail > 0.5 * ran) s->tail = 0.5 * ran;
    s->stop_cycle = cycle;
    /* an SM that issued little over the intervals (a quarter of the mean or less) has no rate
     * of its own worth the name: it gets the mean SM's (2mm at 4x on fermi-gtx480, one SM
     * with a handful of instructions, had been projected 3x too long) */
    double mean_sm = w / s->num_sms;
    for (int i = 0; i < s->num_sms; i++) {
        double own = bs[i] - as[i];
        s->sm_cpi[i] = cycles / (own >= 0.25 * mean_sm ? own : mean_sm);
    }
}

bool sampler_interval(sampler *s, uint32_t finished, uint32_t dispatched, uint64_t cycle,
                      const stats_counters *now, const double *sm_insts, sample_next *next)
{
    *next = (sample_next){UINT32_MAX, UINT64_MAX};
    if (!keep_bound(s, now, sm_insts)) return false;
    int ends = s->nbound - 1; /* intervals ended so far; interval i lies between bounds i-1, i */
    /* the intervals compared start once the warm-up waves' CTAs have finished: a kernel whose
     * CTAs are all resident from the start is never stopped (within one wave, the rate of its
     * first windows misses how its warps end: atax, mvt, spmv, memcached and pvc at 16x on
     * qv100-accelsim came out 22% to 100% off when they were) */
    if (s->warm < 0 && finished >= (uint64_t)s->warmup_waves * s->wave) {
        s->warm = ends;
        /* windows shorter than a CTA's life measure a phase of the CTAs resident together:
         * pvc's map kernel at 4x on fermi-gtx480 under LRR (2.8 waves, every wave's warps
         * slowed together by the same contended buckets, then racing) held a rate steady to 3%
         * over 5,000-cycle windows at a third of its wave's mean, and came out 2.1x long */
        uint64_t life = s->warmup_waves ? (cycle - s->start_cycle) / (uint64_t)s->warmup_waves : 0;
        if (!s->by_waves && s->window_life && s->budget >= 1 && life > s->win) s->win = life;
    }
    if (s->warm >= 0 && ends >= s->warm + 2) {
        double last = cpi(&s->bound[ends - 1], &s->bound[ends]);
        double before = cpi(&s->bound[ends - 2], &s->bound[ends - 1]);
        s->calm = isfinite(last) && isfinite(before) && close_to(last, before, s->wave_tol)
                      ? s->calm + 1
                      : 0;
    }
    /* with waves, stopping pays only while a wave's CTAs are still to be handed out */
    bool worth = !s->by_waves || s->grid - dispatched >= s->wave;
    if (s->calm >= s->stable_waves && worth) {
        stop(s, ends - s->stable_waves - 1, ends, cycle);
        return true;
    }
    /* a budget spent: the launch stops, at the rate of its second half so far (its start, cold
     * caches and CTAs starting together, left out) */
    uint64_t total = launch_total(s);
    double detailed = now->v[STATS_WARP_INSTS] - s->bound[0].v[STATS_WARP_INSTS];
    if (s->budget < 1 && total > 0 && detailed >= s->budget * (double)total &&
        detailed >= s->budget_floor) {
        int from = ends / 2;
        if (!(now->v[STATS_WARP_INSTS] > s->bound[from].v[STATS_WARP_INSTS])) from = 0;
        stop(s, from, ends, cycle);
        return true;
    }
    if (!worth) return false;
    if (s->by_waves)
        next->wave_at = finished + s->wave - finished % s->wave;
    else
        next->window_at = cycle + s->win;
    return false;
}

void sampler_project_rest(sampler *s, const func_counts *fc, const double *sm_left,
                          uint64_t end_cycle)
{
    double before = s->extra.v[STATS_CYCLES];
    project(s, &s->rate, (double)fc->warp_insts, fc);
    /* the slowest SM's own work at its own rate may outlast the GPU's rate over all the work */
    double slowest = 0;
    for (int i = 0; sm_left && i < s->num_sms; i++)
        if (sm_left[i] * s->sm_cpi[i] > slowest) slowest = sm_left[i] * s->sm_cpi[i];
    if (before + slowest > s->extra.v[STATS_CYCLES]) s->extra.v[STATS_CYCLES] = before + slowest;
    /* the kernel's last wave, less the drain after the stop, which stood for it */
    double drain = end_cycle > s->stop_cycle ? (double)(end_cycle - s->stop_cycle) : 0;
    if (s->tail > drain) s->extra.v[STATS_CYCLES] += s->tail - drain;
}

const stats_counters *sampler_extra(const sampler *s)
{
    return &s->extra;
}

uint64_t sampler_projected_insts(const sampler *s)
{
    return s->projected;
}
