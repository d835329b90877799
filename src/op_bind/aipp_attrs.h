/*
 * The `aipp` attribute of an Aipp / Data / AippData node: CANN's AippOpParams
 * as GE stores them, a NamedAttrs whose keys are the proto field names
 * (docs/aipp.md "What the .om holds"). Written by the compiler's insertion
 * pass, read back by the binding of the Aipp node.
 */
#ifndef OA_OP_BIND_AIPP_ATTRS_H
#define OA_OP_BIND_AIPP_ATTRS_H

#include "base/status.h"
#include "graph/graph.h"
#include "kernels/aipp.h"

/* Name of the attr (GE's ATTR_NAME_AIPP). */
#define OA_AIPP_ATTR "aipp"

/*
 * Sets attr `aipp` of list `a` (in graph g's arena) from p: aipp_mode and
 * related_input_rank always; static blocks every image field (repeated
 * fields: their one value), plus `padding_value`; dynamic blocks
 * max_src_image_size and support_rotation.
 */
oa_status oa_aipp_attrs_set(oa_graph *g, oa_attrs *a, const oa_aipp_params *p) OA_MUST_CHECK;

/*
 * Reads attr `aipp` of `a` into *p (absent keys keep CANN's defaults: 0,
 * var_reci 1.0). False when the attr is missing or aipp_mode is neither
 * static nor dynamic.
 */
bool oa_aipp_attrs_get(const oa_attrs *a, oa_aipp_params *p);

#endif /* OA_OP_BIND_AIPP_ATTRS_H */
