/* base/: status table mapping and the per-thread error messages. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "base/error.h"
#include "base/util.h"

static void status_maps_to_documented_codes(void **state)
{
    (void)state;
    assert_int_equal(oa_status_to_acl(OA_OK), 0);
    assert_int_equal(oa_status_to_acl(OA_E_PARAM), 100000);
    assert_int_equal(oa_status_to_acl(OA_E_NOT_SUPPORTED), 200001);
    assert_int_equal(oa_status_to_acl(OA_E_RT_PARAM), 107000);
    assert_int_equal(oa_status_to_acl(OA_E_GE_MODEL_ID), 145003);
    assert_int_equal(oa_status_to_acl(OA_E_RT_CAPTURE_INVALIDATED), 507903);
    assert_int_equal(oa_status_to_acl((oa_status)-1), 500000);
    assert_int_equal(oa_status_from_acl(145003), OA_E_GE_MODEL_ID);
}

static void error_messages_accumulate_and_clear_on_read(void **state)
{
    (void)state;
    assert_null(oa_error_take_messages());
    assert_int_equal(OA_FAIL(OA_E_PARAM, "first %d", 1), OA_E_PARAM);
    assert_int_equal(OA_FAIL(OA_E_RT_PARAM, "second"), OA_E_RT_PARAM);
    const char *m = oa_error_take_messages();
    assert_non_null(m);
    assert_non_null(strstr(m, "first 1"));
    assert_non_null(strstr(m, "\n"));
    assert_non_null(strstr(m, "second"));
    assert_null(oa_error_take_messages());
    assert_int_equal(oa_error_peek_last(), 107000);
    assert_int_equal(oa_error_take_last(), 107000);
    assert_int_equal(oa_error_peek_last(), 0);
}

static void error_buffer_keeps_newest_when_full(void **state)
{
    (void)state;
    for (int i = 0; i < 500; ++i) {
        (void)OA_FAIL(OA_E_PARAM, "message number %04d", i);
    }
    const char *m = oa_error_take_messages();
    assert_non_null(m);
    assert_non_null(strstr(m, "message number 0499"));
    assert_null(strstr(m, "message number 0000"));
    assert_true(strlen(m) < 4096);
}

static void quiet_failures_are_not_recorded(void **state)
{
    (void)state;
    (void)oa_error_take_messages();
    (void)oa_error_take_last();
    oa_error_quiet_push();
    oa_error_quiet_push();
    assert_int_equal(OA_FAIL(OA_E_PARAM, "probe %d", 1), OA_E_PARAM);
    oa_error_quiet_pop();
    assert_int_equal(OA_FAIL(OA_E_NOMEM, "still quiet"), OA_E_NOMEM);
    oa_error_quiet_pop();
    assert_null(oa_error_take_messages());
    assert_int_equal(oa_error_take_last(), 0);
    oa_error_quiet_pop(); /* unbalanced pop is harmless */
    assert_int_equal(OA_FAIL(OA_E_PARAM, "loud"), OA_E_PARAM);
    const char *m = oa_error_take_messages();
    assert_non_null(m);
    assert_non_null(strstr(m, "loud"));
    assert_int_equal(oa_error_take_last(), 100000);
}

static void overflow_helpers_detect_overflow(void **state)
{
    (void)state;
    size_t out = 7;
    assert_false(oa_mul_size(SIZE_MAX / 2 + 1, 2, &out));
    assert_int_equal(out, 7);
    assert_true(oa_align_up(33, 32, &out));
    assert_int_equal(out, 64);
    assert_false(oa_align_up(SIZE_MAX - 3, 32, &out));
    char buf[4];
    assert_false(oa_strlcpy(buf, "abcdef", sizeof(buf)));
    assert_string_equal(buf, "abc");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(status_maps_to_documented_codes),
        cmocka_unit_test(error_messages_accumulate_and_clear_on_read),
        cmocka_unit_test(error_buffer_keeps_newest_when_full),
        cmocka_unit_test(quiet_failures_are_not_recorded),
        cmocka_unit_test(overflow_helpers_detect_overflow),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
