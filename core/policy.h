/* The three plug-in interfaces: warp schedulers, L1D management policies, CTA schedulers.
 *
 * Each is a struct of function pointers with opaque state, picked by a categorical parameter
 * (sched.policy, l1d.policy, cta.policy) from the tables policies/registry.c builds from
 * policies/list.h. A policy sees the SM through narrow, read-only views, never the SM's
 * internals. Hooks left NULL are no-ops. Any randomness a policy needs comes from the wt_rng
 * its environment hands it. A policy brings its parameters (param_def) and its metrics
 * (metric_def) with it: its statistics are collected into one sum per metric it declares,
 * reported among the metrics where core/config/metrics.h places its kind's. */
#ifndef WT_POLICY_H
#define WT_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/config/metrics.h"
#include "core/config/params.h"
#include "core/util/rng.h"

/* ---------------------------------------------------------------- warp schedulers ---- */

/* One warp as a scheduler sees it. */
typedef struct warp_view {
    int slot;        /* warp slot in the SM */
    int cta_slot;    /* CTA slot in the SM */
    uint32_t cta_id; /* CTA id in the grid */
    int warp_in_cta; /* index of the warp within its CTA */
    uint64_t age;    /* assignment order on this SM: smaller is older (CCWS 5.1, GTO) */
    uint32_t pc;     /* next instruction */
    uint8_t cls;     /* its inst_class */
    bool paused;     /* its CTA is paused by the CTA scheduler: pick it only if nothing else */
    uint64_t oracle_cycles; /* its execution time in the oracle profile, 0 without one (CAWS;
                               sim_options.warp_profile, core/sim/warp_profile.h) */
} warp_view;

/* How critical a warp is now: the SM runs CAWA's predictor (CPL) beside every scheduler, and a
 * scheduler asks it through this, never through the predictor itself. */
typedef struct warp_criticality {
    const void *ctx;
    /* The warp's criticality at cycle now (CAWA eq. 1, larger is more critical). */
    int64_t (*at)(const void *ctx, int warp_slot, uint64_t now);
} warp_criticality;

/* Which warps are stalled in the two-level sense: waiting on a long-latency event (a global load
 * or atomic in flight, a barrier) or without a running warp in the slot. A warp that cannot
 * issue only for a moment (a busy unit or load/store unit, its own ALU result, a branch) is not
 * stalled. Asked by the scheduler of the warp during its pick. */
typedef struct warp_stalls {
    const void *ctx;
    bool (*stalled)(const void *ctx, int warp_slot);
    /* GPGPU-Sim's two-level demotion test (two_level_active_scheduler::order_warps): no warp
     * in the slot, a warp that issued its exit (waiting() is true once it is functional_done),
     * a barrier, or the next instruction, once in the warp's instruction buffer,
     * reads a register that a global load or atomic in flight will write (the scoreboard's
     * long operations, hit or miss). NULL: use stalled. */
    bool (*long_wait)(const void *ctx, int warp_slot);
    /* GPGPU-Sim's shd_warp_t::waiting(): no warp in the slot, a warp that issued its exit
     * (and waits for its queued accesses or store acknowledgements), at a barrier, or a global
     * atomic of the warp in flight (m_n_atomic). NULL: nothing is known to wait. */
    bool (*waiting)(const void *ctx, int warp_slot);
    /* long_wait with the scoreboard's long operations as GPGPU-Sim keeps them: a register a
     * global load or atomic writes is marked at its issue and unmarked only when an instruction
     * that writes it retires through the core's writeback (Scoreboard::releaseRegisters, which
     * the ALU, SFU and branch paths call); the load/store unit's writeback releases the
     * register but leaves the mark (releaseRegister), so the mark outlives the load, and the
     * warp slot keeps it into its next CTA. NULL: use long_wait. */
    bool (*long_marked)(const void *ctx, int warp_slot);
} warp_stalls;

typedef struct sched_env {
    int sm;        /* which SM this instance serves */
    int scheduler; /* which of the SM's warp schedulers */
    int max_warps; /* warp slots in the SM */
    int num_schedulers;
    wt_rng *rng;                  /* the SM's generator (sim.seed, a stream per SM) */
    const warp_criticality *crit; /* the SM's criticality predictor; NULL: none */
    void *shared; /* the state the SM's instances share (sched_ops.create_shared), or NULL */
    const warp_stalls *stalls; /* the SM's warps' long waits; NULL: none known */
} sched_env;

/* An L1D event a scheduler may learn from (CCWS's lost-locality detector). */
typedef enum l1_event_kind { L1E_HIT, L1E_MISS, L1E_EVICT } l1_event_kind;
typedef struct l1_event {
    uint8_t kind;
    int warp_slot; /* the warp that accessed (hit/miss) or that had reserved the line (evict) */
    uint64_t line_addr; /* line-aligned byte address */
    uint32_t pc;
    uint64_t now;
} l1_event;

