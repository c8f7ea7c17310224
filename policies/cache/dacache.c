/* DaCache, memory-divergence-aware cache management (ICS 2015, section 4), and its variants
 * DaCache-Stall and DaCache-Uncon (section 5), chosen by dacache.variant.
 *
 * Each set is an LRU chain of positions 0 (MRU) .. ways-1 (LRU), one per way, kept in the
 * lines' policy state (a set whose ways all read 0 has never been touched: way w is at w).
 * A missing line takes its place in the chain when its way is allocated (the baseline cache
 * model reserves the line at the miss, as GPGPU-Sim does):
 *
 *  - Gauged insertion (eq. 1): a line fetched by a warp of scheduling rank R (0 highest over
 *    the SM) goes to position min((R / N_sched) * N_sched * 32 / sets, p), where p is the last
 *    position of the locality region; a warp of rank >= FCW (a "thrashing warp") inserts at LRU.
 *  - Coherent loads (one access) go to MRU when the coherent-load profiler found locality for
 *    their pc, to LRU when it found none, and are gauged while it has no verdict. Divergent
 *    loads of at most dacache.mru_requests accesses go to MRU.
 *  - Incremental promotion: a hit moves its line dacache.promotion positions towards MRU
 *    (0: straight to MRU).
 *  - Replacement: the free way nearest LRU, else the unreserved line nearest LRU. DaCache
 *    (variant full) and DaCache-Stall only replace inside the thrashing region (positions
 *    p+1 .. ways-1); when no line there is replaceable, DaCache bypasses the L1D and
 *    DaCache-Stall replays the access. DaCache-Uncon replaces anywhere.
 *  - Partitioning: the locality region holds the first FCW warps: p + 1 = ceil(FCW * 32 /
 *    sets), at most ways - 1. FCW is fixed (static) or adapted by Fig. 7: every divergent load
 *    that retires fully cached increments CNT, which at Cmax raises FCW (up to Wmax) and
 *    restarts at Cmax/2; one that missed lowers CNT by 1 (issuing warp's rank >= FCW) or by
 *    FCW - rank, which at 0 lowers FCW (down to one warp per scheduler) and restarts at Cmax/2.
 *
 * The coherent-load profiler samples the highest-priority warp (rank 0): a line its coherent
 * load fetches is marked with the pc and warp; a hit on it by the same warp, or a miss of that
 * warp on it after its eviction into the victim cache (FIFO of (line, pc, warp)), records
 * locality for the pc in the CLP (FIFO of pcs); a sampled line that leaves the victim cache
 * without such a re-reference records no locality. A pc with a verdict is no longer sampled. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/isource.h"
#include "core/policy.h"
#include "policies/cache/rrip_util.h"

#define PARTITIONING_CHOICES(X, p) X(p, dynamic) X(p, static)
WT_CHOICE_ENUM(PARTITIONING);
static const char *const partitioning_names[] = WT_CHOICE_NAMES(PARTITIONING);
/* Section 5: DaCache bypasses when the thrashing region has no replaceable line, DaCache-Stall
 * replays the access, DaCache-Uncon replaces outside the region. */
#define VARIANT_CHOICES(X, p) X(p, full) X(p, stall) X(p, uncon)
WT_CHOICE_ENUM(VARIANT);
static const char *const variant_names[] = WT_CHOICE_NAMES(VARIANT);

