/*
 * Building the static executor's program (v1_program.h): graph + plan ->
 * tasks, pointer references, IO slots, gears. Every offset the plan gives
 * is checked against the region it claims before it is trusted.
 */
#define OA_LOG_MODULE "GE"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/log.h"
#include "base/util.h"
#include "model_v1/v1_program.h"
#include "model_v1/v1_internal.h"
#include "op_bind/op_bind.h"

#define DYNAMIC_TENSOR_NAME "ascend_mbatch_shape_data"
/* rows of a up to which a MatMul reads its constant b in place (matmul_reads_b_at_run) */
#define V1_IN_PLACE_MAX_ROWS 8

typedef struct bq_item {
    const oa_graph *g;
    uint32_t case_idx;
    uint32_t branch;
} bq_item;

typedef struct bld {
    const oa_v1_source *s;
    oa_v1_program *p;
    size_t cap_kops, cap_blocks;
    bq_item *q;
    size_t nq, capq;
    const oa_node **in_nodes; /* root Data by index */
    const oa_node *net_output; /* root NetOutput */
    uint64_t work_hi;          /* end of the highest tensor placed in the feature map proper */
} bld;

/* ---- growth helpers (arrays grow through oa_grow_array, base/util.h) ---- */

static oa_status push_ref(bld *b, const v1_ref *r)
{
    return oa_prog_add_ref(&b->p->prog, r, NULL);
}

static oa_status push_task(bld *b, const v1_task *t)
{
    return oa_prog_add_task(&b->p->prog, t);
}

/* Keeps an allocation until the program is destroyed. */
static void *own_block(bld *b, size_t size)
{
    oa_v1_program *p = b->p;
    if (oa_grow_array((void **)&p->blocks, &b->cap_blocks, p->n_blocks, sizeof(*p->blocks), "program arrays") !=
        OA_OK) {
        return NULL;
    }
    void *m = malloc(size ? size : 1);
    if (m == NULL) {
        (void)OA_FAIL(OA_E_NOMEM, "program block of %zu bytes", size);
        return NULL;
    }
    p->blocks[p->n_blocks++] = m;
    return m;
}

static const char *own_str(bld *b, const char *s)
{
    const size_t n = strlen(s) + 1;
    char *d = own_block(b, n);
    if (d != NULL) {
        memcpy(d, s, n);
    }
    return d;
}

/* ---- the plan ---- */

static oa_status node_mem(bld *b, const oa_node *n, oa_v1_node_mem *m)
{
    memset(m, 0, sizeof(*m));
    if (!b->s->node_mem(b->s->ctx, n, m)) {
        return OA_FAIL(OA_E_GE_PARAM, "node %s (%s) has no memory plan", n->name, n->type_name);
    }
    return OA_OK;
}

static oa_status out_offset(bld *b, const oa_node *n, uint32_t idx, int64_t *off)
{
    oa_v1_node_mem m;
    oa_status st = node_mem(b, n, &m);
    if (st != OA_OK) {
        return st;
    }
    if (idx >= m.n_out || m.out == NULL) {
        return OA_FAIL(OA_E_GE_PARAM, "node %s (%s): no planned offset for output %u (%zu planned)", n->name,
                       n->type_name, idx, m.n_out);
    }
    *off = m.out[idx];
    return OA_OK;
}

/* Offset of input slot k (counting only the slots with a valid desc, as GE's input_i does). */
static oa_status in_offset(bld *b, const oa_node *n, uint32_t k, int64_t *off)
{
    oa_v1_node_mem m;
    oa_status st = node_mem(b, n, &m);
    if (st != OA_OK) {
        return st;
    }
    size_t j = 0;
    for (uint32_t i = 0; i < k; i++) {
        if (!oa_desc_is_invalid(&n->inputs[i].desc)) {
            j++;
        }
    }
    if (j >= m.n_in || m.in == NULL) {
        return OA_FAIL(OA_E_GE_PARAM, "node %s (%s): no planned offset for input %u", n->name, n->type_name, k);
    }
    *off = m.in[j];
    return OA_OK;
}

/*
 * Resolves [off, off + bytes) to a region after checking it lies inside one
 * and that off is a multiple of the element size elem (the kernels load and
 * store whole elements: docs/model_api.md, "Bounds the loader checks").
 */
