/* The SM's load/store unit (core/sim/sm_ldst.h): one memory instruction at a time, one line
 * access per cycle through the L1D (docs/fidelity.md, "The load/store unit"), or through the
 * L1D access pipeline's bank queues; misses go to the memory system through MSHRs, and the
 * replies complete the load records that release the waiting registers. Also the L1D itself
 * (made with its policy, remade when the carveout changes its geometry) and shared-memory
 * accesses in the unit. */
#include "core/sim/sm_ldst.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "core/sim/coalescer.h"
#include "core/sim/l1d.h"
#include "core/util/bits.h"

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
    uint32_t written[4]; /* a store: the bytes it writes of each sector (store_written) */
    uint64_t entered;    /* cycle it entered the tail */
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
    uint64_t last_in; /* the cycle the newest entry entered (its own copy is a colder line) */
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
    uint32_t written[WT_WARP_SIZE][4]; /* a store's: access i's store_written */
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

struct sm_ldst {
    int sm;
    const gpu_config *cfg;
    memsys *mem;
    const cpl *cpl;
    sm_evq *ev;
    scoreboard *sb;
    sm_warps *wp;
    sm_wakes *wakes;
    sm_reports *rep;
    sm_stats *st;
    bool report_l1;
    FILE *l1_trace;
    void (*l1_observer)(void *arg, const l1_access_record *r);
    void *l1_observer_arg;
    l1d *l1;
    const l1_policy_ops *l1_ops;
    const param_set *params; /* for an L1D made again (l1d_make) */
    wt_rng *rng;
    int l1_sets, l1_ways; /* the L1D's geometry now (l1d.unified_kb changes it per kernel) */
    double *l1_saved;     /* the policy statistics of L1Ds replaced, or NULL */
    bool l1_crit;         /* the L1D policy uses criticality */
    bool l1_prio;         /* the L1D policy uses the warps' scheduling priority */
    uint64_t fills;       /* L1D fills so far: a replay waiting for one can tell if it came */
    uint64_t drain_last;  /* l1d.fill_drain: the cycle of the last queued write-back */
    mem_stage stage;
    load_rec *recs;
    int recs_cap, free_rec;
    int nrecs; /* records in flight */
};

static int recs_init(sm_ldst *ld, int n);
static int rec_alloc(sm_ldst *ld);
static int l1d_make(sm_ldst *ld, int sets, int ways, char *err, size_t errlen);
static void l1q_free(sm_ldst *ld);
static uint64_t l1q_wake(const sm_ldst *ld, uint64_t now);