static const param_def dacache_params[] = {
    {"dacache.variant", PT_CHOICE, VARIANT_full, 0, 0, variant_names, "",
     "full: constrained replacement with L1D bypass (DaCache); stall: constrained replacement "
     "replaying the access (DaCache-Stall); uncon: unconstrained replacement (DaCache-Uncon)"},
    {"dacache.promotion", PT_INT, 4, 0, 64, NULL, "positions",
     "incremental promotion granularity: a hit moves its line this many positions towards MRU "
     "(0: to MRU; DaCache's best 4)"},
    {"dacache.partitioning", PT_CHOICE, PARTITIONING_dynamic, 0, 0, partitioning_names, "",
     "dynamic: FCW adapted by the fully-cached-load counter (Fig. 7); static: FCW fixed at "
     "dacache.fcw"},
    {"dacache.fcw", PT_INT, 4, 0, 64, NULL, "warps",
     "fully cached warps in the locality region: the start value (dynamic) or the fixed value "
     "(static; DaCache's StaticN is N per scheduler, FCW = N x sm.schedulers)"},
    {"dacache.cmax", PT_INT, 256, 2, 65536, NULL, "", "CNT saturation value Cmax (8-bit CNT)"},
    {"dacache.cnt_start", PT_INT, 128, 0, 65536, NULL, "", "initial CNT"},
    {"dacache.wmax", PT_INT, 48, 1, 64, NULL, "warps",
     "largest FCW, at most sm.max_warps: more is an error, but the default is clamped to it"},
    {"dacache.mru_requests", PT_INT, 5, 0, 32, NULL, "accesses",
     "divergent loads with at most this many line accesses insert at MRU"},
    {"dacache.coherent_accesses", PT_INT, 2, 1, 32, NULL, "accesses",
     "a load of at most this many line accesses is coherent, one of more is divergent (DaCache "
     "2: divergent instructions 'incur more than 2 uncoalescable memory accesses')"},
    {"dacache.locality_fraction", PT_REAL, 0.5, 0.01, 1, NULL, "",
     "largest share of the ways the locality region may take when FCW asks for more (the paper "
     "has no rule; 0.5: Static2's equal partition, its best static one, so that the thrashing "
     "region always keeps half the ways to replace from)"},
    {"dacache.fcw_cap", PT_BOOL, 0, 0, 1, NULL, "",
     "dynamic FCW stops rising once its locality region reaches the largest one allowed "
     "(false: FCW rises to dacache.wmax while the region stays at its largest)"},
    {"dacache.cnt_reset_down", PT_BOOL, 0, 0, 1, NULL, "",
     "restart CNT at Cmax/2 when FCW falls as well as when it rises (Fig. 7 as described "
     "resets it only when FCW rises)"},
    {"dacache.victim_entries", PT_INT, 16, 1, 1024, NULL, "entries",
     "victim cache of the coherent-load profiler"},
    {"dacache.clp_entries", PT_INT, 32, 1, 1024, NULL, "entries", "coherent load profiler (CLP)"},
};

enum { CLP_PENDING, CLP_LOCALITY, CLP_NONE };

/* A line's policy state. */
typedef struct dacache_line {
    uint8_t sampled; /* fetched by the profiled warp's coherent load (its pc has no verdict) */
    uint8_t pos;     /* position in the set's chain, 0 = MRU */
    int16_t warp;    /* a sampled line's fetching warp */
    uint32_t pc;     /* and its load's pc */
} dacache_line;

typedef struct vc_entry {
    uint64_t line;
    uint32_t pc;
    int warp;
    int valid;
} vc_entry;

typedef struct clp_entry {
    uint32_t pc;
    int state;
    int valid;
} clp_entry;

typedef struct dacache {
    int variant;
    int sets, ways, nsched;
    int promotion;
    int dynamic, fcw, fcw_min, wmax, cnt, cmax;
    int mru_requests;
    int coherent;    /* most accesses of a coherent load */
    int region_max;  /* last position the locality region may reach */
    bool fcw_cap;    /* FCW stops where the region stops growing */
    bool reset_down; /* CNT restarts at Cmax/2 when FCW falls */
    vc_entry *vc;
    int nvc, vc_next;
    clp_entry *clp;
    int nclp, clp_next;
    uint64_t fcw_up, fcw_down, constrained; /* statistics */
} dacache;

