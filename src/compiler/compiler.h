/*
 * The model compiler behind atc (library `oa_compiler`, internal):
 * ONNX model -> graph IR -> passes -> static memory plan / dynamic gears ->
 * a compiled model the .om writer serialises.
 *
 *   oa_compile_onnx(path, &opt, &cm)
 *     1. import (onnx/), apply --input_shape / --input_shape_range
 *     2. I/O adjustments: --out_nodes, output names "<node>:<idx>:<name>",
 *        --input_fp16_nodes (FLOAT16 Data + Cast), --output_type (Cast before
 *        NetOutput), --insert_op_conf (Aipp nodes, aipp_config.h)
 *     3. shape-independent passes once: identity/dropout removal, dead code,
 *        BatchNorm folding, affine (Mul/Add/Sub/RealDiv by constants) folding
 *     4. per gear (one pass for a non-gear model): static shapes, constant
 *        folding, post-op fusion, layout (optional), classification
 *     5. gears: one Case branch per gear (GE's multi-batch structure)
 *     6. static models: the memory plan (mem_plan.h); dynamic models: none
 *
 * Everything the compiled model holds lives in its root graph's arena or in
 * memory it owns; oa_compiled_model_destroy() frees it all.
 *
 * Failure contract: every function returns oa_status and reports the failure
 * once (OA_FAIL); user-facing problems (bad options, unknown names) use
 * OA_E_PARAM with CANN's error-code text ("E10001: ...") at the start of the
 * message so atc can print it as CANN does.
 */
#ifndef OA_COMPILER_COMPILER_H
#define OA_COMPILER_COMPILER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"
#include "graph/graph.h"
#include "mem/planner.h"

/* Gear kinds; the values are GE's `mbatch_dynamic_type`. */
typedef enum oa_gear_kind {
    OA_GEAR_NONE = 0,
    OA_GEAR_BATCH = 1, /* --dynamic_batch_size="1,2,4" */
    OA_GEAR_IMAGE = 2, /* --dynamic_image_size="h1,w1;h2,w2" */
    OA_GEAR_DIMS = 3   /* --dynamic_dims="d1,d2;d3,d4" */
} oa_gear_kind;

#define OA_GEAR_MIN 2   /* CANN: at least two profiles (E10035) */
#define OA_GEAR_MAX 100 /* CANN: at most 100 profiles (E10036) */

/* Passes that can be switched off (tests, debugging). */
enum {
    OA_PASSES_ALL = 0,
    OA_NO_FOLD = 1u << 0,    /* constant folding */
    OA_NO_BN_FOLD = 1u << 1, /* BatchNorm and affine folding */
    OA_NO_FUSE = 1u << 2,    /* post-op fusion */
    OA_NO_CLEANUP = 1u << 3, /* identity removal and dead code */
    OA_NO_INT8 = 1u << 4,    /* the QDQ -> int8 rewrite (pass_qdq.c) */
};

struct oa_aipp_config; /* aipp_config.h */

/* Progress reports (atc prints a line for conversions longer than a second). */
typedef void (*oa_compile_progress_fn)(void *ctx, const char *phase);

typedef struct oa_compile_options {
    const char *input_shape;       /* "name:1,3,-1,-1;name2:..." or NULL (may contain -1 and lo~hi) */
    const char *input_shape_range; /* deprecated "name:[1~8,3,224,224];..." or "[..],[..]" by index */
    const char *input_format;      /* NCHW (default), NHWC, ND, NCDHW, NDHWC; H/W of image gears */
    oa_gear_kind gear_kind;
    const char *gears;             /* the --dynamic_* value */
    const char *input_fp16_nodes;  /* "data1;data2" */
    const char *output_type;       /* "FP32" (all outputs) or "node:idx:FP16;node2:0:FP32" */
    const char *out_nodes;         /* "node:0;node:1;node2:0" */
    const struct oa_aipp_config *aipp; /* --insert_op_conf, parsed (aipp_config.h); NULL: none */
    bool layout_nchwc;             /* mark conv chains NC1HWC0 (atc: on unless OPENACL_ATC_NCHWC=0) */
    bool disable_reuse;            /* --disable_reuse_memory=1: no tensor shares memory */
    unsigned disable;              /* OA_NO_* bits */
    /* --external_weight: 0 weights in the .om; 1 one weight_<hash> file per
     * distinct weight; 2 one <om>_weight_combined file (file_constant.h).
     * The files go to external_weight_dir (ge.externalWeightDir) or
     * tmp_weight_<pid>_<session_id>; atc then moves them next to the .om. */
    int external_weight;
    const char *external_weight_dir;
    const char *om_path;           /* the .om being written (names the combined file) */
    uint64_t session_id;
    oa_compile_progress_fn progress;
    void *progress_ctx;
    /* --precision_mode / --precision_mode_v2 (NULL or "": unset; docs/precision.md): a request for
     * lower precision is recorded on the convolutions and matrix products and as the model attr
     * _oa_precision_mode / _oa_precision_mode_v2 */
    const char *precision_mode;
    const char *precision_mode_v2;
} oa_compile_options;

