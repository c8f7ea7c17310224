/* The SM as the composition of its components (docs/architecture.md, "The SM"): the warps and
 * CTAs, the scoreboard, the front end, the issue stage, the execution stage and the load/store
 * unit, which never call each other. This file owns them and their order within a cycle, routes
 * what they report (timed events, replies, reports) to the component it is for, dispatches each
 * issued instruction to its unit, and computes when the SM must run next. */
#include "core/sim/sm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sim/cpl.h"
#include "core/sim/sm_events.h"
#include "core/sim/sm_exec.h"
#include "core/sim/sm_fetch.h"
#include "core/sim/sm_issue.h"
#include "core/sim/sm_ldst.h"
#include "core/sim/sm_scoreboard.h"
#include "core/sim/sm_warps.h"
#include "core/util/bits.h"

struct sm {
    int id;
    const gpu_config *cfg;
    isource *src;
    cpl *cpl;
    sm_warps *wp;
    scoreboard sb;
    sm_frontend *fe;
    sm_exec *ex;
    sm_ldst *ld;
    sm_issue *is;
    sm_evq ev;
    sm_wakes wakes;
    sm_reports rep;
    uint64_t wake; /* the next cycle the SM must run */
    wt_rng rng;    /* the SM's own stream: its draws do not depend on other SMs' */
    sm_stats st;
    FILE *issue_trace; /* sim_options.issue_trace, or NULL */
};

int sm_create(sm **out, const sm_env *env, char *err, size_t errlen)
{
    const gpu_config *c = env->cfg;
    const sim_options *opt = env->opt;
    sm *s = calloc(1, sizeof *s);
    if (!s) goto oom;
    s->id = env->id;
    s->cfg = c;
    s->src = env->src;
    s->wake = UINT64_MAX;
    s->issue_trace = opt ? opt->issue_trace : NULL;
    wt_rng_seed_stream(&s->rng, env->seed, (uint64_t)s->id);
    sm_evq_init(&s->ev);
    if (cpl_create(&s->cpl, c->max_warps, env->params, err, errlen) != 0) goto fail;
    if (sb_init(&s->sb, c->max_warps) != 0 ||
        warps_create(&s->wp, s->id, c->max_warps, c->max_ctas, s->src,
                     opt ? opt->warp_profile : NULL, opt ? opt->warp_profile_out : NULL,
                     &s->st) != 0 ||
        fe_create(&s->fe, c, s->id, env->mem, s->wp, &s->wakes) != 0 ||
        exec_create(&s->ex, c, &s->ev, &s->sb, s->wp, &s->wakes, &s->rep, &s->st) != 0)
        goto oom;
    ldst_env le = {s->id,     c,        env->params, env->l1,
                   &s->rng,   env->mem, s->cpl,      env->sched->on_l1_event != NULL,
                   opt,       &s->ev,   &s->sb,      s->wp,
                   &s->wakes, &s->rep,  &s->st};
    if (ldst_create(&s->ld, &le, err, errlen) != 0) goto fail;
    issue_env ie = {s->id,  c,     env->params, env->sched, &s->rng,   s->cpl, s->wp,
                    &s->sb, s->fe, s->ex,       s->ld,      &s->wakes, &s->st};
    if (issue_create(&s->is, &ie, err, errlen) != 0) goto fail;
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
    issue_destroy(s->is);
    ldst_destroy(s->ld);
    exec_destroy(s->ex);
    fe_destroy(s->fe);
    warps_destroy(s->wp);
    sb_free(&s->sb);
    cpl_destroy(s->cpl);
    sm_evq_free(&s->ev);
    sm_reports_free(&s->rep);
    free(s);
}

/* ------------------------------------------------------------- warps coming, going ---- */

/* Warp wi leaves at cycle now: the warps of its CTA a barrier then releases may issue. */
static void warp_leaves(sm *s, int wi, uint64_t now)
{
    uint64_t released = warps_exit(s->wp, wi, now);
    issue_warp_exit(s->is, wi, now);
    s->wakes.recheck |= released;
}

