/*
 * Model input/output adjustments requested on the atc command line:
 * --out_nodes, output tensor names, --input_fp16_nodes, --output_type,
 * --input_format, and the --input_shape_range syntax. Messages follow
 * CANN's error codes (E10016, E10017, E10001, E10048).
 */
#define OA_LOG_MODULE "GE"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"
#include "compiler/compiler_internal.h"
#include "compiler/pass_util.h"
#include "compiler/passes.h"
#include "graph/infer.h"

/* Splits s at `sep` into malloc'd copies (empty items dropped). */
static oa_status split(const char *s, char sep, char ***items, size_t *count)
{
    *items = NULL;
    *count = 0;
    size_t cap = 1;
    for (const char *p = s; *p; p++) {
        cap += *p == sep;
    }
    char **out = calloc(cap, sizeof(char *));
    if (out == NULL) {
        return OA_FAIL(OA_E_NOMEM, "out of memory");
    }
    size_t n = 0;
    const char *start = s;
    for (const char *p = s;; p++) {
        if (*p == sep || *p == '\0') {
            /* trim spaces */
            const char *a = start, *b = p;
            while (a < b && isspace((unsigned char)*a)) {
                a++;
            }
            while (b > a && isspace((unsigned char)b[-1])) {
                b--;
            }
            if (b > a) {
                out[n] = malloc((size_t)(b - a) + 1);
                if (out[n] == NULL) {
                    for (size_t i = 0; i < n; i++) {
                        free(out[i]);
                    }
                    free(out);
                    return OA_FAIL(OA_E_NOMEM, "out of memory");
                }
                memcpy(out[n], a, (size_t)(b - a));
                out[n][b - a] = '\0';
                n++;
            }
            if (*p == '\0') {
                break;
            }
            start = p + 1;
        }
    }
    *items = out;
    *count = n;
    return OA_OK;
}

static void free_items(char **items, size_t count)
{
    for (size_t i = 0; items && i < count; i++) {
        free(items[i]);
    }
    free(items);
}

/* "name:idx" (the name may contain ':'): false when malformed. */
static bool parse_node_index(char *item, const char **name, long *idx)
{
    char *colon = strrchr(item, ':');
    if (colon == NULL || colon == item || colon[1] == '\0') {
        return false;
    }
    char *end;
    long v = strtol(colon + 1, &end, 10);
    if (*end != '\0' || v < 0 || v > 65535) {
        return false;
    }
    *colon = '\0';
    *name = item;
    *idx = v;
    return true;
}

oa_status oa_io_set_out_nodes(oa_graph *g, const char *spec)
{
    char **items;
    size_t n;
    oa_status st = split(spec, ';', &items, &n);
    if (st != OA_OK) {
        return st;
    }
    oa_node **srcs = calloc(n ? n : 1, sizeof(*srcs));
    uint32_t *idx = calloc(n ? n : 1, sizeof(*idx));
    const char **names = calloc(n ? n : 1, sizeof(*names));
    if (srcs == NULL || idx == NULL || names == NULL) {
        st = OA_FAIL(OA_E_NOMEM, "out of memory");
        goto done;
    }
    if (n == 0) {
        st = OA_FAIL(OA_E_PARAM, "E10001: Value %s for parameter --out_nodes is invalid. Reason: no node is listed",
                     spec);
        goto done;
    }
    oa_node *old = oa_graph_output_node(g);
    for (size_t i = 0; i < n && st == OA_OK; i++) {
        const char *name;
        long k;
        if (!parse_node_index(items[i], &name, &k)) {
            st = OA_FAIL(OA_E_PARAM,
                         "E10001: Value %s for parameter --out_nodes is invalid. Reason: entries must look like "
                         "\"node_name:output_index\"",
                         items[i]);
            break;
        }
        oa_node *src = oa_graph_find_node(g, name);
        if (src == NULL || src->type == OA_OP_NET_OUTPUT) {
            st = OA_FAIL(OA_E_PARAM,
                         "E10016: Op name %s specified in --out_nodes is not found in the model. Confirm whether "
                         "this node name exists, or whether the node is not split with the specified delimiter ';'.",
                         name);
            break;
        }
        if ((uint32_t)k >= src->num_outputs) {
            st = OA_FAIL(OA_E_PARAM,
                         "E10001: Value %s:%ld for parameter --out_nodes is invalid. Reason: node %s has %u outputs",
                         name, k, name, src->num_outputs);
            break;
        }
        srcs[i] = src;
        idx[i] = (uint32_t)k;
        /* Keep the model's tensor name when this output already was a model output. */
        for (uint32_t j = 0; old && j < old->num_inputs; j++) {
            if (old->inputs[j].src == src && old->inputs[j].src_index == idx[i]) {
                names[i] = old->inputs[j].desc.name;
            }
        }
    }
    if (st != OA_OK) {
        goto done;
    }
    const char *out_name = old ? old->name : "Node_Output";
    if (old != NULL) {
        st = oa_graph_remove_node(g, old);
    }
    oa_node *no;
    if (st == OA_OK) {
        st = oa_graph_add_net_output(g, out_name, (uint32_t)n, &no);
    }
    for (size_t i = 0; i < n && st == OA_OK; i++) {
        st = oa_node_connect(no, (uint32_t)i, srcs[i], idx[i]);
        if (st == OA_OK && names[i] != NULL) {
            no->inputs[i].desc.name = oa_arena_strdup(oa_graph_arena(g), names[i]);
        }
    }
    if (st == OA_OK) {
        st = oa_pass_dce(g, NULL);
    }
done:
    free(srcs);
    free(idx);
    free(names);
    free_items(items, n);
    return st;
}

