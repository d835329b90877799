/*
 * Loaded models: the process-wide model table and the executor interface
 * that the static executor (model_v1) and the dynamic one (model_v2)
 * implement.
 *
 * Model ids: one counter for every model, static and dynamic-shape alike,
 * starting at 1 (1, 2, 3, ... in load order, as CANN hands them out to
 * applications: msame prints "model Id is 1" for its first model whatever
 * the model). The id is taken when the executor starts loading, so a load
 * that fails in the executor leaves a gap, as GE's GenModelId; ids are
 * never reused while the process lives; 0 is never a model.
 *
 * References: every oa_model is reference counted. The table holds one
 * reference from oa_model_publish() until oa_model_unload(); whoever uses a
 * model takes its own with oa_model_acquire() (by id) or oa_model_retain().
 * oa_model_unload() removes the id at once (a second unload, execute or
 * GetDesc of the id then fails with ACL_ERROR_GE_EXEC_MODEL_ID_INVALID) and
 * drops the table's reference; the executor's unload() and the memory go
 * with the LAST reference, so a model unloaded while an execution is in
 * flight (a synchronous call on another thread, or a task queued on a
 * stream that retained the model) stays alive until that execution ends.
 * unload() may therefore run on a stream worker thread.
 *
 * Thread-safety: all functions may be called from any thread. info, id,
 * route, ops and exec are fixed once the model is published; the current
 * gear and the priority are read and written through the accessors below.
 */
#ifndef OA_ACL_MDL_MODEL_H
#define OA_ACL_MDL_MODEL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "acl/acl_mdl.h"
#include "acl_mdl/gear.h"
#include "acl_mdl/model_info.h"
#include "base/status.h"
#include "file_constant/file_constant.h" /* oa_external_weight */

typedef struct oa_model oa_model;

/*
 * What an executor's load() receives. Everything is borrowed for the call:
 * copy what must outlive it. The model's info is already in m->info.
 */
typedef struct oa_model_load_args {
    const char *om_path;     /* file loads; NULL for memory loads (CANN then has no "<om dir>/weight/" fallback) */
    const void *image;       /* the .om bytes in host memory */
    size_t image_size;
    void *om;                /* the reader's opened model (the .om reader, om_reader.h: an oa_om_loaded, whose model
                              * the executor may take over), else NULL */
    void *work_ptr;          /* *_WITH_MEM: caller's feature-map memory (NULL: allocate) */
    size_t work_size;
    void *weight_ptr;        /* *_WITH_MEM: caller's weight memory (NULL: allocate) */
    size_t weight_size;
    const char *weight_dir;  /* ACL_MDL_WEIGHT_PATH_PTR, or NULL */
    const oa_external_weight *ext_weights; /* aclmdlSetExternalWeightAddress list, in call order */
    size_t n_ext_weights;
    int32_t priority;        /* ACL_MDL_PRIORITY_INT32 (0 by default) */
    bool without_graph;      /* ACL_MDL_WITHOUT_GRAPH_INT32 */
    bool reuse_zero_copy;    /* ACL_MDL_WORKSPACE_MEM_OPTIMIZE (GE: ge.exec.reuseZeroCopyMemory) */
    const uint32_t *input_q; /* *_WITH_Q loads */
    size_t input_q_num;
    const uint32_t *output_q;
    size_t output_q_num;
} oa_model_load_args;

/*
 * Datasets as executors see them: the aclmdlDataset layout stays private to
 * acl_mdl (mdl_objects.h). Buffers are the application's aclDataBuffer
 * (layout in acl_base/data_buffer.h); descriptors are the dataset's own.
 * The getters return NULL past the end.
 */
size_t oa_mdl_dataset_count(const aclmdlDataset *ds);
aclDataBuffer *oa_mdl_dataset_buffer(const aclmdlDataset *ds, size_t index);
const aclTensorDesc *oa_mdl_dataset_desc(const aclmdlDataset *ds, size_t index);
/* The slot's owned descriptor, for executors that create or update it in place (aclCreateTensorDesc'd). */
aclTensorDesc **oa_mdl_dataset_desc_ref(aclmdlDataset *ds, size_t index);
/* Replaces slot index's descriptor by a copy of src (NULL: removes it), e.g. output shapes after a run. */
oa_status oa_mdl_dataset_set_desc(aclmdlDataset *ds, size_t index, const aclTensorDesc *src) OA_MUST_CHECK;

/* What execute() / execute_async() receive. */
typedef struct oa_model_run {
    const aclmdlDataset *input;   /* non-NULL, every buffer entry non-NULL (checked before the call) */
    aclmdlDataset *output;        /* idem */
    aclrtStream stream;           /* the application's stream (NULL allowed) */
    bool async;                   /* aclmdlExecuteAsync */
    bool v2_api;                  /* aclmdlExecuteV2 / aclmdlExecuteAsyncV2 (an exec config came with the call) */
    int32_t stream_sync_timeout;  /* ms, -1 forever (aclmdlExecuteV2's config, else the sticky global) */
    int32_t event_sync_timeout;
} oa_model_run;

