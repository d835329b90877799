/*
 * acl_tdt_queue.h as in-process FIFOs of shared buffers.
 *
 * - acltdtCreateQueue: depth in [2, 8192] (default 8), name up to 127 chars;
 *   qids are the lowest free numbers.
 * - acltdtEnqueue/acltdtDequeue move buffer chains (ownership passes to the
 *   queue and back); when the timeout expires they fail with
 *   ACL_ERROR_FAILURE, as CANN's retry loop does. acltdtEnqueueData /
 *   acltdtDequeueData copy bytes (and up to 96 bytes of user data) and report
 *   ACL_ERROR_RT_QUEUE_FULL / ACL_ERROR_RT_QUEUE_EMPTY on timeout.
 * - Routes: a bound route src -> dst forwards every buffer entering src to
 *   dst (to each dst of src, by reference) as soon as all of them have room.
 *   A queue with bound routes cannot be destroyed (ACL_ERROR_FAILURE).
 * - Permissions: the creating process has MANAGE | DEQUEUE | ENQUEUE;
 *   acltdtGrantQueue records permissions for a pid, acltdtAttachQueue
 *   reports the caller's. (CANN's host build answers "feature unsupported".)
 * - Unknown qids are ACL_ERROR_RT_PARAM_INVALID.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl_tdt_queue.h"
#include "base/acl_check.h"
#include "base/util.h"
#include "tdt/tdt_internal.h"

#define DEFAULT_DEPTH 8u
#define MAX_GRANTS 64

struct tagMemQueueAttr {
    char name[OA_TDT_NAME_MAX];
    uint32_t depth;
    uint32_t workMode;
    bool flowCtrlFlag;
    uint32_t flowCtrlDropTime;
    bool overWriteFlag;
};

struct acltdtQueueRoute {
    uint32_t srcId;
    uint32_t dstId;
    int32_t status;
};

struct acltdtQueueRouteList {
    acltdtQueueRoute *routes;
    size_t count;
    size_t cap;
};

struct acltdtQueueRouteQueryInfo {
    int32_t mode;
    uint32_t srcId;
    uint32_t dstId;
    bool isConfigSrc;
    bool isConfigDst;
    bool isConfigMode;
};

typedef struct grant {
    int32_t pid;
    uint32_t permission;
} grant;

typedef struct queue {
    uint32_t id;
    char name[OA_TDT_NAME_MAX];
    uint32_t depth;
    oa_mbuf **ring;
    size_t head;
    size_t count;
    grant grants[MAX_GRANTS];
    size_t grant_count;
} queue;

typedef struct bound_route {
    uint32_t src;
    uint32_t dst;
} bound_route;

static queue **g_queues;
static size_t g_queue_cap;
static bound_route *g_routes;
static size_t g_route_count;
static size_t g_route_cap;

static queue *find_queue_locked(uint32_t qid)
{
    return qid < g_queue_cap ? g_queues[qid] : NULL;
}

static bool q_full(const queue *q)
{
    return q->count >= q->depth;
}

static void q_push(queue *q, oa_mbuf *m)
{
    q->ring[(q->head + q->count) % q->depth] = m;
    ++q->count;
}

static oa_mbuf *q_pop(queue *q)
{
    oa_mbuf *m = q->ring[q->head];
    q->head = (q->head + 1) % q->depth;
    --q->count;
    return m;
}

/* Moves buffers along bound routes until nothing can move (lock held). */
static void pump_locked(void)
{
    bool moved = true;
    while (moved) {
        moved = false;
        for (size_t i = 0; i < g_route_count; ++i) {
            queue *src = find_queue_locked(g_routes[i].src);
            if (src == NULL || src->count == 0) {
                continue;
            }
            /* every destination of this source must have room */
            bool room = true;
            size_t ndst = 0;
            for (size_t j = 0; j < g_route_count; ++j) {
                if (g_routes[j].src == src->id) {
                    const queue *dst = find_queue_locked(g_routes[j].dst);
                    room = room && dst != NULL && !q_full(dst);
                    ++ndst;
                }
            }
            if (!room || ndst == 0) {
                continue;
            }
            oa_mbuf *m = q_pop(src);
            size_t sent = 0;
            for (size_t j = 0; j < g_route_count; ++j) {
                if (g_routes[j].src != src->id) {
                    continue;
                }
                queue *dst = find_queue_locked(g_routes[j].dst);
                oa_mbuf *item = m;
                if (++sent < ndst && oa_mbuf_copy_ref_locked(m, &item) != OA_OK) {
                    continue; /* extra destinations get a reference copy; none when out of memory */
                }
                q_push(dst, item);
            }
            moved = true;
        }
    }
    oa_tdt_broadcast();
}

