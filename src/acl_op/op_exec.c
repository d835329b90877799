/*
 * Executables of single operators: binding the one-node graph to a kernel
 * (op_bind), data type adaptation, and the stream task (op_exec.h).
 */
#include "acl_op/op_exec.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl_base/data_buffer.h"
#include "acl_rt/rt_stream.h"
#include "base/error.h"
#include "base/log.h"
#include "base/util.h"
#include "dump/dump_write.h"
#include "kernels/kernels.h"
#include "op_bind/op_bind.h"
#include "prof/prof_internal.h"

struct oa_opexec {
    atomic_int refs;
    oa_graph *graph;
    oa_node *node;
    int n_in, n_out;
    int *data_of_input;        /* user input i -> Data index, -1 for absent / constant inputs */
    int n_data;
    const oa_node **data_node; /* Data index -> Data node */
    size_t *data_bytes;        /* Data index -> bytes of the user buffer */
    aclDataType *data_dtype;   /* Data index -> user dtype */
    aclDataType *data_run;     /* Data index -> dtype the kernel computes in, ACL_DT_UNDEFINED: the user's */
    uint8_t *data_block;       /* Data index -> oa_block layout of the user buffer */
    int64_t (*data_bdims)[4];  /* its 4-D dims */
    size_t *out_bytes;         /* output k -> bytes of the user buffer */
    aclDataType *out_dtype;
    aclDataType *out_run;
    uint8_t *out_block;
    int64_t (*out_bdims)[4];
    int64_t (*out_dims)[OA_MAX_RANK];
    size_t *out_ndims;
    bool bind_at_run;
    bool int_matmul;
    oa_op_bind *bind;
    oa_kop *kop;
    size_t ws;
};

/* ---- small helpers ---- */

static bool is_half(aclDataType dt)
{
    return dt == ACL_FLOAT16 || dt == ACL_BF16;
}

static bool is_small_int(aclDataType dt)
{
    return dt == ACL_INT8 || dt == ACL_UINT8 || dt == ACL_INT16 || dt == ACL_UINT16;
}

/*
 * The dtype a user tensor is computed in: halves always in float32 (the
 * kernels are float32), small integers in int32 when ints is set (the
 * retry after a kernel refused them).
 */
static aclDataType run_dtype(aclDataType dt, bool ints)
{
    if (is_half(dt)) {
        return ACL_FLOAT;
    }
    if (ints && is_small_int(dt)) {
        return ACL_INT32;
    }
    return dt;
}

static bool is_int_kdt(oa_kdtype dt)
{
    return dt == OA_KDT_I8 || dt == OA_KDT_U8 || dt == OA_KDT_I16 || dt == OA_KDT_U16 || dt == OA_KDT_I32 ||
           dt == OA_KDT_U32 || dt == OA_KDT_I64 || dt == OA_KDT_U64;
}

static bool desc_numel(const oa_tensor_desc *d, size_t *n)
{
    int64_t v;
    if (!oa_shape_numel(&d->shape, &v) || v < 0) {
        return false;
    }
    *n = (size_t)v;
    return true;
}

/* dst[n] = src[n] converted by the Cast kernel (F16C / round-to-nearest-even). */
static oa_status convert(const void *src, aclDataType sdt, void *dst, aclDataType ddt, size_t n)
{
    if (n == 0) {
        return OA_OK;
    }
    const int64_t dims[1] = {(int64_t)n};
    oa_ktensor in, out;
    oa_ktensor_set(&in, (oa_kdtype)sdt, 1, dims);
    oa_ktensor_set(&out, (oa_kdtype)ddt, 1, dims);
    oa_kcast_params p = {.dst_type = (oa_kdtype)ddt};
    const void *ip[1] = {src};
    void *op[1] = {dst};
    return oa_kernel_run_once(OA_KOP_CAST, &p, 1, &in, ip, 1, &out, op, NULL);
}

void oa_opexec_ref(oa_opexec *e)
{
    atomic_fetch_add(&e->refs, 1);
}

void oa_opexec_unref(oa_opexec *e)
{
    if (e == NULL || atomic_fetch_sub(&e->refs, 1) != 1) {
        return;
    }
    oa_kop_destroy(e->kop);
    oa_op_bind_destroy(e->bind);
    oa_graph_destroy(e->graph);
    free(e->data_of_input);
    free(e->data_node);
    free(e->data_bytes);
    free(e->data_dtype);
    free(e->data_run);
    free(e->data_block);
    free(e->data_bdims);
    free(e->out_block);
    free(e->out_bdims);
    free(e->out_bytes);
    free(e->out_dtype);
    free(e->out_run);
    free(e->out_dims);
    free(e->out_ndims);
    free(e);
}

void oa_opexec_output_dims(const oa_opexec *e, int k, const int64_t **dims, size_t *ndims)
{
    *dims = e->out_dims[k];
    *ndims = e->out_ndims[k];
}

size_t oa_opexec_input_bytes(const oa_opexec *e, int i)
{
    const int d = e->data_of_input[i];
    return d < 0 ? 0 : e->data_bytes[d];
}

size_t oa_opexec_output_bytes(const oa_opexec *e, int k)
{
    return e->out_bytes[k];
}

const oa_graph *oa_opexec_graph(const oa_opexec *e)
{
    return e->graph;
}

/* ---- host values for bindings ---- */

typedef struct host_ctx {
    const oa_opexec *e;
    void *const *data_ptr; /* Data index -> (converted) input pointer; NULL while probing */
    int asked;
    void *zero[16];        /* probing: zeroed buffers handed out (one per value asked) */
    int n_zero;
} host_ctx;

static void host_ctx_free(host_ctx *h)
{
    for (int i = 0; i < h->n_zero; ++i) {
        free(h->zero[i]);
    }
    h->n_zero = 0;
}

static int data_index_of(const oa_opexec *e, const oa_node *src)
{
    for (int d = 0; d < e->n_data; ++d) {
        if (e->data_node[d] == src) {
            return d;
        }
    }
    return -1;
}

static const void *host_data(void *ctx, const oa_node *src, uint32_t src_index)
{
    host_ctx *h = ctx;
    h->asked++;
    const int d = data_index_of(h->e, src);
    if (d < 0 || src_index != 0) {
        return NULL;
    }
    if (h->data_ptr != NULL) {
        return h->data_ptr[d];
    }
    size_t bytes = 0;
    (void)oa_op_bind_desc_bytes(&src->outputs[0].desc, &bytes);
    if (h->n_zero == (int)OA_ARRAY_SIZE(h->zero)) {
        return NULL;
    }
    void *z = calloc(1, bytes + 16);
    if (z != NULL) {
        h->zero[h->n_zero++] = z;
    }
    return z;
}

