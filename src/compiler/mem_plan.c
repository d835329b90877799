/*
 * Static memory planning of a compiled model over its graphs (compiler.h
 * oa_mem_plan): every activation gets an offset in the feature map, model
 * inputs/outputs get zero-copy slots, control-flow subgraphs get a region of
 * their owner. The placement itself is the pure planner (mem/planner.h);
 * this file turns graphs into its {size, first_use, last_use,
 * inplace_candidate} lists and back.
 *
 * Frames: a graph's values are planned relative to the start of its frame.
 * The root frame starts at 0. A control-flow node gets one extra value, its
 * workspace, and its subgraphs' frames start there (If/Case/PartitionedCall
 * branches share it; While puts cond, then body). Subgraph Data nodes are
 * the owner's inputs and (except under While, whose loop-carried values
 * need their own buffers) the tensors a subgraph returns are written
 * straight into the owner's outputs. Sizes of subgraphs are measured by
 * planning them once without committing, then the frames are committed top
 * down (the planner is deterministic, so both runs agree).
 *
 * Concat in place (docs/memory.md): an input of a Concat whose inputs lie
 * back to back in its output is pinned inside that output, at its offset
 * there, together with the values a view op (Reshape, Squeeze, ...) made it
 * from; the producers then write straight into the Concat's output and the
 * Concat kernel finds nothing to copy. The output carries the lifetimes of
 * its parts.
 */
#define OA_LOG_MODULE "GE"
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"
#include "compiler/compiler_internal.h"
#include "compiler/pass_util.h"

bool oa_desc_bytes(const oa_tensor_desc *d, size_t *out)
{
    return oa_tensor_nbytes(d->dtype, &d->shape, out);
}

const oa_node_mem *oa_mem_plan_node(const oa_mem_plan *p, const oa_node *n)
{
    if (p == NULL || n == NULL || n->id >= p->num_ids || p->nodes[n->id].output == NULL) {
        return NULL;
    }
    return &p->nodes[n->id];
}

static bool is_weight(const oa_node *n)
{
    return n->type == OA_OP_CONST || n->type == OA_OP_CONSTANT || n->type == OA_OP_FILE_CONSTANT;
}

/* The output desc behind input slot s of n (the producer's), or NULL. */
static const oa_tensor_desc *input_desc(const oa_node *n, uint32_t s)
{
    uint32_t si;
    const oa_node *src = oa_node_input_src(n, s, &si);
    return src != NULL && si < src->num_outputs ? &src->outputs[si].desc : NULL;
}

/* Does another input slot of n than s read the same value? */
static bool read_twice(const oa_node *n, uint32_t s)
{
    uint32_t si, sj;
    const oa_node *a = oa_node_input_src(n, s, &si);
    for (uint32_t j = 0; j < n->num_inputs; j++) {
        if (j != s && oa_node_input_src(n, j, &sj) == a && sj == si) {
            return true;
        }
    }
    return false;
}

bool oa_mem_concat_window_in_place(const oa_node *n, uint32_t slot)
{
    int64_t axis = oa_node_attr_int(n, "concat_dim", 0), off, len, at = 0, dummy;
    const oa_tensor_desc *y = &n->outputs[0].desc, *x = slot < n->num_inputs ? input_desc(n, slot) : NULL;
    if ((n->type != OA_OP_CONCAT_D && n->type != OA_OP_CONCAT_V2_D) || n->num_outputs != 1 || x == NULL ||
        !oa_node_concat_window(n, slot, &off, &len) || y->format == OA_FORMAT_NC1HWC0 || x->format == OA_FORMAT_NC1HWC0 ||
        x->dtype != y->dtype || !oa_shape_equal(&x->shape, &y->shape) || !oa_shape_is_static(&y->shape) ||
        read_twice(n, slot)) {
        return false;
    }
    axis = axis < 0 ? axis + y->shape.rank : axis;
    if (axis < 0 || axis >= y->shape.rank) {
        return false;
    }
    for (uint32_t i = 0; i < slot; i++) { /* where the window goes in y along the axis */
        const oa_tensor_desc *d = input_desc(n, i);
        if (d == NULL || d->shape.rank != y->shape.rank) {
            return false;
        }
        at += oa_node_concat_window(n, i, &dummy, &len) ? len : d->shape.dims[axis];
    }
    return at == off;
}

