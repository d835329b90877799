/*
 * External weights (FileConstant) through the public API:
 *   - fc.onnx (gen_fc_onnx.py: Flatten -> Gemm(W1^T, b1) -> Relu -> Gemm(W2),
 *     ResNet's classifier in small) compiled by atc with --external_weight=0,
 *     1 and 2, statically and with a dynamic batch (the V2 executor): every
 *     way of loading gives the same bits as mode 0, close to a double
 *     reference computed here from the generator's formulas;
 *   - the MatMuls read their constant b in place: with the application's
 *     weight memory, changing W1 after the load changes the next result;
 *     with a bf16 compute request on a CPU computing bf16 they are packed
 *     (in bf16) instead and it does not;
 *   - the weight manager: two models using the same files map each file
 *     once (/proc/self/maps), the mapping lives until the last unload;
 *   - the refusals of src/file_constant/README.md on gen_v1_models' fcw/
 *     models: `..` in a location (and, for the dynamic executor, any `/`:
 *     RT2's rule; V1 takes the basename as DavinciModel), a symlink leaving
 *     the weight directory, a
 *     missing or short file, an offset past the file, user memory smaller
 *     than offset + length, a size not a multiple of 32, a weight path for
 *     a model without external weights.
 *
 *   test_v1_ext_weights DIR   (DIR/ew: the atc outputs, DIR/fcw: gen_v1_models)
 */
#define _GNU_SOURCE /* mkdtemp, symlink, PATH_MAX */
#include <dirent.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "support/acl_fixture.h"

#include "support/acl_checks.h"
#include "unit/model_v1/fc_model_run.h"

#include "acl/acl.h"

static const char *g_dir;

static const char *path_of(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static const char *path_of(const char *fmt, ...)
{
    static char buf[4][PATH_MAX];
    static int k;
    k = (k + 1) % 4;
    va_list ap;
    va_start(ap, fmt);
    int n = snprintf(buf[k], sizeof buf[k], "%s/", g_dir);
    vsnprintf(buf[k] + n, sizeof buf[k] - (size_t)n, fmt, ap);
    va_end(ap);
    return buf[k];
}

/* ---- the fc model: the generator's formulas and a double reference ---- */

#define N1 40
#define MAXB 4

static double w1_at(int n, int k) { return (double)((n * 7 + k * 13) % 29 - 14) / 32.0; }
static double b1_at(int n) { return (double)(n % 5 - 2) / 4.0; }
static double w2_at(int k, int n) { return (double)((k * 11 + n * 5) % 19 - 9) / 16.0; }

/* y = relu(x W1^T * w1_scale + b1) W2 */
static void fc_ref(const float *x, int batch, double w1_scale, double *y)
{
    for (int b = 0; b < batch; b++) {
        double h[N1];
        for (int n = 0; n < N1; n++) {
            double acc = b1_at(n);
            for (int k = 0; k < K1; k++) {
                acc += (double)x[b * K1 + k] * w1_at(n, k) * w1_scale;
            }
            h[n] = acc > 0 ? acc : 0;
        }
        for (int m = 0; m < N2; m++) {
            double acc = 0;
            for (int n = 0; n < N1; n++) {
                acc += h[n] * w2_at(n, m);
            }
            y[b * N2 + m] = acc;
        }
    }
}

static void expect_near_ref(const float *y, const double *ref, int n, const char *what)
{
    for (int i = 0; i < n; i++) {
        if (fabs((double)y[i] - ref[i]) > 1e-4 * (1.0 + fabs(ref[i]))) {
            fail_msg("%s: y[%d] = %.9g, reference %.9g", what, i, (double)y[i], ref[i]);
        }
    }
}

/* Runs model id on the generator's input (dyn: the shape set on the dataset); y gets batch * N2 floats. */
static void run_fc(uint32_t id, int batch, bool dyn, float *y)
{
    float x[MAXB * K1];
    fc_input(x, batch);
    fc_run(id, batch, dyn, x, y);
}

static uint32_t load(const char *om)
{
    uint32_t id = 0;
    OK_ACL(aclmdlLoadFromFile(om, &id));
    return id;
}

/* ---- the weight files (ew/weight), found by size ---- */

typedef struct wfile {
    char name[NAME_MAX + 1];
    size_t size;
    void *dev; /* the application's copy (user memory tests) */
} wfile;

static size_t list_weights(wfile *w, size_t cap)
{
    DIR *d = opendir(path_of("ew/weight"));
    assert_non_null(d);
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && n < cap) {
        struct stat st;
        if (e->d_name[0] == '.' || stat(path_of("ew/weight/%s", e->d_name), &st) != 0 || !S_ISREG(st.st_mode)) {
            continue;
        }
        snprintf(w[n].name, sizeof w[n].name, "%s", e->d_name);
        w[n].size = (size_t)st.st_size;
        w[n].dev = NULL;
        n++;
    }
    closedir(d);
    return n;
}

