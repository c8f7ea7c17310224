/* Internal state of the memory system, shared by memsys.c (event queue, glue, address mapping),
 * memsys_icnt.c (interconnect ports), memsys_l2.c (L2 slices) and memsys_dram.c (DRAM channels).
 *
 * Everything is indexed (no pointers into growable arrays), so pools can grow by realloc. In
 * steady state nothing is allocated: requests come from a free list, events live in a timing
 * wheel's node pool and a heap that only grow, and every per-partition structure is sized at
 * creation. */
#ifndef WT_MEMSYS_INTERNAL_H
#define WT_MEMSYS_INTERNAL_H

#include <stdbool.h>

#include "core/mem/memsys.h"

#define MS_NIL        UINT32_MAX
#define MS_IPOLY_BITS 19 /* higher address bits an IPOLY hash reads, at most (memsys_map.c) */
#define MS_NEVER      UINT64_MAX
#define MS_NO_TAG     UINT64_MAX /* no line number is this large (addresses are shifted right) */

/* A request in flight: the SM's packet plus where it goes. Linked through `next` into exactly
 * one list at a time (a partition's input queue, an MSHR's waiters, an SM's reply queue). */
typedef struct ms_req {
    mem_packet pkt;
    uint64_t line;  /* global L2 line number: addr >> log2(l2_line) */
    uint64_t local; /* line number inside its partition (set index and DRAM address source) */
    uint64_t ready; /* input queue: core cycle it may enter the L2 (arrived, plus rop latency);
                     * before, in a crossbar input buffer: the icnt cycle it is all in */
    uint64_t ser;   /* icnt cycles a port is busy with it: the request, then its reply (ms_ser) */
    uint32_t next;
    uint32_t part;
    uint32_t set; /* its L2 set in the partition (memsys_map.c) */
} ms_req;

typedef enum ms_ev_type {
    EV_WAKE,        /* nothing to do: an SM injection slot frees (makes next_event exact) */
    EV_PART_ARRIVE, /* a request's head reaches its partition's input port; a = req */
    EV_L2_PROCESS,  /* a partition's L2 may accept its next input; a = partition */
    EV_DRAM_SCHED,  /* a DRAM channel may issue a command; a = channel, b = generation */
    EV_DRAM_DONE,   /* a DRAM read's data is fully on the bus; a = partition, b = MSHR */
    EV_DRAM_ARRIVE, /* a request reaches its channel's queue (dram_latency_first); a = channel */
    EV_REPLY_READY, /* a reply leaves the L2 pipeline for the partition's output port; a = req */
    EV_SM_ARRIVE,   /* a reply's head reaches its SM's ejection port; a = req */
    EV_DELIVER,     /* a reply is fully received: it becomes poppable; a = req */
    EV_XBAR,        /* icnt_crossbar: the request crossbar arbitrates; b = generation */
    EV_RXBAR        /* icnt_reply_crossbar: the reply crossbar arbitrates; b = generation */
} ms_ev_type;

/* An event beyond the wheel's window, in the heap: ordered by (time, seq). */
typedef struct ms_event {
    uint64_t time;
    uint64_t seq; /* heap insertion order: ties at one cycle resolve first in, first out */
    uint32_t a, b;
    uint8_t type;
} ms_event;

#define MS_WHEEL 2048 /* timing-wheel window in cycles (power of two, multiple of 64) */

/* An event in the wheel. Its cycle is its bucket's (a bucket holds one cycle of the window) and
 * its order is its place in the bucket's chain, so neither time nor seq is stored. */
typedef struct ms_enode {
    uint32_t a, b;
    uint32_t next;
    uint8_t type;
} ms_enode;

typedef struct ms_line {
    uint64_t tag; /* global line number; MS_NO_TAG unless valid or pending */
    uint64_t lru; /* last-touch stamp; smallest is least recently used */
    uint64_t key; /* replacement order (set_key): 0 free, lru valid, MS_NEVER pending */
    uint16_t mshr;
    uint8_t valid, dirty, pending; /* pending: reserved for a fill in flight */
    /* sectored (l2_sectored): the valid and the outstanding sectors (valid = svalid != 0,
     * pending = spend != 0); dirty is then the mask of written sectors */
    uint8_t svalid, spend;
    /* l2_lazy_fetch: valid sectors a read must fetch, written in part since the line was
     * allocated (GPGPU-Sim's sector_cache_block::m_readable, negated) */
    uint8_t sunread;
} ms_line;

