/*
 * file_constant, compile time: hashing, collection order, weight directory,
 * meta.json (reuse, corruption, locking, atomicity), mode 1 files, mode 2
 * combined file, node rewrite, ChangeFilePath, reverse conversion, summary.
 */
#include "fc_test_util.h"

#include <dirent.h>
#include <signal.h>
#include <sys/wait.h>

#include <cjson/cJSON.h>

/* A graph "main": consts a (16 floats, seed 1), b (8 floats, seed 2),
 * c (16 floats, seed 1: same bytes as a), each through a Relu to the output. */
static oa_graph *three_weights(const char *gname)
{
    oa_graph *g;
    EXPECT_OK(oa_graph_create(gname, &g));
    oa_node *out;
    EXPECT_OK(oa_graph_add_net_output(g, "Node_Output", 3, &out));
    fu_weight(g, "b", 8, 2, out, 0);
    fu_weight(g, "a", 16, 1, out, 1);
    fu_weight(g, "c", 16, 1, out, 2);
    return g;
}

static oa_fc_convert_opts opts_in(const char *dir, oa_fc_mode mode)
{
    oa_fc_convert_opts o;
    memset(&o, 0, sizeof o);
    o.mode = mode;
    o.weight_dir = dir;
    return o;
}

/* ---------------------------------------------------------------- hashing */

static void hash_is_rendered_without_zero_padding(void **state)
{
    (void)state;
    uint8_t d[32];
    for (int i = 0; i < 32; i++) {
        d[i] = (uint8_t)(0xa0 + i);
    }
    d[0] = 0x05;
    d[1] = 0x00;
    d[2] = 0x10;
    char s[OA_FC_HASH_CAP];
    oa_fc_hash_render(d, s);
    assert_int_equal(strncmp(s, "5010", 4), 0); /* 0x05 -> "5", 0x00 -> "0", 0x10 -> "10" */
    assert_int_equal(strlen(s), 1 + 1 + 2 + 29 * 2);
    memset(d, 0, sizeof d);
    oa_fc_hash_render(d, s);
    assert_string_equal(s, "00000000000000000000000000000000"); /* 32 characters at least */
    memset(d, 0xff, sizeof d);
    oa_fc_hash_render(d, s);
    assert_int_equal(strlen(s), 64);

    EXPECT_OK(oa_fc_hash_bytes("abc", 3, s));
    assert_string_equal(s, "ba7816bf8f1cfea414140de5dae2223b0361a396177a9cb410ff61f2015ad");
    const uint8_t zeros[4] = {0};
    EXPECT_OK(oa_fc_hash_bytes(zeros, 4, s)); /* digest df3f6198 04a9... has a 0x04 byte */
    assert_string_equal(s, "df3f61984a92fdb4057192dc43dd748ea778adc52bc498ce8524c014b81119");
}

static void mode_values(void **state)
{
    (void)state;
    oa_fc_mode m;
    EXPECT_OK(oa_fc_mode_parse("", &m));
    assert_int_equal(m, OA_FC_MODE_EMBED);
    EXPECT_OK(oa_fc_mode_parse("0", &m));
    assert_int_equal(m, OA_FC_MODE_EMBED);
    EXPECT_OK(oa_fc_mode_parse("1", &m));
    assert_int_equal(m, OA_FC_MODE_FILES);
    EXPECT_OK(oa_fc_mode_parse("2", &m));
    assert_int_equal(m, OA_FC_MODE_COMBINED);
    EXPECT_FAIL(oa_fc_mode_parse("3", &m), OA_E_PARAM, "[3]");
    EXPECT_FAIL(oa_fc_mode_parse("true", &m), OA_E_PARAM, "must be 0, 1 or 2");
}

static void thread_count_env(void **state)
{
    (void)state;
    unsetenv("MAX_COMPILE_CORE_NUMBER");
    assert_int_equal(fc_thread_count(0), 8);
    assert_int_equal(fc_thread_count(3), 3);
    setenv("MAX_COMPILE_CORE_NUMBER", "2", 1);
    assert_int_equal(fc_thread_count(0), 2);
    setenv("MAX_COMPILE_CORE_NUMBER", "junk", 1);
    assert_int_equal(fc_thread_count(0), 8);
    unsetenv("MAX_COMPILE_CORE_NUMBER");
}

/* -------------------------------------------------------- weight directory */

static void weight_dir_rules(void **state)
{
    (void)state;
    char *tmp = fu_tmpdir();
    char cwd[PATH_MAX];
    assert_non_null(getcwd(cwd, sizeof cwd));
    char out[PATH_MAX], want[PATH_MAX];

    /* explicit dir: created with parents, made absolute */
    char *explicit_dir = fu_path(tmp, "user/w");
    oa_fc_convert_opts o = opts_in(explicit_dir, OA_FC_MODE_FILES);
    EXPECT_OK(oa_fc_weight_dir(&o, out, sizeof out));
    assert_string_equal(out, explicit_dir);

    /* $ASCEND_WORK_PATH/tmp_weight_<pid>_<sid>, the env dir created too */
    char *work = fu_path(tmp, "work");
    setenv("ASCEND_WORK_PATH", work, 1);
    o = opts_in(NULL, OA_FC_MODE_FILES);
    o.session_id = 7;
    EXPECT_OK(oa_fc_weight_dir(&o, out, sizeof out));
    snprintf(want, sizeof want, "%s/tmp_weight_%ld_7", work, (long)getpid());
    assert_string_equal(out, want);
    assert_true(fu_exists(want));
    oa_fc_remove_tmp_dir(7);
    assert_false(fu_exists(want));

    /* ./tmp_weight_<pid>_<sid> */
    unsetenv("ASCEND_WORK_PATH");
    assert_int_equal(chdir(tmp), 0);
    o.session_id = 3;
    EXPECT_OK(oa_fc_weight_dir(&o, out, sizeof out));
    snprintf(want, sizeof want, "%s/tmp_weight_%ld_3", tmp, (long)getpid());
    assert_string_equal(out, want);
    assert_int_equal(chdir(cwd), 0);

    /* a file where the directory should be */
    char *file = fu_path(tmp, "afile");
    fu_write(file, "x", 1);
    o = opts_in(file, OA_FC_MODE_FILES);
    EXPECT_FAIL(oa_fc_weight_dir(&o, out, sizeof out), OA_E_GE_FAILURE, "afile");
    free(file);
    free(work);
    free(explicit_dir);
    fu_rmtree(tmp);
}

/* ------------------------------------------------------------------ mode 1 */

