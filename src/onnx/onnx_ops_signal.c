/*
 * Signal ops (src/onnx/README.md, "Signal ops"): the windows as their ONNX
 * function bodies (a Range over the run-time size, so the output length is
 * read from the size input when the model runs), and DFT as one MatMul of
 * the (real, imaginary) parts with a constant [c*N, 2K] matrix of cosines
 * and sines built at conversion (the shape along the axis must be declared).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "onnx/onnx_internal.h"

/* ---------------------------------------------------------------- windows */

typedef enum { WIN_HANN, WIN_HAMMING, WIN_BLACKMAN } win_kind;

/* y = a0 - a1*cos(w n) + a2*cos(2 w n), w = 2 pi / (periodic ? size : size - 1), n = 0 .. size-1 */
static oa_status window(onnx_node_ctx *c, win_kind kind)
{
    int64_t periodic, out_type;
    oa_status st;
    oa_dtype sdt, odt;
    if ((st = oa_onnx_attr_int(c, "periodic", 1, &periodic)) != OA_OK ||
        (st = oa_onnx_attr_int(c, "output_datatype", 1, &out_type)) != OA_OK) {
        return st;
    }
    if (out_type != (int)out_type || !oa_onnx_dtype_to_ge((int)out_type, &odt) || odt == OA_DT_STRING ||
        odt == OA_DT_BOOL) {
        return ONNX_FAIL(c, OA_E_FEATURE_UNSUPPORTED, "output_datatype %lld is not supported", (long long)out_type);
    }
    if (!oa_onnx_declared_dtype(c, oa_onnx_input_name(c, 0), &sdt) || (sdt != OA_DT_INT32 && sdt != OA_DT_INT64)) {
        return ONNX_FAIL(c, OA_E_FEATURE_UNSUPPORTED, "the size must be a declared int32 or int64 scalar");
    }
    static const double A[3][3] = {{0.5, 0.5, 0.0}, {25.0 / 46.0, 21.0 / 46.0, 0.0}, {0.42, 0.5, 0.08}};
    onnx_xb b = {c, OA_OK};
    const oa_shape s0 = oa_shape_scalar();
    const int64_t zero64 = 0, one64 = 1;
    const int32_t zero32 = 0, one32 = 1;
    const bool i64 = sdt == OA_DT_INT64;
    onnx_tv size = oa_xb_in(&b, 0);
    const onnx_tv rg[3] = {oa_xb_const(&b, "start", sdt, &s0, i64 ? (const void *)&zero64 : (const void *)&zero32,
                                       i64 ? sizeof zero64 : sizeof zero32),
                           size,
                           oa_xb_const(&b, "delta", sdt, &s0, i64 ? (const void *)&one64 : (const void *)&one32,
                                       i64 ? sizeof one64 : sizeof one32)};
    onnx_tv n = oa_xb_cast(&b, "range_f32", oa_xb_op(&b, OA_OP_RANGE, "range", rg, 3), OA_DT_FLOAT);
    onnx_tv len = oa_xb_cast(&b, "size_f32", size, OA_DT_FLOAT);
    if (!periodic) {
        len = oa_xb_bin(&b, OA_OP_SUB, "symmetric_size", len, oa_xb_f32(&b, "one", 1.0f));
    }
    onnx_tv inc = oa_xb_bin(&b, OA_OP_REAL_DIV, "angular_increment", oa_xb_f32(&b, "tau", (float)(2.0 * M_PI)), len);
    onnx_tv ang = oa_xb_bin(&b, OA_OP_MUL, "range_angular", n, inc);
    onnx_tv y = oa_xb_bin(&b, OA_OP_SUB, "a0_minus_a1", oa_xb_f32(&b, "a0", (float)A[kind][0]),
                          oa_xb_bin(&b, OA_OP_MUL, "a1_component", oa_xb_f32(&b, "a1", (float)A[kind][1]),
                                    oa_xb_un(&b, OA_OP_COS, "cos", ang)));
    if (A[kind][2] != 0.0) {
        onnx_tv ang2 = oa_xb_bin(&b, OA_OP_MUL, "two_range_angular", ang, oa_xb_f32(&b, "two", 2.0f));
        y = oa_xb_bin(&b, OA_OP_ADD, "plus_a2", y,
                      oa_xb_bin(&b, OA_OP_MUL, "a2_component", oa_xb_f32(&b, "a2", (float)A[kind][2]),
                                oa_xb_un(&b, OA_OP_COS, "cos2", ang2)));
    }
    if (odt != OA_DT_FLOAT) {
        y = oa_xb_cast(&b, "output_datatype", y, odt);
    }
    oa_xb_out(&b, 0, y);
    return b.st;
}

