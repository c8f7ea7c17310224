/* Replays files through a fuzzing harness without libFuzzer: `fuzz_X_replay PATH...`, each PATH a
 * file or a folder of files (not recursive). The ctest smoke runs each harness over its seed
 * corpus this way, under the sanitizers; libFuzzer builds (WT_FUZZ) use their own main. Exits 0
 * when every file ran (a harness that crashes ends the process), 2 when a path cannot be read. */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz/fuzz.h"

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "%s: cannot open\n", path);
        return -1;
    }
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    for (;;) {
        if (!buf) break;
        if (n == cap) {
            uint8_t *b = realloc(buf, cap *= 2);
            if (!b) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = b;
        }
        size_t r = fread(buf + n, 1, cap - n, f);
        if (r == 0) break;
        n += r;
    }
    int bad = ferror(f) || !buf;
    fclose(f);
    if (!bad) LLVMFuzzerTestOneInput(buf, n);
    free(buf);
    if (bad) fprintf(stderr, "%s: cannot read\n", path);
    return bad ? -1 : 0;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The regular files of a folder, in name order (the same order on every machine). */
static int run_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return -1;
    char **names = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.') continue;
        if (n == cap) {
            char **t = realloc(names, (cap = cap ? 2 * cap : 64) * sizeof *t);
            if (!t) {
                rc = -1;
                break;
            }
            names = t;
        }
        size_t l = strlen(dir) + strlen(e->d_name) + 2;
        if (!(names[n] = malloc(l))) {
            rc = -1;
            break;
        }
        snprintf(names[n++], l, "%s/%s", dir, e->d_name);
    }
    closedir(d);
    if (names) qsort(names, n, sizeof *names, cmp_names);
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        if (rc == 0 && stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) rc = run_file(names[i]);
        free(names[i]);
    }
    free(names);
    return rc;
}

int main(int argc, char **argv)
{
    int files = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "%s: no such file or folder\n", argv[i]);
            return 2;
        }
        if ((S_ISDIR(st.st_mode) ? run_dir(argv[i]) : run_file(argv[i])) != 0) return 2;
        files++;
    }
    printf("%d paths replayed\n", files);
    return 0;
}
