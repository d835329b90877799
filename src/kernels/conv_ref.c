/*
 * Direct N-D convolution (1-D to 3-D spatial), f32: the kernel for the
 * convolutions the packed Conv2D path cannot take (Conv3D, and a filter or
 * bias that is only known at run time: weights as graph inputs). Inputs x
 * [N, C, spatial...], filter [M, C/groups, k...], bias [M] (optional); every
 * operand is read at run time, nothing is packed. y[n, m, o...] = bias[m] +
 * sum over c in m's group and the kernel window of x * filter, with zero
 * padding. Threads split (n, m) planes.
 */
#include "kernels/kernel_internal.h"

#include <stdlib.h>
#include <string.h>

static oa_status cref_check(const oa_kconvref_params *p, int n_in, const oa_ktensor *in)
{
    if (n_in < 2 || n_in > 3) {
        return OA_FAIL(OA_E_PARAM, "ConvRef: x, filter[, bias]");
    }
    const int ns = p->nsp;
    if (ns < 1 || ns > 3 || in[0].rank != ns + 2 || in[1].rank != ns + 2) {
        return OA_FAIL(OA_E_PARAM, "ConvRef: x rank %d and filter rank %d for %d spatial dims", in[0].rank,
                       in[1].rank, ns);
    }
    const oa_ktensor *bias = oa_kt_opt(n_in, in, 2);
    if (in[0].dtype != OA_KDT_F32 || in[1].dtype != OA_KDT_F32 || (bias != NULL && bias->dtype != OA_KDT_F32)) {
        return OA_FAIL(OA_E_UNSUPPORTED_DATA_TYPE, "ConvRef: f32 only (x %s, filter %s)", oa_kdtype_name(in[0].dtype),
                       oa_kdtype_name(in[1].dtype));
    }
    const int64_t g = p->groups > 0 ? p->groups : 1;
    if (p->transpose) {
        if (in[0].dims[1] != in[1].dims[0] || in[1].dims[0] % g != 0) {
            return OA_FAIL(OA_E_PARAM, "ConvRef: x has %lld channels, the transposed filter %lld",
                           (long long)in[0].dims[1], (long long)in[1].dims[0]);
        }
        if (n_in == 3 && oa_kt_opt(n_in, in, 2) != NULL && oa_ktensor_numel(&in[2]) != in[1].dims[1] * g) {
            return OA_FAIL(OA_E_PARAM, "ConvRef: bias must hold %lld values", (long long)(in[1].dims[1] * g));
        }
    } else if (in[0].dims[1] != in[1].dims[1] * g || in[1].dims[0] % g != 0) {
        return OA_FAIL(OA_E_PARAM, "ConvRef: x has %lld channels, the filter %lld x %lld groups",
                       (long long)in[0].dims[1], (long long)in[1].dims[1], (long long)g);
    }
    if (!p->transpose && bias != NULL && oa_ktensor_numel(bias) != in[1].dims[0]) {
        return OA_FAIL(OA_E_PARAM, "ConvRef: bias must hold %lld values", (long long)in[1].dims[0]);
    }
    for (int a = 0; a < ns; a++) {
        if (p->strides[a] < 1 || p->dilations[a] < 1 || p->pads[a] < 0 || p->pads[ns + a] < 0) {
            return OA_FAIL(OA_E_PARAM, "ConvRef: strides and dilations >= 1, pads >= 0");
        }
    }
    return OA_OK;
}

static oa_status cref_infer(const void *params, int n_in, const oa_ktensor *in, int n_out, oa_ktensor *out)
{
    const oa_kconvref_params *p = params;
    oa_status st = n_out == 1 ? cref_check(p, n_in, in) : OA_FAIL(OA_E_PARAM, "ConvRef: 1 output");
    if (st != OA_OK) {
        return st;
    }
    out[0] = in[0];
    out[0].data = NULL;
    out[0].dims[1] = p->transpose ? in[1].dims[1] * (p->groups > 0 ? p->groups : 1) : in[1].dims[0];
    for (int a = 0; a < p->nsp; a++) {
        const int64_t span = p->dilations[a] * (in[1].dims[2 + a] - 1) + 1;
        if (p->transpose) {
            const int64_t o = (in[0].dims[2 + a] - 1) * p->strides[a] - p->pads[a] - p->pads[p->nsp + a] + span +
                              p->output_padding[a];
            if (o < 1) {
                return OA_FAIL(OA_E_PARAM, "ConvRef: transposed output size %lld on axis %d", (long long)o, a);
            }
            out[0].dims[2 + a] = o;
            continue;
        }
        const int64_t o = (in[0].dims[2 + a] + p->pads[a] + p->pads[p->nsp + a] - span) / p->strides[a] + 1;
        if (o < 1) {
            return OA_FAIL(OA_E_PARAM, "ConvRef: the window is larger than the padded input on axis %d", a);
        }
        out[0].dims[2 + a] = o;
    }
    return OA_OK;
}

