/* Functional execution of a kernel's CTAs (core/sim/functional.h). */
#include "core/sim/functional.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/util/bits.h"

void func_counts_add(func_counts *to, const func_counts *what)
{
    to->warp_insts += what->warp_insts;
    to->thread_insts += what->thread_insts;
    to->ctas += what->ctas;
    for (int c = 0; c < IC_COUNT; c++)
        to->cls[c] += what->cls[c];
    to->lines += what->lines;
    to->cta_insts_sq += what->cta_insts_sq;
}

/* The distinct (2^shift)-byte blocks the active lanes of a memory instruction address, in the
 * order of their lowest lane, into out (at most 32). Returns their number. */
static int blocks_of(const inst_exec *x, int shift, uint32_t *out)
{
    int n = 0;
    for (uint32_t m = x->active_mask; m; m &= m - 1) {
        uint32_t b = x->addr[__builtin_ctz(m)] >> shift;
        int j = 0;
        while (j < n && out[j] != b)
            j++;
        if (j == n) out[n++] = b;
    }
    return n;
}

/* Runs warp slot wi of SM sm until it has issued a barrier or exited, or, with before_exit,
 * until its next instruction is an exit. Returns 1 at a barrier, 0 when done, -1 with err, -2
 * when the budget ran out. */
static int run_warp(const isource *src, int sm, int wi, bool before_exit, memsys *warm,
                    func_counts *c, uint64_t *budget, char *err, size_t errlen)
{
    for (;;) {
        const inst_info *in = src->ops->peek(src->self, sm, wi);
        if (!in || (before_exit && in->cls == IC_EXIT)) return 0;
        uint8_t cls = in->cls;
        inst_exec x;
        if (src->ops->issue(src->self, sm, wi, &x, err, errlen) != 0) return -1;
        c->warp_insts++;
        c->thread_insts += wt_popcount32(inst_exec_counted(&x, cls));
        c->cls[cls]++;
        if (cls == IC_LD_GLOBAL || cls == IC_ST_GLOBAL || cls == IC_ATOMIC) {
            uint32_t b[WT_WARP_SIZE];
            c->lines += (uint64_t)blocks_of(&x, 7, b);                      /* 128-byte lines */
            for (int j = 0, n = warm ? blocks_of(&x, 5, b) : 0; j < n; j++) /* 32-byte sectors */
                memsys_warm(warm, (uint64_t)b[j] << 5, 32, cls != IC_LD_GLOBAL);
        }
        if (x.warp_done) return 0;
        if (cls == IC_BARRIER) return 1;
        if (--*budget == 0) return -2;
    }
}

int func_run_warps(const isource *src, const func_cta *cta, unsigned char *state, bool before_exit,
                   uint64_t cap, memsys *warm, func_counts *add, char *err, size_t errlen)
{
    uint64_t budget = cap;
    int live = 0;
    for (int j = 0; j < cta->n; j++)
        live += state[j] != FUNC_DONE;
    /* each warp up to the next barrier, in slot order; the barrier lets them all go once every
     * warp still running has reached it */
    while (live > 0) {
        for (int j = 0; j < cta->n; j++) {
            if (state[j] != FUNC_RUNNING) continue;
            int r =
                run_warp(src, cta->sm, cta->slots[j], before_exit, warm, add, &budget, err, errlen);
            if (r == -2) {
                snprintf(err, errlen,
                         "kernel %s: CTA %u issued %llu warp instructions without finishing in "
                         "functional execution (does it wait for another CTA?)",
                         cta->kernel, cta->id, (unsigned long long)cap);
                return -1;
            }
            if (r < 0) return -1;
            if (r == 0) {
                state[j] = FUNC_DONE;
                live--;
            } else {
                state[j] = FUNC_AT_BARRIER;
            }
        }
        for (int j = 0; j < cta->n; j++)
            if (state[j] == FUNC_AT_BARRIER) state[j] = FUNC_RUNNING;
    }
    return 0;
}

int func_run(const isource *src, const kernel_launch *k, uint32_t first, uint32_t end, uint64_t cap,
             memsys *warm, func_counts *add, char *err, size_t errlen)
{
    int warps = ((int)k->block + WT_WARP_SIZE - 1) / WT_WARP_SIZE;
    int *slots = calloc((size_t)warps, sizeof *slots);
    unsigned char *state = calloc((size_t)warps, 1);
    int rc = 0;
    if (!slots || !state) {
        snprintf(err, errlen, "out of memory");
        rc = -1;
    }
    for (uint32_t id = first; id < end && rc == 0; id++) {
        src->ops->cta_start(src->self, 0, 0, id);
        for (int w = 0; w < warps; w++) {
            src->ops->warp_start(src->self, 0, w, 0, id, w);
            slots[w] = w;
            state[w] = FUNC_RUNNING;
        }
        func_cta cta = {k->name, id, 0, slots, warps};
        uint64_t before = add->warp_insts;
        rc = func_run_warps(src, &cta, state, false, cap, warm, add, err, errlen);
        add->ctas++;
        double w = (double)(add->warp_insts - before);
        add->cta_insts_sq += w * w;
    }
    free(slots);
    free(state);
    return rc;
}
