/* acl.json handling (config.h): file checks, nesting limits, JSON errors and every key's validation. */
#define _GNU_SOURCE
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "acl_state/config.h"
#include "base/error.h"

static char g_dir[PATH_MAX];

static const char *write_file(const char *name, const char *text, size_t len)
{
    static char path[PATH_MAX + 64];
    snprintf(path, sizeof(path), "%s/%s", g_dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, len, f), len);
    fclose(f);
    return path;
}

static const char *write_json(const char *name, const char *text)
{
    return write_file(name, text, strlen(text));
}

static cJSON *load_ok(const char *text)
{
    cJSON *root = NULL;
    assert_int_equal(oa_acl_cfg_load(write_json("cfg.json", text), &root), OA_OK);
    return root;
}

static void expect_load(const char *path, oa_status want)
{
    cJSON *root = (cJSON *)0x1;
    assert_int_equal(oa_acl_cfg_load(path, &root), want);
    if (want != OA_OK) {
        assert_null(root);
        assert_non_null(oa_error_take_messages());
    } else {
        cJSON_Delete(root);
    }
}

static void read_raw_text(void **state)
{
    (void)state;
    char *text = NULL;
    size_t len = 0;
    assert_int_equal(oa_acl_cfg_read(write_json("a.json", "{\"x\": 1}"), &text, &len), OA_OK);
    assert_int_equal(len, 8);
    assert_string_equal(text, "{\"x\": 1}");
    free(text);
    /* a directory reads as empty text */
    assert_int_equal(oa_acl_cfg_read(g_dir, &text, &len), OA_OK);
    assert_int_equal(len, 0);
    free(text);
    assert_int_equal(oa_acl_cfg_read("/nonexistent/acl.json", &text, &len), OA_E_INVALID_FILE);
    assert_null(text);
    assert_non_null(oa_error_take_messages());
}

static void file_checks(void **state)
{
    (void)state;
    expect_load("/nonexistent/acl.json", OA_E_INVALID_FILE);
    expect_load(g_dir, OA_E_INVALID_FILE);    /* not a regular file */
    expect_load("/dev/null", OA_E_INVALID_FILE); /* character device */
    expect_load(write_file("empty.json", "", 0), OA_OK);
    cJSON *root = (cJSON *)0x1;
    assert_int_equal(oa_acl_cfg_load(write_file("empty.json", "", 0), &root), OA_OK);
    assert_null(root);
    expect_load(write_json("ws.json", "  \n "), OA_E_PARSE_FILE);
    expect_load(write_json("bad.json", "{\"a\": }"), OA_E_PARSE_FILE);
    expect_load(write_json("trail.json", "{} x"), OA_E_PARSE_FILE);
    expect_load(write_file("nul.json", "{\"a\":\0 1}", 9), OA_E_PARSE_FILE);
    expect_load(write_json("arr.json", "[1, 2]"), OA_OK); /* not an object: keys are just absent */

    /* exactly 10 MiB is accepted, one more byte is not */
    const size_t max = OA_ACL_CONFIG_MAX_BYTES;
    char *big = malloc(max + 1);
    assert_non_null(big);
    memset(big, ' ', max + 1);
    big[0] = '{';
    big[max - 1] = '}';
    expect_load(write_file("max.json", big, max), OA_OK);
    big[max - 1] = ' ';
    big[max] = '}';
    expect_load(write_file("over.json", big, max + 1), OA_E_INVALID_FILE);
    free(big);
}

static void nesting_limits(void **state)
{
    (void)state;
    char text[256];
    /* 10 nested objects are fine, 11 are not */
    strcpy(text, "{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{}}}}}}}}}}");
    expect_load(write_json("obj10.json", text), OA_OK);
    strcpy(text, "{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{}}}}}}}}}}}");
    expect_load(write_json("obj11.json", text), OA_E_PARSE_FILE);
    strcpy(text, "{\"a\":[[[[[[[[[[1]]]]]]]]]]}");
    expect_load(write_json("arr10.json", text), OA_OK);
    strcpy(text, "{\"a\":[[[[[[[[[[[1]]]]]]]]]]]}");
    expect_load(write_json("arr11.json", text), OA_E_PARSE_FILE);
    /* braces are counted on raw characters, even inside strings */
    strcpy(text, "{\"a\":\"{{{{{{{{{{{\"}");
    expect_load(write_json("str.json", text), OA_E_PARSE_FILE);
    size_t o = 0;
    size_t a = 0;
    oa_acl_cfg_depth("{[{]}", 5, &o, &a);
    assert_int_equal(o, 2);
    assert_int_equal(a, 1);
    oa_acl_cfg_depth("{\0{{{", 5, &o, &a); /* stops at NUL */
    assert_int_equal(o, 1);
}

