/*
 * CommonLSTM: ONNX LSTM (layout 0) forward / reverse / bidirectional with
 * optional bias, sequence lengths, initial states, peepholes, clip and
 * input_forget. Gate order i, o, f, c; activations sigmoid, tanh, tanh.
 *
 * Per direction: the input projection X·Wᵀ for all steps is computed first
 * (one pass over W), then the recurrence runs step by step with H·Rᵀ. The
 * workspace holds the projections, gates and the running h/c. Runs on the
 * calling thread (the recurrence is sequential; the models using it are small).
 * Both products are row-dot GEMVs (AVX2+FMA when the CPU has it); without
 * peepholes, clip or input_forget the gate activations run vectorised over
 * whole gate blocks (the usual case: silero VAD's T=1 call).
 * CommonGRU / CommonRNN (gru_rnn_run) share the geometry, the input
 * projection and the sequence handling; their cells are scalar loops.
 */
#include "kernels/kernel_internal.h"

#include <math.h>
#include <stdlib.h>

typedef struct lstm_state {
    int64_t T, B, I, H, D, NG; /* NG gates: 4 LSTM, 3 GRU, 1 RNN */
    oa_krnn_cell cell;
    bool has_b, has_seq, has_h0, has_c0, has_p, input_forget;
    float clip;
    oa_klstm_dir dir;
    oa_kdtype seq_dt;
} lstm_state;

static oa_status lstm_geom(const oa_klstm_params *p, int n_in, const oa_ktensor *in, lstm_state *s)
{
    if ((unsigned)p->cell > OA_KRNN_RNN) {
        return OA_FAIL(OA_E_PARAM, "CommonLSTM: unknown cell %d", (int)p->cell);
    }
    const bool lstm = p->cell == OA_KRNN_LSTM;
    const char *nm = lstm ? "CommonLSTM" : p->cell == OA_KRNN_GRU ? "CommonGRU" : "CommonRNN";
    s->cell = p->cell;
    s->NG = lstm ? 4 : p->cell == OA_KRNN_GRU ? 3 : 1;
    if (n_in < 3 || n_in > (lstm ? 8 : 6)) {
        return OA_FAIL(OA_E_PARAM, "%s: 3..%d inputs, got %d", nm, lstm ? 8 : 6, n_in);
    }
    const oa_ktensor *x = &in[0], *w = &in[1], *r = &in[2];
    if (x->dtype != OA_KDT_F32 || w->dtype != OA_KDT_F32 || r->dtype != OA_KDT_F32 || x->rank != 3 || w->rank != 3 ||
        r->rank != 3) {
        return OA_FAIL(OA_E_PARAM, "%s: X [T,B,I], W [D,%lldH,I], R [D,%lldH,H] must be f32 3-D", nm, (long long)s->NG,
                       (long long)s->NG);
    }
    if ((unsigned)p->direction > OA_KLSTM_BIDIRECTIONAL) {
        return OA_FAIL(OA_E_PARAM, "%s: unknown direction %d", nm, (int)p->direction);
    }
    s->dir = p->direction;
    s->D = p->direction == OA_KLSTM_BIDIRECTIONAL ? 2 : 1;
    s->T = x->dims[0];
    s->B = x->dims[1];
    s->I = x->dims[2];
    s->H = p->hidden_size > 0 ? p->hidden_size : r->dims[2];
    int64_t H = s->H, D = s->D, NG = s->NG;
    if (w->dims[0] != D || w->dims[1] != NG * H || w->dims[2] != s->I || r->dims[0] != D || r->dims[1] != NG * H ||
        r->dims[2] != H) {
        return OA_FAIL(OA_E_PARAM, "%s: W/R shapes do not match D=%lld, H=%lld, I=%lld", nm, (long long)D,
                       (long long)H, (long long)s->I);
    }
    if (!lstm && (p->n_act < 0 || p->n_act > 4 || (p->n_act > 0 && p->n_act != (NG == 3 ? 2 : 1) * D))) {
        return OA_FAIL(OA_E_PARAM, "%s: %d activations for %lld direction(s)", nm, p->n_act, (long long)D);
    }
    for (int i = 0; i < p->n_act && i < 4; i++) {
        if ((unsigned)p->act[i] >= OA_KRNN_ACT_COUNT) {
            return OA_FAIL(OA_E_PARAM, "%s: unknown activation %d", nm, (int)p->act[i]);
        }
    }
    const oa_ktensor *t;
    s->has_b = (t = oa_kt_opt(n_in, in, 3)) != NULL;
    if (t && (t->dtype != OA_KDT_F32 || oa_ktensor_numel(t) != D * 2 * NG * H)) {
        return OA_FAIL(OA_E_PARAM, "%s: B must be f32 [D, %lldH]", nm, (long long)(2 * NG));
    }
    s->has_seq = (t = oa_kt_opt(n_in, in, 4)) != NULL;
    if (t && ((t->dtype != OA_KDT_I32 && t->dtype != OA_KDT_I64) || oa_ktensor_numel(t) != s->B)) {
        return OA_FAIL(OA_E_PARAM, "%s: sequence_lens must be i32/i64 [B]", nm);
    }
    s->seq_dt = t ? t->dtype : OA_KDT_I32;
    s->has_h0 = (t = oa_kt_opt(n_in, in, 5)) != NULL;
    if (t && (t->dtype != OA_KDT_F32 || oa_ktensor_numel(t) != D * s->B * H)) {
        return OA_FAIL(OA_E_PARAM, "%s: initial_h must be f32 [D, B, H]", nm);
    }
    s->has_c0 = (t = oa_kt_opt(n_in, in, 6)) != NULL;
    if (t && (t->dtype != OA_KDT_F32 || oa_ktensor_numel(t) != D * s->B * H)) {
        return OA_FAIL(OA_E_PARAM, "CommonLSTM: initial_c must be f32 [D, B, H]");
    }
    s->has_p = (t = oa_kt_opt(n_in, in, 7)) != NULL;
    if (t && (t->dtype != OA_KDT_F32 || oa_ktensor_numel(t) != D * 3 * H)) {
        return OA_FAIL(OA_E_PARAM, "CommonLSTM: P must be f32 [D, 3H]");
    }
    s->clip = p->clip;
    s->input_forget = p->input_forget;
    return OA_OK;
}

