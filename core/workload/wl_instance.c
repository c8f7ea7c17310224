/* Workload language: instances (one per simulation), the host sequence, warp and CTA
 * start-up, and the inspection helpers of core/workload/wl_inspect.h. */
#include "core/workload/wl_exec.h"
#include "core/workload/wl_inspect.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int next_kernel(void *self, kernel_launch *kl, char *err, size_t errlen)
{
    wl_instance *I = self;
    const workload *w = I->w;
    (void)err;
    (void)errlen;
    while (I->host_pc < w->nhost) {
        const wl_hostop *h = &w->host[I->host_pc];
        switch (h->kind) {
        case HOST_LAUNCH: {
            const wl_kernel *k = &w->kernels[h->kernel];
            I->k = k;
            I->grid = h->grid;
            I->block = h->block;
            kl->name = k->name;
            kl->grid = h->grid;
            kl->block = h->block;
            kl->regs_per_thread = k->regs;
            kl->shared_bytes = k->shared;
            kl->num_insts = k->ninsts;
            kl->file = w->file;
            kl->line = k->line;
            I->launches++;
            I->host_pc++;
            return 1;
        }
        case HOST_SET:
            I->mem[h->word] = h->value;
            I->host_pc++;
            break;
        case HOST_DO:
            I->iters[I->host_pc] = 0;
            I->iter_launches[I->host_pc] = I->launches;
            I->host_pc++;
            break;
        case HOST_WHILE: {
            uint32_t d = h->match;
            I->iters[d]++;
            int cond = (I->mem[h->word] != h->value) == (h->ne != 0);
            /* An iteration that launched nothing only repeated its `set`s: every later one
             * would leave memory, and so the condition, exactly as they are, so the loop ends
             * as running out its max would (without spinning through up to 2^31 of them). */
            int changed = I->launches != I->iter_launches[d];
            if (cond && changed && I->iters[d] < w->host[d].max) {
                I->host_pc = d + 1;
                I->iter_launches[d] = I->launches;
            } else {
                I->host_pc++;
            }
            break;
        }
        }
    }
    I->k = NULL;
    return 0;
}

static void cta_start(void *self, int sm, int cta_slot, uint32_t cta_id)
{
    wl_instance *I = self;
    (void)cta_id;
    if (!I->shared_words) return;
    uint32_t *s =
        I->shared + ((size_t)sm * (size_t)I->max_ctas + (size_t)cta_slot) * I->shared_words;
    memset(s, 0, (size_t)I->shared_words * 4);
}

static void warp_start(void *self, int sm, int warp_slot, int cta_slot, uint32_t cta_id,
                       int warp_in_cta)
{
    wl_instance *I = self;
    wl_warp *W = &I->warps[(size_t)sm * (size_t)I->max_warps + (size_t)warp_slot];
    const wl_kernel *k = I->k;
    W->cta_slot = cta_slot;
    W->cta_id = cta_id;
    W->warp_in_cta = (uint32_t)warp_in_cta;
    W->sp = 0;
    if (!k) return;
    memset(W->regs, 0, (size_t)k->regs * WT_WARP_SIZE * 4);
    memset(W->pred, 0, sizeof W->pred);
    uint64_t first = (uint64_t)warp_in_cta * WT_WARP_SIZE;
    uint32_t mask = 0;
    if (first < I->block) {
        uint64_t n = I->block - first;
        mask = n >= 32 ? 0xFFFFFFFFu : (1u << n) - 1;
    }
    if (mask) {
        W->stack[0].pc = 0;
        W->stack[0].rpc = k->ninsts;
        W->stack[0].mask = mask;
        W->sp = 1;
    }
}

static const inst_info *peek(void *self, int sm, int warp_slot)
{
    wl_instance *I = self;
    const wl_warp *W = &I->warps[(size_t)sm * (size_t)I->max_warps + (size_t)warp_slot];
    if (W->sp == 0 || !I->k) return NULL;
    return &I->k->info[W->stack[W->sp - 1].pc];
}

static void destroy(void *self)
{
    wl_instance *I = self;
    if (!I) return;
    free(I->mem);
    free(I->warps);
    free(I->regfile);
    free(I->stacks);
    free(I->shared);
    free(I->iters);
    free(I->iter_launches);
    if (I->pending)
        for (int i = 0; i < I->nsm; i++)
            free(I->pending[i].e);
    free(I->pending);
    free(I);
}

