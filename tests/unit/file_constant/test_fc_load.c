/*
 * file_constant, load time: GetFilePath and value_bins, the weight
 * directory, path security (traversal, symlinks, short files), user memory
 * (priority, bounds, V1 >= vs RT2 >), combined vs individual, shared
 * reference-counted mappings, FileConstant -> Const in place, copy helper.
 */
#include "fc_test_util.h"

/* A FileConstant "name" of n floats at location/offset in graph g. */
static oa_node *fc_node(oa_graph *g, const char *name, const char *location, int64_t offset, int64_t n)
{
    oa_node *f;
    EXPECT_OK(oa_graph_add_node(g, OA_OP_FILE_CONSTANT, name, 0, 1, &f));
    if (location != NULL) {
        EXPECT_OK(oa_node_set_str(f, "location", location));
        EXPECT_OK(oa_node_set_int(f, "offset", offset));
        EXPECT_OK(oa_node_set_int(f, "length", n * 4));
    }
    EXPECT_OK(oa_node_set_dtype(f, "dtype", OA_DT_FLOAT));
    EXPECT_OK(oa_node_set_list_int(f, "shape", &n, 1));
    EXPECT_OK(oa_node_set_list_int(f, "original_shape", &n, 1));
    oa_shape s = oa_shape_make(1, &n);
    oa_desc_set(oa_node_output_desc(f, 0), OA_DT_FLOAT, &s);
    return f;
}

/* <tmp>/net.om (an empty stand-in) and <tmp>/weight/ holding files w1 (64
 * floats seed 1), w2 (32 floats seed 2) and comb (w1 at 0, w2 at 512). */
typedef struct fixture {
    char *tmp;
    char *om;
    char *wdir;
} fixture;

static fixture make_fixture(void)
{
    fixture f;
    f.tmp = fu_tmpdir();
    f.om = fu_path(f.tmp, "net.om");
    fu_write(f.om, "IMOD", 4);
    f.wdir = fu_path(f.tmp, "weight");
    assert_int_equal(mkdir(f.wdir, 0750), 0);
    float a[64], b[32];
    fu_fill(a, 64, 1);
    fu_fill(b, 32, 2);
    char *p = fu_path(f.wdir, "w1");
    fu_write(p, a, sizeof a);
    free(p);
    p = fu_path(f.wdir, "w2");
    fu_write(p, b, sizeof b);
    free(p);
    char comb[1024] = {0};
    memcpy(comb, a, sizeof a);
    memcpy(comb + 512, b, sizeof b);
    p = fu_path(f.wdir, "comb");
    fu_write(p, comb, 512 + sizeof b);
    free(p);
    return f;
}

static void drop_fixture(fixture *f)
{
    free(f->om);
    free(f->wdir);
    fu_rmtree(f->tmp);
}

static oa_fc_load_opts file_load(const fixture *f)
{
    oa_fc_load_opts o;
    memset(&o, 0, sizeof o);
    o.om_path = f->om;
    o.runtime = OA_FC_RT_V1;
    return o;
}

/* --------------------------------------------------------------- GetFilePath */

static void value_bins_and_priority(void **state)
{
    (void)state;
    oa_fc_value_bins *m;
    EXPECT_OK(oa_fc_value_bins_parse("{\"value_bins\":[{\"value_bin_id\":\"x\",\"value_bin_file\":\"hello.bin\"}]}", &m));
    assert_int_equal(oa_fc_value_bins_count(m), 1);
    assert_string_equal(oa_fc_value_bins_get(m, "x"), "hello.bin");
    assert_null(oa_fc_value_bins_get(m, "y"));
    oa_fc_value_bins_destroy(m);
    EXPECT_FAIL(oa_fc_value_bins_parse("{\"value_bins\":", &m), OA_E_GE_FAILURE, "not valid JSON");
    EXPECT_OK(oa_fc_value_bins_parse(NULL, &m));
    assert_int_equal(oa_fc_value_bins_count(m), 0);
    oa_fc_value_bins_destroy(m);
    /* every top-level member is read; the first occurrence of an id wins */
    EXPECT_OK(oa_fc_value_bins_parse("{\"a\":[{\"value_bin_id\":\"i\",\"value_bin_file\":\"/1\"}],"
                                     "\"b\":[{\"value_bin_id\":\"i\",\"value_bin_file\":\"/2\"},"
                                     "{\"value_bin_id\":\"e\",\"value_bin_file\":\"\"}]}", &m));
    assert_int_equal(oa_fc_value_bins_count(m), 2);
    assert_string_equal(oa_fc_value_bins_get(m, "i"), "/1");

    oa_graph *g;
    EXPECT_OK(oa_graph_create("g", &g));
    oa_node *n = fc_node(g, "f", NULL, 0, 4);
    oa_fc_ref r;
    EXPECT_FAIL(oa_fc_get_file_path(n, m, &r), OA_E_GE_FAILURE, "none of the attrs");
    EXPECT_OK(oa_node_set_str(n, "file_id", ""));
    EXPECT_FAIL(oa_fc_get_file_path(n, m, &r), OA_E_GE_FAILURE, "empty");
    EXPECT_OK(oa_node_set_str(n, "file_id", "unknown"));
    EXPECT_OK(oa_fc_get_file_path(n, m, &r)); /* unknown id: success, empty path */
    assert_int_equal(r.src, OA_FC_PATH_NONE);
    assert_string_equal(r.path, "");
    EXPECT_OK(oa_node_set_str(n, "file_id", "e"));
    EXPECT_FAIL(oa_fc_get_file_path(n, m, &r), OA_E_GE_FAILURE, "empty path");
    EXPECT_OK(oa_node_set_str(n, "file_id", "i"));
    EXPECT_OK(oa_fc_get_file_path(n, m, &r));
    assert_int_equal(r.src, OA_FC_PATH_FILE_ID);
    assert_string_equal(r.path, "/1");
    EXPECT_OK(oa_node_set_str(n, "file_path", "/fp"));
    EXPECT_OK(oa_fc_get_file_path(n, m, &r));
    assert_int_equal(r.src, OA_FC_PATH_FILE_PATH);
    assert_string_equal(r.path, "/fp");
    EXPECT_OK(oa_node_set_str(n, "location", "/loc"));
    EXPECT_OK(oa_node_set_int(n, "offset", 512));
    EXPECT_OK(oa_node_set_int(n, "length", 16));
    EXPECT_OK(oa_fc_get_file_path(n, m, &r));
    assert_int_equal(r.src, OA_FC_PATH_LOCATION);
    assert_string_equal(r.path, "/loc");
    assert_int_equal(r.offset, 512);
    assert_int_equal(r.length, 16);
    oa_fc_value_bins_destroy(m);
    oa_graph_destroy(g);
}

