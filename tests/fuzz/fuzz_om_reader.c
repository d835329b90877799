/*
 * libFuzzer harness for the .om reader: every entry point that takes an
 * untrusted image (open in both modes, size query, JSON dump, the
 * MODEL_INOUT_INFO and protobuf layers on their own) must return a status
 * and never crash, leak or read out of bounds. Properties checked as well:
 * a model that opens re-encodes to a MODEL_DEF that decodes again,
 * re-encoding is idempotent, and a model that converts to a graph is
 * written back into a file the reader opens.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "om/om_inout.h"
#include "om_ir/om_ir.h"
#include "om/om_json.h"
#include "om/om_model.h"
#include "om/om_query.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_reencode(Ge__Proto__ModelDef *def)
{
    uint8_t *a = NULL, *b = NULL;
    size_t al = 0, bl = 0;
    oa_om_arena *arena = NULL;
    if (oa_om_pb_encode(&def->base, &a, &al) != OA_OK || oa_om_arena_create(&arena) != OA_OK) {
        free(a);
        return;
    }
    ProtobufCMessage *again = NULL;
    if (oa_om_pb_decode(&ge__proto__model_def__descriptor, a, al, arena, OA_E_GE_LOAD_MODEL_PARTITION, "again",
                        &again) != OA_OK ||
        oa_om_pb_encode(again, &b, &bl) != OA_OK || al != bl || memcmp(a, b, al) != 0) {
        __builtin_trap(); /* encode(decode(encode(x))) != encode(x) */
    }
    free(a);
    free(b);
    oa_om_arena_destroy(arena);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* A private copy: the reader must never need more than [data, data + size). */
    uint8_t *img = malloc(size ? size : 1);
    if (img == NULL) {
        return 0;
    }
    memcpy(img, data, size);

    oa_om_model *m = NULL;
    if (oa_om_model_open_memory(img, size, 0, &m) == OA_OK) {
        for (uint32_t i = 0; i < m->num_models; ++i) {
            check_reencode(m->models[i].def);
        }
        oa_graph *g = NULL;
        const oa_om_graph_info *info = NULL;
        if (oa_om_graph_from_model(m, 0, &g, &info) == OA_OK) { /* consumes m */
            oa_om_write_opts o;
            oa_om_graph_info_write_opts(info, &o);
            uint8_t *out = NULL;
            size_t out_len = 0;
            if (oa_om_write_graph_memory(g, &o, &out, &out_len) == OA_OK) {
                oa_om_model *again = NULL;
                if (oa_om_model_open_memory(out, out_len, 0, &again) != OA_OK) {
                    __builtin_trap(); /* the writer produced a file the reader refuses */
                }
                oa_om_model_destroy(again);
                free(out);
            }
            oa_graph_destroy(g);
        }
    }
    if (oa_om_model_open_memory(img, size, OA_OM_OPEN_KEEP_COMPRESSED | OA_OM_OPEN_SKIP_TASK, &m) == OA_OK) {
        oa_om_model_destroy(m);
    }
    size_t work = 0, weight = 0;
    (void)oa_om_query_size_memory(img, size, &work, &weight);
    char *json = NULL;
    size_t jl = 0;
    if (oa_om_dump_json(img, size, size & 1 ? OA_OM_JSON_CANN : 0, &json, &jl) == OA_OK) {
        free(json);
    }
    /* The layers on their own, fed the raw bytes. */
    oa_om_arena *a = NULL;
    if (oa_om_arena_create(&a) == OA_OK) {
        oa_om_inout io;
        (void)oa_om_inout_parse(img, size, a, &io);
        ProtobufCMessage *msg = NULL;
        if (oa_om_pb_decode(&ge__proto__model_def__descriptor, img, size, a, OA_E_GE_LOAD_MODEL_PARTITION, "raw",
                            &msg) == OA_OK) {
            check_reencode((Ge__Proto__ModelDef *)msg);
        }
        oa_om_arena_destroy(a);
    }
    (void)oa_error_take_messages();
    free(img);
    return 0;
}
