/*
 * The compiler pipeline (compiler.h): import, I/O adjustments, passes,
 * gears, classification, memory plan, model attributes.
 */
#define OA_LOG_MODULE "GE"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"
#include "compiler/aipp_config.h"
#include "compiler/compiler_internal.h"
#include "compiler/pass_util.h"
#include "compiler/passes.h"
#include "file_constant/file_constant.h"
#include "graph/infer.h"
#include "onnx/onnx_import.h"

void oa_compile_options_init(oa_compile_options *opt)
{
    memset(opt, 0, sizeof(*opt));
}

void oa_compiled_model_destroy(oa_compiled_model *cm)
{
    if (cm == NULL) {
        return;
    }
    oa_mem_plan_destroy(cm->plan);
    free(cm->gears);
    oa_graph_destroy(cm->graph);
    free(cm);
}

static void progress(const oa_compile_options *opt, const char *phase)
{
    if (opt->progress) {
        opt->progress(opt->progress_ctx, phase);
    }
    OA_LOGI("[Compile][%s]", phase);
}

/* Option combinations CANN refuses (atc checks them too; the library must be safe alone). */
static oa_status check_options(const oa_compile_options *opt)
{
    bool gears = opt->gear_kind != OA_GEAR_NONE;
    if (gears && (opt->gears == NULL || opt->gears[0] == '\0')) {
        return OA_FAIL(OA_E_PARAM, "E10058: Parameter --%s is not configured or is empty.",
                       opt->gear_kind == OA_GEAR_BATCH ? "dynamic_batch_size"
                                                       : (opt->gear_kind == OA_GEAR_IMAGE ? "dynamic_image_size"
                                                                                          : "dynamic_dims"));
    }
    if (gears && opt->input_shape_range && opt->input_shape_range[0]) {
        return OA_FAIL(OA_E_PARAM,
                       "E10009: --dynamic_batch_size, --dynamic_image_size, --input_shape_range, and --dynamic_dims "
                       "are mutually exclusive.");
    }
    if (gears && (opt->input_shape == NULL || opt->input_shape[0] == '\0')) {
        return OA_FAIL(OA_E_PARAM, "E10004: Value for --input_shape is empty.");
    }
    if (opt->external_weight < 0 || opt->external_weight > 2) {
        return OA_FAIL(OA_E_PARAM, "E10001: Value %d for parameter --external_weight is invalid. The value must be 0, 1 "
                       "or 2.", opt->external_weight);
    }
    if (gears && strchr(opt->input_shape, '~') != NULL) {
        return OA_FAIL(OA_E_PARAM,
                       "E10040: As the --dynamic_batch_size, --dynamic_image_size, or --dynamic_dims argument is "
                       "included, the corresponding nodes specified in --input_shape must have -1 axes and cannot "
                       "have '~'.");
    }
    return OA_OK;
}

/* identity removal, folding and dead code until nothing changes (bounded). */
static oa_status cleanup_and_fold(oa_graph *g, const oa_compile_options *opt)
{
    for (int round = 0; round < 8; round++) {
        size_t changed = 0;
        oa_status st = OA_OK;
        if (!(opt->disable & OA_NO_CLEANUP)) {
            st = oa_pass_remove_identity(g, &changed);
            if (st == OA_OK) {
                st = oa_pass_dce(g, &changed);
            }
        }
        if (st == OA_OK && !(opt->disable & OA_NO_FOLD)) {
            st = oa_pass_fold_constants(g, &changed);
        }
        if (st == OA_OK && !(opt->disable & OA_NO_FOLD)) {
            st = oa_pass_inline_known_branches(g, &changed);
        }
        if (st == OA_OK && changed > 0) {
            st = oa_graph_infer(g);
        }
        if (st != OA_OK || changed == 0) {
            return st;
        }
    }
    return OA_OK;
}

