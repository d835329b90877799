/*
 * Reductions: ReduceSum/Mean/Max/Min/Prod (+ L2, SumSquare) over any set of
 * axes with keep_dims and noop_with_empty_axes. f32 (all ops), i32/i64
 * (sum, mean, max, min, prod).
 *
 * The dims are collapsed into alternating kept/reduced groups. When the
 * reduced group is the innermost one (LayerNorm-style decompositions,
 * softmax denominators) each output is a contiguous row reduced with the
 * vectorised sum/max; otherwise each output walks its reduced elements
 * through strides, accumulating in double for f32 sums.
 */
#include "kernels/kernel_internal.h"

#include <math.h>
#include <stdlib.h>

#include "base/fp16.h"

typedef struct red_state {
    oa_kreduce_op op;
    oa_kdtype dt;
    bool identity;
    int nk, nr;                               /* kept / reduced collapsed dims */
    int64_t kdims[OA_KMAX_DIMS], kstr[OA_KMAX_DIMS];
    int64_t rdims[OA_KMAX_DIMS], rstr[OA_KMAX_DIMS];
    int64_t nout, nred;
    bool inner_contig; /* reduced elements of an output are one contiguous run */
} red_state;

static oa_status red_axes(const oa_kreduce_params *p, int n_in, const oa_ktensor *in, bool *mask, bool *identity)
{
    const oa_ktensor *x = &in[0];
    int64_t axes[OA_KMAX_DIMS];
    int n = p->n_axes;
    if (n < 0 || n > OA_KMAX_DIMS) {
        return OA_FAIL(OA_E_PARAM, "Reduce: %d axes", n);
    }
    memcpy(axes, p->axes, sizeof(int64_t) * (size_t)n);
    const oa_ktensor *ax = oa_kt_opt(n_in, in, 1);
    if (ax != NULL) {
        oa_status st = oa_kt_read_ints(ax, "Reduce axes", axes, OA_KMAX_DIMS, &n);
        if (st != OA_OK) {
            return st;
        }
    }
    *identity = false;
    for (int i = 0; i < OA_KMAX_DIMS; i++) {
        mask[i] = false;
    }
    if (n == 0) {
        if (p->noop_with_empty_axes) {
            *identity = true;
        } else {
            for (int i = 0; i < x->rank; i++) {
                mask[i] = true;
            }
        }
        return OA_OK;
    }
    for (int i = 0; i < n; i++) {
        int a;
        if (!oa_kaxis_norm(axes[i], x->rank, &a)) {
            return OA_FAIL(OA_E_PARAM, "Reduce: axis %lld out of range for rank %d", (long long)axes[i], x->rank);
        }
        mask[a] = true;
    }
    return OA_OK;
}

static oa_status red_infer(const void *params, int n_in, const oa_ktensor *in, int n_out, oa_ktensor *out)
{
    const oa_kreduce_params *p = params;
    if (n_in < 1 || n_in > 2 || n_out != 1) {
        return OA_FAIL(OA_E_PARAM, "Reduce: x[, axes] and 1 output (got %d, %d)", n_in, n_out);
    }
    if ((unsigned)p->op >= OA_KRED_COUNT) {
        return OA_FAIL(OA_E_PARAM, "Reduce: unknown op %d", (int)p->op);
    }
    oa_kdtype dt = in[0].dtype;
    bool int_ok = p->op == OA_KRED_SUM || p->op == OA_KRED_MEAN || p->op == OA_KRED_MAX || p->op == OA_KRED_MIN ||
                  p->op == OA_KRED_PROD;
    /* f64 accumulates in double, f16 too (rounded once at the end) */
    if (!(dt == OA_KDT_F32 || dt == OA_KDT_F64 || dt == OA_KDT_F16 || ((dt == OA_KDT_I32 || dt == OA_KDT_I64) && int_ok))) {
        return OA_FAIL(OA_E_UNSUPPORTED_DATA_TYPE, "Reduce op %d: dtype %s not supported", (int)p->op,
                       oa_kdtype_name(dt));
    }
    bool mask[OA_KMAX_DIMS], identity;
    oa_status st = red_axes(p, n_in, in, mask, &identity);
    if (st != OA_OK) {
        return st;
    }
    out[0].dtype = dt;
    out[0].rank = 0;
    for (int i = 0; i < in[0].rank; i++) {
        if (identity || !mask[i]) {
            out[0].dims[out[0].rank++] = in[0].dims[i];
        } else if (p->keep_dims) {
            out[0].dims[out[0].rank++] = 1;
        }
    }
    return OA_OK;
}

