/*
 * Dynamic gears (--dynamic_batch_size / --dynamic_image_size /
 * --dynamic_dims): parsing and CANN's checks, per-gear input shapes, and
 * the multi-batch root graph GE builds (docs/om_format.md "Multi-batch graphs"):
 *
 *   Data inputs (max gear shape) ───────────────────────┐
 *   ascend_mbatch_shape_data ─▶ MapIndex ─▶ Case(branches Batch_0..n-1) ─▶ Node_Output
 *   ascend_mbatch_shape_const ─┘     (one statically compiled copy of the
 *                                     model per gear)
 */
#define OA_LOG_MODULE "GE"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"
#include "compiler/compiler_internal.h"
#include "compiler/pass_util.h"

#define SHAPE_DATA "ascend_mbatch_shape_data"
#define SHAPE_CONST "ascend_mbatch_shape_const"
#define MAP_INDEX "ascend_mbatch_shape_mapindex"
#define CASE_NODE "ascend_mbatch_shape_case"
#define NODE_SUFFIX "_ascend_mbatch_batch_"

void oa_gears_free(oa_gear_table *t)
{
    if (t != NULL) {
        free(t->v);
        free(t->first);
        memset(t, 0, sizeof(*t));
    }
}

static const char *option_name(oa_gear_kind k)
{
    return k == OA_GEAR_BATCH ? "dynamic_batch_size" : (k == OA_GEAR_IMAGE ? "dynamic_image_size" : "dynamic_dims");
}

oa_status oa_gears_user_order(const oa_graph *g, const char *input_shape, const char ***names, size_t *count)
{
    size_t cap = 1;
    for (const char *p = input_shape ? input_shape : ""; *p; p++) {
        cap += *p == ';';
    }
    size_t nd = oa_graph_num_inputs(g);
    cap = OA_MAX(cap, nd);
    const char **out = oa_arena_array(oa_graph_arena(g), cap, sizeof(char *));
    if (out == NULL) {
        return OA_E_NOMEM;
    }
    size_t n = 0;
    if (input_shape == NULL || input_shape[0] == '\0') {
        for (size_t i = 0; i < nd; i++) {
            const oa_node *d = oa_graph_input(g, (int64_t)i);
            if (d) {
                out[n++] = d->name;
            }
        }
    } else {
        const char *p = input_shape;
        while (*p) {
            const char *end = strchr(p, ';');
            size_t len = end ? (size_t)(end - p) : strlen(p);
            const char *colon = NULL;
            for (const char *c = p; c < p + len; c++) {
                if (*c == ':') {
                    colon = c;
                }
            }
            if (colon != NULL && colon > p) {
                out[n] = oa_arena_strndup(oa_graph_arena(g), p, (size_t)(colon - p));
                if (out[n] == NULL) {
                    return OA_E_NOMEM;
                }
                n++;
            }
            p += len;
            if (*p == ';') {
                p++;
            }
        }
    }
    *names = out;
    *count = n;
    return OA_OK;
}

static int count_unknown(const oa_shape *s)
{
    int c = 0;
    for (int32_t i = 0; s->rank > 0 && i < s->rank; i++) {
        c += s->dims[i] < 0;
    }
    return c;
}

/* H and W axes of a 4-D input in `fmt`. */
static void hw_axes(const char *fmt, int *h, int *w)
{
    bool nhwc = fmt && strcmp(fmt, "NHWC") == 0;
    *h = nhwc ? 1 : 2;
    *w = nhwc ? 2 : 3;
}

/*
 * H and W axes of Data d for image gears. An AIPP input is the raw NHWC image
 * (docs/aipp.md "What the .om holds"); its NV12 desc holds 1.5 rows per image
 * row (*rows3 true: a gear's H gives H * 3 / 2 rows).
 */
static void data_hw_axes(const oa_node *d, const char *fmt, int *h, int *w, bool *rows3)
{
    const oa_attrs *na = NULL;
    int64_t f = 0;
    *rows3 = false;
    if (oa_attrs_find(&d->attrs, "_data_related_aipp_mode") == NULL) {
        hw_axes(fmt, h, w);
        return;
    }
    *h = 1;
    *w = 2;
    *rows3 = oa_attrs_get_named(&d->attrs, "aipp", &na) && oa_attrs_get_int(na, "input_format", &f) && f == 1;
}

