/* The L1D: sets of ways with their policy's per-line state, MSHRs that merge misses to one line,
 * the loads, stores, fills and invalidations the load/store unit makes, and the sectored cache
 * (l1d.sectored: 32-byte sectors, one MSHR per missing sector). The state and the inline
 * lookups are in l1d_internal.h. */
#include "core/sim/l1d_internal.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const l1_outcome_names[] = {"hit", "miss", "merged", "reservation_fail", "bypass"};

static int log2_exact(int v)
{
    int b = 0;
    while ((1 << b) < v)
        b++;
    return (1 << b) == v ? b : -1;
}

int l1d_create(l1d **out, const l1d_config *cfg, const l1_policy_ops *ops, const l1_env *env,
               const param_set *p, char *err, size_t errlen)
{
    if (cfg->ways < 1 || cfg->ways > L1D_MAX_WAYS) {
        snprintf(err, errlen, "L1D associativity must be 1 to %d ways", L1D_MAX_WAYS);
        return -1;
    }
    l1d *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    c->cfg = *cfg;
    c->line_shift = log2_exact(cfg->line_bytes);
    c->set_bits = log2_exact(cfg->sets);
    size_t lines = (size_t)cfg->sets * (size_t)cfg->ways;
    c->state_bytes = ops->line_state_bytes;
    c->tags = calloc(lines, sizeof *c->tags);
    c->fp_stride = (cfg->ways + 15) & ~15;
    c->fp = malloc((size_t)cfg->sets * (size_t)c->fp_stride + 16);
    c->valid = calloc(lines, 1);
    c->reserved = calloc(lines, 1);
    c->nreserved = calloc((size_t)cfg->sets, sizeof *c->nreserved);
    c->nused = calloc((size_t)cfg->sets, sizeof *c->nused);
    /* read only for a valid way (owner) or a reserved one (mshr_of), set when it becomes so */
    c->owner = malloc(lines * sizeof *c->owner);
    c->mshr_of = malloc(lines * sizeof *c->mshr_of);
    c->state = calloc(lines * (c->state_bytes ? c->state_bytes : 1), 1);
    /* written when allocated and read only while in use: no clearing (hundreds of MSHRs per
     * SM, an L1D made again at each carveout change) */
    c->mshr = malloc((size_t)cfg->mshrs * sizeof *c->mshr);
    c->mshr_req = malloc((size_t)cfg->mshrs * sizeof *c->mshr_req);
    c->mshr_words = (cfg->mshrs + 63) / 64;
    c->mshr_free = calloc((size_t)c->mshr_words, sizeof *c->mshr_free);
    c->waiters = malloc((size_t)cfg->mshrs * (size_t)cfg->mshr_merge * sizeof *c->waiters);
    c->ops = ops;
    if (cfg->sectored) {
        c->nsec = cfg->line_bytes / L1D_SECTOR;
        if (c->nsec < 1 || c->nsec > 16) {
            snprintf(err, errlen, "a sectored L1D needs 1 to 16 sectors of %d bytes a line",
                     L1D_SECTOR);
            l1d_destroy(c);
            return -1;
        }
        c->svalid = calloc(lines, sizeof *c->svalid);
        c->spend = calloc(lines, sizeof *c->spend);
        c->smshr = malloc(lines * (size_t)c->nsec * sizeof *c->smshr); /* read when pending */
        if (!c->svalid || !c->spend || !c->smshr) {
            snprintf(err, errlen, "out of memory");
            l1d_destroy(c);
            return -1;
        }
    }
    if (!c->tags || !c->fp || !c->valid || !c->reserved || !c->nreserved || !c->nused ||
        !c->owner || !c->mshr_of || !c->state || !c->mshr || !c->mshr_req || !c->mshr_free ||
        !c->waiters || (cfg->ways >= L1D_MAP_WAYS && l1d_map_init(&c->map, lines, c->tags) != 0)) {
        snprintf(err, errlen, "out of memory");
        l1d_destroy(c);
        return -1;
    }
    memset(c->fp, fingerprint(0), (size_t)cfg->sets * (size_t)c->fp_stride); /* tags start at 0 */
    for (int m = 0; m < cfg->mshrs; m++)
        c->mshr_free[m >> 6] |= 1ull << (m & 63);
    if (c->line_shift < 0 || (cfg->hash == L1D_HASH_xor && c->set_bits < 0)) {
        snprintf(err, errlen, "L1D line size and (with the xor hash) sets must be powers of two");
        l1d_destroy(c);
        return -1;
    }
    if (cfg->hash == L1D_HASH_fermi &&
        ((cfg->sets != 32 && cfg->sets != 64) || cfg->line_bytes != 128)) {
        snprintf(err, errlen, "the fermi L1D hash needs 32 or 64 sets of 128-byte lines");
        l1d_destroy(c);
        return -1;
    }
    if (ops->create && ops->create(&c->policy, env, p, err, errlen) != 0) {
        c->ops = NULL;
        l1d_destroy(c);
        return -1;
    }
    *out = c;
    return 0;
}

