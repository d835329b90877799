/*
 * Kernel library core: CPU probe and ISA choice, dtype/shape helpers, the
 * op-type → family table, and the generic operator lifecycle
 * (create/reshape/run/destroy) every family plugs into.
 */
#include "kernels/kernel_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- dtypes ---- */

size_t oa_kdtype_size(oa_kdtype dt)
{
    switch (dt) {
    case OA_KDT_F32: case OA_KDT_I32: case OA_KDT_U32: return 4;
    case OA_KDT_F16: case OA_KDT_BF16: case OA_KDT_I16: case OA_KDT_U16: return 2;
    case OA_KDT_I8: case OA_KDT_U8: case OA_KDT_BOOL: return 1;
    case OA_KDT_I64: case OA_KDT_U64: case OA_KDT_F64: return 8;
    default: return 0;
    }
}

const char *oa_kdtype_name(oa_kdtype dt)
{
    switch (dt) {
    case OA_KDT_F32: return "f32";
    case OA_KDT_F16: return "f16";
    case OA_KDT_BF16: return "bf16";
    case OA_KDT_F64: return "f64";
    case OA_KDT_I8: return "i8";
    case OA_KDT_U8: return "u8";
    case OA_KDT_I16: return "i16";
    case OA_KDT_U16: return "u16";
    case OA_KDT_I32: return "i32";
    case OA_KDT_U32: return "u32";
    case OA_KDT_I64: return "i64";
    case OA_KDT_U64: return "u64";
    case OA_KDT_BOOL: return "bool";
    case OA_KDT_UNDEFINED: return "undefined";
    default: return "unknown";
    }
}

/* ---- ISA-dispatched block moves (the CPU probe is isa.c) ---- */

oa_kblk_pack_fn oa_kblk_pack_for(oa_kisa_tier t)
{
    return t >= OA_KISA_AVX512 ? oa_kblk_pack_avx512 : (t == OA_KISA_AVX2 ? oa_kblk_pack_avx2 : oa_kblk_pack_ref);
}

oa_kblk_pack_rows_fn oa_kblk_pack_rows_for(oa_kisa_tier t)
{
    return t >= OA_KISA_AVX512 ? oa_kblk_pack_rows_avx512
                               : (t == OA_KISA_AVX2 ? oa_kblk_pack_rows_avx2 : oa_kblk_pack_rows_ref);
}

oa_kblk_unpack_fn oa_kblk_unpack_for(oa_kisa_tier t)
{
    return t >= OA_KISA_AVX512 ? oa_kblk_unpack_avx512
                               : (t == OA_KISA_AVX2 ? oa_kblk_unpack_avx2 : oa_kblk_unpack_ref);
}

oa_kt2d_fn oa_kt2d_for(oa_kisa_tier t)
{
    return t >= OA_KISA_AVX512 ? oa_kt2d_avx512 : (t == OA_KISA_AVX2 ? oa_kt2d_avx2 : oa_kt2d_ref);
}

void oa_kop_state_free(oa_kop *op)
{
    free(op->state);
    op->state = NULL;
}

oa_kblk_to_rows_fn oa_kblk_to_rows_for(oa_kisa_tier t)
{
    return t >= OA_KISA_AVX512 ? oa_kblk_to_rows_avx512 : (t == OA_KISA_AVX2 ? oa_kblk_to_rows_avx2 : oa_kblk_to_rows_ref);
}

oa_kgemv_fn oa_kgemv_for(oa_kisa_tier t)
{
    return t >= OA_KISA_AVX512 ? oa_kgemv_avx512 : (t == OA_KISA_AVX2 ? oa_kgemv_avx2 : NULL);
}

oa_kpl1x1_fn oa_kpl1x1_for(oa_kisa_tier t)
{
    return t >= OA_KISA_AVX512 ? oa_kpl1x1_avx512 : (t == OA_KISA_AVX2 ? oa_kpl1x1_avx2 : NULL);
}

oa_kdwpl_fn oa_kdwpl_for(oa_kisa_tier t)
{
    return t >= OA_KISA_AVX512 ? oa_kdwpl_avx512 : (t == OA_KISA_AVX2 ? oa_kdwpl_avx2 : NULL);
}

void oa_kblk_pack(const float *x, int64_t nc, int64_t hw, float *y, int64_t blk)
{
    oa_kblk_pack_for(oa_kisa_tier_used())(x, nc, hw, y, blk);
}