static wfile *w1_file(wfile *w, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (w[i].size == (size_t)N1 * K1 * sizeof(float) && strncmp(w[i].name, "weight_", 7) == 0) {
            return &w[i];
        }
    }
    fail_msg("no weight_<sha256> file of W1's %zu bytes in ew/weight", (size_t)N1 * K1 * sizeof(float));
    return NULL;
}

/* How many mappings of files named `name` the process has. */
static int mappings_of(const char *name)
{
    FILE *f = fopen("/proc/self/maps", "r");
    assert_non_null(f);
    char line[PATH_MAX + 128];
    int n = 0;
    const size_t nl = strlen(name);
    while (fgets(line, sizeof line, f) != NULL) {
        size_t len = strcspn(line, "\n");
        line[len] = '\0';
        n += len > nl && line[len - nl - 1] == '/' && strcmp(line + len - nl, name) == 0;
    }
    fclose(f);
    return n;
}

/* ---- tests ---- */

/* Modes 0/1/2 give the same bits, close to the reference. */
static void modes_agree(void **state)
{
    (void)state;
    float x[K1], y[3][N2];
    double ref[N2];
    fc_input(x, 1);
    fc_ref(x, 1, 1.0, ref);
    const char *oms[3] = {"ew/fc.om", "ew/fc_ew1.om", "ew/fc_ew2.om"};
    for (int m = 0; m < 3; m++) {
        uint32_t id = load(path_of("%s", oms[m]));
        run_fc(id, 1, false, y[m]);
        OK_ACL(aclmdlUnload(id));
        expect_near_ref(y[m], ref, N2, oms[m]);
        assert_memory_equal(y[m], y[0], sizeof y[0]);
    }
}

static uint32_t load_user_mem(const char *om, wfile *w, size_t n)
{
    aclmdlConfigHandle *h = aclmdlCreateConfigHandle();
    assert_non_null(h);
    size_t type = ACL_MDL_LOAD_FROM_FILE;
    OK_ACL(aclmdlSetConfigOpt(h, ACL_MDL_LOAD_TYPE_SIZET, &type, sizeof type));
    OK_ACL(aclmdlSetConfigOpt(h, ACL_MDL_PATH_PTR, &om, sizeof om));
    for (size_t i = 0; i < n; i++) {
        const size_t cap = (w[i].size + 31) / 32 * 32;
        if (w[i].dev == NULL) {
            OK_ACL(aclrtMalloc(&w[i].dev, cap, ACL_MEM_MALLOC_HUGE_FIRST));
            FILE *f = fopen(path_of("ew/weight/%s", w[i].name), "rb");
            assert_non_null(f);
            char *host = calloc(1, cap);
            assert_int_equal(fread(host, 1, w[i].size, f), w[i].size);
            fclose(f);
            OK_ACL(aclrtMemcpy(w[i].dev, cap, host, cap, ACL_MEMCPY_HOST_TO_DEVICE));
            free(host);
        }
        OK_ACL(aclmdlSetExternalWeightAddress(h, w[i].name, w[i].dev, cap));
    }
    uint32_t id = 0;
    OK_ACL(aclmdlLoadWithConfig(h, &id));
    OK_ACL(aclmdlDestroyConfigHandle(h));
    return id;
}

static void free_user_mem(wfile *w, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        OK_ACL(aclrtFree(w[i].dev));
        w[i].dev = NULL;
    }
}

