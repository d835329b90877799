/*
 * Resize on H, W of a 4-D tensor: nearest (ONNX coordinate modes and
 * rounding, or TensorFlow's ResizeNearestNeighborV2 rule) and bilinear.
 * Source coordinates are tabulated once at setup; run copies or blends
 * per (n, channel) plane (NCHW) or per (n, channel block) plane (NCHWc).
 * Nearest works on any dtype (plain layout); linear needs f32.
 * Cubic and tf_crop_and_resize (f32, plain) take the tap path (rs_taps: per
 * output row / column up to 4 source indices and weights, and whether the
 * source coordinate lies inside the input), beside the unchanged fast paths.
 */
#include "kernels/kernel_internal.h"
#include "base/util.h"

#include <math.h>
#include <stdlib.h>

typedef struct rs_state {
    int64_t n, c, ih, iw, oh, ow;
    size_t esz;
    bool blocked, linear;
    bool empty;                     /* no output element: nothing to set up or run */
    int64_t *i0h, *i1h, *i0w, *i1w; /* source indices */
    float *lh, *lw;                 /* linear weights of the second index */
    int64_t wrep;                   /* nearest, i0w[o] == o / wrep for every column: an integer upscale (0: no) */
    /* the tap path */
    bool taps;
    int nt;                         /* taps per output coordinate: 1, 2 or 4 */
    int64_t *th, *tw;               /* [out][nt] source indices */
    float *wh, *ww;                 /* [out][nt] weights */
    uint8_t *vh, *vw;               /* [out] inside the input (else extrapolation) */
    float extrap;
} rs_state;

static oa_status rs_infer(const void *params, int n_in, const oa_ktensor *in, int n_out, oa_ktensor *out)
{
    const oa_kresize_params *p = params;
    if (n_in < 1 || n_out != 1) {
        return OA_FAIL(OA_E_PARAM, "Resize: x (+ size inputs) and 1 output");
    }
    if (in[0].rank != 4) {
        return OA_FAIL(OA_E_PARAM, "Resize: x must be 4-D, got rank %d", in[0].rank);
    }
    if (p->mode != OA_KRESIZE_NEAREST && in[0].dtype != OA_KDT_F32) {
        return OA_FAIL(OA_E_UNSUPPORTED_DATA_TYPE, "Resize: %s mode needs f32, got %s",
                       p->mode == OA_KRESIZE_CUBIC ? "cubic" : "linear", oa_kdtype_name(in[0].dtype));
    }
    if ((unsigned)p->mode > OA_KRESIZE_CUBIC || (unsigned)p->coord > OA_KCT_TF_CROP_AND_RESIZE) {
        return OA_FAIL(OA_E_PARAM, "Resize: unknown mode %d or coordinate mode %d", (int)p->mode, (int)p->coord);
    }
    if ((p->mode == OA_KRESIZE_CUBIC || p->coord == OA_KCT_TF_CROP_AND_RESIZE) &&
        (in[0].dtype != OA_KDT_F32 || in[0].layout != OA_KLAYOUT_PLAIN)) {
        return OA_FAIL(OA_E_UNSUPPORTED_DATA_TYPE, "Resize: cubic and tf_crop_and_resize need f32 in a plain layout");
    }
    if (in[0].layout == OA_KLAYOUT_NCHWC && in[0].dtype != OA_KDT_F32) {
        return OA_FAIL(OA_E_PARAM, "Resize: NCHWc needs f32");
    }
    /* Output H, W: from a host "size" input (i32/i64 [2] = new_h, new_w, or [4] = full
     * sizes) when present, else from scales. */
    int64_t oh = -1, ow = -1;
    for (int i = 1; i < n_in && oh < 0; i++) {
        const oa_ktensor *t = &in[i];
        if (!oa_kt_present(t) || t->data == NULL || (t->dtype != OA_KDT_I32 && t->dtype != OA_KDT_I64)) {
            continue;
        }
        int64_t n = oa_ktensor_numel(t);
        if (n == 2) {
            oh = oa_kt_get_i64(t, 0);
            ow = oa_kt_get_i64(t, 1);
        } else if (n == 4) {
            oh = oa_kt_get_i64(t, 2);
            ow = oa_kt_get_i64(t, 3);
        }
    }
    if (oh < 0 && p->scale_h > 0 && p->scale_w > 0) {
        const double dh = floor((double)in[0].dims[2] * p->scale_h), dw = floor((double)in[0].dims[3] * p->scale_w);
        if (!(dh < 4611686018427387904.0 && dw < 4611686018427387904.0)) { /* 2^62: no undefined conversion */
            return OA_FAIL(OA_E_PARAM, "Resize: scales %g x %g give an output beyond any size", (double)p->scale_h,
                           (double)p->scale_w);
        }
        oh = (int64_t)dh;
        ow = (int64_t)dw;
    }
    if (oh < 0 || ow < 0) {
        return OA_FAIL(OA_E_PARAM, "Resize: output size unknown (give a host sizes input or scales)");
    }
    /* The output is what a model's scales or sizes say: a few bytes of a file may ask for any size, so the
     * output is bounded by the load limit (docs/model_api.md, "Bounds the loader checks"; a fuzz_mdl_exec
     * finding: 2^31 rows from one scale). */
    int64_t elems = in[0].dims[0] * in[0].dims[1], bytes = 0;
    if (!oa_mul_i64(elems, oh, &elems) || !oa_mul_i64(elems, ow, &elems) ||
        !oa_mul_i64(elems, (int64_t)oa_kdtype_size(in[0].dtype), &bytes) || (uint64_t)bytes > oa_load_limit_bytes()) {
        return OA_FAIL(OA_E_GE_PARAM, "Resize: an output of [%lld,%lld,%lld,%lld] exceeds the load limit of %llu bytes "
                       "($OPENACL_LOAD_LIMIT_MB)", (long long)in[0].dims[0], (long long)in[0].dims[1], (long long)oh,
                       (long long)ow, (unsigned long long)oa_load_limit_bytes());
    }
    out[0] = in[0];
    out[0].data = NULL;
    out[0].dims[2] = oh;
    out[0].dims[3] = ow;
    return OA_OK;
}

