/* The memory system's parameters, read into memsys_config (core/mem/memsys.h), one row each in
 * catalogue order: the second part of the core group begins with them. Macro text only: the
 * config layer above turns the rows into parameters and reads them (core/config), and
 * memsys.h into the struct's fields.
 *
 * A new parameter is one row at the end of the table; core/config/gpu_params.h describes the
 * row macros. Rows are appended, never moved: parameter ids are places in the catalogue, and
 * the configuration hash reads the parameters in its order.
 *
 * Defaults are CAWA Table 1's GTX480: 768 KB L2 in 6 slices of 64 sets x 16 ways, minimum L2
 * and DRAM latencies of 120 and 220 cycles. Clock domains: with a domain's own clock
 * (icnt.clock_mhz, l2.clock_mhz, dram.clock_mhz; 0 is the core clock), its latencies,
 * timings and bandwidths count in that domain's cycles (memsys_internal.h, ms_clock):
 * icnt_latency and icnt_bytes_per_cycle in icnt cycles, l2_hit_latency in L2 cycles (and the
 * slice accepts one request per L2 cycle), dram_t_* and dram_bytes_per_cycle in DRAM cycles.
 * dram_latency and l2_rop_latency stay in core cycles, as GPGPU-Sim counts them.
 *
 * Included several times (no include guard), each time with the row macros the includer needs
 * defined; the others expand to nothing, and all are undefined at the end. */
#include "core/util/param_rows.h"

PARAM_INT(icnt_latency, "icnt.latency", 37, 1, 10000, "cycles",
          "interconnect latency, each direction (37: an unloaded L2 hit takes CAWA Table 1's "
          "minimum L2 latency of 120 cycles)")
PARAM_INT(icnt_bytes_per_cycle, "icnt.bytes_per_cycle", 32, 1, 4096, "bytes/cycle",
          "bandwidth of every port")
PARAM_INT(icnt_header_bytes, "icnt.header_bytes", 8, 0, 256, "bytes",
          "header added to every packet")
PARAM_INT(icnt_sm_queue, "icnt.sm_queue", 8, 1, 1024, "",
          "packets an SM may have waiting to inject")
PARAM_BOOL(icnt_reply_crossbar, "icnt.reply_crossbar", 0,
           "replies cross to the SMs through a crossbar: each partition's replies wait in "
           "order, each icnt cycle every SM whose port is free takes the head of one "
           "partition's queue headed for it, round robin, and a partition sends one reply at "
           "a time, so a head whose SM is busy holds the replies behind it (GPGPU-Sim's "
           "BookSim with one virtual channel and no input speedup, config_fermi_islip.icnt); "
           "false: the ports only serialize")
PARAM_BOOL(icnt_reply_chain, "icnt.reply_chain", 0,
           "with icnt.reply_crossbar: a partition whose reply crosses offers its next reply to "
           "the SMs after that one in the same icnt cycle, and its port does not serialize "
           "(GPGPU-Sim's local crossbar, -network_mode 2: iSLIP_Advance grants the outputs in "
           "increasing order and an input's next packet competes for the outputs still to "
           "come); false: one reply per partition per serialization (BookSim)")
PARAM_BOOL(icnt_crossbar, "icnt.crossbar", 0,
           "requests cross to the partitions through a crossbar: each icnt cycle every "
           "partition takes the head of one SM's input buffer, round robin, and a head whose "
           "partition is taken holds the packets behind it (GPGPU-Sim -network_mode 2, "
           "-icnt_arbiter_algo 1); false: the ports only serialize")
PARAM_INT(partitions, "l2.partitions", 6, 1, 64, "",
          "memory partitions (L2 slices and DRAM channels)")
PARAM_INT(l2_sets, "l2.sets", 64, 1, 65536, "", "L2 sets per partition")
PARAM_INT(l2_ways, "l2.ways", 16, 1, 64, "", "L2 associativity")
PARAM_INT(l2_line, "l2.line", 128, 32, 512, "bytes", "L2 line size")
PARAM_INT(l2_hit_latency, "l2.hit_latency", 40, 1, 10000, "cycles", "L2 hit latency")
PARAM_INT(l2_mshrs, "l2.mshrs", 32, 1, 4096, "", "outstanding L2 misses per partition")
PARAM_BOOL(l2_sector_cycles, "l2.sector_cycles", 0,
           "a sectored L2 slice takes a request's 32-byte sectors one L2 cycle each, as "
           "GPGPU-Sim queues one access per sector (breakdown_request_to_sector_requests); "
           "false: one L2 cycle per request")
