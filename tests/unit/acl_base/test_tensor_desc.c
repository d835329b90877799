/* Tensor descriptions (acl_base_mdl.h): storage vs origin, getters on bad input, shape transfers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "acl/acl.h"

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

#define ASSERT_MSG() assert_non_null(aclGetRecentErrMsg())

static void create_and_getters(void **state)
{
    (void)state;
    const int64_t dims[] = {1, 3, 224, 224};
    aclTensorDesc *d = aclCreateTensorDesc(ACL_FLOAT16, 4, dims, ACL_FORMAT_NCHW);
    assert_non_null(d);
    assert_int_equal(aclGetTensorDescType(d), ACL_FLOAT16);
    assert_int_equal(aclGetTensorDescFormat(d), ACL_FORMAT_NCHW);
    assert_int_equal(aclGetTensorDescNumDims(d), 4);
    assert_int_equal(aclGetTensorDescElementCount(d), 150528);
    assert_int_equal(aclGetTensorDescSize(d), 301056);
    assert_int_equal(aclGetTensorDescDim(d, 2), 224);
    int64_t v = 0;
    assert_int_equal(aclGetTensorDescDimV2(d, 1, &v), ACL_SUCCESS);
    assert_int_equal(v, 3);
    assert_string_equal(aclGetTensorDescName(d), "");
    aclSetTensorDescName(d, "input_0");
    assert_string_equal(aclGetTensorDescName(d), "input_0");
    aclSetTensorDescName(d, NULL);
    assert_string_equal(aclGetTensorDescName(d), "");
    assert_null(aclGetTensorDescAddress(d));
    assert_null(aclGetRecentErrMsg());

    /* out of range */
    assert_int_equal(aclGetTensorDescDim(d, 4), -1);
    ASSERT_MSG();
    assert_int_equal(aclGetTensorDescDimV2(d, 4, &v), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(aclGetTensorDescDimV2(d, 0, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    aclDestroyTensorDesc(d);

    /* scalar and the "optional input" descriptor */
    aclTensorDesc *s = aclCreateTensorDesc(ACL_INT64, 0, NULL, ACL_FORMAT_ND);
    assert_non_null(s);
    assert_int_equal(aclGetTensorDescNumDims(s), 0);
    assert_int_equal(aclGetTensorDescElementCount(s), 1);
    assert_int_equal(aclGetTensorDescSize(s), 8);
    aclDestroyTensorDesc(s);
    aclTensorDesc *opt = aclCreateTensorDesc(ACL_DT_UNDEFINED, 0, NULL, ACL_FORMAT_UNDEFINED);
    assert_non_null(opt);
    assert_int_equal(aclGetTensorDescSize(opt), 0);
    aclDestroyTensorDesc(opt);
    aclDestroyTensorDesc(NULL);
}

static void bad_creation_and_null_getters(void **state)
{
    (void)state;
    const int64_t dims[] = {2};
    assert_null(aclCreateTensorDesc(ACL_FLOAT, -1, dims, ACL_FORMAT_ND));
    ASSERT_MSG();
    assert_null(aclCreateTensorDesc(ACL_FLOAT, 1, NULL, ACL_FORMAT_ND));
    ASSERT_MSG();

    assert_int_equal(aclGetTensorDescType(NULL), ACL_DT_UNDEFINED);
    ASSERT_MSG();
    assert_int_equal(aclGetTensorDescFormat(NULL), ACL_FORMAT_UNDEFINED);
    ASSERT_MSG();
    assert_int_equal(aclGetTensorDescSize(NULL), 0);
    ASSERT_MSG();
    assert_int_equal(aclGetTensorDescElementCount(NULL), 0);
    ASSERT_MSG();
    assert_int_equal(aclGetTensorDescNumDims(NULL), 0);
    ASSERT_MSG();
    assert_int_equal(aclGetTensorDescDim(NULL, 0), -1);
    ASSERT_MSG();
    int64_t v;
    assert_int_equal(aclGetTensorDescDimV2(NULL, 0, &v), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    int64_t range[2];
    assert_int_equal(aclGetTensorDescDimRange(NULL, 0, 2, range), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_string_equal(aclGetTensorDescName(NULL), "");
    aclSetTensorDescName(NULL, "x");
    ASSERT_MSG();
    assert_null(aclGetTensorDescAddress(NULL));
    ASSERT_MSG();
    assert_null(aclGetTensorDescByIndex(NULL, 0));
    ASSERT_MSG();
    assert_int_equal(aclSetTensorFormat(NULL, ACL_FORMAT_NC1HWC0), ACL_SUCCESS);
    assert_int_equal(aclSetTensorStorageFormat(NULL, ACL_FORMAT_NC1HWC0), ACL_SUCCESS);
    assert_int_equal(aclSetTensorOriginFormat(NULL, ACL_FORMAT_NC1HWC0), ACL_SUCCESS);
    assert_int_equal(aclSetTensorShape(NULL, 1, dims), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(aclSetTensorStorageShape(NULL, 1, dims), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(aclSetTensorOriginShape(NULL, 1, dims), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(aclSetTensorShapeRange(NULL, 0, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(aclSetTensorValueRange(NULL, 0, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(aclSetTensorDynamicInput(NULL, "x"), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(aclSetTensorConst(NULL, range, 8), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(aclSetTensorPlaceMent(NULL, ACL_MEMTYPE_HOST), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
}

static void storage_versus_origin(void **state)
{
    (void)state;
    const int64_t dims[] = {1, 3, 4, 4};
    aclTensorDesc *d = aclCreateTensorDesc(ACL_FLOAT16, 4, dims, ACL_FORMAT_NCHW);
    const int64_t storage[] = {1, 1, 4, 4, 16};
    assert_int_equal(aclSetTensorFormat(d, ACL_FORMAT_NC1HWC0), ACL_SUCCESS);
    assert_int_equal(aclSetTensorShape(d, 5, storage), ACL_SUCCESS);
    /* getters keep reporting the origin format and shape */
    assert_int_equal(aclGetTensorDescFormat(d), ACL_FORMAT_NCHW);
    assert_int_equal(aclGetTensorDescNumDims(d), 4);
    assert_int_equal(aclGetTensorDescElementCount(d), 48);
    assert_int_equal(aclSetTensorStorageFormat(d, ACL_FORMAT_NC1HWC0), ACL_SUCCESS);
    assert_int_equal(aclSetTensorStorageShape(d, 5, storage), ACL_SUCCESS);
    assert_int_equal(aclGetTensorDescFormat(d), ACL_FORMAT_NCHW);
    /* the origin setters change what the getters return */
    const int64_t origin[] = {1, 4, 4, 3};
    assert_int_equal(aclSetTensorOriginFormat(d, ACL_FORMAT_NHWC), ACL_SUCCESS);
    assert_int_equal(aclSetTensorOriginShape(d, 4, origin), ACL_SUCCESS);
    assert_int_equal(aclGetTensorDescFormat(d), ACL_FORMAT_NHWC);
    assert_int_equal(aclGetTensorDescDim(d, 3), 3);
    /* null dims are rejected even with zero dims; a negative count clears */
    assert_int_equal(aclSetTensorShape(d, 0, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(aclSetTensorOriginShape(d, -3, origin), ACL_SUCCESS);
    assert_int_equal(aclGetTensorDescNumDims(d), 0);
    aclDestroyTensorDesc(d);
}

static void unknown_shapes_and_overflow(void **state)
{
    (void)state;
    const int64_t rank[] = {-2};
    aclTensorDesc *d = aclCreateTensorDesc(ACL_FLOAT, 1, rank, ACL_FORMAT_ND);
    assert_true(aclGetTensorDescNumDims(d) == (size_t)ACL_UNKNOWN_RANK);
    assert_int_equal(aclGetTensorDescElementCount(d), 0);
    ASSERT_MSG();
    aclDestroyTensorDesc(d);

    const int64_t dyn[] = {-1, 3};
    d = aclCreateTensorDesc(ACL_FLOAT, 2, dyn, ACL_FORMAT_ND);
    assert_int_equal(aclGetTensorDescNumDims(d), 2);
    assert_int_equal(aclGetTensorDescSize(d), 0);
    ASSERT_MSG();
    int64_t ranges[2][ACL_TENSOR_SHAPE_RANGE_NUM] = {{1, 8}, {3, 3}};
    assert_int_equal(aclSetTensorShapeRange(d, 2, ranges), ACL_SUCCESS);
    int64_t out[2] = {0, 0};
    assert_int_equal(aclGetTensorDescDimRange(d, 0, 2, out), ACL_SUCCESS);
    assert_int_equal(out[0], 1);
    assert_int_equal(out[1], 8);
    assert_int_equal(aclGetTensorDescDimRange(d, 2, 2, out), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(aclGetTensorDescDimRange(d, 0, 1, out), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(aclGetTensorDescDimRange(d, 0, 2, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(aclSetTensorShapeRange(d, 1, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(aclSetTensorShapeRange(d, 0, NULL), ACL_SUCCESS);
    assert_int_equal(aclGetTensorDescDimRange(d, 0, 2, out), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    int64_t values[1][ACL_TENSOR_VALUE_RANGE_NUM] = {{0, 10}};
    assert_int_equal(aclSetTensorValueRange(d, 1, values), ACL_SUCCESS);
    aclDestroyTensorDesc(d);

    const int64_t huge[] = {INT64_C(1) << 40, INT64_C(1) << 30};
    d = aclCreateTensorDesc(ACL_FLOAT, 2, huge, ACL_FORMAT_ND);
    assert_int_equal(aclGetTensorDescElementCount(d), 0); /* 2^70 overflows size_t */
    ASSERT_MSG();
    aclDestroyTensorDesc(d);
    const int64_t big[] = {INT64_C(1) << 31, INT64_C(1) << 31};
    d = aclCreateTensorDesc(ACL_COMPLEX128, 2, big, ACL_FORMAT_ND);
    assert_true(aclGetTensorDescElementCount(d) == (size_t)1 << 62);
    assert_int_equal(aclGetTensorDescSize(d), 0); /* x16 bytes overflows */
    ASSERT_MSG();
    aclDestroyTensorDesc(d);
}

static void const_placement_dynamic_input(void **state)
{
    (void)state;
    const int64_t dims[] = {2};
    aclTensorDesc *d = aclCreateTensorDesc(ACL_INT32, 1, dims, ACL_FORMAT_ND);
    int32_t data[2] = {7, 9};
    assert_int_equal(aclSetTensorConst(d, data, sizeof(data)), ACL_SUCCESS);
    data[0] = 0; /* deep copy: later changes are not seen */
    assert_int_equal(aclSetTensorConst(d, data, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(aclSetTensorConst(d, NULL, 8), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    assert_int_equal(aclSetTensorPlaceMent(d, ACL_MEMTYPE_HOST), ACL_SUCCESS);
    assert_int_equal(aclSetTensorDynamicInput(d, "group0"), ACL_SUCCESS);
    assert_int_equal(aclSetTensorDynamicInput(d, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    aclDestroyTensorDesc(d);
}

static void by_index_is_pointer_arithmetic(void **state)
{
    (void)state;
    const int64_t dims[] = {2};
    aclTensorDesc *d = aclCreateTensorDesc(ACL_INT32, 1, dims, ACL_FORMAT_ND);
    assert_ptr_equal(aclGetTensorDescByIndex(d, 0), d);
    /* &desc[index]: one element past the end is a valid address to compute */
    assert_ptr_equal((const char *)aclGetTensorDescByIndex(d, 1),
                     (const char *)d + ((const char *)aclGetTensorDescByIndex(d, 1) - (const char *)d));
    assert_true((const char *)aclGetTensorDescByIndex(d, 3) - (const char *)d ==
                3 * ((const char *)aclGetTensorDescByIndex(d, 1) - (const char *)d));
    aclDestroyTensorDesc(d);
}

static void expect_trans(aclDataType dt, aclFormat src, const int64_t *dims, int n, aclFormat dst,
                         const int64_t *want, int want_n)
{
    aclTensorDesc *s = aclCreateTensorDesc(dt, n, dims, src);
    aclTensorDesc *out = NULL;
    assert_int_equal(aclTransTensorDescFormat(s, dst, &out), ACL_SUCCESS);
    assert_non_null(out);
    assert_int_equal(aclGetTensorDescNumDims(out), want_n);
    for (int i = 0; i < want_n; ++i) {
        if (aclGetTensorDescDim(out, (size_t)i) != want[i]) {
            fail_msg("dim %d: got %lld want %lld", i, (long long)aclGetTensorDescDim(out, (size_t)i),
                     (long long)want[i]);
        }
    }
    /* only the shape changes */
    assert_int_equal(aclGetTensorDescType(out), dt);
    assert_int_equal(aclGetTensorDescFormat(out), src);
    aclDestroyTensorDesc(out);
    aclDestroyTensorDesc(s);
}

static aclError trans_code(aclDataType dt, aclFormat src, const int64_t *dims, int n, aclFormat dst)
{
    aclTensorDesc *s = aclCreateTensorDesc(dt, n, dims, src);
    aclTensorDesc *out = (aclTensorDesc *)0x1;
    const aclError ret = aclTransTensorDescFormat(s, dst, &out);
    aclDestroyTensorDesc(s);
    if (ret == ACL_SUCCESS) {
        aclDestroyTensorDesc(out);
    } else {
        assert_non_null(aclGetRecentErrMsg());
    }
    return ret;
}

static void shape_transfers(void **state)
{
    (void)state;
    const int64_t nchw[] = {2, 3, 5, 7};
    expect_trans(ACL_FLOAT16, ACL_FORMAT_NCHW, nchw, 4, ACL_FORMAT_NHWC, (const int64_t[]){2, 5, 7, 3}, 4);
    expect_trans(ACL_FLOAT16, ACL_FORMAT_NCHW, nchw, 4, ACL_FORMAT_HWCN, (const int64_t[]){5, 7, 3, 2}, 4);
    const int64_t nhwc[] = {2, 5, 7, 3};
    expect_trans(ACL_FLOAT, ACL_FORMAT_NHWC, nhwc, 4, ACL_FORMAT_NCHW, (const int64_t[]){2, 3, 5, 7}, 4);
    /* NC1HWC0: C0 16 for 2/4-byte types, 32 for 1-byte types */
    const int64_t c33[] = {1, 33, 8, 8};
    expect_trans(ACL_FLOAT16, ACL_FORMAT_NCHW, c33, 4, ACL_FORMAT_NC1HWC0, (const int64_t[]){1, 3, 8, 8, 16}, 5);
    expect_trans(ACL_FLOAT, ACL_FORMAT_NCHW, c33, 4, ACL_FORMAT_NC1HWC0, (const int64_t[]){1, 3, 8, 8, 16}, 5);
    expect_trans(ACL_INT8, ACL_FORMAT_NCHW, c33, 4, ACL_FORMAT_NC1HWC0, (const int64_t[]){1, 2, 8, 8, 32}, 5);
    const int64_t nhwc33[] = {1, 8, 8, 33};
    expect_trans(ACL_FLOAT16, ACL_FORMAT_NHWC, nhwc33, 4, ACL_FORMAT_NC1HWC0, (const int64_t[]){1, 3, 8, 8, 16},
                 5);
    /* FRACTAL_Z: (C1*H*W, ceil(N/16), 16, C0) */
    const int64_t w[] = {64, 33, 3, 3};
    expect_trans(ACL_FLOAT16, ACL_FORMAT_NCHW, w, 4, ACL_FORMAT_FRACTAL_Z, (const int64_t[]){27, 4, 16, 16}, 4);
    const int64_t whwcn[] = {3, 3, 33, 64};
    expect_trans(ACL_FLOAT16, (aclFormat)16, whwcn, 4, ACL_FORMAT_FRACTAL_Z, (const int64_t[]){27, 4, 16, 16}, 4);
    const int64_t nd2[] = {33, 17}; /* (C, N) */
    expect_trans(ACL_FLOAT16, ACL_FORMAT_ND, nd2, 2, ACL_FORMAT_FRACTAL_Z, (const int64_t[]){3, 2, 16, 16}, 4);
    /* C0 from the packed format: code 5 -> C0 = 16, code 6 -> 32 */
    expect_trans(ACL_FLOAT16, ACL_FORMAT_NCHW, w, 4, (aclFormat)(ACL_FORMAT_FRACTAL_Z | (6 << 24)),
                 (const int64_t[]){18, 4, 16, 32}, 4);
    /* grouped FRACTAL_Z (groups in the sub-format): N=64, C=16, groups=4 */
    const int64_t gw[] = {64, 16, 1, 1};
    expect_trans(ACL_FLOAT16, ACL_FORMAT_NCHW, gw, 4, (aclFormat)(ACL_FORMAT_FRACTAL_Z | (4 << 8)),
                 (const int64_t[]){4, 1, 16, 16}, 4);
    /* FRACTAL_NZ: (..., ceil(W/16), ceil(H/16), 16, 16) */
    const int64_t m3[] = {4, 33, 65};
    expect_trans(ACL_FLOAT16, ACL_FORMAT_ND, m3, 3, ACL_FORMAT_FRACTAL_NZ, (const int64_t[]){4, 5, 3, 16, 16}, 5);
    const int64_t v1[] = {33};
    expect_trans(ACL_FLOAT16, ACL_FORMAT_ND, v1, 1, ACL_FORMAT_FRACTAL_NZ, (const int64_t[]){3, 1, 16, 16}, 4);
    expect_trans(ACL_INT8, ACL_FORMAT_ND, m3, 3, ACL_FORMAT_FRACTAL_NZ, (const int64_t[]){4, 3, 3, 16, 32}, 5);
    expect_trans(ACL_FLOAT16, ACL_FORMAT_NCHW, nchw, 4, ACL_FORMAT_FRACTAL_NZ,
                 (const int64_t[]){2, 3, 1, 1, 16, 16}, 6);

    /* no transfer registered (also a format to itself) */
    assert_int_equal(trans_code(ACL_FLOAT16, ACL_FORMAT_ND, nchw, 4, ACL_FORMAT_NCHW), ACL_ERROR_GE_FORMAT_INVALID);
    assert_int_equal(trans_code(ACL_FLOAT16, ACL_FORMAT_NCHW, nchw, 4, ACL_FORMAT_NCHW),
                     ACL_ERROR_GE_FORMAT_INVALID);
    assert_int_equal(trans_code(ACL_FLOAT16, ACL_FORMAT_NCHW, nchw, 4, ACL_FORMAT_NDHWC),
                     ACL_ERROR_GE_FORMAT_INVALID);
    /* registered but not derivable backwards */
    const int64_t five[] = {1, 3, 8, 8, 16};
    assert_int_equal(trans_code(ACL_FLOAT16, ACL_FORMAT_NC1HWC0, five, 5, ACL_FORMAT_NCHW),
                     ACL_ERROR_GE_FORMAT_INVALID);
    assert_int_equal(trans_code(ACL_FLOAT16, ACL_FORMAT_FRACTAL_NZ, five, 5, ACL_FORMAT_ND),
                     ACL_ERROR_GE_FORMAT_INVALID);
    /* bad shapes and data types */
    const int64_t three[] = {1, 3, 8};
    assert_int_equal(trans_code(ACL_FLOAT16, ACL_FORMAT_NCHW, three, 3, ACL_FORMAT_NC1HWC0),
                     ACL_ERROR_GE_SHAPE_INVALID);
    assert_int_equal(trans_code(ACL_FLOAT16, ACL_FORMAT_NCHW, three, 3, ACL_FORMAT_NHWC), ACL_ERROR_GE_SHAPE_INVALID);
    const int64_t neg[] = {1, -1, 8, 8};
    assert_int_equal(trans_code(ACL_FLOAT16, ACL_FORMAT_NCHW, neg, 4, ACL_FORMAT_FRACTAL_Z),
                     ACL_ERROR_GE_SHAPE_INVALID);
    assert_int_equal(trans_code(ACL_FLOAT16, ACL_FORMAT_ND, NULL, 0, ACL_FORMAT_FRACTAL_NZ),
                     ACL_ERROR_GE_SHAPE_INVALID);
    assert_int_equal(trans_code(ACL_STRING, ACL_FORMAT_NCHW, nchw, 4, ACL_FORMAT_NC1HWC0),
                     ACL_ERROR_GE_DATATYPE_INVALID);
    assert_int_equal(trans_code(ACL_DT_UNDEFINED, ACL_FORMAT_NCHW, nchw, 4, ACL_FORMAT_FRACTAL_Z),
                     ACL_ERROR_GE_DATATYPE_INVALID);
    /* ND -> FRACTAL_Z of a non 2-D shape is a GE-internal failure */
    assert_int_equal(trans_code(ACL_FLOAT16, ACL_FORMAT_ND, three, 3, ACL_FORMAT_FRACTAL_Z), ACL_ERROR_GE_FAILURE);

    aclTensorDesc *out = NULL;
    assert_int_equal(aclTransTensorDescFormat(NULL, ACL_FORMAT_NHWC, &out), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    aclTensorDesc *s = aclCreateTensorDesc(ACL_FLOAT, 4, nchw, ACL_FORMAT_NCHW);
    assert_int_equal(aclTransTensorDescFormat(s, ACL_FORMAT_NHWC, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG();
    aclDestroyTensorDesc(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(create_and_getters),
        cmocka_unit_test(bad_creation_and_null_getters),
        cmocka_unit_test(storage_versus_origin),
        cmocka_unit_test(unknown_shapes_and_overflow),
        cmocka_unit_test(const_placement_dynamic_input),
        cmocka_unit_test(by_index_is_pointer_arithmetic),
        cmocka_unit_test(shape_transfers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
