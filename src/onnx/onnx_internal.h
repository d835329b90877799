/*
 * Importer internals shared by onnx_import.c (model and graph structure),
 * onnx_tensor.c (tensors, external data) and onnx_ops*.c (op mappings).
 */
#ifndef OA_ONNX_ONNX_INTERNAL_H
#define OA_ONNX_ONNX_INTERNAL_H

#include "base/error.h"
#include "graph/graph.h"
#include "graph/strmap.h"
#include "onnx/onnx.pb-c.h"
#include "onnx/onnx_import.h"

#define OA_ONNX_MIN_OPSET 1
#define OA_ONNX_MAX_OPSET 21

/* A produced value: output `index` of `node`. */
typedef struct onnx_value {
    oa_node *node;
    uint32_t index;
} onnx_value;

/* One ONNX graph being converted into one oa_graph. */
typedef struct onnx_scope {
    oa_graph *g;
    oa_strmap values;     /* ONNX tensor name -> onnx_value* (arena) */
    const char *prefix;   /* "" for the root, "<subgraph name>/" inside subgraphs */
    const Onnx__GraphProto *gp; /* the ONNX graph (declared ranks for the opset 1-6 broadcasts) */
    oa_strmap seqs;       /* ONNX sequence name -> onnx_seq* (arena; onnx_ops_seq.c) */
} onnx_scope;

/* Node proto -> assigned name (for unnamed nodes), sorted by pointer. */
typedef struct onnx_name_entry {
    const Onnx__NodeProto *np;
    const char *name;
} onnx_name_entry;

typedef struct onnx_importer {
    const oa_onnx_options *opt;
    const char *model_dir;          /* NULL: no external data */
    int64_t opset;                  /* default-domain opset */
    oa_graph *root;
    oa_blob *msg_blob;              /* keeps the unpacked ModelProto alive */
    uint64_t pc_counter;            /* PartitionedCall naming counter */
    onnx_name_entry *names;         /* names of unnamed nodes (malloc'd) */
    size_t num_names;
    oa_strmap ext_files;            /* resolved external path -> oa_blob* (mapped) */
    int64_t train_opset;            /* ai.onnx.preview.training version, -1 when not imported */
} onnx_importer;

/* Per-ONNX-node conversion context. */
#define ONNX_MAX_CREATED 256
typedef struct onnx_node_ctx {
    onnx_importer *imp;
    onnx_scope *sc;
    const Onnx__NodeProto *np;
    const char *name;               /* scoped node name (unique in the graph) */
    const char *base_name;          /* ONNX node name (or the assigned one), unscoped */
    const char *op_type;
    int64_t opset;
    int ge_type;                    /* oa_op_type for direct mappings */
    oa_node *created[ONNX_MAX_CREATED];
    const char *roles[ONNX_MAX_CREATED];
    int num_created;
} onnx_node_ctx;

typedef oa_status (*onnx_op_fn)(onnx_node_ctx *c);

/* Op table entry (onnx_ops.c). */
typedef struct onnx_op_entry {
    const char *onnx_type;
    int min_opset;
    int max_opset;
    onnx_op_fn fn;
    int ge_type;  /* oa_op_type used by generic handlers, -1 otherwise */
} onnx_op_entry;

/* Finds the handler for op_type at opset; NULL when unsupported. */
const onnx_op_entry *oa_onnx_find_op(const char *op_type, int64_t opset);

/* ---- tensors (onnx_tensor.c) ---- */

/* Converts an initializer / Constant tensor into a Const or FileConstant
 * node named `name` in sc's graph. what names the tensor in messages. */
oa_status oa_onnx_make_const_node(onnx_importer *imp, onnx_scope *sc, const Onnx__TensorProto *tp,
                                  const char *name, const char *what, oa_node **out);
/* Converts an in-message tensor (no external data) into an oa_tensor. */
oa_status oa_onnx_tensor_from_proto(onnx_importer *imp, oa_graph *g, const Onnx__TensorProto *tp, const char *what,
                                    oa_tensor **out);
/* Validates dims of a tensor proto into a shape. */
oa_status oa_onnx_tensor_shape(const Onnx__TensorProto *tp, const char *what, oa_shape *out);

/* ---- node context helpers (onnx_ops.c) ---- */

/* True when ONNX input i is given (exists and is not ""). */
bool oa_onnx_has_input(const onnx_node_ctx *c, uint32_t i);
/* True when ONNX output j is requested (exists and is not ""). */
bool oa_onnx_has_output(const onnx_node_ctx *c, uint32_t j);
/* Creates a node of type t with a temporary name; recorded for naming. */
oa_status oa_onnx_emit(onnx_node_ctx *c, oa_op_type t, const char *role, uint32_t nin, uint32_t nout,
                       oa_node **out);
