/*
 * Handle registry: the set of live runtime objects (contexts, streams,
 * events, model runtime instances and their tasks, labels...), kept
 * in an open-addressing hash table keyed by address. A handle is valid only
 * while it is in the table, so stale or foreign handles are rejected without
 * ever dereferencing them; a successful look-up takes a reference.
 */
#define OA_LOG_MODULE "RUNTIME"
#include <stdlib.h>

#include "acl_rt/rt_internal.h"
#include "base/error.h"

#define TOMBSTONE ((oa_obj *)(uintptr_t)1)

static pthread_rwlock_t g_lock = PTHREAD_RWLOCK_INITIALIZER;
static oa_obj **g_slots;
static size_t g_cap;   /* power of two */
static size_t g_used;  /* live + tombstones */
static size_t g_live;
static size_t g_live_by_type[OA_OBJ_TYPE_COUNT];

void oa_obj_init(oa_obj *o, oa_obj_type type, void (*free_fn)(oa_obj *o))
{
    o->type = (uint32_t)type;
    __atomic_store_n(&o->refs, 1, __ATOMIC_RELAXED);
    o->free_fn = free_fn;
}

void oa_obj_ref(oa_obj *o)
{
    __atomic_fetch_add(&o->refs, 1, __ATOMIC_RELAXED);
}

void oa_obj_unref(oa_obj *o)
{
    if (o == NULL) {
        return;
    }
    if (__atomic_fetch_sub(&o->refs, 1, __ATOMIC_ACQ_REL) == 1) {
        o->free_fn(o);
    }
}

static size_t hash_ptr(const void *p)
{
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return (size_t)x;
}

/* Slot holding p, or SIZE_MAX. Caller holds the lock. */
static size_t find_slot(const void *p)
{
    if (g_cap == 0) {
        return SIZE_MAX;
    }
    size_t mask = g_cap - 1;
    for (size_t i = hash_ptr(p) & mask, n = 0; n < g_cap; i = (i + 1) & mask, ++n) {
        oa_obj *s = g_slots[i];
        if (s == NULL) {
            return SIZE_MAX;
        }
        if (s == p) {
            return i;
        }
    }
    return SIZE_MAX;
}

static void put_slot(oa_obj **slots, size_t cap, oa_obj *o)
{
    size_t mask = cap - 1;
    size_t i = hash_ptr(o) & mask;
    while (slots[i] != NULL && slots[i] != TOMBSTONE) {
        i = (i + 1) & mask;
    }
    slots[i] = o;
}

static bool grow(void)
{
    size_t ncap = g_cap == 0 ? 256 : g_cap;
    while ((g_live + 1) * 2 > ncap) {
        ncap *= 2;
    }
    oa_obj **n = calloc(ncap, sizeof(*n));
    if (n == NULL) {
        return false;
    }
    for (size_t i = 0; i < g_cap; ++i) {
        if (g_slots[i] != NULL && g_slots[i] != TOMBSTONE) {
            put_slot(n, ncap, g_slots[i]);
        }
    }
    free(g_slots);
    g_slots = n;
    g_cap = ncap;
    g_used = g_live;
    return true;
}

oa_status oa_registry_add(oa_obj *o)
{
    pthread_rwlock_wrlock(&g_lock);
    if ((g_used + 1) * 4 > g_cap * 3 || g_cap == 0) {
        if (!grow()) {
            pthread_rwlock_unlock(&g_lock);
            return OA_FAIL(OA_E_NOMEM, "cannot grow the handle registry");
        }
    }
    size_t mask = g_cap - 1;
    size_t i = hash_ptr(o) & mask;
    while (g_slots[i] != NULL && g_slots[i] != TOMBSTONE) {
        i = (i + 1) & mask;
    }
    if (g_slots[i] == NULL) {
        ++g_used;
    }
    g_slots[i] = o;
    ++g_live;
    if (o->type < OA_OBJ_TYPE_COUNT) {
        ++g_live_by_type[o->type];
    }
    pthread_rwlock_unlock(&g_lock);
    return OA_OK;
}

bool oa_registry_remove(oa_obj *o)
{
    pthread_rwlock_wrlock(&g_lock);
    size_t i = find_slot(o);
    if (i == SIZE_MAX) {
        pthread_rwlock_unlock(&g_lock);
        return false;
    }
    g_slots[i] = TOMBSTONE;
    --g_live;
    if (o->type < OA_OBJ_TYPE_COUNT) {
        --g_live_by_type[o->type];
    }
    pthread_rwlock_unlock(&g_lock);
    return true;
}

oa_obj *oa_registry_get(const void *handle, oa_obj_type type)
{
    if (handle == NULL) {
        return NULL;
    }
    oa_obj *found = NULL;
    pthread_rwlock_rdlock(&g_lock);
    size_t i = find_slot(handle);
    if (i != SIZE_MAX) {
        oa_obj *o = g_slots[i];
        /* Reading the type is safe: a registered object is alive. */
        if (o->type == (uint32_t)type) {
            oa_obj_ref(o);
            found = o;
        }
    }
    pthread_rwlock_unlock(&g_lock);
    return found;
}

size_t oa_registry_count(oa_obj_type type)
{
    pthread_rwlock_rdlock(&g_lock);
    size_t n = (unsigned)type < OA_OBJ_TYPE_COUNT ? g_live_by_type[type] : 0;
    pthread_rwlock_unlock(&g_lock);
    return n;
}
