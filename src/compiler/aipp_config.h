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

#endif /* OA_COMPILER_AIPP_CONFIG_H */
