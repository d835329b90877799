/*
 * om_arena: the per-model bump allocator (see om_arena.h). Blocks are
 * anonymous mappings, not malloc'd: a loader frees a decoded model right
 * after its load (oa_om_model_drop_decoded) while the heap grows above it,
 * and freed heap blocks below the top would stay resident.
 */
#include "om/om_arena.h"

#include <stdlib.h>
#include <string.h>

#include "base/pages.h"
#include "base/util.h"

#define ARENA_BLOCK_MIN (64u * 1024u)
#define ARENA_ALIGN 16u

typedef struct arena_block {
    struct arena_block *next;
    size_t map_size; /* the whole mapping, header included */
    size_t cap;
    size_t used;
    _Alignas(16) unsigned char data[];
} arena_block;

struct oa_om_arena {
    arena_block *head;
    size_t total;
};

oa_status oa_om_arena_create(oa_om_arena **out)
{
    oa_om_arena *a = calloc(1, sizeof(*a));
    if (a == NULL) {
        *out = NULL;
        return OA_E_GE_MEMORY_ALLOCATION;
    }
    *out = a;
    return OA_OK;
}

void oa_om_arena_destroy(oa_om_arena *a)
{
    if (a == NULL) {
        return;
    }
    arena_block *b = a->head;
    while (b != NULL) {
        arena_block *next = b->next;
        oa_pages_anon_free(b, b->map_size);
        b = next;
    }
    free(a);
}

void *oa_om_arena_alloc(oa_om_arena *a, size_t size)
{
    size_t need;
    if (a == NULL || size > SIZE_MAX / 2 || !oa_align_up(size == 0 ? 1 : size, ARENA_ALIGN, &need)) {
        return NULL;
    }
    arena_block *b = a->head;
    if (b == NULL || b->cap - b->used < need) {
        size_t cap = need > ARENA_BLOCK_MIN ? need : ARENA_BLOCK_MIN;
        size_t bytes;
        if (!oa_add_size(sizeof(arena_block), cap, &bytes)) {
            return NULL;
        }
        arena_block *nb = oa_pages_anon(bytes);
        if (nb == NULL) {
            return NULL;
        }
        nb->map_size = bytes;
        nb->cap = cap;
        nb->used = 0;
        /* A large request gets its own block behind the current one, so the
         * space left in the current block is not wasted. */
        if (b != NULL && need > ARENA_BLOCK_MIN) {
            nb->next = b->next;
            b->next = nb;
        } else {
            nb->next = b;
            a->head = nb;
        }
        b = nb;
    }
    void *p = b->data + b->used;
    b->used += need;
    a->total += need;
    memset(p, 0, size);
    return p;
}

char *oa_om_arena_strndup(oa_om_arena *a, const void *s, size_t n)
{
    size_t bytes;
    if (!oa_add_size(n, 1, &bytes)) {
        return NULL;
    }
    char *d = oa_om_arena_alloc(a, bytes);
    if (d != NULL && n != 0) {
        memcpy(d, s, n);
    }
    return d;
}

size_t oa_om_arena_used(const oa_om_arena *a)
{
    return a == NULL ? 0 : a->total;
}

static void *pb_alloc(void *ctx, size_t size)
{
    return oa_om_arena_alloc(ctx, size);
}

static void pb_free(void *ctx, void *p)
{
    (void)ctx;
    (void)p;
}

ProtobufCAllocator oa_om_arena_pb_allocator(oa_om_arena *a)
{
    ProtobufCAllocator al = {pb_alloc, pb_free, a};
    return al;
}
