/* ort_run: run an ONNX model with ONNX Runtime (through oa_ort) from the
 * command line, write its outputs as raw .bin files plus a JSON sidecar, and
 * print the latency of ONNX Runtime's Run call. See bench/ort/README.md. */
#define _POSIX_C_SOURCE 200809L

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cpu_mask.h"
#include "ort_runner.h"

#define MAX_INPUTS 64

static const char *k_usage =
    "usage: ort_run MODEL.onnx [--in NAME=SOURCE[:DTYPE[:D0,D1,...]]]... [options]\n"
    "  SOURCE is a raw little-endian file, @random (uniform [0,1) floats, small\n"
    "  integers; fixed seed) or @zeros. DTYPE and shape may be left out when the\n"
    "  model fixes them. Every model input must be given.\n"
    "options:\n"
    "  --out-dir DIR      write <output>.bin for every output and DIR/outputs.json\n"
    "  --threads N        intra-op threads (default 0 = ONNX Runtime's default)\n"
    "  --inter N          inter-op threads (default 0 = ONNX Runtime's default)\n"
    "  --spin 0|1         session.{intra,inter}_op.allow_spinning (default: ORT's)\n"
    "  --opt-level L      graph optimisation 0|1|2|99 (default 99)\n"
    "  --parallel         ORT_PARALLEL execution mode (default sequential)\n"
    "  --profile PREFIX   ORT's profiler: per-node times in PREFIX_<date>_<time>.json\n"
    "  --warmup W         untimed runs first (default 0)\n"
    "  --repeat K         timed runs (default 1); outputs come from the last one\n"
    "  --lib PATH         libonnxruntime.so (default $OA_ORT_LIB or the npm copy)\n"
    "  --cpu LEVEL        run as on a CPU with only avx2|avx512|avx512_vnni|avx512_bf16 of this one's\n"
    "                     instruction set (CPUID masked: bench/common/README.md)\n"
    "  --info             print the model's inputs and outputs and exit\n";

typedef struct input_spec {
  char *name;
  char *source;
  oa_ort_tensor t;
} input_spec;

static int parse_int(const char *s, long lo, long hi, long *out) {
  char *end = NULL;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno != 0 || end == s || *end != '\0' || v < lo || v > hi) return -1;
  *out = v;
  return 0;
}

/* "1,3,224,224" -> dims; "" or "scalar" is rank 0. */
static int parse_dims(const char *s, oa_ort_tensor *t) {
  t->rank = 0;
  if (s[0] == '\0' || strcmp(s, "scalar") == 0) return 0;
  const char *p = s;
  for (;;) {
    if (t->rank >= OA_ORT_MAX_RANK) return -1;
    char *end = NULL;
    errno = 0;
    long long v = strtoll(p, &end, 10);
    if (errno != 0 || end == p || v < 0) return -1;
    t->dims[t->rank++] = (int64_t)v;
    if (*end == '\0') return 0;
    if (*end != ',') return -1;
    p = end + 1;
  }
}

static int is_dims_text(const char *s) {
  if (strcmp(s, "scalar") == 0) return 1;
  if (s[0] == '\0') return 0;
  for (; *s; s++)
    if (!((*s >= '0' && *s <= '9') || *s == ',')) return 0;
  return 1;
}

/* NAME=SOURCE[:DTYPE[:DIMS]]; dtype/dims are split off from the right so a
 * source path may itself contain ':'. */
static int parse_input(char *arg, input_spec *in, int *has_type, int *has_dims) {
  char *eq = strchr(arg, '=');
  if (eq == NULL || eq == arg) return -1;
  *eq = '\0';
  in->name = arg;
  in->source = eq + 1;
  *has_type = *has_dims = 0;
  char *c2 = strrchr(in->source, ':');
  if (c2 != NULL && is_dims_text(c2 + 1)) {
    char *c1 = c2;
    *c1 = '\0';
    char *c0 = strrchr(in->source, ':');
    if (c0 == NULL || oa_ort_dtype_from_name(c0 + 1) == OA_ORT_UNDEFINED) {
      *c1 = ':';
      return -1;
    }
    if (parse_dims(c2 + 1, &in->t) != 0) return -1;
    *has_dims = 1;
    *c0 = '\0';
    in->t.dtype = oa_ort_dtype_from_name(c0 + 1);
    *has_type = 1;
  } else if (c2 != NULL && oa_ort_dtype_from_name(c2 + 1) != OA_ORT_UNDEFINED) {
    *c2 = '\0';
    in->t.dtype = oa_ort_dtype_from_name(c2 + 1);
    *has_type = 1;
  }
  return in->source[0] ? 0 : -1;
}

