/*
 * atc --insert_op_conf: CANN's AIPP configuration file (protobuf text format
 * of domi.InsertNewOps, one `aipp_op { ... }` block per AIPP), parsed,
 * validated and completed with CANN's defaults (docs/aipp.md "Config file").
 */
#ifndef OA_COMPILER_AIPP_CONFIG_H
#define OA_COMPILER_AIPP_CONFIG_H

#include "base/status.h"
#include "kernels/aipp.h"

#define OA_AIPP_MAX_OPS 16

typedef struct oa_aipp_config {
    int n_ops;
    oa_aipp_params ops[OA_AIPP_MAX_OPS];
    int op_line[OA_AIPP_MAX_OPS]; /* line of each `aipp_op` */
} oa_aipp_config;

/*
 * Parses, validates and fills the defaults of the config text; `name` names
 * the file in messages. Errors are OA_E_PARAM with an E10001-family message
 * naming the field and the line; *out is then unspecified.
 */
oa_status oa_aipp_config_parse(const char *text, size_t len, const char *name, oa_aipp_config *out) OA_MUST_CHECK;

/* Reads `path` and parses it (E10001 when it cannot be read). */
oa_status oa_aipp_config_load(const char *path, oa_aipp_config *out) OA_MUST_CHECK;

/*
 * The raw-image input one aipp_op block turns a model input into
 * (docs/aipp.md "Model input"). model_dims: the original 4-D input dims,
 * NCHW (nchw true) or NHWC. Static: raw_dims = {N, H, W, C} (NHWC, u8) with
 * H/W from src_image_size (0: the model's), C per input_format, and *bytes
 * = N images of the format; the AIPP output H/W must equal the model's and
 * its channels cover the model's. Dynamic: raw_dims = {N, -1, -1, -1} and
 * *bytes = max_src_image_size. Errors are E10001-style OA_E_PARAM naming the
 * field; `input` names the model input in messages.
 */
oa_status oa_aipp_model_input(const oa_aipp_params *p, const char *input, const int64_t model_dims[4], bool nchw,
                              int64_t raw_dims[4], size_t *bytes) OA_MUST_CHECK;

#endif /* OA_COMPILER_AIPP_CONFIG_H */
