/*
 * Lower-precision compute (docs/precision.md): what a precision request
 * becomes on this CPU, and the f32 -> bf16 conversion of activations that the
 * bf16 convolutions and matrix products read (weights are converted once at
 * create by oneDNN's reorder).
 */
#include "kernels/kernel_internal.h"

#include <pthread.h>
#include <stdatomic.h>

void oa_kbf16_from_f32_avx512(const float *x, uint16_t *y, size_t n);
void oa_kbf16_blk16_to_nhwc_avx512(const float *x, uint16_t *y, int64_t cb, int64_t hw, int64_t q0, int64_t q1);

static bool g_native;
static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static _Atomic int g_said_fp16, g_said_fp32;

static void lowp_once(void)
{
    const oa_kcpu *f = oa_kisa_features();
    g_native = f->avx512_bf16 || f->amx_bf16;
}

oa_klowp oa_klowp_compute(oa_klowp requested)
{
    if (requested == OA_KLOWP_NONE) {
        return OA_KLOWP_NONE;
    }
    pthread_once(&g_once, lowp_once);
    if (!g_native) {
        if (!atomic_exchange(&g_said_fp32, 1)) {
            OA_LOGI("precision: the model asks for %s compute; ISA %s has no native bf16 (AVX512-BF16, AMX-BF16): "
                    "convolutions and matrix products compute in fp32",
                    requested == OA_KLOWP_FP16 ? "fp16" : "bf16", oa_kernels_isa());
        }
        return OA_KLOWP_NONE;
    }
    if (requested == OA_KLOWP_FP16 && !atomic_exchange(&g_said_fp16, 1)) {
        OA_LOGI("precision: the model asks for fp16 compute; convolutions and matrix products compute in bf16 "
                "(no fp16 convolution or matmul on this CPU's kernels)");
    }
    return OA_KLOWP_BF16;
}

/* Scalar round-to-nearest-even as VCVTNEPS2BF16 does it: denormal inputs become a signed zero,
 * a NaN stays a quiet NaN. */
static void bf16_ref(const float *x, uint16_t *y, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t u;
        memcpy(&u, &x[i], sizeof u);
        if ((u & 0x7f800000u) == 0) {
            y[i] = (uint16_t)((u >> 16) & 0x8000u);
        } else if ((u & 0x7fffffffu) > 0x7f800000u) {
            y[i] = (uint16_t)((u >> 16) | 0x40u);
        } else {
            y[i] = (uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
        }
    }
}

void oa_kbf16_from_f32(const float *x, uint16_t *y, size_t n)
{
    pthread_once(&g_once, lowp_once);
    if (oa_kisa_features()->avx512_bf16) {
        oa_kbf16_from_f32_avx512(x, y, n);
    } else {
        bf16_ref(x, y, n);
    }
}

typedef struct cvt_ctx {
    const float *x;
    uint16_t *y;
    size_t n;
} cvt_ctx;

#define CVT_CHUNK 8192

static void cvt_task(void *vctx, size_t tid, size_t b, size_t e)
{
    (void)tid;
    const cvt_ctx *c = vctx;
    size_t i0 = b * CVT_CHUNK, i1 = e * CVT_CHUNK < c->n ? e * CVT_CHUNK : c->n;
    oa_kbf16_from_f32(c->x + i0, c->y + i0, i1 - i0);
}

void oa_kbf16_convert(oa_threadpool *pool, const float *x, uint16_t *y, size_t n)
{
    cvt_ctx c = {x, y, n};
    size_t chunks = (n + CVT_CHUNK - 1) / CVT_CHUNK;
    if (chunks <= 1 || pool == NULL) {
        oa_kbf16_from_f32(x, y, n);
        return;
    }
    oa_threadpool_parallel_for(pool, chunks, 4, cvt_task, &c);
}

/* x (NCHWc with 16-channel blocks, or plain NCHW) -> NHWC bf16: rows of pixels [b, e) over all images. */
typedef struct nhwc_cvt_ctx {
    const float *x;
    uint16_t *y;
    int64_t c, h, w;
    bool blocked;
} nhwc_cvt_ctx;

static void nhwc_cvt_task(void *vctx, size_t tid, size_t b, size_t e)
{
    (void)tid;
    const nhwc_cvt_ctx *m = vctx;
    const int64_t hw = m->h * m->w;
    const bool simd = m->blocked && oa_kisa_features()->avx512_bf16;
    for (size_t r = b; r < e; r++) {
        const int64_t n = (int64_t)r / m->h, q0 = (int64_t)r % m->h * m->w, q1 = q0 + m->w;
        const float *x = m->x + n * m->c * hw;
        uint16_t *y = m->y + n * m->c * hw;
        if (simd) {
            oa_kbf16_blk16_to_nhwc_avx512(x, y, m->c / 16, hw, q0, q1);
            continue;
        }
        if (m->blocked) { /* (no AVX512-BF16) */
            for (int64_t q = q0; q < q1; q++) {
                for (int64_t ch = 0; ch < m->c; ch++) {
                    bf16_ref(x + ((ch / 16) * hw + q) * 16 + ch % 16, y + q * m->c + ch, 1);
                }
            }
            continue;
        }
        /* plain: 64 pixels of a channel converted at a time, then spread over the pixels' rows */
        uint16_t part[64];
        for (int64_t p0 = q0; p0 < q1; p0 += 64) {
            const int64_t np = q1 - p0 < 64 ? q1 - p0 : 64;
            for (int64_t ch = 0; ch < m->c; ch++) {
                oa_kbf16_from_f32(x + ch * hw + p0, part, (size_t)np);
                for (int64_t i = 0; i < np; i++) {
                    y[(p0 + i) * m->c + ch] = part[i];
                }
            }
        }
    }
}

void oa_kbf16_to_nhwc(oa_threadpool *pool, const float *x, bool blocked16, int64_t n, int64_t c, int64_t h,
                      int64_t w, uint16_t *y)
{
    pthread_once(&g_once, lowp_once);
    nhwc_cvt_ctx m = {x, y, c, h, w, blocked16};
    const size_t rows = (size_t)(n * h), grain = (size_t)(OA_KGRAIN_ELEMS / (w * c + 1) + 1);
    if (pool == NULL) {
        nhwc_cvt_task(&m, 0, 0, rows);
        return;
    }
    oa_threadpool_parallel_for(pool, rows, grain, nhwc_cvt_task, &m);
}
