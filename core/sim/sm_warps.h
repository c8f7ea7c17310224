/* The SM's warps and CTAs: the warp and CTA slots, what each warp is (its CTA, age, next
 * instruction and what it needs, what of it is still in flight), the CTAs' barriers and
 * pausing (DYNCTA), a warp's exit and its CTA's end, and the view of each warp the schedulers
 * see (warp_view), kept current where any of it changes.
 *
 * The records are read through warps_get (const); they change only through the functions
 * below, each the one place a kind of change is made. The component calls no other part of the
 * SM: only the instruction source, which executes the warps. */
#ifndef WT_SM_WARPS_H
#define WT_SM_WARPS_H

#include <stdbool.h>
#include <stdint.h>

#include "core/isource.h"
#include "core/policy.h"
#include "core/sim/sm.h"

struct warp_profile;

/* What the issue scan reads of a warp comes first, within 64 bytes (view.cls and view.paused
 * included), and the records are 64-byte aligned: classifying a warp touches one host cache
 * line, not two (the warps of a large GPU's SMs do not stay in the host's caches). */
typedef struct sm_warp {
    _Alignas(64) bool live;
    bool at_barrier;
    bool exit_pending; /* it issued its last instruction and leaves once nothing of it is
                        * queued for the load/store unit, in a collector or unacknowledged */
    uint8_t mq_count;  /* its memory instructions on their way to the load/store unit */
    uint8_t oc_count;  /* its instructions not yet out of a collector (sm.oc_dispatch=unit) */
    uint16_t atomics;  /* its atomic instructions with accesses in flight */
    uint64_t ready_at; /* no issue before (branch latency) */
    uint64_t need[2];  /* scoreboard slots the next instruction reads or writes */
    warp_view view;    /* what the schedulers see of it */
    int cta_slot;      /* CTA slot in the SM */
    uint32_t cta_id;   /* CTA id in the grid */
    int warp_in_cta;
    uint32_t stores;       /* its store accesses not yet acknowledged (sm.store_acks) */
    uint64_t age;          /* assignment order on this SM: smaller is older */
    uint64_t oracle;       /* its time in the oracle profile, 0 without one */
    const inst_info *next; /* NULL once the warp has exited */
} sm_warp;

typedef struct sm_warps sm_warps;

/* Warps of SM sm_id executed by src; a warp's oracle time comes from `oracle` and its time is
 * recorded in `profile_out` (either may be NULL); CTA statistics go to st. */
int warps_create(sm_warps **out, int sm_id, int max_warps, int max_ctas, isource *src,
                 const struct warp_profile *oracle, struct warp_profile *profile_out, sm_stats *st);
void warps_destroy(sm_warps *wp);

const sm_warp *warps_get(const sm_warps *wp, int wi);
/* The view of warp wi the schedulers see (debug builds check it against its record). */
const warp_view *warps_view(const sm_warps *wp, int wi);

/* A kernel begins: CTAs of block threads. */
void warps_kernel_start(sm_warps *wp, const kernel_launch *k);
/* CTA cta_id starts at cycle now in the first free CTA slot (the caller checked there is one):
 * returns the slot. Then warps_warp_begin for each of its warps_per_cta() warps, in order.
 * after_cycle: it is handed out after the SMs ran cycle now, so the SM ran now without it. */
int warps_cta_begin(sm_warps *wp, uint32_t cta_id, uint64_t now, bool after_cycle);
int warps_per_cta(const sm_warps *wp);
/* Warp k of the CTA in slot cs starts at cycle now in the first free warp slot: returns it. */
int warps_warp_begin(sm_warps *wp, int cs, int k, uint64_t now);

/* After an issue: the warp's next instruction and what the schedulers see of it. */
void warps_next(sm_warps *wp, int wi);
/* The warp may not issue before cycle `until` (a branch). */
void warps_hold(sm_warps *wp, int wi, uint64_t until);
/* The warp arrives at its CTA's barrier: returns the warps the barrier releases (0 while it
 * holds). */
uint64_t warps_barrier(sm_warps *wp, int wi);

/* What of a warp is in flight: memory instructions on their way to the load/store unit (d = +1
 * queued, -1 entered), instructions in a collector, atomics, store acknowledgements. */
void warps_mem_queued(sm_warps *wp, int wi, int d);
void warps_in_collector(sm_warps *wp, int wi, int d);
void warps_atomic_issued(sm_warps *wp, int wi);
/* An atomic of the warp of that age is back (the slot may hold another warp since). */
void warps_atomic_done(sm_warps *wp, int wi, uint64_t age);
void warps_stores_sent(sm_warps *wp, int wi, uint32_t n);
void warps_store_acked(sm_warps *wp, int wi);

/* The warp issued its exit with work still in flight: it leaves later (warps_may_leave). */
void warps_exit_pending(sm_warps *wp, int wi);
/* Is the warp done with nothing left in flight? Clears its pending exit when so. */
bool warps_may_leave(sm_warps *wp, int wi);
/* The warp leaves at cycle now. Returns the warps of its CTA a barrier now releases. */
uint64_t warps_exit(sm_warps *wp, int wi, uint64_t now);

/* Pauses the newest CTAs beyond `limit` (DYNCTA: deprioritised, not preempted), resumes the
 * others. */
void warps_set_cta_limit(sm_warps *wp, int limit);

int warps_live(const sm_warps *wp);          /* warps in their slots */
int warps_live_unpaused(const sm_warps *wp); /* of those, of CTAs not paused */
int warps_resident(const sm_warps *wp);      /* CTAs resident, paused ones included */
int warps_at_barrier(const sm_warps *wp);    /* warps waiting at a barrier */
/* CTAs finished since the last call. */
int warps_take_finished(sm_warps *wp);
/* Cycles so far in which the SM held no CTA (before the last CTA's start). */
uint64_t warps_rotate_off(const sm_warps *wp);
/* The warp's rank by age among the live warps (0 = oldest). */
int warps_age_rank(const sm_warps *wp, int wi);

#endif
