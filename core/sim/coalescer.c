#include "core/sim/coalescer.h"

#include "core/isource.h"
#include "core/util/bits.h"

#include <stdbool.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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

/* Bit b of planes[b] (b < nbits) for each of the 32 lanes: bit shift + b of the lane's address,
 * which for a lane in an access's line is bit b of its sector in the line (lines are aligned to
 * their size). Lanes outside the access are masked off by the caller. Four lanes per SSE2 step:
 * the bit moved to the sign, then gathered. */
static void sector_planes(const uint32_t *addr, int shift, int nbits, uint32_t *planes)
{
#if defined(__SSE2__)
    __m128i v[8];
    for (int j = 0; j < 8; j++)
        v[j] = _mm_loadu_si128((const __m128i *)(const void *)(addr + 4 * j));
    for (int b = 0; b < nbits; b++) {
        __m128i up = _mm_cvtsi32_si128(31 - shift - b);
        uint32_t m = 0;
        for (int j = 0; j < 8; j++)
            m |= (uint32_t)_mm_movemask_ps(_mm_castsi128_ps(_mm_sll_epi32(v[j], up))) << (4 * j);
        planes[b] = m;
    }
#else
    for (int b = 0; b < nbits; b++) {
        uint32_t m = 0;
        for (uint32_t l = 0; l < 32; l++)
            m |= ((addr[l] >> (shift + b)) & 1u) << l;
        planes[b] = m;
    }
#endif
}

