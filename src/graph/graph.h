/*
 * The in-memory graph IR: graphs, nodes, edges, attributes, subgraphs.
 *
 * Vocabulary is GE's (docs/ge_ir.md "Why GE names"): op types are GE
 * types (op.h), attribute names are GE attribute names, dtypes and formats
 * are GE enums (types.h). The ONNX importer produces this IR, the .om
 * writer serialises it, the .om reader rebuilds it, compiler passes rewrite
 * it and executors read it.
 *
 * ------------------------------------------------------------------------
 * Model
 *
 *   root graph ──owns──▶ arena (every node, desc, attr, string, subgraph)
 *      │                 blob references (borrowed tensor data)
 *      └─ nodes (ordered list) ──▶ input slots ──▶ (producer node, output index)
 *                                 output descs
 *                                 control inputs
 *                                 attrs
 *                                 subgraphs (If then/else, Case branches,
 *                                            While cond/body, PartitionedCall f)
 *
 * - A node has a fixed number of input slots and outputs (changeable with
 *   oa_node_set_num_inputs / oa_node_set_num_outputs). Slot i is either
 *   connected to output j of a node of the same graph, or unconnected (an
 *   omitted optional input; its desc is "invalid", types.h).
 * - Every input slot has its own descriptor (GE input desc). Connecting and
 *   oa_infer refresh its dtype/shape/range/value from the producer; its
 *   format and origin format are kept, so an importer may mark a Conv2D x
 *   input NCHW while the producer's output stays ND.
 * - Control edges order nodes without data (GE "<src>:-1" inputs).
 * - Subgraphs are graphs owned by a node, allocated in the root's arena.
 *   They communicate with the parent only through their Data nodes (attr
 *   `index`, and `_parent_node_index` = the parent input it binds to) and
 *   their NetOutput (input j = parent output j). Subgraph names are unique
 *   in the whole root (the .om stores all graphs in one list).
 * - Data: one input slot "x" (never connected) whose desc is the declared
 *   input shape, one output "y"; attr `index` = model input position.
 *   NetOutput: input i = graph output i (the desc `name` holds the source
 *   model's output tensor name), outputs mirror the inputs.
 * - Const: attr `value` (OA_ATTR_TENSOR) whose data is owned by the arena
 *   or borrowed from a blob. FileConstant: attrs `location`/`offset`/
 *   `length`/`shape`/`dtype` (docs/external_weights.md "In the graph").
 *
 * Ownership
 * - oa_graph_create() returns a root graph; oa_graph_destroy(root) frees
 *   everything reachable from it (nodes, subgraphs, attrs, owned tensor
 *   data) and drops its blob references. Pointers obtained from a graph
 *   (nodes, descs, attrs, strings, tensors, values) are borrowed and valid
 *   until the root is destroyed; removed nodes stay allocated (but detached)
 *   until then.
 * - Strings and arrays passed in are copied; callers keep ownership of
 *   their arguments.
 *
 * Failure contract
 * - Functions returning oa_status report every failure once (OA_FAIL: log +
 *   aclGetRecentErrMsg) and leave the graph unchanged unless stated.
 *   Typical codes: OA_E_PARAM (bad argument, duplicate name, wrong graph,
 *   index out of range), OA_E_NOMEM, OA_E_GE_PARAM (graph structure, e.g.
 *   a cycle).
 * - Getters never report; they return NULL/false/defaults.
 *
 * Threads: a graph is not thread-safe; distinct graphs may be used on
 * distinct threads. Read-only use (queries, dump, clone, infer of a clone)
 * from several threads is safe when nobody mutates.
 *
 * Complexity: node lookup by name is O(1) (hash map per graph); use queries
 * (oa_node_output_uses, replace_uses, remove checks) scan the graph, O(nodes
 * x inputs).
 * ------------------------------------------------------------------------
 */
#ifndef OA_GRAPH_GRAPH_H
#define OA_GRAPH_GRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/status.h"
#include "graph/arena.h"
#include "graph/blob.h"
#include "graph/op.h"
#include "graph/types.h"