void l1d_destroy(l1d *c)
{
    if (!c) return;
    if (c->ops && c->ops->destroy) c->ops->destroy(c->policy);
    free(c->tags);
    free(c->fp);
    free(c->valid);
    free(c->reserved);
    free(c->nreserved);
    free(c->nused);
    free(c->map.slot);
    free(c->owner);
    free(c->mshr_of);
    free(c->state);
    free(c->mshr);
    free(c->mshr_free);
    free(c->waiters);
    free(c->mshr_req);
    free(c->svalid);
    free(c->spend);
    free(c->smshr);
    free(c);
}

uint64_t l1d_line_of(const l1d *c, uint64_t addr)
{
    return addr >> c->line_shift << c->line_shift;
}

int l1d_set_of(const l1d *c, uint64_t line_addr)
{
    uint64_t block = line_addr >> c->line_shift;
    if (c->set_bits == 0) return 0;
    if (c->cfg.hash == L1D_HASH_linear) {
        /* a mask instead of a 64-bit division when the sets are a power of two */
        if (c->set_bits > 0) return (int)(block & (((uint64_t)1 << c->set_bits) - 1));
        return (int)(block % (uint64_t)c->cfg.sets);
    }
    if (c->cfg.hash == L1D_HASH_fermi) return fermi_set(c, line_addr);
    /* Pseudo-random indexing in the manner of Fermi's L1 (DaCache 5, [26]): XOR of successive
     * index-wide slices of the block address, so power-of-two strides spread over sets. */
    uint64_t mask = ((uint64_t)1 << c->set_bits) - 1, set = 0;
    while (block) {
        set ^= block & mask;
        block >>= c->set_bits;
    }
    return (int)set;
}

static int find_way(const l1d *c, int set, uint64_t line, int want_valid)
{
    size_t base = (size_t)set * (size_t)c->cfg.ways;
    for (int w = 0; w < c->cfg.ways; w++) {
        size_t i = base + (size_t)w;
        if (c->tags[i] != line) continue;
        if (want_valid ? c->valid[i] : c->reserved[i]) return w;
    }
    return -1;
}

/* The way holding line valid (*way) or reserved for it (*m, its MSHR), -1 for neither. A
 * valid way with the tag is a hit; a reserved one is the line's outstanding miss (a line has an
 * MSHR exactly while its reserved way waits for it). A line is valid or reserved in at most one
 * way (it is reserved only when it is neither, and becomes valid only from its reservation), so
 * the first such way ends the search; ways invalidated by a store keep stale tags and are
 * passed over. */
static inline void lookup(const l1d *c, int set, uint64_t line, int *way, int *m)
{
    *way = *m = -1;
    int w = holding_way(c, set, line);
    if (w < 0) return;
    size_t i = (size_t)set * (size_t)c->cfg.ways + (size_t)w;
    if (c->valid[i])
        *way = w;
    else
        *m = c->mshr_of[i];
}

int l1d_load_needs_fill(const l1d *c, uint64_t line_addr)
{
    int set = set_index(c, line_addr), way, m;
    /* most accesses of cache-friendly kernels end here, without a lookup; a full merge slot
     * alone is not worth one */
    if (c->mshr_in_use < c->cfg.mshrs && c->nreserved[set] < c->cfg.ways) return 0;
    lookup(c, set, line_addr, &way, &m);
    if (way >= 0) return 0;
    if (m >= 0) return c->mshr[m].nwaiters >= c->cfg.mshr_merge;
    return 1; /* no MSHR, or (the caller could send) every way of the set reserved */
}

void l1d_prefetch(const l1d *c, uint64_t line_addr)
{
    if (c->map.slot) l1d_map_prefetch(&c->map, line_addr);
}

