/*
 * Rules shared by the IR writer and reader (om_ir.h): what the writer
 * derives from the graph, so that the reader can recognise and drop it.
 */
#ifndef OA_OM_IR_INTERNAL_H
#define OA_OM_IR_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "graph/graph.h"
#include "om/om_arena.h"
#include "om/om_pb.h"

#define OM_ATTR_INPUT_NAME_KEY "_input_name_key"
#define OM_ATTR_INPUT_NAME_VALUE "_input_name_value"
#define OM_ATTR_OUTPUT_NAME_KEY "_output_name_key"
#define OM_ATTR_OUTPUT_NAME_VALUE "_output_name_value"

/* Descriptor attrs the writer adds from descriptor fields. */
#define OM_DESC_ORIGIN_FORMAT "origin_format"
#define OM_DESC_ORIGIN_FORMAT_FOR_INT "origin_format_for_int"
#define OM_DESC_FORMAT_FOR_INT "format_for_int"
#define OM_DESC_ORIGIN_SHAPE_INITIALIZED "origin_shape_initialized"
#define OM_DESC_ORIGIN_SHAPE "origin_shape"
#define OM_DESC_SHAPE_RANGE "shape_range"

/* Weight layout of merged Const data (docs/om_format.md "Const weights"). */
#define OM_WEIGHT_START 512u
#define OM_WEIGHT_ALIGN 512u
#define OM_WEIGHT_PADDING 32u

/* ModelTaskDef.version of the TASK_INFO openacl writes. */
#define OM_TASK_VERSION "openacl"

/* The serializer-injected list attrs, written without val_type
 * (docs/om_format.md "Serializer attributes"). */
bool om_ir_is_injected_attr(const char *name, size_t len);

/* True for the descriptor attrs above. */
bool om_ir_is_derived_desc_attr(const char *name, size_t len);

/* IR slot name of subgraph `i` of a node of type t ("then_branch", ...). */
const char *om_ir_subgraph_slot_name(oa_op_type t, uint32_t i);

/*
 * The input (outputs == false) or output name map GE's serializer writes
 * for a node of type t with `count` slots: IR names of the slots sorted by
 * name, with their slot indices ("__input<k>" / "__output<k>" for slots
 * the IR does not name). Arrays come from a; count 0 gives n == 0.
 */
typedef struct om_io_names {
    size_t n;
    const char **names;
    int64_t *index;
} om_io_names;
oa_status om_ir_io_names(oa_om_arena *a, oa_op_type t, uint32_t count, bool outputs, om_io_names *out) OA_MUST_CHECK;

/* Bytes of a static shape of dt (0 when not static or not fixed-size). */
int64_t om_ir_exact_size(oa_dtype dt, const oa_shape *s);

/* GE's padded memory size of an output: (bytes + 32 + 31) / 32 * 32; 0 when unknown. */
int64_t om_ir_padded_size(oa_dtype dt, const oa_shape *s);

#endif /* OA_OM_IR_INTERNAL_H */
