/*
 * om_ir_read: a decoded ModelDef -> graph IR (om_ir.h, "Reader"). Weights
 * are borrowed from the opened model through a blob whose release destroys
 * the model, so the graph owns the model once conversion starts.
 */
#define OA_LOG_MODULE "GE"
#include "om_ir/om_ir.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"
#include "graph/blob.h"
#include "om_ir/om_ir_internal.h"

typedef struct info_full {
    oa_om_graph_info pub;
    oa_om_node_mem *mems; /* by node id */
    uint32_t n_mems;
} info_full;

typedef struct pending {
    oa_graph *g;
    const Ge__Proto__GraphDef *gd;
} pending;

typedef struct rctx {
    oa_om_model *m;
    const oa_om_submodel *sm;
    const Ge__Proto__ModelDef *def;
    oa_graph *root;
    oa_blob *blob;
    oa_om_arena *scratch;
    pending *queue;
    size_t nq, capq;
    oa_om_node_mem *mems;
    uint32_t n_mems;
    bool merged_weights;
} rctx;

static const char *nz(const char *s)
{
    return s != NULL ? s : "";
}

static void release_model(void *ctx, const void *data, size_t size)
{
    (void)data;
    (void)size;
    oa_om_model_destroy(ctx);
}

/* ---- values --------------------------------------------------------------------- */

static bool bin_is(const ProtobufCBinaryData *b, const char *s)
{
    return b->len == strlen(s) && (b->len == 0 || memcmp(b->data, s, b->len) == 0);
}

static bool bin_has_nul(const ProtobufCBinaryData *b)
{
    return b->len != 0 && memchr(b->data, '\0', b->len) != NULL;
}

static char *bin_dup(oa_graph *g, const ProtobufCBinaryData *b);

/* The IR name of a map key; NULL (with a warning) for keys the IR cannot
 * name (NUL bytes, e.g. compressed keys left without a dictionary). */
static char *key_name(oa_graph *g, const ProtobufCBinaryData *key, const char *where, bool *oom)
{
    *oom = false;
    if (bin_has_nul(key)) {
        OA_LOGW("[Load][Graph] %s: an attr whose name holds a NUL byte is left out of the graph", where);
        return NULL;
    }
    char *k = bin_dup(g, key);
    *oom = k == NULL;
    return k;
}

/* A NUL-terminated arena copy (protobuf-c leaves data NULL for empty bytes). */
static char *bin_dup(oa_graph *g, const ProtobufCBinaryData *b)
{
    return oa_arena_strndup(oa_graph_arena(g), b->len != 0 ? (const char *)b->data : "", b->len);
}

static oa_status shape_from_pb(const Ge__Proto__ShapeDef *sh, const char *where, oa_shape *out)
{
    if (sh == NULL || sh->n_dim == 0) {
        *out = oa_shape_scalar();
        return OA_OK;
    }
    if (sh->n_dim == 1 && sh->dim[0] == OA_GE_UNKNOWN_RANK_DIM) {
        *out = oa_shape_unknown_rank();
        return OA_OK;
    }
    if (sh->n_dim > OA_MAX_RANK) {
        return OA_FAIL(OA_E_GE_LOAD_MODEL_PARTITION, "[Load][Graph] %s: rank %zu exceeds the IR's limit of %d",
                       where, sh->n_dim, OA_MAX_RANK);
    }
    *out = oa_shape_make((int32_t)sh->n_dim, sh->dim);
    return OA_OK;
}

/*
 * One AttrDef into dst under `name`. Kinds the IR cannot hold are skipped
 * with a warning (OA_OK). `bare` marks the serializer's own lists, whose
 * kind comes from their content (they carry no val_type).
 */
static oa_status attr_from_pb(rctx *c, oa_attrs *dst, const char *name, const Ge__Proto__AttrDef *v, bool bare,
                              const char *where);

static oa_status desc_from_pb(rctx *c, const Ge__Proto__TensorDescriptor *td, const char *where, oa_tensor_desc *out);

