/*
 * Captured executions of static models (aclmdlRICaptureBegin around
 * aclmdlExecuteAsync, or a stream bound to a built instance).
 *
 * The execution task's args (v1_sub) are copied into the instance; the
 * capture hooks (v1_capture.c) point the copy at a work-memory pool
 * (capture.h): a feature map and workspace of the model's size, from the
 * capturing stream's registered allocator when it has one (a pool of the
 * instance), else from the pool the model's instances share. A replay runs
 * the program on that pool's context, taking turns with the other instances
 * of the pool; direct executions keep using the model's own contexts.
 */
#ifndef OA_MODEL_V1_V1_CAPTURE_H
#define OA_MODEL_V1_V1_CAPTURE_H

#include "acl_mdl/model.h"
#include "acl_rt/rt_stream.h"
#include "model_v1/v1_program.h"

#define V1_INLINE_IO 8

struct oa_capture_pool;

/* One submitted execution: the args of its stream task. */
typedef struct v1_sub {
    oa_model *m;        /* a reference (async) or borrowed (sync) */
    uint16_t n_in;      /* 16 bits: the whole struct fits a stream task's inline args (OA_TASK_INLINE_ARGS) */
    uint16_t n_out;
    uint32_t variant;
    v1_iobuf *heap;     /* more than V1_INLINE_IO buffers */
    struct oa_capture_pool *cap; /* captured copies: the pool replays run on (else NULL) */
    v1_iobuf inl[V1_INLINE_IO];
} v1_sub;

/* The buffers of an execution (inputs, then outputs). */
v1_iobuf *oa_v1_sub_bufs(v1_sub *s);

/*
 * Runs execution s on context c, with the model's dump and profiling when they are on (one check
 * per run); direct executions and captured replays both come here.
 */
oa_status oa_v1_sub_execute(v1_sub *s, v1_ctx *c) OA_MUST_CHECK;

/* The run function of execution tasks (the capture hooks are registered for it). */
oa_status oa_v1_task_run(void *args, const oa_task_exec *exec);

/* A replay of a captured execution: runs s on its pool's context. */
oa_status oa_v1_capture_run(v1_sub *s) OA_MUST_CHECK;

/* Registers the capture hooks of execution tasks (idempotent). */
void oa_v1_capture_register(void);

#endif /* OA_MODEL_V1_V1_CAPTURE_H */
