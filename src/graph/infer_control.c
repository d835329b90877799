/*
 * Inference of graph-structure and control-flow ops: Data, Const,
 * Constant, FileConstant, NetOutput, Identity, If/StatelessIf, Case, While,
 * PartitionedCall. Subgraphs are bound to the parent's inputs through their
 * Data nodes and inferred in place (infer.h).
 */
#define OA_LOG_MODULE "GE"
#include <string.h>

#include "base/util.h"
#include "graph/infer_internal.h"

/* Copies everything inference owns from src to dst (dtype, shape, range,
 * origin shape, value); format, name and attrs of dst stay. */
static void copy_inferred(oa_tensor_desc *dst, const oa_tensor_desc *src)
{
    dst->dtype = src->dtype;
    dst->shape = src->shape;
    dst->has_range = src->has_range;
    memcpy(dst->range_min, src->range_min, sizeof(dst->range_min));
    memcpy(dst->range_max, src->range_max, sizeof(dst->range_max));
    dst->value = src->value;
}

oa_status oa_infer_data(oa_infer_ctx *ctx)
{
    const oa_tensor_desc *x = oa_infer_in(ctx, 0);
    if (x == NULL) {
        return IFAIL(ctx, OA_E_GE_PARAM, "Data node has no input descriptor");
    }
    if (ctx->num_out < 1) {
        return IFAIL(ctx, OA_E_GE_PARAM, "Data node has no output");
    }
    copy_inferred(ctx->out[0], x);
    return OA_OK;
}

oa_status oa_infer_const(oa_infer_ctx *ctx)
{
    const oa_tensor *t;
    oa_status st = oa_node_require_tensor(ctx->node, "value", &t);
    if (st != OA_OK) {
        return st;
    }
    if (ctx->num_out < 1) {
        return IFAIL(ctx, OA_E_GE_PARAM, "Const node has no output");
    }
    oa_tensor_desc *o = ctx->out[0];
    o->dtype = t->desc.dtype;
    o->shape = t->desc.shape;
    o->has_range = false;
    o->value = oa_infer_value_from_tensor(ctx, t, &st);
    return st;
}

oa_status oa_infer_file_constant(oa_infer_ctx *ctx)
{
    const int64_t *dims;
    size_t rank;
    oa_dtype dt;
    oa_status st = oa_node_require_list_int(ctx->node, "shape", &dims, &rank);
    if (st != OA_OK) {
        return st;
    }
    if (!oa_attrs_get_dtype(&ctx->node->attrs, "dtype", &dt)) {
        return IFAIL(ctx, OA_E_GE_PARAM, "misses a valid dtype attr");
    }
    if (rank > OA_MAX_RANK) {
        return IFAIL(ctx, OA_E_GE_SHAPE, "shape rank %zu exceeds %d", rank, OA_MAX_RANK);
    }
    oa_ishape s = oa_ishape_any((int32_t)rank);
    for (size_t i = 0; i < rank; i++) {
        if (dims[i] < 0) {
            return IFAIL(ctx, OA_E_GE_SHAPE, "shape dim %zu is negative (%lld)", i, (long long)dims[i]);
        }
        s.d[i] = oa_iv_fixed(dims[i]);
    }
    oa_infer_set_out(ctx, 0, dt, &s);
    return OA_OK;
}

oa_status oa_infer_net_output(oa_infer_ctx *ctx)
{
    for (uint32_t k = 0; k < ctx->num_out; k++) {
        const oa_tensor_desc *x = oa_infer_in(ctx, k);
        if (x == NULL) {
            return IFAIL(ctx, OA_E_GE_PARAM, "graph output %u is not connected", k);
        }
        copy_inferred(ctx->out[k], x);
    }
    return OA_OK;
}

oa_status oa_infer_identity(oa_infer_ctx *ctx)
{
    oa_status st = oa_infer_need_inputs(ctx, 1);
    if (st != OA_OK) {
        return st;
    }
    for (uint32_t k = 0; k < ctx->num_out; k++) {
        copy_inferred(ctx->out[k], ctx->in[0]);
    }
    return OA_OK;
}

/* ---- subgraphs ---- */

