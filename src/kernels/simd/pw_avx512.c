/*
 * AVX-512F tile of the small-plane convolution on 16-channel blocks
 * (conv_pw.c): ob output channel blocks (1..4) x np output pixels (1..6),
 * up to 24 accumulators, summed over a range of the reduction (4 x 7 would
 * need 33 vector registers: GCC kept one accumulator on the stack, 243
 * against 256 GFLOP/s for 4 x 6). A reduction step is one input channel
 * (of one tap) or one column of a: its ob filter vectors are loaded once and
 * each pixel's (row's) value is broadcast once, ob * np FMAs for ob + np
 * loads (the shape of oneDNN's 1x1 kernel). Where a step's input value sits
 * is a table (xoff), so one tile serves NCHWc convs and row-major MatMuls.
 *
 * What it adds: each channel step also prefetches one cache line of pf, the
 * filter of the next piece of work, so that filters streamed from memory
 * (ResNet-50's last stage: 4-9 MiB per layer, none of it in cache when the
 * layer starts) arrive while this piece computes (bench/KERNELS.md
 * "Convolutions on small planes").
 *
 * Contract (oa_kpw_tile, offsets in floats): output pixel (or row) j of block o is
 *   y[o * ycs + j * ys] (16 lanes) = start + sum over steps r in [r0, r1) of
 *   x[off[j] + xoff[r]] * w[r][o][16 lanes]
 * where start is bias[o * 16 ..] or, with bias NULL, y itself (a later reduction range); res, when
 * not NULL, is a residual laid out as y, added before the store (it may be y itself: each value is
 * read before its place is written); pf, when not NULL, is the first of the cache lines to prefetch
 * (64 bytes apart), one every 2^pf_shift steps from r0. Only the lanes of block ob - 1 in last_lanes are read from start and res and
 * written to y (a MatMul whose N is not a multiple of 16: the filter's missing columns are zeros).
 * acts, when not NULL, are applied after res; then the lanes of block ob - 1 in last_zero are
 * stored as zeros (a conv's padding channels, whatever the activations made of them).
 */
#include <immintrin.h>

#include "kernels/kernel_internal.h"

#define PW_NAME oa_kpw_avx512
#define PW_WT __m512
#define PW_WLOAD(p) _mm512_loadu_ps(p)
#define PW_BCAST(p) _mm512_set1_ps(*(p))
#define PW_MAC(a, x, w) _mm512_fmadd_ps((x), (w), (a))

#include "kernels/simd/pw_impl.inc"
