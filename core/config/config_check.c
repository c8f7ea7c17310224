/* The checks of a configuration read from parameters (config.c): the combinations the
 * parameter ranges cannot rule out, each named in its error. */
#include <stdio.h>

#include "core/config/config.h"
#include "core/util/bits.h"

static int check_sm(const gpu_config *c, char *err, size_t errlen)
{
    const memsys_config *m = &c->mem;
    if (!wt_is_pow2(c->l1d_line) || !wt_is_pow2(m->l2_line)) {
        snprintf(err, errlen, "l1d.line and l2.line must be powers of two (got %d and %d)",
                 c->l1d_line, m->l2_line);
        return -1;
    }
    if (c->l1d_hash == L1D_HASH_xor && !wt_is_pow2(c->l1d_sets)) {
        snprintf(err, errlen, "l1d.hash=xor needs l1d.sets to be a power of two (got %d)",
                 c->l1d_sets);
        return -1;
    }
    if (c->l1d_hash == L1D_HASH_fermi &&
        ((c->l1d_sets != 32 && c->l1d_sets != 64) || c->l1d_line != 128)) {
        snprintf(err, errlen,
                 "l1d.hash=fermi needs 32 or 64 l1d.sets of 128-byte lines (got %d sets of %d)",
                 c->l1d_sets, c->l1d_line);
        return -1;
    }
    if (c->mem_queue_rr && c->sub_core) {
        snprintf(err, errlen,
                 "sm.mem_queue_order=collector models one collector set shared by the "
                 "schedulers (GPGPU-Sim without -gpgpu_sub_core_model); with sm.sub_core use "
                 "sm.mem_queue_order=issue");
        return -1;
    }
    if (c->oc_unit_order && (!c->sub_core || !c->operand_collector || c->oc_units_sfu)) {
        snprintf(err, errlen,
                 "sm.oc_dispatch=unit models GPGPU-Sim's sub-core collector units: it needs "
                 "sm.sub_core, sm.operand_collector and sm.oc_units_sfu=0");
        return -1;
    }
    if (c->l1i_enabled && !c->fetch) {
        snprintf(err, errlen, "l1i.enabled needs sm.fetch (the instruction cache is the fetch's)");
        return -1;
    }
    if (c->l1i_enabled && !wt_is_pow2(c->l1i_line)) {
        snprintf(err, errlen, "l1i.line must be a power of two (got %d)", c->l1i_line);
        return -1;
    }
    if (c->sub_core && c->operand_collector) {
        /* each scheduler gets an equal share (GPGPU-Sim asserts the same) */
        int k = c->schedulers;
        if (c->oc_units % k || c->oc_units_sfu % k || c->reg_banks % k || c->pipe_width % k ||
            c->pipe_width_sfu % k) {
            snprintf(err, errlen,
                     "sm.sub_core: sm.oc_units, sm.oc_units_sfu, sm.reg_banks, sm.pipe_width "
                     "and sm.pipe_width_sfu must be multiples of sm.schedulers (%d)",
                     k);
            return -1;
        }
    }
    if (c->bypass_segment > c->l1d_line) {
        snprintf(err, errlen, "l1d.bypass_segment (%d) exceeds l1d.line (%d)", c->bypass_segment,
                 c->l1d_line);
        return -1;
    }
    /* a load's sectors are a 32-bit mask of the line's segments */
    if (!wt_is_pow2(c->bypass_segment) || c->l1d_line / c->bypass_segment > 32) {
        snprintf(err, errlen,
                 "l1d.bypass_segment must be a power of two of at least l1d.line/32 = %d bytes "
                 "(got %d)",
                 c->l1d_line / 32 > 4 ? c->l1d_line / 32 : 4, c->bypass_segment);
        return -1;
    }
    if (c->l1d_sectored &&
        (c->bypass_segment != 32 || c->l1d_line > 512 || c->l1d_line / 32 > m->icnt_sm_queue)) {
        snprintf(err, errlen,
                 "l1d.sectored needs l1d.bypass_segment=32 (got %d) and a line of at most "
                 "icnt.sm_queue = %d sectors (got %d bytes)",
                 c->bypass_segment, m->icnt_sm_queue, c->l1d_line);
        return -1;
    }
    if (c->l1d_miss_spare >= m->icnt_sm_queue) { /* no miss could ever be sent */
        snprintf(err, errlen, "l1d.miss_spare (%d) must be below icnt.sm_queue (%d)",
                 c->l1d_miss_spare, m->icnt_sm_queue);
        return -1;
    }
    if (m->icnt_crossbar && m->icnt_sm_buffer && c->l1d_miss_spare >= m->icnt_sm_buffer) {
        snprintf(err, errlen, "l1d.miss_spare (%d) must be below icnt.sm_buffer (%d)",
                 c->l1d_miss_spare, m->icnt_sm_buffer);
        return -1;
    }
    if (m->l2_lazy_fetch && c->l1d_line > 128) { /* mem_packet.written: four sectors */
        snprintf(err, errlen, "l2.lazy_fetch needs l1d.line of at most 128 bytes (got %d)",
                 c->l1d_line);
        return -1;
    }
    if (c->store_request == SM_STORE_REQUEST_reduce &&
        (c->l1d_line != 128 || c->bypass_segment != 32 || c->sector_accesses)) {
        snprintf(err, errlen,
                 "sm.store_request=reduce needs l1d.line=128, l1d.bypass_segment=32 and "
                 "l1d.sector_accesses=false (got %d, %d and %s)",
                 c->l1d_line, c->bypass_segment, c->sector_accesses ? "true" : "false");
        return -1;
    }
    if (c->l1d_unified_kb && ((long)c->l1d_unified_kb * 1024 < (long)c->l1d_sets * c->l1d_line ||
                              (c->l1d_hash == L1D_HASH_xor && !wt_is_pow2(c->l1d_sets)))) {
        snprintf(err, errlen,
                 "l1d.unified_kb (%d KB) must hold at least one way of l1d.sets lines (%d bytes)",
                 c->l1d_unified_kb, c->l1d_sets * c->l1d_line);
        return -1;
    }
    return 0;
}