static oa_status resolve(bld *b, int64_t off, size_t bytes, size_t elem, const char *node, v1_ref *r)
{
    const oa_v1_program *p = b->p;
    memset(r, 0, sizeof(*r));
    uint64_t end;
    if (off < 0 || __builtin_add_overflow((uint64_t)off, (uint64_t)bytes, &end) || end > p->memory_size) {
        return OA_FAIL(OA_E_GE_PARAM, "node %s: tensor at offset %lld of %zu bytes lies outside the model memory "
                       "(memory_size %llu)", node, (long long)off, bytes, (unsigned long long)p->memory_size);
    }
    const uint64_t u = (uint64_t)off;
    if (elem > 1 && u % elem != 0) {
        return OA_FAIL(OA_E_GE_PARAM, "node %s: tensor offset (output_offset/input_offset) %llu is not a multiple of "
                       "its element size %zu", node, (unsigned long long)u, elem);
    }
    if (u < p->zero_copy_off) {
        if (end > p->zero_copy_off) {
            return OA_FAIL(OA_E_GE_PARAM, "node %s: tensor at offset %llu of %zu bytes crosses into the zero-copy "
                           "region at %llu", node, (unsigned long long)u, bytes, (unsigned long long)p->zero_copy_off);
        }
        if (end > b->work_hi) {
            b->work_hi = end;
        }
        r->kind = V1_REF_WORK;
        r->off = u;
        return OA_OK;
    }
    for (int side = 0; side < 2; side++) {
        const size_t n = side ? p->n_outputs : p->n_inputs;
        const v1_io_slot *s = side ? p->out_slot : p->in_slot;
        for (size_t i = 0; i < n; i++) {
            if (s[i].zero_copy && u >= s[i].off && end <= s[i].off + s[i].size) {
                r->kind = side ? V1_REF_OUT : V1_REF_IN;
                r->io = (uint32_t)i;
                r->off = u - s[i].off;
                return OA_OK;
            }
        }
    }
    return OA_FAIL(OA_E_GE_PARAM, "node %s: tensor at offset %llu of %zu bytes is in the zero-copy region but in no "
                   "model input or output", node, (unsigned long long)u, bytes);
}

/* ---- IO slots ---- */

static bool desc_bytes(const oa_tensor_desc *d, size_t *out)
{
    return oa_op_bind_desc_bytes(d, out);
}

static oa_status collect_io(bld *b)
{
    oa_v1_program *p = b->p;
    const oa_graph *g = b->s->root;
    size_t n_in = 0;
    for (const oa_node *n = oa_graph_first_node(g); n != NULL; n = n->next) {
        if (n->type == OA_OP_DATA) {
            n_in++;
        } else if (n->type == OA_OP_NET_OUTPUT) {
            if (b->net_output != NULL) {
                return OA_FAIL(OA_E_GE_PARAM, "the model has two NetOutput nodes (%s, %s)", b->net_output->name,
                               n->name);
            }
            b->net_output = n;
        }
    }
    const size_t n_out = b->net_output ? b->net_output->num_inputs : 0;
    if ((b->s->expect_inputs != SIZE_MAX && n_in != b->s->expect_inputs) ||
        (b->s->expect_outputs != SIZE_MAX && n_out != b->s->expect_outputs)) {
        return OA_FAIL(OA_E_GE_PARAM, "the graph has %zu inputs and %zu outputs, its description %zu and %zu", n_in,
                       n_out, b->s->expect_inputs, b->s->expect_outputs);
    }
    p->n_inputs = n_in;
    p->n_outputs = n_out;
    b->in_nodes = calloc(n_in ? n_in : 1, sizeof(*b->in_nodes));
    p->in_slot = calloc(n_in ? n_in : 1, sizeof(*p->in_slot));
    p->out_slot = calloc(n_out ? n_out : 1, sizeof(*p->out_slot));
    if (b->in_nodes == NULL || p->in_slot == NULL || p->out_slot == NULL) {
        return OA_FAIL(OA_E_NOMEM, "IO slots");
    }
    for (const oa_node *n = oa_graph_first_node(g); n != NULL; n = n->next) {
        if (n->type != OA_OP_DATA) {
            continue;
        }
        int64_t idx = -1;
        if (!oa_attrs_get_int(&n->attrs, "index", &idx) || idx < 0 || (uint64_t)idx >= n_in ||
            b->in_nodes[idx] != NULL) {
            return OA_FAIL(OA_E_GE_PARAM, "Data node %s: index %lld is missing, out of range or repeated", n->name,
                           (long long)idx);
        }
        b->in_nodes[idx] = n;
    }
    for (size_t side = 0; side < 2; side++) {
        const size_t cnt = side ? n_out : n_in;
        for (size_t i = 0; i < cnt; i++) {
            v1_io_slot *s = side ? &p->out_slot[i] : &p->in_slot[i];
            const oa_tensor_desc *d;
            int64_t off;
            oa_status st;
            if (side == 0) {
                d = &b->in_nodes[i]->outputs[0].desc;
                st = out_offset(b, b->in_nodes[i], 0, &off);
            } else {
                d = &b->net_output->inputs[i].desc;
                st = in_offset(b, b->net_output, (uint32_t)i, &off);
            }
            if (st != OA_OK) {
                return st;
            }
            if (!desc_bytes(d, &s->size)) {
                return OA_FAIL(OA_E_GE_PARAM, "model %s %zu has no static shape", side ? "output" : "input", i);
            }
            uint64_t end;
            if (off < 0 || __builtin_add_overflow((uint64_t)off, (uint64_t)s->size, &end) || end > p->memory_size) {
                return OA_FAIL(OA_E_GE_PARAM, "model %s %zu at offset %lld of %zu bytes lies outside memory_size %llu",
                               side ? "output" : "input", i, (long long)off, s->size,
                               (unsigned long long)p->memory_size);
            }
            const size_t elem = oa_dtype_size(d->dtype);
            if (elem > 1 && (uint64_t)off % elem != 0) {
                return OA_FAIL(OA_E_GE_PARAM, "model %s %zu: offset %lld is not a multiple of its element size %zu",
                               side ? "output" : "input", i, (long long)off, elem);
            }
            s->off = (uint64_t)off;
            s->zero_copy = s->off >= p->zero_copy_off;
            if (!s->zero_copy && end > p->zero_copy_off) {
                return OA_FAIL(OA_E_GE_PARAM, "model %s %zu straddles the zero-copy region", side ? "output" : "input",
                               i);
            }
        }
    }
    /* zero-copy slots must not overlap each other */
    for (size_t i = 0; i < n_in + n_out; i++) {
        const v1_io_slot *a = i < n_in ? &p->in_slot[i] : &p->out_slot[i - n_in];
        for (size_t j = i + 1; a->zero_copy && a->size > 0 && j < n_in + n_out; j++) {
            const v1_io_slot *c = j < n_in ? &p->in_slot[j] : &p->out_slot[j - n_in];
            if (c->zero_copy && c->size > 0 && a->off < c->off + c->size && c->off < a->off + a->size) {
                return OA_FAIL(OA_E_GE_PARAM, "model IO slots %zu and %zu overlap in the zero-copy region", i, j);
            }
        }
    }
    return OA_OK;
}