/* The application's weight memory is used in place by the kernels: W1 doubled after the load shows. */
static void user_memory_read_in_place(void **state)
{
    (void)state;
    wfile w[16];
    const size_t n = list_weights(w, 16);
    float x[K1], y0[N2], y[N2];
    double ref[N2];
    fc_input(x, 1);
    uint32_t id0 = load(path_of("ew/fc.om"));
    run_fc(id0, 1, false, y0);
    OK_ACL(aclmdlUnload(id0));

    uint32_t id = load_user_mem(path_of("ew/fc_ew1.om"), w, n);
    run_fc(id, 1, false, y);
    assert_memory_equal(y, y0, sizeof y);
    wfile *f1 = w1_file(w, n);
    float *w1 = f1->dev;
    for (int i = 0; i < N1 * K1; i++) {
        w1[i] *= 2.0f; /* exact */
    }
    run_fc(id, 1, false, y);
    fc_ref(x, 1, 2.0, ref);
    expect_near_ref(y, ref, N2, "W1 doubled in the application's memory after the load");
    OK_ACL(aclmdlUnload(id));
    free_user_mem(w, n);
}

/* The CPU computes a bf16 request in bf16 (docs/precision.md): AVX512-BF16 or AMX-BF16, no OPENACL_ISA cap. */
static bool cpu_computes_bf16(void)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    assert_non_null(f);
    char line[8192];
    bool has = false;
    while (!has && fgets(line, sizeof line, f) != NULL) {
        has = strncmp(line, "flags", 5) == 0 && (strstr(line, " avx512_bf16") != NULL || strstr(line, " amx_bf16") != NULL);
    }
    fclose(f);
    return has;
}

/*
 * A bf16 request packs the constant b of every Linear layer in bf16 at load, the GEMV-like ones too
 * (half the bytes each run reads), so on a CPU computing in bf16 the application's W1 is no longer
 * read in place: doubling it after the load changes nothing. Elsewhere the model runs in fp32 and
 * reads it in place as above.
 */
static void bf16_request_packs_gemv_weights(void **state)
{
    (void)state;
    if (getenv("OPENACL_ISA") != NULL) {
        skip(); /* a capped tier decides, not the CPU flags read here */
    }
    wfile w[16];
    const size_t n = list_weights(w, 16);
    float x[K1], y0[N2], y[N2];
    double ref[N2];
    fc_input(x, 1);
    uint32_t id = load_user_mem(path_of("ew/fc_bf16_ew1.om"), w, n);
    run_fc(id, 1, false, y0);
    fc_ref(x, 1, 1.0, ref);
    for (int i = 0; i < N2; i++) { /* bf16 products: within 2 % of the reference's scale */
        if (fabs((double)y0[i] - ref[i]) > 2e-2 * (1.0 + fabs(ref[i]))) {
            fail_msg("bf16 request: y[%d] = %.9g, reference %.9g", i, (double)y0[i], ref[i]);
        }
    }
    float *w1 = w1_file(w, n)->dev;
    for (int i = 0; i < N1 * K1; i++) {
        w1[i] *= 2.0f;
    }
    run_fc(id, 1, false, y);
    if (cpu_computes_bf16()) {
        assert_memory_equal(y, y0, sizeof y);
    } else {
        fc_ref(x, 1, 2.0, ref);
        expect_near_ref(y, ref, N2, "bf16 request on a CPU without bf16: W1 doubled shows");
    }
    OK_ACL(aclmdlUnload(id));
    free_user_mem(w, n);
}

/* Two models on the same files: each file mapped once, until the last unload; V1 and V2 share too. */
static void one_mapping_per_file(void **state)
{
    (void)state;
    wfile w[16];
    const size_t n = list_weights(w, 16);
    const char *w1 = w1_file(w, n)->name;
    float x[K1], y0[N2], y[N2];
    fc_input(x, 1);
    uint32_t id0 = load(path_of("ew/fc.om"));
    run_fc(id0, 1, false, y0);
    OK_ACL(aclmdlUnload(id0));
    assert_int_equal(mappings_of(w1), 0);

    uint32_t a = load(path_of("ew/fc_ew1.om"));
    assert_int_equal(mappings_of(w1), 1);
    uint32_t b = load(path_of("ew/fc_ew1.om"));
    uint32_t c = load(path_of("ew/fc_dyn_ew1.om"));
    assert_int_equal(mappings_of(w1), 1);
    OK_ACL(aclmdlUnload(a));
    assert_int_equal(mappings_of(w1), 1);
    run_fc(b, 1, false, y);
    assert_memory_equal(y, y0, sizeof y);
    OK_ACL(aclmdlUnload(b));
    assert_int_equal(mappings_of(w1), 1); /* the dynamic model still uses it */
    run_fc(c, 1, true, y);
    OK_ACL(aclmdlUnload(c));
    assert_int_equal(mappings_of(w1), 0);

    /* mode 2: one combined file, shared the same way */
    a = load(path_of("ew/fc_ew2.om"));
    b = load(path_of("ew/fc_ew2.om"));
    assert_int_equal(mappings_of("fc_ew2_weight_combined"), 1);
    OK_ACL(aclmdlUnload(a));
    assert_int_equal(mappings_of("fc_ew2_weight_combined"), 1);
    OK_ACL(aclmdlUnload(b));
    assert_int_equal(mappings_of("fc_ew2_weight_combined"), 0);
}

