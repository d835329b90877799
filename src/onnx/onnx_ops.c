/*
 * ONNX op -> GE op mappings (docs/ge_ir.md "ONNX import"): the op table, the node
 * context helpers every handler uses, the opset 1-6 broadcasting, and the
 * handlers of elementwise and shape ops. Indexing and reduction ops live in
 * onnx_ops_reduce.c; ops written as their ONNX function definitions (losses,
 * Trilu, quantization, InstanceNormalization, Hardmax, DepthToSpace) in
 * onnx_ops_composed.c; convolution, pooling, normalisation, resize, recurrent
 * and matrix ops in onnx_ops_nn.c.
 */
#define OA_LOG_MODULE "GE"
#include <math.h>
#include <float.h>
#include <string.h>

#include "base/util.h"
#include "onnx/onnx_internal.h"

/* ------------------------------------------------------------- helpers */

bool oa_onnx_has_input(const onnx_node_ctx *c, uint32_t i)
{
    return i < c->np->n_input && c->np->input[i][0] != '\0';
}

bool oa_onnx_has_output(const onnx_node_ctx *c, uint32_t j)
{
    return j < c->np->n_output && c->np->output[j][0] != '\0';
}

/* Input i's name, NULL when the node has no such input (a model may omit any). */
const char *oa_onnx_input_name(const onnx_node_ctx *c, uint32_t i)
{
    return i < c->np->n_input ? c->np->input[i] : NULL;
}

const onnx_value *oa_onnx_input_value(const onnx_node_ctx *c, uint32_t i)
{
    return oa_onnx_has_input(c, i) ? oa_strmap_get(&c->sc->values, c->np->input[i]) : NULL;
}

oa_status oa_onnx_emit(onnx_node_ctx *c, oa_op_type t, const char *role, uint32_t nin, uint32_t nout, oa_node **out)
{
    if (c->num_created >= ONNX_MAX_CREATED) {
        return ONNX_FAIL(c, OA_E_INTERNAL, "expands into too many nodes");
    }
    char *tmp = oa_arena_printf(oa_graph_arena(c->sc->g), "%s/%s", c->name, role);
    const char *nm = tmp ? oa_graph_unique_name(c->sc->g, tmp) : NULL;
    if (nm == NULL) {
        return OA_E_NOMEM;
    }
    oa_status st = oa_graph_add_node(c->sc->g, t, nm, nin, nout, out);
    if (st == OA_OK) {
        c->created[c->num_created] = *out;
        c->roles[c->num_created] = role;
        c->num_created++;
    }
    return st;
}

oa_status oa_onnx_connect(oa_node *node, uint32_t slot, oa_node *src, uint32_t idx)
{
    return oa_node_connect(node, slot, src, idx);
}

oa_status oa_onnx_connect_input(onnx_node_ctx *c, oa_node *node, uint32_t slot, uint32_t i)
{
    const onnx_value *v = oa_onnx_input_value(c, i);
    if (v == NULL) {
        return ONNX_FAIL(c, OA_E_PARSE_MODEL, "input %u is missing", i);
    }
    return oa_node_connect(node, slot, v->node, v->index);
}

oa_status oa_onnx_bind_output(onnx_node_ctx *c, uint32_t j, oa_node *node, uint32_t idx)
{
    if (!oa_onnx_has_output(c, j)) {
        return OA_OK;
    }
    oa_arena *a = oa_graph_arena(c->sc->g);
    onnx_value *v = oa_arena_alloc(a, sizeof(*v), 0);
    const char *key = oa_arena_strdup(a, c->np->output[j]);
    if (v == NULL || key == NULL) {
        return OA_E_NOMEM;
    }
    v->node = node;
    v->index = idx;
    return oa_strmap_put(&c->sc->values, key, v);
}

static oa_status emit_const(onnx_node_ctx *c, const char *role, oa_dtype dt, const void *data, size_t n,
                            size_t esz, bool scalar, oa_node **out)
{
    int64_t d = (int64_t)n;
    oa_shape s = scalar ? oa_shape_scalar() : oa_shape_make(1, &d);
    oa_tensor *t;
    oa_status st = oa_graph_make_tensor(c->sc->g, dt, &s, data, n * esz, &t);
    if (st != OA_OK) {
        return st;
    }
    oa_node *k;
    if ((st = oa_onnx_emit(c, OA_OP_CONST, role, 0, 1, &k)) != OA_OK) {
        return st;
    }
    if ((st = oa_node_set_tensor(k, "value", t)) != OA_OK) {
        return st;
    }
    oa_desc_set(oa_node_output_desc(k, 0), dt, &s);
    *out = k;
    return OA_OK;
}

oa_status oa_onnx_const_i64(onnx_node_ctx *c, const char *role, const int64_t *v, size_t n, bool scalar,
                            oa_node **out)
{
    return emit_const(c, role, OA_DT_INT64, v, n, sizeof(int64_t), scalar, out);
}

oa_status oa_onnx_const_i32(onnx_node_ctx *c, const char *role, const int64_t *v, size_t n, bool scalar,
                            oa_node **out)
{
    int32_t buf[64];
    if (n > OA_ARRAY_SIZE(buf)) {
        return ONNX_FAIL(c, OA_E_PARSE_MODEL, "list of %zu values is too long", n);
    }
    for (size_t i = 0; i < n; i++) {
        if (v[i] < INT32_MIN || v[i] > INT32_MAX) {
            return ONNX_FAIL(c, OA_E_PARSE_MODEL, "value %lld does not fit in int32", (long long)v[i]);
        }
        buf[i] = (int32_t)v[i];
    }
    return emit_const(c, role, OA_DT_INT32, buf, n, sizeof(int32_t), scalar, out);
}

oa_status oa_onnx_const_f32(onnx_node_ctx *c, const char *role, const float *v, size_t n, bool scalar,
                            oa_node **out)
{
    return emit_const(c, role, OA_DT_FLOAT, v, n, sizeof(float), scalar, out);
}

/* ---- attributes ---- */

const Onnx__AttributeProto *oa_onnx_attr(const onnx_node_ctx *c, const char *name)
{
    for (size_t i = 0; i < c->np->n_attribute; i++) {
        const Onnx__AttributeProto *a = c->np->attribute[i];
        if (a->name != NULL && strcmp(a->name, name) == 0) {
            return a;
        }
    }
    return NULL;
}

/* Attribute kind, also for pre-IR-2 files without the type field. */
static int attr_kind(const Onnx__AttributeProto *a)
{
    if (a->has_type) {
        return (int)a->type;
    }
    if (a->has_f) {
        return ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT;
    }
    if (a->has_i) {
        return ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT;
    }
    if (a->has_s) {
        return ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING;
    }
    if (a->t) {
        return ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TENSOR;
    }
    if (a->g) {
        return ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__GRAPH;
    }
    if (a->n_floats) {
        return ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOATS;
    }
    if (a->n_ints) {
        return ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS;
    }
    if (a->n_strings) {
        return ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRINGS;
    }
    return ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__UNDEFINED;
}

static oa_status wrong_kind(const onnx_node_ctx *c, const char *name, const char *want)
{
    return ONNX_FAIL(c, OA_E_PARSE_MODEL, "attribute %s has type %d, expected %s", name,
                     attr_kind(oa_onnx_attr(c, name)), want);
}

oa_status oa_onnx_attr_int(const onnx_node_ctx *c, const char *name, int64_t dflt, int64_t *out)
{
    const Onnx__AttributeProto *a = oa_onnx_attr(c, name);
    if (a == NULL) {
        *out = dflt;
        return OA_OK;
    }
    if (attr_kind(a) != ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT) {
        return wrong_kind(c, name, "INT");
    }
    *out = a->i;
    return OA_OK;
}