typedef struct oa_graph oa_graph;
typedef struct oa_node oa_node;

/* ======================================================================
 * Attributes
 * ====================================================================== */

/* Attribute kinds, as GE's AttrDef can hold them (docs/om_format.md "ModelDef"). */
typedef enum oa_attr_type {
    OA_ATTR_INT,             /* AttrDef.i */
    OA_ATTR_FLOAT,           /* AttrDef.f */
    OA_ATTR_BOOL,            /* AttrDef.b */
    OA_ATTR_STRING,          /* AttrDef.s */
    OA_ATTR_BYTES,           /* AttrDef.bt */
    OA_ATTR_DTYPE,           /* AttrDef.dt (GE enum) */
    OA_ATTR_LIST_INT,        /* list.i, val_type VT_LIST_INT */
    OA_ATTR_LIST_FLOAT,      /* list.f */
    OA_ATTR_LIST_BOOL,       /* list.b */
    OA_ATTR_LIST_STRING,     /* list.s */
    OA_ATTR_LIST_DTYPE,      /* list.dt */
    OA_ATTR_LIST_LIST_INT,   /* list_list_int */
    OA_ATTR_LIST_LIST_FLOAT, /* list_list_float */
    OA_ATTR_TENSOR,          /* AttrDef.t (Const value) */
    OA_ATTR_TENSOR_DESC,     /* AttrDef.td */
    OA_ATTR_GRAPH,           /* name of a subgraph of the same root (AttrDef.g by reference) */
    OA_ATTR_NAMED,           /* AttrDef.func: GE NamedAttrs, a name and a nested attr list (AIPP's `aipp`) */
    OA_ATTR_TYPE_COUNT
} oa_attr_type;

/* Name of an attr kind ("int", "list_int", ...). */
const char *oa_attr_type_name(oa_attr_type t);

/* One attribute. Read fields directly; change only through the setters. */
struct oa_attr {
    oa_attr *next;
    const char *name;
    oa_attr_type type;
    union {
        int64_t i;
        float f;
        bool b;
        oa_dtype dt;
        struct { const char *data; size_t len; } s;       /* STRING, BYTES (data NUL-terminated too) */
        struct { const int64_t *v; size_t n; } li;
        struct { const float *v; size_t n; } lf;
        struct { const bool *v; size_t n; } lb;
        struct { const char *const *v; size_t n; } ls;
        struct { const oa_dtype *v; size_t n; } ldt;
        struct { const int64_t *const *v; const size_t *lens; size_t n; } lli;
        struct { const float *const *v; const size_t *lens; size_t n; } llf;
        const oa_tensor *t;
        const oa_tensor_desc *td;
        const char *graph;
        struct { const char *name; const oa_attrs *attrs; } na; /* NAMED: name may be "" */
    } u;
};

/*
 * Setters on any attribute list (node, descriptor, graph attrs). g is the
 * graph whose arena stores the copy (any graph of the same root). A set
 * replaces an existing attr of the same name (keeping its position).
 * Values are copied; OA_ATTR_TENSOR shares the tensor (which must belong
 * to the same root, e.g. made with oa_graph_make_tensor).
 * Errors: OA_E_PARAM (NULL name/args), OA_E_NOMEM.
 */
