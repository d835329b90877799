/*
 * om_compress: attribute (de)compression of ModelDefs (see om_compress.h).
 */
#define OA_LOG_MODULE "GE"
#include "om/om_compress.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"

#define DIGIT_BASE 127u

/* Attributes the serializer writes itself: never compressed by ATC. */
static const char *const k_injected_op_attrs[] = {
    "_input_name_key",  "_input_name_value", "_output_name_key", "_output_name_value", "_opt_input",
    "_ir_inputs_key",   "_ir_inputs_value",  "_ir_outputs_key",  "_ir_outputs_value",  "_ir_attr_names",
};
static const char *const k_injected_desc_attrs[] = {
    "origin_format", "origin_format_for_int", "format_for_int", "origin_shape_initialized", "origin_shape",
    "origin_data_type",
};
/* Dropped from op attr maps by ATC's compressor. */
static const char *const k_unused_attrs[] = {"_l2fusion_ToOpStruct", "_op_slice_info", "_ir_attr_names"};

static bool key_in(const ProtobufCBinaryData *k, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        size_t l = strlen(list[i]);
        if (k->len == l && memcmp(k->data, list[i], l) == 0) {
            return true;
        }
    }
    return false;
}

/* ---- keys -------------------------------------------------------------- */

bool oa_om_key_is_compressed(const ProtobufCBinaryData *key)
{
    return key->len > 0 && key->data[0] == '\0';
}

bool oa_om_key_decode(const ProtobufCBinaryData *key, size_t *index)
{
    if (!oa_om_key_is_compressed(key) || key->len > OA_OM_KEY_MAX) {
        return false;
    }
    uint64_t v = 0;
    uint64_t scale = 1;
    for (size_t i = 1; i < key->len; ++i) {
        uint8_t b = key->data[i];
        if (b == 0) {
            return false;
        }
        v += (uint64_t)(b - 1u) * scale;
        scale *= DIGIT_BASE;
    }
    if (v > UINT32_MAX) {
        return false;
    }
    *index = (size_t)v;
    return true;
}

size_t oa_om_key_encode(uint32_t index, uint8_t out[OA_OM_KEY_MAX])
{
    /* ATC's digit count, including its double-precision rounding. log(0) is
     * -inf there, which x86 converts to 0: index 0 gets one digit. */
    uint32_t digits = 1;
    if (index > 0) {
        digits = (uint32_t)(log((double)index) / log((double)DIGIT_BASE)) + 1u;
    }
    if (digits > OA_OM_KEY_MAX - 1) {
        digits = OA_OM_KEY_MAX - 1;
    }
    out[0] = 0;
    for (uint32_t i = 0; i < digits; ++i) {
        uint32_t p = (uint32_t)pow((double)DIGIT_BASE, (double)i);
        out[1 + i] = (uint8_t)((index / p) % DIGIT_BASE + 1u);
    }
    return 1 + digits;
}

/* ---- dictionaries ------------------------------------------------------ */

static oa_status read_list(const Ge__Proto__ModelDef *def, const char *name, const char *what,
                           const Ge__Proto__AttrDef__ListValue **out)
{
    const Ge__Proto__AttrDef *v = oa_om_attr_get(def->attr, def->n_attr, name);
    if (v == NULL || v->value_case != GE__PROTO__ATTR_DEF__VALUE_LIST || v->list == NULL) {
        return OA_FAIL(OA_E_GE_LOAD_MODEL_PARTITION,
                       "[Decompress][Attr] %s: compressed model lacks the list attribute %s", what, name);
    }
    *out = v->list;
    return OA_OK;
}

