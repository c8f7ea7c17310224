/* The instruction-source seam: where an SM gets each warp's next instruction.
 *
 * The timing model never knows who feeds it. The workload interpreter (core/wl_*.c) is one
 * source; a trace reader can be another. A source owns the functional state of every warp
 * (registers, reconvergence stack, memory image); the timing model owns time (scoreboard,
 * pipelines, caches). An instruction executes functionally when the SM issues it. */
#ifndef WT_ISOURCE_H
#define WT_ISOURCE_H

#include <stddef.h>
#include <stdint.h>

#define WT_WARP_SIZE 32

/* Functional-unit classes: what the timing model schedules on. */
typedef enum inst_class {
    IC_INT,       /* integer ALU, compare, select, moves */
    IC_FP,        /* single-precision add/mul/fma */
    IC_SFU,       /* special functions: sqrt, rsqrt, exp, log, sin, cos, rcp, div */
    IC_LD_GLOBAL, /* global load: through the coalescer and L1D */
    IC_ST_GLOBAL, /* global store: write-evict L1D, write-through to L2 */
    IC_LD_SHARED, /* shared-memory load: fixed latency */
    IC_ST_SHARED, /* shared-memory store */
    IC_ATOMIC,    /* global atomic: performed at L2 */
    IC_BRANCH,    /* (predicated) branch */
    IC_BARRIER,   /* CTA-wide barrier */
    IC_EXIT,      /* thread exit */
    IC_COUNT
} inst_class;

/* Scoreboard slots: general registers 0..63, predicates 64..71. */
#define WT_MAX_REGS   64
#define WT_MAX_PREDS  8
#define WT_SB_PRED(p) (WT_MAX_REGS + (p))

/* What the scheduler needs to know before issue. */
typedef struct inst_info {
    uint32_t pc;  /* instruction index within its kernel */
    uint8_t cls;  /* inst_class */
    uint8_t ndst; /* scoreboard slots written */
    uint8_t nsrc; /* scoreboard slots read */
    uint8_t dst[2];
    uint8_t src[4];
} inst_info;

/* What issuing an instruction did. */
typedef struct inst_exec {
    uint32_t active_mask;        /* lanes that executed (after the guard predicate) */
    uint8_t access_size;         /* bytes per lane for memory classes */
    uint32_t addr[WT_WARP_SIZE]; /* per-lane byte address, valid on active lanes */
    /* control flow, for branches */
    uint8_t diverged;     /* the branch split the warp's active lanes */
    uint32_t taken_mask;  /* lanes that took the branch */
    uint32_t target_pc;   /* branch target */
    uint32_t fallthru_pc; /* pc + 1 */
    uint32_t reconv_pc;   /* immediate post-dominator of the branch */
    uint32_t next_pc;     /* where the warp goes next */
    uint8_t warp_done;    /* every lane of the warp has exited */
} inst_exec;

/* The lanes counted as executing issued instruction x of class cls, as GPGPU-Sim counts thread
 * instructions (gpu_sim_insn: the active count of each completed instruction, whose mask in
 * trace mode leaves out a lane whose guard is false): a branch's lanes whose guard held, its
 * taken lanes (its active_mask holds every lane that reached it); any other class's active
 * lanes, already after its guard. */
static inline uint32_t inst_exec_counted(const inst_exec *x, int cls)
{
    return cls == IC_BRANCH ? x->taken_mask : x->active_mask;
}

typedef struct kernel_launch {
    const char *name;
    uint32_t grid;            /* CTAs in the grid */
    uint32_t block;           /* threads per CTA */
    uint32_t regs_per_thread; /* registers each thread holds */
    uint32_t shared_bytes;    /* shared memory per CTA */
    uint32_t num_insts;       /* static instructions in the kernel */
    const char *file;         /* where it is defined, for messages, or NULL */
    int line;                 /* its line in file, or 0 */
} kernel_launch;

typedef struct isource_ops {
    /* Runs the host program up to the next launch. Returns 1 with *k filled, 0 when the
     * program has finished, -1 with a message in err. */
    int (*next_kernel)(void *self, kernel_launch *k, char *err, size_t errlen);
    /* A CTA of the current kernel starts in CTA slot cta_slot of SM sm. */
    void (*cta_start)(void *self, int sm, int cta_slot, uint32_t cta_id);
    /* A warp starts in warp slot warp_slot of SM sm; warp_in_cta counts from 0. Lanes past the
     * block size are inactive from the start. */
    void (*warp_start)(void *self, int sm, int warp_slot, int cta_slot, uint32_t cta_id,
                       int warp_in_cta);
    /* The warp's next instruction, or NULL when the warp is done. The pointer stays valid
     * until the next issue of that warp. */
    const inst_info *(*peek)(void *self, int sm, int warp_slot);
    /* Executes the warp's next instruction. Returns 0, or -1 with a message in err (an
     * address outside the memory image, a division by zero trap, ...). */
    int (*issue)(void *self, int sm, int warp_slot, inst_exec *out, char *err, size_t errlen);
    void (*destroy)(void *self);
    /* Optional: for SMs that step on several threads within a cycle. defer(self, 1) makes issue
     * leave pending every effect on state that SMs share (a workload's global memory), per SM;
     * commit(self, sm) then performs SM sm's in issue order; defer(self, 0), with nothing
     * pending, goes back. Committing each SM that issued, in SM order, once it has (later SMs
     * may still be issuing) leaves the state as issuing one SM after another does: within a
     * cycle nothing reads a pending effect (a warp's destination is read by that warp only,
     * from its next issue on; memory only by global accesses, which are all pending). defer
     * returns 0, or -1 (the SMs then step one after another). A source without defer steps on
     * one thread; one without commit has nothing to defer (a trace). */
    int (*defer)(void *self, int on);
    void (*commit)(void *self, int sm);
} isource_ops;

typedef struct isource {
    const isource_ops *ops;
    void *self;
} isource;

#endif
