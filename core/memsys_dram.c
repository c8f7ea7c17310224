/* One DRAM channel per partition: dram_banks banks with an open-row policy, a request queue of
 * dram_queue entries and one data bus. All times are core cycles.
 *
 * Address (local = line number inside the partition, R = dram_row_bytes / l2_line lines per
 * row, B = dram_banks):
 *   row_block = local / R; row = row_block / B; bank = (row_block ^ row) % B
 * Consecutive lines fill a whole row before moving to the next bank (a stream gets row hits and
 * its next row opens in another bank); XOR-ing the row into the bank (permutation interleaving)
 * keeps rows that are B row-blocks apart from all conflicting in one bank.
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
 * never booked ahead and the queue stays the scheduling window. Write recovery and read/write
 * turnaround are not modelled. When nothing can issue, the channel schedules itself for the
 * exact cycle the first command becomes possible (the bank state only changes by its own
 * commands, and arrivals reschedule it), so skipping idle cycles changes nothing. */
#include "core/memsys_internal.h"

#include <stdlib.h>
#include <string.h>

int ms_dram_init(memsys *m, ms_part *p)
{
    p->dq = calloc((size_t)m->cfg.dram_queue, sizeof *p->dq);
    p->banks = calloc((size_t)m->cfg.dram_banks, sizeof *p->banks);
    if (!p->dq || !p->banks) return -1;
    for (int b = 0; b < m->cfg.dram_banks; b++)
        p->banks[b].open_row = MS_ROW_NONE;
    p->last_cmd = MS_NEVER;
    p->sched_time = MS_NEVER;
    return 0;
}

void ms_dram_free(ms_part *p)
{
    free(p->dq);
    free(p->banks);
}

int ms_dram_space(const memsys *m, uint32_t part)
{
    return m->cfg.dram_queue - m->parts[part].dq_n;
}

/* Makes sure the channel runs its scheduler no later than cycle t (and not twice a cycle). A
 * later pending step is superseded (its generation no longer matches). */
static void request_sched(memsys *m, uint32_t part, uint64_t t)
{
    ms_part *p = &m->parts[part];
    if (p->last_cmd != MS_NEVER && t <= p->last_cmd) t = p->last_cmd + 1;
    if (p->sched_time <= t) return;
    p->sched_gen++;
    p->sched_time = t;
    ms_push(m, t, EV_DRAM_SCHED, part, p->sched_gen);
}

