/* Lock, waits and shared buffers of the data tunnels (tdt_internal.h). */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl_tdt_queue.h"
#include "base/acl_check.h"
#include "base/util.h"
#include "tdt/tdt_internal.h"

#define MBUF_MAGIC 0x6F614D6275664C76ull

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t g_cond;
static pthread_once_t g_once = PTHREAD_ONCE_INIT;

static void init_cond(void)
{
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&g_cond, &attr);
    pthread_condattr_destroy(&attr);
}

void oa_tdt_lock(void)
{
    pthread_once(&g_once, init_cond);
    pthread_mutex_lock(&g_lock);
}

void oa_tdt_unlock(void)
{
    pthread_mutex_unlock(&g_lock);
}

void oa_tdt_broadcast(void)
{
    pthread_cond_broadcast(&g_cond);
}

oa_tdt_deadline oa_tdt_deadline_after(int32_t timeout_ms)
{
    oa_tdt_deadline d;
    d.timeout_ms = timeout_ms;
    clock_gettime(CLOCK_MONOTONIC, &d.at);
    if (timeout_ms > 0) {
        d.at.tv_sec += timeout_ms / 1000;
        d.at.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
        if (d.at.tv_nsec >= 1000000000L) {
            d.at.tv_sec += 1;
            d.at.tv_nsec -= 1000000000L;
        }
    }
    return d;
}

bool oa_tdt_wait(const oa_tdt_deadline *d)
{
    if (d->timeout_ms == 0) {
        return false;
    }
    if (d->timeout_ms < 0) {
        pthread_cond_wait(&g_cond, &g_lock);
        return true;
    }
    return pthread_cond_timedwait(&g_cond, &g_lock, &d->at) != ETIMEDOUT;
}

/* ---- shared buffers ---- */

struct oa_mbuf_block {
    size_t refs;
    size_t capacity;
    unsigned char data[];
};

/* Live buffers, an open-addressing set keyed by pointer, so stale handles are rejected. */
static const oa_mbuf **g_live;
static size_t g_live_cap;
static size_t g_live_count;
static const oa_mbuf *const kTomb = (const oa_mbuf *)(uintptr_t)1;

static size_t slot_of(const void *p, size_t cap)
{
    uint64_t h = (uint64_t)(uintptr_t)p;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    return (size_t)h & (cap - 1);
}

static bool live_grow(void)
{
    const size_t ncap = g_live_cap == 0 ? 64 : g_live_cap * 2;
    const oa_mbuf **n = calloc(ncap, sizeof(*n));
    if (n == NULL) {
        return false;
    }
    for (size_t i = 0; i < g_live_cap; ++i) {
        const oa_mbuf *p = g_live[i];
        if (p != NULL && p != kTomb) {
            size_t s = slot_of(p, ncap);
            while (n[s] != NULL) {
                s = (s + 1) & (ncap - 1);
            }
            n[s] = p;
        }
    }
    free(g_live);
    g_live = n;
    g_live_cap = ncap;
    return true;
}

static bool live_add(const oa_mbuf *m)
{
    if ((g_live_count + 1) * 2 > g_live_cap && !live_grow()) {
        return false;
    }
    size_t s = slot_of(m, g_live_cap);
    while (g_live[s] != NULL && g_live[s] != kTomb) {
        s = (s + 1) & (g_live_cap - 1);
    }
    g_live[s] = m;
    ++g_live_count;
    return true;
}

static size_t live_find(const void *p)
{
    if (g_live_cap == 0 || p == NULL || p == (const void *)kTomb) {
        return SIZE_MAX;
    }
    size_t s = slot_of(p, g_live_cap);
    for (size_t probes = 0; probes < g_live_cap && g_live[s] != NULL; ++probes) {
        if (g_live[s] == p) {
            return s;
        }
        s = (s + 1) & (g_live_cap - 1);
    }
    return SIZE_MAX;
}

bool oa_mbuf_live_locked(const void *p)
{
    return live_find(p) != SIZE_MAX;
}

