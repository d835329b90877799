/*
 * om_check: semantic checks of decoded ModelDefs (see om_check.h). Names are
 * looked up through sorted pointer arrays, so a model of n ops costs
 * O(n log n).
 */
#define OA_LOG_MODULE "GE"
#include "om/om_check.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"

typedef struct named {
    const char *name;
    size_t index;
} named;

static int named_cmp(const void *a, const void *b)
{
    return strcmp(((const named *)a)->name, ((const named *)b)->name);
}

static const char *nz(const char *s)
{
    return s != NULL ? s : "";
}

/* Sorted table of names; returns the first duplicate through *dup. */
static named *name_table(size_t n, const char *(*get)(const void *, size_t), const void *ctx, const char **dup)
{
    named *t = malloc((n ? n : 1) * sizeof(*t));
    if (t == NULL) {
        return NULL;
    }
    for (size_t i = 0; i < n; ++i) {
        t[i].name = nz(get(ctx, i));
        t[i].index = i;
    }
    qsort(t, n, sizeof(*t), named_cmp);
    *dup = NULL;
    for (size_t i = 1; i < n && *dup == NULL; ++i) {
        if (strcmp(t[i - 1].name, t[i].name) == 0) {
            *dup = t[i].name;
        }
    }
    return t;
}

static const named *name_find(const named *t, size_t n, const char *name)
{
    named key = {name, 0};
    return bsearch(&key, t, n, sizeof(*t), named_cmp);
}

static const char *graph_name_at(const void *ctx, size_t i)
{
    const Ge__Proto__GraphDef *g = ((const Ge__Proto__ModelDef *)ctx)->graph[i];
    return g != NULL ? g->name : "";
}

static const char *op_name_at(const void *ctx, size_t i)
{
    const Ge__Proto__OpDef *op = ((const Ge__Proto__GraphDef *)ctx)->op[i];
    return op != NULL ? op->name : "";
}

oa_status oa_om_check_tensor_desc(const Ge__Proto__TensorDescriptor *td, const char *where)
{
    if (td == NULL) {
        return OA_OK;
    }
    if ((int)td->dtype < 0 || (int)td->dtype > OA_OM_MAX_PROTO_DTYPE) {
        return OA_FAIL(OA_E_GE_LOAD_MODEL_PARTITION, "[Check][TensorDesc] %s: dtype %d is not a known data type",
                       where, (int)td->dtype);
    }
    if (td->shape == NULL) {
        return OA_OK;
    }
    const size_t rank = td->shape->n_dim;
    const int64_t *d = td->shape->dim;
    if (rank > OA_OM_MAX_RANK) {
        return OA_FAIL(OA_E_GE_LOAD_MODEL_PARTITION, "[Check][TensorDesc] %s: rank %zu exceeds %d", where, rank,
                       OA_OM_MAX_RANK);
    }
    if (rank == 1 && d[0] == -2) {
        return OA_OK; /* unknown rank */
    }
    int64_t elems = 1;
    for (size_t i = 0; i < rank; ++i) {
        if (d[i] < -1) {
            return OA_FAIL(OA_E_GE_LOAD_MODEL_PARTITION, "[Check][TensorDesc] %s: dim %zu is %lld", where, i,
                           (long long)d[i]);
        }
        if (d[i] > 0 && !oa_mul_i64(elems, d[i], &elems)) {
            return OA_FAIL(OA_E_GE_LOAD_MODEL_PARTITION,
                           "[Check][TensorDesc] %s: the element count of its shape overflows int64", where);
        }
    }
    return OA_OK;
}

typedef struct gctx {
    const Ge__Proto__ModelDef *def;
    const char *what;
    int64_t weights_size;
    bool check_weights;
} gctx;

/* "<op>:<index>" with op in the graph and index >= min_index. */
static oa_status check_ref(const gctx *c, const Ge__Proto__GraphDef *g, const named *ops, const char *ref,
                           const char *user, long long min_index)
{
    const char *colon = strrchr(ref, ':');
    if (colon == NULL || colon == ref || colon[1] == '\0') {
        return OA_FAIL(OA_E_GE_LOAD_MODEL_PARTITION, "[Check][Graph] %s: graph %s %s: input \"%s\" is not "
                                                     "\"<op>:<index>\"",
                       c->what, g->name, user, ref);
    }
    errno = 0;
    char *end = NULL;
    long long idx = strtoll(colon + 1, &end, 10);
    if (errno != 0 || *end != '\0' || idx < min_index) {
        return OA_FAIL(OA_E_GE_LOAD_MODEL_PARTITION, "[Check][Graph] %s: graph %s %s: input \"%s\" has a bad index",
                       c->what, g->name, user, ref);
    }
    size_t len = (size_t)(colon - ref);
    char *src = malloc(len + 1);
    if (src == NULL) {
        return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "[Check][Graph] name of %zu bytes", len);
    }
    memcpy(src, ref, len);
    src[len] = '\0';
    const bool found = name_find(ops, g->n_op, src) != NULL;
    free(src);
    if (!found) {
        return OA_FAIL(OA_E_GE_LOAD_MODEL_PARTITION, "[Check][Graph] %s: graph %s %s: input \"%s\" names no op of "
                                                     "the graph",
                       c->what, g->name, user, ref);
    }
    return OA_OK;
}

