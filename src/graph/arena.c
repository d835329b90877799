/*
 * Chunked bump allocator (arena.h).
 */
#define OA_LOG_MODULE "GE"
#include "graph/arena.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"

typedef struct chunk {
    struct chunk *next;
    size_t cap;   /* bytes in data[] */
    size_t used;
    _Alignas(64) unsigned char data[];
} chunk;

struct oa_arena {
    chunk *head;      /* current regular chunk first */
    size_t chunk_size;
    size_t used;
};

#define DEFAULT_CHUNK (64u * 1024u)
#define MAX_ALIGN 4096u

oa_arena *oa_arena_create(size_t chunk_size)
{
    oa_arena *a = calloc(1, sizeof(*a));
    if (a == NULL) {
        (void)OA_FAIL(OA_E_NOMEM, "cannot allocate an arena");
        return NULL;
    }
    a->chunk_size = chunk_size ? chunk_size : DEFAULT_CHUNK;
    return a;
}

void oa_arena_destroy(oa_arena *a)
{
    if (a == NULL) {
        return;
    }
    chunk *c = a->head;
    while (c != NULL) {
        chunk *n = c->next;
        free(c);
        c = n;
    }
    free(a);
}

static chunk *new_chunk(size_t cap)
{
    size_t bytes;
    if (!oa_add_size(sizeof(chunk), cap, &bytes)) {
        return NULL;
    }
    chunk *c = aligned_alloc(64, (bytes + 63) & ~(size_t)63);
    if (c == NULL) {
        return NULL;
    }
    c->next = NULL;
    c->cap = cap;
    c->used = 0;
    return c;
}

void *oa_arena_alloc(oa_arena *a, size_t size, size_t align)
{
    if (align == 0) {
        align = 16;
    }
    if (a == NULL || (align & (align - 1)) != 0 || align > MAX_ALIGN) {
        (void)OA_FAIL(OA_E_INTERNAL, "bad arena request (align %zu)", align);
        return NULL;
    }
    if (size == 0) {
        size = 1;
    }
    chunk *c = a->head;
    if (c != NULL) {
        uintptr_t base = (uintptr_t)c->data;
        size_t off;
        if (oa_align_up((size_t)(base + c->used), align, &off)) {
            off -= (size_t)base;
            size_t end;
            if (oa_add_size(off, size, &end) && end <= c->cap) {
                c->used = end;
                a->used += size;
                memset(c->data + off, 0, size);
                return c->data + off;
            }
        }
    }
    /* Needs a new chunk: large requests get their own, kept behind head so
     * the current regular chunk continues to serve small requests. */
    size_t need;
    if (!oa_add_size(size, align, &need)) {
        (void)OA_FAIL(OA_E_NOMEM, "arena request of %zu bytes overflows", size);
        return NULL;
    }
    bool dedicated = need > a->chunk_size / 4;
    chunk *n = new_chunk(dedicated ? need : a->chunk_size);
    if (n == NULL) {
        (void)OA_FAIL(OA_E_NOMEM, "cannot allocate %zu bytes of graph memory", need);
        return NULL;
    }
    uintptr_t base = (uintptr_t)n->data;
    size_t off = (size_t)((base + align - 1) & ~(uintptr_t)(align - 1)) - (size_t)base;
    n->used = off + size;
    if (dedicated && a->head != NULL) {
        n->next = a->head->next;
        a->head->next = n;
    } else {
        n->next = a->head;
        a->head = n;
    }
    a->used += size;
    memset(n->data + off, 0, size);
    return n->data + off;
}

void *oa_arena_array(oa_arena *a, size_t count, size_t elem_size)
{
    size_t bytes;
    if (!oa_mul_size(count, elem_size, &bytes)) {
        (void)OA_FAIL(OA_E_NOMEM, "arena array of %zu x %zu bytes overflows", count, elem_size);
        return NULL;
    }
    return oa_arena_alloc(a, bytes, 16);
}

char *oa_arena_strndup(oa_arena *a, const char *s, size_t n)
{
    if (s == NULL) {
        return NULL;
    }
    size_t len = strnlen(s, n);
    char *d = oa_arena_alloc(a, len + 1, 1);
    if (d != NULL) {
        memcpy(d, s, len);
        d[len] = '\0';
    }
    return d;
}

char *oa_arena_strdup(oa_arena *a, const char *s)
{
    return s == NULL ? NULL : oa_arena_strndup(a, s, strlen(s));
}

void *oa_arena_memdup(oa_arena *a, const void *p, size_t size)
{
    void *d = oa_arena_alloc(a, size, 64);
    if (d != NULL && size > 0) {
        memcpy(d, p, size);
    }
    return d;
}

char *oa_arena_printf(oa_arena *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
        (void)OA_FAIL(OA_E_INTERNAL, "bad format string [%s]", fmt);
        return NULL;
    }
    char *d = oa_arena_alloc(a, (size_t)n + 1, 1);
    if (d == NULL) {
        return NULL;
    }
    va_start(ap, fmt);
    vsnprintf(d, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return d;
}

size_t oa_arena_used(const oa_arena *a)
{
    return a ? a->used : 0;
}
