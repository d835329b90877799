/*
 * op_bind core: IR descs -> kernel descs, input sources (activations,
 * constants, synthesized host values), the compiler's post-op attrs, and
 * the binding lifecycle. The per-family decoders are in op_bind_ops.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "op_bind/op_bind_internal.h"
#include "op_bind/op_pool.h"

#define SYNTH_CAP 1024u

oa_status oa_bind_fail(const oa_bctx *c, oa_status st, const char *fmt, ...)
{
    char msg[384];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return OA_FAIL(st, "node %s (%s): %s", c->n->name, c->n->type_name, msg);
}

bool oa_op_bind_is_structural(const oa_node *n)
{
    switch (n->type) {
    case OA_OP_DATA:
    case OA_OP_CONST:
    case OA_OP_CONSTANT:
    case OA_OP_FILE_CONSTANT:
    case OA_OP_NET_OUTPUT:
    case OA_OP_IF:
    case OA_OP_STATELESS_IF:
    case OA_OP_CASE:
    case OA_OP_WHILE:
    case OA_OP_PARTITIONED_CALL:
    case OA_OP_MAP_INDEX:
        return true;
    default:
        return false;
    }
}

/* ---- descs ---- */

static bool kdtype_of(oa_dtype dt, oa_kdtype *out)
{
    switch (dt) {
    case OA_DT_FLOAT: *out = OA_KDT_F32; return true;
    case OA_DT_FLOAT16: *out = OA_KDT_F16; return true;
    case OA_DT_INT8: *out = OA_KDT_I8; return true;
    case OA_DT_INT32: *out = OA_KDT_I32; return true;
    case OA_DT_UINT8: *out = OA_KDT_U8; return true;
    case OA_DT_INT16: *out = OA_KDT_I16; return true;
    case OA_DT_UINT16: *out = OA_KDT_U16; return true;
    case OA_DT_UINT32: *out = OA_KDT_U32; return true;
    case OA_DT_INT64: *out = OA_KDT_I64; return true;
    case OA_DT_UINT64: *out = OA_KDT_U64; return true;
    case OA_DT_DOUBLE: *out = OA_KDT_F64; return true;
    case OA_DT_BOOL: *out = OA_KDT_BOOL; return true;
    case OA_DT_BF16: *out = OA_KDT_BF16; return true;
    default: return false;
    }
}

oa_status oa_op_bind_desc(const oa_tensor_desc *d, const char *what, oa_ktensor *t)
{
    memset(t, 0, sizeof(*t));
    if (!kdtype_of(d->dtype, &t->dtype)) {
        return OA_FAIL(OA_E_UNSUPPORTED_DATA_TYPE, "%s: data type %s has no CPU kernel", what, oa_dtype_name(d->dtype));
    }
    const oa_shape *s = &d->shape;
    t->layout = OA_KLAYOUT_PLAIN;
    if (d->format == OA_FORMAT_NC1HWC0) {
        if (!d->origin_shape_set || d->origin_shape.rank != 4 || !oa_shape_is_static(&d->origin_shape)) {
            return OA_FAIL(OA_E_PARAM, "%s: NC1HWC0 tensor without a static 4-D origin shape", what);
        }
        if (s->rank != 5 || !oa_shape_is_static(s) || s->dims[0] != d->origin_shape.dims[0] ||
            s->dims[2] != d->origin_shape.dims[2] || s->dims[3] != d->origin_shape.dims[3] ||
            s->dims[1] * s->dims[4] < d->origin_shape.dims[1]) {
            return OA_FAIL(OA_E_PARAM, "%s: NC1HWC0 shape does not hold its origin shape", what);
        }
        if (t->dtype != OA_KDT_F32) {
            return OA_FAIL(OA_E_UNSUPPORTED_DATA_TYPE, "%s: NC1HWC0 needs float32, got %s", what,
                           oa_dtype_name(d->dtype));
        }
        s = &d->origin_shape;
        t->layout = OA_KLAYOUT_NCHWC;
    }
    if (s->rank < 0 || !oa_shape_is_static(s)) {
        return OA_FAIL(OA_E_PARAM, "%s: shape is not static", what);
    }
    if (s->rank > OA_KMAX_DIMS) {
        return OA_FAIL(OA_E_PARAM, "%s: rank %d exceeds %d", what, (int)s->rank, OA_KMAX_DIMS);
    }
    t->rank = s->rank;
    for (int i = 0; i < s->rank; i++) {
        t->dims[i] = s->dims[i];
    }
    return OA_OK;
}