static double src_coord(const oa_kresize_params *p, int64_t o, int64_t in, int64_t out, float given_scale)
{
    double scale = given_scale > 0 ? (double)given_scale : (double)out / (double)in;
    switch (p->coord) {
    case OA_KCT_HALF_PIXEL: return ((double)o + 0.5) / scale - 0.5;
    case OA_KCT_PYTORCH_HALF_PIXEL: return out > 1 ? ((double)o + 0.5) / scale - 0.5 : 0.0;
    case OA_KCT_ALIGN_CORNERS: { /* with given scales ONNX divides by in * scale - 1, unrounded */
        const double len = given_scale > 0 ? (double)in * scale : (double)out;
        return len == 1.0 || out == 1 ? 0.0 : (double)o * (double)(in - 1) / (len - 1.0);
    }
    case OA_KCT_TF_HALF_PIXEL_FOR_NN: return ((double)o + 0.5) / scale;
    default: return (double)o / scale; /* asymmetric */
    }
}

static int64_t clampi(int64_t v, int64_t lo, int64_t hi)
{
    return v < lo ? lo : (v > hi ? hi : v);
}

static int64_t nearest_index(const oa_kresize_params *p, int64_t o, int64_t in, int64_t out, float given_scale)
{
    if (p->coord == OA_KCT_TF_NN || p->coord == OA_KCT_TF_NN_HALF_PIXEL || p->coord == OA_KCT_TF_NN_ALIGN_CORNERS) {
        double sc;
        if (p->coord == OA_KCT_TF_NN_ALIGN_CORNERS) {
            sc = out > 1 ? (double)(in - 1) / (double)(out - 1) : 0.0;
            return clampi((int64_t)llround((double)o * sc), 0, in - 1);
        }
        sc = (double)in / (double)out;
        double v = p->coord == OA_KCT_TF_NN_HALF_PIXEL ? ((double)o + 0.5) * sc : (double)o * sc;
        return clampi((int64_t)floor(v), 0, in - 1);
    }
    double x = src_coord(p, o, in, out, given_scale);
    double f = floor(x), r;
    switch (p->nearest) {
    case OA_KNEAREST_FLOOR: r = f; break;
    case OA_KNEAREST_CEIL: r = ceil(x); break;
    case OA_KNEAREST_ROUND_PREFER_CEIL: r = (x - f == 0.5) ? f + 1 : floor(x + 0.5); break;
    default: r = (x - f == 0.5) ? f : floor(x + 0.5); break;
    }
    return clampi((int64_t)r, 0, in - 1);
}

