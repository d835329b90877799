/*
 * acl_tdt.h: data items, datasets and channels as in-process FIFOs.
 *
 * Two kinds of channels, as in CANN:
 *  - acltdtCreateChannelWithCapacity (CANN: a memory queue): a FIFO of at
 *    most capacity datasets ([2, 8192]) shared by every handle with the same
 *    device and name. Send/receive timeouts: -1 forever, 0 no wait, > 0 ms;
 *    full -> ACL_ERROR_RT_QUEUE_FULL, empty -> ACL_ERROR_RT_QUEUE_EMPTY.
 *    Size query and clean work.
 *  - acltdtCreateChannel (CANN: the TDT process): unbounded. Datasets sent
 *    on channel "X" are received on the channel named "TF_RECEIVE_X";
 *    receiving on a channel without that prefix, or any timeout other than
 *    -1, is ACL_ERROR_INVALID_PARAM; size query and clean are
 *    ACL_ERROR_FEATURE_UNSUPPORTED.
 * acltdtStopChannel wakes the sends/receives blocked on the channel at that
 * moment; they return ACL_ERROR_FAILURE.
 *
 * Sending deep-copies every item's data; received items own their copies and
 * belong to the dataset (acltdtDestroyDataset frees them). Only tensor,
 * end-of-sequence and abnormal items can be sent.
 */
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "acl/acl_tdt.h"
#include "base/acl_check.h"
#include "base/util.h"
#include "tdt/tdt_internal.h"

#define MAX_DIM_CNT 128u
#define RECEIVE_PREFIX "TF_RECEIVE_"

struct acltdtDataItem {
    acltdtTensorType type;
    int64_t *dims;
    size_t dim_count;
    aclDataType data_type;
    void *data;
    size_t size;
    bool owns_data;
    uint16_t slice_num;
    uint16_t slice_id;
};

struct acltdtDataset {
    acltdtDataItem **items;
    size_t count;
    size_t cap;
    char *name;
    bool free_self; /* filled by a receive: owns its items */
};

typedef struct message {
    acltdtDataItem **items;
    size_t count;
    char *name;
    struct message *next;
} message;

typedef struct fifo {
    uint32_t device;
    char key[OA_TDT_NAME_MAX + 16];
    bool bounded;
    size_t capacity;
    message *head;
    message *tail;
    size_t count;
    unsigned refs;
    unsigned stop_gen;
    struct fifo *next;
} fifo;

struct acltdtChannelHandle {
    fifo *f;
    uint32_t device;
    bool tdt_process; /* created by acltdtCreateChannel */
    bool receiver;    /* "TF_RECEIVE_" channel of the TDT process */
};

static fifo *g_fifos;

/* ---- items ---- */

static void item_free(acltdtDataItem *it)
{
    if (it == NULL) {
        return;
    }
    free(it->dims);
    if (it->owns_data) {
        free(it->data);
    }
    free(it);
}

static acltdtDataItem *item_new(acltdtTensorType type, const int64_t *dims, size_t n, aclDataType dt, void *data,
                                size_t size)
{
    acltdtDataItem *it = calloc(1, sizeof(*it));
    if (it == NULL) {
        return NULL;
    }
    it->type = type;
    it->data_type = dt;
    it->data = data;
    it->size = size;
    if (n > 0) {
        it->dims = malloc(n * sizeof(int64_t));
        if (it->dims == NULL) {
            free(it);
            return NULL;
        }
        memcpy(it->dims, dims, n * sizeof(int64_t));
        it->dim_count = n;
    }
    return it;
}

ACL_FUNC_VISIBILITY acltdtDataItem *acltdtCreateDataItem(acltdtTensorType tdtType, const int64_t *dims,
                                                         size_t dimNum, aclDataType dataType, void *data,
                                                         size_t size)
{
    ACL_REQUIRE_RET(!(dims == NULL && dimNum != 0), NULL, "dims is null but dimNum is %zu", dimNum);
    ACL_REQUIRE_RET(!(dims != NULL && dimNum == 0), NULL, "dims is not null but dimNum is 0");
    ACL_REQUIRE_RET(dimNum <= MAX_DIM_CNT, NULL, "dimNum %zu can't be larger than %u", dimNum, MAX_DIM_CNT);
    acltdtDataItem *it;
    if (tdtType != ACL_TENSOR_DATA_TENSOR) {
        ACL_REQUIRE_RET(dims == NULL, NULL, "dims must be null for tdtType %d", (int)tdtType);
        it = item_new(tdtType, NULL, 0, ACL_DT_UNDEFINED, NULL, 0);
    } else {
        it = item_new(tdtType, dims, dimNum, dataType, data, size);
    }
    ACL_REQUIRE_RET(it != NULL, NULL, "cannot allocate a data item");
    return it;
}

