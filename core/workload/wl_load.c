/* Finding a workload: the built-in ones by name (embedded at build time from workloads/, one
 * per .wl file) and files by path, read and parsed with their overrides (core/workload/workload.h).
 */
#include "core/workload/wl_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/util/embedded.h"
#include "core/util/textfile.h"

size_t workload_builtin_count(void)
{
    return wt_embedded_workloads_count;
}

const char *workload_builtin_name(size_t i)
{
    return i < wt_embedded_workloads_count ? wt_embedded_workloads[i].name : NULL;
}

const char *workload_builtin_text(size_t i)
{
    return i < wt_embedded_workloads_count ? wt_embedded_workloads[i].text : NULL;
}

const char *workload_builtin_summary(size_t i, char *buf, size_t buflen)
{
    if (!buf || buflen == 0) return NULL;
    buf[0] = '\0';
    const char *t = workload_builtin_text(i);
    if (!t) return buf;
    while (*t == ' ' || *t == '\t' || *t == '\n' || *t == '\r')
        t++;
    if (*t != '#') return buf;
    while (*t == '#' || *t == ' ' || *t == '\t')
        t++;
    size_t n = strcspn(t, "\r\n");
    if (n >= buflen) n = buflen - 1;
    memcpy(buf, t, n);
    buf[n] = '\0';
    return buf;
}

int workload_load(const char *name_or_path, const wl_override *ov, size_t nov, workload **out,
                  char *err, size_t errlen)
{
    *out = NULL;
    size_t n = strlen(name_or_path);
    int is_path = strchr(name_or_path, '/') || (n > 3 && strcmp(name_or_path + n - 3, ".wl") == 0);
    if (!is_path) {
        for (size_t i = 0; i < wt_embedded_workloads_count; i++) {
            if (strcmp(wt_embedded_workloads[i].name, name_or_path)) continue;
            char fn[WL_NAME_MAX + 8];
            snprintf(fn, sizeof fn, "%s.wl", name_or_path);
            return workload_parse(wt_embedded_workloads[i].text, fn, NULL, ov, nov, out, err,
                                  errlen);
        }
        if (err && errlen) {
            int k = snprintf(err, errlen, "unknown workload '%s' (built-ins:", name_or_path);
            for (size_t i = 0; i < wt_embedded_workloads_count && k > 0 && (size_t)k < errlen; i++)
                k += snprintf(err + k, errlen - (size_t)k, " %s", wt_embedded_workloads[i].name);
            if (k > 0 && (size_t)k < errlen)
                snprintf(err + k, errlen - (size_t)k, "; a file path needs a '/' or '.wl')");
        }
        return -1;
    }
    const char *refused;
    FILE *f = wt_open_regular(name_or_path, &refused);
    if (!f) {
        if (err && errlen && refused)
            snprintf(err, errlen, "%s: cannot read workload file: %s", name_or_path, refused);
        else if (err && errlen)
            snprintf(err, errlen, "%s: cannot open workload file: %s", name_or_path,
                     strerror(errno));
        return -1;
    }
    size_t len;
    char *text = wt_read_stream_max(f, &len, WT_TEXT_MAX);
    int saved = errno;
    fclose(f);
    if (!text) {
        if (err && errlen)
            snprintf(err, errlen, "%s: cannot read workload file: %s", name_or_path,
                     strerror(saved));
        return -1;
    }
    int line;
    if (wt_find_nul(text, len, &line) < len) {
        free(text);
        if (err && errlen)
            snprintf(err, errlen, "%s:%d: NUL byte (expected text)", name_or_path, line);
        return -1;
    }
    /* A carriage return alone ends a line only in old Mac files; read as LF text such a file
     * is one long line, and the first error would be somewhere puzzling. */
    const char *cr = text;
    while ((cr = memchr(cr, '\r', len - (size_t)(cr - text))) != NULL && cr[1] == '\n')
        cr++; /* text is NUL-terminated: cr[1] exists */
    if (cr) {
        line = wt_line_at(text, (size_t)(cr - text));
        free(text);
        if (err && errlen)
            snprintf(err, errlen,
                     "%s:%d: carriage return without a line feed (expected LF or CRLF line "
                     "endings)",
                     name_or_path, line);
        return -1;
    }
    char *dir = strdup(name_or_path);
    char *slash = dir ? strrchr(dir, '/') : NULL;
    if (slash) *slash = '\0';
    int rc = workload_parse(text, name_or_path, slash ? dir : NULL, ov, nov, out, err, errlen);
    free(dir);
    free(text);
    return rc;
}
