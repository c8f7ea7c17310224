#include "tests/support/support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/catalog.h"
#include "core/util/textfile.h"

char *test_read_file(const char *path, size_t *len)
{
    return wt_read_file(path, len);
}

const char *test_write_temp(const char *name, const char *text)
{
    static char paths[8][256];
    static int next;
    char *path = paths[next++ % 8];
    snprintf(path, sizeof paths[0], "/tmp/wt_test_%ld_%s", (long)getpid(), name);
    FILE *f = fopen(path, "wb");
    if (!f) return NULL;
    fputs(text, f);
    fclose(f);
    return path;
}

#include "core/preset.h"

static int split_kv(const char *kv, char *name, size_t n, const char **value)
{
    const char *eq = strchr(kv, '=');
    if (!eq || (size_t)(eq - kv) >= n) return -1;
    memcpy(name, kv, (size_t)(eq - kv));
    name[eq - kv] = '\0';
    *value = eq + 1;
    return 0;
}

sim_status test_sim(const char *workload_text, const char *const *sets, const char *const *wparams,
                    sim_metrics *m, char *err, size_t errlen)
{
    param_set *p = param_set_new();
    workload *w = NULL;
    sim_status st = SIM_BAD_CONFIG;
    char names[32][128];
    wl_override ov[32];
    size_t nov = 0;
    if (preset_apply(p, WT_DEFAULT_PRESET, err, errlen) != 0) goto out;
    for (size_t i = 0; sets && sets[i]; i++) {
        char name[128];
        const char *value;
        if (split_kv(sets[i], name, sizeof name, &value) != 0 ||
            param_set_parse(p, name, value, err, errlen) != 0)
            goto out;
    }
    for (size_t i = 0; wparams && wparams[i] && nov < 32; i++) {
        const char *value;
        if (split_kv(wparams[i], names[nov], sizeof names[0], &value) != 0) goto out;
        ov[nov] = (wl_override){names[nov], value};
        nov++;
    }
    int rc = strchr(workload_text, '\n')
                 ? workload_parse(workload_text, "test.wl", NULL, ov, nov, &w, err, errlen)
                 : workload_load(workload_text, ov, nov, &w, err, errlen);
    if (rc != 0) goto out;
    st = sim_run(p, w, NULL, m, err, errlen);
out:
    workload_free(w);
    param_set_free(p);
    return st;
}
