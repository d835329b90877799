/*
 * aclmdlExecute, aclmdlExecuteV2, aclmdlExecuteAsync, aclmdlExecuteAsyncV2:
 * CANN's argument checks, then the model's executor (model.h).
 *
 * Order (GE's V1 path; the V2 path returns the same codes for these cases):
 *   NULL input / output dataset -> ACL_ERROR_INVALID_PARAM;
 *   a NULL aclDataBuffer entry in either dataset -> ACL_ERROR_INVALID_PARAM;
 *   model not a dynamic-shape one and aclInit not run -> 145001;
 *   unknown model id -> 145003;
 *   then the executor (dataset counts, sizes, the run itself).
 * aclmdlExecuteV2 first refuses a NULL configuration and writes its two
 * timeouts into the process-wide "GE context" (sticky, as CANN).
 *
 * aclmdlExecuteAsyncV2 is aclmdlExecuteAsync plus an execution config (CANN
 * documents it as such; only its lite stack implements it). We treat the
 * config as aclmdlExecuteV2 does (NULL refused, timeouts written into the
 * context) and queue the run exactly as aclmdlExecuteAsync: outputs must be
 * allocated, results are valid after the stream is synchronised, and the
 * sync/async mixing rule of static models counts it as asynchronous.
 */
#include "acl_mdl/mdl_internal.h"
#include "base/acl_check.h"
#include "prof/prof_internal.h"

static int32_t g_stream_sync_timeout = -1;
static int32_t g_event_sync_timeout = -1;

void oa_mdl_exec_timeouts(int32_t *stream_sync_timeout, int32_t *event_sync_timeout)
{
    if (stream_sync_timeout != NULL) {
        *stream_sync_timeout = __atomic_load_n(&g_stream_sync_timeout, __ATOMIC_RELAXED);
    }
    if (event_sync_timeout != NULL) {
        *event_sync_timeout = __atomic_load_n(&g_event_sync_timeout, __ATOMIC_RELAXED);
    }
}

static oa_status check_dataset(const aclmdlDataset *ds, const char *what)
{
    if (ds == NULL) {
        return OA_FAIL(OA_E_PARAM, "parameter [%s] must not be null", what);
    }
    for (size_t i = 0; i < ds->count; ++i) {
        if (ds->slots[i].buffer == NULL) {
            return OA_FAIL(OA_E_PARAM, "%s dataset blobs is null, index[%zu]", what, i);
        }
    }
    return OA_OK;
}

static oa_status execute(const char *fn, uint32_t model_id, const aclmdlDataset *input, aclmdlDataset *output,
                         aclrtStream stream, bool async, const aclmdlExecConfigHandle *cfg)
{
    oa_status st = check_dataset(input, "input");
    if (st == OA_OK) {
        st = check_dataset(output, "output");
    }
    if (st != OA_OK) {
        return st;
    }
    oa_model *m = oa_model_acquire(model_id);
    if (m == NULL || m->route == OA_ROUTE_V1) {
        st = oa_mdl_require_init();
        if (st != OA_OK) {
            oa_model_release(m);
            return st;
        }
    }
    if (m == NULL) {
        return OA_FAIL(OA_E_GE_MODEL_ID, "execute model failed, model id[%u] is not loaded", model_id);
    }
    oa_status (*run_fn)(oa_model *, const oa_model_run *) = NULL;
    if (m->ops != NULL) {
        run_fn = async ? m->ops->execute_async : m->ops->execute;
    }
    if (run_fn == NULL) {
        oa_model_release(m);
        return oa_mdl_not_supported(fn);
    }
    oa_model_run run = {
        .input = input,
        .output = output,
        .stream = stream,
        .async = async,
        .v2_api = cfg != NULL,
    };
    if (cfg != NULL) {
        run.stream_sync_timeout = cfg->stream_sync_timeout;
        run.event_sync_timeout = cfg->event_sync_timeout;
    } else {
        oa_mdl_exec_timeouts(&run.stream_sync_timeout, &run.event_sync_timeout);
    }
    const uint64_t t0 = oa_prof_api_begin(); /* ACL_PROF_ACL_API span */
    st = run_fn(m, &run);
    oa_prof_api_end(fn, t0);
    oa_model_release(m);
    return st;
}

ACL_FUNC_VISIBILITY aclError aclmdlExecute(uint32_t modelId, const aclmdlDataset *input, aclmdlDataset *output)
{
    ACL_RETURN_STATUS(execute("aclmdlExecute", modelId, input, output, NULL, false, NULL));
}

/* The exec config's timeouts become the context's (GE's global options), as aclmdlExecuteV2 sets them. */
static void apply_exec_config(const aclmdlExecConfigHandle *handle)
{
    if (handle->stream_sync_timeout >= -1) {
        __atomic_store_n(&g_stream_sync_timeout, handle->stream_sync_timeout, __ATOMIC_RELAXED);
    }
    if (handle->event_sync_timeout >= -1) {
        __atomic_store_n(&g_event_sync_timeout, handle->event_sync_timeout, __ATOMIC_RELAXED);
    }
}

ACL_FUNC_VISIBILITY aclError aclmdlExecuteV2(uint32_t modelId, const aclmdlDataset *input, aclmdlDataset *output,
                                             aclrtStream stream, const aclmdlExecConfigHandle *handle)
{
    ACL_REQUIRE_NOT_NULL(handle);
    apply_exec_config(handle);
    ACL_RETURN_STATUS(execute("aclmdlExecuteV2", modelId, input, output, stream, false, handle));
}

ACL_FUNC_VISIBILITY aclError aclmdlExecuteAsync(uint32_t modelId, const aclmdlDataset *input, aclmdlDataset *output,
                                                aclrtStream stream)
{
    ACL_RETURN_STATUS(execute("aclmdlExecuteAsync", modelId, input, output, stream, true, NULL));
}

ACL_FUNC_VISIBILITY aclError aclmdlExecuteAsyncV2(uint32_t modelId, const aclmdlDataset *input,
                                                  aclmdlDataset *output, aclrtStream stream,
                                                  const aclmdlExecConfigHandle *handle)
{
    ACL_REQUIRE_NOT_NULL(handle);
    apply_exec_config(handle);
    ACL_RETURN_STATUS(execute("aclmdlExecuteAsyncV2", modelId, input, output, stream, true, handle));
}
