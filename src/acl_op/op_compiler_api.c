/*
 * acl_op_compiler.h entry points: compiling single operators on the CPU
 * (aclopCompile*), the global compile options and flags, and the graph
 * dump of aclGenGraphAndDumpForOp.
 *
 * Compiling = matching the cache first (a loaded or earlier compiled model
 * is reused, as CANN's GetOpModel does), else building the one-node graph,
 * inferring it, binding it to a kernel and creating the kernel operator
 * (op_exec.h), then registering the signature as a dynamically registered
 * model: it takes part in LRU aging under max_opqueue_num.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "acl_base/data_buffer.h"
#include "acl_base/platform.h"
#include "acl_op/op_internal.h"
#include "base/acl_check.h"
#include "base/log.h"
#include "base/util.h"

/* ---- global state ---- */

#define COMPILE_OPT_COUNT 17
#define COMPILE_OPT_SIZE 256u

static pthread_mutex_t g_opt_mu = PTHREAD_MUTEX_INITIALIZER;
static char *g_opts[COMPILE_OPT_COUNT];
static atomic_int g_compile_flag;
static atomic_int g_jit = 1;

int oa_aclop_compile_flag(void)
{
    return atomic_load(&g_compile_flag);
}

int oa_aclop_jit_compile(void)
{
    return atomic_load(&g_jit);
}

/* CANN's default ACL_OP_JIT_COMPILE by NpuArch: enabled on the older architectures. */
static const char *default_jit_value(void)
{
    static const int32_t enabled[] = {1001, 2002, 2102, 3002, 3004, 3505, 3102, 5102};
    const oa_soc_info *soc = oa_platform_current_soc();
    if (soc == NULL) {
        return "disable";
    }
    for (size_t i = 0; i < OA_ARRAY_SIZE(enabled); ++i) {
        if (soc->npu_arch == enabled[i]) {
            return "enable";
        }
    }
    return "disable";
}

/* First compile: without a user ACL_OP_JIT_COMPILE the SoC's default applies (CANN's SetJitCompileDefaultValue). */
static void apply_jit_default(void)
{
    pthread_mutex_lock(&g_opt_mu);
    if (g_opts[ACL_OP_JIT_COMPILE] == NULL && strcmp(default_jit_value(), "disable") == 0) {
        atomic_store(&g_jit, 0);
        g_opts[ACL_OP_JIT_COMPILE] = strdup("0");
    }
    pthread_mutex_unlock(&g_opt_mu);
}

static bool opt_known(aclCompileOpt opt)
{
    return (int)opt >= 0 && (int)opt < COMPILE_OPT_COUNT && opt != ACL_AUTO_TUNE_MODE;
}