bool oa_mem_concat_slot_offset(const oa_node *n, uint32_t slot, size_t *off)
{
    int64_t axis = 0;
    if ((n->type != OA_OP_CONCAT_D && n->type != OA_OP_CONCAT_V2_D) || n->num_outputs != 1 ||
        slot >= n->num_inputs || oa_attrs_find(&n->attrs, "_oa_concat_windows") != NULL ||
        (!oa_attrs_get_int(&n->attrs, "concat_dim", &axis) && !oa_attrs_get_int(&n->attrs, "axis", &axis))) {
        return false;
    }
    const oa_tensor_desc *y = &n->outputs[0].desc;
    const bool blocked = y->format == OA_FORMAT_NC1HWC0;
    /* NC1HWC0: the axis is C of the origin NCHW shape, which is C1 of the 5-D one */
    const int32_t rank = blocked ? 4 : y->shape.rank;
    if (rank <= 0 || rank > OA_MAX_RANK || axis < -rank || axis >= rank) {
        return false;
    }
    axis = axis < 0 ? axis + rank : axis;
    if (blocked && (axis != 1 || y->shape.rank != 5 || !y->origin_shape_set || y->origin_shape.rank != 4)) {
        return false;
    }
    for (int64_t d = 0; d < axis; d++) {
        if (y->shape.dims[d] != 1) {
            return false; /* several outer rows: the inputs interleave */
        }
    }
    size_t at = 0;
    for (uint32_t i = 0; i < slot; i++) {
        const oa_tensor_desc *d = input_desc(n, i);
        size_t b;
        if (d == NULL || d->dtype != y->dtype || (d->format == OA_FORMAT_NC1HWC0) != blocked || !oa_desc_bytes(d, &b) ||
            (blocked && (!d->origin_shape_set || d->origin_shape.rank != 4 || d->origin_shape.dims[1] % 16 != 0)) ||
            !oa_add_size(at, b, &at)) {
            return false;
        }
    }
    if (at % OA_PLANNER_ALIGN != 0) {
        return false;
    }
    *off = at;
    return true;
}

/* ------------------------------------------------------------------------ */

/* How a graph's tensors relate to its owner. */
typedef enum frame_kind {
    FRAME_ROOT,  /* model inputs/outputs: zero-copy slots */
    FRAME_ALIAS, /* subgraph: Data = owner inputs, results = owner outputs */
    FRAME_OWN    /* subgraph under While: everything planned here */
} frame_kind;

typedef struct val {
    oa_node *node;
    int32_t out;     /* output index, -1 for the workspace of a control-flow node */
} val;

/* A value that lies inside another one (Concat in place). */
typedef struct pin {
    const oa_node *node; /* the value it lies in: output `out` of node; NULL: not pinned */
    uint32_t out;
    size_t at;           /* bytes from that value's start */
} pin;

typedef struct gplan {
    oa_node **order;
    size_t count;
    val *vals;
    oa_plan_value *pv;
    pin *pins;
    size_t *off;
    size_t nv;
    size_t total;
    oa_plan_stats stats;
} gplan;

static void gplan_free(gplan *p)
{
    free(p->order);
    free(p->vals);
    free(p->pv);
    free(p->pins);
    free(p->off);
    memset(p, 0, sizeof(*p));
}

static uint32_t parent_slot(const oa_node *owner, const oa_node *data)
{
    int64_t p;
    if (oa_attrs_get_int(&data->attrs, "_parent_node_index", &p)) {
        return (uint32_t)p;
    }
    int64_t idx = oa_node_attr_int(data, "index", 0);
    bool selector = owner->type == OA_OP_IF || owner->type == OA_OP_STATELESS_IF || owner->type == OA_OP_CASE;
    return (uint32_t)(idx + (selector ? 1 : 0));
}

/* Output k of n is returned by the graph (read by its NetOutput); *once
 * when exactly one NetOutput slot reads it. */
static bool graph_result(const oa_node *n, uint32_t k, bool *once)
{
    size_t cnt = oa_cp_num_uses(n, k);
    if (cnt == 0) {
        *once = false;
        return false;
    }
    oa_use *u = malloc(cnt * sizeof(*u));
    if (u == NULL) {
        *once = false;
        return true;
    }
    (void)oa_node_output_uses(n, k, u, cnt);
    size_t outs = 0;
    for (size_t i = 0; i < cnt; i++) {
        outs += u[i].node->type == OA_OP_NET_OUTPUT;
    }
    free(u);
    *once = outs == 1;
    return outs > 0;
}

