#include "explorer/evaluator.h"
#include "explorer/evaluator_internal.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "core/util/hash.h"
#include "core/util/textfile.h"
#include "core/trace/trace.h"
#include "explorer/journal.h"
#include "explorer/simulate.h"
#include "explorer/progress.h"

volatile sig_atomic_t wt_stop_requested;

void ev_lock(evaluator *e)
{
    pthread_mutex_lock(&e->mu);
}

void ev_unlock(evaluator *e)
{
    pthread_mutex_unlock(&e->mu);
}

/* The cost of one simulation of m: its warp instructions (at least 1). */
double ev_sim_cost(const sim_metrics *m)
{
    double v = m->warp_insts;
    return isfinite(v) && v >= 1 ? v : 1;
}

static void note_cost(evaluator *e, size_t w, const sim_metrics *m)
{
    e->cost_sum[w] += ev_sim_cost(m);
    e->cost_n[w]++;
}

static double now(void)
{
#ifdef _OPENMP
    return omp_get_wtime();
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
#endif
}

uint64_t ev_u64_bytes(uint64_t h, uint64_t v)
{
    unsigned char b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (unsigned char)(v >> (8 * i));
    return wt_fnv1a(h, b, 8);
}

/* The configuration hash of journal version v's keys (journal.h). */
static uint64_t config_hash(int version, const param_set *cfg)
{
    return version == 1 ? param_set_hash_all(cfg) : param_set_hash(cfg);
}

void ev_config_keys(const evaluator *e, const param_set *cfg, uint64_t keys[2])
{
    keys[0] = ev_u64_bytes(WT_FNV_INIT, config_hash(e->key_version, cfg));
    keys[1] = e->alt_version ? ev_u64_bytes(WT_FNV_INIT, config_hash(e->alt_version, cfg)) : 0;
}

uint64_t evaluator_key(const evaluator *e, const param_set *cfg, size_t w)
{
    uint64_t keys[2];
    ev_config_keys(e, cfg, keys);
    return ev_u64_bytes(keys[0], e->wid[w]);
}

static int cmp_override(const void *a, const void *b)
{
    return strcmp(((const wl_override *)a)->name, ((const wl_override *)b)->name);
}

/* The identity of a workload: its name, the hash of its text and its sorted overrides, and the
 * bytes of the files it reads (data files of a workload, kernel files of a trace), so that an
 * edited file is simulated again rather than replayed from the journal. A workload without
 * data files keeps the identity it had before data files counted. */
static int workload_identity(const space_workload *w, const workload *wl, const trace_app *tr,
                             uint64_t *out, char *err, size_t errlen)
{
    const char *text = NULL;
    char *owned = NULL;
    size_t l = strlen(w->name);
    if (strchr(w->name, '/') || (l > 3 && !strcmp(w->name + l - 3, ".wl")) ||
        trace_name_is_list(w->name)) {
        owned = wt_read_file(w->name, NULL);
        if (!owned) {
            snprintf(err, errlen, "%s: cannot read the workload", w->name);
            return -1;
        }
        text = owned;
    } else {
        for (size_t i = 0; i < workload_builtin_count(); i++)
            if (!strcmp(workload_builtin_name(i), w->name)) text = workload_builtin_text(i);
        if (!text) {
            snprintf(err, errlen, "unknown workload '%s'", w->name);
            return -1;
        }
    }
    uint64_t h = wt_fnv1a(WT_FNV_INIT, w->name, strlen(w->name) + 1);
    h = wt_fnv1a(h, text, strlen(text) + 1);
    free(owned);
    wl_override *ov = malloc((w->nov ? w->nov : 1) * sizeof *ov);
    if (!ov) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (w->nov) memcpy(ov, w->ov, w->nov * sizeof *ov); /* w->ov is NULL without params */
    qsort(ov, w->nov, sizeof *ov, cmp_override);
    for (size_t i = 0; i < w->nov; i++) {
        h = wt_fnv1a(h, ov[i].name, strlen(ov[i].name) + 1);
        h = wt_fnv1a(h, ov[i].value, strlen(ov[i].value) + 1);
    }
    free(ov);
    uint64_t data = wl ? workload_data_hash(wl) : 0;
    if (tr && trace_content_hash(tr, &data, err, errlen) != 0) return -1;
    if (data) h = ev_u64_bytes(h, data);
    *out = h;
    return 0;
}

/* ---------------------------------------------------------------- the memo */

static eval_entry *memo_find(evaluator *e, uint64_t key)
{
    size_t mask = e->cap - 1;
    for (size_t i = (size_t)(key ^ (key >> 29)) & mask;; i = (i + 1) & mask) {
        if (!e->table[i]) return NULL;
        if (e->table[i]->key == key) return e->table[i];
    }
}

