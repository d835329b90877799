/*
 * Normalisation family: BatchNorm (inference, plain and NCHWc, fused
 * activation), LayerNorm (+ optional mean/variance outputs) and SoftmaxV2 /
 * LogSoftmaxV2 along any axis. All f32.
 */
#include "kernels/kernel_internal.h"

#include <math.h>
#include <stdlib.h>

/* =========================== BatchNorm ================================== */

typedef struct bn_state {
    int64_t n, c, inner;
    bool blocked, constant;
    float eps;
    oa_kpost_chain post;
    float st[]; /* 2 * cpad: scale, shift (constant params) */
} bn_state;

static oa_status bn_infer(const void *params, int n_in, const oa_ktensor *in, int n_out, oa_ktensor *out)
{
    const oa_kbatchnorm_params *p = params;
    if (n_in != 5 || n_out < 1) {
        return OA_FAIL(OA_E_PARAM, "BatchNorm: needs 5 inputs (x, scale, offset, mean, variance) and >= 1 output");
    }
    const oa_ktensor *x = &in[0];
    if (x->dtype != OA_KDT_F32 || x->rank < 2) {
        return OA_FAIL(OA_E_PARAM, "BatchNorm: x must be f32 with rank >= 2 (got %s rank %d)", oa_kdtype_name(x->dtype),
                       x->rank);
    }
    for (int i = 1; i < 5; i++) {
        if (in[i].dtype != OA_KDT_F32 || oa_ktensor_numel(&in[i]) != x->dims[1]) {
            return OA_FAIL(OA_E_PARAM, "BatchNorm: input %d must be f32 with %lld elements", i, (long long)x->dims[1]);
        }
    }
    int n_add;
    oa_status st = oa_kpost_check(&p->post, false, &n_add);
    if (st != OA_OK) {
        return st;
    }
    out[0] = *x;
    out[0].data = NULL;
    for (int i = 1; i < n_out; i++) { /* batch_mean, batch_variance, reserve_space_*: [C] */
        int64_t d = x->dims[1];
        oa_ktensor_set(&out[i], OA_KDT_F32, 1, &d);
    }
    return OA_OK;
}

static void bn_fill(float *st, int64_t c, int64_t cpad, float eps, const float *sc, const float *of, const float *mu,
                    const float *var)
{
    for (int64_t i = 0; i < cpad; i++) {
        if (i < c) {
            float f = sc[i] / sqrtf(var[i] + eps);
            st[i] = f;
            st[cpad + i] = of[i] - mu[i] * f;
        } else {
            st[i] = st[cpad + i] = 0.0f;
        }
    }
}

static oa_status bn_setup(oa_kop *op)
{
    const oa_ktensor *x = &op->in[0];
    int64_t c = x->dims[1];
    bool blocked = x->layout == OA_KLAYOUT_NCHWC;
    int64_t cpad = blocked ? oa_kc_padded(c) : c;
    bn_state *s = calloc(1, sizeof(*s) + sizeof(float) * 2 * (size_t)(cpad > 0 ? cpad : 1));
    if (s == NULL) {
        return OA_FAIL(OA_E_NOMEM, "batchnorm state");
    }
    op->state = s;
    s->n = x->dims[0];
    s->c = c;
    s->inner = 1;
    for (int i = 2; i < x->rank; i++) {
        s->inner *= x->dims[i];
    }
    s->blocked = blocked;
    s->eps = op->params.bn.epsilon;
    s->post = op->params.bn.post;
    s->constant = op->in[1].data && op->in[2].data && op->in[3].data && op->in[4].data;
    if (s->constant) {
        bn_fill(s->st, c, cpad, s->eps, op->in[1].data, op->in[2].data, op->in[3].data, op->in[4].data);
    } else {
        op->ws_size = sizeof(float) * 2 * (size_t)cpad;
    }
    op->impl = oa_kernels_isa();
    return OA_OK;
}

typedef struct bn_ctx {
    const bn_state *s;
    const float *x, *st;
    float *y;
} bn_ctx;

