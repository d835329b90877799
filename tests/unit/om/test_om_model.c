/* om reader: open, decompression, weights, query, JSON dump. */
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
#include "om/om_compress.h"
#include "om/om_json.h"
#include "om/om_model.h"
#include "om/om_query.h"
#include "om_testmodel.h"

static void expect_fail(oa_status st, oa_status want, const char *needle)
{
    assert_int_equal(st, want);
    const char *m = oa_error_take_messages();
    assert_non_null(m);
    if (strstr(m, needle) == NULL) {
        fail_msg("message \"%s\" lacks \"%s\"", m, needle);
    }
}

static Ge__Proto__OpDef *find_op(const Ge__Proto__ModelDef *d, const char *name)
{
    for (size_t g = 0; g < d->n_graph; ++g) {
        for (size_t i = 0; i < d->graph[g]->n_op; ++i) {
            if (strcmp(d->graph[g]->op[i]->name, name) == 0) {
                return d->graph[g]->op[i];
            }
        }
    }
    return NULL;
}

/* The static test model's image (the caller frees it) opened from memory. */
static oa_om_model *open_static(uint8_t **img, size_t *len)
{
    assert_int_equal(tm_build_image(TM_STATIC, img, len), 0);
    oa_om_model *m = NULL;
    assert_int_equal(oa_om_model_open_memory(*img, *len, 0, &m), OA_OK);
    return m;
}

static void static_model_opens_with_everything_decoded(void **state)
{
    (void)state;
    uint8_t *img;
    size_t len;
    oa_om_model *m = open_static(&img, &len);
    assert_int_equal(m->num_models, 1);
    const oa_om_submodel *sm = &m->models[0];
    assert_string_equal(sm->def->name, "tm");
    assert_false(sm->was_compressed);
    assert_non_null(sm->task);
    assert_int_equal(sm->task->memory_size, 4096);
    assert_non_null(m->inout);
    assert_int_equal(m->inout->n_inputs, 1);
    assert_string_equal(m->inout->inputs[0].name, "x");
    assert_non_null(oa_om_model_find_graph(sm->def, "sub"));
    assert_null(oa_om_model_find_graph(sm->def, "nope"));
    /* Const weights, zero-copy from the image */
    const Ge__Proto__OpDef *w = find_op(sm->def, "w");
    const Ge__Proto__AttrDef *v = oa_om_attr_get(w->attr, w->n_attr, "value");
    const uint8_t *p;
    assert_int_equal(oa_om_weights_slice(sm, v->t->desc->data_offset, v->t->desc->weight_size, &p), OA_OK);
    assert_true(p >= img && p < img + len);
    float f[4];
    memcpy(f, p, sizeof(f));
    assert_true(f[0] == 1.0f && f[3] == 4.0f);
    expect_fail(oa_om_weights_slice(sm, 1020, 16, &p), OA_E_GE_LOAD_WEIGHT_PARTITION, "outside");
    expect_fail(oa_om_weights_slice(sm, -1, 1, &p), OA_E_GE_LOAD_WEIGHT_PARTITION, "outside");
    assert_int_equal(oa_om_weights_slice(sm, 1024, 0, &p), OA_OK);
    assert_null(p);
    oa_om_model_destroy(m);
    oa_om_model_destroy(NULL);
    free(img);
}

/* Dropping the decoded part leaves the image and its partitions: the weights still read through the container. */
static void dropping_the_decoded_model_keeps_the_image(void **state)
{
    (void)state;
    uint8_t *img;
    size_t len;
    oa_om_model *m = open_static(&img, &len);
    const Ge__Proto__OpDef *w = find_op(m->models[0].def, "w");
    const Ge__Proto__AttrDef *v = oa_om_attr_get(w->attr, w->n_attr, "value");
    const int64_t off = v->t->desc->data_offset;
    const oa_om_partition *wp = m->models[0].weights;
    assert_non_null(wp);
    oa_om_model_drop_decoded(m);
    assert_int_equal(m->num_models, 0);
    assert_null(m->models);
    assert_null(m->inout);
    assert_true(m->image.data == img && m->image.size == len);
    assert_true(wp == oa_om_table_find(&m->container.tables[0], OA_OM_PART_WEIGHTS_DATA));
    float f[4];
    memcpy(f, wp->data + off, sizeof(f));
    assert_true(f[0] == 1.0f && f[3] == 4.0f);
    oa_om_model_drop_decoded(m); /* twice: nothing left to drop */
    oa_om_model_drop_decoded(NULL);
    oa_om_model_destroy(m);
    free(img);
}

