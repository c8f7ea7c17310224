#include "core/sim/stats.h"

#include <math.h>
#include <string.h>

static double ratio(double a, double b)
{
    return b > 0 ? a / b : 0.0;
}

/* Energy: event counts times per-event energies plus static power times run time. SM-cycles
 * with a CTA resident count as active (GPGPU-Sim's shader_core_ctx::isactive, which AccelWattch
 * counts per sample); the rest of the num_sms x cycles are idle. */
static void energy(const gpu_config *c, const sm_stats *t, const memsys_stats *ms, double seconds,
                   double cycles, sim_metrics *m)
{
    const energy_config *e = &c->energy;
    const double pj = 1e-12;
    m->energy_alu_j =
        pj * (e->int_op_pj * (double)t->lanes_int + e->fp_op_pj * (double)t->lanes_fp +
              e->sfu_op_pj * (double)t->lanes_sfu);
    m->energy_regfile_j = pj * e->regfile_pj * (double)t->reg_operands;
    m->energy_l1d_j = pj * e->l1d_pj_per_byte * (double)t->l1d_bytes;
    m->energy_shared_j = pj * e->shared_pj_per_byte * (double)t->shared_bytes;
    m->energy_icnt_j = pj * e->icnt_pj_per_byte * (double)ms->icnt_bytes;
    m->energy_l2_j = pj * e->l2_pj_per_byte * (double)ms->l2_accesses * (double)c->mem.l2_line;
    m->energy_dram_j = pj * (e->dram_pj_per_byte * (double)ms->dram_bytes +
                             e->dram_activate_pj * (double)ms->dram_activations);
    m->energy_static_j = e->static_watts * seconds;
    m->energy_j = m->energy_alu_j + m->energy_regfile_j + m->energy_l1d_j + m->energy_shared_j +
                  m->energy_icnt_j + m->energy_l2_j + m->energy_dram_j + m->energy_static_j;
    const double active = (double)t->resident_cycles;
    const double all = (double)c->num_sms * cycles;
    const double idle = all > active ? all - active : 0.0;
    const double per_cycle = ratio(seconds, cycles);
    m->energy_sm_j = per_cycle * (e->sm_active_watts * active + e->sm_idle_watts * idle);
    m->energy_inst_j = pj * e->inst_pj * (double)t->warp_insts;
    m->energy_j += m->energy_sm_j + m->energy_inst_j;
    m->power_w = ratio(m->energy_j, seconds);
}

/* The SMs' counters summed into t; *ract and *util get the sums over SMs of their active and
 * resident shares of `cycles`. */
static void sum_sms(const gpu_config *c, const sm *const *sms, uint64_t cycles, sm_stats *t,
                    double *ract, double *util)
{
    memset(t, 0, sizeof *t);
    *ract = *util = 0;
    for (int i = 0; i < c->num_sms; i++) {
        const sm_stats *s = sm_get_stats(sms[i]);
        const uint64_t *src = (const uint64_t *)s;
        uint64_t *dst = (uint64_t *)t;
        /* every counter up to the disparity fields is a uint64_t: sum them */
        for (size_t k = 0; k < STATS_SM_WORDS; k++)
            dst[k] += src[k];
        t->disparity_sum += s->disparity_sum;
        if (s->disparity_max > t->disparity_max) t->disparity_max = s->disparity_max;
        *ract += ratio((double)s->active_cycles, (double)cycles);
        *util += ratio((double)s->resident_cycles, (double)cycles);
    }
}

/* The metrics of summed counters t and ms over `cycles`; ract and util are the sums over SMs
 * of their shares. */
