/* Trace-driven simulation rate beside the interpreter's, and a large generated trace run under a
 * memory bound (docs/traces.md). A benchmark, not a test.
 *
 *   trace_rate [--workload W] [--preset P] [--dir DIR] [--big-gb G] [--keep]
 *
 * Exports W (default kmeans) to DIR (default /tmp/wt_trace_rate), simulates it directly and from
 * the trace, and prints warp instructions per second for both. With --big-gb, also writes a
 * synthetic trace of at least G gigabytes to DIR/big, reads it once without simulating, simulates
 * it and prints the rates and the process's peak resident set (the reader streams a thread block at
 * a time). The generated files are removed afterwards unless --keep. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "explorer/catalog.h"
#include "core/config/preset.h"
#include "explorer/simulate.h"
#include "core/analysis/trace_export.h"
#include "core/trace/trace.h"

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double peak_rss_mb(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (double)u.ru_maxrss / 1024.0; /* kilobytes on Linux */
}

/* Writes a synthetic kernel of `ctas` blocks of 8 warps, `iters` loop bodies per warp: coalesced
 * loads and stores (base+stride), a divergent load in list form, integer and FP work and a
 * barrier per body. Returns the bytes written, or 0 on error. */
static uint64_t write_big_kernel(const char *path, uint32_t ctas, int iters)
{
    FILE *f = fopen(path, "w");
    if (!f) return 0;
    static char buf[1 << 20];
    setvbuf(f, buf, _IOFBF, sizeof buf);
    fprintf(f,
            "-kernel name = synthetic\n-kernel id = 1\n-grid dim = (%u,1,1)\n"
            "-block dim = (256,1,1)\n-shmem = 0\n-nregs = 32\n-binary version = 70\n"
            "-cuda stream id = 0\n-shmem base_addr = 0x00007f0000000000\n"
            "-local mem base_addr = 0x00007f1000000000\n-accelsim tracer version = 5\n"
            "-enable lineinfo = 0\n\n#traces format = [line_num] PC mask dest_num [reg_dests] "
            "opcode src_num [reg_srcs] mem_width [adrrescompress?] [mem_addresses] "
            "immediate\n",
            ctas);
    const int body = 12;
    for (uint32_t c = 0; c < ctas; c++) {
        fprintf(f, "\n#BEGIN_TB\n\nthread block = %u,0,0\n", c);
        for (int w = 0; w < 8; w++) {
            fprintf(f, "\nwarp = %d\ninsts = %d\n", w, iters * body + 3);
            uint64_t gid = ((uint64_t)c * 8 + (uint64_t)w) * 32;
            fprintf(f, "0000 ffffffff 1 R0 S2R 0 0 0\n0010 ffffffff 1 R1 IMAD 2 R0 R0 0 0\n");
            for (int it = 0; it < iters; it++) {
                uint64_t a = 0x7f2000000000ull + (gid + (uint64_t)it * ctas * 256) * 4;
                uint64_t b = 0x7f3000000000ull + (gid * 4 + (uint64_t)it * 97) % (1u << 24) * 4;
                fprintf(f, "0020 ffffffff 1 R2 LDG.E.SYS 1 R1 4 1 0x%" PRIx64 " 4 0\n", a);
                fprintf(f, "0030 ffffffff 1 R3 IMAD 2 R1 R0 0 0\n");
                fprintf(f, "0040 ffffffff 1 R4 LDG.E.SYS 1 R3 4 0");
                for (int l = 0; l < 32; l++)
                    fprintf(f, " 0x%016" PRIx64, b + (uint64_t)((l * 37) % 32) * 512);
                fprintf(f, " 0\n");
                fprintf(f, "0050 ffffffff 1 R5 FFMA 3 R2 R4 R5 0 0\n");
                fprintf(f, "0060 ffffffff 1 R6 FMUL 2 R5 R5 0 0\n");
                fprintf(f, "0070 ffffffff 1 R7 FADD 2 R6 R2 0 0\n");
                fprintf(f, "0080 ffffffff 1 R8 IADD3 3 R1 R7 R0 0 0\n");
                fprintf(f, "0090 ffffffff 0 STG.E.SYS 2 R3 R7 4 1 0x%" PRIx64 " 4 0\n",
                        a + (uint64_t)0x100000000ull);
                fprintf(f, "00a0 ffffffff 1 R240 ISETP 2 R8 R1 0 0\n");
                fprintf(f, "00b0 ffffffff 0 BAR.SYNC 0 0 0\n");
                fprintf(f, "00c0 ffffffff 1 R9 MUFU.RSQ 1 R7 0 0\n");
                fprintf(f, "00d0 ffffffff 0 BRA 1 R240 0 0\n");
            }
            fprintf(f, "00e0 ffffffff 0 EXIT 0 0 0\n");
        }
        fprintf(f, "\n#END_TB\n");
        if (ferror(f)) break;
    }
    long long size = ftell(f);
    int bad = ferror(f) != 0;
    if (fclose(f) != 0 || bad || size <= 0) return 0;
    return (uint64_t)size;
}

