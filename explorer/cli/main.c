/* warptune: design-space exploration of GPU warp-scheduling, L1D and CTA-scheduling policies
 * on an embedded cycle-level simulator. */
#include <stdio.h>
#include <string.h>

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

int main(int argc, char **argv)
{
    if (argc < 2) {
        cli_usage(stderr);
        return WT_EXIT_BAD_INPUT;
    }
    int rc = run_command(argc, argv);
    /* output that never reached the standard output (a full disk, a closed pipe) is a failure
     * of every command, whatever it printed */
    if (cli_stdout_check(argv[1]) != 0 && rc == WT_EXIT_OK) rc = WT_EXIT_INTERNAL;
    return rc;
}
