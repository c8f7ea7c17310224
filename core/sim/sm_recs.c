/* The load/store unit's load records (one per global load or atomic in flight, holding the
 * registers its accesses release when the last of them is back) and the memory system's replies
 * that complete them. */
#include <assert.h>
#include <stdlib.h>

#include "core/sim/sm_internal.h"

int sm_recs_init(sm *s, int n)
{
    s->recs = calloc((size_t)n, sizeof *s->recs);
    if (!s->recs) return -1;
    s->recs_cap = n;
    for (int i = 0; i < n; i++)
        s->recs[i].next_free = i + 1 < n ? i + 1 : -1;
    s->free_rec = 0;
    return 0;
}

int sm_rec_alloc(sm *s)
{
    if (s->free_rec < 0) {
        int old = s->recs_cap, cap = old * 2;
        load_rec *r = realloc(s->recs, (size_t)cap * sizeof *r);
        if (!r) abort(); /* bounded by warps x registers: failing means no memory at all */
        s->recs = r;
        for (int i = old; i < cap; i++)
            r[i].next_free = i + 1 < cap ? i + 1 : -1;
        s->free_rec = old;
        s->recs_cap = cap;
    }
    int id = s->free_rec;
    s->free_rec = s->recs[id].next_free;
    s->nrecs++;
    return id;
}

static void rec_free(sm *s, int id)
{
    s->recs[id].next_free = s->free_rec;
    s->free_rec = id;
    s->nrecs--;
}

/* One access of load record `id` is back. */
void sm_access_done(sm *s, int id, uint64_t now)
{
    (void)now;
    load_rec *r = &s->recs[id];
    if (--r->remaining > 0) return;
    warp *w = &s->warps[r->warp];
    if (!r->is_load && w->live && w->age == r->age) w->atomics--;
    sm_release(s, r->warp, r->dst);
    if (r->is_load) {
        s->st.load_misses += (uint64_t)r->misses;
        if (r->misses == 0) {
            s->st.fully_cached_loads++;
            if (r->accesses > 1) s->st.fully_cached_divergent_loads++;
        } else {
            s->st.mpli_hist[r->misses == 1 ? 0 : r->misses == 2 ? 1 : r->misses < 32 ? 2 : 3]++;
        }
        l1d_load_done(s->l1, r->warp, r->prio, r->accesses, r->misses);
    }
    rec_free(s, id);
}

/* ------------------------------------------------------------------- replies ---- */

void sm_deliver(sm *s, const mem_packet *p, uint64_t now)
{
    sm_account_to(s, now);
    sm_catch_up(s, now);
    uint32_t kind = p->token & TOK_KIND;
    if (kind != TOK_IFETCH && kind != TOK_STORE) { /* data round trips only */
        s->st.rt_latency_sum += now - p->sent_cycle;
        s->st.rt_count++;
    }
    uint32_t idx = p->token & TOK_INDEX;
    switch (kind) {
    case TOK_FILL: {
        uint32_t waiters[64];
        uint64_t line;
        s->fills++;
        int n = l1d_fill(s->l1, (int)idx, waiters, &line);
        s->st.l1d_bytes += (uint64_t)(s->cfg->l1d_sectored ? L1D_SECTOR : s->cfg->l1d_line);
        if (!s->cfg->l1d_fill_drain) {
            for (int i = 0; i < n; i++)
                sm_access_done(s, (int)waiters[i], now);
            break;
        }
        for (int i = 0; i < n; i++) { /* one a cycle, after those of earlier fills */
            uint64_t t = s->drain_last + 1 > now + 1 ? s->drain_last + 1 : now + 1;
            s->drain_last = t;
            sm_event e = {.cycle = t, .kind = EV_ACCESS, .a = (int)waiters[i]};
            sm_push_event(s, &e, EVQ_DRAIN);
        }
        break;
    }
    case TOK_IFETCH:
        sm_l1i_fill(s, (int)idx);
        break;
    case TOK_BYPASS:
    case TOK_ATOMIC:
        sm_access_done(s, (int)idx, now);
        break;
    case TOK_STORE:
        assert(s->warps[idx].stores > 0);
        s->warps[idx].stores--;
        sm_exit_if_done(s, (int)idx, now);
        break;
    default:
        break;
    }
    s->wake = now;
}
