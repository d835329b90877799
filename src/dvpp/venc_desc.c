/*
 * aclvencChannelDesc and aclvencFrameConfig: setters, getters and the
 * key/value parameter interface (docs/dvpp.md "VENC"). The channel id is
 * assigned by aclvencCreateChannel.
 */
#include <stdlib.h>
#include <string.h>

#define OA_LOG_MODULE "ASCENDCL"
#include "base/acl_check.h"
#include "dvpp/venc_internal.h"

#define VENC_DEFAULT_GOP 16u
#define VENC_DEFAULT_RATE 30u

ACL_FUNC_VISIBILITY aclvencChannelDesc *aclvencCreateChannelDesc(void)
{
    aclvencChannelDesc *d = calloc(1, sizeof(*d));
    if (d == NULL) {
        (void)OA_FAIL(OA_E_NOMEM, "cannot allocate a VENC channel description");
        return NULL;
    }
    d->pic_format = PIXEL_FORMAT_YUV_SEMIPLANAR_420;
    d->en_type = H264_MAIN_LEVEL;
    d->key_frame_interval = VENC_DEFAULT_GOP;
    d->src_rate = VENC_DEFAULT_RATE;
    return d;
}

ACL_FUNC_VISIBILITY aclError aclvencDestroyChannelDesc(aclvencChannelDesc *channelDesc)
{
    ACL_REQUIRE_NOT_NULL(channelDesc);
    ACL_REQUIRE(channelDesc->chan == NULL, OA_E_PARAM,
                "the VENC channel description still has a channel: call aclvencDestroyChannel first");
    free(channelDesc);
    return ACL_SUCCESS;
}

static oa_status check_u32(aclvencChannelDescParamType t, uint32_t v)
{
    switch (t) {
    case ACL_VENC_PIXEL_FORMAT_UINT32:
        if (v != PIXEL_FORMAT_YUV_SEMIPLANAR_420 && v != PIXEL_FORMAT_YVU_SEMIPLANAR_420) {
            return OA_FAIL(OA_E_PARAM, "VENC picture format %s is not supported (YUV420SP NV12 or NV21)",
                           oa_dvpp_fmt_name(v));
        }
        return OA_OK;
    case ACL_VENC_ENCODE_TYPE_UINT32:
        if (v > (uint32_t)H264_HIGH_LEVEL) {
            return OA_FAIL(OA_E_PARAM, "VENC enType [%u] must be in [0, %u]", v, (uint32_t)H264_HIGH_LEVEL);
        }
        return OA_OK;
    case ACL_VENC_MAX_IP_PROP_UINT32:
        /* a cap on the I-frame / P-frame size ratio: libx264 / libx265 have none (docs/dvpp.md, VENC) */
        if (v != 0) {
            return OA_FAIL(OA_E_FEATURE_UNSUPPORTED, "VENC maxIpProp [%u] is not supported: the software encoders "
                           "have no bound on the I-frame / P-frame size ratio (0 keeps the encoder's rate control)", v);
        }
        return OA_OK;
    case ACL_VENC_BUF_SIZE_UINT32:
        /* the encoded frames go to buffers the library owns (docs/dvpp.md, VENC) */
        if (v != 0) {
            return OA_FAIL(OA_E_FEATURE_UNSUPPORTED, "VENC bufSize [%u] is not supported: each encoded frame goes to "
                           "a buffer the library owns and hands to the callback (0 keeps that)", v);
        }
        return OA_OK;
    case ACL_VENC_RC_MODE_UINT32:
        if (v > VENC_RC_CBR) {
            return OA_FAIL(OA_E_PARAM, "VENC rcMode [%u] must be 0 (default, VBR), 1 (VBR) or 2 (CBR)", v);
        }
        return OA_OK;
    case ACL_VENC_KEY_FRAME_INTERVAL_UINT32:
    case ACL_VENC_SRC_RATE_UINT32:
        if (v == 0) {
            return OA_FAIL(OA_E_PARAM, "VENC parameter %d must be greater than 0", (int)t);
        }
        return OA_OK;
    default:
        return OA_OK;
    }
}

static uint32_t *u32_field(aclvencChannelDesc *d, aclvencChannelDescParamType t)
{
    switch (t) {
    case ACL_VENC_PIXEL_FORMAT_UINT32:
        return &d->pic_format;
    case ACL_VENC_ENCODE_TYPE_UINT32:
        return &d->en_type;
    case ACL_VENC_PIC_WIDTH_UINT32:
        return &d->pic_width;
    case ACL_VENC_PIC_HEIGHT_UINT32:
        return &d->pic_height;
    case ACL_VENC_KEY_FRAME_INTERVAL_UINT32:
        return &d->key_frame_interval;
    case ACL_VENC_BUF_SIZE_UINT32:
        return &d->buf_size;
    case ACL_VENC_RC_MODE_UINT32:
        return &d->rc_mode;
    case ACL_VENC_SRC_RATE_UINT32:
        return &d->src_rate;
    case ACL_VENC_MAX_BITRATE_UINT32:
        return &d->max_bit_rate;
    case ACL_VENC_MAX_IP_PROP_UINT32:
        return &d->max_ip_prop;
    default:
        return NULL;
    }
}

