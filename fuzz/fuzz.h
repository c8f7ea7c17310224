/* The parsers' fuzzing harnesses (docs/architecture.md, "Fuzzing"): each fuzz_*.c defines
 * LLVMFuzzerTestOneInput for one parser. Built with clang's libFuzzer (WT_FUZZ) they fuzz;
 * linked with driver.c they replay files (the seed corpora in fuzz/corpus, the ctest smoke runs
 * under the sanitizers). A harness may fail to parse; it must not crash, leak or hang. */
#ifndef WT_FUZZ_H
#define WT_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* data as a NUL-terminated string (a NUL inside ends it, as in a file a parser reads). Free it. */
char *fuzz_text(const uint8_t *data, size_t size);
/* A private folder for the files a harness writes, made once per process ("" when it cannot
 * be made). */
const char *fuzz_dir(void);
/* Writes n bytes to path; 0, or -1. */
int fuzz_write(const char *path, const void *bytes, size_t n);

#endif