/* A warp that issued its exit leaves once nothing of it is queued for the load/store unit,
 * in a collector or waiting for a write's acknowledgement (GPGPU-Sim's hardware_done). */
static void leave_if_done(sm *s, int wi, uint64_t now)
{
    if (!warps_may_leave(s->wp, wi)) return;
    warp_leaves(s, wi, now);
    s->wakes.scan_at = 0; /* a CTA may have finished, and the counts changed */
}

/* What the components reported during the call that just returned, in order. */
static void handle_reports(sm *s, uint64_t now)
{
    for (int i = 0; i < s->rep.n; i++) {
        const sm_report *r = &s->rep.r[i];
        if (r->kind == SMR_L1)
            issue_l1_event(s->is, &r->l1);
        else
            leave_if_done(s, r->warp, now);
    }
    s->rep.n = 0;
}

void sm_kernel_start(sm *s, const kernel_launch *k)
{
    warps_kernel_start(s->wp, k);
}

int sm_l1d_kernel_start(sm *s, const kernel_launch *k, int ctas, char *err, size_t errlen)
{
    return ldst_kernel_start(s->ld, k, ctas, err, errlen);
}

void sm_start_cta(sm *s, uint32_t cta_id, uint64_t now, bool after_cycle)
{
    issue_account_to(s->is, now);
    issue_catch_up(s->is, now);
    int cs = warps_cta_begin(s->wp, cta_id, now, after_cycle);
    for (int k = 0; k < warps_per_cta(s->wp); k++) {
        int wi = warps_warp_begin(s->wp, cs, k, now);
        sb_warp_start(&s->sb, wi);
        fe_warp_start(s->fe, wi);
        issue_warp_start(s->is, wi, cs, now);
    }
    s->wake = now;
    s->wakes.scan_at = 0;
}

int sm_resident_ctas(const sm *s)
{
    return warps_resident(s->wp);
}

void sm_set_cta_limit(sm *s, int limit, uint64_t now)
{
    issue_account_to(s->is, now);
    warps_set_cta_limit(s->wp, limit);
    sm_wake_all(&s->wakes);
    s->wake = now;
}

int sm_take_finished(sm *s)
{
    return warps_take_finished(s->wp);
}

int sm_warps_at_barrier(const sm *s)
{
    return warps_at_barrier(s->wp);
}

/* ---------------------------------------------------------------- dispatch ---- */

/* The scheduling rank the L1D policy sees of warp wi's accesses, if it reads one. */
static int l1_priority(const sm *s, int wi)
{
    return ldst_wants_priority(s->ld) ? issue_priority(s->is, wi) : 0;
}

/* Warp wi of scheduler k issues at now: its instruction executes (functionally) and goes to
 * its unit. Returns 0, or -1 with err (a workload runtime error). */