/* ---- queue attributes ---- */

static void default_attr(acltdtQueueAttr *a)
{
    memset(a, 0, sizeof(*a));
    a->depth = DEFAULT_DEPTH;
}

ACL_FUNC_VISIBILITY acltdtQueueAttr *acltdtCreateQueueAttr(void)
{
    acltdtQueueAttr *a = malloc(sizeof(*a));
    ACL_REQUIRE_RET(a != NULL, NULL, "cannot allocate a queue attribute");
    default_attr(a);
    return a;
}

ACL_FUNC_VISIBILITY aclError acltdtDestroyQueueAttr(const acltdtQueueAttr *attr)
{
    ACL_REQUIRE_NOT_NULL(attr);
    free((void *)(uintptr_t)attr);
    return ACL_SUCCESS;
}

/* CANN's parameter copy: fails when the source is longer than the destination. */
static oa_status copy_param(const void *src, size_t src_len, void *dst, size_t dst_len, size_t *copied)
{
    if (src_len > dst_len) {
        return OA_FAIL(OA_E_PARAM, "length %zu must not be larger than %zu", src_len, dst_len);
    }
    memcpy(dst, src, src_len);
    if (copied != NULL) {
        *copied = src_len;
    }
    return OA_OK;
}

ACL_FUNC_VISIBILITY aclError acltdtSetQueueAttr(acltdtQueueAttr *attr, acltdtQueueAttrType type, size_t len,
                                                const void *param)
{
    ACL_REQUIRE_NOT_NULL(attr);
    ACL_REQUIRE_NOT_NULL(param);
    switch (type) {
    case ACL_TDT_QUEUE_NAME_PTR: {
        const char *name = NULL;
        oa_status st = copy_param(param, len, (void *)&name, sizeof(name), NULL);
        if (st != OA_OK) {
            ACL_RETURN_STATUS(st);
        }
        ACL_REQUIRE(name != NULL, OA_E_PARAM, "queue name must not be null");
        const size_t n = strnlen(name, OA_TDT_NAME_MAX);
        ACL_REQUIRE(n + 1 <= OA_TDT_NAME_MAX, OA_E_PARAM, "queue name length %zu must be in [0, %u]", n + 1,
                    OA_TDT_NAME_MAX);
        memcpy(attr->name, name, n + 1);
        return ACL_SUCCESS;
    }
    case ACL_TDT_QUEUE_DEPTH_UINT32:
        ACL_RETURN_STATUS(copy_param(param, len, &attr->depth, sizeof(attr->depth), NULL));
    default:
        break;
    }
    ACL_RETURN_STATUS(OA_FAIL(OA_E_PARAM, "invalid acltdtQueueAttrType %d", (int)type));
}

ACL_FUNC_VISIBILITY aclError acltdtGetQueueAttr(const acltdtQueueAttr *attr, acltdtQueueAttrType type, size_t len,
                                                size_t *paramRetSize, void *param)
{
    ACL_REQUIRE_NOT_NULL(attr);
    ACL_REQUIRE_NOT_NULL(param);
    ACL_REQUIRE_NOT_NULL(paramRetSize);
    switch (type) {
    case ACL_TDT_QUEUE_NAME_PTR: {
        const char *name = attr->name;
        ACL_RETURN_STATUS(copy_param(&name, sizeof(name), param, len, paramRetSize));
    }
    case ACL_TDT_QUEUE_DEPTH_UINT32:
        ACL_RETURN_STATUS(copy_param(&attr->depth, sizeof(attr->depth), param, len, paramRetSize));
    default:
        break;
    }
    ACL_RETURN_STATUS(OA_FAIL(OA_E_PARAM, "invalid acltdtQueueAttrType %d", (int)type));
}

