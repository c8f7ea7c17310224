#include "core/metrics.h"

#include <string.h>

static const metric_info metric_table[] = {
#define WT_METRIC_INFO(name, doc) {#name, doc, offsetof(sim_metrics, name)},
    WT_METRICS(WT_METRIC_INFO)
#undef WT_METRIC_INFO
};

size_t metric_count(void)
{
    return sizeof metric_table / sizeof metric_table[0];
}

const metric_info *metric_at(size_t i)
{
    return &metric_table[i];
}

int metric_lookup(const char *name)
{
    for (size_t i = 0; i < metric_count(); i++)
        if (strcmp(metric_table[i].name, name) == 0) return (int)i;
    return -1;
}

double metric_value(const sim_metrics *m, size_t i)
{
    double v;
    memcpy(&v, (const char *)m + metric_table[i].offset, sizeof v);
    return v;
}