/* ---- fractal layouts ----
 *
 * Tensors described in CANN's blocked matrix layouts are computed as the
 * plain (padded) matrices they hold: FRACTAL_NZ [c1, r1, r0, c0] is the
 * [r1*r0, c1*c0] matrix whose element (r, c) sits at
 * [c/c0][r/r0][r%r0][c%c0]; FRACTAL_Z [k1, n1, n0, k0] (acl_cblas's int8 B)
 * is the [k1*k0, n1*n0] matrix with (k, n) at [k/k0][n/n0][n%n0][k%k0].
 * The padding must hold zeros, as on the device.
 */
enum oa_block { BLOCK_NONE = 0, BLOCK_NZ = 1, BLOCK_Z = 2 };

static uint8_t block_of(const oa_opspec_tensor *t)
{
    if (t->ndims != 4 || t->absent) {
        return BLOCK_NONE;
    }
    return t->format == ACL_FORMAT_FRACTAL_NZ ? BLOCK_NZ : t->format == ACL_FORMAT_FRACTAL_Z ? BLOCK_Z : BLOCK_NONE;
}

/* The plain 2-D dims of a blocked tensor. */
static void block_plain_dims(uint8_t kind, const int64_t *d, int64_t *out)
{
    if (kind == BLOCK_NZ) {
        out[0] = d[1] * d[2];
        out[1] = d[0] * d[3];
    } else {
        out[0] = d[0] * d[3];
        out[1] = d[1] * d[2];
    }
}

/* Offset of plain element (i, j) inside the blocked buffer. */
static size_t block_offset(uint8_t kind, const int64_t *d, int64_t i, int64_t j)
{
    if (kind == BLOCK_NZ) { /* [c1][r1][r0][c0], i = row, j = col */
        return (size_t)((((j / d[3]) * d[1] + i / d[2]) * d[2] + i % d[2]) * d[3] + j % d[3]);
    }
    /* FRACTAL_Z [k1][n1][n0][k0], i = k, j = n */
    return (size_t)((((i / d[3]) * d[1] + j / d[2]) * d[2] + j % d[2]) * d[3] + i % d[3]);
}

/* to_plain: blocked src -> plain dst; else plain src -> blocked dst. */
static void block_move(uint8_t kind, const int64_t *d, size_t esz, const void *src, void *dst, bool to_plain)
{
    int64_t pd[2];
    block_plain_dims(kind, d, pd);
    const unsigned char *s = src;
    unsigned char *o = dst;
    for (int64_t i = 0; i < pd[0]; ++i) {
        for (int64_t j = 0; j < pd[1]; ++j) {
            const size_t b = block_offset(kind, d, i, j) * esz, p = (size_t)(i * pd[1] + j) * esz;
            if (to_plain) {
                memcpy(o + p, s + b, esz);
            } else {
                memcpy(o + b, s + p, esz);
            }
        }
    }
}

/* ---- building ---- */

static bool spec_needs_promotion(const oa_opspec *s, bool ints)
{
    if (strcmp(s->type, "Cast") == 0) {
        return false; /* Cast converts between the types itself */
    }
    for (int i = 0; i < s->n_in; ++i) {
        if (!s->in[i].absent && run_dtype(s->in[i].dtype, ints) != s->in[i].dtype) {
            return true;
        }
    }
    for (int i = 0; i < s->n_out; ++i) {
        if (run_dtype(s->out[i].dtype, ints) != s->out[i].dtype) {
            return true;
        }
    }
    return false;
}

/* The computing twin of a spec: tensors in their run dtypes (constants converted into *bufs). */
static oa_status promote_spec(const oa_opspec *s, bool ints, oa_opspec *p, oa_opspec_tensor *tin,
                              oa_opspec_tensor *tout, void **bufs)
{
    *p = *s;
    p->in = tin;
    p->out = tout;
    for (int i = 0; i < s->n_in; ++i) {
        tin[i] = s->in[i];
        bufs[i] = NULL;
        const aclDataType from = tin[i].dtype, to = run_dtype(from, ints);
        if (tin[i].absent || to == from) {
            continue;
        }
        tin[i].dtype = to;
        if (tin[i].is_const && tin[i].const_len > 0) {
            const size_t n = tin[i].const_len / aclDataTypeSize(from);
            bufs[i] = malloc(n * aclDataTypeSize(to));
            if (bufs[i] == NULL) {
                return OA_FAIL(OA_E_NOMEM, "constant conversion");
            }
            const oa_status st = convert(tin[i].const_data, from, bufs[i], to, n);
            if (st != OA_OK) {
                return st;
            }
            tin[i].const_data = bufs[i];
            tin[i].const_len = n * aclDataTypeSize(to);
        }
    }
    for (int i = 0; i < s->n_out; ++i) {
        tout[i] = s->out[i];
        tout[i].dtype = run_dtype(tout[i].dtype, ints);
    }
    return OA_OK;
}

static oa_status alloc_tables(oa_opexec *e)
{
    const size_t ni = (size_t)e->n_in + 1, no = (size_t)e->n_out + 1;
    e->data_of_input = calloc(ni, sizeof(int));
    e->data_node = calloc(ni, sizeof(*e->data_node));
    e->data_bytes = calloc(ni, sizeof(size_t));
    e->data_dtype = calloc(ni, sizeof(aclDataType));
    e->data_run = calloc(ni, sizeof(aclDataType));
    e->data_block = calloc(ni, 1);
    e->data_bdims = calloc(ni, sizeof(*e->data_bdims));
    e->out_block = calloc(no, 1);
    e->out_bdims = calloc(no, sizeof(*e->out_bdims));
    e->out_bytes = calloc(no, sizeof(size_t));
    e->out_dtype = calloc(no, sizeof(aclDataType));
    e->out_run = calloc(no, sizeof(aclDataType));
    e->out_dims = calloc(no, sizeof(*e->out_dims));
    e->out_ndims = calloc(no, sizeof(size_t));
    if (e->data_of_input == NULL || e->data_node == NULL || e->data_bytes == NULL || e->data_dtype == NULL ||
        e->data_run == NULL || e->data_block == NULL || e->data_bdims == NULL || e->out_block == NULL ||
        e->out_bdims == NULL || e->out_bytes == NULL || e->out_dtype == NULL || e->out_run == NULL ||
        e->out_dims == NULL || e->out_ndims == NULL) {
        return OA_FAIL(OA_E_NOMEM, "single-op executable");
    }
    return OA_OK;
}