oa_status oa_onnx_attr_float(const onnx_node_ctx *c, const char *name, float dflt, float *out)
{
    const Onnx__AttributeProto *a = oa_onnx_attr(c, name);
    if (a == NULL) {
        *out = dflt;
        return OA_OK;
    }
    int k = attr_kind(a);
    if (k == ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT) {
        *out = a->f;
        return OA_OK;
    }
    if (k == ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT) {
        *out = (float)a->i;
        return OA_OK;
    }
    return wrong_kind(c, name, "FLOAT");
}

oa_status oa_onnx_attr_str(const onnx_node_ctx *c, const char *name, const char *dflt, const char **out)
{
    const Onnx__AttributeProto *a = oa_onnx_attr(c, name);
    if (a == NULL) {
        *out = dflt;
        return OA_OK;
    }
    if (attr_kind(a) != ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING) {
        return wrong_kind(c, name, "STRING");
    }
    /* Bytes are not NUL-terminated in the message: copy them. */
    char *s = oa_arena_strndup(oa_graph_arena(c->sc->g), a->s.data ? (const char *)a->s.data : "", a->s.len);
    if (s == NULL) {
        return OA_E_NOMEM;
    }
    if (strlen(s) != a->s.len) {
        return ONNX_FAIL(c, OA_E_PARSE_MODEL, "attribute %s contains a NUL byte", name);
    }
    *out = s;
    return OA_OK;
}

oa_status oa_onnx_attr_ints(const onnx_node_ctx *c, const char *name, const int64_t **v, size_t *n)
{
    const Onnx__AttributeProto *a = oa_onnx_attr(c, name);
    *v = NULL;
    *n = 0;
    if (a == NULL) {
        return OA_OK;
    }
    int k = attr_kind(a);
    if (k != ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS) {
        return wrong_kind(c, name, "INTS");
    }
    *v = a->ints;
    *n = a->n_ints;
    return OA_OK;
}

oa_status oa_onnx_attr_floats(const onnx_node_ctx *c, const char *name, const float **v, size_t *n)
{
    const Onnx__AttributeProto *a = oa_onnx_attr(c, name);
    *v = NULL;
    *n = 0;
    if (a == NULL) {
        return OA_OK;
    }
    if (attr_kind(a) != ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOATS) {
        return wrong_kind(c, name, "FLOATS");
    }
    *v = a->floats;
    *n = a->n_floats;
    return OA_OK;
}

oa_status oa_onnx_attr_required(const onnx_node_ctx *c, const char *name)
{
    return oa_onnx_attr(c, name) ? OA_OK : ONNX_FAIL(c, OA_E_PARSE_MODEL, "misses required attribute %s", name);
}

/* ------------------------------------------------------------ handlers */

/* Emits a node of c->ge_type with the ONNX inputs positional and binds
 * outputs positionally. */
static oa_status op_direct(onnx_node_ctx *c)
{
    oa_op_io io[16];
    size_t decl = oa_op_ir_inputs((oa_op_type)c->ge_type, io, OA_ARRAY_SIZE(io));
    uint32_t nin = (uint32_t)c->np->n_input;
    if (!oa_op_has_dynamic_inputs((oa_op_type)c->ge_type) && nin > decl) {
        return ONNX_FAIL(c, OA_E_PARSE_MODEL, "has %u inputs, at most %zu are expected", nin, decl);
    }
    if (nin < decl && !oa_op_has_dynamic_inputs((oa_op_type)c->ge_type)) {
        nin = (uint32_t)decl; /* missing optional inputs keep their slots */
    }
    oa_op_io oio[16];
    uint32_t nout = (uint32_t)oa_op_ir_outputs((oa_op_type)c->ge_type, oio, OA_ARRAY_SIZE(oio));
    oa_node *n;
    oa_status st = oa_onnx_emit(c, (oa_op_type)c->ge_type, "op", nin, nout, &n);
    for (uint32_t i = 0; i < c->np->n_input && st == OA_OK; i++) {
        if (oa_onnx_has_input(c, i)) {
            st = oa_onnx_connect_input(c, n, i, i);
        }
    }
    if (st == OA_OK && c->np->n_output > nout) {
        return ONNX_FAIL(c, OA_E_FEATURE_UNSUPPORTED, "has %zu outputs, the GE op has %u", c->np->n_output, nout);
    }
    for (uint32_t j = 0; j < c->np->n_output && st == OA_OK; j++) {
        st = oa_onnx_bind_output(c, j, n, j);
    }
    return st;
}

/* ---- opsets 1-6: legacy broadcasting (docs/onnx_ops.md) ----
 * Before opset 7 a binary op broadcast only with `broadcast`=1, and then B's
 * dims matched A's starting at `axis` (default: B's dims are A's trailing
 * ones, numpy's rule). PRelu before opset 7 took a 1-D slope of C values per
 * channel (axis 1). Both become numpy broadcasting once B is reshaped to
 * B's dims followed by ones; the ranks come from the ONNX graph's
 * declarations (graph inputs, value_info, initializers). */

/* Declared rank of ONNX value `name` in the node's graph; -1 when unknown.
 * dim0 receives the first dim when known (else -1). */
int64_t oa_onnx_declared_rank(const onnx_node_ctx *c, const char *name, int64_t *dim0)
{
    int64_t dims[OA_MAX_RANK];
    const int64_t rank = oa_onnx_declared_dims(c, name, dims);
    *dim0 = rank > 0 ? dims[0] : -1;
    return rank;
}

/* Declared element type (GE dtype) of ONNX value `name` in the node's graph:
 * initializers, graph inputs, value_info, outputs, a Cast or a Constant node. */
bool oa_onnx_declared_dtype(const onnx_node_ctx *c, const char *name, oa_dtype *dt)
{
    const Onnx__GraphProto *gp = c->sc->gp;
    if (gp == NULL || name == NULL) {
        return false;
    }
    for (size_t i = 0; i < gp->n_initializer; i++) {
        const Onnx__TensorProto *t = gp->initializer[i];
        if (t->name != NULL && strcmp(t->name, name) == 0) {
            return oa_onnx_dtype_to_ge(t->data_type, dt);
        }
    }
    const Onnx__ValueInfoProto *const *lists[3] = {(const Onnx__ValueInfoProto *const *)gp->input,
                                                   (const Onnx__ValueInfoProto *const *)gp->value_info,
                                                   (const Onnx__ValueInfoProto *const *)gp->output};
    const size_t counts[3] = {gp->n_input, gp->n_value_info, gp->n_output};
    for (int l = 0; l < 3; l++) {
        for (size_t i = 0; i < counts[l]; i++) {
            const Onnx__ValueInfoProto *vi = lists[l][i];
            if (vi->name != NULL && strcmp(vi->name, name) == 0) {
                const Onnx__TypeProto *tp = vi->type;
                return tp != NULL && tp->value_case == ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE &&
                       tp->tensor_type != NULL && tp->tensor_type->has_elem_type &&
                       oa_onnx_dtype_to_ge(tp->tensor_type->elem_type, dt);
            }
        }
    }
    for (size_t i = 0; i < gp->n_node; i++) {
        const Onnx__NodeProto *np = gp->node[i];
        if (np->op_type != NULL && strcmp(np->op_type, "Cast") == 0 && np->n_output == 1 &&
            strcmp(np->output[0], name) == 0) {
            for (size_t a = 0; a < np->n_attribute; a++) {
                if (strcmp(np->attribute[a]->name, "to") == 0 && np->attribute[a]->has_i) {
                    return np->attribute[a]->i == (int)np->attribute[a]->i &&
                           oa_onnx_dtype_to_ge((int)np->attribute[a]->i, dt);
                }
            }
        }
        if (np->op_type != NULL && strcmp(np->op_type, "Constant") == 0 && np->n_output == 1 &&
            strcmp(np->output[0], name) == 0) {
            for (size_t a = 0; a < np->n_attribute; a++) {
                if (strcmp(np->attribute[a]->name, "value") == 0 && np->attribute[a]->t != NULL) {
                    return oa_onnx_dtype_to_ge(np->attribute[a]->t->data_type, dt);
                }
            }
        }
    }
    return false;
}