oa_status oa_infer_subgraph_bind(oa_infer_ctx *ctx, oa_graph *sg, uint32_t default_offset)
{
    for (oa_node *d = oa_graph_first_node(sg); d; d = d->next) {
        if (d->type != OA_OP_DATA) {
            continue;
        }
        int64_t p;
        if (!oa_attrs_get_int(&d->attrs, "_parent_node_index", &p)) {
            int64_t idx;
            if (!oa_attrs_get_int(&d->attrs, "index", &idx)) {
                return IFAIL(ctx, OA_E_GE_PARAM, "subgraph %s Data node %s has no index", oa_graph_name(sg),
                             d->name);
            }
            p = idx + (int64_t)default_offset;
        }
        const oa_tensor_desc *src = (p >= 0 && p < (int64_t)ctx->num_in) ? ctx->in[p] : NULL;
        if (src == NULL) {
            return IFAIL(ctx, OA_E_GE_PARAM, "subgraph %s Data node %s binds parent input %lld, which is absent",
                         oa_graph_name(sg), d->name, (long long)p);
        }
        if (d->num_inputs < 1) {
            return IFAIL(ctx, OA_E_GE_PARAM, "subgraph Data node %s has no input slot", d->name);
        }
        copy_inferred(&d->inputs[0].desc, src);
    }
    return oa_graph_infer(sg);
}

/* Output k of the parent from subgraph sg's NetOutput. */
static oa_status subgraph_outputs(oa_infer_ctx *ctx, const oa_graph *sg, const oa_tensor_desc **outs)
{
    const oa_node *no = oa_graph_output_node(sg);
    uint32_t n = no ? no->num_inputs : 0;
    if (n != ctx->num_out) {
        return IFAIL(ctx, OA_E_GE_PARAM, "subgraph %s returns %u outputs, the node has %u", oa_graph_name(sg), n,
                     ctx->num_out);
    }
    for (uint32_t k = 0; k < n; k++) {
        outs[k] = &no->inputs[k].desc;
    }
    return OA_OK;
}

/* out = merge of alternatives a and b (control-flow branches). */
static oa_status merge_into(oa_infer_ctx *ctx, uint32_t k, const oa_tensor_desc *b)
{
    oa_tensor_desc *o = ctx->out[k];
    if (o->dtype != b->dtype) {
        return IFAIL(ctx, OA_E_GE_DATATYPE, "branches return %s and %s for output %u", oa_dtype_name(o->dtype),
                     oa_dtype_name(b->dtype), k);
    }
    oa_ishape x = oa_ishape_of(o), y = oa_ishape_of(b);
    oa_ishape m;
    if (x.rank != y.rank || x.rank < 0) {
        m = oa_ishape_unknown();
    } else {
        m = x;
        m.ranged = x.ranged || y.ranged;
        for (int32_t i = 0; i < x.rank; i++) {
            bool fx = oa_iv_is_fixed(x.d[i]), fy = oa_iv_is_fixed(y.d[i]);
            if (fx && fy && x.d[i].lo == y.d[i].lo) {
                m.d[i] = x.d[i];
            } else {
                m.d[i] = oa_iv_hull(x.d[i], y.d[i]);
                if (fx && fy) {
                    m.ranged = true; /* two known alternatives: keep their hull */
                }
            }
        }
    }
    oa_infer_set_out(ctx, k, o->dtype, &m);
    return OA_OK;
}

static oa_status infer_branches(oa_infer_ctx *ctx, oa_graph **branches, uint32_t nb, int64_t selected,
                                uint32_t offset)
{
    const oa_tensor_desc *outs[64];
    if (ctx->num_out > OA_ARRAY_SIZE(outs)) {
        return IFAIL(ctx, OA_E_GE_PARAM, "too many outputs (%u)", ctx->num_out);
    }
    if (selected >= 0) {
        /* The branches not taken are inferred speculatively first so their
         * descs are filled where possible; failures there do not matter. */
        for (uint32_t b = 0; b < nb; b++) {
            if ((int64_t)b != selected) {
                oa_infer_quiet_enter();
                oa_status sst = oa_infer_subgraph_bind(ctx, branches[b], offset);
                oa_infer_quiet_leave();
                if (sst == OA_E_NOMEM) {
                    return sst;
                }
            }
        }
        oa_graph *sg = branches[selected];
        oa_status st = oa_infer_subgraph_bind(ctx, sg, offset);
        if (st == OA_OK) {
            st = subgraph_outputs(ctx, sg, outs);
        }
        for (uint32_t k = 0; k < ctx->num_out && st == OA_OK; k++) {
            copy_inferred(ctx->out[k], outs[k]);
        }
        return st;
    }
    /* Selector unknown: every branch is inferred speculatively; a branch
     * that cannot run with these shapes contributes nothing. */
    bool any = false;
    int64_t first_failed = -1;
    for (uint32_t b = 0; b < nb; b++) {
        oa_infer_quiet_enter();
        oa_status st = oa_infer_subgraph_bind(ctx, branches[b], offset);
        oa_infer_quiet_leave();
        if (st == OA_OK) {
            st = subgraph_outputs(ctx, branches[b], outs);
            if (st != OA_OK) {
                return st;
            }
        } else {
            if (st == OA_E_NOMEM) {
                return st;
            }
            if (first_failed < 0) {
                first_failed = b;
            }
            continue;
        }
        for (uint32_t k = 0; k < ctx->num_out && st == OA_OK; k++) {
            if (!any) {
                copy_inferred(ctx->out[k], outs[k]);
                ctx->out[k]->value = NULL;
            } else {
                st = merge_into(ctx, k, outs[k]);
            }
        }
        if (st != OA_OK) {
            return st;
        }
        any = true;
    }
    if (!any) {
        /* No branch works: report why the first one does not. */
        return oa_infer_subgraph_bind(ctx, branches[first_failed], offset);
    }
    return OA_OK;
}