static void mode1_files_nodes_and_meta(void **state)
{
    (void)state;
    char *dir = fu_tmpdir();
    oa_graph *g = three_weights("main");
    oa_fc_convert_opts o = opts_in(dir, OA_FC_MODE_FILES);
    oa_fc_convert_stats st;
    EXPECT_OK(oa_fc_convert_consts(g, &o, &st));
    assert_int_equal(st.nodes, 3);
    assert_int_equal(st.distinct, 2);
    assert_int_equal(st.written, 2);
    assert_int_equal(st.reused, 0);
    assert_int_equal(st.bytes_written, 16 * 4 + 8 * 4);
    assert_string_equal(st.weight_dir, dir);

    char ha[OA_FC_HASH_CAP], hb[OA_FC_HASH_CAP];
    fu_hash(16, 1, ha);
    fu_hash(8, 2, hb);
    char name[128];
    snprintf(name, sizeof name, "weight_%s", ha);
    char *pa = fu_path(dir, name);
    snprintf(name, sizeof name, "weight_%s", hb);
    char *pb = fu_path(dir, name);
    assert_int_equal(fu_size(pa), 64);
    assert_int_equal(fu_size(pb), 32);
    float v[16], want[16];
    size_t len = 0;
    char *bytes = fu_read(pa, &len);
    memcpy(v, bytes, sizeof v);
    free(bytes);
    fu_fill(want, 16, 1);
    assert_memory_equal(v, want, sizeof v);
    struct stat sb;
    assert_int_equal(stat(pa, &sb), 0);
    assert_int_equal(sb.st_mode & 0777, 0600);

    /* nodes: no Const left, FileConstant <name>_<hash> with GE's attrs */
    for (oa_node *n = oa_graph_first_node(g); n; n = n->next) {
        assert_int_not_equal(n->type, OA_OP_CONST);
    }
    oa_node *a = fu_find_fc(g, "a"), *c = fu_find_fc(g, "c"), *b = fu_find_fc(g, "b");
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(c);
    snprintf(name, sizeof name, "a_%s", ha);
    assert_string_equal(a->name, name);
    assert_string_equal(oa_node_attr_str(a, "location", ""), pa);
    assert_string_equal(oa_node_attr_str(c, "location", ""), pa); /* same bytes, same file */
    assert_string_equal(oa_node_attr_str(b, "location", ""), pb);
    assert_int_equal(oa_node_attr_int(a, "offset", -1), 0);
    assert_int_equal(oa_node_attr_int(a, "length", -1), 64);
    assert_string_equal(oa_node_attr_str(a, "_value_sha256", ""), ha);
    oa_dtype dt;
    assert_true(oa_attrs_get_dtype(&a->attrs, "dtype", &dt));
    assert_int_equal(dt, OA_DT_FLOAT);
    assert_int_equal(oa_attrs_find(&a->attrs, "dtype")->type, OA_ATTR_DTYPE);
    const int64_t *dims;
    size_t nd;
    assert_true(oa_attrs_get_list_int(&a->attrs, "shape", &dims, &nd));
    assert_int_equal(nd, 1);
    assert_int_equal(dims[0], 16);
    assert_true(oa_attrs_get_list_int(&a->attrs, "original_shape", &dims, &nd));
    assert_int_equal(dims[0], 16);
    assert_null(oa_attrs_find(&a->attrs, "value"));
    /* consumers rewired */
    oa_node *ra = oa_graph_find_node(g, "relu_a");
    assert_ptr_equal(ra->inputs[0].src, a);
    EXPECT_OK(oa_graph_validate(g));

    /* meta.json: nlohmann dump(4) layout, sorted keys */
    char *meta_path = fu_path(dir, "meta.json");
    char *meta = fu_read(meta_path, NULL);
    const char *first = strcmp(ha, hb) < 0 ? ha : hb, *second = first == ha ? hb : ha;
    char expect[2048];
    snprintf(expect, sizeof expect,
             "{\n    \"hash_to_weight_file\": {\n        \"%s\": \"%s/weight_%s\",\n        \"%s\": "
             "\"%s/weight_%s\"\n    },\n    \"hash_to_weight_offset\": {}\n}",
             first, dir, first, second, dir, second);
    assert_string_equal(meta, expect);
    assert_int_equal(stat(meta_path, &sb), 0);
    assert_int_equal(sb.st_mode & 0777, 0600);
    free(meta);
    free(meta_path);
    free(pa);
    free(pb);
    oa_graph_destroy(g);
    fu_rmtree(dir);
}

static void mode1_reuse_across_builds(void **state)
{
    (void)state;
    char *dir = fu_tmpdir();
    oa_fc_convert_opts o = opts_in(dir, OA_FC_MODE_FILES);
    oa_fc_convert_stats st;
    oa_graph *g = three_weights("main");
    EXPECT_OK(oa_fc_convert_consts(g, &o, &st));
    oa_graph_destroy(g);

    char ha[OA_FC_HASH_CAP];
    fu_hash(16, 1, ha);
    char name[128];
    snprintf(name, sizeof name, "weight_%s", ha);
    char *pa = fu_path(dir, name);
    struct stat before;
    assert_int_equal(stat(pa, &before), 0);

    /* same weights again: nothing written, meta untouched */
    g = three_weights("other");
    EXPECT_OK(oa_fc_convert_consts(g, &o, &st));
    assert_int_equal(st.written, 0);
    assert_int_equal(st.reused, 2);
    struct stat after;
    assert_int_equal(stat(pa, &after), 0);
    assert_int_equal(before.st_ino, after.st_ino);
    assert_string_equal(oa_node_attr_str(fu_find_fc(g, "a"), "location", ""), pa);
    oa_graph_destroy(g);

    /* hash in meta but the file deleted: written again */
    assert_int_equal(unlink(pa), 0);
    g = three_weights("third");
    EXPECT_OK(oa_fc_convert_consts(g, &o, &st));
    assert_int_equal(st.written, 1);
    assert_int_equal(st.reused, 1);
    assert_int_equal(fu_size(pa), 64);
    oa_graph_destroy(g);

    /* a damaged (short) file is replaced too */
    assert_int_equal(truncate(pa, 10), 0);
    g = three_weights("fourth");
    EXPECT_OK(oa_fc_convert_consts(g, &o, &st));
    assert_int_equal(st.written, 1);
    assert_int_equal(fu_size(pa), 64);
    oa_graph_destroy(g);
    free(pa);
    fu_rmtree(dir);
}

static void no_consts_touch_nothing(void **state)
{
    (void)state;
    char *dir = fu_tmpdir();
    char *sub = fu_path(dir, "never");
    oa_graph *g;
    EXPECT_OK(oa_graph_create("main", &g));
    tu_data(g, "x", OA_DT_FLOAT, "1,2");
    oa_fc_convert_opts o = opts_in(sub, OA_FC_MODE_FILES);
    oa_fc_convert_stats st;
    EXPECT_OK(oa_fc_convert_consts(g, &o, &st));
    assert_int_equal(st.nodes, 0);
    assert_false(fu_exists(sub));
    /* mode 0 leaves consts alone */
    oa_graph_destroy(g);
    g = three_weights("main");
    o.mode = OA_FC_MODE_EMBED;
    EXPECT_OK(oa_fc_convert_consts(g, &o, &st));
    assert_non_null(oa_graph_find_node(g, "a"));
    assert_false(fu_exists(sub));
    o.mode = (oa_fc_mode)5;
    EXPECT_FAIL(oa_fc_convert_consts(g, &o, &st), OA_E_PARAM, "mode 5");
    oa_graph_destroy(g);
    free(sub);
    fu_rmtree(dir);
}

