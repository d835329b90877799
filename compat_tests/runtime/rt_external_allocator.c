/*
 * An application-provided allocator registered on a stream (the way
 * frameworks hand their caching allocator to model execution): build the
 * descriptor, register it, read it back by stream, use its functions, and
 * unregister it. Also checks the argument errors.
 */
#include <stdlib.h>

#include "../common/compat_check.h"

typedef struct my_allocator {
    int allocs;
    int frees;
} my_allocator;

typedef struct my_block {
    void *addr;
    size_t size;
} my_block;

static void *my_alloc(aclrtAllocator allocator, size_t size)
{
    my_allocator *a = allocator;
    my_block *b = malloc(sizeof(*b));
    if (b == NULL) {
        return NULL;
    }
    if (aclrtMalloc(&b->addr, size, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
        free(b);
        return NULL;
    }
    b->size = size;
    a->allocs++;
    return b;
}

static void my_free(aclrtAllocator allocator, aclrtAllocatorBlock block)
{
    my_allocator *a = allocator;
    my_block *b = block;
    (void)aclrtFree(b->addr);
    free(b);
    a->frees++;
}

static void *my_alloc_advise(aclrtAllocator allocator, size_t size, aclrtAllocatorAddr addr)
{
    (void)allocator;
    (void)size;
    (void)addr;
    return NULL;
}

static void *my_block_addr(aclrtAllocatorBlock block)
{
    return ((my_block *)block)->addr;
}

int main(void)
{
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    aclrtStream stream = NULL;
    CHECK(aclrtCreateStream(&stream));
    my_allocator mine = {0, 0};
    aclrtAllocatorDesc desc = aclrtAllocatorCreateDesc();
    REQUIRE(desc != NULL, "aclrtAllocatorCreateDesc returned NULL");
    CHECK(aclrtAllocatorSetObjToDesc(desc, &mine));
    CHECK(aclrtAllocatorSetAllocFuncToDesc(desc, my_alloc));
    CHECK(aclrtAllocatorSetFreeFuncToDesc(desc, my_free));
    EXPECT(aclrtAllocatorRegister(stream, desc), ACL_ERROR_INVALID_PARAM); /* no getAddrFromBlock yet */
    CHECK(aclrtAllocatorSetAllocAdviseFuncToDesc(desc, my_alloc_advise));
    CHECK(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(desc, my_block_addr));
    EXPECT(aclrtAllocatorRegister(NULL, desc), ACL_ERROR_INVALID_PARAM);
    CHECK(aclrtAllocatorRegister(stream, desc));

    aclrtAllocatorDesc gotDesc = NULL;
    aclrtAllocator gotObj = NULL;
    aclrtAllocatorAllocFunc allocFn = NULL;
    aclrtAllocatorFreeFunc freeFn = NULL;
    aclrtAllocatorAllocAdviseFunc adviseFn = NULL;
    aclrtAllocatorGetAddrFromBlockFunc addrFn = NULL;
    CHECK(aclrtAllocatorGetByStream(stream, &gotDesc, &gotObj, &allocFn, &freeFn, &adviseFn, &addrFn));
    REQUIRE(gotDesc == desc && gotObj == &mine, "the registration returns the descriptor and the object");
    REQUIRE(allocFn == my_alloc && freeFn == my_free && addrFn == my_block_addr, "the functions come back");
    aclrtAllocatorBlock blk = allocFn(gotObj, 4096);
    REQUIRE(blk != NULL, "the allocator produced a block");
    void *addr = addrFn(blk);
    CHECK(aclrtMemsetAsync(addr, 4096, 1, 4096, stream));
    CHECK(aclrtSynchronizeStream(stream));
    freeFn(gotObj, blk);
    REQUIRE(mine.allocs == 1 && mine.frees == 1, "alloc/free counts %d/%d", mine.allocs, mine.frees);
    printf("  ok: allocator registered, looked up by stream and used\n");

    CHECK(aclrtAllocatorUnregister(stream));
    EXPECT(aclrtAllocatorGetByStream(stream, &gotDesc, &gotObj, &allocFn, &freeFn, &adviseFn, &addrFn),
           ACL_ERROR_INVALID_PARAM);
    CHECK(aclrtAllocatorDestroyDesc(desc));
    CHECK(aclrtDestroyStream(stream));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("PASS rt_external_allocator\n");
    return 0;
}
