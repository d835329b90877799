/* oa_ort against the real ONNX Runtime library: a tiny model with a numpy
 * reference (made by make_model.py at test time), a fixed-shape model for the
 * zero-copy output path, error handling, and the PP-OCR cls model.
 *
 * Environment: OA_ORT_TEST_DATA (make_model.py's output directory),
 * OA_ORT_CLS_MODEL (ch_ppocr_mobile_v2.0_cls_infer.onnx). Exits 77 (skipped)
 * only when the ONNX Runtime library file is missing. */
#define _DEFAULT_SOURCE

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <unistd.h>

#include <cmocka.h>

#include "ort_capi.h"
#include "ort_runner.h"

#define TN 2 /* batch used with tiny.onnx */

static oa_ort *g_ort;
static long g_live_before_open;

static const char *data_dir(void) {
  const char *d = getenv("OA_ORT_TEST_DATA");
  return d ? d : ".";
}

static void *load(const char *file, size_t bytes) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", data_dir(), file);
  FILE *f = fopen(path, "rb");
  if (f == NULL) fail_msg("cannot open %s", path);
  void *buf = malloc(bytes);
  assert_non_null(buf);
  size_t got = fread(buf, 1, bytes, f);
  int extra = fgetc(f);
  fclose(f);
  if (got != bytes || extra != EOF) fail_msg("%s is not %zu bytes", path, bytes);
  return buf;
}

static char *data_path(const char *file) {
  static char path[4096];
  snprintf(path, sizeof path, "%s/%s", data_dir(), file);
  return path;
}

static oa_ort_session *open_session(const char *file, int threads) {
  oa_ort_options o;
  oa_ort_options_init(&o);
  o.intra_threads = threads;
  o.inter_threads = 1;
  o.allow_spinning = 0;
  oa_ort_session *s = oa_ort_session_create(g_ort, data_path(file), &o);
  if (s == NULL) fail_msg("session for %s: %s", file, oa_ort_last_error());
  return s;
}

static void assert_close(const float *got, const float *want, size_t n) {
  for (size_t i = 0; i < n; i++) {
    float tol = 1e-4f + 1e-4f * fabsf(want[i]);
    if (!(fabsf(got[i] - want[i]) <= tol))
      fail_msg("element %zu: got %.7g, want %.7g", i, (double)got[i], (double)want[i]);
  }
}

static void assert_error_contains(const char *needle) {
  const char *e = oa_ort_last_error();
  if (strstr(e, needle) == NULL) fail_msg("error '%s' does not mention '%s'", e, needle);
}

static oa_ort_tensor tiny_input(float *x) {
  oa_ort_tensor t = {.name = "x", .dtype = OA_ORT_FLOAT, .rank = 4, .dims = {TN, 3, 8, 8},
                     .data = x, .bytes = sizeof(float) * TN * 3 * 8 * 8};
  return t;
}

/* ---- library ---------------------------------------------------------------- */

static void test_open_reports_missing_library(void **state) {
  (void)state;
  assert_null(oa_ort_open("/nonexistent/libonnxruntime.so.1"));
  assert_error_contains("/nonexistent/libonnxruntime.so.1");
}

static void test_open_rejects_other_library(void **state) {
  (void)state;
  /* libm is loaded and has no OrtGetApiBase. */
  assert_null(oa_ort_open("libm.so.6"));
  assert_error_contains(ORT_ENTRY_SYMBOL);
}

static void test_version_and_path(void **state) {
  (void)state;
  const char *v = oa_ort_version(g_ort);
  assert_non_null(v);
  assert_true(strncmp(v, "1.", 2) == 0);
  assert_string_equal(oa_ort_lib_path(g_ort), oa_ort_default_lib_path());
}

