/*
 * Memory of the dynamic executor (docs/dynamic_models.md "Allocator").
 *
 * Every tensor the executor allocates is an oa_v2_block: an address, a
 * size and a reference count (views such as Reshape outputs and subgraph
 * inputs share their producer's block). Blocks come from an allocator:
 *
 *   caching allocator  RT2's ScalableAllocator: 64 KiB pages, requests
 *                      rounded up to whole pages (0 bytes -> 1 page); a
 *                      span's "layer" is its page count. Allocation takes a
 *                      free span of the exact layer, else splits the
 *                      smallest larger free span (the rest stays cached),
 *                      else takes new memory from the system: requests
 *                      under 2 MiB take a whole 2 MiB chunk and split it.
 *                      Freeing returns the span to its layer and merges it
 *                      with free address neighbours of the same chunk.
 *                      Thresholds (oa_v2_scalable_config) bound what stays
 *                      cached; recycling returns wholly free chunks to the
 *                      system. Memory survives executions (a second run of
 *                      the same shapes allocates nothing from the system).
 *   external allocator the application's aclrtAllocator registered on a
 *                      stream (acl_rt_allocator.h), wrapped: every block is
 *                      one alloc/free pair of its callbacks.
 *
 * Not thread-safe: each executor instance owns its allocator.
 */
#ifndef OA_MODEL_V2_V2_ALLOC_H
#define OA_MODEL_V2_V2_ALLOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"

#define OA_V2_PAGE_SHIFT 16u
#define OA_V2_PAGE_SIZE ((size_t)1 << OA_V2_PAGE_SHIFT)     /* 64 KiB */
#define OA_V2_HUGE_PAGE_SIZE ((size_t)2 << 20)               /* 2 MiB level-1 chunk */
#define OA_V2_GB ((size_t)1 << 30)

typedef struct oa_v2_allocator oa_v2_allocator;

typedef struct oa_v2_block {
    void *addr;
    size_t size;             /* usable bytes (>= the request) */
    int32_t refs;            /* > 0 while in use */
    oa_v2_allocator *owner;
} oa_v2_block;

struct oa_v2_allocator {
    /* A block with refs = 1, or NULL (error recorded). */
    oa_v2_block *(*alloc)(oa_v2_allocator *a, size_t size);
    /* Returns a block whose refs reached 0. */
    void (*free)(oa_v2_allocator *a, oa_v2_block *b);
};

static inline oa_v2_block *oa_v2_block_retain(oa_v2_block *b)
{
    if (b != NULL) {
        b->refs++;
    }
    return b;
}

/* Drops one reference; the last one returns the block to its allocator. */
static inline void oa_v2_block_release(oa_v2_block *b)
{
    if (b != NULL && --b->refs == 0) {
        b->owner->free(b->owner, b);
    }
}

/* ---- caching allocator ---- */

typedef struct oa_v2_scalable_config {
    size_t cache_threshold;   /* total cached bytes before a recycle */
    size_t uncacheable_size;  /* spans of at least this size are released at once, never split */
    size_t layer_max_bytes;   /* cached bytes per layer (8 GB) */
    size_t layer_max_spans;   /* cached spans per layer (10240) */
} oa_v2_scalable_config;

/*
 * RT2's ScalableConfig: 30 GB / 16 GB, or 60 GB / 32 GB when the device
 * has more than 32 GB; then, with a known device total (> 0), the cache
 * threshold becomes floor(0.95 * total). pool_threshold_gb (the
 * ge.experiment.memory_pool_threshold option, 0 = none) overrides the
 * threshold when it lies in (0, threshold]; otherwise it is ignored with a
 * warning.
 */
void oa_v2_scalable_config_init(oa_v2_scalable_config *cfg, size_t device_total, int64_t pool_threshold_gb);

typedef struct oa_v2_caching_stats {
    size_t system_bytes;  /* bytes held from the system (chunks) */
    size_t cached_bytes;  /* free bytes kept in spans */
    size_t in_use_bytes;
    size_t chunks;
    size_t system_allocs; /* chunk allocations so far */
} oa_v2_caching_stats;

typedef struct oa_v2_caching_allocator oa_v2_caching_allocator;

/* cfg NULL: oa_v2_scalable_config_init(device capacity, 0). */
oa_status oa_v2_caching_create(const oa_v2_scalable_config *cfg, oa_v2_caching_allocator **out) OA_MUST_CHECK;
/* Frees every chunk; blocks still in use are reported (warning) and freed too. Accepts NULL. */
void oa_v2_caching_destroy(oa_v2_caching_allocator *ca);
oa_v2_allocator *oa_v2_caching_base(oa_v2_caching_allocator *ca);
/* Returns every wholly free chunk to the system. */
void oa_v2_caching_recycle(oa_v2_caching_allocator *ca);
/*
 * Ends an epoch: every wholly free chunk no block came from since the last call goes back to the system. The
 * executor calls it after each execution on the dynamic path, so that what stays cached is that execution's
 * working set, not the tensors of every input shape seen so far (a host's memory is the process's RSS; the
 * device pool RT2 models keeps up to its threshold, docs/dynamic_models.md "Allocator").
 */
size_t oa_v2_caching_trim_unused(oa_v2_caching_allocator *ca); /* chunks given back */
/* Drops a reference to b; when that was the last, b is freed and its chunk goes back to the system at once if
 * nothing else of it is in use: a block that will not be asked for at its size again (the plan block an executor
 * outgrew), which the cache would otherwise keep resident up to its threshold. */
bool oa_v2_caching_release_now(oa_v2_caching_allocator *ca, oa_v2_block *b); /* true: a chunk went back */
void oa_v2_caching_stats_get(const oa_v2_caching_allocator *ca, oa_v2_caching_stats *st);
/* Page count (layer) of a block of this allocator. */
size_t oa_v2_caching_block_pages(const oa_v2_block *b);
/* Test hook: fail the next n system allocations (0 = never). */
void oa_v2_caching_fail_system_allocs(oa_v2_caching_allocator *ca, unsigned n);

/* ---- external allocator (acl_rt_allocator.h callbacks of a stream) ---- */

typedef struct oa_v2_ext_allocator {
    oa_v2_allocator base;
    void *obj;
    void *(*alloc_fn)(void *obj, size_t size);
    void (*free_fn)(void *obj, void *block);
    void *(*alloc_advise_fn)(void *obj, size_t size, void *addr);
    void *(*addr_fn)(void *block);
} oa_v2_ext_allocator;

/* Wraps the callbacks (obj and functions borrowed). */
void oa_v2_ext_allocator_init(oa_v2_ext_allocator *ea, void *obj, void *(*alloc_fn)(void *, size_t),
                              void (*free_fn)(void *, void *), void *(*alloc_advise_fn)(void *, size_t, void *),
                              void *(*addr_fn)(void *));
/*
 * Alloc with advise: RT2 calls the advise callback when one is registered;
 * a NULL advise callback falls back to plain alloc (RT2's wrapper would
 * recurse there, docs/dynamic_models.md "Allocator").
 */
oa_v2_block *oa_v2_ext_alloc_advise(oa_v2_ext_allocator *ea, size_t size, void *addr);

#endif /* OA_MODEL_V2_V2_ALLOC_H */
