/*
 * External allocators (acl_rt_allocator.h): descriptors filled by the
 * application and their registration per stream. Registration copies the
 * descriptor's functions, so later changes to the descriptor do not affect
 * a registered stream (as in CANN). Model execution reads the copy with
 * oa_rt_allocator_get to take its work memory from the application.
 */
#define OA_LOG_MODULE "RUNTIME"
#include <stdlib.h>

#include "acl_rt/rt_internal.h"
#include "base/acl_check.h"
#include "base/error.h"

typedef struct alloc_desc {
    aclrtAllocator obj;
    aclrtAllocatorAllocFunc alloc;
    aclrtAllocatorFreeFunc free_fn;
    aclrtAllocatorAllocAdviseFunc advise;
    aclrtAllocatorGetAddrFromBlockFunc addr;
} alloc_desc;

typedef struct reg_entry {
    struct reg_entry *next;
    aclrtStream stream;
    aclrtAllocatorDesc desc; /* the application's descriptor handle */
    alloc_desc copy;
} reg_entry;

static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static reg_entry *g_regs;

ACL_FUNC_VISIBILITY aclrtAllocatorDesc aclrtAllocatorCreateDesc(void)
{
    alloc_desc *d = calloc(1, sizeof(*d));
    if (d == NULL) {
        (void)OA_FAIL(OA_E_NOMEM, "cannot allocate an allocator descriptor");
    }
    return (aclrtAllocatorDesc)d;
}

ACL_FUNC_VISIBILITY aclError aclrtAllocatorDestroyDesc(aclrtAllocatorDesc allocatorDesc)
{
    ACL_REQUIRE_NOT_NULL(allocatorDesc);
    free(allocatorDesc);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetObjToDesc(aclrtAllocatorDesc allocatorDesc, aclrtAllocator allocator)
{
    ACL_REQUIRE_NOT_NULL(allocatorDesc);
    ACL_REQUIRE_NOT_NULL(allocator);
    ((alloc_desc *)allocatorDesc)->obj = allocator;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetAllocFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                                              aclrtAllocatorAllocFunc func)
{
    ACL_REQUIRE_NOT_NULL(allocatorDesc);
    ACL_REQUIRE_NOT_NULL(func);
    ((alloc_desc *)allocatorDesc)->alloc = func;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetFreeFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                                             aclrtAllocatorFreeFunc func)
{
    ACL_REQUIRE_NOT_NULL(allocatorDesc);
    ACL_REQUIRE_NOT_NULL(func);
    ((alloc_desc *)allocatorDesc)->free_fn = func;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetAllocAdviseFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                                                    aclrtAllocatorAllocAdviseFunc func)
{
    ACL_REQUIRE_NOT_NULL(allocatorDesc);
    ACL_REQUIRE_NOT_NULL(func);
    ((alloc_desc *)allocatorDesc)->advise = func;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetGetAddrFromBlockFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                                                         aclrtAllocatorGetAddrFromBlockFunc func)
{
    ACL_REQUIRE_NOT_NULL(allocatorDesc);
    ACL_REQUIRE_NOT_NULL(func);
    ((alloc_desc *)allocatorDesc)->addr = func;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtAllocatorRegister(aclrtStream stream, aclrtAllocatorDesc allocatorDesc)
{
    ACL_REQUIRE_NOT_NULL(stream);
    ACL_REQUIRE_NOT_NULL(allocatorDesc);
    const alloc_desc *d = allocatorDesc;
    ACL_REQUIRE(d->obj != NULL, OA_E_PARAM, "parameter [allocatorDesc->obj] must not be null");
    ACL_REQUIRE(d->alloc != NULL, OA_E_PARAM, "parameter [allocatorDesc->allocFunc] must not be null");
    ACL_REQUIRE(d->free_fn != NULL, OA_E_PARAM, "parameter [allocatorDesc->freeFunc] must not be null");
    ACL_REQUIRE(d->addr != NULL, OA_E_PARAM, "parameter [allocatorDesc->getAddrFromBlockFunc] must not be null");
    pthread_mutex_lock(&g_mu);
    reg_entry *e = g_regs;
    while (e != NULL && e->stream != stream) {
        e = e->next;
    }
    if (e == NULL) {
        e = calloc(1, sizeof(*e));
        if (e == NULL) {
            pthread_mutex_unlock(&g_mu);
            return oa_status_to_acl(OA_FAIL(OA_E_NOMEM, "cannot record the allocator registration"));
        }
        e->stream = stream;
        e->next = g_regs;
        g_regs = e;
    }
    e->desc = allocatorDesc;
    e->copy = *d;
    pthread_mutex_unlock(&g_mu);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtAllocatorGetByStream(aclrtStream stream, aclrtAllocatorDesc *allocatorDesc,
                                                       aclrtAllocator *allocator, aclrtAllocatorAllocFunc *allocFunc,
                                                       aclrtAllocatorFreeFunc *freeFunc,
                                                       aclrtAllocatorAllocAdviseFunc *allocAdviseFunc,
                                                       aclrtAllocatorGetAddrFromBlockFunc *getAddrFromBlockFunc)
{
    ACL_REQUIRE_NOT_NULL(allocatorDesc);
    ACL_REQUIRE_NOT_NULL(stream);
    pthread_mutex_lock(&g_mu);
    const reg_entry *e = g_regs;
    while (e != NULL && e->stream != stream) {
        e = e->next;
    }
    if (e == NULL) {
        pthread_mutex_unlock(&g_mu);
        return oa_status_to_acl(
            OA_FAIL(OA_E_PARAM, "stream [%p] is not registered with any allocator", stream));
    }
    *allocatorDesc = e->desc;
    if (allocator != NULL) {
        *allocator = e->copy.obj;
    }
    if (allocFunc != NULL) {
        *allocFunc = e->copy.alloc;
    }
    if (freeFunc != NULL) {
        *freeFunc = e->copy.free_fn;
    }
    if (allocAdviseFunc != NULL) {
        *allocAdviseFunc = e->copy.advise;
    }
    if (getAddrFromBlockFunc != NULL) {
        *getAddrFromBlockFunc = e->copy.addr;
    }
    pthread_mutex_unlock(&g_mu);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtAllocatorUnregister(aclrtStream stream)
{
    ACL_REQUIRE_NOT_NULL(stream);
    oa_rt_allocator_forget(stream);
    return ACL_SUCCESS;
}

void oa_rt_allocator_forget(aclrtStream handle)
{
    pthread_mutex_lock(&g_mu);
    reg_entry **pp = &g_regs;
    while (*pp != NULL) {
        if ((*pp)->stream == handle) {
            reg_entry *e = *pp;
            *pp = e->next;
            free(e);
            break;
        }
        pp = &(*pp)->next;
    }
    pthread_mutex_unlock(&g_mu);
}

bool oa_rt_allocator_get(aclrtStream handle, oa_rt_allocator *out)
{
    bool found = false;
    pthread_mutex_lock(&g_mu);
    for (const reg_entry *e = g_regs; e != NULL; e = e->next) {
        if (e->stream == handle) {
            out->obj = e->copy.obj;
            out->alloc = e->copy.alloc;
            out->free_block = e->copy.free_fn;
            out->alloc_advise = e->copy.advise;
            out->block_addr = e->copy.addr;
            found = true;
            break;
        }
    }
    pthread_mutex_unlock(&g_mu);
    return found;
}