static oa_status parse_rows(oa_gear_kind kind, const char *spec, size_t want_dims, oa_gear_table *t)
{
    const char *opt = option_name(kind);
    for (const char *c = spec; *c; c++) {
        bool ok = isdigit((unsigned char)*c) || *c == ',' || (kind != OA_GEAR_BATCH && (*c == ';' || *c == ' '));
        if (!ok) {
            if (kind == OA_GEAR_DIMS) {
                return OA_FAIL(OA_E_PARAM,
                               "E10001: Value %s for parameter --dynamic_dims is invalid. Reason: Dynamic dims must "
                               "be a positive integer.",
                               spec);
            }
            return OA_FAIL(OA_E_PARAM, "E10003: Value %s for parameter --%s is invalid. Reason: %s", spec, opt,
                           kind == OA_GEAR_BATCH ? "It can only contain digits and \",\"."
                                                 : "It can only contain digits, \",\", \" \" and \";\".");
        }
    }
    size_t cap = 1;
    for (const char *c = spec; *c; c++) {
        cap += (*c == ',' || *c == ';');
    }
    t->v = malloc(cap * sizeof(int64_t) * 2);
    if (t->v == NULL) {
        return OA_FAIL(OA_E_NOMEM, "out of memory");
    }
    t->kind = kind;
    t->count = 0;
    t->dims = 0;
    char row_sep = kind == OA_GEAR_BATCH ? ',' : ';';
    const char *p = spec;
    size_t nv = 0;
    while (*p) {
        const char *end = strchr(p, row_sep);
        size_t len = end ? (size_t)(end - p) : strlen(p);
        size_t row_dims = 0;
        bool empty = true;
        for (const char *c = p; c < p + len; c++) {
            empty = empty && (*c == ' ' || *c == ',');
        }
        if (!empty) {
            const char *q = p;
            while (q < p + len) {
                while (q < p + len && (*q == ' ' || *q == ',')) {
                    q++;
                }
                if (q >= p + len) {
                    break;
                }
                int64_t v = 0;
                while (q < p + len && isdigit((unsigned char)*q)) {
                    v = v * 10 + (*q - '0');
                    if (v > INT32_MAX) {
                        return OA_FAIL(OA_E_PARAM, "E10013: Value %s for --%s is out of range.", spec, opt);
                    }
                    q++;
                }
                t->v[nv++] = v;
                row_dims++;
            }
            if (kind == OA_GEAR_IMAGE && row_dims != 2) {
                return OA_FAIL(OA_E_PARAM, "E10020: Value %s for parameter --dynamic_image_size is invalid.", spec);
            }
            if (kind == OA_GEAR_DIMS && row_dims != want_dims) {
                return OA_FAIL(OA_E_PARAM,
                               "E10003: Value %s for parameter --dynamic_dims is invalid. Reason: Each setting needs "
                               "to be consistent with the number of -1 in the input shape.",
                               spec);
            }
            if (t->count > 0 && row_dims != t->dims) {
                return OA_FAIL(OA_E_PARAM,
                               "E10037: The profiles configured in --dynamic_batch_size, --dynamic_image_size, or "
                               "--dynamic_dims have inconsistent dimension counts. A profile has %zu dimensions while "
                               "another has %zu dimensions.",
                               t->dims, row_dims);
            }
            t->dims = row_dims;
            t->count++;
        }
        p += len;
        if (*p == row_sep) {
            p++;
        }
    }
    return OA_OK;
}

