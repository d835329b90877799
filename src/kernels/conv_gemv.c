/*
 * Few-position convolutions as multi-column GEMVs (contract in
 * conv_gemv.h, design and measurements in docs/kernels_conv_gemv.md).
 */
#include "kernels/conv_gemv.h"

#include <stdlib.h>

/* Scalar FMAs per parallel task: below about this a wake-up costs more than it saves. */
#define CGEMV_TASK_FMAS 262144

struct oa_kcgemv {
    oa_kcgemv_shape s;
    int64_t k;     /* ic * kh * kw: one column */
    int64_t cols;  /* n * oh * ow */
    int64_t blk;   /* channels per packed block */
    int64_t nblk;  /* ceil(oc / blk) */
    float *wp;     /* [nblk][k][blk], channels past oc zero */
    float *bias;   /* [nblk * blk], channels past oc zero */
    oa_kcgemv_fn fn;
    /* 1-D rows (kh = ih = 1, no top pad, dilation 1): the columns are overlapping windows of x transposed to
     * xt [u][ic] (u = iw + pl, zero outside x), the filter packed in (tap, channel) order: no gather */
    bool rows;
    int64_t upad; /* positions of xt: (ow - 1) * sw + kw */
};

oa_kcgemv_fn oa_kcgemv_for(oa_kisa_tier t, int64_t *blk)
{
    if (t >= OA_KISA_AVX512) {
        *blk = 16;
        return oa_kcgemv_avx512;
    }
    *blk = t == OA_KISA_AVX2 ? 8 : 1;
    return t == OA_KISA_AVX2 ? oa_kcgemv_avx2 : NULL;
}

void oa_kcgemv_destroy(oa_kcgemv *c)
{
    if (c != NULL) {
        free(c->wp);
        free(c->bias);
        free(c);
    }
}

static bool shape_ok(const oa_kcgemv_shape *s)
{
    const int64_t *v = &s->n;
    for (size_t i = 0; i < sizeof(*s) / sizeof(int64_t); i++) {
        if (v[i] < 0) {
            return false;
        }
    }
    return s->kh > 0 && s->kw > 0 && s->sh > 0 && s->sw > 0 && s->dh > 0 && s->dw > 0;
}

