/*
 * Model loading and unloading: aclmdlLoadFrom{File,Mem}[WithMem|WithQ],
 * aclmdlLoadWithConfig, aclmdlUnload, aclmdlSetAttribute/GetAttribute, and
 * the routing helpers shared with the description functions.
 *
 * A load runs CANN's argument checks in CANN's order, then
 *   1. aclInit must have run (GE's executor is initialised by it): 145001;
 *   2. the registered reader (model_reader.h) opens the model and builds
 *      its model_info;
 *   3. the route: V2 when the OM header says "dynamic" and ENABLE_RUNTIME_V2
 *      allows it, else V1; the executor registered for the route loads it
 *      (model.h) and the model is published with its id.
 * Without a reader or an executor the load stops with "<function> is not
 * supported yet" (OA_E_NOT_SUPPORTED).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "acl/acl_rt.h"
#include "acl_mdl/mdl_internal.h"
#include "base/pages.h"
#include "acl_mdl/model_reader.h"
#include "acl_state/acl_state.h"
#include "base/acl_check.h"
#include "om/om_format.h"
#include "prof/prof_internal.h"

#define OM2_MAGIC_SIZE 4u

/* ---- shared helpers ---- */

oa_status oa_mdl_not_supported(const char *fn)
{
    return OA_FAIL(OA_E_NOT_SUPPORTED, "%s is not supported yet", fn);
}

oa_status oa_mdl_om2_unsupported(const char *fn)
{
    return OA_FAIL(OA_E_NOT_SUPPORTED, "%s: OM2 (zip) models are not supported", fn);
}

static bool is_om2_magic(const unsigned char *b)
{
    return b[0] == 0x50 && b[1] == 0x4B && b[2] == 0x03 && b[3] == 0x04;
}

oa_status oa_mdl_route_path(const char *path, bool *is_om2)
{
    if (path == NULL) {
        return OA_FAIL(OA_E_PARAM, "parameter [modelPath] must not be null");
    }
    char *real = realpath(path, NULL);
    if (real == NULL) {
        return OA_FAIL(OA_E_GE_MODEL_PATH, "model file path %s is invalid: %s", path, strerror(errno));
    }
    const int fd = open(real, O_RDONLY | O_CLOEXEC);
    free(real);
    if (fd < 0) {
        return OA_FAIL(OA_E_GE_MODEL_PATH, "open model file %s failed: %s", path, strerror(errno));
    }
    unsigned char magic[OM2_MAGIC_SIZE];
    size_t got = 0;
    while (got < sizeof(magic)) {
        const ssize_t r = read(fd, magic + got, sizeof(magic) - got);
        if (r < 0 && errno == EINTR) {
            continue;
        }
        if (r <= 0) {
            break;
        }
        got += (size_t)r;
    }
    (void)close(fd);
    if (got < sizeof(magic)) {
        return OA_FAIL(OA_E_GE_MODEL_DATA_SIZE, "model file %s has %zu bytes, fewer than %u", path, got,
                       OM2_MAGIC_SIZE);
    }
    *is_om2 = is_om2_magic(magic);
    return OA_OK;
}

oa_status oa_mdl_route_mem(const void *data, size_t size, bool *is_om2)
{
    if (data == NULL || size == 0) {
        return OA_FAIL(OA_E_PARAM, "model data is null or model size is 0");
    }
    if (size < OM2_MAGIC_SIZE) {
        return OA_FAIL(OA_E_GE_MODEL_DATA_SIZE, "model data size %zu must be greater than or equal to %u", size,
                       OM2_MAGIC_SIZE);
    }
    *is_om2 = is_om2_magic(data);
    return OA_OK;
}

bool oa_mdl_header_is_dynamic(const void *head, size_t size)
{
    if (head == NULL || size < OA_OM_HEADER_SIZE) {
        return false;
    }
    oa_om_header h;
    oa_om_header_decode(head, &h);
    return oa_om_header_is_dynamic(&h);
}

bool oa_mdl_rt2_enabled(void)
{
    const char *v = getenv("ENABLE_RUNTIME_V2");
    return v == NULL || strcmp(v, "0") != 0;
}

oa_status oa_mdl_require_init(void)
{
    if (!oa_acl_is_initialized()) {
        return OA_FAIL(OA_E_GE_NOT_INIT, "GeExecutor has not been initialized: call aclInit first");
    }
    return OA_OK;
}

