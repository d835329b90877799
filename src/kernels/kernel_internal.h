/*
 * Internals shared by the kernel families: the operator object, the
 * per-family vtable, shape helpers and the ISA-specific function tables.
 */
#ifndef OA_KERNELS_KERNEL_INTERNAL_H
#define OA_KERNELS_KERNEL_INTERNAL_H

#define OA_LOG_MODULE "KERNELS"
#include <stdint.h>
#include <string.h>

#include "base/error.h"
#include "base/run_scope.h"
#include "base/util.h"
#include "kernels/kernels.h"

/* Elements per parallel chunk for cheap elementwise work (pays for a wake-up). */
#define OA_KGRAIN_ELEMS 16384

typedef struct oa_kfamily {
    size_t params_size;
    /* Output descs from params and inputs (host inputs carry data). */
    oa_status (*infer)(const void *params, int n_in, const oa_ktensor *in, int n_out, oa_ktensor *out);
    /* Builds op->state, op->ws_size, op->impl from op->params/in/out. */
    oa_status (*setup)(oa_kop *op);
    oa_status (*run)(const oa_kop *op, const void *const *in, void *const *out, void *ws, oa_threadpool *pool);
    void (*release)(oa_kop *op); /* frees op->state; may be NULL */
    /* Whether run reads input i (false: a constant packed or copied at setup); NULL: every input. */
    bool (*reads_at_run)(const oa_kop *op, int i);
    /* true: only dtype and element count of out[0] are checked against infer */
    bool loose_out_check;
} oa_kfamily;

struct oa_kop {
    oa_kop_type type;
    const oa_kfamily *fam;
    oa_kparams params;
    bool has_params;
    int n_in, n_out;
    oa_ktensor *in, *out; /* copies of the descs; .data is only valid during setup */
    size_t ws_size;
    void *state;
    const char *impl;
    oa_kthreads thr; /* written through a const oa_kop (oa_kop_run): the operator lives on the heap */
};

/* The release of a family whose state is one malloc'd block: frees op->state. */
void oa_kop_state_free(oa_kop *op);

/* Families (one per file). */
extern const oa_kfamily oa_kfam_conv2d, oa_kfam_conv2d_transpose, oa_kfam_matmul, oa_kfam_batchnorm,
    oa_kfam_layernorm, oa_kfam_softmax, oa_kfam_binary, oa_kfam_unary, oa_kfam_select, oa_kfam_pool,
    oa_kfam_reduce, oa_kfam_cast, oa_kfam_transpose, oa_kfam_concat, oa_kfam_split, oa_kfam_slice,
    oa_kfam_gather, oa_kfam_pad, oa_kfam_tile, oa_kfam_expand, oa_kfam_fill, oa_kfam_range, oa_kfam_resize,
    oa_kfam_topk, oa_kfam_nms, oa_kfam_lstm, oa_kfam_copy, oa_kfam_reorder,
    oa_kfam_conv_ref, oa_kfam_aipp, oa_kfam_index, oa_kfam_grid_sample, oa_kfam_det,
    oa_kfam_quant;

/*
 * oa_kop_run inside a run scope (run_scope.h, fpcheck.c): the operator's deadline, the check of the IEEE
 * exception flags after the run (overflow record, saturation of the results) and the timeout report.
 */
oa_status oa_kop_run_scoped(const oa_kop *op, const void *const *in, void *const *out, void *ws, oa_threadpool *pool,
                            oa_run_scope *sc, const char *name);

/* ---- helpers (kernels.c) ---- */

