/*
 * Kernel operators per shape signature: each launchable compute node keeps
 * a small cache of oa_kop objects keyed by the shapes and dtypes of its
 * inputs and outputs (and the bytes of small non-constant integer inputs,
 * which kernels may capture as host values: Resize sizes, Pad paddings...).
 *
 * A miss binds the node through op_bind on a one-node "shadow" graph whose
 * descs are the run-time ones (op_bind reads shapes from the IR; the model's
 * own graph keeps its dynamic descs and is never written at run time), then
 * creates the operator. When a node has OA_V2_KOPS_MAX signatures, the least
 * recently used entry that nobody else references is re-targeted with
 * oa_kop_reshape (or replaced). Entries are reference counted: the cache
 * holds one, each executor its last-used one per node, each plan one.
 */
#define OA_LOG_MODULE "GE"
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "base/error.h"
#include "base/log.h"
#include "base/pages.h"
#include "base/hash.h"
#include "base/util.h"
#include "graph/blob.h"
#include "model_v2/v2_internal.h"
#include "op_bind/op_bind.h"

#define OA_V2_KOPS_MAX 64
#define HOST_VALUE_MAX 64 /* elements of a non-constant integer input that enter the key */

void oa_v2_kops_init(v2_kops *k)
{
    pthread_mutex_init(&k->lock, NULL);
    k->head = NULL;
    k->count = 0;
}

static void entry_destroy(v2_kop_entry *e)
{
    if (e == NULL) {
        return;
    }
    oa_kop_destroy(e->op);
    free(e->key);
    free(e->src);
    free(e->out_index);
    free(e->synth);
    free(e);
}

void oa_v2_kop_entry_release(v2_kop_entry *e)
{
    if (e != NULL && atomic_fetch_sub_explicit(&e->refs, 1, memory_order_acq_rel) == 1) {
        entry_destroy(e);
    }
}

void oa_v2_kops_deinit(v2_kops *k)
{
    for (v2_kop_entry *e = k->head; e != NULL;) {
        v2_kop_entry *n = e->next;
        oa_v2_kop_entry_release(e);
        e = n;
    }
    k->head = NULL;
    k->count = 0;
    pthread_mutex_destroy(&k->lock);
}

/* ---- signature ---- */

typedef struct keybuf {
    uint8_t stack[512];
    uint8_t *p;
    size_t n, cap;
    bool oom;
} keybuf;

static void kb_put(keybuf *k, const void *v, size_t n)
{
    if (k->n + n > k->cap) {
        size_t cap = (k->n + n) * 2;
        uint8_t *np = malloc(cap);
        if (np == NULL) {
            k->oom = true;
            return;
        }
        memcpy(np, k->p, k->n);
        if (k->p != k->stack) {
            free(k->p);
        }
        k->p = np;
        k->cap = cap;
    }
    memcpy(k->p + k->n, v, n);
    k->n += n;
}

static void kb_desc(keybuf *k, const oa_tensor_desc *d)
{
    const int32_t head[3] = {(int32_t)d->dtype, (int32_t)d->format, d->shape.rank};
    kb_put(k, head, sizeof head);
    if (d->shape.rank > 0) {
        kb_put(k, d->shape.dims, (size_t)d->shape.rank * sizeof(int64_t));
    }
}

static bool host_candidate(const oa_node *n, uint32_t slot, const v2_tensor *t)
{
    const oa_node *src = n->inputs[slot].src;
    if (src == NULL || src->type == OA_OP_CONST || src->type == OA_OP_CONSTANT || src->type == OA_OP_FILE_CONSTANT ||
        t->data == NULL) {
        return false;
    }
    const bool range_bound = n->type == OA_OP_RANGE && (t->desc.dtype == OA_DT_FLOAT || t->desc.dtype == OA_DT_DOUBLE);
    if (!oa_dtype_is_int(t->desc.dtype) && !range_bound) {
        return false; /* integers, and the float bounds Range captures */
    }
    int64_t numel = 0;
    return oa_shape_numel(&t->desc.shape, &numel) && numel <= HOST_VALUE_MAX;
}

