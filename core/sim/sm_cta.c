/* The SM's CTAs and warps over their lives: what the schedulers see of each warp, kernel
 * start, CTA start and pausing, barriers, warp exit and the per-CTA warp disparity; and the
 * cycle accounting of the statistics, including the cycles an SM sleeps through. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "core/sim/cpl.h"
#include "core/sim/sm_internal.h"
#include "core/sim/warp_profile.h"

/* ---------------------------------------------------------------- warp views ---- */

/* What the schedulers see of a warp, kept current where any of it changes. */
static warp_view build_view(const sm *s, int wi)
{
    const warp *w = &s->warps[wi];
    return (warp_view){wi,
                       w->cta_slot,
                       w->cta_id,
                       w->warp_in_cta,
                       w->age,
                       w->next ? w->next->pc : 0,
                       w->next ? w->next->cls : IC_EXIT,
                       s->ctas[w->cta_slot].paused,
                       w->oracle};
}

void sm_refresh_view(sm *s, int wi)
{
    s->warps[wi].view = build_view(s, wi);
}

const warp_view *sm_view_of(const sm *s, int wi)
{
    const warp_view *v = &s->warps[wi].view;
#ifndef NDEBUG
    warp_view fresh = build_view(s, wi);
    assert(v->slot == fresh.slot && v->cta_slot == fresh.cta_slot && v->cta_id == fresh.cta_id &&
           v->warp_in_cta == fresh.warp_in_cta && v->age == fresh.age && v->pc == fresh.pc &&
           v->cls == fresh.cls && v->paused == fresh.paused &&
           v->oracle_cycles == fresh.oracle_cycles);
#endif
    return v;
}

/* --------------------------------------------------------------------- CTAs ---- */

void sm_kernel_start(sm *s, const kernel_launch *k)
{
    s->block = (int)k->block;
    s->warps_per_cta = sm_ceil_div((int)k->block, WT_WARP_SIZE);
    s->kernels++;
}

int sm_resident_ctas(const sm *s)
{
    return s->resident;
}

void sm_start_cta(sm *s, uint32_t cta_id, uint64_t now)
{
    sm_account_to(s, now);
    sm_catch_up(s, now);
    int cs = 0;
    while (s->ctas[cs].used)
        cs++;
    cta *c = &s->ctas[cs];
    if (s->resident == 0 && now > s->idle_from) s->rotate_off += now - s->idle_from;
    s->resident++;
    s->live_unpaused += s->warps_per_cta; /* a new CTA is not paused */
    *c = (cta){.used = true,
               .id = cta_id,
               .nwarps = s->warps_per_cta,
               .start = now,
               .order = s->next_order++,
               .fastest = UINT64_MAX};
    s->src->ops->cta_start(s->src->self, s->id, cs, cta_id);
    int wi = 0;
    for (int k = 0; k < s->warps_per_cta; k++) {
        while (s->warps[wi].live)
            wi++;
        warp *w = &s->warps[wi];
        *w = (warp){.live = true,
                    .cta_slot = cs,
                    .cta_id = cta_id,
                    .warp_in_cta = k,
                    .age = s->next_age++,
                    .last_issue = now,
                    .stall = ST_SCHED,
                    .stall_since = now + 1}; /* its first wait starts after its start cycle */
        if (s->oracle) w->oracle = warp_profile_get(s->oracle, s->kernels - 1, cta_id, k);
        s->src->ops->warp_start(s->src->self, s->id, wi, cs, cta_id, k);
        cpl_warp_start(s->cpl, wi, cs, now);
        sm_fetch_next(s, wi);
        sm_fetch_warp_start(s, wi);
        s->live_warps++;
        s->stall_count[ST_SCHED]++;
        s->recheck |= (uint64_t)1 << wi;
        if (s->sched->on_warp_start) {
            s->sched->on_warp_start(s->sched_self[sm_sched_of(s, wi)], sm_view_of(s, wi), now);
        }
    }
    s->wake = now;
    s->scan_at = 0;
}

void sm_set_cta_limit(sm *s, int limit, uint64_t now)
{
    sm_account_to(s, now);
    /* Rank resident CTAs by assignment order; the newest beyond the limit are paused. */
    for (int i = 0; i < s->cfg->max_ctas; i++) {
        cta *c = &s->ctas[i];
        if (!c->used) continue;
        int newer = 0;
        for (int j = 0; j < s->cfg->max_ctas; j++)
            newer += s->ctas[j].used && s->ctas[j].order > c->order;
        int rank = sm_resident_ctas(s) - newer; /* 1 = oldest */
        c->paused = rank > limit;
    }
    for (int wi = 0; wi < s->cfg->max_warps; wi++)
        if (s->warps[wi].live) sm_refresh_view(s, wi);
    s->live_unpaused = 0;
    for (int i = 0; i < s->cfg->max_ctas; i++)
        if (s->ctas[i].used && !s->ctas[i].paused)
            s->live_unpaused += s->ctas[i].nwarps - s->ctas[i].exited;
    s->recheck = ~(uint64_t)0;
    s->wake = now;
    s->scan_at = 0;
}

