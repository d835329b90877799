/*
 * The execute-node kernels of the dynamic path and their registry
 * (docs/dynamic_models.md "Kernel registry"): InferShape, AllocMemory,
 * LaunchKernel, LaunchShape, View, FreeMemory, If, Case, While,
 * PartitionedCall, OutputData, and the Init/DeInit kernels Const, FileConstant,
 * ReleaseConst.
 *
 * Every kernel finds its executor in kernel_extend_info (set when the
 * graph is instantiated) and its compute node (or tensor) in
 * compute_node_info; the value cells only order the nodes.
 */
#define OA_LOG_MODULE "GE"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/log.h"
#include "base/util.h"
#include "file_constant/file_constant.h"
#include "graph/infer.h"
#include "model_v2/v2_internal.h"
#include "op_bind/op_bind.h"

static uint8_t g_empty[64] __attribute__((aligned(64)));

/* ---- tensors ---- */

void oa_v2_tensor_drop(v2_tensor *t)
{
    oa_v2_block *b = t->block;
    t->block = NULL;
    t->data = NULL;
    oa_v2_block_release(b);
}

void oa_v2_tensor_share(v2_tensor *dst, const v2_tensor *src)
{
    if (dst == src) {
        return;
    }
    oa_v2_block *keep = src->block;
    oa_v2_block_retain(keep);
    oa_v2_tensor_drop(dst);
    dst->desc = src->desc;
    dst->data = src->data;
    dst->block = keep;
}

bool oa_v2_desc_bytes(const oa_tensor_desc *d, size_t *out)
{
    if (d->shape.rank == OA_RANK_UNKNOWN || !oa_shape_is_static(&d->shape)) {
        return false;
    }
    return oa_tensor_nbytes(d->dtype, &d->shape, out);
}

oa_status oa_v2_read_selector(const v2_tensor *t, const char *node, bool as_index, int64_t *out)
{
    int64_t n = 0;
    if (!oa_shape_numel(&t->desc.shape, &n)) {
        return OA_FAIL(OA_E_GE_SHAPE, "node %s: selector shape is not known", node);
    }
    if (!as_index && n != 1) {
        *out = n > 0; /* GE If: a non-scalar condition is true when not empty */
        return OA_OK;
    }
    if (n < 1 || t->data == NULL) {
        return OA_FAIL(OA_E_GE_PARAM, "node %s: the selector holds no value", node);
    }
    const void *p = t->data;
    switch (t->desc.dtype) {
    case OA_DT_BOOL:
    case OA_DT_UINT8: *out = *(const uint8_t *)p; break;
    case OA_DT_INT8: *out = *(const int8_t *)p; break;
    case OA_DT_INT16: *out = *(const int16_t *)p; break;
    case OA_DT_UINT16: *out = *(const uint16_t *)p; break;
    case OA_DT_INT32: *out = *(const int32_t *)p; break;
    case OA_DT_UINT32: *out = *(const uint32_t *)p; break;
    case OA_DT_INT64:
    case OA_DT_UINT64: *out = *(const int64_t *)p; break;
    case OA_DT_FLOAT: *out = *(const float *)p != 0.0f; break;
    case OA_DT_DOUBLE: *out = *(const double *)p != 0.0; break;
    default:
        return OA_FAIL(OA_E_GE_DATATYPE, "node %s: selector of type %s is not supported", node,
                       oa_dtype_name(t->desc.dtype));
    }
    if (!as_index) {
        *out = *out != 0;
    }
    return OA_OK;
}

oa_status oa_v2_ensure_ws(v2_exec *x, size_t bytes)
{
    if (bytes <= x->ws_size) {
        return OA_OK;
    }
    size_t al;
    if (!oa_align_up(bytes, 4096, &al)) {
        return OA_FAIL(OA_E_NOMEM, "workspace of %zu bytes", bytes);
    }
    void *w = aligned_alloc(64, al);
    if (w == NULL) {
        return OA_FAIL(OA_E_NOMEM, "workspace of %zu bytes", bytes);
    }
    free(x->ws);
    x->ws = w;
    x->ws_size = al;
    return OA_OK;
}

/* ---- InferShape ---- */

