/*
 * The Winograd path of Conv2D (conv.c chooses it at setup): filter transform
 * at load on the thread pool, then per run the tile pipeline below.
 */
#include "base/pages.h"
#include "kernels/conv_internal.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Winograd F(m x m, 3x3) for 3x3 stride-1 undilated single-group convs on
 * NCHWc tensors (8- or 16-channel blocks, AVX2 or above; the transforms
 * take 8 channels at a time, so a 16-channel block is two halves): (m+2)^2 / (9 m^2) of the direct
 * multiplications (F(4x4): 1/4) at the cost of the tile transforms. The
 * filters are transformed once here (in double); run splits the output
 * tiles into chunks of wchunk tiles, and each thread takes chunks and does
 * the whole pipeline for its chunk in its workspace slot: input transform
 * of all channels, the (m+2)^2 GEMMs with the microkernel, and the output
 * transform with bias and post-ops straight into y. Selection thresholds
 * are from bench_kernels (bench/KERNELS.md, "Winograd").
 */
int oa_conv_wino_tile(const geom *g)
{
    if (g->transpose || g->g != 1 || g->kh != 3 || g->kw != 3 || g->sh != 1 || g->sw != 1 || g->dh != 1 ||
        g->dw != 1 || !g->blocked || (oa_kernels_block() != 8 && oa_kernels_block() != 16) ||
        oa_kisa_level() < 1 || g->n * g->oh * g->ow == 0 || g->ic == 0) {
        return 0;
    }
    /* OPENACL_WINOGRAD: 0 off, 2 or 4 forces F(2x2) / F(4x4) wherever eligible,
     * unset (or anything else): F(4x4) where it wins */
    long mode = oa_env_long("OPENACL_WINOGRAD", -1);
    if (mode == 0) {
        return 0;
    }
    if (mode == 2 || mode == 4) {
        return (int)mode;
    }
    if (g->ic < 16 || g->oc < 16) {
        return 0;
    }
    /* The filters' memory bounds below hold for both blocks (docs/memory.md: peak RSS within 1.2x the
     * weights + work): without them AVX2 CPUs ran ResNet-50 with 1.59x (bench/KERNELS.md "Winograd
     * filters on AVX2 CPUs"). */
    const int64_t tiles4 = g->n * ((g->oh + 3) / 4) * ((g->ow + 3) / 4);
    const int64_t icp = oa_kc_padded(g->ic), ocp = oa_kc_padded(g->oc);
    const int64_t f4_bytes = (int64_t)sizeof(float) * 36 * icp * ocp, f2_bytes = (int64_t)sizeof(float) * 16 * icp * ocp;
    const bool f4_fits = tiles4 >= 64 || f4_bytes <= ((int64_t)1 << 20), f2_fits = f2_bytes <= ((int64_t)8 << 20);
    if (oa_kernels_block() == 16) {
        /* AVX-512 CPUs: F(4x4) from 20 tiles (OCR rec's 6x40 and up), else F(2x2)
         * (ResNet's 14x14: F(4x4)'s 16 tiles would stream 4x the weights from memory
         * for little work) while its filters, 16/9 of the weights, stay within 8 MiB:
         * on ResNet's 7x7 x 512 they would hold 7 MiB more than oneDNN's packed
         * weights, per layer, for 2 % of the model's time; bench/KERNELS.md
         * "Winograd filter prefetch". Below 64 tiles F(4x4) also needs its filters
         * (4x the weights) within 1 MiB: ResNet's 28x28 x 128 on F(2x2) hold 1.3 MiB
         * less each, 3.8 MiB of the model's RSS for 1-2 % of its time (bench/KERNELS.md
         * "Winograd filters and memory") */
        if (tiles4 >= 20 && f4_fits) {
            return 4;
        }
        return g->oh >= 6 && g->ow >= 6 && f2_fits ? 2 : 0;
    }
    /* F(4x4) from 8x8 outputs; ResNet's 7x7 x 512: F(4x4) pads to 8x8 and
     * gives too few tiles, F(2x2) won at 1 thread and tied at 2, but its filters
     * exceed the bound */
    return g->oh >= 8 && g->ow >= 8 && f4_fits ? 4 : (g->oh >= 6 && g->ow >= 6 && f2_fits ? 2 : 0);
}

/* The filter transform of wino_setup, for blocks [b, e) of 16 output channels. */
typedef struct wino_filter_ctx {
    const geom *g;
    const float *wf;
    float *wu;
    const double (*G)[3];
    int n;
    int64_t icp, oc16;
} wino_filter_ctx;

