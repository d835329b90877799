/*
 * Compute-resource limits applied to the kernels (docs/runtime.md, "Compute-resource limits"): a MatMul model
 * (gen_res_model.py, converted by atc; static shapes for model_v1, dynamic rows for model_v2) run on a stream uses at most as many threads as the stream's limit (else the
 * device's), and run on the calling thread those of aclrtUseStreamResInCurrentThread's stream (else the device's),
 * observed through the thread pool's per-call participant count; its result does not depend on the limit. Links
 * the static parts for oa_threadpool_peak_participants; runs with OPENACL_NUM_THREADS=2 (a pool of two) and
 * OPENACL_OP_THREADS=pool (no operator learns to leave the pool).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "acl/acl.h"
#include "acl_mdl/model_reader.h"
#include "acl_mdl/om_reader.h"
#include "kernels/threadpool.h"
#include "model_v1/v1_model.h"
#include "model_v2/model_v2.h"

enum { M = 192, K = 96, N = 160 };

static float g_a[M * K], g_b[K * N], g_ref[M * N];
static void *g_dev[3];
/*
 * The model under test: [0] static shapes (model_v1), [1] x of dynamic rows (model_v2). A model runs either
 * asynchronously or synchronously (GE): two loads of each.
 */
typedef struct mm_model {
    uint32_t id, id_sync;
    aclmdlDataset *in, *out;
    aclTensorDesc *td; /* x's shape for the dynamic model */
} mm_model;
static mm_model g_models[2];
static uint32_t g_model, g_model_sync;
static aclmdlDataset *g_in, *g_out;

/*
 * Runs y = x w (on stream s with aclmdlExecuteAsync, or on the calling thread with aclmdlExecute when s is NULL);
 * returns the most participants one pool call was given and copies y to out.
 */
static size_t run_matmul(aclrtStream s, float *out)
{
    (void)oa_threadpool_peak_participants(true);
    if (s != NULL) {
        assert_int_equal(aclmdlExecuteAsync(g_model, g_in, g_out, s), ACL_SUCCESS);
        assert_int_equal(aclrtSynchronizeStream(s), ACL_SUCCESS);
    } else {
        assert_int_equal(aclmdlExecute(g_model_sync, g_in, g_out), ACL_SUCCESS);
    }
    const size_t peak = oa_threadpool_peak_participants(false);
    assert_int_equal(aclrtMemcpy(out, sizeof(float) * M * N, g_dev[2], sizeof(float) * M * N,
                                 ACL_MEMCPY_DEVICE_TO_HOST),
                     ACL_SUCCESS);
    for (size_t i = 0; i < (size_t)M * N; ++i) { /* against a double-precision reference */
        assert_true(fabsf(out[i] - g_ref[i]) <= 1e-3f * (1.0f + fabsf(g_ref[i])));
    }
    return peak;
}

static void limits_cap_threads(void **state)
{
    const mm_model *mm = *state;
    g_model = mm->id;
    g_model_sync = mm->id_sync;
    g_in = mm->in;
    g_out = mm->out;
    static float free_run[M * N], limited[M * N];
    aclrtStream s = NULL, other = NULL;
    assert_int_equal(aclrtCreateStream(&s), ACL_SUCCESS);
    assert_int_equal(aclrtCreateStream(&other), ACL_SUCCESS);

    /* not limited: the pool's two participants */
    assert_true(run_matmul(s, free_run) >= 2);

    /* the stream's limit */
    assert_int_equal(aclrtSetStreamResLimit(s, ACL_RT_DEV_RES_CUBE_CORE, 1), ACL_SUCCESS);
    assert_int_equal(run_matmul(s, limited), 1);
    assert_memory_equal(limited, free_run, sizeof(free_run));
    /* another stream is not limited by it */
    assert_true(run_matmul(other, limited) >= 2);
    assert_int_equal(aclrtResetStreamResLimit(s), ACL_SUCCESS);
    assert_true(run_matmul(s, limited) >= 2);

    /* the device's limit, for every stream without one of its own; per type, a stream's own value wins (set
     * before the device's: a stream's value may not exceed the device's limit in force) */
    assert_int_equal(aclrtSetStreamResLimit(other, ACL_RT_DEV_RES_CUBE_CORE, 2), ACL_SUCCESS);
    assert_int_equal(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, 1), ACL_SUCCESS);
    assert_int_equal(run_matmul(s, limited), 1);
    assert_memory_equal(limited, free_run, sizeof(free_run));
    assert_true(run_matmul(other, limited) >= 2);
    assert_int_equal(aclrtResetDeviceResLimit(0), ACL_SUCCESS);
    assert_true(run_matmul(s, limited) >= 2);

    /* both types limited (the vector core limit from the device): the smaller applies */
    assert_int_equal(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, 1), ACL_SUCCESS);
    assert_int_equal(run_matmul(other, limited), 1);
    assert_memory_equal(limited, free_run, sizeof(free_run));
    assert_int_equal(aclrtResetDeviceResLimit(0), ACL_SUCCESS);


    /* on the calling thread: the device's limit, or that of the stream named for the thread */
    assert_true(run_matmul(NULL, limited) >= 2);
    assert_int_equal(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, 1), ACL_SUCCESS);
    assert_int_equal(run_matmul(NULL, limited), 1);
    assert_memory_equal(limited, free_run, sizeof(free_run));
    assert_int_equal(aclrtResetDeviceResLimit(0), ACL_SUCCESS);
    assert_true(run_matmul(NULL, limited) >= 2);
    assert_int_equal(aclrtSetStreamResLimit(other, ACL_RT_DEV_RES_VECTOR_CORE, 1), ACL_SUCCESS);
    assert_int_equal(aclrtUseStreamResInCurrentThread(other), ACL_SUCCESS);
    assert_int_equal(run_matmul(NULL, limited), 1);
    assert_int_equal(aclrtUnuseStreamResInCurrentThread(other), ACL_SUCCESS);
    assert_true(run_matmul(NULL, limited) >= 2);

    /* a destroyed stream's limit is forgotten: a new stream (possibly at the same address) is not limited */
    assert_int_equal(aclrtDestroyStream(other), ACL_SUCCESS);
    assert_int_equal(aclrtCreateStream(&other), ACL_SUCCESS);
    assert_true(run_matmul(other, limited) >= 2);
    assert_int_equal(aclrtDestroyStream(other), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
}

