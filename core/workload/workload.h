/* Workloads: programs in warptune's workload language (docs/workload-language.md).
 *
 * A workload is parsed once into an immutable program (struct workload) that many
 * simulations may share; each simulation makes its own instance, an instruction source with
 * its own memory image and warp state. */
#ifndef WT_WORKLOAD_H
#define WT_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>
#include "core/isource.h"

typedef struct workload workload;

/* A `.param` override: name=value, value a number. */
typedef struct wl_override {
    const char *name;
    const char *value;
} wl_override;

/* Parses workload text. `filename` is used in messages ("file:line: message"). Overrides
 * replace `.param` defaults; an override naming no `.param` is an error. Data files named
 * by the workload are resolved relative to `basedir` (NULL: the current directory).
 * Returns 0, or -1 with the message in err. */
int workload_parse(const char *text, const char *filename, const char *basedir,
                   const wl_override *ov, size_t nov, workload **out, char *err, size_t errlen);

/* Loads a built-in workload by name ("kmeans") or a file by path (anything with a '/' or
 * ending in ".wl"). Same contract as workload_parse. */
int workload_load(const char *name_or_path, const wl_override *ov, size_t nov, workload **out,
                  char *err, size_t errlen);

void workload_free(workload *w);
const char *workload_name(const workload *w);
/* A hash of the bytes of every data file (edge lists, matrices) the workload read, so that a
 * results memo notices a changed file; 0 if it read none. */
uint64_t workload_data_hash(const workload *w);

/* Built-in workloads, compiled into the binary. */
size_t workload_builtin_count(void);
const char *workload_builtin_name(size_t i);
const char *workload_builtin_text(size_t i);
/* The first line of the workload's leading comment block, for `warptune workloads`. */
const char *workload_builtin_summary(size_t i, char *buf, size_t buflen);

/* A new instance of the program: an instruction source for a GPU of num_sms SMs with at most
 * max_warps warp slots and max_ctas CTA slots each. Returns 0 or -1 with err. */
int workload_instance(const workload *w, int num_sms, int max_warps, int max_ctas, isource *out,
                      char *err, size_t errlen);

#endif