static void metrics_of(const gpu_config *c, const sm_stats *tp, const memsys_stats *msp,
                       const memsys *mem, uint64_t cycles, double ract, double util, int kernels,
                       sim_metrics *m)
{
    const sm_stats t = *tp;
    const memsys_stats ms = *msp;
    double n = c->num_sms;

    m->cycles = (double)cycles;
    m->kernels = kernels;
    m->ctas = (double)t.ctas_done;
    m->warp_insts = (double)t.warp_insts;
    m->thread_insts = (double)t.thread_insts;
    m->ipc = ratio(m->thread_insts, m->cycles);
    m->warp_ipc = ratio(m->warp_insts, m->cycles);
    m->l1d_accesses = (double)t.l1d_accesses;
    m->l1d_hits = (double)t.l1d_hits;
    m->l1d_misses = (double)t.l1d_misses;
    m->l1d_merged = (double)t.l1d_merged;
    m->l1d_reservation_fails = (double)t.l1d_resfails;
    m->l1d_bypasses = (double)t.l1d_bypasses;
    /* sectored: GPGPU-Sim's (MISS + SECTOR_MISS) / accesses, a merge (HIT_RESERVED) not a miss
     * (cache_stats::get_sub_stats) */
    m->l1d_miss_rate = c->l1d_sectored ? ratio(m->l1d_misses, m->l1d_accesses)
                                       : ratio(m->l1d_misses + m->l1d_merged, m->l1d_accesses);
    m->mpki = ratio(1000.0 * m->l1d_misses, m->warp_insts);
    m->l1d_intra_warp_hits = (double)t.l1d_intra_hits;
    m->l1d_inter_warp_hits = (double)t.l1d_inter_hits;
    m->global_loads = (double)t.global_loads;
    m->coherent_loads = (double)t.coherent_loads;
    m->divergent_loads = (double)t.divergent_loads;
    m->fully_cached_loads = (double)t.fully_cached_loads;
    m->fully_cached_divergent_loads = (double)t.fully_cached_divergent_loads;
    m->mpli = ratio((double)t.load_misses, m->global_loads);
    m->mpli_1_loads = (double)t.mpli_hist[0];
    m->mpli_2_loads = (double)t.mpli_hist[1];
    m->mpli_3_31_loads = (double)t.mpli_hist[2];
    m->mpli_32_loads = (double)t.mpli_hist[3];
    m->global_stores = (double)t.global_stores;
    m->shared_accesses = (double)t.shared_accesses;
    m->atomics = (double)t.atomics;
    m->l2_accesses = (double)ms.l2_accesses;
    m->l2_hits = (double)ms.l2_hits;
    m->l2_misses = (double)ms.l2_misses;
    m->l2_hit_reserved = (double)ms.l2_hit_reserved;
    m->l2_load_accesses = (double)ms.l2_load_accesses;
    m->l2_load_misses = (double)ms.l2_load_misses;
    m->l2_load_miss_rate = ratio(m->l2_load_misses, m->l2_load_accesses);
    m->dram_reads = (double)ms.dram_reads;
    m->dram_writes = (double)ms.dram_writes;
    m->dram_row_hits = (double)ms.dram_row_hits;
    m->dram_activations = (double)ms.dram_activations;
    m->dram_queue_delay =
        ratio((double)ms.dram_queue_cycles, (double)(ms.dram_reads + ms.dram_writes));
    m->dram_bandwidth_util =
        ratio((double)ms.dram_bytes, m->cycles * memsys_peak_dram_bandwidth(mem));
    m->lat_rt = ratio((double)t.rt_latency_sum, (double)t.rt_count);
    m->c_idle = (double)t.c_idle / n;
    m->c_mem = (double)t.c_mem / n;
    m->ract = ract / n;
    m->util = util / n;
    m->warp_disparity_max = t.disparity_max;
    m->warp_disparity_mean = ratio(t.disparity_sum, (double)t.ctas_done);
    double live = 0;
    for (int k = 0; k < ST_COUNT; k++)
        live += (double)t.stall[k];
    m->stall_exec = ratio((double)t.stall[ST_EXEC], live);
    m->stall_sched = ratio((double)t.stall[ST_SCHED], live);
    m->stall_sync = ratio((double)t.stall[ST_SYNC], live);
    m->stall_ctrl = ratio((double)t.stall[ST_CTRL], live);
    m->stall_mem = ratio((double)t.stall[ST_MEM], live);
    m->stall_data = ratio((double)t.stall[ST_DATA], live);
    m->stall_struct = ratio((double)t.stall[ST_STRUCT], live);
    energy(c, &t, &ms, m->cycles / (c->energy.clock_mhz * 1e6), m->cycles, m);
}