static inline bool oa_kt_present(const oa_ktensor *t)
{
    return t != NULL && t->dtype != OA_KDT_UNDEFINED;
}
/* Input i if present (i < n_in and not UNDEFINED), else NULL. */
static inline const oa_ktensor *oa_kt_opt(int n_in, const oa_ktensor *in, int i)
{
    return i < n_in && oa_kt_present(&in[i]) ? &in[i] : NULL;
}
/* Normalises axis into [0, rank); false if out of range. */
static inline bool oa_kaxis_norm(int64_t axis, int rank, int *out)
{
    if (axis < -rank || axis >= rank) {
        return false;
    }
    *out = (int)(axis < 0 ? axis + rank : axis);
    return true;
}
/* Reads element i of an integer/float host tensor as int64 / double. */
int64_t oa_kt_get_i64(const oa_ktensor *t, int64_t i);
double oa_kt_get_f64(const oa_ktensor *t, int64_t i);
/* Reads a whole 1-D (or scalar) integer host tensor; fails if larger than cap or no data. */
oa_status oa_kt_read_ints(const oa_ktensor *t, const char *what, int64_t *vals, int cap, int *n);
/* Checks a desc: rank range, non-negative dims, known dtype. */
oa_status oa_kt_check(const oa_ktensor *t, const char *what);
/* Dense row-major strides (elements). */
void oa_kstrides(const oa_ktensor *t, int64_t *strides);
/* Numpy broadcast of a and b dims into out (rank = max). */
oa_status oa_kbroadcast_shape(const oa_ktensor *a, const oa_ktensor *b, oa_ktensor *out);
/* Same dims and rank. */
bool oa_ksame_dims(const oa_ktensor *a, const oa_ktensor *b);
/* Formats dims as "[1,3,224,224]" into buf. */
const char *oa_kdims_str(const oa_ktensor *t, char *buf, size_t cap);
/* Channel count of a 4-D tensor rounded up to the block. */
int64_t oa_kc_padded(int64_t c);
/* Validates an OA_KPOST chain for a family: n_add extra inputs are counted. */
oa_status oa_kpost_check(const oa_kpost_chain *post, bool allow_add, int *n_add);

/* n bytes from src to dst (no overlap); the short runs of last-axis slices and concats (2 or 4
 * floats per row) and the pixels of an NCHWc block (8 or 16 floats) as fixed-size moves the
 * compiler inlines, instead of a memcpy call each. */
static inline void oa_kmove(void *dst, const void *src, size_t n)
{
    switch (n) {
    case 4: memcpy(dst, src, 4); break;
    case 8: memcpy(dst, src, 8); break;
    case 16: memcpy(dst, src, 16); break;
    case 32: memcpy(dst, src, 32); break;
    case 64: memcpy(dst, src, 64); break;
    default: memcpy(dst, src, n); break;
    }
}

/* Applies activation `act` over n floats in place (ISA-dispatched). */
void oa_kact_apply(oa_kact act, float alpha, float beta, float *y, size_t n);
/* Applies the activations of post (OA_KPOST_ACT entries only; post may be NULL) over n floats in place. */
void oa_kpost_acts(const oa_kpost_chain *post, float *y, size_t n);
/* y[i] += r[i] then activation: residual adds in the generic epilogue path. */
void oa_kadd_inplace(float *y, const float *r, size_t n);

/* The padding lanes [valid, blk) of `pixels` pixels of one NCHWc block at y set to zero: a blocked output's
 * padding channels stay zero whatever its activations made of 0 (valid >= blk: nothing to do). */
static inline void oa_kblk_zero_lanes(float *y, int64_t pixels, int64_t blk, int64_t valid)
{
    /* 1..15 lanes (blocks of 8 or 16) as two overlapping stores of a constant size, which the compiler writes
     * inline: a memset of the variable size was a library call per pixel (2-3 % of PP-OCR cls's run) */
    const int64_t n = blk - valid;
    if (n <= 0 || n >= 16) {
        for (int64_t q = 0; n > 0 && q < pixels; q++) {
            memset(y + q * blk + valid, 0, sizeof(float) * (size_t)n);
        }
        return;
    }
    const int64_t w = n >= 8 ? 8 : n >= 4 ? 4 : n >= 2 ? 2 : 1; /* w <= n < 2 w: [0, w) and [n - w, n) cover it */
    for (int64_t q = 0; q < pixels; q++) {
        float *p = y + q * blk + valid;
        switch (w) {
        case 8: memset(p, 0, 32); memset(p + n - 8, 0, 32); break;
        case 4: memset(p, 0, 16); memset(p + n - 4, 0, 16); break;
        case 2: memset(p, 0, 8); memset(p + n - 2, 0, 8); break;
        default: p[0] = 0.0f; break;
        }
    }
}

