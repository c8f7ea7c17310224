/* The simulator's parameter catalogue: the core group, the policy registry's choices, CPL's
 * group and every policy's group, in that order (core/sim/catalog.c). Parameter ids are
 * positions in it, and the configuration hash walks it in order, so the order is fixed:
 * reordering it would change every configuration's hash and orphan every journal. */
#ifndef WT_CATALOG_H
#define WT_CATALOG_H

#include "core/params.h"

extern const param_catalog sim_catalog;

/* Shorthands for sim_catalog. */
size_t param_count(void);
const param_def *param_def_at(size_t id);
int param_lookup(const char *name);
void param_suggest(const char *name, char *buf, size_t buflen);
param_set *param_set_new(void); /* every parameter at its default */

#endif
