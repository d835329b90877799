/*
 * aclmdlQuerySize / aclmdlQuerySizeFromMem: CANN's checks, then the
 * registered reader's size query (model_reader.h; the .om reader answers
 * as GE's GetModelMemAndWeightSize: work = TASK_INFO memory_size for a
 * static model, 0 for a dynamic one; weight = the WEIGHTS_DATA partitions).
 *
 * Order, as CANN: the OM2 router (path: NULL -> ACL_ERROR_INVALID_PARAM,
 * missing file 145002, under 4 bytes 145006; memory: NULL or size 0 ->
 * ACL_ERROR_INVALID_PARAM, under 4 bytes 145006); NULL workSize /
 * weightSize -> ACL_ERROR_INVALID_PARAM; aclInit not run -> 145001; then
 * the file's own errors.
 */
#include <string.h>

#include "acl_mdl/mdl_internal.h"
#include "acl_mdl/model_reader.h"
#include "base/acl_check.h"

static oa_status query(const char *fn, const oa_model_source *src, size_t *work, size_t *weight)
{
    oa_status st = oa_mdl_require_init();
    if (st != OA_OK) {
        return st;
    }
    const oa_model_reader *r = oa_model_reader_get();
    if (r == NULL || r->query_size == NULL) {
        return oa_mdl_not_supported(fn);
    }
    size_t w = 0, wt = 0;
    st = r->query_size(src, &w, &wt);
    if (st == OA_OK) {
        *work = w;
        *weight = wt;
    }
    return st;
}

ACL_FUNC_VISIBILITY aclError aclmdlQuerySize(const char *fileName, size_t *workSize, size_t *weightSize)
{
    bool om2 = false;
    ACL_RETURN_STATUS_IF_FAIL(oa_mdl_route_path(fileName, &om2));
    if (om2) {
        ACL_RETURN_STATUS(oa_mdl_om2_unsupported("aclmdlQuerySize"));
    }
    ACL_REQUIRE_NOT_NULL(workSize);
    ACL_REQUIRE_NOT_NULL(weightSize);
    const oa_model_source src = {.path = fileName};
    ACL_RETURN_STATUS(query("aclmdlQuerySize", &src, workSize, weightSize));
}

ACL_FUNC_VISIBILITY aclError aclmdlQuerySizeFromMem(const void *model, size_t modelSize, size_t *workSize,
                                                    size_t *weightSize)
{
    bool om2 = false;
    ACL_RETURN_STATUS_IF_FAIL(oa_mdl_route_mem(model, modelSize, &om2));
    if (om2) {
        ACL_RETURN_STATUS(oa_mdl_om2_unsupported("aclmdlQuerySizeFromMem"));
    }
    ACL_REQUIRE_NOT_NULL(workSize);
    ACL_REQUIRE_NOT_NULL(weightSize);
    const oa_model_source src = {.data = model, .size = modelSize};
    ACL_RETURN_STATUS(query("aclmdlQuerySizeFromMem", &src, workSize, weightSize));
}
