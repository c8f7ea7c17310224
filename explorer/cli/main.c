/* warptune: design-space exploration of GPU warp-scheduling, L1D and CTA-scheduling policies
 * on an embedded cycle-level simulator. */
#include <stdio.h>
#include <string.h>

#include "explorer/cli/cli.h"
#include "explorer/cli/common.h"
#include "explorer/version.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: warptune COMMAND [OPTIONS]\n\n"
            "commands:\n"
            "  explore [SPACE] [--resume] [--threads N] [--out DIR] [--set k=v]... [--quiet]\n"
            "          [--validate]      run a study (default: the built-in default space)\n"
            "  sim [--preset P] [--workload W | --trace DIR/kernelslist.g]... [--wparam k=v]...\n"
            "      [--set k=v]... [--json] [--belady] [--l1-trace FILE] [--cta-trace FILE]\n"
            "      [--per-sm FILE]        simulate one configuration, print every metric\n"
            "  front FILE.csv [--objective COL:min|max]... [--out FILE.csv]\n"
            "                           the Pareto front of any table of results\n"
            "  characterize [--workload W]... [--preset P] [--set k=v]... [--csv FILE]\n"
            "                           cache sensitivity, locality, TLP and criticality\n"
            "  export-trace --workload W --out DIR\n"
            "                           write a workload as an Accel-Sim trace\n"
            "  params [PREFIX]          every parameter: type, default, range, unit, doc\n"
            "  workloads                the built-in workloads\n"
            "  presets                  the built-in presets\n"
            "  policies                 warp schedulers, L1D policies, CTA schedulers\n"
            "  version                  print the version\n\n"
            "exit status: 0 success, 2 bad input, 1 a failed simulation or internal error,\n"
            "130 explore interrupted (outputs written for what finished)\n");
}

static int run_command(int argc, char **argv)
{
    const char *cmd = argv[1];
    if (!strcmp(cmd, "sim")) return cli_sim(argc - 1, argv + 1);
    if (!strcmp(cmd, "export-trace")) return cli_export_trace(argc - 1, argv + 1);
    if (!strcmp(cmd, "params")) return cli_params(argc - 1, argv + 1);
    if (!strcmp(cmd, "workloads")) return cli_workloads(argc - 1, argv + 1);
    if (!strcmp(cmd, "presets")) return cli_presets(argc - 1, argv + 1);
    if (!strcmp(cmd, "policies")) return cli_policies(argc - 1, argv + 1);
    if (!strcmp(cmd, "characterize")) return cli_characterize(argc - 1, argv + 1);
    if (!strcmp(cmd, "front")) return cli_front(argc - 1, argv + 1);
    if (!strcmp(cmd, "explore")) return cli_explore(argc - 1, argv + 1);
    if (!strcmp(cmd, "version") || !strcmp(cmd, "--version")) {
        printf("warptune %s\n", wt_version());
        return WT_EXIT_OK;
    }
    if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
        usage(stdout);
        return WT_EXIT_OK;
    }
    fprintf(stderr, "warptune: unknown command '%s'\n", cmd);
    usage(stderr);
    return WT_EXIT_BAD_INPUT;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return WT_EXIT_BAD_INPUT;
    }
    int rc = run_command(argc, argv);
    /* output that never reached the standard output (a full disk, a closed pipe) is a failure
     * of every command, whatever it printed */
    if (cli_stdout_check(argv[1]) != 0 && rc == WT_EXIT_OK) rc = WT_EXIT_INTERNAL;
    return rc;
}
