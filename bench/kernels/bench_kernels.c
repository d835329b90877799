/*
 * Kernel micro-benchmarks (not tests): GFLOP/s of GEMM shapes from BERT and
 * conv shapes from PP-OCR and ResNet-50 for each candidate implementation at
 * 1 and 2 threads, plus elementwise and thread-pool overhead. Prints
 * markdown tables (bench/KERNELS.md records a run).
 *
 * Usage: bench_kernels [gemm|conv|wino|stem|pw|ew|pool|all] [--quick] [--only=name-substring]
 * Each number is the median of 5 rounds of repeated runs (>= ~50 ms each).
 * OpenBLAS runs with its own pthreads (openblas_set_num_threads), oneDNN
 * sgemm with OpenMP (omp_set_num_threads); openacl ops with oa_threadpool.
 */
#define _POSIX_C_SOURCE 200809L
#include <cblas.h>
#include <dnnl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/pages.h"
#include "base/util.h"
#include "kernels/kernels.h"

extern void omp_set_num_threads(int n);
extern void openblas_set_num_threads(int n);

static bool g_quick;
static const char *g_filter; /* --only=substring: rows whose name contains it */
static oa_threadpool *g_pool2;

static double median5(double *v)
{
    for (int i = 0; i < 5; i++) {
        for (int j = i + 1; j < 5; j++) {
            if (v[j] < v[i]) {
                double t = v[i];
                v[i] = v[j];
                v[j] = t;
            }
        }
    }
    return v[2];
}

typedef void (*bench_fn)(void *ctx);

/* OA_BENCH_CPUTIME=1: the process' CPU time instead of wall time (1-thread
 * cells on a machine shared with other jobs: preemption does not count). */
static uint64_t bench_now(void)
{
    static int cpu = -1;
    if (cpu < 0) {
        cpu = getenv("OA_BENCH_CPUTIME") != NULL && strcmp(getenv("OA_BENCH_CPUTIME"), "0") != 0;
    }
    if (!cpu) {
        return oa_now_ns();
    }
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
#define oa_now_ns bench_now

/* Seconds per call: median over 5 rounds. */
static double time_it(bench_fn fn, void *ctx)
{
    fn(ctx); /* warm-up */
    uint64_t t0 = oa_now_ns();
    fn(ctx);
    double one = (double)(oa_now_ns() - t0) * 1e-9;
    int reps = (int)((g_quick ? 0.01 : 0.05) / (one > 1e-7 ? one : 1e-7)) + 1;
    double r[5];
    for (int k = 0; k < 5; k++) {
        uint64_t s = oa_now_ns();
        for (int i = 0; i < reps; i++) {
            fn(ctx);
        }
        r[k] = (double)(oa_now_ns() - s) * 1e-9 / reps;
    }
    return median5(r);
}

static float *rnd(size_t n)
{
    float *p = aligned_alloc(64, (n * sizeof(float) + 63) / 64 * 64 + 64);
    uint64_t s = 12345 + n;
    for (size_t i = 0; i < n; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        p[i] = (float)((double)(s >> 40) / (double)(1ull << 24)) - 0.5f;
    }
    return p;
}

/* ---- openacl op runner ---- */

typedef struct op_ctx {
    oa_kop *op;
    const void *in[8];
    void *out[2];
    void *ws;
    oa_threadpool *pool;
} op_ctx;

static void op_fn(void *v)
{
    op_ctx *c = v;
    if (oa_kop_run(c->op, c->in, c->out, c->ws, c->pool) != OA_OK) {
        fprintf(stderr, "run failed\n");
        exit(1);
    }
}

static double time_op(op_ctx *c, int thr)
{
    c->pool = thr > 1 ? g_pool2 : NULL;
    size_t wsz = oa_kop_workspace_size(c->op);
    c->ws = wsz ? aligned_alloc(64, (wsz + 63) / 64 * 64) : NULL;
    double t = time_it(op_fn, c);
    free(c->ws);
    return t;
}

/* ---- GEMM ---- */

typedef struct gemm_ctx {
    int M, N, K, batch;
    float *a, *b, *c;
} gemm_ctx;

static void blas_fn(void *v)
{
    gemm_ctx *g = v;
    for (int i = 0; i < g->batch; i++) {
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, g->M, g->N, g->K, 1.0f, g->a + (size_t)i * g->M * g->K,
                    g->K, g->b + (size_t)i * g->K * g->N, g->N, 0.0f, g->c + (size_t)i * g->M * g->N, g->N);
    }
}

static void dnnl_sgemm_fn(void *v)
{
    gemm_ctx *g = v;
    for (int i = 0; i < g->batch; i++) {
        dnnl_sgemm('N', 'N', g->M, g->N, g->K, 1.0f, g->a + (size_t)i * g->M * g->K, g->K,
                   g->b + (size_t)i * g->K * g->N, g->N, 0.0f, g->c + (size_t)i * g->M * g->N, g->N);
    }
}