static void make_key(v2_exec *x, const v2_cnode *cn, keybuf *k)
{
    k->p = k->stack;
    k->cap = sizeof k->stack;
    k->n = 0;
    k->oom = false;
    for (uint32_t i = 0; i < cn->n_in; ++i) {
        if (cn->in_t[i] == V2_NONE) {
            const int32_t none = -1;
            kb_put(k, &none, sizeof none);
            continue;
        }
        const v2_tensor *t = &x->tensors[cn->in_t[i]];
        kb_desc(k, &t->desc);
        if (host_candidate(cn->node, i, t)) {
            size_t bytes = 0;
            if (oa_v2_desc_bytes(&t->desc, &bytes)) {
                kb_put(k, t->data, bytes);
            }
        }
    }
    for (uint32_t o = 0; o < cn->n_out; ++o) {
        kb_desc(k, &x->tensors[cn->out_t[o]].desc);
    }
}

/* ---- shadow binding ---- */

typedef struct shadow {
    v2_exec *x;
    const v2_cnode *cn;
    oa_node **stubs; /* per slot */
} shadow;

static const void *host_data(void *ctx, const oa_node *src, uint32_t src_index)
{
    (void)src_index;
    shadow *s = ctx;
    for (uint32_t i = 0; i < s->cn->n_in; ++i) {
        if (s->stubs[i] == src && s->cn->in_t[i] != V2_NONE) {
            return s->x->tensors[s->cn->in_t[i]].data;
        }
    }
    return NULL;
}

static const uint8_t g_nothing[1];