/* Activations a kernel applies in registers before its stores (simd/acts_impl.inc): post-ops [from, n) of a
 * chain when all of them are of the kinds without a transcendental function, in order. */
enum { OA_KACTS_MAX = OA_KMAX_POST }; /* a whole chain */
typedef struct oa_kacts {
    int n;
    oa_kact kind[OA_KACTS_MAX];
    float a[OA_KACTS_MAX], b[OA_KACTS_MAX];
} oa_kacts;
/* Fills f with post-ops [from, post->n) and returns true when they can run in registers (none: n = 0). */
bool oa_kacts_from_post(const oa_kpost_chain *post, int from, oa_kacts *f);

/* A conv slice's dense NHWC output ys (soc channels, a multiple of 16, ohw pixels) to NCHWc blocks starting at y
 * (a block plane every ohw * 16 floats), plus res in y's layout when not NULL (it may be y), then acts; AVX-512F
 * (simd/nhwc_avx512.c), for the NHWC oneDNN paths of conv.c, which run only on AVX-512 tiers. */
void oa_knhwc_to_blk16_avx512(const float *ys, int64_t soc, int64_t ohw, float *y, const float *res,
                              const oa_kacts *acts);

/* exp(x) = 2^n e^r with n = round(x log2 e) and r = x - n ln 2, ln 2 = LN2_HI - LN2_LO (n * LN2_HI is exact), and
 * e^r = 1 + r + r^2 P(r) with P of degree 5 (P0 its constant term; relative error ~2e-7): the element-wise loops'
 * ew_exp and the SIMD tiers' av_exp (simd/acts_impl.inc) share them. */
#define OA_KEXP_LOG2E 1.44269504088896341f
#define OA_KEXP_LN2_HI 0.693359375f
#define OA_KEXP_LN2_LO 2.12194440e-4f
#define OA_KEXP_P5 1.9875691500E-4f
#define OA_KEXP_P4 1.3981999507E-3f
#define OA_KEXP_P3 8.3334519073E-3f
#define OA_KEXP_P2 4.1665795894E-2f
#define OA_KEXP_P1 1.6666665459E-1f
#define OA_KEXP_P0 5.0000001201E-1f

/* ---- ISA-dispatched elementwise primitives (simd/ew_*.c) ---- */

typedef struct oa_kew_table {
    /* unary f32: y[i] = f(x[i]) with params p[0..4] (alpha, beta, base, scale, shift) */
    void (*unary[OA_KUN_COUNT])(const float *x, float *y, size_t n, const float *p);
    /* binary f32 arith: mode 0 vv, 1 vs (b scalar), 2 sv (a scalar) */
    void (*binary[OA_KBIN_PRELU + 1][3])(const float *a, const float *b, float *y, size_t n);
    /* activations for epilogues */
    void (*act[OA_KACT_COUNT])(float *y, size_t n, float alpha, float beta);
    /* y = x * s + t (BatchNorm, per channel constant s, t) */
    void (*scale_shift)(const float *x, float *y, size_t n, float s, float t);
    /* NCHWc per-channel variants: x [n][c] rows, s/t vectors of c (block) */
    void (*scale_shift_blk)(const float *x, float *y, size_t rows, const float *s, const float *t, int c);
    float (*sum)(const float *x, size_t n);
    float (*max)(const float *x, size_t n);
    /* softmax row helpers: y = exp(x - m), returns sum */
    float (*exp_sub_sum)(const float *x, float *y, size_t n, float m);
    void (*scale)(float *y, size_t n, float s);
    /* one LayerNorm row of d: y = (x - mean) / sqrt(var + eps) * g (+ b when b is not NULL); returns the
     * row's mean and (biased) variance in *mean, *var */
    void (*layernorm_row)(const float *x, float *y, size_t d, const float *g, const float *b, float eps, float *mean,
                          float *var);
    /* pooling: acc = max(acc, x) (a NaN in x skipped) or acc += x over n floats */
    void (*pool_rows)(float *acc, const float *x, size_t n, int max);
    /* one output row of kw-wide windows (stride sw, left pad pl) over a reduced row t of w pixels x cb
     * (1, 8 or 16) lanes: each of the ow outputs gets the max or the sum of its taps inside [0, w) */
    void (*pool_win)(const float *t, float *o, int64_t w, int64_t ow, int64_t kw, int64_t sw, int64_t pl, int64_t cb,
                     int max);
    /* max pooling of one NCHWc plane (h x w pixels of cb = 8 or 16 lanes) into oh x ow, each output straight
     * from its kh x kw taps inside the plane (pt / pl: top / left pads); a NaN in x is skipped */
    void (*pool_max_blk)(const float *x, float *y, int64_t h, int64_t w, int64_t oh, int64_t ow, int64_t kh,
                         int64_t kw, int64_t sh, int64_t sw, int64_t pt, int64_t pl, int64_t cb);
} oa_kew_table;

