#include "core/sim/team.h"

#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* Spins of a waiting thread before it yields its core: a round's sequential part (the memory
 * system's tick, the SMs' deferred effects) is some microseconds; longer waits are a busy host
 * or the end of the loop. */
#define TEAM_SPINS 4096

struct team {
    /* The round on offer: its number (bits 63..32), its jobs (31..16) and the next job to take
     * (15..0). One word, so that taking a job (a compare-and-swap) also checks the round. */
    _Atomic uint64_t round;
    _Atomic int finished; /* jobs of the round the helpers finished */
    _Atomic int stop;
    team_job job; /* the round's: written before the round is published */
    void *arg;
    int size;
};

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ volatile("yield");
#endif
}

static inline int jobs_of(uint64_t r)
{
    return (int)((r >> 16) & 0xFFFF);
}

static inline int next_of(uint64_t r)
{
    return (int)(r & 0xFFFF);
}

/* Takes the next job of the round in *r (reloaded on failure): its index, or -1 when the
 * round has none left. */
static int take(team *t, uint64_t *r)
{
    while (next_of(*r) < jobs_of(*r))
        if (atomic_compare_exchange_weak_explicit(&t->round, r, *r + 1, memory_order_acq_rel,
                                                  memory_order_acquire))
            return next_of(*r);
    return -1;
}

static void help(team *t)
{
    int spins = 0;
    while (!atomic_load_explicit(&t->stop, memory_order_acquire)) {
        uint64_t r = atomic_load_explicit(&t->round, memory_order_acquire);
        int k = take(t, &r);
        if (k >= 0) {
            t->job(t->arg, k);
            atomic_fetch_add_explicit(&t->finished, 1, memory_order_release);
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
    if (t->size == 1 || n < 2 || n > 0xFFFF) {
        for (int k = 0; k < n; k++)
            job(arg, k);
        return;
    }
    t->job = job;
    t->arg = arg;
    atomic_store_explicit(&t->finished, 0, memory_order_relaxed);
    uint64_t number = (atomic_load_explicit(&t->round, memory_order_relaxed) >> 32) + 1;
    uint64_t r = number << 32 | (uint64_t)n << 16;
    atomic_store_explicit(&t->round, r, memory_order_release);
    int mine = 0, k;
    while ((k = take(t, &r)) >= 0) {
        job(arg, k);
        mine++;
    }
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
    return t->size;
}

int team_run(int threads, int (*body)(void *arg, team *t), void *arg)
{
    team t;
    atomic_init(&t.round, 0);
    atomic_init(&t.finished, 0);
    atomic_init(&t.stop, 0);
    t.job = NULL;
    t.arg = NULL;
    t.size = 1;
#ifdef _OPENMP
    if (threads > 1) {
        int rc = 0;
#pragma omp parallel num_threads(threads)
        {
            if (omp_get_thread_num() == 0) {
                t.size = omp_get_num_threads();
                rc = body(arg, &t);
                atomic_store_explicit(&t.stop, 1, memory_order_release);
            } else {
                help(&t);
            }
        }
        return rc;
    }
#else
    (void)threads;
#endif
    return body(arg, &t);
}
