/* The simulator's own parameters (the "core" group of the registry) and the plain struct the
 * timing model reads them into once per simulation. */
#ifndef WT_CONFIG_H
#define WT_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "core/mem/memsys.h"
#include "core/config/params.h"

/* The constants of the core's choice parameters, LIST_choice, from their tables: the index of
 * each choice (L1D_HASH_xor, SM_SHARED_PATH_ldst, ...; the memory system's, L2_MAP_gpgpusim,
 * come with core/mem/memsys.h). */
#define PARAM_CHOICE(field, name, LIST, def, doc) WT_CHOICE_ENUM(LIST);
#include "core/config/gpu_params.h"
#define PARAM_CHOICE(field, name, LIST, def, doc) WT_CHOICE_ENUM(LIST);
#include "core/config/energy_params.h"

/* The structs below have one field per row of their tables (a choice's is the choice's
 * index), named and documented there, and the fields config.c derives from other rows. */
typedef struct energy_config {
#define PARAM_INT(field, ...)    int field;
#define PARAM_U64(field, ...)    uint64_t field;
#define PARAM_REAL(field, ...)   double field;
#define PARAM_BOOL(field, ...)   int field;
#define PARAM_CHOICE(field, ...) int field;
#include "core/config/energy_params.h"
    double clock_mhz; /* gpu.clock_mhz, to turn cycles into seconds */
} energy_config;

typedef struct gpu_config {
#define PARAM_INT(field, ...)    int field;
#define PARAM_U64(field, ...)    uint64_t field;
#define PARAM_REAL(field, ...)   double field;
#define PARAM_BOOL(field, ...)   int field;
#define PARAM_CHOICE(field, ...) int field;
#include "core/config/gpu_params.h"
    /* sm.mem_queue_order=collector where it matters: queued memory instructions leave their
     * collector units in GPGPU-Sim's round robin (with sm.mem_queue_collectors,
     * sm.operand_collector and sm.mem_queue) */
    int mem_queue_rr;
    memsys_config mem;
    energy_config energy;
} gpu_config;

/* The core's parameters, in two parts: the catalogue (explorer/catalog.h) puts the policy
 * registry's choices between them. */
extern const param_group core_param_group;
extern const param_group core_param_group_tail;

/* Reads every core parameter from p. Returns 0, or -1 with a message when the settings are
 * inconsistent (for example sets*ways*line not a whole cache). */
int gpu_config_from_params(const param_set *p, gpu_config *c, char *err, size_t errlen);

/* The consistency checks gpu_config_from_params ends with (config_check.c). Returns 0, or -1
 * with a message naming the parameters. */
int gpu_config_check(const gpu_config *c, char *err, size_t errlen);

#endif
