/* The SM: warps, CTAs, issue, scoreboard, functional units and barriers. The load/store unit
 * and the L1D live in sm_mem.c. */
#include "core/sim/sm.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "core/sim/cpl.h"
#include "core/sim/sm_internal.h"
#include "core/sim/warp_profile.h"

int sm_create(sm **out, const sm_env *env, char *err, size_t errlen)
{
    const gpu_config *c = env->cfg;
    sm *s = calloc(1, sizeof *s);
    if (!s) goto oom;
    s->id = env->id;
    s->cfg = c;
    s->mem = env->mem;
    s->src = env->src;
    if (env->opt) {
        s->l1_trace = env->opt->l1_trace;
        s->l1_observer = env->opt->l1_observer;
        s->l1_observer_arg = env->opt->l1_observer_arg;
        s->oracle = env->opt->warp_profile;
        s->profile_out = env->opt->warp_profile_out;
    }
    s->warps = calloc((size_t)c->max_warps, sizeof *s->warps);
    s->ctas = calloc((size_t)c->max_ctas, sizeof *s->ctas);
    s->views = calloc(2 * (size_t)c->max_warps, sizeof *s->views);
    s->long_marks = calloc((size_t)c->max_warps, sizeof *s->long_marks);
    if (!s->warps || !s->ctas || !s->views || !s->long_marks ||
        sm_recs_init(s, c->max_warps * 2) != 0 || sm_memq_init(s) != 0 || sm_l1i_init(s) != 0)
        goto oom;
    s->ii_alu = sm_ceil_div(WT_WARP_SIZE, c->simd_width);
    for (int wi = 0; wi < c->max_warps; wi++)
        s->sched_mask[wi % c->schedulers] |= (uint64_t)1 << wi;
    s->ii_sfu = sm_ceil_div(WT_WARP_SIZE, c->sfu_width);
    sm_oc_init(s);
    s->wake = UINT64_MAX;
    s->ev_next = UINT64_MAX;

    if (cpl_create(&s->cpl, c->max_warps, env->params, err, errlen) != 0) goto fail;
    s->crit = cpl_as_criticality(s->cpl);
    s->stalls = sm_warp_stalls(s);
    s->sched = env->sched;
    s->l1_ops = env->l1;
    if (s->sched->create_shared) {
        sched_env se = {s->id,    0,        c->max_warps, c->schedulers,
                        env->rng, &s->crit, NULL,         &s->stalls};
        if (s->sched->create_shared(&s->sched_shared, &se, env->params) != 0) goto oom;
    }
    for (int k = 0; k < c->schedulers; k++) {
        sched_env se = {s->id,    k,        c->max_warps,    c->schedulers,
                        env->rng, &s->crit, s->sched_shared, &s->stalls};
        if (s->sched->create(&s->sched_self[k], &se, env->params, err, errlen) != 0) {
            s->sched_self[k] = NULL;
            goto fail;
        }
    }
    s->params = env->params;
    s->rng = env->rng;
    if (sm_l1d_make(s, c->l1d_sets, c->l1d_ways, err, errlen) != 0) goto fail;
    *out = s;
    return 0;
oom:
    snprintf(err, errlen, "out of memory");
fail:
    sm_destroy(s);
    return -1;
}

void sm_destroy(sm *s)
{
    if (!s) return;
    for (int k = 0; k < 4; k++)
        if (s->sched_self[k]) s->sched->destroy(s->sched_self[k]);
    if (s->sched_shared) s->sched->destroy_shared(s->sched_shared);
    l1d_destroy(s->l1);
    sm_l1q_free(s);
    sm_memq_free(s);
    sm_l1i_free(s);
    free(s->l1_saved);
    cpl_destroy(s->cpl);
    free(s->warps);
    free(s->ctas);
    free(s->views);
    free(s->long_marks);
    free(s->recs);
    for (int q = 0; q < EVQ_COUNT; q++)
        free(s->evq[q].buf);
    free(s);
}

int sm_sched_of(const sm *s, int w)
{
    return (int)wt_mod((uint64_t)w, (uint64_t)s->cfg->schedulers);
}

/* ------------------------------------------------------------------------ warps ---- */

