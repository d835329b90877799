/*
 * Debug helper (built with the tests, not installed): imports an ONNX model
 * and prints the IR dump, or only the graph outputs.
 *
 *   onnx_dump_tool model.onnx [--input_shape=SPEC] [--outputs] [--values]
 *                             [--map-external] [--no-infer]
 *
 * Exit status 0 on success, 1 on import failure (the error is printed).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "graph/infer.h"
#include "onnx/onnx_import.h"

int main(int argc, char **argv)
{
    const char *path = NULL;
    oa_onnx_options opt;
    oa_onnx_options_init(&opt);
    bool outputs_only = false;
    unsigned flags = 0;
    for (int i = 1; i < argc; i++) {
        if (strncmp(argv[i], "--input_shape=", 14) == 0) {
            opt.input_shape = argv[i] + 14;
        } else if (strcmp(argv[i], "--outputs") == 0) {
            outputs_only = true;
        } else if (strcmp(argv[i], "--values") == 0) {
            flags |= OA_DUMP_VALUES;
        } else if (strcmp(argv[i], "--map-external") == 0) {
            opt.map_external_data = true;
        } else if (strcmp(argv[i], "--no-infer") == 0) {
            opt.skip_infer = true;
        } else {
            path = argv[i];
        }
    }
    if (path == NULL) {
        fprintf(stderr, "usage: %s model.onnx [--input_shape=SPEC] [--outputs] [--values]\n", argv[0]);
        return 2;
    }
    oa_graph *g;
    oa_status st = oa_onnx_import_file(path, &opt, &g);
    if (st != OA_OK) {
        const char *msg = oa_error_take_messages();
        fprintf(stderr, "import failed (%s): %s\n", oa_status_str(st), msg ? msg : "");
        return 1;
    }
    if (outputs_only) {
        for (uint32_t i = 0; i < oa_graph_num_outputs(g); i++) {
            char buf[256];
            printf("%s %s\n", oa_graph_output_name(g, i), oa_desc_str(oa_graph_output_desc(g, i), buf, sizeof(buf)));
        }
        const oa_node *dyn;
        printf("fully_static=%d", oa_graph_fully_static(g, &dyn));
        if (dyn) {
            printf(" first_dynamic=%s", dyn->name);
        }
        printf(" nodes=%zu\n", oa_graph_num_nodes(g));
    } else if (oa_graph_dump(g, stdout, flags) != OA_OK) {
        oa_graph_destroy(g);
        return 1;
    }
    oa_graph_destroy(g);
    return 0;
}