/*
 * The executor interface. An executor fills one static table and registers
 * it with oa_model_executor_register(route, &ops) before the first load.
 *
 *   load(m, args): build the executor state from m->info and args, store it
 *     in m->exec. m->id is already set for V1 models (0 for V2 ones until
 *     published). On failure clean up and return the CANN code; the model
 *     is then discarded without calling unload().
 *   unload(m): free m->exec. Called exactly once, with the LAST reference
 *     (see above), possibly on a stream worker thread. Required.
 *   execute(m, run): synchronous inference (aclmdlExecute, aclmdlExecuteV2).
 *     The caller holds a reference for the duration of the call.
 *   execute_async(m, run): queue the inference on run->stream with
 *     oa_stream_submit; the task must hold its own reference
 *     (oa_model_retain) and drop it in its release function.
 *   set_gear(m, gear): optional notification after a dynamic setter chose a
 *     gear (the table already stored it, readable with oa_model_get_gear).
 *   get_cur_output_dims(m, index, dims): aclmdlGetCurOutputDims after the
 *     argument checks (index < number of outputs); fills all of *dims,
 *     name included. NULL = the executor does not support it
 *     (ACL_ERROR_API_NOT_SUPPORT). Only consulted for V1 models: CANN
 *     answers ACL_ERROR_API_NOT_SUPPORT for every RT2 model before any other
 *     check. V1 points it at oa_model_cur_output_dims_default.
 * execute / execute_async NULL: "<function> is not supported yet".
 */
typedef struct oa_model_exec_ops {
    const char *name; /* for logs: "v1", "v2" */
    oa_status (*load)(oa_model *m, const oa_model_load_args *args);
    void (*unload)(oa_model *m);
    oa_status (*execute)(oa_model *m, const oa_model_run *run);
    oa_status (*execute_async)(oa_model *m, const oa_model_run *run);
    oa_status (*set_gear)(oa_model *m, const oa_model_gear *gear);
    oa_status (*get_cur_output_dims)(oa_model *m, size_t index, aclmdlIODims *dims);
} oa_model_exec_ops;

struct oa_model {
    uint32_t id;
    oa_model_route route;
    oa_model_info *info;           /* one reference, released with the model */
    const oa_model_exec_ops *ops;
    void *exec;                    /* executor state */
    int32_t device_id;             /* -1 until the executor's load() sets it */
    /* private to model_table.c */
    int refs;
    bool published;
    pthread_mutex_t lock;
    oa_model_gear gear;
    uint32_t priority;
};

/* ---- executors ---- */

/* Registers (or with NULL removes) the executor of a route. */
void oa_model_executor_register(oa_model_route route, const oa_model_exec_ops *ops);
/* The executor of a route, NULL when none is registered yet. */
const oa_model_exec_ops *oa_model_executor_get(oa_model_route route);

/* ---- lifecycle ---- */

/*
 * A new, unpublished model holding one reference and a reference to info.
 * V1: takes the next V1 id now; V2: consumes one V1 id, m->id stays 0.
 */
oa_status oa_model_create(oa_model_route route, oa_model_info *info, const oa_model_exec_ops *ops,
                          int32_t priority, oa_model **out) OA_MUST_CHECK;

/* Puts a loaded model in the table (V2: takes its id now); the table owns the creator's reference. */
oa_status oa_model_publish(oa_model *m, uint32_t *id) OA_MUST_CHECK;

/* Drops an unpublished model whose load failed (ops->unload is not called). */
void oa_model_discard(oa_model *m);

/* The model with this id with a new reference, or NULL (no error recorded). */
oa_model *oa_model_acquire(uint32_t id);

oa_model *oa_model_retain(oa_model *m);
void oa_model_release(oa_model *m); /* NULL is ignored */

/* Removes id from the table; OA_E_GE_MODEL_ID (error recorded) when it is not loaded. */
oa_status oa_model_unload(uint32_t id) OA_MUST_CHECK;

/* Number of models in the table (tests). */
size_t oa_model_count(void);

/* ---- per-model state ---- */

/* Records the current gear and notifies ops->set_gear. */
oa_status oa_model_set_gear(oa_model *m, const oa_model_gear *gear) OA_MUST_CHECK;
void oa_model_get_gear(oa_model *m, oa_model_gear *gear);

void oa_model_set_priority(oa_model *m, uint32_t priority);
uint32_t oa_model_get_priority(oa_model *m);

/*
 * CANN's aclmdlGetCurOutputDims for a V1 model, from the model's current
 * gear: no gear set -> the static output dims of info; a gear with more
 * than 2 values that did not come from the dims setter -> OA_E_GE_FAILURE;
 * otherwise oa_model_cur_output_dims, then the name (oa_model_io_name).
 */
oa_status oa_model_cur_output_dims_default(oa_model *m, size_t index, aclmdlIODims *dims) OA_MUST_CHECK;

#endif /* OA_ACL_MDL_MODEL_H */
