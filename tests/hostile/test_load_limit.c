/*
 * Outputs whose size comes from a value (issue 18, "every allocation
 * bounded"): a few bytes of a model or of an input can ask for any size, so
 * the outputs of Expand, Tile, Pad, Upsample/Resize, ConstantOfShape (Fill),
 * Range and OneHot are bounded by the load limit ($OPENACL_LOAD_LIMIT_MB,
 * docs/model_api.md "Bounds the loader checks") and refused with
 * ACL_ERROR_GE_PARAM_INVALID and a message naming the node, instead of being
 * allocated. Models: gen_limit_models.py, converted by atc (fixture
 * limit_models).
 *   - static models (sizes in the plan): refused by aclmdlLoadFromFile and
 *     aclmdlLoadFromMem;
 *   - sizes read from an input at run time (ConstantOfShape of an input
 *     shape, Range from an input start, OneHot of an input's length): the model loads, the execution
 *     asking for too much is refused, and one within the limit runs and
 *     gives the right values;
 *   - the limit is configurable: a 4 MiB Expand loads and runs under the
 *     default limit and is refused under OPENACL_LOAD_LIMIT_MB=1.
 *
 *   test_load_limit [DIR]   (DIR, else $OA_LIMIT_DIR)
 */
#define _GNU_SOURCE
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "support/acl_fixture.h"

#include "support/acl_checks.h"

#include "acl/acl.h"

static const char *g_dir;

static const char *model_path(const char *name)
{
    static char buf[PATH_MAX];
    snprintf(buf, sizeof buf, "%s/%s.om", g_dir, name);
    return buf;
}

static void *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    const long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    void *b = malloc(n > 0 ? (size_t)n : 1);
    assert_non_null(b);
    assert_int_equal(fread(b, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return b;
}

/* Both load kinds refuse the model with the model error code and a message naming the node and the limit. */
static void expect_load_refused(const char *name, const char *node)
{
    uint32_t id = 0;
    EXPECT_ACL(aclmdlLoadFromFile(model_path(name), &id), ACL_ERROR_GE_PARAM_INVALID, node);
    EXPECT_ACL(aclmdlLoadFromFile(model_path(name), &id), ACL_ERROR_GE_PARAM_INVALID, "load limit");
    size_t len = 0;
    void *img = read_file(model_path(name), &len);
    EXPECT_ACL(aclmdlLoadFromMem(img, len, &id), ACL_ERROR_GE_PARAM_INVALID, node);
    free(img);
}

static void static_expand_refused(void **state)
{
    (void)state;
    expect_load_refused("expand_big", "big_expand");
}

static void static_tile_refused(void **state)
{
    (void)state;
    expect_load_refused("tile_big", "big_tile");
}

static void static_pad_refused(void **state)
{
    (void)state;
    expect_load_refused("pad_big", "big_pad");
}

static void static_one_hot_refused(void **state)
{
    (void)state;
    expect_load_refused("onehot_big", "big_one_hot");
}

static void static_upsample_refused(void **state)
{
    (void)state;
    expect_load_refused("upsample_big", "big_upsample");
}

/*
 * One execution with one host input of in_len bytes and one output buffer of out_cap bytes; returns the
 * execution's code and, on success, the output's element count (from its run-time tensor desc) and bytes.
 */
static aclError run_shaped(uint32_t id, const void *in, size_t in_len, int64_t in_len_dim, void *out, size_t out_cap,
                           size_t *out_elems)
{
    aclmdlDataset *din = aclmdlCreateDataset(), *dout = aclmdlCreateDataset();
    void *di = NULL, *dx = NULL;
    OK_ACL(aclrtMalloc(&di, in_len, ACL_MEM_MALLOC_HUGE_FIRST));
    OK_ACL(aclrtMalloc(&dx, out_cap, ACL_MEM_MALLOC_HUGE_FIRST));
    OK_ACL(aclrtMemcpy(di, in_len, in, in_len, ACL_MEMCPY_HOST_TO_DEVICE));
    OK_ACL(aclmdlAddDatasetBuffer(din, aclCreateDataBuffer(di, in_len)));
    OK_ACL(aclmdlAddDatasetBuffer(dout, aclCreateDataBuffer(dx, out_cap)));
    aclTensorDesc *td = NULL;
    if (in_len_dim > 0) { /* a 1-D int64 input of unknown length: its shape through the dataset */
        td = aclCreateTensorDesc(ACL_INT64, 1, &in_len_dim, ACL_FORMAT_ND);
        OK_ACL(aclmdlSetDatasetTensorDesc(din, td, 0));
    }
    const aclError e = aclmdlExecute(id, din, dout);
    aclDestroyTensorDesc(td);
    if (e == ACL_SUCCESS) {
        aclTensorDesc *d = aclmdlGetDatasetTensorDesc(dout, 0); /* set for outputs of run-time shape only */
        *out_elems = d != NULL ? aclGetTensorDescElementCount(d) : 0;
        OK_ACL(aclrtMemcpy(out, out_cap, dx, out_cap, ACL_MEMCPY_DEVICE_TO_HOST));
    }
    OK_ACL(aclDestroyDataBuffer(aclmdlGetDatasetBuffer(din, 0)));
    OK_ACL(aclDestroyDataBuffer(aclmdlGetDatasetBuffer(dout, 0)));
    OK_ACL(aclmdlDestroyDataset(din));
    OK_ACL(aclmdlDestroyDataset(dout));
    OK_ACL(aclrtFree(di));
    OK_ACL(aclrtFree(dx));
    return e;
}

static aclError run_one(uint32_t id, const void *in, size_t in_len, void *out, size_t out_cap, size_t *out_elems)
{
    return run_shaped(id, in, in_len, 0, out, out_cap, out_elems);
}

static void constant_of_shape_from_input(void **state)
{
    (void)state;
    uint32_t id = 0;
    OK_ACL(aclmdlLoadFromFile(model_path("cos_dyn"), &id));
    static float y[6];
    size_t n = 0;
    const int64_t big[2] = {65536, 65536}; /* 16 GiB of float */
    EXPECT_ACL(run_one(id, big, sizeof big, y, sizeof y, &n), ACL_ERROR_GE_PARAM_INVALID, "cos_from_input");
    const int64_t small[2] = {2, 3};
    OK_ACL(run_one(id, small, sizeof small, y, sizeof y, &n));
    assert_int_equal(n, 6);
    for (int i = 0; i < 6; i++) {
        assert_true(y[i] == 1.5f);
    }
    OK_ACL(aclmdlUnload(id));
}

static void range_from_input(void **state)
{
    (void)state;
    uint32_t id = 0;
    OK_ACL(aclmdlLoadFromFile(model_path("range_dyn"), &id));
    static int64_t y[8];
    size_t n = 0;
    const int64_t from_zero = 0; /* 10^10 int64 elements */
    EXPECT_ACL(run_one(id, &from_zero, sizeof from_zero, y, sizeof y, &n), ACL_ERROR_GE_PARAM_INVALID,
               "range_from_input");
    const int64_t near_end = 10000000000LL - 5;
    OK_ACL(run_one(id, &near_end, sizeof near_end, y, sizeof y, &n));
    assert_int_equal(n, 5);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(y[i], near_end + (int64_t)i);
    }
    OK_ACL(aclmdlUnload(id));
}

