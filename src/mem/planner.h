/*
 * The memory planner: lifetime-based offset assignment of values into one
 * block (docs/conventions.md "Design rules"). Pure: no graph types, no
 * allocation visible to the caller, no global state. atc uses it to write the
 * static plan of a model (feature-map offsets, `memory_size`); the dynamic
 * executor uses it at run time when input shapes change.
 *
 * Model
 *   The caller numbers the execution steps of a schedule (0, 1, 2, ...) and
 *   describes every value that needs memory:
 *
 *     size               bytes (0: needs no memory; gets offset 0)
 *     first_use          step that writes the value (its producer)
 *     last_use           last step that reads it (>= first_use); a value
 *                        never read has last_use == first_use
 *     inplace_candidate  index of another value whose memory this value may
 *                        take over, or -1. The caller has already checked
 *                        the semantic rules (the producing op can run in
 *                        place, the candidate has a single consumer, layouts
 *                        match, it is not a graph output); the planner checks
 *                        the lifetime rule: the candidate must die at the
 *                        step that produces this value
 *                        (candidate.last_use == first_use). Each candidate is
 *                        taken over by at most one value (the lowest index
 *                        wins); chains (a -> b -> c) share one block.
 *
 *   Two values may overlap in memory only when their lifetimes
 *   [first_use, last_use] do not intersect, or when they share a block
 *   through an accepted in-place pair.
 *
 * Algorithm: in-place chains are merged into groups (size = the largest
 * member, lifetime = the union); groups are placed greedily, each at the
 * smallest gap between already placed, lifetime-overlapping groups that
 * fits it (best fit), else after the last of them. Three greedy orders are
 * tried -- by size (largest first; XNNPACK's), by size x lifetime, and by
 * first use -- and the smallest total wins (ties: the earlier order).
 * Offsets and sizes are rounded up to `alignment`. Deterministic: the same
 * input gives the same output. Cost O(g^2) for g groups.
 */
#ifndef OA_MEM_PLANNER_H
#define OA_MEM_PLANNER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"

/* Default alignment of offsets (and granularity of sizes), in bytes. */
#define OA_PLANNER_ALIGN 64

/* One value to place (see the model above). */
typedef struct oa_plan_value {
    size_t size;
    int32_t first_use;
    int32_t last_use;
    int32_t inplace_candidate;
} oa_plan_value;

/* What the planner did, for logs and tests. */
typedef struct oa_plan_stats {
    size_t total;        /* bytes of the block (as *total below) */
    size_t naive;        /* sum of the aligned sizes (no reuse at all) */
    size_t num_inplace;  /* in-place requests accepted */
    size_t num_groups;   /* blocks placed (after merging in-place chains) */
} oa_plan_stats;

/*
 * Plans `n` values.
 *   [in]  values     n descriptions (may be NULL when n == 0)
 *   [in]  alignment  power of two >= 1 (OA_PLANNER_ALIGN for atc and the
 *                    executors)
 *   [out] offsets    n offsets, multiples of alignment
 *   [out] total      block size: max(offset + aligned size), 0 when nothing
 *                    needs memory
 *   [out] stats      may be NULL
 * Errors (reported, outputs untouched): OA_E_PARAM for a NULL pointer with
 * n > 0, an alignment that is not a power of two, a negative first_use,
 * last_use < first_use, an in-place candidate out of range or equal to the
 * value itself, or a total that overflows size_t; OA_E_NOMEM.
 * Thread-safe (no shared state).
 */
OA_MUST_CHECK oa_status oa_planner_plan(const oa_plan_value *values, size_t n, size_t alignment, size_t *offsets,
                                        size_t *total, oa_plan_stats *stats);

/*
 * Checks a plan (the planner's or anybody's): every offset is aligned,
 * every value fits in [0, total), and no two values whose lifetimes
 * intersect overlap in memory unless they are an in-place pair the planner
 * would accept (directly or through a chain). O(n^2).
 * Errors: OA_E_PARAM naming the first offending pair.
 */
OA_MUST_CHECK oa_status oa_planner_verify(const oa_plan_value *values, size_t n, size_t alignment,
                                          const size_t *offsets, size_t total);

#endif /* OA_MEM_PLANNER_H */
