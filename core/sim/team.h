/* A team of threads that share the rounds of a loop run by one of them: the SM phase of each
 * cycle when the SMs step on several threads (docs/architecture.md, "Parallel SMs").
 *
 * The master runs the loop; at each round it hands out jobs 0..n-1, takes them too, and goes on
 * once every job has finished. The jobs are cut into one contiguous part per thread, so that a
 * thread steps the same SMs from cycle to cycle (their state stays in its core's caches); each
 * job is taken, one at a time, by a compare-and-swap on its part, by the part's owner first and
 * by any thread whose own part is done. A thread late to a round (descheduled on a busy host)
 * finds its part taken by the others and holds nobody up: the master waits only for jobs
 * already taken, never for a thread to arrive. Between rounds the helpers spin, then yield
 * their core. */
#ifndef WT_TEAM_H
#define WT_TEAM_H

typedef struct team team;

typedef void (*team_job)(void *arg, int k);

/* Runs body(arg, t) on the calling thread with up to threads - 1 helpers (fewer where the
 * OpenMP runtime grants fewer, none without OpenMP) and returns its result. */
int team_run(int threads, int (*body)(void *arg, team *t), void *arg);

/* From body: runs job(arg, k) for every k in [0, n) on the team, the master included, and
 * returns when all have finished. What the master wrote before is visible to the jobs, and
 * what the jobs wrote is visible to it after. */
void team_round(team *t, int n, team_job job, void *arg);

/* The threads of the team (1 when it has no helpers). */
int team_size(const team *t);

#endif
