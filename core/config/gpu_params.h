/* The core's parameters read into gpu_config (core/config/config.h), one row each, in catalogue
 * order: the first part of the core group. Its second part, after the policy registry's
 * choices, is the memory system's table (core/mem/memsys_params.h) and energy's
 * (core/config/energy_params.h).
 *
 * Adding a parameter is adding one row at the end of its table. The row is the parameter
 * (`warptune params`, --set, presets and spaces take it), the struct field it is read into and
 * that reading (config.c); what is left is the code that uses the field and the parameter's
 * docs. Rows are appended, never moved: parameter ids are places in the catalogue, and the
 * configuration hash reads the parameters in its order.
 *
 *   PARAM_INT(field, "name", default, lo, hi, "unit", "doc")    int field
 *   PARAM_U64(field, "name", default, lo, hi, "unit", "doc")    uint64_t field, an integer
 *   PARAM_REAL(field, "name", default, lo, hi, "unit", "doc")   double field
 *   PARAM_BOOL(field, "name", default, "doc")                   int field, 0 or 1
 *   PARAM_CHOICE(field, "name", LIST, default, "doc")           int field, the choice's index
 *
 * A choice parameter's choices are `#define LIST_CHOICES(X, p) X(p, first) X(p, second)` beside
 * its row; its default is one of them, and its field compares with the constants LIST_first,
 * LIST_second (WT_CHOICE_ENUM in core/config/params.h; config.h declares them).
 *
 * Defaults are the Fermi GTX480 baseline of CAWA Table 1 (15 SMs, 48 warps and 8 CTAs per SM,
 * 2 schedulers, 32768 registers, 48 KB shared memory, 16 KB 8-set 16-way L1D); the presets in
 * spaces/presets override them for the other papers. Timing values are in core cycles.
 *
 * Included several times (no include guard), each time with the row macros the includer needs
 * defined; the others expand to nothing, and all are undefined at the end. */
#include "core/util/param_rows.h"

PARAM_U64(seed, "sim.seed", 1, 0, 9007199254740991.0, "",
          "seed of the per-simulation generator every random choice draws from")
PARAM_U64(max_cycles, "sim.max_cycles", 50000000, 1000, 1e12, "cycles",
          "cycle cap: a simulation that reaches it ends with an error")
PARAM_U64(watchdog, "sim.watchdog", 200000, 100, 1e9, "cycles",
          "no-progress detector: cycles with live warps, no instruction issued anywhere and "
          "no L2 access or DRAM command in the memory system")
PARAM_BOOL(skip_idle, "sim.skip_idle", 1,
           "skip cycles in which nothing can happen (false: step every SM every cycle; the "
           "results are identical, only slower)")
PARAM_INT(num_sms, "gpu.sms", 15, 1, 256, "", "streaming multiprocessors (SMs)")
PARAM_BOOL(cta_rr_carry, "gpu.cta_rr_carry", 0,
           "the round robin that hands out CTAs goes on across kernels: a kernel's first CTA "
           "goes to the SM after the one that took the previous kernel's last CTA, as "
           "GPGPU-Sim's gpgpu_sim::issue_block2core keeps m_last_cluster_issue (false: every "
           "kernel starts at SM 0)")
PARAM_INT(cta_per_cycle, "gpu.cta_per_cycle", 0, 0, 64, "CTAs",
          "CTAs an SM may receive per cycle (0: as many as fit at once; GPGPU-Sim's "
          "simt_core_cluster::issue_block2core starts at most one per SM per cycle)")
PARAM_BOOL(cta_dispatch_late, "gpu.cta_dispatch_late", 0,
           "CTAs are handed out after the SMs have run the cycle, so a kernel's first CTAs work "
           "from the cycle after its launch and every later one from the cycle after it is "
           "handed out (GPGPU-Sim's gpgpu_sim::cycle calls issue_block2core after the cores' "
           "cycle); false: a kernel's first CTAs are handed out before its launch cycle runs")
