/* warptune: design-space exploration of GPU warp-scheduling, L1D and CTA-scheduling policies
 * on an embedded cycle-level simulator. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "explorer/cli/cli.h"
#include "explorer/cli/commands.h"
#include "explorer/cli/common.h"

static int run_command(int argc, char **argv)
{
    const char *cmd = argv[1];
    const cli_command *c = cli_command_find(cmd);
    if (c) {
        /* every command answers --help (or -h) with its usage, whatever else it was given */
        for (int i = 2; i < argc; i++)
            if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
                cli_command_usage(stdout, c->name);
                return WT_EXIT_OK;
            }
        return c->run(argc - 1, argv + 1);
    }
    if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
        cli_usage(stdout);
        return WT_EXIT_OK;
    }
    fprintf(stderr, "warptune: unknown command '%s'\n", cmd);
    cli_usage(stderr);
    return WT_EXIT_BAD_INPUT;
}

/* OpenMP threads that wait (for work, at a barrier) should sleep, not spin on a core others
 * could use. The runtime reads OMP_WAIT_POLICY once, as it loads, before main: so explore,
 * the command that runs parallel regions, sets it to passive and starts itself again, unless
 * the environment already chose a policy. Should that fail, the study runs as it is. */
static void passive_waits(char **argv)
{
    if (getenv("OMP_WAIT_POLICY") || setenv("OMP_WAIT_POLICY", "passive", 1) != 0) return;
    execv("/proc/self/exe", argv);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        cli_usage(stderr);
        return WT_EXIT_BAD_INPUT;
    }
    if (!strcmp(argv[1], "explore")) passive_waits(argv);
    int rc = run_command(argc, argv);
    /* output that never reached the standard output (a full disk, a closed pipe) is a failure
     * of every command, whatever it printed */
    if (cli_stdout_check(argv[1]) != 0 && rc == WT_EXIT_OK) rc = WT_EXIT_INTERNAL;
    return rc;
}
