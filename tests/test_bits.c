/* Tests of the bit counts in core/util/bits.h: sector masks count their bits from a nibble
 * table below 16 (wt_popcount_small) and like lane masks above (wt_popcount32). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "core/util/bits.h"

/* Hand counts, then every 16-bit mask and its doubled 32-bit copy against a bit-by-bit count. */
static void test_popcount_small(void **state)
{
    (void)state;
    assert_int_equal(wt_popcount_small(0), 0);
    assert_int_equal(wt_popcount_small(0x5), 2);
    assert_int_equal(wt_popcount_small(0x8), 1);
    assert_int_equal(wt_popcount_small(0xF), 4);
    assert_int_equal(wt_popcount_small(0x10), 1);
    assert_int_equal(wt_popcount_small(0xFFFFFFFFu), 32);
    for (uint32_t x = 0; x < 0x10000u; x++) {
        uint32_t n = 0;
        for (uint32_t y = x; y; y >>= 1)
            n += y & 1;
        assert_int_equal(wt_popcount_small(x), n);
        assert_int_equal(wt_popcount32(x), n);
        assert_int_equal(wt_popcount_small(x * 0x10001u), 2 * n);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_popcount_small),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
