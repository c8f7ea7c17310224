/* The core group of the registry: every parameter of the simulator outside the policies, with
 * its type, default, range and documentation (config.c reads them into the model's structs).
 * Defaults are the Fermi GTX480 baseline of CAWA Table 1 (15 SMs, 48 warps and 8 CTAs per SM,
 * 2 schedulers, 32768 registers, 48 KB shared memory, 16 KB 8-set 16-way L1D, 768 KB L2 in 6
 * slices of 64 sets x 16 ways, minimum L2 and DRAM latencies of 120 and 220 cycles); the
 * presets in spaces/presets override them for the other papers. Timing values are in core
 * cycles. Energy sources: docs/metrics.md. */
#include "core/config/config.h"

#define P_INT(n, d, l, h, u, doc)                                                                  \
    {                                                                                              \
        n, PT_INT, d, l, h, NULL, u, doc                                                           \
    }
#define P_REAL(n, d, l, h, u, doc)                                                                 \
    {                                                                                              \
        n, PT_REAL, d, l, h, NULL, u, doc                                                          \
    }
#define P_BOOL(n, d, doc)                                                                          \
    {                                                                                              \
        n, PT_BOOL, d, 0, 1, NULL, "", doc                                                         \
    }
#define P_CHOICE(n, d, c, doc)                                                                     \
    {                                                                                              \
        n, PT_CHOICE, d, 0, 0, c, "", doc                                                          \
    }

static const char *const hash_names[] = {"linear", "xor", "fermi", NULL};
static const char *const l2_map_names[] = {"interleave", "gpgpusim", "gpgpusim_linear", NULL};
static const char *const l2_set_hash_names[] = {"linear", "ipoly", NULL};
static const char *const shared_path_names[] = {"bypass", "ldst", NULL};
static const char *const atomic_path_names[] = {"line", "serial", NULL};
static const char *const access_order_names[] = {"lane", "descending", NULL};
static const char *const recency_names[] = {"fill", "miss", NULL};
static const char *const mem_queue_order_names[] = {"issue", "collector", NULL};
static const char *const oc_dispatch_names[] = {"issue", "unit", NULL};