typedef struct ms_mshr {
    uint32_t head, tail; /* waiting reads and atomics */
    uint32_t line;       /* index of the reserved line in the partition's line array */
    uint32_t sectors;    /* sectored: the sectors its DRAM read brings */
    uint32_t n;          /* requests waiting (l2_mshr_merge bounds it) */
} ms_mshr;

typedef struct ms_dreq {
    uint64_t arrival;
    uint64_t row;
    uint32_t bank;
    uint32_t mshr;  /* MS_NIL for writes */
    uint32_t slice; /* the partition (L2 slice) it came from */
    uint16_t bytes; /* data moved: l2_line, or the sectors' bytes of a sectored L2 */
    uint8_t write, activated;
} ms_dreq;

#define MS_ROW_NONE        UINT64_MAX
#define MS_MAX_BANK_GROUPS 16

/* Why an L2 slice's input queue is blocked, i.e. which event may unblock it. */
#define MS_STALL_FILL 1 /* no MSHR, or every way of the set reserved: wait for a fill */
#define MS_STALL_DRAM 2 /* too few DRAM queue slots: wait for a DRAM issue (or a fill) */

/* A clock domain (interconnect, L2 or DRAM) relative to the core clock: one domain cycle lasts
 * n / d core cycles exactly (n / d = core MHz / domain MHz as a reduced fraction of whole kHz;
 * n = d = 1 when the domain runs at the core clock). Domain cycle e (its e-th edge, from 0) is at
 * the exact core-cycle position e * n / d. The memory system's events and interface stay in whole
 * core cycles; each domain keeps its own state (port free times, the L2's next acceptance, every
 * DRAM bank and bus time) in its own cycles, so a bandwidth of b bytes per domain cycle stays
 * exact however long it runs (no rounding accumulates). Time crosses between domains through two
 * conversions, both exact integer arithmetic:
 *   ms_edge(k, t): the first domain edge at or after core cycle t, ceil(t * d / n): something
 *                  that becomes possible at core cycle t is acted on at that edge;
 *   ms_core(k, e): the core cycle at which edge e is seen, ceil(e * n / d): a result ready at
 *                  domain edge e is handed on (to the core or another domain) then.
 * Both are the identity when n = d, so the default configuration is unchanged. */
typedef struct ms_clock {
    uint64_t n, d;
} ms_clock;

/* The conversions between different clocks divide, out of line (memsys.c), so that the one
 * clock case stays small where it is inlined. MS_NEVER converts to itself. */
uint64_t ms_edge_div(const ms_clock *k, uint64_t t);
uint64_t ms_core_div(const ms_clock *k, uint64_t e);

static inline uint64_t ms_edge(const ms_clock *k, uint64_t t)
{
    return k->n == k->d ? t : ms_edge_div(k, t);
}

static inline uint64_t ms_core(const ms_clock *k, uint64_t e)
{
    return k->n == k->d ? e : ms_core_div(k, e);
}

typedef struct ms_bank {
    uint64_t open_row; /* MS_ROW_NONE when precharged */
    uint64_t act_time;
    uint64_t ready_col; /* earliest column command to the open row */
    uint64_t ready_act; /* earliest activation (after precharge) */
    uint64_t ready_pre; /* earliest precharge because of the last column command */
    uint64_t own;       /* bank_update: earliest next command but for the data bus */
    uint32_t hits;      /* queued requests for the open row (a precharge waits for them) */
    uint32_t queued;    /* queued requests for this bank */
} ms_bank;

