/*
 * The V2 route of the model table: load (the .om back into the IR, the
 * FileConstants, the lowering), unload, execute and execute_async; RT2's
 * ModelV2Executor (Init -> Loaded, Init/Main/DeInit graphs) and its
 * StreamExecutor (one executor per stream, created on first use), plus a
 * pool of executors for synchronous calls (one per concurrent caller).
 *
 * Execution (docs/dynamic_models.md "Execution"):
 *   - at least as many input buffers as model inputs (extra ones ignored),
 *     exactly as many output buffers as outputs: ACL_ERROR_INVALID_PARAM;
 *   - input shapes: the model's, overridden by aclmdlSetDatasetTensorDesc;
 *     unknown dims left, or dims outside the model's ranges:
 *     ACL_ERROR_INVALID_PARAM; a buffer smaller than the shape's bytes too;
 *   - CheckIoReuseAddrs (model attr output_reuse_input_mem_indexes);
 *   - the plan of these input shapes when one exists (v2_plan.c), else the
 *     dynamic path (InferShape / AllocMemory / Launch / FreeMemory), after
 *     which a plan is recorded;
 *   - outputs: copied into the caller's buffers (too small: a precise
 *     ACL_ERROR_INVALID_PARAM, nothing written), allocated with aclrtMalloc
 *     when the synchronous caller passed NULL data; every output's tensor
 *     description is set to the real shape.
 */
#define OA_LOG_MODULE "GE"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl.h"
#include "acl_base/data_buffer.h"
#include "acl_base/tensor_desc.h"
#include "acl_mdl/model.h"
#include "acl_mdl/om_reader.h"
#include "acl_rt/rt_stream.h"
#include "base/error.h"
#include "base/log.h"
#include "base/util.h"
#include "dump/dump_config.h"
#include "dump/dump_write.h"
#include "file_constant/file_constant.h"
#include "model_v2/model_v2.h"
#include "model_v2/v2_capture.h"
#include "model_v2/v2_internal.h"
#include "om/om_model.h"
#include "om_ir/om_ir.h"
#include "prof/prof_internal.h"

uint64_t oa_v2_tick(v2_model *m)
{
    return atomic_fetch_add_explicit(&m->clock, 1, memory_order_relaxed);
}

/* ---- CheckIoReuseAddrs (docs/dynamic_models.md "Output reuse check") ---- */

oa_status oa_v2_parse_io_reuse(const char *s, uint32_t (**pairs)[2], size_t *n)
{
    *pairs = NULL;
    *n = 0;
    if (s == NULL || *s == '\0') {
        return OA_OK;
    }
    size_t cap = 1;
    for (const char *q = s; *q; ++q) {
        cap += *q == '|';
    }
    uint32_t(*v)[2] = calloc(cap, sizeof(*v));
    if (v == NULL) {
        return OA_FAIL(OA_E_NOMEM, "io reuse pairs");
    }
    const char *p = s;
    while (*p) {
        const char *end = strchr(p, '|');
        const size_t len = end ? (size_t)(end - p) : strlen(p);
        char piece[64];
        if (len > 0 && len < sizeof piece) {
            memcpy(piece, p, len);
            piece[len] = '\0';
            char *comma = strchr(piece, ',');
            if (comma != NULL && strchr(piece, '-') == NULL) {
                *comma = '\0';
                char *e1 = NULL, *e2 = NULL;
                const unsigned long a = strtoul(piece, &e1, 10);
                const unsigned long b = strtoul(comma + 1, &e2, 10);
                if (e1 != piece && e2 != comma + 1 && a <= UINT32_MAX && b <= UINT32_MAX) {
                    v[*n][0] = (uint32_t)a;
                    v[*n][1] = (uint32_t)b;
                    (*n)++;
                } else {
                    OA_LOGW("output_reuse_input_mem_indexes: piece \"%s\" is not a pair of numbers; skipped", p);
                }
            }
        }
        if (end == NULL) {
            break;
        }
        p = end + 1;
    }
    *pairs = v;
    return OA_OK;
}

static oa_status check_io_reuse(const v2_model *vm, const aclmdlDataset *in, const aclmdlDataset *out)
{
    const size_t n_in = oa_mdl_dataset_count(in), n_out = oa_mdl_dataset_count(out);
    if (vm->n_reuse == 0 || n_in == 0 || n_out == 0) {
        return OA_OK;
    }
    for (size_t i = 0; i < vm->n_reuse; ++i) {
        const uint32_t a = vm->reuse[i][0], b = vm->reuse[i][1];
        if (a >= n_in) {
            return OA_FAIL(OA_E_PARAM, "output_reuse_input_mem_indexes: input index %u, but %zu inputs", a, n_in);
        }
        if (b >= n_out) {
            return OA_FAIL(OA_E_PARAM, "output_reuse_input_mem_indexes: output index %u, but %zu outputs", b, n_out);
        }
        if (oa_mdl_dataset_buffer(in, a)->data != oa_mdl_dataset_buffer(out, b)->data) {
            return OA_FAIL(OA_E_PARAM, "output %u must reuse the memory of input %u (%p), got %p", b, a,
                           oa_mdl_dataset_buffer(in, a)->data, oa_mdl_dataset_buffer(out, b)->data);
        }
    }
    return OA_OK;
}

/* ---- input shapes ---- */

oa_status oa_v2_check_range(const char *name, size_t idx, const int64_t *dims, size_t n, const oa_model_range *r,
                            size_t n_ranges)
{
    if (n == 0 || n_ranges == 0) {
        return OA_OK; /* scalars and tensors without ranges are not checked */
    }
    if (n != n_ranges) {
        return OA_FAIL(OA_E_PARAM, "input %zu (%s): %zu dims given, the model's shape range has %zu", idx, name, n,
                       n_ranges);
    }
    for (size_t d = 0; d < n; ++d) {
        if (dims[d] == -1) {
            continue;
        }
        const int64_t lo = r[d].min;
        const int64_t hi = r[d].max < 0 ? INT64_MAX : r[d].max;
        if (r[d].min == 1 && r[d].max == -1) {
            continue;
        }
        if (lo > hi) {
            return OA_FAIL(OA_E_PARAM, "input %zu (%s): the model's range of dim %zu is [%lld, %lld]", idx, name, d,
                           (long long)lo, (long long)r[d].max);
        }
        if (dims[d] < lo || dims[d] > hi) {
            return OA_FAIL(OA_E_PARAM, "input %zu (%s): dim %zu is %lld, outside the model's range [%lld, %lld]", idx,
                           name, d, (long long)dims[d], (long long)lo, (long long)r[d].max);
        }
    }
    return OA_OK;
}