static int run_trace(const param_set *p, const char *list, sim_metrics *m, double *secs)
{
    char err[4096];
    trace_app *t;
    if (trace_open(list, &t, err, sizeof err)) {
        fprintf(stderr, "trace_rate: %s\n", err);
        return -1;
    }
    double t0 = now_s();
    sim_status s = sim_run_source(p, trace_isource_factory, t, NULL, m, err, sizeof err);
    *secs = now_s() - t0;
    trace_close(t);
    if (s != SIM_OK) {
        fprintf(stderr, "trace_rate: %s: %s\n", list, err);
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *wl = "kmeans", *preset = WT_DEFAULT_PRESET, *dir = "/tmp/wt_trace_rate";
    double big_gb = 0;
    int keep = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--workload") && i + 1 < argc)
            wl = argv[++i];
        else if (!strcmp(argv[i], "--preset") && i + 1 < argc)
            preset = argv[++i];
        else if (!strcmp(argv[i], "--dir") && i + 1 < argc)
            dir = argv[++i];
        else if (!strcmp(argv[i], "--big-gb") && i + 1 < argc)
            big_gb = atof(argv[++i]);
        else if (!strcmp(argv[i], "--keep"))
            keep = 1;
        else {
            fprintf(stderr, "usage: trace_rate [--workload W] [--preset P] [--dir DIR] "
                            "[--big-gb G] [--keep]\n");
            return 2;
        }
    }
    char err[4096];
    param_set *p = param_set_new();
    if (!p || preset_apply(p, preset, err, sizeof err)) {
        fprintf(stderr, "trace_rate: %s\n", p ? err : "out of memory");
        return 1;
    }
    workload *w;
    if (workload_load(wl, NULL, 0, &w, err, sizeof err)) {
        fprintf(stderr, "trace_rate: %s\n", err);
        return 1;
    }
    sim_metrics md, mt;
    double t0 = now_s();
    if (sim_run(p, w, NULL, &md, err, sizeof err) != SIM_OK) {
        fprintf(stderr, "trace_rate: %s\n", err);
        return 1;
    }
    double direct = now_s() - t0;
    trace_export_stats st;
    t0 = now_s();
    if (trace_export(p, sim_run_source, w, dir, &st, NULL, err, sizeof err)) {
        fprintf(stderr, "trace_rate: %s\n", err);
        return 1;
    }
    double exp_s = now_s() - t0;
    char list[4200];
    snprintf(list, sizeof list, "%s/kernelslist.g", dir);
    double traced;
    if (run_trace(p, list, &mt, &traced)) return 1;
    printf("workload %s, preset %s: %.0f warp instructions, %.0f cycles (trace: %.0f cycles)\n", wl,
           preset, md.warp_insts, md.cycles, mt.cycles);
    printf("  interpreter  %8.3f s  %12.0f warp instructions/s\n", direct, md.warp_insts / direct);
    printf("  trace        %8.3f s  %12.0f warp instructions/s  (%.1f MB of trace, %.1f MB/s)\n",
           traced, mt.warp_insts / traced, (double)st.bytes / 1e6, (double)st.bytes / 1e6 / traced);
    printf("  export       %8.3f s\n", exp_s);
    workload_free(w);

    if (big_gb > 0) {
        char bigdir[4200], kpath[4300], lpath[4300];
        snprintf(bigdir, sizeof bigdir, "%s/big", dir);
        if (mkdir(bigdir, 0777) && errno != EEXIST) {
            fprintf(stderr, "trace_rate: %s: %s\n", bigdir, strerror(errno));
            return 1;
        }
        snprintf(kpath, sizeof kpath, "%s/kernel-1.traceg", bigdir);
        snprintf(lpath, sizeof lpath, "%s/kernelslist.g", bigdir);
        const int iters = 80; /* about 0.7 MB per thread block */
        uint64_t per_cta = 0;
        uint64_t bytes = 0;
        t0 = now_s();
        /* measure one block, then size the grid */
        per_cta = write_big_kernel(kpath, 1, iters);
        uint32_t ctas = (uint32_t)(big_gb * 1e9 / (double)(per_cta ? per_cta : 1)) + 1;
        bytes = write_big_kernel(kpath, ctas, iters);
        double gen = now_s() - t0;
        FILE *lf = fopen(lpath, "w");
        if (!bytes || !lf) {
            fprintf(stderr, "trace_rate: cannot write %s\n", bigdir);
            return 1;
        }
        fputs("MemcpyHtoD,0x00007f2000000000,4096\nkernel-1.traceg\n", lf);
        fclose(lf);
        printf("generated %s: %.3f GB, %u thread blocks, in %.1f s\n", kpath, (double)bytes / 1e9,
               ctas, gen);
        double rss0 = peak_rss_mb();
        trace_app *t;
        trace_scan_stats ss;
        if (trace_open(lpath, &t, err, sizeof err) == 0) {
            t0 = now_s();
            int bad = trace_scan(t, &ss, err, sizeof err);
            double rd = now_s() - t0;
            trace_close(t);
            if (bad) {
                fprintf(stderr, "trace_rate: %s\n", err);
                return 1;
            }
            printf("  read only    %8.3f s  %12.0f warp instructions/s  (%.0f MB/s)\n", rd,
                   (double)ss.insts / rd, (double)bytes / 1e6 / rd);
        }
        sim_metrics mb;
        double secs;
        if (run_trace(p, lpath, &mb, &secs)) return 1;
        printf("  big trace    %8.3f s  %12.0f warp instructions/s  (%.0f MB/s), %.0f cycles\n",
               secs, mb.warp_insts / secs, (double)bytes / 1e6 / secs, mb.cycles);
        printf("  peak RSS     %8.1f MB (before the run: %.1f MB)\n", peak_rss_mb(), rss0);
        if (!keep) {
            unlink(kpath);
            unlink(lpath);
            rmdir(bigdir);
        }
    }
    if (!keep) {
        char path[4300];
        for (uint64_t i = 1; i <= st.kernels; i++) {
            snprintf(path, sizeof path, "%s/kernel-%" PRIu64 ".traceg", dir, i);
            unlink(path);
        }
        unlink(list);
        rmdir(dir);
    }
    param_set_free(p);
    return 0;
}