static void set_need(warp *w)
{
    w->need[0] = w->need[1] = 0;
    if (!w->next) return;
    for (int i = 0; i < w->next->nsrc; i++) {
        uint8_t slot = w->next->src[i];
        w->need[slot >> 6] |= (uint64_t)1 << (slot & 63);
    }
    for (int i = 0; i < w->next->ndst; i++) {
        uint8_t slot = w->next->dst[i];
        w->need[slot >> 6] |= (uint64_t)1 << (slot & 63);
    }
}

/* The warp's next instruction, and what the schedulers see of it: after an issue nothing else
 * of the view changes. */
static void next_after_issue(sm *s, int wi)
{
    warp *w = &s->warps[wi];
    const inst_info *in = s->src->ops->peek(s->src->self, s->id, wi);
    w->next = in;
    set_need(w);
    w->view.pc = in ? in->pc : 0;
    w->view.cls = in ? in->cls : (uint8_t)IC_EXIT;
}

void sm_fetch_next(sm *s, int wi)
{
    next_after_issue(s, wi);
    sm_refresh_view(s, wi);
}

void sm_release(sm *s, int wi, const uint64_t m[2])
{
    warp *w = &s->warps[wi];
    s->scan_at = 0;
    s->recheck |= (uint64_t)1 << wi;
    for (int k = 0; k < 2; k++) {
        w->pending[k] &= ~m[k];
        w->pending_mem[k] &= ~m[k];
        w->pending_long[k] &= ~m[k];
    }
}

int sm_warp_priority(const sm *s, int wi)
{
    void *self = s->sched_self[sm_sched_of(s, wi)];
    if (s->sched->priority) return s->sched->priority(self, wi);
    int rank = 0;
    for (int i = 0; i < s->cfg->max_warps; i++)
        rank += s->warps[i].live && s->warps[i].age < s->warps[wi].age;
    return rank;
}

/* ----------------------------------------------------------------------- issue ---- */

static bool is_mem_class(int cls)
{
    return cls >= IC_LD_GLOBAL && cls <= IC_ATOMIC;
}

/* Why warp wi (of scheduler k) cannot issue now, or ST_EXEC if it can. */
static int classify(sm *s, int wi, int k, uint64_t now, uint64_t *wake)
{
    warp *w = &s->warps[wi];
    /* done; leaves once its queued accesses are in and its stores acknowledged */
    if (w->exit_pending) return w->mq_count ? ST_STAGE : ST_MEM;
    /* An empty instruction buffer (sm.fetch) waits for the fetch, which marks the warp when it
     * fills it; a new warp starts with one. */
    if (s->cfg->fetch && (w->ib_n == 0 || w->ib_ready > now)) {
        if (w->at_barrier) return ST_SYNC;
        if (w->ib_n && w->ib_ready < *wake) *wake = w->ib_ready;
        return ST_CTRL;
    }
    /* GPGPU-Sim's waiting(): an atomic in flight holds the whole warp; its return rechecks it */
    if (w->atomics && s->cfg->atomic_wait) return ST_MEM;
    /* Last found ready, or waiting only for a unit or the load/store unit (or new): its
     * barrier, branch latency and scoreboard have not changed since (only its own issue sets
     * them, and a release can only clear a hazard), so only the unit is left to check. */
    if (!((1u << w->stall) & SM_ST_CONTENDED)) {
        if (w->at_barrier) return ST_SYNC;
        if (w->ready_at > now) {
            if (w->ready_at < *wake) *wake = w->ready_at;
            return ST_CTRL;
        }
        uint64_t h0 = w->pending[0] & w->need[0], h1 = w->pending[1] & w->need[1];
        if (h0 | h1) return (h0 & w->pending_mem[0]) | (h1 & w->pending_mem[1]) ? ST_MEM : ST_DATA;
    } else {
        assert(!w->at_barrier && w->ready_at <= now &&
               !((w->pending[0] & w->need[0]) | (w->pending[1] & w->need[1])));
    }
    int cls = w->view.cls;
    if (is_mem_class(cls)) {
        bool via_unit = (cls != IC_LD_SHARED && cls != IC_ST_SHARED) || s->cfg->shared_path;
        if (s->cfg->mem_queue && via_unit) {
            if (s->mq_n >= s->cfg->mem_queue) return ST_STAGE; /* a pop wakes the SM */
            if (s->cfg->mem_queue_collectors && s->cfg->operand_collector &&
                !sm_oc_unit_free(s, k, cls))
                return ST_STAGE; /* every collector unit holds a queued memory instruction */
        } else if (s->stage.busy) {
            return ST_STAGE; /* the unit wakes the SM when it frees */
        }
        if (cls == IC_LD_GLOBAL && s->sched->may_issue_load &&
            !s->sched->may_issue_load(s->sched_self[k], wi)) {
            *wake = now + 1; /* a veto may lift with time */
            return ST_STRUCT;
        }
        return ST_EXEC;
    }
    uint64_t free_at = 0;
    if (cls == IC_EXIT && s->cfg->exit_on_int) cls = IC_INT;
    if (cls == IC_BRANCH && s->cfg->branch_unit_ii) free_at = s->unit_free[k][IC_BRANCH];
    if (cls == IC_INT || cls == IC_FP || cls == IC_SFU) {
        if (s->cfg->operand_collector && s->cfg->mem_queue_collectors &&
            !sm_oc_unit_free(s, k, cls))
            return ST_STAGE; /* queued memory instructions hold every unit: a pop frees one */
        if (s->cfg->operand_collector) /* a free ID_OC slot; the unit is the collector's */
            free_at = sm_oc_slot_free(s, k, cls);
        else
            free_at = s->unit_free[cls == IC_SFU && !s->cfg->sub_core ? 0 : k][cls];
    }
    if (free_at > now) {
        if (free_at < *wake) *wake = free_at;
        return ST_STRUCT;
    }
    return ST_EXEC;
}

