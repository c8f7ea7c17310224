/* The coalescer: turns the per-lane addresses of one warp memory instruction into the list of
 * line-sized accesses it needs (their number is the instruction's memory divergence), an
 * atomic's into its serial requests, and a shared access's into its bank-conflict degree. */
#ifndef WT_COALESCER_H
#define WT_COALESCER_H

#include <stdint.h>

typedef struct line_access {
    uint64_t line;    /* line-aligned byte address */
    uint32_t lanes;   /* lanes whose addresses fall in the line */
    uint32_t sectors; /* bit s: the lanes touch the s-th sector_bytes piece of the line */
} line_access;

/* Coalesces the active lanes of `mask`. Accesses come out in the order of their lowest lane.
 * line_bytes and sector_bytes are powers of two, sector_bytes <= line_bytes. Returns the
 * number of accesses written to out (at most 32). */
int coalesce(const uint32_t *addr, uint32_t mask, int line_bytes, int sector_bytes,
             line_access *out);

/* Splits the n accesses in acc into one access per sector_bytes piece each touches (Volta's
 * coalescer makes 32-byte transactions), in place, each line's pieces in address order.
 * Returns the new count, or n unchanged when the pieces would be more than 32. */
int coalesce_split_sectors(const uint32_t *addr, line_access *acc, int n, int sector_bytes);

/* Sorts n accesses by address: by line, and a line's pieces (after coalesce_split_sectors) by
 * their first sector. */
void coalesce_sort(line_access *acc, int n);

/* The bank-conflict degree of a shared access, as GPGPU-Sim's
 * warp_inst_t::generate_mem_accesses computes it for shared space with
 * -gpgpu_shmem_limited_broadcast 0 and -gpgpu_shmem_warp_parts 1: the largest number of
 * distinct 4-byte words the active lanes address in one bank (word w lies in bank w mod
 * banks); lanes of one word share its read (broadcast). At least 1, even with no lane. */
int coalesce_shared_degree(const uint32_t *addr, uint32_t mask, int banks);

/* The requests of a global atomic as GPGPU-Sim makes them (sm.atomic_path=serial;
 * warp_inst_t::memory_coalescing_arch_atomic): lanes grouped by `segment`-byte segment, a lane
 * joining the first request of its segment that does not already hold its address, so k lanes
 * on one address make k requests. Each access is its segment as coalesce() writes it (its
 * line_bytes line, the segment's bit in `sectors`). In the order they are made (by lowest
 * lane). segment <= line_bytes, both powers of two. Returns their number (at most 32). */
int coalesce_atomic(const uint32_t *addr, uint32_t mask, int line_bytes, int segment,
                    line_access *out);

#endif