/* Truthiness of a known selector per GE If: scalar / one element: != 0;
 * otherwise non-empty. -1 when unknown. */
static int known_cond(const oa_tensor_desc *c)
{
    if (c == NULL) {
        return -1;
    }
    int64_t n;
    if (oa_shape_numel(&c->shape, &n) && n != 1) {
        return n > 0;
    }
    if (c->value == NULL || c->value->count != 1 || !oa_value_known(c->value, 0)) {
        return -1;
    }
    return oa_value_get_f(c->value, 0) != 0.0;
}

oa_status oa_infer_if(oa_infer_ctx *ctx)
{
    oa_status st = oa_infer_need_inputs(ctx, 1);
    if (st != OA_OK) {
        return st;
    }
    oa_graph *br[2];
    br[0] = oa_node_subgraph_by_ir_name(ctx->node, "then_branch");
    br[1] = oa_node_subgraph_by_ir_name(ctx->node, "else_branch");
    if (br[0] == NULL || br[1] == NULL) {
        br[0] = oa_node_subgraph(ctx->node, 0);
        br[1] = oa_node_subgraph(ctx->node, 1);
    }
    if (br[0] == NULL || br[1] == NULL) {
        return IFAIL(ctx, OA_E_GE_PARAM, "needs then_branch and else_branch subgraphs");
    }
    int c = known_cond(ctx->in[0]);
    return infer_branches(ctx, br, 2, c < 0 ? -1 : (c ? 0 : 1), 1);
}

oa_status oa_infer_case(oa_infer_ctx *ctx)
{
    oa_status st = oa_infer_need_inputs(ctx, 1);
    if (st != OA_OK) {
        return st;
    }
    uint32_t nb = ctx->node->num_subgraphs;
    if (nb == 0 || nb > 1024) {
        return IFAIL(ctx, OA_E_GE_PARAM, "has %u branches", nb);
    }
    oa_graph *stackbr[16];
    oa_graph **br = stackbr;
    if (nb > 16) {
        br = oa_arena_array(ctx->arena, nb, sizeof(*br));
        if (br == NULL) {
            return OA_E_NOMEM;
        }
    }
    for (uint32_t i = 0; i < nb; i++) {
        br[i] = ctx->node->subgraphs[i].graph;
    }
    int64_t sel = -1;
    const oa_value *v = ctx->in[0]->value;
    if (v && v->count == 1 && oa_value_known(v, 0)) {
        sel = oa_value_get_i(v, 0);
        if (sel < 0 || sel >= (int64_t)nb) {
            sel = nb - 1; /* out of range selects the last (default) branch */
        }
    }
    return infer_branches(ctx, br, nb, sel, 1);
}

oa_status oa_infer_partitioned_call(oa_infer_ctx *ctx)
{
    oa_graph *f = oa_node_subgraph_by_ir_name(ctx->node, "f");
    if (f == NULL) {
        f = oa_node_subgraph(ctx->node, 0);
    }
    if (f == NULL) {
        return IFAIL(ctx, OA_E_GE_PARAM, "has no subgraph f");
    }
    return infer_branches(ctx, &f, 1, 0, 0);
}

