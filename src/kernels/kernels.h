/*
 * openacl CPU kernels: the API executors bind to.
 *
 * The kernels know nothing of the graph IR. An executor decodes a node's
 * attributes into the op family's parameter struct (below), describes the
 * inputs and outputs with oa_ktensor, and drives an operator object
 * through this lifecycle (XNNPACK style):
 *
 *   oa_kernel_infer()          optional: output shapes/dtypes from the inputs
 *   oa_kop_create()            validates, pre-packs weights (constant inputs),
 *                              folds bias/BatchNorm, builds oneDNN primitives
 *   oa_kop_workspace_size()    bytes of scratch `run` needs (per call)
 *   oa_kop_run()               computes; never allocates (see "oneDNN" below),
 *                              never logs on success, reentrant
 *   oa_kop_reshape()           new input/output shapes (dynamic executor);
 *                              may rebuild internal state; not concurrent
 *                              with run on the same op
 *   oa_kop_destroy()           accepts NULL
 *
 * Example (a Conv2D with fused bias + Relu, NCHW):
 *
 *   oa_kconv_params p = { .strides = {1, 1}, .dilations = {1, 1}, .pads = {1, 1, 1, 1}, .groups = 1 };
 *   p.post.ops[0].kind = OA_KPOST_ACT; p.post.ops[0].act = OA_KACT_RELU; p.post.n = 1;
 *   oa_ktensor in[3] = { x_desc, w_desc_with_data, b_desc_with_data }, out[1];
 *   oa_kernel_infer(OA_KOP_CONV2D, &p, 3, in, 1, out);          // fills out[0] dims
 *   oa_kop *op; st = oa_kop_create(OA_KOP_CONV2D, &p, 3, in, 1, out, &op);
 *   void *ws = aligned_alloc(64, oa_kop_workspace_size(op));  // once, by the executor
 *   const void *xs[3] = { x_data, NULL, NULL }; void *ys[1] = { y_data };
 *   st = oa_kop_run(op, xs, ys, ws, pool);                    // many times
 *   oa_kop_destroy(op);
 *
 * Conventions that hold for every op:
 * - Tensors are dense row-major in their layout (OA_KLAYOUT_PLAIN: the dims
 *   in order; OA_KLAYOUT_NCHWC: see below). Strided views are not accepted;
 *   rank <= OA_KMAX_DIMS; a rank-0 tensor is a scalar of one element. Dims
 *   of 0 (empty tensors) are valid: run then does nothing for that output.
 * - Data pointers need only the natural alignment of their dtype; 64-byte
 *   alignment is faster. The workspace must be 64-byte aligned.
 * - Inputs that carry shapes or indices for the op (Transpose perm, Reshape
 *   shape, Reduce axes, Tile multiples, Pad paddings, Slice begin/end/...,
 *   Fill dims, Expand shape, Range start/limit/delta, Resize sizes/scales,
 *   TopK k, NMS thresholds, Split sizes, Gather axis, ClipByValue bounds) are
 *   "host inputs": their data must be given at create/reshape time (the
 *   oa_ktensor.data of the desc); run ignores their pointers. Each family's
 *   comment lists its host inputs. Weights: Conv2D/Conv2DTranspose need their
 *   filter/bias/BatchNorm inputs at create (folded, pre-packed; run pointers
 *   ignored); MatMul b and bias and BatchNorm parameters may come at create
 *   (pre-packed/captured) or at run; LayerNorm and CommonLSTM read every
 *   input at run. reshape needs the same constant data as create.
 * - Optional inputs that are absent are passed as a desc with
 *   dtype OA_KDT_UNDEFINED (and a NULL run pointer).
 * - In-place: an op may run with outputs[0] == inputs[0] only where its
 *   family says "in-place: yes" (elementwise unary/binary with same-shape
 *   x1 and y, BatchNorm, activations, Copy). Other aliasing is undefined.
 * - Ownership: create copies everything it keeps (params, shapes, packed
 *   weights). Constant data passed at create is borrowed only during create.
 * - Errors: create/reshape/infer report bad parameters (mismatched shapes,
 *   unsupported dtypes or attributes) with OA_FAIL(OA_E_PARAM or
 *   OA_E_UNSUPPORTED_DATA_TYPE, message) and leave no op. run only checks
 *   pointers (OA_E_PARAM) and data-dependent errors (e.g. a Gather index out
 *   of range returns OA_E_PARAM with a message).
 *
 * Threading: run may be called concurrently from several threads on the
 * same op with different buffers and workspaces; all per-call state lives in
 * the workspace, whose size does not depend on the pool passed to run.
 * `pool` may be NULL (single thread) and is the only source of parallelism:
 * oneDNN is driven single-threaded per participant (its OpenMP runtime never
 * spawns threads), so 2 threads can not be slower than 1 through
 * oversubscription. Work under ~1 MFLOP (conv/matmul) or one grain
 * (elementwise, OA_KGRAIN_ELEMS = 16384 elements) stays on the caller.
 *
 * oneDNN: convolution and matmul use oneDNN 2.6 primitives with the user
 * scratchpad mode (scratch comes from the workspace). openacl code allocates
 * nothing in run; on the oneDNN path each primitive call wraps the buffers in
 * transient oneDNN memory objects and oneDNN builds its argument map (small
 * heap nodes inside oneDNN, never data buffers), and the first oneDNN call on
 * a thread creates that thread's oneDNN stream (kept until the thread exits).
 * Pre-created memory objects would make concurrent runs of one op race, so
 * this is the price of the reentrancy contract above.
 *
 * Blocked layout NCHWc (OA_KLAYOUT_NCHWC): a 4-D logical NCHW tensor stored
 * as [N][ceil(C/c)][H][W][c] with c = oa_kernels_block() (8 on AVX2, 16 on
 * AVX-512, chosen once by the CPU probe). dims[] always hold the LOGICAL
 * NCHW dims; the padding channels of the last block must hold zeros on
 * input (oneDNN's conv reads them against zero weights, so NaN garbage would
 * leak) and every kernel writes them as zeros. The families marked "NCHWc: yes"
 * accept it: Conv2D (incl. depthwise), BatchNorm, elementwise binary
 * (same shape, per-channel [1,C,1,1] or [C,1,1] broadcast, scalar), unary
 * activations, pools incl. global, resize, concat on axis 1, Copy; and
 * OA_KOP_REORDER converts NCHW <-> NCHWc. Within one op all 4-D activations
 * must use the same layout (the per-channel / scalar operand of a binary op
 * and all weights stay plain).
 */
#ifndef OA_KERNELS_KERNELS_H
#define OA_KERNELS_KERNELS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"
#include "kernels/threadpool.h"

#define OA_KMAX_DIMS 8
#define OA_KMAX_POST 4

/* Element types; the values are GE's DataType / aclDataType numbers. */
typedef enum oa_kdtype {
    OA_KDT_F32 = 0,
    OA_KDT_F16 = 1,
    OA_KDT_I8 = 2,
    OA_KDT_I32 = 3,
    OA_KDT_U8 = 4,
    OA_KDT_I16 = 6,
    OA_KDT_U16 = 7,
    OA_KDT_U32 = 8,
    OA_KDT_I64 = 9,
    OA_KDT_U64 = 10,
    OA_KDT_F64 = 11,
    OA_KDT_BOOL = 12,
    OA_KDT_BF16 = 27,
    OA_KDT_UNDEFINED = -1
} oa_kdtype;

