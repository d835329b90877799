/* Every public header, so generated definitions see their declarations. */
#ifndef OA_API_ALL_HEADERS_H
#define OA_API_ALL_HEADERS_H

#include "acl/acl.h"
#include "acl/acl_op_compiler.h"
#include "acl/acl_prof.h"
#include "acl/acl_tdt.h"
#include "acl/acl_tdt_queue.h"
#include "acl/ops/acl_cblas.h"
#include "acl/ops/acl_dvpp.h"

#endif
