#include "explorer/journal.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "explorer/catalog.h"
#include "explorer/simulate.h"
#include "core/util/textfile.h"

#define HEADER_START "# warptune journal " /* then the version and a tab */
#define NO_METRIC    ((size_t)-1)          /* a header's metric this build does not have */

/* The sampling columns (journal.h), after the metrics: a name and its field. */
static const struct {
    const char *name;
    size_t offset;
} sampling_cols[] = {
    {"detailed_warp_insts", offsetof(sim_metrics, detailed_warp_insts)},
    {"projected_warp_insts", offsetof(sim_metrics, projected_warp_insts)},
};
#define NSAMPLING (sizeof sampling_cols / sizeof sampling_cols[0])

struct journal {
    FILE *f;
    char *path;
    int failed;  /* an append failed: nothing more is appended (journal_append) */
    int sampled; /* its lines have the sampling columns */
    int version; /* of its keys: JOURNAL_VERSION, or 1 for a journal written before */
    char *buf;   /* line buffer for appends */
    size_t cap;
};

static uint32_t fnv32(const char *s, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 16777619u;
    }
    return h;
}

static void header_text(char *out, size_t n, int sampled)
{
    size_t used = (size_t)snprintf(out, n, "%s%d\t", HEADER_START, JOURNAL_VERSION);
    size_t nm = metric_count();
    for (size_t i = 0; i < nm && used < n; i++)
        used += (size_t)snprintf(out + used, n - used, "%s%s", i ? "," : "", metric_at(i).name);
    for (size_t i = 0; sampled && i < NSAMPLING && used < n; i++)
        used += (size_t)snprintf(out + used, n - used, ",%s", sampling_cols[i].name);
    if (used < n) snprintf(out + used, n - used, "\n");
}

/* The version the header at text names, 1 or JOURNAL_VERSION: the first whose header line
 * begins as text does, as far as text goes (a torn header names one too); 0 for none. The
 * length of its "# warptune journal V\t" in *start. */
static int header_version(const char *text, size_t len, size_t *start)
{
    for (int v = 1; v <= JOURNAL_VERSION; v++) {
        char head[64];
        int hl = snprintf(head, sizeof head, "%s%d\t", HEADER_START, v);
        if (strncmp(text, head, len < (size_t)hl ? len : (size_t)hl) == 0) {
            *start = (size_t)hl;
            return v;
        }
    }
    return 0;
}

/* Parses one record line (without its newline). map[k]: the offset in sim_metrics of the
 * header's k-th metric, or NO_METRIC. Returns 0 if the line is a valid record. */
static int parse_record(char *line, size_t len, const size_t *map, size_t nmap, journal_record *r)
{
    /* the check: the last tab-separated field, over everything before it */
    char *last = NULL;
    for (size_t i = len; i-- > 0;)
        if (line[i] == '\t') {
            last = line + i;
            break;
        }
    if (!last) return -1;
    char *end;
    unsigned long check = strtoul(last + 1, &end, 16);
    if (*end || end == last + 1 || check != fnv32(line, (size_t)(last - line))) return -1;
    *last = '\0';
    char *field[5];
    char *p = line;
    for (int i = 0; i < 5; i++) {
        field[i] = p;
        char *tab = strchr(p, '\t');
        if (i < 4) {
            if (!tab) return -1;
            *tab = '\0';
            p = tab + 1;
        }
    }
    r->key = strtoull(field[0], &end, 16);
    if (*end || end == field[0]) return -1;
    if (!strcmp(field[1], "ok"))
        r->status = SIM_OK;
    else if (!strcmp(field[1], "failed"))
        r->status = SIM_FAILED;
    else if (!strcmp(field[1], "bad"))
        r->status = SIM_BAD_CONFIG;
    else
        return -1;
    r->label = field[2];
    /* every metric the header lacks reads as NaN (sim_metrics holds only doubles) */
    for (size_t off = 0; off + sizeof(double) <= sizeof r->m; off += sizeof(double)) {
        double nan = NAN;
        memcpy((char *)&r->m + off, &nan, sizeof nan);
    }
    p = field[3];
    for (size_t k = 0; k < nmap; k++) {
        double v = strtod(p, &end);
        if (end == p) return -1;
        if (map[k] != NO_METRIC) memcpy((char *)&r->m + map[k], &v, sizeof v);
        p = end;
        if (k + 1 < nmap) {
            if (*p != ',') return -1;
            p++;
        }
    }
    if (*p) return -1;
    if (isnan(r->m.detailed_warp_insts)) r->m.detailed_warp_insts = 0; /* not sampled */
    if (isnan(r->m.projected_warp_insts)) r->m.projected_warp_insts = 0;
    r->error = field[4];
    return 0;
}