/* Keys cubic convolution weights of the taps floor(x)-1 .. floor(x)+2 for t = x - floor(x). */
static void cubic_weights(double t, double a, double w[4])
{
    const double t1 = t + 1.0, u = 1.0 - t, u1 = u + 1.0;
    w[0] = ((a * t1 - 5.0 * a) * t1 + 8.0 * a) * t1 - 4.0 * a;
    w[1] = ((a + 2.0) * t - (a + 3.0)) * t * t + 1.0;
    w[2] = ((a + 2.0) * u - (a + 3.0)) * u * u + 1.0;
    w[3] = ((a * u1 - 5.0 * a) * u1 + 8.0 * a) * u1 - 4.0 * a;
}

/* The taps of output coordinate o along one dim (roi_s/roi_e: tf_crop_and_resize). */
static void rs_taps(const oa_kresize_params *p, int nt, int64_t o, int64_t in, int64_t out, float sc, float roi_s,
                    float roi_e, int64_t *idx, float *w, uint8_t *valid)
{
    double x;
    *valid = 1;
    if (p->coord == OA_KCT_TF_CROP_AND_RESIZE) {
        const double ow = sc > 0 ? (double)in * (double)sc : (double)out, span = (double)roi_e - (double)roi_s;
        x = ow == 1.0 ? span * (double)(in - 1) / 2.0 : (double)o * span * (double)(in - 1) / (ow - 1.0);
        x += (double)roi_s * (double)(in - 1);
        if (!(x >= 0.0 && x <= (double)(in - 1))) {
            *valid = 0;
            for (int k = 0; k < nt; k++) {
                idx[k] = 0;
                w[k] = 0.0f;
            }
            return;
        }
    } else {
        x = src_coord(p, o, in, out, sc);
    }
    const double f = floor(x), t = x - f;
    double wt[4] = {1.0, 0.0, 0.0, 0.0};
    int64_t first = (int64_t)f;
    if (nt == 1) { /* nearest */
        double r;
        switch (p->nearest) {
        case OA_KNEAREST_FLOOR: r = f; break;
        case OA_KNEAREST_CEIL: r = ceil(x); break;
        case OA_KNEAREST_ROUND_PREFER_CEIL: r = t == 0.5 ? f + 1 : floor(x + 0.5); break;
        default: r = t == 0.5 ? f : floor(x + 0.5); break;
        }
        first = (int64_t)r;
    } else if (nt == 2) {
        wt[0] = 1.0 - t;
        wt[1] = t;
    } else {
        cubic_weights(t, p->cubic_a, wt);
        first -= 1;
    }
    double sum = 0.0;
    for (int k = 0; k < nt; k++) {
        const int64_t i = first + k;
        if (p->exclude_outside && (i < 0 || i >= in)) {
            wt[k] = 0.0;
        }
        sum += wt[k];
        idx[k] = clampi(i, 0, in - 1);
    }
    for (int k = 0; k < nt; k++) {
        w[k] = (float)(p->exclude_outside && sum != 0.0 ? wt[k] / sum : wt[k]);
    }
}

static oa_status rs_setup_taps(rs_state *s, const oa_kresize_params *p)
{
    s->taps = true;
    s->nt = p->mode == OA_KRESIZE_CUBIC ? 4 : p->mode == OA_KRESIZE_LINEAR ? 2 : 1;
    s->extrap = p->extrapolation;
    size_t nh = (size_t)s->oh, nw = (size_t)s->ow, nt = (size_t)s->nt;
    s->th = malloc(nh * nt * sizeof(int64_t));
    s->tw = malloc(nw * nt * sizeof(int64_t));
    s->wh = malloc(nh * nt * sizeof(float));
    s->ww = malloc(nw * nt * sizeof(float));
    s->vh = malloc(nh);
    s->vw = malloc(nw);
    if (!s->th || !s->tw || !s->wh || !s->ww || !s->vh || !s->vw) {
        return OA_FAIL(OA_E_NOMEM, "resize tables");
    }
    for (int64_t o = 0; o < s->oh; o++) {
        rs_taps(p, s->nt, o, s->ih, s->oh, p->scale_h, p->roi[0], p->roi[2], s->th + o * s->nt, s->wh + o * s->nt,
                s->vh + o);
    }
    for (int64_t o = 0; o < s->ow; o++) {
        rs_taps(p, s->nt, o, s->iw, s->ow, p->scale_w, p->roi[1], p->roi[3], s->tw + o * s->nt, s->ww + o * s->nt,
                s->vw + o);
    }
    return OA_OK;
}

