/* Workload language: symbols (params, array bases, graph sizes) and constant expressions.
 *
 * Values are 64-bit integers or reals. + - * on integers stay integers (overflow is an
 * error); a / b on integers is exact: an integer when b divides a, a real otherwise, so
 * ceil(n/256) means what it says; % needs integers. */
#include "core/workload/wl_internal.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int wl_sym_add(wl_parser *P, const char *name, wl_val v, int is_param)
{
    if (wl_sym_find(P, name)) return wl_error(P, "'%s' is already defined", name);
    if (wl_is_reg_name(name, NULL) || wl_is_pred_name(name, NULL))
        return wl_error(P, "'%s' looks like a register or predicate; choose another name", name);
    if (strlen(name) >= WL_NAME_MAX) return wl_error(P, "name '%s' is too long", name);
    if (P->nsyms == P->capsyms) {
        size_t cap = P->capsyms ? P->capsyms * 2 : 32;
        wl_sym *s = realloc(P->syms, cap * sizeof *s);
        if (!s) return wl_error(P, "out of memory");
        P->syms = s;
        P->capsyms = cap;
    }
    wl_sym *s = &P->syms[P->nsyms++];
    memset(s, 0, sizeof *s);
    strcpy(s->name, name);
    s->v = v;
    s->is_param = is_param;
    return 0;
}

const wl_sym *wl_sym_find(const wl_parser *P, const char *name)
{
    for (size_t i = 0; i < P->nsyms; i++)
        if (strcmp(P->syms[i].name, name) == 0) return &P->syms[i];
    return NULL;
}

double wl_val_real(wl_val v)
{
    return v.isreal ? v.d : (double)v.i;
}

static wl_val mk_int(int64_t i)
{
    wl_val v = {0, i, 0};
    return v;
}

static wl_val mk_real(double d)
{
    wl_val v = {1, 0, d};
    return v;
}

int wl_val_int(wl_parser *P, wl_val v, int64_t lo, int64_t hi, const char *what, int64_t *out)
{
    int64_t i;
    if (v.isreal) {
        if (!(v.d == floor(v.d))) /* NaN too */
            return wl_error(P, "%s must be an integer, got %g (use ceil(), floor() or ceil_div())",
                            what, v.d);
        /* a whole number out of range (the +-9e18 keeps the conversion below defined) */
        if (v.d < -9.0e18 || v.d > 9.0e18 || v.d < (double)lo || v.d > (double)hi)
            return wl_error(P, "%s must be in [%lld, %lld], got %g", what, (long long)lo,
                            (long long)hi, v.d);
        i = (int64_t)v.d;
    } else {
        i = v.i;
    }
    if (i < lo || i > hi)
        return wl_error(P, "%s must be in [%lld, %lld], got %lld", what, (long long)lo,
                        (long long)hi, (long long)i);
    *out = i;
    return 0;
}

int wl_expr_int(wl_parser *P, wl_cur *c, int64_t lo, int64_t hi, const char *what, int64_t *out)
{
    wl_val v;
    if (wl_expr(P, c, &v)) return -1;
    return wl_val_int(P, v, lo, hi, what, out);
}

static int number(wl_parser *P, wl_cur *c, wl_val *out)
{
    const char *s = c->p;
    int real = 0;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        char *e;
        errno = 0;
        unsigned long long u = strtoull(s + 2, &e, 16);
        if (e == s + 2 || errno || u > (unsigned long long)INT64_MAX)
            return wl_error(P, "bad hexadecimal number");
        c->p = e;
        *out = mk_int((int64_t)u);
        return 0;
    }
    const char *q = s;
    while (isdigit((unsigned char)*q))
        q++;
    if (*q == '.' || *q == 'e' || *q == 'E') real = 1;
    char *e;
    errno = 0;
    if (real) {
        double d = strtod(s, &e);
        if (e == s || errno || !isfinite(d)) return wl_error(P, "bad number");
        *out = mk_real(d);
    } else {
        long long i = strtoll(s, &e, 10);
        if (e == s || errno) return wl_error(P, "number out of range");
        *out = mk_int(i);
    }
    if (isalpha((unsigned char)*e) || *e == '_')
        return wl_error(P, "bad number: unexpected '%c' after digits", *e);
    c->p = e;
    return 0;
}