/* A branch as it issued (CPL's instruction-count disparity, CAWA Alg. 2). */
typedef struct branch_event {
    int warp_slot;
    uint32_t pc, target_pc, fallthru_pc, reconv_pc;
    uint32_t active_mask, taken_mask;
    bool diverged;
    uint64_t now;
} branch_event;

typedef struct sched_ops {
    const char *name;
    const char *doc;
    const param_def *params; /* the policy's own parameters, registered with the registry */
    size_t nparams;
    /* The policy's own metrics, in the order they are reported. A name is the policy's alone,
     * or shared by policies of its kind that count the same thing (with the same doc). */
    const metric_def *metrics;
    size_t nmetrics;
    int (*create)(void **self, const sched_env *env, const param_set *p, char *err, size_t errlen);
    void (*destroy)(void *self);
    /* State shared by the instances of one SM, for policies the paper defines per SM rather
     * than per scheduler (CCWS's lost-locality scoring). NULL: none. Made once per SM before
     * its instances (env.scheduler is 0) and handed to each in sched_env.shared; freed by
     * destroy_shared after them. Returns 0 (*shared may be NULL: nothing to share under these
     * parameters), or -1 when out of memory. */
    int (*create_shared)(void **shared, const sched_env *env, const param_set *p);
    void (*destroy_shared)(void *shared);
    /* Picks the warp to issue among `ready` (n >= 1 warps, all able to issue now, in slot
     * order; the views are the SM's own, valid during the call). Returns an index into ready,
     * or -1 to issue nothing this cycle (SWL holds back the warps beyond its limit).
     * Required. */
    int (*pick)(void *self, const warp_view *const *ready, int n, uint64_t now);
    /* pick may decline ready warps for a reason that passes with cycles alone (two_level_active:
     * its pool changes every cycle): after a -1 the SM asks again the next cycle instead of
     * sleeping until an event. */
    bool retry_declined;
    /* May this warp issue a global load now? (CCWS's can-issue bits.) NULL: yes. */
    bool (*may_issue_load)(void *self, int warp_slot);
    /* Scheduling priority rank of a warp among the live warps (0 = highest), for cache
     * policies that gauge insertion by it (DaCache eq. 1). NULL: rank by age. */
    int (*priority)(void *self, int warp_slot);
    void (*on_issue)(void *self, const warp_view *w, uint64_t now);
    void (*on_l1_event)(void *self, const l1_event *e);
    void (*on_branch)(void *self, const branch_event *b);
    /* A warp of this scheduler waited `cycles` cycles for a reason other than issue
     * (CPL's nStall), reported when it issues again. */
    void (*on_stall)(void *self, int warp_slot, uint32_t cycles);
    void (*on_warp_start)(void *self, const warp_view *w, uint64_t now);
    void (*on_warp_exit)(void *self, int warp_slot, uint64_t now);
    /* Called once per simulated cycle span [from, to) with no issue in between when the
     * policy needs time to pass (CCWS's score decay). NULL if time does not matter. */
    void (*on_cycles)(void *self, uint64_t from, uint64_t to);
    /* At the end of a run: add this instance's statistics into sums[0..nmetrics), one per
     * declared metric (every instance of the policy adds into the same sums, zero at first). */
    void (*collect)(void *self, double *sums);
    /* Once after every instance collected: turn the sums into the reported values. */
    void (*finish)(double *values);
    /* The scheduler whose run gives this one its oracle profile (warp_view.oracle_cycles), or
     * NULL when it needs none: sim_run then runs a profiling pass first (CAWS). */
    const char *(*profile_policy)(const param_set *p);
} sched_ops;

/* ------------------------------------------------------------ L1D management ---- */

#define L1_BYPASS (-1) /* victim(): do not allocate, send the request around the L1D */
#define L1_STALL  (-2) /* victim(): do not allocate now, retry the access later */

typedef struct l1_geometry {
    int sets, ways, line_bytes;
} l1_geometry;

typedef struct l1_env {
    l1_geometry geom;
    int sm;
    int max_warps;
    wt_rng *rng; /* the SM's generator (sim.seed, a stream per SM) */
    /* l1d.recency=miss: on_fill comes when the way is reserved at the miss (GPGPU-Sim's
     * allocate-on-miss reading), so a reserved way holds its place in the recency order */
    bool insert_at_miss;
} l1_env;

/* What a policy knows of an access. */
typedef struct l1_request {
    uint64_t line_addr;
    uint32_t pc;
    int warp_slot;
    int warp_prio;   /* the warp's scheduling priority rank (0 = highest) */
    int criticality; /* the warp's criticality, when a predictor provides one; else 0 */
    bool critical;   /* the warp is predicted critical */
    int divergence;  /* line accesses the instruction generated (1 = coherent) */
    bool is_write;
    uint64_t now;
} l1_request;