/* Bytes per element; 0 for unknown/undefined. */
size_t oa_kdtype_size(oa_kdtype dt);
/* Short name ("f32", "i64", ...); never NULL. */
const char *oa_kdtype_name(oa_kdtype dt);

typedef enum oa_klayout {
    OA_KLAYOUT_PLAIN = 0, /* dense row-major over dims */
    OA_KLAYOUT_NCHWC = 1  /* rank-4, [N][C/c][H][W][c], see the file comment */
} oa_klayout;

/* A tensor: descriptor plus (optionally) data. */
typedef struct oa_ktensor {
    oa_kdtype dtype;
    int rank;                   /* 0..OA_KMAX_DIMS */
    int64_t dims[OA_KMAX_DIMS]; /* logical dims, >= 0 */
    oa_klayout layout;
    /* data is a constant that outlives every operator made from it and never changes (a dynamic model's
     * weights, which its executor keeps for the operators of later input shapes): kernels may read it in place
     * and share what they derive from it between operators (oa_kderived_stats). (It sits in the padding before
     * data: 8 bytes more per desc cost a 2000-node chain 3-4 ns a node, its descs read on every run.) */
    bool stable;
    const void *data; /* constant/host data at create/reshape/infer; NULL otherwise */
} oa_ktensor;

/* Number of elements (product of dims; 1 for rank 0). -1 on overflow. */
int64_t oa_ktensor_numel(const oa_ktensor *t);
/* Bytes the tensor occupies in its layout (NCHWc rounds C up to the block); 0 on overflow. */
size_t oa_ktensor_bytes(const oa_ktensor *t);
/* Fills a plain desc; returns t. */
oa_ktensor *oa_ktensor_set(oa_ktensor *t, oa_kdtype dt, int rank, const int64_t *dims);

/* ------------------------------------------------------------------------- */
/* CPU features and global configuration                                      */

typedef struct oa_kcpu {
    bool avx2, fma, f16c, avx512f, avx512bw, avx512vl, avx512dq;
    bool avx512_vnni, avx512_bf16, avx512_fp16;
    bool amx_tile, amx_bf16, amx_int8; /* only when the OS granted the tile state */
} oa_kcpu;

/*
 * ISA tiers, lowest first (docs/isa.md). A tier stands for its own feature
 * on top of the AVX-512 F/BW/VL base; the tier in use is the highest one the
 * CPU has, or the one OPENACL_ISA names (never above the CPU's).
 */
typedef enum oa_kisa_tier {
    OA_KISA_REF,         /* baseline x86-64 (SSE2), libm */
    OA_KISA_AVX2,        /* AVX2 + FMA */
    OA_KISA_AVX512,      /* AVX-512 F + BW + VL */
    OA_KISA_AVX512_VNNI, /* + AVX512-VNNI */
    OA_KISA_AVX512_BF16, /* + AVX512-BF16 */
    OA_KISA_AVX512_FP16, /* + AVX512-FP16 */
    OA_KISA_AMX,         /* + AMX tiles (BF16 / INT8) */
    OA_KISA_TIER_COUNT
} oa_kisa_tier;

/* Probes the CPU once (thread-safe) and returns what it and the OS offer. */
const oa_kcpu *oa_kernels_cpu(void);
/* The features kernels may use: the CPU's, masked by the chosen tier. */
const oa_kcpu *oa_kisa_features(void);
/* Highest tier the CPU offers / the tier in use (after OPENACL_ISA). */
oa_kisa_tier oa_kisa_detected(void);
oa_kisa_tier oa_kisa_tier_used(void);
/* "ref", "avx2", "avx512", "avx512_vnni", "avx512_bf16", "avx512_fp16", "amx". */
const char *oa_kisa_tier_name(oa_kisa_tier t);
/* Tier named by s (the names above, also "sse2"/"scalar" for ref), or -1. */
int oa_kisa_parse(const char *s);
/* Highest tier of a feature set; the features of c allowed under tier t. */
oa_kisa_tier oa_kisa_tier_of(const oa_kcpu *c);
void oa_kisa_mask(const oa_kcpu *c, oa_kisa_tier t, oa_kcpu *out);
/*
 * Channel block of OA_KLAYOUT_NCHWC: 16 with AVX-512F, else 8 (fixed for the
 * process). Environment, read once: OPENACL_ISA=<tier name> (older name
 * OA_KERNELS_ISA) caps the ISA used by every kernel (an unknown value or one
 * above the CPU's is logged and the detected tier used); OA_KERNELS_BLOCK=8|16 forces the block (tests);
 * OA_KERNELS_ONEDNN=0 disables oneDNN (reference conv/matmul);
 * OA_KERNELS_SLICES=n sets the number of parallel slices conv/matmul
 * prepare (default: online cores); OA_KERNELS_SPLIT_FLOPS=f: convs/matmuls
 * under f FLOPs are not split (default 1e6). Read at each conv create:
 * OPENACL_WINOGRAD=0 turns the Winograd path of 3x3 stride-1 NCHWc convs
 * off, =2 / =4 forces F(2x2,3x3) / F(4x4,3x3) wherever it applies (unset:
 * chosen by size, conv.c).
 */
int oa_kernels_block(void);
/* Name of the ISA tier in use (oa_kisa_tier_name). */
const char *oa_kernels_isa(void);

/*
 * Lower precision a model asked for (atc --precision_mode, docs/precision.md):
 * a request, recorded per convolution / matrix product. OA_KLOWP_NONE keeps
 * fp32. What the CPU then does is oa_klowp_compute(): OA_KLOWP_BF16 (bf16
 * inputs and weights, fp32 accumulation and output) where the features in use
 * include AVX512-BF16 or AMX-BF16 and oneDNN is enabled, else OA_KLOWP_NONE
 * (fp32, one INFO line per process says so). An fp16 request computes in
 * bf16 too: oneDNN 2.6 has no f16 convolution or matmul on CPUs.
 */
typedef enum oa_klowp { OA_KLOWP_NONE = 0, OA_KLOWP_BF16 = 1, OA_KLOWP_FP16 = 2 } oa_klowp;
oa_klowp oa_klowp_compute(oa_klowp requested);

/* ------------------------------------------------------------------------- */
/* Ops                                                                        */