static void bn_task(void *vctx, size_t tid, size_t b, size_t e)
{
    (void)tid;
    const bn_ctx *c = vctx;
    const bn_state *s = c->s;
    const oa_kew_table *ew = oa_kew();
    int64_t blk = s->blocked ? oa_kernels_block() : 1;
    int64_t planes = s->blocked ? (s->c + blk - 1) / blk : s->c;
    int64_t cpad = planes * blk;
    int64_t len = s->inner * blk;
    for (size_t idx = b; idx < e; idx++) {
        int64_t pl = (int64_t)idx % planes;
        const float *x = c->x + (int64_t)idx * len;
        float *y = c->y + (int64_t)idx * len;
        if (s->blocked) {
            ew->scale_shift_blk(x, y, (size_t)s->inner, c->st + pl * blk, c->st + cpad + pl * blk, (int)blk);
        } else {
            ew->scale_shift(x, y, (size_t)len, c->st[pl], c->st[cpad + pl]);
        }
        for (int k = 0; k < s->post.n; k++) {
            ew->act[s->post.ops[k].act](y, (size_t)len, s->post.ops[k].alpha, s->post.ops[k].beta);
        }
        if (s->blocked && pl == planes - 1 && s->c % blk != 0) {
            oa_kblk_zero_lanes(y, s->inner, blk, s->c % blk);
        }
    }
}

static oa_status bn_run(const oa_kop *op, const void *const *in, void *const *out, void *ws, oa_threadpool *pool)
{
    const bn_state *s = op->state;
    if (in[0] == NULL || out[0] == NULL) {
        return OA_FAIL(OA_E_PARAM, "BatchNorm: NULL data pointer");
    }
    const float *st = s->st;
    int64_t cpad = s->blocked ? oa_kc_padded(s->c) : s->c;
    if (!s->constant) {
        for (int i = 1; i < 5; i++) {
            if (in[i] == NULL) {
                return OA_FAIL(OA_E_PARAM, "BatchNorm: parameter input %d is NULL", i);
            }
        }
        bn_fill(ws, s->c, cpad, s->eps, in[1], in[2], in[3], in[4]);
        st = ws;
    }
    for (int i = 1; i < op->n_out; i++) { /* inference: batch_mean/variance = the running stats */
        if (out[i] != NULL && op->out[i].dtype != OA_KDT_UNDEFINED) {
            const void *src = i == 1 || i == 3 ? in[3] : (i == 2 || i == 4 ? in[4] : NULL);
            if (src != NULL) {
                memcpy(out[i], src, sizeof(float) * (size_t)s->c);
            } else {
                memset(out[i], 0, sizeof(float) * (size_t)s->c);
            }
        }
    }
    bn_ctx c = {s, in[0], st, out[0]};
    int64_t blk = s->blocked ? oa_kernels_block() : 1;
    int64_t planes = s->n * (cpad / blk);
    oa_threadpool_parallel_for(pool, (size_t)planes, (size_t)(OA_KGRAIN_ELEMS / (s->inner * blk + 1) + 1), bn_task, &c);
    return OA_OK;
}

const oa_kfamily oa_kfam_batchnorm = {
    .params_size = sizeof(oa_kbatchnorm_params),
    .infer = bn_infer,
    .setup = bn_setup,
    .run = bn_run,
    .release = oa_kop_state_free,
};

/* =========================== LayerNorm ================================== */

typedef struct ln_state {
    int64_t rows, d;
    float eps;
    bool g_full, b_full, has_beta;
} ln_state;

static oa_status ln_infer(const void *params, int n_in, const oa_ktensor *in, int n_out, oa_ktensor *out)
{
    const oa_klayernorm_params *p = params;
    if (n_in < 2 || n_in > 3 || n_out < 1 || n_out > 3) {
        return OA_FAIL(OA_E_PARAM, "LayerNorm: needs x, gamma[, beta] and 1..3 outputs (got %d, %d)", n_in, n_out);
    }
    const oa_ktensor *x = &in[0];
    if (x->dtype != OA_KDT_F32) {
        return OA_FAIL(OA_E_UNSUPPORTED_DATA_TYPE, "LayerNorm: x must be f32, got %s", oa_kdtype_name(x->dtype));
    }
    int ax = 0;
    if (x->rank == 0 || !oa_kaxis_norm(p->begin_norm_axis, x->rank, &ax)) {
        return OA_FAIL(OA_E_PARAM, "LayerNorm: begin_norm_axis %lld out of range for rank %d",
                       (long long)p->begin_norm_axis, x->rank);
    }
    int64_t d = 1;
    for (int i = ax; i < x->rank; i++) {
        d *= x->dims[i];
    }
    for (int i = 1; i < n_in; i++) {
        if (!oa_kt_present(&in[i])) {
            continue;
        }
        int64_t n = oa_ktensor_numel(&in[i]);
        if (in[i].dtype != OA_KDT_F32 || (n != d && n != oa_ktensor_numel(x))) {
            return OA_FAIL(OA_E_PARAM, "LayerNorm: %s must be f32 with %lld (or x's) elements, has %lld",
                           i == 1 ? "gamma" : "beta", (long long)d, (long long)n);
        }
    }
    out[0] = *x;
    out[0].data = NULL;
    for (int i = 1; i < n_out; i++) {
        out[i] = *x;
        out[i].data = NULL;
        for (int k = ax; k < x->rank; k++) {
            out[i].dims[k] = 1;
        }
    }
    return OA_OK;
}