static const param_def core_defs[] = {
    P_INT("sim.seed", 1, 0, 9007199254740991.0, "",
          "seed of the per-simulation generator every random choice draws from"),
    P_INT("sim.max_cycles", 50000000, 1000, 1e12, "cycles",
          "cycle cap: a simulation that reaches it ends with an error"),
    P_INT("sim.watchdog", 200000, 100, 1e9, "cycles",
          "no-progress detector: cycles with live warps, no instruction issued anywhere and "
          "no L2 access or DRAM command in the memory system"),
    P_BOOL("sim.skip_idle", 1,
           "skip cycles in which nothing can happen (false: step every SM every cycle; the "
           "results are identical, only slower)"),
    P_INT("gpu.sms", 15, 1, 256, "", "streaming multiprocessors (SMs)"),
    P_BOOL("gpu.cta_rr_carry", 0,
           "the round robin that hands out CTAs goes on across kernels: a kernel's first CTA "
           "goes to the SM after the one that took the previous kernel's last CTA, as "
           "GPGPU-Sim's gpgpu_sim::issue_block2core keeps m_last_cluster_issue (false: every "
           "kernel starts at SM 0)"),
    P_INT("gpu.cta_per_cycle", 0, 0, 64, "CTAs",
          "CTAs an SM may receive per cycle (0: as many as fit at once; GPGPU-Sim's "
          "simt_core_cluster::issue_block2core starts at most one per SM per cycle)"),
    P_BOOL("gpu.cta_dispatch_late", 0,
           "CTAs are handed out after the SMs have run the cycle, so a kernel's first CTAs work "
           "from the cycle after its launch and every later one from the cycle after it is "
           "handed out (GPGPU-Sim's gpgpu_sim::cycle calls issue_block2core after the cores' "
           "cycle); false: a kernel's first CTAs are handed out before its launch cycle runs"),
    P_REAL("gpu.clock_mhz", 1400, 100, 5000, "MHz",
           "core clock, for energy and time, and the reference of icnt.clock_mhz, "
           "l2.clock_mhz and dram.clock_mhz (GPGPU-Sim -gpgpu_clock_domains, 1st field)"),
    P_INT("sm.max_warps", 48, 1, 64, "", "warp slots per SM"),
    P_INT("sm.max_ctas", 8, 1, 32, "", "CTA slots per SM"),
    P_INT("sm.max_threads", 1536, 32, 4096, "", "resident threads per SM"),
    P_INT("sm.registers", 32768, 1024, 1048576, "", "32-bit registers per SM"),
    P_INT("sm.shared_bytes", 49152, 0, 1048576, "bytes", "shared memory per SM"),
    P_INT("sm.schedulers", 2, 1, 4, "", "warp schedulers per SM, each issuing one per cycle"),
    P_INT("sm.simd_width", 16, 1, 32, "lanes",
          "lanes of each scheduler's INT and FP units (a warp occupies 32/width cycles)"),
    P_BOOL("sm.fetch", 0,
           "fetch and decode into per-warp instruction buffers, one warp per fetch slot per "
           "cycle, round robin among warps whose buffer is empty (GPGPU-Sim shader.cc "
           "shader_core_ctx::fetch/decode, perfect instruction cache as "
           "-gpgpu_perfect_inst_const_cache 1); false: a warp's next instruction is always there"),
    P_INT("sm.fetch_throughput", 1, 1, 8, "",
          "fetch-decode passes per cycle with sm.fetch (-gpgpu_inst_fetch_throughput)"),
    P_INT("sm.ibuffer", 2, 1, 16, "",
          "instructions one fetch puts into a warp's buffer with sm.fetch (GPGPU-Sim decode "
          "fills the 2 slots of shd_warp_t's ibuffer)"),
    P_BOOL("l1i.enabled", 0,
           "with sm.fetch, fetches look up an instruction cache whose misses go to the L2 "
           "(-gpgpu_cache:il1); false: a perfect one (-gpgpu_perfect_inst_const_cache 1)"),
    P_INT("l1i.sets", 4, 1, 1024, "", "L1I sets (SM2_GTX480: 4)"),
    P_INT("l1i.ways", 4, 1, 64, "", "L1I associativity (SM2_GTX480: 4)"),
    P_INT("l1i.line", 128, 16, 1024, "B", "L1I line size, a power of two (SM2_GTX480: 128)"),
    P_INT("l1i.mshrs", 2, 1, 8, "",
          "L1I misses in flight, each merging any number of warps (SM2_GTX480: 2)"),
    P_INT("l1i.inst_bytes", 16, 1, 64, "B",
          "bytes of an instruction: instruction i of a kernel is at PROGRAM_MEM_START + i x this "
          "(SASS: 16)"),
    P_BOOL("sm.operand_collector", 0,
           "INT, FP and SFU instructions go through ID_OC, a collector unit that reads their "
           "source registers from banks, and OC_EX before their unit starts them (GPGPU-Sim "
           "opndcoll_rfu_t); false: a unit starts an instruction the cycle it issues"),
    P_INT("sm.oc_units", 8, 1, 64, "",
          "collector units of the generic (or INT/FP) set "
          "(-gpgpu_operand_collector_num_units_gen, Fermi: _sp)"),
    P_INT("sm.oc_units_sfu", 0, 0, 64, "",
          "collector units of the SFU's own set; 0: the SFU uses the generic set "
          "(-gpgpu_operand_collector_num_units_sfu)"),
    P_INT("sm.reg_banks", 16, 1, 64, "",
          "register file banks; a bank serves one read per port pass; register r of warp w "
          "sits in bank (r + w) mod banks (-gpgpu_num_reg_banks, shader.cc register_bank)"),
    P_INT("sm.reg_port_throughput", 1, 1, 8, "",
          "operand-collector passes per cycle, each a read per bank "
          "(-gpgpu_reg_file_port_throughput)"),
    P_INT("sm.pipe_width", 1, 1, 16, "",
          "slots of the INT and of the FP ID_OC and OC_EX pipeline registers "
          "(-gpgpu_pipeline_widths, the SP and INT entries)"),
    P_INT("sm.pipe_width_sfu", 1, 1, 16, "",
          "slots of the SFU's ID_OC and OC_EX pipeline registers (-gpgpu_pipeline_widths)"),
    P_BOOL("sm.sub_core", 0,
           "each scheduler has its own SFU and, with sm.operand_collector, its own share of "
           "the collector units, register banks and pipeline-register slots "
           "(-gpgpu_sub_core_model)"),
    P_CHOICE("sm.oc_dispatch", 0, oc_dispatch_names,
             "with sm.operand_collector, the order in which INT, FP and SFU instructions leave "
             "the collector units for their units. issue: oldest first, so each one's way "
             "through is known when it issues; unit: GPGPU-Sim's with sm.sub_core, where an "
             "instruction takes its scheduler's lowest-numbered free unit and, of the ready "
             "units of a scheduler waiting for one OC_EX slot, the lowest-numbered goes first "
             "(dispatch_unit_t::find_ready starts each search at the first unit of a "
             "scheduler's share), and ID_OC's oldest instruction of a class is allocated "
             "before any younger one (opndcoll_rfu_t::allocate_cu); a unit's instruction "
             "can wait there for as long as a lower-numbered unit is kept busy"),
    P_BOOL("sm.issue_rotate", 0,
           "the scheduler that picks first, and so wins a unit or the load/store unit that "
           "two want, rotates every cycle (cycle mod sm.schedulers first: GPGPU-Sim's "
           "shader_core_ctx::issue, Issue_Prio); false: scheduler 0 first every cycle"),
    P_BOOL("sm.issue_rotate_active", 0,
           "with sm.issue_rotate, the rotation counts only the cycles the SM has a CTA: "
           "GPGPU-Sim's Issue_Prio advances in shader_core_ctx::issue, which an SM without a "
           "CTA does not reach (shader_core_ctx::cycle returns first), so SMs that ran out of "
           "work at different times start the next kernel at different points of the "
           "rotation; false: every cycle counts, and all SMs rotate in step"),
    P_INT("sm.result_delay", 0, 0, 16, "cycles",
          "cycles after an INT, FP or SFU unit's latency before a dependent instruction may "
          "issue: GPGPU-Sim's pipelined_simd_unit passes the result to the EX_WB register the "
          "cycle after its last stage and writes it back the cycle after (2; shader.cc "
          "pipelined_simd_unit::cycle, shader_core_ctx::writeback)"),
    P_INT("sm.mem_queue", 0, 0, 32, "",
          "memory instructions that may be on their way to the load/store unit, issued but not "
          "yet in it (GPGPU-Sim's ID_OC_MEM slots, memory collector units and OC_EX_MEM); they "
          "enter it in issue order; 0: a memory instruction issues only into a free unit"),
    P_BOOL("sm.mem_queue_collectors", 0,
           "with sm.mem_queue and sm.operand_collector, a memory instruction holds one of the "
           "sm.oc_units collector units from its issue until it enters the load/store unit, and "
           "an instruction that needs a unit issues only when one is free (GPGPU-Sim's generic "
           "collectors, -gpgpu_operand_collector_num_units_gen, serve memory instructions too)"),
    P_CHOICE("sm.mem_queue_order", 0, mem_queue_order_names,
             "with sm.mem_queue_collectors, the order in which queued memory instructions enter "
             "the load/store unit. issue: oldest first; collector: GPGPU-Sim's with one "
             "OC_EX_MEM slot and no sub-cores, where every instruction takes the lowest-numbered "
             "free collector unit and the next to leave is the ready one whose unit comes "
             "first, round robin, after the unit dispatched last (shader.cc "
             "opndcoll_rfu_t::allocate_cu, dispatch_unit_t::find_ready)"),
    P_INT("sm.mem_queue_delay", 2, 1, 16, "cycles",
          "with sm.mem_queue, cycles from a memory instruction's issue until it may enter the "
          "load/store unit (GPGPU-Sim: ID_OC, a collector unit, OC_EX: 2)"),
    P_INT("sm.sfu_width", 4, 1, 32, "lanes", "lanes of the SM's special-function unit"),
    P_INT("sm.int_latency", 4, 1, 1000, "cycles", "integer ALU result latency"),
    P_INT("sm.fp_latency", 4, 1, 1000, "cycles", "FP add/mul/fma result latency"),
    P_INT("sm.sfu_latency", 20, 1, 1000, "cycles", "special-function result latency"),
    P_INT("sm.shared_latency", 24, 1, 1000, "cycles", "shared-memory load-to-use latency"),
    P_INT("sm.branch_latency", 2, 1, 100, "cycles",
          "cycles before a warp can issue after a branch"),
    P_INT("sm.branch_unit_ii", 0, 0, 64, "cycles",
          "cycles a branch holds its scheduler's branch unit, which takes one branch at a time "
          "(GPGPU-Sim trace mode's specialized unit 1 for BRA, one per sub-core: "
          "-trace_opcode_latency_initiation_spec_op_1's initiation interval); 0: no unit"),
    P_BOOL("sm.exit_on_int", 0,
           "an exit (taken or predicated off) goes through its scheduler's INT unit as an "
           "integer instruction does, reading its predicate through the operand collector "
           "(GPGPU-Sim issues EXIT_OPS to the INT pipeline when there are INT units: "
           "scheduler_unit::cycle sends every op but SP_OP, SFU, tensor and the specialized "
           "units there); false: an exit takes no unit"),
    P_INT("sm.exit_ii", 0, 0, 64, "cycles",
          "with sm.exit_on_int, cycles an exit holds its INT unit (GPGPU-Sim trace mode gives "
          "EXIT_OPS latency and initiation interval 1, trace_config::set_latency's default, where "
          "INT opcodes take -trace_opcode_latency_initiation_int); 0: the INT unit's own, "
          "32 / sm.simd_width"),
    P_CHOICE("sm.shared_path", 0, shared_path_names,
             "shared loads and stores: bypass (written back sm.shared_latency cycles after "
             "issue, beside the load/store unit) or ldst (through the load/store unit, which "
             "they hold for as many cycles as their bank-conflict degree, then written back "
             "sm.shared_latency later, as GPGPU-Sim's ldst_unit::shared_cycle with "
             "-gpgpu_shmem_limited_broadcast 0 and -gpgpu_shmem_warp_parts 1)"),
    P_INT("sm.shared_banks", 32, 1, 1024, "",
          "shared-memory banks of 4-byte words, for sm.shared_path=ldst "
          "(-gpgpu_shmem_num_banks)"),
    P_CHOICE("sm.atomic_path", 0, atomic_path_names,
             "global atomics: line (one access per L1D line, as a store, evicting the L1D "
             "copy) or serial (GPGPU-Sim's memory_coalescing_arch_atomic: one request per "
             "l1d.bypass_segment-byte segment and per repeated address within it, lanes of "
             "one address in separate requests, bypassing the L1D)"),
    P_BOOL("sm.atomic_wait", 0,
           "a warp with a global atomic in flight issues nothing until every access of it is "
           "back, whatever the next instruction reads, from the atomic's issue on (GPGPU-Sim's "
           "shd_warp_t::waiting, m_n_atomic); false: only instructions reading its result wait"),
    P_BOOL("l1d.sector_accesses", 0,
           "a global load or store makes one access per l1d.bypass_segment-byte piece of each "
           "line it touches, each through the L1D (a bank, a cycle of its queue, a request of "
           "its own), as Volta's coalescer makes 32-byte transactions (memory_coalescing_arch "
           "with -gpgpu_coalesce_arch 70); false: one access per line with its pieces' mask"),
    P_BOOL("sm.store_acks", 0,
           "the L2 acknowledges every global write (a header-only reply per 32-byte sector on "
           "a sectored L2, one per request otherwise) and a warp that issued its exit leaves, "
           "freeing its CTA's slot, only once every store it sent is acknowledged "
           "(GPGPU-Sim's WRITE_ACK and shd_warp_t::stores_done in hardware_done); false: "
           "writes get no reply and a warp leaves at its exit"),
    P_INT("l1d.sets", 8, 1, 4096, "", "L1D sets"),
    P_INT("l1d.ways", 16, 1, 256, "", "L1D associativity"),
    P_INT("l1d.line", 128, 32, 512, "bytes", "L1D line size (power of two)"),
    P_CHOICE("l1d.hash", 0, hash_names,
             "L1D set index: linear, xor (pseudo-random: XOR of index-wide slices of the "
             "line address), or fermi (the Fermi L1 hash measured by Nugteren et al., HPCA "
             "2014: 32 or 64 sets, GPGPU-Sim's set index function H)"),
    P_INT("l1d.mshrs", 32, 1, 1024, "", "L1D miss status holding registers"),
    P_INT("l1d.mshr_merge", 8, 1, 64, "", "requests one MSHR can merge"),
    P_INT("l1d.hit_latency", 20, 1, 1000, "cycles", "L1D hit load-to-use latency"),
    P_BOOL("l1d.enabled", 1, "cache global loads in L1D (false: every load bypasses it)"),
    P_INT("l1d.bypass_segment", 32, 4, 512, "bytes",
          "bytes a load fetches when it bypasses the L1D (one segment per 32-byte sector)"),
    P_BOOL("l1d.sectored", 0,
           "sectored L1D: lines of 32-byte sectors valid each on its own; a load fetches only "
           "the sectors it needs and missing and hit sectors are counted one by one (GPGPU-Sim's "
           "\"S:\" in -gpgpu_cache:dl1, sector_cache_block; needs l1d.bypass_segment=32)"),
    P_CHOICE("l1d.recency", 0, recency_names,
             "when the L1D policy inserts a missed line: fill (when the data arrives), or miss "
             "(when its way is reserved, merges promoting it; GPGPU-Sim's allocate-on-miss 'm' in "
             "-gpgpu_cache:dl1, tag_array::access)"),
    P_BOOL("l1d.kernel_flush", 0,
           "invalidate the L1D when a kernel starts (GPGPU-Sim -gpgpu_flush_l1_cache; false: "
           "lines stay from one kernel to the next)"),
    P_BOOL("l1d.tag_pipeline", 0,
           "GPGPU-Sim's L1D access pipeline (ldst_unit::l1_latency_queue, -gpgpu_l1_latency): a "
           "load's or store's accesses enter a queue of l1d.hit_latency stages per bank and do "
           "their tag lookup, allocation and miss request at its head; a reservation fail holds "
           "the head (false: the lookup when the access leaves the load/store unit)"),
    P_CHOICE("l1d.access_order", 0, access_order_names,
             "the order in which a memory instruction's accesses (lines, or sectors with "
             "l1d.sector_accesses) leave the load/store unit: lane (by the lowest lane that "
             "touches each line) or descending (highest address first: GPGPU-Sim's coalescer "
             "queues them in address order and ldst_unit takes accessq_back, in both its L1D "
             "and its bypass paths)"),
    P_BOOL("l1d.fill_drain", 0,
           "the loads waiting on a filled L1D line (the one that missed and those merged into "
           "its MSHR) write back one a cycle from the cycle after the fill, in a queue the SM's "
           "fills share (GPGPU-Sim: the MSHR's ready list, drained by ldst_unit::writeback "
           "through the L1D's access_ready/next_access); false: all at the fill"),
    P_INT("l1d.banks", 1, 1, 32, "",
          "L1D banks for l1d.tag_pipeline, one access entering each bank's queue per cycle, "
          "32-byte interleaved (GPGPU-Sim -gpgpu_l1_banks with "
          "-gpgpu_l1_banks_byte_interleaving 32)"),
    P_INT("l1d.unified_kb", 0, 0, 4096, "KB",
          "Volta's adaptive carveout: L1D plus shared memory per SM (0: off); each kernel gets "
          "the smallest of 0, 8, 16, 32, 64, 96 KB of shared memory its resident CTAs need and "
          "the L1D the rest, by its ways (GPGPU-Sim -gpgpu_unified_l1d_size with "
          "-gpgpu_adaptive_cache_config 1 and -gpgpu_shmem_option 0,8,16,32,64,96)"),
};