typedef struct ms_part {
    /* interconnect ports (icnt cycles) */
    uint64_t in_free, out_free;
    /* icnt_reply_crossbar: its replies waiting to cross, oldest first (ms_req.ready: the icnt
     * cycle each is in) */
    uint32_t rq_head, rq_tail;
    /* input queue (FIFO of requests, ready times non-decreasing) */
    uint32_t in_head, in_tail;
    /* l2_input_queue: of the input queue, the requests past their ROP delay (GPGPU-Sim's
     * icnt_L2 queue) and the first one still in it (later ones are too: ready times are in
     * order), brought up to date at each crossbar step (ms_xbar_room) */
    uint32_t in_past, in_rop;
    /* L2 slice */
    ms_line *lines;   /* sets * ways */
    uint16_t *hint;   /* way a line was last placed in, by local & hint_mask: tried first */
    uint16_t *smshr;  /* sectored: per line and sector, the MSHR bringing it (while in spend) */
    uint32_t *wbytes; /* l2_lazy_fetch: per line and sector, the bytes written since the line
                       * was allocated (GPGPU-Sim's m_dirty_byte_mask) */
    ms_mshr *mshrs;
    uint32_t *mshr_free; /* stack of free MSHR indices */
    int mshr_nfree;
    uint64_t lru_clock;
    uint64_t l2_next;     /* earliest L2 cycle the slice accepts another input (one per cycle) */
    uint8_t proc_pending; /* an EV_L2_PROCESS is queued */
    uint8_t stalled;      /* head of the input queue waits: MS_STALL_FILL or MS_STALL_DRAM */
    uint8_t stall_need;   /* MS_STALL_DRAM: the DRAM queue slots it waits for (only a fill,
                           * which wakes it anyway, can change that number) */
    int32_t retry_way;    /* a head stalled for DRAM slots: its victim way, still right until a
                           * fill (-1: none; only a fill changes the slice while the head waits) */
    /* DRAM channel (times in DRAM cycles but ms_dreq.arrival, a core cycle). With several
     * slices per channel, channel c's state is in parts[c] (c = partition / slices). */
    ms_dreq *dq; /* oldest first */
    int dq_n;
    ms_dreq *pend; /* ring of requests on their way to dq (dram_latency_first), oldest first */
    int pend_head, pend_n;
    int pend_ready;     /* of them, those whose latency is over, waiting for room in dq */
    uint64_t pipe_free; /* with dram_inflight, the DRAM cycle the pipe takes its next request */
    ms_bank *banks;
    uint64_t *bank_q;  /* bit per bank: it has queued requests (the banks a step plans for) */
    uint64_t *bank_h;  /* bit per bank: queued requests hit its open row (a subset of bank_q) */
    uint64_t bus_free; /* data bus free from this cycle */
    /* GPGPU-Sim's channel and bank-group timings (0 while unset): earliest activation
     * (t_rrd), read column and write column (turnarounds), and per bank group the earliest
     * column (t_ccdl) and precharge (t_rtpl) */
    uint64_t act_ok, rd_ok, wr_ok;
    uint64_t grp_col[MS_MAX_BANK_GROUPS], grp_pre[MS_MAX_BANK_GROUPS];
    uint64_t last_cmd; /* one command per cycle; MS_NEVER before the first */
    uint64_t sched_time;
    uint32_t sched_gen; /* EV_DRAM_SCHED with another generation is stale */
} ms_part;

typedef struct ms_sm {
    uint64_t *inj; /* ring, for its last icnt_sm_queue packets, of the (core) cycle each one's place
                    * frees: its injection start plus icnt_sm_queue_hold */
    int inj_head, inj_n;
    uint64_t inj_free, ej_free;  /* icnt cycles */
    uint32_t rep_head, rep_tail; /* delivered replies, arrival order */
    uint32_t xq_head, xq_tail;   /* icnt_crossbar: its input buffer, oldest first */
    uint32_t xb_n; /* icnt_sm_buffer: packets sent and not yet granted by the crossbar */
    /* l2_map: the last line it sent (MS_NO_TAG: none) as ms_map_line_gpgpusim mapped it. An SM
     * often sends sectors of one line in a row, and that mapping costs about a hundred
     * instructions. */
    uint64_t memo_line, memo_local;
    uint32_t memo_part, memo_set;
    /* memsys_defer: what the SM did to the shared state since its last memsys_flush, in order */
    struct ms_deferred *dlog;
    uint32_t dlog_n, dlog_cap;
} ms_sm;

/* A deferred send (the request as memsys_send made it, and its injection start in icnt cycles)
 * or a deferred free (`freed`: the request popped; MS_NIL for a send). */
typedef struct ms_deferred {
    ms_req req;
    uint64_t start;
    uint32_t freed;
} ms_deferred;

/* The request crossbar (icnt_crossbar, memsys_icnt.c). Bit sets over SMs (words per set:
 * xb_words) and over partitions. */
typedef struct ms_xbar {
    int words;       /* 64-bit words of an SM set */
    uint64_t *heads; /* per partition, an SM set: SMs whose buffer head may go there now */
    uint64_t *outs;  /* partition set: those with any such head */
    uint64_t *wait;  /* SM set: buffer not empty but its head not yet in (ms_req.ready) */
    uint32_t *rr;    /* per partition, the SM its round-robin search starts from */
    uint64_t time;   /* core cycle of the next arbitration (MS_NEVER: none queued) */
    uint32_t gen;    /* an EV_XBAR of another generation is stale */
} ms_xbar;