/* A model opened on borrowed memory moves onto a copy: the original can go, weights read from the copy. */
static void memory_model_rebases_onto_a_copy(void **state)
{
    (void)state;
    uint8_t *img;
    size_t len;
    oa_om_model *m = open_static(&img, &len);
    uint8_t *copy = malloc(len);
    assert_non_null(copy);
    memcpy(copy, img, len);
    expect_fail(oa_om_model_rebase(m, copy, len - 1), OA_E_GE_PARAM, "size");
    expect_fail(oa_om_model_rebase(m, NULL, len), OA_E_GE_PARAM, "NULL");
    assert_int_equal(oa_om_model_rebase(m, copy, len), OA_OK);
    memset(img, 0xA5, len); /* the borrowed image is gone */
    free(img);
    const oa_om_submodel *sm = &m->models[0];
    assert_true(m->image.data == copy && m->container.image == copy);
    for (uint32_t t = 0; t < m->container.num_tables; ++t) {
        for (uint32_t i = 0; i < m->container.tables[t].num; ++i) {
            const oa_om_partition *pt = &m->container.tables[t].parts[i];
            assert_true(pt->data == NULL || (pt->data >= copy && pt->data + pt->size <= copy + len));
        }
    }
    const Ge__Proto__OpDef *w = find_op(sm->def, "w");
    const Ge__Proto__AttrDef *v = oa_om_attr_get(w->attr, w->n_attr, "value");
    const uint8_t *p;
    assert_int_equal(oa_om_weights_slice(sm, v->t->desc->data_offset, v->t->desc->weight_size, &p), OA_OK);
    assert_true(p >= copy && p < copy + len);
    float f[4];
    memcpy(f, p, sizeof(f));
    assert_true(f[0] == 1.0f && f[3] == 4.0f);
    oa_om_model_destroy(m);
    free(copy);
    /* a mapped model is refused */
    char path[] = "/tmp/oa_om_rebase_XXXXXX";
    const int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(tm_build_image(TM_STATIC, &img, &len), 0);
    assert_int_equal(write(fd, img, len), (ssize_t)len);
    close(fd);
    assert_int_equal(oa_om_model_open_file(path, 0, &m), OA_OK);
    expect_fail(oa_om_model_rebase(m, img, len), OA_E_GE_PARAM, "mapped");
    oa_om_model_destroy(m);
    unlink(path);
    free(img);
}

static void compressed_model_is_expanded_unless_asked_not_to(void **state)
{
    (void)state;
    uint8_t *img;
    size_t len;
    assert_int_equal(tm_build_image(TM_COMPRESSED, &img, &len), 0);
    oa_om_model *m;
    assert_int_equal(oa_om_model_open_memory(img, len, 0, &m), OA_OK);
    assert_true(m->models[0].was_compressed);
    const Ge__Proto__OpDef *add = find_op(m->models[0].def, "add");
    const Ge__Proto__AttrDef *mode = oa_om_attr_get(add->attr, add->n_attr, "mode");
    assert_non_null(mode);
    assert_int_equal(mode->value_case, GE__PROTO__ATTR_DEF__VALUE_S);
    assert_null(oa_om_attr_get(m->models[0].def->attr, m->models[0].def->n_attr, OA_OM_ATTR_NAME_ENUM));
    oa_om_model_destroy(m);

    assert_int_equal(oa_om_model_open_memory(img, len, OA_OM_OPEN_KEEP_COMPRESSED | OA_OM_OPEN_SKIP_TASK, &m),
                     OA_OK);
    assert_null(m->models[0].task);
    add = find_op(m->models[0].def, "add");
    assert_null(oa_om_attr_get(add->attr, add->n_attr, "mode"));
    /* stored form re-encodes to the stored bytes */
    const oa_om_partition *p = oa_om_table_find(m->models[0].table, OA_OM_PART_MODEL_DEF);
    uint8_t *buf;
    size_t blen;
    assert_int_equal(oa_om_pb_encode(&m->models[0].def->base, &buf, &blen), OA_OK);
    assert_int_equal(blen, p->size);
    assert_memory_equal(buf, p->data, blen);
    free(buf);
    oa_om_model_destroy(m);
    free(img);
}

