/* The GPU: SMs, the CTA dispatcher and the memory system, driven by one cycle loop that skips
 * the cycles in which nothing can happen; watchdogs turn hangs into errors. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/config/config.h"
#include "core/util/rng.h"
#include "core/sim/functional.h"
#include "core/sim/sample.h"
#include "core/sim/sim.h"
#include "core/sim/sm.h"
#include "core/sim/stats.h"
#include "core/sim/team.h"

/* An SM's part of a cycle when the SMs step on several threads: the replies popped for it
 * beforehand, and how its cycle went. */
typedef struct sm_step {
    mem_packet *in;
    int n_in, cap_in;
    int issued; /* sm_cycle's result; -1: it failed with err */
    char err[1024];
} sm_step;

typedef struct gpu {
    gpu_config cfg;
    memsys *mem;
    sm **sms;
    isource src;
    wt_rng rng;
    const sim_plugins *plugins;
    const cta_ops *cta;
    void *cta_self;
    uint32_t cta_period;
    /* the CTA limit in force on each SM and since when, for cta_n_avg and the CTA trace */
    int *limit;
    uint64_t *limit_since;
    double limit_cycles; /* sum over SMs of limit x cycles */
    FILE *cta_trace;
    /* the running kernel */
    kernel_launch k;
    uint32_t next_cta;
    int n_max;
    int rr; /* next SM in round-robin dispatch */
    /* with cta_per_cycle: the CTAs each SM received in cycle disp_cycle, and whether an SM with
     * room was refused one then (dispatch goes on next cycle) */
    unsigned char *disp_n;
    uint64_t disp_cycle;
    bool disp_held;
    uint64_t last_issue;   /* the last cycle a warp issued, or the memory system progressed */
    uint64_t mem_progress; /* memsys_progress at the last watchdog check */
    /* which SMs hold work (sm_busy as of the last time anything changed them), and how many:
     * the cycle loop asks only the SMs it touched */
    unsigned char *busy;
    int nbusy;
    /* sm_wake of each SM, refreshed whenever anything may have changed it, so the cycle loop
     * finds the SMs due without a call per SM per cycle */
    uint64_t *wake;
    uint64_t min_wake; /* the earliest of them, valid unless wake_dirty */
    bool wake_dirty;
    /* bit set of the SMs whose wake is not UINT64_MAX: the passes over the wakes skip the SMs
     * with nothing to do (most of them on kernels of few CTAs) */
    uint64_t *armed;
    uint64_t *due; /* scratch bit set of the SMs to run this cycle */
    int due_words;
    /* threads the SMs of a cycle step on (sim_options.threads; 1: one after another, with the
     * memory system and the source applying effects at once) */
    int threads;
    bool deferred;         /* the memory system and the source defer: the SMs may step on threads */
    sm_step *step;         /* per SM, when they may ever (threads or a share) */
    team *team;            /* the threads, while a kernel runs */
    int *order;            /* scratch: the due SMs in index order */
    uint64_t step_now;     /* the cycle they step in */
    int step_finished;     /* CTAs finished in the cycle's SMs so far */
    uint64_t step_ran_min; /* their earliest wake */
    /* threads lent by other simulations (sim_options.share): how many now, and the cycle at
     * which the loop next regroups (UINT64_MAX: never) */
    sim_thread_share *share;
    int lent;
    uint64_t regroup_at;
    /* the cycle loop's state, kept here so that it can leave and go on (a regroup) */
    uint64_t next_sample; /* the CTA scheduler's next sample */
    uint64_t mem_next;    /* the memory system's next event as of the last cycle */
    /* sampled simulation (core/sim/sample.h), or NULL: the CTAs handed out end at grid_end (the
     * grid, unless intra-kernel sampling stopped the kernel), and the next wave ends once
     * ctas_finished reaches wave_at */
    sampler *smp;
    uint32_t grid_end, ctas_finished;
    sample_next sample_at; /* where the next interval ends */
    func_counts ff;        /* what the stop's fast-forward ran */
    double *sm_insts;      /* scratch: each SM's warp instructions at an interval's end */
    double *ff_sm;         /* each SM's instructions the stop fast-forwarded */
} gpu;

/* Mirrors SM i's wake (and whether it has one) and returns it. */
static inline uint64_t set_wake(gpu *g, int i)
{
    uint64_t wk = g->wake[i] = sm_wake(g->sms[i]);
    uint64_t bit = (uint64_t)1 << (i & 63);
    if (wk == UINT64_MAX)
        g->armed[i >> 6] &= ~bit;
    else
        g->armed[i >> 6] |= bit;
    return wk;
}

/* SM i's wake may have changed outside the cycle loop's own refresh: mirror it, and let the
 * loop search the earliest again. */
static void wake_changed(gpu *g, int i)
{
    set_wake(g, i);
    g->wake_dirty = true;
}

