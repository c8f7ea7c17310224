/* Simulator throughput: simulated warp instructions per second, and peak resident memory,
 * for each built-in workload on one core.
 *
 *   build/sim_throughput [--preset P] [--repeat N] [--seconds S] [--list FILE] [WORKLOAD...]
 *
 * A workload is a name or a path, optionally with its parameters as `name k=v ...` in one
 * argument; --list reads such lines from a file (bench/accelsim/workloads.txt: # comments).
 * --seconds S runs each measurement's simulation again and again until it has used S seconds
 * of CPU (at least once; default 0: once), so that short runs time as well as long ones.
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

/* Builds in this tree and in earlier ones, whose simulator had these headers elsewhere, so that
 * two builds are timed by the same program (bench/speed_compare.sh). */
#if __has_include("explorer/simulate.h")
#include "core/config/preset.h"
#include "explorer/simulate.h"
#else
#include "core/catalog.h"
#include "core/preset.h"
#include "core/sim.h"
#endif

static double clock_seconds(clockid_t clock)
{
    struct timespec t;
    clock_gettime(clock, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* A workload argument: its name and up to 16 `key=value` parameters, split in place. */
typedef struct wl_arg {
    char *name;
    wl_override ov[16];
    size_t n;
} wl_arg;

static int parse_arg(char *text, wl_arg *a)
{
    a->n = 0;
    a->name = strtok(text, " \t\n");
    if (!a->name) return -1;
    for (char *kv; (kv = strtok(NULL, " \t\n"));) {
        char *eq = strchr(kv, '=');
        if (!eq || a->n == 16) return -1;
        *eq = '\0';
        a->ov[a->n++] = (wl_override){kv, eq + 1};
    }
    return 0;
}

/* Runs in the child: writes "warp_insts wall_seconds cycles ipc cpu_seconds l1d_accesses
 * l2_accesses dram_lines runs" to fd (the rates over every run; the metrics of one). */
static int measure(const char *preset, const char *spec, double seconds, int fd)
{
    char err[1024], text[1024];
    snprintf(text, sizeof text, "%s", spec);
    wl_arg a;
    param_set *p = param_set_new();
    workload *w = NULL;
    if (parse_arg(text, &a) != 0) {
        fprintf(stderr, "%s: expected NAME [key=value ...]\n", spec);
        return 1;
    }
    if (!p || preset_apply(p, preset, err, sizeof err) != 0 ||
        workload_load(a.name, a.ov, a.n, &w, err, sizeof err) != 0) {
        fprintf(stderr, "%s: %s\n", spec, err);
        return 1;
    }
    sim_metrics m;
    double t0 = clock_seconds(CLOCK_MONOTONIC), c0 = clock_seconds(CLOCK_PROCESS_CPUTIME_ID);
    double dc = 0;
    int runs = 0;
    do {
        sim_status st = sim_run(p, w, NULL, &m, err, sizeof err);
        if (st != SIM_OK) {
            fprintf(stderr, "%s: %s\n", spec, err);
            return 1;
        }
        runs++;
        dc = clock_seconds(CLOCK_PROCESS_CPUTIME_ID) - c0;
    } while (dc < seconds);
    double dt = clock_seconds(CLOCK_MONOTONIC) - t0;
    char line[256];
    int n = snprintf(line, sizeof line, "%.0f %.9f %.0f %.4f %.9f %.0f %.0f %.0f %d\n",
                     m.warp_insts, dt, m.cycles, m.ipc, dc, m.l1d_accesses, m.l2_accesses,
                     m.dram_reads + m.dram_writes, runs);
    if (write(fd, line, (size_t)n) != n) return 1;
    workload_free(w);
    param_set_free(p);
    return 0;
}

/* Appends the workload lines of file path (NAME [key=value ...]; # comments) to names. */
static int read_list(const char *path, char **names, int *n, int max)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "%s: cannot open\n", path);
        return -1;
    }
    char line[1024];
    while (fgets(line, sizeof line, f) && *n < max) {
        char *s = line + strspn(line, " \t");
        if (*s == '#' || *s == '\n' || !*s) continue;
        s[strcspn(s, "\n")] = '\0';
        names[(*n)++] = strdup(s);
    }
    fclose(f);
    return 0;
}

int main(int argc, char **argv)
{
    const char *preset = WT_DEFAULT_PRESET;
    int repeat = 3;
    double seconds = 0;
    char *names[256];
    int n = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--preset") && i + 1 < argc)
            preset = argv[++i];
        else if (!strcmp(argv[i], "--repeat") && i + 1 < argc)
            repeat = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--seconds") && i + 1 < argc)
            seconds = atof(argv[++i]);
        else if (!strcmp(argv[i], "--list") && i + 1 < argc) {
            if (read_list(argv[++i], names, &n, 256) != 0) return 2;
        } else if (n < 256)
            names[n++] = argv[i];
    }
    if (n == 0)
        for (size_t i = 0; i < workload_builtin_count() && n < 256; i++)
            names[n++] = (char *)workload_builtin_name(i);
    printf("%-24s %12s %10s %8s %8s %7s %7s %7s %7s %14s %11s\n", "workload", "warp_insts",
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
                _exit(measure(preset, names[i], seconds, fds[1]));
            }
            close(fds[1]);
            char buf[256] = {0};
            ssize_t got = read(fds[0], buf, sizeof buf - 1);
            close(fds[0]);
            int status, runs = 0;
            struct rusage ru;
            wait4(pid, &status, 0, &ru);
            if (got <= 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
                failed = 1;
                break;
            }
            double dt = 0, dc = 0;
            if (sscanf(buf, "%lf %lf %lf %lf %lf %lf %lf %lf %d", &insts, &dt, &cycles, &ipc, &dc,
                       &acc, &l2, &dram, &runs) != 9 ||
                dc <= 0 || insts <= 0 || runs < 1) {
                failed = 1;
                break;
            }
            if (insts * runs / dc > best)
                best = insts * runs / dc, cpu = dc / runs, wall = dt / runs;
            if (ru.ru_maxrss > rss_kb) rss_kb = ru.ru_maxrss;
        }
        /* the workload's name and parameters, joined by commas: one column */
        char label[64];
        snprintf(label, sizeof label, "%s", names[i]);
        for (char *c = label; *c; c++)
            if (*c == ' ') *c = ',';
        if (best > 0)
            printf("%-24s %12.0f %10.0f %8.3f %8.3f %7.2f %7.2f %7.2f %7.2f %14.0f %11.1f\n", label,
                   insts, cycles, cpu, wall, ipc, acc / insts, l2 / insts, dram / insts, best,
                   (double)rss_kb / 1024.0);
        else
            printf("%-24s failed\n", label);
        fflush(stdout);
    }
    return failed;
}