static void memo_put(evaluator *e, eval_entry *en)
{
    size_t mask = e->cap - 1;
    size_t i = (size_t)(en->key ^ (en->key >> 29)) & mask;
    while (e->table[i])
        i = (i + 1) & mask;
    e->table[i] = en;
    e->used++;
}

static eval_entry *memo_insert(evaluator *e, uint64_t key)
{
    if ((e->used + 1) * 2 > e->cap) {
        size_t old = e->cap;
        eval_entry **t = e->table;
        e->cap = old ? old * 2 : 4096;
        e->table = calloc(e->cap, sizeof *e->table);
        if (!e->table) {
            e->table = t;
            e->cap = old;
            return NULL;
        }
        e->used = 0;
        for (size_t i = 0; i < old; i++)
            if (t[i]) memo_put(e, t[i]);
        free(t);
    }
    if (e->nchunks == 0 || e->chunk_used == CHUNK) {
        eval_entry **c = realloc(e->chunks, (e->nchunks + 1) * sizeof *c);
        if (!c) return NULL;
        e->chunks = c;
        /* entries start on cache lines of their own: threads finishing simulations side by
         * side do not write to one line */
        e->chunks[e->nchunks] = aligned_alloc(_Alignof(eval_entry), CHUNK * sizeof(eval_entry));
        if (!e->chunks[e->nchunks]) return NULL;
        e->nchunks++;
        e->chunk_used = 0;
    }
    eval_entry *en = &e->chunks[e->nchunks - 1][e->chunk_used++];
    memset(en, 0, sizeof *en);
    en->key = key;
    en->state = EV_PENDING;
    memo_put(e, en);
    return en;
}

/* The workload of a journal record, by its label (for the cost estimate only). */
static size_t workload_of_label(const evaluator *e, const char *label)
{
    for (size_t w = 0; w < e->nw; w++)
        if (e->s->workloads[w].label && !strcmp(e->s->workloads[w].label, label)) return w;
    return e->nw;
}

static void replay_record(void *ctx, const journal_record *r)
{
    evaluator *e = ctx;
    eval_entry *en = memo_find(e, r->key);
    if (!en) en = memo_insert(e, r->key);
    if (!en || en->state == EV_DONE) return; /* a simulation in two journals counts once */
    size_t w = workload_of_label(e, r->label);
    if (w < e->nw) note_cost(e, w, &r->m);
    en->state = EV_DONE;
    en->status = r->status;
    en->from_journal = 1;
    en->m = r->m;
    snprintf(en->error, sizeof en->error, "%s", r->error);
    e->counts.journal_records++;
}

/* ---------------------------------------------------------------- life cycle */

evaluator *evaluator_new(const space *s, const char *journal_path, int threads, char *err,
                         size_t errlen)
{
    evaluator *e = calloc(1, sizeof *e);
    if (!e) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    pthread_mutex_init(&e->mu, NULL);
    pthread_cond_init(&e->done, NULL);
#ifdef _OPENMP
    e->threads = threads > 0 ? threads : omp_get_max_threads();
#else
    (void)threads;
    e->threads = 1;
#endif
    e->s = s;
    e->nw = s->nworkloads;
    e->wl = calloc(e->nw, sizeof *e->wl);
    e->wid = calloc(e->nw, sizeof *e->wid);
    e->tr = calloc(e->nw, sizeof *e->tr);
    e->cost_sum = calloc(e->nw ? e->nw : 1, sizeof *e->cost_sum);
    e->cost_n = calloc(e->nw ? e->nw : 1, sizeof *e->cost_n);
    if (!e->wl || !e->wid || !e->tr || !e->cost_sum || !e->cost_n) {
        snprintf(err, errlen, "out of memory");
        goto bad;
    }
    for (size_t w = 0; w < e->nw; w++) {
        const space_workload *sw = &s->workloads[w];
        if (trace_name_is_list(sw->name)
                ? trace_open(sw->name, &e->tr[w], err, errlen) != 0
                : workload_load(sw->name, sw->ov, sw->nov, &e->wl[w], err, errlen) != 0)
            goto bad;
        /* A malformed kernel file is bad input, as a workload that does not parse is: found
         * here, before the study starts, rather than recorded as a failed point per run. */
        trace_scan_stats ts;
        if (e->tr[w] && trace_scan(e->tr[w], &ts, err, errlen) != 0) goto bad;
        if (workload_identity(sw, e->wl[w], e->tr[w], &e->wid[w], err, errlen) != 0) goto bad;
    }
    e->cap = 4096;
    e->table = calloc(e->cap, sizeof *e->table);
    if (!e->table) {
        snprintf(err, errlen, "out of memory");
        goto bad;
    }
    e->key_version = JOURNAL_VERSION;
    if (journal_path && evaluator_open_journal(e, journal_path, err, errlen) != 0) goto bad;
    return e;
bad:
    evaluator_free(e);
    return NULL;
}