l1_outcome l1d_load(l1d *c, const l1_request *r, uint32_t waiter, int can_send, int *mshr,
                    int *owner_warp, int *evicted_warp, uint64_t *evicted_line)
{
    int set = set_index(c, r->line_addr);
    size_t base = (size_t)set * (size_t)c->cfg.ways;
    *evicted_warp = -1;
    int way, m;
    lookup(c, set, r->line_addr, &way, &m);
    if (way >= 0) {
        *owner_warp = c->owner[base + (size_t)way];
        if (c->ops->on_hit) {
            l1_set_view v = set_view(c, set);
            c->ops->on_hit(c->policy, r, &v, way);
        }
        return L1_HIT;
    }
    if (m >= 0) {
        mshr_entry *e = &c->mshr[m];
        if (c->cfg.miss_spare && !can_send) return fail(c, L1F_SEND); /* miss_queue_full(1) */
        if (e->nwaiters >= c->cfg.mshr_merge) return fail(c, L1F_MERGE);
        mshr_add_waiter(c, m, waiter);
        *mshr = m;
        if (c->cfg.recency_miss && c->ops->on_hit) { /* GPGPU-Sim: HIT_RESERVED is a use */
            l1_set_view v = set_view(c, set);
            c->ops->on_hit(c->policy, r, &v, e->way);
        }
        return L1_MERGED;
    }
    if (c->mshr_in_use >= c->cfg.mshrs) return fail(c, L1F_MSHR);
    if (!can_send) return fail(c, L1F_SEND);
    if (c->nreserved[set] == c->cfg.ways) return fail(c, L1F_RESERVED);
    l1_set_view v;
    way = pick_victim(c, set, r, &v);
    if (way == L1_BYPASS) return L1_BYPASSED;
    if (way == L1_STALL) return fail(c, L1F_STALL);
    size_t i = base + (size_t)way;
    if (c->valid[i]) {
        *evicted_warp = c->owner[i];
        *evicted_line = c->tags[i];
        if (c->ops->on_evict) c->ops->on_evict(c->policy, &v, way);
        c->valid[i] = 0;
        map_remove(c, c->tags[i]);
    } else {
        c->nused[set]++; /* a free way (the victim is never reserved) */
    }
    c->reserved[i] = 1;
    c->nreserved[set]++;
    c->tags[i] = r->line_addr;
    map_add(c, r->line_addr, i);
    c->fp[(size_t)set * (size_t)c->fp_stride + (size_t)way] = fingerprint(r->line_addr);
    c->owner[i] = (int16_t)r->warp_slot;
    int word = 0;
    while (!c->mshr_free[word]) /* a free MSHR exists: mshr_in_use < mshrs */
        word++;
    m = word * 64 + __builtin_ctzll(c->mshr_free[word]);
    c->mshr_free[word] &= c->mshr_free[word] - 1;
    c->mshr_in_use++;
    mshr_set(c, m, r, way, set, 0, waiter);
    c->mshr_of[i] = (int16_t)m;
    *mshr = m;
    if (c->cfg.recency_miss && c->ops->on_fill) /* insertion when the line is reserved */
        c->ops->on_fill(c->policy, r, &v, way);
    return L1_MISS;
}

int l1d_invalidate(l1d *c)
{
    if (c->mshr_in_use) return -1;
    size_t lines = (size_t)c->cfg.sets * (size_t)c->cfg.ways;
    for (int set = 0; set < c->cfg.sets && c->ops->on_evict; set++) {
        l1_set_view v = set_view(c, set);
        for (int w = 0; w < c->cfg.ways; w++)
            if (v.valid[w]) c->ops->on_evict(c->policy, &v, w);
    }
    memset(c->valid, 0, lines);
    if (c->svalid) memset(c->svalid, 0, lines * sizeof *c->svalid);
    for (int set = 0; set < c->cfg.sets; set++)
        c->nused[set] = c->nreserved[set];
    if (c->map.slot) { /* the reserved ways stay (none while no MSHR is in use) */
        l1d_map_clear(&c->map);
        for (size_t i = 0; i < lines; i++)
            if (c->reserved[i]) map_add(c, c->tags[i], i);
    }
    return 0;
}

int l1d_store(l1d *c, uint64_t line_addr)
{
    int set = set_index(c, line_addr);
    int way = c->cfg.sectored ? lookup_sectored(c, set, line_addr) : find_way(c, set, line_addr, 1);
    if (way < 0 || !c->valid[(size_t)set * (size_t)c->cfg.ways + (size_t)way]) return 0;
    l1_set_view v = set_view(c, set);
    if (c->ops->on_evict) c->ops->on_evict(c->policy, &v, way);
    if (!c->reserved[(size_t)set * (size_t)c->cfg.ways + (size_t)way]) {
        c->nused[set]--;
        map_remove(c, line_addr);
    }
    c->valid[(size_t)set * (size_t)c->cfg.ways + (size_t)way] = 0;
    if (c->svalid) c->svalid[(size_t)set * (size_t)c->cfg.ways + (size_t)way] = 0;
    return 1;
}

