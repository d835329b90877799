/*
 * Lowering (docs/dynamic_models.md "Lowering"): the IR root and its subgraphs become
 * execute graphs.
 *
 * Per compute node of a graph, in topological order:
 *   InferShape    only when an output shape (or the value of a small
 *                 integer output) is not known at load;
 *   AllocMemory   the node's outputs, sized from their shapes, from the
 *                 executor's allocator (value -2 of the root feeds);
 *   LaunchKernel  the kernel operator for the current shapes (v2_kop.c);
 *                 LaunchShape for Shape/Size, View for the Reshape family
 *                 (the output shares the input's memory), If/Case/While/
 *                 PartitionedCall for control flow (they run the
 *                 subgraphs' own execute graphs);
 *   FreeMemory    per tensor, with a control edge from every consumer, so
 *                 the memory goes right after its last use.
 * Value cells per tensor: "shape known" (S), "memory allocated" (A) and
 * "data ready" (M) -- three cells pointing at one runtime tensor, so the
 * edges say what each node waits for (InferShape waits for its inputs' S
 * and M: data-dependent shapes read data).
 *
 * The root's model outputs get one OutputData node each; the Init graph
 * binds every Const / FileConstant; the DeInit graph forgets them.
 */
#define OA_LOG_MODULE "GE"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/log.h"
#include "base/util.h"
#include "file_constant/file_constant.h"
#include "graph/infer.h"
#include "model_v2/v2_internal.h"
#include "op_bind/op_bind.h"

/* ---- growing arrays ---- */

#define GROW(arr, n, cap, what)                                                                                      \
    do {                                                                                                             \
        if ((n) == (cap)) {                                                                                          \
            size_t nc_ = (cap) ? (cap) * 2 : 16;                                                                     \
            void *np_ = realloc((arr), nc_ * sizeof(*(arr)));                                                        \
            if (np_ == NULL) {                                                                                       \
                return OA_FAIL(OA_E_NOMEM, "%s", what);                                                              \
            }                                                                                                        \
            (arr) = np_;                                                                                             \
            (cap) = nc_;                                                                                             \
        }                                                                                                            \
    } while (0)

typedef struct lower_ctx {
    v2_model *m;
    v2_program *p;
    size_t cap_graphs, cap_tensors;
    uint32_t *tensor_of; /* per (node id, output) via node->user scratch: base index */
    v2_cnode **all_cnodes;
    size_t n_all, cap_all;
} lower_ctx;

static uint32_t new_value(v2_program *p)
{
    return p->n_values++;
}

static bool is_view_op(oa_op_type t)
{
    return (oa_op_flags(t) & OA_OPF_VIEW) != 0; /* op_defs.inc F_VIEW */
}

static bool is_cf(oa_op_type t)
{
    return t == OA_OP_IF || t == OA_OP_STATELESS_IF || t == OA_OP_CASE || t == OA_OP_WHILE ||
           t == OA_OP_PARTITIONED_CALL;
}

static bool is_const(oa_op_type t)
{
    return t == OA_OP_CONST || t == OA_OP_CONSTANT || t == OA_OP_FILE_CONSTANT;
}

/* A small integer tensor whose value inference may need at run time. */
static bool value_tensor(const oa_tensor_desc *d)
{
    if (!oa_dtype_is_int(d->dtype) && d->dtype != OA_DT_BOOL) {
        return false;
    }
    int64_t n = 0;
    if (!oa_shape_numel(&d->shape, &n)) {
        return true;
    }
    return n <= OA_VALUE_MAX_INT_ELEMS;
}

/* InferShape is needed when an output shape is unknown, or a small integer output's value is not fully known. */
static bool needs_infer(const oa_node *n)
{
    for (uint32_t k = 0; k < n->num_outputs; ++k) {
        const oa_tensor_desc *d = &n->outputs[k].desc;
        if (!oa_shape_is_static(&d->shape)) {
            return true;
        }
        if (value_tensor(d) && (d->value == NULL || !oa_value_all_known(d->value))) {
            return true;
        }
    }
    return false;
}

/*
 * The value of a small constant, for shape inference at run time (the .om
 * keeps the bytes, not the inferred values). Allocated in the graph's arena
 * (load time, one thread).
 */
