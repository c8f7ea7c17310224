/* Instruction fetch and decode (sm.fetch), as GPGPU-Sim models them (shader.cc,
 * shader_core_ctx::fetch and ::decode, with a perfect instruction cache as
 * -gpgpu_perfect_inst_const_cache 1 sets it).
 *
 * Each warp has a buffer of sm.ibuffer instructions. GPGPU-Sim's cycle runs issue before
 * decode and fetch, and repeats decode-then-fetch -gpgpu_inst_fetch_throughput times: each
 * pass fetches for the first warp after the last one fetched (warp slot order, round robin)
 * whose buffer is empty, and the next pass (or the next cycle's first) decodes it, filling the
 * buffer. So a warp fetched in any pass but the last can issue next cycle, one fetched in the
 * last pass the cycle after. A warp's buffer empties when it has issued all of it; in trace
 * mode there are no control hazards (trace_driven.cc, get_pdom_stack_top_info), so a buffer
 * is never flushed. A warp with an empty buffer cannot issue: GPGPU-Sim counts such cycles
 * with control hazards (shader_cycle_distro[0]), and so does the stall breakdown (ST_CTRL). */
#include "core/sim/sm_internal.h"

void sm_fetch_warp_start(sm *s, int wi)
{
    if (s->cfg->fetch) s->ib_empty |= (uint64_t)1 << wi;
}

void sm_fetch_cycle(sm *s, uint64_t now)
{
    int passes = s->cfg->fetch_throughput, n = s->cfg->max_warps;
    for (int i = 0; i < passes && s->ib_empty; i++) {
        int from = s->fetch_last + 1 == n ? 0 : s->fetch_last + 1; /* fetch_last < n */
        uint64_t after = s->ib_empty & (~(uint64_t)0 << from);
        int wi = __builtin_ctzll(after ? after : s->ib_empty);
        warp *w = &s->warps[wi];
        s->ib_empty &= ~((uint64_t)1 << wi);
        if (!w->live) { /* not a candidate: GPGPU-Sim skips finished warps */
            i--;
            continue;
        }
        s->fetch_last = wi;
        w->ib_n = (uint8_t)s->cfg->ibuffer;
        w->ib_ready = now + (i < passes - 1 ? 1 : 2);
        s->recheck |= (uint64_t)1 << wi;
        if (w->ib_ready < s->scan_at) s->scan_at = w->ib_ready;
    }
}
