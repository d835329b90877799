/*
 * The op cache (op_model.h) on hand-built models: static keys and equality,
 * the float-tolerance QUIRK, deduplication, aging with max_opqueue_num
 * (static registrations never aged, hits refresh), dynamic models through
 * the shape-range table (seq numbers, range admission, unknown rank,
 * dynamic request descs at execution), host-memory inputs matched by value,
 * value ranges, matching order with the compile flag, the miss messages.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "acl/acl.h"
#include "acl/acl_op_compiler.h"
#include "acl_base/data_buffer.h"
#include "acl_op/op_model.h"

/* ---- helpers ---- */

static aclTensorDesc *desc(aclDataType dt, int n, const int64_t *dims)
{
    aclTensorDesc *d = aclCreateTensorDesc(dt, n, dims, ACL_FORMAT_ND);
    assert_non_null(d);
    return d;
}

static void set_range(aclTensorDesc *d, size_t n, int64_t lo, int64_t hi)
{
    int64_t r[8][2];
    for (size_t i = 0; i < n; ++i) {
        r[i][0] = lo;
        r[i][1] = hi;
    }
    assert_int_equal(aclSetTensorShapeRange(d, n, r), ACL_SUCCESS);
}

/* A one-in one-out model "type" over copies of in/out, with attr a. */
static oa_opmodel *model1(const char *type, const aclTensorDesc *in, const aclTensorDesc *out, const aclopAttr *a)
{
    const aclTensorDesc *ins[1] = {in}, *outs[1] = {out};
    const oa_opreq r = {.type = type, .n_in = 1, .n_out = 1, .in = ins, .out = outs, .attr = a};
    oa_opmodel *m = NULL;
    assert_int_equal(oa_opmodel_from_req(&r, "test", &m), OA_OK);
    return m;
}

static void reg(oa_opmodel *m, bool static_reg)
{
    assert_int_equal(oa_opcache_register(m, static_reg, NULL), OA_OK);
    oa_opmodel_unref(m);
}

/* Looks up a one-in one-out request; returns the model (unreferenced, for identity checks) or NULL. */
static const oa_opmodel *lookup(const char *type, const aclTensorDesc *in, const aclTensorDesc *out,
                                const aclopAttr *a, bool compile, oa_status *st_out)
{
    const aclTensorDesc *ins[1] = {in}, *outs[1] = {out};
    const oa_opreq r = {.type = type, .n_in = 1, .n_out = 1, .in = ins, .out = outs, .attr = a,
                        .is_compile = compile};
    oa_opmodel *m = NULL;
    const oa_status st = oa_opcache_match(&r, true, &m);
    if (st_out != NULL) {
        *st_out = st;
    }
    if (m != NULL) {
        oa_opmodel_unref(m);
    }
    return m;
}

static int reset(void **state)
{
    (void)state;
    oa_opcache_reset_for_tests();
    (void)aclopSetCompileFlag(ACL_OP_COMPILE_DEFAULT);
    (void)aclGetRecentErrMsg();
    return 0;
}

static const int64_t d2x3[2] = {2, 3}, d4x3[2] = {4, 3};

static void expect_miss(const char *type, const aclTensorDesc *in, const aclTensorDesc *out, const aclopAttr *a,
                        const char *why)
{
    oa_status st;
    assert_null(lookup(type, in, out, a, false, &st));
    assert_int_equal(st, OA_E_OP_NOT_FOUND);
    const char *m = aclGetRecentErrMsg();
    assert_non_null(m);
    if (strstr(m, why) == NULL) {
        fail_msg("message [%s] does not mention [%s]", m, why);
    }
}

/* ---- static keys ---- */