typedef enum oa_kop_type {
    OA_KOP_CONV2D,           /* Conv2D; 1-D conv = 2-D with H = 1         */
    OA_KOP_CONV2D_TRANSPOSE, /* Conv2DTranspose                            */
    OA_KOP_MATMUL,           /* MatMulV2, BatchMatMulV2, GEMM              */
    OA_KOP_BATCHNORM,        /* BatchNorm (inference)                      */
    OA_KOP_LAYERNORM,        /* LayerNorm                                  */
    OA_KOP_SOFTMAX,          /* SoftmaxV2                                  */
    OA_KOP_BINARY,           /* Add, Sub, Mul, RealDiv, Pow, Maximum, ...  */
    OA_KOP_UNARY,            /* Relu, Sigmoid, ..., ClipByValue, Cast-free */
    OA_KOP_SELECT,           /* SelectV2                                   */
    OA_KOP_POOL,             /* AvgPoolV2, MaxPoolV3, GlobalAveragePool    */
    OA_KOP_REDUCE,           /* ReduceMean/Sum/Max/Min/Prod                */
    OA_KOP_CAST,             /* Cast                                       */
    OA_KOP_TRANSPOSE,        /* Transpose(D)                               */
    OA_KOP_CONCAT,           /* ConcatD / ConcatV2D                        */
    OA_KOP_SPLIT,            /* Split / SplitV / SplitD / SplitVD          */
    OA_KOP_SLICE,            /* StridedSliceV2 / Slice                     */
    OA_KOP_GATHER,           /* GatherV2                                   */
    OA_KOP_PAD,              /* PadV3 / PadV2 / Pad / MirrorPad            */
    OA_KOP_TILE,             /* Tile                                       */
    OA_KOP_EXPAND,           /* Expand / BroadcastTo                       */
    OA_KOP_FILL,             /* Fill                                       */
    OA_KOP_RANGE,            /* Range                                      */
    OA_KOP_RESIZE,           /* ResizeNearestNeighborV2 / Resize           */
    OA_KOP_TOPK,             /* TopK                                       */
    OA_KOP_NMS,              /* NonMaxSuppressionV6                        */
    OA_KOP_LSTM,             /* CommonLSTM                                 */
    OA_KOP_COPY,             /* Reshape/Squeeze/Unsqueeze/Identity/Flatten */
    OA_KOP_REORDER,          /* NCHW <-> NCHWc                             */
    OA_KOP_CONV_REF,         /* direct 1-3-D conv, run-time filter (Conv3D) */
    OA_KOP_AIPP,             /* Aipp (kernels/aipp.h)                      */
    OA_KOP_INDEX,            /* GatherNd, scatters, OneHot, Cumsum, NonZero, Unique, ... (index.c) */
    OA_KOP_GRID_SAMPLE,      /* GridSampler2D (ONNX GridSample)            */
    OA_KOP_DET,              /* MatrixDeterminant (ONNX Det)               */
    OA_KOP_QUANT,            /* int8: quantize, dequantize, conv, add (conv_int8.c) */
    OA_KOP_COUNT
} oa_kop_type;

/* Name of an op type ("conv2d", ...). */
const char *oa_kop_type_name(oa_kop_type t);

/* --- fused epilogues (Conv2D, Conv2DTranspose, MatMul) ------------------- */

typedef enum oa_kact {
    OA_KACT_NONE,
    OA_KACT_RELU,         /* max(x, 0)                                    */
    OA_KACT_LEAKY_RELU,   /* x > 0 ? x : alpha*x                          */
    OA_KACT_CLIP,         /* min(max(x, alpha), beta)  (Relu6: 0, 6)      */
    OA_KACT_HARDSIGMOID,  /* max(0, min(1, alpha*x + beta))               */
    OA_KACT_HARDSWISH,    /* x * relu6(x + 3) / 6                         */
    OA_KACT_MUL_HARDSIGMOID, /* x * max(0, min(1, alpha*x + beta))        */
    OA_KACT_SIGMOID,      /* 1 / (1 + exp(-x))                            */
    OA_KACT_TANH,
    OA_KACT_GELU_ERF,     /* 0.5 x (1 + erf(x / sqrt 2))                  */
    OA_KACT_SWISH,        /* x * sigmoid(alpha*x)  (SiLU: alpha = 1)      */
    OA_KACT_LINEAR,       /* alpha*x + beta (a constant scale / shift after an activation) */
    OA_KACT_COUNT
} oa_kact;

typedef enum oa_kpost_kind {
    OA_KPOST_ACT, /* y = act(y) */
    OA_KPOST_ADD  /* y = y + extra input (same shape and layout as y) */
} oa_kpost_kind;

typedef struct oa_kpost {
    oa_kpost_kind kind;
    oa_kact act;
    float alpha, beta;
} oa_kpost;

/*
 * Post-ops applied in order to the op's result before it is stored. Each
 * OA_KPOST_ADD consumes one extra input appended after the op's own inputs
 * (in post-op order). The extra input may alias the output only when its
 * OA_KPOST_ADD is the first post-op (an in-place residual "sum").
 */
typedef struct oa_kpost_chain {
    int n;
    oa_kpost ops[OA_KMAX_POST];
} oa_kpost_chain;

/* --- Conv2D / Conv2DTranspose -------------------------------------------- *
 * Inputs:  0 x [N, Cin, H, W]; 1 filter [Cout, Cin/groups, kh, kw]
 *          (transpose: [Cin, Cout/groups, kh, kw]); 2 bias [Cout] (optional);
 *          then, if fold_bn, 4 BatchNorm tensors [Cout]: scale, offset,
 *          mean, variance (constant, folded into filter and bias); then one
 *          extra input per OA_KPOST_ADD.
 * Output:  y [N, Cout, OH, OW], OH = (H + pt + pb - (d(kh-1)+1)) / s + 1;
 *          transpose: OH = (H-1) s - pt - pb + d(kh-1) + 1 + output_padding.
 * dtypes:  f32. Layouts: NCHW or NCHWc (x, y, residuals alike), or x NCHW
 *          with y and residuals NCHWc (params.out_nchwc).
 * The filter, bias and BatchNorm inputs must be constant (data at create):
 * they are folded and pre-packed once; their run pointers are ignored.
 * 1-D convolutions: pass H = 1, kh = 1, pads[0..1] = 0.
 * Implementation: oneDNN JIT primitives (NCHW ops run them on NCHWc copies
 * in the workspace), or the scalar reference when oneDNN has no JIT kernel.
 */
typedef struct oa_kconv_params {
    int64_t strides[2];   /* h, w (GE strides[2], strides[3] in NCHW) */
    int64_t dilations[2]; /* h, w; 0 is read as 1 */
    int64_t pads[4];      /* top, bottom, left, right */
    int64_t groups;       /* 0 is read as 1 */
    int64_t output_padding[2]; /* transpose only */
    bool fold_bn;
    float bn_epsilon;
    /* y (and residuals) in NCHWc while x is NCHW: the first conv of a blocked
     * chain reads the model input directly (oneDNN's JIT kernels take a plain
     * source for few input channels). Ignored when x is already NCHWc. */
    bool out_nchwc;
    oa_kpost_chain post;
    oa_klowp lowp; /* lower precision the model asked for (docs/precision.md) */
} oa_kconv_params;

/* --- Direct convolution (conv_ref.c): x [N, C, s...] with 1 to 3 spatial
 * dims, filter [M, C/groups, k...] and bias [M] read at run time (nothing
 * packed), f32. pads: the nsp begin pads, then the nsp end pads. */
typedef struct oa_kconvref_params {
    int nsp;
    int64_t strides[3], dilations[3], pads[6];
    int64_t groups;
    /* transposed: filter [C, M/groups, k...], y spatial = (i - 1) s - pads +
     * d (k - 1) + 1 + output_padding */
    bool transpose;
    int64_t output_padding[3];
} oa_kconvref_params;

/* --- MatMul ---------------------------------------------------------------
 * Inputs: 0 a, 1 b, 2 bias (optional, [N] or broadcastable to y), then one
 *         extra input per OA_KPOST_ADD.
 * a, b: rank >= 1; numpy matmul rules (1-D a is [1,K] and the dim is
 * dropped; 1-D b is [K,1]); batch dims broadcast. transpose_a/b transpose
 * the last two dims (MatMulV2 transpose_x1/x2, BatchMatMulV2 adj_x1/x2).
 * y = alpha * op(a) op(b) + beta * bias  (GEMM; MatMulV2: alpha = beta = 1).
 * dtypes f32. b constant at create => pre-packed once (the fast path; its
 * run pointer is ignored); otherwise b is read at run (attention products).
 * A constant bias is copied at create.
 */
typedef struct oa_kmatmul_params {
    bool transpose_a, transpose_b;
    float alpha, beta; /* 0/0 is read as 1/1 */
    oa_kpost_chain post;
    oa_klowp lowp; /* lower precision the model asked for (docs/precision.md); constant b only */
} oa_kmatmul_params;

