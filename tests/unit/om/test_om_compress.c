/* om attribute compression: key coding, round trip, dictionary errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "base/error.h"
#include "om/om_compress.h"
#include "om_testmodel.h"

static oa_om_arena *g_arena;

static int setup_each(void **state)
{
    (void)state;
    return oa_om_arena_create(&g_arena) == OA_OK ? 0 : -1;
}

static int teardown_each(void **state)
{
    (void)state;
    oa_om_arena_destroy(g_arena);
    g_arena = NULL;
    (void)oa_error_take_messages();
    return 0;
}

static void expect_fail(oa_status st, oa_status want, const char *needle)
{
    assert_int_equal(st, want);
    const char *m = oa_error_take_messages();
    assert_non_null(m);
    if (strstr(m, needle) == NULL) {
        fail_msg("message \"%s\" lacks \"%s\"", m, needle);
    }
}

static void keys_use_base_127_digits_least_significant_first(void **state)
{
    (void)state;
    uint8_t k[OA_OM_KEY_MAX];
    assert_int_equal(oa_om_key_encode(0, k), 2);
    assert_memory_equal(k, "\x00\x01", 2);
    assert_int_equal(oa_om_key_encode(8, k), 2);
    assert_memory_equal(k, "\x00\x09", 2);
    assert_int_equal(oa_om_key_encode(126, k), 2);
    assert_memory_equal(k, "\x00\x7f", 2);
    assert_int_equal(oa_om_key_encode(127, k), 3);
    assert_memory_equal(k, "\x00\x01\x02", 3);
    assert_int_equal(oa_om_key_encode(128, k), 3);
    assert_memory_equal(k, "\x00\x02\x02", 3);
    for (uint32_t i = 0; i < 127u * 127u * 4u; ++i) {
        size_t n = oa_om_key_encode(i, k);
        ProtobufCBinaryData b = {n, k};
        size_t back = SIZE_MAX;
        assert_true(oa_om_key_is_compressed(&b));
        assert_true(oa_om_key_decode(&b, &back));
        assert_int_equal(back, i);
    }
}

static void key_decoder_follows_cann_and_rejects_garbage(void **state)
{
    (void)state;
    size_t idx = 99;
    ProtobufCBinaryData only_prefix = {1, (uint8_t *)"\0"};
    assert_true(oa_om_key_decode(&only_prefix, &idx));
    assert_int_equal(idx, 0);
    ProtobufCBinaryData zero_digit = {2, (uint8_t *)"\0\0"};
    assert_false(oa_om_key_decode(&zero_digit, &idx));
    ProtobufCBinaryData too_long = {7, (uint8_t *)"\0\1\1\1\1\1\1"};
    assert_false(oa_om_key_decode(&too_long, &idx));
    ProtobufCBinaryData plain = {4, (uint8_t *)"name"};
    assert_false(oa_om_key_is_compressed(&plain));
    assert_false(oa_om_key_decode(&plain, &idx));
    ProtobufCBinaryData big = {6, (uint8_t *)"\0\x80\x80\x80\x80\x80"}; /* > UINT32_MAX */
    assert_false(oa_om_key_decode(&big, &idx));
}

static Ge__Proto__ModelDef *decode_def(const uint8_t *buf, size_t len)
{
    ProtobufCMessage *m;
    assert_int_equal(oa_om_pb_decode(&ge__proto__model_def__descriptor, buf, len, g_arena,
                                     OA_E_GE_LOAD_MODEL_PARTITION, "def", &m),
                     OA_OK);
    return (Ge__Proto__ModelDef *)m;
}

static const Ge__Proto__AttrDef *op_attr(const Ge__Proto__ModelDef *d, const char *op, const char *key)
{
    const Ge__Proto__GraphDef *g = d->graph[0];
    for (size_t i = 0; i < g->n_op; ++i) {
        if (strcmp(g->op[i]->name, op) == 0) {
            return oa_om_attr_get(g->op[i]->attr, g->op[i]->n_attr, key);
        }
    }
    return NULL;
}