/* ---- emitting tasks ---- */

/*
 * A MatMul whose constant b is read where it lives at run instead of being
 * packed into a private copy at create: no copy, so mapped weight files
 * (external weights, the .om) are shared by every process and RSS tracks
 * what runs. Only for a few rows of a (GEMV-like, bound by reading b once,
 * so packing buys nothing); larger products keep the packed layout. The
 * rule looks at the node only, never at where the bytes come from: packed
 * and plain b run different oneDNN kernels whose float sums differ in the
 * last bits, and a model must give the same bits whether its weights are
 * inside the .om or in external files (atc --external_weight=0|1|2).
 */
static bool matmul_reads_b_at_run(const bld *b, const oa_op_bind *bd, const v1_ref *bref)
{
    if (bd->type != OA_KOP_MATMUL || bd->n_in < 2 || bd->src[1].kind != OA_BIND_CONST ||
        bref->kind != V1_REF_ABS || bref->abs == NULL || b->s->read_in_place == NULL) {
        return false;
    }
    const oa_ktensor *a = &bd->in[0];
    const int64_t k = a->rank == 0 ? 1 : a->dims[a->rank - (bd->params.matmul.transpose_a && a->rank > 1 ? 2 : 1)];
    const int64_t numel = oa_ktensor_numel(a);
    if (k <= 0 || numel / k > V1_IN_PLACE_MAX_ROWS) {
        return false;
    }
    if (oa_klowp_compute(bd->params.matmul.lowp) != OA_KLOWP_NONE) {
        return false; /* packed in bf16: half the bytes a GEMV reads (docs/precision.md) */
    }
    return b->s->read_in_place(b->s->ctx, bref->abs, bd->src[1].size);
}

/*
 * The framework ops fused into n (docs/dump.md "Fused operators"): every
 * name of `_datadump_original_op_names`; the last one produced what the
 * node outputs, unless the list is just the node's own name.
 */
static oa_status fill_orig_names(bld *b, const oa_node *n, v1_task_meta *meta)
{
    const char *const *names = NULL;
    size_t count = 0;
    if (!oa_attrs_get_list_str(&n->attrs, "_datadump_original_op_names", &names, &count) || count == 0) {
        return OA_OK;
    }
    const char **own = own_block(b, count * sizeof(*own));
    if (own == NULL) {
        return OA_E_NOMEM;
    }
    for (size_t i = 0; i < count; i++) {
        if ((own[i] = own_str(b, names[i] != NULL ? names[i] : "")) == NULL) {
            return OA_E_NOMEM;
        }
    }
    meta->orig = own;
    meta->n_orig = count;
    meta->orig_out = strcmp(own[count - 1], n->name) != 0 ? own[count - 1] : NULL;
    return OA_OK;
}

