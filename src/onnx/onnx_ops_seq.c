/*
 * Sequence ops inside a graph, resolved at import time (src/onnx/README.md,
 * "Sequences inside a graph"). A sequence whose length and positions are known when the
 * model is converted is a list of tensors: SequenceConstruct / Empty /
 * Insert / Erase edit the list, SequenceAt is an Identity of one element,
 * SequenceLength a constant, SplitToSequence a Split (Squeeze for
 * keepdims=0), ConcatFromSequence a Concat (Unsqueeze first for new_axis=1).
 * A position or split size that is not a constant, or a sequence that
 * crosses a graph boundary, is refused with an E16002 error.
 */
#include <string.h>

#include "base/util.h"
#include "onnx/onnx_internal.h"

#define NO_SQUEEZE INT64_MIN

/* One element: output `v` of a node, squeezed at `squeeze` when it is read
 * (SplitToSequence keepdims=0), or unavailable (`v.node == NULL`: the split
 * sizes are only known at run time; the count is known). */
typedef struct seq_item {
    onnx_value v;
    int64_t squeeze;
} seq_item;

typedef struct onnx_seq {
    size_t n;
    seq_item *items;
} onnx_seq;

#define SEQ_FAIL(c, fmt, ...)                                                                 \
    OA_FAIL(OA_E_FEATURE_UNSUPPORTED,                                                                 \
            "E16002: ONNX node %s (%s): " fmt "; the supported op types are listed in docs/onnx_ops.md", \
            (c)->name, (c)->op_type, ##__VA_ARGS__)

static oa_status seq_new(onnx_node_ctx *c, size_t n, onnx_seq **out)
{
    oa_arena *a = oa_graph_arena(c->sc->g);
    onnx_seq *s = oa_arena_alloc(a, sizeof(*s), 0);
    if (s == NULL) {
        return OA_E_NOMEM;
    }
    s->n = n;
    s->items = NULL;
    if (n > 0 && (s->items = oa_arena_alloc(a, n * sizeof(*s->items), 0)) == NULL) {
        return OA_E_NOMEM;
    }
    *out = s;
    return OA_OK;
}

static oa_status seq_bind(onnx_node_ctx *c, uint32_t j, onnx_seq *s)
{
    if (!oa_onnx_has_output(c, j)) {
        return OA_OK;
    }
    const char *key = oa_arena_strdup(oa_graph_arena(c->sc->g), c->np->output[j]);
    return key ? oa_strmap_put(&c->sc->seqs, key, s) : OA_E_NOMEM;
}

static oa_status seq_input(onnx_node_ctx *c, uint32_t i, const onnx_seq **out)
{
    const char *nm = oa_onnx_has_input(c, i) ? c->np->input[i] : NULL;
    const onnx_seq *s = nm ? oa_strmap_get(&c->sc->seqs, nm) : NULL;
    if (s == NULL) {
        if (nm != NULL && oa_strmap_contains(&c->sc->values, nm)) {
            return SEQ_FAIL(c, "input %u [%s] is a tensor or a sequence from outside this graph; a sequence made "
                               "by sequence ops of the same graph is needed", i, nm);
        }
        return ONNX_FAIL(c, OA_E_PARSE_MODEL, "input %u is not a sequence", i);
    }
    *out = s;
    return OA_OK;
}

/* Integer value of a constant input (a Const node, 0-D or one element). */
static bool const_int(const onnx_node_ctx *c, uint32_t i, int64_t *out)
{
    const onnx_value *v = oa_onnx_input_value(c, i);
    const oa_tensor *t;
    if (v == NULL || (v->node->type != OA_OP_CONST && v->node->type != OA_OP_CONSTANT) ||
        oa_node_require_tensor(v->node, "value", &t) != OA_OK || t->data == NULL) {
        return false;
    }
    int64_t n;
    if (!oa_shape_numel(&t->desc.shape, &n) || n != 1) {
        return false;
    }
    if (t->desc.dtype == OA_DT_INT64) {
        memcpy(out, t->data, sizeof(*out));
        return true;
    }
    if (t->desc.dtype == OA_DT_INT32) {
        int32_t x;
        memcpy(&x, t->data, sizeof(x));
        *out = x;
        return true;
    }
    return false;
}

/* Position input i (absent: dflt), checked against [lo, hi] after adding n to a negative one. */
static oa_status position(onnx_node_ctx *c, uint32_t i, int64_t dflt, int64_t n, int64_t hi, int64_t *out)
{
    int64_t p = dflt;
    if (oa_onnx_has_input(c, i) && !const_int(c, i, &p)) {
        return SEQ_FAIL(c, "the position (input %u) is not a constant; only sequences whose positions are known "
                           "at conversion are supported", i);
    }
    if (p < 0) {
        p += n;
    }
    if (p < 0 || p > hi) {
        return ONNX_FAIL(c, OA_E_PARAM, "position %lld is out of range for a sequence of %lld tensors",
                         (long long)(p < 0 ? p - n : p), (long long)n);
    }
    *out = p;
    return OA_OK;
}

/* The element as a tensor of the graph (a Squeeze when deferred). */
static oa_status item_value(onnx_node_ctx *c, const seq_item *it, oa_node **node, uint32_t *idx)
{
    if (it->v.node == NULL) {
        return SEQ_FAIL(c, "the sequence comes from SplitToSequence with split sizes known only at run time; only "
                           "its length is supported");
    }
    if (it->squeeze == NO_SQUEEZE) {
        *node = it->v.node;
        *idx = it->v.index;
        return OA_OK;
    }
    oa_node *sq;
    oa_status st = oa_onnx_emit(c, OA_OP_SQUEEZE, "squeeze", 1, 1, &sq);
    if (st == OA_OK && (st = oa_onnx_connect(sq, 0, it->v.node, it->v.index)) == OA_OK) {
        st = oa_node_set_list_int(sq, "axis", &it->squeeze, 1);
    }
    *node = sq;
    *idx = 0;
    return st;
}

oa_status oa_onnx_seq_empty(onnx_node_ctx *c)
{
    onnx_seq *s;
    oa_status st = seq_new(c, 0, &s);
    return st == OA_OK ? seq_bind(c, 0, s) : st;
}

oa_status oa_onnx_seq_construct(onnx_node_ctx *c)
{
    onnx_seq *s;
    oa_status st = seq_new(c, c->np->n_input, &s);
    for (size_t i = 0; i < c->np->n_input && st == OA_OK; i++) {
        const onnx_value *v = oa_onnx_input_value(c, (uint32_t)i);
        if (v == NULL) {
            return ONNX_FAIL(c, OA_E_PARSE_MODEL, "input %zu is missing or not a tensor", i);
        }
        s->items[i].v = *v;
        s->items[i].squeeze = NO_SQUEEZE;
    }
    return st == OA_OK ? seq_bind(c, 0, s) : st;
}

oa_status oa_onnx_seq_insert(onnx_node_ctx *c)
{
    const onnx_seq *in = NULL;
    oa_status st = seq_input(c, 0, &in);
    const onnx_value *t = oa_onnx_input_value(c, 1);
    if (st == OA_OK && t == NULL) {
        return ONNX_FAIL(c, OA_E_PARSE_MODEL, "input 1 (the tensor) is missing");
    }
    int64_t p = 0;
    onnx_seq *s = NULL;
    if (st == OA_OK) {
        st = position(c, 2, (int64_t)in->n, (int64_t)in->n, (int64_t)in->n, &p);
    }
    if (st == OA_OK) {
        st = seq_new(c, in->n + 1, &s);
    }
    if (st != OA_OK) {
        return st;
    }
    for (size_t k = 0, j = 0; k < s->n; k++) {
        if ((int64_t)k == p) {
            s->items[k].v = *t;
            s->items[k].squeeze = NO_SQUEEZE;
        } else {
            s->items[k] = in->items[j++];
        }
    }
    return seq_bind(c, 0, s);
}

oa_status oa_onnx_seq_erase(onnx_node_ctx *c)
{
    const onnx_seq *in = NULL;
    oa_status st = seq_input(c, 0, &in);
    int64_t p = 0;
    onnx_seq *s = NULL;
    if (st == OA_OK && in->n == 0) {
        return ONNX_FAIL(c, OA_E_PARAM, "erases from an empty sequence");
    }
    if (st == OA_OK) {
        st = position(c, 1, (int64_t)in->n - 1, (int64_t)in->n, (int64_t)in->n - 1, &p);
    }
    if (st == OA_OK) {
        st = seq_new(c, in->n - 1, &s);
    }
    if (st != OA_OK) {
        return st;
    }
    for (size_t k = 0, j = 0; k < in->n; k++) {
        if ((int64_t)k != p) {
            s->items[j++] = in->items[k];
        }
    }
    return seq_bind(c, 0, s);
}

oa_status oa_onnx_seq_at(onnx_node_ctx *c)
{
    const onnx_seq *in = NULL;
    oa_status st = seq_input(c, 0, &in);
    int64_t p = 0;
    if (st == OA_OK && in->n == 0) {
        return ONNX_FAIL(c, OA_E_PARAM, "reads from an empty sequence");
    }
    if (st == OA_OK) {
        st = position(c, 1, -1, (int64_t)in->n, (int64_t)in->n - 1, &p);
    }
    if (st == OA_OK && !oa_onnx_has_input(c, 1)) {
        return ONNX_FAIL(c, OA_E_PARSE_MODEL, "needs the position input");
    }
    oa_node *src, *id;
    uint32_t idx;
    if (st == OA_OK) {
        st = item_value(c, &in->items[p], &src, &idx);
    }
    if (st == OA_OK && (st = oa_onnx_emit(c, OA_OP_IDENTITY, "at", 1, 1, &id)) == OA_OK &&
        (st = oa_onnx_connect(id, 0, src, idx)) == OA_OK) {
        st = oa_onnx_bind_output(c, 0, id, 0);
    }
    return st;
}

oa_status oa_onnx_seq_length(onnx_node_ctx *c)
{
    const onnx_seq *in = NULL;
    oa_status st = seq_input(c, 0, &in);
    oa_node *k;
    int64_t n = in ? (int64_t)in->n : 0;
    if (st == OA_OK && (st = oa_onnx_const_i64(c, "length", &n, 1, true, &k)) == OA_OK) {
        st = oa_onnx_bind_output(c, 0, k, 0);
    }
    return st;
}

/* Declared dims of ONNX value `name` (graph inputs, value_info, outputs, initializers); -1 rank when unknown. */
int64_t oa_onnx_declared_dims(const onnx_node_ctx *c, const char *name, int64_t dims[OA_MAX_RANK])
{
    const Onnx__GraphProto *gp = c->sc->gp;
    if (gp == NULL || name == NULL) {
        return -1;
    }
    for (size_t i = 0; i < gp->n_initializer; i++) {
        const Onnx__TensorProto *t = gp->initializer[i];
        if (t->name != NULL && strcmp(t->name, name) == 0) {
            if (t->n_dims > OA_MAX_RANK) {
                return -1;
            }
            for (size_t d = 0; d < t->n_dims; d++) {
                dims[d] = t->dims[d];
            }
            return (int64_t)t->n_dims;
        }
    }
    const Onnx__ValueInfoProto *const *lists[3] = {(const Onnx__ValueInfoProto *const *)gp->input,
                                                   (const Onnx__ValueInfoProto *const *)gp->value_info,
                                                   (const Onnx__ValueInfoProto *const *)gp->output};
    const size_t counts[3] = {gp->n_input, gp->n_value_info, gp->n_output};
    for (int l = 0; l < 3; l++) {
        for (size_t i = 0; i < counts[l]; i++) {
            const Onnx__ValueInfoProto *vi = lists[l][i];
            if (vi->name == NULL || strcmp(vi->name, name) != 0) {
                continue;
            }
            const Onnx__TypeProto *tp = vi->type;
            if (tp == NULL || tp->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE || tp->tensor_type == NULL ||
                tp->tensor_type->shape == NULL || tp->tensor_type->shape->n_dim > OA_MAX_RANK) {
                return -1;
            }
            const Onnx__TensorShapeProto *sh = tp->tensor_type->shape;
            for (size_t d = 0; d < sh->n_dim; d++) {
                dims[d] = sh->dim[d]->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE
                              ? sh->dim[d]->dim_value
                              : -1;
            }
            return (int64_t)sh->n_dim;
        }
    }
    return -1;
}

/* Constant 0-D or 1-D integer input i: *n values into v (cap entries); false when not constant. */
static bool const_ints(const onnx_node_ctx *c, uint32_t i, int64_t *v, size_t cap, size_t *n, bool *scalar)
{
    const onnx_value *val = oa_onnx_input_value(c, i);
    const oa_tensor *t;
    int64_t cnt;
    if (val == NULL || (val->node->type != OA_OP_CONST && val->node->type != OA_OP_CONSTANT) ||
        oa_node_require_tensor(val->node, "value", &t) != OA_OK || !oa_shape_numel(&t->desc.shape, &cnt) ||
        cnt < 0 || (size_t)cnt > cap || t->desc.shape.rank > 1 ||
        (t->desc.dtype != OA_DT_INT64 && t->desc.dtype != OA_DT_INT32) || (cnt > 0 && t->data == NULL)) {
        return false;
    }
    for (int64_t k = 0; k < cnt; k++) {
        if (t->desc.dtype == OA_DT_INT64) {
            memcpy(&v[k], (const int64_t *)t->data + k, sizeof(int64_t));
        } else {
            int32_t x;
            memcpy(&x, (const int32_t *)t->data + k, sizeof(x));
            v[k] = x;
        }
    }
    *n = (size_t)cnt;
    *scalar = t->desc.shape.rank == 0;
    return true;
}

#define SEQ_MAX_SPLIT 4096

oa_status oa_onnx_split_to_seq(onnx_node_ctx *c)
{
    int64_t axis, keepdims;
    oa_status st;
    if ((st = oa_onnx_attr_int(c, "axis", 0, &axis)) != OA_OK ||
        (st = oa_onnx_attr_int(c, "keepdims", 1, &keepdims)) != OA_OK) {
        return st;
    }
    int64_t dims[OA_MAX_RANK];
    const int64_t rank = oa_onnx_declared_dims(c, oa_onnx_input_name(c, 0), dims);
    const int64_t ax = axis < 0 && rank >= 0 ? axis + rank : axis;
    const int64_t len = rank >= 0 && ax >= 0 && ax < rank ? dims[ax] : -1;
    if (rank >= 0 && (ax < 0 || ax >= rank)) {
        return ONNX_FAIL(c, OA_E_PARAM, "axis %lld is out of range for rank %lld", (long long)axis, (long long)rank);
    }
    int64_t *sizes = oa_arena_alloc(oa_graph_arena(c->sc->g), SEQ_MAX_SPLIT * sizeof(int64_t), 0);
    if (sizes == NULL) {
        return OA_E_NOMEM;
    }
    size_t ns = 0;
    bool scalar = false, sized = oa_onnx_has_input(c, 1);
    onnx_seq *s;
    if (sized && !const_ints(c, 1, sizes, SEQ_MAX_SPLIT, &ns, &scalar)) {
        /* run-time split sizes: the length is the declared length of the 1-D split input */
        int64_t sd[OA_MAX_RANK];
        int64_t sr = oa_onnx_declared_dims(c, oa_onnx_input_name(c, 1), sd);
        if (sr != 1 || sd[0] < 0) {
            return SEQ_FAIL(c, "the split input is not a constant and its length is not declared");
        }
        if ((st = seq_new(c, (size_t)sd[0], &s)) != OA_OK) {
            return st;
        }
        for (size_t k = 0; k < s->n; k++) {
            s->items[k].v.node = NULL;
            s->items[k].v.index = 0;
            s->items[k].squeeze = NO_SQUEEZE;
        }
        return seq_bind(c, 0, s);
    }
    if (rank < 0) {
        return SEQ_FAIL(c, "the rank of input 0 is not declared; the sequence length must be known at conversion");
    }
    if (sized && scalar) {
        /* chunks of sizes[0], the last one smaller */
        const int64_t chunk = sizes[0];
        if (len < 0) {
            return SEQ_FAIL(c, "dim %lld of input 0 is not declared", (long long)ax);
        }
        if (chunk <= 0) {
            return ONNX_FAIL(c, OA_E_PARAM, "split %lld must be positive", (long long)chunk);
        }
        ns = 0;
        for (int64_t off = 0; off < len && ns < SEQ_MAX_SPLIT; off += chunk) {
            sizes[ns++] = len - off < chunk ? len - off : chunk;
        }
        if (len > 0 && (int64_t)ns * chunk < len) {
            return SEQ_FAIL(c, "more than %d pieces", SEQ_MAX_SPLIT);
        }
    } else if (!sized) {
        if (len < 0) {
            return SEQ_FAIL(c, "dim %lld of input 0 is not declared", (long long)ax);
        }
        if (len > SEQ_MAX_SPLIT) {
            return SEQ_FAIL(c, "more than %d pieces", SEQ_MAX_SPLIT);
        }
        ns = (size_t)len;
        for (size_t k = 0; k < ns; k++) {
            sizes[k] = 1;
        }
    }
    if ((st = seq_new(c, ns, &s)) != OA_OK) {
        return st;
    }
    if (ns == 0) {
        return seq_bind(c, 0, s);
    }
    oa_node *dim, *node, *sz;
    if ((st = oa_onnx_const_i32(c, "split_dim", &axis, 1, true, &dim)) != OA_OK ||
        (st = oa_onnx_const_i64(c, "size_splits", sizes, ns, false, &sz)) != OA_OK ||
        (st = oa_onnx_emit(c, OA_OP_SPLIT_V, "split", 3, (uint32_t)ns, &node)) != OA_OK ||
        (st = oa_onnx_connect_input(c, node, 0, 0)) != OA_OK || (st = oa_onnx_connect(node, 1, sz, 0)) != OA_OK ||
        (st = oa_onnx_connect(node, 2, dim, 0)) != OA_OK ||
        (st = oa_node_set_int(node, "num_split", (int64_t)ns)) != OA_OK) {
        return st;
    }
    for (size_t k = 0; k < ns; k++) {
        s->items[k].v.node = node;
        s->items[k].v.index = (uint32_t)k;
        s->items[k].squeeze = !sized && keepdims == 0 ? ax : NO_SQUEEZE;
    }
    return seq_bind(c, 0, s);
}

oa_status oa_onnx_concat_from_seq(onnx_node_ctx *c)
{
    const onnx_seq *in = NULL;
    int64_t axis, new_axis;
    oa_status st = seq_input(c, 0, &in);
    if (st == OA_OK && (st = oa_onnx_attr_required(c, "axis")) == OA_OK &&
        (st = oa_onnx_attr_int(c, "axis", 0, &axis)) == OA_OK) {
        st = oa_onnx_attr_int(c, "new_axis", 0, &new_axis);
    }
    if (st != OA_OK) {
        return st;
    }
    if (in->n == 0) {
        return ONNX_FAIL(c, OA_E_PARAM, "concatenates an empty sequence");
    }
    if (in->n + 2 > ONNX_MAX_CREATED) {
        return SEQ_FAIL(c, "a sequence of %zu tensors (at most %d)", in->n, ONNX_MAX_CREATED - 2);
    }
    oa_node *cat;
    if (in->n == 1 && new_axis == 0) {
        st = oa_onnx_emit(c, OA_OP_IDENTITY, "identity", 1, 1, &cat);
    } else {
        st = oa_onnx_emit(c, OA_OP_CONCAT_D, "concat", (uint32_t)in->n, 1, &cat);
        if (st == OA_OK && (st = oa_node_set_int(cat, "concat_dim", axis)) == OA_OK) {
            st = oa_node_set_int(cat, "N", (int64_t)in->n);
        }
    }
    for (size_t k = 0; k < in->n && st == OA_OK; k++) {
        oa_node *src;
        uint32_t idx;
        if ((st = item_value(c, &in->items[k], &src, &idx)) != OA_OK) {
            break;
        }
        if (new_axis != 0) {
            /* Unsqueeze's axis counts in the output rank, as new_axis does */
            oa_node *u;
            if ((st = oa_onnx_emit(c, OA_OP_UNSQUEEZE, "unsqueeze", 1, 1, &u)) != OA_OK ||
                (st = oa_onnx_connect(u, 0, src, idx)) != OA_OK ||
                (st = oa_node_set_list_int(u, "axes", &axis, 1)) != OA_OK) {
                break;
            }
            src = u;
            idx = 0;
        }
        st = oa_onnx_connect(cat, (uint32_t)k, src, idx);
    }
    return st == OA_OK ? oa_onnx_bind_output(c, 0, cat, 0) : st;
}
