/*
 * AIPP: the `aipp` NamedAttrs codec (aipp_attrs.h) and the binding of the
 * Aipp node to the AIPP kernel (docs/aipp.md "What the .om holds",
 * "How the runtime runs it").
 */
#define OA_LOG_MODULE "GE"
#include <stddef.h>
#include <string.h>

#include "base/error.h"
#include "op_bind/aipp_attrs.h"
#include "op_bind/op_bind_internal.h"

typedef enum { K_INT, K_BOOL, K_FLOAT } kind;

typedef struct field {
    const char *name;
    kind k;
    size_t off;
} field;

#define FI(name, member) {name, K_INT, offsetof(oa_aipp_params, member)}
#define FB(name, member) {name, K_BOOL, offsetof(oa_aipp_params, member)}
#define FF(name, member) {name, K_FLOAT, offsetof(oa_aipp_params, member)}

/* the image fields of a static block, in GE's attr order */
static const field STATIC_FIELDS[] = {
    FI("input_format", input_format), FB("csc_switch", csc_switch), FF("cpadding_value", cpadding_value),
    FB("rbuv_swap_switch", rbuv_swap_switch), FB("ax_swap_switch", ax_swap_switch),
    FB("single_line_mode", single_line_mode), FI("src_image_size_w", src_image_size_w),
    FI("src_image_size_h", src_image_size_h), FB("crop", crop), FI("load_start_pos_w", load_start_pos_w),
    FI("load_start_pos_h", load_start_pos_h), FI("crop_size_w", crop_size_w), FI("crop_size_h", crop_size_h),
    FB("resize", resize), FI("resize_output_w", resize_output_w), FI("resize_output_h", resize_output_h),
    FB("padding", padding), FI("left_padding_size", left_padding_size),
    FI("right_padding_size", right_padding_size), FI("top_padding_size", top_padding_size),
    FI("bottom_padding_size", bottom_padding_size), FF("padding_value", padding_value),
    FI("mean_chn_0", mean_chn[0]), FI("mean_chn_1", mean_chn[1]), FI("mean_chn_2", mean_chn[2]),
    FI("mean_chn_3", mean_chn[3]), FF("min_chn_0", min_chn[0]), FF("min_chn_1", min_chn[1]),
    FF("min_chn_2", min_chn[2]), FF("min_chn_3", min_chn[3]), FF("var_reci_chn_0", var_reci_chn[0]),
    FF("var_reci_chn_1", var_reci_chn[1]), FF("var_reci_chn_2", var_reci_chn[2]),
    FF("var_reci_chn_3", var_reci_chn[3]), FI("matrix_r0c0", matrix[0][0]), FI("matrix_r0c1", matrix[0][1]),
    FI("matrix_r0c2", matrix[0][2]), FI("matrix_r1c0", matrix[1][0]), FI("matrix_r1c1", matrix[1][1]),
    FI("matrix_r1c2", matrix[1][2]), FI("matrix_r2c0", matrix[2][0]), FI("matrix_r2c1", matrix[2][1]),
    FI("matrix_r2c2", matrix[2][2]), FI("output_bias_0", output_bias[0]), FI("output_bias_1", output_bias[1]),
    FI("output_bias_2", output_bias[2]), FI("input_bias_0", input_bias[0]), FI("input_bias_1", input_bias[1]),
    FI("input_bias_2", input_bias[2]),
};

static oa_status put(oa_graph *g, oa_attrs *a, const field *f, const oa_aipp_params *p)
{
    const char *v = (const char *)p + f->off;
    switch (f->k) {
    case K_INT: return oa_attrs_set_int(g, a, f->name, *(const int32_t *)(const void *)v);
    case K_BOOL: return oa_attrs_set_bool(g, a, f->name, *(const bool *)(const void *)v);
    default: return oa_attrs_set_float(g, a, f->name, *(const float *)(const void *)v);
    }
}

static void get(const oa_attrs *a, const field *f, oa_aipp_params *p)
{
    char *v = (char *)p + f->off;
    int64_t i;
    bool b;
    float x;
    if (f->k == K_INT && oa_attrs_get_int(a, f->name, &i)) {
        *(int32_t *)(void *)v = (int32_t)i;
    } else if (f->k == K_BOOL && oa_attrs_get_bool(a, f->name, &b)) {
        *(bool *)(void *)v = b;
    } else if (f->k == K_FLOAT && oa_attrs_get_float(a, f->name, &x)) {
        *(float *)(void *)v = x;
    }
}

