/* oa_ort: ONNX Runtime through dlopen, for benchmarks and test oracles. */
#define _POSIX_C_SOURCE 200809L

#include "ort_runner.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ort_capi.h"

#ifndef OA_ORT_DEFAULT_LIB
#define OA_ORT_DEFAULT_LIB "node_modules/onnxruntime-node/bin/napi-v6/linux/x64/libonnxruntime.so.1"
#endif

struct oa_ort {
  void *dl;
  const ort_slot_fn *api;
  const char *version;
  OrtEnv *env;
  OrtMemoryInfo *cpu_mem;
  OrtAllocator *alloc; /* ORT's default allocator: shared, never released */
  char *path;
};

struct oa_ort_session {
  oa_ort *ort;
  OrtSession *sess;
  size_t n_in, n_out;
  oa_ort_value_info *in, *out;
  const char **in_names, **out_names;
  double last_run_ms;
};

/* ---- errors and bookkeeping ------------------------------------------------ */

static _Thread_local char g_err[2048];
static atomic_long g_live;

static void live_add(long n) { atomic_fetch_add(&g_live, n); }

long oa_ort_debug_live_objects(void) { return atomic_load(&g_live); }

const char *oa_ort_last_error(void) { return g_err; }

__attribute__((format(printf, 1, 2))) static int fail(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(g_err, sizeof g_err, fmt, ap);
  va_end(ap);
  return -1;
}

/* Consume a status: 0 for success, else record "<what>: <message>" and -1. */
static int check(const oa_ort *o, OrtStatus *st, const char *what) {
  if (st == NULL) return 0;
  const char *msg = ORT_FN(o->api, GetErrorMessage)(st);
  fail("%s: %s", what, msg ? msg : "(no message)");
  ORT_FN(o->api, ReleaseStatus)(st);
  return -1;
}

/* ---- element types --------------------------------------------------------- */

static const struct {
  int dtype;
  size_t size;
  const char *name;
} k_dtypes[] = {
    {OA_ORT_FLOAT, 4, "float32"},   {OA_ORT_UINT8, 1, "uint8"},     {OA_ORT_INT8, 1, "int8"},
    {OA_ORT_UINT16, 2, "uint16"},   {OA_ORT_INT16, 2, "int16"},     {OA_ORT_INT32, 4, "int32"},
    {OA_ORT_INT64, 8, "int64"},     {OA_ORT_BOOL, 1, "bool"},       {OA_ORT_FLOAT16, 2, "float16"},
    {OA_ORT_DOUBLE, 8, "float64"},  {OA_ORT_UINT32, 4, "uint32"},   {OA_ORT_UINT64, 8, "uint64"},
    {OA_ORT_BFLOAT16, 2, "bfloat16"},
};
#define N_DTYPES (sizeof k_dtypes / sizeof k_dtypes[0])

size_t oa_ort_dtype_size(int dtype) {
  for (size_t i = 0; i < N_DTYPES; i++)
    if (k_dtypes[i].dtype == dtype) return k_dtypes[i].size;
  return 0;
}

const char *oa_ort_dtype_name(int dtype) {
  if (dtype == OA_ORT_STRING) return "string";
  for (size_t i = 0; i < N_DTYPES; i++)
    if (k_dtypes[i].dtype == dtype) return k_dtypes[i].name;
  return "undefined";
}

int oa_ort_dtype_from_name(const char *name) {
  if (name == NULL) return OA_ORT_UNDEFINED;
  for (size_t i = 0; i < N_DTYPES; i++)
    if (strcmp(k_dtypes[i].name, name) == 0) return k_dtypes[i].dtype;
  if (strcmp(name, "float") == 0) return OA_ORT_FLOAT;
  if (strcmp(name, "double") == 0) return OA_ORT_DOUBLE;
  if (strcmp(name, "half") == 0) return OA_ORT_FLOAT16;
  return OA_ORT_UNDEFINED;
}

/* Byte size of a dense tensor; -1 on negative dims or overflow. */
static int tensor_bytes(int dtype, size_t rank, const int64_t *dims, size_t *out) {
  size_t n = oa_ort_dtype_size(dtype);
  if (n == 0) return -1;
  for (size_t i = 0; i < rank; i++) {
    if (dims[i] < 0) return -1;
    size_t d = (size_t)dims[i];
    if (d != 0 && n > SIZE_MAX / d) return -1;
    n *= d;
  }
  *out = n;
  return 0;
}

