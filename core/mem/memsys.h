/* The memory system below the SMs' L1D caches: interconnect, L2 partitions and DRAM channels.
 *
 * Event-driven and deterministic: every packet carries the cycle it was sent; the memory system
 * keeps its own time-ordered events, advanced by memsys_tick(now). SMs send requests and pop
 * the replies that have arrived. Bandwidth is modelled at every port (SM injection, partition
 * input, reply to SM, DRAM data bus), so contention emerges: more outstanding requests mean
 * longer round trips once a port saturates. */
#ifndef WT_MEMSYS_H
#define WT_MEMSYS_H

#include <stddef.h>
#include <stdint.h>

typedef enum mem_kind { MEM_READ, MEM_WRITE, MEM_ATOMIC } mem_kind;

typedef struct mem_packet {
    uint64_t addr;       /* byte address; reads and atomics: aligned to `bytes` */
    uint32_t bytes;      /* bytes read (the L1 line, or a 32-byte segment) or written */
    uint8_t kind;        /* mem_kind */
    uint16_t sm;         /* sending SM; replies go back to it */
    uint32_t token;      /* the SM's own tag, returned untouched in the reply */
    uint16_t sectors;    /* a sectored L2 (l2_sectored): bit s asks for the 32-byte sector at
                          * addr + 32 s; 0: the sectors [addr, addr + bytes) covers */
    uint64_t sent_cycle; /* the cycle the SM sent it (set by memsys_send) */
} mem_packet;

typedef struct memsys_config {
    int num_sms;
    /* interconnect */
    int icnt_latency;         /* cycles, each direction */
    int icnt_bytes_per_cycle; /* per port: each SM's injection and ejection, each partition's */
    int icnt_header_bytes;    /* added to every packet */
    int icnt_sm_queue;        /* packets an SM may have waiting to inject */
    /* 1: requests cross to the partitions through a crossbar that, each icnt cycle, gives
     * every partition the head of one SM's input buffer (round robin), so a head whose
     * partition is taken holds the packets behind it (GPGPU-Sim -network_mode 2 with
     * -icnt_arbiter_algo 1, local_interconnect.cc); 0: each port only serializes. */
    int icnt_crossbar;
    /* 1: replies cross to the SMs through a crossbar: each partition's replies wait in order,
     * each icnt cycle every SM whose ejection port is free takes the head of one partition's
     * queue headed for it (round robin), and a partition sends one reply at a time, so a head
     * whose SM is busy holds the replies behind it (BookSim with one virtual channel). */
    int icnt_reply_crossbar;
    /* 1 (with icnt_reply_crossbar): a partition whose head crosses offers its next reply to the
     * SMs after it in the same icnt cycle, and its port does not serialize (GPGPU-Sim's local
     * crossbar: iSLIP_Advance grants the outputs in increasing order, and an input's next
     * packet competes for the outputs still to come). 0: one reply per partition per port
     * serialization (BookSim). */
    int icnt_reply_chain;
    /* L2: one slice per memory partition */
    int partitions;
    int l2_sets; /* per partition */
    int l2_ways;
    int l2_line;        /* bytes */
    int l2_hit_latency; /* cycles */
    int l2_mshrs;       /* outstanding misses per partition */
    int l2_mshr_merge;  /* requests one MSHR holds, the first miss included (0: no bound); a
                         * read or atomic that would be one more waits at the head of the input
                         * queue for a fill (GPGPU-Sim's mshr_table::full: RESERVATION_FAIL) */
    int l2_sectored;    /* lines of 32-byte sectors, each valid on its own (at most 8) */
    /* Address mapping (memsys_map.c): 0 warptune's line interleave; 1 GPGPU-Sim's address
     * decoder with IPOLY partition indexing, channel bits at l2_map_chip_bit and the
     * sub-partition bits (log2 l2_slices_per_channel) at l2_map_sub_bit. l2_set_ipoly: the L2
     * set index is IPOLY-hashed (GPGPU-Sim's set-index function P). */
    int l2_map, l2_map_chip_bit, l2_map_sub_bit, l2_set_ipoly;
    /* DRAM: one channel per partition */
    int dram_banks;
    int dram_row_bytes;
    int dram_queue;           /* request queue capacity per channel (FR-FCFS window) */
    int dram_bytes_per_cycle; /* data bus bandwidth per channel, per DRAM cycle */
    int dram_t_cl, dram_t_rcd, dram_t_rp, dram_t_ras; /* DRAM cycles */
    int dram_latency; /* fixed controller and PHY latency of every read (core cycles): added to
                       * its data, or with dram_latency_first before it enters the queue */
    /* Clock domains (MHz; 0: the core clock). With a domain's own clock, its latencies,
     * timings and bandwidths above count in that domain's cycles (see memsys_internal.h,
     * ms_clock): icnt_latency and icnt_bytes_per_cycle in icnt cycles, l2_hit_latency in L2
     * cycles (and the slice accepts one request per L2 cycle), dram_t_* and
     * dram_bytes_per_cycle in DRAM cycles. dram_latency and l2_rop_latency stay in core
     * cycles, as GPGPU-Sim counts them. Everything outside the memory system is core cycles. */
    double core_mhz, icnt_mhz, l2_mhz, dram_mhz;
    int l2_rop_latency; /* core cycles from a request's arrival at its partition until the L2
                         * may accept it (GPGPU-Sim -gpgpu_l2_rop_latency); 0 in the past */
    /* L2 slices sharing one DRAM channel (0 or 1: one each; GPGPU-Sim
     * -gpgpu_n_sub_partition_per_mchannel): `partitions` counts slices, and the
     * partitions / l2_slices_per_channel channels each serve that many consecutive slices
     * through one request queue of dram_queue entries, one set of banks and one data bus. */
    int l2_slices_per_channel;
    /* 1: dram_latency delays a request's entry into its channel's queue (GPGPU-Sim
     * memory_partition_unit::dram_cycle, m_dram_latency_queue) instead of its data's return. */
    int dram_latency_first;
    /* Smallest transfer of the data bus (0: none). Each access is rounded up to whole atoms,
     * and a sectored L2's access to whole atoms per 32-byte sector, as GPGPU-Sim sends each
     * sector as its own DRAM request (dram.cc moves dram_atom_size bytes per column command). */
    int dram_atom_bytes;
    /* GPGPU-Sim's further DRAM timings (dram.cc issue_row_command, issue_col_command), DRAM
     * cycles, 0 for none: activate to activate in the channel (t_rrd) and in a bank (t_rc);
     * column to column (t_ccdl) and read to precharge (t_rtpl) in a bank group of
     * dram_bank_groups (bank b in group b % groups); the read/write turnarounds of the
     * channel (t_rtw, t_wtr) and write to precharge in a bank (t_wtp). dram_dual_bus: a row
     * command may issue in the cycle of a column command. */
    int dram_t_rrd, dram_t_rc, dram_bank_groups, dram_t_ccdl, dram_t_rtpl;
    int dram_t_rtw, dram_t_wtr, dram_t_wtp, dram_dual_bus;
    /* 0: row-block interleaving (memsys_dram.c). Otherwise GPGPU-Sim's address decoder for
     * bank and row: in the channel's address (channel bits out, sub-partition bits in place),
     * bit dram_bank_bit is the bank's lowest bit and the bank's other bits sit just above the
     * row's columns, so 2^dram_bank_bit consecutive bytes share a bank and neighbouring chunks
     * alternate between two. */
    int dram_bank_bit;
    /* With dram_latency_first: 0, a request in the latency pipe holds a slot of dram_queue.
     * Otherwise GPGPU-Sim's dram_cycle: a request enters the pipe (one per DRAM cycle) while
     * the channel's queue has room and fewer than dram_inflight requests are in the pipe and
     * the queue together (its arbitration credits), and waits at the pipe's end for a slot. */
    int dram_inflight;
    /* 1: every write is acknowledged as the L2 takes it (GPGPU-Sim's WRITE_ACK, sent whether
     * the write hits or allocates): a reply of no data, popped like a read's, that occupies
     * the reply ports as one header-only packet per 32-byte sector on a sectored L2 (GPGPU-Sim
     * splits the write into sector requests and acknowledges each), one otherwise. */
    int write_acks;
    /* 1: a sectored slice takes a request's sectors one L2 cycle each (GPGPU-Sim's
     * memory_sub_partition::breakdown_request_to_sector_requests queues one access per sector);
     * 0: a request is one L2 cycle whatever its sectors. */
    int l2_sector_cycles;
} memsys_config;

