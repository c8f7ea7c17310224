/* Simulator throughput: simulated warp instructions per second, and peak resident memory,
 * for each built-in workload on one core.
 *
 *   build/sim_throughput [--preset P] [--repeat N] [WORKLOAD...]
 *
 * Beside the rate, what each warp instruction asks of the memory system, which is what the
 * rate mostly depends on: acc/wi L1D accesses (lines touched by global loads), l2/wi requests
 * reaching the L2 (misses, bypasses, stores and atomics) and dram/wi DRAM line transfers.
 *
 * Each workload runs in a child process so its peak RSS is its own; the best of N runs is
 * reported (the machine may be noisy). The rate is per second of the simulation's CPU time
 * (CLOCK_PROCESS_CPUTIME_ID: the time it ran on its core), which other processes competing
 * for the cores do not inflate as they do wall time; the wall seconds are printed beside it. */
#define _DEFAULT_SOURCE /* wait4 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "explorer/catalog.h"
#include "core/config/preset.h"
#include "explorer/simulate.h"

static double clock_seconds(clockid_t clock)
{
    struct timespec t;
    clock_gettime(clock, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Runs in the child: writes "warp_insts wall_seconds cycles ipc cpu_seconds l1d_accesses
 * l2_accesses dram_lines" to fd. */
static int measure(const char *preset, const char *name, int fd)
{
    char err[1024];
    param_set *p = param_set_new();
    workload *w = NULL;
    if (!p || preset_apply(p, preset, err, sizeof err) != 0 ||
        workload_load(name, NULL, 0, &w, err, sizeof err) != 0) {
        fprintf(stderr, "%s: %s\n", name, err);
        return 1;
    }
    sim_metrics m;
    double t0 = clock_seconds(CLOCK_MONOTONIC), c0 = clock_seconds(CLOCK_PROCESS_CPUTIME_ID);
    sim_status st = sim_run(p, w, NULL, &m, err, sizeof err);
    double dt = clock_seconds(CLOCK_MONOTONIC) - t0;
    double dc = clock_seconds(CLOCK_PROCESS_CPUTIME_ID) - c0;
    if (st != SIM_OK) {
        fprintf(stderr, "%s: %s\n", name, err);
        return 1;
    }
    char line[256];
    int n =
        snprintf(line, sizeof line, "%.0f %.9f %.0f %.4f %.9f %.0f %.0f %.0f\n", m.warp_insts, dt,
                 m.cycles, m.ipc, dc, m.l1d_accesses, m.l2_accesses, m.dram_reads + m.dram_writes);
    if (write(fd, line, (size_t)n) != n) return 1;
    workload_free(w);
    param_set_free(p);
    return 0;
}

int main(int argc, char **argv)
{
    const char *preset = WT_DEFAULT_PRESET;
    int repeat = 3;
    const char *names[64];
    int n = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--preset") && i + 1 < argc)
            preset = argv[++i];
        else if (!strcmp(argv[i], "--repeat") && i + 1 < argc)
            repeat = atoi(argv[++i]);
        else if (n < 64)
            names[n++] = argv[i];
    }
    if (n == 0)
        for (size_t i = 0; i < workload_builtin_count() && n < 64; i++)
            names[n++] = workload_builtin_name(i);
    printf("%-16s %12s %10s %8s %8s %7s %7s %7s %7s %14s %11s\n", "workload", "warp_insts",
           "cycles", "cpu_s", "wall_s", "ipc", "acc/wi", "l2/wi", "dram/wi", "warp_insts/s",
           "peak_rss_MB");
    int failed = 0;
    for (int i = 0; i < n; i++) {
        double best = 0, insts = 0, cycles = 0, ipc = 0, cpu = 0, wall = 0, acc = 0, l2 = 0,
               dram = 0;
        long rss_kb = 0;
        for (int r = 0; r < repeat; r++) {
            int fds[2];
            if (pipe(fds) != 0) return 1;
            pid_t pid = fork();
            if (pid == 0) {
                close(fds[0]);
                _exit(measure(preset, names[i], fds[1]));
            }
            close(fds[1]);
            char buf[256] = {0};
            ssize_t got = read(fds[0], buf, sizeof buf - 1);
            close(fds[0]);
            int status;
            struct rusage ru;
            wait4(pid, &status, 0, &ru);
            if (got <= 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
                failed = 1;
                break;
            }
            double dt = 0, dc = 0;
            if (sscanf(buf, "%lf %lf %lf %lf %lf %lf %lf %lf", &insts, &dt, &cycles, &ipc, &dc,
                       &acc, &l2, &dram) != 8 ||
                dc <= 0 || insts <= 0) {
                failed = 1;
                break;
            }
            if (insts / dc > best) best = insts / dc, cpu = dc, wall = dt;
            if (ru.ru_maxrss > rss_kb) rss_kb = ru.ru_maxrss;
        }
        if (best > 0)
            printf("%-16s %12.0f %10.0f %8.3f %8.3f %7.2f %7.2f %7.2f %7.2f %14.0f %11.1f\n",
                   names[i], insts, cycles, cpu, wall, ipc, acc / insts, l2 / insts, dram / insts,
                   best, (double)rss_kb / 1024.0);
        else
            printf("%-16s failed\n", names[i]);
        fflush(stdout);
    }
    return failed;
}
