/*
 * Process-wide ACL state owned by aclInit/aclFinalize (src/acl_base/init.c),
 * read by the layers that must not depend on acl_base itself (dump, the
 * model and op layers). acl_base sets it, under the same recursive lock
 * that serialises aclInit and aclFinalize, so a reader that takes the lock
 * sees either the state before an aclInit or the state after it.
 */
#ifndef OA_ACL_STATE_H
#define OA_ACL_STATE_H

#include <stdbool.h>
#include <stdint.h>

/* True between a successful aclInit and aclFinalize. */
bool oa_acl_is_initialized(void);

/* "max_opqueue_num" from the aclInit config (default 20000). */
uint64_t oa_acl_config_max_opqueue_num(void);

/* ---- for aclInit / aclFinalize (src/acl_base) ---- */

/* The recursive lock of aclInit / aclFinalize (the getters above take it too). */
void oa_acl_state_lock(void);
void oa_acl_state_unlock(void);

/* Setters; the caller holds the lock. */
void oa_acl_state_set_initialized(bool on);
void oa_acl_state_set_max_opqueue_num(uint64_t n);

#endif /* OA_ACL_STATE_H */