/* Is output k of n planned in this frame (not a weight, not external)? */
static bool planned_here(const oa_node *n, uint32_t k, frame_kind fk)
{
    if (is_weight(n) || n->type == OA_OP_NET_OUTPUT) {
        return false;
    }
    if (n->type == OA_OP_DATA) {
        return fk == FRAME_OWN;
    }
    bool once;
    bool result = graph_result(n, k, &once);
    if (!result) {
        return true;
    }
    if (fk == FRAME_ROOT) {
        return false; /* zero-copy slot (first graph output using it) */
    }
    return !(fk == FRAME_ALIAS && once);
}

static oa_status subgraph_size(oa_mem_plan *plan, const oa_node *n, size_t *size);

/* Index of the planner value for (node, out) or -1. */
static int32_t find_val(const gplan *p, const oa_node *node, int32_t out)
{
    /* Values are few per node and appended in node order: scan by node->mark. */
    if (node->mark == 0) {
        return -1;
    }
    for (size_t i = node->mark - 1; i < p->nv && p->vals[i].node == node; i++) {
        if (p->vals[i].out == out) {
            return (int32_t)i;
        }
    }
    return -1;
}

/* The input slot whose bytes output 0 of n keeps (a view op's input, a Concat's window in place), or UINT32_MAX. */
static uint32_t same_bytes_slot(const oa_node *n)
{
    if ((oa_op_flags(n->type) & OA_OPF_VIEW) && n->num_inputs >= 1 && n->num_outputs == 1) {
        return 0;
    }
    for (uint32_t s = 0; s < n->num_inputs; s++) {
        if (oa_mem_concat_window_in_place(n, s)) {
            return s;
        }
    }
    return UINT32_MAX;
}

/*
 * The residual operand of a Conv2D post-op host whose chain starts with that Add: every conv path
 * adds a first residual where it may alias y (oneDNN's sum post-op reads y before writing it, the
 * Winograd, stem and few-position GEMV paths and the NCHW unpack add it while writing, the 1x1-map
 * GEMV starts from bias + residual, the NHWC path adds it in its copy back). Not a MatMul's: its epilogue
 * adds the residual after the primitive wrote c; nor a later Add of the chain, nor a transposed
 * conv's (docs/memory.md "Residuals in place").
 */
static bool residual_in_place(const oa_node *n, uint32_t s)
{
    const char *const *ops = NULL;
    size_t count = 0;
    const int64_t base = oa_node_attr_int(n, "_oa_post_input_base", -1);
    return oa_cp_conv_packed(n) && base >= 0 && (int64_t)s == base &&
           oa_attrs_get_list_str(&n->attrs, "_oa_post_ops", &ops, &count) && count > 0 && ops[0] != NULL &&
           strcmp(ops[0], "Add") == 0;
}

/* In-place candidate of output 0 of n (a value index) or -1. */
bool oa_mem_inplace_slot(const oa_node *n, uint32_t s)
{
    if (n->num_outputs != 1 || s >= n->num_inputs) {
        return false;
    }
    /* The kernels allow these (op_defs.inc F_INPLACE / F_INPLACE_EQ). */
    const unsigned flags = oa_op_flags(n->type);
    if (flags & OA_OPF_INPLACE) {
        return s == 0;
    }
    if ((flags & OA_OPF_INPLACE_EQ) && n->num_inputs == 2) { /* the first input of y's shape */
        const bool first = oa_shape_equal(&n->inputs[0].desc.shape, &n->outputs[0].desc.shape);
        return (s == 0 && first) || (s == 1 && !first && oa_shape_equal(&n->inputs[1].desc.shape,
                                                                          &n->outputs[0].desc.shape));
    }
    if (oa_cp_is_post_op_host(n)) {
        return residual_in_place(n, s);
    }
    return oa_mem_concat_window_in_place(n, s); /* a Concat over a window in place */
}

bool oa_mem_inplace_last_reader(const oa_node *n, uint32_t s)
{
    if (oa_mem_concat_window_in_place(n, s)) {
        return true;
    }
    return s < n->num_inputs && residual_in_place(n, s) && !read_twice(n, s);
}

