/*
 * IPC memory: device memory shared between processes by a key
 * (aclrtIpcMemGetExportKey / aclrtIpcMemSetImportPid / aclrtIpcMemImportByKey / aclrtIpcMemClose).
 *
 * A key names a POSIX shared-memory object "/<key>". Its first page is a header (below): the exporter's pid, the
 * export flags and the pids allowed to import; the device block follows at offset one page. Exporting re-maps the
 * block onto the object at the same address (oa_mem_share), so the exporter keeps its pointer; an importer maps
 * the pages and records them as device memory of its current device. See docs/runtime.md, "IPC memory".
 */
#define OA_LOG_MODULE "RUNTIME"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "acl_rt/rt_internal.h"
#include "base/acl_check.h"
#include "base/error.h"
#include "base/util.h"
#include "mem/mem_table.h"

#define IPC_MEM_MAGIC 0x4d454d4350494f41ull /* "AOIPCMEM" little endian */
#define IPC_KEY_PREFIX "oa_ipcmem_"
#define IPC_KEY_MAX 64u
#define IPC_MAX_PIDS 960u

typedef struct ipc_mem_header {
    uint64_t magic;
    uint64_t data_offset; /* one page */
    uint64_t data_size;   /* mapped bytes of the block */
    uint64_t export_flags;
    int32_t owner_pid;
    uint32_t npids; /* written by the exporter only, read by importers */
    int32_t pids[IPC_MAX_PIDS];
} ipc_mem_header;

typedef struct ipc_mem_rec {
    struct ipc_mem_rec *next;
    char key[IPC_KEY_MAX];
    bool exported; /* false: imported */
    void *base;    /* the exporter's block, or the importer's mapping */
    size_t len;
    ipc_mem_header *hdr; /* mapping of the header page */
} ipc_mem_rec;

static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static ipc_mem_rec *g_recs;
static uint32_t g_seq;

static size_t page_size(void)
{
    return (size_t)sysconf(_SC_PAGESIZE);
}

static ipc_mem_rec *find_key_locked(const char *key, int exported /* -1: any */)
{
    for (ipc_mem_rec *r = g_recs; r != NULL; r = r->next) {
        if (strcmp(r->key, key) == 0 && (exported < 0 || r->exported == (exported != 0))) {
            return r;
        }
    }
    return NULL;
}

static void unlink_rec_locked(ipc_mem_rec *r)
{
    for (ipc_mem_rec **pp = &g_recs; *pp != NULL; pp = &(*pp)->next) {
        if (*pp == r) {
            *pp = r->next;
            return;
        }
    }
}

static void shm_name(const char *key, char out[IPC_KEY_MAX + 2])
{
    snprintf(out, IPC_KEY_MAX + 2, "/%s", key);
}

static oa_status check_key(const char *key)
{
    size_t n = strnlen(key, IPC_KEY_MAX);
    if (n == 0 || n >= IPC_KEY_MAX || strchr(key, '/') != NULL) {
        return OA_FAIL(OA_E_PARAM, "key [%.*s] is not a key returned by aclrtIpcMemGetExportKey", (int)n, key);
    }
    return OA_OK;
}