static oa_status cref_setup(oa_kop *op)
{
    return cref_check(&op->params.convref, op->n_in, op->in);
}

typedef struct cref_ctx {
    const oa_kop *op;
    const float *x, *w, *b;
    float *y;
} cref_ctx;

/* transposed: each (n, m) output plane gathers the contributions scattered into it */
static void cref_t_task(void *vctx, size_t tid, size_t begin, size_t end)
{
    (void)tid;
    const cref_ctx *c = vctx;
    const oa_kconvref_params *p = &c->op->params.convref;
    const oa_ktensor *x = &c->op->in[0], *w = &c->op->in[1], *y = &c->op->out[0];
    const int ns = p->nsp;
    int64_t xd[3] = {1, 1, 1}, kd[3] = {1, 1, 1}, yd[3] = {1, 1, 1}, st[3] = {1, 1, 1}, dl[3] = {1, 1, 1},
            pb[3] = {0, 0, 0};
    for (int a = 0; a < ns; a++) {
        const int k = 3 - ns + a;
        xd[k] = x->dims[2 + a];
        kd[k] = w->dims[2 + a];
        yd[k] = y->dims[2 + a];
        st[k] = p->strides[a];
        dl[k] = p->dilations[a];
        pb[k] = p->pads[a];
    }
    const int64_t C = x->dims[1], Mg = w->dims[1], M = y->dims[1];
    const int64_t g = p->groups > 0 ? p->groups : 1, Cg = C / g;
    const int64_t xplane = xd[0] * xd[1] * xd[2], kplane = kd[0] * kd[1] * kd[2], yplane = yd[0] * yd[1] * yd[2];
    for (size_t t = begin; t < end; t++) {
        const int64_t n = (int64_t)t / M, m = (int64_t)t % M, grp = m / Mg, ml = m % Mg;
        float *yo = c->y + (size_t)t * (size_t)yplane;
        const float bias = c->b != NULL ? c->b[m] : 0.0f;
        for (int64_t q = 0; q < yplane; q++) {
            yo[q] = bias;
        }
        for (int64_t cc = 0; cc < Cg; cc++) {
            const int64_t ci = grp * Cg + cc;
            const float *xc = c->x + ((size_t)n * (size_t)C + (size_t)ci) * (size_t)xplane;
            const float *wc = c->w + ((size_t)ci * (size_t)Mg + (size_t)ml) * (size_t)kplane;
            for (int64_t i0 = 0; i0 < xd[0]; i0++) {
                for (int64_t i1 = 0; i1 < xd[1]; i1++) {
                    for (int64_t i2 = 0; i2 < xd[2]; i2++) {
                        const float v = xc[(i0 * xd[1] + i1) * xd[2] + i2];
                        for (int64_t k0 = 0; k0 < kd[0]; k0++) {
                            const int64_t o0 = i0 * st[0] - pb[0] + k0 * dl[0];
                            if (o0 < 0 || o0 >= yd[0]) {
                                continue;
                            }
                            for (int64_t k1 = 0; k1 < kd[1]; k1++) {
                                const int64_t o1 = i1 * st[1] - pb[1] + k1 * dl[1];
                                if (o1 < 0 || o1 >= yd[1]) {
                                    continue;
                                }
                                for (int64_t k2 = 0; k2 < kd[2]; k2++) {
                                    const int64_t o2 = i2 * st[2] - pb[2] + k2 * dl[2];
                                    if (o2 >= 0 && o2 < yd[2]) {
                                        yo[(o0 * yd[1] + o1) * yd[2] + o2] += v * wc[(k0 * kd[1] + k1) * kd[2] + k2];
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

static void cref_task(void *vctx, size_t tid, size_t begin, size_t end)
{
    (void)tid;
    const cref_ctx *c = vctx;
    const oa_kconvref_params *p = &c->op->params.convref;
    const oa_ktensor *x = &c->op->in[0], *w = &c->op->in[1], *y = &c->op->out[0];
    const int ns = p->nsp;
    int64_t xd[3] = {1, 1, 1}, kd[3] = {1, 1, 1}, yd[3] = {1, 1, 1}, st[3] = {1, 1, 1}, dl[3] = {1, 1, 1},
            pb[3] = {0, 0, 0};
    for (int a = 0; a < ns; a++) { /* right-align the spatial dims into 3 */
        const int k = 3 - ns + a;
        xd[k] = x->dims[2 + a];
        kd[k] = w->dims[2 + a];
        yd[k] = y->dims[2 + a];
        st[k] = p->strides[a];
        dl[k] = p->dilations[a];
        pb[k] = p->pads[a];
    }
    const int64_t M = w->dims[0], Cg = w->dims[1], C = x->dims[1];
    const int64_t g = p->groups > 0 ? p->groups : 1, Mg = M / g;
    const int64_t xplane = xd[0] * xd[1] * xd[2], kplane = kd[0] * kd[1] * kd[2], yplane = yd[0] * yd[1] * yd[2];
    for (size_t t = begin; t < end; t++) {
        const int64_t n = (int64_t)t / M, m = (int64_t)t % M, grp = m / Mg;
        float *yo = c->y + ((size_t)n * (size_t)M + (size_t)m) * (size_t)yplane;
        const float bias = c->b != NULL ? c->b[m] : 0.0f;
        for (int64_t o0 = 0; o0 < yd[0]; o0++) {
            for (int64_t o1 = 0; o1 < yd[1]; o1++) {
                for (int64_t o2 = 0; o2 < yd[2]; o2++) {
                    double acc = bias;
                    for (int64_t cc = 0; cc < Cg; cc++) {
                        const float *xc = c->x + ((size_t)n * (size_t)C + (size_t)(grp * Cg + cc)) * (size_t)xplane;
                        const float *wc = c->w + ((size_t)m * (size_t)Cg + (size_t)cc) * (size_t)kplane;
                        for (int64_t k0 = 0; k0 < kd[0]; k0++) {
                            const int64_t i0 = o0 * st[0] - pb[0] + k0 * dl[0];
                            if (i0 < 0 || i0 >= xd[0]) {
                                continue;
                            }
                            for (int64_t k1 = 0; k1 < kd[1]; k1++) {
                                const int64_t i1 = o1 * st[1] - pb[1] + k1 * dl[1];
                                if (i1 < 0 || i1 >= xd[1]) {
                                    continue;
                                }
                                for (int64_t k2 = 0; k2 < kd[2]; k2++) {
                                    const int64_t i2 = o2 * st[2] - pb[2] + k2 * dl[2];
                                    if (i2 < 0 || i2 >= xd[2]) {
                                        continue;
                                    }
                                    acc += (double)xc[(i0 * xd[1] + i1) * xd[2] + i2] *
                                           (double)wc[(k0 * kd[1] + k1) * kd[2] + k2];
                                }
                            }
                        }
                    }
                    yo[(o0 * yd[1] + o1) * yd[2] + o2] = (float)acc;
                }
            }
        }
    }
}

static oa_status cref_run(const oa_kop *op, const void *const *in, void *const *out, void *ws, oa_threadpool *pool)
{
    (void)ws;
    if (oa_ktensor_numel(&op->out[0]) == 0) {
        return OA_OK;
    }
    if (in[0] == NULL || in[1] == NULL || out[0] == NULL) {
        return OA_FAIL(OA_E_PARAM, "ConvRef: NULL data pointer");
    }
    cref_ctx c = {.op = op, .x = in[0], .w = in[1], .b = oa_kt_opt(op->n_in, op->in, 2) != NULL ? in[2] : NULL, .y = out[0]};
    const size_t tasks = (size_t)(op->out[0].dims[0] * op->out[0].dims[1]);
    oa_threadpool_parallel_for(pool, tasks, 1, op->params.convref.transpose ? cref_t_task : cref_task, &c);
    return OA_OK;
}

const oa_kfamily oa_kfam_conv_ref = {
    .params_size = sizeof(oa_kconvref_params),
    .infer = cref_infer,
    .setup = cref_setup,
    .run = cref_run,
    .release = NULL,
};