/* The number of trailing ones B needs (0: numpy broadcasting already matches). */
static oa_status legacy_trailing_ones(onnx_node_ctx *c, int64_t *ones)
{
    *ones = 0;
    if (c->opset >= 7 || c->np->n_input < 2) {
        return OA_OK;
    }
    int64_t d0a, d0b;
    if (c->ge_type == OA_OP_PRELU) {
        int64_t rx = oa_onnx_declared_rank(c, oa_onnx_input_name(c, 0), &d0a);
        int64_t rs = oa_onnx_declared_rank(c, oa_onnx_input_name(c, 1), &d0b);
        if (rs == 1 && d0b != 1 && rx > 2) {
            *ones = rx - 2; /* slope [C] -> [C,1,...] against [N,C,...] */
        } else if (rs == 1 && d0b != 1 && rx < 0) {
            return ONNX_FAIL(c, OA_E_FEATURE_UNSUPPORTED,
                             "opset %lld PRelu with a per-channel slope needs the declared rank of its input",
                             (long long)c->opset);
        }
        return OA_OK;
    }
    int64_t broadcast = 0, axis = 0;
    oa_status st = oa_onnx_attr_int(c, "broadcast", 0, &broadcast);
    if (st != OA_OK || broadcast == 0 || oa_onnx_attr(c, "axis") == NULL) {
        return st;
    }
    if ((st = oa_onnx_attr_int(c, "axis", 0, &axis)) != OA_OK) {
        return st;
    }
    int64_t ra = oa_onnx_declared_rank(c, oa_onnx_input_name(c, 0), &d0a);
    int64_t rb = oa_onnx_declared_rank(c, oa_onnx_input_name(c, 1), &d0b);
    if (ra < 0 || rb < 0) {
        return ONNX_FAIL(c, OA_E_FEATURE_UNSUPPORTED,
                         "opset %lld broadcast with axis=%lld needs the declared ranks of both inputs",
                         (long long)c->opset, (long long)axis);
    }
    if (axis < 0) {
        axis += ra;
    }
    if (axis < 0 || axis + rb > ra) {
        return ONNX_FAIL(c, OA_E_PARSE_MODEL, "broadcast axis %lld does not fit B (rank %lld) into A (rank %lld)",
                         (long long)axis, (long long)rb, (long long)ra);
    }
    *ones = ra - axis - rb;
    return OA_OK;
}

static oa_status op_direct(onnx_node_ctx *c);

/* op_direct, B first reshaped to [B's dims, 1 x ones] for the opset 1-6 rules. */
static oa_status op_legacy_bcast(onnx_node_ctx *c)
{
    int64_t ones;
    oa_status st = legacy_trailing_ones(c, &ones);
    if (st != OA_OK || ones == 0) {
        return st == OA_OK ? op_direct(c) : st;
    }
    int64_t d0;
    int64_t rb = oa_onnx_declared_rank(c, oa_onnx_input_name(c, 1), &d0);
    int64_t shape[16];
    if (rb < 0 || rb + ones > (int64_t)OA_ARRAY_SIZE(shape)) {
        return ONNX_FAIL(c, OA_E_FEATURE_UNSUPPORTED, "legacy broadcast of rank %lld is not supported",
                         (long long)(rb + ones));
    }
    for (int64_t i = 0; i < rb + ones; i++) {
        shape[i] = i < rb ? 0 : 1; /* 0 keeps B's dim (Reshape, allowzero=0) */
    }
    oa_node *sc, *rs, *n;
    st = oa_onnx_const_i64(c, "legacy_shape", shape, (size_t)(rb + ones), false, &sc);
    if (st == OA_OK && (st = oa_onnx_emit(c, OA_OP_RESHAPE, "legacy_reshape", 2, 1, &rs)) == OA_OK &&
        (st = oa_onnx_connect_input(c, rs, 0, 1)) == OA_OK && (st = oa_onnx_connect(rs, 1, sc, 0)) == OA_OK) {
        st = oa_node_set_int(rs, "allowzero", 0);
    }
    if (st == OA_OK && (st = oa_onnx_emit(c, (oa_op_type)c->ge_type, "op", 2, 1, &n)) == OA_OK &&
        (st = oa_onnx_connect_input(c, n, 0, 0)) == OA_OK && (st = oa_onnx_connect(n, 1, rs, 0)) == OA_OK) {
        st = oa_onnx_bind_output(c, 0, n, 0);
    }
    return st;
}

/* A direct op whose one output is emitted then decorated by `fn`. */
oa_status oa_onnx_direct_then(onnx_node_ctx *c, oa_node **n)
{
    oa_status st = op_direct(c);
    *n = c->num_created ? c->created[c->num_created - 1] : NULL;
    return st;
}

static oa_status op_hard_sigmoid(onnx_node_ctx *c)
{
    float alpha, beta;
    oa_node *n;
    oa_status st = oa_onnx_attr_float(c, "alpha", 0.2f, &alpha);
    if (st == OA_OK) {
        st = oa_onnx_attr_float(c, "beta", 0.5f, &beta);
    }
    if (st == OA_OK) {
        st = oa_onnx_direct_then(c, &n);
    }
    if (st == OA_OK) {
        st = oa_node_set_float(n, "alpha", alpha);
    }
    return st == OA_OK ? oa_node_set_float(n, "beta", beta) : st;
}

static oa_status op_leaky_relu(onnx_node_ctx *c)
{
    float alpha;
    oa_node *n;
    oa_status st = oa_onnx_attr_float(c, "alpha", 0.01f, &alpha);
    if (st == OA_OK) {
        st = oa_onnx_direct_then(c, &n);
    }
    return st == OA_OK ? oa_node_set_float(n, "negative_slope", alpha) : st;
}

/* Selu (alpha, gamma) and ThresholdedRelu (alpha): the float attributes copied. */
static oa_status op_float_attrs(onnx_node_ctx *c)
{
    static const struct {
        const char *op, *attr;
        float dflt;
    } A[] = {{"Selu", "alpha", 1.67326319217681884765625f},
             {"Selu", "gamma", 1.05070102214813232421875f},
             {"ThresholdedRelu", "alpha", 1.0f}};
    oa_node *n;
    oa_status st = oa_onnx_direct_then(c, &n);
    for (size_t i = 0; i < OA_ARRAY_SIZE(A) && st == OA_OK; i++) {
        float v;
        if (strcmp(A[i].op, c->op_type) == 0 && (st = oa_onnx_attr_float(c, A[i].attr, A[i].dflt, &v)) == OA_OK) {
            st = oa_node_set_float(n, A[i].attr, v);
        }
    }
    return st;
}

static oa_status op_elu(onnx_node_ctx *c)
{
    float alpha;
    oa_node *n;
    oa_status st = oa_onnx_attr_float(c, "alpha", 1.0f, &alpha);
    if (st == OA_OK) {
        st = oa_onnx_direct_then(c, &n);
    }
    return st == OA_OK ? oa_node_set_float(n, "alpha", alpha) : st;
}