static oa_status tensor_from_pb(rctx *c, const Ge__Proto__TensorDef *t, const char *where, const oa_tensor **out)
{
    *out = NULL;
    if (t == NULL || t->desc == NULL) {
        return OA_FAIL(OA_E_GE_LOAD_MODEL_PARTITION, "[Load][Graph] %s: tensor without a description", where);
    }
    oa_tensor_desc d;
    oa_status st = desc_from_pb(c, t->desc, where, &d);
    if (st != OA_OK) {
        return st;
    }
    const uint8_t *data = NULL;
    size_t size = 0;
    bool in_image = false;
    if (t->data.len != 0) {
        data = t->data.data;
        size = t->data.len;
    } else if (t->desc->weight_size > 0) {
        st = oa_om_weights_slice(c->sm, t->desc->data_offset, t->desc->weight_size, &data);
        if (st != OA_OK) {
            return st;
        }
        size = (size_t)t->desc->weight_size;
        in_image = true;
        c->merged_weights = true;
    }
    size_t want = 0;
    if (oa_tensor_nbytes(d.dtype, &d.shape, &want) && want != size) {
        return OA_FAIL(OA_E_GE_LOAD_WEIGHT_PARTITION, "[Load][Graph] %s: %zu bytes of data for a %s tensor of %zu bytes",
                       where, size, oa_dtype_name(d.dtype), want);
    }
    oa_tensor *tensor = NULL;
    if (in_image) {
        st = oa_graph_make_tensor_borrowed(c->root, d.dtype, &d.shape, c->blob,
                                           (size_t)(data - c->m->image.data), size, &tensor);
    } else { /* inline data is copied: the decoded ModelDef may go once the graph is built (v1_load_om.c) */
        st = oa_graph_make_tensor(c->root, d.dtype, &d.shape, data, size, &tensor);
    }
    if (st != OA_OK) {
        return st;
    }
    tensor->desc = d;
    *out = tensor;
    return OA_OK;
}

