/* Pareto fronts: the non-dominated subset and the exact hypervolume for one to three
 * objectives. Every objective is minimised. */
#include "explorer/front.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int row_has_nan(const double *row, size_t m)
{
    for (size_t k = 0; k < m; k++)
        if (isnan(row[k])) return 1;
    return 0;
}

/* Whether a dominates b: a <= b everywhere and a < b somewhere. */
static int dominates(const double *a, const double *b, size_t m)
{
    int strict = 0;
    for (size_t k = 0; k < m; k++) {
        if (a[k] > b[k]) return 0;
        if (a[k] < b[k]) strict = 1;
    }
    return strict;
}

typedef struct pt2 {
    double x, y;
    size_t i;
} pt2;

static int cmp_pt2(const void *pa, const void *pb)
{
    const pt2 *a = pa, *b = pb;
    if (a->x < b->x) return -1;
    if (a->x > b->x) return 1;
    if (a->y < b->y) return -1;
    if (a->y > b->y) return 1;
    return (a->i > b->i) - (a->i < b->i);
}

/* Two objectives: sort by (x, y); within a run of equal x only the rows with the run's least y
 * can survive, and they survive when that y is below every y seen at a smaller x. */
static size_t mark2(const double *obj, size_t n, unsigned char *on_front)
{
    pt2 *p = malloc((n ? n : 1) * sizeof *p);
    if (!p) return (size_t)-1;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!row_has_nan(obj + 2 * i, 2)) p[k++] = (pt2){obj[2 * i], obj[2 * i + 1], i};
    qsort(p, k, sizeof *p, cmp_pt2);
    size_t count = 0;
    double best = INFINITY; /* least y at a strictly smaller x */
    int any = 0;
    for (size_t a = 0; a < k;) {
        size_t b = a;
        while (b < k && p[b].x == p[a].x)
            b++;
        double gmin = p[a].y; /* sorted by y within the run */
        if (!any || gmin < best) {
            for (size_t j = a; j < b && p[j].y == gmin; j++) {
                on_front[p[j].i] = 1;
                count++;
            }
        }
        if (!any || gmin < best) best = gmin;
        any = 1;
        a = b;
    }
    free(p);
    return count;
}

size_t front_mark(const double *obj, size_t n, size_t m, unsigned char *on_front)
{
    if (n == 0) return 0;
    memset(on_front, 0, n);
    if (m == 0) {
        memset(on_front, 1, n); /* nothing to compare: every row is equal */
        return n;
    }
    if (m == 2) {
        size_t c = mark2(obj, n, on_front);
        if (c != (size_t)-1) return c;
        memset(on_front, 0, n); /* out of memory: fall back to the quadratic scan */
    }
    size_t count = 0;
    for (size_t i = 0; i < n; i++) {
        const double *a = obj + i * m;
        if (row_has_nan(a, m)) continue;
        int dominated = 0;
        for (size_t j = 0; j < n && !dominated; j++) {
            if (j == i) continue;
            const double *b = obj + j * m;
            if (!row_has_nan(b, m) && dominates(b, a, m)) dominated = 1;
        }
        if (!dominated) {
            on_front[i] = 1;
            count++;
        }
    }
    return count;
}

/* ------------------------------------------------------------------ hypervolume ---- */

/* Whether the row is strictly better than ref in every objective (false with a NaN). */
static int inside(const double *row, const double *ref, size_t m)
{
    for (size_t k = 0; k < m; k++)
        if (!(row[k] < ref[k])) return 0;
    return 1;
}

static double hv2(const double *obj, size_t n, const double *ref)
{
    pt2 *p = malloc((n ? n : 1) * sizeof *p);
    if (!p) return -1;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (inside(obj + 2 * i, ref, 2)) p[k++] = (pt2){obj[2 * i], obj[2 * i + 1], i};
    qsort(p, k, sizeof *p, cmp_pt2);
    /* Horizontal slabs: each row lowering the least y so far adds (ref_x - x) * (prev - y). */
    double hv = 0, prev = ref[1];
    for (size_t a = 0; a < k; a++) {
        if (p[a].y < prev) {
            hv += (ref[0] - p[a].x) * (prev - p[a].y);
            prev = p[a].y;
        }
    }
    free(p);
    return hv;
}

typedef struct pt3 {
    double x, y, z;
} pt3;

static int cmp_pt3_z(const void *pa, const void *pb)
{
    const pt3 *a = pa, *b = pb;
    if (a->z < b->z) return -1;
    if (a->z > b->z) return 1;
    if (a->x < b->x) return -1;
    if (a->x > b->x) return 1;
    return (a->y > b->y) - (a->y < b->y);
}

/* A 2D staircase: mutually non-dominated points sorted by x ascending, y strictly descending.
 * Inserts p (unless dominated) and returns the new size. */
static size_t stair_insert(pt3 *s, size_t len, double x, double y)
{
    /* idx: first point with s.x > x */
    size_t lo = 0, hi = len;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s[mid].x <= x)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t idx = lo;
    if (idx > 0 && s[idx - 1].y <= y) return len; /* dominated or equal */
    size_t start = (idx > 0 && s[idx - 1].x == x) ? idx - 1 : idx;
    size_t end = start;
    while (end < len && s[end].y >= y)
        end++;
    /* replace s[start, end) by p */
    if (end == start) {
        memmove(s + start + 1, s + start, (len - start) * sizeof *s);
        len++;
    } else if (end > start + 1) {
        memmove(s + start + 1, s + end, (len - end) * sizeof *s);
        len -= end - start - 1;
    }
    s[start] = (pt3){x, y, 0};
    return len;
}

static double stair_area(const pt3 *s, size_t len, const double *ref)
{
    double a = 0;
    for (size_t i = 0; i < len; i++) {
        double next = i + 1 < len ? s[i + 1].x : ref[0];
        a += (next - s[i].x) * (ref[1] - s[i].y);
    }
    return a;
}

/* Three objectives: sweep upwards in z; between consecutive z levels the dominated region is
 * a prism over the 2D staircase of every row seen so far. O(n^2) in the worst case. */
static double hv3(const double *obj, size_t n, const double *ref)
{
    pt3 *p = malloc((n ? n : 1) * sizeof *p);
    pt3 *s = malloc((n ? n : 1) * sizeof *s);
    if (!p || !s) {
        free(p);
        free(s);
        return -1;
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        const double *r = obj + 3 * i;
        if (inside(r, ref, 3)) p[k++] = (pt3){r[0], r[1], r[2]};
    }
    qsort(p, k, sizeof *p, cmp_pt3_z);
    double hv = 0, area = 0;
    size_t len = 0;
    for (size_t a = 0; a < k;) {
        size_t b = a;
        while (b < k && p[b].z == p[a].z) {
            len = stair_insert(s, len, p[b].x, p[b].y);
            b++;
        }
        area = stair_area(s, len, ref);
        double znext = b < k ? p[b].z : ref[2];
        hv += area * (znext - p[a].z);
        a = b;
    }
    free(p);
    free(s);
    return hv;
}

double front_hypervolume(const double *obj, size_t n, size_t m, const double *ref)
{
    if (m == 1) {
        double best = ref[0];
        for (size_t i = 0; i < n; i++)
            if (obj[i] < best) best = obj[i];
        return ref[0] - best;
    }
    if (m == 2) return hv2(obj, n, ref);
    if (m == 3) return hv3(obj, n, ref);
    return -1;
}
