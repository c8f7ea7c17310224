/* The sectored L1D (l1d.sectored): loads by 32-byte sectors, one MSHR per missing sector, and
 * the sector fills. The rest of the cache is in l1d.c. */
#include "core/sim/l1d_internal.h"

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
    for (uint32_t q = pend; q; q &= q - 1) {
        int m = c->smshr[i * (size_t)c->nsec + (size_t)__builtin_ctz(q)];
        if (c->mshr[m].nwaiters >= c->cfg.mshr_merge) return L1F_MERGE;
    }
    int nm = (int)wt_popcount_small(miss);
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
        c->waiters[(size_t)m * (size_t)c->cfg.mshr_merge + (size_t)c->mshr[m].nwaiters++] = waiter;
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
        c->mshr[m] = (mshr_entry){r->line_addr, way, set, s, 1, *r};
        c->smshr[i * (size_t)c->nsec + (size_t)s] = (int16_t)m;
        c->waiters[(size_t)m * (size_t)c->cfg.mshr_merge] = waiter;
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
__attribute__((noinline)) int l1d_fill_sector(l1d *c, int m, uint32_t *waiters, uint64_t *line_addr)
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
            c->ops->on_fill(c->policy, &e->req, &v, e->way);
        else if (was_valid && c->ops->on_hit)
            c->ops->on_hit(c->policy, &e->req, &v, e->way);
    }
    int n = copy_waiters(c, m, waiters);
    *line_addr = e->line + (uint64_t)e->sector * L1D_SECTOR;
    c->mshr_free[m >> 6] |= 1ull << (m & 63);
    c->mshr_in_use--;
    return n;
}
