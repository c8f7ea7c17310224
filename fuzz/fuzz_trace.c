/* The Accel-Sim trace reader (core/trace): the input is a kernelslist.g, a NUL byte, and the
 * kernel file it may name as kernel-1.traceg; both are written to a private folder, opened and
 * read through (trace_scan: every thread block of every kernel, without simulating). */
#include <stdio.h>
#include <string.h>

#include "core/trace/trace.h"
#include "fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *dir = fuzz_dir();
    if (!dir[0]) return 0;
    const uint8_t *nul = memchr(data, 0, size);
    size_t nlist = nul ? (size_t)(nul - data) : size;
    const uint8_t *kernel = nul ? nul + 1 : data + size;
    size_t nkernel = (size_t)(data + size - kernel);
    char list[128], file[128];
    snprintf(list, sizeof list, "%s/kernelslist.g", dir);
    snprintf(file, sizeof file, "%s/kernel-1.traceg", dir);
    if (fuzz_write(list, data, nlist) != 0 || fuzz_write(file, kernel, nkernel) != 0) return 0;
    char err[1024];
    trace_app *t = NULL;
    if (trace_open(list, &t, err, sizeof err) == 0) {
        trace_scan_stats st;
        (void)trace_scan(t, &st, err, sizeof err);
        trace_close(t);
    }
    return 0;
}