static oa_status op_gelu(onnx_node_ctx *c)
{
    const char *approx;
    oa_node *n;
    oa_status st = oa_onnx_attr_str(c, "approximate", "none", &approx);
    if (st == OA_OK && strcmp(approx, "none") != 0 && strcmp(approx, "tanh") != 0) {
        return ONNX_FAIL(c, OA_E_FEATURE_UNSUPPORTED, "approximate=%s is not supported", approx);
    }
    if (st == OA_OK) {
        st = oa_onnx_direct_then(c, &n);
    }
    return st == OA_OK ? oa_node_set_str(n, "approximate", approx) : st;
}

static oa_status op_softmax(onnx_node_ctx *c)
{
    int64_t axis;
    oa_node *n;
    oa_status st = oa_onnx_attr_int(c, "axis", c->opset < 13 ? 1 : -1, &axis);
    if (st == OA_OK) {
        st = oa_onnx_direct_then(c, &n);
    }
    if (st == OA_OK) {
        st = oa_node_set_list_int(n, "axes", &axis, 1);
    }
    if (st == OA_OK && c->opset < 13) {
        /* opset < 13 flattens from `axis`; a single-axis softmax equals it
         * when axis is the last dim (checked after inference). */
        st = oa_node_set_int(n, "need_fusion", 1);
    }
    return st;
}

/* Mod: fmod=0 is Python's % (FloorMod, integers only in ONNX), fmod=1 C's
 * fmod (GE Mod). */
static oa_status op_mod(onnx_node_ctx *c)
{
    int64_t fmod;
    oa_status st = oa_onnx_attr_int(c, "fmod", 0, &fmod);
    if (st != OA_OK) {
        return st;
    }
    c->ge_type = fmod ? OA_OP_MOD : OA_OP_FLOOR_MOD;
    return op_direct(c);
}

/* IsNaN: x != x. IsInf: x == +inf and/or x == -inf (detect_positive /
 * detect_negative), f32 (the constants' type). */
static oa_status op_isnan(onnx_node_ctx *c)
{
    oa_node *n;
    oa_status st = oa_onnx_emit(c, OA_OP_NOT_EQUAL, "isnan", 2, 1, &n);
    if (st == OA_OK && (st = oa_onnx_connect_input(c, n, 0, 0)) == OA_OK &&
        (st = oa_onnx_connect_input(c, n, 1, 0)) == OA_OK) {
        st = oa_onnx_bind_output(c, 0, n, 0);
    }
    return st;
}

static oa_status op_isinf(onnx_node_ctx *c)
{
    int64_t pos, neg;
    oa_status st;
    if ((st = oa_onnx_attr_int(c, "detect_positive", 1, &pos)) != OA_OK ||
        (st = oa_onnx_attr_int(c, "detect_negative", 1, &neg)) != OA_OK) {
        return st;
    }
    oa_node *out = NULL;
    for (int sgn = 0; sgn < 2; sgn++) {
        if ((sgn == 0 && !pos) || (sgn == 1 && !neg)) {
            continue;
        }
        const float inf = sgn == 0 ? INFINITY : -INFINITY;
        oa_node *k, *eq;
        if ((st = oa_onnx_const_f32(c, sgn == 0 ? "pos_inf" : "neg_inf", &inf, 1, true, &k)) != OA_OK ||
            (st = oa_onnx_emit(c, OA_OP_EQUAL, "eq_inf", 2, 1, &eq)) != OA_OK ||
            (st = oa_onnx_connect_input(c, eq, 0, 0)) != OA_OK || (st = oa_onnx_connect(eq, 1, k, 0)) != OA_OK) {
            return st;
        }
        if (out == NULL) {
            out = eq;
        } else {
            oa_node *o;
            if ((st = oa_onnx_emit(c, OA_OP_LOGICAL_OR, "either", 2, 1, &o)) != OA_OK ||
                (st = oa_onnx_connect(o, 0, out, 0)) != OA_OK || (st = oa_onnx_connect(o, 1, eq, 0)) != OA_OK) {
                return st;
            }
            out = o;
        }
    }
    if (out == NULL) { /* neither sign: all false (nothing is below -inf) */
        const float ninf = -INFINITY;
        oa_node *k;
        if ((st = oa_onnx_const_f32(c, "neg_inf", &ninf, 1, true, &k)) != OA_OK ||
            (st = oa_onnx_emit(c, OA_OP_LESS, "none", 2, 1, &out)) != OA_OK ||
            (st = oa_onnx_connect_input(c, out, 0, 0)) != OA_OK || (st = oa_onnx_connect(out, 1, k, 0)) != OA_OK) {
            return st;
        }
    }
    return oa_onnx_bind_output(c, 0, out, 0);
}

/* Shrink: x < -lambd ? x + bias : (x > lambd ? x - bias : 0), f32. */
static oa_status op_shrink(onnx_node_ctx *c)
{
    float lambd, bias;
    oa_status st;
    if ((st = oa_onnx_attr_float(c, "lambd", 0.5f, &lambd)) != OA_OK ||
        (st = oa_onnx_attr_float(c, "bias", 0.0f, &bias)) != OA_OK) {
        return st;
    }
    const float nl = -lambd, zero = 0.0f;
    oa_node *kl, *knl, *kb, *kz, *lt, *gt, *plus, *minus, *inner, *outer;
    if ((st = oa_onnx_const_f32(c, "lambd", &lambd, 1, true, &kl)) != OA_OK ||
        (st = oa_onnx_const_f32(c, "neg_lambd", &nl, 1, true, &knl)) != OA_OK ||
        (st = oa_onnx_const_f32(c, "bias", &bias, 1, true, &kb)) != OA_OK ||
        (st = oa_onnx_const_f32(c, "zero", &zero, 1, true, &kz)) != OA_OK ||
        (st = oa_onnx_emit(c, OA_OP_LESS, "below", 2, 1, &lt)) != OA_OK ||
        (st = oa_onnx_connect_input(c, lt, 0, 0)) != OA_OK || (st = oa_onnx_connect(lt, 1, knl, 0)) != OA_OK ||
        (st = oa_onnx_emit(c, OA_OP_GREATER, "above", 2, 1, &gt)) != OA_OK ||
        (st = oa_onnx_connect_input(c, gt, 0, 0)) != OA_OK || (st = oa_onnx_connect(gt, 1, kl, 0)) != OA_OK ||
        (st = oa_onnx_emit(c, OA_OP_ADD, "plus_bias", 2, 1, &plus)) != OA_OK ||
        (st = oa_onnx_connect_input(c, plus, 0, 0)) != OA_OK || (st = oa_onnx_connect(plus, 1, kb, 0)) != OA_OK ||
        (st = oa_onnx_emit(c, OA_OP_SUB, "minus_bias", 2, 1, &minus)) != OA_OK ||
        (st = oa_onnx_connect_input(c, minus, 0, 0)) != OA_OK || (st = oa_onnx_connect(minus, 1, kb, 0)) != OA_OK ||
        (st = oa_onnx_emit(c, OA_OP_SELECT_V2, "inner", 3, 1, &inner)) != OA_OK ||
        (st = oa_onnx_connect(inner, 0, gt, 0)) != OA_OK || (st = oa_onnx_connect(inner, 1, minus, 0)) != OA_OK ||
        (st = oa_onnx_connect(inner, 2, kz, 0)) != OA_OK ||
        (st = oa_onnx_emit(c, OA_OP_SELECT_V2, "outer", 3, 1, &outer)) != OA_OK ||
        (st = oa_onnx_connect(outer, 0, lt, 0)) != OA_OK || (st = oa_onnx_connect(outer, 1, plus, 0)) != OA_OK ||
        (st = oa_onnx_connect(outer, 2, inner, 0)) != OA_OK) {
        return st;
    }
    return oa_onnx_bind_output(c, 0, outer, 0);
}

