/* Accel-Sim SASS traces (docs/traces.md): a reader that is an instruction source, and an
 * exporter that writes what the workload interpreter executes in the same format.
 *
 * An application trace is a `kernelslist.g` command list (kernel files and MemcpyHtoD lines)
 * beside one `.traceg` file per kernel, plain or xz-compressed. The reader streams each kernel
 * file a thread block at a time: a CTA's block is read when the CTA starts and freed when it
 * finishes, so memory is bounded by the CTAs resident on the GPU, never by the file. */
#ifndef WT_TRACE_H
#define WT_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "core/isource.h"
#include "core/config/metrics.h"
#include "core/config/params.h"
#include "core/workload/workload.h"

/* ---- opcode tables (the text files in core/trace/opcodes) ---- */

/* Classes of the opcode tables: warptune's functional-unit classes plus the generic loads and
 * stores whose space (shared or global) the address decides. */
enum { TRACE_OP_LD_GENERIC = IC_COUNT, TRACE_OP_ST_GENERIC, TRACE_OP_CLASS_COUNT };

typedef struct trace_opcodes trace_opcodes;

/* Parses the built-in tables. Returns 0, or -1 with err. */
int trace_opcodes_load(trace_opcodes **out, char *err, size_t errlen);
void trace_opcodes_free(trace_opcodes *t);
/* 1 if some table covers the binary version. */
int trace_opcodes_supports(const trace_opcodes *t, int binary_version);
/* The class of opcode `name` (the whole token, e.g. "LDG.E.128.SYS"; only the part before the
 * first dot is looked up) under `binary_version`, or -1 if the table has no such opcode. */
int trace_opcode_class(const trace_opcodes *t, int binary_version, const char *name, size_t len);
/* Bytes per lane a memory opcode moves: a number among its dot-separated modifiers in bits
 * ("128", "U16"), 4 without one (as Accel-Sim reads it). */
int trace_opcode_width(const char *name, size_t len);

/* ---- reading ---- */

typedef struct trace_app trace_app;

/* Opens a kernelslist.g: checks its commands and that every kernel file can be opened. The
 * kernel files are read only when a simulation reaches them. Returns 0, or -1 with err as
 * "file:line: message". */
int trace_open(const char *kernelslist, trace_app **out, char *err, size_t errlen);
/* 1 if a workload name names a trace: its last path component starts with "kernelslist"
 * (kernelslist.g, or kernelslist_ctx_....g of a multi-context trace). */
int trace_name_is_list(const char *name);
void trace_close(trace_app *t);
/* The kernelslist path, for messages and tables. */
const char *trace_path(const trace_app *t);
/* Kernel launches and MemcpyHtoD commands in the list. */
size_t trace_kernel_count(const trace_app *t);
size_t trace_memcpy_count(const trace_app *t);
/* A hash of the bytes of the kernelslist and of every kernel file it lists, so that a results
 * memo notices an edited trace. Reads every file. Returns 0, or -1 with err. */
int trace_content_hash(const trace_app *t, uint64_t *out, char *err, size_t errlen);

/* A new reader of the application: an instruction source for a GPU of num_sms SMs with
 * max_warps warp and max_ctas CTA slots each. Any number of readers of one trace_app may run
 * side by side. A malformed line found while the simulation runs stops it with
 * "file:line: message". Returns 0, or -1 with err. */
int trace_instance(const trace_app *t, int num_sms, int max_warps, int max_ctas, isource *out,
                   char *err, size_t errlen);
/* trace_instance as an isource_factory (core/sim/sim.h); arg is the trace_app. */
int trace_isource_factory(void *arg, int num_sms, int max_warps, int max_ctas, isource *out,
                          char *err, size_t errlen);

/* Reads every thread block of every kernel without simulating (a syntax check and a count).
 * Returns 0, or -1 with err. */
typedef struct trace_scan_stats {
    uint64_t kernels, blocks, warps, insts, mem_insts;
} trace_scan_stats;
int trace_scan(const trace_app *t, trace_scan_stats *st, char *err, size_t errlen);

/* Scoreboard slot of SASS register Rn (-1 for RZ, R255), and the register the exporter
 * writes for a slot: R0-R63 are slots 0-63, R240-R247 the predicate slots 64-71 (the exporter
 * writes predicates there), and the other registers fold onto slots 72-127. */
int trace_reg_slot(unsigned n);
unsigned trace_slot_reg(unsigned slot);

#endif
