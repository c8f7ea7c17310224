/* Static CTA limit: every SM holds at most n CTAs (static_limit.n), dispatched round-robin over
 * SMs like the default. A kernel whose resources allow fewer CTAs per SM (N < n) runs with N:
 * the limit is min(n, N). This is the exhaustive search of DYNCTA section IV ("run it for all
 * possible n values") that DYNCTA is measured against. */
#include <stdlib.h>

#include "core/policy.h"

typedef struct static_limit {
    int n;     /* registered limit */
    int n_max; /* N of the running kernel */
} static_limit;

static const param_def static_limit_params[] = {
    {"static_limit.n", PT_INT, 8, 1, 32, NULL, "CTAs",
     "CTAs per SM at most; clamped to the kernel's resource maximum N"},
};

static int static_limit_create(void **self, const cta_env *env, const param_set *p, char *err,
                               size_t errlen)
{
    (void)env, (void)err, (void)errlen;
    static_limit *s = calloc(1, sizeof *s);
    if (!s) return -1;
    s->n = (int)param_get_int(p, "static_limit.n");
    s->n_max = s->n;
    *self = s;
    return 0;
}

static void static_limit_destroy(void *self)
{
    free(self);
}

static void static_limit_kernel(void *self, int n_max)
{
    ((static_limit *)self)->n_max = n_max;
}

static int static_limit_limit(void *self, int sm)
{
    (void)sm;
    const static_limit *s = self;
    return s->n < s->n_max ? s->n : s->n_max;
}

const cta_ops cta_static_limit_ops = {
    .name = "static_limit",
    .doc = "at most static_limit.n CTAs per SM (clamped to the kernel's N), round-robin",
    .params = static_limit_params,
    .nparams = sizeof static_limit_params / sizeof static_limit_params[0],
    .create = static_limit_create,
    .destroy = static_limit_destroy,
    .on_kernel_start = static_limit_kernel,
    .limit = static_limit_limit,
};
