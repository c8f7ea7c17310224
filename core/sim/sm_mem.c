/* The SM's load/store unit: one memory instruction at a time, one line access per cycle
 * through the L1D (docs/fidelity.md, "The load/store unit"); misses go to the memory system
 * through MSHRs, and the replies (sm_recs.c) release the waiting registers. */
#include <stdlib.h>
#include <string.h>

#include "core/sim/cpl.h"
#include "core/sim/sm_internal.h"

/* -------------------------------------------------------------------- issue ---- */

mem_stage *sm_stage_begin(sm *s, int wi, const inst_info *in)
{
    mem_stage *st = &s->stage;
    st->busy = true;
    st->blocked_on_fill = st->blocked_on_send = false;
    st->cls = in->cls;
    st->warp = wi;
    st->pc = in->pc;
    st->next = 0;
    st->rec = -1;
    return st;
}

/* A global load, store or atomic enters the load/store unit. Returns 0. */
int sm_mem_issue(sm *s, int wi, const inst_info *in, const inst_exec *x, uint64_t now)
{
    (void)now;
    if (!x->active_mask) return 0; /* every lane predicated off: nothing to access */
    mem_stage *st = sm_stage_begin(s, wi, in);
    int sector = s->cfg->bypass_segment;
    if (in->cls == IC_ATOMIC && s->cfg->atomic_path)
        st->n = sm_atomic_requests(x->addr, x->active_mask, sector, st->acc);
    else
        st->n = coalesce(x->addr, x->active_mask, s->cfg->l1d_line, sector, st->acc);
    int lines = st->n;                                   /* its memory divergence */
    if (s->cfg->sector_accesses && in->cls != IC_ATOMIC) /* Volta's 32-byte transactions */
        st->n = coalesce_split_sectors(x->addr, st->acc, st->n, sector);
    if (s->cfg->access_descending) coalesce_sort(st->acc, st->n); /* taken from the end */
    st->prio = s->l1_prio ? sm_warp_priority(s, wi) : 0;
    if (in->cls == IC_ST_GLOBAL) {
        s->st.global_stores++;
        if (s->cfg->store_acks) s->warps[wi].stores += (uint32_t)st->n; /* one send each */
        return 0;
    }
    int id = sm_rec_alloc(s);
    load_rec *r = &s->recs[id];
    *r = (load_rec){.warp = wi,
                    .accesses = st->n,
                    .remaining = st->n,
                    .is_load = in->cls == IC_LD_GLOBAL,
                    .age = s->warps[wi].age,
                    .prio = st->prio,
                    .next_free = -1};
    for (int i = 0; i < in->ndst; i++)
        r->dst[in->dst[i] >> 6] |= (uint64_t)1 << (in->dst[i] & 63);
    warp *w = &s->warps[wi];
    w->pending[0] |= r->dst[0];
    w->pending[1] |= r->dst[1];
    sm_mark_long(s, wi, 0, r->dst[0]);
    sm_mark_long(s, wi, 1, r->dst[1]);
    st->rec = id;
    if (in->cls != IC_ATOMIC) { /* an atomic counts from its issue (sm.c) */
        s->st.global_loads++;
        if (lines > 1)
            s->st.divergent_loads++;
        else
            s->st.coherent_loads++;
    }
    return 0;
}

/* The load/store unit frees: warps waiting for it may issue. */
static void stage_free(sm *s)
{
    s->stage.busy = false;
    s->scan_at = 0;
    s->recheck |= s->stage_waiters;
    s->stage_waiters = 0;
}

/* ------------------------------------------------------------ per-cycle access ---- */

static void trace_access(sm *s, uint64_t now, int wi, uint32_t pc, const char *kind, uint64_t line,
                         const char *outcome)
{
    if (s->l1_trace)
        fprintf(s->l1_trace, "%d,%llu,%d,%u,%llu,%s,%s\n", s->id, (unsigned long long)now, wi, pc,
                (unsigned long long)line, kind, outcome);
    if (s->l1_observer) {
        l1_access_record r = {s->id, now, wi, pc, line, kind, outcome};
        s->l1_observer(s->l1_observer_arg, &r);
    }
}

static int send(sm *s, uint64_t addr, uint32_t bytes, int kind, uint32_t token, uint64_t now)
{
    mem_packet p = {.addr = addr,
                    .bytes = bytes,
                    .kind = (uint8_t)kind,
                    .sm = (uint16_t)s->id,
                    .token = token,
                    .sent_cycle = now};
    return memsys_send(s->mem, &p, now);
}

