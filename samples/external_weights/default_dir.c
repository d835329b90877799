/*
 * ext_weights_default: runs a model compiled with `atc --external_weight=1`
 * (or 2) whose weight files sit where atc put them, in <model dir>/weight/.
 *
 *   ext_weights_default model.om [input.bin [output.bin]]
 *   ext_weights_default --weight-dir DIR model.om [input.bin [output.bin]]
 *
 * Without options the model is loaded with aclmdlLoadFromFile: the runtime
 * finds the files in <model dir>/weight/. With --weight-dir the model is
 * loaded from memory (aclmdlLoadWithConfig, ACL_MDL_LOAD_FROM_MEM) and the
 * files are taken from DIR (ACL_MDL_WEIGHT_PATH_PTR).
 */
#include "common.h"

int main(int argc, char **argv)
{
    const char *weight_dir = NULL;
    int a = 1;
    if (argc > 2 && strcmp(argv[1], "--weight-dir") == 0) {
        weight_dir = argv[2];
        a = 3;
    }
    if (argc - a < 1 || argc - a > 3) {
        fprintf(stderr, "usage: %s [--weight-dir DIR] model.om [input.bin [output.bin]]\n", argv[0]);
        return 2;
    }
    const char *om = argv[a];
    const char *input = argc - a > 1 ? argv[a + 1] : NULL;
    const char *output = argc - a > 2 ? argv[a + 2] : NULL;
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    uint32_t id = 0;
    void *image = NULL;
    if (weight_dir == NULL) {
        CHECK(aclmdlLoadFromFile(om, &id));
    } else {
        size_t size = 0;
        if ((image = read_file(om, &size)) == NULL) {
            return 1;
        }
        aclmdlConfigHandle *h = aclmdlCreateConfigHandle();
        size_t type = ACL_MDL_LOAD_FROM_MEM;
        CHECK(aclmdlSetConfigOpt(h, ACL_MDL_LOAD_TYPE_SIZET, &type, sizeof type));
        CHECK(aclmdlSetConfigOpt(h, ACL_MDL_MEM_ADDR_PTR, &image, sizeof image));
        CHECK(aclmdlSetConfigOpt(h, ACL_MDL_MEM_SIZET, &size, sizeof size));
        CHECK(aclmdlSetConfigOpt(h, ACL_MDL_WEIGHT_PATH_PTR, &weight_dir, sizeof weight_dir));
        CHECK(aclmdlLoadWithConfig(h, &id));
        CHECK(aclmdlDestroyConfigHandle(h));
    }
    printf("loaded %s as model %u (weights from %s)\n", om, id, weight_dir ? weight_dir : "<model dir>/weight/");
    aclError r = run_once(id, input, output);
    CHECK(aclmdlUnload(id));
    free(image);
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    return r == ACL_SUCCESS ? 0 : 1;
}
