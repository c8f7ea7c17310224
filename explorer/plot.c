/* The front as a self-contained SVG: one scatter panel for two objectives, three pairwise
 * panels for three. Every finite point is a grey circle; front points are drawn in colour and,
 * for two objectives, joined in the order of the first objective. Same input, same bytes. */
#include "explorer/plot.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util/strbuf.h"
#include "explorer/table.h"

/* ------------------------------------------------------------------ axes ---- */

typedef struct axis {
    double lo, hi; /* data range shown */
    double step;   /* tick spacing */
    double first;  /* first tick */
    int nticks;
} axis;

/* 1, 2 or 5 times a power of ten, close to x. */
static double nice_step(double x)
{
    double e = floor(log10(x));
    double base = pow(10, e);
    double f = x / base;
    double nf = f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10;
    return nf * base;
}

static axis make_axis(double lo, double hi)
{
    axis a;
    if (!(lo <= hi)) { /* no finite data */
        lo = 0;
        hi = 1;
    }
    if (hi == lo) {
        double d = lo != 0 ? fabs(lo) * 0.1 : 1.0;
        lo -= d;
        hi += d;
    } else {
        double pad = (hi - lo) * 0.05;
        lo -= pad;
        hi += pad;
    }
    if (!isfinite(hi - lo)) { /* values near DBL_MAX: show what can be shown */
        lo = -1e307;
        hi = 1e307;
    }
    a.lo = lo;
    a.hi = hi;
    a.step = nice_step((hi - lo) / 5);
    a.first = ceil(lo / a.step) * a.step;
    a.nticks = 0;
    while (a.nticks < 20 && a.first + a.nticks * a.step <= hi + a.step * 1e-9)
        a.nticks++;
    return a;
}

static double tick_value(const axis *a, int k)
{
    double v = a->first + k * a->step;
    if (fabs(v) < a->step * 1e-9) v = 0; /* no "-0" or 1e-17 */
    return v;
}

/* ------------------------------------------------------------------ panels ---- */

enum { PANEL_W = 420, PANEL_H = 360, MARGIN_L = 78, MARGIN_R = 16, MARGIN_T = 16, MARGIN_B = 52 };

typedef struct panel {
    double x0, y0; /* top-left corner of the panel in the picture */
    axis ax, ay;
} panel;

static double px(const panel *p, double v)
{
    double w = PANEL_W - MARGIN_L - MARGIN_R;
    return p->x0 + MARGIN_L + (v - p->ax.lo) / (p->ax.hi - p->ax.lo) * w;
}

static double py(const panel *p, double v)
{
    double h = PANEL_H - MARGIN_T - MARGIN_B;
    return p->y0 + MARGIN_T + h - (v - p->ay.lo) / (p->ay.hi - p->ay.lo) * h;
}

static int row_finite(const double *row, size_t m)
{
    for (size_t k = 0; k < m; k++)
        if (!isfinite(row[k])) return 0;
    return 1;
}

typedef struct order_key {
    double x, y;
    size_t i;
} order_key;

static int cmp_order(const void *pa, const void *pb)
{
    const order_key *a = pa, *b = pb;
    if (a->x != b->x) return a->x < b->x ? -1 : 1;
    if (a->y != b->y) return a->y < b->y ? -1 : 1;
    return (a->i > b->i) - (a->i < b->i);
}