/* ----------------------------------------------------------------- ordering */

static void order_is_name_graph_id(void **state)
{
    (void)state;
    char *dir = fu_tmpdir();
    oa_graph *g;
    EXPECT_OK(oa_graph_create("main", &g));
    oa_node *out;
    EXPECT_OK(oa_graph_add_net_output(g, "Node_Output", 4, &out));
    /* creation order z, m, a; a subgraph "aaa" and one "zzz" each hold a const named "m" */
    fu_weight(g, "z", 4, 10, out, 0);
    fu_weight(g, "m", 4, 11, out, 1);
    fu_weight(g, "a", 4, 12, out, 2);
    oa_node *x = tu_data(g, "x", OA_DT_FLOAT, "4");
    oa_node *pc;
    EXPECT_OK(oa_graph_add_node(g, OA_OP_PARTITIONED_CALL, "call", 1, 1, &pc));
    EXPECT_OK(oa_node_connect(pc, 0, x, 0));
    EXPECT_OK(oa_node_connect(out, 3, pc, 0));
    oa_graph *s1, *s2;
    EXPECT_OK(oa_graph_create_subgraph(pc, "f", "zzz", &s1));
    EXPECT_OK(oa_graph_create_subgraph(pc, "f", "aaa", &s2));
    fu_weight(s1, "m", 4, 13, NULL, 0);
    fu_weight(s2, "m", 4, 14, NULL, 0);

    oa_fc_convert_opts o = opts_in(dir, OA_FC_MODE_COMBINED);
    EXPECT_OK(oa_fc_convert_consts(g, &o, NULL));
    /* order: a, m@aaa, m@main, m@zzz, z -> offsets 0, 512, 1024, 1536, 2048 */
    assert_int_equal(oa_node_attr_int(fu_find_fc(g, "a"), "offset", -1), 0);
    assert_int_equal(oa_node_attr_int(fu_find_fc(s2, "m"), "offset", -1), 512);
    assert_int_equal(oa_node_attr_int(fu_find_fc(g, "m"), "offset", -1), 1024);
    assert_int_equal(oa_node_attr_int(fu_find_fc(s1, "m"), "offset", -1), 1536);
    assert_int_equal(oa_node_attr_int(fu_find_fc(g, "z"), "offset", -1), 2048);
    oa_graph_destroy(g);
    fu_rmtree(dir);
}

/* ------------------------------------------------------------------ mode 2 */

static void mode2_padding_append_and_reuse(void **state)
{
    (void)state;
    char *dir = fu_tmpdir();
    oa_graph *g;
    EXPECT_OK(oa_graph_create("main", &g));
    oa_node *out;
    EXPECT_OK(oa_graph_add_net_output(g, "Node_Output", 3, &out));
    fu_weight(g, "w1", 1, 1, out, 0);   /* 4 bytes -> occupies 512 */
    fu_weight(g, "w2", 128, 2, out, 1); /* 512 bytes: no padding */
    fu_weight(g, "w3", 3, 3, out, 2);   /* 12 bytes */
    oa_fc_convert_opts o = opts_in(dir, OA_FC_MODE_COMBINED);
    o.om_prefix = "/a/b/net.om";
    oa_fc_convert_stats st;
    EXPECT_OK(oa_fc_convert_consts(g, &o, &st));
    char *comb = fu_path(dir, "net_weight_combined");
    assert_int_equal(fu_size(comb), 512 + 512 + 512);
    assert_int_equal(st.bytes_written, 1536);
    oa_node *w1 = fu_find_fc(g, "w1"), *w2 = fu_find_fc(g, "w2"), *w3 = fu_find_fc(g, "w3");
    assert_int_equal(oa_node_attr_int(w1, "offset", -1), 0);
    assert_int_equal(oa_node_attr_int(w2, "offset", -1), 512);
    assert_int_equal(oa_node_attr_int(w3, "offset", -1), 1024);
    assert_int_equal(oa_node_attr_int(w3, "length", -1), 12);
    assert_string_equal(oa_node_attr_str(w2, "location", ""), comb);
    size_t len = 0;
    char *bytes = fu_read(comb, &len);
    float want[128];
    fu_fill(want, 128, 2);
    assert_memory_equal(bytes + 512, want, 512);
    for (size_t i = 4; i < 512; i++) {
        assert_int_equal(bytes[i], 0); /* zero padding */
    }
    free(bytes);
    char *meta_path = fu_path(dir, "meta.json");
    char *meta = fu_read(meta_path, NULL);
    free(meta_path);
    char h2[OA_FC_HASH_CAP];
    fu_hash(128, 2, h2);
    char frag[256];
    snprintf(frag, sizeof frag, "\"%s\": 512", h2);
    assert_non_null(strstr(meta, frag));
    free(meta);
    oa_graph_destroy(g);

    /* everything known: the file is not touched */
    struct stat before, after;
    assert_int_equal(stat(comb, &before), 0);
    EXPECT_OK(oa_graph_create("main", &g));
    EXPECT_OK(oa_graph_add_net_output(g, "Node_Output", 2, &out));
    fu_weight(g, "k", 128, 2, out, 0);
    fu_weight(g, "j", 1, 1, out, 1);
    EXPECT_OK(oa_fc_convert_consts(g, &o, &st));
    assert_int_equal(st.written, 0);
    assert_int_equal(st.reused, 2);
    assert_int_equal(stat(comb, &after), 0);
    assert_int_equal(after.st_size, before.st_size);
    assert_int_equal(after.st_mtim.tv_nsec, before.st_mtim.tv_nsec);
    assert_int_equal(oa_node_attr_int(fu_find_fc(g, "k"), "offset", -1), 512);
    oa_graph_destroy(g);

    /* a new weight is appended at the end; known ones keep their offsets */
    EXPECT_OK(oa_graph_create("main", &g));
    EXPECT_OK(oa_graph_add_net_output(g, "Node_Output", 2, &out));
    fu_weight(g, "new", 2, 9, out, 0);
    fu_weight(g, "old", 3, 3, out, 1);
    EXPECT_OK(oa_fc_convert_consts(g, &o, &st));
    assert_int_equal(st.written, 1);
    assert_int_equal(oa_node_attr_int(fu_find_fc(g, "new"), "offset", -1), 1536);
    assert_int_equal(oa_node_attr_int(fu_find_fc(g, "old"), "offset", -1), 1024);
    assert_int_equal(fu_size(comb), 2048);
    oa_graph_destroy(g);

    /* a torn tail (interrupted build) keeps new entries 512-aligned */
    int fd = open(comb, O_WRONLY | O_APPEND);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "junk", 4), 4);
    close(fd);
    EXPECT_OK(oa_graph_create("main", &g));
    EXPECT_OK(oa_graph_add_net_output(g, "Node_Output", 1, &out));
    fu_weight(g, "later", 2, 99, out, 0);
    EXPECT_OK(oa_fc_convert_consts(g, &o, &st));
    assert_int_equal(oa_node_attr_int(fu_find_fc(g, "later"), "offset", -1), 2560);
    assert_int_equal(fu_size(comb), 3072);
    oa_graph_destroy(g);
    free(comb);
    fu_rmtree(dir);
}

