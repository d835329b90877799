/*
 * Configuration objects of the VPC and JPEGE operations: regions of interest,
 * resize, JPEG encoder, border, lookup-table and histogram objects. Values
 * whose valid range depends on the operation are checked there; setters
 * refuse only what is invalid everywhere (docs/dvpp.md "Objects and their life cycle").
 */
#include <stdlib.h>

#define OA_LOG_MODULE "ASCENDCL"
#include "base/acl_check.h"
#include "dvpp/dvpp_internal.h"

#define JPEGE_MAX_LEVEL 100u
#define JPEGE_DEFAULT_LEVEL 100u
#define RESIZE_MAX_INTERPOLATION 5u

static void *alloc_object(size_t n, const char *what)
{
    void *p = calloc(1, n);
    if (p == NULL) {
        (void)OA_FAIL(OA_E_NOMEM, "cannot allocate %s", what);
    }
    return p;
}

/* ---- regions of interest ---- */

ACL_FUNC_VISIBILITY acldvppRoiConfig *acldvppCreateRoiConfig(uint32_t left, uint32_t right, uint32_t top,
                                                             uint32_t bottom)
{
    acldvppRoiConfig *r = alloc_object(sizeof(*r), "a region of interest");
    if (r != NULL) {
        r->left = left;
        r->right = right;
        r->top = top;
        r->bottom = bottom;
    }
    return r;
}

ACL_FUNC_VISIBILITY aclError acldvppDestroyRoiConfig(acldvppRoiConfig *roiConfig)
{
    ACL_REQUIRE_NOT_NULL(roiConfig);
    free(roiConfig);
    return ACL_SUCCESS;
}

#define ROI_SETTER(fn, field)                                             \
    ACL_FUNC_VISIBILITY aclError fn(acldvppRoiConfig *config, uint32_t v) \
    {                                                                     \
        ACL_REQUIRE_NOT_NULL(config);                                     \
        config->field = v;                                                \
        return ACL_SUCCESS;                                               \
    }

ROI_SETTER(acldvppSetRoiConfigLeft, left)
ROI_SETTER(acldvppSetRoiConfigRight, right)
ROI_SETTER(acldvppSetRoiConfigTop, top)
ROI_SETTER(acldvppSetRoiConfigBottom, bottom)

ACL_FUNC_VISIBILITY aclError acldvppSetRoiConfig(acldvppRoiConfig *config, uint32_t left, uint32_t right, uint32_t top,
                                                 uint32_t bottom)
{
    ACL_REQUIRE_NOT_NULL(config);
    config->left = left;
    config->right = right;
    config->top = top;
    config->bottom = bottom;
    return ACL_SUCCESS;
}

/* ---- resize ---- */

ACL_FUNC_VISIBILITY acldvppResizeConfig *acldvppCreateResizeConfig(void)
{
    return alloc_object(sizeof(acldvppResizeConfig), "a resize configuration");
}

