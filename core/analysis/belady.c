#include "core/analysis/belady.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/config/config.h"
#include "core/sim/l1d.h"

#define NEVER SIZE_MAX

/* The set index comes from an L1D of the same geometry, so the hash is the cache's own. */
static int first_free(void *self, const l1_request *r, const l1_set_view *s)
{
    (void)self, (void)r;
    return l1_first_free_way(s);
}

static const l1_policy_ops index_only_ops = {
    .name = "belady-index",
    .doc = "",
    .victim = first_free,
};

/* ------------------------------------------------- next use of every access ---- */

typedef struct line_map {
    uint64_t *keys;
    size_t *vals; /* index of the next event on the line */
    uint8_t *used, *inval;
    size_t mask;
} line_map;

static int map_init(line_map *m, size_t n)
{
    size_t cap = 16;
    while (cap < 2 * n)
        cap *= 2;
    m->keys = malloc(cap * sizeof *m->keys);
    m->vals = malloc(cap * sizeof *m->vals);
    m->used = calloc(cap, 1);
    m->inval = calloc(cap, 1);
    m->mask = cap - 1;
    return m->keys && m->vals && m->used && m->inval ? 0 : -1;
}

static void map_free(line_map *m)
{
    free(m->keys);
    free(m->vals);
    free(m->used);
    free(m->inval);
}

static size_t map_slot(const line_map *m, uint64_t key)
{
    uint64_t h = key * 0x9e3779b97f4a7c15ull;
    size_t i = (size_t)(h >> 17) & m->mask;
    while (m->used[i] && m->keys[i] != key)
        i = (i + 1) & m->mask;
    return i;
}

/* next[i]: for a load, the index of the next load of its line, or NEVER when there is none or
 * an invalidation of the line comes first. */
static int next_uses(const belady_access *a, size_t n, size_t *next)
{
    line_map m;
    if (map_init(&m, n) != 0) {
        map_free(&m);
        return -1;
    }
    for (size_t k = n; k-- > 0;) {
        size_t i = map_slot(&m, a[k].line);
        if (!a[k].invalidate) next[k] = m.used[i] && !m.inval[i] ? m.vals[i] : NEVER;
        m.used[i] = 1;
        m.keys[i] = a[k].line;
        m.vals[i] = k;
        m.inval[i] = a[k].invalidate;
    }
    map_free(&m);
    return 0;
}

/* ------------------------------------------------------------------ the passes ---- */

typedef struct opt_cache {
    uint64_t *line;
    size_t *next;
    uint8_t *valid;
} opt_cache;

static int cache_init(opt_cache *c, size_t lines)
{
    c->line = calloc(lines, sizeof *c->line);
    c->next = calloc(lines, sizeof *c->next);
    c->valid = calloc(lines, 1);
    return c->line && c->next && c->valid ? 0 : -1;
}

static void cache_free(opt_cache *c)
{
    free(c->line);
    free(c->next);
    free(c->valid);
}

/* One access to a set of `ways` lines starting at base. Returns 1 on a miss. */
static int access_set(opt_cache *c, size_t base, int ways, uint64_t line, size_t next,
                      int invalidate, int may_bypass)
{
    int free_way = -1, far = -1;
    for (int w = 0; w < ways; w++) {
        size_t i = base + (size_t)w;
        if (!c->valid[i]) {
            if (free_way < 0) free_way = w;
            continue;
        }
        if (c->line[i] == line) {
            if (invalidate)
                c->valid[i] = 0;
            else
                c->next[i] = next;
            return 0;
        }
        if (far < 0 || c->next[i] > c->next[base + (size_t)far]) far = w;
    }
    if (invalidate) return 0;
    int way = free_way;
    if (way < 0) {
        if (may_bypass && next >= c->next[base + (size_t)far]) return 1;
        way = far;
    }
    size_t i = base + (size_t)way;
    c->valid[i] = 1;
    c->line[i] = line;
    c->next[i] = next;
    return 1;
}

