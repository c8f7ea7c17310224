/* Tests of the thread team that steps the SMs of a cycle (core/sim/team.h): every job of a
 * round runs exactly once, the jobs see what the master wrote before the round and the master
 * sees what they wrote after it, and the body's result comes back. */
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
} rounds;

static void job(void *arg, int k)
{
    rounds *r = arg;
    r->output[k] = r->input[k] * 3 + 1;
    r->runs[k]++;
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
        team_round(t, n, job, r);
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