struct memsys {
    memsys_config cfg;
    /* derived */
    ms_clock clk_icnt, clk_l2, clk_dram; /* ports; L2 slices; DRAM channels */
    int line_shift;
    uint64_t set_mask;
    int set_bits;
    /* address mapping (memsys_map.c) */
    int map_c_bits, map_s_bits; /* channel and sub-partition index bits (l2_map) */
    uint8_t part_ipoly[3][256]; /* IPOLY of the slice index by byte of the higher bits (l2_map) */
    uint8_t set_ipoly[3][256];  /* IPOLY of the set index by byte (l2_set_ipoly) */
    uint64_t hint_mask;         /* L2 way hints per partition, minus one */
    uint64_t lines_per_row;
    int row_shift; /* log2(lines_per_row): both sizes are powers of two */
    uint64_t bank_mask;
    int bank_shift;
    int dram_sub_at;     /* bit of a channel's address that holds a slice's place in the channel */
    int pend_cap;        /* capacity of a channel's pend ring */
    uint64_t burst;      /* data-bus cycles per line */
    uint32_t slices;     /* L2 slices per DRAM channel (>= 1) */
    uint64_t part_recip; /* ceil(2^64 / partitions): division by multiplication (ms_div_part) */
    uint32_t *ser_tab;   /* ms_ser for data sizes up to MS_SER_TAB bytes */
    /* state */
    ms_part *parts;
    ms_sm *sms;
    uint64_t *reply_mask; /* bit per SM: its reply queue is not empty */
    ms_xbar xb;           /* icnt_crossbar only */
    /* icnt_reply_crossbar: per SM the partition its round robin starts from, the icnt cycle
     * of the next arbitration (MS_NEVER: none) and the generation of its event */
    uint32_t *rx_rr;
    uint64_t *rx_hat;    /* per partition with a reply queued: the cycle its head may cross */
    uint64_t *rx_bucket; /* per SM: the partitions whose head goes to it */
    uint64_t *rx_late;   /* per SM: those of its heads that may not be in yet */
    uint64_t *rx_sms;    /* the SMs with such heads */
    uint64_t *rx_redo;   /* scratch of a step: the SMs whose heads changed */
    uint64_t rx_time;
    uint32_t rx_gen;
    ms_req *reqs;
    uint32_t req_cap, req_free;
    /* event queue (memsys_events.c) */
    uint64_t cur; /* window start: every pending event is at or after it */
    uint64_t seq; /* heap pushes so far (the wheel's order is its chains') */
    uint64_t bits[MS_WHEEL / 64];
    uint32_t *bhead, *btail;
    ms_enode *en;
    uint32_t en_cap, en_free;
    uint64_t wheel_n;
    /* The earliest pending event, kept exact without a search: a push lowers it, and
     * memsys_tick (the only place events are taken) sets it after each cycle's chain it takes.
     */
    uint64_t next_ev;
    ms_event *heap; /* events at or beyond cur + MS_WHEEL */
    size_t heap_n, heap_cap;
    uint64_t live_reqs;   /* allocated requests (sent, not yet popped or retired) */
    bool deferred;        /* memsys_defer: sends and frees wait for memsys_flush */
    uint64_t dram_queued; /* entries in DRAM queues */
    memsys_stats st;
};

/* memsys_events.c */
int ms_eq_init(memsys *m);
void ms_eq_free(memsys *m);
void ms_push_slow(memsys *m, uint64_t time, ms_ev_type type, uint32_t a, uint32_t b);
uint64_t ms_eq_next(const memsys *m);
void ms_eq_pull_far(memsys *m);

/* Moves the window start to t (>= cur); far events it now covers join the wheel. */
static inline void ms_eq_set_cur(memsys *m, uint64_t t)
{
    m->cur = t;
    if (m->heap_n) ms_eq_pull_far(m);
}

/* Takes the events of cycle t, the earliest pending one: moves the window to t and empties its
 * bucket, returning the chain (linked by en[].next, in insertion order; *tail its last node).
 * Events pushed for t while the caller walks the chain start a new chain in the bucket, taken
 * next, so the order stays first in, first out. */
static inline uint32_t ms_eq_take(memsys *m, uint64_t t, uint32_t *tail)
{
    if (t != m->cur) ms_eq_set_cur(m, t);
    uint32_t b = (uint32_t)(t & (MS_WHEEL - 1)), head = m->bhead[b];
    *tail = m->btail[b];
    m->bhead[b] = m->btail[b] = MS_NIL;
    m->bits[b >> 6] &= ~(1ull << (b & 63));
    return head;
}