/* --- BatchNorm (inference) -----------------------------------------------
 * Inputs: x [N, C, ...] (rank >= 2, channel axis 1), scale, offset, mean,
 * variance [C]. Output y like x. f32. NCHWc: yes. In-place: yes.
 */
typedef struct oa_kbatchnorm_params {
    float epsilon;
    oa_kpost_chain post; /* OA_KPOST_ACT only */
} oa_kbatchnorm_params;

/* --- LayerNorm -----------------------------------------------------------
 * Inputs: x, gamma, beta (gamma/beta: the normalised trailing dims, or x's
 * shape, or broadcastable to those trailing dims; beta optional).
 * Outputs: y, then optional mean and variance (reduced dims kept as 1; pass
 * fewer outputs to skip them). f32.
 */
typedef struct oa_klayernorm_params {
    int64_t begin_norm_axis; /* negative counts from the end */
    float epsilon;
} oa_klayernorm_params;

/* --- SoftmaxV2: y = softmax(x) along `axis` (negative from the end). f32. */
typedef struct oa_ksoftmax_params {
    int64_t axis;
    bool log; /* LogSoftmaxV2 */
} oa_ksoftmax_params;

/* --- Elementwise binary ---------------------------------------------------
 * Inputs x1, x2 broadcast (numpy); output y. dtypes: x1 and x2 of the same
 * dtype in {f32, f64, i8, u8, i16, u16, i32, u32, i64, u64} (arith, compare;
 * each computed in its own type: integers wrap, x / 0 = 0), f16 (arith,
 * compare: operands widened to f32, each result rounded once), bool (logic,
 * compare); y is bool for compare/logic ops, else the input dtype. PRelu:
 * x2 = slope (f32, f64, f16, i32, i64). The binary_defs.inc rows take f32 only.
 * In-place: y may alias an input of y's shape and dtype.
 * NCHWc: x1, x2 each either NCHWc of y's shape, or plain per-channel
 * ([C,1,1] / [1,C,1,1]), or a plain scalar (one element).
 * Pow with a constant scalar exponent (x2 data at create) of 2, 0.5, -0.5,
 * -1 or 1 runs as Square/Sqrt/Rsqrt/Reciprocal/Identity (~100x faster than
 * powf, which any other exponent uses).
 */
typedef enum oa_kbinary_op {
    OA_KBIN_ADD, OA_KBIN_SUB, OA_KBIN_MUL, OA_KBIN_DIV, OA_KBIN_POW, OA_KBIN_MAX, OA_KBIN_MIN,
    /* plain f32 arithmetic, one row each in kernels/binary_defs.inc (between
     * OA_KBIN_MIN and OA_KBIN_PRELU) */
#define OA_KBINARY(id, name, expr) OA_KBIN_##id,
#include "kernels/binary_defs.inc"
#undef OA_KBINARY
    OA_KBIN_PRELU,
    OA_KBIN_EQUAL, OA_KBIN_NOT_EQUAL, OA_KBIN_LESS, OA_KBIN_LESS_EQUAL, OA_KBIN_GREATER,
    OA_KBIN_GREATER_EQUAL,
    OA_KBIN_AND, OA_KBIN_OR, OA_KBIN_XOR,
    /* remainders (arithmetic, generic loops only): MOD has the dividend's
     * sign (C fmod, GE Mod), FLOOR_MOD the divisor's (Python %, GE FloorMod);
     * an integer x % 0 is 0 */
    OA_KBIN_MOD, OA_KBIN_FLOOR_MOD,
    /* bit shifts (integers; a shift by >= the width or < 0 gives 0) */
    OA_KBIN_LSHIFT, OA_KBIN_RSHIFT,
    OA_KBIN_COUNT
} oa_kbinary_op;

typedef struct oa_kbinary_params {
    oa_kbinary_op op;
    oa_kpost_chain post; /* OA_KPOST_ACT only, f32 arithmetic ops only */
} oa_kbinary_params;

/* --- Elementwise unary ----------------------------------------------------
 * Input x, output y of x's shape. f32 for all (the plain math ops after
 * OA_KUN_LAST_SPECIAL are rows of kernels/unary_defs.inc), f64 (the same
 * formulas in double) and f16 (through the f32 loops, rounded once; plain
 * layout); also i32/i64 for ABS, NEG,
 * RELU, SQUARE, SIGN, IDENTITY; bool for LOGICAL_NOT. ClipByValue: CLIP with
 * alpha = min, beta = max; if the op is given 3 inputs (x, min, max as
 * scalar host inputs) those override alpha/beta.
 * Exp/Log carry GE's base/scale/shift attrs (EXP: base^(scale x + shift),
 * base <= 0 means e; LOG: log_base(scale x + shift)). In-place: yes. NCHWc: yes.
 */
typedef enum oa_kunary_op {
    OA_KUN_RELU, OA_KUN_LEAKY_RELU, OA_KUN_SIGMOID, OA_KUN_HARDSIGMOID, OA_KUN_HARDSWISH, OA_KUN_TANH,
    OA_KUN_EXP, OA_KUN_LOG, OA_KUN_SQRT, OA_KUN_RSQRT, OA_KUN_ERF, OA_KUN_SOFTPLUS, OA_KUN_ABS, OA_KUN_NEG,
    OA_KUN_RECIPROCAL, OA_KUN_FLOOR, OA_KUN_CEIL, OA_KUN_ROUND, OA_KUN_CLIP, OA_KUN_GELU, OA_KUN_GELU_TANH,
    OA_KUN_SQUARE, OA_KUN_SIGN, OA_KUN_SIN, OA_KUN_COS, OA_KUN_SOFTSIGN, OA_KUN_MUL_HARDSIGMOID,
    OA_KUN_LOGICAL_NOT, OA_KUN_IDENTITY,
    OA_KUN_LAST_SPECIAL = OA_KUN_IDENTITY, /* the ops above are written out; below: unary_defs.inc */
#define OA_KUNARY(id, expr) OA_KUN_##id,
#include "kernels/unary_defs.inc"
#undef OA_KUNARY
    OA_KUN_COUNT
} oa_kunary_op;

typedef struct oa_kunary_params {
    oa_kunary_op op;
    float alpha, beta; /* LeakyRelu slope; HardSigmoid alpha, beta; Clip lo, hi */
    float base, scale, shift; /* Exp/Log; 0/0/0 is read as e/1/0 */
} oa_kunary_params;

/* --- SelectV2: inputs cond (bool), then, else; broadcast; y of then's dtype. */

/* --- Pooling --------------------------------------------------------------
 * Input x [N, C, H, W], output y [N, C, OH, OW]. f32. NCHWc: yes.
 * OH = floor or ceil((H + pt + pb - kh) / sh) + 1; with ceil_mode the last
 * window must start inside the input or the top padding (ONNX/PyTorch rule).
 * Padding "SAME": OH = ceil(H / sh), pads computed (extra on the bottom).
 * Max: padded cells never win. Avg: exclusive = divide by the number of
 * non-pad cells; otherwise by the window clipped to the padded input (cells
 * beyond the bottom/right padding that ceil_mode adds are not counted);
 * divisor_override != 0 replaces the divisor.
 */
