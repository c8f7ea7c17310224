/* The SM's scoreboard: per warp slot, which registers (scoreboard slots: bit d of word d >> 6,
 * general registers then predicates) wait for a result, which of those wait on a global load
 * that missed, which on a global load or atomic in flight, and the long-operation marks as
 * GPGPU-Sim keeps them (set at a global load's or atomic's issue, cleared only by a core
 * writeback of the register: Scoreboard::releaseRegisters; the load/store unit's writeback,
 * releaseRegister, leaves them, so they outlive the load and the warp slot keeps them into its
 * next CTA). Small and hot: the functions are inline. */
#ifndef WT_SM_SCOREBOARD_H
#define WT_SM_SCOREBOARD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/isource.h"

/* 64 bytes, 64-byte aligned: a warp's check or update touches one host cache line */
typedef struct sb_regs {
    _Alignas(64) uint64_t pending[2]; /* a result is on its way */
    uint64_t mem[2];                  /* of those, from a global load that missed */
    uint64_t inflight[2];             /* of those, from a global load or atomic (hit or miss) */
    uint64_t marks[2];                /* long-operation marks (see above) */
} sb_regs;

typedef struct scoreboard {
    sb_regs *w; /* per warp slot */
} scoreboard;

typedef enum sb_hazard { SB_NONE, SB_DATA, SB_MEM } sb_hazard;

/* 0, or -1 when out of memory. */
static inline int sb_init(scoreboard *sb, int max_warps)
{
    sb->w = aligned_alloc(_Alignof(sb_regs), (size_t)max_warps * sizeof *sb->w);
    if (sb->w) memset(sb->w, 0, (size_t)max_warps * sizeof *sb->w);
    return sb->w ? 0 : -1;
}

static inline void sb_free(scoreboard *sb)
{
    free(sb->w);
    sb->w = NULL;
}

/* The slots instruction in writes: bit d of m[d >> 6] for each destination d. */
static inline void sb_dst_slots(const inst_info *in, uint64_t m[2])
{
    m[0] = m[1] = 0;
    for (int i = 0; i < in->ndst; i++)
        m[in->dst[i] >> 6] |= (uint64_t)1 << (in->dst[i] & 63);
}

/* The slots instruction in reads or writes (what it must wait for). */
static inline void sb_need_slots(const inst_info *in, uint64_t m[2])
{
    sb_dst_slots(in, m);
    for (int i = 0; i < in->nsrc; i++)
        m[in->src[i] >> 6] |= (uint64_t)1 << (in->src[i] & 63);
}

/* A new warp in slot wi: nothing pending (the slot's marks stay). */
static inline void sb_warp_start(scoreboard *sb, int wi)
{
    sb_regs *r = &sb->w[wi];
    r->pending[0] = r->pending[1] = r->mem[0] = r->mem[1] = 0;
    r->inflight[0] = r->inflight[1] = 0;
}

/* Results for slots m are on their way. */
static inline void sb_reserve(scoreboard *sb, int wi, const uint64_t m[2])
{
    sb->w[wi].pending[0] |= m[0];
    sb->w[wi].pending[1] |= m[1];
}

/* A global load or atomic will write `bits` of word `word`: they wait on a long operation until
 * it is back, and stay marked until a core writeback of them. */
static inline void sb_mark_long(scoreboard *sb, int wi, int word, uint64_t bits)
{
    sb->w[wi].inflight[word] |= bits;
    sb->w[wi].marks[word] |= bits;
}

/* The results for slots m are written. */
static inline void sb_release(scoreboard *sb, int wi, const uint64_t m[2])
{
    sb_regs *r = &sb->w[wi];
    for (int k = 0; k < 2; k++) {
        r->pending[k] &= ~m[k];
        r->mem[k] &= ~m[k];
        r->inflight[k] &= ~m[k];
    }
}

/* A core writeback of slots m clears their long-operation marks. */
static inline void sb_unmark(scoreboard *sb, int wi, const uint64_t m[2])
{
    sb->w[wi].marks[0] &= ~m[0];
    sb->w[wi].marks[1] &= ~m[1];
}

/* Slots m now wait on a global load that missed. Returns whether any of them did not already
 * (only then can the warp's classification change). */
static inline bool sb_wait_mem(scoreboard *sb, int wi, const uint64_t m[2])
{
    sb_regs *r = &sb->w[wi];
    if (!((m[0] & ~r->mem[0]) | (m[1] & ~r->mem[1]))) return false;
    r->mem[0] |= m[0];
    r->mem[1] |= m[1];
    return true;
}

/* What of `need` (sb_need_slots of the next instruction) still waits: nothing, another result,
 * or a global load that missed. */
static inline sb_hazard sb_check(const scoreboard *sb, int wi, const uint64_t need[2])
{
    const sb_regs *r = &sb->w[wi];
    uint64_t h0 = r->pending[0] & need[0], h1 = r->pending[1] & need[1];
    if (!(h0 | h1)) return SB_NONE;
    return (h0 & r->mem[0]) | (h1 & r->mem[1]) ? SB_MEM : SB_DATA;
}

/* Does instruction in read a register with a global load or atomic in flight (marks false) or
 * with a long-operation mark (marks true)? */
static inline bool sb_reads_long(const scoreboard *sb, int wi, const inst_info *in, bool marks)
{
    const uint64_t *m = marks ? sb->w[wi].marks : sb->w[wi].inflight;
    for (int i = 0; i < in->nsrc; i++) {
        uint8_t r = in->src[i];
        if ((m[r >> 6] >> (r & 63)) & 1) return true;
    }
    return false;
}

#endif
