/* warptune params | workloads | presets | policies: what can be set and run. */
#include <stdio.h>
#include <string.h>

#include "explorer/catalog.h"
#include "core/config/preset.h"
#include "core/workload/workload.h"
#include "explorer/cli/cli.h"
#include "explorer/cli/commands.h"
#include "policies/registry.h"

static const char *type_name(const param_def *d)
{
    switch (d->type) {
    case PT_INT:
        return "int";
    case PT_REAL:
        return "real";
    case PT_BOOL:
        return "bool";
    case PT_CHOICE:
        return "choice";
    }
    return "?";
}

static void print_param(size_t id)
{
    const param_def *d = param_def_at(id);
    char range[512] = "";
    if (d->type == PT_CHOICE) {
        size_t used = 0;
        const char *name; /* the choices, then their aliases */
        for (size_t i = 0; (name = param_choice_name(&sim_catalog, id, i)) && used < sizeof range;
             i++)
            used += (size_t)snprintf(range + used, sizeof range - used, "%s%s", i ? "|" : "", name);
    } else if (d->type != PT_BOOL) {
        snprintf(range, sizeof range, "[%.10g, %.10g]", d->lo, d->hi);
    } else {
        snprintf(range, sizeof range, "true|false");
    }
    char def[64];
    if (d->type == PT_CHOICE)
        snprintf(def, sizeof def, "%s", d->choices[(size_t)d->def]);
    else if (d->type == PT_BOOL)
        snprintf(def, sizeof def, "%s", d->def ? "true" : "false");
    else
        snprintf(def, sizeof def, "%.10g", d->def);
    printf("%-28s %-6s %-12s %-22s %-12s %s\n", d->name, type_name(d), def, range, d->unit, d->doc);
}

int cli_params(int argc, char **argv)
{
    int rc = cli_check_operands(argc, argv, 1);
    if (rc != WT_EXIT_OK) return rc;
    const char *prefix = argc > 1 ? argv[1] : "";
    size_t matches = 0;
    for (size_t id = 0; id < param_count(); id++)
        matches += strncmp(param_def_at(id)->name, prefix, strlen(prefix)) == 0;
    if (!matches) {
        fprintf(stderr, "warptune params: no parameter name starts with '%s'\n", prefix);
        return WT_EXIT_BAD_INPUT;
    }
    printf("%-28s %-6s %-12s %-22s %-12s %s\n", "name", "type", "default", "range", "unit", "doc");
    for (size_t id = 0; id < param_count(); id++)
        if (strncmp(param_def_at(id)->name, prefix, strlen(prefix)) == 0) print_param(id);
    return WT_EXIT_OK;
}

int cli_workloads(int argc, char **argv)
{
    int rc = cli_check_operands(argc, argv, 0);
    if (rc != WT_EXIT_OK) return rc;
    char buf[256];
    for (size_t i = 0; i < workload_builtin_count(); i++)
        printf("%-16s %s\n", workload_builtin_name(i),
               workload_builtin_summary(i, buf, sizeof buf));
    return WT_EXIT_OK;
}

int cli_presets(int argc, char **argv)
{
    int rc = cli_check_operands(argc, argv, 0);
    if (rc != WT_EXIT_OK) return rc;
    char buf[512];
    for (size_t i = 0; i < preset_builtin_count(); i++) {
        preset_builtin_describe(i, buf, sizeof buf);
        printf("%-16s %s%s\n", preset_builtin_name(i), buf,
               strcmp(preset_builtin_name(i), WT_DEFAULT_PRESET) ? "" : " [default]");
    }
    return WT_EXIT_OK;
}

static void print_policy(const char *kind, const char *name, const char *doc,
                         const param_def *params, size_t n)
{
    printf("%-6s %-12s %s\n", kind, name, doc);
    for (size_t i = 0; i < n; i++) {
        printf("         ");
        print_param((size_t)param_lookup(params[i].name)); /* registered: a test checks */
    }
}

int cli_policies(int argc, char **argv)
{
    int rc = cli_check_operands(argc, argv, 0);
    if (rc != WT_EXIT_OK) return rc;
    printf("warp schedulers (sched.policy):\n");
    for (size_t i = 0; sched_policies[i]; i++)
        print_policy("sched", sched_policies[i]->name, sched_policies[i]->doc,
                     sched_policies[i]->params, sched_policies[i]->nparams);
    printf("\nL1D policies (l1d.policy):\n");
    for (size_t i = 0; l1_policies[i]; i++)
        print_policy("l1d", l1_policies[i]->name, l1_policies[i]->doc, l1_policies[i]->params,
                     l1_policies[i]->nparams);
    printf("\nCTA schedulers (cta.policy):\n");
    for (size_t i = 0; cta_policies[i]; i++)
        print_policy("cta", cta_policies[i]->name, cta_policies[i]->doc, cta_policies[i]->params,
                     cta_policies[i]->nparams);
    return WT_EXIT_OK;
}
