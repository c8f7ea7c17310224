/* The trace reader as an instruction source: kernels in kernelslist order, a thread block read
 * from the kernel file when its CTA starts, each warp replaying its instruction lines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/trace/trace_internal.h"

typedef struct twarp {
    const ttb *tb;
    uint32_t first, count, pos;
    inst_info cur; /* the next line, unpacked for peek */
} twarp;

/* Unpacks the warp's next line into w->cur. */
static void load(twarp *w)
{
    if (w->pos >= w->count) return;
    const tinst *t = &w->tb->insts[w->first + w->pos];
    inst_info *in = &w->cur;
    in->pc = t->pc;
    in->cls = t->cls;
    in->ndst = t->dst != TRACE_NO_SLOT;
    in->dst[0] = t->dst;
    in->dst[1] = 0;
    in->nsrc = t->nsrc;
    memcpy(in->src, t->src, sizeof in->src);
}

typedef struct tsrc {
    const trace_app *app;
    int nsm, max_warps, max_ctas;
    size_t cmd; /* next command */
    kreader kr;
    ttb *tbs;     /* per (sm, CTA slot) */
    twarp *warps; /* per (sm, warp slot) */
    uint32_t blocks_read;
    int failed;
    char fail_msg[1024];
} tsrc;

/* What a warp without instruction lines (or any warp once the reader failed) issues. */
static const inst_info EMPTY_EXIT = {0, IC_EXIT, 0, 0, {0, 0}, {0, 0, 0, 0}};

static void fail(tsrc *S, const char *msg)
{
    if (S->failed) return;
    S->failed = 1;
    snprintf(S->fail_msg, sizeof S->fail_msg, "%s", msg);
}

/* After a kernel: its file must hold no further block. */
static int finish_kernel(tsrc *S, char *err, size_t errlen)
{
    if (!S->kr.open) return 0;
    ttb extra = {0};
    int r = kreader_next_block(&S->kr, &extra, err, errlen);
    if (r > 0)
        snprintf(err, errlen, "%s:%ld: more thread blocks than the grid's %u", S->kr.f.path,
                 extra.begin_line, S->kr.h.nctas);
    ttb_free(&extra);
    kreader_close(&S->kr);
    return r == 0 ? 0 : -1;
}

static int next_kernel(void *self, kernel_launch *k, char *err, size_t errlen)
{
    tsrc *S = self;
    if (S->failed) {
        snprintf(err, errlen, "%s", S->fail_msg);
        return -1;
    }
    if (finish_kernel(S, err, errlen)) return -1;
    const trace_app *A = S->app;
    while (S->cmd < A->ncmds) {
        const tcmd *c = &A->cmds[S->cmd++];
        if (c->kind != TCMD_KERNEL) continue; /* host-to-device copies: not simulated */
        if (kreader_open(&S->kr, c->file, A->ops, err, errlen) != 0) {
            kreader_close(&S->kr);
            return -1;
        }
        const kheader *h = &S->kr.h;
        S->blocks_read = 0;
        k->name = h->name;
        k->grid = h->nctas;
        k->block = h->block[0] * h->block[1] * h->block[2];
        k->regs_per_thread = h->nregs;
        k->shared_bytes = h->shmem;
        k->num_insts = 0; /* not known before the file is read */
        k->file = c->file;
        k->line = 0;
        return 1;
    }
    return 0;
}

static void cta_start(void *self, int sm, int cta_slot, uint32_t cta_id)
{
    tsrc *S = self;
    (void)cta_id;
    ttb *b = &S->tbs[(size_t)sm * (size_t)S->max_ctas + (size_t)cta_slot];
    b->present = 0;
    b->nwarps = 0;
    if (S->failed || !S->kr.open) return;
    char err[1024];
    int r = kreader_next_block(&S->kr, b, err, sizeof err);
    if (r < 0) fail(S, err);
    if (r > 0) S->blocks_read++;
}

static void warp_start(void *self, int sm, int warp_slot, int cta_slot, uint32_t cta_id,
                       int warp_in_cta)
{
    tsrc *S = self;
    (void)cta_id;
    const ttb *b = &S->tbs[(size_t)sm * (size_t)S->max_ctas + (size_t)cta_slot];
    twarp *w = &S->warps[(size_t)sm * (size_t)S->max_warps + (size_t)warp_slot];
    w->tb = b;
    w->pos = 0;
    w->first = w->count = 0;
    if (b->present && (uint32_t)warp_in_cta < b->nwarps) {
        w->first = b->wfirst[warp_in_cta];
        w->count = b->wcount[warp_in_cta];
        load(w);
    }
}

static const inst_info *peek(void *self, int sm, int warp_slot)
{
    tsrc *S = self;
    const twarp *w = &S->warps[(size_t)sm * (size_t)S->max_warps + (size_t)warp_slot];
    if (S->failed) return &EMPTY_EXIT;
    if (w->pos < w->count) return &w->cur;
    return w->count == 0 && w->pos == 0 ? &EMPTY_EXIT : NULL;
}

