/* The memory system's event queue: events ordered by (cycle, insertion order).
 *
 * Almost every event lands less than a few hundred cycles ahead, so a timing wheel does the
 * work: MS_WHEEL buckets, one per cycle of the window [cur, cur + MS_WHEEL), each a FIFO of
 * events (insertion order within a cycle for free), and a bitmap of non-empty buckets so that
 * finding the next event skips idle cycles a word at a time. Events beyond the window wait in a
 * binary heap keyed by (cycle, seq) and move into the wheel as soon as the window reaches them,
 * always before anything later-inserted for the same cycle can be pushed, so the order is
 * exactly (cycle, insertion). Push and pop are O(1) in the wheel, O(log n) in the heap. A take
 * is a cycle's whole bucket at once, as one chain (ms_eq_take, memsys_internal.h). */
#include "core/mem/memsys_internal.h"

#include <stdio.h>
#include <stdlib.h>

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n);
    if (!q) {
        fprintf(stderr, "warptune: memsys: out of memory\n");
        abort();
    }
    return q;
}

int ms_eq_init(memsys *m)
{
    m->bhead = malloc(MS_WHEEL * sizeof *m->bhead);
    m->btail = malloc(MS_WHEEL * sizeof *m->btail);
    if (!m->bhead || !m->btail) return -1;
    for (int i = 0; i < MS_WHEEL; i++)
        m->bhead[i] = m->btail[i] = MS_NIL;
    m->en_free = MS_NIL;
    m->next_ev = MS_NEVER;
    return 0;
}

void ms_eq_free(memsys *m)
{
    free(m->bhead);
    free(m->btail);
    free(m->en);
    free(m->heap);
}

/* Appends an event at time t (inside the window) to the wheel, growing the node pool first if
 * it is empty. */
static void wheel_append(memsys *m, uint64_t t, uint32_t a, uint32_t b, uint8_t type)
{
    if (m->en_free == MS_NIL) {
        uint32_t old = m->en_cap, cap = old ? old * 2 : 1024;
        m->en = xrealloc(m->en, (size_t)cap * sizeof *m->en);
        for (uint32_t i = cap; i-- > old;) {
            m->en[i].next = m->en_free;
            m->en_free = i;
        }
        m->en_cap = cap;
    }
    ms_wheel_append(m, (uint32_t)(t & (MS_WHEEL - 1)), a, b, type);
}

static int ev_less(const ms_event *x, const ms_event *y)
{
    return x->time < y->time || (x->time == y->time && x->seq < y->seq);
}

static void heap_push(memsys *m, const ms_event *e)
{
    if (m->heap_n == m->heap_cap) {
        m->heap_cap = m->heap_cap ? m->heap_cap * 2 : 256;
        m->heap = xrealloc(m->heap, m->heap_cap * sizeof *m->heap);
    }
    size_t i = m->heap_n++;
    while (i > 0) {
        size_t up = (i - 1) / 2;
        if (!ev_less(e, &m->heap[up])) break;
        m->heap[i] = m->heap[up];
        i = up;
    }
    m->heap[i] = *e;
}

static ms_event heap_pop(memsys *m)
{
    ms_event top = m->heap[0];
    ms_event last = m->heap[--m->heap_n];
    size_t n = m->heap_n, i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && ev_less(&m->heap[c + 1], &m->heap[c])) c++;
        if (!ev_less(&m->heap[c], &last)) break;
        m->heap[i] = m->heap[c];
        i = c;
    }
    if (n) m->heap[i] = last;
    return top;
}

/* Pulls in the far events the window (just moved to cur) now covers. Heap events for a cycle
 * enter its bucket before any other event for it: while they wait beyond the window nothing for
 * their cycle can be pushed into the wheel. */
void ms_eq_pull_far(memsys *m)
{
    while (m->heap_n && m->heap[0].time - m->cur < MS_WHEEL) {
        ms_event e = heap_pop(m);
        wheel_append(m, e.time, e.a, e.b, e.type);
    }
}

/* ms_push's other cases: the node pool is empty (it grows) or the event is beyond the wheel's
 * window (the heap). time is at or after cur. */
void ms_push_slow(memsys *m, uint64_t time, ms_ev_type type, uint32_t a, uint32_t b)
{
    if (time - m->cur < MS_WHEEL) {
        wheel_append(m, time, a, b, (uint8_t)type);
    } else {
        ms_event e = {time, m->seq++, a, b, (uint8_t)type};
        heap_push(m, &e);
    }
}

/* Earliest pending event time, or MS_NEVER. */
uint64_t ms_eq_next(const memsys *m)
{
    if (m->wheel_n) {
        const uint32_t s = (uint32_t)(m->cur & (MS_WHEEL - 1));
        const uint32_t nw = MS_WHEEL / 64, w0 = s >> 6;
        for (uint32_t i = 0; i <= nw; i++) {
            uint32_t w = (w0 + i) % nw;
            uint64_t bits = m->bits[w];
            if (i == 0) bits &= ~0ull << (s & 63);
            if (i == nw) bits &= ~(~0ull << (s & 63));
            if (bits) {
                uint32_t idx = w * 64 + (uint32_t)__builtin_ctzll(bits);
                return m->cur + ((idx - s) & (MS_WHEEL - 1));
            }
        }
    }
    return m->heap_n ? m->heap[0].time : MS_NEVER;
}