static oa_status lstm_infer(const void *params, int n_in, const oa_ktensor *in, int n_out, oa_ktensor *out)
{
    const oa_klstm_params *p = params;
    if (n_out < 1 || n_out > (p->cell == OA_KRNN_LSTM ? 3 : 2)) {
        return OA_FAIL(OA_E_PARAM, "CommonLSTM/GRU/RNN: 1..3 (LSTM) or 1..2 outputs, got %d", n_out);
    }
    lstm_state s;
    oa_status st = lstm_geom(params, n_in, in, &s);
    if (st != OA_OK) {
        return st;
    }
    int64_t y[4] = {s.T, s.D, s.B, s.H}, h[3] = {s.D, s.B, s.H};
    oa_ktensor_set(&out[0], OA_KDT_F32, 4, y);
    for (int i = 1; i < n_out; i++) {
        oa_ktensor_set(&out[i], OA_KDT_F32, 3, h);
    }
    return OA_OK;
}

static oa_status lstm_setup(oa_kop *op)
{
    lstm_state *s = calloc(1, sizeof(*s));
    if (s == NULL) {
        return OA_FAIL(OA_E_NOMEM, "lstm state");
    }
    op->state = s;
    oa_status st = lstm_geom(&op->params.lstm, op->n_in, op->in, s);
    if (st != OA_OK) {
        return st;
    }
    /* xw [T*B*NG*H] + gates [B*NG*H] + h, c [B*H] each */
    size_t n = (size_t)(s->T * s->B * s->NG * s->H + s->B * s->NG * s->H + 2 * s->B * s->H);
    op->ws_size = sizeof(float) * (n > 0 ? n : 1);
    return OA_OK;
}

static float sigm(float x)
{
    return 1.0f / (1.0f + expf(-x));
}

static float clipf(float v, float c)
{
    if (c > 0) {
        v = v < -c ? -c : (v > c ? c : v);
    }
    return v;
}

