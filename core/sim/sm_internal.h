/* The SM's private state, shared by sm.c (warps, issue, CTAs, accounting) and sm_mem.c (the
 * load/store unit, L1D and memory replies). Nothing outside those two files includes it. */
#ifndef WT_SM_INTERNAL_H
#define WT_SM_INTERNAL_H

#include <stdbool.h>

#include "core/sim/coalescer.h"
#include "core/util/bits.h"
#include "core/sim/l1d.h"
#include "core/sim/sim.h"
#include "core/sim/sm.h"

/* A warp waiting for the busy load/store unit: structural in the stall breakdown, waiting for
 * memory for C_mem. Internal to the SM. */
#define ST_STAGE ST_COUNT
/* The kinds a warp is in while ready but not picked or held by a unit (a bit per kind). */
#define SM_ST_CONTENDED ((1u << ST_SCHED) | (1u << ST_STRUCT) | (1u << ST_STAGE))

typedef struct warp {
    bool live;
    bool at_barrier;
    int cta_slot;
    uint32_t cta_id;
    int warp_in_cta;
    uint64_t age;
    uint64_t pending[2];      /* scoreboard: registers (word 0) and predicates (word 1) */
    uint64_t pending_mem[2];  /* of those, waiting on a global load that missed */
    uint64_t pending_long[2]; /* of those, written by a global load or atomic (hit or miss) */
    uint64_t need[2];         /* slots the next instruction reads or writes */
    uint64_t ready_at;        /* no issue before (branch latency) */
    uint64_t last_issue;
    uint64_t oracle;       /* its time in the oracle profile, 0 without one */
    const inst_info *next; /* NULL once the warp has exited */
    uint8_t stall;         /* stall_kind of the last cycle it was classified */
    uint64_t stall_since;  /* the cycle from which `stall` holds */
    uint32_t contended;    /* cycles since its last issue in a contention state (CPL's nStall) */
    uint8_t ib_n;          /* sm.fetch: instructions left in its buffer */
    uint8_t mq_count;      /* sm.mem_queue: its instructions waiting for the load/store unit */
    uint8_t oc_count;      /* sm.oc_dispatch=unit: its instructions not yet out of a collector */
    uint16_t atomics;      /* its atomic instructions with accesses in flight */
    uint32_t stores;       /* sm.store_acks: its store accesses not yet acknowledged */
    bool exit_pending;     /* it issued its last instruction, and leaves (sm_exit_if_done) when
                            * mq_count, oc_count and stores are 0 */
    uint64_t ib_ready;     /* sm.fetch: the buffer's instructions can issue from this cycle */
    /* what the schedulers see of it, kept current where any of it changes (start, next
     * instruction, exit, CTA pause) so the issue scan copies it instead of building it */
    warp_view view;
} warp;

/* Sets warp w's classification from cycle now on. The cycles it spent ready but not picked, or
 * held by a busy unit or load/store unit, are contention: CPL's nStall counts them (CAWA 3.1,
 * "stall latencies caused by shared resource contention as well as scheduler delays"). */
static inline void sm_set_stall(warp *w, uint8_t st, uint64_t now)
{
    if (st == w->stall) return;
    if (((1u << w->stall) & SM_ST_CONTENDED) && now > w->stall_since)
        w->contended += (uint32_t)(now - w->stall_since);
    w->stall = st;
    w->stall_since = now;
}

typedef struct cta {
    bool used;
    bool paused;
    uint32_t id;
    int nwarps, exited, at_barrier;
    uint64_t start, order;
    uint64_t fastest, slowest; /* warp execution times so far */
} cta;

/* A global load or atomic in flight: releases its destinations when every access is back. */
typedef struct load_rec {
    int warp;
    uint64_t dst[2];
    int accesses, remaining, misses;
    bool is_load; /* a global load (not an atomic): counts toward load statistics */
    uint64_t age; /* the warp's (warp.age): an atomic's warp may have left and its slot refilled */
    int prio;
    int next_free;
} load_rec;

