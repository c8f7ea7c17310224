/* The simulator's metric catalogue (explorer/catalog.h): core/config/metrics.h's list, the
 * policies' metrics spliced in where it marks their kind. The policies' tables live in other
 * translation units, so the catalogue is walked rather than stored: it is read when outputs are
 * written, never per simulated cycle. */
#include "explorer/catalog.h"

#include <assert.h>
#include <math.h>
#include <string.h>

#include "policies/registry.h"

enum metric_kind { KIND_core, KIND_l1, KIND_sched, KIND_cta };

typedef struct core_entry {
    const char *name, *doc;
    size_t offset;
    int kind; /* KIND_core: this metric; otherwise where that kind's policy metrics go */
} core_entry;

static const core_entry core_list[] = {
#define CORE_METRIC(name, doc) {#name, doc, offsetof(sim_metrics, name), KIND_core},
#define POLICY_METRICS(kind)   {NULL, NULL, 0, KIND_##kind},
    WT_METRICS(CORE_METRIC, POLICY_METRICS)
#undef CORE_METRIC
#undef POLICY_METRICS
};
enum { CORE_ENTRIES = sizeof core_list / sizeof core_list[0] };

/* Whether a kind has an i-th policy; if so, the metrics it declares (*n of them). */
static int declared(int kind, size_t i, const metric_def **defs, size_t *n)
{
    switch (kind) {
    case KIND_l1:
        if (!l1_policies[i]) return 0;
        *defs = l1_policies[i]->metrics, *n = l1_policies[i]->nmetrics;
        return 1;
    case KIND_sched:
        if (!sched_policies[i]) return 0;
        *defs = sched_policies[i]->metrics, *n = sched_policies[i]->nmetrics;
        return 1;
    default:
        if (!cta_policies[i]) return 0;
        *defs = cta_policies[i]->metrics, *n = cta_policies[i]->nmetrics;
        return 1;
    }
}

/* The policies' metrics in catalogue order, each name once; slot k of sim_metrics.policy holds
 * the k-th. */
typedef struct policy_list {
    const metric_def *def[WT_POLICY_METRICS_MAX];
    int kind[WT_POLICY_METRICS_MAX];
    size_t n;
} policy_list;

static void policy_list_build(policy_list *l)
{
    l->n = 0;
    for (size_t e = 0; e < CORE_ENTRIES; e++) {
        int kind = core_list[e].kind;
        if (kind == KIND_core) continue;
        size_t n = 0;
        const metric_def *d = NULL;
        for (size_t i = 0; declared(kind, i, &d, &n); i++)
            for (size_t k = 0; k < n; k++) {
                size_t j = 0;
                while (j < l->n && strcmp(l->def[j]->name, d[k].name) != 0)
                    j++;
                if (j < l->n) continue; /* shared with an earlier policy */
                assert(l->n < WT_POLICY_METRICS_MAX);
                if (l->n == WT_POLICY_METRICS_MAX) return;
                l->def[l->n] = &d[k];
                l->kind[l->n++] = kind;
            }
    }
}

static size_t slot_offset(size_t slot)
{
    return offsetof(sim_metrics, policy) + slot * sizeof(double);
}

/* Visits the catalogue's metrics in order until visit returns nonzero; returns the index of
 * the metric it stopped at, or the number of metrics. */
static size_t walk(int (*visit)(void *ctx, const metric_info *m), void *ctx)
{
    policy_list l;
    policy_list_build(&l);
    size_t i = 0, slot = 0;
    for (size_t e = 0; e < CORE_ENTRIES; e++) {
        const core_entry *c = &core_list[e];
        if (c->kind == KIND_core) {
            metric_info m = {c->name, c->doc, c->offset};
            if (visit(ctx, &m)) return i;
            i++;
            continue;
        }
        for (; slot < l.n && l.kind[slot] == c->kind; slot++) {
            metric_info m = {l.def[slot]->name, l.def[slot]->doc, slot_offset(slot)};
            if (visit(ctx, &m)) return i;
            i++;
        }
    }
    return i;
}

static int visit_none(void *ctx, const metric_info *m)
{
    (void)ctx, (void)m;
    return 0;
}

typedef struct find_ctx {
    size_t left;      /* metrics to pass before the one wanted (by index) */
    const char *name; /* or the name wanted */
    int found;
    metric_info m;
} find_ctx;

static int visit_find(void *ctx, const metric_info *m)
{
    find_ctx *f = ctx;
    if (f->name ? strcmp(m->name, f->name) != 0 : f->left-- > 0) return 0;
    f->found = 1;
    f->m = *m;
    return 1;
}

size_t metric_count(void)
{
    return walk(visit_none, NULL);
}

metric_info metric_at(size_t i)
{
    find_ctx f = {i, NULL, 0, {"", "", 0}};
    walk(visit_find, &f);
    assert(f.found);
    return f.m;
}

int metric_lookup(const char *name)
{
    find_ctx f = {0, name, 0, {"", "", 0}};
    size_t at = walk(visit_find, &f);
    return f.found ? (int)at : -1;
}

double metric_read(const sim_metrics *m, const metric_info *info)
{
    double v;
    memcpy(&v, (const char *)m + info->offset, sizeof v);
    return v;
}

double metric_value(const sim_metrics *m, size_t i)
{
    metric_info info = metric_at(i);
    return metric_read(m, &info);
}

double metric_get(const sim_metrics *m, const char *name)
{
    int i = metric_lookup(name);
    return i < 0 ? NAN : metric_value(m, (size_t)i);
}

int metric_policy_slot(const char *name)
{
    policy_list l;
    policy_list_build(&l);
    for (size_t slot = 0; slot < l.n; slot++)
        if (strcmp(l.def[slot]->name, name) == 0) return (int)slot;
    return -1;
}