static void gpu_free(gpu *g)
{
    if (g->sms)
        for (int i = 0; i < g->cfg.num_sms; i++)
            sm_destroy(g->sms[i]);
    free(g->sms);
    free(g->limit);
    free(g->limit_since);
    free(g->busy);
    free(g->disp_n);
    free(g->wake);
    free(g->due);
    free(g->armed);
    if (g->step)
        for (int i = 0; i < g->cfg.num_sms; i++)
            free(g->step[i].in);
    free(g->step);
    free(g->order);
    if (g->cta_self) g->cta->destroy(g->cta_self);
    if (g->src.ops) g->src.ops->destroy(g->src.self);
    sampler_destroy(g->smp);
    free(g->sm_insts);
    free(g->ff_sm);
    memsys_destroy(g->mem);
}

/* SMs on several threads (docs/architecture.md, "Parallel SMs"): the memory system and the
 * source defer what an SM does to shared state until the SMs of the cycle have run, and the
 * cycle loop applies it in SM order. Not with what the SMs report as they go (the L1D trace and
 * observer, the recorded warp profile: in simulation order), nor with a source that cannot
 * defer; then the SMs step one after another. Returns 0, or -1 with err. */
static int threads_init(gpu *g, const sim_options *opt, char *err, size_t errlen)
{
    g->threads = 1;
    g->regroup_at = UINT64_MAX;
    int want = opt && opt->threads > 1 ? opt->threads : 1;
#ifndef _OPENMP
    return 0;
#endif
    if (!opt || (want <= 1 && !opt->share) || g->cfg.num_sms < 2 || opt->l1_trace ||
        opt->l1_observer || opt->issue_trace || opt->warp_profile_out || !g->src.ops->defer ||
        g->src.ops->defer(g->src.self, 0) != 0)
        return 0;
    g->share = opt->share;
    g->step = calloc((size_t)g->cfg.num_sms, sizeof *g->step);
    g->order = calloc((size_t)g->cfg.num_sms, sizeof *g->order);
    if (!g->step || !g->order) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    g->threads = want;
    return 0;
}

/* Deferring (for a stretch of the loop on several threads) or not (on one: deferring costs a
 * log entry per send and per global access). Only between cycles, where every log is empty.
 * Returns 0, or -1 when the source cannot (the stretch then runs on one thread). */
static int set_deferred(gpu *g, bool on)
{
    if (on == g->deferred) return 0;
    if (g->src.ops->defer(g->src.self, on) != 0) return -1;
    memsys_defer(g->mem, on);
    g->deferred = on;
    return 0;
}

static int gpu_init(gpu *g, const param_set *p, const sim_plugins *plugins, isource_factory make,
                    void *arg, const sim_options *opt, char *err, size_t errlen)
{
    if (!plugins || !plugins->sched || !plugins->l1 || !plugins->cta) {
        snprintf(err, errlen, "no warp scheduler, L1D policy or CTA scheduler to run");
        return -1;
    }
    g->plugins = plugins;
    if (gpu_config_from_params(p, &g->cfg, err, errlen) != 0) return -1;
    const gpu_config *c = &g->cfg;
    wt_rng_seed(&g->rng, c->seed);
    if (memsys_create(&g->mem, &c->mem, err, errlen) != 0) return -1;
    if (make(arg, c->num_sms, c->max_warps, c->max_ctas, &g->src, err, errlen) != 0) {
        g->src.ops = NULL;
        return -1;
    }
    g->cta = plugins->cta;
    cta_env ce = {c->num_sms, &g->rng};
    if (g->cta->create(&g->cta_self, &ce, p, err, errlen) != 0) {
        g->cta_self = NULL;
        return -1;
    }
    g->cta_period = g->cta->period ? g->cta->period(g->cta_self) : 0;
    g->sms = calloc((size_t)c->num_sms, sizeof *g->sms);
    g->limit = calloc((size_t)c->num_sms, sizeof *g->limit);
    g->limit_since = calloc((size_t)c->num_sms, sizeof *g->limit_since);
    g->busy = calloc((size_t)c->num_sms, sizeof *g->busy);
    g->disp_n = calloc((size_t)c->num_sms, sizeof *g->disp_n);
    g->disp_cycle = UINT64_MAX;
    g->wake = calloc((size_t)c->num_sms, sizeof *g->wake);
    g->due_words = (c->num_sms + 63) / 64;
    g->due = calloc((size_t)g->due_words, sizeof *g->due);
    g->armed = calloc((size_t)g->due_words, sizeof *g->armed);
    g->cta_trace = opt ? opt->cta_trace : NULL;
    if (!g->sms || !g->limit || !g->limit_since || !g->busy || !g->disp_n || !g->wake || !g->due ||
        !g->armed) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (int i = 0; i < c->num_sms; i++) {
        sm_env se = {i, c, p, plugins->sched, plugins->l1, g->mem, &g->src, c->seed, opt};
        if (sm_create(&g->sms[i], &se, err, errlen) != 0) return -1;
        wake_changed(g, i);
    }
    if (sampler_create(&g->smp, c, make, arg, err, errlen) != 0) return -1;
    if (g->smp) {
        g->sm_insts = calloc((size_t)c->num_sms, sizeof *g->sm_insts);
        g->ff_sm = calloc((size_t)c->num_sms, sizeof *g->ff_sm);
        if (!g->sm_insts || !g->ff_sm) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
    }
    return threads_init(g, opt, err, errlen);
}