static void dynamic_model_has_a_submodel_per_table(void **state)
{
    (void)state;
    uint8_t *img;
    size_t len;
    assert_int_equal(tm_build_image(TM_DYNAMIC, &img, &len), 0);
    char path[] = "/tmp/oa_om_dyn_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(tm_write_file(path, img, len), 0);
    oa_om_model *m;
    assert_int_equal(oa_om_model_open_file(path, 0, &m), OA_OK);
    assert_int_equal(m->num_models, 2);
    assert_true(m->container.dynamic);
    assert_string_equal(m->models[1].def->name, "sub");
    assert_int_equal(m->models[1].task->memory_size, 64);
    assert_null(m->inout);
    oa_om_model_destroy(m);
    size_t work = 1, weight = 0;
    assert_int_equal(oa_om_query_size_file(path, &work, &weight), OA_OK);
    assert_int_equal(work, 0); /* dynamic: no static work size */
    assert_int_equal(weight, 1024 + 64);
    unlink(path);
    expect_fail(oa_om_model_open_file(path, 0, &m), OA_E_GE_MODEL_PATH, path);
    assert_null(m);
    expect_fail(oa_om_query_size_file(path, &work, &weight), OA_E_GE_MODEL_PATH, path);
    free(img);
}

/* A dynamic image whose sub-model is compressed with the root's dictionaries. */
static void build_partitioned(int own_dict, uint8_t **img, size_t *len)
{
    oa_om_arena *a;
    assert_int_equal(oa_om_arena_create(&a), OA_OK);
    const uint8_t *w;
    size_t wl;
    Ge__Proto__ModelDef *root = tm_reference_model(a, &w, &wl);
    if (!own_dict) {
        tm_attr_b(a, &root->graph[0]->attr, &root->graph[0]->n_attr, "_dynamic_shape_partitioned", 1);
    }
    assert_int_equal(oa_om_compress(root, a), OA_OK);
    /* the sub-model: the root's (already compressed) "sub" graph */
    Ge__Proto__ModelDef *sub = tm_model(a, "sub");
    sub->graph = &root->graph[1];
    sub->n_graph = 1;
    if (own_dict) {
        /* its own dictionary maps its keys to names that are the root's keys */
        Ge__Proto__OpDef *sx = sub->graph[0]->op[0];
        static const char *names[2];
        static const char *vals[1] = {"unused"};
        for (size_t i = 0; i < sx->n_attr && i < 2; ++i) {
            names[i] = oa_om_arena_strndup(a, sx->attr[i]->key.data, sx->attr[i]->key.len);
        }
        tm_attr_i(a, &sub->attr, &sub->n_attr, OA_OM_ATTR_COMPRESS_VERSION, 1);
        Ge__Proto__AttrDef *nv = tm_attr(a, &sub->attr, &sub->n_attr, OA_OM_ATTR_NAME_ENUM);
        Ge__Proto__AttrDef__ListValue *nl = oa_om_arena_alloc(a, sizeof(*nl));
        ge__proto__attr_def__list_value__init(nl);
        nl->s = oa_om_arena_alloc(a, 2 * sizeof(*nl->s));
        for (int i = 0; i < 2; ++i) {
            nl->s[i].data = (uint8_t *)(uintptr_t)names[i];
            nl->s[i].len = sx->attr[i]->key.len;
        }
        nl->n_s = 2;
        nv->value_case = GE__PROTO__ATTR_DEF__VALUE_LIST;
        nv->list = nl;
        tm_attr_list_s(a, &sub->attr, &sub->n_attr, OA_OM_ATTR_VALUE_ENUM, vals, 1);
        Ge__Proto__AttrDef *fv = tm_attr(a, &sub->attr, &sub->n_attr, OA_OM_ATTR_USE_STRING);
        Ge__Proto__AttrDef__ListValue *fl = oa_om_arena_alloc(a, sizeof(*fl));
        ge__proto__attr_def__list_value__init(fl);
        fl->b = oa_om_arena_alloc(a, 2 * sizeof(*fl->b));
        fl->n_b = 2;
        fv->value_case = GE__PROTO__ATTR_DEF__VALUE_LIST;
        fv->list = fl;
        /* and the op's keys are re-keyed through that dictionary */
        for (size_t i = 0; i < sx->n_attr && i < 2; ++i) {
            uint8_t k[OA_OM_KEY_MAX];
            size_t kl = oa_om_key_encode((uint32_t)i, k);
            uint8_t *kd = oa_om_arena_alloc(a, kl);
            memcpy(kd, k, kl);
            sx->attr[i]->key.data = kd;
            sx->attr[i]->key.len = kl;
        }
    }
    uint8_t *d0, *d1, *t0;
    size_t l0, l1, lt;
    assert_int_equal(oa_om_pb_encode(&root->base, &d0, &l0), OA_OK);
    assert_int_equal(oa_om_pb_encode(&sub->base, &d1, &l1), OA_OK);
    assert_int_equal(tm_encode_task(0, &t0, &lt), 0);
    oa_om_header h;
    oa_om_header_init(&h);
    h.model_num = 2;
    h.is_unknow_model = 1;
    oa_om_part_src p0[3] = {{OA_OM_PART_MODEL_DEF, d0, l0}, {OA_OM_PART_WEIGHTS_DATA, w, wl}, {2, t0, lt}};
    oa_om_part_src p1[2] = {{OA_OM_PART_MODEL_DEF, d1, l1}, {2, t0, lt}};
    oa_om_table_src t[2] = {{p0, 3}, {p1, 2}};
    assert_int_equal(oa_om_container_write_memory(&h, t, 2, img, len), OA_OK);
    free(d0);
    free(d1);
    free(t0);
    oa_om_arena_destroy(a);
}

