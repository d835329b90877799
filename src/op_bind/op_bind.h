/*
 * op_bind: from a graph IR node to a CPU kernel operator (library
 * `oa_op_bind`, internal). Shared by the static executor (model_v1), the
 * dynamic executor and single operators, so it knows nothing about memory
 * plans, streams or models: it decodes, the caller places.
 *
 *   oa_op_bind *b;
 *   st = oa_op_bind_node(node, NULL, &b);      // GE type + attrs + descs -> kernel family,
 *                                              // params, kernel descs, input sources
 *   // b->in[i].data holds the bytes of constant inputs (Const producers,
 *   // synthesized scalars); b->src[i] says where kernel input i comes from
 *   st = oa_op_bind_create(b, &op);            // oa_kop_create (weights pre-packed)
 *   ... run with one pointer per b->in / b->out entry ...
 *   oa_op_bind_destroy(b);                     // the kop stays valid
 *
 * What the decoder understands (src/op_bind/README.md lists every op):
 *   - GE op types and attribute names as the ONNX importer and the compiler
 *     write them (docs/ge_ir.md), including TransData (NCHW <-> NC1HWC0) and
 *     Muls/Adds/Relu6 (synthesized as kernels the library has);
 *   - the compiler's fusion encoding: `_oa_post_ops`, `_oa_post_alpha`,
 *     `_oa_post_beta`, `_oa_post_input_base` (Conv2D, Conv2DTranspose,
 *     MatMulV2, BatchMatMulV2); residual operands become the kernel's extra
 *     inputs in post-op order;
 *   - layouts: a tensor's layout is its PRODUCER's output desc (input slot
 *     descs keep their own format, src/compiler/README.md), NC1HWC0 descs map to
 *     OA_KLAYOUT_NCHWC with the logical dims taken from origin_shape; a
 *     Conv2D with x NCHW and y NC1HWC0 gets params.out_nchwc.
 *
 * Constants: an input whose producer is Const/Constant becomes an
 * OA_BIND_CONST source with in[i].data pointing at the tensor bytes
 * (borrowed from the graph: valid while the graph lives). Inputs that are
 * "host inputs" for the kernel (shapes, axes, sizes: kernels.h) must be
 * constant; otherwise the node is refused with the slot named. Values the
 * binding synthesizes (a Muls scalar, a Resize size) live in the binding:
 * callers that keep run pointers to constants must copy those
 * (src[i].synthesized) before destroying the binding.
 *
 * Failure contract: every error is reported once (OA_FAIL) and names the
 * node and its type: OA_E_OP_NOT_FOUND for a type without a kernel,
 * OA_E_PARAM for attributes or descs the kernels cannot take (message
 * "node <name> (<type>): ..."), OA_E_UNSUPPORTED_DATA_TYPE, OA_E_NOMEM.
 */
#ifndef OA_OP_BIND_OP_BIND_H
#define OA_OP_BIND_OP_BIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"
#include "graph/graph.h"
#include "kernels/kernels.h"

/* Where one kernel input comes from. */
typedef enum oa_bind_kind {
    OA_BIND_ABSENT = 0, /* optional input not given: desc UNDEFINED, run pointer NULL */
    OA_BIND_ACT,        /* a value computed at run time: IR input `slot` of the node */
    OA_BIND_CONST       /* constant bytes in in[i].data (a Const producer, or synthesized) */
} oa_bind_kind;

typedef struct oa_bind_src {
    oa_bind_kind kind;
    uint32_t slot;          /* IR input slot (ACT; CONST from a producer) */
    const oa_node *src;     /* producer node (ACT, CONST from a producer), else NULL */
    uint32_t src_index;     /* producer output index */
    bool synthesized;       /* CONST bytes owned by the binding (copy them to keep them) */
    size_t size;            /* CONST: byte size of in[i].data */
} oa_bind_src;

typedef struct oa_op_bind {
    const oa_node *node;
    oa_kop_type type;
    bool has_params;
    oa_kparams params;
    int n_in;
    int n_out;
    oa_ktensor *in;      /* n_in kernel input descs (.data: constants, see above) */
    oa_bind_src *src;    /* n_in sources */
    oa_ktensor *out;     /* n_out kernel output descs */
    uint32_t *out_index; /* IR output index of kernel output k (OA_BIND_OUT_COUNT: see opts.dds_count) */
    bool inplace_ok;     /* the family allows outputs[0] == inputs[0] (kernels.h "In-place: yes") */
    bool is_copy;        /* a pure byte copy (Reshape & co): the executor may alias instead */
    void *synth;         /* storage of synthesized constants (freed with the binding) */
} oa_op_bind;