static oa_status missing_attr(const gctx *c, const Ge__Proto__GraphDef *g, const Ge__Proto__OpDef *op,
                              const char *attr, const char *kind)
{
    return OA_FAIL(OA_E_MODEL_MISSING_ATTR, "[Check][Attr] %s: graph %s: %s op %s lacks attribute %s (%s)", c->what,
                   g->name, op->type, op->name, attr, kind);
}

static oa_status check_const_weight(const gctx *c, const Ge__Proto__GraphDef *g, const Ge__Proto__OpDef *op,
                                    const Ge__Proto__TensorDef *t)
{
    char where[160];
    (void)snprintf(where, sizeof(where), "Const %.100s weight", op->name);
    oa_status st = oa_om_check_tensor_desc(t->desc, where);
    if (st != OA_OK || !c->check_weights || t->data.len != 0 || t->desc == NULL || t->desc->weight_size == 0) {
        return st;
    }
    const int64_t off = t->desc->data_offset, size = t->desc->weight_size;
    if (off < 0 || size < 0 || off > c->weights_size || size > c->weights_size - off) {
        return OA_FAIL(OA_E_GE_LOAD_WEIGHT_PARTITION,
                       "[Check][Weight] %s: graph %s Const %s: weight [%lld, +%lld) is outside the %lld-byte "
                       "WEIGHTS_DATA",
                       c->what, g->name, op->name, (long long)off, (long long)size, (long long)c->weights_size);
    }
    return OA_OK;
}

static oa_status check_required(const gctx *c, const Ge__Proto__GraphDef *g, const Ge__Proto__OpDef *op)
{
    const char *type = nz(op->type);
    const Ge__Proto__AttrDef *v;
    if (strcmp(type, "Data") == 0) {
        v = oa_om_attr_get(op->attr, op->n_attr, "index");
        if (v == NULL || v->value_case != GE__PROTO__ATTR_DEF__VALUE_I) {
            return missing_attr(c, g, op, "index", "int");
        }
    } else if (strcmp(type, "Const") == 0) {
        v = oa_om_attr_get(op->attr, op->n_attr, "value");
        if (v == NULL || v->value_case != GE__PROTO__ATTR_DEF__VALUE_T || v->t == NULL) {
            return missing_attr(c, g, op, "value", "tensor");
        }
        return check_const_weight(c, g, op, v->t);
    } else if (strcmp(type, "FileConstant") == 0) {
        v = oa_om_attr_get(op->attr, op->n_attr, "shape");
        if (v == NULL || v->value_case != GE__PROTO__ATTR_DEF__VALUE_LIST || v->list == NULL) {
            return missing_attr(c, g, op, "shape", "list of ints");
        }
        v = oa_om_attr_get(op->attr, op->n_attr, "dtype");
        if (v == NULL || v->value_case != GE__PROTO__ATTR_DEF__VALUE_DT) {
            return missing_attr(c, g, op, "dtype", "data type");
        }
    }
    return OA_OK;
}

