/*
 * Reference-counted byte buffers and read-only file mappings (blob.h).
 */
#define OA_LOG_MODULE "GE"
#include "graph/blob.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error.h"
#include "base/pages.h"

struct oa_blob {
    atomic_long refs;
    const void *data;
    size_t size;
    oa_blob_release_fn release;
    void *ctx;
};

oa_blob *oa_blob_create(const void *data, size_t size, oa_blob_release_fn release, void *ctx)
{
    oa_blob *b = calloc(1, sizeof(*b));
    if (b == NULL) {
        (void)OA_FAIL(OA_E_NOMEM, "cannot allocate a blob");
        return NULL;
    }
    atomic_init(&b->refs, 1);
    b->data = data;
    b->size = size;
    b->release = release;
    b->ctx = ctx;
    return b;
}

oa_blob *oa_blob_retain(oa_blob *b)
{
    if (b != NULL) {
        atomic_fetch_add(&b->refs, 1);
    }
    return b;
}

void oa_blob_release(oa_blob *b)
{
    if (b == NULL) {
        return;
    }
    if (atomic_fetch_sub(&b->refs, 1) == 1) {
        if (b->release != NULL) {
            b->release(b->ctx, b->data, b->size);
        }
        free(b);
    }
}

const void *oa_blob_data(const oa_blob *b)
{
    return b ? b->data : NULL;
}

size_t oa_blob_size(const oa_blob *b)
{
    return b ? b->size : 0;
}

static void unmap(void *ctx, const void *data, size_t size)
{
    (void)ctx;
    if (data != NULL && size > 0) {
        munmap((void *)(uintptr_t)data, size);
    }
}

oa_status oa_blob_map_file(const char *path, oa_blob **out)
{
    *out = NULL;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return OA_FAIL(OA_E_INVALID_FILE, "cannot open file [%s]: %s", path, strerror(errno));
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return OA_FAIL(OA_E_INVALID_FILE, "[%s] is not a regular file", path);
    }
    size_t size = (size_t)st.st_size;
    void *p = NULL;
    if (size > 0) {
        p = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED) {
            int e = errno;
            close(fd);
            return OA_FAIL(OA_E_INVALID_FILE, "cannot map file [%s] (%zu bytes): %s", path, size, strerror(e));
        }
    }
    close(fd);
    oa_pages_small(p, size); /* external weights: released page by page once packed (base/pages.h) */
    oa_blob *b = oa_blob_create(p, size, unmap, NULL);
    if (b == NULL) {
        unmap(NULL, p, size);
        return OA_E_NOMEM;
    }
    *out = b;
    return OA_OK;
}
