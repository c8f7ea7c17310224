/* Shared helpers for the cmocka tests. */
#ifndef WT_TEST_SUPPORT_H
#define WT_TEST_SUPPORT_H

#include <stddef.h>

/* Reads a whole file into a NUL-terminated heap buffer, or returns NULL. */
char *test_read_file(const char *path, size_t *len);
/* Writes text to a fresh temporary file and returns its path (static buffer per call slot). */
const char *test_write_temp(const char *name, const char *text);

#include "core/sim.h"

/* Simulates workload text (or a built-in name when text has no newline) under the default
 * preset plus `sets` ("name=value" strings, NULL-terminated, may be NULL) and `wparams`
 * (workload overrides, same form). Returns the sim_status; on SIM_BAD_CONFIG or a parse
 * error the message is in err. Parse errors return SIM_BAD_CONFIG too. */
sim_status test_sim(const char *workload_text, const char *const *sets, const char *const *wparams,
                    sim_metrics *m, char *err, size_t errlen);
#endif