PARAM_REAL(clock_mhz, "gpu.clock_mhz", 1400, 100, 5000, "MHz",
           "core clock, for energy and time, and the reference of icnt.clock_mhz, "
           "l2.clock_mhz and dram.clock_mhz (GPGPU-Sim -gpgpu_clock_domains, 1st field)")
PARAM_INT(max_warps, "sm.max_warps", 48, 1, 64, "", "warp slots per SM")
PARAM_INT(max_ctas, "sm.max_ctas", 8, 1, 32, "", "CTA slots per SM")
PARAM_INT(max_threads, "sm.max_threads", 1536, 32, 4096, "", "resident threads per SM")
PARAM_INT(registers, "sm.registers", 32768, 1024, 1048576, "", "32-bit registers per SM")
PARAM_INT(shared_bytes, "sm.shared_bytes", 49152, 0, 1048576, "bytes", "shared memory per SM")
PARAM_INT(schedulers, "sm.schedulers", 2, 1, 4, "",
          "warp schedulers per SM, each issuing one per cycle")
PARAM_INT(simd_width, "sm.simd_width", 16, 1, 32, "lanes",
          "lanes of each scheduler's INT and FP units (a warp occupies 32/width cycles)")
PARAM_BOOL(fetch, "sm.fetch", 0,
           "fetch and decode into per-warp instruction buffers, one warp per fetch slot per "
           "cycle, round robin among warps whose buffer is empty (GPGPU-Sim shader.cc "
           "shader_core_ctx::fetch/decode, perfect instruction cache as "
           "-gpgpu_perfect_inst_const_cache 1); false: a warp's next instruction is always there")
PARAM_INT(fetch_throughput, "sm.fetch_throughput", 1, 1, 8, "",
          "fetch-decode passes per cycle with sm.fetch (-gpgpu_inst_fetch_throughput)")
PARAM_INT(ibuffer, "sm.ibuffer", 2, 1, 16, "",
          "instructions one fetch puts into a warp's buffer with sm.fetch (GPGPU-Sim decode "
          "fills the 2 slots of shd_warp_t's ibuffer)")
PARAM_BOOL(l1i_enabled, "l1i.enabled", 0,
           "with sm.fetch, fetches look up an instruction cache whose misses go to the L2 "
           "(-gpgpu_cache:il1); false: a perfect one (-gpgpu_perfect_inst_const_cache 1)")
PARAM_INT(l1i_sets, "l1i.sets", 4, 1, 1024, "", "L1I sets (SM2_GTX480: 4)")
PARAM_INT(l1i_ways, "l1i.ways", 4, 1, 64, "", "L1I associativity (SM2_GTX480: 4)")
PARAM_INT(l1i_line, "l1i.line", 128, 16, 1024, "B",
          "L1I line size, a power of two (SM2_GTX480: 128)")
PARAM_INT(l1i_mshrs, "l1i.mshrs", 2, 1, 8, "",
          "L1I misses in flight, each merging any number of warps (SM2_GTX480: 2)")
PARAM_INT(l1i_inst_bytes, "l1i.inst_bytes", 16, 1, 64, "B",
          "bytes of an instruction: instruction i of a kernel is at PROGRAM_MEM_START + i x this "
          "(SASS: 16)")
PARAM_BOOL(operand_collector, "sm.operand_collector", 0,
           "INT, FP and SFU instructions go through ID_OC, a collector unit that reads their "
           "source registers from banks, and OC_EX before their unit starts them (GPGPU-Sim "
           "opndcoll_rfu_t); false: a unit starts an instruction the cycle it issues")
PARAM_INT(oc_units, "sm.oc_units", 8, 1, 64, "",
          "collector units of the generic (or INT/FP) set "
          "(-gpgpu_operand_collector_num_units_gen, Fermi: _sp)")
PARAM_INT(oc_units_sfu, "sm.oc_units_sfu", 0, 0, 64, "",
          "collector units of the SFU's own set; 0: the SFU uses the generic set "
          "(-gpgpu_operand_collector_num_units_sfu)")
