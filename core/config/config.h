/* The simulator's own parameters (the "core" group of the registry) and the plain struct the
 * timing model reads them into once per simulation. */
#ifndef WT_CONFIG_H
#define WT_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "core/mem/memsys.h"
#include "core/config/params.h"

typedef struct energy_config {
    double clock_mhz; /* core clock, to turn cycles into seconds */
    double int_op_pj; /* per active lane */
    double fp_op_pj;
    double sfu_op_pj;
    double regfile_pj; /* per 32-bit operand read or written, per lane */
    double l1d_pj_per_byte;
    double shared_pj_per_byte;
    double icnt_pj_per_byte;
    double l2_pj_per_byte;
    double dram_pj_per_byte;
    double dram_activate_pj;
    double static_watts;    /* whole GPU */
    double sm_active_watts; /* per SM holding a CTA */
    double sm_idle_watts;   /* per SM holding none */
    double inst_pj;         /* per warp instruction issued (front end) */
} energy_config;

typedef struct gpu_config {
    uint64_t seed;
    uint64_t max_cycles; /* cycle cap: a run that reaches it ends as an error */
    uint64_t watchdog;   /* cycles with no instruction issued on any SM while warps live */
    int skip_idle;       /* 0: step every SM every cycle (a check on the skipping) */
    int num_sms;
    int cta_rr_carry;  /* a kernel's CTA dispatch starts after the SM of the last one's last CTA */
    int cta_per_cycle; /* CTAs an SM may receive per cycle; 0: no limit */
    int cta_dispatch_late; /* the first CTAs are handed out after the launch cycle's SMs ran */
    int max_warps, max_ctas, max_threads, registers, shared_bytes;
    int schedulers;
    int simd_width, sfu_width;
    int fetch, fetch_throughput, ibuffer; /* sm.fetch: instruction buffers */
    int operand_collector;                /* sm.operand_collector and its resources */
    int oc_units, oc_units_sfu, reg_banks, reg_ports, pipe_width, pipe_width_sfu;
    int sub_core;      /* per-scheduler SFU and collector shares */
    int oc_unit_order; /* sm.oc_dispatch=unit: a sub-core's lowest-numbered ready unit first */
    int issue_rotate;  /* the first scheduler of a cycle is cycle mod schedulers */
    int issue_rotate_active;        /* ... counting only the cycles the SM has a CTA */
    int result_delay;               /* extra cycles before an INT/FP/SFU result is visible */
    int mem_queue, mem_queue_delay; /* memory instructions between issue and the LD/ST unit */
    int mem_queue_collectors;       /* each of them holds a generic collector unit */
    int mem_queue_rr; /* they leave their units in GPGPU-Sim's round robin (only with both) */
    int l1i_enabled, l1i_sets, l1i_ways, l1i_line, l1i_mshrs, l1i_inst_bytes; /* l1i.* */
    int int_latency, fp_latency, sfu_latency, shared_latency, branch_latency;
    int exit_on_int;     /* an exit takes its scheduler's INT unit (GPGPU-Sim's EXIT_OPS) */
    int exit_ii;         /* cycles such an exit holds the INT unit (0: the unit's own) */
    int branch_unit_ii;  /* cycles a branch holds its scheduler's branch unit (0: none) */
    int shared_path;     /* 0 bypass, 1 ldst: shared accesses through the load/store unit */
    int shared_banks;    /* banks of 4-byte words, for shared_path ldst */
    int atomic_path;     /* 0 line, 1 serial: GPGPU-Sim's per-segment, per-address requests */
    int atomic_wait;     /* a warp with an atomic in flight issues nothing (GPGPU-Sim m_n_atomic) */
    int sector_accesses; /* global loads and stores: one access per l1d.bypass_segment piece */
    int store_acks; /* writes are acknowledged; a warp leaves once its stores are (stores_done) */
    int l1d_sets, l1d_ways, l1d_line;
    int l1d_hash; /* 0 linear, 1 xor, 2 fermi */
    int l1d_mshrs, l1d_mshr_merge, l1d_hit_latency;
    int l1d_enabled;
    int bypass_segment;    /* bytes fetched by a load that bypasses the L1D */
    int l1d_sectored;      /* 32-byte sectors (l1d.sectored) */
    int l1d_recency_miss;  /* the policy's insertion at the miss (l1d.recency=miss) */
    int l1d_unified_kb;    /* L1D + shared memory for the adaptive carveout, 0: off */
    int l1d_kernel_flush;  /* invalidate the L1D at each kernel's start */
    int l1d_tag_pipeline;  /* l1d.tag_pipeline: GPGPU-Sim's l1_latency_queue */
    int access_descending; /* l1d.access_order=descending: highest address first */
    int l1d_fill_drain;    /* a fill's waiting loads write back one a cycle */
    int l1d_banks;         /* its banks (l1d.banks) */
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
