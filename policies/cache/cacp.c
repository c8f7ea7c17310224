/* CACP, criticality-aware cache prioritization (CAWA section 3.3, Algorithm 4).
 *
 * The L1D is split by ways: ways [0, cacp.critical_ways) hold critical lines, the rest
 * non-critical ones. A line's signature is the low 8 bits of its pc XOR the low 8 bits of its
 * line address; it indexes two tables of 256 saturating 2-bit counters, CCBP and SHiP.
 *
 *  - Fill (CACHEFILL): CCBP[sig] > cacp.ccbp_threshold predicts a critical line: the victim
 *    and the new line are in the critical partition, else in the non-critical one. Within a
 *    partition replacement is 2-bit SRRIP; SHiP[sig] == 0 inserts at RRPV 3 ("distant"),
 *    otherwise at RRPV 2 ("long").
 *  - Hit (CACHEHIT): SRRIP hit promotion (RRPV 0) in either partition; a hit by a critical
 *    warp sets the line's c_reuse and increments CCBP[sig] and SHiP[sig], a hit by any other
 *    warp sets nc_reuse and increments SHiP[sig].
 *  - Eviction (EVICTLINE): a line of the critical partition with nc_reuse but no c_reuse
 *    decrements CCBP[sig] (it should have been non-critical); else a line with neither
 *    decrements SHiP[sig].
 *
 * A partition whose ways are all reserved makes the access replay (L1_STALL). critical_ways is
 * clamped to l1d.ways; when either partition is empty the whole cache serves both.
 * Criticality comes from CAWA's CPL through l1_request.critical. */
#include <stdlib.h>
#include <string.h>

#include "core/policy.h"
#include "policies/cache/rrip_util.h"

static const param_def cacp_params[] = {
    {"cacp.critical_ways", PT_INT, 8, 0, 64, NULL, "ways",
     "L1D ways reserved for lines CCBP predicts critical (CAWA's best: 8 of 16); clamped to "
     "l1d.ways"},
    {"cacp.ccbp_threshold", PT_INT, 1, 0, 3, NULL, "",
     "a line is critical when its CCBP counter exceeds this (2-bit counters, start at 0)"},
    {"cacp.ship_init", PT_INT, 1, 0, 3, NULL, "",
     "initial value of every SHiP counter (0: every line starts distant)"},
};

/* A line's policy state. */
typedef struct cacp_line {
    uint8_t rrpv;
    uint8_t sig;   /* signature of the access that brought it in */
    uint8_t flags; /* F_C_REUSE, F_NC_REUSE */
} cacp_line;
enum { F_C_REUSE = 1, F_NC_REUSE = 2 };

static cacp_line *line_of(const l1_set_view *v, int way)
{
    cacp_line *lines = v->state;
    return &lines[way];
}

static uint8_t *rrpv_of(const l1_set_view *v, int way)
{
    return &line_of(v, way)->rrpv;
}

#define CACP_TABLE 256
#define CTR_MAX    3
#define RRPV_MAX   3 /* 2-bit SRRIP (CAWA 3.3) */

typedef struct cacp {
    int ways, critical_ways, threshold, line_bytes;
    uint8_t ccbp[CACP_TABLE], ship[CACP_TABLE];
    uint64_t critical_fills, noncritical_fills;
} cacp;

static int cacp_create(void **self, const l1_env *env, const param_set *p, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    cacp *s = calloc(1, sizeof *s);
    if (!s) return -1;
    s->ways = env->geom.ways;
    s->critical_ways = (int)param_get_int(p, "cacp.critical_ways");
    if (s->critical_ways > s->ways) s->critical_ways = s->ways;
    s->threshold = (int)param_get_int(p, "cacp.ccbp_threshold");
    s->line_bytes = env->geom.line_bytes;
    memset(s->ship, (int)param_get_int(p, "cacp.ship_init"), sizeof s->ship);
    *self = s;
    return 0;
}

static void cacp_destroy(void *self)
{
    free(self);
}