void oa_kblk_pack_rows(const float *x, int64_t nc, int64_t n, int64_t xs, float *y, int64_t blk)
{
    oa_kblk_pack_rows_for(oa_kisa_tier_used())(x, nc, n, xs, y, blk);
}

void oa_kblk_unpack(const float *y, int64_t nc, int64_t hw, float *x, int64_t blk, const float *add)
{
    oa_kblk_unpack_for(oa_kisa_tier_used())(y, nc, hw, x, blk, add);
}

/* ---- tensors ---- */

int64_t oa_ktensor_numel(const oa_ktensor *t)
{
    int64_t n = 1;
    for (int i = 0; i < t->rank; i++) {
        if (!oa_mul_i64(n, t->dims[i], &n)) {
            return -1;
        }
    }
    return n;
}

int64_t oa_kc_padded(int64_t c)
{
    int64_t b = oa_kernels_block();
    return (c + b - 1) / b * b;
}

size_t oa_ktensor_bytes(const oa_ktensor *t)
{
    int64_t n;
    if (t->layout == OA_KLAYOUT_NCHWC && t->rank == 4) {
        n = t->dims[0];
        int64_t d[3] = {oa_kc_padded(t->dims[1]), t->dims[2], t->dims[3]};
        for (int i = 0; i < 3; i++) {
            if (!oa_mul_i64(n, d[i], &n)) {
                return 0;
            }
        }
    } else {
        n = oa_ktensor_numel(t);
    }
    size_t bytes;
    if (n < 0 || !oa_mul_size((size_t)n, oa_kdtype_size(t->dtype), &bytes)) {
        return 0;
    }
    return bytes;
}

oa_ktensor *oa_ktensor_set(oa_ktensor *t, oa_kdtype dt, int rank, const int64_t *dims)
{
    memset(t, 0, sizeof(*t));
    t->dtype = dt;
    t->rank = rank;
    for (int i = 0; i < rank && i < OA_KMAX_DIMS; i++) {
        t->dims[i] = dims[i];
    }
    return t;
}

/* double -> int64_t as a cast, saturated instead of undefined beyond the range (NaN: 0); constants come from
 * model files (fuzz_mdl_exec finding, docs/fuzzing.md). */
static int64_t sat_i64(double v)
{
    if (!(v == v)) {
        return 0;
    }
    if (v >= 9223372036854775808.0) {
        return INT64_MAX;
    }
    if (v < -9223372036854775808.0) {
        return INT64_MIN;
    }
    return (int64_t)v;
}

int64_t oa_kt_get_i64(const oa_ktensor *t, int64_t i)
{
    const void *p = t->data;
    switch (t->dtype) {
    case OA_KDT_I64: return ((const int64_t *)p)[i];
    case OA_KDT_I32: return ((const int32_t *)p)[i];
    case OA_KDT_U32: return ((const uint32_t *)p)[i];
    case OA_KDT_I16: return ((const int16_t *)p)[i];
    case OA_KDT_U16: return ((const uint16_t *)p)[i];
    case OA_KDT_I8: return ((const int8_t *)p)[i];
    case OA_KDT_U8: case OA_KDT_BOOL: return ((const uint8_t *)p)[i];
    case OA_KDT_U64: return (int64_t)((const uint64_t *)p)[i];
    case OA_KDT_F32: return sat_i64(((const float *)p)[i]);
    case OA_KDT_F64: return sat_i64(((const double *)p)[i]);
    default: return 0;
    }
}

double oa_kt_get_f64(const oa_ktensor *t, int64_t i)
{
    switch (t->dtype) {
    case OA_KDT_F32: return ((const float *)t->data)[i];
    case OA_KDT_F64: return ((const double *)t->data)[i];
    default: return (double)oa_kt_get_i64(t, i);
    }
}

oa_status oa_kt_read_ints(const oa_ktensor *t, const char *what, int64_t *vals, int cap, int *n)
{
    if (t->data == NULL) {
        return OA_FAIL(OA_E_PARAM, "%s must be a host input with data at create/reshape", what);
    }
    if (t->rank > 1) {
        return OA_FAIL(OA_E_PARAM, "%s must be 0-D or 1-D, got rank %d", what, t->rank);
    }
    if (t->dtype != OA_KDT_I32 && t->dtype != OA_KDT_I64) {
        return OA_FAIL(OA_E_UNSUPPORTED_DATA_TYPE, "%s must be i32 or i64, got %s", what, oa_kdtype_name(t->dtype));
    }
    int64_t cnt = oa_ktensor_numel(t);
    if (cnt > cap) {
        return OA_FAIL(OA_E_PARAM, "%s has %lld entries, at most %d supported", what, (long long)cnt, cap);
    }
    for (int64_t i = 0; i < cnt; i++) {
        vals[i] = oa_kt_get_i64(t, i);
    }
    *n = (int)cnt;
    return OA_OK;
}