/* Connects `node` slot to ONNX input i (must be present). */
oa_status oa_onnx_connect_input(onnx_node_ctx *c, oa_node *node, uint32_t slot, uint32_t i);
/* Connects `node` slot to output `idx` of `src`. */
oa_status oa_onnx_connect(oa_node *node, uint32_t slot, oa_node *src, uint32_t idx);
/* Binds ONNX output j to node:idx (no-op for an omitted output). */
oa_status oa_onnx_bind_output(onnx_node_ctx *c, uint32_t j, oa_node *node, uint32_t idx);
/* Producer of ONNX input i, or NULL when absent. */
const char *oa_onnx_input_name(const onnx_node_ctx *c, uint32_t i);
const onnx_value *oa_onnx_input_value(const onnx_node_ctx *c, uint32_t i);
/* Const nodes (0-D when scalar, else 1-D of n elements). */
oa_status oa_onnx_const_i64(onnx_node_ctx *c, const char *role, const int64_t *v, size_t n, bool scalar,
                            oa_node **out);
oa_status oa_onnx_const_i32(onnx_node_ctx *c, const char *role, const int64_t *v, size_t n, bool scalar,
                            oa_node **out);
oa_status oa_onnx_const_f32(onnx_node_ctx *c, const char *role, const float *v, size_t n, bool scalar,
                            oa_node **out);

/* Attributes. Missing optional attributes give the default; a present
 * attribute of the wrong type is an error. */
const Onnx__AttributeProto *oa_onnx_attr(const onnx_node_ctx *c, const char *name);
oa_status oa_onnx_attr_int(const onnx_node_ctx *c, const char *name, int64_t dflt, int64_t *out);
oa_status oa_onnx_attr_float(const onnx_node_ctx *c, const char *name, float dflt, float *out);
oa_status oa_onnx_attr_str(const onnx_node_ctx *c, const char *name, const char *dflt, const char **out);
/* *v = NULL, *n = 0 when absent. */
oa_status oa_onnx_attr_ints(const onnx_node_ctx *c, const char *name, const int64_t **v, size_t *n);
oa_status oa_onnx_attr_floats(const onnx_node_ctx *c, const char *name, const float **v, size_t *n);
oa_status oa_onnx_attr_required(const onnx_node_ctx *c, const char *name);

/* Declared rank of ONNX value `name` in the node's graph (graph inputs,
 * value_info, initializers); -1 when unknown. dim0 receives the first dim
 * when known (else -1). */
int64_t oa_onnx_declared_rank(const onnx_node_ctx *c, const char *name, int64_t *dim0);
/* Declared element type (GE dtype) of ONNX value `name` in the node's graph:
 * initializers, graph inputs, value_info, outputs, a Cast or a Constant node;
 * false when unknown. */
bool oa_onnx_declared_dtype(const onnx_node_ctx *c, const char *name, oa_dtype *dt);
/* Runs the direct mapping of c->ge_type (ONNX inputs positional, outputs bound)
 * and sets *n to the node it emitted, for the caller to add attributes. */
oa_status oa_onnx_direct_then(onnx_node_ctx *c, oa_node **n);

