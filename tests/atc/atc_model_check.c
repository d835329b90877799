/*
 * One atc conversion, checked end to end (a CTest entry per model and
 * mode, tests/atc/CMakeLists.txt):
 *
 *   atc_model_check ATC MODEL OUT [checks...] -- [atc flags...]
 *
 * runs `ATC --model=MODEL --framework=5 --output=OUT --soc_version=Ascend310P3
 * <atc flags>`, then reads OUT.om back with the .om reader and checks:
 *   - the container: MODEL_INOUT_INFO, MODEL_DEF, WEIGHTS_DATA, TASK_INFO;
 *   - model attrs: soc_version, framework_type "Onnx", atc_cmdline,
 *     attr_model_out_nodes_name ("<node>:<idx>:<name>"), memory_size equal
 *     to the planner's total of the same compilation done in this process
 *     (> 0 for static models, 0 for dynamic ones), zero_copy_memory_size;
 *   - every output offset of every non-weight op of every graph inside
 *     [0, memory_size);
 *   - the size query (aclmdlQuerySize): work = memory_size, weights > 0;
 *   - gears: the Case with one branch per gear, the last input
 *     ascend_mbatch_shape_data (INT32, ND), MODEL_INOUT_INFO gear records;
 *   - `atc --mode=1` writes JSON that parses;
 *   - Netron would open the file (tests/unit/om/netron_check.h).
 * Checks: --dynamic (header is_unknow_model), --gears=N, --input-size=I:BYTES,
 * --input-dtype=I:GE_DTYPE, --output-dtype=I:GE_DTYPE.
 */
#define _GNU_SOURCE
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "base/error.h"
#include "compiler/compiler.h"
#include "om_ir/om_ir.h"
#include "om/om_model.h"
#include "om/om_query.h"
#include "netron_check.h"
#include "check_count.h"

static char *quote(const char *s)
{
    size_t n = strlen(s);
    char *q = malloc(n * 4 + 3), *p = q;
    *p++ = '\'';
    for (const char *c = s; *c; c++) {
        if (*c == '\'') {
            memcpy(p, "'\\''", 4);
            p += 4;
        } else {
            *p++ = *c;
        }
    }
    *p++ = '\'';
    *p = '\0';
    return q;
}

static int run_cmd(const char *cmd)
{
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The compile options the atc flags describe (the subset that changes the plan). */
static void options_from_flags(int argc, char **argv, oa_compile_options *opt)
{
    oa_compile_options_init(opt);
    const char *layout = getenv("OPENACL_ATC_NCHWC"); /* atc's rule: blocked conv chains unless "0" */
    opt->layout_nchwc = layout == NULL || strcmp(layout, "0") != 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
#define FLAG(name, field)                                        \
    if (strncmp(a, "--" name "=", strlen(name) + 3) == 0) {      \
        field = a + strlen(name) + 3;                            \
        continue;                                                \
    }
        FLAG("input_shape", opt->input_shape)
        FLAG("input_shape_range", opt->input_shape_range)
        FLAG("input_format", opt->input_format)
        FLAG("input_fp16_nodes", opt->input_fp16_nodes)
        FLAG("output_type", opt->output_type)
        FLAG("out_nodes", opt->out_nodes)
        if (strncmp(a, "--dynamic_batch_size=", 21) == 0) {
            opt->gear_kind = OA_GEAR_BATCH;
            opt->gears = a + 21;
        } else if (strncmp(a, "--dynamic_image_size=", 21) == 0) {
            opt->gear_kind = OA_GEAR_IMAGE;
            opt->gears = a + 21;
        } else if (strncmp(a, "--dynamic_dims=", 15) == 0) {
            opt->gear_kind = OA_GEAR_DIMS;
            opt->gears = a + 15;
        } else if (strcmp(a, "--disable_reuse_memory=1") == 0) {
            opt->disable_reuse = true;
        }
    }
}

static const oa_attr *model_attr(const oa_om_graph_info *info, const char *name)
{
    return oa_attrs_find(&info->model_attrs, name);
}

