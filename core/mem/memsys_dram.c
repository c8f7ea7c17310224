/* One DRAM channel per l2_slices_per_channel partitions (L2 slices; one each by default):
 * dram_banks banks with an open-row policy, a request queue of dram_queue entries and one data
 * bus. All times are DRAM cycles (ms_clock clk_dram; the core's when dram_mhz is 0): a request
 * that arrives at core cycle t may be scheduled from the first DRAM edge at or after t, a read's
 * data is handed back at the first core cycle at or after its last bus cycle, and dram_latency
 * (core cycles, like GPGPU-Sim's -dram_latency) is added then, or, with dram_latency_first, on
 * the request's way into the queue (GPGPU-Sim's m_dram_latency_queue). There it holds a slot
 * of the queue, or with dram_inflight it enters the pipe one per DRAM cycle while the queue has
 * room and fewer than dram_inflight requests are in the pipe and the queue, and waits at the
 * pipe's end for a slot (memory_partition_unit::dram_cycle and its arbitration credits).
 *
 * Address (local = line number inside the channel: the slice's local line times the slices
 * per channel plus the slice's place in it; R = dram_row_bytes / l2_line lines per row,
 * B = dram_banks):
 *   row_block = local / R; row = row_block / B; bank = (row_block ^ row) % B
 * Consecutive lines fill a whole row before moving to the next bank (a stream gets row hits and
 * its next row opens in another bank); XOR-ing the row into the bank (permutation interleaving)
 * keeps rows that are B row-blocks apart from all conflicting in one bank. With dram_bank_bit
 * b, GPGPU-Sim's decoder instead (addrdec.cc, one B among the column bits): in the channel's
 * byte address a (the slice's place put back at the bit the L2 map took it from),
 *   bank = bit b of a | (bits above the row's columns of a without bit b) << 1, row above them
 * so the banks alternate every 2^b bytes.
 *
 * Commands, at most one per cycle per channel, chosen FR-FCFS among queued requests:
 *   1. column (read/write) for the oldest request whose row is open, whose bank can take a
 *      column command and whose data would find the bus free: data occupies the bus from
 *      t + t_cl for burst = ceil(l2_line / dram_bytes_per_cycle) cycles; the bank accepts its
 *      next column burst cycles later; the request leaves the queue;
 *   2. otherwise, for the oldest request whose bank is precharged: activate its row (its
 *      column may follow t_rcd later);
 *   3. or, for the oldest request whose bank has another row open and no queued request hits
 *      that row: precharge, allowed t_ras after the activation and burst after the last
 *      column; the bank may activate t_rp later.
 * So, unloaded, a row hit returns its data t_cl + burst after issue, a closed row
 * t_rcd + t_cl + burst and a conflict t_rp + t_rcd + t_cl + burst (plus any wait for t_ras).
 * The bus moves at most one line per burst cycles: a channel never exceeds its peak bandwidth.
 * A column command is only issued when its data slot starts exactly at t + t_cl, so the bus is
 * never booked ahead and the queue stays the scheduling window. GPGPU-Sim's further timings
 * (dram.cc issue_row_command, issue_col_command) are optional, each 0 for none: activations
 * t_rrd apart in the channel and t_rc apart in a bank; columns t_ccdl apart and a precharge
 * t_rtpl after a read in a bank group; a write column t_rtw after a read column and a read
 * t_wtr after a write in the channel; a precharge t_wtp after a write in its bank. With
 * dram_dual_bus a row command may issue in the cycle of a column command (the oldest of
 * each). When nothing can issue, the channel schedules itself for the
 * exact cycle the first command becomes possible (the bank state only changes by its own
 * commands, and arrivals reschedule it), so skipping idle cycles changes nothing. */
#include "core/mem/memsys_internal.h"

#include <stdlib.h>
#include <string.h>

