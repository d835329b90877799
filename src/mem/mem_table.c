/*
 * Device-allocation table (mem_table.h): a sorted array of non-overlapping
 * address ranges searched by binary search, guarded by one rwlock. Also owns
 * the raw allocation of "device" and page-locked host memory.
 */
#define OA_LOG_MODULE "RUNTIME"
#include "mem/mem_table.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/error.h"
#include "base/util.h"

/* 128: acldvppMalloc buffers start 128-byte aligned as CANN documents (docs/dvpp.md "Memory"). */
#define MEM_ALIGN 128u
#define MEM_MMAP_THRESHOLD (1u << 20)
#define MEM_MAX_DEVICES 64

typedef struct entry {
    uintptr_t base;
    size_t size;
    size_t requested;
    void *raw;       /* what to give back to free()/munmap() */
    size_t raw_size; /* mapping length for munmap */
    int32_t device_id;
    uint8_t kind;
    uint8_t mmapped;
    uint32_t flags;
} entry;

static pthread_rwlock_t g_lock = PTHREAD_RWLOCK_INITIALIZER;
static entry *g_entries;
static size_t g_count;
static size_t g_cap;
static oa_mem_usage g_usage[MEM_MAX_DEVICES][OA_MEM_KIND_COUNT];

/* Index of the first entry whose base is > p. */
static size_t upper_bound(uintptr_t p)
{
    size_t lo = 0, hi = g_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (g_entries[mid].base <= p) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

/* Index of the entry containing p, or SIZE_MAX. */
static size_t find_index(uintptr_t p)
{
    size_t ub = upper_bound(p);
    if (ub == 0) {
        return SIZE_MAX;
    }
    const entry *e = &g_entries[ub - 1];
    /* A zero-size registration still owns its first byte. */
    size_t span = e->size == 0 ? 1 : e->size;
    return (p - e->base) < span ? ub - 1 : SIZE_MAX;
}

static bool reserve_one(void)
{
    if (g_count < g_cap) {
        return true;
    }
    size_t ncap = g_cap == 0 ? 64 : g_cap * 2;
    entry *n = realloc(g_entries, ncap * sizeof(*n));
    if (n == NULL) {
        return false;
    }
    g_entries = n;
    g_cap = ncap;
    return true;
}

static void insert_at(size_t idx, const entry *e)
{
    memmove(&g_entries[idx + 1], &g_entries[idx], (g_count - idx) * sizeof(entry));
    g_entries[idx] = *e;
    ++g_count;
}

static void remove_at(size_t idx)
{
    memmove(&g_entries[idx], &g_entries[idx + 1], (g_count - idx - 1) * sizeof(entry));
    --g_count;
}

static oa_mem_usage *usage_of(int32_t dev, int kind)
{
    if (dev < 0 || dev >= MEM_MAX_DEVICES || kind <= 0 || kind >= OA_MEM_KIND_COUNT) {
        return NULL;
    }
    return &g_usage[dev][kind];
}

static void account(const entry *e, bool add)
{
    oa_mem_usage *u = usage_of(e->device_id, e->kind);
    if (u == NULL) {
        return;
    }
    if (add) {
        u->bytes += e->size;
        u->blocks += 1;
        if (u->bytes > u->peak) {
            u->peak = u->bytes;
        }
    } else {
        u->bytes -= e->size;
        u->blocks -= 1;
    }
}

/*
 * Blocks of 1 MiB and more are their own mmap. Smaller device blocks come from the heap but start on a page and
 * own whole pages, so that any device block can be re-mapped onto shared memory at its address (IPC export,
 * oa_mem_share) without taking other data along; smaller host blocks are only MEM_ALIGN-aligned.
 */
static void *raw_alloc(size_t size, bool whole_pages, size_t *raw_size, bool *mmapped, void **raw)
{
    if (size >= MEM_MMAP_THRESHOLD) {
        size_t page = (size_t)sysconf(_SC_PAGESIZE);
        size_t len;
        if (!oa_align_up(size, page, &len)) {
            return NULL;
        }
        void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) {
            return NULL;
        }
        *raw_size = len;
        *mmapped = true;
        *raw = p;
        return p;
    }
    void *p = NULL;
    size_t len = size;
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    if (whole_pages && !oa_align_up(size, page, &len)) {
        return NULL;
    }
    if (posix_memalign(&p, whole_pages ? page : MEM_ALIGN, len) != 0) {
        return NULL;
    }
    *raw_size = len;
    *mmapped = false;
    *raw = p;
    return p;
}

