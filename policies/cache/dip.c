/* DIP, dynamic insertion (Qureshi et al., ISCA 2007) as DaCache section 5 evaluates it: an LRU
 * stack whose insertion position is chosen by set dueling between traditional LRU (insert at
 * MRU) and BIP (insert at LRU, at MRU with probability epsilon), with dip.duel_sets leader sets
 * per policy (DaCache: 4) and a saturating policy-selection counter. Hits promote to MRU.
 * Per-line state is a signed recency stamp: larger is more recent. */
#include <stdint.h>
#include <stdlib.h>

#include "core/policy.h"

#include "policies/cache/rrip_util.h"

#define INSERTION_CHOICES(X, p) X(p, dip) X(p, lru) X(p, bip)
WT_CHOICE_ENUM(INSERTION);
static const char *const insertion_names[] = WT_CHOICE_NAMES(INSERTION);

static const param_def dip_params[] = {
    {"dip.insertion", PT_CHOICE, INSERTION_dip, 0, 0, insertion_names, "",
     "dip: set dueling between lru and bip; lru: insert at MRU; bip: insert at LRU, at MRU "
     "with probability dip.epsilon"},
    {"dip.epsilon", PT_REAL, 1.0 / 32, 0, 1, NULL, "", "BIP's probability of an MRU insertion"},
    {"dip.duel_sets", PT_INT, 4, 1, 1024, NULL, "sets",
     "leader sets per policy (DaCache: 4), at most l1d.sets/4 (at least 1): more is an error, "
     "but the default is clamped to it"},
    {"dip.psel_bits", PT_INT, 10, 1, 16, NULL, "bits", "policy-selection counter width"},
};

typedef struct dip {
    int64_t clock;
    int insertion;
    double epsilon;
    int sets, leaders;
    int psel, psel_max;
    wt_rng *rng;
    uint64_t follower_fills, bimodal_fills;
} dip;

static int dip_create(void **self, const l1_env *env, const param_set *p, char *err, size_t errlen)
{
    double def =
        table_default(dip_params, sizeof dip_params / sizeof dip_params[0], "dip.duel_sets");
    if (duel_sets_check(p, "dip.duel_sets", def, env->geom.sets, err, errlen)) return -1;
    dip *s = calloc(1, sizeof *s);
    if (!s) return -1;
    s->insertion = param_get_choice_index(p, "dip.insertion");
    s->epsilon = param_get_real(p, "dip.epsilon");
    s->sets = env->geom.sets;
    s->leaders = duel_leaders(env->geom.sets, (int)param_get_int(p, "dip.duel_sets"));
    s->psel_max = (1 << param_get_int(p, "dip.psel_bits")) - 1;
    s->psel = (s->psel_max + 1) / 2;
    s->rng = env->rng;
    *self = s;
    return 0;
}

static void dip_destroy(void *self)
{
    free(self);
}

/* A line's policy state. */
typedef struct dip_line {
    int64_t stamp; /* recency: larger is more recent */
} dip_line;

static int64_t stamp_of(const l1_set_view *v, int way)
{
    const dip_line *lines = v->state;
    return lines[way].stamp;
}

static void set_stamp(const l1_set_view *v, int way, int64_t t)
{
    dip_line *lines = v->state;
    lines[way].stamp = t;
}

/* Does this set insert with BIP? Followers do when the LRU leaders missed more. */
static int bimodal_set(const dip *s, int set)
{
    if (s->insertion != INSERTION_dip) return s->insertion == INSERTION_bip;
    int role = duel_role_of(set, s->sets, s->leaders);
    if (role == DUEL_LEADER_A) return 0;
    if (role == DUEL_LEADER_B) return 1;
    return s->psel > (s->psel_max + 1) / 2;
}

static int dip_victim(void *self, const l1_request *r, const l1_set_view *v)
{
    (void)r;
    dip *s = self;
    if (s->insertion == INSERTION_dip) {
        int role = duel_role_of(v->set, s->sets, s->leaders);
        if (role == DUEL_LEADER_A && s->psel < s->psel_max) s->psel++;
        if (role == DUEL_LEADER_B && s->psel > 0) s->psel--;
    }
    int way = l1_first_free_way(v);
    if (way >= 0) return way;
    for (int w = 0; w < v->ways; w++) {
        if (v->reserved[w]) continue;
        if (way < 0 || stamp_of(v, w) < stamp_of(v, way)) way = w;
    }
    return way;
}

static void dip_fill(void *self, const l1_request *r, const l1_set_view *v, int way)
{
    (void)r;
    dip *s = self;
    int bimodal = bimodal_set(s, v->set);
    if (s->insertion == INSERTION_dip &&
        duel_role_of(v->set, s->sets, s->leaders) == DUEL_FOLLOWER) {
        s->follower_fills++;
        s->bimodal_fills += (uint64_t)bimodal;
    }
    if (!bimodal || (s->epsilon > 0 && wt_rng_unit(s->rng) < s->epsilon)) {
        set_stamp(v, way, ++s->clock);
        return;
    }
    /* LRU insertion: below every other valid line of the set */
    int64_t low = s->clock;
    for (int w = 0; w < v->ways; w++)
        if (w != way && v->valid[w] && stamp_of(v, w) <= low) low = stamp_of(v, w) - 1;
    set_stamp(v, way, low);
}

static void dip_hit(void *self, const l1_request *r, const l1_set_view *v, int way)
{
    (void)r;
    dip *s = self;
    set_stamp(v, way, ++s->clock);
}

static const metric_def dip_metrics[DUEL_METRICS] = DUEL_METRIC_DEFS;

static void dip_collect(void *self, double *sums)
{
    dip *s = self;
    sums[DUEL_FOLLOWER_FILLS] += (double)s->follower_fills;
    sums[DUEL_BIMODAL_FILLS] += (double)s->bimodal_fills;
}

const l1_policy_ops l1_dip_ops = {
    .name = "dip",
    .doc = "dynamic insertion: LRU with set dueling between MRU insertion and bimodal (BIP) "
           "LRU insertion",
    .params = dip_params,
    .nparams = sizeof dip_params / sizeof dip_params[0],
    .metrics = dip_metrics,
    .nmetrics = DUEL_METRICS,
    .line_state_bytes = sizeof(dip_line),
    .create = dip_create,
    .destroy = dip_destroy,
    .victim = dip_victim,
    .on_fill = dip_fill,
    .on_hit = dip_hit,
    .collect = dip_collect,
};
