/*
 * libFuzzer harness: an ONNX model from an untrusted source through what atc
 * does with it: import from memory (no external data), compile with the
 * default options (static shapes from the model), write the .om with the
 * plan, and read the written file back, which must succeed (the writer
 * never produces a file the reader refuses). Seeds: ONNX backend suite node
 * models and tests/unit/model_v1/gen_fc_onnx.py's classifier.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atc_om.h"
#include "base/error.h"
#include "compiler/compiler.h"
#include "om/om_model.h"
#include "onnx/onnx_import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    oa_onnx_options io;
    oa_onnx_options_init(&io);
    oa_graph *g = NULL;
    if (oa_onnx_import_buffer(data, size, NULL, &io, &g) != OA_OK) {
        (void)oa_error_take_messages();
        return 0;
    }
    oa_compile_options opt;
    oa_compile_options_init(&opt);
    oa_compiled_model *cm = NULL;
    if (oa_compile_graph(g, &opt, &cm) == OA_OK) { /* takes g */
        char path[64];
        snprintf(path, sizeof path, "fuzz_onnx_%d.om", (int)getpid());
        const atc_om_info info = {"Ascend310P3", "atc --fuzz", false};
        if (atc_write_om(cm, &info, path) == OA_OK) {
            oa_om_model *m = NULL;
            if (oa_om_model_open_file(path, 0, &m) != OA_OK) {
                __builtin_trap(); /* the writer produced a file the reader refuses */
            }
            oa_om_model_destroy(m);
            unlink(path);
        }
        oa_compiled_model_destroy(cm);
    }
    (void)oa_error_take_messages();
    return 0;
}
