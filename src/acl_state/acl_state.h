/*
 * Process-wide ACL state owned by aclInit/aclFinalize (src/acl_base), read
 * by the model and op layers.
 */
#ifndef OA_ACL_BASE_STATE_H
#define OA_ACL_BASE_STATE_H

#include <stdbool.h>
#include <stdint.h>

/* True between a successful aclInit and aclFinalize. */
bool oa_acl_is_initialized(void);

/* "max_opqueue_num" from the aclInit config (default 20000). */
uint64_t oa_acl_config_max_opqueue_num(void);

#endif /* OA_ACL_BASE_STATE_H */
