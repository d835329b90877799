/* The one-node IR graph of a single operator (op_exec.h, oa_opgraph_build). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl_op/op_exec.h"
#include "base/error.h"
#include "base/util.h"
#include "graph/arena.h"
#include "graph/infer.h"
#include "graph/op.h"

void oa_opspec_tensor_from_desc(oa_opspec_tensor *t, const aclTensorDesc *d, const aclTensorDesc *dims_from)
{
    memset(t, 0, sizeof(*t));
    const aclTensorDesc *s = dims_from != NULL ? dims_from : d;
    t->dtype = d->data_type;
    t->format = d->format;
    t->dims = s->dims;
    t->ndims = s->dim_count;
    t->range = (const int64_t(*)[2])d->shape_range;
    t->nrange = d->shape_range_count;
    t->absent = d->data_type == ACL_DT_UNDEFINED && d->format == ACL_FORMAT_UNDEFINED && d->dim_count == 0;
    t->is_const = d->is_const;
    t->const_data = d->const_data;
    t->const_len = d->const_data_len;
    t->name = d->name;
}

static oa_status shape_of(const oa_opspec_tensor *t, const char *what, oa_shape *s)
{
    if (t->ndims == 1 && t->dims[0] == OA_UNKNOWN_RANK) {
        *s = oa_shape_unknown_rank();
        return OA_OK;
    }
    if (t->ndims > OA_MAX_RANK) {
        return OA_FAIL(OA_E_PARAM, "%s has %zu dims; single operators take at most %d", what, t->ndims, OA_MAX_RANK);
    }
    for (size_t i = 0; i < t->ndims; ++i) {
        if (t->dims[i] < OA_UNKNOWN_DIM) {
            return OA_FAIL(OA_E_PARAM, "%s: dim %zu is %lld", what, i, (long long)t->dims[i]);
        }
    }
    *s = oa_shape_make((int32_t)t->ndims, t->dims);
    return OA_OK;
}

static oa_status dtype_of(aclDataType dt, const char *what, oa_dtype *out)
{
    if (dt == ACL_DT_UNDEFINED || !oa_dtype_valid((int)dt)) {
        return OA_FAIL(OA_E_UNSUPPORTED_DATA_TYPE, "%s: data type %d is not supported", what, (int)dt);
    }
    *out = (oa_dtype)dt;
    return OA_OK;
}

static oa_format format_of(aclFormat f)
{
    return (f == ACL_FORMAT_UNDEFINED || f < 0 || (int)f >= OA_FORMAT_END) ? OA_FORMAT_ND : (oa_format)f;
}

static oa_status add_input(oa_graph *g, const oa_opspec_tensor *t, int i, int *data_idx, oa_node **src)
{
    char what[48], name[48];
    snprintf(what, sizeof what, "input %d", i);
    oa_dtype dt = OA_DT_FLOAT;
    oa_shape s;
    oa_status st = dtype_of(t->dtype, what, &dt);
    if (st == OA_OK) {
        st = shape_of(t, what, &s);
    }
    if (st != OA_OK) {
        return st;
    }
    if (t->is_const) {
        size_t need = 0;
        if (!oa_tensor_nbytes(dt, &s, &need) || need != t->const_len) {
            return OA_FAIL(OA_E_PARAM, "%s is constant with %zu bytes of data; its description needs %zu", what,
                           t->const_len, need);
        }
        oa_tensor *k;
        snprintf(name, sizeof name, "const%d", i);
        st = oa_graph_make_tensor(g, dt, &s, t->const_len ? t->const_data : NULL, t->const_len, &k);
        if (st == OA_OK) {
            k->desc.format = k->desc.origin_format = format_of(t->format);
            st = oa_graph_add_const(g, name, k, src);
        }
        if (st == OA_OK) {
            (*src)->outputs[0].desc.format = (*src)->outputs[0].desc.origin_format = format_of(t->format);
        }
        return st;
    }
    snprintf(name, sizeof name, "input%d", *data_idx);
    st = oa_graph_add_data(g, name, *data_idx, dt, &s, format_of(t->format), src);
    if (st == OA_OK && t->nrange > 0 && s.rank > 0) {
        if (t->nrange != (size_t)s.rank) {
            return OA_FAIL(OA_E_PARAM, "%s has %d dims but %zu shape ranges", what, (int)s.rank, t->nrange);
        }
        int64_t lo[OA_MAX_RANK], hi[OA_MAX_RANK];
        for (int k = 0; k < s.rank; ++k) {
            lo[k] = t->range[k][0];
            hi[k] = t->range[k][1];
        }
        st = oa_graph_set_input_shape(*src, &s, lo, hi);
    }
    ++*data_idx;
    return st;
}

/* Output k: the caller's static description wins over unknown inferred dims; contradictions fail. */
static oa_status reconcile_output(oa_node *n, int k, const oa_opspec_tensor *t)
{
    char what[48];
    snprintf(what, sizeof what, "output %d", k);
    oa_tensor_desc *d = &n->outputs[k].desc;
    oa_shape s;
    oa_status st = shape_of(t, what, &s);
    if (st != OA_OK) {
        return st;
    }
    if (oa_shape_is_static(&s)) {
        if (oa_shape_is_static(&d->shape) && !oa_shape_equal(&s, &d->shape)) {
            char a[96], b[96];
            return OA_FAIL(OA_E_PARAM, "%s of %s is described as %s but the op gives %s", what, n->type_name,
                           oa_shape_str(&s, a, sizeof a), oa_shape_str(&d->shape, b, sizeof b));
        }
        d->shape = s;
        d->has_range = false;
        d->value = NULL;
    }
    oa_dtype dt = OA_DT_FLOAT;
    if (t->dtype != ACL_DT_UNDEFINED && dtype_of(t->dtype, what, &dt) == OA_OK) {
        d->dtype = dt;
    }
    if (t->format != ACL_FORMAT_UNDEFINED) {
        d->format = d->origin_format = format_of(t->format);
    }
    return OA_OK;
}

