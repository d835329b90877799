/*
 * model_v2: the dynamic-shape executor (CANN RT2.0 on a CPU), the V2 route
 * of the model table (acl_mdl/model.h). README.md describes the design.
 *
 * A model whose .om header says "dynamic" (docs/om_format.md "Header and
 * dynamic models") is loaded here when ENABLE_RUNTIME_V2 allows it;
 * aclmdlExecute / aclmdlExecuteV2 / aclmdlExecuteAsync then reach execute /
 * execute_async below.
 */
#ifndef OA_MODEL_V2_MODEL_V2_H
#define OA_MODEL_V2_MODEL_V2_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "acl_mdl/model.h"
#include "base/status.h"

/* The executor table of the V2 route. */
const oa_model_exec_ops *oa_model_v2_ops(void);

/* Registers it for OA_ROUTE_V2 (idempotent; before the first dynamic load). */
void oa_model_v2_register(void);

/*
 * RT2's parser of the model attr output_reuse_input_mem_indexes
 * ("in,out|in,out|..."): empty pieces, pieces without a comma and pieces
 * with a '-' are skipped, numbers are read as strtoul does (non-numeric
 * sides skip the piece with a warning). *pairs is malloc'd (NULL for an
 * empty string).
 */
oa_status oa_v2_parse_io_reuse(const char *s, uint32_t (**pairs)[2], size_t *n) OA_MUST_CHECK;

/*
 * RT2's input shape-range check (docs/dynamic_models.md "Input shape ranges"):
 * skipped for scalars and tensors without ranges; the dim count must equal the
 * range count; a dim of -1 and a range [1, -1] are skipped; max -1 is
 * unbounded. OA_E_PARAM (ACL_ERROR_INVALID_PARAM) with the input, dim and range
 * named.
 */
oa_status oa_v2_check_range(const char *name, size_t idx, const int64_t *dims, size_t n, const oa_model_range *r,
                            size_t n_ranges) OA_MUST_CHECK;

/* Counters of a loaded V2 model (tests, benchmarks). */
typedef struct oa_v2_stats {
    uint64_t dynamic_runs;   /* executions on the dynamic path (InferShape / AllocMemory / Launch / Free) */
    uint64_t plan_runs;      /* executions of a recorded plan */
    uint64_t plans_recorded; /* plans built (all graphs) */
    uint64_t infers;         /* InferShape nodes run */
    uint64_t kop_creates;    /* kernel operators created or re-targeted for a new signature */
    uint64_t allocs;         /* AllocMemory allocations */
    uint64_t executors;      /* executors created (per stream, and the synchronous pool) */
    uint64_t plan_blocks;    /* plan memory blocks allocated (executors' plan arenas, branch and capture blocks) */
    uint64_t plan_inplace;   /* outputs the plans' memory planner put in place of a dying input (all plans built) */
    uint64_t returned_chunks; /* chunks the executors' caches gave back: outgrown plan blocks, earlier shapes' tensors */
} oa_v2_stats;

/* The counters of model m (an OA_ROUTE_V2 model); false for other models. */
bool oa_v2_model_stats(oa_model *m, oa_v2_stats *out);

#endif /* OA_MODEL_V2_MODEL_V2_H */
