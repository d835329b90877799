/*
 * atc --insert_op_conf: one Aipp node after each configured model input, as
 * GE's AIPP insertion does (docs/aipp.md "What the .om holds").
 *
 *   Data (raw u8 image) ──▶ Aipp ──▶ the input's former consumers
 *   AippData (dynamic only) ──┘
 */
#define OA_LOG_MODULE "GE"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "compiler/aipp_config.h"
#include "compiler/pass_util.h"
#include "op_bind/aipp_attrs.h"

static oa_status find_data(oa_graph *g, const oa_aipp_config *cfg, int i, oa_node **out)
{
    const oa_aipp_params *p = &cfg->ops[i];
    oa_node *d = NULL;
    if (p->related_input_name[0] != '\0') {
        d = oa_graph_find_node(g, p->related_input_name);
        if (d == NULL || d->type != OA_OP_DATA) {
            return OA_FAIL(OA_E_PARAM,
                           "E10052: Cannot find the data node by aipp parameter related_input_name %s (aipp_op at "
                           "line %d).",
                           p->related_input_name, cfg->op_line[i]);
        }
    } else {
        d = oa_graph_input(g, p->related_input_rank);
        if (d == NULL) {
            return OA_FAIL(OA_E_PARAM,
                           "E10052: Cannot find the data node by aipp parameter related_input_rank %u (aipp_op at "
                           "line %d).",
                           p->related_input_rank, cfg->op_line[i]);
        }
    }
    if (oa_attrs_find(&d->attrs, "_data_related_aipp_mode") != NULL) {
        return OA_FAIL(OA_E_PARAM, "E10052: Cannot insert aipp to the same position: input %s (aipp_op at line %d).",
                       d->name, cfg->op_line[i]);
    }
    *out = d;
    return OA_OK;
}

/* The checks of the model input an aipp_op block applies to; fills the raw-image dims and byte size per image. */
static oa_status check_input(const oa_aipp_config *cfg, int i, const oa_node *d, int64_t gear_max, bool hw_gears,
                             int64_t raw[4], size_t *bytes)
{
    const oa_aipp_params *p = &cfg->ops[i];
    const oa_tensor_desc *x = &d->outputs[0].desc;
    const int line = cfg->op_line[i];
    if (x->shape.rank != 4) {
        return OA_FAIL(OA_E_PARAM,
                       "E10001: Value %s for parameter aipp_op.related_input_rank is invalid. Reason: AIPP needs "
                       "a 4-D input (aipp_op at line %d).",
                       d->name, line);
    }
    if (x->dtype != OA_DT_FLOAT) {
        return OA_FAIL(OA_E_PARAM,
                       "E10034: Input %s is %s; AIPP can only be inserted before a DT_FLOAT input (aipp_op at line "
                       "%d; --input_fp16_nodes and AIPP exclude each other).",
                       d->name, oa_dtype_name(x->dtype), line);
    }
    if (x->has_range) {
        return OA_FAIL(OA_E_FEATURE_UNSUPPORTED,
                       "E10055: The operation is not supported. Reason: AIPP on input %s, which has a shape range "
                       "(--input_shape_range), is not supported (aipp_op at line %d).",
                       d->name, line);
    }
    const bool nhwc = x->format == OA_FORMAT_NHWC;
    int64_t dims[4];
    memcpy(dims, x->shape.dims, sizeof(dims));
    const bool dyn_batch = dims[0] < 0;
    if (dyn_batch && gear_max <= 0) {
        return OA_FAIL(OA_E_PARAM,
                       "E10001: Value %s for parameter aipp_op.related_input_rank is invalid. Reason: AIPP needs "
                       "a static input or --dynamic_batch_size (aipp_op at line %d).",
                       d->name, line);
    }
    if (dyn_batch) {
        dims[0] = 1;
    }
    const int ha = nhwc ? 1 : 2, wa = nhwc ? 2 : 3;
    const bool dyn_hw = dims[ha] < 0 || dims[wa] < 0;
    if (dyn_hw && hw_gears) {
        /* --dynamic_image_size: the image is the gear's H x W (GE's CheckAndCopyAippOpParams) */
        if (p->aipp_mode == OA_AIPP_MODE_DYNAMIC) {
            return OA_FAIL(OA_E_FEATURE_UNSUPPORTED,
                           "E10055: The operation is not supported. Reason: dynamic AIPP on input %s together with "
                           "--dynamic_image_size is not supported yet (aipp_op at line %d).",
                           d->name, line);
        }
        if (p->crop || p->padding || p->src_image_size_w != 0 || p->src_image_size_h != 0) {
            return OA_FAIL(OA_E_PARAM,
                           "E10052: With --dynamic_image_size, aipp_op at line %d must leave crop and padding false "
                           "and src_image_size_w/h 0 (input %s).",
                           line, d->name);
        }
        dims[ha] = dims[wa] = 2; /* any even size: the checks above fixed the rest */
    } else if (dyn_hw) {
        return OA_FAIL(OA_E_PARAM,
                       "E10001: Value %s for parameter aipp_op.related_input_rank is invalid. Reason: AIPP needs "
                       "a static height and width or --dynamic_image_size (aipp_op at line %d).",
                       d->name, line);
    }
    oa_status st = oa_aipp_model_input(p, d->name, dims, !nhwc, raw, bytes);
    if (st != OA_OK) {
        return st;
    }
    if (dyn_batch) {
        raw[0] = -1; /* *bytes stays the size of one image */
    }
    if (dyn_hw) {
        raw[1] = raw[2] = -1;
    }
    return OA_OK;
}

