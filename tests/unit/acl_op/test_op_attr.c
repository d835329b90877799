/*
 * aclopAttr: every setter (kinds, replacement, CANN's argument rules),
 * equality with the 1e-6 float tolerance, NaN/inf rules, the digest that
 * hashes values only (names ignored) and floats exactly (the cache QUIRK),
 * and conversion to IR node attributes.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "acl/acl.h"
#include "acl_op/op_attr.h"
#include "graph/graph.h"

static void expect_fail(aclError got, aclError want, const char *part)
{
    assert_int_equal(got, want);
    const char *m = aclGetRecentErrMsg();
    assert_non_null(m);
    if (part != NULL && strstr(m, part) == NULL) {
        fail_msg("message [%s] does not mention [%s]", m, part);
    }
}

static void every_setter_stores_its_kind(void **state)
{
    (void)state;
    aclopAttr *a = aclopCreateAttr();
    assert_non_null(a);
    const int64_t li[3] = {1, -2, 3};
    const float lf[2] = {0.5f, -1.25f};
    const uint8_t lb[3] = {1, 0, 7};
    const char *ls[2] = {"NCHW", ""};
    const aclDataType ld[3] = {ACL_FLOAT, ACL_DT_UNDEFINED, ACL_INT64};
    const int64_t r0[2] = {1, 2}, r1[1] = {3};
    const int64_t *const lli[3] = {r0, r1, r0};
    const int lens[3] = {2, 1, 0};
    assert_int_equal(aclopSetAttrBool(a, "b", 2), ACL_SUCCESS);
    assert_int_equal(aclopSetAttrInt(a, "i", -7), ACL_SUCCESS);
    assert_int_equal(aclopSetAttrFloat(a, "f", 0.25f), ACL_SUCCESS);
    assert_int_equal(aclopSetAttrString(a, "s", "SAME"), ACL_SUCCESS);
    assert_int_equal(aclopSetAttrDataType(a, "dt", ACL_FLOAT16), ACL_SUCCESS);
    assert_int_equal(aclopSetAttrDataType(a, "dtu", ACL_DT_UNDEFINED), ACL_SUCCESS);
    assert_int_equal(aclopSetAttrListInt(a, "li", 3, li), ACL_SUCCESS);
    assert_int_equal(aclopSetAttrListFloat(a, "lf", 2, lf), ACL_SUCCESS);
    assert_int_equal(aclopSetAttrListBool(a, "lb", 3, lb), ACL_SUCCESS);
    assert_int_equal(aclopSetAttrListString(a, "ls", 2, ls), ACL_SUCCESS);
    assert_int_equal(aclopSetAttrListDataType(a, "ld", 3, ld), ACL_SUCCESS);
    assert_int_equal(aclopSetAttrListListInt(a, "lli", 3, lens, lli), ACL_SUCCESS);
    assert_int_equal(oa_opattr_count(a), 12);

    const oa_opattr_item *it = oa_opattr_find(a, "b");
    assert_int_equal(it->kind, OA_OPATTR_BOOL);
    assert_true(it->u.b);
    it = oa_opattr_find(a, "i");
    assert_int_equal(it->kind, OA_OPATTR_INT);
    assert_int_equal(it->u.i, -7);
    assert_int_equal(oa_opattr_find(a, "f")->kind, OA_OPATTR_FLOAT);
    assert_string_equal(oa_opattr_find(a, "s")->u.s, "SAME");
    assert_int_equal(oa_opattr_find(a, "dt")->u.dt, 1);
    assert_int_equal(oa_opattr_find(a, "dtu")->u.dt, OA_GE_DT_UNDEFINED);
    it = oa_opattr_find(a, "lb");
    assert_int_equal(it->u.list.n, 3);
    assert_true(((const bool *)it->u.list.v)[2]);
    it = oa_opattr_find(a, "ld");
    assert_int_equal(((const int32_t *)it->u.list.v)[1], OA_GE_DT_UNDEFINED);
    it = oa_opattr_find(a, "lli");
    assert_int_equal(it->u.lli.n, 3);
    assert_int_equal(it->u.lli.lens[0], 2);
    assert_int_equal(it->u.lli.lens[2], 0);
    assert_int_equal(it->u.lli.v[1][0], 3);
    /* name order, as std::map */
    assert_string_equal(a->items[0].name, "b");
    assert_string_equal(a->items[a->n - 1].name, "s");

    char buf[512];
    oa_opattr_str(a, buf, sizeof buf);
    assert_non_null(strstr(buf, "lli = [[1, 2], [3], []]"));
    aclopDestroyAttr(a);
    aclopDestroyAttr(NULL);
}

