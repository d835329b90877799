/*
 * Writing operator dump files in CANN's layout and byte format
 * (docs/dump.md): the executors (model_v1, model_v2, single operators)
 * describe each executed operator with oa_dump_op and this module decides,
 * names and writes.
 *
 * Per execution:
 *   oa_dump_run r;
 *   if (oa_dump_enabled() && oa_dump_run_begin_model(&r, om, graph, id, step)) {   <- one branch per run
 *       for each op: if (oa_dump_run_selects(&r, type, name)) { ... oa_dump_run_write(&r, &op); }
 *       oa_dump_run_end(&r);
 *   }
 *
 * Files: {dump_path}/{time}/{device}/{model_name}/{model_id}/{step}/
 * {OpType}.{OpName}.{task_id}.{stream_id}.{timestamp} (single operators:
 * {dump_path}/{time}/{device}/{file}), each an 8-byte little-endian length,
 * a toolkit.dump.DumpData message (src/dump/proto/dump_data.proto), then
 * the bytes of every input and every output. dump_data "stats" writes
 * {file}.csv with per-tensor statistics instead.
 */
#ifndef OA_DUMP_DUMP_WRITE_H
#define OA_DUMP_DUMP_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"
#include "dump/dump_config.h"

/* One tensor of a dumped operator. */
typedef struct oa_dump_tensor {
    int32_t dtype;           /* aclDataType value */
    int32_t format;          /* aclFormat value (of the bytes as written) */
    int32_t rank;
    const int64_t *dims;     /* logical dims */
    const void *data;        /* NULL: the tensor is described with size 0 */
    uint64_t size;           /* bytes at data */
    int32_t nchwc_block;     /* > 0: data is NCHW blocked by this many channels; written as plain NCHW */
    const char *orig_name;   /* outputs: the framework op whose output this is (NULL: none) */
    uint32_t orig_index;
} oa_dump_tensor;

/* One executed operator. */
typedef struct oa_dump_op {
    const char *type;        /* GE op type */
    const char *name;        /* op name (post-fusion) */
    uint32_t task_id;
    uint32_t stream_id;
    const oa_dump_tensor *in;
    size_t n_in;
    const oa_dump_tensor *out;
    size_t n_out;
    const char *const *orig_names; /* the framework ops fused into this one (attr) */
    size_t n_orig;
} oa_dump_op;

typedef struct oa_dump_run {
    oa_dump_config *cfg;     /* private copy */
    const char *om_name;     /* borrowed, may be NULL */
    const char *graph_name;  /* borrowed, NULL for single operators */
    char dir[4096];          /* ends with '/' */
    bool inputs;
    bool outputs;
} oa_dump_run;

/* True while a data-dump configuration is active (a relaxed load: the per-run branch). */
bool oa_dump_enabled(void);

/*
 * Starts the dump of one execution of a model: om_name is the .om file's
 * base name without extension (NULL for memory loads), graph_name the
 * model's graph name, step the 0-based execution index. False (and r
 * unused) when nothing of this execution is dumped.
 */
bool oa_dump_run_begin_model(oa_dump_run *r, const char *om_name, const char *graph_name, uint32_t model_id,
                             uint64_t step);

/* Same for one single-operator execution (dump_op_switch "on"). */
bool oa_dump_run_begin_op(oa_dump_run *r);

/*
 * True when op (type, name) of this run is dumped. A `layer` list selects an
 * op by its name or by one of the framework ops fused into it (orig, n_orig;
 * docs/dump.md "Fused operators").
 */
bool oa_dump_run_selects(const oa_dump_run *r, const char *op_type, const char *op_name, const char *const *orig,
                         size_t n_orig);

/* Writes the dump file (or stats CSV) of op. Failures are logged and returned. */
oa_status oa_dump_run_write(oa_dump_run *r, const oa_dump_op *op);

void oa_dump_run_end(oa_dump_run *r);

#endif /* OA_DUMP_DUMP_WRITE_H */
