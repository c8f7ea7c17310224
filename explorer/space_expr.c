/* Constraint expressions of a space: the parser of conditions over parameters ("a < b",
 * && / ||, min/max, 'choice' names) and their measure of violation. */
#include "explorer/space_internal.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Bounds on what the recursive parser and tree walks may meet, so that deep input is an error
 * rather than a stack overflow: nesting of (), min/max and unary - and ! (CP_DEPTH), and the
 * height of the tree, which long chains such as a+a+...+a also raise (CP_HEIGHT). */
#define CP_DEPTH  256
#define CP_HEIGHT 4096

struct cexpr {
    cop op;
    double num;
    int param;
    int height; /* nodes on the longest path down from here */
    char *str;
    struct cexpr *a, *b;
};

void cexpr_free(struct cexpr *e)
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
    int depth; /* current nesting, against CP_DEPTH */
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
    int ha = a ? a->height : 0, hb = b ? b->height : 0;
    e->height = 1 + (ha > hb ? ha : hb);
    return e;
}

/* cnode for an operator, refusing a tree taller than CP_HEIGHT. */
static struct cexpr *cp_node(cparser *c, cop op, struct cexpr *a, struct cexpr *b)
{
    struct cexpr *e = cnode(op, a, b);
    if (e && e->height > CP_HEIGHT) {
        cp_error(c, "expression too large (more than %d operators chained or nested)", CP_HEIGHT);
        cexpr_free(e);
        return NULL;
    }
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
            return cp_node(c, op, a, b);
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

/* Every nesting passes through here once: the count bounds the parser's recursion. */
static struct cexpr *cp_unary(cparser *c)
{
    if (c->failed) return NULL;
    if (c->depth > CP_DEPTH) {
        cp_error(c, "expression nested deeper than %d", CP_DEPTH);
        return NULL;
    }
    c->depth++;
    struct cexpr *e;
    if (cp_accept(c, "-"))
        e = cp_node(c, C_NEG, cp_unary(c), NULL);
    else if (cp_accept(c, "!"))
        e = cp_node(c, C_NOT, cp_unary(c), NULL);
    else
        e = cp_primary(c);
    c->depth--;
    return e;
}

static struct cexpr *cp_prod(cparser *c)
{
    struct cexpr *e = cp_unary(c);
    while (!c->failed) {
        if (cp_accept(c, "*"))
            e = cp_node(c, C_MUL, e, cp_unary(c));
        else if (cp_accept(c, "/"))
            e = cp_node(c, C_DIV, e, cp_unary(c));
        else if (cp_accept(c, "%"))
            e = cp_node(c, C_MOD, e, cp_unary(c));
        else
            return e;
    }
    return e;
}

static struct cexpr *cp_sum(cparser *c)
{
    struct cexpr *e = cp_prod(c);
    while (!c->failed) {
        if (cp_accept(c, "+"))
            e = cp_node(c, C_ADD, e, cp_prod(c));
        else if (cp_accept(c, "-"))
            e = cp_node(c, C_SUB, e, cp_prod(c));
        else
            return e;
    }
    return e;
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
    /* a choice or an alias: compared with the parameter's value as shown (param_get_shown) */
    int k = param_choice_index(&sim_catalog, (size_t)other->param, s->str);
    if (k >= 0) {
        s->num = (double)k;
        s->op = C_NUM;
        return 0;
    }
    char list[256] = "";
    size_t used = 0;
    const char *name;
    for (size_t i = 0;
         (name = param_choice_name(&sim_catalog, (size_t)other->param, i)) && used < sizeof list;
         i++)
        used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", name);
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
            struct cexpr *e = cp_node(c, ops[i].op, a, b);
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
    while (!c->failed && cp_accept(c, "&&"))
        e = cp_node(c, C_AND, e, cp_cmp(c));
    return e;
}

static struct cexpr *cp_or(cparser *c)
{
    struct cexpr *e = cp_and(c);
    while (!c->failed && cp_accept(c, "||"))
        e = cp_node(c, C_OR, e, cp_and(c));
    return e;
}

static int cexpr_has_str(const struct cexpr *e)
{
    return e && (e->op == C_STR || cexpr_has_str(e->a) || cexpr_has_str(e->b));
}

struct cexpr *cexpr_parse(const char *text, char *err, size_t errlen)
{
    cparser c = {text, text, err, errlen, 0, 0};
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
        return param_get_shown(cfg, e->param);
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
