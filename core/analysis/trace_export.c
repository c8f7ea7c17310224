/* The trace exporter: records every warp instruction the workload interpreter executes in a
 * timing simulation and writes them as an Accel-Sim trace (kernelslist.g, kernel-N.traceg;
 * binary version 70, tracer version 5), grouped by thread block and warp. The recorder sits
 * between the SM and the interpreter and passes everything through unchanged. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "core/analysis/trace_export.h"
#include "core/trace/trace.h"
#include "core/workload/wl_inspect.h"

#define EXPORT_VERSION 70 /* binary version of the opcode names written */

typedef struct sbuf {
    char *s;
    size_t len, cap;
    uint32_t n; /* instruction lines */
} sbuf;

typedef struct xcta {
    sbuf *warps;
    uint32_t done; /* warps finished */
} xcta;

typedef struct xslot {
    uint32_t cta, wic;
} xslot;

typedef struct xrec {
    const workload *w;
    const char *outdir;
    trace_opcodes *ops;
    isource inner;
    int max_warps;
    xslot *slots;
    /* the running kernel */
    const wl_kernel *k;
    int kernel_no;
    uint32_t grid, warps_per_cta;
    xcta **ctas;
    uint32_t next_flush;
    FILE *f;
    char path[4096];
    trace_export_stats st;
    int failed;
    char err[4096 + 512];
} xrec;

static int xfail(xrec *X, const char *fmt, const char *a, const char *b)
{
    if (!X->failed) {
        X->failed = 1;
        snprintf(X->err, sizeof X->err, fmt, a, b);
    }
    return -1;
}

static int sb_add(sbuf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 1024;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *p = realloc(b->s, cap);
        if (!p) return -1;
        b->s = p;
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
    return 0;
}

static void cta_free(xcta *c, uint32_t nwarps)
{
    if (!c) return;
    for (uint32_t i = 0; i < nwarps; i++)
        free(c->warps[i].s);
    free(c->warps);
    free(c);
}

/* ---- opcode names ---- */

static const char *const CLASS_OPCODE[IC_COUNT] = {
    [IC_INT] = "IADD3",           [IC_FP] = "FADD",
    [IC_SFU] = "MUFU.RCP",        [IC_LD_GLOBAL] = "LDG.E.SYS",
    [IC_ST_GLOBAL] = "STG.E.SYS", [IC_LD_SHARED] = "LDS",
    [IC_ST_SHARED] = "STS",       [IC_ATOMIC] = "ATOMG.E.ADD.STRONG.GPU",
    [IC_BRANCH] = "BRA",          [IC_BARRIER] = "BAR.SYNC",
    [IC_EXIT] = "EXIT",
};

/* The Volta opcode written for an instruction: its own name when Accel-Sim's Volta map puts it
 * in warptune's class for it, else a name of that class (i2f and f2i run on warptune's FP
 * unit; Accel-Sim counts I2F and F2I as integer operations). */
static const char *export_opcode(const xrec *X, uint32_t pc, int cls)
{
    const char *n = wl_kernel_sass_name(X->k, pc);
    if (trace_opcode_class(X->ops, EXPORT_VERSION, n, strlen(n)) == cls) return n;
    return CLASS_OPCODE[cls];
}

/* ---- kernel files ---- */

static int flush_ctas(xrec *X)
{
    while (X->next_flush < X->grid && X->ctas[X->next_flush] &&
           X->ctas[X->next_flush]->done == X->warps_per_cta) {
        xcta *c = X->ctas[X->next_flush];
        fprintf(X->f, "\n#BEGIN_TB\n\nthread block = %u,0,0\n", X->next_flush);
        for (uint32_t i = 0; i < X->warps_per_cta; i++) {
            fprintf(X->f, "\nwarp = %u\ninsts = %u\n", i, c->warps[i].n);
            if (c->warps[i].len) fwrite(c->warps[i].s, 1, c->warps[i].len, X->f);
        }
        fputs("\n#END_TB\n", X->f);
        if (ferror(X->f)) return xfail(X, "%s: write failed: %s", X->path, strerror(errno));
        cta_free(c, X->warps_per_cta);
        X->ctas[X->next_flush++] = NULL;
        X->st.blocks++;
    }
    return 0;
}

/* Kernel file `no` of the export, or its temporary: every file is written under a temporary
 * name and renamed into place only when the whole export succeeded, so a failed run leaves no
 * partial file and an older export in the folder intact. The temporaries carry the process id:
 * two exports into one folder at once do not write into each other's. */