/* ---- queues ---- */

ACL_FUNC_VISIBILITY aclError acltdtCreateQueue(const acltdtQueueAttr *attr, uint32_t *qid)
{
    ACL_REQUIRE_NOT_NULL(qid);
    acltdtQueueAttr a;
    if (attr == NULL) {
        default_attr(&a);
    } else {
        a = *attr;
    }
    ACL_REQUIRE(a.depth >= OA_TDT_DEPTH_MIN && a.depth <= OA_TDT_DEPTH_MAX, OA_E_RT_PARAM,
                "queue depth %u must be in [%u, %u]", a.depth, OA_TDT_DEPTH_MIN, OA_TDT_DEPTH_MAX);
    queue *q = calloc(1, sizeof(*q));
    oa_mbuf **ring = calloc(a.depth, sizeof(oa_mbuf *));
    if (q == NULL || ring == NULL) {
        free(q);
        free(ring);
        ACL_RETURN_STATUS(OA_FAIL(OA_E_RT_MEMORY_ALLOCATION, "cannot allocate a queue of depth %u", a.depth));
    }
    memcpy(q->name, a.name, sizeof(q->name));
    q->name[sizeof(q->name) - 1] = '\0';
    q->depth = a.depth;
    q->ring = ring;
    q->grants[0].pid = (int32_t)getpid();
    q->grants[0].permission =
        ACL_TDT_QUEUE_PERMISSION_MANAGE | ACL_TDT_QUEUE_PERMISSION_DEQUEUE | ACL_TDT_QUEUE_PERMISSION_ENQUEUE;
    q->grant_count = 1;
    oa_tdt_lock();
    size_t slot = g_queue_cap;
    for (size_t i = 0; i < g_queue_cap; ++i) {
        if (g_queues[i] == NULL) {
            slot = i;
            break;
        }
    }
    oa_status st = OA_OK;
    if (slot == g_queue_cap) {
        const size_t ncap = g_queue_cap == 0 ? 16 : g_queue_cap * 2;
        queue **n = realloc(g_queues, ncap * sizeof(*n));
        if (n == NULL) {
            st = OA_FAIL(OA_E_RT_MEMORY_ALLOCATION, "cannot grow the queue table");
        } else {
            memset(n + g_queue_cap, 0, (ncap - g_queue_cap) * sizeof(*n));
            g_queues = n;
            g_queue_cap = ncap;
        }
    }
    if (st == OA_OK) {
        q->id = (uint32_t)slot;
        g_queues[slot] = q;
        *qid = q->id;
    }
    oa_tdt_unlock();
    if (st != OA_OK) {
        free(ring);
        free(q);
    }
    ACL_RETURN_STATUS(st);
}

static bool has_routes_locked(uint32_t qid)
{
    for (size_t i = 0; i < g_route_count; ++i) {
        if (g_routes[i].src == qid || g_routes[i].dst == qid) {
            return true;
        }
    }
    return false;
}

ACL_FUNC_VISIBILITY aclError acltdtDestroyQueue(uint32_t qid)
{
    oa_tdt_lock();
    queue *q = find_queue_locked(qid);
    oa_status st = OA_OK;
    if (q == NULL) {
        st = OA_FAIL(OA_E_RT_PARAM, "queue %u does not exist", qid);
    } else if (has_routes_locked(qid)) {
        st = OA_FAIL(OA_E_FAILURE, "queue %u can not be destroyed, it needs to be unbound first", qid);
    } else {
        while (q->count > 0) {
            oa_mbuf_free_chain_locked(q_pop(q));
        }
        g_queues[qid] = NULL;
        free(q->ring);
        free(q);
        oa_tdt_broadcast();
    }
    oa_tdt_unlock();
    ACL_RETURN_STATUS(st);
}