static int read_file(const char *path, void *buf, size_t bytes) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) {
    fprintf(stderr, "ort_run: cannot open '%s': %s\n", path, strerror(errno));
    return -1;
  }
  struct stat st;
  if (fstat(fileno(f), &st) != 0 || (size_t)st.st_size != bytes) {
    fprintf(stderr, "ort_run: '%s' has %lld bytes, the input needs %zu\n", path,
            (long long)st.st_size, bytes);
    fclose(f);
    return -1;
  }
  size_t got = bytes ? fread(buf, 1, bytes, f) : 0;
  fclose(f);
  if (got != bytes) {
    fprintf(stderr, "ort_run: short read on '%s'\n", path);
    return -1;
  }
  return 0;
}

static uint32_t next_rand(uint64_t *state) {
  *state = *state * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(*state >> 33);
}

static void fill_random(oa_ort_tensor *t, uint64_t seed) {
  size_t es = oa_ort_dtype_size(t->dtype);
  size_t n = es ? t->bytes / es : 0;
  uint64_t st = seed;
  unsigned char *b = t->data;
  for (size_t i = 0; i < n; i++) {
    uint32_t r = next_rand(&st);
    switch (t->dtype) {
      case OA_ORT_FLOAT: {
        float v = (float)(r >> 8) / 16777216.0f;
        memcpy(b + i * 4, &v, 4);
        break;
      }
      case OA_ORT_DOUBLE: {
        double v = (double)r / 4294967296.0;
        memcpy(b + i * 8, &v, 8);
        break;
      }
      case OA_ORT_BOOL: b[i] = (unsigned char)(r & 1u); break;
      case OA_ORT_FLOAT16:
      case OA_ORT_BFLOAT16: break; /* left zero */
      default: {
        /* integers: 0..9, little-endian in the element's width */
        uint64_t v = r % 10u;
        memcpy(b + i * es, &v, es);
        break;
      }
    }
  }
}

static int mkdir_p(const char *dir) {
  char tmp[4096];
  size_t len = strlen(dir);
  if (len == 0 || len >= sizeof tmp) return -1;
  memcpy(tmp, dir, len + 1);
  for (char *p = tmp + 1; *p; p++) {
    if (*p == '/') {
      *p = '\0';
      if (mkdir(tmp, 0777) != 0 && errno != EEXIST) return -1;
      *p = '/';
    }
  }
  if (mkdir(tmp, 0777) != 0 && errno != EEXIST) return -1;
  return 0;
}

