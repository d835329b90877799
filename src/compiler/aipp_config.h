/*
 * atc --insert_op_conf: CANN's AIPP configuration file (protobuf text format
 * of domi.InsertNewOps, one `aipp_op { ... }` block per AIPP), parsed,
 * validated and completed with CANN's defaults (docs/aipp.md "Config file").
 */
#ifndef OA_COMPILER_AIPP_CONFIG_H
#define OA_COMPILER_AIPP_CONFIG_H

#include "base/status.h"
#include "graph/graph.h"
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

/*
 * Model-input dims a static AIPP input reports ([N, H, W, C] of the raw
 * image, N -1 under batch gears); the graph desc of a YUV420SP input holds
 * 1.5·H rows instead so that its byte size is exact (docs/aipp.md "What the
 * .om holds"). Dynamic AIPP inputs report GE's `_dynamic_aipp_input_dims`.
 */
#define OA_AIPP_INPUT_DIMS_ATTR "_oa_aipp_input_dims"

/*
 * Inserts one Aipp node per block of cfg (docs/aipp.md "What the .om
 * holds"): the Data input becomes the raw u8 image, dynamic blocks add
 * their AippData input. `gear_max`: the largest --dynamic_batch_size gear
 * (0: no gears; a -1 batch needs gears; a dynamic block then takes
 * [-1, max_src_image_size / gear_max] bytes and an AippData block sized for
 * the largest gear). `hw_gears`: --dynamic_image_size (-1 height and width
 * allowed for static blocks with a source size of 0 and neither crop nor
 * padding, as GE requires). Errors name the block's line: E10052 (no such
 * input, two blocks on one input), E10001 (input shape or dtype), E10034,
 * E10055 (combinations not supported).
 */
oa_status oa_pass_insert_aipp(oa_graph *g, const oa_aipp_config *cfg, int64_t gear_max, bool hw_gears) OA_MUST_CHECK;

/* After gears are assembled: GE's `_aipp_inputs` / `_aipp_outputs` of the
 * root's AIPP inputs, one entry per gear: batch rows[i], or (image) height
 * rows[2i] and width rows[2i+1]. */
oa_status oa_aipp_record_gears(oa_graph *root, bool image, const int64_t *rows, size_t n) OA_MUST_CHECK;

#endif /* OA_COMPILER_AIPP_CONFIG_H */