/* CTAs per SM the kernel's resources allow (N in DYNCTA). */
static int ctas_per_sm(const gpu_config *c, const kernel_launch *k)
{
    int warps = ((int)k->block + WT_WARP_SIZE - 1) / WT_WARP_SIZE;
    int n = c->max_ctas;
    if (c->max_warps / warps < n) n = c->max_warps / warps;
    if (c->max_threads / (int)k->block < n) n = c->max_threads / (int)k->block;
    long regs = (long)k->regs_per_thread * warps * WT_WARP_SIZE;
    if (regs > 0 && c->registers / regs < n) n = (int)(c->registers / regs);
    if (k->shared_bytes > 0 && c->shared_bytes / (int)k->shared_bytes < n)
        n = c->shared_bytes / (int)k->shared_bytes;
    return n;
}

/* The CTA policy's limit for SM i, within 1..N. */
static int policy_limit(gpu *g, int i)
{
    int limit = g->cta->limit(g->cta_self, i);
    if (limit > g->n_max) limit = g->n_max;
    return limit < 1 ? 1 : limit;
}

/* Puts SM i under the policy's limit: the newest CTAs beyond it are paused, the others run. */
static void apply_limit(gpu *g, int i, uint64_t now)
{
    g->limit_cycles += (double)g->limit[i] * (double)(now - g->limit_since[i]);
    g->limit[i] = policy_limit(g, i);
    g->limit_since[i] = now;
    sm_set_cta_limit(g->sms[i], g->limit[i], now);
    wake_changed(g, i);
}

static void trace_limit(gpu *g, int i, uint64_t now, uint32_t c_idle, uint32_t c_mem)
{
    if (g->cta_trace)
        fprintf(g->cta_trace, "%d,%llu,%d,%d,%d,%u,%u\n", i, (unsigned long long)now, g->limit[i],
                g->n_max, sm_resident_ctas(g->sms[i]), c_idle, c_mem);
}

/* Hands out CTAs one at a time, round-robin over SMs with room (DYNCTA II: load balanced).
 * Returns the number started. */
static void note_busy(gpu *g, int i)
{
    unsigned char b = sm_busy(g->sms[i]) != 0;
    g->nbusy += b - g->busy[i];
    g->busy[i] = b;
}

/* Hands out CTAs at cycle now: before the SMs run it (a kernel's start) or after (the loop). */
static int dispatch(gpu *g, uint64_t now, bool after_cycle)
{
    int sms = g->cfg.num_sms, stuck = 0, started = 0, per_cycle = g->cfg.cta_per_cycle;
    if (per_cycle && g->disp_cycle != now) {
        memset(g->disp_n, 0, (size_t)sms);
        g->disp_cycle = now;
    }
    g->disp_held = false;
    while (g->next_cta < g->grid_end && stuck < sms) {
        sm *s = g->sms[g->rr];
        bool room = sm_resident_ctas(s) < policy_limit(g, g->rr);
        bool rate = !per_cycle || g->disp_n[g->rr] < per_cycle;
        if (room && rate) {
            sm_start_cta(s, g->next_cta++, now, after_cycle);
            wake_changed(g, g->rr);
            note_busy(g, g->rr);
            started++;
            stuck = 0;
            if (per_cycle) g->disp_n[g->rr]++;
        } else {
            g->disp_held |= room;
            stuck++;
        }
        g->rr = g->rr + 1 == sms ? 0 : g->rr + 1;
    }
    return started;
}

static void sample_ctas(gpu *g, uint64_t now)
{
    for (int i = 0; i < g->cfg.num_sms; i++) {
        cta_sample cs;
        sm_take_sample(g->sms[i], now, &cs.c_idle, &cs.c_mem);
        cs.active_ctas = sm_resident_ctas(g->sms[i]);
        g->cta->on_sample(g->cta_self, i, &cs, now);
        apply_limit(g, i, now);
        trace_limit(g, i, now, cs.c_idle, cs.c_mem);
    }
}

/* The cycle-cap error of the running kernel. */
static int cycle_cap_error(const gpu *g, char *err, size_t errlen)
{
    snprintf(err, errlen, "kernel %s: reached the cycle cap sim.max_cycles=%llu", g->k.name,
             (unsigned long long)g->cfg.max_cycles);
    return -1;
}

