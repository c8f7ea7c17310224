/* Helpers of the fuzzing harnesses (fuzz/fuzz.h). */
#define _XOPEN_SOURCE 700 /* mkdtemp */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz/fuzz.h"

char *fuzz_text(const uint8_t *data, size_t size)
{
    char *t = malloc(size + 1);
    if (!t) return NULL;
    memcpy(t, data, size);
    t[size] = '\0';
    return t;
}

static char fuzz_folder[64];

/* The folder and the few files the harnesses wrote in it go when the process ends normally. */
static void remove_folder(void)
{
    DIR *d = opendir(fuzz_folder);
    if (d) {
        char path[384];
        for (struct dirent *e; (e = readdir(d));) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
            snprintf(path, sizeof path, "%s/%s", fuzz_folder, e->d_name);
            unlink(path);
        }
        closedir(d);
    }
    rmdir(fuzz_folder);
}

const char *fuzz_dir(void)
{
    if (!fuzz_folder[0]) {
        snprintf(fuzz_folder, sizeof fuzz_folder, "/tmp/wt_fuzz_XXXXXX");
        if (mkdtemp(fuzz_folder))
            atexit(remove_folder);
        else
            fuzz_folder[0] = '\0';
    }
    return fuzz_folder;
}

int fuzz_write(const char *path, const void *bytes, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    size_t w = fwrite(bytes, 1, n, f);
    return fclose(f) == 0 && w == n ? 0 : -1;
}
