/*
 * Bundles (aclmdlBundle*): one .om holding several complete sub-model .om
 * files plus the size of the variable weights they share (docs/om_format.md
 * "Multi-model and bundle files"): header with modeltype 5 and model_num
 * sub-models, one 64-bit table whose entry 0 is BUNDLE_MODEL_VAR_INFO (int64
 * variable size) and the others BUNDLE_MODEL_INFO (one nested .om each),
 * model_length = the whole file. Partitions are walked by their sizes, as ACL
 * does.
 *
 * Each sub-model loads through the ordinary load path from its bytes (a
 * copy of the bundle is kept while the bundle lives) and gets an ordinary
 * model id; aclmdlUnload refuses those ids (ACL_ERROR_INVALID_PARAM), they
 * go with aclmdlBundleUnloadModel / aclmdlBundleUnload. Unknown bundle ids
 * are ACL_ERROR_INVALID_BUNDLE_MODEL_ID. Bundle ids come from their own
 * counter starting at 1.
 *
 * Variable weights: the models our atc writes have no variables, so the
 * memory given to aclmdlBundleInit* is only checked (non-NULL and at least
 * the bundle's variable size when that size is not 0) and kept unused.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "acl_mdl/mdl_internal.h"
#include "acl_mdl/mdl_objects.h"
#include "acl_mdl/model.h"
#include "base/acl_check.h"
#include "om/om_format.h"

#define OM_HEADER OA_OM_HEADER_SIZE
#define PART_BUNDLE_MODEL OA_OM_PART_BUNDLE_MODEL_INFO
#define PART_BUNDLE_VAR OA_OM_PART_BUNDLE_MODEL_VAR_INFO
#define MAX_SUB_MODELS 1024u

typedef struct sub_model {
    size_t offset; /* into the bundle image */
    size_t size;
} sub_model;

typedef struct bundle_layout {
    int64_t var_size;
    size_t n;
    sub_model *subs;
} bundle_layout;

struct aclmdlBundleQueryInfo {
    bundle_layout layout;
    size_t *work;
    size_t *weight;
};

typedef struct bundle {
    uint32_t id;
    unsigned char *image; /* owned copy */
    size_t size;
    bundle_layout layout;
    uint32_t *model_ids;  /* per sub-model, 0 = not loaded */
    struct bundle *next;
} bundle;

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static bundle *g_bundles;
static uint32_t g_next_id = 1;

static uint32_t rd32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t rd64(const unsigned char *p)
{
    return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32;
}

/* The bundle container, bounds-checked; subs point into img. */
static oa_status parse(const unsigned char *img, size_t size, bundle_layout *out)
{
    memset(out, 0, sizeof(*out));
    oa_om_header h;
    if (size >= OM_HEADER + 8) {
        oa_om_header_decode(img, &h);
    }
    if (size < OM_HEADER + 8 || h.magic != OA_OM_MAGIC) {
        return OA_FAIL(OA_E_GE_PARAM, "bundle model: not an .om file (%zu bytes, bad magic or too short)", size);
    }
    if (h.modeltype != OA_OM_MODEL_BUNDLE) {
        return OA_FAIL(OA_E_GE_PARAM, "bundle model: header model type is %u, a bundle has %u", h.modeltype,
                       (unsigned)OA_OM_MODEL_BUNDLE);
    }
    const uint64_t length = h.model_length;
    if (length != size) {
        return OA_FAIL(OA_E_GE_PARAM, "bundle model: header length %llu differs from the image size %zu",
                       (unsigned long long)length, size);
    }
    const uint32_t model_num = h.model_num;
    const uint32_t num = rd32(img + OM_HEADER);
    if (model_num == 0 || model_num > MAX_SUB_MODELS || num != model_num + 1) {
        return OA_FAIL(OA_E_GE_PARAM, "bundle model: %u sub-models and %u partitions (want sub-models + 1)",
                       model_num, num);
    }
    const size_t table = 8 + 24 * (size_t)num;
    if (size - OM_HEADER < table) {
        return OA_FAIL(OA_E_GE_PARAM, "bundle model: the partition table does not fit in %zu bytes", size);
    }
    out->subs = calloc(model_num, sizeof(sub_model));
    if (out->subs == NULL) {
        return OA_FAIL(OA_E_NOMEM, "bundle model: %u sub-models", model_num);
    }
    size_t pos = OM_HEADER + table;
    for (uint32_t i = 0; i < num; ++i) {
        const unsigned char *e = img + OM_HEADER + 8 + 24 * (size_t)i;
        const uint32_t type = rd32(e);
        const uint64_t len = rd64(e + 16);
        oa_status st = OA_OK;
        if (len > size - pos) {
            st = OA_FAIL(OA_E_GE_PARAM, "bundle model: partition %u (%llu bytes) overruns the file", i,
                         (unsigned long long)len);
        } else if (i == 0 && (type != PART_BUNDLE_VAR || len != 8)) {
            st = OA_FAIL(OA_E_GE_PARAM, "bundle model: partition 0 must be BUNDLE_MODEL_VAR_INFO of 8 bytes "
                         "(type %u, %llu bytes)", type, (unsigned long long)len);
        } else if (i > 0 && (type != PART_BUNDLE_MODEL || len < OM_HEADER)) {
            st = OA_FAIL(OA_E_GE_PARAM, "bundle model: partition %u must be a BUNDLE_MODEL_INFO .om (type %u, "
                         "%llu bytes)", i, type, (unsigned long long)len);
        }
        if (st != OA_OK) {
            free(out->subs);
            out->subs = NULL;
            return st;
        }
        if (i == 0) {
            out->var_size = (int64_t)rd64(img + pos);
        } else {
            out->subs[i - 1] = (sub_model){pos, (size_t)len};
        }
        pos += (size_t)len;
    }
    if (pos != size || out->var_size < 0) {
        free(out->subs);
        out->subs = NULL;
        return OA_FAIL(OA_E_GE_PARAM, "bundle model: %zu trailing bytes or a negative variable size", size - pos);
    }
    out->n = model_num;
    return OA_OK;
}