static void kernel_path(const char *outdir, int no, int tmp, char *buf, size_t n)
{
    if (tmp)
        snprintf(buf, n, "%s/kernel-%d.traceg.tmp.%ld", outdir, no, (long)getpid());
    else
        snprintf(buf, n, "%s/kernel-%d.traceg", outdir, no);
}

static int end_kernel(xrec *X)
{
    if (!X->f) return 0;
    int rc = flush_ctas(X);
    if (rc == 0 && X->next_flush != X->grid)
        rc = xfail(X, "%s: %s", X->path, "a CTA of the kernel did not finish");
    long size = ftell(X->f);
    if (size > 0) X->st.bytes += (uint64_t)size;
    if (fclose(X->f) != 0 && rc == 0)
        rc = xfail(X, "%s: write failed: %s", X->path, strerror(errno));
    X->f = NULL;
    if (X->ctas)
        for (uint32_t i = 0; i < X->grid; i++)
            cta_free(X->ctas[i], X->warps_per_cta);
    free(X->ctas);
    X->ctas = NULL;
    return rc;
}

static int begin_kernel(xrec *X, const kernel_launch *kl)
{
    const wl_kernel *k = wl_find_kernel(X->w, kl->name);
    if (!k) return xfail(X, "%s: kernel '%s' not found", workload_name(X->w), kl->name);
    X->k = k;
    X->kernel_no++;
    X->grid = kl->grid;
    X->warps_per_cta = (kl->block + WT_WARP_SIZE - 1) / WT_WARP_SIZE;
    X->next_flush = 0;
    X->ctas = calloc(X->grid ? X->grid : 1, sizeof *X->ctas);
    if (!X->ctas) return xfail(X, "%s%s", "out of memory", "");
    kernel_path(X->outdir, X->kernel_no, 0, X->path, sizeof X->path);
    char tmp[sizeof X->path];
    kernel_path(X->outdir, X->kernel_no, 1, tmp, sizeof tmp);
    X->f = fopen(tmp, "w");
    if (!X->f) return xfail(X, "%s: write failed: %s", X->path, strerror(errno));
    FILE *f = X->f;
    fprintf(f, "-kernel name = %s\n", kl->name);
    fprintf(f, "-kernel id = %d\n", X->kernel_no);
    fprintf(f, "-grid dim = (%u,1,1)\n", kl->grid);
    fprintf(f, "-block dim = (%u,1,1)\n", kl->block);
    fprintf(f, "-shmem = %u\n", kl->shared_bytes);
    fprintf(f, "-nregs = %u\n", kl->regs_per_thread);
    fprintf(f, "-binary version = %d\n", EXPORT_VERSION);
    fprintf(f, "-cuda stream id = 0\n");
    /* windows above warptune's address space (the exporter writes no generic loads) */
    fprintf(f, "-shmem base_addr = 0x%016llx\n", 0x80000000ull);
    fprintf(f, "-local mem base_addr = 0x%016llx\n", 0x90000000ull);
    fprintf(f, "-accelsim tracer version = 5\n");
    fprintf(f, "-enable lineinfo = 0\n");
    uint32_t target, reconv;
    for (uint32_t pc = 0; pc < wl_kernel_inst_count(k); pc++)
        if (wl_kernel_branch(k, pc, &target, &reconv))
            fprintf(f, "-warptune branch = %04x %04x %04x\n", pc << 4, target << 4, reconv << 4);
    fprintf(f, "\n#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num "
               "[reg_srcs] mem_width [adrrescompress?] [mem_addresses] immediate\n");
    X->st.kernels++;
    return ferror(f) ? xfail(X, "%s: write failed: %s", X->path, strerror(errno)) : 0;
}

/* ---- the recording source ---- */

static int x_next_kernel(void *self, kernel_launch *k, char *err, size_t errlen)
{
    xrec *X = self;
    if (end_kernel(X)) {
        snprintf(err, errlen, "%s", X->err);
        return -1;
    }
    int r = X->inner.ops->next_kernel(X->inner.self, k, err, errlen);
    if (r == 1 && begin_kernel(X, k)) {
        snprintf(err, errlen, "%s", X->err);
        return -1;
    }
    return r;
}