/* a read or atomic that would be one more MSHR entry is GPGPU-Sim's mshr_table::full, a
 * RESERVATION_FAIL */
PARAM_INT(l2_mshr_merge, "l2.mshr_merge", 0, 0, 4096, "",
          "requests one L2 MSHR holds, its first miss included; a read or atomic to a line "
          "on its way that would be one more waits at the head of the slice's input queue, "
          "holding the requests behind it, until a fill (GPGPU-Sim's -gpgpu_cache:dl2 MSHR "
          "field A:entries:max_merge); 0: no bound")
/* memsys_map.c: interleave is warptune's line interleave; the gpgpusim mappings put the channel
 * bits at l2_map_chip_bit and the sub-partition bits (log2 l2_slices_per_channel) at
 * l2_map_sub_bit */
#define L2_MAP_CHOICES(X, p) X(p, interleave) X(p, gpgpusim) X(p, gpgpusim_linear)
PARAM_CHOICE(l2_map, "l2.map", L2_MAP, interleave,
             "address to L2 slice: interleave (consecutive lines over the slices, the order "
             "rotated per group of lines) or gpgpusim (GPGPU-Sim's address decoder with IPOLY "
             "partition indexing, -gpgpu_memory_partition_indexing 2: the channel from "
             "l2.map_chip_bit, the slice in the channel from l2.map_sub_bit, hashed with higher "
             "address bits; 16, 32 or 64 slices) or gpgpusim_linear (the same decoder with "
             "consecutive partition indexing, -gpgpu_memory_partition_indexing 0, any number of "
             "channels: the channel is the address above l2.map_chip_bit modulo the channels, "
             "and l2.map_sub_bit counts in the address left once the channel is taken out, "
             "addrdec.cc's gap case)")
PARAM_INT(l2_map_chip_bit, "l2.map_chip_bit", 8, 5, 40, "",
          "l2.map=gpgpusim: lowest address bit of the channel index (GPGPU-Sim's dramid@N in "
          "-gpgpu_mem_addr_mapping)")
PARAM_INT(l2_map_sub_bit, "l2.map_sub_bit", 13, 5, 48, "",
          "l2.map=gpgpusim: lowest address bit of the slice index inside a channel, above the "
          "channel bits (the lowest bank bit of -gpgpu_mem_addr_mapping, once the channel "
          "bits are in place)")
/* the field reads as a flag: 1 (L2_SET_HASH_ipoly) hashes the set index */
#define L2_SET_HASH_CHOICES(X, p) X(p, linear) X(p, ipoly)
PARAM_CHOICE(l2_set_ipoly, "l2.set_hash", L2_SET_HASH, linear,
             "L2 set index: linear (the line's number in its slice modulo l2.sets) or ipoly "
             "(hashed with higher bits, GPGPU-Sim's set-index function P in -gpgpu_cache:dl2; "
             "16, 32 or 64 sets)")
PARAM_BOOL(l2_sectored, "l2.sectored", 0,
           "sectored L2: lines of 32-byte sectors valid each on its own; a miss reads only the "
           "missing sectors from DRAM and statistics count sectors (GPGPU-Sim's \"S:\" in "
           "-gpgpu_cache:dl2; lines of at most 256 bytes)")
PARAM_BOOL(l2_lazy_fetch, "l2.lazy_fetch", 0,
           "a sectored L2 allocates on a write miss as GPGPU-Sim's LAZY_FETCH_ON_READ (the "
           "write-allocate field L of -gpgpu_cache:dl2): a sector a write allocates stays "
           "readable only if that write covers all its 32 bytes, and a read or atomic of an "
           "unreadable sector fetches it from DRAM (a SECTOR_MISS); false: every written "
           "sector is readable (needs l2.sectored)")
PARAM_INT(dram_banks, "dram.banks", 16, 1, 256, "", "banks per channel")
PARAM_INT(dram_row_bytes, "dram.row_bytes", 2048, 128, 65536, "bytes", "row (page) size")
/* at least 2: a miss that evicts a dirty line needs two slots at once (fill and write) */
PARAM_INT(dram_queue, "dram.queue", 32, 2, 4096, "", "request queue per channel (FR-FCFS window)")
PARAM_INT(dram_bytes_per_cycle, "dram.bytes_per_cycle", 21, 1, 4096, "bytes/cycle",
          "data-bus bandwidth per channel (GTX480: 177.4 GB/s over 6 channels at 1.4 GHz)")
