/*
 * openacl: user allocators (acl/acl_rt_allocator.h).
 *
 * An application can hand the runtime its own memory allocator for a stream.
 * The allocator is described by an aclrtAllocatorDesc: an opaque user object
 * (aclrtAllocator) plus four callbacks. Work launched on that stream (model
 * execution workspaces, for instance) then takes its memory from the user
 * allocator instead of the runtime pool.
 *
 * Ownership: the descriptor belongs to the caller (create/destroy below); the
 * runtime keeps a copy of the callbacks when the descriptor is registered, so
 * the descriptor may be destroyed after aclrtAllocatorRegister. The allocator
 * object and the blocks it hands out stay owned by the application.
 */
#ifndef INC_EXTERNAL_ACL_ACL_RT_ALLOCATOR_H_
#define INC_EXTERNAL_ACL_ACL_RT_ALLOCATOR_H_

#include "acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Returns a block of at least size bytes, or NULL when the allocator is out of memory. */
typedef void *(*aclrtAllocatorAllocFunc)(aclrtAllocator allocator, size_t size);

/* Gives a block obtained from the alloc or alloc-advise callback back to the allocator. */
typedef void (*aclrtAllocatorFreeFunc)(aclrtAllocator allocator, aclrtAllocatorBlock block);

/* Like the alloc callback, with a hint address the runtime would like the block at. */
typedef void *(*aclrtAllocatorAllocAdviseFunc)(aclrtAllocator allocator, size_t size, aclrtAllocatorAddr addr);

/* Device address of the memory behind a block returned by the callbacks above. */
typedef void *(*aclrtAllocatorGetAddrFromBlockFunc)(aclrtAllocatorBlock block);

/* New, empty descriptor; NULL on failure. Release with aclrtAllocatorDestroyDesc. */
ACL_FUNC_VISIBILITY aclrtAllocatorDesc aclrtAllocatorCreateDesc(void);

ACL_FUNC_VISIBILITY aclError aclrtAllocatorDestroyDesc(aclrtAllocatorDesc allocatorDesc);

/*
 * Fill in a descriptor. The allocator object is passed back, unchanged, to
 * every callback. A NULL descriptor, object or callback is
 * ACL_ERROR_INVALID_PARAM.
 */
ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetObjToDesc(aclrtAllocatorDesc allocatorDesc, aclrtAllocator allocator);

ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetAllocFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                                              aclrtAllocatorAllocFunc func);

ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetFreeFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                                             aclrtAllocatorFreeFunc func);

ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetAllocAdviseFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                                                    aclrtAllocatorAllocAdviseFunc func);

ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetGetAddrFromBlockFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                                                         aclrtAllocatorGetAddrFromBlockFunc func);

/*
 * Use the allocator described by allocatorDesc for work on stream (replaces
 * any earlier registration). stream must not be NULL; the descriptor needs an
 * object and the alloc, free and get-address callbacks (alloc-advise is
 * optional), else ACL_ERROR_INVALID_PARAM.
 */
ACL_FUNC_VISIBILITY aclError aclrtAllocatorRegister(aclrtStream stream, aclrtAllocatorDesc allocatorDesc);

/*
 * Reads back the registration of stream: *allocatorDesc (required) gets the
 * handle that was registered, the other out-pointers may be NULL and are
 * skipped. A stream without a registration is ACL_ERROR_INVALID_PARAM.
 */
ACL_FUNC_VISIBILITY aclError aclrtAllocatorGetByStream(aclrtStream stream, aclrtAllocatorDesc *allocatorDesc,
                                                       aclrtAllocator *allocator,
                                                       aclrtAllocatorAllocFunc *allocFunc,
                                                       aclrtAllocatorFreeFunc *freeFunc,
                                                       aclrtAllocatorAllocAdviseFunc *allocAdviseFunc,
                                                       aclrtAllocatorGetAddrFromBlockFunc *getAddrFromBlockFunc);

/* Stream goes back to the runtime's own memory. */
ACL_FUNC_VISIBILITY aclError aclrtAllocatorUnregister(aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* INC_EXTERNAL_ACL_ACL_RT_ALLOCATOR_H_ */
