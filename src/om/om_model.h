/*
 * The .om reader: a container (om_format.h) whose MODEL_DEF, TASK_INFO and
 * MODEL_INOUT_INFO partitions are decoded, decompressed and checked.
 *
 * Opening runs, in order, and stops at the first failure (codes in
 * om_format.h section 6):
 *   1. map the file (F1) or borrow the caller's image (F2);
 *   2. parse the container (F3-F13);
 *   3. decode every table's MODEL_DEF (F14) and, unless OA_OM_OPEN_SKIP_TASK,
 *      its TASK_INFO (F19);
 *   4. undo attribute compression (F17): the root uses its own dictionaries;
 *      a sub-model uses the root's when the root graph carries
 *      `_dynamic_shape_partitioned`, else its own, and names that come out
 *      still compressed are resolved once more through the root's
 *      dictionaries. The dictionary attributes are then removed;
 *   5. check every ModelDef (F15, F16, F18, F20, see om_check.h);
 *   6. parse the root's MODEL_INOUT_INFO (F21).
 * With OA_OM_OPEN_KEEP_COMPRESSED the returned ModelDefs stay exactly as
 * stored (steps 4 and 5 run on a second, private decode), which is what
 * byte-exact re-encoding and the JSON dump need.
 *
 * Everything decoded lives in the model's arena and is released by
 * oa_om_model_destroy(). The model is immutable after open and may be read
 * from several threads.
 */
#ifndef OA_OM_MODEL_H
#define OA_OM_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"
#include "om/om_arena.h"
#include "om/om_format.h"
#include "om/om_inout.h"
#include "om/om_pb.h"

typedef enum oa_om_open_flag {
    OA_OM_OPEN_KEEP_COMPRESSED = 1u << 0, /* return ModelDefs as stored */
    OA_OM_OPEN_SKIP_TASK = 1u << 1,       /* leave TASK_INFO undecoded */
} oa_om_open_flag;

/* One table of the file: the root model (index 0) or a sub-model. */
typedef struct oa_om_submodel {
    const oa_om_table *table;
    Ge__Proto__ModelDef *def;
    const oa_om_partition *weights;   /* WEIGHTS_DATA or NULL */
    const oa_om_partition *task_part; /* TASK_INFO or NULL */
    Domi__ModelTaskDef *task;         /* decoded TASK_INFO or NULL */
    bool was_compressed;              /* MODEL_DEF carried om_compress_version */
} oa_om_submodel;

typedef struct oa_om_model {
    oa_om_image image; /* the mapping, or the borrowed memory (map == NULL) */
    oa_om_container container;
    oa_om_arena *arena;
    uint32_t num_models;
    oa_om_submodel *models;
    const oa_om_inout *inout; /* root MODEL_INOUT_INFO, NULL when absent */
    unsigned open_flags;      /* the oa_om_open_flag mask the model was opened with */
} oa_om_model;

/*
 * Opens path (mapped read-only for the model's lifetime). flags is a mask
 * of oa_om_open_flag. On failure *out is NULL and one OA_FAIL was recorded.
 */
oa_status oa_om_model_open_file(const char *path, unsigned flags, oa_om_model **out) OA_MUST_CHECK;

/*
 * Opens an image in memory. The memory is borrowed, never written, and must
 * stay valid and unchanged until oa_om_model_destroy(): weights and the
 * partitions point into it.
 */
oa_status oa_om_model_open_memory(const void *data, size_t size, unsigned flags, oa_om_model **out) OA_MUST_CHECK;

/*
 * Points a model opened from memory at copy, a byte-identical copy of its
 * image (size bytes), so that it no longer needs the memory it was opened
 * on: the image, the container and every partition then point into copy
 * (decoded messages and the in/out description are the model's own
 * already). The caller keeps copy valid until oa_om_model_destroy(). A
 * mapped model, or a size that is not the image's: OA_E_GE_PARAM.
 */
oa_status oa_om_model_rebase(oa_om_model *m, const void *copy, size_t size) OA_MUST_CHECK;

/*
 * Frees what was decoded from the image (every sub-model's ModelDef and
 * TASK_INFO, the in/out description: the arena) and keeps the image and its
 * container, so that partitions (WEIGHTS_DATA) stay readable: for a loader
 * whose program reads weights in place but nothing decoded. Afterwards
 * num_models is 0; only the image and oa_om_model_destroy() remain. Accepts
 * NULL.
 */
void oa_om_model_drop_decoded(oa_om_model *m);

/* Releases the model (and the mapping); accepts NULL. */
void oa_om_model_destroy(oa_om_model *m);

/* The graph of def called name, or NULL. */
Ge__Proto__GraphDef *oa_om_model_find_graph(const Ge__Proto__ModelDef *def, const char *name);

/*
 * Bytes [offset, offset + size) of sub-model sm's WEIGHTS_DATA, checked
 * (failure class F20, OA_E_GE_LOAD_WEIGHT_PARTITION, when negative or past
 * the partition). *out points into the image (zero-copy); NULL when size is 0.
 */
oa_status oa_om_weights_slice(const oa_om_submodel *sm, int64_t offset, int64_t size, const uint8_t **out) OA_MUST_CHECK;

#endif /* OA_OM_MODEL_H */
