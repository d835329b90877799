/*
 * Single-op model files: what oa_opmodel_write produces parses back to the
 * same signature (types, formats, dims, ranges, constants, attributes of
 * every kind); a ModelDef in CANN's own style (layout strings, storage
 * format and memory type attrs, internal ATTR_MODEL_ keys to drop) parses;
 * the failure codes of the parser; aclopLoad and aclopSetModelDir (the
 * *.om filter, depth 3, unreadable files, REPEAT_INITIALIZE); the atc
 * --singleop JSON and CANN's file naming.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "acl/acl.h"
#include "acl_op/op_internal.h"
#include "acl_op/op_load.h"
#include "acl_op/op_singleop.h"
#include "om/om_arena.h"
#include "om/om_format.h"
#include "om_ir/om_ir.h"
#include "om/om_pb.h"

static char g_dir[128];

static void expect_fail(aclError got, aclError want, const char *part)
{
    assert_int_equal(got, want);
    const char *m = aclGetRecentErrMsg();
    assert_non_null(m);
    if (part != NULL && strstr(m, part) == NULL) {
        fail_msg("message [%s] does not mention [%s]", m, part);
    }
}

static int setup_dir(void **state)
{
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/oa_test_op_model_%d", (int)getpid());
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir -p %s", g_dir, g_dir);
    assert_int_equal(system(cmd), 0);
    oa_opcache_reset_for_tests();
    oa_aclop_reset_model_dir_for_tests();
    (void)aclGetRecentErrMsg();
    return 0;
}

static int teardown_dir(void **state)
{
    (void)state;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf %s", g_dir);
    assert_int_equal(system(cmd), 0);
    oa_opcache_reset_for_tests();
    return 0;
}

static oa_opspec_tensor tensor(aclDataType dt, aclFormat f, size_t n, const int64_t *dims)
{
    oa_opspec_tensor t;
    memset(&t, 0, sizeof t);
    t.dtype = dt;
    t.format = f;
    t.dims = dims;
    t.ndims = n;
    return t;
}

static void write_file(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    if (n > 0) {
        assert_int_equal(fwrite(data, 1, n, f), n);
    }
    fclose(f);
}

/* ---- round trip ---- */