static void static_key_fields_decide_hits(void **state)
{
    (void)state;
    aclTensorDesc *x = desc(ACL_FLOAT, 2, d2x3), *y = desc(ACL_FLOAT, 2, d2x3);
    aclopAttr *a = aclopCreateAttr();
    assert_int_equal(aclopSetAttrBool(a, "keep", 1), ACL_SUCCESS);
    reg(model1("Relu", x, y, a), true);
    assert_int_equal(oa_opcache_count(), 1);
    assert_non_null(lookup("Relu", x, y, a, false, NULL));

    expect_miss("Sigmoid", x, y, a, "no single-op model of this op type");
    aclTensorDesc *x4 = desc(ACL_FLOAT, 2, d4x3);
    expect_miss("Relu", x4, y, a, "input descriptions differ");
    aclTensorDesc *yh = desc(ACL_FLOAT16, 2, d2x3);
    expect_miss("Relu", x, yh, a, "output descriptions differ");
    aclopAttr *b = aclopCreateAttr();
    assert_int_equal(aclopSetAttrBool(b, "keep", 0), ACL_SUCCESS);
    expect_miss("Relu", x, y, b, "attributes");
    expect_miss("Relu", x, y, NULL, "attributes"); /* attribute count differs */
    aclopAttr *c = aclopCreateAttr();
    assert_int_equal(aclopSetAttrBool(c, "keep_dims", 1), ACL_SUCCESS); /* same value, other name */
    expect_miss("Relu", x, y, c, "attributes");

    /* format, storage format, const flag, memory type and shape ranges are key fields */
    aclTensorDesc *xf = aclCreateTensorDesc(ACL_FLOAT, 2, d2x3, ACL_FORMAT_NCHW);
    expect_miss("Relu", xf, y, a, "input");
    aclTensorDesc *xs = desc(ACL_FLOAT, 2, d2x3);
    assert_int_equal(aclSetTensorFormat(xs, ACL_FORMAT_FRACTAL_NZ), ACL_SUCCESS); /* storage format */
    expect_miss("Relu", xs, y, a, "input");
    aclTensorDesc *xr = desc(ACL_FLOAT, 2, d2x3);
    set_range(xr, 2, 1, 8);
    expect_miss("Relu", xr, y, a, "input");
    aclTensorDesc *xm = desc(ACL_FLOAT, 2, d2x3);
    assert_int_equal(aclSetTensorPlaceMent(xm, ACL_MEMTYPE_HOST), ACL_SUCCESS);
    expect_miss("Relu", xm, y, a, "input");
    /* the name is not */
    aclTensorDesc *xn = desc(ACL_FLOAT, 2, d2x3);
    aclSetTensorDescName(xn, "another");
    assert_non_null(lookup("Relu", xn, y, a, false, NULL));

    aclTensorDesc *all[] = {x, y, x4, yh, xf, xs, xr, xm, xn};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) {
        aclDestroyTensorDesc(all[i]);
    }
    aclopDestroyAttr(a);
    aclopDestroyAttr(b);
    aclopDestroyAttr(c);
}

static void float_attrs_within_tolerance_miss_through_the_digest(void **state)
{
    (void)state;
    aclTensorDesc *x = desc(ACL_FLOAT, 2, d2x3);
    aclopAttr *a = aclopCreateAttr(), *close = aclopCreateAttr(), *same = aclopCreateAttr();
    assert_int_equal(aclopSetAttrFloat(a, "alpha", 0.25f), ACL_SUCCESS);
    assert_int_equal(aclopSetAttrFloat(close, "alpha", 0.25f + 3e-7f), ACL_SUCCESS);
    assert_int_equal(aclopSetAttrFloat(same, "alpha", 0.25f), ACL_SUCCESS);
    reg(model1("LeakyRelu", x, x, a), true);
    assert_true(oa_opattr_equal(a, close));
    oa_status st;
    assert_null(lookup("LeakyRelu", x, x, close, false, &st)); /* QUIRK: equal values, other bucket */
    assert_int_equal(st, OA_E_OP_NOT_FOUND);
    assert_non_null(lookup("LeakyRelu", x, x, same, false, NULL));
    aclDestroyTensorDesc(x);
    aclopDestroyAttr(a);
    aclopDestroyAttr(close);
    aclopDestroyAttr(same);
}

