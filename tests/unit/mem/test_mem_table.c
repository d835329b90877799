/* mem/: the device-allocation table (internal API, static library). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "base/error.h"
#include "mem/mem_table.h"

static int teardown(void **state)
{
    (void)state;
    (void)oa_mem_release_all();
    oa_error_clear();
    return 0;
}

static void alloc_records_and_range_lookup_finds_inner_pointers(void **state)
{
    (void)state;
    void *p = NULL;
    assert_int_equal(oa_mem_alloc(OA_MEM_KIND_DEVICE, 0, 100, 160, 0, &p), OA_OK);
    assert_non_null(p);
    assert_int_equal((uintptr_t)p % 64, 0);
    oa_mem_block b;
    assert_true(oa_mem_find(p, &b));
    assert_ptr_equal(b.base, p);
    assert_int_equal(b.size, 160);
    assert_int_equal(b.requested, 100);
    assert_int_equal(b.kind, OA_MEM_KIND_DEVICE);
    assert_true(oa_mem_find((char *)p + 159, &b));
    assert_ptr_equal(b.base, p);
    assert_false(oa_mem_find((char *)p + 160, &b) && b.base == p);
    assert_int_equal(oa_mem_kind_of((char *)p + 10), OA_MEM_KIND_DEVICE);
    int local = 0;
    assert_int_equal(oa_mem_kind_of(&local), OA_MEM_KIND_NONE);
    memset(p, 0xab, 160);
    assert_int_equal(oa_mem_free(p, OA_MEM_KIND_DEVICE, &b), OA_OK);
    assert_int_equal(b.size, 160);
    assert_false(oa_mem_find(p, &b));
}

static void large_blocks_are_mapped_and_usable(void **state)
{
    (void)state;
    void *p = NULL;
    size_t n = (size_t)4 << 20;
    assert_int_equal(oa_mem_alloc(OA_MEM_KIND_DEVICE, 1, n, n, 0, &p), OA_OK);
    memset(p, 1, n);
    oa_mem_usage u;
    oa_mem_get_usage(1, OA_MEM_KIND_DEVICE, &u);
    assert_int_equal(u.bytes, n);
    assert_int_equal(u.blocks, 1);
    assert_int_equal(oa_mem_free(p, OA_MEM_KIND_DEVICE, NULL), OA_OK);
    oa_mem_get_usage(1, OA_MEM_KIND_DEVICE, &u);
    assert_int_equal(u.bytes, 0);
    assert_int_equal(u.peak, n);
}

static void bad_frees_are_rejected_with_a_message(void **state)
{
    (void)state;
    void *p = NULL;
    assert_int_equal(oa_mem_alloc(OA_MEM_KIND_DEVICE, 0, 64, 128, 0, &p), OA_OK);
    oa_error_clear();
    assert_int_equal(oa_mem_free((char *)p + 32, OA_MEM_KIND_DEVICE, NULL), OA_E_RT_PARAM);
    const char *m = oa_error_take_messages();
    assert_non_null(m);
    assert_non_null(strstr(m, "inside a block"));
    assert_int_equal(oa_mem_free(p, OA_MEM_KIND_HOST, NULL), OA_E_RT_PARAM);
    m = oa_error_take_messages();
    assert_non_null(strstr(m, "not host memory"));
    assert_int_equal(oa_mem_free(p, OA_MEM_KIND_DEVICE, NULL), OA_OK);
    assert_int_equal(oa_mem_free(p, OA_MEM_KIND_DEVICE, NULL), OA_E_RT_PARAM);
    m = oa_error_take_messages();
    assert_non_null(strstr(m, "already freed"));
    int local;
    assert_int_equal(oa_mem_free(&local, OA_MEM_KIND_DEVICE, NULL), OA_E_RT_PARAM);
}

static void registered_ranges_do_not_overlap(void **state)
{
    (void)state;
    char *buf = malloc(4096);
    assert_int_equal(oa_mem_register(buf, 4096, 0, 0), OA_OK);
    assert_int_equal(oa_mem_kind_of(buf + 4095), OA_MEM_KIND_REGISTERED);
    assert_int_equal(oa_mem_register(buf + 100, 10, 0, 0), OA_E_RT_HOST_MEM_REGISTERED);
    assert_int_equal(oa_mem_register(buf, 0, 0, 0), OA_E_RT_PARAM);
    assert_int_equal(oa_mem_unregister(buf + 1), OA_E_RT_HOST_MEM_NOT_REGISTERED);
    assert_int_equal(oa_mem_free(buf, OA_MEM_KIND_DEVICE, NULL), OA_E_RT_PARAM);
    assert_int_equal(oa_mem_unregister(buf), OA_OK);
    assert_int_equal(oa_mem_unregister(buf), OA_E_RT_HOST_MEM_NOT_REGISTERED);
    free(buf);
}

static void release_device_frees_only_that_device(void **state)
{
    (void)state;
    void *a = NULL, *b = NULL, *h = NULL;
    assert_int_equal(oa_mem_alloc(OA_MEM_KIND_DEVICE, 0, 10, 64, 0, &a), OA_OK);
    assert_int_equal(oa_mem_alloc(OA_MEM_KIND_DEVICE, 1, 10, 64, 0, &b), OA_OK);
    assert_int_equal(oa_mem_alloc(OA_MEM_KIND_HOST, 0, 10, 64, 0, &h), OA_OK);
    assert_int_equal(oa_mem_release_device(0), 1);
    assert_int_equal(oa_mem_kind_of(a), OA_MEM_KIND_NONE);
    assert_int_equal(oa_mem_kind_of(b), OA_MEM_KIND_DEVICE);
    assert_int_equal(oa_mem_kind_of(h), OA_MEM_KIND_HOST);
    assert_int_equal(oa_mem_release_all(), 2);
    assert_int_equal(oa_mem_kind_of(b), OA_MEM_KIND_NONE);
}

static void many_blocks_stay_sorted(void **state)
{
    (void)state;
    enum { N = 500 };
    void *p[N];
    for (int i = 0; i < N; ++i) {
        assert_int_equal(oa_mem_alloc(OA_MEM_KIND_DEVICE, 0, 40, 96, 0, &p[i]), OA_OK);
    }
    for (int i = 0; i < N; i += 2) {
        assert_int_equal(oa_mem_free(p[i], OA_MEM_KIND_DEVICE, NULL), OA_OK);
    }
    for (int i = 0; i < N; ++i) {
        oa_mem_block b;
        bool found = oa_mem_find((char *)p[i] + 50, &b);
        if (i % 2 == 0) {
            assert_false(found && b.base == p[i]);
        } else {
            assert_true(found);
            assert_ptr_equal(b.base, p[i]);
        }
    }
    oa_mem_usage u;
    oa_mem_get_usage(0, OA_MEM_KIND_DEVICE, &u);
    assert_int_equal(u.blocks, N / 2);
}

static void capacity_limit_is_enforced(void **state)
{
    (void)state;
    size_t cap = oa_mem_device_capacity();
    assert_true(cap > 0);
    void *p = NULL;
    assert_int_equal(oa_mem_alloc(OA_MEM_KIND_DEVICE, 0, cap + 1, cap + 1, 0, &p), OA_E_RT_MEMORY_ALLOCATION);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(alloc_records_and_range_lookup_finds_inner_pointers, teardown),
        cmocka_unit_test_teardown(large_blocks_are_mapped_and_usable, teardown),
        cmocka_unit_test_teardown(bad_frees_are_rejected_with_a_message, teardown),
        cmocka_unit_test_teardown(registered_ranges_do_not_overlap, teardown),
        cmocka_unit_test_teardown(release_device_frees_only_that_device, teardown),
        cmocka_unit_test_teardown(many_blocks_stay_sorted, teardown),
        cmocka_unit_test_teardown(capacity_limit_is_enforced, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
