/* A growing string: text appended piece by piece, always NUL-terminated, for outputs built in
 * memory and then written at once (front.svg, report.html). An allocation that fails marks the
 * buffer failed; later appends do nothing, and the caller checks `failed` once at the end. */
#ifndef WT_STRBUF_H
#define WT_STRBUF_H

#include <stddef.h>

typedef struct wt_strbuf {
    char *s; /* NULL until the first append */
    size_t len, cap;
    int failed;
} wt_strbuf;

/* Appends n bytes of text. */
void wt_strbuf_put(wt_strbuf *b, const char *text, size_t n);
/* Appends a NUL-terminated string. */
void wt_strbuf_str(wt_strbuf *b, const char *text);
/* Appends printf-formatted text. */
void wt_strbuf_printf(wt_strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Appends text (NULL: nothing) as markup text or an attribute value, for XML (SVG) and HTML
 * alike: & < > " ' as entities, control characters other than tab (not allowed in XML 1.0) as
 * spaces. */
void wt_strbuf_markup(wt_strbuf *b, const char *text);
/* Frees the text; the buffer is then empty again. */
void wt_strbuf_free(wt_strbuf *b);

#endif