static void mode2_file_names(void **state)
{
    (void)state;
    char *dir = fu_tmpdir();
    oa_fc_convert_opts o = opts_in(dir, OA_FC_MODE_COMBINED);
    oa_graph *g;
    oa_node *out;
    /* no prefix: <graph>_weight_combined */
    EXPECT_OK(oa_graph_create("mygraph", &g));
    EXPECT_OK(oa_graph_add_net_output(g, "Node_Output", 1, &out));
    fu_weight(g, "w", 4, 1, out, 0);
    EXPECT_OK(oa_fc_convert_consts(g, &o, NULL));
    char *p = fu_path(dir, "mygraph_weight_combined");
    assert_true(fu_exists(p));
    free(p);
    oa_graph_destroy(g);
    /* prefix from the graph attr ge.modelFileNamePrefix, extension cut at the last '.' */
    EXPECT_OK(oa_graph_create("g2", &g));
    EXPECT_OK(oa_attrs_set_str(g, oa_graph_attrs(g), "ge.modelFileNamePrefix", "out/dir/res.net.om"));
    EXPECT_OK(oa_graph_add_net_output(g, "Node_Output", 1, &out));
    fu_weight(g, "w", 4, 2, out, 0);
    EXPECT_OK(oa_fc_convert_consts(g, &o, NULL));
    p = fu_path(dir, "res.net_weight_combined");
    assert_true(fu_exists(p));
    free(p);
    oa_graph_destroy(g);
    /* a prefix without extension */
    EXPECT_OK(oa_graph_create("g3", &g));
    EXPECT_OK(oa_graph_add_net_output(g, "Node_Output", 1, &out));
    fu_weight(g, "w", 4, 3, out, 0);
    o.om_prefix = "resnet50";
    EXPECT_OK(oa_fc_convert_consts(g, &o, NULL));
    p = fu_path(dir, "resnet50_weight_combined");
    assert_true(fu_exists(p));
    free(p);
    oa_graph_destroy(g);
    fu_rmtree(dir);
}

/* ---------------------------------------------------------------- meta.json */

static void meta_corrupt_and_edge_cases(void **state)
{
    (void)state;
    char *dir = fu_tmpdir();
    char *meta = fu_path(dir, "meta.json");
    oa_fc_convert_opts o = opts_in(dir, OA_FC_MODE_FILES);
    oa_graph *g = three_weights("main");

    fu_write(meta, "{\"hash_to_weight_file\": {", 25);
    EXPECT_FAIL(oa_fc_convert_consts(g, &o, NULL), OA_E_GE_FAILURE, "not valid JSON");
    assert_non_null(oa_graph_find_node(g, "a")); /* graph unchanged */
    fu_write(meta, "[1,2]", 5);
    EXPECT_FAIL(oa_fc_convert_consts(g, &o, NULL), OA_E_GE_FAILURE, "not a JSON object");
    fu_write(meta, "{\"hash_to_weight_file\": {\"x\": 3}}", 33);
    EXPECT_FAIL(oa_fc_convert_consts(g, &o, NULL), OA_E_GE_FAILURE, "hash_to_weight_file");
    const char *neg = "{\"hash_to_weight_offset\": {\"x\": -1}}";
    fu_write(meta, neg, strlen(neg));
    EXPECT_FAIL(oa_fc_convert_consts(g, &o, NULL), OA_E_GE_FAILURE, "non-negative integer");

    /* an empty meta.json (a writer killed before its first commit) is a new one */
    fu_write(meta, "", 0);
    EXPECT_OK(oa_fc_convert_consts(g, &o, NULL));
    oa_graph_destroy(g);

    /* either key may be missing; unknown keys are ignored */
    const char *partial = "{\"other\": 1, \"hash_to_weight_offset\": {}}";
    fu_write(meta, partial, strlen(partial));
    g = three_weights("main");
    EXPECT_OK(oa_fc_convert_consts(g, &o, NULL));
    oa_graph_destroy(g);

    /* meta.json that cannot be opened (a directory): FAILED */
    assert_int_equal(unlink(meta), 0);
    assert_int_equal(mkdir(meta, 0700), 0);
    g = three_weights("main");
    EXPECT_FAIL(oa_fc_convert_consts(g, &o, NULL), OA_E_GE_FAILURE, "meta.json");
    oa_graph_destroy(g);
    free(meta);
    fu_rmtree(dir);
}

static void meta_round_trip_and_escaping(void **state)
{
    (void)state;
    fc_meta m;
    fc_meta_init(&m);
    EXPECT_OK(fc_meta_set(&m, "b1", "/x/\"q\"\\w", false, 0));
    EXPECT_OK(fc_meta_set(&m, "a2", "/x/comb", true, 1024));
    size_t len = 0;
    char *text = fc_meta_render(&m, &len);
    assert_string_equal(text, "{\n    \"hash_to_weight_file\": {\n        \"a2\": \"/x/comb\",\n        \"b1\": "
                              "\"/x/\\\"q\\\"\\\\w\"\n    },\n    \"hash_to_weight_offset\": {\n        \"a2\": 1024\n"
                              "    }\n}");
    fc_meta back;
    fc_meta_init(&back);
    EXPECT_OK(fc_meta_parse(&back, text, len, "t"));
    assert_string_equal(fc_meta_find(&back, "b1")->file, "/x/\"q\"\\w");
    assert_true(fc_meta_find(&back, "a2")->has_offset);
    assert_int_equal(fc_meta_find(&back, "a2")->offset, 1024);
    free(text);
    fc_meta_deinit(&back);
    fc_meta_deinit(&m);
}

/* ------------------------------------------------ concurrency and kill-safety */

/* Checks that meta.json parses and every weight it names is complete: the
 * bytes at its file/offset hash back to the key. Returns the entry count. */
static size_t check_dir_consistent(const char *dir, size_t weight_len)
{
    char *mp = fu_path(dir, "meta.json");
    size_t len = 0;
    char *text = fu_read(mp, &len);
    free(mp);
    if (text == NULL || len == 0) {
        free(text);
        return 0;
    }
    fc_meta m;
    fc_meta_init(&m);
    EXPECT_OK(fc_meta_parse(&m, text, len, "meta"));
    free(text);
    for (size_t i = 0; i < m.n; i++) {
        size_t fl = 0;
        char *bytes = fu_read(m.v[i].file, &fl);
        assert_non_null(bytes);
        uint64_t off = m.v[i].has_offset ? m.v[i].offset : 0;
        assert_true(off + weight_len <= fl);
        if (m.v[i].has_offset) {
            assert_int_equal(off % 512, 0);
        } else {
            assert_int_equal(fl, weight_len);
        }
        char h[OA_FC_HASH_CAP];
        EXPECT_OK(oa_fc_hash_bytes(bytes + off, weight_len, h));
        assert_string_equal(h, m.v[i].hash);
        free(bytes);
    }
    size_t n = m.n;
    fc_meta_deinit(&m);
    return n;
}

