/*
 * atc's thin layer over the .om format library (src/om, om_ir.h): writing
 * a compiled model and dumping an .om as JSON.
 */
#ifndef OA_TOOLS_ATC_OM_H
#define OA_TOOLS_ATC_OM_H

#include <stdbool.h>

#include "base/status.h"
#include "compiler/compiler.h"

typedef struct atc_om_info {
    const char *soc_version;
    const char *cmdline;   /* model attr atc_cmdline */
    bool compress;         /* --enable_attr_compression */
} atc_om_info;

/*
 * Writes cm to `path` (mode 0600, atomically): graphs, weights, the static
 * plan (OpDef.output_i/input_i; a control-flow node's subgraph region as
 * its workspace/workspace_bytes), model attrs (the compiler's plus
 * soc_version, atc_cmdline, framework_type "Onnx"), MODEL_INOUT_INFO.
 */
OA_MUST_CHECK oa_status atc_write_om(const oa_compiled_model *cm, const atc_om_info *info, const char *path);

/* --mode=1: the .om at om_path as CANN's JSON at json_path. */
OA_MUST_CHECK oa_status atc_om_to_json(const char *om_path, const char *json_path);

#endif /* OA_TOOLS_ATC_OM_H */