oa_status oa_infer_while(oa_infer_ctx *ctx)
{
    oa_graph *cond = oa_node_subgraph_by_ir_name(ctx->node, "cond");
    oa_graph *body = oa_node_subgraph_by_ir_name(ctx->node, "body");
    if (cond == NULL || body == NULL) {
        cond = oa_node_subgraph(ctx->node, 0);
        body = oa_node_subgraph(ctx->node, 1);
    }
    if (cond == NULL || body == NULL) {
        return IFAIL(ctx, OA_E_GE_PARAM, "needs cond and body subgraphs");
    }
    if (ctx->num_in != ctx->num_out) {
        return IFAIL(ctx, OA_E_GE_PARAM, "has %u inputs and %u outputs; loop variables must match", ctx->num_in,
                     ctx->num_out);
    }
    oa_status st = oa_infer_need_inputs(ctx, ctx->num_in);
    if (st != OA_OK) {
        return st;
    }
    /* Loop variables start as the inputs and widen until the body maps
     * them onto themselves (at most a few rounds: dims only get unknown). */
    oa_tensor_desc *vars = oa_arena_array(ctx->arena, ctx->num_in ? ctx->num_in : 1, sizeof(*vars));
    const oa_tensor_desc **vin = oa_arena_array(ctx->arena, ctx->num_in ? ctx->num_in : 1, sizeof(*vin));
    if (vars == NULL || vin == NULL) {
        return OA_E_NOMEM;
    }
    for (uint32_t k = 0; k < ctx->num_in; k++) {
        vars[k] = *ctx->in[k];
        vars[k].value = NULL;
        vin[k] = &vars[k];
    }
    oa_infer_ctx loop = *ctx;
    loop.in = vin;
    for (int round = 0; round < 4; round++) {
        const oa_tensor_desc *outs[64];
        if (ctx->num_out > OA_ARRAY_SIZE(outs)) {
            return IFAIL(ctx, OA_E_GE_PARAM, "too many loop variables (%u)", ctx->num_out);
        }
        st = oa_infer_subgraph_bind(&loop, body, 0);
        if (st == OA_OK) {
            st = subgraph_outputs(ctx, body, outs);
        }
        if (st != OA_OK) {
            return st;
        }
        bool stable = true;
        for (uint32_t k = 0; k < ctx->num_out; k++) {
            copy_inferred(ctx->out[k], &vars[k]);
            st = merge_into(ctx, k, outs[k]);
            if (st != OA_OK) {
                return st;
            }
            if (!oa_shape_equal(&ctx->out[k]->shape, &vars[k].shape)) {
                stable = false;
            }
            vars[k].shape = ctx->out[k]->shape;
            vars[k].has_range = ctx->out[k]->has_range;
            memcpy(vars[k].range_min, ctx->out[k]->range_min, sizeof(vars[k].range_min));
            memcpy(vars[k].range_max, ctx->out[k]->range_max, sizeof(vars[k].range_max));
        }
        if (stable) {
            /* a dim the body changes has no bound: the loop may run any number of times */
            for (uint32_t k = 0; k < ctx->num_out; k++) {
                oa_tensor_desc *o = ctx->out[k];
                for (int32_t d = 0; o->has_range && d < o->shape.rank; d++) {
                    if (o->shape.dims[d] < 0) {
                        o->range_max[d] = -1;
                    }
                }
            }
            return oa_infer_subgraph_bind(&loop, cond, 0);
        }
    }
    for (uint32_t k = 0; k < ctx->num_out; k++) {
        ctx->out[k]->shape = oa_shape_unknown_rank();
        ctx->out[k]->has_range = false;
    }
    return OA_OK;
}

/*
 * MapIndex (multi-batch gear selection): y is an INT32 scalar, the row of
 * data_seq (a flat list of rows of numel(x) entries) equal to x. Known when
 * both inputs are known; a row that does not exist gives -1.
 */
oa_status oa_infer_map_index(oa_infer_ctx *ctx)
{
    oa_status st = oa_infer_need_inputs(ctx, 2);
    if (st != OA_OK) {
        return st;
    }
    const oa_tensor_desc *x = ctx->in[0], *seq = ctx->in[1];
    if (!oa_dtype_is_int(x->dtype) || !oa_dtype_is_int(seq->dtype)) {
        return IFAIL(ctx, OA_E_GE_DATATYPE, "x and data_seq must be integers, got %s and %s",
                     oa_dtype_name(x->dtype), oa_dtype_name(seq->dtype));
    }
    if (x->shape.rank > 1 || seq->shape.rank > 1) {
        return IFAIL(ctx, OA_E_GE_SHAPE, "x and data_seq must be 1-D (ranks %d and %d)", (int)x->shape.rank,
                     (int)seq->shape.rank);
    }
    oa_ishape o = oa_ishape_any(0);
    oa_infer_set_out(ctx, 0, OA_DT_INT32, &o);
    int64_t xv[OA_VALUE_MAX_INT_ELEMS], sv[OA_VALUE_MAX_INT_ELEMS];
    size_t nx, ns;
    if (!oa_infer_in_ints(ctx, 0, xv, OA_ARRAY_SIZE(xv), &nx) || !oa_infer_in_ints(ctx, 1, sv, OA_ARRAY_SIZE(sv), &ns) ||
        nx == 0) {
        return OA_OK;
    }
    int64_t found = -1;
    for (size_t row = 0; (row + 1) * nx <= ns && found < 0; row++) {
        if (memcmp(&sv[row * nx], xv, nx * sizeof(int64_t)) == 0) {
            found = (int64_t)row;
        }
    }
    oa_value *v = oa_infer_new_value(ctx, OA_DT_INT32, 1, &st);
    if (v == NULL) {
        return st;
    }
    oa_value_put(v, 0, 0, found, false);
    ctx->out[0]->value = v;
    return OA_OK;
}