static void writeback_after(sm *s, int wi, const inst_info *in, uint64_t at, int queue)
{
    sm_event e = {.cycle = at, .kind = queue == EVQ_SHARED ? EV_REG : EV_WB, .a = wi};
    sm_dst_slots(in, e.m);
    if (!(e.m[0] | e.m[1])) return;
    s->warps[wi].pending[0] |= e.m[0];
    s->warps[wi].pending[1] |= e.m[1];
    if (s->cfg->operand_collector && queue != EVQ_SHARED)
        sm_push_event_sorted(s, &e, queue);
    else
        sm_push_event(s, &e, queue);
}

/* An INT, FP or SFU instruction of scheduler k: its unit, through the collector if there is
 * one, held for ii cycles (0: the unit's own initiation interval), and its writeback the unit's
 * latency after the unit starts it (with sm.oc_dispatch=unit the collector queues the writeback
 * when the instruction leaves it). */
static void issue_alu(sm *s, int wi, int k, const inst_info *in, uint64_t now, uint32_t lanes,
                      int ii)
{
    const gpu_config *c = s->cfg;
    int cls = in->cls;
    if (!ii) ii = cls == IC_SFU ? s->ii_sfu : s->ii_alu;
    int queue = cls == IC_INT ? EVQ_INT : cls == IC_FP ? EVQ_FP : EVQ_SFU;
    int lat = cls == IC_INT ? c->int_latency : cls == IC_FP ? c->fp_latency : c->sfu_latency;
    uint64_t delay = (uint64_t)c->result_delay + (uint64_t)lat;
    if (cls == IC_INT)
        s->st.lanes_int += lanes;
    else if (cls == IC_FP)
        s->st.lanes_fp += lanes;
    else
        s->st.lanes_sfu += lanes;
    if (c->oc_unit_order) {
        sm_oc_enqueue(s, wi, k, in, now, (uint32_t)delay, ii, queue);
        return;
    }
    uint64_t start = now; /* the cycle its unit starts it */
    if (c->operand_collector)
        start = sm_oc_issue(s, wi, k, in, now, ii);
    else if (cls == IC_SFU)
        s->unit_free[c->sub_core ? k : 0][IC_SFU] = now + (uint64_t)ii;
    else
        s->unit_free[k][cls] = now + (uint64_t)ii;
    writeback_after(s, wi, in, start + delay, queue);
}

