/* What every registered policy must do, checked the same way for each: the suite walks the
 * registry's tables (policies/registry.h), so that a policy added to policies/list.h is checked
 * with no edit here. Each policy is driven through tests/support/policy_harness.h, without an
 * SM. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "core/policy.h"
#include "policies/registry.h"
#include "tests/support/policy_harness.h"

/* Every policy can be created with default parameters and destroyed. */
static void test_create_all(void **state)
{
    (void)state;
    char err[256];
    for (size_t i = 0; sched_policies[i]; i++) {
        ph_sched s;
        sched_env env = {0, 0, 48, 2, NULL, NULL, NULL, NULL};
        assert_int_equal(ph_sched_try(&s, sched_policies[i]->name, env, 3, NULL, err, sizeof err),
                         0);
        ph_sched_free(&s);
    }
    for (size_t i = 0; l1_policies[i]; i++) {
        ph_l1 c;
        ph_l1_make(&c, l1_policies[i]->name, (l1_env){{8, 16, 128}, 0, 48, NULL, false}, 3, NULL);
        ph_l1_free(&c);
    }
    for (size_t i = 0; cta_policies[i]; i++) {
        ph_cta c;
        ph_cta_make(&c, cta_policies[i]->name, (cta_env){15, NULL}, 3, NULL);
        ph_cta_free(&c);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_create_all),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
