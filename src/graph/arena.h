/*
 * Bump allocator for load-time objects (docs/conventions.md "Design rules").
 *
 * An arena hands out memory from large chunks and frees everything at once
 * in oa_arena_destroy(); individual allocations are never freed. Requests
 * larger than a quarter of the chunk size get a chunk of their own, so
 * big weights do not waste space. Not thread-safe: one arena per graph,
 * used by one thread at a time.
 *
 * Failure contract: allocation functions return NULL on overflow or when
 * memory runs out, and report the failure once (OA_FAIL with OA_E_NOMEM);
 * callers only propagate OA_E_NOMEM.
 */
#ifndef OA_GRAPH_ARENA_H
#define OA_GRAPH_ARENA_H

#include <stddef.h>

typedef struct oa_arena oa_arena;

/* Creates an arena whose regular chunks are chunk_size bytes (0 = 64 KiB).
 * Returns NULL (reported) when out of memory. Caller destroys. */
oa_arena *oa_arena_create(size_t chunk_size);

/* Frees every chunk. Accepts NULL. */
void oa_arena_destroy(oa_arena *a);

/* size bytes aligned to align (a power of two <= 4096; 0 means 16).
 * Memory is zeroed. size 0 returns a valid unique pointer. */
void *oa_arena_alloc(oa_arena *a, size_t size, size_t align);

/* count * elem_size bytes, zeroed, overflow-checked, aligned to 16. */
void *oa_arena_array(oa_arena *a, size_t count, size_t elem_size);

/* Copies of strings / byte ranges. oa_arena_strdup(NULL) returns NULL
 * without reporting. oa_arena_strndup copies at most n bytes and
 * terminates. oa_arena_memdup copies size bytes aligned to 64. */
char *oa_arena_strdup(oa_arena *a, const char *s);
char *oa_arena_strndup(oa_arena *a, const char *s, size_t n);
void *oa_arena_memdup(oa_arena *a, const void *p, size_t size);

/* printf into the arena; NULL (reported) on failure. */
char *oa_arena_printf(oa_arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Bytes handed out so far (payload, not chunk overhead). */
size_t oa_arena_used(const oa_arena *a);

#endif /* OA_GRAPH_ARENA_H */