static oa_status shadow_bind(v2_exec *x, const v2_cnode *cn, oa_graph **out_g, oa_op_bind **out_b,
                             const void ***const_data)
{
    const oa_node *n = cn->node;
    oa_graph *g = NULL;
    oa_status st = oa_graph_create("v2_shadow", &g);
    if (st != OA_OK) {
        return st;
    }
    oa_blob *blob = oa_blob_create(g_nothing, 0, NULL, NULL);
    oa_node **stubs = calloc(cn->n_in + 1, sizeof(*stubs));
    const void **cdata = calloc(cn->n_in + 1, sizeof(*cdata));
    oa_node *sn = NULL;
    if (blob == NULL || stubs == NULL || cdata == NULL) {
        st = OA_FAIL(OA_E_NOMEM, "node %s: shadow binding", n->name);
    }
    if (st == OA_OK) {
        st = oa_graph_add_node_typed(g, n->type_name, n->name, n->num_inputs, n->num_outputs, &sn);
    }
    for (const oa_attr *a = n->attrs.head; a != NULL && st == OA_OK; a = a->next) {
        st = oa_attrs_set_copy(g, &sn->attrs, a);
    }
    for (uint32_t i = 0; i < n->num_inputs && st == OA_OK; ++i) {
        const oa_input *ip = &n->inputs[i];
        if (ip->src == NULL || cn->in_t[i] == V2_NONE) {
            continue;
        }
        char name[32];
        snprintf(name, sizeof name, "in%u", i);
        const v2_tensor *rt = &x->tensors[cn->in_t[i]];
        const oa_tensor *kt = NULL;
        size_t fc_bytes = 0;
        if (ip->src->type == OA_OP_FILE_CONSTANT && rt->data != NULL && oa_v2_desc_bytes(&rt->desc, &fc_bytes)) {
            /* external weights: a constant for the kernel too (Conv2D filters must be) */
            oa_tensor *t = NULL;
            st = oa_graph_make_tensor_borrowed_ptr(g, rt->desc.dtype, &rt->desc.shape, blob,
                                                   fc_bytes ? rt->data : NULL, fc_bytes, &t);
            if (st == OA_OK) {
                st = oa_graph_add_const(g, name, t, &stubs[i]);
            }
            if (st == OA_OK) {
                stubs[i]->outputs[0].desc.format = rt->desc.format;
                cdata[i] = rt->data;
            }
        } else if ((ip->src->type == OA_OP_CONST || ip->src->type == OA_OP_CONSTANT) &&
                   oa_attrs_get_tensor(&ip->src->attrs, "value", &kt)) {
            const void *kd = x->model->prog.tensors[cn->in_t[i]].kdata; /* aligned for the kernels */
            oa_tensor *t = NULL;
            st = oa_graph_make_tensor_borrowed_ptr(g, kt->desc.dtype, &kt->desc.shape, blob, kt->size ? kd : NULL,
                                                   kt->size, &t);
            if (st == OA_OK) {
                st = oa_graph_add_const(g, name, t, &stubs[i]);
            }
            if (st == OA_OK) {
                stubs[i]->outputs[0].desc.format = ip->src->outputs[ip->src_index].desc.format;
                cdata[i] = kd;
            }
        } else {
            st = oa_graph_add_node(g, OA_OP_DATA, name, 1, 1, &stubs[i]);
            if (st == OA_OK) {
                stubs[i]->outputs[0].desc = rt->desc;
                stubs[i]->outputs[0].desc.value = NULL;
                stubs[i]->outputs[0].desc.name = NULL;
                stubs[i]->outputs[0].desc.attrs.head = NULL;
                stubs[i]->outputs[0].desc.attrs.count = 0;
            }
        }
        if (st == OA_OK) {
            st = oa_node_connect(sn, i, stubs[i], 0);
        }
        if (st == OA_OK) {
            sn->inputs[i].desc.format = ip->desc.format;
            sn->inputs[i].desc.origin_format = ip->desc.origin_format;
        }
    }
    for (uint32_t k = 0; k < n->num_outputs && st == OA_OK; ++k) {
        oa_tensor_desc *d = &sn->outputs[k].desc;
        *d = x->tensors[cn->out_t[k]].desc;
        d->value = NULL;
        d->name = NULL;
        d->attrs.head = NULL;
        d->attrs.count = 0;
    }
    oa_blob_release(blob);
    if (st == OA_OK) {
        shadow s = {x, cn, stubs};
        /* the model's constants stay for the operators of later shapes: kernels share what they derive */
        oa_op_bind_opts opts = {.host_data = host_data, .ctx = &s, .dds_count = true, .consts_stable = true};
        st = oa_op_bind_node(sn, &opts, out_b);
    }
    /* constants the binding points at, by the stub that produced them */
    if (st == OA_OK) {
        for (uint32_t i = 0; i < cn->n_in; ++i) {
            if (cdata[i] == NULL) {
                continue;
            }
            for (int k = 0; k < (*out_b)->n_in; ++k) {
                if ((*out_b)->src[k].src == stubs[i]) {
                    (*out_b)->src[k].slot = i;
                }
            }
        }
    }
    free(stubs);
    if (st != OA_OK) {
        free(cdata);
        oa_graph_destroy(g);
        return st;
    }
    *out_g = g;
    *const_data = cdata;
    return OA_OK;
}