/* y[r] += A[r,:] . x */
static void gemv(oa_kgemv_fn simd, const float *A, int64_t rows, int64_t k, const float *x, float *y)
{
    if (simd != NULL) {
        simd(A, rows, k, x, y);
        return;
    }
    for (int64_t r = 0; r < rows; r++) {
        const float *a = A + r * k;
        float acc = 0.0f;
        for (int64_t i = 0; i < k; i++) {
            acc += a[i] * x[i];
        }
        y[r] += acc;
    }
}

/* One step's cell update from pre-activation gates gb [i|o|f|c] (H each). */
static void cell_general(const lstm_state *s, const float *P, float *gb, float *cb, float *hw)
{
    const int64_t H = s->H;
    for (int64_t j = 0; j < H; j++) {
        float gi = gb[j], go = gb[H + j], gf = gb[2 * H + j], gc = gb[3 * H + j];
        if (P) {
            gi += P[j] * cb[j];
            gf += P[2 * H + j] * cb[j];
        }
        float it = sigm(clipf(gi, s->clip));
        float ft = s->input_forget ? 1.0f - it : sigm(clipf(gf, s->clip));
        float ct = tanhf(clipf(gc, s->clip));
        float cn = ft * cb[j] + it * ct;
        if (P) {
            go += P[H + j] * cn;
        }
        float ot = sigm(clipf(go, s->clip));
        cb[j] = cn;
        hw[j] = ot * tanhf(cn);
    }
}

/* The same without peepholes, clip or input_forget: activations over whole blocks. */
static void cell_plain(const oa_kew_table *ew, int64_t H, float *gb, float *cb, float *hw)
{
    ew->act[OA_KACT_SIGMOID](gb, (size_t)(3 * H), 0.0f, 0.0f);
    ew->act[OA_KACT_TANH](gb + 3 * H, (size_t)H, 0.0f, 0.0f);
    const float *gi = gb, *go = gb + H, *gf = gb + 2 * H, *gc = gb + 3 * H;
    for (int64_t j = 0; j < H; j++) {
        cb[j] = gf[j] * cb[j] + gi[j] * gc[j];
        hw[j] = cb[j];
    }
    ew->act[OA_KACT_TANH](hw, (size_t)H, 0.0f, 0.0f);
    for (int64_t j = 0; j < H; j++) {
        hw[j] *= go[j];
    }
}

static float rnn_act(oa_krnn_act a, float v, float al, float be)
{
    switch (a) {
    case OA_KRNN_ACT_SIGMOID: return sigm(v);
    case OA_KRNN_ACT_TANH: return tanhf(v);
    case OA_KRNN_ACT_RELU: return v > 0.0f ? v : 0.0f;
    case OA_KRNN_ACT_AFFINE: return al * v + be;
    case OA_KRNN_ACT_LEAKY_RELU: return v >= 0.0f ? v : al * v;
    case OA_KRNN_ACT_THRESHOLDED_RELU: return v > al ? v : 0.0f;
    case OA_KRNN_ACT_SCALED_TANH: return al * tanhf(be * v);
    case OA_KRNN_ACT_HARD_SIGMOID: {
        float t = al * v + be;
        return t < 0.0f ? 0.0f : t > 1.0f ? 1.0f : t;
    }
    case OA_KRNN_ACT_ELU: return v >= 0.0f ? v : al * (expf(v) - 1.0f);
    case OA_KRNN_ACT_SOFTSIGN: return v / (1.0f + fabsf(v));
    default: return logf(1.0f + expf(v)); /* softplus */
    }
}