/* Passes that only rewrite weights: done once, shared by every gear. */
static oa_status weight_passes(oa_graph *g, const oa_compile_options *opt)
{
    oa_status st = OA_OK;
    if (!(opt->disable & OA_NO_INT8)) {
        st = oa_pass_qdq_int8(g, NULL); /* before folding hides the weight DQs */
    }
    if (st == OA_OK) {
        st = cleanup_and_fold(g, opt);
    }
    if (st == OA_OK && !(opt->disable & OA_NO_BN_FOLD)) {
        size_t changed = 0;
        st = oa_pass_fold_batchnorm(g, &changed);
        if (st == OA_OK) {
            st = oa_pass_fold_affine(g, &changed);
        }
        if (st == OA_OK) {
            st = oa_pass_fold_input_affine(g, &changed);
        }
        if (st == OA_OK && !(opt->disable & OA_NO_FUSE)) {
            st = oa_pass_fuse_layernorm(g, &changed);
        }
        if (st == OA_OK && changed) {
            st = oa_graph_infer(g);
        }
    }
    return st;
}

/* Passes for a graph with its final shapes. */
static oa_status shape_passes(oa_graph *g, const oa_compile_options *opt)
{
    oa_status st = cleanup_and_fold(g, opt);
    if (st == OA_OK && !(opt->disable & OA_NO_BN_FOLD)) {
        size_t changed = 0;
        st = oa_pass_fold_batchnorm(g, &changed);
        if (st == OA_OK) {
            st = oa_pass_fold_affine(g, &changed);
        }
        if (st == OA_OK) {
            st = oa_pass_fold_input_affine(g, &changed);
        }
    }
    if (st == OA_OK && !(opt->disable & OA_NO_FUSE)) {
        st = oa_pass_fuse_layernorm(g, NULL);
        if (st == OA_OK) {
            st = oa_pass_fuse_post_ops(g, NULL);
        }
    }
    if (st == OA_OK) {
        st = oa_graph_infer(g);
    }
    /* static graphs only: the dynamic executor re-infers shapes, which it
     * cannot do through NC1HWC0 descs (a partly static graph, e.g. rec with a
     * -1 width, would get blocked islands) */
    const bool is_static = st == OA_OK && oa_pass_classify(g, NULL) == OA_SHAPES_STATIC;
    if (st == OA_OK && opt->layout_nchwc && is_static) {
        st = oa_pass_layout_nchwc(g, NULL);
    }
    /* last: the windows are kernel attributes that shape inference only reads (no values) */
    if (st == OA_OK && is_static && !(opt->disable & OA_NO_FUSE)) {
        st = oa_pass_concat_windows(g, NULL);
    }
    if (st == OA_OK) {
        st = oa_graph_validate(g);
    }
    return st;
}

/* --precision_mode(_v2): the request on the cube ops and in the model attrs (docs/precision.md) */
static oa_status mark_precision(oa_compiled_model *cm, const oa_compile_options *opt)
{
    const char *dtype = NULL;
    oa_status st = oa_precision_request(opt->precision_mode, opt->precision_mode_v2, &dtype);
    if (st == OA_OK && opt->precision_mode != NULL && opt->precision_mode[0] != '\0') {
        st = oa_attrs_set_str(cm->graph, &cm->model_attrs, "_oa_precision_mode", opt->precision_mode);
    }
    if (st == OA_OK && opt->precision_mode_v2 != NULL && opt->precision_mode_v2[0] != '\0') {
        st = oa_attrs_set_str(cm->graph, &cm->model_attrs, "_oa_precision_mode_v2", opt->precision_mode_v2);
    }
    size_t marked = 0;
    if (st == OA_OK) {
        st = oa_pass_mark_precision(cm->graph, dtype, &marked);
    }
    if (st == OA_OK && dtype != NULL) {
        OA_LOGI("precision: %zu convolutions / matrix products may compute in %s", marked,
                strcmp(dtype, "DT_BF16") == 0 ? "bf16" : "fp16 (bf16 on CPUs, docs/precision.md)");
    }
    return st;
}