static void bench_gemm(void)
{
    struct {
        const char *name;
        int batch, M, N, K;
        bool bconst;
    } shapes[] = {
        {"BERT QKV/out proj", 1, 128, 768, 768, true},
        {"BERT FFN up", 1, 128, 3072, 768, true},
        {"BERT FFN down", 1, 128, 768, 3072, true},
        {"BERT attn QK^T (12 heads)", 12, 128, 128, 64, false},
        {"BERT attn PV (12 heads)", 12, 128, 64, 128, false},
        {"small M=1", 1, 1, 768, 768, true},
        {"small M=8", 1, 8, 768, 768, true},
        {"ResNet fc", 1, 1, 1000, 2048, true},
        {"square 1024", 1, 1024, 1024, 1024, true},
        {"OCR rec CTC head", 1, 40, 6625, 120, true},
    };
    printf("\n### GEMM (GFLOP/s, f32)\n\n");
    printf("| shape | batch x M x N x K | openacl matmul 1T | 2T | oneDNN sgemm 1T | 2T | OpenBLAS 1T | 2T |\n");
    printf("|---|---|---|---|---|---|---|---|\n");
    for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++) {
        if (g_filter != NULL && strstr(shapes[s].name, g_filter) == NULL) {
            continue;
        }
        gemm_ctx g = {shapes[s].M, shapes[s].N, shapes[s].K, shapes[s].batch, NULL, NULL, NULL};
        g.a = rnd((size_t)g.batch * g.M * g.K);
        g.b = rnd((size_t)g.batch * g.K * g.N);
        g.c = rnd((size_t)g.batch * g.M * g.N);
        double fl = 2.0 * g.batch * g.M * g.N * g.K;
        double r[6];
        /* openacl */
        oa_kmatmul_params p;
        memset(&p, 0, sizeof p);
        oa_ktensor in[3], out;
        if (g.batch == 1) {
            oa_ktensor_set(&in[0], OA_KDT_F32, 2, (int64_t[]){g.M, g.K});
            oa_ktensor_set(&in[1], OA_KDT_F32, 2, (int64_t[]){g.K, g.N});
        } else {
            oa_ktensor_set(&in[0], OA_KDT_F32, 3, (int64_t[]){g.batch, g.M, g.K});
            oa_ktensor_set(&in[1], OA_KDT_F32, 3, (int64_t[]){g.batch, g.K, g.N});
        }
        memset(&in[2], 0, sizeof in[2]);
        in[2].dtype = OA_KDT_UNDEFINED;
        if (shapes[s].bconst) {
            in[1].data = g.b;
        }
        if (oa_kernel_infer(OA_KOP_MATMUL, &p, 3, in, 1, &out) != OA_OK) {
            exit(1);
        }
        op_ctx oc;
        memset(&oc, 0, sizeof oc);
        if (oa_kop_create(OA_KOP_MATMUL, &p, 3, in, 1, &out, &oc.op) != OA_OK) {
            exit(1);
        }
        oc.in[0] = g.a;
        oc.in[1] = g.b;
        oc.out[0] = g.c;
        for (int t = 1; t <= 2; t++) {
            r[t - 1] = fl / time_op(&oc, t) * 1e-9;
        }
        oa_kop_destroy(oc.op);
        for (int t = 1; t <= 2; t++) {
            omp_set_num_threads(t);
            r[1 + t] = fl / time_it(dnnl_sgemm_fn, &g) * 1e-9;
            openblas_set_num_threads(t);
            r[3 + t] = fl / time_it(blas_fn, &g) * 1e-9;
        }
        printf("| %s | %d x %d x %d x %d | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f |\n", shapes[s].name, g.batch, g.M,
               g.N, g.K, r[0], r[1], r[2], r[3], r[4], r[5]);
        fflush(stdout);
        free(g.a);
        free(g.b);
        free(g.c);
    }
}

/* ---- Conv ---- */

typedef struct conv_shape {
    const char *name;
    int64_t ic, h, w, oc, k, s, p, g;
} conv_shape;

typedef struct im2col_ctx {
    const conv_shape *c;
    int64_t oh, ow;
    float *x, *w, *col, *y;
} im2col_ctx;

/* Baseline: im2col + OpenBLAS sgemm (groups == 1 only). */
static void im2col_fn(void *v)
{
    im2col_ctx *c = v;
    const conv_shape *s = c->c;
    int64_t K = s->ic * s->k * s->k, N = c->oh * c->ow;
    const float *B = c->x;
    if (!(s->k == 1 && s->s == 1 && s->p == 0)) {
        for (int64_t ic = 0; ic < s->ic; ic++) {
            for (int64_t kh = 0; kh < s->k; kh++) {
                for (int64_t kw = 0; kw < s->k; kw++) {
                    float *row = c->col + ((ic * s->k + kh) * s->k + kw) * N;
                    for (int64_t oh = 0; oh < c->oh; oh++) {
                        int64_t ih = oh * s->s - s->p + kh;
                        for (int64_t ow = 0; ow < c->ow; ow++) {
                            int64_t iw = ow * s->s - s->p + kw;
                            row[oh * c->ow + ow] = (ih < 0 || ih >= s->h || iw < 0 || iw >= s->w)
                                                       ? 0.0f
                                                       : c->x[(ic * s->h + ih) * s->w + iw];
                        }
                    }
                }
            }
        }
        B = c->col;
    }
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)s->oc, (int)N, (int)K, 1.0f, c->w, (int)K, B, (int)N,
                0.0f, c->y, (int)N);
}

/*
 * 3x3 stride-1 convs on NCHWc: the direct kernel (oneDNN JIT) against our
 * Winograd F(2x2,3x3) and F(4x4,3x3) (OPENACL_WINOGRAD=0/2/4). Numbers are
 * effective GFLOP/s: the direct convolution's FLOPs over the time.
 */
