/*
 * Arrays derived from a constant (a transformed or packed filter), shared by the operators made from the same
 * stable constant in the same form (kernel_internal.h, docs/memory.md "Dynamic models"). Each array carries a
 * header in front of it (its reference count and, when shared, its key); the shared ones are also in a table
 * keyed by the constant's address, its size and the form, which a mutex guards. A count reaches zero only
 * under that mutex, so a lookup never hands out an array being freed.
 */
#include "base/hash.h"
#include "base/pages.h"
#include "kernels/kernel_internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define DERIVED_FORM_MAX 256 /* bytes of the form a key keeps (oneDNN's packed layouts: a few dozen numbers) */
#define DERIVED_BUCKETS 256
#define DERIVED_HEAD 384 /* the header, in front of the array: keeps it 64-byte aligned */

typedef struct derived {
    struct derived *next; /* in its bucket (shared arrays only) */
    const void *src;
    size_t src_len, bytes;
    uint64_t hash;
    size_t refs; /* under g_lock */
    bool shared;
    size_t form_len;
    unsigned char form[DERIVED_FORM_MAX];
} derived;
_Static_assert(sizeof(derived) <= DERIVED_HEAD, "the header fits in front of the array");

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static derived *g_buckets[DERIVED_BUCKETS];
static size_t g_live, g_live_bytes; /* arrays alive, and their bytes (oa_kderived_stats) */

static derived *head_of(void *p)
{
    return (derived *)(void *)((char *)p - DERIVED_HEAD);
}

static uint64_t key_hash(const void *src, size_t src_len, const void *form, size_t form_len)
{
    uint64_t h = oa_fnv1a64(&src, sizeof src);
    h = oa_fnv1a64_update(h, &src_len, sizeof src_len);
    return oa_fnv1a64_update(h, form, form_len);
}

static derived *find_locked(uint64_t h, const void *src, size_t src_len, const void *form, size_t form_len,
                            size_t bytes)
{
    for (derived *d = g_buckets[h % DERIVED_BUCKETS]; d != NULL; d = d->next) {
        if (d->hash == h && d->src == src && d->src_len == src_len && d->bytes == bytes && d->form_len == form_len &&
            memcmp(d->form, form, form_len) == 0) {
            return d;
        }
    }
    return NULL;
}

oa_status oa_kderived_get(const oa_ktensor *src, const void *form, size_t form_len, size_t bytes,
                          oa_kderived_fill fill, void *ctx, void **out)
{
    *out = NULL;
    const size_t src_len = oa_ktensor_bytes(src);
    const bool share = src->stable && src->data != NULL && form_len <= DERIVED_FORM_MAX;
    const uint64_t h = share ? key_hash(src->data, src_len, form, form_len) : 0;
    if (share) {
        pthread_mutex_lock(&g_lock);
        derived *d = find_locked(h, src->data, src_len, form, form_len, bytes);
        if (d != NULL) {
            d->refs++;
        }
        pthread_mutex_unlock(&g_lock);
        if (d != NULL) {
            *out = (char *)d + DERIVED_HEAD;
            return OA_OK;
        }
    }
    char *mem = oa_pages_huge_alloc(DERIVED_HEAD + (bytes > 0 ? bytes : 1));
    if (mem == NULL) {
        return OA_FAIL(OA_E_NOMEM, "derived array (%zu bytes)", bytes);
    }
    derived *d = (derived *)(void *)mem;
    memset(d, 0, sizeof(*d));
    d->src = src->data;
    d->src_len = src_len;
    d->bytes = bytes;
    d->hash = h;
    d->refs = 1;
    d->form_len = share ? form_len : 0;
    if (share) {
        memcpy(d->form, form, form_len);
    }
    oa_status st = fill(ctx, mem + DERIVED_HEAD);
    if (st != OA_OK) {
        oa_pages_huge_free(mem);
        return st;
    }
    pthread_mutex_lock(&g_lock);
    derived *twin = share ? find_locked(h, src->data, src_len, form, form_len, bytes) : NULL;
    if (twin != NULL) { /* another thread made the same array meanwhile: use that one */
        twin->refs++;
    } else if (share) {
        d->shared = true;
        d->next = g_buckets[h % DERIVED_BUCKETS];
        g_buckets[h % DERIVED_BUCKETS] = d;
    }
    if (twin == NULL) {
        g_live++;
        g_live_bytes += bytes;
    }
    pthread_mutex_unlock(&g_lock);
    if (twin != NULL) {
        oa_pages_huge_free(mem);
        *out = (char *)twin + DERIVED_HEAD;
        return OA_OK;
    }
    *out = mem + DERIVED_HEAD;
    return OA_OK;
}

void oa_kderived_put(void *p)
{
    if (p == NULL) {
        return;
    }
    derived *d = head_of(p);
    pthread_mutex_lock(&g_lock);
    const bool last = --d->refs == 0;
    if (last) {
        if (d->shared) {
            for (derived **l = &g_buckets[d->hash % DERIVED_BUCKETS]; *l != NULL; l = &(*l)->next) {
                if (*l == d) {
                    *l = d->next;
                    break;
                }
            }
        }
        g_live--;
        g_live_bytes -= d->bytes;
    }
    pthread_mutex_unlock(&g_lock);
    if (last) {
        oa_pages_huge_free(d);
    }
}

void oa_kderived_stats(size_t *arrays, size_t *bytes)
{
    pthread_mutex_lock(&g_lock);
    *arrays = g_live;
    *bytes = g_live_bytes;
    pthread_mutex_unlock(&g_lock);
}