static oa_status export_block(void *devPtr, size_t size, uint64_t flags, char *key_out, size_t len)
{
    oa_mem_block b;
    if (!oa_mem_find(devPtr, &b) || b.kind != OA_MEM_KIND_DEVICE) {
        return OA_FAIL(OA_E_RT_PARAM, "devPtr [%p] is not device memory allocated by aclrtMalloc", devPtr);
    }
    if (b.base != devPtr || (b.flags & OA_MEM_F_IMPORTED) != 0) {
        return OA_FAIL(OA_E_RT_PARAM, "devPtr [%p] must be the start address of a block from aclrtMalloc (block %p)",
                       devPtr, b.base);
    }
    if (size > b.size) {
        return OA_FAIL(OA_E_RT_PARAM, "size [%zu] is larger than the block at %p (%zu bytes)", size, devPtr, b.size);
    }
    pthread_mutex_lock(&g_mu);
    for (ipc_mem_rec *r = g_recs; r != NULL; r = r->next) {
        if (r->exported && r->base == devPtr) { /* exported before: same key */
            oa_status st = strlen(r->key) < len ? OA_OK
                                                : OA_FAIL(OA_E_PARAM, "len [%zu] is too small for the key (%zu bytes)",
                                                          len, strlen(r->key) + 1);
            if (st == OA_OK) {
                memcpy(key_out, r->key, strlen(r->key) + 1);
            }
            pthread_mutex_unlock(&g_mu);
            return st;
        }
    }
    char key[IPC_KEY_MAX];
    snprintf(key, sizeof(key), IPC_KEY_PREFIX "%d_%u", (int)getpid(), ++g_seq);
    if (strlen(key) >= len) {
        pthread_mutex_unlock(&g_mu);
        return OA_FAIL(OA_E_PARAM, "len [%zu] is too small for the key (%zu bytes)", len, strlen(key) + 1);
    }
    char name[IPC_KEY_MAX + 2];
    shm_name(key, name);
    const size_t pg = page_size();
    oa_status st = OA_OK;
    ipc_mem_rec *r = calloc(1, sizeof(*r));
    int fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
    size_t mapped = 0;
    size_t total;
    if (r == NULL || fd < 0 || !oa_align_up(b.size, pg, &mapped) || !oa_add_size(mapped, pg, &total) ||
        ftruncate(fd, (off_t)total) != 0) {
        st = OA_FAIL(OA_E_RT_MEMORY_ALLOCATION, "cannot create shared memory [%s] for %zu bytes: %s", name, b.size,
                     strerror(errno));
    }
    ipc_mem_header *hdr = MAP_FAILED;
    if (st == OA_OK) {
        hdr = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (hdr == MAP_FAILED) {
            st = OA_FAIL(OA_E_RT_MEMORY_ALLOCATION, "cannot map the header of [%s]: %s", name, strerror(errno));
        }
    }
    if (st == OA_OK) {
        st = oa_mem_share(devPtr, fd, pg, &mapped);
    }
    if (fd >= 0) {
        close(fd);
    }
    if (st != OA_OK) {
        if (hdr != MAP_FAILED) {
            munmap(hdr, pg);
        }
        if (fd >= 0) {
            shm_unlink(name);
        }
        free(r);
        pthread_mutex_unlock(&g_mu);
        return st;
    }
    hdr->data_offset = pg;
    hdr->data_size = mapped;
    hdr->export_flags = flags;
    hdr->owner_pid = (int32_t)getpid();
    hdr->npids = 0;
    __atomic_store_n(&hdr->magic, IPC_MEM_MAGIC, __ATOMIC_RELEASE);
    oa_strlcpy(r->key, key, sizeof(r->key));
    r->exported = true;
    r->base = devPtr;
    r->len = mapped;
    r->hdr = hdr;
    r->next = g_recs;
    g_recs = r;
    pthread_mutex_unlock(&g_mu);
    memcpy(key_out, key, strlen(key) + 1);
    OA_LOGI("exported device block %p (%zu bytes) as IPC key %s", devPtr, mapped, key);
    return OA_OK;
}

ACL_FUNC_VISIBILITY aclError aclrtIpcMemGetExportKey(void *devPtr, size_t size, char *key, size_t len,
                                                     uint64_t flags)
{
    ACL_REQUIRE_NOT_NULL(devPtr);
    ACL_REQUIRE_NOT_NULL(key);
    ACL_REQUIRE(size > 0, OA_E_PARAM, "size must be greater than 0");
    ACL_REQUIRE(len > 0, OA_E_PARAM, "len must be greater than 0");
    ACL_REQUIRE(flags == ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT || flags == ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION,
                OA_E_PARAM, "flags [%#llx] must be ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT or "
                "ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION", (unsigned long long)flags);
    ACL_RETURN_STATUS(export_block(devPtr, size, flags, key, len));
}