bool oa_op_bind_desc_bytes(const oa_tensor_desc *d, size_t *out)
{
    return oa_tensor_nbytes(d->dtype, &d->shape, out);
}

/* ---- sources ---- */

bool oa_bind_has(const oa_node *n, uint32_t slot)
{
    return slot < n->num_inputs && n->inputs[slot].src != NULL;
}

const oa_tensor *oa_op_bind_const_input(const oa_node *n, uint32_t slot)
{
    if (!oa_bind_has(n, slot)) {
        return NULL;
    }
    const oa_node *p = n->inputs[slot].src;
    if (p->type != OA_OP_CONST && p->type != OA_OP_CONSTANT) {
        return NULL;
    }
    const oa_tensor *t = NULL;
    return oa_attrs_get_tensor(&p->attrs, "value", &t) ? t : NULL;
}

static oa_status grow_in(oa_bctx *c)
{
    oa_op_bind *b = c->b;
    if (b->n_in < c->cap_in) {
        return OA_OK;
    }
    const int cap = c->cap_in ? c->cap_in * 2 : 8;
    oa_ktensor *in = realloc(b->in, (size_t)cap * sizeof(*in));
    if (in == NULL) {
        return OA_FAIL(OA_E_NOMEM, "binding inputs");
    }
    b->in = in;
    oa_bind_src *src = realloc(b->src, (size_t)cap * sizeof(*src));
    if (src == NULL) {
        return OA_FAIL(OA_E_NOMEM, "binding inputs");
    }
    b->src = src;
    c->cap_in = cap;
    return OA_OK;
}

oa_status oa_bind_in_absent(oa_bctx *c)
{
    oa_status st = grow_in(c);
    if (st != OA_OK) {
        return st;
    }
    oa_op_bind *b = c->b;
    memset(&b->in[b->n_in], 0, sizeof(b->in[0]));
    b->in[b->n_in].dtype = OA_KDT_UNDEFINED;
    memset(&b->src[b->n_in], 0, sizeof(b->src[0]));
    b->src[b->n_in].kind = OA_BIND_ABSENT;
    b->n_in++;
    return OA_OK;
}

oa_status oa_bind_in(oa_bctx *c, uint32_t slot, bool required, bool host)
{
    const oa_node *n = c->n;
    if (!oa_bind_has(n, slot)) {
        if (required) {
            return BFAIL(c, OA_E_PARAM, "required input %u is not connected", slot);
        }
        return oa_bind_in_absent(c);
    }
    oa_status st = grow_in(c);
    if (st != OA_OK) {
        return st;
    }
    oa_op_bind *b = c->b;
    const oa_input *ip = &n->inputs[slot];
    if (ip->src_index >= ip->src->num_outputs) {
        return BFAIL(c, OA_E_PARAM, "input %u reads output %u of %s, which has %u", slot, ip->src_index,
                     ip->src->name, ip->src->num_outputs);
    }
    char what[96];
    snprintf(what, sizeof what, "node %s input %u", n->name, slot);
    oa_ktensor *t = &b->in[b->n_in];
    oa_bind_src *s = &b->src[b->n_in];
    memset(s, 0, sizeof(*s));
    st = oa_op_bind_desc(&ip->src->outputs[ip->src_index].desc, what, t);
    if (st != OA_OK) {
        return st;
    }
    s->slot = slot;
    s->src = ip->src;
    s->src_index = ip->src_index;
    const oa_tensor *k = oa_op_bind_const_input(n, slot);
    if (k != NULL) {
        const size_t want = oa_ktensor_bytes(t);
        if (t->layout != OA_KLAYOUT_PLAIN || k->size != want || (want > 0 && k->data == NULL)) {
            return BFAIL(c, OA_E_PARAM, "constant input %u holds %zu bytes, its desc needs %zu", slot, k->size, want);
        }
        t->data = k->data;
        t->stable = c->opts != NULL && c->opts->consts_stable;
        s->kind = OA_BIND_CONST;
        s->size = k->size;
    } else if (host) {
        const void *data = NULL;
        if (c->opts != NULL && c->opts->host_data != NULL) {
            data = c->opts->host_data(c->opts->ctx, ip->src, ip->src_index);
        }
        if (data == NULL) {
            return BFAIL(c, OA_E_PARAM, "input %u (from %s) must be a constant: the kernel needs its value at load",
                         slot, ip->src->name);
        }
        t->data = data;
        s->kind = OA_BIND_CONST;
        s->size = oa_ktensor_bytes(t);
    } else {
        s->kind = OA_BIND_ACT;
    }
    b->n_in++;
    return OA_OK;
}

