/* The SM's issue stage (core/sim/sm_issue.h): schedulers, classification, accounting. */
#include "core/sim/sm_issue.h"

#include <assert.h>
#include <stdlib.h>

#include "core/util/bits.h"

/* A warp waiting for the busy load/store unit (or a place on its way): structural in the
 * stall breakdown, waiting for memory for C_mem. */
#define ST_STAGE ST_COUNT
/* The kinds a warp is in while ready but not picked or held by a unit (a bit per kind). */
#define ST_CONTENDED ((1u << ST_SCHED) | (1u << ST_STRUCT) | (1u << ST_STAGE))

/* What the stage keeps of each warp slot. */
typedef struct issue_warp {
    uint64_t stall_since; /* the cycle from which its stall[] holds */
    uint32_t contended;   /* cycles since its last issue in a contention state (CPL's nStall) */
    uint64_t last_issue;
} issue_warp;

struct sm_issue {
    int sm;
    const gpu_config *cfg;
    const sched_ops *sched;
    void *self[4];
    void *shared; /* the instances' shared state (sched_ops.create_shared), or NULL */
    cpl *cpl;
    warp_criticality crit; /* cpl, as the schedulers ask it */
    warp_stalls stalls;    /* the warps' long waits, as the schedulers ask them */
    const sm_warps *wp;
    const scoreboard *sb;
    const sm_frontend *fe;
    const sm_exec *ex;
    const sm_ldst *ld;
    sm_wakes *wakes;
    sm_stats *st;
    issue_warp *iw;
    /* per warp: the stall_kind of the last cycle it was classified; apart from iw, as every
     * warp's is read by each scan: one host cache line for the SM's warps */
    uint8_t *stall;
    uint64_t sched_mask[4];                  /* warp slots of each scheduler */
    const warp_view **views;                 /* the scan's ready and paused lists */
    uint32_t stall_count[ST_COUNT + 1];      /* live warps per current classification */
    uint64_t acct_until;                     /* statistics are up to this cycle */
    uint64_t acct_pending;                   /* cycles not yet charged to them */
    uint64_t sched_clock;                    /* time passed to on_cycles so far */
    uint32_t last_stall[ST_COUNT];           /* warps per stall kind in the last cycle run */
    uint64_t stall_from[ST_COUNT];           /* st.cycles when last_stall[k] took its value */
    bool last_idle, last_mem, last_resident; /* the last cycle's C_idle, C_mem and util */
};

static int sched_of(const sm_issue *is, int wi)
{
    return (int)wt_mod((uint64_t)wi, (uint64_t)is->cfg->schedulers);
}

/* ------------------------------------------------------- what the schedulers ask ---- */

/* warp_stalls.stalled: the classification of the warp's last scan holds until its next one,
 * and a scheduler's warps were all classified (or kept their class) before its pick. */
static bool warp_stalled(const void *ctx, int wi)
{
    const sm_issue *is = ctx;
    uint8_t st = is->stall[wi];
    return !warps_get(is->wp, wi)->live || st == ST_MEM || st == ST_SYNC;
}

/* warp_stalls.waiting: GPGPU-Sim's shd_warp_t::waiting(), a warp that may not issue whatever
 * its next instruction: no warp in the slot, done (functional_done: it issued its exit and
 * waits for its queued accesses or acknowledgements), at a barrier, or an atomic in flight. */
static bool warp_waiting(const void *ctx, int wi)
{
    const sm_warp *w = warps_get(((const sm_issue *)ctx)->wp, wi);
    return !w->live || w->exit_pending || w->at_barrier || w->atomics > 0;
}

/* GPGPU-Sim's two-level demotion test: an empty slot, a finished warp or a barrier
 * (waiting()), else the registers the next instruction reads, once decoded, against the
 * scoreboard's long operations in flight (marks false) or its long-operation marks. */
static bool waits_on_long(const sm_issue *is, int wi, bool marks)
{
    const sm_warp *w = warps_get(is->wp, wi);
    if (!w->live || w->exit_pending || w->at_barrier) return true;
    if ((is->cfg->fetch && fe_buffered(is->fe, wi) == 0) || !w->next) return false; /* no decode */
    return sb_reads_long(is->sb, wi, w->next, marks);
}