/* One set as the policy sees it. `state` is the policy's own record of each way of the set:
 * an array of `ways` objects of its line type T (line_state_bytes = sizeof(T); zeroed at
 * start, aligned for any type), read as `T *lines = s->state;`. valid/reserved describe the
 * lines. */
typedef struct l1_set_view {
    int set;
    int ways;
    const uint8_t *valid;    /* ways entries: line holds data */
    const uint8_t *reserved; /* ways entries: line is waiting for its fill: not a victim */
    const uint64_t *tags;    /* ways entries: line address of each valid or reserved way */
    void *state;
    /* every way is valid or reserved, as the L1D counts them: a search for a free way can stop
     * before it starts (false: not known, search) */
    bool full;
} l1_set_view;

/* The first way that is neither valid nor reserved, or -1: most policies fill those first. */
static inline int l1_first_free_way(const l1_set_view *s)
{
    /* eight ways per word: the flags are 0 or 1, so a way is used when bit 0 of either is set;
     * the product gathers bit 0 of each byte into the top byte (byte i to bit i) */
    const uint64_t ones = 0x0101010101010101ull;
    if (s->full) return -1; /* a warm cache: no scan of its (up to 256) ways */
    int w = 0;
    for (; w + 8 <= s->ways; w += 8) {
        uint64_t v, r;
        memcpy(&v, s->valid + w, 8);
        memcpy(&r, s->reserved + w, 8);
        uint64_t free8 = ((((v | r) & ones) ^ ones) * 0x0102040810204080ull) >> 56;
        if (free8) return w + __builtin_ctzll(free8);
    }
    for (; w < s->ways; w++)
        if (!s->valid[w] && !s->reserved[w]) return w;
    return -1;
}

typedef struct l1_policy_ops {
    const char *name;
    const char *doc;
    const param_def *params;
    size_t nparams;
    const metric_def *metrics; /* as sched_ops.metrics */
    size_t nmetrics;
    size_t line_state_bytes; /* sizeof the policy's line type (l1_set_view.state), 0: none */
    bool uses_criticality;   /* fill l1_request.criticality/critical (costs a CPL query) */
    bool uses_warp_prio;     /* fill l1_request.warp_prio (costs a walk over the SM's warps) */
    int (*create)(void **self, const l1_env *env, const param_set *p, char *err, size_t errlen);
    void (*destroy)(void *self);
    /* Chooses the way to allocate for a miss: a way that is not reserved, or L1_BYPASS or
     * L1_STALL. Called only when the set has at least one unreserved way. Required. (Debug
     * builds check the answer.) */
    int (*victim)(void *self, const l1_request *r, const l1_set_view *s);
    /* Insertion: the reserved way now holds r's line. */
    void (*on_fill)(void *self, const l1_request *r, const l1_set_view *s, int way);
    /* Promotion: r hit in way. With l1d.recency=miss (insert_at_miss) a request that merges
     * into a line still waiting for its fill promotes it too: the way may be reserved. */
    void (*on_hit)(void *self, const l1_request *r, const l1_set_view *s, int way);
    /* The valid line in way is about to be replaced or invalidated. */
    void (*on_evict)(void *self, const l1_set_view *s, int way);
    /* A load instruction finished its last L1D access: `misses` of `accesses` missed
     * (DaCache's fully-cached-load tracking). */
    void (*on_load_done)(void *self, int warp_slot, int warp_prio, int accesses, int misses);
    void (*collect)(void *self, double *sums); /* as sched_ops.collect */
    void (*finish)(double *values);
} l1_policy_ops;

/* ----------------------------------------------------------------- CTA schedulers ---- */

typedef struct cta_env {
    int num_sms;
    wt_rng *rng;
} cta_env;

/* What an SM reports each sampling period (DYNCTA section IV). */
typedef struct cta_sample {
    uint32_t c_idle; /* cycles with no warp to issue while the pipeline was not stalled */
    uint32_t c_mem;  /* cycles in which every warp waited for memory */
    int active_ctas; /* CTAs resident (paused included) */
} cta_sample;

typedef struct cta_ops {
    const char *name;
    const char *doc;
    const param_def *params;
    size_t nparams;
    const metric_def *metrics; /* as sched_ops.metrics */
    size_t nmetrics;
    int (*create)(void **self, const cta_env *env, const param_set *p, char *err, size_t errlen);
    void (*destroy)(void *self);
    /* A kernel starts; n_max is the CTAs per SM its resources allow (N). */
    void (*on_kernel_start)(void *self, int n_max);
    /* How many CTAs SM sm may hold now (1..n_max). CTAs beyond it, newest first, are paused;
     * no new CTA is issued to an SM at or above it. Required. */
    int (*limit)(void *self, int sm);
    /* Sampling period in cycles, 0 if the policy never samples. */
    uint32_t (*period)(void *self);
    void (*on_sample)(void *self, int sm, const cta_sample *s, uint64_t now);
    void (*collect)(void *self, double *sums); /* as sched_ops.collect */
    void (*finish)(double *values);
} cta_ops;

#endif