static void wino_filter_task(void *vctx, size_t tid, size_t b, size_t e)
{
    (void)tid;
    const wino_filter_ctx *fc = vctx;
    const geom *g = fc->g;
    const float *wf = fc->wf;
    const double(*G)[3] = fc->G;
    const int n = fc->n, T = n * n;
    const int64_t icp = fc->icp, tstride = fc->oc16 * icp * 16;
    /* one (o16, c) at a time, the 16 output channels as the innermost (vectorisable) loop; each lane
     * computes exactly what a scalar loop over o would, in the same order (same bits) */
    for (int64_t j = (int64_t)b; j < (int64_t)e; j++) {
        const int64_t lim = g->oc - j * 16 < 16 ? g->oc - j * 16 : 16; /* real output channels of the block */
        for (int64_t c = 0; c < g->ic; c++) {
            double k[9][16], t[6][3][16];
            for (int l = 0; l < 16; l++) {
                const float *kl = l < lim ? wf + ((j * 16 + l) * g->ic + c) * 9 : NULL;
                for (int r = 0; r < 9; r++) {
                    k[r][l] = kl != NULL ? (double)kl[r] : 0.0;
                }
            }
            for (int i = 0; i < n; i++) { /* G k */
                for (int q = 0; q < 3; q++) {
                    for (int l = 0; l < 16; l++) {
                        t[i][q][l] = G[i][0] * k[q][l] + G[i][1] * k[3 + q][l] + G[i][2] * k[6 + q][l];
                    }
                }
            }
            for (int i = 0; i < n; i++) {
                for (int q = 0; q < n; q++) { /* (G k G^T)[i][q] */
                    float *dst = fc->wu + (i * n + q) * tstride + (j * icp + c) * 16;
                    for (int l = 0; l < 16; l++) {
                        dst[l] = (float)(t[i][0][l] * G[q][0] + t[i][1][l] * G[q][1] + t[i][2][l] * G[q][2]);
                    }
                    for (int64_t l = lim; l < 16; l++) { /* padded output channels: +0, not a signed zero */
                        dst[l] = 0.0f;
                    }
                }
            }
        }
        for (int q = 0; q < T; q++) { /* padded input channels */
            memset(fc->wu + q * tstride + (j * icp + g->ic) * 16, 0, sizeof(float) * 16 * (size_t)(icp - g->ic));
        }
    }
}

/* The transformed filter into wu: blocks of 16 output channels are independent, spread over the setup pool
 * (docs/memory.md "Load time"). */
static oa_status wino_filter_fill(void *ctx, void *wu)
{
    wino_filter_ctx *fc = ctx;
    fc->wu = wu;
    oa_threadpool_parallel_for(oa_threadpool_setup_pool(), (size_t)fc->oc16, 1, wino_filter_task, fc);
    return OA_OK;
}

/* Planes of at most this many tiles run as one chunk (per output-channel part): the transformed filters, 16/9 or
 * 4x the weights and read from memory on every run, are then read once instead of once per chunk. ResNet-50's
 * 14x14 planes (49 tiles, 4.2 MiB of filters a layer) in chunks of 18 read them three times: 1.4 -> 1.15 ms
 * a layer in one chunk, whose transformed tiles (1.6 MiB) no longer fit the L2 budget below (bench/KERNELS.md
 * "Winograd: two columns per step"). */
#define WINO_ONE_CHUNK_TILES 64

