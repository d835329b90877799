/*
 * The op table of the sequence, quantized-integer, signal, random and
 * training-domain mappings (onnx_ops_seq.c, onnx_ops_quant.c, ...), looked
 * up after the main table (onnx_ops.c). Rows carry their operator-set domain
 * ("" for ai.onnx).
 */
#include <string.h>

#include "base/util.h"
#include "onnx/onnx_internal.h"

/* ---- the builder (onnx_internal.h) ---- */

static const onnx_tv NO_TV = {NULL, 0};

onnx_tv oa_xb_in(onnx_xb *b, uint32_t i)
{
    if (b->st != OA_OK) {
        return NO_TV;
    }
    const onnx_value *v = oa_onnx_input_value(b->c, i);
    if (v == NULL) {
        b->st = ONNX_FAIL(b->c, OA_E_PARSE_MODEL, "input %u is missing", i);
        return NO_TV;
    }
    onnx_tv r = {v->node, v->index};
    return r;
}

onnx_tv oa_xb_op(onnx_xb *b, oa_op_type t, const char *role, const onnx_tv *ins, uint32_t nin)
{
    oa_node *n = NULL;
    if (b->st != OA_OK || (b->st = oa_onnx_emit(b->c, t, role, nin, 1, &n)) != OA_OK) {
        return NO_TV;
    }
    for (uint32_t k = 0; k < nin; k++) {
        if (ins[k].n == NULL) {
            continue; /* an optional input left out */
        }
        if ((b->st = oa_onnx_connect(n, k, ins[k].n, ins[k].i)) != OA_OK) {
            return NO_TV;
        }
    }
    onnx_tv r = {n, 0};
    return r;
}

onnx_tv oa_xb_un(onnx_xb *b, oa_op_type t, const char *role, onnx_tv x)
{
    return oa_xb_op(b, t, role, &x, 1);
}

onnx_tv oa_xb_bin(onnx_xb *b, oa_op_type t, const char *role, onnx_tv x, onnx_tv y)
{
    const onnx_tv ins[2] = {x, y};
    return oa_xb_op(b, t, role, ins, 2);
}

onnx_tv oa_xb_f32(onnx_xb *b, const char *role, float v)
{
    oa_node *k = NULL;
    if (b->st != OA_OK || (b->st = oa_onnx_const_f32(b->c, role, &v, 1, true, &k)) != OA_OK) {
        return NO_TV;
    }
    onnx_tv r = {k, 0};
    return r;
}

onnx_tv oa_xb_const(onnx_xb *b, const char *role, oa_dtype dt, const oa_shape *shape, const void *data, size_t size)
{
    oa_tensor *t;
    oa_node *k;
    if (b->st != OA_OK || (b->st = oa_graph_make_tensor(b->c->sc->g, dt, shape, data, size, &t)) != OA_OK ||
        (b->st = oa_onnx_emit(b->c, OA_OP_CONST, role, 0, 1, &k)) != OA_OK ||
        (b->st = oa_node_set_tensor(k, "value", t)) != OA_OK) {
        return NO_TV;
    }
    oa_desc_set(oa_node_output_desc(k, 0), dt, shape);
    onnx_tv r = {k, 0};
    return r;
}

onnx_tv oa_xb_cast(onnx_xb *b, const char *role, onnx_tv x, oa_dtype to)
{
    onnx_tv r = oa_xb_un(b, OA_OP_CAST, role, x);
    oa_xb_int(b, r, "dst_type", to);
    return r;
}

void oa_xb_int(onnx_xb *b, onnx_tv v, const char *name, int64_t x)
{
    if (b->st == OA_OK) {
        b->st = oa_node_set_int(v.n, name, x);
    }
}

void oa_xb_ints(onnx_xb *b, onnx_tv v, const char *name, const int64_t *x, size_t n)
{
    if (b->st == OA_OK) {
        b->st = oa_node_set_list_int(v.n, name, x, n);
    }
}

void oa_xb_out(onnx_xb *b, uint32_t j, onnx_tv v)
{
    if (b->st == OA_OK) {
        b->st = oa_onnx_bind_output(b->c, j, v.n, v.i);
    }
}

/* ---- the table ---- */

typedef struct ext_entry {
    const char *domain;
    onnx_op_entry e;
} ext_entry;

