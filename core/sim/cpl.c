#include "core/sim/cpl.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 64 bytes, 64-byte aligned: each issue's and stall's update touches one host cache line */
typedef struct cpl_warp {
    _Alignas(64) bool used; /* holds a warp of a resident CTA (running or finished) */
    bool live;              /* the warp is running */
    int cta_slot;
    uint64_t last;          /* cycle of its last issue (its start before the first) */
    uint64_t issued;        /* instructions committed */
    int64_t n_inst;         /* instruction count against the straight-line path */
    uint64_t n_stall;       /* nStall: the stall cycles Alg. 3 counts (cpl.stall_cycles) */
    uint64_t n_gap;         /* every cycle between consecutive instructions (for CPI_avg) */
    uint32_t pending_stall; /* reported by cpl_on_stall, applied by the next cpl_on_issue */
    uint32_t pending_gap;
    uint64_t slow_samples; /* accuracy samples in which the warp was predicted slow */
} cpl_warp;

typedef struct cpl_cta {
    int live;         /* warps still running */
    uint64_t samples; /* accuracy samples taken while the CTA was resident */
} cpl_cta;

struct cpl {
    int max_warps;
    cpl_warp *w;
    cpl_cta *cta; /* by CTA slot; an SM holds at most max_warps CTAs */
    /* Per CTA slot the warp slots that are used with that slot (bit i: w[i].used and
     * w[i].cta_slot), and the CTA slots with live warps: kept as warps start and finish, so
     * a sample visits only the warps it compares instead of every slot (max_warps <= 64). */
    uint64_t *cta_warps;
    uint64_t live_ctas;
    uint64_t period;
    double slow_fraction;
    bool stall_all;   /* cpl.stall_cycles=all: nStall counts every cycle between instructions */
    bool in_progress; /* cpl.stall_in_progress: the current wait counts before it ends */
    uint64_t next_sample;
    uint64_t now; /* the latest event: the SM's current cycle for queries between events */
    uint64_t samples, accurate; /* over finished CTAs */
};

#define CPL_STALL_CHOICES(X, p) X(p, contention) X(p, all)
WT_CHOICE_ENUM(CPL_STALL);
static const char *const cpl_stall_kinds[] = WT_CHOICE_NAMES(CPL_STALL);

static const param_def cpl_params[] = {
    {"cpl.sample_period", PT_INT, 100, 0, 1e9, NULL, "cycles",
     "period of CPL's accuracy samples (CAWA 5.2: the periodic prediction outcomes are compared "
     "with each CTA's critical warp); 0 turns the measurement off"},
    {"cpl.slow_fraction", PT_REAL, 0.5, 0, 1, NULL, "",
     "a warp is slow (predicted critical) when its counter is larger than those of at least this "
     "fraction of the other warps of its CTA (CAWA 5.2: 50%)"},
    {"cpl.stall_cycles", PT_CHOICE, 0, 0, 0, cpl_stall_kinds, "",
     "what nStall counts between two instructions of a warp (CAWA 3.1, Alg. 3): contention, "
     "the cycles it was ready but another warp issued or its unit (or the load/store unit) was "
     "busy; all, every cycle it did not issue, waits for its own operands and memory included"},
    {"cpl.stall_in_progress", PT_BOOL, 0, 0, 1, NULL, "",
     "count the wait a warp is in before it ends (false: Alg. 3 adds a wait when the warp "
     "issues again; true: every cycle of the current wait counts at once)"},
};

const param_group cpl_param_group = {"cpl", cpl_params, sizeof cpl_params / sizeof cpl_params[0]};

