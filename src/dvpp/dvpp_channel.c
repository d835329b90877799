/*
 * Image processing channels (acldvppChannelDesc, acldvppCreateChannel):
 * a channel is a record of the engines it may use (DVPP_CHNMODE_* bits) and
 * its colour-space matrix; creating it assigns an id. Every operation checks
 * that its channel has been created and has the engine's bit
 * (docs/dvpp.md "Channels").
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define OA_LOG_MODULE "ASCENDCL"
#include "base/acl_check.h"
#include "dvpp/dvpp_internal.h"

#define CHNMODE_ALL (DVPP_CHNMODE_VPC | DVPP_CHNMODE_JPEGD | DVPP_CHNMODE_JPEGE | DVPP_CHNMODE_PNGD)

static atomic_uint_fast64_t g_next_channel_id = 0;

ACL_FUNC_VISIBILITY acldvppChannelDesc *acldvppCreateChannelDesc(void)
{
    acldvppChannelDesc *d = calloc(1, sizeof(*d));
    if (d == NULL) {
        (void)OA_FAIL(OA_E_NOMEM, "cannot allocate a channel description");
        return NULL;
    }
    d->csc = ACL_DVPP_CSC_MATRIX_BT601_WIDE;
    return d;
}

ACL_FUNC_VISIBILITY aclError acldvppDestroyChannelDesc(acldvppChannelDesc *channelDesc)
{
    ACL_REQUIRE_NOT_NULL(channelDesc);
    free(channelDesc);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY uint64_t acldvppGetChannelDescChannelId(const acldvppChannelDesc *channelDesc)
{
    ACL_REQUIRE_RET(channelDesc != NULL, 0u, "parameter [channelDesc] must not be null");
    return channelDesc->channel_id;
}

static oa_status set_mode(acldvppChannelDesc *d, uint32_t mode)
{
    if (mode == 0 || (mode & ~(uint32_t)CHNMODE_ALL) != 0) {
        return OA_FAIL(OA_E_PARAM, "channel mode [%u] must be a non-empty combination of DVPP_CHNMODE_* bits (<= %u)",
                       mode, (uint32_t)CHNMODE_ALL);
    }
    if (d->created) {
        return OA_FAIL(OA_E_PARAM, "the mode of channel %llu cannot change after acldvppCreateChannel",
                       (unsigned long long)d->channel_id);
    }
    d->mode = mode;
    return OA_OK;
}

ACL_FUNC_VISIBILITY aclError acldvppSetChannelDescMode(acldvppChannelDesc *channelDesc, uint32_t mode)
{
    ACL_REQUIRE_NOT_NULL(channelDesc);
    return oa_status_to_acl(set_mode(channelDesc, mode));
}

ACL_FUNC_VISIBILITY aclError acldvppSetChannelDescParam(acldvppChannelDesc *channelDesc,
                                                        acldvppChannelDescParamType paramType, size_t length,
                                                        const void *param)
{
    ACL_REQUIRE_NOT_NULL(channelDesc);
    ACL_REQUIRE_NOT_NULL(param);
    uint32_t v = 0;
    switch (paramType) {
    case ACL_DVPP_CSC_MATRIX_UINT32:
        ACL_REQUIRE(length == sizeof(uint32_t), OA_E_PARAM, "length [%zu] of the csc matrix must be %zu", length,
                    sizeof(uint32_t));
        memcpy(&v, param, sizeof(v));
        ACL_REQUIRE(v <= (uint32_t)ACL_DVPP_CSC_MATRIX_BT2020_NARROW, OA_E_PARAM, "csc matrix [%u] must be in [0, %u]",
                    v, (uint32_t)ACL_DVPP_CSC_MATRIX_BT2020_NARROW);
        channelDesc->csc = v;
        return ACL_SUCCESS;
    case ACL_DVPP_MODE_UINT32:
        ACL_REQUIRE(length == sizeof(uint32_t), OA_E_PARAM, "length [%zu] of the mode must be %zu", length,
                    sizeof(uint32_t));
        memcpy(&v, param, sizeof(v));
        return oa_status_to_acl(set_mode(channelDesc, v));
    case ACL_DVPP_CHANNEL_ID_UINT64:
        ACL_REQUIRE(false, OA_E_PARAM, "the channel id is assigned by acldvppCreateChannel and cannot be set");
        break;
    default:
        break;
    }
    ACL_REQUIRE(false, OA_E_PARAM, "paramType [%d] is not a channel description parameter", (int)paramType);
    return ACL_ERROR_INVALID_PARAM;
}

ACL_FUNC_VISIBILITY aclError acldvppGetChannelDescParam(const acldvppChannelDesc *channelDesc,
                                                        acldvppChannelDescParamType paramType, size_t length,
                                                        size_t *paramRetSize, void *param)
{
    ACL_REQUIRE_NOT_NULL(channelDesc);
    ACL_REQUIRE_NOT_NULL(paramRetSize);
    ACL_REQUIRE_NOT_NULL(param);
    uint32_t v32 = 0;
    const void *src = &v32;
    size_t n = sizeof(v32);
    switch (paramType) {
    case ACL_DVPP_CSC_MATRIX_UINT32:
        v32 = channelDesc->csc;
        break;
    case ACL_DVPP_MODE_UINT32:
        v32 = channelDesc->mode == 0 ? (uint32_t)CHNMODE_ALL : channelDesc->mode;
        break;
    case ACL_DVPP_CHANNEL_ID_UINT64:
        src = &channelDesc->channel_id;
        n = sizeof(channelDesc->channel_id);
        break;
    default:
        ACL_REQUIRE(false, OA_E_PARAM, "paramType [%d] is not a channel description parameter", (int)paramType);
    }
    ACL_REQUIRE(length >= n, OA_E_PARAM, "length [%zu] is smaller than the parameter's %zu bytes", length, n);
    memcpy(param, src, n);
    *paramRetSize = n;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError acldvppCreateChannel(acldvppChannelDesc *channelDesc)
{
    ACL_REQUIRE_NOT_NULL(channelDesc);
    ACL_REQUIRE(!channelDesc->created, OA_E_PARAM, "the channel description already has channel %llu",
                (unsigned long long)channelDesc->channel_id);
    channelDesc->channel_id = (uint64_t)atomic_fetch_add(&g_next_channel_id, 1);
    channelDesc->created = true;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError acldvppDestroyChannel(acldvppChannelDesc *channelDesc)
{
    ACL_REQUIRE_NOT_NULL(channelDesc);
    ACL_REQUIRE(channelDesc->created, OA_E_PARAM, "the channel description has no channel (acldvppCreateChannel)");
    channelDesc->created = false;
    return ACL_SUCCESS;
}

static const char *engine_name(uint32_t bit)
{
    switch (bit) {
    case DVPP_CHNMODE_VPC:
        return "VPC";
    case DVPP_CHNMODE_JPEGD:
        return "JPEGD";
    case DVPP_CHNMODE_JPEGE:
        return "JPEGE";
    default:
        return "PNGD";
    }
}

oa_status oa_dvpp_channel_check(const acldvppChannelDesc *desc, uint32_t engine_bit)
{
    if (desc == NULL) {
        return OA_FAIL(OA_E_PARAM, "parameter [channelDesc] must not be null");
    }
    if (!desc->created) {
        return OA_FAIL(OA_E_PARAM, "the channel description has no channel: call acldvppCreateChannel first");
    }
    if (desc->mode != 0 && (desc->mode & engine_bit) == 0) {
        return OA_FAIL(OA_E_PARAM, "channel %llu was created with mode %u, without the %s engine",
                       (unsigned long long)desc->channel_id, desc->mode, engine_name(engine_bit));
    }
    return OA_OK;
}
