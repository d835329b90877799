/*
 * Few-position convolutions as multi-column GEMVs (docs/kernels_conv_gemv.md).
 *
 * A single-group, non-transposed convolution whose output has at most
 * OA_KCGEMV_MAX_COLS positions (N * OH * OW: the 1-D convolutions of a
 * streaming model on one audio chunk, a classifier head on a 1x1 map) is
 * cols small dot products against the OIHW filter seen as a row-major
 * [OC x IC*KH*KW] matrix. Setup packs that matrix in channel blocks of the
 * ISA's vector width; run gathers each position's receptive field into one
 * contiguous column (the zero padding written out) and multiplies all
 * columns in one pass over the packed filter, the bias folded into the
 * accumulators. The post-op chain stays with the caller (conv.c).
 */
#ifndef OA_KERNELS_CONV_GEMV_H
#define OA_KERNELS_CONV_GEMV_H

#include "kernels/kernel_internal.h"

/* Most output positions (columns) the path takes: above it oneDNN's blocked kernels win. */
#define OA_KCGEMV_MAX_COLS 8

/* Geometry of the convolution (NCHW x, OIHW filter, NCHW y); pads are the top / left ones. */
typedef struct oa_kcgemv_shape {
    int64_t n, ic, ih, iw, oc, oh, ow, kh, kw, sh, sw, dh, dw, pt, pl;
} oa_kcgemv_shape;

typedef struct oa_kcgemv oa_kcgemv;

/*
 * Packs the filter w [oc][ic*kh*kw] and bias b [oc] (NULL: zero) when the shape suits the path, the tier in use
 * has a kernel and OPENACL_CONV_GEMV is not 0: *out is the plan, *ws_size the workspace run needs and *impl its
 * name. Otherwise OA_OK with *out NULL (the caller takes another path). OA_E_PARAM on a bad shape, OA_E_NOMEM.
 */
oa_status oa_kcgemv_create(const oa_kcgemv_shape *sh, const float *w, const float *b, oa_kcgemv **out,
                           size_t *ws_size, const char **impl);
/*
 * y = conv(x) + bias (+ add, a tensor of y's shape, when not NULL) for the plan's shape; add may alias y
 * (an in-place residual sum). ws: at least the workspace create returned.
 */
void oa_kcgemv_run(const oa_kcgemv *c, const float *x, const float *add, float *y, void *ws, oa_threadpool *pool);
/* Accepts NULL. */
void oa_kcgemv_destroy(oa_kcgemv *c);

/*
 * The ISA kernels (simd/cgemv_*.c): for channel blocks [b0, b1) of the packed filter wp
 * ([nblk][k][blk]), yt[c * ldy + o] = bias[o] + sum_i wp(o, i) * cols[c * ldc + i] for every
 * column c < ncols (<= OA_KCGEMV_MAX_COLS) and channel o of the blocks (columns may overlap: ldc < k).
 */
typedef void (*oa_kcgemv_fn)(const float *wp, int64_t k, int64_t b0, int64_t b1, const float *cols, int64_t ldc,
                             int64_t ncols, const float *bias, float *yt, int64_t ldy);
void oa_kcgemv_avx2(const float *wp, int64_t k, int64_t b0, int64_t b1, const float *cols, int64_t ldc, int64_t ncols,
                    const float *bias, float *yt, int64_t ldy);
void oa_kcgemv_avx512(const float *wp, int64_t k, int64_t b0, int64_t b1, const float *cols, int64_t ldc,
                      int64_t ncols, const float *bias, float *yt, int64_t ldy);
/* The kernel of a tier and its channel block (8 AVX2, 16 AVX-512); NULL for the baseline. */
oa_kcgemv_fn oa_kcgemv_for(oa_kisa_tier t, int64_t *blk);

#endif /* OA_KERNELS_CONV_GEMV_H */
