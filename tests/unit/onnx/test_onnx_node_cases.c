/*
 * Ops against the ONNX project's own backend test data (Debian package
 * libonnx-testdata, ONNX 1.12: data/node/<case>/model.onnx with
 * test_data_set_N/input_K.pb and output_K.pb computed by ONNX's numpy
 * reference). Each listed case is imported (onnx/), inferred (graph/), and
 * every node is bound (op_bind/) and run on the CPU kernels in topological
 * order; each graph output is compared with the case's output by the
 * suite's rule: floats |got - want| <= 1e-7 + 1e-3 |want| (NaN equals NaN),
 * every other dtype byte-exact.
 *
 *   test_onnx_node_cases [DATA_DIR [CASE...]]
 *
 * DATA_DIR defaults to OA_ONNX_TESTDATA (.../data); CASEs replace the list.
 *
 * Adding an op (graph/README.md "Adding an op"): append its cases to CASES.
 */
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <sys/stat.h>

#include "../graph/graph_test_util.h"
#include "onnx/onnx.pb-c.h"
#include "onnx/onnx_import.h"
#include "op_bind/op_bind.h"

/* Case directories under data/node, one op family per line. */
static const char *const CASES[] = {
    /* ops bound before the op table (regression cover of their rows) */
    "test_abs", "test_exp", "test_exp_example", "test_log", "test_log_example",
    "test_sqrt", "test_sqrt_example", "test_reciprocal", "test_reciprocal_example",
    "test_floor", "test_floor_example", "test_ceil", "test_ceil_example",
    "test_neg", "test_neg_example", "test_relu", "test_sigmoid", "test_sigmoid_example",
    "test_tanh", "test_tanh_example", "test_erf", "test_sign", "test_round",
    "test_hardswish", "test_leakyrelu", "test_leakyrelu_example", "test_leakyrelu_default",
    "test_add", "test_add_bcast", "test_sub", "test_sub_example", "test_sub_bcast",
    "test_mul", "test_mul_example", "test_mul_bcast", "test_div", "test_div_example", "test_div_bcast",
    "test_pow", "test_pow_example", "test_max_example", "test_min_example",
    "test_equal", "test_equal_bcast", "test_less", "test_less_bcast", "test_greater", "test_greater_bcast",
    "test_and2d", "test_or2d", "test_where_example",
    "test_identity", "test_flatten_axis1", "test_softmax_axis_1",
    /* plain unary math (kernels/unary_defs.inc and its written-out neighbours) */
    "test_sin", "test_sin_example", "test_cos", "test_cos_example",
    "test_tan", "test_tan_example",
    "test_sinh", "test_sinh_example",
    "test_cosh", "test_cosh_example",
    "test_asin", "test_asin_example",
    "test_acos", "test_acos_example",
    "test_atan", "test_atan_example",
    "test_asinh", "test_asinh_example",
    "test_acosh", "test_acosh_example",
    "test_atanh", "test_atanh_example",
    "test_elu", "test_elu_example", "test_elu_default",
    "test_selu", "test_selu_example", "test_selu_default",
    "test_thresholdedrelu", "test_thresholdedrelu_example", "test_thresholdedrelu_default",
    "test_gather_elements_0", "test_gather_elements_1", "test_gather_elements_negative_indices",
    "test_mod_mixed_sign_int32", "test_mod_mixed_sign_float64", "test_mod_uint8", "test_mod_broadcast",
    "test_nllloss_NCd1d2d3_none_no_weight_negative_ii", "test_nllloss_NCd1d2_with_weight_reduction_mean",
    "test_sce_mean_weight_ii_3d_log_prob", "test_sce_sum",
    /* the INDEX family (kernels/index.c) on static shapes */
    "test_gathernd_example_float32", "test_gathernd_example_int32_batch_dim1", "test_scatternd_multiply",
    "test_scatter_elements_with_duplicate_indices", "test_scatter_with_axis", "test_eyelike_with_dtype",
    "test_reversesequence_batch", "test_cumsum_2d_negative_axis", "test_cumsum_1d_reverse_exclusive",
    "test_tfidfvectorizer_tf_batch_uniandbigrams_skip5",
    /* pooling beyond 2-D f32, LRN, f16 math, GRU / RNN, batch-first
     * recurrences, 3-D ConvTranspose, training BatchNorm, MVN, GridSample */
    "test_maxpool_3d_default", "test_maxpool_2d_dilations", "test_maxpool_2d_uint8",
    "test_maxpool_with_argmax_2d_precomputed_strides", "test_averagepool_3d_default", "test_lrn",
    "test_max_float16", "test_mod_mixed_sign_float16",
    "test_gru_with_initial_bias", "test_gru_batchwise", "test_simple_rnn_batchwise", "test_lstm_batchwise",
    "test_convtranspose_3d", "test_batchnorm_example_training_mode", "test_mvn", "test_gridsample_bicubic",
    "test_gridsample_reflection_padding", "test_det_nd",
};

