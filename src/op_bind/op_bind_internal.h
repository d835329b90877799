/* Shared by op_bind.c (sources, descs, lifecycle) and op_bind_ops.c (per-family decoders). */
#ifndef OA_OP_BIND_OP_BIND_INTERNAL_H
#define OA_OP_BIND_OP_BIND_INTERNAL_H

#define OA_LOG_MODULE "GE"
#include "base/error.h"
#include "base/util.h"
#include "op_bind/op_bind.h"

/* Decoding state of one node. */
typedef struct oa_bctx {
    const oa_node *n;
    const oa_op_bind_opts *opts;
    oa_op_bind *b;
    int cap_in;
    int cap_out;
    size_t synth_used;
    size_t synth_cap;
} oa_bctx;

/* Reports "node <name> (<type>): <message>" with status st. */
#define BFAIL(c, st, ...) oa_bind_fail((c), (st), __VA_ARGS__)
oa_status oa_bind_fail(const oa_bctx *c, oa_status st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));


/* Appends kernel inputs. slot >= num_inputs or unconnected: ABSENT (optional) or an error (required). */
oa_status oa_bind_in(oa_bctx *c, uint32_t slot, bool required, bool host);
oa_status oa_bind_in_absent(oa_bctx *c);
/* A constant built by the binding (copied into the binding's storage). */
oa_status oa_bind_in_synth(oa_bctx *c, oa_kdtype dt, int rank, const int64_t *dims, const void *data, size_t size);
/* Appends kernel output for IR output idx. */
oa_status oa_bind_out(oa_bctx *c, uint32_t idx);

/* The bytes behind IR input slot: a constant's, or the executor's host value; false when neither. */
bool oa_bind_slot_data(const oa_bctx *c, uint32_t slot, const void **data, const oa_tensor_desc **desc);
/* Integer values of a constant (or host) IR input; false when not known. */
bool oa_bind_slot_ints(const oa_bctx *c, uint32_t slot, int64_t *vals, int cap, int *n);

/* The INDEX family (op_bind_index.c): sub is the row's oa_kindex_op. */
oa_status oa_bind_index(oa_bctx *c, int sub);

/* The IR input slot is connected. */
bool oa_bind_has(const oa_node *n, uint32_t slot);

/*
 * Decodes `_oa_post_*` into post; *n_add = number of residual Adds (their
 * operands are IR slots base .. base + n_add - 1, *base set when n_add > 0).
 * allow_add false refuses Adds; a node without the attrs gives n = 0.
 */
oa_status oa_bind_post_ops(oa_bctx *c, oa_kpost_chain *post, bool allow_add, int *n_add, uint32_t *base);

/* Family decoders (op_bind_ops.c): fill c->b from c->n; called with type/sub looked up. */
oa_status oa_bind_decode(oa_bctx *c) OA_MUST_CHECK;
/* Data movement (op_bind_shape.c): Copy (the view ops), Transpose(D), Concat over `count` data
 * inputs from `first`, Split, Slice (size_form: Slice, else StridedSliceV2), Gather(V2), Pad,
 * PadD, and ops of `type` whose IR inputs from n_host_from on are host values. */
oa_status oa_bind_copy(oa_bctx *c) OA_MUST_CHECK;
oa_status oa_bind_transpose(oa_bctx *c, bool attr_perm) OA_MUST_CHECK;
oa_status oa_bind_concat(oa_bctx *c, uint32_t first, uint32_t count, int64_t axis) OA_MUST_CHECK;
oa_status oa_bind_split(oa_bctx *c) OA_MUST_CHECK;
oa_status oa_bind_slice(oa_bctx *c, bool size_form) OA_MUST_CHECK;
oa_status oa_bind_gather(oa_bctx *c, bool attr_axis) OA_MUST_CHECK;
oa_status oa_bind_pad(oa_bctx *c) OA_MUST_CHECK;
oa_status oa_bind_pad_d(oa_bctx *c) OA_MUST_CHECK;
oa_status oa_bind_host_args(oa_bctx *c, oa_kop_type type, uint32_t n_host_from, uint32_t n_in) OA_MUST_CHECK;
/* The int8 ops of the QDQ rewrite (op_bind_quant.c). */
oa_status oa_bind_quant(oa_bctx *c) OA_MUST_CHECK;
/* Aipp (op_bind_aipp.c). */
oa_status oa_bind_aipp(oa_bctx *c) OA_MUST_CHECK;

#endif
