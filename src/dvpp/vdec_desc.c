/*
 * aclvdecChannelDesc and aclvdecFrameConfig: setters, getters and the
 * key/value parameter interface. Values are checked where CANN documents a
 * range (stream format, output format); the rest by aclvdecCreateChannel.
 * Rules: docs/dvpp.md "VDEC".
 */
#include <stdlib.h>
#include <string.h>

#define OA_LOG_MODULE "ASCENDCL"
#include "base/acl_check.h"
#include "dvpp/vdec_internal.h"

ACL_FUNC_VISIBILITY aclvdecChannelDesc *aclvdecCreateChannelDesc(void)
{
    aclvdecChannelDesc *d = calloc(1, sizeof(*d));
    if (d == NULL) {
        (void)OA_FAIL(OA_E_NOMEM, "cannot allocate a VDEC channel description");
        return NULL;
    }
    d->en_type = H264_MAIN_LEVEL;
    d->out_format = PIXEL_FORMAT_YUV_SEMIPLANAR_420;
    d->bit_depth = 8;
    return d;
}

ACL_FUNC_VISIBILITY aclError aclvdecDestroyChannelDesc(aclvdecChannelDesc *channelDesc)
{
    ACL_REQUIRE_NOT_NULL(channelDesc);
    ACL_REQUIRE(channelDesc->chan == NULL, OA_E_PARAM,
                "the VDEC channel description still has a channel: call aclvdecDestroyChannel first");
    free(channelDesc);
    return ACL_SUCCESS;
}

static oa_status set_en_type(aclvdecChannelDesc *d, uint32_t v)
{
    if (v > (uint32_t)H264_HIGH_LEVEL) {
        return OA_FAIL(OA_E_PARAM, "VDEC enType [%u] must be in [0, %u]", v, (uint32_t)H264_HIGH_LEVEL);
    }
    d->en_type = v;
    return OA_OK;
}

static oa_status set_out_format(aclvdecChannelDesc *d, uint32_t v)
{
    if (v != PIXEL_FORMAT_YUV_SEMIPLANAR_420 && v != PIXEL_FORMAT_YVU_SEMIPLANAR_420 && v != PIXEL_FORMAT_RGB_888 &&
        v != PIXEL_FORMAT_BGR_888) {
        return OA_FAIL(OA_E_PARAM, "VDEC output format %s is not supported (YUV420SP NV12/NV21, RGB888, BGR888)",
                       oa_dvpp_fmt_name(v));
    }
    d->out_format = v;
    return OA_OK;
}

static oa_status set_bit_depth(aclvdecChannelDesc *d, uint32_t v)
{
    if (v != 8 && v != 10) {
        return OA_FAIL(OA_E_PARAM, "VDEC bitDepth [%u] must be 8 or 10", v);
    }
    d->bit_depth = v;
    return OA_OK;
}

/*
 * refFrameNum sizes a hardware decoder's reference buffers; libavcodec allocates the references each stream
 * declares, so a number cannot take effect: 0 (the default, "as the stream needs") is accepted, others are refused
 * as CANN refuses the setting on the SoCs without it (docs/dvpp.md, VDEC).
 */
static oa_status set_ref_frame_num(aclvdecChannelDesc *d, uint32_t v)
{
    if (v != 0) {
        return OA_FAIL(OA_E_FEATURE_UNSUPPORTED, "VDEC refFrameNum [%u] is not supported: the software decoder keeps "
                       "the reference frames the stream declares (0 keeps that default)", v);
    }
    d->ref_frame_num = 0;
    return OA_OK;
}

#define VDEC_SETTER(fn, type, body)                                         \
    ACL_FUNC_VISIBILITY aclError fn(aclvdecChannelDesc *channelDesc, type v) \
    {                                                                       \
        ACL_REQUIRE_NOT_NULL(channelDesc);                                  \
        body;                                                               \
        return ACL_SUCCESS;                                                 \
    }

