/* Unit tests of CAWA's criticality predictor (CPL, core/sim/cpl.h), which the SM runs beside
 * every warp scheduler: its instruction-count disparity over branch paths and loops (Alg. 2), its
 * stall counter (Alg. 3, and the earlier reading), and its prediction accuracy (CAWA 5.2). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "explorer/catalog.h"
#include "core/sim/cpl.h"
#include "core/config/params.h"
#include "core/policy.h"
#include "tests/support/policy_harness.h"
#include "tests/support/support.h"

/* CAWA Alg. 2: PC1 "@p0 bra L2" (to PC4), PC2, PC3 "bra L3" (to PC5), PC4 (L2), PC5 (L3);
 * PC5 post-dominates PC1. Taken, the warp runs PC4 (1 instruction); not taken, PC2 and PC3
 * (2); diverged, PC4 then PC2 and PC3 (3, the taken side first). */
static void test_cpl_branch_paths(void **state)
{
    (void)state;
    cpl *c = ph_cpl_make(NULL);
    for (int w = 0; w < 3; w++)
        cpl_warp_start(c, w, 0, 0);
    /* warp 0: every lane takes PC1 */
    cpl_on_issue(c, 0, 1);
    ph_cpl_branch(c, 0, 1, 4, 5, 0xf, 0xf);
    assert_int_equal(cpl_n_inst(c, 0), -1 - 2); /* committed PC1, skips PC2-PC3 */
    cpl_on_issue(c, 0, 2);                      /* PC4 */
    /* warp 1: no lane takes PC1; PC3 jumps over PC4 */
    cpl_on_issue(c, 1, 1);
    ph_cpl_branch(c, 1, 1, 4, 5, 0xf, 0);
    assert_int_equal(cpl_n_inst(c, 1), -1);
    cpl_on_issue(c, 1, 2); /* PC2 */
    cpl_on_issue(c, 1, 3); /* PC3 */
    ph_cpl_branch(c, 1, 3, 5, 5, 0xf, 0xf);
    assert_int_equal(cpl_n_inst(c, 1), -3 - 1);
    /* warp 2: PC1 diverges; the taken side PC4 runs on top of the fall-through side */
    cpl_on_issue(c, 2, 1);
    ph_cpl_branch(c, 2, 1, 4, 5, 0xf, 0x3);
    assert_int_equal(cpl_n_inst(c, 2), -1 + 1);
    cpl_on_issue(c, 2, 2); /* PC4 */
    cpl_on_issue(c, 2, 3); /* PC2 */
    cpl_on_issue(c, 2, 4); /* PC3, its lanes jump to PC5 */
    ph_cpl_branch(c, 2, 3, 5, 5, 0xc, 0xc);
    /* at PC5 every path has the same disparity: 4 instructions of straight-line code */
    for (int w = 0; w < 3; w++)
        assert_int_equal(cpl_n_inst(c, w), -4);

    /* a loop PC10..PC13 closed by "@p bra PC10" at PC13: each repetition adds its 4
     * instructions, which the commits take back */
    cpl_warp_start(c, 3, 0, 0);
    for (int it = 0; it < 3; it++) {
        for (int i = 0; i < 4; i++)
            cpl_on_issue(c, 3, 10);
        assert_int_equal(cpl_n_inst(c, 3), -4);
        ph_cpl_branch(c, 3, 13, 10, 14, 0xf, 0xf);
        assert_int_equal(cpl_n_inst(c, 3), 0);
    }
    /* lanes leave the loop at different trips: the diverged branch still repeats the body */
    for (int i = 0; i < 4; i++)
        cpl_on_issue(c, 3, 10);
    ph_cpl_branch(c, 3, 13, 10, 14, 0xf, 0x1);
    assert_int_equal(cpl_n_inst(c, 3), 0);
    /* leaving the loop: the warp moves on in straight-line code */
    for (int i = 0; i < 4; i++)
        cpl_on_issue(c, 3, 10);
    ph_cpl_branch(c, 3, 13, 10, 14, 0xf, 0);
    assert_int_equal(cpl_n_inst(c, 3), -4);
    cpl_destroy(c);
}