static oa_status read_file(const char *path, unsigned char **data, size_t *size)
{
    if (path == NULL) {
        return OA_FAIL(OA_E_PARAM, "parameter [modelPath] must not be null");
    }
    FILE *f = fopen(path, "rb");
    struct stat sb;
    if (f == NULL || fstat(fileno(f), &sb) != 0 || !S_ISREG(sb.st_mode)) {
        if (f != NULL) {
            fclose(f);
        }
        return OA_FAIL(OA_E_GE_MODEL_PATH, "bundle model file [%s] cannot be read", path);
    }
    const size_t n = (size_t)sb.st_size;
    unsigned char *buf = malloc(n > 0 ? n : 1);
    if (buf == NULL || fread(buf, 1, n, f) != n) {
        free(buf);
        fclose(f);
        return buf == NULL ? OA_FAIL(OA_E_NOMEM, "bundle model of %zu bytes", n)
                           : OA_FAIL(OA_E_GE_MODEL_PATH, "reading bundle model file [%s] failed", path);
    }
    fclose(f);
    *data = buf;
    *size = n;
    return OA_OK;
}

static void bundle_free(bundle *b)
{
    if (b != NULL) {
        free(b->image);
        free(b->layout.subs);
        free(b->model_ids);
        free(b);
    }
}

/* A new bundle from its image (taken over on success); varWeight checked when given. */
static oa_status bundle_add(unsigned char *image, size_t size, bool init, const void *var_ptr, size_t var_size,
                            bundle **out)
{
    bundle *b = calloc(1, sizeof(*b));
    if (b == NULL) {
        return OA_FAIL(OA_E_NOMEM, "bundle");
    }
    oa_status st = parse(image, size, &b->layout);
    if (st == OA_OK && init && b->layout.var_size > 0 &&
        (var_ptr == NULL || var_size < (size_t)b->layout.var_size)) {
        st = OA_FAIL(OA_E_PARAM, "variable weight memory %p of %zu bytes, the bundle needs %lld bytes", var_ptr,
                     var_size, (long long)b->layout.var_size);
    }
    if (st == OA_OK && (b->model_ids = calloc(b->layout.n, sizeof(uint32_t))) == NULL) {
        st = OA_FAIL(OA_E_NOMEM, "bundle");
    }
    if (st != OA_OK) {
        free(b->layout.subs);
        free(b->model_ids);
        free(b);
        return st;
    }
    b->image = image;
    b->size = size;
    pthread_mutex_lock(&g_lock);
    b->id = g_next_id++;
    b->next = g_bundles;
    g_bundles = b;
    pthread_mutex_unlock(&g_lock);
    *out = b;
    return OA_OK;
}

/* Under g_lock. */
static bundle *find_locked(uint32_t id)
{
    for (bundle *b = g_bundles; b != NULL; b = b->next) {
        if (b->id == id) {
            return b;
        }
    }
    return NULL;
}