static void bench_wino(void)
{
    conv_shape shapes[] = {
        {"ResNet l1 3x3 64", 64, 56, 56, 64, 3, 1, 1, 1},
        {"ResNet l2 3x3 128", 128, 28, 28, 128, 3, 1, 1, 1},
        {"ResNet l3 3x3 256", 256, 14, 14, 256, 3, 1, 1, 1},
        {"ResNet l4 3x3 512", 512, 7, 7, 512, 3, 1, 1, 1},
        {"OCR det neck 3x3 96->24 @160", 96, 160, 160, 24, 3, 1, 1, 1},
        {"OCR det 3x3 24->24 @160", 24, 160, 160, 24, 3, 1, 1, 1},
        {"OCR det 3x3 16->16 @160", 16, 160, 160, 16, 3, 1, 1, 1},
        {"OCR det 3x3 32->32 @80", 32, 80, 80, 32, 3, 1, 1, 1},
        {"OCR rec 3x3 s1 240->48 @6x40", 240, 6, 40, 48, 3, 1, 1, 1},
        {"3x3 64->64 @14", 64, 14, 14, 64, 3, 1, 1, 1},
    };
    static const char *modes[3] = {"0", "2", "4"};
    printf("\n### Conv2D 3x3 s1 NCHWc: direct vs Winograd (effective GFLOP/s, bias+ReLU fused)\n\n");
    printf("| shape | Cin>Cout HxW | direct 1T | 2T | F(2x2,3x3) 1T | 2T | F(4x4,3x3) 1T | 2T |\n");
    printf("|---|---|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
        conv_shape *c = &shapes[i];
        if (g_filter != NULL && strstr(c->name, g_filter) == NULL) {
            continue;
        }
        double fl = 2.0 * (double)(c->oc * c->h * c->w) * (double)(c->ic * 9);
        float *w = rnd((size_t)(c->oc * c->ic * 9)), *b = rnd((size_t)c->oc);
        float *y = rnd((size_t)((c->oc + 16) * c->h * c->w));
        double r[6] = {0};
        for (int m = 0; m < 3; m++) {
            setenv("OPENACL_WINOGRAD", modes[m], 1);
            oa_kconv_params p;
            memset(&p, 0, sizeof p);
            p.strides[0] = p.strides[1] = 1;
            p.pads[0] = p.pads[1] = p.pads[2] = p.pads[3] = 1;
            p.groups = 1;
            p.post.n = 1;
            p.post.ops[0].act = OA_KACT_RELU;
            oa_ktensor in[3], out;
            oa_ktensor_set(&in[0], OA_KDT_F32, 4, (int64_t[]){1, c->ic, c->h, c->w});
            oa_ktensor_set(&in[1], OA_KDT_F32, 4, (int64_t[]){c->oc, c->ic, 3, 3});
            oa_ktensor_set(&in[2], OA_KDT_F32, 1, (int64_t[]){c->oc});
            in[0].layout = OA_KLAYOUT_NCHWC;
            in[1].data = w;
            in[2].data = b;
            if (oa_kernel_infer(OA_KOP_CONV2D, &p, 3, in, 1, &out) != OA_OK) {
                exit(1);
            }
            op_ctx oc;
            memset(&oc, 0, sizeof oc);
            if (oa_kop_create(OA_KOP_CONV2D, &p, 3, in, 1, &out, &oc.op) != OA_OK) {
                exit(1);
            }
            float *xb = rnd(oa_ktensor_bytes(&in[0]) / 4 + 16);
            oc.in[0] = xb;
            oc.out[0] = y;
            for (int t = 1; t <= 2; t++) {
                r[m * 2 + t - 1] = fl / time_op(&oc, t) * 1e-9;
            }
            free(xb);
            oa_kop_destroy(oc.op);
        }
        printf("| %s | %lld>%lld %lldx%lld | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f |\n", c->name, (long long)c->ic,
               (long long)c->oc, (long long)c->h, (long long)c->w, r[0], r[1], r[2], r[3], r[4], r[5]);
        fflush(stdout);
        free(w);
        free(b);
        free(y);
    }
    unsetenv("OPENACL_WINOGRAD");
}

