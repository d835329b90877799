/* om protobuf layer: C++-identical encoding rules and the checked decoder. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "base/error.h"
#include "om/om_pb.h"
#include "om_testmodel.h"

static oa_om_arena *g_arena;

static int setup(void **state)
{
    (void)state;
    return oa_om_arena_create(&g_arena) == OA_OK ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    oa_om_arena_destroy(g_arena);
    g_arena = NULL;
    return 0;
}

static void expect_bytes(ProtobufCMessage *m, const uint8_t *want, size_t n)
{
    uint8_t *buf;
    size_t len;
    assert_int_equal(oa_om_pb_encode(m, &buf, &len), OA_OK);
    assert_int_equal(len, n);
    assert_memory_equal(buf, want, n);
    free(buf);
}

static void expect_decode_fail(const ProtobufCMessageDescriptor *d, const uint8_t *data, size_t n, const char *needle)
{
    ProtobufCMessage *m = (ProtobufCMessage *)1;
    assert_int_equal(oa_om_pb_decode(d, data, n, g_arena, OA_E_GE_LOAD_MODEL_PARTITION, "test", &m),
                     OA_E_GE_LOAD_MODEL_PARTITION);
    assert_null(m);
    const char *msg = oa_error_take_messages();
    assert_non_null(msg);
    if (strstr(msg, needle) == NULL) {
        fail_msg("message \"%s\" lacks \"%s\"", msg, needle);
    }
}

static void oneof_zero_values_are_written(void **state)
{
    (void)state;
    Ge__Proto__AttrDef a;
    ge__proto__attr_def__init(&a);
    a.value_case = GE__PROTO__ATTR_DEF__VALUE_I;
    a.i = 0;
    expect_bytes(&a.base, (const uint8_t[]){0x18, 0x00}, 2);
    a.value_case = GE__PROTO__ATTR_DEF__VALUE_B;
    a.b = 0;
    expect_bytes(&a.base, (const uint8_t[]){0x28, 0x00}, 2);
    a.value_case = GE__PROTO__ATTR_DEF__VALUE_F;
    a.f = -0.0f;
    expect_bytes(&a.base, (const uint8_t[]){0x25, 0x00, 0x00, 0x00, 0x80}, 5);
    a.value_case = GE__PROTO__ATTR_DEF__VALUE_S;
    a.s.len = 0;
    expect_bytes(&a.base, (const uint8_t[]){0x12, 0x00}, 2);
    a.value_case = GE__PROTO__ATTR_DEF__VALUE_DT;
    a.dt = -1; /* negative int64: ten-byte varint */
    expect_bytes(&a.base, (const uint8_t[]){0x78, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, 11);
    a.value_case = GE__PROTO__ATTR_DEF__VALUE__NOT_SET;
    expect_bytes(&a.base, NULL, 0);
}

static void defaults_are_omitted_and_fields_ascend(void **state)
{
    (void)state;
    Ge__Proto__TensorDescriptor td;
    ge__proto__tensor_descriptor__init(&td);
    Ge__Proto__ShapeDef shape;
    ge__proto__shape_def__init(&shape);
    td.shape = &shape; /* set but empty: written as 1a 00 */
    td.size = 4;
    td.device_type = (char *)""; /* empty string: omitted */
    Ge__Proto__AttrDef v;
    ge__proto__attr_def__init(&v);
    v.value_case = GE__PROTO__ATTR_DEF__VALUE_I;
    v.i = 1;
    Ge__Proto__AttrMapEntry e;
    ge__proto__attr_map_entry__init(&e);
    e.key.data = (uint8_t *)"a";
    e.key.len = 1;
    e.value = &v;
    Ge__Proto__AttrMapEntry *ep = &e;
    td.attr = &ep;
    td.n_attr = 1;
    /* shape (3), attr (5) before size (10) */
    expect_bytes(&td.base, (const uint8_t[]){0x1a, 0x00, 0x2a, 0x07, 0x0a, 0x01, 'a', 0x12, 0x02, 0x18, 0x01, 0x50, 0x04},
                 13);
}

