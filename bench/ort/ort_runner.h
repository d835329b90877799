/*
 * oa_ort: a small C API over ONNX Runtime's CPU C library, loaded at run
 * time with dlopen. Benchmark and test-oracle code only: it never links into
 * libascendcl, and nothing here needs ONNX Runtime's headers at build time.
 *
 *   oa_ort *ort = oa_ort_open(NULL);               // OA_ORT_LIB or the default path
 *   oa_ort_options o; oa_ort_options_init(&o);
 *   o.intra_threads = 1; o.allow_spinning = 0;
 *   oa_ort_session *s = oa_ort_session_create(ort, "model.onnx", &o);
 *   oa_ort_tensor in = {.name = "x", .dtype = OA_ORT_FLOAT, .rank = 4,
 *                       .dims = {1, 3, 48, 192}, .data = buf, .bytes = sz};
 *   oa_ort_tensor out = {0};                       // name NULL: output 0; data NULL: malloc'd
 *   if (oa_ort_run(s, &in, 1, &out, 1) != 0) puts(oa_ort_last_error());
 *   free(out.data);
 *   oa_ort_session_destroy(s); oa_ort_close(ort);
 *
 * Failing calls return -1 (or NULL) and leave a message for
 * oa_ort_last_error() (per thread). A session may be run from one thread at
 * a time.
 */
#ifndef OA_BENCH_ORT_RUNNER_H
#define OA_BENCH_ORT_RUNNER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define OA_ORT_MAX_RANK 8

/* Element types, numbered as ONNX TensorProto.DataType. */
typedef enum oa_ort_dtype {
  OA_ORT_UNDEFINED = 0,
  OA_ORT_FLOAT = 1,
  OA_ORT_UINT8 = 2,
  OA_ORT_INT8 = 3,
  OA_ORT_UINT16 = 4,
  OA_ORT_INT16 = 5,
  OA_ORT_INT32 = 6,
  OA_ORT_INT64 = 7,
  OA_ORT_STRING = 8, /* not supported by oa_ort_run */
  OA_ORT_BOOL = 9,
  OA_ORT_FLOAT16 = 10,
  OA_ORT_DOUBLE = 11,
  OA_ORT_UINT32 = 12,
  OA_ORT_UINT64 = 13,
  OA_ORT_BFLOAT16 = 16
} oa_ort_dtype;

/* Size in bytes of one element; 0 for unknown/unsupported types. */
size_t oa_ort_dtype_size(int dtype);
/* "float32", "int64", ...; "undefined" for unknown values. */
const char *oa_ort_dtype_name(int dtype);
/* Inverse of oa_ort_dtype_name (also accepts "float", "double", "half");
 * OA_ORT_UNDEFINED when the name is unknown. */
int oa_ort_dtype_from_name(const char *name);

/* Thread-local description of the last failure in this thread. */
const char *oa_ort_last_error(void);

typedef struct oa_ort oa_ort;
typedef struct oa_ort_session oa_ort_session;

/* The library path oa_ort_open(NULL) uses: $OA_ORT_LIB if set and non-empty,
 * else the npm onnxruntime-node copy under the source tree. */
const char *oa_ort_default_lib_path(void);

/* dlopen ONNX Runtime (lib_path NULL: oa_ort_default_lib_path()), fetch the
 * API table, check it, and create the ORT environment. */
oa_ort *oa_ort_open(const char *lib_path);
/* Releases the environment. The library stays mapped (ONNX Runtime does not
 * support being unloaded and reloaded in one process). Accepts NULL. */
void oa_ort_close(oa_ort *ort);
/* ONNX Runtime's version string, e.g. "1.30.0". */
const char *oa_ort_version(const oa_ort *ort);
/* The path that was loaded. */
const char *oa_ort_lib_path(const oa_ort *ort);

