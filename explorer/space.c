#include "explorer/space.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <math.h>
#include <nlopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/embedded.h"
#include "core/metrics.h"
#include "core/preset.h"
#include "core/trace.h"

#define MAX_DIMS       64
#define MAX_GRID_REAL  1000
#define MAX_LEVELS     1000000
#define MAX_OBJECTIVES 8

/* ---------------------------------------------------------------- constraint expressions */

typedef enum cop {
    C_NUM,
    C_PARAM,
    C_NEG,
    C_NOT,
    C_ADD,
    C_SUB,
    C_MUL,
    C_DIV,
    C_MOD,
    C_LT,
    C_LE,
    C_GT,
    C_GE,
    C_EQ,
    C_NE,
    C_AND,
    C_OR,
    C_MIN,
    C_MAX,
    C_STR, /* a string literal, only while parsing: resolved against a choice parameter */
} cop;

struct cexpr {
    cop op;
    double num;
    int param;
    char *str;
    struct cexpr *a, *b;
};

static void cexpr_free(struct cexpr *e)
{
    if (!e) return;
    cexpr_free(e->a);
    cexpr_free(e->b);
    free(e->str);
    free(e);
}

static int is_bool_op(cop op)
{
    return (op >= C_LT && op <= C_OR) || op == C_NOT;
}

typedef struct cparser {
    const char *s;
    const char *p;
    char *err;
    size_t errlen;
    int failed;
} cparser;

static void cp_error(cparser *c, const char *fmt, ...)
{
    if (c->failed) return;
    c->failed = 1;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(c->err, c->errlen, "at column %d: %s", (int)(c->p - c->s) + 1, msg);
}

static void cp_skip(cparser *c)
{
    while (isspace((unsigned char)*c->p))
        c->p++;
}

static int cp_accept(cparser *c, const char *tok)
{
    cp_skip(c);
    size_t n = strlen(tok);
    if (strncmp(c->p, tok, n) != 0) return 0;
    /* '<' must not swallow the '<' of "<=", '!' not the '!' of "!=", '=' is never alone */
    if (n == 1 && (tok[0] == '<' || tok[0] == '>' || tok[0] == '!') && c->p[1] == '=') return 0;
    c->p += n;
    return 1;
}

static struct cexpr *cnode(cop op, struct cexpr *a, struct cexpr *b)
{
    struct cexpr *e = calloc(1, sizeof *e);
    if (!e) {
        cexpr_free(a);
        cexpr_free(b);
        return NULL;
    }
    e->op = op;
    e->a = a;
    e->b = b;
    return e;
}

static struct cexpr *cp_or(cparser *c);

static struct cexpr *cp_primary(cparser *c)
{
    cp_skip(c);
    const char *start = c->p;
    if (c->failed) return NULL;
    if (cp_accept(c, "(")) {
        struct cexpr *e = cp_or(c);
        if (!cp_accept(c, ")")) {
            cp_error(c, "expected ')'");
            cexpr_free(e);
            return NULL;
        }
        return e;
    }
    if (isdigit((unsigned char)*c->p) || (*c->p == '.' && isdigit((unsigned char)c->p[1]))) {
        char *end;
        double v = strtod(c->p, &end);
        c->p = end;
        struct cexpr *e = cnode(C_NUM, NULL, NULL);
        if (e) e->num = v;
        return e;
    }
    if (*c->p == '\'' || *c->p == '"') {
        char q = *c->p++;
        const char *b = c->p;
        while (*c->p && *c->p != q)
            c->p++;
        if (!*c->p) {
            cp_error(c, "unterminated string");
            return NULL;
        }
        struct cexpr *e = cnode(C_STR, NULL, NULL);
        if (e) {
            e->str = malloc((size_t)(c->p - b) + 1);
            if (e->str) {
                memcpy(e->str, b, (size_t)(c->p - b));
                e->str[c->p - b] = '\0';
            }
        }
        c->p++;
        return e;
    }
    if (isalpha((unsigned char)*c->p) || *c->p == '_') {
        while (isalnum((unsigned char)*c->p) || *c->p == '_' || *c->p == '.')
            c->p++;
        char name[128];
        size_t n = (size_t)(c->p - start);
        if (n >= sizeof name) n = sizeof name - 1;
        memcpy(name, start, n);
        name[n] = '\0';
        if (!strcmp(name, "min") || !strcmp(name, "max")) {
            cop op = name[1] == 'i' ? C_MIN : C_MAX;
            if (!cp_accept(c, "(")) {
                cp_error(c, "expected '(' after %s", name);
                return NULL;
            }
            struct cexpr *a = cp_or(c);
            if (!cp_accept(c, ",")) {
                cp_error(c, "expected ',' in %s(a, b)", name);
                cexpr_free(a);
                return NULL;
            }
            struct cexpr *b = cp_or(c);
            if (!cp_accept(c, ")")) {
                cp_error(c, "expected ')' after %s(a, b", name);
                cexpr_free(a);
                cexpr_free(b);
                return NULL;
            }
            return cnode(op, a, b);
        }
        int id = param_lookup(name);
        if (id < 0) {
            char near[256];
            param_suggest(name, near, sizeof near);
            c->p = start;
            if (near[0])
                cp_error(c, "unknown parameter '%s' (did you mean: %s?)", name, near);
            else
                cp_error(c, "unknown parameter '%s' (see `warptune params`)", name);
            return NULL;
        }
        struct cexpr *e = cnode(C_PARAM, NULL, NULL);
        if (e) e->param = id;
        return e;
    }
    if (*c->p)
        cp_error(c, "expected a number, a parameter name, a 'string' or '(', got '%c'", *c->p);
    else
        cp_error(c, "expected a number, a parameter name, a 'string' or '(', got the end");
    return NULL;
}

static struct cexpr *cp_unary(cparser *c)
{
    if (cp_accept(c, "-")) return cnode(C_NEG, cp_unary(c), NULL);
    if (cp_accept(c, "!")) return cnode(C_NOT, cp_unary(c), NULL);
    return cp_primary(c);
}

static struct cexpr *cp_prod(cparser *c)
{
    struct cexpr *e = cp_unary(c);
    for (;;) {
        if (cp_accept(c, "*"))
            e = cnode(C_MUL, e, cp_unary(c));
        else if (cp_accept(c, "/"))
            e = cnode(C_DIV, e, cp_unary(c));
        else if (cp_accept(c, "%"))
            e = cnode(C_MOD, e, cp_unary(c));
        else
            return e;
    }
}

static struct cexpr *cp_sum(cparser *c)
{
    struct cexpr *e = cp_prod(c);
    for (;;) {
        if (cp_accept(c, "+"))
            e = cnode(C_ADD, e, cp_prod(c));
        else if (cp_accept(c, "-"))
            e = cnode(C_SUB, e, cp_prod(c));
        else
            return e;
    }
}