typedef enum oa_kpool_kind { OA_KPOOL_MAX, OA_KPOOL_AVG } oa_kpool_kind;
/* SAME puts the odd pad cell at the end (ONNX SAME_UPPER, GE SAME), SAME_LOWER at the beginning. */
typedef enum oa_kpad_mode { OA_KPAD_CALCULATED, OA_KPAD_SAME, OA_KPAD_VALID, OA_KPAD_SAME_LOWER } oa_kpad_mode;

typedef struct oa_kpool_params {
    oa_kpool_kind kind;
    int64_t ksize[2], strides[2], pads[4];
    oa_kpad_mode padding_mode;
    bool global, ceil_mode, exclusive;
    int64_t divisor_override;
    /* The general path (plain layout only; taken for a 5-D x, dilations, the
     * argmax output or a dtype other than f32): x [N, C, H, W] or
     * [N, C, D, H, W] in f32, f16, f64 (max and avg), i8, u8 (max). The depth
     * window of a 5-D x: */
    int64_t ksize_d, stride_d, pads_d[2]; /* 0 ksize/stride: 1 */
    int64_t dilations[3];                 /* d, h, w; 0: 1 */
    /* A second output (max only): i64 argmax, the flat index of the maximum
     * in x (the first one in window order on ties), the spatial dims counted
     * row-major, or column-major with argmax_col_major (ONNX MaxPool
     * Indices, storage_order=1). */
    bool argmax_col_major;
} oa_kpool_params;

/* --- Reductions -----------------------------------------------------------
 * Input x; axes from params (or host input 1 if given: i32/i64 1-D).
 * Empty axes: noop_with_empty_axes ? identity : reduce all.
 * keep_dims keeps reduced dims as 1. dtypes f32, f64, f16 (all; f64 and f16
 * accumulate in double, f16 rounded once), i32/i64 (SUM, MAX, MIN, PROD).
 */
typedef enum oa_kreduce_op {
    OA_KRED_SUM, OA_KRED_MEAN, OA_KRED_MAX, OA_KRED_MIN, OA_KRED_PROD, OA_KRED_L2, OA_KRED_SUMSQ,
    OA_KRED_COUNT
} oa_kreduce_op;

typedef struct oa_kreduce_params {
    oa_kreduce_op op;
    int n_axes;
    int64_t axes[OA_KMAX_DIMS];
    bool keep_dims, noop_with_empty_axes;
} oa_kreduce_params;

/* --- Cast: y = (dst_type) x. Any pair among f32, f16, bf16, f64, i8, u8,
 * i16, u16, i32, u32, i64, u64, bool. Float -> int truncates toward zero
 * (out-of-range values saturate); anything -> bool is x != 0; f16 uses
 * round-to-nearest-even (F16C when present); bf16 keeps the upper 16 bits of
 * the f32 value (truncation, as the ONNX Cast reference; NaN stays NaN). */
typedef struct oa_kcast_params {
    oa_kdtype dst_type;
} oa_kcast_params;

/* --- Transpose: y.dims[i] = x.dims[perm[i]]; perm from params or host
 * input 1 (i32/i64). Any dtype (moved by element size). f32 may carry
 * activation post-ops (OA_KPOST_ACT), applied to y.
 * A blocked x (NCHWc, f32) moves to channels last: groups = 0 takes perm
 * (0,2,3,1) of x's [N,C,H,W] (y [N,H,W,C]); groups = G >= 1 takes perm
 * (0,1,3,4,2) of x viewed as [N,G,C/G,H,W] (y [N,G,H,W,C/G]: YOLO's heads).
 * A plain x needs groups = 0. */
typedef struct oa_ktranspose_params {
    int n_perm; /* 0: take host input 1; if absent too, reverse the dims */
    int64_t perm[OA_KMAX_DIMS];
    int64_t groups;
    oa_kpost_chain post;
} oa_ktranspose_params;

/* --- ConcatD: inputs x0..x{N-1}, same dtype and rank, equal dims except
 * `axis`. Any dtype. NCHWc: rank 4, axis 1; inputs whose C is not a block
 * multiple (before the last) make the output gathered lane runs at a time.
 * Windows (plain layout): input win[k].input contributes only its range
 * [off, off + len) along `axis` (a Slice the compiler folded into the Concat:
 * docs/memory.md "Concat in place"). An input may alias y (the same bytes at
 * its place in y): that run is not copied. */
#define OA_KCONCAT_MAX_WIN 8
typedef struct oa_kconcat_win {
    int32_t input;
    int64_t off, len;
} oa_kconcat_win;

typedef struct oa_kconcat_params {
    int64_t axis;
    int n_win;
    oa_kconcat_win win[OA_KCONCAT_MAX_WIN];
} oa_kconcat_params;

/* --- Split / SplitV: input x, outputs y0..; sizes from params (n_sizes
 * entries; one may be -1) or, if n_sizes == 0, from the host input
 * `size_splits` (input 1, as SplitV) or equal parts (n outputs). */
typedef struct oa_ksplit_params {
    int64_t axis; /* split_dim */
    int n_sizes;
    int64_t sizes[64];
} oa_ksplit_params;

/* --- StridedSliceV2 / ONNX Slice: inputs x, begin, end, axes?, strides?
 * (host inputs, i32/i64). Begin/end clamp per ONNX; negative = from end.
 * TF masks: bit i of begin_mask/end_mask ignores begin/end of axis entry i;
 * shrink_axis_mask drops the dim (ellipsis/new_axis masks unsupported).
 * GE Slice (offsets, size): set `size_form`: input 2 holds sizes (-1 = to end). */
typedef struct oa_kslice_params {
    int64_t begin_mask, end_mask, shrink_axis_mask;
    bool size_form;
} oa_kslice_params;

/* --- GatherV2: inputs x, indices (i32/i64), axis (host scalar; or
 * params.axis when input 2 is absent). y = x.shape[:axis] +
 * indices.shape[batch_dims:] + x.shape[axis+1:]. Negative indices wrap
 * (ONNX); out-of-range indices make run fail with OA_E_PARAM. */
typedef struct oa_kgather_params {
    int64_t axis;
    int64_t batch_dims;
    /* GatherElements (ONNX): inputs x, indices of x's rank; y has the
     * indices' dims, y[i..] = x[i.. with the axis coordinate = indices[i..]]
     * (negative indices wrap, out of range fails the run). */
    bool elements;
} oa_kgather_params;

/* --- PadV3: inputs x, paddings (host, i32/i64), constant_values (host
 * scalar, optional). Modes constant/reflect/edge(symmetric). Negative pads
 * crop. paddings_contiguous: [b0,e0,b1,e1,...], else ONNX [b0,b1,..,e0,e1,..]. */
typedef enum oa_kpadv_mode { OA_KPADV_CONSTANT, OA_KPADV_REFLECT, OA_KPADV_EDGE, OA_KPADV_SYMMETRIC } oa_kpadv_mode;
typedef struct oa_kpad_params {
    oa_kpadv_mode mode;
    bool paddings_contiguous;
    double value; /* used when constant_values is absent */
} oa_kpad_params;

/* --- Tile (x, multiples host), Expand/BroadcastTo (x, shape host): no params. */

/* --- Fill: inputs dims (host), value (host scalar). y of value's dtype.
 * Range: inputs start, limit, delta (host scalars, same dtype f32/i32/i64). */