/* ------------------------------------------------------------- weight dir */

static void weight_dir_resolution(void **state)
{
    (void)state;
    fixture f = make_fixture();
    oa_graph *g;
    EXPECT_OK(oa_graph_create("g", &g));
    fc_node(g, "f", "/somewhere/else/w1", 0, 64); /* V1 keeps the basename only */
    oa_fc_load_opts o = file_load(&f);
    oa_fc_set *s;
    EXPECT_OK(oa_fc_load(g, &o, &s));
    char want[PATH_MAX];
    snprintf(want, sizeof want, "%s/", f.wdir);
    assert_string_equal(oa_fc_set_weight_dir(s), want);
    const oa_fc_weight *w = oa_fc_set_at(s, 0);
    snprintf(want, sizeof want, "%s/w1", f.wdir);
    assert_string_equal(w->path, want);
    assert_string_equal(w->file_name, "w1");
    assert_int_equal(w->source, OA_FC_SRC_FILE);
    float a[64];
    fu_fill(a, 64, 1);
    assert_memory_equal(w->data, a, sizeof a);
    oa_fc_set_destroy(s);

    /* ACL_MDL_WEIGHT_PATH_PTR wins over the om directory */
    char *other = fu_path(f.tmp, "other");
    assert_int_equal(mkdir(other, 0750), 0);
    char *p = fu_path(other, "w1");
    float z[64] = {0};
    fu_write(p, z, sizeof z);
    o.weight_path = other;
    o.om_path = NULL; /* a memory load */
    EXPECT_OK(oa_fc_load(g, &o, &s));
    assert_memory_equal(oa_fc_set_at(s, 0)->data, z, sizeof z);
    oa_fc_set_destroy(s);

    /* a weight path that does not exist */
    o.weight_path = "/nonexistent/weights";
    EXPECT_FAIL(oa_fc_load(g, &o, &s), OA_E_GE_FAILURE, "not an existing directory");
    /* a weight path that is a file */
    o.weight_path = p;
    EXPECT_FAIL(oa_fc_load(g, &o, &s), OA_E_GE_FAILURE, "not an existing directory");

    /* a weight path for a model without FileConstant */
    oa_graph *plain;
    EXPECT_OK(oa_graph_create("plain", &plain));
    o.weight_path = other;
    EXPECT_FAIL(oa_fc_load(plain, &o, &s), OA_E_GE_FAILURE, "should be empty if model has no external weight");
    o.weight_path = NULL;
    o.om_path = f.om;
    EXPECT_OK(oa_fc_load(plain, &o, &s));
    assert_null(s);
    oa_graph_destroy(plain);

    /* memory load without a weight path (hardening, docs/external_weights.md): an absolute location is
     * refused before anything is opened, a relative one is used under the current directory */
    o.om_path = NULL;
    EXPECT_OK(oa_node_set_str(oa_graph_find_node(g, "f"), "location", p));
    EXPECT_FAIL(oa_fc_load(g, &o, &s), OA_E_GE_FAILURE, "without a weight directory");
    EXPECT_OK(oa_node_set_str(oa_graph_find_node(g, "f"), "location", "../other/w1"));
    EXPECT_FAIL(oa_fc_load(g, &o, &s), OA_E_GE_FAILURE, "leaves the current directory");
    char cwd[4096];
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(other), 0);
    EXPECT_OK(oa_node_set_str(oa_graph_find_node(g, "f"), "location", "w1"));
    EXPECT_OK(oa_fc_load(g, &o, &s));
    assert_string_equal(oa_fc_set_at(s, 0)->path, "w1");
    assert_string_equal(oa_fc_set_weight_dir(s), "");
    assert_memory_equal(oa_fc_set_at(s, 0)->data, z, sizeof z);
    oa_fc_set_destroy(s);
    /* ... a symlink there leaving the current directory is refused */
    assert_int_equal(symlink(f.om, "link"), 0);
    EXPECT_OK(oa_node_set_str(oa_graph_find_node(g, "f"), "location", "link"));
    EXPECT_FAIL(oa_fc_load(g, &o, &s), OA_E_GE_FAILURE, "outside the weight directory");
    /* ... and a missing file there is refused */
    EXPECT_OK(oa_node_set_str(oa_graph_find_node(g, "f"), "location", "absent_w1"));
    EXPECT_FAIL(oa_fc_load(g, &o, &s), OA_E_GE_FAILURE, "does not exist");
    assert_int_equal(chdir(cwd), 0);
    free(p);
    free(other);
    oa_graph_destroy(g);
    drop_fixture(&f);
}