/* ---- library ---------------------------------------------------------------- */

const char *oa_ort_default_lib_path(void) {
  const char *env = getenv("OA_ORT_LIB");
  if (env != NULL && env[0] != '\0') return env;
  return OA_ORT_DEFAULT_LIB;
}

const char *oa_ort_version(const oa_ort *ort) { return ort ? ort->version : NULL; }
const char *oa_ort_lib_path(const oa_ort *ort) { return ort ? ort->path : NULL; }

/* The table must behave as the declared slots say: a status made with
 * CreateStatus reads back its code and message, and releases. */
static int self_check(const oa_ort *o) {
  const char *probe = "oa_ort slot probe";
  OrtStatus *st = ORT_FN(o->api, CreateStatus)(ORT_CODE_INVALID_ARGUMENT, probe);
  if (st == NULL) return fail("ONNX Runtime API table check failed: CreateStatus returned NULL");
  int code = ORT_FN(o->api, GetErrorCode)(st);
  const char *msg = ORT_FN(o->api, GetErrorMessage)(st);
  int ok = code == ORT_CODE_INVALID_ARGUMENT && msg != NULL && strcmp(msg, probe) == 0;
  ORT_FN(o->api, ReleaseStatus)(st);
  if (!ok) return fail("ONNX Runtime API table check failed: status round trip gave code %d", code);
  return 0;
}

oa_ort *oa_ort_open(const char *lib_path) {
  const char *path = lib_path ? lib_path : oa_ort_default_lib_path();
  oa_ort *o = calloc(1, sizeof *o);
  if (o == NULL) {
    fail("out of memory");
    return NULL;
  }
  o->path = strdup(path);
  if (o->path == NULL) {
    fail("out of memory");
    goto err;
  }
  /* ONNX Runtime 1.29+ starts a telemetry uploader in CreateEnv (a device id under ~/.cache, a
   * mat-debug-<pid>.log and a session file in $TMPDIR per process, network attempts); an oracle has
   * no business doing that. Its documented opt-out, unless the caller already chose. */
  setenv("ORT_DISABLE_TELEMETRY", "1", 0);
  o->dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (o->dl == NULL) {
    const char *e = dlerror();
    fail("cannot load ONNX Runtime from '%s': %s", path, e ? e : "unknown error");
    goto err;
  }
  ort_GetApiBase_fn get_base;
  *(void **)&get_base = dlsym(o->dl, ORT_ENTRY_SYMBOL);
  if (get_base == NULL) {
    fail("'%s' has no symbol %s: not an ONNX Runtime library", path, ORT_ENTRY_SYMBOL);
    goto err;
  }
  const OrtApiBase *base = get_base();
  if (base == NULL || base->GetApi == NULL || base->GetVersionString == NULL) {
    fail("%s() of '%s' returned no API base", ORT_ENTRY_SYMBOL, path);
    goto err;
  }
  o->version = base->GetVersionString();
  o->api = base->GetApi(ORT_REQUESTED_API_VERSION);
  if (o->api == NULL) {
    fail("ONNX Runtime %s at '%s' does not serve C API version %u", o->version ? o->version : "?",
         path, ORT_REQUESTED_API_VERSION);
    goto err;
  }
  if (self_check(o) != 0) goto err;
  if (check(o, ORT_FN(o->api, CreateEnv)(ORT_LOG_WARNING, "oa_ort", &o->env), "CreateEnv") != 0)
    goto err;
  live_add(1);
  if (check(o,
            ORT_FN(o->api, CreateCpuMemoryInfo)(ORT_ALLOCATOR_ARENA, ORT_MEMTYPE_DEFAULT,
                                                &o->cpu_mem),
            "CreateCpuMemoryInfo") != 0)
    goto err;
  live_add(1);
  if (check(o, ORT_FN(o->api, GetAllocatorWithDefaultOptions)(&o->alloc),
            "GetAllocatorWithDefaultOptions") != 0)
    goto err;
  return o;
err:
  oa_ort_close(o);
  return NULL;
}

