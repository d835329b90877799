/*
 * Pieces of the compiler pipeline shared between its files (compile.c,
 * io_adjust.c, gears.c, mem_plan.c). Internal to oa_compiler.
 */
#ifndef OA_COMPILER_COMPILER_INTERNAL_H
#define OA_COMPILER_COMPILER_INTERNAL_H

#include "compiler/compiler.h"

/* ---- mem_plan.c ---- */

/* Builds the static plan of a root whose every desc is static; no_reuse
 * keeps every value alive for its whole graph (no sharing, no in-place). */
OA_MUST_CHECK oa_status oa_mem_plan_build(oa_graph *root, bool no_reuse, oa_mem_plan **out);
void oa_mem_plan_destroy(oa_mem_plan *p);

/*
 * Where input `slot` of Concat n starts inside n's output, in bytes, when the
 * inputs lie back to back there (docs/memory.md "Concat in place"): a
 * ConcatD / ConcatV2D whose dims before the axis are all 1 (NC1HWC0: N == 1,
 * and every input before `slot` holds whole 16-channel blocks), static
 * inputs, and an offset that is a multiple of OA_PLANNER_ALIGN. False
 * otherwise.
 */
bool oa_mem_concat_slot_offset(const oa_node *n, uint32_t slot, size_t *off);

/*
 * True when input `slot` of Concat n is a window (`_oa_concat_windows`, pass_concat.c) of a value
 * with n's own shape, dtype and plain layout, taken from where it goes in n's output, and no other
 * slot reads that value: n's output may then take that value's memory (the kernel skips the
 * window, which is already in place) once the value dies at n (docs/memory.md "Concat in place").
 */
bool oa_mem_concat_window_in_place(const oa_node *n, uint32_t slot);

/*
 * True when n's output may take the memory of its input `slot` (what the planner offers as an
 * in-place candidate, its lifetime rule aside): slot 0 of F_INPLACE ops (views included), the
 * first operand of y's shape of F_INPLACE_EQ ops, the residual of a Conv2D whose post-op chain starts with it, and a
 * Concat's window in place.
 */
bool oa_mem_inplace_slot(const oa_node *n, uint32_t slot);

/*
 * True when n's output may take the memory of its input `slot` while that value has other readers
 * (all earlier ones: the planner's lifetime rule has it die at n): a Concat's window in place, and
 * the residual operand of a Conv2D whose post-op chain starts with that Add, read by n in no other
 * slot (a ResNet block's input, also read by the block's first conv: docs/memory.md "Residuals in
 * place"). Elsewhere the in-place input must be read by n alone.
 */
bool oa_mem_inplace_last_reader(const oa_node *n, uint32_t slot);

/* ---- io_adjust.c ---- */

/* --out_nodes: NetOutput inputs become the listed node outputs. */
OA_MUST_CHECK oa_status oa_io_set_out_nodes(oa_graph *g, const char *spec);

/* Output names "<producer>:<idx>:<name>" (from the graph as imported);
 * arena strings in *names (count = NetOutput inputs). */
OA_MUST_CHECK oa_status oa_io_output_names(oa_graph *g, const char ***names, size_t *count);

/* --input_fp16_nodes: FLOAT16 Data + Cast to the original dtype. */
OA_MUST_CHECK oa_status oa_io_set_fp16_inputs(oa_graph *g, const char *spec);

/* --output_type: Cast before NetOutput inputs ("FP32" or "node:idx:TYPE;..."). */
OA_MUST_CHECK oa_status oa_io_set_output_types(oa_graph *g, const char *spec);

/* --input_format: format of the Data descs (and where image gears find H/W). */
OA_MUST_CHECK oa_status oa_io_set_input_format(oa_graph *g, const char *fmt);

/* --input_shape_range -> the --input_shape syntax (names from g's Data
 * nodes for the by-index form). Caller frees *out. */
OA_MUST_CHECK oa_status oa_io_range_to_shape(const oa_graph *g, const char *range, char **out);

/* ---- gears.c ---- */

/* The parsed gear table (rows of `dims` values). */
typedef struct oa_gear_table {
    oa_gear_kind kind;
    size_t count, dims;
    int64_t *v;         /* count * dims, malloc'd */
    size_t num_inputs;
    int64_t *first;     /* by Data index: position of its first -1 dim in a row, -1 when static */
} oa_gear_table;

/* Parses and checks --dynamic_* against the Data shapes of g (which carry
 * -1 at the dynamic positions). CANN's checks and messages (E10018,
 * E10019, E10031, E10035-E10039, E10003). */
OA_MUST_CHECK oa_status oa_gears_parse(const oa_graph *g, oa_gear_kind kind, const char *spec,
                                       const char *input_shape, const char *input_format, oa_gear_table *t);
void oa_gears_free(oa_gear_table *t);

/* Static shape of Data `data` in gear `i`. */
OA_MUST_CHECK oa_status oa_gears_shape(const oa_graph *g, const oa_gear_table *t, const char *input_format,
                                       const oa_node *data, size_t gear, oa_shape *out);

/*
 * Builds the multi-batch root: Data inputs (max gear shapes,
 * _mbatch_origin_input_dims), ascend_mbatch_shape_data (last input),
 * MapIndex, Case with one branch per gear graph, NetOutput with
 * _dynamic_output_dims. `base` is the graph with -1 dims (names, attrs);
 * gear_graphs[i] are compiled static graphs (copied into the branches).
 */
OA_MUST_CHECK oa_status oa_gears_assemble(const oa_graph *base, const oa_gear_table *t, oa_graph *const *gear_graphs,
                                          const char *input_format, const char *user_order, oa_graph **out);

/* Names of the inputs in --input_shape order (user_designate_shape_order). */
OA_MUST_CHECK oa_status oa_gears_user_order(const oa_graph *g, const char *input_shape, const char ***names,
                                            size_t *count);

#endif /* OA_COMPILER_COMPILER_INTERNAL_H */
