/* The simulator's parameter catalogue (explorer/catalog.h): the one place that knows every
 * group, so it sits above the core and the policies whose groups it lists. */
#include "explorer/catalog.h"

#include "core/config/config.h"
#include "core/sim/cpl.h"
#include "policies/registry.h"

enum { FIXED_GROUPS = 4 }; /* core, policy choices, the core's tail, CPL */

static size_t sim_group_count(void)
{
    return FIXED_GROUPS + policy_param_group_count();
}

static param_group sim_group_at(size_t g)
{
    switch (g) {
    case 0:
        return core_param_group;
    case 1:
        return policy_choice_group;
    case 2:
        return core_param_group_tail;
    case 3:
        return cpl_param_group;
    default:
        return policy_param_group(g - FIXED_GROUPS);
    }
}

const param_catalog sim_catalog = {sim_group_count, sim_group_at, policy_choice_aliases};

size_t param_count(void)
{
    return param_catalog_count(&sim_catalog);
}

const param_def *param_def_at(size_t id)
{
    return param_catalog_def(&sim_catalog, id);
}

int param_lookup(const char *name)
{
    return param_catalog_lookup(&sim_catalog, name);
}

void param_suggest(const char *name, char *buf, size_t buflen)
{
    param_catalog_suggest(&sim_catalog, name, buf, buflen);
}

param_set *param_set_new(void)
{
    return param_set_new_in(&sim_catalog);
}
