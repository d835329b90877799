/*
 * Test helpers: small, valid .om models built directly from protobuf-c
 * structs (everything allocated in a caller-owned arena), and the container
 * images around them. Shared by the om unit tests, the corrupt-file
 * generator (tests/corrupt) and the fuzz seed generator (tests/fuzz).
 */
#ifndef OA_TESTS_OM_TESTMODEL_H
#define OA_TESTS_OM_TESTMODEL_H

#include <stddef.h>
#include <stdint.h>

#include "om/om_arena.h"
#include "om/om_format.h"
#include "om/om_pb.h"

/* ---- builders (abort-free: they return NULL only when the arena is out of memory) ---- */

Ge__Proto__ModelDef *tm_model(oa_om_arena *a, const char *name);
Ge__Proto__GraphDef *tm_graph(oa_om_arena *a, Ge__Proto__ModelDef *m, const char *name);
Ge__Proto__OpDef *tm_op(oa_om_arena *a, Ge__Proto__GraphDef *g, const char *name, const char *type);
/* Appends "src" (e.g. "x:0", "" or "y:-1") to op->input. */
void tm_input(oa_om_arena *a, Ge__Proto__OpDef *op, const char *src);
/* A tensor description with proto dtype and dims (rank n). */
Ge__Proto__TensorDescriptor *tm_desc(oa_om_arena *a, int dtype, const int64_t *dims, size_t n);
void tm_add_input_desc(oa_om_arena *a, Ge__Proto__OpDef *op, Ge__Proto__TensorDescriptor *d);
void tm_add_output_desc(oa_om_arena *a, Ge__Proto__OpDef *op, Ge__Proto__TensorDescriptor *d);
/* Attribute setters on any attr map (pass &x->attr, &x->n_attr). */
Ge__Proto__AttrDef *tm_attr(oa_om_arena *a, Ge__Proto__AttrMapEntry ***attr, size_t *n, const char *key);
void tm_attr_i(oa_om_arena *a, Ge__Proto__AttrMapEntry ***attr, size_t *n, const char *key, int64_t v);
void tm_attr_s(oa_om_arena *a, Ge__Proto__AttrMapEntry ***attr, size_t *n, const char *key, const char *v);
void tm_attr_b(oa_om_arena *a, Ge__Proto__AttrMapEntry ***attr, size_t *n, const char *key, int v);
void tm_attr_list_i(oa_om_arena *a, Ge__Proto__AttrMapEntry ***attr, size_t *n, const char *key, const int64_t *v,
                    size_t count);
void tm_attr_list_s(oa_om_arena *a, Ge__Proto__AttrMapEntry ***attr, size_t *n, const char *key,
                    const char *const *v, size_t count);
void tm_subgraph(oa_om_arena *a, Ge__Proto__OpDef *op, const char *graph_name);

/*
 * The reference model "tm": graph "main" = Data x [1,4] f32 (index 0) ->
 * Add(x, Const w [4] f32, merged at WEIGHTS_DATA offset 512) ->
 * PartitionedCall pc (subgraph "sub": Data sx (index 0) -> NetOutput) ->
 * NetOutput out. String attributes on Add and on a tensor desc make the
 * compressor work. *weights gets the 1024-byte WEIGHTS_DATA blob
 * (arena-owned).
 */
Ge__Proto__ModelDef *tm_reference_model(oa_om_arena *a, const uint8_t **weights, size_t *weights_size);

typedef enum tm_variant {
    TM_STATIC = 0,     /* MODEL_INOUT_INFO, MODEL_DEF, WEIGHTS_DATA, TASK_INFO */
    TM_COMPRESSED = 1, /* as STATIC, attributes compressed as ATC does */
    TM_DYNAMIC = 2,    /* two tables: root (MODEL_DEF, TASK_INFO) and sub-model */
    TM_DEF_ONLY = 3,   /* one table with MODEL_DEF only */
    TM_VARIANT_COUNT = 4
} tm_variant;

/* A complete image of the given variant; the caller frees *img. 0 on success. */
int tm_build_image(tm_variant v, uint8_t **img, size_t *len);

/* The serialized reference ModelDef (caller frees), for protobuf-level tests. */
int tm_build_model_def(int compressed, uint8_t **buf, size_t *len);

/* A serialized domi.ModelTaskDef with this memory_size (caller frees). */
int tm_encode_task(uint64_t memory_size, uint8_t **buf, size_t *len);

/* The reference MODEL_INOUT_INFO blob (caller frees). */
int tm_encode_inout(uint8_t **buf, size_t *len);

/*
 * A single-table static image from raw partitions, in ATC order:
 * MODEL_INOUT_INFO, MODEL_DEF, WEIGHTS_DATA, TASK_INFO; a partition whose
 * length is 0 is left out. The caller frees *img.
 */
int tm_image_static(const void *def, size_t def_len, const void *weights, size_t weights_len, const void *task,
                    size_t task_len, const void *io, size_t io_len, uint8_t **img, size_t *len);

/* Encodes m and wraps it like TM_STATIC (reference weights, task, inout). */
int tm_image_from_model(Ge__Proto__ModelDef *m, const uint8_t *weights, size_t weights_len, uint8_t **img,
                        size_t *len);

/* Writes len bytes to path; 0 on success. */
int tm_write_file(const char *path, const void *data, size_t len);

#endif /* OA_TESTS_OM_TESTMODEL_H */
