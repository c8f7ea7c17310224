#include "core/sim/coalescer.h"

#include "core/util/bits.h"

#include <string.h>

/* Slot of a line in the 64-slot table (Fibonacci hashing of the line number). */
static inline unsigned slot_hash(uint64_t line)
{
    return (unsigned)((line >> 7) * 0x9E3779B1u) >> 26;
}

int coalesce(const uint32_t *addr, uint32_t mask, int line_bytes, int sector_bytes,
             line_access *out)
{
    uint64_t line_mask = ~(uint64_t)(line_bytes - 1);
    int sector_shift = __builtin_ctz((unsigned)sector_bytes);
    /* Line -> access index, open addressing over 64 slots (at most 32 lines): the lanes of a
     * divergent load touch up to 32 lines, and a linear search would be quadratic. */
    if (!mask) return 0;
    /* A full warp whose addresses rise by at most a sector from lane to lane, first and last in
     * one line (coherent accesses of 4- or 8-byte words): one access touching every sector from
     * the first lane's to the last's. The test has no per-lane branch, so it vectorizes. */
    if (mask == ~0u) {
        uint32_t far = 0;
        for (int l = 0; l + 1 < 32; l++)
            far |= (uint32_t)(addr[l + 1] - addr[l]) > (uint32_t)sector_bytes;
        uint64_t first = addr[0], last = addr[31];
        if (!far && (first & line_mask) == (last & line_mask)) {
            uint64_t line = first & line_mask;
            int s0 = (int)((first - line) >> sector_shift),
                s1 = (int)((last - line) >> sector_shift);
            uint32_t upto = s1 == 31 ? ~0u : (1u << (s1 + 1)) - 1;
            out[0] = (line_access){line, mask, upto & ~((1u << s0) - 1)};
            return 1;
        }
    }
    /* The leading lanes that share the first lane's line (every lane, for a coherent access)
     * need no table: a run of plain comparisons, then the table for whatever is left. */
    uint64_t line0 = addr[__builtin_ctz(mask)] & line_mask;
    uint32_t sectors0 = 0, rest = mask;
    while (rest) {
        int lane = __builtin_ctz(rest);
        uint64_t a = addr[lane];
        if ((a & line_mask) != line0) break;
        sectors0 |= 1u << ((a - line0) >> sector_shift);
        rest &= rest - 1;
    }
    out[0] = (line_access){line0, mask & ~rest, sectors0};
    if (!rest) return 1;
    mask = rest;
    int8_t slot_of[64];
    memset(slot_of, -1, sizeof slot_of);
    slot_of[slot_hash(line0)] = 0;
    int n = 1;
    while (mask) {
        int lane = __builtin_ctz(mask);
        mask &= mask - 1;
        uint64_t a = addr[lane];
        uint64_t line = a & line_mask;
        uint32_t sector = 1u << ((a - line) >> sector_shift);
        int i;
        if (n && out[n - 1].line == line) {
            i = n - 1; /* coherent lanes: the same line as the previous lane */
        } else {
            unsigned h = slot_hash(line);
            while (slot_of[h] >= 0 && out[slot_of[h]].line != line)
                h = (h + 1) & 63;
            if (slot_of[h] < 0) {
                out[n] = (line_access){line, 0, 0};
                slot_of[h] = (int8_t)n++;
            }
            i = slot_of[h];
        }
        out[i].lanes |= 1u << lane;
        out[i].sectors |= sector;
    }
    return n;
}

int coalesce_split_sectors(const uint32_t *addr, line_access *acc, int n, int sector_bytes)
{
    int total = 0;
    for (int i = 0; i < n; i++)
        total += (int)wt_popcount_small(acc[i].sectors);
    if (total > 32 || total == n) return n;
    line_access out[32];
    int k = 0, shift = __builtin_ctz((unsigned)sector_bytes);
    for (int i = 0; i < n; i++) {
        if (!(acc[i].sectors & (acc[i].sectors - 1))) { /* one sector: already one access */
            out[k++] = acc[i];
            continue;
        }
        /* one pass over the lanes sorts them by sector; the pieces come out in sector order */
        uint32_t lanes_of[32];
        for (uint32_t sec = acc[i].sectors; sec; sec &= sec - 1)
            lanes_of[__builtin_ctz(sec)] = 0;
        for (uint32_t l = acc[i].lanes; l; l &= l - 1) {
            int lane = __builtin_ctz(l);
            lanes_of[(addr[lane] - acc[i].line) >> shift] |= 1u << lane;
        }
        for (uint32_t sec = acc[i].sectors; sec; sec &= sec - 1) {
            int sct = __builtin_ctz(sec);
            out[k++] = (line_access){acc[i].line, lanes_of[sct], 1u << sct};
        }
    }
    memcpy(acc, out, (size_t)k * sizeof *out);
    return k;
}