oa_status oa_om_dict_read(const Ge__Proto__ModelDef *def, const char *what, oa_om_dict *d)
{
    memset(d, 0, sizeof(*d));
    const Ge__Proto__AttrDef *ver = oa_om_attr_get(def->attr, def->n_attr, OA_OM_ATTR_COMPRESS_VERSION);
    if (ver == NULL) {
        return OA_OK;
    }
    if (ver->value_case != GE__PROTO__ATTR_DEF__VALUE_I) {
        return OA_FAIL(OA_E_GE_LOAD_MODEL_PARTITION, "[Decompress][Attr] %s: %s is not an int", what,
                       OA_OM_ATTR_COMPRESS_VERSION);
    }
    const Ge__Proto__AttrDef__ListValue *names, *values, *flags;
    oa_status st = read_list(def, OA_OM_ATTR_NAME_ENUM, what, &names);
    if (st == OA_OK) {
        st = read_list(def, OA_OM_ATTR_VALUE_ENUM, what, &values);
    }
    if (st == OA_OK) {
        st = read_list(def, OA_OM_ATTR_USE_STRING, what, &flags);
    }
    if (st != OA_OK) {
        return st;
    }
    if (names->n_s != flags->n_b) {
        return OA_FAIL(OA_E_GE_LOAD_MODEL_PARTITION,
                       "[Decompress][Attr] %s: %zu attribute names but %zu use-string flags", what, names->n_s,
                       flags->n_b);
    }
    d->present = true;
    d->names = names->s;
    d->n_names = names->n_s;
    d->values = values->s;
    d->n_values = values->n_s;
    d->use_string = flags->b;
    d->n_use_string = flags->n_b;
    return OA_OK;
}

void oa_om_dict_drop(Ge__Proto__ModelDef *def)
{
    static const char *const dict_attrs[] = {OA_OM_ATTR_COMPRESS_VERSION, OA_OM_ATTR_NAME_ENUM,
                                             OA_OM_ATTR_VALUE_ENUM, OA_OM_ATTR_USE_STRING};
    size_t w = 0;
    for (size_t i = 0; i < def->n_attr; ++i) {
        if (def->attr[i] == NULL || !key_in(&def->attr[i]->key, dict_attrs, OA_ARRAY_SIZE(dict_attrs))) {
            def->attr[w++] = def->attr[i];
        }
    }
    def->n_attr = w;
}

/* ---- decompression ----------------------------------------------------- */

typedef struct dctx {
    const oa_om_dict *d;
    oa_om_arena *a;
    const char *what;
    size_t left;
} dctx;

static oa_status value_string(const dctx *c, int64_t idx, const char *graph, const char *op, ProtobufCBinaryData *out)
{
    if (idx < 0 || (uint64_t)idx >= c->d->n_values) {
        return OA_FAIL(OA_E_GE_LOAD_MODEL_PARTITION,
                       "[Decompress][Attr] %s: graph %s op %s: value index %lld outside the %zu-entry dictionary",
                       c->what, graph, op, (long long)idx, c->d->n_values);
    }
    *out = c->d->values[idx];
    return OA_OK;
}

