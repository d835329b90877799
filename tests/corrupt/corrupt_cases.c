/*
 * One handcrafted bad .om per failure class of src/om/om_format.h section 6.
 *
 * Each case below generates its file from the valid reference model of
 * tests/unit/om/om_testmodel.h and changes exactly one thing. The program
 * writes every file to the directory given on the command line (they double
 * as fuzz seeds and can be opened by hand), then opens each one with the
 * reader (and, for container-level classes, the size query) and checks the
 * documented code and a message fragment. Run under ASan+UBSan by the
 * sanitizer build.
 *
 * usage: test_om_corrupt <output dir>
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "om/om_compress.h"
#include "om/om_model.h"
#include "om/om_query.h"
#include "om_testmodel.h"

/* ---- byte-level helpers on the reference static image ------------------------ */

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; ++i) {
        p[i] = (uint8_t)(v >> (8 * i));
    }
}

static uint64_t get64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) {
        v |= (uint64_t)p[i] << (8 * i);
    }
    return v;
}

static void put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; ++i) {
        p[i] = (uint8_t)(v >> (8 * i));
    }
}

/* Entry i of the first table: +0 type, +8 mem_offset, +16 mem_size. */
static uint8_t *entry(uint8_t *img, int i)
{
    return img + 256 + 8 + 24 * i;
}

/* TM_STATIC layout: 0 MODEL_INOUT_INFO, 1 MODEL_DEF, 2 WEIGHTS_DATA, 3 TASK_INFO. */
static int ref_static(uint8_t **img, size_t *len)
{
    return tm_build_image(TM_STATIC, img, len);
}

static int grow(uint8_t **img, size_t *len, size_t extra)
{
    uint8_t *n = realloc(*img, *len + extra);
    if (n == NULL) {
        return -1;
    }
    memset(n + *len, 0, extra);
    *img = n;
    *len += extra;
    return 0;
}

/* ---- model-level helper: edit the reference model, wrap it --------------------- */

typedef void (*edit_fn)(oa_om_arena *a, Ge__Proto__ModelDef *m);

static int from_edit(edit_fn edit, uint8_t **img, size_t *len)
{
    oa_om_arena *a = NULL;
    if (oa_om_arena_create(&a) != OA_OK) {
        return -1;
    }
    const uint8_t *w;
    size_t wl;
    Ge__Proto__ModelDef *m = tm_reference_model(a, &w, &wl);
    edit(a, m);
    int rc = tm_image_from_model(m, w, wl, img, len);
    oa_om_arena_destroy(a);
    return rc;
}

/* Wraps a raw MODEL_DEF blob with the reference weights and task. */
static int from_raw_def(const uint8_t *def, size_t def_len, uint8_t **img, size_t *len)
{
    uint8_t *task = NULL;
    size_t task_len = 0;
    static const uint8_t w[16];
    int rc = tm_encode_task(4096, &task, &task_len);
    if (rc == 0) {
        rc = tm_image_static(def, def_len, w, sizeof(w), task, task_len, NULL, 0, img, len);
    }
    free(task);
    return rc;
}

static Ge__Proto__OpDef *op_named(Ge__Proto__ModelDef *m, const char *name)
{
    for (size_t g = 0; g < m->n_graph; ++g) {
        for (size_t i = 0; i < m->graph[g]->n_op; ++i) {
            if (strcmp(m->graph[g]->op[i]->name, name) == 0) {
                return m->graph[g]->op[i];
            }
        }
    }
    return NULL;
}

static void drop_attr(Ge__Proto__OpDef *op, const char *key)
{
    size_t w = 0;
    for (size_t i = 0; i < op->n_attr; ++i) {
        if (!(op->attr[i]->key.len == strlen(key) && memcmp(op->attr[i]->key.data, key, op->attr[i]->key.len) == 0)) {
            op->attr[w++] = op->attr[i];
        }
    }
    op->n_attr = w;
}

/* ---- the cases ------------------------------------------------------------------- */

static int g_empty(uint8_t **img, size_t *len)
{
    *img = malloc(1);
    *len = 0;
    return *img == NULL ? -1 : 0;
}

static int g_truncated_header(uint8_t **img, size_t *len)
{
    int rc = ref_static(img, len);
    *len = 100;
    return rc;
}

