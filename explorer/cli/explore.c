/* warptune explore: run a study over a design space. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explorer/cli/cli.h"
#include "explorer/cli/common.h"
#include "explorer/cli/commands.h"
#include "explorer/explore.h"
#include "explorer/mpi_eval.h"
#include "explorer/shard.h"

#define MAX_SETS 256

static void on_sigint(int sig)
{
    (void)sig;
    wt_stop_requested = 1;
}

/* The library's messages under the command's name, one line each. */
static void print_lines(const char *text)
{
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, "\n");
        fprintf(stderr, "warptune explore: %.*s\n", (int)n, p);
        p += n + (p[n] == '\n');
    }
}

static void on_warning(void *ctx, const char *msg)
{
    (void)ctx;
    print_lines(msg);
}

static void usage(FILE *f)
{
    cli_command_usage(f, "explore");
}

int cli_explore(int argc, char **argv)
{
    explore_options o;
    memset(&o, 0, sizeof o);
    const char *sets[MAX_SETS];
    size_t nsets = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int has = i + 1 < argc;
        if (!strcmp(a, "--resume")) {
            o.resume = 1;
        } else if (!strcmp(a, "--force")) {
            o.force = 1;
        } else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
            o.quiet = 1;
        } else if (!strcmp(a, "--validate") || !strcmp(a, "--dry-run")) {
            o.validate = 1;
        } else if (!strcmp(a, "--threads") && has) {
            /* 0 is every core, as search.threads 0 in a space file */
            if (cli_threads_arg("explore", argv[++i], 0, &o.threads) != 0) return WT_EXIT_BAD_INPUT;
            o.threads_given = 1;
        } else if (!strcmp(a, "--shard") && has) {
            if (shard_parse(argv[++i], &o.shard_k, &o.shard_n) != 0) {
                fprintf(stderr, "warptune explore: --shard %s: expected K/N with 1 <= K <= N\n",
                        argv[i]);
                return WT_EXIT_BAD_INPUT;
            }
        } else if (!strcmp(a, "--mpi")) {
            o.mpi = 1;
        } else if (!strcmp(a, "--out") && has) {
            o.out = argv[++i];
        } else if (!strcmp(a, "--set") && has) {
            if (nsets == MAX_SETS) {
                fprintf(stderr, "warptune explore: at most %d --set\n", MAX_SETS);
                return WT_EXIT_BAD_INPUT;
            }
            sets[nsets++] = argv[++i];
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return WT_EXIT_OK;
        } else if (a[0] != '-' && !o.space) {
            o.space = a;
        } else {
            fprintf(stderr, "warptune explore: unknown or incomplete option '%s'\n", a);
            usage(stderr);
            return WT_EXIT_BAD_INPUT;
        }
    }
    o.sets = sets;
    o.nsets = nsets;
    if (o.mpi && o.shard_n) {
        fprintf(stderr, "warptune explore: --mpi and --shard: choose one (docs/cluster.md)\n");
        return WT_EXIT_BAD_INPUT;
    }
    if (o.mpi && !o.validate) {
        char msg[256];
        int size;
        if (mpi_eval_init(&o.mpi_rank, &size, msg, sizeof msg) != 0) {
            fprintf(stderr, "warptune explore: %s\n", msg);
            return WT_EXIT_BAD_INPUT;
        }
        if (o.mpi_rank > 0) o.quiet = 1;
    }
    o.warn = on_warning;
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND; /* a second ^C ends the process at once */
    sigaction(SIGINT, &sa, &old);
    char err[16384];
    explore_status st = explore_main(&o, err, sizeof err);
    sigaction(SIGINT, &old, NULL);
    if (o.mpi && !o.validate) mpi_eval_finalize();
    if (st != EXPLORE_OK) print_lines(err);
    switch (st) {
    case EXPLORE_OK:
        return WT_EXIT_OK;
    case EXPLORE_BAD_INPUT:
        return WT_EXIT_BAD_INPUT;
    case EXPLORE_INTERRUPTED:
        return WT_EXIT_INTERRUPTED;
    case EXPLORE_FAILED:
        break;
    }
    return WT_EXIT_INTERNAL;
}