/* CANN's CheckDynamicParams: count limits, positive dims, no duplicates. */
static oa_status check_rows(const oa_gear_table *t)
{
    if (t->count < OA_GEAR_MIN) {
        return OA_FAIL(OA_E_PARAM,
                       "E10035: --dynamic_batch_size, --dynamic_image_size, or --dynamic_dims has %zu profiles, which "
                       "is less than the minimum %d.",
                       t->count, OA_GEAR_MIN);
    }
    if (t->count > OA_GEAR_MAX) {
        return OA_FAIL(OA_E_PARAM,
                       "E10036: --dynamic_batch_size, --dynamic_image_size, or --dynamic_dims has %zu profiles, which "
                       "is greater than the maximum %d.",
                       t->count, OA_GEAR_MAX);
    }
    for (size_t i = 0; i < t->count * t->dims; i++) {
        if (t->v[i] <= 0) {
            return OA_FAIL(OA_E_PARAM, "E10038: Dimension size %lld is invalid. The value must be greater than 0.",
                           (long long)t->v[i]);
        }
    }
    for (size_t a = 0; a < t->count; a++) {
        for (size_t b = a + 1; b < t->count; b++) {
            if (memcmp(&t->v[a * t->dims], &t->v[b * t->dims], t->dims * sizeof(int64_t)) == 0) {
                return OA_FAIL(OA_E_PARAM,
                               "E10039: The --dynamic_batch_size, --dynamic_image_size, or --dynamic_dims argument "
                               "has duplicate profiles.");
            }
        }
    }
    return OA_OK;
}

/* The Data nodes named in --input_shape (user order). */
static oa_status user_inputs(const oa_graph *g, const char *input_shape, const oa_node ***datas, size_t *count)
{
    const char **names;
    size_t n;
    oa_status st = oa_gears_user_order(g, input_shape, &names, &n);
    if (st != OA_OK) {
        return st;
    }
    const oa_node **out = oa_arena_array(oa_graph_arena(g), n ? n : 1, sizeof(*out));
    if (out == NULL) {
        return OA_E_NOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        out[i] = oa_graph_find_node(g, names[i]);
        if (out[i] == NULL || out[i]->type != OA_OP_DATA) {
            return OA_FAIL(OA_E_PARAM,
                           "E10016: Op name %s specified in --input_shape is not found in the model. Confirm whether "
                           "this node name exists, or whether the node is not split with the specified delimiter ';'.",
                           names[i]);
        }
    }
    *datas = out;
    *count = n;
    return OA_OK;
}

static oa_status parse_checked(const oa_graph *g, oa_gear_kind kind, const char *spec, const char *input_format,
                               const oa_node **datas, size_t nd, oa_gear_table *t);

oa_status oa_gears_parse(const oa_graph *g, oa_gear_kind kind, const char *spec, const char *input_shape,
                         const char *input_format, oa_gear_table *t)
{
    memset(t, 0, sizeof(*t));
    const oa_node **datas = NULL;
    size_t nd = 0;
    oa_status st = user_inputs(g, input_shape, &datas, &nd);
    if (st != OA_OK) {
        return st;
    }
    st = parse_checked(g, kind, spec, input_format, datas, nd, t);
    if (st != OA_OK) {
        oa_gears_free(t);
    }
    return st;
}

/* The body of oa_gears_parse once the user's inputs are known; t->first may
 * be allocated even on failure (the caller frees). */