static oa_status decompress_map(dctx *c, Ge__Proto__AttrMapEntry **attr, size_t n, const char *graph, const char *op)
{
    for (size_t i = 0; i < n; ++i) {
        Ge__Proto__AttrMapEntry *e = attr[i];
        if (e == NULL) {
            continue;
        }
        if (e->key.len == 0) {
            return OA_FAIL(OA_E_GE_LOAD_MODEL_PARTITION, "[Decompress][Attr] %s: graph %s op %s has an empty "
                                                         "attribute name",
                           c->what, graph, op);
        }
        if (!oa_om_key_is_compressed(&e->key)) {
            continue;
        }
        size_t idx = 0;
        if (!oa_om_key_decode(&e->key, &idx) || idx >= c->d->n_names || idx >= c->d->n_use_string) {
            return OA_FAIL(OA_E_GE_LOAD_MODEL_PARTITION,
                           "[Decompress][Attr] %s: graph %s op %s: compressed key of %zu bytes does not index the "
                           "%zu-entry name dictionary",
                           c->what, graph, op, e->key.len, c->d->n_names);
        }
        if (!oa_om_utf8_valid(c->d->names[idx].data, c->d->names[idx].len)) {
            /* The name becomes a proto string key: it must be UTF-8. */
            return OA_FAIL(OA_E_GE_LOAD_MODEL_PARTITION,
                           "[Decompress][Attr] %s: graph %s op %s: dictionary name %zu is not UTF-8", c->what, graph,
                           op, idx);
        }
        e->key = c->d->names[idx];
        if (oa_om_key_is_compressed(&e->key)) {
            c->left++;
        }
        if (!c->d->use_string[idx]) {
            continue;
        }
        Ge__Proto__AttrDef *v = e->value;
        if (v != NULL && v->value_case == GE__PROTO__ATTR_DEF__VALUE_I) {
            ProtobufCBinaryData s;
            oa_status st = value_string(c, v->i, graph, op, &s);
            if (st != OA_OK) {
                return st;
            }
            v->value_case = GE__PROTO__ATTR_DEF__VALUE_S;
            v->s = s;
        } else if (v != NULL && v->value_case == GE__PROTO__ATTR_DEF__VALUE_LIST && v->list != NULL) {
            Ge__Proto__AttrDef__ListValue *l = v->list;
            if (l->n_s || l->n_f || l->n_b || l->n_bt || l->n_td || l->n_t || l->n_g || l->n_na || l->n_dt) {
                return OA_FAIL(OA_E_GE_LOAD_MODEL_PARTITION,
                               "[Decompress][Attr] %s: graph %s op %s: string-valued attribute holds a list that is "
                               "not a list of ints",
                               c->what, graph, op);
            }
            ProtobufCBinaryData *s = NULL;
            if (l->n_i != 0) {
                s = oa_om_arena_alloc(c->a, l->n_i * sizeof(*s));
                if (s == NULL) {
                    return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "[Decompress][Attr] %zu strings", l->n_i);
                }
            }
            for (size_t k = 0; k < l->n_i; ++k) {
                oa_status st = value_string(c, l->i[k], graph, op, &s[k]);
                if (st != OA_OK) {
                    return st;
                }
            }
            l->s = s;
            l->n_s = l->n_i;
            l->i = NULL;
            l->n_i = 0;
            l->val_type = GE__PROTO__ATTR_DEF__LIST_VALUE__LIST_VALUE_TYPE__VT_LIST_STRING;
        } else {
            return OA_FAIL(OA_E_GE_LOAD_MODEL_PARTITION,
                           "[Decompress][Attr] %s: graph %s op %s: string-valued attribute is neither an int nor a "
                           "list",
                           c->what, graph, op);
        }
    }
    return OA_OK;
}

oa_status oa_om_decompress(Ge__Proto__ModelDef *def, const oa_om_dict *d, oa_om_arena *a, const char *what,
                           size_t *left_compressed)
{
    dctx c = {d, a, what, 0};
    for (size_t g = 0; g < def->n_graph; ++g) {
        Ge__Proto__GraphDef *gd = def->graph[g];
        if (gd == NULL) {
            continue;
        }
        for (size_t o = 0; o < gd->n_op; ++o) {
            Ge__Proto__OpDef *op = gd->op[o];
            if (op == NULL) {
                continue;
            }
            oa_status st = decompress_map(&c, op->attr, op->n_attr, gd->name, op->name);
            for (size_t k = 0; k < op->n_input_desc && st == OA_OK; ++k) {
                if (op->input_desc[k] != NULL) {
                    st = decompress_map(&c, op->input_desc[k]->attr, op->input_desc[k]->n_attr, gd->name, op->name);
                }
            }
            for (size_t k = 0; k < op->n_output_desc && st == OA_OK; ++k) {
                if (op->output_desc[k] != NULL) {
                    st = decompress_map(&c, op->output_desc[k]->attr, op->output_desc[k]->n_attr, gd->name,
                                        op->name);
                }
            }
            if (st != OA_OK) {
                return st;
            }
        }
    }
    if (left_compressed != NULL) {
        *left_compressed = c.left;
    }
    return OA_OK;
}

/* ---- compression (ATC's algorithm, for tests) --------------------------- */

typedef struct cctx {
    oa_om_arena *a;
    Ge__Proto__ModelDef *def;
    ProtobufCBinaryData *names;
    size_t n_names, cap_names;
    protobuf_c_boolean *flags;
    ProtobufCBinaryData *values;
    size_t n_values, cap_values;
    unsigned char *on_path; /* graphs being walked, to stop on loops */
} cctx;

static bool grow(oa_om_arena *a, void **v, size_t *cap, size_t n, size_t es)
{
    if (n < *cap) {
        return true;
    }
    size_t nc = *cap ? *cap * 2 : 16;
    void *nv = oa_om_arena_alloc(a, nc * es);
    if (nv == NULL) {
        return false;
    }
    if (*cap != 0) {
        memcpy(nv, *v, *cap * es);
    }
    *v = nv;
    *cap = nc;
    return true;
}

