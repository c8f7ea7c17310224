/* The core group of the registry: every parameter of the simulator outside the policies, as
 * param_defs generated from the rows of its tables (core/config/gpu_params.h,
 * core/mem/memsys_params.h, core/config/energy_params.h; config.c reads the same rows into
 * the model's structs). */
#include "core/config/config.h"

#define DEF_NUM(type, name, def, lo, hi, unit, doc)   {name, type, def, lo, hi, NULL, unit, doc},
#define DEF_INT(field, name, def, lo, hi, unit, doc)  DEF_NUM(PT_INT, name, def, lo, hi, unit, doc)
#define DEF_REAL(field, name, def, lo, hi, unit, doc) DEF_NUM(PT_REAL, name, def, lo, hi, unit, doc)
#define DEF_BOOL(field, name, def, doc)               {name, PT_BOOL, def, 0, 1, NULL, "", doc},
#define DEF_CHOICE(field, name, LIST, def, doc)                                                    \
    {name, PT_CHOICE, LIST##_##def, 0, 0, (const char *const[])WT_CHOICE_NAMES(LIST), "", doc},

static const param_def core_defs[] = {
#define PARAM_INT    DEF_INT
#define PARAM_U64    DEF_INT
#define PARAM_REAL   DEF_REAL
#define PARAM_BOOL   DEF_BOOL
#define PARAM_CHOICE DEF_CHOICE
#include "core/config/gpu_params.h"
};

/* The policy choices (sched.policy, l1d.policy, cta.policy) belong to the policy registry
 * (policies/registry.c); the catalogue places them between these two tables, where they have
 * always been, so that parameter ids and configuration hashes (journals) stay valid. */
static const param_def core_defs_tail[] = {
#define PARAM_INT    DEF_INT
#define PARAM_U64    DEF_INT
#define PARAM_REAL   DEF_REAL
#define PARAM_BOOL   DEF_BOOL
#define PARAM_CHOICE DEF_CHOICE
#include "core/mem/memsys_params.h"
#define PARAM_INT    DEF_INT
#define PARAM_U64    DEF_INT
#define PARAM_REAL   DEF_REAL
#define PARAM_BOOL   DEF_BOOL
#define PARAM_CHOICE DEF_CHOICE
#include "core/config/energy_params.h"
};

const param_group core_param_group = {"core", core_defs, sizeof core_defs / sizeof core_defs[0]};
const param_group core_param_group_tail = {"core", core_defs_tail,
                                           sizeof core_defs_tail / sizeof core_defs_tail[0]};
