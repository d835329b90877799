/*
 * atc's use of the .om library (atc_om.h). Everything format-specific is
 * in src/om; this file only maps the compiler's plan onto the writer's
 * per-node offset lookup.
 */
#define OA_LOG_MODULE "GE"
#include "atc_om.h"

#include <stdlib.h>
#include <string.h>

#include "base/error.h"

#include "om_ir/om_ir.h"
#include "om/om_json.h"

/* OpDef offsets of every node, built on demand from the compiler's plan. */
typedef struct plan_view {
    const oa_mem_plan *plan;
    oa_om_node_mem *mems;  /* by node id */
    int64_t **store;       /* by node id: the arrays behind mems */
    bool *ready;
} plan_view;

static bool is_weight(const oa_node *n)
{
    return n->type == OA_OP_CONST || n->type == OA_OP_CONSTANT || n->type == OA_OP_FILE_CONSTANT;
}

static const oa_om_node_mem *view_node_mem(void *ctx, const oa_node *n)
{
    plan_view *v = ctx;
    const oa_node_mem *r = oa_mem_plan_node(v->plan, n);
    if (r == NULL || is_weight(n) || n->id >= v->plan->num_ids) {
        return NULL;
    }
    if (v->ready[n->id]) {
        return &v->mems[n->id];
    }
    int64_t *a = malloc((r->num_inputs + r->num_outputs + 2) * sizeof(int64_t));
    if (a == NULL) {
        return NULL;
    }
    v->store[n->id] = a;
    oa_om_node_mem *m = &v->mems[n->id];
    memset(m, 0, sizeof(*m));
    /* input_i: one entry per valid (connected) input desc, as GE's loader counts them. */
    size_t k = 0;
    for (uint32_t s = 0; s < r->num_inputs && s < n->num_inputs; s++) {
        if (n->inputs[s].src != NULL) {
            a[k++] = r->input[s];
        }
    }
    m->input_offsets = a;
    m->n_input = k;
    if (n->type != OA_OP_NET_OUTPUT) {
        m->output_offsets = a + k;
        for (uint32_t o = 0; o < r->num_outputs; o++) {
            a[k++] = r->output[o];
        }
        m->n_output = r->num_outputs;
    }
    if (r->workspace >= 0) {
        a[k] = r->workspace;
        a[k + 1] = r->workspace_size;
        m->workspace = &a[k];
        m->n_workspace = 1;
        m->workspace_bytes = &a[k + 1];
        m->n_workspace_bytes = 1;
    }
    v->ready[n->id] = true;
    return m;
}

oa_status atc_write_om(const oa_compiled_model *cm, const atc_om_info *info, const char *path)
{
    oa_om_write_opts o;
    oa_om_write_opts_init(&o);
    o.soc_version = info->soc_version;
    o.atc_cmdline = info->cmdline;
    o.framework_type = "Onnx";
    o.model_attrs = &cm->model_attrs;
    o.unknown_shape = cm->is_dynamic;
    o.compress = info->compress;
    plan_view v = {cm->plan, NULL, NULL, NULL};
    oa_om_mem_plan mp;
    oa_status st = OA_OK;
    if (cm->plan != NULL) {
        uint32_t n = cm->plan->num_ids ? cm->plan->num_ids : 1;
        v.mems = calloc(n, sizeof(*v.mems));
        v.store = calloc(n, sizeof(*v.store));
        v.ready = calloc(n, sizeof(*v.ready));
        if (v.mems == NULL || v.store == NULL || v.ready == NULL) {
            st = OA_FAIL(OA_E_NOMEM, "out of memory writing %s", path);
        }
        mp.memory_size = cm->plan->memory_size;
        mp.node_mem = view_node_mem;
        mp.ctx = &v;
        o.plan = &mp;
    }
    if (st == OA_OK) {
        st = oa_om_write_graph(cm->graph, &o, path);
    }
    for (uint32_t i = 0; v.store && i < cm->plan->num_ids; i++) {
        free(v.store[i]);
    }
    free(v.mems);
    free(v.store);
    free(v.ready);
    return st;
}

oa_status atc_om_to_json(const char *om_path, const char *json_path)
{
    return oa_om_dump_json_file(om_path, json_path, OA_OM_JSON_CANN);
}
