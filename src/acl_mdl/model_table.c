/* The model table, model ids and references (model.h). */
#include "acl_mdl/model.h"
#include "acl_mdl/model_reader.h"

#include <stdlib.h>
#include <string.h>

#include "base/error.h"

typedef struct model_table {
    pthread_mutex_t lock;
    oa_model **items;
    size_t count;
    size_t cap;
    uint32_t next_id; /* post-incremented: first id 1 */
    const oa_model_exec_ops *executors[3];
} model_table;

static model_table g_table = {
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .next_id = 1u,
};

void oa_model_executor_register(oa_model_route route, const oa_model_exec_ops *ops)
{
    if (route != OA_ROUTE_V1 && route != OA_ROUTE_V2) {
        return;
    }
    pthread_mutex_lock(&g_table.lock);
    g_table.executors[route] = ops;
    pthread_mutex_unlock(&g_table.lock);
}

const oa_model_exec_ops *oa_model_executor_get(oa_model_route route)
{
    if (route != OA_ROUTE_V1 && route != OA_ROUTE_V2) {
        return NULL;
    }
    oa_mdl_builtins();
    pthread_mutex_lock(&g_table.lock);
    const oa_model_exec_ops *ops = g_table.executors[route];
    pthread_mutex_unlock(&g_table.lock);
    return ops;
}

static bool id_in_use_locked(uint32_t id)
{
    for (size_t i = 0; i < g_table.count; ++i) {
        if (g_table.items[i]->id == id) {
            return true;
        }
    }
    return false;
}

/* Next model id; skips 0 and ids still in use after a (theoretical) wrap. */
static uint32_t take_id_locked(void)
{
    uint32_t id;
    do {
        id = g_table.next_id++;
    } while (id == 0 || id_in_use_locked(id));
    return id;
}

oa_status oa_model_create(oa_model_route route, oa_model_info *info, const oa_model_exec_ops *ops, int32_t priority,
                          oa_model **out)
{
    *out = NULL;
    if (info == NULL || (route != OA_ROUTE_V1 && route != OA_ROUTE_V2)) {
        return OA_FAIL(OA_E_INTERNAL, "model creation needs a description and a route (route %d)", (int)route);
    }
    oa_model *m = calloc(1, sizeof(*m));
    if (m == NULL) {
        return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "cannot allocate a model");
    }
    if (pthread_mutex_init(&m->lock, NULL) != 0) {
        free(m);
        return OA_FAIL(OA_E_GE_INTERNAL, "cannot initialise a model lock");
    }
    m->route = route;
    m->info = oa_model_info_retain(info);
    m->ops = ops;
    m->refs = 1;
    m->priority = (uint32_t)priority;
    m->device_id = -1;
    pthread_mutex_lock(&g_table.lock);
    m->id = take_id_locked(); /* one counter for static and dynamic-shape models (model.h) */
    pthread_mutex_unlock(&g_table.lock);
    *out = m;
    return OA_OK;
}

static void model_free(oa_model *m)
{
    oa_model_info_release(m->info);
    pthread_mutex_destroy(&m->lock);
    free(m);
}

oa_status oa_model_publish(oa_model *m, uint32_t *id)
{
    pthread_mutex_lock(&g_table.lock);
    if (g_table.count == g_table.cap) {
        const size_t ncap = g_table.cap == 0 ? 8 : g_table.cap * 2;
        oa_model **n = realloc(g_table.items, ncap * sizeof(*n));
        if (n == NULL) {
            pthread_mutex_unlock(&g_table.lock);
            return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "cannot grow the model table");
        }
        g_table.items = n;
        g_table.cap = ncap;
    }
    m->published = true;
    g_table.items[g_table.count++] = m;
    pthread_mutex_unlock(&g_table.lock);
    if (id != NULL) {
        *id = m->id;
    }
    OA_LOGI("model %u published (%s executor, %zu inputs, %zu outputs)", m->id,
            m->ops != NULL && m->ops->name != NULL ? m->ops->name : "no", m->info->n_inputs, m->info->n_outputs);
    return OA_OK;
}

