/* om container: header layout, table layout, round trips, writer checks, atomic files. */
#include <dirent.h>
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

#include "base/error.h"
#include "om/om_format.h"
#include "om_testmodel.h"

static uint32_t u32_at(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t u64_at(const uint8_t *p)
{
    return (uint64_t)u32_at(p) | (uint64_t)u32_at(p + 4) << 32;
}

/* Expects st and a recorded message containing `needle`. */
static void expect_fail(oa_status st, oa_status want, const char *needle)
{
    assert_int_equal(st, want);
    const char *m = oa_error_take_messages();
    assert_non_null(m);
    if (strstr(m, needle) == NULL) {
        fail_msg("message \"%s\" lacks \"%s\"", m, needle);
    }
}

static void header_fields_sit_at_their_offsets(void **state)
{
    (void)state;
    oa_om_header h;
    oa_om_header_init(&h);
    assert_int_equal(h.magic, 0x444F4D49u);
    assert_int_equal(h.version, 0x20000000u);
    assert_int_equal(h.model_num, 1);
    h.length = 0x11223344;
    h.modeltype = 3;
    memcpy(h.name, "net", 4);
    h.om_ir_version = 7;
    h.model_num = 5;
    memcpy(h.platform_version, "1.2", 4);
    h.platform_type = 1;
    h.model_length = 0x0102030405060708ull;
    h.is_unknow_model = 1;
    h.reserved[61] = 0xEE;
    uint8_t raw[256];
    oa_om_header_encode(&h, raw);
    assert_memory_equal(raw, "IMOD", 4);
    assert_int_equal(u32_at(raw + 4), 256);
    assert_int_equal(u32_at(raw + 76), 0x11223344u);
    assert_int_equal(raw[82], 3);
    assert_string_equal((const char *)raw + 84, "net");
    assert_int_equal(u32_at(raw + 152), 7);
    assert_int_equal(u32_at(raw + 156), 5);
    assert_string_equal((const char *)raw + 160, "1.2");
    assert_int_equal(raw[180], 1);
    assert_true(u64_at(raw + 184) == 0x0102030405060708ull);
    assert_int_equal(raw[193], 1);
    assert_int_equal(raw[255], 0xEE);
    oa_om_header back;
    oa_om_header_decode(raw, &back);
    assert_memory_equal(&back, &h, sizeof(h));
    assert_true(oa_om_header_is_dynamic(&h));
    h.version = 0x10000000;
    assert_false(oa_om_header_is_dynamic(&h));
}

static void static_image_is_packed_in_atc_order(void **state)
{
    (void)state;
    uint8_t *img;
    size_t len;
    assert_int_equal(tm_build_image(TM_STATIC, &img, &len), 0);
    assert_true(u64_at(img + 184) == len - 256);
    assert_int_equal(u32_at(img + 156), 1);
    assert_int_equal(img[193], 0);
    const uint8_t *t = img + 256;
    assert_int_equal(u32_at(t), 4);
    assert_int_equal(u32_at(t + 4), 0);
    const uint32_t want[] = {8, 0, 1, 2};
    uint64_t off = 0;
    for (int i = 0; i < 4; ++i) {
        const uint8_t *e = t + 8 + 24 * i;
        assert_int_equal(u32_at(e), want[i]);
        assert_int_equal(u32_at(e + 4), 0);
        assert_true(u64_at(e + 8) == off);
        off += u64_at(e + 16);
    }
    assert_true(256 + 8 + 4 * 24 + off == len);

    oa_om_container c;
    assert_int_equal(oa_om_container_parse(img, len, &c), OA_OK);
    assert_int_equal(c.num_tables, 1);
    assert_false(c.dynamic);
    assert_false(c.tables[0].tiny);
    assert_int_equal(c.tables[0].file_offset, 256);
    assert_int_equal(c.tables[0].data_offset, 256 + 8 + 96);
    const oa_om_partition *w = oa_om_table_find(&c.tables[0], OA_OM_PART_WEIGHTS_DATA);
    assert_non_null(w);
    assert_int_equal(w->size, 1024);
    assert_null(oa_om_table_find(&c.tables[0], OA_OM_PART_TBE_KERNELS));
    assert_int_equal(oa_om_container_check_executable(&c), OA_OK);
    oa_om_container_deinit(&c);
    oa_om_container_deinit(&c); /* idempotent */
    oa_om_container_deinit(NULL);
    free(img);
}

/* write -> read -> write gives the same bytes, for every variant. */
static void write_read_write_is_byte_identical(void **state)
{
    (void)state;
    for (int v = 0; v < TM_VARIANT_COUNT; ++v) {
        uint8_t *img;
        size_t len;
        assert_int_equal(tm_build_image((tm_variant)v, &img, &len), 0);
        oa_om_container c;
        assert_int_equal(oa_om_container_parse(img, len, &c), OA_OK);
        oa_om_table_src ts[2];
        oa_om_part_src ps[2][8];
        for (uint32_t t = 0; t < c.num_tables; ++t) {
            for (uint32_t i = 0; i < c.tables[t].num; ++i) {
                ps[t][i] = (oa_om_part_src){c.tables[t].parts[i].type, c.tables[t].parts[i].data,
                                            c.tables[t].parts[i].size};
            }
            ts[t] = (oa_om_table_src){ps[t], c.tables[t].num};
        }
        uint64_t size = 0;
        assert_int_equal(oa_om_container_size(&c.header, ts, c.num_tables, &size), OA_OK);
        assert_true(size == len);
        uint8_t *again;
        size_t again_len;
        assert_int_equal(oa_om_container_write_memory(&c.header, ts, c.num_tables, &again, &again_len), OA_OK);
        assert_int_equal(again_len, len);
        assert_memory_equal(again, img, len);
        free(again);
        oa_om_container_deinit(&c);
        free(img);
    }
}

static void dynamic_image_has_one_block_per_model(void **state)
{
    (void)state;
    uint8_t *img;
    size_t len;
    assert_int_equal(tm_build_image(TM_DYNAMIC, &img, &len), 0);
    oa_om_container c;
    assert_int_equal(oa_om_container_parse(img, len, &c), OA_OK);
    assert_true(c.dynamic);
    assert_int_equal(c.num_tables, 2);
    assert_int_equal(c.tables[1].parts[0].mem_offset, 0); /* offsets restart per block */
    const oa_om_partition *last = &c.tables[0].parts[c.tables[0].num - 1];
    assert_int_equal(c.tables[1].file_offset, (uint64_t)(last->data - img) + last->size);
    assert_int_equal(oa_om_container_check_executable(&c), OA_OK);
    oa_om_container_deinit(&c);
    free(img);
}

static void model_def_only_table_is_not_executable(void **state)
{
    (void)state;
    uint8_t *img;
    size_t len;
    assert_int_equal(tm_build_image(TM_DEF_ONLY, &img, &len), 0);
    oa_om_container c;
    assert_int_equal(oa_om_container_parse(img, len, &c), OA_OK);
    expect_fail(oa_om_container_check_executable(&c), OA_E_GE_PARAM, "executable om");
    oa_om_container_deinit(&c);
    free(img);
}

/* A legacy file: model_length 0, size in `length`, 32-bit table. */
static void legacy_tiny_table_is_read(void **state)
{
    (void)state;
    const uint8_t def[] = {0x0a, 0x01, 'm'};
    const uint8_t task[] = {0x58, 0x10};
    uint8_t img[256 + 4 + 24 + sizeof(def) + sizeof(task)] = {0};
    oa_om_header h;
    oa_om_header_init(&h);
    h.length = sizeof(img) - 256;
    oa_om_header_encode(&h, img);
    uint8_t *t = img + 256;
    t[0] = 2;
    t[4] = 0; /* MODEL_DEF, offset 0, size 3 */
    t[12] = sizeof(def);
    t[16] = 2; /* TASK_INFO, offset 3, size 2 */
    t[20] = sizeof(def);
    t[24] = sizeof(task);
    memcpy(img + 256 + 28, def, sizeof(def));
    memcpy(img + 256 + 28 + sizeof(def), task, sizeof(task));
    oa_om_container c;
    assert_int_equal(oa_om_container_parse(img, sizeof(img), &c), OA_OK);
    assert_true(c.tables[0].tiny);
    assert_int_equal(c.tables[0].num, 2);
    assert_memory_equal(c.tables[0].parts[0].data, def, sizeof(def));
    assert_memory_equal(c.tables[0].parts[1].data, task, sizeof(task));
    oa_om_container_deinit(&c);
}

static void flow_model_may_repeat_submodels_only(void **state)
{
    (void)state;
    const uint8_t blob[] = {1, 2, 3};
    oa_om_header h;
    oa_om_header_init(&h);
    h.modeltype = OA_OM_MODEL_FLOW;
    oa_om_part_src p[4] = {{OA_OM_PART_MODEL_DEF, blob, 3},
                           {OA_OM_PART_FLOW_MODEL, blob, 3},
                           {OA_OM_PART_FLOW_SUBMODEL, blob, 3},
                           {OA_OM_PART_FLOW_SUBMODEL, blob, 2}};
    oa_om_table_src t = {p, 4};
    uint8_t *img;
    size_t len;
    assert_int_equal(oa_om_container_write_memory(&h, &t, 1, &img, &len), OA_OK);
    oa_om_container c;
    assert_int_equal(oa_om_container_parse(img, len, &c), OA_OK);
    assert_int_equal(c.tables[0].num, 4);
    oa_om_container_deinit(&c);
    free(img);
    p[3].type = OA_OM_PART_FLOW_MODEL;
    expect_fail(oa_om_container_write_memory(&h, &t, 1, &img, &len), OA_E_GE_PARAM, "twice");
}

static void writer_refuses_invalid_requests(void **state)
{
    (void)state;
    const uint8_t blob[] = {0x0a, 0x00};
    oa_om_header h;
    oa_om_header_init(&h);
    oa_om_part_src p[9];
    for (int i = 0; i < 9; ++i) {
        p[i] = (oa_om_part_src){(uint32_t)(i == 0 ? 0 : i + 1), blob, sizeof(blob)};
    }
    oa_om_table_src t = {p, 2};
    uint8_t *img = NULL;
    size_t len;
    expect_fail(oa_om_container_write_memory(&h, &t, 0, &img, &len), OA_E_GE_PARAM, "nothing to write");
    t.num = 9;
    expect_fail(oa_om_container_write_memory(&h, &t, 1, &img, &len), OA_E_GE_PARAM, "1..8");
    t.num = 0;
    expect_fail(oa_om_container_write_memory(&h, &t, 1, &img, &len), OA_E_GE_PARAM, "1..8");
    t.num = 2;
    p[1].size = 0;
    expect_fail(oa_om_container_write_memory(&h, &t, 1, &img, &len), OA_E_GE_PARAM, "is empty");
    p[1].size = 2;
    p[1].type = 0;
    expect_fail(oa_om_container_write_memory(&h, &t, 1, &img, &len), OA_E_GE_PARAM, "twice");
    p[0].type = 2;
    p[1].type = 1;
    expect_fail(oa_om_container_write_memory(&h, &t, 1, &img, &len), OA_E_GE_PARAM, "no MODEL_DEF");
    p[0].type = 0;
    p[1].type = 2;
    p[1].size = (uint64_t)UINT32_MAX + 1; /* TASK_INFO may not exceed 4 GiB */
    expect_fail(oa_om_container_size(&h, &t, 1, &(uint64_t){0}), OA_E_GE_PARAM, "exceeds 4 GiB");
    p[1].type = 1; /* WEIGHTS_DATA may */
    uint64_t size = 0;
    assert_int_equal(oa_om_container_size(&h, &t, 1, &size), OA_OK);
    assert_true(size == 256 + 8 + 48 + 2 + (uint64_t)UINT32_MAX + 1);
    p[1].size = 2;
    oa_om_table_src two[2] = {t, t};
    expect_fail(oa_om_container_write_memory(&h, two, 2, &img, &len), OA_E_GE_PARAM, "static header");
    h.model_num = 3;
    h.is_unknow_model = 1;
    expect_fail(oa_om_container_write_memory(&h, two, 2, &img, &len), OA_E_GE_PARAM, "dynamic header");
    oa_om_header_init(&h);
    memset(h.name, 'n', sizeof(h.name));
    expect_fail(oa_om_container_write_memory(&h, &t, 1, &img, &len), OA_E_GE_PARAM, "model name");
    oa_om_header_init(&h);
    memset(h.platform_version, '9', sizeof(h.platform_version));
    expect_fail(oa_om_container_write_memory(&h, &t, 1, &img, &len), OA_E_GE_PARAM, "platform version");
    assert_null(img);
}

static int count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d != NULL && (e = readdir(d)) != NULL;) {
        n += e->d_name[0] != '.';
    }
    if (d != NULL) {
        closedir(d);
    }
    return n;
}