ACL_FUNC_VISIBILITY aclError aclrtIpcMemSetImportPid(const char *key, int32_t *pid, size_t num)
{
    ACL_REQUIRE_NOT_NULL(key);
    ACL_REQUIRE_NOT_NULL(pid);
    ACL_REQUIRE(num > 0, OA_E_PARAM, "num must be greater than 0");
    oa_status st = check_key(key);
    if (st != OA_OK) {
        ACL_RETURN_STATUS(st);
    }
    for (size_t i = 0; i < num; ++i) {
        ACL_REQUIRE(pid[i] > 0, OA_E_PARAM, "pid[%zu] = %d is not a process id", i, (int)pid[i]);
    }
    pthread_mutex_lock(&g_mu);
    ipc_mem_rec *r = find_key_locked(key, 1);
    if (r == NULL) {
        st = OA_FAIL(OA_E_PARAM, "key [%s] was not exported by this process", key);
    } else if (num > IPC_MAX_PIDS - r->hdr->npids) {
        st = OA_FAIL(OA_E_RT_OVER_LIMIT, "key [%s] allows at most %u processes (%u already set)", key, IPC_MAX_PIDS,
                     r->hdr->npids);
    } else {
        uint32_t n = r->hdr->npids;
        for (size_t i = 0; i < num; ++i) {
            r->hdr->pids[n++] = pid[i];
        }
        __atomic_store_n(&r->hdr->npids, n, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&g_mu);
    ACL_RETURN_STATUS(st);
}

static bool pid_allowed(const ipc_mem_header *h, int32_t me)
{
    if ((h->export_flags & ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION) != 0 || h->owner_pid == me) {
        return true;
    }
    uint32_t n = __atomic_load_n(&h->npids, __ATOMIC_ACQUIRE);
    for (uint32_t i = 0; i < n && i < IPC_MAX_PIDS; ++i) {
        if (h->pids[i] == me) {
            return true;
        }
    }
    return false;
}

static oa_status import_key(const char *key, void **out)
{
    int32_t dev = 0;
    oa_context *ctx = NULL;
    oa_status st = oa_ctx_current(true, &ctx);
    if (st != OA_OK) {
        return st;
    }
    dev = ctx->dev->id;
    oa_ctx_release(ctx);
    pthread_mutex_lock(&g_mu);
    ipc_mem_rec *existing = find_key_locked(key, 0);
    if (existing != NULL) {
        *out = existing->base;
        pthread_mutex_unlock(&g_mu);
        return OA_OK;
    }
    char name[IPC_KEY_MAX + 2];
    shm_name(key, name);
    const size_t pg = page_size();
    int fd = shm_open(name, O_RDWR, 0);
    if (fd < 0) {
        pthread_mutex_unlock(&g_mu);
        return OA_FAIL(OA_E_RT_PARAM, "no memory is exported with key [%s] (closed, or never exported)", key);
    }
    ipc_mem_header *hdr = mmap(NULL, pg, PROT_READ, MAP_SHARED, fd, 0);
    void *data = MAP_FAILED;
    ipc_mem_rec *r = NULL;
    if (hdr == MAP_FAILED || __atomic_load_n(&hdr->magic, __ATOMIC_ACQUIRE) != IPC_MEM_MAGIC) {
        st = OA_FAIL(OA_E_RT_PARAM, "[%s] is not shared device memory", key);
    } else if (!pid_allowed(hdr, (int32_t)getpid())) {
        st = OA_FAIL(OA_E_RT_NO_PERMISSION, "process %d may not import key [%s]: the exporter (pid %d) did not "
                     "allow it with aclrtIpcMemSetImportPid", (int)getpid(), key, (int)hdr->owner_pid);
    } else {
        data = mmap(NULL, (size_t)hdr->data_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)hdr->data_offset);
        r = calloc(1, sizeof(*r));
        if (data == MAP_FAILED || r == NULL) {
            st = OA_FAIL(OA_E_RT_MEMORY_ALLOCATION, "cannot map the memory of key [%s]", key);
        }
    }
    close(fd);
    if (st == OA_OK) {
        st = oa_mem_adopt(data, (size_t)hdr->data_size, dev);
    }
    if (st != OA_OK) {
        if (data != MAP_FAILED) {
            munmap(data, (size_t)hdr->data_size);
        }
        if (hdr != MAP_FAILED) {
            munmap(hdr, pg);
        }
        free(r);
        pthread_mutex_unlock(&g_mu);
        return st;
    }
    oa_strlcpy(r->key, key, sizeof(r->key));
    r->exported = false;
    r->base = data;
    r->len = (size_t)hdr->data_size;
    r->hdr = hdr;
    r->next = g_recs;
    g_recs = r;
    pthread_mutex_unlock(&g_mu);
    *out = data;
    return OA_OK;
}

ACL_FUNC_VISIBILITY aclError aclrtIpcMemImportByKey(void **devPtr, const char *key, uint64_t flags)
{
    ACL_REQUIRE_NOT_NULL(devPtr);
    ACL_REQUIRE_NOT_NULL(key);
    ACL_REQUIRE(flags == ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT || flags == ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS,
                OA_E_PARAM, "flags [%#llx] must be ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT or "
                "ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS", (unsigned long long)flags);
    oa_status st = check_key(key);
    if (st == OA_OK) {
        st = import_key(key, devPtr);
    }
    ACL_RETURN_STATUS(st);
}