/* A graph of 6 weights of 1000 floats with seeds base..base+5. */
static oa_graph *six_weights(int base)
{
    oa_graph *g;
    EXPECT_OK(oa_graph_create("main", &g));
    oa_node *out;
    EXPECT_OK(oa_graph_add_net_output(g, "Node_Output", 6, &out));
    for (int i = 0; i < 6; i++) {
        char n[16];
        snprintf(n, sizeof n, "w%d", i);
        fu_weight(g, n, 1000, base + i, out, (uint32_t)i);
    }
    return g;
}

static void concurrent_processes(oa_fc_mode mode)
{
    char *dir = fu_tmpdir();
    enum { KIDS = 4, ROUNDS = 4 };
    pid_t kids[KIDS];
    for (int k = 0; k < KIDS; k++) {
        kids[k] = fork();
        assert_true(kids[k] >= 0);
        if (kids[k] == 0) {
            int rc = 0;
            for (int r = 0; r < ROUNDS; r++) {
                oa_graph *g = six_weights(k * 2 + r); /* overlapping seeds between children and rounds */
                oa_fc_convert_opts o = opts_in(dir, mode);
                o.om_prefix = "shared.om";
                if (oa_fc_convert_consts(g, &o, NULL) != OA_OK) {
                    rc = 1;
                }
                /* every node's bytes must be at its location */
                for (oa_node *n = oa_graph_first_node(g); n; n = n->next) {
                    if (n->type != OA_OP_FILE_CONSTANT) {
                        continue;
                    }
                    float buf[1000];
                    if (oa_fc_copy_from_file(buf, sizeof buf, oa_node_attr_str(n, "location", ""),
                                             (uint64_t)oa_node_attr_int(n, "offset", 0), sizeof buf) != OA_OK) {
                        rc = 1;
                        continue;
                    }
                    char h[OA_FC_HASH_CAP];
                    if (oa_fc_hash_bytes(buf, sizeof buf, h) != OA_OK ||
                        strcmp(h, oa_node_attr_str(n, "_value_sha256", "")) != 0) {
                        rc = 1;
                    }
                }
                oa_graph_destroy(g);
            }
            _exit(rc);
        }
    }
    for (int k = 0; k < KIDS; k++) {
        int status;
        assert_int_equal(waitpid(kids[k], &status, 0), kids[k]);
        assert_true(WIFEXITED(status));
        assert_int_equal(WEXITSTATUS(status), 0);
    }
    /* seeds 0 .. 2*(KIDS-1)+(ROUNDS-1)+5: every distinct weight recorded exactly once */
    size_t n = check_dir_consistent(dir, 4000);
    assert_int_equal(n, 2 * (KIDS - 1) + (ROUNDS - 1) + 6);
    if (mode == OA_FC_MODE_COMBINED) {
        char *comb = fu_path(dir, "shared_weight_combined");
        assert_int_equal(fu_size(comb), (long long)n * 4096); /* each weight once, 4000 -> 4096 */
        free(comb);
    }
    fu_rmtree(dir);
}

static void flock_serialises_processes_mode1(void **state)
{
    (void)state;
    concurrent_processes(OA_FC_MODE_FILES);
}

static void flock_serialises_processes_mode2(void **state)
{
    (void)state;
    concurrent_processes(OA_FC_MODE_COMBINED);
}

static const char *g_pause_stage;
static int g_pause_fd = -1;

static void pause_hook(const char *stage, const char *path)
{
    (void)path;
    if (g_pause_stage != NULL && strcmp(stage, g_pause_stage) == 0) {
        char c = 'p';
        (void)!write(g_pause_fd, &c, 1);
        for (;;) {
            pause(); /* until SIGKILL */
        }
    }
}

/* Converts six_weights(0) in a child that stops at `stage`, kills it there,
 * then checks the directory and that a rerun succeeds. */
static void killed_at(const char *stage, oa_fc_mode mode)
{
    char *dir = fu_tmpdir();
    /* a first complete build so that an old meta.json exists */
    oa_graph *g0 = six_weights(100);
    oa_fc_convert_opts o = opts_in(dir, mode);
    o.om_prefix = "k.om";
    EXPECT_OK(oa_fc_convert_consts(g0, &o, NULL));
    oa_graph_destroy(g0);
    char *mp = fu_path(dir, "meta.json");
    char *old_meta = fu_read(mp, NULL);

    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t kid = fork();
    assert_true(kid >= 0);
    if (kid == 0) {
        close(fds[0]);
        g_pause_stage = stage;
        g_pause_fd = fds[1];
        oa_fc_test_hook = pause_hook;
        oa_graph *g = six_weights(0);
        if (oa_fc_convert_consts(g, &o, NULL) != OA_OK) {
            _exit(4);
        }
        _exit(3); /* the hook never returns */
    }
    close(fds[1]);
    char c;
    assert_int_equal(read(fds[0], &c, 1), 1);
    close(fds[0]);
    assert_int_equal(kill(kid, SIGKILL), 0);
    int status;
    assert_int_equal(waitpid(kid, &status, 0), kid);
    assert_true(WIFSIGNALED(status));

    /* the old meta.json is intact (never torn), and everything it names is complete */
    char *now = fu_read(mp, NULL);
    assert_string_equal(now, old_meta);
    assert_int_equal(check_dir_consistent(dir, 4000), 6);
    free(now);
    /* no torn weight file under a final name */
    if (mode == OA_FC_MODE_FILES) {
        for (int i = 0; i < 6; i++) {
            char h[OA_FC_HASH_CAP], name[128];
            fu_hash(1000, i, h);
            snprintf(name, sizeof name, "weight_%s", h);
            char *p = fu_path(dir, name);
            long long sz = fu_size(p);
            assert_true(sz == -1 || sz == 4000);
            free(p);
        }
    }
    /* a rerun succeeds, cleans the dead writer's temp files, and is consistent */
    oa_graph *g = six_weights(0);
    EXPECT_OK(oa_fc_convert_consts(g, &o, NULL));
    oa_graph_destroy(g);
    assert_int_equal(check_dir_consistent(dir, 4000), 12);
    DIR *d = opendir(dir);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        assert_null(strstr(e->d_name, ".tmp."));
    }
    closedir(d);
    free(old_meta);
    free(mp);
    fu_rmtree(dir);
}

static void kill_while_writing_weight_file(void **state)
{
    (void)state;
    killed_at("weight_write", OA_FC_MODE_FILES);
}

static void kill_while_writing_meta_mode1(void **state)
{
    (void)state;
    killed_at("meta_write", OA_FC_MODE_FILES);
}

