/*
 * Layout of aclDataBuffer (the descriptor aclCreateDataBuffer returns), for
 * the model and op layers that read many of them: CANN keeps a data pointer
 * and a 64-bit length; the descriptor never owns the data.
 */
#ifndef OA_ACL_BASE_DATA_BUFFER_H
#define OA_ACL_BASE_DATA_BUFFER_H

#include <stdint.h>

#include "acl/acl_base_rt.h"

struct aclDataBuffer {
    void *data;
    uint64_t length;
};

#endif /* OA_ACL_BASE_DATA_BUFFER_H */