/* GE's AippData: the u8 parameter block input of a dynamic AIPP. */
static oa_status add_aipp_data(oa_graph *g, oa_node *d, oa_node *aipp, const oa_aipp_params *p, int64_t batch,
                               bool first)
{
    char name[600];
    if (first) {
        snprintf(name, sizeof(name), "ascend_dynamic_aipp_data");
    } else {
        snprintf(name, sizeof(name), "ascend_dynamic_aipp_data_%s", aipp->name);
    }
    const char *nm = oa_graph_unique_name(g, name);
    const int64_t size = 64 + 96 * batch;
    const oa_shape s = oa_shape_make(1, &size);
    oa_node *ad = NULL;
    oa_status st = nm != NULL ? oa_graph_add_data(g, nm, (int64_t)oa_graph_num_inputs(g), OA_DT_UINT8, &s,
                                                  OA_FORMAT_ND, &ad)
                              : OA_E_NOMEM;
    if (st == OA_OK) {
        ad->type_name = OA_OP_AIPP_DATA_TYPE;
        st = oa_aipp_attrs_set(g, &ad->attrs, p);
    }
    if (st == OA_OK) {
        st = oa_node_set_str(ad, "_data_related_aipp_mode", "dynamic_aipp_conf");
    }
    if (st == OA_OK) {
        st = oa_node_set_str(ad, "_data_aipp_data_name_map", d->name);
    }
    if (st == OA_OK) {
        st = oa_node_set_str(d, "_data_aipp_data_name_map", ad->name);
    }
    if (st == OA_OK) {
        st = oa_node_connect(aipp, 1, ad, 0);
    }
    return st;
}

/*
 * GE's `_aipp_inputs` / `_aipp_outputs` of Data d: one
 * "<format>:<dtype>:<name>:<bytes>:<rank>:<dims>" string per gear (dims of
 * gear i: gdims[i], -1 kept), the model input before AIPP (name = the
 * input's) and the Aipp output (name `features`); both are the same tensor
 * here.
 */