oa_status oa_kt_check(const oa_ktensor *t, const char *what)
{
    if (t->rank < 0 || t->rank > OA_KMAX_DIMS) {
        return OA_FAIL(OA_E_PARAM, "%s: rank %d out of [0, %d]", what, t->rank, OA_KMAX_DIMS);
    }
    if (oa_kdtype_size(t->dtype) == 0) {
        return OA_FAIL(OA_E_UNSUPPORTED_DATA_TYPE, "%s: unknown dtype %d", what, (int)t->dtype);
    }
    for (int i = 0; i < t->rank; i++) {
        if (t->dims[i] < 0) {
            return OA_FAIL(OA_E_PARAM, "%s: dim %d is negative (%lld)", what, i, (long long)t->dims[i]);
        }
    }
    if (t->layout == OA_KLAYOUT_NCHWC && t->rank != 4) {
        return OA_FAIL(OA_E_PARAM, "%s: NCHWc layout needs rank 4, got %d", what, t->rank);
    }
    if (oa_ktensor_numel(t) < 0) {
        return OA_FAIL(OA_E_PARAM, "%s: element count overflows", what);
    }
    return OA_OK;
}

void oa_kstrides(const oa_ktensor *t, int64_t *strides)
{
    int64_t s = 1;
    for (int i = t->rank - 1; i >= 0; i--) {
        strides[i] = s;
        s *= t->dims[i];
    }
}

oa_status oa_kbroadcast_shape(const oa_ktensor *a, const oa_ktensor *b, oa_ktensor *out)
{
    int r = a->rank > b->rank ? a->rank : b->rank;
    out->rank = r;
    for (int i = 0; i < r; i++) {
        int ia = i - (r - a->rank), ib = i - (r - b->rank);
        int64_t da = ia >= 0 ? a->dims[ia] : 1, db = ib >= 0 ? b->dims[ib] : 1;
        if (da != db && da != 1 && db != 1) {
            char s1[96], s2[96];
            return OA_FAIL(OA_E_PARAM, "shapes %s and %s do not broadcast (dim %d: %lld vs %lld)",
                           oa_kdims_str(a, s1, sizeof s1), oa_kdims_str(b, s2, sizeof s2), i, (long long)da,
                           (long long)db);
        }
        out->dims[i] = da == 1 ? db : da;
    }
    return OA_OK;
}

bool oa_ksame_dims(const oa_ktensor *a, const oa_ktensor *b)
{
    if (a->rank != b->rank) {
        return false;
    }
    for (int i = 0; i < a->rank; i++) {
        if (a->dims[i] != b->dims[i]) {
            return false;
        }
    }
    return true;
}

const char *oa_kdims_str(const oa_ktensor *t, char *buf, size_t cap)
{
    size_t o = 0;
    o += (size_t)snprintf(buf + o, cap - o, "[");
    for (int i = 0; i < t->rank && o < cap; i++) {
        o += (size_t)snprintf(buf + o, cap - o, i ? ",%lld" : "%lld", (long long)t->dims[i]);
    }
    if (o < cap) {
        snprintf(buf + o, cap - o, "]");
    }
    return buf;
}

oa_status oa_kpost_check(const oa_kpost_chain *post, bool allow_add, int *n_add)
{
    *n_add = 0;
    if (post->n < 0 || post->n > OA_KMAX_POST) {
        return OA_FAIL(OA_E_PARAM, "post-op count %d out of [0, %d]", post->n, OA_KMAX_POST);
    }
    for (int i = 0; i < post->n; i++) {
        const oa_kpost *p = &post->ops[i];
        if (p->kind == OA_KPOST_ADD) {
            if (!allow_add) {
                return OA_FAIL(OA_E_PARAM, "post-op %d: residual add not supported by this op", i);
            }
            (*n_add)++;
        } else if (p->kind == OA_KPOST_ACT) {
            if ((int)p->act < 0 || p->act >= OA_KACT_COUNT) {
                return OA_FAIL(OA_E_PARAM, "post-op %d: unknown activation %d", i, (int)p->act);
            }
        } else {
            return OA_FAIL(OA_E_PARAM, "post-op %d: unknown kind %d", i, (int)p->kind);
        }
    }
    return OA_OK;
}