static void test_dtype_helpers(void **state) {
  (void)state;
  assert_int_equal(oa_ort_dtype_size(OA_ORT_FLOAT), 4);
  assert_int_equal(oa_ort_dtype_size(OA_ORT_INT64), 8);
  assert_int_equal(oa_ort_dtype_size(OA_ORT_FLOAT16), 2);
  assert_int_equal(oa_ort_dtype_size(OA_ORT_STRING), 0);
  assert_int_equal(oa_ort_dtype_size(99), 0);
  assert_string_equal(oa_ort_dtype_name(OA_ORT_UINT8), "uint8");
  assert_int_equal(oa_ort_dtype_from_name("float32"), OA_ORT_FLOAT);
  assert_int_equal(oa_ort_dtype_from_name("float"), OA_ORT_FLOAT);
  assert_int_equal(oa_ort_dtype_from_name("bool"), OA_ORT_BOOL);
  assert_int_equal(oa_ort_dtype_from_name("complex64"), OA_ORT_UNDEFINED);
}

/* The landmark slots from ONNX Runtime's own compile-time checks must lie
 * beyond every slot we use of an older version, and our highest slot must
 * fit the version we request. */
static void test_slot_landmarks(void **state) {
  (void)state;
  assert_true(ORT_SLOT_ReleaseSessionOptions < ORT_SLOT_LAST_OF_V1);
  assert_true(ORT_SLOT_LAST_OF_V4 < ORT_SLOT_AddSessionConfigEntry);
  assert_true(ORT_SLOT_AddSessionConfigEntry <= ORT_SLOT_LAST_OF_V5);
  assert_int_equal(ORT_REQUESTED_API_VERSION, 5);
}

/* ---- sessions -------------------------------------------------------------- */

static void test_session_missing_model(void **state) {
  (void)state;
  long live = oa_ort_debug_live_objects();
  assert_null(oa_ort_session_create(g_ort, "/nonexistent/model.onnx", NULL));
  assert_error_contains("/nonexistent/model.onnx");
  assert_int_equal(oa_ort_debug_live_objects(), live);
}

static void test_session_bad_options(void **state) {
  (void)state;
  oa_ort_options o;
  oa_ort_options_init(&o);
  o.opt_level = 5;
  assert_null(oa_ort_session_create(g_ort, data_path("tiny.onnx"), &o));
  assert_error_contains("optimisation level");
  oa_ort_options_init(&o);
  o.allow_spinning = 2;
  assert_null(oa_ort_session_create(g_ort, data_path("tiny.onnx"), &o));
  assert_error_contains("allow_spinning");
  oa_ort_options_init(&o);
  o.intra_threads = -1;
  assert_null(oa_ort_session_create(g_ort, data_path("tiny.onnx"), &o));
  assert_error_contains("thread");
}

static void test_tiny_model_info(void **state) {
  (void)state;
  oa_ort_session *s = open_session("tiny.onnx", 1);
  assert_int_equal(oa_ort_input_count(s), 1);
  assert_int_equal(oa_ort_output_count(s), 3);
  const oa_ort_value_info *x = oa_ort_input_info(s, 0);
  assert_string_equal(x->name, "x");
  assert_int_equal(x->dtype, OA_ORT_FLOAT);
  assert_int_equal(x->rank, 4);
  assert_int_equal(x->dims[0], -1); /* symbolic N */
  assert_int_equal(x->dims[1], 3);
  assert_int_equal(x->dims[3], 8);
  const char *names[] = {"feat", "logits", "cls"};
  const int types[] = {OA_ORT_FLOAT, OA_ORT_FLOAT, OA_ORT_INT64};
  const size_t ranks[] = {4, 2, 1};
  for (size_t i = 0; i < 3; i++) {
    const oa_ort_value_info *v = oa_ort_output_info(s, i);
    assert_string_equal(v->name, names[i]);
    assert_int_equal(v->dtype, types[i]);
    assert_int_equal(v->rank, ranks[i]);
    assert_int_equal(v->dims[0], -1);
  }
  assert_int_equal(oa_ort_output_info(s, 1)->dims[1], 10);
  assert_null(oa_ort_input_info(s, 1));
  assert_null(oa_ort_output_info(s, 3));
  oa_ort_session_destroy(s);
}