static journal *open_journal(const char *path, journal_replay_fn replay, void *ctx,
                             journal_stats *st, int sampled, char *err, size_t errlen)
{
    journal_stats local;
    if (!st) st = &local;
    memset(st, 0, sizeof *st);
    struct stat sb;
    /* it is read whole, cut and appended to: a device (/dev/zero would be read until memory
     * runs out) or a FIFO cannot be a journal */
    if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode)) {
        snprintf(err, errlen, "%s: not a regular file (expected a journal)", path);
        st->io_failed = 1;
        return NULL;
    }
    size_t len = 0;
    char *text = wt_read_file(path, &len);
    if (!text && errno != ENOENT) { /* unreadable: it would be taken for an empty journal */
        snprintf(err, errlen, "%s: cannot read the journal: %s", path, strerror(errno));
        st->io_failed = 1;
        return NULL;
    }
    size_t *map = NULL;
    size_t nmap = 0;
    size_t keep = 0; /* bytes of the file to keep: everything up to the last complete line */
    size_t start = 0;
    int version = JOURNAL_VERSION;
    int has_sampling = 0; /* the header has the sampling columns */
    if (text && len > 0) {
        char *nl = memchr(text, '\n', len);
        version = header_version(text, len, &start);
        if (!version) {
            snprintf(err, errlen,
                     "%s: not a warptune journal (expected a first line '%s%d...' or, written "
                     "before, '%s1...')",
                     path, HEADER_START, JOURNAL_VERSION, HEADER_START);
            free(text);
            return NULL;
        }
        if (nl && memchr(text, '\0', (size_t)(nl - text))) {
            /* not a torn write (the header ends with its newline): a damaged file, which is
             * left as it is rather than cut off with every record after the header */
            snprintf(err, errlen,
                     "%s:1: NUL byte in the header (expected '%s%d' and the metric names)", path,
                     HEADER_START, version);
            free(text);
            return NULL;
        }
        if (nl) {
            /* header: the metric names */
            *nl = '\0';
            char *names = text + start;
            nmap = 1;
            for (char *c = names; *c; c++)
                nmap += *c == ',';
            map = malloc(nmap * sizeof *map);
            if (!map) {
                free(text);
                snprintf(err, errlen, "%s: out of memory", path);
                st->io_failed = 1;
                return NULL;
            }
            size_t k = 0;
            for (char *tok = names; tok; k++) {
                char *comma = strchr(tok, ',');
                if (comma) *comma = '\0';
                int id = metric_lookup(tok);
                map[k] = id < 0 ? NO_METRIC : metric_at((size_t)id).offset;
                for (size_t c = 0; id < 0 && c < NSAMPLING; c++)
                    if (!strcmp(tok, sampling_cols[c].name)) {
                        map[k] = sampling_cols[c].offset;
                        has_sampling = 1;
                    }
                tok = comma ? comma + 1 : NULL;
            }
            keep = (size_t)(nl - text) + 1;
            char *line = nl + 1;
            while (line < text + len) {
                char *e = memchr(line, '\n', (size_t)(text + len - line));
                if (!e) {
                    st->truncated = 1; /* torn last line: cut it off */
                    break;
                }
                *e = '\0';
                journal_record r;
                if (parse_record(line, (size_t)(e - line), map, nmap, &r) == 0) {
                    if (replay) replay(ctx, &r);
                    st->replayed++;
                } else {
                    st->skipped++;
                }
                line = e + 1;
                keep = (size_t)(line - text);
            }
        } else {
            st->truncated = 1; /* a torn header */
        }
    }
    free(map);
    free(text);
    if (st->truncated && truncate(path, (off_t)keep) != 0) {
        snprintf(err, errlen, "%s: cannot cut off a torn last line: %s", path, strerror(errno));
        st->io_failed = 1;
        return NULL;
    }
    if (keep == 0) version = JOURNAL_VERSION; /* nothing kept: a new journal */
    st->version = version;
    journal *j = calloc(1, sizeof *j);
    if (!j) {
        snprintf(err, errlen, "%s: out of memory", path);
        st->io_failed = 1;
        return NULL;
    }
    j->version = version;
    j->sampled = keep == 0 ? sampled : has_sampling;
    j->path = strdup(path);
    if (!j->path) {
        snprintf(err, errlen, "%s: out of memory", path);
        st->io_failed = 1;
        free(j);
        return NULL;
    }
    j->f = fopen(path, "ab");
    if (!j->f) {
        snprintf(err, errlen, "%s: cannot write the journal: %s", path, strerror(errno));
        st->io_failed = 1;
        free(j->path);
        free(j);
        return NULL;
    }
    /* unbuffered: each record is one write, and no part of a failed one stays in a buffer for
     * fclose to write after the failure */
    setvbuf(j->f, NULL, _IONBF, 0);
    if (keep == 0) {
        char header[4096];
        header_text(header, sizeof header, sampled);
        if (fputs(header, j->f) == EOF || fflush(j->f) != 0) {
            snprintf(err, errlen, "%s: cannot write the journal: %s", path, strerror(errno));
            st->io_failed = 1;
            journal_close(j);
            return NULL;
        }
    }
    return j;
}