static void file_is_written_atomically_with_mode_0600(void **state)
{
    (void)state;
    char dir[] = "/tmp/oa_om_write_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256];
    (void)snprintf(path, sizeof(path), "%s/m.om", dir);
    uint8_t *img;
    size_t len;
    assert_int_equal(tm_build_image(TM_STATIC, &img, &len), 0);
    oa_om_container c;
    assert_int_equal(oa_om_container_parse(img, len, &c), OA_OK);
    oa_om_part_src p[8];
    for (uint32_t i = 0; i < c.tables[0].num; ++i) {
        p[i] = (oa_om_part_src){c.tables[0].parts[i].type, c.tables[0].parts[i].data, c.tables[0].parts[i].size};
    }
    oa_om_table_src t = {p, c.tables[0].num};
    mode_t old = umask(0);
    assert_int_equal(oa_om_container_write_file(path, &c.header, &t, 1), OA_OK);
    umask(old);
    struct stat sb;
    assert_int_equal(stat(path, &sb), 0);
    assert_int_equal(sb.st_mode & 0777, 0600);
    assert_int_equal((size_t)sb.st_size, len);
    oa_om_image mapped;
    assert_int_equal(oa_om_image_map_file(path, &mapped), OA_OK);
    assert_memory_equal(mapped.data, img, len);
    oa_om_image_unmap(&mapped);
    oa_om_image_unmap(&mapped);
    assert_int_equal(count_entries(dir), 1); /* no temporary left behind */

    /* A refused request leaves the existing file untouched. */
    t.num = 0;
    expect_fail(oa_om_container_write_file(path, &c.header, &t, 1), OA_E_GE_PARAM, "1..8");
    assert_int_equal(stat(path, &sb), 0);
    assert_int_equal((size_t)sb.st_size, len);
    t.num = c.tables[0].num;
    /* A directory that does not exist: nothing is created. */
    char bad[300];
    (void)snprintf(bad, sizeof(bad), "%s/missing/m.om", dir);
    expect_fail(oa_om_container_write_file(bad, &c.header, &t, 1), OA_E_WRITE_FILE, "temporary file");
    expect_fail(oa_om_container_write_file("", &c.header, &t, 1), OA_E_GE_PARAM, "empty");
    assert_int_equal(count_entries(dir), 1);
    assert_int_equal(unlink(path), 0);
    assert_int_equal(rmdir(dir), 0);
    oa_om_container_deinit(&c);
    free(img);
}