/* Offsets of every non-weight op inside [0, memory_size). */
static void check_offsets(const oa_graph *g, const oa_om_graph_info *info, int64_t mem, size_t *count)
{
    for (const oa_node *n = oa_graph_first_node(g); n; n = n->next) {
        for (uint32_t s = 0; s < n->num_subgraphs; s++) {
            check_offsets(n->subgraphs[s].graph, info, mem, count);
        }
        if (n->type == OA_OP_CONST || n->type == OA_OP_CONSTANT || n->type == OA_OP_FILE_CONSTANT) {
            continue;
        }
        const oa_om_node_mem *m = info->plan.node_mem ? info->plan.node_mem(info->plan.ctx, n) : NULL;
        if (mem == 0) {
            CHECK(m == NULL || m->n_output == 0, "dynamic model op %s has offsets", n->name);
            continue;
        }
        CHECK(m != NULL, "op %s (%s) has no memory offsets", n->name, n->type_name);
        if (m == NULL) {
            continue;
        }
        for (size_t k = 0; k < m->n_output && k < n->num_outputs; k++) {
            size_t size = 0;
            (void)oa_desc_bytes(&n->outputs[k].desc, &size);
            CHECK(m->output_offsets[k] >= 0 && m->output_offsets[k] + (int64_t)size <= mem,
                  "op %s output %zu at %lld (+%zu) outside [0, %lld)", n->name, k, (long long)m->output_offsets[k],
                  size, (long long)mem);
            (*count)++;
        }
        for (size_t k = 0; k < m->n_input; k++) {
            CHECK(m->input_offsets[k] < mem, "op %s input %zu at %lld beyond %lld", n->name, k,
                  (long long)m->input_offsets[k], (long long)mem);
        }
    }
}