void oa_kact_apply(oa_kact act, float alpha, float beta, float *y, size_t n)
{
    oa_kew()->act[act](y, n, alpha, beta);
}

void oa_kpost_acts(const oa_kpost_chain *post, float *y, size_t n)
{
    for (int k = 0; post != NULL && k < post->n; k++) {
        oa_kact_apply(post->ops[k].act, post->ops[k].alpha, post->ops[k].beta, y, n);
    }
}

static _Thread_local oa_kconst_hook t_const_hook;
static _Thread_local void *t_const_ctx;

void oa_kconst_set_hook(oa_kconst_hook hook, void *ctx)
{
    t_const_hook = hook;
    t_const_ctx = ctx;
}

void oa_kconst_consumed(const void *p, size_t len)
{
    if (t_const_hook != NULL && p != NULL && len > 0) {
        t_const_hook(t_const_ctx, p, len);
    }
}

bool oa_kacts_from_post(const oa_kpost_chain *post, int from, oa_kacts *f)
{
    memset(f, 0, sizeof(*f));
    for (int k = from; post != NULL && k < post->n; k++) {
        const oa_kpost *po = &post->ops[k];
        const bool simple = po->kind == OA_KPOST_ACT &&
                            (po->act == OA_KACT_NONE || po->act == OA_KACT_RELU || po->act == OA_KACT_LEAKY_RELU ||
                             po->act == OA_KACT_CLIP || po->act == OA_KACT_HARDSIGMOID ||
                             po->act == OA_KACT_HARDSWISH || po->act == OA_KACT_MUL_HARDSIGMOID ||
                             po->act == OA_KACT_LINEAR);
        if (!simple) { /* (a chain has at most OA_KACTS_MAX == OA_KMAX_POST entries) */
            memset(f, 0, sizeof(*f));
            return false;
        }
        if (po->act != OA_KACT_NONE) {
            f->kind[f->n] = po->act;
            f->a[f->n] = po->alpha;
            f->b[f->n] = po->beta;
            f->n++;
        }
    }
    return true;
}

void oa_kadd_inplace(float *y, const float *r, size_t n)
{
    oa_kew()->binary[OA_KBIN_ADD][0](y, r, y, n);
}

/* ---- families ---- */

static const oa_kfamily *const k_families[OA_KOP_COUNT] = {
    [OA_KOP_CONV2D] = &oa_kfam_conv2d,
    [OA_KOP_CONV2D_TRANSPOSE] = &oa_kfam_conv2d_transpose,
    [OA_KOP_MATMUL] = &oa_kfam_matmul,
    [OA_KOP_BATCHNORM] = &oa_kfam_batchnorm,
    [OA_KOP_LAYERNORM] = &oa_kfam_layernorm,
    [OA_KOP_SOFTMAX] = &oa_kfam_softmax,
    [OA_KOP_BINARY] = &oa_kfam_binary,
    [OA_KOP_UNARY] = &oa_kfam_unary,
    [OA_KOP_SELECT] = &oa_kfam_select,
    [OA_KOP_POOL] = &oa_kfam_pool,
    [OA_KOP_REDUCE] = &oa_kfam_reduce,
    [OA_KOP_CAST] = &oa_kfam_cast,
    [OA_KOP_TRANSPOSE] = &oa_kfam_transpose,
    [OA_KOP_CONCAT] = &oa_kfam_concat,
    [OA_KOP_SPLIT] = &oa_kfam_split,
    [OA_KOP_SLICE] = &oa_kfam_slice,
    [OA_KOP_GATHER] = &oa_kfam_gather,
    [OA_KOP_PAD] = &oa_kfam_pad,
    [OA_KOP_TILE] = &oa_kfam_tile,
    [OA_KOP_EXPAND] = &oa_kfam_expand,
    [OA_KOP_FILL] = &oa_kfam_fill,
    [OA_KOP_RANGE] = &oa_kfam_range,
    [OA_KOP_RESIZE] = &oa_kfam_resize,
    [OA_KOP_TOPK] = &oa_kfam_topk,
    [OA_KOP_NMS] = &oa_kfam_nms,
    [OA_KOP_LSTM] = &oa_kfam_lstm,
    [OA_KOP_COPY] = &oa_kfam_copy,
    [OA_KOP_REORDER] = &oa_kfam_reorder,
    [OA_KOP_CONV_REF] = &oa_kfam_conv_ref,
    [OA_KOP_AIPP] = &oa_kfam_aipp,
    [OA_KOP_INDEX] = &oa_kfam_index,
    [OA_KOP_GRID_SAMPLE] = &oa_kfam_grid_sample,
    [OA_KOP_DET] = &oa_kfam_det,
    [OA_KOP_QUANT] = &oa_kfam_quant,
};