static const oa_value *const_value(oa_graph *g, const oa_tensor *t, const void *d)
{
    const oa_dtype dt = t->desc.dtype;
    const bool is_int = oa_dtype_is_int(dt) || dt == OA_DT_BOOL;
    const bool is_float = dt == OA_DT_FLOAT || dt == OA_DT_DOUBLE;
    int64_t n = 0;
    size_t want = 0;
    if ((!is_int && !is_float) || !oa_shape_numel(&t->desc.shape, &n) ||
        n > (is_int ? OA_VALUE_MAX_INT_ELEMS : OA_VALUE_MAX_FLOAT_ELEMS) ||
        !oa_tensor_nbytes(dt, &t->desc.shape, &want) || want > t->size || (n > 0 && d == NULL)) {
        return NULL;
    }
    oa_arena *a = oa_graph_arena(g);
    oa_value *v = oa_arena_alloc(a, sizeof(*v), 0);
    if (v == NULL) {
        return NULL;
    }
    v->dtype = dt;
    v->count = n;
    if (is_int) {
        int64_t *iv = oa_arena_array(a, n ? (size_t)n : 1, sizeof(int64_t));
        if (iv == NULL) {
            return NULL;
        }
        for (int64_t k = 0; k < n; ++k) {
            switch (dt) {
            case OA_DT_INT64: iv[k] = ((const int64_t *)d)[k]; break;
            case OA_DT_INT32: iv[k] = ((const int32_t *)d)[k]; break;
            case OA_DT_UINT64: iv[k] = (int64_t)((const uint64_t *)d)[k]; break;
            case OA_DT_UINT32: iv[k] = ((const uint32_t *)d)[k]; break;
            case OA_DT_INT16: iv[k] = ((const int16_t *)d)[k]; break;
            case OA_DT_UINT16: iv[k] = ((const uint16_t *)d)[k]; break;
            case OA_DT_INT8: iv[k] = ((const int8_t *)d)[k]; break;
            case OA_DT_UINT8:
            case OA_DT_BOOL: iv[k] = ((const uint8_t *)d)[k]; break;
            default: return NULL;
            }
        }
        v->i = iv;
    } else {
        double *fv = oa_arena_array(a, n ? (size_t)n : 1, sizeof(double));
        if (fv == NULL) {
            return NULL;
        }
        for (int64_t k = 0; k < n; ++k) {
            fv[k] = dt == OA_DT_FLOAT ? (double)((const float *)d)[k] : ((const double *)d)[k];
        }
        v->f = fv;
    }
    return v;
}

/*
 * Kernels need constants at their type's alignment; the weights partition
 * of an .om starts wherever the partitions before it end, so a constant of
 * the image may sit at an odd address: it is then copied (64-byte aligned,
 * owned by the model) once at load.
 */
static const void *aligned_data(v2_model *m, const oa_tensor *t)
{
    const size_t al = oa_dtype_align(t->desc.dtype);
    if (t->data == NULL || t->size == 0 || ((uintptr_t)t->data % al) == 0) {
        return t->data;
    }
    void **grown = realloc(m->copies, (m->n_copies + 1) * sizeof(void *));
    if (grown == NULL) {
        return NULL;
    }
    m->copies = grown;
    void *c = aligned_alloc(64, (t->size + 63) & ~(size_t)63);
    if (c == NULL) {
        return NULL;
    }
    memcpy(c, t->data, t->size);
    m->copies[m->n_copies++] = c;
    return c;
}

/* ---- graph collection ---- */

static oa_status add_graph(lower_ctx *c, const oa_graph *g, bool root, v2_gprog **out)
{
    v2_program *p = c->p;
    GROW(p->graphs, p->n_graphs, c->cap_graphs, "graph programs");
    v2_gprog *gp = calloc(1, sizeof(*gp));
    if (gp == NULL) {
        return OA_FAIL(OA_E_NOMEM, "graph program");
    }
    gp->index = p->n_graphs;
    gp->g = g;
    gp->name = oa_graph_name(g);
    gp->is_root = root;
    oa_v2_plan_cache_init(&gp->plans);
    p->graphs[p->n_graphs++] = gp;
    *out = gp;
    return OA_OK;
}

static oa_status new_tensor(lower_ctx *c, v2_gprog *gp, const oa_node *n, uint32_t k, v2_tkind kind, uint32_t *id)
{
    v2_program *p = c->p;
    GROW(p->tensors, p->n_tensors, c->cap_tensors, "tensors");
    v2_tdef *t = &p->tensors[p->n_tensors];
    memset(t, 0, sizeof(*t));
    t->id = p->n_tensors;
    t->kind = kind;
    t->node = n;
    t->index = k;
    t->graph = gp->index;
    t->input_index = -1;
    t->vs = t->va = t->vm = V2_NONE;
    *id = p->n_tensors++;
    return OA_OK;
}

/* The tensor of output k of n (nodes carry their first tensor id in `mark`). */
static uint32_t tensor_of(const oa_node *n, uint32_t k)
{
    return n->mark == UINT32_MAX ? V2_NONE : n->mark + k;
}

static oa_status lower_graph(lower_ctx *c, v2_gprog *gp, v2_ckind owner_kind);