/* warp_stalls.long_wait: while the global loads and atomics that write them are in flight. */
static bool warp_long_wait(const void *ctx, int wi)
{
    return waits_on_long(ctx, wi, false);
}

/* warp_stalls.long_marked: the marks that outlive the loads. */
static bool warp_long_marked(const void *ctx, int wi)
{
    return waits_on_long(ctx, wi, true);
}

/* ------------------------------------------------------------- create, destroy ---- */

int issue_create(sm_issue **out, const issue_env *env, char *err, size_t errlen)
{
    const gpu_config *c = env->cfg;
    sm_issue *is = calloc(1, sizeof *is);
    if (!is) goto oom;
    is->sm = env->sm;
    is->cfg = c;
    is->sched = env->sched;
    is->cpl = env->cpl;
    is->wp = env->wp;
    is->sb = env->sb;
    is->fe = env->fe;
    is->ex = env->ex;
    is->ld = env->ld;
    is->wakes = env->wakes;
    is->st = env->st;
    is->iw = calloc((size_t)c->max_warps, sizeof *is->iw);
    is->stall = calloc((size_t)c->max_warps, sizeof *is->stall);
    is->views = calloc(2 * (size_t)c->max_warps, sizeof *is->views);
    if (!is->iw || !is->stall || !is->views) goto oom;
    for (int wi = 0; wi < c->max_warps; wi++)
        is->sched_mask[wi % c->schedulers] |= (uint64_t)1 << wi;
    is->crit = cpl_as_criticality(is->cpl);
    is->stalls = (warp_stalls){is, warp_stalled, warp_long_wait, warp_waiting, warp_long_marked};
    if (is->sched->create_shared) {
        sched_env se = {is->sm,   0,         c->max_warps, c->schedulers,
                        env->rng, &is->crit, NULL,         &is->stalls};
        if (is->sched->create_shared(&is->shared, &se, env->params) != 0) goto oom;
    }
    for (int k = 0; k < c->schedulers; k++) {
        sched_env se = {is->sm,   k,         c->max_warps, c->schedulers,
                        env->rng, &is->crit, is->shared,   &is->stalls};
        if (is->sched->create(&is->self[k], &se, env->params, err, errlen) != 0) {
            is->self[k] = NULL;
            issue_destroy(is);
            return -1;
        }
    }
    *out = is;
    return 0;
oom:
    snprintf(err, errlen, "out of memory");
    issue_destroy(is);
    return -1;
}

void issue_destroy(sm_issue *is)
{
    if (!is) return;
    for (int k = 0; k < 4; k++)
        if (is->self[k]) is->sched->destroy(is->self[k]);
    if (is->shared) is->sched->destroy_shared(is->shared);
    free(is->iw);
    free(is->stall);
    free(is->views);
    free(is);
}

/* -------------------------------------------------------------- classification ---- */

/* Sets warp wi's classification from cycle now on. The cycles it spent ready but not picked, or
 * held by a busy unit or load/store unit, are contention: CPL's nStall counts them (CAWA 3.1,
 * "stall latencies caused by shared resource contention as well as scheduler delays"). */
static void set_stall(sm_issue *is, int wi, uint8_t st, uint64_t now)
{
    if (st == is->stall[wi]) return;
    issue_warp *w = &is->iw[wi];
    if (((1u << is->stall[wi]) & ST_CONTENDED) && now > w->stall_since)
        w->contended += (uint32_t)(now - w->stall_since);
    is->stall[wi] = st;
    w->stall_since = now;
}