int ms_dram_init(memsys *m, ms_part *p)
{
    p->dq = calloc((size_t)m->cfg.dram_queue, sizeof *p->dq);
    p->pend = calloc((size_t)m->pend_cap, sizeof *p->pend);
    p->banks = calloc((size_t)m->cfg.dram_banks, sizeof *p->banks);
    p->bank_q = calloc(((size_t)m->cfg.dram_banks + 63) / 64, sizeof *p->bank_q);
    p->bank_h = calloc(((size_t)m->cfg.dram_banks + 63) / 64, sizeof *p->bank_h);
    if (!p->dq || !p->pend || !p->banks || !p->bank_q || !p->bank_h) return -1;
    for (int b = 0; b < m->cfg.dram_banks; b++) {
        p->banks[b].open_row = MS_ROW_NONE;
        p->banks[b].own = MS_NEVER;
    }
    p->last_cmd = MS_NEVER;
    p->sched_time = MS_NEVER;
    return 0;
}

void ms_dram_free(ms_part *p)
{
    free(p->dq);
    free(p->pend);
    free(p->banks);
    free(p->bank_q);
    free(p->bank_h);
}

/* Free slots of the queue of the channel serving partition part (requests on their way to it
 * hold theirs). */
int ms_dram_space(const memsys *m, uint32_t part)
{
    const ms_part *c = &m->parts[part / m->slices];
    const int room = m->cfg.dram_queue - c->dq_n;
    if (!m->cfg.dram_inflight) return room - c->pend_n;
    const int credits = m->cfg.dram_inflight - c->dq_n - c->pend_n;
    return credits < room ? credits : room;
}

/* Makes sure the channel runs its scheduler no later than DRAM cycle t (and not twice a cycle).
 * A later pending step is superseded (its generation no longer matches). */
static void request_sched(memsys *m, uint32_t part, uint64_t t)
{
    ms_part *p = &m->parts[part];
    if (p->last_cmd != MS_NEVER && t <= p->last_cmd) t = p->last_cmd + 1;
    if (p->sched_time <= t) return;
    p->sched_gen++;
    p->sched_time = t;
    ms_push(m, ms_core(&m->clk_dram, t), EV_DRAM_SCHED, part, p->sched_gen);
}