static void kill_while_appending_combined(void **state)
{
    (void)state;
    killed_at("combined_write", OA_FC_MODE_COMBINED);
}

static void kill_while_writing_meta_mode2(void **state)
{
    (void)state;
    killed_at("meta_write", OA_FC_MODE_COMBINED);
}

/* ----------------------------------------------------------- ChangeFilePath */

static void change_file_path_moves_temp_weights(void **state)
{
    (void)state;
    char *tmp = fu_tmpdir();
    char cwd[PATH_MAX];
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(tmp), 0);
    unsetenv("ASCEND_WORK_PATH");
    oa_graph *g = three_weights("main");
    oa_fc_convert_opts o = opts_in(NULL, OA_FC_MODE_FILES);
    o.session_id = 11;
    oa_fc_convert_stats st;
    EXPECT_OK(oa_fc_convert_consts(g, &o, &st));
    assert_non_null(strstr(st.weight_dir, "tmp_weight_"));
    char *tdir = strdup(st.weight_dir);
    /* a user-dir weight stays where it is */
    char *udir = fu_path(tmp, "userdir");
    oa_graph *g2;
    EXPECT_OK(oa_graph_create("user", &g2));
    oa_node *out;
    EXPECT_OK(oa_graph_add_net_output(g2, "Node_Output", 1, &out));
    fu_weight(g2, "u", 4, 77, out, 0);
    oa_fc_convert_opts ou = opts_in(udir, OA_FC_MODE_FILES);
    EXPECT_OK(oa_fc_convert_consts(g2, &ou, NULL));
    char *uloc = strdup(oa_node_attr_str(fu_find_fc(g2, "u"), "location", ""));

    assert_int_equal(chdir(cwd), 0);
    char *om = fu_path(tmp, "out/net.om");
    char *outdir = fu_path(tmp, "out");
    assert_int_equal(mkdir(outdir, 0750), 0);
    free(outdir);
    EXPECT_OK(oa_fc_move_to_model_dir(g, om));
    EXPECT_OK(oa_fc_move_to_model_dir(g2, om));
    char ha[OA_FC_HASH_CAP], name[128];
    fu_hash(16, 1, ha);
    snprintf(name, sizeof name, "weight_%s", ha);
    oa_node *a = fu_find_fc(g, "a");
    assert_string_equal(oa_node_attr_str(a, "location", ""), name);
    assert_string_equal(oa_node_attr_str(fu_find_fc(g, "c"), "location", ""), name);
    char rel[256];
    snprintf(rel, sizeof rel, "out/weight/%s", name);
    char *moved = fu_path(tmp, rel);
    assert_int_equal(fu_size(moved), 64);
    assert_false(fu_exists(tdir)); /* temp dir (and its meta.json) removed */
    assert_string_equal(oa_node_attr_str(fu_find_fc(g2, "u"), "location", ""), uloc);
    assert_true(fu_exists(uloc));

    /* unresolvable location */
    EXPECT_OK(oa_node_set_str(a, "location", "/nonexistent/tmp_weight_1_1/weight_x"));
    EXPECT_FAIL(oa_fc_move_to_model_dir(g, om), OA_E_GE_FAILURE, "cannot be resolved");
    free(uloc);
    free(moved);
    free(om);
    free(udir);
    free(tdir);
    oa_graph_destroy(g);
    oa_graph_destroy(g2);
    fu_rmtree(tmp);
}

/* --------------------------------------------------------- reverse conversion */

static void file_const_to_const(void **state)
{
    (void)state;
    char *dir = fu_tmpdir();
    oa_graph *g = three_weights("main");
    oa_fc_convert_opts o = opts_in(dir, OA_FC_MODE_COMBINED);
    EXPECT_OK(oa_fc_convert_consts(g, &o, NULL));
    /* a FileConstant with neither location nor file_path stays */
    oa_node *lone;
    EXPECT_OK(oa_graph_add_node(g, OA_OP_FILE_CONSTANT, "lone", 0, 1, &lone));
    EXPECT_OK(oa_node_set_str(lone, "file_id", "nope"));
    oa_graph *copy;
    EXPECT_OK(oa_graph_clone(g, &copy));

    for (int map = 0; map < 2; map++) {
        oa_graph *h;
        EXPECT_OK(oa_graph_clone(copy, &h));
        EXPECT_OK(oa_fc_file_consts_to_consts(h, NULL, NULL, map != 0));
        char ha[OA_FC_HASH_CAP], nm[128];
        fu_hash(16, 1, ha);
        snprintf(nm, sizeof nm, "a_%s", ha);
        oa_node *a = oa_graph_find_node(h, nm);
        assert_non_null(a);
        assert_int_equal(a->type, OA_OP_CONST);
        assert_null(oa_attrs_find(&a->attrs, "location"));
        assert_null(oa_attrs_find(&a->attrs, "offset"));
        const oa_tensor *t;
        assert_true(oa_attrs_get_tensor(&a->attrs, "value", &t));
        assert_int_equal(t->size, 64);
        float want[16];
        fu_fill(want, 16, 1);
        assert_memory_equal(t->data, want, 64);
        assert_true(map ? t->blob != NULL : t->blob == NULL);
        assert_ptr_equal(oa_graph_find_node(h, "relu_a")->inputs[0].src, a);
        assert_int_equal(oa_graph_find_node(h, "lone")->type, OA_OP_FILE_CONSTANT);
        EXPECT_OK(oa_graph_validate(h));
        oa_graph_destroy(h);
    }
    /* file_path fallback, relative to base_dir */
    oa_graph *h;
    EXPECT_OK(oa_graph_create("fp", &h));
    oa_node *fcn;
    EXPECT_OK(oa_graph_add_node(h, OA_OP_FILE_CONSTANT, "f", 0, 1, &fcn));
    float vals[4] = {1, 2, 3, 4};
    char *bin = fu_path(dir, "vals.bin");
    fu_write(bin, vals, sizeof vals);
    EXPECT_OK(oa_node_set_str(fcn, "file_path", "vals.bin"));
    EXPECT_OK(oa_node_set_dtype(fcn, "dtype", OA_DT_FLOAT));
    int64_t four = 4;
    EXPECT_OK(oa_node_set_list_int(fcn, "shape", &four, 1));
    EXPECT_OK(oa_fc_file_consts_to_consts(h, dir, NULL, false));
    const oa_tensor *t;
    assert_true(oa_attrs_get_tensor(&oa_graph_find_node(h, "f")->attrs, "value", &t));
    assert_memory_equal(t->data, vals, sizeof vals);
    oa_graph_destroy(h);

    /* bounds: a short file, an overflowing offset */
    EXPECT_OK(oa_graph_create("bad", &h));
    EXPECT_OK(oa_graph_add_node(h, OA_OP_FILE_CONSTANT, "f", 0, 1, &fcn));
    EXPECT_OK(oa_node_set_str(fcn, "location", bin));
    EXPECT_OK(oa_node_set_int(fcn, "offset", 8));
    EXPECT_OK(oa_node_set_dtype(fcn, "dtype", OA_DT_FLOAT));
    EXPECT_OK(oa_node_set_list_int(fcn, "shape", &four, 1));
    EXPECT_FAIL(oa_fc_file_consts_to_consts(h, NULL, NULL, false), OA_E_GE_FAILURE, "has 16 bytes");
    EXPECT_OK(oa_node_set_int(fcn, "offset", INT64_MAX));
    EXPECT_OK(oa_node_set_int(fcn, "length", INT64_MAX));
    EXPECT_FAIL(oa_fc_file_consts_to_consts(h, NULL, NULL, false), OA_E_GE_FAILURE, "differs");
    EXPECT_OK(oa_node_set_int(fcn, "offset", -1));
    EXPECT_FAIL(oa_fc_file_consts_to_consts(h, NULL, NULL, false), OA_E_GE_FAILURE, "negative");
    EXPECT_OK(oa_node_set_int(fcn, "offset", 0));
    EXPECT_OK(oa_node_set_int(fcn, "length", 0));
    EXPECT_OK(oa_node_set_str(fcn, "location", "/nonexistent/file"));
    EXPECT_FAIL(oa_fc_file_consts_to_consts(h, NULL, NULL, false), OA_E_GE_FAILURE, "not a readable");
    /* an empty tensor reads nothing */
    int64_t zero = 0;
    EXPECT_OK(oa_node_set_str(fcn, "location", bin));
    EXPECT_OK(oa_node_set_list_int(fcn, "shape", &zero, 1));
    EXPECT_OK(oa_fc_file_consts_to_consts(h, NULL, NULL, false));
    assert_int_equal(oa_graph_find_node(h, "f")->type, OA_OP_CONST);
    oa_graph_destroy(h);
    free(bin);
    oa_graph_destroy(copy);
    oa_graph_destroy(g);
    fu_rmtree(dir);
}

