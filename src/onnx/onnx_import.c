/*
 * ONNX model import (onnx_import.h): reading and decoding the protobuf
 * (with a nesting-depth pre-check so hostile files cannot exhaust the
 * stack), opset checks, the model-wide unsupported-op report, unnamed-node
 * naming, graph structure (initializers, inputs, node order, outputs), If
 * subgraphs and Constant nodes. Per-op mappings live in onnx_ops*.c.
 */
#define OA_LOG_MODULE "GE"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/util.h"
#include "graph/blob.h"
#include "graph/infer.h"
#include "onnx/onnx_internal.h"

/* Deepest message nesting accepted (Model > Graph > Node > Attribute >
 * Graph > ... uses about 3 levels per subgraph level). */
#define MAX_MSG_DEPTH 100

void oa_onnx_options_init(oa_onnx_options *opt)
{
    memset(opt, 0, sizeof(*opt));
}

/* ------------------------------------------------------- wire pre-check */

static bool read_varint(const uint8_t *p, size_t len, size_t *pos, uint64_t *out)
{
    uint64_t v = 0;
    for (unsigned shift = 0; shift < 64; shift += 7) {
        if (*pos >= len) {
            return false;
        }
        uint8_t b = p[(*pos)++];
        v |= (uint64_t)(b & 0x7f) << shift;
        if ((b & 0x80) == 0) {
            *out = v;
            return true;
        }
    }
    return false;
}

/* Walks the wire format using the generated descriptors; fails on
 * malformed framing or when messages nest deeper than MAX_MSG_DEPTH. */
static bool wire_check(const uint8_t *p, size_t len, const ProtobufCMessageDescriptor *d, int depth,
                       const char **why)
{
    size_t pos = 0;
    while (pos < len) {
        uint64_t tag, v;
        if (!read_varint(p, len, &pos, &tag) || (tag >> 3) == 0) {
            *why = "bad field tag";
            return false;
        }
        switch (tag & 7) {
        case 0:
            if (!read_varint(p, len, &pos, &v)) {
                *why = "truncated varint";
                return false;
            }
            break;
        case 1:
            if (len - pos < 8) {
                *why = "truncated fixed64";
                return false;
            }
            pos += 8;
            break;
        case 5:
            if (len - pos < 4) {
                *why = "truncated fixed32";
                return false;
            }
            pos += 4;
            break;
        case 2: {
            if (!read_varint(p, len, &pos, &v) || v > len - pos) {
                *why = "length-delimited field runs past the end";
                return false;
            }
            const ProtobufCFieldDescriptor *f =
                d ? protobuf_c_message_descriptor_get_field(d, (unsigned)(tag >> 3)) : NULL;
            if (f != NULL && f->type == PROTOBUF_C_TYPE_MESSAGE) {
                if (depth + 1 > MAX_MSG_DEPTH) {
                    *why = "messages nest too deeply";
                    return false;
                }
                if (!wire_check(p + pos, (size_t)v, f->descriptor, depth + 1, why)) {
                    return false;
                }
            }
            pos += (size_t)v;
            break;
        }
        default:
            *why = "unsupported wire type";
            return false;
        }
    }
    return true;
}

/* ------------------------------------------------------------- helpers */

static const char *str_or(const char *s, const char *dflt)
{
    return (s != NULL && s[0] != '\0') ? s : dflt;
}

static bool is_default_domain(const char *d)
{
    return d == NULL || d[0] == '\0' || strcmp(d, "ai.onnx") == 0;
}

static int cmp_name_entry(const void *a, const void *b)
{
    const onnx_name_entry *x = a, *y = b;
    return (x->np > y->np) - (x->np < y->np);
}

static const char *assigned_name(const onnx_importer *imp, const Onnx__NodeProto *np)
{
    if (np->name != NULL && np->name[0] != '\0') {
        return np->name;
    }
    onnx_name_entry key = {np, NULL};
    const onnx_name_entry *e = bsearch(&key, imp->names, imp->num_names, sizeof(key), cmp_name_entry);
    return e ? e->name : "unnamed";
}

/* A growable text buffer for long messages. */
typedef struct sbuf {
    char *s;
    size_t len, cap;
    bool oom;
} sbuf;