static int32_t inplace_candidate(const gplan *p, const oa_node *n, size_t size)
{
    for (uint32_t s = 0; s < n->num_inputs; s++) {
        if (!oa_mem_inplace_slot(n, s)) {
            continue;
        }
        uint32_t si;
        const oa_node *src = oa_node_input_src(n, s, &si);
        /* Layouts must match: blocked (NC1HWC0) and plain (NCHW, ND, ...) never share. */
        bool src_blocked = src && src->outputs[si].desc.format == OA_FORMAT_NC1HWC0;
        bool dst_blocked = n->outputs[0].desc.format == OA_FORMAT_NC1HWC0;
        /* one reader, but a window's source or a residual may have others (the planner checks that it dies here) */
        if (src == NULL || src_blocked != dst_blocked ||
            (oa_cp_num_uses(src, si) != 1 && !oa_mem_inplace_last_reader(n, s))) {
            continue;
        }
        int32_t v = find_val(p, src, (int32_t)si);
        if (v >= 0 && p->pv[v].size == size) {
            return v;
        }
    }
    return -1;
}

/*
 * Concat in place: pins each input of a back-to-back Concat (and, through
 * view ops, the single-use values it is a view of) inside the Concat's
 * output when the output has memory of this frame or is a model output
 * (zero-copy slot). Pinned values get size 0 for the planner; the value
 * they end up inside takes their lifetimes. Called before the in-place
 * candidates are chosen.
 */
static void pin_concat_parts(gplan *p, frame_kind fk)
{
    for (size_t i = 0; i < p->count; i++) {
        const oa_node *n = p->order[i];
        size_t at;
        if (!oa_mem_concat_slot_offset(n, 0, &at) ||
            !(find_val(p, n, 0) >= 0 || (fk == FRAME_ROOT && oa_cp_is_graph_output(n, 0)))) {
            continue;
        }
        for (uint32_t s = 0; s < n->num_inputs && oa_mem_concat_slot_offset(n, s, &at); s++) {
            uint32_t si;
            const oa_node *src = oa_node_input_src(n, s, &si);
            int32_t v = src != NULL ? find_val(p, src, (int32_t)si) : -1;
            if (v < 0 || p->pins[v].node != NULL || p->pv[v].size == 0 || src->type == OA_OP_DATA || read_twice(n, s)) {
                continue;
            }
            p->pins[v] = (pin){n, 0, at};
            /* y = view(x), x read only there: x's bytes are y's; so are the bytes of x when y is a
             * Concat over a window of x in place and x dies there */
            for (uint32_t xs; (xs = same_bytes_slot(src)) != UINT32_MAX;) {
                uint32_t xi;
                const oa_node *x = oa_node_input_src(src, xs, &xi);
                int32_t vx = x != NULL ? find_val(p, x, (int32_t)xi) : -1;
                if (vx < 0 || p->pins[vx].node != NULL || p->pv[vx].size != p->pv[v].size || x->type == OA_OP_DATA ||
                    ((oa_op_flags(src->type) & OA_OPF_VIEW) && oa_cp_num_uses(x, xi) != 1) ||
                    p->pv[vx].last_use != p->pv[v].first_use) {
                    break;
                }
                p->pins[vx] = (pin){src, 0, 0};
                src = x;
                v = vx;
            }
        }
    }
    /* the outermost planned value holds every lifetime of what lies in it */
    for (size_t v = 0; v < p->nv; v++) {
        if (p->pins[v].node == NULL) {
            continue;
        }
        int32_t r = (int32_t)v;
        while (r >= 0 && p->pins[r].node != NULL) {
            r = find_val(p, p->pins[r].node, (int32_t)p->pins[r].out);
        }
        if (r >= 0) {
            p->pv[r].first_use = OA_MIN(p->pv[r].first_use, p->pv[v].first_use);
            p->pv[r].last_use = OA_MAX(p->pv[r].last_use, p->pv[v].last_use);
        }
    }
    for (size_t v = 0; v < p->nv; v++) {
        if (p->pins[v].node != NULL) {
            p->pv[v].size = 0;
        }
    }
}

/*
 * Plans graph g in frame kind fk: fills p (values, offsets, total). Uses
 * node->mark as scratch (1 + index of the node's first value, 0 = none).
 */