static oa_status make_cnode(lower_ctx *c, v2_gprog *gp, const oa_node *n, v2_cnode **out)
{
    v2_cnode *cn = calloc(1, sizeof(*cn));
    if (cn == NULL) {
        return OA_FAIL(OA_E_NOMEM, "compute node");
    }
    cn->node = n;
    cn->graph = gp->index;
    cn->model = c->m;
    cn->n_in = n->num_inputs;
    cn->n_out = n->num_outputs;
    cn->in_t = malloc((cn->n_in + 1) * sizeof(uint32_t));
    cn->out_t = malloc((cn->n_out + 1) * sizeof(uint32_t));
    oa_v2_kops_init(&cn->kops);
    if (cn->in_t == NULL || cn->out_t == NULL) {
        free(cn->in_t);
        free(cn->out_t);
        free(cn);
        return OA_FAIL(OA_E_NOMEM, "compute node");
    }
    for (uint32_t i = 0; i < cn->n_in; ++i) {
        const oa_input *ip = &n->inputs[i];
        cn->in_t[i] = ip->src != NULL ? tensor_of(ip->src, ip->src_index) : V2_NONE;
    }
    for (uint32_t k = 0; k < cn->n_out; ++k) {
        cn->out_t[k] = tensor_of(n, k);
    }
    if (c->n_all == c->cap_all) {
        const size_t cap = c->cap_all ? c->cap_all * 2 : 64;
        v2_cnode **a = realloc(c->all_cnodes, cap * sizeof(*a));
        if (a == NULL) {
            oa_v2_kops_deinit(&cn->kops);
            free(cn->in_t);
            free(cn->out_t);
            free(cn);
            return OA_FAIL(OA_E_NOMEM, "compute nodes");
        }
        c->all_cnodes = a;
        c->cap_all = cap;
    }
    cn->gid = (uint32_t)c->n_all;
    c->all_cnodes[c->n_all++] = cn;
    *out = cn;
    return OA_OK;
}

/* Parent input slot a subgraph Data node binds. */
static int64_t parent_slot(const oa_node *d, v2_ckind owner)
{
    int64_t p;
    if (oa_attrs_get_int(&d->attrs, "_parent_node_index", &p)) {
        return p;
    }
    int64_t idx = oa_node_attr_int(d, "index", -1);
    if (idx < 0) {
        return -1;
    }
    return (owner == V2_C_IF || owner == V2_C_CASE) ? idx + 1 : idx;
}

static oa_status collect_children(lower_ctx *c, v2_cnode *cn)
{
    const oa_node *n = cn->node;
    oa_graph *sg[2] = {NULL, NULL};
    switch (cn->kind) {
    case V2_C_IF:
        sg[0] = oa_node_subgraph_by_ir_name(n, "then_branch");
        sg[1] = oa_node_subgraph_by_ir_name(n, "else_branch");
        if (sg[0] == NULL || sg[1] == NULL) {
            sg[0] = oa_node_subgraph(n, 0);
            sg[1] = oa_node_subgraph(n, 1);
        }
        cn->n_children = 2;
        break;
    case V2_C_WHILE:
        sg[0] = oa_node_subgraph_by_ir_name(n, "cond");
        sg[1] = oa_node_subgraph_by_ir_name(n, "body");
        if (sg[0] == NULL || sg[1] == NULL) {
            sg[0] = oa_node_subgraph(n, 0);
            sg[1] = oa_node_subgraph(n, 1);
        }
        cn->n_children = 2;
        break;
    case V2_C_CALL:
        sg[0] = oa_node_subgraph_by_ir_name(n, "f");
        if (sg[0] == NULL) {
            sg[0] = oa_node_subgraph(n, 0);
        }
        cn->n_children = 1;
        break;
    default: /* Case */
        cn->n_children = n->num_subgraphs;
        break;
    }
    if (cn->n_children == 0 || cn->n_children > 4096) {
        return OA_FAIL(OA_E_GE_PARAM, "node %s (%s) has %u subgraphs", n->name, n->type_name, cn->n_children);
    }
    cn->children = calloc(cn->n_children, sizeof(*cn->children));
    if (cn->children == NULL) {
        return OA_FAIL(OA_E_NOMEM, "subgraph list");
    }
    for (uint32_t i = 0; i < cn->n_children; ++i) {
        oa_graph *g = cn->kind == V2_C_CASE ? oa_node_subgraph(n, i) : sg[i];
        if (g == NULL) {
            return OA_FAIL(OA_E_GE_PARAM, "node %s (%s) misses subgraph %u", n->name, n->type_name, i);
        }
        v2_gprog *child;
        oa_status st = add_graph(c, g, false, &child);
        if (st == OA_OK) {
            st = lower_graph(c, child, cn->kind);
        }
        if (st != OA_OK) {
            return st;
        }
        cn->children[i] = child;
    }
    return OA_OK;
}

