/*
 * Memory entry points: device and page-locked host allocation with CANN's
 * size rules, frees, synchronous and asynchronous copies and fills, pointer
 * attributes, host registration and memory information.
 *
 * Copies are validated against the device-allocation table (mem/mem_table.h)
 * as CANN's runtime validates them against the driver: every pointer that is
 * in the table must have the whole copied range inside its block; when both
 * pointers are known (device or page-locked/registered host memory) the copy
 * kind is corrected from their locations, as CANN does; when a side is
 * ordinary (pageable) host memory, the kind must not call that side device
 * memory. An asynchronous copy between device memory and pageable host memory
 * is performed like CANN does it: the stream is synchronised and the copy is
 * done at once, so the caller's buffer may be reused when the call returns.
 */
#define OA_LOG_MODULE "RUNTIME"
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "acl_rt/capture.h"
#include "acl_rt/rt_internal.h"
#include "base/acl_check.h"
#include "base/error.h"
#include "base/util.h"
#include "mem/mem_table.h"
#include "prof/prof_internal.h"

#define MEM_ALIGN_UNIT 32u
#define MEM_PADDING 32u
#define MAX_2D_HEIGHT 5242880u
#define MAX_2D_WIDTH 5000000u
#define HUGE_PAGE_SIZE (2u * 1024u * 1024u)

/* ---- allocation ------------------------------------------------------------- */

static bool huge1g(aclrtMemMallocPolicy p)
{
    return p == ACL_MEM_MALLOC_HUGE1G_ONLY || p == ACL_MEM_MALLOC_HUGE1G_ONLY_P2P;
}

static uint32_t policy_flags(aclrtMemMallocPolicy p)
{
    switch ((int)p & 0xff) {
    case ACL_MEM_MALLOC_HUGE_FIRST:
    case ACL_MEM_MALLOC_HUGE_ONLY:
    case ACL_MEM_MALLOC_HUGE_FIRST_P2P:
    case ACL_MEM_MALLOC_HUGE_ONLY_P2P:
    case ACL_MEM_MALLOC_HUGE1G_ONLY:
    case ACL_MEM_MALLOC_HUGE1G_ONLY_P2P:
        return OA_MEM_F_HUGE;
    default:
        return 0;
    }
}

/* CANN's rounding: up to 32 bytes plus `pad` spare bytes (aclrtMalloc) or just up to 32 (aclrtMallocAlign32). */
static oa_status rounded_size(size_t size, bool padding, size_t *out)
{
    size_t append = padding ? MEM_ALIGN_UNIT + MEM_PADDING : MEM_ALIGN_UNIT;
    size_t t;
    if (!oa_add_size(size, append - 1, &t)) {
        return OA_FAIL(OA_E_PARAM, "size [%zu] is too large", size);
    }
    *out = t / MEM_ALIGN_UNIT * MEM_ALIGN_UNIT;
    return OA_OK;
}

static oa_status current_device(int32_t *dev)
{
    oa_context *ctx = NULL;
    oa_status st = oa_ctx_current(true, &ctx);
    if (st != OA_OK) {
        return st;
    }
    *dev = ctx->dev->id;
    oa_ctx_release(ctx);
    return OA_OK;
}

static oa_status malloc_device(void **devPtr, size_t size, aclrtMemMallocPolicy policy, bool padding, uint32_t flags)
{
    size_t rounded = 0;
    oa_status st = rounded_size(size, padding && !huge1g(policy), &rounded);
    if (st != OA_OK) {
        return st;
    }
    int32_t dev = 0;
    st = current_device(&dev);
    if (st != OA_OK) {
        return st;
    }
    return oa_mem_alloc(OA_MEM_KIND_DEVICE, dev, size, rounded, flags | policy_flags(policy), devPtr);
}

ACL_FUNC_VISIBILITY aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy)
{
    OA_PROF_API_SPAN(); /* ACL_PROF_ACL_API span (docs/profiling.md) */
    ACL_REQUIRE_NOT_NULL(devPtr);
    ACL_REQUIRE(size > 0, OA_E_PARAM, "size [%zu] must be greater than 0", size);
    ACL_RETURN_STATUS(malloc_device(devPtr, size, policy, true, 0));
}

ACL_FUNC_VISIBILITY aclError aclrtMallocAlign32(void **devPtr, size_t size, aclrtMemMallocPolicy policy)
{
    ACL_REQUIRE_NOT_NULL(devPtr);
    ACL_REQUIRE(size > 0, OA_E_PARAM, "size [%zu] must be greater than 0", size);
    ACL_RETURN_STATUS(malloc_device(devPtr, size, policy, false, 0));
}

ACL_FUNC_VISIBILITY aclError aclrtMallocCached(void **devPtr, size_t size, aclrtMemMallocPolicy policy)
{
    ACL_REQUIRE_NOT_NULL(devPtr);
    ACL_REQUIRE(size > 0, OA_E_PARAM, "size [%zu] must be greater than 0", size);
    ACL_RETURN_STATUS(malloc_device(devPtr, size, policy, true, OA_MEM_F_CACHED));
}