static int issue(sm *s, int wi, uint64_t now, char *err, size_t errlen)
{
    warp *w = &s->warps[wi];
    const inst_info *in = w->next;
    inst_info info = *in; /* the source may reuse its storage once it issues */
    /* the warp as it issues: taken before the source moves on (w->next may then show the
     * instruction after this one until next_after_issue refreshes the view) */
    const warp_view *view = sm_view_of(s, wi);
    inst_exec x;
    if (s->src->ops->issue(s->src->self, s->id, wi, &x, err, errlen) != 0) return -1;
    int sk = sm_sched_of(s, wi);
    void *self = s->sched_self[sk];
    uint32_t lanes = wt_popcount32(x.active_mask);
    s->st.warp_insts++;
    s->st.thread_insts += lanes;
    s->st.reg_operands += (uint64_t)lanes * (info.nsrc + info.ndst);
    if (now > w->last_issue + 1) {
        uint32_t stalled = (uint32_t)(now - w->last_issue - 1);
        cpl_on_stall(s->cpl, wi, stalled, w->contended);
        if (s->sched->on_stall) s->sched->on_stall(self, wi, stalled);
    }
    w->contended = 0;
    w->last_issue = now;
    cpl_on_issue(s->cpl, wi, now);
    if (s->sched->on_issue) {
        s->sched->on_issue(self, view, now);
    }
    switch (info.cls) {
    case IC_INT:
    case IC_FP:
    case IC_SFU:
        issue_alu(s, wi, sk, &info, now, lanes, 0);
        break;
    case IC_BRANCH:
        w->ready_at = now + (uint64_t)s->cfg->branch_latency;
        if (s->cfg->branch_unit_ii)
            s->unit_free[sk][IC_BRANCH] = now + (uint64_t)s->cfg->branch_unit_ii;
        {
            branch_event b = {wi,          info.pc,       x.target_pc,  x.fallthru_pc,
                              x.reconv_pc, x.active_mask, x.taken_mask, x.diverged != 0,
                              now};
            cpl_on_branch(s->cpl, &b);
            if (s->sched->on_branch) s->sched->on_branch(self, &b);
        }
        break;
    case IC_BARRIER:
        w->at_barrier = true;
        s->ctas[w->cta_slot].at_barrier++;
        sm_release_barrier(s, w->cta_slot);
        break;
    case IC_EXIT:
        if (s->cfg->exit_on_int) { /* through the INT unit, as no lane's integer work */
            inst_info as_int = info;
            as_int.cls = IC_INT;
            issue_alu(s, wi, sk, &as_int, now, 0, s->cfg->exit_ii);
        }
        break;
    case IC_LD_SHARED:
    case IC_ST_SHARED:
        s->st.shared_accesses++;
        s->st.shared_bytes += (uint64_t)lanes * x.access_size;
        if (s->cfg->shared_path && s->cfg->mem_queue)
            sm_memq_push(s, wi, &info, &x, now);
        else if (s->cfg->shared_path)
            sm_shared_issue(s, wi, &info, &x, now);
        else
            writeback_after(s, wi, &info, now + (uint64_t)s->cfg->shared_latency, EVQ_SHARED);
        break;
    default:
        /* GPGPU-Sim counts an atomic in flight from its issue (the functional execution in
         * issue_warp calls inc_n_atomic), so the warp waits (shd_warp_t::waiting) while it
         * queues for the load/store unit too; its last reply ends it (sm_recs.c). */
        if (info.cls == IC_ATOMIC && x.active_mask) {
            w->atomics++;
            s->st.atomics++;
        }
        if (s->cfg->mem_queue)
            sm_memq_push(s, wi, &info, &x, now);
        else
            sm_mem_issue(s, wi, &info, &x, now);
        break;
    }
    if (x.warp_done && (w->mq_count || w->stores || w->oc_count)) {
        w->exit_pending = true; /* sm_memq_pop or the last acknowledgement lets it go */
    } else if (x.warp_done) {
        sm_warp_exit(s, wi, now);
    } else {
        next_after_issue(s, wi);
        if (s->cfg->fetch) {
            assert(w->ib_n > 0);
            if (--w->ib_n == 0) s->ib_empty |= (uint64_t)1 << wi;
        }
    }
    return 0;
}

/* Classifies every live warp, lets each scheduler pick among the ready ones and issues.
 * Returns the number issued (or -1 with err); *wake gets the earliest cycle a warp that could
 * not issue might become able to without an outside event. */
