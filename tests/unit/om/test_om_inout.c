/* om MODEL_INOUT_INFO: TLV layout, round trip, and every rejection. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "base/error.h"
#include "om/om_inout.h"

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
    return 0;
}

static uint32_t u32_at(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void expect_parse_fail(const uint8_t *d, size_t n, const char *needle)
{
    oa_om_inout io;
    assert_int_equal(oa_om_inout_parse(d, n, g_arena, &io), OA_E_GE_FAILURE);
    const char *m = oa_error_take_messages();
    assert_non_null(m);
    if (strstr(m, needle) == NULL) {
        fail_msg("message \"%s\" lacks \"%s\"", m, needle);
    }
}

static const int64_t k_dims[] = {1, 3, 224, 224};
static const int64_t k_dims_v2[] = {-1, 3, 224, 224};
static const int64_t k_ranges[] = {1, 8, 3, 3, 224, 224, 224, 224};
static const int64_t k_batch[] = {1, 2, 4, 8};
static const int64_t k_g0[] = {224, 224};
static const int64_t k_g1[] = {448, 448, 7};
static const int64_t *const k_gears[] = {k_g0, k_g1};
static const size_t k_gear_len[] = {2, 3};
static const char *const k_strs[] = {"0:1,3", "", "1:8"};
static const size_t k_str_len[] = {5, 0, 3};

static oa_om_inout full_info(oa_om_io_tensor *in, oa_om_io_tensor *out)
{
    *in = (oa_om_io_tensor){602112, 0, 0, "input", 5, k_dims, 4, k_dims_v2, 4, k_ranges, 4};
    *out = (oa_om_io_tensor){4000, 2, 1, "out:0", 5, k_dims, 2, k_dims, 2, NULL, 0};
    oa_om_inout io = {0};
    io.n_inputs = 1;
    io.inputs = in;
    io.n_outputs = 1;
    io.outputs = out;
    io.n_batch = 4;
    io.batch = k_batch;
    io.hw = (oa_om_io_gears){2, k_gear_len, k_gears};
    io.dims = (oa_om_io_gears){2, k_gear_len, k_gears};
    io.dynamic_output_shape = (oa_om_io_strings){3, k_strs, k_str_len};
    io.designate_shape_order = (oa_om_io_strings){1, k_strs, k_str_len};
    return io;
}

static void records_follow_the_documented_layout(void **state)
{
    (void)state;
    oa_om_io_tensor in, out;
    oa_om_inout io = full_info(&in, &out);
    io.n_outputs = 0;
    io.n_batch = 0;
    io.hw.n = 0;
    io.dims.n = 0;
    io.dynamic_output_shape.n = 0;
    io.designate_shape_order.n = 0;
    uint8_t *buf;
    size_t len;
    assert_int_equal(oa_om_inout_serialize(&io, &buf, &len), OA_OK);
    /* type 0, length, n = 1, 32-byte head, name, 4 dims, 4 dimsV2, 4 ranges */
    assert_int_equal(len, 8 + 4 + 32 + 5 + 32 + 32 + 64);
    assert_int_equal(u32_at(buf), 0);
    assert_int_equal(u32_at(buf + 4), len - 8);
    assert_int_equal(u32_at(buf + 8), 1);
    assert_int_equal(u32_at(buf + 12), 602112); /* size, low half */
    assert_int_equal(u32_at(buf + 28), 5);      /* name_len */
    assert_int_equal(u32_at(buf + 32), 32);     /* dims_len in bytes */
    assert_int_equal(u32_at(buf + 40), 64);     /* shape_range_len */
    assert_memory_equal(buf + 44, "input", 5);
    free(buf);
    oa_om_inout empty = {0};
    assert_int_equal(oa_om_inout_serialize(&empty, &buf, &len), OA_OK);
    assert_null(buf);
    assert_int_equal(len, 0);
}

static void every_record_round_trips(void **state)
{
    (void)state;
    oa_om_io_tensor in, out;
    oa_om_inout io = full_info(&in, &out);
    uint8_t *buf;
    size_t len;
    assert_int_equal(oa_om_inout_serialize(&io, &buf, &len), OA_OK);
    oa_om_inout back;
    assert_int_equal(oa_om_inout_parse(buf, len, g_arena, &back), OA_OK);
    assert_int_equal(back.n_inputs, 1);
    assert_string_equal(back.inputs[0].name, "input");
    assert_int_equal(back.inputs[0].n_ranges, 4);
    assert_int_equal(back.inputs[0].dims_v2[0], -1);
    assert_int_equal(back.outputs[0].dtype, 1);
    assert_int_equal(back.n_batch, 4);
    assert_int_equal(back.hw.len[1], 3);
    assert_int_equal(back.dims.vals[1][2], 7);
    assert_int_equal(back.dynamic_output_shape.n, 3);
    assert_int_equal(back.dynamic_output_shape.len[1], 0);
    assert_string_equal(back.designate_shape_order.s[0], "0:1,3");
    uint8_t *again;
    size_t again_len;
    assert_int_equal(oa_om_inout_serialize(&back, &again, &again_len), OA_OK);
    assert_int_equal(again_len, len);
    assert_memory_equal(again, buf, len);
    free(again);
    free(buf);
}

static void malformed_records_are_rejected(void **state)
{
    (void)state;
    expect_parse_fail((const uint8_t[]){0, 0, 0, 0, 0}, 5, "needs 8 bytes");
    expect_parse_fail((const uint8_t[]){9, 0, 0, 0, 0, 0, 0, 0}, 8, "unknown record type 9");
    expect_parse_fail((const uint8_t[]){2, 0, 0, 0, 9, 0, 0, 0, 1, 0, 0, 0}, 12, "declares 9 bytes");
    /* batch count 2 but one value */
    expect_parse_fail((const uint8_t[]){2, 0, 0, 0, 12, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0}, 20,
                      "batch sizes");
    /* the same record twice */
    expect_parse_fail((const uint8_t[]){2, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0}, 24,
                      "appears twice");
    /* bytes left over inside a record */
    expect_parse_fail((const uint8_t[]){2, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 7}, 13, "unused");
    /* 0xFFFFFFFF tensors in a 4-byte record */
    expect_parse_fail((const uint8_t[]){0, 0, 0, 0, 4, 0, 0, 0, 0xff, 0xff, 0xff, 0xff}, 12, "cannot fit");
    /* a tensor whose dims length is not whole i64s */
    uint8_t t[8 + 4 + 32 + 4] = {0};
    t[4] = 4 + 32 + 4;
    t[8] = 1;
    t[12 + 20] = 4; /* dims_len = 4 bytes */
    expect_parse_fail(t, sizeof(t), "not a multiple of 8");
    /* a tensor name running past the record */
    t[12 + 20] = 0;
    t[12 + 16] = 200;
    expect_parse_fail(t, sizeof(t), "tensor name");
    /* gear lengths past the end */
    expect_parse_fail((const uint8_t[]){3, 0, 0, 0, 8, 0, 0, 0, 1, 0, 0, 0, 5, 0, 0, 0}, 16, "gear values");
    /* string lengths past the end */
    expect_parse_fail((const uint8_t[]){5, 0, 0, 0, 8, 0, 0, 0, 1, 0, 0, 0, 3, 0, 0, 0}, 16, "string");
    oa_om_inout io;
    assert_int_equal(oa_om_inout_parse(NULL, 0, g_arena, &io), OA_OK);
    assert_int_equal(io.n_inputs, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(records_follow_the_documented_layout),
        cmocka_unit_test(every_record_round_trips),
        cmocka_unit_test(malformed_records_are_rejected),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
