#include "explorer/shard.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/util/textfile.h"
#include "explorer/explore_internal.h"

int shard_parse(const char *text, int *k, int *n)
{
    char *end;
    errno = 0;
    long a = strtol(text, &end, 10);
    if (end == text || *end != '/' || errno) return -1;
    const char *p = end + 1;
    long b = strtol(p, &end, 10);
    if (end == p || *end || errno || a < 1 || b < 1 || a > b || b > SHARD_MAX) return -1;
    *k = (int)a;
    *n = (int)b;
    return 0;
}

/* K and N of a shard journal's name, or -1 when name is not one. */
static int journal_name(const char *name, int *k, int *n)
{
    char tail;
    if (sscanf(name, "journal.%d-of-%d%c", k, n, &tail) != 2 || *k < 1 || *n < *k) return -1;
    char again[64];
    snprintf(again, sizeof again, "journal.%d-of-%d", *k, *n);
    return strcmp(again, name) ? -1 : 0; /* no sign, space or leading zero */
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The shard journals of folder, sorted; *count of them. NULL with *count 0 when none. */
static char **list_journals(const char *folder, size_t *count)
{
    *count = 0;
    DIR *d = opendir(folder);
    if (!d) return NULL;
    char **v = NULL;
    size_t cap = 0;
    for (struct dirent *de; (de = readdir(d));) {
        int k, n;
        if (journal_name(de->d_name, &k, &n) != 0) continue;
        if (*count == cap) {
            cap = cap ? cap * 2 : 16;
            char **t = realloc(v, cap * sizeof *t);
            if (!t) break;
            v = t;
        }
        if (!(v[*count] = strdup(de->d_name))) break;
        (*count)++;
    }
    closedir(d);
    if (v) qsort(v, *count, sizeof *v, cmp_name);
    return v;
}

static void free_list(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

size_t shard_journals(const char *folder)
{
    size_t n;
    char **v = list_journals(folder, &n);
    free_list(v, n);
    return n;
}

int shard_prepare(const space *s, const char *const *sets, size_t nsets, int k, int n,
                  char *journal, size_t journal_len, char *err, size_t errlen)
{
    if (s->search.kind == SEARCH_NLOPT) {
        snprintf(err, errlen,
                 "--shard: the %s search is adaptive (each point depends on the results before "
                 "it), so it cannot be split into shards (expected search.strategy grid, random, "
                 "lhs, morris or sobol)",
                 s->search.algorithm);
        return -1;
    }
    if (s->search.screen > 0) {
        snprintf(err, errlen,
                 "--shard: a study that screens (search.screen) chooses its full-detail "
                 "simulations from the screening results of every configuration, so it cannot be "
                 "split into shards (expected search.screen 0, or a run without --shard)");
        return -1;
    }
    const char *dir = s->output;
    size_t count;
    char **names = list_journals(dir, &count);
    for (size_t i = 0; i < count; i++) {
        int jk, jn;
        if (journal_name(names[i], &jk, &jn) == 0 && jn != n) {
            snprintf(err, errlen,
                     "%s/%s: the folder holds a study split into %d shards, not %d (use another "
                     "--out, or the same number of shards)",
                     dir, names[i], jn, n);
            free_list(names, count);
            return -1;
        }
    }
    free_list(names, count);
    /* this study's study.json, written beside the folder's and compared with it */
    char path[2048], mine[2100];
    snprintf(path, sizeof path, "%s/study.json", dir);
    snprintf(mine, sizeof mine, "%s/study.json.%d-of-%d", dir, k, n);
    if (explore_write_study(s, sets, nsets, mine, err, errlen) != 0) return -1;
    size_t la = 0, lb = 0;
    char *a = wt_read_file_max(mine, &la, WT_TEXT_MAX);
    char *b = wt_read_file_max(path, &lb, WT_TEXT_MAX);
    int differs = b && (!a || la != lb || memcmp(a, b, la) != 0);
    free(a);
    free(b);
    if (differs) {
        unlink(mine);
        snprintf(err, errlen,
                 "%s: the folder holds the journals of another study (its study.json differs "
                 "from this one's); use another --out",
                 dir);
        return -1;
    }
    if (rename(mine, path) != 0) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        unlink(mine);
        return -1;
    }
    snprintf(journal, journal_len, "%s/journal.%d-of-%d", dir, k, n);
    return 0;
}

int shard_merge(evaluator *e, const char *folder, char *err, size_t errlen)
{
    size_t count;
    char **names = list_journals(folder, &count);
    int rc = 0;
    for (size_t i = 0; i < count && rc == 0; i++) {
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", folder, names[i]);
        rc = evaluator_replay(e, path, err, errlen);
    }
    free_list(names, count);
    return rc;
}
