/*
 * Selection ops: TopK (any axis, largest/smallest, ties by lower index) and
 * NonMaxSuppressionV6 (ONNX NonMaxSuppression semantics). Both sort in the
 * workspace and run on the calling thread.
 */
#include "kernels/kernel_internal.h"

#include <math.h>
#include <stdlib.h>

typedef struct kv {
    double v;
    int64_t i;
} kv;

static int cmp_desc(const void *a, const void *b)
{
    const kv *x = a, *y = b;
    bool xn = x->v != x->v, yn = y->v != y->v;
    if (xn != yn) {
        return xn ? -1 : 1; /* NaN first (largest) */
    }
    if (x->v > y->v) {
        return -1;
    }
    if (x->v < y->v) {
        return 1;
    }
    return x->i < y->i ? -1 : (x->i > y->i);
}

static int cmp_asc(const void *a, const void *b)
{
    const kv *x = a, *y = b;
    bool xn = x->v != x->v, yn = y->v != y->v;
    if (xn != yn) {
        return xn ? 1 : -1;
    }
    if (x->v < y->v) {
        return -1;
    }
    if (x->v > y->v) {
        return 1;
    }
    return x->i < y->i ? -1 : (x->i > y->i);
}

/* =========================== TopK ======================================= */

typedef struct topk_state {
    int64_t outer, len, inner, k;
    oa_kdtype dt, idt;
    bool largest;
} topk_state;

static oa_status topk_geom(const oa_ktopk_params *p, int n_in, const oa_ktensor *in, int *ax, int64_t *k)
{
    if (n_in != 2) {
        return OA_FAIL(OA_E_PARAM, "TopK: x and k inputs");
    }
    oa_kdtype dt = in[0].dtype;
    if (dt != OA_KDT_F32 && dt != OA_KDT_I32 && dt != OA_KDT_I64) {
        return OA_FAIL(OA_E_UNSUPPORTED_DATA_TYPE, "TopK: dtype %s not supported", oa_kdtype_name(dt));
    }
    if (in[0].rank == 0 || !oa_kaxis_norm(p->axis, in[0].rank, ax)) {
        return OA_FAIL(OA_E_PARAM, "TopK: axis %lld out of range for rank %d", (long long)p->axis, in[0].rank);
    }
    if (in[1].data == NULL || oa_ktensor_numel(&in[1]) != 1) {
        return OA_FAIL(OA_E_PARAM, "TopK: k must be a host scalar or [1]");
    }
    *k = oa_kt_get_i64(&in[1], 0);
    if (*k < 0 || *k > in[0].dims[*ax]) {
        return OA_FAIL(OA_E_PARAM, "TopK: k = %lld out of [0, %lld]", (long long)*k, (long long)in[0].dims[*ax]);
    }
    return OA_OK;
}

static oa_status topk_infer(const void *params, int n_in, const oa_ktensor *in, int n_out, oa_ktensor *out)
{
    if (n_out != 2) {
        return OA_FAIL(OA_E_PARAM, "TopK: values and indices outputs");
    }
    int ax = 0;
    int64_t k;
    oa_status st = topk_geom(params, n_in, in, &ax, &k);
    if (st != OA_OK) {
        return st;
    }
    oa_kdtype idt = out[1].dtype == OA_KDT_I64 ? OA_KDT_I64 : OA_KDT_I32;
    out[0] = in[0];
    out[0].data = NULL;
    out[0].dims[ax] = k;
    out[1] = out[0];
    out[1].dtype = idt;
    return OA_OK;
}

static oa_status topk_setup(oa_kop *op)
{
    topk_state *s = calloc(1, sizeof(*s));
    if (s == NULL) {
        return OA_FAIL(OA_E_NOMEM, "topk state");
    }
    op->state = s;
    int ax = 0;
    oa_status st = topk_geom(&op->params.topk, op->n_in, op->in, &ax, &s->k);
    if (st != OA_OK) {
        return st;
    }
    const oa_ktensor *x = &op->in[0];
    s->outer = s->inner = 1;
    for (int i = 0; i < ax; i++) {
        s->outer *= x->dims[i];
    }
    for (int i = ax + 1; i < x->rank; i++) {
        s->inner *= x->dims[i];
    }
    s->len = x->dims[ax];
    s->dt = x->dtype;
    s->idt = op->out[1].dtype;
    s->largest = op->params.topk.largest;
    op->ws_size = sizeof(kv) * (size_t)(s->len > 0 ? s->len : 1);
    return OA_OK;
}

static double get_val(const void *p, oa_kdtype dt, int64_t i)
{
    switch (dt) {
    case OA_KDT_F32: return ((const float *)p)[i];
    case OA_KDT_I32: return ((const int32_t *)p)[i];
    default: return (double)((const int64_t *)p)[i];
    }
}