static oa_status fill_tables(oa_opexec *e, const oa_opspec *orig, bool ints)
{
    const oa_node *n = e->node;
    for (int i = 0; i < e->n_in; ++i) {
        e->data_of_input[i] = -1;
        if ((uint32_t)i >= n->num_inputs || n->inputs[i].src == NULL || n->inputs[i].src->type != OA_OP_DATA) {
            continue;
        }
        const oa_node *src = n->inputs[i].src;
        const int d = e->n_data++;
        e->data_of_input[i] = d;
        e->data_node[d] = src;
        e->data_dtype[d] = orig->in[i].dtype;
        e->data_run[d] = run_dtype(orig->in[i].dtype, ints);
        if ((oa_dtype)e->data_run[d] != src->outputs[0].desc.dtype || e->data_run[d] == orig->in[i].dtype) {
            e->data_run[d] = ACL_DT_UNDEFINED;
        }
        e->data_block[d] = block_of(&orig->in[i]);
        if (e->data_block[d] != BLOCK_NONE) {
            memcpy(e->data_bdims[d], orig->in[i].dims, sizeof(e->data_bdims[d]));
        }
        size_t numel;
        const size_t esz = aclDataTypeSize(orig->in[i].dtype);
        if (!desc_numel(&src->outputs[0].desc, &numel) || !oa_mul_size(numel, esz, &e->data_bytes[d])) {
            return OA_FAIL(OA_E_PARAM, "input %d of %s has no static shape", i, orig->type);
        }
    }
    for (int k = 0; k < e->n_out; ++k) {
        const oa_tensor_desc *d = &n->outputs[k].desc;
        if (!oa_shape_is_static(&d->shape)) {
            char b[96];
            return OA_FAIL(OA_E_PARAM,
                           "output %d of %s: its shape %s is not known from the inputs; describe it with static "
                           "dims",
                           k, orig->type, oa_shape_str(&d->shape, b, sizeof b));
        }
        e->out_dtype[k] = orig->out[k].dtype != ACL_DT_UNDEFINED ? orig->out[k].dtype : (aclDataType)d->dtype;
        e->out_run[k] = run_dtype(e->out_dtype[k], ints);
        if ((oa_dtype)e->out_run[k] != d->dtype || e->out_run[k] == e->out_dtype[k]) {
            e->out_run[k] = ACL_DT_UNDEFINED;
        }
        e->out_block[k] = block_of(&orig->out[k]);
        e->out_ndims[k] = (size_t)d->shape.rank;
        for (int j = 0; j < d->shape.rank; ++j) {
            e->out_dims[k][j] = d->shape.dims[j];
        }
        if (e->out_block[k] != BLOCK_NONE) { /* the caller sees its blocked dims */
            memcpy(e->out_bdims[k], orig->out[k].dims, sizeof(e->out_bdims[k]));
            e->out_ndims[k] = 4;
            memcpy(e->out_dims[k], orig->out[k].dims, 4 * sizeof(int64_t));
        }
        size_t numel;
        if (!desc_numel(d, &numel) || !oa_mul_size(numel, aclDataTypeSize(e->out_dtype[k]), &e->out_bytes[k])) {
            return OA_FAIL(OA_E_PARAM, "output %d of %s is too large", k, orig->type);
        }
    }
    return OA_OK;
}

static bool bind_is_int_matmul(const oa_op_bind *b)
{
    return b->type == OA_KOP_MATMUL && b->n_in >= 2 && is_int_kdt(b->in[0].dtype);
}

/*
 * Decides how the node is bound: once now (constants only), or at every run
 * (the kernel needs values of non-constant inputs when it is created).
 */
static oa_status bind_node(oa_opexec *e)
{
    oa_op_bind *b = NULL;
    oa_error_quiet_push();
    oa_status st = oa_op_bind_node(e->node, NULL, &b);
    oa_error_quiet_pop();
    if (st == OA_E_PARAM) {
        host_ctx h = {.e = e};
        oa_op_bind_opts o = {.host_data = host_data, .ctx = &h};
        oa_op_bind *probe = NULL;
        oa_kop *pk = NULL;
        oa_error_quiet_push();
        oa_status ps = oa_op_bind_node(e->node, &o, &probe);
        /* zeros stand in for the values: dtypes the kernel refuses are known now */
        if (ps == OA_OK && h.asked > 0 && !bind_is_int_matmul(probe)) {
            ps = oa_op_bind_create(probe, &pk);
        }
        oa_error_quiet_pop();
        oa_kop_destroy(pk);
        oa_op_bind_destroy(probe);
        host_ctx_free(&h);
        if (h.asked > 0 && ps != OA_E_UNSUPPORTED_DATA_TYPE) {
            /* the values decide; errors (if any) are reported when the op runs */
            e->bind_at_run = true;
            return OA_OK;
        }
        if (h.asked > 0) {
            /* report the refusal */
            h = (host_ctx){.e = e};
            probe = NULL;
            pk = NULL;
            st = oa_op_bind_node(e->node, &o, &probe);
            if (st == OA_OK) {
                st = oa_op_bind_create(probe, &pk);
            }
            oa_kop_destroy(pk);
            oa_op_bind_destroy(probe);
            host_ctx_free(&h);
            return st != OA_OK ? st : OA_FAIL(OA_E_INTERNAL, "probe of %s failed once", e->node->type_name);
        }
    }
    if (st != OA_OK) {
        /* report the real error this time */
        oa_op_bind_destroy(b);
        b = NULL;
        st = oa_op_bind_node(e->node, NULL, &b);
        if (st == OA_OK) { /* cannot happen, but do not leak */
            oa_op_bind_destroy(b);
            st = OA_FAIL(OA_E_INTERNAL, "binding of %s failed once and then succeeded", e->node->type_name);
        }
        return st;
    }
    e->bind = b;
    if (bind_is_int_matmul(b)) {
        e->int_matmul = true;
        return OA_OK;
    }
    st = oa_op_bind_create(b, &e->kop);
    if (st == OA_OK) {
        e->ws = oa_kop_workspace_size(e->kop);
    }
    return st;
}