/* Tensors of every node of gp, compute nodes, subgraphs (recursively). */
static oa_status lower_graph(lower_ctx *c, v2_gprog *gp, v2_ckind owner_kind)
{
    oa_node **order = NULL;
    size_t count = 0;
    oa_status st = oa_graph_topo_order(gp->g, &order, &count);
    if (st != OA_OK) {
        return st;
    }
    size_t n_binds = 0, n_cn = 0;
    for (size_t i = 0; i < count; ++i) {
        if (order[i]->type == OA_OP_DATA) {
            n_binds++;
        } else if (order[i]->type != OA_OP_NET_OUTPUT && !is_const(order[i]->type)) {
            n_cn++;
        }
    }
    gp->binds = calloc(n_binds + 1, sizeof(*gp->binds));
    gp->cnodes = calloc(n_cn + 1, sizeof(*gp->cnodes));
    if (gp->binds == NULL || gp->cnodes == NULL) {
        free(order);
        return OA_FAIL(OA_E_NOMEM, "graph %s", gp->name);
    }
    const oa_node *net_output = NULL;
    for (size_t i = 0; i < count && st == OA_OK; ++i) {
        oa_node *n = order[i];
        n->mark = UINT32_MAX;
        if (n->type == OA_OP_NET_OUTPUT) {
            net_output = n;
            continue;
        }
        if (n->type == OA_OP_UNKNOWN) {
            st = OA_FAIL(OA_E_OP_NOT_FOUND, "node %s: op type %s is not supported by the dynamic executor", n->name,
                         n->type_name);
            break;
        }
        v2_tkind kind = V2_T_COMPUTED;
        if (n->type == OA_OP_DATA) {
            kind = V2_T_INPUT;
        } else if (is_const(n->type)) {
            kind = V2_T_CONST;
        } else if (is_cf(n->type)) {
            kind = V2_T_CF;
        } else if (n->type == OA_OP_SHAPE || n->type == OA_OP_SIZE) {
            kind = V2_T_SHAPE;
        } else if (is_view_op(n->type) && n->num_inputs >= 1 && n->inputs[0].src != NULL && n->num_outputs == 1) {
            kind = V2_T_VIEW;
        }
        for (uint32_t k = 0; k < n->num_outputs && st == OA_OK; ++k) {
            uint32_t id = 0;
            st = new_tensor(c, gp, n, k, kind, &id);
            if (st == OA_OK && k == 0) {
                n->mark = id;
            }
        }
        if (st != OA_OK) {
            break;
        }
        if (n->type == OA_OP_DATA) {
            v2_tdef *t = &c->p->tensors[n->mark];
            if (gp->is_root) {
                t->input_index = (int32_t)oa_node_attr_int(n, "index", -1);
            } else {
                const int64_t ps = parent_slot(n, owner_kind);
                if (ps < 0 || ps > INT32_MAX) {
                    st = OA_FAIL(OA_E_GE_PARAM, "subgraph %s: Data node %s binds no parent input", gp->name, n->name);
                    break;
                }
                t->input_index = (int32_t)ps;
            }
            if (t->input_index < 0) {
                st = OA_FAIL(OA_E_GE_PARAM, "graph %s: Data node %s has no index", gp->name, n->name);
                break;
            }
            gp->binds[gp->n_binds].tensor = t->id;
            gp->binds[gp->n_binds++].parent_index = (uint32_t)t->input_index;
            continue;
        }
        if (is_const(n->type)) {
            v2_tdef *t = &c->p->tensors[n->mark];
            if (n->type != OA_OP_FILE_CONSTANT) {
                st = oa_node_require_tensor(n, "value", &t->konst);
                if (st == OA_OK && n->num_outputs != 1) {
                    st = OA_FAIL(OA_E_GE_PARAM, "const node %s has %u outputs", n->name, n->num_outputs);
                }
                if (st == OA_OK) {
                    t->kdata = aligned_data(c->m, t->konst);
                    if (t->kdata == NULL && t->konst->size > 0) {
                        st = OA_FAIL(OA_E_NOMEM, "const %s: aligned copy of %zu bytes", n->name, t->konst->size);
                    }
                }
                if (st == OA_OK) {
                    t->konst_value = n->outputs[0].desc.value != NULL ? n->outputs[0].desc.value
                                                                       : const_value(c->m->root, t->konst, t->kdata);
                }
            }
            continue;
        }
        v2_cnode *cn = NULL;
        st = make_cnode(c, gp, n, &cn);
        if (st != OA_OK) {
            break;
        }
        gp->cnodes[gp->n_cnodes++] = cn;
        switch (n->type) {
        case OA_OP_IF:
        case OA_OP_STATELESS_IF: cn->kind = V2_C_IF; break;
        case OA_OP_CASE: cn->kind = V2_C_CASE; break;
        case OA_OP_WHILE: cn->kind = V2_C_WHILE; break;
        case OA_OP_PARTITIONED_CALL: cn->kind = V2_C_CALL; break;
        case OA_OP_SHAPE: cn->kind = V2_C_SHAPE; break;
        case OA_OP_SIZE: cn->kind = V2_C_SIZE; break;
        default: cn->kind = kind == V2_T_VIEW ? V2_C_VIEW : V2_C_LAUNCH; break;
        }
        for (uint32_t i2 = 0; i2 < cn->n_in && st == OA_OK; ++i2) {
            if (n->inputs[i2].src != NULL && cn->in_t[i2] == V2_NONE) {
                st = OA_FAIL(OA_E_GE_PARAM, "node %s input %u reads %s, which produces no tensor", n->name, i2,
                             n->inputs[i2].src->name);
            }
        }
        if (st != OA_OK) {
            break;
        }
        if (cn->kind >= V2_C_IF) {
            gp->has_cf = true;
            if (cn->kind == V2_C_WHILE) {
                gp->has_while = true;
            }
            st = collect_children(c, cn);
        } else {
            cn->dynamic = needs_infer(n);
        }
    }
    /* values that follow from shapes alone (provenance, in topological order) */
    for (uint32_t i = 0; i < gp->n_cnodes && st == OA_OK; ++i) {
        const v2_cnode *cn = gp->cnodes[i];
        bool det = cn->kind == V2_C_SHAPE || cn->kind == V2_C_SIZE;
        if (!det && (cn->kind == V2_C_LAUNCH || cn->kind == V2_C_VIEW)) {
            det = true;
            for (uint32_t k = 0; k < cn->n_in && det; ++k) {
                if (cn->in_t[k] != V2_NONE) {
                    const v2_tdef *t = &c->p->tensors[cn->in_t[k]];
                    det = t->kind == V2_T_CONST || t->shape_determined;
                }
            }
        }
        for (uint32_t k = 0; k < cn->n_out; ++k) {
            c->p->tensors[cn->out_t[k]].shape_determined = det;
        }
    }
    if (st == OA_OK && net_output != NULL) {
        gp->n_out = net_output->num_inputs;
        gp->out_t = malloc((gp->n_out + 1) * sizeof(uint32_t));
        if (gp->out_t == NULL) {
            st = OA_FAIL(OA_E_NOMEM, "graph outputs");
        }
        for (uint32_t i = 0; i < gp->n_out && st == OA_OK; ++i) {
            const oa_input *ip = &net_output->inputs[i];
            gp->out_t[i] = ip->src != NULL ? tensor_of(ip->src, ip->src_index) : V2_NONE;
            if (gp->out_t[i] == V2_NONE) {
                st = OA_FAIL(OA_E_GE_PARAM, "graph %s: output %u is not connected to a tensor", gp->name, i);
            } else {
                c->p->tensors[gp->out_t[i]].graph_output = true;
            }
        }
    }
    free(order);
    return st;
}

