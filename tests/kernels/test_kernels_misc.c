/*
 * Conformance: Resize (nearest with ONNX and TensorFlow rules, bilinear,
 * every coordinate mode, NCHWc), TopK, NonMaxSuppressionV6, CommonLSTM,
 * plus the thread pool itself and concurrent runs of one op.
 */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/kernel_internal.h"
#include "kt_harness.h"

/* ---- Resize ---- */

static double coord(oa_kcoord_mode m, int64_t o, int64_t in, int64_t out)
{
    double s = (double)out / (double)in;
    switch (m) {
    case OA_KCT_HALF_PIXEL: return (o + 0.5) / s - 0.5;
    case OA_KCT_PYTORCH_HALF_PIXEL: return out > 1 ? (o + 0.5) / s - 0.5 : 0;
    case OA_KCT_ALIGN_CORNERS: return out == 1 ? 0 : (double)o * (double)(in - 1) / (double)(out - 1);
    case OA_KCT_TF_HALF_PIXEL_FOR_NN: return (o + 0.5) / s;
    default: return o / s;
    }
}

static int64_t near_idx(const oa_kresize_params *p, int64_t o, int64_t in, int64_t out)
{
    double x;
    int64_t r;
    if (p->coord == OA_KCT_TF_NN) {
        r = (int64_t)floor((double)o * (double)in / (double)out);
    } else if (p->coord == OA_KCT_TF_NN_HALF_PIXEL) {
        r = (int64_t)floor((o + 0.5) * (double)in / (double)out);
    } else if (p->coord == OA_KCT_TF_NN_ALIGN_CORNERS) {
        r = (int64_t)round(out > 1 ? (double)o * (double)(in - 1) / (double)(out - 1) : 0);
    } else {
        x = coord(p->coord, o, in, out);
        switch (p->nearest) {
        case OA_KNEAREST_FLOOR: r = (int64_t)floor(x); break;
        case OA_KNEAREST_CEIL: r = (int64_t)ceil(x); break;
        case OA_KNEAREST_ROUND_PREFER_CEIL: r = (int64_t)floor(x + 0.5); break;
        default: r = x - floor(x) == 0.5 ? (int64_t)floor(x) : (int64_t)floor(x + 0.5); break;
        }
    }
    return r < 0 ? 0 : (r > in - 1 ? in - 1 : r);
}

static void run_resize(const oa_kresize_params *p, int64_t c, int64_t ih, int64_t iw, int64_t oh, int64_t ow,
                       oa_klayout layout, int id)
{
    kt_buf x = kt_alloc(KT_D(OA_KDT_F32, 1, c, ih, iw));
    kt_fill(&x, 50 + (uint64_t)id, -3, 3);
    double *ref = malloc(sizeof(double) * (size_t)(c * oh * ow));
    for (int64_t ch = 0; ch < c; ch++) {
        for (int64_t y = 0; y < oh; y++) {
            for (int64_t z = 0; z < ow; z++) {
                double v;
                if (p->mode == OA_KRESIZE_NEAREST) {
                    v = kt_get(&x, (ch * ih + near_idx(p, y, ih, oh)) * iw + near_idx(p, z, iw, ow));
                } else {
                    double sy = coord(p->coord, y, ih, oh), sx = coord(p->coord, z, iw, ow);
                    sy = fmin(fmax(sy, 0), (double)(ih - 1));
                    sx = fmin(fmax(sx, 0), (double)(iw - 1));
                    int64_t y0 = (int64_t)floor(sy), x0 = (int64_t)floor(sx);
                    int64_t y1 = y0 + 1 < ih ? y0 + 1 : ih - 1, x1 = x0 + 1 < iw ? x0 + 1 : iw - 1;
                    double ly = sy - (double)y0, lx = sx - (double)x0;
                    const int64_t b = ch * ih * iw;
                    v = (1 - ly) * ((1 - lx) * kt_get(&x, b + y0 * iw + x0) + lx * kt_get(&x, b + y0 * iw + x1)) +
                        ly * ((1 - lx) * kt_get(&x, b + y1 * iw + x0) + lx * kt_get(&x, b + y1 * iw + x1));
                }
                ref[(ch * oh + y) * ow + z] = v;
            }
        }
    }
    bool blk = layout == OA_KLAYOUT_NCHWC;
    kt_buf xi = blk ? kt_blocked_from_plain(&x) : x;
    oa_ktensor yd = KT_D(OA_KDT_F32, 1, c, oh, ow);
    yd.layout = layout;
    kt_buf y = kt_alloc(yd), sz = kt_host_i32(2, (int64_t[]){oh, ow});
    kt_buf *ins[2] = {&xi, &sz}, *outs[1] = {&y};
    const char *label = kt_fmt("resize mode %d coord %d nearest %d %lldx%lld -> %lldx%lld %s", (int)p->mode,
                               (int)p->coord, (int)p->nearest, (long long)ih, (long long)iw, (long long)oh,
                               (long long)ow, blk ? "NCHWc" : "NCHW");
    oa_status st = kt_run(OA_KOP_RESIZE, p, 2, ins, 0x2, 1, outs, 1 + id % 2);
    if (st != OA_OK) {
        fail_msg("%s: status %d", label, (int)st);
    }
    kt_buf yp = blk ? kt_plain_from_blocked(&y) : y;
    kt_expect_close(&yp, ref, 1e-5, 1e-5, label);
    if (blk) {
        kt_free(&xi);
        kt_free(&yp);
    }
    kt_free(&x);
    kt_free(&y);
    kt_free(&sz);
    free(ref);
}