PARAM_INT(reg_banks, "sm.reg_banks", 16, 1, 64, "",
          "register file banks; a bank serves one read per port pass; register r of warp w "
          "sits in bank (r + w) mod banks (-gpgpu_num_reg_banks, shader.cc register_bank)")
PARAM_INT(reg_ports, "sm.reg_port_throughput", 1, 1, 8, "",
          "operand-collector passes per cycle, each a read per bank "
          "(-gpgpu_reg_file_port_throughput)")
PARAM_INT(pipe_width, "sm.pipe_width", 1, 1, 16, "",
          "slots of the INT and of the FP ID_OC and OC_EX pipeline registers "
          "(-gpgpu_pipeline_widths, the SP and INT entries)")
PARAM_INT(pipe_width_sfu, "sm.pipe_width_sfu", 1, 1, 16, "",
          "slots of the SFU's ID_OC and OC_EX pipeline registers (-gpgpu_pipeline_widths)")
PARAM_BOOL(sub_core, "sm.sub_core", 0,
           "each scheduler has its own SFU and, with sm.operand_collector, its own share of "
           "the collector units, register banks and pipeline-register slots "
           "(-gpgpu_sub_core_model)")
#define SM_OC_DISPATCH_CHOICES(X, p) X(p, issue) X(p, unit)
PARAM_CHOICE(oc_unit_order, "sm.oc_dispatch", SM_OC_DISPATCH, issue,
             "with sm.operand_collector, the order in which INT, FP and SFU instructions leave "
             "the collector units for their units. issue: oldest first, so each one's way "
             "through is known when it issues; unit: GPGPU-Sim's with sm.sub_core, where an "
             "instruction takes its scheduler's lowest-numbered free unit and, of the ready "
             "units of a scheduler waiting for one OC_EX slot, the lowest-numbered goes first "
             "(dispatch_unit_t::find_ready starts each search at the first unit of a "
             "scheduler's share), and ID_OC's oldest instruction of a class is allocated "
             "before any younger one (opndcoll_rfu_t::allocate_cu); a unit's instruction "
             "can wait there for as long as a lower-numbered unit is kept busy")
PARAM_BOOL(issue_rotate, "sm.issue_rotate", 0,
           "the scheduler that picks first, and so wins a unit or the load/store unit that "
           "two want, rotates every cycle (cycle mod sm.schedulers first: GPGPU-Sim's "
           "shader_core_ctx::issue, Issue_Prio); false: scheduler 0 first every cycle")
PARAM_BOOL(issue_rotate_active, "sm.issue_rotate_active", 0,
           "with sm.issue_rotate, the rotation counts only the cycles the SM has a CTA: "
           "GPGPU-Sim's Issue_Prio advances in shader_core_ctx::issue, which an SM without a "
           "CTA does not reach (shader_core_ctx::cycle returns first), so SMs that ran out of "
           "work at different times start the next kernel at different points of the "
           "rotation; false: every cycle counts, and all SMs rotate in step")
PARAM_INT(result_delay, "sm.result_delay", 0, 0, 16, "cycles",
          "cycles after an INT, FP or SFU unit's latency before a dependent instruction may "
          "issue: GPGPU-Sim's pipelined_simd_unit passes the result to the EX_WB register the "
          "cycle after its last stage and writes it back the cycle after (2; shader.cc "
          "pipelined_simd_unit::cycle, shader_core_ctx::writeback)")
PARAM_INT(mem_queue, "sm.mem_queue", 0, 0, 32, "",
          "memory instructions that may be on their way to the load/store unit, issued but not "
          "yet in it (GPGPU-Sim's ID_OC_MEM slots, memory collector units and OC_EX_MEM); they "
          "enter it in issue order; 0: a memory instruction issues only into a free unit")
PARAM_BOOL(mem_queue_collectors, "sm.mem_queue_collectors", 0,
           "with sm.mem_queue and sm.operand_collector, a memory instruction holds one of the "
           "sm.oc_units collector units from its issue until it enters the load/store unit, and "
           "an instruction that needs a unit issues only when one is free (GPGPU-Sim's generic "
           "collectors, -gpgpu_operand_collector_num_units_gen, serve memory instructions too)")
