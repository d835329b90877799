/*
 * The device-allocation table: every block of "device" memory (aclrtMalloc*),
 * page-locked host memory (aclrtMallocHost*) and host range registered with
 * aclrtHostRegister is recorded here, so that any pointer can be classified
 * and range-checked (a pointer inside a block belongs to that block).
 *
 * On the CPU, device memory is ordinary host memory: blocks of 1 MiB or more
 * come from mmap, smaller ones from a 128-byte aligned heap allocation. The
 * table owns DEVICE and HOST blocks (it frees them); REGISTERED ranges belong
 * to the application and are only remembered.
 *
 * Thread-safety: every function may be called from any thread. Lookups take
 * a shared lock; allocation and free take it exclusively.
 *
 * Failure contract: functions returning oa_status report the failure with
 * OA_FAIL (message for aclGetRecentErrMsg) before returning it.
 */
#ifndef OA_MEM_MEM_TABLE_H
#define OA_MEM_MEM_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"

/* What a table entry describes. */
typedef enum oa_mem_kind {
    OA_MEM_KIND_NONE = 0,       /* not in the table (plain pageable host memory) */
    OA_MEM_KIND_DEVICE = 1,     /* aclrtMalloc* memory: "device" memory */
    OA_MEM_KIND_HOST = 2,       /* aclrtMallocHost*: page-locked host memory */
    OA_MEM_KIND_REGISTERED = 3, /* aclrtHostRegister*: application memory, not owned */
    OA_MEM_KIND_COUNT
} oa_mem_kind;

/* Flags stored with a block. */
#define OA_MEM_F_CACHED 0x1u   /* aclrtMallocCached */
#define OA_MEM_F_HUGE 0x2u     /* allocated with a huge-page policy (reported page size) */
#define OA_MEM_F_READONLY 0x4u /* registered read-only */
#define OA_MEM_F_SHARED 0x8u   /* device block re-mapped onto a shared-memory object (aclrtIpcMemGetExportKey) */
#define OA_MEM_F_IMPORTED 0x10u /* device memory of another process (aclrtIpcMemImportByKey); not freed by aclrtFree */

/* A snapshot of one table entry. */
typedef struct oa_mem_block {
    void *base;         /* address handed to the application */
    size_t size;        /* usable bytes: the request after CANN's rounding */
    size_t requested;   /* bytes the application asked for */
    int32_t device_id;  /* logical device the block belongs to */
    oa_mem_kind kind;
    uint32_t flags;     /* OA_MEM_F_* */
} oa_mem_block;

/*
 * Allocates size bytes (already rounded by the caller; requested is kept for
 * reports) of DEVICE or HOST memory for device_id and records it.
 * [out] *out: the block address (at least 128-byte aligned).
 * Fails with OA_E_RT_MEMORY_ALLOCATION when the system has no memory or the
 * device capacity (OPENACL_DEVICE_MEMORY_MB) would be exceeded.
 */
oa_status oa_mem_alloc(oa_mem_kind kind, int32_t device_id, size_t requested, size_t size, uint32_t flags,
                       void **out) OA_MUST_CHECK;

/*
 * Frees the block starting exactly at base, which must be of kind expect.
 * An unknown pointer, a pointer inside a block, an already freed block or a
 * block of another kind fail with OA_E_RT_PARAM and a message naming the
 * reason. [out] freed (optional): the block that was freed.
 */
oa_status oa_mem_free(void *base, oa_mem_kind expect, oa_mem_block *freed) OA_MUST_CHECK;

/*
 * Finds the entry containing ptr (base <= ptr < base + size).
 * Returns false (and leaves *out untouched) when ptr is in no entry.
 */
bool oa_mem_find(const void *ptr, oa_mem_block *out);

/* Kind of the entry containing ptr, OA_MEM_KIND_NONE when there is none. */
oa_mem_kind oa_mem_kind_of(const void *ptr);

/*
 * Records [ptr, ptr + size) as registered host memory of device_id.
 * Overlapping an existing entry fails with OA_E_RT_HOST_MEM_REGISTERED,
 * an empty or wrapping range with OA_E_RT_PARAM.
 */
oa_status oa_mem_register(void *ptr, size_t size, int32_t device_id, uint32_t flags) OA_MUST_CHECK;

/* Forgets a range recorded by oa_mem_register (ptr must be its start); OA_E_RT_HOST_MEM_NOT_REGISTERED otherwise. */
oa_status oa_mem_unregister(void *ptr) OA_MUST_CHECK;

/*
 * Releases every DEVICE block of device_id still allocated (the device is
 * being closed): logs one warning per leaked block with its address and
 * size, frees it and returns the number of blocks released.
 */
size_t oa_mem_release_device(int32_t device_id);

/*
 * Releases everything the table owns (DEVICE and HOST blocks, leaks are
 * reported as above) and forgets registered ranges. Used by aclFinalize.
 */
size_t oa_mem_release_all(void);

/* Usage of one kind on one device: bytes currently allocated, the peak and the block count. */
typedef struct oa_mem_usage {
    size_t bytes;
    size_t peak;
    size_t blocks;
} oa_mem_usage;
void oa_mem_get_usage(int32_t device_id, oa_mem_kind kind, oa_mem_usage *out);

/*
 * Capacity of one device in bytes: OPENACL_DEVICE_MEMORY_MB when set,
 * otherwise the physical memory of the machine.
 */
size_t oa_mem_device_capacity(void);

/*
 * IPC memory (docs/runtime.md, "IPC memory").
 * oa_mem_share: the device block starting at base (every device block starts on a page and owns whole pages) is
 * copied into the shared-memory file fd at offset and the file is mapped over the block at the same address, so the
 * application's pointer stays valid and other processes can map the same pages. [out] *len: the mapped length
 * (the block rounded up to pages). Fails with OA_E_RT_PARAM (not the start of a device block),
 * OA_E_RT_FEATURE_NOT_SUPPORT (already shared, or imported) or OA_E_RT_MEMORY_ALLOCATION (the kernel refused the
 * mapping). aclrtFree of a shared heap block gives the heap private pages back before releasing it.
 */
oa_status oa_mem_share(void *base, int fd, size_t offset, size_t *len) OA_MUST_CHECK;
/* Records a mapping of another process's memory as device memory of device_id (flag OA_MEM_F_IMPORTED). */
oa_status oa_mem_adopt(void *base, size_t len, int32_t device_id) OA_MUST_CHECK;
/* Forgets and unmaps a mapping recorded by oa_mem_adopt. */
oa_status oa_mem_unadopt(void *base) OA_MUST_CHECK;

#endif /* OA_MEM_MEM_TABLE_H */
