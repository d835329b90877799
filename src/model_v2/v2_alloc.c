/*
 * The caching allocator (RT2 ScalableAllocator on the CPU) and the
 * external-allocator wrapper of v2_alloc.h.
 *
 * Chunks are mmap'ed regions of at least 2 MiB. Each chunk is cut into
 * spans kept in address order; free spans also sit in a per-layer list
 * (layers up to BUCKETS pages, a bitmap finds the next non-empty layer),
 * larger ones in one unsorted list.
 */
#define OA_LOG_MODULE "GE"
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "base/error.h"
#include "base/log.h"
#include "base/util.h"
#include "mem/mem_table.h"
#include "model_v2/v2_alloc.h"

#define BUCKETS 4096u /* layers with their own free list (256 MiB) */
#define BITMAP_WORDS (BUCKETS / 64u + 1u)

typedef struct chunk chunk;

typedef struct span {
    oa_v2_block blk; /* first member: a block pointer is a span pointer */
    chunk *ch;
    size_t pages;
    struct span *aprev, *anext; /* address neighbours in the chunk */
    struct span *fprev, *fnext; /* free list */
    bool is_free;
} span;

struct chunk {
    uint8_t *base;
    size_t size;
    chunk *prev, *next;
    struct span *first; /* the span at base (stays first: merges keep the lower span) */
    uint64_t epoch;     /* the allocator's epoch when a block last came from it (oa_v2_caching_trim_unused) */
};

struct oa_v2_caching_allocator {
    oa_v2_allocator base;
    oa_v2_scalable_config cfg;
    span *bucket[BUCKETS + 1];
    uint64_t bitmap[BITMAP_WORDS];
    size_t layer_spans[BUCKETS + 1];
    size_t layer_bytes[BUCKETS + 1];
    span *big; /* free spans above BUCKETS pages */
    span *spare; /* span records to reuse (splits and merges do not touch the heap once warm) */
    chunk *chunks;
    oa_v2_caching_stats stats;
    unsigned fail_next;
    uint64_t epoch;
};

void oa_v2_scalable_config_init(oa_v2_scalable_config *cfg, size_t device_total, int64_t pool_threshold_gb)
{
    cfg->cache_threshold = 30 * OA_V2_GB;
    cfg->uncacheable_size = 16 * OA_V2_GB;
    if (device_total > 32 * OA_V2_GB) {
        cfg->cache_threshold = 60 * OA_V2_GB;
        cfg->uncacheable_size = 32 * OA_V2_GB;
    }
    if (device_total > 0) {
        cfg->cache_threshold = (size_t)((double)device_total * 0.95);
    }
    if (pool_threshold_gb != 0) {
        const uint64_t want = (uint64_t)pool_threshold_gb * OA_V2_GB;
        if (pool_threshold_gb > 0 && (uint64_t)pool_threshold_gb <= SIZE_MAX / OA_V2_GB &&
            want <= cfg->cache_threshold) {
            cfg->cache_threshold = (size_t)want;
        } else {
            OA_LOGW("memory pool threshold %lld GB is not in (0, %zu GB]; ignored", (long long)pool_threshold_gb,
                    cfg->cache_threshold / OA_V2_GB);
        }
    }
    cfg->layer_max_bytes = 8 * OA_V2_GB;
    cfg->layer_max_spans = 10240;
}

/* ---- span records ---- */

static span *span_new(oa_v2_caching_allocator *ca)
{
    span *s = ca->spare;
    if (s != NULL) {
        ca->spare = s->fnext;
        memset(s, 0, sizeof(*s));
        return s;
    }
    return calloc(1, sizeof(span));
}

static void span_put(oa_v2_caching_allocator *ca, span *s)
{
    s->fnext = ca->spare;
    ca->spare = s;
}

/* ---- free lists ---- */

static void list_push(span **head, span *s)
{
    s->fprev = NULL;
    s->fnext = *head;
    if (*head != NULL) {
        (*head)->fprev = s;
    }
    *head = s;
}

static void list_unlink(span **head, span *s)
{
    if (s->fprev != NULL) {
        s->fprev->fnext = s->fnext;
    } else {
        *head = s->fnext;
    }
    if (s->fnext != NULL) {
        s->fnext->fprev = s->fprev;
    }
    s->fprev = s->fnext = NULL;
}