static oa_status parse_checked(const oa_graph *g, oa_gear_kind kind, const char *spec, const char *input_format,
                               const oa_node **datas, size_t nd, oa_gear_table *t)
{
    oa_status st;
    t->num_inputs = oa_graph_num_inputs(g);
    t->first = malloc((t->num_inputs ? t->num_inputs : 1) * sizeof(int64_t));
    if (t->first == NULL) {
        return OA_FAIL(OA_E_NOMEM, "out of memory");
    }
    for (size_t i = 0; i < t->num_inputs; i++) {
        t->first[i] = -1;
    }
    int total_unknown = 0, dynamic_inputs = 0;
    for (size_t i = 0; i < nd; i++) {
        const oa_shape *s = &datas[i]->outputs[0].desc.shape;
        int u = count_unknown(s);
        int64_t idx = oa_node_attr_int(datas[i], "index", -1);
        if (u > 0 && idx >= 0 && (size_t)idx < t->num_inputs) {
            t->first[idx] = total_unknown;
        }
        total_unknown += u;
        if (u == 0) {
            continue;
        }
        dynamic_inputs++;
        if (kind == OA_GEAR_BATCH) {
            if (s->rank < 1) {
                return OA_FAIL(OA_E_PARAM,
                               "E10012: --dynamic_batch_size is included, but the dimension count of the "
                               "dynamic-shape input configured in --input_shape is less than 1.");
            }
            for (int32_t k = 1; k < s->rank; k++) {
                if (s->dims[k] < 0 || s->dims[0] >= 0) {
                    int32_t bad = s->dims[0] >= 0 ? 0 : k;
                    return OA_FAIL(OA_E_PARAM,
                                   "E10018: Value %lld for shape %d is invalid. When --dynamic_batch_size is "
                                   "included, only batch size N can be -1 in --input_shape.",
                                   (long long)s->dims[bad], (int)bad);
                }
            }
        } else if (kind == OA_GEAR_IMAGE) {
            int h, w;
            bool rows3;
            data_hw_axes(datas[i], input_format, &h, &w, &rows3);
            if (s->rank != 4 || u != 2 || s->dims[h] >= 0 || s->dims[w] >= 0) {
                return OA_FAIL(OA_E_PARAM,
                               "E10019: When --dynamic_image_size is included, only the height and width axes can be "
                               "-1 in --input_shape.");
            }
        }
    }
    if (kind == OA_GEAR_BATCH && dynamic_inputs == 0) {
        return OA_FAIL(OA_E_PARAM,
                       "E10031: --dynamic_batch_size is included, but none of the nodes specified in --input_shape has "
                       "a batch size equaling -1.");
    }
    if (kind == OA_GEAR_IMAGE && dynamic_inputs == 0) {
        return OA_FAIL(OA_E_PARAM,
                       "E10019: When --dynamic_image_size is included, only the height and width axes can be -1 in "
                       "--input_shape.");
    }
    if (kind == OA_GEAR_DIMS && total_unknown == 0) {
        return OA_FAIL(OA_E_PARAM,
                       "E10001: Value 0 for parameter --input_shape's dynamic dim num is invalid. Reason: At least one "
                       "dim should be -1 when dynamic_dims is set.");
    }
    st = parse_rows(kind, spec, (size_t)total_unknown, t);
    return st == OA_OK ? check_rows(t) : st;
}

oa_status oa_gears_shape(const oa_graph *g, const oa_gear_table *t, const char *input_format, const oa_node *data,
                         size_t gear, oa_shape *out)
{
    *out = data->outputs[0].desc.shape;
    const int64_t *row = &t->v[gear * t->dims];
    int64_t idx = oa_node_attr_int(data, "index", -1);
    if (idx < 0 || (size_t)idx >= t->num_inputs || t->first[idx] < 0) {
        return OA_OK; /* not a dynamic input named in --input_shape */
    }
    if (t->kind == OA_GEAR_BATCH || t->kind == OA_GEAR_IMAGE) {
        int h, w;
        bool rows3;
        data_hw_axes(data, input_format, &h, &w, &rows3);
        for (int32_t k = 0; k < out->rank; k++) {
            if (out->dims[k] < 0) {
                const int64_t hv = rows3 ? row[0] * 3 / 2 : row[0];
                out->dims[k] = t->kind == OA_GEAR_BATCH ? row[0] : (k == h ? hv : row[1]);
            }
        }
        return OA_OK;
    }
    /* dims: the row is spread over the -1 dims of the inputs in user order. */
    (void)g;
    size_t pos = (size_t)t->first[idx];
    for (int32_t k = 0; k < out->rank; k++) {
        if (out->dims[k] < 0) {
            if (pos >= t->dims) {
                return OA_FAIL(OA_E_PARAM,
                               "E10045: The number of -1 axes in the --input_shape argument exceeds the dimension "
                               "count per profile in --dynamic_dims.");
            }
            out->dims[k] = row[pos++];
        }
    }
    return OA_OK;
}

