/*
 * GridSampler2D (ONNX GridSample, opset 16): x [N, C, H, W] sampled at the
 * normalised (x, y) pairs of grid [N, Ho, Wo, 2] into y [N, C, Ho, Wo].
 * f32, plain layout. One task = one (n, channel) plane.
 *
 * A grid value g in [-1, 1] maps to the pixel coordinate
 * ((g + 1) / 2) * (size - 1) with align_corners, else ((g + 1) * size - 1) / 2.
 * padding zeros: taps outside the input read 0; border: the coordinate is
 * clamped to [0, size - 1]; reflection: reflected at the borders (at the
 * pixel centres 0 and size - 1 with align_corners, else at the edges -0.5 and
 * size - 0.5), then clamped. bilinear: the 4 neighbours; nearest: the
 * coordinate rounded half to even; bicubic: the 4x4 neighbours with the Keys
 * weights of a = -0.75, each tap's coordinate padded as above.
 */
#include "kernels/kernel_internal.h"

#include <math.h>
#include <stdlib.h>

static oa_status gs_infer(const void *params, int n_in, const oa_ktensor *in, int n_out, oa_ktensor *out)
{
    const oa_kgrid_sample_params *p = params;
    if (n_in != 2 || n_out != 1) {
        return OA_FAIL(OA_E_PARAM, "GridSampler2D: x, grid and 1 output (got %d, %d)", n_in, n_out);
    }
    if ((unsigned)p->mode > OA_KGS_BICUBIC || (unsigned)p->padding > OA_KGS_PAD_REFLECTION) {
        return OA_FAIL(OA_E_PARAM, "GridSampler2D: unknown mode %d or padding %d", (int)p->mode, (int)p->padding);
    }
    const oa_ktensor *x = &in[0], *g = &in[1];
    if (x->dtype != OA_KDT_F32 || g->dtype != OA_KDT_F32 || x->layout != OA_KLAYOUT_PLAIN ||
        g->layout != OA_KLAYOUT_PLAIN) {
        return OA_FAIL(OA_E_UNSUPPORTED_DATA_TYPE, "GridSampler2D: x and grid must be plain f32");
    }
    if (x->rank != 4 || g->rank != 4 || g->dims[3] != 2 || g->dims[0] != x->dims[0]) {
        return OA_FAIL(OA_E_PARAM, "GridSampler2D: x [N,C,H,W] and grid [N,Ho,Wo,2] expected");
    }
    int64_t d[4] = {x->dims[0], x->dims[1], g->dims[1], g->dims[2]};
    oa_ktensor_set(&out[0], OA_KDT_F32, 4, d);
    return OA_OK;
}

static oa_status gs_setup(oa_kop *op)
{
    op->impl = "ref";
    return OA_OK;
}

static double gs_unnorm(double g, int64_t size, bool align)
{
    return align ? (g + 1.0) / 2.0 * (double)(size - 1) : ((g + 1.0) * (double)size - 1.0) / 2.0;
}

static double gs_reflect(double v, double twice_lo, double twice_hi)
{
    if (twice_lo == twice_hi) {
        return 0.0;
    }
    const double lo = twice_lo / 2.0, span = (twice_hi - twice_lo) / 2.0;
    v = fabs(v - lo);
    const double extra = fmod(v, span);
    const double flips = floor(v / span);
    return fmod(flips, 2.0) == 0.0 ? extra + lo : span - extra + lo;
}

/* The padding rule on a coordinate (zeros: unchanged). */
static double gs_pad(const oa_kgrid_sample_params *p, double v, int64_t size)
{
    if (p->padding == OA_KGS_PAD_ZEROS) {
        return v;
    }
    if (p->padding == OA_KGS_PAD_REFLECTION) {
        v = p->align_corners ? gs_reflect(v, 0.0, 2.0 * (double)(size - 1))
                             : gs_reflect(v, -1.0, 2.0 * (double)size - 1.0);
    }
    return v < 0.0 ? 0.0 : v > (double)(size - 1) ? (double)(size - 1) : v;
}

static double gs_at(const float *x, int64_t h, int64_t w, int64_t iy, int64_t ix)
{
    return iy >= 0 && iy < h && ix >= 0 && ix < w ? (double)x[iy * w + ix] : 0.0;
}