/* --- Resize ---------------------------------------------------------------
 * Input x [N, C, H, W] (NCHW or NCHWc), plus host inputs describing the
 * output size (the executor has already derived it: y's dims are the truth;
 * inputs beyond x are ignored). mode nearest (with GE
 * ResizeNearestNeighborV2 flags mapped to a coordinate mode, see below) or
 * linear (bilinear). Coordinate modes per ONNX:
 *   half_pixel, pytorch_half_pixel, align_corners, asymmetric,
 *   tf_half_pixel_for_nn; and OA_KCT_TF_NN_* for ResizeNearestNeighborV2's
 *   TensorFlow rule (floor(dst*scale), half_pixel_centers floor((dst+.5)*scale),
 *   align_corners round(dst*(in-1)/(out-1))).
 * Nearest rounding for ONNX modes: nearest_mode (round_prefer_floor default).
 * Scales: if scale_h/scale_w > 0 they are used in the coordinate transform
 * (ONNX with a scales input; align_corners then divides by in * scale - 1,
 * not rounded, as the ONNX reference), else out/in.
 */
/* Cubic (ONNX mode cubic, f32, plain layout): 4 taps floor(x)-1 .. floor(x)+2
 * with the Keys coefficients of cubic_a, indices clamped to the edge; with
 * exclude_outside the taps outside the input get weight 0 and the others are
 * renormalised. tf_crop_and_resize (f32, plain layout, any mode): the source
 * coordinate is roi_start*(in-1) + o*(roi_end-roi_start)*(in-1)/(out-1)
 * (out = 1: the middle of the roi); outside [0, in-1] the output is
 * extrapolation. roi holds h start, w start, h end, w end. */
typedef enum oa_kresize_mode { OA_KRESIZE_NEAREST, OA_KRESIZE_LINEAR, OA_KRESIZE_CUBIC } oa_kresize_mode;
typedef enum oa_kcoord_mode {
    OA_KCT_HALF_PIXEL, OA_KCT_PYTORCH_HALF_PIXEL, OA_KCT_ALIGN_CORNERS, OA_KCT_ASYMMETRIC,
    OA_KCT_TF_HALF_PIXEL_FOR_NN,
    OA_KCT_TF_NN, OA_KCT_TF_NN_HALF_PIXEL, OA_KCT_TF_NN_ALIGN_CORNERS,
    OA_KCT_TF_CROP_AND_RESIZE
} oa_kcoord_mode;
typedef enum oa_knearest_mode {
    OA_KNEAREST_ROUND_PREFER_FLOOR, OA_KNEAREST_ROUND_PREFER_CEIL, OA_KNEAREST_FLOOR, OA_KNEAREST_CEIL
} oa_knearest_mode;
typedef struct oa_kresize_params {
    oa_kresize_mode mode;
    oa_kcoord_mode coord;
    oa_knearest_mode nearest;
    float scale_h, scale_w;
    float cubic_a;         /* ONNX cubic_coeff_a (-0.75 by default) */
    bool exclude_outside;
    float extrapolation;   /* tf_crop_and_resize */
    float roi[4];          /* tf_crop_and_resize: h start, w start, h end, w end */
} oa_kresize_params;

/* --- TopK: inputs x (f32/i32/i64), k (host scalar or [1], i32/i64).
 * Outputs values, indices (i32 or i64, as the output desc says). Ties keep
 * the lower index first. */
typedef struct oa_ktopk_params {
    int64_t axis;
    bool largest, sorted;
} oa_ktopk_params;

/* --- NonMaxSuppressionV6: inputs boxes [B,N,4], scores [B,C,N] (f32),
 * max_output_size, iou_threshold, score_threshold (host scalars, optional).
 * Output 0 selected [M,3] (i32 or i64) with M = B*C*min(max_out, N) rows:
 * the selected (batch, class, box) triples first, remaining rows -1.
 * Output 1 (optional): i64 scalar, the number of selected rows (the
 * executor narrows output 0 to that many rows). */
typedef struct oa_knms_params {
    int center_point_box;
} oa_knms_params;

/* --- CommonLSTM (ONNX LSTM, layout 0): inputs X [T,B,I], W [D,4H,I],
 * R [D,4H,H], B? [D,8H], sequence_lens? [B] (i32), initial_h? [D,B,H],
 * initial_c? [D,B,H], P? [D,3H]. Outputs Y [T,D,B,H], Y_h, Y_c [D,B,H]
 * (any may be omitted by giving fewer outputs or UNDEFINED descs).
 * Gates i,o,f,c; activations sigmoid/tanh/tanh; clip if > 0. f32.
 * All inputs are read at run (none is captured at create). */
typedef enum oa_klstm_dir { OA_KLSTM_FORWARD, OA_KLSTM_REVERSE, OA_KLSTM_BIDIRECTIONAL } oa_klstm_dir;
/* The same family runs CommonGRU and CommonRNN (ONNX GRU / RNN, layout 0):
 * inputs X, W [D,NG*H,I], R [D,NG*H,H], B? [D,2*NG*H], sequence_lens?,
 * initial_h? (NG = 3 gates z,r,h for GRU, 1 for RNN); outputs Y, Y_h. GRU:
 * z, r = f(.), h~ = g(X·Wh + (r ⊙ H)·Rh + Rbh + Wbh), or with
 * linear_before_reset g(X·Wh + r ⊙ (H·Rh + Rbh) + Wbh); H' = (1-z) ⊙ h~ + z ⊙ H.
 * RNN: H' = f(X·W + H·R + Wb + Rb). f, g per direction from `act` (n_act 0:
 * GRU Sigmoid, Tanh; RNN Tanh), with ONNX's activation_alpha / _beta. */
typedef enum oa_krnn_cell { OA_KRNN_LSTM, OA_KRNN_GRU, OA_KRNN_RNN } oa_krnn_cell;
typedef enum oa_krnn_act {
    OA_KRNN_ACT_SIGMOID, OA_KRNN_ACT_TANH, OA_KRNN_ACT_RELU, OA_KRNN_ACT_AFFINE, OA_KRNN_ACT_LEAKY_RELU,
    OA_KRNN_ACT_THRESHOLDED_RELU, OA_KRNN_ACT_SCALED_TANH, OA_KRNN_ACT_HARD_SIGMOID, OA_KRNN_ACT_ELU,
    OA_KRNN_ACT_SOFTSIGN, OA_KRNN_ACT_SOFTPLUS, OA_KRNN_ACT_COUNT
} oa_krnn_act;
typedef struct oa_klstm_params {
    oa_klstm_dir direction;
    int64_t hidden_size; /* 0: from R */
    float clip;          /* <= 0: none */
    bool input_forget;
    oa_krnn_cell cell;   /* 0: LSTM */
    bool linear_before_reset;
    int n_act;           /* GRU / RNN: entries of act (gates per direction times directions), 0: defaults */
    oa_krnn_act act[4];
    float act_alpha[4], act_beta[4];
} oa_klstm_params;

/* --- Aipp: input 0 images (u8, any dims: the raw bytes of N images),
 * input 1 params (u8, the dynamic parameter block; dynamic AIPP only).
 * Output f32 [N, out_c, out_h, out_w] (NHWC when nhwc). Static: `aipp` (with
 * explicit source and crop sizes) is copied at create, N = images dim 0;
 * dynamic (aipp NULL): N = n, every image's parameters come from the block
 * at run (docs/aipp.md "Dynamic parameter block"). */