/* An access's segments (l1d.bypass_segment bytes each) as 32-byte sectors of its line, for a
 * sectored L2 (mem_packet.sectors; 0: the L2 reads the packet's byte range). */
static uint16_t sectors32(const sm *s, uint32_t segs)
{
    int seg = s->cfg->bypass_segment;
    if (!s->cfg->mem.l2_sectored || s->cfg->l1d_line > 512) return 0;
    if (seg == 32) return (uint16_t)segs;
    uint32_t out = 0;
    for (; segs; segs &= segs - 1) {
        int i = __builtin_ctz(segs), lo = i * seg / 32, hi = ((i + 1) * seg - 1) / 32;
        for (int k = lo; k <= hi; k++)
            out |= 1u << k;
    }
    return (uint16_t)out;
}

/* send() with the sectors a sectored L2 should read or write. */
static int send_sectors(sm *s, uint64_t addr, uint32_t bytes, int kind, uint32_t token,
                        uint32_t segs, uint64_t now)
{
    mem_packet p = {.addr = addr,
                    .bytes = bytes,
                    .kind = (uint8_t)kind,
                    .sm = (uint16_t)s->id,
                    .token = token,
                    .sectors = sectors32(s, segs),
                    .sent_cycle = now};
    return memsys_send(s->mem, &p, now);
}

/* A store access's token: its warp, whose acknowledgement it counts down (sm.store_acks). */
static uint32_t store_token(int wi)
{
    return TOK_STORE | (uint32_t)wi;
}

static void notify(sm *s, int kind, int wi, uint64_t line, uint32_t pc, uint64_t now)
{
    if (!s->sched->on_l1_event) return;
    l1_event e = {(uint8_t)kind, wi, line, pc, now};
    s->sched->on_l1_event(s->sched_self[sm_sched_of(s, wi)], &e);
}

/* An access of load r missed: its destinations now wait on memory. Only the first miss of a
 * load changes that, and with it the warp's classification: later ones leave the issue scan
 * alone (a scan would classify every warp exactly as the last one did). */
static void waits_on_miss(sm *s, int wi, const load_rec *r)
{
    warp *w = &s->warps[wi];
    if (!((r->dst[0] & ~w->pending_mem[0]) | (r->dst[1] & ~w->pending_mem[1]))) return;
    w->pending_mem[0] |= r->dst[0];
    w->pending_mem[1] |= r->dst[1];
    s->scan_at = 0; /* the warp now waits on a miss: reclassify */
    s->recheck |= (uint64_t)1 << wi;
}

/* A failed try of the unit's access: what to wait for before the replay (see load_access). */
static int load_failed(sm *s, l1_fail why, uint64_t now)
{
    mem_stage *st = &s->stage;
    s->st.l1d_resfails++;
    st->failed_at = now;
    /* Until a fill arrives (MSHR, merge slot, reserved ways) or the memory system moves
     * (injection queue) nothing can change the answer: the SM may sleep until then. A
     * policy's stall is retried every cycle. */
    st->blocked_on_fill = why == L1F_MSHR || why == L1F_MERGE || why == L1F_RESERVED;
    st->fail_fills = s->fills;
    st->blocked_on_send = why == L1F_SEND;
    return 0;
}

/* A hit's access of load record `rec` writes back: l1d.hit_latency after the lookup, or at
 * the lookup itself at the head of the L1D access pipeline (its latency was the queue's). */
static void hit_done(sm *s, int rec, uint64_t now)
{
    if (s->cfg->l1d_tag_pipeline) {
        sm_access_done(s, rec, now);
        return;
    }
    sm_event e = {.cycle = now + (uint64_t)s->cfg->l1d_hit_latency, .kind = EV_ACCESS, .a = rec};
    sm_push_event(s, &e, EVQ_HIT);
}