static void constants_are_part_of_the_key(void **state)
{
    (void)state;
    const int64_t d1[1] = {2};
    aclTensorDesc *x = desc(ACL_INT32, 1, d1), *k = desc(ACL_INT32, 1, d1), *y = desc(ACL_INT32, 1, d1);
    int32_t v[2] = {1, 0};
    assert_int_equal(aclSetTensorConst(k, v, sizeof v), ACL_SUCCESS);
    const aclTensorDesc *ins[2] = {x, k}, *outs[1] = {y};
    const oa_opreq r = {.type = "Add", .n_in = 2, .n_out = 1, .in = ins, .out = outs};
    oa_opmodel *m = NULL;
    assert_int_equal(oa_opmodel_from_req(&r, "t", &m), OA_OK);
    reg(m, true);
    oa_opmodel *got = NULL;
    assert_int_equal(oa_opcache_match(&r, false, &got), OA_OK);
    oa_opmodel_unref(got);
    aclTensorDesc *k2 = desc(ACL_INT32, 1, d1);
    int32_t w[2] = {1, 1};
    assert_int_equal(aclSetTensorConst(k2, w, sizeof w), ACL_SUCCESS);
    const aclTensorDesc *ins2[2] = {x, k2};
    const oa_opreq r2 = {.type = "Add", .n_in = 2, .n_out = 1, .in = ins2, .out = outs};
    assert_int_equal(oa_opcache_match(&r2, true, &got), OA_E_OP_NOT_FOUND);
    aclDestroyTensorDesc(x);
    aclDestroyTensorDesc(k);
    aclDestroyTensorDesc(k2);
    aclDestroyTensorDesc(y);
}

static void host_memory_inputs_match_by_value(void **state)
{
    (void)state;
    const int64_t d1[1] = {2};
    aclTensorDesc *x = desc(ACL_FLOAT, 2, d2x3), *axes = desc(ACL_INT64, 1, d1), *y = desc(ACL_FLOAT, 0, NULL);
    int64_t av[2] = {0, 1};
    /* the model was compiled with the axes as a constant in host memory */
    aclTensorDesc *axes_c = desc(ACL_INT64, 1, d1);
    assert_int_equal(aclSetTensorPlaceMent(axes_c, ACL_MEMTYPE_HOST), ACL_SUCCESS);
    assert_int_equal(aclSetTensorConst(axes_c, av, sizeof av), ACL_SUCCESS);
    const aclTensorDesc *mins[2] = {x, axes_c}, *outs[1] = {y};
    const oa_opreq mr = {.type = "ReduceSum", .n_in = 2, .n_out = 1, .in = mins, .out = outs};
    oa_opmodel *m = NULL;
    assert_int_equal(oa_opmodel_from_req(&mr, "t", &m), OA_OK);
    reg(m, true);
    /* the request passes the axes as a host-memory tensor with a buffer */
    assert_int_equal(aclSetTensorPlaceMent(axes, ACL_MEMTYPE_HOST), ACL_SUCCESS);
    const aclTensorDesc *ins[2] = {x, axes};
    aclDataBuffer bx = {.data = (void *)0x1000, .length = 24}, ba = {.data = av, .length = sizeof av};
    const aclDataBuffer *bufs[2] = {&bx, &ba};
    const oa_opreq r = {.type = "ReduceSum", .n_in = 2, .n_out = 1, .in = ins, .out = outs, .in_buf = bufs};
    oa_opmodel *got = NULL;
    assert_int_equal(oa_opcache_match(&r, false, &got), OA_OK);
    oa_opmodel_unref(got);
    int64_t other[2] = {1, 1};
    ba.data = other;
    assert_int_equal(oa_opcache_match(&r, false, &got), OA_E_OP_NOT_FOUND);
    /* without buffers (handles, compile) the value cannot take part */
    const oa_opreq nb = {.type = "ReduceSum", .n_in = 2, .n_out = 1, .in = ins, .out = outs};
    assert_int_equal(oa_opcache_match(&nb, false, &got), OA_E_OP_NOT_FOUND);
    aclDestroyTensorDesc(x);
    aclDestroyTensorDesc(axes);
    aclDestroyTensorDesc(axes_c);
    aclDestroyTensorDesc(y);
}