/* A constant read at run: where the loader wants it read (run_const in v1_program.h). */
static oa_status run_const(bld *b, v1_ref *r, size_t size, const char *what)
{
    if (r->kind != V1_REF_ABS || r->abs == NULL || size == 0 || b->s->run_const == NULL) {
        return OA_OK;
    }
    const void *p = b->s->run_const(b->s->ctx, r->abs, size);
    if (p == NULL) {
        return OA_FAIL(OA_E_NOMEM, "node %s: constant read at run (%zu bytes)", what, size);
    }
    r->abs = p;
    return OA_OK;
}

static oa_status emit_kernel(bld *b, const oa_node *n)
{
    oa_v1_program *p = b->p;
    oa_op_bind *bd = NULL;
    oa_status st = oa_op_bind_node(n, NULL, &bd);
    if (st != OA_OK) {
        return st;
    }
    oa_kop *op = NULL;
    const uint32_t arg = (uint32_t)p->prog.n_refs;
    char what[160];
    snprintf(what, sizeof what, "%s (%s)", n->name, n->type_name);
    for (int i = 0; i < bd->n_in && st == OA_OK; i++) {
        v1_ref r = {0};
        const oa_bind_src *s = &bd->src[i];
        if (s->kind == OA_BIND_ACT) {
            int64_t off;
            st = out_offset(b, s->src, s->src_index, &off);
            if (st == OA_OK) {
                st = resolve(b, off, oa_ktensor_bytes(&bd->in[i]), oa_kdtype_size(bd->in[i].dtype), what, &r);
            }
        } else if (s->kind == OA_BIND_CONST) {
            r.kind = V1_REF_ABS;
            if (s->synthesized) {
                void *m = own_block(b, s->size);
                if (m == NULL) {
                    st = OA_E_NOMEM;
                } else {
                    if (s->size > 0) {
                        memcpy(m, bd->in[i].data, s->size);
                    }
                    r.abs = m;
                }
            } else {
                const oa_tensor *k = oa_op_bind_const_input(n, s->slot);
                r.abs = k != NULL ? b->s->const_ptr(b->s->ctx, k) : bd->in[i].data;
                if (r.abs == NULL && s->size > 0) {
                    st = OA_FAIL(OA_E_GE_PARAM, "node %s: constant input %u has no weight memory", what, s->slot);
                }
            }
        }
        if (st == OA_OK) {
            st = push_ref(b, &r);
        }
    }
    for (int k = 0; k < bd->n_out && st == OA_OK; k++) {
        int64_t off;
        v1_ref r;
        st = out_offset(b, n, bd->out_index[k], &off);
        if (st == OA_OK) {
            st = resolve(b, off, oa_ktensor_bytes(&bd->out[k]), oa_kdtype_size(bd->out[k].dtype), what, &r);
        }
        if (st == OA_OK) {
            st = push_ref(b, &r);
        }
    }
    if (st != OA_OK) {
        oa_op_bind_destroy(bd);
        return st;
    }
    /* a view (Reshape & co) whose input and output share their bytes: nothing to do */
    if (bd->is_copy && p->prog.refs[arg].kind == V1_REF_WORK && p->prog.refs[arg + 1].kind == V1_REF_WORK &&
        p->prog.refs[arg].off == p->prog.refs[arg + 1].off) {
        oa_prog_truncate_refs(&p->prog, arg);
        oa_op_bind_destroy(bd);
        return OA_OK;
    }
    if (matmul_reads_b_at_run(b, bd, &p->prog.refs[arg + 1])) {
        bd->in[1].data = NULL;
    }
    oa_kconst_set_hook(b->s->const_consumed, b->s->ctx);
    st = oa_op_bind_create(bd, &op);
    oa_kconst_set_hook(NULL, NULL);
    for (int i = 0; i < bd->n_in && st == OA_OK; i++) {
        if (bd->src[i].kind == OA_BIND_CONST && !bd->src[i].synthesized && oa_kop_reads_input_at_run(op, i)) {
            st = run_const(b, &p->prog.refs[arg + (uint32_t)i], bd->src[i].size, what);
        }
    }
    if (st == OA_OK) {
        st = oa_grow_array((void **)&p->kops, &b->cap_kops, p->n_kops, sizeof(*p->kops), "program arrays");
    }
    if (st != OA_OK) {
        oa_kop_destroy(op);
        oa_op_bind_destroy(bd);
        return st;
    }
    p->kops[p->n_kops++] = op;
    if (b->s->kernel_created != NULL) {
        b->s->kernel_created(b->s->ctx);
    }
    const size_t ws = oa_kop_workspace_size(op);
    p->ws_size = ws > p->ws_size ? ws : p->ws_size;
    p->n_kernel_tasks++;
    if (bd->n_out > 0 && bd->out[0].layout == OA_KLAYOUT_NCHWC) {
        p->n_nchwc_tasks++;
    }
    if (oa_attrs_find(&n->attrs, "_oa_post_ops") != NULL) {
        p->n_fused_tasks++;
    }
    v1_task t = {.fn = oa_prog_task_kernel, .op = op, .arg = arg, .n_in = (uint16_t)bd->n_in, .n_out = (uint16_t)bd->n_out,
                 .name = own_str(b, n->name)};
    if (ws >= OA_V1_WS_PLACE_MIN && p->prog.n_refs == (size_t)arg + (size_t)bd->n_in + (size_t)bd->n_out) {
        const v1_ref none = {0}; /* its workspace: placed in the feature map after the build, or NULL */
        if ((st = push_ref(b, &none)) != OA_OK) {
            oa_op_bind_destroy(bd);
            return st;
        }
        t.fn = oa_v1_task_kernel_ws;
    }
    oa_ktensor *outs = own_block(b, (size_t)bd->n_out * sizeof(oa_ktensor));
    if (outs != NULL) {
        memcpy(outs, bd->out, (size_t)bd->n_out * sizeof(oa_ktensor));
    }
    t.outs = outs;
    v1_task_meta *meta = own_block(b, sizeof(*meta));
    oa_ktensor *ins = own_block(b, (size_t)bd->n_in * sizeof(oa_ktensor));
    if (meta != NULL && ins != NULL) {
        memset(meta, 0, sizeof(*meta));
        for (int i = 0; i < bd->n_in; i++) {
            ins[i] = bd->in[i];
            ins[i].data = NULL;
        }
        meta->ins = ins;
        meta->type = own_str(b, n->type_name);
        st = meta->type != NULL ? fill_orig_names(b, n, meta) : OA_E_NOMEM;
    }
    t.meta = meta;
    oa_op_bind_destroy(bd);
    if (t.name == NULL || outs == NULL || meta == NULL || ins == NULL || st != OA_OK) {
        return OA_E_NOMEM;
    }
    return push_task(b, &t);
}