oa_status oa_kcgemv_create(const oa_kcgemv_shape *sh, const float *w, const float *b, oa_kcgemv **out,
                           size_t *ws_size, const char **impl)
{
    if (sh == NULL || w == NULL || out == NULL || ws_size == NULL || impl == NULL) {
        return OA_FAIL(OA_E_PARAM, "conv gemv: NULL argument");
    }
    *out = NULL;
    if (!shape_ok(sh)) {
        return OA_FAIL(OA_E_PARAM, "conv gemv: negative dimension, or a zero kernel, stride or dilation");
    }
    int64_t blk, k, cols, khw;
    oa_kcgemv_fn fn = oa_kcgemv_for(oa_kisa_tier_used(), &blk);
    if (fn == NULL || oa_env_long("OPENACL_CONV_GEMV", 1) == 0 || !oa_mul_i64(sh->n, sh->oh, &cols) ||
        !oa_mul_i64(cols, sh->ow, &cols) || cols < 1 || cols > OA_KCGEMV_MAX_COLS || sh->oc < 1 ||
        !oa_mul_i64(sh->kh, sh->kw, &khw) || !oa_mul_i64(khw, sh->ic, &k) || k < 1 || k > ((int64_t)1 << 24)) {
        return OA_OK; /* not this path */
    }
    int64_t nblk = (sh->oc + blk - 1) / blk;
    int64_t upad = 0;
    const bool rows = sh->kh == 1 && sh->ih == 1 && sh->oh == 1 && sh->pt == 0 && sh->dw == 1 &&
                      oa_mul_i64(sh->ow - 1, sh->sw, &upad) && !__builtin_add_overflow(upad, sh->kw, &upad);
    size_t wn, ws, wsx;
    if (!oa_mul_size((size_t)(nblk * blk), (size_t)k, &wn) || !oa_mul_size(wn, sizeof(float), &wn) ||
        !oa_mul_size((size_t)cols, (size_t)(nblk * blk), &ws) ||
        !oa_mul_size(rows ? (size_t)upad : (size_t)cols, rows ? (size_t)sh->ic : (size_t)k, &wsx) ||
        !oa_add_size(ws, wsx, &ws) || !oa_mul_size(ws, sizeof(float), &ws)) {
        return OA_OK;
    }
    oa_kcgemv *c = calloc(1, sizeof(*c));
    if (c == NULL) {
        return OA_FAIL(OA_E_NOMEM, "conv gemv plan");
    }
    c->wp = malloc(wn);
    c->bias = calloc((size_t)(nblk * blk), sizeof(float));
    if (c->wp == NULL || c->bias == NULL) {
        oa_kcgemv_destroy(c);
        return OA_FAIL(OA_E_NOMEM, "conv gemv: packed filter of %zu bytes", wn);
    }
    for (int64_t o = 0; o < nblk * blk; o++) {
        float *dst = c->wp + (o / blk) * k * blk + o % blk;
        for (int64_t i = 0; i < k; i++) {
            /* rows: column index i = tap * ic + channel; else the OIHW order channel * kh * kw + tap */
            const int64_t src = rows ? (i % sh->ic) * sh->kw + i / sh->ic : i;
            dst[i * blk] = o < sh->oc ? w[o * k + src] : 0.0f;
        }
        if (b != NULL && o < sh->oc) {
            c->bias[o] = b[o];
        }
    }
    c->rows = rows;
    c->upad = upad;
    c->s = *sh;
    c->k = k;
    c->cols = cols;
    c->blk = blk;
    c->nblk = nblk;
    c->fn = fn;
    *out = c;
    *ws_size = ws;
    *impl = blk == 16 ? "gemv-avx512" : "gemv-avx2";
    return OA_OK;
}

/* Receptive field of output position (n, oh, ow) as col[ic][kh][kw], zeros where it reads padding. */
static void gather(const oa_kcgemv_shape *s, const float *x, int64_t n, int64_t oh, int64_t ow, float *col)
{
    const int64_t iw0 = ow * s->sw - s->pl;
    /* kw taps inside [0, iw): lo <= kw < hi */
    int64_t lo = iw0 >= 0 ? 0 : (-iw0 + s->dw - 1) / s->dw;
    int64_t hi = s->iw - 1 - iw0 < 0 ? 0 : (s->iw - 1 - iw0) / s->dw + 1;
    hi = hi < s->kw ? hi : s->kw;
    lo = lo < hi ? lo : hi;
    for (int64_t ci = 0; ci < s->ic; ci++) {
        const float *xc = x + (n * s->ic + ci) * s->ih * s->iw;
        for (int64_t kh = 0; kh < s->kh; kh++, col += s->kw) {
            const int64_t ih = oh * s->sh - s->pt + kh * s->dh;
            if (ih < 0 || ih >= s->ih) {
                memset(col, 0, sizeof(float) * (size_t)s->kw);
                continue;
            }
            const int64_t nq = hi - lo, dw = s->dw;
            const float *row = nq > 0 ? xc + ih * s->iw + (iw0 + lo * dw) : xc;
            float *dst = col + lo;
            for (int64_t q = 0; q < lo; q++) {
                col[q] = 0.0f;
            }
            /* plain loops, not memcpy calls: most rows are a few taps (k3 convs: 3 floats per channel) */
            if (dw == 1) {
                for (int64_t q = 0; q < nq; q++) {
                    dst[q] = row[q];
                }
            } else {
                for (int64_t q = 0; q < nq; q++) {
                    dst[q] = row[q * dw];
                }
            }
            for (int64_t q = hi; q < s->kw; q++) {
                col[q] = 0.0f;
            }
        }
    }
}