static void submodels_decompress_with_the_roots_dictionaries(void **state)
{
    (void)state;
    for (int own = 0; own < 2; ++own) {
        uint8_t *img;
        size_t len;
        build_partitioned(own, &img, &len);
        oa_om_model *m;
        assert_int_equal(oa_om_model_open_memory(img, len, 0, &m), OA_OK);
        assert_int_equal(m->num_models, 2);
        assert_true(m->models[1].was_compressed);
        const Ge__Proto__OpDef *sx = find_op(m->models[1].def, "sx");
        const Ge__Proto__AttrDef *idx = oa_om_attr_get(sx->attr, sx->n_attr, "index");
        assert_non_null(idx);
        assert_int_equal(idx->value_case, GE__PROTO__ATTR_DEF__VALUE_I);
        assert_non_null(oa_om_attr_get(sx->attr, sx->n_attr, "_parent_node_index"));
        assert_null(oa_om_attr_get(m->models[1].def->attr, m->models[1].def->n_attr, OA_OM_ATTR_NAME_ENUM));
        oa_om_model_destroy(m);
        free(img);
    }
}

static void query_follows_ge(void **state)
{
    (void)state;
    uint8_t *img;
    size_t len;
    size_t work = 0, weight = 0;
    assert_int_equal(tm_build_image(TM_STATIC, &img, &len), 0);
    assert_int_equal(oa_om_query_size_memory(img, len, &work, &weight), OA_OK);
    assert_int_equal(work, 4096);
    assert_int_equal(weight, 1024);
    expect_fail(oa_om_query_size_memory(NULL, len, &work, &weight), OA_E_GE_MODEL_ADDR, "NULL");
    expect_fail(oa_om_query_size_memory(img, len - 1, &work, &weight), OA_E_GE_PARAM, "model data size");
    free(img);
    assert_int_equal(tm_build_image(TM_DEF_ONLY, &img, &len), 0);
    expect_fail(oa_om_query_size_memory(img, len, &work, &weight), OA_E_GE_PARAM, "executable");
    free(img);
    /* no TASK_INFO: work size 0 */
    uint8_t *def;
    size_t def_len;
    assert_int_equal(tm_build_model_def(0, &def, &def_len), 0);
    const uint8_t w[16] = {0};
    assert_int_equal(tm_image_static(def, def_len, w, sizeof(w), NULL, 0, NULL, 0, &img, &len), 0);
    assert_int_equal(oa_om_query_size_memory(img, len, &work, &weight), OA_OK);
    assert_int_equal(work, 0);
    assert_int_equal(weight, 16);
    free(img);
    /* an undecodable TASK_INFO */
    const uint8_t task[] = {0x58}; /* memory_size tag without a value */
    assert_int_equal(tm_image_static(def, def_len, w, sizeof(w), task, sizeof(task), NULL, 0, &img, &len), 0);
    expect_fail(oa_om_query_size_memory(img, len, &work, &weight), OA_E_GE_LOAD_TASK_PARTITION, "TASK_INFO");
    free(img);
    free(def);
}