static uint64_t max_u64(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

/* Earliest cycle bank k's next command may issue as far as the bank alone goes: a column for
 * its queued row hits, else a precharge (or activation) for its other queued requests;
 * MS_NEVER when nothing is queued for it. Kept in own, with the bank's bits in bank_q and
 * bank_h, by calling this wherever the bank changes. A column also waits for the data bus
 * (bus_col). */
static uint32_t bank_group(const memsys *m, uint32_t k)
{
    return m->cfg.dram_bank_groups > 1 ? k % (uint32_t)m->cfg.dram_bank_groups : 0;
}

static void bank_update(const memsys *m, ms_part *p, uint32_t k)
{
    ms_bank *b = &p->banks[k];
    const uint32_t g = bank_group(m, k);
    uint64_t bit = 1ull << (k & 63);
    p->bank_q[k >> 6] &= ~bit;
    p->bank_h[k >> 6] &= ~bit;
    if (!b->queued) {
        b->own = MS_NEVER;
        return;
    }
    p->bank_q[k >> 6] |= bit;
    if (b->hits) {
        p->bank_h[k >> 6] |= bit;
        /* the turnaround depends on the hit that goes: the earlier of the two bounds it */
        b->own = max_u64(max_u64(b->ready_col, p->grp_col[g]),
                         p->rd_ok < p->wr_ok ? p->rd_ok : p->wr_ok);
    } else if (b->open_row == MS_ROW_NONE) {
        b->own = max_u64(b->ready_act, p->act_ok);
    } else {
        b->own = max_u64(max_u64(b->act_time + (uint64_t)m->cfg.dram_t_ras, b->ready_pre),
                         p->grp_pre[g]);
    }
}

/* Whether the channel-wide and bank-group timings are on: a command then moves the earliest
 * times of other banks too. */
static int shared_timings(const memsys *m)
{
    const memsys_config *c = &m->cfg;
    return (c->dram_t_rrd | c->dram_t_ccdl | c->dram_t_rtpl | c->dram_t_rtw | c->dram_t_wtr) != 0;
}

/* Recomputes the earliest command of every bank with queued requests. */
static void banks_update(const memsys *m, ms_part *p)
{
    const int words = (m->cfg.dram_banks + 63) / 64;
    for (int w = 0; w < words; w++)
        for (uint64_t q = p->bank_q[w]; q; q &= q - 1)
            bank_update(m, p, (uint32_t)(w * 64 + __builtin_ctzll(q)));
}

/* Earliest cycle the data bus lets a column command issue: its data starts t_cl later. */
static uint64_t bus_col(const memsys *m, const ms_part *p)
{
    uint64_t t_cl = (uint64_t)m->cfg.dram_t_cl;
    return p->bus_free > t_cl ? p->bus_free - t_cl : 0;
}

/* Request src joins channel part's queue at core cycle t. */
static void enqueue(memsys *m, uint32_t part, const ms_dreq *src, uint64_t t)
{
    ms_part *p = &m->parts[part];
    ms_dreq *d = &p->dq[p->dq_n++];
    *d = *src;
    d->arrival = t;
    ms_bank *b = &p->banks[d->bank];
    b->queued++;
    if (b->open_row == d->row) b->hits++;
    bank_update(m, p, d->bank);
    /* Only the newcomer's bank can make a command possible earlier than already planned (it
     * may also block a planned precharge; the step then finds nothing and replans). */
    uint64_t e = b->hits ? max_u64(b->own, bus_col(m, p)) : b->own;
    request_sched(m, part, max_u64(e, ms_edge(&m->clk_dram, t)));
}

/* Slice `part` sends a request for its line `local` at core cycle t. Its channel sees the line
 * as local * slices + the slice's place in the channel (the slices' lines interleave). */
void ms_dram_enqueue(memsys *m, uint32_t part, uint64_t local, int write, uint32_t mshr,
                     uint32_t bytes, uint64_t t)
{
    const uint32_t S = m->slices, ch = part / S;
    uint64_t row, bank;
    if (m->cfg.dram_bank_bit) {
        const int bb = m->cfg.dram_bank_bit, row_bits = m->row_shift + m->line_shift;
        uint64_t a = local << m->line_shift;
        if (S > 1) a = ms_insert_bits(a, m->dram_sub_at, m->map_s_bits, part - ch * S);
        const uint64_t rest = ms_drop_bits(a, bb, 1); /* columns below row_bits, then banks */
        bank = (rest >> row_bits & (m->bank_mask >> 1)) << 1 | (a >> bb & 1);
        row = rest >> (row_bits + m->bank_shift - 1);
    } else {
        if (S > 1) local = local * S + (part - ch * S);
        uint64_t rb = local >> m->row_shift; /* local / lines_per_row */
        row = rb >> m->bank_shift;
        bank = (rb ^ row) & m->bank_mask;
    }
    ms_dreq d = {.row = row,
                 .bank = (uint32_t)bank,
                 .mshr = mshr,
                 .slice = part,
                 .bytes = (uint16_t)bytes,
                 .write = (uint8_t)write};
    m->dram_queued++;
    if (!m->cfg.dram_latency_first || m->cfg.dram_latency == 0) {
        enqueue(m, ch, &d, t);
        return;
    }
    /* On its way through the fixed latency: in order, as t never decreases. */
    ms_part *c = &m->parts[ch];
    int slot = c->pend_head + c->pend_n++;
    c->pend[slot >= m->pend_cap ? slot - m->pend_cap : slot] = d;
    uint64_t start = t;
    if (m->cfg.dram_inflight) { /* the pipe takes one request per DRAM cycle */
        const uint64_t e = max_u64(ms_edge(&m->clk_dram, t), c->pipe_free);
        c->pipe_free = e + 1;
        start = ms_core(&m->clk_dram, e);
    }
    ms_push(m, start + (uint64_t)m->cfg.dram_latency, EV_DRAM_ARRIVE, ch, 0);
}

/* Moves the requests whose latency is over into channel ch's queue while it has room. */
static void pend_drain(memsys *m, uint32_t ch, uint64_t t)
{
    ms_part *c = &m->parts[ch];
    while (c->pend_ready > 0 && c->dq_n < m->cfg.dram_queue) {
        ms_dreq d = c->pend[c->pend_head];
        c->pend_head = c->pend_head + 1 == m->pend_cap ? 0 : c->pend_head + 1;
        c->pend_n--;
        c->pend_ready--;
        enqueue(m, ch, &d, t);
    }
}

/* The oldest request on its way to channel ch's queue arrives at core cycle t. */
void ms_dram_arrive(memsys *m, uint32_t ch, uint64_t t)
{
    m->parts[ch].pend_ready++;
    pend_drain(m, ch, t);
}

/* DRAM cycles the data bus spends on an access of `bytes`: a sectored L2 moves only the
 * sectors it misses; with atoms, every access moves whole atoms. A sectored L2's read misses
 * are each their own access (GPGPU-Sim sends each sector miss to DRAM as its own mem_fetch),
 * so a 32-byte sector over a 64-byte atom takes the bus as long as 64 bytes; a write is one
 * access of all its bytes (a write-back's size is its dirty sectors', get_modified_size, and
 * dram_t moves it in ceil(size / atom) atoms), so two sectors share a 64-byte atom, unless
 * dram.sector_writes makes each sector of a write an access of its own too. */
static uint64_t bus_cycles(const memsys *m, uint32_t bytes, int write)
{
    const uint64_t bpc = (uint64_t)m->cfg.dram_bytes_per_cycle;
    const uint64_t atom = (uint64_t)m->cfg.dram_atom_bytes;
    if (atom == 0 || bytes == 0)
        return bytes == (uint32_t)m->cfg.l2_line ? m->burst : (bytes + bpc - 1) / bpc;
    const int per_sector = m->cfg.l2_sectored && (!write || m->cfg.dram_sector_writes);
    const uint64_t unit = per_sector ? 32 : (uint64_t)bytes;
    const uint64_t units = (bytes + unit - 1) / unit;
    const uint64_t moved = units * ((unit + atom - 1) / atom) * atom;
    return (moved + bpc - 1) / bpc;
}

static void issue_column(memsys *m, uint32_t part, int i, uint64_t t)
{
    ms_part *p = &m->parts[part];
    ms_dreq d = p->dq[i];
    ms_bank *b = &p->banks[d.bank];
    uint64_t data = t + (uint64_t)m->cfg.dram_t_cl;
    uint64_t burst = bus_cycles(m, d.bytes, d.write);
    const uint32_t g = bank_group(m, d.bank);
    p->bus_free = data + burst;
    b->ready_col = t + burst;
    p->grp_col[g] = t + (uint64_t)m->cfg.dram_t_ccdl;
    /* the bank's read-to-precharge (the burst) and write-to-precharge bounds both hold */
    if (d.write) {
        b->ready_pre = max_u64(b->ready_pre, t + max_u64(burst, (uint64_t)m->cfg.dram_t_wtp));
        p->rd_ok = max_u64(p->rd_ok, t + (uint64_t)m->cfg.dram_t_wtr);
    } else {
        b->ready_pre = max_u64(b->ready_pre, t + burst);
        p->grp_pre[g] = max_u64(p->grp_pre[g], t + (uint64_t)m->cfg.dram_t_rtpl);
        p->wr_ok = max_u64(p->wr_ok, t + (uint64_t)m->cfg.dram_t_rtw);
    }
    b->hits--;
    b->queued--;
    bank_update(m, p, d.bank);
    memmove(&p->dq[i], &p->dq[i + 1], (size_t)(p->dq_n - i - 1) * sizeof *p->dq);
    p->dq_n--;
    m->dram_queued--;
    memsys_stats *st = &m->st;
    if (d.write)
        st->dram_writes++;
    else
        st->dram_reads++;
    if (!d.activated) st->dram_row_hits++;
    const uint64_t now = ms_core(&m->clk_dram, t); /* the core cycle of this command */
    st->dram_queue_cycles += now - d.arrival;
    st->dram_bytes += d.bytes;
    st->dram_busy_cycles += burst;
    if (!d.write) {
        uint64_t lat = m->cfg.dram_latency_first ? 0 : (uint64_t)m->cfg.dram_latency;
        ms_push(m, ms_core(&m->clk_dram, p->bus_free) + lat, EV_DRAM_DONE, d.slice, d.mshr);
    }
    for (uint32_t s = 0; s < m->slices; s++) /* a queue slot freed */
        ms_l2_wake(m, part * m->slices + s, MS_STALL_DRAM, now);
}

/* An activation (the bank is precharged) or a precharge (it has another row open, which no
 * queued request hits) for the bank of queued request i, at DRAM cycle t. */
static void row_command(memsys *m, ms_part *p, int i, uint64_t t)
{
    ms_dreq *d = &p->dq[i];
    ms_bank *b = &p->banks[d->bank];
    if (b->open_row == MS_ROW_NONE) {
        b->open_row = d->row;
        b->act_time = t;
        b->ready_col = t + (uint64_t)m->cfg.dram_t_rcd;
        p->act_ok = t + (uint64_t)m->cfg.dram_t_rrd;
        d->activated = 1;
        m->st.dram_activations++;
        b->hits = 0;
        for (int k = 0; k < p->dq_n; k++)
            if (p->dq[k].bank == d->bank && p->dq[k].row == d->row) b->hits++;
    } else {
        b->open_row = MS_ROW_NONE;
        b->ready_act =
            max_u64(t + (uint64_t)m->cfg.dram_t_rp, b->act_time + (uint64_t)m->cfg.dram_t_rc);
    }
    bank_update(m, p, d->bank);
}

/* One scheduling step, at the DRAM cycle it was planned for (seen at core cycle now): issue at
 * most one command, then plan the next step for the first cycle any command becomes possible. */
void ms_dram_sched(memsys *m, uint32_t part, uint32_t gen, uint64_t now)
{
    ms_part *p = &m->parts[part];
    (void)now;
    if (gen != p->sched_gen) return;  /* superseded by an earlier step */
    const uint64_t t = p->sched_time; /* DRAM cycles from here */
    p->sched_time = MS_NEVER;
    /* A bank may issue now when its own time has come; a column also needs the bus. */
    const int cols = bus_col(m, p) <= t;
    const int dual = m->cfg.dram_dual_bus;
    int n = p->dq_n, prep = -1, col = -1;
    for (int i = 0; i < n; i++) {
        const ms_dreq *d = &p->dq[i];
        const ms_bank *b = &p->banks[d->bank];
        if (b->own > t) continue;
        if (b->hits) {
            if (col < 0 && cols && b->open_row == d->row && t >= (d->write ? p->wr_ok : p->rd_ok)) {
                col = i; /* first ready: the oldest row hit that can move its data now */
                if (!dual || prep >= 0) break;
            }
        } else if (prep < 0) {
            prep = i;                               /* first come: the oldest bank to prepare */
            if (!cols || (dual && col >= 0)) break; /* no column can win over it */
        }
    }
    /* One command a cycle, a column before a row command; with two buses one of each. The
     * row command goes first: the column's issue reorders the queue. */
    if (prep >= 0 && (col < 0 || dual)) row_command(m, p, prep, t);
    if (col >= 0) issue_column(m, part, col, t);
    if (col >= 0 || prep >= 0) {
        p->last_cmd = t;
        if (shared_timings(m)) banks_update(m, p);
    }
    /* a request waiting at the pipe's end takes the slot the column freed */
    if (col >= 0 && p->pend_ready) pend_drain(m, part, ms_core(&m->clk_dram, t));
    /* The first cycle any bank may issue: banks with row hits wait for the bus too, and
     * max(x, bus) is monotone in x, so the bus applies once to their smallest own time. */
    uint64_t hit_min = MS_NEVER, other_min = MS_NEVER;
    const int words = (m->cfg.dram_banks + 63) / 64;
    for (int w = 0; w < words; w++) {
        uint64_t h = p->bank_h[w];
        for (uint64_t q = h; q; q &= q - 1) {
            uint64_t c = p->banks[w * 64 + __builtin_ctzll(q)].own;
            hit_min = c < hit_min ? c : hit_min;
        }
        for (uint64_t q = p->bank_q[w] & ~h; q; q &= q - 1) {
            uint64_t c = p->banks[w * 64 + __builtin_ctzll(q)].own;
            other_min = c < other_min ? c : other_min;
        }
    }
    if (hit_min != MS_NEVER) hit_min = max_u64(hit_min, bus_col(m, p));
    uint64_t next = hit_min < other_min ? hit_min : other_min;
    if (next != MS_NEVER) request_sched(m, part, max_u64(next, t + 1));
}