/* --------------------------------------------------------------- security */

static void traversal_symlinks_and_short_files(void **state)
{
    (void)state;
    fixture f = make_fixture();
    char *secret = fu_path(f.tmp, "secret");
    float big[256] = {0};
    fu_write(secret, big, sizeof big);
    oa_fc_set *s = NULL;
    oa_graph *g;
    EXPECT_OK(oa_graph_create("g", &g));
    oa_node *n = fc_node(g, "f", "../secret", 0, 64);
    oa_fc_load_opts o = file_load(&f);

    EXPECT_FAIL(oa_fc_load(g, &o, &s), OA_E_GE_FAILURE, "'..'");
    EXPECT_OK(oa_node_set_str(n, "location", "a/../../secret"));
    EXPECT_FAIL(oa_fc_load(g, &o, &s), OA_E_GE_FAILURE, "'..'");
    EXPECT_OK(oa_node_set_str(n, "location", ".."));
    EXPECT_FAIL(oa_fc_load(g, &o, &s), OA_E_GE_FAILURE, "'..'");
    EXPECT_OK(oa_node_set_str(n, "location", "/abs/dir/"));
    EXPECT_FAIL(oa_fc_load(g, &o, &s), OA_E_GE_FAILURE, "names no file");
    /* RT2 concatenates: a '/' is refused */
    o.runtime = OA_FC_RT_V2;
    EXPECT_OK(oa_node_set_str(n, "location", "sub/w1"));
    EXPECT_FAIL(oa_fc_load(g, &o, &s), OA_E_GE_FAILURE, "contains '/'");
    EXPECT_OK(oa_node_set_str(n, "location", "/abs/w1"));
    EXPECT_FAIL(oa_fc_load(g, &o, &s), OA_E_GE_FAILURE, "contains '/'");
    EXPECT_OK(oa_node_set_str(n, "location", "w1"));
    EXPECT_OK(oa_fc_load(g, &o, &s));
    oa_fc_set_destroy(s);
    /* RT2 with a weight dir but only file_path: OfflineLocationFailed */
    EXPECT_OK(oa_node_set_str(n, "location", ""));
    EXPECT_OK(oa_node_set_str(n, "file_path", secret));
    EXPECT_FAIL(oa_fc_load(g, &o, &s), OA_E_GE_FAILURE, "has no location");
    /* V1 (CANN: file_path verbatim) confines file_path like a location: its name in the weight directory */
    o.runtime = OA_FC_RT_V1;
    EXPECT_FAIL(oa_fc_load(g, &o, &s), OA_E_GE_FAILURE, "does not exist");
    char *wsecret = fu_path(f.wdir, "secret");
    EXPECT_FAIL(oa_fc_load(g, &o, &s), OA_E_GE_FAILURE, wsecret);
    free(wsecret);
    EXPECT_OK(oa_node_set_str(n, "file_path", "../weight/w1"));
    EXPECT_FAIL(oa_fc_load(g, &o, &s), OA_E_GE_FAILURE, "'..'");
    EXPECT_OK(oa_node_set_str(n, "file_path", "/elsewhere/w1"));
    EXPECT_OK(oa_fc_load(g, &o, &s));
    assert_string_equal(oa_fc_set_at(s, 0)->file_name, "w1");
    oa_fc_set_destroy(s);

    /* a symlink leaving the weight directory */
    char *link = fu_path(f.wdir, "evil");
    assert_int_equal(symlink(secret, link), 0);
    EXPECT_OK(oa_node_set_str(n, "location", "evil"));
    EXPECT_FAIL(oa_fc_load(g, &o, &s), OA_E_GE_FAILURE, "outside the weight directory");
    /* a symlink staying inside is fine */
    char *good = fu_path(f.wdir, "alias");
    assert_int_equal(symlink("w1", good), 0);
    EXPECT_OK(oa_node_set_str(n, "location", "alias"));
    EXPECT_OK(oa_fc_load(g, &o, &s));
    oa_fc_set_destroy(s);
    /* a directory, a missing file */
    char *sub = fu_path(f.wdir, "adir");
    assert_int_equal(mkdir(sub, 0750), 0);
    EXPECT_OK(oa_node_set_str(n, "location", "adir"));
    EXPECT_FAIL(oa_fc_load(g, &o, &s), OA_E_GE_FAILURE, "adir");
    EXPECT_OK(oa_node_set_str(n, "location", "missing"));
    EXPECT_FAIL(oa_fc_load(g, &o, &s), OA_E_GE_FAILURE, "does not exist");

    /* short files: w2 has 128 bytes */
    EXPECT_OK(oa_node_set_str(n, "location", "w2"));
    EXPECT_FAIL(oa_fc_load(g, &o, &s), OA_E_GE_FAILURE, "has 128 bytes"); /* needs 256 */
    oa_node *m = fc_node(g, "g2", "w2", 96, 8);                             /* 96 + 32 = 128: fits exactly */
    EXPECT_OK(oa_node_set_list_int(n, "shape", (int64_t[]){8}, 1));
    EXPECT_OK(oa_node_set_int(n, "length", 32));
    EXPECT_OK(oa_fc_load(g, &o, &s));
    oa_fc_set_destroy(s);
    EXPECT_OK(oa_node_set_int(m, "offset", 100)); /* 4 bytes past the end */
    EXPECT_FAIL(oa_fc_load(g, &o, &s), OA_E_GE_FAILURE, "needs 32 bytes at offset 100");
    EXPECT_OK(oa_node_set_int(m, "offset", 4096)); /* offset past the end */
    EXPECT_FAIL(oa_fc_load(g, &o, &s), OA_E_GE_FAILURE, "at offset 4096");
    EXPECT_OK(oa_node_set_int(m, "offset", 0));
    EXPECT_OK(oa_node_set_int(m, "length", 4096)); /* a length larger than the tensor is checked too */
    EXPECT_FAIL(oa_fc_load(g, &o, &s), OA_E_GE_FAILURE, "needs 4096 bytes");
    EXPECT_OK(oa_node_set_int(m, "offset", -8));
    EXPECT_FAIL(oa_fc_load(g, &o, &s), OA_E_GE_FAILURE, "negative");
    assert_int_equal(oa_fc_mapped_files(-1), 0); /* failed loads keep nothing mapped */
    free(sub);
    free(good);
    free(link);
    free(secret);
    oa_graph_destroy(g);
    drop_fixture(&f);
}