/* The table of the tier in use (picked once), and the table a tier would use (tests call each). */
const oa_kew_table *oa_kew(void);
const oa_kew_table *oa_kew_for(oa_kisa_tier t);
extern const oa_kew_table oa_kew_ref, oa_kew_avx2, oa_kew_avx512;

/*
 * NCHW <-> NCHWc moves of one channel block: x holds nc (<= blk) channel rows
 * of hw floats, y holds hw pixels of blk floats (padding lanes written as 0 by
 * pack). unpack adds `add` (x's layout) when not NULL. ISA-dispatched.
 */
void oa_kblk_pack(const float *x, int64_t nc, int64_t hw, float *y, int64_t blk);
void oa_kblk_unpack(const float *y, int64_t nc, int64_t hw, float *x, int64_t blk, const float *add);
/* The same from nc channel rows of n floats that are xs floats apart (a band of rows of NCHW planes). */
void oa_kblk_pack_rows(const float *x, int64_t nc, int64_t n, int64_t xs, float *y, int64_t blk);
void oa_kblk_pack_rows_ref(const float *x, int64_t nc, int64_t n, int64_t xs, float *y, int64_t blk);
void oa_kblk_pack_rows_avx2(const float *x, int64_t nc, int64_t n, int64_t xs, float *y, int64_t blk);
void oa_kblk_pack_rows_avx512(const float *x, int64_t nc, int64_t n, int64_t xs, float *y, int64_t blk);
void oa_kblk_pack_ref(const float *x, int64_t nc, int64_t hw, float *y, int64_t blk);
void oa_kblk_unpack_ref(const float *y, int64_t nc, int64_t hw, float *x, int64_t blk, const float *add);
void oa_kblk_pack_avx2(const float *x, int64_t nc, int64_t hw, float *y, int64_t blk);
void oa_kblk_unpack_avx2(const float *y, int64_t nc, int64_t hw, float *x, int64_t blk, const float *add);
void oa_kblk_pack_avx512(const float *x, int64_t nc, int64_t hw, float *y, int64_t blk);
void oa_kblk_unpack_avx512(const float *y, int64_t nc, int64_t hw, float *x, int64_t blk, const float *add);
typedef void (*oa_kblk_pack_fn)(const float *x, int64_t nc, int64_t hw, float *y, int64_t blk);
typedef void (*oa_kblk_unpack_fn)(const float *y, int64_t nc, int64_t hw, float *x, int64_t blk, const float *add);
/* The block moves a tier would use (tests call each; oa_kblk_pack/unpack use the tier in use). */
oa_kblk_pack_fn oa_kblk_pack_for(oa_kisa_tier t);
typedef void (*oa_kblk_pack_rows_fn)(const float *x, int64_t nc, int64_t n, int64_t xs, float *y, int64_t blk);
oa_kblk_pack_rows_fn oa_kblk_pack_rows_for(oa_kisa_tier t);
oa_kblk_unpack_fn oa_kblk_unpack_for(oa_kisa_tier t);