/* An access in the L1D access pipeline (l1d.tag_pipeline): what its tag lookup at the head
 * needs of the instruction that made it. */
typedef struct l1q_entry {
    line_access a;
    int rec; /* its load record (-1 for a store) */
    int warp, n, prio;
    uint32_t pc;
    uint8_t cls;
    uint64_t entered; /* cycle it entered the tail */
} l1q_entry;

/* One bank's queue of GPGPU-Sim's ldst_unit::l1_latency_queue: l1d.hit_latency stages, an
 * access entering the tail moving one stage a cycle while the next is free, looked up at the
 * head. Accesses never overtake, so the queue is a FIFO and the head's first try is at
 * max(entered + depth, the cycle after the previous head left) (`ready`); the tail is free
 * unless an access entered this cycle or all depth stages hold one. */
typedef struct l1q_bank {
    l1q_entry *e; /* ring of depth entries */
    int head, count;
    uint64_t ready;
    bool blocked_on_fill, blocked_on_send; /* the head's last try, as in mem_stage */
    uint64_t fail_fills, failed_at;
} l1q_bank;

/* The instruction in the load/store unit, one access per cycle. */
typedef struct mem_stage {
    bool busy;
    uint8_t cls;
    int warp;
    int rec;
    uint32_t pc;
    int n, next;
    int prio;
    line_access acc[WT_WARP_SIZE];
    bool blocked_on_fill; /* the last try can only succeed after a fill: sleep until one */
    bool blocked_on_send; /* the last try could not send: sleep until the memory moves */
    uint64_t fail_fills;  /* s->fills at that failure */
    uint64_t failed_at;   /* cycle of the last reservation failure */
    /* a shared access (sm.shared_path=ldst): it leaves the unit at done_at (0 otherwise) and
     * then writes dst back sm.shared_latency cycles later */
    uint64_t done_at;
    uint64_t dst[2];
    /* l1d.tag_pipeline: the banks' queues, the accesses in them, and whether the instruction
     * waits for a full queue's head to leave (the queue's wake is then its own) */
    l1q_bank *q;
    int q_banks, q_depth, q_count;
    uint32_t q_busy; /* bit b: bank b's queue holds an access (l1d.banks <= 32) */
    bool blocked_on_queue;
} mem_stage;

/* The operand collector (sm.operand_collector, sm_opcoll.c). Everything it decides is known
 * when an instruction issues, so it keeps only when each resource frees: collector units and
 * banks in port passes ("steps": cycle * sm.reg_port_throughput + pass), pipeline-register
 * slots in cycles. Unit classes index the slot arrays: IC_INT, IC_FP, IC_SFU. */
#define OC_MAX_BANKS 64
#define OC_MAX_UNITS 128 /* the generic set, then the SFU's own */
#define OC_MAX_SLOTS 16
enum oc_share { OCS_SLOT, OCS_SLOT_SFU, OCS_UNIT, OCS_UNIT_SFU, OCS_BANK, OCS_COUNT };
/* sm.oc_dispatch=unit: an INT, FP or SFU instruction in an ID_OC slot or a collector unit. Its
 * way through is then decided step by step (sm_oc_step), not when it issues. */