/* Resolves 'name' against the choice parameter on the other side of == or !=. */
static int resolve_string(cparser *c, struct cexpr *s, const struct cexpr *other)
{
    if (!s || s->op != C_STR) return 0;
    const param_def *d = other && other->op == C_PARAM ? param_def_at((size_t)other->param) : NULL;
    if (!d || (d->type != PT_CHOICE && d->type != PT_BOOL)) {
        cp_error(c, "a 'string' may only be compared (== or !=) with a choice parameter");
        return -1;
    }
    if (d->type == PT_BOOL) {
        if (!strcmp(s->str, "true") || !strcmp(s->str, "false")) {
            s->num = !strcmp(s->str, "true");
            s->op = C_NUM;
            return 0;
        }
        cp_error(c, "%s: expected 'true' or 'false', got '%s'", d->name, s->str);
        return -1;
    }
    for (size_t i = 0; d->choices[i]; i++)
        if (!strcmp(d->choices[i], s->str)) {
            s->num = (double)i;
            s->op = C_NUM;
            return 0;
        }
    char list[256] = "";
    size_t used = 0;
    for (size_t i = 0; d->choices[i] && used < sizeof list; i++)
        used +=
            (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", d->choices[i]);
    cp_error(c, "%s: expected one of %s, got '%s'", d->name, list, s->str);
    return -1;
}

static struct cexpr *cp_cmp(cparser *c)
{
    struct cexpr *a = cp_sum(c);
    static const struct {
        const char *tok;
        cop op;
    } ops[] = {{"<=", C_LE}, {">=", C_GE}, {"==", C_EQ}, {"!=", C_NE}, {"<", C_LT}, {">", C_GT}};
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        if (cp_accept(c, ops[i].tok)) {
            struct cexpr *b = cp_sum(c);
            struct cexpr *e = cnode(ops[i].op, a, b);
            if (!e || c->failed) {
                cexpr_free(e);
                return NULL;
            }
            if ((a && a->op == C_STR) || (b && b->op == C_STR)) {
                if (ops[i].op != C_EQ && ops[i].op != C_NE) {
                    cp_error(c, "a 'string' may only be compared with == or !=");
                    cexpr_free(e);
                    return NULL;
                }
                if (resolve_string(c, a, b) || resolve_string(c, b, a)) {
                    cexpr_free(e);
                    return NULL;
                }
            }
            return e;
        }
    }
    return a;
}

static struct cexpr *cp_and(cparser *c)
{
    struct cexpr *e = cp_cmp(c);
    while (cp_accept(c, "&&"))
        e = cnode(C_AND, e, cp_cmp(c));
    return e;
}

static struct cexpr *cp_or(cparser *c)
{
    struct cexpr *e = cp_and(c);
    while (cp_accept(c, "||"))
        e = cnode(C_OR, e, cp_and(c));
    return e;
}

static int cexpr_has_str(const struct cexpr *e)
{
    return e && (e->op == C_STR || cexpr_has_str(e->a) || cexpr_has_str(e->b));
}

static struct cexpr *cexpr_parse(const char *text, char *err, size_t errlen)
{
    cparser c = {text, text, err, errlen, 0};
    struct cexpr *e = cp_or(&c);
    cp_skip(&c);
    if (!c.failed && *c.p) cp_error(&c, "unexpected '%c'", *c.p);
    if (!c.failed && !e) cp_error(&c, "out of memory");
    if (!c.failed && cexpr_has_str(e))
        cp_error(&c, "a 'string' may only be compared (== or !=) with a choice parameter");
    if (!c.failed && !is_bool_op(e->op)) {
        c.p = text;
        cp_error(&c, "expected a condition (a comparison such as a < b, or && / || of them)");
    }
    if (c.failed) {
        cexpr_free(e);
        return NULL;
    }
    return e;
}

static double cexpr_value(const struct cexpr *e, const param_set *cfg);

/* The measure of a condition: <= 0 exactly when it holds; how far from holding otherwise. */
static double cexpr_measure(const struct cexpr *e, const param_set *cfg)
{
    double a, b, g;
    switch (e->op) {
    case C_LT:
        a = cexpr_value(e->a, cfg), b = cexpr_value(e->b, cfg);
        return a < b ? a - b : a - b + 1;
    case C_LE:
        return cexpr_value(e->a, cfg) - cexpr_value(e->b, cfg);
    case C_GT:
        a = cexpr_value(e->a, cfg), b = cexpr_value(e->b, cfg);
        return a > b ? b - a : b - a + 1;
    case C_GE:
        return cexpr_value(e->b, cfg) - cexpr_value(e->a, cfg);
    case C_EQ:
        return fabs(cexpr_value(e->a, cfg) - cexpr_value(e->b, cfg));
    case C_NE:
        a = cexpr_value(e->a, cfg), b = cexpr_value(e->b, cfg);
        return a != b ? -fabs(a - b) : 1;
    case C_AND:
        return fmax(cexpr_measure(e->a, cfg), cexpr_measure(e->b, cfg));
    case C_OR:
        return fmin(cexpr_measure(e->a, cfg), cexpr_measure(e->b, cfg));
    case C_NOT:
        g = cexpr_measure(e->a, cfg);
        return g <= 0 ? 1 - g : -g;
    default:
        return cexpr_value(e, cfg) != 0 ? -1 : 1;
    }
}

static double cexpr_value(const struct cexpr *e, const param_set *cfg)
{
    double a, b;
    switch (e->op) {
    case C_NUM:
        return e->num;
    case C_PARAM:
        return param_get(cfg, e->param);
    case C_NEG:
        return -cexpr_value(e->a, cfg);
    case C_ADD:
        return cexpr_value(e->a, cfg) + cexpr_value(e->b, cfg);
    case C_SUB:
        return cexpr_value(e->a, cfg) - cexpr_value(e->b, cfg);
    case C_MUL:
        return cexpr_value(e->a, cfg) * cexpr_value(e->b, cfg);
    case C_DIV:
        b = cexpr_value(e->b, cfg);
        return b != 0 ? cexpr_value(e->a, cfg) / b : HUGE_VAL;
    case C_MOD:
        a = cexpr_value(e->a, cfg), b = cexpr_value(e->b, cfg);
        return b != 0 ? fmod(a, b) : HUGE_VAL;
    case C_MIN:
        return fmin(cexpr_value(e->a, cfg), cexpr_value(e->b, cfg));
    case C_MAX:
        return fmax(cexpr_value(e->a, cfg), cexpr_value(e->b, cfg));
    default:
        return cexpr_measure(e, cfg) <= 0;
    }
}

double space_violation(const space *s, const param_set *cfg, double *g)
{
    double worst = -HUGE_VAL;
    for (size_t i = 0; i < s->nconstraints; i++) {
        double m = cexpr_measure(s->constraints[i].expr, cfg);
        if (isnan(m)) m = HUGE_VAL;
        if (g) g[i] = m;
        if (m > worst) worst = m;
    }
    return s->nconstraints ? worst : -1;
}

/* ---------------------------------------------------------------- errors and JSON paths */