static void written_models_parse_back_to_their_signature(void **state)
{
    (void)state;
    static const int64_t dx[4] = {1, 3, 8, 8}, dw[4] = {4, 3, 3, 3}, db[1] = {4}, dy[4] = {1, 4, 8, 8};
    float bias[4] = {0.5f, 1, 2, 3};
    oa_opspec_tensor in[4] = {tensor(ACL_FLOAT, ACL_FORMAT_NCHW, 4, dx), tensor(ACL_FLOAT, ACL_FORMAT_NCHW, 4, dw),
                              tensor(ACL_FLOAT, ACL_FORMAT_ND, 1, db), tensor(ACL_DT_UNDEFINED, ACL_FORMAT_UNDEFINED, 0, NULL)};
    in[2].is_const = true;
    in[2].const_data = bias;
    in[2].const_len = sizeof bias;
    in[3].absent = true;
    oa_opspec_tensor out[1] = {tensor(ACL_FLOAT, ACL_FORMAT_NCHW, 4, dy)};
    out[0].name = "y";
    aclopAttr *a = aclopCreateAttr();
    const int64_t strides[4] = {1, 1, 1, 1}, pads[4] = {1, 1, 1, 1};
    const float lf[2] = {0.25f, -2};
    const uint8_t lb[2] = {1, 0};
    const char *ls[2] = {"a", "bc"};
    const aclDataType ld[2] = {ACL_FLOAT16, ACL_INT8};
    const int64_t r0[2] = {1, 2}, r1[1] = {7};
    const int64_t *const rows[2] = {r0, r1};
    const int lens[2] = {2, 1};
    assert_int_equal(aclopSetAttrListInt(a, "strides", 4, strides), ACL_SUCCESS);
    assert_int_equal(aclopSetAttrListInt(a, "pads", 4, pads), ACL_SUCCESS);
    assert_int_equal(aclopSetAttrString(a, "data_format", "NCHW"), ACL_SUCCESS);
    assert_int_equal(aclopSetAttrInt(a, "groups", 1), ACL_SUCCESS);
    assert_int_equal(aclopSetAttrFloat(a, "_f", 1.5f), ACL_SUCCESS);
    assert_int_equal(aclopSetAttrBool(a, "_b", 1), ACL_SUCCESS);
    assert_int_equal(aclopSetAttrDataType(a, "_dt", ACL_BF16), ACL_SUCCESS);
    assert_int_equal(aclopSetAttrListFloat(a, "_lf", 2, lf), ACL_SUCCESS);
    assert_int_equal(aclopSetAttrListBool(a, "_lb", 2, lb), ACL_SUCCESS);
    assert_int_equal(aclopSetAttrListString(a, "_ls", 2, ls), ACL_SUCCESS);
    assert_int_equal(aclopSetAttrListDataType(a, "_ld", 2, ld), ACL_SUCCESS);
    assert_int_equal(aclopSetAttrListListInt(a, "_lli", 2, lens, rows), ACL_SUCCESS);
    const oa_opspec spec = {.type = "Conv2D", .attr = a, .n_in = 4, .n_out = 1, .in = in, .out = out};
    uint8_t *img = NULL;
    size_t len = 0;
    assert_int_equal(oa_opmodel_write(&spec, "Ascend910B1", "atc --singleop=x.json", NULL, &img, &len), OA_OK);

    oa_opmodel *m = NULL;
    assert_int_equal(oa_opmodel_parse(img, len, "conv.om", &m), OA_OK);
    assert_string_equal(m->type, "Conv2D");
    assert_int_equal(m->n_in, 4);
    assert_int_equal(m->n_out, 1);
    assert_false(oa_opmodel_is_dynamic(m));
    assert_int_equal(m->in[0].data_type, ACL_FLOAT);
    assert_int_equal(m->in[0].format, ACL_FORMAT_NCHW);
    assert_int_equal(m->in[0].storage_format, ACL_FORMAT_UNDEFINED);
    assert_int_equal(m->in[0].dim_count, 4);
    assert_int_equal(m->in[0].dims[3], 8);
    assert_int_equal(m->in[0].mem_type, ACL_MEMTYPE_DEVICE);
    assert_false(m->in[0].is_const);
    assert_true(m->in[2].is_const);
    assert_int_equal(m->in[2].const_data_len, sizeof bias);
    assert_memory_equal(m->in[2].const_data, bias, sizeof bias);
    /* the absent optional input is what a request passes for it */
    assert_int_equal(m->in[3].data_type, ACL_DT_UNDEFINED);
    assert_int_equal(m->in[3].format, ACL_FORMAT_UNDEFINED);
    assert_int_equal(m->in[3].dim_count, 0);
    assert_int_equal(m->out[0].dims[1], 4);
    assert_string_equal(aclGetTensorDescName(&m->out[0]), "y");
    assert_true(oa_opattr_equal(m->attr, a));
    oa_opmodel_unref(m);

    /* the constant's WEIGHTS_DATA starts 64-byte aligned in the file (om README "Weights alignment") */
    oa_om_container cont;
    assert_int_equal(oa_om_container_parse(img, len, &cont), OA_OK);
    const oa_om_partition *wp = oa_om_table_find(&cont.tables[0], OA_OM_PART_WEIGHTS_DATA);
    assert_non_null(wp);
    assert_int_equal((size_t)(wp->data - img) % 64, 0);
    oa_om_container_deinit(&cont);

    /* the image is an ordinary .om too */
    oa_graph *g = NULL;
    oa_om_model *om = NULL;
    assert_int_equal(oa_om_model_open_memory(img, len, 0, &om), OA_OK);
    assert_int_equal(oa_om_graph_from_model(om, 0, &g, NULL), OA_OK);
    assert_non_null(oa_graph_find_node(g, "Conv2D"));
    oa_graph_destroy(g);
    free(img);
    aclopDestroyAttr(a);
}

static void dynamic_models_keep_their_ranges(void **state)
{
    (void)state;
    static const int64_t dx[2] = {-1, 16}, ur[1] = {-2};
    static const int64_t rx[2][2] = {{1, 32}, {16, 16}};
    oa_opspec_tensor in[2] = {tensor(ACL_FLOAT16, ACL_FORMAT_ND, 2, dx), tensor(ACL_FLOAT16, ACL_FORMAT_ND, 1, ur)};
    in[0].range = rx;
    in[0].nrange = 2;
    oa_opspec_tensor out[1] = {tensor(ACL_FLOAT16, ACL_FORMAT_ND, 1, ur)};
    const oa_opspec spec = {.type = "Add", .n_in = 2, .n_out = 1, .in = in, .out = out};
    uint8_t *img = NULL;
    size_t len = 0;
    assert_int_equal(oa_opmodel_write(&spec, NULL, NULL, NULL, &img, &len), OA_OK);
    oa_opmodel *m = NULL;
    assert_int_equal(oa_opmodel_parse(img, len, "add.om", &m), OA_OK);
    assert_true(oa_opmodel_is_dynamic(m));
    assert_int_equal(m->in[0].dims[0], -1);
    assert_int_equal(m->in[0].shape_range_count, 2);
    assert_int_equal(m->in[0].shape_range[0][1], 32);
    assert_int_equal(m->in[1].dim_count, 1);
    assert_int_equal(m->in[1].dims[0], -2);
    assert_int_equal(m->in[1].shape_range_count, 0);
    oa_opmodel_unref(m);
    free(img);
}