static oa_status bind_inputs(v2_exec *x, const aclmdlDataset *in)
{
    v2_model *vm = x->model;
    const oa_model_info *info = vm->m->info;
    const v2_gprog *root = vm->prog.graphs[0];
    const size_t n_in = oa_mdl_dataset_count(in);
    if (n_in < info->n_inputs) {
        return OA_FAIL(OA_E_PARAM, "input dataset has %zu buffers, the model needs %zu", n_in, info->n_inputs);
    }
    for (uint32_t b = 0; b < root->n_binds; ++b) {
        const v2_tdef *td = &vm->prog.tensors[root->binds[b].tensor];
        const size_t i = (size_t)td->input_index;
        if (i >= info->n_inputs || i >= n_in) {
            return OA_FAIL(OA_E_PARAM, "model Data %s has index %zu, the model describes %zu inputs", td->node->name,
                           i, info->n_inputs);
        }
        const oa_model_tensor *mt = &info->inputs[i];
        const aclDataBuffer *buf = oa_mdl_dataset_buffer(in, i);
        const aclTensorDesc *ud = oa_mdl_dataset_desc(in, i);
        const int64_t *dims = mt->dims;
        size_t n = mt->n_dims;
        const oa_shape *gs = &td->node->outputs[0].desc.shape;
        if (mt->aipp != NULL && oa_shape_is_static(gs)) {
            /* an AIPP input is static: its reported dims are the image's, its bytes the graph desc's
             * (docs/aipp.md "What the .om holds") */
            dims = gs->dims;
            n = (size_t)gs->rank;
        } else if (ud != NULL && !(ud->dim_count == 1 && ud->dims[0] == OA_UNKNOWN_RANK)) {
            dims = ud->dims;
            n = ud->dim_count;
        }
        if (n > OA_MAX_RANK) {
            return OA_FAIL(OA_E_PARAM, "input %zu (%s): %zu dims, at most %d", i, mt->name, n, OA_MAX_RANK);
        }
        if (!(mt->flags & OA_TENSOR_DYNAMIC_AIPP_DATA)) {
            oa_status st = oa_v2_check_range(mt->name, i, dims, n, mt->ranges, mt->n_ranges);
            if (st != OA_OK) {
                return st;
            }
        }
        v2_tensor *t = &x->tensors[td->id];
        t->desc = td->node->outputs[0].desc;
        t->desc.value = NULL;
        t->desc.has_range = false;
        t->desc.shape.rank = (int32_t)n;
        for (size_t d = 0; d < n; ++d) {
            if (dims[d] < 0) {
                return OA_FAIL(OA_E_PARAM,
                               "input %zu (%s): dim %zu is unknown (%lld); give the shape with "
                               "aclmdlSetDatasetTensorDesc",
                               i, mt->name, d, (long long)dims[d]);
            }
            t->desc.shape.dims[d] = dims[d];
        }
        t->desc.dtype = (oa_dtype)mt->dtype;
        size_t bytes = 0;
        if (!oa_v2_desc_bytes(&t->desc, &bytes)) {
            return OA_FAIL(OA_E_PARAM, "input %zu (%s): shape of %zu dims overflows", i, mt->name, n);
        }
        if (buf->length < bytes || (bytes > 0 && buf->data == NULL)) {
            return OA_FAIL(OA_E_PARAM, "input %zu (%s): buffer of %llu bytes, the shape needs %zu", i, mt->name,
                           (unsigned long long)buf->length, bytes);
        }
        t->data = buf->data;
        t->block = NULL;
    }
    return OA_OK;
}

/* ---- outputs ---- */

oa_status oa_v2_set_output_desc(aclmdlDataset *ds, size_t k, const oa_tensor_desc *d)
{
    aclTensorDesc **slot = oa_mdl_dataset_desc_ref(ds, k);
    if (slot == NULL) {
        return OA_FAIL(OA_E_PARAM, "output %zu: the dataset has %zu buffers", k, oa_mdl_dataset_count(ds));
    }
    const size_t n = d->shape.rank > 0 ? (size_t)d->shape.rank : 0;
    const aclDataType dt = (aclDataType)d->dtype;
    const aclFormat fmt = d->format == OA_FORMAT_RESERVED ? ACL_FORMAT_ND : (aclFormat)d->format;
    if (*slot == NULL) {
        *slot = aclCreateTensorDesc(dt, (int)n, n ? d->shape.dims : NULL, fmt);
        if (*slot == NULL) {
            return OA_FAIL(OA_E_NOMEM, "output %zu: tensor description", k);
        }
        return OA_OK;
    }
    aclTensorDesc *t = *slot;
    t->data_type = dt;
    t->format = fmt;
    t->storage_format = fmt;
    oa_status st = oa_tensor_desc_set_dims(t, n, d->shape.dims);
    if (st == OA_OK) {
        st = oa_tensor_desc_set_storage_dims(t, n, d->shape.dims);
    }
    return st;
}

oa_status oa_v2_emit_output(v2_exec *x, uint32_t k)
{
    const v2_gprog *root = x->model->prog.graphs[0];
    const v2_tensor *t = &x->tensors[root->out_t[k]];
    aclDataBuffer *buf = oa_mdl_dataset_buffer(x->output, k);
    size_t bytes = 0;
    if (!oa_v2_desc_bytes(&t->desc, &bytes)) {
        return OA_FAIL(OA_E_GE_SHAPE, "output %u: shape is not known after the run", k);
    }
    if (buf->data == NULL) {
        if (x->async) {
            return OA_FAIL(OA_E_PARAM, "output %u has no memory: asynchronous execution does not allocate outputs",
                           k);
        }
        void *p = NULL;
        if (bytes > 0) {
            const aclError e = aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
            if (e != ACL_SUCCESS) {
                return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "output %u: cannot allocate %zu bytes (aclrtMalloc %d)", k,
                               bytes, e);
            }
            memcpy(p, t->data, bytes);
        }
        buf->data = p;
        buf->length = bytes;
    } else {
        if (buf->length < bytes) {
            return OA_FAIL(OA_E_PARAM, "output %u: the buffer holds %llu bytes, the result needs %zu", k,
                           (unsigned long long)buf->length, bytes);
        }
        if (bytes > 0 && buf->data != t->data) {
            memmove(buf->data, t->data, bytes);
        }
    }
    return oa_v2_set_output_desc(x->output, k, &t->desc);
}