static int g_bad_magic(uint8_t **img, size_t *len)
{
    int rc = ref_static(img, len);
    if (rc == 0) {
        (*img)[0] = 'X';
    }
    return rc;
}

static int g_length_mismatch(uint8_t **img, size_t *len)
{
    return ref_static(img, len) || grow(img, len, 1);
}

static int g_bundle(uint8_t **img, size_t *len)
{
    int rc = ref_static(img, len);
    if (rc == 0) {
        (*img)[82] = 5;
    }
    return rc;
}

static int g_zero_partitions(uint8_t **img, size_t *len)
{
    int rc = ref_static(img, len);
    if (rc == 0) {
        put32(*img + 256, 0);
    }
    return rc;
}

static int g_too_many_partitions(uint8_t **img, size_t *len)
{
    int rc = ref_static(img, len);
    if (rc == 0) {
        put32(*img + 256, 9);
    }
    return rc;
}

static int g_table_past_end(uint8_t **img, size_t *len)
{
    int rc = tm_build_image(TM_DYNAMIC, img, len);
    if (rc == 0) {
        put32(*img + 156, 3); /* model_num 3, only two tables present */
    }
    return rc;
}

static int g_partition_past_end(uint8_t **img, size_t *len)
{
    int rc = ref_static(img, len);
    if (rc == 0) {
        put64(entry(*img, 3) + 16, get64(entry(*img, 3) + 16) + 1000);
    }
    return rc;
}

static int g_huge_partition(uint8_t **img, size_t *len)
{
    int rc = ref_static(img, len);
    if (rc == 0) {
        put64(entry(*img, 1) + 16, UINT64_MAX - 7); /* wraps when added */
    }
    return rc;
}

static int g_bad_mem_offset(uint8_t **img, size_t *len)
{
    int rc = ref_static(img, len);
    if (rc == 0) {
        put64(entry(*img, 2) + 8, get64(entry(*img, 2) + 8) + 1);
    }
    return rc;
}

static int g_duplicate_type(uint8_t **img, size_t *len)
{
    int rc = ref_static(img, len);
    if (rc == 0) {
        put32(entry(*img, 3), 1); /* a second WEIGHTS_DATA */
    }
    return rc;
}

static int g_trailing_bytes(uint8_t **img, size_t *len)
{
    int rc = ref_static(img, len) || grow(img, len, 16);
    if (rc == 0) {
        put64(*img + 184, *len - 256);
    }
    return rc;
}

static int g_missing_model_def(uint8_t **img, size_t *len)
{
    int rc = ref_static(img, len);
    if (rc == 0) {
        put32(entry(*img, 1), 13);
    }
    return rc;
}

static int g_garbage_model_def(uint8_t **img, size_t *len)
{
    static const uint8_t def[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01};
    return from_raw_def(def, sizeof(def), img, len);
}

static int g_string_past_end(uint8_t **img, size_t *len)
{
    static const uint8_t def[] = {0x0a, 0x7f, 'm', 'o', 'd', 'e', 'l'}; /* name: 127 bytes declared */
    return from_raw_def(def, sizeof(def), img, len);
}

static int g_nesting_too_deep(uint8_t **img, size_t *len)
{
    /* ModelDef.graph -> GraphDef.op -> OpDef.attr -> entry.value -> AttrDef.g -> ... */
    oa_om_arena *a = NULL;
    if (oa_om_arena_create(&a) != OA_OK) {
        return -1;
    }
    Ge__Proto__ModelDef *m = tm_model(a, "deep");
    Ge__Proto__GraphDef *g = tm_graph(a, m, "g0");
    for (int i = 0; i < 30; ++i) {
        Ge__Proto__OpDef *op = tm_op(a, g, "n", "Op");
        Ge__Proto__AttrDef *v = tm_attr(a, &op->attr, &op->n_attr, "g");
        Ge__Proto__GraphDef *inner = oa_om_arena_alloc(a, sizeof(*inner));
        ge__proto__graph_def__init(inner);
        inner->name = (char *)"in";
        v->value_case = GE__PROTO__ATTR_DEF__VALUE_G;
        v->g = inner;
        g = inner;
    }
    uint8_t *def = NULL;
    size_t def_len = 0;
    int rc = oa_om_pb_encode(&m->base, &def, &def_len) == OA_OK ? from_raw_def(def, def_len, img, len) : -1;
    free(def);
    oa_om_arena_destroy(a);
    return rc;
}

