/* Address mapping: which partition (L2 slice) a line belongs to, its line number inside the
 * partition (`local`, the source of its DRAM bank and row, memsys_dram.c) and its L2 set.
 *
 * interleave (L2_MAP_interleave; line = addr >> log2(l2_line), P = partitions):
 *   group g = line / P, offset o = line % P
 *   fold(g) = g ^ (g >> 3) ^ (g >> 7) ^ (g >> 13)
 *   partition = (o + fold(g)) % P, local = g
 * Within each group of P consecutive lines every partition gets exactly one line (a bijection, so
 * a stream spreads evenly and the local numbers are dense), while the fold rotates the assignment
 * from group to group so that strides of P (or multiples) do not all hit one partition.
 *
 * gpgpusim (L2_MAP_gpgpusim): GPGPU-Sim's address decoder with IPOLY partition indexing
 * (addrdec.cc, linear_to_raw_address_translation::addrdec_tlx, -gpgpu_memory_partition_indexing
 * 2), for C = log2(channels) channel bits at l2_map_chip_bit (its dramid@N) and
 * S = log2(l2_slices_per_channel) sub-partition bits at l2_map_sub_bit (the lowest bank bits of
 * -gpgpu_mem_addr_mapping, above the channel bits):
 *   slice = ipoly(addr >> (chip_bit + C + S), channel << S | sub)
 *   local = (addr without its channel and sub-partition bits) >> log2(l2_line)
 * so 2^chip_bit consecutive bytes share a channel, and strides of powers of two spread over
 * the slices by the hash (QV100: 256 bytes per channel, 64 slices).
 *
 * gpgpusim_linear (L2_MAP_gpgpusim_linear): the same decoder with consecutive partition indexing
 * (-gpgpu_memory_partition_indexing 0), for any number of channels n (addrdec.cc's gap case):
 *   channel = (addr >> chip_bit) % n
 *   rest = ((addr >> chip_bit) / n) << chip_bit | addr % 2^chip_bit
 *   slice = channel << S | (S bits of rest at l2_map_sub_bit)
 *   local = (rest without its sub-partition bits) >> log2(l2_line)
 * (GTX480: 6 channels of 256-byte chunks, the sub-partition from the chunk number's lowest bit).
 *
 * IPOLY (Rau, "Pseudo-randomly interleaved memory", ISCA 1991, as GPGPU-Sim's hashing.cc applies
 * it; Khairy et al., TPDS 2017): an n-bit index i and higher address bits h give
 * i xor (x^n h(x) mod p(x)) over GF(2), with p = x^4 + x + 1, x^5 + x^2 + 1 or x^6 + x + 1 for
 * 16, 32 or 64 entries, over h's lowest 13, 15 or 19 bits. The L2 set index uses the same hash
 * when l2_set_ipoly is set (GPGPU-Sim's set-index function P in -gpgpu_cache:dl2): the set is
 * ipoly(partition address >> log2(line * sets), local % sets); otherwise local % sets. */
#include "core/mem/memsys_internal.h"

#include <stdio.h>

/* The hash's columns: bit i of h flips the index bits of x^(n + i) mod p(x). */
static int ipoly_table(int entries, uint32_t *col)
{
    int n = ms_log2((uint64_t)entries);
    uint32_t poly = n == 4 ? 0x13 : n == 5 ? 0x25 : n == 6 ? 0x43 : 0;
    int bits = n == 4 ? 13 : n == 5 ? 15 : n == 6 ? 19 : 0;
    if (!poly || (1 << n) != entries) return 0;
    uint32_t v = 1;
    for (int k = 0; k < n; k++) /* v = x^n mod p */
        v = (v << 1) ^ ((v << 1) >> n & 1 ? poly : 0);
    for (int i = 0; i < bits; i++) {
        col[i] = v;
        v = (v << 1) ^ ((v << 1) >> n & 1 ? poly : 0);
    }
    return bits;
}

/* The hash of the higher bits, a byte at a time: tab[b][v] is the xor of the columns of the
 * bits set in v, placed at bit 8 b (every request asks, so no per-bit loop). */
static void ipoly_bytes(const uint32_t *col, int bits, uint8_t tab[][256])
{
    for (int b = 0; b < (bits + 7) / 8; b++)
        for (int v = 0; v < 256; v++) {
            uint32_t x = 0;
            for (int i = 0; i < 8 && 8 * b + i < bits; i++)
                if (v >> i & 1) x ^= col[8 * b + i];
            tab[b][v] = (uint8_t)x;
        }
}

/* Bytes past the hash's bits have all-zero tables (the memory system is allocated zeroed), so
 * three lookups serve every size. */
static uint32_t ipoly(const uint8_t tab[][256], uint64_t high, uint32_t index)
{
    return index ^ tab[0][high & 0xff] ^ tab[1][high >> 8 & 0xff] ^ tab[2][high >> 16 & 0xff];
}

