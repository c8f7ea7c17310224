/* Looking inside workloads and their instances: for tests, tools and result checks. */
#ifndef WT_WL_INSPECT_H
#define WT_WL_INSPECT_H

#include <stdint.h>
#include "core/workload/workload.h"

/* The initial contents of array `name` (count elements of 4 bytes), or NULL. */
const uint32_t *wl_workload_array(const workload *w, const char *name, uint32_t *count);
/* The current contents of array `name` in an instance made by workload_instance, or NULL
 * (also when src is not a workload instance). */
uint32_t *wl_instance_array(const isource *src, const char *name, uint32_t *count);
/* Byte address of array `name`, or 0. */
uint32_t wl_array_base(const workload *w, const char *name);
/* Number of kernels. */
int wl_workload_kernel_count(const workload *w);
/* Reconvergence pc (immediate post-dominator) of instruction pc of kernel `kernel`; the
 * kernel's instruction count for its end node; -1 if there is no such instruction. */
long wl_kernel_reconv(const workload *w, const char *kernel, uint32_t pc);

/* ---- a kernel's code, as a trace exporter writes it (wl_sass.c) ---- */

typedef struct wl_kernel wl_kernel;

/* Kernel `name` of w, or NULL. */
const wl_kernel *wl_find_kernel(const workload *w, const char *name);
uint32_t wl_kernel_inst_count(const wl_kernel *k);
/* The SASS opcode that plays instruction pc on a Volta GPU ("IMAD", "LDG.E.SYS", ...). */
const char *wl_kernel_sass_name(const wl_kernel *k, uint32_t pc);
/* 1 with the branch target and reconvergence pc when instruction pc is a branch, else 0. */
int wl_kernel_branch(const wl_kernel *k, uint32_t pc, uint32_t *target, uint32_t *reconv);
/* The workload's arrays in declaration order: their device address and size in bytes. */
size_t wl_workload_array_count(const workload *w);
void wl_workload_array_at(const workload *w, size_t i, uint64_t *base, uint64_t *bytes);

#endif
