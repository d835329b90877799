/*
 * The intra-op thread pool shared by the process: created at first use with
 * OPENACL_NUM_THREADS participants (1..64; unset, 0 or invalid: the online
 * cores), the calling thread included, and kept until the process exits.
 * Concurrent executions share it (one parallel section at a time, see
 * kernels/threadpool.h). NULL (run single-threaded) if it could not be
 * created.
 */
#ifndef OA_OP_BIND_OP_POOL_H
#define OA_OP_BIND_OP_POOL_H

#include <stddef.h>

#include "kernels/threadpool.h"

oa_threadpool *oa_op_threadpool(void);

/* Participants of that pool (1 when there is none). */
size_t oa_op_threadpool_size(void);

#endif