static bool bin_eq(const ProtobufCBinaryData *x, const ProtobufCBinaryData *y)
{
    return x->len == y->len && (x->len == 0 || memcmp(x->data, y->data, x->len) == 0);
}

/* Index of name in the dictionary, appended (with its flag) when new. */
static oa_status name_index(cctx *c, const ProtobufCBinaryData *name, bool is_string, uint32_t *idx)
{
    for (size_t i = 0; i < c->n_names; ++i) {
        if (bin_eq(&c->names[i], name)) {
            *idx = (uint32_t)i;
            return OA_OK;
        }
    }
    size_t cap_flags = c->cap_names;
    if (!grow(c->a, (void **)&c->names, &c->cap_names, c->n_names, sizeof(*c->names)) ||
        !grow(c->a, (void **)&c->flags, &cap_flags, c->n_names, sizeof(*c->flags))) {
        return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "[Compress][Attr] name dictionary");
    }
    c->names[c->n_names] = *name;
    c->flags[c->n_names] = is_string;
    *idx = (uint32_t)c->n_names++;
    return OA_OK;
}

static oa_status value_index(cctx *c, const ProtobufCBinaryData *s, int64_t *idx)
{
    for (size_t i = 0; i < c->n_values; ++i) {
        if (bin_eq(&c->values[i], s)) {
            *idx = (int64_t)i;
            return OA_OK;
        }
    }
    if (!grow(c->a, (void **)&c->values, &c->cap_values, c->n_values, sizeof(*c->values))) {
        return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "[Compress][Attr] value dictionary");
    }
    c->values[c->n_values] = *s;
    *idx = (int64_t)c->n_values++;
    return OA_OK;
}

static bool is_list_string(const Ge__Proto__AttrDef *v)
{
    return v != NULL && v->value_case == GE__PROTO__ATTR_DEF__VALUE_LIST && v->list != NULL &&
           v->list->val_type == GE__PROTO__ATTR_DEF__LIST_VALUE__LIST_VALUE_TYPE__VT_LIST_STRING;
}

static oa_status compress_entry(cctx *c, Ge__Proto__AttrMapEntry *e)
{
    Ge__Proto__AttrDef *v = e->value;
    const bool is_s = v != NULL && v->value_case == GE__PROTO__ATTR_DEF__VALUE_S;
    const bool is_ls = is_list_string(v);
    uint32_t idx = 0;
    oa_status st = name_index(c, &e->key, is_s || is_ls, &idx);
    if (st != OA_OK) {
        return st;
    }
    uint8_t key[OA_OM_KEY_MAX];
    size_t kl = oa_om_key_encode(idx, key);
    uint8_t *kd = oa_om_arena_alloc(c->a, kl);
    if (kd == NULL) {
        return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "[Compress][Attr] key");
    }
    memcpy(kd, key, kl);
    e->key.data = kd;
    e->key.len = kl;
    if (is_s) {
        int64_t vi;
        st = value_index(c, &v->s, &vi);
        v->value_case = GE__PROTO__ATTR_DEF__VALUE_I;
        v->i = vi;
    } else if (is_ls) {
        Ge__Proto__AttrDef__ListValue *l = v->list;
        int64_t *ii = l->n_s ? oa_om_arena_alloc(c->a, l->n_s * sizeof(*ii)) : NULL;
        if (l->n_s != 0 && ii == NULL) {
            return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "[Compress][Attr] list");
        }
        for (size_t k = 0; k < l->n_s && st == OA_OK; ++k) {
            st = value_index(c, &l->s[k], &ii[k]);
        }
        l->i = ii;
        l->n_i = l->n_s;
        l->s = NULL;
        l->n_s = 0;
        l->val_type = GE__PROTO__ATTR_DEF__LIST_VALUE__LIST_VALUE_TYPE__VT_LIST_INT;
    }
    return st;
}

/* Compresses one attr map; `skip` lists keys the serializer adds. The map
 * is walked in key order, as GE's std::map of attributes is. */