static oa_status unknown_bundle(uint32_t id)
{
    return OA_FAIL(OA_E_INVALID_BUNDLE_MODEL_ID, "bundle id[%u] is not loaded", id);
}

bool oa_mdl_bundle_owns(uint32_t model_id)
{
    bool owned = false;
    pthread_mutex_lock(&g_lock);
    for (bundle *b = g_bundles; b != NULL && !owned; b = b->next) {
        for (size_t i = 0; i < b->layout.n && !owned; ++i) {
            owned = model_id != 0 && b->model_ids[i] == model_id;
        }
    }
    pthread_mutex_unlock(&g_lock);
    return owned;
}

/* How a sub-model is loaded. */
typedef struct sub_load {
    void *work, *weight;
    size_t work_size, weight_size;
    const aclmdlConfigHandle *cfg;
} sub_load;

static oa_status load_sub(uint32_t bundle_id, size_t index, const sub_load *how, uint32_t *model_id)
{
    pthread_mutex_lock(&g_lock);
    bundle *b = find_locked(bundle_id);
    oa_status st = OA_OK;
    if (b == NULL) {
        st = unknown_bundle(bundle_id);
    } else if (index >= b->layout.n) {
        st = OA_FAIL(OA_E_PARAM, "index[%zu] must be less than the bundle's %zu sub-models", index, b->layout.n);
    } else if (b->model_ids[index] != 0) {
        st = OA_FAIL(OA_E_PARAM, "sub-model %zu of bundle %u is already loaded (model id %u)", index, bundle_id,
                     b->model_ids[index]);
    }
    unsigned char *img = st == OA_OK ? b->image + b->layout.subs[index].offset : NULL;
    const size_t n = st == OA_OK ? b->layout.subs[index].size : 0;
    pthread_mutex_unlock(&g_lock);
    if (st != OA_OK) {
        return st;
    }
    /* the bundle's image stays while the bundle lives: loading outside the lock is safe until
     * aclmdlBundleUnload, which the application does not run concurrently with its own loads */
    uint32_t id = 0;
    if (how->cfg != NULL) {
        aclmdlConfigHandle h = *how->cfg; /* shallow: the sub-model's bytes replace the model source */
        h.load_path = NULL;
        h.mdl_addr = img;
        h.mdl_size = n;
        h.set |= OA_CFG_BIT(ACL_MDL_MEM_ADDR_PTR) | OA_CFG_BIT(ACL_MDL_MEM_SIZET) | OA_CFG_BIT(ACL_MDL_LOAD_TYPE_SIZET);
        h.set &= ~OA_CFG_BIT(ACL_MDL_PATH_PTR);
        const size_t t = h.load_type;
        h.load_type = t == ACL_MDL_LOAD_FROM_FILE_WITH_MEM || t == ACL_MDL_LOAD_FROM_MEM_WITH_MEM ? ACL_MDL_LOAD_FROM_MEM_WITH_MEM
                      : t == ACL_MDL_LOAD_FROM_FILE_WITH_Q || t == ACL_MDL_LOAD_FROM_MEM_WITH_Q ? ACL_MDL_LOAD_FROM_MEM_WITH_Q
                                                                                                  : ACL_MDL_LOAD_FROM_MEM;
        st = oa_mdl_load_with_config(&h, &id);
    } else {
        const aclError ret = how->work != NULL || how->weight != NULL
                                 ? aclmdlLoadFromMemWithMem(img, n, &id, how->work, how->work_size, how->weight,
                                                            how->weight_size)
                                 : aclmdlLoadFromMem(img, n, &id);
        st = ret == ACL_SUCCESS ? OA_OK : oa_status_from_acl(ret);
    }
    if (st != OA_OK) {
        return st;
    }
    pthread_mutex_lock(&g_lock);
    b = find_locked(bundle_id);
    if (b != NULL) {
        b->model_ids[index] = id;
    }
    pthread_mutex_unlock(&g_lock);
    *model_id = id;
    return OA_OK;
}