/* NetOutput: the producer already wrote the graph output in place unless the plan says otherwise. */
static oa_status emit_net_output(bld *b, const oa_node *n)
{
    for (uint32_t k = 0; k < n->num_inputs; k++) {
        const oa_input *ip = &n->inputs[k];
        if (ip->src == NULL) {
            return OA_FAIL(OA_E_GE_PARAM, "NetOutput %s: input %u is not connected", n->name, k);
        }
        size_t bytes;
        if (ip->src_index >= ip->src->num_outputs || !desc_bytes(&ip->src->outputs[ip->src_index].desc, &bytes)) {
            return OA_FAIL(OA_E_GE_PARAM, "NetOutput %s: input %u has no static shape", n->name, k);
        }
        const size_t elem = oa_dtype_size(ip->src->outputs[ip->src_index].desc.dtype);
        int64_t dst_off;
        oa_status st = in_offset(b, n, k, &dst_off);
        if (st != OA_OK) {
            return st;
        }
        v1_ref src_ref = {0}, dst_ref;
        const oa_tensor *kt = oa_op_bind_const_input(n, k);
        if (kt != NULL) {
            src_ref.kind = V1_REF_ABS;
            src_ref.abs = b->s->const_ptr(b->s->ctx, kt);
            if (src_ref.abs == NULL && bytes > 0) {
                return OA_FAIL(OA_E_GE_PARAM, "NetOutput %s: constant output %u has no weight memory", n->name, k);
            }
            if (kt->size < bytes) {
                return OA_FAIL(OA_E_GE_PARAM, "NetOutput %s: constant output %u has %zu bytes, needs %zu", n->name, k,
                               kt->size, bytes);
            }
            if ((st = run_const(b, &src_ref, bytes, n->name)) != OA_OK) {
                return st;
            }
        } else {
            int64_t src_off;
            if ((st = out_offset(b, ip->src, ip->src_index, &src_off)) != OA_OK) {
                return st;
            }
            if (src_off == dst_off) {
                continue;
            }
            if ((st = resolve(b, src_off, bytes, elem, n->name, &src_ref)) != OA_OK) {
                return st;
            }
        }
        if ((st = resolve(b, dst_off, bytes, elem, n->name, &dst_ref)) != OA_OK) {
            return st;
        }
        const uint32_t arg = (uint32_t)b->p->prog.n_refs;
        if ((st = push_ref(b, &src_ref)) != OA_OK || (st = push_ref(b, &dst_ref)) != OA_OK) {
            return st;
        }
        v1_task t = {.fn = oa_prog_task_copy, .arg = arg, .n_in = 1, .n_out = 1, .aux = bytes, .name = own_str(b, n->name)};
        if (t.name == NULL) {
            return OA_E_NOMEM;
        }
        if ((st = push_task(b, &t)) != OA_OK) {
            return st;
        }
    }
    return OA_OK;
}