/* ---- registration and aging ---- */

static void equal_registrations_are_deduplicated(void **state)
{
    (void)state;
    aclTensorDesc *x = desc(ACL_FLOAT, 2, d2x3);
    oa_opmodel *m1 = model1("Abs", x, x, NULL), *m2 = model1("Abs", x, x, NULL);
    bool dedup = true;
    assert_int_equal(oa_opcache_register(m1, false, &dedup), OA_OK);
    assert_false(dedup);
    assert_int_equal(oa_opcache_register(m2, false, &dedup), OA_OK);
    assert_true(dedup);
    assert_int_equal(oa_opcache_count(), 1);
    /* the first registration stays the entry */
    assert_ptr_equal(lookup("Abs", x, x, NULL, false, NULL), m1);
    oa_opmodel_unref(m1);
    oa_opmodel_unref(m2);
    aclDestroyTensorDesc(x);
}

static void the_oldest_dynamic_registration_is_aged_out(void **state)
{
    (void)state;
    assert_int_equal(oa_opcache_max(), 20000); /* aclInit default */
    assert_int_equal(aclopSetMaxOpQueueNum(0), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclopSetMaxOpQueueNum(1), ACL_SUCCESS);
    assert_int_equal(oa_opcache_max(), 1);
    aclTensorDesc *a = desc(ACL_FLOAT, 2, d2x3), *b = desc(ACL_FLOAT, 2, d4x3);
    reg(model1("Neg", a, a, NULL), false);
    reg(model1("Neg", b, b, NULL), false);
    assert_int_equal(oa_opcache_count(), 1); /* the second evicted the first */
    assert_null(lookup("Neg", a, a, NULL, false, NULL));
    assert_non_null(lookup("Neg", b, b, NULL, false, NULL));
    aclDestroyTensorDesc(a);
    aclDestroyTensorDesc(b);
}

static void static_registrations_are_never_aged(void **state)
{
    (void)state;
    assert_int_equal(aclopSetMaxOpQueueNum(1), ACL_SUCCESS);
    aclTensorDesc *a = desc(ACL_FLOAT, 2, d2x3), *b = desc(ACL_FLOAT, 2, d4x3);
    const int64_t d3[1] = {3};
    aclTensorDesc *c = desc(ACL_FLOAT, 1, d3);
    reg(model1("Exp", a, a, NULL), true);
    reg(model1("Exp", b, b, NULL), true);
    assert_int_equal(oa_opcache_count(), 2); /* over the limit, nothing aged */
    reg(model1("Exp", c, c, NULL), false);  /* a dynamic registration over the limit: only it is agable */
    assert_int_equal(oa_opcache_count(), 2);
    assert_non_null(lookup("Exp", a, a, NULL, false, NULL));
    assert_non_null(lookup("Exp", b, b, NULL, false, NULL));
    assert_null(lookup("Exp", c, c, NULL, false, NULL));
    aclDestroyTensorDesc(a);
    aclDestroyTensorDesc(b);
    aclDestroyTensorDesc(c);
}