/* Starts the current kernel at cycle now: its CTAs per SM (N), each SM told and put under the
 * policy's limit, the first CTAs handed out. Returns 0, or -1 with err. */
static int kernel_start(gpu *g, uint64_t now, char *err, size_t errlen)
{
    const gpu_config *c = &g->cfg;
    /* Kernels that each end in their first pass of the cycle loop never reach its check: a
     * host loop launching them must still stop at the cap. */
    if (now > c->max_cycles) return cycle_cap_error(g, err, errlen);
    g->n_max = ctas_per_sm(c, &g->k);
    if (g->n_max < 1) { /* sim_run_plugins refuses such a kernel before it starts */
        sm_cta_fit(c, &g->k, err, errlen);
        return -1;
    }
    g->next_cta = 0;
    g->grid_end = g->k.grid;
    g->ctas_finished = 0;
    g->sample_at = (sample_next){UINT32_MAX, UINT64_MAX};
    memset(&g->ff, 0, sizeof g->ff);
    if (!c->cta_rr_carry) g->rr = 0;
    if (g->cta->on_kernel_start) g->cta->on_kernel_start(g->cta_self, g->n_max);
    for (int i = 0; i < c->num_sms; i++) {
        sm_kernel_start(g->sms[i], &g->k);
        if (sm_l1d_kernel_start(g->sms[i], &g->k, g->n_max, err, errlen) != 0) return -1;
        apply_limit(g, i, now);
        trace_limit(g, i, now, 0, 0);
    }
    if (g->smp) { /* a wave: the CTAs the GPU holds at once under the limits now in force */
        uint32_t wave = 0;
        for (int i = 0; i < c->num_sms; i++)
            wave += (uint32_t)g->limit[i];
        stats_counters at;
        stats_capture(c, g->sms, g->mem, now, &at, g->sm_insts);
        g->sample_at = sampler_kernel_start(g->smp, g->k.grid, wave, now, &at, g->sm_insts);
    }
    if (c->cta_dispatch_late)
        g->disp_held = true; /* handed out after the SMs run this cycle (the loop's dispatch) */
    else
        dispatch(g, now, false);
    g->last_issue = now;
    return 0;
}

/* Fills g->due with the SMs to run: those with replies, those whose time has come (a reply
 * always brings an SM forward to now), or all of them without skipping. Nothing an SM does
 * changes another's wake within the cycle, so the set is known before the first one runs, and
 * finding it is a tight pass over the wakes. */
static inline void find_due(gpu *g, uint64_t now)
{
    const uint64_t *replies = memsys_reply_mask(g->mem), *wake = g->wake, *armed = g->armed;
    int any = g->wake_dirty || now >= g->min_wake; /* else only the memory has work */
    for (int w = 0; w < g->due_words; w++) {
        uint64_t d = g->cfg.skip_idle ? replies[w] : ~0ull;
        for (uint64_t a = any ? armed[w] : 0; a; a &= a - 1) {
            int b = __builtin_ctzll(a);
            d |= (uint64_t)(wake[w * 64 + b] <= now) << b;
        }
        g->due[w] = d;
    }
}

/* After SM i ran at cycle now and issued `issued`: its wake, its finished CTAs (returned) and
 * whether it is busy. *ran_min: the earliest wake of the SMs that ran. */
static inline int sm_done(gpu *g, int i, uint64_t now, int issued, uint64_t *ran_min)
{
    sm *s = g->sms[i];
    if (issued) g->last_issue = now;
    uint64_t wk = set_wake(g, i);
    *ran_min = wk < *ran_min ? wk : *ran_min;
    int done = sm_take_finished(s);
    /* CTAs finished while others were paused: the oldest paused resume (DYNCTA IV) */
    if (done && sm_resident_ctas(s) + done > g->limit[i]) apply_limit(g, i, now);
    note_busy(g, i);
    return done;
}

/* Runs the due SMs: each takes its replies, then runs, in index order. An SM's sends cannot
 * reach another SM within the cycle, so taking them SM by SM is the same as all at once.
 * *ran tells whether any SM ran, *ran_min the earliest wake of those that did. Returns the
 * CTAs that finished, or -1 with err. */
static inline int run_due(gpu *g, uint64_t now, bool *ran, uint64_t *ran_min, char *err,
                          size_t errlen)
{
    const uint64_t *replies = memsys_reply_mask(g->mem);
    int finished = 0;
    *ran = false;
    *ran_min = UINT64_MAX;
    for (int w = 0; w < g->due_words; w++) {
        for (uint64_t bits = g->due[w]; bits; bits &= bits - 1) {
            int i = w * 64 + __builtin_ctzll(bits);
            if (i >= g->cfg.num_sms) break;
            sm *s = g->sms[i];
            mem_packet p;
            if ((replies[w] >> (i & 63)) & 1)
                while (memsys_pop_reply(g->mem, i, now, &p))
                    sm_deliver(s, &p, now);
            int issued = sm_cycle(s, now, err, errlen);
            if (issued < 0) return -1;
            *ran = true;
            finished += sm_done(g, i, now, issued, ran_min);
        }
    }
    return finished;
}