/* ---- execute graphs ---- */

typedef struct tuse {
    uint32_t tensor;
    size_t node;
} tuse;

typedef struct uses {
    tuse *v;
    size_t n, cap;
} uses;

static oa_status add_use(uses *u, uint32_t tensor, size_t node)
{
    GROW(u->v, u->n, u->cap, "tensor uses");
    u->v[u->n].tensor = tensor;
    u->v[u->n++].node = node;
    return OA_OK;
}

static void assign_values(v2_program *p, v2_tdef *t)
{
    if (t->vm != V2_NONE) {
        return;
    }
    switch (t->kind) {
    case V2_T_INPUT:
    case V2_T_CONST:
        t->vs = t->va = t->vm = new_value(p);
        break;
    case V2_T_VIEW:
    case V2_T_CF:
        t->vs = new_value(p);
        t->vm = new_value(p);
        t->va = t->vm;
        break;
    default:
        t->vs = new_value(p);
        t->va = new_value(p);
        t->vm = new_value(p);
        break;
    }
}

/* State of one Main graph while build_main assembles it. */
typedef struct main_build {
    v2_program *p;
    v2_gprog *gp;
    oa_v2_bgraph *bg;
    uses u;              /* (tensor, execute node) pairs: who must finish before FreeMemory */
    uint32_t *vin, *vout; /* value lists of the node being added */
    size_t cap_io;
} main_build;

/* Phase 1: every tensor of this graph gets its value cells. */
static void main_assign_values(main_build *b)
{
    for (uint32_t t = 0; t < b->p->n_tensors; ++t) {
        if (b->p->tensors[t].graph == b->gp->index) {
            assign_values(b->p, &b->p->tensors[t]);
        }
    }
}

/* Phase 2: the feeds, the graph's inputs and (root only) the stream, allocator, events and notifies. */
static oa_status main_add_feeds(main_build *b)
{
    const v2_program *p = b->p;
    const v2_gprog *gp = b->gp;
    oa_status st = OA_OK;
    for (uint32_t i = 0; i < gp->n_binds && st == OA_OK; ++i) {
        const v2_tdef *t = &p->tensors[gp->binds[i].tensor];
        st = oa_v2_bgraph_add_feed(b->bg, gp->is_root ? t->input_index : (int64_t)i, t->vm);
    }
    if (gp->is_root && st == OA_OK) {
        st = oa_v2_bgraph_add_feed(b->bg, OA_V2_FEED_STREAM, p->v_stream);
        if (st == OA_OK) {
            st = oa_v2_bgraph_add_feed(b->bg, OA_V2_FEED_ALLOCATOR, p->v_allocator);
        }
        if (st == OA_OK) {
            st = oa_v2_bgraph_add_feed(b->bg, OA_V2_FEED_EVENTS, p->v_events);
        }
        if (st == OA_OK) {
            st = oa_v2_bgraph_add_feed(b->bg, OA_V2_FEED_NOTIFIES, p->v_notifies);
        }
    }
    return st;
}