static int scan_and_issue(sm *s, uint64_t now, uint64_t *wake, char *err, size_t errlen)
{
    int issued = 0;
    uint32_t *counts = s->stall_count;
    int nsched = s->cfg->schedulers;
    /* GPGPU-Sim rotates which scheduler goes first each cycle (Issue_Prio); the cycle number,
     * less the cycles without a CTA when Issue_Prio counts only those (sm.issue_rotate_active),
     * gives the same rotation without state, and through the cycles the SM sleeps. */
    uint64_t turn = s->cfg->issue_rotate_active ? now - s->rotate_off : now;
    int first = s->cfg->issue_rotate ? (int)wt_mod(turn, (uint64_t)nsched) : 0;
    /* Warps of paused CTAs are picked only when no other warp is ready (DYNCTA IV). */
    const warp_view **ready = s->views, **paused = s->views + s->cfg->max_warps;
    for (int i = 0; i < nsched; i++) {
        int k = first + i < nsched ? first + i : first + i - nsched;
        /* Only warps whose state may have changed are looked at: one blocked on a register or
         * a barrier stays blocked until a release marks it again. A scheduler with none has
         * none ready, and picks nothing. */
        uint64_t to_check = s->recheck & s->sched_mask[k];
        if (!to_check) continue;
        int nready = 0, npaused = 0;
        while (to_check) {
            int wi = __builtin_ctzll(to_check);
            to_check &= to_check - 1;
            warp *w = &s->warps[wi];
            if (!w->live) {
                s->recheck &= ~((uint64_t)1 << wi);
                continue;
            }
            int st = classify(s, wi, k, now, wake);
            counts[w->stall]--;
            /* An empty instruction buffer stays empty until the fetch fills it and marks the
             * warp again (sm_fetch.c), so such a warp is not looked at meanwhile either. */
            if ((1u << st) &
                    ((1u << ST_SYNC) | (1u << ST_MEM) | (1u << ST_DATA) | (1u << ST_STAGE)) ||
                (st == ST_CTRL && w->ib_n == 0 && s->cfg->fetch))
                s->recheck &= ~((uint64_t)1 << wi);
            if (st == ST_STAGE) s->stage_waiters |= (uint64_t)1 << wi;
            if (st == ST_EXEC) {
                st = ST_SCHED;
                if (w->view.paused)
                    paused[npaused++] = sm_view_of(s, wi);
                else
                    ready[nready++] = sm_view_of(s, wi);
            }
            sm_set_stall(w, (uint8_t)st, now);
            counts[st]++;
        }
        const warp_view *const *list = nready ? ready : paused;
        int n = nready ? nready : npaused;
        int pick = n ? s->sched->pick(s->sched_self[k], list, n, now) : -1;
        if (pick < 0 && n && s->sched->retry_declined && now + 1 < *wake) *wake = now + 1;
        if (pick >= 0) {
            int wi = list[pick]->slot;
            counts[ST_SCHED]--;
            counts[ST_EXEC]++;
            sm_set_stall(&s->warps[wi], ST_EXEC, now);
            if (issue(s, wi, now, err, errlen) != 0) return -1;
            issued++;
        }
    }
    /* This cycle's classification, kept for the cycles the SM may sleep through. Warps held
     * up by the busy load/store unit are waiting for memory as much as those whose loads
     * missed (C_mem); the stall breakdown counts them as structural. */
    sm_account_flush(s); /* the cycles so far were classified as the last scan found */
    int live_unpaused = s->live_unpaused;
    uint32_t mem_waiting = counts[ST_MEM] + counts[ST_STAGE];
    s->last_idle = !issued && live_unpaused == 0;
    s->last_mem = !issued && live_unpaused > 0 && mem_waiting > 0 &&
                  mem_waiting + counts[ST_SYNC] == (uint32_t)s->live_warps;
    /* warps that exited as they issued left the counts but did issue this cycle */
    sm_set_last_stall(s, ST_EXEC, (uint32_t)issued);
    for (int k = ST_EXEC + 1; k < ST_COUNT; k++)
        sm_set_last_stall(s, k, counts[k] + (k == ST_STRUCT ? counts[ST_STAGE] : 0));
    s->last_resident = s->resident > 0;
    return issued;
}