static void e_invalid_utf8(oa_om_arena *a, Ge__Proto__ModelDef *m)
{
    (void)a;
    op_named(m, "add")->name = (char *)"ad\xff";
}

static void e_no_graph(oa_om_arena *a, Ge__Proto__ModelDef *m)
{
    (void)a;
    m->n_graph = 0;
}

static void e_duplicate_op(oa_om_arena *a, Ge__Proto__ModelDef *m)
{
    (void)a;
    op_named(m, "pc")->name = (char *)"add";
}

static void e_dangling_input(oa_om_arena *a, Ge__Proto__ModelDef *m)
{
    (void)a;
    op_named(m, "add")->input[1] = (char *)"ghost:0";
}

static void e_bad_input_index(oa_om_arena *a, Ge__Proto__ModelDef *m)
{
    (void)a;
    op_named(m, "add")->input[1] = (char *)"w:-7";
}

static void e_subgraph_loop(oa_om_arena *a, Ge__Proto__ModelDef *m)
{
    Ge__Proto__GraphDef *g1 = tm_graph(a, m, "loop1");
    Ge__Proto__GraphDef *g2 = tm_graph(a, m, "loop2");
    tm_subgraph(a, tm_op(a, g1, "c1", "PartitionedCall"), "loop2");
    tm_subgraph(a, tm_op(a, g2, "c2", "PartitionedCall"), "loop1");
}

static void e_subgraph_owned_twice(oa_om_arena *a, Ge__Proto__ModelDef *m)
{
    tm_subgraph(a, op_named(m, "add"), "sub");
}

static void e_main_as_subgraph(oa_om_arena *a, Ge__Proto__ModelDef *m)
{
    tm_subgraph(a, op_named(m, "sout"), "main");
}

static void e_unknown_subgraph(oa_om_arena *a, Ge__Proto__ModelDef *m)
{
    (void)a;
    op_named(m, "pc")->subgraph_name[0] = (char *)"nowhere";
}

static void e_absurd_rank(oa_om_arena *a, Ge__Proto__ModelDef *m)
{
    Ge__Proto__ShapeDef *s = op_named(m, "add")->output_desc[0]->shape;
    s->dim = oa_om_arena_alloc(a, 129 * sizeof(int64_t));
    for (int i = 0; i < 129; ++i) {
        s->dim[i] = 1;
    }
    s->n_dim = 129;
}

static void e_negative_dim(oa_om_arena *a, Ge__Proto__ModelDef *m)
{
    (void)a;
    op_named(m, "add")->input_desc[0]->shape->dim[0] = -5;
}

static void e_dims_overflow(oa_om_arena *a, Ge__Proto__ModelDef *m)
{
    (void)a;
    int64_t *d = op_named(m, "x")->output_desc[0]->shape->dim;
    d[0] = INT64_MAX / 2;
    d[1] = 4;
}

static void e_bad_dtype(oa_om_arena *a, Ge__Proto__ModelDef *m)
{
    (void)a;
    op_named(m, "pc")->output_desc[0]->dtype = 99;
}

static void e_bad_dictionary(oa_om_arena *a, Ge__Proto__ModelDef *m)
{
    if (oa_om_compress(m, a) != OA_OK) {
        return;
    }
    Ge__Proto__OpDef *x = op_named(m, "x");
    for (size_t i = 0; i < x->n_attr; ++i) {
        if (oa_om_key_is_compressed(&x->attr[i]->key)) {
            x->attr[i]->key.data = (uint8_t *)"\0\x7f\x7f";
            x->attr[i]->key.len = 3;
        }
    }
}

static void e_data_without_index(oa_om_arena *a, Ge__Proto__ModelDef *m)
{
    (void)a;
    drop_attr(op_named(m, "x"), "index");
}

static void e_const_without_value(oa_om_arena *a, Ge__Proto__ModelDef *m)
{
    (void)a;
    drop_attr(op_named(m, "w"), "value");
}

