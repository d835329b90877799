/* om_image: read-only mapping of an .om file (failure class F1). */
#define OA_LOG_MODULE "GE"
#include "om/om_format.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error.h"
#include "base/pages.h"

oa_status oa_om_image_map_file(const char *path, oa_om_image *img)
{
    memset(img, 0, sizeof(*img));
    if (path == NULL || path[0] == '\0') {
        return OA_FAIL(OA_E_GE_MODEL_PATH, "[Check][Param] model file path is empty");
    }
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return OA_FAIL(OA_E_GE_MODEL_PATH, "[Open][File] model file %s is invalid: %s", path, strerror(errno));
    }
    struct stat sb;
    oa_status st = OA_OK;
    if (fstat(fd, &sb) != 0) {
        st = OA_FAIL(OA_E_GE_MODEL_PATH, "[Open][File] stat %s failed: %s", path, strerror(errno));
    } else if (!S_ISREG(sb.st_mode)) {
        st = OA_FAIL(OA_E_GE_MODEL_PATH, "[Open][File] model file %s is not a regular file", path);
    } else if (sb.st_size <= 0) {
        st = OA_FAIL(OA_E_GE_MODEL_PATH, "[Open][File] model file %s is empty", path);
    } else if ((uint64_t)sb.st_size > SIZE_MAX) {
        st = OA_FAIL(OA_E_GE_MODEL_PATH, "[Open][File] model file %s is too large to map", path);
    }
    if (st == OA_OK) {
        void *m = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (m == MAP_FAILED) {
            st = errno == ENOMEM
                     ? OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "[Open][File] mmap %s failed: %s", path, strerror(errno))
                     : OA_FAIL(OA_E_GE_MODEL_PATH, "[Open][File] mmap %s failed: %s", path, strerror(errno));
        } else {
            oa_pages_small(m, (size_t)sb.st_size); /* released page by page as kernels pack (base/pages.h) */
            img->map = m;
            img->map_size = (size_t)sb.st_size;
            img->data = m;
            img->size = (size_t)sb.st_size;
        }
    }
    (void)close(fd);
    return st;
}

void oa_om_image_unmap(oa_om_image *img)
{
    if (img == NULL) {
        return;
    }
    if (img->map != NULL) {
        (void)munmap(img->map, img->map_size);
    }
    memset(img, 0, sizeof(*img));
}
