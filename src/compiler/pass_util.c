/*
 * Helpers shared by the compiler passes (pass_util.h).
 */
#define OA_LOG_MODULE "GE"
#include "compiler/pass_util.h"

#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"
#include "graph/blob.h"

const oa_tensor *oa_cp_const_tensor(const oa_node *n)
{
    if (n == NULL || (n->type != OA_OP_CONST && n->type != OA_OP_CONSTANT)) {
        return NULL;
    }
    const oa_tensor *t = NULL;
    return oa_attrs_get_tensor(&n->attrs, "value", &t) ? t : NULL;
}

const oa_tensor *oa_cp_input_const(const oa_node *n, uint32_t i)
{
    return oa_cp_const_tensor(oa_node_input_src(n, i, NULL));
}

bool oa_cp_const_int(const oa_tensor *t, int64_t k, int64_t *v)
{
    const size_t es = t != NULL ? oa_dtype_size(t->desc.dtype) : 0;
    if (es == 0 || k < 0 || t->data == NULL || (size_t)(k + 1) * es > t->size) {
        return false;
    }
    switch (t->desc.dtype) {
    case OA_DT_UINT8: *v = ((const uint8_t *)t->data)[k]; return true;
    case OA_DT_INT8: *v = ((const int8_t *)t->data)[k]; return true;
    case OA_DT_INT32: *v = ((const int32_t *)t->data)[k]; return true;
    case OA_DT_INT64: *v = ((const int64_t *)t->data)[k]; return true;
    default: return false;
    }
}

int64_t oa_cp_const_count(const oa_tensor *t)
{
    const size_t es = t != NULL ? oa_dtype_size(t->desc.dtype) : 0;
    return es != 0 ? (int64_t)(t->size / es) : 0;
}

bool oa_cp_const_f32(const oa_tensor *t, const float **data, int64_t *count)
{
    int64_t c;
    if (t == NULL || t->desc.dtype != OA_DT_FLOAT || !oa_shape_numel(&t->desc.shape, &c) ||
        t->size != (size_t)c * sizeof(float) || (c > 0 && t->data == NULL)) {
        return false;
    }
    *data = t->data;
    *count = c;
    return true;
}

bool oa_cp_input_scalar(const oa_node *n, uint32_t i, float *v)
{
    const float *d;
    int64_t c;
    if (!oa_cp_const_f32(oa_cp_input_const(n, i), &d, &c) || c != 1) {
        return false;
    }
    *v = d[0];
    return true;
}

size_t oa_cp_num_uses(const oa_node *n, uint32_t k)
{
    return oa_node_output_uses(n, k, NULL, 0);
}

oa_node *oa_cp_single_use(const oa_node *n, uint32_t k, uint32_t *slot)
{
    oa_use u;
    if (oa_node_output_uses(n, k, &u, 1) != 1) {
        return NULL;
    }
    if (slot) {
        *slot = u.input;
    }
    return u.node;
}

bool oa_cp_has_ctrl_uses(const oa_node *n)
{
    return oa_node_control_uses(n, NULL, 0) > 0;
}

bool oa_cp_is_graph_output(const oa_node *n, uint32_t k)
{
    size_t count = oa_node_output_uses(n, k, NULL, 0);
    if (count == 0) {
        return false;
    }
    oa_use stack_uses[16];
    oa_use *uses = count <= 16 ? stack_uses : malloc(count * sizeof(oa_use));
    if (uses == NULL) {
        return true; /* conservative */
    }
    (void)oa_node_output_uses(n, k, uses, count);
    bool out = false;
    for (size_t i = 0; i < count; i++) {
        out = out || uses[i].node->type == OA_OP_NET_OUTPUT;
    }
    if (uses != stack_uses) {
        free(uses);
    }
    return out;
}

static oa_status move_ctrl_uses(oa_node *from, oa_node *to)
{
    size_t n = oa_node_control_uses(from, NULL, 0);
    if (n == 0) {
        return OA_OK;
    }
    oa_node **users = malloc(n * sizeof(*users));
    if (users == NULL) {
        return OA_FAIL(OA_E_NOMEM, "out of memory moving control edges of %s", from->name);
    }
    (void)oa_node_control_uses(from, users, n);
    oa_status st = OA_OK;
    for (size_t i = 0; i < n && st == OA_OK; i++) {
        (void)oa_node_remove_control_input(users[i], from);
        if (to != NULL && users[i] != to) {
            st = oa_node_add_control_input(users[i], to);
        }
    }
    free(users);
    return st;
}

oa_status oa_cp_remove_if_unused(oa_node *n)
{
    for (uint32_t k = 0; k < n->num_outputs; k++) {
        if (oa_cp_num_uses(n, k) > 0) {
            return OA_OK;
        }
    }
    oa_status st = move_ctrl_uses(n, NULL);
    return st != OA_OK ? st : oa_graph_remove_node(n->graph, n);
}

oa_status oa_cp_replace_and_remove(oa_node *from, uint32_t from_idx, oa_node *to, uint32_t to_idx)
{
    oa_status st = oa_graph_replace_uses(from, from_idx, to, to_idx, NULL);
    if (st != OA_OK) {
        return st;
    }
    for (uint32_t k = 0; k < from->num_outputs; k++) {
        if (oa_cp_num_uses(from, k) > 0) {
            return OA_OK;
        }
    }
    /* Whoever waited for `from` now waits for what replaces it; the
     * ordering constraints on `from` itself die with it (every op here is
     * pure, and moving them onto `to` could close a cycle). */
    st = move_ctrl_uses(from, to != from ? to : NULL);
    if (st != OA_OK) {
        return st;
    }
    return oa_graph_remove_node(from->graph, from);
}