static void bench_conv(void)
{
    conv_shape shapes[] = {
        {"ResNet conv1 7x7 s2", 3, 224, 224, 64, 7, 2, 3, 1},
        {"ResNet l1 1x1 64->256", 64, 56, 56, 256, 1, 1, 0, 1},
        {"ResNet l1 3x3 64", 64, 56, 56, 64, 3, 1, 1, 1},
        {"ResNet l2 3x3 128", 128, 28, 28, 128, 3, 1, 1, 1},
        {"ResNet l3 1x1 1024->256", 1024, 14, 14, 256, 1, 1, 0, 1},
        {"ResNet l3 3x3 256", 256, 14, 14, 256, 3, 1, 1, 1},
        {"ResNet l4 3x3 512", 512, 7, 7, 512, 3, 1, 1, 1},
        {"ResNet l4 1x1 512->2048", 512, 7, 7, 2048, 1, 1, 0, 1},
        {"ResNet l4 1x1 2048->512", 2048, 7, 7, 512, 1, 1, 0, 1},
        {"OCR det stem 3x3 s2", 3, 640, 640, 16, 3, 2, 1, 1},
        {"OCR det dw 3x3 @320", 32, 320, 320, 32, 3, 1, 1, 32},
        {"OCR det pw 1x1 32->64 @160", 32, 160, 160, 64, 1, 1, 0, 1},
        {"OCR det dw 5x5 s2 @80", 128, 80, 80, 128, 5, 2, 2, 128},
        {"OCR det dw 3x3 s2 @320", 32, 320, 320, 32, 3, 2, 1, 32},
        {"OCR det dw 5x5 @40", 192, 40, 40, 192, 5, 1, 2, 192},
        {"OCR det dw 5x5 @20", 384, 20, 20, 384, 5, 1, 2, 384},
        {"OCR det neck 3x3 96->24 @160", 96, 160, 160, 24, 3, 1, 1, 1},
        {"OCR rec pw 1x1 128->256 @12x80", 128, 12, 80, 256, 1, 1, 0, 1},
        {"OCR rec dw 3x3 @24x160", 64, 24, 160, 64, 3, 1, 1, 64},
        {"OCR rec dw 5x5 @12x80", 240, 12, 80, 240, 5, 1, 2, 240},
        {"OCR rec 3x3 s1 240->48 @6x40", 240, 6, 40, 48, 3, 1, 1, 1},
        {"YOLO 3x3 s2 16->32 @320", 16, 320, 320, 32, 3, 2, 1, 1},
        {"YOLO 3x3 s2 32->64 @160", 32, 160, 160, 64, 3, 2, 1, 1},
        {"YOLO 3x3 s2 64->128 @80", 64, 80, 80, 128, 3, 2, 1, 1},
        {"YOLO 3x3 s2 128->256 @40", 128, 40, 40, 256, 3, 2, 1, 1},
    };
    setenv("OPENACL_WINOGRAD", "0", 1); /* direct kernels here; `wino` compares */
    printf("\n### Conv2D (GFLOP/s, f32, N=1, bias+ReLU fused)\n\n");
    printf("| shape | Cin>Cout HxW k s g | openacl NCHW 1T | 2T | openacl NCHWc 1T | 2T | im2col+OpenBLAS 1T | 2T |\n");
    printf("|---|---|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
        conv_shape *c = &shapes[i];
        if (g_filter != NULL && strstr(c->name, g_filter) == NULL) {
            continue;
        }
        int64_t oh = (c->h + 2 * c->p - c->k) / c->s + 1, ow = (c->w + 2 * c->p - c->k) / c->s + 1;
        double fl = 2.0 * (double)(c->oc * oh * ow) * (double)(c->ic / c->g * c->k * c->k);
        float *x = rnd((size_t)(c->ic * c->h * c->w + 64)), *w = rnd((size_t)(c->oc * c->ic / c->g * c->k * c->k));
        float *b = rnd((size_t)c->oc), *y = rnd((size_t)((c->oc + 16) * oh * ow));
        double r[6] = {0};
        for (int layout = 0; layout < 2; layout++) {
            oa_kconv_params p;
            memset(&p, 0, sizeof p);
            p.strides[0] = p.strides[1] = c->s;
            p.pads[0] = p.pads[1] = p.pads[2] = p.pads[3] = c->p;
            p.groups = c->g;
            p.post.n = 1;
            p.post.ops[0].act = OA_KACT_RELU;
            oa_ktensor in[3], out;
            oa_ktensor_set(&in[0], OA_KDT_F32, 4, (int64_t[]){1, c->ic, c->h, c->w});
            oa_ktensor_set(&in[1], OA_KDT_F32, 4, (int64_t[]){c->oc, c->ic / c->g, c->k, c->k});
            oa_ktensor_set(&in[2], OA_KDT_F32, 1, (int64_t[]){c->oc});
            in[0].layout = (oa_klayout)layout;
            in[1].data = w;
            in[2].data = b;
            if (oa_kernel_infer(OA_KOP_CONV2D, &p, 3, in, 1, &out) != OA_OK) {
                exit(1);
            }
            out.layout = (oa_klayout)layout;
            op_ctx oc;
            memset(&oc, 0, sizeof oc);
            if (oa_kop_create(OA_KOP_CONV2D, &p, 3, in, 1, &out, &oc.op) != OA_OK) {
                exit(1);
            }
            float *xb = rnd(oa_ktensor_bytes(&in[0]) / 4 + 16);
            oc.in[0] = xb;
            oc.out[0] = y;
            for (int t = 1; t <= 2; t++) {
                r[layout * 2 + t - 1] = fl / time_op(&oc, t) * 1e-9;
            }
            free(xb);
            oa_kop_destroy(oc.op);
        }
        if (c->g == 1) {
            im2col_ctx ic = {c, oh, ow, x, w, rnd((size_t)(c->ic * c->k * c->k * oh * ow)), y};
            for (int t = 1; t <= 2; t++) {
                openblas_set_num_threads(t);
                r[3 + t] = fl / time_it(im2col_fn, &ic) * 1e-9;
            }
            free(ic.col);
        }
        printf("| %s | %lld>%lld %lldx%lld k%lld s%lld g%lld | %.1f | %.1f | %.1f | %.1f | ", c->name, (long long)c->ic,
               (long long)c->oc, (long long)c->h, (long long)c->w, (long long)c->k, (long long)c->s, (long long)c->g,
               r[0], r[1], r[2], r[3]);
        if (c->g == 1) {
            printf("%.1f | %.1f |\n", r[4], r[5]);
        } else {
            printf("n/a | n/a |\n");
        }
        fflush(stdout);
        free(x);
        free(w);
        free(b);
        free(y);
    }
}

/*
 * Stem convs (plain x with 3 channels into an NCHWc chain, params.out_nchwc): the tier's stem
 * kernel (conv_stem.c) against oneDNN (OPENACL_CONV_STEM=0), GFLOP/s, no post-op and ReLU.
 */
