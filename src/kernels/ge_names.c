/*
 * GE op type name -> kernel family (and sub-op) table, so every executor
 * maps names the same way. Attribute decoding stays with the executors.
 */
#include "kernels/kernel_internal.h"

typedef struct ge_entry {
    const char *name;
    oa_kop_type type;
    int sub;
} ge_entry;

static const ge_entry k_table[] = {
    {"Conv2D", OA_KOP_CONV2D, -1},
    {"Conv2DTranspose", OA_KOP_CONV2D_TRANSPOSE, -1},
    {"MatMul", OA_KOP_MATMUL, -1},
    {"MatMulV2", OA_KOP_MATMUL, -1},
    {"BatchMatMul", OA_KOP_MATMUL, -1},
    {"BatchMatMulV2", OA_KOP_MATMUL, -1},
    {"GEMM", OA_KOP_MATMUL, -1},
    {"BatchNorm", OA_KOP_BATCHNORM, -1},
    {"LayerNorm", OA_KOP_LAYERNORM, -1},
    {"SoftmaxV2", OA_KOP_SOFTMAX, 0},
    {"LogSoftmaxV2", OA_KOP_SOFTMAX, 1},
    {"Add", OA_KOP_BINARY, OA_KBIN_ADD},
    {"Sub", OA_KOP_BINARY, OA_KBIN_SUB},
    {"Mul", OA_KOP_BINARY, OA_KBIN_MUL},
    {"RealDiv", OA_KOP_BINARY, OA_KBIN_DIV},
    {"Div", OA_KOP_BINARY, OA_KBIN_DIV},
    {"Pow", OA_KOP_BINARY, OA_KBIN_POW},
    {"Maximum", OA_KOP_BINARY, OA_KBIN_MAX},
    {"Minimum", OA_KOP_BINARY, OA_KBIN_MIN},
    {"PRelu", OA_KOP_BINARY, OA_KBIN_PRELU},
    {"Equal", OA_KOP_BINARY, OA_KBIN_EQUAL},
    {"NotEqual", OA_KOP_BINARY, OA_KBIN_NOT_EQUAL},
    {"Less", OA_KOP_BINARY, OA_KBIN_LESS},
    {"LessEqual", OA_KOP_BINARY, OA_KBIN_LESS_EQUAL},
    {"Greater", OA_KOP_BINARY, OA_KBIN_GREATER},
    {"GreaterEqual", OA_KOP_BINARY, OA_KBIN_GREATER_EQUAL},
    {"LogicalAnd", OA_KOP_BINARY, OA_KBIN_AND},
    {"LogicalOr", OA_KOP_BINARY, OA_KBIN_OR},
    {"Relu", OA_KOP_UNARY, OA_KUN_RELU},
    {"LeakyRelu", OA_KOP_UNARY, OA_KUN_LEAKY_RELU},
    {"Sigmoid", OA_KOP_UNARY, OA_KUN_SIGMOID},
    {"HardSigmoid", OA_KOP_UNARY, OA_KUN_HARDSIGMOID},
    {"HardSwish", OA_KOP_UNARY, OA_KUN_HARDSWISH},
    {"Tanh", OA_KOP_UNARY, OA_KUN_TANH},
    {"Exp", OA_KOP_UNARY, OA_KUN_EXP},
    {"Log", OA_KOP_UNARY, OA_KUN_LOG},
    {"Sqrt", OA_KOP_UNARY, OA_KUN_SQRT},
    {"Rsqrt", OA_KOP_UNARY, OA_KUN_RSQRT},
    {"Erf", OA_KOP_UNARY, OA_KUN_ERF},
    {"Softplus", OA_KOP_UNARY, OA_KUN_SOFTPLUS},
    {"Softsign", OA_KOP_UNARY, OA_KUN_SOFTSIGN},
    {"Abs", OA_KOP_UNARY, OA_KUN_ABS},
    {"Neg", OA_KOP_UNARY, OA_KUN_NEG},
    {"Reciprocal", OA_KOP_UNARY, OA_KUN_RECIPROCAL},
    {"Floor", OA_KOP_UNARY, OA_KUN_FLOOR},
    {"Ceil", OA_KOP_UNARY, OA_KUN_CEIL},
    {"Round", OA_KOP_UNARY, OA_KUN_ROUND},
    {"ClipByValue", OA_KOP_UNARY, OA_KUN_CLIP},
    {"Gelu", OA_KOP_UNARY, OA_KUN_GELU},
    {"Square", OA_KOP_UNARY, OA_KUN_SQUARE},
    {"Sign", OA_KOP_UNARY, OA_KUN_SIGN},
    {"Sin", OA_KOP_UNARY, OA_KUN_SIN},
    {"Cos", OA_KOP_UNARY, OA_KUN_COS},
    {"LogicalNot", OA_KOP_UNARY, OA_KUN_LOGICAL_NOT},
    {"SelectV2", OA_KOP_SELECT, -1},
    {"AvgPoolV2", OA_KOP_POOL, OA_KPOOL_AVG},
    {"AvgPool", OA_KOP_POOL, OA_KPOOL_AVG},
    {"MaxPoolV3", OA_KOP_POOL, OA_KPOOL_MAX},
    {"MaxPool", OA_KOP_POOL, OA_KPOOL_MAX},
    {"GlobalAveragePool", OA_KOP_POOL, OA_KPOOL_AVG},
    {"ReduceSum", OA_KOP_REDUCE, OA_KRED_SUM},
    {"ReduceSumD", OA_KOP_REDUCE, OA_KRED_SUM},
    {"ReduceMean", OA_KOP_REDUCE, OA_KRED_MEAN},
    {"ReduceMeanD", OA_KOP_REDUCE, OA_KRED_MEAN},
    {"ReduceMax", OA_KOP_REDUCE, OA_KRED_MAX},
    {"ReduceMaxD", OA_KOP_REDUCE, OA_KRED_MAX},
    {"ReduceMin", OA_KOP_REDUCE, OA_KRED_MIN},
    {"ReduceProd", OA_KOP_REDUCE, OA_KRED_PROD},
    {"Cast", OA_KOP_CAST, -1},
    {"Transpose", OA_KOP_TRANSPOSE, -1},
    {"TransposeD", OA_KOP_TRANSPOSE, -1},
    {"ConcatD", OA_KOP_CONCAT, -1},
    {"ConcatV2D", OA_KOP_CONCAT, -1},
    {"Split", OA_KOP_SPLIT, -1},
    {"SplitV", OA_KOP_SPLIT, -1},
    {"SplitD", OA_KOP_SPLIT, -1},
    {"SplitVD", OA_KOP_SPLIT, -1},
    {"StridedSliceV2", OA_KOP_SLICE, -1},
    {"Slice", OA_KOP_SLICE, -1},
    {"GatherV2", OA_KOP_GATHER, -1},
    {"PadV3", OA_KOP_PAD, -1},
    {"PadV2", OA_KOP_PAD, -1},
    {"Pad", OA_KOP_PAD, -1},
    {"MirrorPad", OA_KOP_PAD, -1},
    {"Tile", OA_KOP_TILE, -1},
    {"Expand", OA_KOP_EXPAND, -1},
    {"BroadcastTo", OA_KOP_EXPAND, -1},
    {"Fill", OA_KOP_FILL, -1},
    {"Range", OA_KOP_RANGE, -1},
    {"ResizeNearestNeighborV2", OA_KOP_RESIZE, OA_KRESIZE_NEAREST},
    {"Resize", OA_KOP_RESIZE, -1},
    {"TopK", OA_KOP_TOPK, -1},
    {"TopKV2", OA_KOP_TOPK, -1},
    {"NonMaxSuppressionV6", OA_KOP_NMS, -1},
    {"CommonLSTM", OA_KOP_LSTM, -1},
    {"Reshape", OA_KOP_COPY, -1},
    {"Squeeze", OA_KOP_COPY, -1},
    {"SqueezeV3", OA_KOP_COPY, -1},
    {"Unsqueeze", OA_KOP_COPY, -1},
    {"UnsqueezeV3", OA_KOP_COPY, -1},
    {"ExpandDims", OA_KOP_COPY, -1},
    {"Identity", OA_KOP_COPY, -1},
    {"Flatten", OA_KOP_COPY, -1},
    {"FlattenV2", OA_KOP_COPY, -1},
    {"Dropout", OA_KOP_COPY, -1},
};

oa_status oa_kernel_lookup_ge(const char *ge_type, oa_kop_type *type, int *sub_op)
{
    if (ge_type == NULL || type == NULL || sub_op == NULL) {
        return OA_FAIL(OA_E_PARAM, "NULL argument");
    }
    for (size_t i = 0; i < OA_ARRAY_SIZE(k_table); i++) {
        if (strcmp(k_table[i].name, ge_type) == 0) {
            *type = k_table[i].type;
            *sub_op = k_table[i].sub;
            return OA_OK;
        }
    }
    return OA_FAIL(OA_E_OP_NOT_FOUND, "no CPU kernel for GE op type \"%s\"", ge_type);
}