static void test_resize(void **state)
{
    (void)state;
    /* 2x, down, fractional, 2x columns, identity, 4x (nearest on plain rows: the pair, the repeat and the
     * table paths of rs_task) */
    int64_t sizes[][4] = {{5, 7, 10, 14}, {8, 8, 4, 4}, {6, 5, 9, 11}, {1, 4, 3, 8}, {7, 3, 7, 3}, {3, 4, 12, 16}};
    int id = 0;
    for (int s = 0; s < 6; s++) {
        for (int cm = OA_KCT_HALF_PIXEL; cm <= OA_KCT_TF_NN_ALIGN_CORNERS; cm++) {
            for (int nm = 0; nm < 4; nm++) {
                oa_kresize_params p = {.mode = OA_KRESIZE_NEAREST, .coord = (oa_kcoord_mode)cm,
                                       .nearest = (oa_knearest_mode)nm};
                if (cm >= OA_KCT_TF_NN && nm > 0) {
                    continue;
                }
                run_resize(&p, 3, sizes[s][0], sizes[s][1], sizes[s][2], sizes[s][3], OA_KLAYOUT_PLAIN, id++);
            }
            if (cm <= OA_KCT_ASYMMETRIC) {
                oa_kresize_params p = {.mode = OA_KRESIZE_LINEAR, .coord = (oa_kcoord_mode)cm};
                run_resize(&p, 3, sizes[s][0], sizes[s][1], sizes[s][2], sizes[s][3], OA_KLAYOUT_PLAIN, id++);
                run_resize(&p, 11, sizes[s][0], sizes[s][1], sizes[s][2], sizes[s][3], OA_KLAYOUT_NCHWC, id++);
            }
        }
        oa_kresize_params det = {.mode = OA_KRESIZE_NEAREST, .coord = OA_KCT_TF_NN}; /* PP-OCR det upsample x2 */
        run_resize(&det, 19, sizes[s][0], sizes[s][1], sizes[s][2], sizes[s][3], OA_KLAYOUT_NCHWC, id++);
    }
}

/* ONNX align_corners with given scales: x = o * (in - 1) / (in * scale - 1), in * scale not rounded
 * (the ONNX reference; its test_resize_downsample_scales_linear_align_corners) */
static void test_resize_align_corners_scales(void **state)
{
    (void)state;
    const int64_t ih = 3, iw = 7, oh = 1, ow = 4;
    const float sh = 0.6f, sw = 0.6f; /* 7 * 0.6 = 4.2 -> 4 columns, divisor 3.2 (not 3) */
    kt_buf x = kt_alloc(KT_D(OA_KDT_F32, 1, 1, ih, iw));
    kt_fill(&x, 77, -3, 3);
    double ref[4];
    for (int64_t z = 0; z < ow; z++) {
        double sx = (double)z * (double)(iw - 1) / ((double)iw * (double)sw - 1.0);
        int64_t x0 = (int64_t)floor(sx), x1 = x0 + 1 < iw ? x0 + 1 : iw - 1;
        double lx = sx - (double)x0;
        ref[z] = (1 - lx) * kt_get(&x, x0) + lx * kt_get(&x, x1); /* row 0: the single output row */
    }
    oa_kresize_params p = {.mode = OA_KRESIZE_LINEAR, .coord = OA_KCT_ALIGN_CORNERS, .scale_h = sh, .scale_w = sw};
    kt_buf y = kt_alloc(KT_D(OA_KDT_F32, 1, 1, oh, ow)), sz = kt_host_i32(2, (int64_t[]){oh, ow});
    kt_buf *ins[2] = {&x, &sz}, *outs[1] = {&y};
    assert_int_equal(kt_run(OA_KOP_RESIZE, &p, 2, ins, 0x2, 1, outs, 1), OA_OK);
    kt_expect_close(&y, ref, 1e-5, 1e-5, "resize align_corners with scales");
    kt_free(&x);
    kt_free(&y);
    kt_free(&sz);
}

/* ---- TopK ---- */

static void test_topk(void **state)
{
    (void)state;
    for (int largest = 0; largest < 2; largest++) {
        for (int axis = -1; axis < 2; axis++) {
            int64_t dims[3] = {3, 9, 4};
            int ax = axis < 0 ? 2 : axis;
            int64_t L = dims[ax], k = L > 3 ? 3 : L;
            kt_buf x = kt_alloc(KT_D(OA_KDT_F32, 3, 9, 4));
            kt_fill(&x, 1 + (uint64_t)axis, -3, 3);
            for (int i = 0; i < 108; i += 5) { /* ties */
                kt_set(&x, i, 1.0);
            }
            int64_t yd_dims[3] = {3, 9, 4};
            yd_dims[ax] = k;
            oa_ktensor yd = kt_desc(OA_KDT_F32, 3, yd_dims), id = kt_desc(OA_KDT_I64, 3, yd_dims);
            int64_t ny = oa_ktensor_numel(&yd), I = 1, O = 1;
            for (int i = ax + 1; i < 3; i++) {
                I *= dims[i];
            }
            for (int i = 0; i < ax; i++) {
                O *= dims[i];
            }
            double *rv = malloc(sizeof(double) * (size_t)ny), *ri = malloc(sizeof(double) * (size_t)ny);
            for (int64_t o = 0; o < O; o++) {
                for (int64_t i = 0; i < I; i++) {
                    bool used[16] = {false};
                    for (int64_t j = 0; j < k; j++) {
                        int64_t best = -1;
                        for (int64_t l = 0; l < L; l++) {
                            if (used[l]) {
                                continue;
                            }
                            double v = kt_get(&x, (o * L + l) * I + i);
                            double bv = best < 0 ? 0 : kt_get(&x, (o * L + best) * I + i);
                            if (best < 0 || (largest ? v > bv : v < bv)) {
                                best = l;
                            }
                        }
                        used[best] = true;
                        rv[(o * k + j) * I + i] = kt_get(&x, (o * L + best) * I + i);
                        ri[(o * k + j) * I + i] = (double)best;
                    }
                }
            }
            kt_buf kb = kt_host_i64(1, &k), yv = kt_alloc(yd), yi = kt_alloc(id);
            oa_ktopk_params p = {.axis = axis, .largest = largest, .sorted = true};
            kt_buf *ins[2] = {&x, &kb}, *outs[2] = {&yv, &yi};
            assert_int_equal(kt_run(OA_KOP_TOPK, &p, 2, ins, 0x2, 2, outs, 1), OA_OK);
            kt_expect_equal(&yv, rv, kt_fmt("topk values largest %d axis %d", largest, axis));
            kt_expect_equal(&yi, ri, kt_fmt("topk indices largest %d axis %d", largest, axis));
            free(rv);
            free(ri);
            kt_free(&x);
            kt_free(&kb);
            kt_free(&yv);
            kt_free(&yi);
        }
    }
}