/* Fills e's sources from binding b (constants: the model's weights or owned copies). */
static oa_status fill_entry(v2_kop_entry *e, const oa_op_bind *b, const void **cdata)
{
    size_t synth_bytes = 0;
    for (int k = 0; k < b->n_in; ++k) {
        if (b->src[k].kind == OA_BIND_CONST && b->src[k].synthesized) {
            synth_bytes += (b->src[k].size + 63) & ~(size_t)63;
        }
    }
    e->src = calloc((size_t)b->n_in + 1, sizeof(*e->src));
    e->out_index = malloc(((size_t)b->n_out + 1) * sizeof(uint32_t));
    e->synth = synth_bytes ? aligned_alloc(64, synth_bytes) : NULL;
    if (e->src == NULL || e->out_index == NULL || (synth_bytes && e->synth == NULL)) {
        return OA_FAIL(OA_E_NOMEM, "kernel operator entry");
    }
    size_t at = 0;
    for (int k = 0; k < b->n_in; ++k) {
        const oa_bind_src *s = &b->src[k];
        v2_ksrc *d = &e->src[k];
        d->slot = s->slot;
        switch (s->kind) {
        case OA_BIND_ACT:
            d->kind = V2_KSRC_ACT;
            break;
        case OA_BIND_CONST:
            if (s->synthesized) {
                uint8_t *dst = (uint8_t *)e->synth + at;
                if (s->size) {
                    memcpy(dst, b->in[k].data, s->size);
                }
                at += (s->size + 63) & ~(size_t)63;
                d->kind = V2_KSRC_CONST;
                d->cptr = dst;
            } else if (s->slot < b->node->num_inputs && cdata[s->slot] != NULL) {
                d->kind = V2_KSRC_CONST;
                d->cptr = cdata[s->slot]; /* the model's weights (alive while the model is) */
            } else {
                d->kind = V2_KSRC_ACT; /* a host value read at run time: the current tensor */
            }
            break;
        default:
            d->kind = V2_KSRC_ABSENT;
            break;
        }
    }
    memcpy(e->out_index, b->out_index, (size_t)b->n_out * sizeof(uint32_t));
    e->n_in = b->n_in;
    e->n_out = b->n_out;
    e->inplace_ok = b->inplace_ok;
    e->dds = b->n_out > 0 && b->out_index[b->n_out - 1] == OA_BIND_OUT_COUNT;
    e->has_params = b->has_params;
    e->params = b->params;
    return OA_OK;
}

static bool same_io(const oa_kop *op, const oa_op_bind *b, const v2_kop_entry *e)
{
    return oa_kop_get_type(op) == b->type && e->n_in == b->n_in && e->n_out == b->n_out &&
           e->has_params == b->has_params && (!b->has_params || memcmp(&e->params, &b->params, sizeof b->params) == 0);
}

/*
 * A conv or matmul kernel just created has packed (or copied) every constant
 * input it was given and never reads those bytes again: the whole pages of
 * the ones in the .om's file mapping leave the process (they stay in the page
 * cache; a later reader maps them again), as the static executor does
 * (docs/memory.md "Dynamic models").
 */
static void drop_image_pages(const v2_model *vm, const char *p, size_t n)
{
    if (vm->img == NULL || p == NULL || n == 0 || p < vm->img || (size_t)(p - vm->img) > vm->img_size ||
        n > vm->img_size - (size_t)(p - vm->img)) {
        return;
    }
    const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    const uintptr_t lo = ((uintptr_t)p + page - 1) & ~(page - 1);
    const uintptr_t hi = ((uintptr_t)p + n) & ~(page - 1); /* neighbours' pages stay */
    if (hi > lo) {
        const oa_page_range r = {(const char *)lo, (size_t)(hi - lo)};
        oa_page_ranges_drop(&r, 1);
    }
}

static void drop_packed_pages(const v2_model *vm, const oa_op_bind *b)
{
    if (b->type != OA_KOP_CONV2D && b->type != OA_KOP_CONV2D_TRANSPOSE && b->type != OA_KOP_MATMUL) {
        return;
    }
    for (int i = 1; i < b->n_in; i++) {
        drop_image_pages(vm, b->in[i].data, oa_ktensor_bytes(&b->in[i]));
    }
}

/* A part of a constant the kernel being created has packed (oa_kconst_consumed): its pages go at once
 * (docs/memory.md "Packing and the load's peak"). */
static void const_consumed(void *ctx, const void *p, size_t n)
{
    drop_image_pages(ctx, p, n);
}

