/*
 * The .om reader (om_reader.h): open / close / size query for acl_mdl, and
 * the model description filled from MODEL_INOUT_INFO and the ModelDef, or,
 * for files without MODEL_INOUT_INFO (older CANN builds, GE's test
 * fixtures), derived from the graph's Data and NetOutput ops as GE does.
 */
#define OA_LOG_MODULE "GE"
#include <stdlib.h>
#include <string.h>

#include "acl_mdl/mdl_internal.h"
#include "acl_mdl/om_reader.h"
#include "base/error.h"
#include "base/log.h"
#include "graph/graph.h"
#include "om/om_inout.h"
#include "om_ir/om_ir.h"
#include "om/om_pb.h"
#include "om/om_query.h"

#define GE_DT_UNDEFINED 28
#define GE_FORMAT_RESERVED 40
#define DATADUMP_ORIGIN_NAMES "_datadump_original_op_names"

static oa_status add_tensor(oa_model_info *info, const oa_om_io_tensor *t, bool input)
{
    oa_model_tensor_spec s;
    memset(&s, 0, sizeof(s));
    s.name = t->name != NULL ? t->name : "";
    s.dtype = t->dtype == GE_DT_UNDEFINED ? ACL_DT_UNDEFINED : (aclDataType)t->dtype;
    s.format = t->format == GE_FORMAT_RESERVED ? ACL_FORMAT_UNDEFINED : (aclFormat)t->format;
    s.size = (size_t)t->size;
    s.n_dims = t->n_dims;
    s.dims = t->dims;
    s.n_dims_v2 = t->n_dims_v2;
    s.dims_v2 = t->dims_v2;
    oa_model_range *r = NULL;
    if (t->n_ranges > 0) {
        r = calloc(t->n_ranges, sizeof(*r));
        if (r == NULL) {
            return OA_FAIL(OA_E_NOMEM, "shape ranges");
        }
        for (size_t k = 0; k < t->n_ranges; k++) {
            r[k].min = t->ranges[2 * k];
            r[k].max = t->ranges[2 * k + 1];
        }
    }
    s.n_ranges = t->n_ranges;
    s.ranges = r;
    const oa_status st = input ? oa_model_info_add_input(info, &s, NULL) : oa_model_info_add_output(info, &s, NULL);
    free(r);
    return st;
}

static oa_status add_gears(oa_model_info *info, const oa_om_inout *io)
{
    if (io->n_batch > 0) {
        size_t *lens = calloc(io->n_batch, sizeof(*lens));
        const int64_t **vals = calloc(io->n_batch, sizeof(*vals));
        oa_status st = OA_OK;
        if (lens == NULL || vals == NULL) {
            st = OA_FAIL(OA_E_NOMEM, "gears");
        }
        for (size_t i = 0; st == OA_OK && i < io->n_batch; i++) {
            lens[i] = 1;
            vals[i] = &io->batch[i];
        }
        if (st == OA_OK) {
            st = oa_model_info_set_gears(info, OA_DYNAMIC_BATCH, io->n_batch, lens, vals);
        }
        free(lens);
        free(vals);
        return st;
    }
    if (io->hw.n > 0) {
        return oa_model_info_set_gears(info, OA_DYNAMIC_HW, io->hw.n, io->hw.len, io->hw.vals);
    }
    if (io->dims.n > 0) {
        return oa_model_info_set_gears(info, OA_DYNAMIC_DIMS, io->dims.n, io->dims.len, io->dims.vals);
    }
    return OA_OK;
}

/* GE keeps `_datadump_original_op_names` of the root graph's ops for aclmdlGetOpAttr. */
static oa_status add_op_attrs(oa_model_info *info, const Ge__Proto__ModelDef *def)
{
    if (def == NULL || def->n_graph == 0 || def->graph[0] == NULL) {
        return OA_OK;
    }
    const Ge__Proto__GraphDef *g = def->graph[0];
    for (size_t i = 0; i < g->n_op; i++) {
        const Ge__Proto__OpDef *op = g->op[i];
        if (op == NULL || op->name == NULL) {
            continue;
        }
        const Ge__Proto__AttrDef *a = oa_om_attr_get(op->attr, op->n_attr, DATADUMP_ORIGIN_NAMES);
        if (a == NULL || a->value_case != GE__PROTO__ATTR_DEF__VALUE_LIST || a->list == NULL) {
            continue;
        }
        const size_t n = a->list->n_s;
        char **vals = calloc(n ? n : 1, sizeof(*vals));
        oa_status st = vals == NULL ? OA_FAIL(OA_E_NOMEM, "op attrs") : OA_OK;
        for (size_t k = 0; st == OA_OK && k < n; k++) {
            vals[k] = malloc(a->list->s[k].len + 1);
            if (vals[k] == NULL) {
                st = OA_FAIL(OA_E_NOMEM, "op attrs");
                break;
            }
            if (a->list->s[k].len > 0) {
                memcpy(vals[k], a->list->s[k].data, a->list->s[k].len);
            }
            vals[k][a->list->s[k].len] = '\0';
        }
        if (st == OA_OK) {
            st = oa_model_info_add_op_attr(info, op->name, DATADUMP_ORIGIN_NAMES, n, (const char *const *)vals);
        }
        for (size_t k = 0; vals != NULL && k < n; k++) {
            free(vals[k]);
        }
        free(vals);
        if (st != OA_OK) {
            return st;
        }
    }
    return OA_OK;
}