static oa_status build_once(const oa_opspec *spec, bool ints, oa_opexec **out)
{
    *out = NULL;
    oa_opexec *e = calloc(1, sizeof(*e));
    if (e == NULL) {
        return OA_FAIL(OA_E_NOMEM, "single-op executable");
    }
    atomic_init(&e->refs, 1);
    e->n_in = spec->n_in;
    e->n_out = spec->n_out;
    oa_status st = alloc_tables(e);
    oa_opspec p = *spec;
    oa_opspec_tensor *tin = NULL, *tout = NULL;
    void **bufs = NULL;
    if (st == OA_OK && spec_needs_promotion(spec, ints)) {
        tin = calloc((size_t)spec->n_in + 1, sizeof(*tin));
        tout = calloc((size_t)spec->n_out + 1, sizeof(*tout));
        bufs = calloc((size_t)spec->n_in + 1, sizeof(void *));
        st = (tin == NULL || tout == NULL || bufs == NULL) ? OA_FAIL(OA_E_NOMEM, "single-op executable")
                                                          : promote_spec(spec, ints, &p, tin, tout, bufs);
    }
    /* blocked matrices become their plain 2-D matrices (constants converted) */
    oa_opspec_tensor *bin = NULL, *bout = NULL;
    int64_t(*pin)[2] = NULL, (*pout)[2] = NULL;
    void **bbufs = NULL;
    bool blocked = false;
    for (int i = 0; i < spec->n_in; ++i) {
        blocked = blocked || block_of(&spec->in[i]) != BLOCK_NONE;
    }
    for (int k = 0; k < spec->n_out; ++k) {
        blocked = blocked || block_of(&spec->out[k]) != BLOCK_NONE;
    }
    if (st == OA_OK && blocked) {
        bin = calloc((size_t)spec->n_in + 1, sizeof(*bin));
        bout = calloc((size_t)spec->n_out + 1, sizeof(*bout));
        pin = calloc((size_t)spec->n_in + 1, sizeof(*pin));
        pout = calloc((size_t)spec->n_out + 1, sizeof(*pout));
        bbufs = calloc((size_t)spec->n_in + 1, sizeof(void *));
        if (bin == NULL || bout == NULL || pin == NULL || pout == NULL || bbufs == NULL) {
            st = OA_FAIL(OA_E_NOMEM, "single-op executable");
        }
        for (int i = 0; i < spec->n_in && st == OA_OK; ++i) {
            bin[i] = p.in[i];
            const uint8_t kind = block_of(&spec->in[i]);
            if (kind == BLOCK_NONE) {
                continue;
            }
            block_plain_dims(kind, spec->in[i].dims, pin[i]);
            bin[i].dims = pin[i];
            bin[i].ndims = 2;
            bin[i].format = ACL_FORMAT_ND;
            if (bin[i].is_const && bin[i].const_len > 0) {
                const int64_t cnt = pin[i][0] * pin[i][1];
                const size_t esz = bin[i].const_len / (size_t)(cnt > 0 ? cnt : 1);
                bbufs[i] = malloc(bin[i].const_len);
                if (bbufs[i] == NULL) {
                    st = OA_FAIL(OA_E_NOMEM, "constant conversion");
                    break;
                }
                block_move(kind, spec->in[i].dims, esz, bin[i].const_data, bbufs[i], true);
                bin[i].const_data = bbufs[i];
            }
        }
        for (int k = 0; k < spec->n_out && st == OA_OK; ++k) {
            bout[k] = p.out[k];
            const uint8_t kind = block_of(&spec->out[k]);
            if (kind != BLOCK_NONE) {
                block_plain_dims(kind, spec->out[k].dims, pout[k]);
                bout[k].dims = pout[k];
                bout[k].ndims = 2;
                bout[k].format = ACL_FORMAT_ND;
            }
        }
        p.in = bin;
        p.out = bout;
    }
    if (st == OA_OK) {
        st = oa_opgraph_build(&p, true, &e->graph, &e->node);
    }
    for (int i = 0; bbufs != NULL && i < spec->n_in; ++i) {
        free(bbufs[i]);
    }
    free(bbufs);
    free(bin);
    free(bout);
    free(pin);
    free(pout);
    for (int i = 0; bufs != NULL && i < spec->n_in; ++i) {
        free(bufs[i]);
    }
    free(bufs);
    free(tin);
    free(tout);
    if (st == OA_OK) {
        st = fill_tables(e, spec, ints);
    }
    if (st == OA_OK) {
        st = bind_node(e);
    }
    if (st != OA_OK) {
        oa_opexec_unref(e);
        return st;
    }
    *out = e;
    return OA_OK;
}

oa_status oa_opexec_build(const oa_opspec *spec, oa_opexec **out)
{
    bool small = false;
    for (int i = 0; i < spec->n_in; ++i) {
        small = small || (!spec->in[i].absent && is_small_int(spec->in[i].dtype));
    }
    for (int k = 0; k < spec->n_out; ++k) {
        small = small || is_small_int(spec->out[k].dtype);
    }
    if (!small || strcmp(spec->type, "Cast") == 0) {
        return build_once(spec, false, out);
    }
    /* small integers the kernel refuses are computed in int32 (tried quietly: the error
     * reported when both fail is the one of the user's own dtypes) */
    oa_error_quiet_push();
    oa_status st = build_once(spec, false, out);
    if (st != OA_OK) {
        st = build_once(spec, true, out);
    }
    oa_error_quiet_pop();
    return st == OA_OK ? st : build_once(spec, false, out);
}

/* ---- exact integer matrix products ---- */

static int64_t iget(const void *p, oa_kdtype dt, size_t i)
{
    switch (dt) {
    case OA_KDT_I8: return ((const int8_t *)p)[i];
    case OA_KDT_U8: return ((const uint8_t *)p)[i];
    case OA_KDT_I16: return ((const int16_t *)p)[i];
    case OA_KDT_U16: return ((const uint16_t *)p)[i];
    case OA_KDT_I32: return ((const int32_t *)p)[i];
    case OA_KDT_U32: return ((const uint32_t *)p)[i];
    case OA_KDT_I64: return ((const int64_t *)p)[i];
    case OA_KDT_U64: return (int64_t)((const uint64_t *)p)[i];
    case OA_KDT_F32: return (int64_t)llrintf(((const float *)p)[i]);
    default: return 0;
    }
}

static void iset(void *p, oa_kdtype dt, size_t i, int64_t v)
{
    switch (dt) {
    case OA_KDT_I8: ((int8_t *)p)[i] = (int8_t)v; break;
    case OA_KDT_U8: ((uint8_t *)p)[i] = (uint8_t)v; break;
    case OA_KDT_I16: ((int16_t *)p)[i] = (int16_t)v; break;
    case OA_KDT_U16: ((uint16_t *)p)[i] = (uint16_t)v; break;
    case OA_KDT_I32: ((int32_t *)p)[i] = (int32_t)(uint32_t)(uint64_t)v; break;
    case OA_KDT_U32: ((uint32_t *)p)[i] = (uint32_t)(uint64_t)v; break;
    case OA_KDT_I64: ((int64_t *)p)[i] = v; break;
    case OA_KDT_U64: ((uint64_t *)p)[i] = (uint64_t)v; break;
    case OA_KDT_F32: ((float *)p)[i] = (float)v; break;
    default: break;
    }
}