static oa_mbuf *mbuf_new_locked(oa_mbuf_block *blk)
{
    oa_mbuf *m = calloc(1, sizeof(*m));
    if (m == NULL) {
        return NULL;
    }
    if (!live_add(m)) {
        free(m);
        return NULL;
    }
    m->magic = MBUF_MAGIC;
    m->block = blk;
    ++blk->refs;
    return m;
}

oa_status oa_mbuf_alloc_locked(size_t size, oa_mbuf **out)
{
    size_t bytes;
    if (!oa_add_size(sizeof(oa_mbuf_block), size, &bytes)) {
        return OA_FAIL(OA_E_RT_MEMORY_ALLOCATION, "buffer size %zu is too large", size);
    }
    oa_mbuf_block *blk = calloc(1, bytes);
    if (blk == NULL) {
        return OA_FAIL(OA_E_RT_MEMORY_ALLOCATION, "cannot allocate a shared buffer of %zu bytes", size);
    }
    blk->capacity = size;
    oa_mbuf *m = mbuf_new_locked(blk);
    if (m == NULL) {
        free(blk);
        return OA_FAIL(OA_E_RT_MEMORY_ALLOCATION, "cannot allocate a shared buffer head");
    }
    *out = m;
    return OA_OK;
}

static void mbuf_free_one_locked(oa_mbuf *m)
{
    const size_t s = live_find(m);
    if (s != SIZE_MAX) {
        g_live[s] = kTomb;
        --g_live_count;
    }
    if (--m->block->refs == 0) {
        free(m->block);
    }
    m->magic = 0;
    free(m);
}

void oa_mbuf_free_chain_locked(oa_mbuf *buf)
{
    while (buf != NULL) {
        oa_mbuf *next = buf->next;
        mbuf_free_one_locked(buf);
        buf = next;
    }
}

oa_status oa_mbuf_copy_ref_locked(const oa_mbuf *src, oa_mbuf **out)
{
    oa_mbuf *copy = mbuf_new_locked(src->block);
    if (copy == NULL) {
        return OA_FAIL(OA_E_RT_MEMORY_ALLOCATION, "cannot allocate a shared buffer head");
    }
    copy->data_len = src->data_len;
    memcpy(copy->user_data, src->user_data, sizeof(copy->user_data));
    *out = copy;
    return OA_OK;
}

void *oa_mbuf_data(const oa_mbuf *buf)
{
    return buf->block->data;
}

size_t oa_mbuf_capacity(const oa_mbuf *buf)
{
    return buf->block->capacity;
}

/* ---- acltdt*Buf ---- */

/* Validates a buffer handle (lock held); RT parameter error otherwise. */
static oa_status check_buf_locked(const void *buf, const char *what)
{
    if (buf == NULL) {
        return OA_FAIL(OA_E_PARAM, "parameter [%s] must not be null", what);
    }
    if (!oa_mbuf_live_locked(buf)) {
        return OA_FAIL(OA_E_RT_PARAM, "[%s] %p is not a live shared buffer", what, buf);
    }
    return OA_OK;
}

ACL_FUNC_VISIBILITY aclError acltdtAllocBuf(size_t size, uint32_t type, acltdtBuf *buf)
{
    ACL_REQUIRE(type == ACL_TDT_NORMAL_MEM || type == ACL_TDT_DVPP_MEM, OA_E_PARAM,
                "param type must be 0 or 1, got %u", type);
    ACL_REQUIRE_NOT_NULL(buf);
    ACL_REQUIRE(size > 0, OA_E_RT_PARAM, "shared buffer size must be greater than 0");
    oa_tdt_lock();
    oa_mbuf *m = NULL;
    const oa_status st = oa_mbuf_alloc_locked(size, &m);
    oa_tdt_unlock();
    if (st == OA_OK) {
        *buf = m;
    }
    ACL_RETURN_STATUS(st);
}