/* Options (NULL = defaults). */
typedef struct oa_op_bind_opts {
    /*
     * Host data for a non-constant host input (dynamic executors that know a
     * value before the kernel runs): return the bytes of output src_index of
     * src, or NULL to refuse. NULL callback: only constants are accepted.
     */
    const void *(*host_data)(void *ctx, const oa_node *src, uint32_t src_index);
    void *ctx;
    /*
     * Data-dependent output shapes (F_DDS rows, graph/op.h): the node's
     * output descs hold the upper bound of their data-dependent dim; the
     * binding gets one more kernel output, an i64 scalar whose out_index is
     * OA_BIND_OUT_COUNT, where the kernel writes the real extent of that dim
     * (the outputs are written packed for it). Without it the kernels of
     * NonZero/Unique/Compress need outputs of the exact size.
     */
    bool dds_count;
    /*
     * The bytes of the node's Const producers outlive every operator made
     * from the binding and never change (a dynamic executor keeps its
     * model's weights for the operators of later input shapes): the kernel
     * inputs they fill are marked stable (oa_ktensor.stable), so kernels may
     * read them in place and share what they derive from them. Synthesized
     * constants and host values are never stable.
     */
    bool consts_stable;
} oa_op_bind_opts;

/* out_index of the count output of a data-dependent op (opts.dds_count). */
#define OA_BIND_OUT_COUNT UINT32_MAX

/*
 * True for node types an executor handles itself (no kernel): Data, Const,
 * Constant, FileConstant, NetOutput, If, StatelessIf, Case, While,
 * PartitionedCall, MapIndex.
 */
bool oa_op_bind_is_structural(const oa_node *n);

/*
 * Kernel family and sub-op of op type t: the `kernel` and `sub` columns of
 * graph/op_defs.inc (sub is an oa_kunary_op / oa_kbinary_op / oa_kreduce_op /
 * oa_kpool_kind / oa_kresize_mode, 1 for LogSoftmaxV2, -1 when the family has
 * none). False for OA_OP_UNKNOWN and rows without a kernel (structural ops).
 * Families other than UNARY, BINARY and REDUCE also need their attributes
 * decoded (oa_op_bind_node does that).
 */
bool oa_op_kernel(oa_op_type t, oa_kop_type *type, int *sub);

/*
 * Decodes node n. The node's output descs must be static (shapes known).
 * [out] *out: a new binding, released with oa_op_bind_destroy(). It borrows
 * n and constant bytes from n's graph.
 */
oa_status oa_op_bind_node(const oa_node *n, const oa_op_bind_opts *opts, oa_op_bind **out) OA_MUST_CHECK;

/* Creates the kernel operator of a binding (oa_kop_create; constants are read now). */
oa_status oa_op_bind_create(const oa_op_bind *b, oa_kop **out) OA_MUST_CHECK;

/* Releases a binding. Accepts NULL. */
void oa_op_bind_destroy(oa_op_bind *b);

/*
 * Converts an IR desc to a kernel desc: GE dtype -> oa_kdtype, NC1HWC0 ->
 * OA_KLAYOUT_NCHWC with the logical dims of origin_shape, anything else
 * plain. what names the tensor in messages. OA_E_PARAM (dynamic shape, bad
 * NC1HWC0 desc, rank above OA_KMAX_DIMS), OA_E_UNSUPPORTED_DATA_TYPE.
 */
oa_status oa_op_bind_desc(const oa_tensor_desc *d, const char *what, oa_ktensor *t) OA_MUST_CHECK;

/* The tensor of a Const/Constant producing input slot of n; NULL for anything else. */
const oa_tensor *oa_op_bind_const_input(const oa_node *n, uint32_t slot);

/* Bytes a static IR desc occupies in memory (NC1HWC0: its 5-D shape); false when unknown. */
bool oa_op_bind_desc_bytes(const oa_tensor_desc *d, size_t *out);

#endif /* OA_OP_BIND_OP_BIND_H */