static uint64_t max_u64(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

/* Earliest cycle the bank's next command may issue, given the bank and bus state now: a column
 * for its queued row hits, else a precharge (or activation) for its other queued requests.
 * MS_NEVER when nothing is queued for it. */
static uint64_t bank_earliest(const memsys *m, const ms_part *p, const ms_bank *b)
{
    if (!b->queued) return MS_NEVER;
    if (b->hits) {
        uint64_t t_cl = (uint64_t)m->cfg.dram_t_cl;
        return max_u64(b->ready_col, p->bus_free > t_cl ? p->bus_free - t_cl : 0);
    }
    if (b->open_row == MS_ROW_NONE) return b->ready_act;
    return max_u64(b->act_time + (uint64_t)m->cfg.dram_t_ras, b->ready_pre);
}

void ms_dram_enqueue(memsys *m, uint32_t part, uint64_t local, int write, uint32_t mshr, uint64_t t)
{
    ms_part *p = &m->parts[part];
    uint64_t rb = local >> m->row_shift; /* local / lines_per_row */
    uint64_t row = rb >> m->bank_shift;
    ms_dreq *d = &p->dq[p->dq_n++];
    d->arrival = t;
    d->row = row;
    d->bank = (uint32_t)((rb ^ row) & m->bank_mask);
    d->mshr = mshr;
    d->write = (uint8_t)write;
    d->activated = 0;
    m->dram_queued++;
    ms_bank *b = &p->banks[d->bank];
    b->queued++;
    if (b->open_row == row) b->hits++;
    /* Only the newcomer's bank can make a command possible earlier than already planned (it
     * may also block a planned precharge; the step then finds nothing and replans). */
    request_sched(m, part, max_u64(bank_earliest(m, p, b), t));
}

static void issue_column(memsys *m, uint32_t part, int i, uint64_t t)
{
    ms_part *p = &m->parts[part];
    ms_dreq d = p->dq[i];
    ms_bank *b = &p->banks[d.bank];
    uint64_t data = t + (uint64_t)m->cfg.dram_t_cl;
    p->bus_free = data + m->burst;
    b->ready_col = t + m->burst;
    b->ready_pre = t + m->burst;
    b->hits--;
    b->queued--;
    memmove(&p->dq[i], &p->dq[i + 1], (size_t)(p->dq_n - i - 1) * sizeof *p->dq);
    p->dq_n--;
    m->dram_queued--;
    memsys_stats *st = &m->st;
    if (d.write)
        st->dram_writes++;
    else
        st->dram_reads++;
    if (!d.activated) st->dram_row_hits++;
    st->dram_queue_cycles += t - d.arrival;
    st->dram_bytes += (uint64_t)m->cfg.l2_line;
    st->dram_busy_cycles += m->burst;
    if (!d.write)
        ms_push(m, p->bus_free + (uint64_t)m->cfg.dram_latency, EV_DRAM_DONE, part, d.mshr);
    ms_l2_wake(m, part, MS_STALL_DRAM, t); /* a queue slot freed */
}

/* One scheduling step at cycle t: issue at most one command, then plan the next step for the
 * first cycle any command becomes possible. */
void ms_dram_sched(memsys *m, uint32_t part, uint32_t gen, uint64_t t)
{
    ms_part *p = &m->parts[part];
    if (gen != p->sched_gen) return; /* superseded by an earlier step */
    p->sched_time = MS_NEVER;
    const int nb = m->cfg.dram_banks;
    int any = 0;
    for (int k = 0; k < nb; k++) {
        ms_bank *b = &p->banks[k];
        b->ok = 0;
        if (bank_earliest(m, p, b) <= t) {
            b->ok = b->hits ? 1 : 2;
            any = 1;
        }
    }
    int n = p->dq_n, prep = -1, col = -1;
    for (int i = 0; any && i < n; i++) {
        const ms_dreq *d = &p->dq[i];
        const ms_bank *b = &p->banks[d->bank];
        if (b->ok == 1 && b->open_row == d->row) {
            col = i; /* first ready: the oldest row hit that can move its data now */
            break;
        }
        if (b->ok == 2 && prep < 0) prep = i; /* first come: the oldest bank to prepare */
    }
    if (col >= 0) {
        issue_column(m, part, col, t);
    } else if (prep >= 0) {
        ms_dreq *d = &p->dq[prep];
        ms_bank *b = &p->banks[d->bank];
        if (b->open_row == MS_ROW_NONE) {
            b->open_row = d->row;
            b->act_time = t;
            b->ready_col = t + (uint64_t)m->cfg.dram_t_rcd;
            d->activated = 1;
            m->st.dram_activations++;
            b->hits = 0;
            for (int i = 0; i < n; i++)
                if (p->dq[i].bank == d->bank && p->dq[i].row == d->row) b->hits++;
        } else {
            b->open_row = MS_ROW_NONE;
            b->ready_act = t + (uint64_t)m->cfg.dram_t_rp;
        }
    }
    if (col >= 0 || prep >= 0) p->last_cmd = t;
    uint64_t next = MS_NEVER;
    for (int k = 0; k < nb; k++) {
        uint64_t c = bank_earliest(m, p, &p->banks[k]);
        if (c < next) next = c;
    }
    if (next != MS_NEVER) request_sched(m, part, max_u64(next, t + 1));
}