#define PATH_CAP 4096

static const char *g_data = OA_ONNX_TESTDATA;
static const char *const *g_cases = CASES;
static size_t g_ncases = sizeof(CASES) / sizeof(CASES[0]);

/* snprintf into a path buffer; a path that does not fit fails the test. */
static void pathf(char *buf, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void pathf(char *buf, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, cap, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= cap) {
        fail_msg("path too long");
    }
}

/* ---- .pb tensors ---- */

static void *read_file(const char *path, size_t *size)
{
    *size = 0;
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    void *buf = malloc(n > 0 ? (size_t)n : 1);
    if (buf != NULL && n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    *size = n > 0 ? (size_t)n : 0;
    return buf;
}

/* The bytes of a TensorProto (raw_data or the typed field), malloc'ed. */
static void *tensor_bytes(const char *path, size_t *size)
{
    size_t n = 0;
    void *pb = read_file(path, &n);
    if (pb == NULL) {
        fail_msg("cannot read %s", path);
    }
    Onnx__TensorProto *t = onnx__tensor_proto__unpack(NULL, n, pb);
    free(pb);
    if (t == NULL) {
        fail_msg("%s is not a TensorProto", path);
    }
    const void *src;
    size_t bytes;
    if (t->has_raw_data) {
        src = t->raw_data.data;
        bytes = t->raw_data.len;
    } else if (t->n_float_data) {
        src = t->float_data;
        bytes = t->n_float_data * sizeof(float);
    } else if (t->n_int64_data) {
        src = t->int64_data;
        bytes = t->n_int64_data * sizeof(int64_t);
    } else if (t->n_double_data) {
        src = t->double_data;
        bytes = t->n_double_data * sizeof(double);
    } else {
        src = NULL;
        bytes = 0; /* int32_data holds several dtypes widened: not needed by the listed cases */
    }
    void *out = malloc(bytes ? bytes : 1);
    if (bytes) {
        memcpy(out, src, bytes);
    }
    onnx__tensor_proto__free_unpacked(t, NULL);
    *size = bytes;
    return out;
}

/* ---- a minimal executor: one buffer per node output ---- */

typedef struct value {
    const oa_node *node;
    uint32_t index;
    void *data;
    size_t size;
} value;

typedef struct values {
    value v[256];
    size_t n;
} values;

static void put(values *vs, const oa_node *n, uint32_t i, void *data, size_t size)
{
    assert_true(vs->n < sizeof(vs->v) / sizeof(vs->v[0]));
    vs->v[vs->n++] = (value){n, i, data, size};
}

static const value *get(const values *vs, const oa_node *n, uint32_t i)
{
    for (size_t k = 0; k < vs->n; k++) {
        if (vs->v[k].node == n && vs->v[k].index == i) {
            return &vs->v[k];
        }
    }
    return NULL;
}

static void run_kernel(values *vs, const oa_node *n)
{
    oa_op_bind *b = NULL;
    EXPECT_OK(oa_op_bind_node(n, NULL, &b));
    oa_kop *op = NULL;
    EXPECT_OK(oa_op_bind_create(b, &op));
    const void *in[32] = {0};
    void *out[32] = {0};
    assert_true(b->n_in <= 32 && b->n_out <= 32);
    for (int i = 0; i < b->n_in; i++) {
        if (b->src[i].kind == OA_BIND_ACT) {
            const value *v = get(vs, b->src[i].src, b->src[i].src_index);
            assert_non_null(v);
            in[i] = v->data;
        } else if (b->src[i].kind == OA_BIND_CONST) {
            in[i] = b->in[i].data;
        }
    }
    for (int k = 0; k < b->n_out; k++) {
        size_t bytes = oa_ktensor_bytes(&b->out[k]);
        out[k] = calloc(1, bytes ? bytes : 1);
        put(vs, n, b->out_index[k], out[k], bytes);
    }
    const size_t wsz = oa_kop_workspace_size(op);
    void *ws = wsz ? aligned_alloc(64, (wsz + 63) & ~(size_t)63) : NULL;
    EXPECT_OK(oa_kop_run(op, in, out, ws, NULL));
    free(ws);
    oa_kop_destroy(op);
    oa_op_bind_destroy(b);
}

/* The suite's rule; false with the first difference in why. */
static bool matches(oa_dtype dt, const void *got, size_t got_size, const void *want, size_t want_size, char *why,
                    size_t cap)
{
    if (got_size != want_size) {
        snprintf(why, cap, "%zu bytes, the reference has %zu", got_size, want_size);
        return false;
    }
    if (dt != OA_DT_FLOAT) {
        snprintf(why, cap, "bytes differ from the reference");
        return memcmp(got, want, got_size) == 0;
    }
    const float *g = got, *w = want;
    for (size_t i = 0; i < got_size / sizeof(float); i++) {
        bool both_nan = isnan(g[i]) && isnan(w[i]);
        if (!both_nan && !(fabs((double)g[i] - (double)w[i]) <= 1e-7 + 1e-3 * fabs((double)w[i]))) {
            snprintf(why, cap, "element %zu is %.9g, the reference %.9g", i, (double)g[i], (double)w[i]);
            return false;
        }
    }
    return true;
}

/* Runs one test_data_set_<k> directory of a case through graph g. */
static void run_set(const char *case_name, const oa_graph *g, const char *dir)
{
    oa_node **order = NULL;
    size_t count = 0;
    EXPECT_OK(oa_graph_topo_order(g, &order, &count));
    values *vs = calloc(1, sizeof(*vs));
    char path[PATH_CAP];
    int compared = 0;
    for (size_t i = 0; i < count; i++) {
        const oa_node *n = order[i];
        switch (n->type) {
        case OA_OP_DATA: {
            size_t size = 0;
            pathf(path, sizeof(path), "%s/input_%lld.pb", dir, (long long)oa_node_attr_int(n, "index", 0));
            put(vs, n, 0, tensor_bytes(path, &size), size);
            break;
        }
        case OA_OP_CONST:
        case OA_OP_CONSTANT: {
            const oa_tensor *t = NULL;
            assert_true(oa_attrs_get_tensor(&n->attrs, "value", &t));
            void *copy = malloc(t->size ? t->size : 1);
            if (t->size > 0) { /* an empty constant (e.g. "all axes") has no data */
                memcpy(copy, t->data, t->size);
            }
            put(vs, n, 0, copy, t->size);
            break;
        }
        case OA_OP_NET_OUTPUT:
            for (uint32_t j = 0; j < n->num_inputs; j++) {
                const value *v = get(vs, n->inputs[j].src, n->inputs[j].src_index);
                assert_non_null(v);
                size_t size = 0;
                pathf(path, sizeof(path), "%s/output_%u.pb", dir, j);
                void *want = tensor_bytes(path, &size);
                char why[256];
                if (!matches(n->inputs[j].desc.dtype, v->data, v->size, want, size, why, sizeof(why))) {
                    fail_msg("%s output %u: %s", case_name, j, why);
                }
                free(want);
                compared++;
            }
            break;
        default:
            run_kernel(vs, n);
            break;
        }
    }
    assert_true(compared > 0);
    for (size_t k = 0; k < vs->n; k++) {
        free(vs->v[k].data);
    }
    free(vs);
    free(order);
}

static void run_case(const char *case_name)
{
    char dir[PATH_CAP], path[PATH_CAP];
    pathf(dir, sizeof(dir), "%s/node/%s", g_data, case_name);
    pathf(path, sizeof(path), "%s/model.onnx", dir);
    oa_graph *g = NULL;
    oa_status st = oa_onnx_import_file(path, NULL, &g);
    if (st != OA_OK) {
        fail_msg("%s: import failed (%d): %s", case_name, (int)st, oa_error_take_messages());
    }
    int sets = 0;
    for (int k = 0;; k++) {
        char set[PATH_CAP];
        struct stat sb;
        pathf(set, sizeof(set), "%s/test_data_set_%d", dir, k);
        if (stat(set, &sb) != 0) {
            break;
        }
        run_set(case_name, g, set);
        sets++;
    }
    assert_true(sets > 0);
    oa_graph_destroy(g);
}

static void listed_cases_match_the_reference(void **state)
{
    (void)state;
    for (size_t i = 0; i < g_ncases; i++) {
        run_case(g_cases[i]);
    }
}

/* The comparison can fail: another op's reference, a 0.2% error, a size. */
static void the_rule_catches_wrong_answers(void **state)
{
    (void)state;
    char path[PATH_CAP];
    size_t n_sin, n_cos;
    pathf(path, sizeof(path), "%s/node/test_sin/test_data_set_0/output_0.pb", g_data);
    float *s = tensor_bytes(path, &n_sin);
    pathf(path, sizeof(path), "%s/node/test_cos/test_data_set_0/output_0.pb", g_data);
    float *c = tensor_bytes(path, &n_cos);
    char why[256];
    assert_int_equal(n_sin, n_cos);
    assert_true(matches(OA_DT_FLOAT, s, n_sin, s, n_sin, why, sizeof(why)));
    assert_false(matches(OA_DT_FLOAT, c, n_cos, s, n_sin, why, sizeof(why)));
    memcpy(c, s, n_sin);
    c[3] = s[3] * 1.002f + 1e-6f;
    assert_false(matches(OA_DT_FLOAT, c, n_cos, s, n_sin, why, sizeof(why)));
    assert_non_null(strstr(why, "element 3"));
    c[3] = s[3];
    assert_false(matches(OA_DT_FLOAT, c, n_cos - 4, s, n_sin, why, sizeof(why)));
    c[0] = s[0] = NAN;
    assert_true(matches(OA_DT_FLOAT, c, n_cos, s, n_sin, why, sizeof(why)));
    const int64_t i1[2] = {1, 2}, i2[2] = {1, 3};
    assert_true(matches(OA_DT_INT64, i1, sizeof(i1), i1, sizeof(i1), why, sizeof(why)));
    assert_false(matches(OA_DT_INT64, i1, sizeof(i1), i2, sizeof(i2), why, sizeof(why)));
    free(s);
    free(c);
}

int main(int argc, char **argv)
{
    if (argc > 1) {
        g_data = argv[1];
    }
    if (argc > 2) {
        g_cases = (const char *const *)(argv + 2);
        g_ncases = (size_t)(argc - 2);
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(listed_cases_match_the_reference),
        cmocka_unit_test(the_rule_catches_wrong_answers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
