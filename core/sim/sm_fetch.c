/* Instruction fetch and decode (sm.fetch), as GPGPU-Sim models them (shader.cc,
 * shader_core_ctx::fetch and ::decode).
 *
 * Each warp has a buffer of sm.ibuffer instructions. GPGPU-Sim's cycle runs issue before
 * decode and fetch, and repeats decode-then-fetch -gpgpu_inst_fetch_throughput times: each
 * pass fetches for the first warp after the last one fetched (warp slot order, round robin)
 * whose buffer is empty, and the next pass (or the next cycle's first) decodes it, filling the
 * buffer. So a warp fetched in any pass but the last can issue next cycle, one fetched in the
 * last pass the cycle after. A warp's buffer empties when it has issued all of it; in trace
 * mode there are no control hazards (trace_driven.cc, get_pdom_stack_top_info), so a buffer
 * is never flushed. A warp with an empty buffer cannot issue: GPGPU-Sim counts such cycles
 * with control hazards (shader_cycle_distro[0]), and so does the stall breakdown (ST_CTRL).
 *
 * The instruction cache is perfect (-gpgpu_perfect_inst_const_cache 1, as SM7_QV100 sets it)
 * unless l1i.enabled: then a fetch looks its line up in a read-only L1I (-gpgpu_cache:il1;
 * SM2_GTX480: 4 sets of 4 128-byte lines, LRU, allocated at the fill, 2 MSHRs merging up to 32).
 * A hit fetches as above. A miss sends a read of the line through the interconnect and the
 * L2 like any other (an instruction's address is PROGRAM_MEM_START + pc x l1i.inst_bytes), and
 * the warp waits (imiss_pending) while the round robin moves on; a miss with no MSHR free, or
 * no room to send, only moves the round robin (RESERVATION_FAIL). When the line comes back the
 * cache takes it and the warps that missed on it get their fetch in a later pass, one a pass,
 * in the order they missed, before any new lookup (m_L1I->access_ready). The L1I keeps its
 * lines across kernels. */
#include "core/sim/sm_fetch.h"

#include <assert.h>
#include <stdlib.h>

#define L1I_PROGRAM_BASE 0xF0000000ull /* GPGPU-Sim's PROGRAM_MEM_START */
#define L1I_MAX_MSHRS    8

typedef struct l1i {
    int sets, ways, line_shift, inst_bytes, nmshrs;
    uint64_t *tag;  /* sets * ways line numbers */
    uint64_t *used; /* sets * ways: last use, 0 = invalid */
    uint64_t clock;
    struct {
        bool busy;
        uint64_t line;
        uint64_t warps; /* warps waiting for it */
        uint8_t order[64];
        int n;
    } mshr[L1I_MAX_MSHRS];
    uint8_t ready[64]; /* warps whose line came back, in that order */
    int ready_head, ready_n;
    uint64_t imiss; /* warps waiting for a line (mshr or ready) */
} l1i;

struct sm_frontend {
    const gpu_config *cfg;
    int sm;
    memsys *mem;
    const sm_warps *wp;
    sm_wakes *wakes;
    uint8_t *ib_n;      /* per warp: instructions left in its buffer */
    uint64_t *ib_ready; /* per warp: its buffer's instructions can issue from this cycle */
    uint64_t ib_empty;  /* live warps whose buffer is empty, waiting for a fetch */
    int fetch_last;     /* the warp fetched last (round robin) */
    l1i *ic;            /* l1i.enabled: the instruction cache, else NULL */
};

static int l1i_init(sm_frontend *fe)
{
    const gpu_config *c = fe->cfg;
    l1i *ic = calloc(1, sizeof *ic);
    if (!ic) return -1;
    fe->ic = ic;
    ic->sets = c->l1i_sets;
    ic->ways = c->l1i_ways;
    while ((1 << ic->line_shift) < c->l1i_line)
        ic->line_shift++;
    ic->inst_bytes = c->l1i_inst_bytes;
    ic->nmshrs = c->l1i_mshrs;
    ic->tag = calloc((size_t)(ic->sets * ic->ways), sizeof *ic->tag);
    ic->used = calloc((size_t)(ic->sets * ic->ways), sizeof *ic->used);
    return ic->tag && ic->used ? 0 : -1;
}

int fe_create(sm_frontend **out, const gpu_config *cfg, int sm_id, memsys *mem, const sm_warps *wp,
              sm_wakes *wakes)
{
    sm_frontend *fe = calloc(1, sizeof *fe);
    if (!fe) return -1;
    fe->cfg = cfg;
    fe->sm = sm_id;
    fe->mem = mem;
    fe->wp = wp;
    fe->wakes = wakes;
    fe->ib_n = calloc((size_t)cfg->max_warps, sizeof *fe->ib_n);
    fe->ib_ready = calloc((size_t)cfg->max_warps, sizeof *fe->ib_ready);
    if (!fe->ib_n || !fe->ib_ready || (cfg->l1i_enabled && l1i_init(fe) != 0)) {
        fe_destroy(fe);
        return -1;
    }
    *out = fe;
    return 0;
}

void fe_destroy(sm_frontend *fe)
{
    if (!fe) return;
    if (fe->ic) {
        free(fe->ic->tag);
        free(fe->ic->used);
        free(fe->ic);
    }
    free(fe->ib_n);
    free(fe->ib_ready);
    free(fe);
}

void fe_warp_start(sm_frontend *fe, int wi)
{
    fe->ib_n[wi] = 0;
    fe->ib_ready[wi] = 0;
    if (fe->cfg->fetch) fe->ib_empty |= (uint64_t)1 << wi;
}

