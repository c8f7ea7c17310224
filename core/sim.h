/* The one call the rest of warptune uses to simulate: a configuration (every registered
 * parameter), a workload, and the metrics it produced. One simulation is single-threaded and
 * owns all its state, so any number run side by side. */
#ifndef WT_SIM_H
#define WT_SIM_H

#include <stdio.h>

#include "core/metrics.h"
#include "core/params.h"
#include "core/workload.h"

typedef enum sim_status {
    SIM_OK = 0,
    SIM_BAD_CONFIG = -1, /* the configuration cannot be simulated (message says why) */
    SIM_FAILED = -2,     /* the run stopped: watchdog, cycle cap, workload runtime error */
} sim_status;

typedef struct sim_options {
    FILE *l1_trace; /* if set, every L1D access as CSV: sm,cycle,warp,pc,line,kind,outcome */
} sim_options;

/* Runs `w` on the GPU `config` describes. On SIM_FAILED the metrics describe the run up to the
 * failure. `opt` may be NULL. */
sim_status sim_run(const param_set *config, const workload *w, const sim_options *opt,
                   sim_metrics *out, char *err, size_t errlen);

#endif