oa_status oa_opgraph_build(const oa_opspec *spec, bool infer, oa_graph **graph, oa_node **node)
{
    *graph = NULL;
    *node = NULL;
    const oa_op_type t = oa_op_type_from_name(spec->type);
    if (t == OA_OP_UNKNOWN) {
        return OA_FAIL(OA_E_OP_NOT_FOUND, "op type %s is not supported by the CPU compiler (see docs/ops.md)",
                       spec->type);
    }
    oa_op_io io[64];
    const size_t decl_in = oa_op_ir_inputs(t, io, 0);
    const size_t decl_out = oa_op_ir_outputs(t, io, OA_ARRAY_SIZE(io));
    bool dyn_out = false;
    for (size_t k = 0; k < decl_out && k < OA_ARRAY_SIZE(io); ++k) {
        dyn_out = dyn_out || io[k].dynamic;
    }
    if ((uint32_t)spec->n_in < oa_op_min_inputs(t)) {
        return OA_FAIL(OA_E_PARAM, "op %s needs at least %u inputs, %d given", spec->type, oa_op_min_inputs(t),
                       spec->n_in);
    }
    if ((size_t)spec->n_in > decl_in && !oa_op_has_dynamic_inputs(t)) {
        return OA_FAIL(OA_E_PARAM, "op %s takes at most %zu inputs, %d given", spec->type, decl_in, spec->n_in);
    }
    if ((size_t)spec->n_out > decl_out && !dyn_out) {
        return OA_FAIL(OA_E_PARAM, "op %s has %zu outputs, %d described", spec->type, decl_out, spec->n_out);
    }
    if (spec->n_out < 1) {
        return OA_FAIL(OA_E_PARAM, "op %s: no output described", spec->type);
    }
    oa_graph *g;
    oa_status st = oa_graph_create("single_op", &g);
    if (st != OA_OK) {
        return st;
    }
    const uint32_t n_slots =
        oa_op_has_dynamic_inputs(t) ? (uint32_t)spec->n_in : (uint32_t)OA_MAX((size_t)spec->n_in, decl_in);
    const uint32_t n_outs = (dyn_out || (size_t)spec->n_out > decl_out) ? (uint32_t)spec->n_out : (uint32_t)decl_out;
    oa_node *n = NULL;
    st = oa_graph_add_node(g, t, spec->type, n_slots, n_outs, &n);
    if (st == OA_OK) {
        st = oa_opattr_to_ir(spec->attr, g, &n->attrs);
    }
    int data_idx = 0;
    for (int i = 0; i < spec->n_in && st == OA_OK; ++i) {
        if (spec->in[i].absent) {
            continue;
        }
        oa_node *src = NULL;
        st = add_input(g, &spec->in[i], i, &data_idx, &src);
        if (st == OA_OK) {
            st = oa_node_connect(n, (uint32_t)i, src, 0);
        }
    }
    if (st == OA_OK && infer) {
        st = oa_graph_infer(g); /* Const/Data first: their values reach the op's shape inputs */
    }
    for (int k = 0; k < spec->n_out && st == OA_OK; ++k) {
        st = reconcile_output(n, k, &spec->out[k]);
    }
    oa_node *no = NULL;
    if (st == OA_OK) {
        st = oa_graph_add_net_output(g, "Node_Output", (uint32_t)spec->n_out, &no);
    }
    for (int k = 0; k < spec->n_out && st == OA_OK; ++k) {
        st = oa_node_connect(no, (uint32_t)k, n, (uint32_t)k);
        if (st == OA_OK && spec->out[k].name != NULL && spec->out[k].name[0] != '\0') {
            no->inputs[k].desc.name = oa_arena_strdup(oa_graph_arena(g), spec->out[k].name);
        }
    }
    if (st != OA_OK) {
        oa_graph_destroy(g);
        return st;
    }
    *graph = g;
    *node = n;
    return OA_OK;
}