static oa_status create_entry(v2_exec *x, v2_cnode *cn, v2_kop_entry *reuse, v2_kop_entry **out)
{
    oa_graph *g = NULL;
    oa_op_bind *b = NULL;
    const void **cdata = NULL;
    oa_status st = shadow_bind(x, cn, &g, &b, &cdata);
    if (st != OA_OK) {
        return st;
    }
    v2_kop_entry *e = calloc(1, sizeof(*e));
    if (e == NULL) {
        st = OA_FAIL(OA_E_NOMEM, "kernel operator entry");
    }
    if (st == OA_OK) {
        st = fill_entry(e, b, cdata);
    }
    if (st == OA_OK) {
        if (reuse != NULL && same_io(reuse->op, b, reuse) &&
            oa_kop_reshape(reuse->op, b->n_in, b->in, b->n_out, b->out) == OA_OK) {
            e->op = reuse->op; /* re-targeted in place (kept its packed state where the family allows) */
            reuse->op = NULL;
        } else {
            oa_kconst_set_hook(const_consumed, (void *)x->model);
            st = oa_op_bind_create(b, &e->op);
            oa_kconst_set_hook(NULL, NULL);
            if (st == OA_OK) {
                drop_packed_pages(x->model, b);
            }
        }
    }
    if (st == OA_OK) {
        e->ws = oa_kop_workspace_size(e->op);
        atomic_init(&e->refs, 1);
        *out = e;
    } else {
        entry_destroy(e);
    }
    oa_op_bind_destroy(b);
    free(cdata);
    oa_graph_destroy(g);
    return st;
}

oa_status oa_v2_kop_get(v2_exec *x, v2_cnode *cn, v2_kop_entry **out)
{
    keybuf k;
    make_key(x, cn, &k);
    if (k.oom) {
        if (k.p != k.stack) {
            free(k.p);
        }
        return OA_FAIL(OA_E_NOMEM, "node %s: signature", cn->node->name);
    }
    const uint64_t h = oa_fnv1a64(k.p, k.n);
    v2_kop_entry *last = x->last_entry[cn->gid];
    if (last != NULL && last->hash == h && last->key_len == k.n && memcmp(last->key, k.p, k.n) == 0) {
        if (k.p != k.stack) {
            free(k.p);
        }
        *out = last;
        return OA_OK;
    }
    const uint64_t now = oa_v2_tick(cn->model);
    oa_status st = OA_OK;
    pthread_mutex_lock(&cn->kops.lock);
    v2_kop_entry *e = cn->kops.head;
    while (e != NULL && !(e->hash == h && e->key_len == k.n && memcmp(e->key, k.p, k.n) == 0)) {
        e = e->next;
    }
    if (e == NULL) {
        /* at capacity: the least recently used entry only the cache holds is re-targeted */
        v2_kop_entry *victim = NULL, **victim_link = NULL;
        if (cn->kops.count >= OA_V2_KOPS_MAX) {
            for (v2_kop_entry **l = &cn->kops.head; *l != NULL; l = &(*l)->next) {
                if (atomic_load(&(*l)->refs) == 1 && (victim == NULL || (*l)->last_use < victim->last_use)) {
                    victim = *l;
                    victim_link = l;
                }
            }
        }
        V2_STAT(cn->model, kop_creates);
        st = create_entry(x, cn, victim, &e);
        if (st == OA_OK) {
            e->key = malloc(k.n ? k.n : 1);
            if (e->key == NULL) {
                entry_destroy(e);
                e = NULL;
                st = OA_FAIL(OA_E_NOMEM, "node %s: signature", cn->node->name);
            } else {
                memcpy(e->key, k.p, k.n);
                e->key_len = k.n;
                e->hash = h;
                if (victim != NULL) {
                    *victim_link = victim->next;
                    cn->kops.count--;
                    oa_v2_kop_entry_release(victim);
                }
                e->next = cn->kops.head;
                cn->kops.head = e;
                cn->kops.count++;
            }
        }
    }
    if (e != NULL) {
        e->last_use = now;
        atomic_fetch_add_explicit(&e->refs, 1, memory_order_relaxed); /* the executor's last-used reference */
    }
    pthread_mutex_unlock(&cn->kops.lock);
    if (k.p != k.stack) {
        free(k.p);
    }
    if (st != OA_OK) {
        return st;
    }
    oa_v2_kop_entry_release(x->last_entry[cn->gid]);
    x->last_entry[cn->gid] = e;
    *out = e;
    return OA_OK;
}
