/* The energy model's parameters, read into energy_config (core/config/config.h), one row each in
 * catalogue order: they end the core group. Sources: docs/metrics.md.
 *
 * A new parameter is one row at the end of the table; core/config/gpu_params.h describes the
 * row macros. Rows are appended, never moved: parameter ids are places in the catalogue, and
 * the configuration hash reads the parameters in its order.
 *
 * Included several times (no include guard), each time with the row macros the includer needs
 * defined; the others expand to nothing, and all are undefined at the end. */
#include "core/util/param_rows.h"

PARAM_REAL(int_op_pj, "energy.int_op_pj", 0.1, 0, 1e6, "pJ",
           "integer operation per lane (Horowitz ISSCC 2014: 32-bit add, 45 nm)")
PARAM_REAL(fp_op_pj, "energy.fp_op_pj", 3.7, 0, 1e6, "pJ",
           "FP operation per lane (Horowitz ISSCC 2014: 32-bit FP multiply, 45 nm)")
PARAM_REAL(sfu_op_pj, "energy.sfu_op_pj", 15.0, 0, 1e6, "pJ",
           "special function per lane (about four FP operations; see docs/metrics.md)")
PARAM_REAL(regfile_pj, "energy.regfile_pj", 1.25, 0, 1e6, "pJ",
           "register operand per lane (Horowitz: 8 KB SRAM, 10 pJ per 64 bits, per 4 bytes)")
PARAM_REAL(l1d_pj_per_byte, "energy.l1d_pj_per_byte", 2.5, 0, 1e6, "pJ",
           "L1D per byte moved (Horowitz: 32 KB SRAM, 20 pJ per 64 bits)")
PARAM_REAL(shared_pj_per_byte, "energy.shared_pj_per_byte", 2.5, 0, 1e6, "pJ",
           "shared memory per byte (Horowitz: 32 KB SRAM, 20 pJ per 64 bits)")
PARAM_REAL(icnt_pj_per_byte, "energy.icnt_pj_per_byte", 4.0, 0, 1e6, "pJ",
           "interconnect per byte moved (on-chip wires, Keckler et al. IEEE Micro 2011)")
PARAM_REAL(l2_pj_per_byte, "energy.l2_pj_per_byte", 12.5, 0, 1e6, "pJ",
           "L2 per byte (Horowitz: 1 MB SRAM, 100 pJ per 64 bits)")
PARAM_REAL(dram_pj_per_byte, "energy.dram_pj_per_byte", 162.5, 0, 1e6, "pJ",
           "DRAM per byte transferred (Horowitz: 1.3-2.6 nJ per 64 bits; low end)")
PARAM_REAL(dram_activate_pj, "energy.dram_activate_pj", 2000, 0, 1e9, "pJ", "DRAM row activation")
PARAM_REAL(static_watts, "energy.static_watts", 30, 0, 1e4, "W",
           "static power of the whole GPU (leakage and constant power)")
PARAM_REAL(sm_active_watts, "energy.sm_active_watts", 0, 0, 1e4, "W",
           "power of each SM while it holds a CTA (AccelWattch's lane-activation static "
           "power, static_*_flane/addlane, which gpgpu_sim_wrapper::calculate_static_power "
           "scales by the share of active SMs; per SM). 0: not modelled")
PARAM_REAL(sm_idle_watts, "energy.sm_idle_watts", 0, 0, 1e4, "W",
           "power of each SM while it holds no CTA (GPUWattch/AccelWattch idle_core_power, "
           "charged per idle SM: power_interface.cc, set_idle_core_power). 0: not modelled")
PARAM_REAL(inst_pj, "energy.inst_pj", 0, 0, 1e6, "pJ",
           "per warp instruction issued: fetch, decode, instruction buffer, scheduler and "
           "pipeline latches (AccelWattch/GPUWattch components IBP, ICP, SCHEDP, PIPEP). "
           "0: not modelled")

#include "core/util/param_rows_end.h"
