/* The core group's values read into the model's structs: gpu_config (the SM), memsys_config
 * and energy_config, each from the rows of its table (the parameters themselves are
 * generated from the same rows in config_params.c), then the fields derived from them. */
#include "core/config/config.h"

/* One row's reading into s->field. Per simulation, not per cycle: by name. */
#define READ_INT(field, name, ...)    s->field = (int)param_get_int(p, name);
#define READ_U64(field, name, ...)    s->field = (uint64_t)param_get_int(p, name);
#define READ_REAL(field, name, ...)   s->field = param_get_real(p, name);
#define READ_BOOL(field, name, ...)   s->field = param_get_int(p, name) != 0;
#define READ_CHOICE(field, name, ...) s->field = param_get_choice_index(p, name);

static void read_gpu(const param_set *p, gpu_config *s)
{
#define PARAM_INT    READ_INT
#define PARAM_U64    READ_U64
#define PARAM_REAL   READ_REAL
#define PARAM_BOOL   READ_BOOL
#define PARAM_CHOICE READ_CHOICE
#include "core/config/gpu_params.h"
}

static void read_memsys(const param_set *p, memsys_config *s)
{
#define PARAM_INT    READ_INT
#define PARAM_U64    READ_U64
#define PARAM_REAL   READ_REAL
#define PARAM_BOOL   READ_BOOL
#define PARAM_CHOICE READ_CHOICE
#include "core/mem/memsys_params.h"
}

static void read_energy(const param_set *p, energy_config *s)
{
#define PARAM_INT    READ_INT
#define PARAM_U64    READ_U64
#define PARAM_REAL   READ_REAL
#define PARAM_BOOL   READ_BOOL
#define PARAM_CHOICE READ_CHOICE
#include "core/config/energy_params.h"
}

/* The model reads these choices' fields as flags, named for the second choice. */
_Static_assert(SM_OC_DISPATCH_unit == 1, "gpu_config.oc_unit_order: sm.oc_dispatch=unit");
_Static_assert(L1D_RECENCY_miss == 1, "gpu_config.l1d_recency_miss: l1d.recency=miss");
_Static_assert(L1D_ACCESS_ORDER_descending == 1,
               "gpu_config.access_descending: l1d.access_order=descending");
_Static_assert(L2_SET_HASH_ipoly == 1, "memsys_config.l2_set_ipoly: l2.set_hash=ipoly");

/* The fields no single row gives. */
static void derive(gpu_config *c)
{
    c->mem.num_sms = c->num_sms;
    c->mem.core_mhz = c->clock_mhz;
    c->mem.write_acks = c->store_acks;
    c->energy.clock_mhz = c->clock_mhz;
    /* the order matters only where queued memory instructions hold collector units */
    c->mem_queue_rr = c->mem_queue_order == SM_MEM_QUEUE_ORDER_collector &&
                      c->mem_queue_collectors && c->operand_collector && c->mem_queue;
    if (c->max_warps * 32 < c->max_threads) c->max_threads = c->max_warps * 32;
}

int gpu_config_from_params(const param_set *p, gpu_config *c, char *err, size_t errlen)
{
    read_gpu(p, c);
    read_memsys(p, &c->mem);
    read_energy(p, &c->energy);
    derive(c);
    return gpu_config_check(c, err, errlen);
}