void oa_ort_close(oa_ort *o) {
  if (o == NULL) return;
  if (o->api != NULL) {
    if (o->cpu_mem != NULL) {
      ORT_FN(o->api, ReleaseMemoryInfo)(o->cpu_mem);
      live_add(-1);
    }
    if (o->env != NULL) {
      ORT_FN(o->api, ReleaseEnv)(o->env);
      live_add(-1);
    }
  }
  /* o->dl is deliberately not closed: see the header. */
  free(o->path);
  free(o);
}

/* ---- sessions ---------------------------------------------------------------- */

void oa_ort_options_init(oa_ort_options *opts) {
  if (opts == NULL) return;
  opts->intra_threads = 0;
  opts->inter_threads = 0;
  opts->opt_level = ORT_OPT_ALL;
  opts->allow_spinning = -1;
  opts->parallel = 0;
  opts->profile_prefix = NULL;
}

static int configure(const oa_ort *o, OrtSessionOptions *so, const oa_ort_options *opts) {
  const ort_slot_fn *api = o->api;
  if (opts->intra_threads < 0 || opts->inter_threads < 0)
    return fail("thread counts must be >= 0 (got intra %d, inter %d)", opts->intra_threads,
                opts->inter_threads);
  if (opts->opt_level != 0 && opts->opt_level != 1 && opts->opt_level != 2 &&
      opts->opt_level != 99)
    return fail("graph optimisation level must be 0, 1, 2 or 99 (got %d)", opts->opt_level);
  if (opts->allow_spinning < -1 || opts->allow_spinning > 1)
    return fail("allow_spinning must be -1, 0 or 1 (got %d)", opts->allow_spinning);
  if (check(o, ORT_FN(api, SetIntraOpNumThreads)(so, opts->intra_threads), "SetIntraOpNumThreads"))
    return -1;
  if (check(o, ORT_FN(api, SetInterOpNumThreads)(so, opts->inter_threads), "SetInterOpNumThreads"))
    return -1;
  if (check(o, ORT_FN(api, SetSessionGraphOptimizationLevel)(so, opts->opt_level),
            "SetSessionGraphOptimizationLevel"))
    return -1;
  if (check(o,
            ORT_FN(api, SetSessionExecutionMode)(
                so, opts->parallel ? ORT_EXECUTION_PARALLEL : ORT_EXECUTION_SEQUENTIAL),
            "SetSessionExecutionMode"))
    return -1;
  if (opts->profile_prefix != NULL &&
      check(o, ORT_FN(api, EnableProfiling)(so, opts->profile_prefix), "EnableProfiling"))
    return -1;
  if (opts->allow_spinning >= 0) {
    const char *v = opts->allow_spinning ? "1" : "0";
    if (check(o, ORT_FN(api, AddSessionConfigEntry)(so, ORT_CFG_INTRA_OP_ALLOW_SPINNING, v),
              "AddSessionConfigEntry(" ORT_CFG_INTRA_OP_ALLOW_SPINNING ")"))
      return -1;
    if (check(o, ORT_FN(api, AddSessionConfigEntry)(so, ORT_CFG_INTER_OP_ALLOW_SPINNING, v),
              "AddSessionConfigEntry(" ORT_CFG_INTER_OP_ALLOW_SPINNING ")"))
      return -1;
  }
  return 0;
}