static oa_status plan_frame(oa_mem_plan *plan, oa_graph *g, frame_kind fk, gplan *p)
{
    memset(p, 0, sizeof(*p));
    oa_status st = oa_graph_topo_order(g, &p->order, &p->count);
    if (st != OA_OK) {
        return st;
    }
    size_t cap = 0;
    for (size_t i = 0; i < p->count; i++) {
        cap += p->order[i]->num_outputs + 1;
        p->order[i]->mark = (uint32_t)i; /* step, for lifetimes below */
    }
    p->vals = malloc((cap ? cap : 1) * sizeof(val));
    p->pv = malloc((cap ? cap : 1) * sizeof(oa_plan_value));
    p->pins = calloc(cap ? cap : 1, sizeof(pin));
    p->off = malloc((cap ? cap : 1) * sizeof(size_t));
    int32_t *step = malloc((p->count ? p->count : 1) * sizeof(int32_t));
    if (p->vals == NULL || p->pv == NULL || p->pins == NULL || p->off == NULL || step == NULL) {
        free(step);
        return OA_FAIL(OA_E_NOMEM, "out of memory planning graph %s", oa_graph_name(g));
    }
    for (size_t i = 0; i < p->count; i++) {
        step[i] = (int32_t)i;
    }
    int32_t last_step = p->count ? (int32_t)p->count - 1 : 0;
    /* First pass: lifetimes need every consumer's step; node->mark holds it. */
    for (size_t i = 0; i < p->count && st == OA_OK; i++) {
        oa_node *n = p->order[i];
        for (uint32_t k = 0; k < n->num_outputs; k++) {
            if (!planned_here(n, k, fk)) {
                continue;
            }
            size_t size;
            if (!oa_desc_bytes(&n->outputs[k].desc, &size)) {
                char b[128];
                st = OA_FAIL(OA_E_GE_SHAPE, "cannot plan memory for output %u of %s (%s): %s is not static", k,
                             n->name, n->type_name, oa_desc_str(&n->outputs[k].desc, b, sizeof(b)));
                break;
            }
            int32_t last = step[i];
            size_t nu = oa_cp_num_uses(n, k);
            oa_use ustack[8];
            oa_use *u = nu <= 8 ? ustack : malloc(nu * sizeof(*u));
            if (u == NULL) {
                st = OA_FAIL(OA_E_NOMEM, "out of memory planning %s", n->name);
                break;
            }
            (void)oa_node_output_uses(n, k, u, nu);
            for (size_t j = 0; j < nu; j++) {
                last = OA_MAX(last, (int32_t)u[j].node->mark);
            }
            if (u != ustack) {
                free(u);
            }
            if (n->type == OA_OP_DATA || (fk != FRAME_ROOT && graph_result(n, k, &(bool){false}))) {
                /* Own-frame inputs live from the start; returned values to the end. */
                last = last_step;
            }
            p->vals[p->nv] = (val){n, (int32_t)k};
            p->pv[p->nv] = (oa_plan_value){size, n->type == OA_OP_DATA ? 0 : step[i], last, -1};
            if (plan->no_reuse) {
                p->pv[p->nv].first_use = 0;
                p->pv[p->nv].last_use = last_step;
            }
            p->nv++;
        }
        if (n->num_subgraphs > 0 && st == OA_OK) {
            size_t ws = 0;
            st = subgraph_size(plan, n, &ws);
            /* subgraph planning reused node->mark: restore this graph's steps */
            for (size_t j = 0; j < p->count; j++) {
                p->order[j]->mark = (uint32_t)j;
            }
            if (st == OA_OK) {
                p->vals[p->nv] = (val){n, -1};
                p->pv[p->nv] = (oa_plan_value){ws, plan->no_reuse ? 0 : step[i], plan->no_reuse ? last_step : step[i],
                                               -1};
                p->nv++;
            }
        }
    }
    /* node->mark := 1 + index of the node's first value (for find_val). */
    for (size_t i = 0; i < p->count; i++) {
        p->order[i]->mark = 0;
    }
    for (size_t v = p->nv; v-- > 0;) {
        p->vals[v].node->mark = (uint32_t)v + 1;
    }
    if (st == OA_OK && !plan->no_reuse) {
        pin_concat_parts(p, fk);
    }
    for (size_t v = 0; v < p->nv && st == OA_OK && !plan->no_reuse; v++) {
        if (p->vals[v].out == 0 && p->pins[v].node == NULL) {
            int32_t c = inplace_candidate(p, p->vals[v].node, p->pv[v].size);
            p->pv[v].inplace_candidate = c >= 0 && p->pins[c].node != NULL ? -1 : c;
        }
    }
    free(step);
    if (st == OA_OK) {
        st = oa_planner_plan(p->pv, p->nv, OA_PLANNER_ALIGN, p->off, &p->total, &p->stats);
    }
    return st;
}