oa_status oa_conv_wino_setup(oa_kop *op, conv_state *s, const float *wf, int m)
{
    const geom *g = &s->g;
    const int n = m + 2, T = n * n;
    const int64_t icp = oa_kc_padded(g->ic), ocp = oa_kc_padded(g->oc), oc16 = (ocp + 15) / 16;
    static const double G4[6][3] = {{0.25, 0, 0},
                                    {-1.0 / 6, -1.0 / 6, -1.0 / 6},
                                    {-1.0 / 6, 1.0 / 6, -1.0 / 6},
                                    {1.0 / 24, 1.0 / 12, 1.0 / 6},
                                    {1.0 / 24, -1.0 / 12, 1.0 / 6},
                                    {0, 0, 1}};
    static const double G2[4][3] = {{1, 0, 0}, {0.5, 0.5, 0.5}, {0.5, -0.5, 0.5}, {0, 0, 1}};
    size_t usz = sizeof(float) * (size_t)(T * oc16 * icp * 16);
    s->wbias = calloc((size_t)ocp, sizeof(float));
    if (s->wbias == NULL) {
        return OA_FAIL(OA_E_NOMEM, "Winograd bias");
    }
    memcpy(s->wbias, s->bias, sizeof(float) * (size_t)g->oc);
    wino_filter_ctx fc = {.g = g, .wf = wf, .G = m == 4 ? G4 : G2, .n = n, .icp = icp, .oc16 = oc16};
    /* what the transformed filter depends on besides the filter's bytes: shared by a stable filter's operators */
    const int64_t form[4] = {m, g->ic, g->oc, oa_kernels_block()};
    oa_ktensor src = op->in[1];
    src.stable = s->wstable;
    void *wu = NULL;
    oa_status st = oa_kderived_get(&src, form, sizeof form, usz, wino_filter_fill, &fc, &wu);
    if (st != OA_OK) {
        return st;
    }
    s->wu = wu;
    /* Tiles per chunk: the chunk's transformed input and products within
     * ~768 KiB (L2), a multiple of the microkernel's 6 rows, at most 96, and
     * about 4 chunks per thread (dynamic balance); a plane of at most
     * WINO_ONE_CHUNK_TILES tiles in one chunk. Fewer than 2 chunks per
     * thread (ResNet's 14x14 and 7x7): each chunk is also split by output
     * channels, each part redoing the chunk's input transform; a single chunk
     * in one part per thread (ResNet-50's five 14x14 layers at two threads:
     * 4.09-4.42 ms in four parts, 3.67-4.10 in two; bench/KERNELS.md
     * "Huge pages for packed weights"). */
    int64_t th = (g->oh + m - 1) / m, tw = (g->ow + m - 1) / m, tiles = g->n * th * tw;
    int64_t per_tile = (int64_t)sizeof(float) * T * (icp + ocp);
    int64_t c = (768 * 1024 / per_tile) / 6 * 6, nth = oa_kernels_slices();
    int64_t want = ((tiles + 4 * nth - 1) / (4 * nth) + 5) / 6 * 6;
    c = c > 96 ? 96 : c;
    c = c > want ? want : c;
    s->wchunk = tiles <= WINO_ONE_CHUNK_TILES ? (tiles + 5) / 6 * 6 : (c < 6 ? 6 : c);
    int64_t chunks = (tiles + s->wchunk - 1) / s->wchunk;
    s->wsplit = 1;
    if (nth > 1 && chunks < 2 * nth) {
        s->wsplit = chunks == 1 ? nth : (2 * nth + chunks - 1) / chunks;
        s->wsplit = s->wsplit > oc16 ? oc16 : s->wsplit;
    }
    s->wslot = ((size_t)(s->wchunk * per_tile) + 63) / 64 * 64;
    op->ws_size = s->wslot * (size_t)nth;
    /* plain x (out_nchwc): per thread, the part of x a chunk's tiles of one tile row read (m + 2 rows, their
     * columns), in blocks, after the slots; packed there as the tiles reach it, so that x is read from memory
     * into the cache once and not copied whole first (PP-OCRv4 det's 96-channel 160x160 inputs: 9.8 MiB written
     * and read back) */
    const int64_t band_w = s->wchunk * m + 2 < g->iw ? s->wchunk * m + 2 : g->iw; /* a chunk's columns at most */
    s->wband = g->xpl ? (sizeof(float) * (size_t)(icp * (m + 2) * band_w) + 63) / 64 * 64 : 0;
    op->ws_size += s->wband * (size_t)nth;
    /* ReLU and residual adds run inside the output transform; any other activation
     * makes the whole chain run on the written rows instead: on y's rows of a tile once
     * a whole block is written when the chain has no residual (YOLO's SiLU), else on a
     * copy of each 8-channel half (a residual may alias y); bench/KERNELS.md "Winograd with SiLU" */
    s->winline = true;
    s->wact_rows = false;
    s->wpost.n = s->post.n;
    for (int k = 0, r = 0; k < s->post.n; k++) {
        const oa_kpost *p = &s->post.ops[k];
        if (p->kind == OA_KPOST_ADD) {
            s->wpost.kind[k] = OA_KWINO_ADD;
            s->wpost.res[k] = r++;
        } else if (p->act == OA_KACT_RELU) {
            s->wpost.kind[k] = OA_KWINO_RELU;
        } else if (p->act != OA_KACT_NONE) {
            s->winline = false;
        } else {
            s->wpost.kind[k] = 0; /* identity */
        }
    }
    if (!s->winline) {
        s->wpost.n = 0;
        s->wact_rows = true;
        for (int k = 0; k < s->post.n; k++) {
            s->wact_rows &= s->post.ops[k].kind != OA_KPOST_ADD;
        }
    }
    s->wm = m;
    s->win16 = oa_kisa_level() >= 2 && oa_kernels_block() == 16 && oa_env_long("OPENACL_WINO_IN16", 1) != 0;
    s->post_from = 0;
    op->impl = m == 4 ? "winograd-f4x4" : "winograd-f2x2";
    if (getenv("OA_KERNELS_VERBOSE") != NULL) {
        fprintf(stderr, "conv ic%lld oc%lld %lldx%lld k3x3 s1: Winograd F(%dx%d,3x3), %lld tiles in chunks of %lld x %lld parts\n",
                (long long)g->ic, (long long)g->oc, (long long)g->ih, (long long)g->iw, m, m, (long long)tiles,
                (long long)s->wchunk, (long long)s->wsplit);
    }
    return OA_OK;
}