ACL_FUNC_VISIBILITY aclError aclrtMallocWithCfg(void **devPtr, size_t size, aclrtMemMallocPolicy policy,
                                                aclrtMallocConfig *cfg)
{
    ACL_REQUIRE_NOT_NULL(devPtr);
    ACL_REQUIRE(cfg == NULL || cfg->numAttrs == 0 || cfg->attrs != NULL, OA_E_PARAM,
                "cfg->attrs must not be null when cfg->numAttrs is %zu", cfg != NULL ? cfg->numAttrs : 0);
    ACL_REQUIRE(size > 0, OA_E_PARAM, "size [%zu] must be greater than 0", size);
    int32_t dev = -1;
    if (cfg != NULL) {
        for (size_t i = 0; i < cfg->numAttrs; ++i) {
            const aclrtMallocAttribute *a = &cfg->attrs[i];
            switch (a->attr) {
            case ACL_RT_MEM_ATTR_MODULE_ID:
            case ACL_RT_MEM_ATTR_VA_FLAG:
                break;
            case ACL_RT_MEM_ATTR_DEVICE_ID: {
                oa_status st = oa_rt_check_device_id((int32_t)a->value.deviceId, OA_E_RT_DEVICE_ID);
                if (st != OA_OK) {
                    return oa_status_to_acl(st);
                }
                dev = (int32_t)a->value.deviceId;
                break;
            }
            default:
                return oa_status_to_acl(OA_FAIL(OA_E_RT_PARAM, "malloc attribute [%d] is not supported", (int)a->attr));
            }
        }
    }
    if (dev < 0) {
        oa_status st = current_device(&dev);
        if (st != OA_OK) {
            return oa_status_to_acl(st);
        }
    }
    ACL_RETURN_STATUS(oa_mem_alloc(OA_MEM_KIND_DEVICE, dev, size, size, policy_flags(policy), devPtr));
}

static oa_status malloc_host(void **ptr, size_t size)
{
    size_t rounded = 0;
    oa_status st = rounded_size(size, false, &rounded);
    if (st != OA_OK) {
        return st;
    }
    int32_t dev = 0;
    st = current_device(&dev);
    if (st != OA_OK) {
        return st;
    }
    return oa_mem_alloc(OA_MEM_KIND_HOST, dev, size, rounded, 0, ptr);
}

ACL_FUNC_VISIBILITY aclError aclrtMallocHost(void **hostPtr, size_t size)
{
    OA_PROF_API_SPAN(); /* ACL_PROF_ACL_API span (docs/profiling.md) */
    ACL_REQUIRE_NOT_NULL(hostPtr);
    ACL_REQUIRE(size > 0, OA_E_PARAM, "size [%zu] must be greater than 0", size);
    ACL_RETURN_STATUS(malloc_host(hostPtr, size));
}

ACL_FUNC_VISIBILITY aclError aclrtMallocHostWithCfg(void **ptr, uint64_t size, aclrtMallocConfig *cfg)
{
    ACL_REQUIRE_NOT_NULL(ptr);
    ACL_REQUIRE(size > 0, OA_E_PARAM, "size [%llu] must be greater than 0", (unsigned long long)size);
    if (cfg != NULL) {
        ACL_REQUIRE(cfg->attrs != NULL, OA_E_RT_PARAM, "cfg->attrs must not be null");
        for (size_t i = 0; i < cfg->numAttrs; ++i) {
            aclrtMallocAttrType t = cfg->attrs[i].attr;
            ACL_REQUIRE(t == ACL_RT_MEM_ATTR_MODULE_ID || t == ACL_RT_MEM_ATTR_VA_FLAG, OA_E_RT_PARAM,
                        "host malloc attribute [%d] must be ACL_RT_MEM_ATTR_MODULE_ID or ACL_RT_MEM_ATTR_VA_FLAG",
                        (int)t);
        }
    }
    ACL_REQUIRE(size <= SIZE_MAX, OA_E_PARAM, "size [%llu] is too large", (unsigned long long)size);
    ACL_RETURN_STATUS(malloc_host(ptr, (size_t)size));
}

ACL_FUNC_VISIBILITY aclError aclrtFree(void *devPtr)
{
    OA_PROF_API_SPAN(); /* ACL_PROF_ACL_API span (docs/profiling.md) */
    ACL_REQUIRE_NOT_NULL(devPtr);
    ACL_RETURN_STATUS(oa_mem_free(devPtr, OA_MEM_KIND_DEVICE, NULL));
}

ACL_FUNC_VISIBILITY aclError aclrtFreeHost(void *hostPtr)
{
    OA_PROF_API_SPAN(); /* ACL_PROF_ACL_API span (docs/profiling.md) */
    ACL_REQUIRE_NOT_NULL(hostPtr);
    ACL_RETURN_STATUS(oa_mem_free(hostPtr, OA_MEM_KIND_HOST, NULL));
}

/* Waits for every stream of the calling thread's device (errors are left for the app's own synchronise). */
static void sync_current_device_quietly(void)
{
    oa_context *ctx = oa_ctx_current_quiet(false);
    if (ctx == NULL) {
        return;
    }
    oa_ctx_release(ctx);
    (void)aclrtSynchronizeDevice();
}

ACL_FUNC_VISIBILITY aclError aclrtFreeWithDevSync(void *devPtr)
{
    ACL_REQUIRE_NOT_NULL(devPtr);
    sync_current_device_quietly();
    ACL_RETURN_STATUS(oa_mem_free(devPtr, OA_MEM_KIND_DEVICE, NULL));
}

ACL_FUNC_VISIBILITY aclError aclrtFreeHostWithDevSync(void *hostPtr)
{
    ACL_REQUIRE_NOT_NULL(hostPtr);
    sync_current_device_quietly();
    ACL_RETURN_STATUS(oa_mem_free(hostPtr, OA_MEM_KIND_HOST, NULL));
}

/* ---- copy validation ------------------------------------------------------------ */

typedef struct side {
    oa_mem_kind kind; /* NONE for pageable host memory */
    oa_mem_block blk;
} side;

static void classify(const void *p, side *s)
{
    if (!oa_mem_find(p, &s->blk)) {
        s->kind = OA_MEM_KIND_NONE;
        return;
    }
    s->kind = s->blk.kind;
}

/* Bytes of [p, p + n) that fit in the block, compared with n. */
static oa_status check_span(const side *s, const void *p, size_t n, const char *what)
{
    if (s->kind == OA_MEM_KIND_NONE) {
        return OA_OK;
    }
    size_t off = (size_t)((const char *)p - (const char *)s->blk.base);
    if (n > s->blk.size - off) {
        return OA_FAIL(OA_E_RT_PARAM,
                       "%s [%p]: %zu bytes do not fit in its allocation (base %p, size %zu, %zu bytes left)", what, p,
                       n, s->blk.base, s->blk.size, s->blk.size - off);
    }
    return OA_OK;
}

