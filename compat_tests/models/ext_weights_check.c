/*
 * ext_weights_check: one model compiled three times (atc --external_weight=0,
 * 1 and 2) must give bit-identical outputs however its weights are found:
 *   mode 0 (weights in the .om)                       aclmdlLoadFromFile
 *   mode 1, files in <dir>/weight/                    aclmdlLoadFromFile
 *   mode 2, one combined file                         aclmdlLoadFromFile
 *   mode 1, the application's device memory per file  aclmdlSetExternalWeightAddress + LoadWithConfig
 *   mode 2 from memory, ACL_MDL_WEIGHT_PATH_PTR       LoadWithConfig(FROM_MEM)
 *   mode 1 loaded twice at once (one mapping shared)
 * and the refusals carry CANN's codes:
 *   a weight directory without the files                  500002
 *   user memory smaller than the combined file            145000
 *   a weight path for a model without external weights   500002
 *
 *   ext_weights_check DIR NAME INPUT.bin
 * with DIR/NAME.om, DIR/NAME_ew1.om, DIR/NAME_ew2.om and DIR/weight/.
 */
#include <dirent.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "acl/acl.h"

#define CHECK(expr)                                                                              \
    do {                                                                                         \
        aclError ret_ = (expr);                                                                  \
        if (ret_ != ACL_SUCCESS) {                                                               \
            const char *msg_ = aclGetRecentErrMsg();                                             \
            printf("FAIL %s:%d %s -> %d (%s)\n", __FILE__, __LINE__, #expr, ret_,                \
                   msg_ != NULL ? msg_ : "<no message>");                                        \
            exit(1);                                                                             \
        }                                                                                        \
    } while (0)