/* ----------------------------------------------------------------- summary */

static void summary_written_and_shown(void **state)
{
    (void)state;
    char *tmp = fu_tmpdir();
    char cwd[PATH_MAX];
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(tmp), 0);
    oa_graph *g = three_weights("main");
    oa_fc_convert_opts o = opts_in(NULL, OA_FC_MODE_COMBINED);
    o.om_prefix = "net.om";
    EXPECT_OK(oa_fc_convert_consts(g, &o, NULL));
    assert_int_equal(chdir(cwd), 0);
    char *om = fu_path(tmp, "net.om");
    EXPECT_OK(oa_fc_move_to_model_dir(g, om));
    EXPECT_OK(oa_fc_summary_write(g, om, OA_FC_MODE_COMBINED));
    char sp[PATH_MAX];
    EXPECT_OK(oa_fc_summary_path(om, sp, sizeof sp));
    char *want_sp = fu_path(tmp, "net_external_weights.json");
    assert_string_equal(sp, want_sp);
    char *text = fu_read(sp, NULL);
    cJSON *j = cJSON_Parse(text);
    assert_non_null(j);
    assert_string_equal(cJSON_GetObjectItem(j, "format")->valuestring, "openacl-external-weights");
    assert_int_equal(cJSON_GetObjectItem(j, "mode")->valueint, 2);
    cJSON *files = cJSON_GetObjectItem(j, "files");
    assert_int_equal(cJSON_GetArraySize(files), 1);
    cJSON *f0 = cJSON_GetArrayItem(files, 0);
    assert_string_equal(cJSON_GetObjectItem(f0, "path")->valuestring, "weight/net_weight_combined");
    assert_int_equal(cJSON_GetObjectItem(f0, "size")->valueint, 1024);
    cJSON *ws = cJSON_GetObjectItem(j, "weights");
    assert_int_equal(cJSON_GetArraySize(ws), 2); /* a and c share one entry */
    cJSON *w0 = cJSON_GetArrayItem(ws, 0);
    assert_int_equal(cJSON_GetObjectItem(w0, "offset")->valueint, 0);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(w0, "nodes")), 2);
    cJSON_Delete(j);
    free(text);

    char *buf = NULL;
    size_t blen = 0;
    FILE *mem = open_memstream(&buf, &blen);
    bool found;
    EXPECT_OK(oa_fc_summary_print(om, mem, &found));
    fclose(mem);
    assert_true(found);
    assert_non_null(strstr(buf, "--external_weight=2"));
    assert_non_null(strstr(buf, "weight/net_weight_combined"));
    assert_non_null(strstr(buf, " ok"));
    free(buf);
    /* a missing file shows as such */
    char *comb = fu_path(tmp, "weight/net_weight_combined");
    assert_int_equal(unlink(comb), 0);
    mem = open_memstream(&buf, &blen);
    EXPECT_OK(oa_fc_summary_print(om, mem, &found));
    fclose(mem);
    assert_non_null(strstr(buf, "missing"));
    free(buf);
    /* no summary: found = false, OK */
    char *om2 = fu_path(tmp, "other.om");
    EXPECT_OK(oa_fc_summary_print(om2, stdout, &found));
    assert_false(found);
    /* a malformed summary is an error */
    fu_write(sp, "{}", 2);
    EXPECT_FAIL(oa_fc_summary_print(om, stdout, &found), OA_E_GE_FAILURE, "malformed");
    /* a model without FileConstant removes a stale summary */
    oa_graph *e;
    EXPECT_OK(oa_graph_create("e", &e));
    EXPECT_OK(oa_fc_summary_write(e, om, OA_FC_MODE_COMBINED));
    assert_false(fu_exists(sp));
    oa_graph_destroy(e);
    free(om2);
    free(comb);
    free(want_sp);
    free(om);
    oa_graph_destroy(g);
    fu_rmtree(tmp);
}


/* ------------------------------------------- hostile weight directories (issue 18) */

/* A planted file under a name meta.json knows, same size, other bytes: rewritten, never reused (mode 1). */
static void reuse_checks_the_bytes_mode1(void **state)
{
    (void)state;
    char *dir = fu_tmpdir();
    oa_fc_convert_opts o = opts_in(dir, OA_FC_MODE_FILES);
    oa_fc_convert_stats st;
    oa_graph *g = three_weights("main");
    EXPECT_OK(oa_fc_convert_consts(g, &o, &st));
    oa_graph_destroy(g);
    char ha[OA_FC_HASH_CAP];
    fu_hash(16, 1, ha);
    char name[128];
    snprintf(name, sizeof name, "weight_%s", ha);
    char *pa = fu_path(dir, name);
    float other[16];
    fu_fill(other, 16, 7);
    unlink(pa);
    fu_write(pa, other, sizeof other);
    g = three_weights("again");
    EXPECT_OK(oa_fc_convert_consts(g, &o, &st));
    assert_int_equal(st.written, 1);
    assert_int_equal(st.reused, 1);
    float want[16];
    fu_fill(want, 16, 1);
    size_t len = 0;
    char *bytes = fu_read(pa, &len);
    assert_int_equal(len, sizeof want);
    assert_memory_equal(bytes, want, sizeof want);
    free(bytes);
    oa_graph_destroy(g);
    free(pa);
    fu_rmtree(dir);
}

