/*
 * The AIPP facts of a model's inputs, read from the ModelDef's Data and
 * AippData ops as GE's loader does (docs/aipp.md "What the .om holds",
 * "How the runtime runs it"): `_data_related_aipp_mode`, the `aipp`
 * NamedAttrs, `_data_aipp_data_name_map`, `_aipp_inputs` / `_aipp_outputs`.
 */
#define OA_LOG_MODULE "GE"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl_mdl/om_reader.h"
#include "base/error.h"
#include "base/log.h"
#include "graph/types.h"
#include "om/om_pb.h"

#define MAX_GEARS 256

static const Ge__Proto__AttrDef *attr(const Ge__Proto__OpDef *op, const char *key)
{
    return oa_om_attr_get(op->attr, op->n_attr, key);
}

/* A string attr as a NUL-terminated copy in buf ("" when absent or not a string). */
static const char *attr_str(const Ge__Proto__OpDef *op, const char *key, char *buf, size_t cap)
{
    const Ge__Proto__AttrDef *a = attr(op, key);
    buf[0] = '\0';
    if (a != NULL && a->value_case == GE__PROTO__ATTR_DEF__VALUE_S && a->s.len < cap) {
        memcpy(buf, a->s.data, a->s.len);
        buf[a->s.len] = '\0';
    }
    return buf;
}

static const Ge__Proto__AttrDef *na_get(const Ge__Proto__NamedAttrs *na, const char *key)
{
    return oa_om_attr_get(na->attr, na->n_attr, key);
}

static int64_t na_int(const Ge__Proto__NamedAttrs *na, const char *key)
{
    const Ge__Proto__AttrDef *a = na_get(na, key);
    if (a == NULL) {
        return 0;
    }
    if (a->value_case == GE__PROTO__ATTR_DEF__VALUE_I) {
        return a->i;
    }
    return a->value_case == GE__PROTO__ATTR_DEF__VALUE_B ? a->b : 0;
}

static float na_float(const Ge__Proto__NamedAttrs *na, const char *key, float dflt)
{
    const Ge__Proto__AttrDef *a = na_get(na, key);
    return a != NULL && a->value_case == GE__PROTO__ATTR_DEF__VALUE_F ? a->f : dflt;
}

/* GE's SetAippInfo: the stored AippOpParams in aclAippInfo's fields. */
static void config_from(const Ge__Proto__NamedAttrs *na, oa_model_aipp_config *c)
{
    char key[32];
    c->input_format = (int32_t)na_int(na, "input_format");
    c->src_image_size_w = (int32_t)na_int(na, "src_image_size_w");
    c->src_image_size_h = (int32_t)na_int(na, "src_image_size_h");
    c->crop = (int8_t)na_int(na, "crop");
    c->load_start_pos_w = (int32_t)na_int(na, "load_start_pos_w");
    c->load_start_pos_h = (int32_t)na_int(na, "load_start_pos_h");
    c->crop_size_w = (int32_t)na_int(na, "crop_size_w");
    c->crop_size_h = (int32_t)na_int(na, "crop_size_h");
    c->resize = (int8_t)na_int(na, "resize");
    c->resize_output_w = (int32_t)na_int(na, "resize_output_w");
    c->resize_output_h = (int32_t)na_int(na, "resize_output_h");
    c->padding = (int8_t)na_int(na, "padding");
    c->left_padding_size = (int32_t)na_int(na, "left_padding_size");
    c->right_padding_size = (int32_t)na_int(na, "right_padding_size");
    c->top_padding_size = (int32_t)na_int(na, "top_padding_size");
    c->bottom_padding_size = (int32_t)na_int(na, "bottom_padding_size");
    c->csc_switch = (int8_t)na_int(na, "csc_switch");
    c->rbuv_swap_switch = (int8_t)na_int(na, "rbuv_swap_switch");
    c->ax_swap_switch = (int8_t)na_int(na, "ax_swap_switch");
    c->single_line_mode = (int8_t)na_int(na, "single_line_mode");
    for (int i = 0; i < 9; i++) {
        snprintf(key, sizeof(key), "matrix_r%dc%d", i / 3, i % 3);
        c->matrix[i] = (int32_t)na_int(na, key);
    }
    for (int i = 0; i < 3; i++) {
        snprintf(key, sizeof(key), "output_bias_%d", i);
        c->output_bias[i] = (int32_t)na_int(na, key);
        snprintf(key, sizeof(key), "input_bias_%d", i);
        c->input_bias[i] = (int32_t)na_int(na, key);
    }
    for (int i = 0; i < 4; i++) {
        snprintf(key, sizeof(key), "mean_chn_%d", i);
        c->mean_chn[i] = (int32_t)na_int(na, key);
        snprintf(key, sizeof(key), "min_chn_%d", i);
        c->min_chn[i] = na_float(na, key, 0.0f);
        snprintf(key, sizeof(key), "var_reci_chn_%d", i);
        c->var_reci_chn[i] = na_float(na, key, 1.0f);
    }
    c->related_input_rank = (uint32_t)na_int(na, "related_input_rank");
    c->max_src_image_size = (uint32_t)na_int(na, "max_src_image_size");
}