static const char *const k_names[OA_KOP_COUNT] = {
    "conv2d", "conv2d_transpose", "matmul", "batchnorm", "layernorm", "softmax", "binary", "unary",
    "select", "pool", "reduce", "cast", "transpose", "concat", "split", "slice", "gather", "pad", "tile",
    "expand", "fill", "range", "resize", "topk", "nms", "lstm", "copy", "reorder", "conv_ref", "aipp",
    "index", "grid_sample", "det", "quant",
};
_Static_assert(sizeof(k_names) / sizeof(k_names[0]) == OA_KOP_COUNT, "op name table");

const char *oa_kop_type_name(oa_kop_type t)
{
    return (unsigned)t < OA_KOP_COUNT ? k_names[t] : "unknown";
}

static oa_status check_io(oa_kop_type type, int n_in, const oa_ktensor *in, int n_out, const oa_ktensor *out)
{
    if ((unsigned)type >= OA_KOP_COUNT) {
        return OA_FAIL(OA_E_PARAM, "unknown kernel op type %d", (int)type);
    }
    if (n_in < 0 || n_out < 0 || (n_in > 0 && in == NULL) || (n_out > 0 && out == NULL)) {
        return OA_FAIL(OA_E_PARAM, "%s: bad input/output arrays (n_in %d, n_out %d)", k_names[type], n_in, n_out);
    }
    char what[64];
    for (int i = 0; i < n_in; i++) {
        if (in[i].dtype == OA_KDT_UNDEFINED) {
            continue;
        }
        snprintf(what, sizeof what, "%s input %d", k_names[type], i);
        oa_status st = oa_kt_check(&in[i], what);
        if (st != OA_OK) {
            return st;
        }
    }
    return OA_OK;
}

/*
 * Families whose output size comes from the values of an input or parameter (pads, multiples, a shape, a
 * range's bounds, sizes or scales) rather than from the input shapes: a few bytes of a model may ask for any
 * size, so their outputs are bounded by the load limit (docs/model_api.md "Bounds the loader checks") when the
 * op is created, before a loader allocates them or a kernel sets up for them.
 */
static oa_status check_load_limit(oa_kop_type type, const void *params, int n_out, const oa_ktensor *out)
{
    const bool one_hot = type == OA_KOP_INDEX && params != NULL &&
                         ((const oa_kindex_params *)params)->op == OA_KIDX_ONE_HOT; /* depth is a value */
    if (type != OA_KOP_PAD && type != OA_KOP_TILE && type != OA_KOP_EXPAND && type != OA_KOP_FILL &&
        type != OA_KOP_RANGE && type != OA_KOP_RESIZE && !one_hot) {
        return OA_OK;
    }
    const uint64_t limit = oa_load_limit_bytes();
    for (int i = 0; i < n_out; i++) {
        int64_t bytes = 0;
        bool unknown = false; /* a dim not known yet: nothing to bound */
        for (int d = 0; d < out[i].rank; d++) {
            unknown = unknown || out[i].dims[d] < 0;
        }
        if (out[i].dtype == OA_KDT_UNDEFINED || unknown ||
            (oa_mul_i64(oa_ktensor_numel(&out[i]), (int64_t)oa_kdtype_size(out[i].dtype), &bytes) &&
             (uint64_t)bytes <= limit)) {
            continue;
        }
        char s[96];
        return OA_FAIL(OA_E_GE_PARAM, "%s output %d: %s of %s is above the load limit of %llu bytes "
                       "($OPENACL_LOAD_LIMIT_MB)", k_names[type], i, oa_kdims_str(&out[i], s, sizeof s),
                       oa_kdtype_name(out[i].dtype), (unsigned long long)limit);
    }
    return OA_OK;
}

oa_status oa_kernel_infer(oa_kop_type type, const void *params, int n_in, const oa_ktensor *in, int n_out,
                          oa_ktensor *out)
{
    oa_status st = check_io(type, n_in, in, n_out, out);
    if (st != OA_OK) {
        return st;
    }
    const oa_kfamily *f = k_families[type];
    if (f->params_size > 0 && params == NULL) {
        return OA_FAIL(OA_E_PARAM, "%s: params are required", k_names[type]);
    }
    for (int i = 0; i < n_out; i++) {
        out[i].layout = OA_KLAYOUT_PLAIN;
        out[i].data = NULL;
    }
    if ((st = f->infer(params, n_in, in, n_out, out)) != OA_OK) {
        return st;
    }
    return check_load_limit(type, params, n_out, out);
}