/* The fewest due SMs worth sharing among threads: below, a cycle's work is shorter than
 * waking the other threads. */
#define PARALLEL_MIN_SMS 4

/* The k-th due SM's cycle, on whichever thread: its replies (popped beforehand), then its
 * cycle. */
static void step_sm(void *arg, int k)
{
    gpu *g = arg;
    int i = g->order[k];
    sm_step *st = &g->step[i];
    sm *s = g->sms[i];
    for (int j = 0; j < st->n_in; j++)
        sm_deliver(s, &st->in[j], g->step_now);
    st->issued = sm_cycle(s, g->step_now, st->err, sizeof st->err);
}

/* After the k-th due SM stepped and every one before it had its turn here: its deferred sends
 * and frees and its source effects are applied, and its outcome taken, as run_due does right
 * after each SM. Returns 0, or k + 1 when the SM failed (its err says why). */
static int stepped_sm(void *arg, int k)
{
    gpu *g = arg;
    int i = g->order[k];
    memsys_flush(g->mem, i, g->step_now);
    if (g->src.ops->commit) g->src.ops->commit(g->src.self, i);
    if (g->step[i].issued < 0) return k + 1;
    g->step_finished += sm_done(g, i, g->step_now, g->step[i].issued, &g->step_ran_min);
    return 0;
}

/* Pops SM i's replies at cycle now into its step, to be delivered on whichever thread steps it.
 * Returns 0, or -1 when out of memory. */
static int take_replies(gpu *g, int i, uint64_t now)
{
    sm_step *st = &g->step[i];
    st->n_in = 0;
    for (;;) {
        if (st->n_in == st->cap_in) {
            int cap = st->cap_in ? 2 * st->cap_in : 16;
            mem_packet *in = realloc(st->in, (size_t)cap * sizeof *in);
            if (!in) return -1;
            st->in = in;
            st->cap_in = cap;
        }
        if (!memsys_pop_reply(g->mem, i, now, &st->in[st->n_in])) return 0;
        st->n_in++;
    }
}

/* run_due with the SMs on the team's threads (or one after another without a team): the due SMs'
 * replies are popped in index order, the SMs step on any thread, then, in index order, each one's
 * deferred sends and frees and the source's deferred effects are applied and its outcome taken, as
 * run_due does after each SM. The result is run_due's, whatever the thread count. */
static int run_due_threads(gpu *g, uint64_t now, bool *ran, uint64_t *ran_min, char *err,
                           size_t errlen)
{
    int n = 0;
    for (int w = 0; w < g->due_words; w++)
        for (uint64_t bits = g->due[w]; bits; bits &= bits - 1) {
            int i = w * 64 + __builtin_ctzll(bits);
            if (i >= g->cfg.num_sms) break;
            g->order[n++] = i;
            if (take_replies(g, i, now) != 0) {
                snprintf(err, errlen, "out of memory");
                return -1;
            }
        }
    g->step_now = now;
    g->step_finished = 0;
    g->step_ran_min = UINT64_MAX;
    int rc = team_round(n >= PARALLEL_MIN_SMS ? g->team : NULL, n, step_sm, stepped_sm, g);
    *ran = n > 0;
    *ran_min = g->step_ran_min;
    if (rc) {
        snprintf(err, errlen, "%s", g->step[g->order[rc - 1]].err);
        return -1;
    }
    return g->step_finished;
}

/* Brings g->min_wake up to date after a cycle. Every wake is then later than now (an SM that
 * ran sets its next one after now, the others were not due), so an SM run now that wakes next
 * cycle holds the minimum: no pass over the wakes. Otherwise, after a change, they are
 * searched. `ran`: whether any SM ran. */
static inline void update_min_wake(gpu *g, uint64_t now, uint64_t ran_min, bool ran)
{
    if (ran_min == now + 1 && !g->wake_dirty) {
        g->min_wake = now + 1;
    } else if (g->wake_dirty || ran) {
        uint64_t m = UINT64_MAX;
        for (int w = 0; w < g->due_words; w++)
            for (uint64_t a = g->armed[w]; a; a &= a - 1) {
                uint64_t wk = g->wake[w * 64 + __builtin_ctzll(a)];
                m = wk < m ? wk : m;
            }
        g->min_wake = m;
        g->wake_dirty = false;
    }
}

/* The watchdog fired at cycle now (next: the next event, UINT64_MAX if none): names what the
 * warps wait for. A request still in the memory system means the watchdog is shorter than the
 * memory's latency, not that the kernel is stuck. Returns -1. */