/* ---- subscribers: profiling and dump (separate executor loops) ---- */

#define SUB_MAX_TENSORS 64

typedef struct sub_state {
    v2_exec *x;
    uint64_t t0;
    bool profiling;
    oa_dump_run *dump;
    uint32_t task;                   /* kernel launches so far: the task id */
    void *saved[SUB_MAX_TENSORS];    /* inputs copied at the node's start (dump_mode input / all) */
    size_t n_saved;
} sub_state;

static const char *node_name_of(v2_exec *x, int graph_type, const oa_v2_node *node, const char **type)
{
    const oa_v2_graph_prog *p = x->model->prog.graphs[graph_type]->main;
    *type = oa_v2_graph_prog_node_type(p, node->node_id);
    return oa_v2_graph_prog_node_name(p, node->node_id);
}

static const v2_tensor *cnode_tensor(const sub_state *s, const uint32_t *ids, uint32_t k)
{
    return ids[k] == V2_NONE ? NULL : &s->x->tensors[ids[k]];
}

static int32_t desc_format(const oa_tensor_desc *d)
{
    return d->format == OA_FORMAT_RESERVED ? (d->shape.rank == 4 ? 0 : 2) : (int32_t)d->format;
}

static void to_dump(const v2_tensor *t, const void *data, oa_dump_tensor *o)
{
    memset(o, 0, sizeof(*o));
    if (t == NULL) {
        o->dtype = -1;
        return;
    }
    size_t bytes = 0;
    o->dtype = (int32_t)t->desc.dtype;
    o->format = desc_format(&t->desc);
    o->rank = t->desc.shape.rank > 0 ? t->desc.shape.rank : 0;
    o->dims = t->desc.shape.dims;
    if (data != NULL && oa_v2_desc_bytes(&t->desc, &bytes)) {
        o->data = data;
        o->size = bytes;
    }
}

static void to_prof(const v2_tensor *t, oa_prof_tensor *o)
{
    memset(o, 0, sizeof(*o));
    o->dtype = t != NULL ? (int32_t)t->desc.dtype : -1;
    if (t != NULL) {
        o->format = desc_format(&t->desc);
        o->rank = t->desc.shape.rank > 0 ? t->desc.shape.rank : 0;
        o->dims = t->desc.shape.dims;
    }
}

static void drop_saved(sub_state *s)
{
    for (size_t k = 0; k < s->n_saved; ++k) {
        free(s->saved[k]);
        s->saved[k] = NULL;
    }
    s->n_saved = 0;
}

/* The fused framework ops of a node: _datadump_original_op_names, the last one when it is not the node itself. */
static const char *orig_out_of(const oa_node *n, const char *const **names, size_t *count)
{
    *names = NULL;
    *count = 0;
    if (n == NULL || !oa_attrs_get_list_str(&n->attrs, "_datadump_original_op_names", names, count) || *count == 0) {
        *count = 0;
        return NULL;
    }
    const char *last = (*names)[*count - 1];
    return last != NULL && strcmp(last, n->name) != 0 ? last : NULL;
}

static void sub_cb(int graph_type, void *arg, oa_v2_event ev, const oa_v2_node *node, uint32_t status)
{
    sub_state *s = arg;
    if (ev != OA_V2_NODE_START && ev != OA_V2_NODE_END) {
        return;
    }
    const char *type;
    const char *name = node_name_of(s->x, graph_type, node, &type);
    if (strcmp(type, "LaunchKernel") != 0) {
        return; /* shape inference, allocation, ...: not operators */
    }
    const v2_cnode *cn = oa_v2_node_ctx((oa_v2_node *)(uintptr_t)node)->compute_node_info;
    const char *ge_type = cn->node != NULL ? cn->node->type_name : type;
    const char *const *orig = NULL;
    size_t n_orig = 0;
    const char *orig_out = s->dump != NULL ? orig_out_of(cn->node, &orig, &n_orig) : NULL;
    const bool dump = s->dump != NULL && oa_dump_run_selects(s->dump, ge_type, name, orig, n_orig);
    const uint32_t n_in = cn->n_in < SUB_MAX_TENSORS ? cn->n_in : SUB_MAX_TENSORS;
    const uint32_t n_out = cn->n_out < SUB_MAX_TENSORS ? cn->n_out : SUB_MAX_TENSORS;
    if (ev == OA_V2_NODE_START) {
        drop_saved(s);
        if (dump && s->dump->inputs) { /* copied now: the launch may reuse their memory */
            for (uint32_t k = 0; k < n_in; ++k) {
                const v2_tensor *t = cnode_tensor(s, cn->in_t, k);
                size_t bytes = 0;
                if (t != NULL && t->data != NULL && oa_v2_desc_bytes(&t->desc, &bytes) && bytes > 0 &&
                    (s->saved[k] = malloc(bytes)) != NULL) {
                    memcpy(s->saved[k], t->data, bytes);
                }
            }
            s->n_saved = n_in;
        }
        s->t0 = oa_now_ns();
        return;
    }
    const uint64_t t1 = oa_now_ns();
    const uint32_t task = s->task++;
    if (status != 0) {
        drop_saved(s);
        return;
    }
    if (s->profiling) {
        oa_prof_tensor pin[SUB_MAX_TENSORS], pout[SUB_MAX_TENSORS];
        uint32_t n_pin = 0;
        for (uint32_t k = 0; k < n_in; ++k) {
            if (cnode_tensor(s, cn->in_t, k) != NULL) { /* absent optional inputs are left out */
                to_prof(cnode_tensor(s, cn->in_t, k), &pin[n_pin++]);
            }
        }
        for (uint32_t k = 0; k < n_out; ++k) {
            to_prof(cnode_tensor(s, cn->out_t, k), &pout[k]);
        }
        const oa_prof_op op = {.name = name, .type = ge_type, .model_id = s->x->model->m->id, .task_id = task,
                               .dynamic = true, .in = pin, .n_in = n_pin, .out = pout, .n_out = n_out,
                               .start_ns = s->t0, .end_ns = t1};
        oa_prof_record_op(&op);
    }
    if (dump) {
        oa_dump_tensor din[SUB_MAX_TENSORS], dout[SUB_MAX_TENSORS];
        uint32_t n_din = 0;
        for (uint32_t k = 0; k < n_in && s->dump->inputs; ++k) {
            if (cnode_tensor(s, cn->in_t, k) != NULL) {
                to_dump(cnode_tensor(s, cn->in_t, k), k < s->n_saved ? s->saved[k] : NULL, &din[n_din++]);
            }
        }
        for (uint32_t k = 0; k < n_out; ++k) {
            const v2_tensor *t = cnode_tensor(s, cn->out_t, k);
            to_dump(t, t != NULL ? t->data : NULL, &dout[k]);
            if (k == 0) {
                dout[k].orig_name = orig_out;
            }
        }
        const oa_dump_op op = {.type = ge_type, .name = name, .task_id = task, .in = din,
                               .n_in = n_din, .out = dout, .n_out = s->dump->outputs ? n_out : 0,
                               .orig_names = orig, .n_orig = n_orig};
        (void)oa_dump_run_write(s->dump, &op); /* logged; the execution goes on */
    }
    drop_saved(s);
}