static void release_buffer(void *ctx, const void *data, size_t size)
{
    (void)data;
    (void)size;
    free(ctx);
}

oa_status oa_cp_add_const(oa_graph *g, const char *base, oa_dtype dt, const oa_shape *shape, const void *data,
                          size_t size, oa_node **out)
{
    void *buf = malloc(size ? size : 1);
    if (buf == NULL) {
        return OA_FAIL(OA_E_NOMEM, "out of memory for a %zu-byte constant", size);
    }
    if (size) {
        memcpy(buf, data, size);
    }
    oa_blob *b = oa_blob_create(buf, size, release_buffer, buf);
    if (b == NULL) {
        free(buf);
        return OA_E_NOMEM;
    }
    oa_tensor *t;
    oa_status st = oa_graph_make_tensor_borrowed(g, dt, shape, b, 0, size, &t);
    oa_blob_release(b);
    if (st != OA_OK) {
        return st;
    }
    const char *name = oa_graph_unique_name(g, base);
    if (name == NULL) {
        return OA_E_NOMEM;
    }
    return oa_graph_add_const(g, name, t, out);
}

int oa_cp_per_axis(const oa_tensor *c, const oa_shape *y, bool last_axis, int64_t channels, float *per)
{
    const float *d;
    int64_t count;
    if (!oa_cp_const_f32(c, &d, &count) || y->rank < 1 || y->rank == OA_RANK_UNKNOWN || count < 1) {
        return 0;
    }
    const oa_shape *cs = &c->desc.shape;
    if (cs->rank > y->rank) {
        return 0;
    }
    int32_t axis = last_axis ? y->rank - 1 : 1;
    if (axis >= y->rank) {
        return 0;
    }
    int64_t along = 1;
    for (int32_t k = 0; k < cs->rank; k++) {
        int32_t yk = y->rank - cs->rank + k; /* right-aligned */
        int64_t cd = cs->dims[k];
        if (cd == 1) {
            continue;
        }
        if (yk != axis || cd != y->dims[yk] || cd != channels) {
            return 0;
        }
        along = cd;
    }
    for (int64_t ch = 0; ch < channels; ch++) {
        per[ch] = d[along == 1 ? 0 : ch];
    }
    return 1;
}

oa_status oa_cp_add_original_names(oa_node *n, const char *const *names, size_t count)
{
    const char *const *old = NULL;
    size_t nold = 0;
    bool had = oa_attrs_get_list_str(&n->attrs, "_datadump_original_op_names", &old, &nold);
    size_t total = (had ? nold : 1) + count;
    const char **all = malloc(total * sizeof(*all));
    if (all == NULL) {
        return OA_FAIL(OA_E_NOMEM, "out of memory for %zu names", total);
    }
    size_t k = 0;
    if (had) {
        for (size_t i = 0; i < nold; i++) {
            all[k++] = old[i];
        }
    } else {
        all[k++] = n->name;
    }
    for (size_t i = 0; i < count; i++) {
        all[k++] = names[i];
    }
    oa_status st = oa_node_set_list_str(n, "_datadump_original_op_names", all, k);
    free(all);
    return st;
}

oa_status oa_cp_for_each_graph(oa_graph *g, oa_cp_graph_fn fn, size_t *changed)
{
    oa_status st = fn(g, changed);
    if (st != OA_OK) {
        return st;
    }
    /* Subgraphs owned by the (surviving) nodes of g, depth first. */
    for (oa_node *n = oa_graph_first_node(g); n; n = n->next) {
        for (uint32_t i = 0; i < n->num_subgraphs; i++) {
            st = oa_cp_for_each_graph(n->subgraphs[i].graph, fn, changed);
            if (st != OA_OK) {
                return st;
            }
        }
    }
    return OA_OK;
}

bool oa_cp_conv_packed(const oa_node *n)
{
    return n->type == OA_OP_CONV2D && n->num_inputs >= 2 && oa_cp_input_const(n, 1) != NULL &&
           (n->num_inputs < 3 || n->inputs[2].src == NULL || oa_cp_input_const(n, 2) != NULL);
}

bool oa_cp_is_post_op_host(const oa_node *n)
{
    return oa_cp_conv_packed(n) ||
           (n->type == OA_OP_CONV2D_TRANSPOSE && n->num_inputs >= 3 && oa_cp_input_const(n, 2) != NULL &&
            (n->num_inputs < 4 || n->inputs[3].src == NULL || oa_cp_input_const(n, 3) != NULL)) ||
           n->type == OA_OP_MAT_MUL_V2 || n->type == OA_OP_BATCH_MAT_MUL_V2;
}

uint32_t oa_cp_weight_slot(const oa_node *n)
{
    return n->type == OA_OP_CONV2D_TRANSPOSE ? 2 : 1;
}

uint32_t oa_cp_bias_slot(const oa_node *n)
{
    return n->type == OA_OP_CONV2D_TRANSPOSE ? 3 : 2;
}