/* The policy choices (sched.policy, l1d.policy, cta.policy) belong to the policy registry
 * (policies/registry.c); the catalogue places them between these two tables, where they have
 * always been, so that parameter ids and configuration hashes (journals) stay valid. */
static const param_def core_defs_tail[] = {
    P_INT("icnt.latency", 37, 1, 10000, "cycles",
          "interconnect latency, each direction (37: an unloaded L2 hit takes CAWA Table 1's "
          "minimum L2 latency of 120 cycles)"),
    P_INT("icnt.bytes_per_cycle", 32, 1, 4096, "bytes/cycle", "bandwidth of every port"),
    P_INT("icnt.header_bytes", 8, 0, 256, "bytes", "header added to every packet"),
    P_INT("icnt.sm_queue", 8, 1, 1024, "", "packets an SM may have waiting to inject"),
    P_BOOL("icnt.reply_crossbar", 0,
           "replies cross to the SMs through a crossbar: each partition's replies wait in "
           "order, each icnt cycle every SM whose port is free takes the head of one "
           "partition's queue headed for it, round robin, and a partition sends one reply at "
           "a time, so a head whose SM is busy holds the replies behind it (GPGPU-Sim's "
           "BookSim with one virtual channel and no input speedup, config_fermi_islip.icnt); "
           "false: the ports only serialize"),
    P_BOOL("icnt.reply_chain", 0,
           "with icnt.reply_crossbar: a partition whose reply crosses offers its next reply to "
           "the SMs after that one in the same icnt cycle, and its port does not serialize "
           "(GPGPU-Sim's local crossbar, -network_mode 2: iSLIP_Advance grants the outputs in "
           "increasing order and an input's next packet competes for the outputs still to "
           "come); false: one reply per partition per serialization (BookSim)"),
    P_BOOL("icnt.crossbar", 0,
           "requests cross to the partitions through a crossbar: each icnt cycle every "
           "partition takes the head of one SM's input buffer, round robin, and a head whose "
           "partition is taken holds the packets behind it (GPGPU-Sim -network_mode 2, "
           "-icnt_arbiter_algo 1); false: the ports only serialize"),
    P_INT("l2.partitions", 6, 1, 64, "", "memory partitions (L2 slices and DRAM channels)"),
    P_INT("l2.sets", 64, 1, 65536, "", "L2 sets per partition"),
    P_INT("l2.ways", 16, 1, 64, "", "L2 associativity"),
    P_INT("l2.line", 128, 32, 512, "bytes", "L2 line size"),
    P_INT("l2.hit_latency", 40, 1, 10000, "cycles", "L2 hit latency"),
    P_INT("l2.mshrs", 32, 1, 4096, "", "outstanding L2 misses per partition"),
    P_BOOL("l2.sector_cycles", 0,
           "a sectored L2 slice takes a request's 32-byte sectors one L2 cycle each, as "
           "GPGPU-Sim queues one access per sector (breakdown_request_to_sector_requests); "
           "false: one L2 cycle per request"),
    P_INT("l2.mshr_merge", 0, 0, 4096, "",
          "requests one L2 MSHR holds, its first miss included; a read or atomic to a line "
          "on its way that would be one more waits at the head of the slice's input queue, "
          "holding the requests behind it, until a fill (GPGPU-Sim's -gpgpu_cache:dl2 MSHR "
          "field A:entries:max_merge); 0: no bound"),
    P_CHOICE("l2.map", 0, l2_map_names,
             "address to L2 slice: interleave (consecutive lines over the slices, the order "
             "rotated per group of lines) or gpgpusim (GPGPU-Sim's address decoder with IPOLY "
             "partition indexing, -gpgpu_memory_partition_indexing 2: the channel from "
             "l2.map_chip_bit, the slice in the channel from l2.map_sub_bit, hashed with higher "
             "address bits; 16, 32 or 64 slices) or gpgpusim_linear (the same decoder with "
             "consecutive partition indexing, -gpgpu_memory_partition_indexing 0, any number of "
             "channels: the channel is the address above l2.map_chip_bit modulo the channels, "
             "and l2.map_sub_bit counts in the address left once the channel is taken out, "
             "addrdec.cc's gap case)"),
    P_INT("l2.map_chip_bit", 8, 5, 40, "",
          "l2.map=gpgpusim: lowest address bit of the channel index (GPGPU-Sim's dramid@N in "
          "-gpgpu_mem_addr_mapping)"),
    P_INT("l2.map_sub_bit", 13, 5, 48, "",
          "l2.map=gpgpusim: lowest address bit of the slice index inside a channel, above the "
          "channel bits (the lowest bank bit of -gpgpu_mem_addr_mapping, once the channel "
          "bits are in place)"),
    P_CHOICE("l2.set_hash", 0, l2_set_hash_names,
             "L2 set index: linear (the line's number in its slice modulo l2.sets) or ipoly "
             "(hashed with higher bits, GPGPU-Sim's set-index function P in -gpgpu_cache:dl2; "
             "16, 32 or 64 sets)"),
    P_BOOL("l2.sectored", 0,
           "sectored L2: lines of 32-byte sectors valid each on its own; a miss reads only the "
           "missing sectors from DRAM and statistics count sectors (GPGPU-Sim's \"S:\" in "
           "-gpgpu_cache:dl2; lines of at most 256 bytes)"),
    P_INT("dram.banks", 16, 1, 256, "", "banks per channel"),
    P_INT("dram.row_bytes", 2048, 128, 65536, "bytes", "row (page) size"),
    /* at least 2: a miss that evicts a dirty line needs two slots at once (fill and write) */
    P_INT("dram.queue", 32, 2, 4096, "", "request queue per channel (FR-FCFS window)"),
    P_INT("dram.bytes_per_cycle", 21, 1, 4096, "bytes/cycle",
          "data-bus bandwidth per channel (GTX480: 177.4 GB/s over 6 channels at 1.4 GHz)"),
    P_INT("dram.t_cl", 18, 1, 1000, "cycles", "CAS latency"),
    P_INT("dram.t_rcd", 18, 1, 1000, "cycles", "activate to read"),
    P_INT("dram.t_rp", 18, 1, 1000, "cycles", "precharge"),
    P_INT("dram.t_ras", 42, 1, 1000, "cycles", "activate to precharge"),
    P_INT("dram.latency", 57, 0, 10000, "cycles",
          "fixed memory-controller and PHY latency of every DRAM read (57: an unloaded L2 "
          "miss takes CAWA Table 1's minimum DRAM latency of 220 cycles)"),
    P_REAL("icnt.clock_mhz", 0, 0, 100000, "MHz",
           "interconnect clock (0: gpu.clock_mhz); icnt.latency and icnt.bytes_per_cycle then "
           "count icnt cycles (GPGPU-Sim -gpgpu_clock_domains, 2nd field)"),
    P_REAL("l2.clock_mhz", 0, 0, 100000, "MHz",
           "L2 clock (0: gpu.clock_mhz); l2.hit_latency and the one access per cycle of a "
           "slice then count L2 cycles (GPGPU-Sim -gpgpu_clock_domains, 3rd field)"),
    P_REAL("dram.clock_mhz", 0, 0, 100000, "MHz",
           "DRAM command clock (0: gpu.clock_mhz); dram.t_* and dram.bytes_per_cycle then count "
           "DRAM cycles (GPGPU-Sim -gpgpu_clock_domains, 4th field)"),
    P_INT("l2.rop_latency", 0, 0, 10000, "cycles",
          "core cycles from a request's arrival at its partition until its L2 slice may take "
          "it, paid by hits and misses alike (GPGPU-Sim -gpgpu_l2_rop_latency, l2cache.cc "
          "m_rop)"),
    P_INT("l2.slices_per_channel", 1, 1, 64, "",
          "L2 slices sharing one DRAM channel: l2.partitions counts slices (each with its own "
          "interconnect port and l2.sets x l2.ways), and every channel (queue, banks, bus) "
          "serves this many (GPGPU-Sim -gpgpu_n_sub_partition_per_mchannel)"),
    P_INT("dram.atom_bytes", 0, 0, 4096, "bytes",
          "smallest DRAM transfer (0: none, the bus moves exactly the bytes asked for): every "
          "access occupies the data bus for whole atoms, and with l2.sectored each 32-byte "
          "sector is an access of its own (GPGPU-Sim dram_atom_size = -gpgpu_dram_burst_length x "
          "-gpgpu_dram_buswidth x -gpgpu_n_mem_per_ctrlr; l2cache.cc sends one request per "
          "sector)"),
    P_INT("dram.t_rrd", 0, 0, 1000, "cycles",
          "activate to activate, any two banks of a channel (GPGPU-Sim RRD in "
          "-gpgpu_dram_timing_opt; 0: no limit)"),
    P_INT("dram.t_rc", 0, 0, 1000, "cycles",
          "activate to activate, the same bank (GPGPU-Sim RC; 0: only dram.t_ras + dram.t_rp)"),
    P_INT("dram.bank_groups", 1, 1, 16, "",
          "bank groups per channel, bank b in group b mod dram.bank_groups (GPGPU-Sim nbkgrp "
          "with -dram_bnkgrp_indexing_policy 1, the bank number's low bits)"),
    P_INT("dram.t_ccdl", 0, 0, 1000, "cycles",
          "column to column, the same bank group (GPGPU-Sim CCDL; 0: only the data bus)"),
    P_INT("dram.t_rtpl", 0, 0, 1000, "cycles",
          "read to precharge, the same bank group (GPGPU-Sim RTPL)"),
    P_INT("dram.t_rtw", 0, 0, 1000, "cycles",
          "read to write, any banks (GPGPU-Sim tRTW = CL + BL / -dram_data_command_freq_ratio "
          "+ 2 - WL)"),
    P_INT("dram.t_wtr", 0, 0, 1000, "cycles",
          "write to read, any banks (GPGPU-Sim tWTR = WL + BL / ratio + CDLR)"),
    P_INT("dram.t_wtp", 0, 0, 1000, "cycles",
          "write to precharge, the same bank (GPGPU-Sim tWTP = WL + BL / ratio + WR; 0: the "
          "write's data burst)"),
    P_BOOL("dram.dual_bus", 0,
           "separate row and column command buses: an activation or precharge may issue in "
           "the same cycle as a column command (GPGPU-Sim -dram_dual_bus_interface 1; "
           "false: one command per cycle)"),
    P_INT("dram.bank_bit", 0, 0, 40, "",
          "bank and row from the channel's address as GPGPU-Sim's -gpgpu_mem_addr_mapping with "
          "one bank bit (B) at this bit among the column bits and the other bank bits just above "
          "the row's columns (QV100 ...RBBBCCCB.CCCSSSSS: 8; GTX480 ...BBBCCCCB.CCSSSSSS: 8); 0: "
          "consecutive lines fill a row, then the next bank (row-block interleaving)"),
    P_INT("dram.inflight", 0, 0, 65536, "",
          "with dram.latency_first, requests a channel takes from its L2 slices before their "
          "column commands, counting those still in the dram.latency pipe, which they enter one "
          "per DRAM cycle while the scheduler's queue has room (GPGPU-Sim's arbitration credits: "
          "-gpgpu_frfcfs_dram_sched_queue_size + -gpgpu_dram_return_queue_size + 1); 0: the pipe "
          "holds slots of dram.queue"),
    P_BOOL("dram.latency_first", 0,
           "dram.latency delays a request on its way into the channel's queue instead of "
           "its data on the way back (GPGPU-Sim -dram_latency, l2cache.cc "
           "m_dram_latency_queue)"),
    P_REAL("energy.int_op_pj", 0.1, 0, 1e6, "pJ",
           "integer operation per lane (Horowitz ISSCC 2014: 32-bit add, 45 nm)"),
    P_REAL("energy.fp_op_pj", 3.7, 0, 1e6, "pJ",
           "FP operation per lane (Horowitz ISSCC 2014: 32-bit FP multiply, 45 nm)"),
    P_REAL("energy.sfu_op_pj", 15.0, 0, 1e6, "pJ",
           "special function per lane (about four FP operations; see docs/metrics.md)"),
    P_REAL("energy.regfile_pj", 1.25, 0, 1e6, "pJ",
           "register operand per lane (Horowitz: 8 KB SRAM, 10 pJ per 64 bits, per 4 bytes)"),
    P_REAL("energy.l1d_pj_per_byte", 2.5, 0, 1e6, "pJ",
           "L1D per byte moved (Horowitz: 32 KB SRAM, 20 pJ per 64 bits)"),
    P_REAL("energy.shared_pj_per_byte", 2.5, 0, 1e6, "pJ",
           "shared memory per byte (Horowitz: 32 KB SRAM, 20 pJ per 64 bits)"),
    P_REAL("energy.icnt_pj_per_byte", 4.0, 0, 1e6, "pJ",
           "interconnect per byte moved (on-chip wires, Keckler et al. IEEE Micro 2011)"),
    P_REAL("energy.l2_pj_per_byte", 12.5, 0, 1e6, "pJ",
           "L2 per byte (Horowitz: 1 MB SRAM, 100 pJ per 64 bits)"),
    P_REAL("energy.dram_pj_per_byte", 162.5, 0, 1e6, "pJ",
           "DRAM per byte transferred (Horowitz: 1.3-2.6 nJ per 64 bits; low end)"),
    P_REAL("energy.dram_activate_pj", 2000, 0, 1e9, "pJ", "DRAM row activation"),
    P_REAL("energy.static_watts", 30, 0, 1e4, "W",
           "static power of the whole GPU (leakage and constant power)"),
    P_REAL("energy.sm_active_watts", 0, 0, 1e4, "W",
           "power of each SM while it holds a CTA (AccelWattch's lane-activation static "
           "power, static_*_flane/addlane, which gpgpu_sim_wrapper::calculate_static_power "
           "scales by the share of active SMs; per SM). 0: not modelled"),
    P_REAL("energy.sm_idle_watts", 0, 0, 1e4, "W",
           "power of each SM while it holds no CTA (GPUWattch/AccelWattch idle_core_power, "
           "charged per idle SM: power_interface.cc, set_idle_core_power). 0: not modelled"),
    P_REAL("energy.inst_pj", 0, 0, 1e6, "pJ",
           "per warp instruction issued: fetch, decode, instruction buffer, scheduler and "
           "pipeline latches (AccelWattch/GPUWattch components IBP, ICP, SCHEDP, PIPEP). "
           "0: not modelled"),
};

const param_group core_param_group = {"core", core_defs, sizeof core_defs / sizeof core_defs[0]};
const param_group core_param_group_tail = {"core", core_defs_tail,
                                           sizeof core_defs_tail / sizeof core_defs_tail[0]};