/* Extracts the text after "key": in a JSON dump, up to the end of line. */
static int json_has(const char *json, const char *snippet)
{
    return strstr(json, snippet) != NULL;
}

static void cann_json_follows_pb2json(void **state)
{
    (void)state;
    oa_om_arena *a;
    assert_int_equal(oa_om_arena_create(&a), OA_OK);
    const uint8_t *w;
    size_t wl;
    Ge__Proto__ModelDef *def = tm_reference_model(a, &w, &wl);
    Ge__Proto__OpDef *add = find_op(def, "add");
    Ge__Proto__AttrDef *f = tm_attr(a, &add->attr, &add->n_attr, "alpha");
    f->value_case = GE__PROTO__ATTR_DEF__VALUE_F;
    f->f = 0.5f;
    f = tm_attr(a, &add->attr, &add->n_attr, "beta");
    f->value_case = GE__PROTO__ATTR_DEF__VALUE_F;
    f->f = 1.0e-5f; /* "%g" gives 1e-05: fits */
    f = tm_attr(a, &add->attr, &add->n_attr, "gamma");
    f->value_case = GE__PROTO__ATTR_DEF__VALUE_F;
    f->f = -1.2345678e-7f; /* "%g" gives -1.23457e-07: too long, printed as a number */
    f = tm_attr(a, &add->attr, &add->n_attr, "raw");
    f->value_case = GE__PROTO__ATTR_DEF__VALUE_S;
    f->s.data = (uint8_t *)"a\nb\x01\xff'";
    f->s.len = 6;
    Ge__Proto__AttrDef *lf = tm_attr(a, &add->attr, &add->n_attr, "scales");
    static float fl[] = {0.1f, 2.0f, 1e20f, 1e-5f};
    Ge__Proto__AttrDef__ListValue *l = oa_om_arena_alloc(a, sizeof(*l));
    ge__proto__attr_def__list_value__init(l);
    l->f = fl;
    l->n_f = 4;
    l->val_type = GE__PROTO__ATTR_DEF__LIST_VALUE__LIST_VALUE_TYPE__VT_LIST_FLOAT;
    lf->value_case = GE__PROTO__ATTR_DEF__VALUE_LIST;
    lf->list = l;
    uint8_t *img;
    size_t len;
    assert_int_equal(tm_image_from_model(def, w, wl, &img, &len), 0);
    char *json;
    size_t jl;
    assert_int_equal(oa_om_dump_json(img, len, OA_OM_JSON_CANN, &json, &jl), OA_OK);
    assert_int_equal(strlen(json), jl);
    assert_true(json[0] == '{' && json[jl - 1] == '}'); /* no trailing newline */
    assert_true(json_has(json, "\n  \"graph\": [\n    {\n"));
    assert_true(json_has(json, "\"dtype\": \"DT_FLOAT\""));
    assert_true(json_has(json, "\"f\": \"0.5\""));
    assert_true(json_has(json, "\"f\": \"1e-05\""));
    assert_true(json_has(json, "\"f\": -1.234567861274627e-07"));
    assert_true(json_has(json, "\"s\": \"a\\\\nb\\\\001\\\\377\\\\'\""));
    assert_true(json_has(json, "0.10000000149011612,"));
    assert_true(json_has(json, "2.0,"));
    assert_true(json_has(json, "1.0000000200408773e+20,"));
    assert_true(json_has(json, "9.999999747378752e-06\n"));
    assert_true(json_has(json, "\"val_type\": \"VT_LIST_FLOAT\""));
    assert_true(json_has(json, "\"has_out_attr\": true"));
    assert_false(json_has(json, "data_offset")); /* black-listed fields */
    assert_false(json_has(json, "\"size\""));
    assert_false(json_has(json, "\"weight_size\": "));
    assert_true(json_has(json, "\"key\": \"weight_size\"")); /* map keys are values, not field names */
    assert_true(json_has(json, "\"shape\": {\n")); /* non-empty shape */
    free(json);
    free(img);

    /* compressed: keys and string values come back, dictionaries disappear */
    assert_int_equal(oa_om_compress(def, a), OA_OK);
    assert_int_equal(tm_image_from_model(def, w, wl, &img, &len), 0);
    assert_int_equal(oa_om_dump_json(img, len, OA_OM_JSON_CANN, &json, &jl), OA_OK);
    assert_true(json_has(json, "\"key\": \"mode\",\n"));
    assert_true(json_has(json, "\"s\": \"fast\""));
    assert_true(json_has(json, "\"s\": [\n"));
    assert_true(json_has(json, "\"val_type\": \"VT_LIST_STRING\""));
    assert_false(json_has(json, OA_OM_ATTR_NAME_ENUM));
    assert_false(json_has(json, "\\u0000"));
    free(json);
    free(img);
    oa_om_arena_destroy(a);
}