/* ---- NMS ---- */

static double iou_ref(const float *a, const float *b, int center)
{
    double ay1, ax1, ay2, ax2, by1, bx1, by2, bx2;
    if (center) {
        ax1 = a[0] - a[2] / 2.0; ax2 = a[0] + a[2] / 2.0; ay1 = a[1] - a[3] / 2.0; ay2 = a[1] + a[3] / 2.0;
        bx1 = b[0] - b[2] / 2.0; bx2 = b[0] + b[2] / 2.0; by1 = b[1] - b[3] / 2.0; by2 = b[1] + b[3] / 2.0;
    } else {
        ay1 = fmin(a[0], a[2]); ay2 = fmax(a[0], a[2]); ax1 = fmin(a[1], a[3]); ax2 = fmax(a[1], a[3]);
        by1 = fmin(b[0], b[2]); by2 = fmax(b[0], b[2]); bx1 = fmin(b[1], b[3]); bx2 = fmax(b[1], b[3]);
    }
    double ih = fmin(ay2, by2) - fmax(ay1, by1), iw = fmin(ax2, bx2) - fmax(ax1, bx1);
    if (ih <= 0 || iw <= 0) {
        return 0;
    }
    double inter = ih * iw, u = (ay2 - ay1) * (ax2 - ax1) + (by2 - by1) * (bx2 - bx1) - inter;
    return inter / u;
}

static void test_nms(void **state)
{
    (void)state;
    for (int center = 0; center < 2; center++) {
        int64_t B = 2, N = 40, C = 3, maxo = 6;
        kt_buf boxes = kt_alloc(KT_D(OA_KDT_F32, B, N, 4)), scores = kt_alloc(KT_D(OA_KDT_F32, B, C, N));
        uint64_t s = 77;
        for (int64_t i = 0; i < B * N; i++) {
            float *bx = (float *)boxes.data + i * 4;
            float cx = (float)kt_rand_uniform(&s, 0, 10), cy = (float)kt_rand_uniform(&s, 0, 10);
            float w = (float)kt_rand_uniform(&s, 1, 4), h = (float)kt_rand_uniform(&s, 1, 4);
            if (center) {
                bx[0] = cx; bx[1] = cy; bx[2] = w; bx[3] = h;
            } else {
                bx[0] = cy - h / 2; bx[1] = cx - w / 2; bx[2] = cy + h / 2; bx[3] = cx + w / 2;
                if (i % 3 == 0) { /* flipped corners */
                    float t = bx[0]; bx[0] = bx[2]; bx[2] = t;
                }
            }
        }
        kt_fill(&scores, 5, 0, 1);
        float iou_t = 0.4f, score_t = 0.2f;
        double ref[2 * 3 * 6 * 3];
        int64_t rows = 0;
        for (int64_t b = 0; b < B; b++) {
            for (int64_t c = 0; c < C; c++) {
                const float *sc = (const float *)scores.data + (b * C + c) * N;
                bool taken[64] = {false};
                int64_t sel[64], ns = 0;
                for (;;) {
                    int64_t best = -1;
                    for (int64_t i = 0; i < N; i++) {
                        if (!taken[i] && sc[i] > score_t && (best < 0 || sc[i] > sc[best])) {
                            best = i;
                        }
                    }
                    if (best < 0 || ns >= maxo) {
                        break;
                    }
                    taken[best] = true;
                    bool keep = true;
                    for (int64_t j = 0; j < ns; j++) {
                        if (iou_ref((const float *)boxes.data + (b * N + best) * 4,
                                    (const float *)boxes.data + (b * N + sel[j]) * 4, center) > iou_t) {
                            keep = false;
                        }
                    }
                    if (keep) {
                        sel[ns++] = best;
                    }
                }
                for (int64_t j = 0; j < ns; j++, rows++) {
                    ref[rows * 3] = (double)b;
                    ref[rows * 3 + 1] = (double)c;
                    ref[rows * 3 + 2] = (double)sel[j];
                }
            }
        }
        for (int64_t r = rows; r < B * C * maxo; r++) {
            ref[r * 3] = ref[r * 3 + 1] = ref[r * 3 + 2] = -1;
        }
        kt_buf mo = kt_host_i64(1, &maxo), it = kt_scalar_f32(iou_t), st = kt_scalar_f32(score_t);
        kt_buf y = kt_alloc(KT_D(OA_KDT_I64, B * C * maxo, 3)), cnt = kt_alloc(kt_desc(OA_KDT_I64, 0, NULL));
        oa_knms_params p = {.center_point_box = center};
        kt_buf *ins[5] = {&boxes, &scores, &mo, &it, &st}, *outs[2] = {&y, &cnt};
        assert_int_equal(kt_run(OA_KOP_NMS, &p, 5, ins, 0x1c, 2, outs, 1), OA_OK);
        kt_expect_equal(&y, ref, kt_fmt("nms center %d", center));
        assert_int_equal(*(int64_t *)cnt.data, rows);
        kt_free(&boxes);
        kt_free(&scores);
        kt_free(&mo);
        kt_free(&it);
        kt_free(&st);
        kt_free(&y);
        kt_free(&cnt);
    }
}

/* ---- LSTM ---- */

static double sg(double x)
{
    return 1 / (1 + exp(-x));
}