OA_MUST_CHECK oa_status oa_attrs_set_int(oa_graph *g, oa_attrs *a, const char *name, int64_t v);
OA_MUST_CHECK oa_status oa_attrs_set_float(oa_graph *g, oa_attrs *a, const char *name, float v);
OA_MUST_CHECK oa_status oa_attrs_set_bool(oa_graph *g, oa_attrs *a, const char *name, bool v);
OA_MUST_CHECK oa_status oa_attrs_set_str(oa_graph *g, oa_attrs *a, const char *name, const char *v);
OA_MUST_CHECK oa_status oa_attrs_set_bytes(oa_graph *g, oa_attrs *a, const char *name, const void *v, size_t len);
OA_MUST_CHECK oa_status oa_attrs_set_dtype(oa_graph *g, oa_attrs *a, const char *name, oa_dtype v);
OA_MUST_CHECK oa_status oa_attrs_set_list_int(oa_graph *g, oa_attrs *a, const char *name, const int64_t *v, size_t n);
OA_MUST_CHECK oa_status oa_attrs_set_list_float(oa_graph *g, oa_attrs *a, const char *name, const float *v, size_t n);
OA_MUST_CHECK oa_status oa_attrs_set_list_bool(oa_graph *g, oa_attrs *a, const char *name, const bool *v, size_t n);
OA_MUST_CHECK oa_status oa_attrs_set_list_str(oa_graph *g, oa_attrs *a, const char *name, const char *const *v, size_t n);
OA_MUST_CHECK oa_status oa_attrs_set_list_dtype(oa_graph *g, oa_attrs *a, const char *name, const oa_dtype *v, size_t n);
OA_MUST_CHECK oa_status oa_attrs_set_list_list_int(oa_graph *g, oa_attrs *a, const char *name,
                                                   const int64_t *const *v, const size_t *lens, size_t n);
OA_MUST_CHECK oa_status oa_attrs_set_list_list_float(oa_graph *g, oa_attrs *a, const char *name,
                                                     const float *const *v, const size_t *lens, size_t n);
OA_MUST_CHECK oa_status oa_attrs_set_tensor(oa_graph *g, oa_attrs *a, const char *name, const oa_tensor *t);
OA_MUST_CHECK oa_status oa_attrs_set_tensor_desc(oa_graph *g, oa_attrs *a, const char *name, const oa_tensor_desc *d);
OA_MUST_CHECK oa_status oa_attrs_set_graph(oa_graph *g, oa_attrs *a, const char *name, const char *subgraph_name);
/* NamedAttrs: `na_name` (NULL = "") and a deep copy of the list `v` (which must not contain `a`). */
OA_MUST_CHECK oa_status oa_attrs_set_named(oa_graph *g, oa_attrs *a, const char *name, const char *na_name,
                                           const oa_attrs *v);
/* Copies attr `src` (from any graph) under its own name; deep copy. */
OA_MUST_CHECK oa_status oa_attrs_set_copy(oa_graph *g, oa_attrs *a, const oa_attr *src);

/* Lookup; NULL when absent. */
const oa_attr *oa_attrs_find(const oa_attrs *a, const char *name);
/* Removes an attr; true if it existed. */
bool oa_attrs_remove(oa_attrs *a, const char *name);

/*
 * Typed getters: true and *out set when the attr exists with a compatible
 * kind, false otherwise (nothing reported). Compatible kinds follow GE's
 * readers (docs/ge_ir.md "Attribute encodings"): get_int accepts INT, DTYPE and
 * BOOL; get_dtype accepts DTYPE and INT; get_bool accepts BOOL and INT.
 */
bool oa_attrs_get_int(const oa_attrs *a, const char *name, int64_t *out);
bool oa_attrs_get_float(const oa_attrs *a, const char *name, float *out);
bool oa_attrs_get_bool(const oa_attrs *a, const char *name, bool *out);
bool oa_attrs_get_str(const oa_attrs *a, const char *name, const char **out);
bool oa_attrs_get_dtype(const oa_attrs *a, const char *name, oa_dtype *out);
bool oa_attrs_get_list_int(const oa_attrs *a, const char *name, const int64_t **v, size_t *n);
bool oa_attrs_get_list_float(const oa_attrs *a, const char *name, const float **v, size_t *n);
bool oa_attrs_get_list_str(const oa_attrs *a, const char *name, const char *const **v, size_t *n);
bool oa_attrs_get_tensor(const oa_attrs *a, const char *name, const oa_tensor **out);
/* The nested list of a NamedAttrs attr. */
bool oa_attrs_get_named(const oa_attrs *a, const char *name, const oa_attrs **out);

/* ======================================================================
 * Nodes
 * ====================================================================== */