static int fill_sector(l1d *c, int m, uint32_t *waiters, uint64_t *line_addr);

int l1d_fill(l1d *c, int m, uint32_t *waiters, uint64_t *line_addr)
{
    if (c->cfg.sectored) return fill_sector(c, m, waiters, line_addr);
    mshr_entry *e = &c->mshr[m];
    size_t i = (size_t)e->set * (size_t)c->cfg.ways + (size_t)e->way;
    c->reserved[i] = 0;
    c->nreserved[e->set]--;
    c->valid[i] = 1;
    if (!c->cfg.recency_miss && c->ops->on_fill) {
        l1_set_view v = set_view(c, e->set);
        c->ops->on_fill(c->policy, &c->mshr_req[m], &v, e->way);
    }
    int n = copy_waiters(c, m, waiters);
    *line_addr = e->line;
    c->mshr_free[m >> 6] |= 1ull << (m & 63);
    c->mshr_in_use--;
    return n;
}

l1_fail l1d_last_fail(const l1d *c)
{
    return c->last_fail;
}

int l1d_mshr_free(const l1d *c)
{
    return c->mshr_in_use < c->cfg.mshrs;
}

void l1d_collect(const l1d *c, double *sums)
{
    if (c->ops->collect) c->ops->collect(c->policy, sums);
}

void l1d_load_done(l1d *c, int warp_slot, int warp_prio, int accesses, int misses)
{
    if (c->ops->on_load_done)
        c->ops->on_load_done(c->policy, warp_slot, warp_prio, accesses, misses);
}

/* ---------------------------------------------------- the sectored L1D (l1d.sectored) ---- */

static int mshr_alloc(l1d *c)
{
    int word = 0;
    while (!c->mshr_free[word]) /* a free MSHR exists: mshr_in_use < mshrs */
        word++;
    int m = word * 64 + __builtin_ctzll(c->mshr_free[word]);
    c->mshr_free[word] &= c->mshr_free[word] - 1;
    c->mshr_in_use++;
    return m;
}

/* The sectors of an access to way (-1: absent) split into valid, outstanding and missing. */
static inline void split_sectors(const l1d *c, size_t i, int way, uint32_t need, uint32_t *hit,
                                 uint32_t *pend, uint32_t *miss)
{
    *hit = way >= 0 ? need & c->svalid[i] : 0;
    *pend = way >= 0 ? need & c->spend[i] : 0;
    *miss = need & ~*hit & ~*pend;
}

/* Why a sectored access would fail now (-1: it would not), in l1d_load_sectors's order. */
static int sectored_fail(const l1d *c, int set, int way, size_t i, uint32_t need, int slots)
{
    uint32_t hit, pend, miss;
    split_sectors(c, i, way, need, &hit, &pend, &miss);
    int nm = (int)wt_popcount_small(miss);
    /* rd_miss_base's miss_queue_full(1) comes before the MSHRs, for a merge as for a miss */
    if (c->cfg.miss_spare && (pend | miss) && slots < (nm > 1 ? nm : 1) + c->cfg.miss_spare)
        return L1F_SEND;
    for (uint32_t q = pend; q; q &= q - 1) {
        int m = c->smshr[i * (size_t)c->nsec + (size_t)__builtin_ctz(q)];
        if (c->mshr[m].nwaiters >= c->cfg.mshr_merge) return L1F_MERGE;
    }
    if (!nm) return -1;
    if (c->mshr_in_use + nm > c->cfg.mshrs) return L1F_MSHR;
    if (slots < nm) return L1F_SEND;
    if (way < 0 && c->nreserved[set] == c->cfg.ways) return L1F_RESERVED;
    return -1;
}

int l1d_load_sectors_needs_fill(const l1d *c, uint64_t line_addr, uint32_t sectors, int send_slots)
{
    int set = set_index(c, line_addr), way = lookup_sectored(c, set, line_addr);
    size_t i = (size_t)set * (size_t)c->cfg.ways + (size_t)(way < 0 ? 0 : way);
    int why = sectored_fail(c, set, way, i, sectors, send_slots);
    return why == L1F_MERGE || why == L1F_MSHR || why == L1F_RESERVED;
}

