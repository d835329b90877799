/*
 * Conversion between the graph IR (src/graph) and the .om format.
 *
 * ===================================================================
 *  Writer: IR -> .om (what atc calls)
 * ===================================================================
 * The root graph becomes ModelDef.graph[0], every subgraph follows in
 * oa_graph_subgraphs() order. Per graph, ops are written in a stable
 * topological order. Following GE's serializer and ModelBuilder
 * (docs/om_format.md "Serialization rules", "Tensor descriptors", "Const
 * weights", "Memory offsets" and "Serializer attributes"):
 *   - OpDef.input: "<src>:<k>" per input slot ("" when unconnected), then
 *     "<src>:-1" per control input; subgraph_name lists the node's
 *     subgraphs in slot order; has_out_attr is true; id counts ops in
 *     write order;
 *   - src_name/src_index per connected input (control producers joined by
 *     ':' as one extra src_name); dst_name/dst_index per consumed output
 *     (consumers joined by ':', index of the last), control consumers
 *     first with dst_index -1; none for NetOutput;
 *   - attrs: the node's attrs (lists always with val_type) plus the
 *     serializer's _input_name_key/_value and _output_name_key/_value
 *     (IR slot names sorted by name, no val_type);
 *   - one TensorDescriptor per input slot and per output: proto dtype,
 *     shape ([-2] for unknown rank, `shape {}` for scalars), layout, the
 *     descriptor's own attrs plus origin_format, origin_format_for_int,
 *     format_for_int, origin_shape_initialized, origin_shape (when set) and
 *     shape_range (when known), device_type "NPU", and size = the padded
 *     memory size ((bytes + 63) / 32 * 32) of static output shapes, the
 *     exact byte size on Data inputs, the producer's size on other inputs;
 *   - Const weights are merged into WEIGHTS_DATA (unless inline_weights):
 *     the first at offset 512, each next at the next multiple of 512,
 *     identical bytes shared, final size round_up(end + 32, 512) (1024
 *     without any Const); the Const's value keeps only desc.data_offset and
 *     desc.weight_size; consumers get is_input_const and data_offset;
 *   - model attrs: memory_size (from the plan), weight_size, om_info_list,
 *     stream_num 1, event_num 0, label_num 0, p2p_memory_size 0,
 *     target_type "MINI", attr_model_out_nodes_name ("<producer>:<k>" per
 *     graph output), plus soc_version/atc_cmdline/framework_type and the
 *     caller's extra attrs;
 *   - MODEL_INOUT_INFO from the root's Data nodes (by `index`) and
 *     NetOutput inputs; TASK_INFO = a ModelTaskDef with memory_size,
 *     weight_size and version "openacl" (or the caller's task list, given
 *     that version when it has none); partitions in ATC order
 *     MODEL_INOUT_INFO, MODEL_DEF, WEIGHTS_DATA, TASK_INFO.
 * Memory offsets are the memory planner's: it passes an oa_om_mem_plan.
 *
 * ===================================================================
 *  Reader: .om -> IR (what the model loader calls)
 * ===================================================================
 * The inverse: every graph of a table's ModelDef becomes a graph (subgraphs
 * created under their owner with IR slot names then_branch/else_branch,
 * branches, cond/body, f), ops become nodes in file order, descs and attrs
 * are restored, and what the writer derives is dropped (the serializer's
 * name lists when they match what the writer would write, the derived
 * descriptor attrs, sizes, offsets). Const weights are borrowed, not
 * copied: the graph keeps the opened model alive through a blob. Attribute
 * kinds the IR cannot hold (NamedAttrs, inline graphs, list of tensors...)
 * are skipped with a warning; the raw ModelDef stays available from the
 * model. The file's memory offsets come back as an oa_om_mem_plan.
 *
 * Round trip: reading a file written by the writer and writing the graph
 * again with the options the reader returns gives the same bytes.
 */
#ifndef OA_OM_IR_H
#define OA_OM_IR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"
#include "graph/graph.h"
#include "om/om_format.h"
#include "om/om_model.h"

/* Memory offsets of one node (OpDef.input_i/output_i/workspace/workspace_bytes). */
typedef struct oa_om_node_mem {
    const int64_t *input_offsets; /* one per input slot with a valid desc */
    size_t n_input;
    const int64_t *output_offsets; /* one per output */
    size_t n_output;
    const int64_t *workspace;
    size_t n_workspace;
    const int64_t *workspace_bytes;
    size_t n_workspace_bytes;
} oa_om_node_mem;

/*
 * A memory plan as the writer consumes it: the feature-map size (model
 * attr memory_size and ModelTaskDef.memory_size) and a lookup from node to
 * its offsets (NULL: nothing planned for that node). node_mem is called
 * once per node while writing; the returned arrays must stay valid until
 * the writer returns.
 */
typedef struct oa_om_mem_plan {
    int64_t memory_size;
    const oa_om_node_mem *(*node_mem)(void *ctx, const oa_node *n);
    void *ctx;
} oa_om_mem_plan;

