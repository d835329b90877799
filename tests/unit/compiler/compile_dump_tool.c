/*
 * Debug helper (not a test): compiles an ONNX model like atc and prints the
 * resulting IR, the plan summary and the model attrs.
 *
 *   compile_dump_tool model.onnx [--input_shape=S] [--dynamic_batch_size=..]
 *       [--dynamic_image_size=..] [--dynamic_dims=..] [--input_shape_range=..]
 *       [--layout] [--no-fuse] [--no-fold] [--quiet]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "compiler/compiler.h"

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s model.onnx [options]\n", argv[0]);
        return 2;
    }
    oa_compile_options opt;
    oa_compile_options_init(&opt);
    bool quiet = false;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
#define OPT(name, field)                                \
    if (strncmp(a, name "=", strlen(name) + 1) == 0) {  \
        field = a + strlen(name) + 1;                   \
        continue;                                       \
    }
        OPT("--input_shape", opt.input_shape)
        OPT("--input_shape_range", opt.input_shape_range)
        OPT("--out_nodes", opt.out_nodes)
        OPT("--output_type", opt.output_type)
        OPT("--input_fp16_nodes", opt.input_fp16_nodes)
        if (strncmp(a, "--dynamic_batch_size=", 21) == 0) {
            opt.gear_kind = OA_GEAR_BATCH;
            opt.gears = a + 21;
        } else if (strncmp(a, "--dynamic_image_size=", 21) == 0) {
            opt.gear_kind = OA_GEAR_IMAGE;
            opt.gears = a + 21;
        } else if (strncmp(a, "--dynamic_dims=", 15) == 0) {
            opt.gear_kind = OA_GEAR_DIMS;
            opt.gears = a + 15;
        } else if (strcmp(a, "--layout") == 0) {
            opt.layout_nchwc = true;
        } else if (strcmp(a, "--no-fuse") == 0) {
            opt.disable |= OA_NO_FUSE;
        } else if (strcmp(a, "--no-fold") == 0) {
            opt.disable |= OA_NO_FOLD | OA_NO_BN_FOLD;
        } else if (strcmp(a, "--quiet") == 0) {
            quiet = true;
        } else {
            fprintf(stderr, "unknown option %s\n", a);
            return 2;
        }
    }
    oa_compiled_model *cm;
    oa_status st = oa_compile_onnx(argv[1], &opt, &cm);
    if (st != OA_OK) {
        const char *m = oa_error_take_messages();
        fprintf(stderr, "compile failed (%s): %s\n", oa_status_str(st), m ? m : "");
        return 1;
    }
    if (!quiet) {
        if (oa_graph_dump(cm->graph, stdout, OA_DUMP_DEFAULT) != OA_OK) {
            fprintf(stderr, "dump failed\n");
        }
    }
    printf("dynamic=%d gears=%zu nodes=%zu\n", cm->is_dynamic, cm->gear_count, oa_graph_num_nodes(cm->graph));
    for (size_t i = 0; i < cm->num_outputs; i++) {
        printf("output %zu: %s\n", i, cm->output_names[i]);
    }
    if (cm->plan) {
        printf("memory_size=%lld zero_copy=%lld fm=%lld naive=%zu inplace=%zu\n", (long long)cm->plan->memory_size,
               (long long)cm->plan->zero_copy_size, (long long)cm->plan->feature_map_size, cm->plan->stats.naive,
               cm->plan->stats.num_inplace);
        st = oa_compiled_model_check_plan(cm);
        if (st != OA_OK) {
            const char *m = oa_error_take_messages();
            fprintf(stderr, "plan check failed: %s\n", m ? m : "");
            oa_compiled_model_destroy(cm);
            return 1;
        }
        printf("plan check ok\n");
    }
    oa_compiled_model_destroy(cm);
    return 0;
}
