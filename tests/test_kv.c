/* wt_split_kv: the one splitter of "name=value" text (--set, --wparam, space overrides, the
 * tests' own settings). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "core/util/kv.h"

static void test_split(void **state)
{
    (void)state;
    char name[16];
    const char *value = NULL;
    const char *text = "gpu.sms=4";
    assert_int_equal(wt_split_kv(text, name, sizeof name, &value), 0);
    assert_string_equal(name, "gpu.sms");
    assert_ptr_equal(value, text + 8); /* into the text, not a copy */
    assert_string_equal(value, "4");

    /* the first '=' splits: the value may hold more */
    assert_int_equal(wt_split_kv("a=b=c", name, sizeof name, &value), 0);
    assert_string_equal(name, "a");
    assert_string_equal(value, "b=c");

    /* an empty value is a value */
    assert_int_equal(wt_split_kv("sched.policy=", name, sizeof name, &value), 0);
    assert_string_equal(name, "sched.policy");
    assert_string_equal(value, "");

    /* spaces are kept on both sides */
    assert_int_equal(wt_split_kv(" a = b", name, sizeof name, &value), 0);
    assert_string_equal(name, " a ");
    assert_string_equal(value, " b");
}

static void test_rejects(void **state)
{
    (void)state;
    char name[8] = "keep";
    const char *keep = "untouched";
    const char *value = keep;
    const char *bad[] = {"", "gpu.sms", "=4", "=", "12345678=1", "123456789=1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (wt_split_kv(bad[i], name, sizeof name, &value) != -1)
            fail_msg("'%s' accepted as name '%s'", bad[i], name);
        /* nothing written on failure */
        assert_string_equal(name, "keep");
        assert_ptr_equal(value, keep);
    }
    /* no room at all */
    assert_int_equal(wt_split_kv("a=1", name, 0, &value), -1);
    assert_int_equal(wt_split_kv("a=1", name, 1, &value), -1);
    assert_string_equal(name, "keep");
}

/* A name of namelen - 1 bytes fits with its NUL; one byte more does not. */
static void test_name_length_bound(void **state)
{
    (void)state;
    char name[8];
    const char *value = NULL;
    assert_int_equal(wt_split_kv("1234567=v", name, sizeof name, &value), 0);
    assert_string_equal(name, "1234567");
    assert_string_equal(value, "v");
    assert_int_equal(wt_split_kv("a=1", name, 2, &value), 0);
    assert_string_equal(name, "a");
    assert_int_equal(wt_split_kv("ab=1", name, 2, &value), -1);
    /* a long value is no concern of the name's buffer */
    assert_int_equal(wt_split_kv("a=0123456789012345678901234567890", name, 2, &value), 0);
    assert_int_equal((int)strlen(value), 31);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_split),
        cmocka_unit_test(test_rejects),
        cmocka_unit_test(test_name_length_bound),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
