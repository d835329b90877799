/*
 * The convolution kernel's state, shared by conv.c (setup, oneDNN and
 * reference paths, run) and conv_wino.c (the Winograd path). Internal to
 * src/kernels.
 */
#ifndef OA_KERNELS_CONV_INTERNAL_H
#define OA_KERNELS_CONV_INTERNAL_H

#include "kernels/conv_gemv.h"
#include "kernels/onednn.h"
#include "kernels/pw_product.h"
#include "kernels/wino.h"

#define MAX_SLICES 64

typedef struct geom {
    int64_t n, ic, ih, iw, oc, oh, ow, kh, kw, sh, sw, dh, dw, pt, pb, pl, pr, g, oph, opw;
    bool transpose;
    bool blocked; /* y (and residuals) are NCHWc */
    bool xpl;     /* ... while x is NCHW (params.out_nchwc) */
    bool iblk;    /* NCHW op run through blocked primitives (x, y reordered in the workspace) */
    bool nhwc;    /* NCHWc op whose primitives run on NHWC copies of x and y (workspace), conv.c nhwc_eligible */
} geom;

/* Layout the oneDNN primitives use. */
static inline bool pblk(const geom *g)
{
    return g->blocked || g->iblk;
}

typedef struct slice {
    dnnl_primitive_t prim;
    dnnl_memory_desc_t src_md, dst_md, wei_md, bias_md;
    void *wei;              /* packed weights of this slice (owned) */
    int64_t c0, c1;         /* output channels [c0, c1) */
    int64_t ic0;            /* first input channel read (grouped convs) */
    size_t scratch;
    dnnl_memory_desc_t scr_md; /* [scratch] bytes */
    bool src_plain;         /* NCHWc op whose primitive reads a plain NCHW copy of x */
    oa_dnnl_args args;      /* the primitive's memory objects, kept between runs */
} slice;

typedef struct conv_state {
    geom g;
    oa_kpost_chain post;
    int post_from; /* first post-op done by our code */
    int add_in[OA_KMAX_POST]; /* input index of the residual of each post-op (ADD), -1 otherwise */
    bool has_sum;             /* oneDNN sum post-op in use (post-op 0) */
    /* oneDNN */
    bool use_dnnl;
    int nslices;
    slice *sl; /* [nslices], allocated for the plan (docs/memory.md "Kernel state") */
    float *bias; /* folded bias [oc] */
    size_t scratch_max;
    bool src_plain; /* some slice reads the plain copy of x (made per run in the workspace) */
    bool xpack;     /* out_nchwc op (plain x) with a slice reading a blocked copy of x (workspace) */
    /* reference */
    const float *wref; /* folded weights in the input layout: wref_own, or a stable filter read in place */
    float *wref_own;
    bool wstable; /* the filter is in[1] unfolded and stable (oa_ktensor.stable): what it derives may be shared */
    /* non-overlapping transposed convolution (kernel == stride): a 1x1 Conv2D
     * into [N, oc*kh*kw, H, W] in the workspace, then a depth-to-space scatter */
    oa_kop *s2d;
    size_t s2d_ws; /* the inner op's workspace, 64-byte rounded; the product follows */
    /* NCHW conv run on the NCHWc kernels of our own (conv.c detour_setup): the inner op on blocked copies of x
     * and y in the workspace (after its own workspace), post-ops from detour_from on NCHW y after the copy back */
    oa_kop *detour;
    size_t detour_ws;
    int detour_from;
    bool detour_xpl; /* the inner op reads x as it is (plain x, blocked y: the stem kernels, Winograd) */
    /* NCHW 1x1 conv in its layout (conv_nchw.c): the tier's tile on wref ([oc][ic]) and s->bias */
    oa_kpl1x1_fn pl1x1;
    /* NCHW depthwise conv in its layout (conv_nchw.c): the tier's plane kernel on wref (taps [oc][kh][kw]) and
     * s->bias; each task's workspace slot holds the padded input rows (dp_rows x dp_iwp) of dp_band output rows */
    oa_kdwpl_fn dwpl;
    int64_t dp_rows, dp_iwp, dp_band;
    size_t dp_slot;
    /* both: the post-ops after a first residual add, when they all run in registers (nchw_acts_all) */
    bool nchw_acts_all;
    oa_kacts nchw_acts;
    /* 2x2 / stride-2 transposed conv of the same kind run directly (dc_setup) */
    oa_kdeconv2x2_fn dc;
    float *dcw; /* taps [oc][ic][4] */
    /* Winograd F(wm x wm, 3x3) (wm = 0: not used), see wino_setup */
    int wm;
    float *wu;      /* transformed filters [T][OC16][ICpad][16] */
    float *wbias;   /* bias padded to OCpad */
    int64_t wchunk; /* tiles per chunk (a multiple of 6) */
    int64_t wsplit; /* tasks per chunk: output-channel parts (few chunks, several threads) */
    size_t wslot;   /* workspace bytes per thread */
    size_t wband;   /* plain x (xpl): bytes per thread of a band of x's rows in blocks, after the slots */
    bool winline;   /* post-ops all done by the output transform */
    bool wact_rows; /* activations only, some not ReLU: run on each tile's rows of y once a block is written */
    bool win16;     /* input transform on whole 16-channel blocks (AVX-512, block 16) */
    oa_kwino_post wpost;
    /* bf16 compute (docs/precision.md): bf16 weights and src descs; the primitives read
     * bf16 copies of x made per run after the f32 workspace (xh_off bytes in); dst, bias
     * and post-ops stay f32 */
    bool bf16;
    size_t xh_off;
    int64_t xh_plain, xh_blk; /* elements of the plain / blocked bf16 copies (0: none) */
    /* NHWC copies (geom.nhwc): what the copy back does after oneDNN's post-ops, set at setup (conv.c) */
    bool nhwc_add;        /* the next post-op is a residual add, done while copying */
    bool nhwc_acts_all;   /* the post-ops after it are all in nhwc_acts (else our epilogue runs them) */
    oa_kacts nhwc_acts;
    /* stem conv (conv_stem.c): the tier's kernel on taps [block][ic][kh][kw][blk] and a padded bias */
    oa_kstem_fn stem;
    float *stw, *stb;
    /* depthwise conv (conv_dw.c): the tier's row kernel on taps [block][kh][kw][blk] and a padded bias */
    oa_kdw_fn dw;
    float *dww, *dwb;
    oa_kacts dw_acts; /* the activations the kernel applies (post_from: the first one it does not) */
    oa_kgemv_fn gemv; /* 1x1 conv on a 1x1 map (squeeze-excitation): our GEMV on wref (gemv_run) */
    /* 1x1 / 3x3 conv on a small plane (conv_pw.c): a streamed-filter product */
    oa_kpw_prod *pw;
    oa_kcgemv *gv;    /* few output positions: multi-column GEMV (conv_gemv.h) */
} conv_state;