/* ---- a ModelDef written the way CANN's ATC writes it ---- */

static Ge__Proto__AttrDef *mk_attr(oa_om_arena *a)
{
    Ge__Proto__AttrDef *v = oa_om_arena_alloc(a, sizeof(*v));
    ge__proto__attr_def__init(v);
    return v;
}

static Ge__Proto__AttrMapEntry *mk_entry(oa_om_arena *a, const char *key, Ge__Proto__AttrDef *v)
{
    Ge__Proto__AttrMapEntry *e = oa_om_arena_alloc(a, sizeof(*e));
    ge__proto__attr_map_entry__init(e);
    e->key.data = (uint8_t *)oa_om_arena_strndup(a, key, strlen(key));
    e->key.len = strlen(key);
    e->value = v;
    return e;
}

static Ge__Proto__AttrDef *i_attr(oa_om_arena *a, int64_t i)
{
    Ge__Proto__AttrDef *v = mk_attr(a);
    v->value_case = GE__PROTO__ATTR_DEF__VALUE_I;
    v->i = i;
    return v;
}

static Ge__Proto__AttrDef *s_attr(oa_om_arena *a, const char *s)
{
    Ge__Proto__AttrDef *v = mk_attr(a);
    v->value_case = GE__PROTO__ATTR_DEF__VALUE_S;
    v->s.data = (uint8_t *)oa_om_arena_strndup(a, s, strlen(s));
    v->s.len = strlen(s);
    return v;
}

/* A TensorDef: proto dtype, layout string, dims, and extra attrs. */
static Ge__Proto__TensorDef *mk_tensor(oa_om_arena *a, int proto_dt, const char *layout, size_t n, const int64_t *dims,
                                       Ge__Proto__AttrMapEntry **attrs, size_t n_attrs)
{
    Ge__Proto__TensorDef *t = oa_om_arena_alloc(a, sizeof(*t));
    Ge__Proto__TensorDescriptor *d = oa_om_arena_alloc(a, sizeof(*d));
    Ge__Proto__ShapeDef *s = oa_om_arena_alloc(a, sizeof(*s));
    ge__proto__tensor_def__init(t);
    ge__proto__tensor_descriptor__init(d);
    ge__proto__shape_def__init(s);
    s->n_dim = n;
    s->dim = oa_om_arena_alloc(a, (n + 1) * sizeof(int64_t));
    memcpy(s->dim, dims, n * sizeof(int64_t));
    d->dtype = (Ge__Proto__DataType)proto_dt;
    d->layout = oa_om_arena_strndup(a, layout, strlen(layout));
    d->shape = s;
    d->n_attr = n_attrs;
    d->attr = attrs;
    t->desc = d;
    return t;
}

/*
 * A Data -> NetOutput graph written by the IR writer whose ModelDef then
 * receives the given model attributes (CANN style when cann_style).
 */