struct oa_aipp_params;
typedef struct oa_kaipp_params {
    const struct oa_aipp_params *aipp;
    int64_t n;
    int out_c;
    int32_t out_h, out_w;
    bool nhwc;
} oa_kaipp_params;
/* --- Indexing (index.c), one sub-op each; every dtype unless noted, indices
 * i32/i64, negative indices wrap once, an index still out of range fails the
 * run with OA_E_PARAM before anything is written out of bounds.
 *   GATHER_ND: x, indices [..., q] (batch_dims b): y = indices.shape[:-1] +
 *     x.shape[b+q:].
 *   SCATTER_ND: x, indices [..., q], updates; y = x with the slices updated
 *     (reduction none/add/mul/max/min, computed in x's dtype; f16/bf16 through
 *     f32 per element).
 *   SCATTER_ELEMENTS: x, indices, updates (indices' shape); axis, reduction.
 *   ONE_HOT: indices (any real dtype, truncated), depth (host scalar),
 *     on_value, off_value (scalars of y's dtype, read at run); axis; indices
 *     outside [-depth, depth) give a row of off_value.
 *   EYE_LIKE: x (2-D, only its shape is read); y of the output desc's dtype,
 *     ones on diagonal k (axis).
 *   CUMSUM: x, axis (host scalar); exclusive, reverse; numeric dtypes.
 *   REVERSE_SEQUENCE: x, sequence_lens (i32/i64, read at run); time_axis
 *     (axis) and batch_axis (batch_dims), 0 and 1 in some order.
 *   NON_ZERO: x (any dtype); y i64 [rank, n].
 *   UNIQUE: x; axis (has_axis, else flattened), sorted; outputs y, indices,
 *     inverse_indices, counts (i64; any may be UNDEFINED).
 *   TFIDF: x (i32/i64, [C] or [N, C]), pool (i64), ngram_counts (i64),
 *     ngram_indexes (i64), weights (f32, optional): host inputs; y f32.
 * Data-dependent outputs (NON_ZERO's n, UNIQUE's unique count): the outputs
 * are described at their upper bound (n = numel along the dim) and an extra
 * trailing i64 scalar output receives the real count; the outputs are then
 * written packed for that count. Without that output the described dims
 * must equal the real ones, else run fails with OA_E_PARAM. */
typedef enum oa_kindex_op {
    OA_KIDX_GATHER_ND, OA_KIDX_SCATTER_ND, OA_KIDX_SCATTER_ELEMENTS, OA_KIDX_ONE_HOT, OA_KIDX_EYE_LIKE,
    OA_KIDX_CUMSUM, OA_KIDX_REVERSE_SEQUENCE, OA_KIDX_NON_ZERO, OA_KIDX_UNIQUE, OA_KIDX_TFIDF,
    OA_KIDX_COUNT
} oa_kindex_op;
typedef enum oa_kscatter_red {
    OA_KSCAT_NONE, OA_KSCAT_ADD, OA_KSCAT_MUL, OA_KSCAT_MAX, OA_KSCAT_MIN
} oa_kscatter_red;
typedef enum oa_ktfidf_mode { OA_KTFIDF_TF, OA_KTFIDF_IDF, OA_KTFIDF_TFIDF } oa_ktfidf_mode;
typedef struct oa_kindex_params {
    oa_kindex_op op;
    int64_t axis;       /* ScatterElements, OneHot, Cumsum, Unique; EyeLike k; ReverseSequence time axis */
    int64_t batch_dims; /* GatherND; ReverseSequence batch axis */
    oa_kscatter_red reduction;
    bool exclusive, reverse; /* Cumsum */
    bool has_axis, sorted;   /* Unique */
    oa_ktfidf_mode mode;     /* TfIdf */
    int64_t min_gram, max_gram, max_skip;
} oa_kindex_params;
/* --- GridSampler2D (sample.c): x [N,C,H,W], grid [N,Ho,Wo,2] -> y [N,C,Ho,Wo], f32. */
typedef enum oa_kgs_mode { OA_KGS_BILINEAR, OA_KGS_NEAREST, OA_KGS_BICUBIC } oa_kgs_mode;
typedef enum oa_kgs_padding { OA_KGS_PAD_ZEROS, OA_KGS_PAD_BORDER, OA_KGS_PAD_REFLECTION } oa_kgs_padding;
typedef struct oa_kgrid_sample_params {
    oa_kgs_mode mode;
    oa_kgs_padding padding;
    bool align_corners;
} oa_kgrid_sample_params;

/* --- MatrixDeterminant (sample.c): x [..., M, M] -> y [...], f32 or f64,
 * by LU decomposition with partial pivoting in double. No params. */

/* --- int8 (conv_int8.c; docs/int8.md): the quantized activations are u8
 * or s8 tensors in NHWC order ([N, H, W, C], plain desc of those dims).
 *   QUANTIZE   x f32 [N,C,H,W] -> y u8/s8 [N,H,W,C]: saturate(round_half_even(x / y_scale) + y_zp)
 *   DEQUANTIZE x u8/s8 [N,H,W,C] -> y f32 [N,C,H,W]: (x - x_zp) * x_scale
 *   CONV       x u8/s8 [N,H,W,C], filter s8 [O, C/groups, kh, kw] (constant), w_scale f32 [O] or [1]
 *              (constant), bias f32 [O] (optional, constant, real units) -> y u8/s8 [N,OH,OW,O]:
 *              y = saturate(round(act(x_scale * w_scale[o] * sum((x - x_zp) * w) + bias[o]) / y_scale) + y_zp)
 *              with act = relu when `relu`; oneDNN's int8 primitive (VNNI where the CPU has it).
 *   ADD        a, b u8/s8 (same dims) -> y u8/s8: saturate(round(act((a - x_zp) * x_scale + (b - b_zp) * b_scale)
 *              / y_scale) + y_zp)
 *   MAXPOOL    x u8/s8 [N,H,W,C] -> y (same dtype) [N,OH,OW,C]: the window maximum (ksize, strides, pads;
 *              padding never wins), i.e. DQ -> MaxPool -> Q with one scale and zero point
 *   GAP        x u8/s8 [N,H,W,C] -> y u8/s8 [N,1,1,C]: saturate(round(mean((x - x_zp) * x_scale) / y_scale)
 *              + y_zp), the mean of the exact integer sum
 *   MATMUL     x u8/s8 [M,K], w s8 [K,N] ([N,K] with transpose_b; constant), w_scale f32 [N] or [1]
 *              (constant), bias f32 [N] (optional, constant) -> y f32 [M,N]:
 *              act(x_scale * w_scale[n] * sum_k((x - x_zp) * w) + bias[n]); oneDNN's int8 matmul
 * QUANTIZE / DEQUANTIZE of a rank other than 4 keep the layout (plain, same dims).
 * The output dtype is the out desc's (u8 or s8; MATMUL f32). */
typedef enum oa_kquant_op {
    OA_KQ_QUANTIZE, OA_KQ_DEQUANTIZE, OA_KQ_CONV, OA_KQ_ADD, OA_KQ_MAXPOOL, OA_KQ_GAP, OA_KQ_MATMUL
} oa_kquant_op;
typedef struct oa_kquant_params {
    oa_kquant_op op;
    float x_scale, b_scale, y_scale;
    int32_t x_zp, b_zp, y_zp;
    bool relu;
    int64_t strides[2], dilations[2], pads[4], groups; /* CONV, as oa_kconv_params; MAXPOOL strides, pads */
    int64_t ksize[2];                                  /* MAXPOOL window h, w */
    bool transpose_b;                                  /* MATMUL: w is [N, K] */
} oa_kquant_params;