static void err_msg_mode(void **state)
{
    (void)state;
    bool found = true;
    int mode = -1;
    cJSON *r = load_ok("{}");
    assert_int_equal(oa_acl_cfg_err_msg_mode(r, &found, &mode), OA_OK);
    assert_false(found);
    cJSON_Delete(r);
    r = load_ok("{\"err_msg_mode\": \"1\"}");
    assert_int_equal(oa_acl_cfg_err_msg_mode(r, &found, &mode), OA_OK);
    assert_true(found);
    assert_int_equal(mode, 1);
    cJSON_Delete(r);
    static const char *const kBad[] = {"{\"err_msg_mode\": 1}", "{\"err_msg_mode\": \"2\"}",
                                       "{\"err_msg_mode\": \"\"}", "{\"err_msg_mode\": null}"};
    for (size_t i = 0; i < sizeof(kBad) / sizeof(kBad[0]); ++i) {
        r = load_ok(kBad[i]);
        assert_int_equal(oa_acl_cfg_err_msg_mode(r, &found, &mode), OA_E_PARAM);
        assert_non_null(oa_error_take_messages());
        cJSON_Delete(r);
    }
}

static void max_opqueue_num(void **state)
{
    (void)state;
    static const struct {
        const char *json;
        oa_status st;
        uint64_t value;
    } kCases[] = {
        {"{}", OA_OK, 20000},
        {"{\"max_opqueue_num\": 100}", OA_OK, 100},
        {"{\"max_opqueue_num\": \"300\"}", OA_OK, 300},
        {"{\"max_opqueue_num\": \"12abc\"}", OA_OK, 12},
        {"{\"max_opqueue_num\": 2.9}", OA_OK, 2},
        {"{\"max_opqueue_num\": 0}", OA_E_PARAM, 0},
        {"{\"max_opqueue_num\": -5}", OA_E_PARAM, 0},
        {"{\"max_opqueue_num\": \"abc\"}", OA_E_PARAM, 0},
        {"{\"max_opqueue_num\": true}", OA_E_PARAM, 0},
        {"{\"max_opqueue_num\": {}}", OA_E_PARAM, 0},
    };
    for (size_t i = 0; i < sizeof(kCases) / sizeof(kCases[0]); ++i) {
        cJSON *r = load_ok(kCases[i].json);
        bool found = false;
        uint64_t v = 0;
        const oa_status st = oa_acl_cfg_max_opqueue_num(r, &found, &v);
        if (st != kCases[i].st || (st == OA_OK && v != kCases[i].value)) {
            fail_msg("%s: got status %d value %llu", kCases[i].json, st, (unsigned long long)v);
        }
        if (st != OA_OK) {
            assert_non_null(oa_error_take_messages());
        }
        cJSON_Delete(r);
    }
}

