#include "core/cpl.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct cpl_warp {
    bool live;
    int cta_slot;
    uint64_t start;
    uint64_t issued;
    int64_t n_inst;   /* relative instruction-count disparity */
    uint64_t n_stall; /* stall cycles between consecutive instructions */
} cpl_warp;

struct cpl {
    int max_warps;
    cpl_warp *w;
};

const param_group cpl_param_group = {"cpl", NULL, 0};

int cpl_create(cpl **out, int max_warps, const param_set *p, char *err, size_t errlen)
{
    (void)p;
    cpl *c = calloc(1, sizeof *c);
    if (c) c->w = calloc((size_t)max_warps, sizeof *c->w);
    if (!c || !c->w) {
        free(c);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    c->max_warps = max_warps;
    *out = c;
    return 0;
}

void cpl_destroy(cpl *c)
{
    if (!c) return;
    free(c->w);
    free(c);
}

void cpl_warp_start(cpl *c, int warp, int cta_slot, uint64_t now)
{
    c->w[warp] = (cpl_warp){.live = true, .cta_slot = cta_slot, .start = now};
}

void cpl_on_issue(cpl *c, int warp, uint64_t now)
{
    (void)now;
    /* Committing an instruction is progress (CAWA 3.1). */
    c->w[warp].issued++;
    c->w[warp].n_inst--;
}

void cpl_on_stall(cpl *c, int warp, uint32_t cycles)
{
    c->w[warp].n_stall += cycles;
}

void cpl_on_branch(cpl *c, const branch_event *b)
{
    /* The path the warp now takes: to the target (taken), past the fall-through, or both
     * sides up to reconvergence when it diverged (Alg. 2). */
    cpl_warp *w = &c->w[b->warp_slot];
    uint32_t next = b->taken_mask ? b->target_pc : b->fallthru_pc;
    int64_t delta =
        b->diverged ? (int64_t)b->reconv_pc - (int64_t)b->pc : (int64_t)next - (int64_t)b->pc;
    if (delta < 0) delta = -delta;
    w->n_inst += delta + 1;
}

void cpl_warp_exit(cpl *c, int warp, uint64_t now)
{
    (void)now;
    c->w[warp].live = false;
}

int64_t cpl_criticality(const cpl *c, int warp)
{
    const cpl_warp *w = &c->w[warp];
    /* eq. 1 with CPI_avg in fixed point: the warp's cycles per instruction so far */
    int64_t cpi_x16 = w->issued ? (int64_t)(16 * (w->n_stall + w->issued) / w->issued) : 16;
    return w->n_inst * cpi_x16 / 16 + (int64_t)w->n_stall;
}

bool cpl_is_critical(const cpl *c, int warp)
{
    int64_t mine = cpl_criticality(c, warp);
    int below = 0, others = 0;
    for (int i = 0; i < c->max_warps; i++) {
        if (i == warp || !c->w[i].live || c->w[i].cta_slot != c->w[warp].cta_slot) continue;
        others++;
        below += cpl_criticality(c, i) < mine;
    }
    return others == 0 || 2 * below >= others;
}

void cpl_collect(const cpl *c, sim_metrics *m)
{
    (void)c, (void)m;
}