/* ---- the reader ---- */

static pthread_mutex_t g_reader_lock = PTHREAD_MUTEX_INITIALIZER;
static const oa_model_reader *g_reader;
static pthread_once_t g_builtins_once = PTHREAD_ONCE_INIT;

static void register_builtins(void)
{
    if (oa_mdl_register_builtins != NULL) {
        oa_mdl_register_builtins();
    }
}

void oa_mdl_builtins(void)
{
    pthread_once(&g_builtins_once, register_builtins);
}

void oa_model_reader_register(const oa_model_reader *reader)
{
    pthread_mutex_lock(&g_reader_lock);
    g_reader = reader;
    pthread_mutex_unlock(&g_reader_lock);
}

const oa_model_reader *oa_model_reader_get(void)
{
    oa_mdl_builtins();
    pthread_mutex_lock(&g_reader_lock);
    const oa_model_reader *r = g_reader;
    pthread_mutex_unlock(&g_reader_lock);
    return r;
}

/* ---- the load pipeline ---- */

typedef struct load_req {
    const char *fn;        /* public function, for messages */
    oa_model_source src;
    oa_model_load_args args;
} load_req;

static oa_status do_load_inner(const load_req *req, uint32_t *model_id);

/* The load with its ACL_PROF_ACL_API span (docs/profiling.md). */
static oa_status do_load(const load_req *req, uint32_t *model_id)
{
    const uint64_t t0 = oa_prof_api_begin();
    const oa_status st = do_load_inner(req, model_id);
    oa_prof_api_end(req->fn, t0);
    return st;
}

static oa_status do_load_inner(const load_req *req, uint32_t *model_id)
{
    oa_status st = oa_mdl_require_init();
    if (st != OA_OK) {
        return st;
    }
    const oa_model_reader *reader = oa_model_reader_get();
    if (reader == NULL || reader->open == NULL) {
        return oa_mdl_not_supported(req->fn);
    }
    oa_model_image img;
    memset(&img, 0, sizeof(img));
    st = reader->open(&req->src, &img);
    if (st != OA_OK) {
        return st;
    }
    oa_model_info *info = img.info;
    const oa_model_route route = info->header_dynamic && oa_mdl_rt2_enabled() ? OA_ROUTE_V2 : OA_ROUTE_V1;
    info->route = route;
    const oa_model_exec_ops *ops = oa_model_executor_get(route);
    oa_model *m = NULL;
    if (ops == NULL || ops->load == NULL) {
        st = oa_mdl_not_supported(req->fn);
    } else {
        st = oa_model_create(route, info, ops, req->args.priority, &m);
    }
    if (st == OA_OK) {
        oa_model_load_args args = req->args;
        args.om = img.om;
        args.image = img.bytes;
        args.image_size = img.size;
        st = ops->load(m, &args);
        if (st != OA_OK) {
            oa_model_discard(m);
            m = NULL;
        }
    }
    if (reader->close != NULL) {
        reader->close(&img);
    }
    oa_model_info_release(info);
    oa_pages_trim_heap(); /* the load's transients (graph, decoded parts) leave the process */
    if (st != OA_OK) {
        return st;
    }
    st = oa_model_publish(m, model_id);
    if (st != OA_OK) {
        oa_model_release(m); /* unpublished but loaded: unload() runs */
    }
    return st;
}

/* The checks every load by path starts with (CANN's OM2 router, then the modelId pointer). */
static oa_status check_path_load(const char *fn, const char *path, const uint32_t *model_id)
{
    bool om2 = false;
    oa_status st = oa_mdl_route_path(path, &om2);
    if (st != OA_OK) {
        return st;
    }
    if (om2) {
        return oa_mdl_om2_unsupported(fn);
    }
    if (model_id == NULL) {
        return OA_FAIL(OA_E_PARAM, "parameter [modelId] must not be null");
    }
    return OA_OK;
}

static oa_status check_mem_load(const char *fn, const void *model, size_t size, const uint32_t *model_id)
{
    bool om2 = false;
    oa_status st = oa_mdl_route_mem(model, size, &om2);
    if (st != OA_OK) {
        return st;
    }
    if (om2) {
        return oa_mdl_om2_unsupported(fn);
    }
    if (model_id == NULL) {
        return OA_FAIL(OA_E_PARAM, "parameter [modelId] must not be null");
    }
    /* GE reads the whole 256-byte header to decide V1 / V2 */
    if (oa_mdl_rt2_enabled() && size < OA_OM_HEADER_SIZE) {
        return OA_FAIL(OA_E_PARAM, "invalid model size, model data size %zu must be greater than or equal to %u", size,
                       OA_OM_HEADER_SIZE);
    }
    return OA_OK;
}