static int issue(void *self, int sm, int warp_slot, inst_exec *out, char *err, size_t errlen)
{
    tsrc *S = self;
    twarp *w = &S->warps[(size_t)sm * (size_t)S->max_warps + (size_t)warp_slot];
    if (S->failed) {
        snprintf(err, errlen, "%s", S->fail_msg);
        return -1;
    }
    out->diverged = 0;
    out->taken_mask = 0;
    out->target_pc = 0;
    out->reconv_pc = 0;
    out->access_size = 0;
    if (w->count == 0) { /* an empty warp: one exit with no lane */
        out->active_mask = 0;
        out->fallthru_pc = out->next_pc = 1;
        out->warp_done = 1;
        w->pos = 1;
        return 0;
    }
    if (w->pos >= w->count) {
        snprintf(err, errlen, "trace: issue on a finished warp");
        return -1;
    }
    const tinst *t = &w->tb->insts[w->first + w->pos];
    const tinst *next = w->pos + 1 < w->count ? t + 1 : NULL;
    uint32_t pc = t->pc;
    out->active_mask = t->mask;
    out->fallthru_pc = pc + 1;
    out->next_pc = next ? next->pc : pc + 1;
    out->warp_done = next == NULL;
    out->access_size = t->access_size;
    if (t->amode == TA_STRIDE) {
        uint32_t a = w->tb->pool[t->aux], stride = w->tb->pool[t->aux + 1];
        for (uint32_t m = t->mask; m; m &= m - 1, a += stride)
            out->addr[__builtin_ctz(m)] = a;
    } else if (t->amode == TA_LIST) {
        const uint32_t *a = w->tb->pool + t->aux;
        for (uint32_t m = t->mask; m; m &= m - 1)
            out->addr[__builtin_ctz(m)] = *a++;
    }
    if (t->cls == IC_BRANCH) {
        out->taken_mask = t->mask;
        if (t->amode == TA_BRANCH) { /* a warptune export: the branch's static targets */
            const uint32_t *br = w->tb->pool + t->aux;
            out->target_pc = br[0];
            out->reconv_pc = br[1];
            out->active_mask = br[2];
            out->diverged = t->mask != 0 && (br[2] & ~t->mask) != 0;
        } else { /* a recorded trace: the taken path is where the warp goes next */
            out->target_pc = out->next_pc;
        }
    }
    w->pos++;
    load(w);
    return 0;
}

static void destroy(void *self)
{
    tsrc *S = self;
    if (!S) return;
    kreader_close(&S->kr);
    if (S->tbs)
        for (size_t i = 0; i < (size_t)S->nsm * (size_t)S->max_ctas; i++)
            ttb_free(&S->tbs[i]);
    free(S->tbs);
    free(S->warps);
    free(S);
}

/* A trace's issue touches only its own warp's state: nothing to defer. */
static int defer(void *self, int on)
{
    (void)self;
    (void)on;
    return 0;
}

static const isource_ops trace_ops = {next_kernel, cta_start, warp_start, peek,
                                      issue,       destroy,   defer,      NULL};

int trace_instance(const trace_app *t, int num_sms, int max_warps, int max_ctas, isource *out,
                   char *err, size_t errlen)
{
    out->ops = NULL;
    out->self = NULL;
    if (num_sms <= 0 || max_warps <= 0 || max_ctas <= 0 || num_sms > 4096 || max_warps > 4096 ||
        max_ctas > 4096) {
        snprintf(err, errlen, "%s: bad GPU shape for a trace reader", t->path);
        return -1;
    }
    tsrc *S = calloc(1, sizeof *S);
    if (S) {
        S->app = t;
        S->nsm = num_sms;
        S->max_warps = max_warps;
        S->max_ctas = max_ctas;
        S->tbs = calloc((size_t)num_sms * (size_t)max_ctas, sizeof *S->tbs);
        S->warps = calloc((size_t)num_sms * (size_t)max_warps, sizeof *S->warps);
    }
    if (!S || !S->tbs || !S->warps) {
        destroy(S);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    out->ops = &trace_ops;
    out->self = S;
    return 0;
}

int trace_isource_factory(void *arg, int num_sms, int max_warps, int max_ctas, isource *out,
                          char *err, size_t errlen)
{
    return trace_instance(arg, num_sms, max_warps, max_ctas, out, err, errlen);
}

int trace_scan(const trace_app *t, trace_scan_stats *st, char *err, size_t errlen)
{
    memset(st, 0, sizeof *st);
    int rc = 0;
    ttb b = {0};
    for (size_t i = 0; i < t->ncmds && rc == 0; i++) {
        if (t->cmds[i].kind != TCMD_KERNEL) continue;
        kreader kr;
        if (kreader_open(&kr, t->cmds[i].file, t->ops, err, errlen) != 0) {
            kreader_close(&kr);
            rc = -1;
            break;
        }
        st->kernels++;
        uint32_t blocks = 0;
        int r;
        while ((r = kreader_next_block(&kr, &b, err, errlen)) > 0) {
            if (++blocks > kr.h.nctas) {
                snprintf(err, errlen, "%s:%ld: more thread blocks than the grid's %u", kr.f.path,
                         b.begin_line, kr.h.nctas);
                r = -1;
                break;
            }
            st->blocks++;
            for (uint32_t w = 0; w < b.nwarps; w++)
                st->warps += b.wseen[w];
            st->insts += b.ninsts;
            for (size_t k = 0; k < b.ninsts; k++)
                st->mem_insts += b.insts[k].amode == TA_STRIDE || b.insts[k].amode == TA_LIST;
        }
        if (r < 0) rc = -1;
        kreader_close(&kr);
    }
    ttb_free(&b);
    return rc;
}