static void a_hit_refreshes_the_aging_order(void **state)
{
    (void)state;
    assert_int_equal(aclopSetMaxOpQueueNum(2), ACL_SUCCESS);
    const int64_t d1[1] = {1}, d2[1] = {2}, d3[1] = {3};
    aclTensorDesc *a = desc(ACL_FLOAT, 1, d1), *b = desc(ACL_FLOAT, 1, d2), *c = desc(ACL_FLOAT, 1, d3);
    reg(model1("Sqrt", a, a, NULL), false);
    reg(model1("Sqrt", b, b, NULL), false);
    assert_non_null(lookup("Sqrt", a, a, NULL, false, NULL)); /* a is now the most recent */
    reg(model1("Sqrt", c, c, NULL), false);
    assert_int_equal(oa_opcache_count(), 2);
    assert_non_null(lookup("Sqrt", a, a, NULL, false, NULL));
    assert_null(lookup("Sqrt", b, b, NULL, false, NULL));
    assert_non_null(lookup("Sqrt", c, c, NULL, false, NULL));
    aclDestroyTensorDesc(a);
    aclDestroyTensorDesc(b);
    aclDestroyTensorDesc(c);
}

static void cast_with_truncate_sets_the_process_flag(void **state)
{
    (void)state;
    aclTensorDesc *x = desc(ACL_FLOAT, 2, d2x3), *y = desc(ACL_INT32, 2, d2x3);
    aclopAttr *a = aclopCreateAttr();
    assert_int_equal(aclopSetAttrInt(a, "dst_type", 3), ACL_SUCCESS);
    reg(model1("Cast", x, y, a), true);
    assert_false(oa_opcache_cast_has_truncate());
    assert_int_equal(aclopSetAttrBool(a, "truncate", 0), ACL_SUCCESS);
    reg(model1("Cast", x, y, a), true);
    assert_true(oa_opcache_cast_has_truncate());
    aclopDestroyAttr(a);
    aclDestroyTensorDesc(x);
    aclDestroyTensorDesc(y);
}

/* ---- dynamic models ---- */

static void dynamic_models_admit_dims_inside_their_ranges(void **state)
{
    (void)state;
    const int64_t dyn[2] = {-1, 16}, d4[2] = {4, 16}, d9[2] = {9, 16}, d4x8[2] = {4, 8};
    aclTensorDesc *x = desc(ACL_FLOAT, 2, dyn);
    int64_t r[2][2] = {{1, 8}, {16, 16}};
    assert_int_equal(aclSetTensorShapeRange(x, 2, r), ACL_SUCCESS);
    oa_opmodel *m = model1("Tanh", x, x, NULL);
    assert_true(oa_opmodel_is_dynamic(m));
    reg(m, true);
    aclTensorDesc *q4 = desc(ACL_FLOAT, 2, d4), *q9 = desc(ACL_FLOAT, 2, d9), *q48 = desc(ACL_FLOAT, 2, d4x8);
    assert_non_null(lookup("Tanh", q4, q4, NULL, false, NULL));
    oa_status st;
    assert_null(lookup("Tanh", q9, q9, NULL, false, &st)); /* 9 > 8 */
    assert_int_equal(st, OA_E_OP_NOT_FOUND);
    assert_null(lookup("Tanh", q48, q48, NULL, false, &st)); /* static dim 16 */
    /* a dynamic request at execution is refused; at compile it matches when its ranges fit */
    assert_null(lookup("Tanh", x, x, NULL, false, &st));
    assert_int_equal(st, OA_E_PARAM);
    assert_true(strstr(aclGetRecentErrMsg(), "must be static when executing") != NULL);
    aclTensorDesc *qc = desc(ACL_FLOAT, 2, dyn);
    int64_t rc[2][2] = {{2, 4}, {16, 16}};
    assert_int_equal(aclSetTensorShapeRange(qc, 2, rc), ACL_SUCCESS);
    assert_non_null(lookup("Tanh", qc, qc, NULL, true, NULL));
    int64_t rw[2][2] = {{2, 12}, {16, 16}};
    assert_int_equal(aclSetTensorShapeRange(qc, 2, rw), ACL_SUCCESS);
    assert_null(lookup("Tanh", qc, qc, NULL, true, NULL));
    aclTensorDesc *all[] = {x, q4, q9, q48, qc};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) {
        aclDestroyTensorDesc(all[i]);
    }
}