static oa_status set_model_attrs(oa_compiled_model *cm)
{
    oa_graph *g = cm->graph;
    oa_attrs *a = &cm->model_attrs;
    int64_t mem = cm->plan ? cm->plan->memory_size : 0;
    int64_t zc = cm->plan ? cm->plan->zero_copy_size : 0;
    oa_status st = oa_attrs_set_int(g, a, "memory_size", mem);
    if (st == OA_OK) {
        st = oa_attrs_set_int(g, a, "zero_copy_memory_size", zc);
    }
    if (st == OA_OK) {
        st = oa_attrs_set_int(g, a, "stream_num", 1);
    }
    if (st == OA_OK) {
        st = oa_attrs_set_int(g, a, "event_num", 0);
    }
    if (st == OA_OK) {
        st = oa_attrs_set_int(g, a, "label_num", 0);
    }
    if (st == OA_OK) {
        st = oa_attrs_set_list_str(g, a, "attr_model_out_nodes_name", cm->output_names, cm->num_outputs);
    }
    if (st == OA_OK && cm->gear_count > 0) {
        st = oa_attrs_set_int(g, a, "batch_num", (int64_t)cm->gear_count);
    }
    return st;
}

/*
 * Dynamic models: every input with an unknown dim gets a shape range, as GE
 * turns --input_shape into --input_shape_range: -1 -> [1, -1] (unbounded),
 * static dims -> [d, d]; ranges the user gave stay.
 */
static oa_status default_ranges(oa_graph *g)
{
    bool changed = false;
    for (size_t i = 0; i < oa_graph_num_inputs(g); i++) {
        oa_node *d = oa_graph_input(g, (int64_t)i);
        const oa_tensor_desc *x = d ? &d->inputs[0].desc : NULL;
        if (x == NULL || x->has_range || x->shape.rank <= 0 || oa_shape_is_static(&x->shape)) {
            continue;
        }
        int64_t lo[OA_MAX_RANK], hi[OA_MAX_RANK];
        for (int32_t k = 0; k < x->shape.rank; k++) {
            lo[k] = x->shape.dims[k] < 0 ? 1 : x->shape.dims[k];
            hi[k] = x->shape.dims[k] < 0 ? -1 : x->shape.dims[k];
        }
        oa_shape s = x->shape;
        oa_status st = oa_graph_set_input_shape(d, &s, lo, hi);
        if (st != OA_OK) {
            return st;
        }
        changed = true;
    }
    return changed ? oa_graph_infer(g) : OA_OK;
}

/* Applies --input_shape (or the --input_shape_range form) to g and infers. */
static oa_status apply_shapes(oa_graph *g, const oa_compile_options *opt, bool applied)
{
    oa_status st = OA_OK;
    if (!applied && opt->input_shape_range && opt->input_shape_range[0]) {
        char *spec;
        st = oa_io_range_to_shape(g, opt->input_shape_range, &spec);
        if (st == OA_OK) {
            st = oa_graph_set_input_shapes(g, spec);
            free(spec);
        }
    } else if (!applied && opt->input_shape && opt->input_shape[0]) {
        st = oa_graph_set_input_shapes(g, opt->input_shape);
    }
    if (st == OA_OK && opt->input_format && opt->input_format[0]) {
        st = oa_io_set_input_format(g, opt->input_format);
    }
    return st == OA_OK ? oa_graph_infer(g) : st;
}