static int watchdog_error(const gpu *g, uint64_t now, uint64_t next, char *err, size_t errlen)
{
    const gpu_config *c = &g->cfg;
    int at_barrier = 0;
    for (int i = 0; i < c->num_sms; i++)
        at_barrier += sm_warps_at_barrier(g->sms[i]);
    if (next != UINT64_MAX && memsys_busy(g->mem))
        snprintf(err, errlen,
                 "kernel %s: no warp issued for sim.watchdog=%llu cycles at cycle %llu "
                 "while memory requests were in flight and none progressed (%d warps at a "
                 "barrier): raise sim.watchdog above the longest memory latency",
                 g->k.name, (unsigned long long)c->watchdog, (unsigned long long)now, at_barrier);
    else if (at_barrier > 0)
        snprintf(err, errlen,
                 "kernel %s: no progress for %llu cycles at cycle %llu (%d warps waiting "
                 "at a barrier that is never reached)",
                 g->k.name, (unsigned long long)c->watchdog, (unsigned long long)now, at_barrier);
    else
        snprintf(err, errlen,
                 "kernel %s: no warp issued for sim.watchdog=%llu cycles at cycle %llu, "
                 "with no memory request in flight and no warp at a barrier",
                 g->k.name, (unsigned long long)c->watchdog, (unsigned long long)now);
    return -1;
}

/* Lent threads (sim_options.share): every this many cycles a simulation gives back the threads
 * it borrowed and takes its part of the idle ones again. */
#define REGROUP_CYCLES 8192
#define KERNEL_REGROUP 1

/* At a regroup point: whether to leave the cycle loop to change the team (threads were lent, or
 * some are idle); else the next point is set. */
static bool regroup_now(gpu *g)
{
    if (g->lent || atomic_load_explicit(&g->share->idle, memory_order_relaxed) > 0) return true;
    g->regroup_at += REGROUP_CYCLES;
    return false;
}

/* Borrows this simulation's part of the idle threads of its share, up to its most: the idle
 * ones over the simulations still running, rounded up. */
static void borrow_threads(gpu *g, uint64_t now)
{
    g->lent = 0;
    g->regroup_at = UINT64_MAX;
    sim_thread_share *sh = g->share;
    if (!sh) return;
    g->regroup_at = now + REGROUP_CYCLES;
    int running = atomic_load_explicit(&sh->running, memory_order_relaxed);
    int idle = atomic_load_explicit(&sh->idle, memory_order_relaxed);
    for (;;) {
        int want = running > 1 ? (idle + running - 1) / running : idle;
        if (want > sh->max - g->threads) want = sh->max - g->threads;
        if (want > idle) want = idle;
        if (want <= 0) return;
        if (atomic_compare_exchange_weak_explicit(&sh->idle, &idle, idle - want,
                                                  memory_order_relaxed, memory_order_relaxed)) {
            g->lent = want;
            return;
        }
    }
}

static void return_threads(gpu *g)
{
    if (g->lent) atomic_fetch_add_explicit(&g->share->idle, g->lent, memory_order_relaxed);
    g->lent = 0;
}

/* Functional execution (sampled simulation) applies its effects at once: the SMs go back to one
 * thread's way until the next kernel start or regroup. Returns 0, or -1 with err. */
static int stop_deferring(gpu *g, char *err, size_t errlen)
{
    if (!g->step || set_deferred(g, false) == 0) return 0;
    snprintf(err, errlen, "kernel %s: the source cannot stop deferring", g->k.name);
    return -1;
}

/* Intra-kernel sampling, at the end of an interval in cycle now: the sampler measures, and once
 * the kernel is stable no more CTAs are handed out and every resident warp is fast-forwarded to
 * its exit (the CTAs not handed out run functionally after the loop: run_kernel). Returns 0, or
 * -1 with err. */
static int sample_interval(gpu *g, uint64_t now, char *err, size_t errlen)
{
    stats_counters at;
    stats_capture(&g->cfg, g->sms, g->mem, now + 1, &at, g->sm_insts);
    if (!sampler_interval(g->smp, g->ctas_finished, g->next_cta, now + 1, &at, g->sm_insts,
                          &g->sample_at))
        return 0;
    g->grid_end = g->next_cta;
    if (stop_deferring(g, err, errlen) != 0) return -1;
    for (int i = 0; i < g->cfg.num_sms; i++) {
        func_counts f = {0};
        if (sm_fast_forward(g->sms[i], now + 1, g->cfg.sample_warm_l2 ? g->mem : NULL, &f, err,
                            errlen) != 0)
            return -1;
        func_counts_add(&g->ff, &f);
        g->ff_sm[i] = (double)f.warp_insts;
        wake_changed(g, i);
    }
    return 0;
}

/* The cycle loop of the current kernel, started, from cycle *now to its end (0) or to a regroup
 * point (KERNEL_REGROUP, *now the cycle to go on from). Returns -1 with err on failure. */