static void cann_style_image(bool with_type, bool support_dynamic, uint8_t **img, size_t *len)
{
    oa_graph *g = NULL;
    assert_int_equal(oa_graph_create("op", &g), OA_OK);
    oa_node *d = NULL, *no = NULL;
    const oa_shape s = oa_shape_make(2, (const int64_t[]){8, 16});
    assert_int_equal(oa_graph_add_data(g, "x", 0, OA_DT_FLOAT16, &s, OA_FORMAT_ND, &d), OA_OK);
    assert_int_equal(oa_graph_add_net_output(g, "Node_Output", 1, &no), OA_OK);
    assert_int_equal(oa_node_connect(no, 0, d, 0), OA_OK);
    oa_om_write_opts o;
    oa_om_write_opts_init(&o);
    uint8_t *base = NULL;
    size_t blen = 0;
    assert_int_equal(oa_om_write_graph_memory(g, &o, &base, &blen), OA_OK);
    oa_graph_destroy(g);
    oa_om_container c;
    assert_int_equal(oa_om_container_parse(base, blen, &c), OA_OK);
    const oa_om_partition *p = oa_om_table_find(&c.tables[0], OA_OM_PART_MODEL_DEF);
    oa_om_arena *a = NULL;
    assert_int_equal(oa_om_arena_create(&a), OA_OK);
    ProtobufCMessage *msg = NULL;
    assert_int_equal(oa_om_pb_decode(&ge__proto__model_def__descriptor, p->data, p->size, a, OA_E_INTERNAL, "t", &msg),
                     OA_OK);
    Ge__Proto__ModelDef *def = (Ge__Proto__ModelDef *)msg;

    static const int64_t dims[2] = {8, 16};
    /* input: float16 (proto 2? no: the proto enum of DT_FLOAT16 is 2), NC1HWC0 storage, host placement */
    Ge__Proto__AttrMapEntry **ia = oa_om_arena_alloc(a, 3 * sizeof(*ia));
    ia[0] = mk_entry(a, "storage_format", i_attr(a, 29));
    ia[1] = mk_entry(a, "_mem_type", i_attr(a, 1));
    ia[2] = mk_entry(a, "origin_format", s_attr(a, "ND"));
    Ge__Proto__AttrDef *ins = mk_attr(a), *outs = mk_attr(a);
    Ge__Proto__AttrDef__ListValue *li = oa_om_arena_alloc(a, sizeof(*li)), *lo = oa_om_arena_alloc(a, sizeof(*lo));
    ge__proto__attr_def__list_value__init(li);
    ge__proto__attr_def__list_value__init(lo);
    li->val_type = GE__PROTO__ATTR_DEF__LIST_VALUE__LIST_VALUE_TYPE__VT_LIST_TENSOR;
    lo->val_type = GE__PROTO__ATTR_DEF__LIST_VALUE__LIST_VALUE_TYPE__VT_LIST_TENSOR;
    li->n_t = 1;
    li->t = oa_om_arena_alloc(a, sizeof(*li->t));
    li->t[0] = mk_tensor(a, oa_dtype_to_proto(OA_DT_FLOAT16), "ND", 2, dims, ia, 3);
    lo->n_t = 1;
    lo->t = oa_om_arena_alloc(a, sizeof(*lo->t));
    lo->t[0] = mk_tensor(a, oa_dtype_to_proto(OA_DT_FLOAT16), "ND", 2, dims, NULL, 0);
    ins->value_case = outs->value_case = GE__PROTO__ATTR_DEF__VALUE_LIST;
    ins->list = li;
    outs->list = lo;
    Ge__Proto__AttrDef *bad = mk_attr(a);
    bad->value_case = GE__PROTO__ATTR_DEF__VALUE_B;
    bad->b = support_dynamic;

    Ge__Proto__AttrMapEntry **attr = oa_om_arena_alloc(a, (def->n_attr + 9) * sizeof(*attr));
    memcpy(attr, def->attr, def->n_attr * sizeof(*attr));
    size_t n = def->n_attr;
    if (with_type) {
        attr[n++] = mk_entry(a, "ATTR_MODEL_OP_TYPE", s_attr(a, "Relu"));
    }
    attr[n++] = mk_entry(a, "ATTR_MODEL_TENSOR_INPUTS", ins);
    attr[n++] = mk_entry(a, "ATTR_MODEL_TENSOR_OUTPUTS", outs);
    attr[n++] = mk_entry(a, "ATTR_MODEL__single_op_scene", i_attr(a, 1));
    attr[n++] = mk_entry(a, "ATTR_MODEL__unregst_oppath", s_attr(a, "/x"));
    attr[n++] = mk_entry(a, "ATTR_MODEL_alpha", i_attr(a, 3));
    attr[n++] = mk_entry(a, "support_dynamicshape", bad);
    attr[n++] = mk_entry(a, "not_an_op_attr", i_attr(a, 1));
    def->attr = attr;
    def->n_attr = n;
    uint8_t *bytes = NULL;
    size_t blen2 = 0;
    assert_int_equal(oa_om_pb_encode(&def->base, &bytes, &blen2), OA_OK);
    oa_om_part_src parts[8];
    for (uint32_t i = 0; i < c.tables[0].num; ++i) {
        parts[i].type = c.tables[0].parts[i].type;
        parts[i].data = parts[i].type == OA_OM_PART_MODEL_DEF ? bytes : c.tables[0].parts[i].data;
        parts[i].size = parts[i].type == OA_OM_PART_MODEL_DEF ? blen2 : c.tables[0].parts[i].size;
    }
    const oa_om_table_src ts = {.parts = parts, .num = c.tables[0].num};
    assert_int_equal(oa_om_container_write_memory(&c.header, &ts, 1, img, len), OA_OK);
    free(bytes);
    oa_om_arena_destroy(a);
    oa_om_container_deinit(&c);
    free(base);
}

