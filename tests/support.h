/* Shared helpers for the cmocka tests. */
#ifndef WT_TEST_SUPPORT_H
#define WT_TEST_SUPPORT_H

#include <stddef.h>

/* Reads a whole file into a NUL-terminated heap buffer, or returns NULL. */
char *test_read_file(const char *path, size_t *len);
/* Writes text to a fresh temporary file and returns its path (static buffer per call slot). */
const char *test_write_temp(const char *name, const char *text);

#endif