typedef struct wino_ctx {
    const conv_state *s;
    const void *const *in;
    const float *x; /* NCHWc, or NCHW when s->g.xpl */
    float *y;
    char *ws;
    char *bands; /* xpl: the threads' bands of x's rows (s->wband bytes each) */
    int64_t tiles, th, tw;
    _Atomic int64_t next;
} wino_ctx;

static void wino_worker(void *vctx, size_t tid, size_t b, size_t e)
{
    (void)b, (void)e;
    wino_ctx *c = vctx;
    const conv_state *s = c->s;
    const geom *g = &s->g;
    const int m = s->wm, T = (m + 2) * (m + 2);
    const int64_t C = s->wchunk, icp = oa_kc_padded(g->ic), ocp = oa_kc_padded(g->oc);
    /* icb/ocb count 8-channel groups; a group cb is lanes (cb * 8) % blk of block (cb * 8) / blk */
    const int64_t blk = oa_kernels_block(), icb = icp / 8, ocb = ocp / 8, oc16 = (ocp + 15) / 16;
    /* 8-channel groups holding real output channels: with 16-channel blocks a 24-channel conv
     * (det's neck) pads to 32, and the padding half needs no GEMM, only zeros in y */
    const int64_t ocr = (g->oc + 7) / 8;
    /* AVX-512 tiers transform the input 16 channels per register (OPENACL_WINO_IN16=0: two 8-channel halves) */
    const bool in16 = s->win16;
    const int64_t ihw = g->ih * g->iw, ohw = g->oh * g->ow;
    float *V = (float *)(void *)(c->ws + tid * s->wslot); /* [T][C][icp] */
    float *M = V + T * C * icp;                           /* [T][ocb][C][8] */
    const float *x = c->x;
    float *band = g->xpl ? (float *)(void *)(c->bands + tid * s->wband) : NULL;
    int64_t band_first = -1, band_end = -1, band_r0 = 0, band_c0 = 0, band_rows = 0, band_cols = 0; /* its tiles */
    const float *res_base[OA_KMAX_POST];
    int nres = 0;
    for (int k = 0; k < s->post.n; k++) {
        if (s->post.ops[k].kind == OA_KPOST_ADD) {
            res_base[nres++] = c->in[s->add_in[k]];
        }
    }
    for (;;) {
        int64_t task = atomic_fetch_add(&c->next, 1), t0 = task / s->wsplit * C, part = task % s->wsplit;
        if (t0 >= c->tiles) {
            break;
        }
        /* output channels of this part: 16-channel columns [j0, j1), 8-channel blocks [j0*2, b1) */
        const int64_t j0 = oc16 * part / s->wsplit, j1 = oc16 * (part + 1) / s->wsplit;
        const int64_t b1 = 2 * j1 < ocb ? 2 * j1 : ocb;
        const int64_t nt = c->tiles - t0 < C ? c->tiles - t0 : C; /* the last chunk may be short */
        for (int64_t i = 0; i < nt; i++) {
            int64_t tile = t0 + i;
            int64_t n = tile / (c->th * c->tw), ty = tile / c->tw % c->th, tx = tile % c->tw;
            /* where the tile's pixels are: x's planes, or the band of the chunk's tiles of this tile row */
            const float *xs = x + n * (icp / blk) * ihw * blk;
            int64_t rows = g->ih, cols = g->iw, y0 = ty * m - g->pt, x0 = tx * m - g->pl;
            if (band != NULL) {
                if (tile < band_first || tile >= band_end) { /* this and the chunk's next tiles of the tile row */
                    const int64_t last = t0 + nt - 1 < tile - tx + c->tw - 1 ? t0 + nt - 1 : tile - tx + c->tw - 1;
                    band_first = tile;
                    band_end = last + 1;
                    band_r0 = y0 > 0 ? y0 : 0;
                    band_c0 = x0 > 0 ? x0 : 0;
                    const int64_t r1 = y0 + m + 2 < g->ih ? y0 + m + 2 : g->ih;
                    const int64_t c1x = (last % c->tw) * m - g->pl + m + 2, c1 = c1x < g->iw ? c1x : g->iw;
                    band_rows = r1 > band_r0 ? r1 - band_r0 : 0;
                    band_cols = c1 > band_c0 ? c1 - band_c0 : 0;
                    for (int64_t k = 0; k < icp / blk && band_cols > 0; k++) {
                        const int64_t nc = g->ic - k * blk < blk ? g->ic - k * blk : blk;
                        for (int64_t r = 0; r < band_rows; r++) {
                            oa_kblk_pack_rows(x + (n * g->ic + k * blk) * ihw + (band_r0 + r) * g->iw + band_c0, nc,
                                              band_cols, ihw, band + (k * band_rows + r) * band_cols * blk, blk);
                        }
                    }
                }
                xs = band;
                rows = band_rows;
                cols = band_cols;
                y0 -= band_r0;
                x0 -= band_c0;
            }
            const int64_t plane = rows * cols; /* a block's pixels in xs */
            if (in16) { /* whole 16-channel blocks */
                for (int64_t cb = 0; cb < icp / 16; cb++) {
                    oa_kwino_in_avx512(m, xs + cb * plane * 16, rows, cols, y0, x0, V + i * icp + cb * 16, C * icp);
                }
                continue;
            }
            for (int64_t cb = 0; cb < icb; cb++) {
                const float *xb = xs + (cb * 8 / blk) * plane * blk + cb * 8 % blk;
                oa_kwino_in_avx2(m, xb, rows, cols, blk, y0, x0, V + i * icp + cb * 8, C * icp);
            }
        }
        for (int t = 0; t < T; t++) {
            for (int64_t j = j0; j < j1; j++) {
                const float *u = s->wu + ((int64_t)t * oc16 + j) * icp * 16;
                float *m0 = M + ((t * ocb + 2 * j) * C) * 8;
                /* two columns per step; the second may end in a padding half (det's 24 channels: 16 + 8), which is
                 * computed anyway (one 16-lane FMA) and never read */
                if (in16 && j + 1 < j1 && 2 * j + 2 < ocr) {
                    for (int64_t i0 = 0; i0 < nt; i0 += 12) {
                        oa_kwino_gemm2_avx512(u, icp * 16, V + (t * C + i0) * icp, icp, icp,
                                              (int)(nt - i0 < 12 ? nt - i0 : 12), m0 + i0 * 8, C * 8);
                    }
                    j++;
                    continue;
                }
                float *m1 = 2 * j + 1 < ocr ? m0 + C * 8 : NULL;
                if (in16 && m1 != NULL) { /* 16 channels per 512-bit register */
                    for (int64_t i0 = 0; i0 < nt; i0 += 12) {
                        oa_kwino_gemm_avx512(u, V + (t * C + i0) * icp, icp, icp, (int)(nt - i0 < 12 ? nt - i0 : 12),
                                             m0 + i0 * 8, m1 + i0 * 8);
                    }
                    continue;
                }
                for (int64_t i0 = 0; i0 < nt; i0 += 6) {
                    oa_kwino_gemm_avx2(u, V + (t * C + i0) * icp, icp, icp, (int)(nt - i0 < 6 ? nt - i0 : 6),
                                       m0 + i0 * 8, m1 ? m1 + i0 * 8 : NULL);
                }
            }
        }
        for (int64_t i = 0; i < C && t0 + i < c->tiles; i++) {
            int64_t tile = t0 + i;
            int64_t n = tile / (c->th * c->tw), ty = tile / c->tw % c->th, tx = tile % c->tw;
            int64_t oy = ty * m, ox = tx * m;
            int nr = (int)(g->oh - oy < m ? g->oh - oy : m), nc = (int)(g->ow - ox < m ? g->ow - ox : m);
            for (int64_t cb = 2 * j0; cb < b1; cb++) {
                int64_t off = ((n * (ocp / blk) + cb * 8 / blk) * ohw + oy * g->ow + ox) * blk + cb * 8 % blk;
                const float *res[OA_KMAX_POST];
                for (int r = 0; r < nres; r++) {
                    res[r] = res_base[r] + off;
                }
                float *y = c->y + off;
                if (cb >= ocr) { /* a whole padding group */
                    for (int r = 0; r < nr; r++) {
                        for (int q = 0; q < nc; q++) {
                            memset(y + (r * g->ow + q) * blk, 0, sizeof(float) * 8);
                        }
                    }
                    continue;
                }
                if (s->winline || s->wact_rows) { /* (wact_rows: bias only here, wpost.n is 0) */
                    oa_kwino_out_avx2(m, M + (cb * C + i) * 8, ocb * C * 8, s->wbias + cb * 8, y, g->ow, blk, nr,
                                      nc, &s->wpost, res);
                    if (s->wact_rows && ((cb + 1) * 8 % blk == 0 || cb + 1 >= b1 || cb + 1 >= ocr)) {
                        /* the block's last real half is written: its nc pixels x blk lanes per row are
                         * contiguous (lanes past oc are zeroed below or by their padding group after this) */
                        float *yb = c->y + ((n * (ocp / blk) + cb * 8 / blk) * ohw + oy * g->ow + ox) * blk;
                        for (int r = 0; r < nr; r++) {
                            for (int k = 0; k < s->post.n; k++) {
                                const oa_kpost *p = &s->post.ops[k];
                                oa_kact_apply(p->act, p->alpha, p->beta, yb + r * g->ow * blk, (size_t)(nc * blk));
                            }
                        }
                    }
                } else { /* the chain on a copy: a residual may alias y */
                    float tmp[4 * 4 * 8];
                    oa_kwino_out_avx2(m, M + (cb * C + i) * 8, ocb * C * 8, s->wbias + cb * 8, tmp, m, 8, nr, nc,
                                      &s->wpost, res);
                    /* tmp rows are nc pixels of 8; y and res hold pixels of blk floats */
                    const int64_t seg = blk == 8 ? nc : 1;
                    for (int r = 0; r < nr; r++) {
                        for (int64_t q = 0; q < nc; q += seg) {
                            float *row = tmp + (r * m + q) * 8;
                            const int64_t yo = (r * g->ow + q) * blk;
                            for (int k = 0, a = 0; k < s->post.n; k++) {
                                const oa_kpost *p = &s->post.ops[k];
                                if (p->kind == OA_KPOST_ADD) {
                                    oa_kadd_inplace(row, res[a++] + yo, (size_t)seg * 8);
                                } else {
                                    oa_kact_apply(p->act, p->alpha, p->beta, row, (size_t)seg * 8);
                                }
                            }
                            memcpy(y + yo, row, sizeof(float) * (size_t)seg * 8);
                        }
                    }
                }
                const int64_t valid = g->oc - cb * 8;
                if (valid < 8) { /* padding channels stay zero (a whole half with 16-channel blocks) */
                    const int64_t z0 = valid < 0 ? 0 : valid;
                    for (int r = 0; r < nr; r++) {
                        for (int q = 0; q < nc; q++) {
                            memset(y + (r * g->ow + q) * blk + z0, 0, sizeof(float) * (size_t)(8 - z0));
                        }
                    }
                }
            }
        }
    }
}

oa_status oa_conv_wino_run(const conv_state *s, const void *const *in, void *const *out, void *ws,
                          oa_threadpool *pool)
{
    const geom *g = &s->g;
    wino_ctx c = {.s = s, .in = in, .x = in[0], .y = out[0], .ws = ws};
    size_t nslot = (size_t)oa_kernels_slices();
    c.bands = (char *)ws + nslot * s->wslot; /* xpl: packed by the workers as they go */
    c.th = (g->oh + s->wm - 1) / s->wm;
    c.tw = (g->ow + s->wm - 1) / s->wm;
    c.tiles = g->n * c.th * c.tw;
    atomic_init(&c.next, 0);
    size_t nthr = oa_threadpool_size(pool);
    size_t chunks = (size_t)((c.tiles + s->wchunk - 1) / s->wchunk * s->wsplit);
    nthr = nthr < nslot ? nthr : nslot;
    oa_threadpool_run_n(pool, nthr < chunks ? nthr : chunks, wino_worker, &c);
    return OA_OK;
}