static const char *kind_str(aclrtMemcpyKind k)
{
    switch (k) {
    case ACL_MEMCPY_HOST_TO_HOST:
        return "ACL_MEMCPY_HOST_TO_HOST";
    case ACL_MEMCPY_HOST_TO_DEVICE:
        return "ACL_MEMCPY_HOST_TO_DEVICE";
    case ACL_MEMCPY_DEVICE_TO_HOST:
        return "ACL_MEMCPY_DEVICE_TO_HOST";
    case ACL_MEMCPY_DEVICE_TO_DEVICE:
        return "ACL_MEMCPY_DEVICE_TO_DEVICE";
    case ACL_MEMCPY_DEFAULT:
        return "ACL_MEMCPY_DEFAULT";
    case ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE:
        return "ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE";
    default:
        return "an unknown kind";
    }
}

static bool is_dev(const side *s)
{
    return s->kind == OA_MEM_KIND_DEVICE;
}

/*
 * Checks a copy of `dst_n`/`src_n` bytes and computes the effective kind.
 * [out] *effective: the corrected kind; *pageable: one side is pageable host
 * memory and the copy crosses host and device.
 */
static oa_status check_copy(void *dst, size_t dst_n, const void *src, size_t src_n, aclrtMemcpyKind kind,
                            aclrtMemcpyKind *effective, bool *pageable)
{
    side d, s;
    classify(dst, &d);
    classify(src, &s);
    oa_status st = check_span(&d, dst, dst_n, "destination");
    if (st == OA_OK) {
        st = check_span(&s, src, src_n, "source");
    }
    if (st != OA_OK) {
        return st;
    }
    aclrtMemcpyKind k = kind == ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE ? ACL_MEMCPY_HOST_TO_DEVICE : kind;
    bool known = d.kind != OA_MEM_KIND_NONE && s.kind != OA_MEM_KIND_NONE;
    aclrtMemcpyKind by_location = is_dev(&s) ? (is_dev(&d) ? ACL_MEMCPY_DEVICE_TO_DEVICE : ACL_MEMCPY_DEVICE_TO_HOST)
                                             : (is_dev(&d) ? ACL_MEMCPY_HOST_TO_DEVICE : ACL_MEMCPY_HOST_TO_HOST);
    if (known || k == ACL_MEMCPY_DEFAULT) {
        /* Both locations are known, or the app asked for detection: the locations decide. */
        k = by_location;
    } else {
        bool dst_claimed_dev = k == ACL_MEMCPY_HOST_TO_DEVICE || k == ACL_MEMCPY_DEVICE_TO_DEVICE;
        bool src_claimed_dev = k == ACL_MEMCPY_DEVICE_TO_HOST || k == ACL_MEMCPY_DEVICE_TO_DEVICE;
        bool ok = dst_claimed_dev == is_dev(&d) && src_claimed_dev == is_dev(&s);
        if (!ok) {
            return OA_FAIL(OA_E_RT_PARAM,
                           "copy kind %s does not match the memory: destination %p is %s, source %p is %s",
                           kind_str(kind), dst, is_dev(&d) ? "device memory" : "host memory", src,
                           is_dev(&s) ? "device memory" : "host memory");
        }
    }
    *effective = k;
    *pageable = (k == ACL_MEMCPY_HOST_TO_DEVICE || k == ACL_MEMCPY_DEVICE_TO_HOST) &&
                (d.kind == OA_MEM_KIND_NONE || s.kind == OA_MEM_KIND_NONE);
    return OA_OK;
}

static bool valid_copy_kind(aclrtMemcpyKind k)
{
    return k == ACL_MEMCPY_HOST_TO_HOST || k == ACL_MEMCPY_HOST_TO_DEVICE || k == ACL_MEMCPY_DEVICE_TO_HOST ||
           k == ACL_MEMCPY_DEVICE_TO_DEVICE || k == ACL_MEMCPY_DEFAULT || k == ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE;
}

/* ---- copy / fill tasks -------------------------------------------------------------- */

typedef struct copy_args {
    void *dst;
    const void *src;
    size_t n;
} copy_args;

static oa_status copy_run(void *args, const oa_task_exec *exec)
{
    (void)exec;
    copy_args *a = args;
    memmove(a->dst, a->src, a->n);
    return OA_OK;
}

typedef struct copy2d_args {
    char *dst;
    const char *src;
    size_t dpitch;
    size_t spitch;
    size_t width;
    size_t height;
} copy2d_args;

static void copy2d(const copy2d_args *a)
{
    for (size_t r = 0; r < a->height; ++r) {
        memmove(a->dst + r * a->dpitch, a->src + r * a->spitch, a->width);
    }
}

static oa_status copy2d_run(void *args, const oa_task_exec *exec)
{
    (void)exec;
    copy2d((const copy2d_args *)args);
    return OA_OK;
}

typedef struct fill_args {
    void *dst;
    size_t n;    /* bytes (8-bit fill) or words (32-bit fill) */
    uint32_t value;
    bool words;
} fill_args;

static void fill(const fill_args *a)
{
    if (!a->words) {
        memset(a->dst, (int)(uint8_t)a->value, a->n);
        return;
    }
    unsigned char *p = a->dst;
    for (size_t i = 0; i < a->n; ++i) {
        memcpy(p + i * 4u, &a->value, 4u);
    }
}

static oa_status fill_run(void *args, const oa_task_exec *exec)
{
    (void)exec;
    fill((const fill_args *)args);
    return OA_OK;
}

/* ---- copies ------------------------------------------------------------------------- */