l1_outcome l1d_load_sectors(l1d *c, const l1_request *r, uint32_t sectors, uint32_t waiter,
                            int send_slots, l1_sectors *sec, int *owner_warp, int *evicted_warp,
                            uint64_t *evicted_line)
{
    int set = set_index(c, r->line_addr);
    size_t base = (size_t)set * (size_t)c->cfg.ways;
    *evicted_warp = -1;
    int way = lookup_sectored(c, set, r->line_addr);
    size_t i = base + (size_t)(way < 0 ? 0 : way);
    int why = sectored_fail(c, set, way, i, sectors, send_slots);
    if (why >= 0) return fail(c, (l1_fail)why);
    split_sectors(c, i, way, sectors, &sec->hit, &sec->merged, &sec->miss);
    sec->line_miss = way < 0;
    l1_set_view v = set_view(c, set);
    if (way < 0) {
        way = pick_victim(c, set, r, &v);
        if (way == L1_BYPASS) return L1_BYPASSED;
        if (way == L1_STALL) return fail(c, L1F_STALL);
        i = base + (size_t)way;
        if (c->valid[i]) {
            *evicted_warp = c->owner[i];
            *evicted_line = c->tags[i];
            if (c->ops->on_evict) c->ops->on_evict(c->policy, &v, way);
            c->nused[set]--; /* free until reserved below (the victim is never reserved) */
            map_remove(c, c->tags[i]);
        }
        c->valid[i] = 0;
        c->svalid[i] = 0;
        c->tags[i] = r->line_addr;
        c->fp[(size_t)set * (size_t)c->fp_stride + (size_t)way] = fingerprint(r->line_addr);
        c->owner[i] = (int16_t)r->warp_slot;
    } else {
        *owner_warp = c->owner[i];
    }
    for (uint32_t q = sec->merged; q; q &= q - 1) {
        int s = __builtin_ctz(q), m = c->smshr[i * (size_t)c->nsec + (size_t)s];
        mshr_add_waiter(c, m, waiter);
        sec->mshr[s] = m;
    }
    if (sec->miss && !c->spend[i]) {
        if (!c->valid[i] && !c->reserved[i]) { /* the victim */
            c->nused[set]++;
            map_add(c, c->tags[i], i);
        }
        c->reserved[i] = 1;
        c->nreserved[set]++;
    }
    for (uint32_t q = sec->miss; q; q &= q - 1) {
        int s = __builtin_ctz(q), m = mshr_alloc(c);
        mshr_set(c, m, r, way, set, s, waiter);
        c->smshr[i * (size_t)c->nsec + (size_t)s] = (int16_t)m;
        c->spend[i] |= (uint16_t)(1u << s);
        sec->mshr[s] = m;
    }
    /* Replacement state. GPGPU-Sim (recency_miss): every access touches the line, a miss
     * allocating it (tag_array::access: allocate, set_last_access_time). Else: a use of valid
     * data promotes, the fill inserts. */
    if (sec->line_miss) {
        if (c->cfg.recency_miss && c->ops->on_fill) c->ops->on_fill(c->policy, r, &v, way);
    } else if ((c->cfg.recency_miss || sec->hit) && c->ops->on_hit) {
        c->ops->on_hit(c->policy, r, &v, way);
    }
    return sec->miss ? L1_MISS : sec->merged ? L1_MERGED : L1_HIT;
}

/* The fill of a sectored MSHR: its sector becomes valid. */
__attribute__((noinline)) static int fill_sector(l1d *c, int m, uint32_t *waiters,
                                                 uint64_t *line_addr)
{
    mshr_entry *e = &c->mshr[m];
    size_t i = (size_t)e->set * (size_t)c->cfg.ways + (size_t)e->way;
    int was_valid = c->valid[i];
    c->spend[i] &= (uint16_t) ~(1u << e->sector);
    c->svalid[i] |= (uint16_t)(1u << e->sector);
    c->valid[i] = 1;
    if (!c->spend[i]) {
        c->reserved[i] = 0;
        c->nreserved[e->set]--;
    }
    if (!c->cfg.recency_miss) {
        l1_set_view v = set_view(c, e->set);
        if (!was_valid && c->ops->on_fill)
            c->ops->on_fill(c->policy, &c->mshr_req[m], &v, e->way);
        else if (was_valid && c->ops->on_hit)
            c->ops->on_hit(c->policy, &c->mshr_req[m], &v, e->way);
    }
    int n = copy_waiters(c, m, waiters);
    *line_addr = e->line + (uint64_t)e->sector * L1D_SECTOR;
    c->mshr_free[m >> 6] |= 1ull << (m & 63);
    c->mshr_in_use--;
    return n;
}