static const oa_node *find_type(const oa_graph *g, oa_op_type t)
{
    for (const oa_node *n = oa_graph_first_node(g); n; n = n->next) {
        if (n->type == t) {
            return n;
        }
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: %s ATC MODEL OUT [checks] -- [atc flags]\n", argv[0]);
        return 2;
    }
    const char *atc = argv[1], *model = argv[2], *out = argv[3];
    bool expect_dynamic = false;
    long gears = 0;
    int sep = argc;
    long in_size_idx = -1, in_dtype_idx = -1, out_dtype_idx = -1;
    long long in_size = 0;
    int in_dtype = -1, out_dtype = -1;
    for (int i = 4; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) {
            sep = i;
            break;
        }
        if (strcmp(argv[i], "--dynamic") == 0) {
            expect_dynamic = true;
        } else if (strncmp(argv[i], "--gears=", 8) == 0) {
            gears = strtol(argv[i] + 8, NULL, 10);
        } else if (sscanf(argv[i], "--input-size=%ld:%lld", &in_size_idx, &in_size) == 2) {
        } else if (sscanf(argv[i], "--input-dtype=%ld:%d", &in_dtype_idx, &in_dtype) == 2) {
        } else if (sscanf(argv[i], "--output-dtype=%ld:%d", &out_dtype_idx, &out_dtype) == 2) {
        } else {
            fprintf(stderr, "unknown check %s\n", argv[i]);
            return 2;
        }
    }
    int nflags = sep < argc ? argc - sep - 1 : 0;
    char **flags = argv + sep + 1;

    /* 1. convert */
    size_t cap = 4096;
    for (int i = 0; i < nflags; i++) {
        cap += strlen(flags[i]) * 4 + 8;
    }
    char *cmd = malloc(cap + strlen(atc) + strlen(model) + strlen(out) + 64);
    char *qa = quote(atc), *qm = quote(model), *qo = quote(out);
    int len = sprintf(cmd, "%s --model=%s --framework=5 --output=%s --soc_version=Ascend310P3", qa, qm, qo);
    for (int i = 0; i < nflags; i++) {
        char *q = quote(flags[i]);
        len += sprintf(cmd + len, " %s", q);
        free(q);
    }
    printf("%s\n", cmd);
    fflush(stdout);
    int rc = run_cmd(cmd);
    CHECK(rc == 0, "atc exited with %d", rc);
    if (rc != 0) {
        return 1;
    }

    /* 2. the same compilation here, for the expected plan */
    oa_compile_options opt;
    options_from_flags(nflags, flags, &opt);
    oa_compiled_model *cm = NULL;
    if (oa_compile_onnx(model, &opt, &cm) != OA_OK) {
        const char *m = oa_error_take_messages();
        fprintf(stderr, "FAIL: in-process compile: %s\n", m ? m : "");
        return 1;
    }
    int64_t want_mem = cm->plan ? cm->plan->memory_size : 0;
    CHECK(cm->is_dynamic == expect_dynamic, "compiled model dynamic=%d, expected %d", cm->is_dynamic, expect_dynamic);

    /* 3. the file */
    char om[4096];
    snprintf(om, sizeof(om), "%s.om", out);
    oa_om_model *m = NULL;
    if (oa_om_model_open_file(om, 0, &m) != OA_OK) {
        const char *e = oa_error_take_messages();
        fprintf(stderr, "FAIL: open %s: %s\n", om, e ? e : "");
        return 1;
    }
    FILE *of = fopen(om, "rb");
    if (of != NULL && fseek(of, 0, SEEK_END) == 0) {
        const long flen = ftell(of);
        uint8_t *img = flen > 0 ? malloc((size_t)flen) : NULL;
        rewind(of);
        if (img != NULL && fread(img, 1, (size_t)flen, of) == (size_t)flen) {
            char why[512];
            CHECK(netron_check(img, (size_t)flen, why, sizeof why) == 0, "Netron would refuse %s: %s", om, why);
        } else {
            CHECK(0, "cannot read %s", om);
        }
        free(img);
    }
    if (of != NULL) {
        fclose(of);
    }
    const oa_om_table *t = m->models[0].table;
    CHECK(oa_om_table_find(t, OA_OM_PART_MODEL_DEF) != NULL, "no MODEL_DEF");
    CHECK(oa_om_table_find(t, OA_OM_PART_WEIGHTS_DATA) != NULL, "no WEIGHTS_DATA");
    CHECK(oa_om_table_find(t, OA_OM_PART_TASK_INFO) != NULL, "no TASK_INFO");
    CHECK(oa_om_table_find(t, OA_OM_PART_MODEL_INOUT_INFO) != NULL && m->inout != NULL, "no MODEL_INOUT_INFO");
    CHECK((m->container.header.is_unknow_model != 0) == expect_dynamic, "header is_unknow_model %d",
          m->container.header.is_unknow_model);
    const oa_om_inout *io = m->inout;
    if (io != NULL && gears > 0) {
        size_t ng = opt.gear_kind == OA_GEAR_BATCH ? io->n_batch
                    : opt.gear_kind == OA_GEAR_IMAGE ? io->hw.n
                                                     : io->dims.n;
        CHECK(ng == (size_t)gears, "MODEL_INOUT_INFO has %zu gears, expected %ld", ng, gears);
        CHECK(io->dynamic_output_shape.n == (size_t)gears * cm->num_outputs, "%zu dynamic output shapes",
              io->dynamic_output_shape.n);
        CHECK(io->designate_shape_order.n >= 1, "no designate shape order");
        CHECK(io->n_inputs >= 1 && strcmp(io->inputs[io->n_inputs - 1].name, "ascend_mbatch_shape_data") == 0,
              "last input is not ascend_mbatch_shape_data");
    }
    /* Gear models: dims of the dynamic inputs show -1 (aclmdlGetInputDims), the
     * size is the largest gear's (docs/om_format.md "MODEL_INOUT_INFO"). */
    for (size_t i = 0; io != NULL && gears > 0 && i + 1 < io->n_inputs; i++) {
        bool has_unknown = false;
        for (size_t d = 0; d < io->inputs[i].n_dims; d++) {
            has_unknown = has_unknown || io->inputs[i].dims[d] == -1;
        }
        CHECK(has_unknown || strcmp(io->inputs[i].name, "ascend_mbatch_shape_data") == 0 ||
                  cm->gear_kind == OA_GEAR_DIMS,
              "MODEL_INOUT_INFO input %s of a gear model has no -1 dim", io->inputs[i].name);
        CHECK(io->inputs[i].size > 0, "input %s size 0", io->inputs[i].name);
    }
    if (io != NULL && in_size_idx >= 0) {
        CHECK((size_t)in_size_idx < io->n_inputs && (long long)io->inputs[in_size_idx].size == in_size,
              "input %ld size %llu, expected %lld", in_size_idx,
              (size_t)in_size_idx < io->n_inputs ? (unsigned long long)io->inputs[in_size_idx].size : 0ull, in_size);
    }
    if (io != NULL && in_dtype_idx >= 0) {
        CHECK((size_t)in_dtype_idx < io->n_inputs && io->inputs[in_dtype_idx].dtype == in_dtype, "input %ld dtype",
              in_dtype_idx);
    }
    if (io != NULL && out_dtype_idx >= 0) {
        CHECK((size_t)out_dtype_idx < io->n_outputs && io->outputs[out_dtype_idx].dtype == out_dtype,
              "output %ld dtype", out_dtype_idx);
    }
    for (size_t i = 0; io != NULL && i < io->n_outputs && i < cm->num_outputs; i++) {
        CHECK(strcmp(io->outputs[i].name, cm->output_names[i]) == 0, "output %zu named %s, expected %s", i,
              io->outputs[i].name, cm->output_names[i]);
    }
    oa_om_model_destroy(m);

    /* aclmdlQuerySize's answer: the full memory_size (static) or 0 (dynamic), and the weights. */
    size_t work = 0, weight = 0;
    CHECK(oa_om_query_size_file(om, &work, &weight) == OA_OK, "size query failed");
    CHECK((int64_t)work == want_mem, "queried work size %zu, planner total %lld", work, (long long)want_mem);
    CHECK(weight > 0, "queried weight size 0");

    oa_graph *g = NULL;
    const oa_om_graph_info *info = NULL;
    if (oa_om_read_graph(om, &g, &info) != OA_OK) {
        const char *e = oa_error_take_messages();
        fprintf(stderr, "FAIL: read %s: %s\n", om, e ? e : "");
        return 1;
    }
    int64_t mem = -1, zc = -1;
    const oa_attr *a;
    CHECK((a = model_attr(info, "memory_size")) != NULL && oa_attrs_get_int(&info->model_attrs, "memory_size", &mem),
          "no memory_size");
    CHECK(mem == want_mem, "memory_size %lld, planner total %lld", (long long)mem, (long long)want_mem);
    CHECK(expect_dynamic ? mem == 0 : mem > 0, "memory_size %lld for a %s model", (long long)mem,
          expect_dynamic ? "dynamic" : "static");
    if (!expect_dynamic) {
        CHECK(oa_attrs_get_int(&info->model_attrs, "zero_copy_memory_size", &zc) && zc > 0 && zc < mem,
              "zero_copy_memory_size %lld", (long long)zc);
    }
    const char *s = NULL;
    CHECK(oa_attrs_get_str(&info->model_attrs, "soc_version", &s) && strcmp(s, "Ascend310P3") == 0, "soc_version");
    CHECK(oa_attrs_get_str(&info->model_attrs, "framework_type", &s) && strcmp(s, "Onnx") == 0, "framework_type");
    CHECK(oa_attrs_get_str(&info->model_attrs, "atc_cmdline", &s) && strstr(s, "--framework=5") != NULL,
          "atc_cmdline");
    const char *const *names;
    size_t nn;
    CHECK(oa_attrs_get_list_str(&info->model_attrs, "attr_model_out_nodes_name", &names, &nn) &&
              nn == cm->num_outputs,
          "attr_model_out_nodes_name");
    for (size_t i = 0; i < nn && i < cm->num_outputs; i++) {
        CHECK(strcmp(names[i], cm->output_names[i]) == 0 && strchr(names[i], ':') != NULL, "output name %s",
              names[i]);
    }
    size_t planned = 0;
    check_offsets(g, info, mem, &planned);
    CHECK(expect_dynamic || planned > 0, "no planned tensors");
    if (gears > 0) {
        const oa_node *cs = find_type(g, OA_OP_CASE);
        CHECK(cs != NULL && cs->num_subgraphs == (uint32_t)gears, "Case with %ld branches", gears);
        const oa_node *sd = oa_graph_input(g, (int64_t)oa_graph_num_inputs(g) - 1);
        CHECK(sd != NULL && strcmp(sd->name, "ascend_mbatch_shape_data") == 0 &&
                  sd->outputs[0].desc.dtype == OA_DT_INT32 && sd->outputs[0].desc.format == OA_FORMAT_ND,
              "gear selector input");
        int64_t bn = 0;
        CHECK(cs && oa_attrs_get_int(&cs->attrs, "_batch_num", &bn) && bn == gears, "_batch_num");
    }
    printf("%s: memory_size %lld, %zu planned tensors, %zu graphs\n", om, (long long)mem, planned,
           oa_graph_subgraphs(g, NULL, 0) + 1);
    oa_graph_destroy(g);
    oa_compiled_model_destroy(cm);

    /* 4. JSON */
    char json[4200];
    snprintf(json, sizeof(json), "%s.json", out);
    char *qj = quote(json), *qom = quote(om);
    sprintf(cmd, "%s --mode=1 --om=%s --json=%s > /dev/null", qa, qom, qj);
    rc = run_cmd(cmd);
    CHECK(rc == 0, "atc --mode=1 exited with %d", rc);
    FILE *f = fopen(json, "rb");
    CHECK(f != NULL, "no JSON written");
    if (f != NULL) {
        fseek(f, 0, SEEK_END);
        long n = ftell(f);
        fseek(f, 0, SEEK_SET);
        char *buf = malloc((size_t)n + 1);
        size_t got = fread(buf, 1, (size_t)n, f);
        buf[got] = '\0';
        fclose(f);
        cJSON *j = cJSON_Parse(buf);
        CHECK(j != NULL && cJSON_GetObjectItem(j, "graph") != NULL, "JSON does not parse or has no graph");
        cJSON_Delete(j);
        free(buf);
    }
    free(qj);
    free(qom);
    free(qa);
    free(qm);
    free(qo);
    free(cmd);
    if (g_failures == 0) {
        printf("PASS\n");
    }
    return g_failures == 0 ? 0 : 1;
}
