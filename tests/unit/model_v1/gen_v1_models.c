/*
 * Writes the small .om files the model_v1 tests load through the public API
 * (a CTest fixture; nothing here is a test). Graphs are built by hand and
 * planned by a trivial planner (every tensor its own range, the model
 * inputs and outputs in a zero-copy region after the feature map), then
 * written with the .om writer. Some files are broken on purpose.
 *
 *   gen_v1_models DIR
 *
 *   ew.om          x f32[1,8,32,32] -> Relu -> Mul 0.5 -> Add x -> Sigmoid (output 0, written in place)
 *                                   -> ReduceMean(2,3, keep) (output 1, copied by NetOutput)
 *                  kernels of our own only (no oneDNN): the zero-allocation test
 *   conv.om        x f32[1,3,16,16] -> Conv2D 3->8 k3 p1 + bias, post-op Relu -> GlobalAveragePool
 *   io.om          a, b f32[2,3]: out0 = a + b, out1 = a (Data -> NetOutput copy), out2 = a constant [3]
 *   bad_offset.om  ew.om whose Relu output lies past memory_size
 *   bad_cross.om   ew.om whose Relu output crosses into the zero-copy region
 *   unsupported.om x, x -> Axpy (no CPU kernel)
 *   fcw/<case>.om  x f32[1,16] + FileConstant w f32[16] (external weights, hand-written locations) with
 *                  fcw/weight/fcw.bin (w = 0.25 i - 2) and fcw/weight/fcw_short.bin (32 bytes):
 *                  ok (location fcw.bin), sub (sub/fcw.bin), dotdot (../fcw.bin), missing (absent.bin),
 *                  short (fcw_short.bin), offset (fcw.bin at offset 32), copy (fcw_off2.bin: w at the
 *                  misaligned offset 2, so a private copy); dyn_ok, dyn_copy, dyn_sub, dyn_abs
 *                  (/etc/passwd), dyn_dotdot: the same with x [-1,16] as dynamic models (the V2 executor)
 */
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "graph/graph.h"
#include "graph/infer.h"
#include "om_ir/om_ir.h"

#define OK(expr)                                                                                     \
    do {                                                                                             \
        oa_status st_ = (expr);                                                                      \
        if (st_ != OA_OK) {                                                                          \
            const char *m_ = oa_error_take_messages();                                               \
            fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #expr, m_ != NULL ? m_ : "");      \
            exit(1);                                                                                 \
        }                                                                                            \
    } while (0)

#define MAX_NODES 64

/* ---- the trivial planner ---- */

typedef struct plan {
    int64_t fm;              /* next free feature-map offset */
    int64_t mem[MAX_NODES][8];
    int64_t in[MAX_NODES][8];
    oa_om_node_mem nm[MAX_NODES];
    bool has[MAX_NODES];
    int64_t memory_size;
    int64_t zero_copy;
} plan;

static int64_t bytes_of(const oa_tensor_desc *d)
{
    size_t b = 0;
    (void)oa_tensor_nbytes(d->dtype, &d->shape, &b);
    return (int64_t)((b + 63) / 64 * 64);
}

static int64_t take(plan *p, int64_t size)
{
    const int64_t at = p->fm;
    p->fm += size > 0 ? size : 64;
    return at;
}

static void set_out(plan *p, const oa_node *n, uint32_t k, int64_t off)
{
    p->mem[n->id][k] = off;
    p->has[n->id] = true;
}

static const oa_om_node_mem *node_mem(void *ctx, const oa_node *n)
{
    plan *p = ctx;
    if (n->id >= MAX_NODES || !p->has[n->id]) {
        return NULL;
    }
    oa_om_node_mem *m = &p->nm[n->id];
    memset(m, 0, sizeof(*m));
    size_t k = 0;
    for (uint32_t i = 0; i < n->num_inputs; i++) {
        if (n->inputs[i].src == NULL) {
            continue;
        }
        const oa_node *s = n->inputs[i].src;
        p->in[n->id][k++] =
            (s->type == OA_OP_CONST || s->type == OA_OP_FILE_CONSTANT) ? -1 : p->mem[s->id][n->inputs[i].src_index];
    }
    m->input_offsets = p->in[n->id];
    m->n_input = k;
    if (n->type != OA_OP_NET_OUTPUT) {
        m->output_offsets = p->mem[n->id];
        m->n_output = n->num_outputs;
    }
    return m;
}