static oa_status bundle_unload(uint32_t bundle_id)
{
    pthread_mutex_lock(&g_lock);
    bundle **pp = &g_bundles;
    while (*pp != NULL && (*pp)->id != bundle_id) {
        pp = &(*pp)->next;
    }
    bundle *b = *pp;
    if (b != NULL) {
        *pp = b->next;
    }
    pthread_mutex_unlock(&g_lock);
    if (b == NULL) {
        return unknown_bundle(bundle_id);
    }
    oa_status first = OA_OK;
    for (size_t i = 0; i < b->layout.n; ++i) {
        if (b->model_ids[i] != 0) {
            const oa_status st = oa_model_unload(b->model_ids[i]);
            first = first == OA_OK ? st : first;
        }
    }
    bundle_free(b);
    return first;
}

/* Loads every sub-model; on a failure the bundle goes again. */
static oa_status load_all(unsigned char *image, size_t size, uint32_t *bundle_id)
{
    bundle *b = NULL;
    oa_status st = bundle_add(image, size, false, NULL, 0, &b);
    if (st != OA_OK) {
        free(image);
        return st;
    }
    const uint32_t id = b->id;
    const size_t n = b->layout.n;
    const sub_load how = {0};
    for (size_t i = 0; i < n && st == OA_OK; ++i) {
        uint32_t mid = 0;
        st = load_sub(id, i, &how, &mid);
    }
    if (st != OA_OK) {
        (void)bundle_unload(id);
        return st;
    }
    *bundle_id = id;
    return OA_OK;
}

static oa_status copy_mem(const void *model, size_t size, unsigned char **out)
{
    if (model == NULL || size == 0) {
        return OA_FAIL(OA_E_PARAM, "model data %p of %zu bytes", model, size);
    }
    *out = malloc(size);
    if (*out == NULL) {
        return OA_FAIL(OA_E_NOMEM, "bundle model of %zu bytes", size);
    }
    memcpy(*out, model, size);
    return OA_OK;
}

ACL_FUNC_VISIBILITY aclError aclmdlBundleLoadFromFile(const char *modelPath, uint32_t *bundleId)
{
    ACL_REQUIRE_NOT_NULL(modelPath);
    ACL_REQUIRE_NOT_NULL(bundleId);
    ACL_RETURN_STATUS_IF_FAIL(oa_mdl_require_init());
    unsigned char *img = NULL;
    size_t n = 0;
    ACL_RETURN_STATUS_IF_FAIL(read_file(modelPath, &img, &n));
    ACL_RETURN_STATUS(load_all(img, n, bundleId));
}

ACL_FUNC_VISIBILITY aclError aclmdlBundleLoadFromMem(const void *model, size_t modelSize, uint32_t *bundleId)
{
    ACL_REQUIRE_NOT_NULL(model);
    ACL_REQUIRE_NOT_NULL(bundleId);
    ACL_RETURN_STATUS_IF_FAIL(oa_mdl_require_init());
    unsigned char *img = NULL;
    ACL_RETURN_STATUS_IF_FAIL(copy_mem(model, modelSize, &img));
    ACL_RETURN_STATUS(load_all(img, modelSize, bundleId));
}

static oa_status init_bundle(unsigned char *img, size_t n, void *var_ptr, size_t var_size, uint32_t *bundle_id)
{
    bundle *b = NULL;
    const oa_status st = bundle_add(img, n, true, var_ptr, var_size, &b);
    if (st != OA_OK) {
        free(img);
        return st;
    }
    *bundle_id = b->id;
    return OA_OK;
}

ACL_FUNC_VISIBILITY aclError aclmdlBundleInitFromFile(const char *modelPath, void *varWeightPtr, size_t varWeightSize,
                                                      uint32_t *bundleId)
{
    ACL_REQUIRE_NOT_NULL(modelPath);
    ACL_REQUIRE_NOT_NULL(bundleId);
    ACL_RETURN_STATUS_IF_FAIL(oa_mdl_require_init());
    unsigned char *img = NULL;
    size_t n = 0;
    ACL_RETURN_STATUS_IF_FAIL(read_file(modelPath, &img, &n));
    ACL_RETURN_STATUS(init_bundle(img, n, varWeightPtr, varWeightSize, bundleId));
}

ACL_FUNC_VISIBILITY aclError aclmdlBundleInitFromMem(const void *model, size_t modelSize, void *varWeightPtr,
                                                     size_t varWeightSize, uint32_t *bundleId)
{
    ACL_REQUIRE_NOT_NULL(model);
    ACL_REQUIRE_NOT_NULL(bundleId);
    ACL_RETURN_STATUS_IF_FAIL(oa_mdl_require_init());
    unsigned char *img = NULL;
    ACL_RETURN_STATUS_IF_FAIL(copy_mem(model, modelSize, &img));
    ACL_RETURN_STATUS(init_bundle(img, modelSize, varWeightPtr, varWeightSize, bundleId));
}

