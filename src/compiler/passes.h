/*
 * Graph passes of the compiler. Each pass is a small function over one
 * graph that also visits the subgraphs owned by that graph's nodes (If
 * branches, Case gears). They keep GE op types (Netron still shows Conv2D)
 * and record what they fused in private `_oa_` attributes (README.md,
 * "Encoding").
 *
 * Common contract
 *   [in,out] g        graph to rewrite (root or subgraph); shapes, dtypes
 *                     and values must be inferred (oa_graph_infer) before
 *                     the passes that need them (noted below)
 *   [out]    changed  may be NULL; incremented by the number of rewrites
 *   Errors: OA_E_NOMEM, and OA_E_GE_PARAM/OA_E_INTERNAL for broken graphs,
 *   reported once. A pass that finds nothing to do returns OA_OK.
 *   After a pass the graph is valid (oa_graph_validate) and topologically
 *   sorted; descs of untouched nodes are unchanged.
 */
#ifndef OA_COMPILER_PASSES_H
#define OA_COMPILER_PASSES_H

#include <stddef.h>

#include "base/status.h"
#include "graph/graph.h"

/*
 * Removes nodes that only forward their input:
 *   Identity (ONNX Identity and Dropout), Cast to the input's dtype,
 *   Reshape/Flatten/FlattenV2/Squeeze/SqueezeV3/Unsqueeze/UnsqueezeV3/
 *   ExpandDims/Expand/BroadcastTo/Tile whose static output shape equals the
 *   input's, ConcatD/ConcatV2D with one input.
 * Consumers then read the input directly; control edges move to the
 * producer. Needs inferred shapes.
 */
OA_MUST_CHECK oa_status oa_pass_remove_identity(oa_graph *g, size_t *changed);

/*
 * Dead code: removes nodes whose outputs nobody reads (data or control),
 * repeatedly. Data and NetOutput nodes stay; control-only uses of a dead
 * node are dropped with it.
 */
OA_MUST_CHECK oa_status oa_pass_dce(oa_graph *g, size_t *changed);

/*
 * Constant folding: every output whose value is fully known at compile time
 * (value inference: Const inputs, Shape/Size of static tensors and the
 * integer chains on them) becomes a Const; shape-only ops (Reshape,
 * Squeeze, Unsqueeze, Flatten, ExpandDims, Identity) of a Const of any size
 * become a Const sharing its bytes. Dead producers are removed. Needs
 * inferred values; re-infer afterwards is not needed.
 */
OA_MUST_CHECK oa_status oa_pass_fold_constants(oa_graph *g, size_t *changed);

/*
 * Control flow decided at compile time: an If/StatelessIf with a known
 * condition, or a Case with a known branch index, is replaced by the nodes
 * of the branch it takes (Data -> the If's inputs, results -> its outputs;
 * nested subgraphs copied with a name suffix). Needs inferred values;
 * re-infer afterwards.
 */
OA_MUST_CHECK oa_status oa_pass_inline_known_branches(oa_graph *g, size_t *changed);

/*
 * BatchNorm folding: Conv2D/Conv2DTranspose -> BatchNorm (inference, NCHW,
 * constant f32 parameters, the conv output read only by the BatchNorm)
 * becomes the conv with new constant filter and bias:
 *   s = scale / sqrt(variance + epsilon)
 *   W'[o] = W[o] * s[o],  b'[o] = (b[o] - mean[o]) * s[o] + offset[o]
 */
OA_MUST_CHECK oa_status oa_pass_fold_batchnorm(oa_graph *g, size_t *changed);

/*
 * Affine folding: a constant per-output-channel (or scalar) Mul, RealDiv
 * (divisor), Add or Sub (subtrahend) right after Conv2D/Conv2DTranspose
 * (per channel: [C,1,1], [1,C,1,1], scalars) or MatMulV2/BatchMatMulV2
 * (per column: [N], [1,N], scalars; Mul/RealDiv only with a constant 2-D
 * weight) is folded into the weights and the bias input. The producer must
 * have no post-ops yet and its output only this consumer.
 */
OA_MUST_CHECK oa_status oa_pass_fold_affine(oa_graph *g, size_t *changed);

/*
 * Affine before a convolution: a constant per-channel (or scalar) Mul
 * and/or Add whose only reader is a Conv2D without padding folds into that
 * conv's weights and bias (PP-OCRv4's learnable affine after HardSwish
 * feeding a pointwise conv). With padding the fold would be wrong at the
 * borders, so it is not done.
 */
OA_MUST_CHECK oa_status oa_pass_fold_input_affine(oa_graph *g, size_t *changed);

