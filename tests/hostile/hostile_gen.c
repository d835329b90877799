/*
 * Writes the hostile variants of an atc output that test_hostile loads (a
 * CTest fixture; nothing here is a test). Each variant changes one thing in
 * the model's memory plan and is written back with the .om writer:
 *
 *   hostile_gen IN.om OUTDIR
 *
 *   mem5g.om     memory_size raised by 5 GiB (the tensors use what they used)
 *   mem2m.om     memory_size raised by 2 MiB
 *   misalign.om  every feature-map offset moved by 2 bytes (not a multiple of a float),
 *                the zero-copy region by 64 (memory_size + 64)
 *   shift4.om    the same moved by 4 bytes: a valid plan, same results as IN.om
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "graph/graph.h"
#include "om_ir/om_ir.h"

typedef struct shift_plan {
    const oa_om_mem_plan *orig;
    int64_t zc_off;   /* offsets at or above: the zero-copy region */
    int64_t fm_shift; /* added to feature-map offsets */
    int64_t zc_shift; /* added to zero-copy offsets */
    oa_om_node_mem *keep[4096];
    int64_t *arrays[8192];
    size_t n_keep, n_arrays;
} shift_plan;

static const int64_t *shifted(shift_plan *s, const int64_t *a, size_t n)
{
    if (a == NULL || n == 0 || s->n_arrays == sizeof s->arrays / sizeof s->arrays[0]) {
        return a;
    }
    int64_t *c = malloc(n * sizeof(*c));
    if (c == NULL) {
        return a;
    }
    for (size_t i = 0; i < n; i++) {
        c[i] = a[i] < 0 ? a[i] : a[i] + (a[i] >= s->zc_off ? s->zc_shift : s->fm_shift);
    }
    s->arrays[s->n_arrays++] = c;
    return c;
}

static const oa_om_node_mem *shift_node_mem(void *ctx, const oa_node *n)
{
    shift_plan *s = ctx;
    const oa_om_node_mem *m = s->orig->node_mem(s->orig->ctx, n);
    if (m == NULL || s->n_keep == sizeof s->keep / sizeof s->keep[0]) {
        return m;
    }
    oa_om_node_mem *c = malloc(sizeof(*c));
    if (c == NULL) {
        return m;
    }
    *c = *m;
    c->input_offsets = shifted(s, m->input_offsets, m->n_input);
    c->output_offsets = shifted(s, m->output_offsets, m->n_output);
    s->keep[s->n_keep++] = c;
    return c;
}

static int write_variant(const char *in, const char *dir, const char *name, int64_t extra, int64_t fm_shift,
                         int64_t zc_shift)
{
    oa_graph *g = NULL;
    const oa_om_graph_info *gi = NULL;
    if (oa_om_read_graph(in, &g, &gi) != OA_OK) {
        fprintf(stderr, "hostile_gen: cannot read %s: %s\n", in, oa_error_take_messages());
        return 1;
    }
    int64_t zc = 0;
    (void)oa_attrs_get_int(&gi->model_attrs, "zero_copy_memory_size", &zc);
    oa_om_write_opts o;
    oa_om_graph_info_write_opts(gi, &o);
    shift_plan *s = calloc(1, sizeof(*s));
    if (s == NULL) {
        oa_graph_destroy(g);
        return 1;
    }
    s->orig = &gi->plan;
    s->zc_off = gi->plan.memory_size - zc;
    s->fm_shift = fm_shift;
    s->zc_shift = zc_shift;
    oa_om_mem_plan plan = {gi->plan.memory_size + extra, shift_node_mem, s};
    o.plan = &plan;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    const oa_status st = oa_om_write_graph(g, &o, path);
    if (st != OA_OK) {
        fprintf(stderr, "hostile_gen: cannot write %s: %s\n", path, oa_error_take_messages());
    }
    for (size_t i = 0; i < s->n_keep; i++) {
        free(s->keep[i]);
    }
    for (size_t i = 0; i < s->n_arrays; i++) {
        free(s->arrays[i]);
    }
    free(s);
    oa_graph_destroy(g);
    return st == OA_OK ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: hostile_gen IN.om OUTDIR\n");
        return 2;
    }
    int rc = 0;
    rc |= write_variant(argv[1], argv[2], "mem5g.om", (int64_t)5 << 30, 0, 0);
    rc |= write_variant(argv[1], argv[2], "mem2m.om", (int64_t)2 << 20, 0, 0);
    rc |= write_variant(argv[1], argv[2], "misalign.om", 64, 2, 64);
    rc |= write_variant(argv[1], argv[2], "shift4.om", 64, 4, 64);
    return rc;
}