static oa_status attr_from_pb(rctx *c, oa_attrs *dst, const char *name, const Ge__Proto__AttrDef *v, bool bare,
                              const char *where)
{
    oa_graph *g = c->root;
    const Ge__Proto__AttrDef__ListValue *l = v->list;
    const char *skip = NULL;
    switch (v->value_case) {
    case GE__PROTO__ATTR_DEF__VALUE__NOT_SET:
        return OA_OK; /* GE drops attrs without a value */
    case GE__PROTO__ATTR_DEF__VALUE_I:
        return oa_attrs_set_int(g, dst, name, v->i);
    case GE__PROTO__ATTR_DEF__VALUE_F:
        return oa_attrs_set_float(g, dst, name, v->f);
    case GE__PROTO__ATTR_DEF__VALUE_B:
        return oa_attrs_set_bool(g, dst, name, v->b != 0);
    case GE__PROTO__ATTR_DEF__VALUE_DT:
        return oa_attrs_set_dtype(g, dst, name, (oa_dtype)v->dt);
    case GE__PROTO__ATTR_DEF__VALUE_BT:
        return oa_attrs_set_bytes(g, dst, name, v->bt.data, v->bt.len);
    case GE__PROTO__ATTR_DEF__VALUE_S:
        if (bin_has_nul(&v->s)) {
            skip = "a string holding NUL bytes";
            break;
        }
        {
            char *s = bin_dup(g, &v->s);
            if (s == NULL) {
                return OA_FAIL(OA_E_NOMEM, "[Load][Graph] string attr %s", name);
            }
            return oa_attrs_set_str(g, dst, name, s);
        }
    case GE__PROTO__ATTR_DEF__VALUE_LIST: {
        int vt = l != NULL ? (int)l->val_type : 0;
        if (l != NULL && bare && vt == 0) {
            vt = l->n_s != 0 ? 1 : 2; /* the serializer's lists: strings or ints */
        }
        if (l == NULL || vt == 0) {
            return OA_OK; /* GE drops lists without val_type */
        }
        switch (vt) {
        case 1: { /* VT_LIST_STRING */
            const char **s = l->n_s ? malloc(l->n_s * sizeof(*s)) : NULL;
            if (l->n_s != 0 && s == NULL) {
                return OA_FAIL(OA_E_NOMEM, "[Load][Graph] list attr %s", name);
            }
            oa_status st = OA_OK;
            for (size_t i = 0; i < l->n_s && st == OA_OK; ++i) {
                if (bin_has_nul(&l->s[i])) {
                    skip = "a string holding NUL bytes";
                    break;
                }
                s[i] = bin_dup(g, &l->s[i]);
                if (s[i] == NULL) {
                    st = OA_FAIL(OA_E_NOMEM, "[Load][Graph] list attr %s", name);
                }
            }
            if (st == OA_OK && skip == NULL) {
                st = oa_attrs_set_list_str(g, dst, name, s, l->n_s);
            }
            free(s);
            if (skip == NULL || st != OA_OK) {
                return st;
            }
            break;
        }
        case 2: /* VT_LIST_INT */
            return oa_attrs_set_list_int(g, dst, name, l->i, l->n_i);
        case 3: /* VT_LIST_FLOAT */
            return oa_attrs_set_list_float(g, dst, name, l->f, l->n_f);
        case 4: { /* VT_LIST_BOOL */
            bool *b = l->n_b ? malloc(l->n_b * sizeof(*b)) : NULL;
            if (l->n_b != 0 && b == NULL) {
                return OA_FAIL(OA_E_NOMEM, "[Load][Graph] list attr %s", name);
            }
            for (size_t i = 0; i < l->n_b; ++i) {
                b[i] = l->b[i] != 0;
            }
            oa_status st = oa_attrs_set_list_bool(g, dst, name, b, l->n_b);
            free(b);
            return st;
        }
        case 10: { /* VT_LIST_DATA_TYPE */
            oa_dtype *d = l->n_dt ? malloc(l->n_dt * sizeof(*d)) : NULL;
            if (l->n_dt != 0 && d == NULL) {
                return OA_FAIL(OA_E_NOMEM, "[Load][Graph] list attr %s", name);
            }
            for (size_t i = 0; i < l->n_dt; ++i) {
                d[i] = (oa_dtype)l->dt[i];
            }
            oa_status st = oa_attrs_set_list_dtype(g, dst, name, d, l->n_dt);
            free(d);
            return st;
        }
        default:
            skip = "a list of bytes, tensors, descs, graphs or named attrs";
            break;
        }
        break;
    }
    case GE__PROTO__ATTR_DEF__VALUE_LIST_LIST_INT: {
        const Ge__Proto__AttrDef__ListListInt *ll = v->list_list_int;
        size_t n = ll != NULL ? ll->n_list_list_i : 0;
        const int64_t **rows = n ? malloc(n * sizeof(*rows)) : NULL;
        size_t *lens = n ? malloc(n * sizeof(*lens)) : NULL;
        if (n != 0 && (rows == NULL || lens == NULL)) {
            free(rows);
            free(lens);
            return OA_FAIL(OA_E_NOMEM, "[Load][Graph] list attr %s", name);
        }
        for (size_t i = 0; i < n; ++i) {
            rows[i] = ll->list_list_i[i]->list_i;
            lens[i] = ll->list_list_i[i]->n_list_i;
        }
        oa_status st = oa_attrs_set_list_list_int(g, dst, name, rows, lens, n);
        free(rows);
        free(lens);
        return st;
    }
    case GE__PROTO__ATTR_DEF__VALUE_LIST_LIST_FLOAT: {
        const Ge__Proto__AttrDef__ListListFloat *ll = v->list_list_float;
        size_t n = ll != NULL ? ll->n_list_list_f : 0;
        const float **rows = n ? malloc(n * sizeof(*rows)) : NULL;
        size_t *lens = n ? malloc(n * sizeof(*lens)) : NULL;
        if (n != 0 && (rows == NULL || lens == NULL)) {
            free(rows);
            free(lens);
            return OA_FAIL(OA_E_NOMEM, "[Load][Graph] list attr %s", name);
        }
        for (size_t i = 0; i < n; ++i) {
            rows[i] = ll->list_list_f[i]->list_f;
            lens[i] = ll->list_list_f[i]->n_list_f;
        }
        oa_status st = oa_attrs_set_list_list_float(g, dst, name, rows, lens, n);
        free(rows);
        free(lens);
        return st;
    }
    case GE__PROTO__ATTR_DEF__VALUE_T: {
        const oa_tensor *t = NULL;
        char w[300];
        (void)snprintf(w, sizeof(w), "%s attr %s", where, name);
        oa_status st = tensor_from_pb(c, v->t, w, &t);
        return st == OA_OK ? oa_attrs_set_tensor(g, dst, name, t) : st;
    }
    case GE__PROTO__ATTR_DEF__VALUE_TD: {
        if (v->td == NULL) {
            return OA_OK;
        }
        oa_tensor_desc d;
        oa_status st = desc_from_pb(c, v->td, where, &d);
        return st == OA_OK ? oa_attrs_set_tensor_desc(g, dst, name, &d) : st;
    }
    case GE__PROTO__ATTR_DEF__VALUE_G:
        /* A subgraph reference as the writer stores one: only a name. */
        if (v->g != NULL && v->g->n_op == 0 && v->g->n_attr == 0 && v->g->n_input == 0 && v->g->n_output == 0 &&
            oa_graph_find_subgraph(g, nz(v->g->name)) != NULL) {
            return oa_attrs_set_graph(g, dst, name, v->g->name);
        }
        skip = "an inline graph";
        break;
    case GE__PROTO__ATTR_DEF__VALUE_FUNC: { /* GE NamedAttrs (AIPP's `aipp`), one level of nesting */
        if (v->func == NULL) {
            return OA_OK;
        }
        oa_attrs na = {0};
        for (size_t i = 0; i < v->func->n_attr; ++i) {
            const Ge__Proto__AttrMapEntry *e = v->func->attr[i];
            if (e == NULL || e->value == NULL || e->value->value_case == GE__PROTO__ATTR_DEF__VALUE_FUNC) {
                continue;
            }
            char *key = bin_dup(g, &e->key);
            oa_status st = key != NULL ? attr_from_pb(c, &na, key, e->value, false, where)
                                       : OA_FAIL(OA_E_NOMEM, "[Load][Graph] named attr %s", name);
            if (st != OA_OK) {
                return st;
            }
        }
        return oa_attrs_set_named(g, dst, name, nz(v->func->name), &na);
    }
    default:
        skip = "a kind the IR has no form for";
        break;
    }
    OA_LOGW("[Load][Graph] %s: attr %s holds %s and is left out of the graph", where, name, skip);
    return OA_OK;
}