VDEC_SETTER(aclvdecSetChannelDescChannelId, uint32_t, channelDesc->channel_id = v)
VDEC_SETTER(aclvdecSetChannelDescThreadId, uint64_t, channelDesc->thread_id = v)
VDEC_SETTER(aclvdecSetChannelDescCallback, aclvdecCallback, channelDesc->callback = v)
VDEC_SETTER(aclvdecSetChannelDescOutPicWidth, uint32_t, channelDesc->out_width = v)
VDEC_SETTER(aclvdecSetChannelDescOutPicHeight, uint32_t, channelDesc->out_height = v)
VDEC_SETTER(aclvdecSetChannelDescRefFrameNum, uint32_t, ACL_RETURN_STATUS(set_ref_frame_num(channelDesc, v)))
VDEC_SETTER(aclvdecSetChannelDescOutMode, uint32_t, ACL_REQUIRE(v <= 1, OA_E_PARAM, "VDEC outMode [%u] must be 0 or 1", v);
            channelDesc->out_mode = v)
VDEC_SETTER(aclvdecSetChannelDescEnType, acldvppStreamFormat, ACL_RETURN_STATUS(set_en_type(channelDesc, (uint32_t)v)))
VDEC_SETTER(aclvdecSetChannelDescOutPicFormat, acldvppPixelFormat,
            ACL_RETURN_STATUS(set_out_format(channelDesc, (uint32_t)v)))
VDEC_SETTER(aclvdecSetChannelDescBitDepth, uint32_t, ACL_RETURN_STATUS(set_bit_depth(channelDesc, v)))

#define VDEC_GETTER(fn, type, field, zero)                                                             \
    ACL_FUNC_VISIBILITY type fn(const aclvdecChannelDesc *channelDesc)                                 \
    {                                                                                                  \
        ACL_REQUIRE_RET(channelDesc != NULL, zero, "parameter [channelDesc] must not be null");        \
        return (type)channelDesc->field;                                                               \
    }

VDEC_GETTER(aclvdecGetChannelDescChannelId, uint32_t, channel_id, 0u)
VDEC_GETTER(aclvdecGetChannelDescThreadId, uint64_t, thread_id, 0u)
VDEC_GETTER(aclvdecGetChannelDescCallback, aclvdecCallback, callback, NULL)
VDEC_GETTER(aclvdecGetChannelDescEnType, acldvppStreamFormat, en_type, H265_MAIN_LEVEL)
VDEC_GETTER(aclvdecGetChannelDescOutPicFormat, acldvppPixelFormat, out_format, PIXEL_FORMAT_YUV_400)
VDEC_GETTER(aclvdecGetChannelDescOutPicWidth, uint32_t, out_width, 0u)
VDEC_GETTER(aclvdecGetChannelDescOutPicHeight, uint32_t, out_height, 0u)
VDEC_GETTER(aclvdecGetChannelDescBitDepth, uint32_t, bit_depth, 0u)
VDEC_GETTER(aclvdecGetChannelDescRefFrameNum, uint32_t, ref_frame_num, 0u)
VDEC_GETTER(aclvdecGetChannelDescOutMode, uint32_t, out_mode, 0u)

/* Size in bytes of the value of each aclvdecChannelDescParamType key. */
static size_t param_size(aclvdecChannelDescParamType t)
{
    switch (t) {
    case ACL_VDEC_THREAD_ID_UINT64:
        return sizeof(uint64_t);
    case ACL_VDEC_CALLBACK_PTR:
        return sizeof(aclvdecCallback);
    case ACL_VDEC_CSC_MATRIX_UINT32:
    case ACL_VDEC_OUT_MODE_UINT32:
    case ACL_VDEC_CHANNEL_ID_UINT32:
    case ACL_VDEC_ENCODE_TYPE_UINT32:
    case ACL_VDEC_OUT_PIC_FORMAT_UINT32:
    case ACL_VDEC_OUT_PIC_WIDTH_UINT32:
    case ACL_VDEC_OUT_PIC_HEIGHT_UINT32:
    case ACL_VDEC_REF_FRAME_NUM_UINT32:
    case ACL_VDEC_BIT_DEPTH_UINT32:
        return sizeof(uint32_t);
    default:
        return 0;
    }
}

