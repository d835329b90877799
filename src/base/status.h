/*
 * Internal status codes and their one mapping to aclError.
 *
 * Internal code returns enum oa_status; only public entry points convert it,
 * through oa_status_to_acl(). The table lives in status_defs.inc.
 */
#ifndef OA_BASE_STATUS_H
#define OA_BASE_STATUS_H

#include "acl/acl_base_rt.h"

typedef enum oa_status {
#define OA_STATUS(name, acl, text) name,
#include "base/status_defs.inc"
#undef OA_STATUS
    OA_STATUS_COUNT
} oa_status;

/* Marks functions whose status must be looked at. */
#define OA_MUST_CHECK __attribute__((warn_unused_result))

/* The aclError an application sees for st. */
aclError oa_status_to_acl(oa_status st);

/* Short English description of st (never NULL). */
const char *oa_status_str(oa_status st);

/* Inverse lookup for codes received from another layer; unknown codes map to OA_E_INTERNAL. */
oa_status oa_status_from_acl(aclError code);

#endif /* OA_BASE_STATUS_H */