/* The value lists hold at least what compute node cn needs. */
static oa_status main_reserve_io(main_build *b, const v2_cnode *cn)
{
    const size_t need = (size_t)cn->n_in * 2 + (size_t)cn->n_out * 2 + 4;
    if (need > b->cap_io) {
        free(b->vin);
        free(b->vout);
        b->cap_io = need;
        b->vin = malloc(b->cap_io * sizeof(uint32_t));
        b->vout = malloc(b->cap_io * sizeof(uint32_t));
        if (b->vin == NULL || b->vout == NULL) {
            return OA_FAIL(OA_E_NOMEM, "value lists");
        }
    }
    return OA_OK;
}

/* Phase 3a: InferShape of a node whose shapes are known only at run time (waits for its inputs' S and M). */
static oa_status main_add_infer_shape(main_build *b, v2_cnode *cn)
{
    const v2_program *p = b->p;
    uint32_t ni = 0, no = 0;
    size_t id;
    for (uint32_t k = 0; k < cn->n_in; ++k) {
        if (cn->in_t[k] != V2_NONE) {
            b->vin[ni++] = p->tensors[cn->in_t[k]].vs;
            if (p->tensors[cn->in_t[k]].vm != p->tensors[cn->in_t[k]].vs) {
                b->vin[ni++] = p->tensors[cn->in_t[k]].vm;
            }
        }
    }
    for (uint32_t k = 0; k < cn->n_out; ++k) {
        b->vout[no++] = p->tensors[cn->out_t[k]].vs;
    }
    oa_status st = oa_v2_bgraph_add_node(b->bg, "InferShape", cn->node->name, cn->node->id, b->vin, ni, b->vout, no,
                                         cn, &id);
    for (uint32_t k = 0; k < cn->n_in && st == OA_OK; ++k) {
        if (cn->in_t[k] != V2_NONE) {
            st = add_use(&b->u, cn->in_t[k], id);
        }
    }
    return st;
}

/* Phase 3b: AllocMemory (kernels and shape ops), then the launch node: LaunchKernel, LaunchShape, View or the
 * control-flow node; every input and output of the node is a use. */
static oa_status main_add_launch(main_build *b, v2_cnode *cn)
{
    const v2_program *p = b->p;
    uint32_t *vin = b->vin, *vout = b->vout;
    const size_t cid = cn->node->id;
    const char *nm = cn->node->name;
    uint32_t ni = 0, no = 0;
    size_t id;
    oa_status st = OA_OK;
    const char *ltype = "LaunchKernel";
    switch (cn->kind) {
    case V2_C_LAUNCH:
    case V2_C_SHAPE:
    case V2_C_SIZE:
        for (uint32_t k = 0; k < cn->n_out; ++k) {
            vin[ni++] = p->tensors[cn->out_t[k]].vs;
            vout[no++] = p->tensors[cn->out_t[k]].va;
        }
        vin[ni++] = p->v_allocator;
        st = oa_v2_bgraph_add_node(b->bg, "AllocMemory", nm, cid, vin, ni, vout, no, cn, NULL);
        ni = no = 0;
        for (uint32_t k = 0; k < cn->n_in; ++k) {
            if (cn->in_t[k] != V2_NONE) {
                vin[ni++] = p->tensors[cn->in_t[k]].vm;
            }
        }
        for (uint32_t k = 0; k < cn->n_out; ++k) {
            vin[ni++] = p->tensors[cn->out_t[k]].va;
            vout[no++] = p->tensors[cn->out_t[k]].vm;
        }
        ltype = cn->kind == V2_C_LAUNCH ? "LaunchKernel" : "LaunchShape";
        break;
    case V2_C_VIEW:
        vin[ni++] = p->tensors[cn->in_t[0]].vm;
        vin[ni++] = p->tensors[cn->out_t[0]].vs;
        for (uint32_t k = 1; k < cn->n_in; ++k) {
            if (cn->in_t[k] != V2_NONE) {
                vin[ni++] = p->tensors[cn->in_t[k]].vm;
            }
        }
        vout[no++] = p->tensors[cn->out_t[0]].vm;
        ltype = "View";
        break;
    default:
        for (uint32_t k = 0; k < cn->n_in; ++k) {
            if (cn->in_t[k] != V2_NONE) {
                vin[ni++] = p->tensors[cn->in_t[k]].vm;
            }
        }
        vin[ni++] = p->v_allocator;
        for (uint32_t k = 0; k < cn->n_out; ++k) {
            vout[no++] = p->tensors[cn->out_t[k]].vs;
            vout[no++] = p->tensors[cn->out_t[k]].vm;
        }
        ltype = cn->kind == V2_C_IF     ? "If"
                : cn->kind == V2_C_CASE ? "Case"
                : cn->kind == V2_C_WHILE ? "While"
                                         : "PartitionedCall";
        break;
    }
    if (st == OA_OK) {
        st = oa_v2_bgraph_add_node(b->bg, ltype, nm, cid, vin, ni, vout, no, cn, &id);
    }
    if (st == OA_OK) {
        oa_v2_bgraph_set_role(b->bg, id, OA_V2_BN_LAUNCH);
        for (uint32_t k = 0; k < cn->n_in && st == OA_OK; ++k) {
            if (cn->in_t[k] != V2_NONE) {
                st = add_use(&b->u, cn->in_t[k], id);
            }
        }
        /* outputs nobody reads are freed right after the launch */
        for (uint32_t k = 0; k < cn->n_out && st == OA_OK; ++k) {
            st = add_use(&b->u, cn->out_t[k], id);
        }
    }
    return st;
}