/* ---- OPENACL_V2_PROFILE ---- */

/* Calls whose times an entry keeps for its median (a slow call on a busy host moves the total, not the median). */
#define V2_PROF_WINDOW 256

typedef struct v2_prof_entry {
    const char *name; /* borrowed from the program (lives as long as the model) */
    const char *type;
    uint64_t ns;
    uint64_t count;
    uint32_t *win; /* the last V2_PROF_WINDOW calls' times (ns, saturated), call count % V2_PROF_WINDOW */
} v2_prof_entry;

struct v2_profile {
    pthread_mutex_t lock;
    v2_prof_entry *e;
    size_t n, cap; /* open addressing, cap a power of two */
};

void oa_v2_profile_cb(int graph_type, void *arg, oa_v2_event ev, const oa_v2_node *node, uint32_t status)
{
    v2_prof_arg *pa = arg;
    if (ev == OA_V2_NODE_START) {
        pa->t0 = oa_now_ns();
        return;
    }
    if (ev != OA_V2_NODE_END || status != 0) {
        return;
    }
    const uint64_t dt = oa_now_ns() - pa->t0;
    const oa_v2_graph_prog *p = pa->prog;
    if (p == NULL) {
        if (graph_type < 0 || (uint32_t)graph_type >= pa->model->prog.n_graphs) {
            return;
        }
        p = pa->model->prog.graphs[graph_type]->main;
    }
    oa_v2_profile_add(pa->model, oa_v2_graph_prog_node_name(p, node->node_id),
                      oa_v2_graph_prog_node_type(p, node->node_id), dt);
}

void oa_v2_profile_add(v2_model *m, const char *name, const char *type, uint64_t dt)
{
    struct v2_profile *pr = m->profile;
    pthread_mutex_lock(&pr->lock);
    if (pr->n * 2 >= pr->cap) {
        const size_t cap = pr->cap ? pr->cap * 2 : 1024;
        v2_prof_entry *ne = calloc(cap, sizeof(*ne));
        if (ne == NULL) {
            pthread_mutex_unlock(&pr->lock);
            return;
        }
        for (size_t i = 0; i < pr->cap; ++i) {
            if (pr->e[i].name == NULL) {
                continue;
            }
            size_t h = ((uintptr_t)pr->e[i].name ^ (uintptr_t)pr->e[i].type) * 0x9E3779B97F4A7C15ull >> 7;
            while (ne[h & (cap - 1)].name != NULL) {
                h++;
            }
            ne[h & (cap - 1)] = pr->e[i];
        }
        free(pr->e);
        pr->e = ne;
        pr->cap = cap;
    }
    size_t h = ((uintptr_t)name ^ (uintptr_t)type) * 0x9E3779B97F4A7C15ull >> 7;
    while (pr->e[h & (pr->cap - 1)].name != NULL &&
           !(pr->e[h & (pr->cap - 1)].name == name && pr->e[h & (pr->cap - 1)].type == type)) {
        h++;
    }
    v2_prof_entry *e = &pr->e[h & (pr->cap - 1)];
    if (e->name == NULL) {
        e->name = name;
        e->type = type;
        pr->n++;
    }
    if (e->win == NULL) {
        e->win = calloc(V2_PROF_WINDOW, sizeof(*e->win)); /* NULL: the entry keeps its total only */
    }
    if (e->win != NULL) {
        e->win[e->count % V2_PROF_WINDOW] = dt < UINT32_MAX ? (uint32_t)dt : UINT32_MAX;
    }
    e->ns += dt;
    e->count++;
    pthread_mutex_unlock(&pr->lock);
}

/* The median of an entry's kept call times (sorts them: the entry is printed once, at unload). */
static uint64_t prof_median(v2_prof_entry *e)
{
    const size_t n = e->count < V2_PROF_WINDOW ? (size_t)e->count : V2_PROF_WINDOW;
    return e->win != NULL ? oa_median_u32(e->win, n) : 0;
}

static int prof_cmp(const void *a, const void *b)
{
    const v2_prof_entry *x = a, *y = b;
    return x->ns < y->ns ? 1 : (x->ns > y->ns ? -1 : 0);
}

