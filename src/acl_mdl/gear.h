/*
 * Dynamic gears: GE's validation of a requested gear against the model and
 * the encoding of the gear into the ascend_mbatch_shape_data buffer
 * (aclmdlSetDynamicBatchSize / aclmdlSetDynamicHWSize /
 * aclmdlSetInputDynamicDims). Pure functions on a model_info: no table, no
 * device memory, testable without a loaded model.
 *
 * GE's order of checks, which the callers keep:
 *   1. oa_gear_check_buffer (before GE even looks the model up):
 *      NULL address -> ACL_ERROR_GE_DYNAMIC_INPUT_ADDR_INVALID (145011);
 *      batch: length < 4, HW: length < 8 -> ..._INPUT_LENGTH_INVALID (145012);
 *   2. model lookup (145003, done by the caller);
 *   3. oa_gear_select: the gear the request names, or
 *      ..._BATCH_SIZE_INVALID (145013) when the model has no such gear; a
 *      dims request is first reduced to its dynamic positions (145012 when
 *      the dim count or a static position does not match);
 *   4. the model remembers the gear (even if step 5 fails, as GE does);
 *   5. oa_gear_encode: dims: length < n * 4 -> 145012; each value is
 *      written as a 64-bit integer when length >= n * 8, else as 32-bit,
 *      little-endian, h before w, dims in gear order.
 */
#ifndef OA_ACL_MDL_GEAR_H
#define OA_ACL_MDL_GEAR_H

#include <stddef.h>
#include <stdint.h>

#include "acl_mdl/model_info.h"
#include "base/status.h"

/* The gear last selected on a model (GE's DavinciModel batch_size_ / dynamic_type_). */
typedef struct oa_model_gear {
    oa_model_dynamic_kind kind; /* the setter that chose it; OA_DYNAMIC_NONE: never set */
    size_t n;                   /* values: 1 batch, 2 HW, k dims */
    uint64_t v[ACL_MAX_DIM_CNT];
} oa_model_gear;

/* Step 1 for a request of kind (BATCH, HW or DIMS). */
oa_status oa_gear_check_buffer(oa_model_dynamic_kind kind, const void *addr, uint64_t length) OA_MUST_CHECK;

/*
 * Step 3: values[n] is the batch (n 1), the (h, w) pair (n 2) or the user's
 * full dims request (kind DIMS, n = dimCount). [out] gear: the selected gear.
 */
oa_status oa_gear_select(const oa_model_info *info, oa_model_dynamic_kind kind, const uint64_t *values, size_t n,
                         oa_model_gear *gear) OA_MUST_CHECK;

/*
 * Step 5: the bytes to write into a buffer of length bytes. out has room for
 * ACL_MAX_DIM_CNT * 8 bytes; [out] bytes: how many to copy (n * 4 or n * 8).
 */
oa_status oa_gear_encode(const oa_model_gear *gear, uint64_t length, uint8_t *out, size_t *bytes) OA_MUST_CHECK;

#endif /* OA_ACL_MDL_GEAR_H */