/* ------------------------------------------------------------- user memory */

static void user_memory_rules(void **state)
{
    (void)state;
    fixture f = make_fixture();
    oa_graph *g;
    EXPECT_OK(oa_graph_create("g", &g));
    oa_node *n = fc_node(g, "f", "gone", 64, 16); /* the file does not exist */
    oa_fc_load_opts o = file_load(&f);
    oa_fc_set *s;
    EXPECT_FAIL(oa_fc_load(g, &o, &s), OA_E_GE_FAILURE, "does not exist");

    _Alignas(64) char mem[128];
    memset(mem, 7, sizeof mem);
    oa_external_weight ext[2] = {{"other", mem, 32}, {"gone", mem, 128}};
    o.user_mems = ext;
    o.n_user_mems = 2;
    EXPECT_OK(oa_fc_load(g, &o, &s));
    const oa_fc_weight *w = oa_fc_set_at(s, 0);
    assert_int_equal(w->source, OA_FC_SRC_USER);
    assert_ptr_equal(w->data, mem + 64); /* in place at the node offset: never copied */
    assert_true(oa_fc_set_holds(s, mem, 128));
    assert_false(oa_fc_set_holds(s, mem, 129));
    assert_int_equal(oa_fc_mapped_files(-1), 0);
    oa_fc_set_destroy(s);
    assert_int_equal(mem[0], 7); /* untouched, and not freed (it is on the stack) */

    /* the later registration of a name wins */
    oa_external_weight twice[2] = {{"gone", mem, 32}, {"gone", mem, 128}};
    o.user_mems = twice;
    EXPECT_OK(oa_fc_load(g, &o, &s));
    oa_fc_set_destroy(s);
    o.user_mems = ext;

    /* too small: size - offset < bytes (63 bytes for 64) */
    ext[1].size = 127;
    EXPECT_FAIL(oa_fc_load(g, &o, &s), OA_E_GE_PARAM, "insufficient");
    /* offset == size: V1 accepts it for an empty tensor, RT2 (strict >) refuses */
    ext[1].size = 64;
    EXPECT_OK(oa_node_set_list_int(n, "shape", (int64_t[]){0}, 1));
    EXPECT_OK(oa_node_set_int(n, "length", 0));
    EXPECT_OK(oa_fc_load(g, &o, &s));
    oa_fc_set_destroy(s);
    o.runtime = OA_FC_RT_V2;
    EXPECT_FAIL(oa_fc_load(g, &o, &s), OA_E_GE_PARAM, "insufficient");
    o.runtime = OA_FC_RT_V1;
    /* offset beyond the memory */
    EXPECT_OK(oa_node_set_int(n, "offset", 96));
    EXPECT_FAIL(oa_fc_load(g, &o, &s), OA_E_GE_PARAM, "insufficient");
    /* user memory has priority over ACL_MDL_WEIGHT_PATH_PTR and existing files */
    EXPECT_OK(oa_node_set_int(n, "offset", 0));
    EXPECT_OK(oa_node_set_list_int(n, "shape", (int64_t[]){16}, 1));
    EXPECT_OK(oa_node_set_int(n, "length", 64));
    EXPECT_OK(oa_node_set_str(n, "location", "w1"));
    ext[1].file_name = "w1";
    o.weight_path = f.wdir;
    EXPECT_OK(oa_fc_load(g, &o, &s));
    assert_ptr_equal(oa_fc_set_at(s, 0)->data, mem);
    oa_fc_set_destroy(s);
    /* a null pointer registered (cannot come through the API) */
    ext[1].dev_ptr = NULL;
    EXPECT_FAIL(oa_fc_load(g, &o, &s), OA_E_GE_PARAM, "null pointer");
    oa_graph_destroy(g);
    drop_fixture(&f);
}