static oa_status check_graph(const gctx *c, size_t gi, const named *graphs, size_t *owner, bool weights_here)
{
    const Ge__Proto__GraphDef *g = c->def->graph[gi];
    const char *dup = NULL;
    named *ops = name_table(g->n_op, op_name_at, g, &dup);
    if (ops == NULL) {
        return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "[Check][Graph] %zu op names", g->n_op);
    }
    oa_status st = OA_OK;
    if (dup != NULL) {
        st = OA_FAIL(OA_E_GE_LOAD_MODEL_PARTITION, "[Check][Graph] %s: graph %s has two ops named %s", c->what,
                     g->name, dup);
    }
    for (size_t i = 0; i < g->n_input && st == OA_OK; ++i) {
        st = check_ref(c, g, ops, nz(g->input[i]), "graph input", 0);
    }
    for (size_t i = 0; i < g->n_output && st == OA_OK; ++i) {
        st = check_ref(c, g, ops, nz(g->output[i]), "graph output", 0);
    }
    gctx cw = *c;
    cw.check_weights = c->check_weights && weights_here;
    char where[200];
    for (size_t o = 0; o < g->n_op && st == OA_OK; ++o) {
        const Ge__Proto__OpDef *op = g->op[o];
        if (op == NULL) {
            continue;
        }
        (void)snprintf(where, sizeof(where), "op %.120s", nz(op->name));
        for (size_t i = 0; i < op->n_input && st == OA_OK; ++i) {
            if (op->input[i] != NULL && op->input[i][0] != '\0') {
                st = check_ref(c, g, ops, op->input[i], where, -1);
            }
        }
        for (size_t i = 0; i < op->n_input_desc && st == OA_OK; ++i) {
            st = oa_om_check_tensor_desc(op->input_desc[i], where);
        }
        for (size_t i = 0; i < op->n_output_desc && st == OA_OK; ++i) {
            st = oa_om_check_tensor_desc(op->output_desc[i], where);
        }
        if (st == OA_OK) {
            st = check_required(&cw, g, op);
        }
        for (size_t s = 0; s < op->n_subgraph_name && st == OA_OK; ++s) {
            const char *sn = nz(op->subgraph_name[s]);
            if (sn[0] == '\0') {
                continue;
            }
            const named *hit = name_find(graphs, c->def->n_graph, sn);
            if (hit == NULL) {
                st = OA_FAIL(OA_E_GE_LOAD_MODEL_PARTITION, "[Check][Graph] %s: graph %s op %s names subgraph %s, "
                                                           "which the model does not hold",
                             c->what, g->name, op->name, sn);
            } else if (hit->index == 0) {
                st = OA_FAIL(OA_E_GE_LOAD_MODEL_PARTITION,
                             "[Check][Graph] %s: graph %s op %s uses the main graph %s as a subgraph", c->what,
                             g->name, op->name, sn);
            } else if (owner[hit->index] != SIZE_MAX) {
                st = OA_FAIL(OA_E_GE_LOAD_MODEL_PARTITION, "[Check][Graph] %s: subgraph %s is owned twice (graph %s "
                                                           "op %s)",
                             c->what, sn, g->name, op->name);
            } else {
                owner[hit->index] = gi;
            }
        }
    }
    free(ops);
    return st;
}

oa_status oa_om_check_model_def(const Ge__Proto__ModelDef *def, int64_t weights_size,
                                const char *const *skip_weights_for, size_t n_skip, const char *what)
{
    if (def->n_graph == 0) {
        return OA_FAIL(OA_E_GE_LOAD_MODEL_PARTITION, "[Check][Model] %s: the model holds no graph", what);
    }
    for (size_t i = 0; i < def->n_graph; ++i) {
        if (def->graph[i] == NULL || nz(def->graph[i]->name)[0] == '\0') {
            return OA_FAIL(OA_E_GE_LOAD_MODEL_PARTITION, "[Check][Model] %s: graph %zu has no name", what, i);
        }
    }
    const char *dup = NULL;
    named *graphs = name_table(def->n_graph, graph_name_at, def, &dup);
    size_t *owner = malloc(def->n_graph * sizeof(*owner));
    oa_status st = OA_OK;
    if (graphs == NULL || owner == NULL) {
        st = OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "[Check][Model] %zu graphs", def->n_graph);
    } else if (dup != NULL) {
        st = OA_FAIL(OA_E_GE_LOAD_MODEL_PARTITION, "[Check][Model] %s: two graphs are named %s", what, dup);
    }
    gctx c = {def, what, weights_size, weights_size >= 0};
    for (size_t i = 0; st == OA_OK && i < def->n_graph; ++i) {
        owner[i] = SIZE_MAX;
    }
    for (size_t i = 0; st == OA_OK && i < def->n_graph; ++i) {
        bool weights_here = true;
        for (size_t k = 0; k < n_skip; ++k) {
            weights_here = weights_here && strcmp(def->graph[i]->name, skip_weights_for[k]) != 0;
        }
        st = check_graph(&c, i, graphs, owner, weights_here);
    }
    /* Each graph has at most one owner, so following owners from a graph
     * reaches an unowned graph or runs into a loop. state: 0 unseen, 1 on
     * the current walk, 2 known to end at an unowned graph. */
    unsigned char *state = st == OA_OK ? calloc(def->n_graph, 1) : NULL;
    if (st == OA_OK && state == NULL) {
        st = OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "[Check][Model] %zu graphs", def->n_graph);
    }
    for (size_t i = 0; st == OA_OK && i < def->n_graph; ++i) {
        size_t cur = i;
        while (st == OA_OK && state[cur] == 0) {
            state[cur] = 1;
            if (owner[cur] == SIZE_MAX) {
                break;
            }
            cur = owner[cur];
            if (state[cur] == 1) {
                st = OA_FAIL(OA_E_GE_LOAD_MODEL_PARTITION,
                             "[Check][Model] %s: subgraph %s is nested inside itself (an ownership loop)", what,
                             def->graph[cur]->name);
            }
        }
        for (cur = i; st == OA_OK && state[cur] == 1; cur = owner[cur]) {
            state[cur] = 2;
            if (owner[cur] == SIZE_MAX) {
                break;
            }
        }
    }
    free(state);
    free(owner);
    free(graphs);
    return st;
}