/*
 * Feature-map offsets for every output of every non-Const node, then the
 * zero-copy slots: root Data outputs, then NetOutput inputs (NetOutput
 * input offsets live in in[]; producers listed in `direct` write their
 * output straight into the slot).
 */
static void plan_graph(plan *p, oa_graph *g, const oa_node *const *direct, size_t n_direct)
{
    for (const oa_node *n = oa_graph_first_node(g); n != NULL; n = n->next) {
        if (n->type == OA_OP_CONST || n->type == OA_OP_FILE_CONSTANT || n->type == OA_OP_DATA ||
            n->type == OA_OP_NET_OUTPUT) {
            continue;
        }
        for (uint32_t k = 0; k < n->num_outputs; k++) {
            set_out(p, n, k, take(p, bytes_of(&n->outputs[k].desc)));
        }
    }
    const int64_t zc = p->fm;
    for (int64_t idx = 0; idx < (int64_t)oa_graph_num_inputs(g); idx++) {
        for (const oa_node *n = oa_graph_first_node(g); n != NULL; n = n->next) {
            if (n->type == OA_OP_DATA && oa_node_attr_int(n, "index", -1) == idx) {
                set_out(p, n, 0, take(p, bytes_of(&n->outputs[0].desc)));
            }
        }
    }
    const oa_node *no = oa_graph_output_node(g);
    for (uint32_t i = 0; no != NULL && i < no->num_inputs; i++) {
        const int64_t slot = take(p, bytes_of(&no->inputs[i].desc));
        for (size_t d = 0; d < n_direct; d++) {
            if (direct[d] == no->inputs[i].src) {
                set_out(p, direct[d], no->inputs[i].src_index, slot);
            }
        }
        p->mem[no->id][i] = slot; /* NetOutput's input offsets: see node_mem */
        p->has[no->id] = true;
    }
    p->memory_size = p->fm;
    p->zero_copy = p->fm - zc;
}

/* NetOutput input offsets come from mem[] of the NetOutput itself. */
static const oa_om_node_mem *node_mem_io(void *ctx, const oa_node *n)
{
    plan *p = ctx;
    const oa_om_node_mem *m = node_mem(ctx, n);
    if (m != NULL && n->type == OA_OP_NET_OUTPUT) {
        for (uint32_t i = 0; i < n->num_inputs; i++) {
            p->in[n->id][i] = p->mem[n->id][i];
        }
    }
    return m;
}

static void write_model(oa_graph *g, plan *p, const char *dir, const char *name)
{
    oa_attrs attrs = {0};
    OK(oa_attrs_set_int(g, &attrs, "zero_copy_memory_size", p->zero_copy));
    oa_om_mem_plan mp = {p->memory_size, node_mem_io, p};
    oa_om_write_opts o;
    oa_om_write_opts_init(&o);
    o.framework_type = "Onnx";
    o.soc_version = "Ascend310P3";
    o.plan = &mp;
    o.model_attrs = &attrs;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    OK(oa_om_write_graph(g, &o, path));
}

/* ---- graphs ---- */

static oa_node *data(oa_graph *g, const char *name, int64_t idx, oa_dtype dt, int rank, const int64_t *dims)
{
    const oa_shape s = oa_shape_make(rank, dims);
    oa_node *n;
    OK(oa_graph_add_data(g, name, idx, dt, &s, rank == 4 ? OA_FORMAT_NCHW : OA_FORMAT_ND, &n));
    return n;
}

