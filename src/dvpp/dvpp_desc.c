/*
 * Picture descriptions (acldvppPicDesc), batches of them and video stream
 * descriptions (acldvppStreamDesc): plain records with setters and getters.
 * Setters only refuse a NULL description; the values are checked by the
 * operation that uses them (docs/dvpp.md "Objects and their life cycle").
 */
#include <stdlib.h>

#define OA_LOG_MODULE "ASCENDCL"
#include "base/acl_check.h"
#include "dvpp/dvpp_internal.h"

/* Largest batch CANN accepts (the batch APIs take at most 256 regions). */
#define DVPP_MAX_BATCH 256u

ACL_FUNC_VISIBILITY acldvppPicDesc *acldvppCreatePicDesc(void)
{
    acldvppPicDesc *d = calloc(1, sizeof(*d));
    if (d == NULL) {
        (void)OA_FAIL(OA_E_NOMEM, "cannot allocate a picture description");
    }
    return d;
}

ACL_FUNC_VISIBILITY aclError acldvppDestroyPicDesc(acldvppPicDesc *picDesc)
{
    ACL_REQUIRE_NOT_NULL(picDesc);
    free(picDesc);
    return ACL_SUCCESS;
}

#define PIC_SETTER(fn, type, field)                                     \
    ACL_FUNC_VISIBILITY aclError fn(acldvppPicDesc *picDesc, type value) \
    {                                                                   \
        ACL_REQUIRE_NOT_NULL(picDesc);                                  \
        picDesc->field = value;                                         \
        return ACL_SUCCESS;                                             \
    }

ACL_FUNC_VISIBILITY aclError acldvppSetPicDescData(acldvppPicDesc *picDesc, void *dataDev)
{
    ACL_REQUIRE_NOT_NULL(picDesc);
    picDesc->data = dataDev;
    return ACL_SUCCESS;
}

PIC_SETTER(acldvppSetPicDescSize, uint32_t, size)
PIC_SETTER(acldvppSetPicDescWidth, uint32_t, width)
PIC_SETTER(acldvppSetPicDescHeight, uint32_t, height)
PIC_SETTER(acldvppSetPicDescWidthStride, uint32_t, width_stride)
PIC_SETTER(acldvppSetPicDescHeightStride, uint32_t, height_stride)
PIC_SETTER(acldvppSetPicDescRetCode, uint32_t, ret_code)

