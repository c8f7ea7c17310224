/* NLopt searches: one independent NLopt run per scalarisation, each an OpenMP task with its
 * own nlopt_opt, its own seed and its own share of the budget (see search.h on determinism). */
#include <math.h>
#include <nlopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "core/util/rng.h"
#include "explorer/search.h"

#define RHO            0.05 /* augmentation of the Chebyshev scalarisation */
#define MAX_RESTARTS   200
#define MAX_IDLE       3
#define MAX_TOPUP_RUNS 8 /* runs after the first ones, to make up for their repeats */

typedef struct nl_run {
    const space *s;
    evaluator *ev;
    const double *ref;
    unsigned index;
    double w[SPACE_MAX_OBJECTIVES];
    size_t budget;  /* distinct feasible configurations this run may propose */
    uint64_t *seen; /* the hashes of the configurations it proposed, in order (a run that
                     * tops the study up starts with every earlier run's: see search_nlopt) */
    size_t nseen, capseen;
    size_t nfeasible; /* of its own proposals, the feasible ones */
    size_t calls;     /* objective evaluations, repeats included */
    proposal_list props;
    double worst; /* largest feasible scalarised value so far: the base of penalties */
    int stop;     /* budget reached, stopped or out of memory */
    int oom;
    nlopt_opt opt;
    param_set *cfg; /* scratch */
    const eval_entry **res;
    size_t restarts;
    nlopt_result last;
    /* MLSL-LDS draws its points from a Sobol sequence NLopt does not seed: the run shifts the
     * cube by a seeded vector (modulo 1, a Cranley-Patterson rotation) so that the study's seed
     * chooses the points as with every other strategy; 0 for the other algorithms */
    int shifted;
    double shift[64];
} nl_run;

/* The point of the space the optimiser's x stands for (the rotation of MLSL-LDS). */
static const double *run_x(const nl_run *r, const double *x, double *buf)
{
    if (!r->shifted) return x;
    for (size_t d = 0; d < r->s->ndims; d++) {
        double v = x[d] + r->shift[d];
        buf[d] = v >= 1 ? v - 1 : v;
    }
    return buf;
}

typedef struct nl_con {
    nl_run *run;
    size_t index;
} nl_con;

static int seen_has(const nl_run *r, uint64_t h)
{
    for (size_t i = r->nseen; i-- > 0;)
        if (r->seen[i] == h) return 1;
    return 0;
}

static int seen_add(nl_run *r, uint64_t h)
{
    if (r->nseen == r->capseen) {
        size_t cap = r->capseen ? r->capseen * 2 : 64;
        uint64_t *t = realloc(r->seen, cap * sizeof *t);
        if (!t) return -1;
        r->seen = t;
        r->capseen = cap;
    }
    r->seen[r->nseen++] = h;
    return 0;
}

static double scalarise(const nl_run *r, const double *obj)
{
    const space *s = r->s;
    double mx = -HUGE_VAL, sum = 0;
    for (size_t i = 0; i < s->nobjectives; i++) {
        double n = search_normalised(s, i, obj[i], r->ref ? r->ref[i] : NAN);
        double t = r->w[i] * n;
        if (t > mx) mx = t;
        sum += t;
    }
    return mx + RHO * sum;
}

static double penalty(const nl_run *r, double violation)
{
    return r->worst + 1 + (violation > 0 && isfinite(violation) ? violation : 0);
}

static void halt(nl_run *r)
{
    r->stop = 1;
    nlopt_force_stop(r->opt);
}

