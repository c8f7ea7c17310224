#include "core/sim/team.h"

#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
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
/* The master's part of a round's jobs, in percent of an equal share */
#define TEAM_MASTER_SHARE 85

/* A thread's part of a round: jobs [next, end) of the round, taken by a compare-and-swap of one
 * word (bits 63..32 the round, 31..16 end, 15..0 next), by its owner from the front and by the
 * others, once theirs are done, from the back. One per host cache line. */
typedef struct team_part {
    _Alignas(64) _Atomic uint64_t next;
} team_part;

struct team {
    _Atomic uint32_t round; /* the round on offer; its parts are set before it is */
    _Atomic uint32_t *done; /* per job: the last round in which it finished */
    void *done_mem;         /* its allocation */
    int done_cap;
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

/* Takes a job of part p in round r, the owner from the front and the others from the back (the
 * owner keeps the SMs whose state its caches hold): its index, or -1 when the part has none left
 * in that round (or another round is on). */
static int take(team_part *p, uint32_t r, bool owner)
{
    uint64_t w = atomic_load_explicit(&p->next, memory_order_acquire);
    while ((uint32_t)(w >> 32) == r && (w & 0xFFFF) < ((w >> 16) & 0xFFFF)) {
        uint64_t to = owner ? w + 1 : w - (1ull << 16);
        if (atomic_compare_exchange_weak_explicit(&p->next, &w, to, memory_order_acq_rel,
                                                  memory_order_acquire))
            return owner ? (int)(w & 0xFFFF) : (int)((w >> 16) & 0xFFFF) - 1;
    }
    return -1;
}

/* Runs job k of round r and says so. */
static inline void run_job(team *t, uint32_t r, int k)
{
    t->job(t->arg, k);
    atomic_store_explicit(&t->done[k], r, memory_order_release);
}

/* Runs jobs of round r, thread `self`'s part first (the SMs it stepped last cycle, whose state
 * its core's caches hold), then what is left of the others'. */
static void work(team *t, uint32_t r, int self)
{
    for (int i = 0; i < t->size; i++) {
        team_part *p = &t->part[(self + i) % t->size];
        for (int k; (k = take(p, r, i == 0)) >= 0;)
            run_job(t, r, k);
    }
}

/* One step of a wait: spin, and now and then yield the core. */
static inline void wait_step(int *spins)
{
    if (++*spins < TEAM_SPINS) {
        cpu_relax();
    } else {
        sched_yield();
        *spins = 0;
    }
}

static void help(team *t, int self)
{
    uint32_t done = 0; /* the last round it worked on */
    int spins = 0;
    while (!atomic_load_explicit(&t->stop, memory_order_acquire)) {
        uint32_t r = atomic_load_explicit(&t->round, memory_order_acquire);
        if (r != done) {
            work(t, r, self);
            done = r;
            spins = 0;
        } else {
            wait_step(&spins);
        }
    }
}

/* A round on the calling thread alone: job(0), after(0), job(1), ... */
static int run_here(int n, team_job job, team_after after, void *arg)
{
    int rc = 0;
    for (int k = 0; k < n; k++) {
        job(arg, k);
        if (!rc && after) rc = after(arg, k);
    }
    return rc;
}

int team_round(team *t, int n, team_job job, team_after after, void *arg)
{
    if (!t || t->size == 1 || n < 2 || n > 0xFFFF) return run_here(n, job, after, arg);
    if (n > t->done_cap) {
        void *mem = realloc(t->done_mem, (size_t)n * sizeof *t->done);
        if (!mem) return run_here(n, job, after, arg); /* no room to track the jobs */
        t->done_mem = mem;
        t->done = mem;
        for (int k = t->done_cap; k < n; k++)
            atomic_init(&t->done[k], 0);
        t->done_cap = n;
    }
    t->job = job;
    t->arg = arg;
    uint32_t r = atomic_load_explicit(&t->round, memory_order_relaxed) + 1;
    if (r == 0) r = 1; /* 0: no round yet (a job's done mark) */
    /* Contiguous parts: a thread takes the same SMs from cycle to cycle while the due ones
     * stay the same. The master's is smaller by TEAM_MASTER_SHARE: it also runs every `after`. */
    int mine = (int)((long)n * TEAM_MASTER_SHARE / (100L * t->size));
    for (int i = 0, first = 0; i < t->size; i++) {
        int end = i == 0 ? mine : mine + (int)((long)(n - mine) * i / (t->size - 1));
        atomic_store_explicit(&t->part[i].next,
                              (uint64_t)r << 32 | (uint64_t)end << 16 | (uint64_t)first,
                              memory_order_release);
        first = end;
    }
    atomic_store_explicit(&t->round, r, memory_order_release);
    /* The master's own part holds the first jobs: it runs them all first (so that nobody needs
     * to take them from it), then hands each finished job, in order, to `after` as soon as it
     * can, and takes what is left of the others' while it waits. */
    for (int k; (k = take(&t->part[0], r, true)) >= 0;)
        run_job(t, r, k);
    int next = 0, rc = 0, spins = 0;
    while (next < n) {
        int k;
        if (atomic_load_explicit(&t->done[next], memory_order_acquire) == r) {
            if (!rc && after) rc = after(arg, next);
            next++;
            spins = 0;
        } else {
            bool ran = false;
            for (int i = 1; i < t->size && !ran; i++)
                if ((k = take(&t->part[i], r, false)) >= 0) {
                    run_job(t, r, k);
                    ran = true;
                }
            if (!ran) wait_step(&spins);
        }
    }
    return rc;
}

int team_size(const team *t)
{
    return t ? t->size : 1;
}

int team_run(int threads, int (*body)(void *arg, team *t), void *arg)
{
    team *t = aligned_alloc(64, sizeof *t);
    if (!t) return body(arg, NULL);
    memset(t, 0, sizeof *t);
    atomic_init(&t->round, 0);
    atomic_init(&t->stop, 0);
    t->size = 1;
    int rc = 0;
#ifdef _OPENMP
    if (threads > TEAM_MAX) threads = TEAM_MAX;
    if (threads < 1) threads = 1;
#pragma omp parallel num_threads(threads) if (threads > 1)
    {
        if (omp_get_thread_num() == 0) {
            t->size = omp_get_num_threads();
            rc = body(arg, t);
            atomic_store_explicit(&t->stop, 1, memory_order_release);
        } else {
            help(t, omp_get_thread_num());
        }
    }
#else
    (void)threads;
    rc = body(arg, t);
#endif
    free(t->done_mem);
    free(t);
    return rc;
}