int evaluator_open_journal(evaluator *e, const char *path, char *err, size_t errlen)
{
    journal_stats st;
    e->j = space_samples(e->s) ? journal_open_sampled(path, replay_record, e, &st, err, errlen)
                               : journal_open(path, replay_record, e, &st, err, errlen);
    if (!e->j) return st.io_failed ? -2 : -1;
    e->counts.torn = st.skipped + (size_t)st.truncated;
    /* a study resumed on an older journal goes on with its keys */
    e->key_version = journal_version(e->j);
    return 0;
}

int evaluator_replay(evaluator *e, const char *path, char *err, size_t errlen)
{
    journal_stats st;
    journal *j = journal_open(path, replay_record, e, &st, err, errlen);
    if (!j) return st.io_failed ? -2 : -1;
    journal_close(j);
    e->counts.torn += st.skipped + (size_t)st.truncated;
    if (st.replayed && st.version != e->key_version) e->alt_version = st.version;
    return 0;
}

void evaluator_free(evaluator *e)
{
    if (!e) return;
    for (size_t w = 0; w < e->nw; w++)
        if (e->wl) workload_free(e->wl[w]);
    for (size_t w = 0; w < e->nw; w++)
        if (e->tr) trace_close(e->tr[w]);
    free(e->wl);
    free(e->tr);
    free(e->wid);
    journal_close(e->j);
    for (size_t i = 0; i < e->nchunks; i++)
        free(e->chunks[i]);
    free(e->chunks);
    free(e->table);
    free(e->cost_sum);
    free(e->cost_n);
    free(e->shard_cost);
    pthread_mutex_destroy(&e->mu);
    pthread_cond_destroy(&e->done);
    free(e);
}

size_t evaluator_workloads(const evaluator *e)
{
    return e->nw;
}

int evaluator_threads(const evaluator *e)
{
    return e->threads;
}

void evaluator_set_deadline(evaluator *e, double when)
{
    e->deadline = when;
}

void evaluator_set_progress(evaluator *e, progress *p)
{
    e->prog = p;
}

int evaluator_stopped(const evaluator *e)
{
    return wt_stop_requested || e->failed || (e->deadline > 0 && now() >= e->deadline);
}

const char *evaluator_failure(const evaluator *e)
{
    return e->failed ? e->failure : NULL;
}

eval_counts evaluator_counts(const evaluator *e)
{
    return e->counts;
}

/* ---------------------------------------------------------------- simulating */

static void note_progress(evaluator *e)
{
    e->progress_done++;
    if (e->prog) progress_update(e->prog, e->progress_done, e->counts.failed);
}

sim_status evaluator_simulate(const evaluator *e, const param_set *cfg, size_t w, sim_metrics *m,
                              char *msg, size_t msglen)
{
    memset(m, 0, sizeof *m);
    msg[0] = '\0';
    sim_options opt = {0};
    opt.share = e->share;
    return e->tr[w] ? sim_run_source(cfg, trace_isource_factory, e->tr[w], &opt, m, msg, msglen)
                    : sim_run(cfg, e->wl[w], &opt, m, msg, msglen);
}

void evaluator_skip(evaluator *e, const eval_job *job)
{
    eval_entry *en = job->entry;
    ev_lock(e);
    en->state = EV_SKIPPED;
    e->counts.skipped++;
    pthread_cond_broadcast(&e->done);
    ev_unlock(e);
}

void evaluator_finish(evaluator *e, const eval_job *job, sim_status st, const sim_metrics *m,
                      const char *msg)
{
    eval_entry *en = job->entry;
    size_t w = job->w;
    ev_lock(e);
    en->m = *m;
    en->status = st;
    snprintf(en->error, sizeof en->error, "%s", st == SIM_OK ? "" : msg);
    en->state = EV_DONE;
    note_cost(e, w, m);
    e->counts.simulated++;
    if (st != SIM_OK) e->counts.failed++;
    /* A result the journal cannot take would be simulated again by the next run, and so would
     * every later one: the study stops at the first (no simulation starts after it; the ones
     * running finish unrecorded) and fails, leaving what the journal holds whole. */
    if (e->j && !e->failed) {
        journal_record r = {en->key, st, e->s->workloads[w].label, *m, en->error};
        if (journal_append(e->j, &r) != 0) {
            snprintf(e->failure, sizeof e->failure,
                     "%s: cannot append to the journal: %s; the study stopped, keeping the "
                     "journal's records (%zu of them from this run): rerun it once the journal "
                     "can be written",
                     journal_path(e->j), strerror(errno), e->appended);
            e->failed = 1;
        } else {
            e->appended++;
        }
    }
    note_progress(e);
    pthread_cond_broadcast(&e->done);
    ev_unlock(e);
}