static oa_status ln_setup(oa_kop *op)
{
    ln_state *s = calloc(1, sizeof(*s));
    if (s == NULL) {
        return OA_FAIL(OA_E_NOMEM, "layernorm state");
    }
    op->state = s;
    const oa_ktensor *x = &op->in[0];
    int ax = 0;
    oa_kaxis_norm(op->params.ln.begin_norm_axis, x->rank, &ax);
    s->d = 1;
    for (int i = ax; i < x->rank; i++) {
        s->d *= x->dims[i];
    }
    s->rows = s->d == 0 ? 0 : oa_ktensor_numel(x) / s->d;
    s->eps = op->params.ln.epsilon;
    s->g_full = oa_ktensor_numel(&op->in[1]) != s->d;
    s->has_beta = oa_kt_opt(op->n_in, op->in, 2) != NULL;
    s->b_full = s->has_beta && oa_ktensor_numel(&op->in[2]) != s->d;
    op->impl = oa_kernels_isa();
    return OA_OK;
}

typedef struct ln_ctx {
    const ln_state *s;
    const float *x, *g, *b;
    float *y, *mean, *var;
} ln_ctx;

static void ln_task(void *vctx, size_t tid, size_t b, size_t e)
{
    (void)tid;
    const ln_ctx *c = vctx;
    const ln_state *s = c->s;
    const oa_kew_table *ew = oa_kew();
    int64_t d = s->d;
    for (size_t r = b; r < e; r++) {
        const float *x = c->x + (int64_t)r * d;
        float *y = c->y + (int64_t)r * d;
        const float *g = c->g + (s->g_full ? (int64_t)r * d : 0);
        const float *bb = c->b ? c->b + (s->b_full ? (int64_t)r * d : 0) : NULL;
        float mean, var; /* the row on the tier's vector loops (norm.c itself is built for the baseline) */
        ew->layernorm_row(x, y, (size_t)d, g, bb, s->eps, &mean, &var);
        if (c->mean) {
            c->mean[r] = mean;
        }
        if (c->var) {
            c->var[r] = var;
        }
    }
}

static oa_status ln_run(const oa_kop *op, const void *const *in, void *const *out, void *ws, oa_threadpool *pool)
{
    (void)ws;
    const ln_state *s = op->state;
    if (in[0] == NULL || in[1] == NULL || out[0] == NULL || (s->has_beta && in[2] == NULL)) {
        return OA_FAIL(OA_E_PARAM, "LayerNorm: NULL data pointer");
    }
    ln_ctx c = {s, in[0], in[1], s->has_beta ? in[2] : NULL, out[0], op->n_out > 1 ? out[1] : NULL,
                op->n_out > 2 ? out[2] : NULL};
    oa_threadpool_parallel_for(pool, (size_t)s->rows, (size_t)(OA_KGRAIN_ELEMS / (s->d + 1) + 1), ln_task, &c);
    return OA_OK;
}

const oa_kfamily oa_kfam_layernorm = {
    .params_size = sizeof(oa_klayernorm_params),
    .infer = ln_infer,
    .setup = ln_setup,
    .run = ln_run,
    .release = oa_kop_state_free,
};

/* =========================== Softmax ==================================== */

typedef struct sm_state {
    int64_t outer, len, inner;
    bool log;
} sm_state;