static oa_status memcpy_sync(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind)
{
    if (destMax == 0) {
        return OA_FAIL(OA_E_RT_PARAM, "destMax must be greater than 0");
    }
    if (count > destMax) {
        return OA_FAIL(OA_E_RT_PARAM, "count [%zu] must be in (0, destMax %zu]", count, destMax);
    }
    int32_t dev = 0;
    oa_status st = current_device(&dev);
    if (st != OA_OK) {
        return st;
    }
    aclrtMemcpyKind eff;
    bool pageable;
    st = check_copy(dst, count, src, count, kind, &eff, &pageable);
    if (st == OA_OK) {
        st = oa_capture_check_sync_op("synchronous memory copy");
    }
    if (st != OA_OK) {
        return st;
    }
    if (dst != src) {
        memmove(dst, src, count);
    }
    return OA_OK;
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count,
                                         aclrtMemcpyKind kind)
{
    OA_PROF_API_SPAN(); /* ACL_PROF_ACL_API span (docs/profiling.md) */
    if (count == 0) {
        return ACL_SUCCESS;
    }
    ACL_REQUIRE_NOT_NULL(dst);
    ACL_REQUIRE_NOT_NULL(src);
    ACL_REQUIRE(valid_copy_kind(kind), OA_E_PARAM,
                "kind [%d] must be ACL_MEMCPY_HOST_TO_HOST, _HOST_TO_DEVICE, _DEVICE_TO_HOST, _DEVICE_TO_DEVICE, "
                "_DEFAULT or _HOST_TO_BUF_TO_DEVICE",
                (int)kind);
    ACL_RETURN_STATUS(memcpy_sync(dst, destMax, src, count, kind));
}

