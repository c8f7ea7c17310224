/* The SM's L1D: made with its policy at the SM's creation, and remade at a kernel's start when
 * Volta's adaptive carveout (l1d.unified_kb) changes its geometry. */
#include <stdlib.h>
#include <string.h>

#include "core/sim/sm_internal.h"

/* --------------------------------------------------------------------- L1D ---- */

/* Makes the SM's L1D, of sets x ways, with its policy (sm_create, and a kernel's start when
 * the carveout changes the geometry: the old cache's policy statistics are kept). */
int sm_l1d_make(sm *s, int sets, int ways, char *err, size_t errlen)
{
    const gpu_config *c = s->cfg;
    const l1_policy_ops *lp = s->l1_ops;
    l1d_config lc = {sets,
                     ways,
                     c->l1d_line,
                     c->l1d_hash,
                     c->l1d_mshrs,
                     c->l1d_mshr_merge,
                     c->l1d_sectored,
                     c->l1d_recency_miss};
    l1_env le = {{sets, ways, c->l1d_line}, s->id, c->max_warps, s->rng, c->l1d_recency_miss};
    l1d *n = NULL;
    if (l1d_create(&n, &lc, lp, &le, s->params, err, errlen) != 0) return -1;
    if (s->l1) {
        if (lp->nmetrics && !s->l1_saved && !(s->l1_saved = calloc(lp->nmetrics, sizeof(double)))) {
            l1d_destroy(n);
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        if (s->l1_saved) l1d_collect(s->l1, s->l1_saved);
        l1d_destroy(s->l1);
    }
    if (c->l1d_tag_pipeline && !s->stage.q) {
        mem_stage *st = &s->stage;
        int banks = c->l1d_banks, depth = c->l1d_hit_latency;
        st->q = calloc((size_t)banks, sizeof *st->q);
        for (int b = 0; st->q && b < banks; b++)
            if (!(st->q[b].e = calloc((size_t)depth, sizeof *st->q[b].e))) {
                st->q_banks = b;
                sm_l1q_free(s);
            }
        if (!st->q) {
            l1d_destroy(n);
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        st->q_banks = banks;
        st->q_depth = depth;
    }
    s->l1 = n;
    s->l1_sets = sets;
    s->l1_ways = ways;
    s->l1_crit = lp->uses_criticality;
    s->l1_prio = lp->uses_warp_prio;
    return 0;
}

void sm_l1q_free(sm *s)
{
    mem_stage *st = &s->stage;
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

int sm_l1d_kernel_start(sm *s, const kernel_launch *k, int ctas, char *err, size_t errlen)
{
    const gpu_config *c = s->cfg;
    if (c->l1d_unified_kb) {
        int sets, ways;
        carveout(c, (long)k->shared_bytes, ctas, &sets, &ways);
        if (sets != s->l1_sets || ways != s->l1_ways)
            return sm_l1d_make(s, sets, ways, err, errlen);
    }
    if (c->l1d_kernel_flush && l1d_invalidate(s->l1) != 0) {
        snprintf(err, errlen, "L1D fills outstanding at a kernel's start");
        return -1;
    }
    return 0;
}
