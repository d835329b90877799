/*
 * om_model: opening an .om file or image (see om_model.h for the steps).
 */
#define OA_LOG_MODULE "GE"
#include "om/om_model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"
#include "om/om_check.h"
#include "om/om_compress.h"

#define PARTITIONED_ATTR "_dynamic_shape_partitioned"

void oa_om_model_destroy(oa_om_model *m)
{
    if (m == NULL) {
        return;
    }
    oa_om_container_deinit(&m->container);
    oa_om_arena_destroy(m->arena);
    oa_om_image_unmap(&m->image);
    free(m);
}

void oa_om_model_drop_decoded(oa_om_model *m)
{
    if (m == NULL) {
        return;
    }
    oa_om_arena_destroy(m->arena);
    m->arena = NULL;
    m->models = NULL;
    m->num_models = 0;
    m->inout = NULL;
}

Ge__Proto__GraphDef *oa_om_model_find_graph(const Ge__Proto__ModelDef *def, const char *name)
{
    for (size_t i = 0; def != NULL && i < def->n_graph; ++i) {
        if (def->graph[i] != NULL && def->graph[i]->name != NULL && strcmp(def->graph[i]->name, name) == 0) {
            return def->graph[i];
        }
    }
    return NULL;
}

oa_status oa_om_weights_slice(const oa_om_submodel *sm, int64_t offset, int64_t size, const uint8_t **out)
{
    *out = NULL;
    const uint64_t have = sm->weights != NULL ? sm->weights->size : 0;
    if (offset < 0 || size < 0 || (uint64_t)offset > have || (uint64_t)size > have - (uint64_t)offset) {
        return OA_FAIL(OA_E_GE_LOAD_WEIGHT_PARTITION,
                       "[Get][Weight] bytes [%lld, +%lld) are outside the %llu-byte WEIGHTS_DATA", (long long)offset,
                       (long long)size, (unsigned long long)have);
    }
    if (size != 0) {
        *out = sm->weights->data + offset;
    }
    return OA_OK;
}

static bool root_is_partitioned(const Ge__Proto__ModelDef *root)
{
    if (root == NULL || root->n_graph == 0 || root->graph[0] == NULL) {
        return false;
    }
    const Ge__Proto__GraphDef *g = root->graph[0];
    const Ge__Proto__AttrDef *v = oa_om_attr_get(g->attr, g->n_attr, PARTITIONED_ATTR);
    return v != NULL && v->value_case == GE__PROTO__ATTR_DEF__VALUE_B && v->b;
}

static oa_status decode_def(const oa_om_table *t, uint32_t index, oa_om_arena *a, Ge__Proto__ModelDef **out)
{
    const oa_om_partition *p = oa_om_table_find(t, OA_OM_PART_MODEL_DEF);
    char what[48];
    (void)snprintf(what, sizeof(what), "MODEL_DEF of table %u", index);
    ProtobufCMessage *m = NULL;
    oa_status st = oa_om_pb_decode(&ge__proto__model_def__descriptor, p->data, (size_t)p->size, a,
                                   OA_E_GE_LOAD_MODEL_PARTITION, what, &m);
    *out = (Ge__Proto__ModelDef *)m;
    return st;
}

/*
 * Decompresses defs[0..n) in place (step 4 of om_model.h) and removes the
 * dictionaries. defs[0] is the root.
 */