static void cann_style_model_defs_parse(void **state)
{
    (void)state;
    uint8_t *img = NULL;
    size_t len = 0;
    cann_style_image(true, true, &img, &len);
    oa_opmodel *m = NULL;
    assert_int_equal(oa_opmodel_parse(img, len, "relu.om", &m), OA_OK);
    assert_string_equal(m->type, "Relu");
    assert_int_equal(m->in[0].data_type, ACL_FLOAT16);
    assert_int_equal(m->in[0].format, ACL_FORMAT_ND);
    assert_int_equal(m->in[0].storage_format, ACL_FORMAT_FRACTAL_NZ);
    assert_int_equal(m->in[0].mem_type, ACL_MEMTYPE_HOST);
    assert_int_equal(oa_opattr_count(m->attr), 1); /* internal keys dropped, model attrs not op attrs */
    assert_int_equal(oa_opattr_find(m->attr, "alpha")->u.i, 3);
    oa_opmodel_unref(m);
    /* aclopLoad takes it (and copies nothing it keeps) */
    assert_int_equal(aclopLoad(img, len), ACL_SUCCESS);
    assert_int_equal(oa_opcache_count(), 1);
    free(img);

    cann_style_image(false, true, &img, &len);
    expect_fail(aclopLoad(img, len), ACL_ERROR_MODEL_MISSING_ATTR, "Missing required attr");
    free(img);
    cann_style_image(true, false, &img, &len);
    expect_fail(aclopLoad(img, len), ACL_ERROR_OP_UNSUPPORTED_DYNAMIC, "does not support dynamic shape");
    free(img);
}

static void parser_failure_codes(void **state)
{
    (void)state;
    uint8_t small[256] = {0};
    expect_fail(aclopLoad(NULL, 10), ACL_ERROR_INVALID_PARAM, "model");
    expect_fail(aclopLoad(small, 0), ACL_ERROR_INVALID_PARAM, "can't be zero");
    expect_fail(aclopLoad(small, sizeof small), ACL_ERROR_PARSE_MODEL, "smaller than or equal to");
    /* a length field that disagrees with the size */
    static const int64_t d[1] = {4};
    oa_opspec_tensor t = tensor(ACL_FLOAT, ACL_FORMAT_ND, 1, d);
    const oa_opspec spec = {.type = "Relu", .n_in = 1, .n_out = 1, .in = &t, .out = &t};
    uint8_t *img = NULL;
    size_t len = 0;
    assert_int_equal(oa_opmodel_write(&spec, NULL, NULL, NULL, &img, &len), OA_OK);
    expect_fail(aclopLoad(img, len - 1), ACL_ERROR_PARSE_MODEL, "invalid model");
    uint8_t *big = calloc(1, len + 8);
    memcpy(big, img, len);
    expect_fail(aclopLoad(big, len + 8), ACL_ERROR_PARSE_MODEL, "invalid model");
    free(big);
    /* a broken container or ModelDef */
    img[0] ^= 0xff; /* magic */
    expect_fail(aclopLoad(img, len), ACL_ERROR_DESERIALIZE_MODEL, NULL);
    img[0] ^= 0xff;
    memset(img + len - 40, 0xff, 40);
    const aclError r = aclopLoad(img, len);
    assert_true(r == ACL_ERROR_DESERIALIZE_MODEL || r == ACL_SUCCESS); /* trailing partition may be tolerant */
    free(img);
    /* an ordinary model (no single-op attrs) */
    oa_graph *g = NULL;
    oa_node *dn = NULL, *no = NULL;
    assert_int_equal(oa_graph_create("m", &g), OA_OK);
    const oa_shape s = oa_shape_make(1, d);
    assert_int_equal(oa_graph_add_data(g, "x", 0, OA_DT_FLOAT, &s, OA_FORMAT_ND, &dn), OA_OK);
    assert_int_equal(oa_graph_add_net_output(g, "Node_Output", 1, &no), OA_OK);
    assert_int_equal(oa_node_connect(no, 0, dn, 0), OA_OK);
    assert_int_equal(oa_om_write_graph_memory(g, NULL, &img, &len), OA_OK);
    oa_graph_destroy(g);
    expect_fail(aclopLoad(img, len), ACL_ERROR_MODEL_MISSING_ATTR, "ATTR_MODEL_OP_TYPE");
    free(img);
}

/* ---- model directories ---- */

