/* warptune front's CSV reader (explorer/cli/front.c), through the command: the input is the
 * table, written to a private folder; the front goes to a file beside it. */
#include <stdio.h>

#include "explorer/cli/cli.h"
#include "fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *dir = fuzz_dir();
    if (!dir[0]) return 0;
    char in[128], out[128];
    snprintf(in, sizeof in, "%s/table.csv", dir);
    snprintf(out, sizeof out, "%s/front.csv", dir);
    if (fuzz_write(in, data, size) != 0) return 0;
    char *argv[] = {"front", in, "--out", out, NULL};
    (void)cli_front(4, argv);
    return 0;
}