static void run_lstm_sz(int64_t T, int64_t B, int64_t I, int64_t H, oa_klstm_dir dir, bool bias, bool init, bool seq,
                        bool peep, float clip)
{
    int64_t D = dir == OA_KLSTM_BIDIRECTIONAL ? 2 : 1;
    kt_buf X = kt_alloc(KT_D(OA_KDT_F32, T, B, I)), W = kt_alloc(KT_D(OA_KDT_F32, D, 4 * H, I)),
           R = kt_alloc(KT_D(OA_KDT_F32, D, 4 * H, H)), Bb = kt_alloc(KT_D(OA_KDT_F32, D, 8 * H)),
           S = kt_alloc(KT_D(OA_KDT_I32, B)), H0 = kt_alloc(KT_D(OA_KDT_F32, D, B, H)),
           C0 = kt_alloc(KT_D(OA_KDT_F32, D, B, H)), P = kt_alloc(KT_D(OA_KDT_F32, D, 3 * H));
    kt_fill(&X, 1, -1, 1);
    kt_fill(&W, 2, -0.5, 0.5);
    kt_fill(&R, 3, -0.5, 0.5);
    kt_fill(&Bb, 4, -0.5, 0.5);
    kt_fill(&H0, 5, -1, 1);
    kt_fill(&C0, 6, -1, 1);
    kt_fill(&P, 7, -0.5, 0.5);
    int32_t lens[3] = {(int32_t)T, 2, 0}; /* full, shorter, empty */
    memcpy(S.data, lens, sizeof(int32_t) * (size_t)(B < 3 ? B : 3));
    double *Y = calloc((size_t)(T * D * B * H), sizeof(double)), *Yh = calloc((size_t)(D * B * H), sizeof(double)),
           *Yc = calloc((size_t)(D * B * H), sizeof(double));
    for (int64_t d = 0; d < D; d++) {
        bool rev = dir == OA_KLSTM_REVERSE || d == 1;
        for (int64_t b = 0; b < B; b++) {
            double *h = calloc((size_t)H, sizeof(double)), *c = calloc((size_t)H, sizeof(double));
            double *g = calloc((size_t)(4 * H), sizeof(double));
            for (int64_t j = 0; j < H; j++) {
                h[j] = init ? kt_get(&H0, (d * B + b) * H + j) : 0;
                c[j] = init ? kt_get(&C0, (d * B + b) * H + j) : 0;
            }
            int64_t len = seq ? lens[b] : T;
            for (int64_t st = 0; st < len; st++) {
                int64_t t = rev ? len - 1 - st : st;
                for (int64_t q = 0; q < 4 * H; q++) {
                    double a = bias ? kt_get(&Bb, d * 8 * H + q) + kt_get(&Bb, d * 8 * H + 4 * H + q) : 0;
                    for (int64_t k = 0; k < I; k++) {
                        a += kt_get(&X, (t * B + b) * I + k) * kt_get(&W, (d * 4 * H + q) * I + k);
                    }
                    for (int64_t k = 0; k < H; k++) {
                        a += h[k] * kt_get(&R, (d * 4 * H + q) * H + k);
                    }
                    g[q] = a;
                }
                for (int64_t j = 0; j < H; j++) {
                    double gi = g[j], go = g[H + j], gf = g[2 * H + j], gc = g[3 * H + j];
                    if (peep) {
                        gi += kt_get(&P, d * 3 * H + j) * c[j];
                        gf += kt_get(&P, d * 3 * H + 2 * H + j) * c[j];
                    }
                    if (clip > 0) {
                        gi = fmin(fmax(gi, -clip), clip);
                        gf = fmin(fmax(gf, -clip), clip);
                        gc = fmin(fmax(gc, -clip), clip);
                    }
                    double it = sg(gi), ft = sg(gf), ct = tanh(gc);
                    c[j] = ft * c[j] + it * ct;
                    if (peep) {
                        go += kt_get(&P, d * 3 * H + H + j) * c[j];
                    }
                    if (clip > 0) {
                        go = fmin(fmax(go, -clip), clip);
                    }
                    h[j] = sg(go) * tanh(c[j]);
                    Y[((t * D + d) * B + b) * H + j] = h[j];
                }
            }
            for (int64_t j = 0; j < H; j++) {
                Yh[(d * B + b) * H + j] = h[j];
                Yc[(d * B + b) * H + j] = c[j];
            }
            free(h);
            free(c);
            free(g);
        }
    }
    kt_buf y = kt_alloc(KT_D(OA_KDT_F32, T, D, B, H)), yh = kt_alloc(KT_D(OA_KDT_F32, D, B, H)), yc = kt_alloc(yh.d);
    oa_klstm_params p = {.direction = dir, .clip = clip};
    kt_buf *ins[8] = {&X, &W, &R, bias ? &Bb : NULL, seq ? &S : NULL, init ? &H0 : NULL, init ? &C0 : NULL,
                      peep ? &P : NULL};
    kt_buf *outs[3] = {&y, &yh, &yc};
    const char *label = kt_fmt("lstm T%lld B%lld I%lld H%lld dir %d bias %d init %d seq %d peep %d clip %g",
                               (long long)T, (long long)B, (long long)I, (long long)H, (int)dir, bias, init, seq,
                               peep, (double)clip);
    assert_int_equal(kt_run(OA_KOP_LSTM, &p, 8, ins, 0, 3, outs, 1), OA_OK);
    kt_expect_close(&y, Y, 1e-5, 1e-5, label);
    kt_expect_close(&yh, Yh, 1e-5, 1e-5, label);
    kt_expect_close(&yc, Yc, 1e-5, 1e-5, label);
    free(Y);
    free(Yh);
    free(Yc);
    kt_buf *all[] = {&X, &W, &R, &Bb, &S, &H0, &C0, &P, &y, &yh, &yc};
    for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
        kt_free(all[i]);
    }
}

static void run_lstm(oa_klstm_dir dir, bool bias, bool init, bool seq, bool peep, float clip)
{
    run_lstm_sz(5, 3, 4, 6, dir, bias, init, seq, peep, clip);
}