static void free_insert(oa_v2_caching_allocator *ca, span *s)
{
    s->is_free = true;
    const size_t bytes = s->pages << OA_V2_PAGE_SHIFT;
    ca->stats.cached_bytes += bytes;
    if (s->pages <= BUCKETS) {
        list_push(&ca->bucket[s->pages], s);
        ca->bitmap[s->pages / 64] |= UINT64_C(1) << (s->pages % 64);
        ca->layer_spans[s->pages]++;
        ca->layer_bytes[s->pages] += bytes;
    } else {
        list_push(&ca->big, s);
    }
}

static void free_remove(oa_v2_caching_allocator *ca, span *s)
{
    const size_t bytes = s->pages << OA_V2_PAGE_SHIFT;
    ca->stats.cached_bytes -= bytes;
    if (s->pages <= BUCKETS) {
        list_unlink(&ca->bucket[s->pages], s);
        if (ca->bucket[s->pages] == NULL) {
            ca->bitmap[s->pages / 64] &= ~(UINT64_C(1) << (s->pages % 64));
        }
        ca->layer_spans[s->pages]--;
        ca->layer_bytes[s->pages] -= bytes;
    } else {
        list_unlink(&ca->big, s);
    }
    s->is_free = false;
}

/* Smallest free span with at least pages pages (exact layer first). */
static span *find_free(oa_v2_caching_allocator *ca, size_t pages)
{
    if (pages <= BUCKETS) {
        size_t w = pages / 64;
        uint64_t bits = ca->bitmap[w] & (~UINT64_C(0) << (pages % 64));
        for (;;) {
            if (bits != 0) {
                const size_t layer = w * 64 + (size_t)__builtin_ctzll(bits);
                if (layer <= BUCKETS) {
                    return ca->bucket[layer];
                }
                break;
            }
            if (++w >= BITMAP_WORDS) {
                break;
            }
            bits = ca->bitmap[w];
        }
    }
    span *best = NULL;
    for (span *s = ca->big; s != NULL; s = s->fnext) {
        if (s->pages >= pages && (best == NULL || s->pages < best->pages)) {
            best = s;
        }
    }
    return best;
}

/* ---- chunks ---- */

static void chunk_release(oa_v2_caching_allocator *ca, chunk *c, span *whole)
{
    free_remove(ca, whole);
    span_put(ca, whole);
    if (c->prev != NULL) {
        c->prev->next = c->next;
    } else {
        ca->chunks = c->next;
    }
    if (c->next != NULL) {
        c->next->prev = c->prev;
    }
    ca->stats.system_bytes -= c->size;
    ca->stats.chunks--;
    munmap(c->base, c->size);
    free(c);
}

static bool span_is_whole_chunk(const span *s)
{
    return s->aprev == NULL && s->anext == NULL;
}

void oa_v2_caching_recycle(oa_v2_caching_allocator *ca)
{
    chunk *c = ca->chunks;
    while (c != NULL) {
        chunk *next = c->next;
        if (c->first->is_free && span_is_whole_chunk(c->first)) {
            chunk_release(ca, c, c->first);
        }
        c = next;
    }
}

static span *chunk_new(oa_v2_caching_allocator *ca, size_t pages)
{
    size_t bytes = pages << OA_V2_PAGE_SHIFT;
    if (bytes < OA_V2_HUGE_PAGE_SIZE) {
        bytes = OA_V2_HUGE_PAGE_SIZE;
    }
    chunk *c = calloc(1, sizeof(*c));
    span *s = span_new(ca);
    void *mem = MAP_FAILED;
    for (int attempt = 0; attempt < 2 && c != NULL && s != NULL; ++attempt) {
        if (ca->fail_next > 0) {
            ca->fail_next--;
        } else {
            mem = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        }
        if (mem != MAP_FAILED) {
            break;
        }
        /* out of memory: give the cached chunks back, then try once more */
        oa_v2_caching_recycle(ca);
    }
    if (mem == MAP_FAILED) {
        free(c);
        if (s != NULL) {
            span_put(ca, s);
        }
        return NULL;
    }
    c->base = mem;
    c->size = bytes;
    c->next = ca->chunks;
    if (ca->chunks != NULL) {
        ca->chunks->prev = c;
    }
    ca->chunks = c;
    ca->stats.system_bytes += bytes;
    ca->stats.chunks++;
    ca->stats.system_allocs++;
    s->ch = c;
    c->first = s;
    s->pages = bytes >> OA_V2_PAGE_SHIFT;
    s->blk.addr = mem;
    s->blk.owner = &ca->base;
    return s;
}