int sm_take_finished(sm *s)
{
    int n = s->finished;
    s->finished = 0;
    return n;
}

void sm_release_barrier(sm *s, int cs)
{
    cta *c = &s->ctas[cs];
    if (c->at_barrier == 0 || c->at_barrier + c->exited < c->nwarps) return;
    for (int i = 0; i < s->cfg->max_warps; i++) {
        if (s->warps[i].live && s->warps[i].cta_slot == cs) {
            s->warps[i].at_barrier = false;
            s->recheck |= (uint64_t)1 << i;
        }
    }
    c->at_barrier = 0;
}

void sm_exit_if_done(sm *s, int wi, uint64_t now)
{
    warp *w = &s->warps[wi];
    if (!w->exit_pending || w->mq_count || w->stores || w->oc_count) return;
    w->exit_pending = false;
    sm_warp_exit(s, wi, now);
    s->scan_at = 0; /* a CTA may have finished, and the counts changed */
}

void sm_warp_exit(sm *s, int wi, uint64_t now)
{
    warp *w = &s->warps[wi];
    cta *c = &s->ctas[w->cta_slot];
    uint64_t t = now - c->start;
    if (t < c->fastest) c->fastest = t;
    if (t > c->slowest) c->slowest = t;
    if (s->profile_out)
        warp_profile_add(s->profile_out, s->kernels - 1, w->cta_id, w->warp_in_cta, t);
    w->live = false;
    w->next = NULL;
    sm_refresh_view(s, wi);
    cpl_warp_exit(s->cpl, wi, now);
    s->live_warps--;
    s->stall_count[w->stall]--;
    c->exited++;
    if (!c->paused) s->live_unpaused--;
    if (s->sched->on_warp_exit) s->sched->on_warp_exit(s->sched_self[sm_sched_of(s, wi)], wi, now);
    if (c->exited == c->nwarps) {
        double d = c->slowest ? (double)(c->slowest - c->fastest) / (double)c->slowest : 0.0;
        s->st.disparity_sum += d;
        if (d > s->st.disparity_max) s->st.disparity_max = d;
        s->st.ctas_done++;
        c->used = false;
        if (--s->resident == 0) s->idle_from = now + 1; /* it had the CTA in this cycle */
        s->finished++;
    } else {
        sm_release_barrier(s, w->cta_slot);
    }
}

/* ------------------------------------------------------------------ accounting ---- */

/* Cycles are accounted lazily: a span only adds to acct_pending, and the pending cycles are
 * charged with the classification (last_stall, last_idle, ...) when it is about to change or
 * when the statistics are read. An SM that runs cycle after cycle without a new issue scan
 * (a divergent load going through the L1D an access a cycle) would otherwise pay the whole
 * multiply-add over the stall kinds every cycle. The stall kinds go further: each is charged
 * only when its count changes (sm_set_last_stall), and all of them when the statistics are
 * read (sm_account). Sums of integers: the same totals. */
void sm_account_flush(sm *s)
{
    uint64_t cycles = s->acct_pending;
    if (!cycles) return;
    s->acct_pending = 0;
    s->st.cycles += cycles; /* the stall kinds' share: sm_set_last_stall */
    if (s->last_idle) s->st.c_idle += cycles, s->st.sample_idle += (uint32_t)cycles;
    if (s->last_mem) s->st.c_mem += cycles, s->st.sample_mem += (uint32_t)cycles;
    if (s->last_resident) s->st.resident_cycles += cycles;
}

void sm_account(sm *s, uint64_t now)
{
    sm_account_to(s, now);
    sm_account_flush(s);
    for (int k = 0; k < ST_COUNT; k++) {
        s->st.stall[k] += (uint64_t)s->last_stall[k] * (s->st.cycles - s->stall_from[k]);
        s->stall_from[k] = s->st.cycles;
    }
}

void sm_take_sample(sm *s, uint64_t now, uint32_t *c_idle, uint32_t *c_mem)
{
    sm_account(s, now);
    *c_idle = s->st.sample_idle;
    *c_mem = s->st.sample_mem;
    s->st.sample_idle = s->st.sample_mem = 0;
}

int sm_warps_at_barrier(const sm *s)
{
    int n = 0;
    for (int i = 0; i < s->cfg->max_warps; i++)
        n += s->warps[i].live && s->warps[i].at_barrier;
    return n;
}
