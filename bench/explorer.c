/* Explorer benchmark.
 *
 * (1) Thread scaling: simulations per second evaluating the same configurations, from an empty
 *     memo, with 1, 2, 4, ... threads up to --threads-max (default 2; its value is measured
 *     too): for each, the speed-up and efficiency (speed-up / threads) against 1 thread, and
 *     the CPU seconds per simulation (spinning threads would show here). Every count runs in
 *     one process, side by side; the runtime waits passively (OMP_WAIT_POLICY=passive, set
 *     and started again as warptune explore does, unless the environment sets a policy).
 * (2) Search efficiency on a bundled space small enough to grid exhaustively (default:
 *     "default"): the grid is simulated once; every search then runs against that memo, so it
 *     costs no simulation, and is judged by
 *       - the evaluations (distinct feasible configurations, in the order proposed) it needs
 *         to reach 99% of the grid's best value of the first objective, searching that
 *         objective alone with the whole grid as budget;
 *       - the hypervolume of its front over every objective with a budget of 10%, 25% and
 *         50% of the grid, as a share of the grid front's hypervolume (same reference point);
 *     each the median of five seeds. NLopt run 0 starts from the reference configuration; the
 *     benchmark moves the explored parameters of the reference to their lowest levels, so no
 *     search starts on a good point.
 *
 * The hypervolume reference point is the grid's worst feasible value of each objective
 * (normalised). --journal FILE keeps the efficiency part's simulations for the next run.
 *
 * usage: explorer [--space NAME|FILE] [--seeds N] [--threads-max N] [--scaling-points N]
 *                 [--journal FILE] [--skip-scaling] [--skip-efficiency] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "explorer/evaluator.h"
#include "explorer/explore.h"
#include "explorer/search.h"
#include "explorer/space.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static int scaling(space *s, size_t npoints, int tmax)
{
    proposal_list props = {0};
    search_info info;
    char err[1024];
    /* the configurations: the first npoints feasible points of the grid, spread over it */
    space_search saved = s->search;
    s->search.kind = SEARCH_LHS;
    s->search.max_evaluations = npoints;
    evaluator *dummy = evaluator_new(s, NULL, 1, err, sizeof err);
    if (!dummy) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    /* LHS proposals without simulating: stop the evaluator first */
    evaluator_set_deadline(dummy, 1e-9);
    if (search_run(s, dummy, NULL, &props, &info, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    evaluator_free(dummy);
    s->search = saved;
    param_set **cfgs = malloc(props.n * sizeof *cfgs);
    size_t n = 0;
    for (size_t i = 0; i < props.n; i++)
        if (!(props.p[i].violation > 0)) cfgs[n++] = props.p[i].cfg;
    const eval_entry **res = malloc(n * s->nworkloads * sizeof *res);
    printf("thread scaling: %zu configurations x %zu workloads = %zu simulations (space %s)\n", n,
           s->nworkloads, n * s->nworkloads, s->name);
    printf("  %-8s %8s %10s %9s %10s %12s %6s\n", "threads", "wall s", "sims/s", "speed-up",
           "efficiency", "CPU s/sim", "cores");
    double base = 0;
    for (int t = 1; t <= tmax; t = t * 2 > tmax && t < tmax ? tmax : t * 2) {
        evaluator *ev = evaluator_new(s, NULL, t, err, sizeof err);
        double t0 = now();
        clock_t c0 = clock();
        evaluator_batch(ev, cfgs, n, res);
        double dt = now() - t0;
        double cpu = (double)(clock() - c0) / CLOCKS_PER_SEC;
        eval_counts c = evaluator_counts(ev);
        double rate = (double)c.simulated / dt;
        if (t == 1) base = rate;
        /* CPU seconds over wall seconds (cores): below the thread count when other processes
         * share the cores; CPU per simulation grows with the threads when they spin */
        printf("  %-8d %8.2f %10.2f %8.2fx %10.2f %12.4f %6.2f\n", t, dt, rate, rate / base,
               rate / base / t, c.simulated ? cpu / (double)c.simulated : 0, cpu / dt);
        evaluator_free(ev);
    }
    free(res);
    free(cfgs);
    proposal_list_free(&props);
    return 0;
}

typedef struct grid_facts {
    double best;                        /* best value of objective 0 (natural units) */
    size_t feasible;                    /* feasible grid points */
    double hv;                          /* grid front hypervolume */
    double point[SPACE_MAX_OBJECTIVES]; /* hypervolume reference point */
} grid_facts;

static int run_search(space *s, evaluator *ev, const double *ref, archive *a, char *err,
                      size_t errlen)
{
    proposal_list props = {0};
    search_info info;
    if (search_run(s, ev, ref, &props, &info, err, errlen) != 0) return -1;
    int rc = archive_build(s, ev, &props, ref, NULL, a, err, errlen);
    proposal_list_free(&props);
    return rc;
}

/* evaluations (feasible points in archive order) until objective 0 reaches 99% of best */
static double evals_to_99(const space *s, const archive *a, double best)
{
    size_t k = 0;
    int max = s->objectives[0].maximise;
    for (size_t i = 0; i < a->n; i++) {
        if (a->p[i].status == PS_INFEASIBLE) continue;
        k++;
        if (a->p[i].status != PS_OK) continue;
        double v = a->p[i].obj[0];
        if (max ? v >= 0.99 * best : v <= best / 0.99) return (double)k;
    }
    return HUGE_VAL;
}

static int efficiency(space *s, int seeds, int threads, const char *journal)
{
    char err[2048];
    if (s->search.kind != SEARCH_GRID && space_grid_size(s) > 5000) {
        fprintf(stderr, "space %s is too large to grid\n", s->name);
        return -1;
    }
    for (size_t d = 0; d < s->ndims; d++) {
        if (s->dims[d].kind == DIM_REAL) {
            fprintf(stderr, "the efficiency benchmark needs discrete dimensions only\n");
            return -1;
        }
        param_set_value(s->base, s->dims[d].name, space_level_value(&s->dims[d], 0), err,
                        sizeof err);
    }
    evaluator *ev = evaluator_new(s, journal, threads, err, sizeof err);
    if (!ev) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    double ref[SPACE_MAX_OBJECTIVES];
    explore_reference(s, ev, ref);
    space_search saved = s->search;
    s->search.kind = SEARCH_GRID;
    archive grid;
    double t0 = now();
    if (run_search(s, ev, ref, &grid, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    grid_facts g = {0};
    g.best = s->objectives[0].maximise ? -HUGE_VAL : HUGE_VAL;
    for (size_t i = 0; i < grid.n; i++) {
        if (grid.p[i].status == PS_INFEASIBLE) continue;
        g.feasible++;
        if (grid.p[i].status != PS_OK) continue;
        double v = grid.p[i].obj[0];
        if (s->objectives[0].maximise ? v > g.best : v < g.best) g.best = v;
    }
    /* the reference point: the grid's worst feasible value of each objective (normalised),
     * so the share measures the front itself rather than the space far behind it */
    for (size_t k = 0; k < s->nobjectives; k++) {
        g.point[k] = -HUGE_VAL;
        for (size_t i = 0; i < grid.n; i++)
            if (grid.p[i].status == PS_OK) g.point[k] = fmax(g.point[k], grid.p[i].norm[k]);
    }
    g.hv = archive_hypervolume(s, &grid, grid.n, g.point);
    printf("\nsearch efficiency on space %s: grid of %zu points (%zu feasible), %zu simulations "
           "in %.1f s; best %s %.6g; grid front %zu points, hypervolume %.6g\n",
           s->name, grid.n, g.feasible, evaluator_counts(ev).simulated, now() - t0,
           s->objectives[0].name, g.best, grid.nfront, g.hv);
    archive_free(&grid);
    static const char *const strategies[] = {"random", "lhs",   "DIRECT-L",   "CRS2-LM",
                                             "ISRES",  "ESCH",  "MLSL-LDS",   "BOBYQA",
                                             "COBYLA", "Sbplx", "Nelder-Mead"};
    static const double fracs[] = {0.10, 0.25, 0.50};
    printf("median of %d seeds; evaluations = distinct feasible configurations proposed\n", seeds);
    printf("%-12s %16s %8s   %-26s\n", "strategy", "evals to 99%", "(% grid)",
           "hypervolume / grid's at 10% 25% 50% of the grid");
    for (size_t k = 0; k < sizeof strategies / sizeof strategies[0]; k++) {
        double e99[64], hv[3][64];
        for (int seed = 1; seed <= seeds; seed++) {
            char kv[128];
            snprintf(kv, sizeof kv, "search.strategy=%s", strategies[k]);
            if (space_override(s, kv, err, sizeof err) != 0) {
                fprintf(stderr, "%s\n", err);
                return -1;
            }
            s->search.seed = (uint64_t)seed;
            /* single objective, the whole grid as budget */
            size_t m = s->nobjectives;
            s->nobjectives = 1;
            s->search.max_evaluations = g.feasible;
            archive a;
            if (run_search(s, ev, ref, &a, err, sizeof err) != 0) {
                fprintf(stderr, "%s: %s\n", strategies[k], err);
                return -1;
            }
            s->nobjectives = m;
            e99[seed - 1] = evals_to_99(s, &a, g.best);
            archive_free(&a);
            for (size_t f = 0; f < 3; f++) {
                s->search.max_evaluations = (size_t)ceil(fracs[f] * (double)g.feasible);
                if (run_search(s, ev, ref, &a, err, sizeof err) != 0) {
                    fprintf(stderr, "%s: %s\n", strategies[k], err);
                    return -1;
                }
                hv[f][seed - 1] = m <= 3 ? archive_hypervolume(s, &a, a.n, g.point) / g.hv : NAN;
                archive_free(&a);
            }
        }
        double me = median(e99, (size_t)seeds);
        char ebuf[32], pbuf[32];
        if (isfinite(me)) {
            snprintf(ebuf, sizeof ebuf, "%.1f", me);
            snprintf(pbuf, sizeof pbuf, "(%.0f%%)", 100 * me / (double)g.feasible);
        } else {
            snprintf(ebuf, sizeof ebuf, "not reached");
            snprintf(pbuf, sizeof pbuf, "-");
        }
        printf("%-12s %16s %8s   %6.3f %6.3f %6.3f\n", strategies[k], ebuf, pbuf,
               median(hv[0], (size_t)seeds), median(hv[1], (size_t)seeds),
               median(hv[2], (size_t)seeds));
        fflush(stdout);
    }
    s->search = saved;
    printf("simulations in the whole benchmark: %zu (searches after the grid reuse its memo)\n",
           evaluator_counts(ev).simulated);
    evaluator_free(ev);
    return 0;
}

int main(int argc, char **argv)
{
    if (!getenv("OMP_WAIT_POLICY") && setenv("OMP_WAIT_POLICY", "passive", 1) == 0)
        execv("/proc/self/exe", argv);
    const char *name = "default";
    int seeds = 5, tmax = 2, do_scaling = 1, do_eff = 1;
    size_t npoints = 24;
    const char *journal = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--space") && i + 1 < argc)
            name = argv[++i];
        else if (!strcmp(argv[i], "--seeds") && i + 1 < argc)
            seeds = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--threads-max") && i + 1 < argc)
            tmax = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--scaling-points") && i + 1 < argc)
            npoints = (size_t)atol(argv[++i]);
        else if (!strcmp(argv[i], "--journal") && i + 1 < argc)
            journal = argv[++i];
        else if (!strcmp(argv[i], "--skip-scaling"))
            do_scaling = 0;
        else if (!strcmp(argv[i], "--skip-efficiency"))
            do_eff = 0;
        else {
            fprintf(stderr, "usage: explorer [--space NAME|FILE] [--seeds N] [--threads-max N] "
                            "[--scaling-points N] [--journal FILE] [--skip-scaling] "
                            "[--skip-efficiency]\n");
            return 2;
        }
    }
    if (seeds < 1 || seeds > 64 || tmax < 1) {
        fprintf(stderr, "explorer: --seeds in [1, 64], --threads-max >= 1\n");
        return 2;
    }
    char err[2048];
    space *s = space_load(name, err, sizeof err);
    if (!s) {
        fprintf(stderr, "explorer: %s\n", err);
        return 2;
    }
    int rc = 0;
    if (do_scaling && scaling(s, npoints, tmax) != 0) rc = 1;
    if (do_eff && efficiency(s, seeds, tmax, journal) != 0) rc = 1;
    space_free(s);
    return rc;
}