static void test_lstm(void **state)
{
    (void)state;
    for (int dir = 0; dir < 3; dir++) {
        run_lstm((oa_klstm_dir)dir, false, false, false, false, 0);
        run_lstm((oa_klstm_dir)dir, true, true, false, false, 0);
        run_lstm((oa_klstm_dir)dir, true, true, true, true, 0);
        run_lstm((oa_klstm_dir)dir, true, false, true, false, 0.5f);
    }
    /* sizes of the vector paths: silero VAD's one step (I = H = 128), and
     * row/column counts that leave tails of the 8-row, 8-float blocks */
    run_lstm_sz(1, 1, 128, 128, OA_KLSTM_FORWARD, true, true, false, false, 0);
    run_lstm_sz(3, 2, 37, 21, OA_KLSTM_BIDIRECTIONAL, true, true, false, false, 0);
    run_lstm_sz(4, 3, 19, 13, OA_KLSTM_REVERSE, true, true, true, true, 0);
}

/* ---- GRU / RNN (the LSTM family's other cells), against the ONNX formulas in double ---- */

static double rnn_act_ref(int a, double v)
{
    return a == 0 ? sg(v) : a == 1 ? tanh(v) : a == 2 ? (v > 0 ? v : 0) : v / (1 + fabs(v)); /* softsign */
}

static void run_gru_rnn(bool gru, oa_klstm_dir dir, bool lbr, bool acts)
{
    const int64_t T = 4, B = 3, I = 5, H = 6, NG = gru ? 3 : 1, G = NG * H;
    const int64_t D = dir == OA_KLSTM_BIDIRECTIONAL ? 2 : 1;
    kt_buf X = kt_alloc(KT_D(OA_KDT_F32, T, B, I)), W = kt_alloc(KT_D(OA_KDT_F32, D, G, I)),
           R = kt_alloc(KT_D(OA_KDT_F32, D, G, H)), Bb = kt_alloc(KT_D(OA_KDT_F32, D, 2 * G)),
           S = kt_alloc(KT_D(OA_KDT_I64, B)), H0 = kt_alloc(KT_D(OA_KDT_F32, D, B, H));
    kt_fill(&X, 11, -1, 1);
    kt_fill(&W, 12, -0.6, 0.6);
    kt_fill(&R, 13, -0.6, 0.6);
    kt_fill(&Bb, 14, -0.5, 0.5);
    kt_fill(&H0, 15, -1, 1);
    const int64_t lens[3] = {T, 2, 0};
    memcpy(S.data, lens, sizeof lens);
    /* activations: f (and g) per direction; acts: GRU Softsign/Relu, RNN Relu/Softsign */
    int fa[2] = {gru ? 0 : 1, gru ? 0 : 1}, ga[2] = {1, 1};
    oa_klstm_params p = {.direction = dir, .cell = gru ? OA_KRNN_GRU : OA_KRNN_RNN, .linear_before_reset = lbr};
    if (acts) {
        for (int64_t d = 0; d < D; d++) {
            fa[d] = gru ? 3 : (d == 0 ? 2 : 3);
            ga[d] = 2;
            p.act[p.n_act++] = gru ? OA_KRNN_ACT_SOFTSIGN : (d == 0 ? OA_KRNN_ACT_RELU : OA_KRNN_ACT_SOFTSIGN);
            if (gru) {
                p.act[p.n_act++] = OA_KRNN_ACT_RELU;
            }
        }
    }
    double *Y = calloc((size_t)(T * D * B * H), sizeof(double)), *Yh = calloc((size_t)(D * B * H), sizeof(double));
    for (int64_t d = 0; d < D; d++) {
        const bool rev = dir == OA_KLSTM_REVERSE || d == 1;
        for (int64_t b = 0; b < B; b++) {
            double h[6], xg[18], hg[18], rh[6];
            for (int64_t j = 0; j < H; j++) {
                h[j] = kt_get(&H0, (d * B + b) * H + j);
            }
            for (int64_t st = 0; st < lens[b]; st++) {
                const int64_t t = rev ? lens[b] - 1 - st : st;
                for (int64_t q = 0; q < G; q++) { /* X·W + Wb and H·R + Rb */
                    xg[q] = kt_get(&Bb, d * 2 * G + q);
                    hg[q] = kt_get(&Bb, d * 2 * G + G + q);
                    for (int64_t k = 0; k < I; k++) {
                        xg[q] += kt_get(&X, (t * B + b) * I + k) * kt_get(&W, (d * G + q) * I + k);
                    }
                    for (int64_t k = 0; k < H; k++) {
                        hg[q] += h[k] * kt_get(&R, (d * G + q) * H + k);
                    }
                }
                if (!gru) {
                    for (int64_t j = 0; j < H; j++) {
                        h[j] = rnn_act_ref(fa[d], xg[j] + hg[j]);
                    }
                } else {
                    double z[6], r[6];
                    for (int64_t j = 0; j < H; j++) {
                        z[j] = rnn_act_ref(fa[d], xg[j] + hg[j]);
                        r[j] = rnn_act_ref(fa[d], xg[H + j] + hg[H + j]);
                        rh[j] = r[j] * h[j];
                    }
                    for (int64_t j = 0; j < H; j++) {
                        double hr;
                        if (lbr) {
                            hr = r[j] * hg[2 * H + j];
                        } else { /* (r ⊙ H)·Rh + Rbh */
                            hr = kt_get(&Bb, d * 2 * G + G + 2 * H + j);
                            for (int64_t k = 0; k < H; k++) {
                                hr += rh[k] * kt_get(&R, (d * G + 2 * H + j) * H + k);
                            }
                        }
                        const double hh = rnn_act_ref(ga[d], xg[2 * H + j] + hr);
                        h[j] = (1 - z[j]) * hh + z[j] * h[j];
                    }
                }
                for (int64_t j = 0; j < H; j++) {
                    Y[((t * D + d) * B + b) * H + j] = h[j];
                }
            }
            for (int64_t j = 0; j < H; j++) {
                Yh[(d * B + b) * H + j] = h[j];
            }
        }
    }
    kt_buf y = kt_alloc(KT_D(OA_KDT_F32, T, D, B, H)), yh = kt_alloc(KT_D(OA_KDT_F32, D, B, H));
    kt_buf *ins[6] = {&X, &W, &R, &Bb, &S, &H0}, *outs[2] = {&y, &yh};
    const char *label = kt_fmt("%s dir %d lbr %d acts %d", gru ? "gru" : "rnn", (int)dir, lbr, acts);
    assert_int_equal(kt_run(OA_KOP_LSTM, &p, 6, ins, 0, 2, outs, 1), OA_OK);
    kt_expect_close(&y, Y, 1e-5, 1e-5, label);
    kt_expect_close(&yh, Yh, 1e-5, 1e-5, label);
    oa_ktensor od[3];
    kt_expect_fail(oa_kernel_infer(OA_KOP_LSTM, &p, 6, (oa_ktensor[]){X.d, W.d, R.d, Bb.d, S.d, H0.d}, 3, od),
                   OA_E_PARAM, "GRU/RNN have no Y_c");
    free(Y);
    free(Yh);
    kt_buf *all[] = {&X, &W, &R, &Bb, &S, &H0, &y, &yh};
    for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
        kt_free(all[i]);
    }
}

