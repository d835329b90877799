/*
 * A small string -> pointer hash map (open addressing, linear probing).
 *
 * Keys are NOT copied: the caller keeps them alive as long as the entry
 * (graphs use arena strings). Used for node names per graph and for tensor
 * names in the ONNX importer.
 */
#ifndef OA_GRAPH_STRMAP_H
#define OA_GRAPH_STRMAP_H

#include <stdbool.h>
#include <stddef.h>

#include "base/status.h"

typedef struct oa_strmap {
    const char **keys;  /* NULL = empty slot; TOMBSTONE = deleted */
    void **vals;
    size_t cap;         /* power of two or 0 */
    size_t count;       /* live entries */
    size_t used;        /* live + deleted slots */
} oa_strmap;

/* Caller-owned map: init/deinit. deinit accepts a zeroed or NULL map. */
void oa_strmap_init(oa_strmap *m);
void oa_strmap_deinit(oa_strmap *m);

/* Inserts or replaces key. OA_E_NOMEM (reported) when growing fails. */
OA_MUST_CHECK oa_status oa_strmap_put(oa_strmap *m, const char *key, void *val);

/* Value for key or NULL. */
void *oa_strmap_get(const oa_strmap *m, const char *key);
bool oa_strmap_contains(const oa_strmap *m, const char *key);

/* Removes key; true if it was present. */
bool oa_strmap_remove(oa_strmap *m, const char *key);

#endif /* OA_GRAPH_STRMAP_H */