/* y[c * ys + r] = x[r * xs + c] (r < rows, c < cols), 4-byte elements bit for bit; ISA-dispatched
 * like the block moves (8x8 register tiles from AVX2). */
typedef void (*oa_kt2d_fn)(const uint32_t *x, int64_t xs, int64_t rows, int64_t cols, uint32_t *y, int64_t ys);
void oa_kt2d_ref(const uint32_t *x, int64_t xs, int64_t rows, int64_t cols, uint32_t *y, int64_t ys);
void oa_kt2d_avx2(const uint32_t *x, int64_t xs, int64_t rows, int64_t cols, uint32_t *y, int64_t ys);
void oa_kt2d_avx512(const uint32_t *x, int64_t xs, int64_t rows, int64_t cols, uint32_t *y, int64_t ys);
oa_kt2d_fn oa_kt2d_for(oa_kisa_tier t);
/* Blocks to channels-last rows (Transpose of a blocked tensor; simd/reorder_impl.inc says how). */
typedef void (*oa_kblk_to_rows_fn)(const float *x, int64_t xs, int64_t blk, int64_t c, int64_t np, float *y, int64_t k,
                                   int64_t gs);
void oa_kblk_to_rows_ref(const float *x, int64_t xs, int64_t blk, int64_t c, int64_t np, float *y, int64_t k,
                         int64_t gs);
void oa_kblk_to_rows_avx2(const float *x, int64_t xs, int64_t blk, int64_t c, int64_t np, float *y, int64_t k,
                          int64_t gs);
void oa_kblk_to_rows_avx512(const float *x, int64_t xs, int64_t blk, int64_t c, int64_t np, float *y, int64_t k,
                            int64_t gs);
oa_kblk_to_rows_fn oa_kblk_to_rows_for(oa_kisa_tier t);

/* y[r] += A[r,:] . x for a row-major rows x k matrix (small recurrent GEMVs). */
void oa_kgemv_avx2(const float *A, int64_t rows, int64_t k, const float *x, float *y);
void oa_kgemv_avx512(const float *A, int64_t rows, int64_t k, const float *x, float *y);
typedef void (*oa_kgemv_fn)(const float *A, int64_t rows, int64_t k, const float *x, float *y);
/* The GEMV of a tier; NULL for the baseline (callers run their scalar loop). */
oa_kgemv_fn oa_kgemv_for(oa_kisa_tier t);

/* NCHW 1x1 convolution of a chunk of np pixels (simd/pl1x1_impl.inc has the contract); NULL for the baseline. */
typedef void (*oa_kpl1x1_fn)(const float *w, const float *bias, bool acc, int64_t oc, int64_t ic, const float *x,
                             int64_t ldx, float *y, int64_t ldy, int64_t np, const oa_kacts *acts);
void oa_kpl1x1_avx2(const float *w, const float *bias, bool acc, int64_t oc, int64_t ic, const float *x, int64_t ldx,
                    float *y, int64_t ldy, int64_t np, const oa_kacts *acts);
void oa_kpl1x1_avx512(const float *w, const float *bias, bool acc, int64_t oc, int64_t ic, const float *x,
                      int64_t ldx, float *y, int64_t ldy, int64_t np, const oa_kacts *acts);
oa_kpl1x1_fn oa_kpl1x1_for(oa_kisa_tier t);

/* NCHW depthwise convolution of one channel's padded plane (simd/dwpl_impl.inc has the contract); NULL for the
 * baseline. */
typedef void (*oa_kdwpl_fn)(const float *xp, int64_t iwp, const float *w, float bias, bool acc, int64_t kh,
                            int64_t kw, int64_t s, float *y, int64_t oh, int64_t ow, const oa_kacts *acts);
void oa_kdwpl_avx2(const float *xp, int64_t iwp, const float *w, float bias, bool acc, int64_t kh, int64_t kw,
                   int64_t s, float *y, int64_t oh, int64_t ow, const oa_kacts *acts);
void oa_kdwpl_avx512(const float *xp, int64_t iwp, const float *w, float bias, bool acc, int64_t kh, int64_t kw,
                     int64_t s, float *y, int64_t oh, int64_t ow, const oa_kacts *acts);