/* BitShift: direction LEFT / RIGHT (GE LeftShift / RightShift). */
static oa_status op_bitshift(onnx_node_ctx *c)
{
    const char *dir;
    oa_status st = oa_onnx_attr_str(c, "direction", "", &dir);
    if (st != OA_OK) {
        return st;
    }
    if (strcmp(dir, "LEFT") != 0 && strcmp(dir, "RIGHT") != 0) {
        return ONNX_FAIL(c, OA_E_PARSE_MODEL, "direction must be LEFT or RIGHT, got [%s]", dir);
    }
    c->ge_type = strcmp(dir, "LEFT") == 0 ? OA_OP_LEFT_SHIFT : OA_OP_RIGHT_SHIFT;
    return op_direct(c);
}

/* CastLike: Cast to the declared element type of input 1. */
static oa_status op_cast_like(onnx_node_ctx *c)
{
    oa_dtype dt;
    if (c->np->n_input < 2 || !oa_onnx_declared_dtype(c, oa_onnx_input_name(c, 1), &dt) || dt == OA_DT_STRING) {
        return ONNX_FAIL(c, OA_E_FEATURE_UNSUPPORTED,
                         "the element type of target_type must be declared (graph input, initializer, value_info)");
    }
    oa_node *n;
    oa_status st = oa_onnx_emit(c, OA_OP_CAST, "cast", 1, 1, &n);
    if (st == OA_OK && (st = oa_onnx_connect_input(c, n, 0, 0)) == OA_OK &&
        (st = oa_node_set_int(n, "dst_type", dt)) == OA_OK) {
        st = oa_onnx_bind_output(c, 0, n, 0);
    }
    return st;
}

/* Pow with a base and an exponent of different types (opset >= 12; the
 * declared types say so): a float exponent is cast to the float base type; an
 * integer base is raised in the exponent's float type and cast back
 * (truncation, as numpy's astype). Same types: the direct mapping. */
static oa_status op_pow(onnx_node_ctx *c)
{
    oa_dtype tb, te;
    if (c->np->n_input != 2 || !oa_onnx_declared_dtype(c, oa_onnx_input_name(c, 0), &tb) ||
        !oa_onnx_declared_dtype(c, oa_onnx_input_name(c, 1), &te) || tb == te) {
        return op_legacy_bcast(c);
    }
    const bool base_float = tb == OA_DT_FLOAT || tb == OA_DT_FLOAT16 || tb == OA_DT_DOUBLE || tb == OA_DT_BF16;
    const bool exp_float = te == OA_DT_FLOAT || te == OA_DT_FLOAT16 || te == OA_DT_DOUBLE || te == OA_DT_BF16;
    const oa_dtype work = base_float || !exp_float ? tb : te;
    oa_node *b = NULL, *e = NULL, *p = NULL, *y = NULL;
    oa_status st = OA_OK;
    if (work != tb && (st = oa_onnx_emit(c, OA_OP_CAST, "base_cast", 1, 1, &b)) == OA_OK &&
        (st = oa_onnx_connect_input(c, b, 0, 0)) == OA_OK) {
        st = oa_node_set_int(b, "dst_type", work);
    }
    if (st == OA_OK && work != te && (st = oa_onnx_emit(c, OA_OP_CAST, "exp_cast", 1, 1, &e)) == OA_OK &&
        (st = oa_onnx_connect_input(c, e, 0, 1)) == OA_OK) {
        st = oa_node_set_int(e, "dst_type", work);
    }
    if (st == OA_OK && (st = oa_onnx_emit(c, OA_OP_POW, "pow", 2, 1, &p)) == OA_OK &&
        (st = b ? oa_onnx_connect(p, 0, b, 0) : oa_onnx_connect_input(c, p, 0, 0)) == OA_OK) {
        st = e ? oa_onnx_connect(p, 1, e, 0) : oa_onnx_connect_input(c, p, 1, 1);
    }
    y = p;
    if (st == OA_OK && work != tb && (st = oa_onnx_emit(c, OA_OP_CAST, "back", 1, 1, &y)) == OA_OK &&
        (st = oa_onnx_connect(y, 0, p, 0)) == OA_OK) {
        st = oa_node_set_int(y, "dst_type", tb);
    }
    return st == OA_OK ? oa_onnx_bind_output(c, 0, y, 0) : st;
}

static oa_status op_cast(onnx_node_ctx *c)
{
    int64_t to;
    oa_dtype dt;
    oa_node *n;
    oa_status st = oa_onnx_attr_required(c, "to");
    if (st == OA_OK) {
        st = oa_onnx_attr_int(c, "to", 0, &to);
    }
    if (st == OA_OK && (to != (int)to || !oa_onnx_dtype_to_ge((int)to, &dt) || dt == OA_DT_STRING)) {
        return ONNX_FAIL(c, OA_E_FEATURE_UNSUPPORTED, "cast to ONNX type %lld is not supported", (long long)to);
    }
    if (st == OA_OK) {
        st = oa_onnx_direct_then(c, &n);
    }
    return st == OA_OK ? oa_node_set_int(n, "dst_type", dt) : st;
}

static oa_status op_shape(onnx_node_ctx *c)
{
    const Onnx__AttributeProto *as = oa_onnx_attr(c, "start"), *ae = oa_onnx_attr(c, "end");
    oa_node *sh;
    oa_status st = oa_onnx_emit(c, OA_OP_SHAPE, "shape", 1, 1, &sh);
    if (st == OA_OK) {
        st = oa_onnx_connect_input(c, sh, 0, 0);
    }
    if (st == OA_OK) {
        st = oa_node_set_int(sh, "dtype", OA_DT_INT64);
    }
    if (st != OA_OK) {
        return st;
    }
    if (as == NULL && ae == NULL) {
        return oa_onnx_bind_output(c, 0, sh, 0);
    }
    /* opset 15 start/end (ignored by CANN): slice the shape vector. */
    int64_t b, e;
    oa_node *kb, *ke, *sl;
    if ((st = oa_onnx_attr_int(c, "start", 0, &b)) != OA_OK ||
        (st = oa_onnx_attr_int(c, "end", INT64_MAX, &e)) != OA_OK ||
        (st = oa_onnx_const_i64(c, "begin", &b, 1, false, &kb)) != OA_OK ||
        (st = oa_onnx_const_i64(c, "end", &e, 1, false, &ke)) != OA_OK ||
        (st = oa_onnx_emit(c, OA_OP_STRIDED_SLICE_V2, "slice", 5, 1, &sl)) != OA_OK) {
        return st;
    }
    if ((st = oa_onnx_connect(sl, 0, sh, 0)) == OA_OK && (st = oa_onnx_connect(sl, 1, kb, 0)) == OA_OK &&
        (st = oa_onnx_connect(sl, 2, ke, 0)) == OA_OK) {
        st = oa_onnx_bind_output(c, 0, sl, 0);
    }
    return st;
}

static oa_status op_size(onnx_node_ctx *c)
{
    oa_node *n;
    oa_status st = oa_onnx_direct_then(c, &n);
    return st == OA_OK ? oa_node_set_dtype(n, "dtype", OA_DT_INT64) : st;
}

static oa_status op_reshape(onnx_node_ctx *c)
{
    int64_t allowzero;
    oa_node *n;
    oa_status st = oa_onnx_attr_int(c, "allowzero", 0, &allowzero);
    if (st == OA_OK) {
        st = oa_onnx_direct_then(c, &n);
    }
    return st == OA_OK ? oa_node_set_int(n, "allowzero", allowzero ? 1 : 0) : st;
}

static oa_status op_flatten(onnx_node_ctx *c)
{
    int64_t axis;
    oa_node *n;
    oa_status st = oa_onnx_attr_int(c, "axis", 1, &axis);
    if (st == OA_OK) {
        st = oa_onnx_direct_then(c, &n);
    }
    return st == OA_OK ? oa_node_set_int(n, "axis", axis) : st;
}