/* --------------------------------------------------- combined vs individual */

static void combined_and_individual(void **state)
{
    (void)state;
    fixture f = make_fixture();
    oa_fc_load_opts o = file_load(&f);
    oa_fc_set *s;
    oa_graph *g;
    /* one node: combined */
    EXPECT_OK(oa_graph_create("g", &g));
    fc_node(g, "a", "comb", 0, 64);
    EXPECT_OK(oa_fc_load(g, &o, &s));
    assert_true(oa_fc_set_is_combined(s));
    oa_fc_set_destroy(s);
    /* same path string everywhere (two offsets, plus a subgraph): combined, one mapping */
    fc_node(g, "b", "comb", 512, 32);
    oa_node *pc;
    EXPECT_OK(oa_graph_add_node(g, OA_OP_PARTITIONED_CALL, "call", 0, 1, &pc));
    oa_graph *sub;
    EXPECT_OK(oa_graph_create_subgraph(pc, "f", "sub", &sub));
    fc_node(sub, "c", "/elsewhere/comb", 512, 32); /* V1: basename -> same path string */
    EXPECT_OK(oa_fc_load(g, &o, &s));
    assert_true(oa_fc_set_is_combined(s));
    assert_int_equal(oa_fc_set_count(s), 3);
    assert_int_equal(oa_fc_mapped_files(-1), 1);
    const oa_fc_weight *a = oa_fc_set_at(s, 0), *b = oa_fc_set_at(s, 1), *c = oa_fc_set_at(s, 2);
    assert_ptr_equal((const char *)b->data, (const char *)a->data + 512); /* base + offset */
    assert_ptr_equal(c->data, b->data);
    float want[32];
    fu_fill(want, 32, 2);
    assert_memory_equal(b->data, want, sizeof want);
    assert_ptr_equal(oa_fc_set_find(s, oa_graph_find_node(sub, "c")), c);
    oa_fc_set_destroy(s);
    assert_int_equal(oa_fc_mapped_files(-1), 0);
    /* one different path: individual */
    fc_node(g, "d", "w2", 0, 32);
    EXPECT_OK(oa_fc_load(g, &o, &s));
    assert_false(oa_fc_set_is_combined(s));
    assert_int_equal(oa_fc_mapped_files(-1), 2);
    oa_fc_set_destroy(s);
    /* the decision is by path string: the same file through an alias is "individual" */
    oa_graph *h;
    EXPECT_OK(oa_graph_create("h", &h));
    char *alias = fu_path(f.wdir, "alias");
    assert_int_equal(symlink("comb", alias), 0);
    fc_node(h, "x", "comb", 0, 64);
    fc_node(h, "y", "alias", 512, 32);
    EXPECT_OK(oa_fc_load(h, &o, &s));
    assert_false(oa_fc_set_is_combined(s));
    assert_int_equal(oa_fc_mapped_files(-1), 1); /* ... yet mapped once */
    oa_fc_set_destroy(s);
    free(alias);
    oa_graph_destroy(h);
    oa_graph_destroy(g);
    drop_fixture(&f);
}

/* ---------------------------------------------------------- shared mappings */