/* An input slot of a node. */
typedef struct oa_input {
    oa_node *src;          /* producer, NULL when unconnected */
    uint32_t src_index;    /* producer output index */
    oa_tensor_desc desc;   /* input desc (see the model notes above) */
} oa_input;

/* An output of a node. */
typedef struct oa_output {
    oa_tensor_desc desc;
} oa_output;

/* A subgraph owned by a node, with the IR name of its slot
 * ("then_branch", "else_branch", "branches", "cond", "body", "f"). */
typedef struct oa_subgraph_ref {
    const char *ir_name;
    oa_graph *graph;
} oa_subgraph_ref;

/*
 * A node. Fields are readable directly; change them only through the
 * functions below (they keep names, edges and the node list consistent).
 * The descs of inputs/outputs may be written directly by inference,
 * importers and passes (oa_node_input_desc / oa_node_output_desc).
 */
struct oa_node {
    oa_graph *graph;         /* owning graph */
    const char *name;        /* unique within graph */
    oa_op_type type;
    const char *type_name;   /* GE type string (original string when OA_OP_UNKNOWN) */
    uint32_t id;             /* unique within the root, creation order; clones keep it */
    uint32_t num_inputs;
    uint32_t num_outputs;
    oa_input *inputs;
    oa_output *outputs;
    uint32_t num_ctrl_inputs;
    oa_node **ctrl_inputs;
    oa_attrs attrs;
    uint32_t num_subgraphs;
    oa_subgraph_ref *subgraphs;
    oa_node *prev, *next;    /* graph node list order */
    bool removed;            /* detached by oa_graph_remove_node */
    uint32_t mark;           /* scratch for passes; never read or written by the IR */
    void *user;              /* scratch pointer for passes; never read by the IR */
    uint32_t ctrl_cap;       /* internal: capacity of ctrl_inputs */
    uint32_t subgraph_cap;   /* internal: capacity of subgraphs */
};

/* A consumer of an output: input slot `input` of `node`. */
typedef struct oa_use {
    oa_node *node;
    uint32_t input;
} oa_use;

/*
 * Connects input slot dst_idx of dst to output src_idx of src. Both must
 * be in the same graph and indices in range; a previously connected slot
 * is rewired. The slot desc takes the producer's dtype, shape, range and
 * value; its format and origin format become the producer's only if the
 * slot was unconnected before. Errors: OA_E_PARAM.
 */
OA_MUST_CHECK oa_status oa_node_connect(oa_node *dst, uint32_t dst_idx, oa_node *src, uint32_t src_idx);

/* Disconnects a slot; its desc becomes the invalid desc. No-op when already
 * unconnected or out of range. */
void oa_node_disconnect(oa_node *dst, uint32_t dst_idx);

/* Grows or shrinks the number of input slots. New slots are unconnected;
 * dropped slots are disconnected. Errors: OA_E_NOMEM. */
OA_MUST_CHECK oa_status oa_node_set_num_inputs(oa_node *n, uint32_t count);

/* Grows or shrinks the outputs. New outputs get default descs. Shrinking
 * fails with OA_E_PARAM when a dropped output still has consumers. */
OA_MUST_CHECK oa_status oa_node_set_num_outputs(oa_node *n, uint32_t count);

/* Adds the control edge src -> dst (same graph; duplicates ignored).
 * Errors: OA_E_PARAM (different graphs, src == dst), OA_E_NOMEM. */
OA_MUST_CHECK oa_status oa_node_add_control_input(oa_node *dst, oa_node *src);
/* Removes the control edge src -> dst; true if it existed. */
bool oa_node_remove_control_input(oa_node *dst, oa_node *src);

/* Slot descs; NULL when out of range. The input accessor returns the slot
 * desc even when unconnected (then invalid). */
oa_tensor_desc *oa_node_input_desc(oa_node *n, uint32_t idx);
oa_tensor_desc *oa_node_output_desc(oa_node *n, uint32_t idx);
/* Producer of input slot idx, NULL when unconnected or out of range;
 * *src_index receives the producer output index when non-NULL. */
oa_node *oa_node_input_src(const oa_node *n, uint32_t idx, uint32_t *src_index);