/* Failure with the ONNX node prefix. */
#define ONNX_FAIL(c, st, fmt, ...) \
    OA_FAIL((st), "ONNX node %s (%s): " fmt, (c)->name, (c)->op_type, ##__VA_ARGS__)

/* ---- handlers needing graph-level help (onnx_import.c) ---- */
oa_status oa_onnx_convert_if(onnx_node_ctx *c);
oa_status oa_onnx_convert_constant(onnx_node_ctx *c);

/* Handlers in onnx_ops_nn.c. */
oa_status oa_onnx_op_conv(onnx_node_ctx *c);
oa_status oa_onnx_op_conv_transpose(onnx_node_ctx *c);
oa_status oa_onnx_op_pool(onnx_node_ctx *c);
oa_status oa_onnx_op_batch_norm(onnx_node_ctx *c);
oa_status oa_onnx_op_layer_norm(onnx_node_ctx *c);
oa_status oa_onnx_op_resize(onnx_node_ctx *c);
oa_status oa_onnx_op_upsample(onnx_node_ctx *c);
oa_status oa_onnx_op_lstm(onnx_node_ctx *c);
oa_status oa_onnx_op_nms(onnx_node_ctx *c);
oa_status oa_onnx_op_gemm(onnx_node_ctx *c);
oa_status oa_onnx_op_matmul(onnx_node_ctx *c);

/* Handlers in onnx_ops_composed.c. */
oa_status oa_onnx_op_nll_loss(onnx_node_ctx *c);
oa_status oa_onnx_op_sce_loss(onnx_node_ctx *c);
oa_status oa_onnx_op_trilu(onnx_node_ctx *c);
oa_status oa_onnx_op_dequantize(onnx_node_ctx *c);
oa_status oa_onnx_op_quantize(onnx_node_ctx *c);
oa_status oa_onnx_op_instance_norm(onnx_node_ctx *c);
oa_status oa_onnx_op_hardmax(onnx_node_ctx *c);
oa_status oa_onnx_op_depth_space(onnx_node_ctx *c);

/* Handlers in onnx_ops_reduce.c. */
oa_status oa_onnx_op_gather_elements(onnx_node_ctx *c);
/* onnx_ops_index.c */
oa_status oa_onnx_op_gather_nd(onnx_node_ctx *c);
oa_status oa_onnx_op_scatter(onnx_node_ctx *c);
oa_status oa_onnx_op_one_hot(onnx_node_ctx *c);
oa_status oa_onnx_op_eye_like(onnx_node_ctx *c);
oa_status oa_onnx_op_cumsum(onnx_node_ctx *c);
oa_status oa_onnx_op_reverse_sequence(onnx_node_ctx *c);
oa_status oa_onnx_op_unique(onnx_node_ctx *c);
oa_status oa_onnx_op_compress(onnx_node_ctx *c);
oa_status oa_onnx_op_tfidf(onnx_node_ctx *c);
oa_status oa_onnx_op_gather(onnx_node_ctx *c);
oa_status oa_onnx_op_pad(onnx_node_ctx *c);
oa_status oa_onnx_op_clip(onnx_node_ctx *c);
oa_status oa_onnx_op_constant_of_shape(onnx_node_ctx *c);
oa_status oa_onnx_op_reduce(onnx_node_ctx *c);
oa_status oa_onnx_op_reduce_composite(onnx_node_ctx *c);
oa_status oa_onnx_op_arg(onnx_node_ctx *c);
oa_status oa_onnx_op_minmax(onnx_node_ctx *c);
oa_status oa_onnx_op_mean(onnx_node_ctx *c);
oa_status oa_onnx_op_topk(onnx_node_ctx *c);

/* ---- the extension table (onnx_ops_ext.c): sequences, integer/quantized, signal, random, training ---- */

#define OA_ONNX_TRAINING_DOMAIN "ai.onnx.preview.training"

/* The row converting node np (onnx_import.c), NULL when unsupported. */
const onnx_op_entry *oa_onnx_node_op(const onnx_importer *imp, const Onnx__NodeProto *np);

/* Row for (domain, op_type) at opset (the default-domain opset, or the
 * domain's own version); NULL when unsupported. "" and "ai.onnx" are the default domain. */
const onnx_op_entry *oa_onnx_find_ext_op(const char *domain, const char *op_type, int64_t opset);
size_t oa_onnx_ext_ops(const char **names, size_t cap);

/* A compact builder for the composed mappings of the extension files: a
 * sticky status (every call after a failure does nothing and returns a null
 * value), values as (node, output). */
typedef struct onnx_tv {
    oa_node *n;
    uint32_t i;
} onnx_tv;
/* Plain status-returning forms, for the composed mappings (onnx_ops_composed.c):
 * a node of type t on nin inputs with one output, and ONNX input i (must be present). */
oa_status oa_onnx_emit_tv(onnx_node_ctx *c, oa_op_type t, const char *role, const onnx_tv *in, uint32_t nin,
                          onnx_tv *out);
oa_status oa_onnx_in_tv(onnx_node_ctx *c, uint32_t i, onnx_tv *out);
typedef struct onnx_xb {
    onnx_node_ctx *c;
    oa_status st;
} onnx_xb;
/* ONNX input i (must be present). */
onnx_tv oa_xb_in(onnx_xb *b, uint32_t i);
/* A node of type t with nin inputs (ins) and one output. */
onnx_tv oa_xb_op(onnx_xb *b, oa_op_type t, const char *role, const onnx_tv *ins, uint32_t nin);
onnx_tv oa_xb_un(onnx_xb *b, oa_op_type t, const char *role, onnx_tv x);
onnx_tv oa_xb_bin(onnx_xb *b, oa_op_type t, const char *role, onnx_tv x, onnx_tv y);
onnx_tv oa_xb_f32(onnx_xb *b, const char *role, float v);
/* A Const node of dtype dt and shape holding size bytes of data. */
onnx_tv oa_xb_const(onnx_xb *b, const char *role, oa_dtype dt, const oa_shape *shape, const void *data, size_t size);
onnx_tv oa_xb_cast(onnx_xb *b, const char *role, onnx_tv x, oa_dtype to);
/* Sets an int / int-list attribute on v's node. */
void oa_xb_int(onnx_xb *b, onnx_tv v, const char *name, int64_t x);
void oa_xb_ints(onnx_xb *b, onnx_tv v, const char *name, const int64_t *x, size_t n);
/* Binds ONNX output j to v. */
void oa_xb_out(onnx_xb *b, uint32_t j, onnx_tv v);

/* Handlers in onnx_ops_quant.c. */
oa_status oa_onnx_op_matmul_integer(onnx_node_ctx *c);
oa_status oa_onnx_op_conv_integer(onnx_node_ctx *c);
oa_status oa_onnx_op_qlinear_matmul(onnx_node_ctx *c);
oa_status oa_onnx_op_qlinear_conv(onnx_node_ctx *c);
oa_status oa_onnx_op_dynamic_quantize(onnx_node_ctx *c);

/* Handlers in onnx_ops_signal.c. */
oa_status oa_onnx_op_hann_window(onnx_node_ctx *c);
oa_status oa_onnx_op_hamming_window(onnx_node_ctx *c);
oa_status oa_onnx_op_blackman_window(onnx_node_ctx *c);
oa_status oa_onnx_op_dft(onnx_node_ctx *c);
oa_status oa_onnx_op_stft(onnx_node_ctx *c);
oa_status oa_onnx_op_mel_weight_matrix(onnx_node_ctx *c);

/* Handlers in onnx_ops_random.c. */
oa_status oa_onnx_op_random_uniform(onnx_node_ctx *c);
oa_status oa_onnx_op_random_uniform_like(onnx_node_ctx *c);
oa_status oa_onnx_op_random_normal(onnx_node_ctx *c);
oa_status oa_onnx_op_random_normal_like(onnx_node_ctx *c);
oa_status oa_onnx_op_bernoulli(onnx_node_ctx *c);

/* Converts the nodes of graph `gp` (a Scan / Loop body) into c's graph,
 * its inputs bound to in[0..n_in) and the enclosing scope's tensors visible;
 * out receives its gp->n_output outputs. Node names get "<tag>/" (onnx_import.c). */
oa_status oa_onnx_inline_body(onnx_node_ctx *c, const Onnx__GraphProto *gp, const onnx_value *in, size_t n_in,
                              onnx_value *out, const char *tag);
/* Outer tensors the node's then/else branches or body read (sorted, malloc'd array; onnx_import.c). */
oa_status oa_onnx_free_vars(const Onnx__NodeProto *np, const char ***names, size_t *count);
/* onnx_ops_scan.c */
oa_status oa_onnx_op_loop(onnx_node_ctx *c);
oa_status oa_onnx_op_scan(onnx_node_ctx *c);

/* Handlers in onnx_ops_train.c (ai.onnx.preview.training). */
oa_status oa_onnx_op_adagrad(onnx_node_ctx *c);
oa_status oa_onnx_op_momentum(onnx_node_ctx *c);
oa_status oa_onnx_op_adam(onnx_node_ctx *c);
/* onnx_ops_grad.c */
oa_status oa_onnx_op_gradient(onnx_node_ctx *c);

/* Declared dims of ONNX value `name` of the node's graph (initializers,
 * inputs, value_info, outputs; -1 for a dim that is not a number); returns
 * the rank, -1 when unknown (onnx_ops_seq.c). */
int64_t oa_onnx_declared_dims(const onnx_node_ctx *c, const char *name, int64_t dims[OA_MAX_RANK]);

/* Handlers in onnx_ops_seq.c. */
oa_status oa_onnx_seq_empty(onnx_node_ctx *c);
oa_status oa_onnx_seq_construct(onnx_node_ctx *c);
oa_status oa_onnx_seq_insert(onnx_node_ctx *c);
oa_status oa_onnx_seq_erase(onnx_node_ctx *c);
oa_status oa_onnx_seq_at(onnx_node_ctx *c);
oa_status oa_onnx_seq_length(onnx_node_ctx *c);
oa_status oa_onnx_split_to_seq(onnx_node_ctx *c);
oa_status oa_onnx_concat_from_seq(onnx_node_ctx *c);
/* Handlers in onnx_ops_nn_extra.c. */
oa_status oa_onnx_op_lrn(onnx_node_ctx *c);
oa_status oa_onnx_op_mvn(onnx_node_ctx *c);
oa_status oa_onnx_op_batch_norm_training(onnx_node_ctx *c);
oa_status oa_onnx_op_grid_sample(onnx_node_ctx *c);

#endif /* OA_ONNX_ONNX_INTERNAL_H */