static oa_status compile_gears(oa_compiled_model *cm, oa_graph *base, const oa_compile_options *opt)
{
    oa_gear_table t;
    oa_status st = oa_gears_parse(base, opt->gear_kind, opt->gears, opt->input_shape, opt->input_format, &t);
    if (st != OA_OK) {
        return st;
    }
    oa_graph **gg = calloc(t.count, sizeof(*gg));
    if (gg == NULL) {
        oa_gears_free(&t);
        return OA_FAIL(OA_E_NOMEM, "out of memory");
    }
    for (size_t i = 0; i < t.count && st == OA_OK; i++) {
        char phase[64];
        snprintf(phase, sizeof(phase), "gear %zu/%zu", i + 1, t.count);
        progress(opt, phase);
        st = oa_graph_clone(base, &gg[i]);
        for (size_t d = 0; d < oa_graph_num_inputs(base) && st == OA_OK; d++) {
            oa_node *data = oa_graph_input(gg[i], (int64_t)d);
            oa_shape s;
            st = data ? oa_gears_shape(base, &t, opt->input_format, data, i, &s) : OA_OK;
            if (st == OA_OK && data && !oa_shape_equal(&s, &data->outputs[0].desc.shape)) {
                st = oa_graph_set_input_shape(data, &s, NULL, NULL);
            }
        }
        if (st == OA_OK) {
            st = oa_graph_infer(gg[i]);
        }
        if (st == OA_OK) {
            st = shape_passes(gg[i], opt);
        }
        const oa_node *dyn;
        if (st == OA_OK && oa_pass_classify(gg[i], &dyn) != OA_SHAPES_STATIC) {
            char b[128];
            st = OA_FAIL(OA_E_PARAM,
                         "E10001: Value %s for parameter --%s is invalid. Reason: with gear %zu the model still has "
                         "a dynamic shape at node %s (%s): give every dynamic input dim in --input_shape",
                         opt->gears,
                         opt->gear_kind == OA_GEAR_BATCH
                             ? "dynamic_batch_size"
                             : (opt->gear_kind == OA_GEAR_IMAGE ? "dynamic_image_size" : "dynamic_dims"),
                         i, dyn ? dyn->name : "?",
                         dyn ? oa_desc_str(&dyn->outputs[0].desc, b, sizeof(b)) : "?");
        }
    }
    oa_graph *root = NULL;
    if (st == OA_OK) {
        progress(opt, "assemble gears");
        st = oa_gears_assemble(base, &t, gg, opt->input_format, opt->input_shape, &root);
    }
    for (size_t i = 0; i < t.count; i++) {
        oa_graph_destroy(gg[i]);
    }
    free(gg);
    if (st == OA_OK) {
        cm->graph = root;
        cm->gear_kind = t.kind;
        cm->gear_count = t.count;
        cm->gear_dims = t.dims;
        cm->gears = t.v;
        t.v = NULL;
    }
    oa_gears_free(&t);
    return st;
}

/* Output names into cm (they live in g's arena; copied when the root changes). */
static oa_status take_output_names(oa_compiled_model *cm, oa_graph *from, oa_graph *to)
{
    if (from == to) {
        return OA_OK;
    }
    const char **copy = oa_arena_array(oa_graph_arena(to), cm->num_outputs + 1, sizeof(char *));
    if (copy == NULL) {
        return OA_E_NOMEM;
    }
    for (size_t i = 0; i < cm->num_outputs; i++) {
        copy[i] = oa_arena_strdup(oa_graph_arena(to), cm->output_names[i]);
        if (copy[i] == NULL) {
            return OA_E_NOMEM;
        }
    }
    cm->output_names = copy;
    return OA_OK;
}

/* --insert_op_conf (docs/aipp.md "What the .om holds"): batch and image gears; an AIPP input has no range. */
static oa_status insert_aipp(oa_graph *g, const oa_compile_options *opt)
{
    if (opt->gear_kind == OA_GEAR_DIMS) {
        return OA_FAIL(OA_E_FEATURE_UNSUPPORTED,
                       "E10055: The operation is not supported. Reason: --insert_op_conf together with "
                       "--dynamic_dims is not supported yet.");
    }
    int64_t gear_max = 0; /* the largest batch gear ("1,2,4"; check_options made sure it is given) */
    for (const char *s = opt->gear_kind == OA_GEAR_BATCH ? opt->gears : ""; *s != '\0';) {
        char *end;
        const long long v = strtoll(s, &end, 10);
        if (end == s) {
            s++; /* a separator (the gear parser reports malformed lists) */
            continue;
        }
        gear_max = v > gear_max ? v : gear_max;
        s = end;
    }
    progress(opt, "insert aipp");
    return oa_pass_insert_aipp(g, opt->aipp, gear_max, opt->gear_kind == OA_GEAR_IMAGE);
}