oa_status oa_io_output_names(oa_graph *g, const char ***names, size_t *count)
{
    uint32_t n = oa_graph_num_outputs(g);
    const oa_node *no = oa_graph_output_node(g);
    const char **out = oa_arena_array(oa_graph_arena(g), n ? n : 1, sizeof(char *));
    if (out == NULL) {
        return OA_E_NOMEM;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t si;
        const oa_node *src = oa_node_input_src(no, i, &si);
        const char *tn = no->inputs[i].desc.name;
        if (src == NULL) {
            return OA_FAIL(OA_E_GE_PARAM, "model output %u of graph %s is not connected", i, oa_graph_name(g));
        }
        out[i] = (tn && tn[0]) ? oa_arena_printf(oa_graph_arena(g), "%s:%u:%s", src->name, si, tn)
                               : oa_arena_printf(oa_graph_arena(g), "%s:%u", src->name, si);
        if (out[i] == NULL) {
            return OA_E_NOMEM;
        }
    }
    *names = out;
    *count = n;
    return OA_OK;
}

oa_status oa_io_set_fp16_inputs(oa_graph *g, const char *spec)
{
    char **items;
    size_t n;
    oa_status st = split(spec, ';', &items, &n);
    for (size_t i = 0; i < n && st == OA_OK; i++) {
        oa_node *d = oa_graph_find_node(g, items[i]);
        if (d == NULL) {
            st = OA_FAIL(OA_E_PARAM,
                         "E10016: Op name %s specified in --input_fp16_nodes is not found in the model. Confirm "
                         "whether this node name exists, or whether the node is not split with the specified "
                         "delimiter ';'.",
                         items[i]);
            break;
        }
        if (d->type != OA_OP_DATA) {
            st = OA_FAIL(OA_E_PARAM,
                         "E10017: Input Op %s specified in --input_fp16_nodes is invalid. The Op type must be Data.",
                         items[i]);
            break;
        }
        oa_dtype orig = d->outputs[0].desc.dtype;
        if (orig == OA_DT_FLOAT16) {
            continue;
        }
        char cname[512];
        snprintf(cname, sizeof(cname), "%s_fp16_cast", d->name);
        const char *cn = oa_graph_unique_name(g, cname);
        oa_node *cast;
        st = cn ? oa_graph_add_node(g, OA_OP_CAST, cn, 1, 1, &cast) : OA_E_NOMEM;
        if (st == OA_OK) {
            st = oa_node_set_int(cast, "dst_type", (int64_t)orig);
        }
        if (st == OA_OK && oa_cp_num_uses(d, 0) > 0) {
            st = oa_graph_insert_after(d, 0, cast, 0, 0);
        } else if (st == OA_OK) {
            st = oa_node_connect(cast, 0, d, 0);
        }
        if (st == OA_OK) {
            d->inputs[0].desc.dtype = OA_DT_FLOAT16;
            d->outputs[0].desc.dtype = OA_DT_FLOAT16;
            st = oa_node_set_int(d, "data_type", OA_DT_FLOAT16);
        }
        if (st == OA_OK) {
            cast->outputs[0].desc.format = d->outputs[0].desc.format;
            cast->outputs[0].desc.origin_format = d->outputs[0].desc.origin_format;
        }
    }
    free_items(items, n);
    return st;
}