/* The dynamic executor (FileConstant / FileConstantUserMem in the Init graph): mode 1 = mode 0. */
static void dynamic_mode1_vs_mode0(void **state)
{
    (void)state;
    wfile w[16];
    const size_t n = list_weights(w, 16);
    uint32_t id0 = load(path_of("ew/fc_dyn.om"));
    uint32_t id1 = load(path_of("ew/fc_dyn_ew1.om"));
    uint32_t idu = load_user_mem(path_of("ew/fc_dyn_ew1.om"), w, n);
    for (int batch = 1; batch <= 3; batch += 2) {
        float x[MAXB * K1], y0[MAXB * N2], y1[MAXB * N2], yu[MAXB * N2];
        double ref[MAXB * N2];
        fc_input(x, batch);
        fc_ref(x, batch, 1.0, ref);
        run_fc(id0, batch, true, y0);
        run_fc(id1, batch, true, y1);
        run_fc(idu, batch, true, yu);
        expect_near_ref(y0, ref, batch * N2, "dynamic mode 0");
        assert_memory_equal(y1, y0, (size_t)batch * N2 * sizeof(float));
        assert_memory_equal(yu, y0, (size_t)batch * N2 * sizeof(float));
    }
    OK_ACL(aclmdlUnload(id0));
    OK_ACL(aclmdlUnload(id1));
    OK_ACL(aclmdlUnload(idu));
    free_user_mem(w, n);
}

/* fcw/ok.om: y = x + w with w = 0.25 i - 2 from fcw/weight/fcw.bin (dyn: x [-1,16], the shape on the dataset) */
static void fcw_check(uint32_t id, bool dyn)
{
    float x[16], y[16];
    for (int i = 0; i < 16; i++) {
        x[i] = (float)i;
    }
    void *dx = NULL, *dy = NULL;
    OK_ACL(aclrtMalloc(&dx, sizeof x, ACL_MEM_MALLOC_HUGE_FIRST));
    OK_ACL(aclrtMalloc(&dy, sizeof y, ACL_MEM_MALLOC_HUGE_FIRST));
    OK_ACL(aclrtMemcpy(dx, sizeof x, x, sizeof x, ACL_MEMCPY_HOST_TO_DEVICE));
    aclmdlDataset *in = aclmdlCreateDataset(), *out = aclmdlCreateDataset();
    aclDataBuffer *bx = aclCreateDataBuffer(dx, sizeof x), *by = aclCreateDataBuffer(dy, sizeof y);
    OK_ACL(aclmdlAddDatasetBuffer(in, bx));
    OK_ACL(aclmdlAddDatasetBuffer(out, by));
    if (dyn) {
        const int64_t dims[2] = {1, 16};
        aclTensorDesc *td = aclCreateTensorDesc(ACL_FLOAT, 2, dims, ACL_FORMAT_ND);
        OK_ACL(aclmdlSetDatasetTensorDesc(in, td, 0));
        aclDestroyTensorDesc(td);
    }
    OK_ACL(aclmdlExecute(id, in, out));
    OK_ACL(aclrtMemcpy(y, sizeof y, aclGetDataBufferAddr(aclmdlGetDatasetBuffer(out, 0)), sizeof y,
                       ACL_MEMCPY_DEVICE_TO_HOST));
    for (int i = 0; i < 16; i++) {
        assert_true(y[i] == (float)i + 0.25f * (float)i - 2.0f);
    }
    OK_ACL(aclDestroyDataBuffer(bx));
    OK_ACL(aclDestroyDataBuffer(by));
    OK_ACL(aclmdlDestroyDataset(in));
    OK_ACL(aclmdlDestroyDataset(out));
    OK_ACL(aclrtFree(dx));
    OK_ACL(aclrtFree(dy));
}

