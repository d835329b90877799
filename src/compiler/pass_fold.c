/*
 * Constant folding. Three sources of compile-time data:
 *   - value inference (graph/infer.h): small integer and tiny float
 *     tensors whose every element is known, which covers the shape
 *     subgraphs of static inputs (Shape -> Gather -> Concat -> Reshape) and
 *     arithmetic on small constants;
 *   - shape-only ops (Reshape, Squeeze, Unsqueeze, Flatten, ExpandDims,
 *     Identity) of a Const of any size: the new Const shares the bytes;
 *   - elementwise ops, Cast and Transpose whose inputs are all Consts of any
 *     size run once through the CPU kernels (pass_fold_kernels.c).
 */
#define OA_LOG_MODULE "GE"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/fp16.h"
#include "compiler/pass_util.h"
#include "compiler/passes.h"

static double value_f(const oa_value *v, int64_t k)
{
    return v->f ? v->f[k] : (double)v->i[k];
}

static int64_t value_i(const oa_value *v, int64_t k)
{
    return v->i ? v->i[k] : (int64_t)v->f[k];
}

/* Writes v as dt elements into buf (count elements). False for dtypes we
 * do not materialise. */
static bool value_to_bytes(const oa_value *v, oa_dtype dt, void *buf)
{
    for (int64_t k = 0; k < v->count; k++) {
        switch (dt) {
        case OA_DT_FLOAT: ((float *)buf)[k] = (float)value_f(v, k); break;
        case OA_DT_DOUBLE: ((double *)buf)[k] = value_f(v, k); break;
        case OA_DT_FLOAT16: ((uint16_t *)buf)[k] = oa_f32_to_f16((float)value_f(v, k)); break;
        case OA_DT_INT8: ((int8_t *)buf)[k] = (int8_t)value_i(v, k); break;
        case OA_DT_UINT8: ((uint8_t *)buf)[k] = (uint8_t)value_i(v, k); break;
        case OA_DT_BOOL: ((uint8_t *)buf)[k] = value_i(v, k) != 0; break;
        case OA_DT_INT16: ((int16_t *)buf)[k] = (int16_t)value_i(v, k); break;
        case OA_DT_UINT16: ((uint16_t *)buf)[k] = (uint16_t)value_i(v, k); break;
        case OA_DT_INT32: ((int32_t *)buf)[k] = (int32_t)value_i(v, k); break;
        case OA_DT_UINT32: ((uint32_t *)buf)[k] = (uint32_t)value_i(v, k); break;
        case OA_DT_INT64: ((int64_t *)buf)[k] = value_i(v, k); break;
        case OA_DT_UINT64: ((uint64_t *)buf)[k] = (uint64_t)value_i(v, k); break;
        default: return false;
        }
    }
    return true;
}

static bool never_fold(const oa_node *n)
{
    return n->type == OA_OP_CONST || n->type == OA_OP_CONSTANT || n->type == OA_OP_FILE_CONSTANT ||
           n->type == OA_OP_DATA || n->type == OA_OP_NET_OUTPUT || n->num_subgraphs > 0 ||
           n->type == OA_OP_UNKNOWN;
}

static bool shape_only(const oa_node *n)
{
    return (oa_op_flags(n->type) & OA_OPF_VIEW) != 0; /* op_defs.inc F_VIEW */
}

static const char *const_name(const oa_node *n, uint32_t k, char *buf, size_t cap)
{
    if (k == 0) {
        snprintf(buf, cap, "%s_const", n->name);
    } else {
        snprintf(buf, cap, "%s_const_%u", n->name, k);
    }
    return buf;
}