oa_status oa_onnx_op_hann_window(onnx_node_ctx *c)
{
    return window(c, WIN_HANN);
}

oa_status oa_onnx_op_hamming_window(onnx_node_ctx *c)
{
    return window(c, WIN_HAMMING);
}

oa_status oa_onnx_op_blackman_window(onnx_node_ctx *c)
{
    return window(c, WIN_BLACKMAN);
}

/* -------------------------------------------------------------------- DFT */

#define DFT_MAX_N 8192

static onnx_tv transpose(onnx_xb *b, const char *role, onnx_tv x, const int64_t *perm, size_t r)
{
    oa_node *k = NULL;
    if (b->st == OA_OK) {
        b->st = oa_onnx_const_i32(b->c, "perm", perm, r, false, &k);
    }
    const onnx_tv in[2] = {x, {k, 0}};
    return oa_xb_op(b, OA_OP_TRANSPOSE, role, in, 2);
}

static onnx_tv reshape(onnx_xb *b, const char *role, onnx_tv x, const int64_t *dims, size_t r)
{
    oa_node *k = NULL;
    if (b->st == OA_OK) {
        b->st = oa_onnx_const_i64(b->c, "shape", dims, r, false, &k);
    }
    const onnx_tv in[2] = {x, {k, 0}};
    return oa_xb_op(b, OA_OP_RESHAPE, role, in, 2);
}