#define SM_MEM_QUEUE_ORDER_CHOICES(X, p) X(p, issue) X(p, collector)
PARAM_CHOICE(mem_queue_order, "sm.mem_queue_order", SM_MEM_QUEUE_ORDER, issue,
             "with sm.mem_queue_collectors, the order in which queued memory instructions enter "
             "the load/store unit. issue: oldest first; collector: GPGPU-Sim's with one "
             "OC_EX_MEM slot and no sub-cores, where every instruction takes the lowest-numbered "
             "free collector unit and the next to leave is the ready one whose unit comes "
             "first, round robin, after the unit dispatched last (shader.cc "
             "opndcoll_rfu_t::allocate_cu, dispatch_unit_t::find_ready)")
PARAM_INT(mem_queue_delay, "sm.mem_queue_delay", 2, 1, 16, "cycles",
          "with sm.mem_queue, cycles from a memory instruction's issue until it may enter the "
          "load/store unit (GPGPU-Sim: ID_OC, a collector unit, OC_EX: 2)")
PARAM_INT(sfu_width, "sm.sfu_width", 4, 1, 32, "lanes", "lanes of the SM's special-function unit")
PARAM_INT(int_latency, "sm.int_latency", 4, 1, 1000, "cycles", "integer ALU result latency")
PARAM_INT(fp_latency, "sm.fp_latency", 4, 1, 1000, "cycles", "FP add/mul/fma result latency")
PARAM_INT(sfu_latency, "sm.sfu_latency", 20, 1, 1000, "cycles", "special-function result latency")
PARAM_INT(shared_latency, "sm.shared_latency", 24, 1, 1000, "cycles",
          "shared-memory load-to-use latency")
PARAM_INT(branch_latency, "sm.branch_latency", 2, 1, 100, "cycles",
          "cycles before a warp can issue after a branch")
PARAM_INT(branch_unit_ii, "sm.branch_unit_ii", 0, 0, 64, "cycles",
          "cycles a branch holds its scheduler's branch unit, which takes one branch at a time "
          "(GPGPU-Sim trace mode's specialized unit 1 for BRA, one per sub-core: "
          "-trace_opcode_latency_initiation_spec_op_1's initiation interval); 0: no unit")
PARAM_BOOL(exit_on_int, "sm.exit_on_int", 0,
           "an exit (taken or predicated off) goes through its scheduler's INT unit as an "
           "integer instruction does, reading its predicate through the operand collector "
           "(GPGPU-Sim issues EXIT_OPS to the INT pipeline when there are INT units: "
           "scheduler_unit::cycle sends every op but SP_OP, SFU, tensor and the specialized "
           "units there); false: an exit takes no unit")
PARAM_INT(exit_ii, "sm.exit_ii", 0, 0, 64, "cycles",
          "with sm.exit_on_int, cycles an exit holds its INT unit (GPGPU-Sim trace mode gives "
          "EXIT_OPS latency and initiation interval 1, trace_config::set_latency's default, where "
          "INT opcodes take -trace_opcode_latency_initiation_int); 0: the INT unit's own, "
          "32 / sm.simd_width")
#define SM_SHARED_PATH_CHOICES(X, p) X(p, bypass) X(p, ldst)
PARAM_CHOICE(shared_path, "sm.shared_path", SM_SHARED_PATH, bypass,
             "shared loads and stores: bypass (written back sm.shared_latency cycles after "
             "issue, beside the load/store unit) or ldst (through the load/store unit, which "
             "they hold for as many cycles as their bank-conflict degree, then written back "
             "sm.shared_latency later, as GPGPU-Sim's ldst_unit::shared_cycle with "
             "-gpgpu_shmem_limited_broadcast 0 and -gpgpu_shmem_warp_parts 1)")
PARAM_INT(shared_banks, "sm.shared_banks", 32, 1, 1024, "",
          "shared-memory banks of 4-byte words, for sm.shared_path=ldst "
          "(-gpgpu_shmem_num_banks)")