ACL_FUNC_VISIBILITY aclError aclmdlBundleLoadModel(uint32_t bundleId, size_t index, uint32_t *modelId)
{
    ACL_REQUIRE_NOT_NULL(modelId);
    const sub_load how = {0};
    ACL_RETURN_STATUS(load_sub(bundleId, index, &how, modelId));
}

ACL_FUNC_VISIBILITY aclError aclmdlBundleLoadModelWithMem(uint32_t bundleId, size_t index, void *workPtr,
                                                          size_t workSize, void *weightPtr, size_t weightSize,
                                                          uint32_t *modelId)
{
    ACL_REQUIRE_NOT_NULL(modelId);
    const sub_load how = {.work = workPtr, .work_size = workSize, .weight = weightPtr, .weight_size = weightSize};
    if (workPtr == NULL && weightPtr == NULL) {
        /* nothing of the caller's: an ordinary load */
        ACL_RETURN_STATUS(load_sub(bundleId, index, &(sub_load){0}, modelId));
    }
    ACL_RETURN_STATUS(load_sub(bundleId, index, &how, modelId));
}

ACL_FUNC_VISIBILITY aclError aclmdlBundleLoadModelWithConfig(uint32_t bundleId, size_t index,
                                                             aclmdlConfigHandle *handle, uint32_t *modelId)
{
    ACL_REQUIRE_NOT_NULL(handle);
    ACL_REQUIRE_NOT_NULL(modelId);
    const sub_load how = {.cfg = handle};
    ACL_RETURN_STATUS(load_sub(bundleId, index, &how, modelId));
}

ACL_FUNC_VISIBILITY aclError aclmdlBundleUnloadModel(uint32_t bundleId, uint32_t modelId)
{
    pthread_mutex_lock(&g_lock);
    bundle *b = find_locked(bundleId);
    oa_status st = b == NULL ? unknown_bundle(bundleId) : OA_OK;
    size_t slot = SIZE_MAX;
    for (size_t i = 0; b != NULL && i < b->layout.n; ++i) {
        if (modelId != 0 && b->model_ids[i] == modelId) {
            slot = i;
        }
    }
    if (st == OA_OK && slot == SIZE_MAX) {
        st = OA_FAIL(OA_E_PARAM, "model id[%u] is not a loaded sub-model of bundle %u", modelId, bundleId);
    }
    if (st == OA_OK) {
        b->model_ids[slot] = 0;
    }
    pthread_mutex_unlock(&g_lock);
    ACL_RETURN_STATUS_IF_FAIL(st);
    ACL_RETURN_STATUS(oa_model_unload(modelId));
}

ACL_FUNC_VISIBILITY aclError aclmdlBundleUnload(uint32_t bundleId)
{
    ACL_RETURN_STATUS(bundle_unload(bundleId));
}

ACL_FUNC_VISIBILITY aclError aclmdlBundleGetModelNum(uint32_t bundleId, size_t *modelNum)
{
    ACL_REQUIRE_NOT_NULL(modelNum);
    pthread_mutex_lock(&g_lock);
    const bundle *b = find_locked(bundleId);
    if (b != NULL) {
        *modelNum = b->layout.n;
    }
    pthread_mutex_unlock(&g_lock);
    ACL_RETURN_STATUS(b != NULL ? OA_OK : unknown_bundle(bundleId));
}

ACL_FUNC_VISIBILITY aclError aclmdlBundleGetModelId(uint32_t bundleId, size_t index, uint32_t *modelId)
{
    ACL_REQUIRE_NOT_NULL(modelId);
    pthread_mutex_lock(&g_lock);
    const bundle *b = find_locked(bundleId);
    oa_status st = OA_OK;
    if (b == NULL) {
        st = unknown_bundle(bundleId);
    } else if (index >= b->layout.n || b->model_ids[index] == 0) {
        st = OA_FAIL(OA_E_PARAM, "index[%zu]: bundle %u has %zu sub-models%s", index, bundleId, b->layout.n,
                     index < b->layout.n ? " and this one is not loaded" : "");
    } else {
        *modelId = b->model_ids[index];
    }
    pthread_mutex_unlock(&g_lock);
    ACL_RETURN_STATUS(st);
}

/* ---- query info ---- */

