/* GPGPU-Sim's two-level active scheduler (shader.cc, two_level_active_scheduler; the active and
 * pending pools of Gebhart et al., ISCA 2011): of a scheduler's warp slots, at most
 * two_level_active.warps are active and the rest wait in a FIFO pending queue. Every cycle
 * (order_warps) each active warp that waits on a long operation (no warp in the slot, a
 * barrier, or its next instruction reads a register with a long-operation mark:
 * two_level_active.long_op, GPGPU-Sim's marks that outlive the load by default, docs/policies.md)
 * goes to the back of the pending queue, in active order, and the front of
 * the queue refills the active pool, appended in queue order. Only active warps may issue, the
 * first ready one in active order; the pool is then rotated so the issued warp comes last
 * (do_on_warp_issued, loose round-robin inside: GPGPU-Sim's only inner order with strict
 * round-robin between, two_level_active:N:0:1).
 *
 * The pool starts as the scheduler's first slots in slot order, the queue as the rest
 * (add_supervised_warp_id), and the pool changes every cycle, also while nothing issues. The
 * SM sleeps through cycles where nothing can change; on_cycles replays the steps of those
 * cycles with the classification they had, in closed form once the pending queue holds only
 * waiting warps (then the waiting warps rotate through the pool by as many places a cycle as
 * the pool has waiting members). */
#include <stdbool.h>
#include <stdlib.h>

#include "core/policy.h"

#define LONG_OP_CHOICES(X, p) X(p, marked) X(p, inflight)
WT_CHOICE_ENUM(LONG_OP);
static const char *const long_op_names[] = WT_CHOICE_NAMES(LONG_OP);

static const param_def two_level_active_params[] = {
    {"two_level_active.warps", PT_INT, 8, 1, 64, NULL, "warps",
     "active warps per scheduler (GPGPU-Sim two_level_active:N; its tested configs use 8)"},
    {"two_level_active.long_op", PT_CHOICE, LONG_OP_marked, 0, 0, long_op_names, "",
     "which registers make a warp wait on a long operation: marked: GPGPU-Sim's longopregs, "
     "marked by a global load or atomic at its issue and unmarked only when an ALU or SFU "
     "instruction writing the register retires (the load's own writeback leaves the mark); "
     "inflight: while the global load or atomic that writes it is in flight"},
};

typedef struct tla {
    int cap;          /* active pool size */
    int long_op;      /* two_level_active.long_op */
    int n;            /* warp slots this scheduler supervises */
    int *active;      /* na slots, in priority order */
    int na;           /* active pool members */
    int *pend;        /* ring of n: pending queue, front at head */
    int head, np;     /* front index and length of the queue */
    int *ready_at;    /* per warp slot of the SM: index in this pick's ready list, or -1 */
    int *tmp;         /* n scratch slots */
    uint64_t stepped; /* the last cycle whose step is done, UINT64_MAX before the first */
    const warp_stalls *stalls;
} tla;

static int tla_create(void **self, const sched_env *env, const param_set *p, char *err,
                      size_t errlen)
{
    (void)err, (void)errlen;
    tla *s = calloc(1, sizeof *s);
    if (!s) return -1;
    int nsched = env->num_schedulers > 0 ? env->num_schedulers : 1;
    s->n = (env->max_warps - env->scheduler + nsched - 1) / nsched;
    s->cap = (int)param_get_int(p, "two_level_active.warps");
    s->long_op = param_get_choice_index(p, "two_level_active.long_op");
    s->active = malloc(((size_t)s->n + 1) * sizeof *s->active);
    s->pend = malloc(((size_t)s->n + 1) * sizeof *s->pend);
    s->tmp = malloc(((size_t)s->n + 1) * sizeof *s->tmp);
    s->ready_at = malloc(((size_t)env->max_warps + 1) * sizeof *s->ready_at);
    if (!s->active || !s->pend || !s->tmp || !s->ready_at) {
        free(s->active), free(s->pend), free(s->tmp), free(s->ready_at), free(s);
        return -1;
    }
    for (int i = 0; i < env->max_warps; i++)
        s->ready_at[i] = -1;
    for (int i = 0; i < s->n; i++) {
        int slot = env->scheduler + i * nsched;
        if (s->na < s->cap)
            s->active[s->na++] = slot;
        else
            s->pend[s->np++] = slot;
    }
    s->stepped = UINT64_MAX;
    s->stalls = env->stalls;
    *self = s;
    return 0;
}

static void tla_destroy(void *self)
{
    tla *s = self;
    free(s->active), free(s->pend), free(s->tmp), free(s->ready_at), free(s);
}