static void om_file_filter_as_cann(void **state)
{
    (void)state;
    const char *yes[] = {"a.om", "aaa.om", "a_123.om", ".om", "x.om.om"};
    const char *no[] = {"a_123.o", "a_123.m", "a_123o.m", "a_123om", "om", "x.om.bak", "x.OM", ""};
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; ++i) {
        assert_true(oa_opmodel_is_om_name(yes[i]));
    }
    for (size_t i = 0; i < sizeof no / sizeof no[0]; ++i) {
        assert_false(oa_opmodel_is_om_name(no[i]));
    }
}

static void write_relu(const char *path, int64_t n)
{
    const int64_t d[1] = {n};
    oa_opspec_tensor t = tensor(ACL_FLOAT, ACL_FORMAT_ND, 1, d);
    const oa_opspec spec = {.type = "Relu", .n_in = 1, .n_out = 1, .in = &t, .out = &t};
    assert_int_equal(oa_opmodel_write(&spec, NULL, NULL, path, NULL, NULL), OA_OK);
}

static void model_dir_loads_three_levels_once(void **state)
{
    (void)state;
    char p[512], cmd[600];
    snprintf(cmd, sizeof cmd, "mkdir -p %s/a/b/c", g_dir);
    assert_int_equal(system(cmd), 0);
    snprintf(p, sizeof p, "%s/top.om", g_dir);
    write_relu(p, 1);
    snprintf(p, sizeof p, "%s/a/one.om", g_dir);
    write_relu(p, 2);
    snprintf(p, sizeof p, "%s/a/b/two.om", g_dir);
    write_relu(p, 3);
    snprintf(p, sizeof p, "%s/a/b/c/three.om", g_dir); /* depth 4: not read */
    write_relu(p, 4);
    snprintf(p, sizeof p, "%s/a/skipped.om.bak", g_dir);
    write_relu(p, 5);
    snprintf(p, sizeof p, "%s/a/b/junk.om", g_dir); /* not a model: skipped with a warning */
    write_file(p, "junk", 4);
    snprintf(p, sizeof p, "%s/a/dup.om", g_dir); /* equal to top.om: deduplicated */
    write_relu(p, 1);
    snprintf(p, sizeof p, "%s/link.om", g_dir); /* symbolic links are not followed */
    char target[512];
    snprintf(target, sizeof target, "%s/a/b/c/three.om", g_dir);
    assert_int_equal(symlink(target, p), 0);

    expect_fail(aclopSetModelDir(NULL), ACL_ERROR_INVALID_PARAM, "modelDir");
    expect_fail(aclopSetModelDir("/nonexistent/dir/xyz"), ACL_ERROR_READ_MODEL_FAILURE, "is invalid");
    assert_int_equal(aclopSetModelDir(g_dir), ACL_SUCCESS);
    assert_int_equal(oa_opcache_count(), 3);
    expect_fail(aclopSetModelDir(g_dir), ACL_ERROR_REPEAT_INITIALIZE, "repeatedly");
}

static void an_unreadable_model_fails_the_directory(void **state)
{
    (void)state;
    char p[512];
    snprintf(p, sizeof p, "%s/ok.om", g_dir);
    write_relu(p, 1);
    snprintf(p, sizeof p, "%s/empty.om", g_dir);
    write_file(p, "", 0);
    expect_fail(aclopSetModelDir(g_dir), ACL_ERROR_READ_MODEL_FAILURE, "empty.om");
    assert_int_equal(oa_opcache_count(), 0);
    /* a failed call does not count: the next one may succeed */
    assert_int_equal(unlink(p), 0);
    assert_int_equal(aclopSetModelDir(g_dir), ACL_SUCCESS);
    assert_int_equal(oa_opcache_count(), 1);
}

/* ---- atc --singleop ---- */

static void singleop_file_names_follow_cann(void **state)
{
    (void)state;
    static const int64_t d[2] = {8, 16};
    const oa_singleop_tensor_name t = {.dtype = 1, .format = 2, .dims = d, .ndims = 2};
    const oa_singleop_tensor_name ins[2] = {t, t};
    char buf[256];
    oa_singleop_file_name(NULL, 0, "Add", ins, 2, &t, 1, buf, sizeof buf);
    assert_string_equal(buf, "0_Add_1_2_8_16_1_2_8_16_1_2_8_16.om");
    oa_singleop_file_name("my_add-1.x", 3, "Add", ins, 2, &t, 1, buf, sizeof buf);
    assert_string_equal(buf, "my_add-1.x.om");
    oa_singleop_file_name("bad name", 3, "Add", ins, 2, &t, 1, buf, sizeof buf);
    assert_string_equal(buf, "3_Add_1_2_8_16_1_2_8_16_1_2_8_16.om");
    oa_singleop_file_name("..", 0, "Add", NULL, 0, &t, 1, buf, sizeof buf);
    assert_string_equal(buf, "0_Add_1_2_8_16.om");
    /* long names are cut to 128 characters before the suffix */
    int64_t many[8] = {100000, 100000, 100000, 100000, 100000, 100000, 100000, 100000};
    const oa_singleop_tensor_name l = {.dtype = 0, .format = 2, .dims = many, .ndims = 8};
    const oa_singleop_tensor_name ls[3] = {l, l, l};
    oa_singleop_file_name(NULL, 0, "BatchMatMulV2", ls, 3, &l, 1, buf, sizeof buf);
    assert_int_equal(strlen(buf), 128 + 3);
}

