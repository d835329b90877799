/*
 * Dump state machine: aclmdlInitDump / aclmdlSetDump / aclmdlFinalizeDump,
 * the configuration installed by aclInit, and the acl_dump.h functions.
 *
 * As in CANN, the flag set by aclmdlInitDump is only cleared by
 * aclmdlFinalizeDump (not by aclFinalize), so aclInit -> aclmdlInitDump ->
 * aclFinalize -> aclInit -> aclmdlInitDump reports ACL_ERROR_REPEAT_INITIALIZE.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "acl/acl.h"
#include "acl/acl_dump.h"
#include "acl_state/acl_state.h"
#include "acl_state/config.h"
#include "base/acl_check.h"
#include "base/util.h"
#include "dump/dump_config.h"
#include "dump/dump_write.h"

typedef int32_t (*dump_callback)(const acldumpChunk *chunk, int32_t len);

static pthread_mutex_t g_dump_lock = PTHREAD_MUTEX_INITIALIZER;
static bool g_init_dump_flag;           /* aclmdlInitDump called, not yet finalized */
static oa_dump_config *g_from_init;     /* installed by aclInit */
static oa_dump_config *g_from_set_dump; /* installed by aclmdlSetDump */
static dump_callback g_callback;
static char *g_args_path; /* aclopStartDumpArgs */
static oa_dump_config *g_args_cfg;      /* aclopStartDumpArgs: single operators dumped under its path */
static atomic_bool g_active;            /* active_locked() != NULL, readable without the lock */

/* The configuration in force: the latest aclmdlSetDump one, else aclInit's. */
static const oa_dump_config *active_locked(void)
{
    return g_from_set_dump != NULL ? g_from_set_dump : g_from_init;
}

/* After every change of g_from_init / g_from_set_dump (lock held). */
static void publish_locked(void)
{
    atomic_store_explicit(&g_active, active_locked() != NULL || g_args_cfg != NULL, memory_order_release);
}

oa_status oa_dump_apply_init_config(const char *config_path)
{
    cJSON *root = NULL;
    oa_status st = oa_acl_cfg_load(config_path, &root);
    if (st != OA_OK) {
        return st;
    }
    oa_dump_config *cfg = NULL;
    st = oa_dump_config_from_json(root, config_path, &cfg);
    cJSON_Delete(root);
    if (st != OA_OK) {
        return st;
    }
    pthread_mutex_lock(&g_dump_lock);
    oa_dump_config_destroy(g_from_init);
    g_from_init = cfg;
    publish_locked();
    pthread_mutex_unlock(&g_dump_lock);
    return OA_OK;
}

void oa_dump_on_finalize(void)
{
    pthread_mutex_lock(&g_dump_lock);
    oa_dump_config_destroy(g_from_init);
    g_from_init = NULL;
    publish_locked();
    pthread_mutex_unlock(&g_dump_lock);
}

bool oa_dump_enabled(void)
{
    return atomic_load_explicit(&g_active, memory_order_relaxed);
}

oa_dump_config *oa_dump_current_op_config(void)
{
    pthread_mutex_lock(&g_dump_lock);
    const oa_dump_config *a = active_locked();
    oa_dump_config *copy = oa_dump_config_clone(a != NULL && a->op_switch ? a : g_args_cfg);
    pthread_mutex_unlock(&g_dump_lock);
    return copy;
}

oa_dump_config *oa_dump_current_config(void)
{
    pthread_mutex_lock(&g_dump_lock);
    oa_dump_config *copy = oa_dump_config_clone(active_locked());
    pthread_mutex_unlock(&g_dump_lock);
    return copy;
}

/* Creates every missing directory of path's parent. */
static bool make_parent_dirs(const char *path)
{
    char buf[PATH_MAX];
    if (!oa_strlcpy(buf, path, sizeof(buf))) {
        return false;
    }
    char *slash = strrchr(buf, '/');
    if (slash == NULL || slash == buf) {
        return true;
    }
    *slash = '\0';
    for (char *p = buf + 1; *p != '\0'; ++p) {
        if (*p == '/') {
            *p = '\0';
            if (mkdir(buf, 0750) != 0 && errno != EEXIST) {
                return false;
            }
            *p = '/';
        }
    }
    return mkdir(buf, 0750) == 0 || errno == EEXIST;
}

