/*
 * User device kernels: aclopCreateKernel, aclopRegisterCompileFunc,
 * aclopUnregisterCompileFunc, aclopSetKernelArgs,
 * aclopSetKernelWorkspaceSizes and aclopUpdateParams.
 *
 * These register AI Core / vector kernel binaries and a selector that picks
 * one of them per operator signature. The registries behave as CANN's
 * (argument checks, duplicate and missing registrations, the selector's
 * result), but a device kernel binary cannot run on a CPU: an execution of
 * an op type with a selector falls back to the single-op models, which is
 * what CANN does when the selector path fails (op_api.c). The binaries are
 * kept until the process exits, when their deallocators are called.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "acl_op/op_internal.h"
#include "base/acl_check.h"
#include "base/log.h"

typedef struct kernel_reg {
    char *op_type;
    char *kernel_id;
    char *kernel_name;
    void *bin;
    int bin_size;
    aclopEngineType engine;
    aclDataDeallocator deallocator;
    struct kernel_reg *next;
} kernel_reg;

typedef struct selector_reg {
    char *op_type;
    aclopCompileFunc fn;
    struct selector_reg *next;
} selector_reg;

struct aclopKernelDesc {
    char *kernel_id;
    uint32_t block_dim;
    void *args;
    size_t args_size;
    size_t *ws;
    size_t n_ws;
    struct aclopKernelDesc *next; /* selected descs are kept (CANN caches them per signature) */
};

static pthread_mutex_t g_reg_mu = PTHREAD_MUTEX_INITIALIZER;
static kernel_reg *g_kernels;
static selector_reg *g_selectors;
static aclopKernelDesc *g_descs;

static kernel_reg *find_kernel_locked(const char *type, const char *id)
{
    for (kernel_reg *k = g_kernels; k != NULL; k = k->next) {
        if (strcmp(k->op_type, type) == 0 && strcmp(k->kernel_id, id) == 0) {
            return k;
        }
    }
    return NULL;
}

static selector_reg **find_selector_locked(const char *type)
{
    for (selector_reg **s = &g_selectors; *s != NULL; s = &(*s)->next) {
        if (strcmp((*s)->op_type, type) == 0) {
            return s;
        }
    }
    return NULL;
}

bool oa_aclop_has_selector(const char *type)
{
    pthread_mutex_lock(&g_reg_mu);
    const bool r = g_selectors != NULL && find_selector_locked(type) != NULL;
    pthread_mutex_unlock(&g_reg_mu);
    return r;
}

static void desc_free(aclopKernelDesc *d)
{
    if (d != NULL) {
        free(d->kernel_id);
        free(d->args);
        free(d->ws);
        free(d);
    }
}

__attribute__((destructor)) static void release_registrations(void)
{
    pthread_mutex_lock(&g_reg_mu);
    while (g_kernels != NULL) {
        kernel_reg *k = g_kernels;
        g_kernels = k->next;
        if (k->deallocator != NULL) {
            k->deallocator(k->bin, (size_t)k->bin_size);
        }
        free(k->op_type);
        free(k->kernel_id);
        free(k->kernel_name);
        free(k);
    }
    while (g_selectors != NULL) {
        selector_reg *s = g_selectors;
        g_selectors = s->next;
        free(s->op_type);
        free(s);
    }
    while (g_descs != NULL) {
        aclopKernelDesc *d = g_descs;
        g_descs = d->next;
        desc_free(d);
    }
    pthread_mutex_unlock(&g_reg_mu);
}

