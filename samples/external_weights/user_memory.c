/*
 * ext_weights_user_mem: runs a model compiled with `atc --external_weight=1`
 * (or 2) handing the runtime the application's own device memory for every
 * weight file, as an application that manages (or shares, or decrypts) its
 * weights does:
 *
 *   for each file in <model dir>/weight/ (or --weight-dir DIR):
 *       aclrtMalloc, read the file, aclrtMemcpy to the device memory,
 *       aclmdlSetExternalWeightAddress(handle, file name, memory, size)
 *   aclmdlLoadWithConfig(handle)          -> nothing is read from disk
 *   ... execute ...
 *   aclmdlUnload, then aclrtFree the weight memory (ours, never the runtime's)
 *
 *   ext_weights_user_mem [--weight-dir DIR] model.om [input.bin [output.bin]]
 *
 * The size handed over must be a multiple of 32: the memory is rounded up.
 */
#include <dirent.h>
#include <limits.h>
#include <sys/stat.h>

#include "common.h"

enum { MAX_FILES = 4096 };

typedef struct weight_mem {
    char name[256];
    void *dev;
    size_t size;
} weight_mem;

static aclError load_weights(aclmdlConfigHandle *h, const char *dir, weight_mem *w, size_t *n)
{
    DIR *d = opendir(dir);
    if (d == NULL) {
        perror(dir);
        return ACL_ERROR_INVALID_PARAM;
    }
    struct dirent *e;
    *n = 0;
    while ((e = readdir(d)) != NULL && *n < MAX_FILES) {
        char path[PATH_MAX];
        struct stat st;
        if (snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= (int)sizeof path || stat(path, &st) != 0 ||
            !S_ISREG(st.st_mode) || strlen(e->d_name) >= sizeof w->name || strcmp(e->d_name, "meta.json") == 0) {
            continue;
        }
        size_t size = 0;
        void *host = read_file(path, &size);
        if (host == NULL) {
            closedir(d);
            return ACL_ERROR_INVALID_PARAM;
        }
        size_t rounded = ((size ? size : 1) + 31) / 32 * 32;
        weight_mem *m = &w[(*n)++];
        strcpy(m->name, e->d_name);
        m->size = rounded;
        CHECK(aclrtMalloc(&m->dev, rounded, ACL_MEM_MALLOC_HUGE_FIRST));
        CHECK(aclrtMemset(m->dev, rounded, 0, rounded));
        if (size > 0) {
            CHECK(aclrtMemcpy(m->dev, rounded, host, size, ACL_MEMCPY_HOST_TO_DEVICE));
        }
        free(host);
        CHECK(aclmdlSetExternalWeightAddress(h, m->name, m->dev, m->size));
        printf("weight file %s: %zu bytes in device memory %p\n", m->name, size, m->dev);
    }
    closedir(d);
    return ACL_SUCCESS;
}

int main(int argc, char **argv)
{
    const char *weight_dir = NULL;
    int a = 1;
    if (argc > 2 && strcmp(argv[1], "--weight-dir") == 0) {
        weight_dir = argv[2];
        a = 3;
    }
    if (argc - a < 1 || argc - a > 3) {
        fprintf(stderr, "usage: %s [--weight-dir DIR] model.om [input.bin [output.bin]]\n", argv[0]);
        return 2;
    }
    const char *om = argv[a];
    const char *input = argc - a > 1 ? argv[a + 1] : NULL;
    const char *output = argc - a > 2 ? argv[a + 2] : NULL;
    char dir[PATH_MAX];
    if (weight_dir != NULL) {
        snprintf(dir, sizeof dir, "%s", weight_dir);
    } else {
        const char *slash = strrchr(om, '/');
        if (slash == NULL) {
            snprintf(dir, sizeof dir, "weight");
        } else {
            snprintf(dir, sizeof dir, "%.*s/weight", (int)(slash - om), om);
        }
    }
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    weight_mem *w = calloc(MAX_FILES, sizeof *w);
    size_t n = 0;
    aclmdlConfigHandle *h = aclmdlCreateConfigHandle();
    if (w == NULL || h == NULL || load_weights(h, dir, w, &n) != ACL_SUCCESS) {
        return 1;
    }
    size_t type = ACL_MDL_LOAD_FROM_FILE;
    CHECK(aclmdlSetConfigOpt(h, ACL_MDL_LOAD_TYPE_SIZET, &type, sizeof type));
    CHECK(aclmdlSetConfigOpt(h, ACL_MDL_PATH_PTR, &om, sizeof om));
    uint32_t id = 0;
    CHECK(aclmdlLoadWithConfig(h, &id));
    CHECK(aclmdlDestroyConfigHandle(h));
    printf("loaded %s as model %u with %zu weight file(s) in our device memory\n", om, id, n);
    aclError r = run_once(id, input, output);
    CHECK(aclmdlUnload(id));
    for (size_t i = 0; i < n; i++) {
        CHECK(aclrtFree(w[i].dev)); /* the runtime never frees these */
    }
    free(w);
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    return r == ACL_SUCCESS ? 0 : 1;
}