typedef struct oc_inst {
    uint64_t at;      /* in ID_OC: the step it may take a unit from; in a unit: may dispatch */
    uint64_t seq;     /* issue order (GPGPU-Sim's uid): ID_OC's oldest takes a unit first */
    uint64_t m[2];    /* the scoreboard slots its writeback releases */
    uint32_t latency; /* cycles from its unit's start to that release */
    int8_t wi, k, cls, queue, nbanks;
    uint8_t ii;      /* cycles it holds its unit */
    uint8_t bank[4]; /* the banks of its distinct source registers */
} oc_inst;
typedef struct opcoll {
    uint64_t bank_next[OC_MAX_BANKS]; /* step from which the bank can serve a read */
    uint64_t cu_free[OC_MAX_UNITS];   /* step from which the collector unit can be allocated */
    uint64_t id_oc[3][OC_MAX_SLOTS];  /* cycle from which the ID_OC slot takes an issue */
    uint64_t id_free[3][4];           /* the earliest of them in scheduler k's share */
    /* scheduler k's share [lo, hi) of each resource (enum oc_share), from the configuration */
    uint8_t share_lo[OCS_COUNT][4], share_hi[OCS_COUNT][4];
    uint64_t oc_ex[3][OC_MAX_SLOTS]; /* cycle from which the OC_EX slot takes a dispatch */
    uint64_t cu_disp[OC_MAX_UNITS];  /* step of the unit's last dispatch (sm.mem_queue_order) */
    /* sm.oc_dispatch=unit: the instructions in ID_OC slots (bit i of idoc_used[cls]: slot i
     * holds idoc[cls][i]) and in units (bit u of cu_alu: unit u holds cu_inst[u]; its cu_free
     * is UINT64_MAX meanwhile), the first step not yet run */
    oc_inst idoc[3][OC_MAX_SLOTS];
    uint32_t idoc_used[3];
    oc_inst cu_inst[OC_MAX_UNITS];
    uint64_t cu_alu[OC_MAX_UNITS / 64];
    /* and the queued memory instructions in units (bit u of cu_mem: it may dispatch from step
     * cu_mem_at[u]), and per scheduler whether its OC_EX_MEM slot holds one */
    uint64_t cu_mem[OC_MAX_UNITS / 64];
    uint64_t cu_mem_at[OC_MAX_UNITS];
    bool ex_mem_busy[4];
    uint64_t step, seq;
    int inflight;  /* instructions in ID_OC slots or units, memory ones included */
    uint64_t next; /* a lower bound on the first step that can change anything, exact after
                    * a recount (next_stale: recount before use) */
    bool next_stale;
    /* units held by queued memory instructions (cu_free UINT64_MAX) per share of the generic
     * units, so that whether scheduler k's share has a free one is a comparison, not a walk:
     * held[k_share[k]]; a unit counts in held[cu_share[cu]] (4: in no share) */
    uint8_t held[5], k_share[4], cu_share[OC_MAX_UNITS];
} opcoll;

/* EV_REG: the load/store unit writes registers back; EV_WB: the core's writeback (ALU, SFU),
 * which also unmarks them (warp_stalls.long_marked); EV_ACCESS: an access of a load is done. */
enum ev_kind { EV_REG, EV_WB, EV_ACCESS };
typedef struct sm_event {
    uint64_t cycle, seq;
    int kind;
    int a;         /* warp (EV_REG, EV_WB) or load record (EV_ACCESS) */
    uint64_t m[2]; /* slots to release (EV_REG, EV_WB) */
} sm_event;

/* The SM's events, in (cycle, seq) order. Every kind of event has a fixed latency and an
 * SM's cycles only move forward, so the events of one kind are pushed in time order: a FIFO
 * per kind, and the next event is the earliest head (ties by seq, the order of pushing). */
enum ev_queue { EVQ_INT, EVQ_FP, EVQ_SFU, EVQ_SHARED, EVQ_HIT, EVQ_DRAIN, EVQ_COUNT };
typedef struct ev_fifo {
    sm_event *buf; /* ring of cap (a power of two) events */
    uint32_t head, n, cap;
} ev_fifo;

/* Reply tokens: the kind in the top bits, an index below. */
#define TOK_FILL   0x10000000u
#define TOK_BYPASS 0x20000000u
#define TOK_ATOMIC 0x30000000u
#define TOK_IFETCH 0x40000000u
#define TOK_STORE  0x50000000u /* a write's acknowledgement (sm.store_acks); index: the warp */
#define TOK_KIND   0xf0000000u
#define TOK_INDEX  0x0fffffffu

