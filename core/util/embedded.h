/* Files compiled into the binary: built-in workloads, presets and spaces
 * (cmake/embed.cmake). */
#ifndef WT_EMBEDDED_H
#define WT_EMBEDDED_H

#include <stddef.h>

typedef struct embedded_file {
    const char *name; /* file name without directory and extension */
    const char *text; /* NUL-terminated contents */
    size_t size;
} embedded_file;

extern const embedded_file wt_embedded_workloads[];
extern const size_t wt_embedded_workloads_count;
extern const embedded_file wt_embedded_presets[];
extern const size_t wt_embedded_presets_count;
extern const embedded_file wt_embedded_opcodes[]; /* the trace opcode tables */
extern const size_t wt_embedded_opcodes_count;
extern const embedded_file wt_embedded_spaces[];
extern const size_t wt_embedded_spaces_count;

#endif