static int dacache_create(void **self, const l1_env *env, const param_set *p, char *err,
                          size_t errlen)
{
    /* at most sm.max_warps: more is an error; the default alone is clamped (below) */
    int wmax = (int)param_get_int(p, "dacache.wmax");
    for (size_t i = 0; i < sizeof dacache_params / sizeof dacache_params[0]; i++)
        if (!strcmp(dacache_params[i].name, "dacache.wmax") && wmax > env->max_warps &&
            wmax != (int)dacache_params[i].def) {
            snprintf(err, errlen,
                     "dacache.wmax = %d exceeds sm.max_warps = %d (expected at most %d)", wmax,
                     env->max_warps, env->max_warps);
            return -1;
        }
    dacache *s = calloc(1, sizeof *s);
    if (!s) return -1;
    s->variant = param_get_choice_index(p, "dacache.variant");
    s->sets = env->geom.sets;
    s->ways = env->geom.ways;
    s->nsched = (int)param_get_int(p, "sm.schedulers");
    if (s->nsched < 1) s->nsched = 1;
    s->promotion = (int)param_get_int(p, "dacache.promotion");
    s->dynamic = param_get_choice_index(p, "dacache.partitioning") == PARTITIONING_dynamic;
    s->fcw = (int)param_get_int(p, "dacache.fcw");
    s->cmax = (int)param_get_int(p, "dacache.cmax");
    s->cnt = (int)param_get_int(p, "dacache.cnt_start");
    if (s->cnt > s->cmax) s->cnt = s->cmax;
    s->wmax = (int)param_get_int(p, "dacache.wmax");
    if (s->wmax > env->max_warps) s->wmax = env->max_warps;
    s->fcw_min = s->nsched < s->wmax ? s->nsched : s->wmax;
    if (s->dynamic && s->fcw < s->fcw_min) s->fcw = s->fcw_min;
    if (s->dynamic && s->fcw > s->wmax) s->fcw = s->wmax;
    s->mru_requests = (int)param_get_int(p, "dacache.mru_requests");
    s->coherent = (int)param_get_int(p, "dacache.coherent_accesses");
    /* the region's last position: floor(ways x fraction) - 1, -1 (no region) below one way */
    s->region_max = (int)(s->ways * param_get_real(p, "dacache.locality_fraction") + 1e-9) - 1;
    s->fcw_cap = param_get_int(p, "dacache.fcw_cap") != 0;
    s->reset_down = param_get_int(p, "dacache.cnt_reset_down") != 0;
    s->nvc = (int)param_get_int(p, "dacache.victim_entries");
    s->nclp = (int)param_get_int(p, "dacache.clp_entries");
    s->vc = calloc((size_t)s->nvc, sizeof *s->vc);
    s->clp = calloc((size_t)s->nclp, sizeof *s->clp);
    if (!s->vc || !s->clp) {
        free(s->vc), free(s->clp), free(s);
        return -1;
    }
    *self = s;
    return 0;
}

static void dacache_destroy(void *self)
{
    dacache *s = self;
    free(s->vc);
    free(s->clp);
    free(s);
}

/* ------------------------------------------------------------------ the chain ---- */

static dacache_line *line_of(const l1_set_view *v, int way)
{
    dacache_line *lines = v->state;
    return &lines[way];
}

static int pos_of(const l1_set_view *v, int way)
{
    return line_of(v, way)->pos;
}

/* Gives an untouched set its initial chain: way w at position w. */
static void chain_init(const l1_set_view *v)
{
    for (int w = 0; w < v->ways; w++)
        if (pos_of(v, w) != 0) return;
    for (int w = 0; w < v->ways; w++)
        line_of(v, w)->pos = (uint8_t)w;
}

/* Moves way to position to, shifting the lines in between by one. */
static void chain_move(const l1_set_view *v, int way, int to)
{
    int from = pos_of(v, way);
    for (int w = 0; w < v->ways; w++) {
        uint8_t *p = &line_of(v, w)->pos;
        if (w == way) continue;
        if (to < from && *p >= to && *p < from) (*p)++;
        if (to > from && *p > from && *p <= to) (*p)--;
    }
    line_of(v, way)->pos = (uint8_t)to;
}

/* Last position of the locality region FCW warps ask for: ceil(FCW x 32 / sets) positions. */
static int locality_wanted(const dacache *s, int fcw)
{
    return (fcw * WT_WARP_SIZE + s->sets - 1) / s->sets - 1;
}

/* Last position of the locality region, -1 when there is none: what FCW asks for, but never so
 * large that it takes more than dacache.locality_fraction of the ways. */
