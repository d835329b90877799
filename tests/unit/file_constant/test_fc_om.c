/*
 * file_constant through the .om: convert a graph's Consts (modes 1 and 2),
 * move the files next to the model, write the .om as atc does (compressed
 * attrs), read it back and place the weights at load: every byte must be the
 * Const's, and FileConstant attrs keep GE's kinds.
 */
#include "fc_test_util.h"

#include <dirent.h>

#include "acl_mdl/model.h"
#include "om_ir/om_ir.h"

/* x[1,n] + w_i for three weights (two equal), each through Add. */
static oa_graph *model(void)
{
    oa_graph *g;
    EXPECT_OK(oa_graph_create("net", &g));
    oa_node *x = tu_data(g, "x", OA_DT_FLOAT, "1,64");
    oa_node *out;
    EXPECT_OK(oa_graph_add_net_output(g, "Node_Output", 3, &out));
    for (int i = 0; i < 3; i++) {
        float v[64];
        fu_fill(v, 64, i == 2 ? 0 : i);
        char name[16];
        snprintf(name, sizeof name, "w%d", i);
        oa_node *c = tu_const(g, name, OA_DT_FLOAT, "1,64", v);
        snprintf(name, sizeof name, "add%d", i);
        oa_node *srcs[2] = {x, c};
        oa_node *a = tu_op(g, OA_OP_ADD, name, 2, 1, srcs);
        EXPECT_OK(oa_node_connect(out, (uint32_t)i, a, 0));
    }
    EXPECT_OK(oa_graph_infer(g));
    return g;
}

static void round_trip(oa_fc_mode mode)
{
    char *tmp = fu_tmpdir();
    char cwd[PATH_MAX];
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(tmp), 0);
    unsetenv("ASCEND_WORK_PATH");
    char *om = fu_path(tmp, "out/net.om");
    oa_graph *g = model();
    oa_fc_convert_opts o;
    memset(&o, 0, sizeof o);
    o.mode = mode;
    o.om_prefix = om;
    EXPECT_OK(oa_fc_convert_consts(g, &o, NULL));
    assert_int_equal(chdir(cwd), 0);
    char *outdir = fu_path(tmp, "out");
    assert_int_equal(mkdir(outdir, 0750), 0);
    EXPECT_OK(oa_fc_move_to_model_dir(g, om));
    oa_om_write_opts wo;
    oa_om_write_opts_init(&wo);
    wo.compress = true;
    wo.framework_type = "Onnx";
    EXPECT_OK(oa_om_write_graph(g, &wo, om));
    EXPECT_OK(oa_fc_summary_write(g, om, mode));
    oa_graph_destroy(g);

    oa_graph *r;
    const oa_om_graph_info *info;
    EXPECT_OK(oa_om_read_graph(om, &r, &info));
    size_t nfc = 0;
    for (oa_node *n = oa_graph_first_node(r); n; n = n->next) {
        assert_int_not_equal(n->type, OA_OP_CONST);
        if (n->type != OA_OP_FILE_CONSTANT) {
            continue;
        }
        nfc++;
        const oa_attr *dt = oa_attrs_find(&n->attrs, "dtype");
        assert_non_null(dt);
        assert_int_equal(dt->type, OA_ATTR_DTYPE);
        assert_int_equal(oa_attrs_find(&n->attrs, "shape")->type, OA_ATTR_LIST_INT);
        assert_int_equal(oa_attrs_find(&n->attrs, "original_shape")->type, OA_ATTR_LIST_INT);
        assert_int_equal(oa_attrs_find(&n->attrs, "offset")->type, OA_ATTR_INT);
        const char *loc = oa_node_attr_str(n, "location", "/");
        assert_null(strchr(loc, '/')); /* bare file name after ChangeFilePath */
    }
    assert_int_equal(nfc, 3);

    oa_fc_load_opts lo;
    memset(&lo, 0, sizeof lo);
    lo.om_path = om;
    oa_fc_set *s;
    EXPECT_OK(oa_fc_load(r, &lo, &s));
    assert_int_equal(oa_fc_set_count(s), 3);
    assert_int_equal(oa_fc_set_is_combined(s), mode == OA_FC_MODE_COMBINED);
    assert_int_equal(oa_fc_mapped_files(-1), mode == OA_FC_MODE_COMBINED ? 1 : 2);
    for (size_t i = 0; i < 3; i++) {
        const oa_fc_weight *w = oa_fc_set_at(s, i);
        assert_int_equal(w->source, OA_FC_SRC_FILE);
        assert_int_equal(w->nbytes, 256);
        /* which weight: the consumer's name */
        oa_use u;
        assert_int_equal(oa_node_output_uses(w->node, 0, &u, 1), 1);
        int idx = u.node->name[3] - '0';
        float want[64];
        fu_fill(want, 64, idx == 2 ? 0 : idx);
        assert_memory_equal(w->data, want, sizeof want);
    }
    /* the same with user memory for every file: nothing read, in place */
    DIR *d = opendir(strcat(strcpy(cwd, tmp), "/out/weight"));
    assert_non_null(d);
    struct dirent *e;
    oa_external_weight ext[4];
    void *bufs[4];
    size_t n = 0;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') {
            continue;
        }
        char p[PATH_MAX + 300];
        snprintf(p, sizeof p, "%s/%s", cwd, e->d_name);
        size_t len = 0;
        char *bytes = fu_read(p, &len);
        size_t cap = (len + 31) / 32 * 32;
        bufs[n] = aligned_alloc(64, (cap + 63) / 64 * 64);
        memcpy(bufs[n], bytes, len);
        free(bytes);
        ext[n].file_name = strdup(e->d_name);
        ext[n].dev_ptr = bufs[n];
        ext[n].size = cap;
        n++;
    }
    closedir(d);
    lo.user_mems = ext;
    lo.n_user_mems = n;
    oa_fc_set *su;
    EXPECT_OK(oa_fc_load(r, &lo, &su));
    for (size_t i = 0; i < 3; i++) {
        const oa_fc_weight *w = oa_fc_set_at(su, i);
        assert_int_equal(w->source, OA_FC_SRC_USER);
        assert_memory_equal(w->data, oa_fc_set_at(s, i)->data, 256);
    }
    oa_fc_set_destroy(su);
    for (size_t i = 0; i < n; i++) {
        free(ext[i].file_name);
        free(bufs[i]);
    }
    oa_fc_set_destroy(s);
    oa_graph_destroy(r);
    assert_int_equal(oa_fc_mapped_files(-1), 0);

    bool found;
    char *text = NULL;
    size_t tl = 0;
    FILE *f = open_memstream(&text, &tl);
    EXPECT_OK(oa_fc_summary_print(om, f, &found));
    fclose(f);
    assert_true(found);
    assert_non_null(strstr(text, " ok"));
    free(text);
    free(outdir);
    free(om);
    fu_rmtree(tmp);
}

static void om_round_trip_mode1(void **state)
{
    (void)state;
    round_trip(OA_FC_MODE_FILES);
}

static void om_round_trip_mode2(void **state)
{
    (void)state;
    round_trip(OA_FC_MODE_COMBINED);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(om_round_trip_mode1),
        cmocka_unit_test(om_round_trip_mode2),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