/* The ways [lo, hi) of the partition a line of signature sig goes to. */
static void partition_of(const cacp *s, uint8_t sig, int *lo, int *hi)
{
    int critical = s->ccbp[sig] > s->threshold;
    if (s->critical_ways == 0 || s->critical_ways == s->ways) {
        *lo = 0, *hi = s->ways;
    } else if (critical) {
        *lo = 0, *hi = s->critical_ways;
    } else {
        *lo = s->critical_ways, *hi = s->ways;
    }
}

static int cacp_victim(void *self, const l1_request *r, const l1_set_view *v)
{
    cacp *s = self;
    int lo, hi;
    partition_of(s, pc_line_signature(r->pc, r->line_addr, s->line_bytes), &lo, &hi);
    int way = rrip_find_victim(v, rrpv_of, lo, hi, RRPV_MAX);
    return way >= 0 ? way : L1_STALL;
}

static void cacp_fill(void *self, const l1_request *r, const l1_set_view *v, int way)
{
    cacp *s = self;
    cacp_line *l = line_of(v, way);
    uint8_t sig = pc_line_signature(r->pc, r->line_addr, s->line_bytes);
    l->sig = sig;
    l->flags = 0;
    l->rrpv = s->ship[sig] == 0 ? RRPV_MAX : RRPV_MAX - 1;
    if (way < s->critical_ways && s->critical_ways < s->ways)
        s->critical_fills++;
    else
        s->noncritical_fills++;
}

static void cacp_hit(void *self, const l1_request *r, const l1_set_view *v, int way)
{
    cacp *s = self;
    cacp_line *l = line_of(v, way);
    l->rrpv = 0;
    if (r->critical) {
        l->flags |= F_C_REUSE;
        sat_inc(&s->ccbp[l->sig], CTR_MAX);
        sat_inc(&s->ship[l->sig], CTR_MAX);
    } else {
        l->flags |= F_NC_REUSE;
        sat_inc(&s->ship[l->sig], CTR_MAX);
    }
}

static void cacp_evict(void *self, const l1_set_view *v, int way)
{
    cacp *s = self;
    cacp_line *l = line_of(v, way);
    int c = l->flags & F_C_REUSE, nc = l->flags & F_NC_REUSE;
    int in_critical = way < s->critical_ways && s->critical_ways < s->ways;
    if (!c && nc && in_critical)
        sat_dec(&s->ccbp[l->sig]);
    else if (!c && !nc)
        sat_dec(&s->ship[l->sig]);
}

enum { M_CRITICAL_FILLS, M_NONCRITICAL_FILLS, M_COUNT };
static const metric_def cacp_metrics[M_COUNT] = {
    [M_CRITICAL_FILLS] = {"cacp_critical_fills",
                          "CACP: lines inserted into the critical partition"},
    [M_NONCRITICAL_FILLS] = {"cacp_noncritical_fills",
                             "CACP: lines inserted into the non-critical partition"},
};

static void cacp_collect(void *self, double *sums)
{
    cacp *s = self;
    sums[M_CRITICAL_FILLS] += (double)s->critical_fills;
    sums[M_NONCRITICAL_FILLS] += (double)s->noncritical_fills;
}

const l1_policy_ops l1_cacp_ops = {
    .name = "cacp",
    .doc = "CAWA's criticality-aware cache prioritization: critical and non-critical way "
           "partitions chosen by CCBP, SRRIP insertion guided by SHiP",
    .params = cacp_params,
    .nparams = sizeof cacp_params / sizeof cacp_params[0],
    .metrics = cacp_metrics,
    .nmetrics = M_COUNT,
    .line_state_bytes = sizeof(cacp_line),
    .uses_criticality = true,
    .create = cacp_create,
    .destroy = cacp_destroy,
    .victim = cacp_victim,
    .on_fill = cacp_fill,
    .on_hit = cacp_hit,
    .on_evict = cacp_evict,
    .collect = cacp_collect,
};