static void profile_print(v2_model *vm)
{
    struct v2_profile *pr = vm->profile;
    if (pr == NULL) {
        return;
    }
    v2_prof_entry *list = calloc(pr->n + 1, sizeof(*list));
    size_t n = 0;
    uint64_t total = 0;
    for (size_t i = 0; list != NULL && i < pr->cap; ++i) {
        if (pr->e[i].name != NULL) {
            list[n++] = pr->e[i];
            total += pr->e[i].ns;
        }
    }
    if (list != NULL) {
        qsort(list, n, sizeof(*list), prof_cmp);
        fprintf(stderr,
                "model_v2 profile of model %u: %.3f ms in %zu execute nodes (per node: total, calls, median call over "
                "the last %d)\n",
                vm->m->id, total / 1e6, n, V2_PROF_WINDOW);
        for (size_t i = 0; i < n && i < 60; ++i) {
            fprintf(stderr, "  %10.3f ms %8llu x %10.3f ms %-12s %s\n", list[i].ns / 1e6,
                    (unsigned long long)list[i].count, prof_median(&list[i]) / 1e6, list[i].type, list[i].name);
        }
    }
    free(list);
    for (size_t i = 0; i < pr->cap; ++i) {
        free(pr->e[i].win);
    }
    free(pr->e);
    pthread_mutex_destroy(&pr->lock);
    free(pr);
    vm->profile = NULL;
}

/* ---- executors (ModelV2Executor) ---- */

static size_t thread_count(void)
{
    long n = oa_env_long("OPENACL_NUM_THREADS", 0);
    if (n <= 0) {
        n = sysconf(_SC_NPROCESSORS_ONLN);
    }
    return n < 1 ? 1 : (size_t)(n > 64 ? 64 : n);
}

void oa_v2_exec_destroy(v2_exec *x)
{
    if (x == NULL) {
        return;
    }
    v2_model *vm = x->model;
    if (x->state == V2_STATE_LOADED && x->deinit != NULL) {
        (void)oa_v2_graph_inst_run(x->deinit, -1, NULL);
    }
    x->state = V2_STATE_INIT;
    oa_v2_plan_insts_free(x);
    if (x->tensors != NULL) {
        for (uint32_t t = 0; t < vm->prog.n_tensors; ++t) {
            oa_v2_tensor_drop(&x->tensors[t]);
        }
    }
    if (x->ginst != NULL) {
        for (uint32_t g = 0; g < vm->prog.n_graphs; ++g) {
            oa_v2_graph_inst_destroy(x->ginst[g]);
        }
    }
    if (x->last_entry != NULL) {
        for (uint32_t i = 0; i < vm->prog.n_cnodes; ++i) {
            oa_v2_kop_entry_release(x->last_entry[i]);
        }
    }
    oa_v2_graph_inst_destroy(x->init);
    oa_v2_graph_inst_destroy(x->deinit);
    oa_v2_caching_destroy(x->caching);
    oa_threadpool_destroy(x->pool);
    oa_arena_destroy(x->arena);
    free(x->ginst);
    free(x->last_entry);
    free(x->tensors);
    free(x->values);
    free(x->ws);
    free(x);
}

oa_status oa_v2_exec_create(v2_model *vm, aclrtStream stream, v2_exec **out)
{
    *out = NULL;
    const v2_program *p = &vm->prog;
    v2_exec *x = calloc(1, sizeof(*x));
    if (x == NULL) {
        return OA_FAIL(OA_E_NOMEM, "executor");
    }
    x->model = vm;
    x->stream = stream;
    x->values = calloc(p->n_values + 1, sizeof(*x->values));
    x->tensors = calloc(p->n_tensors + 1, sizeof(*x->tensors));
    x->ginst = calloc(p->n_graphs + 1, sizeof(*x->ginst));
    x->last_entry = calloc(p->n_cnodes + 1, sizeof(*x->last_entry));
    if (x->values == NULL || x->tensors == NULL || x->ginst == NULL || x->last_entry == NULL) {
        oa_v2_exec_destroy(x);
        return OA_FAIL(OA_E_NOMEM, "executor state");
    }
    for (uint32_t t = 0; t < p->n_tensors; ++t) {
        const v2_tdef *td = &p->tensors[t];
        x->tensors[t].desc = td->node->outputs[td->index].desc;
        if (td->vs != V2_NONE) {
            x->values[td->vs].data.ptr = &x->tensors[t];
        }
        if (td->va != V2_NONE) {
            x->values[td->va].data.ptr = &x->tensors[t];
        }
        if (td->vm != V2_NONE) {
            x->values[td->vm].data.ptr = &x->tensors[t];
        }
    }
    x->values[p->v_allocator].data.ptr = x;
    x->values[p->v_session].data.ptr = vm;
    x->values[p->v_weights].data.ptr = vm->root;
    x->values[p->v_desc].data.ptr = vm->m->info;
    oa_status st = oa_v2_caching_create(NULL, &x->caching);
    if (st == OA_OK) {
        x->alloc = oa_v2_caching_base(x->caching);
        if (vm->n_threads > 1) {
            st = oa_threadpool_create(vm->n_threads, &x->pool);
        }
    }
    if (st == OA_OK) {
        st = oa_v2_graph_inst_create(p->init, x->values, x, &x->init);
    }
    if (st == OA_OK) {
        st = oa_v2_graph_inst_create(p->deinit, x->values, x, &x->deinit);
    }
    for (uint32_t g = 0; g < p->n_graphs && st == OA_OK; ++g) {
        st = oa_v2_graph_inst_create(p->graphs[g]->main, x->values, x, &x->ginst[g]);
    }
    /* Load: the Init graph binds the weights, then the executor is Loaded */
    if (st == OA_OK) {
        st = (oa_status)oa_v2_graph_inst_run(x->init, -1, NULL);
    }
    if (st != OA_OK) {
        oa_v2_exec_destroy(x);
        return st;
    }
    x->state = V2_STATE_LOADED;
    V2_STAT(vm, executors);
    *out = x;
    return OA_OK;
}

static void reset_run(v2_exec *x)
{
    oa_arena_destroy(x->arena);
    x->arena = NULL;
    x->data_dependent = false;
}