static void bench_stem(void)
{
    conv_shape shapes[] = {
        {"YOLO / PP-OCR det stem 3x3 s2", 3, 640, 640, 16, 3, 2, 1, 1},
        {"ResNet-like stem 7x7 s2 to 16", 3, 224, 224, 16, 7, 2, 3, 1},
    };
    printf("\n### Stem conv (plain x -> NCHWc y, GFLOP/s)\n\n");
    printf("| shape | post-op | oneDNN 1T | 2T | stem 1T | 2T |\n|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
        conv_shape *c = &shapes[i];
        if (g_filter != NULL && strstr(c->name, g_filter) == NULL) {
            continue;
        }
        int64_t oh = (c->h + 2 * c->p - c->k) / c->s + 1, ow = (c->w + 2 * c->p - c->k) / c->s + 1;
        double fl = 2.0 * (double)(c->oc * oh * ow) * (double)(c->ic * c->k * c->k);
        float *w = rnd((size_t)(c->oc * c->ic * c->k * c->k)), *b = rnd((size_t)c->oc);
        float *y = rnd((size_t)((c->oc + 16) * oh * ow)), *xb = rnd((size_t)(c->ic * c->h * c->w + 16));
        for (int post = 0; post < 2; post++) {
            double r[4] = {0};
            for (int stem = 0; stem < 2; stem++) {
                setenv("OPENACL_CONV_STEM", stem ? "1" : "0", 1);
                oa_kconv_params p;
                memset(&p, 0, sizeof p);
                p.strides[0] = p.strides[1] = c->s;
                p.pads[0] = p.pads[1] = p.pads[2] = p.pads[3] = c->p;
                p.groups = 1;
                p.out_nchwc = true;
                p.post.n = post;
                p.post.ops[0].act = OA_KACT_RELU;
                oa_ktensor in[3], out;
                oa_ktensor_set(&in[0], OA_KDT_F32, 4, (int64_t[]){1, c->ic, c->h, c->w});
                oa_ktensor_set(&in[1], OA_KDT_F32, 4, (int64_t[]){c->oc, c->ic, c->k, c->k});
                oa_ktensor_set(&in[2], OA_KDT_F32, 1, (int64_t[]){c->oc});
                in[1].data = w;
                in[2].data = b;
                op_ctx oc;
                memset(&oc, 0, sizeof oc);
                if (oa_kernel_infer(OA_KOP_CONV2D, &p, 3, in, 1, &out) != OA_OK ||
                    oa_kop_create(OA_KOP_CONV2D, &p, 3, in, 1, &out, &oc.op) != OA_OK) {
                    exit(1);
                }
                oc.in[0] = xb;
                oc.out[0] = y;
                for (int t = 1; t <= 2; t++) {
                    r[stem * 2 + t - 1] = fl / time_op(&oc, t) * 1e-9;
                }
                oa_kop_destroy(oc.op);
            }
            printf("| %s | %s | %.1f | %.1f | %.1f | %.1f |\n", c->name, post ? "ReLU" : "none", r[0], r[1], r[2],
                   r[3]);
            fflush(stdout);
        }
        unsetenv("OPENACL_CONV_STEM");
        free(w);
        free(b);
        free(y);
        free(xb);
    }
}

/* ---- 1x1 and 3x3 convs on small planes: filters in cache (warm) and in memory (cold) ---- */

enum { PW_COPIES = 16 }; /* ops with their own filters, run in turn: 16 x 4 MiB is twice this L3 */

typedef struct pw_ring {
    op_ctx ops[PW_COPIES];
    int n, next;
} pw_ring;

static void pw_ring_fn(void *v)
{
    pw_ring *r = v;
    op_fn(&r->ops[r->next]);
    r->next = (r->next + 1) % r->n;
}

/* GFLOP/s of a ring of PW_COPIES created ops (inputs set): r[0] one op rerun (warm, 1 thread), r[1] and r[2]
 * the ops in turn at 1 and 2 threads (cold); then destroys the ops. */
static void pw_ring_time(pw_ring *ring, double fl, double r[3])
{
    size_t ws = 0;
    for (int k = 0; k < PW_COPIES; k++) {
        const size_t wk = oa_kop_workspace_size(ring->ops[k].op);
        ws = wk > ws ? wk : ws;
    }
    void *wsp = ws ? aligned_alloc(64, (ws + 63) / 64 * 64) : NULL;
    r[0] = fl / time_op(&ring->ops[0], 1) * 1e-9; /* on a workspace of its own */
    for (int k = 0; k < PW_COPIES; k++) {
        ring->ops[k].ws = wsp;
    }
    for (int t = 1; t <= 2; t++) {
        for (int k = 0; k < PW_COPIES; k++) {
            ring->ops[k].pool = t > 1 ? g_pool2 : NULL;
        }
        ring->n = PW_COPIES;
        r[t] = fl / time_it(pw_ring_fn, ring) * 1e-9;
    }
    for (int k = 0; k < PW_COPIES; k++) {
        oa_kop_destroy(ring->ops[k].op);
    }
    free(wsp);
}