static const Ge__Proto__AttrDef *find_attr(Ge__Proto__AttrMapEntry *const *attr, size_t n, const char *key)
{
    return oa_om_attr_get(attr, n, key);
}

static oa_status desc_from_pb(rctx *c, const Ge__Proto__TensorDescriptor *td, const char *where, oa_tensor_desc *out)
{
    memset(out, 0, sizeof(*out));
    out->dtype = oa_dtype_from_proto((int)td->dtype);
    oa_status st = shape_from_pb(td->shape, where, &out->shape);
    if (st != OA_OK) {
        return st;
    }
    const Ge__Proto__AttrDef *v;
    bool fmt_consumed = false, ofmt_i = false, ofmt_s = false, osi = false, os = false, sr = false;
    oa_format f;
    v = find_attr(td->attr, td->n_attr, OM_DESC_FORMAT_FOR_INT);
    if (v != NULL && v->value_case == GE__PROTO__ATTR_DEF__VALUE_I && (v->i & 0xff) < OA_FORMAT_END) {
        out->format = (oa_format)(v->i & 0xff);
        fmt_consumed = true;
    } else {
        out->format = oa_format_from_name(nz(td->layout), &f) ? f : OA_FORMAT_ND;
    }
    out->origin_format = out->format;
    v = find_attr(td->attr, td->n_attr, OM_DESC_ORIGIN_FORMAT_FOR_INT);
    if (v != NULL && v->value_case == GE__PROTO__ATTR_DEF__VALUE_I && (v->i & 0xff) < OA_FORMAT_END) {
        out->origin_format = (oa_format)(v->i & 0xff);
        ofmt_i = true;
    }
    v = find_attr(td->attr, td->n_attr, OM_DESC_ORIGIN_FORMAT);
    if (v != NULL && v->value_case == GE__PROTO__ATTR_DEF__VALUE_S) {
        char name[64];
        size_t l = v->s.len < sizeof(name) - 1 ? v->s.len : sizeof(name) - 1;
        if (l != 0) {
            memcpy(name, v->s.data, l);
        }
        name[l] = '\0';
        if (oa_format_from_name(name, &f)) {
            if (!ofmt_i) {
                out->origin_format = f;
            }
            ofmt_s = true;
        }
    }
    v = find_attr(td->attr, td->n_attr, OM_DESC_ORIGIN_SHAPE_INITIALIZED);
    if (v != NULL && v->value_case == GE__PROTO__ATTR_DEF__VALUE_B) {
        osi = true;
        out->origin_shape_set = v->b != 0;
    }
    v = find_attr(td->attr, td->n_attr, OM_DESC_ORIGIN_SHAPE);
    if (out->origin_shape_set && v != NULL && v->value_case == GE__PROTO__ATTR_DEF__VALUE_LIST && v->list != NULL) {
        Ge__Proto__ShapeDef tmp;
        ge__proto__shape_def__init(&tmp);
        tmp.dim = v->list->i;
        tmp.n_dim = v->list->n_i;
        st = shape_from_pb(&tmp, where, &out->origin_shape);
        if (st != OA_OK) {
            return st;
        }
        os = true;
    } else if (out->origin_shape_set) {
        out->origin_shape_set = false; /* flag without a shape: keep the raw attrs */
        osi = false;
    }
    v = find_attr(td->attr, td->n_attr, OM_DESC_SHAPE_RANGE);
    if (v != NULL && v->value_case == GE__PROTO__ATTR_DEF__VALUE_LIST_LIST_INT && v->list_list_int != NULL &&
        out->shape.rank > 0 && v->list_list_int->n_list_list_i == (size_t)out->shape.rank) {
        sr = true;
        for (size_t i = 0; i < v->list_list_int->n_list_list_i && sr; ++i) {
            const Ge__Proto__AttrDef__ListListInt__ListInt *p = v->list_list_int->list_list_i[i];
            sr = p != NULL && p->n_list_i == 2;
            if (sr) {
                out->range_min[i] = p->list_i[0];
                out->range_max[i] = p->list_i[1];
            }
        }
        out->has_range = sr;
    }
    if (td->name != NULL && td->name[0] != '\0') {
        out->name = oa_arena_strdup(oa_graph_arena(c->root), td->name);
        if (out->name == NULL) {
            return OA_FAIL(OA_E_NOMEM, "[Load][Graph] desc name");
        }
    }
    for (size_t i = 0; i < td->n_attr && st == OA_OK; ++i) {
        const Ge__Proto__AttrMapEntry *e = td->attr[i];
        if (e == NULL || e->value == NULL) {
            continue;
        }
        const bool consumed = (fmt_consumed && bin_is(&e->key, OM_DESC_FORMAT_FOR_INT)) ||
                              (ofmt_i && bin_is(&e->key, OM_DESC_ORIGIN_FORMAT_FOR_INT)) ||
                              (ofmt_s && bin_is(&e->key, OM_DESC_ORIGIN_FORMAT)) ||
                              (osi && bin_is(&e->key, OM_DESC_ORIGIN_SHAPE_INITIALIZED)) ||
                              (os && bin_is(&e->key, OM_DESC_ORIGIN_SHAPE)) || (sr && bin_is(&e->key, OM_DESC_SHAPE_RANGE));
        if (consumed) {
            continue;
        }
        bool oom;
        char *key = key_name(c->root, &e->key, where, &oom);
        if (oom) {
            return OA_FAIL(OA_E_NOMEM, "[Load][Graph] attr name");
        }
        if (key != NULL) {
            st = attr_from_pb(c, &out->attrs, key, e->value, false, where);
        }
    }
    return st;
}

