/* CCWS, cache-conscious warp scheduling (CCWS section 3.3), on top of GTO (CCWS 5.1).
 *
 * Lost intra-warp locality detector (3.3.3): each warp has a small victim tag array (VTA) of
 * ccws.vta_entries tags, ccws.vta_ways-way set-associative, LRU. When the L1D evicts a line,
 * its tag goes to the VTA of the warp that reserved the line; when a warp misses, its own VTA
 * is probed, and a hit means the warp lost locality it would have kept with more exclusive
 * access to the cache.
 *
 * Locality scoring (3.3.4-3.3.5): every warp has a lost-locality score (LLS), starting at
 * ccws.base_score; a VTA hit raises it to the lost-locality detected score
 *   LLDS = (VTA hits / instructions issued) * K_throttle * cumulative cutoff   (eq. 1)
 * (never above it, never below the base); scores fall by one per cycle down to the base. The
 * cumulative LLS cutoff is live warps x base score. Warps sorted by score, largest first, are
 * stacked; a warp whose segment starts at or above the cutoff may not issue global loads.
 *
 * The scoring system is the SM's (CCWS 3.3, Fig. 5: one per SM, over all its warps): with
 * several schedulers per SM their instances share it (sched_ops.create_shared), and only GTO's
 * greedy warp is each scheduler's own. ccws.scope=scheduler gives each scheduler its own
 * scoring over its own warps instead, an earlier reading. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/policy.h"

#define SCOPE_CHOICES(X, p) X(p, sm) X(p, scheduler)
WT_CHOICE_ENUM(SCOPE);
static const char *const scope_names[] = WT_CHOICE_NAMES(SCOPE);

static const param_def ccws_params[] = {
    {"ccws.k_throttle", PT_REAL, 8, 0, 1e6, NULL, "",
     "K_THROTTLE of eq. 1: how hard lost locality throttles (CCWS Table 3: 8)"},
    {"ccws.base_score", PT_INT, 100, 1, 1e9, NULL, "points",
     "a warp's base locality score (CCWS Table 3: 100)"},
    {"ccws.vta_entries", PT_INT, 16, 1, 4096, NULL, "tags",
     "victim tag array entries per warp (CCWS Table 3: 16, 512 for 32 warps)"},
    {"ccws.vta_ways", PT_INT, 8, 1, 4096, NULL, "ways",
     "victim tag array associativity; divides ccws.vta_entries (CCWS Table 3: 8-way)"},
    {"ccws.scope", PT_CHOICE, SCOPE_sm, 0, 0, scope_names, "",
     "whose warps one scoring system covers: the SM's (CCWS 3.3) or each warp scheduler's"},
};

/* The lost-locality scoring of one SM (or of one scheduler, ccws.scope=scheduler). */
typedef struct ccws_scores {
    int max_warps;
    int sets, ways;
    double k_throttle;
    int64_t base;
    uint64_t decayed_to; /* scores have fallen for every cycle before this one */
    bool *live;
    uint64_t *age;
    int64_t *score;
    uint64_t *vta;     /* max_warps x sets x ways tags, 0 = empty; tags are line address + 1 */
    uint64_t *vta_use; /* insertion stamps, same layout */
    uint64_t clock;
    uint64_t vta_hits, issued;
    bool *can_load; /* the can-issue bits, valid while !dirty */
    bool dirty;
    int *order; /* scratch for the cutoff test */
} ccws_scores;

typedef struct ccws {
    ccws_scores *sc;
    bool owns_scores; /* its own scoring (ccws.scope=scheduler, or made outside an SM) */
    bool reports;     /* adds the scores' statistics at the end: one instance per scoring */
    int last;         /* GTO's greedy warp, or -1 */
} ccws;

static void scores_free(ccws_scores *s)
{
    if (!s) return;
    free(s->live), free(s->age), free(s->score), free(s->vta), free(s->vta_use);
    free(s->can_load), free(s->order), free(s);
}

static ccws_scores *scores_new(int max_warps, const param_set *p)
{
    int entries = (int)param_get_int(p, "ccws.vta_entries");
    int ways = (int)param_get_int(p, "ccws.vta_ways");
    ccws_scores *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    int w = max_warps;
    s->max_warps = w;
    s->ways = ways;
    s->sets = entries / ways;
    s->k_throttle = param_get_real(p, "ccws.k_throttle");
    s->base = param_get_int(p, "ccws.base_score");
    s->live = calloc((size_t)w, sizeof *s->live);
    s->age = calloc((size_t)w, sizeof *s->age);
    s->score = calloc((size_t)w, sizeof *s->score);
    s->vta = calloc((size_t)w * (size_t)entries, sizeof *s->vta);
    s->vta_use = calloc((size_t)w * (size_t)entries, sizeof *s->vta_use);
    s->can_load = calloc((size_t)w, sizeof *s->can_load);
    s->order = calloc((size_t)w, sizeof *s->order);
    if (!s->live || !s->age || !s->score || !s->vta || !s->vta_use || !s->can_load || !s->order) {
        scores_free(s);
        return NULL;
    }
    s->dirty = true;
    return s;
}

