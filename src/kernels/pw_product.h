/*
 * Products whose filter streams from memory, run piece by piece on the tier's
 * prefetching tile (oa_kpw_fn, simd/pw_avx512.c): the small-plane convs
 * (conv_pw.c) and MatMuls with a constant b (matmul.c). Internal to
 * src/kernels; bench/KERNELS.md "Convolutions on small planes" has the
 * measurements behind the rules.
 *
 * Outputs come in blocks of 16 (output channels, columns), grouped by up to
 * OA_KPW_MAX_OB blocks; the reduction in chunks whose filter stays in the L2
 * cache while the chunk runs over the pixels (rows), up to OA_KPW_MAX_NP at a
 * time; on larger planes, over one range of pixels at a time. A piece is one
 * group's chunk (over a range): its filter comes from memory once, prefetched
 * during the piece before. Each thread runs a contiguous range of units, so
 * that its prefetches are for its own next piece.
 */
#ifndef OA_KERNELS_PW_PRODUCT_H
#define OA_KERNELS_PW_PRODUCT_H

#include "kernels/kernel_internal.h"

typedef struct oa_kpw_prod {
    oa_kpw_fn tile;
    int64_t nblk;         /* output blocks of 16 */
    int last;             /* outputs in the last block (1..16; the filter's others are zeros) */
    bool zero_pad;        /* y holds the last block's other lanes too (NCHWc padding channels): stored as zeros */
    oa_kacts acts;        /* activations the tile applies after the last chunk (n = 0: none) */
    int64_t R;            /* reduction steps */
    int64_t P;            /* pixels (rows) of an image */
    int64_t len;          /* steps per chunk */
    int64_t pr_len;       /* pixels (rows) per range: a group's chunk runs over one range at a time (P: one);
                           * set with oa_kpw_prod_set_ranges */
    int64_t n;            /* images */
    float *w;             /* packed filter (oa_kpw_prod_group; a derived array), NULL when it is packed at run */
    int32_t *off;         /* [P] pixel (row) offsets into an image's x */
    int32_t *xoff;        /* [R] each step's offset into x */
    int64_t ycs, ys;      /* y: floats between output blocks, between pixels (rows) */
    int64_t x_img, y_img; /* floats between images in x and in y */
} oa_kpw_prod;

/* Pieces of such a product (groups x chunks): the paths need enough per thread (a thread's first piece has
 * nothing to prefetch its filter). */
int64_t oa_kpw_prod_pieces(int64_t nblk, int64_t R);

/* Allocates the offsets (tile NULL below AVX2: the caller checks first); every block has 16 outputs until the
 * caller sets last. The filter comes from oa_kpw_prod_pack, or is packed at run (oa_kpw_prod_run_here). */
oa_status oa_kpw_prod_init(oa_kpw_prod *p, int64_t nblk, int64_t R, int64_t P);
/* The packed filter (nblk * 16 * R floats) as a derived array of constant src in form (oa_kderived_get: shared by
 * the products of a stable constant), made by fill into the array. */
oa_status oa_kpw_prod_pack(oa_kpw_prod *p, const oa_ktensor *src, const void *form, size_t form_len,
                           oa_kderived_fill fill, void *ctx);
void oa_kpw_prod_free(oa_kpw_prod *p);

/* Rows per range (at most P), and the chunk length that fits such a range's rows of x (in L2). */
void oa_kpw_prod_set_ranges(oa_kpw_prod *p, int64_t pr_len);

/* The packed filter of the group holding output block b: output o of the group (0 .. 16 * *ob - 1) at step r
 * goes to [r * *ob * 16 + o]; *b0 is the group's first block. */
float *oa_kpw_prod_group(const oa_kpw_prod *p, int64_t b, int64_t *b0, int64_t *ob);
/* The same group in a filter packed like p's at w (nblk * 16 * R floats). */
float *oa_kpw_prod_group_in(const oa_kpw_prod *p, float *w, int64_t b, int64_t *b0, int64_t *ob);

/* Called after the last chunk of a group over a range: blocks [b0, b0 + ob) of image n at pixels (rows)
 * [lo, hi) are final but for the post-ops. */
typedef void (*oa_kpw_group_fn)(void *ctx, int64_t n, int64_t b0, int ob, int64_t lo, int64_t hi);

/*
 * y = start + the product, for every image: start is bias (nblk * 16 values; NULL: zeros) plus, when
 * res is not NULL, the residual laid out as y (it may be y itself). done, when not NULL, runs after
 * each group on its thread.
 */
void oa_kpw_prod_run(const oa_kpw_prod *p, const float *x, float *y, const float *bias, const float *res,
                     oa_kpw_group_fn done, void *ctx, oa_threadpool *pool);

/* y = the product for one image (x, y: its matrices) on the calling thread, with a filter packed like p's at w:
 * a MatMul's b given at run, packed per batch item into the workspace. No bias, no residual, no callback. */
void oa_kpw_prod_run_here(const oa_kpw_prod *p, const float *w, const float *x, float *y);

#endif /* OA_KERNELS_PW_PRODUCT_H */
