/*
 * Open-addressing string map (strmap.h). FNV-1a hashing (base/hash.h).
 */
#define OA_LOG_MODULE "GE"
#include "graph/strmap.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/hash.h"

static const char TOMBSTONE_KEY[] = "";
#define TOMBSTONE (&TOMBSTONE_KEY[0])

void oa_strmap_init(oa_strmap *m)
{
    memset(m, 0, sizeof(*m));
}

void oa_strmap_deinit(oa_strmap *m)
{
    if (m == NULL) {
        return;
    }
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof(*m));
}

static size_t find_slot(const oa_strmap *m, const char *key, bool *found)
{
    size_t mask = m->cap - 1;
    size_t i = (size_t)oa_fnv1a64_str(key) & mask;
    size_t first_free = SIZE_MAX;
    for (;;) {
        const char *k = m->keys[i];
        if (k == NULL) {
            *found = false;
            return first_free != SIZE_MAX ? first_free : i;
        }
        if (k == TOMBSTONE) {
            if (first_free == SIZE_MAX) {
                first_free = i;
            }
        } else if (strcmp(k, key) == 0) {
            *found = true;
            return i;
        }
        i = (i + 1) & mask;
    }
}

static oa_status grow(oa_strmap *m)
{
    size_t ncap = m->cap ? m->cap * 2 : 16;
    if (ncap < m->cap || ncap > SIZE_MAX / sizeof(void *)) {
        return OA_FAIL(OA_E_NOMEM, "string map too large");
    }
    const char **nk = calloc(ncap, sizeof(*nk));
    void **nv = calloc(ncap, sizeof(*nv));
    if (nk == NULL || nv == NULL) {
        free(nk);
        free(nv);
        return OA_FAIL(OA_E_NOMEM, "cannot grow a string map to %zu slots", ncap);
    }
    oa_strmap old = *m;
    m->keys = nk;
    m->vals = nv;
    m->cap = ncap;
    m->count = 0;
    m->used = 0;
    for (size_t i = 0; i < old.cap; i++) {
        if (old.keys[i] != NULL && old.keys[i] != TOMBSTONE) {
            bool found;
            size_t s = find_slot(m, old.keys[i], &found);
            m->keys[s] = old.keys[i];
            m->vals[s] = old.vals[i];
            m->count++;
            m->used++;
        }
    }
    free(old.keys);
    free(old.vals);
    return OA_OK;
}

oa_status oa_strmap_put(oa_strmap *m, const char *key, void *val)
{
    if ((m->used + 1) * 4 >= m->cap * 3) {
        oa_status st = grow(m);
        if (st != OA_OK) {
            return st;
        }
    }
    bool found;
    size_t s = find_slot(m, key, &found);
    if (!found) {
        if (m->keys[s] == NULL) {
            m->used++;
        }
        m->count++;
        m->keys[s] = key;
    }
    m->vals[s] = val;
    return OA_OK;
}

void *oa_strmap_get(const oa_strmap *m, const char *key)
{
    if (m->cap == 0 || key == NULL) {
        return NULL;
    }
    bool found;
    size_t s = find_slot(m, key, &found);
    return found ? m->vals[s] : NULL;
}

bool oa_strmap_contains(const oa_strmap *m, const char *key)
{
    if (m->cap == 0 || key == NULL) {
        return false;
    }
    bool found;
    (void)find_slot(m, key, &found);
    return found;
}

bool oa_strmap_remove(oa_strmap *m, const char *key)
{
    if (m->cap == 0) {
        return false;
    }
    bool found;
    size_t s = find_slot(m, key, &found);
    if (!found) {
        return false;
    }
    m->keys[s] = TOMBSTONE;
    m->vals[s] = NULL;
    m->count--;
    return true;
}