static void full_json_describes_the_container(void **state)
{
    (void)state;
    uint8_t *img;
    size_t len;
    assert_int_equal(tm_build_image(TM_STATIC, &img, &len), 0);
    char *json;
    size_t jl;
    assert_int_equal(oa_om_dump_json(img, len, 0, &json, &jl), OA_OK);
    char want[64];
    (void)snprintf(want, sizeof(want), "\"model_length\": %zu", len - 256);
    assert_true(json_has(json, want));
    assert_true(json_has(json, "\"type_name\": \"MODEL_INOUT_INFO\""));
    assert_true(json_has(json, "\"name\": \"x\""));
    assert_true(json_has(json, "\"submodels\": []"));
    free(json);
    expect_fail(oa_om_dump_json(img, len - 1, 0, &json, &jl), OA_E_GE_PARAM, "model data size");
    assert_null(json);

    char dir[] = "/tmp/oa_om_json_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char om[128], out[128];
    (void)snprintf(om, sizeof(om), "%s/m.om", dir);
    (void)snprintf(out, sizeof(out), "%s/m.json", dir);
    assert_int_equal(tm_write_file(om, img, len), 0);
    assert_int_equal(oa_om_dump_json_file(om, out, OA_OM_JSON_CANN), OA_OK);
    FILE *fp = fopen(out, "rb");
    assert_non_null(fp);
    char head[2] = {0};
    assert_int_equal(fread(head, 1, 1, fp), 1);
    assert_int_equal(head[0], '{');
    fclose(fp);
    expect_fail(oa_om_dump_json_file(om, "", 0), OA_E_GE_PARAM, "empty");
    unlink(out);
    unlink(om);
    rmdir(dir);
    free(img);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(static_model_opens_with_everything_decoded),
        cmocka_unit_test(dropping_the_decoded_model_keeps_the_image),
        cmocka_unit_test(memory_model_rebases_onto_a_copy),
        cmocka_unit_test(compressed_model_is_expanded_unless_asked_not_to),
        cmocka_unit_test(dynamic_model_has_a_submodel_per_table),
        cmocka_unit_test(submodels_decompress_with_the_roots_dictionaries),
        cmocka_unit_test(query_follows_ge),
        cmocka_unit_test(cann_json_follows_pb2json),
        cmocka_unit_test(full_json_describes_the_container),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