static void setting_a_name_again_replaces_value_and_kind(void **state)
{
    (void)state;
    aclopAttr *a = aclopCreateAttr();
    assert_int_equal(aclopSetAttrInt(a, "x", 1), ACL_SUCCESS);
    assert_int_equal(aclopSetAttrString(a, "x", "one"), ACL_SUCCESS);
    assert_int_equal(oa_opattr_count(a), 1);
    assert_int_equal(oa_opattr_find(a, "x")->kind, OA_OPATTR_STRING);
    const int64_t v[2] = {4, 5};
    assert_int_equal(aclopSetAttrListInt(a, "x", 2, v), ACL_SUCCESS);
    assert_int_equal(oa_opattr_find(a, "x")->u.list.n, 2);
    aclopDestroyAttr(a);
}

static void setters_check_arguments_as_cann(void **state)
{
    (void)state;
    aclopAttr *a = aclopCreateAttr();
    const int64_t v[1] = {1};
    expect_fail(aclopSetAttrInt(NULL, "x", 1), ACL_ERROR_INVALID_PARAM, "attr");
    expect_fail(aclopSetAttrInt(a, NULL, 1), ACL_ERROR_INVALID_PARAM, "attrName");
    expect_fail(aclopSetAttrString(a, "x", NULL), ACL_ERROR_INVALID_PARAM, "attrValue");
    expect_fail(aclopSetAttrListInt(a, "x", 2, NULL), ACL_ERROR_INVALID_PARAM, "values");
    expect_fail(aclopSetAttrListFloat(a, "x", 1, NULL), ACL_ERROR_INVALID_PARAM, "values");
    expect_fail(aclopSetAttrListBool(a, "x", 1, NULL), ACL_ERROR_INVALID_PARAM, "values");
    expect_fail(aclopSetAttrListDataType(a, "x", 1, NULL), ACL_ERROR_INVALID_PARAM, "values");
    const char *ls[2] = {"a", NULL};
    expect_fail(aclopSetAttrListString(a, "x", 2, ls), ACL_ERROR_INVALID_PARAM, "element 1");
    const int lens[1] = {1};
    expect_fail(aclopSetAttrListListInt(a, "x", 1, NULL, NULL), ACL_ERROR_INVALID_PARAM, "numValues");
    expect_fail(aclopSetAttrListListInt(a, "x", 1, lens, NULL), ACL_ERROR_INVALID_PARAM, "values");
    assert_int_equal(oa_opattr_count(a), 0);
    /* CANN copies max(n, 0) values: a negative or zero count sets an empty list, values may be NULL */
    assert_int_equal(aclopSetAttrListInt(a, "neg", -3, NULL), ACL_SUCCESS);
    assert_int_equal(oa_opattr_find(a, "neg")->u.list.n, 0);
    assert_int_equal(aclopSetAttrListInt(a, "zero", 0, v), ACL_SUCCESS);
    assert_int_equal(oa_opattr_find(a, "zero")->kind, OA_OPATTR_LIST_INT);
    const int neg[1] = {-4};
    const int64_t *const rows[1] = {v};
    assert_int_equal(aclopSetAttrListListInt(a, "lln", 1, neg, rows), ACL_SUCCESS);
    assert_int_equal(oa_opattr_find(a, "lln")->u.lli.lens[0], 0);
    aclopDestroyAttr(a);
}

static aclopAttr *one_float(const char *name, float f)
{
    aclopAttr *a = oa_opattr_create();
    assert_int_equal(oa_opattr_set_float(a, name, f), OA_OK);
    return a;
}