ACL_FUNC_VISIBILITY aclError acltdtEnqueue(uint32_t qid, acltdtBuf buf, int32_t timeout)
{
    ACL_REQUIRE_NOT_NULL(buf);
    const oa_tdt_deadline dl = oa_tdt_deadline_after(timeout);
    oa_tdt_lock();
    oa_status st = OA_OK;
    for (;;) {
        queue *q = find_queue_locked(qid);
        if (q == NULL) {
            st = OA_FAIL(OA_E_RT_PARAM, "queue %u does not exist", qid);
            break;
        }
        if (!oa_mbuf_live_locked(buf) || ((oa_mbuf *)buf)->in_chain) {
            st = OA_FAIL(OA_E_RT_PARAM, "buf %p is not a live buffer chain head", buf);
            break;
        }
        if (!q_full(q)) {
            q_push(q, buf);
            pump_locked();
            break;
        }
        if (!oa_tdt_wait(&dl)) {
            st = OA_FAIL(OA_E_FAILURE, "queue %u is still full after %d ms", qid, (int)timeout);
            break;
        }
    }
    oa_tdt_unlock();
    ACL_RETURN_STATUS(st);
}

ACL_FUNC_VISIBILITY aclError acltdtDequeue(uint32_t qid, acltdtBuf *buf, int32_t timeout)
{
    ACL_REQUIRE_NOT_NULL(buf);
    const oa_tdt_deadline dl = oa_tdt_deadline_after(timeout);
    oa_tdt_lock();
    oa_status st = OA_OK;
    for (;;) {
        queue *q = find_queue_locked(qid);
        if (q == NULL) {
            st = OA_FAIL(OA_E_RT_PARAM, "queue %u does not exist", qid);
            break;
        }
        if (q->count > 0) {
            *buf = q_pop(q);
            pump_locked();
            break;
        }
        if (!oa_tdt_wait(&dl)) {
            st = OA_FAIL(OA_E_FAILURE, "queue %u is still empty after %d ms", qid, (int)timeout);
            break;
        }
    }
    oa_tdt_unlock();
    ACL_RETURN_STATUS(st);
}

ACL_FUNC_VISIBILITY aclError acltdtEnqueueData(uint32_t qid, const void *data, size_t dataSize, const void *userData,
                                               size_t userDataSize, int32_t timeout, uint32_t rsv)
{
    OA_UNUSED(rsv);
    ACL_REQUIRE_NOT_NULL(data);
    ACL_REQUIRE(dataSize > 0, OA_E_PARAM, "parameter [dataSize] must be greater than 0");
    ACL_REQUIRE(userDataSize <= OA_MBUF_USER_DATA_SIZE, OA_E_PARAM, "userDataSize %zu must not exceed %u",
                userDataSize, OA_MBUF_USER_DATA_SIZE);
    ACL_REQUIRE(userDataSize == 0 || userData != NULL, OA_E_PARAM, "userData is null while userDataSize is %zu",
                userDataSize);
    const oa_tdt_deadline dl = oa_tdt_deadline_after(timeout);
    oa_tdt_lock();
    oa_status st = OA_OK;
    for (;;) {
        queue *q = find_queue_locked(qid);
        if (q == NULL) {
            st = OA_FAIL(OA_E_RT_PARAM, "queue %u does not exist", qid);
            break;
        }
        if (!q_full(q)) {
            oa_mbuf *m = NULL;
            st = oa_mbuf_alloc_locked(dataSize, &m);
            if (st == OA_OK) {
                memcpy(oa_mbuf_data(m), data, dataSize);
                m->data_len = dataSize;
                if (userDataSize > 0) {
                    memcpy(m->user_data, userData, userDataSize);
                }
                q_push(q, m);
                pump_locked();
            }
            break;
        }
        if (!oa_tdt_wait(&dl)) {
            st = OA_FAIL(OA_E_RT_QUEUE_FULL, "queue %u is full", qid);
            break;
        }
    }
    oa_tdt_unlock();
    ACL_RETURN_STATUS(st);
}

/* Total data length of a chain. */
static size_t chain_len(const oa_mbuf *m)
{
    size_t n = 0;
    for (; m != NULL; m = m->next) {
        n += m->data_len;
    }
    return n;
}