/* One execution on executor x. */
oa_status oa_v2_run_exec(v2_exec *x, const oa_model_run *run, bool async, aclrtStream stream)
{
    if (x->state != V2_STATE_LOADED) {
        return OA_FAIL(OA_E_GE_PARAM, "ExecuteWithoutLoad: model %u", x->model->m->id);
    }
    v2_model *vm = x->model;
    const oa_model_info *info = vm->m->info;
    const size_t n_out = oa_mdl_dataset_count(run->output);
    if (n_out != info->n_outputs || n_out != vm->prog.n_outputs) {
        return OA_FAIL(OA_E_PARAM, "output dataset has %zu buffers, the model has %zu outputs", n_out, info->n_outputs);
    }
    oa_status st = check_io_reuse(vm, run->input, run->output);
    if (st == OA_OK) {
        st = bind_inputs(x, run->input);
    }
    if (st != OA_OK) {
        return st;
    }
    x->async = async;
    x->input = run->input;
    x->output = run->output;
    /* the stream's external allocator serves asynchronous executions (RT2 never creates a default one here) */
    oa_rt_allocator ra;
    x->alloc = oa_v2_caching_base(x->caching);
    if (async && stream != NULL && oa_rt_allocator_get(stream, &ra)) {
        oa_v2_ext_allocator_init(&x->ext, ra.obj, ra.alloc, ra.free_block, ra.alloc_advise, ra.block_addr);
        x->alloc = &x->ext.base;
    }
    sub_state ss = {.x = x};
    oa_v2_subscriber sub = {sub_cb, &ss};
    v2_prof_arg pa = {.model = vm};
    oa_v2_subscriber prof = {oa_v2_profile_cb, &pa};
    x->sub = NULL;
    oa_dump_run dr;
    const uint64_t step = atomic_fetch_add_explicit(&vm->runs, 1, memory_order_relaxed);
    if (oa_dump_enabled() || oa_prof_active()) { /* the one check per run */
        ss.profiling = oa_prof_active();
        if (oa_dump_enabled() && oa_dump_run_begin_model(&dr, vm->om_name, oa_graph_name(vm->root), vm->m->id, step)) {
            ss.dump = &dr;
        }
        /* a subscriber sees every kernel node under its IR name: such executions take the dynamic path */
        x->sub = ss.dump != NULL || ss.profiling ? &sub : NULL;
    }
    if (vm->plans_enabled && x->sub == NULL) {
        if (oa_v2_plan_try_root(x, &st) == V2_PLAN_RAN) {
            x->alloc = oa_v2_caching_base(x->caching);
            return st;
        }
    }
    reset_run(x);
    V2_STAT(vm, dynamic_runs);
    const oa_v2_subscriber *keep = x->sub;
    if (x->sub == NULL && vm->profile != NULL) {
        x->sub = &prof;
    }
    st = oa_v2_run_graph(x, vm->prog.graphs[0]);
    x->sub = keep;
    if (st == OA_OK && vm->plans_enabled && x->sub == NULL && !x->data_dependent) {
        oa_v2_plan_record_root(x);
    }
    reset_run(x);
    if (x->alloc == oa_v2_caching_base(x->caching)) { /* tensors of earlier shapes' runs leave the process */
        atomic_fetch_add_explicit(&vm->stats.returned_chunks, oa_v2_caching_trim_unused(x->caching),
                                  memory_order_relaxed);
    }
    x->sub = NULL;
    drop_saved(&ss);
    if (ss.dump != NULL) {
        oa_dump_run_end(ss.dump);
    }
    x->alloc = oa_v2_caching_base(x->caching);
    return st;
}

/* ---- StreamExecutor and the synchronous pool ---- */

static oa_status stream_exec_get(v2_model *vm, aclrtStream stream, v2_exec **out)
{
    pthread_mutex_lock(&vm->stream_lock);
    for (size_t i = 0; i < vm->n_streams; ++i) {
        if (vm->streams[i].stream == stream) {
            *out = vm->streams[i].exec;
            pthread_mutex_unlock(&vm->stream_lock);
            return OA_OK;
        }
    }
    oa_status st = OA_OK;
    if (vm->n_streams >= 16) {
        /* executors of streams the application destroyed go (RT2's Erase) before the map grows */
        for (size_t i = vm->n_streams; i-- > 0;) {
            oa_stream *live = NULL;
            if (oa_stream_acquire_any_context(vm->streams[i].stream, &live) == OA_OK) {
                oa_stream_release(live);
                continue;
            }
            oa_v2_exec_destroy(vm->streams[i].exec);
            vm->streams[i] = vm->streams[--vm->n_streams];
        }
    }
    if (vm->n_streams == vm->cap_streams) {
        const size_t cap = vm->cap_streams ? vm->cap_streams * 2 : 4;
        v2_stream_entry *e = realloc(vm->streams, cap * sizeof(*e));
        if (e == NULL) {
            st = OA_FAIL(OA_E_NOMEM, "stream executors");
        } else {
            vm->streams = e;
            vm->cap_streams = cap;
        }
    }
    v2_exec *x = NULL;
    if (st == OA_OK) {
        st = oa_v2_exec_create(vm, stream, &x);
    }
    if (st == OA_OK) {
        vm->streams[vm->n_streams].stream = stream;
        vm->streams[vm->n_streams++].exec = x;
        *out = x;
    }
    pthread_mutex_unlock(&vm->stream_lock);
    return st;
}

static oa_status sync_exec_take(v2_model *vm, v2_exec **out)
{
    pthread_mutex_lock(&vm->sync_lock);
    if (vm->n_sync_free > 0) {
        *out = vm->sync_free[--vm->n_sync_free];
        pthread_mutex_unlock(&vm->sync_lock);
        return OA_OK;
    }
    oa_status st = OA_OK;
    if (vm->n_all_sync == vm->cap_all_sync) {
        const size_t cap = vm->cap_all_sync ? vm->cap_all_sync * 2 : 4;
        v2_exec **a = realloc(vm->all_sync, cap * sizeof(*a));
        v2_exec **f = a ? realloc(vm->sync_free, cap * sizeof(*f)) : NULL;
        if (a != NULL) {
            vm->all_sync = a;
        }
        if (f != NULL) {
            vm->sync_free = f;
            vm->cap_all_sync = vm->cap_sync_free = cap;
        } else {
            st = OA_FAIL(OA_E_NOMEM, "executors");
        }
    }
    v2_exec *x = NULL;
    if (st == OA_OK) {
        st = oa_v2_exec_create(vm, NULL, &x);
    }
    if (st == OA_OK) {
        vm->all_sync[vm->n_all_sync++] = x;
        *out = x;
    }
    pthread_mutex_unlock(&vm->sync_lock);
    return st;
}