static oa_status emit_case(bld *b, const oa_node *n)
{
    oa_v1_program *p = b->p;
    if (n->num_inputs < 1 || n->inputs[0].src == NULL || n->num_subgraphs == 0) {
        return OA_FAIL(OA_E_GE_PARAM, "Case %s needs a branch index and branches", n->name);
    }
    int64_t off;
    v1_ref r;
    oa_status st = out_offset(b, n->inputs[0].src, n->inputs[0].src_index, &off);
    if (st == OA_OK) {
        st = resolve(b, off, sizeof(int32_t), sizeof(int32_t), n->name, &r);
    }
    if (st != OA_OK) {
        return st;
    }
    size_t case_idx;
    if ((st = oa_prog_add_case(&p->prog, n->num_subgraphs, &case_idx)) != OA_OK) {
        return st;
    }
    for (uint32_t i = 0; i < n->num_subgraphs; i++) {
        if ((st = oa_grow_array((void **)&b->q, &b->capq, b->nq, sizeof(*b->q), "program arrays")) != OA_OK) {
            return st;
        }
        b->q[b->nq++] = (bq_item){n->subgraphs[i].graph, (uint32_t)case_idx, i};
    }
    const uint32_t arg = (uint32_t)p->prog.n_refs;
    if ((st = push_ref(b, &r)) != OA_OK) {
        return st;
    }
    v1_task t = {.fn = oa_prog_task_case, .arg = arg, .n_in = 1, .aux = case_idx, .name = own_str(b, n->name)};
    return t.name == NULL ? OA_E_NOMEM : push_task(b, &t);
}

static oa_status emit_gear_index(bld *b, const oa_node *n)
{
    int64_t off;
    v1_ref r;
    oa_status st = out_offset(b, n, 0, &off);
    if (st == OA_OK) {
        st = resolve(b, off, sizeof(int32_t), sizeof(int32_t), n->name, &r);
    }
    const uint32_t arg = (uint32_t)b->p->prog.n_refs;
    if (st == OA_OK) {
        st = push_ref(b, &r);
    }
    if (st != OA_OK) {
        return st;
    }
    v1_task t = {.fn = oa_prog_task_gear_index, .arg = arg, .n_out = 1, .name = own_str(b, n->name)};
    return t.name == NULL ? OA_E_NOMEM : push_task(b, &t);
}

static oa_status emit_graph(bld *b, const oa_graph *g)
{
    oa_node **order = NULL;
    size_t n = 0;
    oa_status st = oa_graph_topo_order(g, &order, &n);
    for (size_t i = 0; i < n && st == OA_OK; i++) {
        const oa_node *nd = order[i];
        switch (nd->type) {
        case OA_OP_DATA:
        case OA_OP_CONST:
        case OA_OP_CONSTANT:
            break;
        case OA_OP_NET_OUTPUT:
            st = emit_net_output(b, nd);
            break;
        case OA_OP_CASE:
            st = emit_case(b, nd);
            break;
        case OA_OP_FILE_CONSTANT:
            st = OA_FAIL(OA_E_NOT_SUPPORTED, "node %s: FileConstant (external weights) is not supported by the static "
                         "executor yet", nd->name);
            break;
        case OA_OP_IF:
        case OA_OP_STATELESS_IF:
        case OA_OP_WHILE:
        case OA_OP_PARTITIONED_CALL:
            st = OA_FAIL(OA_E_NOT_SUPPORTED, "node %s: control flow (%s) is not supported by the static executor",
                         nd->name, nd->type_name);
            break;
        default:
            if (strcmp(nd->type_name, "MapIndex") == 0) {
                st = emit_gear_index(b, nd);
            } else {
                st = emit_kernel(b, nd);
            }
            break;
        }
    }
    free(order);
    return st;
}

/* ---- gears ---- */

static oa_status variant_fill(bld *b, v1_variant *v)
{
    oa_v1_program *p = b->p;
    const size_t ni = p->n_inputs ? p->n_inputs : 1, no = p->n_outputs ? p->n_outputs : 1;
    v->in_bytes = calloc(ni, sizeof(size_t));
    v->out_bytes = calloc(no, sizeof(size_t));
    v->out_rank = calloc(no, sizeof(size_t));
    v->out_dims = calloc(no * OA_KMAX_DIMS, sizeof(int64_t));
    if (v->in_bytes == NULL || v->out_bytes == NULL || v->out_rank == NULL || v->out_dims == NULL) {
        return OA_FAIL(OA_E_NOMEM, "gear sizes");
    }
    for (size_t i = 0; i < p->n_inputs; i++) {
        v->in_bytes[i] = p->in_slot[i].size;
    }
    for (size_t j = 0; j < p->n_outputs; j++) {
        v->out_bytes[j] = p->out_slot[j].size;
    }
    return OA_OK;
}

static void variant_dims(v1_variant *v, size_t j, const oa_tensor_desc *d)
{
    const oa_shape *s = d->format == OA_FORMAT_NC1HWC0 && d->origin_shape_set ? &d->origin_shape : &d->shape;
    const size_t r = s->rank > 0 ? (size_t)s->rank : 0;
    v->out_rank[j] = r;
    for (size_t k = 0; k < r && k < OA_KMAX_DIMS; k++) {
        v->out_dims[j * OA_KMAX_DIMS + k] = s->dims[k];
    }
}