/* Consumers of output out_idx: writes up to cap uses (in node order, then
 * slot order) and returns the total count. */
size_t oa_node_output_uses(const oa_node *n, uint32_t out_idx, oa_use *uses, size_t cap);
/* Nodes having n as a control input: as above. */
size_t oa_node_control_uses(const oa_node *n, oa_node **users, size_t cap);
/* True when any output of n is consumed or n is a control input of
 * another node of its graph. */
bool oa_node_has_uses(const oa_node *n);

/* Renames a node (unique in its graph). Errors: OA_E_PARAM, OA_E_NOMEM. */
OA_MUST_CHECK oa_status oa_node_rename(oa_node *n, const char *name);

/* Node attribute shorthands: the oa_attrs_* functions on n->attrs. */
OA_MUST_CHECK oa_status oa_node_set_int(oa_node *n, const char *name, int64_t v);
OA_MUST_CHECK oa_status oa_node_set_float(oa_node *n, const char *name, float v);
OA_MUST_CHECK oa_status oa_node_set_bool(oa_node *n, const char *name, bool v);
OA_MUST_CHECK oa_status oa_node_set_str(oa_node *n, const char *name, const char *v);
OA_MUST_CHECK oa_status oa_node_set_dtype(oa_node *n, const char *name, oa_dtype v);
OA_MUST_CHECK oa_status oa_node_set_list_int(oa_node *n, const char *name, const int64_t *v, size_t count);
OA_MUST_CHECK oa_status oa_node_set_list_float(oa_node *n, const char *name, const float *v, size_t count);
OA_MUST_CHECK oa_status oa_node_set_list_str(oa_node *n, const char *name, const char *const *v, size_t count);
OA_MUST_CHECK oa_status oa_node_set_tensor(oa_node *n, const char *name, const oa_tensor *t);

/* Getters with a default when absent or of another kind (never report). */
int64_t oa_node_attr_int(const oa_node *n, const char *name, int64_t dflt);
float oa_node_attr_float(const oa_node *n, const char *name, float dflt);
bool oa_node_attr_bool(const oa_node *n, const char *name, bool dflt);
const char *oa_node_attr_str(const oa_node *n, const char *name, const char *dflt);
/* The window of data input `input` of a Concat (`_oa_concat_windows`: (input, offset, length)
 * triples, src/compiler/README.md "Concat windows"); false when that input has none. */
bool oa_node_concat_window(const oa_node *n, uint32_t input, int64_t *off, int64_t *len);

/* Required attrs: OA_OK with the value, or OA_E_GE_PARAM reported as
 * "node <name> (<type>) misses required attr <attr>" / "has attr <attr> of
 * kind <k>, expected <k>" (docs/conventions.md "Design rules": never a silent default). */
OA_MUST_CHECK oa_status oa_node_require_int(const oa_node *n, const char *name, int64_t *out);
OA_MUST_CHECK oa_status oa_node_require_float(const oa_node *n, const char *name, float *out);
OA_MUST_CHECK oa_status oa_node_require_str(const oa_node *n, const char *name, const char **out);
OA_MUST_CHECK oa_status oa_node_require_list_int(const oa_node *n, const char *name, const int64_t **v, size_t *count);
OA_MUST_CHECK oa_status oa_node_require_tensor(const oa_node *n, const char *name, const oa_tensor **out);

/* Subgraph slot i of n, or NULL. */
oa_graph *oa_node_subgraph(const oa_node *n, uint32_t i);
/* Subgraph of n whose slot IR name is ir_name (first match), or NULL. */
oa_graph *oa_node_subgraph_by_ir_name(const oa_node *n, const char *ir_name);

/* ======================================================================
 * Graphs
 * ====================================================================== */

/*
 * Creates an empty root graph named `name` (copied). *out receives it; the
 * caller destroys it with oa_graph_destroy. Errors: OA_E_PARAM, OA_E_NOMEM.
 */
OA_MUST_CHECK oa_status oa_graph_create(const char *name, oa_graph **out);

