/* Plan cache (in progress). */
#include "model_v2/v2_internal.h"

v2_plan_result oa_v2_plan_try_root(v2_exec *x, oa_status *st)
{
    (void)x;
    *st = OA_OK;
    return V2_PLAN_NONE;
}

void oa_v2_plan_record_root(v2_exec *x)
{
    (void)x;
}

void oa_v2_plan_cache_init(v2_plan_cache *c)
{
    pthread_mutex_init(&c->lock, NULL);
    c->head = NULL;
    c->count = 0;
}

void oa_v2_plan_cache_deinit(v2_plan_cache *c)
{
    pthread_mutex_destroy(&c->lock);
}

void oa_v2_plan_insts_free(v2_exec *x)
{
    (void)x;
}
