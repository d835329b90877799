/*
 * A bump allocator for everything decoded from one .om file: protobuf-c
 * messages, decompressed attribute keys, MODEL_INOUT_INFO records. Memory is
 * released all at once by oa_om_arena_destroy(); individual frees are no-ops.
 * Not thread-safe: one arena belongs to one loader at a time.
 */
#ifndef OA_OM_ARENA_H
#define OA_OM_ARENA_H

#include <stddef.h>
#include <stdint.h>

#include <protobuf-c/protobuf-c.h>

#include "base/status.h"

typedef struct oa_om_arena oa_om_arena;

/* Creates an empty arena; OA_E_GE_MEMORY_ALLOCATION when out of memory. */
oa_status oa_om_arena_create(oa_om_arena **out) OA_MUST_CHECK;

/* Frees every block; accepts NULL. */
void oa_om_arena_destroy(oa_om_arena *a);

/*
 * size bytes aligned to 16, zero-filled; NULL when out of memory or when size
 * is absurd (> SIZE_MAX / 2). The memory lives until the arena is destroyed.
 */
void *oa_om_arena_alloc(oa_om_arena *a, size_t size);

/* Copies n bytes and appends a NUL; NULL on OOM. */
char *oa_om_arena_strndup(oa_om_arena *a, const void *s, size_t n);

/* Bytes handed out so far (for diagnostics and tests). */
size_t oa_om_arena_used(const oa_om_arena *a);

/* A protobuf-c allocator drawing from a: free is a no-op. */
ProtobufCAllocator oa_om_arena_pb_allocator(oa_om_arena *a);

#endif /* OA_OM_ARENA_H */