static void repeated_scalars_are_packed(void **state)
{
    (void)state;
    Ge__Proto__ShapeDef s;
    ge__proto__shape_def__init(&s);
    int64_t dims[] = {1, -1, 300};
    s.dim = dims;
    s.n_dim = 3;
    expect_bytes(&s.base,
                 (const uint8_t[]){0x0a, 0x0d, 0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 0xac,
                                   0x02},
                 15);
    Ge__Proto__OpDef op;
    ge__proto__op_def__init(&op);
    protobuf_c_boolean c[] = {0, 1};
    op.is_input_const = c;
    op.n_is_input_const = 2;
    expect_bytes(&op.base, (const uint8_t[]){0x82, 0x02, 0x02, 0x00, 0x01}, 5);
}

static Ge__Proto__AttrMapEntry *entry(const char *key, size_t klen, int64_t i)
{
    Ge__Proto__AttrMapEntry *e = oa_om_arena_alloc(g_arena, sizeof(*e));
    Ge__Proto__AttrDef *v = oa_om_arena_alloc(g_arena, sizeof(*v));
    ge__proto__attr_map_entry__init(e);
    ge__proto__attr_def__init(v);
    v->value_case = GE__PROTO__ATTR_DEF__VALUE_I;
    v->i = i;
    e->key.data = (uint8_t *)(uintptr_t)key;
    e->key.len = klen;
    e->value = v;
    return e;
}

static void map_entries_are_sorted_deduplicated_and_complete(void **state)
{
    (void)state;
    Ge__Proto__OpDef op;
    ge__proto__op_def__init(&op);
    Ge__Proto__AttrMapEntry *es[4] = {entry("b", 1, 1), entry("\0\x01", 2, 2), entry("a", 1, 3), entry("b", 1, 4)};
    op.attr = es;
    op.n_attr = 4;
    /* "\0\x01" < "a" < "b" (the last "b" wins) */
    expect_bytes(&op.base,
                 (const uint8_t[]){0x52, 0x08, 0x0a, 0x02, 0x00, 0x01, 0x12, 0x02, 0x18, 0x02, 0x52, 0x07, 0x0a, 0x01,
                                   'a',  0x12, 0x02, 0x18, 0x03, 0x52, 0x07, 0x0a, 0x01, 'b',  0x12, 0x02, 0x18, 0x04},
                 28);
    assert_int_equal(op.n_attr, 3);

    /* Empty key and empty value: both still written (protobuf-c would drop them). */
    Ge__Proto__AttrMapEntry *e = entry("", 0, 0);
    e->value->value_case = GE__PROTO__ATTR_DEF__VALUE__NOT_SET;
    op.attr = &e;
    op.n_attr = 1;
    expect_bytes(&op.base, (const uint8_t[]){0x52, 0x04, 0x0a, 0x00, 0x12, 0x00}, 6);
    e->value = NULL; /* a missing value is written as an empty one */
    expect_bytes(&op.base, (const uint8_t[]){0x52, 0x04, 0x0a, 0x00, 0x12, 0x00}, 6);

    Domi__StringMapEntry se;
    domi__string_map_entry__init(&se);
    Domi__StringMapEntry *sp = &se;
    Domi__ModelTaskDef t;
    domi__model_task_def__init(&t);
    t.attr = &sp;
    t.n_attr = 1;
    expect_bytes(&t.base, (const uint8_t[]){0x4a, 0x04, 0x0a, 0x00, 0x12, 0x00}, 6);

    /* Integer keys sort numerically. */
    Ge__Proto__ShapeEnvAttrGroupsDef g;
    ge__proto__shape_env_attr_groups_def__init(&g);
    Ge__Proto__ShapeEnvAttrGroupsDef__ValueToSymbolEntry k1, k2;
    ge__proto__shape_env_attr_groups_def__value_to_symbol_entry__init(&k1);
    ge__proto__shape_env_attr_groups_def__value_to_symbol_entry__init(&k2);
    k1.key = 5;
    k2.key = -1;
    Ge__Proto__ShapeEnvAttrGroupsDef__ValueToSymbolEntry *ks[] = {&k1, &k2};
    g.value_to_symbol = ks;
    g.n_value_to_symbol = 2;
    expect_bytes(&g.base,
                 (const uint8_t[]){0x12, 0x0d, 0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 0x12,
                                   0x00, 0x12, 0x04, 0x08, 0x05, 0x12, 0x00},
                 21);
}

