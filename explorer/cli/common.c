#include "explorer/cli/common.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "explorer/catalog.h"
#include "core/config/config.h"
#include "core/config/preset.h"
#include "core/util/kv.h"

int cli_apply_config(param_set *p, const char *preset, const char *const *sets, int nsets,
                     char *err, size_t errlen)
{
    if (preset_apply(p, preset, err, errlen) != 0) return -1;
    for (int i = 0; i < nsets; i++) {
        char name[256];
        const char *value;
        if (wt_split_kv(sets[i], name, sizeof name, &value) != 0) {
            snprintf(err, errlen, "--set %s: expected name=value", sets[i]);
            return -1;
        }
        for (int k = 0; k < i; k++) { /* once each, as a space file's keys */
            char prev[256];
            const char *pv;
            if (wt_split_kv(sets[k], prev, sizeof prev, &pv) == 0 && !strcmp(prev, name)) {
                snprintf(err, errlen,
                         "--set %s: %s is already set by --set %s (expected each parameter "
                         "once)",
                         sets[i], name, sets[k]);
                return -1;
            }
        }
        char msg[768];
        if (param_set_parse(p, name, value, msg, sizeof msg) != 0) {
            snprintf(err, errlen, "--set: %s", msg);
            return -1;
        }
    }
    return 0;
}

int cli_check_config(const param_set *p, const char *preset, char *err, size_t errlen)
{
    gpu_config c;
    char msg[768];
    if (gpu_config_from_params(p, &c, msg, sizeof msg) == 0) return 0;
    /* the fault is the preset's when the preset alone has it, else the --set list's (which
     * may also mend a preset's combination) */
    char alone[768];
    param_set *q = param_set_new();
    int preset_fails = q && preset_apply(q, preset, alone, sizeof alone) == 0 &&
                       gpu_config_from_params(q, &c, alone, sizeof alone) != 0;
    param_set_free(q);
    if (!preset_fails) {
        snprintf(err, errlen, "--set: %s", msg);
    } else {
        const char *name = preset ? preset : WT_DEFAULT_PRESET;
        /* a built-in is named as its own errors name it */
        int is_path =
            strchr(name, '/') || (strlen(name) > 5 && !strcmp(name + strlen(name) - 5, ".json"));
        snprintf(err, errlen, "%s%s%s: %s", name, is_path ? "" : ".json",
                 strcmp(alone, msg) ? " with --set" : "", msg);
    }
    return -1;
}

param_set *cli_config(const char *cmd, const char *preset, const char *const *sets, int nsets)
{
    char err[1024];
    param_set *p = param_set_new();
    if (!p) {
        fprintf(stderr, "warptune %s: out of memory\n", cmd);
        return NULL;
    }
    if (cli_apply_config(p, preset, sets, nsets, err, sizeof err) == 0 &&
        cli_check_config(p, preset, err, sizeof err) == 0)
        return p;
    fprintf(stderr, "warptune %s: %s\n", cmd, err);
    param_set_free(p);
    return NULL;
}

int cli_wparams_add(cli_wparams *wp, const char *cmd, const char *arg)
{
    if (wp->n == CLI_MAX_WPARAMS) return 1;
    char *name = wp->names[wp->n];
    const char *value;
    if (wt_split_kv(arg, name, sizeof wp->names[0], &value) != 0) {
        fprintf(stderr, "warptune %s: --wparam %s: expected name=value\n", cmd, arg);
        return -1;
    }
    for (int k = 0; k < wp->n; k++) /* once each, as --set */
        if (!strcmp(wp->items[k].name, name)) {
            fprintf(stderr,
                    "warptune %s: --wparam %s: %s is already set by --wparam %s=%s (expected "
                    "each parameter once)\n",
                    cmd, arg, name, wp->items[k].name, wp->items[k].value);
            return -1;
        }
    /* the value stays in arg, whole: a copy would have to cut a long one */
    wp->items[wp->n++] = (wl_override){name, value};
    return 0;
}

int cli_threads_arg(const char *cmd, const char *arg, int lo, int *out)
{
    char *end;
    long n = strtol(arg, &end, 10);
    if (end == arg || *end || n < lo || n > 1024) {
        fprintf(stderr, "warptune %s: --threads %s: expected an integer in [%d, 1024]%s\n", cmd,
                arg, lo, lo == 0 ? " (0: every core)" : "");
        return -1;
    }
    *out = (int)n;
    return 0;
}

int cli_stdout_check(const char *cmd)
{
    errno = 0;
    int flushed = fflush(stdout) == 0;
    if (flushed && !ferror(stdout)) return 0;
    /* an earlier failed write leaves only the error flag: its errno is gone */
    fprintf(stderr, "warptune %s: cannot write the standard output: %s\n", cmd,
            !flushed && errno ? strerror(errno) : "write error");
    return -1;
}
