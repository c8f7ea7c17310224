/* The coalescer: turns the per-lane addresses of one warp memory instruction into the list of
 * line-sized accesses it needs (their number is the instruction's memory divergence). */
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

#endif