/* Alg. 3 as CAWA 3.1 describes it: nStall sums the cycles a warp stalled on shared resources
 * and the scheduler, added when the warp executes its next instruction. */
static void test_cpl_stall_alg3(void **state)
{
    (void)state;
    cpl *c = ph_cpl_make(NULL);
    cpl_warp_start(c, 0, 0, 0);
    cpl_warp_start(c, 1, 0, 0);
    cpl_on_issue(c, 0, 0);
    /* the wait in progress does not count before it ends */
    assert_int_equal((int)cpl_n_stall(c, 0, 1), 0);
    assert_int_equal((int)cpl_n_stall(c, 0, 4), 0);
    /* 5 cycles without issue, 2 of them contended: nStall 2, CPI counts all 5 */
    cpl_on_stall(c, 0, 5, 2);
    cpl_on_issue(c, 0, 6);
    assert_int_equal((int)cpl_n_stall(c, 0, 6), 2);
    assert_int_equal((int)cpl_n_stall(c, 0, 50), 2);
    assert_int_equal((int)cpl_criticality_at(c, 0, 6), 2); /* nInst 0: the counter is nStall */
    /* 8 instructions behind warp 1, CPI_avg (2 + 5) / 2 = 3.5: 8 * 3.5 + 2 */
    ph_cpl_branch(c, 0, 20, 11, 21, 1, 1);
    assert_int_equal((int)cpl_criticality(c, 0), 30);
    /* warp 1 has not issued: nothing counted yet */
    assert_int_equal((int)cpl_criticality(c, 1), 0);
    assert_true(cpl_is_critical(c, 0));
    cpl_destroy(c);
}

/* A warp that waited long for its own load is not more critical than one of equal progress
 * that other warps kept from issuing: only the latter stalled on contention. Counting every
 * wait turns the order round (gCAWS then favours the warps whose loads missed longest). */
static void test_cpl_memory_wait_is_not_contention(void **state)
{
    (void)state;
    for (int all = 0; all <= 1; all++) {
        cpl *c = ph_cpl_make(all ? (const char *const[]){"cpl.stall_cycles=all", NULL} : NULL);
        cpl_warp_start(c, 0, 0, 0);
        cpl_warp_start(c, 1, 0, 0);
        cpl_on_issue(c, 0, 0);
        cpl_on_issue(c, 1, 0);
        cpl_on_stall(c, 0, 100, 0); /* waited 100 cycles for its load */
        cpl_on_issue(c, 0, 101);
        cpl_on_stall(c, 1, 10, 10); /* ready for 10 cycles while other warps issued */
        cpl_on_issue(c, 1, 11);
        int64_t mem = cpl_criticality_at(c, 0, 200), held = cpl_criticality_at(c, 1, 200);
        if (all) {
            assert_int_equal((int)mem, 100);
            assert_int_equal((int)held, 10);
        } else {
            assert_int_equal((int)mem, 0);
            assert_int_equal((int)held, 10);
        }
        cpl_destroy(c);
    }
}

/* The reading before Alg. 3 was followed: every cycle a warp did not issue counts, the wait in
 * progress included (cpl.stall_cycles=all, cpl.stall_in_progress=true). */
