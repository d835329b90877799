/* Validation rules of the "dump" configuration (dump_config.h). */
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

#include "base/error.h"
#include "dump/dump_config.h"

static char g_dir[PATH_MAX];

/* Parses "{"dump": {<body>}}" with $D replaced by an existing directory. */
static oa_status parse_body(const char *body, oa_dump_config **cfg)
{
    char text[8192];
    char expanded[6000];
    size_t n = 0;
    for (const char *p = body; *p != '\0' && n + PATH_MAX < sizeof(expanded); ++p) {
        if (p[0] == '$' && p[1] == 'D') {
            n += (size_t)snprintf(expanded + n, sizeof(expanded) - n, "%s", g_dir);
            ++p;
        } else {
            expanded[n++] = *p;
        }
    }
    expanded[n] = '\0';
    snprintf(text, sizeof(text), "{\"dump\": {%s}}", expanded);
    return oa_dump_config_parse(text, strlen(text), "test.json", cfg);
}

static void expect_bad(const char *body)
{
    oa_dump_config *cfg = (oa_dump_config *)0x1;
    const oa_status st = parse_body(body, &cfg);
    if (st != OA_E_DUMP_CONFIG) {
        fail_msg("expected an invalid dump config for {%s}, got status %d", body, st);
    }
    assert_null(cfg);
    assert_non_null(oa_error_take_messages());
}

static oa_dump_config *expect_ok(const char *body)
{
    oa_dump_config *cfg = NULL;
    const oa_status st = parse_body(body, &cfg);
    if (st != OA_OK) {
        fail_msg("expected a valid dump config for {%s}, got status %d: %s", body, st, oa_error_take_messages());
    }
    return cfg;
}

static void nothing_to_dump(void **state)
{
    (void)state;
    oa_dump_config *cfg = (oa_dump_config *)0x1;
    assert_int_equal(oa_dump_config_parse("{}", 2, "x", &cfg), OA_OK);
    assert_null(cfg);
    assert_null(expect_ok(""));
    /* valid but enables nothing: no op switch, no list, no debug, no scene */
    assert_null(expect_ok("\"dump_path\": \"$D\", \"dump_mode\": \"all\""));
    assert_int_equal(oa_dump_config_parse("{\"dump\": ", 9, "x", &cfg), OA_E_DUMP_CONFIG);
    assert_non_null(oa_error_take_messages());
    assert_int_equal(oa_dump_config_parse("{\"dump\": []}", 12, "x", &cfg), OA_E_DUMP_CONFIG);
    assert_non_null(oa_error_take_messages());
}

static void full_config_is_stored(void **state)
{
    (void)state;
    oa_dump_config *cfg = expect_ok(
        "\"dump_path\": \"$D\", \"dump_mode\": \"input\", \"dump_level\": \"op\", \"dump_data\": \"stats\","
        " \"dump_stats\": [\"Max\", \"Nan\"], \"dump_step\": \"0|5-7\","
        " \"dump_list\": [{\"model_name\": \"resnet\", \"layer\": [\"conv1\", \"relu1\"],"
        " \"opname_blacklist\": [{\"name\": \"skipme\", \"pos\": [\"input0\"]}]}, {\"model_name\": \"bert\"}]");
    assert_non_null(cfg);
    assert_string_equal(cfg->dump_path, g_dir);
    assert_int_equal(cfg->mode, OA_DUMP_MODE_INPUT);
    assert_int_equal(cfg->level, OA_DUMP_LEVEL_OP);
    assert_int_equal(cfg->data, OA_DUMP_DATA_STATS);
    assert_int_equal(cfg->stats, OA_DUMP_STAT_MAX | OA_DUMP_STAT_NAN);
    assert_string_equal(cfg->step, "0|5-7");
    assert_int_equal(cfg->model_count, 2);
    assert_string_equal(cfg->models[0].model_name, "resnet");
    assert_int_equal(cfg->models[0].layer_count, 2);
    assert_true(oa_dump_config_selects(cfg, "resnet", "conv1"));
    assert_false(oa_dump_config_selects(cfg, "resnet", "fc"));
    assert_true(oa_dump_config_selects(cfg, "bert", "anything")); /* no layer list: every layer */
    assert_false(oa_dump_config_selects(cfg, "other", "conv1"));
    assert_false(oa_dump_config_selects(cfg, NULL, "conv1")); /* single ops need dump_op_switch */
    oa_dump_config *copy = oa_dump_config_clone(cfg);
    assert_non_null(copy);
    assert_string_equal(copy->models[0].layers[1], "relu1");
    assert_string_equal(copy->models[0].opname_blacklist[0], "skipme");
    oa_dump_config_destroy(copy);
    oa_dump_config_destroy(cfg);

    cfg = expect_ok("\"dump_path\": \"$D\", \"dump_op_switch\": \"on\"");
    assert_non_null(cfg);
    assert_true(cfg->op_switch);
    assert_true(oa_dump_config_selects(cfg, NULL, "Add"));
    oa_dump_config_destroy(cfg);

    /* exception scenes need nothing else */
    cfg = expect_ok("\"dump_scene\": \"lite_exception\"");
    assert_non_null(cfg);
    assert_string_equal(cfg->scene, "lite_exception");
    oa_dump_config_destroy(cfg);
    oa_dump_config *dbg = (oa_dump_config *)0x1;
    assert_int_equal(parse_body("\"dump_path\": \"$D\", \"dump_debug\": \"on\"", &dbg), OA_E_FEATURE_UNSUPPORTED);
    assert_null(dbg);
    assert_non_null(strstr(oa_error_take_messages(), "overflow dump"));
    /* a remote dump server and the aclnn kernel level do not exist here: not supported (200006), not ignored */
    oa_dump_config *none = (oa_dump_config *)0x1;
    assert_int_equal(parse_body("\"dump_path\": \"10.0.0.1:/remote/dump\", \"dump_op_switch\": \"on\"", &none),
                     OA_E_FEATURE_UNSUPPORTED);
    assert_null(none);
    assert_non_null(strstr(oa_error_take_messages(), "remote host"));
    none = (oa_dump_config *)0x1;
    assert_int_equal(parse_body("\"dump_path\": \"$D\", \"dump_level\": \"kernel\"", &none), OA_E_FEATURE_UNSUPPORTED);
    assert_null(none);
    assert_non_null(strstr(oa_error_take_messages(), "dump_level [kernel]"));
    oa_dump_config_destroy(expect_ok("\"dump_path\": \"$D\", \"dump_level\": \"op\""));
    oa_dump_config_destroy(expect_ok("\"dump_path\": \"$D\", \"dump_kernel_data\": \"printf,assert\","
                                     " \"dump_op_switch\": \"on\""));
    oa_dump_config_destroy(
        expect_ok("\"dump_scene\": \"watcher\", \"dump_path\": \"$D\", \"dump_list\": [{\"watcher_nodes\": [\"a\"]}]"));
}