/* The value of a small float tensor (f32/f64) read from its data: Range with run-time float bounds. */
static const oa_value *float_value_from_data(oa_arena *a, const v2_tensor *t, int64_t n)
{
    if (n > OA_VALUE_MAX_FLOAT_ELEMS || (t->desc.dtype != OA_DT_FLOAT && t->desc.dtype != OA_DT_DOUBLE)) {
        return NULL;
    }
    oa_value *v = oa_arena_alloc(a, sizeof(*v), 0);
    double *fv = oa_arena_array(a, n ? (size_t)n : 1, sizeof(double));
    if (v == NULL || fv == NULL) {
        return NULL;
    }
    for (int64_t k = 0; k < n; ++k) {
        fv[k] = t->desc.dtype == OA_DT_FLOAT ? (double)((const float *)t->data)[k] : ((const double *)t->data)[k];
    }
    v->dtype = t->desc.dtype;
    v->count = n;
    v->f = fv;
    return v;
}

/* The value of a small integer (or tiny float) tensor read from its data (data-dependent shapes). */
static const oa_value *value_from_data(oa_arena *a, const v2_tensor *t)
{
    int64_t n = 0;
    if (t->data == NULL || !oa_shape_numel(&t->desc.shape, &n) || n > OA_VALUE_MAX_INT_ELEMS) {
        return NULL;
    }
    if (oa_dtype_is_float(t->desc.dtype)) {
        return float_value_from_data(a, t, n);
    }
    oa_value *v = oa_arena_alloc(a, sizeof(*v), 0);
    int64_t *iv = oa_arena_array(a, n ? (size_t)n : 1, sizeof(int64_t));
    if (v == NULL || iv == NULL) {
        return NULL;
    }
    for (int64_t k = 0; k < n; ++k) {
        switch (t->desc.dtype) {
        case OA_DT_INT64: iv[k] = ((const int64_t *)t->data)[k]; break;
        case OA_DT_INT32: iv[k] = ((const int32_t *)t->data)[k]; break;
        case OA_DT_UINT64: iv[k] = (int64_t)((const uint64_t *)t->data)[k]; break;
        case OA_DT_UINT32: iv[k] = ((const uint32_t *)t->data)[k]; break;
        case OA_DT_INT16: iv[k] = ((const int16_t *)t->data)[k]; break;
        case OA_DT_UINT16: iv[k] = ((const uint16_t *)t->data)[k]; break;
        case OA_DT_INT8: iv[k] = ((const int8_t *)t->data)[k]; break;
        case OA_DT_UINT8:
        case OA_DT_BOOL: iv[k] = ((const uint8_t *)t->data)[k]; break;
        default: return NULL;
        }
    }
    v->dtype = t->desc.dtype;
    v->count = n;
    v->i = iv;
    return v;
}

static bool outputs_static(v2_exec *x, const v2_cnode *cn)
{
    for (uint32_t k = 0; k < cn->n_out; ++k) {
        const oa_shape *s = &x->tensors[cn->out_t[k]].desc.shape;
        if (s->rank == OA_RANK_UNKNOWN || !oa_shape_is_static(s)) {
            return false;
        }
    }
    return true;
}

#define STACK_IO 16

/*
 * Data-dependent output shapes (F_DDS rows: NonZero, Unique, Compress, NMS):
 * every unknown dim takes the upper bound inference attached (its range
 * maximum), so the outputs are allocated at their largest; the kernel writes
 * them packed and reports the real extent through its count output, and
 * k_launch narrows the marked dims to it. Such runs are not planned.
 */
static oa_status dds_bound(v2_exec *x, const v2_cnode *cn)
{
    for (uint32_t k = 0; k < cn->n_out; ++k) {
        v2_tensor *t = &x->tensors[cn->out_t[k]];
        oa_shape *s = &t->desc.shape;
        if (s->rank == OA_RANK_UNKNOWN) {
            return OA_FAIL(OA_E_GE_SHAPE, "node %s (%s): output %u has no known rank", cn->node->name,
                           cn->node->type_name, k);
        }
        for (int32_t d = 0; d < s->rank; ++d) {
            if (s->dims[d] >= 0) {
                continue;
            }
            if (!t->desc.has_range || t->desc.range_max[d] < 0) {
                return OA_FAIL(OA_E_GE_SHAPE, "node %s (%s): output %u dim %d has no upper bound at run time",
                               cn->node->name, cn->node->type_name, k, d);
            }
            s->dims[d] = t->desc.range_max[d];
            t->dds_mask |= (uint8_t)(1u << d);
        }
        t->desc.has_range = false;
    }
    x->data_dependent = true;
    return OA_OK;
}