/* CommonGRU / CommonRNN; the workspace as LSTM's (c holds r ⊙ H for GRU without linear_before_reset). */
static void gru_rnn_run(const oa_kop *op, const lstm_state *s, const void *const *in, void *const *out, float *ws)
{
    const oa_klstm_params *p = &op->params.lstm;
    const int64_t T = s->T, B = s->B, I = s->I, H = s->H, G = s->NG * H;
    const bool gru = s->cell == OA_KRNN_GRU;
    const float *X = in[0];
    float *Y = op->n_out > 0 ? out[0] : NULL;
    float *Yh = op->n_out > 1 ? out[1] : NULL;
    float *xw = ws, *tmp = xw + T * B * G, *h = tmp + B * G, *rh = h + B * H;
    const oa_kgemv_fn simd = oa_kgemv_for(oa_kisa_tier_used());
    if (Y != NULL) {
        memset(Y, 0, sizeof(float) * (size_t)(T * s->D * B * H));
    }
    const int per_dir = gru ? 2 : 1;
    for (int64_t d = 0; d < s->D; d++) {
        const bool reverse = s->dir == OA_KLSTM_REVERSE || d == 1;
        const float *W = (const float *)in[1] + d * G * I, *R = (const float *)in[2] + d * G * H;
        const float *Wb = s->has_b ? (const float *)in[3] + d * 2 * G : NULL, *Rb = Wb ? Wb + G : NULL;
        oa_krnn_act f = gru ? OA_KRNN_ACT_SIGMOID : OA_KRNN_ACT_TANH, g = OA_KRNN_ACT_TANH;
        float fa = 0.0f, fb = 0.0f, ga = 0.0f, gb_ = 0.0f;
        if (p->n_act > 0) {
            const int k = (int)d * per_dir;
            f = p->act[k];
            fa = p->act_alpha[k];
            fb = p->act_beta[k];
            if (gru) {
                g = p->act[k + 1];
                ga = p->act_alpha[k + 1];
                gb_ = p->act_beta[k + 1];
            }
        }
        for (int64_t tb = 0; tb < T * B; tb++) { /* X·Wᵀ + Wb */
            float *xr = xw + tb * G;
            for (int64_t j = 0; j < G; j++) {
                xr[j] = Wb ? Wb[j] : 0.0f;
            }
            gemv(simd, W, G, I, X + tb * I, xr);
        }
        for (int64_t b = 0; b < B; b++) {
            for (int64_t j = 0; j < H; j++) {
                h[b * H + j] = s->has_h0 ? ((const float *)in[5])[(d * B + b) * H + j] : 0.0f;
            }
        }
        for (int64_t step = 0; step < T; step++) {
            for (int64_t b = 0; b < B; b++) {
                int64_t len = T;
                if (s->has_seq) {
                    len = s->seq_dt == OA_KDT_I32 ? ((const int32_t *)in[4])[b] : ((const int64_t *)in[4])[b];
                    len = len < 0 ? 0 : (len > T ? T : len);
                }
                if (step >= len) {
                    continue;
                }
                const int64_t t = reverse ? len - 1 - step : step;
                const float *xr = xw + (t * B + b) * G;
                float *hb = h + b * H, *tb_ = tmp + b * G;
                for (int64_t j = 0; j < G; j++) { /* H·Rᵀ + Rb */
                    tb_[j] = Rb ? Rb[j] : 0.0f;
                }
                if (!gru) {
                    gemv(simd, R, G, H, hb, tb_);
                    for (int64_t j = 0; j < H; j++) {
                        hb[j] = rnn_act(f, clipf(xr[j] + tb_[j], s->clip), fa, fb);
                    }
                } else {
                    float *rb = rh + b * H;
                    gemv(simd, R, p->linear_before_reset ? G : 2 * H, H, hb, tb_); /* z, r (and h) rows */
                    for (int64_t j = 0; j < H; j++) { /* r, then r ⊙ H */
                        const float r = rnn_act(f, clipf(xr[H + j] + tb_[H + j], s->clip), fa, fb);
                        tb_[H + j] = r;
                        rb[j] = r * hb[j];
                    }
                    if (!p->linear_before_reset) {
                        gemv(simd, R + 2 * H * H, H, H, rb, tb_ + 2 * H); /* (r ⊙ H)·Rhᵀ + Rbh */
                    }
                    for (int64_t j = 0; j < H; j++) {
                        const float z = rnn_act(f, clipf(xr[j] + tb_[j], s->clip), fa, fb);
                        const float hr = p->linear_before_reset ? tb_[H + j] * tb_[2 * H + j] : tb_[2 * H + j];
                        const float hh = rnn_act(g, clipf(xr[2 * H + j] + hr, s->clip), ga, gb_);
                        hb[j] = (1.0f - z) * hh + z * hb[j];
                    }
                }
                if (Y != NULL) {
                    memcpy(Y + ((t * s->D + d) * B + b) * H, hb, sizeof(float) * (size_t)H);
                }
            }
        }
        if (Yh != NULL) {
            memcpy(Yh + d * B * H, h, sizeof(float) * (size_t)(B * H));
        }
    }
}

