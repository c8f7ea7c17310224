/* Every statistic a simulation exports: one list, so names, docs, the struct, the table
 * printer, JSON and CSV columns never disagree. Definitions and sources: docs/metrics.md.
 *
 * The list holds the core's metrics and marks where the metrics the policies declare
 * (metric_def in their ops, core/policy.h) go: the L1D policies' after the L1D's load
 * statistics, the warp schedulers' after the scheduling ones, the CTA schedulers' after the
 * CTA limit. The full order, in every output, is the catalogue's (explorer/catalog.h). */
#ifndef WT_METRICS_H
#define WT_METRICS_H

#include <stddef.h>

/* X(name, doc): a metric of the core; P(kind): the metrics of the policies of kind l1, sched
 * or cta, in registry order. */
#define WT_METRICS(X, P)                                                                           \
    X(cycles, "core cycles from the first launch to the end of the last kernel")                   \
    X(kernels, "kernel launches run")                                                              \
    X(ctas, "CTAs run")                                                                            \
    X(warp_insts, "warp instructions issued")                                                      \
    X(thread_insts, "thread instructions executed (active lanes of issued instructions)")          \
    X(ipc, "thread instructions per cycle, the whole GPU (GPGPU-Sim's convention)")                \
    X(warp_ipc, "warp instructions per cycle, the whole GPU")                                      \
    X(l1d_accesses, "L1D accesses by global loads (one per line a load touches)")                  \
    X(l1d_hits, "L1D hits")                                                                        \
    X(l1d_misses, "L1D misses that allocated or bypassed (merged ones excluded)")                  \
    X(l1d_merged, "L1D misses merged into an outstanding MSHR")                                    \
    X(l1d_reservation_fails, "L1D accesses replayed: no MSHR, merge slot, way or queue")           \
    X(l1d_bypasses, "L1D misses sent around the cache (policy decision or l1d disabled)")          \
    X(l1d_miss_rate, "(misses + merged) / accesses")                                               \
    X(mpki, "L1D misses per 1000 warp instructions")                                               \
    X(belady_misses, "L1D misses of Belady-optimal replacement on the same stream (--belady)")     \
    X(belady_bypass_misses, "the same, optimal replacement that may also bypass (--belady)")       \
    X(belady_mpki, "belady_misses per 1000 warp instructions (--belady)")                          \
    X(l1d_intra_warp_hits, "L1D hits on lines brought in by the same warp (CCWS Fig. 1)")          \
    X(l1d_inter_warp_hits, "L1D hits on lines brought in by another warp")                         \
    X(global_loads, "global load warp instructions")                                               \
    X(coherent_loads, "global loads touching one line")                                            \
    X(divergent_loads, "global loads touching more than one line")                                 \
    X(fully_cached_loads, "global loads all of whose accesses hit (DaCache 3.1)")                  \
    X(fully_cached_divergent_loads, "divergent loads all of whose accesses hit")                   \
    X(mpli, "L1D misses per global load instruction (DaCache's MPLI, mean)")                       \
    X(mpli_1_loads, "global loads with exactly 1 L1D miss (DaCache Fig. 2 groups)")                \
    X(mpli_2_loads, "global loads with exactly 2 L1D misses")                                      \
    X(mpli_3_31_loads, "global loads with 3 to 31 L1D misses")                                     \
    X(mpli_32_loads, "global loads with 32 L1D misses (every lane its own line)")                  \
    P(l1)                                                                                          \
    X(global_stores, "global store warp instructions")                                             \
    X(shared_accesses, "shared-memory load and store warp instructions")                           \
    X(atomics, "atomic warp instructions")                                                         \
    X(l2_accesses, "L2 accesses (per 32-byte sector on a sectored L2)")                            \
    X(l2_hits, "L2 hits: the data present (GPGPU-Sim HIT)")                                        \
    X(l2_misses, "L2 misses: the data neither present nor on its way (GPGPU-Sim MISS + "           \
                 "SECTOR_MISS)")                                                                   \
    X(l2_hit_reserved, "L2 accesses that found their data on its way and joined its fill "         \
                       "(GPGPU-Sim HIT_RESERVED)")                                                 \
    X(l2_load_accesses, "L2 accesses of global loads (GPGPU-Sim's GLOBAL_ACC_R)")                  \
    X(l2_load_misses, "L2 misses of global loads")                                                 \
    X(l2_load_miss_rate, "l2_load_misses / l2_load_accesses (GPGPU-Sim's L2 miss rate of "         \
                         "GLOBAL_ACC_R: (MISS + SECTOR_MISS) / (HIT + HIT_RESERVED + MISS + "      \
                         "SECTOR_MISS))")                                                          \
    X(dram_reads, "DRAM line reads")                                                               \
    X(dram_writes, "DRAM line writes")                                                             \
    X(dram_row_hits, "DRAM accesses that hit an open row")                                         \
    X(dram_activations, "DRAM row activations")                                                    \
    X(dram_queue_delay, "mean cycles a DRAM request waited in its channel queue")                  \
    X(dram_bandwidth_util, "DRAM bytes moved per cycle over the peak, whole run")                  \
    X(lat_rt, "mean round-trip fetch latency: cycles from a request leaving the SM to its "        \
              "reply (DYNCTA)")                                                                    \
    X(c_idle, "mean per SM of cycles with nothing to issue: no unfinished, unpaused warp "         \
              "(DYNCTA C_idle)")                                                                   \
    X(c_mem, "mean per SM of cycles in which every live warp waited for memory (DYNCTA "           \
             "C_mem)")                                                                             \
    X(ract, "mean over SMs of active cycles (an instruction issued) over all cycles "              \
            "(DYNCTA RACT)")                                                                       \
    X(util, "mean over SMs of cycles holding at least one CTA over all cycles (DYNCTA util)")      \
    X(cta_n_avg, "time-average over SMs of the CTA limit n in force, 1..N (DYNCTA's n)")           \
    P(cta)                                                                                         \
    X(warp_disparity_max, "largest per-CTA (slowest - fastest) / slowest warp execution "          \
                          "time (CAWA Fig. 1)")                                                    \
    X(warp_disparity_mean, "mean over CTAs of the same disparity")                                 \
    X(cpl_samples, "CTA-samples of CPL's slow-warp prediction over finished CTAs (CAWA 5.2)")      \
    X(cpl_accuracy, "share of those samples that predicted the CTA's critical warp slow (CAWA "    \
                    "5.2)")                                                                        \
    X(criticality_inversions, "share of CTAs whose last warp to finish is one the oracle profile " \
                              "calls fast (CAWS slides; runs with a profile)")                     \
    P(sched)                                                                                       \
    X(stall_exec, "share of live warp-cycles spent issuing (CAWS probe: Exec)")                    \
    X(stall_sched, "share of live warp-cycles ready but not picked (CAWS: Scheduling)")            \
    X(stall_sync, "share waiting at a barrier (CAWS: Sync)")                                       \
    X(stall_ctrl, "share waiting after a branch (CAWS: CtrlHazard)")                               \
    X(stall_mem, "share waiting on a load that missed L1D (CAWS: DataCacheMiss)")                  \
    X(stall_data, "share waiting on another register dependence (CAWS: DataHazard)")               \
    X(stall_struct, "share waiting for a busy unit (CAWS: StructuralHazard)")                      \
    X(energy_j, "total energy, joules")                                                            \
    X(energy_alu_j, "INT, FP and SFU operations")                                                  \
    X(energy_regfile_j, "register file reads and writes")                                          \
    X(energy_l1d_j, "L1D data moved")                                                              \
    X(energy_shared_j, "shared memory data moved")                                                 \
    X(energy_icnt_j, "interconnect bytes")                                                         \
    X(energy_l2_j, "L2 data moved")                                                                \
    X(energy_dram_j, "DRAM transfers and row activations")                                         \
    X(energy_static_j, "static power times run time")                                              \
    X(energy_sm_j, "per-SM power while active (holding a CTA) and idle, times their cycles")       \
    X(energy_inst_j, "front end per warp instruction: fetch, decode, scheduling, pipeline")        \
    X(power_w, "average power: energy over run time, watts")

/* Room for the policies' metrics in sim_metrics (a test checks that they fit). */
#define WT_POLICY_METRICS_MAX 32

typedef struct sim_metrics {
#define WT_METRIC_FIELD(name, doc) double name;
#define WT_METRIC_NONE(kind)
    WT_METRICS(WT_METRIC_FIELD, WT_METRIC_NONE)
#undef WT_METRIC_FIELD
#undef WT_METRIC_NONE
    /* the policies' metrics, in catalogue order (read them by name: metric_get) */
    double policy[WT_POLICY_METRICS_MAX];
    /* Sampled simulation (docs/sampling.md): the warp instructions simulated in detail and those
     * run functionally, whose statistics were projected. Both 0 when nothing was projected (the
     * run is all detail). Not metrics: a result that projects says so beside its metrics. */
    double detailed_warp_insts, projected_warp_insts;
} sim_metrics;

/* A metric a policy declares. */
typedef struct metric_def {
    const char *name;
    const char *doc;
} metric_def;

/* A metric of the catalogue (explorer/catalog.h). */
typedef struct metric_info {
    const char *name;
    const char *doc;
    size_t offset; /* of the double in sim_metrics */
} metric_info;

#endif