static bool scope_is_sm(const param_set *p)
{
    return param_get_choice_index(p, "ccws.scope") == SCOPE_sm;
}

static int ccws_create_shared(void **shared, const sched_env *env, const param_set *p)
{
    *shared = NULL;
    if (!scope_is_sm(p)) return 0; /* each scheduler makes its own */
    *shared = scores_new(env->max_warps, p);
    return *shared ? 0 : -1;
}

static void ccws_destroy_shared(void *shared)
{
    scores_free(shared);
}

static int ccws_create(void **self, const sched_env *env, const param_set *p, char *err,
                       size_t errlen)
{
    int entries = (int)param_get_int(p, "ccws.vta_entries");
    int ways = (int)param_get_int(p, "ccws.vta_ways");
    if (ways > entries || entries % ways != 0) {
        snprintf(err, errlen, "ccws.vta_ways=%d must divide ccws.vta_entries=%d", ways, entries);
        return -1;
    }
    ccws *s = calloc(1, sizeof *s);
    if (!s) return -1;
    s->last = -1;
    s->owns_scores = !env->shared || !scope_is_sm(p);
    s->sc = s->owns_scores ? scores_new(env->max_warps, p) : env->shared;
    s->reports = s->owns_scores || env->scheduler == 0;
    if (!s->sc) {
        free(s);
        return -1;
    }
    *self = s;
    return 0;
}

static void ccws_destroy(void *self)
{
    ccws *s = self;
    if (s->owns_scores) scores_free(s->sc);
    free(s);
}

static void announce(ccws_scores *s, int slot, uint64_t age)
{
    s->live[slot] = true;
    s->age[slot] = age;
    s->score[slot] = s->base;
    size_t n = (size_t)s->sets * (size_t)s->ways;
    for (size_t i = 0; i < n; i++)
        s->vta[(size_t)slot * n + i] = 0;
    s->dirty = true;
}

static int ccws_pick(void *self, const warp_view *const *ready, int n, uint64_t now)
{
    (void)now;
    ccws *s = self;
    int oldest = 0;
    for (int i = 0; i < n; i++) {
        if (!s->sc->live[ready[i]->slot]) announce(s->sc, ready[i]->slot, ready[i]->age);
        if (ready[i]->slot == s->last) return i;
        if (ready[i]->age < ready[oldest]->age) oldest = i;
    }
    s->last = ready[oldest]->slot;
    return oldest;
}

/* ------------------------------------------------------------- victim tag array ---- */

static size_t vta_set(const ccws_scores *s, int warp, uint64_t line)
{
    uint64_t h = (line >> 5) * 0x9E3779B97F4A7C15ULL; /* lines are aligned: mix the bits */
    size_t set = (size_t)(h >> 40) % (size_t)s->sets;
    return ((size_t)warp * (size_t)s->sets + set) * (size_t)s->ways;
}

static void vta_insert(ccws_scores *s, int warp, uint64_t line)
{
    size_t b = vta_set(s, warp, line);
    uint64_t tag = line + 1;
    int way = -1;
    for (int i = 0; i < s->ways && way < 0; i++) /* already there: refresh it */
        if (s->vta[b + i] == tag) way = i;
    for (int i = 0; i < s->ways && way < 0; i++) /* a free way */
        if (!s->vta[b + i]) way = i;
    if (way < 0) { /* the least recently inserted */
        way = 0;
        for (int i = 1; i < s->ways; i++)
            if (s->vta_use[b + i] < s->vta_use[b + way]) way = i;
    }
    s->vta[b + way] = tag;
    s->vta_use[b + way] = ++s->clock;
}

/* Probes the warp's VTA; a hit removes the tag (the line is on its way back into the L1D). */
static bool vta_probe(ccws_scores *s, int warp, uint64_t line)
{
    size_t b = vta_set(s, warp, line);
    for (int i = 0; i < s->ways; i++) {
        if (s->vta[b + i] == line + 1) {
            s->vta[b + i] = 0;
            return true;
        }
    }
    return false;
}

/* --------------------------------------------------------------- locality scores ---- */

static int live_count(const ccws_scores *s)
{
    int n = 0;
    for (int i = 0; i < s->max_warps; i++)
        n += s->live[i];
    return n;
}