static void unknown_fields_survive_a_round_trip(void **state)
{
    (void)state;
    /* ShapeDef{dim: [7]} + unknown field 99 (varint 5) + unknown 100 (bytes "xy") */
    const uint8_t in[] = {0x0a, 0x01, 0x07, 0x98, 0x06, 0x05, 0xa2, 0x06, 0x02, 'x', 'y'};
    ProtobufCMessage *m;
    assert_int_equal(oa_om_pb_decode(&ge__proto__shape_def__descriptor, in, sizeof(in), g_arena,
                                     OA_E_GE_LOAD_MODEL_PARTITION, "shape", &m),
                     OA_OK);
    expect_bytes(m, in, sizeof(in));
    /* Known fields written unpacked are re-written packed, as C++ does. */
    const uint8_t loose[] = {0x08, 0x07, 0x08, 0x08};
    assert_int_equal(oa_om_pb_decode(&ge__proto__shape_def__descriptor, loose, sizeof(loose), g_arena,
                                     OA_E_GE_LOAD_MODEL_PARTITION, "shape", &m),
                     OA_OK);
    expect_bytes(m, (const uint8_t[]){0x0a, 0x02, 0x07, 0x08}, 4);
}

static void reference_model_round_trips(void **state)
{
    (void)state;
    for (int compressed = 0; compressed < 2; ++compressed) {
        uint8_t *buf;
        size_t len;
        assert_int_equal(tm_build_model_def(compressed, &buf, &len), 0);
        ProtobufCMessage *m;
        assert_int_equal(oa_om_pb_decode(&ge__proto__model_def__descriptor, buf, len, g_arena,
                                         OA_E_GE_LOAD_MODEL_PARTITION, "model", &m),
                         OA_OK);
        const Ge__Proto__ModelDef *def = (const Ge__Proto__ModelDef *)m;
        assert_string_equal(def->name, "tm");
        assert_int_equal(def->n_graph, 2);
        expect_bytes(m, buf, len);
        free(buf);
    }
}

static void decoder_rejects_malformed_wire_data(void **state)
{
    (void)state;
    const ProtobufCMessageDescriptor *md = &ge__proto__model_def__descriptor;
    expect_decode_fail(md, (const uint8_t[]){0x0a, 0x05, 'a', 'b'}, 4, "declares 5 bytes");
    expect_decode_fail(md, (const uint8_t[]){0x10, 0x80}, 2, "truncated varint");
    expect_decode_fail(md, (const uint8_t[]){0x80}, 1, "tag");
    expect_decode_fail(md, (const uint8_t[]){0x00, 0x00}, 2, "field number 0");
    expect_decode_fail(md, (const uint8_t[]){0x0b, 0x0c}, 2, "wire type 3");
    expect_decode_fail(md, (const uint8_t[]){0x0d, 0x01}, 2, "needs 4 bytes");
    expect_decode_fail(md, (const uint8_t[]){0x0a, 0x03, 'a', 0x00, 'b'}, 5, "NUL byte");
    expect_decode_fail(md, (const uint8_t[]){0x0a, 0x02, 0xc3, 0x28}, 4, "not UTF-8");
    expect_decode_fail(md, (const uint8_t[]){0x0a, 0x03, 0xed, 0xa0, 0x80}, 5, "not UTF-8"); /* surrogate */
    /* map key (bytes in our schema, string in CANN's) must be UTF-8 too */
    expect_decode_fail(md, (const uint8_t[]){0x5a, 0x03, 0x0a, 0x01, 0xff}, 5, "not UTF-8");
    /* graph (field 7) declared as a varint: protobuf-c rejects the wire type */
    expect_decode_fail(md, (const uint8_t[]){0x38, 0x01}, 2, "not a valid");
    /* a NUL-bearing map key is fine (compressed attribute names) */
    ProtobufCMessage *m;
    assert_int_equal(oa_om_pb_decode(md, (const uint8_t[]){0x5a, 0x04, 0x0a, 0x02, 0x00, 0x01}, 6, g_arena,
                                     OA_E_GE_LOAD_MODEL_PARTITION, "test", &m),
                     OA_OK);
    const Ge__Proto__ModelDef *def = (const Ge__Proto__ModelDef *)m;
    assert_int_equal(def->n_attr, 1);
    assert_int_equal(def->attr[0]->key.len, 2);
    assert_int_equal(oa_om_pb_check(md, NULL, 0, OA_E_GE_PARAM, "empty"), OA_OK);
}

