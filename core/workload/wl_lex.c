/* Workload language: error reporting and the line cursor. */
#include "core/workload/wl_internal.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int wl_error(wl_parser *P, const char *fmt, ...)
{
    if (P->failed) return -1;
    P->failed = 1;
    if (!P->err || P->errlen == 0) return -1;
    int n;
    if (P->line > 0)
        n = snprintf(P->err, P->errlen, "%s:%d: ", P->filename, P->line);
    else
        n = snprintf(P->err, P->errlen, "%s: ", P->filename);
    if (n < 0 || (size_t)n >= P->errlen) return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(P->err + n, P->errlen - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

void wl_skip_ws(wl_cur *c)
{
    while (*c->p == ' ' || *c->p == '\t' || *c->p == '\r')
        c->p++;
}

int wl_at_end(wl_cur *c)
{
    wl_skip_ws(c);
    return *c->p == '\0';
}

int wl_accept(wl_cur *c, char ch)
{
    wl_skip_ws(c);
    if (*c->p != ch) return 0;
    c->p++;
    return 1;
}

const char *wl_quote(const wl_cur *c, char *buf, size_t buflen)
{
    const char *p = c->p;
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p == '\0') return "end of line";
    size_t n = 0;
    while (p[n] && p[n] != ' ' && p[n] != '\t' && n + 3 < buflen && n < 24)
        n++;
    if (n == 0) n = 1;
    snprintf(buf, buflen, "'%.*s'", (int)n, p);
    return buf;
}

int wl_expect(wl_parser *P, wl_cur *c, char ch, const char *what)
{
    if (wl_accept(c, ch)) return 0;
    char q[40];
    return wl_error(P, "expected '%c' %s, got %s", ch, what, wl_quote(c, q, sizeof q));
}

static size_t scan_ident(const char *p, char *buf, int dots)
{
    if (!(isalpha((unsigned char)*p) || *p == '_')) return 0;
    size_t n = 0;
    while (isalnum((unsigned char)p[n]) || p[n] == '_' || (dots && p[n] == '.'))
        n++;
    if (buf) {
        size_t m = n < WL_NAME_MAX - 1 ? n : WL_NAME_MAX - 1;
        memcpy(buf, p, m);
        buf[m] = '\0';
    }
    return n;
}

size_t wl_ident(wl_cur *c, char *buf, int dots)
{
    wl_skip_ws(c);
    size_t n = scan_ident(c->p, buf, dots);
    c->p += n;
    return n;
}

int wl_name_fits(wl_parser *P, size_t n)
{
    if (n < WL_NAME_MAX) return 0;
    return wl_error(P, "name too long (at most %d characters)", WL_NAME_MAX - 1);
}

int wl_name_not_register(wl_parser *P, const char *what, const char *name)
{
    if (!wl_is_reg_name(name, NULL) && !wl_is_pred_name(name, NULL)) return 0;
    return wl_error(P,
                    "%s '%s' looks like a register or predicate; choose another name (r<digits> "
                    "and p<digits> name registers and predicates only)",
                    what, name);
}

size_t wl_peek_ident(const wl_cur *c, char *buf, int dots)
{
    const char *p = c->p;
    while (*p == ' ' || *p == '\t' || *p == '\r')
        p++;
    return scan_ident(p, buf, dots);
}

static int numbered(const char *s, char prefix, int *num)
{
    if (s[0] != prefix || !isdigit((unsigned char)s[1])) return 0;
    long v = 0;
    for (const char *q = s + 1; *q; q++) {
        if (!isdigit((unsigned char)*q)) return 0;
        if (v < 100000) v = v * 10 + (*q - '0');
    }
    if (num) *num = (int)v;
    return 1;
}

int wl_is_reg_name(const char *s, int *num)
{
    return numbered(s, 'r', num);
}

int wl_is_pred_name(const char *s, int *num)
{
    return numbered(s, 'p', num);
}

int wl_string(wl_parser *P, wl_cur *c, char *buf, size_t buflen)
{
    wl_skip_ws(c);
    if (*c->p != '"') {
        char q[40];
        return wl_error(P, "expected a quoted file name, got %s", wl_quote(c, q, sizeof q));
    }
    const char *s = c->p + 1, *e = strchr(s, '"');
    if (!e) return wl_error(P, "unterminated string");
    if ((size_t)(e - s) >= buflen) return wl_error(P, "string too long");
    memcpy(buf, s, (size_t)(e - s));
    buf[e - s] = '\0';
    c->p = e + 1;
    return 0;
}