/* ---- nodes ---------------------------------------------------------------------- */

static bool is_control_ref(const char *in)
{
    const char *colon = strrchr(in, ':');
    return colon != NULL && strcmp(colon + 1, "-1") == 0;
}

/* Splits "<src>:<k>" (validated by om_check) into a NUL-terminated name. */
static oa_node *ref_node(const oa_graph *g, const char *in, long long *idx)
{
    const char *colon = strrchr(in, ':');
    size_t len = (size_t)(colon - in);
    char stack[256];
    char *name = len < sizeof(stack) ? stack : malloc(len + 1);
    if (name == NULL) {
        return NULL;
    }
    memcpy(name, in, len);
    name[len] = '\0';
    *idx = strtoll(colon + 1, NULL, 10);
    oa_node *n = oa_graph_find_node(g, name);
    if (name != stack) {
        free(name);
    }
    return n;
}

static bool list_i_equal(const Ge__Proto__AttrDef *v, const int64_t *want, size_t n)
{
    return v != NULL && v->value_case == GE__PROTO__ATTR_DEF__VALUE_LIST && v->list != NULL && v->list->n_i == n &&
           v->list->n_s == 0 && (n == 0 || memcmp(v->list->i, want, n * sizeof(int64_t)) == 0);
}

static bool list_s_equal(const Ge__Proto__AttrDef *v, const char **want, size_t n)
{
    if (v == NULL || v->value_case != GE__PROTO__ATTR_DEF__VALUE_LIST || v->list == NULL || v->list->n_s != n ||
        v->list->n_i != 0) {
        return false;
    }
    for (size_t i = 0; i < n; ++i) {
        if (!bin_is(&v->list->s[i], want[i])) {
            return false;
        }
    }
    return true;
}

/* True when the op's name-list pair is exactly what the writer derives. */
static oa_status derived_names(rctx *c, const Ge__Proto__OpDef *op, const oa_node *n, bool outputs, bool *derived)
{
    om_io_names names;
    oa_status st = om_ir_io_names(c->scratch, n->type, outputs ? n->num_outputs : n->num_inputs, outputs, &names);
    if (st != OA_OK) {
        return st;
    }
    const Ge__Proto__AttrDef *k = find_attr(op->attr, op->n_attr, outputs ? OM_ATTR_OUTPUT_NAME_KEY : OM_ATTR_INPUT_NAME_KEY);
    const Ge__Proto__AttrDef *v =
        find_attr(op->attr, op->n_attr, outputs ? OM_ATTR_OUTPUT_NAME_VALUE : OM_ATTR_INPUT_NAME_VALUE);
    *derived = names.n == 0 ? (k == NULL && v == NULL)
                            : (list_s_equal(k, names.names, names.n) && list_i_equal(v, names.index, names.n));
    return OA_OK;
}

static oa_status record_mem(rctx *c, const oa_node *n, const Ge__Proto__OpDef *op)
{
    if (op->n_input_i == 0 && op->n_output_i == 0 && op->n_workspace == 0 && op->n_workspace_bytes == 0) {
        return OA_OK;
    }
    if (n->id >= c->n_mems) {
        uint32_t nn = c->n_mems ? c->n_mems : 64;
        while (nn <= n->id) {
            nn *= 2;
        }
        oa_om_node_mem *m = realloc(c->mems, nn * sizeof(*m));
        if (m == NULL) {
            return OA_FAIL(OA_E_NOMEM, "[Load][Graph] memory plan of %u nodes", nn);
        }
        memset(m + c->n_mems, 0, (nn - c->n_mems) * sizeof(*m));
        c->mems = m;
        c->n_mems = nn;
    }
    /* copied into the graph: the decoded ModelDef may go once the graph is built (v1_load_om.c) */
    oa_arena *ar = oa_graph_arena(c->root);
    const int64_t *src[4] = {op->input_i, op->output_i, op->workspace, op->workspace_bytes};
    const size_t cnt[4] = {op->n_input_i, op->n_output_i, op->n_workspace, op->n_workspace_bytes};
    const int64_t *dup[4] = {NULL, NULL, NULL, NULL};
    for (int k = 0; k < 4; k++) {
        if (cnt[k] != 0 && (dup[k] = oa_arena_memdup(ar, src[k], cnt[k] * sizeof(int64_t))) == NULL) {
            return OA_FAIL(OA_E_NOMEM, "[Load][Graph] memory plan of node %s", n->name);
        }
    }
    c->mems[n->id] = (oa_om_node_mem){dup[0], cnt[0], dup[1], cnt[1], dup[2], cnt[2], dup[3], cnt[3]};
    return OA_OK;
}