static oa_status build_variants(bld *b)
{
    oa_v1_program *p = b->p;
    const oa_node *cs = NULL;
    for (size_t j = 0; j < p->n_outputs && b->net_output != NULL; j++) {
        const oa_node *src = b->net_output->inputs[j].src;
        if (src != NULL && src->type == OA_OP_CASE) {
            cs = src;
        }
    }
    p->gear_input = SIZE_MAX;
    for (size_t i = 0; i < p->n_inputs; i++) {
        if (strcmp(b->in_nodes[i]->name, DYNAMIC_TENSOR_NAME) == 0) {
            p->gear_input = i;
        }
    }
    const size_t nv = cs != NULL ? cs->num_subgraphs : 1;
    p->variants = calloc(nv, sizeof(*p->variants));
    if (p->variants == NULL) {
        return OA_FAIL(OA_E_NOMEM, "gear sizes");
    }
    p->n_variants = nv;
    for (size_t v = 0; v < nv; v++) {
        oa_status st = variant_fill(b, &p->variants[v]);
        if (st != OA_OK) {
            return st;
        }
        for (size_t j = 0; j < p->n_outputs; j++) {
            variant_dims(&p->variants[v], j, &b->net_output->inputs[j].desc);
        }
    }
    if (cs == NULL) {
        return OA_OK;
    }
    if (p->gear_input == SIZE_MAX) {
        return OA_FAIL(OA_E_GE_PARAM, "Case %s selects among gears but the model has no %s input", cs->name,
                       DYNAMIC_TENSOR_NAME);
    }
    /* gear values: _pred_value_<i> of the Case */
    for (size_t v = 0; v < nv; v++) {
        char key[48];
        snprintf(key, sizeof key, "_pred_value_%zu", v);
        const int64_t *vals;
        size_t n = 0;
        if (!oa_attrs_get_list_int(&cs->attrs, key, &vals, &n) || n == 0 || n > 128 ||
            (v > 0 && n != p->gear_len)) {
            return OA_FAIL(OA_E_GE_PARAM, "Case %s: attr %s is missing or has a different length", cs->name, key);
        }
        if (v == 0) {
            p->gear_len = n;
            p->gear_values = calloc(nv * n, sizeof(int64_t));
            if (p->gear_values == NULL) {
                return OA_FAIL(OA_E_NOMEM, "gears");
            }
        }
        memcpy(&p->gear_values[v * n], vals, n * sizeof(int64_t));
        /* the branch's own sizes */
        const oa_graph *g = cs->subgraphs[v].graph;
        v1_variant *var = &p->variants[v];
        for (const oa_node *nd = oa_graph_first_node(g); nd != NULL; nd = nd->next) {
            if (nd->type == OA_OP_DATA) {
                int64_t pi = -1;
                if (!oa_attrs_get_int(&nd->attrs, "_parent_node_index", &pi) || pi < 0 ||
                    (uint64_t)pi >= cs->num_inputs) {
                    return OA_FAIL(OA_E_GE_PARAM, "branch Data %s: bad _parent_node_index", nd->name);
                }
                const oa_node *src = cs->inputs[pi].src;
                for (size_t i = 0; src != NULL && i < p->n_inputs; i++) {
                    size_t bytes;
                    if (b->in_nodes[i] == src && desc_bytes(&nd->outputs[0].desc, &bytes)) {
                        if (bytes > p->in_slot[i].size) {
                            return OA_FAIL(OA_E_GE_PARAM, "branch Data %s reads %zu bytes, the input holds %zu",
                                           nd->name, bytes, p->in_slot[i].size);
                        }
                        var->in_bytes[i] = bytes;
                    }
                }
            } else if (nd->type == OA_OP_NET_OUTPUT) {
                for (size_t j = 0; j < p->n_outputs; j++) {
                    const oa_input *ip = &b->net_output->inputs[j];
                    size_t bytes;
                    if (ip->src == cs && ip->src_index < nd->num_inputs &&
                        desc_bytes(&nd->inputs[ip->src_index].desc, &bytes)) {
                        if (bytes > p->out_slot[j].size) {
                            return OA_FAIL(OA_E_GE_PARAM, "branch output %zu has %zu bytes, the output holds %zu", j,
                                           bytes, p->out_slot[j].size);
                        }
                        var->out_bytes[j] = bytes;
                        variant_dims(var, j, &nd->inputs[ip->src_index].desc);
                    }
                }
            }
        }
    }
    return OA_OK;
}

/* ---- build / destroy ---- */