/* Returns a walked chain of `taken` events of cycle t to the node pool and sets next_ev: t
 * again if events were pushed for it meanwhile, else the earliest pending event. */
static inline void ms_eq_taken(memsys *m, uint64_t t, uint32_t head, uint32_t tail, uint64_t taken)
{
    m->wheel_n -= taken;
    m->en[tail].next = m->en_free;
    m->en_free = head;
    m->next_ev = m->bhead[t & (MS_WHEEL - 1)] != MS_NIL ? t : ms_eq_next(m);
}

/* Appends an event to bucket b of the wheel (its time inside the window) in a node from the
 * free pool, which must not be empty. */
static inline void ms_wheel_append(memsys *m, uint32_t b, uint32_t a, uint32_t bb, uint8_t type)
{
    uint32_t n = m->en_free;
    ms_enode *e = &m->en[n];
    m->en_free = e->next;
    e->a = a;
    e->b = bb;
    e->next = MS_NIL;
    e->type = type;
    if (m->btail[b] == MS_NIL) {
        m->bhead[b] = n;
        m->bits[b >> 6] |= 1ull << (b & 63);
    } else {
        m->en[m->btail[b]].next = n;
    }
    m->btail[b] = n;
    m->wheel_n++;
}

/* Queues an event (ties at one cycle: first in, first out). Every request pushes several, so
 * the common case, a free node and a time inside the wheel's window, is inline; growing the
 * node pool and far events go through ms_push_slow (memsys_events.c). */
static inline void ms_push(memsys *m, uint64_t time, ms_ev_type type, uint32_t a, uint32_t b)
{
    if (time < m->cur) time = m->cur; /* only a caller going back in time gets here */
    if (time < m->next_ev) m->next_ev = time;
    if (time - m->cur >= MS_WHEEL || m->en_free == MS_NIL)
        ms_push_slow(m, time, type, a, b);
    else
        ms_wheel_append(m, (uint32_t)(time & (MS_WHEEL - 1)), a, b, (uint8_t)type);
}

/* Makes the memory system step at `time` (an EV_WAKE, which does nothing there but keep
 * next_ev exact). A wheel bucket that already holds an event for that cycle makes it step then
 * anyway, so no node is queued for it. */
static inline void ms_push_wake(memsys *m, uint64_t time)
{
    if (time < m->cur) time = m->cur;
    if (time - m->cur < MS_WHEEL && m->bhead[time & (MS_WHEEL - 1)] != MS_NIL) {
        if (time < m->next_ev) m->next_ev = time;
        return;
    }
    ms_push(m, time, EV_WAKE, 0, 0);
}

#define MS_SER_TAB 1024

/* Icnt cycles a port is busy with a packet of data_bytes: ceil((header + data) / bytes_per_cycle),
 * at least 1. Every hop of every request asks, so the common sizes come from a table. */
uint64_t ms_ser_div(const memsys *m, uint32_t data_bytes);
static inline uint64_t ms_ser(const memsys *m, uint32_t data_bytes)
{
    return data_bytes <= MS_SER_TAB ? m->ser_tab[data_bytes] : ms_ser_div(m, data_bytes);
}

/* addr without its n bits at `at`, and with v's n bits put back there (n = 0: addr). */
static inline uint64_t ms_drop_bits(uint64_t addr, int at, int n)
{
    return (addr & ((1ull << at) - 1)) | (addr >> (at + n) << at);
}

static inline uint64_t ms_insert_bits(uint64_t addr, int at, int n, uint64_t v)
{
    uint64_t low = addr & ((1ull << at) - 1);
    return low | (v & ((1ull << n) - 1)) << at | (addr >> at << (at + n));
}

/* floor(v / partitions) by a multiplication: with R = ceil(2^64 / P) the product's high word
 * is exact for v < 2^64 / P, so for every v below 2^52 (P <= 4096); larger v divide. */
static inline uint64_t ms_div_part(const memsys *m, uint64_t v)
{
    if (m->cfg.partitions == 1) return v;
    if (v >> 52) return v / (uint64_t)m->cfg.partitions;
    return (uint64_t)(((unsigned __int128)v * m->part_recip) >> 64);
}

/* ceil(log2(v)): the shift of a power-of-two size */
static inline int ms_log2(uint64_t v)
{
    int s = 0;
    while ((1ull << s) < v)
        s++;
    return s;
}

/* memsys_map.c */
/* memsys_warm's part in slice `part`: line (set set_index, local line number local) present and
 * most recently used, the sectors of need valid (and dirty when written). */