static oa_status check_queues(const uint32_t *input_q, size_t input_q_num, const uint32_t *output_q,
                              size_t output_q_num)
{
    if (input_q == NULL) {
        return OA_FAIL(OA_E_PARAM, "parameter [inputQ] must not be null");
    }
    if (output_q == NULL) {
        return OA_FAIL(OA_E_PARAM, "parameter [outputQ] must not be null");
    }
    if (input_q_num == 0 || output_q_num == 0) {
        return OA_FAIL(OA_E_PARAM, "inputQNum[%zu] or outputQNum[%zu] is invalid, can't be zero", input_q_num,
                       output_q_num);
    }
    return OA_OK;
}

ACL_FUNC_VISIBILITY aclError aclmdlLoadFromFile(const char *modelPath, uint32_t *modelId)
{
    ACL_RETURN_STATUS_IF_FAIL(check_path_load("aclmdlLoadFromFile", modelPath, modelId));
    load_req req = {.fn = "aclmdlLoadFromFile", .src = {.path = modelPath}};
    req.args.om_path = modelPath;
    ACL_RETURN_STATUS(do_load(&req, modelId));
}

ACL_FUNC_VISIBILITY aclError aclmdlLoadFromFileWithMem(const char *modelPath, uint32_t *modelId, void *workPtr,
                                                       size_t workSize, void *weightPtr, size_t weightSize)
{
    ACL_RETURN_STATUS_IF_FAIL(check_path_load("aclmdlLoadFromFileWithMem", modelPath, modelId));
    load_req req = {.fn = "aclmdlLoadFromFileWithMem", .src = {.path = modelPath}};
    req.args.om_path = modelPath;
    req.args.work_ptr = workPtr;
    req.args.work_size = workSize;
    req.args.weight_ptr = weightPtr;
    req.args.weight_size = weightSize;
    ACL_RETURN_STATUS(do_load(&req, modelId));
}

ACL_FUNC_VISIBILITY aclError aclmdlLoadFromMem(const void *model, size_t modelSize, uint32_t *modelId)
{
    ACL_RETURN_STATUS_IF_FAIL(check_mem_load("aclmdlLoadFromMem", model, modelSize, modelId));
    load_req req = {.fn = "aclmdlLoadFromMem", .src = {.data = model, .size = modelSize}};
    ACL_RETURN_STATUS(do_load(&req, modelId));
}

ACL_FUNC_VISIBILITY aclError aclmdlLoadFromMemWithMem(const void *model, size_t modelSize, uint32_t *modelId,
                                                      void *workPtr, size_t workSize, void *weightPtr,
                                                      size_t weightSize)
{
    ACL_RETURN_STATUS_IF_FAIL(check_mem_load("aclmdlLoadFromMemWithMem", model, modelSize, modelId));
    load_req req = {.fn = "aclmdlLoadFromMemWithMem", .src = {.data = model, .size = modelSize}};
    req.args.work_ptr = workPtr;
    req.args.work_size = workSize;
    req.args.weight_ptr = weightPtr;
    req.args.weight_size = weightSize;
    ACL_RETURN_STATUS(do_load(&req, modelId));
}

ACL_FUNC_VISIBILITY aclError aclmdlLoadFromFileWithQ(const char *modelPath, uint32_t *modelId, const uint32_t *inputQ,
                                                     size_t inputQNum, const uint32_t *outputQ, size_t outputQNum)
{
    bool om2 = false;
    ACL_RETURN_STATUS_IF_FAIL(oa_mdl_route_path(modelPath, &om2));
    if (om2) {
        ACL_RETURN_STATUS(oa_mdl_om2_unsupported("aclmdlLoadFromFileWithQ"));
    }
    ACL_RETURN_STATUS_IF_FAIL(check_queues(inputQ, inputQNum, outputQ, outputQNum));
    ACL_REQUIRE_NOT_NULL(modelId);
    load_req req = {.fn = "aclmdlLoadFromFileWithQ", .src = {.path = modelPath}};
    req.args.om_path = modelPath;
    req.args.input_q = inputQ;
    req.args.input_q_num = inputQNum;
    req.args.output_q = outputQ;
    req.args.output_q_num = outputQNum;
    ACL_RETURN_STATUS(do_load(&req, modelId));
}