ACL_FUNC_VISIBILITY aclmdlBundleQueryInfo *aclmdlBundleCreateQueryInfo(void)
{
    aclmdlBundleQueryInfo *q = calloc(1, sizeof(*q));
    if (q == NULL) {
        (void)OA_FAIL(OA_E_NOMEM, "bundle query info");
    }
    return q;
}

static void query_clear(aclmdlBundleQueryInfo *q)
{
    free(q->layout.subs);
    free(q->work);
    free(q->weight);
    memset(q, 0, sizeof(*q));
}

ACL_FUNC_VISIBILITY aclError aclmdlBundleDestroyQueryInfo(aclmdlBundleQueryInfo *queryInfo)
{
    ACL_REQUIRE_NOT_NULL(queryInfo);
    query_clear(queryInfo);
    free(queryInfo);
    return ACL_SUCCESS;
}

static oa_status query_image(const unsigned char *img, size_t size, aclmdlBundleQueryInfo *q)
{
    bundle_layout l;
    oa_status st = parse(img, size, &l);
    if (st != OA_OK) {
        return st;
    }
    size_t *work = calloc(l.n, sizeof(size_t));
    size_t *weight = calloc(l.n, sizeof(size_t));
    if (work == NULL || weight == NULL) {
        st = OA_FAIL(OA_E_NOMEM, "bundle query info");
    }
    for (size_t i = 0; i < l.n && st == OA_OK; ++i) {
        const aclError ret = aclmdlQuerySizeFromMem(img + l.subs[i].offset, l.subs[i].size, &work[i], &weight[i]);
        st = ret == ACL_SUCCESS ? OA_OK : oa_status_from_acl(ret);
    }
    if (st != OA_OK) {
        free(l.subs);
        free(work);
        free(weight);
        return st;
    }
    query_clear(q);
    q->layout = l;
    q->work = work;
    q->weight = weight;
    return OA_OK;
}

ACL_FUNC_VISIBILITY aclError aclmdlBundleQueryInfoFromFile(const char *fileName, aclmdlBundleQueryInfo *queryInfo)
{
    ACL_REQUIRE_NOT_NULL(fileName);
    ACL_REQUIRE_NOT_NULL(queryInfo);
    ACL_RETURN_STATUS_IF_FAIL(oa_mdl_require_init());
    unsigned char *img = NULL;
    size_t n = 0;
    ACL_RETURN_STATUS_IF_FAIL(read_file(fileName, &img, &n));
    const oa_status st = query_image(img, n, queryInfo);
    free(img);
    ACL_RETURN_STATUS(st);
}

ACL_FUNC_VISIBILITY aclError aclmdlBundleQueryInfoFromMem(const void *model, size_t modelSize,
                                                          aclmdlBundleQueryInfo *queryInfo)
{
    ACL_REQUIRE_NOT_NULL(model);
    ACL_REQUIRE_NOT_NULL(queryInfo);
    ACL_REQUIRE(modelSize > 0, OA_E_PARAM, "modelSize must be greater than 0");
    ACL_RETURN_STATUS_IF_FAIL(oa_mdl_require_init());
    ACL_RETURN_STATUS(query_image(model, modelSize, queryInfo));
}

ACL_FUNC_VISIBILITY aclError aclmdlBundleGetQueryModelNum(const aclmdlBundleQueryInfo *queryInfo, size_t *modelNum)
{
    ACL_REQUIRE_NOT_NULL(queryInfo);
    ACL_REQUIRE_NOT_NULL(modelNum);
    *modelNum = queryInfo->layout.n;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlBundleGetVarWeightSize(const aclmdlBundleQueryInfo *queryInfo,
                                                          size_t *variableWeightSize)
{
    ACL_REQUIRE_NOT_NULL(queryInfo);
    ACL_REQUIRE_NOT_NULL(variableWeightSize);
    *variableWeightSize = (size_t)queryInfo->layout.var_size;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlBundleGetSize(const aclmdlBundleQueryInfo *queryInfo, size_t index,
                                                 size_t *workSize, size_t *constWeightSize)
{
    ACL_REQUIRE_NOT_NULL(queryInfo);
    ACL_REQUIRE_NOT_NULL(workSize);
    ACL_REQUIRE_NOT_NULL(constWeightSize);
    ACL_REQUIRE(index < queryInfo->layout.n, OA_E_PARAM, "index[%zu] must be less than the bundle's %zu sub-models",
                index, queryInfo->layout.n);
    *workSize = queryInfo->work[index];
    *constWeightSize = queryInfo->weight[index];
    return ACL_SUCCESS;
}