static oa_status record_io(oa_graph *g, oa_node *d, const char *fmt, const char *dt, const int64_t (*gdims)[4],
                           size_t n)
{
    const char **in = oa_arena_array(oa_graph_arena(g), n, sizeof(char *));
    const char **out = oa_arena_array(oa_graph_arena(g), n, sizeof(char *));
    if (in == NULL || out == NULL) {
        return OA_E_NOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        const int64_t *v = gdims[i];
        int64_t bytes = 4;
        for (int k = 0; k < 4; k++) {
            bytes *= v[k] > 0 ? v[k] : 0;
        }
        for (int side = 0; side < 2; side++) {
            const char *s = oa_arena_printf(oa_graph_arena(g), "%s:%s:%s:%lld:4:%lld,%lld,%lld,%lld", fmt, dt,
                                            side == 0 ? d->name : "features", (long long)bytes, (long long)v[0],
                                            (long long)v[1], (long long)v[2], (long long)v[3]);
            if (s == NULL) {
                return OA_E_NOMEM;
            }
            (side == 0 ? in : out)[i] = s;
        }
    }
    oa_status st = oa_node_set_list_str(d, "_aipp_inputs", in, n);
    return st == OA_OK ? oa_node_set_list_str(d, "_aipp_outputs", out, n) : st;
}

oa_status oa_aipp_record_gears(oa_graph *root, bool image, const int64_t *rows, size_t n)
{
    int64_t(*gdims)[4] = calloc(n ? n : 1, sizeof(*gdims));
    if (gdims == NULL) {
        return OA_FAIL(OA_E_NOMEM, "out of memory");
    }
    oa_status st = OA_OK;
    for (size_t i = 0; i < oa_graph_num_inputs(root) && st == OA_OK; i++) {
        oa_node *d = oa_graph_input(root, (int64_t)i);
        const char *const *v = NULL;
        size_t nv = 0;
        const int64_t *dims = NULL;
        size_t nd = 0;
        if (d == NULL || !oa_attrs_get_list_str(&d->attrs, "_aipp_inputs", &v, &nv) || nv == 0 ||
            !oa_attrs_get_list_int(&d->attrs, "input_dims", &dims, &nd) || nd != 4) {
            continue;
        }
        char fmt[32] = "", dt[32] = "";
        if (sscanf(v[0], "%31[^:]:%31[^:]:", fmt, dt) != 2) {
            st = OA_FAIL(OA_E_INTERNAL, "input %s: bad _aipp_inputs entry %s", d->name, v[0]);
            break;
        }
        const bool nhwc = strcmp(fmt, "NHWC") == 0;
        for (size_t k = 0; k < n; k++) {
            memcpy(gdims[k], dims, sizeof(gdims[k]));
            if (image) {
                gdims[k][nhwc ? 1 : 2] = rows[2 * k];
                gdims[k][nhwc ? 2 : 3] = rows[2 * k + 1];
            } else {
                gdims[k][0] = rows[k];
            }
        }
        st = record_io(root, d, fmt, dt, (const int64_t(*)[4])gdims, n);
    }
    free(gdims);
    return st;
}