oa_status oa_v2_infer(v2_exec *x, const v2_cnode *cn)
{
    const oa_node *n = cn->node;
    const uint32_t ni = cn->n_in, no = cn->n_out;
    oa_tensor_desc in_stack[STACK_IO];
    const oa_tensor_desc *inp_stack[STACK_IO];
    oa_tensor_desc *outp_stack[STACK_IO];
    oa_tensor_desc *inb = in_stack;
    const oa_tensor_desc **in = inp_stack;
    oa_tensor_desc **out = outp_stack;
    if (ni > STACK_IO || no > STACK_IO) {
        inb = malloc((ni + 1) * sizeof(*inb));
        in = malloc((ni + 1) * sizeof(*in));
        out = malloc((no + 1) * sizeof(*out));
        if (inb == NULL || in == NULL || out == NULL) {
            free(inb);
            free(in);
            free(out);
            return OA_FAIL(OA_E_NOMEM, "node %s: descriptor arrays", n->name);
        }
    }
    if (x->arena == NULL && (x->arena = oa_arena_create(0)) == NULL) {
        return OA_E_NOMEM;
    }
    for (uint32_t i = 0; i < ni; ++i) {
        if (cn->in_t[i] == V2_NONE) {
            in[i] = NULL;
            continue;
        }
        inb[i] = x->tensors[cn->in_t[i]].desc;
        inb[i].format = n->inputs[i].desc.format;
        inb[i].origin_format = n->inputs[i].desc.origin_format;
        in[i] = &inb[i];
    }
    oa_status st = OA_OK;
    for (int round = 0; round < 2; ++round) {
        for (uint32_t k = 0; k < no; ++k) {
            oa_tensor_desc *d = &x->tensors[cn->out_t[k]].desc;
            *d = n->outputs[k].desc;
            d->value = NULL;
            x->tensors[cn->out_t[k]].dds_mask = 0;
            out[k] = d;
        }
        st = oa_infer_run(n, in, ni, out, no, x->arena);
        if (st == OA_OK && outputs_static(x, cn)) {
            break;
        }
        if (round == 1) {
            break;
        }
        /* the shapes depend on tensor data: give inference the values of small integer inputs */
        bool changed = false;
        for (uint32_t i = 0; i < ni; ++i) {
            if (in[i] == NULL || (inb[i].value != NULL && oa_value_all_known(inb[i].value))) {
                continue;
            }
            const oa_value *v = value_from_data(x->arena, &x->tensors[cn->in_t[i]]);
            if (v != NULL) {
                inb[i].value = v;
                changed = true;
                if (!x->model->prog.tensors[cn->in_t[i]].shape_determined) {
                    OA_LOGD("node %s (%s): shapes read from the data of input %u", n->name, n->type_name, i);
                    x->data_dependent = true;
                }
            }
        }
        if (!changed) {
            break;
        }
    }
    if (st == OA_OK && !outputs_static(x, cn) && (oa_op_flags(n->type) & OA_OPF_DDS) != 0) {
        st = dds_bound(x, cn);
    }
    if (st == OA_OK && !outputs_static(x, cn)) {
        char buf[96];
        uint32_t k = 0;
        while (k + 1 < no && oa_shape_is_static(&x->tensors[cn->out_t[k]].desc.shape)) {
            k++;
        }
        st = OA_FAIL(OA_E_GE_SHAPE, "node %s (%s): output %u shape %s is not known at run time", n->name, n->type_name,
                     k, oa_shape_str(&x->tensors[cn->out_t[k]].desc.shape, buf, sizeof buf));
    }
    if (inb != in_stack) {
        free(inb);
        free(in);
        free(out);
    }
    return st;
}

static uint32_t k_infer(oa_v2_ctx *c)
{
    V2_STAT(((v2_exec *)c->kernel_extend_info)->model, infers);
    return (uint32_t)oa_v2_infer(c->kernel_extend_info, c->compute_node_info);
}

/* ---- AllocMemory / FreeMemory ---- */

