/*
 * AIPP kernel benchmark (docs/aipp.md): a 1920x1080 YUV420SP frame -> a
 * 224x224 centre crop, YUV->RGB BT.601 narrow, mean/var normalisation, f32
 * NCHW, on one thread (the target: <= 1 ms). Resize is not part of
 * CANN's supported AIPP (reserved), so the crop is taken at output size.
 *   bench_aipp [iterations]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kernels/aipp.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int iters = argc > 1 ? atoi(argv[1]) : 200;
    if (iters < 1 || iters > 100000) {
        fprintf(stderr, "usage: bench_aipp [iterations 1..100000]\n");
        return 2;
    }
    const int w = 1920, h = 1080;
    size_t n = oa_aipp_image_bytes(OA_AIPP_FMT_YUV420SP_U8, w, h);
    uint8_t *img = malloc(n);
    float *out = malloc(sizeof(float) * 3 * 224 * 224);
    double *t = malloc(sizeof(double) * (size_t)iters);
    if (img == NULL || out == NULL || t == NULL) {
        return 1;
    }
    for (size_t i = 0; i < n; i++) {
        img[i] = (uint8_t)(i * 2654435761u >> 24);
    }
    oa_aipp_params p;
    memset(&p, 0, sizeof p);
    p.aipp_mode = OA_AIPP_MODE_STATIC;
    p.input_format = OA_AIPP_FMT_YUV420SP_U8;
    p.crop = true;
    p.load_start_pos_w = (w - 224) / 2;
    p.load_start_pos_h = (h - 224) / 2;
    p.crop_size_w = p.crop_size_h = 224;
    p.csc_switch = true;
    const int32_t m[3][3] = {{298, 0, 409}, {298, -100, -208}, {298, 516, 0}};
    memcpy(p.matrix, m, sizeof m);
    p.input_bias[0] = 16;
    p.input_bias[1] = p.input_bias[2] = 128;
    const int32_t mean[4] = {124, 116, 104, 0};
    const float var[4] = {0.0171f, 0.0175f, 0.0174f, 1.0f};
    memcpy(p.mean_chn, mean, sizeof mean);
    memcpy(p.var_reci_chn, var, sizeof var);
    for (int i = 0; i < iters; i++) {
        double t0 = now_ms();
        if (oa_aipp_run(&p, w, h, 1, img, 3, false, out, NULL) != OA_OK) {
            fprintf(stderr, "oa_aipp_run failed\n");
            return 1;
        }
        t[i] = now_ms() - t0;
    }
    qsort(t, (size_t)iters, sizeof(double), cmp_double);
    printf("aipp 1920x1080 YUV420SP -> 224x224 f32 NCHW (crop, CSC, normalise), 1 thread: median %.3f ms, "
           "min %.3f ms over %d runs (checksum %.3f)\n",
           t[iters / 2], t[0], iters, (double)out[0] + out[224 * 224 + 5] + out[3 * 224 * 224 - 1]);
    free(img);
    free(out);
    free(t);
    return 0;
}