static void type_and_value_errors(void **state)
{
    (void)state;
    expect_bad("\"dump_path\": 3");
    expect_bad("\"dump_mode\": 1");
    expect_bad("\"dump_stats\": \"Max\"");
    expect_bad("\"dump_stats\": [1]");
    expect_bad("\"dump_list\": {}");
    expect_bad("\"dump_list\": [1]");
    expect_bad("\"dump_list\": [{\"layer\": \"conv\"}]");
    expect_bad("\"dump_list\": [{\"model_name\": 5}]");
    expect_bad("\"dump_list\": [{\"opname_range\": [{\"begin\": 1}]}]");
    expect_bad("\"dump_mode\": \"sideways\"");
    expect_bad("\"dump_mode\": \"\"");
    expect_bad("\"dump_op_switch\": \"yes\"");
    expect_bad("\"dump_level\": \"graph\"");
    expect_bad("\"dump_data\": \"raw\"");
    expect_bad("\"dump_debug\": \"ON\"");
    expect_bad("\"dump_scene\": \"crash\"");
    expect_bad("\"dump_kernel_data\": \"printf,\"");
    expect_bad("\"dump_kernel_data\": \"everything\"");
    expect_bad("\"dump_stats\": [\"Median\"]");
}

static void constraint_errors(void **state)
{
    (void)state;
    expect_bad("\"dump_op_switch\": \"on\"");                              /* dump_path required */
    expect_bad("\"dump_path\": \"\", \"dump_op_switch\": \"on\"");
    expect_bad("\"dump_path\": \"/nonexistent/dir\", \"dump_op_switch\": \"on\"");
    expect_bad("\"dump_path\": \"/etc/hostname\", \"dump_op_switch\": \"on\""); /* not a directory */
    expect_bad("\"dump_path\": \"10.0.0.1:bad path\", \"dump_op_switch\": \"on\"");
    char longpath[700] = "\"dump_path\": \"/";
    memset(longpath + strlen(longpath), 'a', 520);
    strcat(longpath, "\", \"dump_op_switch\": \"on\"");
    expect_bad(longpath);
    expect_bad("\"dump_scene\": \"aic_err_norm_dump\", \"dump_debug\": \"on\"");
    expect_bad("\"dump_scene\": \"lite_exception\", \"dump_op_switch\": \"on\"");
    expect_bad("\"dump_scene\": \"watcher\", \"dump_mode\": \"all\", \"dump_path\": \"$D\"");
    expect_bad("\"dump_path\": \"$D\", \"dump_debug\": \"on\", \"dump_op_switch\": \"on\"");
    expect_bad("\"dump_path\": \"$D\", \"dump_op_switch\": \"on\", \"dump_step\": \"1-2-3\"");
    expect_bad("\"dump_path\": \"$D\", \"dump_op_switch\": \"on\", \"dump_step\": \"5-2\"");
    expect_bad("\"dump_path\": \"$D\", \"dump_op_switch\": \"on\", \"dump_step\": \"1|x\"");
    expect_bad("\"dump_path\": \"$D\", \"dump_op_switch\": \"on\", \"dump_step\": \"1||2\"");
    expect_bad("\"dump_path\": \"$D\", \"dump_op_switch\": \"on\", \"dump_step\": \"4-4\""); /* not a range */
    char steps[400] = "\"dump_path\": \"$D\", \"dump_op_switch\": \"on\", \"dump_step\": \"0";
    for (int i = 1; i <= 100; ++i) {
        strcat(steps, "|1");
    }
    strcat(steps, "\"");
    expect_bad(steps); /* 101 intervals */
    expect_bad("\"dump_path\": \"$D\", \"dump_list\": [{\"model_name\": \"\"}]");
    expect_bad("\"dump_path\": \"$D\", \"dump_list\": [{\"model_name\": \"m\", \"layer\": []}]");
    expect_bad("\"dump_path\": \"$D\", \"dump_list\": [{\"model_name\": \"m\", \"watcher_nodes\": [\"a\"]}]");
    expect_bad("\"dump_scene\": \"watcher\", \"dump_path\": \"$D\", \"dump_list\": [{\"model_name\": \"m\","
               " \"watcher_nodes\": [\"a\"]}]");
    expect_bad("\"dump_scene\": \"watcher\", \"dump_path\": \"$D\", \"dump_list\": [{\"layer\": [\"a\"]}]");
    expect_bad("\"dump_path\": \"$D\", \"dump_list\": [{\"model_name\": \"m\", \"optype_blacklist\":"
               " [{\"name\": \"Add\"}]}]"); /* blacklists need dump_level op */
    expect_bad("\"dump_path\": \"$D\", \"dump_level\": \"op\", \"dump_list\": [{\"opname_range\":"
               " [{\"begin\": \"a\", \"end\": \"b\"}]}]"); /* range needs model_name */
    expect_bad("\"dump_path\": \"$D\", \"dump_level\": \"op\", \"dump_list\": [{\"model_name\": \"m\","
               " \"opname_range\": [{\"begin\": \"a\"}]}]");
    expect_bad("\"dump_path\": \"$D\", \"dump_op_switch\": \"on\", \"dump_stats\": [\"Max\"]"); /* data tensor */
    expect_bad("\"dump_path\": \"$D\", \"dump_op_switch\": \"on\", \"dump_data\": \"stats\", \"dump_stats\": []");
    char bl[9000] = "\"dump_path\": \"$D\", \"dump_level\": \"op\", \"dump_list\": [{\"model_name\": \"m\","
                    " \"opname_blacklist\": [";
    for (int i = 0; i < 101; ++i) {
        strcat(bl, i == 0 ? "{\"name\": \"x\"}" : ", {\"name\": \"x\"}");
    }
    strcat(bl, "]}]");
    expect_bad(bl);
}