/* What the L1D policy sees of a queued access. */
static l1_request request_of(const sm *s, const l1q_entry *x, uint64_t now)
{
    return (l1_request){x->a.line,
                        x->pc,
                        x->warp,
                        x->prio,
                        s->l1_crit ? (int)cpl_criticality(s->cpl, x->warp) : 0,
                        s->l1_crit && cpl_is_critical(s->cpl, x->warp),
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
__attribute__((noinline)) static int load_access_sectored(sm *s, const l1q_entry *x, uint64_t now,
                                                          l1_fail *why)
{
    const line_access *a = &x->a;
    load_rec *r = &s->recs[x->rec];
    int slots = memsys_send_slots(s->mem, s->id, now, s->cfg->l1d_line / L1D_SECTOR);
    l1_request q = request_of(s, x, now);
    l1_sectors sec;
    int owner = -1, evicted = -1;
    uint64_t evicted_line = 0;
    l1_outcome o = l1d_load_sectors(s->l1, &q, a->sectors, (uint32_t)x->rec, slots, &sec, &owner,
                                    &evicted, &evicted_line);
    int bypass_blocked = o == L1_BYPASSED && !slots;
    if (bypass_blocked) o = L1_RESFAIL;
    uint32_t nsec = wt_popcount_small(a->sectors);
    if (o != L1_RESFAIL) s->st.l1d_accesses += nsec;
    if (s->l1_trace || s->l1_observer)
        trace_access(s, now, x->warp, x->pc, "load", a->line, l1_outcome_names[o]);
    if (o == L1_RESFAIL) {
        *why = bypass_blocked ? L1F_SEND : l1d_last_fail(s->l1);
        return 0;
    }
    if (o == L1_BYPASSED) {
        send_sectors(s, a->line, nsec * L1D_SECTOR, MEM_READ, TOK_BYPASS | (uint32_t)x->rec,
                     a->sectors, now);
        s->st.l1d_misses += nsec;
        s->st.l1d_bypasses++;
        r->misses++;
        waits_on_miss(s, x->warp, r);
        notify(s, L1E_MISS, x->warp, a->line, x->pc, now);
        return 1;
    }
    uint32_t hits = wt_popcount_small(sec.hit), fetch = sec.miss | sec.merged;
    s->st.l1d_hits += hits;
    s->st.l1d_misses += wt_popcount_small(sec.miss);
    s->st.l1d_merged += wt_popcount_small(sec.merged);
    /* one completion per fetch waited on, one for the hit latency */
    r->remaining += (int)wt_popcount_small(fetch) + (hits ? 1 : 0) - 1;
    if (hits) {
        s->st.l1d_bytes += fetch ? (uint64_t)L1D_SECTOR * hits : 4u * wt_popcount32(a->lanes);
        hit_done(s, x->rec, now);
    }
    if (o == L1_HIT) {
        if (owner == x->warp)
            s->st.l1d_intra_hits++;
        else
            s->st.l1d_inter_hits++;
        notify(s, L1E_HIT, x->warp, a->line, x->pc, now);
        return 1;
    }
    for (uint32_t m = sec.miss; m; m &= m - 1) {
        int k = __builtin_ctz(m);
        send(s, a->line + (uint64_t)k * L1D_SECTOR, L1D_SECTOR, MEM_READ,
             TOK_FILL | (uint32_t)sec.mshr[k], now);
    }
    r->misses++;
    waits_on_miss(s, x->warp, r);
    if (evicted >= 0) notify(s, L1E_EVICT, evicted, evicted_line, x->pc, now);
    notify(s, L1E_MISS, x->warp, a->line, x->pc, now);
    return 1;
}

/* Tries access x of a global load (the unit's current one, or the head of an L1D access
 * pipeline's queue). Returns 1 when it is done with, 0 to replay it next time, with *why
 * saying what the replay waits for. */
static int load_access(sm *s, const l1q_entry *x, uint64_t now, l1_fail *why)
{
    if (s->cfg->l1d_sectored && s->cfg->l1d_enabled) return load_access_sectored(s, x, now, why);
    const line_access *a = &x->a;
    load_rec *r = &s->recs[x->rec];
    int can_send = memsys_can_send(s->mem, s->id, now);
    l1_outcome o;
    int mshr = -1, owner = -1, evicted = -1;
    uint64_t evicted_line = 0;
    if (s->cfg->l1d_enabled) {
        l1_request q = request_of(s, x, now);
        o = l1d_load(s->l1, &q, (uint32_t)x->rec, can_send, &mshr, &owner, &evicted, &evicted_line);
    } else {
        o = L1_BYPASSED;
    }
    if (o == L1_BYPASSED && !can_send) o = L1_RESFAIL;
    s->st.l1d_accesses += o != L1_RESFAIL;
    if (s->l1_trace || s->l1_observer)
        trace_access(s, now, x->warp, x->pc, "load", a->line, l1_outcome_names[o]);
    switch (o) {
    case L1_HIT: {
        s->st.l1d_hits++;
        s->st.l1d_bytes += 4u * wt_popcount32(a->lanes);
        if (owner == x->warp)
            s->st.l1d_intra_hits++;
        else
            s->st.l1d_inter_hits++;
        hit_done(s, x->rec, now);
        notify(s, L1E_HIT, x->warp, a->line, x->pc, now);
        return 1;
    }
    case L1_MISS:
        send(s, a->line, (uint32_t)s->cfg->l1d_line, MEM_READ, TOK_FILL | (uint32_t)mshr, now);
        s->st.l1d_misses++;
        r->misses++;
        waits_on_miss(s, x->warp, r);
        if (evicted >= 0) notify(s, L1E_EVICT, evicted, evicted_line, x->pc, now);
        notify(s, L1E_MISS, x->warp, a->line, x->pc, now);
        return 1;
    case L1_MERGED:
        s->st.l1d_merged++;
        r->misses++;
        waits_on_miss(s, x->warp, r);
        notify(s, L1E_MISS, x->warp, a->line, x->pc, now);
        return 1;
    case L1_BYPASSED: {
        uint32_t bytes = wt_popcount_small(a->sectors) * (uint32_t)s->cfg->bypass_segment;
        send_sectors(s, a->line, bytes, MEM_READ, TOK_BYPASS | (uint32_t)x->rec, a->sectors, now);
        s->st.l1d_misses++;
        s->st.l1d_bypasses++;
        r->misses++;
        waits_on_miss(s, x->warp, r);
        notify(s, L1E_MISS, x->warp, a->line, x->pc, now);
        return 1;
    }
    case L1_RESFAIL:
        *why = s->cfg->l1d_enabled && can_send ? l1d_last_fail(s->l1) : L1F_SEND;
        return 0;
    }
    return 0;
}

/* The memory instruction's next access to leave the unit: in coalescing order, or, sorted by
 * address at issue, from the end (l1d.access_order=descending, GPGPU-Sim's accessq_back). */
static const line_access *next_access(const sm *s)
{
    const mem_stage *st = &s->stage;
    return &st->acc[s->cfg->access_descending ? st->n - 1 - st->next : st->next];
}

/* The load's next access is tried next cycle. Unless a fill comes first (which wakes the SM
 * and, changing s->fills, lets it retry), that try sees the L1D as it is now and the injection
 * queue as it will be then (only this SM sends into it): if it can only fail for want of a
 * fill, it is recorded as failed already, so the SM sleeps until a fill instead of waking
 * for a try that cannot succeed. failed_at = now makes the blocked-cycle count include it
 * exactly when it happens (see sm_mem_cycle). A failed try has no other effect, except in
 * the access trace, which therefore keeps the tries. */
static void fail_ahead(sm *s, uint64_t now)
{
    mem_stage *st = &s->stage;
    if (!s->cfg->l1d_enabled || s->l1_trace || s->l1_observer) return;
    const line_access *a = next_access(s);
    if (s->cfg->l1d_sectored) {
        int slots = memsys_send_slots(s->mem, s->id, now + 1, s->cfg->l1d_line / L1D_SECTOR);
        if (!l1d_load_sectors_needs_fill(s->l1, a->line, a->sectors, slots)) return;
    } else {
        if (!l1d_load_needs_fill(s->l1, a->line)) return;
        if (!memsys_can_send(s->mem, s->id, now + 1)) return; /* that try fails, as L1F_SEND */
    }
    st->blocked_on_fill = true;
    st->fail_fills = s->fills;
    st->failed_at = now;
}

/* ------------------------------------------------------ L1D access pipeline ---- */

/* The bank of an access (l1d.banks, 32-byte interleaved as GPGPU-Sim's l1d_cache_config::set_bank
 * with -gpgpu_l1_banks_byte_interleaving 32 and the linear hash): that of its first sector. */
static int l1q_bank_of(const sm *s, const line_access *a)
{
    const mem_stage *st = &s->stage;
    if (st->q_banks == 1) return 0;
    uint64_t addr =
        a->line + (a->sectors ? (uint64_t)__builtin_ctz(a->sectors) * s->cfg->bypass_segment : 0);
    return (int)wt_mod(addr >> 5, (uint64_t)st->q_banks);
}

/* A store at the head: write-evict the L1D copy and send it (write-through), as the unit's
 * store path does; it waits at the head while nothing can be sent. */
static int l1q_store(sm *s, const l1q_entry *x, uint64_t now)
{
    if (!memsys_can_send(s->mem, s->id, now)) return 0;
    int dropped = l1d_store(s->l1, x->a.line);
    if (s->l1_trace || s->l1_observer)
        trace_access(s, now, x->warp, x->pc, "store", x->a.line, dropped ? "hit" : "miss");
    send_sectors(s, x->a.line, 4u * wt_popcount32(x->a.lanes), MEM_WRITE, store_token(x->warp),
                 x->a.sectors, now);
    return 1;
}

/* Would bank q's head fail again exactly as its last try did? With no fill since, a failure
 * for want of an MSHR, a merge slot or a way stands; so does one for want of an injection slot
 * while none is free, for a store, and for a load when no other bank's access can make its
 * missing sectors pending first (one bank, or one sector per access, whose bank is its
 * sector's). */
static bool replay_fails(const sm *s, const l1q_bank *q, bool load, uint64_t now)
{
    if (q->fail_fills != s->fills) return false;
    if (q->blocked_on_fill) return true;
    bool bound =
        !load || s->stage.q_banks == 1 || (s->cfg->l1d_sectored && s->cfg->sector_accesses);
    return q->blocked_on_send && bound && !memsys_can_send(s->mem, s->id, now);
}

/* Would a try of queued load x fail now for want of an MSHR (or of a merge slot or a way)?
 * Such a try changes nothing but the failure count. While every MSHR is taken, as for long
 * stretches of memory-bound kernels, l1d_load_needs_fill answers that with the lookup alone,
 * and the try is left out. Only for the non-sectored L1D, and not while the accesses are
 * traced (the trace lists each try). */
static bool load_needs_fill(const sm *s, const l1q_entry *x, uint64_t now)
{
    if (s->cfg->l1d_sectored || !s->cfg->l1d_enabled || l1d_mshr_free(s->l1) || s->l1_trace ||
        s->l1_observer)
        return false;
    return l1d_load_needs_fill(s->l1, x->a.line) && memsys_can_send(s->mem, s->id, now);
}

/* GPGPU-Sim's ldst_unit::L1_latency_queue_cycle: each bank's head, once there, does its L1D
 * access; a HIT writes back now, a MISS or HIT_RESERVED has sent or joined its fetch and
 * leaves, a RESERVATION_FAIL stays and holds the accesses behind it. */
static void l1q_cycle(sm *s, uint64_t now)
{
    mem_stage *st = &s->stage;
    for (uint32_t banks = st->q_busy; banks; banks &= banks - 1) {
        int b = __builtin_ctz(banks);
        l1q_bank *q = &st->q[b];
        if (now < q->ready) continue;
        l1q_entry *x = &q->e[q->head];
        bool load = x->cls == IC_LD_GLOBAL;
        if (replay_fails(s, q, load, now)) {
            s->st.l1d_resfails += load ? now - q->failed_at : 0; /* as the unit's replay */
            q->failed_at = now;
            continue;
        }
        if (q->blocked_on_fill || q->blocked_on_send) {
            if (load) s->st.l1d_resfails += now - q->failed_at - 1;
            q->blocked_on_fill = q->blocked_on_send = false;
        }
        l1_fail why = L1F_STALL;
        bool fill_first = load && load_needs_fill(s, x, now);
        if (fill_first) why = L1F_MSHR; /* MSHR, merge slot or way: each waits for a fill */
        if (fill_first || !(load ? load_access(s, x, now, &why) : l1q_store(s, x, now))) {
            if (!load) why = L1F_SEND;
            if (load) s->st.l1d_resfails++;
            q->failed_at = now;
            q->blocked_on_fill = why == L1F_MSHR || why == L1F_MERGE || why == L1F_RESERVED;
            q->fail_fills = s->fills;
            q->blocked_on_send = why == L1F_SEND;
            continue;
        }
        q->head = q->head + 1 == st->q_depth ? 0 : q->head + 1;
        q->count--;
        st->q_count--;
        if (q->count) {
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
static void l1q_enter(sm *s, uint64_t now)
{
    mem_stage *st = &s->stage;
    st->blocked_on_queue = false;
    for (int k = 0; k < st->q_banks && st->next < st->n; k++) {
        const line_access *a = next_access(s);
        l1q_bank *q = &st->q[l1q_bank_of(s, a)];
        if (q->count == st->q_depth) {
            st->blocked_on_queue = true; /* until its head leaves: the queue's wake */
            break;
        }
        int tail = q->head + q->count;
        if (tail >= st->q_depth) tail -= st->q_depth;
        if (q->count && q->e[tail == 0 ? st->q_depth - 1 : tail - 1].entered == now)
            break; /* the tail was taken this cycle: next cycle */
        q->e[tail] = (l1q_entry){*a, st->rec, st->warp, st->n, st->prio, st->pc, st->cls, now};
        if (!q->count) {
            q->ready = now + (uint64_t)st->q_depth;
            st->q_busy |= 1u << (q - st->q);
        }
        q->count++;
        st->q_count++;
        st->next++;
    }
    if (st->next == st->n) stage_free(s);
}

uint64_t sm_l1q_wake(const sm *s, uint64_t now)
{
    const mem_stage *st = &s->stage;
    uint64_t wake = UINT64_MAX;
    for (uint32_t banks = st->q_busy; banks; banks &= banks - 1) {
        const l1q_bank *q = &st->q[__builtin_ctz(banks)];
        if (q->blocked_on_fill) continue; /* a fill wakes the SM (sm_deliver) */
        uint64_t w = q->blocked_on_send ? memsys_next_event(s->mem, now)
                     : q->ready > now   ? q->ready
                                        : now + 1;
        if (w < wake) wake = w;
    }
    return wake;
}

void sm_mem_cycle(sm *s, uint64_t now)
{
    mem_stage *st = &s->stage;
    if (st->q_count) l1q_cycle(s, now);
    if (!st->busy) return;
    if (st->done_at) { /* a shared access: it leaves at done_at, into the shared pipeline */
        if (now < st->done_at) return;
        st->done_at = 0;
        if (st->dst[0] | st->dst[1]) {
            sm_event e = {.cycle = now + (uint64_t)s->cfg->shared_latency,
                          .kind = EV_REG,
                          .a = st->warp,
                          .m = {st->dst[0], st->dst[1]}};
            sm_push_event(s, &e, EVQ_SHARED);
        }
        stage_free(s);
        return;
    }
    if (st->q && st->cls != IC_ATOMIC && s->cfg->l1d_enabled) {
        l1q_enter(s, now);
        return;
    }
    const line_access *a = next_access(s);
    int done = 0;
    if (st->blocked_on_fill && st->fail_fills == s->fills) {
        /* Awake for another reason, but no fill has come: the replay would fail again. */
        s->st.l1d_resfails += now - st->failed_at;
        st->failed_at = now;
        return;
    }
    if (st->blocked_on_fill || st->blocked_on_send) {
        /* Asleep since a failure for want of an MSHR: every cycle in between would have
         * failed the same way, so count those replays as if they had been tried. */
        s->st.l1d_resfails += now - st->failed_at - 1;
        st->blocked_on_fill = st->blocked_on_send = false;
    }
    if (st->cls == IC_LD_GLOBAL) {
        l1q_entry x = {*a, st->rec, st->warp, st->n, st->prio, st->pc, st->cls, now};
        l1_fail why = L1F_STALL;
        done = load_access(s, &x, now, &why);
        if (!done) load_failed(s, why, now);
    } else if (memsys_can_send(s->mem, s->id, now)) {
        /* Stores and atomics: write-evict the L1D copy, then go to L2 (write-through). */
        uint32_t bytes = 4u * wt_popcount32(a->lanes);
        if (st->cls != IC_ATOMIC || !s->cfg->atomic_path) { /* serial atomics bypass it */
            int dropped = l1d_store(s->l1, a->line);
            if (s->l1_trace || s->l1_observer)
                trace_access(s, now, st->warp, st->pc, st->cls == IC_ST_GLOBAL ? "store" : "atomic",
                             a->line, dropped ? "hit" : "miss");
        }
        if (st->cls == IC_ST_GLOBAL)
            send_sectors(s, a->line, bytes, MEM_WRITE, store_token(st->warp), a->sectors, now);
        else
            send_sectors(s, a->line, bytes, MEM_ATOMIC, TOK_ATOMIC | (uint32_t)st->rec, a->sectors,
                         now);
        done = 1;
    }
    if (done && ++st->next == st->n) {
        st->busy = false;
        s->scan_at = 0; /* warps waiting for the unit may issue */
        s->recheck |= s->stage_waiters;
        s->stage_waiters = 0;
    } else if (done && st->cls == IC_LD_GLOBAL) {
        fail_ahead(s, now);
    }
}