/* A load configuration for om: from the file, or (weight_dir: CANN allows a weight path only there) from
 * memory, the image in *image until the load returns. */
static aclmdlConfigHandle *config(const char *om, const char *weight_dir, void **image)
{
    aclmdlConfigHandle *h = aclmdlCreateConfigHandle();
    assert_non_null(h);
    size_t type = weight_dir != NULL ? ACL_MDL_LOAD_FROM_MEM : ACL_MDL_LOAD_FROM_FILE;
    OK_ACL(aclmdlSetConfigOpt(h, ACL_MDL_LOAD_TYPE_SIZET, &type, sizeof type));
    *image = NULL;
    if (weight_dir == NULL) {
        OK_ACL(aclmdlSetConfigOpt(h, ACL_MDL_PATH_PTR, &om, sizeof om));
        return h;
    }
    FILE *f = fopen(om, "rb");
    assert_non_null(f);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    size_t size = (size_t)ftell(f);
    rewind(f);
    *image = malloc(size);
    assert_non_null(*image);
    assert_int_equal(fread(*image, 1, size, f), size);
    fclose(f);
    OK_ACL(aclmdlSetConfigOpt(h, ACL_MDL_MEM_ADDR_PTR, image, sizeof *image));
    OK_ACL(aclmdlSetConfigOpt(h, ACL_MDL_MEM_SIZET, &size, sizeof size));
    OK_ACL(aclmdlSetConfigOpt(h, ACL_MDL_WEIGHT_PATH_PTR, &weight_dir, sizeof weight_dir));
    return h;
}

static void config_done(aclmdlConfigHandle *h, void *image)
{
    OK_ACL(aclmdlDestroyConfigHandle(h));
    free(image);
}

