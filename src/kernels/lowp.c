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
