/*
 * acl_cblas.h on top of the single-op API, as CANN implements it: every
 * function checks its arguments, describes the GEMM op
 *
 *     inputs  a, b, c, alpha, beta      outputs  y (c's buffer)
 *     attrs   transpose_a, transpose_b  (bool: the trans type is ACL_TRANS_T)
 *
 * and calls aclopExecuteV2("GEMM", ...) (or aclopCreateHandle for the
 * CreateHandleFor* forms). So a GEMM runs only when a single-op model of it
 * is available: loaded with aclopSetModelDir / aclopLoad (atc --singleop)
 * or compiled with aclopCompile -- the CPU executor then computes
 * C = alpha * op(A) op(B) + beta * C.
 *
 * Descriptions (m, n, k of the call):
 *   A [m, k] (ACL_TRANS_T: [k, m]); B [k, n] (T: [n, k]); C [m, n]; all ND.
 *   ACL_TRANS_NZ: A FRACTAL_NZ [ceil(k/16), ceil(m/16), 16, 16] (int8:
 *   [ceil(k/32), ceil(m/16), 16, 32]); B FRACTAL_NZ [ceil(n/16), ceil(k/16),
 *   16, 16] (int8: FRACTAL_Z [ceil(k/32), ceil(n/16), 16, 32]); C FRACTAL_NZ
 *   [ceil(n/16), ceil(m/16), 16, 16].
 *   alpha, beta: one scalar description (no dims) of C's type; their
 *   buffers are 4 bytes long whatever the type, as in CANN.
 * Argument checks: pointers non-NULL; m, n, k > 0; transA/transB in
 * {N, T, NZ}; transC in {N, NZ}; lda/ldb/ldc (incx/incy) must be -1; type
 * must be ACL_COMPUTE_HIGH_PRECISION. All ACL_ERROR_INVALID_PARAM.
 * Gemv is Gemm with n = 1 (x is B [n, 1] in Gemm's k = n terms, y is C).
 */
#include <stdint.h>
#include <stdlib.h>

#include "acl/acl.h"
#include "acl/ops/acl_cblas.h"
#include "base/acl_check.h"
#include "base/log.h"

#define GEMM_INPUTS 5
#define ALPHA_BETA_SIZE 4

static int64_t ceil_div(int64_t a, int64_t b)
{
    return a == 0 ? 0 : (a - 1) / b + 1;
}

typedef struct gemm_descs {
    aclTensorDesc *a, *b, *c, *ab;
    aclopAttr *attr;
} gemm_descs;

static void descs_free(gemm_descs *g)
{
    aclDestroyTensorDesc(g->a);
    aclDestroyTensorDesc(g->b);
    aclDestroyTensorDesc(g->c);
    aclDestroyTensorDesc(g->ab);
    aclopDestroyAttr(g->attr);
}

