#include "core/coalescer.h"

int coalesce(const uint32_t *addr, uint32_t mask, int line_bytes, int sector_bytes,
             line_access *out)
{
    uint64_t line_mask = ~(uint64_t)(line_bytes - 1);
    int n = 0;
    while (mask) {
        int lane = __builtin_ctz(mask);
        mask &= mask - 1;
        uint64_t a = addr[lane];
        uint64_t line = a & line_mask;
        uint32_t sector = 1u << ((a - line) / (uint64_t)sector_bytes);
        int i = 0;
        /* Lanes of a warp usually touch few lines, and the latest line is the likeliest. */
        for (i = n - 1; i >= 0 && out[i].line != line; i--)
            continue;
        if (i < 0) {
            out[n] = (line_access){line, 0, 0};
            i = n++;
        }
        out[i].lanes |= 1u << lane;
        out[i].sectors |= sector;
    }
    return n;
}