ACL_FUNC_VISIBILITY aclError aclopCreateKernel(const char *opType, const char *kernelId, const char *kernelName,
                                               void *binData, int binSize, aclopEngineType enginetype,
                                               aclDataDeallocator deallocator)
{
    ACL_REQUIRE_NOT_NULL(opType);
    ACL_REQUIRE_NOT_NULL(kernelId);
    ACL_REQUIRE_NOT_NULL(kernelName);
    ACL_REQUIRE_NOT_NULL(binData);
    pthread_mutex_lock(&g_reg_mu);
    if (find_kernel_locked(opType, kernelId) != NULL) {
        pthread_mutex_unlock(&g_reg_mu);
        return oa_status_to_acl(
            OA_FAIL(OA_E_KERNEL_ALREADY_REGISTERED, "[Find][Kernel]Kernel already registered. kernelId = %s", kernelId));
    }
    if (enginetype != ACL_ENGINE_AICORE && enginetype != ACL_ENGINE_VECTOR) {
        pthread_mutex_unlock(&g_reg_mu);
        return oa_status_to_acl(OA_FAIL(OA_E_PARAM, "engine type %d is not ACL_ENGINE_AICORE or ACL_ENGINE_VECTOR",
                                        (int)enginetype));
    }
    kernel_reg *k = calloc(1, sizeof(*k));
    if (k != NULL) {
        k->op_type = strdup(opType);
        k->kernel_id = strdup(kernelId);
        k->kernel_name = strdup(kernelName);
    }
    if (k == NULL || k->op_type == NULL || k->kernel_id == NULL || k->kernel_name == NULL) {
        if (k != NULL) {
            free(k->op_type);
            free(k->kernel_id);
            free(k->kernel_name);
            free(k);
        }
        pthread_mutex_unlock(&g_reg_mu);
        return oa_status_to_acl(OA_FAIL(OA_E_NOMEM, "kernel registration"));
    }
    k->bin = binData;
    k->bin_size = binSize;
    k->engine = enginetype;
    k->deallocator = deallocator;
    k->next = g_kernels;
    g_kernels = k;
    pthread_mutex_unlock(&g_reg_mu);
    OA_LOGI("registered kernel %s (%s) of op %s; device binaries are not executed on the CPU", kernelId, kernelName,
            opType);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclopRegisterCompileFunc(const char *opType, aclopCompileFunc func)
{
    ACL_REQUIRE_NOT_NULL(opType);
    ACL_REQUIRE_NOT_NULL(func);
    pthread_mutex_lock(&g_reg_mu);
    if (find_selector_locked(opType) != NULL) {
        pthread_mutex_unlock(&g_reg_mu);
        return oa_status_to_acl(OA_FAIL(OA_E_BIN_SELECTOR_ALREADY_REGISTERED,
                                        "[Register][Function]Failed to register compile function due to repeat "
                                        "registration. op type = %s",
                                        opType));
    }
    selector_reg *s = calloc(1, sizeof(*s));
    if (s != NULL && (s->op_type = strdup(opType)) == NULL) {
        free(s);
        s = NULL;
    }
    if (s == NULL) {
        pthread_mutex_unlock(&g_reg_mu);
        return oa_status_to_acl(OA_FAIL(OA_E_NOMEM, "selector registration"));
    }
    s->fn = func;
    s->next = g_selectors;
    g_selectors = s;
    pthread_mutex_unlock(&g_reg_mu);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclopUnregisterCompileFunc(const char *opType)
{
    ACL_REQUIRE_NOT_NULL(opType);
    pthread_mutex_lock(&g_reg_mu);
    selector_reg **s = find_selector_locked(opType);
    if (s != NULL) {
        selector_reg *dead = *s;
        *s = dead->next;
        free(dead->op_type);
        free(dead);
    }
    pthread_mutex_unlock(&g_reg_mu);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclopSetKernelArgs(aclopKernelDesc *kernelDesc, const char *kernelId, uint32_t blockDim,
                                                const void *args, uint32_t argSize)
{
    ACL_REQUIRE_NOT_NULL(kernelDesc);
    ACL_REQUIRE_NOT_NULL(args);
    ACL_REQUIRE_NOT_NULL(kernelId);
    char *id = strdup(kernelId);
    void *a = malloc(argSize ? argSize : 1);
    if (id == NULL || a == NULL) {
        free(id);
        free(a);
        return oa_status_to_acl(OA_FAIL(OA_E_NOMEM, "kernel arguments"));
    }
    if (argSize > 0) {
        memcpy(a, args, argSize);
    }
    free(kernelDesc->kernel_id);
    free(kernelDesc->args);
    kernelDesc->kernel_id = id;
    kernelDesc->args = a;
    kernelDesc->args_size = argSize;
    kernelDesc->block_dim = blockDim;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclopSetKernelWorkspaceSizes(aclopKernelDesc *kernelDesc, int numWorkspaces,
                                                          size_t *workspaceSizes)
{
    ACL_REQUIRE_NOT_NULL(kernelDesc);
    ACL_REQUIRE(numWorkspaces >= 0, OA_E_PARAM, "numWorkspaces [%d] must not be negative", numWorkspaces);
    if (numWorkspaces != 0) {
        ACL_REQUIRE_NOT_NULL(workspaceSizes);
    }
    size_t *ws = realloc(kernelDesc->ws, (kernelDesc->n_ws + (size_t)numWorkspaces + 1) * sizeof(size_t));
    ACL_REQUIRE(ws != NULL, OA_E_NOMEM, "workspace sizes");
    for (int i = 0; i < numWorkspaces; ++i) {
        ws[kernelDesc->n_ws++] = workspaceSizes[i];
    }
    kernelDesc->ws = ws;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclopUpdateParams(const char *opType, int numInputs,
                                               const aclTensorDesc *const inputDesc[], int numOutputs,
                                               const aclTensorDesc *const outputDesc[], const aclopAttr *attr)
{
    ACL_REQUIRE_NOT_NULL(opType);
    ACL_REQUIRE(numInputs >= 0 && numOutputs >= 0, OA_E_PARAM,
                "numInputs [%d] and numOutputs [%d] must not be negative", numInputs, numOutputs);
    oa_status st = oa_aclop_check_ptrs(numInputs, (const void *const *)inputDesc, "inputDesc");
    if (st == OA_OK) {
        st = oa_aclop_check_ptrs(numOutputs, (const void *const *)outputDesc, "outputDesc");
    }
    if (st != OA_OK) {
        ACL_RETURN_STATUS(st);
    }
    pthread_mutex_lock(&g_reg_mu);
    selector_reg **s = find_selector_locked(opType);
    const aclopCompileFunc fn = s != NULL ? (*s)->fn : NULL;
    pthread_mutex_unlock(&g_reg_mu);
    if (fn == NULL) {
        OA_LOGW("Op not found, opType = %s", opType);
        return oa_status_to_acl(OA_E_BIN_SELECTOR_NOT_REGISTERED);
    }
    aclopKernelDesc *d = calloc(1, sizeof(*d));
    ACL_REQUIRE(d != NULL, OA_E_NOMEM, "kernel description");
    const aclError ret = fn(numInputs, inputDesc, numOutputs, outputDesc, attr, d);
    if (ret != ACL_SUCCESS) {
        desc_free(d);
        (void)OA_FAIL(oa_status_from_acl(ret), "[Call][Compile]Failed to call op compile, errorCode = %d", ret);
        return ret;
    }
    pthread_mutex_lock(&g_reg_mu);
    const bool found = d->kernel_id != NULL && find_kernel_locked(opType, d->kernel_id) != NULL;
    if (found) {
        d->next = g_descs;
        g_descs = d;
    }
    pthread_mutex_unlock(&g_reg_mu);
    if (!found) {
        const oa_status e = OA_FAIL(OA_E_KERNEL_NOT_FOUND, "Stub function not registered. kernelId = %s",
                                    d->kernel_id != NULL ? d->kernel_id : "(none)");
        desc_free(d);
        ACL_RETURN_STATUS(e);
    }
    return ACL_SUCCESS;
}
