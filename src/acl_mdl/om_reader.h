/*
 * The .om reader behind aclmdlLoad*, aclmdlGetDescFrom{File,Mem} and
 * aclmdlQuerySize* (model_reader.h). It lives with the model API: the file
 * is opened and its header decoded once, here, and both executors get the
 * opened model (oa_model_load_args.om); libascendcl registers it
 * (src/libascendcl/builtins.c).
 *
 * open(): maps the file (or borrows the image for the call), decodes and
 * checks it (om_model.h: every failure class with CANN's code) and fills
 * the model description from the root MODEL_INOUT_INFO partition (inputs,
 * outputs, gears, `_dynamic_output_dims`, the user-designated shape order)
 * and the ModelDef (`_datadump_original_op_names` of the ops, the header's
 * "dynamic" flag). The opened model travels to the executor as an
 * oa_om_loaded; the executor takes the model over (sets model NULL) when it
 * keeps it, else close() destroys it.
 */
#ifndef OA_ACL_MDL_OM_READER_H
#define OA_ACL_MDL_OM_READER_H

#include "acl_mdl/model_info.h"
#include "acl_mdl/model_reader.h"
#include "base/status.h"
#include "om/om_model.h"

typedef struct oa_om_loaded {
    oa_om_model *model; /* NULL once an executor took it */
} oa_om_loaded;

extern const oa_model_reader oa_om_reader;

/* The model description of an opened .om (new info, refcount 1). */
oa_status oa_om_model_info(const oa_om_model *m, oa_model_info **out) OA_MUST_CHECK;

/*
 * The AIPP facts of the model inputs from the root graph's Data / AippData
 * ops (om_aipp.c, docs/aipp.md "How the runtime runs it"). Errors:
 * OA_E_GE_INTERNAL (half an AIPP description), OA_E_GE_AIPP_MODE (bad
 * `_aipp_inputs` records), OA_E_NOMEM.
 */
oa_status oa_om_model_aipp(oa_model_info *info, const Ge__Proto__ModelDef *def) OA_MUST_CHECK;

#endif