static void mappings_are_shared_and_refcounted(void **state)
{
    (void)state;
    fixture f = make_fixture();
    oa_fc_load_opts o = file_load(&f);
    oa_graph *g1, *g2;
    EXPECT_OK(oa_graph_create("m1", &g1));
    EXPECT_OK(oa_graph_create("m2", &g2));
    fc_node(g1, "a", "w1", 0, 64);
    fc_node(g2, "b", "w1", 0, 64);
    fc_node(g2, "c", "w2", 0, 32);
    oa_fc_set *s1, *s2, *s3;
    EXPECT_OK(oa_fc_load(g1, &o, &s1));
    EXPECT_OK(oa_fc_load(g2, &o, &s2));
    assert_int_equal(oa_fc_mapped_files(0), 2);
    assert_ptr_equal(oa_fc_set_at(s1, 0)->data, oa_fc_set_at(s2, 0)->data); /* one mapping of w1 */
    /* another device gets its own */
    o.device_id = 1;
    EXPECT_OK(oa_fc_load(g1, &o, &s3));
    assert_int_equal(oa_fc_mapped_files(1), 1);
    assert_int_equal(oa_fc_mapped_files(-1), 3);
    oa_fc_set_destroy(s3);
    assert_int_equal(oa_fc_mapped_files(1), 0);
    oa_fc_set_destroy(s1);
    assert_int_equal(oa_fc_mapped_files(0), 2); /* w1 still used by the second model */
    oa_fc_set_destroy(s2);
    assert_int_equal(oa_fc_mapped_files(-1), 0);

    /* a file replaced on disk (new inode) is mapped anew, the old mapping stays valid */
    o.device_id = 0;
    EXPECT_OK(oa_fc_load(g1, &o, &s1));
    const float *old = oa_fc_set_at(s1, 0)->data;
    char *p = fu_path(f.wdir, "w1");
    char *p2 = fu_path(f.wdir, "w1.new");
    float z[64] = {0};
    fu_write(p2, z, sizeof z);
    assert_int_equal(rename(p2, p), 0);
    EXPECT_OK(oa_fc_load(g1, &o, &s2));
    assert_int_equal(oa_fc_mapped_files(0), 2);
    assert_memory_equal(oa_fc_set_at(s2, 0)->data, z, sizeof z);
    float want[64];
    fu_fill(want, 64, 1);
    assert_memory_equal(old, want, sizeof want);
    oa_fc_set_destroy(s1);
    oa_fc_set_destroy(s2);
    free(p);
    free(p2);
    oa_graph_destroy(g1);
    oa_graph_destroy(g2);
    drop_fixture(&f);
}

static void to_consts_borrows_in_place(void **state)
{
    (void)state;
    fixture f = make_fixture();
    oa_fc_load_opts o = file_load(&f);
    oa_graph *g;
    EXPECT_OK(oa_graph_create("g", &g));
    oa_node *a = fc_node(g, "a", "comb", 512, 32);
    oa_node *r = tu_op1(g, OA_OP_RELU, "r", 1, a);
    oa_node *out;
    EXPECT_OK(oa_graph_add_net_output(g, "Node_Output", 1, &out));
    EXPECT_OK(oa_node_connect(out, 0, r, 0));
    EXPECT_OK(oa_node_add_control_input(r, a));
    oa_fc_set *s;
    EXPECT_OK(oa_fc_load(g, &o, &s));
    const void *where = oa_fc_set_at(s, 0)->data;
    EXPECT_OK(oa_fc_set_to_consts(s, g));
    oa_node *c = oa_graph_find_node(g, "a");
    assert_int_equal(c->type, OA_OP_CONST);
    assert_ptr_equal(oa_fc_set_find(s, c), oa_fc_set_at(s, 0));
    const oa_tensor *t;
    assert_true(oa_attrs_get_tensor(&c->attrs, "value", &t));
    assert_ptr_equal(t->data, where); /* zero copy */
    assert_true(oa_fc_set_holds(s, t->data, t->size));
    assert_true(oa_fc_set_holds(s, (const char *)t->data - 512, 512 + 128)); /* the whole file is mapped */
    assert_false(oa_fc_set_holds(s, t->data, 4096));
    float other[4];
    assert_false(oa_fc_set_holds(s, other, sizeof other));
    assert_false(oa_fc_set_holds(NULL, other, 1));
    assert_ptr_equal(r->inputs[0].src, c);
    assert_int_equal(r->num_ctrl_inputs, 1);
    assert_ptr_equal(r->ctrl_inputs[0], c);
    assert_null(oa_attrs_find(&c->attrs, "location"));
    EXPECT_OK(oa_graph_validate(g));
    /* the graph keeps the mapping alive after the set is gone */
    oa_fc_set_destroy(s);
    assert_int_equal(oa_fc_mapped_files(-1), 0);
    float want[32];
    fu_fill(want, 32, 2);
    assert_memory_equal(t->data, want, sizeof want);
    oa_graph_destroy(g);
    drop_fixture(&f);
}

