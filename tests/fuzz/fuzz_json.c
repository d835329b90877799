/*
 * libFuzzer harness for every JSON the library reads. The first byte picks
 * the reader, the rest is the text:
 *   0  aclInit on an acl.json file (then aclFinalize; the process forgets
 *      the first configuration between runs), everything aclInit applies:
 *      err_msg_mode, limits, default device, dump, profiler;
 *   1  the dump configuration ("dump" object of acl.json / aclmdlSetDump);
 *   2  the profiler configuration: the "profiler" object, then the same text
 *      as $PROFILER_SAMPLECONFIG; the session is cancelled (nothing written);
 *   3  a single-op JSON list (atc --singleop) built into ./singleop_out;
 *   4  an external-weight meta.json;
 *   5  ge.exec.value_bins.
 * Inputs naming absolute paths ('/') are skipped for the readers that
 * create directories (0, 2, 3): the run happens in a scratch directory
 * (tests/fuzz/run_fuzz.cmake) and must not create files elsewhere.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "acl/acl.h"
#include "acl_base/init_internal.h"
#include "acl_op/op_singleop.h"
#include "base/error.h"
#include "dump/dump_config.h"
#include "file_constant/fc_internal.h"
#include "file_constant/file_constant.h"
#include "prof/prof_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void acl_json(const char *text, size_t len)
{
    char path[64];
    snprintf(path, sizeof path, "fuzz_acl_%d.json", (int)getpid());
    FILE *f = fopen(path, "wb");
    if (f == NULL) {
        return;
    }
    const bool ok = fwrite(text, 1, len, f) == len;
    if (fclose(f) != 0 || !ok) {
        return;
    }
    if (aclInit(path) == ACL_SUCCESS) {
        if (aclFinalize() != ACL_SUCCESS) {
            __builtin_trap(); /* an initialised process must finalise */
        }
    }
    oa_acl_reset_for_tests();
    unlink(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) {
        return 0;
    }
    const unsigned which = data[0] % 6;
    const size_t len = size - 1;
    char *text = malloc(len + 1);
    if (text == NULL) {
        return 0;
    }
    memcpy(text, data + 1, len);
    text[len] = '\0';
    const bool has_slash = memchr(text, '/', len) != NULL;
    switch (which) {
    case 0:
        if (!has_slash) {
            acl_json(text, len);
        }
        break;
    case 1: {
        oa_dump_config *cfg = NULL;
        if (oa_dump_config_parse(text, len, "fuzz.json", &cfg) == OA_OK) {
            (void)oa_dump_config_selects(cfg, "model", "op");
            oa_dump_config_destroy(cfg);
        }
        break;
    }
    case 2:
        if (!has_slash) {
            cJSON *root = cJSON_ParseWithLength(text, len);
            if (oa_prof_apply_init_config(root, NULL) == OA_OK) {
                oa_prof_cancel_init_config();
            }
            cJSON_Delete(root);
            if (oa_prof_apply_init_config(NULL, text) == OA_OK) {
                oa_prof_cancel_init_config();
            }
        }
        break;
    case 3:
        if (!has_slash) {
            const oa_singleop_opts o = {.out_dir = "singleop_out", .soc_version = "Ascend310P3"};
            size_t written = 0;
            (void)oa_singleop_build(text, len, &o, &written);
        }
        break;
    case 4: {
        fc_meta m;
        fc_meta_init(&m);
        (void)fc_meta_parse(&m, text, len, "meta.json");
        fc_meta_deinit(&m);
        break;
    }
    default: {
        oa_fc_value_bins *bins = NULL;
        if (oa_fc_value_bins_parse(text, &bins) == OA_OK) {
            (void)oa_fc_value_bins_get(bins, "id");
            oa_fc_value_bins_destroy(bins);
        }
        break;
    }
    }
    (void)oa_error_take_messages();
    free(text);
    return 0;
}