static void bench_pw(void)
{
    conv_shape shapes[] = {
        {"ResNet l1 1x1 64->256 @56", 64, 56, 56, 256, 1, 1, 0, 1},
        {"ResNet l1 1x1 256->64 @56", 256, 56, 56, 64, 1, 1, 0, 1},
        {"ResNet l2 1x1 512->128 @28", 512, 28, 28, 128, 1, 1, 0, 1},
        {"ResNet l2 1x1 128->512 @28", 128, 28, 28, 512, 1, 1, 0, 1},
        {"ResNet l4 1x1 512->2048 @7", 512, 7, 7, 2048, 1, 1, 0, 1},
        {"ResNet l4 1x1 2048->512 @7", 2048, 7, 7, 512, 1, 1, 0, 1},
        {"ResNet l4 1x1 1024->2048 s2 @14", 1024, 14, 14, 2048, 1, 2, 0, 1},
        {"ResNet l3 1x1 1024->256 @14", 1024, 14, 14, 256, 1, 1, 0, 1},
        {"ResNet l3 1x1 256->1024 @14", 256, 14, 14, 1024, 1, 1, 0, 1},
        {"ResNet l4 3x3 512 @7", 512, 7, 7, 512, 3, 1, 1, 1},
        {"ResNet l4 3x3 512 s2 @14", 512, 14, 14, 512, 3, 2, 1, 1},
    };
    printf("\n### Convs on small planes (NCHWc, GFLOP/s, bias + ReLU; cold: %d ops with their own filters "
           "run in turn)\n\n", PW_COPIES);
    printf("| shape | oneDNN warm 1T | pw warm 1T | oneDNN cold 1T | pw cold 1T | oneDNN cold 2T | pw cold 2T |\n");
    printf("|---|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
        conv_shape *c = &shapes[i];
        if (g_filter != NULL && strstr(c->name, g_filter) == NULL) {
            continue;
        }
        const int64_t oh = (c->h + 2 * c->p - c->k) / c->s + 1, ow = (c->w + 2 * c->p - c->k) / c->s + 1;
        const double fl = 2.0 * (double)(c->oc * oh * ow) * (double)(c->ic * c->k * c->k);
        float *b = rnd((size_t)c->oc), *y = rnd((size_t)(c->oc * oh * ow)), *xb = rnd((size_t)(c->ic * c->h * c->w));
        float *w[PW_COPIES];
        for (int k = 0; k < PW_COPIES; k++) {
            w[k] = rnd((size_t)(c->oc * c->ic * c->k * c->k) + (size_t)k);
        }
        double r[2][3] = {{0}};
        for (int pw = 0; pw < 2; pw++) {
            setenv("OPENACL_CONV_PW", pw ? "1" : "0", 1);
            pw_ring ring;
            memset(&ring, 0, sizeof ring);
            for (int k = 0; k < PW_COPIES; k++) {
                oa_kconv_params p;
                memset(&p, 0, sizeof p);
                p.strides[0] = p.strides[1] = c->s;
                p.pads[0] = p.pads[1] = p.pads[2] = p.pads[3] = c->p;
                p.groups = 1;
                p.post.n = 1;
                p.post.ops[0].act = OA_KACT_RELU;
                oa_ktensor in[3], out;
                oa_ktensor_set(&in[0], OA_KDT_F32, 4, (int64_t[]){1, c->ic, c->h, c->w});
                oa_ktensor_set(&in[1], OA_KDT_F32, 4, (int64_t[]){c->oc, c->ic, c->k, c->k});
                oa_ktensor_set(&in[2], OA_KDT_F32, 1, (int64_t[]){c->oc});
                in[0].layout = OA_KLAYOUT_NCHWC;
                in[1].data = w[k];
                in[2].data = b;
                if (oa_kernel_infer(OA_KOP_CONV2D, &p, 3, in, 1, &out) != OA_OK) {
                    exit(1);
                }
                out.layout = OA_KLAYOUT_NCHWC;
                if (oa_kop_create(OA_KOP_CONV2D, &p, 3, in, 1, &out, &ring.ops[k].op) != OA_OK) {
                    exit(1);
                }
                ring.ops[k].in[0] = xb;
                ring.ops[k].out[0] = y;
            }
            oa_pages_huge_settle(); /* the packed filters in huge pages, as after a load */
            pw_ring_time(&ring, fl, r[pw]);
        }
        unsetenv("OPENACL_CONV_PW");
        printf("| %s | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f |\n", c->name, r[0][0], r[1][0], r[0][1], r[1][1],
               r[0][2], r[1][2]);
        for (int k = 0; k < PW_COPIES; k++) {
            free(w[k]);
        }
        free(b);
        free(y);
        free(xb);
    }
}

/* The same for MatMuls with a constant b (BERT-like's Linear layers): oneDNN against the streamed path. */
static void bench_pw_matmul(void)
{
    static const struct {
        const char *name;
        int64_t M, N, K;
    } shapes[] = {
        {"BERT QKV/out proj", 128, 768, 768},
        {"BERT FFN up", 128, 3072, 768},
        {"BERT FFN down", 128, 768, 3072},
        {"BERT 512 QKV/out proj", 512, 768, 768},
        {"BERT 512 FFN up", 512, 3072, 768},
        {"BERT 512 FFN down", 512, 768, 3072},
    };
    printf("\n### MatMul with a constant b (GFLOP/s, bias; cold: %d ops with their own b run in turn)\n\n", PW_COPIES);
    printf("| shape | M x N x K | oneDNN warm 1T | pw warm 1T | oneDNN cold 1T | pw cold 1T | oneDNN cold 2T | pw cold 2T "
           "|\n|---|---|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
        if (g_filter != NULL && strstr(shapes[i].name, g_filter) == NULL) {
            continue;
        }
        const int64_t M = shapes[i].M, N = shapes[i].N, K = shapes[i].K;
        const double fl = 2.0 * (double)(M * N) * (double)K;
        float *a = rnd((size_t)(M * K)), *bias = rnd((size_t)N), *y = rnd((size_t)(M * N));
        float *b[PW_COPIES];
        for (int k = 0; k < PW_COPIES; k++) {
            b[k] = rnd((size_t)(K * N) + (size_t)k);
        }
        double r[2][3] = {{0}};
        for (int pw = 0; pw < 2; pw++) {
            setenv("OPENACL_MATMUL_PW", pw ? "1" : "0", 1);
            pw_ring ring;
            memset(&ring, 0, sizeof ring);
            for (int k = 0; k < PW_COPIES; k++) {
                oa_kmatmul_params p;
                memset(&p, 0, sizeof p);
                oa_ktensor in[3], out;
                oa_ktensor_set(&in[0], OA_KDT_F32, 2, (int64_t[]){M, K});
                oa_ktensor_set(&in[1], OA_KDT_F32, 2, (int64_t[]){K, N});
                oa_ktensor_set(&in[2], OA_KDT_F32, 1, (int64_t[]){N});
                in[1].data = b[k];
                in[2].data = bias;
                if (oa_kernel_infer(OA_KOP_MATMUL, &p, 3, in, 1, &out) != OA_OK ||
                    oa_kop_create(OA_KOP_MATMUL, &p, 3, in, 1, &out, &ring.ops[k].op) != OA_OK) {
                    exit(1);
                }
                ring.ops[k].in[0] = a;
                ring.ops[k].out[0] = y;
            }
            oa_pages_huge_settle(); /* the packed filters in huge pages, as after a load */
            pw_ring_time(&ring, fl, r[pw]);
        }
        unsetenv("OPENACL_MATMUL_PW");
        printf("| %s | %lld x %lld x %lld | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f |\n", shapes[i].name, (long long)M,
               (long long)N, (long long)K, r[0][0], r[1][0], r[0][1], r[1][1], r[0][2], r[1][2]);
        for (int k = 0; k < PW_COPIES; k++) {
            free(b[k]);
        }
        free(a);
        free(bias);
        free(y);
    }
}

