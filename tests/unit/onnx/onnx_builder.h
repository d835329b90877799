/*
 * Test helper: builds small ONNX models in memory with the protobuf-c
 * structures of src/onnx/onnx.proto and serialises them, so importer tests
 * need neither Python nor files. All memory belongs to the tb_model and is
 * freed by tb_free(). Helpers abort the test program on allocation failure
 * (tests only).
 */
#ifndef OA_TESTS_ONNX_BUILDER_H
#define OA_TESTS_ONNX_BUILDER_H

#include <stddef.h>
#include <stdint.h>

#include "onnx/onnx.pb-c.h"

typedef struct tb_model tb_model;
typedef struct tb_graph tb_graph;

/* A model with one root graph "g" importing the default opset `opset`
 * (opset < 0: no opset_import at all). */
tb_model *tb_new(int64_t opset);
void tb_free(tb_model *m);
tb_graph *tb_root(tb_model *m);
/* A detached graph for If branches. */
tb_graph *tb_graph_new(tb_model *m, const char *name);
Onnx__ModelProto *tb_proto(tb_model *m);
/* The message of a graph (to break it on purpose). */
Onnx__GraphProto *tb_graph_proto(tb_graph *g);

/* Graph input with ONNX elem type; dims < 0 become a dim_param; rank < 0
 * gives no shape. */
void tb_input(tb_graph *g, const char *name, int elem_type, int rank, const int64_t *dims);
void tb_output(tb_graph *g, const char *name);

/* A node; inputs/outputs are comma-separated lists where an empty entry is
 * "" (an omitted optional input), e.g. "x,,b". name may be NULL. */
Onnx__NodeProto *tb_node(tb_graph *g, const char *op, const char *name, const char *inputs, const char *outputs);
void tb_attr_int(tb_model *m, Onnx__NodeProto *n, const char *name, int64_t v);
void tb_attr_float(tb_model *m, Onnx__NodeProto *n, const char *name, float v);
void tb_attr_str(tb_model *m, Onnx__NodeProto *n, const char *name, const char *v);
void tb_attr_ints(tb_model *m, Onnx__NodeProto *n, const char *name, const int64_t *v, size_t count);
void tb_attr_floats(tb_model *m, Onnx__NodeProto *n, const char *name, const float *v, size_t count);
void tb_attr_tensor(tb_model *m, Onnx__NodeProto *n, const char *name, Onnx__TensorProto *t);
void tb_attr_graph(tb_model *m, Onnx__NodeProto *n, const char *name, tb_graph *g);

/* Tensors (raw_data, little-endian). */
Onnx__TensorProto *tb_tensor(tb_model *m, const char *name, int elem_type, int rank, const int64_t *dims,
                             const void *data, size_t bytes);
Onnx__TensorProto *tb_tensor_f32(tb_model *m, const char *name, int rank, const int64_t *dims, const float *data);
Onnx__TensorProto *tb_tensor_i64(tb_model *m, const char *name, int rank, const int64_t *dims, const int64_t *data);
/* A tensor whose data lives in an external file. offset/length < 0 are
 * omitted. */
Onnx__TensorProto *tb_tensor_external(tb_model *m, const char *name, int elem_type, int rank, const int64_t *dims,
                                      const char *location, int64_t offset, int64_t length);
void tb_initializer(tb_graph *g, Onnx__TensorProto *t);

/* Serialises the model; malloc'd buffer the caller frees. */
uint8_t *tb_pack(tb_model *m, size_t *len);

#endif /* OA_TESTS_ONNX_BUILDER_H */