static void rs_plane_taps(const rs_state *s, const float *x, float *y)
{
    const int nt = s->nt;
    for (int64_t oh = 0; oh < s->oh; oh++) {
        float *yr = y + oh * s->ow;
        for (int64_t ow = 0; ow < s->ow; ow++) {
            if (!s->vh[oh] || !s->vw[ow]) {
                yr[ow] = s->extrap;
                continue;
            }
            float acc = 0.0f;
            for (int a = 0; a < nt; a++) {
                const float *xr = x + s->th[oh * nt + a] * s->iw;
                float row = 0.0f;
                for (int b = 0; b < nt; b++) {
                    row += s->ww[ow * nt + b] * xr[s->tw[ow * nt + b]];
                }
                acc += s->wh[oh * nt + a] * row;
            }
            yr[ow] = acc;
        }
    }
}

static void rs_release(oa_kop *op)
{
    rs_state *s = op->state;
    free(s->i0h);
    free(s->i1h);
    free(s->i0w);
    free(s->i1w);
    free(s->lh);
    free(s->lw);
    free(s->th);
    free(s->tw);
    free(s->wh);
    free(s->ww);
    free(s->vh);
    free(s->vw);
    free(s);
    op->state = NULL;
}

static oa_status rs_setup(oa_kop *op)
{
    rs_state *s = calloc(1, sizeof(*s));
    if (s == NULL) {
        return OA_FAIL(OA_E_NOMEM, "resize state");
    }
    op->state = s;
    const oa_kresize_params *p = &op->params.resize;
    const oa_ktensor *x = &op->in[0], *y = &op->out[0];
    s->n = x->dims[0];
    s->c = x->dims[1];
    s->ih = x->dims[2];
    s->iw = x->dims[3];
    s->oh = y->dims[2];
    s->ow = y->dims[3];
    s->esz = oa_kdtype_size(x->dtype);
    s->blocked = x->layout == OA_KLAYOUT_NCHWC;
    s->linear = p->mode == OA_KRESIZE_LINEAR;
    if (s->n == 0 || s->c == 0 || s->oh == 0 || s->ow == 0) {
        /* tables are per output row and column: an empty output with a huge other side (2^31 rows of 0
         * columns, from a model's scales) must not allocate them (fuzz_mdl_exec finding, docs/fuzzing.md) */
        s->empty = true;
        return OA_OK;
    }
    if (s->ih == 0 || s->iw == 0) {
        return OA_FAIL(OA_E_PARAM, "Resize: empty input plane");
    }
    if (p->mode == OA_KRESIZE_CUBIC || p->coord == OA_KCT_TF_CROP_AND_RESIZE) {
        op->impl = "ref";
        return rs_setup_taps(s, p);
    }
    size_t nh = (size_t)(s->oh > 0 ? s->oh : 1), nw = (size_t)(s->ow > 0 ? s->ow : 1);
    s->i0h = malloc(nh * sizeof(int64_t));
    s->i1h = malloc(nh * sizeof(int64_t));
    s->i0w = malloc(nw * sizeof(int64_t));
    s->i1w = malloc(nw * sizeof(int64_t));
    s->lh = malloc(nh * sizeof(float));
    s->lw = malloc(nw * sizeof(float));
    if (!s->i0h || !s->i1h || !s->i0w || !s->i1w || !s->lh || !s->lw) {
        return OA_FAIL(OA_E_NOMEM, "resize tables");
    }
    for (int dim = 0; dim < 2; dim++) {
        int64_t in = dim ? s->iw : s->ih, out = dim ? s->ow : s->oh;
        float sc = dim ? p->scale_w : p->scale_h;
        int64_t *i0 = dim ? s->i0w : s->i0h, *i1 = dim ? s->i1w : s->i1h;
        float *l = dim ? s->lw : s->lh;
        for (int64_t o = 0; o < out; o++) {
            if (!s->linear) {
                i0[o] = i1[o] = nearest_index(p, o, in, out, sc);
                l[o] = 0.0f;
                continue;
            }
            double xs = src_coord(p, o, in, out, sc);
            if (xs < 0) {
                xs = 0;
            }
            if (xs > (double)(in - 1)) {
                xs = (double)(in - 1);
            }
            int64_t a = (int64_t)floor(xs);
            i0[o] = a;
            i1[o] = a + 1 < in ? a + 1 : in - 1;
            l[o] = (float)(xs - (double)a);
        }
    }
    if (!s->linear && s->ow % s->iw == 0) { /* an integer upscale of the columns: rows copied value by value */
        s->wrep = s->ow / s->iw;
        for (int64_t o = 0; o < s->ow; o++) {
            s->wrep = s->i0w[o] == o / (s->ow / s->iw) ? s->wrep : 0;
        }
    }
    op->impl = s->linear ? "ref" : "nearest";
    return OA_OK;
}