ACL_FUNC_VISIBILITY aclError acldvppSetPicDescFormat(acldvppPicDesc *picDesc, acldvppPixelFormat format)
{
    ACL_REQUIRE_NOT_NULL(picDesc);
    picDesc->format = (uint32_t)format;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY void *acldvppGetPicDescData(const acldvppPicDesc *picDesc)
{
    ACL_REQUIRE_RET(picDesc != NULL, NULL, "parameter [picDesc] must not be null");
    return picDesc->data;
}

#define PIC_GETTER(fn, field)                                                           \
    ACL_FUNC_VISIBILITY uint32_t fn(const acldvppPicDesc *picDesc)                      \
    {                                                                                   \
        ACL_REQUIRE_RET(picDesc != NULL, 0u, "parameter [picDesc] must not be null");   \
        return picDesc->field;                                                          \
    }

PIC_GETTER(acldvppGetPicDescSize, size)
PIC_GETTER(acldvppGetPicDescWidth, width)
PIC_GETTER(acldvppGetPicDescHeight, height)
PIC_GETTER(acldvppGetPicDescWidthStride, width_stride)
PIC_GETTER(acldvppGetPicDescHeightStride, height_stride)
PIC_GETTER(acldvppGetPicDescRetCode, ret_code)

ACL_FUNC_VISIBILITY acldvppPixelFormat acldvppGetPicDescFormat(const acldvppPicDesc *picDesc)
{
    ACL_REQUIRE_RET(picDesc != NULL, PIXEL_FORMAT_YUV_400, "parameter [picDesc] must not be null");
    return (acldvppPixelFormat)picDesc->format;
}

/* ---- batches ---- */

ACL_FUNC_VISIBILITY acldvppBatchPicDesc *acldvppCreateBatchPicDesc(uint32_t batchSize)
{
    if (batchSize == 0 || batchSize > DVPP_MAX_BATCH) {
        (void)OA_FAIL(OA_E_PARAM, "batchSize [%u] must be in [1, %u]", batchSize, DVPP_MAX_BATCH);
        return NULL;
    }
    acldvppBatchPicDesc *b = calloc(1, sizeof(*b) + (size_t)batchSize * sizeof(acldvppPicDesc));
    if (b == NULL) {
        (void)OA_FAIL(OA_E_NOMEM, "cannot allocate a batch of %u picture descriptions", batchSize);
        return NULL;
    }
    b->count = batchSize;
    return b;
}

ACL_FUNC_VISIBILITY acldvppPicDesc *acldvppGetPicDesc(acldvppBatchPicDesc *batchPicDesc, uint32_t index)
{
    ACL_REQUIRE_RET(batchPicDesc != NULL, NULL, "parameter [batchPicDesc] must not be null");
    ACL_REQUIRE_RET(index < batchPicDesc->count, NULL, "index [%u] is out of the batch of %u pictures", index,
                    batchPicDesc->count);
    return &batchPicDesc->pics[index];
}

ACL_FUNC_VISIBILITY aclError acldvppDestroyBatchPicDesc(acldvppBatchPicDesc *batchPicDesc)
{
    ACL_REQUIRE_NOT_NULL(batchPicDesc);
    free(batchPicDesc);
    return ACL_SUCCESS;
}

/* ---- video stream descriptions ---- */

ACL_FUNC_VISIBILITY acldvppStreamDesc *acldvppCreateStreamDesc(void)
{
    acldvppStreamDesc *d = calloc(1, sizeof(*d));
    if (d == NULL) {
        (void)OA_FAIL(OA_E_NOMEM, "cannot allocate a stream description");
    }
    return d;
}

ACL_FUNC_VISIBILITY aclError acldvppDestroyStreamDesc(acldvppStreamDesc *streamDesc)
{
    ACL_REQUIRE_NOT_NULL(streamDesc);
    free(streamDesc);
    return ACL_SUCCESS;
}

#define STREAM_SETTER(fn, type, field, conv)                                   \
    ACL_FUNC_VISIBILITY aclError fn(acldvppStreamDesc *streamDesc, type value) \
    {                                                                          \
        ACL_REQUIRE_NOT_NULL(streamDesc);                                      \
        streamDesc->field = conv value;                                        \
        return ACL_SUCCESS;                                                    \
    }

STREAM_SETTER(acldvppSetStreamDescData, void *, data, )
STREAM_SETTER(acldvppSetStreamDescSize, uint32_t, size, )
STREAM_SETTER(acldvppSetStreamDescFormat, acldvppStreamFormat, format, (uint32_t))
STREAM_SETTER(acldvppSetStreamDescTimestamp, uint64_t, timestamp, )
STREAM_SETTER(acldvppSetStreamDescRetCode, uint32_t, ret_code, )
STREAM_SETTER(acldvppSetStreamDescEos, uint8_t, eos, )

#define STREAM_GETTER(fn, type, field, zero)                                                     \
    ACL_FUNC_VISIBILITY type fn(const acldvppStreamDesc *streamDesc)                             \
    {                                                                                            \
        ACL_REQUIRE_RET(streamDesc != NULL, zero, "parameter [streamDesc] must not be null");    \
        return (type)streamDesc->field;                                                          \
    }

STREAM_GETTER(acldvppGetStreamDescData, void *, data, NULL)
STREAM_GETTER(acldvppGetStreamDescSize, uint32_t, size, 0u)
STREAM_GETTER(acldvppGetStreamDescFormat, acldvppStreamFormat, format, H265_MAIN_LEVEL)
STREAM_GETTER(acldvppGetStreamDescTimestamp, uint64_t, timestamp, 0u)
STREAM_GETTER(acldvppGetStreamDescRetCode, uint32_t, ret_code, 0u)
STREAM_GETTER(acldvppGetStreamDescEos, uint8_t, eos, 0u)
