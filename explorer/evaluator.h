/* The evaluator: runs the simulations a search asks for, in parallel with OpenMP, each at most
 * once. A simulation is identified by its memo key: the canonical hash of the configuration
 * (param_set_hash, over the parameters that differ from their defaults; param_set_hash_all,
 * over every parameter, when the journal it appends to is one of version 1, journal.h)
 * combined with the workload's identity (its name, the hash of its text and its `.param`
 * overrides). Results live in a memo shared by every thread and are
 * appended to the journal as they finish; a journal from an earlier run is replayed into the
 * memo first, so a rerun or a resumed run simulates nothing twice.
 *
 * Determinism: a simulation's result depends only on its configuration and workload, never on
 * which thread ran it or when, so whatever the thread count every lookup sees the same
 * values. Two requests for the same key at once share one simulation: the second waits,
 * asleep. A batch runs its simulations longest first by a cost estimate (the mean warp
 * instructions of the workload's simulations so far, the journal's included), which changes
 * only the order of the work. */
#ifndef WT_EVALUATOR_H
#define WT_EVALUATOR_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "explorer/simulate.h"
#include "explorer/space.h"

/* Set by the SIGINT handler: no new simulation starts once it is set. The only mutable
 * global of the explorer. */
extern volatile sig_atomic_t wt_stop_requested;

typedef enum eval_state { EV_PENDING, EV_DONE, EV_SKIPPED } eval_state;

/* Entries are aligned to cache lines, so that threads recording results side by side do not
 * share one. */
typedef struct eval_entry {
    _Alignas(64) uint64_t key;
    int state;  /* eval_state; read and written under the evaluator's lock */
    int status; /* sim_status when done */
    int from_journal;
    sim_metrics m;
    char error[256];
} eval_entry;

typedef struct eval_counts {
    size_t simulated;       /* simulations this process ran */
    size_t failed;          /* of them, failed (SIM_FAILED or SIM_BAD_CONFIG) */
    size_t replayed;        /* simulations of the journal the study used (each counted once) */
    size_t memo_hits;       /* requests for a simulation already in the memo, done or running */
    size_t journal_records; /* records read back from the journal, used or not */
    size_t skipped;         /* requests not run: interrupted or out of time */
    size_t torn;            /* journal lines ignored */
} eval_counts;

typedef struct progress progress;
typedef struct evaluator evaluator;

/* Loads the space's workloads and opens (replays) the journal at journal_path (NULL: none; see
 * evaluator_open_journal). threads: OpenMP threads for batches (0: every core). Returns NULL
 * with err. */
evaluator *evaluator_new(const space *s, const char *journal_path, int threads, char *err,
                         size_t errlen);
void evaluator_free(evaluator *e);
/* Opens the evaluator's journal at path (an evaluator made without one), replaying it into the
 * memo. Returns 0; -1 with err when the file is no journal (bad input); -2 with err when it
 * cannot be read or written (output that cannot be written). */
int evaluator_open_journal(evaluator *e, const char *path, char *err, size_t errlen);
/* Replays another journal into the memo (a shard's, explorer/shard.h), as the evaluator's own
 * was; later simulations still go to the evaluator's own journal. Returns 0, or -1 or -2 with
 * err as evaluator_open_journal. */
int evaluator_replay(evaluator *e, const char *path, char *err, size_t errlen);

int evaluator_threads(const evaluator *e);
/* Stops starting simulations after this wall-clock time (omp_get_wtime seconds; 0: never). */
void evaluator_set_deadline(evaluator *e, double when);
/* Progress reporting of finished simulations; expected: simulations the study will ask. */
void evaluator_set_progress(evaluator *e, progress *p);
/* 1 once no new simulation may start: interrupted, past the deadline or failed. */
int evaluator_stopped(const evaluator *e);
/* Why the evaluator failed (its journal could not be appended to: the file and the reason),
 * or NULL. A study that failed writes no outputs: they would describe a study cut short that
 * its journal cannot resume. */
const char *evaluator_failure(const evaluator *e);
eval_counts evaluator_counts(const evaluator *e);

/* The memo key of cfg on workload w. */
uint64_t evaluator_key(const evaluator *e, const param_set *cfg, size_t w);

/* Results of cfg on every workload of the space into out[w] (pointers into the memo, valid
 * until evaluator_free), simulating what the memo lacks as OpenMP tasks (so inside a parallel
 * region the workloads run concurrently). Returns 0 when every result is done, 1 when some
 * were skipped (stopped). */
int evaluator_point(evaluator *e, const param_set *cfg, const eval_entry **out);

/* The same for n configurations at once: n x workloads simulations over the evaluator's
 * threads. out has n * workloads slots, row-major by configuration. Returns the number of
 * configurations with a skipped result. */
size_t evaluator_batch(evaluator *e, param_set *const *cfgs, size_t n, const eval_entry **out);

/* Shard k of n (n <= 1: no sharding): from now on a batch simulates only its share of the
 * distinct simulations it asks for, balanced by a cost fixed now (per workload: the warp
 * instructions of base's simulation, which must be done; 1 if it is not), so that every shard
 * computes the same partition. The other shards' simulations read as skipped. Returns 0 or -1
 * (out of memory). */
int evaluator_set_shard(evaluator *e, int k, int n, const param_set *base);

/* Simulations run elsewhere (other processes): a runner is handed the simulations a batch
 * or a point needs, longest first, and calls evaluator_finish (or evaluator_skip) for every one
 * of them before it returns, from the calling thread. With a runner the evaluator runs no
 * OpenMP threads of its own. */
typedef struct eval_job {
    const param_set *cfg;
    size_t w;    /* the workload */
    void *entry; /* the evaluator's */
} eval_job;
typedef void (*eval_runner_fn)(void *ctx, evaluator *e, const eval_job *jobs, size_t n);
void evaluator_set_runner(evaluator *e, eval_runner_fn fn, void *ctx);
/* Records a job's result: the memo, the journal (appended and flushed), the progress. */
void evaluator_finish(evaluator *e, const eval_job *job, sim_status st, const sim_metrics *m,
                      const char *msg);
/* Records a job as not run (the study stopped). */
void evaluator_skip(evaluator *e, const eval_job *job);
/* Simulates cfg on workload w here, touching nothing of the evaluator's (a worker's part). */
sim_status evaluator_simulate(const evaluator *e, const param_set *cfg, size_t w, sim_metrics *m,
                              char *msg, size_t msglen);
/* The number of workloads. */
size_t evaluator_workloads(const evaluator *e);

/* The memo entry of cfg on workload w if it is done, else NULL (never simulates). */
const eval_entry *evaluator_peek(evaluator *e, const param_set *cfg, size_t w);

#endif