ACL_FUNC_VISIBILITY aclError acltdtDestroyDataItem(acltdtDataItem *dataItem)
{
    ACL_REQUIRE_NOT_NULL(dataItem);
    item_free(dataItem);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY acltdtTensorType acltdtGetTensorTypeFromItem(const acltdtDataItem *dataItem)
{
    ACL_REQUIRE_RET(dataItem != NULL, ACL_TENSOR_DATA_UNDEFINED, "parameter [dataItem] must not be null");
    return dataItem->type;
}

ACL_FUNC_VISIBILITY aclDataType acltdtGetDataTypeFromItem(const acltdtDataItem *dataItem)
{
    ACL_REQUIRE_RET(dataItem != NULL, ACL_DT_UNDEFINED, "parameter [dataItem] must not be null");
    return dataItem->data_type;
}

ACL_FUNC_VISIBILITY void *acltdtGetDataAddrFromItem(const acltdtDataItem *dataItem)
{
    ACL_REQUIRE_RET(dataItem != NULL, NULL, "parameter [dataItem] must not be null");
    return dataItem->data;
}

ACL_FUNC_VISIBILITY size_t acltdtGetDataSizeFromItem(const acltdtDataItem *dataItem)
{
    ACL_REQUIRE_RET(dataItem != NULL, 0, "parameter [dataItem] must not be null");
    return dataItem->size;
}

ACL_FUNC_VISIBILITY size_t acltdtGetDimNumFromItem(const acltdtDataItem *dataItem)
{
    ACL_REQUIRE_RET(dataItem != NULL, 0, "parameter [dataItem] must not be null");
    return dataItem->dim_count;
}

ACL_FUNC_VISIBILITY aclError acltdtGetSliceInfoFromItem(const acltdtDataItem *dataItem, size_t *sliceNum,
                                                        size_t *sliceId)
{
    ACL_REQUIRE_NOT_NULL(dataItem);
    ACL_REQUIRE_NOT_NULL(sliceNum);
    ACL_REQUIRE_NOT_NULL(sliceId);
    *sliceNum = dataItem->slice_num;
    *sliceId = dataItem->slice_id;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError acltdtGetDimsFromItem(const acltdtDataItem *dataItem, int64_t *dims, size_t dimNum)
{
    ACL_REQUIRE_NOT_NULL(dataItem);
    ACL_REQUIRE(!(dims == NULL && dimNum != 0), OA_E_PARAM, "if dims is null, dimNum should be 0 (got %zu)",
                dimNum);
    ACL_REQUIRE(!(dims != NULL && dimNum == 0), OA_E_PARAM, "if dims is not null, dimNum should be greater than 0");
    ACL_REQUIRE(dimNum >= dataItem->dim_count, OA_E_PARAM, "dimNum %zu cannot be less than the item's dims number %zu",
                dimNum, dataItem->dim_count);
    if (dataItem->dim_count > 0) {
        memcpy(dims, dataItem->dims, dataItem->dim_count * sizeof(int64_t));
    }
    return ACL_SUCCESS;
}

/* ---- datasets ---- */

ACL_FUNC_VISIBILITY acltdtDataset *acltdtCreateDataset(void)
{
    acltdtDataset *d = calloc(1, sizeof(*d));
    ACL_REQUIRE_RET(d != NULL, NULL, "cannot allocate a dataset");
    d->name = calloc(1, 1);
    if (d->name == NULL) {
        free(d);
        (void)OA_FAIL(OA_E_NOMEM, "cannot allocate a dataset");
        return NULL;
    }
    return d;
}

static void dataset_clear(acltdtDataset *d)
{
    if (d->free_self) {
        for (size_t i = 0; i < d->count; ++i) {
            item_free(d->items[i]);
        }
    }
    d->count = 0;
}

ACL_FUNC_VISIBILITY aclError acltdtDestroyDataset(acltdtDataset *dataset)
{
    ACL_REQUIRE_NOT_NULL(dataset);
    dataset_clear(dataset);
    free(dataset->items);
    free(dataset->name);
    free(dataset);
    return ACL_SUCCESS;
}

static oa_status dataset_push(acltdtDataset *d, acltdtDataItem *it)
{
    if (d->count == d->cap) {
        const size_t ncap = d->cap == 0 ? 8 : d->cap * 2;
        acltdtDataItem **n = realloc(d->items, ncap * sizeof(*n));
        if (n == NULL) {
            return OA_FAIL(OA_E_NOMEM, "cannot grow the dataset");
        }
        d->items = n;
        d->cap = ncap;
    }
    d->items[d->count++] = it;
    return OA_OK;
}

ACL_FUNC_VISIBILITY aclError acltdtAddDataItem(acltdtDataset *dataset, acltdtDataItem *dataItem)
{
    ACL_REQUIRE_NOT_NULL(dataset);
    ACL_REQUIRE_NOT_NULL(dataItem);
    ACL_REQUIRE(!dataset->free_self, OA_E_FEATURE_UNSUPPORTED,
                "items cannot be added to a dataset filled by acltdtReceiveTensor");
    ACL_RETURN_STATUS(dataset_push(dataset, dataItem));
}

ACL_FUNC_VISIBILITY acltdtDataItem *acltdtGetDataItem(const acltdtDataset *dataset, size_t index)
{
    ACL_REQUIRE_RET(dataset != NULL, NULL, "parameter [dataset] must not be null");
    ACL_REQUIRE_RET(index < dataset->count, NULL, "index %zu is greater than or equal to dataset size %zu", index,
                    dataset->count);
    return dataset->items[index];
}

ACL_FUNC_VISIBILITY size_t acltdtGetDatasetSize(const acltdtDataset *dataset)
{
    ACL_REQUIRE_RET(dataset != NULL, 0, "parameter [dataset] must not be null");
    return dataset->count;
}

ACL_FUNC_VISIBILITY const char *acltdtGetDatasetName(const acltdtDataset *dataset)
{
    ACL_REQUIRE_RET(dataset != NULL, NULL, "parameter [dataset] must not be null");
    return dataset->name;
}

/* ---- messages ---- */

static void message_free(message *m)
{
    if (m == NULL) {
        return;
    }
    for (size_t i = 0; i < m->count; ++i) {
        item_free(m->items[i]);
    }
    free(m->items);
    free(m->name);
    free(m);
}

/* Deep copy of a dataset for sending; only tensor / end-of-sequence / abnormal items travel. */
static oa_status message_from_dataset(const acltdtDataset *d, message **out)
{
    message *m = calloc(1, sizeof(*m));
    if (m == NULL) {
        return OA_FAIL(OA_E_NOMEM, "cannot allocate a channel message");
    }
    m->name = oa_strdup(d->name != NULL ? d->name : "");
    m->items = d->count > 0 ? calloc(d->count, sizeof(acltdtDataItem *)) : NULL;
    if (m->name == NULL || (d->count > 0 && m->items == NULL)) {
        message_free(m);
        return OA_FAIL(OA_E_NOMEM, "cannot allocate a channel message");
    }
    for (size_t i = 0; i < d->count; ++i) {
        const acltdtDataItem *src = d->items[i];
        if (src->type != ACL_TENSOR_DATA_TENSOR && src->type != ACL_TENSOR_DATA_END_OF_SEQUENCE &&
            src->type != ACL_TENSOR_DATA_ABNORMAL) {
            message_free(m);
            return OA_FAIL(OA_E_PARAM, "item %zu has tdt type %d, which cannot be sent", i, (int)src->type);
        }
        if (src->data == NULL && src->size > 0) {
            message_free(m);
            return OA_FAIL(OA_E_PARAM, "item %zu has no data but a size of %zu", i, src->size);
        }
        acltdtDataItem *it = item_new(src->type, src->dims, src->dim_count, src->data_type, NULL, src->size);
        if (it != NULL && src->size > 0) {
            it->data = malloc(src->size);
            if (it->data != NULL) {
                memcpy(it->data, src->data, src->size);
                it->owns_data = true;
            }
        }
        if (it == NULL || (src->size > 0 && it->data == NULL)) {
            item_free(it);
            message_free(m);
            return OA_FAIL(OA_E_NOMEM, "cannot copy %zu bytes of item %zu", src->size, i);
        }
        it->slice_num = src->slice_num;
        it->slice_id = src->slice_id;
        m->items[m->count++] = it;
    }
    *out = m;
    return OA_OK;
}

/* ---- channels ---- */

static fifo *fifo_acquire_locked(uint32_t device, const char *key, bool bounded, size_t capacity)
{
    for (fifo *f = g_fifos; f != NULL; f = f->next) {
        if (f->device == device && f->bounded == bounded && strcmp(f->key, key) == 0) {
            ++f->refs;
            return f;
        }
    }
    fifo *f = calloc(1, sizeof(*f));
    if (f == NULL) {
        return NULL;
    }
    f->device = device;
    oa_strlcpy(f->key, key, sizeof(f->key));
    f->bounded = bounded;
    f->capacity = capacity;
    f->refs = 1;
    f->next = g_fifos;
    g_fifos = f;
    return f;
}

static void fifo_clear_locked(fifo *f)
{
    while (f->head != NULL) {
        message *m = f->head;
        f->head = m->next;
        message_free(m);
    }
    f->tail = NULL;
    f->count = 0;
}

static void fifo_release_locked(fifo *f)
{
    if (--f->refs > 0) {
        return;
    }
    for (fifo **pp = &g_fifos; *pp != NULL; pp = &(*pp)->next) {
        if (*pp == f) {
            *pp = f->next;
            break;
        }
    }
    fifo_clear_locked(f);
    free(f);
}

/* Device ids come from the runtime: [0, aclrtGetDeviceCount()). */
static bool device_valid(uint32_t device)
{
    uint32_t count = 0;
    if (aclrtGetDeviceCount(&count) != ACL_SUCCESS) {
        return false;
    }
    if (device >= count) {
        (void)OA_FAIL(OA_E_RT_DEVICE_ID, "device id %u is not in range [0, %u)", device, count);
        return false;
    }
    return true;
}

static acltdtChannelHandle *channel_open(uint32_t device, const char *name, bool bounded, size_t capacity)
{
    if (!device_valid(device)) {
        return NULL;
    }
    acltdtChannelHandle *h = calloc(1, sizeof(*h));
    if (h == NULL) {
        (void)OA_FAIL(OA_E_NOMEM, "cannot allocate a channel handle");
        return NULL;
    }
    h->device = device;
    h->tdt_process = !bounded;
    const char *key = name;
    if (!bounded && strncmp(name, RECEIVE_PREFIX, strlen(RECEIVE_PREFIX)) == 0) {
        h->receiver = true;
        key = name + strlen(RECEIVE_PREFIX);
    }
    oa_tdt_lock();
    h->f = fifo_acquire_locked(device, key, bounded, capacity);
    oa_tdt_unlock();
    if (h->f == NULL) {
        free(h);
        (void)OA_FAIL(OA_E_NOMEM, "cannot allocate a channel");
        return NULL;
    }
    return h;
}

ACL_FUNC_VISIBILITY acltdtChannelHandle *acltdtCreateChannel(uint32_t deviceId, const char *name)
{
    ACL_REQUIRE_RET(name != NULL, NULL, "parameter [name] must not be null");
    ACL_REQUIRE_RET(strnlen(name, OA_TDT_NAME_MAX) + 1 <= OA_TDT_NAME_MAX, NULL,
                    "channel name length cannot be larger than %u", OA_TDT_NAME_MAX);
    return channel_open(deviceId, name, false, 0);
}

ACL_FUNC_VISIBILITY acltdtChannelHandle *acltdtCreateChannelWithCapacity(uint32_t deviceId, const char *name,
                                                                         size_t capacity)
{
    ACL_REQUIRE_RET(name != NULL, NULL, "parameter [name] must not be null");
    ACL_REQUIRE_RET(strnlen(name, OA_TDT_NAME_MAX) + 1 <= OA_TDT_NAME_MAX, NULL,
                    "channel name length cannot be larger than %u", OA_TDT_NAME_MAX);
    ACL_REQUIRE_RET(capacity >= OA_TDT_DEPTH_MIN && capacity <= OA_TDT_DEPTH_MAX, NULL,
                    "channel capacity %zu must be in [%u, %u]", capacity, OA_TDT_DEPTH_MIN, OA_TDT_DEPTH_MAX);
    return channel_open(deviceId, name, true, capacity);
}

ACL_FUNC_VISIBILITY aclError acltdtDestroyChannel(acltdtChannelHandle *handle)
{
    ACL_REQUIRE_NOT_NULL(handle);
    oa_tdt_lock();
    ++handle->f->stop_gen; /* nobody may stay blocked on a handle that goes away */
    oa_tdt_broadcast();
    fifo_release_locked(handle->f);
    oa_tdt_unlock();
    free(handle);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError acltdtStopChannel(acltdtChannelHandle *handle)
{
    ACL_REQUIRE_NOT_NULL(handle);
    oa_tdt_lock();
    ++handle->f->stop_gen;
    oa_tdt_broadcast();
    oa_tdt_unlock();
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError acltdtCleanChannel(acltdtChannelHandle *handle)
{
    ACL_REQUIRE_NOT_NULL(handle);
    ACL_REQUIRE(!handle->tdt_process, OA_E_FEATURE_UNSUPPORTED,
                "channels created by acltdtCreateChannel cannot be cleaned");
    oa_tdt_lock();
    fifo_clear_locked(handle->f);
    oa_tdt_broadcast();
    oa_tdt_unlock();
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError acltdtQueryChannelSize(const acltdtChannelHandle *handle, size_t *size)
{
    ACL_REQUIRE_NOT_NULL(handle);
    ACL_REQUIRE_NOT_NULL(size);
    ACL_REQUIRE(!handle->tdt_process, OA_E_FEATURE_UNSUPPORTED,
                "channels created by acltdtCreateChannel cannot report their size");
    oa_tdt_lock();
    *size = handle->f->count;
    oa_tdt_unlock();
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError acltdtSendTensor(const acltdtChannelHandle *handle, const acltdtDataset *dataset,
                                              int32_t timeout)
{
    ACL_REQUIRE_NOT_NULL(handle);
    ACL_REQUIRE_NOT_NULL(dataset);
    if (handle->tdt_process) {
        ACL_REQUIRE(timeout == -1, OA_E_PARAM, "only timeout -1 (never) is supported by this channel, got %d",
                    (int)timeout);
    }
    message *m = NULL;
    oa_status st = message_from_dataset(dataset, &m);
    if (st != OA_OK) {
        ACL_RETURN_STATUS(st);
    }
    const oa_tdt_deadline dl = oa_tdt_deadline_after(timeout);
    oa_tdt_lock();
    fifo *f = handle->f;
    const unsigned gen = f->stop_gen;
    for (;;) {
        if (f->stop_gen != gen) {
            st = OA_FAIL(OA_E_FAILURE, "the channel was stopped while sending");
            break;
        }
        if (!f->bounded || f->count < f->capacity) {
            if (f->tail != NULL) {
                f->tail->next = m;
            } else {
                f->head = m;
            }
            f->tail = m;
            ++f->count;
            m = NULL;
            oa_tdt_broadcast();
            break;
        }
        if (!oa_tdt_wait(&dl)) {
            st = OA_FAIL(OA_E_RT_QUEUE_FULL, "channel is full");
            break;
        }
    }
    oa_tdt_unlock();
    message_free(m);
    ACL_RETURN_STATUS(st);
}

ACL_FUNC_VISIBILITY aclError acltdtReceiveTensor(const acltdtChannelHandle *handle, acltdtDataset *dataset,
                                                 int32_t timeout)
{
    ACL_REQUIRE_NOT_NULL(handle);
    ACL_REQUIRE_NOT_NULL(dataset);
    if (handle->tdt_process) {
        ACL_REQUIRE(timeout == -1, OA_E_PARAM, "only timeout -1 (never) is supported by this channel, got %d",
                    (int)timeout);
        ACL_REQUIRE(handle->receiver, OA_E_PARAM, "it is not a receive channel (name must start with %s)",
                    RECEIVE_PREFIX);
        ACL_REQUIRE(dataset->count == 0, OA_E_PARAM, "dataset must be empty before receiving");
    } else {
        ACL_REQUIRE(dataset->count == 0 || dataset->free_self, OA_E_PARAM,
                    "dataset must be empty or filled by a previous receive");
    }
    const oa_tdt_deadline dl = oa_tdt_deadline_after(timeout);
    oa_tdt_lock();
    fifo *f = handle->f;
    const unsigned gen = f->stop_gen;
    message *m = NULL;
    oa_status st = OA_OK;
    for (;;) {
        if (f->stop_gen != gen) {
            st = OA_FAIL(OA_E_FAILURE, "the channel was stopped while receiving");
            break;
        }
        if (f->head != NULL) {
            m = f->head;
            f->head = m->next;
            if (f->head == NULL) {
                f->tail = NULL;
            }
            --f->count;
            oa_tdt_broadcast();
            break;
        }
        if (!oa_tdt_wait(&dl)) {
            st = OA_FAIL(OA_E_RT_QUEUE_EMPTY, "channel is empty");
            break;
        }
    }
    oa_tdt_unlock();
    if (st != OA_OK) {
        ACL_RETURN_STATUS(st);
    }
    /* the dataset takes the message's items and name */
    dataset_clear(dataset);
    dataset->free_self = true;
    for (size_t i = 0; i < m->count; ++i) {
        if (st == OA_OK) {
            st = dataset_push(dataset, m->items[i]);
        }
        if (st == OA_OK) {
            m->items[i] = NULL;
        }
    }
    if (st == OA_OK) {
        free(dataset->name);
        dataset->name = m->name;
        m->name = NULL;
    }
    message_free(m);
    ACL_RETURN_STATUS(st);
}