static void sync_exec_give(v2_model *vm, v2_exec *x)
{
    pthread_mutex_lock(&vm->sync_lock);
    vm->sync_free[vm->n_sync_free++] = x;
    pthread_mutex_unlock(&vm->sync_lock);
}

/* ---- the executor interface of model.h ---- */

static void model_destroy(v2_model *vm)
{
    if (vm == NULL) {
        return;
    }
    profile_print(vm);
    for (size_t i = 0; i < vm->n_streams; ++i) {
        oa_v2_exec_destroy(vm->streams[i].exec);
    }
    for (size_t i = 0; i < vm->n_all_sync; ++i) {
        oa_v2_exec_destroy(vm->all_sync[i]);
    }
    free(vm->streams);
    free(vm->all_sync);
    free(vm->sync_free);
    oa_v2_program_deinit(&vm->prog);
    for (size_t i = 0; i < vm->n_copies; ++i) {
        free(vm->copies[i]);
    }
    free(vm->copies);
    oa_graph_destroy(vm->root);
    oa_fc_set_destroy(vm->fc_set);
    free(vm->image_copy);
    free(vm->reuse);
    pthread_mutex_destroy(&vm->stream_lock);
    pthread_mutex_destroy(&vm->sync_lock);
    free(vm);
}

static bool graph_has_file_constant(const oa_graph *g)
{
    for (const oa_node *n = oa_graph_first_node(g); n != NULL; n = n->next) {
        if (n->type == OA_OP_FILE_CONSTANT) {
            return true;
        }
        for (uint32_t s = 0; s < n->num_subgraphs; ++s) {
            if (graph_has_file_constant(n->subgraphs[s].graph)) {
                return true;
            }
        }
    }
    return false;
}

static oa_status v2_load(oa_model *m, const oa_model_load_args *args)
{
    v2_model *vm = calloc(1, sizeof(*vm));
    if (vm == NULL) {
        return OA_FAIL(OA_E_NOMEM, "model");
    }
    vm->m = m;
    oa_dump_om_name(args->om_path, vm->om_name, sizeof vm->om_name);
    pthread_mutex_init(&vm->stream_lock, NULL);
    pthread_mutex_init(&vm->sync_lock, NULL);
    vm->n_threads = thread_count();
    vm->plans_enabled = oa_env_long("OPENACL_V2_PLANS", 1) != 0;
    if (oa_env_long("OPENACL_V2_PROFILE", 0) != 0) {
        vm->profile = calloc(1, sizeof(*vm->profile));
        if (vm->profile != NULL) {
            pthread_mutex_init(&vm->profile->lock, NULL);
        }
    }
    const oa_om_graph_info *gi = NULL;
    oa_status st;
    oa_om_loaded *lo = args->om;
    if (args->om_path != NULL && lo != NULL && lo->model != NULL) {
        /* the reader's opened model (a file mapping): the graph takes it over */
        oa_om_model *om = lo->model;
        lo->model = NULL;
        st = oa_om_graph_from_model(om, 0, &vm->root, &gi);
    } else if (args->om_path != NULL) {
        st = oa_om_read_graph(args->om_path, &vm->root, &gi);
    } else if (args->image != NULL && args->image_size > 0 && lo != NULL && lo->model != NULL) {
        /*
         * The reader's opened model over the application's image, which is only borrowed for the call:
         * the model moves onto our copy of the bytes (weights stay zero-copy in it), no second parse.
         */
        vm->image_copy = malloc(args->image_size);
        if (vm->image_copy == NULL) {
            model_destroy(vm);
            return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "copy of the model image (%zu bytes)", args->image_size);
        }
        memcpy(vm->image_copy, args->image, args->image_size);
        st = oa_om_model_rebase(lo->model, vm->image_copy, args->image_size);
        if (st == OA_OK) {
            oa_om_model *om = lo->model;
            lo->model = NULL;
            st = oa_om_graph_from_model(om, 0, &vm->root, &gi);
        }
    } else if (args->image != NULL && args->image_size > 0) {
        vm->image_copy = malloc(args->image_size);
        if (vm->image_copy == NULL) {
            model_destroy(vm);
            return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "copy of the model image (%zu bytes)", args->image_size);
        }
        memcpy(vm->image_copy, args->image, args->image_size);
        oa_om_model *om = NULL;
        st = oa_om_model_open_memory(vm->image_copy, args->image_size, OA_OM_OPEN_SKIP_TASK, &om);
        if (st == OA_OK) {
            st = oa_om_graph_from_model(om, 0, &vm->root, &gi);
        }
    } else {
        st = OA_FAIL(OA_E_GE_PARAM, "the dynamic executor needs the model file or image");
    }
    if (st == OA_OK && gi != NULL && gi->model != NULL && args->weight_ptr != NULL) {
        /* GE's InitWeightMem, as the static executor checks it: the caller's weight memory holds the weights */
        uint64_t weight_size = 0;
        for (uint32_t i = 0; i < gi->model->num_models; i++) {
            if (gi->model->models[i].weights != NULL) {
                weight_size += gi->model->models[i].weights->size;
            }
        }
        if (args->weight_size < weight_size) {
            st = OA_FAIL(OA_E_GE_PARAM, "E13025: weight memory of %zu bytes is smaller than the model's weights (%llu "
                         "bytes), model %u", args->weight_size, (unsigned long long)weight_size, m->id);
        }
    }
    if (st == OA_OK && gi != NULL && gi->model != NULL && gi->model->image.map != NULL && vm->image_copy == NULL) {
        vm->img = gi->model->image.map; /* a read-only file mapping: its pages may leave the process */
        vm->img_size = gi->model->image.map_size;
    }
    if (st == OA_OK && gi != NULL) {
        const char *reuse = NULL;
        if (oa_attrs_get_str(&gi->model_attrs, "output_reuse_input_mem_indexes", &reuse)) {
            st = oa_v2_parse_io_reuse(reuse, &vm->reuse, &vm->n_reuse);
        }
    }
    if (st == OA_OK && graph_has_file_constant(vm->root)) {
        int32_t dev = 0;
        (void)aclrtGetDevice(&dev);
        oa_fc_load_opts o;
        oa_fc_load_opts_init(&o, args->om_path, args->weight_dir, args->ext_weights, args->n_ext_weights, dev,
                         OA_FC_RT_V2);
        oa_fc_set *set = NULL;
        st = oa_fc_load(vm->root, &o, &set);
        vm->fc_set = set;
    } else if (st == OA_OK && args->weight_dir != NULL) {
        st = OA_FAIL(OA_E_GE_PARAM, "a weight path is given, but the model has no FileConstant node");
    }
    if (st == OA_OK) {
        st = oa_v2_lower(vm);
    }
    if (st == OA_OK && vm->prog.graphs[0]->n_binds != m->info->n_inputs) {
        st = OA_FAIL(OA_E_GE_PARAM, "the model graph has %u inputs, its description %zu", vm->prog.graphs[0]->n_binds,
                     m->info->n_inputs);
    }
    if (st == OA_OK && vm->prog.n_outputs != m->info->n_outputs) {
        st = OA_FAIL(OA_E_GE_PARAM, "the model graph has %u outputs, its description %zu", vm->prog.n_outputs,
                     m->info->n_outputs);
    }
    /* Load of the first executor: runs the Init graph now, so a bad model fails here */
    v2_exec *first = NULL;
    if (st == OA_OK) {
        st = sync_exec_take(vm, &first);
    }
    if (st != OA_OK) {
        model_destroy(vm);
        return st;
    }
    sync_exec_give(vm, first);
    int32_t dev = -1;
    if (aclrtGetDevice(&dev) == ACL_SUCCESS) {
        m->device_id = dev;
    }
    m->exec = vm;
    OA_LOGI("dynamic model loaded: %u graphs, %u tensors, %u compute nodes, %zu threads per execution",
            vm->prog.n_graphs, vm->prog.n_tensors, vm->prog.n_cnodes, vm->n_threads);
    return OA_OK;
}