typedef struct ctx {
    const char *file;
    char *err;
    size_t errlen;
} ctx;

static int fail(ctx *c, const char *path, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (path && path[0])
        snprintf(c->err, c->errlen, "%s: %s: %s", c->file, path, msg);
    else
        snprintf(c->err, c->errlen, "%s: %s", c->file, msg);
    return -1;
}

/* path of a member: base.key, or base."key" when the key has dots */
static void path_key(char *out, size_t n, const char *base, const char *key)
{
    int quote = strchr(key, '.') != NULL || strchr(key, ' ') != NULL;
    const char *parts[5] = {base, base[0] ? "." : "", quote ? "\"" : "", key, quote ? "\"" : ""};
    size_t used = 0;
    for (int i = 0; i < 5; i++)
        for (const char *c = parts[i]; *c && used + 1 < n; c++)
            out[used++] = *c;
    out[used] = '\0';
}

static void path_index(char *out, size_t n, const char *base, size_t i)
{
    snprintf(out, n, "%s[%zu]", base, i);
}

static char *dupstr(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

static int check_keys(ctx *c, const cJSON *obj, const char *path, const char *const *allowed)
{
    for (const cJSON *it = obj->child; it; it = it->next) {
        int ok = 0;
        for (size_t i = 0; allowed[i]; i++)
            ok |= !strcmp(it->string, allowed[i]);
        if (!ok) {
            char list[512] = "";
            size_t used = 0;
            for (size_t i = 0; allowed[i] && used < sizeof list; i++)
                used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "",
                                         allowed[i]);
            char p[512];
            path_key(p, sizeof p, path, it->string);
            return fail(c, p, "unknown key (expected one of: %s)", list);
        }
        for (const cJSON *jt = it->next; jt; jt = jt->next)
            if (!strcmp(it->string, jt->string)) {
                char p[512];
                path_key(p, sizeof p, path, it->string);
                return fail(c, p, "given twice (expected each key once)");
            }
    }
    return 0;
}

static int get_number(ctx *c, const cJSON *obj, const char *key, const char *path, double *out,
                      int integer, double lo, double hi)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!it) return 0;
    char p[512];
    path_key(p, sizeof p, path, key);
    if (!cJSON_IsNumber(it) || !isfinite(it->valuedouble) ||
        (integer && it->valuedouble != floor(it->valuedouble)))
        return fail(c, p, "expected %s", integer ? "an integer" : "a number");
    if (it->valuedouble < lo || it->valuedouble > hi)
        return fail(c, p, "expected a value in [%.10g, %.10g], got %.17g", lo, hi, it->valuedouble);
    *out = it->valuedouble;
    return 1;
}

static int get_string(ctx *c, const cJSON *obj, const char *key, const char *path, const char **out)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!it) return 0;
    if (!cJSON_IsString(it)) {
        char p[512];
        path_key(p, sizeof p, path, key);
        return fail(c, p, "expected a string");
    }
    *out = it->valuestring;
    return 1;
}

/* ---------------------------------------------------------------- dimensions */

static size_t count_levels(const space_dim *d)
{
    if (d->kind == DIM_VALUES) return d->nvalues;
    if (d->kind == DIM_REAL) return 0;
    double n = d->log ? floor(log(d->hi / d->lo) / log(d->step) + 1e-9) + 1
                      : floor((d->hi - d->lo) / d->step + 1e-9) + 1;
    return n > MAX_LEVELS ? MAX_LEVELS + 1 : (size_t)n;
}

size_t space_level(const space_dim *d, double u)
{
    size_t n = d->kind == DIM_REAL ? d->grid : d->nlevels;
    if (!(u > 0)) return 0; /* also NaN */
    double k = floor(u * (double)n);
    return k >= (double)n ? n - 1 : (size_t)k;
}

double space_level_value(const space_dim *d, size_t k)
{
    switch (d->kind) {
    case DIM_VALUES:
        return d->values[k];
    case DIM_INT: {
        double v = d->log ? d->lo * pow(d->step, (double)k) : d->lo + (double)k * d->step;
        const param_def *pd = param_def_at((size_t)d->param);
        if (pd->type == PT_INT) v = round(v);
        return v > d->hi ? d->hi : v;
    }
    case DIM_REAL:
        if (d->grid <= 1) return d->log ? sqrt(d->lo * d->hi) : 0.5 * (d->lo + d->hi);
        double t = (double)k / (double)(d->grid - 1);
        return d->log ? exp(log(d->lo) + t * (log(d->hi) - log(d->lo)))
                      : d->lo + t * (d->hi - d->lo);
    }
    return 0;
}

double space_dim_value(const space_dim *d, double u)
{
    if (d->kind != DIM_REAL) return space_level_value(d, space_level(d, u));
    if (!(u > 0)) return d->lo;
    if (u >= 1) return d->hi;
    double v =
        d->log ? exp(log(d->lo) + u * (log(d->hi) - log(d->lo))) : d->lo + u * (d->hi - d->lo);
    return v < d->lo ? d->lo : v > d->hi ? d->hi : v;
}

double space_dim_coord(const space_dim *d, double v)
{
    if (d->kind == DIM_REAL) {
        double u = d->log ? (log(v) - log(d->lo)) / (log(d->hi) - log(d->lo))
                          : (v - d->lo) / (d->hi - d->lo);
        return u < 0 ? 0 : u > 1 ? 1 : (isnan(u) ? 0.5 : u);
    }
    size_t best = 0;
    double bd = HUGE_VAL;
    for (size_t k = 0; k < d->nlevels; k++) {
        double dist = fabs(space_level_value(d, k) - v);
        if (dist < bd) bd = dist, best = k;
    }
    return ((double)best + 0.5) / (double)d->nlevels;
}

int space_decode(const space *s, const double *x, param_set *cfg, char *err, size_t errlen)
{
    for (size_t i = 0; i < s->ndims; i++) {
        const space_dim *d = &s->dims[i];
        if (param_set_value(cfg, d->name, space_dim_value(d, x[i]), err, errlen) != 0) return -1;
    }
    return 0;
}

static void free_dim(space_dim *d)
{
    free(d->name);
    free(d->values);
}