/* Fill info from the model's declaration of input/output idx. */
static int describe(const oa_ort_session *s, int output, size_t idx, oa_ort_value_info *info) {
  const oa_ort *o = s->ort;
  const ort_slot_fn *api = o->api;
  const char *what = output ? "output" : "input";
  char *name = NULL;
  OrtStatus *st = output ? ORT_FN(api, SessionGetOutputName)(s->sess, idx, o->alloc, &name)
                         : ORT_FN(api, SessionGetInputName)(s->sess, idx, o->alloc, &name);
  if (check(o, st, output ? "SessionGetOutputName" : "SessionGetInputName")) return -1;
  char *copy = strdup(name ? name : "");
  if (check(o, ORT_FN(api, AllocatorFree)(o->alloc, name), "AllocatorFree")) {
    free(copy);
    return -1;
  }
  if (copy == NULL) return fail("out of memory");
  info->name = copy;

  OrtTypeInfo *ti = NULL;
  st = output ? ORT_FN(api, SessionGetOutputTypeInfo)(s->sess, idx, &ti)
              : ORT_FN(api, SessionGetInputTypeInfo)(s->sess, idx, &ti);
  if (check(o, st, output ? "SessionGetOutputTypeInfo" : "SessionGetInputTypeInfo")) return -1;
  live_add(1);
  int rc = -1;
  int onnx_type = ORT_VALUE_TYPE_UNKNOWN;
  if (check(o, ORT_FN(api, GetOnnxTypeFromTypeInfo)(ti, &onnx_type), "GetOnnxTypeFromTypeInfo"))
    goto out;
  info->dtype = OA_ORT_UNDEFINED;
  info->rank = 0;
  if (onnx_type != ORT_VALUE_TYPE_TENSOR) {
    rc = 0; /* sequences, maps, ...: described as undefined */
    goto out;
  }
  const OrtTensorTypeAndShapeInfo *tsi = NULL;
  if (check(o, ORT_FN(api, CastTypeInfoToTensorInfo)(ti, &tsi), "CastTypeInfoToTensorInfo"))
    goto out;
  if (tsi == NULL) {
    rc = 0;
    goto out;
  }
  int et = 0;
  size_t rank = 0;
  if (check(o, ORT_FN(api, GetTensorElementType)(tsi, &et), "GetTensorElementType")) goto out;
  if (check(o, ORT_FN(api, GetDimensionsCount)(tsi, &rank), "GetDimensionsCount")) goto out;
  if (rank > OA_ORT_MAX_RANK) {
    fail("%s %zu ('%s') has rank %zu; oa_ort supports up to %d", what, idx, info->name, rank,
         OA_ORT_MAX_RANK);
    goto out;
  }
  if (check(o, ORT_FN(api, GetDimensions)(tsi, info->dims, rank), "GetDimensions")) goto out;
  for (size_t i = 0; i < rank; i++)
    if (info->dims[i] < 0) info->dims[i] = -1;
  info->dtype = et;
  info->rank = rank;
  rc = 0;
out:
  ORT_FN(api, ReleaseTypeInfo)(ti);
  live_add(-1);
  return rc;
}

oa_ort_session *oa_ort_session_create(oa_ort *o, const char *model_path,
                                      const oa_ort_options *opts) {
  if (o == NULL || model_path == NULL) {
    fail("oa_ort_session_create: %s is NULL", o == NULL ? "ort" : "model_path");
    return NULL;
  }
  oa_ort_options defaults;
  if (opts == NULL) {
    oa_ort_options_init(&defaults);
    opts = &defaults;
  }
  const ort_slot_fn *api = o->api;
  oa_ort_session *s = calloc(1, sizeof *s);
  if (s == NULL) {
    fail("out of memory");
    return NULL;
  }
  s->ort = o;
  OrtSessionOptions *so = NULL;
  if (check(o, ORT_FN(api, CreateSessionOptions)(&so), "CreateSessionOptions")) goto err;
  live_add(1);
  int rc = configure(o, so, opts);
  if (rc == 0) {
    OrtStatus *st = ORT_FN(api, CreateSession)(o->env, model_path, so, &s->sess);
    if (st != NULL) {
      char what[512];
      snprintf(what, sizeof what, "cannot load model '%s'", model_path);
      rc = check(o, st, what);
    } else {
      live_add(1);
    }
  }
  ORT_FN(api, ReleaseSessionOptions)(so);
  live_add(-1);
  if (rc != 0) goto err;

  if (check(o, ORT_FN(api, SessionGetInputCount)(s->sess, &s->n_in), "SessionGetInputCount") ||
      check(o, ORT_FN(api, SessionGetOutputCount)(s->sess, &s->n_out), "SessionGetOutputCount"))
    goto err;
  s->in = calloc(s->n_in ? s->n_in : 1, sizeof *s->in);
  s->out = calloc(s->n_out ? s->n_out : 1, sizeof *s->out);
  s->in_names = calloc(s->n_in ? s->n_in : 1, sizeof *s->in_names);
  s->out_names = calloc(s->n_out ? s->n_out : 1, sizeof *s->out_names);
  if (!s->in || !s->out || !s->in_names || !s->out_names) {
    fail("out of memory");
    goto err;
  }
  for (size_t i = 0; i < s->n_in; i++) {
    if (describe(s, 0, i, &s->in[i])) goto err;
    s->in_names[i] = s->in[i].name;
  }
  for (size_t i = 0; i < s->n_out; i++) {
    if (describe(s, 1, i, &s->out[i])) goto err;
    s->out_names[i] = s->out[i].name;
  }
  return s;
err:
  oa_ort_session_destroy(s);
  return NULL;
}