/* Defaults: everything NULL/0, layout off. */
void oa_compile_options_init(oa_compile_options *opt);

#define OA_MEM_NONE (-1)

/*
 * Memory of one node in the static plan. Offsets are logical addresses
 * relative to the model's feature-map base, in [0, memory_size).
 *   output[k]  where output k lives; OA_MEM_NONE for Const/Constant/
 *              FileConstant outputs (they live in the weights).
 *   input[i]   per input SLOT (GE's input_i lists only the valid ones, so
 *              the writer skips unconnected slots): the offset the input is
 *              read from, i.e. the producer's output offset, OA_MEM_NONE for
 *              unconnected slots and weight inputs. Exception: a NetOutput
 *              input is the graph output's own location (its zero-copy slot,
 *              or the parent node's output for a subgraph); when it differs
 *              from the producer's output offset (a graph input passed
 *              through, a Const, one tensor used as two outputs) the
 *              executor copies.
 *   workspace  control-flow nodes (If/Case/While/PartitionedCall): the
 *              region [workspace, workspace + workspace_size) that holds the
 *              values of their subgraphs (branches share it); else
 *              OA_MEM_NONE / 0.
 */
typedef struct oa_node_mem {
    uint32_t num_outputs;
    uint32_t num_inputs;
    int64_t *output;
    int64_t *input;
    int64_t workspace;
    int64_t workspace_size;
} oa_node_mem;

/*
 * The static plan of a model (docs/model_api.md "Static memory plan":
 * memory_size includes the zero-copy region of the model inputs and outputs,
 * which the runtime binds to the user's buffers).
 *   [0, feature_map_size)                     activations (planner.h)
 *   [zero_copy_offset, memory_size)           one slot per model input (Data,
 *                                             index order) then per model
 *                                             output (NetOutput input order)
 */
typedef struct oa_mem_plan {
    int64_t memory_size;      /* model attr memory_size (> 0 for every static model) */
    int64_t zero_copy_size;   /* model attr zero_copy_memory_size */
    int64_t zero_copy_offset; /* == feature_map_size */
    int64_t feature_map_size;
    uint32_t num_ids;         /* nodes[] is indexed by oa_node.id */
    oa_node_mem *nodes;
    oa_plan_stats stats;      /* of the root graph's feature map */
    bool no_reuse;            /* planned with --disable_reuse_memory=1 */
} oa_mem_plan;

/* The record of node n (NULL when n has none). */
const oa_node_mem *oa_mem_plan_node(const oa_mem_plan *p, const oa_node *n);

typedef struct oa_compiled_model {
    oa_graph *graph;          /* root: main graph + subgraphs (gear branches) */
    bool is_dynamic;          /* unknown shapes left to run time (is_unknow_model) */
    oa_gear_kind gear_kind;
    size_t gear_count;
    size_t gear_dims;         /* values per gear (1 batch, 2 image, n dims) */
    int64_t *gears;           /* gear_count * gear_dims values, row per gear */
    oa_mem_plan *plan;        /* static models; NULL for dynamic ones */
    oa_attrs model_attrs;     /* ModelDef.attr the compiler knows (memory_size, zero_copy_memory_size,
                                 attr_model_out_nodes_name, batch_num, ...); in graph's arena */
    size_t num_outputs;
    const char **output_names; /* "<node>:<idx>:<name>" per model output (arena) */
} oa_compiled_model;

/*
 * Compiles the ONNX model at `path`. On success *out is a new compiled model
 * (caller destroys). Errors: the importer's (onnx_import.h), OA_E_PARAM for
 * bad options (message starts with CANN's code, e.g. "E10035: ..."),
 * inference errors, OA_E_NOMEM.
 */
OA_MUST_CHECK oa_status oa_compile_onnx(const char *path, const oa_compile_options *opt, oa_compiled_model **out);

/*
 * Compiles an already imported graph (tests). Takes ownership of `g` in
 * every case (destroyed on failure). opt->input_shape / input_shape_range
 * are applied to it first.
 */
OA_MUST_CHECK oa_status oa_compile_graph(oa_graph *g, const oa_compile_options *opt, oa_compiled_model **out);

/* Frees everything. Accepts NULL. */
void oa_compiled_model_destroy(oa_compiled_model *cm);

/*
 * Checks a static plan against the graph: every non-weight output has an
 * offset, every offset + size lies in [0, memory_size), and no two tensors
 * that are alive at the same step of the same graph overlap (except
 * in-place pairs). Used by tests and by atc in debug runs.
 */
OA_MUST_CHECK oa_status oa_compiled_model_check_plan(const oa_compiled_model *cm);

/* Byte size of a static desc (NC1HWC0 descs: their 5-D shape), false when
 * not static. */
bool oa_desc_bytes(const oa_tensor_desc *d, size_t *out);

#endif /* OA_COMPILER_COMPILER_H */