/* Mode 2: a meta.json entry whose combined file holds other bytes at its offset, or that names a file outside
 * the weight directory (even one holding the right bytes), is not reused. */
static void reuse_checks_the_bytes_mode2(void **state)
{
    (void)state;
    char *dir = fu_tmpdir();
    char *elsewhere = fu_tmpdir();
    oa_graph *g;
    oa_node *out;
    EXPECT_OK(oa_graph_create("main", &g));
    EXPECT_OK(oa_graph_add_net_output(g, "Node_Output", 1, &out));
    fu_weight(g, "w", 128, 2, out, 0);
    oa_fc_convert_opts o = opts_in(dir, OA_FC_MODE_COMBINED);
    o.om_prefix = "/a/b/net.om";
    oa_fc_convert_stats st;
    EXPECT_OK(oa_fc_convert_consts(g, &o, &st));
    oa_graph_destroy(g);
    char *comb = fu_path(dir, "net_weight_combined");
    float other[128];
    fu_fill(other, 128, 5);
    fu_write(comb, other, sizeof other); /* same size, other bytes */
    EXPECT_OK(oa_graph_create("main", &g));
    EXPECT_OK(oa_graph_add_net_output(g, "Node_Output", 1, &out));
    fu_weight(g, "w", 128, 2, out, 0);
    EXPECT_OK(oa_fc_convert_consts(g, &o, &st));
    assert_int_equal(st.written, 1);
    assert_int_equal(st.reused, 0);
    const int64_t off = oa_node_attr_int(fu_find_fc(g, "w"), "offset", -1);
    assert_int_equal(off, 512);
    size_t len = 0;
    char *bytes = fu_read(comb, &len);
    float want[128];
    fu_fill(want, 128, 2);
    assert_true(len >= 1024);
    assert_memory_equal(bytes + off, want, sizeof want);
    free(bytes);
    oa_graph_destroy(g);

    /* meta.json naming a file of another directory with exactly these bytes */
    char *outside = fu_path(elsewhere, "net_weight_combined");
    fu_write(outside, want, sizeof want);
    char h[OA_FC_HASH_CAP];
    fu_hash(128, 2, h);
    char meta[1024];
    snprintf(meta, sizeof meta, "{\n    \"hash_to_weight_file\": {\n        \"%s\": \"%s\"\n    },\n"
             "    \"hash_to_weight_offset\": {\n        \"%s\": 0\n    }\n}", h, outside, h);
    char *mp = fu_path(dir, "meta.json");
    unlink(mp);
    fu_write(mp, meta, strlen(meta));
    EXPECT_OK(oa_graph_create("main", &g));
    EXPECT_OK(oa_graph_add_net_output(g, "Node_Output", 1, &out));
    fu_weight(g, "w", 128, 2, out, 0);
    EXPECT_OK(oa_fc_convert_consts(g, &o, &st));
    assert_int_equal(st.reused, 0);
    assert_string_equal(oa_node_attr_str(fu_find_fc(g, "w"), "location", ""), comb);
    oa_graph_destroy(g);
    free(mp);
    free(outside);
    free(comb);
    fu_rmtree(elsewhere);
    fu_rmtree(dir);
}

/* A killed build's temporary weight directory (tmp_weight_<dead pid>_<n>, with a partial *.tmp.* file) is removed
 * by the next build using $ASCEND_WORK_PATH; a living process's is kept. */
static void stale_tmp_weight_dirs_removed(void **state)
{
    (void)state;
    char *work = fu_tmpdir();
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) {
        _exit(0);
    }
    assert_int_equal(waitpid(child, NULL, 0), child);
    char name[128];
    snprintf(name, sizeof name, OA_FC_TMP_DIR_PREFIX "%ld_0", (long)child);
    char *dead = fu_path(work, name);
    assert_int_equal(mkdir(dead, 0750), 0);
    snprintf(name, sizeof name, "weight_abc.tmp.%ld.0", (long)child);
    char *partial = fu_path(dead, name);
    fu_write(partial, "xy", 2);
    snprintf(name, sizeof name, OA_FC_TMP_DIR_PREFIX "%ld_0", (long)getppid());
    char *alive = fu_path(work, name);
    assert_int_equal(mkdir(alive, 0750), 0);
    char *unrelated = fu_path(work, OA_FC_TMP_DIR_PREFIX "notapid");
    assert_int_equal(mkdir(unrelated, 0750), 0);

    const char *old = getenv("ASCEND_WORK_PATH");
    char *saved = old != NULL ? strdup(old) : NULL;
    setenv("ASCEND_WORK_PATH", work, 1);
    oa_fc_convert_opts o = opts_in(NULL, OA_FC_MODE_FILES);
    oa_graph *g = three_weights("main");
    EXPECT_OK(oa_fc_convert_consts(g, &o, NULL));
    oa_graph_destroy(g);
    oa_fc_remove_tmp_dir(0);
    if (saved != NULL) {
        setenv("ASCEND_WORK_PATH", saved, 1);
        free(saved);
    } else {
        unsetenv("ASCEND_WORK_PATH");
    }
    assert_false(fu_exists(dead));
    assert_true(fu_exists(alive));
    assert_true(fu_exists(unrelated));
    free(dead);
    free(partial);
    free(alive);
    free(unrelated);
    fu_rmtree(work);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hash_is_rendered_without_zero_padding),
        cmocka_unit_test(mode_values),
        cmocka_unit_test(thread_count_env),
        cmocka_unit_test(weight_dir_rules),
        cmocka_unit_test(mode1_files_nodes_and_meta),
        cmocka_unit_test(mode1_reuse_across_builds),
        cmocka_unit_test(no_consts_touch_nothing),
        cmocka_unit_test(order_is_name_graph_id),
        cmocka_unit_test(mode2_padding_append_and_reuse),
        cmocka_unit_test(mode2_file_names),
        cmocka_unit_test(meta_corrupt_and_edge_cases),
        cmocka_unit_test(meta_round_trip_and_escaping),
        cmocka_unit_test(flock_serialises_processes_mode1),
        cmocka_unit_test(flock_serialises_processes_mode2),
        cmocka_unit_test(kill_while_writing_weight_file),
        cmocka_unit_test(kill_while_writing_meta_mode1),
        cmocka_unit_test(kill_while_appending_combined),
        cmocka_unit_test(kill_while_writing_meta_mode2),
        cmocka_unit_test(change_file_path_moves_temp_weights),
        cmocka_unit_test(file_const_to_const),
        cmocka_unit_test(summary_written_and_shown),
        cmocka_unit_test(reuse_checks_the_bytes_mode1),
        cmocka_unit_test(reuse_checks_the_bytes_mode2),
        cmocka_unit_test(stale_tmp_weight_dirs_removed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