static int parse_values(ctx *c, space_dim *d, const param_def *pd, const cJSON *arr,
                        const char *path)
{
    size_t n = (size_t)cJSON_GetArraySize(arr);
    if (n == 0) return fail(c, path, "expected a non-empty array of values");
    d->values = calloc(n, sizeof *d->values);
    if (!d->values) return fail(c, path, "out of memory");
    d->kind = DIM_VALUES;
    size_t i = 0;
    param_set *tmp = param_set_new();
    if (!tmp) return fail(c, path, "out of memory");
    for (const cJSON *v = arr->child; v; v = v->next, i++) {
        char p[512], msg[512];
        path_index(p, sizeof p, path, i);
        int rc;
        if (pd->type == PT_CHOICE || pd->type == PT_BOOL) {
            if (pd->type == PT_CHOICE && !cJSON_IsString(v)) {
                param_set_free(tmp);
                return fail(c, p, "expected the name of a %s choice (a string)", pd->name);
            }
            if (pd->type == PT_BOOL && !cJSON_IsBool(v)) {
                param_set_free(tmp);
                return fail(c, p, "expected true or false");
            }
            rc = param_set_parse(tmp, pd->name,
                                 cJSON_IsString(v) ? v->valuestring
                                                   : (cJSON_IsTrue(v) ? "true" : "false"),
                                 msg, sizeof msg);
        } else {
            if (!cJSON_IsNumber(v)) {
                param_set_free(tmp);
                return fail(c, p, "expected a number");
            }
            rc = param_set_value(tmp, pd->name, v->valuedouble, msg, sizeof msg);
        }
        if (rc != 0) {
            param_set_free(tmp);
            return fail(c, p, "%s", msg);
        }
        d->values[i] = param_get(tmp, d->param);
        for (size_t j = 0; j < i; j++)
            if (d->values[j] == d->values[i]) {
                param_set_free(tmp);
                return fail(c, p, "expected distinct values (this one repeats [%zu])", j);
            }
    }
    param_set_free(tmp);
    d->nvalues = n;
    return 0;
}

static int parse_dim(ctx *c, space_dim *d, const cJSON *spec, const char *path)
{
    const param_def *pd = param_def_at((size_t)d->param);
    if (cJSON_IsArray(spec)) return parse_values(c, d, pd, spec, path);
    if (!cJSON_IsObject(spec))
        return fail(c, path,
                    "expected an array of values or an object with min/max (and optional step, "
                    "log, grid) or values");
    static const char *const keys[] = {"values", "min", "max", "step", "log", "grid", NULL};
    if (check_keys(c, spec, path, keys)) return -1;
    const cJSON *values = cJSON_GetObjectItemCaseSensitive(spec, "values");
    const cJSON *mn = cJSON_GetObjectItemCaseSensitive(spec, "min");
    const cJSON *mx = cJSON_GetObjectItemCaseSensitive(spec, "max");
    if (values) {
        char p[512];
        path_key(p, sizeof p, path, "values");
        if (mn || mx) return fail(c, path, "expected either values or min/max, not both");
        if (!cJSON_IsArray(values)) return fail(c, p, "expected an array of values");
        return parse_values(c, d, pd, values, p);
    }
    if (pd->type == PT_CHOICE || pd->type == PT_BOOL) {
        if (mn || mx)
            return fail(c, path, "%s is a %s: expected values (or {} for all of them)", pd->name,
                        pd->type == PT_BOOL ? "boolean" : "choice");
        /* {}: every choice */
        size_t n = pd->type == PT_BOOL ? 2 : 0;
        while (pd->type == PT_CHOICE && pd->choices[n])
            n++;
        d->values = calloc(n, sizeof *d->values);
        if (!d->values) return fail(c, path, "out of memory");
        for (size_t i = 0; i < n; i++)
            d->values[i] = (double)i;
        d->nvalues = n;
        d->kind = DIM_VALUES;
        return 0;
    }
    if (!mn || !mx) return fail(c, path, "expected both min and max (or values)");
    int integer = pd->type == PT_INT;
    double lo = 0, hi = 0, step = 0, grid = 5;
    if (get_number(c, spec, "min", path, &lo, integer, pd->lo, pd->hi) < 0) return -1;
    if (get_number(c, spec, "max", path, &hi, integer, pd->lo, pd->hi) < 0) return -1;
    if (hi < lo) {
        char p[512];
        path_key(p, sizeof p, path, "max");
        return fail(c, p, "expected max >= min (%.17g)", lo);
    }
    const cJSON *lg = cJSON_GetObjectItemCaseSensitive(spec, "log");
    if (lg && !cJSON_IsBool(lg)) {
        char p[512];
        path_key(p, sizeof p, path, "log");
        return fail(c, p, "expected true or false");
    }
    d->log = cJSON_IsTrue(lg);
    if (d->log && lo <= 0) {
        char p[512];
        path_key(p, sizeof p, path, "min");
        return fail(c, p, "expected min > 0 for a log-scale dimension");
    }
    int has_step = get_number(c, spec, "step", path, &step, 0, 0, 1e300);
    if (has_step < 0) return -1;
    if (get_number(c, spec, "grid", path, &grid, 1, 1, MAX_GRID_REAL) < 0) return -1;
    if (has_step) {
        char p[512];
        path_key(p, sizeof p, path, "step");
        if (d->log && step <= 1)
            return fail(c, p, "expected a factor > 1 (a log-scale step multiplies)");
        if (!d->log && step <= 0) return fail(c, p, "expected a step > 0");
        if (integer && step != floor(step)) return fail(c, p, "expected an integer step");
    }
    d->lo = lo;
    d->hi = hi;
    d->grid = (size_t)grid;
    if (integer || has_step) {
        d->kind = DIM_INT;
        d->step = has_step ? step : (d->log ? 2 : 1);
    } else {
        d->kind = DIM_REAL;
    }
    return 0;
}

/* ---------------------------------------------------------------- sections */

static int parse_parameters(ctx *c, space *s, const cJSON *params)
{
    if (!cJSON_IsObject(params))
        return fail(c, "parameters", "expected an object of parameter name: range or values");
    size_t n = (size_t)cJSON_GetArraySize(params);
    if (n > MAX_DIMS) return fail(c, "parameters", "expected at most %d parameters", MAX_DIMS);
    s->dims = calloc(n ? n : 1, sizeof *s->dims);
    if (!s->dims) return fail(c, "parameters", "out of memory");
    for (const cJSON *it = params->child; it; it = it->next) {
        char p[512];
        path_key(p, sizeof p, "parameters", it->string);
        int id = param_lookup(it->string);
        if (id < 0) {
            char near[256];
            param_suggest(it->string, near, sizeof near);
            if (near[0]) return fail(c, p, "unknown parameter (did you mean: %s?)", near);
            return fail(c, p, "unknown parameter (see `warptune params`)");
        }
        for (size_t j = 0; j < s->ndims; j++)
            if (s->dims[j].param == id) return fail(c, p, "given twice (expected it once)");
        space_dim *d = &s->dims[s->ndims++];
        d->name = dupstr(it->string);
        d->param = id;
        if (!d->name) return fail(c, p, "out of memory");
        if (parse_dim(c, d, it, p)) return -1;
        d->nlevels = count_levels(d);
        if (d->nlevels > MAX_LEVELS)
            return fail(c, p, "expected at most %d levels (use a larger step or log)", MAX_LEVELS);
    }
    return 0;
}

