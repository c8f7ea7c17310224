/* Batches of points: each simulation of a batch claimed once, the claimed ones run longest
 * first on the evaluator's threads (or handed to its runner), and with a shard set only this
 * shard's share of the batch's distinct simulations (docs/cluster.md). */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "core/util/hash.h"
#include "explorer/evaluator.h"
#include "explorer/evaluator_internal.h"

/* One simulation of a batch: the claimed entry, its configuration and workload, its place in
 * the batch and its estimated cost. */
typedef struct batch_task {
    eval_entry *en;
    size_t i, w, k;
    double cost;
} batch_task;

/* Longest first; equal costs in batch order. */
static int cmp_task(const void *a, const void *b)
{
    const batch_task *x = a, *y = b;
    if (x->cost != y->cost) return x->cost > y->cost ? -1 : 1;
    return (x->k > y->k) - (x->k < y->k);
}

/* A simulation of a batch as the shard partition sees it: its memo key, its place in the
 * batch and its cost. */
typedef struct shard_item {
    uint64_t key;
    size_t k;
    double cost;
} shard_item;

static int cmp_item_key(const void *a, const void *b)
{
    const shard_item *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return (x->k > y->k) - (x->k < y->k);
}

/* Longest first; equal costs in batch order. */
static int cmp_item_cost(const void *a, const void *b)
{
    const shard_item *x = a, *y = b;
    if (x->cost != y->cost) return x->cost > y->cost ? -1 : 1;
    return (x->k > y->k) - (x->k < y->k);
}

/* Marks in mine[k] the batch's simulations that fall to this shard: the distinct simulations
 * of the batch (the first of each key), longest first by the shard's fixed costs, each given
 * to the shard with the least cost so far. Every shard computes the same partition. */
static int shard_partition(const evaluator *e, const eval_entry *const *out, size_t total,
                           unsigned char *mine)
{
    shard_item *t = malloc((total ? total : 1) * sizeof *t);
    double *load = calloc((size_t)e->shard_n, sizeof *load);
    if (!t || !load) {
        free(t);
        free(load);
        return -1;
    }
    for (size_t k = 0; k < total; k++)
        t[k] = (shard_item){out[k]->key, k, e->shard_cost[k % e->nw]};
    qsort(t, total, sizeof *t, cmp_item_key);
    size_t n = 0;
    for (size_t k = 0; k < total; k++)
        if (k == 0 || t[k].key != t[k - 1].key) t[n++] = t[k];
    qsort(t, n, sizeof *t, cmp_item_cost);
    memset(mine, 0, total);
    for (size_t j = 0; j < n; j++) {
        int best = 0;
        for (int s = 1; s < e->shard_n; s++)
            if (load[s] < load[best]) best = s;
        load[best] += t[j].cost;
        mine[t[j].k] = best == e->shard_k;
    }
    free(t);
    free(load);
    return 0;
}

int evaluator_set_shard(evaluator *e, int k, int n, const param_set *base)
{
    free(e->shard_cost);
    e->shard_cost = NULL;
    e->shard_n = 0;
    if (n <= 1) return 0;
    e->shard_cost = malloc((e->nw ? e->nw : 1) * sizeof *e->shard_cost);
    if (!e->shard_cost) return -1;
    for (size_t w = 0; w < e->nw; w++) {
        const eval_entry *en = base ? evaluator_peek(e, base, w) : NULL;
        e->shard_cost[w] = en && en->status == SIM_OK ? ev_sim_cost(&en->m) : 1;
    }
    e->shard_k = k;
    e->shard_n = n;
    return 0;
}