static int check_memsys(const memsys_config *m, char *err, size_t errlen)
{
    if (m->l2_sectored && m->l2_line > 256) {
        snprintf(err, errlen, "l2.sectored needs l2.line of at most 256 bytes (got %d)",
                 m->l2_line);
        return -1;
    }
    if (m->l2_lazy_fetch && !m->l2_sectored) {
        snprintf(err, errlen, "l2.lazy_fetch needs l2.sectored=true");
        return -1;
    }
    if (m->partitions % m->l2_slices_per_channel != 0) {
        snprintf(err, errlen, "l2.slices_per_channel (%d) must divide l2.partitions (%d)",
                 m->l2_slices_per_channel, m->partitions);
        return -1;
    }
    if (!wt_is_pow2(m->l2_sets)) {
        snprintf(err, errlen, "l2.sets must be a power of two (got %d)", m->l2_sets);
        return -1;
    }
    if (m->l2_set_ipoly == L2_SET_HASH_ipoly && m->l2_sets != 16 && m->l2_sets != 32 &&
        m->l2_sets != 64) {
        snprintf(err, errlen, "l2.set_hash=ipoly needs l2.sets of 16, 32 or 64 (got %d)",
                 m->l2_sets);
        return -1;
    }
    if (m->l2_map != L2_MAP_interleave) {
        int per = m->l2_slices_per_channel, channels = m->partitions / per, cbits = 0;
        while ((1 << cbits) < channels)
            cbits++;
        if (!wt_is_pow2(per) || (m->l2_map == L2_MAP_gpgpusim && m->partitions != 16 &&
                                 m->partitions != 32 && m->partitions != 64)) {
            snprintf(err, errlen,
                     "l2.map=gpgpusim needs l2.partitions of 16, 32 or 64 and a power-of-two "
                     "l2.slices_per_channel, gpgpusim_linear the latter (got %d and %d)",
                     m->partitions, per);
            return -1;
        }
        if ((1 << m->l2_map_chip_bit) < m->l2_line) {
            snprintf(err, errlen,
                     "l2.map_chip_bit (%d) must leave a whole l2.line (%d bytes) in one channel",
                     m->l2_map_chip_bit, m->l2_line);
            return -1;
        }
        if (per > 1 && m->l2_map == L2_MAP_gpgpusim &&
            m->l2_map_sub_bit < m->l2_map_chip_bit + cbits) {
            snprintf(err, errlen,
                     "l2.map_sub_bit (%d) must be above the %d channel bits from l2.map_chip_bit "
                     "(%d)",
                     m->l2_map_sub_bit, cbits, m->l2_map_chip_bit);
            return -1;
        }
    }
    if (!wt_is_pow2(m->dram_banks)) {
        snprintf(err, errlen, "dram.banks must be a power of two (got %d)", m->dram_banks);
        return -1;
    }
    if (!wt_is_pow2(m->dram_row_bytes) || m->dram_row_bytes < m->l2_line) {
        snprintf(err, errlen,
                 "dram.row_bytes must be a power of two of at least l2.line = %d "
                 "bytes (got %d)",
                 m->l2_line, m->dram_row_bytes);
        return -1;
    }
    return 0;
}

int gpu_config_check(const gpu_config *c, char *err, size_t errlen)
{
    if (check_sm(c, err, errlen) != 0) return -1;
    return check_memsys(&c->mem, err, errlen);
}