static int parse_settings(ctx *c, space *s, const cJSON *settings)
{
    if (!cJSON_IsObject(settings))
        return fail(c, "settings", "expected an object of parameter name: value");
    for (const cJSON *it = settings->child; it; it = it->next) {
        char p[512], msg[512];
        path_key(p, sizeof p, "settings", it->string);
        int rc;
        int id = param_lookup(it->string);
        if (id >= 0 && param_def_at((size_t)id)->type == PT_CHOICE && !cJSON_IsString(it))
            return fail(c, p, "expected the name of a choice (a string)");
        if (cJSON_IsBool(it))
            rc = param_set_parse(s->base, it->string, cJSON_IsTrue(it) ? "true" : "false", msg,
                                 sizeof msg);
        else if (cJSON_IsNumber(it))
            rc = param_set_value(s->base, it->string, it->valuedouble, msg, sizeof msg);
        else if (cJSON_IsString(it))
            rc = param_set_parse(s->base, it->string, it->valuestring, msg, sizeof msg);
        else
            return fail(c, p, "expected a number, a string or true/false");
        if (rc) {
            /* drop the "name: " the registry puts first; the path already says it */
            size_t n = strlen(it->string);
            const char *m = !strncmp(msg, it->string, n) && msg[n] == ':' ? msg + n + 2 : msg;
            return fail(c, p, "%s", m);
        }
    }
    return 0;
}

static int parse_workloads(ctx *c, space *s, const cJSON *wls)
{
    if (!cJSON_IsArray(wls) || cJSON_GetArraySize(wls) == 0)
        return fail(c, "workloads",
                    "expected a non-empty array of workload names or {name, weight, params}");
    size_t n = (size_t)cJSON_GetArraySize(wls);
    s->workloads = calloc(n, sizeof *s->workloads);
    if (!s->workloads) return fail(c, "workloads", "out of memory");
    size_t i = 0;
    for (const cJSON *it = wls->child; it; it = it->next, i++) {
        char p[512];
        path_index(p, sizeof p, "workloads", i);
        space_workload *w = &s->workloads[s->nworkloads++];
        w->weight = 1;
        const char *name = NULL;
        const cJSON *params = NULL;
        if (cJSON_IsString(it)) {
            name = it->valuestring;
        } else if (cJSON_IsObject(it)) {
            static const char *const keys[] = {"name", "weight", "params", NULL};
            if (check_keys(c, it, p, keys)) return -1;
            if (get_string(c, it, "name", p, &name) < 0) return -1;
            if (!name) return fail(c, p, "expected \"name\": a built-in workload or a .wl path");
            if (get_number(c, it, "weight", p, &w->weight, 0, 1e-12, 1e12) < 0) return -1;
            params = cJSON_GetObjectItemCaseSensitive(it, "params");
        } else {
            return fail(c, p, "expected a workload name or an object {name, weight, params}");
        }
        w->name = dupstr(name);
        if (!w->name) return fail(c, p, "out of memory");
        if (params) {
            char pp[512];
            path_key(pp, sizeof pp, p, "params");
            if (!cJSON_IsObject(params))
                return fail(c, pp, "expected an object of .param name: number");
            size_t np = (size_t)cJSON_GetArraySize(params);
            w->ov = calloc(np ? np : 1, sizeof *w->ov);
            if (!w->ov) return fail(c, pp, "out of memory");
            for (const cJSON *q = params->child; q; q = q->next) {
                char qp[600], num[64];
                path_key(qp, sizeof qp, pp, q->string);
                if (cJSON_IsNumber(q))
                    snprintf(num, sizeof num, "%.17g", q->valuedouble);
                else if (cJSON_IsString(q))
                    snprintf(num, sizeof num, "%s", q->valuestring);
                else
                    return fail(c, qp, "expected a number");
                w->ov[w->nov].name = dupstr(q->string);
                w->ov[w->nov].value = dupstr(num);
                w->nov++;
                if (!w->ov[w->nov - 1].name || !w->ov[w->nov - 1].value)
                    return fail(c, qp, "out of memory");
            }
        }
        workload *wl = NULL;
        char msg[1024];
        if (trace_name_is_list(w->name)) { /* an Accel-Sim trace (docs/traces.md) */
            trace_app *t = NULL;
            if (w->nov) return fail(c, p, "a trace (%s) takes no params", w->name);
            if (trace_open(w->name, &t, msg, sizeof msg) != 0) return fail(c, p, "%s", msg);
            trace_close(t);
            continue;
        }
        if (workload_load(w->name, w->ov, w->nov, &wl, msg, sizeof msg) != 0)
            return fail(c, p, "%s", msg);
        workload_free(wl);
    }
    /* labels: the name, or name#k (k: 1-based position) when a name is listed twice */
    for (i = 0; i < s->nworkloads; i++) {
        int dup = 0;
        for (size_t j = 0; j < s->nworkloads; j++)
            dup |= j != i && !strcmp(s->workloads[i].name, s->workloads[j].name);
        char label[512];
        snprintf(label, sizeof label, dup ? "%s#%zu" : "%s", s->workloads[i].name, i + 1);
        s->workloads[i].label = dupstr(label);
        if (!s->workloads[i].label) return fail(c, "workloads", "out of memory");
    }
    return 0;
}

static const char *const agg_names[] = {"geomean", "hmean", "mean", "sum"};

const char *agg_name(agg_kind a)
{
    return agg_names[a];
}