static void float_equality_has_1e6_tolerance(void **state)
{
    (void)state;
    aclopAttr *x = one_float("alpha", 1.0f);
    aclopAttr *y = one_float("alpha", 1.0f + 5e-7f);
    aclopAttr *z = one_float("alpha", 1.0f + 1e-5f);
    assert_true(oa_opattr_equal(x, y));
    assert_false(oa_opattr_equal(x, z));
    /* QUIRK: equal within tolerance but the digests (exact bits) differ -> the cache keys differ */
    assert_int_not_equal(oa_opattr_digest(x), oa_opattr_digest(y));
    /* +0 and -0 hash alike */
    aclopAttr *p0 = one_float("alpha", 0.0f), *n0 = one_float("alpha", -0.0f);
    assert_true(oa_opattr_equal(p0, n0));
    assert_int_equal(oa_opattr_digest(p0), oa_opattr_digest(n0));
    /* NaN equals NaN, infinities equal whatever their signs */
    aclopAttr *nan1 = one_float("v", NAN), *nan2 = one_float("v", -NAN);
    aclopAttr *pinf = one_float("v", INFINITY), *ninf = one_float("v", -INFINITY);
    aclopAttr *one = one_float("v", 1.0f);
    assert_true(oa_opattr_equal(nan1, nan2));
    assert_true(oa_opattr_equal(pinf, ninf));
    assert_false(oa_opattr_equal(nan1, one));
    assert_false(oa_opattr_equal(pinf, one));
    /* lists too */
    aclopAttr *l1 = oa_opattr_create(), *l2 = oa_opattr_create(), *l3 = oa_opattr_create();
    const float a[3] = {1.0f, NAN, INFINITY}, b[3] = {1.0000005f, NAN, -INFINITY}, c[2] = {1.0f, NAN};
    assert_int_equal(oa_opattr_set_list_float(l1, "f", 3, a), OA_OK);
    assert_int_equal(oa_opattr_set_list_float(l2, "f", 3, b), OA_OK);
    assert_int_equal(oa_opattr_set_list_float(l3, "f", 2, c), OA_OK);
    assert_true(oa_opattr_equal(l1, l2));
    assert_false(oa_opattr_equal(l1, l3));
    aclopAttr *all[] = {x, y, z, p0, n0, nan1, nan2, pinf, ninf, one, l1, l2, l3};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) {
        oa_opattr_destroy(all[i]);
    }
}

static void names_matter_for_equality_not_for_digest(void **state)
{
    (void)state;
    aclopAttr *x = oa_opattr_create(), *y = oa_opattr_create(), *z = oa_opattr_create();
    assert_int_equal(oa_opattr_set_int(x, "axis", 1), OA_OK);
    assert_int_equal(oa_opattr_set_int(y, "dim", 1), OA_OK);
    assert_int_equal(oa_opattr_set_bool(z, "axis", true), OA_OK);
    assert_false(oa_opattr_equal(x, y));
    assert_int_equal(oa_opattr_digest(x), oa_opattr_digest(y)); /* values only */
    assert_false(oa_opattr_equal(x, z));                         /* kinds differ */
    /* counts */
    assert_int_equal(oa_opattr_set_int(y, "axis", 1), OA_OK);
    assert_false(oa_opattr_equal(x, y));
    /* NULL is the empty map */
    aclopAttr *e = oa_opattr_create();
    assert_true(oa_opattr_equal(NULL, e));
    assert_int_equal(oa_opattr_digest(NULL), 0);
    assert_int_equal(oa_opattr_digest(e), 0);
    assert_false(oa_opattr_equal(NULL, x));
    /* other-kind values never equal */
    aclopAttr *o1 = oa_opattr_create(), *o2 = oa_opattr_create();
    assert_int_equal(oa_opattr_set_other(o1, "t", 12), OA_OK);
    assert_int_equal(oa_opattr_set_other(o2, "t", 12), OA_OK);
    assert_false(oa_opattr_equal(o1, o2));
    aclopAttr *all[] = {x, y, z, e, o1, o2};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) {
        oa_opattr_destroy(all[i]);
    }
}