oa_status oa_onnx_op_dft(onnx_node_ctx *c)
{
    int64_t axis, inverse, onesided;
    oa_status st;
    if ((st = oa_onnx_attr_int(c, "axis", 1, &axis)) != OA_OK ||
        (st = oa_onnx_attr_int(c, "inverse", 0, &inverse)) != OA_OK ||
        (st = oa_onnx_attr_int(c, "onesided", 0, &onesided)) != OA_OK) {
        return st;
    }
    oa_dtype xdt;
    if (oa_onnx_declared_dtype(c, oa_onnx_input_name(c, 0), &xdt) && xdt != OA_DT_FLOAT) {
        return ONNX_FAIL(c, OA_E_FEATURE_UNSUPPORTED, "input is %s (float is supported)", oa_dtype_name(xdt));
    }
    int64_t dims[OA_MAX_RANK];
    const int64_t r = oa_onnx_declared_dims(c, oa_onnx_input_name(c, 0), dims);
    if (r < 2) {
        return ONNX_FAIL(c, OA_E_FEATURE_UNSUPPORTED, "needs the declared shape of its input (rank >= 2)");
    }
    for (int64_t d = 0; d < r; d++) {
        if (dims[d] < 0) {
            return ONNX_FAIL(c, OA_E_FEATURE_UNSUPPORTED, "needs the declared shape of its input (dim %lld is not "
                                                          "a number)", (long long)d);
        }
    }
    const int64_t ax = axis < 0 ? axis + r : axis;
    if (ax < 0 || ax >= r - 1) {
        return ONNX_FAIL(c, OA_E_PARAM, "axis %lld is out of range for rank %lld (the last dim holds the parts)",
                         (long long)axis, (long long)r);
    }
    const int64_t cpl = dims[r - 1], n = dims[ax];
    if (cpl != 1 && cpl != 2) {
        return ONNX_FAIL(c, OA_E_PARAM, "the last dim is %lld (1: real, 2: complex)", (long long)cpl);
    }
    int64_t len = n;
    if (oa_onnx_has_input(c, 1)) {
        const onnx_value *v = oa_onnx_input_value(c, 1);
        const oa_tensor *t;
        if (v == NULL || v->node->type != OA_OP_CONST || oa_node_require_tensor(v->node, "value", &t) != OA_OK ||
            t->data == NULL || (t->desc.dtype != OA_DT_INT64 && t->desc.dtype != OA_DT_INT32)) {
            return ONNX_FAIL(c, OA_E_FEATURE_UNSUPPORTED, "dft_length must be a constant");
        }
        if (t->desc.dtype == OA_DT_INT64) {
            memcpy(&len, t->data, sizeof len);
        } else {
            int32_t v32;
            memcpy(&v32, t->data, sizeof v32);
            len = v32;
        }
    }
    if (len < 1 || len > DFT_MAX_N || n > DFT_MAX_N) {
        return ONNX_FAIL(c, OA_E_FEATURE_UNSUPPORTED, "signal length %lld / dft_length %lld (1 to %d supported)",
                         (long long)n, (long long)len, DFT_MAX_N);
    }
    if (onesided && cpl == 2) {
        return ONNX_FAIL(c, OA_E_PARAM, "onesided needs a real input");
    }
    const int64_t k = onesided ? len / 2 + 1 : len;
    const int64_t rows = cpl * n, cols = 2 * k;
    float *m = calloc((size_t)(rows * cols), sizeof(float));
    if (m == NULL) {
        return OA_FAIL(OA_E_NOMEM, "DFT matrix of %lld x %lld", (long long)rows, (long long)cols);
    }
    const double sgn = inverse ? 1.0 : -1.0, scale = inverse ? 1.0 / (double)len : 1.0;
    for (int64_t i = 0; i < n && i < len; i++) {
        for (int64_t j = 0; j < k; j++) {
            /* e^{sgn i theta}, theta = 2 pi (i*j mod len) / len */
            const double th = 2.0 * M_PI * (double)((i * j) % len) / (double)len;
            const double co = cos(th) * scale, si = sgn * sin(th) * scale;
            m[i * cols + j] = (float)co;      /* real in -> real out */
            m[i * cols + k + j] = (float)si;  /* real in -> imaginary out */
            if (cpl == 2) {
                m[(n + i) * cols + j] = (float)-si;    /* imaginary in -> real out */
                m[(n + i) * cols + k + j] = (float)co; /* imaginary in -> imaginary out */
            }
        }
    }
    onnx_xb b = {c, OA_OK};
    const int64_t mdims[2] = {rows, cols};
    const oa_shape ms = oa_shape_make(2, mdims);
    onnx_tv mat = oa_xb_const(&b, "dft_matrix", OA_DT_FLOAT, &ms, m, (size_t)(rows * cols) * sizeof(float));
    free(m);
    /* [B..., c, N]: the other dims, then the parts, then the axis */
    int64_t perm[OA_MAX_RANK], bd[OA_MAX_RANK + 1];
    size_t nb = 0;
    for (int64_t d = 0; d < r - 1; d++) {
        if (d != ax) {
            perm[nb] = d;
            bd[nb++] = dims[d];
        }
    }
    perm[nb] = r - 1;
    perm[nb + 1] = ax;
    onnx_tv x = transpose(&b, "to_rows", oa_xb_in(&b, 0), perm, (size_t)r);
    bd[nb] = rows;
    x = reshape(&b, "rows", x, bd, nb + 1);
    const onnx_tv mm[2] = {x, mat};
    onnx_tv y = oa_xb_op(&b, OA_OP_BATCH_MAT_MUL_V2, "dft", mm, 2);
    if (b.st == OA_OK && ((b.st = oa_node_set_bool(y.n, "adj_x1", false)) != OA_OK ||
                          (b.st = oa_node_set_bool(y.n, "adj_x2", false)) != OA_OK)) {
        return b.st;
    }
    bd[nb] = 2;
    bd[nb + 1] = k;
    y = reshape(&b, "parts", y, bd, nb + 2);
    /* back: output dim d takes the current dim of the others in order, K at nb + 1, the parts at nb */
    int64_t back[OA_MAX_RANK];
    size_t o = 0;
    for (int64_t d = 0; d < r; d++) {
        back[d] = d == ax ? (int64_t)nb + 1 : d == r - 1 ? (int64_t)nb : (int64_t)o++;
    }
    y = transpose(&b, "from_rows", y, back, (size_t)r);
    oa_xb_out(&b, 0, y);
    return b.st;
}

/* ------------------------------------------------------------------- STFT */

static onnx_tv const_i64(onnx_xb *b, const char *role, int64_t v, bool scalar)
{
    oa_node *k = NULL;
    if (b->st == OA_OK) {
        b->st = oa_onnx_const_i64(b->c, role, &v, 1, scalar, &k);
    }
    onnx_tv r = {k, 0};
    return r;
}