/* Every family's parameters (the member of the op's family is the one in use). */
typedef union oa_kparams {
    oa_kconv_params conv;
    oa_kmatmul_params matmul;
    oa_kbatchnorm_params bn;
    oa_klayernorm_params ln;
    oa_ksoftmax_params softmax;
    oa_kbinary_params binary;
    oa_kunary_params unary;
    oa_kpool_params pool;
    oa_kreduce_params reduce;
    oa_kcast_params cast;
    oa_ktranspose_params transpose;
    oa_kconcat_params concat;
    oa_ksplit_params split;
    oa_kslice_params slice;
    oa_kgather_params gather;
    oa_kpad_params pad;
    oa_kresize_params resize;
    oa_ktopk_params topk;
    oa_knms_params nms;
    oa_klstm_params lstm;
    oa_kconvref_params convref;
    oa_kaipp_params aipp;
    oa_kindex_params index;
    oa_kgrid_sample_params grid_sample;
    oa_kquant_params quant;
} oa_kparams;

/* --- Copy (Reshape, Squeeze, Unsqueeze, Identity, Flatten, ExpandDims):
 * byte copy of x into y (same element count and dtype, any dims). The
 * output dims come from the output desc; extra inputs (shape, axes) are
 * ignored by the kernel. In-place: yes (then nothing is copied). NCHWc:
 * only when x and y have the same dims (identity). */

/* --- Reorder: NCHW -> NCHWc or back; the layouts of x and y decide. f32. */

/* ------------------------------------------------------------------------- */
/* Lifecycle                                                                  */

typedef struct oa_kop oa_kop;

/*
 * Output shapes and dtypes for the given params and inputs (host inputs
 * must carry data). Writes out[0..n_out) dtype/rank/dims (layout follows the
 * first 4-D activation input). Pure; thread-safe. Success also answers
 * "is this op supported for these descs" (the `supports` query), except for
 * the constant-weight requirements checked by create (Conv2D filter).
 * Where an output dtype is selectable (TopK indices, NMS output i32/i64) the
 * dtype already in out[] is kept when valid.
 */
oa_status oa_kernel_infer(oa_kop_type type, const void *params, int n_in, const oa_ktensor *in, int n_out,
                          oa_ktensor *out) OA_MUST_CHECK;

/*
 * Creates an operator. `params` points at the family's parameter struct
 * (NULL allowed for families without one). in/out describe every input and
 * output; out must match what oa_kernel_infer() gives. Host inputs and
 * constant weights carry data (borrowed during the call).
 * [out] *out_op: owned by the caller, released with oa_kop_destroy().
 */
oa_status oa_kop_create(oa_kop_type type, const void *params, int n_in, const oa_ktensor *in, int n_out,
                        const oa_ktensor *out, oa_kop **out_op) OA_MUST_CHECK;

/*
 * Constants a kernel is done with while it is created (it packed them and will not read them again):
 * oa_kop_create's caller may set a hook on its thread that releases their pages (a model loader's
 * read-only mapping of its file, docs/memory.md "Packing and the load's peak"), so that a large
 * constant's source and its packed copy are not both resident at the end of its packing. Kernels
 * call oa_kconst_consumed on each part as they finish it; without a hook it does nothing.
 */
typedef void (*oa_kconst_hook)(void *ctx, const void *p, size_t len);
void oa_kconst_set_hook(oa_kconst_hook hook, void *ctx); /* this thread; NULL: none */
void oa_kconst_consumed(const void *p, size_t len);

/* Arrays derived from constants (transformed or packed filters) alive in the process, and their bytes; those
 * derived from a stable constant (oa_ktensor.stable) in one form count once however many operators share them. */
void oa_kderived_stats(size_t *arrays, size_t *bytes);

/* Workspace bytes run needs (0 if none). Pure. */
size_t oa_kop_workspace_size(const oa_kop *op);

/*
 * New shapes for the same op (same params, same number and dtypes of
 * inputs/outputs). Rebuilds what depends on shapes; the workspace size may
 * change. On failure the op keeps its previous state.
 */
oa_status oa_kop_reshape(oa_kop *op, int n_in, const oa_ktensor *in, int n_out, const oa_ktensor *out) OA_MUST_CHECK;

/*
 * Runs the op. inputs/outputs hold one data pointer per desc given at
 * create (NULL for absent optional inputs and for host/constant inputs,
 * whose data were captured). workspace: oa_kop_workspace_size() bytes,
 * 64-byte aligned (may be NULL when that size is 0). pool may be NULL.
 */
oa_status oa_kop_run(const oa_kop *op, const void *const *inputs, void *const *outputs, void *workspace,
                     oa_threadpool *pool) OA_MUST_CHECK;

/*
 * Whether run reads the bytes of input i: false for a constant the op packed
 * or copied at create (conv weights and bias, MatMul's b and bias when kept
 * in the op), so the caller may drop that constant's memory after create;
 * true otherwise (also for i out of range, and NULL op: the safe answer).
 */
bool oa_kop_reads_input_at_run(const oa_kop *op, int i);

/* Releases the op and everything it owns. Accepts NULL. */
void oa_kop_destroy(oa_kop *op);

/* Op type, and a short name of the implementation chosen ("ref", "avx2", "onednn", ...). */
oa_kop_type oa_kop_get_type(const oa_kop *op);
const char *oa_kop_impl_name(const oa_kop *op);

/*
 * Threads per operator and per model (docs/runtime.md "Threads per operator"). A learner times its first runs
 * with a pool of two or more threads alternately with the pool and on the calling thread alone, then keeps the
 * faster. oa_kop_run does it for every operator (one whose first pooled run takes 200 us or more keeps the pool
 * at once); the static executor does it for a whole run on top (model_v1). The results are the same either
 * way: every kernel splits its outputs, never a sum. OPENACL_OP_THREADS=pool keeps the pool everywhere.
 */
enum { OA_KTHREADS_LEARNING = 0, OA_KTHREADS_POOL = 1, OA_KTHREADS_CALLER = 2 };
/* Runs an operator's learner takes at most with the pool (2 untimed, then 4 of each mode): a model's own learner
 * starts after them, so that its pooled runs time operators that have chosen. */
#define OA_KTHREADS_OP_RUNS 10u
typedef struct oa_kthreads {
    _Atomic uint32_t calls;   /* runs with a pool of two or more threads */
    _Atomic uint64_t best[2]; /* fastest timed run, ns: [0] with the pool, [1] on the calling thread (0: none) */
    _Atomic int choice;       /* OA_KTHREADS_* */
} oa_kthreads;
/* The pool this run uses (pool or NULL); *timed = -1 when the run is not timed, else the mode it measures
 * (0 pool, 1 caller), to hand to oa_kthreads_learn with its duration. `warm` first runs are untimed. */
oa_threadpool *oa_kthreads_pick(oa_kthreads *t, oa_threadpool *pool, uint32_t warm, int *timed);
/* Records a timed run; decides after 6 runs of each mode, at once when the pool's run took at least big_ns
 * (0: never) or the caller's took 1.5x the pool's. Returns the choice this call made (else LEARNING). */
int oa_kthreads_learn(oa_kthreads *t, uint32_t warm, int mode, uint64_t ns, uint64_t big_ns);
/* What an operator's learner chose (OA_KTHREADS_LEARNING until then). */
int oa_kop_threads_choice(const oa_kop *op);

/*
 * Convenience for executors that run an op once (aclop single ops, tests):
 * create → allocate the workspace → run → destroy. Allocates; not for hot paths.
 */
oa_status oa_kernel_run_once(oa_kop_type type, const void *params, int n_in, const oa_ktensor *in,
                             const void *const *in_data, int n_out, const oa_ktensor *out, void *const *out_data,
                             oa_threadpool *pool) OA_MUST_CHECK;

#endif /* OA_KERNELS_KERNELS_H */