static void sanitize(const char *name, char *out, size_t cap) {
  size_t j = 0;
  for (const char *p = name; *p && j + 1 < cap; p++) {
    char ch = *p;
    int ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
             ch == '.' || ch == '_' || ch == '-';
    out[j++] = ok ? ch : '_';
  }
  if (j == 0) out[j++] = '_';
  out[j] = '\0';
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void print_value(const char *kind, size_t i, const oa_ort_value_info *v) {
  printf("%s %zu: %s %s [", kind, i, v->name, oa_ort_dtype_name(v->dtype));
  for (size_t d = 0; d < v->rank; d++) printf("%s%lld", d ? "," : "", (long long)v->dims[d]);
  printf("]\n");
}

static cJSON *shape_json(size_t rank, const int64_t *dims) {
  cJSON *a = cJSON_CreateArray();
  for (size_t d = 0; d < rank && a; d++) cJSON_AddItemToArray(a, cJSON_CreateNumber((double)dims[d]));
  return a;
}

static int write_outputs(const char *dir, const char *model, const oa_ort *ort,
                         const oa_ort_options *opts, const oa_ort_tensor *outs, size_t n,
                         const double *times, size_t repeat, size_t warmup) {
  if (mkdir_p(dir) != 0) {
    fprintf(stderr, "ort_run: cannot create '%s': %s\n", dir, strerror(errno));
    return -1;
  }
  cJSON *root = cJSON_CreateObject();
  cJSON_AddStringToObject(root, "model", model);
  cJSON_AddStringToObject(root, "ort_version", oa_ort_version(ort));
  cJSON *cfg = cJSON_AddObjectToObject(root, "config");
  cJSON_AddNumberToObject(cfg, "intra_threads", opts->intra_threads);
  cJSON_AddNumberToObject(cfg, "inter_threads", opts->inter_threads);
  cJSON_AddNumberToObject(cfg, "allow_spinning", opts->allow_spinning);
  cJSON_AddNumberToObject(cfg, "opt_level", opts->opt_level);
  cJSON_AddBoolToObject(cfg, "parallel", opts->parallel);
  cJSON *lat = cJSON_AddObjectToObject(root, "latency_ms");
  cJSON_AddNumberToObject(lat, "median", repeat ? times[repeat / 2] : 0);
  cJSON_AddNumberToObject(lat, "min", repeat ? times[0] : 0);
  cJSON_AddNumberToObject(lat, "max", repeat ? times[repeat - 1] : 0);
  cJSON_AddNumberToObject(lat, "repeat", (double)repeat);
  cJSON_AddNumberToObject(lat, "warmup", (double)warmup);
  cJSON *arr = cJSON_AddArrayToObject(root, "outputs");
  int rc = 0;
  char (*bases)[200] = calloc(n ? n : 1, sizeof *bases);
  if (bases == NULL) rc = -1;
  for (size_t i = 0; i < n && rc == 0; i++) {
    char file[256];
    sanitize(outs[i].name, bases[i], sizeof bases[i]);
    int dup = 0;
    for (size_t j = 0; j < i; j++) dup |= strcmp(bases[i], bases[j]) == 0;
    if (dup)
      snprintf(file, sizeof file, "%s_%zu.bin", bases[i], i);
    else
      snprintf(file, sizeof file, "%s.bin", bases[i]);
    char path[4096 + 300];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    FILE *f = fopen(path, "wb");
    if (f == NULL || (outs[i].bytes && fwrite(outs[i].data, 1, outs[i].bytes, f) != outs[i].bytes)) {
      fprintf(stderr, "ort_run: cannot write '%s': %s\n", path, strerror(errno));
      rc = -1;
    }
    if (f != NULL && fclose(f) != 0) rc = -1;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", outs[i].name);
    cJSON_AddStringToObject(o, "file", file);
    cJSON_AddStringToObject(o, "dtype", oa_ort_dtype_name(outs[i].dtype));
    cJSON_AddItemToObject(o, "shape", shape_json(outs[i].rank, outs[i].dims));
    cJSON_AddNumberToObject(o, "bytes", (double)outs[i].bytes);
    cJSON_AddItemToArray(arr, o);
  }
  free(bases);
  if (rc == 0) {
    char *text = cJSON_Print(root);
    char path[4096 + 32];
    snprintf(path, sizeof path, "%s/outputs.json", dir);
    FILE *f = fopen(path, "w");
    if (text == NULL || f == NULL || fputs(text, f) < 0 || fputc('\n', f) == EOF) rc = -1;
    if (f != NULL && fclose(f) != 0) rc = -1;
    if (rc != 0) fprintf(stderr, "ort_run: cannot write '%s'\n", path);
    free(text);
  }
  cJSON_Delete(root);
  return rc;
}

int main(int argc, char **argv) {
  const char *model = NULL, *out_dir = NULL, *lib = NULL;
  input_spec ins[MAX_INPUTS];
  int has_type[MAX_INPUTS], has_dims[MAX_INPUTS];
  size_t n_ins = 0;
  long warmup = 0, repeat = 1;
  int info_only = 0;
  const char *cpu_level = NULL;
  oa_ort_options opts;
  oa_ort_options_init(&opts);
  memset(ins, 0, sizeof ins);

  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *v = (i + 1 < argc) ? argv[i + 1] : NULL;
    long n = 0;
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      fputs(k_usage, stdout);
      return 0;
    } else if (strcmp(a, "--info") == 0) {
      info_only = 1;
    } else if (strcmp(a, "--parallel") == 0) {
      opts.parallel = 1;
    } else if (a[0] == '-' && a[1] == '-' && v == NULL) {
      fprintf(stderr, "ort_run: %s needs a value\n%s", a, k_usage);
      return 2;
    } else if (strcmp(a, "--in") == 0) {
      if (n_ins == MAX_INPUTS) {
        fprintf(stderr, "ort_run: at most %d inputs\n", MAX_INPUTS);
        return 2;
      }
      char shown[512];
      snprintf(shown, sizeof shown, "%s", v);
      if (parse_input(argv[++i], &ins[n_ins], &has_type[n_ins], &has_dims[n_ins]) != 0) {
        fprintf(stderr, "ort_run: bad --in '%s' (NAME=SOURCE[:DTYPE[:D0,D1,...]])\n", shown);
        return 2;
      }
      n_ins++;
    } else if (strcmp(a, "--out-dir") == 0) {
      out_dir = argv[++i];
    } else if (strcmp(a, "--lib") == 0) {
      lib = argv[++i];
    } else if (strcmp(a, "--profile") == 0) {
      opts.profile_prefix = argv[++i];
    } else if (strcmp(a, "--cpu") == 0) {
      cpu_level = argv[++i];
    } else if (strcmp(a, "--threads") == 0 && parse_int(v, 0, 1024, &n) == 0) {
      opts.intra_threads = (int)n;
      i++;
    } else if (strcmp(a, "--inter") == 0 && parse_int(v, 0, 1024, &n) == 0) {
      opts.inter_threads = (int)n;
      i++;
    } else if (strcmp(a, "--spin") == 0 && parse_int(v, 0, 1, &n) == 0) {
      opts.allow_spinning = (int)n;
      i++;
    } else if (strcmp(a, "--opt-level") == 0 && parse_int(v, 0, 99, &n) == 0) {
      opts.opt_level = (int)n;
      i++;
    } else if (strcmp(a, "--warmup") == 0 && parse_int(v, 0, 1000000, &n) == 0) {
      warmup = n;
      i++;
    } else if (strcmp(a, "--repeat") == 0 && parse_int(v, 1, 1000000, &n) == 0) {
      repeat = n;
      i++;
    } else if (a[0] != '-' && model == NULL) {
      model = a;
    } else {
      fprintf(stderr, "ort_run: bad argument '%s'%s%s\n%s", a, v ? " " : "", v ? v : "", k_usage);
      return 2;
    }
  }
  if (model == NULL) {
    fputs(k_usage, stderr);
    return 2;
  }

  if (bench_cpu_mask_option("ort_run", cpu_level) != 0) { /* before ORT reads CPUID */
    return 2;
  }
  int rc = 1;
  oa_ort *ort = oa_ort_open(lib);
  oa_ort_session *s = NULL;
  oa_ort_tensor *outs = NULL;
  double *times = NULL;
  size_t n_out = 0;
  if (ort == NULL) {
    fprintf(stderr, "ort_run: %s\n", oa_ort_last_error());
    return 1;
  }
  s = oa_ort_session_create(ort, model, &opts);
  if (s == NULL) {
    fprintf(stderr, "ort_run: %s\n", oa_ort_last_error());
    goto done;
  }
  if (info_only) {
    printf("ONNX Runtime %s (%s)\n", oa_ort_version(ort), oa_ort_lib_path(ort));
    for (size_t i = 0; i < oa_ort_input_count(s); i++) print_value("input", i, oa_ort_input_info(s, i));
    for (size_t i = 0; i < oa_ort_output_count(s); i++)
      print_value("output", i, oa_ort_output_info(s, i));
    rc = 0;
    goto done;
  }

  /* Inputs: complete dtype/shape from the model, check, load. */
  size_t n_model_in = oa_ort_input_count(s);
  for (size_t k = 0; k < n_model_in; k++) {
    const oa_ort_value_info *mi = oa_ort_input_info(s, k);
    int found = 0;
    for (size_t j = 0; j < n_ins; j++) found |= strcmp(ins[j].name, mi->name) == 0;
    if (!found) {
      fprintf(stderr, "ort_run: model input '%s' is not given (--in %s=...)\n", mi->name, mi->name);
      goto done;
    }
  }
  for (size_t j = 0; j < n_ins; j++) {
    input_spec *in = &ins[j];
    const oa_ort_value_info *mi = NULL;
    for (size_t k = 0; k < n_model_in; k++)
      if (strcmp(oa_ort_input_info(s, k)->name, in->name) == 0) mi = oa_ort_input_info(s, k);
    if (mi == NULL) {
      fprintf(stderr, "ort_run: the model has no input named '%s'\n", in->name);
      goto done;
    }
    if (!has_type[j]) in->t.dtype = mi->dtype;
    if (!has_dims[j]) {
      int fixed = mi->dtype != OA_ORT_UNDEFINED;
      for (size_t d = 0; d < mi->rank; d++) fixed &= mi->dims[d] >= 0;
      if (!fixed) {
        fprintf(stderr, "ort_run: input '%s' has no fixed shape in the model; give it: "
                        "--in %s=%s:DTYPE:D0,D1,...\n", in->name, in->name, in->source);
        goto done;
      }
      in->t.rank = mi->rank;
      memcpy(in->t.dims, mi->dims, sizeof mi->dims);
    }
    in->t.name = in->name;
    size_t es = oa_ort_dtype_size(in->t.dtype), bytes = es;
    for (size_t d = 0; d < in->t.rank && es; d++) {
      size_t dim = (size_t)in->t.dims[d];
      if (dim && bytes > SIZE_MAX / dim) es = 0;
      else bytes *= dim;
    }
    if (es == 0) {
      fprintf(stderr, "ort_run: input '%s': unsupported type or shape too large\n", in->name);
      goto done;
    }
    in->t.bytes = bytes;
    in->t.data = calloc(1, bytes ? bytes : 1);
    if (in->t.data == NULL) {
      fprintf(stderr, "ort_run: out of memory for input '%s'\n", in->name);
      goto done;
    }
    if (strcmp(in->source, "@zeros") == 0) {
      /* already zero */
    } else if (strcmp(in->source, "@random") == 0) {
      fill_random(&in->t, 0x5eed0000u + j);
    } else if (read_file(in->source, in->t.data, bytes) != 0) {
      goto done;
    }
  }

  oa_ort_tensor ts[MAX_INPUTS];
  for (size_t j = 0; j < n_ins; j++) ts[j] = ins[j].t;
  n_out = oa_ort_output_count(s);
  outs = calloc(n_out ? n_out : 1, sizeof *outs);
  times = calloc((size_t)repeat, sizeof *times);
  if (outs == NULL || times == NULL) {
    fprintf(stderr, "ort_run: out of memory\n");
    goto done;
  }
  for (long r = 0; r < warmup; r++) {
    if (oa_ort_run(s, ts, n_ins, NULL, 0) != 0) {
      fprintf(stderr, "ort_run: %s\n", oa_ort_last_error());
      goto done;
    }
  }
  for (long r = 0; r < repeat; r++) {
    int last = r == repeat - 1;
    if (last)
      for (size_t k = 0; k < n_out; k++) outs[k].name = oa_ort_output_info(s, k)->name;
    if (oa_ort_run(s, ts, n_ins, last ? outs : NULL, last ? n_out : 0) != 0) {
      fprintf(stderr, "ort_run: %s\n", oa_ort_last_error());
      goto done;
    }
    times[r] = oa_ort_last_run_ms(s);
  }
  qsort(times, (size_t)repeat, sizeof *times, cmp_double);
  printf("ort_run: %s: ONNX Runtime %s, intra %d, inter %d, spinning %s, opt %d: "
         "median %.3f ms, min %.3f ms, max %.3f ms over %ld runs (%ld warm-up)\n",
         model, oa_ort_version(ort), opts.intra_threads, opts.inter_threads,
         opts.allow_spinning < 0 ? "default" : (opts.allow_spinning ? "on" : "off"), opts.opt_level,
         times[repeat / 2], times[0], times[repeat - 1], repeat, warmup);
  for (size_t k = 0; k < n_out; k++) {
    oa_ort_value_info v = {.name = outs[k].name, .dtype = outs[k].dtype, .rank = outs[k].rank};
    memcpy(v.dims, outs[k].dims, sizeof v.dims);
    print_value("output", k, &v);
  }
  if (out_dir != NULL &&
      write_outputs(out_dir, model, ort, &opts, outs, n_out, times, (size_t)repeat, (size_t)warmup) != 0)
    goto done;
  rc = 0;
done:
  if (outs != NULL)
    for (size_t k = 0; k < n_out; k++)
      if (outs[k].owned) free(outs[k].data);
  free(outs);
  free(times);
  for (size_t j = 0; j < n_ins; j++) free(ins[j].t.data);
  oa_ort_session_destroy(s);
  oa_ort_close(ort);
  return rc;
}