static uint32_t k_alloc(oa_v2_ctx *c)
{
    v2_exec *x = c->kernel_extend_info;
    const v2_cnode *cn = c->compute_node_info;
    for (uint32_t k = 0; k < cn->n_out; ++k) {
        v2_tensor *t = &x->tensors[cn->out_t[k]];
        oa_v2_tensor_drop(t);
        size_t bytes;
        if (!oa_v2_desc_bytes(&t->desc, &bytes)) {
            char buf[96];
            return (uint32_t)OA_FAIL(OA_E_GE_SHAPE, "node %s output %u: cannot size %s %s", cn->node->name, k,
                                     oa_dtype_name(t->desc.dtype), oa_shape_str(&t->desc.shape, buf, sizeof buf));
        }
        if (bytes == 0) {
            t->data = g_empty;
            continue;
        }
        V2_STAT(x->model, allocs);
        t->block = x->alloc->alloc(x->alloc, bytes);
        if (t->block == NULL) {
            return (uint32_t)OA_E_GE_MEMORY_ALLOCATION;
        }
        t->data = t->block->addr;
    }
    return 0;
}

static uint32_t k_free(oa_v2_ctx *c)
{
    v2_exec *x = c->kernel_extend_info;
    const v2_tdef *td = c->compute_node_info;
    oa_v2_tensor_drop(&x->tensors[td->id]);
    return 0;
}

/* ---- launches ---- */

/* The real extent the kernel reported replaces the upper bound of the marked dims (dds_bound). */
static oa_status dds_narrow(v2_exec *x, const v2_cnode *cn, int64_t count)
{
    for (uint32_t k = 0; k < cn->n_out; ++k) {
        v2_tensor *t = &x->tensors[cn->out_t[k]];
        for (int32_t d = 0; d < t->desc.shape.rank && t->dds_mask != 0; ++d) {
            if ((t->dds_mask & (1u << d)) == 0) {
                continue;
            }
            if (count < 0 || count > t->desc.shape.dims[d]) {
                return OA_FAIL(OA_E_INTERNAL, "node %s (%s): the kernel reported %lld rows for output %u, bound %lld",
                               cn->node->name, cn->node->type_name, (long long)count, k,
                               (long long)t->desc.shape.dims[d]);
            }
            t->desc.shape.dims[d] = count;
        }
        t->dds_mask = 0;
    }
    return OA_OK;
}

static uint32_t k_launch(oa_v2_ctx *c)
{
    v2_exec *x = c->kernel_extend_info;
    v2_cnode *cn = (v2_cnode *)(uintptr_t)c->compute_node_info;
    v2_kop_entry *e;
    oa_status st = oa_v2_kop_get(x, cn, &e);
    if (st != OA_OK) {
        return (uint32_t)st;
    }
    const void *ins_stack[STACK_IO * 2];
    void *outs_stack[STACK_IO];
    const void **ins = ins_stack;
    void **outs = outs_stack;
    if (e->n_in > STACK_IO * 2 || e->n_out > STACK_IO) {
        ins = malloc(((size_t)e->n_in + 1) * sizeof(*ins));
        outs = malloc(((size_t)e->n_out + 1) * sizeof(*outs));
        if (ins == NULL || outs == NULL) {
            free(ins);
            free(outs);
            return (uint32_t)OA_FAIL(OA_E_NOMEM, "node %s: pointer arrays", cn->node->name);
        }
    }
    for (int k = 0; k < e->n_in; ++k) {
        switch (e->src[k].kind) {
        case V2_KSRC_ACT: ins[k] = x->tensors[cn->in_t[e->src[k].slot]].data; break;
        case V2_KSRC_CONST: ins[k] = e->src[k].cptr; break;
        default: ins[k] = NULL; break;
        }
    }
    int64_t count = -1;
    for (int k = 0; k < e->n_out; ++k) {
        outs[k] = e->out_index[k] == OA_BIND_OUT_COUNT ? (void *)&count : x->tensors[cn->out_t[e->out_index[k]]].data;
    }
    st = oa_v2_ensure_ws(x, e->ws);
    if (st == OA_OK) {
        st = oa_kop_run(e->op, ins, outs, x->ws, x->pool);
    }
    if (st == OA_OK && e->dds) {
        st = dds_narrow(x, cn, count);
    }
    if (ins != ins_stack) {
        free(ins);
        free(outs);
    }
    return (uint32_t)st;
}