static int dispatch(sm *s, int wi, int k, uint64_t now, char *err, size_t errlen)
{
    const gpu_config *c = s->cfg;
    const sm_warp *w = warps_get(s->wp, wi);
    inst_info info = *w->next; /* the source may reuse its storage once it issues */
    /* the warp as it issues: taken before the source moves on (w->next may then show the
     * instruction after this one until warps_next refreshes the view) */
    const warp_view *view = warps_view(s->wp, wi);
    inst_exec x;
    if (s->src->ops->issue(s->src->self, s->id, wi, &x, err, errlen) != 0) return -1;
    uint32_t lanes = wt_popcount32(x.active_mask);
    s->st.warp_insts++;
    s->st.thread_insts += wt_popcount32(inst_exec_counted(&x, info.cls));
    s->st.reg_operands += (uint64_t)lanes * (info.nsrc + info.ndst);
    issue_issued(s->is, wi, k, view, now);
    if (s->issue_trace)
        fprintf(s->issue_trace, "%d,%llu,%d,%u,%d\n", s->id, (unsigned long long)now, wi,
                (unsigned)info.pc, k);
    switch (info.cls) {
    case IC_INT:
    case IC_FP:
    case IC_SFU:
        exec_alu(s->ex, wi, k, &info, now, lanes, 0);
        break;
    case IC_BRANCH: {
        warps_hold(s->wp, wi, now + (uint64_t)c->branch_latency);
        exec_branch(s->ex, k, now);
        branch_event b = {wi,          info.pc,       x.target_pc,  x.fallthru_pc,
                          x.reconv_pc, x.active_mask, x.taken_mask, x.diverged != 0,
                          now};
        issue_branch(s->is, k, &b);
        break;
    }
    case IC_BARRIER:
        s->wakes.recheck |= warps_barrier(s->wp, wi);
        break;
    case IC_EXIT:
        if (c->exit_on_int) { /* through the INT unit, as no lane's integer work */
            inst_info as_int = info;
            as_int.cls = IC_INT;
            exec_alu(s->ex, wi, k, &as_int, now, 0, c->exit_ii);
        }
        break;
    case IC_LD_SHARED:
    case IC_ST_SHARED:
        s->st.shared_accesses++;
        s->st.shared_bytes += (uint64_t)lanes * x.access_size;
        if (c->shared_path && c->mem_queue)
            exec_mem_push(s->ex, wi, &info, &x, now);
        else if (c->shared_path)
            ldst_shared(s->ld, wi, &info, &x, now);
        else
            ldst_shared_fixed(s->ld, wi, &info, now);
        break;
    default:
        /* GPGPU-Sim counts an atomic in flight from its issue (the functional execution in
         * issue_warp calls inc_n_atomic), so the warp waits (shd_warp_t::waiting) while it
         * queues for the load/store unit too; its last reply ends it (ldst_access_done). */
        if (info.cls == IC_ATOMIC && x.active_mask) {
            warps_atomic_issued(s->wp, wi);
            s->st.atomics++;
        }
        if (c->mem_queue)
            exec_mem_push(s->ex, wi, &info, &x, now);
        else
            ldst_issue(s->ld, wi, &info, &x, now, l1_priority(s, wi));
        break;
    }
    if (x.warp_done && (w->mq_count || w->stores || w->oc_count)) {
        warps_exit_pending(s->wp, wi); /* the queue, the collector or an acknowledgement */
    } else if (x.warp_done) {
        warp_leaves(s, wi, now);
    } else {
        warps_next(s->wp, wi);
        if (c->fetch) fe_consume(s->fe, wi);
    }
    return 0;
}

/* Lets each scheduler, in this cycle's order, classify its warps, pick and issue. Returns the
 * number issued (or -1 with err); *wake gets the earliest cycle a warp that could not issue
 * might become able to without an outside event. */
static int scan_and_issue(sm *s, uint64_t now, uint64_t *wake, char *err, size_t errlen)
{
    int issued = 0, nsched = s->cfg->schedulers;
    /* GPGPU-Sim rotates which scheduler goes first each cycle (Issue_Prio); the cycle number,
     * less the cycles without a CTA when Issue_Prio counts only those (sm.issue_rotate_active),
     * gives the same rotation without state, and through the cycles the SM sleeps. */
    uint64_t turn = s->cfg->issue_rotate_active ? now - warps_rotate_off(s->wp) : now;
    int first = s->cfg->issue_rotate ? (int)wt_mod(turn, (uint64_t)nsched) : 0;
    for (int i = 0; i < nsched; i++) {
        int k = first + i < nsched ? first + i : first + i - nsched;
        const warp_view *const *list;
        int n = issue_scan(s->is, k, now, wake, &list);
        int wi = n ? issue_pick(s->is, k, list, n, now, wake) : -1;
        if (wi < 0) continue;
        if (dispatch(s, wi, k, now, err, errlen) != 0) return -1;
        issued++;
    }
    issue_scan_done(s->is, issued);
    return issued;
}

/* ------------------------------------------------------------------- a cycle ---- */