/* ---- elementwise and pool ---- */

static void bench_ew(void)
{
    printf("\n### Elementwise / pooling (GB/s moved = (inputs + output bytes) / time)\n\n");
    printf("| op | shape | layout | 1T | 2T |\n|---|---|---|---|---|\n");
    struct {
        const char *name;
        oa_kop_type type;
        int which;
        int64_t dims[4];
        oa_klayout layout;
    } cases[] = {
        {"HardSwish", OA_KOP_UNARY, 0, {1, 64, 160, 160}, OA_KLAYOUT_PLAIN},
        {"Sigmoid", OA_KOP_UNARY, 1, {1, 64, 160, 160}, OA_KLAYOUT_PLAIN},
        {"Erf (BERT gelu)", OA_KOP_UNARY, 2, {1, 128, 3072, 1}, OA_KLAYOUT_PLAIN},
        {"Add same shape", OA_KOP_BINARY, 0, {1, 64, 160, 160}, OA_KLAYOUT_PLAIN},
        {"Mul per-channel (SE)", OA_KOP_BINARY, 1, {1, 64, 160, 160}, OA_KLAYOUT_PLAIN},
        {"Mul per-channel (SE)", OA_KOP_BINARY, 1, {1, 64, 160, 160}, OA_KLAYOUT_NCHWC},
        {"Add bias [768] (BERT)", OA_KOP_BINARY, 2, {1, 128, 768, 1}, OA_KLAYOUT_PLAIN},
        {"GlobalAveragePool", OA_KOP_POOL, 0, {1, 256, 56, 56}, OA_KLAYOUT_PLAIN},
        {"GlobalAveragePool", OA_KOP_POOL, 0, {1, 256, 56, 56}, OA_KLAYOUT_NCHWC},
        {"MaxPool 3x3 s2", OA_KOP_POOL, 1, {1, 64, 112, 112}, OA_KLAYOUT_PLAIN},
        {"MaxPool 3x3 s2", OA_KOP_POOL, 1, {1, 64, 112, 112}, OA_KLAYOUT_NCHWC},
        {"MaxPool 5x5 s1 (SPPF)", OA_KOP_POOL, 2, {1, 128, 20, 20}, OA_KLAYOUT_NCHWC},
        {"Softmax last axis", OA_KOP_SOFTMAX, 0, {12, 128, 128, 1}, OA_KLAYOUT_PLAIN},
        {"Softmax (OCR rec CTC head)", OA_KOP_SOFTMAX, 0, {1, 40, 6625, 1}, OA_KLAYOUT_PLAIN},
        {"LayerNorm 768", OA_KOP_LAYERNORM, 0, {1, 128, 768, 1}, OA_KLAYOUT_PLAIN},
        {"Transpose 85x6400 -> 6400x85 (YOLO head)", OA_KOP_TRANSPOSE, 0, {1, 3, 85, 6400}, OA_KLAYOUT_PLAIN},
        {"Transpose to 3 groups channels last", OA_KOP_TRANSPOSE, 1, {1, 255, 80, 80}, OA_KLAYOUT_NCHWC},
        {"... + Sigmoid post-op", OA_KOP_TRANSPOSE, 2, {1, 255, 80, 80}, OA_KLAYOUT_NCHWC},
        {"Reorder to NCHW", OA_KOP_REORDER, 0, {1, 255, 80, 80}, OA_KLAYOUT_NCHWC},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        oa_ktensor in[3], out[1];
        int n_in = 1;
        int rank = cases[i].dims[3] == 1 && cases[i].type != OA_KOP_POOL ? 3 : 4;
        oa_ktensor_set(&in[0], OA_KDT_F32, rank, cases[i].dims);
        in[0].layout = cases[i].layout;
        union {
            oa_kunary_params u;
            oa_kbinary_params b;
            oa_kpool_params p;
            oa_ksoftmax_params s;
            oa_klayernorm_params l;
            oa_ktranspose_params t;
        } prm;
        memset(&prm, 0, sizeof prm);
        float *gamma = NULL;
        switch (cases[i].type) {
        case OA_KOP_UNARY:
            prm.u.op = cases[i].which == 0 ? OA_KUN_HARDSWISH : (cases[i].which == 1 ? OA_KUN_SIGMOID : OA_KUN_ERF);
            break;
        case OA_KOP_BINARY:
            prm.b.op = cases[i].which == 1 ? OA_KBIN_MUL : OA_KBIN_ADD;
            n_in = 2;
            if (cases[i].which == 0) {
                in[1] = in[0];
            } else if (cases[i].which == 1) {
                oa_ktensor_set(&in[1], OA_KDT_F32, 4, (int64_t[]){1, cases[i].dims[1], 1, 1});
            } else {
                oa_ktensor_set(&in[1], OA_KDT_F32, 1, (int64_t[]){cases[i].dims[2]});
            }
            break;
        case OA_KOP_POOL:
            prm.p.kind = cases[i].which == 0 ? OA_KPOOL_AVG : OA_KPOOL_MAX;
            prm.p.global = cases[i].which == 0;
            prm.p.ksize[0] = prm.p.ksize[1] = cases[i].which == 2 ? 5 : 3;
            prm.p.strides[0] = prm.p.strides[1] = cases[i].which == 2 ? 1 : 2;
            prm.p.pads[0] = prm.p.pads[1] = prm.p.pads[2] = prm.p.pads[3] = cases[i].which == 2 ? 2 : 1;
            break;
        case OA_KOP_SOFTMAX: prm.s.axis = -1; break;
        case OA_KOP_TRANSPOSE:
            prm.t.n_perm = cases[i].which == 0 ? 4 : 5;
            memcpy(prm.t.perm, cases[i].which == 0 ? (int64_t[]){0, 1, 3, 2, 0} : (int64_t[]){0, 1, 3, 4, 2},
                   5 * sizeof(int64_t));
            prm.t.groups = cases[i].which == 0 ? 0 : 3;
            prm.t.post.n = cases[i].which == 2;
            prm.t.post.ops[0].kind = OA_KPOST_ACT;
            prm.t.post.ops[0].act = OA_KACT_SIGMOID;
            break;
        case OA_KOP_REORDER: break;
        default:
            prm.l.begin_norm_axis = -1;
            prm.l.epsilon = 1e-5f;
            n_in = 2;
            oa_ktensor_set(&in[1], OA_KDT_F32, 1, (int64_t[]){cases[i].dims[2]});
            gamma = rnd((size_t)cases[i].dims[2]);
            break;
        }
        if (oa_kernel_infer(cases[i].type, &prm, n_in, in, 1, out) != OA_OK) {
            fprintf(stderr, "infer failed for %s\n", cases[i].name);
            exit(1);
        }
        op_ctx oc;
        memset(&oc, 0, sizeof oc);
        if (oa_kop_create(cases[i].type, &prm, n_in, in, 1, out, &oc.op) != OA_OK) {
            exit(1);
        }
        size_t bytes = oa_ktensor_bytes(&out[0]);
        float *bufs[3];
        for (int k = 0; k < n_in; k++) {
            bufs[k] = rnd(oa_ktensor_bytes(&in[k]) / 4 + 16);
            oc.in[k] = bufs[k];
            bytes += oa_ktensor_bytes(&in[k]);
        }
        if (gamma) {
            oc.in[1] = gamma;
        }
        float *y = rnd(oa_ktensor_bytes(&out[0]) / 4 + 16);
        oc.out[0] = y;
        double r1 = (double)bytes / time_op(&oc, 1) * 1e-9, r2 = (double)bytes / time_op(&oc, 2) * 1e-9;
        char dims[64];
        snprintf(dims, sizeof dims, "%lldx%lldx%lldx%lld", (long long)cases[i].dims[0], (long long)cases[i].dims[1],
                 (long long)cases[i].dims[2], (long long)cases[i].dims[3]);
        printf("| %s | %s | %s | %.1f | %.1f |\n", cases[i].name, dims,
               cases[i].layout == OA_KLAYOUT_NCHWC ? "NCHWc" : "NCHW", r1, r2);
        fflush(stdout);
        for (int k = 0; k < n_in; k++) {
            free(bufs[k]);
        }
        free(gamma);
        free(y);
        oa_kop_destroy(oc.op);
    }
}

