/*
 * Semantic comparison of two IR graphs for the om round-trip tests: same
 * graphs and subgraphs (by name, with their slot names), same nodes in the
 * same order with the same type, edges, control edges, descriptors
 * (everything the .om stores: dtype, formats, shapes, origin shape, range,
 * name, desc attrs) and attributes (any order, same kinds and values,
 * tensor bytes included). Inferred values are not compared (the .om does
 * not store them).
 */
#ifndef OA_TESTS_OM_IR_COMPARE_H
#define OA_TESTS_OM_IR_COMPARE_H

#include <stddef.h>

#include "graph/graph.h"

/* 0 when equal; otherwise -1 with the first difference described in msg. */
int om_ir_compare(const oa_graph *a, const oa_graph *b, char *msg, size_t cap);

#endif /* OA_TESTS_OM_IR_COMPARE_H */