static void test_gru_rnn(void **state)
{
    (void)state;
    for (int dir = 0; dir < 3; dir++) {
        run_gru_rnn(true, (oa_klstm_dir)dir, false, false);
        run_gru_rnn(true, (oa_klstm_dir)dir, true, false);
        run_gru_rnn(true, (oa_klstm_dir)dir, dir == 2, true);
        run_gru_rnn(false, (oa_klstm_dir)dir, false, false);
        run_gru_rnn(false, (oa_klstm_dir)dir, false, true);
    }
}

/* ---- GridSampler2D: refusals (the values are covered by the ONNX suite's GridSample cases) ---- */

static void test_grid_sample_refusals(void **state)
{
    (void)state;
    oa_kgrid_sample_params p = {.mode = OA_KGS_BICUBIC, .padding = OA_KGS_PAD_REFLECTION};
    oa_ktensor in[2] = {KT_D(OA_KDT_F32, 1, 1, 3, 2), KT_D(OA_KDT_F32, 1, 2, 4, 3)}, out;
    kt_expect_fail(oa_kernel_infer(OA_KOP_GRID_SAMPLE, &p, 2, in, 1, &out), OA_E_PARAM, "grid last dim 3");
    in[1] = KT_D(OA_KDT_F16, 1, 2, 4, 2);
    kt_expect_fail(oa_kernel_infer(OA_KOP_GRID_SAMPLE, &p, 2, in, 1, &out), OA_E_UNSUPPORTED_DATA_TYPE, "f16 grid");
    p.mode = (oa_kgs_mode)7;
    in[1] = KT_D(OA_KDT_F32, 1, 2, 4, 2);
    kt_expect_fail(oa_kernel_infer(OA_KOP_GRID_SAMPLE, &p, 2, in, 1, &out), OA_E_PARAM, "unknown mode");
    /* a NaN grid value is refused at run time, nothing converted to an index */
    p.mode = OA_KGS_NEAREST;
    kt_buf x = kt_alloc(in[0]), g = kt_alloc(in[1]), y = kt_alloc(KT_D(OA_KDT_F32, 1, 1, 2, 4));
    kt_fill(&x, 3, -1, 1);
    kt_fill(&g, 4, -1, 1);
    kt_set(&g, 5, NAN);
    kt_buf *ins[2] = {&x, &g}, *outs[1] = {&y};
    kt_expect_fail(kt_run(OA_KOP_GRID_SAMPLE, &p, 2, ins, 0, 1, outs, 1), OA_E_PARAM, "NaN grid");
    kt_free(&x);
    kt_free(&g);
    kt_free(&y);
}

/* ---- MatrixDeterminant: hand-computed determinants (a row swap, a singular matrix, f64) and refusals ---- */

static void test_det(void **state)
{
    (void)state;
    /* [[0,2],[3,4]] = -6 (needs the pivot swap); [[1,2],[2,4]] = 0; [[2,0,0],[0,3,0],[1,1,4]] = 24 */
    static const double A[8] = {0, 2, 3, 4, 1, 2, 2, 4};
    static const double C[9] = {2, 0, 0, 0, 3, 0, 1, 1, 4};
    for (int f64 = 0; f64 < 2; f64++) {
        const oa_kdtype dt = f64 ? OA_KDT_F64 : OA_KDT_F32;
        kt_buf x = kt_alloc(KT_D(dt, 2, 2, 2)), y = kt_alloc(KT_D(dt, 2));
        for (int i = 0; i < 8; i++) {
            kt_set(&x, i, A[i]);
        }
        const double want[2] = {-6, 0};
        kt_buf *ins[1] = {&x}, *outs[1] = {&y};
        assert_int_equal(kt_run(OA_KOP_DET, NULL, 1, ins, 0, 1, outs, 1), OA_OK);
        kt_expect_close(&y, want, 1e-9, 1e-6, "det 2x2");
        kt_free(&x);
        kt_free(&y);
    }
    kt_buf x3 = kt_alloc(KT_D(OA_KDT_F32, 3, 3)), y3 = kt_alloc(kt_desc(OA_KDT_F32, 0, NULL));
    for (int i = 0; i < 9; i++) {
        kt_set(&x3, i, C[i]);
    }
    const double w3 = 24;
    kt_buf *ins3[1] = {&x3}, *outs3[1] = {&y3};
    assert_int_equal(kt_run(OA_KOP_DET, NULL, 1, ins3, 0, 1, outs3, 1), OA_OK);
    kt_expect_close(&y3, &w3, 1e-9, 1e-6, "det 3x3");
    kt_free(&x3);
    kt_free(&y3);
    oa_ktensor bad[1] = {KT_D(OA_KDT_F32, 2, 3)}, out;
    kt_expect_fail(oa_kernel_infer(OA_KOP_DET, NULL, 1, bad, 1, &out), OA_E_PARAM, "non-square");
    bad[0] = KT_D(OA_KDT_I32, 2, 2);
    kt_expect_fail(oa_kernel_infer(OA_KOP_DET, NULL, 1, bad, 1, &out), OA_E_UNSUPPORTED_DATA_TYPE, "i32");
}

