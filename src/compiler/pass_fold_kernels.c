/*
 * Constant folding through the CPU kernels' reference paths: an op whose
 * inputs are all Consts -- of any size, beyond what value inference tracks
 * -- runs once (oa_kernel_run_once) and becomes a Const. Covered: the
 * op_defs.inc rows flagged F_FOLD (elementwise unary and binary kernels
 * without attributes, bound through their kernel/sub columns), Cast and
 * Transpose (the ops that exporters leave on weights); ops with more
 * attributes are left to the executors, which own their attribute decoding.
 */
#define OA_LOG_MODULE "GE"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "compiler/pass_util.h"
#include "kernels/kernels.h"
#include "op_bind/op_bind.h"

/* Output bytes beyond which folding is not worth a new weight. */
#define FOLD_MAX_BYTES ((size_t)256 << 20)

static bool to_ktensor(const oa_tensor_desc *d, const void *data, oa_ktensor *t)
{
    if (!oa_shape_is_static(&d->shape) || d->shape.rank > OA_KMAX_DIMS || oa_dtype_size(d->dtype) == 0) {
        return false;
    }
    memset(t, 0, sizeof(*t));
    t->dtype = (oa_kdtype)d->dtype; /* both are GE DataType numbers */
    t->rank = d->shape.rank;
    for (int32_t i = 0; i < d->shape.rank; i++) {
        t->dims[i] = d->shape.dims[i];
    }
    t->layout = OA_KLAYOUT_PLAIN;
    t->data = data;
    return true;
}

/* Kernel family and parameters of n, when it is one we fold. */
static bool kernel_params(const oa_node *n, oa_kop_type *type, void *params)
{
    int sub;
    if (oa_op_flags(n->type) & OA_OPF_FOLD) {
        if (!oa_op_kernel(n->type, type, &sub) || (*type != OA_KOP_UNARY && *type != OA_KOP_BINARY)) {
            return false;
        }
        if (*type == OA_KOP_UNARY) {
            oa_kunary_params *p = params;
            memset(p, 0, sizeof(*p));
            p->op = (oa_kunary_op)sub;
        } else {
            oa_kbinary_params *p = params;
            memset(p, 0, sizeof(*p));
            p->op = (oa_kbinary_op)sub;
        }
        return true;
    }
    if (n->type == OA_OP_CAST) {
        int64_t dst;
        if (!oa_attrs_get_int(&n->attrs, "dst_type", &dst)) {
            return false;
        }
        *type = OA_KOP_CAST;
        oa_kcast_params *p = params;
        p->dst_type = (oa_kdtype)dst;
        return true;
    }
    if (n->type == OA_OP_TRANSPOSE || n->type == OA_OP_TRANSPOSE_D) {
        *type = OA_KOP_TRANSPOSE;
        oa_ktranspose_params *p = params;
        memset(p, 0, sizeof(*p));
        const int64_t *perm;
        size_t np = 0;
        if (n->type == OA_OP_TRANSPOSE_D) {
            if (!oa_attrs_get_list_int(&n->attrs, "perm", &perm, &np) || np > OA_KMAX_DIMS) {
                return false;
            }
            p->n_perm = (int)np;
            memcpy(p->perm, perm, np * sizeof(int64_t));
        }
        return true; /* Transpose: perm is the constant input 1 */
    }
    return false;
}

oa_status oa_cp_fold_with_kernels(oa_node *n, bool *done)
{
    *done = false;
    oa_kop_type type;
    union {
        oa_kunary_params u;
        oa_kbinary_params b;
        oa_kcast_params c;
        oa_ktranspose_params t;
    } params;
    if (n->num_outputs != 1 || n->num_inputs == 0 || n->num_inputs > 4 || oa_cp_num_uses(n, 0) == 0 ||
        !kernel_params(n, &type, &params)) {
        return OA_OK;
    }
    oa_ktensor in[4], out;
    const void *in_data[4];
    for (uint32_t i = 0; i < n->num_inputs; i++) {
        const oa_tensor *t = oa_cp_input_const(n, i);
        if (t == NULL || !to_ktensor(&t->desc, t->data, &in[i])) {
            return OA_OK;
        }
        in_data[i] = t->data;
    }
    /* The kernels' dtypes (kernels.h): f32 elementwise; same-dtype i32/i64 binaries. */
    if (type == OA_KOP_UNARY && in[0].dtype != OA_KDT_F32) {
        return OA_OK;
    }
    if (type == OA_KOP_BINARY && (n->num_inputs != 2 || in[0].dtype != in[1].dtype ||
                                  (in[0].dtype != OA_KDT_F32 && in[0].dtype != OA_KDT_I32 &&
                                   in[0].dtype != OA_KDT_I64))) {
        return OA_OK;
    }
    const oa_tensor_desc *yd = &n->outputs[0].desc;
    size_t bytes;
    if (!to_ktensor(yd, NULL, &out) || !oa_tensor_nbytes(yd->dtype, &yd->shape, &bytes) || bytes > FOLD_MAX_BYTES) {
        return OA_OK;
    }
    void *buf = malloc(bytes ? bytes : 1);
    if (buf == NULL) {
        return OA_FAIL(OA_E_NOMEM, "out of memory folding %s", n->name);
    }
    void *out_data[1] = {buf};
    /* A kernel that refuses these dtypes/shapes just leaves the node alone. */
    oa_status st = oa_kernel_run_once(type, &params, (int)n->num_inputs, in, in_data, 1, &out, out_data, NULL);
    if (st != OA_OK) {
        oa_error_clear(); /* compilation stops at its first failure: nothing else is pending */
        OA_LOGD("not folding %s (%s): the kernel refused it", n->name, n->type_name);
        free(buf);
        return OA_OK;
    }
    char name[512];
    snprintf(name, sizeof(name), "%s_const", n->name);
    oa_node *c;
    st = oa_cp_add_const(n->graph, name, yd->dtype, &yd->shape, buf, bytes, &c);
    free(buf);
    if (st == OA_OK) {
        st = oa_graph_replace_uses(n, 0, c, 0, NULL);
        *done = st == OA_OK;
    }
    return st;
}