typedef struct oa_ort_options {
  int intra_threads;  /* threads inside one operator (incl. the caller); 0 = ORT default */
  int inter_threads;  /* threads across operators (parallel mode only); 0 = ORT default */
  int opt_level;      /* graph optimisation: 0, 1, 2 or 99 (all) */
  int allow_spinning; /* 1/0 set session.{intra,inter}_op.allow_spinning; -1 = ORT default */
  int parallel;       /* 1 = ORT_PARALLEL execution mode, 0 = sequential */
  const char *profile_prefix; /* non-NULL: ORT's profiler on, its JSON written as <prefix>_<date>_<time>.json
                               * when the session is destroyed (per-node times, `cat` "Node") */
} oa_ort_options;

/* Defaults: ORT's own thread defaults, opt level 99, spinning left to ORT,
 * sequential execution. */
void oa_ort_options_init(oa_ort_options *opts);

/* Load a model. opts NULL: oa_ort_options_init defaults. */
oa_ort_session *oa_ort_session_create(oa_ort *ort, const char *model_path,
                                      const oa_ort_options *opts);
void oa_ort_session_destroy(oa_ort_session *session); /* accepts NULL */

/* A model input/output as declared by the model. Dimensions that are not
 * fixed numbers (symbolic or unknown) are -1. A non-tensor value has
 * dtype OA_ORT_UNDEFINED and rank 0. */
typedef struct oa_ort_value_info {
  const char *name;
  int dtype;
  size_t rank;
  int64_t dims[OA_ORT_MAX_RANK];
} oa_ort_value_info;

size_t oa_ort_input_count(const oa_ort_session *session);
size_t oa_ort_output_count(const oa_ort_session *session);
/* NULL when index is out of range. Valid until the session is destroyed. */
const oa_ort_value_info *oa_ort_input_info(const oa_ort_session *session, size_t index);
const oa_ort_value_info *oa_ort_output_info(const oa_ort_session *session, size_t index);

/* A tensor passed to or returned from oa_ort_run. */
typedef struct oa_ort_tensor {
  const char *name; /* model input/output name; NULL = by position in the array */
  int dtype;        /* oa_ort_dtype */
  size_t rank;
  int64_t dims[OA_ORT_MAX_RANK];
  void *data;   /* input: the data. output: caller buffer, or NULL to get a malloc'd one */
  size_t bytes; /* input: size of data. output: capacity on entry, result size on return */
  int owned;    /* output: 1 when oa_ort_run malloc'd data (release with free()) */
} oa_ort_tensor;

/* Run the model once.
 * inputs: every model input, each with dtype, shape, data and exact byte size.
 * outputs: the outputs wanted (n_outputs >= 1), filled with dtype, rank,
 *   dims, bytes and data. A caller buffer (data != NULL) receives the result
 *   directly when the model declares a fixed shape for it (no copy), else by
 *   copy; too small a buffer is an error that reports the needed size in
 *   bytes. With data == NULL the result is malloc'd and owned is set.
 *   An output requested by position (name NULL) gets the model's name for it
 *   (valid while the session lives).
 *   n_outputs == 0 (outputs may be NULL) computes every output and discards it.
 * On failure no output keeps an allocation. Returns 0 or -1. */
int oa_ort_run(oa_ort_session *session, const oa_ort_tensor *inputs, size_t n_inputs,
               oa_ort_tensor *outputs, size_t n_outputs);

/* Wall time of the ONNX Runtime Run call alone (no input wrapping, no output
 * copies) in the last successful oa_ort_run, in milliseconds. */
double oa_ort_last_run_ms(const oa_ort_session *session);

/* Number of ONNX Runtime objects and strings oa_ort currently holds (env,
 * sessions, values, statuses, names, ...). Tests check it returns to its
 * starting value: ONNX Runtime's own allocations are outside LeakSanitizer's
 * view of our code, so this is how our handling of them is checked. */
long oa_ort_debug_live_objects(void);

#ifdef __cplusplus
}
#endif

#endif /* OA_BENCH_ORT_RUNNER_H */