/* Phase 3: the compute nodes in topological order. */
static oa_status main_add_compute_nodes(main_build *b)
{
    oa_status st = OA_OK;
    for (uint32_t i = 0; i < b->gp->n_cnodes && st == OA_OK; ++i) {
        v2_cnode *cn = b->gp->cnodes[i];
        st = main_reserve_io(b, cn);
        if (st == OA_OK && cn->dynamic) {
            st = main_add_infer_shape(b, cn);
        }
        if (st == OA_OK) {
            st = main_add_launch(b, cn);
        }
    }
    return st;
}

/* Phase 4: model outputs (root: one OutputData node each) or subgraph outputs. */
static oa_status main_add_outputs(main_build *b)
{
    v2_program *p = b->p;
    const v2_gprog *gp = b->gp;
    oa_status st = OA_OK;
    for (uint32_t k = 0; k < gp->n_out && st == OA_OK; ++k) {
        const v2_tdef *t = &p->tensors[gp->out_t[k]];
        if (gp->is_root) {
            const uint32_t vi[2] = {t->vs, t->vm};
            const uint32_t vo = new_value(p);
            size_t id;
            st = oa_v2_bgraph_add_node(b->bg, "OutputData", "OutputData", OA_V2_NO_COMPUTE, vi,
                                       t->vs == t->vm ? 1 : 2, &vo, 1, (const void *)(uintptr_t)k, &id);
            if (st == OA_OK) {
                st = oa_v2_bgraph_add_output(b->bg, vo);
            }
            if (st == OA_OK) {
                st = add_use(&b->u, gp->out_t[k], id);
            }
        } else {
            st = oa_v2_bgraph_add_output(b->bg, t->vm);
        }
    }
    return st;
}

/* Phase 5: FreeMemory per tensor this graph owns, with a control edge from every use. */
static oa_status main_add_frees(main_build *b)
{
    v2_program *p = b->p;
    const v2_gprog *gp = b->gp;
    oa_status st = OA_OK;
    for (uint32_t t = 0; t < p->n_tensors && st == OA_OK; ++t) {
        v2_tdef *td = &p->tensors[t];
        if (td->graph != gp->index) {
            continue;
        }
        bool free_it;
        switch (td->kind) {
        case V2_T_CONST: free_it = false; break;
        case V2_T_INPUT: free_it = !gp->is_root && !td->graph_output; break;
        default: free_it = gp->is_root || !td->graph_output; break;
        }
        td->needs_free = free_it;
        if (!free_it) {
            continue;
        }
        size_t fid;
        st = oa_v2_bgraph_add_node(b->bg, "FreeMemory", "FreeMemory", OA_V2_NO_COMPUTE, &td->vm, 1, NULL, 0, td,
                                   &fid);
        if (st != OA_OK) {
            break;
        }
        oa_v2_bgraph_set_role(b->bg, fid, OA_V2_BN_FREE);
        for (size_t k = 0; k < b->u.n && st == OA_OK; ++k) {
            if (b->u.v[k].tensor == t) {
                st = oa_v2_bgraph_add_ctrl(b->bg, b->u.v[k].node, fid);
            }
        }
    }
    return st;
}

/* The Main execute graph of one graph program: values, feeds, compute nodes, outputs, frees, then finish. */
static oa_status build_main(lower_ctx *c, v2_gprog *gp)
{
    main_build b = {.p = c->p, .gp = gp, .bg = oa_v2_bgraph_create(gp->name)};
    if (b.bg == NULL) {
        return OA_E_NOMEM;
    }
    main_assign_values(&b);
    oa_status st = main_add_feeds(&b);
    oa_v2_bgraph_set_control_flow(b.bg, gp->has_cf);
    if (st == OA_OK) {
        st = main_add_compute_nodes(&b);
    }
    if (st == OA_OK) {
        st = main_add_outputs(&b);
    }
    if (st == OA_OK) {
        st = main_add_frees(&b);
    }
    free(b.vin);
    free(b.vout);
    free(b.u.v);
    if (st == OA_OK) {
        st = oa_v2_bgraph_finish(b.bg, oa_v2_kernel_registry(), NULL, &gp->main);
    }
    oa_v2_bgraph_destroy(b.bg);
    return st;
}