static void stack_fifo_event_and_device(void **state)
{
    (void)state;
    cJSON *r = load_ok("{\"StackSize\": {\"aicore_stack_size\": 32768, \"simt_stack_size\": 1.5},"
                       " \"simd_printf_fifo_size_per_core\": 1024, \"acl_graph\": {\"event_mode\": \"1\"},"
                       " \"defaultDevice\": {\"default_device\": \"3\"}}");
    oa_acl_stack_sizes ss;
    assert_int_equal(oa_acl_cfg_stack_sizes(r, &ss), OA_OK);
    assert_true(ss.has[0] && ss.has[1] && !ss.has[2]);
    assert_int_equal(ss.value[0], 32768);
    assert_int_equal(ss.value[1], 1);
    oa_acl_fifo_sizes fs;
    assert_int_equal(oa_acl_cfg_fifo_sizes(r, &fs), OA_OK);
    assert_true(fs.has[0] && !fs.has[1]);
    assert_int_equal(fs.value[0], 1024);
    int mode = -1;
    assert_int_equal(oa_acl_cfg_event_mode(r, &mode), OA_OK);
    assert_int_equal(mode, 1);
    int32_t dev = -1;
    assert_int_equal(oa_acl_cfg_default_device(r, &dev), OA_OK);
    assert_int_equal(dev, 3);
    cJSON_Delete(r);

    /* beyond 64 bits: saturated, never converted out of range (fuzz_json finding, docs/fuzzing.md) */
    r = load_ok("{\"StackSize\": {\"aicore_stack_size\": -55505555555555555555, \"simt_stack_size\": 1e30,"
                " \"simt_divergence_stack_size\": -1}}");
    assert_int_equal(oa_acl_cfg_stack_sizes(r, &ss), OA_OK);
    assert_true(ss.value[0] == (uint64_t)INT64_MIN);
    assert_true(ss.value[1] == UINT64_MAX);
    assert_true(ss.value[2] == UINT64_MAX); /* -1 wraps */
    cJSON_Delete(r);

    /* absent or not an object: nothing configured */
    r = load_ok("{\"StackSize\": 5, \"acl_graph\": \"x\", \"defaultDevice\": []}");
    assert_int_equal(oa_acl_cfg_stack_sizes(r, &ss), OA_OK);
    assert_false(ss.has[0]);
    assert_int_equal(oa_acl_cfg_event_mode(r, &mode), OA_OK);
    assert_int_equal(mode, -1);
    assert_int_equal(oa_acl_cfg_default_device(r, &dev), OA_OK);
    assert_int_equal(dev, -1);
    cJSON_Delete(r);

    static const struct {
        const char *json;
        int which; /* 0 stack, 1 fifo, 2 event, 3 device */
        oa_status st;
    } kBad[] = {
        {"{\"StackSize\": {\"simt_stack_size\": \"1024\"}}", 0, OA_E_FAILURE},
        {"{\"StackSize\": {\"aicore_stack_size\": true}}", 0, OA_E_FAILURE},
        {"{\"simt_printf_fifo_size\": 0}", 1, OA_E_FAILURE},
        {"{\"simt_printf_fifo_size\": \"1024\"}", 1, OA_E_FAILURE},
        {"{\"simt_printf_fifo_size\": 1.5}", 1, OA_E_FAILURE},
        {"{\"simd_printf_fifo_size_per_core\": -3}", 1, OA_E_FAILURE},
        {"{\"acl_graph\": {\"event_mode\": \"2\"}}", 2, OA_E_PARAM},
        {"{\"acl_graph\": {\"event_mode\": 1}}", 2, OA_E_PARAM},
        {"{\"defaultDevice\": {\"default_device\": \"01\"}}", 3, OA_E_FAILURE},
        {"{\"defaultDevice\": {\"default_device\": \"-1\"}}", 3, OA_E_FAILURE},
        {"{\"defaultDevice\": {\"default_device\": 0}}", 3, OA_E_FAILURE},
        {"{\"defaultDevice\": {\"default_device\": \"a\"}}", 3, OA_E_FAILURE},
    };
    for (size_t i = 0; i < sizeof(kBad) / sizeof(kBad[0]); ++i) {
        r = load_ok(kBad[i].json);
        oa_status st = OA_OK;
        switch (kBad[i].which) {
        case 0:
            st = oa_acl_cfg_stack_sizes(r, &ss);
            break;
        case 1:
            st = oa_acl_cfg_fifo_sizes(r, &fs);
            break;
        case 2:
            st = oa_acl_cfg_event_mode(r, &mode);
            break;
        default:
            st = oa_acl_cfg_default_device(r, &dev);
            break;
        }
        if (st != kBad[i].st) {
            fail_msg("%s: got status %d, want %d", kBad[i].json, st, kBad[i].st);
        }
        assert_non_null(oa_error_take_messages());
        cJSON_Delete(r);
    }
}

static int setup(void **state)
{
    (void)state;
    snprintf(g_dir, sizeof(g_dir), "/tmp/oa_cfg_test_%d", (int)getpid());
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", g_dir);
    return system(cmd);
}

static int teardown(void **state)
{
    (void)state;
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", g_dir);
    return system(cmd);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(read_raw_text),
        cmocka_unit_test(file_checks),
        cmocka_unit_test(nesting_limits),
        cmocka_unit_test(err_msg_mode),
        cmocka_unit_test(max_opqueue_num),
        cmocka_unit_test(stack_fifo_event_and_device),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
