/* The simulator's catalogues: the core's parameters and metrics joined with those of every
 * registered policy (policies/list.h). The core knows no policy, so the join is made here,
 * above both.
 *
 * Parameters: the core group, the policy registry's choices, the core's tail, CPL's group and
 * every policy's group, in that order (explorer/catalog.c). Parameter ids are positions in it, and
 * the configuration hash walks it in order, so the order is fixed: reordering it would change every
 * configuration's hash and orphan every journal.
 *
 * Metrics: core/config/metrics.h's list with, where it marks each kind of policy, the metrics the
 * policies of that kind declare, in registry order, each name once (explorer/metric_catalog.c).
 * Metric indices are positions in it and every output (the table, JSON, CSV columns, journal
 * headers) follows it. */
#ifndef WT_CATALOG_H
#define WT_CATALOG_H

#include "core/config/metrics.h"
#include "core/config/params.h"

extern const param_catalog sim_catalog;

/* Shorthands for sim_catalog. */
size_t param_count(void);
const param_def *param_def_at(size_t id);
int param_lookup(const char *name);
void param_suggest(const char *name, char *buf, size_t buflen);
param_set *param_set_new(void); /* every parameter at its default */

size_t metric_count(void);
metric_info metric_at(size_t i);
/* Index of a metric by name, or -1. */
int metric_lookup(const char *name);
double metric_value(const sim_metrics *m, size_t i);
/* The value of the metric metric_at gave: metric_value without walking the catalogue, for
 * loops over many results. */
double metric_read(const sim_metrics *m, const metric_info *info);
/* The value of the metric called name, NaN when there is none. */
double metric_get(const sim_metrics *m, const char *name);
/* The slot of sim_metrics.policy that holds the policy metric called name, or -1. */
int metric_policy_slot(const char *name);

#endif