/* One model input/output from a tensor desc of the graph (GE: the Data op's desc, NetOutput's inputs). */
static oa_status add_graph_tensor(oa_model_info *info, const char *name, const oa_tensor_desc *d, bool input)
{
    oa_model_tensor_spec s;
    memset(&s, 0, sizeof(s));
    int64_t dims[OA_MAX_RANK];
    const size_t rank = d->shape.rank > 0 ? (size_t)d->shape.rank : 0;
    size_t size = oa_dtype_size(d->dtype);
    for (size_t k = 0; k < rank; ++k) {
        dims[k] = d->shape.dims[k];
        size = d->shape.dims[k] >= 0 ? size * (size_t)d->shape.dims[k] : 0;
    }
    s.name = name;
    s.dtype = (aclDataType)d->dtype; /* the IR keeps GE's (= ACL's) numbering */
    s.format = d->format == OA_FORMAT_RESERVED ? ACL_FORMAT_UNDEFINED : (aclFormat)d->format;
    s.size = d->shape.rank == OA_RANK_UNKNOWN ? 0 : size;
    s.n_dims = rank;
    s.dims = dims;
    s.n_dims_v2 = rank;
    s.dims_v2 = dims;
    return input ? oa_model_info_add_input(info, &s, NULL) : oa_model_info_add_output(info, &s, NULL);
}

static int64_t data_index(const oa_node *n)
{
    return oa_node_attr_int(n, "index", 0);
}

/*
 * Descriptions without MODEL_INOUT_INFO: the root graph's Data ops ordered
 * by their "index" attr (name = op name, desc = the Data op's input desc) and
 * NetOutput's inputs (names from attr_model_out_nodes_name when it has one
 * per output, else output_<i>_<producer>_<producer output>), as GE's model
 * manager describes such models.
 */
static oa_status info_from_graph(const oa_om_model *m, oa_model_info *info)
{
    oa_om_model *copy = NULL;
    oa_status st = oa_om_model_open_memory(m->image.data, m->image.size, 0, &copy);
    if (st != OA_OK) {
        return st;
    }
    oa_graph *g = NULL;
    const oa_om_graph_info *gi = NULL;
    st = oa_om_graph_from_model(copy, 0, &g, &gi); /* takes copy */
    if (st != OA_OK) {
        return st;
    }
    const size_t nd = oa_graph_num_inputs(g);
    const oa_node **data = nd > 0 ? calloc(nd, sizeof(*data)) : NULL;
    size_t k = 0;
    if (nd > 0 && data == NULL) {
        st = OA_FAIL(OA_E_NOMEM, "model inputs");
    }
    for (const oa_node *n = oa_graph_first_node(g); st == OA_OK && n != NULL; n = n->next) {
        if (n->type == OA_OP_DATA && k < nd) {
            size_t j = k++;
            for (; j > 0 && data_index(data[j - 1]) > data_index(n); --j) {
                data[j] = data[j - 1];
            }
            data[j] = n;
        }
    }
    for (size_t i = 0; st == OA_OK && i < k; ++i) {
        const oa_node *n = data[i];
        const oa_tensor_desc *d = n->num_inputs > 0 ? &n->inputs[0].desc : &n->outputs[0].desc;
        st = add_graph_tensor(info, n->name, d, true);
    }
    free(data);
    const oa_node *no = oa_graph_output_node(g);
    const char *const *names = NULL;
    size_t n_names = 0;
    if (gi != NULL && !oa_attrs_get_list_str(&gi->model_attrs, "attr_model_out_nodes_name", &names, &n_names)) {
        n_names = 0;
    }
    for (uint32_t i = 0; st == OA_OK && no != NULL && i < no->num_inputs; ++i) {
        const oa_input *in = &no->inputs[i];
        char buf[512];
        if (no->num_inputs == n_names) {
            snprintf(buf, sizeof(buf), "%s", names[i]);
        } else {
            snprintf(buf, sizeof(buf), "output_%u_%s_%u", i, in->src != NULL ? in->src->name : "", in->src_index);
        }
        st = add_graph_tensor(info, buf, &in->desc, false);
    }
    oa_graph_destroy(g);
    return st;
}