static int defer(void *self, int on)
{
    wl_instance *I = self;
    if (on && !I->pending && !(I->pending = calloc((size_t)I->nsm, sizeof *I->pending))) return -1;
    I->deferred = on != 0;
    return 0;
}

const isource_ops wl_isource_ops = {next_kernel, cta_start, warp_start, peek,
                                    wl_issue,    destroy,   defer,      wl_commit};

int workload_instance(const workload *w, int num_sms, int max_warps, int max_ctas, isource *out,
                      char *err, size_t errlen)
{
    out->ops = NULL;
    out->self = NULL;
    if (num_sms <= 0 || max_warps <= 0 || max_ctas <= 0 || num_sms > 4096 || max_warps > 4096 ||
        max_ctas > 4096) {
        if (err && errlen)
            snprintf(err, errlen, "%s: bad GPU shape for an instance (%d SMs, %d warps, %d CTAs)",
                     w->name, num_sms, max_warps, max_ctas);
        return -1;
    }
    wl_instance *I = calloc(1, sizeof *I);
    if (!I) goto oom;
    I->w = w;
    I->nsm = num_sms;
    I->max_warps = max_warps;
    I->max_ctas = max_ctas;
    size_t nwarps = (size_t)num_sms * (size_t)max_warps;
    size_t regs = w->max_regs ? w->max_regs : 1;
    I->stack_cap = 2 * (int)w->max_insts + 8;
    I->shared_words = w->max_shared / 4;
    I->mem = malloc((w->image_words ? w->image_words : 1) * 4);
    I->warps = calloc(nwarps, sizeof *I->warps);
    I->regfile = calloc(nwarps * regs * WT_WARP_SIZE, 4);
    I->stacks = calloc(nwarps * (size_t)I->stack_cap, sizeof *I->stacks);
    I->shared = calloc((size_t)num_sms * (size_t)max_ctas * I->shared_words + 1, 4);
    I->iters = calloc(w->nhost + 1, sizeof *I->iters);
    I->iter_launches = calloc(w->nhost + 1, sizeof *I->iter_launches);
    if (!I->mem || !I->warps || !I->regfile || !I->stacks || !I->shared || !I->iters ||
        !I->iter_launches)
        goto oom;
    if (w->image_words) memcpy(I->mem, w->image, w->image_words * 4);
    for (size_t i = 0; i < nwarps; i++) {
        I->warps[i].regs = I->regfile + i * regs * WT_WARP_SIZE;
        I->warps[i].stack = I->stacks + i * (size_t)I->stack_cap;
    }
    out->ops = &wl_isource_ops;
    out->self = I;
    return 0;
oom:
    destroy(I);
    if (err && errlen) snprintf(err, errlen, "%s: out of memory for an instance", w->name);
    return -1;
}

/* ---- inspection ---- */

const uint32_t *wl_workload_array(const workload *w, const char *name, uint32_t *count)
{
    const wl_array *a = wl_array_by_name(w, name);
    if (!a) return NULL;
    if (count) *count = a->count;
    return w->image + (a->base - WL_MEM_BASE) / 4;
}

uint32_t *wl_instance_array(const isource *src, const char *name, uint32_t *count)
{
    if (!src || src->ops != &wl_isource_ops) return NULL;
    wl_instance *I = src->self;
    const wl_array *a = wl_array_by_name(I->w, name);
    if (!a) return NULL;
    if (count) *count = a->count;
    return I->mem + (a->base - WL_MEM_BASE) / 4;
}

uint32_t wl_array_base(const workload *w, const char *name)
{
    const wl_array *a = wl_array_by_name(w, name);
    return a ? a->base : 0;
}

int wl_workload_kernel_count(const workload *w)
{
    return (int)w->nkernels;
}

long wl_kernel_reconv(const workload *w, const char *kernel, uint32_t pc)
{
    for (size_t i = 0; i < w->nkernels; i++) {
        const wl_kernel *k = &w->kernels[i];
        if (strcmp(k->name, kernel)) continue;
        return pc < k->ninsts ? (long)k->insts[pc].reconv : -1;
    }
    return -1;
}

uint64_t workload_data_hash(const workload *w)
{
    return w->data_hash;
}