/* Frees a root graph and everything it owns. Accepts NULL. Passing a
 * subgraph does nothing (subgraphs die with their root). */
void oa_graph_destroy(oa_graph *g);

/*
 * Creates an empty subgraph owned by `parent` (appended to its subgraph
 * slots under ir_name) named `name`, unique among all graphs of the root.
 * Errors: OA_E_PARAM (duplicate name), OA_E_NOMEM.
 */
OA_MUST_CHECK oa_status oa_graph_create_subgraph(oa_node *parent, const char *ir_name, const char *name,
                                                 oa_graph **out);

const char *oa_graph_name(const oa_graph *g);
oa_graph *oa_graph_root(const oa_graph *g);      /* g itself for a root */
oa_node *oa_graph_parent_node(const oa_graph *g); /* NULL for a root */
oa_arena *oa_graph_arena(const oa_graph *g);      /* the root's arena */
oa_attrs *oa_graph_attrs(oa_graph *g);            /* GraphDef.attr */
OA_MUST_CHECK oa_status oa_graph_rename(oa_graph *g, const char *name);

/* Node list, in insertion order (or topological order after
 * oa_graph_topo_sort). */
oa_node *oa_graph_first_node(const oa_graph *g);
oa_node *oa_graph_last_node(const oa_graph *g);
size_t oa_graph_num_nodes(const oa_graph *g);
oa_node *oa_graph_find_node(const oa_graph *g, const char *name);

/* All subgraphs of a root (recursively), depth-first in node order: the
 * order the .om writer emits them after the main graph. Writes up to cap
 * and returns the total. */
size_t oa_graph_subgraphs(const oa_graph *root, oa_graph **out, size_t cap);
/* Subgraph of g's root by name, or NULL. */
oa_graph *oa_graph_find_subgraph(const oa_graph *g, const char *name);

/*
 * Appends a node of type `type` with num_inputs unconnected slots and
 * num_outputs outputs with default descs. name must be unique in g.
 * oa_graph_add_node_typed takes a GE type string (unknown types allowed,
 * they become OA_OP_UNKNOWN with the string kept).
 * Errors: OA_E_PARAM (NULL/duplicate name, counts above 65535), OA_E_NOMEM.
 */
OA_MUST_CHECK oa_status oa_graph_add_node(oa_graph *g, oa_op_type type, const char *name, uint32_t num_inputs,
                                          uint32_t num_outputs, oa_node **out);
OA_MUST_CHECK oa_status oa_graph_add_node_typed(oa_graph *g, const char *type_name, const char *name,
                                                uint32_t num_inputs, uint32_t num_outputs, oa_node **out);

/* Data node `name` with attr index, and x/y descs holding dtype/shape with
 * the given format (NCHW for ONNX models). */
OA_MUST_CHECK oa_status oa_graph_add_data(oa_graph *g, const char *name, int64_t index, oa_dtype dt,
                                          const oa_shape *shape, oa_format fmt, oa_node **out);
/* Const node whose attr `value` is t (see oa_graph_make_tensor) and whose
 * output desc is t's desc. */
OA_MUST_CHECK oa_status oa_graph_add_const(oa_graph *g, const char *name, const oa_tensor *t, oa_node **out);
/* NetOutput node with `count` input slots (and mirrored outputs). */
OA_MUST_CHECK oa_status oa_graph_add_net_output(oa_graph *g, const char *name, uint32_t count, oa_node **out);

/*
 * Tensors for Const values and tensor attrs.
 * oa_graph_make_tensor copies `size` bytes of data into the arena (data may
 * be NULL for size 0, or to get zeroed storage the caller then fills via
 * the returned tensor's data pointer).
 * oa_graph_make_tensor_borrowed points into blob at [offset, offset+size)
 * without copying; the graph takes its own reference on blob.
 * Both check that size equals the byte size of (dt, shape) when the shape
 * is static and the dtype has a fixed size. Errors: OA_E_PARAM, OA_E_NOMEM.
 */