/* ---- runs ------------------------------------------------------------------- */

static void test_tiny_model_matches_numpy(void **state) {
  (void)state;
  oa_ort_session *s = open_session("tiny.onnx", 1);
  float *x = load("x.bin", sizeof(float) * TN * 3 * 64);
  float *feat = load("feat.bin", sizeof(float) * TN * 4 * 64);
  float *logits = load("logits.bin", sizeof(float) * TN * 10);
  int64_t *cls = load("cls.bin", sizeof(int64_t) * TN);
  oa_ort_tensor in = tiny_input(x);
  oa_ort_tensor out[3] = {{0}}; /* by position, malloc'd */
  if (oa_ort_run(s, &in, 1, out, 3) != 0) fail_msg("run: %s", oa_ort_last_error());
  assert_true(oa_ort_last_run_ms(s) > 0.0);

  assert_string_equal(out[0].name, "feat");
  assert_string_equal(out[2].name, "cls");
  assert_int_equal(out[0].dtype, OA_ORT_FLOAT);
  assert_int_equal(out[0].rank, 4);
  assert_int_equal(out[0].dims[0], TN);
  assert_int_equal(out[0].dims[1], 4);
  assert_int_equal(out[0].bytes, sizeof(float) * TN * 4 * 64);
  assert_int_equal(out[0].owned, 1);
  assert_close(out[0].data, feat, TN * 4 * 64);

  assert_int_equal(out[1].rank, 2);
  assert_int_equal(out[1].dims[1], 10);
  assert_close(out[1].data, logits, TN * 10);

  assert_int_equal(out[2].dtype, OA_ORT_INT64);
  assert_int_equal(out[2].rank, 1);
  assert_int_equal(out[2].dims[0], TN);
  assert_memory_equal(out[2].data, cls, sizeof(int64_t) * TN);

  for (int i = 0; i < 3; i++) free(out[i].data);
  free(x);
  free(feat);
  free(logits);
  free(cls);
  oa_ort_session_destroy(s);
}

static void test_tiny_model_two_threads_and_spinning(void **state) {
  (void)state;
  oa_ort_options o;
  oa_ort_options_init(&o);
  o.intra_threads = 2;
  o.inter_threads = 1;
  o.allow_spinning = 1;
  oa_ort_session *s = oa_ort_session_create(g_ort, data_path("tiny.onnx"), &o);
  if (s == NULL) fail_msg("%s", oa_ort_last_error());
  float *x = load("x.bin", sizeof(float) * TN * 3 * 64);
  float *logits = load("logits.bin", sizeof(float) * TN * 10);
  oa_ort_tensor in = tiny_input(x);
  oa_ort_tensor out = {.name = "logits"};
  for (int r = 0; r < 3; r++) {
    if (oa_ort_run(s, &in, 1, &out, 1) != 0) fail_msg("run: %s", oa_ort_last_error());
    assert_close(out.data, logits, TN * 10);
    free(out.data);
    out.data = NULL;
  }
  free(x);
  free(logits);
  oa_ort_session_destroy(s);
}

/* ORT's profiler (EnableProfiling): the session writes its trace when destroyed, under the prefix given,
 * with one kernel-time event per node run (ort_run --profile). */
