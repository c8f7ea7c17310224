/* DYNCTA (Kayiran et al., PACT 2013, section IV and Algorithm 1): per-SM CTA modulation.
 *
 * Every SM starts with n = floor(N/2) CTAs (at least 1; dyncta.start picks 1 or N instead, the
 * paper's alternatives). Every dyncta.period cycles each SM reports C_idle and C_mem for the
 * period just ended and Algorithm 1 decides, locally per SM:
 *
 *   C_idle >= t_idle                 raise n (an idle SM needs work)
 *   else C_mem < t_mem_l             raise n (memory is not the bottleneck)
 *   else C_mem >= t_mem_h            lower n (latency has grown too long to hide)
 *   else                             keep n
 *
 * with 1 <= n <= N: a change that would leave the range is not made. Raising n while the SM
 * holds paused CTAs unpauses the least recently assigned paused one (the one paused last)
 * instead of admitting a new CTA; lowering n pauses the most recently assigned running CTA.
 * Both follow from the core's rule that CTAs beyond the limit are paused newest first and
 * count as resident, so no new CTA is dispatched while any is paused. */
#include <stdio.h>
#include <stdlib.h>

#include "core/policy.h"

#define START_CHOICES(X, p) X(p, half) X(p, one) X(p, max)
WT_CHOICE_ENUM(START);
static const char *const dyncta_starts[] = WT_CHOICE_NAMES(START);

static const param_def dyncta_params[] = {
    {"dyncta.period", PT_INT, 2048, 1, 1 << 24, NULL, "cycles",
     "sampling period: C_idle and C_mem are compared with the thresholds and reset this often"},
    {"dyncta.t_idle", PT_INT, 16, 0, 1 << 24, NULL, "cycles",
     "C_idle at or above it is high: raise n"},
    {"dyncta.t_mem_l", PT_INT, 128, 0, 1 << 24, NULL, "cycles",
     "C_mem below it is low: raise n (checked before t_mem_h)"},
    {"dyncta.t_mem_h", PT_INT, 384, 0, 1 << 24, NULL, "cycles",
     "C_mem at or above it is high: lower n"},
    {"dyncta.start", PT_CHOICE, START_half, 0, 0, dyncta_starts, "",
     "initial n of every SM at each kernel start: floor(N/2) (the paper's), 1 or N"},
};

typedef struct dyncta {
    uint32_t period, t_idle, t_mem_l, t_mem_h;
    int start;
    int num_sms;
    int n_max;
    int n[]; /* per SM */
} dyncta;

static int dyncta_create(void **self, const cta_env *env, const param_set *p, char *err,
                         size_t errlen)
{
    if (env->num_sms < 1) {
        snprintf(err, errlen, "dyncta: needs at least one SM");
        return -1;
    }
    dyncta *s = calloc(1, sizeof *s + (size_t)env->num_sms * sizeof s->n[0]);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    s->period = (uint32_t)param_get_int(p, "dyncta.period");
    s->t_idle = (uint32_t)param_get_int(p, "dyncta.t_idle");
    s->t_mem_l = (uint32_t)param_get_int(p, "dyncta.t_mem_l");
    s->t_mem_h = (uint32_t)param_get_int(p, "dyncta.t_mem_h");
    s->start = param_get_choice_index(p, "dyncta.start");
    s->num_sms = env->num_sms;
    s->n_max = 1;
    for (int i = 0; i < s->num_sms; i++)
        s->n[i] = 1;
    *self = s;
    return 0;
}

static void dyncta_destroy(void *self)
{
    free(self);
}

static void dyncta_kernel(void *self, int n_max)
{
    dyncta *s = self;
    s->n_max = n_max < 1 ? 1 : n_max;
    int n0 = s->start == START_one ? 1 : s->start == START_max ? s->n_max : s->n_max / 2;
    if (n0 < 1) n0 = 1;
    for (int i = 0; i < s->num_sms; i++)
        s->n[i] = n0;
}

static int dyncta_limit(void *self, int sm)
{
    const dyncta *s = self;
    return sm >= 0 && sm < s->num_sms ? s->n[sm] : 1;
}

static uint32_t dyncta_period(void *self)
{
    return ((const dyncta *)self)->period;
}

/* Algorithm 1 for one SM. Raising also covers "unpause the least recently assigned paused
 * CTA" (nCTA > n implies n < N), since the core pauses exactly the CTAs beyond n. */
static void dyncta_sample(void *self, int sm, const cta_sample *c, uint64_t now)
{
    (void)now;
    dyncta *s = self;
    if (sm < 0 || sm >= s->num_sms) return;
    int *n = &s->n[sm];
    if (c->c_idle >= s->t_idle || c->c_mem < s->t_mem_l) {
        if (*n < s->n_max) ++*n;
    } else if (c->c_mem >= s->t_mem_h) {
        if (*n > 1) --*n;
    }
}

const cta_ops cta_dyncta_ops = {
    .name = "dyncta",
    .doc = "DYNCTA: per-SM CTA limit modulated every period from C_idle and C_mem, with CTA "
           "pausing",
    .params = dyncta_params,
    .nparams = sizeof dyncta_params / sizeof dyncta_params[0],
    .create = dyncta_create,
    .destroy = dyncta_destroy,
    .on_kernel_start = dyncta_kernel,
    .limit = dyncta_limit,
    .period = dyncta_period,
    .on_sample = dyncta_sample,
};