#define EXPECT(expr, code)                                                                       \
    do {                                                                                         \
        aclError ret_ = (expr);                                                                  \
        if (ret_ != (aclError)(code)) {                                                          \
            const char *msg_ = aclGetRecentErrMsg();                                             \
            printf("FAIL %s:%d %s -> %d, expected %d (%s)\n", __FILE__, __LINE__, #expr, ret_,   \
                   (int)(code), msg_ != NULL ? msg_ : "<no message>");                           \
            exit(1);                                                                             \
        }                                                                                        \
        printf("  ok: %s -> %d\n", #expr, ret_);                                                 \
    } while (0)

static void *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        printf("FAIL cannot open %s\n", path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    void *b = malloc(n > 0 ? (size_t)n : 1);
    if (b == NULL || (n > 0 && fread(b, 1, (size_t)n, f) != (size_t)n)) {
        printf("FAIL cannot read %s\n", path);
        exit(1);
    }
    fclose(f);
    *size = (size_t)n;
    return b;
}

typedef struct result {
    unsigned char *bytes;
    size_t len;
} result;

/* Runs model id once on the input; all outputs one after the other. */
static result run(uint32_t id, const unsigned char *input, size_t input_len)
{
    aclmdlDesc *desc = aclmdlCreateDesc();
    CHECK(aclmdlGetDesc(desc, id));
    aclmdlDataset *in = aclmdlCreateDataset(), *out = aclmdlCreateDataset();
    size_t used = 0;
    for (size_t i = 0; i < aclmdlGetNumInputs(desc); i++) {
        size_t s = aclmdlGetInputSizeByIndex(desc, i);
        void *d;
        CHECK(aclrtMalloc(&d, s, ACL_MEM_MALLOC_HUGE_FIRST));
        if (used + s > input_len) {
            printf("FAIL the input file has %zu bytes, the model needs more\n", input_len);
            exit(1);
        }
        CHECK(aclrtMemcpy(d, s, input + used, s, ACL_MEMCPY_HOST_TO_DEVICE));
        used += s;
        CHECK(aclmdlAddDatasetBuffer(in, aclCreateDataBuffer(d, s)));
    }
    size_t total = 0;
    for (size_t i = 0; i < aclmdlGetNumOutputs(desc); i++) {
        size_t s = aclmdlGetOutputSizeByIndex(desc, i);
        void *d;
        CHECK(aclrtMalloc(&d, s, ACL_MEM_MALLOC_HUGE_FIRST));
        CHECK(aclrtMemset(d, s, 0xab, s));
        CHECK(aclmdlAddDatasetBuffer(out, aclCreateDataBuffer(d, s)));
        total += s;
    }
    CHECK(aclmdlExecute(id, in, out));
    result r = {malloc(total ? total : 1), total};
    size_t at = 0;
    for (size_t i = 0; i < aclmdlGetNumOutputs(desc); i++) {
        aclDataBuffer *b = aclmdlGetDatasetBuffer(out, i);
        size_t s = aclGetDataBufferSizeV2(b);
        CHECK(aclrtMemcpy(r.bytes + at, total - at, aclGetDataBufferAddr(b), s, ACL_MEMCPY_DEVICE_TO_HOST));
        at += s;
        CHECK(aclrtFree(aclGetDataBufferAddr(b)));
        CHECK(aclDestroyDataBuffer(b));
    }
    for (size_t i = 0; i < aclmdlGetNumInputs(desc); i++) {
        aclDataBuffer *b = aclmdlGetDatasetBuffer(in, i);
        CHECK(aclrtFree(aclGetDataBufferAddr(b)));
        CHECK(aclDestroyDataBuffer(b));
    }
    CHECK(aclmdlDestroyDataset(in));
    CHECK(aclmdlDestroyDataset(out));
    CHECK(aclmdlDestroyDesc(desc));
    return r;
}

static void same(const char *what, const result *a, const result *b)
{
    if (a->len != b->len || memcmp(a->bytes, b->bytes, a->len) != 0) {
        size_t k = 0;
        while (k < a->len && k < b->len && a->bytes[k] == b->bytes[k]) {
            k++;
        }
        printf("FAIL %s: outputs differ from mode 0 (%zu vs %zu bytes, first difference at byte %zu)\n", what,
               b->len, a->len, k);
        exit(1);
    }
    printf("  ok: %s: %zu output bytes identical to mode 0\n", what, a->len);
}

typedef struct user_mem {
    void *dev;
    size_t size;
} user_mem;

/* Every regular file of dir into device memory, registered on h. */
static size_t register_dir(aclmdlConfigHandle *h, const char *dir, user_mem *mems, size_t cap, size_t shrink)
{
    DIR *d = opendir(dir);
    if (d == NULL) {
        printf("FAIL cannot open %s\n", dir);
        exit(1);
    }
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && n < cap) {
        char p[PATH_MAX];
        struct stat st;
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        if (stat(p, &st) != 0 || !S_ISREG(st.st_mode)) {
            continue;
        }
        size_t len;
        void *host = read_file(p, &len);
        size_t size = (len + 31) / 32 * 32;
        if (shrink && size > shrink) {
            size = shrink; /* deliberately too small */
        }
        CHECK(aclrtMalloc(&mems[n].dev, size, ACL_MEM_MALLOC_HUGE_FIRST));
        CHECK(aclrtMemcpy(mems[n].dev, size, host, len < size ? len : size, ACL_MEMCPY_HOST_TO_DEVICE));
        free(host);
        mems[n].size = size;
        CHECK(aclmdlSetExternalWeightAddress(h, e->d_name, mems[n].dev, size));
        n++;
    }
    closedir(d);
    return n;
}

static void free_mems(user_mem *mems, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        CHECK(aclrtFree(mems[i].dev));
    }
}

static aclmdlConfigHandle *from_file(const char **path)
{
    aclmdlConfigHandle *h = aclmdlCreateConfigHandle();
    size_t type = ACL_MDL_LOAD_FROM_FILE;
    CHECK(aclmdlSetConfigOpt(h, ACL_MDL_LOAD_TYPE_SIZET, &type, sizeof type));
    CHECK(aclmdlSetConfigOpt(h, ACL_MDL_PATH_PTR, path, sizeof *path));
    return h;
}

