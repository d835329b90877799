/*
 * The process-wide intra-op thread pool every executor runs its kernels on
 * (model_v1 now; the dynamic executor and single operators later).
 */
#include <pthread.h>
#include <stdlib.h>

#include "op_bind/op_bind_internal.h"
#include "op_bind/op_pool.h"

static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static oa_threadpool *g_pool;
static size_t g_threads;

static void pool_init(void)
{
    long n = oa_env_long("OPENACL_NUM_THREADS", 0);
    if (n < 0 || n > 64) {
        OA_LOGW("OPENACL_NUM_THREADS=%ld is out of range [1, 64]; using the online cores", n);
        n = 0;
    }
    if (oa_threadpool_create((size_t)n, &g_pool) != OA_OK) {
        OA_LOGW("the intra-op thread pool could not be created; kernels run on the calling thread");
        oa_error_clear();
        g_pool = NULL;
    }
    g_threads = oa_threadpool_size(g_pool);
    oa_threadpool_set_setup_pool(g_pool); /* kernels' load-time work (Winograd filter transforms) */
    OA_LOGI("intra-op thread pool: %zu thread(s)", g_threads);
}

oa_threadpool *oa_op_threadpool(void)
{
    pthread_once(&g_once, pool_init);
    return g_pool;
}

size_t oa_op_threadpool_size(void)
{
    pthread_once(&g_once, pool_init);
    return g_threads;
}
