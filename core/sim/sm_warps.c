/* The SM's warps and CTAs (core/sim/sm_warps.h). */
#include "core/sim/sm_warps.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "core/sim/sm_scoreboard.h"
#include "core/sim/warp_profile.h"

typedef struct sm_cta {
    bool used;
    bool paused;
    uint32_t id;
    int nwarps, exited, at_barrier;
    uint64_t start, order;
    uint64_t fastest, slowest; /* warp execution times so far */
} sm_cta;

struct sm_warps {
    int sm, max_warps, max_ctas;
    isource *src;
    const warp_profile *oracle;
    warp_profile *profile_out;
    sm_stats *st;
    sm_warp *w;
    sm_cta *c;
    int live, live_unpaused, resident, finished;
    uint64_t next_age, next_order;
    int warps_per_cta;
    uint32_t kernels;    /* kernels started: the running one is kernels - 1 */
    uint64_t rotate_off; /* cycles without a CTA before the last CTA's start */
    uint64_t idle_from;  /* the first cycle without one since the last CTA left */
};

int warps_create(sm_warps **out, int sm_id, int max_warps, int max_ctas, isource *src,
                 const warp_profile *oracle, warp_profile *profile_out, sm_stats *st)
{
    sm_warps *wp = calloc(1, sizeof *wp);
    if (!wp) return -1;
    wp->sm = sm_id;
    wp->max_warps = max_warps;
    wp->max_ctas = max_ctas;
    wp->src = src;
    wp->oracle = oracle;
    wp->profile_out = profile_out;
    wp->st = st;
    wp->w = aligned_alloc(_Alignof(sm_warp), (size_t)max_warps * sizeof *wp->w);
    if (wp->w) memset(wp->w, 0, (size_t)max_warps * sizeof *wp->w);
    wp->c = calloc((size_t)max_ctas, sizeof *wp->c);
    if (!wp->w || !wp->c) {
        warps_destroy(wp);
        return -1;
    }
    *out = wp;
    return 0;
}

void warps_destroy(sm_warps *wp)
{
    if (!wp) return;
    free(wp->w);
    free(wp->c);
    free(wp);
}

const sm_warp *warps_get(const sm_warps *wp, int wi)
{
    return &wp->w[wi];
}

/* --------------------------------------------------------------------- views ---- */

static warp_view build_view(const sm_warps *wp, int wi)
{
    const sm_warp *w = &wp->w[wi];
    return (warp_view){wi,
                       w->cta_slot,
                       w->cta_id,
                       w->warp_in_cta,
                       w->age,
                       w->next ? w->next->pc : 0,
                       w->next ? w->next->cls : IC_EXIT,
                       wp->c[w->cta_slot].paused,
                       w->oracle};
}

static void refresh_view(sm_warps *wp, int wi)
{
    wp->w[wi].view = build_view(wp, wi);
}

const warp_view *warps_view(const sm_warps *wp, int wi)
{
    const warp_view *v = &wp->w[wi].view;
#ifndef NDEBUG
    warp_view fresh = build_view(wp, wi);
    assert(v->slot == fresh.slot && v->cta_slot == fresh.cta_slot && v->cta_id == fresh.cta_id &&
           v->warp_in_cta == fresh.warp_in_cta && v->age == fresh.age && v->pc == fresh.pc &&
           v->cls == fresh.cls && v->paused == fresh.paused &&
           v->oracle_cycles == fresh.oracle_cycles);
#endif
    return v;
}

/* The warp's next instruction, and what the schedulers see of it: after an issue nothing else
 * of the view changes. */
void warps_next(sm_warps *wp, int wi)
{
    sm_warp *w = &wp->w[wi];
    const inst_info *in = wp->src->ops->peek(wp->src->self, wp->sm, wi);
    w->next = in;
    w->need[0] = w->need[1] = 0;
    if (in) sb_need_slots(in, w->need);
    w->view.pc = in ? in->pc : 0;
    w->view.cls = in ? in->cls : (uint8_t)IC_EXIT;
}