/* dump_step selection ("0|5|10-20"), the .om name of a path */
static void step_selection(void **state)
{
    (void)state;
    static const uint64_t yes[] = {0, 5, 10, 15, 20};
    static const uint64_t no[] = {1, 4, 6, 9, 21, 1000};
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; ++i) {
        assert_true(oa_dump_step_selected("0|5|10-20", yes[i]));
    }
    for (size_t i = 0; i < sizeof no / sizeof no[0]; ++i) {
        assert_false(oa_dump_step_selected("0|5|10-20", no[i]));
    }
    assert_true(oa_dump_step_selected("", 123));
    assert_true(oa_dump_step_selected(NULL, 0));
    assert_true(oa_dump_step_selected("7", 7));
    assert_false(oa_dump_step_selected("7", 70));
    char b[64];
    assert_string_equal(oa_dump_om_name("/a/b/resnet50.om", b, sizeof b), "resnet50");
    assert_string_equal(oa_dump_om_name("model.v2.om", b, sizeof b), "model.v2");
    assert_string_equal(oa_dump_om_name("noext", b, sizeof b), "noext");
    assert_string_equal(oa_dump_om_name(NULL, b, sizeof b), "");
}

static int setup(void **state)
{
    (void)state;
    snprintf(g_dir, sizeof(g_dir), "/tmp/oa_dumpcfg_%d", (int)getpid());
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
        cmocka_unit_test(nothing_to_dump),
        cmocka_unit_test(full_config_is_stored),
        cmocka_unit_test(type_and_value_errors),
        cmocka_unit_test(constraint_errors),
        cmocka_unit_test(step_selection),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