typedef struct oa_om_write_opts {
    const char *soc_version;      /* model attr soc_version (NULL: not written) */
    const char *atc_cmdline;      /* model attr atc_cmdline (NULL: not written) */
    const char *framework_type;   /* model attr framework_type, "Onnx" for ONNX (NULL: not written) */
    const char *platform_version; /* header platform_version, at most 19 chars (NULL: empty) */
    const oa_attrs *model_attrs;  /* more model attrs; they override the defaults but not memory_size,
                                   * weight_size and om_info_list, which are always computed */
    const oa_om_mem_plan *plan;   /* NULL: no offsets, memory_size 0 */
    const Domi__ModelTaskDef *task; /* tasks to store (memory_size and weight_size are set on a copy);
                                     * NULL: a ModelTaskDef with just those two */
    bool inline_weights;          /* Const bytes stay in TensorDef.data; no WEIGHTS_DATA */
    bool unknown_shape;           /* header is_unknow_model = 1 (a dynamic model) */
    bool compress;                /* compress attributes as ATC does */
} oa_om_write_opts;

/* Zeroes opts: no attrs, no plan, merged weights, static, uncompressed. */
void oa_om_write_opts_init(oa_om_write_opts *opts);

/*
 * Writes root (a root graph, with its subgraphs) as an .om file at path,
 * atomically with mode 0600 (om_format.h). opts may be NULL. Errors:
 * OA_E_PARAM (not a root graph, bad options), OA_E_GE_PARAM (a Const
 * without a tensor, weights beyond int64, names that are not UTF-8), the
 * reader's own codes for a graph the reader would refuse (om_check.h: F15,
 * F16, F18, F20 -- the writer checks what it built before writing),
 * OA_E_WRITE_FILE, OA_E_GE_MEMORY_ALLOCATION. Nothing is written on failure.
 */
oa_status oa_om_write_graph(const oa_graph *root, const oa_om_write_opts *opts, const char *path) OA_MUST_CHECK;

/* As above into a malloc'd image (*out, *len; the caller frees *out). */
oa_status oa_om_write_graph_memory(const oa_graph *root, const oa_om_write_opts *opts, uint8_t **out,
                                   size_t *len) OA_MUST_CHECK;

/*
 * For writers that re-encode a MODEL_DEF followed by WEIGHTS_DATA: appends
 * to the malloc'd encoding (*def, *def_len; realloc'd) the padding field
 * that puts WEIGHTS_DATA at a multiple of OA_OM_WEIGHTS_FILE_ALIGN, given
 * the file offset def_at where MODEL_DEF starts (README "Weights
 * alignment"). The encoding must not hold an old padding field (clear the
 * decoded message's unknown fields first).
 */
oa_status oa_om_model_def_pad(uint8_t **def, size_t *def_len, uint64_t def_at) OA_MUST_CHECK;

/*
 * The ModelDef alone (in arena a) and the WEIGHTS_DATA blob (malloc'd,
 * caller frees; NULL/0 with inline_weights), for callers assembling their
 * own containers.
 */
oa_status oa_om_model_def_from_graph(const oa_graph *root, const oa_om_write_opts *opts, oa_om_arena *a,
                                     Ge__Proto__ModelDef **def, uint8_t **weights, size_t *weights_size) OA_MUST_CHECK;

/* What the reader returns besides the graph; lives in the graph's arena. */
typedef struct oa_om_graph_info {
    oa_attrs model_attrs;    /* every ModelDef attr, as stored (after decompression) */
    char platform_version[OA_OM_PLATFORM_VERSION_LEN];
    bool unknown_shape;      /* header is_unknow_model */
    bool inline_weights;     /* no Const used WEIGHTS_DATA */
    int64_t memory_size;     /* TASK_INFO memory_size (model attr memory_size when absent) */
    oa_om_mem_plan plan;     /* the file's offsets, keyed by the new nodes */
    const Domi__ModelTaskDef *task; /* the table's decoded TASK_INFO, or NULL */
    const oa_om_model *model;  /* the model the graph borrows from (alive as long as the graph) */
} oa_om_graph_info;

/* Options for writing back what was read (model attrs, platform version,
 * plan, tasks, weights mode); pointers refer into info. */
void oa_om_graph_info_write_opts(const oa_om_graph_info *info, oa_om_write_opts *opts);

/*
 * Converts table `index` of m into a new root graph. Takes ownership of m
 * in every case: on success the graph keeps it alive (m stays readable as
 * long as the graph, through info->model) and oa_graph_destroy() releases
 * it; on failure it is destroyed. info (may be NULL) receives the side
 * data. Errors: OA_E_PARAM (index out of range), OA_E_GE_LOAD_MODEL_PARTITION
 * (a ModelDef the IR cannot represent: rank above 8, input and input-desc
 * counts that differ, unknown dtype), OA_E_GE_LOAD_WEIGHT_PARTITION (weight
 * size disagreeing with its tensor), OA_E_NOMEM.
 */
oa_status oa_om_graph_from_model(oa_om_model *m, uint32_t index, oa_graph **out,
                                 const oa_om_graph_info **info) OA_MUST_CHECK;

/* Opens path (om_model.h, all failure classes) and converts table 0. */
oa_status oa_om_read_graph(const char *path, oa_graph **out, const oa_om_graph_info **info) OA_MUST_CHECK;

#endif /* OA_OM_IR_H */