static oa_status set_u32(aclvencChannelDesc *d, aclvencChannelDescParamType t, uint32_t v)
{
    if (d == NULL) {
        return OA_FAIL(OA_E_PARAM, "parameter [channelDesc] must not be null");
    }
    const oa_status st = check_u32(t, v);
    if (st == OA_OK) {
        *u32_field(d, t) = v;
    }
    return st;
}

#define VENC_U32_SETTER(fn, key)                                            \
    ACL_FUNC_VISIBILITY aclError fn(aclvencChannelDesc *channelDesc, uint32_t v) \
    {                                                                       \
        return oa_status_to_acl(set_u32(channelDesc, key, v));              \
    }

VENC_U32_SETTER(aclvencSetChannelDescPicWidth, ACL_VENC_PIC_WIDTH_UINT32)
VENC_U32_SETTER(aclvencSetChannelDescPicHeight, ACL_VENC_PIC_HEIGHT_UINT32)
VENC_U32_SETTER(aclvencSetChannelDescKeyFrameInterval, ACL_VENC_KEY_FRAME_INTERVAL_UINT32)
VENC_U32_SETTER(aclvencSetChannelDescBufSize, ACL_VENC_BUF_SIZE_UINT32)
VENC_U32_SETTER(aclvencSetChannelDescRcMode, ACL_VENC_RC_MODE_UINT32)
VENC_U32_SETTER(aclvencSetChannelDescSrcRate, ACL_VENC_SRC_RATE_UINT32)
VENC_U32_SETTER(aclvencSetChannelDescMaxBitRate, ACL_VENC_MAX_BITRATE_UINT32)

ACL_FUNC_VISIBILITY aclError aclvencSetChannelDescEnType(aclvencChannelDesc *channelDesc, acldvppStreamFormat enType)
{
    return oa_status_to_acl(set_u32(channelDesc, ACL_VENC_ENCODE_TYPE_UINT32, (uint32_t)enType));
}

ACL_FUNC_VISIBILITY aclError aclvencSetChannelDescPicFormat(aclvencChannelDesc *channelDesc,
                                                            acldvppPixelFormat picFormat)
{
    return oa_status_to_acl(set_u32(channelDesc, ACL_VENC_PIXEL_FORMAT_UINT32, (uint32_t)picFormat));
}