/* Gear with the largest element count for Data `bd` (GE's "max shape"). */
static oa_status max_gear_shape(const oa_graph *base, const oa_gear_table *t, const char *fmt, const oa_node *bd,
                                oa_shape *out, char ***gear_strs)
{
    int64_t best = -1;
    for (size_t g = 0; g < t->count; g++) {
        oa_shape s;
        oa_status st = oa_gears_shape(base, t, fmt, bd, g, &s);
        if (st != OA_OK) {
            return st;
        }
        int64_t n;
        if (!oa_shape_numel(&s, &n)) {
            char b[128];
            return OA_FAIL(OA_E_PARAM, "input %s stays dynamic in gear %zu (%s)", bd->name, g,
                           oa_shape_str(&s, b, sizeof(b)));
        }
        if (n > best) {
            best = n;
            *out = s;
        }
        /* "<format>:<dtype>:<name>:<bytes>:<rank>:<dims>" per gear, as GE records them. */
        size_t bytes = 0;
        (void)oa_tensor_nbytes(bd->outputs[0].desc.dtype, &s, &bytes);
        char dims[256] = "";
        size_t len = 0;
        for (int32_t k = 0; k < s.rank && len < sizeof(dims); k++) {
            len += (size_t)snprintf(dims + len, sizeof(dims) - len, "%s%lld", k ? "," : "", (long long)s.dims[k]);
        }
        (*gear_strs)[g] = oa_arena_printf(oa_graph_arena(base), "%s:%s:%s:%zu:%d:%s",
                                          oa_format_name(bd->outputs[0].desc.format),
                                          oa_dtype_name(bd->outputs[0].desc.dtype), bd->name, bytes, (int)s.rank,
                                          dims);
        if ((*gear_strs)[g] == NULL) {
            return OA_E_NOMEM;
        }
    }
    return OA_OK;
}

static oa_status add_root_inputs(const oa_graph *base, const oa_gear_table *t, const char *fmt, oa_graph *r,
                                 oa_node **datas, size_t nd)
{
    char **strs = calloc(t->count, sizeof(char *));
    if (strs == NULL) {
        return OA_FAIL(OA_E_NOMEM, "out of memory");
    }
    oa_status st = OA_OK;
    for (size_t i = 0; i < nd && st == OA_OK; i++) {
        const oa_node *bd = oa_graph_input(base, (int64_t)i);
        if (bd == NULL) {
            st = OA_FAIL(OA_E_GE_PARAM, "graph %s has no Data node with index %zu", oa_graph_name(base), i);
            break;
        }
        const oa_tensor_desc *bdesc = &bd->outputs[0].desc;
        bool dynamic = !oa_shape_is_static(&bdesc->shape);
        oa_shape shape = bdesc->shape;
        if (dynamic) {
            st = max_gear_shape(base, t, fmt, bd, &shape, &strs);
        }
        if (st != OA_OK) {
            break;
        }
        st = oa_graph_add_data(r, bd->name, (int64_t)i, bdesc->dtype, &shape, bdesc->format, &datas[i]);
        for (const oa_attr *a = bd->attrs.head; a && st == OA_OK; a = a->next) {
            if (strcmp(a->name, "index") != 0) {
                st = oa_attrs_set_copy(r, &datas[i]->attrs, a);
            }
        }
        if (st == OA_OK) {
            datas[i]->inputs[0].desc.origin_format = bd->inputs[0].desc.origin_format;
            datas[i]->outputs[0].desc.origin_format = bdesc->origin_format;
        }
        if (st == OA_OK && dynamic) {
            st = oa_node_set_list_int(datas[i], "_mbatch_origin_input_dims", bdesc->shape.dims,
                                      (size_t)bdesc->shape.rank);
            if (st == OA_OK) {
                st = oa_node_set_str(datas[i], "mbatch-switch-name", CASE_NODE);
            }
            if (st == OA_OK) {
                st = oa_node_set_list_str(datas[i], "_all_origin_gears_inputs", (const char *const *)strs, t->count);
            }
        }
    }
    free(strs);
    return st;
}

/* Case attrs (docs/om_format.md "Multi-batch graphs"). */
static oa_status case_attrs(oa_node *cs, const oa_gear_table *t, const char *const *order, size_t norder)
{
    oa_status st = oa_node_set_int(cs, "_batch_num", (int64_t)t->count);
    for (size_t g = 0; g < t->count && st == OA_OK; g++) {
        char name[64];
        snprintf(name, sizeof(name), "_pred_value_%zu", g);
        st = oa_node_set_list_int(cs, name, &t->v[g * t->dims], t->dims);
    }
    if (st == OA_OK) {
        st = oa_node_set_int(cs, "mbatch_dynamic_type", (int64_t)t->kind);
    }
    if (st == OA_OK) {
        st = oa_node_set_list_str(cs, "user_designate_shape_order", order, norder);
    }
    if (st == OA_OK) {
        st = oa_node_set_bool(cs, "mbatch-inserted-node", true);
    }
    return st;
}

/* One branch: the gear graph copied with suffixed names, Data bound to the
 * Case inputs (index + 1), outputs bound to the Case outputs. */
