/* Functional execution: a kernel's CTAs run through the instruction source with no timing
 * model, so that their effects on memory are there for the launches after them. What sampled
 * simulation (core/sim/sample.h) runs in place of the work it projects, and what measures a
 * launch's features before any of it is simulated. */
#ifndef WT_FUNCTIONAL_H
#define WT_FUNCTIONAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/isource.h"
#include "core/mem/memsys.h"

/* What functional execution counts: the work, and the launch features kernel sampling groups
 * launches by (machine-independent: the same on every GPU configuration). */
typedef struct func_counts {
    uint64_t warp_insts, thread_insts, ctas;
    uint64_t cls[IC_COUNT]; /* warp instructions by inst_class */
    uint64_t lines;         /* 128-byte global lines touched, counted per instruction */
    double cta_insts_sq;    /* func_run: the sum over its CTAs of their warp instructions squared */
} func_counts;

/* *to += what */
void func_counts_add(func_counts *to, const func_counts *what);

/* The most warp instructions one CTA may issue functionally: more is taken for a CTA waiting on
 * another (which functional execution, one CTA at a time, cannot give it). */
#define FUNC_CTA_CAP ((uint64_t)1 << 28)

/* Runs CTAs first..end-1 of the current kernel k one after another in SM 0's first CTA and warp
 * slots (which must be free), each CTA's warps in turn up to a barrier or their exit, and adds
 * what they did to *add. With `warm`, every global access warms that memory system's L2
 * (memsys_warm), one call per 32-byte sector an instruction touches. A CTA that issues more than
 * `cap` warp instructions is taken to wait for another CTA (which functional execution cannot give
 * it) and stops the run. Returns 0, or -1 with err (a workload runtime error, the cap). */
int func_run(const isource *src, const kernel_launch *k, uint32_t first, uint32_t end, uint64_t cap,
             memsys *warm, func_counts *add, char *err, size_t errlen);

/* The warps of one CTA, running in slots[0..n-1] of SM sm. */
typedef struct func_cta {
    const char *kernel; /* for messages */
    uint32_t id;
    int sm;
    const int *slots;
    int n;
} func_cta;

/* A warp's state in func_run_warps. */
enum { FUNC_RUNNING = 0, FUNC_AT_BARRIER = 1, FUNC_DONE = 2 };

/* Runs the CTA's warps (state[j] for slots[j]: running, waiting at the CTA's barrier, or done)
 * each in turn up to the barrier, which lets them go once every warp not done has reached it,
 * until each has exited or, with before_exit, stands at an exit instruction (which the timing
 * model then issues). Counts as func_run does, but not the CTA. Returns 0, or -1 with err. */
int func_run_warps(const isource *src, const func_cta *cta, unsigned char *state, bool before_exit,
                   uint64_t cap, memsys *warm, func_counts *add, char *err, size_t errlen);

#endif
