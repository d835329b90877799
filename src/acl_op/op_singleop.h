/*
 * `atc --singleop`: CANN's JSON description of single operators -> one
 * single-op .om per operator (op_singleop.c has the format). Used by
 * tools/atc; calls no ACL-layer function.
 */
#ifndef OA_ACL_OP_OP_SINGLEOP_H
#define OA_ACL_OP_OP_SINGLEOP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"

typedef struct oa_singleop_opts {
    const char *out_dir;      /* created when missing (one level) */
    const char *soc_version;  /* model attr soc_version (NULL: none) */
    const char *atc_cmdline;  /* model attr atc_cmdline (NULL: none) */
    void (*on_written)(void *ctx, const char *path); /* optional, once per model */
    void *ctx;
} oa_singleop_opts;

/*
 * Builds every operator of the JSON text (a list), as CANN's atc does: the
 * whole list is parsed and checked first (OA_E_PARAM for a description
 * CANN's parser refuses, naming the op and tensor; nothing is written
 * then), then every operator is built and written, going on after one that
 * fails (the first failure is returned). *written: models written.
 */
oa_status oa_singleop_build(const char *json_text, size_t len, const oa_singleop_opts *o, size_t *written) OA_MUST_CHECK;

/* The GE numbers and dims of one tensor for the file name. */
typedef struct oa_singleop_tensor_name {
    int dtype, format;
    const int64_t *dims;
    size_t ndims;
} oa_singleop_tensor_name;

/* CANN's GenerateFileName (see op_singleop.c); buf receives "<stem>.om". */
void oa_singleop_file_name(const char *name, int index, const char *op, const oa_singleop_tensor_name *in, int n_in,
                           const oa_singleop_tensor_name *out, int n_out, char *buf, size_t cap);

#endif /* OA_ACL_OP_OP_SINGLEOP_H */