struct sm {
    int id;
    const gpu_config *cfg;
    memsys *mem;
    isource *src;
    FILE *l1_trace;
    void (*l1_observer)(void *arg, const l1_access_record *r);
    void *l1_observer_arg;
    const struct warp_profile *oracle; /* per-warp times for the scheduler, or NULL */
    struct warp_profile *profile_out;  /* records every warp's time, or NULL */
    uint32_t kernels;                  /* kernels started: the running one is kernels - 1 */
    const sched_ops *sched;
    void *sched_self[4];
    void *sched_shared; /* the instances' shared state (sched_ops.create_shared), or NULL */
    l1d *l1;
    struct cpl *cpl;
    warp_criticality crit;   /* cpl, as the schedulers ask it */
    warp_stalls stalls;      /* the warps' long waits, as the schedulers ask them */
    uint64_t fills;          /* L1D fills so far: a replay waiting for one can tell if it came */
    const param_set *params; /* the simulation's, for an L1D made again (sm_l1d_make) */
    wt_rng *rng;
    const l1_policy_ops *l1_ops;
    int l1_sets, l1_ways; /* the L1D's geometry now (l1d.unified_kb changes it per kernel) */
    double *l1_saved;     /* the policy statistics of L1Ds replaced, or NULL */
    bool l1_crit;         /* the L1D policy uses criticality */
    bool l1_prio;         /* the L1D policy uses the warps' scheduling priority */

    warp *warps;
    uint64_t (*long_marks)[2]; /* per warp slot: warp_stalls.long_marked's marked registers */
    cta *ctas;
    int live_warps;
    uint64_t next_age, next_order;
    int warps_per_cta, block;
    int finished;

    uint64_t unit_free[4][IC_COUNT]; /* per scheduler: INT and FP; [0][IC_SFU] for the SFU */
    int ii_alu, ii_sfu;
    opcoll oc;         /* sm.operand_collector */
    uint64_t ib_empty; /* sm.fetch: live warps whose buffer is empty, waiting for a fetch */
    int fetch_last;    /* sm.fetch: the warp fetched last (round robin) */
    struct l1i *l1i;   /* l1i.enabled: the instruction cache (sm_fetch.c), else NULL */
    mem_stage stage;
    /* sm.mem_queue: memory instructions issued and on their way to the load/store unit, in
     * issue order (a ring of cfg->mem_queue entries) */
    struct mem_queued *mq;
    int mq_head, mq_n;
    int mq_waiting[4]; /* sm.oc_dispatch=unit: per scheduler, those waiting for a collector unit */

    load_rec *recs;
    int recs_cap, free_rec;
    int nrecs; /* records in flight */

    ev_fifo evq[EVQ_COUNT];
    int ev_n;            /* events queued */
    uint64_t drain_last; /* l1d.fill_drain: the cycle of the last queued write-back */
    uint32_t evq_busy;   /* bit q: FIFO q holds an event */
    uint64_t ev_next;    /* cycle of the earliest, UINT64_MAX when none */
    uint64_t seq;

    uint64_t wake;
    uint64_t scan_at; /* next cycle the issue scan can find something new; 0: now */
    uint64_t acct_until;
    uint64_t acct_pending;              /* cycles not yet charged to the statistics */
    uint64_t sched_clock;               /* time passed to the scheduler's on_cycles so far */
    uint32_t last_stall[ST_COUNT];      /* warps per stall kind in the last cycle run */
    uint64_t stall_from[ST_COUNT];      /* st.cycles when last_stall[k] took its value */
    uint32_t stall_count[ST_COUNT + 1]; /* live warps per current classification */
    uint64_t recheck;                   /* warps whose issue state may have changed */
    uint64_t stage_waiters;             /* warps waiting for the load/store unit to free */
    uint64_t sched_mask[4];             /* warp slots of each scheduler */
    int resident;                       /* CTAs resident */
    uint64_t rotate_off;                /* sm.issue_rotate_active: cycles so far without a CTA */
    uint64_t idle_from;                 /* the first cycle without one since the last CTA left */
    int live_unpaused;                  /* live warps of CTAs that are not paused */
    bool last_idle, last_mem, last_resident;