void ev_simulate(evaluator *e, eval_entry *en, const param_set *cfg, size_t w)
{
    eval_job job = {cfg, w, en};
    if (evaluator_stopped(e)) {
        evaluator_skip(e, &job);
        return;
    }
    sim_metrics m;
    char msg[256];
    sim_status st = evaluator_simulate(e, cfg, w, &m, msg, sizeof msg);
    evaluator_finish(e, &job, st, &m, msg);
}

void evaluator_set_runner(evaluator *e, eval_runner_fn fn, void *ctx)
{
    e->runner = fn;
    e->runner_ctx = ctx;
}

eval_entry *ev_lookup_or_claim(evaluator *e, const uint64_t keys[2], size_t w, int *claimed)
{
    uint64_t key = ev_u64_bytes(keys[0], e->wid[w]);
    ev_lock(e);
    eval_entry *en = memo_find(e, key);
    if (!en && keys[1]) en = memo_find(e, ev_u64_bytes(keys[1], e->wid[w]));
    *claimed = 0;
    if (!en) {
        en = memo_insert(e, key);
        *claimed = en != NULL;
    } else {
        /* done or still running in another thread: not simulated again either way, so the
         * count does not depend on timing */
        e->counts.memo_hits++;
        if (en->state == EV_DONE && en->from_journal == 1) {
            en->from_journal = 2; /* counted once as progress, and as replayed */
            e->counts.replayed++;
            note_progress(e);
        }
    }
    ev_unlock(e);
    return en;
}

/* Waits (asleep) until en is no longer pending. Only called once the caller's own claimed
 * simulations are done, so the one it waits for is running on another thread. */
int ev_wait_entry(evaluator *e, const eval_entry *en)
{
    ev_lock(e);
    while (en->state == EV_PENDING)
        pthread_cond_wait(&e->done, &e->mu);
    int st = en->state;
    ev_unlock(e);
    return st;
}

int evaluator_point(evaluator *e, const param_set *cfg, const eval_entry **out)
{
    eval_entry *claimed[64]; /* the entries this call simulates; NULL for the others */
    eval_entry **cl = e->nw <= 64 ? claimed : malloc(e->nw * sizeof *cl);
    if (!cl) return 1;
    uint64_t keys[2];
    ev_config_keys(e, cfg, keys);
    for (size_t w = 0; w < e->nw; w++) {
        int c;
        eval_entry *en = ev_lookup_or_claim(e, keys, w, &c);
        if (!en) {
            if (cl != claimed) free(cl);
            return 1;
        }
        out[w] = en;
        cl[w] = c ? en : NULL;
    }
    if (e->runner) {
        eval_job jobs[64];
        eval_job *j = e->nw <= 64 ? jobs : malloc(e->nw * sizeof *j);
        size_t nj = 0;
        for (size_t w = 0; w < e->nw; w++)
            if (cl[w] && j) j[nj++] = (eval_job){cfg, w, cl[w]};
        if (j) e->runner(e->runner_ctx, e, j, nj);
        if (j != jobs) free(j);
    }
    for (size_t w = 0; w < e->nw && !e->runner; w++) {
        eval_entry *en = cl[w];
        if (!en) continue;
#ifdef _OPENMP
#pragma omp task firstprivate(w, en) shared(cfg, e) default(none)
#endif
        ev_simulate(e, en, cfg, w);
    }
#ifdef _OPENMP
#pragma omp taskwait
#endif
    int skipped = 0;
    for (size_t w = 0; w < e->nw; w++)
        skipped |= ev_wait_entry(e, out[w]) != EV_DONE;
    if (cl != claimed) free(cl);
    return skipped;
}

const eval_entry *evaluator_peek(evaluator *e, const param_set *cfg, size_t w)
{
    uint64_t keys[2];
    ev_config_keys(e, cfg, keys);
    ev_lock(e);
    eval_entry *en = memo_find(e, ev_u64_bytes(keys[0], e->wid[w]));
    if (!en && keys[1]) en = memo_find(e, ev_u64_bytes(keys[1], e->wid[w]));
    if (en && en->state != EV_DONE) en = NULL;
    ev_unlock(e);
    return en;
}
