/*
 * GE op types known to the IR (generated from op_defs.inc) and their IR
 * signatures.
 *
 * Run-time code indexes tables by oa_op_type. The only string -> enum
 * mapping is oa_op_type_from_name(), used when loading a model (.om op
 * types, importer output). Op types not in the list load as OA_OP_UNKNOWN;
 * the node keeps the original type string (oa_node.type_name) so readers
 * can round-trip them, but inference and kernels reject them.
 */
#ifndef OA_GRAPH_OP_H
#define OA_GRAPH_OP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum oa_op_type {
#define OA_OP(id, name, ins, outs, infer, kernel, sub, flags) OA_OP_##id,
#include "graph/op_defs.inc"
#undef OA_OP
    OA_OP_COUNT,
    OA_OP_UNKNOWN = OA_OP_COUNT  /* a type string not in op_defs.inc */
} oa_op_type;

/*
 * Op properties (the `flags` column of op_defs.inc, which explains each).
 * Passes and the memory planner ask these instead of listing op types.
 */
enum {
    OA_OPF_EW_UNARY = 1u << 0,   /* F_EW1: elementwise in input 0 */
    OA_OPF_EW_BINARY = 1u << 1,  /* F_EW2: elementwise over two broadcasting inputs */
    OA_OPF_INPLACE = 1u << 2,    /* F_INPLACE: y may overwrite input 0 */
    OA_OPF_INPLACE_EQ = 1u << 3, /* F_INPLACE_EQ: y may overwrite the first input of y's shape */
    OA_OPF_NCHWC = 1u << 4,      /* F_NCHWC: runs on the blocked NC1HWC0 layout */
    OA_OPF_FOLD = 1u << 5,       /* F_FOLD: constant inputs fold through the kernel */
    OA_OPF_POST = 1u << 6,       /* F_POST: fusible into a Conv2D/MatMul as a post-op */
    OA_OPF_VIEW = 1u << 7,       /* F_VIEW: y is input 0's bytes under another shape */
    OA_OPF_DDS = 1u << 8,        /* F_DDS: output dims follow from the input data (NonZero, Unique, NMS):
                                  * inference gives -1 with an upper bound, the kernel reports the real
                                  * extent (src/model_v2/README.md "Data-dependent output shapes") */
};

/* The OA_OPF_* bits of t; 0 for OA_OP_UNKNOWN / out of range. */
unsigned oa_op_flags(oa_op_type t);

/* GE type string ("Conv2D"); "Unknown" for OA_OP_UNKNOWN / out of range. */
const char *oa_op_type_name(oa_op_type t);

/*
 * GE's dynamic-AIPP parameter input (docs/aipp.md "What the .om holds"): a
 * model input like Data, so it loads as OA_OP_DATA; the node keeps the type
 * string "AippData" (oa_node.type_name), which the .om writer stores.
 */
#define OA_OP_AIPP_DATA_TYPE "AippData"

/* Enum for a GE type string; OA_OP_UNKNOWN when not listed (or NULL);
 * "AippData" gives OA_OP_DATA. Case-sensitive, as GE is. Thread-safe. */
oa_op_type oa_op_type_from_name(const char *name);

/* One IR input or output as declared in op_defs.inc. */
typedef struct oa_op_io {
    char name[32];
    bool optional;  /* OPTIONAL_INPUT */
    bool dynamic;   /* DYNAMIC_INPUT / DYNAMIC_OUTPUT */
} oa_op_io;

/*
 * Declared IR inputs (outputs) of t: fills up to cap entries of `io` and
 * returns the declared count (0 for OA_OP_UNKNOWN). Pass cap 0 to count.
 */
size_t oa_op_ir_inputs(oa_op_type t, oa_op_io *io, size_t cap);
size_t oa_op_ir_outputs(oa_op_type t, oa_op_io *io, size_t cap);

/*
 * The IR name of input (output) slot `idx` of a node of type t that has
 * `count` slots in total, resolving dynamic ranges
 * (docs/ge_ir.md "Dynamic inputs"): for ConcatD with 3 inputs, slot 2 is "x2";
 * for If with 4 inputs, slot 0 is "cond" and slot 3 is "input2". Writes into
 * buf (NUL-terminated) and returns false when idx does not fit the declaration
 * or t is unknown.
 */
bool oa_op_input_name(oa_op_type t, uint32_t count, uint32_t idx, char *buf, size_t cap);
bool oa_op_output_name(oa_op_type t, uint32_t count, uint32_t idx, char *buf, size_t cap);

/* Minimum number of input slots a node of type t must have (required,
 * non-dynamic inputs before the last required one), and whether the count
 * may grow without bound (a dynamic input exists). */
uint32_t oa_op_min_inputs(oa_op_type t);
bool oa_op_has_dynamic_inputs(oa_op_type t);

#endif /* OA_GRAPH_OP_H */