static int parse_objectives(ctx *c, space *s, const cJSON *objs)
{
    if (!cJSON_IsArray(objs) || cJSON_GetArraySize(objs) == 0)
        return fail(c, "objectives",
                    "expected a non-empty array of metric names or {metric, goal, aggregate}");
    size_t n = (size_t)cJSON_GetArraySize(objs);
    if (n > MAX_OBJECTIVES)
        return fail(c, "objectives", "expected at most %d objectives", MAX_OBJECTIVES);
    s->objectives = calloc(n, sizeof *s->objectives);
    if (!s->objectives) return fail(c, "objectives", "out of memory");
    size_t i = 0;
    for (const cJSON *it = objs->child; it; it = it->next, i++) {
        char p[512];
        path_index(p, sizeof p, "objectives", i);
        space_objective *o = &s->objectives[s->nobjectives++];
        const char *metric = NULL, *goal = NULL, *agg = NULL;
        if (cJSON_IsString(it)) {
            metric = it->valuestring;
        } else if (cJSON_IsObject(it)) {
            static const char *const keys[] = {"metric", "goal", "aggregate", "hv_reference", NULL};
            if (check_keys(c, it, p, keys)) return -1;
            if (get_string(c, it, "metric", p, &metric) < 0) return -1;
            if (get_string(c, it, "goal", p, &goal) < 0) return -1;
            if (get_string(c, it, "aggregate", p, &agg) < 0) return -1;
            int has = get_number(c, it, "hv_reference", p, &o->hv_ref, 0, -1e300, 1e300);
            if (has < 0) return -1;
            o->has_hv_ref = has;
            if (!metric) return fail(c, p, "expected \"metric\": the name of a metric");
        } else {
            return fail(c, p, "expected a metric name or an object {metric, goal, aggregate}");
        }
        if (!strcmp(metric, "energy")) metric = "energy_j";
        o->metric = metric_lookup(metric);
        if (o->metric < 0) {
            char near[512] = "";
            size_t used = 0, found = 0;
            for (size_t m = 0; m < metric_count() && found < 6; m++) {
                const char *cand = metric_at(m)->name;
                if (strstr(cand, metric) || strstr(metric, cand) || !strncmp(cand, metric, 3)) {
                    used += (size_t)snprintf(near + used, sizeof near - used, "%s%s",
                                             found ? ", " : "", cand);
                    found++;
                }
            }
            if (found) return fail(c, p, "unknown metric '%s' (did you mean: %s?)", metric, near);
            return fail(c, p, "unknown metric '%s' (see docs/metrics.md)", metric);
        }
        const char *m = metric_at((size_t)o->metric)->name;
        int def_max = -1;
        agg_kind def_agg = AGG_MEAN;
        if (!strcmp(m, "ipc") || !strcmp(m, "warp_ipc"))
            def_max = 1, def_agg = AGG_GEOMEAN;
        else if (!strcmp(m, "mpki"))
            def_max = 0, def_agg = AGG_MEAN;
        else if (!strcmp(m, "energy_j"))
            def_max = 0, def_agg = AGG_SUM;
        if (goal) {
            if (!strcmp(goal, "max"))
                o->maximise = 1;
            else if (!strcmp(goal, "min"))
                o->maximise = 0;
            else {
                char gp[600];
                path_key(gp, sizeof gp, p, "goal");
                return fail(c, gp, "expected \"min\" or \"max\", got \"%s\"", goal);
            }
        } else if (def_max < 0) {
            return fail(c, p, "expected \"goal\": \"min\" or \"max\" (%s has no default goal)", m);
        } else {
            o->maximise = def_max;
        }
        o->agg = def_agg;
        if (agg) {
            int k = -1;
            for (int a = 0; a < 4; a++)
                if (!strcmp(agg, agg_names[a])) k = a;
            if (k < 0) {
                char ap[600];
                path_key(ap, sizeof ap, p, "aggregate");
                return fail(c, ap, "expected geomean, hmean, mean or sum, got \"%s\"", agg);
            }
            o->agg = (agg_kind)k;
        }
        char name[160];
        if (o->agg == def_agg)
            snprintf(name, sizeof name, "%s", m);
        else
            snprintf(name, sizeof name, "%s_%s", m, agg_names[o->agg]);
        for (size_t j = 0; j + 1 < s->nobjectives; j++)
            if (!strcmp(s->objectives[j].name, name))
                return fail(c, p, "objective %s given twice (expected each once)", name);
        o->name = dupstr(name);
        if (!o->name) return fail(c, p, "out of memory");
    }
    return 0;
}

const char *search_kind_name(search_kind k)
{
    static const char *const n[] = {"grid", "random", "lhs", "nlopt"};
    return n[k];
}

/* NLopt algorithms by the names the papers and NLopt's manual use, or NLopt's own
 * identifiers (GN_DIRECT_L, LN_COBYLA, ...). Only derivative-free ones. */
static const struct {
    const char *name;
    nlopt_algorithm alg;
} nlopt_names[] = {
    {"DIRECT", NLOPT_GN_DIRECT},
    {"DIRECT-L", NLOPT_GN_DIRECT_L},
    {"DIRECT-L-RAND", NLOPT_GN_DIRECT_L_RAND},
    {"ORIG-DIRECT", NLOPT_GN_ORIG_DIRECT},
    {"ORIG-DIRECT-L", NLOPT_GN_ORIG_DIRECT_L},
    {"CRS2-LM", NLOPT_GN_CRS2_LM},
    {"CRS2", NLOPT_GN_CRS2_LM},
    {"ISRES", NLOPT_GN_ISRES},
    {"ESCH", NLOPT_GN_ESCH},
    {"MLSL", NLOPT_G_MLSL},
    {"MLSL-LDS", NLOPT_G_MLSL_LDS},
    {"BOBYQA", NLOPT_LN_BOBYQA},
    {"COBYLA", NLOPT_LN_COBYLA},
    {"Sbplx", NLOPT_LN_SBPLX},
    {"SBPLX", NLOPT_LN_SBPLX},
    {"Subplex", NLOPT_LN_SBPLX},
    {"Nelder-Mead", NLOPT_LN_NELDERMEAD},
    {"NELDERMEAD", NLOPT_LN_NELDERMEAD},
    {"NEWUOA", NLOPT_LN_NEWUOA_BOUND},
    {"PRAXIS", NLOPT_LN_PRAXIS},
};

static int lookup_nlopt(const char *name)
{
    for (size_t i = 0; i < sizeof nlopt_names / sizeof nlopt_names[0]; i++)
        if (!strcmp(name, nlopt_names[i].name)) return (int)nlopt_names[i].alg;
    nlopt_algorithm a = nlopt_algorithm_from_string(name);
    if ((int)a < 0) return -1;
    /* derivative-free only: NLopt names them GN_, LN_ and G_MLSL* */
    const char *s = nlopt_algorithm_to_string(a);
    (void)s;
    if (!strncmp(name, "GN_", 3) || !strncmp(name, "LN_", 3) || !strcmp(name, "G_MLSL") ||
        !strcmp(name, "G_MLSL_LDS"))
        return (int)a;
    return -1;
}

static int set_strategy(ctx *c, space_search *q, const char *strategy, const char *path)
{
    free(q->algorithm);
    q->algorithm = NULL;
    if (!strcmp(strategy, "grid"))
        q->kind = SEARCH_GRID;
    else if (!strcmp(strategy, "random"))
        q->kind = SEARCH_RANDOM;
    else if (!strcmp(strategy, "lhs") || !strcmp(strategy, "latin-hypercube"))
        q->kind = SEARCH_LHS;
    else {
        int a = lookup_nlopt(strategy);
        if (a < 0)
            return fail(c, path,
                        "expected grid, random, lhs or a derivative-free NLopt algorithm "
                        "(DIRECT-L, CRS2-LM, ISRES, ESCH, MLSL-LDS, BOBYQA, COBYLA, Sbplx, "
                        "Nelder-Mead, or NLopt's GN_/LN_ names), got \"%s\"",
                        strategy);
        q->kind = SEARCH_NLOPT;
        q->nlopt_algorithm = a;
        q->algorithm = dupstr(strategy);
        if (!q->algorithm) return fail(c, path, "out of memory");
    }
    return 0;
}

