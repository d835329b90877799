/*
 * aclmdlQuerySize / aclmdlQuerySizeFromMem for the model layer: the work
 * (feature-map) and weight sizes of an .om without loading it, computed as
 * CANN's GE does:
 *   - the container is parsed (om_format.h section 6, F1-F12); a static
 *     model whose table holds only MODEL_DEF is refused (F22); MODEL_DEF
 *     itself is not decoded;
 *   - weight = sum of the WEIGHTS_DATA partition sizes over every table;
 *   - work = 0 for a dynamic model (rule 2.2), else the memory_size field of
 *     the root's TASK_INFO (domi.ModelTaskDef; 0 when the partition is
 *     absent); a TASK_INFO that does not decode is F19
 *     (OA_E_GE_LOAD_TASK_PARTITION).
 * NULL output pointers are the caller's business (the ACL shim checks them).
 */
#ifndef OA_OM_QUERY_H
#define OA_OM_QUERY_H

#include <stddef.h>

#include "base/status.h"

oa_status oa_om_query_size_memory(const void *image, size_t size, size_t *work_size, size_t *weight_size) OA_MUST_CHECK;
oa_status oa_om_query_size_file(const char *path, size_t *work_size, size_t *weight_size) OA_MUST_CHECK;

#endif /* OA_OM_QUERY_H */