/*
 * Post-op fusion into Conv2D, Conv2DTranspose, MatMulV2, BatchMatMulV2
 * (f32), at most 4 post-ops, recorded as `_oa_post_*` attributes:
 *   activations  Relu, Relu6, LeakyRelu, ClipByValue / Maximum / Minimum with
 *                constant scalar bounds, HardSigmoid, HardSwish, Sigmoid,
 *                Tanh, GeluV2 (erf);
 *   patterns     x * Clip(x + 3, 0, 6) / 6 (also * 1/6; a same-type Cast
 *                may sit before the Clip) -> HardSwish;
 *                x * HardSigmoid(x) -> MulHardSigmoid(alpha, beta);
 *                x * 0.5 * (1 + Erf(x / sqrt 2)) (both operand orders) ->
 *                GeluErf;
 *                x * Sigmoid(x) -> Swish(1) (SiLU);
 *                x * Sigmoid(x * c), c a constant scalar -> Swish(c);
 *   residual     Add(y, t) with t of y's exact static shape and dtype, not
 *                a constant -> "Add" post-op reading t from an extra input;
 *   affine       y*c, y+c, y-c, y/c with a constant finite scalar c ->
 *                "Linear" (alpha*y + beta), consecutive ones merged;
 *   SE residual  Add(x, Mul(x, s)) with s a post-op host's output read only
 *                by that Mul -> Mul(x, s) with Linear(1, 1) on s's host
 *                (x + x*s = x*(1 + s)).
 * Every tensor that disappears must have been read only inside the pattern
 * (never a graph output). Needs inferred shapes.
 */
OA_MUST_CHECK oa_status oa_pass_fuse_post_ops(oa_graph *g, size_t *changed);

/*
 * LayerNorm: the pre-opset-17 decomposition
 *   ReduceMean, Sub, Pow(2) (or d*d), ReduceMean, Add(eps), Sqrt, RealDiv,
 *   [Mul(gamma)], [Add(beta)]
 * over trailing axes (keep_dims) becomes one LayerNorm (begin_norm_axis,
 * begin_params_axis, epsilon; missing gamma/beta become ones/zeros), and
 * the BroadcastTo/Expand in front of a LayerNorm's gamma/beta is dropped
 * when the constant already covers the normalised dims. Needs inferred
 * ranks; the trailing dims must be static.
 */
OA_MUST_CHECK oa_status oa_pass_fuse_layernorm(oa_graph *g, size_t *changed);

/*
 * int8: the importer's QuantizeLinear/DequantizeLinear decompositions
 * around Conv2D, Add, Relu, MaxPool and GlobalAveragePool become
 * OaQuantize / OaDequantize / OaQuantConv2D / OaQuantAdd / OaQuantMaxPool /
 * OaQuantGlobalAvgPool, and a MatMul/Gemm on a quantized [M, K] input
 * OaQuantMatMul (u8/s8 NHWC activations; docs/int8.md).
 * Runs before constant folding (the weight DQs must still be visible);
 * re-infers the graph when it changed anything.
 */
OA_MUST_CHECK oa_status oa_pass_qdq_int8(oa_graph *g, size_t *changed);

/*
 * Layout: marks chains of blocked-capable ops that contain a Conv2D to run
 * in NCHWc (GE's NC1HWC0 with C0 = 16 on the descs: format NC1HWC0, shape
 * [N, ceil(C/16), H, W, 16], origin format NCHW, origin shape [N,C,H,W]),
 * inserting TransData nodes only at the chain boundaries. Must run last
 * (inference would not understand the 5-D descs).
 */
OA_MUST_CHECK oa_status oa_pass_layout_nchwc(oa_graph *g, size_t *changed);

/*
 * Slices into Concats: a ConcatD/ConcatV2D input made by a StridedSliceV2 (no masks, unit steps)
 * or Slice that narrows only the concat axis, and read by nothing else, is replaced by the
 * slice's input; `_oa_concat_windows` records (input, offset, length) per folded slice and the
 * kernel copies just that window. Plain layouts only; run after the layout pass on static graphs.
 */
OA_MUST_CHECK oa_status oa_pass_concat_windows(oa_graph *g, size_t *changed);

/* Static-vs-dynamic classification. */
typedef enum oa_shape_class {
    OA_SHAPES_STATIC = 0,  /* every desc static: plan memory at compile time */
    OA_SHAPES_DYNAMIC = 1  /* some shape is only known at run time */
} oa_shape_class;

/* Classifies g with its subgraphs; *first_dynamic (may be NULL) receives
 * the first node with a dynamic output. */
oa_shape_class oa_pass_classify(const oa_graph *g, const oa_node **first_dynamic);

/*
 * atc --precision_mode / --precision_mode_v2 (docs/precision.md). Request:
 * *dtype = NULL for the modes that keep fp32 (must_keep_origin_dtype,
 * force_fp32, origin, unset, the HiFloat8 modes), "DT_BF16" for the bf16
 * modes, "DT_FLOAT16" for the fp16 ones; OA_E_PARAM with E10001 for an
 * unknown value or both flags at once. Mark: every Conv2D, Conv2DTranspose,
 * MatMul(V2), BatchMatMul(V2) and GEMM with an f32 x in g and its subgraphs
 * gets `_oa_compute_dtype` = dtype (dtype NULL: nothing).
 */
OA_MUST_CHECK oa_status oa_precision_request(const char *mode, const char *mode_v2, const char **dtype);
OA_MUST_CHECK oa_status oa_pass_mark_precision(oa_graph *g, const char *dtype, size_t *changed);

#endif /* OA_COMPILER_PASSES_H */