/* The timed events due by now, each to its component. */
static void drain_events(sm *s, uint64_t now)
{
    while (s->ev.next <= now) {
        sm_event e = sm_evq_pop(&s->ev);
        if (e.kind == EV_ACCESS) {
            ldst_access_done(s->ld, e.a, now);
            continue;
        }
        if (e.kind == EV_WB) sb_unmark(&s->sb, e.a, e.m);
        sb_release(&s->sb, e.a, e.m);
        sm_wake_warp(&s->wakes, e.a);
    }
}

/* At the end of the cycle's load/store work: queued memory instructions enter the unit while
 * it is free and they are due, the oldest first (or in the collector's order). */
static void drain_mem_queue(sm *s, uint64_t now)
{
    const exec_mem *m;
    while (!ldst_busy(s->ld) && (m = exec_mem_pop(s->ex, now))) {
        if (m->in.cls == IC_LD_SHARED || m->in.cls == IC_ST_SHARED)
            ldst_shared(s->ld, m->warp, &m->in, &m->x, now);
        else
            ldst_issue(s->ld, m->warp, &m->in, &m->x, now, l1_priority(s, m->warp));
        leave_if_done(s, m->warp, now);
        /* a place in the queue freed: warps waiting for one may issue, and an exit may go */
        sm_wake_warp(&s->wakes, m->warp);
        sm_wake_stage(&s->wakes);
    }
}

int sm_cycle(sm *s, uint64_t now, char *err, size_t errlen)
{
    const gpu_config *c = s->cfg;
    issue_account_to(s->is, now);
    issue_catch_up(s->is, now);
    drain_events(s, now);
    ldst_cycle(s->ld, now);
    if (s->rep.n) handle_reports(s, now);
    if (c->mem_queue) drain_mem_queue(s, now);
    if (c->oc_unit_order) {
        exec_step(s->ex, now);
        if (s->rep.n) handle_reports(s, now);
    }

    int issued = 0;
    uint64_t wake = UINT64_MAX;
    /* Nothing that decides issue has changed since the last scan found no ready warp: this
     * cycle classifies exactly like that one, so the scan is skipped. */
    if (now >= s->wakes.scan_at || !c->skip_idle) {
        issued = scan_and_issue(s, now, &wake, err, errlen);
        if (issued < 0) return -1;
        s->wakes.scan_at = issued ? now + 1 : wake;
    }
    /* after issue, as GPGPU-Sim's cycle orders them: a buffer emptied now is refilled now */
    if (fe_pending(s->fe)) fe_cycle(s->fe, now); /* else its first pass finds nothing */
    issue_cycle_done(s->is, now, issued);

    /* The wake-up rule: the earliest cycle any component can change anything without an
     * outside event (a reply or a new CTA, which wake the SM themselves). */
    wake = s->wakes.scan_at;
    uint64_t t = ldst_wake(s->ld, now);
    if (t < wake) wake = t;
    if (s->ev.next < wake) wake = s->ev.next;
    t = exec_wake(s->ex, now, ldst_busy(s->ld));
    if (t < wake) wake = t;
    if (now + 1 < wake && fe_pending(s->fe)) wake = now + 1; /* the fetch goes on */
    s->wake = wake;
    return issued;
}

/* ------------------------------------------------------------ fast forward ---- */

int sm_fast_forward(sm *s, uint64_t now, memsys *warm, func_counts *add, char *err, size_t errlen)
{
    const gpu_config *c = s->cfg;
    int *slots = malloc((size_t)c->max_warps * sizeof *slots);
    unsigned char *state = malloc((size_t)c->max_warps);
    int rc = 0;
    if (!slots || !state) {
        snprintf(err, errlen, "out of memory");
        rc = -1;
    }
    for (int cs = 0; cs < c->max_ctas && rc == 0; cs++) {
        int n = 0;
        uint32_t id = 0;
        for (int wi = 0; wi < c->max_warps; wi++) {
            const sm_warp *w = warps_get(s->wp, wi);
            if (!w->live || w->cta_slot != cs || w->exit_pending || !w->next) continue;
            slots[n] = wi;
            state[n++] = w->at_barrier ? FUNC_AT_BARRIER : FUNC_RUNNING;
            id = w->cta_id;
        }
        if (!n) continue;
        func_cta cta = {"", id, s->id, slots, n};
        rc = func_run_warps(s->src, &cta, state, true, FUNC_CTA_CAP, warm, add, err, errlen);
        for (int j = 0; j < n; j++)
            warps_next(s->wp, slots[j]); /* an exit now, or done */
    }
    free(slots);
    free(state);
    /* every warp's next instruction changed: classify them all again */
    sm_wake_all(&s->wakes);
    s->wake = now;
    return rc;
}