static oa_status check_outputs(oa_kop *op, const oa_ktensor *out)
{
    oa_ktensor exp[16];
    if (op->n_out > 16) {
        return OA_FAIL(OA_E_PARAM, "%s: %d outputs, at most 16", k_names[op->type], op->n_out);
    }
    memcpy(exp, out, sizeof(oa_ktensor) * (size_t)op->n_out);
    oa_status st = op->fam->infer(op->has_params ? &op->params : NULL, op->n_in, op->in, op->n_out, exp);
    if (st != OA_OK || (st = check_load_limit(op->type, op->has_params ? &op->params : NULL, op->n_out, exp)) != OA_OK) {
        return st;
    }
    for (int i = 0; i < op->n_out; i++) {
        char s1[96], s2[96];
        if (out[i].dtype == OA_KDT_UNDEFINED) {
            continue;
        }
        if (op->type != OA_KOP_REORDER && exp[i].layout != out[i].layout) {
            return OA_FAIL(OA_E_PARAM, "%s output %d: layout %d given, %d expected", k_names[op->type], i,
                           (int)out[i].layout, (int)exp[i].layout);
        }
        if (exp[i].dtype != out[i].dtype) {
            return OA_FAIL(OA_E_PARAM, "%s output %d: dtype %s given, %s expected", k_names[op->type], i,
                           oa_kdtype_name(out[i].dtype), oa_kdtype_name(exp[i].dtype));
        }
        if (op->fam->loose_out_check) {
            if (oa_ktensor_numel(&exp[i]) != oa_ktensor_numel(&out[i])) {
                return OA_FAIL(OA_E_PARAM, "%s output %d: %s has not the element count of %s", k_names[op->type], i,
                               oa_kdims_str(&out[i], s1, sizeof s1), oa_kdims_str(&exp[i], s2, sizeof s2));
            }
        } else if (!oa_ksame_dims(&exp[i], &out[i])) {
            return OA_FAIL(OA_E_PARAM, "%s output %d: shape %s given, %s expected", k_names[op->type], i,
                           oa_kdims_str(&out[i], s1, sizeof s1), oa_kdims_str(&exp[i], s2, sizeof s2));
        }
    }
    return OA_OK;
}

void oa_kop_destroy(oa_kop *op)
{
    if (op == NULL) {
        return;
    }
    if (op->fam != NULL && op->fam->release != NULL && op->state != NULL) {
        op->fam->release(op);
    }
    free(op->in);
    free(op->out);
    free(op);
}

oa_status oa_kop_create(oa_kop_type type, const void *params, int n_in, const oa_ktensor *in, int n_out,
                        const oa_ktensor *out, oa_kop **out_op)
{
    if (out_op == NULL) {
        return OA_FAIL(OA_E_PARAM, "out_op is NULL");
    }
    *out_op = NULL;
    oa_status st = check_io(type, n_in, in, n_out, out);
    if (st != OA_OK) {
        return st;
    }
    char what[64];
    for (int i = 0; i < n_out; i++) {
        if (out[i].dtype == OA_KDT_UNDEFINED) {
            continue;
        }
        snprintf(what, sizeof what, "%s output %d", k_names[type], i);
        st = oa_kt_check(&out[i], what);
        if (st != OA_OK) {
            return st;
        }
    }
    const oa_kfamily *f = k_families[type];
    if (f->params_size > 0 && params == NULL) {
        return OA_FAIL(OA_E_PARAM, "%s: params are required", k_names[type]);
    }
    oa_kop *op = calloc(1, sizeof(*op));
    if (op == NULL) {
        return OA_FAIL(OA_E_NOMEM, "kernel op");
    }
    op->type = type;
    op->fam = f;
    if (f->params_size > 0) {
        memcpy(&op->params, params, f->params_size);
        op->has_params = true;
    }
    op->n_in = n_in;
    op->n_out = n_out;
    op->in = calloc((size_t)(n_in > 0 ? n_in : 1), sizeof(oa_ktensor));
    op->out = calloc((size_t)(n_out > 0 ? n_out : 1), sizeof(oa_ktensor));
    if (op->in == NULL || op->out == NULL) {
        oa_kop_destroy(op);
        return OA_FAIL(OA_E_NOMEM, "kernel op descs");
    }
    if (n_in > 0) {
        memcpy(op->in, in, sizeof(oa_ktensor) * (size_t)n_in);
    }
    if (n_out > 0) {
        memcpy(op->out, out, sizeof(oa_ktensor) * (size_t)n_out);
    }
    op->impl = "ref";
    st = check_outputs(op, out);
    if (st == OA_OK) {
        st = f->setup(op);
    }
    for (int i = 0; i < n_in; i++) {
        op->in[i].data = NULL; /* borrowed only during setup */
    }
    for (int i = 0; i < n_out; i++) {
        op->out[i].data = NULL;
    }
    if (st != OA_OK) {
        oa_kop_destroy(op);
        return st;
    }
    *out_op = op;
    return OA_OK;
}

