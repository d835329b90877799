/* Helpers shared by the acl_mdl.h entry points (not for executors). */
#ifndef OA_ACL_MDL_MDL_INTERNAL_H
#define OA_ACL_MDL_MDL_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "acl_mdl/mdl_objects.h"
#include "base/error.h"
#include "base/status.h"

/* Returns the aclError of an internal status when it is not OA_OK. */
#define ACL_RETURN_STATUS_IF_FAIL(expr)                                                                            \
    do {                                                                                                            \
        const oa_status st_ = (expr);                                                                               \
        if (st_ != OA_OK) {                                                                                         \
            return oa_status_to_acl(st_);                                                                           \
        }                                                                                                           \
    } while (0)

/* Records "<fn> is not supported yet" and returns OA_E_NOT_SUPPORTED. */
oa_status oa_mdl_not_supported(const char *fn) OA_MUST_CHECK;

/*
 * CANN's first step for a model given by path or memory: is it an OM2
 * (zip) model? Path: NULL -> OA_E_PARAM; not a real, readable file ->
 * OA_E_GE_MODEL_PATH (145002); shorter than 4 bytes ->
 * OA_E_GE_MODEL_DATA_SIZE (145006). Memory: NULL or size 0 -> OA_E_PARAM;
 * size < 4 -> 145006. *is_om2: the bytes start with "PK\3\4".
 */
oa_status oa_mdl_route_path(const char *path, bool *is_om2) OA_MUST_CHECK;
oa_status oa_mdl_route_mem(const void *data, size_t size, bool *is_om2) OA_MUST_CHECK;

/* OM2 models: OA_E_NOT_SUPPORTED naming fn. */
oa_status oa_mdl_om2_unsupported(const char *fn) OA_MUST_CHECK;

/*
 * "Is the model dynamic" from the first bytes of an .om (GE's header rule:
 * version >= 0x20000000 and (model_num > 1 or is_unknow_model == 1)).
 * false when fewer than 256 bytes are given.
 */
bool oa_mdl_header_is_dynamic(const void *head, size_t size);

/* ENABLE_RUNTIME_V2 for models: unset, empty or anything but "0" -> true. */
bool oa_mdl_rt2_enabled(void);

/* OA_E_GE_NOT_INIT (145001) unless aclInit has run (GE's executor state). */
oa_status oa_mdl_require_init(void) OA_MUST_CHECK;

/* aclmdlLoadWithConfig after its NULL checks (bundle.c loads sub-models through it). */
oa_status oa_mdl_load_with_config(const aclmdlConfigHandle *h, uint32_t *model_id) OA_MUST_CHECK;

/* True when model_id is a loaded sub-model of a bundle (aclmdlUnload refuses those). */
bool oa_mdl_bundle_owns(uint32_t model_id);

/*
 * aclmdlGetDesc's body for a loaded model: clears desc, then fills it or
 * fails with 145001 (V1, before aclInit) / 145003.
 */
oa_status oa_mdl_get_desc(aclmdlDesc *desc, uint32_t model_id) OA_MUST_CHECK;

#endif /* OA_ACL_MDL_MDL_INTERNAL_H */
