/*
 * Helpers shared by the passes (pass_*.c): constants, uses, rewiring,
 * weight tensors, and the per-graph driver. Internal to oa_compiler.
 */
#ifndef OA_COMPILER_PASS_UTIL_H
#define OA_COMPILER_PASS_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"
#include "graph/graph.h"

/* The tensor of a Const/Constant node, or NULL. */
const oa_tensor *oa_cp_const_tensor(const oa_node *n);

/* The producer of input slot i when it is a Const, else NULL. */
const oa_tensor *oa_cp_input_const(const oa_node *n, uint32_t i);

/* A constant f32 tensor's data and element count (static shape). */
bool oa_cp_const_f32(const oa_tensor *t, const float **data, int64_t *count);

/* Element k of a constant integer tensor (u8, i8, i32, i64) as int64; false for other dtypes or out of range. */
bool oa_cp_const_int(const oa_tensor *t, int64_t k, int64_t *v);

/* Number of elements a constant tensor's bytes hold (0 for NULL or an unknown dtype). */
int64_t oa_cp_const_count(const oa_tensor *t);

/* A constant f32 scalar-like tensor (one element, any rank): its value. */
bool oa_cp_input_scalar(const oa_node *n, uint32_t i, float *v);

/* Number of data uses of output k. */
size_t oa_cp_num_uses(const oa_node *n, uint32_t k);

/* The single consumer of output k (and its slot), or NULL when there are
 * zero or several data uses. */
oa_node *oa_cp_single_use(const oa_node *n, uint32_t k, uint32_t *slot);

/* True when some node has n as a control input. */
bool oa_cp_has_ctrl_uses(const oa_node *n);

/* True when output k of n is read by a NetOutput. */
bool oa_cp_is_graph_output(const oa_node *n, uint32_t k);

/*
 * Makes every consumer of from:from_idx read to:to_idx instead, moves the
 * control edges that leave `from` to `to` (when from != to), then removes
 * `from` if it has no uses left.
 */
OA_MUST_CHECK oa_status oa_cp_replace_and_remove(oa_node *from, uint32_t from_idx, oa_node *to, uint32_t to_idx);

/* Removes n when nothing reads it (no-op otherwise); control edges it
 * gives are dropped. */
OA_MUST_CHECK oa_status oa_cp_remove_if_unused(oa_node *n);

/*
 * A new Const in g named after `base` (made unique) holding a copy of
 * `data` (dt, shape). The bytes live in a reference-counted blob, so graph
 * clones and copies share them.
 */
OA_MUST_CHECK oa_status oa_cp_add_const(oa_graph *g, const char *base, oa_dtype dt, const oa_shape *shape,
                                        const void *data, size_t size, oa_node **out);

/*
 * Classifies a constant operand c against a NCHW-like activation shape y
 * (rank >= 2, channel axis 1) or, with last_axis, against the last axis:
 * returns 1 and fills per[C] (the value for each channel) when c broadcasts
 * to y without growing it and varies at most along that axis; 0 otherwise.
 * `channels` is the size of that axis.
 */
int oa_cp_per_axis(const oa_tensor *c, const oa_shape *y, bool last_axis, int64_t channels, float *per);

/* Appends names to the node's `_datadump_original_op_names` list attr (the
 * node's own name first when the attr is new). */
OA_MUST_CHECK oa_status oa_cp_add_original_names(oa_node *n, const char *const *names, size_t count);

/* Dead-code elimination of g alone (not its subgraphs); see oa_pass_dce. */
OA_MUST_CHECK oa_status oa_cp_dce_local(oa_graph *g, size_t *changed);

/* Calls fn on g and, recursively, every subgraph owned by its nodes. */
typedef oa_status (*oa_cp_graph_fn)(oa_graph *g, size_t *changed);
OA_MUST_CHECK oa_status oa_cp_for_each_graph(oa_graph *g, oa_cp_graph_fn fn, size_t *changed);

/* A Conv2D the packed kernel takes: constant filter and bias (else the
 * direct kernel runs it: plain layout, no fused post-ops). */
bool oa_cp_conv_packed(const oa_node *n);
/* True for Conv2D/Conv2DTranspose/MatMulV2/BatchMatMulV2 (the ops that take
 * post-ops). */
bool oa_cp_is_post_op_host(const oa_node *n);

/* Index of the filter / bias input slots of a post-op host (Conv2DTranspose
 * has input_size first). */
uint32_t oa_cp_weight_slot(const oa_node *n);
uint32_t oa_cp_bias_slot(const oa_node *n);

/* Folds n (inputs all Const) by running it once through the CPU kernels
 * (pass_fold_kernels.c); *done when its output became a Const. */
OA_MUST_CHECK oa_status oa_cp_fold_with_kernels(oa_node *n, bool *done);

#endif /* OA_COMPILER_PASS_UTIL_H */