int main(void)
{
    if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) {
        return 1;
    }
    srand(7);
    for (size_t i = 0; i < (size_t)M * K; ++i) {
        g_a[i] = (float)(rand() % 2001 - 1000) / 1000.0f;
    }
    for (size_t i = 0; i < (size_t)K * N; ++i) {
        g_b[i] = (float)(rand() % 2001 - 1000) / 1000.0f;
    }
    for (int i = 0; i < M; ++i) {
        for (int j = 0; j < N; ++j) {
            double acc = 0;
            for (int k = 0; k < K; ++k) {
                acc += (double)g_a[i * K + k] * g_b[k * N + j];
            }
            g_ref[i * N + j] = (float)acc;
        }
    }
    oa_model_reader_register(&oa_om_reader);
    oa_model_v1_register();
    oa_model_v2_register();
    for (int v = 0; v < 2; ++v) {
        mm_model *mm = &g_models[v];
        const char *path = getenv(v == 0 ? "OA_RES_MODEL" : "OA_RES_MODEL_DYN");
        if (path == NULL || aclmdlLoadFromFile(path, &mm->id) != ACL_SUCCESS ||
            aclmdlLoadFromFile(path, &mm->id_sync) != ACL_SUCCESS) {
            return 1;
        }
        mm->in = aclmdlCreateDataset();
        mm->out = aclmdlCreateDataset();
    }
    const size_t sizes[3] = {sizeof(g_a), sizeof(g_b), sizeof(g_ref)};
    const float *host[3] = {g_a, g_b, NULL};
    for (int t = 0; t < 3; ++t) {
        if (aclrtMalloc(&g_dev[t], sizes[t], ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
            return 1;
        }
        if (host[t] != NULL &&
            aclrtMemcpy(g_dev[t], sizes[t], host[t], sizes[t], ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS) {
            return 1;
        }
        for (int v = 0; v < 2; ++v) {
            aclmdlDataset *d = t < 2 ? g_models[v].in : g_models[v].out;
            if (aclmdlAddDatasetBuffer(d, aclCreateDataBuffer(g_dev[t], sizes[t])) != ACL_SUCCESS) {
                return 1;
            }
        }
    }
    const int64_t xdims[2] = {M, K};
    g_models[1].td = aclCreateTensorDesc(ACL_FLOAT, 2, xdims, ACL_FORMAT_ND);
    if (aclmdlSetDatasetTensorDesc(g_models[1].in, g_models[1].td, 0) != ACL_SUCCESS) {
        return 1;
    }
    const struct CMUnitTest tests[] = {
        {"limits_cap_threads_model_v1", limits_cap_threads, NULL, NULL, &g_models[0]},
        {"limits_cap_threads_model_v2", limits_cap_threads, NULL, NULL, &g_models[1]},
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    for (int v = 0; v < 2; ++v) {
        mm_model *mm = &g_models[v];
        (void)aclmdlUnload(mm->id);
        (void)aclmdlUnload(mm->id_sync);
        for (int i = 0; i < 2; ++i) {
            aclmdlDataset *d = i == 0 ? mm->in : mm->out;
            for (size_t k = 0; k < aclmdlGetDatasetNumBuffers(d); ++k) {
                (void)aclDestroyDataBuffer(aclmdlGetDatasetBuffer(d, k));
            }
            (void)aclmdlDestroyDataset(d);
        }
        if (mm->td != NULL) {
            aclDestroyTensorDesc(mm->td);
        }
    }
    for (int t = 0; t < 3; ++t) {
        (void)aclrtFree(g_dev[t]);
    }
    (void)aclrtResetDevice(0);
    (void)aclFinalize();
    return rc;
}