/* ---- thread pool ---- */

typedef struct tp_ctx {
    _Atomic int *hits;
    _Atomic size_t calls;
    size_t nthreads;
    _Atomic int bad_tid;
} tp_ctx;

static void tp_fn(void *v, size_t tid, size_t b, size_t e)
{
    tp_ctx *c = v;
    if (tid >= c->nthreads) {
        atomic_store(&c->bad_tid, 1);
    }
    for (size_t i = b; i < e; i++) {
        atomic_fetch_add(&c->hits[i], 1);
    }
    atomic_fetch_add(&c->calls, 1);
}

static void test_threadpool(void **state)
{
    (void)state;
    for (size_t nt = 0; nt <= 3; nt++) {
        oa_threadpool *pool = NULL;
        if (nt > 0) {
            assert_int_equal(oa_threadpool_create(nt, &pool), OA_OK);
            assert_int_equal(oa_threadpool_size(pool), nt);
        }
        size_t ranges[] = {0, 1, 7, 100, 4096, 100000};
        size_t grains[] = {0, 1, 3, 64, 50000};
        for (size_t r = 0; r < 6; r++) {
            for (size_t g = 0; g < 5; g++) {
                _Atomic int *hits = calloc(ranges[r] + 1, sizeof(*hits));
                tp_ctx c = {.hits = hits, .nthreads = oa_threadpool_size(pool)};
                oa_threadpool_parallel_for(pool, ranges[r], grains[g], tp_fn, &c);
                for (size_t i = 0; i < ranges[r]; i++) {
                    if (hits[i] != 1) {
                        fail_msg("pool %zu range %zu grain %zu: index %zu hit %d times", nt, ranges[r], grains[g], i,
                                 (int)hits[i]);
                    }
                }
                assert_int_equal(atomic_load(&c.bad_tid), 0);
                /* a second participant only when the range holds two grains */
                if (ranges[r] < 2 * (grains[g] ? grains[g] : 1) && ranges[r] > 0) {
                    assert_int_equal(atomic_load(&c.calls), 1);
                }
                free((void *)(uintptr_t)hits);
            }
        }
        _Atomic int hits[8] = {0};
        tp_ctx c = {.hits = hits, .nthreads = oa_threadpool_size(pool)};
        oa_threadpool_run_n(pool, 8, tp_fn, &c);
        size_t used = oa_threadpool_size(pool) < 8 ? oa_threadpool_size(pool) : 8;
        for (size_t i = 0; i < used; i++) {
            assert_int_equal(hits[i], 1);
        }
        oa_threadpool_destroy(pool);
    }
    oa_threadpool_destroy(NULL);
    assert_int_equal(oa_threadpool_size(NULL), 1);
}

/* ---- concurrent runs of one op from two threads ---- */

typedef struct conc_ctx {
    const oa_kop *op;
    kt_buf *x, *y;
    oa_status st;
} conc_ctx;

static void *conc_main(void *v)
{
    conc_ctx *c = v;
    void *ws = aligned_alloc(64, oa_kop_workspace_size(c->op) + 64);
    for (int i = 0; i < 20 && c->st == OA_OK; i++) {
        const void *ip[3] = {c->x->data, NULL, NULL};
        void *outp[1] = {c->y->data};
        c->st = oa_kop_run(c->op, ip, outp, ws, NULL);
    }
    free(ws);
    return NULL;
}

static void test_concurrent_runs(void **state)
{
    (void)state;
    oa_kconv_params p;
    memset(&p, 0, sizeof p);
    p.strides[0] = p.strides[1] = 1;
    p.pads[0] = p.pads[1] = p.pads[2] = p.pads[3] = 1;
    kt_buf w = kt_alloc(KT_D(OA_KDT_F32, 16, 8, 3, 3)), b = kt_alloc(KT_D(OA_KDT_F32, 16));
    kt_fill(&w, 1, -1, 1);
    kt_fill(&b, 2, -1, 1);
    oa_ktensor in[3] = {KT_D(OA_KDT_F32, 1, 8, 20, 20), w.d, b.d};
    in[1].data = w.data;
    in[2].data = b.data;
    oa_ktensor out = KT_D(OA_KDT_F32, 1, 16, 20, 20);
    oa_kop *op;
    assert_int_equal(oa_kop_create(OA_KOP_CONV2D, &p, 3, in, 1, &out, &op), OA_OK);
    kt_buf x[2], y[2], yref[2];
    conc_ctx cc[2];
    pthread_t th[2];
    for (int i = 0; i < 2; i++) {
        x[i] = kt_alloc(in[0]);
        kt_fill(&x[i], 10 + (uint64_t)i, -1, 1);
        y[i] = kt_alloc(out);
        yref[i] = kt_alloc(out);
        kt_buf *ins[3] = {&x[i], &w, &b}, *outs[1] = {&yref[i]};
        assert_int_equal(kt_run(OA_KOP_CONV2D, &p, 3, ins, 0x6, 1, outs, 1), OA_OK);
        cc[i] = (conc_ctx){op, &x[i], &y[i], OA_OK};
    }
    for (int i = 0; i < 2; i++) {
        pthread_create(&th[i], NULL, conc_main, &cc[i]);
    }
    for (int i = 0; i < 2; i++) {
        pthread_join(th[i], NULL);
        assert_int_equal(cc[i].st, OA_OK);
        assert_memory_equal(y[i].data, yref[i].data, y[i].bytes);
        kt_free(&x[i]);
        kt_free(&y[i]);
        kt_free(&yref[i]);
    }
    oa_kop_destroy(op);
    kt_free(&w);
    kt_free(&b);
}