void oa_ort_session_destroy(oa_ort_session *s) {
  if (s == NULL) return;
  if (s->sess != NULL) {
    ORT_FN(s->ort->api, ReleaseSession)(s->sess);
    live_add(-1);
  }
  if (s->in != NULL)
    for (size_t i = 0; i < s->n_in; i++) free((void *)(uintptr_t)s->in[i].name);
  if (s->out != NULL)
    for (size_t i = 0; i < s->n_out; i++) free((void *)(uintptr_t)s->out[i].name);
  free(s->in);
  free(s->out);
  free(s->in_names);
  free(s->out_names);
  free(s);
}

size_t oa_ort_input_count(const oa_ort_session *s) { return s ? s->n_in : 0; }
size_t oa_ort_output_count(const oa_ort_session *s) { return s ? s->n_out : 0; }

const oa_ort_value_info *oa_ort_input_info(const oa_ort_session *s, size_t i) {
  return (s && i < s->n_in) ? &s->in[i] : NULL;
}

const oa_ort_value_info *oa_ort_output_info(const oa_ort_session *s, size_t i) {
  return (s && i < s->n_out) ? &s->out[i] : NULL;
}

double oa_ort_last_run_ms(const oa_ort_session *s) { return s ? s->last_run_ms : 0.0; }

/* ---- run --------------------------------------------------------------------- */

static long find_name(const oa_ort_value_info *infos, size_t n, const char *name) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(infos[i].name, name) == 0) return (long)i;
  return -1;
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Per-call scratch, all in one allocation. */
typedef struct run_ctx {
  const char **in_names;
  OrtValue **in_vals;
  const char **out_names;
  OrtValue **out_vals;
  long *out_idx;   /* model output index of each requested output */
  int *prebound;   /* 1 when out_vals[i] wraps the caller's buffer */
  int *allocated;  /* 1 when outputs[i].data was malloc'd by this call */
} run_ctx;

static void release_values(const oa_ort *o, OrtValue **vals, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (vals[i] != NULL) {
      ORT_FN(o->api, ReleaseValue)(vals[i]);
      live_add(-1);
      vals[i] = NULL;
    }
  }
}

static int wrap_input(const oa_ort_session *s, const oa_ort_tensor *t, size_t pos, run_ctx *c) {
  const oa_ort *o = s->ort;
  long idx;
  if (t->name != NULL) {
    idx = find_name(s->in, s->n_in, t->name);
    if (idx < 0) return fail("the model has no input named '%s'", t->name);
  } else {
    idx = (long)pos;
  }
  const oa_ort_value_info *info = &s->in[idx];
  for (size_t j = 0; j < pos; j++)
    if (c->in_names[j] == info->name) return fail("input '%s' is given twice", info->name);
  if (t->dtype == OA_ORT_STRING || oa_ort_dtype_size(t->dtype) == 0)
    return fail("input '%s': unsupported element type %d (%s)", info->name, t->dtype,
                oa_ort_dtype_name(t->dtype));
  if (info->dtype != OA_ORT_UNDEFINED && info->dtype != t->dtype)
    return fail("input '%s': model expects %s, got %s", info->name,
                oa_ort_dtype_name(info->dtype), oa_ort_dtype_name(t->dtype));
  if (t->rank > OA_ORT_MAX_RANK)
    return fail("input '%s': rank %zu exceeds %d", info->name, t->rank, OA_ORT_MAX_RANK);
  size_t need = 0;
  if (tensor_bytes(t->dtype, t->rank, t->dims, &need) != 0)
    return fail("input '%s': invalid shape (negative dimension or size overflow)", info->name);
  if (need != t->bytes)
    return fail("input '%s': shape and type need %zu bytes, %zu given", info->name, need,
                t->bytes);
  if (t->data == NULL && need != 0) return fail("input '%s': data is NULL", info->name);
  c->in_names[pos] = info->name;
  if (check(o,
            ORT_FN(o->api, CreateTensorWithDataAsOrtValue)(o->cpu_mem, t->data, t->bytes, t->dims,
                                                           t->rank, t->dtype, &c->in_vals[pos]),
            "CreateTensorWithDataAsOrtValue"))
    return -1;
  live_add(1);
  return 0;
}

