/*
 * Writes the seed corpus of the .om fuzzer: the reference model in every
 * container variant (tests/unit/om/om_testmodel.h) and its bare MODEL_DEF.
 *
 * usage: om_fuzz_seeds <corpus dir>
 */
#include <stdio.h>
#include <stdlib.h>

#include "om_testmodel.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s <corpus dir>\n", argv[0]);
        return 2;
    }
    int rc = 0;
    for (int v = 0; v < TM_VARIANT_COUNT && rc == 0; ++v) {
        uint8_t *img = NULL;
        size_t len = 0;
        char path[4096];
        (void)snprintf(path, sizeof(path), "%s/variant_%d.om", argv[1], v);
        rc = tm_build_image((tm_variant)v, &img, &len) || tm_write_file(path, img, len);
        free(img);
    }
    for (int c = 0; c < 2 && rc == 0; ++c) {
        uint8_t *def = NULL;
        size_t len = 0;
        char path[4096];
        (void)snprintf(path, sizeof(path), "%s/model_def_%d.bin", argv[1], c);
        rc = tm_build_model_def(c, &def, &len) || tm_write_file(path, def, len);
        free(def);
    }
    if (rc != 0) {
        fprintf(stderr, "%s: cannot write the seeds\n", argv[0]);
    }
    return rc != 0;
}