static oa_status topk_run(const oa_kop *op, const void *const *in, void *const *out, void *ws, oa_threadpool *pool)
{
    (void)pool;
    const topk_state *s = op->state;
    if (in[0] == NULL || out[0] == NULL || out[1] == NULL) {
        return OA_FAIL(OA_E_PARAM, "TopK: NULL data pointer");
    }
    kv *buf = ws;
    size_t esz = oa_kdtype_size(s->dt);
    for (int64_t o = 0; o < s->outer; o++) {
        for (int64_t i = 0; i < s->inner; i++) {
            for (int64_t l = 0; l < s->len; l++) {
                int64_t src = (o * s->len + l) * s->inner + i;
                buf[l].v = get_val(in[0], s->dt, src);
                buf[l].i = l;
            }
            qsort(buf, (size_t)s->len, sizeof(kv), s->largest ? cmp_desc : cmp_asc);
            for (int64_t j = 0; j < s->k; j++) {
                int64_t dst = (o * s->k + j) * s->inner + i;
                int64_t src = (o * s->len + buf[j].i) * s->inner + i;
                memcpy((char *)out[0] + (size_t)dst * esz, (const char *)in[0] + (size_t)src * esz, esz);
                if (s->idt == OA_KDT_I64) {
                    ((int64_t *)out[1])[dst] = buf[j].i;
                } else {
                    ((int32_t *)out[1])[dst] = (int32_t)buf[j].i;
                }
            }
        }
    }
    return OA_OK;
}

const oa_kfamily oa_kfam_topk = {
    .params_size = sizeof(oa_ktopk_params),
    .infer = topk_infer,
    .setup = topk_setup,
    .run = topk_run,
    .release = oa_kop_state_free,
};

/* =========================== NonMaxSuppressionV6 ======================== */

typedef struct nms_state {
    int64_t b, n, c, max_out, rows;
    float iou, score;
    bool has_score;
    int center;
    oa_kdtype idt;
} nms_state;

static oa_status nms_geom(int n_in, const oa_ktensor *in, nms_state *s)
{
    if (n_in < 2 || n_in > 5) {
        return OA_FAIL(OA_E_PARAM, "NonMaxSuppressionV6: 2..5 inputs");
    }
    const oa_ktensor *bx = &in[0], *sc = &in[1];
    if (bx->dtype != OA_KDT_F32 || sc->dtype != OA_KDT_F32 || bx->rank != 3 || sc->rank != 3 || bx->dims[2] != 4 ||
        sc->dims[0] != bx->dims[0] || sc->dims[2] != bx->dims[1]) {
        return OA_FAIL(OA_E_PARAM, "NonMaxSuppressionV6: boxes f32 [B,N,4] and scores f32 [B,C,N] expected");
    }
    s->b = bx->dims[0];
    s->n = bx->dims[1];
    s->c = sc->dims[1];
    s->max_out = 0;
    s->iou = 0.0f;
    s->has_score = false;
    const oa_ktensor *t;
    if ((t = oa_kt_opt(n_in, in, 2)) != NULL) {
        if (t->data == NULL || oa_ktensor_numel(t) != 1) {
            return OA_FAIL(OA_E_PARAM, "NonMaxSuppressionV6: max_output_size must be a host scalar");
        }
        s->max_out = oa_kt_get_i64(t, 0);
    }
    if ((t = oa_kt_opt(n_in, in, 3)) != NULL) {
        if (t->data == NULL || oa_ktensor_numel(t) != 1) {
            return OA_FAIL(OA_E_PARAM, "NonMaxSuppressionV6: iou_threshold must be a host scalar");
        }
        s->iou = (float)oa_kt_get_f64(t, 0);
    }
    if ((t = oa_kt_opt(n_in, in, 4)) != NULL) {
        if (t->data == NULL || oa_ktensor_numel(t) != 1) {
            return OA_FAIL(OA_E_PARAM, "NonMaxSuppressionV6: score_threshold must be a host scalar");
        }
        s->score = (float)oa_kt_get_f64(t, 0);
        s->has_score = true;
    }
    if (s->max_out < 0) {
        s->max_out = 0;
    }
    int64_t per = s->max_out < s->n ? s->max_out : s->n;
    s->rows = s->b * s->c * per;
    return OA_OK;
}

static oa_status nms_infer(const void *params, int n_in, const oa_ktensor *in, int n_out, oa_ktensor *out)
{
    (void)params;
    if (n_out < 1 || n_out > 2) {
        return OA_FAIL(OA_E_PARAM, "NonMaxSuppressionV6: 1 or 2 outputs");
    }
    nms_state s;
    oa_status st = nms_geom(n_in, in, &s);
    if (st != OA_OK) {
        return st;
    }
    int64_t d[2] = {s.rows, 3};
    oa_ktensor_set(&out[0], out[0].dtype == OA_KDT_I64 ? OA_KDT_I64 : OA_KDT_I32, 2, d);
    if (n_out == 2) {
        oa_ktensor_set(&out[1], OA_KDT_I64, 0, d);
    }
    return OA_OK;
}

