/*
 * acl_cblas.h through libascendcl: CANN's argument checks (pointers, m/n/k,
 * trans types, leading dimensions, compute type) and that a GEMM without a
 * single-op model answers ACL_ERROR_OP_NOT_FOUND, as on CANN. (Results are
 * checked by test_cblas_exec and compat_tests/op.)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "acl/acl.h"
#include "acl/ops/acl_cblas.h"

static void expect_fail(aclError got, aclError want, const char *part)
{
    assert_int_equal(got, want);
    const char *m = aclGetRecentErrMsg();
    assert_non_null(m);
    if (part != NULL && strstr(m, part) == NULL) {
        fail_msg("message [%s] does not mention [%s]", m, part);
    }
}

static float g_a[64], g_b[64], g_c[64];
static const float g_alpha = 1.0f, g_beta = 0.0f;

#define GEMM(ta, tb, tc, m, n, k, al, a, lda, b, ldb, be, c, ldc, type)                                          \
    aclblasGemmEx(ta, tb, tc, m, n, k, al, a, lda, ACL_FLOAT, b, ldb, ACL_FLOAT, be, c, ldc, ACL_FLOAT, type, NULL)

static void gemm_checks_arguments(void **state)
{
    (void)state;
    const aclTransType N = ACL_TRANS_N;
    expect_fail(GEMM(N, N, N, 2, 2, 2, NULL, g_a, -1, g_b, -1, &g_beta, g_c, -1, ACL_COMPUTE_HIGH_PRECISION),
                ACL_ERROR_INVALID_PARAM, "alpha");
    expect_fail(GEMM(N, N, N, 2, 2, 2, &g_alpha, NULL, -1, g_b, -1, &g_beta, g_c, -1, ACL_COMPUTE_HIGH_PRECISION),
                ACL_ERROR_INVALID_PARAM, "matrixA");
    expect_fail(GEMM(N, N, N, 2, 2, 2, &g_alpha, g_a, -1, g_b, -1, &g_beta, NULL, -1, ACL_COMPUTE_HIGH_PRECISION),
                ACL_ERROR_INVALID_PARAM, "matrixC");
    expect_fail(GEMM(N, N, N, 0, 2, 2, &g_alpha, g_a, -1, g_b, -1, &g_beta, g_c, -1, ACL_COMPUTE_HIGH_PRECISION),
                ACL_ERROR_INVALID_PARAM, "mnk must > 0");
    expect_fail(GEMM(ACL_TRANS_NZ_T, N, N, 2, 2, 2, &g_alpha, g_a, -1, g_b, -1, &g_beta, g_c, -1,
                     ACL_COMPUTE_HIGH_PRECISION),
                ACL_ERROR_INVALID_PARAM, "transA or transB");
    expect_fail(GEMM(N, (aclTransType)-1, N, 2, 2, 2, &g_alpha, g_a, -1, g_b, -1, &g_beta, g_c, -1,
                     ACL_COMPUTE_HIGH_PRECISION),
                ACL_ERROR_INVALID_PARAM, "transA or transB");
    expect_fail(GEMM(N, N, ACL_TRANS_T, 2, 2, 2, &g_alpha, g_a, -1, g_b, -1, &g_beta, g_c, -1,
                     ACL_COMPUTE_HIGH_PRECISION),
                ACL_ERROR_INVALID_PARAM, "transC");
    expect_fail(GEMM(N, N, N, 2, 2, 2, &g_alpha, g_a, 2, g_b, -1, &g_beta, g_c, -1, ACL_COMPUTE_HIGH_PRECISION),
                ACL_ERROR_INVALID_PARAM, "only support -1");
    expect_fail(GEMM(N, N, N, 2, 2, 2, &g_alpha, g_a, -1, g_b, -1, &g_beta, g_c, 0, ACL_COMPUTE_HIGH_PRECISION),
                ACL_ERROR_INVALID_PARAM, "only support -1");
    expect_fail(GEMM(N, N, N, 2, 2, 2, &g_alpha, g_a, -1, g_b, -1, &g_beta, g_c, -1, ACL_COMPUTE_LOW_PRECISION),
                ACL_ERROR_INVALID_PARAM, "ACL_COMPUTE_HIGH_PRECISION");
    /* Gemv forwards with n = 1: incx / incy are Gemm's ldb / ldc */
    expect_fail(aclblasGemvEx(N, 2, 2, &g_alpha, g_a, -1, ACL_FLOAT, g_b, 1, ACL_FLOAT, &g_beta, g_c, -1, ACL_FLOAT,
                              ACL_COMPUTE_HIGH_PRECISION, NULL),
                ACL_ERROR_INVALID_PARAM, "only support -1");
    expect_fail(aclblasS8gemv(N, 0, 2, NULL, NULL, -1, NULL, -1, NULL, NULL, -1, ACL_COMPUTE_HIGH_PRECISION, NULL),
                ACL_ERROR_INVALID_PARAM, NULL);
}

static void handles_check_arguments(void **state)
{
    (void)state;
    aclopHandle *h = NULL;
    expect_fail(aclblasCreateHandleForGemmEx(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, 2, 2, 2, ACL_FLOAT, ACL_FLOAT,
                                             ACL_FLOAT, ACL_COMPUTE_HIGH_PRECISION, NULL),
                ACL_ERROR_INVALID_PARAM, "handle");
    expect_fail(aclblasCreateHandleForHgemm(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, 2, -1, 2,
                                            ACL_COMPUTE_HIGH_PRECISION, &h),
                ACL_ERROR_INVALID_PARAM, "mnk");
    expect_fail(aclblasCreateHandleForS8gemm(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_NZ_T, 2, 2, 2,
                                             ACL_COMPUTE_HIGH_PRECISION, &h),
                ACL_ERROR_INVALID_PARAM, "transC");
    expect_fail(aclblasCreateHandleForHgemv(ACL_TRANS_N, 2, 2, ACL_COMPUTE_LOW_PRECISION, &h), ACL_ERROR_INVALID_PARAM,
                "HIGH_PRECISION");
    expect_fail(aclblasCreateHandleForS8gemv(ACL_TRANS_N, 2, 0, ACL_COMPUTE_HIGH_PRECISION, &h),
                ACL_ERROR_INVALID_PARAM, "mnk");
    assert_null(h);
}

static void without_a_model_the_gemm_is_not_found(void **state)
{
    (void)state;
    expect_fail(GEMM(ACL_TRANS_N, ACL_TRANS_T, ACL_TRANS_N, 2, 3, 4, &g_alpha, g_a, -1, g_b, -1, &g_beta, g_c, -1,
                     ACL_COMPUTE_HIGH_PRECISION),
                ACL_ERROR_OP_NOT_FOUND, "GEMM");
    aclopHandle *h = NULL;
    expect_fail(aclblasCreateHandleForGemvEx(ACL_TRANS_T, 4, 4, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT,
                                             ACL_COMPUTE_HIGH_PRECISION, &h),
                ACL_ERROR_OP_NOT_FOUND, "GEMM");
    assert_null(h);
}

static int init(void **state)
{
    (void)state;
    if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) {
        return -1;
    }
    return 0;
}

static int fini(void **state)
{
    (void)state;
    (void)aclrtResetDevice(0);
    return aclFinalize() == ACL_SUCCESS ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gemm_checks_arguments),
        cmocka_unit_test(handles_check_arguments),
        cmocka_unit_test(without_a_model_the_gemm_is_not_found),
    };
    return cmocka_run_group_tests_name("acl_cblas api", tests, init, fini);
}