static oa_status compress_map(cctx *c, Ge__Proto__AttrMapEntry **attr, size_t *n, const char *const *skip,
                              size_t n_skip, bool drop_unused)
{
    size_t w = 0;
    for (size_t i = 0; i < *n; ++i) {
        if (drop_unused && attr[i] != NULL && key_in(&attr[i]->key, k_unused_attrs, OA_ARRAY_SIZE(k_unused_attrs)) &&
            !key_in(&attr[i]->key, skip, n_skip)) {
            continue;
        }
        attr[w++] = attr[i];
    }
    *n = w;
    /* Visit in key order (the map may not be sorted yet). */
    size_t *order = w ? malloc(w * sizeof(*order)) : NULL;
    if (w != 0 && order == NULL) {
        return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "[Compress][Attr] order");
    }
    for (size_t i = 0; i < w; ++i) {
        size_t j = i;
        while (j > 0) {
            const ProtobufCBinaryData *x = &attr[order[j - 1]]->key, *y = &attr[i]->key;
            size_t m = x->len < y->len ? x->len : y->len;
            int cmp = m ? memcmp(x->data, y->data, m) : 0;
            if (cmp < 0 || (cmp == 0 && x->len <= y->len)) {
                break;
            }
            order[j] = order[j - 1];
            --j;
        }
        order[j] = i;
    }
    oa_status st = OA_OK;
    for (size_t i = 0; i < w && st == OA_OK; ++i) {
        Ge__Proto__AttrMapEntry *e = attr[order[i]];
        if (e != NULL && !key_in(&e->key, skip, n_skip)) {
            st = compress_entry(c, e);
        }
    }
    free(order);
    return st;
}

static Ge__Proto__GraphDef *graph_by_name(const Ge__Proto__ModelDef *def, const char *name, size_t *index)
{
    for (size_t g = 0; g < def->n_graph; ++g) {
        if (def->graph[g] != NULL && strcmp(def->graph[g]->name, name) == 0) {
            *index = g;
            return def->graph[g];
        }
    }
    return NULL;
}

static oa_status compress_graph(cctx *c, Ge__Proto__GraphDef *gd, size_t gi)
{
    if (c->on_path[gi]) {
        return OA_FAIL(OA_E_GE_PARAM, "[Compress][Attr] subgraph %s is its own ancestor", gd->name);
    }
    c->on_path[gi] = 1;
    oa_status st = OA_OK;
    for (size_t o = 0; o < gd->n_op && st == OA_OK; ++o) {
        Ge__Proto__OpDef *op = gd->op[o];
        if (op == NULL) {
            continue;
        }
        st = compress_map(c, op->attr, &op->n_attr, k_injected_op_attrs, OA_ARRAY_SIZE(k_injected_op_attrs), true);
        for (size_t k = 0; k < op->n_input_desc && st == OA_OK; ++k) {
            if (op->input_desc[k] != NULL) {
                st = compress_map(c, op->input_desc[k]->attr, &op->input_desc[k]->n_attr, k_injected_desc_attrs,
                                  OA_ARRAY_SIZE(k_injected_desc_attrs), false);
            }
        }
        for (size_t k = 0; k < op->n_output_desc && st == OA_OK; ++k) {
            if (op->output_desc[k] != NULL) {
                st = compress_map(c, op->output_desc[k]->attr, &op->output_desc[k]->n_attr, k_injected_desc_attrs,
                                  OA_ARRAY_SIZE(k_injected_desc_attrs), false);
            }
        }
        /* GE's GetAllNodes: a node's subgraphs come right after it. */
        for (size_t s = 0; s < op->n_subgraph_name && st == OA_OK; ++s) {
            size_t si = 0;
            Ge__Proto__GraphDef *sub = graph_by_name(c->def, op->subgraph_name[s], &si);
            if (sub != NULL) {
                st = compress_graph(c, sub, si);
            }
        }
    }
    c->on_path[gi] = 0;
    return st;
}

