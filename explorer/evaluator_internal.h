/* Internals of the evaluator, shared by evaluator.c (the memo, the journal and single points)
 * and evaluator_batch.c (batches, their order and the shard partition). */
#ifndef WT_EVALUATOR_INTERNAL_H
#define WT_EVALUATOR_INTERNAL_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "core/trace/trace.h"
#include "explorer/evaluator.h"
#include "explorer/journal.h"
#include "explorer/progress.h"

#define CHUNK 1024

struct evaluator {
    const space *s;
    size_t nw;
    workload **wl;
    trace_app **tr; /* per workload: its trace, when it is one (docs/traces.md) */
    uint64_t *wid;  /* workload identities */
    int threads;
    /* while evaluator_batch runs its simulations: the threads they lend each other at the tail */
    sim_thread_share *share;
    double deadline;
    journal *j;
    /* set once the journal could not be appended to: no simulation starts after it, and the
     * study ends with failure (set before failed, read after it) */
    _Atomic int failed;
    char failure[1024];
    size_t appended; /* records this run appended to the journal */
    /* The memo's keys are made with the configuration hash of the journal version key_version:
     * its journal's (JOURNAL_VERSION without one). alt_version: the other version, once a
     * journal of it was replayed too (a shard's, evaluator_replay), whose records are found
     * by their own keys; 0 while there is none. */
    int key_version, alt_version;
    progress *prog;
    size_t progress_done;
    eval_counts counts;
    /* the memo: open addressing over entry pointers; entries in fixed chunks so pointers stay
     * valid while the table grows */
    eval_entry **table;
    size_t cap, used;
    eval_entry **chunks;
    size_t nchunks, chunk_used;
    /* the cost estimate of a simulation of each workload: the mean warp instructions of its
     * simulations done so far (this run's and the journal's); it orders work, never results */
    double *cost_sum;
    size_t *cost_n;
    int shard_k, shard_n; /* evaluator_set_shard; shard_n 0: none */
    double *shard_cost;   /* per workload, fixed when the shard is set */
    /* a lock, and a condition every finished simulation signals: a thread that waits for a
     * simulation another one runs sleeps rather than polls */
    pthread_mutex_t mu;
    pthread_cond_t done;
    eval_runner_fn runner; /* evaluator_set_runner; NULL: OpenMP threads here */
    void *runner_ctx;
};

void ev_lock(evaluator *e);
void ev_unlock(evaluator *e);
/* The cost of one simulation of m: its warp instructions (at least 1). */
double ev_sim_cost(const sim_metrics *m);
/* h extended by the 8 bytes of v (FNV-1a): the memo keys. */
uint64_t ev_u64_bytes(uint64_t h, uint64_t v);
/* The configuration part of cfg's memo keys (ev_lookup_or_claim): the hash of key_version in
 * keys[0], of alt_version in keys[1] (0 without one). */
void ev_config_keys(const evaluator *e, const param_set *cfg, uint64_t keys[2]);
/* Finds the entry of cfg (ev_config_keys) on workload w or claims it (returns 1 in *claimed:
 * the caller simulates it). */
eval_entry *ev_lookup_or_claim(evaluator *e, const uint64_t keys[2], size_t w, int *claimed);
/* Simulates the claimed entry en (or skips it once the run is stopped). */
void ev_simulate(evaluator *e, eval_entry *en, const param_set *cfg, size_t w);
/* Waits (asleep) until en is no longer pending; returns its state. */
int ev_wait_entry(evaluator *e, const eval_entry *en);

#endif