void oa_v1_program_destroy(oa_v1_program *p)
{
    if (p == NULL) {
        return;
    }
    if (p->prof_ns != NULL) {
        oa_v1_prof_print(p);
        free(p->prof_ns);
        free(p->prof_win);
    }
    free(p->thr);
    for (size_t i = 0; i < p->n_kops; i++) {
        oa_kop_destroy(p->kops[i]);
    }
    free(p->kops);
    for (size_t i = 0; i < p->n_blocks; i++) {
        free(p->blocks[i]);
    }
    free(p->blocks);
    oa_prog_free(&p->prog);
    for (size_t i = 0; p->variants != NULL && i < p->n_variants; i++) {
        free(p->variants[i].in_bytes);
        free(p->variants[i].out_bytes);
        free(p->variants[i].out_rank);
        free(p->variants[i].out_dims);
    }
    free(p->variants);
    free(p->gear_values);
    free(p->in_slot);
    free(p->out_slot);
    free(p);
}

oa_status oa_v1_program_build(const oa_v1_source *src, oa_v1_program **out)
{
    if (src == NULL || out == NULL || src->root == NULL || src->node_mem == NULL || src->const_ptr == NULL) {
        return OA_FAIL(OA_E_PARAM, "NULL argument");
    }
    *out = NULL;
    if (src->memory_size <= 0 || src->zero_copy_size < 0 || src->zero_copy_size > src->memory_size) {
        return OA_FAIL(OA_E_GE_PARAM, "memory_size %lld / zero_copy_memory_size %lld are not a valid plan",
                       (long long)src->memory_size, (long long)src->zero_copy_size);
    }
    oa_v1_program *p = calloc(1, sizeof(*p));
    if (p == NULL) {
        return OA_FAIL(OA_E_NOMEM, "program");
    }
    if (oa_env_long("OPENACL_V1_PROFILE", 0) > 0) {
        p->prof_runs = 1; /* replaced by the count of runs */
    }
    p->memory_size = (uint64_t)src->memory_size;
    p->zero_copy_off = (uint64_t)(src->memory_size - src->zero_copy_size);
    bld b = {.s = src, .p = p};
    oa_status st = collect_io(&b);
    if (st == OA_OK) {
        st = emit_graph(&b, src->root);
    }
    p->prog.n_main = p->prog.n_tasks;
    for (size_t qi = 0; qi < b.nq && st == OA_OK; qi++) {
        const bq_item it = b.q[qi];
        const uint32_t begin = (uint32_t)p->prog.n_tasks;
        st = emit_graph(&b, it.g);
        p->prog.cases[it.case_idx].begin[it.branch] = begin;
        p->prog.cases[it.case_idx].end[it.branch] = (uint32_t)p->prog.n_tasks;
    }
    if (st == OA_OK) {
        st = build_variants(&b);
    }
    free(b.q);
    free(b.in_nodes);
    p->work_hi = b.work_hi;
    p->io_hi = p->zero_copy_off;
    for (size_t i = 0; i < p->n_inputs + p->n_outputs; i++) {
        const v1_io_slot *sl = i < p->n_inputs ? &p->in_slot[i] : &p->out_slot[i - p->n_inputs];
        if (sl->zero_copy && sl->off + sl->size > p->io_hi) {
            p->io_hi = sl->off + sl->size;
        } else if (!sl->zero_copy && sl->off + sl->size > p->work_hi) {
            p->work_hi = sl->off + sl->size;
        }
    }
    if (st != OA_OK) {
        oa_v1_program_destroy(p);
        return st;
    }
    p->ws_full = p->ws_size;
    oa_v1_place_workspaces(p);
    if ((p->thr = calloc(1, sizeof(*p->thr))) == NULL) {
        oa_v1_program_destroy(p);
        return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "program thread state");
    }
    if (p->prof_runs > 0) {
        p->prof_runs = 0;
        p->prof_ns = calloc(p->prog.n_tasks + 1, sizeof(uint64_t));
        p->prof_win = calloc((size_t)V1_PROF_WINDOW * (p->prog.n_tasks ? p->prog.n_tasks : 1), sizeof(uint32_t));
        if (p->prof_ns == NULL || p->prof_win == NULL) { /* a debugging aid: the model runs without it */
            OA_LOGW("[Load][Program] OPENACL_V1_PROFILE: no memory for the task times of %zu tasks", p->prog.n_tasks);
            free(p->prof_ns);
            free(p->prof_win);
            p->prof_ns = NULL;
            p->prof_win = NULL;
        }
    }
    OA_LOGI("[Load][Program] %zu tasks (%zu kernels, %zu NCHWc, %zu with fused post-ops), %zu pointers, %zu patched "
            "per run, workspace %zu bytes, %zu gear(s)",
            p->prog.n_tasks, p->n_kernel_tasks, p->n_nchwc_tasks, p->n_fused_tasks, p->prog.n_refs, p->prog.n_patches, p->ws_size,
            p->n_variants);
    *out = p;
    return OA_OK;
}