static bool waits(const tla *s, int slot)
{
    const warp_stalls *w = s->stalls;
    if (!w) return false;
    if (s->long_op == LONG_OP_marked && w->long_marked) return w->long_marked(w->ctx, slot);
    return w->long_wait ? w->long_wait(w->ctx, slot) : w->stalled(w->ctx, slot);
}

static int pend_at(const tla *s, int i)
{
    int k = s->head + i;
    return s->pend[k >= s->n ? k - s->n : k];
}

static void pend_push(tla *s, int slot)
{
    int k = s->head + s->np++;
    s->pend[k >= s->n ? k - s->n : k] = slot;
}

static int pend_pop(tla *s)
{
    int slot = s->pend[s->head];
    s->head = s->head + 1 == s->n ? 0 : s->head + 1;
    s->np--;
    return slot;
}

/* One cycle's order_warps: demote the waiting active warps, refill from the queue. Returns the
 * number demoted. */
static int step(tla *s)
{
    int kept = 0, demoted = 0;
    for (int i = 0; i < s->na; i++) {
        if (waits(s, s->active[i])) {
            pend_push(s, s->active[i]);
            demoted++;
        } else {
            s->active[kept++] = s->active[i];
        }
    }
    s->na = kept;
    while (s->na < s->cap && s->np > 0)
        s->active[s->na++] = pend_pop(s);
    return demoted;
}

/* k steps with the classification fixed. Stepping one at a time until the queue holds only
 * waiting warps; from then on the pool is its non-waiting warps followed by d waiting ones,
 * and each step moves the d to the back of the queue and the queue's first d into the pool:
 * the sequence (waiting pool members, then the queue) rotates by d. */
static void steps(tla *s, uint64_t k)
{
    while (k > 0) {
        int d = step(s);
        k--;
        if (d == 0) return; /* nothing moved: nothing will */
        bool pure = true;   /* the queue and the d just promoted all wait */
        for (int i = 0; i < s->np && pure; i++)
            pure = waits(s, pend_at(s, i));
        for (int i = s->na - d; i < s->na && pure; i++)
            pure = waits(s, s->active[i]);
        if (!pure || k == 0) continue;
        /* the pool ends with the d warps just promoted, all waiting */
        int m = d + s->np, first = s->na - d;
        for (int i = 0; i < d; i++)
            s->tmp[i] = s->active[first + i];
        for (int i = 0; i < s->np; i++)
            s->tmp[d + i] = pend_at(s, i);
        int r = (int)((k % (uint64_t)m) * (uint64_t)d % (uint64_t)m);
        for (int i = 0; i < d; i++)
            s->active[first + i] = s->tmp[(r + i) % m];
        s->head = 0;
        for (int i = 0; i < s->np; i++)
            s->pend[i] = s->tmp[(r + d + i) % m];
        return;
    }
}

/* Replays the steps of cycles [from, to) the SM slept through, after the last one done. */
static void tla_on_cycles(void *self, uint64_t from, uint64_t to)
{
    tla *s = self;
    uint64_t start = s->stepped == UINT64_MAX || from > s->stepped ? from : s->stepped + 1;
    if (to > start) steps(s, to - start);
    s->stepped = to - 1;
}

static int tla_pick(void *self, const warp_view *const *ready, int n, uint64_t now)
{
    tla *s = self;
    if (s->stepped == UINT64_MAX || now > s->stepped) {
        tla_on_cycles(s, s->stepped == UINT64_MAX ? now : s->stepped + 1, now);
        step(s); /* this cycle's, with this cycle's classification */
        s->stepped = now;
    }
    for (int i = 0; i < n; i++)
        s->ready_at[ready[i]->slot] = i;
    int pick = -1, at = -1;
    for (int i = 0; i < s->na && pick < 0; i++)
        if (s->ready_at[s->active[i]] >= 0) pick = s->ready_at[s->active[i]], at = i;
    for (int i = 0; i < n; i++)
        s->ready_at[ready[i]->slot] = -1;
    if (pick < 0) return -1;
    /* the warps after the issued one first, the issued one last */
    for (int i = 0; i < s->na; i++)
        s->tmp[i] = s->active[(at + 1 + i) % s->na];
    for (int i = 0; i < s->na; i++)
        s->active[i] = s->tmp[i];
    return pick;
}

const sched_ops sched_two_level_active_ops = {
    .name = "two_level_active",
    .doc = "GPGPU-Sim's two-level active scheduler: a pool of two_level_active.warps warps "
           "issues round-robin; warps waiting on a global load or a barrier swap out for the "
           "front of a FIFO pending queue every cycle",
    .params = two_level_active_params,
    .nparams = sizeof two_level_active_params / sizeof two_level_active_params[0],
    .create = tla_create,
    .destroy = tla_destroy,
    .pick = tla_pick,
    .retry_declined = true,
    .on_cycles = tla_on_cycles,
};
