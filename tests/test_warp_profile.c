/* Unit tests of the per-warp execution-time profiles (core/sim/warp_profile.h) that CAWS's
 * oracle pass records and reads: storage, lookup and overwrite over many kernels, CTAs and
 * warps, and the criticality inversions of a run against its oracle. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "core/sim/warp_profile.h"
#include "tests/support/support.h"

static void test_warp_profile(void **state)
{
    (void)state;
    warp_profile *p = warp_profile_new();
    assert_non_null(p);
    for (uint32_t k = 0; k < 3; k++)
        for (uint32_t cta = 0; cta < 200; cta++)
            for (int w = 0; w < 8; w++)
                warp_profile_add(p, k, cta, w, 1000 * k + 10 * cta + (uint64_t)w + 1);
    assert_int_equal((int)warp_profile_count(p), 3 * 200 * 8);
    assert_int_equal((int)warp_profile_get(p, 2, 17, 5), 2000 + 170 + 6);
    assert_int_equal((int)warp_profile_get(p, 3, 0, 0), 0);
    warp_profile_add(p, 0, 0, 0, 42); /* overwrite */
    assert_int_equal((int)warp_profile_get(p, 0, 0, 0), 42);
    assert_int_equal((int)warp_profile_count(p), 3 * 200 * 8);
    warp_profile_free(p);

    /* inversions: CTA 0's oracle says warp 1 is slow (mean 200); in the run warp 0, a fast one,
     * finished last. CTA 1's last warp was the oracle's slow one. */
    warp_profile *o = warp_profile_new(), *r = warp_profile_new();
    warp_profile_add(o, 0, 0, 0, 100);
    warp_profile_add(o, 0, 0, 1, 300);
    warp_profile_add(o, 0, 1, 0, 100);
    warp_profile_add(o, 0, 1, 1, 300);
    warp_profile_add(r, 0, 0, 0, 400);
    warp_profile_add(r, 0, 0, 1, 350);
    warp_profile_add(r, 0, 1, 0, 200);
    warp_profile_add(r, 0, 1, 1, 250);
    assert_double_near(warp_profile_inversions(o, r), 0.5, 1e-9);
    assert_double_near(warp_profile_inversions(o, o), 0, 1e-9);
    warp_profile_free(o);
    warp_profile_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_warp_profile),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