/* x between NCHWc and NCHW for the primitives and the Winograd path (conv.c), pool tasks over blk_ctx */
typedef struct blk_ctx {
    const float *x;
    float *xb;
    int64_t c, hw;
} blk_ctx;
void oa_conv_to_plain_task(void *vctx, size_t tid, size_t b, size_t e);   /* one (image, channel) per index */
void oa_conv_to_blocked_task(void *vctx, size_t tid, size_t b, size_t e); /* one (image, channel block) */

/* Applies post-ops [from, n) to output channels [c0, c1) of image n (a contiguous region; conv.c). */
void oa_conv_epilogue_channels(const conv_state *s, const void *const *in, float *y, int64_t n, int64_t c0,
                               int64_t c1, int from);

/* NCHW convs on our NCHWc kernels behind copies of x and y (conv_nchw.c): setup leaves s->detour NULL when
 * the inner op would not run on one of our kernels. */
bool oa_conv_detour_eligible(const oa_kop *op, const conv_state *s);
oa_status oa_conv_detour_setup(oa_kop *op, conv_state *s);
oa_status oa_conv_detour_run(const conv_state *s, const void *const *in, void *const *out, void *ws,
                             oa_threadpool *pool);
/* NCHW 1x1 stride-1 convs in their own layout (conv_nchw.c); setup reads the folded filter from s->wref. */
bool oa_conv_nchw1x1_eligible(const oa_kop *op, const conv_state *s);
oa_status oa_conv_nchw1x1_setup(oa_kop *op, conv_state *s);
oa_status oa_conv_nchw1x1_run(const conv_state *s, const void *const *in, void *const *out, oa_threadpool *pool);
/* NCHW depthwise convs (stride 1 or 2, kernels up to 7x7) in their own layout (conv_nchw.c; filter: s->wref). */
bool oa_conv_nchw_dw_eligible(const oa_kop *op, const conv_state *s);
oa_status oa_conv_nchw_dw_setup(oa_kop *op, conv_state *s);
oa_status oa_conv_nchw_dw_run(const conv_state *s, const void *const *in, void *const *out, void *ws,
                              oa_threadpool *pool);

/* Stem convs (conv_stem.c): plain x with few channels into an NCHWc y. */
bool oa_conv_stem_eligible(const conv_state *s);
oa_status oa_conv_stem_setup(oa_kop *op, conv_state *s, const float *wf);
oa_status oa_conv_stem_run(const conv_state *s, const void *x, void *y, oa_threadpool *pool);

/* Depthwise convs (conv_dw.c): NCHWc x into NCHWc y, one filter per channel. */
bool oa_conv_dw_eligible(const conv_state *s);
oa_status oa_conv_dw_setup(oa_kop *op, conv_state *s, const float *wf);
oa_status oa_conv_dw_run(const conv_state *s, const void *x, void *y, oa_threadpool *pool);

/* 1x1 and 3x3 convs on small planes (conv_pw.c): NCHWc16 x into NCHWc16 y. */
bool oa_conv_pw_eligible(const conv_state *s);
oa_status oa_conv_pw_setup(oa_kop *op, conv_state *s, const float *wf);
oa_status oa_conv_pw_run(const conv_state *s, const void *const *in, void *y, void *ws, oa_threadpool *pool);

/* Winograd (conv_wino.c): the tile size m for this geometry (0: not used), the filter transform at setup, the run. */
int oa_conv_wino_tile(const geom *g);
oa_status oa_conv_wino_setup(oa_kop *op, conv_state *s, const float *wf, int m);
oa_status oa_conv_wino_run(const conv_state *s, const void *const *in, void *const *out, void *ws,
                           oa_threadpool *pool);

#endif
