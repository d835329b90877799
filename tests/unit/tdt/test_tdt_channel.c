/* acl_tdt.h: data items, datasets, capacity channels and TDT-process channels. */
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
#include "acl/acl_tdt.h"

#define ASSERT_MSG() assert_non_null(aclGetRecentErrMsg())

static bool runtime_present(void)
{
    uint32_t n = 0;
    const aclError ret = aclrtGetDeviceCount(&n);
    (void)aclGetRecentErrMsg();
    return ret == ACL_SUCCESS && n > 0;
}

static void items_and_datasets(void **state)
{
    (void)state;
    const int64_t dims[] = {2, 3};
    float data[6] = {0, 1, 2, 3, 4, 5};
    acltdtDataItem *it = acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 2, ACL_FLOAT, data, sizeof(data));
    assert_non_null(it);
    assert_int_equal(acltdtGetTensorTypeFromItem(it), ACL_TENSOR_DATA_TENSOR);
    assert_int_equal(acltdtGetDataTypeFromItem(it), ACL_FLOAT);
    assert_ptr_equal(acltdtGetDataAddrFromItem(it), data);
    assert_int_equal(acltdtGetDataSizeFromItem(it), sizeof(data));
    assert_int_equal(acltdtGetDimNumFromItem(it), 2);
    int64_t out[4] = {0};
    assert_int_equal(acltdtGetDimsFromItem(it, out, 4), ACL_SUCCESS);
    assert_int_equal(out[1], 3);
    assert_int_equal(acltdtGetDimsFromItem(it, out, 1), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(acltdtGetDimsFromItem(it, NULL, 2), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(acltdtGetDimsFromItem(it, out, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    size_t num = 9;
    size_t id = 9;
    assert_int_equal(acltdtGetSliceInfoFromItem(it, &num, &id), ACL_SUCCESS);
    assert_int_equal(num, 0);
    assert_int_equal(acltdtGetSliceInfoFromItem(it, NULL, &id), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();

    /* creation rules */
    assert_null(acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, NULL, 2, ACL_FLOAT, data, 4));
    ASSERT_MSG();
    assert_null(acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 0, ACL_FLOAT, data, 4));
    ASSERT_MSG();
    int64_t many[129] = {0};
    assert_null(acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, many, 129, ACL_FLOAT, data, 4));
    ASSERT_MSG();
    assert_null(acltdtCreateDataItem(ACL_TENSOR_DATA_END_OF_SEQUENCE, dims, 2, ACL_FLOAT, data, 4));
    ASSERT_MSG();
    acltdtDataItem *eos = acltdtCreateDataItem(ACL_TENSOR_DATA_END_OF_SEQUENCE, NULL, 0, ACL_FLOAT, data, 4);
    assert_non_null(eos);
    assert_int_equal(acltdtGetDataTypeFromItem(eos), ACL_DT_UNDEFINED); /* ignored for non-tensors */
    assert_null(acltdtGetDataAddrFromItem(eos));

    acltdtDataset *ds = acltdtCreateDataset();
    assert_non_null(ds);
    assert_string_equal(acltdtGetDatasetName(ds), "");
    assert_int_equal(acltdtAddDataItem(ds, it), ACL_SUCCESS);
    assert_int_equal(acltdtAddDataItem(ds, eos), ACL_SUCCESS);
    assert_int_equal(acltdtGetDatasetSize(ds), 2);
    assert_ptr_equal(acltdtGetDataItem(ds, 1), eos);
    assert_null(acltdtGetDataItem(ds, 2));
    ASSERT_MSG();
    assert_int_equal(acltdtAddDataItem(ds, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(acltdtDestroyDataset(ds), ACL_SUCCESS); /* items stay with the caller */
    assert_int_equal(acltdtDestroyDataItem(it), ACL_SUCCESS);
    assert_int_equal(acltdtDestroyDataItem(eos), ACL_SUCCESS);

    /* NULL getters */
    assert_int_equal(acltdtGetTensorTypeFromItem(NULL), ACL_TENSOR_DATA_UNDEFINED);
    ASSERT_MSG();
    assert_int_equal(acltdtGetDataTypeFromItem(NULL), ACL_DT_UNDEFINED);
    ASSERT_MSG();
    assert_null(acltdtGetDataAddrFromItem(NULL));
    ASSERT_MSG();
    assert_int_equal(acltdtGetDataSizeFromItem(NULL), 0);
    ASSERT_MSG();
    assert_int_equal(acltdtGetDimNumFromItem(NULL), 0);
    ASSERT_MSG();
    assert_int_equal(acltdtGetDatasetSize(NULL), 0);
    ASSERT_MSG();
    assert_null(acltdtGetDatasetName(NULL));
    ASSERT_MSG();
    assert_int_equal(acltdtDestroyDataset(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(acltdtDestroyDataItem(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
}

static void channel_arguments(void **state)
{
    (void)state;
    assert_null(acltdtCreateChannel(0, NULL));
    ASSERT_MSG();
    assert_null(acltdtCreateChannelWithCapacity(0, NULL, 4));
    ASSERT_MSG();
    assert_null(acltdtCreateChannelWithCapacity(0, "c", 1));
    ASSERT_MSG();
    assert_null(acltdtCreateChannelWithCapacity(0, "c", 8193));
    ASSERT_MSG();
    char long_name[200];
    memset(long_name, 'n', sizeof(long_name) - 1);
    long_name[sizeof(long_name) - 1] = '\0';
    assert_null(acltdtCreateChannelWithCapacity(0, long_name, 4));
    ASSERT_MSG();
    assert_int_equal(acltdtDestroyChannel(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(acltdtStopChannel(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(acltdtCleanChannel(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    size_t size = 0;
    assert_int_equal(acltdtQueryChannelSize(NULL, &size), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(acltdtSendTensor(NULL, NULL, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(acltdtReceiveTensor(NULL, NULL, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
}

static acltdtDataset *dataset_of(const char *text)
{
    const int64_t dims[] = {(int64_t)strlen(text)};
    acltdtDataset *ds = acltdtCreateDataset();
    acltdtAddDataItem(ds, acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 1, ACL_UINT8, (void *)(uintptr_t)text,
                                               strlen(text)));
    return ds;
}

static void free_dataset_with_items(acltdtDataset *ds)
{
    for (size_t i = 0; i < acltdtGetDatasetSize(ds); ++i) {
        acltdtDestroyDataItem(acltdtGetDataItem(ds, i));
    }
    acltdtDestroyDataset(ds);
}

static void capacity_channel(void **state)
{
    (void)state;
    if (!runtime_present()) {
        skip();
    }
    uint32_t count = 0;
    assert_int_equal(aclrtGetDeviceCount(&count), ACL_SUCCESS);
    assert_null(acltdtCreateChannelWithCapacity(count, "c", 4)); /* bad device */
    ASSERT_MSG();
    acltdtChannelHandle *tx = acltdtCreateChannelWithCapacity(0, "cap", 2);
    acltdtChannelHandle *rx = acltdtCreateChannelWithCapacity(0, "cap", 2); /* same name: same FIFO */
    assert_non_null(tx);
    assert_non_null(rx);
    char text[] = "first";
    acltdtDataset *a = dataset_of(text);
    acltdtDataset *b = dataset_of("second");
    assert_int_equal(acltdtSendTensor(tx, a, 0), ACL_SUCCESS);
    text[0] = 'F'; /* data were copied at send time */
    assert_int_equal(acltdtSendTensor(tx, b, 0), ACL_SUCCESS);
    size_t size = 0;
    assert_int_equal(acltdtQueryChannelSize(rx, &size), ACL_SUCCESS);
    assert_int_equal(size, 2);
    assert_int_equal(acltdtSendTensor(tx, a, 0), ACL_ERROR_RT_QUEUE_FULL);
    ASSERT_MSG();
    assert_int_equal(acltdtSendTensor(tx, a, 30), ACL_ERROR_RT_QUEUE_FULL);
    ASSERT_MSG();

    acltdtDataset *got = acltdtCreateDataset();
    assert_int_equal(acltdtReceiveTensor(rx, got, 0), ACL_SUCCESS);
    assert_int_equal(acltdtGetDatasetSize(got), 1);
    acltdtDataItem *it = acltdtGetDataItem(got, 0);
    assert_int_equal(acltdtGetDataSizeFromItem(it), 5);
    assert_memory_equal(acltdtGetDataAddrFromItem(it), "first", 5);
    assert_int_equal(acltdtGetDataTypeFromItem(it), ACL_UINT8);
    /* a received dataset owns its items: no adding, but it can receive again */
    acltdtDataItem *extra = acltdtCreateDataItem(ACL_TENSOR_DATA_END_OF_SEQUENCE, NULL, 0, ACL_DT_UNDEFINED, NULL, 0);
    assert_int_equal(acltdtAddDataItem(got, extra), ACL_ERROR_FEATURE_UNSUPPORTED);
    ASSERT_MSG();
    assert_int_equal(acltdtReceiveTensor(rx, got, -1), ACL_SUCCESS);
    assert_memory_equal(acltdtGetDataAddrFromItem(acltdtGetDataItem(got, 0)), "second", 6);
    assert_int_equal(acltdtReceiveTensor(rx, got, 20), ACL_ERROR_RT_QUEUE_EMPTY);
    ASSERT_MSG();
    /* a dataset with the caller's items cannot receive */
    acltdtDataset *mine = acltdtCreateDataset();
    acltdtAddDataItem(mine, extra);
    assert_int_equal(acltdtReceiveTensor(rx, mine, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    free_dataset_with_items(mine);
    /* slice items cannot be sent */
    acltdtDataset *slice = acltdtCreateDataset();
    const int64_t d1[] = {1};
    acltdtAddDataItem(slice, acltdtCreateDataItem(ACL_TENSOR_DATA_SLICE_TENSOR, NULL, 0, ACL_DT_UNDEFINED, NULL, 0));
    (void)d1;
    assert_int_equal(acltdtSendTensor(tx, slice, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    free_dataset_with_items(slice);

    assert_int_equal(acltdtSendTensor(tx, a, 0), ACL_SUCCESS);
    assert_int_equal(acltdtCleanChannel(rx), ACL_SUCCESS);
    assert_int_equal(acltdtQueryChannelSize(tx, &size), ACL_SUCCESS);
    assert_int_equal(size, 0);
    assert_int_equal(acltdtStopChannel(tx), ACL_SUCCESS);
    assert_int_equal(acltdtDestroyDataset(got), ACL_SUCCESS);
    free_dataset_with_items(a);
    free_dataset_with_items(b);
    assert_int_equal(acltdtDestroyChannel(tx), ACL_SUCCESS);
    assert_int_equal(acltdtDestroyChannel(rx), ACL_SUCCESS);
}

typedef struct recv_arg {
    acltdtChannelHandle *h;
    acltdtDataset *ds;
    aclError ret;
} recv_arg;

static void *receiver(void *p)
{
    recv_arg *a = p;
    a->ret = acltdtReceiveTensor(a->h, a->ds, -1);
    return NULL;
}

static void tdt_process_channel(void **state)
{
    (void)state;
    if (!runtime_present()) {
        skip();
    }
    acltdtChannelHandle *tx = acltdtCreateChannel(0, "feed");
    acltdtChannelHandle *rx = acltdtCreateChannel(0, "TF_RECEIVE_feed");
    assert_non_null(tx);
    assert_non_null(rx);
    acltdtDataset *a = dataset_of("abc");
    assert_int_equal(acltdtSendTensor(tx, a, 0), ACL_ERROR_INVALID_PARAM); /* only -1 */
    ASSERT_MSG();
    acltdtDataset *got = acltdtCreateDataset();
    assert_int_equal(acltdtReceiveTensor(tx, got, -1), ACL_ERROR_INVALID_PARAM); /* not a receive channel */
    ASSERT_MSG();
    assert_int_equal(acltdtReceiveTensor(rx, got, 10), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    size_t size = 0;
    assert_int_equal(acltdtQueryChannelSize(tx, &size), ACL_ERROR_FEATURE_UNSUPPORTED);
    ASSERT_MSG();
    assert_int_equal(acltdtCleanChannel(tx), ACL_ERROR_FEATURE_UNSUPPORTED);
    ASSERT_MSG();

    assert_int_equal(acltdtSendTensor(tx, a, -1), ACL_SUCCESS);
    assert_int_equal(acltdtReceiveTensor(rx, got, -1), ACL_SUCCESS);
    assert_memory_equal(acltdtGetDataAddrFromItem(acltdtGetDataItem(got, 0)), "abc", 3);
    /* the TDT channel needs an empty dataset each time */
    assert_int_equal(acltdtReceiveTensor(rx, got, -1), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    acltdtDestroyDataset(got);

    /* a receiver blocked forever is woken by acltdtStopChannel */
    recv_arg arg = {rx, acltdtCreateDataset(), ACL_SUCCESS};
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, receiver, &arg), 0);
    usleep(50 * 1000);
    assert_int_equal(acltdtStopChannel(rx), ACL_SUCCESS);
    pthread_join(t, NULL);
    assert_int_equal(arg.ret, ACL_ERROR_FAILURE);
    acltdtDestroyDataset(arg.ds);

    free_dataset_with_items(a);
    assert_int_equal(acltdtDestroyChannel(tx), ACL_SUCCESS);
    assert_int_equal(acltdtDestroyChannel(rx), ACL_SUCCESS);
}

typedef struct sender_arg {
    acltdtChannelHandle *h;
    int n;
} sender_arg;

static void *sender(void *p)
{
    sender_arg *a = p;
    for (int i = 0; i < a->n; ++i) {
        const int64_t dims[] = {1};
        acltdtDataset *ds = acltdtCreateDataset();
        acltdtDataItem *it = acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 1, ACL_INT32, &i, sizeof(i));
        acltdtAddDataItem(ds, it);
        if (acltdtSendTensor(a->h, ds, -1) != ACL_SUCCESS) {
            return (void *)1;
        }
        acltdtDestroyDataItem(it);
        acltdtDestroyDataset(ds);
    }
    return NULL;
}

static void threads_share_a_channel(void **state)
{
    (void)state;
    if (!runtime_present()) {
        skip();
    }
    acltdtChannelHandle *h = acltdtCreateChannelWithCapacity(0, "mt", 3);
    sender_arg a1 = {h, 300};
    sender_arg a2 = {h, 300};
    pthread_t t1;
    pthread_t t2;
    pthread_create(&t1, NULL, sender, &a1);
    pthread_create(&t2, NULL, sender, &a2);
    long sum = 0;
    acltdtDataset *got = acltdtCreateDataset();
    for (int i = 0; i < 600; ++i) {
        assert_int_equal(acltdtReceiveTensor(h, got, -1), ACL_SUCCESS);
        int v = 0;
        memcpy(&v, acltdtGetDataAddrFromItem(acltdtGetDataItem(got, 0)), sizeof(v));
        sum += v;
    }
    void *r1 = NULL;
    void *r2 = NULL;
    pthread_join(t1, &r1);
    pthread_join(t2, &r2);
    assert_null(r1);
    assert_null(r2);
    assert_int_equal(sum, 2L * (299L * 300L / 2L));
    acltdtDestroyDataset(got);
    acltdtDestroyChannel(h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(items_and_datasets),
        cmocka_unit_test(channel_arguments),
        cmocka_unit_test(capacity_channel),
        cmocka_unit_test(tdt_process_channel),
        cmocka_unit_test(threads_share_a_channel),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
