/*
 * Reference-counted, immutable byte buffers that tensors can borrow from
 * instead of copying: a mapped weight file, the unpacked ONNX message that
 * holds raw_data, a caller's buffer.
 *
 * A blob starts with one reference owned by its creator. Every holder
 * calls oa_blob_release() once; the last release runs the release callback
 * (munmap, free, ...). Retain/release are atomic, so blobs may be shared
 * between graphs used on different threads.
 */
#ifndef OA_GRAPH_BLOB_H
#define OA_GRAPH_BLOB_H

#include <stddef.h>

#include "base/status.h"

typedef struct oa_blob oa_blob;

/* Called once when the last reference goes away. */
typedef void (*oa_blob_release_fn)(void *ctx, const void *data, size_t size);

/*
 * Wraps [data, data+size) with one reference. release (may be NULL) is
 * called with ctx when the last reference is dropped. Returns NULL
 * (reported, OA_E_NOMEM) when out of memory; release is then NOT called,
 * the caller still owns the bytes.
 */
oa_blob *oa_blob_create(const void *data, size_t size, oa_blob_release_fn release, void *ctx);

/*
 * Maps a whole regular file read-only. An empty file gives a blob of size 0.
 * Errors (reported): OA_E_INVALID_FILE when the file cannot be opened or is
 * not a regular file, OA_E_NOMEM.
 */
OA_MUST_CHECK oa_status oa_blob_map_file(const char *path, oa_blob **out);

/* Adds a reference and returns b. Accepts NULL. */
oa_blob *oa_blob_retain(oa_blob *b);

/* Drops a reference. Accepts NULL. */
void oa_blob_release(oa_blob *b);

const void *oa_blob_data(const oa_blob *b);
size_t oa_blob_size(const oa_blob *b);

#endif /* OA_GRAPH_BLOB_H */
