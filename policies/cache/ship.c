/* SHiP, signature-based hit prediction (Wu et al., MICRO 2011) driving SRRIP insertion, with
 * the signature CAWA's modified SHiP uses (3.3): the low 8 bits of the pc XOR the low 8 bits of
 * the line address, indexing 256 saturating 2-bit counters. A line remembers its signature and
 * whether it was re-referenced; a hit sets that bit and increments the counter, evicting a line
 * that was never re-referenced decrements it. A line whose signature counter is 0 is inserted
 * "distant" (RRPV 2^M-1), any other "long" (2^M-2); hits promote to RRPV 0 (SRRIP hit
 * priority). Per-line state: RRPV, signature, reuse bit. */
#include <stdlib.h>
#include <string.h>

#include "core/policy.h"
#include "policies/cache/rrip_util.h"

static const param_def ship_params[] = {
    {"ship.bits", PT_INT, 2, 1, 7, NULL, "bits", "RRPV width M of the underlying SRRIP"},
    {"ship.init", PT_INT, 1, 0, 3, NULL, "",
     "initial value of every signature counter (0: everything starts distant)"},
};

/* A line's policy state. */
typedef struct ship_line {
    uint8_t rrpv;
    uint8_t sig;   /* signature of the access that brought it in */
    uint8_t reuse; /* hit since its insertion */
} ship_line;

static ship_line *line_of(const l1_set_view *v, int way)
{
    ship_line *lines = v->state;
    return &lines[way];
}

static uint8_t *rrpv_of(const l1_set_view *v, int way)
{
    return &line_of(v, way)->rrpv;
}

#define SHIP_TABLE 256
#define CTR_MAX    3

typedef struct ship {
    int max, line_bytes;
    uint8_t shct[SHIP_TABLE];
} ship;

static int ship_create(void **self, const l1_env *env, const param_set *p, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    ship *s = calloc(1, sizeof *s);
    if (!s) return -1;
    s->max = (1 << param_get_int(p, "ship.bits")) - 1;
    s->line_bytes = env->geom.line_bytes;
    memset(s->shct, (int)param_get_int(p, "ship.init"), sizeof s->shct);
    *self = s;
    return 0;
}

static void ship_destroy(void *self)
{
    free(self);
}

static int ship_victim(void *self, const l1_request *r, const l1_set_view *v)
{
    (void)r;
    ship *s = self;
    return rrip_find_victim(v, rrpv_of, 0, v->ways, s->max);
}

static void ship_fill(void *self, const l1_request *r, const l1_set_view *v, int way)
{
    ship *s = self;
    ship_line *l = line_of(v, way);
    uint8_t sig = pc_line_signature(r->pc, r->line_addr, s->line_bytes);
    l->sig = sig;
    l->reuse = 0;
    l->rrpv = (uint8_t)(s->shct[sig] == 0 ? s->max : s->max - 1);
}

static void ship_hit(void *self, const l1_request *r, const l1_set_view *v, int way)
{
    (void)r;
    ship *s = self;
    ship_line *l = line_of(v, way);
    l->rrpv = 0;
    l->reuse = 1;
    sat_inc(&s->shct[l->sig], CTR_MAX);
}

static void ship_evict(void *self, const l1_set_view *v, int way)
{
    ship *s = self;
    ship_line *l = line_of(v, way);
    if (!l->reuse) sat_dec(&s->shct[l->sig]);
}

const l1_policy_ops l1_ship_ops = {
    .name = "ship",
    .doc = "signature-based hit predictor (pc XOR line address) choosing SRRIP insertion",
    .params = ship_params,
    .nparams = sizeof ship_params / sizeof ship_params[0],
    .line_state_bytes = sizeof(ship_line),
    .create = ship_create,
    .destroy = ship_destroy,
    .victim = ship_victim,
    .on_fill = ship_fill,
    .on_hit = ship_hit,
    .on_evict = ship_evict,
};