static oa_status nms_setup(oa_kop *op)
{
    nms_state *s = calloc(1, sizeof(*s));
    if (s == NULL) {
        return OA_FAIL(OA_E_NOMEM, "nms state");
    }
    op->state = s;
    oa_status st = nms_geom(op->n_in, op->in, s);
    if (st != OA_OK) {
        return st;
    }
    s->center = op->params.nms.center_point_box;
    s->idt = op->out[0].dtype;
    op->ws_size = (sizeof(kv) + sizeof(int64_t)) * (size_t)(s->n > 0 ? s->n : 1);
    return OA_OK;
}

static void corners(const float *b, int center, float *y1, float *x1, float *y2, float *x2)
{
    if (center) {
        float xc = b[0], yc = b[1], w = b[2], h = b[3];
        *x1 = xc - w / 2;
        *x2 = xc + w / 2;
        *y1 = yc - h / 2;
        *y2 = yc + h / 2;
    } else {
        *y1 = fminf(b[0], b[2]);
        *y2 = fmaxf(b[0], b[2]);
        *x1 = fminf(b[1], b[3]);
        *x2 = fmaxf(b[1], b[3]);
    }
}

static float iou(const float *a, const float *b, int center)
{
    float ay1, ax1, ay2, ax2, by1, bx1, by2, bx2;
    corners(a, center, &ay1, &ax1, &ay2, &ax2);
    corners(b, center, &by1, &bx1, &by2, &bx2);
    float ih = fminf(ay2, by2) - fmaxf(ay1, by1), iw = fminf(ax2, bx2) - fmaxf(ax1, bx1);
    if (ih <= 0 || iw <= 0) {
        return 0.0f;
    }
    float inter = ih * iw;
    float uni = (ay2 - ay1) * (ax2 - ax1) + (by2 - by1) * (bx2 - bx1) - inter;
    return uni > 0 ? inter / uni : 0.0f;
}

static oa_status nms_run(const oa_kop *op, const void *const *in, void *const *out, void *ws, oa_threadpool *pool)
{
    (void)pool;
    const nms_state *s = op->state;
    if (in[0] == NULL || in[1] == NULL || out[0] == NULL) {
        return OA_FAIL(OA_E_PARAM, "NonMaxSuppressionV6: NULL data pointer");
    }
    const float *boxes = in[0], *scores = in[1];
    kv *cand = ws;
    int64_t *sel = (int64_t *)(void *)(cand + (s->n > 0 ? s->n : 1));
    int64_t row = 0;
    for (int64_t b = 0; b < s->b; b++) {
        for (int64_t c = 0; c < s->c; c++) {
            const float *sc = scores + (b * s->c + c) * s->n;
            int64_t nc = 0;
            for (int64_t i = 0; i < s->n; i++) {
                if (!s->has_score || sc[i] > s->score) {
                    cand[nc].v = sc[i];
                    cand[nc].i = i;
                    nc++;
                }
            }
            qsort(cand, (size_t)nc, sizeof(kv), cmp_desc);
            int64_t ns = 0;
            for (int64_t k = 0; k < nc && ns < s->max_out; k++) {
                const float *bk = boxes + (b * s->n + cand[k].i) * 4;
                bool keep = true;
                for (int64_t j = 0; j < ns && keep; j++) {
                    if (iou(bk, boxes + (b * s->n + sel[j]) * 4, s->center) > s->iou) {
                        keep = false;
                    }
                }
                if (keep) {
                    sel[ns++] = cand[k].i;
                }
            }
            for (int64_t j = 0; j < ns; j++, row++) {
                int64_t v[3] = {b, c, sel[j]};
                for (int q = 0; q < 3; q++) {
                    if (s->idt == OA_KDT_I64) {
                        ((int64_t *)out[0])[row * 3 + q] = v[q];
                    } else {
                        ((int32_t *)out[0])[row * 3 + q] = (int32_t)v[q];
                    }
                }
            }
        }
    }
    for (int64_t r = row; r < s->rows; r++) {
        for (int q = 0; q < 3; q++) {
            if (s->idt == OA_KDT_I64) {
                ((int64_t *)out[0])[r * 3 + q] = -1;
            } else {
                ((int32_t *)out[0])[r * 3 + q] = -1;
            }
        }
    }
    if (op->n_out > 1 && out[1] != NULL) {
        *(int64_t *)out[1] = row;
    }
    return OA_OK;
}

const oa_kfamily oa_kfam_nms = {
    .params_size = sizeof(oa_knms_params),
    .infer = nms_infer,
    .setup = nms_setup,
    .run = nms_run,
    .release = oa_kop_state_free,
};
