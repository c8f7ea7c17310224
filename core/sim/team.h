/* A team of threads that share the rounds of a loop run by one of them: the SM phase of each
 * cycle when the SMs step on several threads (docs/architecture.md, "Parallel SMs").
 *
 * The master runs the loop; at each round it hands out jobs 0..n-1, takes them too, and goes on
 * once every job has finished. The jobs are cut into one contiguous part per thread, so that a
 * thread steps the same SMs from cycle to cycle (their state stays in its core's caches); each
 * job is taken, one at a time, by a compare-and-swap on its part: by the part's owner from the
 * front, and from the back by any thread whose own part is done. A thread late to a round
 * (descheduled on a busy host) finds its part taken by the others and holds nobody up: the master
 * waits only for jobs already taken, never for a thread to arrive. Between rounds the helpers spin,
 * then yield their core. */
#ifndef WT_TEAM_H
#define WT_TEAM_H

typedef struct team team;

typedef void (*team_job)(void *arg, int k);

/* Runs body(arg, t) on the calling thread with up to threads - 1 helpers (fewer where the
 * OpenMP runtime grants fewer, none without OpenMP) and returns its result. */
int team_run(int threads, int (*body)(void *arg, team *t), void *arg);

/* What the master does with job k once it and every job before it have finished, in job order
 * (while later jobs may still run on the helpers). 0, or non-zero to stop calling it. */
typedef int (*team_after)(void *arg, int k);

/* From body: runs job(arg, k) for every k in [0, n) on the team, the master included, and
 * after(arg, k) (if not NULL) on the master for each k in order, each as soon as jobs 0..k have
 * finished. Returns when every job has finished: 0, or the first non-zero result of after (the
 * later ones are not called). What the master wrote before is visible to the jobs, and what
 * job k wrote is visible to after(k). On one thread: job(0), after(0), job(1), ... */
int team_round(team *t, int n, team_job job, team_after after, void *arg);

/* The threads of the team (1 when it has no helpers). */
int team_size(const team *t);

#endif