    const warp_view **views; /* the issue scan's ready and paused lists */
    sm_stats st;
};

static inline int sm_ceil_div(int a, int b)
{
    return (a + b - 1) / b;
}

/* Brings the statistics up to cycle now (exclusive): the cycles since the last go to
 * acct_pending, charged later by sm_account_flush (sm_cta.c). Inline: every cycle calls it. */
static inline void sm_account_to(sm *s, uint64_t now)
{
    if (now <= s->acct_until) return;
    s->acct_pending += now - s->acct_until;
    s->acct_until = now;
}

/* Sets last_stall[k] (the pending cycles charged already): the cycles since it took its old
 * value are charged to st.stall[k] with that value. Each kind is charged only when its count
 * changes, and all of them when the statistics are read (sm_account). */
static inline void sm_set_last_stall(sm *s, int k, uint32_t v)
{
    if (v == s->last_stall[k]) return;
    s->st.stall[k] += (uint64_t)s->last_stall[k] * (s->st.cycles - s->stall_from[k]);
    s->stall_from[k] = s->st.cycles;
    s->last_stall[k] = v;
}

/* sm.c */
void sm_fetch_next(sm *s, int wi);
const warp_view *sm_view_of(const sm *s, int wi);
void sm_refresh_view(sm *s, int wi);
void sm_release(sm *s, int w, const uint64_t m[2]);
/* sm_stalls.c: the warp_stalls the schedulers get */
warp_stalls sm_warp_stalls(const sm *s);
/* A global load or atomic of warp wi will write `bits` of scoreboard word `word`: they wait on
 * a long operation until it is back, and stay marked (warp_stalls.long_marked) until an ALU or
 * SFU instruction writes them. */
static inline void sm_mark_long(sm *s, int wi, int word, uint64_t bits)
{
    s->warps[wi].pending_long[word] |= bits;
    s->long_marks[wi][word] |= bits;
}
/* The schedulers' time passes up to now (sched_ops.on_cycles) before the SM is touched. */
void sm_catch_up(sm *s, uint64_t now);
int sm_warp_priority(const sm *s, int w);
int sm_sched_of(const sm *s, int w);

/* sm_events.c */
void sm_ev_grow(ev_fifo *f);
sm_event sm_ev_pop(sm *s);
void sm_push_event_sorted(sm *s, const sm_event *e, int queue);

/* The scoreboard slots instruction in writes: bit d of m[d >> 6] for each destination d. */
static inline void sm_dst_slots(const inst_info *in, uint64_t m[2])
{
    m[0] = m[1] = 0;
    for (int i = 0; i < in->ndst; i++)
        m[in->dst[i] >> 6] |= (uint64_t)1 << (in->dst[i] & 63);
}

/* Queues event e (cycle set, seq assigned here) on FIFO `queue`, whose events all come at a
 * fixed latency after the cycle they were pushed in. Inline: every L1D hit and writeback
 * pushes one. */
static inline void sm_push_event(sm *s, const sm_event *e, int queue)
{
    ev_fifo *f = &s->evq[queue];
    if (f->n == f->cap) sm_ev_grow(f);
    sm_event *ev = &f->buf[(f->head + f->n) & (f->cap - 1)];
    *ev = *e;
    ev->seq = s->seq++;
    f->n++;
    s->ev_n++;
    s->evq_busy |= 1u << queue;
    if (ev->cycle < s->ev_next) s->ev_next = ev->cycle;
    if (ev->cycle < s->wake) s->wake = ev->cycle;
}

/* sm_fetch.c */
void sm_fetch_warp_start(sm *s, int wi);
void sm_fetch_cycle(sm *s, uint64_t now);
int sm_l1i_init(sm *s);
void sm_l1i_free(sm *s);
/* A reply to an instruction-cache miss (TOK_IFETCH | MSHR). */
void sm_l1i_fill(sm *s, int mshr);
/* Whether a fetch could happen next cycle (a warp to fetch for, or one whose miss is back). */
bool sm_fetch_pending(const sm *s);