#define SM_ATOMIC_PATH_CHOICES(X, p) X(p, line) X(p, serial)
PARAM_CHOICE(atomic_path, "sm.atomic_path", SM_ATOMIC_PATH, line,
             "global atomics: line (one access per L1D line, as a store, evicting the L1D "
             "copy) or serial (GPGPU-Sim's memory_coalescing_arch_atomic: one request per "
             "l1d.bypass_segment-byte segment and per repeated address within it, lanes of "
             "one address in separate requests, bypassing the L1D)")
PARAM_BOOL(atomic_wait, "sm.atomic_wait", 0,
           "a warp with a global atomic in flight issues nothing until every access of it is "
           "back, whatever the next instruction reads, from the atomic's issue on (GPGPU-Sim's "
           "shd_warp_t::waiting, m_n_atomic); false: only instructions reading its result wait")
PARAM_BOOL(sector_accesses, "l1d.sector_accesses", 0,
           "a global load or store makes one access per l1d.bypass_segment-byte piece of each "
           "line it touches, each through the L1D (a bank, a cycle of its queue, a request of "
           "its own), as Volta's coalescer makes 32-byte transactions (memory_coalescing_arch "
           "with -gpgpu_coalesce_arch 70); false: one access per line with its pieces' mask")
#define SM_STORE_REQUEST_CHOICES(X, p) X(p, sectors) X(p, reduce)
PARAM_CHOICE(store_request, "sm.store_request", SM_STORE_REQUEST, sectors,
             "what a global store access writes at a sectored L2: sectors (the 32-byte sectors "
             "its lanes touch, with their bytes) or reduce (GPGPU-Sim's 32-, 64- or 128-byte "
             "request of a 128-byte segment, memory_coalescing_arch_reduce_and_send under "
             "-gpgpu_coalesce_arch 20, as breakdown_request_to_sector_requests splits it: one "
             "touching both halves of its line writes all four sectors, and one of exactly the "
             "upper half writes sectors 2 and 3 of the next line, in this line's slice; needs "
             "l1d.line=128, l1d.bypass_segment=32 and no l1d.sector_accesses)")
PARAM_BOOL(store_acks, "sm.store_acks", 0,
           "the L2 acknowledges every global write (a header-only reply per 32-byte sector on "
           "a sectored L2, one per request otherwise) and a warp that issued its exit leaves, "
           "freeing its CTA's slot, only once every store it sent is acknowledged "
           "(GPGPU-Sim's WRITE_ACK and shd_warp_t::stores_done in hardware_done); false: "
           "writes get no reply and a warp leaves at its exit")
PARAM_INT(l1d_sets, "l1d.sets", 8, 1, 4096, "", "L1D sets")
PARAM_INT(l1d_ways, "l1d.ways", 16, 1, 256, "", "L1D associativity")
PARAM_INT(l1d_line, "l1d.line", 128, 32, 512, "bytes", "L1D line size (power of two)")
#define L1D_HASH_CHOICES(X, p) X(p, linear) X(p, xor) X(p, fermi)
PARAM_CHOICE(l1d_hash, "l1d.hash", L1D_HASH, linear,
             "L1D set index: linear, xor (pseudo-random: XOR of index-wide slices of the "
             "line address), or fermi (the Fermi L1 hash measured by Nugteren et al., HPCA "
             "2014: 32 or 64 sets, GPGPU-Sim's set index function H)")
PARAM_INT(l1d_mshrs, "l1d.mshrs", 32, 1, 1024, "", "L1D miss status holding registers")
PARAM_INT(l1d_mshr_merge, "l1d.mshr_merge", 8, 1, 64, "", "requests one MSHR can merge")
PARAM_INT(l1d_miss_spare, "l1d.miss_spare", 0, 0, 8, "",
          "injection-queue entries (icnt.sm_queue) a global load that does not hit must leave "
          "free beyond the requests it makes: GPGPU-Sim's data_cache::rd_miss_base tests "
          "miss_queue_full(1), room for a write-back, before it looks at the MSHRs, so with 1 "
          "a miss and a merge alike wait while fewer than two entries are free; 0: a merge "
          "needs none and a miss its own")
