/*
 * atc's thin layer over the .om format library (src/om, om_ir.h): writing
 * a compiled model and dumping an .om as JSON.
 */
#ifndef OA_TOOLS_ATC_OM_H
#define OA_TOOLS_ATC_OM_H

#include <stdbool.h>
#include <stdio.h>

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

/* --mode=6 (and --display_model_info=1): CANN's "Display Model Info" block for the .om at om_path. */
OA_MUST_CHECK oa_status atc_om_print_info(const char *om_path, FILE *f);

/* --mode=1 --framework=5 --om=x.onnx: the imported (not yet optimised) graph as CANN's ModelDef JSON. */
OA_MUST_CHECK oa_status atc_onnx_to_json(const char *onnx_path, const char *json_path);

/*
 * --mode=3: imports the ONNX model without converting it and writes the
 * result to result_path (check_result.json); an unsupported op fails with
 * the importer's E16002 message, which lists every unsupported op type.
 */
OA_MUST_CHECK oa_status atc_precheck(const char *onnx_path, const char *result_path);

#endif /* OA_TOOLS_ATC_OM_H */
