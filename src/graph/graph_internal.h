/*
 * Graph internals shared by graph*.c, attr.c and infer*.c. Not for users
 * of the IR (they use graph.h).
 */
#ifndef OA_GRAPH_GRAPH_INTERNAL_H
#define OA_GRAPH_GRAPH_INTERNAL_H

#include "graph/graph.h"
#include "graph/strmap.h"

struct oa_graph {
    oa_arena *arena;     /* the root's arena */
    oa_graph *root;      /* self for a root */
    oa_node *parent;     /* owning node, NULL for a root */
    const char *name;
    oa_node *first, *last;
    size_t num_nodes;
    oa_strmap names;     /* node name -> node */
    oa_attrs attrs;
    /* root only */
    uint32_t next_id;
    oa_strmap graph_names;  /* live subgraph name -> graph */
    oa_blob **blobs;        /* references held (malloc'd array) */
    size_t num_blobs, blob_cap;
    oa_graph **all_subgraphs; /* every subgraph ever created, for cleanup */
    size_t num_all, all_cap;
};

/* Records a blob reference held by the root of g (retains it). */
oa_status oa_graph_hold_blob(oa_graph *g, oa_blob *b);

/* Copies a value into g's arena (deep). NULL on OOM (reported). */
const oa_value *oa_graph_copy_value(oa_graph *g, const oa_value *v);

/* Deep copy of a desc's owned pointers (name, value, attrs) into g's arena. */
oa_status oa_graph_copy_desc(oa_graph *g, oa_tensor_desc *dst, const oa_tensor_desc *src);

/* Refreshes input slot i from its producer (dtype, shape, range, value,
 * origin shape); keeps format, name and attrs. */
void oa_node_refresh_input(oa_node *n, uint32_t i);

#endif /* OA_GRAPH_GRAPH_INTERNAL_H */