ACL_FUNC_VISIBILITY aclError aclSetCompileopt(aclCompileOpt opt, const char *value)
{
    ACL_REQUIRE_NOT_NULL(value);
    ACL_REQUIRE(opt != ACL_AUTO_TUNE_MODE, OA_E_FEATURE_UNSUPPORTED,
                "The Auto Tune function has been discarded. Please use the AOE tool for tuning.");
    ACL_REQUIRE(opt_known(opt), OA_E_INTERNAL,
                "[Check][Opt]Cannot find any options[%d] valid in enum aclCompileOpt, please check input option.",
                (int)opt);
    const char *v = value;
    if (opt == ACL_OP_JIT_COMPILE) {
        v = strcmp(value, "enable") == 0 ? "1" : "0";
        atomic_store(&g_jit, v[0] == '1' ? 1 : 0);
    }
    char *copy = strdup(v);
    ACL_REQUIRE(copy != NULL, OA_E_NOMEM, "compile option value");
    pthread_mutex_lock(&g_opt_mu);
    free(g_opts[opt]);
    g_opts[opt] = copy;
    pthread_mutex_unlock(&g_opt_mu);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY size_t aclGetCompileoptSize(aclCompileOpt opt)
{
    if (opt == ACL_OP_JIT_COMPILE) {
        return COMPILE_OPT_SIZE;
    }
    if (!opt_known(opt)) {
        return 0;
    }
    pthread_mutex_lock(&g_opt_mu);
    const size_t n = (g_opts[opt] == NULL || g_opts[opt][0] == '\0') ? 0 : strlen(g_opts[opt]) + 1;
    pthread_mutex_unlock(&g_opt_mu);
    return n;
}

static oa_status copy_value(char *value, size_t length, const char *s)
{
    const size_t n = strlen(s);
    if (length < n + 1) {
        return OA_FAIL(OA_E_FAILURE, "[Check][PARAM] length[%zu] < str_size[%zu] + 1U", length, n);
    }
    memcpy(value, s, n + 1);
    return OA_OK;
}

ACL_FUNC_VISIBILITY aclError aclGetCompileopt(aclCompileOpt opt, char *value, size_t length)
{
    ACL_REQUIRE_NOT_NULL(value);
    if (opt == ACL_OP_DEBUG_OPTION) {
        pthread_mutex_lock(&g_opt_mu);
        char *v = g_opts[opt] != NULL ? strdup(g_opts[opt]) : NULL;
        pthread_mutex_unlock(&g_opt_mu);
        if (v == NULL) {
            return oa_status_to_acl(OA_FAIL(OA_E_NOT_SUPPORTED, "compile option ACL_OP_DEBUG_OPTION is not set"));
        }
        const oa_status st = copy_value(value, length, v);
        free(v);
        ACL_RETURN_STATUS(st);
    }
    if (opt == ACL_OP_JIT_COMPILE) {
        /* CANN answers the SoC's default here, not a value set with aclSetCompileopt */
        ACL_RETURN_STATUS(copy_value(value, length, default_jit_value()));
    }
    return oa_status_to_acl(OA_FAIL(OA_E_NOT_SUPPORTED, "reading compile option %d is not supported", (int)opt));
}

ACL_FUNC_VISIBILITY aclError aclopSetCompileFlag(aclOpCompileFlag flag)
{
    OA_LOGI("start to execute aclopSetCompileFlag, flag is %d", (int)flag);
    atomic_store(&g_compile_flag, (int)flag);
    return ACL_SUCCESS;
}

/* ---- compiling ---- */

static oa_status check_compile_type(aclopCompileType compileFlag, const char *opPath)
{
    if (compileFlag != ACL_COMPILE_SYS && compileFlag != ACL_COMPILE_UNREGISTERED) {
        return OA_FAIL(OA_E_NOT_SUPPORTED,
                       "[Check][Type]aclopCompile compile type[%d] not support, must be equal to ACL_COMPILE_SYS or "
                       "ACL_COMPILE_UNREGISTERED",
                       (int)compileFlag);
    }
    (void)opPath;
    return OA_OK;
}

/*
 * ACL_COMPILE_UNREGISTERED compiles the operator implementation found under opPath (a TBE operator package); the
 * CPU compiler only knows its built-in operators and cannot run such an implementation, so the request is refused
 * rather than silently compiled as a built-in (docs/runtime.md, "Operator compilation flags").
 */
static oa_status check_unregistered(aclopCompileType compileFlag, const char *opPath)
{
    if (compileFlag != ACL_COMPILE_UNREGISTERED) {
        return OA_OK;
    }
    return OA_FAIL(OA_E_NOT_SUPPORTED,
                   "[Check][CompileFlag]ACL_COMPILE_UNREGISTERED is not supported: the operator implementation under "
                   "opPath [%s] cannot be compiled on this device, only built-in operators (ACL_COMPILE_SYS)",
                   opPath);
}

static bool req_static(const oa_opreq *r)
{
    for (int i = 0; i < r->n_in; ++i) {
        if (oa_opdesc_is_dynamic(r->in[i])) {
            return false;
        }
    }
    for (int i = 0; i < r->n_out; ++i) {
        if (oa_opdesc_is_dynamic(r->out[i])) {
            return false;
        }
    }
    return true;
}

/* Host-memory inputs of a compile with buffers become constants (jit on, default flag), as CANN compiles them. */
static oa_status host_mem_to_const(oa_opmodel *m, const oa_opreq *req)
{
    if (req->in_buf == NULL) {
        return OA_OK;
    }
    for (int i = 0; i < m->n_in; ++i) {
        aclTensorDesc *d = &m->in[i];
        if (d->is_const || (d->mem_type != ACL_MEMTYPE_HOST && d->mem_type != ACL_MEMTYPE_HOST_COMPILE_INDEPENDENT)) {
            continue;
        }
        if (oa_aclop_compile_flag() != 0 || oa_aclop_jit_compile() != 1 ||
            d->mem_type == ACL_MEMTYPE_HOST_COMPILE_INDEPENDENT) {
            continue; /* stays a data input */
        }
        const aclDataBuffer *b = req->in_buf[i];
        d->is_const = true;
        if (b->length > 0) {
            d->const_data = malloc((size_t)b->length);
            if (d->const_data == NULL) {
                return OA_FAIL(OA_E_NOMEM, "constant of input %d", i);
            }
            memcpy(d->const_data, b->data, (size_t)b->length);
            d->const_data_len = (size_t)b->length;
        }
    }
    return OA_OK;
}

/* Fuzzy compile: every non-constant dim becomes -1 with range [0, -1] (the CPU kernels take any shape). */
static oa_status generalize(aclTensorDesc *d)
{
    if (d->is_const || d->dim_count == 0 || (d->dim_count == 1 && d->dims[0] == OA_UNKNOWN_RANK)) {
        return OA_OK;
    }
    int64_t(*r)[2] = calloc(d->dim_count, sizeof(*r));
    if (r == NULL) {
        return OA_FAIL(OA_E_NOMEM, "shape range");
    }
    for (size_t k = 0; k < d->dim_count; ++k) {
        d->dims[k] = OA_UNKNOWN_DIM;
        r[k][0] = 0;
        r[k][1] = -1;
    }
    free(d->shape_range);
    d->shape_range = r;
    d->shape_range_count = d->dim_count;
    return OA_OK;
}

/* Validates a model whose shapes are not all known: build and infer its graph. */
static oa_status validate_dynamic(const oa_opmodel *m)
{
    oa_opspec_tensor *tin = calloc((size_t)m->n_in + 1, sizeof(*tin));
    oa_opspec_tensor *tout = calloc((size_t)m->n_out + 1, sizeof(*tout));
    oa_status st = (tin == NULL || tout == NULL) ? OA_FAIL(OA_E_NOMEM, "compile") : OA_OK;
    for (int i = 0; i < m->n_in && st == OA_OK; ++i) {
        oa_opspec_tensor_from_desc(&tin[i], &m->in[i], NULL);
    }
    for (int i = 0; i < m->n_out && st == OA_OK; ++i) {
        oa_opspec_tensor_from_desc(&tout[i], &m->out[i], NULL);
    }
    oa_graph *g = NULL;
    oa_node *n = NULL;
    if (st == OA_OK) {
        const oa_opspec spec = {.type = m->type, .attr = m->attr, .n_in = m->n_in, .n_out = m->n_out, .in = tin,
                                .out = tout};
        st = oa_opgraph_build(&spec, true, &g, &n);
    }
    oa_graph_destroy(g);
    free(tin);
    free(tout);
    return st;
}

/* CANN's GetOpModel: a cached model, else compile and register one. [out] *out: one reference. */
static oa_status compile_req(const oa_opreq *req, oa_opmodel **out)
{
    *out = NULL;
    apply_jit_default();
    oa_status st = oa_opcache_match(req, false, out);
    if (st != OA_E_OP_NOT_FOUND) {
        return st;
    }
    oa_opmodel *m = NULL;
    st = oa_opmodel_from_req(req, "compiled", &m);
    if (st == OA_OK) {
        st = host_mem_to_const(m, req);
    }
    const bool fuzzy = oa_aclop_compile_flag() == 1;
    for (int i = 0; st == OA_OK && fuzzy && i < m->n_in + m->n_out; ++i) {
        st = generalize(i < m->n_in ? &m->in[i] : &m->out[i - m->n_in]);
    }
    if (st == OA_OK && fuzzy) {
        m->build_mode = 2;
    }
    if (st == OA_OK) {
        if (req_static(req)) {
            oa_opexec *e = NULL;
            st = oa_opmodel_get_exec(m, req, &e); /* kept in the model */
            oa_opexec_unref(e);
        } else {
            st = validate_dynamic(m);
        }
    }
    if (st == OA_OK) {
        st = oa_opcache_register(m, false, NULL);
    }
    if (st != OA_OK) {
        oa_opmodel_unref(m);
        return st;
    }
    OA_LOGI("Compile operator %s success", req->type);
    *out = m;
    return OA_OK;
}

ACL_FUNC_VISIBILITY aclError aclopCompile(const char *opType, int numInputs, const aclTensorDesc *const inputDesc[],
                                          int numOutputs, const aclTensorDesc *const outputDesc[],
                                          const aclopAttr *attr, aclopEngineType engineType,
                                          aclopCompileType compileFlag, const char *opPath)
{
    ACL_REQUIRE(numInputs >= 0 && numOutputs >= 0, OA_E_PARAM,
                "numInputs [%d] and numOutputs [%d] must not be negative", numInputs, numOutputs);
    oa_status st = check_compile_type(compileFlag, opPath);
    if (st != OA_OK) {
        ACL_RETURN_STATUS(st);
    }
    ACL_REQUIRE_NOT_NULL(opType);
    st = oa_aclop_check_ptrs(numInputs, (const void *const *)inputDesc, "inputDesc");
    if (st == OA_OK) {
        st = oa_aclop_check_ptrs(numOutputs, (const void *const *)outputDesc, "outputDesc");
    }
    if (st != OA_OK) {
        ACL_RETURN_STATUS(st);
    }
    ACL_REQUIRE(!oa_aclop_has_host_mem(numInputs, inputDesc), OA_E_NOT_SUPPORTED,
                "[Check][TensorDesc]aclopCompile ACL_MEMTYPE_HOST or ACL_MEMTYPE_HOST_COMPILE_INDEPENDENT placeMent in "
                "inputDesc not support");
    ACL_REQUIRE(!oa_aclop_has_host_mem(numOutputs, outputDesc), OA_E_NOT_SUPPORTED,
                "[Check][TensorDesc]aclopCompile ACL_MEMTYPE_HOST or ACL_MEMTYPE_HOST_COMPILE_INDEPENDENT placeMent in "
                "outputDesc not support");
    ACL_REQUIRE(compileFlag != ACL_COMPILE_UNREGISTERED || opPath != NULL, OA_E_PARAM,
                "[Check][CompileFlag]opPath cannot be null while compileFlag is %d", (int)compileFlag);
    st = check_unregistered(compileFlag, opPath);
    if (st != OA_OK) {
        ACL_RETURN_STATUS(st);
    }
    OA_LOGI("start to execute aclopCompile. opType = %s, engineType = %d, compileFlag = %d", opType, (int)engineType,
            (int)compileFlag);
    const oa_opreq req = {.type = opType, .n_in = numInputs, .n_out = numOutputs, .in = inputDesc,
                          .out = outputDesc, .attr = attr, .is_compile = true};
    oa_opmodel *m = NULL;
    st = compile_req(&req, &m);
    oa_opmodel_unref(m);
    ACL_RETURN_STATUS(st);
}

static oa_status compile_and_execute(const char *opType, int numInputs, const aclTensorDesc *const inputDesc[],
                                     const aclDataBuffer *const inputs[], int numOutputs,
                                     const aclTensorDesc *const outputDesc[], aclDataBuffer *const outputs[],
                                     const aclopAttr *attr, aclopEngineType engineType, aclopCompileType compileFlag,
                                     const char *opPath, aclrtStream stream, oa_op_refresh refresh, bool *empty)
{
    *empty = false;
    if (numInputs < 0 || numOutputs < 0) {
        return OA_FAIL(OA_E_PARAM, "numInputs [%d] and numOutputs [%d] must not be negative", numInputs, numOutputs);
    }
    oa_status st = check_compile_type(compileFlag, opPath);
    if (st == OA_OK && opType == NULL) {
        st = OA_FAIL(OA_E_PARAM, "parameter [opType] must not be null");
    }
    if (st == OA_OK) {
        st = oa_aclop_check_ptrs(numInputs, (const void *const *)inputDesc, "inputDesc");
    }
    if (st == OA_OK) {
        st = oa_aclop_check_ptrs(numOutputs, (const void *const *)outputDesc, "outputDesc");
    }
    if (st == OA_OK) {
        st = oa_aclop_check_buffers(numInputs, inputs, "inputs");
    }
    if (st == OA_OK) {
        st = oa_aclop_check_buffers(numOutputs, (const aclDataBuffer *const *)outputs, "outputs");
    }
    if (st != OA_OK) {
        return st;
    }
    if (oa_aclop_all_outputs_empty(numOutputs, outputDesc)) {
        OA_LOGI("all output tensor are empty");
        *empty = true;
        return OA_OK;
    }
    if (compileFlag == ACL_COMPILE_UNREGISTERED && opPath == NULL) {
        return OA_FAIL(OA_E_PARAM, "[Check][OpPath]opPath cannot be null while compileFlag is %d", (int)compileFlag);
    }
    st = check_unregistered(compileFlag, opPath);
    if (st != OA_OK) {
        return st;
    }
    OA_LOGI("start to execute aclopCompileAndExecute, opType = %s, engineType = %d, compileFlag = %d", opType,
            (int)engineType, (int)compileFlag);
    const oa_opreq req = {.type = opType, .n_in = numInputs, .n_out = numOutputs, .in = inputDesc,
                          .out = outputDesc, .in_buf = inputs, .out_buf = (const aclDataBuffer *const *)outputs,
                          .attr = attr, .is_compile = true};
    oa_opmodel *m = NULL;
    st = compile_req(&req, &m);
    if (st != OA_OK) {
        return st;
    }
    if (!req_static(&req)) {
        oa_opmodel_unref(m);
        return OA_FAIL(OA_E_PARAM, "[Check][Op]TensorDesc must be static when executing, op type %s", opType);
    }
    st = oa_aclop_run_model(m, &req, outputs, stream, refresh);
    oa_opmodel_unref(m);
    return st;
}

ACL_FUNC_VISIBILITY aclError aclopCompileAndExecute(const char *opType, int numInputs,
                                                    const aclTensorDesc *const inputDesc[],
                                                    const aclDataBuffer *const inputs[], int numOutputs,
                                                    const aclTensorDesc *const outputDesc[],
                                                    aclDataBuffer *const outputs[], const aclopAttr *attr,
                                                    aclopEngineType engineType, aclopCompileType compileFlag,
                                                    const char *opPath, aclrtStream stream)
{
    bool empty;
    ACL_RETURN_STATUS(compile_and_execute(opType, numInputs, inputDesc, inputs, numOutputs, outputDesc, outputs, attr,
                                          engineType, compileFlag, opPath, stream, OA_OP_REFRESH_NONE, &empty));
}

ACL_FUNC_VISIBILITY aclError aclopCompileAndExecuteV2(const char *opType, int numInputs, aclTensorDesc *inputDesc[],
                                                      aclDataBuffer *inputs[], int numOutputs,
                                                      aclTensorDesc *outputDesc[], aclDataBuffer *outputs[],
                                                      aclopAttr *attr, aclopEngineType engineType,
                                                      aclopCompileType compileFlag, const char *opPath,
                                                      aclrtStream stream)
{
    bool empty;
    ACL_RETURN_STATUS(compile_and_execute(opType, numInputs, (const aclTensorDesc *const *)inputDesc,
                                          (const aclDataBuffer *const *)inputs, numOutputs,
                                          (const aclTensorDesc *const *)outputDesc, outputs, attr, engineType,
                                          compileFlag, opPath, stream, OA_OP_REFRESH_ORIGIN, &empty));
}

/* ---- graph dump ---- */

struct aclGraphDumpOption {
    int reserved;
};

ACL_FUNC_VISIBILITY aclGraphDumpOption *aclCreateGraphDumpOpt(void)
{
    aclGraphDumpOption *o = calloc(1, sizeof(*o));
    if (o == NULL) {
        (void)OA_FAIL(OA_E_NOMEM, "graph dump option");
    }
    return o;
}

ACL_FUNC_VISIBILITY aclError aclDestroyGraphDumpOpt(const aclGraphDumpOption *graphDumpOpt)
{
    ACL_REQUIRE_NOT_NULL(graphDumpOpt);
    free((void *)(uintptr_t)graphDumpOpt);
    return ACL_SUCCESS;
}

static atomic_int g_dump_idx;

static oa_status dump_graph(const oa_opreq *req, const char *path)
{
    oa_opspec_tensor *tin = calloc((size_t)req->n_in + 1, sizeof(*tin));
    oa_opspec_tensor *tout = calloc((size_t)req->n_out + 1, sizeof(*tout));
    oa_status st = (tin == NULL || tout == NULL) ? OA_FAIL(OA_E_NOMEM, "graph dump") : OA_OK;
    for (int i = 0; i < req->n_in && st == OA_OK; ++i) {
        oa_opspec_tensor_from_desc(&tin[i], req->in[i], NULL);
    }
    for (int i = 0; i < req->n_out && st == OA_OK; ++i) {
        oa_opspec_tensor_from_desc(&tout[i], req->out[i], NULL);
    }
    oa_graph *g = NULL;
    oa_node *n = NULL;
    if (st == OA_OK) {
        const oa_opspec spec = {.type = req->type, .attr = req->attr, .n_in = req->n_in, .n_out = req->n_out,
                                .in = tin, .out = tout};
        st = oa_opgraph_build(&spec, true, &g, &n);
    }
    char *file = NULL;
    if (st == OA_OK) {
        const size_t len = strlen(path);
        if (len >= 4 && strcmp(path + len - 4, ".txt") == 0) {
            file = strdup(path);
        } else {
            const size_t cap = len + strlen(req->type) + 32;
            file = malloc(cap);
            if (file != NULL) {
                snprintf(file, cap, "%s/ge_proto_%05d_%s.txt", path, atomic_fetch_add(&g_dump_idx, 1), req->type);
            }
        }
        if (file == NULL) {
            st = OA_FAIL(OA_E_NOMEM, "dump path");
        }
    }
    if (st == OA_OK) {
        FILE *f = fopen(file, "w");
        if (f == NULL) {
            st = OA_FAIL(OA_E_WRITE_FILE, "[CALL][GEAPI]DumpGEGraphByPath failed: cannot open %s (%s)", file,
                         strerror(errno));
        } else {
            st = oa_graph_dump(g, f, 0);
            if (fclose(f) != 0 && st == OA_OK) {
                st = OA_FAIL(OA_E_WRITE_FILE, "cannot write %s", file);
            }
        }
    }
    free(file);
    oa_graph_destroy(g);
    free(tin);
    free(tout);
    return st;
}

ACL_FUNC_VISIBILITY aclError aclGenGraphAndDumpForOp(const char *opType, int numInputs,
                                                     const aclTensorDesc *const inputDesc[],
                                                     const aclDataBuffer *const inputs[], int numOutputs,
                                                     const aclTensorDesc *const outputDesc[],
                                                     aclDataBuffer *const outputs[], const aclopAttr *attr,
                                                     aclopEngineType engineType, const char *graphDumpPath,
                                                     const aclGraphDumpOption *graphDumpOpt)
{
    ACL_REQUIRE(graphDumpOpt == NULL, OA_E_PARAM, "[Check][PARAM]graphDumpOpt only support nullptr currently");
    ACL_REQUIRE(numInputs >= 0 && numOutputs >= 0, OA_E_PARAM,
                "numInputs [%d] and numOutputs [%d] must not be negative", numInputs, numOutputs);
    ACL_REQUIRE_NOT_NULL(opType);
    ACL_REQUIRE_NOT_NULL(graphDumpPath);
    oa_status st = oa_aclop_check_ptrs(numInputs, (const void *const *)inputDesc, "inputDesc");
    if (st == OA_OK) {
        st = oa_aclop_check_ptrs(numOutputs, (const void *const *)outputDesc, "outputDesc");
    }
    if (st != OA_OK) {
        ACL_RETURN_STATUS(st);
    }
    if (oa_aclop_all_outputs_empty(numOutputs, outputDesc)) {
        return ACL_SUCCESS;
    }
    st = oa_aclop_check_ptrs(numInputs, (const void *const *)inputs, "inputs");
    if (st == OA_OK) {
        st = oa_aclop_check_ptrs(numOutputs, (const void *const *)outputs, "outputs");
    }
    if (st != OA_OK) {
        ACL_RETURN_STATUS(st);
    }
    (void)engineType;
    const oa_opreq req = {.type = opType, .n_in = numInputs, .n_out = numOutputs, .in = inputDesc,
                          .out = outputDesc, .in_buf = inputs, .attr = attr, .is_compile = true};
    ACL_RETURN_STATUS(dump_graph(&req, graphDumpPath));
}