/* Output k of n as a Const from its inferred value; *done when replaced. */
static oa_status fold_from_value(oa_node *n, uint32_t k, bool *done)
{
    *done = false;
    const oa_tensor_desc *d = &n->outputs[k].desc;
    const oa_value *v = d->value;
    int64_t numel;
    size_t bytes, esz = oa_dtype_size(d->dtype);
    if (v == NULL || !oa_value_all_known(v) || !oa_shape_numel(&d->shape, &numel) || numel != v->count ||
        esz == 0 || !oa_tensor_nbytes(d->dtype, &d->shape, &bytes) || oa_cp_num_uses(n, k) == 0) {
        return OA_OK;
    }
    void *buf = malloc(bytes ? bytes : 1);
    if (buf == NULL) {
        return OA_FAIL(OA_E_NOMEM, "out of memory folding %s", n->name);
    }
    oa_status st = OA_OK;
    if (value_to_bytes(v, d->dtype, buf)) {
        char name[512];
        oa_node *c;
        st = oa_cp_add_const(n->graph, const_name(n, k, name, sizeof(name)), d->dtype, &d->shape, buf, bytes, &c);
        if (st == OA_OK) {
            st = oa_graph_replace_uses(n, k, c, 0, NULL);
            *done = st == OA_OK;
        }
    }
    free(buf);
    return st;
}

/* A shape-only op of a Const: a Const with the new shape sharing the bytes. */
static oa_status fold_shape_only(oa_node *n, bool *done)
{
    *done = false;
    const oa_tensor *t = oa_cp_input_const(n, 0);
    const oa_tensor_desc *d = &n->outputs[0].desc;
    size_t bytes;
    if (t == NULL || !oa_shape_is_static(&d->shape) || d->dtype != t->desc.dtype ||
        !oa_tensor_nbytes(d->dtype, &d->shape, &bytes) || bytes != t->size || oa_cp_num_uses(n, 0) == 0) {
        return OA_OK;
    }
    oa_tensor *nt;
    oa_status st = OA_OK;
    if (t->blob != NULL) {
        st = oa_graph_make_tensor_borrowed_ptr(n->graph, d->dtype, &d->shape, t->blob, t->data, t->size, &nt);
    } else {
        /* Bytes owned by this root's arena live as long as the graph: share them. */
        nt = oa_arena_alloc(oa_graph_arena(n->graph), sizeof(*nt), 0);
        if (nt == NULL) {
            return OA_E_NOMEM;
        }
        oa_desc_set(&nt->desc, d->dtype, &d->shape);
        nt->data = t->data;
        nt->size = t->size;
        nt->blob = NULL;
    }
    if (st != OA_OK) {
        return st;
    }
    char name[512];
    const char *nm = oa_graph_unique_name(n->graph, const_name(n, 0, name, sizeof(name)));
    if (nm == NULL) {
        return OA_E_NOMEM;
    }
    oa_node *c;
    st = oa_graph_add_const(n->graph, nm, nt, &c);
    if (st == OA_OK) {
        st = oa_graph_replace_uses(n, 0, c, 0, NULL);
        *done = st == OA_OK;
    }
    return st;
}

static oa_status fold_one(oa_graph *g, size_t *changed)
{
    oa_node **order;
    size_t count;
    oa_status st = oa_graph_topo_order(g, &order, &count);
    if (st != OA_OK) {
        return st;
    }
    for (size_t i = 0; i < count && st == OA_OK; i++) {
        oa_node *n = order[i];
        if (never_fold(n)) {
            continue;
        }
        bool any = false, done = false;
        if (shape_only(n) && n->num_outputs == 1) {
            st = fold_shape_only(n, &done);
            any = done;
        }
        for (uint32_t k = 0; k < n->num_outputs && st == OA_OK && !done; k++) {
            bool one;
            st = fold_from_value(n, k, &one);
            any = any || one;
        }
        if (st == OA_OK && !any) {
            st = oa_cp_fold_with_kernels(n, &any);
        }
        if (st == OA_OK && any) {
            st = oa_cp_remove_if_unused(n);
            if (changed) {
                (*changed)++;
            }
        }
    }
    free(order);
    /* Producers left without readers (the Shape feeding a folded Gather, ...). */
    if (st == OA_OK) {
        st = oa_cp_dce_local(g, NULL);
    }
    return st == OA_OK ? oa_graph_topo_sort(g) : st;
}

oa_status oa_pass_fold_constants(oa_graph *g, size_t *changed)
{
    return oa_cp_for_each_graph(g, fold_one, changed);
}