static void test_cpl_stall_all_in_progress(void **state)
{
    (void)state;
    cpl *c = ph_cpl_make(
        (const char *const[]){"cpl.stall_cycles=all", "cpl.stall_in_progress=true", NULL});
    cpl_warp_start(c, 0, 0, 0);
    cpl_warp_start(c, 1, 0, 0);
    /* Alg. 3: the stall between two instructions; while it lasts, it counts as it grows */
    cpl_on_issue(c, 0, 0);
    assert_int_equal((int)cpl_n_stall(c, 0, 1), 0);
    assert_int_equal((int)cpl_n_stall(c, 0, 4), 3);
    cpl_on_stall(c, 0, 5, 0); /* the SM reports it as the next instruction issues */
    assert_int_equal((int)cpl_n_stall(c, 0, 6), 5);
    cpl_on_issue(c, 0, 6);
    assert_int_equal((int)cpl_n_stall(c, 0, 6), 5);
    assert_int_equal((int)cpl_n_stall(c, 0, 7), 5);
    /* eq. 1: 0 is its CTA's most advanced warp (2 instructions done, 1 none): nInst 0, the
     * counter is its stall */
    assert_int_equal((int)cpl_n_inst(c, 0), -2);
    assert_int_equal((int)cpl_criticality_at(c, 0, 6), 5);
    /* a backward branch: the 10 instructions PC11..PC20 run again; 0 is now 8 instructions
     * behind warp 1, CPI_avg (2 + 5) / 2 = 3.5 */
    ph_cpl_branch(c, 0, 20, 11, 21, 1, 1);
    assert_int_equal((int)cpl_n_inst(c, 0), 8);
    assert_int_equal((int)cpl_criticality(c, 0), 33); /* at cycle 6: 8 * 3.5 + 5 */
    /* warp 1 has not issued since its start: 5 cycles of stall, counter 5; 0 is the more
     * critical and the slow one */
    assert_int_equal((int)cpl_criticality(c, 1), 5);
    assert_true(cpl_is_critical(c, 0));
    assert_false(cpl_is_critical(c, 1));
    cpl_destroy(c);
}

/* CAWA 5.2: every sample period, which warps are predicted slow; when a CTA finishes, the
 * share of its samples that predicted its critical warp (the last to finish) slow. */
static void test_cpl_accuracy(void **state)
{
    (void)state;
    /* the waits in progress count, so that a warp that never issues falls behind */
    cpl *c = ph_cpl_make((const char *const[]){"cpl.sample_period=10", "cpl.stall_cycles=all",
                                               "cpl.stall_in_progress=true", NULL});
    /* CTA 0: warps 0, 1, 2; CTA 1: warps 3, 4 */
    for (int w = 0; w < 3; w++)
        cpl_warp_start(c, w, 0, 0);
    cpl_warp_start(c, 3, 1, 0);
    cpl_warp_start(c, 4, 1, 0);
    /* warps 0 and 1 commit two instructions, 2 none: 2 is behind; in CTA 1, 4 takes a
     * backward branch (10 instructions to repeat), 3 does nothing */
    for (int w = 0; w < 2; w++) {
        cpl_on_issue(c, w, 5);
        cpl_on_issue(c, w, 6);
    }
    ph_cpl_branch(c, 4, 20, 11, 21, 1, 1);
    /* samples at 10, 20, 30 (taken at the first event after them) */
    cpl_on_issue(c, 0, 35);
    /* CTA 0 finishes with 2 last: predicted slow in all 3 samples */
    cpl_warp_exit(c, 0, 36);
    cpl_warp_exit(c, 1, 37);
    cpl_warp_exit(c, 2, 38);
    /* CTA 1 finishes with 3 last, predicted slow only at the sample at 40: 4 finished at 39
     * with a counter of 10, while 3 has been waiting 39 cycles */
    cpl_warp_exit(c, 4, 39);
    cpl_warp_exit(c, 3, 45);
    sim_metrics m;
    memset(&m, 0, sizeof m);
    cpl_collect(c, &m);
    assert_int_equal((int)m.cpl_samples, 3 + 4);
    assert_double_near(m.cpl_accuracy, 4.0 / 7, 1e-9);
    /* a second SM's sums combine as a ratio of the totals */
    cpl *d = ph_cpl_make((const char *const[]){"cpl.sample_period=10", NULL});
    cpl_warp_start(d, 0, 0, 0);
    cpl_warp_exit(d, 0, 25); /* alone: slow in both samples (at 10 and 20) */
    cpl_collect(d, &m);
    assert_int_equal((int)m.cpl_samples, 9);
    assert_double_near(m.cpl_accuracy, 6.0 / 9, 1e-9);
    cpl_destroy(c);
    cpl_destroy(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cpl_branch_paths),
        cmocka_unit_test(test_cpl_stall_alg3),
        cmocka_unit_test(test_cpl_memory_wait_is_not_contention),
        cmocka_unit_test(test_cpl_stall_all_in_progress),
        cmocka_unit_test(test_cpl_accuracy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