ACL_FUNC_VISIBILITY aclError acltdtDequeueData(uint32_t qid, void *data, size_t dataSize, size_t *retDataSize,
                                               void *userData, size_t userDataSize, int32_t timeout)
{
    ACL_REQUIRE_NOT_NULL(data);
    ACL_REQUIRE_NOT_NULL(retDataSize);
    ACL_REQUIRE(dataSize > 0, OA_E_PARAM, "parameter [dataSize] must be greater than 0");
    ACL_REQUIRE(userDataSize <= OA_MBUF_USER_DATA_SIZE, OA_E_PARAM, "userDataSize %zu must not exceed %u",
                userDataSize, OA_MBUF_USER_DATA_SIZE);
    ACL_REQUIRE(userDataSize == 0 || userData != NULL, OA_E_PARAM, "userData is null while userDataSize is %zu",
                userDataSize);
    const oa_tdt_deadline dl = oa_tdt_deadline_after(timeout);
    oa_tdt_lock();
    oa_status st = OA_OK;
    for (;;) {
        queue *q = find_queue_locked(qid);
        if (q == NULL) {
            st = OA_FAIL(OA_E_RT_PARAM, "queue %u does not exist", qid);
            break;
        }
        if (q->count > 0) {
            const oa_mbuf *front = q->ring[q->head];
            const size_t need = chain_len(front);
            *retDataSize = need; /* reported even when the buffer is too small */
            if (need > dataSize) {
                st = OA_FAIL(OA_E_RT_PARAM, "data buffer of %zu bytes is smaller than the %zu bytes queued",
                             dataSize, need);
                break;
            }
            oa_mbuf *m = q_pop(q);
            size_t off = 0;
            for (const oa_mbuf *p = m; p != NULL; p = p->next) {
                memcpy((char *)data + off, oa_mbuf_data(p), p->data_len);
                off += p->data_len;
            }
            if (userDataSize > 0) {
                memcpy(userData, m->user_data, userDataSize);
            }
            oa_mbuf_free_chain_locked(m);
            pump_locked();
            break;
        }
        if (!oa_tdt_wait(&dl)) {
            st = OA_FAIL(OA_E_RT_QUEUE_EMPTY, "queue %u is empty", qid);
            break;
        }
    }
    oa_tdt_unlock();
    ACL_RETURN_STATUS(st);
}

/* ---- permissions ---- */

#define ALL_PERMISSIONS \
    (ACL_TDT_QUEUE_PERMISSION_MANAGE | ACL_TDT_QUEUE_PERMISSION_DEQUEUE | ACL_TDT_QUEUE_PERMISSION_ENQUEUE)

ACL_FUNC_VISIBILITY aclError acltdtGrantQueue(uint32_t qid, int32_t pid, uint32_t permission, int32_t timeout)
{
    OA_UNUSED(timeout);
    ACL_REQUIRE(pid > 0, OA_E_PARAM, "pid %d is invalid", (int)pid);
    ACL_REQUIRE(permission != 0 && (permission & ~(uint32_t)ALL_PERMISSIONS) == 0, OA_E_PARAM,
                "permission 0x%x must be a non-empty combination of ACL_TDT_QUEUE_PERMISSION_*", permission);
    oa_tdt_lock();
    queue *q = find_queue_locked(qid);
    oa_status st = OA_OK;
    if (q == NULL) {
        st = OA_FAIL(OA_E_RT_PARAM, "queue %u does not exist", qid);
    } else {
        size_t i = 0;
        while (i < q->grant_count && q->grants[i].pid != pid) {
            ++i;
        }
        if (i == q->grant_count) {
            if (q->grant_count == MAX_GRANTS) {
                st = OA_FAIL(OA_E_RT_OVER_LIMIT, "queue %u already has %d grants", qid, MAX_GRANTS);
            } else {
                q->grants[q->grant_count].pid = pid;
                q->grants[q->grant_count].permission = 0;
                ++q->grant_count;
            }
        }
        if (st == OA_OK) {
            q->grants[i].permission |= permission;
        }
    }
    oa_tdt_unlock();
    ACL_RETURN_STATUS(st);
}