static oa_status decompress_all(Ge__Proto__ModelDef **defs, uint32_t n, oa_om_arena *a, bool *was_compressed)
{
    oa_om_dict root_dict;
    oa_status st = oa_om_dict_read(defs[0], "root model", &root_dict);
    const bool partitioned = st == OA_OK && root_is_partitioned(defs[0]);
    for (uint32_t i = 0; i < n && st == OA_OK; ++i) {
        char what[40];
        (void)snprintf(what, sizeof(what), "model %u", i);
        oa_om_dict own;
        st = i == 0 ? OA_OK : oa_om_dict_read(defs[i], what, &own);
        if (st != OA_OK) {
            break;
        }
        const oa_om_dict *d = i == 0 ? &root_dict : (partitioned && root_dict.present ? &root_dict : &own);
        was_compressed[i] = d->present;
        size_t left = 0;
        if (d->present) {
            st = oa_om_decompress(defs[i], d, a, what, &left);
        }
        if (st == OA_OK && left != 0 && i != 0 && d != &root_dict && root_dict.present) {
            /* Names that were themselves compressed keys: resolve them
             * through the root's dictionaries (seen in CANN's fixtures). */
            st = oa_om_decompress(defs[i], &root_dict, a, what, &left);
        }
    }
    /* The root's dictionaries are needed until every sub-model is done. */
    for (uint32_t i = 0; i < n && st == OA_OK; ++i) {
        oa_om_dict_drop(defs[i]);
    }
    return st;
}

/* Graph names of sub-models 1..n-1 (their graph[0]), for the F20 check of
 * the root: Consts of those graphs live in the sub-models' weights. */
static oa_status check_all(oa_om_model *m, Ge__Proto__ModelDef **defs)
{
    const char **bound = calloc(m->num_models, sizeof(*bound));
    if (bound == NULL) {
        return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "[Check][Model] %u names", m->num_models);
    }
    size_t nb = 0;
    for (uint32_t i = 1; i < m->num_models; ++i) {
        if (defs[i]->n_graph != 0 && defs[i]->graph[0] != NULL) {
            bound[nb++] = defs[i]->graph[0]->name;
        }
    }
    oa_status st = OA_OK;
    for (uint32_t i = 0; i < m->num_models && st == OA_OK; ++i) {
        char what[40];
        (void)snprintf(what, sizeof(what), "model %u", i);
        const oa_om_partition *w = m->models[i].weights;
        const int64_t wsize = w != NULL ? (w->size > INT64_MAX ? INT64_MAX : (int64_t)w->size) : 0;
        st = oa_om_check_model_def(defs[i], wsize, (const char *const *)bound, i == 0 ? nb : 0, what);
    }
    free(bound);
    return st;
}