oa_status oa_bind_in_synth(oa_bctx *c, oa_kdtype dt, int rank, const int64_t *dims, const void *data, size_t size)
{
    oa_op_bind *b = c->b;
    const size_t at = (c->synth_used + 15u) & ~(size_t)15u;
    if (rank > OA_KMAX_DIMS || at + size > c->synth_cap) {
        return BFAIL(c, OA_E_INTERNAL, "synthesized constant of %zu bytes does not fit", size);
    }
    oa_status st = grow_in(c);
    if (st != OA_OK) {
        return st;
    }
    uint8_t *dst = (uint8_t *)b->synth + at;
    if (size > 0) {
        memcpy(dst, data, size);
    }
    c->synth_used = at + size;
    oa_ktensor *t = &b->in[b->n_in];
    oa_ktensor_set(t, dt, rank, dims);
    t->data = dst;
    oa_bind_src *s = &b->src[b->n_in];
    memset(s, 0, sizeof(*s));
    s->kind = OA_BIND_CONST;
    s->synthesized = true;
    s->size = size;
    b->n_in++;
    return OA_OK;
}

oa_status oa_bind_out(oa_bctx *c, uint32_t idx)
{
    oa_op_bind *b = c->b;
    const oa_node *n = c->n;
    if (idx >= n->num_outputs) {
        return BFAIL(c, OA_E_PARAM, "output %u does not exist (%u outputs)", idx, n->num_outputs);
    }
    if (b->n_out == c->cap_out) {
        const int cap = c->cap_out ? c->cap_out * 2 : 4;
        oa_ktensor *out = realloc(b->out, (size_t)cap * sizeof(*out));
        if (out == NULL) {
            return OA_FAIL(OA_E_NOMEM, "binding outputs");
        }
        b->out = out;
        uint32_t *oi = realloc(b->out_index, (size_t)cap * sizeof(*oi));
        if (oi == NULL) {
            return OA_FAIL(OA_E_NOMEM, "binding outputs");
        }
        b->out_index = oi;
        c->cap_out = cap;
    }
    char what[96];
    snprintf(what, sizeof what, "node %s output %u", n->name, idx);
    oa_status st = oa_op_bind_desc(&n->outputs[idx].desc, what, &b->out[b->n_out]);
    if (st != OA_OK) {
        return st;
    }
    b->out_index[b->n_out] = idx;
    b->n_out++;
    return OA_OK;
}

bool oa_bind_slot_data(const oa_bctx *c, uint32_t slot, const void **data, const oa_tensor_desc **desc)
{
    *data = NULL;
    *desc = NULL;
    const oa_tensor *k = oa_op_bind_const_input(c->n, slot);
    if (k != NULL) {
        *data = k->data;
        *desc = &k->desc;
    } else if (oa_bind_has(c->n, slot) && c->opts != NULL && c->opts->host_data != NULL) {
        const oa_input *ip = &c->n->inputs[slot];
        *data = c->opts->host_data(c->opts->ctx, ip->src, ip->src_index);
        *desc = &ip->src->outputs[ip->src_index].desc;
    }
    return *desc != NULL;
}