/* Batch offset of a broadcast operand for flat batch index bi of the output. */
static size_t batch_offset(const oa_ktensor *t, int trank, const oa_ktensor *y, size_t bi, size_t mat)
{
    const int yb = y->rank - 2, tb = trank - 2;
    size_t off = 0, stride = 1;
    for (int d = yb - 1; d >= 0; --d) {
        const int64_t yd = y->dims[d];
        const size_t idx = bi % (size_t)yd;
        bi /= (size_t)yd;
        const int td = d - (yb - tb);
        if (td >= 0) {
            const int64_t tdim = t->dims[td];
            off += (tdim == 1 ? 0 : idx) * stride;
            stride *= (size_t)tdim;
        }
    }
    return off * mat;
}

static oa_status run_int_matmul(const oa_op_bind *b, const void *const *in, void *const *out)
{
    const oa_kmatmul_params *p = &b->params.matmul;
    oa_ktensor a = b->in[0], bm = b->in[1];
    const oa_ktensor *bias = (b->n_in > 2 && b->in[2].dtype != OA_KDT_UNDEFINED) ? &b->in[2] : NULL;
    const oa_ktensor *y = &b->out[0];
    if (a.rank == 1) { /* [K] -> [1, K] */
        a.dims[1] = a.dims[0];
        a.dims[0] = 1;
        a.rank = 2;
    }
    if (bm.rank == 1) { /* [K] -> [K, 1] */
        bm.dims[1] = 1;
        bm.rank = 2;
    }
    if (y->rank < 1 || a.rank < 2 || bm.rank < 2) {
        return OA_FAIL(OA_E_PARAM, "integer MatMul: unsupported ranks");
    }
    const int64_t M = p->transpose_a ? a.dims[a.rank - 1] : a.dims[a.rank - 2];
    const int64_t K = p->transpose_a ? a.dims[a.rank - 2] : a.dims[a.rank - 1];
    const int64_t K2 = p->transpose_b ? bm.dims[bm.rank - 1] : bm.dims[bm.rank - 2];
    const int64_t N = p->transpose_b ? bm.dims[bm.rank - 2] : bm.dims[bm.rank - 1];
    if (K != K2) {
        return OA_FAIL(OA_E_PARAM, "integer MatMul: inner dims %lld and %lld differ", (long long)K, (long long)K2);
    }
    oa_ktensor yy = *y;
    if (yy.rank < 2) { /* a 1-D operand dropped a dim: treat y as [M, N] */
        yy.rank = 2;
        yy.dims[0] = M;
        yy.dims[1] = N;
    }
    size_t batch = 1;
    for (int d = 0; d < yy.rank - 2; ++d) {
        batch *= (size_t)yy.dims[d];
    }
    const double alpha = (p->alpha == 0.0f && p->beta == 0.0f) ? 1.0 : p->alpha;
    const double beta = (p->alpha == 0.0f && p->beta == 0.0f) ? 1.0 : p->beta;
    const bool exact = alpha == floor(alpha) && beta == floor(beta);
    const size_t amat = (size_t)(M * K), bmat = (size_t)(K * N), ymat = (size_t)(M * N);
    const int64_t bias_n = bias != NULL ? oa_ktensor_numel(bias) : 0;
    for (size_t bi = 0; bi < batch; ++bi) {
        const size_t ao = batch_offset(&a, a.rank, &yy, bi, amat);
        const size_t bo = batch_offset(&bm, bm.rank, &yy, bi, bmat);
        for (int64_t m = 0; m < M; ++m) {
            for (int64_t n = 0; n < N; ++n) {
                int64_t acc = 0;
                for (int64_t k = 0; k < K; ++k) {
                    const size_t ai = ao + (size_t)(p->transpose_a ? k * M + m : m * K + k);
                    const size_t bj = bo + (size_t)(p->transpose_b ? n * K + k : k * N + n);
                    acc += iget(in[0], a.dtype, ai) * iget(in[1], bm.dtype, bj);
                }
                int64_t bv = 0;
                if (bias != NULL && in[2] != NULL) {
                    const size_t bidx = bias_n == N ? (size_t)n : (size_t)(m * N + n) % (size_t)bias_n;
                    bv = iget(in[2], bias->dtype, bidx);
                }
                int64_t r;
                if (exact) {
                    r = (int64_t)alpha * acc + (bias != NULL ? (int64_t)beta * bv : 0);
                } else {
                    r = (int64_t)llrint(alpha * (double)acc + (bias != NULL ? beta * (double)bv : 0.0));
                }
                iset(out[0], y->dtype, bi * ymat + (size_t)(m * N + n), r);
            }
        }
    }
    return OA_OK;
}

/* ---- the stream task ---- */

typedef struct optask {
    oa_opexec *e;
    const void **in;  /* user input pointers, by user index */
    void **out;       /* user output pointers */
} optask;

static void task_free(optask *t)
{
    if (t == NULL) {
        return;
    }
    oa_opexec_unref(t->e);
    free(t->in);
    free(t->out);
    free(t);
}

static bool overlaps(const void *a, size_t na, const void *b, size_t nb)
{
    const uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    return na > 0 && nb > 0 && x < y + nb && y < x + na;
}