oa_kdwpl_fn oa_kdwpl_for(oa_kisa_tier t);

/* Transposed 2x2 / stride-2 convolution of one input row, written directly
 * (simd/deconv_impl.inc has the contract); NULL for the baseline (conv.c then
 * runs it as a 1x1 convolution and a scatter). */
typedef void (*oa_kdeconv2x2_fn)(const float *x, int64_t ic, int64_t ihw, int64_t iw, const float *wq, int64_t co0,
                                 int64_t co1, const float *bias, float *y, int64_t ohw, int64_t ow);
void oa_kdeconv2x2_avx2(const float *x, int64_t ic, int64_t ihw, int64_t iw, const float *wq, int64_t co0,
                        int64_t co1, const float *bias, float *y, int64_t ohw, int64_t ow);
void oa_kdeconv2x2_avx512(const float *x, int64_t ic, int64_t ihw, int64_t iw, const float *wq, int64_t co0,
                          int64_t co1, const float *bias, float *y, int64_t ohw, int64_t ow);
oa_kdeconv2x2_fn oa_kdeconv2x2_for(oa_kisa_tier t);

/* Convolution from a plain x with few input channels into one channel block of an NCHWc y, one
 * output row (simd/stem_impl.inc has the contract); the block width is the tier's vector (8 for
 * avx2, 16 for avx512). NULL for the baseline. */
typedef void (*oa_kstem_fn)(const float *x, int64_t ic, int64_t ih, int64_t iw, const float *wb, const float *bias,
                            int64_t kh, int64_t kw, int64_t sh, int64_t sw, int64_t pt, int64_t pl, int64_t oy,
                            int64_t ow, float *y);
void oa_kstem_avx2(const float *x, int64_t ic, int64_t ih, int64_t iw, const float *wb, const float *bias, int64_t kh,
                   int64_t kw, int64_t sh, int64_t sw, int64_t pt, int64_t pl, int64_t oy, int64_t ow, float *y);
void oa_kstem_avx512(const float *x, int64_t ic, int64_t ih, int64_t iw, const float *wb, const float *bias,
                     int64_t kh, int64_t kw, int64_t sh, int64_t sw, int64_t pt, int64_t pl, int64_t oy, int64_t ow,
                     float *y);
/* The stem kernel of tier t and its block width (0: none). */
oa_kstem_fn oa_kstem_for(oa_kisa_tier t, int *block);

/* Depthwise convolution of one channel block of an NCHWc tensor, one output row (simd/dw_impl.inc has the
 * contract); the block width is the tier's vector (8 for AVX2, 16 for AVX-512), NULL for the baseline. */
typedef void (*oa_kdw_fn)(const float *x, int64_t ih, int64_t iw, const float *w, const float *bias, int64_t kh,
                          int64_t kw, int64_t sh, int64_t sw, int64_t pt, int64_t pl, int64_t oy, int64_t ow,
                          const oa_kacts *acts, float *y);
void oa_kdw_avx2(const float *x, int64_t ih, int64_t iw, const float *w, const float *bias, int64_t kh, int64_t kw,
                 int64_t sh, int64_t sw, int64_t pt, int64_t pl, int64_t oy, int64_t ow, const oa_kacts *acts,
                 float *y);
void oa_kdw_avx512(const float *x, int64_t ih, int64_t iw, const float *w, const float *bias, int64_t kh, int64_t kw,
                   int64_t sh, int64_t sw, int64_t pt, int64_t pl, int64_t oy, int64_t ow, const oa_kacts *acts,
                   float *y);
/* The depthwise kernel of tier t and its block width (0: none). */
oa_kdw_fn oa_kdw_for(oa_kisa_tier t, int *block);

/* A tile of a product with the filter streamed from memory (convs on small planes, conv_pw.c; MatMuls with a
 * constant b, matmul.c): ob (<= OA_KPW_MAX_OB) blocks of 16 outputs x np (<= OA_KPW_MAX_NP) pixels or rows
 * over reduction steps [r0, r1), prefetching the next piece's filter (simd/pw_avx512.c has the contract).
 * NULL below AVX-512. */