static int arith(wl_parser *P, char op, wl_val a, wl_val b, wl_val *out)
{
    if (!a.isreal && !b.isreal) {
        int64_t r;
        switch (op) {
        case '+':
            if (__builtin_add_overflow(a.i, b.i, &r)) goto ovf;
            *out = mk_int(r);
            return 0;
        case '-':
            if (__builtin_sub_overflow(a.i, b.i, &r)) goto ovf;
            *out = mk_int(r);
            return 0;
        case '*':
            if (__builtin_mul_overflow(a.i, b.i, &r)) goto ovf;
            *out = mk_int(r);
            return 0;
        case '/':
        case '%':
            if (b.i == 0) return wl_error(P, "division by zero in expression");
            if (b.i == -1 && a.i == INT64_MIN) goto ovf;
            if (op == '%') {
                *out = mk_int(a.i % b.i);
            } else if (a.i % b.i == 0) {
                *out = mk_int(a.i / b.i);
            } else {
                *out = mk_real((double)a.i / (double)b.i);
            }
            return 0;
        }
    }
    double x = wl_val_real(a), y = wl_val_real(b), r = 0;
    switch (op) {
    case '+':
        r = x + y;
        break;
    case '-':
        r = x - y;
        break;
    case '*':
        r = x * y;
        break;
    case '/':
        if (y == 0) return wl_error(P, "division by zero in expression");
        r = x / y;
        break;
    case '%':
        return wl_error(P, "'%%' needs integer operands");
    }
    if (!isfinite(r)) return wl_error(P, "expression overflows");
    *out = mk_real(r);
    return 0;
ovf:
    return wl_error(P, "integer overflow in expression");
}

static int to_int_result(wl_parser *P, double d, wl_val *out)
{
    if (!(d >= -9.0e18 && d <= 9.0e18)) return wl_error(P, "expression overflows");
    *out = mk_int((int64_t)d);
    return 0;
}

static int call(wl_parser *P, const char *fn, wl_val *a, int n, wl_val *out)
{
    if (strcmp(fn, "min") == 0 || strcmp(fn, "max") == 0) {
        if (n < 1) return wl_error(P, "%s() needs at least one argument", fn);
        int mx = fn[1] == 'a';
        wl_val best = a[0];
        for (int i = 1; i < n; i++) {
            double x = wl_val_real(a[i]), y = wl_val_real(best);
            if (!a[i].isreal && !best.isreal) {
                if (mx ? a[i].i > best.i : a[i].i < best.i) best = a[i];
            } else if (mx ? x > y : x < y) {
                best = a[i];
            }
        }
        *out = best;
        return 0;
    }
    int want = strcmp(fn, "ceil_div") == 0 ? 2 : 1;
    if (strcmp(fn, "ceil_div") && strcmp(fn, "ceil") && strcmp(fn, "floor") && strcmp(fn, "log2") &&
        strcmp(fn, "abs") && strcmp(fn, "round"))
        return wl_error(P,
                        "unknown function '%s' (expected min, max, ceil_div, ceil, floor, "
                        "round, log2 or abs)",
                        fn);
    if (n != want) return wl_error(P, "%s() takes %d argument%s", fn, want, want > 1 ? "s" : "");
    if (strcmp(fn, "ceil_div") == 0) {
        if (a[0].isreal || a[1].isreal) return wl_error(P, "ceil_div() needs integers");
        if (a[1].i <= 0) return wl_error(P, "ceil_div() needs a positive divisor");
        int64_t q = a[0].i / a[1].i;
        if (a[0].i % a[1].i > 0) q++;
        *out = mk_int(q);
        return 0;
    }
    if (strcmp(fn, "abs") == 0) {
        if (a[0].isreal) {
            *out = mk_real(fabs(a[0].d));
        } else {
            if (a[0].i == INT64_MIN) return wl_error(P, "integer overflow in expression");
            *out = mk_int(a[0].i < 0 ? -a[0].i : a[0].i);
        }
        return 0;
    }
    if (strcmp(fn, "log2") == 0) {
        if (!a[0].isreal) {
            if (a[0].i <= 0) return wl_error(P, "log2() needs a positive argument");
            int64_t r = 0;
            while ((a[0].i >> r) > 1)
                r++;
            *out = mk_int(r); /* floor(log2(n)) */
            return 0;
        }
        if (a[0].d <= 0) return wl_error(P, "log2() needs a positive argument");
        *out = mk_real(log2(a[0].d));
        return 0;
    }
    if (!a[0].isreal) {
        *out = a[0];
        return 0;
    }
    double d = a[0].d;
    d = fn[0] == 'c' ? ceil(d) : fn[0] == 'f' ? floor(d) : round(d);
    return to_int_result(P, d, out);
}