ACL_FUNC_VISIBILITY aclError acltdtAttachQueue(uint32_t qid, int32_t timeout, uint32_t *permission)
{
    OA_UNUSED(timeout);
    ACL_REQUIRE_NOT_NULL(permission);
    const int32_t me = (int32_t)getpid();
    oa_tdt_lock();
    queue *q = find_queue_locked(qid);
    oa_status st = OA_OK;
    if (q == NULL) {
        st = OA_FAIL(OA_E_RT_PARAM, "queue %u does not exist", qid);
    } else {
        uint32_t p = 0;
        for (size_t i = 0; i < q->grant_count; ++i) {
            if (q->grants[i].pid == me) {
                p |= q->grants[i].permission;
            }
        }
        if (p == 0) {
            st = OA_FAIL(OA_E_RT_PARAM, "this process has no permission on queue %u", qid);
        } else {
            *permission = p;
        }
    }
    oa_tdt_unlock();
    ACL_RETURN_STATUS(st);
}

/* ---- routes ---- */

ACL_FUNC_VISIBILITY acltdtQueueRoute *acltdtCreateQueueRoute(uint32_t srcId, uint32_t dstId)
{
    acltdtQueueRoute *r = malloc(sizeof(*r));
    ACL_REQUIRE_RET(r != NULL, NULL, "cannot allocate a queue route");
    r->srcId = srcId;
    r->dstId = dstId;
    r->status = 0;
    return r;
}

