/* The core group's values read into the model's structs: gpu_config (the SM), memsys_config
 * and energy_config. The parameters themselves are declared in config_params.c. */
#include "core/config/config.h"

static int ival(const param_set *p, const char *name)
{
    return (int)param_get_int(p, name);
}

/* The SM's settings (everything outside the memory system and energy). */
static void read_sm(const param_set *p, gpu_config *c)
{
    c->seed = (uint64_t)param_get_int(p, "sim.seed");
    c->max_cycles = (uint64_t)param_get_int(p, "sim.max_cycles");
    c->watchdog = (uint64_t)param_get_int(p, "sim.watchdog");
    c->skip_idle = ival(p, "sim.skip_idle");
    c->cta_rr_carry = ival(p, "gpu.cta_rr_carry");
    c->cta_per_cycle = ival(p, "gpu.cta_per_cycle");
    c->cta_dispatch_late = ival(p, "gpu.cta_dispatch_late");
    c->num_sms = ival(p, "gpu.sms");
    c->max_warps = ival(p, "sm.max_warps");
    c->max_ctas = ival(p, "sm.max_ctas");
    c->max_threads = ival(p, "sm.max_threads");
    c->registers = ival(p, "sm.registers");
    c->shared_bytes = ival(p, "sm.shared_bytes");
    c->schedulers = ival(p, "sm.schedulers");
    c->simd_width = ival(p, "sm.simd_width");
    c->fetch = ival(p, "sm.fetch");
    c->fetch_throughput = ival(p, "sm.fetch_throughput");
    c->ibuffer = ival(p, "sm.ibuffer");
    c->operand_collector = ival(p, "sm.operand_collector");
    c->oc_units = ival(p, "sm.oc_units");
    c->oc_units_sfu = ival(p, "sm.oc_units_sfu");
    c->reg_banks = ival(p, "sm.reg_banks");
    c->reg_ports = ival(p, "sm.reg_port_throughput");
    c->pipe_width = ival(p, "sm.pipe_width");
    c->pipe_width_sfu = ival(p, "sm.pipe_width_sfu");
    c->sub_core = ival(p, "sm.sub_core");
    c->issue_rotate = ival(p, "sm.issue_rotate");
    c->issue_rotate_active = ival(p, "sm.issue_rotate_active");
    c->result_delay = ival(p, "sm.result_delay");
    c->mem_queue = ival(p, "sm.mem_queue");
    c->l1i_enabled = ival(p, "l1i.enabled");
    c->l1i_sets = ival(p, "l1i.sets");
    c->l1i_ways = ival(p, "l1i.ways");
    c->l1i_line = ival(p, "l1i.line");
    c->l1i_mshrs = ival(p, "l1i.mshrs");
    c->l1i_inst_bytes = ival(p, "l1i.inst_bytes");
    c->mem_queue_delay = ival(p, "sm.mem_queue_delay");
    c->mem_queue_collectors = ival(p, "sm.mem_queue_collectors");
    /* the order matters only where queued memory instructions hold collector units */
    c->mem_queue_rr = param_get_choice(p, "sm.mem_queue_order")[0] == 'c' &&
                      c->mem_queue_collectors && c->operand_collector && c->mem_queue;
    c->oc_unit_order = param_get_choice(p, "sm.oc_dispatch")[0] == 'u';
    c->sfu_width = ival(p, "sm.sfu_width");
    c->int_latency = ival(p, "sm.int_latency");
    c->fp_latency = ival(p, "sm.fp_latency");
    c->sfu_latency = ival(p, "sm.sfu_latency");
    c->shared_latency = ival(p, "sm.shared_latency");
    c->branch_latency = ival(p, "sm.branch_latency");
    c->exit_on_int = ival(p, "sm.exit_on_int");
    c->exit_ii = ival(p, "sm.exit_ii");
    c->branch_unit_ii = ival(p, "sm.branch_unit_ii");
    c->shared_path = ival(p, "sm.shared_path");
    c->shared_banks = ival(p, "sm.shared_banks");
    c->atomic_path = ival(p, "sm.atomic_path");
    c->atomic_wait = ival(p, "sm.atomic_wait");
    c->store_acks = ival(p, "sm.store_acks");
    c->sector_accesses = ival(p, "l1d.sector_accesses");
    c->l1d_sets = ival(p, "l1d.sets");
    c->l1d_ways = ival(p, "l1d.ways");
    c->l1d_line = ival(p, "l1d.line");
    c->l1d_hash = ival(p, "l1d.hash");
    c->l1d_mshrs = ival(p, "l1d.mshrs");
    c->l1d_mshr_merge = ival(p, "l1d.mshr_merge");
    c->l1d_hit_latency = ival(p, "l1d.hit_latency");
    c->l1d_enabled = ival(p, "l1d.enabled");
    c->bypass_segment = ival(p, "l1d.bypass_segment");
    c->l1d_sectored = ival(p, "l1d.sectored");
    c->l1d_recency_miss = param_get_choice(p, "l1d.recency")[0] == 'm';
    c->l1d_unified_kb = ival(p, "l1d.unified_kb");
    c->l1d_kernel_flush = ival(p, "l1d.kernel_flush");
    c->l1d_tag_pipeline = ival(p, "l1d.tag_pipeline");
    c->access_descending = ival(p, "l1d.access_order");
    c->l1d_banks = ival(p, "l1d.banks");
    c->l1d_fill_drain = ival(p, "l1d.fill_drain");
    if (c->max_warps * 32 < c->max_threads) c->max_threads = c->max_warps * 32;
}