static int locality_end(const dacache *s)
{
    int p = locality_wanted(s, s->fcw);
    return p > s->region_max ? s->region_max : p;
}

/* ------------------------------------------------------ coherent-load profiler ---- */

static clp_entry *clp_find(dacache *s, uint32_t pc)
{
    for (int i = 0; i < s->nclp; i++)
        if (s->clp[i].valid && s->clp[i].pc == pc) return &s->clp[i];
    return NULL;
}

static void clp_verdict(dacache *s, uint32_t pc, int state)
{
    clp_entry *e = clp_find(s, pc);
    if (e && e->state == CLP_PENDING) e->state = state;
}

static int clp_state(dacache *s, uint32_t pc)
{
    clp_entry *e = clp_find(s, pc);
    return e ? e->state : -1;
}

static void clp_sample(dacache *s, uint32_t pc)
{
    if (clp_find(s, pc)) return;
    s->clp[s->clp_next] = (clp_entry){pc, CLP_PENDING, 1};
    s->clp_next = (s->clp_next + 1) % s->nclp;
}

static int is_sampled(const dacache *s, const l1_request *r)
{
    return r->divergence <= s->coherent && r->warp_prio == 0;
}

/* A miss of the sampled warp's coherent load: a victim-cache hit shows locality. */
static void profile_miss(dacache *s, const l1_request *r)
{
    if (!is_sampled(s, r)) return;
    int st = clp_state(s, r->pc);
    if (st == CLP_LOCALITY || st == CLP_NONE) return;
    for (int i = 0; i < s->nvc; i++) {
        vc_entry *e = &s->vc[i];
        if (e->valid && e->line == r->line_addr && e->warp == r->warp_slot) {
            clp_verdict(s, e->pc, CLP_LOCALITY);
            e->valid = 0;
            return;
        }
    }
    clp_sample(s, r->pc);
}

static void vc_push(dacache *s, uint64_t line, uint32_t pc, int warp)
{
    vc_entry *e = &s->vc[s->vc_next];
    if (e->valid) clp_verdict(s, e->pc, CLP_NONE); /* left without a re-reference */
    *e = (vc_entry){line, pc, warp, 1};
    s->vc_next = (s->vc_next + 1) % s->nvc;
}

/* ----------------------------------------------------------------- decisions ---- */

static int insertion_position(dacache *s, const l1_request *r)
{
    int lru = s->ways - 1;
    if (r->divergence <= s->coherent) {
        int st = clp_state(s, r->pc);
        if (st == CLP_LOCALITY) return 0;
        if (st == CLP_NONE) return lru;
    } else if (r->divergence <= s->mru_requests) {
        return 0;
    }
    if (r->warp_prio >= s->fcw) return lru; /* a thrashing warp */
    int p = locality_end(s);
    int prio = r->warp_prio / s->nsched;
    int way = prio * s->nsched * WT_WARP_SIZE / s->sets; /* eq. 1 */
    if (way > p) way = p;
    if (way > lru) way = lru;
    return way < 0 ? 0 : way;
}

static int dacache_victim(void *self, const l1_request *r, const l1_set_view *v)
{
    dacache *s = self;
    chain_init(v);
    int way = -1;
    for (int w = 0; w < v->ways; w++)
        if (!v->valid[w] && !v->reserved[w] && (way < 0 || pos_of(v, w) > pos_of(v, way))) way = w;
    if (way < 0) {
        int lo = s->variant == VARIANT_uncon ? 0 : locality_end(s) + 1;
        for (int w = 0; w < v->ways; w++)
            if (!v->reserved[w] && pos_of(v, w) >= lo && (way < 0 || pos_of(v, w) > pos_of(v, way)))
                way = w;
    }
    if (way < 0) {
        s->constrained++;
        if (s->variant == VARIANT_stall) return L1_STALL;
        profile_miss(s, r);
        return L1_BYPASS;
    }
    profile_miss(s, r);
    chain_move(v, way, insertion_position(s, r));
    return way;
}