static const struct {
    const char *name;
    oa_dtype dt;
} kOutputTypes[] = {
    {"FP32", OA_DT_FLOAT},   {"FP16", OA_DT_FLOAT16}, {"INT8", OA_DT_INT8},     {"INT16", OA_DT_INT16},
    {"UINT16", OA_DT_UINT16}, {"UINT8", OA_DT_UINT8}, {"INT32", OA_DT_INT32},   {"INT64", OA_DT_INT64},
    {"UINT32", OA_DT_UINT32}, {"UINT64", OA_DT_UINT64}, {"DOUBLE", OA_DT_DOUBLE},
};

static bool output_type(const char *s, oa_dtype *dt)
{
    for (size_t i = 0; i < OA_ARRAY_SIZE(kOutputTypes); i++) {
        if (strcmp(s, kOutputTypes[i].name) == 0) {
            *dt = kOutputTypes[i].dt;
            return true;
        }
    }
    return false;
}

#define OUTPUT_TYPE_SUPPORT "The value must be one of FP32, FP16, INT8, INT16, UINT16, UINT8, INT32, INT64, UINT32, UINT64, DOUBLE"

/* Casts model output i to dt (no-op when it already is). */
static oa_status cast_output(oa_graph *g, oa_node *no, uint32_t i, oa_dtype dt)
{
    uint32_t si;
    oa_node *src = oa_node_input_src(no, i, &si);
    if (src == NULL || src->outputs[si].desc.dtype == dt) {
        return OA_OK;
    }
    char cname[512];
    snprintf(cname, sizeof(cname), "%s_output_%u_cast", src->name, i);
    const char *cn = oa_graph_unique_name(g, cname);
    oa_node *cast;
    oa_status st = cn ? oa_graph_add_node(g, OA_OP_CAST, cn, 1, 1, &cast) : OA_E_NOMEM;
    if (st == OA_OK) {
        st = oa_node_set_int(cast, "dst_type", (int64_t)dt);
    }
    if (st == OA_OK) {
        cast->outputs[0].desc.format = src->outputs[si].desc.format;
        cast->outputs[0].desc.origin_format = src->outputs[si].desc.origin_format;
        st = oa_graph_insert_on_edge(no, i, cast, 0, 0);
    }
    return st;
}

oa_status oa_io_set_output_types(oa_graph *g, const char *spec)
{
    oa_node *no = oa_graph_output_node(g);
    if (no == NULL) {
        return OA_FAIL(OA_E_GE_PARAM, "graph %s has no NetOutput", oa_graph_name(g));
    }
    oa_dtype dt;
    if (strchr(spec, ':') == NULL) {
        if (!output_type(spec, &dt)) {
            return OA_FAIL(OA_E_PARAM, "E10001: Value %s for parameter --output_type is invalid. Reason: %s", spec,
                           OUTPUT_TYPE_SUPPORT);
        }
        for (uint32_t i = 0; i < no->num_inputs; i++) {
            oa_status st = cast_output(g, no, i, dt);
            if (st != OA_OK) {
                return st;
            }
        }
        return OA_OK;
    }
    char **items;
    size_t n;
    oa_status st = split(spec, ';', &items, &n);
    for (size_t i = 0; i < n && st == OA_OK; i++) {
        char *type = strrchr(items[i], ':');
        const char *name;
        long k;
        if (type == NULL || (*type = '\0', !parse_node_index(items[i], &name, &k))) {
            st = OA_FAIL(OA_E_PARAM,
                         "E10001: Value %s for parameter --output_type is invalid. Reason: entries must look like "
                         "\"node_name:output_index:type\"",
                         spec);
            break;
        }
        if (!output_type(type + 1, &dt)) {
            st = OA_FAIL(OA_E_PARAM, "E10001: Value %s for parameter --output_type is invalid. Reason: %s",
                         type + 1, OUTPUT_TYPE_SUPPORT);
            break;
        }
        bool found = false;
        for (uint32_t j = 0; j < no->num_inputs && st == OA_OK; j++) {
            uint32_t si;
            const oa_node *src = oa_node_input_src(no, j, &si);
            if (src && strcmp(src->name, name) == 0 && si == (uint32_t)k) {
                found = true;
                st = cast_output(g, no, j, dt);
            }
        }
        if (st == OA_OK && !found) {
            st = OA_FAIL(OA_E_PARAM,
                         "E10001: Value %s:%ld for parameter --output_type is invalid. Reason: it is not an output "
                         "of the model",
                         name, k);
        }
    }
    free_items(items, n);
    return st;
}