/* "<format>:<dtype>:<name>:<bytes>:<rank>:<d0,d1,...>" (GE's AIPP input/output records). */
static oa_status parse_io(const ProtobufCBinaryData *b, oa_model_io_dims *d, aclFormat *fmt, aclDataType *dt)
{
    char s[512];
    if (b->len >= sizeof(s)) {
        return OA_FAIL(OA_E_GE_AIPP_MODE, "AIPP input/output record of %zu bytes is too long", b->len);
    }
    memcpy(s, b->data, b->len);
    s[b->len] = '\0';
    size_t colons = 0;
    for (const char *c = s; *c != '\0'; c++) {
        colons += *c == ':';
    }
    if (colons != 5) {
        return OA_FAIL(OA_E_GE_AIPP_MODE, "AIPP input/output record %s must have 6 ':'-separated fields", s);
    }
    char *f[6];
    f[0] = s;
    for (int k = 1; k < 6; k++) {
        char *q = strchr(f[k - 1], ':');
        *q = '\0';
        f[k] = q + 1;
    }
    oa_format of = OA_FORMAT_ND;
    oa_dtype od = OA_DT_FLOAT;
    (void)oa_format_from_name(f[0], &of);
    (void)oa_dtype_from_name(f[1], &od);
    *fmt = (aclFormat)of;
    *dt = (aclDataType)od;
    d->name = strdup(f[2]);
    d->size = (size_t)strtoull(f[3], NULL, 10);
    const long rank = strtol(f[4], NULL, 10);
    d->dims = calloc(OA_MAX_RANK, sizeof(int64_t));
    if (d->name == NULL || d->dims == NULL) {
        return OA_FAIL(OA_E_NOMEM, "AIPP dims");
    }
    for (char *p = f[5]; *p != '\0' && d->n_dims < OA_MAX_RANK;) {
        char *end;
        d->dims[d->n_dims++] = strtoll(p, &end, 10);
        if (end == p || (*end != ',' && *end != '\0')) {
            return OA_FAIL(OA_E_GE_AIPP_MODE, "AIPP record %s: bad dims %s", f[2], f[5]);
        }
        p = *end == ',' ? end + 1 : end;
    }
    if (rank < 0 || (size_t)rank != d->n_dims) {
        return OA_FAIL(OA_E_GE_AIPP_MODE, "AIPP record %s: rank %ld but %zu dims", f[2], rank, d->n_dims);
    }
    return OA_OK;
}

static void io_free(oa_model_io_dims *d, size_t n)
{
    for (size_t i = 0; d != NULL && i < n; i++) {
        free(d[i].name);
        free(d[i].dims);
    }
    free(d);
}