static void x_cta_start(void *self, int sm, int cta_slot, uint32_t cta_id)
{
    xrec *X = self;
    X->inner.ops->cta_start(X->inner.self, sm, cta_slot, cta_id);
    if (X->failed || cta_id >= X->grid) return;
    xcta *c = calloc(1, sizeof *c);
    if (c) c->warps = calloc(X->warps_per_cta, sizeof *c->warps);
    if (!c || !c->warps) {
        free(c);
        xfail(X, "%s%s", "out of memory", "");
        return;
    }
    X->ctas[cta_id] = c;
}

static void x_warp_start(void *self, int sm, int warp_slot, int cta_slot, uint32_t cta_id,
                         int warp_in_cta)
{
    xrec *X = self;
    X->inner.ops->warp_start(X->inner.self, sm, warp_slot, cta_slot, cta_id, warp_in_cta);
    xslot *s = &X->slots[(size_t)sm * (size_t)X->max_warps + (size_t)warp_slot];
    s->cta = cta_id;
    s->wic = (uint32_t)warp_in_cta;
}

static const inst_info *x_peek(void *self, int sm, int warp_slot)
{
    xrec *X = self;
    return X->inner.ops->peek(X->inner.self, sm, warp_slot);
}

/* Appends the trace line of one issued instruction. */
static int record(xrec *X, sbuf *b, const inst_info *in, const inst_exec *x)
{
    char line[1024];
    size_t n = 0;
    int cls = in->cls;
    uint32_t mask = cls == IC_BRANCH ? x->taken_mask : x->active_mask;
#define PUT(...) n += (size_t)snprintf(line + n, sizeof line - n, __VA_ARGS__)
    PUT("%04x %08x %d ", in->pc << 4, mask, in->ndst);
    for (int i = 0; i < in->ndst; i++)
        PUT("R%u ", trace_slot_reg(in->dst[i]));
    PUT("%s %d ", export_opcode(X, in->pc, cls), in->nsrc);
    for (int i = 0; i < in->nsrc; i++)
        PUT("R%u ", trace_slot_reg(in->src[i]));
    if (cls >= IC_LD_GLOBAL && cls <= IC_ATOMIC) {
        PUT("%d ", x->access_size ? x->access_size : 4);
        int lanes = __builtin_popcount(mask);
        uint32_t a[WT_WARP_SIZE];
        int k = 0;
        int first = mask ? __builtin_ctz(mask) : 0;
        for (uint32_t m = mask; m; m &= m - 1)
            a[k++] = x->addr[__builtin_ctz(m)];
        /* base+stride when the lanes are contiguous with one stride, as the tracer does */
        int contiguous = lanes >= 2 && (uint64_t)(mask >> first) == ((uint64_t)1 << lanes) - 1u;
        int stride_ok = contiguous;
        for (int i = 2; stride_ok && i < lanes; i++)
            stride_ok = a[i] - a[i - 1] == a[1] - a[0];
        if (lanes == 0) {
            PUT("1 0x0 0 ");
        } else if (stride_ok) {
            PUT("1 0x%llx %d ", (unsigned long long)a[0], (int)(int32_t)(a[1] - a[0]));
        } else {
            PUT("2 0x%llx ", (unsigned long long)a[0]);
            for (int i = 1; i < lanes; i++)
                PUT("%lld ", (long long)a[i] - (long long)a[i - 1]);
        }
    } else {
        PUT("0 ");
    }
    PUT("%u\n", cls == IC_BRANCH ? x->active_mask : 0u);
#undef PUT
    if (n >= sizeof line) return xfail(X, "%s%s", "trace line too long", "");
    if (sb_add(b, line, n)) return xfail(X, "%s%s", "out of memory", "");
    b->n++;
    return 0;
}

static int x_issue(void *self, int sm, int warp_slot, inst_exec *out, char *err, size_t errlen)
{
    xrec *X = self;
    const inst_info *pi = X->inner.ops->peek(X->inner.self, sm, warp_slot);
    inst_info info;
    if (pi) info = *pi;
    int rc = X->inner.ops->issue(X->inner.self, sm, warp_slot, out, err, errlen);
    if (rc != 0 || !pi || X->failed) return rc;
    const xslot *s = &X->slots[(size_t)sm * (size_t)X->max_warps + (size_t)warp_slot];
    xcta *c = s->cta < X->grid ? X->ctas[s->cta] : NULL;
    if (!c || s->wic >= X->warps_per_cta) return 0;
    if (record(X, &c->warps[s->wic], &info, out) == 0) {
        X->st.warp_insts++;
        if (out->warp_done && ++c->done == X->warps_per_cta) flush_ctas(X);
    }
    return 0;
}