static aclmdlConfigHandle *from_mem(void **image, size_t *size, const char **weight_dir)
{
    aclmdlConfigHandle *h = aclmdlCreateConfigHandle();
    size_t type = ACL_MDL_LOAD_FROM_MEM;
    CHECK(aclmdlSetConfigOpt(h, ACL_MDL_LOAD_TYPE_SIZET, &type, sizeof type));
    CHECK(aclmdlSetConfigOpt(h, ACL_MDL_MEM_ADDR_PTR, image, sizeof *image));
    CHECK(aclmdlSetConfigOpt(h, ACL_MDL_MEM_SIZET, size, sizeof *size));
    CHECK(aclmdlSetConfigOpt(h, ACL_MDL_WEIGHT_PATH_PTR, weight_dir, sizeof *weight_dir));
    return h;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        printf("usage: %s DIR NAME INPUT.bin\n", argv[0]);
        return 2;
    }
    char om0[PATH_MAX], om1[PATH_MAX], om2[PATH_MAX], wdir[PATH_MAX], empty[PATH_MAX];
    snprintf(om0, sizeof om0, "%s/%s.om", argv[1], argv[2]);
    snprintf(om1, sizeof om1, "%s/%s_ew1.om", argv[1], argv[2]);
    snprintf(om2, sizeof om2, "%s/%s_ew2.om", argv[1], argv[2]);
    snprintf(wdir, sizeof wdir, "%s/weight", argv[1]);
    snprintf(empty, sizeof empty, "%s/%s_no_weights", argv[1], argv[2]);
    mkdir(empty, 0750);
    size_t in_len;
    unsigned char *input = read_file(argv[3], &in_len);
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));

    uint32_t id0, id1, id2, id3, id4, id5;
    CHECK(aclmdlLoadFromFile(om0, &id0));
    result r0 = run(id0, input, in_len);
    CHECK(aclmdlUnload(id0));

    CHECK(aclmdlLoadFromFile(om1, &id1));
    result r1 = run(id1, input, in_len);
    same("mode 1, <model dir>/weight/", &r0, &r1);
    /* a second load of the same files while the first is loaded */
    CHECK(aclmdlLoadFromFile(om1, &id5));
    result r5 = run(id5, input, in_len);
    same("mode 1, loaded twice", &r0, &r5);
    CHECK(aclmdlUnload(id5));
    result r1b = run(id1, input, in_len);
    same("mode 1, first load after the second unloaded", &r0, &r1b);
    CHECK(aclmdlUnload(id1));

    CHECK(aclmdlLoadFromFile(om2, &id2));
    result r2 = run(id2, input, in_len);
    same("mode 2, combined file", &r0, &r2);
    CHECK(aclmdlUnload(id2));

    user_mem mems[4096];
    const char *p1 = om1;
    aclmdlConfigHandle *h = from_file(&p1);
    size_t nm = register_dir(h, wdir, mems, 4096, 0);
    CHECK(aclmdlLoadWithConfig(h, &id3));
    CHECK(aclmdlDestroyConfigHandle(h));
    result r3 = run(id3, input, in_len);
    same("mode 1, application device memory", &r0, &r3);
    CHECK(aclmdlUnload(id3));
    free_mems(mems, nm);

    size_t image_len;
    void *image = read_file(om2, &image_len);
    const char *wd = wdir;
    h = from_mem(&image, &image_len, &wd);
    CHECK(aclmdlLoadWithConfig(h, &id4));
    CHECK(aclmdlDestroyConfigHandle(h));
    result r4 = run(id4, input, in_len);
    same("mode 2 from memory, ACL_MDL_WEIGHT_PATH_PTR", &r0, &r4);
    CHECK(aclmdlUnload(id4));

    /* refusals */
    uint32_t bad;
    const char *ed = empty;
    h = from_mem(&image, &image_len, &ed);
    EXPECT(aclmdlLoadWithConfig(h, &bad), ACL_ERROR_GE_FAILURE); /* no weight files there */
    CHECK(aclmdlDestroyConfigHandle(h));
    const char *p2 = om2;
    h = from_file(&p2);
    nm = register_dir(h, wdir, mems, 4096, 64);
    EXPECT(aclmdlLoadWithConfig(h, &bad), ACL_ERROR_GE_PARAM_INVALID); /* user memory too small */
    CHECK(aclmdlDestroyConfigHandle(h));
    free_mems(mems, nm);
    free(image);
    image = read_file(om0, &image_len);
    h = from_mem(&image, &image_len, &wd);
    EXPECT(aclmdlLoadWithConfig(h, &bad), ACL_ERROR_GE_FAILURE); /* no FileConstant: no weight path */
    CHECK(aclmdlDestroyConfigHandle(h));
    free(image);

    free(r0.bytes);
    free(r1.bytes);
    free(r1b.bytes);
    free(r2.bytes);
    free(r3.bytes);
    free(r4.bytes);
    free(r5.bytes);
    free(input);
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("PASS ext_weights_check %s\n", argv[2]);
    return 0;
}
