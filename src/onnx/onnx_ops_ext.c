/*
 * The op table of the sequence, quantized-integer, signal, random and
 * training-domain mappings (onnx_ops_seq.c, onnx_ops_quant.c, ...), looked
 * up after the main table (onnx_ops.c). Rows carry their operator-set domain
 * ("" for ai.onnx).
 */
#include <string.h>

#include "base/util.h"
#include "onnx/onnx_internal.h"

typedef struct ext_entry {
    const char *domain;
    onnx_op_entry e;
} ext_entry;

static const ext_entry EXT_OPS[] = {
    {"", {"SequenceEmpty", 11, 18, oa_onnx_seq_empty, -1}},
    {"", {"SequenceConstruct", 11, 18, oa_onnx_seq_construct, -1}},
    {"", {"SequenceInsert", 11, 18, oa_onnx_seq_insert, -1}},
    {"", {"SequenceErase", 11, 18, oa_onnx_seq_erase, -1}},
    {"", {"SequenceAt", 11, 18, oa_onnx_seq_at, OA_OP_IDENTITY}},
    {"", {"SequenceLength", 11, 18, oa_onnx_seq_length, OA_OP_CONST}},
    {"", {"SplitToSequence", 11, 18, oa_onnx_split_to_seq, OA_OP_SPLIT_V}},
    {"", {"ConcatFromSequence", 11, 18, oa_onnx_concat_from_seq, OA_OP_CONCAT_D}},
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