static oa_status op_squeeze(onnx_node_ctx *c)
{
    oa_node *n;
    if (c->opset >= 13) {
        c->ge_type = OA_OP_SQUEEZE_V3;
        return op_direct(c);
    }
    const int64_t *axes;
    size_t na;
    oa_status st = oa_onnx_attr_ints(c, "axes", &axes, &na);
    if (st == OA_OK) {
        c->ge_type = OA_OP_SQUEEZE;
        st = oa_onnx_direct_then(c, &n);
    }
    return st == OA_OK ? oa_node_set_list_int(n, "axis", axes, na) : st;
}

static oa_status op_unsqueeze(onnx_node_ctx *c)
{
    oa_node *n;
    if (c->opset >= 13) {
        c->ge_type = OA_OP_UNSQUEEZE_V3;
        return op_direct(c);
    }
    const int64_t *axes;
    size_t na;
    oa_status st = oa_onnx_attr_ints(c, "axes", &axes, &na);
    if (st == OA_OK && na == 0) {
        return ONNX_FAIL(c, OA_E_PARSE_MODEL, "needs a non-empty axes attribute");
    }
    if (st == OA_OK) {
        c->ge_type = OA_OP_UNSQUEEZE;
        st = oa_onnx_direct_then(c, &n);
    }
    return st == OA_OK ? oa_node_set_list_int(n, "axes", axes, na) : st;
}

static oa_status op_transpose(onnx_node_ctx *c)
{
    const int64_t *perm;
    size_t np;
    oa_node *k, *t;
    oa_status st = oa_onnx_attr_ints(c, "perm", &perm, &np);
    int64_t rev[OA_MAX_RANK];
    if (st == OA_OK && perm == NULL) {
        /* the default reverses the dims: the rank the graph declares (CANN needs perm) */
        int64_t d0;
        const int64_t r = oa_onnx_declared_rank(c, oa_onnx_input_name(c, 0), &d0);
        if (r < 0 || r > OA_MAX_RANK) {
            return ONNX_FAIL(c, OA_E_FEATURE_UNSUPPORTED, "needs the perm attribute or the declared rank of its "
                                                          "input (the default reverses the dims)");
        }
        for (int64_t i = 0; i < r; i++) {
            rev[i] = r - 1 - i;
        }
        perm = rev;
        np = (size_t)r;
    }
    if (st == OA_OK && np > OA_MAX_RANK) {
        return ONNX_FAIL(c, OA_E_FEATURE_UNSUPPORTED, "perm has %zu entries (max rank %d)", np, OA_MAX_RANK);
    }
    if (st == OA_OK) {
        st = oa_onnx_const_i32(c, "perm", perm, np, false, &k);
    }
    if (st == OA_OK) {
        st = oa_onnx_emit(c, OA_OP_TRANSPOSE, "transpose", 2, 1, &t);
    }
    if (st == OA_OK && (st = oa_onnx_connect_input(c, t, 0, 0)) == OA_OK &&
        (st = oa_onnx_connect(t, 1, k, 0)) == OA_OK) {
        st = oa_onnx_bind_output(c, 0, t, 0);
    }
    return st;
}

static oa_status op_concat(onnx_node_ctx *c)
{
    int64_t axis;
    oa_status st = oa_onnx_attr_required(c, "axis");
    if (st == OA_OK) {
        st = oa_onnx_attr_int(c, "axis", 0, &axis);
    }
    uint32_t n = (uint32_t)c->np->n_input;
    if (st != OA_OK) {
        return st;
    }
    if (n == 0) {
        return ONNX_FAIL(c, OA_E_PARSE_MODEL, "has no inputs");
    }
    oa_node *node;
    if (n == 1) {
        st = oa_onnx_emit(c, OA_OP_IDENTITY, "identity", 1, 1, &node);
    } else {
        st = oa_onnx_emit(c, OA_OP_CONCAT_D, "concat", n, 1, &node);
        if (st == OA_OK && (st = oa_node_set_int(node, "concat_dim", axis)) == OA_OK) {
            st = oa_node_set_int(node, "N", n);
        }
    }
    for (uint32_t i = 0; i < n && st == OA_OK; i++) {
        st = oa_onnx_connect_input(c, node, i, i);
    }
    return st == OA_OK ? oa_onnx_bind_output(c, 0, node, 0) : st;
}

static oa_status op_split(onnx_node_ctx *c)
{
    int64_t axis, num_outputs;
    const int64_t *split;
    size_t ns;
    oa_status st;
    if ((st = oa_onnx_attr_int(c, "axis", 0, &axis)) != OA_OK ||
        (st = oa_onnx_attr_ints(c, "split", &split, &ns)) != OA_OK ||
        (st = oa_onnx_attr_int(c, "num_outputs", 0, &num_outputs)) != OA_OK) {
        return st;
    }
    uint32_t nout = (uint32_t)c->np->n_output;
    if (nout == 0) {
        return ONNX_FAIL(c, OA_E_PARSE_MODEL, "has no outputs");
    }
    if ((split && ns != nout) || (num_outputs != 0 && num_outputs != (int64_t)nout)) {
        return ONNX_FAIL(c, OA_E_PARSE_MODEL, "split lists %zu sizes / num_outputs %lld for %u outputs", ns,
                         (long long)num_outputs, nout);
    }
    oa_node *dim, *node, *sizes = NULL;
    if ((st = oa_onnx_const_i32(c, "split_dim", &axis, 1, true, &dim)) != OA_OK) {
        return st;
    }
    bool sizes_input = oa_onnx_has_input(c, 1);
    if (!sizes_input && split == NULL) {
        st = oa_onnx_emit(c, OA_OP_SPLIT, "split", 2, nout, &node);
        if (st == OA_OK && (st = oa_onnx_connect(node, 0, dim, 0)) == OA_OK) {
            st = oa_onnx_connect_input(c, node, 1, 0);
        }
    } else {
        if (!sizes_input && (st = oa_onnx_const_i64(c, "size_splits", split, ns, false, &sizes)) != OA_OK) {
            return st;
        }
        st = oa_onnx_emit(c, OA_OP_SPLIT_V, "split", 3, nout, &node);
        if (st == OA_OK && (st = oa_onnx_connect_input(c, node, 0, 0)) == OA_OK) {
            st = sizes_input ? oa_onnx_connect_input(c, node, 1, 1) : oa_onnx_connect(node, 1, sizes, 0);
        }
        if (st == OA_OK) {
            st = oa_onnx_connect(node, 2, dim, 0);
        }
    }
    if (st == OA_OK) {
        st = oa_node_set_int(node, "num_split", nout);
    }
    for (uint32_t j = 0; j < nout && st == OA_OK; j++) {
        st = oa_onnx_bind_output(c, j, node, j);
    }
    return st;
}

static oa_status op_slice(onnx_node_ctx *c)
{
    if (c->opset >= 10) {
        return op_direct(c);
    }
    const int64_t *starts, *ends, *axes;
    size_t nb, ne, na;
    oa_status st;
    if ((st = oa_onnx_attr_ints(c, "starts", &starts, &nb)) != OA_OK ||
        (st = oa_onnx_attr_ints(c, "ends", &ends, &ne)) != OA_OK ||
        (st = oa_onnx_attr_ints(c, "axes", &axes, &na)) != OA_OK) {
        return st;
    }
    if (starts == NULL || ends == NULL || nb != ne || (axes && na != nb)) {
        return ONNX_FAIL(c, OA_E_PARSE_MODEL, "needs starts and ends of equal length (and axes of that length)");
    }
    oa_node *kb, *ke, *ka = NULL, *sl;
    if ((st = oa_onnx_const_i64(c, "begin", starts, nb, false, &kb)) != OA_OK ||
        (st = oa_onnx_const_i64(c, "end", ends, ne, false, &ke)) != OA_OK ||
        (axes && (st = oa_onnx_const_i64(c, "axes", axes, na, false, &ka)) != OA_OK) ||
        (st = oa_onnx_emit(c, OA_OP_STRIDED_SLICE_V2, "slice", 5, 1, &sl)) != OA_OK) {
        return st;
    }
    if ((st = oa_onnx_connect_input(c, sl, 0, 0)) == OA_OK && (st = oa_onnx_connect(sl, 1, kb, 0)) == OA_OK &&
        (st = oa_onnx_connect(sl, 2, ke, 0)) == OA_OK && ka) {
        st = oa_onnx_connect(sl, 3, ka, 0);
    }
    return st == OA_OK ? oa_onnx_bind_output(c, 0, sl, 0) : st;
}

