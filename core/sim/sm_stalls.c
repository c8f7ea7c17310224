/* What the warp schedulers ask of the SM's warps (core/policy.h, warp_stalls): which ones are
 * stalled, waiting, or waiting on a long operation, each as GPGPU-Sim's schedulers read it. */
#include "core/sim/sm_internal.h"

/* warp_stalls.stalled: the classification of the warp's last scan holds until its next one,
 * and a scheduler's warps were all classified (or kept their class) before its pick. */
static bool warp_stalled(const void *ctx, int warp_slot)
{
    const warp *w = &((const sm *)ctx)->warps[warp_slot];
    return !w->live || w->stall == ST_MEM || w->stall == ST_SYNC;
}

/* warp_stalls.waiting: GPGPU-Sim's shd_warp_t::waiting(), a warp that may not issue whatever
 * its next instruction: no warp in the slot, done (functional_done: it issued its exit and
 * waits for its queued accesses or acknowledgements), at a barrier, or an atomic in flight. */
static bool warp_waiting(const void *ctx, int warp_slot)
{
    const warp *w = &((const sm *)ctx)->warps[warp_slot];
    return !w->live || w->exit_pending || w->at_barrier || w->atomics > 0;
}

/* GPGPU-Sim's two-level demotion test with the long-operation marks `marks`: an empty slot, a
 * finished warp or a barrier (waiting()), else the registers the next instruction reads, once
 * decoded, against the marks. */
static bool waits_on_marks(const sm *s, const warp *w, const uint64_t marks[2])
{
    if (!w->live || w->exit_pending || w->at_barrier) return true;
    if ((s->cfg->fetch && w->ib_n == 0) || !w->next) return false; /* nothing decoded yet */
    for (int i = 0; i < w->next->nsrc; i++) {
        uint8_t r = w->next->src[i];
        if ((marks[r >> 6] >> (r & 63)) & 1) return true;
    }
    return false;
}

/* warp_stalls.long_wait: marked while the global loads and atomics that write them are in
 * flight. */
static bool warp_long_wait(const void *ctx, int warp_slot)
{
    const sm *s = ctx;
    const warp *w = &s->warps[warp_slot];
    return waits_on_marks(s, w, w->pending_long);
}

/* warp_stalls.long_marked: the marks that outlive the loads (s->long_marks). */
static bool warp_long_marked(const void *ctx, int warp_slot)
{
    const sm *s = ctx;
    return waits_on_marks(s, &s->warps[warp_slot], s->long_marks[warp_slot]);
}

warp_stalls sm_warp_stalls(const sm *s)
{
    return (warp_stalls){s, warp_stalled, warp_long_wait, warp_waiting, warp_long_marked};
}