static int parse_search(ctx *c, space *s, const cJSON *search)
{
    space_search *q = &s->search;
    if (!search) return 0;
    if (!cJSON_IsObject(search))
        return fail(c, "search", "expected an object {strategy, budget, seed, threads}");
    static const char *const keys[] = {"strategy", "budget",         "seed",
                                       "threads",  "scalarisations", NULL};
    if (check_keys(c, search, "search", keys)) return -1;
    const char *strategy = NULL;
    if (get_string(c, search, "strategy", "search", &strategy) < 0) return -1;
    if (strategy && set_strategy(c, q, strategy, "search.strategy")) return -1;
    double v;
    int r = get_number(c, search, "seed", "search", &v, 1, 0, 9007199254740991.0);
    if (r < 0) return -1;
    if (r) q->seed = (uint64_t)v;
    if ((r = get_number(c, search, "threads", "search", &v, 1, 0, 1024)) < 0) return -1;
    if (r) q->threads = (int)v;
    if ((r = get_number(c, search, "scalarisations", "search", &v, 1, 1, 1000)) < 0) return -1;
    if (r) q->scalarisations = (size_t)v;
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(search, "budget");
    if (b) {
        if (!cJSON_IsObject(b))
            return fail(c, "search.budget", "expected an object {evaluations, seconds}");
        static const char *const bkeys[] = {"evaluations", "seconds", NULL};
        if (check_keys(c, b, "search.budget", bkeys)) return -1;
        if ((r = get_number(c, b, "evaluations", "search.budget", &v, 1, 1, 1e9)) < 0) return -1;
        if (r) q->max_evaluations = (size_t)v;
        if ((r = get_number(c, b, "seconds", "search.budget", &v, 0, 0, 1e9)) < 0) return -1;
        if (r) q->max_seconds = v;
    }
    return 0;
}

size_t space_grid_size(const space *s)
{
    size_t n = 1;
    for (size_t i = 0; i < s->ndims; i++) {
        const space_dim *d = &s->dims[i];
        size_t k = d->kind == DIM_REAL ? d->grid : d->nlevels;
        if (k && n > SIZE_MAX / k) return SIZE_MAX;
        n *= k;
    }
    return n;
}

static int finish(ctx *c, space *s)
{
    if (s->search.kind == SEARCH_NLOPT && s->ndims == 0)
        return fail(c, "search.strategy",
                    "expected grid, random or lhs: there is nothing to "
                    "explore (no parameters)");
    if (s->search.kind == SEARCH_NLOPT && s->ndims < 2 &&
        (s->search.nlopt_algorithm == NLOPT_LN_BOBYQA ||
         s->search.nlopt_algorithm == NLOPT_LN_NEWUOA_BOUND))
        return fail(c, "search.strategy",
                    "expected another algorithm: %s needs at least two "
                    "parameters to explore",
                    s->search.algorithm);
    if (s->search.kind == SEARCH_GRID && space_grid_size(s) > 1000000)
        return fail(c, "search.strategy",
                    "expected a grid of at most 1000000 points, this one has %s; use random, "
                    "lhs or an NLopt algorithm",
                    space_grid_size(s) == SIZE_MAX ? "more than 2^64" : "more");
    if (s->search.scalarisations == 0)
        s->search.scalarisations = s->nobjectives == 1 ? 1 : (s->nobjectives == 2 ? 5 : 6);
    if (s->search.max_evaluations == 0 && s->search.kind != SEARCH_GRID)
        s->search.max_evaluations = 100;
    return 0;
}

/* ---------------------------------------------------------------- the space */

void space_free(space *s)
{
    if (!s) return;
    free(s->file);
    free(s->name);
    free(s->description);
    free(s->preset);
    param_set_free(s->base);
    for (size_t i = 0; i < s->ndims; i++)
        free_dim(&s->dims[i]);
    free(s->dims);
    for (size_t i = 0; i < s->nconstraints; i++) {
        free(s->constraints[i].text);
        cexpr_free(s->constraints[i].expr);
    }
    free(s->constraints);
    for (size_t i = 0; i < s->nworkloads; i++) {
        space_workload *w = &s->workloads[i];
        free(w->name);
        free(w->label);
        for (size_t j = 0; j < w->nov; j++) {
            free((char *)w->ov[j].name);
            free((char *)w->ov[j].value);
        }
        free(w->ov);
    }
    free(s->workloads);
    for (size_t i = 0; i < s->nobjectives; i++)
        free(s->objectives[i].name);
    free(s->objectives);
    free(s->search.algorithm);
    free(s->output);
    free(s->canonical);
    free(s);
}

static char *base_name(const char *file)
{
    const char *b = strrchr(file, '/');
    b = b ? b + 1 : file;
    char *n = dupstr(b);
    if (n) {
        size_t l = strlen(n);
        if (l > 5 && !strcmp(n + l - 5, ".json")) n[l - 5] = '\0';
    }
    return n;
}

space *space_parse(const char *text, const char *file, char *err, size_t errlen)
{
    ctx c = {file, err, errlen};
    space *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "%s: out of memory", file);
        return NULL;
    }
    s->file = dupstr(file);
    s->search.kind = SEARCH_GRID;
    s->search.seed = 1;
    cJSON *root = cJSON_ParseWithOpts(text, NULL, 1);
    if (!root) {
        snprintf(err, errlen, "%s:%d: malformed JSON (expected a JSON object)", file,
                 json_line_of(text, NULL, cJSON_GetErrorPtr()));
        goto bad;
    }
    if (!cJSON_IsObject(root)) {
        fail(&c, "", "expected a JSON object at the top level");
        goto bad;
    }
    static const char *const keys[] = {"name",       "description", "preset",    "settings",
                                       "parameters", "constraints", "workloads", "objectives",
                                       "search",     "output",      "$schema",   NULL};
    if (check_keys(&c, root, "", keys)) goto bad;
    const char *str = NULL;
    if (get_string(&c, root, "name", "", &str) < 0) goto bad;
    s->name = str ? dupstr(str) : base_name(file);
    str = "";
    if (get_string(&c, root, "description", "", &str) < 0) goto bad;
    s->description = dupstr(str);
    str = WT_DEFAULT_PRESET;
    if (get_string(&c, root, "preset", "", &str) < 0) goto bad;
    s->preset = dupstr(str);
    s->base = param_set_new();
    if (!s->name || !s->description || !s->preset || !s->base) {
        fail(&c, "", "out of memory");
        goto bad;
    }
    {
        char msg[1024];
        if (preset_apply(s->base, s->preset, msg, sizeof msg) != 0) {
            fail(&c, "preset", "%s", msg);
            goto bad;
        }
    }
    const cJSON *settings = cJSON_GetObjectItemCaseSensitive(root, "settings");
    if (settings && parse_settings(&c, s, settings)) goto bad;
    const cJSON *params = cJSON_GetObjectItemCaseSensitive(root, "parameters");
    if (params && parse_parameters(&c, s, params)) goto bad;
    if (settings)
        for (size_t i = 0; i < s->ndims; i++)
            if (cJSON_GetObjectItemCaseSensitive(settings, s->dims[i].name)) {
                char p[512];
                path_key(p, sizeof p, "settings", s->dims[i].name);
                fail(&c, p, "is also explored in parameters (expected one or the other)");
                goto bad;
            }
    const cJSON *cons = cJSON_GetObjectItemCaseSensitive(root, "constraints");
    if (cons) {
        if (!cJSON_IsArray(cons)) {
            fail(&c, "constraints", "expected an array of conditions (strings)");
            goto bad;
        }
        size_t n = (size_t)cJSON_GetArraySize(cons);
        s->constraints = calloc(n ? n : 1, sizeof *s->constraints);
        if (!s->constraints) goto oom;
        size_t i = 0;
        for (const cJSON *it = cons->child; it; it = it->next, i++) {
            char p[64], msg[768];
            path_index(p, sizeof p, "constraints", i);
            if (!cJSON_IsString(it)) {
                fail(&c, p, "expected a condition (a string such as \"a < b\")");
                goto bad;
            }
            struct cexpr *e = cexpr_parse(it->valuestring, msg, sizeof msg);
            if (!e) {
                fail(&c, p, "\"%s\": %s", it->valuestring, msg);
                goto bad;
            }
            s->constraints[s->nconstraints].expr = e;
            s->constraints[s->nconstraints].text = dupstr(it->valuestring);
            s->nconstraints++;
        }
    }
    const cJSON *wls = cJSON_GetObjectItemCaseSensitive(root, "workloads");
    if (!wls) {
        fail(&c, "workloads", "missing (expected an array of workloads)");
        goto bad;
    }
    if (parse_workloads(&c, s, wls)) goto bad;
    const cJSON *objs = cJSON_GetObjectItemCaseSensitive(root, "objectives");
    if (objs) {
        if (parse_objectives(&c, s, objs)) goto bad;
    } else {
        /* default: ipc (max, geomean) */
        cJSON *def = cJSON_Parse("[\"ipc\"]");
        int rc = def ? parse_objectives(&c, s, def) : -1;
        cJSON_Delete(def);
        if (rc) goto bad;
    }
    if (parse_search(&c, s, cJSON_GetObjectItemCaseSensitive(root, "search"))) goto bad;
    str = NULL;
    if (get_string(&c, root, "output", "", &str) < 0) goto bad;
    if (str) {
        if (!str[0]) {
            fail(&c, "output", "expected a folder name");
            goto bad;
        }
        s->output = dupstr(str);
    } else {
        char out[512];
        snprintf(out, sizeof out, "results/%s", s->name);
        s->output = dupstr(out);
    }
    if (!s->output) goto oom;
    if (finish(&c, s)) goto bad;
    s->canonical = cJSON_PrintUnformatted(root);
    if (!s->canonical) goto oom;
    cJSON_Delete(root);
    return s;