static void gs_cubic(double t, double c[4])
{
    const double a = -0.75, t1 = t + 1.0, u = 1.0 - t, u1 = u + 1.0;
    c[0] = ((a * t1 - 5.0 * a) * t1 + 8.0 * a) * t1 - 4.0 * a;
    c[1] = ((a + 2.0) * t - (a + 3.0)) * t * t + 1.0;
    c[2] = ((a + 2.0) * u - (a + 3.0)) * u * u + 1.0;
    c[3] = ((a * u1 - 5.0 * a) * u1 + 8.0 * a) * u1 - 4.0 * a;
}

typedef struct gs_ctx {
    const oa_kgrid_sample_params *p;
    int64_t c, h, w, oh, ow;
    const float *x, *g;
    float *y;
} gs_ctx;

static void gs_task(void *vctx, size_t tid, size_t b, size_t e)
{
    (void)tid;
    const gs_ctx *c = vctx;
    const oa_kgrid_sample_params *p = c->p;
    const int64_t H = c->h, W = c->w;
    for (size_t plane = b; plane < e; plane++) {
        const int64_t n = (int64_t)plane / c->c;
        const float *x = c->x + (int64_t)plane * H * W;
        const float *grid = c->g + n * c->oh * c->ow * 2;
        float *y = c->y + (int64_t)plane * c->oh * c->ow;
        for (int64_t o = 0; o < c->oh * c->ow; o++) {
            const double fx = gs_unnorm(grid[2 * o], W, p->align_corners);
            const double fy = gs_unnorm(grid[2 * o + 1], H, p->align_corners);
            double v = 0.0;
            if (p->mode == OA_KGS_BICUBIC) {
                const double x0 = floor(fx), y0 = floor(fy);
                double cx[4], cy[4];
                gs_cubic(fx - x0, cx);
                gs_cubic(fy - y0, cy);
                for (int i = 0; i < 4; i++) {
                    double row = 0.0;
                    const double ty = gs_pad(p, y0 - 1.0 + i, H);
                    for (int j = 0; j < 4; j++) {
                        const double tx = gs_pad(p, x0 - 1.0 + j, W);
                        row += cx[j] * gs_at(x, H, W, (int64_t)ty, (int64_t)tx);
                    }
                    v += cy[i] * row;
                }
            } else {
                const double sx = gs_pad(p, fx, W), sy = gs_pad(p, fy, H);
                if (p->mode == OA_KGS_NEAREST) {
                    v = gs_at(x, H, W, (int64_t)nearbyint(sy), (int64_t)nearbyint(sx));
                } else {
                    const double x0 = floor(sx), y0 = floor(sy), tx = sx - x0, ty = sy - y0;
                    const int64_t ix = (int64_t)x0, iy = (int64_t)y0;
                    v = (1 - ty) * ((1 - tx) * gs_at(x, H, W, iy, ix) + tx * gs_at(x, H, W, iy, ix + 1)) +
                        ty * ((1 - tx) * gs_at(x, H, W, iy + 1, ix) + tx * gs_at(x, H, W, iy + 1, ix + 1));
                }
            }
            y[o] = (float)v;
        }
    }
}

static oa_status gs_run(const oa_kop *op, const void *const *in, void *const *out, void *ws, oa_threadpool *pool)
{
    (void)ws;
    if (in[0] == NULL || in[1] == NULL || out[0] == NULL) {
        return OA_FAIL(OA_E_PARAM, "GridSampler2D: NULL data pointer");
    }
    const oa_ktensor *x = &op->in[0], *g = &op->in[1];
    gs_ctx c = {&op->params.grid_sample, x->dims[1], x->dims[2], x->dims[3], g->dims[1], g->dims[2], in[0], in[1],
                out[0]};
    /* a coordinate far outside the input (a NaN or huge grid value) must not reach an integer conversion */
    const int64_t ng = oa_ktensor_numel(g);
    for (int64_t i = 0; i < ng; i++) {
        if (!(fabsf(c.g[i]) <= 1e6f)) {
            return OA_FAIL(OA_E_PARAM, "GridSampler2D: grid value %g is outside [-1e6, 1e6]", (double)c.g[i]);
        }
    }
    oa_threadpool_parallel_for(pool, (size_t)(x->dims[0] * c.c), (size_t)(OA_KGRAIN_ELEMS / (c.oh * c.ow * 16 + 1) + 1),
                               gs_task, &c);
    return OA_OK;
}

