/* Tests of the thread team that steps the SMs of a cycle (core/sim/team.h): every job of a
 * round runs exactly once, the jobs see what the master wrote before the round, after() sees
 * each job's result, in job order, and stops at its first failure while every job still runs,
 * and the body's result comes back. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "core/sim/team.h"

enum { MAX_JOBS = 300, ROUNDS = 2000 };

typedef struct rounds {
    int input[MAX_JOBS];  /* written by the master before each round */
    int output[MAX_JOBS]; /* written by job k in its round */
    int runs[MAX_JOBS];   /* times job k ran, over all rounds */
    int size;
    int next_after; /* the job after() expects next in this round */
    int bad_after;  /* after() came out of order, or before its job had finished */
    int fail_at;    /* after() of this job returns non-zero (-1: none) */
    int round;
} rounds;

static void job(void *arg, int k)
{
    rounds *r = arg;
    r->output[k] = r->input[k] * 3 + 1;
    r->runs[k]++;
}

static int after(void *arg, int k)
{
    rounds *r = arg;
    if (k != r->next_after++ || r->output[k] != (r->round * 1000 + k) * 3 + 1) r->bad_after = 1;
    return k == r->fail_at ? k + 1 : 0;
}

/* Rounds of 0 to MAX_JOBS - 1 jobs; after each, every job ran once more and wrote from the
 * round's own input. Returns 7, or the round that went wrong plus 100. */
static int body(void *arg, team *t)
{
    rounds *r = arg;
    r->size = team_size(t);
    int expect[MAX_JOBS] = {0};
    for (int round = 0; round < ROUNDS; round++) {
        int n = (round * 37) % MAX_JOBS;
        for (int k = 0; k < n; k++)
            r->input[k] = round * 1000 + k;
        r->round = round;
        r->next_after = 0;
        /* every fifth round, an after() fails half-way: the later ones are not called, and
         * every job still runs */
        r->fail_at = round % 5 == 0 && n > 0 ? n / 2 : -1;
        int rc = team_round(t, n, job, after, r);
        if (rc != r->fail_at + 1 || r->bad_after) return 100 + round;
        if (r->next_after != (r->fail_at >= 0 ? r->fail_at + 1 : n)) return 100 + round;
        for (int k = 0; k < n; k++) {
            expect[k]++;
            if (r->output[k] != (round * 1000 + k) * 3 + 1 || r->runs[k] != expect[k])
                return 100 + round;
        }
        for (int k = n; k < MAX_JOBS; k++)
            if (r->runs[k] != expect[k]) return 100 + round;
    }
    return 7;
}

static void check_team(int threads)
{
    static rounds r;
    memset(&r, 0, sizeof r);
    assert_int_equal(team_run(threads, body, &r), 7);
    assert_true(r.size >= 1 && r.size <= threads);
}

static void test_one_thread(void **state)
{
    (void)state;
    check_team(1);
}

static void test_three_threads(void **state)
{
    (void)state;
    check_team(3);
}

/* More threads than the host has cores: helpers late to a round hold nobody up, and every job
 * still runs once. */
static void test_more_threads_than_cores(void **state)
{
    (void)state;
    check_team(16);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_thread),
        cmocka_unit_test(test_three_threads),
        cmocka_unit_test(test_more_threads_than_cores),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
