/*
 * onnx/: imports a real or generated model with static input shapes and
 * checks the graph against what ONNX Runtime produced for the same inputs
 * (tests/oracle/ort_run.js, outputs.json): same output count and order,
 * names, dtypes, and inferred shapes equal to ORT's actual output shapes.
 *
 *   test_onnx_models --model M.onnx --input-shape SPEC --oracle DIR/outputs.json
 *                    [--fully-static]
 *
 * --fully-static also requires every node output of the main graph and of
 * the subgraphs taken to be static (oa_graph_fully_static on the root
 * graph's own nodes).
 */
#include <cjson/cJSON.h>

#include "../graph/graph_test_util.h"
#include "onnx/onnx_import.h"

static const char *g_model, *g_shape, *g_oracle;
static bool g_fully_static;

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    if (s) {
        s[n] = '\0';
    }
    fclose(f);
    return s;
}

static bool ort_dtype(const char *s, oa_dtype *out)
{
    static const struct {
        const char *ort;
        oa_dtype dt;
    } MAP[] = {
        {"float32", OA_DT_FLOAT}, {"float16", OA_DT_FLOAT16}, {"float64", OA_DT_DOUBLE}, {"int8", OA_DT_INT8},
        {"int16", OA_DT_INT16},   {"int32", OA_DT_INT32},     {"int64", OA_DT_INT64},    {"uint8", OA_DT_UINT8},
        {"uint16", OA_DT_UINT16}, {"uint32", OA_DT_UINT32},   {"uint64", OA_DT_UINT64},  {"bool", OA_DT_BOOL},
    };
    for (size_t i = 0; i < sizeof(MAP) / sizeof(MAP[0]); i++) {
        if (strcmp(MAP[i].ort, s) == 0) {
            *out = MAP[i].dt;
            return true;
        }
    }
    return false;
}

static void outputs_match_onnx_runtime(void **state)
{
    (void)state;
    char *text = read_text(g_oracle);
    if (text == NULL) {
        print_error("cannot read the oracle file %s\n", g_oracle);
        fail();
    }
    cJSON *root = cJSON_Parse(text);
    free(text);
    assert_non_null(root);
    cJSON *outs = cJSON_GetObjectItem(root, "outputs");
    assert_true(cJSON_IsArray(outs));

    oa_onnx_options opt;
    oa_onnx_options_init(&opt);
    opt.input_shape = g_shape;
    oa_graph *g = NULL;
    EXPECT_OK(oa_onnx_import_file(g_model, &opt, &g));
    EXPECT_OK(oa_graph_validate(g));

    int n = cJSON_GetArraySize(outs);
    assert_int_equal(oa_graph_num_outputs(g), n);
    for (int i = 0; i < n; i++) {
        cJSON *o = cJSON_GetArrayItem(outs, i);
        const char *name = cJSON_GetStringValue(cJSON_GetObjectItem(o, "name"));
        const char *dts = cJSON_GetStringValue(cJSON_GetObjectItem(o, "dtype"));
        cJSON *shape = cJSON_GetObjectItem(o, "shape");
        assert_non_null(name);
        assert_non_null(dts);
        const oa_tensor_desc *d = oa_graph_output_desc(g, (uint32_t)i);
        assert_string_equal(oa_graph_output_name(g, (uint32_t)i), name);
        oa_dtype want = OA_DT_UNDEFINED;
        assert_true(ort_dtype(dts, &want));
        if (d->dtype != want) {
            print_error("output %s: dtype %s, ORT %s\n", name, oa_dtype_name(d->dtype), dts);
            fail();
        }
        oa_shape ws;
        memset(&ws, 0, sizeof(ws));
        ws.rank = cJSON_GetArraySize(shape);
        for (int k = 0; k < ws.rank && k < OA_MAX_RANK; k++) {
            ws.dims[k] = (int64_t)cJSON_GetNumberValue(cJSON_GetArrayItem(shape, k));
        }
        if (!oa_shape_is_static(&d->shape) || !oa_shape_equal(&d->shape, &ws)) {
            char a[128], b[128];
            print_error("output %s: inferred %s, ORT %s\n", name, oa_shape_str(&d->shape, a, sizeof(a)),
                        oa_shape_str(&ws, b, sizeof(b)));
            fail();
        }
    }
    if (g_fully_static) {
        const oa_node *dyn = NULL;
        if (!oa_graph_fully_static(g, &dyn)) {
            print_error("node %s still has a dynamic output shape\n", dyn ? dyn->name : "?");
            fail();
        }
    }
    /* The IR survives a clone and a dump of everything. */
    oa_graph *c = NULL;
    EXPECT_OK(oa_graph_clone(g, &c));
    char *d1 = oa_graph_dump_string(g, OA_DUMP_INPUT_DESCS);
    char *d2 = oa_graph_dump_string(c, OA_DUMP_INPUT_DESCS);
    assert_non_null(d1);
    assert_string_equal(d1, d2);
    free(d1);
    free(d2);
    oa_graph_destroy(c);
    oa_graph_destroy(g);
    cJSON_Delete(root);
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--model") == 0 && i + 1 < argc) {
            g_model = argv[++i];
        } else if (strcmp(argv[i], "--input-shape") == 0 && i + 1 < argc) {
            g_shape = argv[++i];
        } else if (strcmp(argv[i], "--oracle") == 0 && i + 1 < argc) {
            g_oracle = argv[++i];
        } else if (strcmp(argv[i], "--fully-static") == 0) {
            g_fully_static = true;
        } else {
            fprintf(stderr, "unknown argument %s\n", argv[i]);
            return 2;
        }
    }
    if (g_model == NULL || g_oracle == NULL) {
        fprintf(stderr, "usage: %s --model M --input-shape SPEC --oracle JSON [--fully-static]\n", argv[0]);
        return 2;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(outputs_match_onnx_runtime),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
