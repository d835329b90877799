/*
 * Captured executions of dynamic models (aclmdlRICaptureBegin around
 * aclmdlExecuteAsync, or a stream bound to a built instance).
 *
 * The execution task's args (v2_async_args) are copied into the instance;
 * the capture hooks (v2_capture.c) give the copy datasets of its own (the
 * buffers' addresses and sizes and the input shapes at capture: the
 * application may destroy its datasets; output shapes are not published
 * back to them at replays) and point it at a work-memory pool
 * (capture.h) holding an executor of its own: its caching allocator is the
 * pool the model's instances share (one working set at a time: when a replay
 * follows another captured execution, the previous one's plan memory goes
 * back to the cache and wholly free chunks to the system, so N captured
 * shapes hold about the memory of the largest). When the capturing stream
 * has a registered allocator, the instance gets an executor of its own that
 * takes tensor memory from that allocator at each replay, as direct
 * asynchronous executions do, and the blocks of its frozen plans too (kept
 * until the instance is destroyed). Direct executions keep their per-stream
 * executors.
 */
#ifndef OA_MODEL_V2_V2_CAPTURE_H
#define OA_MODEL_V2_V2_CAPTURE_H

#include <stdint.h>

#include "acl/acl_mdl.h"
#include "acl_mdl/model.h"
#include "acl_rt/rt_stream.h"

struct oa_capture_pool;

/* The args of an asynchronous execution task. */
typedef struct v2_async_args {
    oa_model *m;
    const aclmdlDataset *input;
    aclmdlDataset *output;
    struct oa_capture_pool *cap; /* captured copies: the pool replays run on (else NULL) */
    uint64_t token;              /* captured copies: identity of the captured execution */
} v2_async_args;

/* The run function of execution tasks (the capture hooks are registered for it). */
oa_status oa_v2_async_run(void *args, const oa_task_exec *exec);

/* A replay of a captured execution on its pool. */
oa_status oa_v2_capture_run(v2_async_args *a, const oa_task_exec *exec) OA_MUST_CHECK;

/* Registers the capture hooks of execution tasks (idempotent). */
void oa_v2_capture_register(void);

#endif /* OA_MODEL_V2_V2_CAPTURE_H */
