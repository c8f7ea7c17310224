/* Progress of a long run on stderr. On a terminal, one line redrawn in place at most ten times
 * a second: `label [#####.....] 123/456 27% 3.2 sim/s ETA 1m42s failed 0`. Otherwise a plain
 * line at most every ten seconds and one at the end. Nothing at all when quiet. */
#include "explorer/progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define BAR_WIDTH        30
#define TTY_INTERVAL_S   0.1
#define PLAIN_INTERVAL_S 10.0

struct progress {
    char label[64];
    size_t total;
    int quiet, tty, drawn, finished;
    double start, last; /* CLOCK_MONOTONIC seconds: creation, last output */
    size_t last_len;    /* length of the last terminal line, to blank leftovers */
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* 42s, 1m42s, 2h05m */
static void format_duration(double s, char *buf, size_t len)
{
    if (!(s >= 0)) s = 0;
    if (s > 359999) s = 359999;
    unsigned long t = (unsigned long)(s + 0.5);
    if (t < 60)
        snprintf(buf, len, "%lus", t);
    else if (t < 3600)
        snprintf(buf, len, "%lum%02lus", t / 60, t % 60);
    else
        snprintf(buf, len, "%luh%02lum", t / 3600, (t % 3600) / 60);
}

progress *progress_new(const char *label, size_t total, int quiet)
{
    progress *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    snprintf(p->label, sizeof p->label, "%s", label ? label : "progress");
    p->total = total;
    p->quiet = quiet;
    p->tty = isatty(STDERR_FILENO);
    p->start = p->last = now_s();
    return p;
}

/* Rate in simulations per second since the start. */
static double rate_of(const progress *p, size_t done, double t)
{
    double el = t - p->start;
    return el > 0 ? (double)done / el : 0;
}

static void draw_tty(progress *p, size_t done, size_t failed, double t)
{
    char line[256], eta[32];
    double rate = rate_of(p, done, t);
    int n;
    if (p->total) {
        size_t shown = done < p->total ? done : p->total;
        int fill = (int)((double)shown / (double)p->total * BAR_WIDTH);
        char bar[BAR_WIDTH + 1];
        for (int i = 0; i < BAR_WIDTH; i++)
            bar[i] = i < fill ? '#' : '.';
        bar[BAR_WIDTH] = '\0';
        int pct = (int)((double)shown * 100.0 / (double)p->total);
        if (done >= p->total)
            snprintf(eta, sizeof eta, "done");
        else if (rate > 0) {
            char d[24];
            format_duration((double)(p->total - done) / rate, d, sizeof d);
            snprintf(eta, sizeof eta, "ETA %s", d);
        } else
            snprintf(eta, sizeof eta, "ETA ?");
        n = snprintf(line, sizeof line, "%s [%s] %zu/%zu %d%% %.1f sim/s %s failed %zu", p->label,
                     bar, done, p->total, pct, rate, eta, failed);
    } else {
        char d[24];
        format_duration(t - p->start, d, sizeof d);
        n = snprintf(line, sizeof line, "%s %zu done %.1f sim/s elapsed %s failed %zu", p->label,
                     done, rate, d, failed);
    }
    size_t len = n < 0 ? 0 : (size_t)n < sizeof line ? (size_t)n : sizeof line - 1;
    size_t pad = p->last_len > len ? p->last_len - len : 0;
    fprintf(stderr, "\r%s%*s", line, (int)pad, "");
    fflush(stderr);
    p->last_len = len;
    p->drawn = 1;
}

static void draw_plain(progress *p, size_t done, size_t failed, double t, int final)
{
    char el[24];
    format_duration(t - p->start, el, sizeof el);
    double rate = rate_of(p, done, t);
    if (p->total) {
        int pct = (int)((double)(done < p->total ? done : p->total) * 100.0 / (double)p->total);
        fprintf(stderr, "%s: %s%zu/%zu (%d%%), %.1f sim/s, %s elapsed", p->label,
                final ? "finished " : "", done, p->total, pct, rate, el);
        if (!final && done < p->total && rate > 0) {
            char eta[24];
            format_duration((double)(p->total - done) / rate, eta, sizeof eta);
            fprintf(stderr, ", ETA %s", eta);
        }
    } else {
        fprintf(stderr, "%s: %s%zu done, %.1f sim/s, %s elapsed", p->label,
                final ? "finished " : "", done, rate, el);
    }
    fprintf(stderr, ", %zu failed\n", failed);
    fflush(stderr);
}

void progress_update(progress *p, size_t done, size_t failed)
{
    if (!p || p->quiet || p->finished) return;
    double t = now_s();
    if (p->tty) {
        if (p->drawn && t - p->last < TTY_INTERVAL_S) return;
        draw_tty(p, done, failed, t);
    } else {
        if (t - p->last < PLAIN_INTERVAL_S) return;
        draw_plain(p, done, failed, t, 0);
    }
    p->last = t;
}

void progress_finish(progress *p, size_t done, size_t failed)
{
    if (!p || p->quiet || p->finished) return;
    double t = now_s();
    if (p->tty) {
        draw_tty(p, done, failed, t);
        fputc('\n', stderr);
        fflush(stderr);
    } else {
        draw_plain(p, done, failed, t, 1);
    }
    p->finished = 1;
    p->last = t;
}

void progress_set_total(progress *p, size_t total)
{
    if (p) p->total = total;
}

void progress_free(progress *p)
{
    free(p);
}
