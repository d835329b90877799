/* acl_rt/: external allocator descriptors and their registration per stream (public API). */
#define _GNU_SOURCE
#include <stdlib.h>

#include "rt_test_util.h"

static void *my_alloc(aclrtAllocator a, size_t size)
{
    (void)a;
    return malloc(size);
}

static void my_free(aclrtAllocator a, aclrtAllocatorBlock b)
{
    (void)a;
    free(b);
}

static void *my_advise(aclrtAllocator a, size_t size, aclrtAllocatorAddr addr)
{
    (void)a;
    (void)size;
    return addr;
}

static void *my_addr(aclrtAllocatorBlock b)
{
    return b;
}

static void descriptor_setters_check_arguments(void **state)
{
    (void)state;
    aclrtAllocatorDesc d = aclrtAllocatorCreateDesc();
    assert_non_null(d);
    int obj = 0;
    assert_int_equal(aclrtAllocatorSetObjToDesc(NULL, &obj), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtAllocatorSetObjToDesc(d, NULL), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtAllocatorSetAllocFuncToDesc(d, NULL), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtAllocatorSetFreeFuncToDesc(NULL, my_free), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtAllocatorSetAllocAdviseFuncToDesc(d, NULL), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(d, NULL), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtAllocatorDestroyDesc(NULL), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtAllocatorDestroyDesc(d), ACL_SUCCESS);
}

static void register_get_unregister(void **state)
{
    (void)state;
    aclrtStream s = NULL;
    assert_int_equal(aclrtCreateStream(&s), ACL_SUCCESS);
    aclrtAllocatorDesc d = aclrtAllocatorCreateDesc();
    int obj = 0;
    /* Incomplete descriptors are refused. */
    assert_int_equal(aclrtAllocatorRegister(s, d), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtAllocatorSetObjToDesc(d, &obj), ACL_SUCCESS);
    assert_int_equal(aclrtAllocatorSetAllocFuncToDesc(d, my_alloc), ACL_SUCCESS);
    assert_int_equal(aclrtAllocatorSetFreeFuncToDesc(d, my_free), ACL_SUCCESS);
    assert_int_equal(aclrtAllocatorRegister(s, d), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(d, my_addr), ACL_SUCCESS);
    assert_int_equal(aclrtAllocatorRegister(NULL, d), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtAllocatorRegister(s, NULL), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtAllocatorRegister(s, d), ACL_SUCCESS);
    /* The registration keeps a copy: later descriptor changes do not leak in. */
    assert_int_equal(aclrtAllocatorSetAllocAdviseFuncToDesc(d, my_advise), ACL_SUCCESS);
    aclrtAllocatorDesc got = NULL;
    aclrtAllocator a = NULL;
    aclrtAllocatorAllocFunc af = NULL;
    aclrtAllocatorFreeFunc ff = NULL;
    aclrtAllocatorAllocAdviseFunc adv = my_advise;
    aclrtAllocatorGetAddrFromBlockFunc gf = NULL;
    assert_int_equal(aclrtAllocatorGetByStream(s, &got, &a, &af, &ff, &adv, &gf), ACL_SUCCESS);
    assert_ptr_equal(got, d);
    assert_ptr_equal(a, &obj);
    assert_true(af == my_alloc && ff == my_free && gf == my_addr);
    assert_null(adv);
    assert_int_equal(aclrtAllocatorGetByStream(s, &got, NULL, NULL, NULL, NULL, NULL), ACL_SUCCESS);
    assert_int_equal(aclrtAllocatorGetByStream(s, NULL, &a, &af, &ff, &adv, &gf), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtAllocatorGetByStream(NULL, &got, &a, &af, &ff, &adv, &gf), ACL_ERROR_INVALID_PARAM);
    void *blk = af(a, 64);
    assert_ptr_equal(gf(blk), blk);
    ff(a, blk);
    assert_int_equal(aclrtAllocatorUnregister(s), ACL_SUCCESS);
    assert_int_equal(aclrtAllocatorGetByStream(s, &got, &a, &af, &ff, &adv, &gf), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtAllocatorUnregister(NULL), ACL_ERROR_INVALID_PARAM);
    /* Destroying the stream forgets its registration. */
    assert_int_equal(aclrtAllocatorRegister(s, d), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
    assert_int_equal(aclrtAllocatorGetByStream(s, &got, &a, &af, &ff, &adv, &gf), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtAllocatorDestroyDesc(d), ACL_SUCCESS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(descriptor_setters_check_arguments, test_device0_setup, test_device0_teardown),
        cmocka_unit_test_setup_teardown(register_get_unregister, test_device0_setup, test_device0_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