oom:
    fail(&c, "", "out of memory");
bad:
    cJSON_Delete(root);
    space_free(s);
    return NULL;
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len + 4097 > cap) {
            cap = cap ? cap * 2 : 8192;
            char *t = realloc(buf, cap);
            if (!t) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = t;
        }
        size_t got = fread(buf + len, 1, 4096, f);
        len += got;
        if (got < 4096) break;
    }
    fclose(f);
    buf[len] = '\0';
    return buf;
}

space *space_load(const char *name_or_path, char *err, size_t errlen)
{
    size_t l = strlen(name_or_path);
    int is_path = strchr(name_or_path, '/') || (l > 5 && !strcmp(name_or_path + l - 5, ".json"));
    if (!is_path) {
        for (size_t i = 0; i < space_builtin_count(); i++)
            if (!strcmp(space_builtin_name(i), name_or_path)) {
                char file[256];
                snprintf(file, sizeof file, "spaces/%s.json", name_or_path);
                return space_parse(space_builtin_text(i), file, err, errlen);
            }
        char list[512] = "";
        size_t used = 0;
        for (size_t i = 0; i < space_builtin_count() && used < sizeof list; i++)
            used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "",
                                     space_builtin_name(i));
        snprintf(err, errlen, "unknown space '%s' (built-in spaces: %s; or give a path)",
                 name_or_path, list);
        return NULL;
    }
    char *text = read_text(name_or_path);
    if (!text) {
        snprintf(err, errlen, "%s: cannot read the space file", name_or_path);
        return NULL;
    }
    space *s = space_parse(text, name_or_path, err, errlen);
    free(text);
    return s;
}

int space_override(space *s, const char *kv, char *err, size_t errlen)
{
    const char *eq = strchr(kv, '=');
    char key[256];
    if (!eq || eq == kv || (size_t)(eq - kv) >= sizeof key) {
        snprintf(err, errlen, "--set %s: expected name=value", kv);
        return -1;
    }
    memcpy(key, kv, (size_t)(eq - kv));
    key[eq - kv] = '\0';
    const char *val = eq + 1;
    ctx c = {"--set", err, errlen};
    char *end;
    if (!strcmp(key, "search.strategy")) {
        if (set_strategy(&c, &s->search, val, key)) return -1;
        if (s->search.kind == SEARCH_NLOPT && s->ndims == 0)
            return fail(&c, key, "expected grid, random or lhs: no parameters to explore");
        if (s->search.kind != SEARCH_GRID && s->search.max_evaluations == 0)
            s->search.max_evaluations = 100;
        return 0;
    }
    if (!strcmp(key, "output")) {
        free(s->output);
        s->output = dupstr(val);
        return s->output ? 0 : fail(&c, key, "out of memory");
    }
    if (!strncmp(key, "search.", 7)) {
        double v = strtod(val, &end);
        if (!*val || *end || !isfinite(v) || v < 0)
            return fail(&c, key, "expected a non-negative number, got '%s'", val);
        if (!strcmp(key, "search.seconds")) {
            s->search.max_seconds = v;
            return 0;
        }
        if (v != floor(v)) return fail(&c, key, "expected an integer, got '%s'", val);
        if (!strcmp(key, "search.seed"))
            s->search.seed = (uint64_t)v;
        else if (!strcmp(key, "search.evaluations") && v >= 1)
            s->search.max_evaluations = (size_t)v;
        else if (!strcmp(key, "search.threads") && v <= 1024)
            s->search.threads = (int)v;
        else if (!strcmp(key, "search.scalarisations") && v >= 1 && v <= 1000)
            s->search.scalarisations = (size_t)v;
        else
            return fail(&c, key,
                        "expected search.strategy, search.seed, search.evaluations (>= 1), "
                        "search.seconds, search.threads or search.scalarisations");
        return 0;
    }
    char msg[768];
    if (param_set_parse(s->base, key, val, msg, sizeof msg) != 0) return fail(&c, key, "%s", msg);
    for (size_t i = 0; i < s->ndims; i++)
        if (!strcmp(s->dims[i].name, key)) {
            free_dim(&s->dims[i]);
            memmove(&s->dims[i], &s->dims[i + 1], (s->ndims - i - 1) * sizeof *s->dims);
            s->ndims--;
            break;
        }
    if (s->search.kind == SEARCH_NLOPT && s->ndims == 0)
        return fail(&c, key, "leaves nothing to explore; use search.strategy=grid");
    return 0;
}

size_t space_builtin_count(void)
{
    return wt_embedded_spaces_count;
}

const char *space_builtin_name(size_t i)
{
    return wt_embedded_spaces[i].name;
}

const char *space_builtin_text(size_t i)
{
    return wt_embedded_spaces[i].text;
}
