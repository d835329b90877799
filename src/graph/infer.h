/*
 * Shape, dtype and value inference for every op in op_defs.inc.
 *
 * What inference computes, per output descriptor:
 *   - dtype (GE enum) and shape: numpy-style broadcasting for elementwise
 *     ops; OA_DIM_UNKNOWN (-1) where a dim cannot be known at compile time;
 *     unknown rank where not even the rank is known;
 *   - shape ranges: when an input carries a range (e.g. Data from
 *     `--input_shape=x:1~8,3,224,224`), outputs get [min,max] per dim
 *     (max -1 = unbounded), computed with interval arithmetic;
 *   - values: small integer tensors (<= OA_VALUE_MAX_INT_ELEMS elements)
 *     and tiny float tensors (<= OA_VALUE_MAX_FLOAT_ELEMS) whose content is
 *     known at compile time (Const, Shape of a static or partially static
 *     tensor, and Gather/Slice/Concat/Cast/Unsqueeze/elementwise chains on
 *     them). Shape-taking inputs (Reshape shape, Fill dims, Expand shape,
 *     Resize sizes, Slice begin/end, axes, ...) read these values, so a
 *     model with static input shapes gets fully static shapes. Elements may
 *     be individually unknown (oa_value.unknown).
 * Formats are not inferred: inference keeps the formats importers or
 * readers put on descriptors (output descs default to ND).
 *
 * Control flow: If/StatelessIf/Case/While/PartitionedCall bind their
 * inputs to the subgraph Data nodes (`_parent_node_index`, else `index`
 * + 1 for If/Case, `index` for While/PartitionedCall), infer the
 * subgraphs, and take their NetOutput descs. When an If/Case selector value
 * is known only the selected branch is inferred; otherwise all branches are
 * inferred and their outputs merged (differing dims -> -1, differing ranks
 * -> unknown rank, differing dtypes -> error). Branches are inferred
 * speculatively (not taken, or selector unknown): a branch that cannot run
 * with the given shapes is skipped without reporting, and its descs may be
 * left partially inferred; only when no branch works is an error reported.
 *
 * Failure contract: OA_E_GE_SHAPE for shapes that contradict the op
 * (non-broadcastable, bad reshape, out-of-range axis, ...), OA_E_GE_DATATYPE
 * for dtype conflicts, OA_E_GE_PARAM for missing/invalid attributes or
 * inputs, OA_E_FEATURE_UNSUPPORTED for OA_OP_UNKNOWN nodes. The message
 * names the node and its type. Reported once.
 */
#ifndef OA_GRAPH_INFER_H
#define OA_GRAPH_INFER_H

#include "base/status.h"
#include "graph/graph.h"

/*
 * Infers every node of g in topological order (subgraphs through their
 * control-flow owners). Input slot descs are refreshed from producers
 * first. Descs of nodes already inferred are overwritten. g may be a root
 * or a subgraph whose Data descs were set by the caller.
 */
OA_MUST_CHECK oa_status oa_graph_infer(oa_graph *g);

/* Infers one node from its current input slot descs (refreshed from the
 * producers first) and writes its output descs. */
OA_MUST_CHECK oa_status oa_infer_node(oa_node *n);

/*
 * Runs the inference function of n's op on caller-provided descriptors,
 * without touching n's own descs (the runtime's dynamic-shape path):
 *   in[i]   input i desc, NULL for an unconnected optional input
 *           (num_in may be smaller than n->num_inputs; missing = NULL)
 *   out[k]  output k desc to fill (num_out must equal n->num_outputs)
 *   arena   where inferred values are allocated (e.g. a per-run arena)
 * Control-flow ops still infer their subgraphs in place. An output whose
 * size comes from a value (Expand, Tile, Fill, Range, Pad, Resize rows)
 * above the load limit ($OPENACL_LOAD_LIMIT_MB) is OA_E_GE_PARAM naming the
 * node (oa_graph_infer and oa_infer_node, the compiler's, do not apply it).
 */
OA_MUST_CHECK oa_status oa_infer_run(const oa_node *n, const oa_tensor_desc *const *in, uint32_t num_in,
                                     oa_tensor_desc *const *out, uint32_t num_out, oa_arena *arena);

/* True when every graph output of g (NetOutput inputs) has a static shape. */
bool oa_graph_outputs_static(const oa_graph *g);

/* True when every output desc of every node of g and its subgraphs has a
 * static shape; on false, *first_dynamic (may be NULL) gets the first such
 * node. */
bool oa_graph_fully_static(const oa_graph *g, const oa_node **first_dynamic);

/*
 * Applies user input shapes to the Data nodes of a root graph, in the
 * atc --input_shape syntax:
 *
 *   "name:d0,d1,...;name2:d0,..."
 *
 * Each dim is an integer >= 0, -1 (unknown), or a range "lo~hi" (hi may be
 * -1 = unbounded), which sets the dim to -1 with that range. An empty dim
 * list ("sr:") is a scalar. The name is everything before the LAST ':'
 * (TensorFlow-style names contain ':'). Every named input must exist;
 * a rank that differs from a known model rank, or a static dim that
 * contradicts a static model dim, is an error. Run oa_graph_infer
 * afterwards. Errors: OA_E_PARAM with the offending entry.
 */
OA_MUST_CHECK oa_status oa_graph_set_input_shapes(oa_graph *g, const char *spec);

/* Sets the shape (and optional per-dim range, may be NULL) of one Data node
 * (both its x and y descs). Same checks as above. */
OA_MUST_CHECK oa_status oa_graph_set_input_shape(oa_node *data, const oa_shape *shape, const int64_t *range_min,
                                                 const int64_t *range_max);

#endif /* OA_GRAPH_INFER_H */