/* Why warp wi (of scheduler k) cannot issue now, or ST_EXEC if it can. */
static int classify(const sm_issue *is, int wi, int k, uint64_t now, uint64_t *wake)
{
    const gpu_config *c = is->cfg;
    const sm_warp *w = warps_get(is->wp, wi);
    /* done; leaves once its queued accesses are in and its stores acknowledged */
    if (w->exit_pending) return w->mq_count ? ST_STAGE : ST_MEM;
    /* An empty instruction buffer (sm.fetch) waits for the fetch, which marks the warp when it
     * fills it; a new warp starts with one. */
    if (c->fetch) {
        int ib_n = fe_buffered(is->fe, wi);
        uint64_t ib_ready = fe_ready_at(is->fe, wi);
        if (ib_n == 0 || ib_ready > now) {
            if (w->at_barrier) return ST_SYNC;
            if (ib_n && ib_ready < *wake) *wake = ib_ready;
            return ST_CTRL;
        }
    }
    /* GPGPU-Sim's waiting(): an atomic in flight holds the whole warp; its return rechecks it */
    if (w->atomics && c->atomic_wait) return ST_MEM;
    /* Last found ready, or waiting only for a unit or the load/store unit (or new): its
     * barrier, branch latency and scoreboard have not changed since (only its own issue sets
     * them, and a release can only clear a hazard), so only the unit is left to check. */
    if (!((1u << is->stall[wi]) & ST_CONTENDED)) {
        if (w->at_barrier) return ST_SYNC;
        if (w->ready_at > now) {
            if (w->ready_at < *wake) *wake = w->ready_at;
            return ST_CTRL;
        }
        sb_hazard h = sb_check(is->sb, wi, w->need);
        if (h != SB_NONE) return h == SB_MEM ? ST_MEM : ST_DATA;
    } else {
        assert(!w->at_barrier && w->ready_at <= now && sb_check(is->sb, wi, w->need) == SB_NONE);
    }
    int cls = w->view.cls;
    if (cls >= IC_LD_GLOBAL && cls <= IC_ATOMIC) {
        bool via_unit = (cls != IC_LD_SHARED && cls != IC_ST_SHARED) || c->shared_path;
        if (c->mem_queue && via_unit) {
            if (exec_mem_full(is->ex)) return ST_STAGE; /* a pop wakes the SM */
            if (exec_units_held(is->ex, k, cls))
                return ST_STAGE; /* every collector unit holds a queued memory instruction */
        } else if (ldst_busy(is->ld)) {
            return ST_STAGE; /* the unit wakes the SM when it frees */
        }
        if (cls == IC_LD_GLOBAL && is->sched->may_issue_load &&
            !is->sched->may_issue_load(is->self[k], wi)) {
            *wake = now + 1; /* a veto may lift with time */
            return ST_STRUCT;
        }
        return ST_EXEC;
    }
    uint64_t free_at = 0;
    if (cls == IC_EXIT && c->exit_on_int) cls = IC_INT;
    if (cls == IC_BRANCH) free_at = exec_free_at(is->ex, k, cls);
    if (cls == IC_INT || cls == IC_FP || cls == IC_SFU) {
        if (exec_units_held(is->ex, k, cls))
            return ST_STAGE; /* queued memory instructions hold every unit: a pop frees one */
        free_at = exec_free_at(is->ex, k, cls);
    }
    if (free_at > now) {
        if (free_at < *wake) *wake = free_at;
        return ST_STRUCT;
    }
    return ST_EXEC;
}

int issue_scan(sm_issue *is, int k, uint64_t now, uint64_t *wake, const warp_view *const **list)
{
    uint32_t *counts = is->stall_count;
    sm_wakes *wk = is->wakes;
    /* Only warps whose state may have changed are looked at: one blocked on a register or a
     * barrier stays blocked until a release marks it again. */
    uint64_t to_check = wk->recheck & is->sched_mask[k];
    if (!to_check) return 0; /* none may have changed: none is ready */
    const warp_view **ready = is->views, **paused = is->views + is->cfg->max_warps;
    int nready = 0, npaused = 0;
    while (to_check) {
        int wi = __builtin_ctzll(to_check);
        uint64_t bit = (uint64_t)1 << wi;
        to_check &= to_check - 1;
        const sm_warp *w = warps_get(is->wp, wi);
        if (!w->live) {
            wk->recheck &= ~bit;
            continue;
        }
        int st = classify(is, wi, k, now, wake);
        counts[is->stall[wi]]--;
        /* An empty instruction buffer stays empty until the fetch fills it and marks the warp
         * again (sm_fetch.c), so such a warp is not looked at meanwhile either. */
        if ((1u << st) & ((1u << ST_SYNC) | (1u << ST_MEM) | (1u << ST_DATA) | (1u << ST_STAGE)) ||
            (st == ST_CTRL && is->cfg->fetch && fe_buffered(is->fe, wi) == 0))
            wk->recheck &= ~bit;
        if (st == ST_STAGE) wk->stage_waiters |= bit;
        if (st == ST_EXEC) {
            /* Warps of paused CTAs are picked only when no other warp is ready (DYNCTA IV). */
            st = ST_SCHED;
            if (w->view.paused)
                paused[npaused++] = warps_view(is->wp, wi);
            else
                ready[nready++] = warps_view(is->wp, wi);
        }
        set_stall(is, wi, (uint8_t)st, now);
        counts[st]++;
    }
    *list = nready ? ready : paused;
    return nready ? nready : npaused;
}