static void singleop_json_builds_loadable_models(void **state)
{
    (void)state;
    const char *json =
        "[{\"op\": \"Add\", \"input_desc\": ["
        "  {\"format\": \"ND\", \"shape\": [8, 16], \"type\": \"float16\"},"
        "  {\"format\": \"nd\", \"shape\": [8, 16], \"type\": \"FP16\"}],"
        " \"output_desc\": [{\"format\": \"ND\", \"shape\": [8, 16], \"type\": \"half\"}]},"
        " {\"compile_flag\": 1},"
        " {\"op\": \"MatMulV2\", \"name\": \"mm\", \"input_desc\": ["
        "  {\"format\": \"ND\", \"shape\": [-1, 4], \"shape_range\": [[1, 8]], \"type\": \"float\"},"
        "  {\"format\": \"ND\", \"shape\": [4, 2], \"type\": \"float\", \"is_const\": true,"
        "   \"const_value\": [1, 2, 3, 4, 5, 6, 7, 8]},"
        "  {\"format\": \"RESERVED\", \"shape\": [], \"type\": \"UNDEFINED\"}],"
        " \"output_desc\": [{\"format\": \"ND\", \"shape\": [-1, 2], \"shape_range\": [[1, 8]], \"type\": \"float\"}],"
        " \"attr\": [{\"name\": \"transpose_x1\", \"type\": \"bool\", \"value\": false},"
        "           {\"name\": \"transpose_x2\", \"type\": \"bool\", \"value\": false},"
        "           {\"name\": \"offset_x\", \"type\": \"int\", \"value\": 0},"
        "           {\"name\": \"_lli\", \"type\": \"list_list_int\", \"value\": [[1], [2, 3]]},"
        "           {\"name\": \"_dt\", \"type\": \"data_type\", \"value\": \"DT_FLOAT16\"},"
        "           {\"name\": \"_ls\", \"type\": \"list_string\", \"value\": [\"a\"]}]}]";
    char out[512];
    snprintf(out, sizeof out, "%s/models", g_dir);
    const oa_singleop_opts o = {.out_dir = out, .soc_version = "Ascend310P3"};
    size_t n = 0;
    assert_int_equal(oa_singleop_build(json, strlen(json), &o, &n), OA_OK);
    assert_int_equal(n, 2);
    char p[600];
    snprintf(p, sizeof p, "%s/0_Add_1_2_8_16_1_2_8_16_1_2_8_16.om", out);
    assert_int_equal(access(p, R_OK), 0);
    snprintf(p, sizeof p, "%s/mm.om", out);
    assert_int_equal(access(p, R_OK), 0);
    void *data = NULL;
    size_t size = 0;
    assert_int_equal(oa_opmodel_read_file(p, &data, &size), OA_OK);
    oa_opmodel *m = NULL;
    assert_int_equal(oa_opmodel_parse(data, size, p, &m), OA_OK);
    free(data);
    assert_string_equal(m->type, "MatMulV2");
    assert_true(oa_opmodel_is_dynamic(m));
    assert_int_equal(m->in[0].shape_range_count, 2);
    assert_int_equal(m->in[0].shape_range[0][1], 8);
    assert_int_equal(m->in[0].shape_range[1][0], 4);
    assert_true(m->in[1].is_const);
    assert_int_equal(m->in[1].const_data_len, 8 * sizeof(float));
    assert_true(((const float *)m->in[1].const_data)[7] == 8.0f);
    assert_int_equal(m->in[2].data_type, ACL_DT_UNDEFINED);
    assert_int_equal(oa_opattr_find(m->attr, "_dt")->u.dt, 1);
    assert_int_equal(oa_opattr_find(m->attr, "_lli")->u.lli.lens[1], 2);
    oa_opmodel_unref(m);
    assert_int_equal(aclopSetModelDir(out), ACL_SUCCESS);
    assert_int_equal(oa_opcache_count(), 2);
}

