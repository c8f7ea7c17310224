/* The simulator composed with the registered policies (explorer/simulate.h). */
#include "explorer/simulate.h"

#include <stdio.h>
#include <string.h>

#include "core/sim/warp_profile.h"
#include "explorer/catalog.h"
#include "policies/registry.h"

/* Each declared metric's slot in sim_metrics.policy (the catalogue lists every one). */
static void assign_slots(const metric_def *defs, size_t n, uint8_t *slot)
{
    for (size_t k = 0; k < n; k++)
        slot[k] = (uint8_t)metric_policy_slot(defs[k].name);
}

int sim_plugins_for(const param_set *config, sim_plugins *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    const char *sched = param_get_choice(config, "sched.policy");
    const char *l1 = param_get_choice(config, "l1d.policy");
    const char *cta = param_get_choice(config, "cta.policy");
    out->sched = sched ? sched_policy_find(sched) : NULL;
    out->l1 = l1 ? l1_policy_find(l1) : NULL;
    out->cta = cta ? cta_policy_find(cta) : NULL;
    if (!out->sched || !out->l1 || !out->cta) {
        const char *param = !out->sched ? "sched.policy" : !out->l1 ? "l1d.policy" : "cta.policy";
        const char *name = !out->sched ? sched : !out->l1 ? l1 : cta;
        snprintf(err, errlen, "%s: unknown policy '%s'", param, name ? name : "");
        return -1;
    }
    assign_slots(out->sched->metrics, out->sched->nmetrics, out->sched_slot);
    assign_slots(out->l1->metrics, out->l1->nmetrics, out->l1_slot);
    assign_slots(out->cta->metrics, out->cta->nmetrics, out->cta_slot);
    return 0;
}

/* The profiling pass and the profiled run: `config` with sched.policy=profile_policy records
 * every warp's time, then `config` itself runs with that profile. The profiling pass gets no
 * trace or observer of `opt`; its errors are reported as such. */
static sim_status run_profiled(const param_set *config, isource_factory make, void *arg,
                               const sim_options *opt, const char *profile_policy, sim_metrics *out,
                               char *err, size_t errlen)
{
    sim_status st = SIM_BAD_CONFIG;
    warp_profile *oracle = warp_profile_new(), *run = warp_profile_new();
    param_set *pc = param_set_clone(config);
    char msg[512] = "";
    memset(out, 0, sizeof *out);
    if (!oracle || !run || !pc) {
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    if (param_set_parse(pc, "sched.policy", profile_policy, msg, sizeof msg) != 0) {
        snprintf(err, errlen, "profiling pass: %s", msg);
        goto done;
    }
    sim_options first;
    memset(&first, 0, sizeof first);
    first.warp_profile_out = oracle;
    st = sim_run_source(pc, make, arg, &first, out, msg, sizeof msg);
    if (st != SIM_OK) {
        snprintf(err, errlen, "profiling pass (sched.policy=%s): %s", profile_policy, msg);
        goto done;
    }
    sim_options second;
    if (opt)
        second = *opt;
    else
        memset(&second, 0, sizeof second);
    second.warp_profile = oracle;
    if (!second.warp_profile_out) second.warp_profile_out = run;
    st = sim_run_source(config, make, arg, &second, out, err, errlen);
    out->criticality_inversions = warp_profile_inversions(oracle, second.warp_profile_out);
done:
    param_set_free(pc);
    warp_profile_free(oracle);
    warp_profile_free(run);
    return st;
}

sim_status sim_run_source(const param_set *config, isource_factory make, void *arg,
                          const sim_options *opt, sim_metrics *out, char *err, size_t errlen)
{
    sim_plugins plugins;
    if (sim_plugins_for(config, &plugins, err, errlen) != 0) {
        memset(out, 0, sizeof *out);
        return SIM_BAD_CONFIG;
    }
    if (plugins.sched->profile_policy && !(opt && opt->warp_profile))
        return run_profiled(config, make, arg, opt, plugins.sched->profile_policy(config), out, err,
                            errlen);
    return sim_run_plugins(config, &plugins, make, arg, opt, out, err, errlen);
}

/* arg points at sim_run's workload pointer: the workload is const, the factory's argument not */
static int make_workload_instance(void *arg, int num_sms, int max_warps, int max_ctas, isource *out,
                                  char *err, size_t errlen)
{
    const workload *const *w = arg;
    return workload_instance(*w, num_sms, max_warps, max_ctas, out, err, errlen);
}

sim_status sim_run(const param_set *config, const workload *w, const sim_options *opt,
                   sim_metrics *out, char *err, size_t errlen)
{
    return sim_run_source(config, make_workload_instance, &w, opt, out, err, errlen);
}