/* A GraphDef of nothing but empty ops: 2 bytes each on the wire, a few
 * hundred decoded. The budget refuses it before protobuf-c allocates. */
static void decoder_refuses_absurd_expansion(void **state)
{
    (void)state;
    const size_t n = 1u << 20; /* 512 Ki empty ops */
    uint8_t *b = malloc(n);
    assert_non_null(b);
    for (size_t i = 0; i < n; i += 2) {
        b[i] = 0x32;
        b[i + 1] = 0x00;
    }
    expect_decode_fail(&ge__proto__graph_def__descriptor, b, n, "times the input");
    /* the same ops carrying names are ordinary */
    ProtobufCMessage *m;
    for (size_t i = 0; i + 8 <= n; i += 8) {
        memcpy(b + i, "\x32\x06\x0a\x04name", 8);
    }
    assert_int_equal(oa_om_pb_decode(&ge__proto__graph_def__descriptor, b, n, g_arena, OA_E_GE_LOAD_MODEL_PARTITION,
                                     "named", &m),
                     OA_OK);
    assert_int_equal(((Ge__Proto__GraphDef *)m)->n_op, n / 8);
    free(b);
}

/* AttrDef{func: NamedAttrs{attr: {"" : AttrDef{func: ...}}}}: 3 levels per step. */
static uint8_t *chain(int steps, size_t *len)
{
    Ge__Proto__AttrDef *root = oa_om_arena_alloc(g_arena, sizeof(*root));
    ge__proto__attr_def__init(root);
    Ge__Proto__AttrDef *cur = root;
    for (int i = 0; i < steps; ++i) {
        Ge__Proto__NamedAttrs *na = oa_om_arena_alloc(g_arena, sizeof(*na));
        ge__proto__named_attrs__init(na);
        Ge__Proto__AttrMapEntry *e = oa_om_arena_alloc(g_arena, sizeof(*e));
        ge__proto__attr_map_entry__init(e);
        Ge__Proto__AttrMapEntry **ep = oa_om_arena_alloc(g_arena, sizeof(*ep));
        *ep = e;
        na->attr = ep;
        na->n_attr = 1;
        cur->value_case = GE__PROTO__ATTR_DEF__VALUE_FUNC;
        cur->func = na;
        Ge__Proto__AttrDef *next = oa_om_arena_alloc(g_arena, sizeof(*next));
        ge__proto__attr_def__init(next);
        e->value = next;
        cur = next;
    }
    uint8_t *buf;
    assert_int_equal(oa_om_pb_encode(&root->base, &buf, len), OA_OK);
    return buf;
}

static void decoder_limits_nesting_depth(void **state)
{
    (void)state;
    size_t len;
    uint8_t *ok = chain(33, &len); /* innermost message at depth 99 */
    ProtobufCMessage *m;
    assert_int_equal(oa_om_pb_decode(&ge__proto__attr_def__descriptor, ok, len, g_arena,
                                     OA_E_GE_LOAD_MODEL_PARTITION, "nested", &m),
                     OA_OK);
    free(ok);
    uint8_t *deep = chain(34, &len); /* depth 102 */
    expect_decode_fail(&ge__proto__attr_def__descriptor, deep, len, "nested deeper than 100");
    free(deep);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(oneof_zero_values_are_written),
        cmocka_unit_test(defaults_are_omitted_and_fields_ascend),
        cmocka_unit_test(repeated_scalars_are_packed),
        cmocka_unit_test(map_entries_are_sorted_deduplicated_and_complete),
        cmocka_unit_test(unknown_fields_survive_a_round_trip),
        cmocka_unit_test(reference_model_round_trips),
        cmocka_unit_test(decoder_rejects_malformed_wire_data),
        cmocka_unit_test(decoder_limits_nesting_depth),
        cmocka_unit_test(decoder_refuses_absurd_expansion),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
