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
    uint8_t next_line;   /* a write of sectors 2 and 3 that lands on the next line, in this line's
                          * slice (GPGPU-Sim's upper-half 64-byte store, sm.store_request=reduce) */
    uint16_t sm;         /* sending SM; replies go back to it */
    uint32_t token;      /* the SM's own tag, returned untouched in the reply */
    uint16_t sectors;    /* a sectored L2 (l2_sectored): bit s asks for the 32-byte sector at
                          * addr + 32 s; 0: the sectors [addr, addr + bytes) covers */
    uint8_t inst;        /* a read of instructions (an L1I miss): GPGPU-Sim's INST_ACC_R, counted
                          * in the L2's totals but not among its loads (GLOBAL_ACC_R) */
    uint8_t readable;    /* a write to a lazy-fetch L2: bit s, the sector at addr + 32 s it
                          * allocates is readable whatever its bytes (GPGPU-Sim's 128-byte
                          * store, whose sector requests carry the bytes up to their own end) */
    uint32_t written[4]; /* a write to a lazy-fetch L2 (l2_lazy_fetch): bit b of written[s],
                          * byte b of the 32-byte sector at addr + 32 s is written */
    uint64_t sent_cycle; /* the cycle the SM sent it (set by memsys_send) */
} mem_packet;

/* The constants of the memory system's choice parameters, LIST_choice (L2_MAP_gpgpusim,
 * L2_SET_HASH_ipoly): the index of each choice in its table's list, as core/config/params.h's
 * WT_CHOICE_ENUM makes them for the other groups. */
#define MS_CHOICE_CONSTANT_(prefix, choice) prefix##_##choice,
#define PARAM_CHOICE(field, name, LIST, def, doc)                                                  \
    enum { LIST##_CHOICES(MS_CHOICE_CONSTANT_, LIST) };
#include "core/mem/memsys_params.h"
#undef MS_CHOICE_CONSTANT_

typedef struct memsys_config {
/* One field per parameter of core/mem/memsys_params.h (a choice's is the choice's index),
 * named and documented there. */
#define PARAM_INT(field, ...)    int field;
#define PARAM_U64(field, ...)    uint64_t field;
#define PARAM_REAL(field, ...)   double field;
#define PARAM_BOOL(field, ...)   int field;
#define PARAM_CHOICE(field, ...) int field;
#include "core/mem/memsys_params.h"
    /* Copied from the core's other parameters (core/config/config.c). */
    int num_sms;     /* gpu.sms */
    double core_mhz; /* gpu.clock_mhz: the clock of every domain whose own is 0 */
    /* sm.store_acks. 1: every write is acknowledged as the L2 takes it (GPGPU-Sim's WRITE_ACK,
     * sent whether the write hits or allocates): a reply of no data, popped like a read's,
     * that occupies the reply ports as one header-only packet per 32-byte sector on a
     * sectored L2 (GPGPU-Sim splits the write into sector requests and acknowledges each),
     * one otherwise. */
    int write_acks;
} memsys_config;

typedef struct memsys_stats {
    /* GPGPU-Sim's classes (cache_stats, per 32-byte sector on a sectored L2): an access hits
     * (HIT), finds its data on its way and joins the fill (HIT_RESERVED, l2_hit_reserved), or
     * misses (MISS and SECTOR_MISS, l2_misses) */
    uint64_t l2_accesses, l2_hits, l2_misses, l2_writebacks;
    uint64_t dram_reads, dram_writes; /* line-sized transfers */
    uint64_t dram_row_hits, dram_activations;
    uint64_t dram_queue_cycles;        /* sum over DRAM requests of core cycles waited in queue */
    uint64_t dram_bytes;               /* bytes moved on DRAM data buses */
    uint64_t dram_busy_cycles;         /* sum over channels of data-bus busy DRAM cycles */
    uint64_t icnt_packets, icnt_bytes; /* both directions */
    uint64_t atomics;
    uint64_t l2_hit_reserved;
    /* the same of global loads alone (GPGPU-Sim's GLOBAL_ACC_R rows) */
    uint64_t l2_load_accesses, l2_load_misses;
} memsys_stats;

typedef struct memsys memsys;

/* Functional warming (sampled simulation, docs/sampling.md): the L2 as if a `bytes`-byte access
 * at addr (a write when `write`) had been served, with no time, event or count: its line present
 * (the least recently used line of its set leaving, a dirty one's write-back dropped) and most
 * recently used, the sectors touched valid, and dirty when written. A line awaiting a fill, or a
 * set whose every way does, is left as it is. */
void memsys_warm(memsys *m, uint64_t addr, uint32_t bytes, int write);

/* Returns 0, or -1 with a message naming the bad setting. */
int memsys_create(memsys **out, const memsys_config *cfg, char *err, size_t errlen);
void memsys_destroy(memsys *m);

/* The partition (L2 slice) that holds addr's line. */
uint32_t memsys_slice_of(const memsys *m, uint64_t addr);
/* Can SM sm inject another packet at cycle now? */
int memsys_can_send(const memsys *m, int sm, uint64_t now);
/* Does room to send also wait for the crossbar's grants (icnt.sm_buffer), not only for the
 * SM's own injection port? */
int memsys_send_bounded(const memsys *m);
/* How many packets could SM sm inject one after another at cycle now, up to max? */
int memsys_send_slots(const memsys *m, int sm, uint64_t now, int max);
/* The earliest cycle after now at which SM sm can inject a packet (the oldest of a full
 * injection queue's starts): what an SM that found no slot waits for. It reads only SM sm's
 * own port, whatever the other SMs sent in the same cycle. */
uint64_t memsys_send_ready(const memsys *m, int sm, uint64_t now);
/* SM p->sm sends a packet at cycle now. Returns 0, or -1 when its injection queue is full
 * (nothing is sent; the caller retries later). Reads and atomics get a reply; writes get one
 * with write_acks. */
int memsys_send(memsys *m, const mem_packet *p, uint64_t now);
/* Deferred mode (on = 1), for SMs that step on several threads: memsys_send and
 * memsys_pop_reply then touch only their SM's own state (its injection port, its reply queue)
 * and log what they would have done to the shared state (the request pool, the interconnect's
 * queues and events, the counters); memsys_flush(sm) does it. Flushing each SM that ran, in SM
 * order, once it has run (later SMs may still be running: their own part never reads what a
 * flush writes) leaves the memory system exactly as running them one after another in that
 * order would. Pops must still come from one thread, before the SMs run (they clear the reply
 * mask and read the request pool, which a flush may move). on = 0 only with every log flushed. */
void memsys_defer(memsys *m, int on);
void memsys_flush(memsys *m, int sm, uint64_t now);
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
