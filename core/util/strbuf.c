/* A growing string (core/util/strbuf.h). */
#include "core/util/strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Room for `need` more bytes and the NUL; 0, or -1 (the buffer then failed). */
static int reserve(wt_strbuf *b, size_t need)
{
    if (b->failed) return -1;
    if (b->s && b->len + need < b->cap) return 0;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap <= b->len + need)
        cap *= 2;
    char *s = realloc(b->s, cap);
    if (!s) {
        b->failed = 1;
        return -1;
    }
    b->s = s;
    b->cap = cap;
    return 0;
}

void wt_strbuf_put(wt_strbuf *b, const char *text, size_t n)
{
    if (reserve(b, n) != 0) return;
    memcpy(b->s + b->len, text, n);
    b->len += n;
    b->s[b->len] = '\0';
}

void wt_strbuf_str(wt_strbuf *b, const char *text)
{
    wt_strbuf_put(b, text, strlen(text));
}

void wt_strbuf_printf(wt_strbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->failed = 1;
        return;
    }
    if (reserve(b, (size_t)n) != 0) return;
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

void wt_strbuf_free(wt_strbuf *b)
{
    free(b->s);
    *b = (wt_strbuf){0};
}

void wt_strbuf_markup(wt_strbuf *b, const char *text)
{
    for (const char *p = text ? text : ""; *p; p++) {
        const char *entity = *p == '&'    ? "&amp;"
                             : *p == '<'  ? "&lt;"
                             : *p == '>'  ? "&gt;"
                             : *p == '"'  ? "&quot;"
                             : *p == '\'' ? "&#39;"
                                          : NULL;
        if (entity)
            wt_strbuf_str(b, entity);
        else if ((unsigned char)*p < 0x20 && *p != '\t')
            wt_strbuf_put(b, " ", 1);
        else
            wt_strbuf_put(b, p, 1);
    }
}