/* Cuts the first `pages` pages off s (not in a free list); the rest becomes a free span. */
static bool split(oa_v2_caching_allocator *ca, span *s, size_t pages)
{
    if (s->pages == pages) {
        return true;
    }
    span *rest = span_new(ca);
    if (rest == NULL) {
        return false;
    }
    rest->ch = s->ch;
    rest->pages = s->pages - pages;
    rest->blk.addr = (uint8_t *)s->blk.addr + (pages << OA_V2_PAGE_SHIFT);
    rest->blk.owner = &ca->base;
    rest->aprev = s;
    rest->anext = s->anext;
    if (s->anext != NULL) {
        s->anext->aprev = rest;
    }
    s->anext = rest;
    s->pages = pages;
    free_insert(ca, rest);
    return true;
}

static oa_v2_block *caching_alloc(oa_v2_allocator *a, size_t size)
{
    oa_v2_caching_allocator *ca = (oa_v2_caching_allocator *)a;
    size_t pages = size == 0 ? 1 : ((size - 1) >> OA_V2_PAGE_SHIFT) + 1;
    if (pages > (SIZE_MAX >> OA_V2_PAGE_SHIFT) / 2) {
        OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "cannot allocate %zu bytes", size);
        return NULL;
    }
    const size_t bytes = pages << OA_V2_PAGE_SHIFT;
    span *s = find_free(ca, pages);
    if (s != NULL && s->pages != pages && (s->pages << OA_V2_PAGE_SHIFT) >= ca->cfg.uncacheable_size) {
        s = NULL; /* spans at the uncacheable size are never split */
    }
    if (s != NULL) {
        free_remove(ca, s);
    } else {
        s = chunk_new(ca, pages);
        if (s == NULL) {
            OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "cannot allocate %zu bytes (%zu pages): out of memory", size, pages);
            return NULL;
        }
    }
    if (!split(ca, s, pages)) {
        free_insert(ca, s);
        OA_FAIL(OA_E_NOMEM, "span record");
        return NULL;
    }
    s->blk.size = bytes;
    s->blk.refs = 1;
    s->ch->epoch = ca->epoch;
    ca->stats.in_use_bytes += bytes;
    return &s->blk;
}

static span *merge(oa_v2_caching_allocator *ca, span *s)
{
    span *p = s->aprev;
    if (p != NULL && p->is_free) {
        free_remove(ca, p);
        p->pages += s->pages;
        p->anext = s->anext;
        if (s->anext != NULL) {
            s->anext->aprev = p;
        }
        span_put(ca, s);
        s = p;
    }
    span *n = s->anext;
    if (n != NULL && n->is_free) {
        free_remove(ca, n);
        s->pages += n->pages;
        s->anext = n->anext;
        if (n->anext != NULL) {
            n->anext->aprev = s;
        }
        span_put(ca, n);
    }
    return s;
}

size_t oa_v2_caching_trim_unused(oa_v2_caching_allocator *ca)
{
    size_t n = 0;
    chunk *c = ca->chunks;
    while (c != NULL) {
        chunk *next = c->next;
        if (c->epoch != ca->epoch && c->first->is_free && span_is_whole_chunk(c->first)) {
            chunk_release(ca, c, c->first);
            n++;
        }
        c = next;
    }
    ca->epoch++;
    return n;
}

bool oa_v2_caching_release_now(oa_v2_caching_allocator *ca, oa_v2_block *b)
{
    if (b == NULL || --b->refs > 0) {
        return false;
    }
    ca->stats.in_use_bytes -= b->size;
    span *s = merge(ca, (span *)b);
    free_insert(ca, s);
    if (!span_is_whole_chunk(s)) {
        return false;
    }
    chunk_release(ca, s->ch, s);
    return true;
}

static void caching_free(oa_v2_allocator *a, oa_v2_block *b)
{
    oa_v2_caching_allocator *ca = (oa_v2_caching_allocator *)a;
    span *s = (span *)b;
    if (s->blk.refs > 0) {
        return; /* still referenced: not freed */
    }
    ca->stats.in_use_bytes -= s->pages << OA_V2_PAGE_SHIFT;
    s = merge(ca, s);
    free_insert(ca, s);
    const size_t bytes = s->pages << OA_V2_PAGE_SHIFT;
    bool release = bytes >= ca->cfg.uncacheable_size;
    if (s->pages <= BUCKETS && (ca->layer_spans[s->pages] > ca->cfg.layer_max_spans ||
                                ca->layer_bytes[s->pages] > ca->cfg.layer_max_bytes)) {
        release = true;
    }
    if (release && span_is_whole_chunk(s)) {
        chunk_release(ca, s->ch, s);
    }
    if (ca->stats.cached_bytes > ca->cfg.cache_threshold) {
        oa_v2_caching_recycle(ca);
    }
}