static oa_status descs_make(aclTransType ta, aclTransType tb, aclTransType tc, int64_t m, int64_t n, int64_t k,
                            aclDataType dta, aclDataType dtb, aclDataType dtc, gemm_descs *g)
{
    int64_t da[4] = {m, k}, db[4] = {k, n}, dc[4] = {m, n};
    int nda = 2, ndb = 2, ndc = 2;
    aclFormat fa = ACL_FORMAT_ND, fb = ACL_FORMAT_ND, fc = ACL_FORMAT_ND;
    if (ta == ACL_TRANS_T) {
        da[0] = k;
        da[1] = m;
    } else if (ta == ACL_TRANS_NZ) {
        fa = ACL_FORMAT_FRACTAL_NZ;
        const int64_t r = dta == ACL_INT8 ? 32 : 16;
        da[0] = ceil_div(k, r);
        da[1] = ceil_div(m, 16);
        da[2] = 16;
        da[3] = r;
        nda = 4;
    }
    if (tb == ACL_TRANS_T) {
        db[0] = n;
        db[1] = k;
    } else if (tb == ACL_TRANS_NZ) {
        if (dtb == ACL_INT8) {
            fb = ACL_FORMAT_FRACTAL_Z;
            db[0] = ceil_div(k, 32);
            db[1] = ceil_div(n, 16);
            db[2] = 16;
            db[3] = 32;
        } else {
            fb = ACL_FORMAT_FRACTAL_NZ;
            db[0] = ceil_div(n, 16);
            db[1] = ceil_div(k, 16);
            db[2] = 16;
            db[3] = 16;
        }
        ndb = 4;
    }
    if (tc == ACL_TRANS_NZ) {
        fc = ACL_FORMAT_FRACTAL_NZ;
        dc[0] = ceil_div(n, 16);
        dc[1] = ceil_div(m, 16);
        dc[2] = 16;
        dc[3] = 16;
        ndc = 4;
    }
    g->a = aclCreateTensorDesc(dta, nda, da, fa);
    g->b = aclCreateTensorDesc(dtb, ndb, db, fb);
    g->c = aclCreateTensorDesc(dtc, ndc, dc, fc);
    g->ab = aclCreateTensorDesc(dtc, 0, NULL, ACL_FORMAT_ND);
    g->attr = aclopCreateAttr();
    if (g->a == NULL || g->b == NULL || g->c == NULL || g->ab == NULL || g->attr == NULL) {
        descs_free(g);
        return OA_FAIL(OA_E_NOMEM, "GEMM descriptions");
    }
    if (aclopSetAttrBool(g->attr, "transpose_a", ta == ACL_TRANS_T ? 1 : 0) != ACL_SUCCESS ||
        aclopSetAttrBool(g->attr, "transpose_b", tb == ACL_TRANS_T ? 1 : 0) != ACL_SUCCESS) {
        descs_free(g);
        return OA_FAIL(OA_E_NOMEM, "GEMM attributes");
    }
    return OA_OK;
}

static oa_status check_common(aclTransType ta, aclTransType tb, aclTransType tc, int m, int n, int k,
                              aclComputeType type)
{
    if (m <= 0 || n <= 0 || k <= 0) {
        return OA_FAIL(OA_E_PARAM, "[Check][Params]mnk must > 0. m = %d, n = %d, k = %d", m, n, k);
    }
    if (ta < ACL_TRANS_N || ta >= ACL_TRANS_NZ_T || tb < ACL_TRANS_N || tb >= ACL_TRANS_NZ_T) {
        return OA_FAIL(OA_E_PARAM,
                       "[Check][Params]transA or transB is error. only support ACL_TRANS_N, ACL_TRANS_T and "
                       "ACL_TRANS_NZ");
    }
    if (tc != ACL_TRANS_N && tc != ACL_TRANS_NZ) {
        return OA_FAIL(OA_E_PARAM, "[Check][Trans]transC is error, only support ACL_TRANS_N and ACL_TRANS_NZ");
    }
    (void)type;
    return OA_OK;
}

static oa_status check_type(aclComputeType type)
{
    if (type != ACL_COMPUTE_HIGH_PRECISION) {
        return OA_FAIL(OA_E_PARAM, "[Check][Type]precision type is error, only support ACL_COMPUTE_HIGH_PRECISION");
    }
    return OA_OK;
}