OA_MUST_CHECK oa_status oa_graph_make_tensor(oa_graph *g, oa_dtype dt, const oa_shape *shape, const void *data,
                                             size_t size, oa_tensor **out);
OA_MUST_CHECK oa_status oa_graph_make_tensor_borrowed(oa_graph *g, oa_dtype dt, const oa_shape *shape,
                                                      oa_blob *blob, size_t offset, size_t size, oa_tensor **out);
/* As above for data that `blob` keeps alive without containing it in its
 * byte range (e.g. a field of an unpacked protobuf message the blob owns).
 * The caller guarantees [data, data+size) stays valid while blob lives. */
OA_MUST_CHECK oa_status oa_graph_make_tensor_borrowed_ptr(oa_graph *g, oa_dtype dt, const oa_shape *shape,
                                                          oa_blob *blob, const void *data, size_t size,
                                                          oa_tensor **out);

/*
 * Detaches n from g: disconnects its inputs and control inputs, removes it
 * from the node list and name map. Fails with OA_E_PARAM (naming a
 * consumer) while another node still reads one of its outputs or has it as
 * a control input: rewire those first (oa_graph_replace_uses). Memory stays
 * in the arena; n->removed becomes true. Subgraphs owned by n are detached
 * with it (their names are freed for reuse).
 */
OA_MUST_CHECK oa_status oa_graph_remove_node(oa_graph *g, oa_node *n);

/*
 * Rewires every consumer of from:from_idx to to:to_idx (same graph;
 * control uses of `from` are not moved). *replaced (may be NULL) receives
 * the number of slots changed. Errors: OA_E_PARAM.
 */
OA_MUST_CHECK oa_status oa_graph_replace_uses(oa_node *from, uint32_t from_idx, oa_node *to, uint32_t to_idx,
                                              size_t *replaced);

/*
 * Inserts node `ins` after src:src_idx: every consumer of src:src_idx now
 * reads ins:ins_out, and ins:ins_in reads src:src_idx.
 *
 *   before:  src ──▶ a, b          after:  src ──▶ ins ──▶ a, b
 */
OA_MUST_CHECK oa_status oa_graph_insert_after(oa_node *src, uint32_t src_idx, oa_node *ins, uint32_t ins_in,
                                              uint32_t ins_out);
/*
 * Inserts `ins` on the single edge feeding dst:dst_idx (other consumers of
 * the producer are untouched).
 *
 *   before:  p ──▶ dst, c          after:  p ──▶ ins ──▶ dst
 *                                          p ──▶ c
 */
OA_MUST_CHECK oa_status oa_graph_insert_on_edge(oa_node *dst, uint32_t dst_idx, oa_node *ins, uint32_t ins_in,
                                                uint32_t ins_out);

/* Returns a name based on `base` that is unused in g ("base", "base_1",
 * ...), allocated in the arena; NULL (reported) on OOM. */
const char *oa_graph_unique_name(oa_graph *g, const char *base);

/* ---- graph inputs and outputs ---- */

/* Number of Data nodes of g. */
size_t oa_graph_num_inputs(const oa_graph *g);
/* Data node whose attr index == index, or NULL. */
oa_node *oa_graph_input(const oa_graph *g, int64_t index);
/* The NetOutput node of g (the first one), or NULL. */
oa_node *oa_graph_output_node(const oa_graph *g);
/* Number of graph outputs (NetOutput input slots; 0 without NetOutput). */
uint32_t oa_graph_num_outputs(const oa_graph *g);
/* Name of graph output i (desc name of NetOutput input i) or NULL. */
const char *oa_graph_output_name(const oa_graph *g, uint32_t i);
/* Descriptor of graph output i (NetOutput input desc) or NULL. */
const oa_tensor_desc *oa_graph_output_desc(const oa_graph *g, uint32_t i);

/* ---- algorithms ---- */

/*
 * Topological order of g's nodes (data and control edges; subgraphs are
 * not entered). Stable: among ready nodes the list order wins, so an
 * already sorted graph keeps its order. *order is malloc'd (caller frees
 * with free()) and holds *count nodes.
 * Errors: OA_E_GE_PARAM "graph <g> has a cycle through nodes a -> b -> ...",
 * OA_E_NOMEM.
 */