/* ---------------------------------------------------------------------- CTAs ---- */

void warps_kernel_start(sm_warps *wp, const kernel_launch *k)
{
    wp->warps_per_cta = ((int)k->block + WT_WARP_SIZE - 1) / WT_WARP_SIZE;
    wp->kernels++;
}

int warps_per_cta(const sm_warps *wp)
{
    return wp->warps_per_cta;
}

int warps_cta_begin(sm_warps *wp, uint32_t cta_id, uint64_t now, bool after_cycle)
{
    int cs = 0;
    while (wp->c[cs].used)
        cs++;
    /* the cycles the SM ran without a CTA: through now when the CTA came after the cycle (as
     * GPGPU-Sim's issue_block2core hands CTAs out, Issue_Prio resumes the cycle after) */
    uint64_t first = now + (after_cycle ? 1 : 0);
    if (wp->resident == 0 && first > wp->idle_from) wp->rotate_off += first - wp->idle_from;
    wp->resident++;
    wp->live_unpaused += wp->warps_per_cta; /* a new CTA is not paused */
    wp->c[cs] = (sm_cta){.used = true,
                         .id = cta_id,
                         .nwarps = wp->warps_per_cta,
                         .start = now,
                         .order = wp->next_order++,
                         .fastest = UINT64_MAX};
    wp->src->ops->cta_start(wp->src->self, wp->sm, cs, cta_id);
    return cs;
}

int warps_warp_begin(sm_warps *wp, int cs, int k, uint64_t now)
{
    (void)now;
    int wi = 0;
    while (wp->w[wi].live)
        wi++;
    sm_warp *w = &wp->w[wi];
    uint32_t cta_id = wp->c[cs].id;
    *w = (sm_warp){
        .live = true, .cta_slot = cs, .cta_id = cta_id, .warp_in_cta = k, .age = wp->next_age++};
    if (wp->oracle) w->oracle = warp_profile_get(wp->oracle, wp->kernels - 1, cta_id, k);
    wp->src->ops->warp_start(wp->src->self, wp->sm, wi, cs, cta_id, k);
    warps_next(wp, wi);
    refresh_view(wp, wi);
    wp->live++;
    return wi;
}

void warps_set_cta_limit(sm_warps *wp, int limit)
{
    /* Rank resident CTAs by assignment order; the newest beyond the limit are paused. */
    for (int i = 0; i < wp->max_ctas; i++) {
        sm_cta *c = &wp->c[i];
        if (!c->used) continue;
        int newer = 0;
        for (int j = 0; j < wp->max_ctas; j++)
            newer += wp->c[j].used && wp->c[j].order > c->order;
        int rank = wp->resident - newer; /* 1 = oldest */
        c->paused = rank > limit;
    }
    for (int wi = 0; wi < wp->max_warps; wi++)
        if (wp->w[wi].live) refresh_view(wp, wi);
    wp->live_unpaused = 0;
    for (int i = 0; i < wp->max_ctas; i++)
        if (wp->c[i].used && !wp->c[i].paused)
            wp->live_unpaused += wp->c[i].nwarps - wp->c[i].exited;
}

int warps_take_finished(sm_warps *wp)
{
    int n = wp->finished;
    wp->finished = 0;
    return n;
}

/* ------------------------------------------------------------ barriers, exit ---- */

/* The barrier of CTA slot cs releases its warps once every warp still running has arrived:
 * returns them. */
static uint64_t release_barrier(sm_warps *wp, int cs)
{
    sm_cta *c = &wp->c[cs];
    if (c->at_barrier == 0 || c->at_barrier + c->exited < c->nwarps) return 0;
    uint64_t released = 0;
    for (int i = 0; i < wp->max_warps; i++) {
        /* the view's copy of cta_slot: in the record's first host cache line, with live */
        if (wp->w[i].live && wp->w[i].view.cta_slot == cs) {
            wp->w[i].at_barrier = false;
            released |= (uint64_t)1 << i;
        }
    }
    c->at_barrier = 0;
    return released;
}