enum { OA_KPW_MAX_OB = 4, OA_KPW_MAX_NP = 6 };
typedef struct oa_kpw_tile {
    const float *x;       /* input base */
    const int32_t *off;   /* np pixel (row) offsets into x */
    const int32_t *xoff;  /* each reduction step's offset into x (indexed by the step) */
    int np, ob;
    int64_t r0, r1;       /* the steps of this range */
    const float *w;       /* the group's filter [step][ob][16] from step 0 */
    int64_t ycs, ys;      /* y: floats between output blocks, between pixels (rows) */
    uint16_t last_lanes;  /* lanes of block ob - 1 that exist (a MatMul's last partial block; else all 16) */
    uint16_t last_zero;   /* lanes of block ob - 1 stored as zeros (a conv's padding channels) */
    const oa_kacts *acts; /* activations before the stores (NULL: none; the last reduction range only) */
    int pf_shift;         /* pf: one line every 2^pf_shift steps (pw_product.c spreads a piece over its tiles) */
} oa_kpw_tile;
typedef void (*oa_kpw_fn)(const oa_kpw_tile *t, const float *bias, const float *res, float *y, const void *pf);
void oa_kpw_avx512(const oa_kpw_tile *t, const float *bias, const float *res, float *y, const void *pf);
/* The same contract in 256-bit registers, one block per pass (simd/pw_avx2.c): the avx2 tier's MatMuls. */
void oa_kpw_avx2(const oa_kpw_tile *t, const float *bias, const float *res, float *y, const void *pf);
/* The same on bf16 pairs (a step: two input channels; x, w and the offsets in 32-bit pairs), f32 accumulation:
 * CPUs with AVX512-BF16 (oa_kpw_bf16_for: NULL elsewhere). */
void oa_kpw_bf16_avx512(const oa_kpw_tile *t, const float *bias, const float *res, float *y, const void *pf);
oa_kpw_fn oa_kpw_bf16_for(void);
oa_kpw_fn oa_kpw_for(oa_kisa_tier t);

/*
 * An array derived from constant src (a transformed or packed filter: derived.c), made by fill(ctx, array) into
 * `bytes` of memory from oa_pages_huge_alloc. The form says how it was derived (the transform, its tile, the
 * blocking: every parameter the contents depend on besides src's bytes, at most 256 bytes; a longer one is not
 * shared). When src is stable
 * (oa_ktensor.stable), operators asking for the same src in the same form share one array (a dynamic model's
 * operators for its input shapes); otherwise the array is the caller's alone. Released with oa_kderived_put.
 */
typedef oa_status (*oa_kderived_fill)(void *ctx, void *array);
oa_status oa_kderived_get(const oa_ktensor *src, const void *form, size_t form_len, size_t bytes,
                          oa_kderived_fill fill, void *ctx, void **out) OA_MUST_CHECK;
void oa_kderived_put(void *array); /* accepts NULL */

/* Vector class of the tier in use: 0 ref, 1 avx2, 2 avx512 and above (isa.c). */
int oa_kisa_level(void);

/* ---- lower precision (lowp.c, docs/precision.md) ---- */
/* y = bf16(x), round to nearest even (AVX512-BF16 when the tier has it). */
void oa_kbf16_from_f32(const float *x, uint16_t *y, size_t n);
/* The same split over the pool (NULL: on the caller). */
void oa_kbf16_convert(oa_threadpool *pool, const float *x, uint16_t *y, size_t n);
/* n images of x (NCHWc with 16-channel blocks, c a multiple of 16, when blocked16; else plain NCHW) to dense
 * NHWC bf16 in y, over the pool's threads by pixel rows (the AMX convolutions' input, docs/precision.md). */
void oa_kbf16_to_nhwc(oa_threadpool *pool, const float *x, bool blocked16, int64_t n, int64_t c, int64_t h,
                      int64_t w, uint16_t *y);

#endif /* OA_KERNELS_KERNEL_INTERNAL_H */