/* Time passes for the schedulers up to now (on_cycles), before anything touches the SM this
 * cycle: the cycles since the last are reported with the state they had. */
void sm_catch_up(sm *s, uint64_t now)
{
    if (now <= s->sched_clock) return;
    if (s->sched->on_cycles)
        for (int k = 0; k < s->cfg->schedulers; k++)
            s->sched->on_cycles(s->sched_self[k], s->sched_clock, now);
    s->sched_clock = now;
}

int sm_cycle(sm *s, uint64_t now, char *err, size_t errlen)
{
    sm_account_to(s, now);
    sm_catch_up(s, now);
    while (s->ev_next <= now) {
        sm_event e = sm_ev_pop(s);
        if (e.kind == EV_ACCESS) {
            sm_access_done(s, e.a, now);
            continue;
        }
        if (e.kind == EV_WB) {
            s->long_marks[e.a][0] &= ~e.m[0];
            s->long_marks[e.a][1] &= ~e.m[1];
        }
        sm_release(s, e.a, e.m);
    }
    sm_mem_cycle(s, now);
    if (s->mq_n) sm_memq_pop(s, now);
    if (s->cfg->oc_unit_order) sm_oc_step(s, now);

    int issued = 0;
    uint64_t wake = UINT64_MAX;
    /* Nothing that decides issue has changed since the last scan found no ready warp: this
     * cycle classifies exactly like that one, so the scan is skipped. */
    if (now >= s->scan_at || !s->cfg->skip_idle) {
        issued = scan_and_issue(s, now, &wake, err, errlen);
        if (issued < 0) return -1;
        s->scan_at = issued ? now + 1 : wake;
    }
    /* after issue, as GPGPU-Sim's cycle orders them: a buffer emptied now is refilled now */
    if (sm_fetch_pending(s)) sm_fetch_cycle(s, now); /* else its first pass finds nothing */
    s->acct_pending++;
    s->acct_until = now + 1;
    if (issued) {
        s->st.active_cycles++;
        /* The cycle's exec count was for this cycle only: asleep, nobody issues. */
        sm_account_flush(s);
        sm_set_last_stall(s, ST_EXEC, 0);
    }

    wake = s->scan_at;
    if (s->stage.busy && !s->stage.blocked_on_fill && !s->stage.blocked_on_queue) {
        uint64_t retry = s->stage.blocked_on_send ? memsys_next_event(s->mem, now)
                         : s->stage.done_at > now ? s->stage.done_at
                                                  : now + 1;
        if (retry < wake) wake = retry;
    }
    if (s->ev_next < wake) wake = s->ev_next;
    if (s->stage.q_count) {
        uint64_t q = sm_l1q_wake(s, now);
        if (q < wake) wake = q;
    }
    if (s->mq_n) {
        uint64_t q = sm_memq_wake(s, now);
        if (q < wake) wake = q;
    }
    if (s->cfg->oc_unit_order) {
        uint64_t q = sm_oc_wake(s);
        if (q < wake) wake = q;
    }
    if (now + 1 < wake && sm_fetch_pending(s)) wake = now + 1; /* the fetch goes on */
    s->wake = wake;
    return issued;
}

void sm_collect_policies(const sm *s, double *sched_sums, double *l1_sums, sim_metrics *m)
{
    if (s->sched->collect)
        for (int k = 0; k < s->cfg->schedulers; k++)
            s->sched->collect(s->sched_self[k], sched_sums);
    l1d_collect(s->l1, l1_sums);
    if (s->l1_saved) /* the statistics of the L1Ds earlier kernels had (l1d.unified_kb) */
        for (size_t i = 0; i < s->l1_ops->nmetrics; i++)
            l1_sums[i] += s->l1_saved[i];
    cpl_collect(s->cpl, m);
}

uint64_t sm_wake(const sm *s)
{
    return s->wake;
}

int sm_busy(const sm *s)
{
    return s->live_warps > 0 || s->stage.busy || s->ev_n > 0 || s->nrecs > 0 ||
           s->stage.q_count > 0 || s->mq_n > 0 || s->oc.inflight > 0;
}

const sm_stats *sm_get_stats(const sm *s)
{
    return &s->st;
}
