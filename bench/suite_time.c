/* suite_time: the whole built-in workload suite at its default sizes under the default preset,
 * one simulation after another on one thread: wall time per workload and in all (the budget is
 * ten minutes on one core).
 *
 *   suite_time [WORKLOAD]...      (default: every built-in) */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "explorer/catalog.h"
#include "core/config/preset.h"
#include "explorer/simulate.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int one(const char *name, const param_set *p, double *secs)
{
    char err[1024];
    workload *w = NULL;
    double t0 = now();
    if (workload_load(name, NULL, 0, &w, err, sizeof err) != 0) {
        fprintf(stderr, "suite_time: %s\n", err);
        return -1;
    }
    sim_metrics m;
    sim_status st = sim_run(p, w, NULL, &m, err, sizeof err);
    workload_free(w);
    *secs = now() - t0;
    if (st != SIM_OK) {
        fprintf(stderr, "suite_time: %s: %s\n", name, err);
        return -1;
    }
    printf("%-16s %8.2f s  %12.0f warp insts  %10.0f cycles  ipc %7.2f\n", name, *secs,
           m.warp_insts, m.cycles, m.ipc);
    fflush(stdout);
    return 0;
}

int main(int argc, char **argv)
{
    char err[1024];
    param_set *p = param_set_new();
    if (!p || preset_apply(p, WT_DEFAULT_PRESET, err, sizeof err) != 0) {
        fprintf(stderr, "suite_time: %s\n", err);
        return 1;
    }
    double total = 0, s;
    int rc = 0, n = 0;
    if (argc > 1) {
        for (int i = 1; i < argc; i++, n++) {
            rc |= one(argv[i], p, &s) != 0;
            total += s;
        }
    } else {
        for (size_t i = 0; i < workload_builtin_count(); i++, n++) {
            rc |= one(workload_builtin_name(i), p, &s) != 0;
            total += s;
        }
    }
    printf("total: %d workloads, %.1f s on one core (preset %s)\n", n, total, WT_DEFAULT_PRESET);
    param_set_free(p);
    return rc;
}