journal *journal_open(const char *path, journal_replay_fn replay, void *ctx, journal_stats *st,
                      char *err, size_t errlen)
{
    return open_journal(path, replay, ctx, st, 0, err, errlen);
}

journal *journal_open_sampled(const char *path, journal_replay_fn replay, void *ctx,
                              journal_stats *st, char *err, size_t errlen)
{
    return open_journal(path, replay, ctx, st, 1, err, errlen);
}

static int append(journal *j, size_t *used, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int append(journal *j, size_t *used, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int w = vsnprintf(j->buf + *used, j->cap - *used, fmt, ap);
        va_end(ap);
        if (w < 0) return -1;
        if ((size_t)w < j->cap - *used) {
            *used += (size_t)w;
            return 0;
        }
        size_t cap = j->cap * 2 + (size_t)w + 64;
        char *t = realloc(j->buf, cap);
        if (!t) return -1;
        j->buf = t;
        j->cap = cap;
    }
}

/* An append that fails marks the journal failed, keeping errno: after a failed write the file
 * may end in part of a line, which the next open cuts off; a later record appended to it would
 * be glued to that part and lost with it. */
static int append_failed(journal *j)
{
    int e = errno;
    j->failed = 1;
    errno = e;
    return -1;
}

int journal_append(journal *j, const journal_record *r)
{
    if (j->failed) {
        errno = EIO;
        return -1;
    }
    if (!j->buf) {
        j->cap = 8192;
        j->buf = malloc(j->cap);
        if (!j->buf) return append_failed(j);
    }
    size_t used = 0;
    const char *st = r->status == SIM_OK ? "ok" : r->status == SIM_FAILED ? "failed" : "bad";
    if (append(j, &used, "%016llx\t%s\t", (unsigned long long)r->key, st)) return append_failed(j);
    for (const char *c = r->label; *c; c++)
        if (append(j, &used, "%c", *c == '\t' || *c == '\n' || *c == '\r' ? ' ' : *c))
            return append_failed(j);
    if (append(j, &used, "\t")) return append_failed(j);
    size_t nm = metric_count();
    for (size_t i = 0; i < nm; i++)
        if (append(j, &used, "%s%.17g", i ? "," : "", metric_value(&r->m, i)))
            return append_failed(j);
    for (size_t i = 0; j->sampled && i < NSAMPLING; i++) {
        double v;
        memcpy(&v, (const char *)&r->m + sampling_cols[i].offset, sizeof v);
        if (append(j, &used, ",%.17g", v)) return append_failed(j);
    }
    if (append(j, &used, "\t")) return append_failed(j);
    for (const char *c = r->error ? r->error : ""; *c; c++)
        if (append(j, &used, "%c", *c == '\t' || *c == '\n' || *c == '\r' ? ' ' : *c))
            return append_failed(j);
    uint32_t check = fnv32(j->buf, used);
    if (append(j, &used, "\t%08x\n", check)) return append_failed(j);
    if (fwrite(j->buf, 1, used, j->f) != used || fflush(j->f) != 0) return append_failed(j);
    return 0;
}

int journal_version(const journal *j)
{
    return j->version;
}

const char *journal_path(const journal *j)
{
    return j->path;
}

void journal_close(journal *j)
{
    if (!j) return;
    if (j->f) fclose(j->f);
    free(j->path);
    free(j->buf);
    free(j);
}