int ms_map_check(const memsys_config *c, char *err, size_t errlen)
{
    uint32_t col[MS_IPOLY_BITS];
    int S = c->l2_slices_per_channel > 1 ? c->l2_slices_per_channel : 1;
    int C = ms_log2((uint64_t)(c->partitions / S)), line = ms_log2((uint64_t)c->l2_line);
#define BAD(...)                                                                                   \
    do {                                                                                           \
        if (err && errlen) snprintf(err, errlen, __VA_ARGS__);                                     \
        return -1;                                                                                 \
    } while (0)
    if (c->l2_set_ipoly && !ipoly_table(c->l2_sets, col))
        BAD("memsys: the IPOLY set index needs 16, 32 or 64 L2 sets (got %d)", c->l2_sets);
    if (c->l2_map == L2_MAP_interleave) return 0;
    if (c->l2_map_chip_bit < line || c->l2_map_chip_bit > 40)
        BAD("memsys: l2_map_chip_bit must be in log2(l2_line) = %d..40 (got %d)", line,
            c->l2_map_chip_bit);
    if (c->l2_map == L2_MAP_gpgpusim_linear) {
        if (S & (S - 1)) BAD("memsys: l2_slices_per_channel must be a power of two (got %d)", S);
        if (S > 1 && (c->l2_map_sub_bit < line || c->l2_map_sub_bit > 48))
            BAD("memsys: l2_map_sub_bit must be in log2(l2_line) = %d..48 (got %d)", line,
                c->l2_map_sub_bit);
        return 0;
    }
    if (!ipoly_table(c->partitions, col) || (S & (S - 1)))
        BAD("memsys: GPGPU-Sim's address mapping needs 16, 32 or 64 partitions in a power of two "
            "of channels (got %d partitions, %d per channel)",
            c->partitions, S);
    if (S > 1 && (c->l2_map_sub_bit < c->l2_map_chip_bit + C || c->l2_map_sub_bit > 48))
        BAD("memsys: l2_map_sub_bit must be above the %d channel bits at %d, and at most 48 "
            "(got %d)",
            C, c->l2_map_chip_bit, c->l2_map_sub_bit);
#undef BAD
    return 0;
}

void ms_map_init(memsys *m)
{
    const memsys_config *c = &m->cfg;
    m->map_s_bits = ms_log2(m->slices);
    m->map_c_bits = ms_log2((uint64_t)c->partitions / m->slices);
    uint32_t col[MS_IPOLY_BITS];
    if (c->l2_map == L2_MAP_gpgpusim)
        ipoly_bytes(col, ipoly_table(c->partitions, col), m->part_ipoly);
    if (c->l2_set_ipoly) ipoly_bytes(col, ipoly_table(c->l2_sets, col), m->set_ipoly);
    m->set_bits = ms_log2((uint64_t)c->l2_sets);
    /* Where the decoder took a slice's place in its channel out of the address: the DRAM's
     * bank and row (dram_bank_bit) read the channel's address with it put back. */
    m->dram_sub_at = c->l2_map == L2_MAP_gpgpusim          ? c->l2_map_sub_bit - m->map_c_bits
                     : c->l2_map == L2_MAP_gpgpusim_linear ? c->l2_map_sub_bit
                                                           : m->line_shift;
}

void ms_map_line_gpgpusim(const memsys *m, uint64_t line, uint32_t *part, uint64_t *local,
                          uint32_t *set)
{
    const memsys_config *c = &m->cfg;
    uint64_t a = line << m->line_shift;
    int C = m->map_c_bits, S = m->map_s_bits, at = c->l2_map_chip_bit;
    if (c->l2_map == L2_MAP_gpgpusim_linear) {
        uint64_t n = (uint64_t)c->partitions / m->slices, hi = a >> at;
        uint64_t rest = (hi / n) << at | (a & ((1ull << at) - 1));
        uint32_t sub = S ? (uint32_t)(rest >> c->l2_map_sub_bit) & ((1u << S) - 1) : 0;
        *part = (uint32_t)(hi % n) << S | sub;
        *local = (S ? ms_drop_bits(rest, c->l2_map_sub_bit, S) : rest) >> m->line_shift;
        *set = ms_set_of(m, *local);
        return;
    }
    uint32_t chip = (uint32_t)(a >> at) & ((1u << C) - 1);
    uint32_t sub = S ? (uint32_t)(a >> c->l2_map_sub_bit) & ((1u << S) - 1) : 0;
    *part = ipoly(m->part_ipoly, a >> (at + C + S), chip << S | sub);
    uint64_t pa = ms_drop_bits(a, at, C); /* the partition address */
    if (S) pa = ms_drop_bits(pa, c->l2_map_sub_bit - C, S);
    *local = pa >> m->line_shift;
    *set = ms_set_of(m, *local);
}

uint32_t ms_set_ipoly(const memsys *m, uint64_t local)
{
    return ipoly(m->set_ipoly, local >> m->set_bits, (uint32_t)(local & m->set_mask));
}

uint64_t ms_line_local(const memsys *m, uint64_t line)
{
    if (m->cfg.l2_map == L2_MAP_interleave) return ms_div_part(m, line);
    uint32_t part, set;
    uint64_t local;
    ms_map_line_gpgpusim(m, line, &part, &local, &set);
    return local;
}