static oa_status open_image(oa_om_model *m, unsigned flags)
{
    oa_status st = oa_om_container_parse(m->image.data, m->image.size, &m->container);
    if (st != OA_OK) {
        return st;
    }
    st = oa_om_arena_create(&m->arena);
    if (st != OA_OK) {
        return OA_FAIL(st, "[Load][Model] arena");
    }
    const uint32_t n = m->container.num_tables;
    m->num_models = n;
    m->models = oa_om_arena_alloc(m->arena, n * sizeof(*m->models));
    Ge__Proto__ModelDef **work = calloc(n, sizeof(*work));
    bool *was = calloc(n, sizeof(*was));
    oa_om_arena *scratch = NULL;
    if (m->models == NULL || work == NULL || was == NULL) {
        st = OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "[Load][Model] %u sub-models", n);
    }
    for (uint32_t i = 0; i < n && st == OA_OK; ++i) {
        oa_om_submodel *sm = &m->models[i];
        sm->table = &m->container.tables[i];
        sm->weights = oa_om_table_find(sm->table, OA_OM_PART_WEIGHTS_DATA);
        sm->task_part = oa_om_table_find(sm->table, OA_OM_PART_TASK_INFO);
        st = decode_def(sm->table, i, m->arena, &sm->def);
        if (st == OA_OK && sm->task_part != NULL && (flags & OA_OM_OPEN_SKIP_TASK) == 0) {
            char what[40];
            (void)snprintf(what, sizeof(what), "TASK_INFO of table %u", i);
            ProtobufCMessage *t = NULL;
            st = oa_om_pb_decode(&domi__model_task_def__descriptor, sm->task_part->data, (size_t)sm->task_part->size,
                                 m->arena, OA_E_GE_LOAD_TASK_PARTITION, what, &t);
            sm->task = (Domi__ModelTaskDef *)t;
        }
    }
    /* Steps 4 and 5 run on the returned trees, or on a private second decode
     * when the caller wants the stored form. */
    if (st == OA_OK && (flags & OA_OM_OPEN_KEEP_COMPRESSED) != 0) {
        st = oa_om_arena_create(&scratch);
        if (st != OA_OK) {
            st = OA_FAIL(st, "[Load][Model] scratch arena");
        }
        for (uint32_t i = 0; i < n && st == OA_OK; ++i) {
            st = decode_def(&m->container.tables[i], i, scratch, &work[i]);
        }
    } else {
        for (uint32_t i = 0; i < n && st == OA_OK; ++i) {
            work[i] = m->models[i].def;
        }
    }
    if (st == OA_OK) {
        st = decompress_all(work, n, scratch != NULL ? scratch : m->arena, was);
    }
    if (st == OA_OK) {
        st = check_all(m, work);
    }
    for (uint32_t i = 0; i < n && st == OA_OK; ++i) {
        m->models[i].was_compressed = was[i];
    }
    const oa_om_partition *io = st == OA_OK ? oa_om_table_find(&m->container.tables[0], OA_OM_PART_MODEL_INOUT_INFO)
                                            : NULL;
    if (io != NULL) {
        oa_om_inout *info = oa_om_arena_alloc(m->arena, sizeof(*info));
        st = info == NULL ? OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "[Load][Model] in/out info")
                          : oa_om_inout_parse(io->data, (size_t)io->size, m->arena, info);
        m->inout = info;
    }
    oa_om_arena_destroy(scratch);
    free(work);
    free(was);
    return st;
}

static oa_status finish_open(oa_om_model *m, unsigned flags, oa_om_model **out)
{
    m->open_flags = flags;
    oa_status st = open_image(m, flags);
    if (st != OA_OK) {
        oa_om_model_destroy(m);
        return st;
    }
    *out = m;
    return OA_OK;
}

oa_status oa_om_model_open_file(const char *path, unsigned flags, oa_om_model **out)
{
    *out = NULL;
    oa_om_model *m = calloc(1, sizeof(*m));
    if (m == NULL) {
        return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "[Load][Model] model");
    }
    oa_status st = oa_om_image_map_file(path, &m->image);
    if (st != OA_OK) {
        free(m);
        return st;
    }
    return finish_open(m, flags, out);
}

oa_status oa_om_model_open_memory(const void *data, size_t size, unsigned flags, oa_om_model **out)
{
    *out = NULL;
    if (data == NULL) {
        return OA_FAIL(OA_E_GE_MODEL_ADDR, "[Check][Param] model data is NULL");
    }
    oa_om_model *m = calloc(1, sizeof(*m));
    if (m == NULL) {
        return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "[Load][Model] model");
    }
    m->image.data = data;
    m->image.size = size;
    return finish_open(m, flags, out);
}

oa_status oa_om_model_rebase(oa_om_model *m, const void *copy, size_t size)
{
    if (m == NULL || copy == NULL || m->image.map != NULL || size != m->image.size) {
        return OA_FAIL(OA_E_GE_PARAM, "[Load][Model] cannot rebase the model image (%s)",
                       m == NULL || copy == NULL ? "NULL argument" : m->image.map != NULL ? "mapped file" : "size");
    }
    const uint8_t *old = m->image.data;
    const uint8_t *to = copy;
    for (uint32_t t = 0; t < m->container.num_tables; t++) {
        const oa_om_table *tb = &m->container.tables[t];
        for (uint32_t i = 0; i < tb->num; i++) {
            if (tb->parts[i].data != NULL) {
                tb->parts[i].data = to + (tb->parts[i].data - old);
            }
        }
    }
    m->container.image = to;
    m->image.data = to;
    return OA_OK;
}
