/*
 * Semantic checks of a decoded (and decompressed) ModelDef: what protobuf
 * decoding cannot see. Used by the reader (om_model.h) and by writers that
 * want to check what they are about to save.
 *
 * F15 graph structure (OA_E_GE_LOAD_MODEL_PARTITION):
 *   - at least one graph; graph names unique and non-empty;
 *   - op names unique within their graph;
 *   - every non-empty OpDef.input is "<op>:<index>" with <op> in the same
 *     graph and index an integer >= -1; GraphDef.input/output name ops of
 *     their graph;
 *   - every non-empty subgraph_name names a graph of the ModelDef other than
 *     graph[0]; no graph is owned by two ops; ownership has no cycle.
 * F16 tensor descriptions (op input/output descs and Const weights,
 *   OA_E_GE_LOAD_MODEL_PARTITION): rank <= OA_OM_MAX_RANK; dims >= -1, or
 *   exactly [-2]; the product of the known dims fits int64; dtype inside the
 *   proto DataType enum.
 * F18 required attributes (OA_E_MODEL_MISSING_ATTR): Data has `index` (i),
 *   Const has `value` (t), FileConstant has `shape` (list) and `dtype` (dt).
 * F20 merged weights (OA_E_GE_LOAD_WEIGHT_PARTITION): a Const whose tensor has
 *   no inline data but a weight_size must lie inside `weights_size` bytes
 *   (checked unless weights_size is negative, meaning "not known here").
 */
#ifndef OA_OM_CHECK_H
#define OA_OM_CHECK_H

#include <stdint.h>

#include "base/status.h"
#include "om/om_pb.h"

#define OA_OM_MAX_RANK 128
#define OA_OM_MAX_PROTO_DTYPE 41

/*
 * Runs F15, F16, F18 and F20 on def. skip_weights_for (may be NULL, n
 * entries) lists graph names whose Consts address another sub-model's
 * weights and are left out of F20. `what` names the model in messages.
 */
oa_status oa_om_check_model_def(const Ge__Proto__ModelDef *def, int64_t weights_size,
                                const char *const *skip_weights_for, size_t n_skip, const char *what) OA_MUST_CHECK;

/* F16 for one descriptor; `where` names it in messages. */
oa_status oa_om_check_tensor_desc(const Ge__Proto__TensorDescriptor *td, const char *where) OA_MUST_CHECK;

#endif /* OA_OM_CHECK_H */