ACL_FUNC_VISIBILITY aclError acldvppDestroyResizeConfig(acldvppResizeConfig *resizeConfig)
{
    ACL_REQUIRE_NOT_NULL(resizeConfig);
    free(resizeConfig);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError acldvppSetResizeConfigInterpolation(acldvppResizeConfig *resizeConfig,
                                                                 uint32_t interpolation)
{
    ACL_REQUIRE_NOT_NULL(resizeConfig);
    ACL_REQUIRE(interpolation <= RESIZE_MAX_INTERPOLATION, OA_E_PARAM,
                "interpolation [%u] must be in [0, %u]", interpolation, RESIZE_MAX_INTERPOLATION);
    resizeConfig->interpolation = interpolation;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY uint32_t acldvppGetResizeConfigInterpolation(const acldvppResizeConfig *resizeConfig)
{
    ACL_REQUIRE_RET(resizeConfig != NULL, 0u, "parameter [resizeConfig] must not be null");
    return resizeConfig->interpolation;
}

/* ---- JPEG encoder ---- */

ACL_FUNC_VISIBILITY acldvppJpegeConfig *acldvppCreateJpegeConfig(void)
{
    acldvppJpegeConfig *c = alloc_object(sizeof(*c), "a JPEG encoder configuration");
    if (c != NULL) {
        c->level = JPEGE_DEFAULT_LEVEL;
    }
    return c;
}

ACL_FUNC_VISIBILITY aclError acldvppDestroyJpegeConfig(acldvppJpegeConfig *jpegeConfig)
{
    ACL_REQUIRE_NOT_NULL(jpegeConfig);
    free(jpegeConfig);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError acldvppSetJpegeConfigLevel(acldvppJpegeConfig *jpegeConfig, uint32_t level)
{
    ACL_REQUIRE_NOT_NULL(jpegeConfig);
    ACL_REQUIRE(level <= JPEGE_MAX_LEVEL, OA_E_PARAM, "level [%u] must be in [0, %u]", level, JPEGE_MAX_LEVEL);
    jpegeConfig->level = level;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY uint32_t acldvppGetJpegeConfigLevel(const acldvppJpegeConfig *jpegeConfig)
{
    ACL_REQUIRE_RET(jpegeConfig != NULL, 0u, "parameter [jpegeConfig] must not be null");
    return jpegeConfig->level;
}

/* ---- borders ---- */

ACL_FUNC_VISIBILITY acldvppBorderConfig *acldvppCreateBorderConfig(void)
{
    return alloc_object(sizeof(acldvppBorderConfig), "a border configuration");
}

ACL_FUNC_VISIBILITY aclError acldvppDestroyBorderConfig(acldvppBorderConfig *borderConfig)
{
    ACL_REQUIRE_NOT_NULL(borderConfig);
    free(borderConfig);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError acldvppSetBorderConfigValue(acldvppBorderConfig *borderConfig, uint32_t index,
                                                         double value)
{
    ACL_REQUIRE_NOT_NULL(borderConfig);
    ACL_REQUIRE(index < OA_DVPP_BORDER_VALUES, OA_E_PARAM, "index [%u] must be in [0, %u]", index,
                OA_DVPP_BORDER_VALUES - 1u);
    borderConfig->value[index] = value;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError acldvppSetBorderConfigBorderType(acldvppBorderConfig *borderConfig,
                                                              acldvppBorderType borderType)
{
    ACL_REQUIRE_NOT_NULL(borderConfig);
    ACL_REQUIRE((uint32_t)borderType <= (uint32_t)BORDER_REFLECT_101, OA_E_PARAM,
                "borderType [%u] must be in [0, %u]", (uint32_t)borderType, (uint32_t)BORDER_REFLECT_101);
    borderConfig->type = (uint32_t)borderType;
    return ACL_SUCCESS;
}

#define BORDER_SETTER(fn, field)                                                  \
    ACL_FUNC_VISIBILITY aclError fn(acldvppBorderConfig *borderConfig, uint32_t v) \
    {                                                                             \
        ACL_REQUIRE_NOT_NULL(borderConfig);                                       \
        borderConfig->field = v;                                                  \
        return ACL_SUCCESS;                                                       \
    }

#define BORDER_GETTER(fn, field)                                                                   \
    ACL_FUNC_VISIBILITY uint32_t fn(const acldvppBorderConfig *borderConfig)                       \
    {                                                                                              \
        ACL_REQUIRE_RET(borderConfig != NULL, 0u, "parameter [borderConfig] must not be null");    \
        return borderConfig->field;                                                                \
    }

BORDER_SETTER(acldvppSetBorderConfigTop, top)
BORDER_SETTER(acldvppSetBorderConfigBottom, bottom)
BORDER_SETTER(acldvppSetBorderConfigLeft, left)
BORDER_SETTER(acldvppSetBorderConfigRight, right)
BORDER_GETTER(acldvppGetBorderConfigTop, top)
BORDER_GETTER(acldvppGetBorderConfigBottom, bottom)
BORDER_GETTER(acldvppGetBorderConfigLeft, left)
BORDER_GETTER(acldvppGetBorderConfigRight, right)

ACL_FUNC_VISIBILITY double acldvppGetBorderConfigValue(const acldvppBorderConfig *borderConfig, uint32_t index)
{
    ACL_REQUIRE_RET(borderConfig != NULL, 0.0, "parameter [borderConfig] must not be null");
    ACL_REQUIRE_RET(index < OA_DVPP_BORDER_VALUES, 0.0, "index [%u] must be in [0, %u]", index,
                    OA_DVPP_BORDER_VALUES - 1u);
    return borderConfig->value[index];
}

ACL_FUNC_VISIBILITY acldvppBorderType acldvppGetBorderConfigBorderType(const acldvppBorderConfig *borderConfig)
{
    ACL_REQUIRE_RET(borderConfig != NULL, BORDER_CONSTANT, "parameter [borderConfig] must not be null");
    return (acldvppBorderType)borderConfig->type;
}

/* ---- lookup tables ---- */

ACL_FUNC_VISIBILITY acldvppLutMap *acldvppCreateLutMap(void)
{
    acldvppLutMap *m = alloc_object(sizeof(*m), "a lookup table");
    if (m != NULL) {
        m->dims = OA_DVPP_COMPONENTS;
        for (uint32_t d = 0; d < OA_DVPP_COMPONENTS; ++d) {
            for (uint32_t i = 0; i < OA_DVPP_BINS; ++i) {
                m->map[d][i] = (uint8_t)i; /* identity until the application fills it */
            }
        }
    }
    return m;
}

ACL_FUNC_VISIBILITY aclError acldvppDestroyLutMap(acldvppLutMap *lutMap)
{
    ACL_REQUIRE_NOT_NULL(lutMap);
    free(lutMap);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY uint32_t acldvppGetLutMapDims(const acldvppLutMap *lutMap)
{
    ACL_REQUIRE_RET(lutMap != NULL, 0u, "parameter [lutMap] must not be null");
    return lutMap->dims;
}

ACL_FUNC_VISIBILITY aclError acldvppGetLutMapData(const acldvppLutMap *lutMap, uint32_t dim, uint8_t **data,
                                                  uint32_t *len)
{
    ACL_REQUIRE_NOT_NULL(lutMap);
    ACL_REQUIRE_NOT_NULL(data);
    ACL_REQUIRE_NOT_NULL(len);
    ACL_REQUIRE(dim < lutMap->dims, OA_E_PARAM, "dim [%u] must be less than the table's %u dims", dim, lutMap->dims);
    /* the table is the application's to fill: CANN hands out the object's own storage */
    *data = (uint8_t *)(uintptr_t)lutMap->map[dim];
    *len = OA_DVPP_BINS;
    return ACL_SUCCESS;
}

/* ---- histograms ---- */

ACL_FUNC_VISIBILITY acldvppHist *acldvppCreateHist(void)
{
    acldvppHist *h = alloc_object(sizeof(*h), "a histogram");
    if (h != NULL) {
        h->dims = OA_DVPP_COMPONENTS;
    }
    return h;
}

ACL_FUNC_VISIBILITY aclError acldvppDestroyHist(acldvppHist *hist)
{
    ACL_REQUIRE_NOT_NULL(hist);
    free(hist);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY uint32_t acldvppGetHistDims(acldvppHist *hist)
{
    ACL_REQUIRE_RET(hist != NULL, 0u, "parameter [hist] must not be null");
    return hist->dims;
}

ACL_FUNC_VISIBILITY aclError acldvppGetHistData(acldvppHist *hist, uint32_t dim, uint32_t **data, uint16_t *len)
{
    ACL_REQUIRE_NOT_NULL(hist);
    ACL_REQUIRE_NOT_NULL(data);
    ACL_REQUIRE_NOT_NULL(len);
    ACL_REQUIRE(dim < hist->dims, OA_E_PARAM, "dim [%u] must be less than the histogram's %u dims", dim, hist->dims);
    *data = hist->bins[dim];
    *len = (uint16_t)OA_DVPP_BINS;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY uint32_t acldvppGetHistRetCode(acldvppHist *hist)
{
    ACL_REQUIRE_RET(hist != NULL, 0u, "parameter [hist] must not be null");
    return hist->ret_code;
}

ACL_FUNC_VISIBILITY aclError acldvppClearHist(acldvppHist *hist)
{
    ACL_REQUIRE_NOT_NULL(hist);
    for (uint32_t d = 0; d < OA_DVPP_COMPONENTS; ++d) {
        for (uint32_t i = 0; i < OA_DVPP_BINS; ++i) {
            hist->bins[d][i] = 0;
        }
    }
    hist->ret_code = 0;
    return ACL_SUCCESS;
}