typedef struct cgemv_ctx {
    const oa_kcgemv *c;
    const float *cols;
    int64_t ldc, ncols;
    float *yt;
} cgemv_ctx;

static void cgemv_task(void *vctx, size_t tid, size_t b, size_t e)
{
    (void)tid;
    const cgemv_ctx *x = vctx;
    const oa_kcgemv *c = x->c;
    c->fn(c->wp, c->k, (int64_t)b, (int64_t)e, x->cols, x->ldc, x->ncols, c->bias, x->yt, c->nblk * c->blk);
}

/* yt = W · columns over all channel blocks, split over the pool when large enough. */
static void multiply(const oa_kcgemv *c, const float *cols, int64_t ldc, int64_t ncols, float *yt, oa_threadpool *pool)
{
    cgemv_ctx ctx = {c, cols, ldc, ncols, yt};
    int64_t per_blk = c->k * c->blk * ncols;
    size_t grain = (size_t)(CGEMV_TASK_FMAS / per_blk + 1);
    if (pool == NULL || (size_t)c->nblk <= grain) {
        cgemv_task(&ctx, 0, 0, (size_t)c->nblk);
    } else {
        oa_threadpool_parallel_for(pool, (size_t)c->nblk, grain, cgemv_task, &ctx);
    }
}

/* xt [u][ic] = x[n][ic][0][u - pl] (zero outside x) for u < upad. */
static void transpose_rows(const oa_kcgemv *c, const float *x, int64_t n, float *xt)
{
    const oa_kcgemv_shape *s = &c->s;
    for (int64_t u = 0; u < c->upad; u++) {
        const int64_t iw = u - s->pl;
        float *dst = xt + u * s->ic;
        if (iw < 0 || iw >= s->iw) {
            for (int64_t ci = 0; ci < s->ic; ci++) {
                dst[ci] = 0.0f;
            }
            continue;
        }
        const float *src = x + n * s->ic * s->iw + iw;
        for (int64_t ci = 0; ci < s->ic; ci++) {
            dst[ci] = src[ci * s->iw];
        }
    }
}

void oa_kcgemv_run(const oa_kcgemv *c, const float *x, const float *add, float *y, void *ws, oa_threadpool *pool)
{
    const oa_kcgemv_shape *s = &c->s;
    const int64_t ohw = s->oh * s->ow, ldy = c->nblk * c->blk;
    float *yt = ws, *cols = yt + c->cols * ldy;
    if (c->rows) {
        for (int64_t n = 0; n < s->n; n++) {
            const float *xt = cols;
            if (s->ic == 1 && s->pl == 0 && c->upad <= s->iw) {
                xt = x + n * s->iw; /* one channel inside x: the windows are x itself */
            } else {
                transpose_rows(c, x, n, cols);
            }
            multiply(c, xt, s->sw * s->ic, s->ow, yt + n * s->ow * ldy, pool);
        }
    } else {
        for (int64_t p = 0; p < c->cols; p++) {
            gather(s, x, p / ohw, p % ohw / s->ow, p % s->ow, cols + p * c->k);
        }
        multiply(c, cols, c->k, c->cols, yt, pool);
    }
    /* yt [position][channel] -> y [n][channel][position], + add (read before y's element is written) */
    for (int64_t n = 0; n < s->n; n++) {
        float *yn = y + n * s->oc * ohw;
        const float *tn = yt + n * ohw * ldy, *an = add != NULL ? add + n * s->oc * ohw : NULL;
        for (int64_t o = 0; o < s->oc; o++) {
            for (int64_t p = 0; p < ohw; p++) {
                yn[o * ohw + p] = an != NULL ? tn[p * ldy + o] + an[o * ohw + p] : tn[p * ldy + o];
            }
        }
    }
}
