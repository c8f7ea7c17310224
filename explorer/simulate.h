/* Simulating a configuration: the simulator (core/sim/sim.h) composed with the policies the
 * configuration names (sched.policy, l1d.policy, cta.policy, resolved through the registry,
 * policies/registry.h) and with the metric slots of the catalogue (explorer/catalog.h). This
 * is the call the explorer, the command line, the tests and the benchmarks simulate through. */
#ifndef WT_SIMULATE_H
#define WT_SIMULATE_H

#include <stddef.h>

#include "core/sim/sim.h"
#include "core/workload/workload.h"
#include "explorer/catalog.h"

/* The policies `config` names and their metrics' slots. Returns 0, or -1 with err naming the
 * parameter whose policy is not registered. */
int sim_plugins_for(const param_set *config, sim_plugins *out, char *err, size_t errlen);

/* Runs `w` on the GPU `config` describes, with the policies it names. A scheduler that wants
 * an oracle profile (CAWS: sched_ops.profile_policy) gets one from a first run of the same
 * configuration with the scheduler that hook names, unless opt->warp_profile holds one; the
 * reported metrics are the second run's, with criticality_inversions. On SIM_FAILED the
 * metrics describe the run up to the failure. `opt` may be NULL. */
sim_status sim_run(const param_set *config, const workload *w, const sim_options *opt,
                   sim_metrics *out, char *err, size_t errlen);

/* sim_run for any instruction source (a sim_source_runner). */
sim_status sim_run_source(const param_set *config, isource_factory make, void *arg,
                          const sim_options *opt, sim_metrics *out, char *err, size_t errlen);

#endif