static void singleop_json_errors(void **state)
{
    (void)state;
    char out[512];
    snprintf(out, sizeof out, "%s/bad", g_dir);
    const oa_singleop_opts o = {.out_dir = out};
    size_t n;
    struct {
        const char *json;
        const char *why;
    } cases[] = {
        {"{", "not valid JSON"},
        {"{\"op\": \"Add\"}", "list of operators"},
        {"[{\"input_desc\": []}]", "op type"},
        {"[{\"op\": \"Relu\", \"input_desc\": [{\"format\": \"ND\", \"shape\": [2], \"type\": \"floaty\"}],"
         " \"output_desc\": [{\"format\": \"ND\", \"shape\": [2], \"type\": \"float\"}]}]",
         "[datatype] of [input]"},
        {"[{\"op\": \"Relu\", \"input_desc\": [{\"format\": \"ND\", \"shape\": [2], \"type\": \"float\"}],"
         " \"output_desc\": [{\"format\": \"RESERVED\", \"shape\": [2], \"type\": \"float\"}]}]",
         "[format] of [output]"},
        {"[{\"op\": \"Relu\", \"input_desc\": [{\"format\": \"ND\", \"shape\": [-1], \"type\": \"float\"}],"
         " \"output_desc\": [{\"format\": \"ND\", \"shape\": [-1], \"type\": \"float\"}]}]",
         "shape range"},
        {"[{\"op\": \"Relu\", \"input_desc\": [{\"format\": \"ND\", \"shape\": [-2, 3], \"type\": \"float\"}],"
         " \"output_desc\": [{\"format\": \"ND\", \"shape\": [2], \"type\": \"float\"}]}]",
         "{-2}"},
        {"[{\"op\": \"Relu\", \"input_desc\": [{\"format\": \"ND\", \"shape\": [2], \"type\": \"float\"}],"
         " \"output_desc\": [{\"format\": \"ND\", \"shape\": [2], \"type\": \"float\"}],"
         " \"attr\": [{\"name\": \"x\", \"type\": \"tensor\", \"value\": 1}]}]",
         "Unsupported type"},
        {"[{\"op\": \"NoSuchOp\", \"input_desc\": [{\"format\": \"ND\", \"shape\": [2], \"type\": \"float\"}],"
         " \"output_desc\": [{\"format\": \"ND\", \"shape\": [2], \"type\": \"float\"}]}]",
         "not supported"},
        /* fuzz_json findings (issue 18): numbers beyond int64_t were converted (undefined behaviour) */
        {"[{\"op\": \"Relu\", \"input_desc\": [{\"format\": \"ND\", \"shape\": [1.11111e+90], \"type\": \"float\"}],"
         " \"output_desc\": [{\"format\": \"ND\", \"shape\": [2], \"type\": \"float\"}]}]",
         "list of integers"},
        {"[{\"op\": \"Relu\", \"input_desc\": [{\"format\": \"ND\", \"shape\": [2], \"type\": \"float\"}],"
         " \"output_desc\": [{\"format\": \"ND\", \"shape\": [2], \"type\": \"float\"}],"
         " \"attr\": [{\"name\": \"x\", \"type\": \"int\", \"value\": -1e300}]}]",
         "x"},
        {"[{\"op\": \"Add\", \"input_desc\": [{\"format\": \"ND\", \"shape\": [1], \"type\": \"int32\"},"
         " {\"format\": \"ND\", \"shape\": [1], \"type\": \"int32\", \"is_const\": true, \"const_value\": [1e19]}],"
         " \"output_desc\": [{\"format\": \"ND\", \"shape\": [1], \"type\": \"int32\"}]}]",
         "does not fit 64 bits"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        const oa_status st = oa_singleop_build(cases[i].json, strlen(cases[i].json), &o, &n);
        assert_int_not_equal(st, OA_OK);
        const char *m = aclGetRecentErrMsg();
        if (m == NULL || strstr(m, cases[i].why) == NULL) {
            fail_msg("case %zu: message [%s] does not mention [%s]", i, m ? m : "(null)", cases[i].why);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(written_models_parse_back_to_their_signature, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(dynamic_models_keep_their_ranges, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(cann_style_model_defs_parse, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(parser_failure_codes, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(om_file_filter_as_cann, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(model_dir_loads_three_levels_once, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(an_unreadable_model_fails_the_directory, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(singleop_file_names_follow_cann, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(singleop_json_builds_loadable_models, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(singleop_json_errors, setup_dir, teardown_dir),
    };
    return cmocka_run_group_tests_name("aclop models", tests, NULL, NULL);
}