static oa_status compile_impl(oa_graph *g, const oa_compile_options *opt, bool shapes_applied,
                              oa_compiled_model **out)
{
    *out = NULL;
    oa_compiled_model *cm = calloc(1, sizeof(*cm));
    if (cm == NULL) {
        oa_graph_destroy(g);
        return OA_FAIL(OA_E_NOMEM, "out of memory");
    }
    oa_status st = check_options(opt);
    if (st == OA_OK) {
        st = apply_shapes(g, opt, shapes_applied);
    }
    progress(opt, "adjust inputs and outputs");
    if (st == OA_OK && opt->out_nodes && opt->out_nodes[0]) {
        st = oa_io_set_out_nodes(g, opt->out_nodes);
    }
    if (st == OA_OK) {
        st = oa_io_output_names(g, &cm->output_names, &cm->num_outputs);
    }
    if (st == OA_OK && opt->input_fp16_nodes && opt->input_fp16_nodes[0]) {
        st = oa_io_set_fp16_inputs(g, opt->input_fp16_nodes);
    }
    if (st == OA_OK && opt->output_type && opt->output_type[0]) {
        st = oa_io_set_output_types(g, opt->output_type);
    }
    if (st == OA_OK && opt->aipp != NULL) {
        st = insert_aipp(g, opt);
    }
    if (st == OA_OK) {
        st = oa_graph_infer(g);
    }
    progress(opt, "optimize");
    if (st == OA_OK) {
        st = weight_passes(g, opt);
    }
    if (st == OA_OK && opt->gear_kind != OA_GEAR_NONE) {
        st = compile_gears(cm, g, opt);
        if (st == OA_OK) {
            st = take_output_names(cm, g, cm->graph);
        }
        if (st == OA_OK && opt->aipp != NULL && (cm->gear_kind == OA_GEAR_BATCH || cm->gear_kind == OA_GEAR_IMAGE)) {
            st = oa_aipp_record_gears(cm->graph, cm->gear_kind == OA_GEAR_IMAGE, cm->gears, cm->gear_count);
        }
        oa_graph_destroy(g);
        g = NULL;
    } else if (st == OA_OK) {
        cm->graph = g;
        g = NULL;
        st = shape_passes(cm->graph, opt);
        const oa_node *dyn = NULL;
        bool ranged = opt->input_shape_range && opt->input_shape_range[0];
        cm->is_dynamic = ranged || oa_pass_classify(cm->graph, &dyn) != OA_SHAPES_STATIC;
        if (st == OA_OK && cm->is_dynamic) {
            OA_LOGI("model %s is dynamic (first dynamic node: %s): no static memory plan",
                    oa_graph_name(cm->graph), dyn ? dyn->name : "-");
            st = default_ranges(cm->graph);
        }
    }
    /* after folding and fusion, so that the stored weights are the final ones */
    if (st == OA_OK && opt->external_weight != 0) {
        progress(opt, "external weights");
        oa_fc_convert_opts fo = {
            .mode = (oa_fc_mode)opt->external_weight,
            .weight_dir = opt->external_weight_dir,
            .session_id = opt->session_id,
            .om_prefix = opt->om_path,
        };
        st = oa_fc_convert_consts(cm->graph, &fo, NULL);
    }
    if (st == OA_OK) {
        st = mark_precision(cm, opt);
    }
    if (st == OA_OK && !cm->is_dynamic) {
        progress(opt, "plan memory");
        st = oa_mem_plan_build(cm->graph, opt->disable_reuse, &cm->plan);
    }
    if (st == OA_OK) {
        st = set_model_attrs(cm);
    }
    oa_graph_destroy(g);
    if (st != OA_OK) {
        oa_compiled_model_destroy(cm);
        return st;
    }
    *out = cm;
    return OA_OK;
}

oa_status oa_compile_graph(oa_graph *g, const oa_compile_options *opt, oa_compiled_model **out)
{
    if (g == NULL || opt == NULL || out == NULL) {
        oa_graph_destroy(g);
        return OA_FAIL(OA_E_PARAM, "compile arguments must not be null");
    }
    return compile_impl(g, opt, false, out);
}

oa_status oa_compile_onnx(const char *path, const oa_compile_options *opt, oa_compiled_model **out)
{
    if (path == NULL || opt == NULL || out == NULL) {
        return OA_FAIL(OA_E_PARAM, "compile arguments must not be null");
    }
    *out = NULL;
    oa_status st = check_options(opt);
    if (st != OA_OK) {
        return st;
    }
    progress(opt, "parse model");
    oa_onnx_options io;
    oa_onnx_options_init(&io);
    bool by_range = opt->input_shape_range && opt->input_shape_range[0];
    if (!by_range) {
        io.input_shape = opt->input_shape;
    }
    /* --external_weight=0: weights kept in external ONNX data go into the
     * .om like any other Const (mapped read-only while compiling). */
    io.map_external_data = true;
    oa_graph *g;
    st = oa_onnx_import_file(path, &io, &g);
    if (st != OA_OK) {
        return st;
    }
    return compile_impl(g, opt, !by_range, out);
}
