/* warptune explore --validate: a space's shape and the feasibility of its grid under its
 * constraints, for one space or every bundled one, without simulating. */
#include "explorer/explore_internal.h"

#include <stdio.h>
#include <string.h>

static void explore_warn(const explore_options *o, const char *msg)
{
    if (o->warn) o->warn(o->warn_ctx, msg);
}

/* The --validate report of one space: its shape and, with constraints, how many grid points
 * satisfy them. A grid checked whole with none feasible is an error (the study could not
 * evaluate anything); a sample with none is a warning. Returns a status, with err when it is
 * not EXPLORE_OK. */
explore_status explore_validate_space(const explore_options *o, const space *s, char *err,
                                      size_t errlen)
{
    char msg[1024], feasible[160] = "";
    size_t tried = 0, ok = 0, n = space_grid_size(s);
    if (s->nconstraints) {
        if (space_count_feasible(s, EXPLORE_VALIDATE_MAX_POINTS, &tried, &ok, msg, sizeof msg) !=
            0) {
            snprintf(err, errlen, "%s: %s", s->file, msg);
            return EXPLORE_BAD_INPUT;
        }
        if (ok == 0 && tried == n) {
            snprintf(err, errlen,
                     "%s: constraints: no point of the %zu-point grid satisfies them (expected "
                     "at least one feasible configuration)",
                     s->file, n);
            return EXPLORE_BAD_INPUT;
        }
        if (ok == 0) {
            snprintf(msg, sizeof msg,
                     "%s: warning: constraints: none of %zu grid points spread over the space "
                     "satisfies them",
                     s->file, tried);
            explore_warn(o, msg);
        }
        snprintf(feasible, sizeof feasible, ", %zu of %zu %spoints feasible", ok, tried,
                 tried == n ? "" : "sampled grid ");
    }
    char design[128] = ""; /* a sensitivity study's design, which is what it simulates */
    if (search_is_sensitivity(s->search.kind))
        snprintf(design, sizeof design, ": %zu %s, %zu design points", s->search.max_evaluations,
                 s->search.kind == SEARCH_MORRIS ? "trajectories" : "base samples",
                 sens_design_points(s->search.kind == SEARCH_MORRIS ? SENS_MORRIS : SENS_SOBOL,
                                    s->ndims, s->search.max_evaluations));
    printf("%s: ok (%zu parameters, grid of %zu points%s, %zu workloads, %s%s)\n", s->file,
           s->ndims, n, feasible, s->nworkloads,
           s->search.kind == SEARCH_NLOPT ? s->search.algorithm : search_kind_name(s->search.kind),
           design);
    return EXPLORE_OK;
}

/* Appends msg to err as a line of its own: --validate of the bundled spaces goes on past a
 * space that fails and reports every one. */
static void add_error_line(char *err, size_t errlen, const char *msg)
{
    size_t used = strnlen(err, errlen);
    if (used + 1 < errlen) snprintf(err + used, errlen - used, "%s%s", used ? "\n" : "", msg);
}

/* Every bundled space, with the command line's --set applied to each as a run would. */
explore_status explore_validate_bundled(const explore_options *o, char *err, size_t errlen)
{
    explore_status rc = EXPLORE_OK;
    char msg[2048];
    err[0] = '\0';
    for (size_t i = 0; i < space_builtin_count(); i++) {
        char file[256];
        snprintf(file, sizeof file, "spaces/%s.json", space_builtin_name(i));
        space *s = space_parse(space_builtin_text(i), file, msg, sizeof msg);
        for (size_t k = 0; s && k < o->nsets; k++)
            if (space_override(s, o->sets[k], msg, sizeof msg) != 0) {
                space_free(s);
                s = NULL;
            }
        explore_status r = s ? explore_validate_space(o, s, msg, sizeof msg) : EXPLORE_BAD_INPUT;
        if (r != EXPLORE_OK) {
            add_error_line(err, errlen, msg);
            rc = r;
        }
        space_free(s);
    }
    return rc;
}