uint64_t warps_barrier(sm_warps *wp, int wi)
{
    sm_warp *w = &wp->w[wi];
    w->at_barrier = true;
    wp->c[w->cta_slot].at_barrier++;
    return release_barrier(wp, w->cta_slot);
}

void warps_hold(sm_warps *wp, int wi, uint64_t until)
{
    wp->w[wi].ready_at = until;
}

void warps_mem_queued(sm_warps *wp, int wi, int d)
{
    wp->w[wi].mq_count = (uint8_t)(wp->w[wi].mq_count + d);
}

void warps_in_collector(sm_warps *wp, int wi, int d)
{
    wp->w[wi].oc_count = (uint8_t)(wp->w[wi].oc_count + d);
}

void warps_atomic_issued(sm_warps *wp, int wi)
{
    wp->w[wi].atomics++;
}

void warps_atomic_done(sm_warps *wp, int wi, uint64_t age)
{
    sm_warp *w = &wp->w[wi];
    if (w->live && w->age == age) w->atomics--;
}

void warps_stores_sent(sm_warps *wp, int wi, uint32_t n)
{
    wp->w[wi].stores += n;
}

void warps_store_acked(sm_warps *wp, int wi)
{
    assert(wp->w[wi].stores > 0);
    wp->w[wi].stores--;
}

void warps_exit_pending(sm_warps *wp, int wi)
{
    wp->w[wi].exit_pending = true;
}

bool warps_may_leave(sm_warps *wp, int wi)
{
    sm_warp *w = &wp->w[wi];
    if (!w->exit_pending || w->mq_count || w->stores || w->oc_count) return false;
    w->exit_pending = false;
    return true;
}

uint64_t warps_exit(sm_warps *wp, int wi, uint64_t now)
{
    sm_warp *w = &wp->w[wi];
    sm_cta *c = &wp->c[w->cta_slot];
    uint64_t t = now - c->start;
    if (t < c->fastest) c->fastest = t;
    if (t > c->slowest) c->slowest = t;
    if (wp->profile_out)
        warp_profile_add(wp->profile_out, wp->kernels - 1, w->cta_id, w->warp_in_cta, t);
    w->live = false;
    w->next = NULL;
    refresh_view(wp, wi);
    wp->live--;
    c->exited++;
    if (!c->paused) wp->live_unpaused--;
    if (c->exited < c->nwarps) return release_barrier(wp, w->cta_slot);
    double d = c->slowest ? (double)(c->slowest - c->fastest) / (double)c->slowest : 0.0;
    wp->st->disparity_sum += d;
    if (d > wp->st->disparity_max) wp->st->disparity_max = d;
    wp->st->ctas_done++;
    c->used = false;
    if (--wp->resident == 0) wp->idle_from = now + 1; /* it had the CTA in this cycle */
    wp->finished++;
    return 0;
}

/* ------------------------------------------------------------------- counts ---- */

int warps_live(const sm_warps *wp)
{
    return wp->live;
}

int warps_live_unpaused(const sm_warps *wp)
{
    return wp->live_unpaused;
}

int warps_resident(const sm_warps *wp)
{
    return wp->resident;
}

int warps_at_barrier(const sm_warps *wp)
{
    int n = 0;
    for (int i = 0; i < wp->max_warps; i++)
        n += wp->w[i].live && wp->w[i].at_barrier;
    return n;
}

uint64_t warps_rotate_off(const sm_warps *wp)
{
    return wp->rotate_off;
}

int warps_age_rank(const sm_warps *wp, int wi)
{
    int rank = 0;
    for (int i = 0; i < wp->max_warps; i++)
        rank += wp->w[i].live && wp->w[i].age < wp->w[wi].age;
    return rank;
}