static oa_node *cnst(oa_graph *g, const char *name, oa_dtype dt, int rank, const int64_t *dims, const void *v,
                     size_t size)
{
    const oa_shape s = oa_shape_make(rank, dims);
    oa_tensor *t;
    OK(oa_graph_make_tensor(g, dt, &s, v, size, &t));
    oa_node *n;
    OK(oa_graph_add_const(g, name, t, &n));
    return n;
}

static oa_node *op(oa_graph *g, oa_op_type t, const char *name, uint32_t nin, oa_node *a, oa_node *b)
{
    oa_node *n;
    OK(oa_graph_add_node(g, t, name, nin, 1, &n));
    if (a != NULL) {
        OK(oa_node_connect(n, 0, a, 0));
    }
    if (b != NULL) {
        OK(oa_node_connect(n, 1, b, 0));
    }
    return n;
}

typedef enum { EW_OK, EW_BAD_OFFSET, EW_BAD_CROSS } ew_kind;

static void gen_ew(const char *dir, const char *name, ew_kind kind)
{
    oa_graph *g;
    OK(oa_graph_create("ew", &g));
    const int64_t d[4] = {1, 8, 32, 32};
    oa_node *x = data(g, "x", 0, OA_DT_FLOAT, 4, d);
    oa_node *relu = op(g, OA_OP_RELU, "relu", 1, x, NULL);
    const float half = 0.5f;
    const int64_t one = 1;
    oa_node *k = cnst(g, "half", OA_DT_FLOAT, 1, &one, &half, sizeof half);
    oa_node *mul = op(g, OA_OP_MUL, "mul", 2, relu, k);
    oa_node *add = op(g, OA_OP_ADD, "add", 2, mul, x);
    oa_node *sig = op(g, OA_OP_SIGMOID, "sigmoid", 1, add, NULL);
    const int32_t axes[2] = {2, 3};
    const int64_t two = 2;
    oa_node *ka = cnst(g, "axes", OA_DT_INT32, 1, &two, axes, sizeof axes);
    oa_node *mean = op(g, OA_OP_REDUCE_MEAN, "mean", 2, add, ka);
    OK(oa_node_set_bool(mean, "keep_dims", true));
    oa_node *out;
    OK(oa_graph_add_net_output(g, "Node_Output", 2, &out));
    OK(oa_node_connect(out, 0, sig, 0));
    OK(oa_node_connect(out, 1, mean, 0));
    OK(oa_graph_infer(g));
    static plan p;
    memset(&p, 0, sizeof p);
    const oa_node *direct[1] = {sig};
    plan_graph(&p, g, direct, 1);
    if (kind == EW_BAD_OFFSET) {
        p.mem[relu->id][0] = p.memory_size + 64;
    } else if (kind == EW_BAD_CROSS) {
        p.mem[relu->id][0] = p.memory_size - p.zero_copy - 64;
    }
    write_model(g, &p, dir, name);
    oa_graph_destroy(g);
}

