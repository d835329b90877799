/*
 * The .om reader (om_reader.h): open / close / size query for acl_mdl, and
 * the model description filled from MODEL_INOUT_INFO and the ModelDef.
 */
#define OA_LOG_MODULE "GE"
#include <stdlib.h>
#include <string.h>

#include "acl_mdl/mdl_internal.h"
#include "acl_mdl/om_reader.h"
#include "base/error.h"
#include "base/log.h"
#include "om/om_inout.h"
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

oa_status oa_om_model_info(const oa_om_model *m, oa_model_info **out)
{
    *out = NULL;
    const oa_om_inout *io = m->inout;
    if (io == NULL) {
        return OA_FAIL(OA_E_GE_LOAD_MODEL_PARTITION, "the model has no MODEL_INOUT_INFO partition (its inputs and "
                       "outputs are unknown)");
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