int belady_run(const belady_geometry *g, const belady_access *a, size_t n, belady_result *out)
{
    memset(out, 0, sizeof *out);
    if (g->sets < 1 || g->ways < 1) return -1;
    l1d *idx = NULL;
    l1d_config cfg = {g->sets, g->ways, g->line_bytes, g->hash, 1, 1, 0, 0, 0};
    l1_env env = {{g->sets, g->ways, g->line_bytes}, 0, 1, NULL, false};
    char err[256];
    size_t lines = (size_t)g->sets * (size_t)g->ways;
    size_t *next = malloc((n ? n : 1) * sizeof *next);
    opt_cache min = {0}, byp = {0};
    int rc = -1;
    if (!next || cache_init(&min, lines) != 0 || cache_init(&byp, lines) != 0) goto out;
    if (l1d_create(&idx, &cfg, &index_only_ops, &env, NULL, err, sizeof err) != 0) goto out;
    if (next_uses(a, n, next) != 0) goto out;
    for (size_t k = 0; k < n; k++) {
        size_t base = (size_t)l1d_set_of(idx, a[k].line) * (size_t)g->ways;
        int inv = a[k].invalidate;
        size_t nx = inv ? NEVER : next[k];
        out->loads += !inv;
        out->misses += (uint64_t)access_set(&min, base, g->ways, a[k].line, nx, inv, 0);
        out->bypass_misses += (uint64_t)access_set(&byp, base, g->ways, a[k].line, nx, inv, 1);
    }
    rc = 0;
out:
    l1d_destroy(idx);
    cache_free(&min);
    cache_free(&byp);
    free(next);
    return rc;
}

/* ------------------------------------------------------------------ recording ---- */

typedef struct sm_stream {
    belady_access *a;
    size_t n, cap;
} sm_stream;

struct belady_recorder {
    sm_stream *sm;
    int nsm;
    int failed; /* out of memory while recording */
};

belady_recorder *belady_recorder_new(void)
{
    return calloc(1, sizeof(belady_recorder));
}

void belady_recorder_free(belady_recorder *r)
{
    if (!r) return;
    for (int i = 0; i < r->nsm; i++)
        free(r->sm[i].a);
    free(r->sm);
    free(r);
}

void belady_observe(void *recorder, const l1_access_record *rec)
{
    belady_recorder *r = recorder;
    int load = strcmp(rec->kind, "load") == 0;
    if (load && strcmp(rec->outcome, "reservation_fail") == 0) return;
    if (!load && strcmp(rec->outcome, "hit") != 0) return;
    if (r->failed || rec->sm < 0) return;
    if (rec->sm >= r->nsm) {
        int n = rec->sm + 1;
        sm_stream *s = realloc(r->sm, (size_t)n * sizeof *s);
        if (!s) {
            r->failed = 1;
            return;
        }
        memset(s + r->nsm, 0, (size_t)(n - r->nsm) * sizeof *s);
        r->sm = s;
        r->nsm = n;
    }
    sm_stream *s = &r->sm[rec->sm];
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 1024;
        belady_access *a = realloc(s->a, cap * sizeof *a);
        if (!a) {
            r->failed = 1;
            return;
        }
        s->a = a;
        s->cap = cap;
    }
    s->a[s->n++] = (belady_access){rec->line, (uint8_t)!load};
}

int belady_recorder_result(const belady_recorder *r, const param_set *config, belady_result *out,
                           char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (r->failed) {
        snprintf(err, errlen, "out of memory recording the L1D stream");
        return -1;
    }
    belady_geometry g = {(int)param_get_int(config, "l1d.sets"),
                         (int)param_get_int(config, "l1d.ways"),
                         (int)param_get_int(config, "l1d.line"),
                         param_get_choice_index(config, "l1d.hash") == L1D_HASH_xor};
    for (int i = 0; i < r->nsm; i++) {
        belady_result one;
        if (belady_run(&g, r->sm[i].a, r->sm[i].n, &one) != 0) {
            snprintf(err, errlen, "the Belady pass failed (out of memory)");
            return -1;
        }
        out->loads += one.loads;
        out->misses += one.misses;
        out->bypass_misses += one.bypass_misses;
    }
    return 0;
}

void belady_fill_metrics(const belady_result *b, sim_metrics *m)
{
    m->belady_misses = (double)b->misses;
    m->belady_bypass_misses = (double)b->bypass_misses;
    m->belady_mpki = m->warp_insts > 0 ? 1000.0 * (double)b->misses / m->warp_insts : 0.0;
}
