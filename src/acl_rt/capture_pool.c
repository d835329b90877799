/*
 * Work-memory pools of captured executions (capture.h): one per loaded model
 * shared by the instances captured from it, or one per instance. The pools
 * live in one list for sharing and accounting; an instance holds a reference
 * through its attachment, so a pool goes with the last instance using it.
 */
#define OA_LOG_MODULE "RUNTIME"
#include <stdlib.h>

#include "acl_rt/capture_internal.h"
#include "base/error.h"
#include "base/log.h"
#include "base/util.h"

static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static oa_capture_pool *g_pools;
static uint64_t g_token;

static void pool_unref(void *res)
{
    oa_capture_pool *p = res;
    pthread_mutex_lock(&g_mu);
    const bool last = --p->refs == 0;
    if (last) {
        for (oa_capture_pool **pp = &g_pools; *pp != NULL; pp = &(*pp)->next) {
            if (*pp == p) {
                *pp = p->next;
                break;
            }
        }
    }
    pthread_mutex_unlock(&g_mu);
    if (last) {
        if (p->free_priv != NULL) {
            p->free_priv(p->priv);
        }
        pthread_mutex_destroy(&p->run_mu);
        free(p);
    }
}

oa_status oa_capture_pool_get(oa_mdlri *m, const void *owner, uint32_t owner_id, bool private_pool,
                              oa_capture_pool **out, bool *fresh)
{
    *fresh = false;
    oa_capture_pool *p = oa_mdlri_lookup(m, owner);
    if (p != NULL) {
        *out = p;
        return OA_OK;
    }
    const bool shared = !private_pool && oa_env_long("OPENACL_RI_SHARED_POOL", 1) != 0;
    pthread_mutex_lock(&g_mu);
    for (p = shared ? g_pools : NULL; p != NULL; p = p->next) {
        if (p->shared && p->owner == owner) {
            break;
        }
    }
    if (p != NULL) {
        p->refs++;
    } else {
        p = calloc(1, sizeof(*p));
        if (p == NULL) {
            pthread_mutex_unlock(&g_mu);
            return OA_FAIL(OA_E_RT_MEMORY_ALLOCATION, "cannot create a work-memory pool for model %u", owner_id);
        }
        pthread_mutex_init(&p->run_mu, NULL);
        p->owner = owner;
        p->owner_id = owner_id;
        p->shared = shared;
        p->refs = 1;
        p->next = g_pools;
        g_pools = p;
        *fresh = true;
    }
    pthread_mutex_unlock(&g_mu);
    const oa_status st = oa_mdlri_attach(m, owner, p, pool_unref);
    if (st != OA_OK) {
        *fresh = false;
        pool_unref(p);
        return st;
    }
    OA_LOGD("model runtime instance %u replays model %u on a %s pool", oa_mdlri_id(m), owner_id,
            shared ? "shared" : "private");
    *out = p;
    return OA_OK;
}

uint64_t oa_capture_pool_token(void)
{
    return __atomic_add_fetch(&g_token, 1, __ATOMIC_RELAXED);
}

void oa_capture_pool_usage(uint32_t owner_id, size_t *pools, size_t *peak_sum)
{
    size_t n = 0, sum = 0;
    pthread_mutex_lock(&g_mu);
    for (const oa_capture_pool *p = g_pools; p != NULL; p = p->next) {
        if (p->owner_id == owner_id) {
            ++n;
            sum += __atomic_load_n(&p->peak, __ATOMIC_RELAXED);
        }
    }
    pthread_mutex_unlock(&g_mu);
    *pools = n;
    *peak_sum = sum;
}