int cpl_create(cpl **out, int max_warps, const param_set *p, char *err, size_t errlen)
{
    if (max_warps > 64) { /* sm.max_warps allows no more: the warp sets are 64-bit masks */
        snprintf(err, errlen, "cpl: at most 64 warp slots (got %d)", max_warps);
        return -1;
    }
    cpl *c = calloc(1, sizeof *c);
    if (c) {
        c->w = aligned_alloc(_Alignof(cpl_warp), (size_t)max_warps * sizeof *c->w);
        if (c->w) memset(c->w, 0, (size_t)max_warps * sizeof *c->w);
        c->cta = calloc((size_t)max_warps, sizeof *c->cta);
        c->cta_warps = calloc((size_t)max_warps, sizeof *c->cta_warps);
    }
    if (!c || !c->w || !c->cta || !c->cta_warps) {
        cpl_destroy(c);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    c->max_warps = max_warps;
    c->period = (uint64_t)param_get_int(p, "cpl.sample_period");
    c->slow_fraction = param_get_real(p, "cpl.slow_fraction");
    c->stall_all = param_get_choice_index(p, "cpl.stall_cycles") == CPL_STALL_all;
    c->in_progress = param_get_int(p, "cpl.stall_in_progress") != 0;
    c->next_sample = c->period;
    *out = c;
    return 0;
}

void cpl_destroy(cpl *c)
{
    if (!c) return;
    free(c->w);
    free(c->cta);
    free(c->cta_warps);
    free(c);
}

/* The cycles of the wait a running warp is in since its last instruction, when
 * cpl.stall_in_progress counts them; 0 otherwise, or once the wait was reported. */
static uint64_t wait_in_progress(const cpl *c, const cpl_warp *w, uint64_t now)
{
    if (!c->in_progress || !w->live || w->pending_gap || now <= w->last + 1) return 0;
    return now - w->last - 1;
}

/* nStall at cycle now. Alg. 3 (line 5) adds a warp's stall cycles to nStall when the warp is
 * selected and executes its next instruction: a wait counts once it is over. */
static uint64_t stall_at(const cpl *c, const cpl_warp *w, uint64_t now)
{
    return w->n_stall + w->pending_stall + wait_in_progress(c, w, now);
}

/* The lowest instruction count of the warps of a CTA: its most advanced warp. */
static int64_t cta_min(const cpl *c, int cta_slot)
{
    int64_t m = INT64_MAX;
    for (uint64_t b = c->cta_warps[cta_slot]; b; b &= b - 1) {
        int64_t n = c->w[__builtin_ctzll(b)].n_inst;
        if (n < m) m = n;
    }
    return m;
}

/* eq. 1 for a warp whose CTA's most advanced warp has instruction count `lead`. */
static double criticality(const cpl *c, const cpl_warp *w, int64_t lead, uint64_t now)
{
    /* nInst: the relative instruction-count disparity, how many instructions the warp is
     * behind the most advanced warp of its CTA (>= 0) */
    int64_t n_inst = w->n_inst - lead;
    /* CPI_avg: the warp's cycles per committed instruction so far, issue cycles and every
     * wait between them; 1 before its first instruction. */
    uint64_t wait = wait_in_progress(c, w, now);
    uint64_t gap = w->n_gap + w->pending_gap + wait;
    double cpi = w->issued ? (double)(w->issued + gap) / (double)w->issued : 1.0;
    return (double)n_inst * cpi + (double)(w->n_stall + w->pending_stall + wait);
}

/* Records k identical samples of the current predictions (the counters only change at events,
 * so every sample point since the last event sees the same state). */
static void take_samples(cpl *c, uint64_t k)
{
    /* Each comparison stays within a CTA: linear in the warps plus the square of a CTA's
     * size. Only CTAs with live warps are sampled. */
    for (uint64_t cb = c->live_ctas; cb; cb &= cb - 1) {
        int cs = __builtin_ctzll(cb);
        /* one pass over the warps finds the lead (cta_min) as it gathers them */
        int64_t lead = INT64_MAX;
        double crit[64];
        int slot[64], m = 0;
        for (uint64_t b = c->cta_warps[cs]; b; b &= b - 1) {
            int i = __builtin_ctzll(b);
            slot[m++] = i;
            if (c->w[i].n_inst < lead) lead = c->w[i].n_inst;
        }
        for (int a = 0; a < m; a++)
            crit[a] = criticality(c, &c->w[slot[a]], lead, c->next_sample);
        c->cta[cs].samples += k;
        /* A warp is slow when at least `need` of the others are below it. `below` is a whole
         * number, so that is at least K = ceil(need) of them, which holds exactly when the warp
         * is above the K-th smallest value (the values are finite): one sort instead of a
         * comparison of every pair. */
        double need = c->slow_fraction * (double)(m - 1); /* of the others */
        int K = (int)need;
        K += (double)K < need;
        if (K <= 0) {
            for (int a = 0; a < m; a++)
                c->w[slot[a]].slow_samples += k;
            continue;
        }
        double sorted[64];
        for (int a = 0; a < m; a++) { /* insertion sort: a CTA has few warps */
            int b = a;
            for (; b > 0 && sorted[b - 1] > crit[a]; b--)
                sorted[b] = sorted[b - 1];
            sorted[b] = crit[a];
        }
        double kth = sorted[K - 1]; /* K <= m - 1 */
        for (int a = 0; a < m; a++)
            if (crit[a] > kth) c->w[slot[a]].slow_samples += k;
    }
}

/* Brings the samples up to cycle now, before the event at now changes any counter. */
static void sample_to(cpl *c, uint64_t now)
{
    if (!c->period || now < c->next_sample) return;
    /* the first sample point sees the counters as they were then; the following ones, up to
     * now, see the stalls grow: take them one by one while few, else in one go */
    uint64_t k = (now - c->next_sample) / c->period + 1;
    for (; k > 1 && k <= 64; k--) {
        take_samples(c, 1);
        c->next_sample += c->period;
    }
    take_samples(c, k);
    c->next_sample += k * c->period;
}

void cpl_warp_start(cpl *c, int warp, int cta_slot, uint64_t now)
{
    sample_to(c, now);
    if (now > c->now) c->now = now;
    if (cta_slot < 0 || cta_slot >= c->max_warps) cta_slot = 0; /* cannot happen: see cpl_cta */
    cpl_warp *w = &c->w[warp];
    /* the slot may still hold a finished warp of a running CTA: that CTA loses one comparison */
    if (w->used) c->cta_warps[w->cta_slot] &= ~(1ull << warp);
    *w = (cpl_warp){.used = true, .live = true, .cta_slot = cta_slot, .last = now};
    c->cta_warps[cta_slot] |= 1ull << warp;
    c->cta[cta_slot].live++;
    c->live_ctas |= 1ull << cta_slot;
}

void cpl_on_issue(cpl *c, int warp, uint64_t now)
{
    sample_to(c, now);
    if (now > c->now) c->now = now;
    cpl_warp *w = &c->w[warp];
    /* Alg. 3: the stall before this instruction is added as it executes */
    w->n_stall += w->pending_stall;
    w->n_gap += w->pending_gap;
    w->pending_stall = 0;
    w->pending_gap = 0;
    w->last = now;
    /* committing an instruction is progress (CAWA 3.1) */
    w->issued++;
    w->n_inst--;
}

void cpl_on_stall(cpl *c, int warp, uint32_t cycles, uint32_t contended)
{
    cpl_warp *w = &c->w[warp];
    w->pending_gap += cycles;
    w->pending_stall += c->stall_all ? cycles : contended;
}

void cpl_on_branch(cpl *c, const branch_event *b)
{
    /* The instructions the branch adds to the warp's path (positive) or removes from it
     * (negative), against falling through (Alg. 2):
     *  - no lane takes it: the warp falls through, 0;
     *  - every lane takes it: the warp goes from pc+1 to the target instead, fallthru - target
     *    (minus the instructions a forward branch skips; plus the body a backward branch
     *    repeats);
     *  - it diverges: the warp runs the taken side from the target to the reconvergence point
     *    on top of the fall-through side, reconv - target. */
    if (!b->taken_mask) return;
    int64_t from = b->diverged ? (int64_t)b->reconv_pc : (int64_t)b->fallthru_pc;
    c->w[b->warp_slot].n_inst += from - (int64_t)b->target_pc;
}

void cpl_warp_exit(cpl *c, int warp, uint64_t now)
{
    sample_to(c, now);
    if (now > c->now) c->now = now;
    cpl_warp *w = &c->w[warp];
    w->live = false;
    cpl_cta *t = &c->cta[w->cta_slot];
    if (--t->live > 0) return;
    c->live_ctas &= ~(1ull << w->cta_slot);
    /* The CTA is done and this warp, the last to finish, ran longest: its critical warp
     * (CAWA 5.2). The accuracy counts the samples in which it was predicted slow. */
    c->samples += t->samples;
    c->accurate += w->slow_samples;
    t->samples = 0;
    for (uint64_t b = c->cta_warps[w->cta_slot]; b; b &= b - 1) {
        int i = __builtin_ctzll(b);
        if (!c->w[i].live) {
            c->w[i].used = false;
            c->cta_warps[w->cta_slot] &= ~(1ull << i);
        }
    }
}

int64_t cpl_criticality(const cpl *c, int warp)
{
    return cpl_criticality_at(c, warp, c->now);
}

int64_t cpl_criticality_at(const cpl *c, int warp, uint64_t now)
{
    const cpl_warp *w = &c->w[warp];
    return (int64_t)llround(criticality(c, w, cta_min(c, w->cta_slot), now));
}

static int64_t criticality_at(const void *ctx, int warp_slot, uint64_t now)
{
    return cpl_criticality_at(ctx, warp_slot, now);
}

warp_criticality cpl_as_criticality(const cpl *c)
{
    return (warp_criticality){c, criticality_at};
}

int64_t cpl_n_inst(const cpl *c, int warp)
{
    return c->w[warp].n_inst;
}

uint64_t cpl_n_stall(const cpl *c, int warp, uint64_t now)
{
    return stall_at(c, &c->w[warp], now);
}

bool cpl_is_critical(const cpl *c, int warp)
{
    int64_t lead = cta_min(c, c->w[warp].cta_slot);
    double mine = criticality(c, &c->w[warp], lead, c->now);
    int below = 0, others = 0;
    for (uint64_t b = c->cta_warps[c->w[warp].cta_slot]; b; b &= b - 1) {
        int j = __builtin_ctzll(b);
        if (j == warp) continue;
        others++;
        below += criticality(c, &c->w[j], lead, c->now) < mine;
    }
    return (double)below >= c->slow_fraction * (double)others;
}

void cpl_collect(const cpl *c, sim_metrics *m)
{
    /* cpl_accuracy stays the ratio of the sums over the SMs collected so far */
    double n = m->cpl_samples + (double)c->samples;
    if (n > 0) m->cpl_accuracy = (m->cpl_accuracy * m->cpl_samples + (double)c->accurate) / n;
    m->cpl_samples = n;
}