static void map_file_reports_path_problems(void **state)
{
    (void)state;
    oa_om_image img;
    expect_fail(oa_om_image_map_file("/nonexistent/x.om", &img), OA_E_GE_MODEL_PATH, "/nonexistent/x.om");
    expect_fail(oa_om_image_map_file("", &img), OA_E_GE_MODEL_PATH, "empty");
    expect_fail(oa_om_image_map_file("/tmp", &img), OA_E_GE_MODEL_PATH, "not a regular file");
    assert_null(img.data);
}

static void op_model_codes_follow_canns_single_op_parser(void **state)
{
    (void)state;
    assert_int_equal(oa_om_status_for_op_model(OA_OK), OA_OK);
    assert_int_equal(oa_om_status_for_op_model(OA_E_GE_MODEL_PATH), OA_E_READ_MODEL);
    assert_int_equal(oa_om_status_for_op_model(OA_E_GE_PARAM), OA_E_DESERIALIZE_MODEL);
    assert_int_equal(oa_om_status_for_op_model(OA_E_GE_LOAD_MODEL_PARTITION), OA_E_DESERIALIZE_MODEL);
    assert_int_equal(oa_om_status_for_op_model(OA_E_MODEL_MISSING_ATTR), OA_E_MODEL_MISSING_ATTR);
    assert_int_equal(oa_status_to_acl(OA_E_DESERIALIZE_MODEL), 100012);
    assert_int_equal(oa_status_to_acl(OA_E_GE_LOAD_MODEL_PARTITION), 545002);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(header_fields_sit_at_their_offsets),
        cmocka_unit_test(static_image_is_packed_in_atc_order),
        cmocka_unit_test(write_read_write_is_byte_identical),
        cmocka_unit_test(dynamic_image_has_one_block_per_model),
        cmocka_unit_test(model_def_only_table_is_not_executable),
        cmocka_unit_test(legacy_tiny_table_is_read),
        cmocka_unit_test(flow_model_may_repeat_submodels_only),
        cmocka_unit_test(writer_refuses_invalid_requests),
        cmocka_unit_test(file_is_written_atomically_with_mode_0600),
        cmocka_unit_test(map_file_reports_path_problems),
        cmocka_unit_test(op_model_codes_follow_canns_single_op_parser),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
