/*
 * Decoders of the INDEX kernel family (kernels.h "Indexing"): GatherNd,
 * TensorScatterUpdate, ScatterElements, OneHot, EyeLike, Cumsum,
 * ReverseSequence, NonZero, UniqueV3, TfIdfVectorizer (graph/op_defs.inc).
 */
#include <string.h>

#include "op_bind/op_bind_internal.h"

static oa_status reduction(oa_bctx *c, oa_kscatter_red *out)
{
    static const char *const names[] = {"none", "add", "mul", "max", "min"};
    const char *r = oa_node_attr_str(c->n, "reduction", "none");
    for (size_t k = 0; k < OA_ARRAY_SIZE(names); k++) {
        if (strcmp(r, names[k]) == 0) {
            *out = (oa_kscatter_red)k;
            return OA_OK;
        }
    }
    return BFAIL(c, OA_E_PARAM, "reduction %s is not none/add/mul/max/min", r);
}

static oa_status bind_outputs(oa_bctx *c)
{
    oa_status st = OA_OK;
    for (uint32_t k = 0; k < c->n->num_outputs && st == OA_OK; k++) {
        st = oa_bind_out(c, k);
    }
    return st;
}

oa_status oa_bind_index(oa_bctx *c, int sub)
{
    oa_op_bind *b = c->b;
    const oa_node *n = c->n;
    oa_kindex_params *p = &b->params.index;
    memset(p, 0, sizeof(*p));
    b->type = OA_KOP_INDEX;
    b->has_params = true;
    if (sub < 0 || sub >= OA_KIDX_COUNT) {
        return BFAIL(c, OA_E_PARAM, "unknown index sub-op %d", sub);
    }
    p->op = (oa_kindex_op)sub;
    oa_status st = OA_OK;
    /* per input slot: required, host */
    bool host[5] = {false, false, false, false, false};
    uint32_t n_in = n->num_inputs;
    switch (p->op) {
    case OA_KIDX_GATHER_ND: p->batch_dims = oa_node_attr_int(n, "batch_dims", 0); break;
    case OA_KIDX_SCATTER_ND: st = reduction(c, &p->reduction); break;
    case OA_KIDX_SCATTER_ELEMENTS:
        p->axis = oa_node_attr_int(n, "axis", 0);
        st = reduction(c, &p->reduction);
        break;
    case OA_KIDX_ONE_HOT:
        p->axis = oa_node_attr_int(n, "axis", -1);
        host[1] = true;
        break;
    case OA_KIDX_EYE_LIKE: p->axis = oa_node_attr_int(n, "k", 0); break;
    case OA_KIDX_CUMSUM:
        p->exclusive = oa_node_attr_bool(n, "exclusive", false);
        p->reverse = oa_node_attr_bool(n, "reverse", false); /* axis: captured when constant, else read at run */
        break;
    case OA_KIDX_REVERSE_SEQUENCE:
        p->axis = oa_node_attr_int(n, "seq_dim", 0);
        p->batch_dims = oa_node_attr_int(n, "batch_dim", 1);
        break;
    case OA_KIDX_UNIQUE:
        p->has_axis = oa_attrs_get_int(&n->attrs, "axis", &p->axis);
        p->sorted = oa_node_attr_bool(n, "sorted", true);
        break;
    case OA_KIDX_TFIDF: {
        const char *mode = oa_node_attr_str(n, "mode", "TF");
        p->mode = strcmp(mode, "IDF") == 0 ? OA_KTFIDF_IDF : strcmp(mode, "TFIDF") == 0 ? OA_KTFIDF_TFIDF : OA_KTFIDF_TF;
        if (strcmp(mode, "TF") != 0 && p->mode == OA_KTFIDF_TF) {
            return BFAIL(c, OA_E_PARAM, "mode %s is not TF/IDF/TFIDF", mode);
        }
        p->min_gram = oa_node_attr_int(n, "min_gram_length", 1);
        p->max_gram = oa_node_attr_int(n, "max_gram_length", 1);
        p->max_skip = oa_node_attr_int(n, "max_skip_count", 0);
        host[1] = host[2] = host[3] = host[4] = true;
        break;
    }
    default: break;
    }
    if (st != OA_OK) {
        return st;
    }
    if (p->op == OA_KIDX_EYE_LIKE) {
        n_in = 1;
    }
    for (uint32_t i = 0; i < n_in && st == OA_OK; i++) {
        const bool optional = p->op == OA_KIDX_TFIDF && i == 4;
        st = oa_bind_in(c, i, !optional, i < 5 && host[i]);
    }
    return st == OA_OK ? bind_outputs(c) : st;
}
