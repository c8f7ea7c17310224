/* Shared-memory accesses in the load/store unit (bank conflicts, sm.shared_path=ldst) and the
 * requests of an atomic as GPGPU-Sim's memory_coalescing_arch_atomic makes them
 * (sm.atomic_path=serial). */
#include <stdlib.h>
#include <string.h>

#include "core/sim/sm_internal.h"

/* ------------------------------------------------ shared accesses and atomics ---- */

/* sm_shared_degree for more than 64 banks: the (bank, word) keys sorted by insertion. */
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
int sm_shared_degree(const uint32_t *addr, uint32_t mask, int banks)
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

/* A shared load or store enters the load/store unit (sm.shared_path=ldst), as in GPGPU-Sim's
 * ldst_unit::cycle with ldst_unit::shared_cycle: it holds the unit's dispatch register for as
 * many cycles as its bank-conflict degree (the first the cycle after issue, as a global
 * access's first line), then enters the shared-memory pipeline (-gpgpu_smem_latency, here
 * sm.shared_latency), at whose end the destination is written back. Meanwhile the warps with
 * a memory instruction to issue wait for the unit (ST_STAGE). */
void sm_shared_issue(sm *s, int wi, const inst_info *in, const inst_exec *x, uint64_t now)
{
    mem_stage *st = sm_stage_begin(s, wi, in);
    st->n = sm_shared_degree(x->addr, x->active_mask, s->cfg->shared_banks);
    st->done_at = now + (uint64_t)st->n;
    st->dst[0] = st->dst[1] = 0;
    for (int i = 0; i < in->ndst; i++)
        st->dst[in->dst[i] >> 6] |= (uint64_t)1 << (in->dst[i] & 63);
    warp *w = &s->warps[wi];
    w->pending[0] |= st->dst[0];
    w->pending[1] |= st->dst[1];
}

/* The requests of a global atomic as GPGPU-Sim makes them (sm.atomic_path=serial;
 * warp_inst_t::memory_coalescing_arch_atomic): lanes are grouped by `segment`-byte segment
 * (32 bytes for 4-byte atomics under both the Fermi and the Volta coalescer, since atomics
 * bypass the L1D), and a lane joins the first request of its segment that does not already
 * hold its address, so k lanes on one address make k requests, performed one after another.
 * Each access's `line` is its segment's address, `sectors` that segment within its line (the
 * segment's index mod 32). Requests come out in the order they are made (by lowest lane).
 * Returns their number (at most 32). */
int sm_atomic_requests(const uint32_t *addr, uint32_t mask, int segment, line_access *out)
{
    uint32_t seen[WT_WARP_SIZE]; /* the addresses of the lanes so far */
    uint8_t rank[WT_WARP_SIZE];  /* request i is the rank[i]-th of its segment */
    int nseen = 0, n = 0;
    uint32_t seg_mask = ~((uint32_t)segment - 1);
    for (; mask; mask &= mask - 1) {
        int lane = __builtin_ctz(mask);
        uint32_t a = addr[lane], seg = a & seg_mask;
        int r = 0; /* earlier lanes of this address hold requests 0..r-1 of the segment */
        for (int i = 0; i < nseen; i++)
            r += seen[i] == a;
        seen[nseen++] = a;
        int i = 0;
        while (i < n && !(out[i].line == seg && rank[i] == r))
            i++;
        if (i == n) {
            out[n] = (line_access){seg, 0, 1u << ((seg / (uint32_t)segment) & 31)};
            rank[n++] = (uint8_t)r;
        }
        out[i].lanes |= 1u << lane;
    }
    return n;
}
