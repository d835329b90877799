/*
 * model_v1: the static ("task sink") executor behind aclmdlLoad* /
 * aclmdlExecute* for static and gear models (GE's DavinciModel path).
 *
 * Load (v1_load_om.c): the .om reader's model -> graph IR + plan -> weights
 * bound (zero-copy from the mapped file, or copied into the caller's weight
 * memory / our own block) -> program (v1_program.h: kernel ops created
 * once, weights packed, one workspace size) -> the model's first execution
 * context bound to the work memory (the caller's or ours).
 *
 * Execute (v1_model.c): CANN's checks in GE's order (output buffers with
 * NULL data allocated in synchronous runs, sync/async mode mixing, buffer
 * counts, the 64-byte input slack and the output size rules, the gear read
 * from the ascend_mbatch_shape_data buffer), then one context runs the
 * task array. Synchronous aclmdlExecute runs on the calling thread and
 * allocates nothing; aclmdlExecuteAsync queues an OA_TASK_KIND_MODEL task
 * carrying the buffers (inline for up to 8 of them) on the stream.
 *
 * Concurrency: CANN's V1 model owns one feature map. Ours is the first
 * context; an execution that finds it busy (the same model running on
 * another stream or thread) takes another pooled context with its own
 * feature map and workspace, created on first need (at most
 * OA_V1_MAX_CONTEXTS; beyond that executions wait). Steady state allocates
 * nothing.
 */
#ifndef OA_MODEL_V1_V1_MODEL_H
#define OA_MODEL_V1_V1_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "acl_mdl/model.h"
#include "base/status.h"
#include "graph/blob.h"
#include "model_v1/v1_program.h"

#define OA_V1_MAX_CONTEXTS 8

typedef struct oa_v1_model oa_v1_model;

/*
 * Model state over prog (taken, destroyed with the model; on failure too).
 * work / work_size: the caller's feature map (NULL: ours, of
 * own_work_size bytes, 0 = memory_size). keep_blob (retained) and the
 * owned blocks (taken, freed with free()) hold memory prog points into.
 */
oa_status oa_v1_model_create(oa_v1_program *prog, void *work, uint64_t work_size, uint64_t own_work_size,
                             oa_blob *keep_blob, void **owned, size_t n_owned, oa_v1_model **out) OA_MUST_CHECK;
void oa_v1_model_destroy(oa_v1_model *x);

/* Names dump reports the model under: the .om file's base name (NULL path: none) and the graph name. */
void oa_v1_model_set_names(oa_v1_model *x, const char *om_path, const char *graph_name);

/* The program (tests, statistics). */
const oa_v1_program *oa_v1_model_program(const oa_v1_model *x);

/* The executor table (load in v1_load_om.c). */
extern const oa_model_exec_ops oa_v1_exec_ops;

/* Loads an .om opened by the model_v1 reader (args->om); fills m->exec. */
oa_status oa_v1_load_om(oa_model *m, const oa_model_load_args *args) OA_MUST_CHECK;

/*
 * Registers the model_v1 pieces with acl_mdl: the .om reader (when built
 * with src/om) and the V1 executor. Idempotent.
 */
void oa_model_v1_register(void);

#endif /* OA_MODEL_V1_V1_MODEL_H */