/* Resolve requested output i; wrap the caller's buffer when the model fixes
 * the output's shape and the buffer is large enough. */
static int prepare_output(const oa_ort_session *s, const oa_ort_tensor *t, size_t pos,
                          run_ctx *c) {
  const oa_ort *o = s->ort;
  long idx;
  if (t->name != NULL) {
    idx = find_name(s->out, s->n_out, t->name);
    if (idx < 0) return fail("the model has no output named '%s'", t->name);
  } else {
    if (pos >= s->n_out) return fail("output %zu requested, the model has %zu", pos, s->n_out);
    idx = (long)pos;
  }
  for (size_t j = 0; j < pos; j++)
    if (c->out_idx[j] == idx) return fail("output '%s' is requested twice", s->out[idx].name);
  c->out_idx[pos] = idx;
  c->out_names[pos] = s->out[idx].name;
  const oa_ort_value_info *info = &s->out[idx];
  size_t need = 0;
  if (t->data == NULL || info->dtype == OA_ORT_UNDEFINED ||
      tensor_bytes(info->dtype, info->rank, info->dims, &need) != 0 || need > t->bytes)
    return 0; /* ORT allocates; copied (or handed over) after the run */
  if (check(o,
            ORT_FN(o->api, CreateTensorWithDataAsOrtValue)(o->cpu_mem, t->data, t->bytes,
                                                           info->dims, info->rank, info->dtype,
                                                           &c->out_vals[pos]),
            "CreateTensorWithDataAsOrtValue"))
    return -1;
  live_add(1);
  c->prebound[pos] = 1;
  return 0;
}

/* Describe ORT's result for output pos into t, moving data where asked. */
static int collect_output(const oa_ort_session *s, oa_ort_tensor *t, size_t pos, run_ctx *c) {
  const oa_ort *o = s->ort;
  const ort_slot_fn *api = o->api;
  const char *name = c->out_names[pos];
  OrtValue *v = c->out_vals[pos];
  if (v == NULL) return fail("output '%s': ONNX Runtime returned no value", name);
  OrtTensorTypeAndShapeInfo *tsi = NULL;
  if (check(o, ORT_FN(api, GetTensorTypeAndShape)(v, &tsi), "GetTensorTypeAndShape")) return -1;
  live_add(1);
  int rc = -1;
  int et = 0;
  size_t rank = 0;
  int64_t dims[OA_ORT_MAX_RANK] = {0};
  if (check(o, ORT_FN(api, GetTensorElementType)(tsi, &et), "GetTensorElementType")) goto out;
  if (check(o, ORT_FN(api, GetDimensionsCount)(tsi, &rank), "GetDimensionsCount")) goto out;
  if (rank > OA_ORT_MAX_RANK) {
    fail("output '%s' has rank %zu; oa_ort supports up to %d", name, rank, OA_ORT_MAX_RANK);
    goto out;
  }
  if (check(o, ORT_FN(api, GetDimensions)(tsi, dims, rank), "GetDimensions")) goto out;
  size_t bytes = 0;
  if (tensor_bytes(et, rank, dims, &bytes) != 0) {
    fail("output '%s': unsupported element type %d (%s)", name, et, oa_ort_dtype_name(et));
    goto out;
  }
  t->dtype = et;
  t->rank = rank;
  memcpy(t->dims, dims, sizeof dims);
  if (!c->prebound[pos]) {
    void *src = NULL;
    if (check(o, ORT_FN(api, GetTensorMutableData)(v, &src), "GetTensorMutableData")) goto out;
    if (t->data != NULL) {
      if (t->bytes < bytes) {
        fail("output '%s': the buffer holds %zu bytes, %zu needed", name, t->bytes, bytes);
        t->bytes = bytes;
        goto out;
      }
    } else {
      t->data = malloc(bytes ? bytes : 1);
      if (t->data == NULL) {
        fail("out of memory for output '%s' (%zu bytes)", name, bytes);
        goto out;
      }
      c->allocated[pos] = 1;
    }
    if (bytes) memcpy(t->data, src, bytes);
  }
  t->bytes = bytes;
  rc = 0;
out:
  ORT_FN(api, ReleaseTensorTypeAndShapeInfo)(tsi);
  live_add(-1);
  return rc;
}

