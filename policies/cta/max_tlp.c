/* The default CTA dispatcher: every SM holds as many CTAs as its resources allow; the GPU
 * hands them out round-robin over SMs (DYNCTA section II, "load balanced"). */
#include <stdlib.h>

#include "core/policy.h"

typedef struct max_tlp {
    int n_max;
} max_tlp;

static int max_tlp_create(void **self, const cta_env *env, const param_set *p, char *err,
                          size_t errlen)
{
    (void)env, (void)p, (void)err, (void)errlen;
    max_tlp *s = calloc(1, sizeof *s);
    if (!s) return -1;
    *self = s;
    return 0;
}

static void max_tlp_destroy(void *self)
{
    free(self);
}

static void max_tlp_kernel(void *self, int n_max)
{
    ((max_tlp *)self)->n_max = n_max;
}

static int max_tlp_limit(void *self, int sm)
{
    (void)sm;
    return ((max_tlp *)self)->n_max;
}

const cta_ops cta_max_tlp_ops = {
    .name = "max_tlp",
    .doc = "as many CTAs per SM as resources allow, dispatched round-robin over SMs",
    .create = max_tlp_create,
    .destroy = max_tlp_destroy,
    .on_kernel_start = max_tlp_kernel,
    .limit = max_tlp_limit,
};