size_t oa_kop_workspace_size(const oa_kop *op)
{
    return op == NULL ? 0 : op->ws_size;
}

oa_status oa_kop_reshape(oa_kop *op, int n_in, const oa_ktensor *in, int n_out, const oa_ktensor *out)
{
    if (op == NULL) {
        return OA_FAIL(OA_E_PARAM, "op is NULL");
    }
    if (n_in != op->n_in || n_out != op->n_out) {
        return OA_FAIL(OA_E_PARAM, "%s reshape: %d inputs / %d outputs given, op has %d / %d", k_names[op->type],
                       n_in, n_out, op->n_in, op->n_out);
    }
    for (int i = 0; i < n_in; i++) {
        if (in[i].dtype != op->in[i].dtype) {
            return OA_FAIL(OA_E_PARAM, "%s reshape: input %d dtype changed from %s to %s", k_names[op->type], i,
                           oa_kdtype_name(op->in[i].dtype), oa_kdtype_name(in[i].dtype));
        }
    }
    oa_kop *tmp = NULL;
    oa_status st = oa_kop_create(op->type, op->has_params ? &op->params : NULL, n_in, in, n_out, out, &tmp);
    if (st != OA_OK) {
        return st;
    }
    oa_kop swap = *op;
    *op = *tmp;
    *tmp = swap;
    oa_kop_destroy(tmp);
    return OA_OK;
}

/*
 * Threads per operator (kernels.h): a split pays only when the work outweighs handing it over. On a CPU where a
 * cache line takes long to cross between cores (an Intel Xeon here: ~0.5 us per pooled call, bench/RESULTS.md),
 * the small operators of a network like PP-OCR cls ran slower on two threads than on one.
 */
enum { KTHREADS_SAMPLES = 4, KOP_THREADS_WARM = 2 };
_Static_assert(KOP_THREADS_WARM + 2 * KTHREADS_SAMPLES == OA_KTHREADS_OP_RUNS, "kernels.h OA_KTHREADS_OP_RUNS");
#define KOP_THREADS_BIG_NS 200000u

static bool kthreads_on(void)
{
    static _Atomic int on = -1;
    int v = atomic_load_explicit(&on, memory_order_relaxed);
    if (v < 0) {
        const char *e = getenv("OPENACL_OP_THREADS");
        v = e == NULL || strcmp(e, "pool") != 0;
        if (e != NULL && strcmp(e, "pool") != 0 && strcmp(e, "learn") != 0) {
            OA_LOGW("OPENACL_OP_THREADS=\"%s\" is not one of learn, pool: learning", e);
        }
        atomic_store_explicit(&on, v, memory_order_relaxed);
    }
    return v != 0;
}

oa_threadpool *oa_kthreads_pick(oa_kthreads *t, oa_threadpool *pool, uint32_t warm, int *timed)
{
    *timed = -1;
    if (oa_threadpool_size(pool) < 2) {
        return pool;
    }
    const int choice = atomic_load_explicit(&t->choice, memory_order_relaxed);
    if (choice != OA_KTHREADS_LEARNING) {
        return choice == OA_KTHREADS_CALLER ? NULL : pool;
    }
    if (!kthreads_on()) {
        atomic_store_explicit(&t->choice, OA_KTHREADS_POOL, memory_order_relaxed);
        return pool;
    }
    const uint32_t n = atomic_fetch_add_explicit(&t->calls, 1, memory_order_relaxed);
    if (n < warm) { /* first runs: page faults, cold caches (and, for a model, its operators' own learning) */
        return pool;
    }
    *timed = (int)((n - warm) % 2);
    return *timed == 0 ? pool : NULL;
}