oa_status oa_io_set_input_format(oa_graph *g, const char *fmt)
{
    static const char *const ok[] = {"NCHW", "NHWC", "ND", "NCDHW", "NDHWC"};
    oa_format f = OA_FORMAT_ND;
    bool valid = false;
    for (size_t i = 0; i < OA_ARRAY_SIZE(ok) && !valid; i++) {
        valid = strcmp(fmt, ok[i]) == 0 && oa_format_from_name(fmt, &f);
    }
    if (!valid) {
        return OA_FAIL(OA_E_PARAM,
                       "E10001: Value %s for parameter --input_format is invalid. Reason: The current value is not "
                       "within the valid range (NCHW, NHWC, ND, NCDHW, NDHWC).",
                       fmt);
    }
    for (oa_node *n = oa_graph_first_node(g); n; n = n->next) {
        if (n->type == OA_OP_DATA) {
            n->inputs[0].desc.format = n->inputs[0].desc.origin_format = f;
            n->outputs[0].desc.format = n->outputs[0].desc.origin_format = f;
        }
    }
    return OA_OK;
}

#define RANGE_SAMPLE "\"input_name1:[n1~n2,c1,h1,w1];input_name2:[n2~n3,c2,h2,w2]\""

static oa_status range_error(const char *range, const char *reason)
{
    return OA_FAIL(OA_E_PARAM,
                   "E10048: Value %s for parameter --input_shape_range or dynamic_inputs_shape_range is invalid. "
                   "Reason: %s. The value must be formatted as %s.",
                   range, reason, RANGE_SAMPLE);
}

oa_status oa_io_range_to_shape(const oa_graph *g, const char *range, char **out)
{
    *out = NULL;
    size_t cap = strlen(range) * 2 + 64;
    for (const oa_node *n = oa_graph_first_node(g); n; n = n->next) {
        cap += strlen(n->name) + 2;
    }
    char *buf = calloc(1, cap);
    if (buf == NULL) {
        return OA_FAIL(OA_E_NOMEM, "out of memory");
    }
    size_t len = 0, index = 0;
    const char *p = range;
    while (*p) {
        while (*p == ';' || *p == ',' || isspace((unsigned char)*p)) {
            p++;
        }
        if (*p == '\0') {
            break;
        }
        const char *name = NULL;
        size_t name_len = 0;
        if (*p != '[') {
            const char *colon = strstr(p, ":[");
            if (colon == NULL) {
                free(buf);
                return range_error(range, "The format of the shape range is invalid");
            }
            name = p;
            name_len = (size_t)(colon - p);
            p = colon + 1;
        } else {
            const oa_node *d = oa_graph_input(g, (int64_t)index);
            if (d == NULL) {
                free(buf);
                return range_error(range, "There are more ranges than model inputs");
            }
            name = d->name;
            name_len = strlen(name);
        }
        const char *close = strchr(p, ']');
        if (*p != '[' || close == NULL || memchr(p + 1, '[', (size_t)(close - p - 1)) != NULL) {
            free(buf);
            return range_error(range, "The value can only contains a pair of '[]'");
        }
        for (const char *c = p + 1; c < close; c++) {
            if (!isdigit((unsigned char)*c) && *c != ',' && *c != '~' && *c != '-' && *c != ' ') {
                free(buf);
                return range_error(range, "The current string cannot be converted to a number");
            }
        }
        len += (size_t)snprintf(buf + len, cap - len, "%s%.*s:%.*s", len ? ";" : "", (int)name_len, name,
                                (int)(close - p - 1), p + 1);
        p = close + 1;
        index++;
    }
    if (len == 0) {
        free(buf);
        return range_error(range, "The shape range size less than 2, and it is invalid");
    }
    *out = buf;
    return OA_OK;
}