ACL_FUNC_VISIBILITY aclError aclmdlLoadFromMemWithQ(const void *model, size_t modelSize, uint32_t *modelId,
                                                    const uint32_t *inputQ, size_t inputQNum, const uint32_t *outputQ,
                                                    size_t outputQNum)
{
    bool om2 = false;
    ACL_RETURN_STATUS_IF_FAIL(oa_mdl_route_mem(model, modelSize, &om2));
    if (om2) {
        ACL_RETURN_STATUS(oa_mdl_om2_unsupported("aclmdlLoadFromMemWithQ"));
    }
    ACL_RETURN_STATUS_IF_FAIL(check_queues(inputQ, inputQNum, outputQ, outputQNum));
    ACL_REQUIRE_NOT_NULL(modelId);
    load_req req = {.fn = "aclmdlLoadFromMemWithQ", .src = {.data = model, .size = modelSize}};
    req.args.input_q = inputQ;
    req.args.input_q_num = inputQNum;
    req.args.output_q = outputQ;
    req.args.output_q_num = outputQNum;
    ACL_RETURN_STATUS(do_load(&req, modelId));
}

/* ---- aclmdlLoadWithConfig ---- */

static bool cfg_has(const aclmdlConfigHandle *h, aclmdlConfigAttr a)
{
    return (h->set & OA_CFG_BIT(a)) != 0;
}

/* CANN's CheckMdlConfigHandle: the attributes each load type needs (and, from a file, must not have). */
static oa_status check_config(const aclmdlConfigHandle *h)
{
    if (!cfg_has(h, ACL_MDL_LOAD_TYPE_SIZET)) {
        return OA_FAIL(OA_E_PARAM, "model load type is not set in aclmdlConfigHandle");
    }
    const size_t t = h->load_type;
    const bool from_file = t == ACL_MDL_LOAD_FROM_FILE || t == ACL_MDL_LOAD_FROM_FILE_WITH_MEM ||
                           t == ACL_MDL_LOAD_FROM_FILE_WITH_Q;
    const bool from_mem = t == ACL_MDL_LOAD_FROM_MEM || t == ACL_MDL_LOAD_FROM_MEM_WITH_MEM ||
                          t == ACL_MDL_LOAD_FROM_MEM_WITH_Q;
    if (from_file) {
        if (!cfg_has(h, ACL_MDL_PATH_PTR)) {
            return OA_FAIL(OA_E_PARAM, "model load type[%zu]: model path is not set in aclmdlConfigHandle when load "
                           "type is from file", t);
        }
        if (cfg_has(h, ACL_MDL_WEIGHT_PATH_PTR)) {
            return OA_FAIL(OA_E_PARAM, "model load type[%zu]: should not set ACL_MDL_WEIGHT_PATH_PTR", t);
        }
    }
    if (from_mem) {
        if (!cfg_has(h, ACL_MDL_MEM_ADDR_PTR)) {
            return OA_FAIL(OA_E_PARAM, "model load type[%zu]: model memory ptr is not set in aclmdlConfigHandle", t);
        }
        if (!cfg_has(h, ACL_MDL_MEM_SIZET)) {
            return OA_FAIL(OA_E_PARAM, "model load type[%zu]: model memory size is not set in aclmdlConfigHandle",
                           t);
        }
    }
    if (t == ACL_MDL_LOAD_FROM_FILE_WITH_Q || t == ACL_MDL_LOAD_FROM_MEM_WITH_Q) {
        static const struct {
            aclmdlConfigAttr attr;
            const char *name;
        } need[] = {{ACL_MDL_INPUTQ_ADDR_PTR, "ACL_MDL_INPUTQ_ADDR_PTR"},
                    {ACL_MDL_INPUTQ_NUM_SIZET, "ACL_MDL_INPUTQ_NUM_SIZET"},
                    {ACL_MDL_OUTPUTQ_ADDR_PTR, "ACL_MDL_OUTPUTQ_ADDR_PTR"},
                    {ACL_MDL_OUTPUTQ_NUM_SIZET, "ACL_MDL_OUTPUTQ_NUM_SIZET"}};
        for (size_t i = 0; i < sizeof(need) / sizeof(need[0]); ++i) {
            if (!cfg_has(h, need[i].attr)) {
                return OA_FAIL(OA_E_PARAM, "%s is not set in aclmdlConfigHandle when load type is with queue",
                               need[i].name);
            }
        }
    }
    return OA_OK;
}