int oa_kthreads_learn(oa_kthreads *t, uint32_t warm, int mode, uint64_t ns, uint64_t big_ns)
{
    if (mode < 0 || mode > 1) {
        return OA_KTHREADS_LEARNING;
    }
    ns = ns > 0 ? ns : 1;
    uint64_t cur = atomic_load_explicit(&t->best[mode], memory_order_relaxed);
    while ((cur == 0 || ns < cur) &&
           !atomic_compare_exchange_weak_explicit(&t->best[mode], &cur, ns, memory_order_relaxed,
                                                  memory_order_relaxed)) {
    }
    const uint64_t pool_ns = atomic_load_explicit(&t->best[0], memory_order_relaxed);
    const uint64_t caller_ns = atomic_load_explicit(&t->best[1], memory_order_relaxed);
    int choice = OA_KTHREADS_LEARNING;
    /* enough work to share whatever the CPU, or the calling thread alone clearly slower (1.5x) */
    if ((big_ns > 0 && pool_ns >= big_ns) || (pool_ns > 0 && caller_ns / 3 >= pool_ns / 2)) {
        choice = OA_KTHREADS_POOL;
    } else if (atomic_load_explicit(&t->calls, memory_order_relaxed) >= warm + 2 * KTHREADS_SAMPLES &&
               pool_ns > 0 && caller_ns > 0) {
        choice = caller_ns <= pool_ns ? OA_KTHREADS_CALLER : OA_KTHREADS_POOL;
    }
    int expect = OA_KTHREADS_LEARNING;
    if (choice != OA_KTHREADS_LEARNING &&
        atomic_compare_exchange_strong_explicit(&t->choice, &expect, choice, memory_order_relaxed,
                                                memory_order_relaxed)) {
        return choice;
    }
    return OA_KTHREADS_LEARNING;
}

oa_status oa_kop_run(const oa_kop *op, const void *const *inputs, void *const *outputs, void *workspace,
                     oa_threadpool *pool)
{
    if (op == NULL || (op->n_in > 0 && inputs == NULL) || (op->n_out > 0 && outputs == NULL)) {
        return OA_FAIL(OA_E_PARAM, "kernel run: NULL op or data arrays");
    }
    if (op->ws_size > 0 && workspace == NULL) {
        return OA_FAIL(OA_E_PARAM, "%s: workspace of %zu bytes required", k_names[op->type], op->ws_size);
    }
    int timed = -1;
    oa_kthreads *thr = (oa_kthreads *)(uintptr_t)&op->thr; /* mutable: see struct oa_kop */
    pool = oa_kthreads_pick(thr, pool, KOP_THREADS_WARM, &timed);
    const uint64_t t0 = timed >= 0 ? oa_now_ns() : 0;
    oa_run_scope *sc = oa_run_scope_current();
    const oa_status st = sc == NULL ? op->fam->run(op, inputs, outputs, workspace, pool)
                                    : oa_kop_run_scoped(op, inputs, outputs, workspace, pool, sc, k_names[op->type]);
    if (timed >= 0 && st == OA_OK) {
        (void)oa_kthreads_learn(thr, KOP_THREADS_WARM, timed, oa_now_ns() - t0, KOP_THREADS_BIG_NS);
    }
    return st;
}

int oa_kop_threads_choice(const oa_kop *op)
{
    return op == NULL ? OA_KTHREADS_POOL : atomic_load_explicit(&op->thr.choice, memory_order_relaxed);
}

bool oa_kop_reads_input_at_run(const oa_kop *op, int i)
{
    if (op == NULL || i < 0 || i >= op->n_in || op->fam->reads_at_run == NULL) {
        return true;
    }
    return op->fam->reads_at_run(op, i);
}

oa_kop_type oa_kop_get_type(const oa_kop *op)
{
    return op->type;
}

const char *oa_kop_impl_name(const oa_kop *op)
{
    return op->impl;
}

oa_status oa_kernel_run_once(oa_kop_type type, const void *params, int n_in, const oa_ktensor *in,
                             const void *const *in_data, int n_out, const oa_ktensor *out, void *const *out_data,
                             oa_threadpool *pool)
{
    oa_kop *op = NULL;
    oa_status st = oa_kop_create(type, params, n_in, in, n_out, out, &op);
    if (st != OA_OK) {
        return st;
    }
    void *ws = NULL;
    size_t wsz = oa_kop_workspace_size(op);
    if (wsz > 0) {
        size_t al;
        if (!oa_align_up(wsz, 64, &al) || (ws = aligned_alloc(64, al)) == NULL) {
            oa_kop_destroy(op);
            return OA_FAIL(OA_E_NOMEM, "workspace of %zu bytes", wsz);
        }
    }
    st = oa_kop_run(op, in_data, out_data, ws, pool);
    free(ws);
    oa_kop_destroy(op);
    return st;
}