/* Dropout runs as inference (no element dropped, whatever training_mode
 * says): y = x, and the optional mask is all true (x == x or x != x). */
static oa_status op_dropout(onnx_node_ctx *c)
{
    oa_node *n;
    oa_status st = oa_onnx_emit(c, OA_OP_IDENTITY, "identity", 1, 1, &n);
    if (st == OA_OK) {
        st = oa_onnx_connect_input(c, n, 0, 0);
    }
    if (st == OA_OK && oa_onnx_has_output(c, 1)) {
        oa_node *eq, *ne, *m;
        if ((st = oa_onnx_emit(c, OA_OP_EQUAL, "mask_eq", 2, 1, &eq)) != OA_OK ||
            (st = oa_onnx_connect_input(c, eq, 0, 0)) != OA_OK || (st = oa_onnx_connect_input(c, eq, 1, 0)) != OA_OK ||
            (st = oa_onnx_emit(c, OA_OP_NOT_EQUAL, "mask_ne", 2, 1, &ne)) != OA_OK ||
            (st = oa_onnx_connect_input(c, ne, 0, 0)) != OA_OK || (st = oa_onnx_connect_input(c, ne, 1, 0)) != OA_OK ||
            (st = oa_onnx_emit(c, OA_OP_LOGICAL_OR, "mask", 2, 1, &m)) != OA_OK ||
            (st = oa_onnx_connect(m, 0, eq, 0)) != OA_OK || (st = oa_onnx_connect(m, 1, ne, 0)) != OA_OK ||
            (st = oa_onnx_bind_output(c, 1, m, 0)) != OA_OK) {
            return st;
        }
    }
    return st == OA_OK ? oa_onnx_bind_output(c, 0, n, 0) : st;
}

static oa_status op_if(onnx_node_ctx *c)
{
    return oa_onnx_convert_if(c);
}

static oa_status op_constant(onnx_node_ctx *c)
{
    return oa_onnx_convert_constant(c);
}

/* ---------------------------------------------------------------- table */

/* D: the same mapping at every opset; B: a binary op with the opset 1-6
 * `broadcast`/`axis` attributes (op_legacy_bcast). Opsets below 7 ignore
 * `consumed_inputs` (a memory hint) like every other unknown attribute. */
#define D(onnx, ge) {onnx, 1, 21, op_direct, OA_OP_##ge}
#define B(onnx, ge) {onnx, 1, 21, op_legacy_bcast, OA_OP_##ge}