int issue_pick(sm_issue *is, int k, const warp_view *const *list, int n, uint64_t now,
               uint64_t *wake)
{
    int pick = is->sched->pick(is->self[k], list, n, now);
    if (pick < 0) {
        if (is->sched->retry_declined && now + 1 < *wake) *wake = now + 1;
        return -1;
    }
    int wi = list[pick]->slot;
    is->stall_count[ST_SCHED]--;
    is->stall_count[ST_EXEC]++;
    set_stall(is, wi, ST_EXEC, now);
    return wi;
}

/* --------------------------------------------------------------- accounting ---- */

/* Cycles are accounted lazily: a span only adds to acct_pending, and the pending cycles are
 * charged with the classification (last_stall, last_idle, ...) when it is about to change or
 * when the statistics are read. An SM that runs cycle after cycle without a new issue scan
 * (a divergent load going through the L1D an access a cycle) would otherwise pay the whole
 * multiply-add over the stall kinds every cycle. The stall kinds go further: each is charged
 * only when its count changes (set_last_stall), and all of them when the statistics are read
 * (issue_account). Sums of integers: the same totals. */
static void account_flush(sm_issue *is)
{
    uint64_t cycles = is->acct_pending;
    if (!cycles) return;
    sm_stats *st = is->st;
    is->acct_pending = 0;
    st->cycles += cycles; /* the stall kinds' share: set_last_stall */
    if (is->last_idle) st->c_idle += cycles, st->sample_idle += (uint32_t)cycles;
    if (is->last_mem) st->c_mem += cycles, st->sample_mem += (uint32_t)cycles;
    if (is->last_resident) st->resident_cycles += cycles;
}

/* Sets last_stall[k] (the pending cycles charged already): the cycles since it took its old
 * value are charged to st.stall[k] with that value. */
static void set_last_stall(sm_issue *is, int k, uint32_t v)
{
    if (v == is->last_stall[k]) return;
    is->st->stall[k] += (uint64_t)is->last_stall[k] * (is->st->cycles - is->stall_from[k]);
    is->stall_from[k] = is->st->cycles;
    is->last_stall[k] = v;
}

void issue_account_to(sm_issue *is, uint64_t now)
{
    if (now <= is->acct_until) return;
    is->acct_pending += now - is->acct_until;
    is->acct_until = now;
}

void issue_account(sm_issue *is, uint64_t now)
{
    issue_account_to(is, now);
    account_flush(is);
    for (int k = 0; k < ST_COUNT; k++) {
        is->st->stall[k] += (uint64_t)is->last_stall[k] * (is->st->cycles - is->stall_from[k]);
        is->stall_from[k] = is->st->cycles;
    }
}

void issue_take_sample(sm_issue *is, uint64_t now, uint32_t *c_idle, uint32_t *c_mem)
{
    issue_account(is, now);
    *c_idle = is->st->sample_idle;
    *c_mem = is->st->sample_mem;
    is->st->sample_idle = is->st->sample_mem = 0;
}