static void gs_release(oa_kop *op)
{
    (void)op;
}

const oa_kfamily oa_kfam_grid_sample = {
    .params_size = sizeof(oa_kgrid_sample_params),
    .infer = gs_infer,
    .setup = gs_setup,
    .run = gs_run,
    .release = gs_release,
};

/* ---- MatrixDeterminant ---- */

static oa_status det_infer(const void *params, int n_in, const oa_ktensor *in, int n_out, oa_ktensor *out)
{
    (void)params;
    if (n_in != 1 || n_out != 1) {
        return OA_FAIL(OA_E_PARAM, "MatrixDeterminant: 1 input and 1 output (got %d, %d)", n_in, n_out);
    }
    const oa_ktensor *x = &in[0];
    if ((x->dtype != OA_KDT_F32 && x->dtype != OA_KDT_F64) || x->layout != OA_KLAYOUT_PLAIN) {
        return OA_FAIL(OA_E_UNSUPPORTED_DATA_TYPE, "MatrixDeterminant: x must be plain f32 or f64");
    }
    if (x->rank < 2 || x->dims[x->rank - 1] != x->dims[x->rank - 2] || x->dims[x->rank - 1] > 4096) {
        return OA_FAIL(OA_E_PARAM, "MatrixDeterminant: x must be [..., M, M] with M <= 4096");
    }
    oa_ktensor_set(&out[0], x->dtype, x->rank - 2, x->dims);
    return OA_OK;
}

static oa_status det_setup(oa_kop *op)
{
    const int64_t m = op->in[0].dims[op->in[0].rank - 1];
    op->ws_size = sizeof(double) * (size_t)(m * m > 0 ? m * m : 1);
    op->impl = "ref";
    return OA_OK;
}

static oa_status det_run(const oa_kop *op, const void *const *in, void *const *out, void *ws, oa_threadpool *pool)
{
    (void)pool;
    if (in[0] == NULL || out[0] == NULL || ws == NULL) {
        return OA_FAIL(OA_E_PARAM, "MatrixDeterminant: NULL data pointer");
    }
    const oa_ktensor *x = &op->in[0];
    const int64_t m = x->dims[x->rank - 1], nb = oa_ktensor_numel(&op->out[0]);
    const bool f64 = x->dtype == OA_KDT_F64;
    double *a = ws;
    for (int64_t b = 0; b < nb; b++) {
        for (int64_t i = 0; i < m * m; i++) {
            a[i] = f64 ? ((const double *)in[0])[b * m * m + i] : ((const float *)in[0])[b * m * m + i];
        }
        double det = 1.0;
        for (int64_t k = 0; k < m && det != 0.0; k++) {
            int64_t piv = k;
            for (int64_t r = k + 1; r < m; r++) {
                if (fabs(a[r * m + k]) > fabs(a[piv * m + k])) {
                    piv = r;
                }
            }
            if (a[piv * m + k] == 0.0) {
                det = 0.0;
                break;
            }
            if (piv != k) {
                for (int64_t j = 0; j < m; j++) {
                    const double t = a[k * m + j];
                    a[k * m + j] = a[piv * m + j];
                    a[piv * m + j] = t;
                }
                det = -det;
            }
            det *= a[k * m + k];
            for (int64_t r = k + 1; r < m; r++) {
                const double f = a[r * m + k] / a[k * m + k];
                for (int64_t j = k; j < m; j++) {
                    a[r * m + j] -= f * a[k * m + j];
                }
            }
        }
        if (f64) {
            ((double *)out[0])[b] = det;
        } else {
            ((float *)out[0])[b] = (float)det;
        }
    }
    return OA_OK;
}

const oa_kfamily oa_kfam_det = {
    .params_size = 0,
    .infer = det_infer,
    .setup = det_setup,
    .run = det_run,
    .release = gs_release,
};