/* The first 256 bytes of a file (fewer when it is shorter). */
static size_t read_head(const char *path, unsigned char *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return 0;
    }
    const size_t n = fread(buf, 1, cap, f);
    (void)fclose(f);
    return n;
}

/*
 * CANN refuses ACL_MDL_WITHOUT_GRAPH_INT32 for a model that goes to the
 * dynamic runtime; it reads the header for that before loading.
 */
static oa_status check_without_graph(const aclmdlConfigHandle *h, bool from_file)
{
    if (!oa_mdl_rt2_enabled()) {
        return OA_OK;
    }
    bool dynamic;
    if (from_file) {
        unsigned char head[OA_OM_HEADER_SIZE];
        dynamic = oa_mdl_header_is_dynamic(head, read_head(h->load_path, head, sizeof(head)));
    } else {
        if (h->mdl_size < OA_OM_HEADER_SIZE) {
            return OA_FAIL(OA_E_PARAM, "invalid model size, model data size %zu must be greater than or equal to %u",
                           h->mdl_size, OA_OM_HEADER_SIZE);
        }
        dynamic = oa_mdl_header_is_dynamic(h->mdl_addr, h->mdl_size);
    }
    if (dynamic && cfg_has(h, ACL_MDL_WITHOUT_GRAPH_INT32)) {
        return OA_FAIL(OA_E_PARAM, "ACL_MDL_WITHOUT_GRAPH_INT32 cannot be configured when model is dynamic");
    }
    return OA_OK;
}

oa_status oa_mdl_load_with_config(const aclmdlConfigHandle *h, uint32_t *model_id)
{
    /* CANN's router: a path wins over memory; neither is an error */
    bool om2 = false;
    oa_status st;
    if (h->load_path != NULL && h->load_path[0] != '\0') {
        st = oa_mdl_route_path(h->load_path, &om2);
    } else if (h->mdl_addr != NULL && h->mdl_size > 0) {
        st = oa_mdl_route_mem(h->mdl_addr, h->mdl_size, &om2);
    } else {
        st = OA_FAIL(OA_E_PARAM, "config handle has no valid model path or data");
    }
    if (st != OA_OK) {
        return st;
    }
    if (om2) {
        return oa_mdl_om2_unsupported("aclmdlLoadWithConfig");
    }
    if (model_id == NULL) {
        return OA_FAIL(OA_E_PARAM, "parameter [modelId] must not be null");
    }
    st = check_config(h);
    if (st != OA_OK) {
        return st;
    }
    load_req req = {.fn = "aclmdlLoadWithConfig"};
    req.args.priority = h->priority;
    req.args.without_graph = h->without_graph;
    req.args.reuse_zero_copy = h->reuse_zero_copy != 0;
    req.args.ext_weights = h->weights;
    req.args.n_ext_weights = h->n_weights;
    const size_t t = h->load_type;
    const bool with_mem = t == ACL_MDL_LOAD_FROM_FILE_WITH_MEM || t == ACL_MDL_LOAD_FROM_MEM_WITH_MEM;
    if (with_mem) {
        req.args.work_ptr = h->work_ptr;
        req.args.work_size = h->work_size;
        req.args.weight_ptr = h->weight_ptr;
        req.args.weight_size = h->weight_size;
    }
    switch (t) {
    case ACL_MDL_LOAD_FROM_FILE:
    case ACL_MDL_LOAD_FROM_FILE_WITH_MEM:
        st = check_without_graph(h, true);
        req.src.path = h->load_path;
        req.args.om_path = h->load_path;
        break;
    case ACL_MDL_LOAD_FROM_MEM:
    case ACL_MDL_LOAD_FROM_MEM_WITH_MEM:
        if (h->mdl_addr == NULL) {
            return OA_FAIL(OA_E_PARAM, "parameter [mdlAddr] must not be null");
        }
        st = check_without_graph(h, false);
        req.src.data = h->mdl_addr;
        req.src.size = h->mdl_size;
        /* FROM_MEM_WITH_MEM passes ACL_MDL_PATH_PTR on as the model path (weight directory fallback) */
        req.args.om_path = t == ACL_MDL_LOAD_FROM_MEM_WITH_MEM ? h->load_path : NULL;
        req.args.weight_dir = h->weight_path;
        break;
    case ACL_MDL_LOAD_FROM_FILE_WITH_Q:
    case ACL_MDL_LOAD_FROM_MEM_WITH_Q:
        st = check_queues(h->input_q, h->input_q_num, h->output_q, h->output_q_num);
        req.args.input_q = h->input_q;
        req.args.input_q_num = h->input_q_num;
        req.args.output_q = h->output_q;
        req.args.output_q_num = h->output_q_num;
        if (t == ACL_MDL_LOAD_FROM_FILE_WITH_Q) {
            req.src.path = h->load_path;
            req.args.om_path = h->load_path;
        } else {
            req.src.data = h->mdl_addr;
            req.src.size = h->mdl_size;
            req.args.weight_dir = h->weight_path;
        }
        break;
    default:
        return OA_FAIL(OA_E_PARAM, "model load type[%zu] is invalid, it should be in [%d, %d]", t,
                       ACL_MDL_LOAD_FROM_FILE, ACL_MDL_LOAD_FROM_MEM_WITH_Q);
    }
    if (st != OA_OK) {
        return st;
    }
    return do_load(&req, model_id);
}

