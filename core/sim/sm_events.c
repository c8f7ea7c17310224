/* The SM's timed events (a FIFO per kind) and its reports (core/sim/sm_events.h). */
#include "core/sim/sm_events.h"

#include <stdlib.h>
#include <string.h>

void sm_evq_init(sm_evq *e)
{
    memset(e, 0, sizeof *e);
    e->next = UINT64_MAX;
}

void sm_evq_free(sm_evq *e)
{
    for (int q = 0; q < EVQ_COUNT; q++)
        free(e->q[q].buf);
}

static int ev_before(const sm_event *a, const sm_event *b)
{
    return a->cycle < b->cycle || (a->cycle == b->cycle && a->seq < b->seq);
}

void sm_evq_grow(ev_fifo *f)
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

/* One scan finds the earliest head and the earliest head of the other FIFOs, which with the
 * popped FIFO's new head gives the next event. */
sm_event sm_evq_pop(sm_evq *e)
{
    ev_fifo *best = NULL;
    uint64_t others = UINT64_MAX; /* earliest head of the FIFOs other than best */
    for (uint32_t qs = e->busy; qs; qs &= qs - 1) {
        ev_fifo *f = &e->q[__builtin_ctz(qs)];
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
    e->n--;
    if (!best->n) e->busy &= ~(1u << (best - e->q));
    if (best->n && best->buf[best->head].cycle < others) others = best->buf[best->head].cycle;
    e->next = others;
    return top;
}

void sm_evq_push_sorted(sm_evq *e, const sm_event *ev, int queue)
{
    sm_evq_push(e, ev, queue);
    ev_fifo *f = &e->q[queue];
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

void sm_reports_free(sm_reports *r)
{
    free(r->r);
    r->r = NULL;
    r->n = r->cap = 0;
}

void sm_report_add(sm_reports *r, const sm_report *x)
{
    if (r->n == r->cap) {
        int cap = r->cap ? r->cap * 2 : 64;
        sm_report *b = realloc(r->r, (size_t)cap * sizeof *b);
        if (!b) abort(); /* bounded by an SM's accesses in one cycle */
        r->r = b;
        r->cap = cap;
    }
    r->r[r->n++] = *x;
}