static double objective(unsigned n, const double *x, double *grad, void *data)
{
    (void)n;
    (void)grad;
    nl_run *r = data;
    const space *s = r->s;
    r->calls++;
    if (r->stop || evaluator_stopped(r->ev)) {
        halt(r);
        return penalty(r, 0);
    }
    param_set *cfg = r->cfg;
    char err[256];
    double xb[64];
    if (space_decode(s, run_x(r, x, xb), cfg, err, sizeof err) != 0) return penalty(r, 1);
    uint64_t h = param_set_hash(cfg);
    double v = space_violation(s, cfg, NULL);
    if (!seen_has(r, h)) {
        if (r->nfeasible >= r->budget) {
            halt(r);
            return penalty(r, 0);
        }
        param_set *copy = param_set_clone(cfg);
        if (!copy || seen_add(r, h) != 0 ||
            proposal_add(&r->props, copy, r->index, v > 0 ? v : 0) != 0) {
            r->oom = 1;
            halt(r);
            return penalty(r, 0);
        }
        r->nfeasible += !(v > 0);
    }
    if (v > 0) return penalty(r, v);
    if (evaluator_point(r->ev, cfg, r->res) != 0) {
        halt(r);
        return penalty(r, 0);
    }
    double obj[SPACE_MAX_OBJECTIVES];
    if (search_objectives(s, r->res, obj) != 0) return penalty(r, 0);
    double f = scalarise(r, obj);
    if (!isfinite(f)) return penalty(r, 0);
    if (f > r->worst) r->worst = f;
    return f;
}

static double constraint(unsigned n, const double *x, double *grad, void *data)
{
    (void)n;
    (void)grad;
    nl_con *c = data;
    char err[256];
    nl_run *r = c->run;
    double xb[64];
    if (space_decode(r->s, run_x(r, x, xb), r->cfg, err, sizeof err) != 0) return 1;
    double *g = malloc(r->s->nconstraints * sizeof *g);
    if (!g) return 1;
    space_violation(r->s, r->cfg, g);
    double v = g[c->index];
    free(g);
    return isfinite(v) ? v : 1e30;
}

static int takes_constraints(nlopt_algorithm a)
{
    return a == NLOPT_LN_COBYLA || a == NLOPT_GN_ISRES || a == NLOPT_GN_ORIG_DIRECT ||
           a == NLOPT_GN_ORIG_DIRECT_L;
}

static int is_local(nlopt_algorithm a)
{
    return a == NLOPT_LN_BOBYQA || a == NLOPT_LN_COBYLA || a == NLOPT_LN_SBPLX ||
           a == NLOPT_LN_NELDERMEAD || a == NLOPT_LN_NEWUOA_BOUND || a == NLOPT_LN_PRAXIS;
}

static void set_tolerances(nlopt_opt o, const space *s)
{
    double *tol = malloc(s->ndims * sizeof *tol);
    if (!tol) return;
    /* stop refining below the width of a level: rounding makes anything finer flat */
    for (size_t d = 0; d < s->ndims; d++)
        tol[d] = s->dims[d].kind == DIM_REAL ? 1e-4 : 0.25 / (double)s->dims[d].nlevels;
    nlopt_set_xtol_abs(o, tol);
    free(tol);
}

/* One NLopt run: restarts from fresh points until its budget is spent or it stops finding
 * new configurations. */