static oa_status queue_push(rctx *c, oa_graph *g, const Ge__Proto__GraphDef *gd)
{
    if (c->nq == c->capq) {
        size_t nc = c->capq ? c->capq * 2 : 8;
        pending *q = realloc(c->queue, nc * sizeof(*q));
        if (q == NULL) {
            return OA_FAIL(OA_E_NOMEM, "[Load][Graph] %zu pending graphs", nc);
        }
        c->queue = q;
        c->capq = nc;
    }
    c->queue[c->nq++] = (pending){g, gd};
    return OA_OK;
}

/* Pass 1: the node, its output descs, attrs and subgraphs. */
static oa_status make_node(rctx *c, oa_graph *g, const Ge__Proto__GraphDef *gd, const Ge__Proto__OpDef *op)
{
    char where[300];
    (void)snprintf(where, sizeof(where), "graph %.100s op %.150s", gd->name, nz(op->name));
    uint32_t nin = 0;
    for (size_t i = 0; i < op->n_input; ++i) {
        nin += !is_control_ref(nz(op->input[i]));
    }
    if (nin != op->n_input_desc) {
        return OA_FAIL(OA_E_GE_LOAD_MODEL_PARTITION, "[Load][Graph] %s: %u data inputs but %zu input descs", where,
                       nin, op->n_input_desc);
    }
    if (op->n_output_desc > UINT32_MAX) {
        return OA_FAIL(OA_E_GE_LOAD_MODEL_PARTITION, "[Load][Graph] %s: too many outputs", where);
    }
    oa_node *n = NULL;
    oa_status st = oa_graph_add_node_typed(g, nz(op->type), nz(op->name), nin, (uint32_t)op->n_output_desc, &n);
    if (st == OA_OK && n->type == OA_OP_DATA && op->n_output_desc == 0) { /* every reader takes output 0's desc */
        return OA_FAIL(OA_E_GE_LOAD_MODEL_PARTITION, "[Load][Graph] %s: a Data node without an output", where);
    }
    for (size_t i = 0; i < op->n_output_desc && st == OA_OK; ++i) {
        st = desc_from_pb(c, op->output_desc[i], where, oa_node_output_desc(n, (uint32_t)i));
    }
    bool in_derived = false, out_derived = false;
    if (st == OA_OK) {
        st = derived_names(c, op, n, false, &in_derived);
    }
    if (st == OA_OK) {
        st = derived_names(c, op, n, true, &out_derived);
    }
    /* Subgraphs first, so a graph attr may name one of them. */
    for (size_t s = 0; s < op->n_subgraph_name && st == OA_OK; ++s) {
        const char *sn = nz(op->subgraph_name[s]);
        if (sn[0] == '\0') {
            OA_LOGW("[Load][Graph] %s: empty subgraph name %zu left out", where, s);
            continue;
        }
        const Ge__Proto__GraphDef *sub = oa_om_model_find_graph(c->def, sn);
        oa_graph *sg = NULL;
        st = oa_graph_create_subgraph(n, om_ir_subgraph_slot_name(n->type, (uint32_t)s), sn, &sg);
        if (st == OA_OK) {
            st = queue_push(c, sg, sub);
        }
    }
    for (size_t i = 0; i < op->n_attr && st == OA_OK; ++i) {
        const Ge__Proto__AttrMapEntry *e = op->attr[i];
        if (e == NULL || e->value == NULL) {
            continue;
        }
        if ((in_derived && (bin_is(&e->key, OM_ATTR_INPUT_NAME_KEY) || bin_is(&e->key, OM_ATTR_INPUT_NAME_VALUE))) ||
            (out_derived && (bin_is(&e->key, OM_ATTR_OUTPUT_NAME_KEY) || bin_is(&e->key, OM_ATTR_OUTPUT_NAME_VALUE)))) {
            continue;
        }
        bool oom;
        char *key = key_name(c->root, &e->key, where, &oom);
        if (oom) {
            return OA_FAIL(OA_E_NOMEM, "[Load][Graph] attr name");
        }
        if (key != NULL) {
            st = attr_from_pb(c, &n->attrs, key, e->value, om_ir_is_injected_attr(key, e->key.len), where);
        }
    }
    if (st == OA_OK) {
        st = record_mem(c, n, op);
    }
    return st;
}

