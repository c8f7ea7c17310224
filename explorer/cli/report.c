/* warptune report: report.html of a study's output folder, written again from its files. */
#include <stdio.h>

#include "explorer/cli/cli.h"
#include "explorer/cli/commands.h"
#include "explorer/report.h"

int cli_report(int argc, char **argv)
{
    int rc = cli_check_operands(argc, argv, 1);
    if (rc != WT_EXIT_OK) return rc;
    if (argc < 2 || !argv[1][0]) {
        fprintf(stderr, "warptune report: expected a study's output folder\n");
        cli_command_usage(stderr, "report");
        return WT_EXIT_BAD_INPUT;
    }
    const char *dir = argv[1];
    char path[4096], err[8192];
    if ((size_t)snprintf(path, sizeof path, "%s/report.html", dir) >= sizeof path) {
        fprintf(stderr, "warptune report: %s: the folder's name is too long\n", dir);
        return WT_EXIT_BAD_INPUT;
    }
    switch (report_write(dir, NULL, path, err, sizeof err)) {
    case REPORT_OK:
        return WT_EXIT_OK;
    case REPORT_BAD_INPUT:
        fprintf(stderr, "warptune report: %s\n", err);
        return WT_EXIT_BAD_INPUT;
    case REPORT_FAILED:
        break;
    }
    fprintf(stderr, "warptune report: %s\n", err);
    return WT_EXIT_INTERNAL;
}