static int primary(wl_parser *P, wl_cur *c, wl_val *out)
{
    char q[40];
    wl_skip_ws(c);
    if (*c->p == '(') {
        c->p++;
        if (wl_expr(P, c, out)) return -1;
        return wl_expect(P, c, ')', "to close '('");
    }
    if (isdigit((unsigned char)*c->p) || (*c->p == '.' && isdigit((unsigned char)c->p[1])))
        return number(P, c, out);
    char name[WL_NAME_MAX];
    size_t n = wl_ident(c, name, 0);
    if (n == 0) return wl_error(P, "expected a number or a name, got %s", wl_quote(c, q, sizeof q));
    if (wl_name_fits(P, n)) return -1;
    if (wl_accept(c, '(')) {
        wl_val args[8];
        int na = 0;
        if (!wl_accept(c, ')')) {
            for (;;) {
                if (na == 8) return wl_error(P, "too many arguments to %s()", name);
                if (wl_expr(P, c, &args[na++])) return -1;
                if (wl_accept(c, ')')) break;
                if (wl_expect(P, c, ',', "between arguments")) return -1;
            }
        }
        return call(P, name, args, na, out);
    }
    const wl_sym *s = wl_sym_find(P, name);
    if (!s) {
        if (wl_is_reg_name(name, NULL) || wl_is_pred_name(name, NULL))
            return wl_error(P, "register '%s' where a constant expression is expected", name);
        return wl_error(P, "unknown name '%s' (expected a .param, array or graph constant)", name);
    }
    *out = s->v;
    return 0;
}

/* Every nesting (parentheses, a call's arguments, a sign) passes through here once, so the
 * count bounds the recursion: deep input is an error, not a stack overflow. */
static int unary(wl_parser *P, wl_cur *c, wl_val *out)
{
    if (P->depth > WL_EXPR_DEPTH)
        return wl_error(P, "expression nested deeper than %d", WL_EXPR_DEPTH);
    P->depth++;
    int rc;
    if (wl_accept(c, '-')) {
        rc = unary(P, c, out);
        if (rc == 0) rc = arith(P, '-', mk_int(0), *out, out);
    } else if (wl_accept(c, '+')) {
        rc = unary(P, c, out);
    } else {
        rc = primary(P, c, out);
    }
    P->depth--;
    return rc;
}

int wl_expr_term(wl_parser *P, wl_cur *c, wl_val *out)
{
    if (unary(P, c, out)) return -1;
    for (;;) {
        wl_skip_ws(c);
        char op = *c->p;
        if (op != '*' && op != '/' && op != '%') return 0;
        c->p++;
        wl_val b;
        if (unary(P, c, &b)) return -1;
        if (arith(P, op, *out, b, out)) return -1;
    }
}

int wl_expr(wl_parser *P, wl_cur *c, wl_val *out)
{
    if (wl_expr_term(P, c, out)) return -1;
    for (;;) {
        wl_skip_ws(c);
        char op = *c->p;
        if (op != '+' && op != '-') return 0;
        c->p++;
        wl_val b;
        if (wl_expr_term(P, c, &b)) return -1;
        if (arith(P, op, *out, b, out)) return -1;
    }
}