static oa_status red_setup(oa_kop *op)
{
    red_state *s = calloc(1, sizeof(*s));
    if (s == NULL) {
        return OA_FAIL(OA_E_NOMEM, "reduce state");
    }
    op->state = s;
    const oa_kreduce_params *p = &op->params.reduce;
    const oa_ktensor *x = &op->in[0];
    bool mask[OA_KMAX_DIMS];
    oa_status st = red_axes(p, op->n_in, op->in, mask, &s->identity);
    if (st != OA_OK) {
        return st;
    }
    s->op = p->op;
    s->dt = x->dtype;
    int64_t str[OA_KMAX_DIMS];
    oa_kstrides(x, str);
    /* collapse: walk dims, merge consecutive dims of the same kind */
    s->nout = s->nred = 1;
    int last = -1; /* 0 kept, 1 reduced */
    for (int i = 0; i < x->rank; i++) {
        if (x->dims[i] == 1) {
            continue;
        }
        int kind = mask[i] ? 1 : 0;
        int64_t *dims = kind ? s->rdims : s->kdims, *strs = kind ? s->rstr : s->kstr;
        int *cnt = kind ? &s->nr : &s->nk;
        if (kind == last && *cnt > 0 && strs[*cnt - 1] == str[i] * x->dims[i]) {
            dims[*cnt - 1] *= x->dims[i];
            strs[*cnt - 1] = str[i];
        } else {
            dims[*cnt] = x->dims[i];
            strs[*cnt] = str[i];
            (*cnt)++;
        }
        last = kind;
        if (kind) {
            s->nred *= x->dims[i];
        } else {
            s->nout *= x->dims[i];
        }
    }
    if (oa_ktensor_numel(x) == 0) {
        s->nout = oa_ktensor_numel(&op->out[0]);
        s->nred = 0;
        s->nr = 0;
    }
    s->inner_contig = s->nr <= 1 && (s->nr == 0 || s->rstr[0] == 1);
    op->impl = s->inner_contig && s->dt == OA_KDT_F32 ? oa_kernels_isa() : "ref";
    return OA_OK;
}

typedef struct red_ctx {
    const red_state *s;
    const void *x;
    void *y;
} red_ctx;

static int64_t kept_offset(const red_state *s, int64_t o)
{
    int64_t off = 0;
    for (int i = s->nk - 1; i >= 0; i--) {
        off += (o % s->kdims[i]) * s->kstr[i];
        o /= s->kdims[i];
    }
    return off;
}

#define RED_INT(T)                                                                                  \
    do {                                                                                            \
        const T *X = (const T *)c->x + base;                                                        \
        T acc = s->op == OA_KRED_PROD ? 1 : (s->op == OA_KRED_MAX ? (T)X[0] : (s->op == OA_KRED_MIN ? (T)X[0] : 0)); \
        for (int64_t r = 0; r < s->nred; r++) {                                                     \
            int64_t off = 0, rr = r;                                                                \
            for (int i = s->nr - 1; i >= 0; i--) {                                                  \
                off += (rr % s->rdims[i]) * s->rstr[i];                                             \
                rr /= s->rdims[i];                                                                  \
            }                                                                                       \
            T v = X[off];                                                                           \
            switch (s->op) {                                                                        \
            case OA_KRED_MAX: acc = v > acc ? v : acc; break;                                       \
            case OA_KRED_MIN: acc = v < acc ? v : acc; break;                                       \
            case OA_KRED_PROD: acc = (T)((uint64_t)acc * (uint64_t)v); break;                       \
            default: acc = (T)((uint64_t)acc + (uint64_t)v); break;                                 \
            }                                                                                       \
        }                                                                                           \
        if (s->op == OA_KRED_MEAN) {                                                                \
            acc = s->nred ? (T)(acc / (T)s->nred) : 0;                                              \
        }                                                                                           \
        ((T *)c->y)[o] = acc;                                                                       \
    } while (0)

