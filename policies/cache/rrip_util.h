/* Helpers shared by the RRIP-family L1D policies (rrip, ship, cacp): victim search with aging
 * over the re-reference prediction values each keeps in its own line type, saturating 2-bit
 * counters, and set-dueling leader sets and statistics (also used by dip). Header-only, no
 * state. */
#ifndef WT_RRIP_UTIL_H
#define WT_RRIP_UTIL_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#include "core/policy.h"

/* The RRPV of a way's line, a field of the policy's own line type. */
typedef uint8_t *(*rrpv_of_fn)(const l1_set_view *s, int way);

/* The victim among ways [lo, hi) of a set whose lines keep their RRPV where rrpv_of says: a
 * free way first (lowest index), else the lowest unreserved way with RRPV == max after aging
 * every unreserved valid line of the range by the distance that brings the largest to max
 * (RRIP's "increment all and search again", done in one step). Reserved lines neither age nor
 * qualify. Returns -1 when every way of the range is reserved. */
static inline int rrip_find_victim(const l1_set_view *s, rrpv_of_fn rrpv_of, int lo, int hi,
                                   int max)
{
    int top = -1;
    for (int w = lo; w < hi; w++) {
        if (s->reserved[w]) continue;
        if (!s->valid[w]) return w;
        int v = *rrpv_of(s, w);
        if (v > top) top = v;
    }
    if (top < 0) return -1;
    int d = max - top, way = -1;
    for (int w = lo; w < hi; w++) {
        if (s->reserved[w]) continue;
        uint8_t *v = rrpv_of(s, w);
        if (d > 0) *v = (uint8_t)(*v + d);
        if (way < 0 && *v >= max) way = w;
    }
    return way;
}

static inline void sat_inc(uint8_t *c, int max)
{
    if (*c < max) (*c)++;
}

static inline void sat_dec(uint8_t *c)
{
    if (*c > 0) (*c)--;
}

/* Set dueling (DIP, DRRIP): `per` leader sets for each of two policies, spread evenly over
 * `sets` sets (set i * sets / (2 per) leads policy A for even i, B for odd i); the rest
 * follow. `per` is clamped to sets / 4 so that at least half the sets follow (at least one
 * leader each when there are two or more sets). */
enum duel_role { DUEL_FOLLOWER, DUEL_LEADER_A, DUEL_LEADER_B };

/* The default of parameter `name` in a policy's table (0 when it is not there). */
static inline double table_default(const param_def *t, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(t[i].name, name)) return t[i].def;
    return 0;
}

/* The documented limit of a *.duel_sets parameter: at most sets/4 (at least 1). A value above
 * it is an error naming both; the default alone is clamped to it (duel_leaders), so that the
 * default configuration of a small L1D runs as it always has. Returns 0, or -1 with err. */
static inline int duel_sets_check(const param_set *p, const char *name, double def, int sets,
                                  char *err, size_t errlen)
{
    int per = (int)param_get_int(p, name), cap = sets / 4 > 0 ? sets / 4 : 1;
    if (per <= cap || per == (int)def) return 0;
    snprintf(err, errlen, "%s = %d exceeds l1d.sets/4 = %d (l1d.sets = %d; expected at most %d)",
             name, per, cap, sets, cap);
    return -1;
}

static inline int duel_leaders(int sets, int per)
{
    if (sets < 2) return 0;
    int cap = sets / 4 > 0 ? sets / 4 : 1;
    return per < cap ? per : cap;
}

static inline int duel_role_of(int set, int sets, int per)
{
    if (per <= 0) return DUEL_FOLLOWER;
    int stride = sets / (2 * per);
    if (stride < 1 || set % stride != 0 || set / stride >= 2 * per) return DUEL_FOLLOWER;
    return (set / stride) % 2 == 0 ? DUEL_LEADER_A : DUEL_LEADER_B;
}

/* Set dueling's statistics, shared by the policies that duel (rrip's DRRIP, dip). */
enum { DUEL_FOLLOWER_FILLS, DUEL_BIMODAL_FILLS, DUEL_METRICS };
#define DUEL_METRIC_DEFS                                                                           \
    {                                                                                              \
        [DUEL_FOLLOWER_FILLS] = {"duel_follower_fills",                                            \
                                 "DIP/DRRIP: insertions into follower sets"},                      \
        [DUEL_BIMODAL_FILLS] = {"duel_bimodal_fills",                                              \
                                "DIP/DRRIP: follower insertions made by the bimodal policy"},      \
    }

/* The line signature of CAWA's CCBP and SHiP (3.3): the low 8 bits of the instruction's pc
 * (an instruction index) XOR the low 8 bits of the line address in lines. */
static inline uint8_t pc_line_signature(uint32_t pc, uint64_t line_addr, int line_bytes)
{
    uint64_t block = line_addr / (uint64_t)(line_bytes > 0 ? line_bytes : 1);
    return (uint8_t)((pc ^ (uint32_t)block) & 0xffu);
}

#endif