ACL_FUNC_VISIBILITY aclError acltdtFreeBuf(acltdtBuf buf)
{
    oa_tdt_lock();
    oa_status st = check_buf_locked(buf, "buf");
    if (st == OA_OK && ((oa_mbuf *)buf)->in_chain) {
        st = OA_FAIL(OA_E_RT_PARAM, "buffer %p belongs to a chain: free the chain head", buf);
    }
    if (st == OA_OK) {
        oa_mbuf_free_chain_locked(buf);
    }
    oa_tdt_unlock();
    ACL_RETURN_STATUS(st);
}

ACL_FUNC_VISIBILITY aclError acltdtGetBufData(const acltdtBuf buf, void **dataPtr, size_t *size)
{
    ACL_REQUIRE_NOT_NULL(buf);
    ACL_REQUIRE_NOT_NULL(dataPtr);
    ACL_REQUIRE_NOT_NULL(size);
    oa_tdt_lock();
    const oa_status st = check_buf_locked(buf, "buf");
    if (st == OA_OK) {
        *dataPtr = oa_mbuf_data(buf);
        *size = oa_mbuf_capacity(buf);
    }
    oa_tdt_unlock();
    ACL_RETURN_STATUS(st);
}

ACL_FUNC_VISIBILITY aclError acltdtSetBufDataLen(acltdtBuf buf, size_t len)
{
    ACL_REQUIRE_NOT_NULL(buf);
    oa_tdt_lock();
    oa_status st = check_buf_locked(buf, "buf");
    if (st == OA_OK && len > oa_mbuf_capacity(buf)) {
        st = OA_FAIL(OA_E_RT_PARAM, "data length %zu exceeds the buffer size %zu", len, oa_mbuf_capacity(buf));
    }
    if (st == OA_OK) {
        ((oa_mbuf *)buf)->data_len = len;
    }
    oa_tdt_unlock();
    ACL_RETURN_STATUS(st);
}

ACL_FUNC_VISIBILITY aclError acltdtGetBufDataLen(acltdtBuf buf, size_t *len)
{
    ACL_REQUIRE_NOT_NULL(buf);
    ACL_REQUIRE_NOT_NULL(len);
    oa_tdt_lock();
    const oa_status st = check_buf_locked(buf, "buf");
    if (st == OA_OK) {
        *len = ((const oa_mbuf *)buf)->data_len;
    }
    oa_tdt_unlock();
    ACL_RETURN_STATUS(st);
}

ACL_FUNC_VISIBILITY aclError acltdtAppendBufChain(acltdtBuf headBuf, acltdtBuf buf)
{
    ACL_REQUIRE_NOT_NULL(headBuf);
    ACL_REQUIRE_NOT_NULL(buf);
    oa_tdt_lock();
    oa_status st = check_buf_locked(headBuf, "headBuf");
    if (st == OA_OK) {
        st = check_buf_locked(buf, "buf");
    }
    oa_mbuf *head = headBuf;
    oa_mbuf *add = buf;
    if (st == OA_OK && (head == add || add->in_chain || add->next != NULL)) {
        st = OA_FAIL(OA_E_RT_PARAM, "buffer %p cannot be appended: it is the head or already part of a chain", buf);
    }
    if (st == OA_OK && head->in_chain) {
        st = OA_FAIL(OA_E_RT_PARAM, "headBuf %p is not the head of a chain", headBuf);
    }
    uint32_t n = 1;
    oa_mbuf *tail = head;
    while (st == OA_OK && tail->next != NULL) {
        tail = tail->next;
        ++n;
    }
    if (st == OA_OK && n >= OA_MBUF_CHAIN_MAX) {
        st = OA_FAIL(OA_E_RT_PARAM, "a buffer chain holds at most %u buffers", OA_MBUF_CHAIN_MAX);
    }
    if (st == OA_OK) {
        tail->next = add;
        add->in_chain = true;
    }
    oa_tdt_unlock();
    ACL_RETURN_STATUS(st);
}