#define DUMP_CHUNK_BYTES (1024 * 1024)

oa_status oa_dump_emit(const char *file_name, const void *data, size_t len)
{
    if (file_name == NULL || (data == NULL && len > 0)) {
        return OA_FAIL(OA_E_PARAM, "dump file name and data must not be null");
    }
    pthread_mutex_lock(&g_dump_lock);
    const dump_callback cb = g_callback;
    pthread_mutex_unlock(&g_dump_lock);
    if (cb != NULL) {
        acldumpChunk *chunk = malloc(sizeof(acldumpChunk) + DUMP_CHUNK_BYTES);
        if (chunk == NULL) {
            return OA_FAIL(OA_E_NOMEM, "cannot allocate a dump chunk");
        }
        size_t off = 0;
        do {
            const size_t n = OA_MIN((size_t)DUMP_CHUNK_BYTES, len - off);
            memset(chunk, 0, sizeof(*chunk));
            oa_strlcpy(chunk->fileName, file_name, sizeof(chunk->fileName));
            chunk->bufLen = (uint32_t)n;
            chunk->isLastChunk = (off + n == len) ? 1u : 0u;
            chunk->offset = -1; /* append */
            chunk->flag = 0;
            if (n > 0) {
                memcpy(chunk->dataBuf, (const char *)data + off, n);
            }
            (void)cb(chunk, (int32_t)(sizeof(acldumpChunk) + n));
            off += n;
        } while (off < len);
        free(chunk);
        return OA_OK;
    }
    if (!make_parent_dirs(file_name)) {
        return OA_FAIL(OA_E_WRITE_FILE, "cannot create the directory of dump file [%s]: %s", file_name,
                       strerror(errno));
    }
    FILE *f = fopen(file_name, "wb");
    if (f == NULL) {
        return OA_FAIL(OA_E_WRITE_FILE, "cannot create dump file [%s]: %s", file_name, strerror(errno));
    }
    const bool ok = len == 0 || fwrite(data, 1, len, f) == len;
    if (fclose(f) != 0 || !ok) {
        return OA_FAIL(OA_E_WRITE_FILE, "cannot write dump file [%s]", file_name);
    }
    return OA_OK;
}

/* ---- acl_rt.h model dump functions ---- */

