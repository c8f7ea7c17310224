/* Looking inside workloads and their instances: for tests, tools and result checks. */
#ifndef WT_WL_INSPECT_H
#define WT_WL_INSPECT_H

#include <stdint.h>
#include "core/workload.h"

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

#endif