PARAM_INT(dram_t_cl, "dram.t_cl", 18, 1, 1000, "cycles", "CAS latency")
PARAM_INT(dram_t_rcd, "dram.t_rcd", 18, 1, 1000, "cycles", "activate to read")
PARAM_INT(dram_t_rp, "dram.t_rp", 18, 1, 1000, "cycles", "precharge")
PARAM_INT(dram_t_ras, "dram.t_ras", 42, 1, 1000, "cycles", "activate to precharge")
PARAM_INT(dram_latency, "dram.latency", 57, 0, 10000, "cycles",
          "fixed memory-controller and PHY latency of every DRAM read (57: an unloaded L2 "
          "miss takes CAWA Table 1's minimum DRAM latency of 220 cycles)")
PARAM_REAL(icnt_mhz, "icnt.clock_mhz", 0, 0, 100000, "MHz",
           "interconnect clock (0: gpu.clock_mhz); icnt.latency and icnt.bytes_per_cycle then "
           "count icnt cycles (GPGPU-Sim -gpgpu_clock_domains, 2nd field)")
PARAM_REAL(l2_mhz, "l2.clock_mhz", 0, 0, 100000, "MHz",
           "L2 clock (0: gpu.clock_mhz); l2.hit_latency and the one access per cycle of a "
           "slice then count L2 cycles (GPGPU-Sim -gpgpu_clock_domains, 3rd field)")
PARAM_REAL(dram_mhz, "dram.clock_mhz", 0, 0, 100000, "MHz",
           "DRAM command clock (0: gpu.clock_mhz); dram.t_* and dram.bytes_per_cycle then count "
           "DRAM cycles (GPGPU-Sim -gpgpu_clock_domains, 4th field)")
PARAM_INT(l2_rop_latency, "l2.rop_latency", 0, 0, 10000, "cycles",
          "core cycles from a request's arrival at its partition until its L2 slice may take "
          "it, paid by hits and misses alike (GPGPU-Sim -gpgpu_l2_rop_latency, l2cache.cc "
          "m_rop)")
/* 0 (a zeroed struct) reads as 1; the partitions / l2_slices_per_channel channels each serve
 * that many consecutive slices through one queue of dram_queue entries, one set of banks and
 * one data bus */
PARAM_INT(l2_slices_per_channel, "l2.slices_per_channel", 1, 1, 64, "",
          "L2 slices sharing one DRAM channel: l2.partitions counts slices (each with its own "
          "interconnect port and l2.sets x l2.ways), and every channel (queue, banks, bus) "
          "serves this many (GPGPU-Sim -gpgpu_n_sub_partition_per_mchannel)")
PARAM_INT(dram_atom_bytes, "dram.atom_bytes", 0, 0, 4096, "bytes",
          "smallest DRAM transfer (0: none, the bus moves exactly the bytes asked for): every "
          "access occupies the data bus for whole atoms, and with l2.sectored each 32-byte "
          "sector is an access of its own (GPGPU-Sim dram_atom_size = -gpgpu_dram_burst_length x "
          "-gpgpu_dram_buswidth x -gpgpu_n_mem_per_ctrlr; l2cache.cc sends one request per "
          "sector), a write as dram.sector_writes says")
PARAM_BOOL(dram_sector_writes, "dram.sector_writes", 0,
           "with l2.sectored and dram.atom_bytes: a write to DRAM moves each of its 32-byte "
           "sectors in atoms of its own, as each sector of a read does; false: all its bytes "
           "together, in ceil(bytes / atom) atoms, as GPGPU-Sim's dram_t moves a write-back of "
           "a line's dirty sectors (sector_cache_block::get_modified_size), so two sectors "
           "share a 64-byte atom")
PARAM_INT(dram_t_rrd, "dram.t_rrd", 0, 0, 1000, "cycles",
          "activate to activate, any two banks of a channel (GPGPU-Sim RRD in "
          "-gpgpu_dram_timing_opt; 0: no limit)")
PARAM_INT(dram_t_rc, "dram.t_rc", 0, 0, 1000, "cycles",
          "activate to activate, the same bank (GPGPU-Sim RC; 0: only dram.t_ras + dram.t_rp)")
