/*
 * openacl: umbrella header (acl/acl.h).
 *
 * Applications normally include only this file: it brings in the runtime
 * (acl_rt.h), single-operator execution (acl_op.h) and offline models
 * (acl_mdl.h), and through them the base types and error codes.
 */
#ifndef INC_EXTERNAL_ACL_ACL_H_
#define INC_EXTERNAL_ACL_ACL_H_

#include "acl_rt.h"
#include "acl_op.h"
#include "acl_mdl.h"

#endif /* INC_EXTERNAL_ACL_ACL_H_ */