bool oa_bind_slot_ints(const oa_bctx *c, uint32_t slot, int64_t *vals, int cap, int *n)
{
    const void *data;
    const oa_tensor_desc *d;
    (void)oa_bind_slot_data(c, slot, &data, &d);
    int64_t cnt = 0;
    if (data == NULL && !(d != NULL && oa_shape_numel(&d->shape, &cnt) && cnt == 0)) {
        return false;
    }
    if (!oa_shape_numel(&d->shape, &cnt) || cnt > cap) {
        return false;
    }
    const uint8_t *b = data;
    for (int64_t i = 0; i < cnt; i++) {
        /* constants may sit anywhere in a model image: no typed loads */
        switch (d->dtype) {
        case OA_DT_INT32: {
            int32_t v;
            memcpy(&v, b + 4 * i, 4);
            vals[i] = v;
            break;
        }
        case OA_DT_INT64: memcpy(&vals[i], b + 8 * i, 8); break;
        case OA_DT_UINT8: vals[i] = b[i]; break;
        case OA_DT_INT8: vals[i] = (int8_t)b[i]; break;
        default: return false;
        }
    }
    *n = (int)cnt;
    return true;
}

/* ---- the compiler's post-ops ---- */

static const struct {
    const char *name;
    oa_kact act;
} k_post_names[] = {
    {"Relu", OA_KACT_RELU},           {"LeakyRelu", OA_KACT_LEAKY_RELU}, {"Clip", OA_KACT_CLIP},
    {"HardSigmoid", OA_KACT_HARDSIGMOID}, {"HardSwish", OA_KACT_HARDSWISH},
    {"MulHardSigmoid", OA_KACT_MUL_HARDSIGMOID}, {"Sigmoid", OA_KACT_SIGMOID}, {"Tanh", OA_KACT_TANH},
    {"GeluErf", OA_KACT_GELU_ERF},    {"Swish", OA_KACT_SWISH},
    {"Linear", OA_KACT_LINEAR},
};

oa_status oa_bind_post_ops(oa_bctx *c, oa_kpost_chain *post, bool allow_add, int *n_add, uint32_t *base)
{
    memset(post, 0, sizeof(*post));
    *n_add = 0;
    const char *const *names = NULL;
    size_t n = 0;
    if (!oa_attrs_get_list_str(&c->n->attrs, "_oa_post_ops", &names, &n)) {
        if (oa_attrs_find(&c->n->attrs, "_oa_post_ops") != NULL) {
            return BFAIL(c, OA_E_PARAM, "attr _oa_post_ops is not a list of strings");
        }
        return OA_OK;
    }
    if (n > OA_KMAX_POST) {
        return BFAIL(c, OA_E_PARAM, "%zu post-ops, at most %d", n, OA_KMAX_POST);
    }
    const float *alpha = NULL, *beta = NULL;
    size_t na = 0, nb = 0;
    const bool has_a = oa_attrs_get_list_float(&c->n->attrs, "_oa_post_alpha", &alpha, &na);
    const bool has_b = oa_attrs_get_list_float(&c->n->attrs, "_oa_post_beta", &beta, &nb);
    if ((has_a && na != n) || (has_b && nb != n)) {
        return BFAIL(c, OA_E_PARAM, "_oa_post_alpha/_oa_post_beta hold %zu/%zu values for %zu post-ops", na, nb, n);
    }
    for (size_t i = 0; i < n; i++) {
        oa_kpost *p = &post->ops[i];
        p->alpha = has_a ? alpha[i] : 0.0f;
        p->beta = has_b ? beta[i] : 0.0f;
        if (strcmp(names[i], "Add") == 0) {
            if (!allow_add) {
                return BFAIL(c, OA_E_PARAM, "post-op Add is not supported by this kernel");
            }
            p->kind = OA_KPOST_ADD;
            (*n_add)++;
            continue;
        }
        p->kind = OA_KPOST_ACT;
        size_t k = 0;
        while (k < OA_ARRAY_SIZE(k_post_names) && strcmp(k_post_names[k].name, names[i]) != 0) {
            k++;
        }
        if (k == OA_ARRAY_SIZE(k_post_names)) {
            return BFAIL(c, OA_E_PARAM, "unknown post-op \"%s\"", names[i]);
        }
        p->act = k_post_names[k].act;
    }
    post->n = (int)n;
    if (*n_add > 0) {
        int64_t b64 = 0;
        if (!oa_attrs_get_int(&c->n->attrs, "_oa_post_input_base", &b64) || b64 < 0 ||
            b64 + *n_add > (int64_t)c->n->num_inputs) {
            return BFAIL(c, OA_E_PARAM, "post-op Add operands: _oa_post_input_base missing or out of range");
        }
        *base = (uint32_t)b64;
    }
    return OA_OK;
}