oa_status oa_aipp_attrs_set(oa_graph *g, oa_attrs *a, const oa_aipp_params *p)
{
    oa_attrs na = {0};
    oa_status st = oa_attrs_set_int(g, &na, "aipp_mode", p->aipp_mode);
    if (st == OA_OK) {
        st = oa_attrs_set_int(g, &na, "related_input_rank", p->related_input_rank);
    }
    if (p->aipp_mode == OA_AIPP_MODE_DYNAMIC) {
        if (st == OA_OK) {
            st = oa_attrs_set_int(g, &na, "max_src_image_size", p->max_src_image_size);
        }
        if (st == OA_OK) {
            st = oa_attrs_set_bool(g, &na, "support_rotation", p->support_rotation);
        }
    } else {
        for (size_t i = 0; i < sizeof(STATIC_FIELDS) / sizeof(STATIC_FIELDS[0]) && st == OA_OK; i++) {
            st = put(g, &na, &STATIC_FIELDS[i], p);
        }
    }
    return st == OA_OK ? oa_attrs_set_named(g, a, OA_AIPP_ATTR, "", &na) : st;
}

bool oa_aipp_attrs_get(const oa_attrs *a, oa_aipp_params *p)
{
    const oa_attrs *na = NULL;
    memset(p, 0, sizeof(*p));
    for (int c = 0; c < 4; c++) {
        p->var_reci_chn[c] = 1.0f;
    }
    if (!oa_attrs_get_named(a, OA_AIPP_ATTR, &na)) {
        return false;
    }
    int64_t v = 0;
    if (!oa_attrs_get_int(na, "aipp_mode", &v) || (v != OA_AIPP_MODE_STATIC && v != OA_AIPP_MODE_DYNAMIC)) {
        return false;
    }
    p->aipp_mode = (int32_t)v;
    if (oa_attrs_get_int(na, "related_input_rank", &v)) {
        p->related_input_rank = (uint32_t)v;
    }
    if (oa_attrs_get_int(na, "max_src_image_size", &v)) {
        p->max_src_image_size = (uint32_t)v;
    }
    (void)oa_attrs_get_bool(na, "support_rotation", &p->support_rotation);
    for (size_t i = 0; i < sizeof(STATIC_FIELDS) / sizeof(STATIC_FIELDS[0]); i++) {
        get(na, &STATIC_FIELDS[i], p);
    }
    return true;
}

/*
 * Aipp: images (slot 0) and, for dynamic AIPP, params (slot 1). The output
 * desc is the model input before AIPP (4-D NCHW or NHWC, float32). Static:
 * source size 0 means the model's H/W, a crop size 0 the model's H/W
 * (docs/aipp.md "Model input").
 */
oa_status oa_bind_aipp(oa_bctx *c)
{
    oa_op_bind *b = c->b;
    const oa_node *n = c->n;
    oa_aipp_params p;
    if (!oa_aipp_attrs_get(&n->attrs, &p)) {
        return BFAIL(c, OA_E_PARAM, "attr %s (aipp_mode static or dynamic) is missing", OA_AIPP_ATTR);
    }
    const oa_tensor_desc *y = &n->outputs[0].desc;
    if (y->shape.rank != 4 || y->dtype != OA_DT_FLOAT ||
        (y->format != OA_FORMAT_NCHW && y->format != OA_FORMAT_NHWC && y->format != OA_FORMAT_ND)) {
        return BFAIL(c, OA_E_PARAM, "the output must be a 4-D float32 NCHW or NHWC tensor");
    }
    const bool nhwc = y->format == OA_FORMAT_NHWC;
    b->type = OA_KOP_AIPP;
    b->has_params = true;
    oa_kaipp_params *kp = &b->params.aipp;
    kp->nhwc = nhwc;
    kp->n = y->shape.dims[0];
    kp->out_c = (int)y->shape.dims[nhwc ? 3 : 1];
    kp->out_h = (int32_t)y->shape.dims[nhwc ? 1 : 2];
    kp->out_w = (int32_t)y->shape.dims[nhwc ? 2 : 3];
    const bool dynamic = p.aipp_mode == OA_AIPP_MODE_DYNAMIC;
    if (!dynamic) {
        if (p.src_image_size_w == 0 || p.src_image_size_h == 0) {
            p.src_image_size_w = kp->out_w;
            p.src_image_size_h = kp->out_h;
        }
        if (p.crop && p.crop_size_w == 0) {
            p.crop_size_w = kp->out_w;
        }
        if (p.crop && p.crop_size_h == 0) {
            p.crop_size_h = kp->out_h;
        }
        const size_t at = (c->synth_used + 15u) & ~(size_t)15u;
        if (at + sizeof(p) > c->synth_cap) {
            return BFAIL(c, OA_E_INTERNAL, "AIPP parameters do not fit the binding");
        }
        oa_aipp_params *keep = (oa_aipp_params *)(void *)((uint8_t *)b->synth + at);
        *keep = p;
        c->synth_used = at + sizeof(p);
        kp->aipp = keep;
    }
    oa_status st = oa_bind_in(c, 0, true, false);
    if (st == OA_OK) {
        st = dynamic ? oa_bind_in(c, 1, true, false) : OA_OK;
    }
    return st == OA_OK ? oa_bind_out(c, 0) : st;
}