void stats_collect(const gpu_config *c, const sm *const *sms, const memsys *mem, uint64_t cycles,
                   int kernels, sim_metrics *m)
{
    sm_stats t;
    double ract, util;
    sum_sms(c, sms, cycles, &t, &ract, &util);
    memsys_stats ms;
    memsys_get_stats(mem, &ms);
    metrics_of(c, &t, &ms, mem, cycles, ract, util, kernels, m);
}

void stats_capture(const gpu_config *c, sm *const *sms, const memsys *mem, uint64_t cycles,
                   stats_counters *out, double *sm_insts)
{
    for (int i = 0; i < c->num_sms; i++) {
        sm_account(sms[i], cycles);
        if (sm_insts) sm_insts[i] = (double)sm_get_stats(sms[i])->warp_insts;
    }
    sm_stats t;
    double ract, util;
    sum_sms(c, (const sm *const *)sms, cycles, &t, &ract, &util);
    memsys_stats ms;
    memsys_get_stats(mem, &ms);
    out->v[STATS_CYCLES] = (double)cycles;
    const uint64_t *ts = (const uint64_t *)&t, *mw = (const uint64_t *)&ms;
    for (size_t k = 0; k < STATS_SM_WORDS; k++)
        out->v[1 + k] = (double)ts[k];
    for (size_t k = 0; k < STATS_MEM_WORDS; k++)
        out->v[1 + STATS_SM_WORDS + k] = (double)mw[k];
}

/* a projected counter, rounded to a count */
static uint64_t add_rounded(uint64_t measured, double extra)
{
    double x = (double)measured + extra;
    return x > 0 ? (uint64_t)llround(x) : 0;
}

void stats_collect_projected(const gpu_config *c, const sm *const *sms, const memsys *mem,
                             uint64_t cycles, const stats_counters *extra, int kernels,
                             sim_metrics *m)
{
    sm_stats t;
    double ract, util;
    sum_sms(c, sms, cycles, &t, &ract, &util);
    memsys_stats ms;
    memsys_get_stats(mem, &ms);
    uint64_t *ts = (uint64_t *)&t, *mw = (uint64_t *)&ms;
    for (size_t k = 0; k < STATS_SM_WORDS; k++)
        ts[k] = add_rounded(ts[k], extra->v[1 + k]);
    for (size_t k = 0; k < STATS_MEM_WORDS; k++)
        mw[k] = add_rounded(mw[k], extra->v[1 + STATS_SM_WORDS + k]);
    uint64_t all = add_rounded(cycles, extra->v[STATS_CYCLES]);
    /* the means over SMs from the sums: each SM's share of the projected stretches is not kept */
    ract = ratio((double)t.active_cycles, (double)all);
    util = ratio((double)t.resident_cycles, (double)all);
    metrics_of(c, &t, &ms, mem, all, ract, util, kernels, m);
}

void stats_write_per_sm(FILE *f, const gpu_config *c, const sm *const *sms, uint64_t cycles)
{
    fputs("sm,cycles,warp_insts,thread_insts,ipc,c_idle,c_mem,ract,util,lat_rt,l1d_accesses,"
          "l1d_misses,ctas\n",
          f);
    for (int i = 0; i < c->num_sms; i++) {
        const sm_stats *s = sm_get_stats(sms[i]);
        fprintf(f, "%d,%llu,%llu,%llu,%.17g,%llu,%llu,%.17g,%.17g,%.17g,%llu,%llu,%llu\n", i,
                (unsigned long long)cycles, (unsigned long long)s->warp_insts,
                (unsigned long long)s->thread_insts, ratio((double)s->thread_insts, (double)cycles),
                (unsigned long long)s->c_idle, (unsigned long long)s->c_mem,
                ratio((double)s->active_cycles, (double)cycles),
                ratio((double)s->resident_cycles, (double)cycles),
                ratio((double)s->rt_latency_sum, (double)s->rt_count),
                (unsigned long long)s->l1d_accesses, (unsigned long long)s->l1d_misses,
                (unsigned long long)s->ctas_done);
    }
}