static void test_profile_written_on_destroy(void **state) {
  (void)state;
  char dir[] = "/tmp/oa_ort_profile_XXXXXX";
  if (mkdtemp(dir) == NULL) fail_msg("mkdtemp failed");
  char prefix[256];
  snprintf(prefix, sizeof prefix, "%s/tiny", dir);
  oa_ort_options o;
  oa_ort_options_init(&o);
  o.intra_threads = 1;
  o.profile_prefix = prefix;
  oa_ort_session *s = oa_ort_session_create(g_ort, data_path("tiny.onnx"), &o);
  if (s == NULL) fail_msg("%s", oa_ort_last_error());
  float *x = load("x.bin", sizeof(float) * TN * 3 * 64);
  oa_ort_tensor in = tiny_input(x);
  oa_ort_tensor out = {.name = "logits"};
  if (oa_ort_run(s, &in, 1, &out, 1) != 0) fail_msg("run: %s", oa_ort_last_error());
  free(out.data);
  free(x);
  oa_ort_session_destroy(s);
  DIR *d = opendir(dir);
  assert_non_null(d);
  struct dirent *e;
  int files = 0;
  char path[512], text[1 << 16];
  size_t got = 0;
  while ((e = readdir(d)) != NULL) {
    if (strncmp(e->d_name, "tiny_", 5) != 0) continue;
    files++;
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    got = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[got] = '\0';
    unlink(path);
  }
  closedir(d);
  rmdir(dir);
  assert_int_equal(files, 1);
  assert_non_null(strstr(text, "{\"cat\" : \"Node\""));
  assert_non_null(strstr(text, "_kernel_time\""));
}

static void test_output_subset_into_caller_buffer(void **state) {
  (void)state;
  oa_ort_session *s = open_session("tiny.onnx", 1);
  float *x = load("x.bin", sizeof(float) * TN * 3 * 64);
  int64_t *cls = load("cls.bin", sizeof(int64_t) * TN);
  int64_t buf[TN + 3];
  memset(buf, 0x7f, sizeof buf);
  oa_ort_tensor in = tiny_input(x);
  oa_ort_tensor out = {.name = "cls", .data = buf, .bytes = sizeof buf};
  if (oa_ort_run(s, &in, 1, &out, 1) != 0) fail_msg("run: %s", oa_ort_last_error());
  assert_ptr_equal(out.data, buf);
  assert_int_equal(out.owned, 0);
  assert_int_equal(out.bytes, sizeof(int64_t) * TN);
  assert_memory_equal(buf, cls, sizeof(int64_t) * TN);
  assert_true(buf[TN] == 0x7f7f7f7f7f7f7f7fLL); /* untouched past the result */

  /* Too small a caller buffer: error with the needed size, no allocation. */
  int64_t small[1];
  oa_ort_tensor out2 = {.name = "cls", .data = small, .bytes = sizeof small};
  assert_int_equal(oa_ort_run(s, &in, 1, &out2, 1), -1);
  assert_error_contains("16 needed");
  assert_int_equal(out2.bytes, 16);
  assert_ptr_equal(out2.data, small);
  free(x);
  free(cls);
  oa_ort_session_destroy(s);
}

static void test_fixed_shape_output_is_written_in_place(void **state) {
  (void)state;
  oa_ort_session *s = open_session("static.onnx", 1);
  const oa_ort_value_info *b = oa_ort_output_info(s, 0);
  assert_int_equal(b->rank, 2);
  assert_int_equal(b->dims[0], 1);
  assert_int_equal(b->dims[1], 4);
  float a[4] = {0.0f, 1.0f, -2.5f, 10.0f};
  float res[4] = {0};
  oa_ort_tensor in = {.name = "a", .dtype = OA_ORT_FLOAT, .rank = 2, .dims = {1, 4},
                      .data = a, .bytes = sizeof a};
  oa_ort_tensor out = {.name = "b", .data = res, .bytes = sizeof res};
  if (oa_ort_run(s, &in, 1, &out, 1) != 0) fail_msg("run: %s", oa_ort_last_error());
  assert_ptr_equal(out.data, res);
  assert_int_equal(out.owned, 0);
  assert_int_equal(out.bytes, sizeof res);
  assert_int_equal(out.rank, 2);
  assert_int_equal(out.dims[1], 4);
  const float want[4] = {1.0f, 3.0f, -4.0f, 21.0f};
  assert_memory_equal(res, want, sizeof want);
  /* Discarding every output is allowed (benchmark loops). */
  assert_int_equal(oa_ort_run(s, &in, 1, NULL, 0), 0);
  oa_ort_session_destroy(s);
}

