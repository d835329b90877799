/* Dynamic gear validation and buffer encoding (gear.h). */
#include "acl_mdl/gear.h"

#include <stdlib.h>
#include <string.h>

#include "base/error.h"

oa_status oa_gear_check_buffer(oa_model_dynamic_kind kind, const void *addr, uint64_t length)
{
    if (addr == NULL) {
        return OA_FAIL(OA_E_GE_DYN_INPUT_ADDR, "dynamic input addr is nullptr");
    }
    uint64_t need = 0;
    if (kind == OA_DYNAMIC_BATCH) {
        need = sizeof(uint32_t);
    } else if (kind == OA_DYNAMIC_HW) {
        need = 2u * sizeof(uint32_t);
    }
    if (length < need) {
        return OA_FAIL(OA_E_GE_DYN_INPUT_LENGTH, "dynamic input size [%llu] is less than [%llu]",
                       (unsigned long long)length, (unsigned long long)need);
    }
    return OA_OK;
}

oa_status oa_gear_select(const oa_model_info *info, oa_model_dynamic_kind kind, const uint64_t *values, size_t n,
                         oa_model_gear *gear)
{
    memset(gear, 0, sizeof(*gear));
    if (n > ACL_MAX_DIM_CNT) {
        return OA_FAIL(OA_E_PARAM, "a gear request of %zu values exceeds %d", n, ACL_MAX_DIM_CNT);
    }
    uint64_t *want = NULL;
    size_t n_want = n;
    if (kind == OA_DYNAMIC_DIMS) {
        oa_status st = oa_model_dims_request_to_gear(info, values, n, &want, &n_want);
        if (st != OA_OK) {
            return st;
        }
    }
    const uint64_t *key = want != NULL ? want : values;
    size_t index = 0;
    /* GE refuses an empty gear list, and any gear whose length differs from the request. */
    const bool found = info->n_gears > 0 && oa_model_find_gear(info, key, n_want, &index);
    if (!found) {
        free(want);
        if (kind == OA_DYNAMIC_BATCH) {
            return OA_FAIL(OA_E_GE_DYN_BATCH_SIZE, "dynamic batch %llu cannot match the gear of the model",
                           (unsigned long long)values[0]);
        }
        if (kind == OA_DYNAMIC_HW) {
            return OA_FAIL(OA_E_GE_DYN_BATCH_SIZE, "dynamic resolution (%llu,%llu) cannot match the gear of the model",
                           (unsigned long long)values[0], (unsigned long long)values[1]);
        }
        return OA_FAIL(OA_E_GE_DYN_BATCH_SIZE, "the current dynamic input (%zu dynamic dims) does not match the gear "
                       "of the model", n_want);
    }
    gear->kind = kind;
    gear->n = n_want;
    memcpy(gear->v, key, n_want * sizeof(uint64_t));
    free(want);
    return OA_OK;
}

oa_status oa_gear_encode(const oa_model_gear *gear, uint64_t length, uint8_t *out, size_t *bytes)
{
    const uint64_t n = gear->n;
    if (length < n * sizeof(uint32_t)) {
        return OA_FAIL(OA_E_GE_DYN_INPUT_LENGTH, "input dynamic size [%llu] is less than [%llu]",
                       (unsigned long long)length, (unsigned long long)(n * sizeof(uint32_t)));
    }
    const size_t width = length >= n * sizeof(uint64_t) ? sizeof(uint64_t) : sizeof(uint32_t);
    for (size_t i = 0; i < gear->n; ++i) {
        const uint64_t v = gear->v[i];
        for (size_t b = 0; b < width; ++b) {
            out[i * width + b] = (uint8_t)(v >> (8u * b));
        }
    }
    *bytes = gear->n * width;
    return OA_OK;
}