int coalesce_split_sectors(const uint32_t *addr, line_access *acc, int n, int sector_bytes)
{
    int total = 0;
    uint32_t all = 0, top = 0;
    for (int i = 0; i < n; i++) {
        total += (int)wt_popcount_small(acc[i].sectors);
        all |= acc[i].lanes;
        top |= acc[i].sectors;
    }
    if (total > 32 || total == n) return n;
    line_access out[32];
    int k = 0, shift = __builtin_ctz((unsigned)sector_bytes);
    /* A full warp (every address valid) sorts its lanes by sector with the bit planes of their
     * sector numbers, a few vector steps instead of a step per lane. */
    uint32_t planes[5], of_sector[32];
    int last = 31 - __builtin_clz(top | 1), nbits = last ? 32 - __builtin_clz((unsigned)last) : 0;
    bool planar = all == ~0u && nbits <= 5 && shift + nbits <= 31;
    if (planar) { /* the lanes of each sector number: each plane splits every set in two */
        planes[0] = planes[1] = 0;
        sector_planes(addr, shift, nbits, planes);
        of_sector[0] = ~planes[0] & ~planes[1]; /* four sectors (128-byte lines) at once */
        of_sector[1] = planes[0] & ~planes[1];
        of_sector[2] = ~planes[0] & planes[1];
        of_sector[3] = planes[0] & planes[1];
        for (int b = 2; b < nbits; b++)
            for (int x = 0; x < 1 << b; x++) {
                of_sector[x | 1 << b] = of_sector[x] & planes[b];
                of_sector[x] &= ~planes[b];
            }
    }
    for (int i = 0; i < n; i++) {
        if (!(acc[i].sectors & (acc[i].sectors - 1))) { /* one sector: already one access */
            out[k++] = acc[i];
            continue;
        }
        if (planar) {
            for (uint32_t sec = acc[i].sectors; sec; sec &= sec - 1) {
                int sct = __builtin_ctz(sec);
                out[k++] = (line_access){acc[i].line, acc[i].lanes & of_sector[sct], 1u << sct};
            }
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

/* The sort key of an access: its line, then its lowest sector (sectors is never 0). */
static inline uint64_t access_key(const line_access *a)
{
    return a->line + (uint64_t)__builtin_ctz(a->sectors);
}

void coalesce_sort(line_access *acc, int n)
{
    /* insertion sort: at most 32 accesses, usually already in order */
    for (int i = 1; i < n; i++) {
        line_access a = acc[i];
        uint64_t k = access_key(&a);
        int j = i;
        for (; j > 0 && access_key(&acc[j - 1]) > k; j--)
            acc[j] = acc[j - 1];
        acc[j] = a;
    }
}

/* ------------------------------------------------ shared accesses and atomics ---- */

/* coalesce_shared_degree for more than 64 banks: the (bank, word) keys sorted by insertion. */
static int shared_degree_sorted(const uint32_t *addr, uint32_t mask, uint32_t nb, uint32_t pow2)
{
    /* (bank, word) keys in order, by insertion: coherent, strided and broadcast accesses come
     * in order already, so the sort is a pass over the lanes */
    uint64_t key[WT_WARP_SIZE];
    int n = 0;
    for (; mask; mask &= mask - 1) {
        uint32_t word = addr[__builtin_ctz(mask)] >> 2;
        uint32_t bank = pow2 ? word & (nb - 1) : word % nb;
        uint64_t k = (uint64_t)bank << 32 | word;
        int i = n++;
        for (; i > 0 && key[i - 1] > k; i--)
            key[i] = key[i - 1];
        key[i] = k;
    }
    int degree = 1, run = 0;
    for (int i = 0; i < n; i++) {
        if (i == 0 || key[i] >> 32 != key[i - 1] >> 32)
            run = 1; /* a new bank */
        else if (key[i] != key[i - 1])
            run++; /* another word of the bank */
        if (run > degree) degree = run;
    }
    return degree;
}

/* The bank-conflict degree of a shared access, as GPGPU-Sim's
 * warp_inst_t::generate_mem_accesses computes it for shared space with
 * -gpgpu_shmem_limited_broadcast 0 and -gpgpu_shmem_warp_parts 1: the largest number of
 * distinct 4-byte words the active lanes address in one bank (word w lies in bank w mod
 * banks); lanes of one word share its read (broadcast). At least 1, even with no lane. */
int coalesce_shared_degree(const uint32_t *addr, uint32_t mask, int banks)
{
    uint32_t nb = (uint32_t)banks, pow2 = (nb & (nb - 1)) == 0;
    if (nb > 64) return shared_degree_sorted(addr, mask, nb, pow2);
    /* per bank, the distinct words so far as a list through the lanes (head[b], next[]),
     * valid for the banks in `seen`: a lane compares only with the words of its own bank,
     * so lanes on different banks (the common case) cost one step each */
    int8_t head[64], next[WT_WARP_SIZE];
    uint8_t count[64];
    uint32_t word[WT_WARP_SIZE];
    uint64_t seen = 0;
    int degree = 1;
    for (; mask; mask &= mask - 1) {
        int l = __builtin_ctz(mask);
        uint32_t w = addr[l] >> 2, b = pow2 ? w & (nb - 1) : w % nb;
        word[l] = w;
        if (!((seen >> b) & 1)) {
            seen |= (uint64_t)1 << b;
            head[b] = (int8_t)l;
            next[l] = -1;
            count[b] = 1;
            continue;
        }
        int j = head[b];
        while (j >= 0 && word[j] != w)
            j = next[j];
        if (j >= 0) continue; /* a word of the bank already: broadcast */
        next[l] = head[b];
        head[b] = (int8_t)l;
        if (++count[b] > degree) degree = count[b];
    }
    return degree;
}

/* The requests of a global atomic as GPGPU-Sim makes them (sm.atomic_path=serial;
 * warp_inst_t::memory_coalescing_arch_atomic): lanes are grouped by `segment`-byte segment
 * (32 bytes for 4-byte atomics under both the Fermi and the Volta coalescer, since atomics
 * bypass the L1D), and a lane joins the first request of its segment that does not already
 * hold its address, so k lanes on one address make k requests, performed one after another.
 * Each access is its segment, as coalesce() writes it: `line` the line_bytes line holding it,
 * `sectors` the one segment-size piece of that line. Requests come out in the order they are
 * made (by lowest lane). Returns their number (at most 32). */
int coalesce_atomic(const uint32_t *addr, uint32_t mask, int line_bytes, int segment,
                    line_access *out)
{
    uint32_t seen[WT_WARP_SIZE];    /* the addresses of the lanes so far */
    uint32_t req_seg[WT_WARP_SIZE]; /* request i's segment */
    uint8_t rank[WT_WARP_SIZE];     /* request i is the rank[i]-th of its segment */
    int nseen = 0, n = 0;
    uint32_t seg_mask = ~((uint32_t)segment - 1), line_mask = ~((uint32_t)line_bytes - 1);
    for (; mask; mask &= mask - 1) {
        int lane = __builtin_ctz(mask);
        uint32_t a = addr[lane], seg = a & seg_mask;
        int r = 0; /* earlier lanes of this address hold requests 0..r-1 of the segment */
        for (int i = 0; i < nseen; i++)
            r += seen[i] == a;
        seen[nseen++] = a;
        int i = 0;
        while (i < n && !(req_seg[i] == seg && rank[i] == r))
            i++;
        if (i == n) {
            uint32_t line = seg & line_mask;
            out[n] = (line_access){line, 0, 1u << ((seg - line) / (uint32_t)segment)};
            req_seg[n] = seg;
            rank[n++] = (uint8_t)r;
        }
        out[i].lanes |= 1u << lane;
    }
    return n;
}