static void gen_conv(const char *dir)
{
    oa_graph *g;
    OK(oa_graph_create("conv", &g));
    const int64_t d[4] = {1, 3, 16, 16}, wd[4] = {8, 3, 3, 3}, bd[1] = {8};
    oa_node *x = data(g, "x", 0, OA_DT_FLOAT, 4, d);
    float w[216], b[8];
    for (int i = 0; i < 216; i++) {
        w[i] = (float)((i * 37) % 17 - 8) / 16.0f;
    }
    for (int i = 0; i < 8; i++) {
        b[i] = (float)(i - 4) / 8.0f;
    }
    oa_node *kw = cnst(g, "w", OA_DT_FLOAT, 4, wd, w, sizeof w);
    oa_node *kb = cnst(g, "b", OA_DT_FLOAT, 1, bd, b, sizeof b);
    oa_node *conv;
    OK(oa_graph_add_node(g, OA_OP_CONV2D, "conv", 4, 1, &conv));
    OK(oa_node_connect(conv, 0, x, 0));
    OK(oa_node_connect(conv, 1, kw, 0));
    OK(oa_node_connect(conv, 2, kb, 0));
    const int64_t s[4] = {1, 1, 1, 1}, p1[4] = {1, 1, 1, 1};
    OK(oa_node_set_list_int(conv, "strides", s, 4));
    OK(oa_node_set_list_int(conv, "dilations", s, 4));
    OK(oa_node_set_list_int(conv, "pads", p1, 4));
    OK(oa_node_set_int(conv, "groups", 1));
    OK(oa_node_set_str(conv, "data_format", "NCHW"));
    const char *ops[1] = {"Relu"};
    OK(oa_node_set_list_str(conv, "_oa_post_ops", ops, 1));
    oa_node *gap = op(g, OA_OP_GLOBAL_AVERAGE_POOL, "gap", 1, conv, NULL);
    oa_node *out;
    OK(oa_graph_add_net_output(g, "Node_Output", 1, &out));
    OK(oa_node_connect(out, 0, gap, 0));
    OK(oa_graph_infer(g));
    static plan p;
    memset(&p, 0, sizeof p);
    const oa_node *direct[1] = {gap};
    plan_graph(&p, g, direct, 1);
    write_model(g, &p, dir, "conv.om");
    oa_graph_destroy(g);
}

static void gen_io(const char *dir)
{
    oa_graph *g;
    OK(oa_graph_create("io", &g));
    const int64_t d[2] = {2, 3}, three = 3;
    oa_node *a = data(g, "a", 0, OA_DT_FLOAT, 2, d);
    oa_node *b = data(g, "b", 1, OA_DT_FLOAT, 2, d);
    oa_node *add = op(g, OA_OP_ADD, "add", 2, a, b);
    const float c[3] = {1.5f, -2.0f, 7.25f};
    oa_node *k = cnst(g, "c", OA_DT_FLOAT, 1, &three, c, sizeof c);
    oa_node *out;
    OK(oa_graph_add_net_output(g, "Node_Output", 3, &out));
    OK(oa_node_connect(out, 0, add, 0));
    OK(oa_node_connect(out, 1, a, 0));
    OK(oa_node_connect(out, 2, k, 0));
    OK(oa_graph_infer(g));
    static plan p;
    memset(&p, 0, sizeof p);
    const oa_node *direct[1] = {add};
    plan_graph(&p, g, direct, 1);
    write_model(g, &p, dir, "io.om");
    oa_graph_destroy(g);
}

static void gen_unsupported(const char *dir)
{
    oa_graph *g;
    OK(oa_graph_create("unsupported", &g));
    const int64_t d[2] = {2, 3};
    oa_node *x = data(g, "x", 0, OA_DT_FLOAT, 2, d);
    oa_node *elu = op(g, OA_OP_AXPY, "my_axpy", 2, x, x);
    oa_node *out;
    OK(oa_graph_add_net_output(g, "Node_Output", 1, &out));
    OK(oa_node_connect(out, 0, elu, 0));
    OK(oa_graph_infer(g));
    static plan p;
    memset(&p, 0, sizeof p);
    plan_graph(&p, g, NULL, 0);
    write_model(g, &p, dir, "unsupported.om");
    oa_graph_destroy(g);
}