int ldst_create(sm_ldst **out, const ldst_env *env, char *err, size_t errlen)
{
    sm_ldst *ld = calloc(1, sizeof *ld);
    if (!ld || recs_init(ld, env->cfg->max_warps * 2) != 0) {
        free(ld);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    ld->sm = env->sm;
    ld->cfg = env->cfg;
    ld->mem = env->mem;
    ld->cpl = env->cpl;
    ld->ev = env->ev;
    ld->sb = env->sb;
    ld->wp = env->wp;
    ld->wakes = env->wakes;
    ld->rep = env->rep;
    ld->st = env->st;
    ld->report_l1 = env->report_l1;
    if (env->opt) {
        ld->l1_trace = env->opt->l1_trace;
        ld->l1_observer = env->opt->l1_observer;
        ld->l1_observer_arg = env->opt->l1_observer_arg;
    }
    ld->l1_ops = env->l1;
    ld->params = env->params;
    ld->rng = env->rng;
    if (l1d_make(ld, ld->cfg->l1d_sets, ld->cfg->l1d_ways, err, errlen) != 0) {
        ldst_destroy(ld);
        return -1;
    }
    *out = ld;
    return 0;
}

void ldst_destroy(sm_ldst *ld)
{
    if (!ld) return;
    l1d_destroy(ld->l1);
    l1q_free(ld);
    free(ld->l1_saved);
    free(ld->recs);
    free(ld);
}

bool ldst_busy(const sm_ldst *ld)
{
    return ld->stage.busy;
}

bool ldst_wants_priority(const sm_ldst *ld)
{
    return ld->l1_prio;
}

bool ldst_pending(const sm_ldst *ld)
{
    return ld->stage.busy || ld->nrecs > 0 || ld->stage.q_count > 0;
}

uint64_t ldst_wake(const sm_ldst *ld, uint64_t now)
{
    const mem_stage *st = &ld->stage;
    uint64_t wake = UINT64_MAX;
    if (st->busy && !st->blocked_on_fill && !st->blocked_on_queue)
        wake = st->blocked_on_send ? memsys_send_ready(ld->mem, ld->sm, now)
               : st->done_at > now ? st->done_at
                                   : now + 1;
    if (st->q_count) {
        uint64_t q = l1q_wake(ld, now);
        if (q < wake) wake = q;
    }
    return wake;
}

void ldst_collect(const sm_ldst *ld, double *sums)
{
    l1d_collect(ld->l1, sums);
    if (ld->l1_saved) /* the statistics of the L1Ds earlier kernels had (l1d.unified_kb) */
        for (size_t i = 0; i < ld->l1_ops->nmetrics; i++)
            sums[i] += ld->l1_saved[i];
}

void ldst_shared_fixed(sm_ldst *ld, int wi, const inst_info *in, uint64_t now)
{
    sm_event e = {.cycle = now + (uint64_t)ld->cfg->shared_latency, .kind = EV_REG, .a = wi};
    sb_dst_slots(in, e.m);
    if (!(e.m[0] | e.m[1])) return;
    sb_reserve(ld->sb, wi, e.m);
    sm_evq_push(ld->ev, &e, EVQ_SHARED);
}

/* -------------------------------------------------------------------- issue ---- */

static mem_stage *stage_begin(sm_ldst *ld, int wi, const inst_info *in)
{
    mem_stage *st = &ld->stage;
    st->busy = true;
    st->blocked_on_fill = st->blocked_on_send = false;
    st->cls = in->cls;
    st->warp = wi;
    st->pc = in->pc;
    st->next = 0;
    st->rec = -1;
    return st;
}

/* The bytes access a's lanes write in each 32-byte sector of its line (GPGPU-Sim's byte mask of
 * the request, which a lazy-fetch L2 accumulates: data_cache::update_m_readable): bit b of
 * out[s], byte b of sector s. Lines of at most four sectors (config_check). Aligned 4-byte
 * stores, nearly all of them, take a mask of words first. */
static void store_written(const sm_ldst *ld, const inst_exec *x, const line_access *a,
                          uint32_t out[4])
{
    static const uint16_t nibble_bytes[16] = {0x0000, 0x000f, 0x00f0, 0x00ff, 0x0f00, 0x0f0f,
                                              0x0ff0, 0x0fff, 0xf000, 0xf00f, 0xf0f0, 0xf0ff,
                                              0xff00, 0xff0f, 0xfff0, 0xffff};
    const uint32_t line = (uint32_t)ld->cfg->l1d_line, size = x->access_size ? x->access_size : 4;
    const uint32_t last = line < 128 ? line : 128;
    out[0] = out[1] = out[2] = out[3] = 0;
    if (size == 4) {
        uint32_t words = 0, misaligned = 0;
        for (uint32_t m = a->lanes; m; m &= m - 1) {
            uint32_t off = x->addr[__builtin_ctz(m)] - (uint32_t)a->line;
            misaligned |= off & 3;
            words |= 1u << (off / 4 & 31);
        }
        if (!misaligned) {
            for (uint32_t s = 0; s < last / 32; s++) {
                uint32_t w = words >> (8 * s);
                out[s] = nibble_bytes[w & 15] | (uint32_t)nibble_bytes[w >> 4 & 15] << 16;
            }
            return;
        }
    }
    for (uint32_t m = a->lanes; m; m &= m - 1) {
        uint32_t b = x->addr[__builtin_ctz(m)] - (uint32_t)a->line, end = b + size;
        if (end > last) end = last;
        while (b < end) { /* the lane's bytes, a sector's piece at a time */
            uint32_t e = (b / 32 + 1) * 32 < end ? (b / 32 + 1) * 32 : end, n = e - b;
            out[b / 32] |= (n == 32 ? ~0u : ((1u << n) - 1)) << (b % 32);
            b = e;
        }
    }
}

/* A store access as GPGPU-Sim's Fermi coalescer sends it (sm.store_request=reduce; its line is
 * the 128-byte segment, its sectors the segment's touched 32-byte chunks): a request touching
 * both halves is 128 bytes and writes all four sectors. One of exactly the upper two chunks is
 * a 64-byte request at the segment's middle, whose sector requests
 * (breakdown_request_to_sector_requests) add the sectors' offsets again and so write sectors 2
 * and 3 of the next line, in this line's slice: send_store marks it. */
static void store_reduce(line_access *a)
{
    if ((a->sectors & 0x3) && (a->sectors & 0xc)) a->sectors = 0xf;
}

void ldst_issue(sm_ldst *ld, int wi, const inst_info *in, const inst_exec *x, uint64_t now,
                int prio)
{
    (void)now;
    if (!x->active_mask) return; /* every lane predicated off: nothing to access */
    mem_stage *st = stage_begin(ld, wi, in);
    int sector = ld->cfg->bypass_segment;
    if (in->cls == IC_ATOMIC && ld->cfg->atomic_path)
        st->n = coalesce_atomic(x->addr, x->active_mask, ld->cfg->l1d_line, sector, st->acc);
    else
        st->n = coalesce(x->addr, x->active_mask, ld->cfg->l1d_line, sector, st->acc);
    int lines = st->n;                                    /* its memory divergence */
    if (ld->cfg->sector_accesses && in->cls != IC_ATOMIC) /* Volta's 32-byte transactions */
        st->n = coalesce_split_sectors(x->addr, st->acc, st->n, sector);
    if (ld->cfg->access_descending) coalesce_sort(st->acc, st->n); /* taken from the end */
    st->prio = prio; /* 0 unless the policy reads it (ldst_wants_priority) */
    if (in->cls == IC_ST_GLOBAL) {
        ld->st->global_stores++;
        for (int i = 0; i < st->n; i++) {
            if (ld->cfg->mem.l2_lazy_fetch) /* what a lazy-fetch L2 keeps readable */
                store_written(ld, x, &st->acc[i], st->written[i]);
            if (ld->cfg->store_request == SM_STORE_REQUEST_reduce) store_reduce(&st->acc[i]);
        }
        if (ld->cfg->store_acks) warps_stores_sent(ld->wp, wi, (uint32_t)st->n); /* one send each */
        return;
    }
    int id = rec_alloc(ld);
    load_rec *r = &ld->recs[id];
    *r = (load_rec){.warp = wi,
                    .accesses = st->n,
                    .remaining = st->n,
                    .is_load = in->cls == IC_LD_GLOBAL,
                    .age = warps_get(ld->wp, wi)->age,
                    .prio = st->prio,
                    .next_free = -1};
    for (int i = 0; i < in->ndst; i++)
        r->dst[in->dst[i] >> 6] |= (uint64_t)1 << (in->dst[i] & 63);
    sb_reserve(ld->sb, wi, r->dst);
    sb_mark_long(ld->sb, wi, 0, r->dst[0]);
    sb_mark_long(ld->sb, wi, 1, r->dst[1]);
    st->rec = id;
    if (in->cls != IC_ATOMIC) { /* an atomic counts from its issue (sm.c) */
        ld->st->global_loads++;
        if (lines > 1)
            ld->st->divergent_loads++;
        else
            ld->st->coherent_loads++;
    }
}

/* The load/store unit frees: warps waiting for it may issue. */
static void stage_free(sm_ldst *ld)
{
    ld->stage.busy = false;
    sm_wake_stage(ld->wakes);
}

/* ------------------------------------------------------------ per-cycle access ---- */

static void trace_access(sm_ldst *ld, uint64_t now, int wi, uint32_t pc, const char *kind,
                         uint64_t line, const char *outcome)
{
    if (ld->l1_trace)
        fprintf(ld->l1_trace, "%d,%llu,%d,%u,%llu,%s,%s\n", ld->sm, (unsigned long long)now, wi, pc,
                (unsigned long long)line, kind, outcome);
    if (ld->l1_observer) {
        l1_access_record r = {ld->sm, now, wi, pc, line, kind, outcome};
        ld->l1_observer(ld->l1_observer_arg, &r);
    }
}

static int send(sm_ldst *ld, uint64_t addr, uint32_t bytes, int kind, uint32_t token, uint64_t now)
{
    mem_packet p = {.addr = addr,
                    .bytes = bytes,
                    .kind = (uint8_t)kind,
                    .sm = (uint16_t)ld->sm,
                    .token = token,
                    .sent_cycle = now};
    return memsys_send(ld->mem, &p, now);
}

/* An access's segments (l1d.bypass_segment bytes each) as 32-byte sectors of its line, for a
 * sectored L2 (mem_packet.sectors; 0: the L2 reads the packet's byte range). */
static uint16_t sectors32(const sm_ldst *ld, uint32_t segs)
{
    int seg = ld->cfg->bypass_segment;
    if (!ld->cfg->mem.l2_sectored || ld->cfg->l1d_line > 512) return 0;
    if (seg == 32) return (uint16_t)segs;
    uint32_t out = 0;
    for (; segs; segs &= segs - 1) {
        int i = __builtin_ctz(segs), lo = i * seg / 32, hi = ((i + 1) * seg - 1) / 32;
        for (int k = lo; k <= hi; k++)
            out |= 1u << k;
    }
    return (uint16_t)out;
}

/* Can a global load that does not hit send its request at cycle now (l1d.miss_spare: with
 * that many entries free besides)? */
static int load_can_send(const sm_ldst *ld, uint64_t now)
{
    int spare = ld->cfg->l1d_miss_spare;
    if (!spare) return memsys_can_send(ld->mem, ld->sm, now);
    return memsys_send_slots(ld->mem, ld->sm, now, 1 + spare) == 1 + spare;
}

/* The packet of an access with the sectors a sectored L2 should read or write. */
static mem_packet sector_packet(const sm_ldst *ld, uint64_t addr, uint32_t bytes, int kind,
                                uint32_t token, uint32_t segs, uint64_t now)
{
    return (mem_packet){.addr = addr,
                        .bytes = bytes,
                        .kind = (uint8_t)kind,
                        .sm = (uint16_t)ld->sm,
                        .token = token,
                        .sectors = sectors32(ld, segs),
                        .sent_cycle = now};
}

/* send() with the sectors a sectored L2 should read or write. */
static int send_sectors(sm_ldst *ld, uint64_t addr, uint32_t bytes, int kind, uint32_t token,
                        uint32_t segs, uint64_t now)
{
    mem_packet p = sector_packet(ld, addr, bytes, kind, token, segs, now);
    return memsys_send(ld->mem, &p, now);
}

/* A store access's token: its warp, whose acknowledgement it counts down (sm.store_acks). */
static uint32_t store_token(int wi)
{
    return TOK_STORE | (uint32_t)wi;
}

/* Sends store access a of warp wi, which writes the bytes `written` of its sectors. */
static int send_store(sm_ldst *ld, const line_access *a, const uint32_t written[4], int wi,
                      uint64_t now)
{
    mem_packet p = sector_packet(ld, a->line, 4u * wt_popcount32(a->lanes), MEM_WRITE,
                                 store_token(wi), a->sectors, now);
    if (ld->cfg->mem.l2_lazy_fetch) memcpy(p.written, written, sizeof p.written);
    if (ld->cfg->store_request == SM_STORE_REQUEST_reduce) {
        p.next_line = a->sectors == 0xc; /* store_reduce left an upper half as it was */
        if (a->sectors == 0xf && ld->cfg->mem.l2_lazy_fetch) {
            /* a 128-byte request's sector s carries the bytes of sectors 0..s: it is readable
             * once allocated when they number exactly 32 (wr_miss_wa_lazy_fetch_on_read) */
            uint32_t n = 0;
            for (int s = 0; s < 4; s++) {
                n += (uint32_t)wt_popcount32(written[s]);
                if (n == 32) p.readable |= (uint8_t)(1u << s);
            }
        }
    }
    return memsys_send(ld->mem, &p, now);
}

/* An L1D event for the warp's scheduler (CCWS's lost-locality detector), reported. */
static void notify(sm_ldst *ld, int kind, int wi, uint64_t line, uint32_t pc, uint64_t now)
{
    if (!ld->report_l1) return;
    sm_report r = {.kind = SMR_L1, .warp = wi, .l1 = {(uint8_t)kind, wi, line, pc, now}};
    sm_report_add(ld->rep, &r);
}

/* An access of load r missed: its destinations now wait on memory. Only the first miss of a
 * load changes that, and with it the warp's classification: later ones leave the issue scan
 * alone (a scan would classify every warp exactly as the last one did). */
static void waits_on_miss(sm_ldst *ld, int wi, const load_rec *r)
{
    if (sb_wait_mem(ld->sb, wi, r->dst)) sm_wake_warp(ld->wakes, wi); /* reclassify */
}

/* A failed try of the unit's access: what to wait for before the replay (see load_access). */
static int load_failed(sm_ldst *ld, l1_fail why, uint64_t now)
{
    mem_stage *st = &ld->stage;
    ld->st->l1d_resfails++;
    st->failed_at = now;
    /* Until a fill arrives (MSHR, merge slot, reserved ways) or the memory system moves
     * (injection queue) nothing can change the answer: the SM may sleep until then. A
     * policy's stall is retried every cycle. */
    st->blocked_on_fill = why == L1F_MSHR || why == L1F_MERGE || why == L1F_RESERVED;
    st->fail_fills = ld->fills;
    st->blocked_on_send = why == L1F_SEND;
    return 0;
}

/* A hit's access of load record `rec` writes back: l1d.hit_latency after the lookup, or at
 * the lookup itself at the head of the L1D access pipeline (its latency was the queue's). */
static void hit_done(sm_ldst *ld, int rec, uint64_t now)
{
    if (ld->cfg->l1d_tag_pipeline) {
        ldst_access_done(ld, rec, now);
        return;
    }
    sm_event e = {.cycle = now + (uint64_t)ld->cfg->l1d_hit_latency, .kind = EV_ACCESS, .a = rec};
    sm_evq_push(ld->ev, &e, EVQ_HIT);
}

/* What the L1D policy sees of a queued access. */
static l1_request request_of(const sm_ldst *ld, const l1q_entry *x, uint64_t now)
{
    return (l1_request){x->a.line,
                        x->pc,
                        x->warp,
                        x->prio,
                        ld->l1_crit ? (int)cpl_criticality(ld->cpl, x->warp) : 0,
                        ld->l1_crit && cpl_is_critical(ld->cpl, x->warp),
                        x->n,
                        false,
                        now};
}

/* load_access of a sectored L1D (l1d.sectored): the access is counted sector by sector, as
 * GPGPU-Sim counts its per-sector accesses (memory_coalescing_arch makes one per 32-byte
 * sector on Volta; tag_array::access gives each HIT, HIT_RESERVED, MISS or SECTOR_MISS): hits,
 * merges (HIT_RESERVED) and misses (MISS and SECTOR_MISS, each a 32-byte request). The load
 * record waits for each fetch the access joined or made, and for the hit latency if any
 * sector hit. */
__attribute__((noinline)) static int load_access_sectored(sm_ldst *ld, const l1q_entry *x,
                                                          uint64_t now, l1_fail *why)
{
    const line_access *a = &x->a;
    load_rec *r = &ld->recs[x->rec];
    int slots = memsys_send_slots(ld->mem, ld->sm, now,
                                  ld->cfg->l1d_line / L1D_SECTOR + ld->cfg->l1d_miss_spare);
    l1_request q = request_of(ld, x, now);
    l1_sectors sec;
    int owner = -1, evicted = -1;
    uint64_t evicted_line = 0;
    l1_outcome o = l1d_load_sectors(ld->l1, &q, a->sectors, (uint32_t)x->rec, slots, &sec, &owner,
                                    &evicted, &evicted_line);
    int bypass_blocked = o == L1_BYPASSED && !slots;
    if (bypass_blocked) o = L1_RESFAIL;
    uint32_t nsec = wt_popcount_small(a->sectors);
    if (o != L1_RESFAIL) ld->st->l1d_accesses += nsec;
    if (ld->l1_trace || ld->l1_observer)
        trace_access(ld, now, x->warp, x->pc, "load", a->line, l1_outcome_names[o]);
    if (o == L1_RESFAIL) {
        *why = bypass_blocked ? L1F_SEND : l1d_last_fail(ld->l1);
        return 0;
    }
    if (o == L1_BYPASSED) {
        send_sectors(ld, a->line, nsec * L1D_SECTOR, MEM_READ, TOK_BYPASS | (uint32_t)x->rec,
                     a->sectors, now);
        ld->st->l1d_misses += nsec;
        ld->st->l1d_bypasses++;
        r->misses++;
        waits_on_miss(ld, x->warp, r);
        notify(ld, L1E_MISS, x->warp, a->line, x->pc, now);
        return 1;
    }
    uint32_t hits = wt_popcount_small(sec.hit), fetch = sec.miss | sec.merged;
    ld->st->l1d_hits += hits;
    ld->st->l1d_misses += wt_popcount_small(sec.miss);
    ld->st->l1d_merged += wt_popcount_small(sec.merged);
    /* one completion per fetch waited on, one for the hit latency */
    r->remaining += (int)wt_popcount_small(fetch) + (hits ? 1 : 0) - 1;
    if (hits) {
        ld->st->l1d_bytes += fetch ? (uint64_t)L1D_SECTOR * hits : 4u * wt_popcount32(a->lanes);
        hit_done(ld, x->rec, now);
    }
    if (o == L1_HIT) {
        if (owner == x->warp)
            ld->st->l1d_intra_hits++;
        else
            ld->st->l1d_inter_hits++;
        notify(ld, L1E_HIT, x->warp, a->line, x->pc, now);
        return 1;
    }
    for (uint32_t m = sec.miss; m; m &= m - 1) {
        int k = __builtin_ctz(m);
        send(ld, a->line + (uint64_t)k * L1D_SECTOR, L1D_SECTOR, MEM_READ,
             TOK_FILL | (uint32_t)sec.mshr[k], now);
    }
    r->misses++;
    waits_on_miss(ld, x->warp, r);
    if (evicted >= 0) notify(ld, L1E_EVICT, evicted, evicted_line, x->pc, now);
    notify(ld, L1E_MISS, x->warp, a->line, x->pc, now);
    return 1;
}

/* Tries access x of a global load (the unit's current one, or the head of an L1D access
 * pipeline's queue). Returns 1 when it is done with, 0 to replay it next time, with *why
 * saying what the replay waits for. */
static int load_access(sm_ldst *ld, const l1q_entry *x, uint64_t now, l1_fail *why)
{
    if (ld->cfg->l1d_sectored && ld->cfg->l1d_enabled) return load_access_sectored(ld, x, now, why);
    const line_access *a = &x->a;
    load_rec *r = &ld->recs[x->rec];
    int can_send = load_can_send(ld, now);
    l1_outcome o;
    int mshr = -1, owner = -1, evicted = -1;
    uint64_t evicted_line = 0;
    if (ld->cfg->l1d_enabled) {
        l1_request q = request_of(ld, x, now);
        o = l1d_load(ld->l1, &q, (uint32_t)x->rec, can_send, &mshr, &owner, &evicted,
                     &evicted_line);
    } else {
        o = L1_BYPASSED;
    }
    if (o == L1_BYPASSED && !can_send) o = L1_RESFAIL;
    ld->st->l1d_accesses += o != L1_RESFAIL;
    if (ld->l1_trace || ld->l1_observer)
        trace_access(ld, now, x->warp, x->pc, "load", a->line, l1_outcome_names[o]);
    switch (o) {
    case L1_HIT: {
        ld->st->l1d_hits++;
        ld->st->l1d_bytes += 4u * wt_popcount32(a->lanes);
        if (owner == x->warp)
            ld->st->l1d_intra_hits++;
        else
            ld->st->l1d_inter_hits++;
        hit_done(ld, x->rec, now);
        notify(ld, L1E_HIT, x->warp, a->line, x->pc, now);
        return 1;
    }
    case L1_MISS:
        send(ld, a->line, (uint32_t)ld->cfg->l1d_line, MEM_READ, TOK_FILL | (uint32_t)mshr, now);
        ld->st->l1d_misses++;
        r->misses++;
        waits_on_miss(ld, x->warp, r);
        if (evicted >= 0) notify(ld, L1E_EVICT, evicted, evicted_line, x->pc, now);
        notify(ld, L1E_MISS, x->warp, a->line, x->pc, now);
        return 1;
    case L1_MERGED:
        ld->st->l1d_merged++;
        r->misses++;
        waits_on_miss(ld, x->warp, r);
        notify(ld, L1E_MISS, x->warp, a->line, x->pc, now);
        return 1;
    case L1_BYPASSED: {
        uint32_t bytes = wt_popcount_small(a->sectors) * (uint32_t)ld->cfg->bypass_segment;
        send_sectors(ld, a->line, bytes, MEM_READ, TOK_BYPASS | (uint32_t)x->rec, a->sectors, now);
        ld->st->l1d_misses++;
        ld->st->l1d_bypasses++;
        r->misses++;
        waits_on_miss(ld, x->warp, r);
        notify(ld, L1E_MISS, x->warp, a->line, x->pc, now);
        return 1;
    }
    case L1_RESFAIL:
        *why = ld->cfg->l1d_enabled && can_send ? l1d_last_fail(ld->l1) : L1F_SEND;
        return 0;
    }
    return 0;
}

/* The memory instruction's next access to leave the unit: in coalescing order, or, sorted by
 * address at issue, from the end (l1d.access_order=descending, GPGPU-Sim's accessq_back). */
static const line_access *next_access(const sm_ldst *ld)
{
    const mem_stage *st = &ld->stage;
    return &st->acc[ld->cfg->access_descending ? st->n - 1 - st->next : st->next];
}

/* The load's next access is tried next cycle. Unless a fill comes first (which wakes the SM
 * and, changing ld->fills, lets it retry), that try sees the L1D as it is now and the injection
 * queue as it will be then (only this SM sends into it): if it can only fail for want of a
 * fill, it is recorded as failed already, so the SM sleeps until a fill instead of waking
 * for a try that cannot succeed. failed_at = now makes the blocked-cycle count include it
 * exactly when it happens (see ldst_cycle). A failed try has no other effect, except in
 * the access trace, which therefore keeps the tries. */
static void fail_ahead(sm_ldst *ld, uint64_t now)
{
    mem_stage *st = &ld->stage;
    if (!ld->cfg->l1d_enabled || ld->l1_trace || ld->l1_observer) return;
    /* room in the network comes with a grant, not a fill: no prediction then */
    if (memsys_send_bounded(ld->mem)) return;
    const line_access *a = next_access(ld);
    if (ld->cfg->l1d_sectored) {
        int slots = memsys_send_slots(ld->mem, ld->sm, now + 1,
                                      ld->cfg->l1d_line / L1D_SECTOR + ld->cfg->l1d_miss_spare);
        if (!l1d_load_sectors_needs_fill(ld->l1, a->line, a->sectors, slots)) return;
    } else {
        if (!l1d_load_needs_fill(ld->l1, a->line)) return;
        if (!load_can_send(ld, now + 1)) return; /* that try fails, as L1F_SEND */
    }
    st->blocked_on_fill = true;
    st->fail_fills = ld->fills;
    st->failed_at = now;
}

/* ------------------------------------------------------ L1D access pipeline ---- */

/* The bank of an access (l1d.banks, 32-byte interleaved as GPGPU-Sim's l1d_cache_config::set_bank
 * with -gpgpu_l1_banks_byte_interleaving 32 and the linear hash): that of its first sector. */
static int l1q_bank_of(const sm_ldst *ld, const line_access *a)
{
    const mem_stage *st = &ld->stage;
    if (st->q_banks == 1) return 0;
    uint64_t addr =
        a->line + (a->sectors ? (uint64_t)__builtin_ctz(a->sectors) * ld->cfg->bypass_segment : 0);
    return (int)wt_mod(addr >> 5, (uint64_t)st->q_banks);
}

/* A store at the head: write-evict the L1D copy and send it (write-through), as the unit's
 * store path does; it waits at the head while nothing can be sent. */
static int l1q_store(sm_ldst *ld, const l1q_entry *x, uint64_t now)
{
    if (!memsys_can_send(ld->mem, ld->sm, now)) return 0;
    int dropped = l1d_store(ld->l1, x->a.line);
    if (ld->l1_trace || ld->l1_observer)
        trace_access(ld, now, x->warp, x->pc, "store", x->a.line, dropped ? "hit" : "miss");
    send_store(ld, &x->a, x->written, x->warp, now);
    return 1;
}

/* Would bank q's head fail again exactly as its last try did? With no fill since, a failure
 * for want of an MSHR, a merge slot or a way stands; so does one for want of an injection slot
 * while none is free, for a store, and for a load when no other bank's access can make its
 * missing sectors pending first (one bank, or one sector per access, whose bank is its
 * sector's). */
static bool replay_fails(const sm_ldst *ld, const l1q_bank *q, bool load, uint64_t now)
{
    if (q->fail_fills != ld->fills) return false;
    if (q->blocked_on_fill) return true;
    bool bound =
        !load || ld->stage.q_banks == 1 || (ld->cfg->l1d_sectored && ld->cfg->sector_accesses);
    return q->blocked_on_send && bound && !memsys_can_send(ld->mem, ld->sm, now);
}

/* Would a try of queued load x fail now for want of an MSHR (or of a merge slot or a way)?
 * Such a try changes nothing but the failure count. While every MSHR is taken, as for long
 * stretches of memory-bound kernels, l1d_load_needs_fill answers that with the lookup alone,
 * and the try is left out. Only for the non-sectored L1D, and not while the accesses are
 * traced (the trace lists each try). */
static bool load_needs_fill(const sm_ldst *ld, const l1q_entry *x, uint64_t now)
{
    if (ld->cfg->l1d_sectored || !ld->cfg->l1d_enabled || l1d_mshr_free(ld->l1) || ld->l1_trace ||
        ld->l1_observer)
        return false;
    return l1d_load_needs_fill(ld->l1, x->a.line) && load_can_send(ld, now);
}

/* GPGPU-Sim's ldst_unit::L1_latency_queue_cycle: each bank's head, once there, does its L1D
 * access; a HIT writes back now, a MISS or HIT_RESERVED has sent or joined its fetch and
 * leaves, a RESERVATION_FAIL stays and holds the accesses behind it. */
static void l1q_cycle(sm_ldst *ld, uint64_t now)
{
    mem_stage *st = &ld->stage;
    for (uint32_t banks = st->q_busy; banks; banks &= banks - 1) {
        int b = __builtin_ctz(banks);
        l1q_bank *q = &st->q[b];
        if (now < q->ready) continue;
        l1q_entry *x = &q->e[q->head];
        bool load = x->cls == IC_LD_GLOBAL;
        if (replay_fails(ld, q, load, now)) {
            ld->st->l1d_resfails += load ? now - q->failed_at : 0; /* as the unit's replay */
            q->failed_at = now;
            continue;
        }
        if (q->blocked_on_fill || q->blocked_on_send) {
            if (load) ld->st->l1d_resfails += now - q->failed_at - 1;
            q->blocked_on_fill = q->blocked_on_send = false;
        }
        l1_fail why = L1F_STALL;
        bool fill_first = load && load_needs_fill(ld, x, now);
        if (fill_first) why = L1F_MSHR; /* MSHR, merge slot or way: each waits for a fill */
        if (fill_first || !(load ? load_access(ld, x, now, &why) : l1q_store(ld, x, now))) {
            if (!load) why = L1F_SEND;
            if (load) ld->st->l1d_resfails++;
            q->failed_at = now;
            q->blocked_on_fill = why == L1F_MSHR || why == L1F_MERGE || why == L1F_RESERVED;
            q->fail_fills = ld->fills;
            q->blocked_on_send = why == L1F_SEND;
            continue;
        }
        q->head = q->head + 1 == st->q_depth ? 0 : q->head + 1;
        q->count--;
        st->q_count--;
        if (q->count) {
            l1d_prefetch(ld->l1, q->e[q->head].a.line); /* the new head's lookup is next */
            uint64_t r = q->e[q->head].entered + (uint64_t)st->q_depth;
            q->ready = r > now + 1 ? r : now + 1;
        } else {
            st->q_busy &= ~(1u << b);
        }
    }
}

/* GPGPU-Sim's ldst_unit::process_memory_access_queue_l1cache: up to l1d.banks of the unit's
 * accesses enter their banks' tails this cycle, in order, stopping at the first whose tail is
 * taken (a bank conflict); the instruction leaves once all are in. */
static void l1q_enter(sm_ldst *ld, uint64_t now)
{
    mem_stage *st = &ld->stage;
    st->blocked_on_queue = false;
    for (int k = 0; k < st->q_banks && st->next < st->n; k++) {
        const line_access *a = next_access(ld);
        l1q_bank *q = &st->q[l1q_bank_of(ld, a)];
        if (q->count == st->q_depth) {
            st->blocked_on_queue = true; /* until its head leaves: the queue's wake */
            break;
        }
        int tail = q->head + q->count;
        if (tail >= st->q_depth) tail -= st->q_depth;
        if (q->count && q->last_in == now) break; /* the tail was taken this cycle: next cycle */
        l1q_entry *e = &q->e[tail];
        *e = (l1q_entry){*a, st->rec, st->warp, st->n, st->prio, st->pc, st->cls, {0}, now};
        if (st->cls == IC_ST_GLOBAL && ld->cfg->mem.l2_lazy_fetch)
            memcpy(e->written, st->written[a - st->acc], sizeof e->written);
        q->last_in = now;
        l1d_prefetch(ld->l1, a->line); /* looked up once at the head, q_depth cycles on */
        if (!q->count) {
            q->ready = now + (uint64_t)st->q_depth;
            st->q_busy |= 1u << (q - st->q);
        }
        q->count++;
        st->q_count++;
        st->next++;
    }
    if (st->next == st->n) stage_free(ld);
}

static uint64_t l1q_wake(const sm_ldst *ld, uint64_t now)
{
    const mem_stage *st = &ld->stage;
    uint64_t wake = UINT64_MAX;
    for (uint32_t banks = st->q_busy; banks; banks &= banks - 1) {
        const l1q_bank *q = &st->q[__builtin_ctz(banks)];
        if (q->blocked_on_fill) continue; /* a fill wakes the SM (a reply) */
        uint64_t w = q->blocked_on_send ? memsys_send_ready(ld->mem, ld->sm, now)
                     : q->ready > now   ? q->ready
                                        : now + 1;
        if (w < wake) wake = w;
    }
    return wake;
}

void ldst_cycle(sm_ldst *ld, uint64_t now)
{
    mem_stage *st = &ld->stage;
    if (st->q_count) l1q_cycle(ld, now);
    if (!st->busy) return;
    if (st->done_at) { /* a shared access: it leaves at done_at, into the shared pipeline */
        if (now < st->done_at) return;
        st->done_at = 0;
        if (st->dst[0] | st->dst[1]) {
            sm_event e = {.cycle = now + (uint64_t)ld->cfg->shared_latency,
                          .kind = EV_REG,
                          .a = st->warp,
                          .m = {st->dst[0], st->dst[1]}};
            sm_evq_push(ld->ev, &e, EVQ_SHARED);
        }
        stage_free(ld);
        return;
    }
    if (st->q && st->cls != IC_ATOMIC && ld->cfg->l1d_enabled) {
        l1q_enter(ld, now);
        return;
    }
    const line_access *a = next_access(ld);
    int done = 0;
    if (st->blocked_on_fill && st->fail_fills == ld->fills) {
        /* Awake for another reason, but no fill has come: the replay would fail again. */
        ld->st->l1d_resfails += now - st->failed_at;
        st->failed_at = now;
        return;
    }
    if (st->blocked_on_fill || st->blocked_on_send) {
        /* Asleep since a failure for want of an MSHR: every cycle in between would have
         * failed the same way, so count those replays as if they had been tried. */
        ld->st->l1d_resfails += now - st->failed_at - 1;
        st->blocked_on_fill = st->blocked_on_send = false;
    }
    if (st->cls == IC_LD_GLOBAL) {
        l1q_entry x = {*a, st->rec, st->warp, st->n, st->prio, st->pc, st->cls, {0}, now};
        l1_fail why = L1F_STALL;
        done = load_access(ld, &x, now, &why);
        if (!done) load_failed(ld, why, now);
    } else if (memsys_can_send(ld->mem, ld->sm, now)) {
        /* Stores and atomics: write-evict the L1D copy, then go to L2 (write-through). */
        uint32_t bytes = 4u * wt_popcount32(a->lanes);
        if (st->cls != IC_ATOMIC || !ld->cfg->atomic_path) { /* serial atomics bypass it */
            int dropped = l1d_store(ld->l1, a->line);
            if (ld->l1_trace || ld->l1_observer)
                trace_access(ld, now, st->warp, st->pc,
                             st->cls == IC_ST_GLOBAL ? "store" : "atomic", a->line,
                             dropped ? "hit" : "miss");
        }
        if (st->cls == IC_ST_GLOBAL)
            send_store(ld, a, st->written[a - st->acc], st->warp, now);
        else
            send_sectors(ld, a->line, bytes, MEM_ATOMIC, TOK_ATOMIC | (uint32_t)st->rec, a->sectors,
                         now);
        done = 1;
    }
    if (done && ++st->next == st->n) {
        stage_free(ld); /* warps waiting for the unit may issue */
    } else if (done && st->cls == IC_LD_GLOBAL) {
        fail_ahead(ld, now);
    }
}

static int recs_init(sm_ldst *ld, int n)
{
    ld->recs = calloc((size_t)n, sizeof *ld->recs);
    if (!ld->recs) return -1;
    ld->recs_cap = n;
    for (int i = 0; i < n; i++)
        ld->recs[i].next_free = i + 1 < n ? i + 1 : -1;
    ld->free_rec = 0;
    return 0;
}

static int rec_alloc(sm_ldst *ld)
{
    if (ld->free_rec < 0) {
        int old = ld->recs_cap, cap = old * 2;
        load_rec *r = realloc(ld->recs, (size_t)cap * sizeof *r);
        if (!r) abort(); /* bounded by warps x registers: failing means no memory at all */
        ld->recs = r;
        for (int i = old; i < cap; i++)
            r[i].next_free = i + 1 < cap ? i + 1 : -1;
        ld->free_rec = old;
        ld->recs_cap = cap;
    }
    int id = ld->free_rec;
    ld->free_rec = ld->recs[id].next_free;
    ld->nrecs++;
    return id;
}

static void rec_free(sm_ldst *ld, int id)
{
    ld->recs[id].next_free = ld->free_rec;
    ld->free_rec = id;
    ld->nrecs--;
}

/* One access of load record `id` is back. */
void ldst_access_done(sm_ldst *ld, int id, uint64_t now)
{
    (void)now;
    load_rec *r = &ld->recs[id];
    if (--r->remaining > 0) return;
    if (!r->is_load) warps_atomic_done(ld->wp, r->warp, r->age);
    sb_release(ld->sb, r->warp, r->dst);
    sm_wake_warp(ld->wakes, r->warp);
    if (r->is_load) {
        ld->st->load_misses += (uint64_t)r->misses;
        if (r->misses == 0) {
            ld->st->fully_cached_loads++;
            if (r->accesses > 1) ld->st->fully_cached_divergent_loads++;
        } else {
            ld->st->mpli_hist[r->misses == 1 ? 0 : r->misses == 2 ? 1 : r->misses < 32 ? 2 : 3]++;
        }
        l1d_load_done(ld->l1, r->warp, r->prio, r->accesses, r->misses);
    }
    rec_free(ld, id);
}

/* ------------------------------------------------------------------- replies ---- */

void ldst_deliver(sm_ldst *ld, const mem_packet *p, uint64_t now)
{
    uint32_t kind = p->token & TOK_KIND;
    uint32_t idx = p->token & TOK_INDEX;
    switch (kind) {
    case TOK_FILL: {
        uint32_t waiters[64];
        uint64_t line;
        ld->fills++;
        int n = l1d_fill(ld->l1, (int)idx, waiters, &line);
        ld->st->l1d_bytes += (uint64_t)(ld->cfg->l1d_sectored ? L1D_SECTOR : ld->cfg->l1d_line);
        if (!ld->cfg->l1d_fill_drain) {
            for (int i = 0; i < n; i++)
                ldst_access_done(ld, (int)waiters[i], now);
            break;
        }
        for (int i = 0; i < n; i++) { /* one a cycle, after those of earlier fills */
            uint64_t t = ld->drain_last + 1 > now + 1 ? ld->drain_last + 1 : now + 1;
            ld->drain_last = t;
            sm_event e = {.cycle = t, .kind = EV_ACCESS, .a = (int)waiters[i]};
            sm_evq_push(ld->ev, &e, EVQ_DRAIN);
        }
        break;
    }
    case TOK_BYPASS:
    case TOK_ATOMIC:
        ldst_access_done(ld, (int)idx, now);
        break;
    default:
        assert(0 && "a reply for the load/store unit");
        break;
    }
}

/* --------------------------------------------------------------------- L1D ---- */

/* Makes the SM's L1D, of sets x ways, with its policy (sm_create, and a kernel's start when
 * the carveout changes the geometry: the old cache's policy statistics are kept). */
static int l1d_make(sm_ldst *ld, int sets, int ways, char *err, size_t errlen)
{
    const gpu_config *c = ld->cfg;
    const l1_policy_ops *lp = ld->l1_ops;
    l1d_config lc = {sets,
                     ways,
                     c->l1d_line,
                     c->l1d_hash,
                     c->l1d_mshrs,
                     c->l1d_mshr_merge,
                     c->l1d_sectored,
                     c->l1d_recency_miss,
                     c->l1d_miss_spare};
    l1_env le = {{sets, ways, c->l1d_line}, ld->sm, c->max_warps, ld->rng, c->l1d_recency_miss};
    l1d *n = NULL;
    if (l1d_create(&n, &lc, lp, &le, ld->params, err, errlen) != 0) return -1;
    if (ld->l1) {
        if (lp->nmetrics && !ld->l1_saved &&
            !(ld->l1_saved = calloc(lp->nmetrics, sizeof(double)))) {
            l1d_destroy(n);
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        if (ld->l1_saved) l1d_collect(ld->l1, ld->l1_saved);
        l1d_destroy(ld->l1);
    }
    if (c->l1d_tag_pipeline && !ld->stage.q) {
        mem_stage *st = &ld->stage;
        int banks = c->l1d_banks, depth = c->l1d_hit_latency;
        st->q = calloc((size_t)banks, sizeof *st->q);
        for (int b = 0; st->q && b < banks; b++)
            if (!(st->q[b].e = calloc((size_t)depth, sizeof *st->q[b].e))) {
                st->q_banks = b;
                l1q_free(ld);
            }
        if (!st->q) {
            l1d_destroy(n);
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        st->q_banks = banks;
        st->q_depth = depth;
    }
    ld->l1 = n;
    ld->l1_sets = sets;
    ld->l1_ways = ways;
    ld->l1_crit = lp->uses_criticality;
    ld->l1_prio = lp->uses_warp_prio;
    return 0;
}

static void l1q_free(sm_ldst *ld)
{
    mem_stage *st = &ld->stage;
    if (!st->q) return;
    for (int b = 0; b < st->q_banks; b++)
        free(st->q[b].e);
    free(st->q);
    st->q = NULL;
}

/* Volta's shared-memory options (GPGPU-Sim -gpgpu_shmem_option of SM7_QV100), in KB. */
static const int carveout_kb[] = {0, 8, 16, 32, 64, 96};

/* The carveout's L1D for a kernel whose `ctas` resident CTAs need `shared` bytes each
 * (shader_core_config::max_cta with adaptive_cache_config): the smallest option holding them,
 * the rest of the unified size for the L1D, as ways of the configured sets: round(max_assoc *
 * (1 - option / unified)) with max_assoc the ways of the whole unified size. More than
 * L1D_MAX_WAYS ways become fewer ways of more sets, the capacity the same. */
static void carveout(const gpu_config *c, long shared, int ctas, int *sets, int *ways)
{
    long need = shared * ctas, unified = (long)c->l1d_unified_kb * 1024;
    int n = (int)(sizeof carveout_kb / sizeof carveout_kb[0]), opt = carveout_kb[n - 1];
    for (int i = 0; i < n; i++)
        if (need <= (long)carveout_kb[i] * 1024) {
            opt = carveout_kb[i];
            break;
        }
    unsigned max_assoc = (unsigned)(unified / ((long)c->l1d_sets * c->l1d_line));
    float ratio = 1 - ((float)opt * 1024 / (float)unified);
    if (ratio < 0) ratio = 0;
    int w = (int)((float)max_assoc * ratio + 0.5f), k = 1;
    if (w < 1) w = 1;
    while (w > L1D_MAX_WAYS * k)
        k *= 2;
    *sets = c->l1d_sets * k;
    *ways = (w + k - 1) / k;
}

int ldst_kernel_start(sm_ldst *ld, const kernel_launch *k, int ctas, char *err, size_t errlen)
{
    const gpu_config *c = ld->cfg;
    if (c->l1d_unified_kb) {
        int sets, ways;
        carveout(c, (long)k->shared_bytes, ctas, &sets, &ways);
        if (sets != ld->l1_sets || ways != ld->l1_ways)
            return l1d_make(ld, sets, ways, err, errlen);
    }
    if (c->l1d_kernel_flush && l1d_invalidate(ld->l1) != 0) {
        snprintf(err, errlen, "L1D fills outstanding at a kernel's start");
        return -1;
    }
    return 0;
}

/* A shared load or store enters the load/store unit (sm.shared_path=ldst), as in GPGPU-Sim's
 * ldst_unit::cycle with ldst_unit::shared_cycle: it holds the unit's dispatch register for as
 * many cycles as its bank-conflict degree (the first the cycle after issue, as a global
 * access's first line), then enters the shared-memory pipeline (-gpgpu_smem_latency, here
 * sm.shared_latency), at whose end the destination is written back. Meanwhile the warps with
 * a memory instruction to issue wait for the unit (ST_STAGE). */
void ldst_shared(sm_ldst *ld, int wi, const inst_info *in, const inst_exec *x, uint64_t now)
{
    mem_stage *st = stage_begin(ld, wi, in);
    st->n = coalesce_shared_degree(x->addr, x->active_mask, ld->cfg->shared_banks);
    st->done_at = now + (uint64_t)st->n;
    st->dst[0] = st->dst[1] = 0;
    for (int i = 0; i < in->ndst; i++)
        st->dst[in->dst[i] >> 6] |= (uint64_t)1 << (in->dst[i] & 63);
    sb_reserve(ld->sb, wi, st->dst);
}