static void test_run_rejects_bad_requests(void **state) {
  (void)state;
  oa_ort_session *s = open_session("tiny.onnx", 1);
  long live = oa_ort_debug_live_objects();
  float *x = load("x.bin", sizeof(float) * TN * 3 * 64);
  oa_ort_tensor in = tiny_input(x);
  oa_ort_tensor out = {0};

  oa_ort_tensor bad = in;
  bad.name = "y";
  assert_int_equal(oa_ort_run(s, &bad, 1, &out, 1), -1);
  assert_error_contains("no input named 'y'");

  bad = in;
  bad.dtype = OA_ORT_DOUBLE;
  bad.bytes = in.bytes * 2;
  assert_int_equal(oa_ort_run(s, &bad, 1, &out, 1), -1);
  assert_error_contains("expects float32, got float64");

  bad = in;
  bad.bytes = in.bytes - 4;
  assert_int_equal(oa_ort_run(s, &bad, 1, &out, 1), -1);
  assert_error_contains("1536 bytes, 1532 given");

  bad = in;
  bad.dims[0] = -1;
  assert_int_equal(oa_ort_run(s, &bad, 1, &out, 1), -1);
  assert_error_contains("invalid shape");

  bad = in;
  bad.dims[2] = 4; /* the model wants 8x8: ORT itself refuses */
  bad.bytes = in.bytes / 2;
  assert_int_equal(oa_ort_run(s, &bad, 1, &out, 1), -1);
  assert_error_contains("Run:");

  assert_int_equal(oa_ort_run(s, &in, 0, &out, 1), -1);
  assert_error_contains("1 inputs, 0 given");

  oa_ort_tensor outs2[2] = {{.name = "cls"}, {.name = "cls"}};
  assert_int_equal(oa_ort_run(s, &in, 1, outs2, 2), -1);
  assert_error_contains("requested twice");

  oa_ort_tensor unknown = {.name = "nope"};
  assert_int_equal(oa_ort_run(s, &in, 1, &unknown, 1), -1);
  assert_error_contains("no output named 'nope'");

  oa_ort_tensor four[4] = {{0}};
  assert_int_equal(oa_ort_run(s, &in, 1, four, 4), -1);
  assert_error_contains("4 outputs requested, the model has 3");

  /* A failure after outputs were allocated leaves none behind: the second
   * output's caller buffer is too small, the first was malloc'd. */
  float tiny_buf[1];
  oa_ort_tensor mixed[2] = {{.name = "feat"}, {.name = "logits", .data = tiny_buf,
                                               .bytes = sizeof tiny_buf}};
  assert_int_equal(oa_ort_run(s, &in, 1, mixed, 2), -1);
  assert_null(mixed[0].data);
  assert_int_equal(mixed[0].owned, 0);

  assert_int_equal(oa_ort_run(NULL, &in, 1, &out, 1), -1);
  assert_int_equal(oa_ort_debug_live_objects(), live);
  free(x);
  oa_ort_session_destroy(s);
}