static void misaligned_offsets_get_a_private_copy(void **state)
{
    (void)state;
    fixture f = make_fixture();
    float vals[9] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
    char *p = fu_path(f.wdir, "odd");
    char buf[64];
    memcpy(buf + 2, vals, sizeof vals);
    fu_write(p, buf, 2 + sizeof vals);
    oa_graph *g;
    EXPECT_OK(oa_graph_create("g", &g));
    fc_node(g, "a", "odd", 2, 9);
    oa_fc_load_opts o = file_load(&f);
    oa_fc_set *s;
    EXPECT_OK(oa_fc_load(g, &o, &s));
    const oa_fc_weight *w = oa_fc_set_at(s, 0);
    assert_int_equal(w->source, OA_FC_SRC_COPY);
    assert_int_equal((uintptr_t)w->data % 64, 0);
    assert_memory_equal(w->data, vals, sizeof vals);
    oa_fc_set_destroy(s);
    /* with min_align 1 the mapping is used as it is */
    o.min_align = 1;
    EXPECT_OK(oa_fc_load(g, &o, &s));
    assert_int_equal(oa_fc_set_at(s, 0)->source, OA_FC_SRC_FILE);
    oa_fc_set_destroy(s);
    free(p);
    oa_graph_destroy(g);
    drop_fixture(&f);
}

static void value_bins_at_load(void **state)
{
    (void)state;
    fixture f = make_fixture();
    char *p = fu_path(f.wdir, "w2");
    char json[PATH_MAX + 128];
    snprintf(json, sizeof json, "{\"value_bins\":[{\"value_bin_id\":\"k\",\"value_bin_file\":\"%s\"}]}", p);
    oa_graph *g;
    EXPECT_OK(oa_graph_create("g", &g));
    oa_node *n = fc_node(g, "a", NULL, 0, 32);
    EXPECT_OK(oa_node_set_str(n, "file_id", "k"));
    oa_fc_load_opts o;
    memset(&o, 0, sizeof o);
    o.value_bins = json;
    oa_fc_set *s;
    EXPECT_OK(oa_fc_load(g, &o, &s));
    assert_string_equal(oa_fc_set_at(s, 0)->path, p);
    oa_fc_set_destroy(s);
    EXPECT_OK(oa_node_set_str(n, "file_id", "unknown"));
    EXPECT_FAIL(oa_fc_load(g, &o, &s), OA_E_GE_FAILURE, "not in ge.exec.value_bins");
    o.value_bins = "{";
    EXPECT_FAIL(oa_fc_load(g, &o, &s), OA_E_GE_FAILURE, "not valid JSON");
    free(p);
    oa_graph_destroy(g);
    drop_fixture(&f);
}

static void opts_init(void **state)
{
    (void)state;
    oa_external_weight ext = {"x", (void *)&ext, 32};
    oa_fc_load_opts o;
    oa_fc_load_opts_init(&o, "/m.om", "/w", &ext, 1, 3, OA_FC_RT_V2);
    assert_string_equal(o.om_path, "/m.om");
    assert_string_equal(o.weight_path, "/w");
    assert_ptr_equal(o.user_mems, &ext);
    assert_int_equal(o.n_user_mems, 1);
    assert_int_equal(o.device_id, 3);
    assert_int_equal(o.runtime, OA_FC_RT_V2);
    assert_int_equal(o.prefault, OA_FC_PREFAULT_ASYNC);
}

static long rss_file_kb(void)
{
    char text[8192];
    FILE *f = fopen("/proc/self/status", "r");
    assert_non_null(f);
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    const char *p = strstr(text, "RssFile:");
    assert_non_null(p);
    return strtol(p + 8, NULL, 10);
}