static frame_kind child_kind(const oa_node *owner)
{
    return owner->type == OA_OP_WHILE ? FRAME_OWN : FRAME_ALIAS;
}

/* Region size of a control-flow node's subgraphs. */
static oa_status subgraph_size(oa_mem_plan *plan, const oa_node *n, size_t *size)
{
    size_t total = 0;
    for (uint32_t i = 0; i < n->num_subgraphs; i++) {
        gplan p;
        oa_status st = plan_frame(plan, n->subgraphs[i].graph, child_kind(n), &p);
        size_t t = p.total;
        gplan_free(&p);
        if (st != OA_OK) {
            return st;
        }
        size_t at;
        if (!oa_align_up(t, OA_PLANNER_ALIGN, &at)) {
            return OA_FAIL(OA_E_GE_PARAM, "subgraph region of %s overflows", n->name);
        }
        total = (n->type == OA_OP_WHILE) ? total + at : OA_MAX(total, at);
    }
    *size = total;
    return OA_OK;
}

static oa_status node_rec(oa_mem_plan *plan, const oa_node *n, oa_node_mem **out)
{
    if (n->id >= plan->num_ids) {
        return OA_FAIL(OA_E_INTERNAL, "node %s id %u beyond the plan (%u ids)", n->name, n->id, plan->num_ids);
    }
    oa_node_mem *r = &plan->nodes[n->id];
    if (r->output == NULL) {
        r->num_outputs = n->num_outputs;
        r->num_inputs = n->num_inputs;
        r->output = malloc((n->num_outputs + 1) * sizeof(int64_t));
        r->input = malloc((n->num_inputs + 1) * sizeof(int64_t));
        if (r->output == NULL || r->input == NULL) {
            return OA_FAIL(OA_E_NOMEM, "out of memory for the plan of %s", n->name);
        }
        for (uint32_t k = 0; k < n->num_outputs; k++) {
            r->output[k] = OA_MEM_NONE;
        }
        for (uint32_t i = 0; i < n->num_inputs; i++) {
            r->input[i] = OA_MEM_NONE;
        }
        r->workspace = OA_MEM_NONE;
        r->workspace_size = 0;
    }
    *out = r;
    return OA_OK;
}

/*
 * Commits graph g at frame base `base`. in_alias/out_alias: the owner's
 * input/output offsets (FRAME_ALIAS), NULL otherwise. For the root,
 * io_slot[] gives the zero-copy slots (Data by index, then outputs).
 */
typedef struct root_io {
    const int64_t *data_slot; /* by Data index */
    size_t num_data;
    const int64_t *out_slot;  /* by NetOutput input */
    size_t num_out;
} root_io;