static void write_ints(void *dst, oa_dtype dt, const int64_t *v, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        if (dt == OA_DT_INT32) {
            ((int32_t *)dst)[i] = (int32_t)v[i];
        } else {
            ((int64_t *)dst)[i] = v[i];
        }
    }
}

static uint32_t k_launch_shape(oa_v2_ctx *c)
{
    v2_exec *x = c->kernel_extend_info;
    const v2_cnode *cn = c->compute_node_info;
    const v2_tensor *in = &x->tensors[cn->in_t[0]];
    v2_tensor *out = &x->tensors[cn->out_t[0]];
    if (out->desc.dtype != OA_DT_INT32 && out->desc.dtype != OA_DT_INT64) {
        return (uint32_t)OA_FAIL(OA_E_GE_DATATYPE, "node %s: output type %s is not int32/int64", cn->node->name,
                                 oa_dtype_name(out->desc.dtype));
    }
    if (cn->kind == V2_C_SHAPE) {
        if (in->desc.shape.rank < 0) {
            return (uint32_t)OA_FAIL(OA_E_GE_SHAPE, "node %s: input rank is unknown", cn->node->name);
        }
        int64_t numel = 0;
        if (!oa_shape_numel(&out->desc.shape, &numel) || numel != in->desc.shape.rank) {
            return (uint32_t)OA_FAIL(OA_E_GE_SHAPE, "node %s: output holds %lld values for a rank-%d input",
                                     cn->node->name, (long long)numel, (int)in->desc.shape.rank);
        }
        write_ints(out->data, out->desc.dtype, in->desc.shape.dims, (size_t)in->desc.shape.rank);
    } else {
        int64_t numel = 0;
        if (!oa_shape_numel(&in->desc.shape, &numel)) {
            return (uint32_t)OA_FAIL(OA_E_GE_SHAPE, "node %s: input shape is not known", cn->node->name);
        }
        write_ints(out->data, out->desc.dtype, &numel, 1);
    }
    return 0;
}

static uint32_t k_view(oa_v2_ctx *c)
{
    v2_exec *x = c->kernel_extend_info;
    const v2_cnode *cn = c->compute_node_info;
    const v2_tensor *in = &x->tensors[cn->in_t[0]];
    v2_tensor *out = &x->tensors[cn->out_t[0]];
    size_t bi = 0, bo = 0;
    if (!oa_v2_desc_bytes(&in->desc, &bi) || !oa_v2_desc_bytes(&out->desc, &bo) || bi != bo) {
        char a[96], b[96];
        return (uint32_t)OA_FAIL(OA_E_GE_SHAPE, "node %s (%s): cannot view %s %s as %s %s", cn->node->name,
                                 cn->node->type_name, oa_dtype_name(in->desc.dtype),
                                 oa_shape_str(&in->desc.shape, a, sizeof a), oa_dtype_name(out->desc.dtype),
                                 oa_shape_str(&out->desc.shape, b, sizeof b));
    }
    oa_v2_block *keep = oa_v2_block_retain(in->block);
    oa_v2_tensor_drop(out);
    out->data = in->data;
    out->block = keep;
    return 0;
}

/* ---- control flow ---- */

/* Binds child's Data tensors to the owner's tensors (by owner input slot), runs it, takes its outputs. */
static oa_status run_child(v2_exec *x, const v2_cnode *cn, const v2_gprog *child, const uint32_t *slot_t,
                           uint32_t n_slots, const uint32_t *out_t, uint32_t n_out)
{
    if (child->n_out != n_out) {
        return OA_FAIL(OA_E_GE_PARAM, "node %s: subgraph %s has %u outputs, the node %u", cn->node->name, child->name,
                       child->n_out, n_out);
    }
    for (uint32_t b = 0; b < child->n_binds; ++b) {
        const uint32_t ps = child->binds[b].parent_index;
        if (ps >= n_slots || slot_t[ps] == V2_NONE) {
            return OA_FAIL(OA_E_GE_PARAM, "node %s: subgraph %s reads input %u, which is not given", cn->node->name,
                           child->name, ps);
        }
        oa_v2_tensor_share(&x->tensors[child->binds[b].tensor], &x->tensors[slot_t[ps]]);
    }
    oa_status st = oa_v2_run_graph(x, child);
    if (st == OA_OK) {
        for (uint32_t k = 0; k < n_out; ++k) {
            oa_v2_tensor_share(&x->tensors[out_t[k]], &x->tensors[child->out_t[k]]);
        }
    }
    for (uint32_t k = 0; k < child->n_out; ++k) {
        oa_v2_tensor_drop(&x->tensors[child->out_t[k]]);
    }
    return st;
}