PARAM_INT(l1d_hit_latency, "l1d.hit_latency", 20, 1, 1000, "cycles", "L1D hit load-to-use latency")
PARAM_BOOL(l1d_enabled, "l1d.enabled", 1,
           "cache global loads in L1D (false: every load bypasses it)")
PARAM_INT(bypass_segment, "l1d.bypass_segment", 32, 4, 512, "bytes",
          "bytes a load fetches when it bypasses the L1D (one segment per 32-byte sector)")
PARAM_BOOL(l1d_sectored, "l1d.sectored", 0,
           "sectored L1D: lines of 32-byte sectors valid each on its own; a load fetches only "
           "the sectors it needs and missing and hit sectors are counted one by one (GPGPU-Sim's "
           "\"S:\" in -gpgpu_cache:dl1, sector_cache_block; needs l1d.bypass_segment=32)")
#define L1D_RECENCY_CHOICES(X, p) X(p, fill) X(p, miss)
PARAM_CHOICE(l1d_recency_miss, "l1d.recency", L1D_RECENCY, fill,
             "when the L1D policy inserts a missed line: fill (when the data arrives), or miss "
             "(when its way is reserved, merges promoting it; GPGPU-Sim's allocate-on-miss 'm' in "
             "-gpgpu_cache:dl1, tag_array::access)")
PARAM_BOOL(l1d_kernel_flush, "l1d.kernel_flush", 0,
           "invalidate the L1D when a kernel starts (GPGPU-Sim -gpgpu_flush_l1_cache; false: "
           "lines stay from one kernel to the next)")
PARAM_BOOL(l1d_tag_pipeline, "l1d.tag_pipeline", 0,
           "GPGPU-Sim's L1D access pipeline (ldst_unit::l1_latency_queue, -gpgpu_l1_latency): a "
           "load's or store's accesses enter a queue of l1d.hit_latency stages per bank and do "
           "their tag lookup, allocation and miss request at its head; a reservation fail holds "
           "the head (false: the lookup when the access leaves the load/store unit)")
#define L1D_ACCESS_ORDER_CHOICES(X, p) X(p, lane) X(p, descending)
PARAM_CHOICE(access_descending, "l1d.access_order", L1D_ACCESS_ORDER, lane,
             "the order in which a memory instruction's accesses (lines, or sectors with "
             "l1d.sector_accesses) leave the load/store unit: lane (by the lowest lane that "
             "touches each line) or descending (highest address first: GPGPU-Sim's coalescer "
             "queues them in address order and ldst_unit takes accessq_back, in both its L1D "
             "and its bypass paths)")
PARAM_BOOL(l1d_fill_drain, "l1d.fill_drain", 0,
           "the loads waiting on a filled L1D line (the one that missed and those merged into "
           "its MSHR) write back one a cycle from the cycle after the fill, in a queue the SM's "
           "fills share (GPGPU-Sim: the MSHR's ready list, drained by ldst_unit::writeback "
           "through the L1D's access_ready/next_access); false: all at the fill")
PARAM_INT(l1d_banks, "l1d.banks", 1, 1, 32, "",
          "L1D banks for l1d.tag_pipeline, one access entering each bank's queue per cycle, "
          "32-byte interleaved (GPGPU-Sim -gpgpu_l1_banks with "
          "-gpgpu_l1_banks_byte_interleaving 32)")
PARAM_INT(l1d_unified_kb, "l1d.unified_kb", 0, 0, 4096, "KB",
          "Volta's adaptive carveout: L1D plus shared memory per SM (0: off); each kernel gets "
          "the smallest of 0, 8, 16, 32, 64, 96 KB of shared memory its resident CTAs need and "
          "the L1D the rest, by its ways (GPGPU-Sim -gpgpu_unified_l1d_size with "
          "-gpgpu_adaptive_cache_config 1 and -gpgpu_shmem_option 0,8,16,32,64,96)")