static void red_task(void *vctx, size_t tid, size_t b, size_t e)
{
    (void)tid;
    const red_ctx *c = vctx;
    const red_state *s = c->s;
    const oa_kew_table *ew = oa_kew();
    for (size_t oi = b; oi < e; oi++) {
        int64_t o = (int64_t)oi;
        int64_t base = kept_offset(s, o);
        if (s->dt == OA_KDT_I32) {
            if (s->nred == 0) {
                ((int32_t *)c->y)[o] = s->op == OA_KRED_PROD ? 1 : 0;
            } else {
                RED_INT(int32_t);
            }
            continue;
        }
        if (s->dt == OA_KDT_I64) {
            if (s->nred == 0) {
                ((int64_t *)c->y)[o] = s->op == OA_KRED_PROD ? 1 : 0;
            } else {
                RED_INT(int64_t);
            }
            continue;
        }
        const bool f32 = s->dt == OA_KDT_F32;
        const float *x = f32 ? (const float *)c->x + base : NULL;
        double res;
        if (f32 && s->inner_contig && (s->op == OA_KRED_SUM || s->op == OA_KRED_MEAN)) {
            float r = ew->sum(x, (size_t)s->nred);
            if (s->op == OA_KRED_MEAN) {
                r /= (float)s->nred;
            }
            res = r;
        } else if (f32 && s->inner_contig && s->op == OA_KRED_MAX && s->nred > 0) {
            res = ew->max(x, (size_t)s->nred);
        } else {
            double acc = s->op == OA_KRED_PROD ? 1.0 : (s->op == OA_KRED_MAX ? -INFINITY : (s->op == OA_KRED_MIN ? INFINITY : 0.0));
            for (int64_t r = 0; r < s->nred; r++) {
                int64_t off = 0, rr = r;
                for (int i = s->nr - 1; i >= 0; i--) {
                    off += (rr % s->rdims[i]) * s->rstr[i];
                    rr /= s->rdims[i];
                }
                double v = f32 ? x[off]
                           : s->dt == OA_KDT_F64 ? ((const double *)c->x)[base + off]
                                                 : oa_f16_to_f32(((const uint16_t *)c->x)[base + off]);
                switch (s->op) {
                case OA_KRED_MAX: acc = (v > acc || v != v) ? v : acc; break;
                case OA_KRED_MIN: acc = (v < acc || v != v) ? v : acc; break;
                case OA_KRED_PROD: acc *= v; break;
                case OA_KRED_L2:
                case OA_KRED_SUMSQ: acc += v * v; break;
                default: acc += v; break;
                }
            }
            if (s->op == OA_KRED_MEAN) {
                acc /= (double)s->nred;
            } else if (s->op == OA_KRED_L2) {
                acc = sqrt(acc);
            }
            res = acc;
        }
        if (f32) {
            ((float *)c->y)[o] = (float)res;
        } else if (s->dt == OA_KDT_F64) {
            ((double *)c->y)[o] = res;
        } else {
            ((uint16_t *)c->y)[o] = oa_f32_to_f16((float)res);
        }
    }
}

static oa_status red_run(const oa_kop *op, const void *const *in, void *const *out, void *ws, oa_threadpool *pool)
{
    (void)ws;
    const red_state *s = op->state;
    if (in[0] == NULL || out[0] == NULL) {
        return OA_FAIL(OA_E_PARAM, "Reduce: NULL data pointer");
    }
    if (s->identity) {
        if (out[0] != in[0]) {
            memmove(out[0], in[0], oa_ktensor_bytes(&op->in[0]));
        }
        return OA_OK;
    }
    red_ctx c = {s, in[0], out[0]};
    oa_threadpool_parallel_for(pool, (size_t)s->nout, (size_t)(OA_KGRAIN_ELEMS / (s->nred + 1) + 1), red_task, &c);
    return OA_OK;
}

const oa_kfamily oa_kfam_reduce = {
    .params_size = sizeof(oa_kreduce_params),
    .infer = red_infer,
    .setup = red_setup,
    .run = red_run,
    .release = oa_kop_state_free,
};