size_t evaluator_batch(evaluator *e, param_set *const *cfgs, size_t n, const eval_entry **out)
{
    size_t total = n * e->nw;
    batch_task *tasks = malloc((total ? total : 1) * sizeof *tasks);
    unsigned char *mine = e->shard_n ? malloc(total ? total : 1) : NULL;
    if (!tasks || (e->shard_n && !mine)) {
        free(tasks);
        free(mine);
        return n;
    }
    size_t nt = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t keys[2];
        ev_config_keys(e, cfgs[i], keys);
        for (size_t w = 0; w < e->nw; w++) {
            int c;
            eval_entry *en = ev_lookup_or_claim(e, keys, w, &c);
            out[i * e->nw + w] = en;
            if (c) tasks[nt++] = (batch_task){en, i, w, i * e->nw + w, 0};
        }
    }
    for (size_t k = 0; k < total; k++)
        if (!out[k]) {
            free(tasks);
            free(mine);
            return n; /* out of memory: nothing claimed simulates, which the waits below see */
        }
    if (mine && shard_partition(e, out, total, mine) != 0) {
        free(tasks);
        free(mine);
        return n;
    }
    /* the cost estimate, and this shard's share: another shard's simulations are left out */
    ev_lock(e);
    size_t kept = 0;
    for (size_t t = 0; t < nt; t++) {
        batch_task *bt = &tasks[t];
        if (mine && !mine[bt->k]) {
            bt->en->state = EV_SKIPPED;
            continue;
        }
        size_t w = bt->w;
        bt->cost = e->cost_n[w] ? e->cost_sum[w] / (double)e->cost_n[w] : 1;
        tasks[kept++] = *bt;
    }
    pthread_cond_broadcast(&e->done);
    ev_unlock(e);
    nt = kept;
    qsort(tasks, nt, sizeof *tasks, cmp_task);
    if (e->runner) { /* elsewhere, longest first */
        eval_job *jobs = malloc((nt ? nt : 1) * sizeof *jobs);
        for (size_t t = 0; t < nt && jobs; t++)
            jobs[t] = (eval_job){cfgs[tasks[t].i], tasks[t].w, tasks[t].en};
        if (jobs)
            e->runner(e->runner_ctx, e, jobs, nt);
        else
            for (size_t t = 0; t < nt; t++)
                evaluator_skip(e, &(eval_job){cfgs[tasks[t].i], tasks[t].w, tasks[t].en});
        free(jobs);
        nt = 0;
    }
    /* every thread takes the next longest simulation until none is left: no thread waits
     * while work remains, and the longest do not start last */
    struct {
        _Alignas(64) size_t next;
        char pad[64 - sizeof(size_t)];
    } q = {0, {0}};
    /* A thread that finds none left lends itself to the simulations still running (their SMs
     * then step on several threads; docs/architecture.md, "Parallel SMs"): the last, long
     * simulations of a batch do not run alone while the other threads wait. */
    sim_thread_share share;
    atomic_init(&share.idle, 0);
    atomic_init(&share.running, 0);
    share.max = e->threads;
#ifdef _OPENMP
    int nthreads = (size_t)e->threads < nt ? e->threads : (int)(nt ? nt : 1);
    if (e->threads > 1 && omp_get_max_active_levels() < 2) omp_set_max_active_levels(2);
    e->share = e->threads > 1 ? &share : NULL;
    share.idle = e->threads - nthreads; /* threads the batch leaves free from the start */
#pragma omp parallel num_threads(nthreads) default(none) shared(e, cfgs, tasks, nt, q, share)
#endif
    for (;;) {
        size_t t;
#ifdef _OPENMP
#pragma omp atomic capture
#endif
        t = q.next++;
        if (t >= nt) {
            atomic_fetch_add_explicit(&share.idle, 1, memory_order_relaxed);
            break;
        }
        atomic_fetch_add_explicit(&share.running, 1, memory_order_relaxed);
        ev_simulate(e, tasks[t].en, cfgs[tasks[t].i], tasks[t].w);
        atomic_fetch_sub_explicit(&share.running, 1, memory_order_relaxed);
    }
    e->share = NULL;
    size_t skipped = 0;
    for (size_t i = 0; i < n; i++) {
        int any = 0;
        for (size_t w = 0; w < e->nw; w++)
            any |= ev_wait_entry(e, out[i * e->nw + w]) != EV_DONE;
        skipped += (size_t)any;
    }
    free(tasks);
    free(mine);
    return skipped;
}