static void run_one(nl_run *r)
{
    const space *s = r->s;
    nlopt_algorithm alg = (nlopt_algorithm)s->search.nlopt_algorithm;
    unsigned n = (unsigned)s->ndims;
    double *x = malloc(n * sizeof *x), *lb = malloc(n * sizeof *lb), *ub = malloc(n * sizeof *ub);
    nl_con *cons = calloc(s->nconstraints ? s->nconstraints : 1, sizeof *cons);
    r->cfg = param_set_clone(s->base);
    r->res = calloc(s->nworkloads, sizeof *r->res);
    wt_rng rng;
    wt_rng_seed(&rng, s->search.seed * 0x9e3779b97f4a7c15ULL ^ (0x5851f42d4c957f2dULL + r->index));
    if (!x || !lb || !ub || !cons || !r->cfg || !r->res) {
        r->oom = 1;
        goto out;
    }
    r->shifted = alg == NLOPT_G_MLSL_LDS;
    for (unsigned d = 0; d < n; d++) {
        lb[d] = 0;
        ub[d] = 1;
        x[d] = space_dim_coord(&s->dims[d], param_get_shown(s->base, s->dims[d].param));
        if (r->shifted) { /* run 0 still starts from the reference configuration */
            r->shift[d] = wt_rng_unit(&rng);
            x[d] = x[d] >= r->shift[d] ? x[d] - r->shift[d] : x[d] - r->shift[d] + 1;
        }
    }
    r->worst = 1;
    size_t idle = 0;
    for (size_t restart = 0; restart < MAX_RESTARTS && !r->stop && r->nfeasible < r->budget;
         restart++) {
        size_t before = r->nseen;
        r->opt = nlopt_create(alg, n);
        nlopt_opt local = NULL;
        if (!r->opt) {
            r->oom = 1;
            break;
        }
        nlopt_set_lower_bounds(r->opt, lb);
        nlopt_set_upper_bounds(r->opt, ub);
        nlopt_set_min_objective(r->opt, objective, r);
        nlopt_set_maxeval(r->opt, (int)(50 * r->budget + 1000));
        /* local algorithms stop refining below a level; global ones run to their budget */
        if (is_local(alg)) {
            set_tolerances(r->opt, s);
            nlopt_set_initial_step1(r->opt, 0.25);
        }
        if (alg == NLOPT_G_MLSL || alg == NLOPT_G_MLSL_LDS) {
            local = nlopt_create(NLOPT_LN_BOBYQA, n);
            if (local) {
                set_tolerances(local, s);
                nlopt_set_initial_step1(local, 0.1);
                nlopt_set_maxeval(local, (int)(10 * (n + 1)));
                nlopt_set_local_optimizer(r->opt, local);
            }
        }
        if (takes_constraints(alg))
            for (size_t i = 0; i < s->nconstraints; i++) {
                cons[i] = (nl_con){r, i};
                nlopt_add_inequality_constraint(r->opt, constraint, &cons[i], 0);
            }
        /* run 0 starts from the reference configuration, the others and every restart from
         * a point drawn from the run's own generator */
        if (restart > 0 || r->index > 0)
            for (unsigned d = 0; d < n; d++)
                x[d] = wt_rng_unit(&rng);
        nlopt_srand((unsigned long)(s->search.seed * 1000003ULL + r->index * 7919ULL + restart));
        double f;
        r->last = nlopt_optimize(r->opt, x, &f);
        nlopt_destroy(local);
        nlopt_destroy(r->opt);
        r->opt = NULL;
        r->restarts++;
        if (r->last < 0 && r->last != NLOPT_FORCED_STOP && r->last != NLOPT_ROUNDOFF_LIMITED) break;
        idle = r->nseen == before ? idle + 1 : 0;
        if (idle >= MAX_IDLE) break;
    }
out:
    free(x);
    free(lb);
    free(ub);
    free(cons);
    param_set_free(r->cfg);
    r->cfg = NULL;
    free(r->res);
    r->res = NULL;
}

/* Proposes up to `need` new feasible configurations drawn uniformly (the run's own seeded
 * generator), none of r->seen, and evaluates them at once. Returns 0, or -1 out of memory. */
static int random_fill(const space *s, evaluator *ev, nl_run *r, size_t need)
{
    wt_rng rng;
    wt_rng_seed(&rng, s->search.seed * 0x9e3779b97f4a7c15ULL ^ (0x2545f4914f6cdd1dULL + r->index));
    double x[64];
    char err[256];
    for (size_t tries = 0; r->nfeasible < need && tries < 100 * need + 1000; tries++) {
        for (size_t d = 0; d < s->ndims; d++)
            x[d] = wt_rng_unit(&rng);
        param_set *cfg = param_set_clone(s->base);
        if (!cfg) return -1;
        if (space_decode(s, x, cfg, err, sizeof err) != 0 || seen_has(r, param_set_hash(cfg)) ||
            space_violation(s, cfg, NULL) > 0) {
            param_set_free(cfg);
            continue;
        }
        if (seen_add(r, param_set_hash(cfg)) != 0 || proposal_add(&r->props, cfg, r->index, 0) != 0)
            return -1;
        r->nfeasible++;
    }
    param_set **cfgs = malloc((r->props.n ? r->props.n : 1) * sizeof *cfgs);
    const eval_entry **res = malloc((r->props.n ? r->props.n : 1) * s->nworkloads * sizeof *res);
    if (!cfgs || !res) {
        free(cfgs);
        free(res);
        return -1;
    }
    for (size_t i = 0; i < r->props.n; i++)
        cfgs[i] = r->props.p[i].cfg;
    evaluator_batch(ev, cfgs, r->props.n, res);
    free(cfgs);
    free(res);
    return 0;
}

