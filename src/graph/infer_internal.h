/*
 * Shared machinery of the inference functions (infer_*.c): the context,
 * interval shapes, value helpers and error helpers. See infer.h for the
 * contract.
 */
#ifndef OA_GRAPH_INFER_INTERNAL_H
#define OA_GRAPH_INFER_INTERNAL_H

#include "base/error.h"
#include "graph/graph_internal.h"
#include "graph/infer.h"

/* What an inference function sees. */
typedef struct oa_infer_ctx {
    const oa_node *node;
    uint32_t num_in;
    const oa_tensor_desc *const *in;  /* in[i] NULL = not connected */
    uint32_t num_out;
    oa_tensor_desc *const *out;
    oa_arena *arena;                  /* for values */
} oa_infer_ctx;

typedef oa_status (*oa_infer_fn)(oa_infer_ctx *ctx);

/* Declarations of every inference function named in op_defs.inc. */
#define OA_OP(id, name, ins, outs, infer, kernel, sub, flags) oa_status oa_infer_##infer(oa_infer_ctx *ctx);
#include "graph/op_defs.inc"
#undef OA_OP

/*
 * Failure with the node prefix. While a speculative inference runs (the
 * branches of an If/Case whose selector is unknown), failures are only
 * logged at debug level and not recorded: a branch that cannot run with
 * the current shapes is simply not the one taken.
 */
oa_status oa_infer_report(oa_status st, const char *file, int line, const char *func, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
#define IFAIL(ctx, st, fmt, ...)                                                                        \
    oa_infer_report((st), __FILE__, __LINE__, __func__, "node %s (%s): " fmt, (ctx)->node->name,         \
                    (ctx)->node->type_name, ##__VA_ARGS__)

/* Speculative mode nesting (thread-local): enter/leave around tolerant
 * subgraph inference. */
void oa_infer_quiet_enter(void);
void oa_infer_quiet_leave(void);
bool oa_infer_is_quiet(void);

/* ---- interval dims ---- */

/* One dim as an interval: static d -> {d,d}; unknown -> {lo,hi}, hi -1 =
 * unbounded. */
typedef struct oa_iv {
    int64_t lo, hi;
} oa_iv;

typedef struct oa_ishape {
    int32_t rank;      /* OA_RANK_UNKNOWN or 0..OA_MAX_RANK */
    bool ranged;       /* ranges worth writing (an input had one) */
    oa_iv d[OA_MAX_RANK];
} oa_ishape;

static inline oa_iv oa_iv_fixed(int64_t v)
{
    oa_iv r = {v, v};
    return r;
}
static inline oa_iv oa_iv_any(void)
{
    oa_iv r = {0, -1};
    return r;
}
static inline bool oa_iv_is_fixed(oa_iv a)
{
    return a.lo == a.hi && a.lo >= 0;
}

oa_iv oa_iv_add(oa_iv a, oa_iv b);
oa_iv oa_iv_mul(oa_iv a, oa_iv b);
/* floor(a / c) for a constant c > 0 */
oa_iv oa_iv_div_const(oa_iv a, int64_t c, bool ceil_div);
/* a + c, clamped at 0 */
oa_iv oa_iv_add_const(oa_iv a, int64_t c);
/* Hull of two intervals (merge of alternatives). */
oa_iv oa_iv_hull(oa_iv a, oa_iv b);

/* Interval shape of a desc (ranges used when present). */
oa_ishape oa_ishape_of(const oa_tensor_desc *d);
oa_ishape oa_ishape_unknown(void);
/* Shape with `rank` dims all unknown. */
oa_ishape oa_ishape_any(int32_t rank);
bool oa_ishape_is_static(const oa_ishape *s);

/* Writes dtype and shape (and ranges when s->ranged) to out desc k; the
 * value is cleared. */
void oa_infer_set_out(oa_infer_ctx *ctx, uint32_t k, oa_dtype dt, const oa_ishape *s);

/* ---- inputs ---- */

/* Fails unless inputs 0..n-1 are connected (and exist). */
oa_status oa_infer_need_inputs(oa_infer_ctx *ctx, uint32_t n);
/* Input desc or NULL. */
static inline const oa_tensor_desc *oa_infer_in(const oa_infer_ctx *ctx, uint32_t i)
{
    return i < ctx->num_in ? ctx->in[i] : NULL;
}
/* Fully known integer values of input i (any integer/bool dtype, or float
 * with integral values); returns false when not known. *n receives the
 * count, up to cap values are written. A count above cap fails too. */
bool oa_infer_in_ints(const oa_infer_ctx *ctx, uint32_t i, int64_t *buf, size_t cap, size_t *n);

/* Normalises axis a for rank r ([-r, r) -> [0, r)); fails with a message. */
oa_status oa_infer_axis(oa_infer_ctx *ctx, int64_t a, int32_t r, const char *what, int32_t *out);

/* ---- values ---- */

/* A fresh value of count elements of dtype dt (i[] for ints/bool, f[] for
 * floats), all known. NULL when count exceeds the limits (not an error) or
 * on OOM (reported; check *st). */
oa_value *oa_infer_new_value(oa_infer_ctx *ctx, oa_dtype dt, int64_t count, oa_status *st);
/* Marks element k unknown (allocates the mask). */
oa_status oa_infer_value_set_unknown(oa_infer_ctx *ctx, oa_value *v, int64_t k);
/* True when values of dtype dt are tracked at all. */
bool oa_infer_value_dtype_ok(oa_dtype dt);
/* Element k of v as double / int64 (for mixing). */
double oa_value_get_f(const oa_value *v, int64_t k);
int64_t oa_value_get_i(const oa_value *v, int64_t k);
/* Stores x into element k converting to v's dtype (ints truncate toward
 * zero and wrap to the dtype width; bool = x != 0). */
void oa_value_put(oa_value *v, int64_t k, double xf, int64_t xi, bool from_float);

/* Reads a small tensor's data into a value (Const). NULL if not eligible. */
const oa_value *oa_infer_value_from_tensor(oa_infer_ctx *ctx, const oa_tensor *t, oa_status *st);

/* ---- broadcasting ---- */

/* numpy broadcast of a and b into out; fails with OA_E_GE_SHAPE when the
 * static dims differ and neither is 1. */
oa_status oa_infer_broadcast(oa_infer_ctx *ctx, const oa_ishape *a, const oa_ishape *b, oa_ishape *out);

/* dtype promotion for mixed binary inputs (equal dtypes stay). */
oa_dtype oa_infer_promote(oa_dtype a, oa_dtype b);

/* Subgraph inference shared by control-flow ops (infer_control.c). */
oa_status oa_infer_subgraph_bind(oa_infer_ctx *ctx, oa_graph *sg, uint32_t default_offset);

#endif /* OA_GRAPH_INFER_INTERNAL_H */