/* ------------------------------------------------------------------- replies ---- */

void sm_deliver(sm *s, const mem_packet *p, uint64_t now)
{
    issue_account_to(s->is, now);
    issue_catch_up(s->is, now);
    uint32_t kind = p->token & TOK_KIND;
    if (kind != TOK_IFETCH && kind != TOK_STORE) { /* data round trips only */
        s->st.rt_latency_sum += now - p->sent_cycle;
        s->st.rt_count++;
    }
    uint32_t idx = p->token & TOK_INDEX;
    if (kind == TOK_IFETCH) {
        fe_l1i_fill(s->fe, (int)idx);
    } else if (kind == TOK_STORE) {
        warps_store_acked(s->wp, (int)idx);
        leave_if_done(s, (int)idx, now);
    } else {
        ldst_deliver(s->ld, p, now);
    }
    s->wake = now;
}

/* ---------------------------------------------------------------- the outside ---- */

void sm_collect_policies(const sm *s, double *sched_sums, double *l1_sums, sim_metrics *m)
{
    issue_collect(s->is, sched_sums);
    ldst_collect(s->ld, l1_sums);
    cpl_collect(s->cpl, m);
}

uint64_t sm_wake(const sm *s)
{
    return s->wake;
}

int sm_busy(const sm *s)
{
    return warps_live(s->wp) > 0 || ldst_pending(s->ld) || s->ev.n > 0 || exec_busy(s->ex);
}

void sm_account(sm *s, uint64_t now)
{
    issue_account(s->is, now);
}

void sm_take_sample(sm *s, uint64_t now, uint32_t *c_idle, uint32_t *c_mem)
{
    issue_take_sample(s->is, now, c_idle, c_mem);
}

const sm_stats *sm_get_stats(const sm *s)
{
    return &s->st;
}

int sm_cta_fit(const gpu_config *c, const kernel_launch *k, char *err, size_t errlen)
{
    char at[600] = "";
    if (k->file && k->line)
        snprintf(at, sizeof at, " (%.500s:%d)", k->file, k->line);
    else if (k->file)
        snprintf(at, sizeof at, " (%.500s)", k->file);
    int warps = ((int)k->block + WT_WARP_SIZE - 1) / WT_WARP_SIZE;
    long regs = (long)k->regs_per_thread * warps * WT_WARP_SIZE; /* allocated by whole warps */
    if (warps > c->max_warps)
        snprintf(err, errlen,
                 "kernel %s%s: a CTA of %u threads is %d warps, more than an SM's %d "
                 "(sm.max_warps)",
                 k->name, at, k->block, warps, c->max_warps);
    else if ((int)k->block > c->max_threads)
        snprintf(err, errlen,
                 "kernel %s%s: a CTA of %u threads is more than an SM's %d (sm.max_threads)",
                 k->name, at, k->block, c->max_threads);
    else if (regs > c->registers)
        snprintf(err, errlen,
                 "kernel %s%s: a CTA of %u threads with %u registers each needs %ld registers, "
                 "more than an SM's %d (sm.registers)",
                 k->name, at, k->block, k->regs_per_thread, regs, c->registers);
    else if ((long)k->shared_bytes > c->shared_bytes)
        snprintf(err, errlen,
                 "kernel %s%s: a CTA needs %u bytes of shared memory, more than an SM's %d "
                 "(sm.shared_bytes)",
                 k->name, at, k->shared_bytes, c->shared_bytes);
    else
        return 0;
    return -1;
}
