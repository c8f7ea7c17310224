/* The space files' parser (explorer/space.h): a study's JSON, parsed and checked. */
#include <stdlib.h>

#include "explorer/space.h"
#include "fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (!text) return 0;
    char err[1024];
    space *s = space_parse(text, "fuzz.json", err, sizeof err);
    space_free(s);
    free(text);
    return 0;
}