static oa_status add_branch(oa_graph *r, oa_node *cs, const oa_graph *gear, size_t g, const oa_graph *base)
{
    char name[64], suffix[64];
    snprintf(name, sizeof(name), "Batch_%zu", g);
    snprintf(suffix, sizeof(suffix), NODE_SUFFIX "%zu", g);
    oa_graph *br;
    oa_status st = oa_graph_create_subgraph(cs, "branches", name, &br);
    if (st == OA_OK) {
        st = oa_graph_copy_into(gear, br, suffix);
    }
    for (oa_node *n = oa_graph_first_node(br); n && st == OA_OK; n = n->next) {
        if (n->type == OA_OP_DATA) {
            int64_t idx = oa_node_attr_int(n, "index", -1);
            st = oa_node_set_int(n, "_parent_node_index", idx + 1);
            const oa_node *bd = oa_graph_input(base, idx);
            if (st == OA_OK && bd && !oa_shape_is_static(&bd->outputs[0].desc.shape)) {
                const oa_shape *s = &bd->outputs[0].desc.shape;
                st = oa_node_set_list_int(n, "_mbatch_origin_input_dims", s->dims, (size_t)s->rank);
            }
        } else if (n->type == OA_OP_NET_OUTPUT) {
            for (uint32_t j = 0; j < n->num_inputs && st == OA_OK; j++) {
                st = oa_attrs_set_int(r, &n->inputs[j].desc.attrs, "_parent_node_index", (int64_t)j);
            }
        }
    }
    (void)r;
    return st;
}

/* "<gear>,<output>,<dims...>" per gear and output (GE's _dynamic_output_dims). */
static oa_status output_dims_attr(oa_graph *r, oa_node *no, oa_graph *const *gg, size_t count)
{
    uint32_t nout = no->num_inputs;
    const char **strs = oa_arena_array(oa_graph_arena(r), count * nout + 1, sizeof(char *));
    if (strs == NULL) {
        return OA_E_NOMEM;
    }
    size_t k = 0;
    for (size_t g = 0; g < count; g++) {
        for (uint32_t j = 0; j < nout; j++) {
            const oa_tensor_desc *d = oa_graph_output_desc(gg[g], j);
            char buf[512];
            size_t len = (size_t)snprintf(buf, sizeof(buf), "%zu,%u", g, j);
            for (int32_t a = 0; d && a < d->shape.rank && len < sizeof(buf); a++) {
                len += (size_t)snprintf(buf + len, sizeof(buf) - len, ",%lld", (long long)d->shape.dims[a]);
            }
            strs[k] = oa_arena_strdup(oa_graph_arena(r), buf);
            if (strs[k] == NULL) {
                return OA_E_NOMEM;
            }
            k++;
        }
    }
    return oa_node_set_list_str(no, "_dynamic_output_dims", strs, k);
}

