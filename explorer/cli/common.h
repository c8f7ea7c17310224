/* What the subcommands share: building a configuration from a preset and --set options, and
 * reading --wparam options. */
#ifndef WT_CLI_COMMON_H
#define WT_CLI_COMMON_H

#include <stddef.h>

#include "core/config/params.h"
#include "core/util/outfile.h"
#include "core/workload/workload.h"

/* Applies the preset, then each "name=value" of sets in order. Returns 0, or -1 with a
 * message in err ("--set X: expected name=value", "--set: <what the parameter expects>", or
 * the preset's own "file:line: ..."). */
int cli_apply_config(param_set *p, const char *preset, const char *const *sets, int nsets,
                     char *err, size_t errlen);

/* 0 when p, built from the preset and --set options, is a configuration the simulator takes;
 * else -1 with why in err, named after the preset ("FILE: <the check's message>") when the
 * preset alone fails the same way, after both ("FILE with --set: ...") when it fails another
 * way, else after --set ("--set: <message>"). */
int cli_check_config(const param_set *p, const char *preset, char *err, size_t errlen);

/* A new configuration from the preset and the sets, checked as cli_check_config does; NULL
 * after printing "warptune CMD: <message>" on stderr. */
param_set *cli_config(const char *cmd, const char *preset, const char *const *sets, int nsets);

/* The --wparam options of a command, in order, each split at its '=': the names copied, the
 * values pointing into the arguments. */
#define CLI_MAX_WPARAMS 64
typedef struct cli_wparams {
    wl_override items[CLI_MAX_WPARAMS];
    char names[CLI_MAX_WPARAMS][256];
    int n;
} cli_wparams;

/* Adds one "name=value"; arg must outlive wp (an argv string). Returns 0; 1 when the list is
 * full (nothing added); -1 after printing "warptune CMD: --wparam ARG: expected name=value"
 * when there is no '=' or no name, or "... NAME is already set by --wparam ..." when an earlier
 * one names the same parameter. */
int cli_wparams_add(cli_wparams *wp, const char *cmd, const char *arg);

/* Reads a --threads value in [lo, 1024] into *out (lo 0: explore's "every core", as a space's
 * search.threads 0). Returns 0, or -1 after printing "warptune CMD: --threads ARG: expected an
 * integer in [LO, 1024]". */
int cli_threads_arg(const char *cmd, const char *arg, int lo, int *out);

/* Flushes stdout and checks that everything written to it got out (a full disk, a closed
 * pipe). Returns 0, or -1 after printing "warptune CMD: cannot write the standard output:
 * <reason>" on stderr. */
int cli_stdout_check(const char *cmd);

#endif