ACL_FUNC_VISIBILITY aclError acltdtDestroyQueueRoute(const acltdtQueueRoute *route)
{
    ACL_REQUIRE_NOT_NULL(route);
    free((void *)(uintptr_t)route);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError acltdtGetQueueRouteParam(const acltdtQueueRoute *route, acltdtQueueRouteParamType type,
                                                      size_t len, size_t *paramRetSize, void *param)
{
    ACL_REQUIRE_NOT_NULL(route);
    ACL_REQUIRE_NOT_NULL(param);
    ACL_REQUIRE_NOT_NULL(paramRetSize);
    switch (type) {
    case ACL_TDT_QUEUE_ROUTE_SRC_UINT32:
        ACL_RETURN_STATUS(copy_param(&route->srcId, sizeof(uint32_t), param, len, paramRetSize));
    case ACL_TDT_QUEUE_ROUTE_DST_UINT32:
        ACL_RETURN_STATUS(copy_param(&route->dstId, sizeof(uint32_t), param, len, paramRetSize));
    case ACL_TDT_QUEUE_ROUTE_STATUS_INT32:
        ACL_RETURN_STATUS(copy_param(&route->status, sizeof(int32_t), param, len, paramRetSize));
    default:
        break;
    }
    ACL_RETURN_STATUS(OA_FAIL(OA_E_PARAM, "invalid acltdtQueueRouteParamType %d", (int)type));
}

ACL_FUNC_VISIBILITY acltdtQueueRouteList *acltdtCreateQueueRouteList(void)
{
    acltdtQueueRouteList *l = calloc(1, sizeof(*l));
    ACL_REQUIRE_RET(l != NULL, NULL, "cannot allocate a queue route list");
    return l;
}

ACL_FUNC_VISIBILITY aclError acltdtDestroyQueueRouteList(const acltdtQueueRouteList *routeList)
{
    ACL_REQUIRE_NOT_NULL(routeList);
    free(routeList->routes);
    free((void *)(uintptr_t)routeList);
    return ACL_SUCCESS;
}

static oa_status list_push(acltdtQueueRouteList *l, acltdtQueueRoute r)
{
    if (l->count == l->cap) {
        const size_t ncap = l->cap == 0 ? 8 : l->cap * 2;
        acltdtQueueRoute *n = realloc(l->routes, ncap * sizeof(*n));
        if (n == NULL) {
            return OA_FAIL(OA_E_NOMEM, "cannot grow the queue route list");
        }
        l->routes = n;
        l->cap = ncap;
    }
    l->routes[l->count++] = r;
    return OA_OK;
}

ACL_FUNC_VISIBILITY aclError acltdtAddQueueRoute(acltdtQueueRouteList *routeList, const acltdtQueueRoute *route)
{
    ACL_REQUIRE_NOT_NULL(routeList);
    ACL_REQUIRE_NOT_NULL(route);
    ACL_RETURN_STATUS(list_push(routeList, *route));
}

ACL_FUNC_VISIBILITY aclError acltdtGetQueueRoute(const acltdtQueueRouteList *routeList, size_t index,
                                                 acltdtQueueRoute *route)
{
    ACL_REQUIRE_NOT_NULL(routeList);
    ACL_REQUIRE_NOT_NULL(route);
    ACL_REQUIRE(index < routeList->count, OA_E_PARAM, "index [%zu] must be smaller than [%zu]", index,
                routeList->count);
    *route = routeList->routes[index];
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY size_t acltdtGetQueueRouteNum(const acltdtQueueRouteList *routeList)
{
    ACL_REQUIRE_RET(routeList != NULL, 0, "parameter [routeList] must not be null");
    return routeList->count;
}

static ssize_t find_route_locked(uint32_t src, uint32_t dst)
{
    for (size_t i = 0; i < g_route_count; ++i) {
        if (g_routes[i].src == src && g_routes[i].dst == dst) {
            return (ssize_t)i;
        }
    }
    return -1;
}

ACL_FUNC_VISIBILITY aclError acltdtBindQueueRoutes(acltdtQueueRouteList *qRouteList)
{
    ACL_REQUIRE_NOT_NULL(qRouteList);
    oa_tdt_lock();
    oa_status st = OA_OK;
    for (size_t i = 0; i < qRouteList->count; ++i) {
        acltdtQueueRoute *r = &qRouteList->routes[i];
        const bool valid = find_queue_locked(r->srcId) != NULL && find_queue_locked(r->dstId) != NULL &&
                           r->srcId != r->dstId;
        if (!valid) {
            r->status = ACL_TDT_QUEUE_ROUTE_BIND_ABNORMAL;
            st = OA_FAIL(OA_E_FAILURE, "route %u -> %u cannot be bound (unknown queue or src == dst)", r->srcId,
                         r->dstId);
            continue;
        }
        if (find_route_locked(r->srcId, r->dstId) < 0) {
            if (g_route_count == g_route_cap) {
                const size_t ncap = g_route_cap == 0 ? 16 : g_route_cap * 2;
                bound_route *n = realloc(g_routes, ncap * sizeof(*n));
                if (n == NULL) {
                    r->status = ACL_TDT_QUEUE_ROUTE_BIND_ABNORMAL;
                    st = OA_FAIL(OA_E_NOMEM, "cannot record route %u -> %u", r->srcId, r->dstId);
                    continue;
                }
                g_routes = n;
                g_route_cap = ncap;
            }
            g_routes[g_route_count].src = r->srcId;
            g_routes[g_route_count].dst = r->dstId;
            ++g_route_count;
        }
        r->status = ACL_TDT_QUEUE_ROUTE_BIND;
    }
    pump_locked();
    oa_tdt_unlock();
    ACL_RETURN_STATUS(st);
}

ACL_FUNC_VISIBILITY aclError acltdtUnbindQueueRoutes(acltdtQueueRouteList *qRouteList)
{
    ACL_REQUIRE_NOT_NULL(qRouteList);
    oa_tdt_lock();
    oa_status st = OA_OK;
    for (size_t i = 0; i < qRouteList->count; ++i) {
        acltdtQueueRoute *r = &qRouteList->routes[i];
        const ssize_t at = find_route_locked(r->srcId, r->dstId);
        if (at < 0) {
            r->status = ACL_TDT_QUEUE_ROUTE_BIND_ABNORMAL;
            st = OA_FAIL(OA_E_FAILURE, "route %u -> %u is not bound", r->srcId, r->dstId);
            continue;
        }
        g_routes[at] = g_routes[--g_route_count];
        r->status = ACL_TDT_QUEUE_ROUTE_UNBIND;
    }
    oa_tdt_unlock();
    ACL_RETURN_STATUS(st);
}

ACL_FUNC_VISIBILITY acltdtQueueRouteQueryInfo *acltdtCreateQueueRouteQueryInfo(void)
{
    acltdtQueueRouteQueryInfo *q = calloc(1, sizeof(*q));
    ACL_REQUIRE_RET(q != NULL, NULL, "cannot allocate a route query");
    return q;
}

ACL_FUNC_VISIBILITY aclError acltdtDestroyQueueRouteQueryInfo(const acltdtQueueRouteQueryInfo *info)
{
    ACL_REQUIRE_NOT_NULL(info);
    free((void *)(uintptr_t)info);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError acltdtSetQueueRouteQueryInfo(acltdtQueueRouteQueryInfo *param,
                                                          acltdtQueueRouteQueryInfoParamType type, size_t len,
                                                          const void *value)
{
    ACL_REQUIRE_NOT_NULL(param);
    ACL_REQUIRE_NOT_NULL(value);
    oa_status st;
    switch (type) {
    case ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM:
        st = copy_param(value, len, &param->mode, sizeof(acltdtQueueRouteQueryMode), NULL);
        param->isConfigMode = param->isConfigMode || st == OA_OK;
        ACL_RETURN_STATUS(st);
    case ACL_TDT_QUEUE_ROUTE_QUERY_SRC_ID_UINT32:
        st = copy_param(value, len, &param->srcId, sizeof(uint32_t), NULL);
        param->isConfigSrc = param->isConfigSrc || st == OA_OK;
        ACL_RETURN_STATUS(st);
    case ACL_TDT_QUEUE_ROUTE_QUERY_DST_ID_UINT32:
        st = copy_param(value, len, &param->dstId, sizeof(uint32_t), NULL);
        param->isConfigDst = param->isConfigDst || st == OA_OK;
        ACL_RETURN_STATUS(st);
    default:
        break;
    }
    ACL_RETURN_STATUS(OA_FAIL(OA_E_PARAM, "invalid acltdtQueueRouteQueryInfoParamType %d", (int)type));
}

static oa_status check_query(const acltdtQueueRouteQueryInfo *q)
{
    if (!q->isConfigMode) {
        return OA_FAIL(OA_E_PARAM, "the query mode must be set with acltdtSetQueueRouteQueryInfo");
    }
    switch (q->mode) {
    case ACL_TDT_QUEUE_ROUTE_QUERY_SRC:
        return q->isConfigSrc ? OA_OK : OA_FAIL(OA_E_PARAM, "the source queue of the query must be set");
    case ACL_TDT_QUEUE_ROUTE_QUERY_DST:
        return q->isConfigDst ? OA_OK : OA_FAIL(OA_E_PARAM, "the destination queue of the query must be set");
    case ACL_TDT_QUEUE_ROUTE_QUERY_SRC_AND_DST:
        return (q->isConfigSrc && q->isConfigDst)
                   ? OA_OK
                   : OA_FAIL(OA_E_PARAM, "source and destination queues of the query must be set");
    case ACL_TDT_QUEUE_ROUTE_QUERY_ABNORMAL:
        return OA_OK;
    default:
        return OA_FAIL(OA_E_PARAM, "invalid query mode %d", (int)q->mode);
    }
}

ACL_FUNC_VISIBILITY aclError acltdtQueryQueueRoutes(const acltdtQueueRouteQueryInfo *queryInfo,
                                                    acltdtQueueRouteList *qRouteList)
{
    ACL_REQUIRE_NOT_NULL(qRouteList);
    ACL_REQUIRE_NOT_NULL(queryInfo);
    qRouteList->count = 0;
    oa_status st = check_query(queryInfo);
    if (st != OA_OK) {
        ACL_RETURN_STATUS(st);
    }
    oa_tdt_lock();
    for (size_t i = 0; st == OA_OK && i < g_route_count; ++i) {
        const bound_route *b = &g_routes[i];
        bool match = false;
        switch (queryInfo->mode) {
        case ACL_TDT_QUEUE_ROUTE_QUERY_SRC:
            match = b->src == queryInfo->srcId;
            break;
        case ACL_TDT_QUEUE_ROUTE_QUERY_DST:
            match = b->dst == queryInfo->dstId;
            break;
        case ACL_TDT_QUEUE_ROUTE_QUERY_SRC_AND_DST:
            match = b->src == queryInfo->srcId && b->dst == queryInfo->dstId;
            break;
        default:
            match = false; /* bound routes are never abnormal here */
            break;
        }
        if (match) {
            const acltdtQueueRoute r = {b->src, b->dst, ACL_TDT_QUEUE_ROUTE_BIND};
            st = list_push(qRouteList, r);
        }
    }
    oa_tdt_unlock();
    ACL_RETURN_STATUS(st);
}