void oa_model_discard(oa_model *m)
{
    if (m != NULL) {
        model_free(m);
    }
}

oa_model *oa_model_acquire(uint32_t id)
{
    oa_model *found = NULL;
    if (id == 0) {
        return NULL;
    }
    pthread_mutex_lock(&g_table.lock);
    for (size_t i = 0; i < g_table.count; ++i) {
        if (g_table.items[i]->id == id) {
            found = g_table.items[i];
            __atomic_add_fetch(&found->refs, 1, __ATOMIC_RELAXED);
            break;
        }
    }
    pthread_mutex_unlock(&g_table.lock);
    return found;
}

oa_model *oa_model_retain(oa_model *m)
{
    if (m != NULL) {
        __atomic_add_fetch(&m->refs, 1, __ATOMIC_RELAXED);
    }
    return m;
}

void oa_model_release(oa_model *m)
{
    if (m == NULL || __atomic_sub_fetch(&m->refs, 1, __ATOMIC_ACQ_REL) != 0) {
        return;
    }
    OA_LOGI("model %u destroyed", m->id);
    if (m->ops != NULL && m->ops->unload != NULL) {
        m->ops->unload(m);
    }
    model_free(m);
}

oa_status oa_model_unload(uint32_t id)
{
    oa_model *found = NULL;
    pthread_mutex_lock(&g_table.lock);
    for (size_t i = 0; i < g_table.count; ++i) {
        if (g_table.items[i]->id == id) {
            found = g_table.items[i];
            g_table.items[i] = g_table.items[--g_table.count];
            break;
        }
    }
    pthread_mutex_unlock(&g_table.lock);
    if (found == NULL) {
        return OA_FAIL(OA_E_GE_MODEL_ID, "invalid model id %u: no such model is loaded", id);
    }
    OA_LOGI("model %u unloaded", id);
    oa_model_release(found);
    return OA_OK;
}

size_t oa_model_count(void)
{
    pthread_mutex_lock(&g_table.lock);
    const size_t n = g_table.count;
    pthread_mutex_unlock(&g_table.lock);
    return n;
}

oa_status oa_model_set_gear(oa_model *m, const oa_model_gear *gear)
{
    pthread_mutex_lock(&m->lock);
    m->gear = *gear;
    pthread_mutex_unlock(&m->lock);
    if (m->ops != NULL && m->ops->set_gear != NULL) {
        return m->ops->set_gear(m, gear);
    }
    return OA_OK;
}

void oa_model_get_gear(oa_model *m, oa_model_gear *gear)
{
    pthread_mutex_lock(&m->lock);
    *gear = m->gear;
    pthread_mutex_unlock(&m->lock);
}

void oa_model_set_priority(oa_model *m, uint32_t priority)
{
    pthread_mutex_lock(&m->lock);
    m->priority = priority;
    pthread_mutex_unlock(&m->lock);
}

uint32_t oa_model_get_priority(oa_model *m)
{
    pthread_mutex_lock(&m->lock);
    const uint32_t p = m->priority;
    pthread_mutex_unlock(&m->lock);
    return p;
}

oa_status oa_model_cur_output_dims_default(oa_model *m, size_t index, aclmdlIODims *dims)
{
    oa_model_gear gear;
    oa_model_get_gear(m, &gear);
    if (gear.kind != OA_DYNAMIC_DIMS && gear.n > 2) {
        return OA_FAIL(OA_E_GE_FAILURE, "current shape of %zu values is invalid, model id %u", gear.n, m->id);
    }
    if (gear.n == 0) {
        return oa_model_get_io_dims(m->info, m->id, false, false, index, dims);
    }
    oa_status st = oa_model_cur_output_dims(m->info, gear.kind, gear.v, gear.n, index, dims);
    if (st != OA_OK) {
        return st;
    }
    oa_model_io_name(m->info, m->id, false, index, dims->name);
    return OA_OK;
}