static void v2_unload(oa_model *m)
{
    model_destroy(m->exec);
    m->exec = NULL;
}

static oa_status v2_execute(oa_model *m, const oa_model_run *run)
{
    v2_model *vm = m->exec;
    v2_exec *x = NULL;
    oa_status st = sync_exec_take(vm, &x);
    if (st != OA_OK) {
        return st;
    }
    /* aclmdlExecute: the calling thread runs the model, in the device's run scope (saturation, timeouts) */
    oa_rt_inline_run ir;
    oa_rt_inline_run_begin(&ir, run->stream_sync_timeout);
    st = oa_v2_run_exec(x, run, false, NULL);
    oa_rt_inline_run_end(&ir);
    sync_exec_give(vm, x);
    return st;
}

oa_status oa_v2_async_run(void *args, const oa_task_exec *exec)
{
    v2_async_args *a = args;
    if (a->cap != NULL) {
        return oa_v2_capture_run(a, exec); /* a replay of a captured execution: on its pool */
    }
    v2_model *vm = a->m->exec;
    aclrtStream stream = oa_stream_handle(exec->stream);
    v2_exec *x = NULL;
    oa_status st = stream_exec_get(vm, stream, &x);
    if (st == OA_OK) {
        oa_model_run run = {.input = a->input, .output = a->output, .stream = stream, .async = true};
        st = oa_v2_run_exec(x, &run, true, stream);
    }
    return st;
}

static void async_release(void *args)
{
    v2_async_args *a = args;
    oa_model_release(a->m);
}

static oa_status v2_execute_async(oa_model *m, const oa_model_run *run)
{
    oa_stream *s = NULL;
    oa_status st = oa_stream_acquire(run->stream, &s);
    if (st != OA_OK) {
        return st;
    }
    /* what can be checked before queueing is checked now (the caller learns it at once) */
    const v2_model *vm = m->exec;
    const size_t n_in = oa_mdl_dataset_count(run->input), n_out = oa_mdl_dataset_count(run->output);
    if (n_out != vm->prog.n_outputs) {
        oa_stream_release(s);
        return OA_FAIL(OA_E_PARAM, "output dataset has %zu buffers, the model has %u outputs", n_out,
                       vm->prog.n_outputs);
    }
    if (n_in < m->info->n_inputs) {
        oa_stream_release(s);
        return OA_FAIL(OA_E_PARAM, "input dataset has %zu buffers, the model needs %zu", n_in, m->info->n_inputs);
    }
    v2_async_args a = {.m = oa_model_retain(m), .input = run->input, .output = run->output};
    oa_task_desc d = {.kind = OA_TASK_KIND_MODEL, .run = oa_v2_async_run, .release = async_release, .args = &a,
                      .args_size = sizeof a};
    st = oa_stream_submit(s, &d, NULL);
    if (st != OA_OK) {
        oa_model_release(m);
    }
    oa_stream_release(s);
    return st;
}

static const oa_model_exec_ops g_v2_ops = {
    .name = "v2",
    .load = v2_load,
    .unload = v2_unload,
    .execute = v2_execute,
    .execute_async = v2_execute_async,
    .set_gear = NULL,
    .get_cur_output_dims = NULL,
};

bool oa_v2_model_stats(oa_model *m, oa_v2_stats *out)
{
    if (m == NULL || m->ops != &g_v2_ops || m->exec == NULL) {
        return false;
    }
    const v2_model *vm = m->exec;
    out->dynamic_runs = atomic_load(&vm->stats.dynamic_runs);
    out->plan_runs = atomic_load(&vm->stats.plan_runs);
    out->plans_recorded = atomic_load(&vm->stats.plans_recorded);
    out->infers = atomic_load(&vm->stats.infers);
    out->kop_creates = atomic_load(&vm->stats.kop_creates);
    out->allocs = atomic_load(&vm->stats.allocs);
    out->executors = atomic_load(&vm->stats.executors);
    out->plan_blocks = atomic_load(&vm->stats.plan_blocks);
    out->plan_inplace = atomic_load(&vm->stats.plan_inplace);
    out->returned_chunks = atomic_load(&vm->stats.returned_chunks);
    return true;
}

const oa_model_exec_ops *oa_model_v2_ops(void)
{
    return &g_v2_ops;
}

void oa_model_v2_register(void)
{
    oa_model_executor_register(OA_ROUTE_V2, &g_v2_ops);
    oa_v2_capture_register();
}