/* ---- lifecycle ---- */

void oa_op_bind_destroy(oa_op_bind *b)
{
    if (b == NULL) {
        return;
    }
    free(b->in);
    free(b->src);
    free(b->out);
    free(b->out_index);
    free(b->synth);
    free(b);
}

/* The trailing count output of a data-dependent op (an i64 scalar, OA_BIND_OUT_COUNT). */
static oa_status bind_count_out(oa_bctx *c)
{
    oa_op_bind *b = c->b;
    oa_ktensor *o = realloc(b->out, ((size_t)b->n_out + 1) * sizeof(*o));
    if (o == NULL) {
        return OA_FAIL(OA_E_NOMEM, "binding outputs");
    }
    b->out = o;
    uint32_t *oi = realloc(b->out_index, ((size_t)b->n_out + 1) * sizeof(*oi));
    if (oi == NULL) {
        return OA_FAIL(OA_E_NOMEM, "binding outputs");
    }
    b->out_index = oi;
    c->cap_out = b->n_out + 1;
    oa_ktensor_set(&b->out[b->n_out], OA_KDT_I64, 0, NULL);
    b->out_index[b->n_out] = OA_BIND_OUT_COUNT;
    b->n_out++;
    return OA_OK;
}

oa_status oa_op_bind_node(const oa_node *n, const oa_op_bind_opts *opts, oa_op_bind **out)
{
    if (out == NULL) {
        return OA_FAIL(OA_E_PARAM, "out is NULL");
    }
    *out = NULL;
    if (n == NULL) {
        return OA_FAIL(OA_E_PARAM, "node is NULL");
    }
    oa_op_bind *b = calloc(1, sizeof(*b));
    if (b == NULL) {
        return OA_FAIL(OA_E_NOMEM, "binding of node %s", n->name);
    }
    b->node = n;
    b->synth = malloc(SYNTH_CAP);
    if (b->synth == NULL) {
        oa_op_bind_destroy(b);
        return OA_FAIL(OA_E_NOMEM, "binding of node %s", n->name);
    }
    oa_bctx c = {.n = n, .opts = opts, .b = b, .synth_cap = SYNTH_CAP};
    oa_status st = oa_bind_decode(&c);
    if (st == OA_OK && opts != NULL && opts->dds_count && (oa_op_flags(n->type) & OA_OPF_DDS) != 0) {
        st = bind_count_out(&c);
    }
    if (st != OA_OK) {
        oa_op_bind_destroy(b);
        return st;
    }
    *out = b;
    return OA_OK;
}

oa_status oa_op_bind_create(const oa_op_bind *b, oa_kop **out)
{
    if (b == NULL || out == NULL) {
        return OA_FAIL(OA_E_PARAM, "NULL argument");
    }
    *out = NULL;
    (void)oa_op_threadpool(); /* started before the first kernel: its setup may use it */
    oa_status st = oa_kop_create(b->type, b->has_params ? &b->params : NULL, b->n_in, b->in, b->n_out, b->out, out);
    if (st != OA_OK) {
        /* the kernel's message says what is wrong; this one (recorded too: aclGetRecentErrMsg) says where */
        return OA_FAIL(st, "kernel %s for node %s (%s) could not be created", oa_kop_type_name(b->type),
                       b->node->name, b->node->type_name);
    }
    return st;
}