typedef struct memsys_stats {
    uint64_t l2_accesses, l2_hits, l2_misses, l2_writebacks;
    uint64_t dram_reads, dram_writes; /* line-sized transfers */
    uint64_t dram_row_hits, dram_activations;
    uint64_t dram_queue_cycles;        /* sum over DRAM requests of core cycles waited in queue */
    uint64_t dram_bytes;               /* bytes moved on DRAM data buses */
    uint64_t dram_busy_cycles;         /* sum over channels of data-bus busy DRAM cycles */
    uint64_t icnt_packets, icnt_bytes; /* both directions */
    uint64_t atomics;
} memsys_stats;

typedef struct memsys memsys;

/* Returns 0, or -1 with a message naming the bad setting. */
int memsys_create(memsys **out, const memsys_config *cfg, char *err, size_t errlen);
void memsys_destroy(memsys *m);

/* The partition (L2 slice) that holds addr's line. */
uint32_t memsys_slice_of(const memsys *m, uint64_t addr);
/* Can SM sm inject another packet at cycle now? */
int memsys_can_send(const memsys *m, int sm, uint64_t now);
/* How many packets could SM sm inject one after another at cycle now, up to max? */
int memsys_send_slots(const memsys *m, int sm, uint64_t now, int max);
/* SM p->sm sends a packet at cycle now. Returns 0, or -1 when its injection queue is full
 * (nothing is sent; the caller retries later). Reads and atomics get a reply; writes get one
 * with write_acks. */
int memsys_send(memsys *m, const mem_packet *p, uint64_t now);
/* Processes everything due at or before cycle now. */
void memsys_tick(memsys *m, uint64_t now);
/* Pops a reply that has reached SM sm by cycle now: returns 1 and fills *p, or 0. Replies of
 * one SM pop in arrival order (ties by send order). */
int memsys_pop_reply(memsys *m, int sm, uint64_t now, mem_packet *p);
/* One bit per SM (bit i of word i / 64): set while SM i has a reply to pop. After
 * memsys_tick(now) every such reply has arrived by now, so the caller can visit only the SMs
 * with a bit set instead of asking each one. The array lives as long as the memory system. */
const uint64_t *memsys_reply_mask(const memsys *m);
/* The earliest cycle after now at which the memory system has something to do or deliver,
 * or UINT64_MAX when it is empty. */
uint64_t memsys_next_event(const memsys *m, uint64_t now);
/* Is anything still in flight? */
int memsys_busy(const memsys *m);
/* A count that grows whenever the memory system gets work done (an L2 access taken, a DRAM
 * command issued): a watchdog tells a long memory wait from a stuck one by it. */
uint64_t memsys_progress(const memsys *m);
/* Peak DRAM bandwidth in bytes per core cycle, summed over channels. */
double memsys_peak_dram_bandwidth(const memsys *m);
void memsys_get_stats(const memsys *m, memsys_stats *out);

#endif