/* x + w, w a FileConstant at (location, offset) of 64 bytes; dynamic: x [-1,16], a dynamic (V2) model */
static void gen_fcw(const char *dir, const char *name, const char *location, int64_t offset, bool dynamic)
{
    oa_graph *g;
    OK(oa_graph_create("fcw", &g));
    const int64_t d[2] = {dynamic ? -1 : 1, 16}, wd[1] = {16};
    oa_node *x = data(g, "x", 0, OA_DT_FLOAT, 2, d);
    oa_node *w;
    OK(oa_graph_add_node(g, OA_OP_FILE_CONSTANT, "w", 0, 1, &w));
    OK(oa_node_set_str(w, "location", location));
    OK(oa_node_set_int(w, "offset", offset));
    OK(oa_node_set_int(w, "length", 64));
    OK(oa_node_set_dtype(w, "dtype", OA_DT_FLOAT));
    OK(oa_node_set_list_int(w, "shape", wd, 1));
    oa_tensor_desc *wdesc = oa_node_output_desc(w, 0);
    wdesc->dtype = OA_DT_FLOAT;
    wdesc->shape = oa_shape_make(1, wd);
    oa_node *add = op(g, OA_OP_ADD, "add", 2, x, w);
    oa_node *out;
    OK(oa_graph_add_net_output(g, "Node_Output", 1, &out));
    OK(oa_node_connect(out, 0, add, 0));
    OK(oa_graph_infer(g));
    if (dynamic) {
        oa_om_write_opts o;
        oa_om_write_opts_init(&o);
        o.framework_type = "Onnx";
        o.soc_version = "Ascend310P3";
        o.unknown_shape = true;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, name);
        OK(oa_om_write_graph(g, &o, path));
    } else {
        static plan p;
        memset(&p, 0, sizeof p);
        plan_graph(&p, g, NULL, 0);
        write_model(g, &p, dir, name);
    }
    oa_graph_destroy(g);
}

static void write_bytes(const char *path, const void *b, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (f == NULL || fwrite(b, 1, n, f) != n || fclose(f) != 0) {
        fprintf(stderr, "cannot write %s\n", path);
        exit(1);
    }
}

static void gen_fcw_all(const char *dir)
{
    char sub[1024], wdir[1100], path[1200];
    snprintf(sub, sizeof sub, "%s/fcw", dir);
    snprintf(wdir, sizeof wdir, "%s/weight", sub);
    (void)mkdir(sub, 0750);
    (void)mkdir(wdir, 0750);
    float w[16];
    for (int i = 0; i < 16; i++) {
        w[i] = 0.25f * (float)i - 2.0f;
    }
    snprintf(path, sizeof path, "%s/fcw.bin", wdir);
    write_bytes(path, w, sizeof w);
    snprintf(path, sizeof path, "%s/fcw_short.bin", wdir);
    write_bytes(path, w, 32);
    unsigned char off2[66] = {0xAB, 0xCD};
    memcpy(off2 + 2, w, sizeof w);
    snprintf(path, sizeof path, "%s/fcw_off2.bin", wdir);
    write_bytes(path, off2, sizeof off2);
    gen_fcw(sub, "ok.om", "fcw.bin", 0, false);
    gen_fcw(sub, "sub.om", "sub/fcw.bin", 0, false);
    gen_fcw(sub, "dotdot.om", "../fcw.bin", 0, false);
    gen_fcw(sub, "missing.om", "absent.bin", 0, false);
    gen_fcw(sub, "short.om", "fcw_short.bin", 0, false);
    gen_fcw(sub, "offset.om", "fcw.bin", 32, false);
    gen_fcw(sub, "copy.om", "fcw_off2.bin", 2, false);
    gen_fcw(sub, "dyn_ok.om", "fcw.bin", 0, true);
    gen_fcw(sub, "dyn_copy.om", "fcw_off2.bin", 2, true);
    gen_fcw(sub, "dyn_sub.om", "sub/fcw.bin", 0, true);
    gen_fcw(sub, "dyn_abs.om", "/etc/passwd", 0, true);
    gen_fcw(sub, "dyn_dotdot.om", "../fcw.bin", 0, true);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: gen_v1_models DIR\n");
        return 2;
    }
    gen_ew(argv[1], "ew.om", EW_OK);
    gen_ew(argv[1], "bad_offset.om", EW_BAD_OFFSET);
    gen_ew(argv[1], "bad_cross.om", EW_BAD_CROSS);
    gen_conv(argv[1]);
    gen_io(argv[1]);
    gen_unsupported(argv[1]);
    gen_fcw_all(argv[1]);
    return 0;
}
