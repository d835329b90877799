/*
 * Netron compatibility (docs/om_format.md "Netron"): files we write pass the
 * checker, and the checker catches each thing Netron trips on.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "base/error.h"
#include "netron_check.h"
#include "om_testmodel.h"

static void expect_ok(const uint8_t *img, size_t len)
{
    char msg[256];
    if (netron_check(img, len, msg, sizeof(msg)) != 0) {
        fail_msg("netron check failed: %s", msg);
    }
}

static void expect_refused(const uint8_t *img, size_t len, const char *needle)
{
    char msg[256];
    assert_int_equal(netron_check(img, len, msg, sizeof(msg)), -1);
    if (strstr(msg, needle) == NULL) {
        fail_msg("netron message \"%s\" lacks \"%s\"", msg, needle);
    }
}

static void written_files_open_in_netron(void **state)
{
    (void)state;
    const tm_variant ok[] = {TM_STATIC, TM_COMPRESSED, TM_DYNAMIC};
    for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); ++i) {
        uint8_t *img;
        size_t len;
        assert_int_equal(tm_build_image(ok[i], &img, &len), 0);
        expect_ok(img, len);
        free(img);
    }
}

static void single_partition_table_is_misread(void **state)
{
    (void)state;
    uint8_t *img;
    size_t len;
    assert_int_equal(tm_build_image(TM_DEF_ONLY, &img, &len), 0);
    expect_refused(img, len, "read as a 32-bit one");
    free(img);
}

/* Builds the reference image after `edit` changed the model. */
typedef void (*edit_fn)(oa_om_arena *a, Ge__Proto__ModelDef *m);

static void check_edit(edit_fn edit, const char *needle)
{
    oa_om_arena *a;
    assert_int_equal(oa_om_arena_create(&a), OA_OK);
    const uint8_t *w;
    size_t wl;
    Ge__Proto__ModelDef *m = tm_reference_model(a, &w, &wl);
    edit(a, m);
    uint8_t *img;
    size_t len;
    assert_int_equal(tm_image_from_model(m, w, wl, &img, &len), 0);
    expect_refused(img, len, needle);
    free(img);
    oa_om_arena_destroy(a);
}

static Ge__Proto__OpDef *op_named(Ge__Proto__ModelDef *m, const char *name)
{
    for (size_t i = 0; i < m->graph[0]->n_op; ++i) {
        if (strcmp(m->graph[0]->op[i]->name, name) == 0) {
            return m->graph[0]->op[i];
        }
    }
    return NULL;
}

static void big_dtype(oa_om_arena *a, Ge__Proto__ModelDef *m)
{
    (void)a;
    op_named(m, "add")->output_desc[0]->dtype = 33; /* COMPLEX32 in the proto enum */
}

static void td_attr(oa_om_arena *a, Ge__Proto__ModelDef *m)
{
    Ge__Proto__OpDef *op = op_named(m, "add");
    Ge__Proto__AttrDef *v = tm_attr(a, &op->attr, &op->n_attr, "desc");
    v->value_case = GE__PROTO__ATTR_DEF__VALUE_TD;
    v->td = op->output_desc[0];
}

static void big_dt_attr(oa_om_arena *a, Ge__Proto__ModelDef *m)
{
    Ge__Proto__OpDef *op = op_named(m, "add");
    Ge__Proto__AttrDef *v = tm_attr(a, &op->attr, &op->n_attr, "dst_type");
    v->value_case = GE__PROTO__ATTR_DEF__VALUE_DT;
    v->dt = 32; /* GE's UINT2 */
}

static void consumer_disagrees(oa_om_arena *a, Ge__Proto__ModelDef *m)
{
    (void)a;
    op_named(m, "pc")->input_desc[0]->dtype = 3; /* producer add says FLOAT */
}

static void const_is_not_a_tensor(oa_om_arena *a, Ge__Proto__ModelDef *m)
{
    (void)a;
    Ge__Proto__OpDef *w = op_named(m, "w");
    w->attr[0]->value->value_case = GE__PROTO__ATTR_DEF__VALUE_I;
}

static void netron_rules_are_enforced(void **state)
{
    (void)state;
    check_edit(big_dtype, "Unsupported dtype '33'");
    check_edit(td_attr, "'td'");
    check_edit(big_dt_attr, "Unsupported dtype '32'");
    check_edit(consumer_disagrees, "Duplicate value 'add:0'");
    check_edit(const_is_not_a_tensor, "not a tensor");
}

static void container_rules_are_enforced(void **state)
{
    (void)state;
    uint8_t *def;
    size_t def_len;
    assert_int_equal(tm_build_model_def(0, &def, &def_len), 0);
    const uint8_t blob[8] = {1};
    oa_om_header h;
    oa_om_header_init(&h);
    oa_om_part_src p[2] = {{OA_OM_PART_MODEL_DEF, def, def_len}, {OA_OM_PART_SO_BINS, blob, sizeof(blob)}};
    oa_om_table_src t = {p, 2};
    uint8_t *img;
    size_t len;
    assert_int_equal(oa_om_container_write_memory(&h, &t, 1, &img, &len), OA_OK);
    expect_refused(img, len, "type '5'");
    free(img);
    p[1].type = OA_OM_PART_CUSTOM_OPS;
    assert_int_equal(oa_om_container_write_memory(&h, &t, 1, &img, &len), OA_OK);
    expect_refused(img, len, "type '26'");
    free(img);
    p[1].type = OA_OM_PART_TASK_INFO;
    assert_int_equal(oa_om_container_write_memory(&h, &t, 1, &img, &len), OA_OK);
    expect_ok(img, len);
    img[256 + 8] = OA_OM_PART_WEIGHTS_DATA; /* the writer refuses a table without MODEL_DEF: patch */
    expect_refused(img, len, "does not contain a model definition");
    img[256 + 8] = OA_OM_PART_MODEL_DEF;
    img[0] = 'X';
    expect_refused(img, len, "not a DaVinci OM");
    free(img);
    free(def);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(written_files_open_in_netron),
        cmocka_unit_test(single_partition_table_is_misread),
        cmocka_unit_test(netron_rules_are_enforced),
        cmocka_unit_test(container_rules_are_enforced),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
