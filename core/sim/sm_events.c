/* The SM's events, one FIFO per kind (sm_internal.h: sm_push_event): growing a FIFO, popping
 * the earliest head, and the sorted push of results whose delay varies. */
#include <stdlib.h>

#include "core/sim/sm_internal.h"

static int ev_before(const sm_event *a, const sm_event *b)
{
    return a->cycle < b->cycle || (a->cycle == b->cycle && a->seq < b->seq);
}

/* Doubles FIFO f's ring (sm_push_event found it full). */
void sm_ev_grow(ev_fifo *f)
{
    uint32_t cap = f->cap ? f->cap * 2 : 64;
    sm_event *b = malloc((size_t)cap * sizeof *b);
    if (!b) abort(); /* a few kilobytes: failing here means the process is out of memory */
    for (uint32_t i = 0; i < f->n; i++)
        b[i] = f->buf[(f->head + i) & (f->cap - 1)];
    free(f->buf);
    f->buf = b;
    f->head = 0;
    f->cap = cap;
}

/* Removes and returns the earliest event (there is one). One scan finds it and the earliest
 * head of the other FIFOs, which with the popped FIFO's new head gives the next event. */
sm_event sm_ev_pop(sm *s)
{
    ev_fifo *best = NULL;
    uint64_t others = UINT64_MAX; /* earliest head of the FIFOs other than best */
    for (uint32_t qs = s->evq_busy; qs; qs &= qs - 1) {
        ev_fifo *f = &s->evq[__builtin_ctz(qs)];
        if (!best || ev_before(&f->buf[f->head], &best->buf[best->head])) {
            if (best && best->buf[best->head].cycle < others) others = best->buf[best->head].cycle;
            best = f;
        } else if (f->buf[f->head].cycle < others) {
            others = f->buf[f->head].cycle;
        }
    }
    sm_event top = best->buf[best->head];
    best->head = (best->head + 1) & (best->cap - 1);
    best->n--;
    s->ev_n--;
    if (!best->n) s->evq_busy &= ~(1u << (best - s->evq));
    if (best->n && best->buf[best->head].cycle < others) others = best->buf[best->head].cycle;
    s->ev_next = others;
    return top;
}

/* Queues e on a FIFO whose events may come before the last one pushed (the collector delays
 * each instruction differently): it goes after every event of its cycle or earlier, so the
 * FIFO stays in (cycle, seq) order. */
void sm_push_event_sorted(sm *s, const sm_event *e, int queue)
{
    sm_push_event(s, e, queue);
    ev_fifo *f = &s->evq[queue];
    uint32_t mask = f->cap - 1;
    for (uint32_t i = f->n - 1; i > 0; i--) {
        sm_event *cur = &f->buf[(f->head + i) & mask];
        sm_event *prev = &f->buf[(f->head + i - 1) & mask];
        if (prev->cycle <= cur->cycle) break;
        sm_event t = *cur;
        *cur = *prev;
        *prev = t;
    }
}
