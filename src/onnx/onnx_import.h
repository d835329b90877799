/*
 * ONNX model importer: .onnx (opsets 7-18 of the default domain) -> graph
 * IR in GE vocabulary, following CANN's ONNX parser
 * (docs/ge_ir.md "ONNX import").
 *
 * What the importer produces (a root oa_graph):
 *   - one Data node per graph input that is not an initializer, named like
 *     the input, attrs `index` (0, 1, ... in graph.input order) and
 *     `data_type`; x/y descs hold dtype and shape (symbolic dims -> -1,
 *     no shape -> unknown rank), format NCHW;
 *   - initializers -> Const named "<init>_Initializer_<k>" (k = position
 *     in name-sorted order), external data -> FileConstant (attrs location,
 *     offset, length, shape, original_shape, dtype) or, with
 *     map_external_data, a Const borrowing a read-only mapping;
 *   - `Constant` nodes -> Const (FileConstant when external);
 *   - each ONNX node -> one GE op, or a small expansion whose nodes are
 *     named "PartitionedCall_<onnx name>_<role>_<n>" and carry
 *     `_datadump_original_op_names`; a single-node result keeps the ONNX
 *     name; unnamed nodes become "<OpType>_<n>";
 *   - If -> If with then_branch/else_branch subgraphs named
 *     "<If name>_0_then_branch" / "<If name>_1_else_branch" whose inputs
 *     are the tensors the branches read from outer scopes (sorted by name,
 *     appended to the If after cond);
 *   - one NetOutput "Node_Output" whose input i is graph output i (the
 *     input desc `name` is the ONNX output name).
 * Then user input shapes (options.input_shape) are applied and shapes,
 * dtypes and values are inferred (infer.h).
 *
 * Failure contract (reported once; the caller gets no graph):
 *   OA_E_READ_MODEL          file missing/unreadable
 *   OA_E_PARSE_MODEL         not a valid ONNX protobuf (truncated, bad wire
 *                            data, nesting too deep), missing graph/opset,
 *                            dangling tensor names, duplicate producers,
 *                            cycles, bad attributes, absurd dims
 *   OA_E_FEATURE_UNSUPPORTED opset outside 7..18, unsupported op types
 *                            (ONE error listing every unsupported type with
 *                            the nodes using it), unsupported dtypes or
 *                            attribute values
 *   OA_E_INVALID_FILE        external data path absolute, with "..",
 *                            escaping the model directory, or unreadable
 *   OA_E_INVALID_FILE_SIZE   external data offset/length beyond the file
 *   OA_E_PARAM               bad input_shape option
 *   inference errors         see infer.h
 */
#ifndef OA_ONNX_ONNX_IMPORT_H
#define OA_ONNX_ONNX_IMPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "base/status.h"
#include "graph/graph.h"

typedef struct oa_onnx_options {
    /* atc --input_shape style overrides, "name:1,3,224,224;name2:..." or NULL
     * (infer.h oa_graph_set_input_shapes). */
    const char *input_shape;
    /* false (default, as CANN): external initializers become FileConstant
     * nodes. true: they become Const nodes whose data borrows a read-only
     * mapping of the weight file. Both validate path, offset and length. */
    bool map_external_data;
    /* Skip shape inference (tests of the raw import). */
    bool skip_infer;
} oa_onnx_options;

/* Defaults: no overrides, FileConstant, inference on. */
void oa_onnx_options_init(oa_onnx_options *opt);

/*
 * Imports the model at `path`. External data is resolved relative to the
 * model's directory. opt may be NULL (defaults). On success *out is a new
 * root graph the caller destroys with oa_graph_destroy.
 */
OA_MUST_CHECK oa_status oa_onnx_import_file(const char *path, const oa_onnx_options *opt, oa_graph **out);

/*
 * Imports a serialized ModelProto from memory (the bytes are not kept).
 * model_dir is where external data lives; NULL rejects external data.
 */
OA_MUST_CHECK oa_status oa_onnx_import_buffer(const void *data, size_t size, const char *model_dir,
                                              const oa_onnx_options *opt, oa_graph **out);

/* The ONNX op types the importer maps (each within its opset range, see
 * onnx_ops.c); fills up to cap names and returns the total. */
size_t oa_onnx_supported_ops(const char **names, size_t cap);

/* GE dtype of an ONNX TensorProto.DataType number; false when GE has no
 * counterpart (or the number is unknown). */
bool oa_onnx_dtype_to_ge(int onnx_type, oa_dtype *out);

#endif /* OA_ONNX_ONNX_IMPORT_H */