static void refusals(void **state)
{
    (void)state;
    uint32_t id = 0;
    /* the good model, and V1's basename rule for a location with a directory part (as CANN's DavinciModel) */
    id = load(path_of("fcw/ok.om"));
    fcw_check(id, false);
    OK_ACL(aclmdlUnload(id));
    id = load(path_of("fcw/sub.om"));
    fcw_check(id, false);
    OK_ACL(aclmdlUnload(id));
    /* a weight at a misaligned offset: read into a private aligned copy (10 MiB chunks), V1 and V2 */
    id = load(path_of("fcw/copy.om"));
    fcw_check(id, false);
    OK_ACL(aclmdlUnload(id));
    id = load(path_of("fcw/dyn_copy.om"));
    fcw_check(id, true);
    OK_ACL(aclmdlUnload(id));
    /* bad files: 500002 (GE's FAILED as an application sees it), naming the node */
    EXPECT_ACL(aclmdlLoadFromFile(path_of("fcw/dotdot.om"), &id), ACL_ERROR_GE_FAILURE, "..");
    EXPECT_ACL(aclmdlLoadFromFile(path_of("fcw/missing.om"), &id), ACL_ERROR_GE_FAILURE, "absent.bin");
    EXPECT_ACL(aclmdlLoadFromFile(path_of("fcw/short.om"), &id), ACL_ERROR_GE_FAILURE, "fcw_short.bin");
    EXPECT_ACL(aclmdlLoadFromFile(path_of("fcw/offset.om"), &id), ACL_ERROR_GE_FAILURE, "fcw.bin");
    /* the dynamic executor (RT2): a location must be a bare file name of the weight directory */
    id = load(path_of("fcw/dyn_ok.om"));
    fcw_check(id, true);
    OK_ACL(aclmdlUnload(id));
    EXPECT_ACL(aclmdlLoadFromFile(path_of("fcw/dyn_sub.om"), &id), ACL_ERROR_GE_FAILURE, "sub/fcw.bin");
    EXPECT_ACL(aclmdlLoadFromFile(path_of("fcw/dyn_abs.om"), &id), ACL_ERROR_GE_FAILURE, "/etc/passwd");
    EXPECT_ACL(aclmdlLoadFromFile(path_of("fcw/dyn_dotdot.om"), &id), ACL_ERROR_GE_FAILURE, "..");

    /* a symlink in the weight directory pointing outside it */
    char tmpl[] = "/tmp/oa_ew_XXXXXX";
    assert_non_null(mkdtemp(tmpl));
    char wdir[64], link[96];
    snprintf(wdir, sizeof wdir, "%s/w", tmpl);
    snprintf(link, sizeof link, "%s/fcw.bin", wdir);
    assert_int_equal(mkdir(wdir, 0700), 0);
    assert_int_equal(symlink(path_of("fcw/weight/fcw.bin"), link), 0);
    void *image = NULL;
    aclmdlConfigHandle *h = config(path_of("fcw/ok.om"), wdir, &image);
    EXPECT_ACL(aclmdlLoadWithConfig(h, &id), ACL_ERROR_GE_FAILURE, "fcw.bin");
    config_done(h, image);
    /* the same directory with a real copy loads */
    assert_int_equal(unlink(link), 0);
    FILE *src = fopen(path_of("fcw/weight/fcw.bin"), "rb"), *dst = fopen(link, "wb");
    assert_non_null(src);
    assert_non_null(dst);
    char buf[64];
    assert_int_equal(fread(buf, 1, 64, src), 64);
    assert_int_equal(fwrite(buf, 1, 64, dst), 64);
    fclose(src);
    fclose(dst);
    h = config(path_of("fcw/ok.om"), wdir, &image);
    OK_ACL(aclmdlLoadWithConfig(h, &id));
    config_done(h, image);
    fcw_check(id, false);
    OK_ACL(aclmdlUnload(id));
    /* a weight path for a model without external weights */
    h = config(path_of("ew/fc.om"), wdir, &image);
    EXPECT_ACL(aclmdlLoadWithConfig(h, &id), ACL_ERROR_GE_FAILURE, "should be empty");
    config_done(h, image);
    assert_int_equal(unlink(link), 0);
    assert_int_equal(rmdir(wdir), 0);
    assert_int_equal(rmdir(tmpl), 0);

    /* user memory: size not a multiple of 32, then smaller than offset + length */
    void *dev = NULL;
    OK_ACL(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    OK_ACL(aclrtMemcpy(dev, 64, buf, 64, ACL_MEMCPY_HOST_TO_DEVICE));
    h = config(path_of("fcw/ok.om"), NULL, &image);
    EXPECT_ACL(aclmdlSetExternalWeightAddress(h, "fcw.bin", dev, 48), ACL_ERROR_INVALID_PARAM, "32");
    EXPECT_ACL(aclmdlSetExternalWeightAddress(h, "fcw.bin", dev, 0), ACL_ERROR_INVALID_PARAM, "32");
    OK_ACL(aclmdlSetExternalWeightAddress(h, "fcw.bin", dev, 32));
    EXPECT_ACL(aclmdlLoadWithConfig(h, &id), ACL_ERROR_GE_PARAM_INVALID, "insufficient");
    config_done(h, image);
    h = config(path_of("fcw/offset.om"), NULL, &image);
    OK_ACL(aclmdlSetExternalWeightAddress(h, "fcw.bin", dev, 64)); /* offset 32 + 64 bytes > 64 */
    EXPECT_ACL(aclmdlLoadWithConfig(h, &id), ACL_ERROR_GE_PARAM_INVALID, "insufficient");
    config_done(h, image);
    /* enough user memory: used, even though the file on disk is short */
    h = config(path_of("fcw/short.om"), NULL, &image);
    OK_ACL(aclmdlSetExternalWeightAddress(h, "fcw_short.bin", dev, 64));
    OK_ACL(aclmdlLoadWithConfig(h, &id));
    config_done(h, image);
    fcw_check(id, false);
    OK_ACL(aclmdlUnload(id));
    OK_ACL(aclrtFree(dev));
}


int main(int argc, char **argv)
{
    g_dir = argc > 1 ? argv[1] : getenv("OA_V1_MODELS");
    if (g_dir == NULL) {
        fprintf(stderr, "usage: test_v1_ext_weights DIR\n");
        return 2;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(modes_agree),
        cmocka_unit_test(user_memory_read_in_place),
        cmocka_unit_test(bf16_request_packs_gemv_weights),
        cmocka_unit_test(one_mapping_per_file),
        cmocka_unit_test(dynamic_mode1_vs_mode0),
        cmocka_unit_test(refusals),
    };
    return cmocka_run_group_tests(tests, oa_acl_device_setup, oa_acl_device_teardown);
}