static Ge__Proto__AttrMapEntry *new_entry(oa_om_arena *a, const char *key, Ge__Proto__AttrDef **value)
{
    Ge__Proto__AttrMapEntry *e = oa_om_arena_alloc(a, sizeof(*e));
    Ge__Proto__AttrDef *v = oa_om_arena_alloc(a, sizeof(*v));
    char *k = oa_om_arena_strndup(a, key, strlen(key));
    if (e == NULL || v == NULL || k == NULL) {
        return NULL;
    }
    ge__proto__attr_map_entry__init(e);
    ge__proto__attr_def__init(v);
    e->key.data = (uint8_t *)k;
    e->key.len = strlen(key);
    e->value = v;
    *value = v;
    return e;
}

static Ge__Proto__AttrDef__ListValue *new_list(oa_om_arena *a, Ge__Proto__AttrDef *v, int val_type)
{
    Ge__Proto__AttrDef__ListValue *l = oa_om_arena_alloc(a, sizeof(*l));
    if (l != NULL) {
        ge__proto__attr_def__list_value__init(l);
        l->val_type = val_type;
        v->value_case = GE__PROTO__ATTR_DEF__VALUE_LIST;
        v->list = l;
    }
    return l;
}

static oa_status add_dictionaries(cctx *c)
{
    Ge__Proto__ModelDef *def = c->def;
    Ge__Proto__AttrMapEntry **attr = oa_om_arena_alloc(c->a, (def->n_attr + 4) * sizeof(*attr));
    Ge__Proto__AttrDef *ver, *nm, *vl, *fl;
    Ge__Proto__AttrMapEntry *e0 = new_entry(c->a, OA_OM_ATTR_COMPRESS_VERSION, &ver);
    Ge__Proto__AttrMapEntry *e1 = new_entry(c->a, OA_OM_ATTR_NAME_ENUM, &nm);
    Ge__Proto__AttrMapEntry *e2 = new_entry(c->a, OA_OM_ATTR_VALUE_ENUM, &vl);
    Ge__Proto__AttrMapEntry *e3 = new_entry(c->a, OA_OM_ATTR_USE_STRING, &fl);
    if (attr == NULL || e0 == NULL || e1 == NULL || e2 == NULL || e3 == NULL) {
        return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "[Compress][Attr] dictionaries");
    }
    ver->value_case = GE__PROTO__ATTR_DEF__VALUE_I;
    ver->i = 1;
    Ge__Proto__AttrDef__ListValue *ln = new_list(c->a, nm, GE__PROTO__ATTR_DEF__LIST_VALUE__LIST_VALUE_TYPE__VT_LIST_STRING);
    Ge__Proto__AttrDef__ListValue *lv = new_list(c->a, vl, GE__PROTO__ATTR_DEF__LIST_VALUE__LIST_VALUE_TYPE__VT_LIST_STRING);
    Ge__Proto__AttrDef__ListValue *lf = new_list(c->a, fl, GE__PROTO__ATTR_DEF__LIST_VALUE__LIST_VALUE_TYPE__VT_LIST_BOOL);
    if (ln == NULL || lv == NULL || lf == NULL) {
        return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "[Compress][Attr] dictionaries");
    }
    ln->s = c->names;
    ln->n_s = c->n_names;
    lv->s = c->values;
    lv->n_s = c->n_values;
    lf->b = c->flags;
    lf->n_b = c->n_names;
    if (def->n_attr != 0) {
        memcpy(attr, def->attr, def->n_attr * sizeof(*attr));
    }
    attr[def->n_attr++] = e0;
    attr[def->n_attr++] = e1;
    attr[def->n_attr++] = e2;
    attr[def->n_attr++] = e3;
    def->attr = attr;
    return OA_OK;
}

oa_status oa_om_compress(Ge__Proto__ModelDef *def, oa_om_arena *a)
{
    if (oa_om_attr_get(def->attr, def->n_attr, OA_OM_ATTR_COMPRESS_VERSION) != NULL || def->n_graph == 0 ||
        def->graph[0] == NULL) {
        return OA_OK;
    }
    cctx c = {.a = a, .def = def};
    c.on_path = calloc(def->n_graph, 1);
    if (c.on_path == NULL) {
        return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "[Compress][Attr] %zu graphs", def->n_graph);
    }
    oa_status st = compress_graph(&c, def->graph[0], 0);
    free(c.on_path);
    if (st == OA_OK && c.n_names != 0) {
        st = add_dictionaries(&c);
    }
    return st;
}
