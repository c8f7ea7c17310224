/* What the subcommands share: building a configuration from a preset and --set options, and
 * reading --wparam options. */
#ifndef WT_CLI_COMMON_H
#define WT_CLI_COMMON_H

#include <stddef.h>

#include "core/params.h"
#include "core/workload.h"

/* Applies the preset, then each "name=value" of sets in order. Returns 0, or -1 with a
 * message in err ("--set X: expected name=value", "--set: <what the parameter expects>", or
 * the preset's own "file:line: ..."). */
int cli_apply_config(param_set *p, const char *preset, const char *const *sets, int nsets,
                     char *err, size_t errlen);

/* A new configuration from the preset and the sets; NULL after printing "warptune CMD:
 * <message>" on stderr. */
param_set *cli_config(const char *cmd, const char *preset, const char *const *sets, int nsets);

/* Copies "name=value" into buf and points out at its two halves. Returns 0, or -1 when there
 * is no '=' or no name. */
int cli_split_override(const char *arg, char *buf, size_t buflen, wl_override *out);

#endif