static void compression_is_reversible_byte_for_byte(void **state)
{
    (void)state;
    uint8_t *plain, *packed;
    size_t plain_len, packed_len;
    assert_int_equal(tm_build_model_def(0, &plain, &plain_len), 0);
    assert_int_equal(tm_build_model_def(1, &packed, &packed_len), 0);
    assert_true(packed_len != plain_len);

    Ge__Proto__ModelDef *c = decode_def(packed, packed_len);
    oa_om_dict d;
    assert_int_equal(oa_om_dict_read(c, "c", &d), OA_OK);
    assert_true(d.present);
    /* names in first-use order over GE's node order: Data x, then Add, ... */
    assert_true(d.n_names >= 4);
    assert_memory_equal(d.names[0].data, "index", 5);
    assert_null(op_attr(c, "add", "mode"));
    /* the serializer-added tensor attrs stay uncompressed */
    const Ge__Proto__TensorDescriptor *td = c->graph[0]->op[0]->input_desc[0];
    assert_non_null(oa_om_attr_get(td->attr, td->n_attr, "format_for_int"));

    /* compressing an already compressed model does nothing */
    assert_int_equal(oa_om_compress(c, g_arena), OA_OK);

    size_t left = 1;
    assert_int_equal(oa_om_decompress(c, &d, g_arena, "c", &left), OA_OK);
    assert_int_equal(left, 0);
    const Ge__Proto__AttrDef *mode = op_attr(c, "add", "mode");
    assert_non_null(mode);
    assert_int_equal(mode->value_case, GE__PROTO__ATTR_DEF__VALUE_S);
    assert_memory_equal(mode->s.data, "fast", 4);
    const Ge__Proto__AttrDef *tags = op_attr(c, "add", "tags");
    assert_non_null(tags);
    assert_int_equal(tags->list->n_s, 3);
    assert_int_equal(tags->list->val_type, GE__PROTO__ATTR_DEF__LIST_VALUE__LIST_VALUE_TYPE__VT_LIST_STRING);
    oa_om_dict_drop(c);
    uint8_t *again;
    size_t again_len;
    assert_int_equal(oa_om_pb_encode(&c->base, &again, &again_len), OA_OK);
    assert_int_equal(again_len, plain_len);
    assert_memory_equal(again, plain, plain_len);

    /* and compressing the decompressed model gives the compressed bytes back */
    assert_int_equal(oa_om_compress(c, g_arena), OA_OK);
    free(again);
    assert_int_equal(oa_om_pb_encode(&c->base, &again, &again_len), OA_OK);
    assert_int_equal(again_len, packed_len);
    assert_memory_equal(again, packed, packed_len);
    free(again);
    free(plain);
    free(packed);
}

/* A compressed reference model whose dictionaries are then damaged by `damage`. */
static Ge__Proto__ModelDef *compressed_model(oa_om_dict *d)
{
    uint8_t *packed;
    size_t len;
    assert_int_equal(tm_build_model_def(1, &packed, &len), 0);
    Ge__Proto__ModelDef *c = decode_def(packed, len);
    free(packed);
    assert_int_equal(oa_om_dict_read(c, "c", d), OA_OK);
    return c;
}

static Ge__Proto__AttrMapEntry *first_compressed_key(Ge__Proto__ModelDef *c, const char *op)
{
    Ge__Proto__GraphDef *g = c->graph[0];
    for (size_t i = 0; i < g->n_op; ++i) {
        if (strcmp(g->op[i]->name, op) == 0) {
            for (size_t k = 0; k < g->op[i]->n_attr; ++k) {
                if (oa_om_key_is_compressed(&g->op[i]->attr[k]->key)) {
                    return g->op[i]->attr[k];
                }
            }
        }
    }
    return NULL;
}