/* PP-OCR direction classifier: [1,3,48,192] -> softmax [1,2]. */
static void test_ppocr_cls_model(void **state) {
  (void)state;
  const char *model = getenv("OA_ORT_CLS_MODEL");
  assert_non_null(model);
  oa_ort_options o;
  oa_ort_options_init(&o);
  o.intra_threads = 1;
  o.allow_spinning = 0;
  oa_ort_session *s = oa_ort_session_create(g_ort, model, &o);
  if (s == NULL) fail_msg("%s", oa_ort_last_error());
  assert_int_equal(oa_ort_input_count(s), 1);
  assert_int_equal(oa_ort_output_count(s), 1);
  const oa_ort_value_info *xi = oa_ort_input_info(s, 0);
  assert_int_equal(xi->dtype, OA_ORT_FLOAT);
  assert_int_equal(xi->rank, 4);

  size_t n = 1 * 3 * 48 * 192;
  float *x = malloc(n * sizeof *x);
  assert_non_null(x);
  uint32_t r = 12345;
  for (size_t i = 0; i < n; i++) {
    r = r * 1664525u + 1013904223u;
    x[i] = (float)(r >> 8) / 16777216.0f * 2.0f - 1.0f; /* PP-OCR normalises to [-1,1] */
  }
  oa_ort_tensor in = {.name = xi->name, .dtype = OA_ORT_FLOAT, .rank = 4, .dims = {1, 3, 48, 192},
                      .data = x, .bytes = n * sizeof *x};
  oa_ort_tensor out = {0};
  if (oa_ort_run(s, &in, 1, &out, 1) != 0) fail_msg("run: %s", oa_ort_last_error());
  assert_int_equal(out.dtype, OA_ORT_FLOAT);
  assert_int_equal(out.rank, 2);
  assert_int_equal(out.dims[0], 1);
  assert_int_equal(out.dims[1], 2);
  const float *p = out.data;
  assert_true(p[0] >= 0.0f && p[0] <= 1.0f && p[1] >= 0.0f && p[1] <= 1.0f);
  if (fabsf(p[0] + p[1] - 1.0f) > 1e-4f) fail_msg("row sums to %g", (double)(p[0] + p[1]));
  free(out.data);
  free(x);
  oa_ort_session_destroy(s);
}

static void test_open_close_balances(void **state) {
  (void)state;
  long live = oa_ort_debug_live_objects();
  oa_ort *o = oa_ort_open(NULL);
  if (o == NULL) fail_msg("%s", oa_ort_last_error());
  assert_true(oa_ort_debug_live_objects() > live);
  oa_ort_close(o);
  oa_ort_close(NULL);
  oa_ort_session_destroy(NULL);
  assert_int_equal(oa_ort_debug_live_objects(), live);
}

static int group_setup(void **state) {
  (void)state;
  g_live_before_open = oa_ort_debug_live_objects();
  g_ort = oa_ort_open(NULL);
  if (g_ort == NULL) {
    fprintf(stderr, "oa_ort_open: %s\n", oa_ort_last_error());
    return -1;
  }
  return 0;
}

static int group_teardown(void **state) {
  (void)state;
  oa_ort_close(g_ort);
  g_ort = NULL;
  return 0;
}

int main(void) {
  const char *lib = oa_ort_default_lib_path();
  if (access(lib, R_OK) != 0) {
    printf("SKIP: ONNX Runtime library not found at %s (set OA_ORT_LIB)\n", lib);
    return 77;
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_open_reports_missing_library),
      cmocka_unit_test(test_open_rejects_other_library),
      cmocka_unit_test(test_version_and_path),
      cmocka_unit_test(test_dtype_helpers),
      cmocka_unit_test(test_slot_landmarks),
      cmocka_unit_test(test_session_missing_model),
      cmocka_unit_test(test_session_bad_options),
      cmocka_unit_test(test_tiny_model_info),
      cmocka_unit_test(test_tiny_model_matches_numpy),
      cmocka_unit_test(test_tiny_model_two_threads_and_spinning),
      cmocka_unit_test(test_profile_written_on_destroy),
      cmocka_unit_test(test_output_subset_into_caller_buffer),
      cmocka_unit_test(test_fixed_shape_output_is_written_in_place),
      cmocka_unit_test(test_run_rejects_bad_requests),
      cmocka_unit_test(test_ppocr_cls_model),
      cmocka_unit_test(test_open_close_balances),
  };
  int failed = cmocka_run_group_tests(tests, group_setup, group_teardown);
  long live = oa_ort_debug_live_objects();
  if (live != g_live_before_open) {
    fprintf(stderr, "oa_ort still holds %ld ONNX Runtime objects after teardown\n",
            live - g_live_before_open);
    return 1;
  }
  return failed ? 1 : 0;
}