int oa_ort_run(oa_ort_session *s, const oa_ort_tensor *inputs, size_t n_in,
               oa_ort_tensor *outputs, size_t n_out) {
  if (s == NULL) return fail("oa_ort_run: session is NULL");
  if (n_in != s->n_in)
    return fail("the model has %zu inputs, %zu given", s->n_in, n_in);
  if (n_in > 0 && inputs == NULL) return fail("oa_ort_run: inputs is NULL");
  if (n_out > 0 && outputs == NULL) return fail("oa_ort_run: outputs is NULL");
  if (n_out > s->n_out)
    return fail("%zu outputs requested, the model has %zu", n_out, s->n_out);
  const oa_ort *o = s->ort;
  int discard = n_out == 0;
  size_t n_req = discard ? s->n_out : n_out;
  if (n_req == 0) return fail("the model has no outputs");

  size_t ni = n_in ? n_in : 1;
  size_t sz = ni * (sizeof(char *) + sizeof(OrtValue *)) +
              n_req * (sizeof(char *) + sizeof(OrtValue *) + sizeof(long) + 2 * sizeof(int));
  char *mem = calloc(1, sz);
  if (mem == NULL) return fail("out of memory");
  run_ctx c;
  char *p = mem;
  c.in_names = (const char **)(void *)p; p += ni * sizeof(char *);
  c.in_vals = (OrtValue **)(void *)p; p += ni * sizeof(OrtValue *);
  c.out_names = (const char **)(void *)p; p += n_req * sizeof(char *);
  c.out_vals = (OrtValue **)(void *)p; p += n_req * sizeof(OrtValue *);
  c.out_idx = (long *)(void *)p; p += n_req * sizeof(long);
  c.prebound = (int *)(void *)p; p += n_req * sizeof(int);
  c.allocated = (int *)(void *)p;
  for (size_t i = 0; i < n_req; i++) c.out_idx[i] = -1;

  int rc = -1;
  for (size_t i = 0; i < n_in; i++)
    if (wrap_input(s, &inputs[i], i, &c)) goto done;
  if (discard) {
    for (size_t i = 0; i < n_req; i++) c.out_names[i] = s->out[i].name;
  } else {
    for (size_t i = 0; i < n_req; i++)
      if (prepare_output(s, &outputs[i], i, &c)) goto done;
  }
  double t0 = now_ms();
  OrtStatus *st = ORT_FN(o->api, Run)(s->sess, NULL, c.in_names, (const OrtValue *const *)c.in_vals,
                                      n_in, c.out_names, n_req, c.out_vals);
  double t1 = now_ms();
  /* Values ORT created for us are now ours to release. */
  for (size_t i = 0; i < n_req; i++)
    if (!c.prebound[i] && c.out_vals[i] != NULL) live_add(1);
  if (check(o, st, "Run")) goto done;
  s->last_run_ms = t1 - t0;

  if (!discard) {
    for (size_t i = 0; i < n_req; i++)
      if (collect_output(s, &outputs[i], i, &c)) goto done;
    for (size_t i = 0; i < n_req; i++) {
      outputs[i].owned = c.allocated[i];
      if (outputs[i].name == NULL) outputs[i].name = c.out_names[i];
    }
  }
  rc = 0;
done:
  if (rc != 0 && !discard) {
    for (size_t i = 0; i < n_req; i++) {
      if (c.allocated[i]) {
        free(outputs[i].data);
        outputs[i].data = NULL;
        outputs[i].owned = 0;
      }
    }
  }
  release_values(o, c.in_vals, n_in);
  release_values(o, c.out_vals, n_req);
  free(mem);
  return rc;
}