static void e_file_constant_without_dtype(oa_om_arena *a, Ge__Proto__ModelDef *m)
{
    static const int64_t shape[] = {4};
    Ge__Proto__OpDef *fc = tm_op(a, m->graph[0], "fc", "FileConstant");
    tm_attr_list_i(a, &fc->attr, &fc->n_attr, "shape", shape, 1);
    tm_attr_s(a, &fc->attr, &fc->n_attr, "location", "weight_0");
}

static void e_weight_past_end(oa_om_arena *a, Ge__Proto__ModelDef *m)
{
    (void)a;
    Ge__Proto__OpDef *w = op_named(m, "w");
    oa_om_attr_get(w->attr, w->n_attr, "value")->t->desc->data_offset = 1020;
}

#define DEF_EDIT(fn)                                                                                                   \
    static int g_##fn(uint8_t **img, size_t *len)                                                                      \
    {                                                                                                                  \
        return from_edit(e_##fn, img, len);                                                                            \
    }
DEF_EDIT(invalid_utf8)
DEF_EDIT(no_graph)
DEF_EDIT(duplicate_op)
DEF_EDIT(dangling_input)
DEF_EDIT(bad_input_index)
DEF_EDIT(subgraph_loop)
DEF_EDIT(subgraph_owned_twice)
DEF_EDIT(main_as_subgraph)
DEF_EDIT(unknown_subgraph)
DEF_EDIT(absurd_rank)
DEF_EDIT(negative_dim)
DEF_EDIT(dims_overflow)
DEF_EDIT(bad_dtype)
DEF_EDIT(bad_dictionary)
DEF_EDIT(data_without_index)
DEF_EDIT(const_without_value)
DEF_EDIT(file_constant_without_dtype)
DEF_EDIT(weight_past_end)

static int g_bad_task_info(uint8_t **img, size_t *len)
{
    uint8_t *def = NULL;
    size_t def_len = 0;
    static const uint8_t task[] = {0x58}; /* memory_size tag, no value */
    static const uint8_t w[16];
    int rc = tm_build_model_def(0, &def, &def_len);
    if (rc == 0) {
        rc = tm_image_static(def, def_len, w, sizeof(w), task, sizeof(task), NULL, 0, img, len);
    }
    free(def);
    return rc;
}

static int with_inout(const uint8_t *io, size_t io_len, uint8_t **img, size_t *len)
{
    uint8_t *def = NULL, *task = NULL;
    size_t def_len = 0, task_len = 0;
    static const uint8_t w[1024];
    int rc = tm_build_model_def(0, &def, &def_len) || tm_encode_task(4096, &task, &task_len);
    if (rc == 0) {
        rc = tm_image_static(def, def_len, w, sizeof(w), task, task_len, io, io_len, img, len);
    }
    free(def);
    free(task);
    return rc;
}

static int g_bad_inout(uint8_t **img, size_t *len)
{
    static const uint8_t io[] = {9, 0, 0, 0, 0, 0, 0, 0};
    return with_inout(io, sizeof(io), img, len);
}

static int g_absurd_tensor_count(uint8_t **img, size_t *len)
{
    static const uint8_t io[] = {0, 0, 0, 0, 4, 0, 0, 0, 0xff, 0xff, 0xff, 0xff};
    return with_inout(io, sizeof(io), img, len);
}

static int g_def_only(uint8_t **img, size_t *len)
{
    return tm_build_image(TM_DEF_ONLY, img, len);
}

/* ---- the table ------------------------------------------------------------------- */

#define SKIP_QUERY OA_STATUS_COUNT

typedef struct corrupt_case {
    const char *cls;  /* failure class of om_format.h section 6 */
    const char *name; /* file name (without .om) */
    int (*gen)(uint8_t **img, size_t *len); /* NULL: the file does not exist */
    oa_status open_status;
    const char *needle;
    oa_status query_status; /* SKIP_QUERY: not a container-level class */
} corrupt_case;

static const corrupt_case k_cases[] = {
    {"F1", "missing_file", NULL, OA_E_GE_MODEL_PATH, "missing_file", OA_E_GE_MODEL_PATH},
    {"F1", "empty_file", g_empty, OA_E_GE_MODEL_PATH, "is empty", OA_E_GE_MODEL_PATH},
    {"F3", "truncated_header", g_truncated_header, OA_E_GE_PARAM, "smaller than the 256-byte header", OA_E_GE_PARAM},
    {"F4", "bad_magic", g_bad_magic, OA_E_GE_PARAM, "magic", OA_E_GE_PARAM},
    {"F5", "length_mismatch", g_length_mismatch, OA_E_GE_PARAM, "model_length", OA_E_GE_PARAM},
    {"F6", "bundle_model", g_bundle, OA_E_GE_FAILURE, "bundle", OA_E_GE_FAILURE},
    {"F7", "zero_partitions", g_zero_partitions, OA_E_GE_PARAM, "holds 0 partitions", OA_E_GE_PARAM},
    {"F7", "too_many_partitions", g_too_many_partitions, OA_E_GE_PARAM, "holds 9 partitions", OA_E_GE_PARAM},
    {"F8", "table_past_end", g_table_past_end, OA_E_GE_MODEL_DATA_SIZE, "table 2", OA_E_GE_MODEL_DATA_SIZE},
    {"F9", "partition_past_end", g_partition_past_end, OA_E_GE_MODEL_DATA_SIZE, "ends past the data",
     OA_E_GE_MODEL_DATA_SIZE},
    {"F9", "huge_partition", g_huge_partition, OA_E_GE_MODEL_DATA_SIZE, "ends past the data",
     OA_E_GE_MODEL_DATA_SIZE},
    {"F10", "bad_mem_offset", g_bad_mem_offset, OA_E_GE_PARAM, "mem_offset", OA_E_GE_PARAM},
    {"F11", "duplicate_type", g_duplicate_type, OA_E_GE_PARAM, "twice", OA_E_GE_PARAM},
    {"F12", "trailing_bytes", g_trailing_bytes, OA_E_GE_FAILURE, "end at data offset", OA_E_GE_FAILURE},
    {"F13", "missing_model_def", g_missing_model_def, OA_E_GE_LOAD_MODEL_PARTITION, "no MODEL_DEF",
     OA_E_GE_LOAD_MODEL_PARTITION},
    {"F14", "garbage_model_def", g_garbage_model_def, OA_E_GE_LOAD_MODEL_PARTITION, "MODEL_DEF", SKIP_QUERY},
    {"F14", "string_past_end", g_string_past_end, OA_E_GE_LOAD_MODEL_PARTITION, "declares 127 bytes", SKIP_QUERY},
    {"F14", "nesting_too_deep", g_nesting_too_deep, OA_E_GE_LOAD_MODEL_PARTITION, "nested deeper than 100",
     SKIP_QUERY},
    {"F14", "invalid_utf8", g_invalid_utf8, OA_E_GE_LOAD_MODEL_PARTITION, "not UTF-8", SKIP_QUERY},
    {"F15", "no_graph", g_no_graph, OA_E_GE_LOAD_MODEL_PARTITION, "holds no graph", SKIP_QUERY},
    {"F15", "duplicate_op", g_duplicate_op, OA_E_GE_LOAD_MODEL_PARTITION, "two ops named add", SKIP_QUERY},
    {"F15", "dangling_input", g_dangling_input, OA_E_GE_LOAD_MODEL_PARTITION, "\"ghost:0\" names no op",
     SKIP_QUERY},
    {"F15", "bad_input_index", g_bad_input_index, OA_E_GE_LOAD_MODEL_PARTITION, "bad index", SKIP_QUERY},
    {"F15", "subgraph_loop", g_subgraph_loop, OA_E_GE_LOAD_MODEL_PARTITION, "nested inside itself", SKIP_QUERY},
    {"F15", "subgraph_owned_twice", g_subgraph_owned_twice, OA_E_GE_LOAD_MODEL_PARTITION, "owned twice",
     SKIP_QUERY},
    {"F15", "main_as_subgraph", g_main_as_subgraph, OA_E_GE_LOAD_MODEL_PARTITION, "main graph", SKIP_QUERY},
    {"F15", "unknown_subgraph", g_unknown_subgraph, OA_E_GE_LOAD_MODEL_PARTITION, "subgraph nowhere", SKIP_QUERY},
    {"F16", "absurd_rank", g_absurd_rank, OA_E_GE_LOAD_MODEL_PARTITION, "rank 129", SKIP_QUERY},
    {"F16", "negative_dim", g_negative_dim, OA_E_GE_LOAD_MODEL_PARTITION, "is -5", SKIP_QUERY},
    {"F16", "dims_overflow", g_dims_overflow, OA_E_GE_LOAD_MODEL_PARTITION, "overflows int64", SKIP_QUERY},
    {"F16", "bad_dtype", g_bad_dtype, OA_E_GE_LOAD_MODEL_PARTITION, "dtype 99", SKIP_QUERY},
    {"F17", "bad_dictionary", g_bad_dictionary, OA_E_GE_LOAD_MODEL_PARTITION, "does not index", SKIP_QUERY},
    {"F18", "data_without_index", g_data_without_index, OA_E_MODEL_MISSING_ATTR, "lacks attribute index",
     SKIP_QUERY},
    {"F18", "const_without_value", g_const_without_value, OA_E_MODEL_MISSING_ATTR, "lacks attribute value",
     SKIP_QUERY},
    {"F18", "file_constant_without_dtype", g_file_constant_without_dtype, OA_E_MODEL_MISSING_ATTR,
     "lacks attribute dtype", SKIP_QUERY},
    {"F19", "bad_task_info", g_bad_task_info, OA_E_GE_LOAD_TASK_PARTITION, "TASK_INFO",
     OA_E_GE_LOAD_TASK_PARTITION},
    {"F20", "weight_past_end", g_weight_past_end, OA_E_GE_LOAD_WEIGHT_PARTITION, "outside the 1024-byte",
     SKIP_QUERY},
    {"F21", "bad_inout", g_bad_inout, OA_E_GE_FAILURE, "unknown record type 9", SKIP_QUERY},
    {"F21", "absurd_tensor_count", g_absurd_tensor_count, OA_E_GE_FAILURE, "cannot fit", SKIP_QUERY},
    {"F22", "def_only", g_def_only, OA_OK, NULL, OA_E_GE_PARAM},
};

static int check(const char *what, const char *file, oa_status got, oa_status want, const char *needle)
{
    const char *msg = oa_error_take_messages();
    if (got != want) {
        printf("FAIL %s %s: status %d (acl %d), want %d (acl %d): %s\n", what, file, (int)got,
               (int)oa_status_to_acl(got), (int)want, (int)oa_status_to_acl(want), msg ? msg : "(no message)");
        return 1;
    }
    if (want != OA_OK && (msg == NULL || (needle != NULL && strstr(msg, needle) == NULL))) {
        printf("FAIL %s %s: message \"%s\" lacks \"%s\"\n", what, file, msg ? msg : "(none)", needle);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s <output dir>\n", argv[0]);
        return 2;
    }
    int failures = 0;
    for (size_t i = 0; i < sizeof(k_cases) / sizeof(k_cases[0]); ++i) {
        const corrupt_case *c = &k_cases[i];
        char path[4096];
        (void)snprintf(path, sizeof(path), "%s/%s.om", argv[1], c->name);
        if (c->gen != NULL) {
            uint8_t *img = NULL;
            size_t len = 0;
            if (c->gen(&img, &len) != 0 || tm_write_file(path, img, len) != 0) {
                printf("FAIL %s: cannot generate %s\n", c->cls, path);
                free(img);
                failures++;
                continue;
            }
            free(img);
        } else {
            (void)remove(path);
        }
        oa_om_model *m = NULL;
        oa_status st = oa_om_model_open_file(path, 0, &m);
        failures += check(c->cls, path, st, c->open_status, c->needle);
        if (st != OA_OK && m != NULL) {
            printf("FAIL %s %s: model returned on failure\n", c->cls, path);
            failures++;
        }
        oa_om_model_destroy(m);
        if (c->query_status != SKIP_QUERY) {
            size_t work = 0, weight = 0;
            st = oa_om_query_size_file(path, &work, &weight);
            failures += check("query", path, st, c->query_status, NULL);
        }
        if (failures == 0) {
            printf("ok   %-4s %s\n", c->cls, c->name);
        }
    }
    printf("%s: %zu cases, %d failure(s)\n", argv[0], sizeof(k_cases) / sizeof(k_cases[0]), failures);
    return failures != 0;
}