oa_status oa_gears_assemble(const oa_graph *base, const oa_gear_table *t, oa_graph *const *gg,
                            const char *input_format, const char *user_order, oa_graph **out)
{
    *out = NULL;
    const char **order;
    size_t norder;
    oa_status st = oa_gears_user_order(base, user_order, &order, &norder);
    if (st != OA_OK) {
        return st;
    }
    oa_graph *r;
    st = oa_graph_create(oa_graph_name(base), &r);
    if (st != OA_OK) {
        return st;
    }
    size_t nd = oa_graph_num_inputs(base);
    uint32_t nout = oa_graph_num_outputs(base);
    const oa_node *base_out = oa_graph_output_node(base);
    oa_node **datas = calloc(nd + 1, sizeof(*datas));
    int32_t *table = malloc(t->count * t->dims * sizeof(int32_t) + 1);
    oa_node *sd = NULL, *sc = NULL, *mi = NULL, *cs = NULL, *no = NULL;
    if (datas == NULL || table == NULL) {
        st = OA_FAIL(OA_E_NOMEM, "out of memory");
        goto done;
    }
    st = add_root_inputs(base, t, input_format, r, datas, nd);
    /* The gear selector: the LAST input, INT32, ND, one row of gear values. */
    if (st == OA_OK) {
        int64_t dims = (int64_t)t->dims;
        oa_shape s = oa_shape_make(1, &dims);
        st = oa_graph_add_data(r, SHAPE_DATA, (int64_t)nd, OA_DT_INT32, &s, OA_FORMAT_ND, &sd);
    }
    if (st == OA_OK) {
        st = oa_node_set_int(sd, "data_type", OA_DT_INT32);
    }
    if (st == OA_OK) {
        st = oa_node_set_bool(sd, "_is_multi_batch_shape_data", true);
    }
    if (st == OA_OK) {
        st = oa_node_set_bool(sd, "mbatch-inserted-node", true);
    }
    if (st == OA_OK) {
        for (size_t i = 0; i < t->count * t->dims; i++) {
            table[i] = (int32_t)t->v[i];
        }
        int64_t n = (int64_t)(t->count * t->dims);
        oa_shape s = oa_shape_make(1, &n);
        oa_tensor *ten;
        st = oa_graph_make_tensor(r, OA_DT_INT32, &s, table, (size_t)n * sizeof(int32_t), &ten);
        if (st == OA_OK) {
            st = oa_graph_add_const(r, SHAPE_CONST, ten, &sc);
        }
    }
    if (st == OA_OK) {
        st = oa_graph_add_node(r, OA_OP_MAP_INDEX, MAP_INDEX, 3, 1, &mi);
    }
    if (st == OA_OK) {
        st = oa_node_connect(mi, 0, sd, 0);
    }
    if (st == OA_OK) {
        st = oa_node_connect(mi, 1, sc, 0);
    }
    if (st == OA_OK) {
        oa_shape scalar = oa_shape_scalar();
        oa_desc_set(&mi->outputs[0].desc, OA_DT_INT32, &scalar);
        st = oa_graph_add_node(r, OA_OP_CASE, CASE_NODE, (uint32_t)nd + 1, nout, &cs);
    }
    if (st == OA_OK) {
        st = oa_node_connect(cs, 0, mi, 0);
    }
    for (size_t i = 0; i < nd && st == OA_OK; i++) {
        st = oa_node_connect(cs, (uint32_t)i + 1, datas[i], 0);
    }
    if (st == OA_OK) {
        st = case_attrs(cs, t, order, norder);
    }
    for (size_t g = 0; g < t->count && st == OA_OK; g++) {
        st = add_branch(r, cs, gg[g], g, base);
    }
    /* Case outputs: the largest gear's desc (what aclmdlGetOutputDims reports). */
    for (uint32_t j = 0; j < nout && st == OA_OK; j++) {
        int64_t best = -1;
        for (size_t g = 0; g < t->count; g++) {
            const oa_tensor_desc *d = oa_graph_output_desc(gg[g], j);
            int64_t n;
            if (d && oa_shape_numel(&d->shape, &n) && n > best) {
                best = n;
                oa_desc_set(&cs->outputs[j].desc, d->dtype, &d->shape);
                cs->outputs[j].desc.format = d->format;
                cs->outputs[j].desc.origin_format = d->origin_format;
            }
        }
    }
    if (st == OA_OK) {
        st = oa_graph_add_net_output(r, base_out ? base_out->name : "Node_Output", nout, &no);
    }
    for (uint32_t j = 0; j < nout && st == OA_OK; j++) {
        st = oa_node_connect(no, j, cs, j);
        if (st == OA_OK) {
            /* NetOutput's outputs mirror its inputs (the root is never re-inferred). */
            oa_desc_set(&no->outputs[j].desc, cs->outputs[j].desc.dtype, &cs->outputs[j].desc.shape);
            no->outputs[j].desc.format = cs->outputs[j].desc.format;
            no->outputs[j].desc.origin_format = cs->outputs[j].desc.origin_format;
        }
        const char *tn = base_out ? base_out->inputs[j].desc.name : NULL;
        if (st == OA_OK && tn != NULL) {
            no->inputs[j].desc.name = oa_arena_strdup(oa_graph_arena(r), tn);
        }
    }
    if (st == OA_OK) {
        st = oa_node_add_control_input(no, cs);
    }
    if (st == OA_OK) {
        st = output_dims_attr(r, no, gg, t->count);
    }
    if (st == OA_OK) {
        st = oa_graph_validate(r);
    }
done:
    free(datas);
    free(table);
    if (st != OA_OK) {
        oa_graph_destroy(r);
        return st;
    }
    *out = r;
    return OA_OK;
}