static void sb_add(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_add(sbuf *b, const char *fmt, ...)
{
    if (b->oom) {
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
        return;
    }
    if (b->len + (size_t)n + 1 > b->cap) {
        size_t nc = (b->cap ? b->cap * 2 : 256);
        while (nc < b->len + (size_t)n + 1) {
            nc *= 2;
        }
        char *ns = realloc(b->s, nc);
        if (ns == NULL) {
            b->oom = true;
            return;
        }
        b->s = ns;
        b->cap = nc;
    }
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

/* The table row converting np: the default domain (main table, then the
 * extension table) at the model's opset, other domains at their own version. */
const onnx_op_entry *oa_onnx_node_op(const onnx_importer *imp, const Onnx__NodeProto *np)
{
    if (is_default_domain(np->domain)) {
        if (imp->opset <= 0) {
            return NULL;
        }
        const onnx_op_entry *e = oa_onnx_find_op(np->op_type, imp->opset);
        return e != NULL ? e : oa_onnx_find_ext_op("", np->op_type, imp->opset);
    }
    if (strcmp(np->domain, OA_ONNX_TRAINING_DOMAIN) == 0 && imp->train_opset >= 0) {
        return oa_onnx_find_ext_op(np->domain, np->op_type, imp->train_opset);
    }
    return NULL;
}

/* ------------------------------------------------ model-wide pre-pass */

typedef struct unsupported {
    const char *key;   /* "Type" or "domain::Type" (arena/msg string) */
    sbuf nodes;
    size_t count;
} unsupported;

/* Breadth-first over all graphs: names unnamed nodes "<OpType>_<n>" with one
 * counter (docs/ge_ir.md "ONNX import") and collects unsupported op types. */
static oa_status prepass(onnx_importer *imp, const Onnx__GraphProto *root, oa_arena *arena)
{
    size_t qcap = 16, qhead = 0, qtail = 0;
    const Onnx__GraphProto **q = malloc(qcap * sizeof(*q));
    unsupported *un = NULL;
    size_t nun = 0, capun = 0;
    size_t ncap = 0;
    uint64_t counter = 0;
    oa_status st = OA_OK;
    if (q == NULL) {
        return OA_FAIL(OA_E_NOMEM, "cannot allocate the import queue");
    }
    q[qtail++] = root;
    while (qhead < qtail && st == OA_OK) {
        const Onnx__GraphProto *g = q[qhead++];
        for (size_t i = 0; i < g->n_node && st == OA_OK; i++) {
            const Onnx__NodeProto *np = g->node[i];
            if (np->op_type == NULL || np->op_type[0] == '\0') {
                st = OA_FAIL(OA_E_PARSE_MODEL, "node %zu of graph %s (%s) has no op_type", i, str_or(g->name, "?"),
                             str_or(np->name, "unnamed"));
                break;
            }
            if (np->name == NULL || np->name[0] == '\0') {
                if (imp->num_names == ncap) {
                    ncap = ncap ? ncap * 2 : 64;
                    onnx_name_entry *nn = realloc(imp->names, ncap * sizeof(*nn));
                    if (nn == NULL) {
                        st = OA_FAIL(OA_E_NOMEM, "cannot name unnamed nodes");
                        break;
                    }
                    imp->names = nn;
                }
                const char *nm = oa_arena_printf(arena, "%s_%llu", np->op_type, (unsigned long long)counter++);
                if (nm == NULL) {
                    st = OA_E_NOMEM;
                    break;
                }
                imp->names[imp->num_names].np = np;
                imp->names[imp->num_names].name = nm;
                imp->num_names++;
            }
            bool ok = oa_onnx_node_op(imp, np) != NULL;
            if (!ok) {
                const char *key = is_default_domain(np->domain)
                                      ? np->op_type
                                      : oa_arena_printf(arena, "%s::%s", np->domain, np->op_type);
                if (key == NULL) {
                    st = OA_E_NOMEM;
                    break;
                }
                size_t k = 0;
                while (k < nun && strcmp(un[k].key, key) != 0) {
                    k++;
                }
                if (k == nun) {
                    if (nun == capun) {
                        capun = capun ? capun * 2 : 8;
                        unsupported *nu = realloc(un, capun * sizeof(*nu));
                        if (nu == NULL) {
                            st = OA_FAIL(OA_E_NOMEM, "cannot list unsupported ops");
                            break;
                        }
                        un = nu;
                    }
                    memset(&un[nun], 0, sizeof(un[nun]));
                    un[nun++].key = key;
                }
                if (un[k].count < 8) {
                    const char *sep = un[k].count ? ", " : "";
                    if (np->name != NULL && np->name[0] != '\0') {
                        sb_add(&un[k].nodes, "%s%s", sep, np->name);
                    } else {
                        /* an unnamed node: its index in its graph and its first output */
                        sb_add(&un[k].nodes, "%snode #%zu%s%s%s%s", sep, i, g == root ? "" : " of graph ",
                               g == root ? "" : str_or(g->name, "?"), np->n_output > 0 ? " -> " : "",
                               np->n_output > 0 ? str_or(np->output[0], "\"\"") : "");
                    }
                }
                un[k].count++;
            }
            for (size_t a = 0; a < np->n_attribute; a++) {
                const Onnx__AttributeProto *at = np->attribute[a];
                const Onnx__GraphProto *subs[1] = {at->g};
                size_t nsub = at->g ? 1 : 0;
                const Onnx__GraphProto *const *list = at->n_graphs ? (const Onnx__GraphProto *const *)at->graphs
                                                                   : subs;
                size_t n = at->n_graphs ? at->n_graphs : nsub;
                for (size_t k = 0; k < n; k++) {
                    if (qtail == qcap) {
                        qcap *= 2;
                        const Onnx__GraphProto **nq = realloc(q, qcap * sizeof(*nq));
                        if (nq == NULL) {
                            st = OA_FAIL(OA_E_NOMEM, "cannot grow the import queue");
                            break;
                        }
                        q = nq;
                    }
                    q[qtail++] = list[k];
                }
            }
        }
    }
    if (st == OA_OK && nun > 0) {
        sbuf msg = {0};
        for (size_t k = 0; k < nun; k++) {
            sb_add(&msg, "%s%s (%zu node%s: %s%s)", k ? "; " : "", un[k].key, un[k].count, un[k].count == 1 ? "" : "s",
                   un[k].nodes.s ? un[k].nodes.s : "", un[k].count > 8 ? ", ..." : "");
        }
        /* CANN reports an op type no parser registered as E16002 (docs/onnx_ops.md) */
        st = OA_FAIL(OA_E_FEATURE_UNSUPPORTED,
                     "E16002: the model uses %zu unsupported ONNX op type%s at opset %lld%s: %s. The supported op "
                     "types and opsets are listed in docs/onnx_ops.md",
                     nun, nun == 1 ? "" : "s", (long long)imp->opset,
                     imp->opset == 0 ? " (the model imports only " OA_ONNX_TRAINING_DOMAIN ")" : "",
                     msg.s ? msg.s : "(out of memory)");
        free(msg.s);
    }
    for (size_t k = 0; k < nun; k++) {
        free(un[k].nodes.s);
    }
    free(un);
    free(q);
    if (st == OA_OK && imp->num_names > 1) {
        qsort(imp->names, imp->num_names, sizeof(*imp->names), cmp_name_entry);
    }
    return st;
}

/* ------------------------------------------------------ free variables */

/* Names a graph reads from enclosing scopes (recursively through nested
 * subgraphs), excluding "" (omitted optional inputs). */
static oa_status collect_free(const Onnx__GraphProto *g, oa_strmap *out)
{
    oa_strmap defined;
    oa_strmap_init(&defined);
    oa_status st = OA_OK;
    for (size_t i = 0; i < g->n_initializer && st == OA_OK; i++) {
        if (g->initializer[i]->name) {
            st = oa_strmap_put(&defined, g->initializer[i]->name, (void *)1);
        }
    }
    for (size_t i = 0; i < g->n_input && st == OA_OK; i++) {
        if (g->input[i]->name) {
            st = oa_strmap_put(&defined, g->input[i]->name, (void *)1);
        }
    }
    for (size_t i = 0; i < g->n_node && st == OA_OK; i++) {
        for (size_t j = 0; j < g->node[i]->n_output && st == OA_OK; j++) {
            if (g->node[i]->output[j][0]) {
                st = oa_strmap_put(&defined, g->node[i]->output[j], (void *)1);
            }
        }
    }
    for (size_t i = 0; i < g->n_node && st == OA_OK; i++) {
        const Onnx__NodeProto *np = g->node[i];
        for (size_t j = 0; j < np->n_input && st == OA_OK; j++) {
            const char *in = np->input[j];
            if (in[0] && !oa_strmap_contains(&defined, in)) {
                st = oa_strmap_put(out, in, (void *)1);
            }
        }
        for (size_t a = 0; a < np->n_attribute && st == OA_OK; a++) {
            const Onnx__AttributeProto *at = np->attribute[a];
            for (size_t k = 0; k < at->n_graphs + (at->g ? 1 : 0) && st == OA_OK; k++) {
                const Onnx__GraphProto *sub = k < at->n_graphs ? at->graphs[k] : at->g;
                oa_strmap inner;
                oa_strmap_init(&inner);
                st = collect_free(sub, &inner);
                for (size_t s = 0; s < inner.cap && st == OA_OK; s++) {
                    const char *key = inner.keys[s];
                    if (key && key[0] && !oa_strmap_contains(&defined, key)) {
                        st = oa_strmap_put(out, key, (void *)1);
                    }
                }
                oa_strmap_deinit(&inner);
            }
        }
    }
    oa_strmap_deinit(&defined);
    return st;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Sorted free-variable list of an If (union of both branches). *names is
 * malloc'd. */
static oa_status if_free_vars(const Onnx__NodeProto *np, const char ***names, size_t *count);

oa_status oa_onnx_free_vars(const Onnx__NodeProto *np, const char ***names, size_t *count)
{
    return if_free_vars(np, names, count);
}

static oa_status if_free_vars(const Onnx__NodeProto *np, const char ***names, size_t *count)
{
    oa_strmap set;
    oa_strmap_init(&set);
    oa_status st = OA_OK;
    for (size_t a = 0; a < np->n_attribute && st == OA_OK; a++) {
        const Onnx__AttributeProto *at = np->attribute[a];
        if (at->g && at->name && (strcmp(at->name, "then_branch") == 0 || strcmp(at->name, "else_branch") == 0 ||
                                  strcmp(at->name, "body") == 0)) {
            st = collect_free(at->g, &set);
        }
    }
    *names = NULL;
    *count = 0;
    if (st == OA_OK && set.count > 0) {
        const char **v = malloc(set.count * sizeof(*v));
        if (v == NULL) {
            st = OA_FAIL(OA_E_NOMEM, "cannot list If inputs");
        } else {
            size_t n = 0;
            for (size_t s = 0; s < set.cap; s++) {
                if (set.keys[s] && set.keys[s][0]) {
                    v[n++] = set.keys[s];
                }
            }
            qsort(v, n, sizeof(*v), cmp_str);
            *names = v;
            *count = n;
        }
    }
    oa_strmap_deinit(&set);
    return st;
}

/* ------------------------------------------------------------- graphs */

static oa_status scope_put(onnx_scope *sc, const char *name, oa_node *node, uint32_t idx)
{
    onnx_value *v = oa_arena_alloc(oa_graph_arena(sc->g), sizeof(*v), 0);
    const char *key = oa_arena_strdup(oa_graph_arena(sc->g), name);
    if (v == NULL || key == NULL) {
        return OA_E_NOMEM;
    }
    v->node = node;
    v->index = idx;
    return oa_strmap_put(&sc->values, key, v);
}

/* Unique node name "<prefix><base>". */
static const char *scoped_name(onnx_scope *sc, const char *base)
{
    char *full = oa_arena_printf(oa_graph_arena(sc->g), "%s%s", sc->prefix, base);
    if (full == NULL) {
        return NULL;
    }
    const char *u = oa_graph_unique_name(sc->g, full);
    if (u != NULL && strcmp(u, full) != 0) {
        OA_LOGW("ONNX name [%s] is used twice in graph %s; the node is renamed [%s]", full, oa_graph_name(sc->g), u);
    }
    return u;
}

static oa_status value_info_to_desc(const Onnx__ValueInfoProto *vi, const char *what, oa_dtype *dt, oa_shape *s)
{
    const Onnx__TypeProto *tp = vi->type;
    if (tp == NULL || tp->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE || tp->tensor_type == NULL) {
        return OA_FAIL(OA_E_FEATURE_UNSUPPORTED, "%s [%s] is not a tensor (sequences/maps are not supported)", what,
                       str_or(vi->name, "?"));
    }
    const Onnx__TypeProto__Tensor *tt = tp->tensor_type;
    if (!tt->has_elem_type || !oa_onnx_dtype_to_ge(tt->elem_type, dt) || *dt == OA_DT_STRING) {
        return OA_FAIL(OA_E_FEATURE_UNSUPPORTED, "%s [%s] has unsupported element type %d", what,
                       str_or(vi->name, "?"), tt->has_elem_type ? (int)tt->elem_type : 0);
    }
    if (tt->shape == NULL) {
        *s = oa_shape_unknown_rank();
        return OA_OK;
    }
    if (tt->shape->n_dim > OA_MAX_RANK) {
        return OA_FAIL(OA_E_FEATURE_UNSUPPORTED, "%s [%s] has rank %zu; at most %d is supported", what,
                       str_or(vi->name, "?"), tt->shape->n_dim, OA_MAX_RANK);
    }
    memset(s, 0, sizeof(*s));
    s->rank = (int32_t)tt->shape->n_dim;
    for (size_t i = 0; i < tt->shape->n_dim; i++) {
        const Onnx__TensorShapeProto__Dimension *d = tt->shape->dim[i];
        if (d->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE) {
            if (d->dim_value < 0) {
                return OA_FAIL(OA_E_PARSE_MODEL, "%s [%s] has negative dim %lld", what, str_or(vi->name, "?"),
                               (long long)d->dim_value);
            }
            s->dims[i] = d->dim_value;
        } else {
            s->dims[i] = OA_DIM_UNKNOWN;
        }
    }
    int64_t n;
    if (oa_shape_is_static(s) && !oa_shape_numel(s, &n)) {
        return OA_FAIL(OA_E_PARSE_MODEL, "%s [%s] has an element count that overflows", what, str_or(vi->name, "?"));
    }
    return OA_OK;
}

static oa_status import_graph(onnx_importer *imp, onnx_scope *sc, const Onnx__GraphProto *gp,
                              const char *const *implicit, size_t n_implicit, bool is_root);

static oa_status add_initializers(onnx_importer *imp, onnx_scope *sc, const Onnx__GraphProto *gp)
{
    if (gp->n_sparse_initializer > 0) {
        return OA_FAIL(OA_E_FEATURE_UNSUPPORTED, "graph %s has sparse initializers, which are not supported",
                       str_or(gp->name, "?"));
    }
    size_t n = gp->n_initializer;
    if (n == 0) {
        return OA_OK;
    }
    const Onnx__TensorProto **sorted = malloc(n * sizeof(*sorted));
    if (sorted == NULL) {
        return OA_FAIL(OA_E_NOMEM, "cannot sort initializers");
    }
    oa_status st = OA_OK;
    for (size_t i = 0; i < n; i++) {
        sorted[i] = gp->initializer[i];
        if (sorted[i]->name == NULL || sorted[i]->name[0] == '\0') {
            st = OA_FAIL(OA_E_PARSE_MODEL, "initializer %zu of graph %s has no name", i, str_or(gp->name, "?"));
            break;
        }
    }
    if (st == OA_OK) {
        for (size_t i = 1; i < n; i++) { /* insertion sort by name (stable, usually sorted already) */
            const Onnx__TensorProto *t = sorted[i];
            size_t j = i;
            while (j > 0 && strcmp(sorted[j - 1]->name, t->name) > 0) {
                sorted[j] = sorted[j - 1];
                j--;
            }
            sorted[j] = t;
        }
        for (size_t i = 1; i < n; i++) {
            if (strcmp(sorted[i - 1]->name, sorted[i]->name) == 0) {
                st = OA_FAIL(OA_E_PARSE_MODEL, "initializer [%s] is defined twice", sorted[i]->name);
                break;
            }
        }
    }
    for (size_t k = 0; k < n && st == OA_OK; k++) {
        const Onnx__TensorProto *t = sorted[k];
        char base[64];
        snprintf(base, sizeof(base), "_Initializer_%zu", k);
        char *nm = oa_arena_printf(oa_graph_arena(sc->g), "%s%s", t->name, base);
        const char *name = nm ? scoped_name(sc, nm) : NULL;
        char *what = oa_arena_printf(oa_graph_arena(sc->g), "initializer [%s]", t->name);
        if (name == NULL || what == NULL) {
            st = OA_E_NOMEM;
            break;
        }
        oa_node *node;
        st = oa_onnx_make_const_node(imp, sc, t, name, what, &node);
        if (st == OA_OK) {
            st = scope_put(sc, t->name, node, 0);
        }
    }
    free(sorted);
    return st;
}

static oa_status add_inputs(onnx_scope *sc, const Onnx__GraphProto *gp, bool is_root, const char *const *implicit,
                            size_t n_implicit)
{
    oa_status st = OA_OK;
    if (!is_root && gp->n_input > 0) {
        return OA_FAIL(OA_E_FEATURE_UNSUPPORTED, "subgraph %s declares %zu inputs; only If branches (no inputs) are "
                                                 "supported", str_or(gp->name, "?"), gp->n_input);
    }
    int64_t index = 0;
    for (size_t i = 0; i < gp->n_input && st == OA_OK; i++) {
        const Onnx__ValueInfoProto *vi = gp->input[i];
        if (vi->name == NULL || vi->name[0] == '\0') {
            return OA_FAIL(OA_E_PARSE_MODEL, "graph input %zu has no name", i);
        }
        if (oa_strmap_contains(&sc->values, vi->name)) {
            onnx_value *v = oa_strmap_get(&sc->values, vi->name);
            if (v->node->type == OA_OP_DATA) {
                return OA_FAIL(OA_E_PARSE_MODEL, "graph input [%s] is declared twice", vi->name);
            }
            continue; /* an initializer with the same name wins (it becomes a Const) */
        }
        oa_dtype dt;
        oa_shape s;
        if ((st = value_info_to_desc(vi, "graph input", &dt, &s)) != OA_OK) {
            return st;
        }
        const char *name = scoped_name(sc, vi->name);
        oa_node *d;
        if (name == NULL) {
            return OA_E_NOMEM;
        }
        st = oa_graph_add_data(sc->g, name, index++, dt, &s, OA_FORMAT_NCHW, &d);
        if (st == OA_OK) {
            st = oa_node_set_int(d, "data_type", dt);
        }
        if (st == OA_OK) {
            st = scope_put(sc, vi->name, d, 0);
        }
    }
    for (size_t i = 0; i < n_implicit && st == OA_OK; i++) {
        const char *name = scoped_name(sc, implicit[i]);
        oa_node *d;
        oa_shape unk = oa_shape_unknown_rank();
        if (name == NULL) {
            return OA_E_NOMEM;
        }
        st = oa_graph_add_data(sc->g, name, (int64_t)i, OA_DT_FLOAT, &unk, OA_FORMAT_ND, &d);
        if (st == OA_OK) {
            st = oa_node_set_int(d, "_parent_node_index", (int64_t)i + 1);
        }
        if (st == OA_OK) {
            st = scope_put(sc, implicit[i], d, 0);
        }
    }
    return st;
}

/* A training-domain Gradient node depends on the producer of its `y`
 * attribute: *names gets that one name (one malloc'd block), else nothing. */
static oa_status gradient_target(const Onnx__NodeProto *np, const char ***names, size_t *count)
{
    *names = NULL;
    *count = 0;
    if (strcmp(np->op_type, "Gradient") != 0 || np->domain == NULL ||
        strcmp(np->domain, OA_ONNX_TRAINING_DOMAIN) != 0) {
        return OA_OK;
    }
    for (size_t a = 0; a < np->n_attribute; a++) {
        const Onnx__AttributeProto *at = np->attribute[a];
        if (at->name == NULL || strcmp(at->name, "y") != 0 || at->s.data == NULL || at->s.len == 0) {
            continue;
        }
        char *blk = malloc(sizeof(char *) + at->s.len + 1);
        if (blk == NULL) {
            return OA_FAIL(OA_E_NOMEM, "cannot order nodes");
        }
        char *str = blk + sizeof(char *);
        memcpy(str, at->s.data, at->s.len);
        str[at->s.len] = '\0';
        memcpy(blk, &str, sizeof(char *));
        *names = (const char **)(void *)blk;
        *count = 1;
        break;
    }
    return OA_OK;
}

/* Orders nodes so every producer (including the producers of tensors the
 * node's subgraphs read) comes first; reports dangling names, duplicate
 * producers and cycles. *order is malloc'd. */
static oa_status order_nodes(onnx_scope *sc, const Onnx__GraphProto *gp, size_t **order)
{
    size_t n = gp->n_node;
    oa_strmap producer;
    oa_strmap_init(&producer);
    size_t *idx = calloc(n + 1, sizeof(*idx));
    uint8_t *color = calloc(n + 1, 1);
    size_t *stack = calloc(n + 1, sizeof(*stack));
    size_t *res = malloc((n + 1) * sizeof(*res));
    /* deps[i]: list of producer node indices of node i */
    size_t **deps = calloc(n + 1, sizeof(*deps));
    size_t *ndeps = calloc(n + 1, sizeof(*ndeps));
    oa_status st = OA_OK;
    if (idx == NULL || color == NULL || stack == NULL || res == NULL || deps == NULL || ndeps == NULL) {
        st = OA_FAIL(OA_E_NOMEM, "cannot order %zu nodes", n);
        goto done;
    }
    for (size_t i = 0; i < n && st == OA_OK; i++) {
        idx[i] = i;
        const Onnx__NodeProto *np = gp->node[i];
        for (size_t j = 0; j < np->n_output; j++) {
            const char *o = np->output[j];
            if (!o[0]) {
                continue;
            }
            if (oa_strmap_contains(&sc->values, o)) {
                st = OA_FAIL(OA_E_PARSE_MODEL, "tensor [%s] is produced by node [%s] but is also a graph input or "
                                               "initializer", o, str_or(np->name, np->op_type));
                break;
            }
            if (oa_strmap_contains(&producer, o)) {
                size_t other = (size_t)(uintptr_t)oa_strmap_get(&producer, o) - 1;
                st = OA_FAIL(OA_E_PARSE_MODEL, "tensor [%s] is produced by two nodes ([%s] and [%s])", o,
                             str_or(gp->node[other]->name, gp->node[other]->op_type), str_or(np->name, np->op_type));
                break;
            }
            st = oa_strmap_put(&producer, o, (void *)(uintptr_t)(i + 1));
            if (st != OA_OK) {
                break;
            }
        }
    }
    for (size_t i = 0; i < n && st == OA_OK; i++) {
        const Onnx__NodeProto *np = gp->node[i];
        const char **fv = NULL;
        size_t nfv = 0;
        /* If branches, Scan and Loop bodies: the outer tensors they read are dependencies too */
        bool is_if = strcmp(np->op_type, "If") == 0 || strcmp(np->op_type, "Scan") == 0 ||
                     strcmp(np->op_type, "Loop") == 0;
        if (is_if && (st = if_free_vars(np, &fv, &nfv)) != OA_OK) {
            break;
        }
        if (!is_if && (st = gradient_target(np, &fv, &nfv)) != OA_OK) {
            break;
        }
        size_t total = np->n_input + nfv;
        deps[i] = malloc((total ? total : 1) * sizeof(size_t));
        if (deps[i] == NULL) {
            free(fv);
            st = OA_FAIL(OA_E_NOMEM, "cannot order nodes");
            break;
        }
        for (size_t j = 0; j < total && st == OA_OK; j++) {
            const char *in = j < np->n_input ? np->input[j] : fv[j - np->n_input];
            if (!in[0] || oa_strmap_contains(&sc->values, in)) {
                continue;
            }
            void *p = oa_strmap_get(&producer, in);
            if (p == NULL) {
                if (j < np->n_input) {
                    st = OA_FAIL(OA_E_PARSE_MODEL, "node [%s] (%s) input %zu reads tensor [%s], which no node, input "
                                                   "or initializer of graph %s provides", str_or(np->name, "unnamed"),
                                 np->op_type, j, in, str_or(gp->name, "?"));
                } else if (!is_if) {
                    st = OA_FAIL(OA_E_PARSE_MODEL, "Gradient node [%s] differentiates tensor [%s], which no node of "
                                                   "graph %s computes", str_or(np->name, "unnamed"), in,
                                 str_or(gp->name, "?"));
                } else {
                    st = OA_FAIL(OA_E_PARSE_MODEL, "a branch of If node [%s] reads tensor [%s], which is not "
                                                   "visible in graph %s", str_or(np->name, "unnamed"), in,
                                 str_or(gp->name, "?"));
                }
                break;
            }
            deps[i][ndeps[i]++] = (size_t)(uintptr_t)p - 1;
        }
        free(fv);
    }
    /* Iterative DFS post-order; color 1 = on stack, 2 = done. */
    size_t nres = 0;
    for (size_t r = 0; r < n && st == OA_OK; r++) {
        if (color[r]) {
            continue;
        }
        size_t sp = 0;
        stack[sp++] = r;
        color[r] = 1;
        size_t *cursor = idx; /* reuse idx[] as per-node dependency cursor */
        cursor[r] = 0;
        while (sp > 0 && st == OA_OK) {
            size_t top = stack[sp - 1];
            if (cursor[top] < ndeps[top]) {
                size_t d = deps[top][cursor[top]++];
                if (color[d] == 1) {
                    st = OA_FAIL(OA_E_PARSE_MODEL, "graph %s has a cycle: node [%s] depends on its own output through "
                                                   "node [%s]", str_or(gp->name, "?"),
                                 str_or(gp->node[d]->name, gp->node[d]->op_type),
                                 str_or(gp->node[top]->name, gp->node[top]->op_type));
                } else if (color[d] == 0) {
                    color[d] = 1;
                    cursor[d] = 0;
                    stack[sp++] = d;
                }
            } else {
                color[top] = 2;
                res[nres++] = top;
                sp--;
            }
        }
    }
    if (st == OA_OK) {
        *order = res;
        res = NULL;
    }
done:
    if (deps) {
        for (size_t i = 0; i < n; i++) {
            free(deps[i]);
        }
    }
    free(deps);
    free(ndeps);
    free(idx);
    free(color);
    free(stack);
    free(res);
    oa_strmap_deinit(&producer);
    return st;
}

static oa_status finish_names(onnx_node_ctx *c)
{
    if (c->num_created == 1) {
        return oa_node_rename(c->created[0], c->name);
    }
    const char *orig[1] = {c->base_name};
    for (int i = 0; i < c->num_created; i++) {
        char *nm = oa_arena_printf(oa_graph_arena(c->sc->g), "PartitionedCall_%s_%s_%llu", c->base_name,
                                   c->roles[i], (unsigned long long)c->imp->pc_counter++);
        const char *full = nm ? scoped_name(c->sc, nm) : NULL;
        if (full == NULL) {
            return OA_E_NOMEM;
        }
        oa_status st = oa_node_rename(c->created[i], full);
        if (st == OA_OK) {
            st = oa_node_set_list_str(c->created[i], "_datadump_original_op_names", orig, 1);
        }
        if (st != OA_OK) {
            return st;
        }
    }
    return OA_OK;
}

static oa_status convert_node(onnx_importer *imp, onnx_scope *sc, const Onnx__NodeProto *np)
{
    const onnx_op_entry *op = oa_onnx_node_op(imp, np);
    if (op == NULL) {
        return OA_FAIL(OA_E_INTERNAL, "op %s vanished from the table", np->op_type);
    }
    onnx_node_ctx c;
    memset(&c, 0, sizeof(c));
    c.imp = imp;
    c.sc = sc;
    c.np = np;
    c.op_type = np->op_type;
    c.opset = imp->opset;
    c.ge_type = op->ge_type;
    c.base_name = assigned_name(imp, np);
    c.name = scoped_name(sc, c.base_name);
    if (c.name == NULL) {
        return OA_E_NOMEM;
    }
    oa_status st = op->fn(&c);
    if (st == OA_OK && c.num_created > 0) {
        st = finish_names(&c);
    }
    return st;
}

static oa_status add_outputs(onnx_scope *sc, const Onnx__GraphProto *gp, bool is_root)
{
    const char *name = scoped_name(sc, "Node_Output");
    oa_node *no;
    if (name == NULL) {
        return OA_E_NOMEM;
    }
    if (gp->n_output == 0) {
        return OA_FAIL(OA_E_PARSE_MODEL, "graph %s has no outputs", str_or(gp->name, "?"));
    }
    if (gp->n_output > 65535) {
        return OA_FAIL(OA_E_PARSE_MODEL, "graph %s has %zu outputs", str_or(gp->name, "?"), gp->n_output);
    }
    oa_status st = oa_graph_add_net_output(sc->g, name, (uint32_t)gp->n_output, &no);
    for (size_t j = 0; j < gp->n_output && st == OA_OK; j++) {
        const char *on = gp->output[j]->name;
        if (on == NULL || on[0] == '\0') {
            return OA_FAIL(OA_E_PARSE_MODEL, "output %zu of graph %s has no name", j, str_or(gp->name, "?"));
        }
        const onnx_value *v = oa_strmap_get(&sc->values, on);
        if (v == NULL) {
            return OA_FAIL(OA_E_PARSE_MODEL, "graph %s output [%s] is not produced by any node, input or initializer",
                           str_or(gp->name, "?"), on);
        }
        st = oa_node_connect(no, (uint32_t)j, v->node, v->index);
        if (st != OA_OK) {
            return st;
        }
        oa_tensor_desc *d = oa_node_input_desc(no, (uint32_t)j);
        d->name = oa_arena_strdup(oa_graph_arena(sc->g), on);
        if (d->name == NULL) {
            return OA_E_NOMEM;
        }
        if (!is_root) {
            st = oa_attrs_set_int(sc->g, &d->attrs, "_parent_node_index", (int64_t)j);
        }
    }
    return st;
}

static oa_status import_graph(onnx_importer *imp, onnx_scope *sc, const Onnx__GraphProto *gp,
                              const char *const *implicit, size_t n_implicit, bool is_root)
{
    sc->gp = gp;
    oa_status st = add_initializers(imp, sc, gp);
    if (st == OA_OK) {
        st = add_inputs(sc, gp, is_root, implicit, n_implicit);
    }
    size_t *order = NULL;
    if (st == OA_OK) {
        st = order_nodes(sc, gp, &order);
    }
    for (size_t i = 0; i < gp->n_node && st == OA_OK; i++) {
        st = convert_node(imp, sc, gp->node[order[i]]);
    }
    free(order);
    if (st == OA_OK) {
        st = add_outputs(sc, gp, is_root);
    }
    return st;
}

/* ------------------------------------------------------ inlined bodies */

oa_status oa_onnx_inline_body(onnx_node_ctx *c, const Onnx__GraphProto *gp, const onnx_value *in, size_t n_in,
                              onnx_value *out, const char *tag)
{
    if (gp->n_input != n_in) {
        return ONNX_FAIL(c, OA_E_PARSE_MODEL, "body %s declares %zu inputs, %zu are given", str_or(gp->name, "?"),
                         gp->n_input, n_in);
    }
    onnx_scope child;
    memset(&child, 0, sizeof(child));
    child.g = c->sc->g;
    oa_strmap_init(&child.values);
    child.prefix = oa_arena_printf(oa_graph_arena(c->sc->g), "%s%s/", c->sc->prefix, tag);
    child.gp = gp;
    oa_status st = child.prefix ? OA_OK : OA_E_NOMEM;
    /* the enclosing scope's tensors stay visible */
    const oa_strmap *pv = &c->sc->values;
    for (size_t i = 0; i < pv->cap && st == OA_OK; i++) {
        if (pv->keys[i] != NULL && pv->keys[i][0] != '\0') {
            st = oa_strmap_put(&child.values, pv->keys[i], pv->vals[i]);
        }
    }
    if (st == OA_OK) {
        st = add_initializers(c->imp, &child, gp);
    }
    for (size_t i = 0; i < n_in && st == OA_OK; i++) {
        if (gp->input[i]->name == NULL || gp->input[i]->name[0] == '\0') {
            st = ONNX_FAIL(c, OA_E_PARSE_MODEL, "body input %zu has no name", i);
            break;
        }
        oa_strmap_remove(&child.values, gp->input[i]->name);
        st = scope_put(&child, gp->input[i]->name, in[i].node, in[i].index);
    }
    size_t *order = NULL;
    if (st == OA_OK) {
        st = order_nodes(&child, gp, &order);
    }
    for (size_t i = 0; i < gp->n_node && st == OA_OK; i++) {
        st = convert_node(c->imp, &child, gp->node[order[i]]);
    }
    free(order);
    for (size_t j = 0; j < gp->n_output && st == OA_OK; j++) {
        const onnx_value *v = gp->output[j]->name ? oa_strmap_get(&child.values, gp->output[j]->name) : NULL;
        if (v == NULL) {
            st = ONNX_FAIL(c, OA_E_PARSE_MODEL, "body output %zu is not computed", j);
            break;
        }
        out[j] = *v;
    }
    oa_strmap_deinit(&child.values);
    oa_strmap_deinit(&child.seqs);
    return st;
}

/* ------------------------------------------------------ If and Constant */

static const Onnx__GraphProto *graph_attr(const onnx_node_ctx *c, const char *name)
{
    const Onnx__AttributeProto *a = oa_onnx_attr(c, name);
    return a ? a->g : NULL;
}

oa_status oa_onnx_convert_if(onnx_node_ctx *c)
{
    const Onnx__GraphProto *br[2] = {graph_attr(c, "then_branch"), graph_attr(c, "else_branch")};
    static const char *const SLOT[2] = {"then_branch", "else_branch"};
    if (br[0] == NULL || br[1] == NULL) {
        return ONNX_FAIL(c, OA_E_PARSE_MODEL, "needs graph attributes then_branch and else_branch");
    }
    if (!oa_onnx_has_input(c, 0)) {
        return ONNX_FAIL(c, OA_E_PARSE_MODEL, "has no condition input");
    }
    for (int b = 0; b < 2; b++) {
        if (br[b]->n_output != c->np->n_output) {
            return ONNX_FAIL(c, OA_E_PARSE_MODEL, "%s returns %zu values, the node has %zu outputs", SLOT[b],
                             br[b]->n_output, c->np->n_output);
        }
    }
    const char **fv;
    size_t nfv;
    oa_status st = if_free_vars(c->np, &fv, &nfv);
    if (st != OA_OK) {
        return st;
    }
    oa_node *n = NULL;
    if (nfv + 1 > 65535 || c->np->n_output > 65535) {
        st = ONNX_FAIL(c, OA_E_PARSE_MODEL, "has too many inputs or outputs");
    }
    if (st == OA_OK) {
        st = oa_graph_add_node(c->sc->g, OA_OP_IF, c->name, (uint32_t)(nfv + 1), (uint32_t)c->np->n_output, &n);
    }
    if (st == OA_OK) {
        c->created[0] = n;
        c->roles[0] = "if";
        c->num_created = 1;
        st = oa_onnx_connect_input(c, n, 0, 0);
    }
    for (size_t i = 0; i < nfv && st == OA_OK; i++) {
        const onnx_value *v = oa_strmap_get(&c->sc->values, fv[i]);
        if (v == NULL) {
            st = ONNX_FAIL(c, OA_E_PARSE_MODEL, "a branch reads [%s], which is not visible here", fv[i]);
            break;
        }
        st = oa_onnx_connect(n, (uint32_t)(i + 1), v->node, v->index);
    }
    for (int b = 0; b < 2 && st == OA_OK; b++) {
        char *sgname = oa_arena_printf(oa_graph_arena(c->sc->g), "%s_%d_%s", c->name, b, SLOT[b]);
        if (sgname == NULL) {
            st = OA_E_NOMEM;
            break;
        }
        for (int k = 1; oa_graph_find_subgraph(c->sc->g, sgname) != NULL; k++) {
            sgname = oa_arena_printf(oa_graph_arena(c->sc->g), "%s_%d_%s_%d", c->name, b, SLOT[b], k);
            if (sgname == NULL) {
                st = OA_E_NOMEM;
                break;
            }
        }
        oa_graph *sg;
        if (st != OA_OK || (st = oa_graph_create_subgraph(n, SLOT[b], sgname, &sg)) != OA_OK) {
            break;
        }
        onnx_scope child;
        memset(&child, 0, sizeof(child));
        child.g = sg;
        oa_strmap_init(&child.values);
        child.prefix = oa_arena_printf(oa_graph_arena(sg), "%s/", sgname);
        st = child.prefix ? import_graph(c->imp, &child, br[b], fv, nfv, false) : OA_E_NOMEM;
        oa_strmap_deinit(&child.values);
        oa_strmap_deinit(&child.seqs);
    }
    for (size_t j = 0; j < c->np->n_output && st == OA_OK; j++) {
        st = oa_onnx_bind_output(c, (uint32_t)j, n, (uint32_t)j);
    }
    free(fv);
    return st;
}

oa_status oa_onnx_convert_constant(onnx_node_ctx *c)
{
    const Onnx__AttributeProto *a = NULL;
    for (size_t i = 0; i < c->np->n_attribute; i++) {
        const char *nm = c->np->attribute[i]->name;
        if (nm && strncmp(nm, "value", 5) == 0 && strcmp(nm, "doc_string") != 0) {
            if (a != NULL) {
                return ONNX_FAIL(c, OA_E_PARSE_MODEL, "has more than one value attribute");
            }
            a = c->np->attribute[i];
        }
    }
    if (a == NULL) {
        return ONNX_FAIL(c, OA_E_PARSE_MODEL, "has no value attribute");
    }
    oa_node *n;
    oa_status st;
    char what[512];
    snprintf(what, sizeof(what), "Constant node [%s]", c->name);
    if (strcmp(a->name, "value") == 0) {
        if (a->t == NULL) {
            return ONNX_FAIL(c, OA_E_PARSE_MODEL, "attribute value is not a tensor");
        }
        st = oa_onnx_make_const_node(c->imp, c->sc, a->t, c->name, what, &n);
    } else {
        /* value_float / value_int / value_floats / value_ints (not read by
         * CANN, which yields an empty tensor; we honour them). */
        oa_tensor *t = NULL;
        oa_graph *g = c->sc->g;
        oa_shape sc0 = oa_shape_scalar(), s1;
        if (strcmp(a->name, "value_float") == 0 && a->has_f) {
            st = oa_graph_make_tensor(g, OA_DT_FLOAT, &sc0, &a->f, sizeof(float), &t);
        } else if (strcmp(a->name, "value_int") == 0 && a->has_i) {
            st = oa_graph_make_tensor(g, OA_DT_INT64, &sc0, &a->i, sizeof(int64_t), &t);
        } else if (strcmp(a->name, "value_floats") == 0) {
            int64_t d = (int64_t)a->n_floats;
            s1 = oa_shape_make(1, &d);
            st = oa_graph_make_tensor(g, OA_DT_FLOAT, &s1, a->floats, a->n_floats * sizeof(float), &t);
        } else if (strcmp(a->name, "value_ints") == 0) {
            int64_t d = (int64_t)a->n_ints;
            s1 = oa_shape_make(1, &d);
            st = oa_graph_make_tensor(g, OA_DT_INT64, &s1, a->ints, a->n_ints * sizeof(int64_t), &t);
        } else {
            return ONNX_FAIL(c, OA_E_FEATURE_UNSUPPORTED, "attribute %s is not supported (sparse and string "
                                                          "constants are not)", a->name);
        }
        if (st != OA_OK) {
            return st;
        }
        st = oa_graph_add_const(g, c->name, t, &n);
    }
    if (st != OA_OK) {
        return st;
    }
    c->created[0] = n;
    c->roles[0] = "const";
    c->num_created = 1;
    return oa_onnx_bind_output(c, 0, n, 0);
}

/* ------------------------------------------------- legacy Softmax fix-up */

/*
 * ONNX Softmax/LogSoftmax before opset 13 flatten the input to 2-D at
 * `axis` and normalise each row; CANN maps them to a single-axis SoftmaxV2,
 * which is only the same when axis is the last dim. Once ranks are known,
 * other axes are rewritten into the exact form:
 *
 *   x ─Flatten(axis)─ SoftmaxV2(axes=[-1]) ─ Reshape ─▶
 *   └──────────── Shape ─────────────────────┘
 *
 * Returns the number of rewrites in *count.
 */
static oa_status fix_legacy_softmax(oa_graph *g, size_t *count)
{
    for (oa_node *n = oa_graph_first_node(g); n; n = n->next) {
        for (uint32_t i = 0; i < n->num_subgraphs; i++) {
            oa_status st = fix_legacy_softmax(n->subgraphs[i].graph, count);
            if (st != OA_OK) {
                return st;
            }
        }
        if ((n->type != OA_OP_SOFTMAX_V2 && n->type != OA_OP_LOG_SOFTMAX_V2) ||
            oa_node_attr_int(n, "need_fusion", 0) != 1 || n->inputs[0].src == NULL) {
            continue;
        }
        int32_t rank = n->inputs[0].desc.shape.rank;
        const int64_t *axes;
        size_t na;
        if (!oa_attrs_get_list_int(&n->attrs, "axes", &axes, &na) || na != 1) {
            continue;
        }
        if (rank < 0) {
            OA_LOGW("softmax %s (opset < 13): input rank unknown, axis %lld is kept as a single axis", n->name,
                    (long long)axes[0]);
            continue;
        }
        int64_t a = axes[0] < 0 ? axes[0] + rank : axes[0];
        if (a < 0 || a >= rank) {
            return OA_FAIL(OA_E_GE_SHAPE, "softmax %s: axis %lld is out of range for rank %d", n->name,
                           (long long)axes[0], rank);
        }
        if (a == rank - 1) {
            continue;
        }
        oa_node *src = n->inputs[0].src;
        uint32_t si = n->inputs[0].src_index;
        oa_node *fl, *sh, *rs;
        const char *nf = oa_graph_unique_name(g, oa_arena_printf(oa_graph_arena(g), "%s/flatten", n->name));
        const char *ns = oa_graph_unique_name(g, oa_arena_printf(oa_graph_arena(g), "%s/shape", n->name));
        if (nf == NULL || ns == NULL) {
            return OA_E_NOMEM;
        }
        oa_status st = oa_graph_add_node(g, OA_OP_FLATTEN, nf, 1, 1, &fl);
        if (st == OA_OK && (st = oa_graph_add_node(g, OA_OP_SHAPE, ns, 1, 1, &sh)) == OA_OK) {
            const char *nr = oa_graph_unique_name(g, oa_arena_printf(oa_graph_arena(g), "%s/reshape", n->name));
            st = nr ? oa_graph_add_node(g, OA_OP_RESHAPE, nr, 2, 1, &rs) : OA_E_NOMEM;
        }
        const int64_t last = -1;
        if (st == OA_OK && (st = oa_node_set_int(fl, "axis", a)) == OA_OK &&
            (st = oa_node_set_int(sh, "dtype", OA_DT_INT64)) == OA_OK &&
            (st = oa_node_connect(fl, 0, src, si)) == OA_OK && (st = oa_node_connect(sh, 0, src, si)) == OA_OK &&
            (st = oa_graph_replace_uses(n, 0, rs, 0, NULL)) == OA_OK &&
            (st = oa_node_connect(rs, 0, n, 0)) == OA_OK && (st = oa_node_connect(rs, 1, sh, 0)) == OA_OK &&
            (st = oa_node_connect(n, 0, fl, 0)) == OA_OK) {
            st = oa_node_set_list_int(n, "axes", &last, 1);
        }
        if (st != OA_OK) {
            return st;
        }
        (*count)++;
    }
    return OA_OK;
}

/* ---------------------------------------------------------------- model */

static void release_msg(void *ctx, const void *data, size_t size)
{
    (void)data;
    (void)size;
    onnx__model_proto__free_unpacked(ctx, NULL);
}

static oa_status import_model(onnx_importer *imp, const Onnx__ModelProto *m, oa_graph **out)
{
    if (m->graph == NULL) {
        return OA_FAIL(OA_E_PARSE_MODEL, "the ONNX model has no graph");
    }
    int64_t opset = -1;
    for (size_t i = 0; i < m->n_opset_import; i++) {
        const Onnx__OperatorSetIdProto *o = m->opset_import[i];
        if (is_default_domain(o->domain) && o->has_version && o->version > opset) {
            opset = o->version;
        }
    }
    imp->train_opset = -1;
    for (size_t i = 0; i < m->n_opset_import; i++) {
        const Onnx__OperatorSetIdProto *o = m->opset_import[i];
        if (o->domain != NULL && strcmp(o->domain, OA_ONNX_TRAINING_DOMAIN) == 0 && o->has_version) {
            imp->train_opset = o->version;
        }
    }
    if (opset < 0 && imp->train_opset >= 0) {
        opset = 0; /* only the training domain: no default-domain op is available */
    } else if (opset < 0) {
        return OA_FAIL(OA_E_PARSE_MODEL, "the ONNX model does not import the default operator set (opset_import)");
    }
    if (opset != 0 && (opset < OA_ONNX_MIN_OPSET || opset > OA_ONNX_MAX_OPSET)) {
        return OA_FAIL(OA_E_FEATURE_UNSUPPORTED, "the ONNX model uses opset %lld; opsets %d to %d are supported",
                       (long long)opset, OA_ONNX_MIN_OPSET, OA_ONNX_MAX_OPSET);
    }
    imp->opset = opset;
    oa_graph *g;
    oa_status st = oa_graph_create(str_or(m->graph->name, "onnx_graph"), &g);
    if (st != OA_OK) {
        return st;
    }
    imp->root = g;
    st = prepass(imp, m->graph, oa_graph_arena(g));
    if (st == OA_OK) {
        onnx_scope sc;
        memset(&sc, 0, sizeof(sc));
        sc.g = g;
        sc.prefix = "";
        oa_strmap_init(&sc.values);
        st = import_graph(imp, &sc, m->graph, NULL, 0, true);
        oa_strmap_deinit(&sc.values);
        oa_strmap_deinit(&sc.seqs);
    }
    if (st == OA_OK) {
        st = oa_attrs_set_str(g, oa_graph_attrs(g), "framework_type", "Onnx");
    }
    if (st == OA_OK && imp->opt->input_shape != NULL && imp->opt->input_shape[0] != '\0') {
        st = oa_graph_set_input_shapes(g, imp->opt->input_shape);
    }
    if (st == OA_OK && !imp->opt->skip_infer) {
        st = oa_graph_infer(g);
        size_t rewrites = 0;
        if (st == OA_OK && imp->opset < 13) {
            st = fix_legacy_softmax(g, &rewrites);
        }
        if (st == OA_OK && rewrites > 0) {
            st = oa_graph_topo_sort(g);
            if (st == OA_OK) {
                st = oa_graph_infer(g);
            }
        }
    }
    if (st != OA_OK) {
        oa_graph_destroy(g);
        return st;
    }
    *out = g;
    return OA_OK;
}

oa_status oa_onnx_import_buffer(const void *data, size_t size, const char *model_dir, const oa_onnx_options *opt,
                                oa_graph **out)
{
    if (out == NULL) {
        return OA_FAIL(OA_E_PARAM, "output graph pointer must not be null");
    }
    *out = NULL;
    if (data == NULL || size == 0) {
        return OA_FAIL(OA_E_PARSE_MODEL, "the ONNX model is empty");
    }
    oa_onnx_options dflt;
    if (opt == NULL) {
        oa_onnx_options_init(&dflt);
        opt = &dflt;
    }
    const char *why = NULL;
    if (!wire_check(data, size, &onnx__model_proto__descriptor, 0, &why)) {
        return OA_FAIL(OA_E_PARSE_MODEL, "not a valid ONNX model (%zu bytes): %s", size, why);
    }
    Onnx__ModelProto *m = onnx__model_proto__unpack(NULL, size, data);
    if (m == NULL) {
        return OA_FAIL(OA_E_PARSE_MODEL, "not a valid ONNX model (%zu bytes): protobuf decoding failed", size);
    }
    onnx_importer imp;
    memset(&imp, 0, sizeof(imp));
    imp.opt = opt;
    imp.model_dir = model_dir;
    oa_strmap_init(&imp.ext_files);
    imp.msg_blob = oa_blob_create(m, 0, release_msg, m);
    if (imp.msg_blob == NULL) {
        onnx__model_proto__free_unpacked(m, NULL);
        return OA_E_NOMEM;
    }
    oa_status st = import_model(&imp, m, out);
    for (size_t i = 0; i < imp.ext_files.cap; i++) {
        if (imp.ext_files.keys[i] && imp.ext_files.vals[i]) {
            oa_blob_release(imp.ext_files.vals[i]);
        }
    }
    oa_strmap_deinit(&imp.ext_files);
    free(imp.names);
    oa_blob_release(imp.msg_blob);
    return st;
}

oa_status oa_onnx_import_file(const char *path, const oa_onnx_options *opt, oa_graph **out)
{
    if (path == NULL || out == NULL) {
        return OA_FAIL(OA_E_PARAM, "model path and output graph must not be null");
    }
    *out = NULL;
    struct stat sb;
    if (stat(path, &sb) != 0) {
        return OA_FAIL(OA_E_READ_MODEL, "cannot read ONNX model [%s]: %s", path, strerror(errno));
    }
    if (!S_ISREG(sb.st_mode)) {
        return OA_FAIL(OA_E_READ_MODEL, "ONNX model [%s] is not a regular file", path);
    }
    oa_blob *file;
    oa_status st = oa_blob_map_file(path, &file);
    if (st != OA_OK) {
        return st;
    }
    char *dir = oa_strdup(path);
    if (dir == NULL) {
        oa_blob_release(file);
        return OA_FAIL(OA_E_NOMEM, "cannot copy a path");
    }
    char *slash = strrchr(dir, '/');
    if (slash == NULL) {
        dir[0] = '.';
        dir[1] = '\0';
    } else if (slash == dir) {
        dir[1] = '\0';
    } else {
        *slash = '\0';
    }
    st = oa_onnx_import_buffer(oa_blob_data(file), oa_blob_size(file), dir, opt, out);
    free(dir);
    oa_blob_release(file);
    return st;
}
