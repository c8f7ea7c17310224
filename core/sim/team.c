#include "core/sim/team.h"

#include <sched.h>
#include <stdatomic.h>
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* Spins of a waiting thread before it yields its core: a round's sequential part (the memory
 * system's tick, the SMs' deferred effects) is some microseconds; longer waits are a busy host
 * or the end of the loop. */
#define TEAM_SPINS 4096
#define TEAM_MAX   64 /* threads of a team */

/* A thread's part of a round: jobs [next, end) of the round, taken from the front by a
 * compare-and-swap of one word (bits 63..32 the round, 31..16 end, 15..0 next), by its owner
 * first and by the others once theirs are done. One per host cache line. */
typedef struct team_part {
    _Alignas(64) _Atomic uint64_t next;
} team_part;

struct team {
    _Atomic uint32_t round; /* the round on offer; its parts are set before it is */
    _Atomic int finished;   /* jobs of the round the helpers finished */
    _Atomic int stop;
    team_job job; /* the round's, written before it is published */
    void *arg;
    int size;
    team_part part[TEAM_MAX];
};

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ volatile("yield");
#endif
}

/* Takes the next job of part p in round r: its index, or -1 when the part has none left in
 * that round (or another round is on). */
static int take(team_part *p, uint32_t r)
{
    uint64_t w = atomic_load_explicit(&p->next, memory_order_acquire);
    while ((uint32_t)(w >> 32) == r && (w & 0xFFFF) < ((w >> 16) & 0xFFFF))
        if (atomic_compare_exchange_weak_explicit(&p->next, &w, w + 1, memory_order_acq_rel,
                                                  memory_order_acquire))
            return (int)(w & 0xFFFF);
    return -1;
}

/* Runs jobs of round r, thread `self`'s part first (the SMs it stepped last cycle, whose state
 * its core's caches hold), then what is left of the others'. Returns the jobs it ran. */
static int work(team *t, uint32_t r, int self)
{
    int ran = 0;
    for (int i = 0; i < t->size; i++) {
        team_part *p = &t->part[(self + i) % t->size];
        for (int k; (k = take(p, r)) >= 0; ran++)
            t->job(t->arg, k);
    }
    return ran;
}

static void help(team *t, int self)
{
    uint32_t done = 0; /* the last round it worked on */
    int spins = 0;
    while (!atomic_load_explicit(&t->stop, memory_order_acquire)) {
        uint32_t r = atomic_load_explicit(&t->round, memory_order_acquire);
        if (r != done) {
            int ran = work(t, r, self);
            if (ran) atomic_fetch_add_explicit(&t->finished, ran, memory_order_release);
            done = r;
            spins = 0;
        } else if (++spins < TEAM_SPINS) {
            cpu_relax();
        } else {
            sched_yield();
            spins = 0;
        }
    }
}

void team_round(team *t, int n, team_job job, void *arg)
{
    if (!t || t->size == 1 || n < 2 || n > 0xFFFF) {
        for (int k = 0; k < n; k++)
            job(arg, k);
        return;
    }
    t->job = job;
    t->arg = arg;
    atomic_store_explicit(&t->finished, 0, memory_order_relaxed);
    uint32_t r = atomic_load_explicit(&t->round, memory_order_relaxed) + 1;
    if (r == 0) r = 1; /* 0: no round yet */
    /* contiguous parts: a thread takes the same SMs from cycle to cycle while the due ones
     * stay the same */
    for (int i = 0, first = 0; i < t->size; i++) {
        int end = (int)((long)n * (i + 1) / t->size);
        atomic_store_explicit(&t->part[i].next,
                              (uint64_t)r << 32 | (uint64_t)end << 16 | (uint64_t)first,
                              memory_order_release);
        first = end;
    }
    atomic_store_explicit(&t->round, r, memory_order_release);
    int mine = work(t, r, 0);
    /* every job is taken: wait for those a helper holds */
    for (int spins = 0; atomic_load_explicit(&t->finished, memory_order_acquire) + mine < n;)
        if (++spins < TEAM_SPINS) {
            cpu_relax();
        } else {
            sched_yield();
            spins = 0;
        }
}

int team_size(const team *t)
{
    return t ? t->size : 1;
}

int team_run(int threads, int (*body)(void *arg, team *t), void *arg)
{
    static_assert(TEAM_MAX <= 64, "parts are indexed by thread");
    team *t = aligned_alloc(64, sizeof *t);
    if (!t) return body(arg, NULL);
    memset(t, 0, sizeof *t);
    atomic_init(&t->round, 0);
    atomic_init(&t->finished, 0);
    atomic_init(&t->stop, 0);
    t->size = 1;
    int rc;
#ifdef _OPENMP
    if (threads > TEAM_MAX) threads = TEAM_MAX;
    if (threads > 1) {
#pragma omp parallel num_threads(threads)
        {
            if (omp_get_thread_num() == 0) {
                t->size = omp_get_num_threads();
                rc = body(arg, t);
                atomic_store_explicit(&t->stop, 1, memory_order_release);
            } else {
                help(t, omp_get_thread_num());
            }
        }
        free(t);
        return rc;
    }
#else
    (void)threads;
#endif
    rc = body(arg, t);
    free(t);
    return rc;
}
