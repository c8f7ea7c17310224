/* How the SM's components tell each other what happened without calling each other:
 *
 *  - timed events (sm_evq): results that come back a fixed or known number of cycles after they
 *    were made (an ALU or shared-memory writeback, an L1D hit, a drained fill); the SM hands
 *    each to its component when it is due, in (cycle, push order);
 *  - wake-ups (sm_wakes): whatever may let a warp issue that could not (a register released,
 *    the load/store unit freed, a buffer fetched), posted by any component, read by the issue
 *    stage before its next scan;
 *  - reports (sm_reports): what a component saw that the rest of the SM must act on (an L1D
 *    event for the warp's scheduler, a warp that may now leave), handled by the SM in order
 *    once the component's call returns;
 *  - reply tokens: which component a memory reply belongs to. */
#ifndef WT_SM_EVENTS_H
#define WT_SM_EVENTS_H

#include <stdbool.h>
#include <stdint.h>

#include "core/policy.h"

/* ------------------------------------------------------------- timed events ---- */

/* EV_REG: the load/store unit writes registers back; EV_WB: the core's writeback (ALU, SFU),
 * which also unmarks them (warp_stalls.long_marked); EV_ACCESS: an access of a load is done. */
enum ev_kind { EV_REG, EV_WB, EV_ACCESS };
typedef struct sm_event {
    uint64_t cycle, seq;
    int kind;
    int a;         /* warp (EV_REG, EV_WB) or load record (EV_ACCESS) */
    uint64_t m[2]; /* scoreboard slots to release (EV_REG, EV_WB) */
} sm_event;

/* Every kind of event has a fixed latency and an SM's cycles only move forward, so the events
 * of one kind are pushed in time order: a FIFO per kind, and the next event is the earliest
 * head (ties by seq, the order of pushing). */
enum ev_queue { EVQ_INT, EVQ_FP, EVQ_SFU, EVQ_SHARED, EVQ_HIT, EVQ_DRAIN, EVQ_COUNT };
typedef struct ev_fifo {
    sm_event *buf; /* ring of cap (a power of two) events */
    uint32_t head, n, cap;
} ev_fifo;

typedef struct sm_evq {
    ev_fifo q[EVQ_COUNT];
    int n;         /* events queued */
    uint32_t busy; /* bit q: FIFO q holds an event */
    uint64_t next; /* cycle of the earliest, UINT64_MAX when none */
    uint64_t seq;
} sm_evq;

void sm_evq_init(sm_evq *e);
void sm_evq_free(sm_evq *e);
/* Doubles FIFO f's ring (sm_evq_push found it full). */
void sm_evq_grow(ev_fifo *f);
/* Removes and returns the earliest event (there is one). */
sm_event sm_evq_pop(sm_evq *e);
/* Queues ev on a FIFO whose events may come before the last one pushed (the operand collector
 * delays each instruction differently): after every event of its cycle or earlier. */
void sm_evq_push_sorted(sm_evq *e, const sm_event *ev, int queue);

/* Queues ev (cycle set, seq assigned here) on FIFO `queue`, whose events all come at a fixed
 * latency after the cycle they were pushed in. Inline: every L1D hit and writeback pushes one. */
static inline void sm_evq_push(sm_evq *e, const sm_event *ev, int queue)
{
    ev_fifo *f = &e->q[queue];
    if (f->n == f->cap) sm_evq_grow(f);
    sm_event *slot = &f->buf[(f->head + f->n) & (f->cap - 1)];
    *slot = *ev;
    slot->seq = e->seq++;
    f->n++;
    e->n++;
    e->busy |= 1u << queue;
    if (ev->cycle < e->next) e->next = ev->cycle;
}

/* ----------------------------------------------------------------- wake-ups ---- */

typedef struct sm_wakes {
    uint64_t recheck;       /* warps whose issue state may have changed since their last look */
    uint64_t stage_waiters; /* warps waiting for the load/store unit or a place on its way */
    uint64_t scan_at;       /* next cycle the issue scan can find something new; 0: now */
} sm_wakes;

/* Warp wi's issue state changed (a register released, a miss it now waits on): look again now. */
static inline void sm_wake_warp(sm_wakes *k, int wi)
{
    k->scan_at = 0;
    k->recheck |= (uint64_t)1 << wi;
}

/* The warps of mask may issue from cycle `at` on (a filled instruction buffer). */
static inline void sm_wake_warps_at(sm_wakes *k, uint64_t mask, uint64_t at)
{
    k->recheck |= mask;
    if (at < k->scan_at) k->scan_at = at;
}

/* The load/store unit, or a place in the queue to it, freed: its waiters may issue. */
static inline void sm_wake_stage(sm_wakes *k)
{
    k->scan_at = 0;
    k->recheck |= k->stage_waiters;
    k->stage_waiters = 0;
}

/* A collector unit freed: the waiters for one may issue (they still wait for the unit). */
static inline void sm_wake_unit(sm_wakes *k)
{
    k->scan_at = 0;
    k->recheck |= k->stage_waiters;
}

/* Something every warp's classification depends on changed. */
static inline void sm_wake_all(sm_wakes *k)
{
    k->scan_at = 0;
    k->recheck = ~(uint64_t)0;
}

/* ------------------------------------------------------------------ reports ---- */

enum sm_report_kind {
    SMR_L1,   /* an L1D event for the scheduler of the warp (l1_event) */
    SMR_LEAVE /* warp `warp` may have nothing left in flight: it leaves if it is done */
};
typedef struct sm_report {
    uint8_t kind;
    int warp;
    l1_event l1;
} sm_report;
typedef struct sm_reports {
    sm_report *r;
    int n, cap;
} sm_reports;

void sm_reports_free(sm_reports *r);
void sm_report_add(sm_reports *r, const sm_report *x);

/* ------------------------------------------------------------- reply tokens ---- */

/* A request's token: the kind of its reply in the top bits, an index below. */
#define TOK_FILL   0x10000000u /* an L1D fill; index: its MSHR */
#define TOK_BYPASS 0x20000000u /* a load around the L1D; index: its load record */
#define TOK_ATOMIC 0x30000000u /* an atomic's reply; index: its load record */
#define TOK_IFETCH 0x40000000u /* an instruction-cache fill; index: its MSHR */
#define TOK_STORE  0x50000000u /* a write's acknowledgement (sm.store_acks); index: the warp */
#define TOK_KIND   0xf0000000u
#define TOK_INDEX  0x0fffffffu

#endif