static void unknown_dims_without_ranges_and_unknown_rank_take_anything(void **state)
{
    (void)state;
    const int64_t dyn[2] = {-1, -1}, ur[1] = {-2}, d[2] = {1000, 3}, d3[3] = {1, 2, 3};
    aclTensorDesc *x = desc(ACL_FLOAT, 2, dyn), *u = desc(ACL_FLOAT, 1, ur);
    reg(model1("Floor", x, x, NULL), true);
    reg(model1("Ceil", u, u, NULL), true);
    aclTensorDesc *q = desc(ACL_FLOAT, 2, d), *q3 = desc(ACL_FLOAT, 3, d3);
    assert_non_null(lookup("Floor", q, q, NULL, false, NULL));
    assert_null(lookup("Floor", q3, q3, NULL, false, NULL)); /* rank differs */
    assert_non_null(lookup("Ceil", q, q, NULL, false, NULL));
    assert_non_null(lookup("Ceil", q3, q3, NULL, false, NULL));
    aclDestroyTensorDesc(x);
    aclDestroyTensorDesc(u);
    aclDestroyTensorDesc(q);
    aclDestroyTensorDesc(q3);
}

static void equal_range_patterns_share_a_seq(void **state)
{
    (void)state;
    const int64_t dyn[1] = {-1};
    aclTensorDesc *x = desc(ACL_FLOAT, 1, dyn), *h = desc(ACL_FLOAT16, 1, dyn), *w = desc(ACL_FLOAT, 1, dyn);
    set_range(x, 1, 1, 10);
    set_range(h, 1, 1, 10);
    set_range(w, 1, 1, 20);
    oa_opmodel *a = model1("Relu", x, x, NULL), *b = model1("Relu", h, h, NULL), *c = model1("Relu", w, w, NULL);
    assert_int_equal(oa_opcache_register(a, true, NULL), OA_OK);
    assert_int_equal(oa_opcache_register(b, true, NULL), OA_OK);
    assert_int_equal(oa_opcache_register(c, true, NULL), OA_OK);
    assert_int_equal(a->seq, 1);
    assert_int_equal(b->seq, 1); /* same shape pattern and ranges, dtype not part of it */
    assert_int_equal(c->seq, 2);
    const int64_t d15[1] = {15};
    aclTensorDesc *q = desc(ACL_FLOAT, 1, d15);
    assert_ptr_equal(lookup("Relu", q, q, NULL, false, NULL), c);
    oa_opmodel_unref(a);
    oa_opmodel_unref(b);
    oa_opmodel_unref(c);
    aclDestroyTensorDesc(x);
    aclDestroyTensorDesc(h);
    aclDestroyTensorDesc(w);
    aclDestroyTensorDesc(q);
}

static void compile_flag_decides_which_map_is_tried_first(void **state)
{
    (void)state;
    const int64_t dyn[1] = {-1}, d5[1] = {5};
    aclTensorDesc *s = desc(ACL_FLOAT, 1, d5), *d = desc(ACL_FLOAT, 1, dyn);
    oa_opmodel *ms = model1("Round", s, s, NULL), *md = model1("Round", d, d, NULL);
    assert_int_equal(oa_opcache_register(ms, true, NULL), OA_OK);
    assert_int_equal(oa_opcache_register(md, true, NULL), OA_OK);
    assert_ptr_equal(lookup("Round", s, s, NULL, false, NULL), ms);
    assert_int_equal(aclopSetCompileFlag(ACL_OP_COMPILE_FUZZ), ACL_SUCCESS);
    assert_ptr_equal(lookup("Round", s, s, NULL, false, NULL), md);
    assert_int_equal(aclopSetCompileFlag(ACL_OP_COMPILE_DEFAULT), ACL_SUCCESS);
    oa_opmodel_unref(ms);
    oa_opmodel_unref(md);
    aclDestroyTensorDesc(s);
    aclDestroyTensorDesc(d);
}