/* Pass 2: edges and input descs (set after connecting, which overwrites them). */
static oa_status wire_node(rctx *c, oa_graph *g, const Ge__Proto__GraphDef *gd, const Ge__Proto__OpDef *op)
{
    char where[300];
    (void)snprintf(where, sizeof(where), "graph %.100s op %.150s", gd->name, nz(op->name));
    oa_node *n = oa_graph_find_node(g, nz(op->name));
    oa_status st = OA_OK;
    uint32_t slot = 0;
    for (size_t i = 0; i < op->n_input && st == OA_OK; ++i) {
        const char *in = nz(op->input[i]);
        if (is_control_ref(in)) {
            long long idx;
            oa_node *src = ref_node(g, in, &idx);
            st = src != NULL ? oa_node_add_control_input(n, src)
                             : OA_FAIL(OA_E_GE_LOAD_MODEL_PARTITION, "[Load][Graph] %s: bad control input %s", where,
                                       in);
            continue;
        }
        if (in[0] != '\0') {
            long long idx;
            oa_node *src = ref_node(g, in, &idx);
            if (src == NULL || idx < 0 || (unsigned long long)idx >= src->num_outputs) {
                st = OA_FAIL(OA_E_GE_LOAD_MODEL_PARTITION, "[Load][Graph] %s: input %s names no output", where, in);
                break;
            }
            st = oa_node_connect(n, slot, src, (uint32_t)idx);
        }
        slot++;
    }
    for (uint32_t i = 0; i < n->num_inputs && st == OA_OK; ++i) {
        oa_tensor_desc d;
        st = desc_from_pb(c, op->input_desc[i], where, &d);
        if (st == OA_OK) {
            *oa_node_input_desc(n, i) = d;
        }
    }
    return st;
}

static oa_status fill_graph(rctx *c, oa_graph *g, const Ge__Proto__GraphDef *gd)
{
    oa_status st = OA_OK;
    for (size_t i = 0; i < gd->n_op && st == OA_OK; ++i) {
        st = make_node(c, g, gd, gd->op[i]);
    }
    for (size_t i = 0; i < gd->n_op && st == OA_OK; ++i) {
        st = wire_node(c, g, gd, gd->op[i]);
    }
    for (size_t i = 0; i < gd->n_attr && st == OA_OK; ++i) {
        const Ge__Proto__AttrMapEntry *e = gd->attr[i];
        if (e == NULL || e->value == NULL) {
            continue;
        }
        bool oom;
        char *key = key_name(c->root, &e->key, gd->name, &oom);
        if (oom) {
            st = OA_FAIL(OA_E_NOMEM, "[Load][Graph] attr name");
        } else if (key != NULL) {
            st = attr_from_pb(c, oa_graph_attrs(g), key, e->value, false, gd->name);
        }
    }
    return st;
}

/* ---- the graph ------------------------------------------------------------------- */

static const oa_om_node_mem *info_node_mem(void *ctx, const oa_node *n)
{
    const info_full *f = ctx;
    if (n == NULL || n->id >= f->n_mems) {
        return NULL;
    }
    const oa_om_node_mem *m = &f->mems[n->id];
    return (m->n_input | m->n_output | m->n_workspace | m->n_workspace_bytes) != 0 ? m : NULL;
}

