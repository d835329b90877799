/*
 * Process-level hooks of the runtime core (src/acl_rt), called by the
 * aclInit/aclFinalize layer (src/acl_base). Kept in one small header so the
 * two layers meet at a narrow waist.
 */
#ifndef OA_ACL_RT_LIFECYCLE_H
#define OA_ACL_RT_LIFECYCLE_H

#include <stdint.h>

#include "base/status.h"

/*
 * Sets the process default device from acl.json "defaultDevice" (runtime
 * calls then work without aclrtSetDevice); device_id < 0 clears it.
 * Fails with OA_E_RT_DEVICE_ID for an id outside the device count.
 */
oa_status oa_rt_set_default_device(int32_t device_id) OA_MUST_CHECK;

/*
 * Full runtime teardown for aclFinalize: waits for every stream, destroys
 * every context/stream/event of every device, reports leaked device memory
 * (log lines listing address and size) and frees it. Safe to call when
 * nothing was ever created.
 */
void oa_rt_finalize(void);

#endif /* OA_ACL_RT_LIFECYCLE_H */