static int kernel_loop(gpu *g, uint64_t *now_io, char *err, size_t errlen)
{
    const gpu_config *c = &g->cfg;
    uint64_t now = *now_io;
    /* the loop's state in locals (registers), back in g when the loop leaves for a regroup */
    uint64_t next_sample = g->next_sample, mem_next = g->mem_next;
    for (;;) {
        if (now >= g->regroup_at && regroup_now(g)) {
            *now_io = now;
            g->next_sample = next_sample;
            g->mem_next = mem_next;
            return KERNEL_REGROUP;
        }
        if (now >= mem_next) memsys_tick(g->mem, now);
        find_due(g, now);
        bool ran;
        uint64_t ran_min;
        int finished = g->deferred ? run_due_threads(g, now, &ran, &ran_min, err, errlen)
                                   : run_due(g, now, &ran, &ran_min, err, errlen);
        if (finished < 0) return -1;
        if (g->smp) {
            g->ctas_finished += (uint32_t)finished;
            if ((g->ctas_finished >= g->sample_at.wave_at || now >= g->sample_at.window_at) &&
                sample_interval(g, now, err, errlen) != 0)
                return -1;
        }
        if (now >= next_sample) {
            sample_ctas(g, now);
            next_sample += g->cta_period;
        }
        /* a CTA started now keeps the GPU busy even if every SM had drained (nbusy counts it) */
        if (finished || g->cta_period || g->disp_held) dispatch(g, now, true);
        if (g->next_cta >= g->grid_end && g->nbusy == 0 && !memsys_busy(g->mem)) break;
        update_min_wake(g, now, ran_min, ran);

        uint64_t next = mem_next = memsys_next_event(g->mem, now);
        if (g->min_wake < next) next = g->min_wake;
        if (next <= now || !c->skip_idle) next = now + 1;
        if (next_sample < next) next = next_sample;
        if (g->disp_held && next > now + 1) next = now + 1; /* more CTAs to hand out */
        if (next == UINT64_MAX || next - g->last_issue > c->watchdog) {
            /* warps waiting on a memory system that works through a long queue (thousands of
             * serialised atomics on one channel) are slow, not stuck */
            uint64_t p = memsys_progress(g->mem);
            if (next != UINT64_MAX && p != g->mem_progress) {
                g->mem_progress = p;
                g->last_issue = now;
            } else {
                *now_io = now;
                return watchdog_error(g, now, next, err, errlen);
            }
        }
        if (next > c->max_cycles) {
            *now_io = now;
            return cycle_cap_error(g, err, errlen);
        }
        now = next;
    }
    *now_io = now + 1;
    return 0;
}

typedef struct kernel_run {
    gpu *g;
    uint64_t *now_io;
    char *err;
    size_t errlen;
} kernel_run;

static int kernel_loop_team(void *arg, team *t)
{
    kernel_run *r = arg;
    r->g->team = t;
    int rc = kernel_loop(r->g, r->now_io, r->err, r->errlen);
    r->g->team = NULL;
    return rc;
}

/* Runs CTAs first.. of the current kernel functionally (sampled simulation), every SM empty,
 * adding what they did to *fc. Returns 0, or -1 with err. */
static int run_functional(gpu *g, uint32_t first, func_counts *fc, char *err, size_t errlen)
{
    if (stop_deferring(g, err, errlen) != 0) return -1;
    return func_run(&g->src, &g->k, first, g->k.grid, FUNC_CTA_CAP,
                    g->cfg.sample_warm_l2 ? g->mem : NULL, fc, err, errlen);
}

/* Runs the current kernel to completion from cycle *now, on its own threads and those it
 * borrows. Returns 0, or -1 with err. */
static int run_kernel(gpu *g, uint64_t *now_io, char *err, size_t errlen)
{
    int rc;
    if (kernel_start(g, *now_io, err, errlen) != 0) return -1;
    g->next_sample = g->cta_period ? *now_io + g->cta_period : UINT64_MAX;
    /* the memory system's next event as of the end of the last cycle: nothing sends between
     * then and the next tick, so a cycle before it has nothing for the memory to do */
    g->mem_next = 0;
    for (;;) {
        borrow_threads(g, *now_io);
        int threads = g->threads + g->lent;
        if (g->step && set_deferred(g, threads > 1) != 0) threads = 1;
        if (threads <= 1) {
            rc = kernel_loop(g, now_io, err, errlen);
        } else {
            kernel_run r = {g, now_io, err, errlen};
            rc = team_run(threads, kernel_loop_team, &r);
        }
        return_threads(g);
        if (rc != KERNEL_REGROUP) break;
    }
    if (rc != 0 || !g->smp || (g->grid_end == g->k.grid && !g->ff.warp_insts)) return rc;
    /* intra-kernel sampling stopped the kernel: the CTAs not handed out run functionally, and
     * they and the fast-forwarded instructions are projected */
    func_counts fc = g->ff;
    if (run_functional(g, g->grid_end, &fc, err, errlen) != 0) return -1;
    sampler_project_rest(g->smp, &fc, g->ff_sm, *now_io);
    return 0;
}

