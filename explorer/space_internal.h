/* Internals of the space module, shared by its files and by nothing else:
 *   space.c         the space: top-level parsing and checks, loading, --set overrides, freeing;
 *                   errors that name the file and the JSON path, and the JSON readers below
 *   space_params.c  settings, dimensions and their levels and rounding
 *   space_expr.c    constraint expressions
 *   space_study.c   workloads, objectives and the search */
#ifndef WT_SPACE_INTERNAL_H
#define WT_SPACE_INTERNAL_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "explorer/space.h"

/* Where messages go: "file: path: message" in err. */
typedef struct space_ctx {
    const char *file;
    char *err;
    size_t errlen;
} space_ctx;

/* Writes "file: path: message" (or "file: message" for an empty path) into c->err; returns -1. */
int space_fail(space_ctx *c, const char *path, const char *fmt, ...);
/* The path of a member, base.key, or base."key" when the key has dots or spaces. */
void space_path_key(char *out, size_t n, const char *base, const char *key);
/* The path of an array element, base[i]. */
void space_path_index(char *out, size_t n, const char *base, size_t i);
/* Checks that obj has only keys of the NULL-terminated list `allowed`, each once. Returns 0 or
 * -1 with the error. */
int space_check_keys(space_ctx *c, const cJSON *obj, const char *path, const char *const *allowed);
/* Checks that no key of obj is given twice (any keys allowed). Returns 0 or -1 with the error. */
int space_check_unique(space_ctx *c, const cJSON *obj, const char *path);
/* Reads obj.key as a number (an integer when `integer`) in [lo, hi]. Returns 1 when read, 0
 * when absent, -1 with the error. */
int space_get_number(space_ctx *c, const cJSON *obj, const char *key, const char *path, double *out,
                     int integer, double lo, double hi);
/* Reads obj.key as a string (borrowed from obj). Returns 1, 0 when absent, or -1. */
int space_get_string(space_ctx *c, const cJSON *obj, const char *key, const char *path,
                     const char **out);

/* space_params.c: the "settings" and "parameters" sections. Return 0 or -1 with the error. */
int space_parse_settings(space_ctx *c, space *s, const cJSON *settings);
int space_parse_parameters(space_ctx *c, space *s, const cJSON *params);
void space_dim_free(space_dim *d);

/* space_expr.c: a condition, or NULL with "at column N: message" in err. */
struct cexpr *cexpr_parse(const char *text, char *err, size_t errlen);
void cexpr_free(struct cexpr *e);

/* space_study.c: the "workloads", "objectives" and "search" sections, and a search strategy by
 * name (grid, random, lhs or an NLopt algorithm). Return 0 or -1 with the error. */
int space_parse_workloads(space_ctx *c, space *s, const cJSON *wls);
int space_parse_objectives(space_ctx *c, space *s, const cJSON *objs);
int space_parse_search(space_ctx *c, space *s, const cJSON *search);
int space_set_strategy(space_ctx *c, space_search *q, const char *strategy, const char *path);

#endif