static oa_status insert_one(oa_graph *g, const oa_aipp_config *cfg, int i, int64_t gear_max, bool hw_gears,
                            bool *first_dynamic)
{
    const oa_aipp_params *p = &cfg->ops[i];
    oa_node *d = NULL;
    int64_t raw[4];
    size_t bytes = 0;
    oa_status st = find_data(g, cfg, i, &d);
    if (st == OA_OK) {
        st = check_input(cfg, i, d, gear_max, hw_gears, raw, &bytes);
    }
    if (st != OA_OK) {
        return st;
    }
    const bool dynamic = p->aipp_mode == OA_AIPP_MODE_DYNAMIC;
    const oa_tensor_desc orig = d->outputs[0].desc;
    char name[600];
    snprintf(name, sizeof(name), "%s_0_aipp", d->name);
    const char *nm = oa_graph_unique_name(g, name);
    oa_node *a = NULL;
    st = nm != NULL ? oa_graph_add_node(g, OA_OP_AIPP, nm, 2, 1, &a) : OA_E_NOMEM;
    if (st == OA_OK && oa_cp_num_uses(d, 0) > 0) {
        st = oa_graph_insert_after(d, 0, a, 0, 0);
    } else if (st == OA_OK) {
        st = oa_node_connect(a, 0, d, 0);
    }
    if (st == OA_OK) {
        a->outputs[0].desc = orig;
        memset(&a->outputs[0].desc.attrs, 0, sizeof(oa_attrs));
    }
    if (st == OA_OK) {
        st = oa_aipp_attrs_set(g, &a->attrs, p);
    }
    if (st == OA_OK) {
        st = oa_node_set_int(a, "current_aipp_index", i);
    }
    if (st == OA_OK) {
        st = oa_node_set_list_int(a, "input_dims", orig.shape.dims, 4);
    }
    /* the model input becomes the raw image (docs/aipp.md "What the .om holds") */
    oa_shape rs;
    const int64_t batch = raw[0] < 0 ? gear_max : raw[0]; /* the largest gear's under batch gears */
    if (dynamic && raw[0] < 0) {
        /* batch gears: [-1, bytes per image] so that every gear takes its images' bytes */
        const int64_t per[2] = {-1, ((int64_t)p->max_src_image_size + gear_max - 1) / gear_max};
        rs = oa_shape_make(2, per);
    } else if (dynamic) {
        const int64_t max = (int64_t)p->max_src_image_size;
        rs = oa_shape_make(1, &max);
    } else {
        int64_t desc_dims[4] = {raw[0], raw[1], raw[2], raw[3]};
        if (p->input_format == OA_AIPP_FMT_YUV420SP_U8 && raw[1] > 0) {
            desc_dims[1] = raw[1] * 3 / 2; /* NV12: 1.5 rows of W bytes per image row */
        }
        rs = oa_shape_make(4, desc_dims);
    }
    for (int k = 0; k < 2 && st == OA_OK; k++) {
        oa_tensor_desc *x = k == 0 ? &d->inputs[0].desc : &d->outputs[0].desc;
        x->dtype = OA_DT_UINT8;
        x->shape = rs;
        x->format = dynamic ? OA_FORMAT_ND : OA_FORMAT_NHWC;
        x->origin_format = x->format;
        x->origin_shape_set = false;
        x->has_range = false;
        x->value = NULL;
    }
    if (st == OA_OK) {
        a->inputs[0].desc = d->outputs[0].desc;
        memset(&a->inputs[0].desc.attrs, 0, sizeof(oa_attrs));
    }
    if (st == OA_OK && oa_attrs_find(&d->attrs, "data_type") != NULL) {
        st = oa_node_set_int(d, "data_type", OA_DT_UINT8);
    }
    if (st == OA_OK) {
        st = oa_node_set_str(d, "_data_related_aipp_mode", dynamic ? "dynamic_aipp" : "static_aipp");
    }
    if (st == OA_OK) {
        st = oa_aipp_attrs_set(g, &d->attrs, p);
    }
    if (st == OA_OK) {
        st = oa_node_set_list_int(d, "input_dims", orig.shape.dims, 4);
    }
    if (st == OA_OK) {
        const int64_t dyn[4] = {raw[0], -1, -1, -1};
        st = oa_node_set_list_int(d, dynamic ? "_dynamic_aipp_input_dims" : OA_AIPP_INPUT_DIMS_ATTR,
                                  dynamic ? dyn : raw, 4);
    }
    if (st == OA_OK) {
        int64_t od[1][4];
        memcpy(od[0], orig.shape.dims, sizeof(od[0]));
        st = record_io(g, d, oa_format_name(orig.format), oa_dtype_name(orig.dtype), (const int64_t(*)[4])od, 1);
    }
    if (st == OA_OK && dynamic) {
        st = add_aipp_data(g, d, a, p, batch, *first_dynamic);
        *first_dynamic = false;
    }
    return st;
}

oa_status oa_pass_insert_aipp(oa_graph *g, const oa_aipp_config *cfg, int64_t gear_max, bool hw_gears)
{
    bool first_dynamic = true;
    for (int i = 0; cfg != NULL && i < cfg->n_ops; i++) {
        oa_status st = insert_one(g, cfg, i, gear_max, hw_gears, &first_dynamic);
        if (st != OA_OK) {
            return st;
        }
    }
    return OA_OK;
}