static oa_status run_bound(const oa_opexec *e, const oa_op_bind *b, oa_kop *kop, void *const *data_ptr,
                           void *const *out_ptr, const size_t *out_len)
{
    const void *kin[64];
    void *kout[16];
    void *copies[64] = {0};
    if (b->n_in > 64 || b->n_out > 16) {
        return OA_FAIL(OA_E_PARAM, "%s: too many kernel inputs or outputs", e->node->type_name);
    }
    oa_status st = OA_OK;
    for (int k = 0; k < b->n_out; ++k) {
        kout[k] = out_ptr[b->out_index[k]];
    }
    for (int k = 0; k < b->n_in && st == OA_OK; ++k) {
        const oa_bind_src *s = &b->src[k];
        if (s->kind == OA_BIND_ABSENT) {
            kin[k] = NULL;
            continue;
        }
        if (s->kind == OA_BIND_CONST) {
            kin[k] = b->in[k].data;
            continue;
        }
        const int d = data_index_of(e, s->src);
        kin[k] = d >= 0 ? data_ptr[d] : NULL;
        if (kin[k] == NULL) {
            continue;
        }
        /* an input sharing memory with an output (GEMM's c is its y) is read from a copy,
         * unless the kernel allows exactly this in-place use */
        const size_t bytes = oa_ktensor_bytes(&b->in[k]);
        for (int o = 0; o < b->n_out; ++o) {
            const size_t ob = out_len[b->out_index[o]];
            if (!overlaps(kin[k], bytes, kout[o], ob)) {
                continue;
            }
            if (b->inplace_ok && k == 0 && o == 0 && kin[k] == kout[o]) {
                continue;
            }
            copies[k] = malloc(bytes);
            if (copies[k] == NULL) {
                st = OA_FAIL(OA_E_NOMEM, "input copy");
                break;
            }
            memcpy(copies[k], kin[k], bytes);
            kin[k] = copies[k];
            break;
        }
    }
    void *ws = NULL;
    if (st == OA_OK && kop != NULL) {
        const size_t wsz = oa_kop_workspace_size(kop);
        if (wsz > 0) {
            size_t rounded;
            if (!oa_align_up(wsz, 64, &rounded) || (ws = aligned_alloc(64, rounded)) == NULL) {
                st = OA_FAIL(OA_E_NOMEM, "kernel workspace of %zu bytes", wsz);
            }
        }
    }
    if (st == OA_OK) {
        st = kop != NULL ? oa_kop_run(kop, kin, kout, ws, NULL) : run_int_matmul(b, kin, kout);
    }
    free(ws);
    for (int k = 0; k < b->n_in; ++k) {
        free(copies[k]);
    }
    return st;
}

/* A malloc'd scratch buffer recorded for release. */
static void *scratch_alloc(void **slots, int *n, size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (p != NULL) {
        slots[(*n)++] = p;
    }
    return p;
}

/* ---- dump and profiling of a single-operator execution (docs/dump.md, docs/profiling.md) ---- */

#define OBS_MAX 64

typedef struct op_obs {
    oa_dump_run dr;
    bool dump;
    bool prof;
    uint64_t t0;
    size_t n_in;
    void *saved[OBS_MAX];        /* user inputs copied before the run (dump_mode input / all) */
    size_t saved_bytes[OBS_MAX];
} op_obs;

/* Desc of user input i (NULL when absent), and its bytes. */
static const oa_tensor_desc *input_desc(const oa_opexec *e, int i, size_t *bytes)
{
    *bytes = 0;
    const int d = e->data_of_input[i];
    if (d >= 0) {
        *bytes = e->data_bytes[d];
        return &e->data_node[d]->outputs[0].desc;
    }
    if ((uint32_t)i >= e->node->num_inputs || e->node->inputs[i].src == NULL) {
        return NULL;
    }
    const oa_tensor_desc *desc = &e->node->inputs[i].desc;
    size_t n = 0;
    if (!desc_numel(desc, &n) || !oa_mul_size(n, aclDataTypeSize((aclDataType)desc->dtype), bytes)) {
        *bytes = 0;
    }
    return desc;
}

static int32_t fmt_of(const oa_tensor_desc *d)
{
    return d->format == OA_FORMAT_RESERVED ? (d->shape.rank == 4 ? 0 : 2) : (int32_t)d->format;
}

static void obs_begin(op_obs *o, const optask *t)
{
    const oa_opexec *e = t->e;
    memset(o, 0, sizeof(*o));
    o->prof = oa_prof_active();
    o->dump = oa_dump_enabled() && oa_dump_run_begin_op(&o->dr) &&
              (oa_dump_run_selects(&o->dr, e->node->type_name, e->node->name, NULL, 0) || (oa_dump_run_end(&o->dr), false));
    o->n_in = e->n_in < OBS_MAX ? (size_t)e->n_in : OBS_MAX;
    if (o->dump && o->dr.inputs) {
        for (size_t i = 0; i < o->n_in; ++i) {
            size_t bytes = 0;
            if (t->in[i] != NULL && input_desc(e, (int)i, &bytes) != NULL && bytes > 0 &&
                (o->saved[i] = malloc(bytes)) != NULL) {
                memcpy(o->saved[i], t->in[i], bytes);
                o->saved_bytes[i] = bytes;
            }
        }
    }
    o->t0 = oa_now_ns();
}

static void obs_end(op_obs *o, const optask *t, oa_status st)
{
    const uint64_t t1 = oa_now_ns();
    const oa_opexec *e = t->e;
    const size_t n_out = e->n_out < OBS_MAX ? (size_t)e->n_out : OBS_MAX;
    int32_t in_dt[OBS_MAX], out_fmt[OBS_MAX];
    const oa_tensor_desc *in_desc[OBS_MAX];
    for (size_t i = 0; i < o->n_in; ++i) {
        size_t bytes;
        in_desc[i] = input_desc(e, (int)i, &bytes);
        in_dt[i] = e->data_of_input[i] >= 0 ? (int32_t)e->data_dtype[e->data_of_input[i]]
                   : in_desc[i] != NULL     ? (int32_t)in_desc[i]->dtype
                                            : -1;
    }
    for (size_t k = 0; k < n_out; ++k) {
        out_fmt[k] = e->out_ndims[k] == 4 ? 0 : 2;
    }
    if (st == OA_OK && o->prof) {
        oa_prof_tensor pin[OBS_MAX], pout[OBS_MAX];
        size_t ni = 0;
        for (size_t i = 0; i < o->n_in; ++i) {
            if (in_desc[i] != NULL) {
                pin[ni++] = (oa_prof_tensor){.dtype = in_dt[i], .format = fmt_of(in_desc[i]),
                                             .rank = in_desc[i]->shape.rank > 0 ? in_desc[i]->shape.rank : 0,
                                             .dims = in_desc[i]->shape.dims};
            }
        }
        for (size_t k = 0; k < n_out; ++k) {
            pout[k] = (oa_prof_tensor){.dtype = (int32_t)e->out_dtype[k], .format = out_fmt[k],
                                       .rank = (int32_t)e->out_ndims[k], .dims = e->out_dims[k]};
        }
        const oa_prof_op op = {.name = e->node->name, .type = e->node->type_name,
                               .model_id = OA_PROF_SINGLE_OP_MODEL_ID, .dynamic = false, .in = pin, .n_in = ni,
                               .out = pout, .n_out = n_out, .start_ns = o->t0, .end_ns = t1};
        oa_prof_record_op(&op);
    }
    if (st == OA_OK && o->dump) {
        oa_dump_tensor din[OBS_MAX], dout[OBS_MAX];
        size_t ni = 0;
        for (size_t i = 0; i < o->n_in && o->dr.inputs; ++i) {
            if (in_desc[i] == NULL) {
                continue;
            }
            din[ni++] = (oa_dump_tensor){.dtype = in_dt[i], .format = fmt_of(in_desc[i]),
                                         .rank = in_desc[i]->shape.rank > 0 ? in_desc[i]->shape.rank : 0,
                                         .dims = in_desc[i]->shape.dims, .data = o->saved[i],
                                         .size = o->saved_bytes[i]};
        }
        for (size_t k = 0; k < n_out; ++k) {
            dout[k] = (oa_dump_tensor){.dtype = (int32_t)e->out_dtype[k], .format = out_fmt[k],
                                       .rank = (int32_t)e->out_ndims[k], .dims = e->out_dims[k], .data = t->out[k],
                                       .size = e->out_bytes[k]};
        }
        const oa_dump_op op = {.type = e->node->type_name, .name = e->node->name, .in = din, .n_in = ni,
                               .out = dout, .n_out = n_out};
        (void)oa_dump_run_write(&o->dr, &op); /* logged; the execution goes on */
    }
    if (o->dump) {
        oa_dump_run_end(&o->dr);
    }
    for (size_t i = 0; i < o->n_in; ++i) {
        free(o->saved[i]);
    }
}