/* OneHot's depth is a value: 2^20 floats (4 MiB) per index. 300 indices are refused before anything is
 * allocated; one runs and sets its element. */
static void one_hot_from_input(void **state)
{
    (void)state;
    uint32_t id = 0;
    OK_ACL(aclmdlLoadFromFile(model_path("onehot_dyn"), &id));
    const size_t depth = (size_t)1 << 20;
    float *y = malloc(depth * sizeof(float));
    assert_non_null(y);
    size_t n = 0;
    static int64_t many[300];
    EXPECT_ACL(run_shaped(id, many, sizeof many, 300, y, depth * sizeof(float), &n), ACL_ERROR_GE_PARAM_INVALID,
               "one_hot_from_input");
    const int64_t one = 2;
    OK_ACL(run_shaped(id, &one, sizeof one, 1, y, depth * sizeof(float), &n));
    assert_int_equal(n, depth);
    for (size_t i = 0; i < depth; i++) {
        assert_true(y[i] == (i == 2 ? 1.0f : 0.0f));
    }
    free(y);
    OK_ACL(aclmdlUnload(id));
}

static void limit_is_configurable(void **state)
{
    (void)state;
    uint32_t id = 0;
    OK_ACL(aclmdlLoadFromFile(model_path("expand_4m"), &id));
    aclmdlDesc *desc = aclmdlCreateDesc();
    OK_ACL(aclmdlGetDesc(desc, id));
    assert_int_equal(aclmdlGetOutputSizeByIndex(desc, 0), 1024u * 1024u * sizeof(float));
    OK_ACL(aclmdlDestroyDesc(desc));
    float *y = malloc(1024u * 1024u * sizeof(float));
    assert_non_null(y);
    size_t n = 0;
    const float x = 2.5f;
    OK_ACL(run_one(id, &x, sizeof x, y, 1024u * 1024u * sizeof(float), &n));
    for (size_t i = 0; i < 1024u * 1024u; i++) {
        if (y[i] != 2.5f) {
            fail_msg("y[%zu] = %g", i, (double)y[i]);
        }
    }
    free(y);
    OK_ACL(aclmdlUnload(id));
    setenv("OPENACL_LOAD_LIMIT_MB", "1", 1);
    EXPECT_ACL(aclmdlLoadFromFile(model_path("expand_4m"), &id), ACL_ERROR_GE_PARAM_INVALID, "expand_4m");
    unsetenv("OPENACL_LOAD_LIMIT_MB");
}


int main(int argc, char **argv)
{
    g_dir = argc > 1 ? argv[1] : getenv("OA_LIMIT_DIR");
    if (g_dir == NULL) {
        fprintf(stderr, "usage: test_load_limit DIR\n");
        return 2;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(static_expand_refused),
        cmocka_unit_test(static_tile_refused),
        cmocka_unit_test(static_pad_refused),
        cmocka_unit_test(static_upsample_refused),
        cmocka_unit_test(constant_of_shape_from_input),
        cmocka_unit_test(range_from_input),
        cmocka_unit_test(static_one_hot_refused),
        cmocka_unit_test(one_hot_from_input),
        cmocka_unit_test(limit_is_configurable),
    };
    return cmocka_run_group_tests(tests, oa_acl_device_setup, oa_acl_device_teardown);
}
