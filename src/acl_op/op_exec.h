/*
 * The CPU "compiler" and executor of single operators.
 *
 * Building (oa_opexec_build) is what compiling an operator means on a
 * CPU: the request becomes a one-node IR graph as CANN builds a single-op
 * graph (one Data per non-constant input in input order, a Const per
 * constant input, nothing for an absent optional input, the op node with
 * the attributes, a NetOutput), the IR's shape inference runs, the node is
 * bound to a kernel operator through op_bind (the one place that maps GE
 * op types and attribute names onto kernels), and the kernel operator is
 * created. The result (oa_opexec) is immutable and reference-counted; a
 * model keeps the executables of the concrete shapes it ran with.
 *
 * Data types the kernels lack are adapted around the kernel: float16 and
 * bfloat16 tensors are computed in float32 (converted in and out), integer
 * matrix products run an exact int64-accumulating loop. An operator whose
 * kernel needs the VALUE of a non-constant input when it is created
 * (shape/axes inputs, convolution weights, GEMM alpha/beta) is bound again
 * at run time, on the stream, with the values of that call.
 *
 * Submission (oa_opexec_submit) queues one task of kind
 * OA_TASK_KIND_KERNEL on the stream (so stream capture records it); the
 * task holds a reference to the executable.
 */
#ifndef OA_ACL_OP_OP_EXEC_H
#define OA_ACL_OP_OP_EXEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "acl/acl_op.h"
#include "acl_op/op_model.h"
#include "base/status.h"
#include "graph/graph.h"

/* One tensor of the signature an executable is built for. */
typedef struct oa_opspec_tensor {
    aclDataType dtype;
    aclFormat format;           /* origin format */
    const int64_t *dims;        /* concrete dims (may hold -1/-2 when only inferring) */
    size_t ndims;
    const int64_t (*range)[2];  /* shape range (inference only), may be NULL */
    size_t nrange;
    bool absent;                /* optional input not given */
    bool is_const;              /* becomes a Const node with const_data */
    const void *const_data;
    size_t const_len;
    const char *name;           /* desc name, may be NULL */
} oa_opspec_tensor;

typedef struct oa_opspec {
    const char *type;
    const aclopAttr *attr;
    int n_in, n_out;
    const oa_opspec_tensor *in;
    const oa_opspec_tensor *out;
} oa_opspec;

/*
 * Builds the one-node graph of spec and infers it. Input i of the op reads
 * Data "input<k>" (k counts the non-constant present inputs) or Const
 * "const<i>"; outputs are the NetOutput inputs. Output descs given with
 * static dims override inferred unknown dims (the caller knows them); a
 * contradiction with an inferred static dim or dtype is OA_E_PARAM.
 * [out] *graph, *node. Errors: OA_E_OP_NOT_FOUND (op type unknown to the
 * IR), the inference codes (infer.h), OA_E_PARAM.
 */
oa_status oa_opgraph_build(const oa_opspec *spec, bool infer, oa_graph **graph, oa_node **node) OA_MUST_CHECK;

/* Builds an executable for a fully static spec. [out] *out: one reference. */
oa_status oa_opexec_build(const oa_opspec *spec, oa_opexec **out) OA_MUST_CHECK;
void oa_opexec_ref(oa_opexec *e);
void oa_opexec_unref(oa_opexec *e);

/* Output k of the executable (dims as inferred for the concrete inputs). */
void oa_opexec_output_dims(const oa_opexec *e, int k, const int64_t **dims, size_t *ndims);
/* Bytes input i / output k needs (0 for constant or absent inputs). */
size_t oa_opexec_input_bytes(const oa_opexec *e, int i);
size_t oa_opexec_output_bytes(const oa_opexec *e, int k);
/* The executable's graph (aclGenGraphAndDumpForOp). */
const oa_graph *oa_opexec_graph(const oa_opexec *e);

/*
 * Queues a run of e on stream (NULL = default stream of the current
 * context). Buffers are the caller's (data pointers captured now, read when
 * the task runs). Input and output buffer sizes are checked here.
 */
oa_status oa_opexec_submit(oa_opexec *e, int n_in, const aclDataBuffer *const *in, int n_out,
                           aclDataBuffer *const *out, aclrtStream stream) OA_MUST_CHECK;

/*
 * The executable of model m for the concrete request descs (built on first
 * use and kept in the model, up to OA_OPMODEL_MAX_SPECS shapes per model).
 * [out] *out: one reference.
 */
oa_status oa_opmodel_get_exec(oa_opmodel *m, const oa_opreq *req, oa_opexec **out) OA_MUST_CHECK;
/* Frees the executables a model keeps (called when the model dies). */
void oa_opmodel_drop_execs(oa_opmodel *m);

/* Fills spec tensors from descriptors (dims from dims_from when not NULL). */
void oa_opspec_tensor_from_desc(oa_opspec_tensor *t, const aclTensorDesc *d, const aclTensorDesc *dims_from);

#endif /* OA_ACL_OP_OP_EXEC_H */
