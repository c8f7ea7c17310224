/* The preset files' parser (core/config/preset.h): a preset's JSON applied to the defaults. */
#include <stdlib.h>

#include "explorer/catalog.h"
#include "core/config/preset.h"
#include "fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    param_set *p = param_set_new();
    if (text && p) {
        char err[1024];
        (void)preset_apply_text(p, text, "fuzz.json", err, sizeof err);
    }
    param_set_free(p);
    free(text);
    return 0;
}