void ms_l2_warm(memsys *m, uint32_t part, uint64_t line, uint64_t local, uint32_t set_index,
                uint32_t need, int write);
int ms_map_check(const memsys_config *c, char *err, size_t errlen);
void ms_map_init(memsys *m);
void ms_map_line_gpgpusim(const memsys *m, uint64_t line, uint32_t *part, uint64_t *local,
                          uint32_t *set);
uint32_t ms_set_ipoly(const memsys *m, uint64_t local);
uint64_t ms_line_local(const memsys *m, uint64_t line); /* its `local` only */

/* The L2 set of a slice's line `local`: its low bits, or hashed with the higher ones. */
static inline uint32_t ms_set_of(const memsys *m, uint64_t local)
{
    return m->cfg.l2_set_ipoly ? ms_set_ipoly(m, local) : (uint32_t)(local & m->set_mask);
}

/* A line's slice, its line number in the slice and its set (memsys_map.c has the mappings);
 * the interleave is inline, as every request asks. */
static inline void ms_map_line(const memsys *m, uint64_t line, uint32_t *part, uint64_t *local,
                               uint32_t *set)
{
    if (m->cfg.l2_map) {
        ms_map_line_gpgpusim(m, line, part, local, set);
        return;
    }
    uint64_t P = (uint64_t)m->cfg.partitions;
    uint64_t g = ms_div_part(m, line), o = line - g * P;
    uint64_t f = g ^ (g >> 3) ^ (g >> 7) ^ (g >> 13);
    uint64_t sum = o + (f - ms_div_part(m, f) * P); /* (o + f % P) % P: both are below P */
    *part = (uint32_t)(sum >= P ? sum - P : sum);
    *local = g;
    *set = ms_set_of(m, g);
}

/* memsys.c */
uint32_t ms_req_alloc(memsys *m);
void ms_req_free(memsys *m, uint32_t r);
uint32_t ms_req_bytes(const mem_packet *p);
uint32_t ms_reply_bytes(const mem_packet *p);
/* memsys_l2.c: the 32-byte sectors of its L2 line a packet covers (bit s: sector s). */
uint32_t ms_req_sectors(const memsys *m, const mem_packet *pk);

/* memsys_icnt.c */
uint64_t ms_icnt_start(memsys *m, ms_req *q, uint64_t now);
void ms_icnt_enter(memsys *m, uint32_t r, uint64_t start);
int ms_xbar_init(memsys *m);
void ms_xbar_free(memsys *m);
void ms_xbar_step(memsys *m, uint32_t gen, uint64_t t);
/* Slice part's L2 took a request the crossbar granted (l2.input_queue: room for another). */
void ms_xbar_taken(memsys *m, uint32_t part, uint32_t r, uint64_t t);
/* Request r joined slice part's input queue (l2.input_queue: it starts its ROP delay). */
void ms_xbar_input(memsys *m, uint32_t part, uint32_t r);
void ms_icnt_part_arrive(memsys *m, uint32_t r, uint64_t t);
void ms_icnt_reply_ready(memsys *m, uint32_t r, uint64_t t);
void ms_icnt_sm_arrive(memsys *m, uint32_t r, uint64_t t);
void ms_icnt_deliver(memsys *m, uint32_t r);
int ms_rxbar_init(memsys *m);
void ms_rxbar_free(memsys *m);
void ms_rxbar_step(memsys *m, uint32_t gen, uint64_t t);

/* memsys_l2.c */
int ms_l2_init(memsys *m, ms_part *p);
void ms_l2_free(ms_part *p);
void ms_l2_input(memsys *m, uint32_t part, uint32_t r);
void ms_l2_process(memsys *m, uint32_t part, uint64_t t);
void ms_l2_fill(memsys *m, uint32_t part, uint32_t mshr, uint64_t t);
void ms_l2_wake(memsys *m, uint32_t part, int why, uint64_t t);

/* memsys_dram.c */
int ms_dram_init(memsys *m, ms_part *p);
void ms_dram_free(ms_part *p);
int ms_dram_space(const memsys *m, uint32_t part);
void ms_dram_enqueue(memsys *m, uint32_t part, uint64_t local, int write, uint32_t mshr,
                     uint32_t bytes, uint64_t t);
void ms_dram_sched(memsys *m, uint32_t chan, uint32_t gen, uint64_t t);
void ms_dram_arrive(memsys *m, uint32_t chan, uint64_t t);

#endif
