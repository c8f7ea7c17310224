#include "explorer/evaluator.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "core/util/hash.h"
#include "core/util/textfile.h"
#include "core/trace.h"
#include "explorer/journal.h"
#include "explorer/progress.h"

volatile sig_atomic_t wt_stop_requested;

#define CHUNK 1024

struct evaluator {
    const space *s;
    size_t nw;
    workload **wl;
    trace_app **tr; /* per workload: its trace, when it is one (docs/traces.md) */
    uint64_t *wid;  /* workload identities */
    int threads;
    double deadline;
    journal *j;
    progress *prog;
    size_t progress_done;
    eval_counts counts;
    /* the memo: open addressing over entry pointers; entries in fixed chunks so pointers stay
     * valid while the table grows */
    eval_entry **table;
    size_t cap, used;
    eval_entry **chunks;
    size_t nchunks, chunk_used;
#ifdef _OPENMP
    omp_lock_t lock;
#endif
};

static void lock(evaluator *e)
{
#ifdef _OPENMP
    omp_set_lock(&e->lock);
#else
    (void)e;
#endif
}

static void unlock(evaluator *e)
{
#ifdef _OPENMP
    omp_unset_lock(&e->lock);
#else
    (void)e;
#endif
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

static uint64_t u64_bytes(uint64_t h, uint64_t v)
{
    unsigned char b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (unsigned char)(v >> (8 * i));
    return wt_fnv1a(h, b, 8);
}

uint64_t evaluator_key(const evaluator *e, const param_set *cfg, size_t w)
{
    uint64_t h = u64_bytes(WT_FNV_INIT, param_set_hash(cfg));
    return u64_bytes(h, e->wid[w]);
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
    if (data) h = u64_bytes(h, data);
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
        e->chunks[e->nchunks] = calloc(CHUNK, sizeof(eval_entry));
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

static void replay_record(void *ctx, const journal_record *r)
{
    evaluator *e = ctx;
    eval_entry *en = memo_find(e, r->key);
    if (!en) en = memo_insert(e, r->key);
    if (!en) return;
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
#ifdef _OPENMP
    omp_init_lock(&e->lock);
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
    if (!e->wl || !e->wid || !e->tr) {
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
    if (journal_path) {
        journal_stats st;
        e->j = journal_open(journal_path, replay_record, e, &st, err, errlen);
        if (!e->j) goto bad;
        e->counts.torn = st.skipped + (size_t)st.truncated;
    }
    return e;
bad:
    evaluator_free(e);
    return NULL;
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
#ifdef _OPENMP
    omp_destroy_lock(&e->lock);
#endif
    free(e);
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
    return wt_stop_requested || (e->deadline > 0 && now() >= e->deadline);
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

static void simulate(evaluator *e, eval_entry *en, const param_set *cfg, size_t w)
{
    if (evaluator_stopped(e)) {
        lock(e);
        en->state = EV_SKIPPED;
        e->counts.skipped++;
        unlock(e);
        return;
    }
    sim_metrics m;
    memset(&m, 0, sizeof m);
    char msg[256] = "";
    sim_status st =
        e->tr[w] ? sim_run_source(cfg, trace_isource_factory, e->tr[w], NULL, &m, msg, sizeof msg)
                 : sim_run(cfg, e->wl[w], NULL, &m, msg, sizeof msg);
    lock(e);
    en->m = m;
    en->status = st;
    snprintf(en->error, sizeof en->error, "%s", st == SIM_OK ? "" : msg);
    en->state = EV_DONE;
    e->counts.simulated++;
    if (st != SIM_OK) e->counts.failed++;
    if (e->j) {
        journal_record r = {en->key, st, e->s->workloads[w].label, m, en->error};
        if (journal_append(e->j, &r) != 0)
            fprintf(stderr, "warptune: warning: cannot append to the journal\n");
    }
    note_progress(e);
    unlock(e);
}

/* Finds the entry of key or claims it (returns 1 in *claimed: the caller simulates it). */
static eval_entry *lookup_or_claim(evaluator *e, uint64_t key, int *claimed)
{
    lock(e);
    eval_entry *en = memo_find(e, key);
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
    unlock(e);
    return en;
}

static int wait_entry(evaluator *e, const eval_entry *en)
{
    for (;;) {
        lock(e);
        int st = en->state;
        unlock(e);
        if (st != EV_PENDING) return st;
#ifdef _OPENMP
#pragma omp taskyield
#endif
        struct timespec ts = {0, 200000};
        nanosleep(&ts, NULL);
    }
}

int evaluator_point(evaluator *e, const param_set *cfg, const eval_entry **out)
{
    eval_entry *claimed[64]; /* the entries this call simulates; NULL for the others */
    eval_entry **cl = e->nw <= 64 ? claimed : malloc(e->nw * sizeof *cl);
    if (!cl) return 1;
    uint64_t h = u64_bytes(WT_FNV_INIT, param_set_hash(cfg));
    for (size_t w = 0; w < e->nw; w++) {
        int c;
        eval_entry *en = lookup_or_claim(e, u64_bytes(h, e->wid[w]), &c);
        if (!en) {
            if (cl != claimed) free(cl);
            return 1;
        }
        out[w] = en;
        cl[w] = c ? en : NULL;
    }
    for (size_t w = 0; w < e->nw; w++) {
        eval_entry *en = cl[w];
        if (!en) continue;
#ifdef _OPENMP
#pragma omp task firstprivate(w, en) shared(cfg, e) default(none)
#endif
        simulate(e, en, cfg, w);
    }
#ifdef _OPENMP
#pragma omp taskwait
#endif
    int skipped = 0;
    for (size_t w = 0; w < e->nw; w++)
        skipped |= wait_entry(e, out[w]) != EV_DONE;
    if (cl != claimed) free(cl);
    return skipped;
}

size_t evaluator_batch(evaluator *e, param_set *const *cfgs, size_t n, const eval_entry **out)
{
    size_t total = n * e->nw;
    eval_entry **cl = calloc(total ? total : 1, sizeof *cl); /* claimed entries, else NULL */
    if (!cl) return n;
    for (size_t i = 0; i < n; i++) {
        uint64_t h = u64_bytes(WT_FNV_INIT, param_set_hash(cfgs[i]));
        for (size_t w = 0; w < e->nw; w++) {
            int c;
            eval_entry *en = lookup_or_claim(e, u64_bytes(h, e->wid[w]), &c);
            out[i * e->nw + w] = en;
            cl[i * e->nw + w] = c ? en : NULL;
        }
    }
#ifdef _OPENMP
#pragma omp parallel num_threads(e->threads) default(none) shared(e, cfgs, cl, total)
#pragma omp single
#endif
    for (size_t k = 0; k < total; k++) {
        eval_entry *en = cl[k];
        if (!en) continue;
        size_t i = k / e->nw, w = k % e->nw;
#ifdef _OPENMP
#pragma omp task firstprivate(en, i, w) shared(e, cfgs) default(none)
#endif
        simulate(e, en, cfgs[i], w);
    }
    size_t skipped = 0;
    for (size_t i = 0; i < n; i++) {
        int any = 0;
        for (size_t w = 0; w < e->nw; w++) {
            const eval_entry *en = out[i * e->nw + w];
            any |= !en || wait_entry(e, en) != EV_DONE;
        }
        skipped += (size_t)any;
    }
    free(cl);
    return skipped;
}

const eval_entry *evaluator_peek(evaluator *e, const param_set *cfg, size_t w)
{
    uint64_t key = evaluator_key(e, cfg, w);
    lock(e);
    eval_entry *en = memo_find(e, key);
    if (en && en->state != EV_DONE) en = NULL;
    unlock(e);
    return en;
}