static oa_status io_list(const Ge__Proto__OpDef *op, const char *key, oa_model_io_dims **out, size_t *n,
                         oa_model_aipp *a)
{
    const Ge__Proto__AttrDef *v = attr(op, key);
    *out = NULL;
    *n = 0;
    if (v == NULL || v->value_case != GE__PROTO__ATTR_DEF__VALUE_LIST || v->list == NULL || v->list->n_s == 0) {
        return OA_OK;
    }
    const size_t k = v->list->n_s;
    if (k > MAX_GEARS) {
        return OA_FAIL(OA_E_GE_AIPP_MODE, "input %s: %zu AIPP records", op->name, k);
    }
    oa_model_io_dims *d = calloc(k, sizeof(*d));
    if (d == NULL) {
        return OA_FAIL(OA_E_NOMEM, "AIPP dims");
    }
    oa_status st = OA_OK;
    for (size_t i = 0; i < k && st == OA_OK; i++) {
        aclFormat f;
        aclDataType t;
        st = parse_io(&v->list->s[i], &d[i], &f, &t);
        if (st == OA_OK && i == 0 && a != NULL) {
            a->src_format = f;
            a->src_dtype = t;
            a->src_dim_num = d[0].n_dims;
        }
    }
    if (st != OA_OK) {
        io_free(d, k);
        return st;
    }
    *out = d;
    *n = k;
    return OA_OK;
}

static oa_status one_input(oa_model_info *info, const Ge__Proto__OpDef *op)
{
    char mode[64];
    attr_str(op, "_data_related_aipp_mode", mode, sizeof(mode));
    const Ge__Proto__AttrDef *ap = attr(op, "aipp");
    const bool has_aipp = ap != NULL && ap->value_case == GE__PROTO__ATTR_DEF__VALUE_FUNC && ap->func != NULL;
    if (!has_aipp && mode[0] == '\0') {
        return OA_OK;
    }
    if (!has_aipp || mode[0] == '\0') {
        return OA_FAIL(OA_E_GE_INTERNAL, "input %s has only one of the attrs aipp and _data_related_aipp_mode",
                       op->name);
    }
    size_t index;
    if (!oa_model_find_input(info, op->name, &index)) {
        return OA_OK; /* not a model input */
    }
    oa_model_aipp a;
    memset(&a, 0, sizeof(a));
    a.attached_index = ACL_INVALID_NODE_INDEX;
    a.has_config = true;
    config_from(ap->func, &a.config);
    if (strcmp(mode, "static_aipp") == 0) {
        a.type = ACL_DATA_WITH_STATIC_AIPP;
    } else if (strcmp(mode, "dynamic_aipp") == 0) {
        char peer[512];
        size_t attached;
        a.type = ACL_DATA_WITH_DYNAMIC_AIPP;
        if (oa_model_find_input(info, attr_str(op, "_data_aipp_data_name_map", peer, sizeof(peer)), &attached)) {
            a.attached_index = attached;
        }
    } else if (strcmp(mode, "dynamic_aipp_conf") == 0) {
        a.type = ACL_DYNAMIC_AIPP_NODE;
    } else {
        return OA_FAIL(OA_E_GE_INTERNAL, "input %s: _data_related_aipp_mode %s is not an AIPP mode", op->name, mode);
    }
    size_t n_in = 0, n_out = 0;
    oa_status st = io_list(op, "_aipp_inputs", &a.in_dims, &n_in, &a);
    if (st == OA_OK) {
        st = io_list(op, "_aipp_outputs", &a.out_dims, &n_out, NULL);
    }
    if (st == OA_OK && n_in != n_out) {
        st = OA_FAIL(OA_E_GE_AIPP_MODE, "input %s: %zu AIPP input records but %zu output records", op->name, n_in,
                     n_out);
    }
    a.n_shapes = n_in < n_out ? n_in : n_out;
    if (st == OA_OK) {
        st = oa_model_info_set_aipp(info, index, &a);
    }
    io_free(a.in_dims, n_in);
    io_free(a.out_dims, n_out);
    return st;
}

oa_status oa_om_model_aipp(oa_model_info *info, const Ge__Proto__ModelDef *def)
{
    if (def == NULL || def->n_graph == 0 || def->graph[0] == NULL) {
        return OA_OK;
    }
    const Ge__Proto__GraphDef *g = def->graph[0];
    for (size_t i = 0; i < g->n_op; i++) {
        const Ge__Proto__OpDef *op = g->op[i];
        if (op == NULL || op->name == NULL || op->type == NULL ||
            (strcmp(op->type, "Data") != 0 && strcmp(op->type, "AippData") != 0)) {
            continue;
        }
        oa_status st = one_input(info, op);
        if (st != OA_OK) {
            return st;
        }
    }
    return OA_OK;
}