typedef struct rs_ctx {
    const rs_state *s;
    const char *x;
    char *y;
} rs_ctx;

static void rs_task(void *vctx, size_t tid, size_t b, size_t e)
{
    (void)tid;
    const rs_ctx *c = vctx;
    const rs_state *s = c->s;
    int64_t cb = s->blocked ? oa_kernels_block() : 1;
    size_t px = s->esz * (size_t)cb; /* bytes per pixel */
    for (size_t idx = b; idx < e; idx++) {
        const char *x = c->x + idx * (size_t)(s->ih * s->iw) * px;
        char *y = c->y + idx * (size_t)(s->oh * s->ow) * px;
        if (s->taps) {
            rs_plane_taps(s, (const float *)(const void *)x, (float *)(void *)y);
            continue;
        }
        for (int64_t oh = 0; oh < s->oh; oh++) {
            if (!s->linear) {
                const char *xr = x + (size_t)(s->i0h[oh] * s->iw) * px;
                char *yr = y + (size_t)(oh * s->ow) * px;
                if (oh > 0 && s->i0h[oh] == s->i0h[oh - 1]) {
                    /* the same source row as the row above (upsampling): copy that row */
                    memcpy(yr, yr - (size_t)s->ow * px, (size_t)s->ow * px);
                    continue;
                }
                if (px == sizeof(float)) { /* a plain f32 / i32 row: one load and store per value, no call */
                    const uint32_t *xs = (const uint32_t *)(const void *)xr;
                    uint32_t *ys = (uint32_t *)(void *)yr;
                    if (s->wrep == 2) { /* FPN's 2x: pairs (vectorised) */
                        for (int64_t iw = 0; iw < s->iw; iw++) {
                            ys[2 * iw] = ys[2 * iw + 1] = xs[iw];
                        }
                    } else if (s->wrep > 0) {
                        for (int64_t iw = 0; iw < s->iw; iw++) {
                            for (int64_t k = 0; k < s->wrep; k++) {
                                ys[iw * s->wrep + k] = xs[iw];
                            }
                        }
                    } else {
                        for (int64_t ow = 0; ow < s->ow; ow++) {
                            ys[ow] = xs[s->i0w[ow]];
                        }
                    }
                    continue;
                }
                for (int64_t ow = 0; ow < s->ow; ow++) { /* a value, or a block's pixel */
                    oa_kmove(yr + (size_t)ow * px, xr + (size_t)s->i0w[ow] * px, px);
                }
                continue;
            }
            const float *r0 = (const float *)(const void *)x + s->i0h[oh] * s->iw * cb;
            const float *r1 = (const float *)(const void *)x + s->i1h[oh] * s->iw * cb;
            float lh = s->lh[oh];
            float *yr = (float *)(void *)y + oh * s->ow * cb;
            for (int64_t ow = 0; ow < s->ow; ow++) {
                int64_t a = s->i0w[ow] * cb, bb = s->i1w[ow] * cb;
                float lw = s->lw[ow];
                for (int64_t j = 0; j < cb; j++) {
                    float top = r0[a + j] + (r0[bb + j] - r0[a + j]) * lw;
                    float bot = r1[a + j] + (r1[bb + j] - r1[a + j]) * lw;
                    yr[ow * cb + j] = top + (bot - top) * lh;
                }
            }
        }
    }
}

static oa_status rs_run(const oa_kop *op, const void *const *in, void *const *out, void *ws, oa_threadpool *pool)
{
    (void)ws;
    const rs_state *s = op->state;
    if (s->empty) {
        return OA_OK;
    }
    if (in[0] == NULL || out[0] == NULL) {
        return OA_FAIL(OA_E_PARAM, "Resize: NULL data pointer");
    }
    int64_t cb = s->blocked ? oa_kernels_block() : 1;
    int64_t planes = s->n * (s->blocked ? (s->c + cb - 1) / cb : s->c);
    rs_ctx c = {s, in[0], out[0]};
    oa_threadpool_parallel_for(pool, (size_t)planes, (size_t)(OA_KGRAIN_ELEMS / (s->oh * s->ow * cb + 1) + 1), rs_task,
                               &c);
    return OA_OK;
}

const oa_kfamily oa_kfam_resize = {
    .params_size = sizeof(oa_kresize_params),
    .infer = rs_infer,
    .setup = rs_setup,
    .run = rs_run,
    .release = rs_release,
};