static uint32_t k_if(oa_v2_ctx *c)
{
    v2_exec *x = c->kernel_extend_info;
    const v2_cnode *cn = c->compute_node_info;
    int64_t sel = 0;
    oa_status st = oa_v2_read_selector(&x->tensors[cn->in_t[0]], cn->node->name, cn->kind == V2_C_CASE, &sel);
    if (st != OA_OK) {
        return (uint32_t)st;
    }
    uint32_t b;
    if (cn->kind == V2_C_IF) {
        b = sel ? 0 : 1;
    } else {
        b = (sel < 0 || sel >= (int64_t)cn->n_children) ? cn->n_children - 1 : (uint32_t)sel;
    }
    return (uint32_t)run_child(x, cn, cn->children[b], cn->in_t, cn->n_in, cn->out_t, cn->n_out);
}

static uint32_t k_call(oa_v2_ctx *c)
{
    v2_exec *x = c->kernel_extend_info;
    const v2_cnode *cn = c->compute_node_info;
    return (uint32_t)run_child(x, cn, cn->children[0], cn->in_t, cn->n_in, cn->out_t, cn->n_out);
}

static uint32_t k_while(oa_v2_ctx *c)
{
    v2_exec *x = c->kernel_extend_info;
    const v2_cnode *cn = c->compute_node_info;
    const v2_gprog *cond = cn->children[0], *body = cn->children[1];
    if (cn->n_in != cn->n_out || body->n_out != cn->n_out || cond->n_out < 1) {
        return (uint32_t)OA_FAIL(OA_E_GE_PARAM, "node %s: %u loop inputs, %u outputs, body %u, cond %u outputs",
                                 cn->node->name, cn->n_in, cn->n_out, body->n_out, cond->n_out);
    }
    /* the loop variables live in the node's output tensors */
    for (uint32_t k = 0; k < cn->n_out; ++k) {
        if (cn->in_t[k] == V2_NONE) {
            return (uint32_t)OA_FAIL(OA_E_GE_PARAM, "node %s: loop variable %u has no input", cn->node->name, k);
        }
        oa_v2_tensor_share(&x->tensors[cn->out_t[k]], &x->tensors[cn->in_t[k]]);
    }
    oa_status st = OA_OK;
    for (;;) {
        for (uint32_t b = 0; b < cond->n_binds && st == OA_OK; ++b) {
            const uint32_t ps = cond->binds[b].parent_index;
            if (ps >= cn->n_out) {
                st = OA_FAIL(OA_E_GE_PARAM, "node %s: cond reads loop variable %u of %u", cn->node->name, ps,
                             cn->n_out);
            } else {
                oa_v2_tensor_share(&x->tensors[cond->binds[b].tensor], &x->tensors[cn->out_t[ps]]);
            }
        }
        if (st == OA_OK) {
            st = oa_v2_run_graph(x, cond);
        }
        int64_t go = 0;
        if (st == OA_OK) {
            st = oa_v2_read_selector(&x->tensors[cond->out_t[0]], cn->node->name, false, &go);
        }
        for (uint32_t k = 0; k < cond->n_out; ++k) {
            oa_v2_tensor_drop(&x->tensors[cond->out_t[k]]);
        }
        if (st != OA_OK || !go) {
            break;
        }
        st = run_child(x, cn, body, cn->out_t, cn->n_out, cn->out_t, cn->n_out);
        if (st != OA_OK) {
            break;
        }
    }
    return (uint32_t)st;
}

/* ---- model outputs ---- */

static uint32_t k_output(oa_v2_ctx *c)
{
    v2_exec *x = c->kernel_extend_info;
    const uint32_t k = (uint32_t)(uintptr_t)c->compute_node_info;
    return (uint32_t)oa_v2_emit_output(x, k);
}

/* ---- Init / DeInit ---- */