ACL_FUNC_VISIBILITY aclError aclmdlLoadWithConfig(const aclmdlConfigHandle *handle, uint32_t *modelId)
{
    ACL_REQUIRE_NOT_NULL(handle);
    ACL_RETURN_STATUS(oa_mdl_load_with_config(handle, modelId));
}

/* ---- unload and attributes ---- */

ACL_FUNC_VISIBILITY aclError aclmdlUnload(uint32_t modelId)
{
    /* GE's unload does not need an initialised executor: models can be unloaded after aclFinalize */
    ACL_REQUIRE(!oa_mdl_bundle_owns(modelId), OA_E_PARAM,
                "model id[%u] belongs to a bundle: unload it with aclmdlBundleUnloadModel", modelId);
    ACL_RETURN_STATUS(oa_model_unload(modelId));
}

ACL_FUNC_VISIBILITY aclError aclmdlSetAttribute(uint32_t modelId, aclmdlAttr attr, aclmdlAttrValue_t *attrValue)
{
    ACL_REQUIRE_NOT_NULL(attrValue);
    ACL_REQUIRE(attr == ACL_MDL_ATTR_PRIORITY_INT32, OA_E_PARAM, "unsupported attr=%d", (int)attr);
    int32_t least = 0;
    int32_t greatest = 0;
    const aclError ret = aclrtDeviceGetStreamPriorityRange(&least, &greatest);
    if (ret != ACL_SUCCESS) {
        return ret;
    }
    const uint32_t prio = attrValue->mdlPriority;
    ACL_REQUIRE(prio >= (uint32_t)greatest && prio <= (uint32_t)least, OA_E_PARAM,
                "priority %u out of range [%d, %d]", prio, (int)greatest, (int)least);
    oa_model *m = oa_model_acquire(modelId);
    /* GE keeps priorities in its V1 model manager only: dynamic-shape models are unknown there */
    if (m == NULL || m->route != OA_ROUTE_V1) {
        oa_model_release(m);
        ACL_RETURN_STATUS(OA_FAIL(OA_E_GE_MODEL_ID, "set model priority failed, model not found, model_id=%u",
                                  modelId));
    }
    oa_model_set_priority(m, prio);
    oa_model_release(m);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlGetAttribute(uint32_t modelId, aclmdlAttr attr, aclmdlAttrValue_t *attrValue)
{
    ACL_REQUIRE_NOT_NULL(attrValue);
    ACL_REQUIRE(attr == ACL_MDL_ATTR_PRIORITY_INT32, OA_E_PARAM, "unsupported attr=%d", (int)attr);
    oa_model *m = oa_model_acquire(modelId);
    if (m == NULL || m->route != OA_ROUTE_V1) {
        oa_model_release(m);
        ACL_RETURN_STATUS(OA_FAIL(OA_E_GE_MODEL_ID, "get model priority failed, model not found, model_id=%u",
                                  modelId));
    }
    attrValue->mdlPriority = oa_model_get_priority(m);
    oa_model_release(m);
    return ACL_SUCCESS;
}
