/*
 * atc --precision_mode / --precision_mode_v2 (docs/precision.md): which
 * values ask for lower precision, and the pass that records the request on
 * the convolutions and matrix products (`_oa_compute_dtype`, "DT_BF16" or
 * "DT_FLOAT16"). The kernels decide at load whether the CPU can honour it.
 */
#define OA_LOG_MODULE "GE"
#include <string.h>

#include "base/error.h"
#include "compiler/passes.h"

/* docs/precision.md "Modes": NULL keeps fp32, else the dtype the request names. */
typedef struct mode_row {
    const char *name;
    const char *dtype;
} mode_row;

static const mode_row k_v1[] = {
    {"must_keep_origin_dtype", NULL},      {"force_fp32", NULL},
    {"allow_mix_precision_bf16", "DT_BF16"}, {"allow_fp32_to_bf16", "DT_BF16"},
    {"force_fp16", "DT_FLOAT16"},           {"allow_fp32_to_fp16", "DT_FLOAT16"},
    {"allow_mix_precision", "DT_FLOAT16"},  {"allow_mix_precision_fp16", "DT_FLOAT16"},
    {"cube_fp16in_fp32out", "DT_FLOAT16"},  {"force_lowerprecision", "DT_FLOAT16"},
};

static const mode_row k_v2[] = {
    {"origin", NULL},
    {"fp16", "DT_FLOAT16"},
    {"mixed_float16", "DT_FLOAT16"},
    {"cube_fp16in_fp32out", "DT_FLOAT16"},
    {"mixed_bfloat16", "DT_BF16"},
    {"cube_hif8", NULL}, /* HiFloat8 has no CPU form: fp32 (logged) */
    {"mixed_hif8", NULL},
};

static oa_status lookup(const mode_row *rows, size_t n, const char *flag, const char *v, const char **dtype)
{
    for (size_t i = 0; i < n; i++) {
        if (strcmp(rows[i].name, v) == 0) {
            *dtype = rows[i].dtype;
            if (strstr(v, "hif8") != NULL) {
                OA_LOGI("--%s=%s: no HiFloat8 on a CPU, the model computes in fp32", flag, v);
            }
            return OA_OK;
        }
    }
    char list[512];
    size_t len = 0;
    list[0] = '\0';
    for (size_t i = 0; i < n && len < sizeof list; i++) {
        int k = snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "", rows[i].name);
        len += k > 0 ? (size_t)k : 0;
    }
    return OA_FAIL(OA_E_PARAM,
                   "E10001: Value %s for parameter --%s is invalid. Reason: The value is not within the range of "
                   "[%s].",
                   v, flag, list);
}

oa_status oa_precision_request(const char *mode, const char *mode_v2, const char **dtype)
{
    *dtype = NULL;
    const bool v1 = mode != NULL && mode[0] != '\0', v2 = mode_v2 != NULL && mode_v2[0] != '\0';
    if (v1 && v2) {
        return OA_FAIL(OA_E_PARAM,
                       "E10001: Value %s for parameter --precision_mode is invalid. Reason: --precision_mode and "
                       "--precision_mode_v2 cannot be used together.",
                       mode);
    }
    if (v1) {
        return lookup(k_v1, sizeof k_v1 / sizeof k_v1[0], "precision_mode", mode, dtype);
    }
    return v2 ? lookup(k_v2, sizeof k_v2 / sizeof k_v2[0], "precision_mode_v2", mode_v2, dtype) : OA_OK;
}

static bool is_cube(const oa_node *n)
{
    switch (n->type) {
    case OA_OP_CONV2D:
    case OA_OP_CONV2D_TRANSPOSE:
    case OA_OP_MAT_MUL:
    case OA_OP_MAT_MUL_V2:
    case OA_OP_BATCH_MAT_MUL:
    case OA_OP_BATCH_MAT_MUL_V2:
    case OA_OP_GEMM:
        return true;
    default:
        return false;
    }
}

oa_status oa_pass_mark_precision(oa_graph *g, const char *dtype, size_t *changed)
{
    if (dtype == NULL) {
        return OA_OK;
    }
    for (oa_node *n = oa_graph_first_node(g); n != NULL; n = n->next) {
        for (uint32_t s = 0; s < n->num_subgraphs; s++) {
            oa_status st = oa_pass_mark_precision(n->subgraphs[s].graph, dtype, changed);
            if (st != OA_OK) {
                return st;
            }
        }
        /* the x of a transposed convolution is input 1 (input 0 is its output size) */
        const uint32_t x = n->type == OA_OP_CONV2D_TRANSPOSE ? 1u : 0u;
        if (!is_cube(n) || n->num_inputs <= x || n->inputs[x].desc.dtype != OA_DT_FLOAT) {
            continue;
        }
        oa_status st = oa_node_set_str(n, "_oa_compute_dtype", dtype);
        if (st != OA_OK) {
            return st;
        }
        if (changed != NULL) {
            (*changed)++;
        }
    }
    return OA_OK;
}