static void drop_rec(ipc_mem_rec *r, bool unmap_import)
{
    if (r->exported) {
        char name[IPC_KEY_MAX + 2];
        shm_name(r->key, name);
        shm_unlink(name);
    } else if (unmap_import && oa_mem_unadopt(r->base) != OA_OK) {
        OA_LOGW("imported memory %p of key %s was already released (device reset)", r->base, r->key);
    }
    munmap(r->hdr, page_size());
    free(r);
}

ACL_FUNC_VISIBILITY aclError aclrtIpcMemClose(const char *key)
{
    ACL_REQUIRE_NOT_NULL(key);
    oa_status st = check_key(key);
    if (st != OA_OK) {
        ACL_RETURN_STATUS(st);
    }
    pthread_mutex_lock(&g_mu);
    /* an import is closed first: a process that imported its own key closes the view, then the export */
    ipc_mem_rec *r = find_key_locked(key, 0);
    if (r == NULL) {
        r = find_key_locked(key, 1);
    }
    if (r == NULL) {
        pthread_mutex_unlock(&g_mu);
        ACL_RETURN_STATUS(OA_FAIL(OA_E_PARAM, "key [%s] is neither exported nor imported by this process", key));
    }
    unlink_rec_locked(r);
    pthread_mutex_unlock(&g_mu);
    /* an exporter's block stays allocated (aclrtFree releases it); an import's mapping goes away */
    drop_rec(r, true);
    return ACL_SUCCESS;
}

void oa_rt_ipc_mem_reset(void)
{
    pthread_mutex_lock(&g_mu);
    ipc_mem_rec *r = g_recs;
    g_recs = NULL;
    pthread_mutex_unlock(&g_mu);
    while (r != NULL) {
        ipc_mem_rec *next = r->next;
        OA_LOGW("IPC memory key %s was not closed; closing it", r->key);
        drop_rec(r, false); /* aclFinalize has already released the device memory table */
        r = next;
    }
}

/*
 * Links between the dies of a chip (aclrtIpcMemSetAttr) and process allow-lists of other servers of a super pod
 * (aclrtIpcMemImportPidInterServer) exist only on CANN's super-pod products (Atlas A3); CANN's runtime answers
 * ACL_ERROR_RT_FEATURE_NOT_SUPPORT on every other device, and the CPU device is neither multi-die nor part of a super
 * pod. The arguments are checked as CANN does, then the calls answer 207000 (docs/runtime.md, "IPC memory").
 */
ACL_FUNC_VISIBILITY aclError aclrtIpcMemSetAttr(const char *key, aclrtIpcMemAttrType type, uint64_t attr)
{
    ACL_REQUIRE(key != NULL, OA_E_RT_PARAM, "key must not be NULL");
    ACL_REQUIRE(type == ACL_RT_IPC_MEM_ATTR_ACCESS_LINK, OA_E_RT_PARAM,
                "type [%d] must be ACL_RT_IPC_MEM_ATTR_ACCESS_LINK", (int)type);
    ACL_REQUIRE(attr <= ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_UB_MULTI_PORT_PATH, OA_E_RT_PARAM,
                "attr [%llu] must be one of the ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_* values [0, 3]",
                (unsigned long long)attr);
    ACL_RETURN_STATUS(OA_FAIL(OA_E_RT_FEATURE_NOT_SUPPORT,
                              "aclrtIpcMemSetAttr: the access link between dies is a feature of multi-die super-pod "
                              "devices (Atlas A3); the CPU device has one memory path"));
}

ACL_FUNC_VISIBILITY aclError aclrtIpcMemImportPidInterServer(const char *key, aclrtServerPid *serverPids, size_t num)
{
    ACL_REQUIRE(key != NULL, OA_E_RT_PARAM, "key must not be NULL");
    ACL_REQUIRE(serverPids != NULL, OA_E_RT_PARAM, "serverPids must not be NULL");
    ACL_REQUIRE(num != 0, OA_E_RT_PARAM, "num must not be 0");
    for (size_t i = 0; i < num; ++i) {
        ACL_REQUIRE(serverPids[i].pid != NULL, OA_E_RT_PARAM, "serverPids[%zu].pid must not be NULL", i);
    }
    ACL_RETURN_STATUS(OA_FAIL(OA_E_RT_FEATURE_NOT_SUPPORT,
                              "aclrtIpcMemImportPidInterServer: allow-lists of other servers exist only in a super pod "
                              "(Atlas A3); the CPU device is not part of one (use aclrtIpcMemSetImportPid)"));
}