/* ---- pools larger than the slice count give the same results ---- */

static void test_pool_sizes(void **state)
{
    (void)state;
    oa_kconv_params p;
    memset(&p, 0, sizeof p);
    p.strides[0] = p.strides[1] = 1;
    p.pads[0] = p.pads[1] = p.pads[2] = p.pads[3] = 1;
    p.post.n = 1;
    p.post.ops[0].act = OA_KACT_HARDSWISH;
    kt_buf w = kt_alloc(KT_D(OA_KDT_F32, 32, 16, 3, 3)), b = kt_alloc(KT_D(OA_KDT_F32, 32));
    kt_buf x = kt_alloc(KT_D(OA_KDT_F32, 1, 16, 30, 30));
    kt_fill(&w, 1, -1, 1);
    kt_fill(&b, 2, -1, 1);
    kt_fill(&x, 3, -1, 1);
    oa_ktensor in[3] = {x.d, w.d, b.d}, out = KT_D(OA_KDT_F32, 1, 32, 30, 30);
    in[1].data = w.data;
    in[2].data = b.data;
    oa_kop *op;
    assert_int_equal(oa_kop_create(OA_KOP_CONV2D, &p, 3, in, 1, &out, &op), OA_OK);
    void *ws = aligned_alloc(64, oa_kop_workspace_size(op) + 64);
    kt_buf y1 = kt_alloc(out), yn = kt_alloc(out);
    const void *ip[3] = {x.data, NULL, NULL};
    void *o1[1] = {y1.data}, *on[1] = {yn.data};
    assert_int_equal(oa_kop_run(op, ip, o1, ws, NULL), OA_OK);
    for (size_t n = 2; n <= 5; n++) {
        oa_threadpool *pool;
        assert_int_equal(oa_threadpool_create(n, &pool), OA_OK);
        memset(yn.data, 0, yn.bytes);
        assert_int_equal(oa_kop_run(op, ip, on, ws, pool), OA_OK);
        assert_memory_equal(y1.data, yn.data, y1.bytes);
        oa_threadpool_destroy(pool);
    }
    free(ws);
    oa_kop_destroy(op);
    kt_free(&w);
    kt_free(&b);
    kt_free(&x);
    kt_free(&y1);
    kt_free(&yn);
}

/* ---- reshape (dynamic shapes) ---- */

static void test_reshape(void **state)
{
    (void)state;
    oa_kunary_params up = {.op = OA_KUN_RELU};
    oa_ktensor x = KT_D(OA_KDT_F32, 4), y = x;
    oa_kop *op;
    assert_int_equal(oa_kop_create(OA_KOP_UNARY, &up, 1, &x, 1, &y, &op), OA_OK);
    x = y = KT_D(OA_KDT_F32, 2, 3);
    assert_int_equal(oa_kop_reshape(op, 1, &x, 1, &y), OA_OK);
    float in[6] = {-1, 2, -3, 4, -5, 6}, out[6];
    const void *ip[1] = {in};
    void *outp[1] = {out};
    assert_int_equal(oa_kop_run(op, ip, outp, NULL, NULL), OA_OK);
    assert_true(out[5] == 6 && out[4] == 0);
    x.dtype = OA_KDT_I32;
    kt_expect_fail(oa_kop_reshape(op, 1, &x, 1, &y), OA_E_PARAM, "reshape with a dtype change");
    x = KT_D(OA_KDT_F32, 2, 3);
    y = KT_D(OA_KDT_F32, 3, 3);
    kt_expect_fail(oa_kop_reshape(op, 1, &x, 1, &y), OA_E_PARAM, "reshape with a wrong output");
    assert_int_equal(oa_kop_run(op, ip, outp, NULL, NULL), OA_OK); /* previous state kept */
    oa_kop_destroy(op);
}

/* Fuzz finding 2 (docs/fuzzing.md): a float constant read where an integer is expected (TopK's k, an axis, a
 * shape) holding 3e29 was converted to int64_t, which is undefined. The constant reader saturates; the op's own
 * range checks then refuse the value. */
static void test_const_reader_saturates_floats(void **state)
{
    (void)state;
    float f[] = {3e29f, -3e29f, NAN, INFINITY, -INFINITY, 42.9f, -7.5f};
    const int64_t fwant[] = {INT64_MAX, INT64_MIN, 0, INT64_MAX, INT64_MIN, 42, -7};
    oa_ktensor t = {0};
    int64_t n = (int64_t)(sizeof(f) / sizeof(f[0]));
    oa_ktensor_set(&t, OA_KDT_F32, 1, &n);
    t.data = f;
    for (int64_t i = 0; i < n; i++) {
        assert_int_equal(oa_kt_get_i64(&t, i), fwant[i]);
    }
    double d[] = {1e300, -1e300, 9223372036854775808.0, -9223372036854775808.0, 1099511627776.0};
    const int64_t dwant[] = {INT64_MAX, INT64_MIN, INT64_MAX, INT64_MIN, 1099511627776};
    n = (int64_t)(sizeof(d) / sizeof(d[0]));
    oa_ktensor_set(&t, OA_KDT_F64, 1, &n);
    t.data = d;
    for (int64_t i = 0; i < n; i++) {
        assert_int_equal(oa_kt_get_i64(&t, i), dwant[i]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_resize), cmocka_unit_test(test_resize_align_corners_scales),     cmocka_unit_test(test_topk),
        cmocka_unit_test(test_nms),        cmocka_unit_test(test_lstm), cmocka_unit_test(test_gru_rnn), cmocka_unit_test(test_grid_sample_refusals), cmocka_unit_test(test_det),
        cmocka_unit_test(test_threadpool), cmocka_unit_test(test_concurrent_runs),
        cmocka_unit_test(test_reshape),
        cmocka_unit_test(test_pool_sizes),
        cmocka_unit_test(test_const_reader_saturates_floats),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