ACL_FUNC_VISIBILITY aclError acltdtGetBufChainNum(acltdtBuf headBuf, uint32_t *num)
{
    ACL_REQUIRE_NOT_NULL(headBuf);
    ACL_REQUIRE_NOT_NULL(num);
    oa_tdt_lock();
    const oa_status st = check_buf_locked(headBuf, "headBuf");
    if (st == OA_OK) {
        uint32_t n = 0;
        for (const oa_mbuf *m = headBuf; m != NULL; m = m->next) {
            ++n;
        }
        *num = n;
    }
    oa_tdt_unlock();
    ACL_RETURN_STATUS(st);
}

ACL_FUNC_VISIBILITY aclError acltdtGetBufFromChain(acltdtBuf headBuf, uint32_t index, acltdtBuf *buf)
{
    ACL_REQUIRE_NOT_NULL(headBuf);
    ACL_REQUIRE_NOT_NULL(buf);
    oa_tdt_lock();
    oa_status st = check_buf_locked(headBuf, "headBuf");
    oa_mbuf *m = headBuf;
    for (uint32_t i = 0; st == OA_OK && i < index && m != NULL; ++i) {
        m = m->next;
    }
    if (st == OA_OK && m == NULL) {
        st = OA_FAIL(OA_E_RT_PARAM, "index %u is beyond the end of the chain", index);
    }
    if (st == OA_OK) {
        *buf = m;
    }
    oa_tdt_unlock();
    ACL_RETURN_STATUS(st);
}

/* Shared checks of the user-data accessors; size + offset is checked first, as in CANN. */
static oa_status user_data_check(const void *buf, const void *ptr, size_t size, size_t offset)
{
    size_t end;
    if (!oa_add_size(size, offset, &end) || end > OA_MBUF_USER_DATA_SIZE) {
        return OA_FAIL(OA_E_PARAM, "the sum of size %zu and offset %zu is greater than %u", size, offset,
                       OA_MBUF_USER_DATA_SIZE);
    }
    if (buf == NULL) {
        return OA_FAIL(OA_E_PARAM, "parameter [buf] must not be null");
    }
    if (ptr == NULL) {
        return OA_FAIL(OA_E_PARAM, "parameter [dataPtr] must not be null");
    }
    return OA_OK;
}

ACL_FUNC_VISIBILITY aclError acltdtGetBufUserData(const acltdtBuf buf, void *dataPtr, size_t size, size_t offset)
{
    oa_status st = user_data_check(buf, dataPtr, size, offset);
    if (st != OA_OK) {
        ACL_RETURN_STATUS(st);
    }
    oa_tdt_lock();
    st = check_buf_locked(buf, "buf");
    if (st == OA_OK) {
        memcpy(dataPtr, ((const oa_mbuf *)buf)->user_data + offset, size);
    }
    oa_tdt_unlock();
    ACL_RETURN_STATUS(st);
}

ACL_FUNC_VISIBILITY aclError acltdtSetBufUserData(acltdtBuf buf, const void *dataPtr, size_t size, size_t offset)
{
    oa_status st = user_data_check(buf, dataPtr, size, offset);
    if (st != OA_OK) {
        ACL_RETURN_STATUS(st);
    }
    oa_tdt_lock();
    st = check_buf_locked(buf, "buf");
    if (st == OA_OK) {
        memcpy(((oa_mbuf *)buf)->user_data + offset, dataPtr, size);
    }
    oa_tdt_unlock();
    ACL_RETURN_STATUS(st);
}

ACL_FUNC_VISIBILITY aclError acltdtCopyBufRef(const acltdtBuf buf, acltdtBuf *newBuf)
{
    ACL_REQUIRE_NOT_NULL(buf);
    ACL_REQUIRE_NOT_NULL(newBuf);
    oa_tdt_lock();
    oa_status st = check_buf_locked(buf, "buf");
    oa_mbuf *copy = NULL;
    if (st == OA_OK) {
        /* a new head over the same data area */
        st = oa_mbuf_copy_ref_locked(buf, &copy);
    }
    if (st == OA_OK) {
        *newBuf = copy;
    }
    oa_tdt_unlock();
    ACL_RETURN_STATUS(st);
}