static oa_status lstm_run(const oa_kop *op, const void *const *in, void *const *out, void *ws, oa_threadpool *pool)
{
    (void)pool;
    const lstm_state *s = op->state;
    if (in[0] == NULL || in[1] == NULL || in[2] == NULL) {
        return OA_FAIL(OA_E_PARAM, "CommonLSTM: NULL data pointer");
    }
    if (s->cell != OA_KRNN_LSTM) {
        gru_rnn_run(op, s, in, out, ws);
        return OA_OK;
    }
    const int64_t T = s->T, B = s->B, I = s->I, H = s->H, G = 4 * H;
    const float *X = in[0];
    float *Y = op->n_out > 0 ? out[0] : NULL;
    float *Yh = op->n_out > 1 ? out[1] : NULL;
    float *Yc = op->n_out > 2 ? out[2] : NULL;
    float *xw = ws, *gates = xw + T * B * G, *h = gates + B * G, *c = h + B * H;
    const oa_kgemv_fn simd = oa_kgemv_for(oa_kisa_tier_used()); /* NULL: scalar */
    const bool plain = !s->has_p && !(s->clip > 0) && !s->input_forget;
    const oa_kew_table *ew = oa_kew();
    if (Y != NULL) {
        memset(Y, 0, sizeof(float) * (size_t)(T * s->D * B * H));
    }
    for (int64_t d = 0; d < s->D; d++) {
        bool reverse = s->dir == OA_KLSTM_REVERSE || d == 1;
        const float *W = (const float *)in[1] + d * G * I, *R = (const float *)in[2] + d * G * H;
        const float *Wb = s->has_b ? (const float *)in[3] + d * 8 * H : NULL, *Rb = Wb ? Wb + G : NULL;
        const float *P = s->has_p ? (const float *)in[7] + d * 3 * H : NULL;
        /* input projection */
        for (int64_t tb = 0; tb < T * B; tb++) {
            float *xr = xw + tb * G;
            for (int64_t g = 0; g < G; g++) {
                xr[g] = Wb ? Wb[g] + Rb[g] : 0.0f;
            }
            gemv(simd, W, G, I, X + tb * I, xr);
        }
        for (int64_t b = 0; b < B; b++) {
            for (int64_t j = 0; j < H; j++) {
                h[b * H + j] = s->has_h0 ? ((const float *)in[5])[(d * B + b) * H + j] : 0.0f;
                c[b * H + j] = s->has_c0 ? ((const float *)in[6])[(d * B + b) * H + j] : 0.0f;
            }
        }
        for (int64_t step = 0; step < T; step++) {
            for (int64_t b = 0; b < B; b++) {
                int64_t len = T;
                if (s->has_seq) {
                    len = s->seq_dt == OA_KDT_I32 ? ((const int32_t *)in[4])[b] : ((const int64_t *)in[4])[b];
                    len = len < 0 ? 0 : (len > T ? T : len);
                }
                if (step >= len) {
                    continue;
                }
                int64_t t = reverse ? len - 1 - step : step;
                float *gb = gates + b * G;
                float *cb = c + b * H;
                float *hw = h + b * H;
                memcpy(gb, xw + (t * B + b) * G, sizeof(float) * (size_t)G);
                gemv(simd, R, G, H, hw, gb);
                if (plain) {
                    cell_plain(ew, H, gb, cb, hw);
                } else {
                    cell_general(s, P, gb, cb, hw);
                }
                if (Y != NULL) {
                    memcpy(Y + ((t * s->D + d) * B + b) * H, hw, sizeof(float) * (size_t)H);
                }
            }
        }
        if (Yh != NULL) {
            memcpy(Yh + d * B * H, h, sizeof(float) * (size_t)(B * H));
        }
        if (Yc != NULL) {
            memcpy(Yc + d * B * H, c, sizeof(float) * (size_t)(B * H));
        }
    }
    return OA_OK;
}

const oa_kfamily oa_kfam_lstm = {
    .params_size = sizeof(oa_klstm_params),
    .infer = lstm_infer,
    .setup = lstm_setup,
    .run = lstm_run,
    .release = oa_kop_state_free,
};