static const ext_entry EXT_OPS[] = {
    {"", {"SequenceEmpty", 11, 21, oa_onnx_seq_empty, -1}},
    {"", {"SequenceConstruct", 11, 21, oa_onnx_seq_construct, -1}},
    {"", {"SequenceInsert", 11, 21, oa_onnx_seq_insert, -1}},
    {"", {"SequenceErase", 11, 21, oa_onnx_seq_erase, -1}},
    {"", {"SequenceAt", 11, 21, oa_onnx_seq_at, OA_OP_IDENTITY}},
    {"", {"SequenceLength", 11, 21, oa_onnx_seq_length, OA_OP_CONST}},
    {"", {"SplitToSequence", 11, 21, oa_onnx_split_to_seq, OA_OP_SPLIT_V}},
    {"", {"ConcatFromSequence", 11, 21, oa_onnx_concat_from_seq, OA_OP_CONCAT_D}},
    {"", {"MatMulInteger", 10, 21, oa_onnx_op_matmul_integer, OA_OP_BATCH_MAT_MUL_V2}},
    {"", {"ConvInteger", 10, 21, oa_onnx_op_conv_integer, OA_OP_CONV2D}},
    {"", {"QLinearMatMul", 10, 21, oa_onnx_op_qlinear_matmul, OA_OP_BATCH_MAT_MUL_V2}},
    {"", {"QLinearConv", 10, 21, oa_onnx_op_qlinear_conv, OA_OP_CONV2D}},
    {"", {"DynamicQuantizeLinear", 11, 21, oa_onnx_op_dynamic_quantize, OA_OP_ROUND}},
    {"", {"HannWindow", 17, 21, oa_onnx_op_hann_window, OA_OP_COS}},
    {"", {"HammingWindow", 17, 21, oa_onnx_op_hamming_window, OA_OP_COS}},
    {"", {"BlackmanWindow", 17, 21, oa_onnx_op_blackman_window, OA_OP_COS}},
    {"", {"DFT", 17, 19, oa_onnx_op_dft, OA_OP_BATCH_MAT_MUL_V2}},
    {"", {"STFT", 17, 21, oa_onnx_op_stft, OA_OP_BATCH_MAT_MUL_V2}},
    {"", {"MelWeightMatrix", 17, 21, oa_onnx_op_mel_weight_matrix, OA_OP_SELECT_V2}},
    {"", {"RandomUniform", 1, 21, oa_onnx_op_random_uniform, OA_OP_RANGE}},
    {"", {"RandomUniformLike", 1, 21, oa_onnx_op_random_uniform_like, OA_OP_RANGE}},
    {"", {"RandomNormal", 1, 21, oa_onnx_op_random_normal, OA_OP_RANGE}},
    {"", {"RandomNormalLike", 1, 21, oa_onnx_op_random_normal_like, OA_OP_RANGE}},
    {"", {"Bernoulli", 15, 21, oa_onnx_op_bernoulli, OA_OP_LESS}},
    {"", {"Scan", 8, 21, oa_onnx_op_scan, OA_OP_CONCAT_D}},
    {"", {"Loop", 1, 21, oa_onnx_op_loop, OA_OP_WHILE}},
    {OA_ONNX_TRAINING_DOMAIN, {"Adagrad", 1, 1, oa_onnx_op_adagrad, OA_OP_SQRT}},
    {OA_ONNX_TRAINING_DOMAIN, {"Momentum", 1, 1, oa_onnx_op_momentum, OA_OP_MUL}},
    {OA_ONNX_TRAINING_DOMAIN, {"Adam", 1, 1, oa_onnx_op_adam, OA_OP_SQRT}},
    {OA_ONNX_TRAINING_DOMAIN, {"Gradient", 1, 1, oa_onnx_op_gradient, OA_OP_MUL}},
};

const onnx_op_entry *oa_onnx_find_ext_op(const char *domain, const char *op_type, int64_t opset)
{
    const char *d = domain == NULL || strcmp(domain, "ai.onnx") == 0 ? "" : domain;
    for (size_t i = 0; i < OA_ARRAY_SIZE(EXT_OPS); i++) {
        const onnx_op_entry *e = &EXT_OPS[i].e;
        if (strcmp(EXT_OPS[i].domain, d) == 0 && strcmp(e->onnx_type, op_type) == 0 && opset >= e->min_opset &&
            opset <= e->max_opset) {
            return e;
        }
    }
    return NULL;
}

size_t oa_onnx_ext_ops(const char **names, size_t cap)
{
    for (size_t i = 0; i < OA_ARRAY_SIZE(EXT_OPS) && i < cap; i++) {
        names[i] = EXT_OPS[i].e.onnx_type;
    }
    return OA_ARRAY_SIZE(EXT_OPS);
}
