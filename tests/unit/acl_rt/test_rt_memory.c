/* acl_rt/: memory entry points through the public API: sizes, frees, copies, fills, attributes. */
#define _GNU_SOURCE
#include <stdlib.h>

#include "rt_test_util.h"

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

static int teardown(void **state)
{
    (void)state;
    (void)aclrtResetDeviceForce(0);
    (void)aclrtResetDeviceForce(1);
    return 0;
}

static size_t block_size(void *p)
{
    void *base = NULL;
    size_t size = 0;
    assert_int_equal(aclrtMemGetAddressRange(p, &base, &size), ACL_SUCCESS);
    assert_ptr_equal(base, p);
    return size;
}

static void malloc_rounds_like_cann(void **state)
{
    (void)state;
    struct {
        size_t req;
        size_t malloc_size;
        size_t align32_size;
    } cases[] = {{1, 64, 32}, {31, 64, 32}, {32, 64, 32}, {33, 96, 64}, {100, 160, 128}, {4096, 4128, 4096}};
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
        void *p = NULL, *q = NULL, *c = NULL;
        assert_int_equal(aclrtMalloc(&p, cases[i].req, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        assert_int_equal(block_size(p), cases[i].malloc_size);
        assert_int_equal(aclrtMallocAlign32(&q, cases[i].req, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
        assert_int_equal(block_size(q), cases[i].align32_size);
        assert_int_equal(aclrtMallocCached(&c, cases[i].req, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        assert_int_equal(block_size(c), cases[i].malloc_size);
        assert_int_equal((uintptr_t)p % 64, 0);
        assert_int_equal(aclrtFree(p), ACL_SUCCESS);
        assert_int_equal(aclrtFree(q), ACL_SUCCESS);
        assert_int_equal(aclrtFree(c), ACL_SUCCESS);
    }
    /* No padding for 1G huge pages; none at all with a config. */
    void *p = NULL;
    assert_int_equal(aclrtMalloc(&p, 100, ACL_MEM_MALLOC_HUGE1G_ONLY), ACL_SUCCESS);
    assert_int_equal(block_size(p), 128);
    assert_int_equal(aclrtFree(p), ACL_SUCCESS);
    assert_int_equal(aclrtMallocWithCfg(&p, 100, ACL_MEM_MALLOC_HUGE_FIRST, NULL), ACL_SUCCESS);
    assert_int_equal(block_size(p), 100);
    assert_int_equal(aclrtFree(p), ACL_SUCCESS);
    /* Large blocks. */
    assert_int_equal(aclrtMalloc(&p, (size_t)64 << 20, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    memset(p, 7, (size_t)64 << 20);
    assert_int_equal(aclrtFree(p), ACL_SUCCESS);
}

static void malloc_errors(void **state)
{
    (void)state;
    void *p = NULL;
    assert_int_equal(aclrtMalloc(NULL, 10, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtMalloc(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    test_expect_msg("size [0] must be greater than 0");
    assert_int_equal(aclrtMallocAlign32(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtMallocCached(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtMalloc(&p, SIZE_MAX - 10, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtMalloc(&p, SIZE_MAX / 2, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION);
    assert_int_equal(aclrtMallocHost(&p, 0), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtMallocHost(NULL, 8), ACL_ERROR_INVALID_PARAM);
    aclrtMallocConfig cfg = {NULL, 1};
    assert_int_equal(aclrtMallocWithCfg(&p, 10, ACL_MEM_MALLOC_HUGE_FIRST, &cfg), ACL_ERROR_INVALID_PARAM);
    aclrtMallocAttribute attr;
    memset(&attr, 0, sizeof(attr));
    attr.attr = ACL_RT_MEM_ATTR_DEVICE_ID;
    attr.value.deviceId = 5;
    cfg.attrs = &attr;
    assert_int_equal(aclrtMallocWithCfg(&p, 10, ACL_MEM_MALLOC_HUGE_FIRST, &cfg), ACL_ERROR_RT_INVALID_DEVICEID);
    attr.value.deviceId = 1;
    assert_int_equal(aclrtMallocWithCfg(&p, 10, ACL_MEM_MALLOC_HUGE_FIRST, &cfg), ACL_SUCCESS);
    aclrtPtrAttributes pa;
    assert_int_equal(aclrtPointerGetAttributes(p, &pa), ACL_SUCCESS);
    assert_int_equal(pa.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
    assert_int_equal(pa.location.id, 1);
    assert_int_equal(aclrtFree(p), ACL_SUCCESS);
    attr.attr = ACL_RT_MEM_ATTR_DEVICE_ID;
    assert_int_equal(aclrtMallocHostWithCfg(&p, 64, &cfg), ACL_ERROR_RT_PARAM_INVALID);
    aclrtMallocConfig nocfg = {NULL, 0};
    assert_int_equal(aclrtMallocHostWithCfg(&p, 64, &nocfg), ACL_ERROR_RT_PARAM_INVALID);
    attr.attr = ACL_RT_MEM_ATTR_MODULE_ID;
    assert_int_equal(aclrtMallocHostWithCfg(&p, 64, &cfg), ACL_SUCCESS);
    assert_int_equal(aclrtFreeHost(p), ACL_SUCCESS);
    assert_int_equal(aclrtMallocHostWithCfg(&p, 0, NULL), ACL_ERROR_INVALID_PARAM);
    /* Allocation needs a current context. */
    assert_int_equal(aclrtResetDevice(0), ACL_SUCCESS);
    assert_int_equal(aclrtMalloc(&p, 10, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_CONTEXT_NULL);
    assert_int_equal(aclrtMallocHost(&p, 10), ACL_ERROR_RT_CONTEXT_NULL);
}

static void free_errors(void **state)
{
    (void)state;
    void *d = NULL, *h = NULL;
    int local = 0;
    assert_int_equal(aclrtMalloc(&d, 256, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    assert_int_equal(aclrtMallocHost(&h, 256), ACL_SUCCESS);
    assert_int_equal(aclrtFree(NULL), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtFreeHost(NULL), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtFree((char *)d + 16), ACL_ERROR_RT_PARAM_INVALID);
    test_expect_msg("not its start address");
    assert_int_equal(aclrtFree(h), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtFreeHost(d), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtFree(&local), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtFree(d), ACL_SUCCESS);
    assert_int_equal(aclrtFree(d), ACL_ERROR_RT_PARAM_INVALID);
    test_expect_msg("already freed");
    assert_int_equal(aclrtFreeHost(h), ACL_SUCCESS);
    assert_int_equal(aclrtFreeHost(h), ACL_ERROR_RT_PARAM_INVALID);
    /* Free works without a current context. */
    assert_int_equal(aclrtMalloc(&d, 256, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    aclrtContext ctx = NULL;
    assert_int_equal(aclrtCreateContext(&ctx, 1), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyContext(ctx), ACL_SUCCESS);
    assert_int_equal(aclrtFree(d), ACL_SUCCESS);
}

static void memcpy_rules(void **state)
{
    (void)state;
    unsigned char host[256], back[256];
    for (int i = 0; i < 256; ++i) {
        host[i] = (unsigned char)i;
    }
    void *d = NULL;
    assert_int_equal(aclrtMalloc(&d, 200, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS); /* 256 usable bytes */
    /* count 0 succeeds before any pointer check. */
    assert_int_equal(aclrtMemcpy(NULL, 0, NULL, 0, (aclrtMemcpyKind)99), ACL_SUCCESS);
    assert_int_equal(aclrtMemcpy(NULL, 10, host, 10, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtMemcpy(d, 10, NULL, 10, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtMemcpy(d, 10, host, 10, (aclrtMemcpyKind)99), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtMemcpy(d, 10, host, 10, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtMemcpy(d, 10, host, 20, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
    test_expect_msg("destMax");
    assert_int_equal(aclrtMemcpy(d, 0, host, 1, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
    /* Wrong kinds: the device side must be device memory. */
    assert_int_equal(aclrtMemcpy(d, 256, host, 256, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_PARAM_INVALID);
    test_expect_msg("does not match the memory");
    assert_int_equal(aclrtMemcpy(back, 256, d, 256, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtMemcpy(back, 256, host, 256, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtMemcpy(d, 256, host, 256, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_RT_PARAM_INVALID);
    /* The copied range must fit in the allocation, also from a pointer inside it. */
    unsigned char big[512];
    assert_int_equal(aclrtMemcpy(d, 512, big, 300, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
    test_expect_msg("do not fit in its allocation");
    assert_int_equal(aclrtMemcpy((char *)d + 100, 200, host, 157, ACL_MEMCPY_HOST_TO_DEVICE),
                     ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtMemcpy((char *)d + 100, 156, host + 100, 156, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    assert_int_equal(aclrtMemcpy(d, 256, host, 100, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    memset(back, 0, sizeof(back));
    assert_int_equal(aclrtMemcpy(back, 256, d, 256, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    assert_memory_equal(back, host, 256);
    /* Device to device inside the same block; DEFAULT detects the direction. */
    void *d2 = NULL;
    assert_int_equal(aclrtMalloc(&d2, 256, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    assert_int_equal(aclrtMemcpy(d2, 256, d, 256, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS);
    memset(back, 0, sizeof(back));
    assert_int_equal(aclrtMemcpy(back, 256, d2, 256, ACL_MEMCPY_DEFAULT), ACL_SUCCESS);
    assert_memory_equal(back, host, 256);
    /* Known memory on both sides: the kind is corrected as CANN does. */
    void *pinned = NULL;
    assert_int_equal(aclrtMallocHost(&pinned, 256), ACL_SUCCESS);
    memcpy(pinned, host, 256);
    assert_int_equal(aclrtMemset(d2, 256, 0, 256), ACL_SUCCESS);
    assert_int_equal(aclrtMemcpy(d2, 256, pinned, 256, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    assert_int_equal(aclrtMemcpy(back, 256, d2, 256, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    assert_memory_equal(back, host, 256);
    /* Plain host copies. */
    assert_int_equal(aclrtMemcpy(back, 256, host, 256, ACL_MEMCPY_HOST_TO_HOST), ACL_SUCCESS);
    assert_int_equal(aclrtMemcpy(d, 256, d, 256, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS);
    assert_int_equal(aclrtFreeHost(pinned), ACL_SUCCESS);
    assert_int_equal(aclrtFree(d2), ACL_SUCCESS);
    assert_int_equal(aclrtFree(d), ACL_SUCCESS);
    /* The copied data came from freed memory: rejected, not read. */
    assert_int_equal(aclrtMemcpy(back, 256, d, 256, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtResetDevice(0), ACL_SUCCESS);
    assert_int_equal(aclrtMemcpy(back, 256, host, 256, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_RT_CONTEXT_NULL);
}

static void memcpy_async_pinned_is_asynchronous(void **state)
{
    (void)state;
    aclrtStream s = NULL;
    assert_int_equal(aclrtCreateStream(&s), ACL_SUCCESS);
    void *pinned = NULL, *d = NULL;
    assert_int_equal(aclrtMallocHost(&pinned, 4096), ACL_SUCCESS);
    assert_int_equal(aclrtMalloc(&d, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    memset(pinned, 0x5a, 4096);
    assert_int_equal(aclrtMemset(d, 4096, 0, 4096), ACL_SUCCESS);
    test_gate g;
    test_gate_init(&g);
    assert_int_equal(aclrtLaunchHostFunc(s, test_gate_fn, &g), ACL_SUCCESS);
    assert_int_equal(aclrtMemcpyAsync(d, 4096, pinned, 4096, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
    test_gate_wait_entered(&g);
    assert_int_equal(((unsigned char *)d)[100], 0);
    test_gate_open(&g);
    assert_int_equal(aclrtSynchronizeStream(s), ACL_SUCCESS);
    assert_int_equal(((unsigned char *)d)[100], 0x5a);
    /* Async checks. */
    assert_int_equal(aclrtMemcpyAsync(NULL, 0, NULL, 0, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
    assert_int_equal(aclrtMemcpyAsync(d, 10, pinned, 20, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtMemcpyAsync(d, 4096, pinned, 4096, (aclrtMemcpyKind)42, s), ACL_ERROR_INVALID_PARAM);
    int junk[4];
    assert_int_equal(aclrtMemcpyAsync(d, 4096, pinned, 4096, ACL_MEMCPY_HOST_TO_DEVICE, junk),
                     ACL_ERROR_RT_INVALID_HANDLE);
    assert_int_equal(aclrtMemcpyAsyncWithCondition(d, 4096, pinned, 4096, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(s), ACL_SUCCESS);
    assert_int_equal(aclrtFree(d), ACL_SUCCESS);
    assert_int_equal(aclrtFreeHost(pinned), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
}

static void memcpy_async_pageable_completes_before_returning(void **state)
{
    (void)state;
    aclrtStream s = NULL;
    assert_int_equal(aclrtCreateStream(&s), ACL_SUCCESS);
    void *d = NULL;
    assert_int_equal(aclrtMalloc(&d, 1024, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    int counter = 0;
    assert_int_equal(aclrtLaunchHostFunc(s, test_counter_inc, &counter), ACL_SUCCESS);
    unsigned char *src = malloc(1024);
    memset(src, 0x33, 1024);
    /* Like CANN: the stream is synchronised and the copy done at once (the buffer may be reused). */
    assert_int_equal(aclrtMemcpyAsync(d, 1024, src, 1024, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
    assert_int_equal(test_counter_get(&counter), 1);
    memset(src, 0, 1024);
    assert_int_equal(((unsigned char *)d)[1000], 0x33);
    assert_int_equal(aclrtMemcpyAsync(src, 1024, d, 1024, ACL_MEMCPY_DEVICE_TO_HOST, s), ACL_SUCCESS);
    assert_int_equal(src[5], 0x33);
    free(src);
    assert_int_equal(aclrtFree(d), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
}

static void memset_rules(void **state)
{
    (void)state;
    unsigned char *d = NULL;
    assert_int_equal(aclrtMalloc((void **)&d, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS); /* 96 bytes */
    assert_int_equal(aclrtMemset(NULL, 0, 1, 0), ACL_SUCCESS);
    assert_int_equal(aclrtMemset(NULL, 10, 1, 10), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtMemset(d, 10, 1, 20), ACL_ERROR_RT_PARAM_INVALID);
    /* The value is truncated to one byte. */
    assert_int_equal(aclrtMemset(d, 96, 0x1234, 96), ACL_SUCCESS);
    assert_int_equal(d[0], 0x34);
    assert_int_equal(d[95], 0x34);
    assert_int_equal(aclrtMemset(d, 200, 0, 200), ACL_ERROR_RT_PARAM_INVALID);
    unsigned char host[16];
    assert_int_equal(aclrtMemset(host, 16, 0, 16), ACL_ERROR_RT_PARAM_INVALID);
    aclrtStream s = NULL;
    assert_int_equal(aclrtCreateStream(&s), ACL_SUCCESS);
    test_gate g;
    test_gate_init(&g);
    assert_int_equal(aclrtLaunchHostFunc(s, test_gate_fn, &g), ACL_SUCCESS);
    assert_int_equal(aclrtMemsetAsync(d, 96, -1, 10, s), ACL_SUCCESS);
    test_gate_wait_entered(&g);
    assert_int_equal(d[0], 0x34);
    test_gate_open(&g);
    assert_int_equal(aclrtSynchronizeStream(s), ACL_SUCCESS);
    assert_int_equal(d[0], 0xff);
    assert_int_equal(d[10], 0x34);
    assert_int_equal(aclrtMemsetAsync(d, 5, 0, 10, s), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtMemsetAsync(NULL, 5, 0, 0, s), ACL_SUCCESS);
    /* 32-bit fills. */
    assert_int_equal(aclrtMemsetD32(d, 96, 0xdeadbeefu, 0), ACL_SUCCESS);
    assert_int_equal(aclrtMemsetD32(d + 1, 95, 1, 2), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtMemsetD32(d, 7, 1, 2), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtMemsetD32(host, 16, 1, 2), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtMemsetD32(d, 96, 0xdeadbeefu, 24), ACL_SUCCESS);
    uint32_t w;
    memcpy(&w, d + 92, 4);
    assert_int_equal(w, 0xdeadbeefu);
    assert_int_equal(aclrtMemsetD32(d, 400, 1, 100), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtMemsetD32Async(d, 96, 7, 2, s), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(s), ACL_SUCCESS);
    memcpy(&w, d + 4, 4);
    assert_int_equal(w, 7);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
    assert_int_equal(aclrtFree(d), ACL_SUCCESS);
}

static void memcpy_2d(void **state)
{
    (void)state;
    unsigned char host[4 * 16];
    for (int i = 0; i < 64; ++i) {
        host[i] = (unsigned char)i;
    }
    unsigned char *d = NULL;
    assert_int_equal(aclrtMalloc((void **)&d, 4 * 8, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    assert_int_equal(aclrtMemcpy2d(NULL, 0, NULL, 0, 0, 5, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    assert_int_equal(aclrtMemcpy2d(d, 8, host, 16, 9, 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtMemcpy2d(d, 8, host, 16, 8, 4, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtMemcpy2d(d, 8, NULL, 16, 8, 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtMemcpy2d(d, 8, host, 16, 8, 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    for (int r = 0; r < 4; ++r) {
        assert_memory_equal(d + r * 8, host + r * 16, 8);
    }
    /* Rows beyond the allocation. */
    assert_int_equal(aclrtMemcpy2d(d, 32, host, 16, 8, 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
    /* Synchronous 2-D copies are host<->device only. */
    assert_int_equal(aclrtMemcpy2d(d, 8, d, 8, 8, 2, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    unsigned char back[64];
    memset(back, 0, sizeof(back));
    assert_int_equal(aclrtMemcpy2d(back, 16, d, 8, 8, 4, ACL_MEMCPY_DEFAULT), ACL_SUCCESS);
    assert_memory_equal(back + 16, host + 16, 8);
    aclrtStream s = NULL;
    assert_int_equal(aclrtCreateStream(&s), ACL_SUCCESS);
    unsigned char *d2 = NULL;
    assert_int_equal(aclrtMalloc((void **)&d2, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    assert_int_equal(aclrtMemcpy2dAsync(d2, 16, d, 8, 8, 4, ACL_MEMCPY_DEVICE_TO_DEVICE, s), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(s), ACL_SUCCESS);
    assert_memory_equal(d2 + 48, host + 48, 8);
    assert_int_equal(aclrtMemcpy2dAsync(d2, 4, d, 8, 8, 4, ACL_MEMCPY_DEVICE_TO_DEVICE, s), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
    assert_int_equal(aclrtFree(d), ACL_SUCCESS);
    assert_int_equal(aclrtFree(d2), ACL_SUCCESS);
}

static void pointer_attributes_and_ranges(void **state)
{
    (void)state;
    void *d = NULL, *h = NULL;
    int local = 0;
    assert_int_equal(aclrtMalloc(&d, (size_t)4 << 20, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    assert_int_equal(aclrtMallocHost(&h, 100), ACL_SUCCESS);
    aclrtPtrAttributes a;
    assert_int_equal(aclrtPointerGetAttributes((char *)d + 1000, &a), ACL_SUCCESS);
    assert_int_equal(a.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
    assert_int_equal(a.location.id, 0);
    assert_int_equal(a.pageSize, 2u * 1024u * 1024u);
    assert_int_equal(aclrtPointerGetAttributes(h, &a), ACL_SUCCESS);
    assert_int_equal(a.location.type, ACL_MEM_LOCATION_TYPE_HOST);
    assert_int_equal(aclrtPointerGetAttributes(&local, &a), ACL_SUCCESS);
    assert_int_equal(a.location.type, ACL_MEM_LOCATION_TYPE_UNREGISTERED);
    assert_int_equal(aclrtPointerGetAttributes(NULL, &a), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtPointerGetAttributes(d, NULL), ACL_ERROR_INVALID_PARAM);
    void *base = NULL;
    size_t size = 0;
    assert_int_equal(aclrtMemGetAddressRange((char *)h + 50, &base, &size), ACL_SUCCESS);
    assert_ptr_equal(base, h);
    assert_int_equal(size, 128);
    assert_int_equal(aclrtMemGetAddressRange(&local, &base, &size), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtMemFlush(d, 10), ACL_SUCCESS);
    assert_int_equal(aclrtMemInvalidate(d, 10), ACL_SUCCESS);
    assert_int_equal(aclrtMemFlush(NULL, 10), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtMemInvalidate(d, 0), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtFree(d), ACL_SUCCESS);
    assert_int_equal(aclrtFreeHost(h), ACL_SUCCESS);
}

static void host_registration(void **state)
{
    (void)state;
    char *buf = malloc(8192);
    void *dp = NULL;
    assert_int_equal(aclrtHostRegister(NULL, 10, ACL_HOST_REGISTER_MAPPED, &dp), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtHostRegister(buf, 10, ACL_HOST_REGISTER_MAPPED, NULL), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtHostRegister(buf, 0, ACL_HOST_REGISTER_MAPPED, &dp), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtHostRegister(buf, 10, (aclrtHostRegisterType)3, &dp), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtHostRegister(buf, 8192, ACL_HOST_REGISTER_MAPPED, &dp), ACL_SUCCESS);
    assert_ptr_equal(dp, buf);
    assert_int_equal(aclrtHostRegister(buf + 16, 16, ACL_HOST_REGISTER_MAPPED, &dp), ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
    aclrtPtrAttributes a;
    assert_int_equal(aclrtPointerGetAttributes(buf + 100, &a), ACL_SUCCESS);
    assert_int_equal(a.location.type, ACL_MEM_LOCATION_TYPE_HOST);
    void *dev = NULL;
    assert_int_equal(aclrtHostGetDevicePointer(buf, &dev, 0), ACL_SUCCESS);
    assert_ptr_equal(dev, buf);
    assert_int_equal(aclrtHostGetDevicePointer(buf, &dev, 1), ACL_ERROR_INVALID_PARAM);
    /* Registered memory copies asynchronously (it is not pageable any more). */
    void *d = NULL;
    assert_int_equal(aclrtMalloc(&d, 8192, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    aclrtStream s = NULL;
    assert_int_equal(aclrtCreateStream(&s), ACL_SUCCESS);
    test_gate g;
    test_gate_init(&g);
    memset(buf, 9, 8192);
    assert_int_equal(aclrtMemset(d, 8192, 0, 8192), ACL_SUCCESS);
    assert_int_equal(aclrtLaunchHostFunc(s, test_gate_fn, &g), ACL_SUCCESS);
    assert_int_equal(aclrtMemcpyAsync(d, 8192, buf, 8192, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
    assert_int_equal(((char *)d)[10], 0);
    test_gate_open(&g);
    assert_int_equal(aclrtSynchronizeStream(s), ACL_SUCCESS);
    assert_int_equal(((char *)d)[10], 9);
    assert_int_equal(aclrtHostUnregister(buf + 1), ACL_ERROR_HOST_MEMORY_NOT_REGISTERED);
    assert_int_equal(aclrtHostUnregister(buf), ACL_SUCCESS);
    assert_int_equal(aclrtHostUnregister(buf), ACL_ERROR_HOST_MEMORY_NOT_REGISTERED);
    assert_int_equal(aclrtHostGetDevicePointer(buf, &dev, 0), ACL_ERROR_HOST_MEMORY_NOT_REGISTERED);
    assert_int_equal(aclrtHostRegisterV2(buf, 64, 0x1u), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtHostRegisterV2(buf, 64, ACL_HOST_REG_MAPPED | ACL_HOST_REG_PINNED), ACL_SUCCESS);
    assert_int_equal(aclrtHostUnregister(buf), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
    assert_int_equal(aclrtFree(d), ACL_SUCCESS);
    free(buf);
}

static void memory_information(void **state)
{
    (void)state;
    size_t free0 = 0, total = 0, free1 = 0;
    assert_int_equal(aclrtGetMemInfo(ACL_HBM_MEM, NULL, &total), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtGetMemInfo((aclrtMemAttr)99, &free0, &total), ACL_ERROR_RT_INVALID_MEMORY_TYPE);
    assert_int_equal(aclrtGetMemInfo(ACL_HBM_MEM, &free0, &total), ACL_SUCCESS);
    assert_true(total > 0 && free0 <= total);
    void *d = NULL;
    assert_int_equal(aclrtMalloc(&d, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    assert_int_equal(aclrtGetMemInfo(ACL_DDR_MEM, &free1, &total), ACL_SUCCESS);
    assert_true(free0 - free1 >= (1u << 20));
    aclrtMemUsageInfo info[2];
    size_t n = 0;
    assert_int_equal(aclrtGetMemUsageInfo(0, info, 2, &n), ACL_SUCCESS);
    assert_int_equal(n, 1);
    assert_true(info[0].curMemSize >= (1u << 20));
    assert_int_equal(aclrtGetMemUsageInfo(3, info, 2, &n), ACL_ERROR_RT_INVALID_DEVICEID);
    assert_int_equal(aclrtFree(d), ACL_SUCCESS);
    assert_int_equal(aclrtResetDevice(0), ACL_SUCCESS);
    assert_int_equal(aclrtGetMemInfo(ACL_HBM_MEM, &free0, &total), ACL_ERROR_RT_CONTEXT_NULL);
}

static void *open_gate_later(void *p)
{
    test_sleep_ms(30);
    test_gate_open(p);
    return NULL;
}

static void free_with_device_sync_waits_for_pending_work(void **state)
{
    (void)state;
    aclrtStream s = NULL;
    assert_int_equal(aclrtCreateStream(&s), ACL_SUCCESS);
    void *d = NULL;
    assert_int_equal(aclrtMalloc(&d, 1 << 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    test_gate g;
    test_gate_init(&g);
    assert_int_equal(aclrtLaunchHostFunc(s, test_gate_fn, &g), ACL_SUCCESS);
    assert_int_equal(aclrtMemsetAsync(d, 1 << 16, 1, 1 << 16, s), ACL_SUCCESS);
    pthread_t th;
    pthread_create(&th, NULL, open_gate_later, &g);
    /* Without the device sync the fill would write freed memory (ASan would tell). */
    assert_int_equal(aclrtFreeWithDevSync(d), ACL_SUCCESS);
    pthread_join(th, NULL);
    assert_int_equal(aclrtFreeWithDevSync(NULL), ACL_ERROR_INVALID_PARAM);
    void *h = NULL;
    assert_int_equal(aclrtMallocHost(&h, 64), ACL_SUCCESS);
    assert_int_equal(aclrtFreeHostWithDevSync(h), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
}

static void overflow_status_buffer_is_cleared(void **state)
{
    (void)state;
    void *d = NULL;
    assert_int_equal(aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    memset(d, 0xff, 64);
    assert_int_equal(aclrtGetOverflowStatus(d, 64, NULL), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    assert_int_equal(((unsigned char *)d)[63], 0);
    assert_int_equal(aclrtResetOverflowStatus(NULL), ACL_SUCCESS);
    assert_int_equal(aclrtGetOverflowStatus(NULL, 64, NULL), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtFree(d), ACL_SUCCESS);
}

static void check_mem_type(void **state)
{
    (void)state;
    void *d = NULL, *h = NULL;
    int local = 0;
    uint32_t ok = 7;
    assert_int_equal(aclrtMalloc(&d, 256, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    assert_int_equal(aclrtMallocHost(&h, 64), ACL_SUCCESS);
    void *list[3] = {d, (char *)d + 100, NULL};
    assert_int_equal(aclrtCheckMemType(list, 2, ACL_RT_MEM_TYPE_DEV, &ok, 0), ACL_SUCCESS);
    assert_int_equal(ok, 1);
    assert_int_equal(aclrtCheckMemType(list, 2, ACL_RT_MEM_TYPE_DVPP | ACL_RT_MEM_TYPE_RSVD, &ok, 0), ACL_SUCCESS);
    assert_int_equal(ok, 1);
    assert_int_equal(aclrtCheckMemType(list, 2, ACL_RT_MEM_TYPE_RSVD, &ok, 0), ACL_SUCCESS);
    assert_int_equal(ok, 0);
    list[2] = h;
    assert_int_equal(aclrtCheckMemType(list, 3, ACL_RT_MEM_TYPE_DEV, &ok, 0), ACL_SUCCESS);
    assert_int_equal(ok, 0);
    list[2] = &local;
    assert_int_equal(aclrtCheckMemType(list, 3, ACL_RT_MEM_TYPE_DEV, &ok, 0), ACL_SUCCESS);
    assert_int_equal(ok, 0);
    /* argument errors: NULL first (ACL layer), then the runtime's checks */
    assert_int_equal(aclrtCheckMemType(NULL, 1, ACL_RT_MEM_TYPE_DEV, &ok, 0), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtCheckMemType(list, 1, ACL_RT_MEM_TYPE_DEV, NULL, 0), ACL_ERROR_INVALID_PARAM);
    ok = 1;
    assert_int_equal(aclrtCheckMemType(list, 1, ACL_RT_MEM_TYPE_DEV, &ok, 1), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(ok, 0);
    assert_int_equal(aclrtCheckMemType(list, 0, ACL_RT_MEM_TYPE_DEV, &ok, 0), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtCheckMemType(list, 1, 0x1, &ok, 0), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtFree(d), ACL_SUCCESS);
    assert_int_equal(aclrtFreeHost(h), ACL_SUCCESS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(malloc_rounds_like_cann, test_device0_setup, teardown),
        cmocka_unit_test_setup_teardown(malloc_errors, test_device0_setup, teardown),
        cmocka_unit_test_setup_teardown(free_errors, test_device0_setup, teardown),
        cmocka_unit_test_setup_teardown(memcpy_rules, test_device0_setup, teardown),
        cmocka_unit_test_setup_teardown(memcpy_async_pinned_is_asynchronous, test_device0_setup, teardown),
        cmocka_unit_test_setup_teardown(memcpy_async_pageable_completes_before_returning, test_device0_setup, teardown),
        cmocka_unit_test_setup_teardown(memset_rules, test_device0_setup, teardown),
        cmocka_unit_test_setup_teardown(memcpy_2d, test_device0_setup, teardown),
        cmocka_unit_test_setup_teardown(pointer_attributes_and_ranges, test_device0_setup, teardown),
        cmocka_unit_test_setup_teardown(host_registration, test_device0_setup, teardown),
        cmocka_unit_test_setup_teardown(memory_information, test_device0_setup, teardown),
        cmocka_unit_test_setup_teardown(free_with_device_sync_waits_for_pending_work, test_device0_setup, teardown),
        cmocka_unit_test_setup_teardown(overflow_status_buffer_is_cleared, test_device0_setup, teardown),
        cmocka_unit_test_setup_teardown(check_mem_type, test_device0_setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
