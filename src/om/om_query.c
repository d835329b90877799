/* om_query: model work/weight sizes without loading (see om_query.h). */
#define OA_LOG_MODULE "GE"
#include "om/om_query.h"

#include <stdint.h>

#include "base/error.h"
#include "om/om_arena.h"
#include "om/om_format.h"
#include "om/om_pb.h"

static oa_status query(const oa_om_container *c, size_t *work_size, size_t *weight_size)
{
    oa_status st = oa_om_container_check_executable(c);
    if (st != OA_OK) {
        return st;
    }
    uint64_t weight = 0;
    for (uint32_t i = 0; i < c->num_tables; ++i) {
        const oa_om_partition *w = oa_om_table_find(&c->tables[i], OA_OM_PART_WEIGHTS_DATA);
        if (w != NULL && __builtin_add_overflow(weight, w->size, &weight)) {
            return OA_FAIL(OA_E_GE_FAILURE, "[Query][Size] the weight size overflows");
        }
    }
    if (weight > SIZE_MAX) {
        return OA_FAIL(OA_E_GE_FAILURE, "[Query][Size] weight size %llu does not fit size_t",
                       (unsigned long long)weight);
    }
    uint64_t work = 0;
    const oa_om_partition *t = c->dynamic ? NULL : oa_om_table_find(&c->tables[0], OA_OM_PART_TASK_INFO);
    if (t != NULL) {
        oa_om_arena *a = NULL;
        st = oa_om_arena_create(&a);
        if (st != OA_OK) {
            return OA_FAIL(st, "[Query][Size] arena");
        }
        ProtobufCMessage *m = NULL;
        st = oa_om_pb_decode(&domi__model_task_def__descriptor, t->data, (size_t)t->size, a,
                             OA_E_GE_LOAD_TASK_PARTITION, "TASK_INFO", &m);
        if (st == OA_OK) {
            work = ((const Domi__ModelTaskDef *)m)->memory_size;
        }
        oa_om_arena_destroy(a);
        if (st != OA_OK) {
            return st;
        }
    }
    if (work > SIZE_MAX) {
        return OA_FAIL(OA_E_GE_FAILURE, "[Query][Size] work size %llu does not fit size_t", (unsigned long long)work);
    }
    *work_size = (size_t)work;
    *weight_size = (size_t)weight;
    return OA_OK;
}

oa_status oa_om_query_size_memory(const void *image, size_t size, size_t *work_size, size_t *weight_size)
{
    oa_om_container c;
    oa_status st = oa_om_container_parse(image, size, &c);
    if (st == OA_OK) {
        st = query(&c, work_size, weight_size);
        oa_om_container_deinit(&c);
    }
    return st;
}

oa_status oa_om_query_size_file(const char *path, size_t *work_size, size_t *weight_size)
{
    oa_om_image img;
    oa_status st = oa_om_image_map_file(path, &img);
    if (st == OA_OK) {
        st = oa_om_query_size_memory(img.data, img.size, work_size, weight_size);
        oa_om_image_unmap(&img);
    }
    return st;
}
