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
#include "om/om_model.h"
#include "onnx/onnx_import.h"

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

/* ---- --mode=6 / --display_model_info=1 -------------------------------------------------------- */

static const Ge__Proto__AttrDef *model_attr(const Ge__Proto__ModelDef *def, const char *key)
{
    return def != NULL ? oa_om_attr_get(def->attr, def->n_attr, key) : NULL;
}

static void attr_str(const Ge__Proto__ModelDef *def, const char *key, char *buf, size_t cap)
{
    const Ge__Proto__AttrDef *a = model_attr(def, key);
    buf[0] = '\0';
    if (a != NULL && a->value_case == GE__PROTO__ATTR_DEF__VALUE_S) {
        const size_t n = a->s.len < cap - 1 ? a->s.len : cap - 1;
        if (n > 0) {
            memcpy(buf, a->s.data, n);
        }
        buf[n] = '\0';
    }
}

static long long attr_int(const Ge__Proto__ModelDef *def, const char *key)
{
    const Ge__Proto__AttrDef *a = model_attr(def, key);
    return a != NULL && a->value_case == GE__PROTO__ATTR_DEF__VALUE_I ? (long long)a->i : -1;
}

oa_status atc_om_print_info(const char *om_path, FILE *f)
{
    oa_om_model *m = NULL;
    oa_status st = oa_om_model_open_file(om_path, OA_OM_OPEN_SKIP_TASK, &m);
    if (st != OA_OK) {
        return st;
    }
    const Ge__Proto__ModelDef *def = m->num_models > 0 ? m->models[0].def : NULL;
    const oa_om_partition *part = oa_om_table_find(&m->container.tables[0], OA_OM_PART_MODEL_DEF);
    char cmdline[8192], atc_version[256], soc[256], fw[64];
    attr_str(def, "atc_cmdline", cmdline, sizeof cmdline);
    attr_str(def, "atc_version", atc_version, sizeof atc_version);
    attr_str(def, "soc_version", soc, sizeof soc);
    attr_str(def, "framework_type", fw, sizeof fw);
    fprintf(f, "============ Display Model Info start ============\n");
    fprintf(f, "Original Atc command line: %s\n", cmdline);
    fprintf(f, "system   info: atc_version[%s], soc_version[%s], framework_type[%s].\n", atc_version, soc, fw);
    fprintf(f, "resource info: memory_size[%lld B], weight_size[%lld B], stream_num[%lld], event_num[%lld].\n",
            attr_int(def, "memory_size"), attr_int(def, "weight_size"), attr_int(def, "stream_num"),
            attr_int(def, "event_num"));
    const Ge__Proto__AttrDef *info = model_attr(def, "om_info_list");
    if (info == NULL || info->value_case != GE__PROTO__ATTR_DEF__VALUE_LIST || info->list == NULL) {
        fprintf(f, "Display Model Info failed, attr \"om_info_list\" is not found in om, check the version is "
                   "matched.\n");
    } else if (info->list->n_i != 5) {
        fprintf(f, "Display Model Info error, please check!\n");
    } else {
        const int64_t *v = info->list->i;
        fprintf(f,
                "om       info: modeldef_size[%llu B], weight_data_size[%lld B], tbe_kernels_size[%lld B], "
                "cust_aicpu_kernel_store_size[%lld B], task_info_size[%lld B], so_store_size[%lld B].\n",
                part != NULL ? (unsigned long long)part->size : 0ULL, (long long)v[0], (long long)v[1],
                (long long)v[2], (long long)v[3], (long long)v[4]);
    }
    fprintf(f, "============ Display Model Info end   ============\n");
    fflush(f);
    oa_om_model_destroy(m);
    return OA_OK;
}

/* ---- --mode=1 --framework=5: the parsed ONNX graph as CANN's JSON ---------------------------- */

oa_status atc_onnx_to_json(const char *onnx_path, const char *json_path)
{
    oa_graph *g = NULL;
    oa_status st = oa_onnx_import_file(onnx_path, NULL, &g);
    if (st != OA_OK) {
        return st;
    }
    oa_om_write_opts o;
    oa_om_write_opts_init(&o);
    o.framework_type = "Onnx";
    o.inline_weights = true;
    uint8_t *img = NULL;
    size_t len = 0;
    st = oa_om_write_graph_memory(g, &o, &img, &len);
    oa_graph_destroy(g);
    char *json = NULL;
    size_t jlen = 0;
    if (st == OA_OK) {
        st = oa_om_dump_json(img, len, OA_OM_JSON_CANN, &json, &jlen);
    }
    free(img);
    if (st == OA_OK) {
        FILE *f = fopen(json_path, "wb");
        const bool ok = f != NULL && fwrite(json, 1, jlen, f) == jlen;
        if (f == NULL || fclose(f) != 0 || !ok) {
            st = OA_FAIL(OA_E_WRITE_FILE, "E10001: Value %s for parameter --json is invalid. Reason: the file "
                         "cannot be written.", json_path);
        }
    }
    free(json);
    return st;
}

/* ---- --mode=3: pre-check ------------------------------------------------------------------------ */

static void json_escape(FILE *f, const char *s)
{
    for (; s != NULL && *s != '\0'; ++s) {
        const unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            fprintf(f, "\\%c", c);
        } else if (c < 0x20) {
            fprintf(f, "\\u%04x", c);
        } else {
            fputc(c, f);
        }
    }
}

oa_status atc_precheck(const char *onnx_path, const char *result_path)
{
    oa_onnx_options opt;
    oa_onnx_options_init(&opt);
    opt.skip_infer = true; /* a check of the ops, not a conversion */
    oa_graph *g = NULL;
    const oa_status st = oa_onnx_import_file(onnx_path, &opt, &g);
    size_t nodes = 0;
    for (const oa_node *n = g != NULL ? oa_graph_first_node(g) : NULL; n != NULL; n = n->next) {
        nodes++;
    }
    oa_graph_destroy(g);
    /* the importer reported the failure (E16002 lists every unsupported op type with its nodes) */
    const char *msg = st == OA_OK ? NULL : oa_error_peek_messages();
    FILE *f = fopen(result_path, "w");
    if (f != NULL) {
        fprintf(f, "{\n  \"model\": \"");
        json_escape(f, onnx_path);
        fprintf(f, "\",\n  \"result\": \"%s\",\n  \"nodes\": %zu,\n  \"message\": \"", st == OA_OK ? "success" : "failed",
                nodes);
        json_escape(f, msg);
        fprintf(f, "\"\n}\n");
        if (fclose(f) != 0) {
            f = NULL;
        }
    }
    if (st == OA_OK) {
        printf("pre-check: every op of %s is supported (%zu nodes); result in %s\n", onnx_path, nodes, result_path);
    } else {
        printf("pre-check: %s cannot be converted; result in %s\n", onnx_path, result_path);
    }
    if (f == NULL && st == OA_OK) {
        return OA_FAIL(OA_E_WRITE_FILE, "cannot write the pre-check result %s", result_path);
    }
    return st;
}
