/* Status table: the only place where internal statuses become aclError values. */
#include "base/status.h"

static const struct {
    aclError acl;
    const char *text;
} kStatusTable[] = {
#define OA_STATUS(name, acl, text) {acl, text},
#include "base/status_defs.inc"
#undef OA_STATUS
};

_Static_assert(sizeof(kStatusTable) / sizeof(kStatusTable[0]) == OA_STATUS_COUNT, "status table out of sync");

aclError oa_status_to_acl(oa_status st)
{
    if ((unsigned)st >= OA_STATUS_COUNT) {
        return ACL_ERROR_INTERNAL_ERROR;
    }
    return kStatusTable[st].acl;
}

const char *oa_status_str(oa_status st)
{
    if ((unsigned)st >= OA_STATUS_COUNT) {
        return "unknown status";
    }
    return kStatusTable[st].text;
}

oa_status oa_status_from_acl(aclError code)
{
    for (int i = 0; i < OA_STATUS_COUNT; ++i) {
        if (kStatusTable[i].acl == code) {
            return (oa_status)i;
        }
    }
    return OA_E_INTERNAL;
}