static uint32_t k_const(oa_v2_ctx *c)
{
    v2_exec *x = c->kernel_extend_info;
    const v2_tdef *td = c->compute_node_info;
    v2_tensor *t = &x->tensors[td->id];
    t->desc = td->node->outputs[0].desc;
    t->desc.value = td->konst_value;
    t->data = td->kdata != NULL ? (void *)(uintptr_t)td->kdata : g_empty;
    t->block = NULL;
    size_t want = 0;
    if (oa_v2_desc_bytes(&t->desc, &want) && want > td->konst->size) {
        return (uint32_t)OA_FAIL(OA_E_GE_PARAM, "const %s holds %zu bytes, its desc needs %zu", td->node->name,
                                 td->konst->size, want);
    }
    return 0;
}

static uint32_t k_file_constant(oa_v2_ctx *c)
{
    v2_exec *x = c->kernel_extend_info;
    const v2_tdef *td = c->compute_node_info;
    const oa_fc_weight *w = x->model->fc_set ? oa_fc_set_find(x->model->fc_set, td->node) : NULL;
    if (w == NULL) {
        return (uint32_t)OA_FAIL(OA_E_GE_PARAM, "FileConstant %s has no weight placed", td->node->name);
    }
    v2_tensor *t = &x->tensors[td->id];
    t->desc = td->node->outputs[0].desc;
    t->data = (void *)(uintptr_t)w->data;
    t->block = NULL;
    size_t want = 0;
    if (oa_v2_desc_bytes(&t->desc, &want) && want > w->nbytes) {
        return (uint32_t)OA_FAIL(OA_E_GE_PARAM, "FileConstant %s holds %zu bytes, its desc needs %zu", td->node->name,
                                 w->nbytes, want);
    }
    return 0;
}

static uint32_t k_release_const(oa_v2_ctx *c)
{
    v2_exec *x = c->kernel_extend_info;
    const v2_tdef *td = c->compute_node_info;
    x->tensors[td->id].data = NULL;
    return 0;
}

/* ---- running a graph ---- */

oa_status oa_v2_run_graph(v2_exec *x, const v2_gprog *g)
{
    const uint32_t st = oa_v2_graph_inst_run(x->ginst[g->index], (int)g->index, x->sub);
    if (st != 0) {
        /* give back what the failed run still holds in this graph */
        const v2_program *p = &x->model->prog;
        for (uint32_t t = 0; t < p->n_tensors; ++t) {
            if (p->tensors[t].graph == g->index && p->tensors[t].kind != V2_T_CONST) {
                oa_v2_tensor_drop(&x->tensors[t]);
            }
        }
    }
    return (oa_status)st;
}

/* ---- registry ---- */

static oa_status set_ext(oa_v2_ctx *c, void *arg)
{
    c->kernel_extend_info = arg;
    return OA_OK;
}

static const oa_v2_kernel_def k_defs[] = {
    {"InferShape", k_infer, set_ext, NULL},
    {"AllocMemory", k_alloc, set_ext, NULL},
    {"LaunchKernel", k_launch, set_ext, NULL},
    {"LaunchShape", k_launch_shape, set_ext, NULL},
    {"View", k_view, set_ext, NULL},
    {"FreeMemory", k_free, set_ext, NULL},
    {"If", k_if, set_ext, NULL},
    {"Case", k_if, set_ext, NULL},
    {"While", k_while, set_ext, NULL},
    {"PartitionedCall", k_call, set_ext, NULL},
    {"OutputData", k_output, set_ext, NULL},
    {"Const", k_const, set_ext, NULL},
    {"FileConstant", k_file_constant, set_ext, NULL},
    {"FileConstantUserMem", k_file_constant, set_ext, NULL},
    {"ReleaseConst", k_release_const, set_ext, NULL},
};

static oa_v2_registry g_registry;
static pthread_once_t g_registry_once = PTHREAD_ONCE_INIT;
static bool g_registry_ok;

static void registry_init(void)
{
    g_registry_ok = true;
    for (size_t i = 0; i < OA_ARRAY_SIZE(k_defs); ++i) {
        if (oa_v2_registry_register(&g_registry, &k_defs[i]) != OA_OK) {
            g_registry_ok = false;
        }
    }
}

const oa_v2_registry *oa_v2_kernel_registry(void)
{
    pthread_once(&g_registry_once, registry_init);
    return g_registry_ok ? &g_registry : NULL;
}