static void x_destroy(void *self)
{
    xrec *X = self;
    if (X->inner.ops) X->inner.ops->destroy(X->inner.self);
    X->inner.ops = NULL;
}

/* No defer: the recorder writes each issue to its file in issue order, so the SMs it serves
 * step one after another. */
static const isource_ops rec_ops = {x_next_kernel, x_cta_start, x_warp_start, x_peek,
                                    x_issue,       x_destroy,   NULL,         NULL};

static int rec_factory(void *arg, int num_sms, int max_warps, int max_ctas, isource *out, char *err,
                       size_t errlen)
{
    xrec *X = arg;
    if (workload_instance(X->w, num_sms, max_warps, max_ctas, &X->inner, err, errlen) != 0)
        return -1;
    X->max_warps = max_warps;
    X->slots = calloc((size_t)num_sms * (size_t)max_warps, sizeof *X->slots);
    if (!X->slots) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    out->ops = &rec_ops;
    out->self = X;
    return 0;
}

int trace_export(const param_set *config, sim_source_runner run, const workload *w,
                 const char *outdir, trace_export_stats *st, sim_metrics *m, char *err,
                 size_t errlen)
{
    xrec X;
    memset(&X, 0, sizeof X);
    X.w = w;
    X.outdir = outdir;
    if (mkdir(outdir, 0777) != 0 && errno != EEXIST) {
        snprintf(err, errlen, "%s: cannot create the directory: %s", outdir, strerror(errno));
        return -1;
    }
    if (trace_opcodes_load(&X.ops, err, errlen) != 0) return -1;
    sim_metrics local;
    sim_status s = run(config, rec_factory, &X, NULL, m ? m : &local, err, errlen);
    int rc = s == SIM_OK ? 0 : -1;
    if (X.f) { /* the run stopped inside a kernel */
        fclose(X.f);
        X.f = NULL;
    }
    if (X.ctas)
        for (uint32_t i = 0; i < X.grid; i++)
            cta_free(X.ctas[i], X.warps_per_cta);
    free(X.ctas);
    free(X.slots);
    trace_opcodes_free(X.ops);
    if (rc == 0 && X.failed) {
        snprintf(err, errlen, "%s", X.err);
        rc = -1;
    }
    char path[4096], tmp[4096 + 32];
    snprintf(path, sizeof path, "%s/kernelslist.g", outdir);
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    if (rc == 0) {
        FILE *f = fopen(tmp, "w");
        if (!f) {
            snprintf(err, errlen, "%s: write failed: %s", path, strerror(errno));
            rc = -1;
        } else {
            /* the inputs a CUDA program copies to the device before its first launch */
            for (size_t i = 0; i < wl_workload_array_count(w); i++) {
                uint64_t base, bytes;
                wl_workload_array_at(w, i, &base, &bytes);
                fprintf(f, "MemcpyHtoD,0x%016llx,%llu\n", (unsigned long long)base,
                        (unsigned long long)bytes);
            }
            for (int i = 1; i <= X.kernel_no; i++)
                fprintf(f, "kernel-%d.traceg\n", i);
            int bad = ferror(f);
            if (fclose(f) != 0 || bad) {
                snprintf(err, errlen, "%s: write failed: %s", path, strerror(errno));
                rc = -1;
            }
        }
    }
    if (rc == 0) {
        /* The old list goes first: a run killed while renaming leaves no kernelslist.g rather
         * than one that names a mix of old and new kernel files. */
        if (remove(path) != 0 && errno != ENOENT) {
            snprintf(err, errlen, "%s: cannot replace: %s", path, strerror(errno));
            rc = -1;
        }
        char kt[4096], kf[4096];
        for (int i = 1; i <= X.kernel_no && rc == 0; i++) {
            kernel_path(outdir, i, 1, kt, sizeof kt);
            kernel_path(outdir, i, 0, kf, sizeof kf);
            if (rename(kt, kf) != 0) {
                snprintf(err, errlen, "%s: cannot rename into place: %s", kf, strerror(errno));
                rc = -1;
            }
        }
        if (rc == 0 && rename(tmp, path) != 0) {
            snprintf(err, errlen, "%s: cannot rename into place: %s", path, strerror(errno));
            rc = -1;
        }
    }
    if (rc != 0) { /* nothing half-written stays behind */
        char kt[4096];
        for (int i = 1; i <= X.kernel_no; i++) {
            kernel_path(outdir, i, 1, kt, sizeof kt);
            remove(kt);
        }
        remove(tmp);
    }
    if (st) *st = X.st;
    return rc;
}