static void dacache_fill(void *self, const l1_request *r, const l1_set_view *v, int way)
{
    dacache *s = self;
    dacache_line *l = line_of(v, way);
    *l = (dacache_line){.pos = l->pos};
    if (is_sampled(s, r) && clp_state(s, r->pc) == CLP_PENDING) {
        l->sampled = 1;
        l->warp = (int16_t)r->warp_slot;
        l->pc = r->pc;
    }
}

static void dacache_hit(void *self, const l1_request *r, const l1_set_view *v, int way)
{
    dacache *s = self;
    dacache_line *l = line_of(v, way);
    if (l->sampled && l->warp == r->warp_slot) {
        clp_verdict(s, l->pc, CLP_LOCALITY);
        l->sampled = 0;
    }
    chain_init(v);
    int from = pos_of(v, way);
    int to = s->promotion == 0 || s->promotion >= from ? 0 : from - s->promotion;
    chain_move(v, way, to);
}

static void dacache_evict(void *self, const l1_set_view *v, int way)
{
    dacache *s = self;
    dacache_line *l = line_of(v, way);
    if (!l->sampled) return;
    vc_push(s, v->tags[way], l->pc, l->warp);
    l->sampled = 0;
}

/* Fig. 7: dynamic partitioning, on every divergent load that retires. */
static void dacache_load_done(void *self, int warp_slot, int warp_prio, int accesses, int misses)
{
    (void)warp_slot;
    dacache *s = self;
    if (!s->dynamic || accesses <= s->coherent) return;
    if (misses == 0) {
        if (++s->cnt >= s->cmax) {
            /* with fcw_cap, a region already at its largest cannot grow: FCW stays */
            bool room = !s->fcw_cap || locality_wanted(s, s->fcw + 1) <= s->region_max;
            if (s->fcw < s->wmax && room) {
                s->fcw++;
                s->fcw_up++;
                s->cnt = s->cmax / 2;
            } else {
                s->cnt = s->cmax;
            }
        }
        return;
    }
    s->cnt -= warp_prio >= s->fcw ? 1 : s->fcw - warp_prio;
    if (s->cnt <= 0) {
        if (s->fcw > s->fcw_min) {
            s->fcw--;
            s->fcw_down++;
            s->cnt = s->reset_down ? s->cmax / 2 : 0;
        } else {
            s->cnt = 0;
        }
    }
}

enum { M_FCW_INCREASES, M_FCW_DECREASES, M_CONSTRAINED, M_COUNT };
static const metric_def dacache_metrics[M_COUNT] = {
    [M_FCW_INCREASES] = {"dacache_fcw_increases", "DaCache: FCW raised by dynamic partitioning"},
    [M_FCW_DECREASES] = {"dacache_fcw_decreases", "DaCache: FCW lowered by dynamic partitioning"},
    [M_CONSTRAINED] = {"dacache_constrained",
                       "DaCache: misses with no replaceable line in the thrashing region"},
};

static void dacache_collect(void *self, double *sums)
{
    dacache *s = self;
    sums[M_FCW_INCREASES] += (double)s->fcw_up;
    sums[M_FCW_DECREASES] += (double)s->fcw_down;
    sums[M_CONSTRAINED] += (double)s->constrained;
}

const l1_policy_ops l1_dacache_ops = {
    .name = "dacache",
    .doc = "DaCache: gauged insertion, incremental promotion, dynamic partitioning, replacement "
           "constrained to the thrashing region with L1D bypass (dacache.variant: the "
           "DaCache-Stall and DaCache-Uncon variants)",
    .params = dacache_params,
    .nparams = sizeof dacache_params / sizeof dacache_params[0],
    .metrics = dacache_metrics,
    .nmetrics = M_COUNT,
    .line_state_bytes = sizeof(dacache_line),
    .uses_warp_prio = true,
    .create = dacache_create,
    .destroy = dacache_destroy,
    .victim = dacache_victim,
    .on_fill = dacache_fill,
    .on_hit = dacache_hit,
    .on_evict = dacache_evict,
    .on_load_done = dacache_load_done,
    .collect = dacache_collect,
};
