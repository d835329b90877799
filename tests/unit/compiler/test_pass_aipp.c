/*
 * The AIPP insertion pass (src/compiler/pass_aipp.c, docs/aipp.md "What the
 * .om holds"): the Aipp node, the raw-image Data, the AippData input of
 * dynamic AIPP, the attrs the loader reads, and the refusals.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "base/error.h"
#include "compiler/aipp_config.h"
#include "graph/infer.h"
#include "op_bind/aipp_attrs.h"

#define OK(x) assert_int_equal((x), OA_OK)

/* x [1,3,4,4] float (NCHW) -> Relu -> out; y [1,3,4,4] float16 -> Relu -> out2 */
static oa_graph *net(void)
{
    oa_graph *g = NULL;
    OK(oa_graph_create("net", &g));
    const oa_shape s = oa_shape_make(4, (const int64_t[]){1, 3, 4, 4});
    oa_node *x, *y, *r1, *r2, *out;
    OK(oa_graph_add_data(g, "x", 0, OA_DT_FLOAT, &s, OA_FORMAT_NCHW, &x));
    OK(oa_graph_add_data(g, "y", 1, OA_DT_FLOAT16, &s, OA_FORMAT_NCHW, &y));
    OK(oa_graph_add_node(g, OA_OP_RELU, "r1", 1, 1, &r1));
    OK(oa_graph_add_node(g, OA_OP_RELU, "r2", 1, 1, &r2));
    OK(oa_node_connect(r1, 0, x, 0));
    OK(oa_node_connect(r2, 0, y, 0));
    OK(oa_graph_add_net_output(g, "out", 2, &out));
    OK(oa_node_connect(out, 0, r1, 0));
    OK(oa_node_connect(out, 1, r2, 0));
    OK(oa_graph_infer(g));
    return g;
}

static oa_status insert(oa_graph *g, const char *cfg_text)
{
    static oa_aipp_config cfg;
    (void)oa_error_take_messages();
    oa_status st = oa_aipp_config_parse(cfg_text, strlen(cfg_text), "aipp.cfg", &cfg);
    return st == OA_OK ? oa_pass_insert_aipp(g, &cfg, 0, false) : st;
}

static void expect_dims(const oa_shape *s, int rank, const int64_t *d)
{
    assert_int_equal(s->rank, rank);
    for (int k = 0; k < rank; k++) {
        assert_int_equal(s->dims[k], d[k]);
    }
}

static void static_yuv420sp(void **state)
{
    (void)state;
    oa_graph *g = net();
    OK(insert(g, "aipp_op {\n aipp_mode: static\n input_format: YUV420SP_U8\n src_image_size_w: 6\n"
                 " src_image_size_h: 6\n crop: true\n load_start_pos_w: 2\n load_start_pos_h: 2\n crop_size_w: 4\n"
                 " crop_size_h: 4\n mean_chn_0: 7\n}\n"));
    OK(oa_graph_infer(g));
    const oa_node *x = oa_graph_find_node(g, "x");
    const oa_node *a = oa_graph_find_node(g, "x_0_aipp");
    assert_non_null(a);
    assert_int_equal(a->type, OA_OP_AIPP);
    assert_ptr_equal(a->inputs[0].src, x);
    assert_ptr_equal(oa_graph_find_node(g, "r1")->inputs[0].src, a);
    /* the Aipp output is the former input */
    assert_int_equal(a->outputs[0].desc.dtype, OA_DT_FLOAT);
    expect_dims(&a->outputs[0].desc.shape, 4, (const int64_t[]){1, 3, 4, 4});
    /* the Data is the raw NV12 image: 1.5 rows per image row in the desc, [1,6,6,1] reported */
    assert_int_equal(x->outputs[0].desc.dtype, OA_DT_UINT8);
    assert_int_equal(x->outputs[0].desc.format, OA_FORMAT_NHWC);
    expect_dims(&x->outputs[0].desc.shape, 4, (const int64_t[]){1, 9, 6, 1});
    const int64_t *v;
    size_t n;
    assert_true(oa_attrs_get_list_int(&x->attrs, OA_AIPP_INPUT_DIMS_ATTR, &v, &n));
    assert_int_equal(n, 4);
    assert_int_equal(v[1], 6);
    assert_true(oa_attrs_get_list_int(&x->attrs, "input_dims", &v, &n));
    assert_int_equal(v[1], 3);
    assert_string_equal(oa_node_attr_str(x, "_data_related_aipp_mode", ""), "static_aipp");
    const char *const *io;
    assert_true(oa_attrs_get_list_str(&x->attrs, "_aipp_inputs", &io, &n));
    assert_int_equal(n, 1);
    assert_string_equal(io[0], "NCHW:DT_FLOAT:x:192:4:1,3,4,4");
    /* the aipp NamedAttrs decode back to the block */
    oa_aipp_params p;
    assert_true(oa_aipp_attrs_get(&a->attrs, &p));
    assert_int_equal(p.input_format, OA_AIPP_FMT_YUV420SP_U8);
    assert_int_equal(p.load_start_pos_w, 2);
    assert_int_equal(p.mean_chn[0], 7);
    assert_true(p.var_reci_chn[1] == 1.0f);
    assert_true(oa_aipp_attrs_get(&x->attrs, &p));
    oa_graph_destroy(g);
}