/* Runs the launch the source just gave: in detail (its own intra-kernel sampling included), or,
 * with kernel sampling, functionally when an earlier launch of its group stands for it.
 * Returns 0, or -1 with err. */
static int run_launch(gpu *g, uint64_t *now_io, char *err, size_t errlen)
{
    if (!g->smp) return run_kernel(g, now_io, err, errlen);
    if (sampler_launch_functional(g->smp, &g->k)) {
        func_counts fc = {0};
        if (run_functional(g, 0, &fc, err, errlen) != 0) return -1;
        sampler_project_launch(g->smp, &fc);
        return 0;
    }
    stats_counters at;
    stats_capture(&g->cfg, g->sms, g->mem, *now_io, &at, NULL);
    sampler_launch_begin(g->smp, &at);
    if (run_kernel(g, now_io, err, errlen) != 0) return -1;
    stats_capture(&g->cfg, g->sms, g->mem, *now_io, &at, NULL);
    sampler_launch_end(g->smp, &at);
    return 0;
}

/* Stores a policy's values of the n metrics it declares into their slots. */
static void store_policy(sim_metrics *m, const uint8_t *slot, size_t n, const double *values)
{
    for (size_t k = 0; k < n; k++)
        m->policy[slot[k]] = values[k];
}

/* Policy statistics: every instance adds into its policy's sums (one per metric it declares),
 * each policy turns them into the reported values once, and they go to their slots. */
static void collect_policies(const gpu *g, sim_metrics *out)
{
    const sim_plugins *pl = g->plugins;
    double sched_sums[WT_POLICY_METRICS_MAX] = {0}, l1_sums[WT_POLICY_METRICS_MAX] = {0},
           cta_sums[WT_POLICY_METRICS_MAX] = {0};
    for (int i = 0; i < g->cfg.num_sms; i++)
        sm_collect_policies(g->sms[i], sched_sums, l1_sums, out);
    if (g->cta->collect) g->cta->collect(g->cta_self, cta_sums);
    if (pl->sched->finish) pl->sched->finish(sched_sums);
    store_policy(out, pl->sched_slot, pl->sched->nmetrics, sched_sums);
    if (pl->l1->finish) pl->l1->finish(l1_sums);
    store_policy(out, pl->l1_slot, pl->l1->nmetrics, l1_sums);
    if (g->cta->finish) g->cta->finish(cta_sums);
    store_policy(out, pl->cta_slot, g->cta->nmetrics, cta_sums);
}

sim_status sim_run_plugins(const param_set *config, const sim_plugins *plugins,
                           isource_factory make, void *arg, const sim_options *opt,
                           sim_metrics *out, char *err, size_t errlen)
{
    gpu g;
    memset(&g, 0, sizeof g);
    memset(out, 0, sizeof *out);
    if (gpu_init(&g, config, plugins, make, arg, opt, err, errlen) != 0) {
        gpu_free(&g);
        return SIM_BAD_CONFIG;
    }
    sim_status status = SIM_OK;
    uint64_t now = 0;
    int kernels = 0;
    for (;;) {
        int r = g.src.ops->next_kernel(g.src.self, &g.k, err, errlen);
        if (r == 0) break;
        /* a CTA that no SM can hold is a bad input, not a run that failed on the way */
        if (r > 0 && sm_cta_fit(&g.cfg, &g.k, err, errlen) != 0) {
            status = SIM_BAD_CONFIG;
            break;
        }
        if (r < 0 || run_launch(&g, &now, err, errlen) != 0) {
            status = SIM_FAILED;
            break;
        }
        kernels++;
    }
    for (int i = 0; i < g.cfg.num_sms; i++)
        sm_account(g.sms[i], now);
    uint64_t projected = g.smp ? sampler_projected_insts(g.smp) : 0;
    if (projected) {
        stats_collect_projected(&g.cfg, (const sm *const *)g.sms, g.mem, now, sampler_extra(g.smp),
                                kernels, out);
        out->projected_warp_insts = (double)projected;
        out->detailed_warp_insts = out->warp_insts - (double)projected;
    } else {
        stats_collect(&g.cfg, (const sm *const *)g.sms, g.mem, now, kernels, out);
    }
    if (opt && opt->per_sm) stats_write_per_sm(opt->per_sm, &g.cfg, (const sm *const *)g.sms, now);
    for (int i = 0; i < g.cfg.num_sms && g.limit; i++)
        g.limit_cycles += (double)g.limit[i] * (double)(now - g.limit_since[i]);
    if (now) out->cta_n_avg = g.limit_cycles / ((double)now * g.cfg.num_sms);
    collect_policies(&g, out);
    gpu_free(&g);
    return status;
}