ACL_FUNC_VISIBILITY aclError aclvencSetChannelDescThreadId(aclvencChannelDesc *channelDesc, uint64_t threadId)
{
    ACL_REQUIRE_NOT_NULL(channelDesc);
    channelDesc->thread_id = threadId;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclvencSetChannelDescCallback(aclvencChannelDesc *channelDesc, aclvencCallback callback)
{
    ACL_REQUIRE_NOT_NULL(channelDesc);
    channelDesc->callback = callback;
    return ACL_SUCCESS;
}

/* A user output buffer for the encoded stream is refused (docs/dvpp.md, VENC); NULL keeps the library's. */
static oa_status set_buf_addr(aclvencChannelDesc *d, void *addr)
{
    if (addr != NULL) {
        return OA_FAIL(OA_E_FEATURE_UNSUPPORTED, "VENC bufAddr is not supported: each encoded frame goes to a buffer "
                       "the library owns and hands to the callback (NULL keeps that)");
    }
    d->buf_addr = NULL;
    return OA_OK;
}

ACL_FUNC_VISIBILITY aclError aclvencSetChannelDescBufAddr(aclvencChannelDesc *channelDesc, void *bufAddr)
{
    ACL_REQUIRE_NOT_NULL(channelDesc);
    return oa_status_to_acl(set_buf_addr(channelDesc, bufAddr));
}

#define VENC_GETTER(fn, type, field, zero)                                                             \
    ACL_FUNC_VISIBILITY type fn(const aclvencChannelDesc *channelDesc)                                 \
    {                                                                                                  \
        ACL_REQUIRE_RET(channelDesc != NULL, zero, "parameter [channelDesc] must not be null");        \
        return (type)channelDesc->field;                                                               \
    }

VENC_GETTER(aclvencGetChannelDescBufAddr, void *, buf_addr, NULL)
VENC_GETTER(aclvencGetChannelDescBufSize, uint32_t, buf_size, 0u)
VENC_GETTER(aclvencGetChannelDescChannelId, uint32_t, channel_id, 0u)
VENC_GETTER(aclvencGetChannelDescThreadId, uint64_t, thread_id, 0u)
VENC_GETTER(aclvencGetChannelDescCallback, aclvencCallback, callback, NULL)
VENC_GETTER(aclvencGetChannelDescEnType, acldvppStreamFormat, en_type, H265_MAIN_LEVEL)
VENC_GETTER(aclvencGetChannelDescPicFormat, acldvppPixelFormat, pic_format, PIXEL_FORMAT_YUV_400)
VENC_GETTER(aclvencGetChannelDescPicWidth, uint32_t, pic_width, 0u)
VENC_GETTER(aclvencGetChannelDescPicHeight, uint32_t, pic_height, 0u)
VENC_GETTER(aclvencGetChannelDescKeyFrameInterval, uint32_t, key_frame_interval, 0u)
VENC_GETTER(aclvencGetChannelDescRcMode, uint32_t, rc_mode, 0u)
VENC_GETTER(aclvencGetChannelDescSrcRate, uint32_t, src_rate, 0u)
VENC_GETTER(aclvencGetChannelDescMaxBitRate, uint32_t, max_bit_rate, 0u)

static size_t param_size(aclvencChannelDescParamType t)
{
    switch (t) {
    case ACL_VENC_THREAD_ID_UINT64:
        return sizeof(uint64_t);
    case ACL_VENC_CALLBACK_PTR:
        return sizeof(aclvencCallback);
    case ACL_VENC_BUF_ADDR_PTR:
        return sizeof(void *);
    default:
        return (uint32_t)t <= (uint32_t)ACL_VENC_MAX_IP_PROP_UINT32 ? sizeof(uint32_t) : 0u;
    }
}

ACL_FUNC_VISIBILITY aclError aclvencSetChannelDescParam(aclvencChannelDesc *channelDesc,
                                                        aclvencChannelDescParamType paramType, size_t length,
                                                        const void *param)
{
    ACL_REQUIRE_NOT_NULL(channelDesc);
    ACL_REQUIRE_NOT_NULL(param);
    const size_t n = param_size(paramType);
    ACL_REQUIRE(n != 0, OA_E_PARAM, "paramType [%d] is not a VENC channel parameter", (int)paramType);
    ACL_REQUIRE(length == n, OA_E_PARAM, "length [%zu] of VENC parameter %d must be %zu", length, (int)paramType, n);
    switch (paramType) {
    case ACL_VENC_THREAD_ID_UINT64:
        memcpy(&channelDesc->thread_id, param, n);
        return ACL_SUCCESS;
    case ACL_VENC_CALLBACK_PTR:
        memcpy(&channelDesc->callback, param, n);
        return ACL_SUCCESS;
    case ACL_VENC_BUF_ADDR_PTR: {
        void *addr = NULL;
        memcpy(&addr, param, n);
        return oa_status_to_acl(set_buf_addr(channelDesc, addr));
    }
    default: {
        uint32_t v = 0;
        memcpy(&v, param, sizeof(v));
        return oa_status_to_acl(set_u32(channelDesc, paramType, v));
    }
    }
}

ACL_FUNC_VISIBILITY aclError aclvencGetChannelDescParam(const aclvencChannelDesc *channelDesc,
                                                        aclvencChannelDescParamType paramType, size_t length,
                                                        size_t *paramRetSize, void *param)
{
    ACL_REQUIRE_NOT_NULL(channelDesc);
    ACL_REQUIRE_NOT_NULL(paramRetSize);
    ACL_REQUIRE_NOT_NULL(param);
    const size_t n = param_size(paramType);
    ACL_REQUIRE(n != 0, OA_E_PARAM, "paramType [%d] is not a VENC channel parameter", (int)paramType);
    ACL_REQUIRE(length >= n, OA_E_PARAM, "length [%zu] is smaller than the parameter's %zu bytes", length, n);
    aclvencChannelDesc *d = (aclvencChannelDesc *)(uintptr_t)channelDesc;
    const void *src = paramType == ACL_VENC_THREAD_ID_UINT64 ? (const void *)&d->thread_id
                      : paramType == ACL_VENC_CALLBACK_PTR   ? (const void *)&d->callback
                      : paramType == ACL_VENC_BUF_ADDR_PTR   ? (const void *)&d->buf_addr
                                                             : (const void *)u32_field(d, paramType);
    memcpy(param, src, n);
    *paramRetSize = n;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclvencFrameConfig *aclvencCreateFrameConfig(void)
{
    aclvencFrameConfig *c = calloc(1, sizeof(*c));
    if (c == NULL) {
        (void)OA_FAIL(OA_E_NOMEM, "cannot allocate a VENC frame configuration");
    }
    return c;
}

ACL_FUNC_VISIBILITY aclError aclvencDestroyFrameConfig(aclvencFrameConfig *config)
{
    ACL_REQUIRE_NOT_NULL(config);
    free(config);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclvencSetFrameConfigForceIFrame(aclvencFrameConfig *config, uint8_t forceIFrame)
{
    ACL_REQUIRE_NOT_NULL(config);
    config->force_i_frame = forceIFrame;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclvencSetFrameConfigEos(aclvencFrameConfig *config, uint8_t eos)
{
    ACL_REQUIRE_NOT_NULL(config);
    config->eos = eos;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY uint8_t aclvencGetFrameConfigForceIFrame(const aclvencFrameConfig *config)
{
    ACL_REQUIRE_RET(config != NULL, 0u, "parameter [config] must not be null");
    return config->force_i_frame;
}

ACL_FUNC_VISIBILITY uint8_t aclvencGetFrameConfigEos(const aclvencFrameConfig *config)
{
    ACL_REQUIRE_RET(config != NULL, 0u, "parameter [config] must not be null");
    return config->eos;
}