static oa_status commit_frame(oa_mem_plan *plan, oa_graph *g, frame_kind fk, int64_t base, const oa_node *owner,
                              const root_io *io)
{
    gplan p;
    oa_status st = plan_frame(plan, g, fk, &p);
    if (st != OA_OK) {
        gplan_free(&p);
        return st;
    }
    oa_node *net_out = NULL;
    /* Outputs: planned values, then externals. */
    for (size_t i = 0; i < p.count && st == OA_OK; i++) {
        oa_node *n = p.order[i];
        oa_node_mem *r = NULL;
        st = node_rec(plan, n, &r);
        if (st != OA_OK) {
            break;
        }
        if (n->type == OA_OP_NET_OUTPUT) {
            net_out = n;
        }
        for (uint32_t k = 0; k < n->num_outputs; k++) {
            int32_t v = find_val(&p, n, (int32_t)k);
            if (v >= 0) {
                r->output[k] = base + (int64_t)p.off[v];
                continue;
            }
            if (is_weight(n) || n->type == OA_OP_NET_OUTPUT) {
                continue;
            }
            if (n->type == OA_OP_DATA) {
                if (fk == FRAME_ROOT) {
                    int64_t idx = oa_node_attr_int(n, "index", -1);
                    r->output[k] = (idx >= 0 && (size_t)idx < io->num_data) ? io->data_slot[idx] : OA_MEM_NONE;
                } else if (fk == FRAME_ALIAS) {
                    const oa_node_mem *orec = oa_mem_plan_node(plan, owner);
                    uint32_t ps = parent_slot(owner, n);
                    r->output[k] = (orec && ps < orec->num_inputs) ? orec->input[ps] : OA_MEM_NONE;
                }
                continue;
            }
            /* A graph result: the slot of the first NetOutput input reading it. */
            size_t nu = oa_cp_num_uses(n, k);
            oa_use *u = malloc((nu ? nu : 1) * sizeof(*u));
            if (u == NULL) {
                st = OA_FAIL(OA_E_NOMEM, "out of memory planning %s", n->name);
                break;
            }
            (void)oa_node_output_uses(n, k, u, nu);
            for (size_t j = 0; j < nu; j++) {
                if (u[j].node->type != OA_OP_NET_OUTPUT) {
                    continue;
                }
                if (fk == FRAME_ROOT) {
                    r->output[k] = u[j].input < io->num_out ? io->out_slot[u[j].input] : OA_MEM_NONE;
                } else {
                    const oa_node_mem *orec = oa_mem_plan_node(plan, owner);
                    r->output[k] = (orec && u[j].input < orec->num_outputs) ? orec->output[u[j].input] : OA_MEM_NONE;
                }
                break;
            }
            free(u);
        }
        int32_t w = find_val(&p, n, -1);
        if (w >= 0) {
            r->workspace = base + (int64_t)p.off[w];
            r->workspace_size = (int64_t)p.pv[w].size;
        }
    }
    /* Pinned values: inside what they are pinned to, which comes later in the
     * schedule (so it is final when walking the values backwards). */
    for (size_t v = p.nv; v-- > 0 && st == OA_OK;) {
        const pin *pn = &p.pins[v];
        if (pn->node == NULL) {
            continue;
        }
        const int64_t at = plan->nodes[pn->node->id].output[pn->out];
        if (at < 0) {
            st = OA_FAIL(OA_E_INTERNAL, "plan: %s lies in %s, which has no memory", p.vals[v].node->name,
                         pn->node->name);
            break;
        }
        plan->nodes[p.vals[v].node->id].output[p.vals[v].out] = at + (int64_t)pn->at;
    }
    /* Inputs: what each slot reads. */
    for (size_t i = 0; i < p.count && st == OA_OK; i++) {
        oa_node *n = p.order[i];
        oa_node_mem *r = &plan->nodes[n->id];
        for (uint32_t s = 0; s < n->num_inputs; s++) {
            uint32_t si;
            const oa_node *src = oa_node_input_src(n, s, &si);
            if (src == NULL) {
                continue;
            }
            if (n == net_out && fk == FRAME_ROOT) {
                r->input[s] = s < io->num_out ? io->out_slot[s] : OA_MEM_NONE;
            } else if (n == net_out && fk == FRAME_ALIAS) {
                const oa_node_mem *orec = oa_mem_plan_node(plan, owner);
                r->input[s] = (orec && s < orec->num_outputs) ? orec->output[s] : OA_MEM_NONE;
            } else {
                const oa_node_mem *pr = &plan->nodes[src->id];
                r->input[s] = (pr->output && si < pr->num_outputs) ? pr->output[si] : OA_MEM_NONE;
            }
        }
    }
    /* Subgraph frames, top down. */
    for (size_t i = 0; i < p.count && st == OA_OK; i++) {
        oa_node *n = p.order[i];
        int64_t at = plan->nodes[n->id].workspace;
        for (uint32_t sgi = 0; sgi < n->num_subgraphs && st == OA_OK; sgi++) {
            oa_graph *sg = n->subgraphs[sgi].graph;
            st = commit_frame(plan, sg, child_kind(n), at, n, NULL);
            if (st == OA_OK && n->type == OA_OP_WHILE) {
                /* While: cond's region, then body's (both alive across iterations). */
                gplan q;
                st = plan_frame(plan, sg, FRAME_OWN, &q);
                size_t a = 0;
                if (st == OA_OK && !oa_align_up(q.total, OA_PLANNER_ALIGN, &a)) {
                    st = OA_FAIL(OA_E_GE_PARAM, "subgraph region of %s overflows", n->name);
                }
                at += (int64_t)a;
                for (size_t j = 0; j < q.count; j++) {
                    q.order[j]->mark = 0;
                }
                gplan_free(&q);
            }
        }
    }
    if (fk == FRAME_ROOT) {
        plan->stats = p.stats;
        plan->feature_map_size = (int64_t)p.total;
    }
    for (size_t i = 0; i < p.count; i++) {
        p.order[i]->mark = 0;
    }
    gplan_free(&p);
    return st;
}

