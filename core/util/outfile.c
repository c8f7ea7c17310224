#include "core/util/outfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *wt_out_target(const char *path, int *direct, char *err, size_t errlen)
{
    *direct = 0;
    if (!*path) { /* its temporary would be ".tmp" in the working folder, then not renamable */
        snprintf(err, errlen, "an empty output file name (expected a file to write)");
        return NULL;
    }
    char *p = strdup(path);
    for (int hops = 0; p; hops++) {
        struct stat st;
        if (lstat(p, &st) != 0) return p; /* a new file (or what a dangling link names) */
        if (!S_ISLNK(st.st_mode)) {
            *direct = !S_ISREG(st.st_mode);
            return p;
        }
        char link[4096];
        ssize_t n = hops < 40 ? readlink(p, link, sizeof link - 1) : -1;
        if (n < 0) {
            snprintf(err, errlen, "%s: cannot follow the symbolic link: %s", path,
                     hops < 40 ? strerror(errno) : "too many levels");
            free(p);
            return NULL;
        }
        link[n] = '\0';
        /* a relative link is relative to the folder that holds it */
        const char *slash = strrchr(p, '/');
        size_t dir = link[0] == '/' || !slash ? 0 : (size_t)(slash - p) + 1;
        char *next = malloc(dir + (size_t)n + 1);
        if (next) {
            memcpy(next, p, dir);
            memcpy(next + dir, link, (size_t)n + 1);
        }
        free(p);
        p = next;
    }
    snprintf(err, errlen, "%s: out of memory", path);
    return NULL;
}
