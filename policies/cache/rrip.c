/* RRIP (Jaleel et al., ISCA 2010) as DaCache section 5 evaluates it: an M-bit re-reference
 * prediction value (RRPV) per line; the victim is a line predicted for the distant future
 * (RRPV = 2^M - 1), aging the set until one is. SRRIP inserts at 2^M - 2 ("long"), BRRIP at
 * 2^M - 1 ("distant") and at 2^M - 2 with probability epsilon, DRRIP picks between them by set
 * dueling. Promotion on a hit is hit priority (RRPV = 0) or frequency priority (RRPV - 1).
 * SRRIP, BRRIP and DRRIP are values of rrip.insertion. */
#include <stdio.h>
#include <stdlib.h>

#include "core/policy.h"
#include "policies/cache/rrip_util.h"

#define INSERTION_CHOICES(X, p) X(p, srrip) X(p, brrip) X(p, drrip)
#define PROMOTION_CHOICES(X, p) X(p, hit) X(p, frequency)
WT_CHOICE_ENUM(INSERTION);
WT_CHOICE_ENUM(PROMOTION);
static const char *const insertion_names[] = WT_CHOICE_NAMES(INSERTION);
static const char *const promotion_names[] = WT_CHOICE_NAMES(PROMOTION);

static const param_def rrip_params[] = {
    {"rrip.bits", PT_INT, 3, 1, 7, NULL, "bits",
     "RRPV width M (DaCache uses 3, CAWA's CACP 2): lines are inserted at 2^M-2 or 2^M-1"},
    {"rrip.insertion", PT_CHOICE, INSERTION_drrip, 0, 0, insertion_names, "",
     "srrip: always 2^M-2; brrip: 2^M-1, 2^M-2 with probability rrip.epsilon; drrip: set "
     "dueling between the two"},
    {"rrip.promotion", PT_CHOICE, PROMOTION_frequency, 0, 0, promotion_names, "",
     "on a hit: hit priority sets RRPV to 0, frequency priority decrements it (DaCache 5)"},
    {"rrip.epsilon", PT_REAL, 1.0 / 32, 0, 1, NULL, "",
     "BRRIP's probability of a long (2^M-2) insertion"},
    {"rrip.duel_sets", PT_INT, 4, 1, 1024, NULL, "sets",
     "DRRIP leader sets per policy (DaCache: 4), at most l1d.sets/4 (at least 1): more is an "
     "error, but the default is clamped to it"},
    {"rrip.psel_bits", PT_INT, 10, 1, 16, NULL, "bits", "DRRIP policy-selection counter width"},
};

/* A line's policy state. */
typedef struct rrip_line {
    uint8_t rrpv;
} rrip_line;

static uint8_t *rrpv_of(const l1_set_view *v, int way)
{
    rrip_line *lines = v->state;
    return &lines[way].rrpv;
}

typedef struct rrip {
    int max; /* 2^M - 1 */
    int insertion, promotion;
    double epsilon;
    int sets, leaders;
    int psel, psel_max;
    wt_rng *rng;
    uint64_t follower_fills, bimodal_fills;
} rrip;

static int rrip_create(void **self, const l1_env *env, const param_set *p, char *err, size_t errlen)
{
    double def =
        table_default(rrip_params, sizeof rrip_params / sizeof rrip_params[0], "rrip.duel_sets");
    if (duel_sets_check(p, "rrip.duel_sets", def, env->geom.sets, err, errlen)) return -1;
    rrip *s = calloc(1, sizeof *s);
    if (!s) return -1;
    s->max = (1 << param_get_int(p, "rrip.bits")) - 1;
    s->insertion = param_get_choice_index(p, "rrip.insertion");
    s->promotion = param_get_choice_index(p, "rrip.promotion");
    s->epsilon = param_get_real(p, "rrip.epsilon");
    s->sets = env->geom.sets;
    s->leaders = duel_leaders(env->geom.sets, (int)param_get_int(p, "rrip.duel_sets"));
    s->psel_max = (1 << param_get_int(p, "rrip.psel_bits")) - 1;
    s->psel = (s->psel_max + 1) / 2;
    s->rng = env->rng;
    *self = s;
    return 0;
}

static void rrip_destroy(void *self)
{
    free(self);
}

/* Does this set insert with BRRIP? Followers do when the SRRIP leaders missed more
 * (psel above its midpoint). */
static int bimodal_set(const rrip *s, int set)
{
    if (s->insertion != INSERTION_drrip) return s->insertion == INSERTION_brrip;
    int role = duel_role_of(set, s->sets, s->leaders);
    if (role == DUEL_LEADER_A) return 0;
    if (role == DUEL_LEADER_B) return 1;
    return s->psel > (s->psel_max + 1) / 2;
}

static int rrip_victim(void *self, const l1_request *r, const l1_set_view *v)
{
    (void)r;
    rrip *s = self;
    if (s->insertion == INSERTION_drrip) {
        int role = duel_role_of(v->set, s->sets, s->leaders);
        if (role == DUEL_LEADER_A && s->psel < s->psel_max) s->psel++;
        if (role == DUEL_LEADER_B && s->psel > 0) s->psel--;
    }
    return rrip_find_victim(v, rrpv_of, 0, v->ways, s->max);
}

static void rrip_fill(void *self, const l1_request *r, const l1_set_view *v, int way)
{
    (void)r;
    rrip *s = self;
    int bimodal = bimodal_set(s, v->set);
    if (s->insertion == INSERTION_drrip &&
        duel_role_of(v->set, s->sets, s->leaders) == DUEL_FOLLOWER) {
        s->follower_fills++;
        s->bimodal_fills += (uint64_t)bimodal;
    }
    int rrpv = s->max - 1;
    if (bimodal && !(s->epsilon > 0 && wt_rng_unit(s->rng) < s->epsilon)) rrpv = s->max;
    *rrpv_of(v, way) = (uint8_t)(rrpv < 0 ? 0 : rrpv);
}

static void rrip_hit(void *self, const l1_request *r, const l1_set_view *v, int way)
{
    (void)r;
    rrip *s = self;
    uint8_t *rrpv = rrpv_of(v, way);
    if (s->promotion == PROMOTION_hit)
        *rrpv = 0;
    else if (*rrpv > 0)
        (*rrpv)--;
}

static const metric_def rrip_metrics[DUEL_METRICS] = DUEL_METRIC_DEFS;

static void rrip_collect(void *self, double *sums)
{
    rrip *s = self;
    sums[DUEL_FOLLOWER_FILLS] += (double)s->follower_fills;
    sums[DUEL_BIMODAL_FILLS] += (double)s->bimodal_fills;
}

const l1_policy_ops l1_rrip_ops = {
    .name = "rrip",
    .doc = "re-reference interval prediction: SRRIP, BRRIP or set-dueling DRRIP, hit or "
           "frequency priority promotion",
    .params = rrip_params,
    .nparams = sizeof rrip_params / sizeof rrip_params[0],
    .metrics = rrip_metrics,
    .nmetrics = DUEL_METRICS,
    .line_state_bytes = sizeof(rrip_line),
    .create = rrip_create,
    .destroy = rrip_destroy,
    .victim = rrip_victim,
    .on_fill = rrip_fill,
    .on_hit = rrip_hit,
    .collect = rrip_collect,
};