void fe_consume(sm_frontend *fe, int wi)
{
    assert(fe->ib_n[wi] > 0);
    if (--fe->ib_n[wi] == 0) fe->ib_empty |= (uint64_t)1 << wi;
}

int fe_buffered(const sm_frontend *fe, int wi)
{
    return fe->ib_n[wi];
}

uint64_t fe_ready_at(const sm_frontend *fe, int wi)
{
    return fe->ib_ready[wi];
}

/* The warp's buffer fills from this pass: ready next cycle, or the one after from the last. */
static void fill_buffer(sm_frontend *fe, int wi, int pass, int passes, uint64_t now)
{
    fe->ib_empty &= ~((uint64_t)1 << wi);
    fe->ib_n[wi] = (uint8_t)fe->cfg->ibuffer;
    fe->ib_ready[wi] = now + (pass < passes - 1 ? 1 : 2);
    sm_wake_warps_at(fe->wakes, (uint64_t)1 << wi, fe->ib_ready[wi]);
}

/* The L1I lookup of warp wi's next instruction. Returns 1 for a hit; 0 when the warp now waits
 * for its line or could not even miss (RESERVATION_FAIL). */
static int l1i_lookup(sm_frontend *fe, int wi, uint64_t now)
{
    l1i *ic = fe->ic;
    uint64_t addr =
        L1I_PROGRAM_BASE + (uint64_t)warps_get(fe->wp, wi)->next->pc * (uint64_t)ic->inst_bytes;
    uint64_t line = addr >> ic->line_shift;
    int set = (int)(line % (uint64_t)ic->sets);
    uint64_t *tag = ic->tag + set * ic->ways, *used = ic->used + set * ic->ways;
    for (int w = 0; w < ic->ways; w++)
        if (used[w] && tag[w] == line) {
            used[w] = ++ic->clock;
            return 1;
        }
    int free_m = -1;
    for (int m = 0; m < ic->nmshrs; m++) {
        if (ic->mshr[m].busy && ic->mshr[m].line == line) { /* merge */
            ic->mshr[m].warps |= (uint64_t)1 << wi;
            ic->mshr[m].order[ic->mshr[m].n++] = (uint8_t)wi;
            ic->imiss |= (uint64_t)1 << wi;
            return 0;
        }
        if (!ic->mshr[m].busy && free_m < 0) free_m = m;
    }
    if (free_m < 0 || !memsys_can_send(fe->mem, fe->sm, now)) return 0;
    mem_packet p = {.addr = line << ic->line_shift,
                    .bytes = 1u << ic->line_shift,
                    .kind = MEM_READ,
                    .inst = 1,
                    .sm = (uint16_t)fe->sm,
                    .token = TOK_IFETCH | (uint32_t)free_m,
                    .sent_cycle = now};
    if (memsys_send(fe->mem, &p, now) != 0) return 0;
    ic->mshr[free_m].busy = true;
    ic->mshr[free_m].line = line;
    ic->mshr[free_m].warps = (uint64_t)1 << wi;
    ic->mshr[free_m].order[0] = (uint8_t)wi;
    ic->mshr[free_m].n = 1;
    ic->imiss |= (uint64_t)1 << wi;
    return 0;
}

void fe_l1i_fill(sm_frontend *fe, int m)
{
    l1i *ic = fe->ic;
    uint64_t line = ic->mshr[m].line;
    int set = (int)(line % (uint64_t)ic->sets), victim = 0;
    uint64_t *tag = ic->tag + set * ic->ways, *used = ic->used + set * ic->ways;
    for (int w = 1; w < ic->ways; w++)
        if (used[w] < used[victim]) victim = w;
    tag[victim] = line;
    used[victim] = ++ic->clock;
    for (int i = 0; i < ic->mshr[m].n; i++) {
        int k = ic->ready_head + ic->ready_n++;
        ic->ready[k & 63] = ic->mshr[m].order[i];
    }
    ic->mshr[m].busy = false;
    ic->mshr[m].n = 0;
    ic->mshr[m].warps = 0;
}

bool fe_pending(const sm_frontend *fe)
{
    if (!fe->ic) return fe->ib_empty != 0;
    return (fe->ib_empty & ~fe->ic->imiss) != 0 || fe->ic->ready_n > 0;
}

void fe_cycle(sm_frontend *fe, uint64_t now)
{
    int passes = fe->cfg->fetch_throughput, n = fe->cfg->max_warps;
    l1i *ic = fe->ic;
    for (int i = 0; i < passes; i++) {
        if (ic && ic->ready_n) { /* a line came back: its warp's fetch takes this pass */
            int wi = ic->ready[ic->ready_head & 63];
            ic->ready_head = (ic->ready_head + 1) & 63;
            ic->ready_n--;
            ic->imiss &= ~((uint64_t)1 << wi);
            if (warps_get(fe->wp, wi)->live) fill_buffer(fe, wi, i, passes, now);
            continue;
        }
        uint64_t want = fe->ib_empty & ~(ic ? ic->imiss : 0);
        if (!want) break;
        int from = fe->fetch_last + 1 == n ? 0 : fe->fetch_last + 1; /* fetch_last < n */
        uint64_t after = want & (~(uint64_t)0 << from);
        int wi = __builtin_ctzll(after ? after : want);
        if (!warps_get(fe->wp, wi)->live) { /* not a candidate: GPGPU-Sim skips finished warps */
            fe->ib_empty &= ~((uint64_t)1 << wi);
            i--;
            continue;
        }
        fe->fetch_last = wi;
        if (ic && !l1i_lookup(fe, wi, now)) continue;
        fill_buffer(fe, wi, i, passes, now);
    }
}