static oa_status task_run_plain(const optask *t);

static oa_status task_run(void *args, const oa_task_exec *exec)
{
    (void)exec;
    const optask *t = *(optask *const *)args;
    if (oa_dump_enabled() || oa_prof_active()) { /* the one check per run */
        op_obs o;
        obs_begin(&o, t);
        const oa_status st = task_run_plain(t);
        obs_end(&o, t, st);
        return st;
    }
    return task_run_plain(t);
}

/*
 * The user's buffers pass through the adapters in this order:
 *   input:  user -> [blocked -> plain] -> [half -> float32] -> kernel
 *   output: kernel -> [float32 -> half] -> [plain -> blocked] -> user
 */
static oa_status task_run_plain(const optask *t)
{
    const oa_opexec *e = t->e;
    const int max_scratch = 2 * (e->n_data + e->n_out) + 1;
    void **data_ptr = calloc((size_t)e->n_data + 1, sizeof(void *));
    void **out_ptr = calloc((size_t)e->n_out + 1, sizeof(void *));
    size_t *out_len = calloc((size_t)e->n_out + 1, sizeof(size_t));
    void **scratch = calloc((size_t)max_scratch, sizeof(void *));
    int n_scratch = 0;
    oa_status st = OA_OK;
    if (data_ptr == NULL || out_ptr == NULL || out_len == NULL || scratch == NULL) {
        st = OA_FAIL(OA_E_NOMEM, "single-op run");
    }
    for (int i = 0; i < e->n_in && st == OA_OK; ++i) {
        const int d = e->data_of_input[i];
        if (d < 0) {
            continue;
        }
        const void *p = t->in[i];
        if (e->data_block[d] != BLOCK_NONE) {
            void *q = scratch_alloc(scratch, &n_scratch, e->data_bytes[d]);
            if (q == NULL) {
                st = OA_FAIL(OA_E_NOMEM, "input layout conversion");
                break;
            }
            block_move(e->data_block[d], e->data_bdims[d], aclDataTypeSize(e->data_dtype[d]), p, q, true);
            p = q;
        }
        if (e->data_run[d] != ACL_DT_UNDEFINED) {
            const size_t n = e->data_bytes[d] / aclDataTypeSize(e->data_dtype[d]);
            void *q = scratch_alloc(scratch, &n_scratch, n * aclDataTypeSize(e->data_run[d]));
            st = q == NULL ? OA_FAIL(OA_E_NOMEM, "input conversion")
                           : convert(p, e->data_dtype[d], q, e->data_run[d], n);
            p = q;
        }
        data_ptr[d] = (void *)(uintptr_t)p;
    }
    for (int k = 0; k < e->n_out && st == OA_OK; ++k) {
        out_ptr[k] = t->out[k];
        out_len[k] = e->out_bytes[k];
        const bool conv = e->out_run[k] != ACL_DT_UNDEFINED;
        if (conv || e->out_block[k] != BLOCK_NONE) {
            const size_t bytes = conv ? e->out_bytes[k] / aclDataTypeSize(e->out_dtype[k]) *
                                            aclDataTypeSize(e->out_run[k])
                                      : e->out_bytes[k];
            out_ptr[k] = scratch_alloc(scratch, &n_scratch, bytes);
            out_len[k] = bytes;
            if (out_ptr[k] == NULL) {
                st = OA_FAIL(OA_E_NOMEM, "output conversion");
            }
        }
    }
    if (st == OA_OK) {
        if (e->bind_at_run) {
            host_ctx h = {.e = e, .data_ptr = data_ptr};
            oa_op_bind_opts o = {.host_data = host_data, .ctx = &h};
            oa_op_bind *b = NULL;
            oa_kop *kop = NULL;
            st = oa_op_bind_node(e->node, &o, &b);
            if (st == OA_OK && !bind_is_int_matmul(b)) {
                st = oa_op_bind_create(b, &kop);
            }
            if (st == OA_OK) {
                st = run_bound(e, b, kop, data_ptr, out_ptr, out_len);
            }
            oa_kop_destroy(kop);
            oa_op_bind_destroy(b);
        } else {
            st = run_bound(e, e->bind, e->kop, data_ptr, out_ptr, out_len);
        }
    }
    for (int k = 0; k < e->n_out && st == OA_OK; ++k) {
        const void *p = out_ptr[k];
        if (e->out_run[k] != ACL_DT_UNDEFINED) {
            void *q = e->out_block[k] != BLOCK_NONE ? scratch_alloc(scratch, &n_scratch, e->out_bytes[k]) : t->out[k];
            st = q == NULL ? OA_FAIL(OA_E_NOMEM, "output conversion")
                           : convert(p, e->out_run[k], q, e->out_dtype[k],
                                     e->out_bytes[k] / aclDataTypeSize(e->out_dtype[k]));
            p = q;
        }
        if (st == OA_OK && e->out_block[k] != BLOCK_NONE) {
            block_move(e->out_block[k], e->out_bdims[k], aclDataTypeSize(e->out_dtype[k]), p, t->out[k], false);
        }
    }
    for (int i = 0; scratch != NULL && i < n_scratch; ++i) {
        free(scratch[i]);
    }
    free(scratch);
    free(data_ptr);
    free(out_ptr);
    free(out_len);
    if (st != OA_OK) {
        OA_LOGE("single operator %s failed on the stream (error code %d)", e->node->type_name, oa_status_to_acl(st));
    }
    return st;
}