void issue_scan_done(sm_issue *is, int issued)
{
    const uint32_t *counts = is->stall_count;
    account_flush(is); /* the cycles so far were classified as the last scan found */
    /* Warps held up by the busy load/store unit are waiting for memory as much as those whose
     * loads missed (C_mem); the stall breakdown counts them as structural. */
    int live_unpaused = warps_live_unpaused(is->wp);
    uint32_t mem_waiting = counts[ST_MEM] + counts[ST_STAGE];
    is->last_idle = !issued && live_unpaused == 0;
    is->last_mem = !issued && live_unpaused > 0 && mem_waiting > 0 &&
                   mem_waiting + counts[ST_SYNC] == (uint32_t)warps_live(is->wp);
    /* warps that exited as they issued left the counts but did issue this cycle */
    set_last_stall(is, ST_EXEC, (uint32_t)issued);
    for (int k = ST_EXEC + 1; k < ST_COUNT; k++)
        set_last_stall(is, k, counts[k] + (k == ST_STRUCT ? counts[ST_STAGE] : 0));
    is->last_resident = warps_resident(is->wp) > 0;
}

void issue_cycle_done(sm_issue *is, uint64_t now, int issued)
{
    is->acct_pending++;
    is->acct_until = now + 1;
    if (issued) {
        is->st->active_cycles++;
        /* The cycle's exec count was for this cycle only: asleep, nobody issues. */
        account_flush(is);
        set_last_stall(is, ST_EXEC, 0);
    }
}

/* -------------------------------------------------- the schedulers and the CPL ---- */

void issue_catch_up(sm_issue *is, uint64_t now)
{
    if (now <= is->sched_clock) return;
    if (is->sched->on_cycles)
        for (int k = 0; k < is->cfg->schedulers; k++)
            is->sched->on_cycles(is->self[k], is->sched_clock, now);
    is->sched_clock = now;
}

void issue_issued(sm_issue *is, int wi, int k, const warp_view *view, uint64_t now)
{
    issue_warp *w = &is->iw[wi];
    void *self = is->self[k];
    if (now > w->last_issue + 1) {
        uint32_t stalled = (uint32_t)(now - w->last_issue - 1);
        cpl_on_stall(is->cpl, wi, stalled, w->contended);
        if (is->sched->on_stall) is->sched->on_stall(self, wi, stalled);
    }
    w->contended = 0;
    w->last_issue = now;
    cpl_on_issue(is->cpl, wi, now);
    if (is->sched->on_issue) is->sched->on_issue(self, view, now);
}

void issue_branch(sm_issue *is, int k, const branch_event *b)
{
    cpl_on_branch(is->cpl, b);
    if (is->sched->on_branch) is->sched->on_branch(is->self[k], b);
}

void issue_l1_event(sm_issue *is, const l1_event *e)
{
    if (is->sched->on_l1_event) is->sched->on_l1_event(is->self[sched_of(is, e->warp_slot)], e);
}

void issue_warp_start(sm_issue *is, int wi, int cta_slot, uint64_t now)
{
    cpl_warp_start(is->cpl, wi, cta_slot, now);
    /* its first wait starts after its start cycle */
    is->iw[wi] = (issue_warp){.stall_since = now + 1, .last_issue = now};
    is->stall[wi] = ST_SCHED;
    is->stall_count[ST_SCHED]++;
    is->wakes->recheck |= (uint64_t)1 << wi;
    if (is->sched->on_warp_start)
        is->sched->on_warp_start(is->self[sched_of(is, wi)], warps_view(is->wp, wi), now);
}

void issue_warp_exit(sm_issue *is, int wi, uint64_t now)
{
    cpl_warp_exit(is->cpl, wi, now);
    is->stall_count[is->stall[wi]]--;
    if (is->sched->on_warp_exit) is->sched->on_warp_exit(is->self[sched_of(is, wi)], wi, now);
}

int issue_priority(const sm_issue *is, int wi)
{
    if (is->sched->priority) return is->sched->priority(is->self[sched_of(is, wi)], wi);
    return warps_age_rank(is->wp, wi);
}

void issue_collect(const sm_issue *is, double *sums)
{
    if (is->sched->collect)
        for (int k = 0; k < is->cfg->schedulers; k++)
            is->sched->collect(is->self[k], sums);
}