OA_MUST_CHECK oa_status oa_graph_topo_order(const oa_graph *g, oa_node ***order, size_t *count);

/* Reorders g's node list topologically (same errors; unchanged on error). */
OA_MUST_CHECK oa_status oa_graph_topo_sort(oa_graph *g);

/*
 * Checks structural invariants of g and its subgraphs: edges stay in
 * their graph and point at existing outputs, names are unique, no cycle,
 * Data nodes have distinct `index` attrs, at most one NetOutput, control
 * flow nodes own their subgraphs, known op types satisfy their IR input
 * count (extra slots after the IR inputs only on nodes whose int attr
 * `_oa_post_input_base` equals the IR input count: the compiler's fused
 * residual operands). Errors: OA_E_GE_PARAM naming the first problem.
 */
OA_MUST_CHECK oa_status oa_graph_validate(const oa_graph *g);

/*
 * Deep copy of a root graph (nodes, edges, attrs, descs, subgraphs, graph
 * attrs) into a new root with its own arena. Borrowed tensor data stays
 * borrowed (the clone takes its own blob references); owned data is
 * copied. Node ids are preserved. Errors: OA_E_PARAM (g not a root),
 * OA_E_NOMEM.
 */
OA_MUST_CHECK oa_status oa_graph_clone(const oa_graph *g, oa_graph **out);

/*
 * Copies the content of graph `src` (nodes, edges, control edges, descs,
 * attrs, graph attrs and, recursively, the subgraphs its nodes own) into the
 * empty graph `dst`, e.g. a freshly created subgraph of another root, or of
 * the same root when a suffix keeps the names apart. Every node name and
 * every copied subgraph name gets `suffix` appended (NULL or "" keeps the
 * names, allowed only across roots); subgraph names must stay unique in
 * dst's root. Nodes get new ids of dst's root. Borrowed tensor data stays
 * borrowed (dst's root takes its own blob references); owned data is
 * copied. On failure dst may hold a partial copy. Errors: OA_E_PARAM (NULL,
 * dst not empty, same root without a suffix, dst inside src, duplicate
 * names), OA_E_NOMEM.
 */
OA_MUST_CHECK oa_status oa_graph_copy_into(const oa_graph *src, oa_graph *dst, const char *suffix);

/* ---- text dump ---- */

enum {
    OA_DUMP_DEFAULT = 0,
    OA_DUMP_NO_ATTRS = 1u << 0,     /* omit attributes */
    OA_DUMP_INPUT_DESCS = 1u << 1,  /* also print input descs */
    OA_DUMP_VALUES = 1u << 2,       /* print inferred values */
    OA_DUMP_NO_SUBGRAPHS = 1u << 3, /* do not descend into subgraphs */
};

/*
 * Readable text, one line per node in list order, subgraphs indented after
 * their owner:
 *
 *   graph main
 *     %x = Data() {index=0} -> f32[1,3,224,224]:NCHW
 *     %conv1 = Conv2D(%x, %w, -) {groups=1, pads=[1,1,1,1], ...} -> f32[1,64,112,112]
 *     %Node_Output = NetOutput(%relu:0 "prob") -> f32[1,1000]
 *
 * Inputs print as %src (output 0) or %src:k; unconnected slots as "-";
 * control inputs follow "^". Errors: OA_E_WRITE_FILE on I/O errors.
 */
OA_MUST_CHECK oa_status oa_graph_dump(const oa_graph *g, FILE *f, unsigned flags);
/* Same text in a malloc'd string (caller frees); NULL (reported) on OOM. */
char *oa_graph_dump_string(const oa_graph *g, unsigned flags);
/* One descriptor as in the dump ("f32[1,3,224,224]:NCHW"), into buf. */
char *oa_desc_str(const oa_tensor_desc *d, char *buf, size_t cap);

#endif /* OA_GRAPH_GRAPH_H */