static onnx_tv unsqueeze(onnx_xb *b, const char *role, onnx_tv x, int64_t axis)
{
    onnx_tv u = oa_xb_un(b, OA_OP_UNSQUEEZE, role, x);
    oa_xb_ints(b, u, "axes", &axis, 1);
    return u;
}

static onnx_tv range0(onnx_xb *b, const char *role, onnx_tv limit)
{
    const onnx_tv in[3] = {const_i64(b, "start", 0, true), limit, const_i64(b, "delta", 1, true)};
    return oa_xb_op(b, OA_OP_RANGE, role, in, 3);
}

static onnx_tv matmul(onnx_xb *b, const char *role, onnx_tv x, onnx_tv y)
{
    const onnx_tv in[2] = {x, y};
    onnx_tv m = oa_xb_op(b, OA_OP_BATCH_MAT_MUL_V2, role, in, 2);
    if (b->st == OA_OK && (b->st = oa_node_set_bool(m.n, "adj_x1", false)) == OA_OK) {
        b->st = oa_node_set_bool(m.n, "adj_x2", false);
    }
    return m;
}

/*
 * STFT (signal [B, L, 1], frame_step, window?, frame_length?) -> [B, F, K, 2]
 * with F = (L - frame_length) / frame_step + 1 and K = frame_length/2 + 1
 * (onesided) or frame_length (integer divisions of non-negative int64
 * values: Div truncates), all computed in the graph from the run-time
 * scalars: frame indices f*step + j gathered from the signal, times the
 * window, then the real input's DFT as two MatMuls with cos / -sin of
 * 2 pi ((j*k) mod frame_length) / frame_length.
 */