ACL_FUNC_VISIBILITY aclError aclmdlInitDump(void)
{
    ACL_REQUIRE(oa_acl_is_initialized(), OA_E_UNINITIALIZED,
                "aclInit must be executed before aclmdlInitDump is called");
    pthread_mutex_lock(&g_dump_lock);
    const bool repeated = g_init_dump_flag;
    g_init_dump_flag = true;
    pthread_mutex_unlock(&g_dump_lock);
    ACL_REQUIRE(!repeated, OA_E_REPEAT_INIT, "aclmdlInitDump cannot be called repeatedly");
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlSetDump(const char *dumpCfgPath)
{
    ACL_REQUIRE(oa_acl_is_initialized(), OA_E_UNINITIALIZED,
                "aclInit must be executed before aclmdlSetDump is called");
    pthread_mutex_lock(&g_dump_lock);
    const bool inited = g_init_dump_flag;
    pthread_mutex_unlock(&g_dump_lock);
    ACL_REQUIRE(inited, OA_E_DUMP_NOT_RUN, "aclmdlInitDump must be executed before aclmdlSetDump is called");
    ACL_REQUIRE_NOT_NULL(dumpCfgPath);

    /* the same file checks as aclInit (regular file, size, nesting); JSON errors are dump config errors */
    char real[PATH_MAX];
    ACL_REQUIRE(realpath(dumpCfgPath, real) != NULL, OA_E_INVALID_FILE, "dump config path [%s] is invalid: %s",
                dumpCfgPath, strerror(errno));
    struct stat sb;
    ACL_REQUIRE(stat(real, &sb) == 0 && S_ISREG(sb.st_mode), OA_E_INVALID_FILE,
                "dump config [%s] is not a regular file", real);
    ACL_REQUIRE(sb.st_size <= OA_ACL_CONFIG_MAX_BYTES, OA_E_INVALID_FILE,
                "dump config [%s] is larger than %d bytes", real, OA_ACL_CONFIG_MAX_BYTES);
    char *text = NULL;
    size_t len = 0;
    oa_status st = oa_acl_cfg_read(real, &text, &len);
    if (st != OA_OK) {
        ACL_RETURN_STATUS(st);
    }
    if (len == 0) {
        free(text);
        return ACL_SUCCESS; /* an empty file changes nothing */
    }
    size_t obj = 0;
    size_t arr = 0;
    oa_acl_cfg_depth(text, len, &obj, &arr);
    if (obj > OA_ACL_CONFIG_MAX_DEPTH || arr > OA_ACL_CONFIG_MAX_DEPTH) {
        free(text);
        ACL_RETURN_STATUS(OA_FAIL(OA_E_PARSE_FILE, "dump config [%s] is nested deeper than %d levels", real,
                                  OA_ACL_CONFIG_MAX_DEPTH));
    }
    oa_dump_config *cfg = NULL;
    st = oa_dump_config_parse(text, len, dumpCfgPath, &cfg);
    free(text);
    if (st != OA_OK) {
        ACL_RETURN_STATUS(st);
    }
    if (cfg != NULL) {
        pthread_mutex_lock(&g_dump_lock);
        oa_dump_config_destroy(g_from_set_dump);
        g_from_set_dump = cfg;
        publish_locked();
        pthread_mutex_unlock(&g_dump_lock);
    }
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlFinalizeDump(void)
{
    ACL_REQUIRE(oa_acl_is_initialized(), OA_E_UNINITIALIZED,
                "aclInit must be executed before aclmdlFinalizeDump is called");
    pthread_mutex_lock(&g_dump_lock);
    const bool inited = g_init_dump_flag;
    if (inited) {
        g_init_dump_flag = false;
        oa_dump_config_destroy(g_from_set_dump);
        g_from_set_dump = NULL;
        publish_locked();
    }
    pthread_mutex_unlock(&g_dump_lock);
    ACL_REQUIRE(inited, OA_E_DUMP_NOT_RUN, "aclmdlInitDump must be executed before aclmdlFinalizeDump is called");
    return ACL_SUCCESS;
}

/* ---- acl_dump.h ---- */

ACL_DUMP_API aclError acldumpRegCallback(int32_t (*const messageCallback)(const acldumpChunk *chunk, int32_t len),
                                         int32_t flag)
{
    ACL_REQUIRE(messageCallback != NULL, OA_E_FAILURE, "parameter [messageCallback] must not be null");
    ACL_REQUIRE(flag == 0, OA_E_FAILURE, "parameter [flag] is reserved and must be 0, got %d", (int)flag);
    pthread_mutex_lock(&g_dump_lock);
    g_callback = messageCallback;
    pthread_mutex_unlock(&g_dump_lock);
    return ACL_SUCCESS;
}

ACL_DUMP_API void acldumpUnregCallback(void)
{
    pthread_mutex_lock(&g_dump_lock);
    g_callback = NULL;
    pthread_mutex_unlock(&g_dump_lock);
}

/*
 * aclopStartDumpArgs: a CPU has no AI Core kernel arguments to dump; what
 * the ACL_OP_DUMP_OP_AICORE_ARGS switch gives here is the dump of every
 * single-operator execution (inputs and outputs, docs/dump.md) under path,
 * until aclopStopDumpArgs.
 */
ACL_FUNC_VISIBILITY aclError aclopStartDumpArgs(uint32_t dumpType, const char *path)
{
    ACL_REQUIRE(path != NULL, OA_E_FAILURE, "parameter [path] must not be null");
    ACL_REQUIRE((dumpType & ACL_OP_DUMP_OP_AICORE_ARGS) == ACL_OP_DUMP_OP_AICORE_ARGS, OA_E_FAILURE,
                "dumpType [%u] must contain ACL_OP_DUMP_OP_AICORE_ARGS", dumpType);
    cJSON *root = cJSON_CreateObject();
    cJSON *d = cJSON_AddObjectToObject(root, "dump");
    cJSON_AddStringToObject(d, "dump_path", path);
    cJSON_AddStringToObject(d, "dump_mode", "all");
    cJSON_AddStringToObject(d, "dump_op_switch", "on");
    oa_dump_config *cfg = NULL;
    oa_status st = d != NULL ? oa_dump_config_from_json(root, "aclopStartDumpArgs", &cfg)
                             : OA_FAIL(OA_E_NOMEM, "cannot build the dump args config");
    cJSON_Delete(root);
    ACL_REQUIRE(st == OA_OK && cfg != NULL, OA_E_FAILURE, "path [%s] cannot be used for dump args", path);
    char *copy = oa_strdup(path);
    if (copy == NULL) {
        oa_dump_config_destroy(cfg);
        ACL_RETURN_STATUS(OA_FAIL(OA_E_FAILURE, "cannot store the dump args path"));
    }
    pthread_mutex_lock(&g_dump_lock);
    free(g_args_path);
    g_args_path = copy;
    oa_dump_config_destroy(g_args_cfg);
    g_args_cfg = cfg;
    publish_locked();
    pthread_mutex_unlock(&g_dump_lock);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclopStopDumpArgs(uint32_t dumpType)
{
    if ((dumpType & ACL_OP_DUMP_OP_AICORE_ARGS) == ACL_OP_DUMP_OP_AICORE_ARGS) {
        pthread_mutex_lock(&g_dump_lock);
        free(g_args_path);
        g_args_path = NULL;
        oa_dump_config_destroy(g_args_cfg);
        g_args_cfg = NULL;
        publish_locked();
        pthread_mutex_unlock(&g_dump_lock);
    }
    return ACL_SUCCESS;
}

/* Exception dump directory: ASCEND_DUMP_PATH > ASCEND_WORK_PATH > exception-scene dump_path > "./". */
static const char *exception_dump_dir(char *buf, size_t cap, bool *enabled)
{
    const char *env = getenv("ASCEND_DUMP_PATH");
    const char *work = getenv("ASCEND_WORK_PATH");
    const char *scene_env = getenv("ASCEND_DUMP_SCENE");
    const char *collect = getenv("NPU_COLLECT_PATH");
    pthread_mutex_lock(&g_dump_lock);
    const oa_dump_config *cfg = active_locked();
    const bool scene_cfg = cfg != NULL && cfg->scene != NULL && strcmp(cfg->scene, "watcher") != 0;
    const char *cfg_path = scene_cfg ? cfg->dump_path : NULL;
    if (env != NULL && env[0] != '\0') {
        oa_strlcpy(buf, env, cap);
    } else if (work != NULL && work[0] != '\0') {
        oa_strlcpy(buf, work, cap);
    } else if (cfg_path != NULL) {
        oa_strlcpy(buf, cfg_path, cap);
    } else if (collect != NULL && collect[0] != '\0') {
        oa_strlcpy(buf, collect, cap);
    } else {
        oa_strlcpy(buf, "./", cap);
    }
    pthread_mutex_unlock(&g_dump_lock);
    *enabled = scene_cfg || (scene_env != NULL && scene_env[0] != '\0') || (collect != NULL && collect[0] != '\0');
    return buf;
}

ACL_FUNC_VISIBILITY const char *acldumpGetPath(acldumpType dumpType)
{
    static _Thread_local char t_path[PATH_MAX];
    bool enabled = false;
    switch (dumpType) {
    case AIC_ERR_BRIEF_DUMP:
    case AIC_ERR_NORM_DUMP:
    case AIC_ERR_DETAIL_DUMP:
        return exception_dump_dir(t_path, sizeof(t_path), &enabled);
    case DATA_DUMP:
    case OVERFLOW_DUMP:
        pthread_mutex_lock(&g_dump_lock);
        {
            const oa_dump_config *cfg = active_locked();
            oa_strlcpy(t_path, cfg != NULL && cfg->dump_path != NULL ? cfg->dump_path : "", sizeof(t_path));
        }
        pthread_mutex_unlock(&g_dump_lock);
        return t_path;
    default:
        (void)OA_FAIL(OA_E_PARAM, "dump type [%d] is invalid", (int)dumpType);
        return NULL;
    }
}

ACL_FUNC_VISIBILITY aclError acldumpGetExceptionInfoPath(char *path, size_t maxLen)
{
    ACL_REQUIRE_NOT_NULL(path);
    ACL_REQUIRE(maxLen > 1, OA_E_PARAM, "maxLen [%zu] must be greater than 1", maxLen);
    char dir[PATH_MAX];
    bool enabled = false;
    exception_dump_dir(dir, sizeof(dir), &enabled);
    ACL_REQUIRE(enabled, OA_E_FAILURE, "exception dump is not enabled, acldumpGetExceptionInfoPath cannot be used");
    char full[PATH_MAX + 64];
    int32_t dev = 0;
    if (aclrtGetDevice(&dev) != ACL_SUCCESS) {
        dev = 0;
        (void)oa_error_take_messages(); /* no current device is not an error here */
    }
    snprintf(full, sizeof(full), "%s/extra-info/data-dump/%d/", dir, (int)dev);
    ACL_REQUIRE(strlen(full) + 1 <= maxLen, OA_E_PARAM, "maxLen [%zu] is smaller than the path length + 1 [%zu]",
                maxLen, strlen(full) + 1);
    memcpy(path, full, strlen(full) + 1);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError acldumpSaveExceptionInfo(const char *fileName, const char *userTag,
                                                      const acldumpTensorInfo *tensors, size_t tensorCount)
{
    ACL_REQUIRE_NOT_NULL(fileName);
    ACL_REQUIRE(fileName[0] != '\0', OA_E_PARAM, "parameter [fileName] must not be empty");
    ACL_REQUIRE(strstr(fileName, "..") == NULL, OA_E_PARAM, "parameter [fileName] must not contain \"..\"");
    ACL_REQUIRE_NOT_NULL(tensors);
    ACL_REQUIRE(tensorCount > 0, OA_E_PARAM, "parameter [tensorCount] must be greater than 0");
    char path[PATH_MAX];
    ACL_REQUIRE(acldumpGetExceptionInfoPath(path, sizeof(path)) == ACL_SUCCESS, OA_E_FAILURE,
                "exception dump is not enabled, acldumpSaveExceptionInfo cannot be used");
    /* text header (tag, tensor metadata) followed by the raw tensor bytes that live on the host */
    size_t cap = 256 + tensorCount * 512;
    char *buf = malloc(cap);
    ACL_REQUIRE(buf != NULL, OA_E_NOMEM, "cannot allocate the exception info buffer");
    size_t n = (size_t)snprintf(buf, cap, "tag=%s\ntensors=%zu\n", userTag == NULL ? "" : userTag, tensorCount);
    for (size_t i = 0; i < tensorCount && n < cap; ++i) {
        const acldumpTensorInfo *t = &tensors[i];
        n += (size_t)snprintf(buf + n, cap - n, "tensor %zu type=%d size=%zu format=%d dtype=%d placement=%d\n", i,
                              (int)t->type, t->tensorSize, (int)t->format, (int)t->dataType, (int)t->placement);
    }
    char full[PATH_MAX * 2];
    snprintf(full, sizeof(full), "%s%s", path, fileName);
    const oa_status st = oa_dump_emit(full, buf, OA_MIN(n, cap - 1));
    free(buf);
    ACL_RETURN_STATUS(st == OA_OK ? OA_OK : OA_E_FAILURE);
}