static void collect_max_id(const oa_graph *g, uint32_t *max)
{
    for (const oa_node *n = oa_graph_first_node(g); n; n = n->next) {
        *max = OA_MAX(*max, n->id + 1);
        for (uint32_t i = 0; i < n->num_subgraphs; i++) {
            collect_max_id(n->subgraphs[i].graph, max);
        }
    }
}

void oa_mem_plan_destroy(oa_mem_plan *p)
{
    if (p == NULL) {
        return;
    }
    for (uint32_t i = 0; p->nodes && i < p->num_ids; i++) {
        free(p->nodes[i].output);
        free(p->nodes[i].input);
    }
    free(p->nodes);
    free(p);
}

oa_status oa_mem_plan_build(oa_graph *root, bool no_reuse, oa_mem_plan **out)
{
    *out = NULL;
    oa_mem_plan *plan = calloc(1, sizeof(*plan));
    if (plan == NULL) {
        return OA_FAIL(OA_E_NOMEM, "out of memory for a memory plan");
    }
    plan->no_reuse = no_reuse;
    collect_max_id(root, &plan->num_ids);
    plan->nodes = calloc(plan->num_ids ? plan->num_ids : 1, sizeof(oa_node_mem));
    size_t nd = oa_graph_num_inputs(root);
    uint32_t no = oa_graph_num_outputs(root);
    int64_t *slots = malloc((nd + no + 1) * sizeof(int64_t));
    oa_status st = OA_OK;
    if (plan->nodes == NULL || slots == NULL) {
        st = OA_FAIL(OA_E_NOMEM, "out of memory for a memory plan");
        goto fail;
    }
    /* The feature map first (its size decides where the zero-copy region starts). */
    gplan p;
    st = plan_frame(plan, root, FRAME_ROOT, &p);
    size_t fm = p.total;
    for (size_t i = 0; i < p.count; i++) {
        p.order[i]->mark = 0;
    }
    gplan_free(&p);
    if (st != OA_OK) {
        goto fail;
    }
    size_t at;
    if (!oa_align_up(fm, OA_PLANNER_ALIGN, &at)) {
        st = OA_FAIL(OA_E_GE_PARAM, "feature map of %zu bytes overflows", fm);
        goto fail;
    }
    plan->zero_copy_offset = (int64_t)at;
    for (size_t i = 0; i < nd + no; i++) {
        const oa_tensor_desc *d;
        if (i < nd) {
            const oa_node *data = oa_graph_input(root, (int64_t)i);
            if (data == NULL) {
                st = OA_FAIL(OA_E_GE_PARAM, "graph %s has no Data node with index %zu", oa_graph_name(root), i);
                goto fail;
            }
            d = &data->outputs[0].desc;
        } else {
            d = oa_graph_output_desc(root, (uint32_t)(i - nd));
        }
        size_t sz, asz;
        if (!oa_desc_bytes(d, &sz)) {
            char b[128];
            st = OA_FAIL(OA_E_GE_SHAPE, "model %s %zu has no static size (%s)", i < nd ? "input" : "output",
                         i < nd ? i : i - nd, oa_desc_str(d, b, sizeof(b)));
            goto fail;
        }
        slots[i] = (int64_t)at;
        if (!oa_align_up(sz ? sz : 1, OA_PLANNER_ALIGN, &asz) || !oa_add_size(at, asz, &at)) {
            st = OA_FAIL(OA_E_GE_PARAM, "zero-copy region overflows");
            goto fail;
        }
    }
    plan->memory_size = (int64_t)at;
    plan->zero_copy_size = plan->memory_size - plan->zero_copy_offset;
    root_io io = {slots, nd, slots + nd, no};
    st = commit_frame(plan, root, FRAME_ROOT, 0, NULL, &io);
    if (st != OA_OK) {
        goto fail;
    }
    free(slots);
    *out = plan;
    return OA_OK;
fail:
    free(slots);
    oa_mem_plan_destroy(plan);
    return st;
}