static void decompression_rejects_bad_dictionaries(void **state)
{
    (void)state;
    oa_om_dict d;
    Ge__Proto__ModelDef *c = compressed_model(&d);
    oa_om_dict bad = d;
    bad.n_names = 0;
    expect_fail(oa_om_decompress(c, &bad, g_arena, "m", NULL), OA_E_GE_LOAD_MODEL_PARTITION, "name dictionary");

    c = compressed_model(&d);
    bad = d;
    bad.n_values = 0;
    expect_fail(oa_om_decompress(c, &bad, g_arena, "m", NULL), OA_E_GE_LOAD_MODEL_PARTITION, "value index");

    c = compressed_model(&d);
    Ge__Proto__AttrMapEntry *e = first_compressed_key(c, "x");
    assert_non_null(e);
    e->key.len = 0;
    expect_fail(oa_om_decompress(c, &d, g_arena, "m", NULL), OA_E_GE_LOAD_MODEL_PARTITION, "empty attribute name");

    /* a name that cannot become a proto string key */
    c = compressed_model(&d);
    bad = d;
    ProtobufCBinaryData names[64];
    assert_true(d.n_names <= 64);
    memcpy(names, d.names, d.n_names * sizeof(*names));
    names[0].data = (uint8_t *)"\xff";
    names[0].len = 1;
    bad.names = names;
    expect_fail(oa_om_decompress(c, &bad, g_arena, "m", NULL), OA_E_GE_LOAD_MODEL_PARTITION, "not UTF-8");

    /* a string-valued name whose value is a float */
    c = compressed_model(&d);
    Ge__Proto__GraphDef *g = c->graph[0];
    for (size_t i = 0; i < g->n_op; ++i) {
        if (strcmp(g->op[i]->name, "add") != 0) {
            continue;
        }
        for (size_t k = 0; k < g->op[i]->n_attr; ++k) {
            Ge__Proto__AttrDef *v = g->op[i]->attr[k]->value;
            size_t idx;
            if (oa_om_key_decode(&g->op[i]->attr[k]->key, &idx) && d.use_string[idx] &&
                v->value_case == GE__PROTO__ATTR_DEF__VALUE_I) {
                v->value_case = GE__PROTO__ATTR_DEF__VALUE_F;
            }
        }
    }
    expect_fail(oa_om_decompress(c, &d, g_arena, "m", NULL), OA_E_GE_LOAD_MODEL_PARTITION,
                "neither an int nor a list");
}

static void dictionary_attrs_must_be_complete(void **state)
{
    (void)state;
    oa_om_dict d;
    Ge__Proto__ModelDef *c = compressed_model(&d);
    /* rename the value dictionary away */
    for (size_t i = 0; i < c->n_attr; ++i) {
        if (c->attr[i]->key.len == strlen(OA_OM_ATTR_VALUE_ENUM) &&
            memcmp(c->attr[i]->key.data, OA_OM_ATTR_VALUE_ENUM, c->attr[i]->key.len) == 0) {
            c->attr[i]->key.data = (uint8_t *)"gone";
            c->attr[i]->key.len = 4;
        }
    }
    expect_fail(oa_om_dict_read(c, "m", &d), OA_E_GE_LOAD_MODEL_PARTITION, OA_OM_ATTR_VALUE_ENUM);

    c = compressed_model(&d);
    for (size_t i = 0; i < c->n_attr; ++i) {
        if (c->attr[i]->key.len == strlen(OA_OM_ATTR_USE_STRING) &&
            memcmp(c->attr[i]->key.data, OA_OM_ATTR_USE_STRING, c->attr[i]->key.len) == 0) {
            c->attr[i]->value->list->n_b--;
        }
    }
    expect_fail(oa_om_dict_read(c, "m", &d), OA_E_GE_LOAD_MODEL_PARTITION, "use-string flags");

    uint8_t *plain;
    size_t len;
    assert_int_equal(tm_build_model_def(0, &plain, &len), 0);
    c = decode_def(plain, len);
    free(plain);
    assert_int_equal(oa_om_dict_read(c, "m", &d), OA_OK);
    assert_false(d.present);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(keys_use_base_127_digits_least_significant_first, setup_each, teardown_each),
        cmocka_unit_test_setup_teardown(key_decoder_follows_cann_and_rejects_garbage, setup_each, teardown_each),
        cmocka_unit_test_setup_teardown(compression_is_reversible_byte_for_byte, setup_each, teardown_each),
        cmocka_unit_test_setup_teardown(decompression_rejects_bad_dictionaries, setup_each, teardown_each),
        cmocka_unit_test_setup_teardown(dictionary_attrs_must_be_complete, setup_each, teardown_each),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