PARAM_BOOL(sample_kernels, "sample.kernels", 0,
           "kernel sampling (docs/sampling.md): a launch whose features (name, grid, block, "
           "warp instructions by class, thread instructions, global lines touched) match an "
           "earlier one's within sample.kernel_tolerance runs functionally and its statistics "
           "are projected from that one's; false: every launch in detail")
PARAM_BOOL(sample_intra, "sample.intra", 0,
           "intra-kernel sampling (docs/sampling.md): once a kernel's cycles per warp "
           "instruction are stable over CTA waves, no more CTAs are handed out, the resident "
           "ones finish in detail and the rest run functionally, projected at the stable "
           "waves' rates; false: every CTA in detail")
PARAM_REAL(sample_kernel_tolerance, "sample.kernel_tolerance", 0.05, 0, 1, "",
           "how far a launch's features may differ from its group's first launch, relative "
           "to the larger of the two (class counts relative to the warp instructions)")
PARAM_REAL(sample_wave_tolerance, "sample.wave_tolerance", 0.03, 0, 1, "",
           "how far one interval's (CTA wave's or window's) cycles per warp instruction may "
           "differ from the interval before, relative, for the kernel to count as stable")
PARAM_INT(sample_stable_waves, "sample.stable_waves", 2, 1, 64, "waves",
          "consecutive interval-to-interval comparisons within sample.wave_tolerance that "
          "make a kernel stable")
PARAM_INT(sample_warmup_waves, "sample.warmup_waves", 1, 0, 64, "waves",
          "CTA waves at a kernel's start left out of the comparisons: an interval is "
          "compared only once as many CTAs have finished (cold caches, and the first wave's "
          "CTAs starting together)")
PARAM_INT(sample_window, "sample.window", 5000, 100, 100000000, "cycles",
          "the interval intra-kernel sampling measures a kernel by when its grid holds fewer "
          "than sample.warmup_waves + sample.stable_waves + 2 CTA waves")
PARAM_BOOL(sample_window_life, "sample.window_life", 1,
           "with sample.window intervals, once the warm-up waves' CTAs have finished, each "
           "window lasts at least the cycles they took per wave (a CTA's life): the CTAs "
           "resident together go through their phases together, and a rate over a shorter "
           "window follows the phase; false: every window lasts sample.window")

PARAM_INT(sample_kernel_warmup, "sample.kernel_warmup", 1, 0, 64, "launches",
          "with kernel sampling, a group's first launches simulated in detail to warm the "
          "caches before the one that stands for the rest (the last of the first 1 + this "
          "many)")

PARAM_BOOL(sample_warm_l2, "sample.warm_l2", 1,
           "the global accesses of the parts run functionally warm the L2 (their lines "
           "present and most recently used, written sectors dirty; no time, no count), so the "
           "detailed part after them finds the L2 much as a full run would have left it; "
           "false: the L2 stays as the last detailed part left it")

PARAM_REAL(sample_cta_spread, "sample.cta_spread", 0.25, 0, 100, "",
           "with kernel sampling's functional pass, intra-kernel sampling stops only a kernel "
           "whose CTAs are alike: the standard deviation of their warp instructions at most "
           "this share of their mean (a grid of a few heavy CTAs ends when they do, which no "
           "rate tells)")

PARAM_REAL(sample_budget, "sample.budget", 1, 0.001, 1, "",
           "with intra-kernel sampling, the most of each detailed launch's warp instructions "
           "simulated in detail: at the first window's end past this share the launch stops "
           "as if stable, whatever its rates, and is projected at its later windows' rate (a "
           "screening fidelity for search.screen, docs/sampling.md); 1: no cap")
PARAM_INT(sample_budget_floor, "sample.budget_floor", 20000, 0, 1000000000, "warp insts",
          "a budget stops no launch before this many of its warp instructions ran in detail "
          "(a short launch costs little in detail, and its first windows tell little)")

#include "core/util/param_rows_end.h"