/* Weight vectors: for two objectives evenly spaced from (1,0) to (0,1); otherwise the equal
 * weights, then each objective alone (mostly), then draws from the study's generator. */
static void make_weights(const space *s, size_t runs, double *w)
{
    size_t m = s->nobjectives;
    wt_rng rng;
    wt_rng_seed(&rng, s->search.seed ^ 0xd1b54a32d192ed03ULL);
    for (size_t r = 0; r < runs; r++) {
        double *v = w + r * m;
        if (m == 1) {
            v[0] = 1;
        } else if (m == 2) {
            double t = runs > 1 ? (double)r / (double)(runs - 1) : 0.5;
            v[0] = 1 - t;
            v[1] = t;
        } else if (r == 0) {
            for (size_t i = 0; i < m; i++)
                v[i] = 1.0 / (double)m;
        } else if (r <= m) {
            for (size_t i = 0; i < m; i++)
                v[i] = i == r - 1 ? 1 : 0;
        } else {
            double sum = 0;
            for (size_t i = 0; i < m; i++)
                sum += v[i] = -log(1 - wt_rng_unit(&rng)); /* flat Dirichlet */
            for (size_t i = 0; i < m; i++)
                v[i] /= sum;
        }
        for (size_t i = 0; i < m; i++)
            if (v[i] < 1e-3) v[i] = 1e-3; /* a zero weight would ignore an objective entirely */
    }
}