/* x / ports, a shift for a power of two (the division is a slow instruction; every INT, FP
 * and SFU issue makes two). */
static inline uint64_t sm_per_ports(uint64_t x, uint64_t ports)
{
    return ports & (ports - 1) ? x / ports : x >> __builtin_ctzll(ports);
}

/* The index in [lo, hi) of the smallest t, the first of equals. */
static inline int sm_earliest(const uint64_t *t, int lo, int hi)
{
    int best = lo;
    for (int i = lo + 1; i < hi; i++)
        if (t[i] < t[best]) best = i;
    return best;
}

/* sm_opcoll.c */
void sm_oc_init(sm *s);
uint64_t sm_oc_slot_free(const sm *s, int k, int cls);
bool sm_oc_unit_free(const sm *s, int k, int cls);
int sm_oc_hold(sm *s, int k, uint64_t now, uint64_t *from);
void sm_oc_release(sm *s, int cu, uint64_t now);
int sm_oc_rr_start(const sm *s, uint64_t now);
uint64_t sm_oc_issue(sm *s, int wi, int k, const inst_info *in, uint64_t now, int ii);
int sm_oc_banks(const sm *s, int k, int wi, const inst_info *in, uint8_t bank[4]);
uint64_t sm_oc_read(sm *s, const uint8_t *bank, int n, uint64_t p);
/* sm_ocunit.c */
void sm_oc_enqueue(sm *s, int wi, int k, const inst_info *in, uint64_t now, uint32_t latency,
                   int ii, int queue);
void sm_oc_step(sm *s, uint64_t now);
uint64_t sm_oc_wake(sm *s);
uint64_t sm_oc_reads(sm *s, int k, int wi, const inst_info *in, uint64_t p);

/* sm_cta.c */
void sm_release_barrier(sm *s, int cs);
void sm_warp_exit(sm *s, int wi, uint64_t now);
/* A warp that issued its exit leaves once nothing of it is queued for the load/store unit or
 * waiting for a write's acknowledgement (GPGPU-Sim's hardware_done). */
void sm_exit_if_done(sm *s, int wi, uint64_t now);
void sm_account_flush(sm *s);

/* sm_mem.c */
int sm_mem_issue(sm *s, int w, const inst_info *in, const inst_exec *x, uint64_t now);
/* Warp w's memory instruction takes the load/store unit: its fields reset for a new access. */
mem_stage *sm_stage_begin(sm *s, int w, const inst_info *in);
void sm_shared_issue(sm *s, int w, const inst_info *in, const inst_exec *x, uint64_t now);
/* sm.mem_queue (sm_memq.c) */
int sm_memq_init(sm *s);
void sm_memq_free(sm *s);
void sm_memq_push(sm *s, int w, const inst_info *in, const inst_exec *x, uint64_t now);
void sm_memq_pop(sm *s, uint64_t now);
uint64_t sm_memq_wake(const sm *s, uint64_t now);
int sm_memq_waiting(const sm *s, uint64_t *at, int *k);
void sm_memq_take_unit(sm *s, int i, int cu, uint64_t p);
void sm_memq_to_ex(sm *s, int cu, uint64_t p);
int sm_shared_degree(const uint32_t *addr, uint32_t mask, int banks);
int sm_atomic_requests(const uint32_t *addr, uint32_t mask, int segment, line_access *out);
void sm_mem_cycle(sm *s, uint64_t now);
/* The next cycle the L1D access pipeline has something to do (UINT64_MAX: nothing before a
 * fill or the SM's own wake), for sm_cycle's wake. */
uint64_t sm_l1q_wake(const sm *s, uint64_t now);
void sm_l1q_free(sm *s);
void sm_access_done(sm *s, int rec, uint64_t now);
int sm_recs_init(sm *s, int n);
int sm_rec_alloc(sm *s); /* a free load record (sm_recs.c) */
int sm_l1d_make(sm *s, int sets, int ways, char *err, size_t errlen);

#endif