static oa_status sm_infer(const void *params, int n_in, const oa_ktensor *in, int n_out, oa_ktensor *out)
{
    const oa_ksoftmax_params *p = params;
    if (n_in != 1 || n_out != 1) {
        return OA_FAIL(OA_E_PARAM, "SoftmaxV2: 1 input and 1 output (got %d, %d)", n_in, n_out);
    }
    if (in[0].dtype != OA_KDT_F32) {
        return OA_FAIL(OA_E_UNSUPPORTED_DATA_TYPE, "SoftmaxV2: x must be f32, got %s", oa_kdtype_name(in[0].dtype));
    }
    int ax = 0;
    int r = in[0].rank == 0 ? 1 : in[0].rank;
    if (!oa_kaxis_norm(p->axis, r, &ax)) {
        return OA_FAIL(OA_E_PARAM, "SoftmaxV2: axis %lld out of range for rank %d", (long long)p->axis, in[0].rank);
    }
    out[0] = in[0];
    out[0].data = NULL;
    return OA_OK;
}

static oa_status sm_setup(oa_kop *op)
{
    sm_state *s = calloc(1, sizeof(*s));
    if (s == NULL) {
        return OA_FAIL(OA_E_NOMEM, "softmax state");
    }
    op->state = s;
    const oa_ktensor *x = &op->in[0];
    int ax = 0;
    if (x->rank > 0) {
        oa_kaxis_norm(op->params.softmax.axis, x->rank, &ax);
    }
    s->outer = s->inner = 1;
    s->len = x->rank > 0 ? x->dims[ax] : 1;
    for (int i = 0; i < ax; i++) {
        s->outer *= x->dims[i];
    }
    for (int i = ax + 1; i < x->rank; i++) {
        s->inner *= x->dims[i];
    }
    s->log = op->params.softmax.log;
    op->impl = oa_kernels_isa();
    return OA_OK;
}

typedef struct sm_ctx {
    const sm_state *s;
    const float *x;
    float *y;
} sm_ctx;

static void sm_task(void *vctx, size_t tid, size_t b, size_t e)
{
    (void)tid;
    const sm_ctx *c = vctx;
    const sm_state *s = c->s;
    const oa_kew_table *ew = oa_kew();
    int64_t L = s->len, I = s->inner;
    for (size_t idx = b; idx < e; idx++) { /* idx = outer * inner + i */
        int64_t o = (int64_t)idx / I, i = (int64_t)idx % I;
        const float *x = c->x + o * L * I + i;
        float *y = c->y + o * L * I + i;
        if (I == 1) {
            float m = ew->max(x, (size_t)L);
            float sum = ew->exp_sub_sum(x, y, (size_t)L, m);
            if (s->log) {
                float ls = logf(sum) + m;
                for (int64_t l = 0; l < L; l++) {
                    y[l] = x[l] - ls;
                }
            } else {
                ew->scale(y, (size_t)L, 1.0f / sum);
            }
            continue;
        }
        float m = -INFINITY;
        for (int64_t l = 0; l < L; l++) {
            m = x[l * I] > m ? x[l * I] : m;
        }
        float sum = 0.0f;
        for (int64_t l = 0; l < L; l++) {
            float v = expf(x[l * I] - m);
            y[l * I] = v;
            sum += v;
        }
        if (s->log) {
            float ls = logf(sum) + m;
            for (int64_t l = 0; l < L; l++) {
                y[l * I] = x[l * I] - ls;
            }
        } else {
            float inv = 1.0f / sum;
            for (int64_t l = 0; l < L; l++) {
                y[l * I] *= inv;
            }
        }
    }
}

static oa_status sm_run(const oa_kop *op, const void *const *in, void *const *out, void *ws, oa_threadpool *pool)
{
    (void)ws;
    const sm_state *s = op->state;
    if (in[0] == NULL || out[0] == NULL) {
        return OA_FAIL(OA_E_PARAM, "SoftmaxV2: NULL data pointer");
    }
    if (s->len == 0) {
        return OA_OK;
    }
    sm_ctx c = {s, in[0], out[0]};
    oa_threadpool_parallel_for(pool, (size_t)(s->outer * s->inner), (size_t)(OA_KGRAIN_ELEMS / (s->len * 4) + 1),
                               sm_task, &c);
    return OA_OK;
}

const oa_kfamily oa_kfam_softmax = {
    .params_size = sizeof(oa_ksoftmax_params),
    .infer = sm_infer,
    .setup = sm_setup,
    .run = sm_run,
    .release = oa_kop_state_free,
};
