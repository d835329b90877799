/* acl_tdt_queue.h: attributes, queues, shared buffers, timeouts, routes and permissions. */
#define _GNU_SOURCE
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "acl/acl.h"
#include "acl/acl_tdt_queue.h"

#define ASSERT_MSG() assert_non_null(aclGetRecentErrMsg())

static uint64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static uint32_t make_queue(uint32_t depth, const char *name)
{
    acltdtQueueAttr *attr = acltdtCreateQueueAttr();
    assert_non_null(attr);
    assert_int_equal(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, sizeof(depth), &depth), ACL_SUCCESS);
    if (name != NULL) {
        assert_int_equal(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_NAME_PTR, sizeof(name), &name), ACL_SUCCESS);
    }
    uint32_t qid = UINT32_MAX;
    assert_int_equal(acltdtCreateQueue(attr, &qid), ACL_SUCCESS);
    assert_int_equal(acltdtDestroyQueueAttr(attr), ACL_SUCCESS);
    return qid;
}

static void queue_attributes(void **state)
{
    (void)state;
    acltdtQueueAttr *attr = acltdtCreateQueueAttr();
    uint32_t depth = 0;
    size_t ret = 0;
    assert_int_equal(acltdtGetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, sizeof(depth), &ret, &depth), ACL_SUCCESS);
    assert_int_equal(depth, 8);
    assert_int_equal(ret, 4);
    const char *name = "my_queue";
    assert_int_equal(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_NAME_PTR, sizeof(name), &name), ACL_SUCCESS);
    const char *got = NULL;
    assert_int_equal(acltdtGetQueueAttr(attr, ACL_TDT_QUEUE_NAME_PTR, sizeof(got), &ret, &got), ACL_SUCCESS);
    assert_string_equal(got, "my_queue");
    assert_int_equal(ret, sizeof(void *));

    /* lengths: a longer source than destination fails */
    uint64_t big = 5;
    assert_int_equal(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, sizeof(big), &big), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(acltdtGetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, 2, &ret, &depth), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(acltdtGetQueueAttr(attr, ACL_TDT_QUEUE_NAME_PTR, 4, &ret, &got), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    char long_name[200];
    memset(long_name, 'q', sizeof(long_name) - 1);
    long_name[sizeof(long_name) - 1] = '\0';
    const char *lp = long_name;
    assert_int_equal(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_NAME_PTR, sizeof(lp), &lp), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    const char *null_name = NULL;
    assert_int_equal(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_NAME_PTR, sizeof(null_name), &null_name),
                     ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(acltdtSetQueueAttr(attr, (acltdtQueueAttrType)7, 4, &depth), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(acltdtGetQueueAttr(attr, (acltdtQueueAttrType)7, 4, &ret, &depth), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(acltdtSetQueueAttr(NULL, ACL_TDT_QUEUE_DEPTH_UINT32, 4, &depth), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, 4, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(acltdtGetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, 4, NULL, &depth), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(acltdtDestroyQueueAttr(attr), ACL_SUCCESS);
    assert_int_equal(acltdtDestroyQueueAttr(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();

    /* depth limits at creation */
    attr = acltdtCreateQueueAttr();
    uint32_t qid = 0;
    depth = 1;
    assert_int_equal(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, 4, &depth), ACL_SUCCESS);
    assert_int_equal(acltdtCreateQueue(attr, &qid), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_MSG();
    depth = 8193;
    assert_int_equal(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, 4, &depth), ACL_SUCCESS);
    assert_int_equal(acltdtCreateQueue(attr, &qid), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_MSG();
    assert_int_equal(acltdtCreateQueue(attr, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    acltdtDestroyQueueAttr(attr);
    assert_int_equal(acltdtCreateQueue(NULL, &qid), ACL_SUCCESS); /* default attributes */
    assert_int_equal(acltdtDestroyQueue(qid), ACL_SUCCESS);
    assert_int_equal(acltdtDestroyQueue(qid), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_MSG();
}

static void data_enqueue_dequeue(void **state)
{
    (void)state;
    const uint32_t q = make_queue(2, "data");
    const char user[8] = "ctx-123";
    assert_int_equal(acltdtEnqueueData(q, "hello", 5, user, sizeof(user), 0, 0), ACL_SUCCESS);
    assert_int_equal(acltdtEnqueueData(q, "world!", 6, NULL, 0, 0, 0), ACL_SUCCESS);
    /* full: QUEUE_FULL after the timeout */
    const uint64_t t0 = now_ms();
    assert_int_equal(acltdtEnqueueData(q, "x", 1, NULL, 0, 50, 0), ACL_ERROR_RT_QUEUE_FULL);
    assert_true(now_ms() - t0 >= 45);
    ASSERT_MSG();
    assert_int_equal(acltdtEnqueueData(q, "x", 1, NULL, 0, 0, 0), ACL_ERROR_RT_QUEUE_FULL);
    ASSERT_MSG();

    char buf[16];
    char ubuf[8] = {0};
    size_t n = 0;
    assert_int_equal(acltdtDequeueData(q, buf, 3, &n, NULL, 0, 0), ACL_ERROR_RT_PARAM_INVALID); /* too small */
    assert_int_equal(n, 5);
    ASSERT_MSG();
    assert_int_equal(acltdtDequeueData(q, buf, sizeof(buf), &n, ubuf, sizeof(ubuf), 0), ACL_SUCCESS);
    assert_int_equal(n, 5);
    assert_memory_equal(buf, "hello", 5);
    assert_string_equal(ubuf, "ctx-123");
    assert_int_equal(acltdtDequeueData(q, buf, sizeof(buf), &n, NULL, 0, -1), ACL_SUCCESS);
    assert_memory_equal(buf, "world!", 6);
    assert_int_equal(acltdtDequeueData(q, buf, sizeof(buf), &n, NULL, 0, 30), ACL_ERROR_RT_QUEUE_EMPTY);
    ASSERT_MSG();

    /* argument checks */
    assert_int_equal(acltdtEnqueueData(q, NULL, 1, NULL, 0, 0, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(acltdtEnqueueData(q, "x", 0, NULL, 0, 0, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(acltdtEnqueueData(q, "x", 1, NULL, 4, 0, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    char big[100] = {0};
    assert_int_equal(acltdtEnqueueData(q, "x", 1, big, 97, 0, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(acltdtDequeueData(q, NULL, 1, &n, NULL, 0, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(acltdtDequeueData(q, buf, 1, NULL, NULL, 0, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(acltdtEnqueueData(9999, "x", 1, NULL, 0, 0, 0), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_MSG();
    assert_int_equal(acltdtDestroyQueue(q), ACL_SUCCESS);
}

static void buffers_and_chains(void **state)
{
    (void)state;
    acltdtBuf b = NULL;
    assert_int_equal(acltdtAllocBuf(64, 2, &b), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(acltdtAllocBuf(64, ACL_TDT_NORMAL_MEM, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(acltdtAllocBuf(0, ACL_TDT_NORMAL_MEM, &b), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_MSG();
    assert_int_equal(acltdtAllocBuf(64, ACL_TDT_DVPP_MEM, &b), ACL_SUCCESS);
    void *data = NULL;
    size_t size = 0;
    assert_int_equal(acltdtGetBufData(b, &data, &size), ACL_SUCCESS);
    assert_int_equal(size, 64);
    memcpy(data, "payload", 7);
    size_t len = 99;
    assert_int_equal(acltdtGetBufDataLen(b, &len), ACL_SUCCESS);
    assert_int_equal(len, 0);
    assert_int_equal(acltdtSetBufDataLen(b, 7), ACL_SUCCESS);
    assert_int_equal(acltdtSetBufDataLen(b, 65), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_MSG();

    /* user data: 96 bytes, size + offset checked first */
    const uint32_t tag = 0xABCD;
    assert_int_equal(acltdtSetBufUserData(b, &tag, sizeof(tag), 92), ACL_SUCCESS);
    uint32_t back = 0;
    assert_int_equal(acltdtGetBufUserData(b, &back, sizeof(back), 92), ACL_SUCCESS);
    assert_int_equal(back, 0xABCD);
    assert_int_equal(acltdtSetBufUserData(b, &tag, sizeof(tag), 93), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(acltdtGetBufUserData(NULL, &back, 200, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(acltdtGetBufUserData(b, NULL, 4, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();

    /* copy-ref shares the data area */
    acltdtBuf ref = NULL;
    assert_int_equal(acltdtCopyBufRef(b, &ref), ACL_SUCCESS);
    void *ref_data = NULL;
    assert_int_equal(acltdtGetBufData(ref, &ref_data, &size), ACL_SUCCESS);
    assert_ptr_equal(ref_data, data);
    assert_int_equal(acltdtGetBufDataLen(ref, &len), ACL_SUCCESS);
    assert_int_equal(len, 7);
    assert_int_equal(acltdtGetBufUserData(ref, &back, sizeof(back), 92), ACL_SUCCESS);
    assert_int_equal(back, 0xABCD);
    assert_int_equal(acltdtFreeBuf(b), ACL_SUCCESS);
    assert_memory_equal(ref_data, "payload", 7); /* still alive through the reference */
    assert_int_equal(acltdtGetBufData(b, &data, &size), ACL_ERROR_RT_PARAM_INVALID); /* stale handle */
    ASSERT_MSG();

    /* chains */
    acltdtBuf b2 = NULL;
    acltdtBuf b3 = NULL;
    assert_int_equal(acltdtAllocBuf(8, ACL_TDT_NORMAL_MEM, &b2), ACL_SUCCESS);
    assert_int_equal(acltdtAllocBuf(8, ACL_TDT_NORMAL_MEM, &b3), ACL_SUCCESS);
    assert_int_equal(acltdtAppendBufChain(ref, b2), ACL_SUCCESS);
    assert_int_equal(acltdtAppendBufChain(ref, b3), ACL_SUCCESS);
    assert_int_equal(acltdtAppendBufChain(ref, b3), ACL_ERROR_RT_PARAM_INVALID); /* already chained */
    ASSERT_MSG();
    assert_int_equal(acltdtAppendBufChain(ref, ref), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_MSG();
    uint32_t num = 0;
    assert_int_equal(acltdtGetBufChainNum(ref, &num), ACL_SUCCESS);
    assert_int_equal(num, 3);
    acltdtBuf got = NULL;
    assert_int_equal(acltdtGetBufFromChain(ref, 2, &got), ACL_SUCCESS);
    assert_ptr_equal(got, b3);
    assert_int_equal(acltdtGetBufFromChain(ref, 3, &got), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_MSG();
    assert_int_equal(acltdtFreeBuf(b2), ACL_ERROR_RT_PARAM_INVALID); /* member of a chain */
    ASSERT_MSG();

    /* a chain holds at most 128 buffers */
    acltdtBuf head = NULL;
    assert_int_equal(acltdtAllocBuf(1, ACL_TDT_NORMAL_MEM, &head), ACL_SUCCESS);
    for (int i = 1; i < 128; ++i) {
        acltdtBuf x = NULL;
        assert_int_equal(acltdtAllocBuf(1, ACL_TDT_NORMAL_MEM, &x), ACL_SUCCESS);
        assert_int_equal(acltdtAppendBufChain(head, x), ACL_SUCCESS);
    }
    acltdtBuf extra = NULL;
    assert_int_equal(acltdtAllocBuf(1, ACL_TDT_NORMAL_MEM, &extra), ACL_SUCCESS);
    assert_int_equal(acltdtAppendBufChain(head, extra), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_MSG();
    assert_int_equal(acltdtFreeBuf(extra), ACL_SUCCESS);
    assert_int_equal(acltdtFreeBuf(head), ACL_SUCCESS);

    /* buffers travel through a queue, chain and all */
    const uint32_t q = make_queue(2, NULL);
    assert_int_equal(acltdtEnqueue(q, ref, 0), ACL_SUCCESS);
    char out[64];
    size_t n = 0;
    assert_int_equal(acltdtSetBufDataLen(b2, 0), ACL_SUCCESS);
    assert_int_equal(acltdtDequeueData(q, out, sizeof(out), &n, NULL, 0, 0), ACL_SUCCESS);
    assert_int_equal(n, 7); /* 7 + 0 + 0 bytes of the chain */
    assert_memory_equal(out, "payload", 7);
    assert_int_equal(acltdtGetBufChainNum(ref, &num), ACL_ERROR_RT_PARAM_INVALID); /* consumed and freed */
    ASSERT_MSG();
    assert_int_equal(acltdtDestroyQueue(q), ACL_SUCCESS);

    assert_int_equal(acltdtFreeBuf(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(acltdtGetBufData(NULL, &data, &size), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(acltdtCopyBufRef(NULL, &ref), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
}

typedef struct producer_arg {
    uint32_t qid;
    int count;
} producer_arg;

static void *producer(void *p)
{
    const producer_arg *a = p;
    for (int i = 0; i < a->count; ++i) {
        acltdtBuf b = NULL;
        if (acltdtAllocBuf(sizeof(int), ACL_TDT_NORMAL_MEM, &b) != ACL_SUCCESS) {
            return (void *)1;
        }
        void *d = NULL;
        size_t s = 0;
        (void)acltdtGetBufData(b, &d, &s);
        memcpy(d, &i, sizeof(i));
        (void)acltdtSetBufDataLen(b, sizeof(i));
        if (acltdtEnqueue(a->qid, b, -1) != ACL_SUCCESS) {
            return (void *)2;
        }
    }
    return NULL;
}

static void buffer_queue_blocking_and_timeouts(void **state)
{
    (void)state;
    const uint32_t q = make_queue(2, "buf");
    acltdtBuf b = NULL;
    assert_int_equal(acltdtDequeue(q, &b, 0), ACL_ERROR_FAILURE); /* empty */
    ASSERT_MSG();
    const uint64_t t0 = now_ms();
    assert_int_equal(acltdtDequeue(q, &b, 40), ACL_ERROR_FAILURE);
    assert_true(now_ms() - t0 >= 35);
    ASSERT_MSG();
    assert_int_equal(acltdtEnqueue(q, NULL, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(acltdtDequeue(q, NULL, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    int fake = 0;
    assert_int_equal(acltdtEnqueue(q, &fake, 0), ACL_ERROR_RT_PARAM_INVALID); /* not a buffer */
    ASSERT_MSG();

    /* a producer blocked on the full queue is released by the consumer, in order */
    producer_arg arg = {q, 200};
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, producer, &arg), 0);
    for (int i = 0; i < 200; ++i) {
        assert_int_equal(acltdtDequeue(q, &b, -1), ACL_SUCCESS);
        void *d = NULL;
        size_t s = 0;
        assert_int_equal(acltdtGetBufData(b, &d, &s), ACL_SUCCESS);
        int v = -1;
        memcpy(&v, d, sizeof(v));
        assert_int_equal(v, i);
        assert_int_equal(acltdtFreeBuf(b), ACL_SUCCESS);
    }
    void *res = (void *)9;
    pthread_join(t, &res);
    assert_null(res);

    /* full queue and timeout on enqueue */
    acltdtBuf x[3];
    for (int i = 0; i < 3; ++i) {
        assert_int_equal(acltdtAllocBuf(4, ACL_TDT_NORMAL_MEM, &x[i]), ACL_SUCCESS);
    }
    assert_int_equal(acltdtEnqueue(q, x[0], 0), ACL_SUCCESS);
    assert_int_equal(acltdtEnqueue(q, x[1], 0), ACL_SUCCESS);
    assert_int_equal(acltdtEnqueue(q, x[2], 20), ACL_ERROR_FAILURE);
    ASSERT_MSG();
    assert_int_equal(acltdtFreeBuf(x[2]), ACL_SUCCESS);
    assert_int_equal(acltdtDestroyQueue(q), ACL_SUCCESS); /* frees what is still queued */
    assert_int_equal(acltdtEnqueue(q, x[0], 0), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_MSG();
}

static acltdtQueueRouteList *routes_of(uint32_t src, uint32_t dst)
{
    acltdtQueueRouteList *l = acltdtCreateQueueRouteList();
    acltdtQueueRoute *r = acltdtCreateQueueRoute(src, dst);
    assert_int_equal(acltdtAddQueueRoute(l, r), ACL_SUCCESS);
    assert_int_equal(acltdtDestroyQueueRoute(r), ACL_SUCCESS);
    return l;
}

static void routes_forward_data(void **state)
{
    (void)state;
    const uint32_t a = make_queue(4, "a");
    const uint32_t b = make_queue(4, "b");
    const uint32_t c = make_queue(4, "c");
    acltdtQueueRoute *r = acltdtCreateQueueRoute(a, b);
    uint32_t v = 0;
    size_t ret = 0;
    assert_int_equal(acltdtGetQueueRouteParam(r, ACL_TDT_QUEUE_ROUTE_SRC_UINT32, sizeof(v), &ret, &v), ACL_SUCCESS);
    assert_int_equal(v, a);
    assert_int_equal(acltdtGetQueueRouteParam(r, ACL_TDT_QUEUE_ROUTE_DST_UINT32, sizeof(v), &ret, &v), ACL_SUCCESS);
    assert_int_equal(v, b);
    int32_t st = -1;
    assert_int_equal(acltdtGetQueueRouteParam(r, ACL_TDT_QUEUE_ROUTE_STATUS_INT32, sizeof(st), &ret, &st),
                     ACL_SUCCESS);
    assert_int_equal(st, 0);
    assert_int_equal(acltdtGetQueueRouteParam(r, ACL_TDT_QUEUE_ROUTE_SRC_UINT32, 2, &ret, &v),
                     ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(acltdtGetQueueRouteParam(r, (acltdtQueueRouteParamType)9, 4, &ret, &v), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    acltdtDestroyQueueRoute(r);

    acltdtQueueRouteList *l = acltdtCreateQueueRouteList();
    acltdtQueueRoute *ab = acltdtCreateQueueRoute(a, b);
    acltdtQueueRoute *ac = acltdtCreateQueueRoute(a, c);
    acltdtQueueRoute *bad = acltdtCreateQueueRoute(a, 4000);
    acltdtAddQueueRoute(l, ab);
    acltdtAddQueueRoute(l, ac);
    assert_int_equal(acltdtGetQueueRouteNum(l), 2);
    assert_int_equal(acltdtBindQueueRoutes(l), ACL_SUCCESS);
    acltdtQueueRoute *outp = acltdtCreateQueueRoute(0, 0);
    assert_int_equal(acltdtGetQueueRoute(l, 1, outp), ACL_SUCCESS);
    assert_int_equal(acltdtGetQueueRouteParam(outp, ACL_TDT_QUEUE_ROUTE_STATUS_INT32, 4, &ret, &st), ACL_SUCCESS);
    assert_int_equal(st, ACL_TDT_QUEUE_ROUTE_BIND);
    assert_int_equal(acltdtGetQueueRoute(l, 2, outp), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();

    /* data entering a reaches both b and c */
    assert_int_equal(acltdtEnqueueData(a, "route", 5, NULL, 0, 0, 0), ACL_SUCCESS);
    char buf[8];
    size_t n = 0;
    assert_int_equal(acltdtDequeueData(b, buf, sizeof(buf), &n, NULL, 0, 100), ACL_SUCCESS);
    assert_memory_equal(buf, "route", 5);
    assert_int_equal(acltdtDequeueData(c, buf, sizeof(buf), &n, NULL, 0, 100), ACL_SUCCESS);
    assert_memory_equal(buf, "route", 5);
    assert_int_equal(acltdtDequeueData(a, buf, sizeof(buf), &n, NULL, 0, 0), ACL_ERROR_RT_QUEUE_EMPTY);
    ASSERT_MSG();

    /* queries */
    acltdtQueueRouteQueryInfo *qi = acltdtCreateQueueRouteQueryInfo();
    acltdtQueueRouteList *res = acltdtCreateQueueRouteList();
    assert_int_equal(acltdtQueryQueueRoutes(qi, res), ACL_ERROR_INVALID_PARAM); /* mode not set */
    ASSERT_MSG();
    acltdtQueueRouteQueryMode mode = ACL_TDT_QUEUE_ROUTE_QUERY_SRC;
    assert_int_equal(acltdtSetQueueRouteQueryInfo(qi, ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM, sizeof(mode), &mode),
                     ACL_SUCCESS);
    assert_int_equal(acltdtQueryQueueRoutes(qi, res), ACL_ERROR_INVALID_PARAM); /* src not set */
    ASSERT_MSG();
    assert_int_equal(acltdtSetQueueRouteQueryInfo(qi, ACL_TDT_QUEUE_ROUTE_QUERY_SRC_ID_UINT32, sizeof(a), &a),
                     ACL_SUCCESS);
    assert_int_equal(acltdtQueryQueueRoutes(qi, res), ACL_SUCCESS);
    assert_int_equal(acltdtGetQueueRouteNum(res), 2);
    mode = ACL_TDT_QUEUE_ROUTE_QUERY_SRC_AND_DST;
    acltdtSetQueueRouteQueryInfo(qi, ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM, sizeof(mode), &mode);
    assert_int_equal(acltdtQueryQueueRoutes(qi, res), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(acltdtSetQueueRouteQueryInfo(qi, ACL_TDT_QUEUE_ROUTE_QUERY_DST_ID_UINT32, sizeof(c), &c),
                     ACL_SUCCESS);
    assert_int_equal(acltdtQueryQueueRoutes(qi, res), ACL_SUCCESS);
    assert_int_equal(acltdtGetQueueRouteNum(res), 1);
    mode = ACL_TDT_QUEUE_ROUTE_QUERY_ABNORMAL;
    acltdtSetQueueRouteQueryInfo(qi, ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM, sizeof(mode), &mode);
    assert_int_equal(acltdtQueryQueueRoutes(qi, res), ACL_SUCCESS);
    assert_int_equal(acltdtGetQueueRouteNum(res), 0);
    mode = (acltdtQueueRouteQueryMode)7;
    acltdtSetQueueRouteQueryInfo(qi, ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM, sizeof(mode), &mode);
    assert_int_equal(acltdtQueryQueueRoutes(qi, res), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    uint64_t wide = 0;
    assert_int_equal(acltdtSetQueueRouteQueryInfo(qi, ACL_TDT_QUEUE_ROUTE_QUERY_SRC_ID_UINT32, sizeof(wide), &wide),
                     ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(acltdtSetQueueRouteQueryInfo(qi, (acltdtQueueRouteQueryInfoParamType)5, 4, &a),
                     ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(acltdtQueryQueueRoutes(NULL, res), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();

    /* a bound queue cannot be destroyed; a bad route fails the bind and is marked abnormal */
    assert_int_equal(acltdtDestroyQueue(b), ACL_ERROR_FAILURE);
    ASSERT_MSG();
    acltdtQueueRouteList *badl = acltdtCreateQueueRouteList();
    acltdtAddQueueRoute(badl, bad);
    assert_int_equal(acltdtBindQueueRoutes(badl), ACL_ERROR_FAILURE);
    ASSERT_MSG();
    assert_int_equal(acltdtGetQueueRoute(badl, 0, outp), ACL_SUCCESS);
    acltdtGetQueueRouteParam(outp, ACL_TDT_QUEUE_ROUTE_STATUS_INT32, 4, &ret, &st);
    assert_int_equal(st, ACL_TDT_QUEUE_ROUTE_BIND_ABNORMAL);
    assert_int_equal(acltdtUnbindQueueRoutes(badl), ACL_ERROR_FAILURE); /* never bound */
    ASSERT_MSG();

    assert_int_equal(acltdtUnbindQueueRoutes(l), ACL_SUCCESS);
    assert_int_equal(acltdtGetQueueRoute(l, 0, outp), ACL_SUCCESS);
    acltdtGetQueueRouteParam(outp, ACL_TDT_QUEUE_ROUTE_STATUS_INT32, 4, &ret, &st);
    assert_int_equal(st, ACL_TDT_QUEUE_ROUTE_UNBIND);
    assert_int_equal(acltdtBindQueueRoutes(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(acltdtDestroyQueue(a), ACL_SUCCESS);
    assert_int_equal(acltdtDestroyQueue(b), ACL_SUCCESS);
    assert_int_equal(acltdtDestroyQueue(c), ACL_SUCCESS);

    /* a destination that is full holds data back in the source until it drains */
    const uint32_t s = make_queue(4, "s");
    const uint32_t d = make_queue(2, "d");
    acltdtQueueRouteList *sd = routes_of(s, d);
    assert_int_equal(acltdtBindQueueRoutes(sd), ACL_SUCCESS);
    for (int i = 0; i < 4; ++i) {
        assert_int_equal(acltdtEnqueueData(s, &i, sizeof(i), NULL, 0, 0, 0), ACL_SUCCESS);
    }
    for (int i = 0; i < 4; ++i) {
        int got = -1;
        assert_int_equal(acltdtDequeueData(d, &got, sizeof(got), &n, NULL, 0, 100), ACL_SUCCESS);
        assert_int_equal(got, i);
    }
    assert_int_equal(acltdtUnbindQueueRoutes(sd), ACL_SUCCESS);
    acltdtDestroyQueueRouteList(sd);
    acltdtDestroyQueue(s);
    acltdtDestroyQueue(d);

    acltdtDestroyQueueRoute(ab);
    acltdtDestroyQueueRoute(ac);
    acltdtDestroyQueueRoute(bad);
    acltdtDestroyQueueRoute(outp);
    assert_int_equal(acltdtDestroyQueueRouteList(l), ACL_SUCCESS);
    assert_int_equal(acltdtDestroyQueueRouteList(badl), ACL_SUCCESS);
    assert_int_equal(acltdtDestroyQueueRouteList(res), ACL_SUCCESS);
    assert_int_equal(acltdtDestroyQueueRouteQueryInfo(qi), ACL_SUCCESS);
    assert_int_equal(acltdtDestroyQueueRouteQueryInfo(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(acltdtDestroyQueueRoute(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(acltdtDestroyQueueRouteList(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(acltdtGetQueueRouteNum(NULL), 0);
    ASSERT_MSG();
}

static void permissions(void **state)
{
    (void)state;
    const uint32_t q = make_queue(2, "perm");
    uint32_t perm = 0;
    assert_int_equal(acltdtAttachQueue(q, 0, &perm), ACL_SUCCESS);
    assert_int_equal(perm, ACL_TDT_QUEUE_PERMISSION_MANAGE | ACL_TDT_QUEUE_PERMISSION_DEQUEUE |
                               ACL_TDT_QUEUE_PERMISSION_ENQUEUE);
    assert_int_equal(acltdtGrantQueue(q, 4242, ACL_TDT_QUEUE_PERMISSION_DEQUEUE, 0), ACL_SUCCESS);
    assert_int_equal(acltdtGrantQueue(q, 4242, 8, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(acltdtGrantQueue(q, 4242, 0, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(acltdtGrantQueue(q, -1, ACL_TDT_QUEUE_PERMISSION_DEQUEUE, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(acltdtGrantQueue(9999, 4242, ACL_TDT_QUEUE_PERMISSION_DEQUEUE, 0), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_MSG();
    assert_int_equal(acltdtAttachQueue(q, 0, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(acltdtAttachQueue(9999, 0, &perm), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_MSG();
    assert_int_equal(acltdtDestroyQueue(q), ACL_SUCCESS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(queue_attributes),
        cmocka_unit_test(data_enqueue_dequeue),
        cmocka_unit_test(buffers_and_chains),
        cmocka_unit_test(buffer_queue_blocking_and_timeouts),
        cmocka_unit_test(routes_forward_data),
        cmocka_unit_test(permissions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