static void value_ranges_of_host_inputs_are_checked(void **state)
{
    (void)state;
    const int64_t d2[1] = {2}, dyn[1] = {-1};
    aclTensorDesc *x = desc(ACL_FLOAT, 1, dyn), *k = desc(ACL_INT32, 1, d2);
    assert_int_equal(aclSetTensorPlaceMent(k, ACL_MEMTYPE_HOST), ACL_SUCCESS);
    int64_t vr[2][2] = {{0, 10}, {0, 10}};
    assert_int_equal(aclSetTensorValueRange(k, 2, vr), ACL_SUCCESS);
    const aclTensorDesc *mins[2] = {x, k}, *outs[1] = {x};
    const oa_opreq mr = {.type = "Tile", .n_in = 2, .n_out = 1, .in = mins, .out = outs};
    oa_opmodel *m = NULL;
    assert_int_equal(oa_opmodel_from_req(&mr, "t", &m), OA_OK);
    assert_true(oa_opmodel_is_dynamic(m));
    reg(m, true);
    const int64_t d4[1] = {4};
    aclTensorDesc *q = desc(ACL_FLOAT, 1, d4), *qk = desc(ACL_INT32, 1, d2);
    assert_int_equal(aclSetTensorPlaceMent(qk, ACL_MEMTYPE_HOST), ACL_SUCCESS);
    int32_t ok[2] = {3, 10}, bad[2] = {3, 11};
    aclDataBuffer bq = {.data = (void *)0x1000, .length = 16}, bk = {.data = ok, .length = sizeof ok};
    const aclDataBuffer *bufs[2] = {&bq, &bk};
    const aclTensorDesc *ins[2] = {q, qk}, *qouts[1] = {q};
    const oa_opreq r = {.type = "Tile", .n_in = 2, .n_out = 1, .in = ins, .out = qouts, .in_buf = bufs};
    oa_opmodel *got = NULL;
    assert_int_equal(oa_opcache_match(&r, false, &got), OA_OK);
    oa_opmodel_unref(got);
    bk.data = bad;
    assert_int_equal(oa_opcache_match(&r, false, &got), OA_E_OP_NOT_FOUND);
    aclDestroyTensorDesc(x);
    aclDestroyTensorDesc(k);
    aclDestroyTensorDesc(q);
    aclDestroyTensorDesc(qk);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(static_key_fields_decide_hits, reset),
        cmocka_unit_test_setup(float_attrs_within_tolerance_miss_through_the_digest, reset),
        cmocka_unit_test_setup(constants_are_part_of_the_key, reset),
        cmocka_unit_test_setup(host_memory_inputs_match_by_value, reset),
        cmocka_unit_test_setup(equal_registrations_are_deduplicated, reset),
        cmocka_unit_test_setup(the_oldest_dynamic_registration_is_aged_out, reset),
        cmocka_unit_test_setup(static_registrations_are_never_aged, reset),
        cmocka_unit_test_setup(a_hit_refreshes_the_aging_order, reset),
        cmocka_unit_test_setup(cast_with_truncate_sets_the_process_flag, reset),
        cmocka_unit_test_setup(dynamic_models_admit_dims_inside_their_ranges, reset),
        cmocka_unit_test_setup(unknown_dims_without_ranges_and_unknown_rank_take_anything, reset),
        cmocka_unit_test_setup(equal_range_patterns_share_a_seq, reset),
        cmocka_unit_test_setup(compile_flag_decides_which_map_is_tried_first, reset),
        cmocka_unit_test_setup(value_ranges_of_host_inputs_are_checked, reset),
    };
    const int failed = cmocka_run_group_tests_name("aclop cache", tests, NULL, NULL);
    oa_opcache_reset_for_tests();
    return failed;
}