PARAM_INT(dram_bank_groups, "dram.bank_groups", 1, 1, 16, "",
          "bank groups per channel, bank b in group b mod dram.bank_groups (GPGPU-Sim nbkgrp "
          "with -dram_bnkgrp_indexing_policy 1, the bank number's low bits)")
PARAM_INT(dram_t_ccdl, "dram.t_ccdl", 0, 0, 1000, "cycles",
          "column to column, the same bank group (GPGPU-Sim CCDL; 0: only the data bus)")
PARAM_INT(dram_t_rtpl, "dram.t_rtpl", 0, 0, 1000, "cycles",
          "read to precharge, the same bank group (GPGPU-Sim RTPL)")
PARAM_INT(dram_t_rtw, "dram.t_rtw", 0, 0, 1000, "cycles",
          "read to write, any banks (GPGPU-Sim tRTW = CL + BL / -dram_data_command_freq_ratio "
          "+ 2 - WL)")
PARAM_INT(dram_t_wtr, "dram.t_wtr", 0, 0, 1000, "cycles",
          "write to read, any banks (GPGPU-Sim tWTR = WL + BL / ratio + CDLR)")
PARAM_INT(dram_t_wtp, "dram.t_wtp", 0, 0, 1000, "cycles",
          "write to precharge, the same bank (GPGPU-Sim tWTP = WL + BL / ratio + WR; 0: the "
          "write's data burst)")
PARAM_BOOL(dram_dual_bus, "dram.dual_bus", 0,
           "separate row and column command buses: an activation or precharge may issue in "
           "the same cycle as a column command (GPGPU-Sim -dram_dual_bus_interface 1; "
           "false: one command per cycle)")
/* in the channel's address (channel bits out, sub-partition bits in place): 2^dram_bank_bit
 * consecutive bytes share a bank and neighbouring chunks alternate between two */
PARAM_INT(dram_bank_bit, "dram.bank_bit", 0, 0, 40, "",
          "bank and row from the channel's address as GPGPU-Sim's -gpgpu_mem_addr_mapping with "
          "one bank bit (B) at this bit among the column bits and the other bank bits just above "
          "the row's columns (QV100 ...RBBBCCCB.CCCSSSSS: 8; GTX480 ...BBBCCCCB.CCSSSSSS: 8); 0: "
          "consecutive lines fill a row, then the next bank (row-block interleaving)")
PARAM_INT(dram_inflight, "dram.inflight", 0, 0, 65536, "",
          "with dram.latency_first, requests a channel takes from its L2 slices before their "
          "column commands, counting those still in the dram.latency pipe, which they enter one "
          "per DRAM cycle while the scheduler's queue has room (GPGPU-Sim's arbitration credits: "
          "-gpgpu_frfcfs_dram_sched_queue_size + -gpgpu_dram_return_queue_size + 1); 0: the pipe "
          "holds slots of dram.queue")
PARAM_BOOL(dram_latency_first, "dram.latency_first", 0,
           "dram.latency delays a request on its way into the channel's queue instead of "
           "its data on the way back (GPGPU-Sim -dram_latency, l2cache.cc "
           "m_dram_latency_queue)")

PARAM_INT(icnt_sm_buffer, "icnt.sm_buffer", 0, 0, 100000, "",
          "with icnt.crossbar: packets an SM may have in the request network before the "
          "crossbar grants them (its injection queue and input buffer); a full one refuses "
          "sends, as GPGPU-Sim's icnt_has_buffer does (0: unbounded)")
PARAM_INT(l2_input_queue, "l2.input_queue", 0, 0, 100000, "",
          "with icnt.crossbar: requests a slice may hold from the crossbar's grant until its L2 "
          "takes them (the ROP and icnt-to-L2 queues); the crossbar grants no packet to a full "
          "one, so its backlog holds the SMs' buffers (0: unbounded)")
PARAM_INT(icnt_sm_queue_hold, "icnt.sm_queue_hold", 0, 0, 1, "cycles",
          "cycles a request keeps its place in the SM's injection queue (icnt.sm_queue) after "
          "it starts injecting: 1 is GPGPU-Sim's L1D miss queue, which hands its head to the "
          "interconnect in the cache's cycle, before that cycle's accesses, so a request sent "
          "at cycle t leaves at t + 1 at the earliest and its place serves accesses from then "
          "on; 0: the place serves the cycle the request starts")
#include "core/util/param_rows_end.h"