ACL_FUNC_VISIBILITY aclError aclblasGemmEx(aclTransType transA, aclTransType transB, aclTransType transC, int m, int n,
                                           int k, const void *alpha, const void *matrixA, int lda,
                                           aclDataType dataTypeA, const void *matrixB, int ldb,
                                           aclDataType dataTypeB, const void *beta, void *matrixC, int ldc,
                                           aclDataType dataTypeC, aclComputeType type, aclrtStream stream)
{
    ACL_REQUIRE_NOT_NULL(alpha);
    ACL_REQUIRE_NOT_NULL(beta);
    ACL_REQUIRE_NOT_NULL(matrixA);
    ACL_REQUIRE_NOT_NULL(matrixB);
    ACL_REQUIRE_NOT_NULL(matrixC);
    oa_status st = check_common(transA, transB, transC, m, n, k, type);
    if (st == OA_OK && (lda != -1 || ldb != -1 || ldc != -1)) {
        st = OA_FAIL(OA_E_PARAM,
                     "[Check][Params]lda, ldb(incx) or ldc(incy) is error, only support -1. lda = %d, ldb = %d, "
                     "ldc = %d",
                     lda, ldb, ldc);
    }
    if (st == OA_OK) {
        st = check_type(type);
    }
    if (st != OA_OK) {
        ACL_RETURN_STATUS(st);
    }
    gemm_descs g = {0};
    st = descs_make(transA, transB, transC, m, n, k, dataTypeA, dataTypeB, dataTypeC, &g);
    if (st != OA_OK) {
        ACL_RETURN_STATUS(st);
    }
    aclDataBuffer *ba = aclCreateDataBuffer((void *)(uintptr_t)matrixA, aclGetTensorDescSize(g.a));
    aclDataBuffer *bb = aclCreateDataBuffer((void *)(uintptr_t)matrixB, aclGetTensorDescSize(g.b));
    aclDataBuffer *bc = aclCreateDataBuffer(matrixC, aclGetTensorDescSize(g.c));
    aclDataBuffer *bal = aclCreateDataBuffer((void *)(uintptr_t)alpha, ALPHA_BETA_SIZE);
    aclDataBuffer *bbe = aclCreateDataBuffer((void *)(uintptr_t)beta, ALPHA_BETA_SIZE);
    aclError ret;
    if (ba == NULL || bb == NULL || bc == NULL || bal == NULL || bbe == NULL) {
        ret = oa_status_to_acl(OA_FAIL(OA_E_NOMEM, "GEMM buffers"));
    } else {
        aclTensorDesc *in_desc[GEMM_INPUTS] = {g.a, g.b, g.c, g.ab, g.ab};
        aclTensorDesc *out_desc[1] = {g.c};
        aclDataBuffer *ins[GEMM_INPUTS] = {ba, bb, bc, bal, bbe};
        aclDataBuffer *outs[1] = {bc};
        ret = aclopExecuteV2("GEMM", GEMM_INPUTS, in_desc, ins, 1, out_desc, outs, g.attr, stream);
    }
    (void)aclDestroyDataBuffer(ba);
    (void)aclDestroyDataBuffer(bb);
    (void)aclDestroyDataBuffer(bc);
    (void)aclDestroyDataBuffer(bal);
    (void)aclDestroyDataBuffer(bbe);
    descs_free(&g);
    return ret;
}

ACL_FUNC_VISIBILITY aclError aclblasCreateHandleForGemmEx(aclTransType transA, aclTransType transB,
                                                          aclTransType transC, int m, int n, int k,
                                                          aclDataType dataTypeA, aclDataType dataTypeB,
                                                          aclDataType dataTypeC, aclComputeType type,
                                                          aclopHandle **handle)
{
    ACL_REQUIRE_NOT_NULL(handle);
    oa_status st = check_common(transA, transB, transC, m, n, k, type);
    if (st == OA_OK) {
        st = check_type(type);
    }
    if (st != OA_OK) {
        ACL_RETURN_STATUS(st);
    }
    gemm_descs g = {0};
    st = descs_make(transA, transB, transC, m, n, k, dataTypeA, dataTypeB, dataTypeC, &g);
    if (st != OA_OK) {
        ACL_RETURN_STATUS(st);
    }
    const aclTensorDesc *in_desc[GEMM_INPUTS] = {g.a, g.b, g.c, g.ab, g.ab};
    const aclTensorDesc *out_desc[1] = {g.c};
    const aclError ret = aclopCreateHandle("GEMM", GEMM_INPUTS, in_desc, 1, out_desc, g.attr, handle);
    descs_free(&g);
    return ret;
}

ACL_FUNC_VISIBILITY aclError aclblasHgemm(aclTransType transA, aclTransType transB, aclTransType transC, int m, int n,
                                          int k, const aclFloat16 *alpha, const aclFloat16 *matrixA, int lda,
                                          const aclFloat16 *matrixB, int ldb, const aclFloat16 *beta,
                                          aclFloat16 *matrixC, int ldc, aclComputeType type, aclrtStream stream)
{
    return aclblasGemmEx(transA, transB, transC, m, n, k, alpha, matrixA, lda, ACL_FLOAT16, matrixB, ldb, ACL_FLOAT16,
                         beta, matrixC, ldc, ACL_FLOAT16, type, stream);
}