oa_status oa_onnx_op_stft(onnx_node_ctx *c)
{
    int64_t onesided;
    oa_status st;
    if ((st = oa_onnx_attr_int(c, "onesided", 1, &onesided)) != OA_OK) {
        return st;
    }
    int64_t dims[OA_MAX_RANK];
    const int64_t r = oa_onnx_declared_dims(c, oa_onnx_input_name(c, 0), dims);
    if (r != 3 || dims[1] < 0) {
        return ONNX_FAIL(c, OA_E_FEATURE_UNSUPPORTED, "needs the declared shape [batch, length, 1] of the signal");
    }
    if (dims[2] != 1) {
        return ONNX_FAIL(c, OA_E_FEATURE_UNSUPPORTED, "a complex signal (last dim %lld) is not supported; real "
                                                      "signals [batch, length, 1] are", (long long)dims[2]);
    }
    oa_dtype dt;
    if (oa_onnx_declared_dtype(c, oa_onnx_input_name(c, 0), &dt) && dt != OA_DT_FLOAT) {
        return ONNX_FAIL(c, OA_E_FEATURE_UNSUPPORTED, "signal is %s (float is supported)", oa_dtype_name(dt));
    }
    const bool has_win = oa_onnx_has_input(c, 2), has_len = oa_onnx_has_input(c, 3);
    if (!has_win && !has_len) {
        return ONNX_FAIL(c, OA_E_PARAM, "needs a window or a frame_length");
    }
    onnx_xb b = {c, OA_OK};
    onnx_tv step = oa_xb_in(&b, 1), fl;
    if (has_len) {
        fl = oa_xb_cast(&b, "frame_length_i64", oa_xb_in(&b, 3), OA_DT_INT64);
    } else {
        /* the window's length */
        onnx_tv sh = oa_xb_un(&b, OA_OP_SHAPE, "window_shape", oa_xb_in(&b, 2));
        oa_xb_int(&b, sh, "dtype", OA_DT_INT64);
        const int64_t scalar_shape[1] = {0};
        oa_node *k = NULL;
        if (b.st == OA_OK) {
            b.st = oa_onnx_const_i64(c, "scalar_shape", scalar_shape, 0, false, &k);
        }
        const onnx_tv rs[2] = {sh, {k, 0}};
        fl = oa_xb_op(&b, OA_OP_RESHAPE, "window_length", rs, 2);
    }
    step = oa_xb_cast(&b, "frame_step_i64", step, OA_DT_INT64);
    /* F = (L - fl) / step + 1 */
    onnx_tv nf = oa_xb_bin(&b, OA_OP_ADD, "frames",
                           oa_xb_bin(&b, OA_OP_REAL_DIV, "frames_m1",
                                     oa_xb_bin(&b, OA_OP_SUB, "span", const_i64(&b, "length", dims[1], true), fl),
                                     step),
                           const_i64(&b, "one", 1, true));
    onnx_tv j = range0(&b, "j", fl);                                          /* [fl] */
    onnx_tv starts = oa_xb_bin(&b, OA_OP_MUL, "starts", range0(&b, "f", nf), step); /* [F] */
    onnx_tv idx = oa_xb_bin(&b, OA_OP_ADD, "indices", unsqueeze(&b, "starts_col", starts, -1),
                            unsqueeze(&b, "j_row", j, 0)); /* [F, fl] */
    /* signal [B, L, 1] -> [B, L] -> frames [B, F, fl] */
    const int64_t last = 2;
    onnx_tv sig = oa_xb_un(&b, OA_OP_SQUEEZE, "signal_real", oa_xb_in(&b, 0));
    oa_xb_ints(&b, sig, "axis", &last, 1);
    const onnx_tv g[3] = {sig, idx, const_i64(&b, "gather_axis", 1, true)};
    onnx_tv frames = oa_xb_op(&b, OA_OP_GATHER_V2, "frames_gathered", g, 3);
    if (has_win) {
        frames = oa_xb_bin(&b, OA_OP_MUL, "windowed", frames, oa_xb_in(&b, 2));
    }
    /* K bins; angles from (j*k) mod fl */
    onnx_tv nk = onesided ? oa_xb_bin(&b, OA_OP_ADD, "bins",
                                      oa_xb_bin(&b, OA_OP_REAL_DIV, "half", fl, const_i64(&b, "two", 2, true)),
                                      const_i64(&b, "one_bin", 1, true))
                          : fl;
    onnx_tv kk = range0(&b, "k", nk);
    onnx_tv jk = oa_xb_bin(&b, OA_OP_FLOOR_MOD, "jk_mod",
                           oa_xb_bin(&b, OA_OP_MUL, "jk", unsqueeze(&b, "j_col", j, -1), unsqueeze(&b, "k_row", kk, 0)),
                           fl); /* [fl, K] */
    onnx_tv th = oa_xb_bin(&b, OA_OP_MUL, "theta", oa_xb_cast(&b, "jk_f32", jk, OA_DT_FLOAT),
                           oa_xb_bin(&b, OA_OP_REAL_DIV, "increment", oa_xb_f32(&b, "tau", (float)(2.0 * M_PI)),
                                     oa_xb_cast(&b, "fl_f32", fl, OA_DT_FLOAT)));
    onnx_tv cs = oa_xb_un(&b, OA_OP_COS, "cos", th);
    /* sin is exactly 0 at multiples of pi ((2 j k) mod fl == 0): the imaginary parts of bin 0 and Nyquist */
    onnx_tv at_pi = oa_xb_bin(&b, OA_OP_EQUAL, "at_pi",
                              oa_xb_bin(&b, OA_OP_FLOOR_MOD, "two_jk_mod",
                                        oa_xb_bin(&b, OA_OP_MUL, "two_jk", jk, const_i64(&b, "two_i", 2, true)), fl),
                              const_i64(&b, "zero_i", 0, true));
    const onnx_tv sel[3] = {at_pi, oa_xb_f32(&b, "zero_f", 0.0f),
                            oa_xb_un(&b, OA_OP_NEG, "minus_sin", oa_xb_un(&b, OA_OP_SIN, "sin", th))};
    onnx_tv sn = oa_xb_op(&b, OA_OP_SELECT_V2, "minus_sin_exact", sel, 3);
    onnx_tv re = unsqueeze(&b, "re", matmul(&b, "real", frames, cs), -1);
    onnx_tv im = unsqueeze(&b, "im", matmul(&b, "imag", frames, sn), -1);
    const onnx_tv parts[2] = {re, im};
    onnx_tv y = oa_xb_op(&b, OA_OP_CONCAT_D, "stack", parts, 2);
    oa_xb_int(&b, y, "concat_dim", -1);
    oa_xb_int(&b, y, "N", 2);
    oa_xb_out(&b, 0, y);
    return b.st;
}