static oa_status build_init_deinit(lower_ctx *c)
{
    v2_program *p = c->p;
    oa_v2_bgraph *init = oa_v2_bgraph_create("Init");
    oa_v2_bgraph *deinit = oa_v2_bgraph_create("DeInit");
    if (init == NULL || deinit == NULL) {
        oa_v2_bgraph_destroy(init);
        oa_v2_bgraph_destroy(deinit);
        return OA_E_NOMEM;
    }
    oa_status st = oa_v2_bgraph_add_feed(init, 0, p->v_session);
    if (st == OA_OK) {
        st = oa_v2_bgraph_add_feed(init, 1, p->v_weights);
    }
    if (st == OA_OK) {
        st = oa_v2_bgraph_add_feed(init, 2, p->v_desc);
    }
    for (uint32_t t = 0; t < p->n_tensors && st == OA_OK; ++t) {
        v2_tdef *td = &p->tensors[t];
        if (td->kind != V2_T_CONST) {
            continue;
        }
        assign_values(p, td);
        /* RT2's FileConstant kernels: user memory bound as it is, or the weight (mapped, or a private copy) */
        const char *type = "Const";
        if (td->konst == NULL) {
            const oa_fc_weight *w = c->m->fc_set ? oa_fc_set_find(c->m->fc_set, td->node) : NULL;
            type = (w != NULL && w->source == OA_FC_SRC_USER) ? "FileConstantUserMem" : "FileConstant";
        }
        st = oa_v2_bgraph_add_node(init, type, td->node->name, td->node->id, &p->v_weights, 1, &td->vm, 1, td, NULL);
        if (st == OA_OK) {
            st = oa_v2_bgraph_add_output(init, td->vm);
        }
        if (st == OA_OK) {
            st = oa_v2_bgraph_add_node(deinit, "ReleaseConst", td->node->name, OA_V2_NO_COMPUTE, &td->vm, 1, NULL, 0,
                                       td, NULL);
        }
    }
    if (st == OA_OK) {
        st = oa_v2_bgraph_finish(init, oa_v2_kernel_registry(), NULL, &p->init);
    }
    if (st == OA_OK) {
        st = oa_v2_bgraph_finish(deinit, oa_v2_kernel_registry(), NULL, &p->deinit);
    }
    oa_v2_bgraph_destroy(init);
    oa_v2_bgraph_destroy(deinit);
    return st;
}

oa_status oa_v2_lower(v2_model *m)
{
    v2_program *p = &m->prog;
    memset(p, 0, sizeof(*p));
    lower_ctx c = {.m = m, .p = p};
    p->v_session = new_value(p);
    p->v_weights = new_value(p);
    p->v_desc = new_value(p);
    p->v_stream = new_value(p);
    p->v_allocator = new_value(p);
    p->v_events = new_value(p);
    p->v_notifies = new_value(p);
    v2_gprog *root;
    oa_status st = add_graph(&c, m->root, true, &root);
    if (st == OA_OK) {
        st = lower_graph(&c, root, V2_C_CALL);
    }
    if (st == OA_OK) {
        /* the Init graph first: constants get their cells before any Main graph reads them */
        st = build_init_deinit(&c);
    }
    for (uint32_t g = 0; g < p->n_graphs && st == OA_OK; ++g) {
        st = build_main(&c, p->graphs[g]);
    }
    p->n_cnodes = (uint32_t)c.n_all;
    free(c.all_cnodes);
    if (st == OA_OK) {
        p->n_outputs = root->n_out;
    }
    return st;
}

void oa_v2_program_deinit(v2_program *p)
{
    for (uint32_t g = 0; g < p->n_graphs; ++g) {
        v2_gprog *gp = p->graphs[g];
        for (uint32_t i = 0; i < gp->n_cnodes; ++i) {
            v2_cnode *cn = gp->cnodes[i];
            oa_v2_kops_deinit(&cn->kops);
            free(cn->in_t);
            free(cn->out_t);
            free(cn->children);
            free(cn);
        }
        oa_v2_plan_cache_deinit(&gp->plans);
        oa_v2_graph_prog_destroy(gp->main);
        free(gp->cnodes);
        free(gp->binds);
        free(gp->out_t);
        free(gp);
    }
    free(p->graphs);
    free(p->tensors);
    oa_v2_graph_prog_destroy(p->init);
    oa_v2_graph_prog_destroy(p->deinit);
    memset(p, 0, sizeof(*p));
}
