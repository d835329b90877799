/* Data buffer descriptors and element sizes (acl_base_rt.h). */
#include <stdlib.h>

#include "acl_base/data_buffer.h"
#include "base/acl_check.h"

ACL_FUNC_VISIBILITY aclDataBuffer *aclCreateDataBuffer(void *data, size_t size)
{
    aclDataBuffer *buf = malloc(sizeof(*buf));
    if (buf == NULL) {
        (void)OA_FAIL(OA_E_NOMEM, "cannot allocate a data buffer descriptor");
        return NULL;
    }
    buf->data = data;
    buf->length = (uint64_t)size;
    return buf;
}

ACL_FUNC_VISIBILITY aclError aclDestroyDataBuffer(const aclDataBuffer *dataBuffer)
{
    ACL_REQUIRE_NOT_NULL(dataBuffer);
    free((void *)(uintptr_t)dataBuffer);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclUpdateDataBuffer(aclDataBuffer *dataBuffer, void *data, size_t size)
{
    ACL_REQUIRE_NOT_NULL(dataBuffer);
    dataBuffer->data = data;
    dataBuffer->length = (uint64_t)size;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY void *aclGetDataBufferAddr(const aclDataBuffer *dataBuffer)
{
    return dataBuffer == NULL ? NULL : dataBuffer->data;
}

ACL_FUNC_VISIBILITY uint32_t aclGetDataBufferSize(const aclDataBuffer *dataBuffer)
{
    return dataBuffer == NULL ? 0u : (uint32_t)dataBuffer->length;
}

ACL_FUNC_VISIBILITY size_t aclGetDataBufferSizeV2(const aclDataBuffer *dataBuffer)
{
    return dataBuffer == NULL ? 0u : (size_t)dataBuffer->length;
}

ACL_FUNC_VISIBILITY size_t aclDataTypeSize(aclDataType dataType)
{
    switch (dataType) {
    case ACL_STRING:
    case ACL_DT_UNDEFINED:
        return 0;
    case ACL_UINT1: /* sub-byte types still report one byte per element */
    case ACL_INT4:
    case ACL_BOOL:
    case ACL_INT8:
    case ACL_UINT8:
    case ACL_HIFLOAT8:
    case ACL_FLOAT8_E5M2:
    case ACL_FLOAT8_E4M3FN:
    case ACL_FLOAT8_E8M0:
        return 1;
    case ACL_FLOAT16:
    case ACL_INT16:
    case ACL_UINT16:
    case ACL_BF16:
        return 2;
    case ACL_FLOAT:
    case ACL_INT32:
    case ACL_UINT32:
    case ACL_COMPLEX32:
        return 4;
    case ACL_COMPLEX128:
        return 16;
    default: /* INT64, UINT64, DOUBLE, COMPLEX64, FLOAT6/FLOAT4 and unknown values */
        return 8;
    }
}
