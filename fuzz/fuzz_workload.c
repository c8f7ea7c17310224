/* The workload language's parser (core/workload): a file's text, parsed. Data files it names
 * are looked up in an empty folder, so the input alone decides what is read. */
#include <stdlib.h>

#include "core/workload/workload.h"
#include "fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (!text) return 0;
    char err[1024];
    workload *w = NULL;
    if (workload_parse(text, "fuzz.wl", fuzz_dir(), NULL, 0, &w, err, sizeof err) == 0)
        workload_free(w);
    free(text);
    return 0;
}