ACL_FUNC_VISIBILITY aclError aclvdecSetChannelDescParam(aclvdecChannelDesc *channelDesc,
                                                        aclvdecChannelDescParamType paramType, size_t length,
                                                        const void *param)
{
    ACL_REQUIRE_NOT_NULL(channelDesc);
    ACL_REQUIRE_NOT_NULL(param);
    const size_t n = param_size(paramType);
    ACL_REQUIRE(n != 0, OA_E_PARAM, "paramType [%d] is not a VDEC channel parameter", (int)paramType);
    ACL_REQUIRE(length == n, OA_E_PARAM, "length [%zu] of VDEC parameter %d must be %zu", length, (int)paramType, n);
    uint32_t v = 0;
    if (n == sizeof(uint32_t)) {
        memcpy(&v, param, sizeof(v));
    }
    aclvdecChannelDesc *d = channelDesc;
    switch (paramType) {
    case ACL_VDEC_THREAD_ID_UINT64:
        memcpy(&d->thread_id, param, sizeof(d->thread_id));
        return ACL_SUCCESS;
    case ACL_VDEC_CALLBACK_PTR:
        memcpy(&d->callback, param, sizeof(d->callback));
        return ACL_SUCCESS;
    case ACL_VDEC_CSC_MATRIX_UINT32:
        ACL_REQUIRE(v <= (uint32_t)ACL_DVPP_CSC_MATRIX_BT2020_NARROW, OA_E_PARAM, "csc matrix [%u] must be in [0, %u]",
                    v, (uint32_t)ACL_DVPP_CSC_MATRIX_BT2020_NARROW);
        d->csc = v;
        return ACL_SUCCESS;
    case ACL_VDEC_OUT_MODE_UINT32:
        return aclvdecSetChannelDescOutMode(d, v);
    case ACL_VDEC_CHANNEL_ID_UINT32:
        d->channel_id = v;
        return ACL_SUCCESS;
    case ACL_VDEC_ENCODE_TYPE_UINT32:
        ACL_RETURN_STATUS(set_en_type(d, v));
    case ACL_VDEC_OUT_PIC_FORMAT_UINT32:
        ACL_RETURN_STATUS(set_out_format(d, v));
    case ACL_VDEC_OUT_PIC_WIDTH_UINT32:
        d->out_width = v;
        return ACL_SUCCESS;
    case ACL_VDEC_OUT_PIC_HEIGHT_UINT32:
        d->out_height = v;
        return ACL_SUCCESS;
    case ACL_VDEC_REF_FRAME_NUM_UINT32:
        ACL_RETURN_STATUS(set_ref_frame_num(d, v));
    default: /* ACL_VDEC_BIT_DEPTH_UINT32 */
        ACL_RETURN_STATUS(set_bit_depth(d, v));
    }
}

ACL_FUNC_VISIBILITY aclError aclvdecGetChannelDescParam(const aclvdecChannelDesc *channelDesc,
                                                        aclvdecChannelDescParamType paramType, size_t length,
                                                        size_t *paramRetSize, void *param)
{
    ACL_REQUIRE_NOT_NULL(channelDesc);
    ACL_REQUIRE_NOT_NULL(paramRetSize);
    ACL_REQUIRE_NOT_NULL(param);
    const size_t n = param_size(paramType);
    ACL_REQUIRE(n != 0, OA_E_PARAM, "paramType [%d] is not a VDEC channel parameter", (int)paramType);
    ACL_REQUIRE(length >= n, OA_E_PARAM, "length [%zu] is smaller than the parameter's %zu bytes", length, n);
    const aclvdecChannelDesc *d = channelDesc;
    const uint32_t u32[] = {d->csc,       d->out_mode,   0,          0,           d->channel_id, d->en_type,
                            d->out_format, d->out_width, d->out_height, d->ref_frame_num, d->bit_depth};
    if (paramType == ACL_VDEC_THREAD_ID_UINT64) {
        memcpy(param, &d->thread_id, n);
    } else if (paramType == ACL_VDEC_CALLBACK_PTR) {
        memcpy(param, &d->callback, n);
    } else {
        memcpy(param, &u32[paramType], n);
    }
    *paramRetSize = n;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclvdecFrameConfig *aclvdecCreateFrameConfig(void)
{
    aclvdecFrameConfig *c = calloc(1, sizeof(*c));
    if (c == NULL) {
        (void)OA_FAIL(OA_E_NOMEM, "cannot allocate a VDEC frame configuration");
    }
    return c;
}

ACL_FUNC_VISIBILITY aclError aclvdecDestroyFrameConfig(aclvdecFrameConfig *vdecFrameConfig)
{
    ACL_REQUIRE_NOT_NULL(vdecFrameConfig);
    free(vdecFrameConfig);
    return ACL_SUCCESS;
}