static void prefault_modes(void **state)
{
    (void)state;
    fixture f = make_fixture();
    size_t n = 8u << 20; /* 8 MiB of floats */
    float *big = malloc(n);
    fu_fill(big, n / 4, 5);
    char *p = fu_path(f.wdir, "big");
    fu_write(p, big, n);
    oa_graph *g;
    EXPECT_OK(oa_graph_create("g", &g));
    fc_node(g, "a", "big", 0, (int64_t)(n / 4));
    oa_fc_load_opts o = file_load(&f);
    oa_fc_set *s;
    /* none: nothing mapped until read */
    o.prefault = OA_FC_PREFAULT_NONE;
    long before = rss_file_kb();
    EXPECT_OK(oa_fc_load(g, &o, &s));
    assert_true(rss_file_kb() - before < 1024);
    oa_fc_set_destroy(s);
    /* sync: every page of the weight mapped when the load returns */
    o.prefault = OA_FC_PREFAULT_SYNC;
    before = rss_file_kb();
    EXPECT_OK(oa_fc_load(g, &o, &s));
    assert_true(rss_file_kb() - before >= (long)(n / 1024) - 64);
    assert_memory_equal(oa_fc_set_at(s, 0)->data, big, n);
    /* an executor that packed everything drops the pages; reads still work */
    before = rss_file_kb();
    oa_fc_set_drop_pages(s);
    assert_true(before - rss_file_kb() >= (long)(n / 1024) - 64);
    assert_memory_equal(oa_fc_set_at(s, 0)->data, big, n);
    oa_fc_set_destroy(s);
    /* async: destroying right away stops and joins the thread */
    o.prefault = OA_FC_PREFAULT_ASYNC;
    for (int i = 0; i < 20; i++) {
        EXPECT_OK(oa_fc_load(g, &o, &s));
        oa_fc_set_destroy(s);
    }
    EXPECT_OK(oa_fc_load(g, &o, &s));
    assert_memory_equal(oa_fc_set_at(s, 0)->data, big, n);
    oa_fc_set_drop_pages(s); /* joins a running prefault first */
    oa_fc_set_drop_pages(NULL);
    oa_fc_set_destroy(s);
    /* an executor that packs one weight and reads the other in place */
    oa_graph *g2;
    EXPECT_OK(oa_graph_create("g2", &g2));
    fc_node(g2, "packed", "big", 0, (int64_t)(n / 8));
    fc_node(g2, "inplace", "big", (int64_t)(n / 2), (int64_t)(n / 8));
    o.prefault = OA_FC_PREFAULT_NONE;
    before = rss_file_kb();
    EXPECT_OK(oa_fc_load(g2, &o, &s));
    const oa_fc_weight *wp = oa_fc_set_at(s, 0), *wi = oa_fc_set_at(s, 1);
    assert_memory_equal(wp->data, big, n / 2); /* the "packing" reads */
    oa_fc_set_mark_in_place(s, (const char *)wi->data + 100, 1);
    oa_fc_set_mark_in_place(NULL, wi->data, 1);
    assert_true(wi->in_place);
    assert_false(wp->in_place);
    oa_fc_set_settle(s, OA_FC_PREFAULT_SYNC);
    long delta = rss_file_kb() - before;
    assert_true(delta >= (long)(n / 2048) - 64 && delta <= (long)(n / 2048) + 256); /* only the in-place half */
    assert_memory_equal(wi->data, big + n / 8, n / 2);
    oa_fc_set_settle(s, OA_FC_PREFAULT_ASYNC);
    oa_fc_set_settle(NULL, OA_FC_PREFAULT_ASYNC);
    oa_fc_set_destroy(s);
    oa_graph_destroy(g2);
    /* the environment */
    setenv("OPENACL_WEIGHT_PREFAULT", "sync", 1);
    assert_int_equal(oa_fc_prefault_from_env(OA_FC_PREFAULT_ASYNC), OA_FC_PREFAULT_SYNC);
    setenv("OPENACL_WEIGHT_PREFAULT", "none", 1);
    assert_int_equal(oa_fc_prefault_from_env(OA_FC_PREFAULT_ASYNC), OA_FC_PREFAULT_NONE);
    setenv("OPENACL_WEIGHT_PREFAULT", "bogus", 1);
    assert_int_equal(oa_fc_prefault_from_env(OA_FC_PREFAULT_ASYNC), OA_FC_PREFAULT_ASYNC);
    unsetenv("OPENACL_WEIGHT_PREFAULT");
    assert_int_equal(oa_fc_prefault_from_env(OA_FC_PREFAULT_NONE), OA_FC_PREFAULT_NONE);
    free(p);
    free(big);
    oa_graph_destroy(g);
    drop_fixture(&f);
}

static void chunked_copy(void **state)
{
    (void)state;
    char *tmp = fu_tmpdir();
    char *p = fu_path(tmp, "big");
    size_t n = OA_FC_COPY_CHUNK * 2 + 12345;
    unsigned char *data = malloc(n);
    for (size_t i = 0; i < n; i++) {
        data[i] = (unsigned char)(i * 31 + 7);
    }
    fu_write(p, data, n);
    unsigned char *dst = malloc(n);
    EXPECT_OK(oa_fc_copy_from_file(dst, n, p, 0, n));
    assert_memory_equal(dst, data, n);
    EXPECT_OK(oa_fc_copy_from_file(dst, n, p, 100, n - 100));
    assert_memory_equal(dst, data + 100, n - 100);
    EXPECT_FAIL(oa_fc_copy_from_file(dst, n, p, 101, n - 100), OA_E_GE_FAILURE, "end of file");
    EXPECT_FAIL(oa_fc_copy_from_file(dst, 10, p, 0, 11), OA_E_GE_PARAM, "does not fit");
    EXPECT_FAIL(oa_fc_copy_from_file(dst, n, "/nonexistent", 0, 1), OA_E_GE_FAILURE, "open weight file");
    free(dst);
    free(data);
    free(p);
    fu_rmtree(tmp);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(value_bins_and_priority),
        cmocka_unit_test(weight_dir_resolution),
        cmocka_unit_test(traversal_symlinks_and_short_files),
        cmocka_unit_test(user_memory_rules),
        cmocka_unit_test(combined_and_individual),
        cmocka_unit_test(mappings_are_shared_and_refcounted),
        cmocka_unit_test(to_consts_borrows_in_place),
        cmocka_unit_test(misaligned_offsets_get_a_private_copy),
        cmocka_unit_test(value_bins_at_load),
        cmocka_unit_test(opts_init),
        cmocka_unit_test(prefault_modes),
        cmocka_unit_test(chunked_copy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