/* --------------------------------------------------------- MelWeightMatrix */

static onnx_tv slice1(onnx_xb *b, const char *role, onnx_tv x, int64_t begin, int64_t end)
{
    const onnx_tv in[3] = {x, const_i64(b, "begin", begin, false), const_i64(b, "end", end, false)};
    return oa_xb_op(b, OA_OP_STRIDED_SLICE_V2, role, in, 3);
}

/*
 * MelWeightMatrix (num_mel_bins M, dft_length D, sample_rate SR, lower and
 * upper edge in Hz) -> [D/2 + 1, M]: M + 2 points evenly spaced on the mel
 * scale (mel = 2595 log10(1 + hz/700), step (high - low) / (M + 2)), back to
 * Hz, to spectrogram bins floor((D + 1) hz / SR); column i is the triangle
 * rising from bin[i] to bin[i+1] and falling to bin[i+2] (a column whose
 * rise is empty holds 1 at its centre), all computed from the run-time
 * scalars.
 */
oa_status oa_onnx_op_mel_weight_matrix(onnx_node_ctx *c)
{
    int64_t out_type;
    oa_dtype odt;
    oa_status st = oa_onnx_attr_int(c, "output_datatype", 1, &out_type);
    if (st != OA_OK) {
        return st;
    }
    if (out_type != (int)out_type || !oa_onnx_dtype_to_ge((int)out_type, &odt) || odt == OA_DT_STRING ||
        odt == OA_DT_BOOL) {
        return ONNX_FAIL(c, OA_E_FEATURE_UNSUPPORTED, "output_datatype %lld is not supported", (long long)out_type);
    }
    onnx_xb b = {c, OA_OK};
    const float k_mel = (float)(2595.0 / log(10.0)), k_exp = (float)(log(10.0) / 2595.0);
    onnx_tv m = oa_xb_cast(&b, "mel_bins_i64", oa_xb_in(&b, 0), OA_DT_INT64);
    onnx_tv d = oa_xb_cast(&b, "dft_length_i64", oa_xb_in(&b, 1), OA_DT_INT64);
    onnx_tv sr = oa_xb_cast(&b, "sample_rate_f32", oa_xb_in(&b, 2), OA_DT_FLOAT);
    onnx_tv lo = oa_xb_cast(&b, "lower_f32", oa_xb_in(&b, 3), OA_DT_FLOAT);
    onnx_tv hi = oa_xb_cast(&b, "upper_f32", oa_xb_in(&b, 4), OA_DT_FLOAT);
    onnx_tv one = oa_xb_f32(&b, "one", 1.0f), k700 = oa_xb_f32(&b, "hz_700", 700.0f);
    onnx_tv kmel = oa_xb_f32(&b, "mel_scale", k_mel);
    /* mel(f) = 2595/ln10 * ln(1 + f/700) */
    onnx_tv lmel = oa_xb_bin(&b, OA_OP_MUL, "low_mel", kmel,
                             oa_xb_un(&b, OA_OP_LOG, "ln_low",
                                      oa_xb_bin(&b, OA_OP_ADD, "low_1", one,
                                                oa_xb_bin(&b, OA_OP_REAL_DIV, "low_700", lo, k700))));
    onnx_tv hmel = oa_xb_bin(&b, OA_OP_MUL, "high_mel", kmel,
                             oa_xb_un(&b, OA_OP_LOG, "ln_high",
                                      oa_xb_bin(&b, OA_OP_ADD, "high_1", one,
                                                oa_xb_bin(&b, OA_OP_REAL_DIV, "high_700", hi, k700))));
    onnx_tv npts = oa_xb_bin(&b, OA_OP_ADD, "points", m, const_i64(&b, "two", 2, true));
    onnx_tv step = oa_xb_bin(&b, OA_OP_REAL_DIV, "mel_step", oa_xb_bin(&b, OA_OP_SUB, "mel_span", hmel, lmel),
                             oa_xb_cast(&b, "points_f32", npts, OA_DT_FLOAT));
    onnx_tv pts = oa_xb_bin(&b, OA_OP_ADD, "mel_points",
                            oa_xb_bin(&b, OA_OP_MUL, "steps",
                                      oa_xb_cast(&b, "range_f32", range0(&b, "range", npts), OA_DT_FLOAT), step),
                            lmel);
    onnx_tv hz = oa_xb_bin(&b, OA_OP_MUL, "hz", k700,
                           oa_xb_bin(&b, OA_OP_SUB, "hz_m1",
                                     oa_xb_un(&b, OA_OP_EXP, "exp",
                                              oa_xb_bin(&b, OA_OP_MUL, "scaled", pts, oa_xb_f32(&b, "exp_k", k_exp))),
                                     one));
    onnx_tv d1 = oa_xb_cast(&b, "d1_f32", oa_xb_bin(&b, OA_OP_ADD, "d1", d, const_i64(&b, "one_i", 1, true)),
                            OA_DT_FLOAT);
    onnx_tv bins = oa_xb_un(&b, OA_OP_FLOOR, "bins",
                            oa_xb_bin(&b, OA_OP_REAL_DIV, "bins_real", oa_xb_bin(&b, OA_OP_MUL, "d1_hz", d1, hz), sr));
    onnx_tv l = slice1(&b, "left", bins, 0, -2), ce = slice1(&b, "center", bins, 1, -1);
    onnx_tv h = slice1(&b, "right", bins, 2, INT64_MAX);
    /* j: [K, 1], K = D/2 + 1 */
    onnx_tv nk = oa_xb_bin(&b, OA_OP_ADD, "k", oa_xb_bin(&b, OA_OP_REAL_DIV, "half", d, const_i64(&b, "two_i", 2, true)),
                           const_i64(&b, "one_k", 1, true));
    onnx_tv j = unsqueeze(&b, "j", oa_xb_cast(&b, "j_f32", range0(&b, "j_range", nk), OA_DT_FLOAT), -1);
    /* rise: (j - l + [c == l]) / max(c - l, 1) on l <= j <= c; fall: (h - j) / max(h - c, 1) on c <= j < h */
    onnx_tv zero = oa_xb_f32(&b, "zero", 0.0f);
    onnx_tv cl = oa_xb_bin(&b, OA_OP_SUB, "c_minus_l", ce, l);
    onnx_tv flat = oa_xb_cast(&b, "flat_f32", oa_xb_bin(&b, OA_OP_EQUAL, "flat", ce, l), OA_DT_FLOAT);
    onnx_tv rise = oa_xb_bin(&b, OA_OP_REAL_DIV, "rise",
                             oa_xb_bin(&b, OA_OP_ADD, "rise_num", oa_xb_bin(&b, OA_OP_SUB, "j_minus_l", j, l), flat),
                             oa_xb_bin(&b, OA_OP_MAXIMUM, "rise_den", cl, one));
    onnx_tv fall = oa_xb_bin(&b, OA_OP_REAL_DIV, "fall", oa_xb_bin(&b, OA_OP_SUB, "h_minus_j", h, j),
                             oa_xb_bin(&b, OA_OP_MAXIMUM, "fall_den", oa_xb_bin(&b, OA_OP_SUB, "h_minus_c", h, ce),
                                       one));
    onnx_tv in_rise = oa_xb_bin(&b, OA_OP_LOGICAL_AND, "in_rise", oa_xb_bin(&b, OA_OP_GREATER_EQUAL, "j_ge_l", j, l),
                                oa_xb_bin(&b, OA_OP_LESS_EQUAL, "j_le_c", j, ce));
    onnx_tv in_fall = oa_xb_bin(&b, OA_OP_LOGICAL_AND, "in_fall", oa_xb_bin(&b, OA_OP_GREATER_EQUAL, "j_ge_c", j, ce),
                                oa_xb_bin(&b, OA_OP_LESS, "j_lt_h", j, h));
    const onnx_tv s1[3] = {in_rise, rise, zero};
    onnx_tv up = oa_xb_op(&b, OA_OP_SELECT_V2, "rising", s1, 3);
    const onnx_tv s2[3] = {in_fall, fall, up};
    onnx_tv y = oa_xb_op(&b, OA_OP_SELECT_V2, "weights", s2, 3);
    if (odt != OA_DT_FLOAT) {
        y = oa_xb_cast(&b, "output_datatype", y, odt);
    }
    oa_xb_out(&b, 0, y);
    return b.st;
}