static void dynamic_adds_aipp_data(void **state)
{
    (void)state;
    oa_graph *g = net();
    OK(insert(g, "aipp_op {\n aipp_mode: dynamic\n max_src_image_size: 100\n}\n"));
    OK(oa_graph_infer(g));
    assert_int_equal(oa_graph_num_inputs(g), 3);
    const oa_node *ad = oa_graph_input(g, 2);
    assert_non_null(ad);
    assert_string_equal(ad->name, "ascend_dynamic_aipp_data");
    assert_string_equal(ad->type_name, "AippData");
    assert_int_equal(ad->type, OA_OP_DATA);
    expect_dims(&ad->outputs[0].desc.shape, 1, (const int64_t[]){64 + 96});
    assert_string_equal(oa_node_attr_str(ad, "_data_related_aipp_mode", ""), "dynamic_aipp_conf");
    assert_string_equal(oa_node_attr_str(ad, "_data_aipp_data_name_map", ""), "x");
    const oa_node *x = oa_graph_find_node(g, "x");
    assert_string_equal(oa_node_attr_str(x, "_data_aipp_data_name_map", ""), "ascend_dynamic_aipp_data");
    expect_dims(&x->outputs[0].desc.shape, 1, (const int64_t[]){100});
    const int64_t *v;
    size_t n;
    assert_true(oa_attrs_get_list_int(&x->attrs, "_dynamic_aipp_input_dims", &v, &n));
    assert_int_equal(n, 4);
    assert_int_equal(v[0], 1);
    assert_int_equal(v[1], -1);
    assert_ptr_equal(oa_graph_find_node(g, "x_0_aipp")->inputs[1].src, ad);
    /* the type name survives a clone (gear branches are clones) */
    oa_graph *c = NULL;
    OK(oa_graph_clone(g, &c));
    assert_string_equal(oa_graph_input(c, 2)->type_name, "AippData");
    oa_graph_destroy(c);
    oa_graph_destroy(g);
}

static void refusals(void **state)
{
    (void)state;
    oa_graph *g = net();
    assert_int_equal(insert(g, "aipp_op {\n aipp_mode: static\n related_input_rank: 1\n input_format: RGB888_U8\n}\n"),
                     OA_E_PARAM);
    assert_non_null(strstr(oa_error_take_messages(), "E10034"));
    assert_int_equal(insert(g, "aipp_op {\n aipp_mode: static\n related_input_rank: 5\n input_format: RGB888_U8\n}\n"),
                     OA_E_PARAM);
    assert_non_null(strstr(oa_error_take_messages(), "related_input_rank 5"));
    assert_int_equal(insert(g, "aipp_op {\n aipp_mode: static\n input_format: RAW10\n}\n"), OA_E_FEATURE_UNSUPPORTED);
    assert_non_null(strstr(oa_error_take_messages(), "aipp_op.input_format RAW10"));
    assert_int_equal(insert(g, "aipp_op {\n aipp_mode: static\n input_format: XRGB8888_U8\n src_image_size_w: 8\n"
                               " src_image_size_h: 8\n}\n"),
                     OA_E_PARAM);
    assert_non_null(strstr(oa_error_take_messages(), "the model input is 4x4"));
    oa_graph_destroy(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(static_yuv420sp),
        cmocka_unit_test(dynamic_adds_aipp_data),
        cmocka_unit_test(refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