static oa_status build(rctx *c, const oa_om_graph_info **info_out)
{
    oa_status st = oa_graph_create(nz(c->def->graph[0]->name), &c->root);
    if (st != OA_OK) {
        return st;
    }
    c->blob = oa_blob_create(c->m->image.data, c->m->image.size, release_model, c->m);
    if (c->blob == NULL) {
        return OA_E_NOMEM; /* reported by oa_blob_create */
    }
    /* The graph holds the model through the blob even without weights:
     * a zero-size tensor borrowing it keeps one reference. */
    const oa_shape empty = oa_shape_make(1, (const int64_t[]){0});
    oa_tensor *keep = NULL;
    st = oa_graph_make_tensor_borrowed(c->root, OA_DT_UINT8, &empty, c->blob, 0, 0, &keep);
    if (st == OA_OK) {
        st = oa_om_arena_create(&c->scratch);
    }
    if (st == OA_OK) {
        st = queue_push(c, c->root, c->def->graph[0]);
    }
    for (size_t q = 0; q < c->nq && st == OA_OK; ++q) {
        st = fill_graph(c, c->queue[q].g, c->queue[q].gd);
    }
    info_full *info = st == OA_OK ? oa_arena_alloc(oa_graph_arena(c->root), sizeof(*info), 0) : NULL;
    if (st == OA_OK && info == NULL) {
        st = OA_FAIL(OA_E_NOMEM, "[Load][Graph] info");
    }
    if (info != NULL) {
        memset(info, 0, sizeof(*info));
    }
    for (size_t i = 0; st == OA_OK && i < c->def->n_attr; ++i) {
        const Ge__Proto__AttrMapEntry *e = c->def->attr[i];
        if (e == NULL || e->value == NULL) {
            continue;
        }
        bool oom;
        char *key = key_name(c->root, &e->key, "model", &oom);
        if (oom) {
            st = OA_FAIL(OA_E_NOMEM, "[Load][Graph] attr name");
        } else if (key != NULL) {
            st = attr_from_pb(c, &info->pub.model_attrs, key, e->value, false, "model");
        }
    }
    if (st != OA_OK) {
        return st;
    }
    const oa_om_header *h = &c->m->container.header;
    memcpy(info->pub.platform_version, h->platform_version, OA_OM_PLATFORM_VERSION_LEN - 1);
    info->pub.platform_version[OA_OM_PLATFORM_VERSION_LEN - 1] = '\0';
    if (!oa_om_utf8_valid((const uint8_t *)info->pub.platform_version, strlen(info->pub.platform_version))) {
        /* It becomes ModelDef.custom_version, a proto string, when written. */
        OA_LOGW("[Load][Graph] the header's platform version is not UTF-8; it is dropped");
        info->pub.platform_version[0] = '\0';
    }
    info->pub.unknown_shape = h->is_unknow_model == 1;
    info->pub.inline_weights = !c->merged_weights && c->sm->weights == NULL;
    info->pub.task = c->sm->task;
    int64_t mem = 0;
    if (c->sm->task != NULL) {
        mem = c->sm->task->memory_size > INT64_MAX ? INT64_MAX : (int64_t)c->sm->task->memory_size;
    } else {
        const Ge__Proto__AttrDef *ms = oa_om_attr_get(c->def->attr, c->def->n_attr, "memory_size");
        mem = ms != NULL && ms->value_case == GE__PROTO__ATTR_DEF__VALUE_I ? ms->i : 0;
    }
    info->pub.memory_size = mem;
    info->pub.model = c->m;
    info->mems = c->n_mems ? oa_arena_memdup(oa_graph_arena(c->root), c->mems, c->n_mems * sizeof(*c->mems)) : NULL;
    if (c->n_mems != 0 && info->mems == NULL) {
        return OA_FAIL(OA_E_NOMEM, "[Load][Graph] memory plan");
    }
    info->n_mems = c->n_mems;
    info->pub.plan = (oa_om_mem_plan){mem, info_node_mem, info};
    *info_out = &info->pub;
    return OA_OK;
}

oa_status oa_om_graph_from_model(oa_om_model *m, uint32_t index, oa_graph **out, const oa_om_graph_info **info)
{
    *out = NULL;
    if (info != NULL) {
        *info = NULL;
    }
    if (m == NULL || index >= m->num_models) {
        oa_status st = OA_FAIL(OA_E_PARAM, "[Load][Graph] model table %u does not exist", index);
        oa_om_model_destroy(m);
        return st;
    }
    if ((m->open_flags & OA_OM_OPEN_KEEP_COMPRESSED) != 0) {
        oa_om_model_destroy(m);
        return OA_FAIL(OA_E_PARAM, "[Load][Graph] the model was opened with compressed attributes kept");
    }
    rctx c = {.m = m, .sm = &m->models[index], .def = m->models[index].def};
    const oa_om_graph_info *inf = NULL;
    oa_status st = build(&c, &inf);
    oa_om_arena_destroy(c.scratch);
    free(c.queue);
    free(c.mems);
    if (c.blob == NULL) {
        /* The blob never took the model: release it here. */
        oa_graph_destroy(c.root);
        oa_om_model_destroy(m);
        return st;
    }
    oa_blob_release(c.blob); /* the graph's references keep the model alive */
    if (st != OA_OK) {
        oa_graph_destroy(c.root); /* drops the last reference: the model goes too */
        return st;
    }
    *out = c.root;
    if (info != NULL) {
        *info = inf;
    }
    return OA_OK;
}

oa_status oa_om_read_graph(const char *path, oa_graph **out, const oa_om_graph_info **info)
{
    oa_om_model *m = NULL;
    *out = NULL;
    oa_status st = oa_om_model_open_file(path, 0, &m);
    if (st != OA_OK) {
        return st;
    }
    return oa_om_graph_from_model(m, 0, out, info);
}

void oa_om_graph_info_write_opts(const oa_om_graph_info *info, oa_om_write_opts *opts)
{
    oa_om_write_opts_init(opts);
    if (info == NULL) {
        return;
    }
    opts->model_attrs = &info->model_attrs;
    opts->platform_version = info->platform_version[0] != '\0' ? info->platform_version : NULL;
    opts->plan = &info->plan;
    opts->task = info->task;
    opts->inline_weights = info->inline_weights;
    opts->unknown_shape = info->unknown_shape;
}