static void clone_is_deep_and_equal(void **state)
{
    (void)state;
    aclopAttr *a = oa_opattr_create();
    const char *ls[2] = {"x", "yy"};
    const int64_t r0[2] = {1, 2};
    const int64_t *const rows[1] = {r0};
    const size_t lens[1] = {2};
    assert_int_equal(oa_opattr_set_list_string(a, "ls", 2, ls), OA_OK);
    assert_int_equal(oa_opattr_set_list_list_int(a, "lli", 1, lens, rows), OA_OK);
    assert_int_equal(oa_opattr_set_string(a, "s", "v"), OA_OK);
    aclopAttr *b = NULL;
    assert_int_equal(oa_opattr_clone(a, &b), OA_OK);
    assert_true(oa_opattr_equal(a, b));
    assert_int_equal(oa_opattr_digest(a), oa_opattr_digest(b));
    oa_opattr_destroy(a);
    assert_string_equal(((char *const *)oa_opattr_find(b, "ls")->u.list.v)[1], "yy");
    assert_true(oa_opattr_remove(b, "ls"));
    assert_false(oa_opattr_remove(b, "ls"));
    assert_int_equal(oa_opattr_count(b), 2);
    oa_opattr_destroy(b);
    aclopAttr *c = NULL;
    assert_int_equal(oa_opattr_clone(NULL, &c), OA_OK);
    assert_int_equal(oa_opattr_count(c), 0);
    oa_opattr_destroy(c);
}

static void converts_to_ir_attributes(void **state)
{
    (void)state;
    aclopAttr *a = oa_opattr_create();
    const int64_t li[2] = {2, 3};
    const int32_t ld[2] = {0, 9};
    const int64_t r0[2] = {1, 1};
    const int64_t *const rows[1] = {r0};
    const size_t lens[1] = {2};
    assert_int_equal(oa_opattr_set_list_int(a, "perm", 2, li), OA_OK);
    assert_int_equal(oa_opattr_set_float(a, "alpha", 0.5f), OA_OK);
    assert_int_equal(oa_opattr_set_dtype(a, "dtype", 3), OA_OK);
    assert_int_equal(oa_opattr_set_list_dtype(a, "dts", 2, ld), OA_OK);
    assert_int_equal(oa_opattr_set_list_list_int(a, "paddings", 1, lens, rows), OA_OK);
    oa_graph *g;
    assert_int_equal(oa_graph_create("t", &g), OA_OK);
    oa_node *n;
    assert_int_equal(oa_graph_add_node_typed(g, "TransposeD", "n", 1, 1, &n), OA_OK);
    assert_int_equal(oa_opattr_to_ir(a, g, &n->attrs), OA_OK);
    const int64_t *v;
    size_t cnt;
    assert_true(oa_attrs_get_list_int(&n->attrs, "perm", &v, &cnt));
    assert_int_equal(cnt, 2);
    assert_int_equal(v[1], 3);
    float f;
    assert_true(oa_attrs_get_float(&n->attrs, "alpha", &f));
    assert_true(f == 0.5f);
    oa_dtype dt;
    assert_true(oa_attrs_get_dtype(&n->attrs, "dtype", &dt));
    assert_int_equal(dt, OA_DT_INT32);
    assert_int_equal(oa_attrs_find(&n->attrs, "paddings")->type, OA_ATTR_LIST_LIST_INT);
    /* a value kind the IR cannot take is refused */
    assert_int_equal(oa_opattr_set_other(a, "t", 12), OA_OK);
    assert_int_equal(oa_opattr_to_ir(a, g, &n->attrs), OA_E_PARAM);
    oa_graph_destroy(g);
    oa_opattr_destroy(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_setter_stores_its_kind),
        cmocka_unit_test(setting_a_name_again_replaces_value_and_kind),
        cmocka_unit_test(setters_check_arguments_as_cann),
        cmocka_unit_test(float_equality_has_1e6_tolerance),
        cmocka_unit_test(names_matter_for_equality_not_for_digest),
        cmocka_unit_test(clone_is_deep_and_equal),
        cmocka_unit_test(converts_to_ir_attributes),
    };
    return cmocka_run_group_tests_name("aclop attributes", tests, NULL, NULL);
}