static const onnx_op_entry OPS[] = {
    B("Add", ADD), B("Sub", SUB), B("Mul", MUL), B("Div", REAL_DIV), {"Pow", 1, 21, op_pow, OA_OP_POW},
    D("Sqrt", SQRT), D("Exp", EXP), D("Log", LOG), D("Abs", ABS), D("Neg", NEG), D("Erf", ERF),
    D("Tanh", TANH), D("Sigmoid", SIGMOID), D("Relu", RELU), D("Floor", FLOOR), D("Ceil", CEIL),
    D("Reciprocal", RECIPROCAL), D("Sin", SIN), D("Cos", COS), D("Tan", TAN), D("Sign", SIGN),
    D("Round", ROUND), D("Softplus", SOFTPLUS), D("Softsign", SOFTSIGN), D("Asin", ASIN), D("Acos", ACOS),
    D("Atan", ATAN), D("Sinh", SINH), D("Cosh", COSH), D("Asinh", ASINH), D("Acosh", ACOSH),
    D("Atanh", ATANH), D("Not", LOGICAL_NOT), B("And", LOGICAL_AND), B("Or", LOGICAL_OR),
    B("Equal", EQUAL), B("Less", LESS), B("Greater", GREATER), B("Xor", NOT_EQUAL), /* bool: a xor b = a != b */
    D("LessOrEqual", LESS_EQUAL),
    D("GreaterOrEqual", GREATER_EQUAL), D("Where", SELECT_V2), D("Expand", EXPAND), D("Range", RANGE),
    {"Tile", 6, 21, op_direct, OA_OP_TILE}, D("Identity", IDENTITY), D("GlobalAveragePool", GLOBAL_AVERAGE_POOL),
    D("GlobalMaxPool", GLOBAL_MAX_POOL), B("PRelu", PRELU), {"HardSwish", 14, 21, op_direct, OA_OP_HARD_SWISH},
    {"HardSigmoid", 1, 21, op_hard_sigmoid, OA_OP_HARD_SIGMOID},
    {"LeakyRelu", 1, 21, op_leaky_relu, OA_OP_LEAKY_RELU},
    {"Elu", 1, 21, op_elu, OA_OP_ELU},
    {"Selu", 1, 21, op_float_attrs, OA_OP_SELU},
    {"ThresholdedRelu", 10, 21, op_float_attrs, OA_OP_THRESHOLDED_RELU},
    {"Gelu", 1, 21, op_gelu, OA_OP_GELU_V2},
    {"Softmax", 1, 21, op_softmax, OA_OP_SOFTMAX_V2},
    {"LogSoftmax", 1, 21, op_softmax, OA_OP_LOG_SOFTMAX_V2},
    {"Cast", 6, 21, op_cast, OA_OP_CAST},
    {"CastLike", 15, 21, op_cast_like, OA_OP_CAST},
    {"Mod", 10, 21, op_mod, OA_OP_FLOOR_MOD},
    {"IsNaN", 9, 21, op_isnan, OA_OP_NOT_EQUAL},
    {"IsInf", 10, 21, op_isinf, OA_OP_EQUAL},
    {"Shrink", 9, 21, op_shrink, OA_OP_SELECT_V2},
    {"Trilu", 14, 21, oa_onnx_op_trilu, OA_OP_SELECT_V2},
    {"BitShift", 11, 21, op_bitshift, OA_OP_LEFT_SHIFT},
    {"QuantizeLinear", 10, 20, oa_onnx_op_quantize, OA_OP_CAST},
    {"InstanceNormalization", 1, 21, oa_onnx_op_instance_norm, OA_OP_REDUCE_MEAN},
    {"Hardmax", 13, 21, oa_onnx_op_hardmax, OA_OP_TOP_K},
    {"DepthToSpace", 1, 21, oa_onnx_op_depth_space, OA_OP_TRANSPOSE},
    {"SpaceToDepth", 1, 21, oa_onnx_op_depth_space, OA_OP_TRANSPOSE},
    {"DequantizeLinear", 10, 20, oa_onnx_op_dequantize, OA_OP_MUL},
    {"Shape", 1, 21, op_shape, OA_OP_SHAPE},
    {"Size", 1, 21, op_size, OA_OP_SIZE},
    {"Reshape", 5, 21, op_reshape, OA_OP_RESHAPE},
    {"Flatten", 1, 21, op_flatten, OA_OP_FLATTEN},
    {"Squeeze", 1, 21, op_squeeze, OA_OP_SQUEEZE},
    {"Unsqueeze", 1, 21, op_unsqueeze, OA_OP_UNSQUEEZE},
    {"Transpose", 1, 21, op_transpose, OA_OP_TRANSPOSE},
    {"Concat", 4, 21, op_concat, OA_OP_CONCAT_D},
    {"Split", 2, 21, op_split, OA_OP_SPLIT_V},
    {"Slice", 1, 21, op_slice, OA_OP_STRIDED_SLICE_V2},
    {"Gather", 1, 21, oa_onnx_op_gather, OA_OP_GATHER_V2},
    {"GatherElements", 11, 21, oa_onnx_op_gather_elements, OA_OP_GATHER_ELEMENTS},
    {"NegativeLogLikelihoodLoss", 12, 21, oa_onnx_op_nll_loss, OA_OP_GATHER_ELEMENTS},
    {"SoftmaxCrossEntropyLoss", 12, 21, oa_onnx_op_sce_loss, OA_OP_LOG_SOFTMAX_V2},
    {"Pad", 2, 18, oa_onnx_op_pad, OA_OP_PAD_V3},
    {"Clip", 1, 21, oa_onnx_op_clip, OA_OP_CLIP_BY_VALUE},
    {"ConstantOfShape", 9, 21, oa_onnx_op_constant_of_shape, OA_OP_FILL},
    {"ReduceMean", 1, 21, oa_onnx_op_reduce, OA_OP_REDUCE_MEAN},
    {"ReduceSum", 1, 21, oa_onnx_op_reduce, OA_OP_REDUCE_SUM},
    {"ReduceMax", 1, 21, oa_onnx_op_reduce, OA_OP_REDUCE_MAX},
    {"ReduceMin", 1, 21, oa_onnx_op_reduce, OA_OP_REDUCE_MIN},
    {"ReduceProd", 1, 21, oa_onnx_op_reduce, OA_OP_REDUCE_PROD},
    {"ArgMax", 1, 21, oa_onnx_op_arg, OA_OP_ARG_MAX_V2},
    {"ArgMin", 1, 21, oa_onnx_op_arg, OA_OP_ARG_MIN},
    {"Max", 1, 21, oa_onnx_op_minmax, OA_OP_MAXIMUM},
    {"Min", 1, 21, oa_onnx_op_minmax, OA_OP_MINIMUM},
    {"Sum", 1, 21, oa_onnx_op_minmax, OA_OP_ADD}, /* AccumulateNV2 has no CPU kernel: pairwise Adds */
    {"Mean", 1, 21, oa_onnx_op_mean, OA_OP_ADD},
    {"ReduceL1", 1, 21, oa_onnx_op_reduce_composite, OA_OP_REDUCE_SUM},
    {"ReduceL2", 1, 21, oa_onnx_op_reduce_composite, OA_OP_REDUCE_SUM},
    {"ReduceSumSquare", 1, 21, oa_onnx_op_reduce_composite, OA_OP_REDUCE_SUM},
    {"ReduceLogSum", 1, 21, oa_onnx_op_reduce_composite, OA_OP_REDUCE_SUM},
    {"ReduceLogSumExp", 1, 21, oa_onnx_op_reduce_composite, OA_OP_REDUCE_SUM},
    {"TopK", 1, 21, oa_onnx_op_topk, OA_OP_TOP_K},
    {"Dropout", 1, 21, op_dropout, OA_OP_IDENTITY},
    {"If", 1, 21, op_if, OA_OP_IF},
    {"Constant", 1, 21, op_constant, OA_OP_CONST},
    {"Conv", 1, 21, oa_onnx_op_conv, OA_OP_CONV2D},
    {"ConvTranspose", 1, 21, oa_onnx_op_conv_transpose, OA_OP_CONV2D_TRANSPOSE},
    {"AveragePool", 1, 18, oa_onnx_op_pool, OA_OP_AVG_POOL_V2},
    {"MaxPool", 1, 21, oa_onnx_op_pool, OA_OP_MAX_POOL_V3},
    {"BatchNormalization", 1, 21, oa_onnx_op_batch_norm, OA_OP_BATCH_NORM},
    {"LayerNormalization", 1, 21, oa_onnx_op_layer_norm, OA_OP_LAYER_NORM},
    {"Resize", 10, 18, oa_onnx_op_resize, OA_OP_RESIZE},
    {"Upsample", 7, 9, oa_onnx_op_upsample, OA_OP_RESIZE},
    {"LSTM", 7, 21, oa_onnx_op_lstm, OA_OP_COMMON_LSTM},
    {"NonMaxSuppression", 10, 21, oa_onnx_op_nms, OA_OP_NON_MAX_SUPPRESSION_V6},
    {"Gemm", 1, 21, oa_onnx_op_gemm, OA_OP_MAT_MUL_V2},
    {"MatMul", 1, 21, oa_onnx_op_matmul, OA_OP_BATCH_MAT_MUL_V2},
    /* indexing, scatter, data-dependent shapes (onnx_ops_index.c) */
    {"GatherND", 11, 21, oa_onnx_op_gather_nd, OA_OP_GATHER_ND},
    {"ScatterND", 11, 21, oa_onnx_op_scatter, OA_OP_TENSOR_SCATTER_UPDATE},
    {"ScatterElements", 11, 21, oa_onnx_op_scatter, OA_OP_SCATTER_ELEMENTS},
    {"Scatter", 9, 10, oa_onnx_op_scatter, OA_OP_SCATTER_ELEMENTS},
    {"OneHot", 9, 21, oa_onnx_op_one_hot, OA_OP_ONE_HOT},
    {"EyeLike", 9, 21, oa_onnx_op_eye_like, OA_OP_EYE_LIKE},
    {"CumSum", 11, 21, oa_onnx_op_cumsum, OA_OP_CUMSUM},
    {"ReverseSequence", 10, 21, oa_onnx_op_reverse_sequence, OA_OP_REVERSE_SEQUENCE},
    {"NonZero", 9, 21, op_direct, OA_OP_NON_ZERO},
    {"Unique", 11, 21, oa_onnx_op_unique, OA_OP_UNIQUE_V3},
    {"Compress", 9, 21, oa_onnx_op_compress, OA_OP_NON_ZERO},
    {"TfIdfVectorizer", 9, 21, oa_onnx_op_tfidf, OA_OP_TFIDF_VECTORIZER},
    {"LRN", 1, 21, oa_onnx_op_lrn, OA_OP_AVG_POOL_3D},
    {"GRU", 7, 21, oa_onnx_op_lstm, OA_OP_COMMON_GRU},
    {"RNN", 7, 21, oa_onnx_op_lstm, OA_OP_COMMON_RNN},
    {"MeanVarianceNormalization", 9, 21, oa_onnx_op_mvn, OA_OP_REDUCE_MEAN},
    {"GridSample", 16, 19, oa_onnx_op_grid_sample, OA_OP_GRID_SAMPLER_2D},
    {"Det", 11, 21, op_direct, OA_OP_MATRIX_DETERMINANT},
};

#undef D
#undef B

const onnx_op_entry *oa_onnx_find_op(const char *op_type, int64_t opset)
{
    for (size_t i = 0; i < OA_ARRAY_SIZE(OPS); i++) {
        if (strcmp(OPS[i].onnx_type, op_type) == 0 && opset >= OPS[i].min_opset && opset <= OPS[i].max_opset) {
            return &OPS[i];
        }
    }
    return NULL;
}

size_t oa_onnx_supported_ops(const char **names, size_t cap)
{
    for (size_t i = 0; i < OA_ARRAY_SIZE(OPS) && i < cap; i++) {
        names[i] = OPS[i].onnx_type;
    }
    return OA_ARRAY_SIZE(OPS);
}