static void nop_task(void *ctx, size_t tid, size_t b, size_t e)
{
    (void)ctx, (void)tid, (void)b, (void)e;
}

static void pool_fn(void *v)
{
    oa_threadpool_parallel_for(v, 1000, 1, nop_task, NULL);
}

static void bench_pool(void)
{
    printf("\n### Thread pool\n\n");
    double t = time_it(pool_fn, g_pool2);
    printf("parallel_for over 2 participants, empty body: %.2f us per call\n", t * 1e6);
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "all";
    setvbuf(stdout, NULL, _IOLBF, 0);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0) {
            g_quick = true;
        } else if (strncmp(argv[i], "--only=", 7) == 0) {
            g_filter = argv[i] + 7;
        }
    }
    if (oa_threadpool_create(2, &g_pool2) != OA_OK) {
        return 1;
    }
    printf("ISA: %s, NCHWc block %d, slices %s\n", oa_kernels_isa(), oa_kernels_block(),
           getenv("OA_KERNELS_SLICES") ? getenv("OA_KERNELS_SLICES") : "default");
    if (!strcmp(what, "gemm") || !strcmp(what, "all")) {
        bench_gemm();
    }
    if (!strcmp(what, "conv") || !strcmp(what, "all")) {
        bench_conv();
    }
    if (!strcmp(what, "wino") || !strcmp(what, "all")) {
        bench_wino();
    }
    if (!strcmp(what, "stem") || !strcmp(what, "all")) {
        bench_stem();
    }
    if (!strcmp(what, "pw") || !strcmp(what, "all")) {
        bench_pw();
        bench_pw_matmul();
    }
    if (!strcmp(what, "ew") || !strcmp(what, "all")) {
        bench_ew();
    }
    if (!strcmp(what, "pool") || !strcmp(what, "all")) {
        bench_pool();
    }
    oa_threadpool_destroy(g_pool2);
    return 0;
}