oa_status oa_om_model_info(const oa_om_model *m, oa_model_info **out)
{
    *out = NULL;
    const oa_om_inout *io = m->inout;
    if (io == NULL) {
        oa_model_info *info = oa_model_info_create();
        if (info == NULL) {
            return OA_E_NOMEM; /* reported */
        }
        oa_status st = info_from_graph(m, info);
        if (st == OA_OK && m->num_models > 0) {
            st = add_op_attrs(info, m->models[0].def);
        }
        if (st == OA_OK && m->num_models > 0) {
            st = oa_om_model_aipp(info, m->models[0].def);
        }
        if (st != OA_OK) {
            oa_model_info_release(info);
            return st;
        }
        OA_LOGI("no MODEL_INOUT_INFO: %zu inputs and %zu outputs from the graph's Data and NetOutput ops",
                info->n_inputs, info->n_outputs);
        info->header_dynamic = oa_mdl_header_is_dynamic(m->image.data, m->image.size);
        *out = info;
        return OA_OK;
    }
    oa_model_info *info = oa_model_info_create();
    if (info == NULL) {
        return OA_E_NOMEM; /* reported */
    }
    oa_status st = OA_OK;
    for (size_t i = 0; st == OA_OK && i < io->n_inputs; i++) {
        st = add_tensor(info, &io->inputs[i], true);
    }
    for (size_t i = 0; st == OA_OK && i < io->n_outputs; i++) {
        st = add_tensor(info, &io->outputs[i], false);
    }
    if (st == OA_OK) {
        st = add_gears(info, io);
    }
    if (st == OA_OK && io->designate_shape_order.n > 0) {
        st = oa_model_info_set_shape_order(info, io->designate_shape_order.n, io->designate_shape_order.s);
    }
    for (size_t i = 0; st == OA_OK && i < io->dynamic_output_shape.n; i++) {
        st = oa_model_info_add_output_shape(info, io->dynamic_output_shape.s[i], io->dynamic_output_shape.len[i]);
    }
    if (st == OA_OK && m->num_models > 0) {
        st = add_op_attrs(info, m->models[0].def);
    }
    if (st == OA_OK && m->num_models > 0) {
        st = oa_om_model_aipp(info, m->models[0].def);
    }
    if (st != OA_OK) {
        oa_model_info_release(info);
        return st;
    }
    info->header_dynamic = m->container.dynamic; /* the header as the container decoded it */
    *out = info;
    return OA_OK;
}

/* ---- the reader ---- */

static oa_status reader_open(const oa_model_source *src, oa_model_image *img)
{
    oa_om_model *m = NULL;
    oa_status st = src->path != NULL ? oa_om_model_open_file(src->path, 0, &m)
                                     : oa_om_model_open_memory(src->data, src->size, 0, &m);
    if (st != OA_OK) {
        return st;
    }
    oa_model_info *info = NULL;
    st = oa_om_model_info(m, &info);
    oa_om_loaded *lo = st == OA_OK ? calloc(1, sizeof(*lo)) : NULL;
    if (st == OA_OK && lo == NULL) {
        st = OA_FAIL(OA_E_NOMEM, "reader state");
    }
    if (st != OA_OK) {
        oa_model_info_release(info);
        oa_om_model_destroy(m);
        return st;
    }
    lo->model = m;
    img->info = info;
    img->om = lo;
    img->bytes = m->image.data;
    img->size = m->image.size;
    img->reader_state = lo;
    return OA_OK;
}

static void reader_close(oa_model_image *img)
{
    oa_om_loaded *lo = img->reader_state;
    if (lo != NULL) {
        oa_om_model_destroy(lo->model);
        free(lo);
    }
    img->reader_state = NULL;
    img->om = NULL;
}

static oa_status reader_query(const oa_model_source *src, size_t *work, size_t *weight)
{
    return src->path != NULL ? oa_om_query_size_file(src->path, work, weight)
                             : oa_om_query_size_memory(src->data, src->size, work, weight);
}

const oa_model_reader oa_om_reader = {
    .open = reader_open,
    .close = reader_close,
    .query_size = reader_query,
};