static oa_status memcpy_async(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind,
                              aclrtStream stream)
{
    if (count > destMax) {
        return OA_FAIL(OA_E_RT_PARAM, "count [%zu] must be in (0, destMax %zu]", count, destMax);
    }
    oa_stream *s = NULL;
    oa_status st = oa_stream_acquire(stream, &s);
    if (st != OA_OK) {
        return st;
    }
    aclrtMemcpyKind eff;
    bool pageable = false;
    st = check_copy(dst, count, src, count, kind, &eff, &pageable);
    if (st == OA_OK) {
        if (pageable) {
            /* CANN turns a copy involving pageable host memory into a stream sync plus a sync copy. */
            st = oa_capture_check_pageable_copy(s, "asynchronous memory copy");
            if (st == OA_OK) {
                st = oa_stream_synchronize(s, -1);
            }
            if (st == OA_OK && dst != src) {
                memmove(dst, src, count);
            }
        } else if (dst != src) {
            copy_args a = {.dst = dst, .src = src, .n = count};
            oa_task_desc d = {.kind = OA_TASK_KIND_MEMCPY, .run = copy_run, .args = &a, .args_size = sizeof(a)};
            st = oa_stream_submit(s, &d, NULL);
        }
    }
    oa_stream_release(s);
    return st;
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsync(void *dst, size_t destMax, const void *src, size_t count,
                                              aclrtMemcpyKind kind, aclrtStream stream)
{
    OA_PROF_API_SPAN(); /* ACL_PROF_ACL_API span (docs/profiling.md) */
    if (count == 0) {
        return ACL_SUCCESS;
    }
    ACL_REQUIRE_NOT_NULL(dst);
    ACL_REQUIRE_NOT_NULL(src);
    ACL_REQUIRE(valid_copy_kind(kind), OA_E_PARAM,
                "kind [%d] must be ACL_MEMCPY_HOST_TO_HOST, _HOST_TO_DEVICE, _DEVICE_TO_HOST, _DEVICE_TO_DEVICE, "
                "_DEFAULT or _HOST_TO_BUF_TO_DEVICE",
                (int)kind);
    ACL_RETURN_STATUS(memcpy_async(dst, destMax, src, count, kind, stream));
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsyncWithCondition(void *dst, size_t destMax, const void *src, size_t count,
                                                           aclrtMemcpyKind kind, aclrtStream stream)
{
    return aclrtMemcpyAsync(dst, destMax, src, count, kind, stream);
}

/* Bytes spanned by `height` rows of `width` bytes `pitch` apart. */
static bool span_2d(size_t pitch, size_t width, size_t height, size_t *out)
{
    size_t t;
    return oa_mul_size(pitch, height - 1, &t) && oa_add_size(t, width, out);
}

static oa_status check_2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                          aclrtMemcpyKind kind, bool async, aclrtMemcpyKind *eff, bool *pageable)
{
    if (height > MAX_2D_HEIGHT) {
        return OA_FAIL(OA_E_RT_PARAM, "height [%zu] must not exceed %u", height, MAX_2D_HEIGHT);
    }
    if (width > MAX_2D_WIDTH) {
        return OA_FAIL(OA_E_RT_PARAM, "width [%zu] must not exceed %u", width, MAX_2D_WIDTH);
    }
    if (!async && kind == ACL_MEMCPY_DEVICE_TO_DEVICE) {
        return OA_FAIL(OA_E_RT_FEATURE_NOT_SUPPORT, "aclrtMemcpy2d supports only host-to-device or device-to-host");
    }
    size_t dspan, sspan;
    if (!span_2d(dpitch, width, height, &dspan) || !span_2d(spitch, width, height, &sspan)) {
        return OA_FAIL(OA_E_RT_PARAM, "2D copy of %zu rows is too large", height);
    }
    oa_status st = check_copy(dst, dspan, src, sspan, kind, eff, pageable);
    if (st != OA_OK) {
        return st;
    }
    bool ok = *eff == ACL_MEMCPY_HOST_TO_DEVICE || *eff == ACL_MEMCPY_DEVICE_TO_HOST ||
              (async && *eff == ACL_MEMCPY_DEVICE_TO_DEVICE);
    if (!ok) {
        return OA_FAIL(OA_E_RT_PARAM, "%s supports only %s; the memory makes this copy %s",
                       async ? "aclrtMemcpy2dAsync" : "aclrtMemcpy2d",
                       async ? "host-to-device, device-to-host or device-to-device" : "host-to-device or device-to-host",
                       kind_str(*eff));
    }
    return OA_OK;
}

static bool valid_2d_kind(aclrtMemcpyKind k)
{
    return k == ACL_MEMCPY_HOST_TO_DEVICE || k == ACL_MEMCPY_DEVICE_TO_HOST || k == ACL_MEMCPY_DEVICE_TO_DEVICE ||
           k == ACL_MEMCPY_DEFAULT;
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpy2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                           size_t height, aclrtMemcpyKind kind)
{
    OA_PROF_API_SPAN(); /* ACL_PROF_ACL_API span (docs/profiling.md) */
    if (width == 0 || height == 0) {
        return ACL_SUCCESS;
    }
    ACL_REQUIRE_NOT_NULL(dst);
    ACL_REQUIRE_NOT_NULL(src);
    ACL_REQUIRE(width <= spitch && width <= dpitch, OA_E_PARAM,
                "width [%zu] must not exceed spitch [%zu] and dpitch [%zu]", width, spitch, dpitch);
    ACL_REQUIRE(valid_2d_kind(kind), OA_E_PARAM,
                "kind [%d] must be ACL_MEMCPY_HOST_TO_DEVICE, _DEVICE_TO_HOST, _DEVICE_TO_DEVICE or _DEFAULT",
                (int)kind);
    int32_t dev = 0;
    oa_status st = current_device(&dev);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    aclrtMemcpyKind eff;
    bool pageable;
    st = check_2d(dst, dpitch, src, spitch, width, height, kind, false, &eff, &pageable);
    if (st == OA_OK) {
        st = oa_capture_check_sync_op("synchronous 2D memory copy");
    }
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    copy2d_args a = {.dst = dst, .src = src, .dpitch = dpitch, .spitch = spitch, .width = width, .height = height};
    copy2d(&a);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpy2dAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                                                size_t width, size_t height, aclrtMemcpyKind kind, aclrtStream stream)
{
    OA_PROF_API_SPAN(); /* ACL_PROF_ACL_API span (docs/profiling.md) */
    if (width == 0 || height == 0) {
        return ACL_SUCCESS;
    }
    ACL_REQUIRE_NOT_NULL(dst);
    ACL_REQUIRE_NOT_NULL(src);
    ACL_REQUIRE(width <= spitch && width <= dpitch, OA_E_PARAM,
                "width [%zu] must not exceed spitch [%zu] and dpitch [%zu]", width, spitch, dpitch);
    ACL_REQUIRE(valid_2d_kind(kind), OA_E_PARAM,
                "kind [%d] must be ACL_MEMCPY_HOST_TO_DEVICE, _DEVICE_TO_HOST, _DEVICE_TO_DEVICE or _DEFAULT",
                (int)kind);
    oa_stream *s = NULL;
    oa_status st = oa_stream_acquire(stream, &s);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    aclrtMemcpyKind eff;
    bool pageable = false;
    st = check_2d(dst, dpitch, src, spitch, width, height, kind, true, &eff, &pageable);
    if (st == OA_OK) {
        copy2d_args a = {.dst = dst, .src = src, .dpitch = dpitch, .spitch = spitch, .width = width, .height = height};
        if (pageable) {
            st = oa_capture_check_pageable_copy(s, "asynchronous 2D memory copy");
            if (st == OA_OK) {
                st = oa_stream_synchronize(s, -1);
            }
            if (st == OA_OK) {
                copy2d(&a);
            }
        } else {
            oa_task_desc d = {.kind = OA_TASK_KIND_MEMCPY, .run = copy2d_run, .args = &a, .args_size = sizeof(a)};
            st = oa_stream_submit(s, &d, NULL);
        }
    }
    oa_stream_release(s);
    ACL_RETURN_STATUS(st);
}

/* ---- fills ---------------------------------------------------------------------------- */

/* A fill target must be memory of the runtime (device, page-locked or registered host) holding n bytes. */
static oa_status check_fill(void *p, size_t n)
{
    side s;
    classify(p, &s);
    if (s.kind == OA_MEM_KIND_NONE) {
        return OA_FAIL(OA_E_RT_PARAM,
                       "address [%p] is not memory allocated by aclrtMalloc or aclrtMallocHost (or registered)", p);
    }
    return check_span(&s, p, n, "address");
}

static oa_status memset_common(void *devPtr, size_t maxCount, int32_t value, size_t count, aclrtStream stream,
                               bool async)
{
    if (count > maxCount) {
        return OA_FAIL(OA_E_RT_PARAM, "count [%zu] must be in (0, maxCount %zu]", count, maxCount);
    }
    fill_args a = {.dst = devPtr, .n = count, .value = (uint32_t)(uint8_t)value, .words = false};
    if (!async) {
        int32_t dev = 0;
        oa_status st = current_device(&dev);
        if (st == OA_OK) {
            st = check_fill(devPtr, count);
        }
        if (st == OA_OK) {
            st = oa_capture_check_sync_op("memory setting synchronization");
        }
        if (st == OA_OK) {
            fill(&a);
        }
        return st;
    }
    oa_stream *s = NULL;
    oa_status st = oa_stream_acquire(stream, &s);
    if (st != OA_OK) {
        return st;
    }
    st = check_fill(devPtr, count);
    if (st == OA_OK) {
        oa_task_desc d = {.kind = OA_TASK_KIND_MEMSET, .run = fill_run, .args = &a, .args_size = sizeof(a)};
        st = oa_stream_submit(s, &d, NULL);
    }
    oa_stream_release(s);
    return st;
}

ACL_FUNC_VISIBILITY aclError aclrtMemset(void *devPtr, size_t maxCount, int32_t value, size_t count)
{
    OA_PROF_API_SPAN(); /* ACL_PROF_ACL_API span (docs/profiling.md) */
    if (count == 0) {
        return ACL_SUCCESS;
    }
    ACL_REQUIRE_NOT_NULL(devPtr);
    ACL_RETURN_STATUS(memset_common(devPtr, maxCount, value, count, NULL, false));
}

ACL_FUNC_VISIBILITY aclError aclrtMemsetAsync(void *devPtr, size_t maxCount, int32_t value, size_t count,
                                              aclrtStream stream)
{
    OA_PROF_API_SPAN(); /* ACL_PROF_ACL_API span (docs/profiling.md) */
    if (count == 0) {
        return ACL_SUCCESS;
    }
    ACL_REQUIRE_NOT_NULL(devPtr);
    ACL_RETURN_STATUS(memset_common(devPtr, maxCount, value, count, stream, true));
}

static oa_status memset_d32(void *ptr, size_t memSize, uint32_t value, size_t n, aclrtStream stream, bool async)
{
    if (((uintptr_t)ptr & 3u) != 0) {
        return OA_FAIL(OA_E_PARAM, "pointer [%p] is not 4-byte aligned", ptr);
    }
    size_t bytes;
    if (!oa_mul_size(n, 4u, &bytes) || bytes > memSize) {
        return OA_FAIL(OA_E_PARAM, "N [%zu] x 4 bytes exceeds memSize [%zu]", n, memSize);
    }
    side s;
    classify(ptr, &s);
    if (s.kind == OA_MEM_KIND_NONE) {
        return OA_FAIL(OA_E_PARAM, "only memory allocated by aclrtMalloc or aclrtMallocHost is supported, not [%p]",
                       ptr);
    }
    fill_args a = {.dst = ptr, .n = n, .value = value, .words = true};
    if (!async) {
        int32_t dev = 0;
        oa_status st = current_device(&dev);
        if (st == OA_OK) {
            st = check_span(&s, ptr, bytes, "address");
        }
        if (st == OA_OK) {
            st = oa_capture_check_sync_op("memory setting synchronization");
        }
        if (st == OA_OK) {
            fill(&a);
        }
        return st;
    }
    oa_stream *stm = NULL;
    oa_status st = oa_stream_acquire(stream, &stm);
    if (st != OA_OK) {
        return st;
    }
    st = check_span(&s, ptr, bytes, "address");
    if (st == OA_OK) {
        oa_task_desc d = {.kind = OA_TASK_KIND_MEMSET, .run = fill_run, .args = &a, .args_size = sizeof(a)};
        st = oa_stream_submit(stm, &d, NULL);
    }
    oa_stream_release(stm);
    return st;
}

ACL_FUNC_VISIBILITY aclError aclrtMemsetD32(void *ptr, size_t memSize, uint32_t value, size_t N)
{
    if (N == 0) {
        return ACL_SUCCESS;
    }
    ACL_REQUIRE_NOT_NULL(ptr);
    ACL_RETURN_STATUS(memset_d32(ptr, memSize, value, N, NULL, false));
}

ACL_FUNC_VISIBILITY aclError aclrtMemsetD32Async(void *ptr, size_t memSize, uint32_t value, size_t N,
                                                 aclrtStream stream)
{
    if (N == 0) {
        return ACL_SUCCESS;
    }
    ACL_REQUIRE_NOT_NULL(ptr);
    ACL_RETURN_STATUS(memset_d32(ptr, memSize, value, N, stream, true));
}

/* ---- information ------------------------------------------------------------------------ */

ACL_FUNC_VISIBILITY aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t *free, size_t *total)
{
    ACL_REQUIRE_NOT_NULL(free);
    ACL_REQUIRE_NOT_NULL(total);
    ACL_REQUIRE((int)attr >= ACL_DDR_MEM && (int)attr <= ACL_MEM_P2P_HUGE1G, OA_E_RT_INVALID_MEMORY_TYPE,
                "memory attribute [%d] must be in [%d, %d]", (int)attr, ACL_DDR_MEM, ACL_MEM_P2P_HUGE1G);
    int32_t dev = 0;
    oa_status st = current_device(&dev);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    oa_mem_usage u;
    oa_mem_get_usage(dev, OA_MEM_KIND_DEVICE, &u);
    size_t cap = oa_mem_device_capacity();
    *total = cap;
    *free = u.bytes >= cap ? 0 : cap - u.bytes;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetMemUsageInfo(int32_t deviceId, aclrtMemUsageInfo *memUsageInfo, size_t inputNum,
                                                  size_t *outputNum)
{
    ACL_REQUIRE_NOT_NULL(memUsageInfo);
    ACL_REQUIRE_NOT_NULL(outputNum);
    oa_status st = oa_rt_check_device_id(deviceId, OA_E_RT_DEVICE_ID);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    size_t n = 0;
    if (inputNum > 0) {
        oa_mem_usage u;
        oa_mem_get_usage(deviceId, OA_MEM_KIND_DEVICE, &u);
        memset(&memUsageInfo[0], 0, sizeof(memUsageInfo[0]));
        oa_strlcpy(memUsageInfo[0].name, "APP", sizeof(memUsageInfo[0].name));
        memUsageInfo[0].curMemSize = u.bytes;
        memUsageInfo[0].memPeakSize = u.peak;
        n = 1;
    }
    *outputNum = n;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtPointerGetAttributes(const void *ptr, aclrtPtrAttributes *attributes)
{
    ACL_REQUIRE_NOT_NULL(ptr);
    ACL_REQUIRE_NOT_NULL(attributes);
    memset(attributes, 0, sizeof(*attributes));
    side s;
    classify(ptr, &s);
    uint32_t page = (uint32_t)sysconf(_SC_PAGESIZE);
    switch (s.kind) {
    case OA_MEM_KIND_DEVICE:
        attributes->location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
        attributes->location.id = (uint32_t)s.blk.device_id;
        attributes->pageSize = (s.blk.flags & OA_MEM_F_HUGE) != 0 && s.blk.size >= HUGE_PAGE_SIZE ? HUGE_PAGE_SIZE
                                                                                                  : page;
        break;
    case OA_MEM_KIND_HOST:
    case OA_MEM_KIND_REGISTERED:
        attributes->location.type = ACL_MEM_LOCATION_TYPE_HOST;
        attributes->location.id = 0;
        attributes->pageSize = page;
        break;
    default:
        attributes->location.type = ACL_MEM_LOCATION_TYPE_UNREGISTERED;
        attributes->location.id = 0;
        attributes->pageSize = page;
        break;
    }
    return ACL_SUCCESS;
}

/*
 * Device memory and DVPP memory are the same on the CPU (acldvppMalloc
 * allocates device memory), so both bits accept any device allocation; no
 * address range is ever reserved (virtual memory management is not
 * supported), so the reserved bit accepts nothing. Reserved-address bit: the
 * header's ACL_RT_MEM_TYPE_RSVD (0x10) and the value CANN's runtime checks
 * for (0x20) are both accepted.
 */
#define MEM_TYPE_RSVD_RT 0x20u

ACL_FUNC_VISIBILITY aclError aclrtCheckMemType(void **addrList, uint32_t size, uint32_t memType, uint32_t *checkResult,
                                               uint32_t reserve)
{
    ACL_REQUIRE_NOT_NULL(addrList);
    ACL_REQUIRE_NOT_NULL(checkResult);
    *checkResult = 0;
    ACL_REQUIRE(reserve == 0, OA_E_RT_PARAM, "reserve [%u] must be 0", reserve);
    ACL_REQUIRE(size > 0, OA_E_RT_PARAM, "size [%u] must be greater than 0", size);
    const uint32_t known = ACL_RT_MEM_TYPE_DEV | ACL_RT_MEM_TYPE_DVPP | ACL_RT_MEM_TYPE_RSVD | MEM_TYPE_RSVD_RT;
    ACL_REQUIRE((memType & ~known) == 0, OA_E_RT_PARAM,
                "memType [%#x] must be an OR of ACL_RT_MEM_TYPE_DEV, ACL_RT_MEM_TYPE_DVPP and ACL_RT_MEM_TYPE_RSVD",
                memType);
    int32_t dev = 0;
    oa_status st = current_device(&dev);
    if (st != OA_OK) {
        ACL_RETURN_STATUS(st);
    }
    bool device_ok = (memType & (ACL_RT_MEM_TYPE_DEV | ACL_RT_MEM_TYPE_DVPP)) != 0;
    for (uint32_t i = 0; i < size; i++) {
        side s;
        classify(addrList[i], &s);
        if (!(device_ok && s.kind == OA_MEM_KIND_DEVICE)) {
            return ACL_SUCCESS;
        }
    }
    *checkResult = 1;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMemGetAddressRange(void *ptr, void **pbase, size_t *psize)
{
    ACL_REQUIRE_NOT_NULL(ptr);
    side s;
    classify(ptr, &s);
    ACL_REQUIRE(s.kind != OA_MEM_KIND_NONE, OA_E_RT_PARAM, "address [%p] is not in any allocation of the runtime",
                ptr);
    if (pbase != NULL) {
        *pbase = s.blk.base;
    }
    if (psize != NULL) {
        *psize = s.blk.size;
    }
    return ACL_SUCCESS;
}

/* ---- host registration -------------------------------------------------------------------- */

static oa_status host_register(void *ptr, uint64_t size, uint32_t flags)
{
    if (size > SIZE_MAX) {
        return OA_FAIL(OA_E_RT_PARAM, "size [%llu] is too large", (unsigned long long)size);
    }
    int32_t dev = 0;
    oa_status st = current_device(&dev);
    if (st != OA_OK) {
        return st;
    }
    return oa_mem_register(ptr, (size_t)size, dev, flags);
}

ACL_FUNC_VISIBILITY aclError aclrtHostRegister(void *ptr, uint64_t size, aclrtHostRegisterType type, void **devPtr)
{
    ACL_REQUIRE_NOT_NULL(ptr);
    ACL_REQUIRE_NOT_NULL(devPtr);
    ACL_REQUIRE(size > 0, OA_E_PARAM, "size [%llu] must be greater than 0", (unsigned long long)size);
    ACL_REQUIRE(type == ACL_HOST_REGISTER_MAPPED || type == ACL_HOST_REGISTER_IOMEMORY ||
                    type == ACL_HOST_REGISTER_READONLY,
                OA_E_RT_PARAM, "type [%d] must be ACL_HOST_REGISTER_MAPPED, _IOMEMORY or _READONLY", (int)type);
    oa_status st = host_register(ptr, size, type == ACL_HOST_REGISTER_READONLY ? OA_MEM_F_READONLY : 0);
    if (st == OA_OK) {
        /* The device sees host memory at the same address. */
        *devPtr = ptr;
    }
    ACL_RETURN_STATUS(st);
}

ACL_FUNC_VISIBILITY aclError aclrtHostRegisterV2(void *ptr, uint64_t size, uint32_t flag)
{
    ACL_REQUIRE_NOT_NULL(ptr);
    ACL_REQUIRE(size > 0, OA_E_PARAM, "size [%llu] must be greater than 0", (unsigned long long)size);
    const uint32_t known = (uint32_t)(ACL_HOST_REG_MAPPED | ACL_HOST_REG_IOMEMORY | ACL_HOST_REG_READONLY |
                                      ACL_HOST_REG_PINNED);
    ACL_REQUIRE((flag & ~known) == 0, OA_E_RT_PARAM,
                "flag [%#x] must be an OR of ACL_HOST_REG_MAPPED, _IOMEMORY, _READONLY and _PINNED", flag);
    ACL_RETURN_STATUS(host_register(ptr, size, (flag & ACL_HOST_REG_READONLY) != 0 ? OA_MEM_F_READONLY : 0));
}

ACL_FUNC_VISIBILITY aclError aclrtHostGetDevicePointer(void *pHost, void **pDevice, uint32_t flag)
{
    ACL_REQUIRE_NOT_NULL(pHost);
    ACL_REQUIRE_NOT_NULL(pDevice);
    ACL_REQUIRE(flag == 0, OA_E_PARAM, "flag [%u] is reserved and must be 0", flag);
    side s;
    classify(pHost, &s);
    ACL_REQUIRE(s.kind == OA_MEM_KIND_REGISTERED || s.kind == OA_MEM_KIND_HOST, OA_E_RT_HOST_MEM_NOT_REGISTERED,
                "host address [%p] is neither registered nor allocated by aclrtMallocHost", pHost);
    *pDevice = pHost;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtHostUnregister(void *ptr)
{
    ACL_REQUIRE_NOT_NULL(ptr);
    ACL_RETURN_STATUS(oa_mem_unregister(ptr));
}

ACL_FUNC_VISIBILITY aclError aclrtMemFlush(void *devPtr, size_t size)
{
    ACL_REQUIRE_NOT_NULL(devPtr);
    ACL_REQUIRE(size > 0, OA_E_PARAM, "size [%zu] must be greater than 0", size);
    /* Host and "device" share one coherent memory: nothing to write back. */
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMemInvalidate(void *devPtr, size_t size)
{
    ACL_REQUIRE_NOT_NULL(devPtr);
    ACL_REQUIRE(size > 0, OA_E_PARAM, "size [%zu] must be greater than 0", size);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMallocForTaskScheduler(void **devPtr, size_t size, aclrtMemMallocPolicy policy,
                                                         aclrtMallocConfig *cfg)
{
    /* The same memory as aclrtMallocWithCfg: the "task scheduler" is this process. */
    return aclrtMallocWithCfg(devPtr, size, policy, cfg);
}

/* ---- stream-ordered value write / wait ----------------------------------------------- */

static oa_status value_write_run(void *args, const oa_task_exec *exec)
{
    (void)exec;
    oa_value_args *a = args;
    __atomic_store_n(a->addr, a->value, __ATOMIC_RELEASE);
    return OA_OK;
}

static bool value_ready(uint64_t cur, uint64_t want, uint32_t flag)
{
    switch (flag) {
    case ACL_STREAM_WAIT_VALUE_GEQ:
        return cur >= want;
    case ACL_STREAM_WAIT_VALUE_EQ:
        return cur == want;
    case ACL_STREAM_WAIT_VALUE_AND:
        return (cur & want) != 0;
    default: /* ACL_STREAM_WAIT_VALUE_NOR */
        return ~(cur | want) != 0;
    }
}

static oa_status value_wait_run(void *args, const oa_task_exec *exec)
{
    oa_value_args *a = args;
    /* Another stream or the host changes the value: poll it, sleeping between looks. */
    const struct timespec nap = {0, 100 * 1000};
    while (!value_ready(__atomic_load_n(a->addr, __ATOMIC_ACQUIRE), a->value, a->flag)) {
        if (__atomic_load_n(&exec->stream->aborting, __ATOMIC_ACQUIRE)) {
            break;
        }
        nanosleep(&nap, NULL);
    }
    return OA_OK;
}

static oa_status value_task(void *devAddr, uint64_t value, uint32_t flag, aclrtStream stream, bool wait)
{
    side s;
    classify(devAddr, &s);
    if (s.kind != OA_MEM_KIND_DEVICE) {
        return OA_FAIL(OA_E_RT_PARAM, "address [%p] is not device memory", devAddr);
    }
    oa_status st = check_span(&s, devAddr, sizeof(uint64_t), "address");
    if (st == OA_OK && ((uintptr_t)devAddr & 7u) != 0) {
        st = OA_FAIL(OA_E_RT_PARAM, "address [%p] is not 8-byte aligned", devAddr);
    }
    if (st != OA_OK) {
        return st;
    }
    oa_stream *stm = NULL;
    st = oa_stream_acquire(stream, &stm);
    if (st != OA_OK) {
        return st;
    }
    oa_value_args a = {.addr = devAddr, .value = value, .flag = flag};
    oa_task_desc d = {.kind = wait ? OA_TASK_KIND_VALUE_WAIT : OA_TASK_KIND_VALUE_WRITE,
                      .run = wait ? value_wait_run : value_write_run,
                      .args = &a,
                      .args_size = sizeof(a)};
    st = oa_stream_submit(stm, &d, NULL);
    oa_stream_release(stm);
    return st;
}

ACL_FUNC_VISIBILITY aclError aclrtValueWrite(void *devAddr, uint64_t value, uint32_t flag, aclrtStream stream)
{
    ACL_REQUIRE_NOT_NULL(devAddr);
    ACL_REQUIRE(flag == 0, OA_E_RT_PARAM, "flag [%u] must be 0", flag);
    ACL_RETURN_STATUS(value_task(devAddr, value, flag, stream, false));
}

ACL_FUNC_VISIBILITY aclError aclrtValueWait(void *devAddr, uint64_t value, uint32_t flag, aclrtStream stream)
{
    ACL_REQUIRE_NOT_NULL(devAddr);
    ACL_REQUIRE(flag <= ACL_STREAM_WAIT_VALUE_NOR, OA_E_RT_PARAM, "flag [%u] must be an ACL_STREAM_WAIT_VALUE_* value",
                flag);
    ACL_RETURN_STATUS(value_task(devAddr, value, flag, stream, true));
}

ACL_FUNC_VISIBILITY aclError aclrtCmoAsync(void *src, size_t size, aclrtCmoType cmoType, aclrtStream stream)
{
    ACL_REQUIRE_NOT_NULL(src);
    ACL_REQUIRE(size > 0, OA_E_PARAM, "size [%zu] must be greater than 0", size);
    ACL_REQUIRE((unsigned)cmoType <= ACL_RT_CMO_TYPE_FLUSH, OA_E_RT_PARAM, "cmoType [%d] is invalid", (int)cmoType);
    oa_stream *s = NULL;
    oa_status st = oa_stream_acquire(stream, &s);
    if (st != OA_OK) {
        return oa_status_to_acl(st);
    }
    /* Cache maintenance has nothing to do on one coherent memory. */
    oa_stream_release(s);
    return ACL_SUCCESS;
}