static void raw_free(const entry *e)
{
    if (e->kind == OA_MEM_KIND_REGISTERED) {
        return;
    }
    if (e->mmapped) {
        munmap(e->raw, e->raw_size);
    } else {
        if ((e->flags & OA_MEM_F_SHARED) != 0) {
            /* heap pages mapped onto shared memory (oa_mem_share): give the heap private pages back first */
            (void)mmap(e->raw, e->raw_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
        }
        free(e->raw);
    }
}

size_t oa_mem_device_capacity(void)
{
    /* Read once; a benign race computes the same value twice. */
    static size_t cap;
    size_t cached = __atomic_load_n(&cap, __ATOMIC_RELAXED);
    if (cached != 0) {
        return cached;
    }
    long mb = oa_env_long("OPENACL_DEVICE_MEMORY_MB", 0);
    size_t c;
    if (mb > 0) {
        c = (size_t)mb << 20;
    } else {
        long pages = sysconf(_SC_PHYS_PAGES);
        long psz = sysconf(_SC_PAGESIZE);
        c = (pages > 0 && psz > 0) ? (size_t)pages * (size_t)psz : (size_t)8 << 30;
    }
    __atomic_store_n(&cap, c, __ATOMIC_RELAXED);
    return c;
}

oa_status oa_mem_alloc(oa_mem_kind kind, int32_t device_id, size_t requested, size_t size, uint32_t flags,
                       void **out)
{
    if (kind != OA_MEM_KIND_DEVICE && kind != OA_MEM_KIND_HOST) {
        return OA_FAIL(OA_E_INTERNAL, "memory kind [%d] cannot be allocated", (int)kind);
    }
    if (size == 0) {
        size = 1;
    }
    if (kind == OA_MEM_KIND_DEVICE) {
        oa_mem_usage u;
        oa_mem_get_usage(device_id, OA_MEM_KIND_DEVICE, &u);
        size_t capacity = oa_mem_device_capacity();
        if (size > capacity || u.bytes > capacity - size) {
            return OA_FAIL(OA_E_RT_MEMORY_ALLOCATION,
                           "device %d out of memory: request %zu bytes, %zu of %zu bytes in use", device_id, size,
                           u.bytes, capacity);
        }
    }
    entry e;
    memset(&e, 0, sizeof(e));
    bool mmapped = false;
    void *p = raw_alloc(size, kind == OA_MEM_KIND_DEVICE, &e.raw_size, &mmapped, &e.raw);
    if (p == NULL) {
        return OA_FAIL(OA_E_RT_MEMORY_ALLOCATION, "cannot allocate %zu bytes of %s memory on device %d", size,
                       kind == OA_MEM_KIND_DEVICE ? "device" : "host", device_id);
    }
    e.base = (uintptr_t)p;
    e.size = size;
    e.requested = requested;
    e.device_id = device_id;
    e.kind = (uint8_t)kind;
    e.mmapped = mmapped;
    e.flags = flags;

    pthread_rwlock_wrlock(&g_lock);
    if (!reserve_one()) {
        pthread_rwlock_unlock(&g_lock);
        raw_free(&e);
        return OA_FAIL(OA_E_NOMEM, "cannot grow the device-allocation table");
    }
    /* A fresh allocation cannot overlap a live one; a registered range could. */
    size_t idx = upper_bound(e.base);
    if ((idx > 0 && find_index(e.base) != SIZE_MAX) ||
        (idx < g_count && g_entries[idx].base < e.base + e.size)) {
        pthread_rwlock_unlock(&g_lock);
        raw_free(&e);
        return OA_FAIL(OA_E_RT_MEMORY_ALLOCATION, "new block %p overlaps a registered host range", p);
    }
    insert_at(idx, &e);
    account(&e, true);
    pthread_rwlock_unlock(&g_lock);
    *out = p;
    return OA_OK;
}

static const char *kind_name(int kind)
{
    switch (kind) {
    case OA_MEM_KIND_DEVICE:
        return "device memory";
    case OA_MEM_KIND_HOST:
        return "host memory from aclrtMallocHost";
    case OA_MEM_KIND_REGISTERED:
        return "registered host memory";
    default:
        return "unknown memory";
    }
}

oa_status oa_mem_free(void *base, oa_mem_kind expect, oa_mem_block *freed)
{
    uintptr_t p = (uintptr_t)base;
    pthread_rwlock_wrlock(&g_lock);
    size_t idx = find_index(p);
    if (idx == SIZE_MAX) {
        pthread_rwlock_unlock(&g_lock);
        return OA_FAIL(OA_E_RT_PARAM, "pointer [%p] is not %s: unknown address or already freed", base,
                       kind_name(expect));
    }
    entry e = g_entries[idx];
    if (e.base != p) {
        pthread_rwlock_unlock(&g_lock);
        return OA_FAIL(OA_E_RT_PARAM,
                       "pointer [%p] is inside a block (base %p, size %zu) and not its start address", base,
                       (void *)e.base, e.size);
    }
    if (e.kind != expect) {
        pthread_rwlock_unlock(&g_lock);
        return OA_FAIL(OA_E_RT_PARAM, "pointer [%p] is %s, not %s", base, kind_name(e.kind), kind_name(expect));
    }
    if ((e.flags & OA_MEM_F_IMPORTED) != 0) {
        pthread_rwlock_unlock(&g_lock);
        return OA_FAIL(OA_E_RT_PARAM, "pointer [%p] was imported by aclrtIpcMemImportByKey: release it with "
                       "aclrtIpcMemClose", base);
    }
    remove_at(idx);
    account(&e, false);
    pthread_rwlock_unlock(&g_lock);
    raw_free(&e);
    if (freed != NULL) {
        freed->base = (void *)e.base;
        freed->size = e.size;
        freed->requested = e.requested;
        freed->device_id = e.device_id;
        freed->kind = (oa_mem_kind)e.kind;
        freed->flags = e.flags;
    }
    return OA_OK;
}

bool oa_mem_find(const void *ptr, oa_mem_block *out)
{
    pthread_rwlock_rdlock(&g_lock);
    size_t idx = find_index((uintptr_t)ptr);
    if (idx == SIZE_MAX) {
        pthread_rwlock_unlock(&g_lock);
        return false;
    }
    const entry *e = &g_entries[idx];
    out->base = (void *)e->base;
    out->size = e->size;
    out->requested = e->requested;
    out->device_id = e->device_id;
    out->kind = (oa_mem_kind)e->kind;
    out->flags = e->flags;
    pthread_rwlock_unlock(&g_lock);
    return true;
}

oa_mem_kind oa_mem_kind_of(const void *ptr)
{
    oa_mem_block b;
    return oa_mem_find(ptr, &b) ? b.kind : OA_MEM_KIND_NONE;
}

oa_status oa_mem_register(void *ptr, size_t size, int32_t device_id, uint32_t flags)
{
    uintptr_t p = (uintptr_t)ptr;
    size_t end;
    if (size == 0 || !oa_add_size(p, size, &end)) {
        return OA_FAIL(OA_E_RT_PARAM, "host range [%p, +%zu) is invalid", ptr, size);
    }
    entry e;
    memset(&e, 0, sizeof(e));
    e.base = p;
    e.size = size;
    e.requested = size;
    e.device_id = device_id;
    e.kind = OA_MEM_KIND_REGISTERED;
    e.flags = flags;
    pthread_rwlock_wrlock(&g_lock);
    size_t idx = upper_bound(p);
    bool overlap = (find_index(p) != SIZE_MAX) || (idx < g_count && g_entries[idx].base < end);
    if (overlap) {
        pthread_rwlock_unlock(&g_lock);
        return OA_FAIL(OA_E_RT_HOST_MEM_REGISTERED, "host range [%p, +%zu) overlaps memory that is already registered",
                       ptr, size);
    }
    if (!reserve_one()) {
        pthread_rwlock_unlock(&g_lock);
        return OA_FAIL(OA_E_NOMEM, "cannot grow the device-allocation table");
    }
    insert_at(idx, &e);
    account(&e, true);
    pthread_rwlock_unlock(&g_lock);
    return OA_OK;
}

oa_status oa_mem_unregister(void *ptr)
{
    uintptr_t p = (uintptr_t)ptr;
    pthread_rwlock_wrlock(&g_lock);
    size_t idx = find_index(p);
    if (idx == SIZE_MAX || g_entries[idx].base != p || g_entries[idx].kind != OA_MEM_KIND_REGISTERED) {
        pthread_rwlock_unlock(&g_lock);
        return OA_FAIL(OA_E_RT_HOST_MEM_NOT_REGISTERED, "host address [%p] is not the start of a registered range",
                       ptr);
    }
    entry e = g_entries[idx];
    remove_at(idx);
    account(&e, false);
    pthread_rwlock_unlock(&g_lock);
    return OA_OK;
}

static size_t release_matching(int32_t device_id, bool all)
{
    size_t released = 0;
    pthread_rwlock_wrlock(&g_lock);
    size_t w = 0;
    for (size_t r = 0; r < g_count; ++r) {
        entry e = g_entries[r];
        bool drop = all ? true : (e.kind == OA_MEM_KIND_DEVICE && e.device_id == device_id);
        if (!drop) {
            g_entries[w++] = e;
            continue;
        }
        account(&e, false);
        if (e.kind == OA_MEM_KIND_REGISTERED) {
            OA_LOGW("host range %p (%zu bytes) is still registered on device %d; forgetting it", (void *)e.base,
                    e.size, e.device_id);
        } else {
            OA_LOGW("leaked %s on device %d: address %p, size %zu bytes (requested %zu); freeing it",
                    kind_name(e.kind), e.device_id, (void *)e.base, e.size, e.requested);
            raw_free(&e);
        }
        ++released;
    }
    g_count = w;
    if (all) {
        free(g_entries);
        g_entries = NULL;
        g_cap = 0;
        g_count = 0;
        memset(g_usage, 0, sizeof(g_usage));
    }
    pthread_rwlock_unlock(&g_lock);
    return released;
}

size_t oa_mem_release_device(int32_t device_id)
{
    return release_matching(device_id, false);
}

size_t oa_mem_release_all(void)
{
    return release_matching(-1, true);
}

oa_status oa_mem_share(void *base, int fd, size_t offset, size_t *len)
{
    pthread_rwlock_wrlock(&g_lock);
    size_t idx = find_index((uintptr_t)base);
    if (idx == SIZE_MAX || g_entries[idx].base != (uintptr_t)base || g_entries[idx].kind != OA_MEM_KIND_DEVICE) {
        pthread_rwlock_unlock(&g_lock);
        return OA_FAIL(OA_E_RT_PARAM, "pointer [%p] is not the start of a device memory block", base);
    }
    entry *e = &g_entries[idx];
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    if ((e->flags & (OA_MEM_F_SHARED | OA_MEM_F_IMPORTED)) != 0 || (uintptr_t)e->raw % page != 0 ||
        e->raw_size % page != 0) {
        pthread_rwlock_unlock(&g_lock);
        return OA_FAIL(OA_E_RT_FEATURE_NOT_SUPPORT,
                       "device block %p (%zu bytes) cannot be shared: it is already shared or imported", base,
                       e->size);
    }
    /* copy the current contents into the file, then map the file over the block at the same address */
    size_t done = 0;
    while (done < e->raw_size) {
        ssize_t w = pwrite(fd, (const char *)e->raw + done, e->raw_size - done, (off_t)(offset + done));
        if (w <= 0) {
            pthread_rwlock_unlock(&g_lock);
            return OA_FAIL(OA_E_RT_MEMORY_ALLOCATION, "cannot copy device block %p into shared memory", base);
        }
        done += (size_t)w;
    }
    void *p = mmap(e->raw, e->raw_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, (off_t)offset);
    if (p == MAP_FAILED) {
        pthread_rwlock_unlock(&g_lock);
        return OA_FAIL(OA_E_RT_MEMORY_ALLOCATION, "cannot map shared memory over device block %p", base);
    }
    e->flags |= OA_MEM_F_SHARED;
    *len = e->raw_size;
    pthread_rwlock_unlock(&g_lock);
    return OA_OK;
}

oa_status oa_mem_adopt(void *base, size_t len, int32_t device_id)
{
    entry e;
    memset(&e, 0, sizeof(e));
    e.base = (uintptr_t)base;
    e.size = len;
    e.requested = len;
    e.raw = base;
    e.raw_size = len;
    e.device_id = device_id;
    e.kind = OA_MEM_KIND_DEVICE;
    e.mmapped = 1;
    e.flags = OA_MEM_F_IMPORTED;
    pthread_rwlock_wrlock(&g_lock);
    size_t idx = upper_bound(e.base);
    if (!reserve_one() || find_index(e.base) != SIZE_MAX || (idx < g_count && g_entries[idx].base < e.base + len)) {
        pthread_rwlock_unlock(&g_lock);
        return OA_FAIL(OA_E_NOMEM, "cannot record imported memory %p", base);
    }
    insert_at(idx, &e);
    account(&e, true);
    pthread_rwlock_unlock(&g_lock);
    return OA_OK;
}

oa_status oa_mem_unadopt(void *base)
{
    pthread_rwlock_wrlock(&g_lock);
    size_t idx = find_index((uintptr_t)base);
    if (idx == SIZE_MAX || g_entries[idx].base != (uintptr_t)base ||
        (g_entries[idx].flags & OA_MEM_F_IMPORTED) == 0) {
        pthread_rwlock_unlock(&g_lock);
        return OA_FAIL(OA_E_RT_PARAM, "pointer [%p] is not imported memory", base);
    }
    entry e = g_entries[idx];
    remove_at(idx);
    account(&e, false);
    pthread_rwlock_unlock(&g_lock);
    raw_free(&e);
    return OA_OK;
}

void oa_mem_get_usage(int32_t device_id, oa_mem_kind kind, oa_mem_usage *out)
{
    memset(out, 0, sizeof(*out));
    pthread_rwlock_rdlock(&g_lock);
    const oa_mem_usage *u = usage_of(device_id, kind);
    if (u != NULL) {
        *out = *u;
    }
    pthread_rwlock_unlock(&g_lock);
}