int search_nlopt(const space *s, evaluator *ev, const double *ref, proposal_list *out,
                 search_info *info, char *err, size_t errlen)
{
    err[0] = '\0';
    size_t runs = s->nobjectives > 1 ? s->search.scalarisations : 1;
    size_t budget = s->search.max_evaluations;
    /* a run needs room to move: at least 2(d+1) configurations each; DIRECT ignores the
     * starting point and samples the same centres and thirds first whatever the weights, so
     * its runs only part ways late: give each at least 10(d+1) */
    nlopt_algorithm alg = (nlopt_algorithm)s->search.nlopt_algorithm;
    int direct = alg == NLOPT_GN_DIRECT || alg == NLOPT_GN_DIRECT_L ||
                 alg == NLOPT_GN_DIRECT_L_RAND || alg == NLOPT_GN_ORIG_DIRECT ||
                 alg == NLOPT_GN_ORIG_DIRECT_L;
    size_t least = (direct ? 10 : 2) * (s->ndims + 1);
    if (runs > budget / least) runs = budget / least;
    if (runs == 0) runs = 1;
    nl_run *r = calloc(runs, sizeof *r);
    double *w = calloc(runs * s->nobjectives, sizeof *w);
    if (!r || !w) {
        free(r);
        free(w);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    make_weights(s, runs, w);
    uint64_t refhash = param_set_hash(s->base);
    for (size_t i = 0; i < runs; i++) {
        r[i].s = s;
        r[i].ev = ev;
        r[i].ref = ref;
        r[i].index = (unsigned)i;
        memcpy(r[i].w, w + i * s->nobjectives, s->nobjectives * sizeof *w);
        r[i].budget = budget / runs + (i < budget % runs);
        /* the reference configuration is the study's point 0, evaluated before the search: a
         * run that meets it (run 0 starts there) evaluates it from the memo and does not count
         * it against its budget */
        if (seen_add(&r[i], refhash) != 0) {
            for (size_t k = 0; k <= i; k++)
                free(r[k].seen);
            free(r);
            free(w);
            snprintf(err, errlen, "out of memory");
            return -1;
        }
    }
#ifdef _OPENMP
#pragma omp parallel num_threads(evaluator_threads(ev)) default(none) shared(r, runs)
#pragma omp single
#endif
    for (size_t i = 0; i < runs; i++) {
#ifdef _OPENMP
#pragma omp task firstprivate(i) shared(r) default(none)
#endif
        run_one(&r[i]);
    }
    /* The runs are independent (so their results do not depend on timing) and each proposes a
     * configuration once, but two runs may propose the same one: the study then holds fewer
     * distinct feasible configurations than its budget. Further runs make up the difference,
     * one at a time (so deterministically), each knowing every configuration proposed before
     * and counting only new feasible ones, until the budget is met, a run finds nothing new (the
     * space holds no more) or the study stops. */
    size_t total = runs, distinct = 0;
    uint64_t *all = NULL;
    size_t nall = 0;
    nl_run *more = NULL;
    for (;;) {
        free(all);
        all = NULL;
        nall = 0;
        size_t cap = 0;
        for (size_t i = 0; i < total; i++)
            cap += r[i].props.n;
        all = malloc((cap + 1) * sizeof *all);
        if (!all) break;
        all[nall++] = refhash; /* seen, never counted: see above */
        distinct = 0;
        for (size_t i = 0; i < total; i++)
            for (size_t k = 0; k < r[i].props.n; k++) {
                uint64_t h = r[i].props.p[k].hash;
                int dup = 0;
                for (size_t j = 0; j < nall && !dup; j++)
                    dup = all[j] == h;
                if (dup) continue;
                all[nall++] = h;
                distinct += !(r[i].props.p[k].violation > 0);
            }
        if (distinct >= budget || evaluator_stopped(ev) || total >= runs + MAX_TOPUP_RUNS) break;
        if (total > runs && r[total - 1].nfeasible == 0) break; /* nothing new left to find */
        if (direct) break; /* DIRECT samples the same points from any start */
        more = realloc(r, (total + 1) * sizeof *r);
        if (!more) break;
        r = more;
        nl_run *t = &r[total];
        memset(t, 0, sizeof *t);
        t->s = s;
        t->ev = ev;
        t->ref = ref;
        t->index = (unsigned)total;
        memcpy(t->w, w + (total % runs) * s->nobjectives, s->nobjectives * sizeof *w);
        t->budget = budget - distinct;
        t->seen = all; /* every configuration proposed so far counts as seen */
        t->nseen = t->capseen = nall;
        all = NULL;
        total++;
        run_one(t);
    }
    /* What the runs could not find, seeded random sampling finds: a last run of new feasible
     * configurations drawn uniformly, evaluated together. */
    if (all && distinct < budget && !evaluator_stopped(ev)) {
        more = realloc(r, (total + 1) * sizeof *r);
        if (more) {
            r = more;
            nl_run *t = &r[total];
            memset(t, 0, sizeof *t);
            t->index = (unsigned)total;
            memcpy(t->w, w, s->nobjectives * sizeof *w);
            t->seen = all;
            t->nseen = t->capseen = nall;
            all = NULL;
            total++;
            if (random_fill(s, ev, t, budget - distinct) != 0) t->oom = 1;
        }
    }
    free(all);
    int rc = 0;
    info->runs = total;
    for (size_t i = 0; i < total; i++) {
        info->restarts += r[i].restarts;
        if (i * s->nobjectives + s->nobjectives <= sizeof info->weights / sizeof(double))
            memcpy(info->weights + i * s->nobjectives, r[i].w, s->nobjectives * sizeof(double));
        if (r[i].oom) rc = -1;
        if (i == 0)
            snprintf(info->nlopt_result, sizeof info->nlopt_result, "%s",
                     nlopt_result_to_string(r[i].last));
        if (r[i].last < 0 && r[i].last != NLOPT_FORCED_STOP &&
            r[i].last != NLOPT_ROUNDOFF_LIMITED && rc == 0 && i < runs && r[i].calls == 0) {
            snprintf(err, errlen, "NLopt %s failed: %s", s->search.algorithm,
                     nlopt_result_to_string(r[i].last));
            rc = -1;
        }
        /* the archive: runs in order, each in the order it proposed */
        for (size_t k = 0; k < r[i].props.n; k++) {
            if (rc == 0 && proposal_add(out, r[i].props.p[k].cfg, r[i].props.p[k].run,
                                        r[i].props.p[k].violation) != 0)
                rc = -1;
            else if (rc != 0)
                param_set_free(r[i].props.p[k].cfg);
            r[i].props.p[k].cfg = NULL;
        }
        free(r[i].props.p);
        free(r[i].seen);
    }
    if (rc && !err[0]) snprintf(err, errlen, "out of memory");
    free(r);
    free(w);
    return rc;
}
