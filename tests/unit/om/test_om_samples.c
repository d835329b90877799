/*
 * Real models through the whole om layer: for each ONNX file given on the
 * command line,
 *   ONNX --import--> IR --write--> .om  (checked: opens in the reader, passes
 *   the Netron checker, size query, JSON dump)
 *   .om --read--> IR' (checked: equal to IR) --write--> .om' (byte-identical).
 *
 * usage: test_om_samples <output dir> <model.onnx>...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "netron_check.h"
#include "om_ir/om_ir.h"
#include "om/om_json.h"
#include "om/om_query.h"
#include "om_ir_compare.h"
#include "onnx/onnx_import.h"

static int failf(const char *model, const char *step, oa_status st)
{
    const char *m = oa_error_take_messages();
    printf("FAIL %s: %s: %s %s\n", model, step, oa_status_str(st), m != NULL ? m : "");
    return 1;
}

static int read_file(const char *path, uint8_t **buf, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return -1;
    }
    int rc = -1;
    if (fseek(f, 0, SEEK_END) == 0) {
        long n = ftell(f);
        if (n > 0 && fseek(f, 0, SEEK_SET) == 0) {
            *buf = malloc((size_t)n);
            if (*buf != NULL && fread(*buf, 1, (size_t)n, f) == (size_t)n) {
                *len = (size_t)n;
                rc = 0;
            }
        }
    }
    fclose(f);
    return rc;
}

static int one_model(const char *dir, const char *model)
{
    const char *base = strrchr(model, '/');
    base = base != NULL ? base + 1 : model;
    char om[4096];
    (void)snprintf(om, sizeof(om), "%s/%.*s.om", dir, (int)(strcspn(base, ".")), base);

    oa_graph *g = NULL;
    oa_status st = oa_onnx_import_file(model, NULL, &g);
    if (st != OA_OK) {
        return failf(model, "import", st);
    }
    oa_om_write_opts o;
    oa_om_write_opts_init(&o);
    o.framework_type = "Onnx";
    o.soc_version = "Ascend310";
    o.atc_cmdline = "atc --framework=5";
    st = oa_om_write_graph(g, &o, om);
    if (st != OA_OK) {
        oa_graph_destroy(g);
        return failf(model, "write", st);
    }
    int bad = 0;
    uint8_t *img = NULL;
    size_t len = 0;
    if (read_file(om, &img, &len) != 0) {
        printf("FAIL %s: cannot read back %s\n", model, om);
        oa_graph_destroy(g);
        return 1;
    }
    char msg[512];
    if (netron_check(img, len, msg, sizeof(msg)) != 0) {
        printf("FAIL %s: Netron: %s\n", model, msg);
        bad++;
    }
    size_t work = 0, weight = 0;
    st = oa_om_query_size_file(om, &work, &weight);
    if (st != OA_OK) {
        bad += failf(model, "query", st);
    }
    char *json = NULL;
    size_t jl = 0;
    st = oa_om_dump_json(img, len, OA_OM_JSON_CANN, &json, &jl);
    if (st != OA_OK || jl == 0) {
        bad += failf(model, "json", st);
    }
    free(json);

    oa_graph *back = NULL;
    const oa_om_graph_info *info = NULL;
    st = oa_om_read_graph(om, &back, &info);
    if (st != OA_OK) {
        bad += failf(model, "read", st);
    } else {
        if (om_ir_compare(g, back, msg, sizeof(msg)) != 0) {
            printf("FAIL %s: the graph read back differs: %s\n", model, msg);
            bad++;
        }
        oa_om_write_opts o2;
        oa_om_graph_info_write_opts(info, &o2);
        uint8_t *again = NULL;
        size_t again_len = 0;
        st = oa_om_write_graph_memory(back, &o2, &again, &again_len);
        if (st != OA_OK) {
            bad += failf(model, "write again", st);
        } else if (again_len != len || memcmp(again, img, len) != 0) {
            size_t i = 0;
            while (i < len && i < again_len && again[i] == img[i]) {
                ++i;
            }
            printf("FAIL %s: second file differs at byte %zu (%zu vs %zu bytes)\n", model, i, again_len, len);
            bad++;
        }
        free(again);
        oa_graph_destroy(back);
    }
    if (bad == 0) {
        printf("ok   %s: %zu bytes, %zu graph nodes, weights %zu, work %zu\n", base, len, oa_graph_num_nodes(g),
               weight, work);
    }
    free(img);
    oa_graph_destroy(g);
    return bad;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s <output dir> <model.onnx>...\n", argv[0]);
        return 2;
    }
    int bad = 0;
    for (int i = 2; i < argc; ++i) {
        bad += one_model(argv[1], argv[i]);
    }
    return bad != 0;
}