static void read_memsys(const param_set *p, const gpu_config *c, memsys_config *m)
{
    m->num_sms = c->num_sms;
    m->icnt_latency = ival(p, "icnt.latency");
    m->icnt_bytes_per_cycle = ival(p, "icnt.bytes_per_cycle");
    m->icnt_header_bytes = ival(p, "icnt.header_bytes");
    m->icnt_sm_queue = ival(p, "icnt.sm_queue");
    m->icnt_crossbar = ival(p, "icnt.crossbar");
    m->icnt_reply_crossbar = ival(p, "icnt.reply_crossbar");
    m->icnt_reply_chain = ival(p, "icnt.reply_chain");
    m->partitions = ival(p, "l2.partitions");
    m->l2_sets = ival(p, "l2.sets");
    m->l2_ways = ival(p, "l2.ways");
    m->l2_line = ival(p, "l2.line");
    m->l2_hit_latency = ival(p, "l2.hit_latency");
    m->l2_mshrs = ival(p, "l2.mshrs");
    m->l2_mshr_merge = ival(p, "l2.mshr_merge");
    m->l2_sector_cycles = ival(p, "l2.sector_cycles");
    m->l2_sectored = ival(p, "l2.sectored");
    m->l2_map = ival(p, "l2.map");
    m->l2_map_chip_bit = ival(p, "l2.map_chip_bit");
    m->l2_map_sub_bit = ival(p, "l2.map_sub_bit");
    m->l2_set_ipoly = ival(p, "l2.set_hash");
    m->dram_banks = ival(p, "dram.banks");
    m->dram_row_bytes = ival(p, "dram.row_bytes");
    m->dram_queue = ival(p, "dram.queue");
    m->dram_bytes_per_cycle = ival(p, "dram.bytes_per_cycle");
    m->dram_t_cl = ival(p, "dram.t_cl");
    m->dram_t_rcd = ival(p, "dram.t_rcd");
    m->dram_t_rp = ival(p, "dram.t_rp");
    m->dram_t_ras = ival(p, "dram.t_ras");
    m->dram_latency = ival(p, "dram.latency");
    m->core_mhz = param_get_real(p, "gpu.clock_mhz");
    m->icnt_mhz = param_get_real(p, "icnt.clock_mhz");
    m->l2_mhz = param_get_real(p, "l2.clock_mhz");
    m->dram_mhz = param_get_real(p, "dram.clock_mhz");
    m->l2_rop_latency = ival(p, "l2.rop_latency");
    m->l2_slices_per_channel = ival(p, "l2.slices_per_channel");
    m->dram_latency_first = ival(p, "dram.latency_first");
    m->dram_t_rrd = ival(p, "dram.t_rrd");
    m->dram_t_rc = ival(p, "dram.t_rc");
    m->dram_bank_groups = ival(p, "dram.bank_groups");
    m->dram_t_ccdl = ival(p, "dram.t_ccdl");
    m->dram_t_rtpl = ival(p, "dram.t_rtpl");
    m->dram_t_rtw = ival(p, "dram.t_rtw");
    m->dram_t_wtr = ival(p, "dram.t_wtr");
    m->dram_t_wtp = ival(p, "dram.t_wtp");
    m->dram_dual_bus = ival(p, "dram.dual_bus");
    m->dram_bank_bit = ival(p, "dram.bank_bit");
    m->dram_inflight = ival(p, "dram.inflight");
    m->dram_atom_bytes = ival(p, "dram.atom_bytes");
    m->write_acks = ival(p, "sm.store_acks");
}

static void read_energy(const param_set *p, energy_config *e)
{
    e->clock_mhz = param_get_real(p, "gpu.clock_mhz");
    e->int_op_pj = param_get_real(p, "energy.int_op_pj");
    e->fp_op_pj = param_get_real(p, "energy.fp_op_pj");
    e->sfu_op_pj = param_get_real(p, "energy.sfu_op_pj");
    e->regfile_pj = param_get_real(p, "energy.regfile_pj");
    e->l1d_pj_per_byte = param_get_real(p, "energy.l1d_pj_per_byte");
    e->shared_pj_per_byte = param_get_real(p, "energy.shared_pj_per_byte");
    e->icnt_pj_per_byte = param_get_real(p, "energy.icnt_pj_per_byte");
    e->l2_pj_per_byte = param_get_real(p, "energy.l2_pj_per_byte");
    e->dram_pj_per_byte = param_get_real(p, "energy.dram_pj_per_byte");
    e->dram_activate_pj = param_get_real(p, "energy.dram_activate_pj");
    e->static_watts = param_get_real(p, "energy.static_watts");
    e->sm_active_watts = param_get_real(p, "energy.sm_active_watts");
    e->sm_idle_watts = param_get_real(p, "energy.sm_idle_watts");
    e->inst_pj = param_get_real(p, "energy.inst_pj");
}

int gpu_config_from_params(const param_set *p, gpu_config *c, char *err, size_t errlen)
{
    read_sm(p, c);
    read_memsys(p, c, &c->mem);
    read_energy(p, &c->energy);
    return gpu_config_check(c, err, errlen);
}