/* eq. 1 */
static int64_t llds(const ccws_scores *s)
{
    if (!s->issued) return s->base;
    double cutoff = (double)live_count(s) * (double)s->base;
    double v = (double)s->vta_hits / (double)s->issued * s->k_throttle * cutoff;
    if (v > 4e18) v = 4e18;
    return v > (double)s->base ? (int64_t)v : s->base;
}

static void ccws_on_l1_event(void *self, const l1_event *e)
{
    ccws_scores *s = ((ccws *)self)->sc;
    if (e->warp_slot < 0 || e->warp_slot >= s->max_warps) return;
    if (e->kind == L1E_EVICT) {
        vta_insert(s, e->warp_slot, e->line_addr);
    } else if (e->kind == L1E_MISS && vta_probe(s, e->warp_slot, e->line_addr)) {
        s->vta_hits++;
        s->score[e->warp_slot] = llds(s); /* raised to the LLDS, capped at it */
        s->dirty = true;
    }
}

static void ccws_on_cycles(void *self, uint64_t from, uint64_t to)
{
    ccws_scores *s = ((ccws *)self)->sc;
    /* every scheduler of the SM reports the same span: the shared scores fall once */
    if (from < s->decayed_to) from = s->decayed_to;
    if (to <= from) return;
    s->decayed_to = to;
    uint64_t d = to - from;
    for (int i = 0; i < s->max_warps; i++) {
        if (!s->live[i] || s->score[i] == s->base) continue;
        s->score[i] = (uint64_t)(s->score[i] - s->base) > d ? s->score[i] - (int64_t)d : s->base;
        s->dirty = true;
    }
}

/* The LLS cutoff test: stack the live warps by score, largest first (older first on ties, as
 * GTO would); those starting at or above live x base may not issue loads. */
static void cutoff_test(ccws_scores *s)
{
    int n = 0;
    for (int i = 0; i < s->max_warps; i++) {
        s->can_load[i] = true;
        if (!s->live[i]) continue;
        int j = n++;
        while (j > 0) {
            int o = s->order[j - 1];
            if (s->score[o] > s->score[i] || (s->score[o] == s->score[i] && s->age[o] < s->age[i]))
                break;
            s->order[j] = o;
            j--;
        }
        s->order[j] = i;
    }
    int64_t cutoff = (int64_t)n * s->base, below = 0;
    for (int k = 0; k < n; k++) {
        int w = s->order[k];
        s->can_load[w] = below < cutoff;
        below += s->score[w];
    }
    s->dirty = false;
}

static bool ccws_may_issue_load(void *self, int warp_slot)
{
    ccws_scores *s = ((ccws *)self)->sc;
    if (s->dirty) cutoff_test(s);
    return s->can_load[warp_slot];
}

static void ccws_on_issue(void *self, const warp_view *w, uint64_t now)
{
    (void)w, (void)now;
    ((ccws *)self)->sc->issued++;
}

static void ccws_on_warp_start(void *self, const warp_view *w, uint64_t now)
{
    (void)now;
    announce(((ccws *)self)->sc, w->slot, w->age);
}

static void ccws_on_warp_exit(void *self, int warp_slot, uint64_t now)
{
    (void)now;
    ccws *s = self;
    s->sc->live[warp_slot] = false;
    s->sc->dirty = true;
    if (s->last == warp_slot) s->last = -1;
}

enum { M_VTA_HITS, M_COUNT };
static const metric_def ccws_metrics[M_COUNT] = {
    [M_VTA_HITS] = {"vta_hits",
                    "L1D misses found in the missing warp's victim tag array (CCWS 3.3.3)"},
};

static void ccws_collect(void *self, double *sums)
{
    const ccws *s = self;
    if (s->reports) sums[M_VTA_HITS] += (double)s->sc->vta_hits;
}

const sched_ops sched_ccws_ops = {
    .name = "ccws",
    .doc = "cache-conscious warp scheduling (CCWS 3.3): per-warp victim tag arrays detect lost "
           "locality; warps whose score falls above the cutoff may not issue loads; GTO order",
    .params = ccws_params,
    .nparams = sizeof ccws_params / sizeof ccws_params[0],
    .metrics = ccws_metrics,
    .nmetrics = M_COUNT,
    .create = ccws_create,
    .destroy = ccws_destroy,
    .create_shared = ccws_create_shared,
    .destroy_shared = ccws_destroy_shared,
    .pick = ccws_pick,
    .may_issue_load = ccws_may_issue_load,
    .on_issue = ccws_on_issue,
    .on_l1_event = ccws_on_l1_event,
    .on_cycles = ccws_on_cycles,
    .on_warp_start = ccws_on_warp_start,
    .on_warp_exit = ccws_on_warp_exit,
    .collect = ccws_collect,
};