static void task_release(void *args)
{
    task_free(*(optask **)args);
}

oa_status oa_opexec_submit(oa_opexec *e, int n_in, const aclDataBuffer *const *in, int n_out,
                           aclDataBuffer *const *out, aclrtStream stream)
{
    if (n_in != e->n_in || n_out != e->n_out) {
        return OA_FAIL(OA_E_PARAM, "%s expects %d inputs and %d outputs, got %d and %d", e->node->type_name, e->n_in,
                       e->n_out, n_in, n_out);
    }
    for (int i = 0; i < n_in; ++i) {
        const size_t need = oa_opexec_input_bytes(e, i);
        if (need > 0 && (in[i] == NULL || in[i]->data == NULL || in[i]->length < need)) {
            return OA_FAIL(OA_E_GE_PARAM, "input %d of %s holds %llu bytes, the op reads %zu", i, e->node->type_name,
                           in[i] != NULL ? (unsigned long long)in[i]->length : 0ull, need);
        }
    }
    for (int k = 0; k < n_out; ++k) {
        const size_t need = e->out_bytes[k];
        if (need > 0 && (out[k] == NULL || out[k]->data == NULL || out[k]->length < need)) {
            return OA_FAIL(OA_E_GE_PARAM, "output %d of %s holds %llu bytes, the op writes %zu", k,
                           e->node->type_name, out[k] != NULL ? (unsigned long long)out[k]->length : 0ull, need);
        }
    }
    oa_stream *s = NULL;
    oa_status st = oa_stream_acquire(stream, &s);
    if (st != OA_OK) {
        return st;
    }
    optask *t = calloc(1, sizeof(*t));
    if (t != NULL) {
        t->in = calloc((size_t)n_in + 1, sizeof(void *));
        t->out = calloc((size_t)n_out + 1, sizeof(void *));
    }
    if (t == NULL || t->in == NULL || t->out == NULL) {
        if (t != NULL) {
            free(t->in);
            free(t->out);
            free(t);
        }
        oa_stream_release(s);
        return OA_FAIL(OA_E_NOMEM, "single-op task");
    }
    oa_opexec_ref(e);
    t->e = e;
    for (int i = 0; i < n_in; ++i) {
        t->in[i] = in[i] != NULL ? in[i]->data : NULL;
    }
    for (int k = 0; k < n_out; ++k) {
        t->out[k] = out[k] != NULL ? out[k]->data : NULL;
    }
    const oa_task_desc desc = {
        .kind = OA_TASK_KIND_KERNEL, .run = task_run, .release = task_release, .args = &t, .args_size = sizeof(t)};
    st = oa_stream_submit(s, &desc, NULL);
    if (st != OA_OK) {
        task_free(t);
    }
    oa_stream_release(s);
    return st;
}

/* ---- executables kept by models ---- */

static uint64_t dims_hash(const oa_opreq *r)
{
    uint64_t h = 7;
    for (int side = 0; side < 2; ++side) {
        const int n = side ? r->n_out : r->n_in;
        const aclTensorDesc *const *d = side ? r->out : r->in;
        for (int i = 0; i < n; ++i) {
            h = oa_opattr_hash_combine(h, d[i]->dim_count);
            for (size_t k = 0; k < d[i]->dim_count; ++k) {
                h = oa_opattr_hash_combine(h, (uint64_t)d[i]->dims[k]);
            }
        }
    }
    return h;
}

oa_status oa_opmodel_get_exec(oa_opmodel *m, const oa_opreq *req, oa_opexec **out)
{
    *out = NULL;
    if (req->n_in != m->n_in || req->n_out != m->n_out) {
        return OA_FAIL(OA_E_INTERNAL, "request and model %s disagree on tensor counts", m->name);
    }
    const uint64_t h = dims_hash(req);
    pthread_mutex_lock(&m->exec_mu);
    const uint64_t now = ++m->spec_clock;
    for (int i = 0; i < OA_OPMODEL_MAX_SPECS; ++i) {
        if (m->specs[i].exec != NULL && m->specs[i].dims_hash == h) {
            m->specs[i].last_use = now;
            oa_opexec_ref(m->specs[i].exec);
            *out = m->specs[i].exec;
            pthread_mutex_unlock(&m->exec_mu);
            return OA_OK;
        }
    }
    oa_opspec_tensor *tin = calloc((size_t)m->n_in + 1, sizeof(*tin));
    oa_opspec_tensor *tout = calloc((size_t)m->n_out + 1, sizeof(*tout));
    oa_status st = (tin == NULL || tout == NULL) ? OA_FAIL(OA_E_NOMEM, "single-op spec") : OA_OK;
    for (int i = 0; i < m->n_in && st == OA_OK; ++i) {
        oa_opspec_tensor_from_desc(&tin[i], &m->in[i], req->in[i]);
        tin[i].range = NULL;
        tin[i].nrange = 0;
    }
    for (int i = 0; i < m->n_out && st == OA_OK; ++i) {
        oa_opspec_tensor_from_desc(&tout[i], &m->out[i], req->out[i]);
        tout[i].range = NULL;
        tout[i].nrange = 0;
        tout[i].name = req->out[i]->name;
    }
    oa_opexec *e = NULL;
    if (st == OA_OK) {
        const oa_opspec spec = {
            .type = m->type, .attr = m->attr, .n_in = m->n_in, .n_out = m->n_out, .in = tin, .out = tout};
        st = oa_opexec_build(&spec, &e);
    }
    free(tin);
    free(tout);
    if (st == OA_OK) {
        int slot = 0;
        for (int i = 0; i < OA_OPMODEL_MAX_SPECS; ++i) {
            if (m->specs[i].exec == NULL) {
                slot = i;
                break;
            }
            if (m->specs[i].last_use < m->specs[slot].last_use) {
                slot = i;
            }
        }
        oa_opexec_unref(m->specs[slot].exec);
        m->specs[slot].exec = e;
        m->specs[slot].dims_hash = h;
        m->specs[slot].last_use = now;
        oa_opexec_ref(e);
        *out = e;
    }
    pthread_mutex_unlock(&m->exec_mu);
    return st;
}

void oa_opmodel_drop_execs(oa_opmodel *m)
{
    for (int i = 0; i < OA_OPMODEL_MAX_SPECS; ++i) {
        oa_opexec_unref(m->specs[i].exec);
        m->specs[i].exec = NULL;
    }
}