static void draw_panel(wt_strbuf *b, const panel *p, const double *obj, size_t n, size_t m,
                       size_t cx, size_t cy, const char *const *names,
                       const unsigned char *on_front, int join)
{
    double left = p->x0 + MARGIN_L, right = p->x0 + PANEL_W - MARGIN_R;
    double top = p->y0 + MARGIN_T, bottom = p->y0 + PANEL_H - MARGIN_B;

    /* frame and grid */
    wt_strbuf_printf(b, "<g class=\"panel\">\n");
    wt_strbuf_printf(b,
                     "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"#ffffff\" "
                     "stroke=\"#333333\"/>\n",
                     left, top, right - left, bottom - top);
    char label[64];
    for (int k = 0; k < p->ax.nticks; k++) {
        double v = tick_value(&p->ax, k), x = px(p, v);
        snprintf(label, sizeof label, "%.6g", v);
        wt_strbuf_printf(
            b,
            "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#e5e5e5\"/>"
            "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#333333\"/>"
            "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\">%s</text>\n",
            x, top, x, bottom, x, bottom, x, bottom + 5, x, bottom + 18, label);
    }
    for (int k = 0; k < p->ay.nticks; k++) {
        double v = tick_value(&p->ay, k), y = py(p, v);
        snprintf(label, sizeof label, "%.6g", v);
        wt_strbuf_printf(
            b,
            "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#e5e5e5\"/>"
            "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#333333\"/>"
            "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"end\">%s</text>\n",
            left, y, right, y, left - 5, y, left, y, left - 8, y + 4, label);
    }
    /* axis labels */
    wt_strbuf_printf(b, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\" class=\"axis\">",
                     (left + right) / 2, bottom + 40);
    wt_strbuf_markup(b, names ? names[cx] : "");
    wt_strbuf_printf(b, "</text>\n");
    double ly = (top + bottom) / 2, lx = p->x0 + 18;
    wt_strbuf_printf(b,
                     "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\" class=\"axis\" "
                     "transform=\"rotate(-90 %.2f %.2f)\">",
                     lx, ly, lx, ly);
    wt_strbuf_markup(b, names ? names[cy] : "");
    wt_strbuf_printf(b, "</text>\n");

    /* every point, then the front over it */
    for (size_t i = 0; i < n; i++) {
        const double *r = obj + i * m;
        if (!row_finite(r, m) || (on_front && on_front[i])) continue;
        wt_strbuf_printf(b, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"2.5\" class=\"pt\"/>\n",
                         px(p, r[cx]), py(p, r[cy]));
    }
    if (on_front) {
        if (join) {
            size_t k = 0;
            for (size_t i = 0; i < n; i++)
                if (on_front[i] && row_finite(obj + i * m, m)) k++;
            order_key *o = malloc((k ? k : 1) * sizeof *o);
            if (!o) {
                b->failed = 1;
            } else {
                k = 0;
                for (size_t i = 0; i < n; i++)
                    if (on_front[i] && row_finite(obj + i * m, m))
                        o[k++] = (order_key){obj[i * m + cx], obj[i * m + cy], i};
                qsort(o, k, sizeof *o, cmp_order);
                if (k > 1) {
                    wt_strbuf_printf(b, "<polyline class=\"front\" points=\"");
                    for (size_t j = 0; j < k; j++)
                        wt_strbuf_printf(b, "%s%.2f,%.2f", j ? " " : "", px(p, o[j].x),
                                         py(p, o[j].y));
                    wt_strbuf_printf(b, "\"/>\n");
                }
                free(o);
            }
        }
        for (size_t i = 0; i < n; i++) {
            const double *r = obj + i * m;
            if (!on_front[i] || !row_finite(r, m)) continue;
            wt_strbuf_printf(b, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"4\" class=\"fp\"/>\n",
                             px(p, r[cx]), py(p, r[cy]));
        }
    }
    wt_strbuf_printf(b, "</g>\n");
}

int plot_front_svg(const char *path, const char *title, const double *obj, size_t n, size_t m,
                   const char *const *names, const unsigned char *on_front, char *err,
                   size_t errlen)
{
    if (m != 2 && m != 3) {
        snprintf(err, errlen, "%s: a plot needs 2 or 3 objectives, not %zu", path, m);
        return -1;
    }
    /* the range of each objective over the finite rows */
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    size_t finite = 0, nfront = 0;
    for (size_t i = 0; i < n; i++) {
        const double *r = obj + i * m;
        if (!row_finite(r, m)) continue;
        finite++;
        if (on_front && on_front[i]) nfront++;
        for (size_t k = 0; k < m; k++) {
            if (r[k] < lo[k]) lo[k] = r[k];
            if (r[k] > hi[k]) hi[k] = r[k];
        }
    }
    static const size_t pairs[3][2] = {{0, 1}, {0, 2}, {1, 2}};
    size_t npanels = m == 2 ? 1 : 3;
    double title_h = 34, legend_h = 22;
    double width = (double)(PANEL_W * npanels), height = PANEL_H + title_h + legend_h;

    wt_strbuf b = {0};
    wt_strbuf_printf(&b,
                     "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
                     "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"11\">\n",
                     width, height, width, height);
    wt_strbuf_printf(&b, "<title>");
    wt_strbuf_markup(&b, title);
    wt_strbuf_printf(&b, "</title>\n");
    wt_strbuf_printf(&b, "<style>.pt{fill:#b0b0b0;stroke:none}"
                         ".fp{fill:#d62728;stroke:#7f1414;stroke-width:0.8}"
                         ".front{fill:none;stroke:#d62728;stroke-width:1.5}"
                         ".axis{font-size:13px}.title{font-size:15px;font-weight:bold}</style>\n");
    wt_strbuf_printf(&b, "<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n");
    wt_strbuf_printf(&b, "<text x=\"%.2f\" y=\"22\" text-anchor=\"middle\" class=\"title\">",
                     width / 2);
    wt_strbuf_markup(&b, title);
    wt_strbuf_printf(&b, "</text>\n");
    for (size_t q = 0; q < npanels; q++) {
        size_t cx = pairs[q][0], cy = pairs[q][1];
        panel p = {(double)(PANEL_W * q), title_h, make_axis(lo[cx], hi[cx]),
                   make_axis(lo[cy], hi[cy])};
        draw_panel(&b, &p, obj, n, m, cx, cy, names, on_front, m == 2);
    }
    wt_strbuf_printf(
        &b,
        "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\">%zu points, %zu on the front "
        "(grey: evaluated, red: non-dominated)</text>\n",
        width / 2, height - 8, finite, nfront);
    wt_strbuf_printf(&b, "</svg>\n");
    if (b.failed) {
        free(b.s);
        snprintf(err, errlen, "%s: out of memory drawing the plot", path);
        return -1;
    }
    int rc = write_file_atomic(path, b.s, b.len, err, errlen);
    free(b.s);
    return rc;
}
