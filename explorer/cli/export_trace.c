/* warptune export-trace: a workload's warp instructions as an Accel-Sim trace
 * (docs/traces.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explorer/catalog.h"
#include "explorer/simulate.h"
#include "core/config/preset.h"
#include "core/analysis/trace_export.h"
#include "core/trace/trace.h"
#include "explorer/cli/cli.h"
#include "explorer/cli/commands.h"
#include "explorer/cli/common.h"

#define MAX_ITEMS 64

static int usage(void)
{
    cli_command_usage(stderr, "export-trace");
    return WT_EXIT_BAD_INPUT;
}

int cli_export_trace(int argc, char **argv)
{
    const char *wl = NULL, *out = NULL, *preset = WT_DEFAULT_PRESET;
    const char *sets[MAX_ITEMS];
    int nsets = 0;
    cli_wparams wp = {0};
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        int has_value = i + 1 < argc;
        if (!strcmp(o, "--workload") && has_value) {
            wl = argv[++i];
        } else if (!strcmp(o, "--out") && has_value) {
            out = argv[++i];
        } else if (!strcmp(o, "--preset") && has_value) {
            preset = argv[++i];
        } else if (!strcmp(o, "--set") && has_value && nsets < MAX_ITEMS) {
            sets[nsets++] = argv[++i];
        } else if (!strcmp(o, "--wparam") && has_value && wp.n < CLI_MAX_WPARAMS) {
            if (cli_wparams_add(&wp, "export-trace", argv[++i]) != 0) return WT_EXIT_BAD_INPUT;
        } else {
            fprintf(stderr, "warptune export-trace: unknown or incomplete option '%s'\n", o);
            return usage();
        }
    }
    if (!wl || !out) return usage();
    char err[4096];
    param_set *p = param_set_new();
    if (!p) return WT_EXIT_INTERNAL;
    int rc = WT_EXIT_BAD_INPUT;
    workload *w = NULL;
    if (cli_apply_config(p, preset, sets, nsets, err, sizeof err) != 0 ||
        cli_check_config(p, preset, err, sizeof err) != 0)
        goto bad;
    if (workload_load(wl, wp.items, (size_t)wp.n, &w, err, sizeof err) != 0) goto bad;
    trace_export_stats st;
    if (trace_export(p, sim_run_source, w, out, &st, NULL, err, sizeof err) != 0) {
        rc = WT_EXIT_INTERNAL;
        goto bad;
    }
    printf("%s/kernelslist.g: %llu kernels, %llu thread blocks, %llu warp instructions, %llu "
           "bytes\n",
           out, (unsigned long long)st.kernels, (unsigned long long)st.blocks,
           (unsigned long long)st.warp_insts, (unsigned long long)st.bytes);
    workload_free(w);
    param_set_free(p);
    return WT_EXIT_OK; /* main checks that the summary reached the standard output */
bad:
    fprintf(stderr, "warptune export-trace: %s\n", err);
    workload_free(w);
    param_set_free(p);
    return rc;
}