oa_status oa_v2_caching_create(const oa_v2_scalable_config *cfg, oa_v2_caching_allocator **out)
{
    *out = NULL;
    oa_v2_caching_allocator *ca = calloc(1, sizeof(*ca));
    if (ca == NULL) {
        return OA_FAIL(OA_E_NOMEM, "caching allocator");
    }
    if (cfg != NULL) {
        ca->cfg = *cfg;
    } else {
        oa_v2_scalable_config_init(&ca->cfg, oa_mem_device_capacity(), 0);
    }
    ca->base.alloc = caching_alloc;
    ca->base.free = caching_free;
    *out = ca;
    return OA_OK;
}

oa_v2_allocator *oa_v2_caching_base(oa_v2_caching_allocator *ca)
{
    return &ca->base;
}

void oa_v2_caching_destroy(oa_v2_caching_allocator *ca)
{
    if (ca == NULL) {
        return;
    }
    if (ca->stats.in_use_bytes > 0) {
        OA_LOGW("caching allocator destroyed with %zu bytes still in use", ca->stats.in_use_bytes);
    }
    for (chunk *c = ca->chunks; c != NULL;) {
        chunk *next = c->next;
        for (span *sp = c->first; sp != NULL;) {
            span *n = sp->anext;
            free(sp);
            sp = n;
        }
        munmap(c->base, c->size);
        free(c);
        c = next;
    }
    for (span *sp = ca->spare; sp != NULL;) {
        span *n = sp->fnext;
        free(sp);
        sp = n;
    }
    free(ca);
}

void oa_v2_caching_stats_get(const oa_v2_caching_allocator *ca, oa_v2_caching_stats *st)
{
    *st = ca->stats;
}

size_t oa_v2_caching_block_pages(const oa_v2_block *b)
{
    return ((const span *)(const void *)b)->pages;
}

void oa_v2_caching_fail_system_allocs(oa_v2_caching_allocator *ca, unsigned n)
{
    ca->fail_next = n;
}

/* ---- external allocator ---- */

typedef struct ext_block {
    oa_v2_block blk;
    void *handle;
} ext_block;

static oa_v2_block *ext_wrap(oa_v2_ext_allocator *ea, void *handle, size_t size)
{
    if (handle == NULL) {
        OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "the stream's external allocator returned no block for %zu bytes", size);
        return NULL;
    }
    ext_block *b = malloc(sizeof(*b));
    void *addr = ea->addr_fn != NULL ? ea->addr_fn(handle) : handle;
    if (b == NULL || addr == NULL) {
        ea->free_fn(ea->obj, handle);
        free(b);
        OA_FAIL(addr == NULL ? OA_E_GE_MEMORY_ALLOCATION : OA_E_NOMEM,
                "external allocator block of %zu bytes has no address", size);
        return NULL;
    }
    b->blk.addr = addr;
    b->blk.size = size;
    b->blk.refs = 1;
    b->blk.owner = &ea->base;
    b->handle = handle;
    return &b->blk;
}

static oa_v2_block *ext_alloc(oa_v2_allocator *a, size_t size)
{
    oa_v2_ext_allocator *ea = (oa_v2_ext_allocator *)a;
    return ext_wrap(ea, ea->alloc_fn(ea->obj, size ? size : 1), size);
}

static void ext_free(oa_v2_allocator *a, oa_v2_block *b)
{
    oa_v2_ext_allocator *ea = (oa_v2_ext_allocator *)a;
    ext_block *e = (ext_block *)b;
    ea->free_fn(ea->obj, e->handle);
    free(e);
}

void oa_v2_ext_allocator_init(oa_v2_ext_allocator *ea, void *obj, void *(*alloc_fn)(void *, size_t),
                              void (*free_fn)(void *, void *), void *(*alloc_advise_fn)(void *, size_t, void *),
                              void *(*addr_fn)(void *))
{
    ea->base.alloc = ext_alloc;
    ea->base.free = ext_free;
    ea->obj = obj;
    ea->alloc_fn = alloc_fn;
    ea->free_fn = free_fn;
    ea->alloc_advise_fn = alloc_advise_fn;
    ea->addr_fn = addr_fn;
}

oa_v2_block *oa_v2_ext_alloc_advise(oa_v2_ext_allocator *ea, size_t size, void *addr)
{
    if (ea->alloc_advise_fn == NULL) {
        return ext_alloc(&ea->base, size);
    }
    return ext_wrap(ea, ea->alloc_advise_fn(ea->obj, size ? size : 1, addr), size);
}