ACL_FUNC_VISIBILITY aclError aclblasCreateHandleForHgemm(aclTransType transA, aclTransType transB,
                                                         aclTransType transC, int m, int n, int k,
                                                         aclComputeType type, aclopHandle **handle)
{
    return aclblasCreateHandleForGemmEx(transA, transB, transC, m, n, k, ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT16, type,
                                        handle);
}

ACL_FUNC_VISIBILITY aclError aclblasS8gemm(aclTransType transA, aclTransType transB, aclTransType transC, int m, int n,
                                           int k, const int32_t *alpha, const int8_t *matrixA, int lda,
                                           const int8_t *matrixB, int ldb, const int32_t *beta, int32_t *matrixC,
                                           int ldc, aclComputeType type, aclrtStream stream)
{
    return aclblasGemmEx(transA, transB, transC, m, n, k, alpha, matrixA, lda, ACL_INT8, matrixB, ldb, ACL_INT8, beta,
                         matrixC, ldc, ACL_INT32, type, stream);
}

ACL_FUNC_VISIBILITY aclError aclblasCreateHandleForS8gemm(aclTransType transA, aclTransType transB,
                                                          aclTransType transC, int m, int n, int k,
                                                          aclComputeType type, aclopHandle **handle)
{
    return aclblasCreateHandleForGemmEx(transA, transB, transC, m, n, k, ACL_INT8, ACL_INT8, ACL_INT32, type, handle);
}

ACL_FUNC_VISIBILITY aclError aclblasGemvEx(aclTransType transA, int m, int n, const void *alpha, const void *a, int lda,
                                           aclDataType dataTypeA, const void *x, int incx, aclDataType dataTypeX,
                                           const void *beta, void *y, int incy, aclDataType dataTypeY,
                                           aclComputeType type, aclrtStream stream)
{
    return aclblasGemmEx(transA, ACL_TRANS_N, ACL_TRANS_N, m, 1, n, alpha, a, lda, dataTypeA, x, incx, dataTypeX, beta,
                         y, incy, dataTypeY, type, stream);
}

ACL_FUNC_VISIBILITY aclError aclblasCreateHandleForGemvEx(aclTransType transA, int m, int n, aclDataType dataTypeA,
                                                          aclDataType dataTypeX, aclDataType dataTypeY,
                                                          aclComputeType type, aclopHandle **handle)
{
    return aclblasCreateHandleForGemmEx(transA, ACL_TRANS_N, ACL_TRANS_N, m, 1, n, dataTypeA, dataTypeX, dataTypeY,
                                        type, handle);
}

ACL_FUNC_VISIBILITY aclError aclblasHgemv(aclTransType transA, int m, int n, const aclFloat16 *alpha,
                                          const aclFloat16 *a, int lda, const aclFloat16 *x, int incx,
                                          const aclFloat16 *beta, aclFloat16 *y, int incy, aclComputeType type,
                                          aclrtStream stream)
{
    return aclblasGemvEx(transA, m, n, alpha, a, lda, ACL_FLOAT16, x, incx, ACL_FLOAT16, beta, y, incy, ACL_FLOAT16,
                         type, stream);
}

ACL_FUNC_VISIBILITY aclError aclblasCreateHandleForHgemv(aclTransType transA, int m, int n, aclComputeType type,
                                                         aclopHandle **handle)
{
    return aclblasCreateHandleForGemvEx(transA, m, n, ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT16, type, handle);
}

ACL_FUNC_VISIBILITY aclError aclblasS8gemv(aclTransType transA, int m, int n, const int32_t *alpha, const int8_t *a,
                                           int lda, const int8_t *x, int incx, const int32_t *beta, int32_t *y,
                                           int incy, aclComputeType type, aclrtStream stream)
{
    return aclblasGemvEx(transA, m, n, alpha, a, lda, ACL_INT8, x, incx, ACL_INT8, beta, y, incy, ACL_INT32, type,
                         stream);
}

ACL_FUNC_VISIBILITY aclError aclblasCreateHandleForS8gemv(aclTransType transA, int m, int n, aclComputeType type,
                                                          aclopHandle **handle)
{
    return aclblasCreateHandleForGemvEx(transA, m, n, ACL_INT8, ACL_INT8, ACL_INT32, type, handle);
}
