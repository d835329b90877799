/*
 * Operator dump end to end through the public API (docs/dump.md): a static
 * model (model_v1), a dynamic-shape model (model_v2) and single operators
 * run with dump on; every file is parsed with dump_reader.h (a reader of
 * our own, independent of the writer) and checked against the run's real
 * inputs and outputs; stats mode; bad configurations.
 *
 *   test_dump_run SCENARIO MODELS_DIR WORK_DIR
 *     SCENARIO: static | dynamic | op | stats | bad
 *     MODELS_DIR holds ew/fc.om and ew/fc_dyn.om (fixture v1_ew_models)
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <ftw.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "support/acl_checks.h"
#include "unit/dump/dump_reader.h"
#include "unit/model_v1/fc_model_run.h"

#include "acl/acl.h"
#include "acl/acl_op_compiler.h"
#include "acl/acl_prof.h"
#include "acl/acl_dump.h"
#include <cjson/cJSON.h>

static const char *g_models;
static char g_work[1024];
static char g_dump[1100];

/* ---- helpers ---- */

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void copy_file(const char *from, const char *to)
{
    FILE *a = fopen(from, "rb"), *b = fopen(to, "wb");
    assert_non_null(a);
    assert_non_null(b);
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, a)) > 0) {
        assert_int_equal(fwrite(buf, 1, n, b), n);
    }
    fclose(a);
    fclose(b);
}

/* Every regular file under root. */
static char g_files[256][1024];
static int g_n_files;

static int collect(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)ftw;
    if (flag == FTW_F && g_n_files < 256) {
        snprintf(g_files[g_n_files++], sizeof g_files[0], "%s", path);
    }
    return 0;
}

static void list_files(const char *root)
{
    g_n_files = 0;
    assert_int_equal(nftw(root, collect, 16, FTW_PHYS), 0);
}

/* The only entry of dir (a directory level of the dump tree). */
static void only_entry(const char *dir, char *out, size_t cap)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] != '.') {
            snprintf(out, cap, "%s", e->d_name);
            ++n;
        }
    }
    closedir(d);
    if (n != 1) {
        fail_msg("%s has %d entries, want 1", dir, n);
    }
}

static bool all_digits(const char *s, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        if (s[i] < '0' || s[i] > '9') {
            return false;
        }
    }
    return n > 0;
}

/*
 * Checks the file name {OpType}.{OpName}.{task}.{stream}.{timestamp} (16-digit µs equal to dump_time),
 * the header and the tensors of a parsed file (float32 tensors of size prod(shape) * 4).
 */
static void check_file(const char *path, const dr_file *f)
{
    const char *base = strrchr(path, '/') + 1;
    const char *dots[4];
    const char *p = base;
    for (int i = 0; i < 4; ++i) {
        dots[i] = strchr(p, '.');
        if (dots[i] == NULL) {
            fail_msg("file name %s has fewer than 5 parts", base);
        }
        p = dots[i] + 1;
    }
    assert_null(strchr(p, '.'));
    assert_true(all_digits(dots[1] + 1, (size_t)(dots[2] - dots[1] - 1)));
    assert_true(all_digits(dots[2] + 1, (size_t)(dots[3] - dots[2] - 1)));
    assert_int_equal(strlen(p), 16);
    assert_true(all_digits(p, 16));
    assert_int_equal(strtoull(p, NULL, 10), f->dump_time);
    assert_string_equal(f->version, "2.0");
    assert_true(f->op_name[0] != '\0');
    for (int i = 0; i < f->n_in + f->n_out; ++i) {
        const dr_tensor *t = i < f->n_in ? &f->in[i] : &f->out[i - f->n_in];
        uint64_t numel = 1;
        for (int d = 0; d < t->rank; ++d) {
            numel *= t->dims[d];
        }
        if (t->data_type == 1) { /* DT_FLOAT */
            assert_int_equal(t->size, numel * 4);
        }
    }
}

static void init_with(const char *json)
{
    char cfg[1200];
    snprintf(cfg, sizeof cfg, "%s/acl.json", g_work);
    write_text(cfg, json);
    OK_ACL(aclInit(cfg));
    OK_ACL(aclrtSetDevice(0));
}

static void finish(void)
{
    OK_ACL(aclrtResetDevice(0));
    OK_ACL(aclFinalize());
}

/* ---- scenarios ---- */

/* Static model, acl.json, model_name = the .om file's name, dump_mode all, dump_step "1". */
static void dump_static(void **state)
{
    (void)state;
    char om[1200], json[4096];
    snprintf(om, sizeof om, "%s/mynet.om", g_work);
    char src[1200];
    snprintf(src, sizeof src, "%s/ew/fc.om", g_models);
    copy_file(src, om);
    snprintf(json, sizeof json,
             "{\"dump\":{\"dump_path\":\"%s\",\"dump_mode\":\"all\",\"dump_step\":\"1\","
             "\"dump_list\":[{\"model_name\":\"mynet\"}]}}",
             g_dump);
    init_with(json);
    uint32_t id = 0;
    OK_ACL(aclmdlLoadFromFile(om, &id));
    float x0[K1], x1[K1], y0[N2], y1[N2];
    fc_input(x0, 1);
    for (int i = 0; i < K1; ++i) {
        x1[i] = -2.0f * x0[i] + 0.25f;
    }
    fc_run(id, 1, false, x0, y0);
    fc_run(id, 1, false, x1, y1); /* step 1: the only one dumped */
    OK_ACL(aclmdlUnload(id));
    finish();

    /* {dump_path}/{time}/0/mynet/{id}/1/ */
    char level[256], dir[2400];
    only_entry(g_dump, level, sizeof level);
    assert_int_equal(strlen(level), 14);
    assert_true(all_digits(level, 14));
    snprintf(dir, sizeof dir, "%s/%s", g_dump, level);
    only_entry(dir, level, sizeof level);
    assert_string_equal(level, "0");
    strcat(dir, "/0");
    only_entry(dir, level, sizeof level);
    assert_string_equal(level, "mynet");
    strcat(dir, "/mynet");
    only_entry(dir, level, sizeof level);
    assert_int_equal(strtoul(level, NULL, 10), id);
    strcat(dir, "/");
    strcat(dir, level);
    only_entry(dir, level, sizeof level);
    assert_string_equal(level, "1");
    strcat(dir, "/1");

    list_files(dir);
    assert_true(g_n_files >= 2);
    bool saw_input = false, saw_output = false, saw_fused = false;
    for (int i = 0; i < g_n_files; ++i) {
        dr_file f;
        char why[256];
        if (!dr_read(g_files[i], &f, why, sizeof why)) {
            fail_msg("%s: %s", g_files[i], why);
        }
        check_file(g_files[i], &f);
        assert_true(f.n_in > 0 && f.n_out > 0); /* dump_mode all */
        if (f.in[0].size == sizeof x1 && memcmp(f.in[0].bytes, x1, sizeof x1) == 0) {
            saw_input = true;
        }
        if (f.out[0].size == sizeof y1 && memcmp(f.out[0].bytes, y1, sizeof y1) == 0) {
            saw_output = true;
        }
        if (f.attr_name[0] != '\0') {
            assert_string_equal(f.attr_name, "_datadump_original_op_names");
            assert_true(f.out[0].orig_name[0] != '\0');
            assert_non_null(strstr(f.attr_value, f.out[0].orig_name));
            saw_fused = true;
        }
        dr_free(&f);
    }
    assert_true(saw_input);   /* the model input, as the first op read it */
    assert_true(saw_output);  /* the model output, as the last op wrote it */
    assert_true(saw_fused);   /* Gemm + bias + Relu are one op */
}

/* Dynamic model through aclmdlInitDump / aclmdlSetDump, model_name = the graph name, dump_mode output. */
static void dump_dynamic(void **state)
{
    (void)state;
    char om[1200], json[4096], cfg[1200];
    snprintf(om, sizeof om, "%s/ew/fc_dyn.om", g_models);
    OK_ACL(aclInit(NULL));
    OK_ACL(aclrtSetDevice(0));
    EXPECT_ACL(aclmdlSetDump("/nonexistent.json"), ACL_ERROR_DUMP_NOT_RUN, "aclmdlInitDump");
    OK_ACL(aclmdlInitDump());
    snprintf(cfg, sizeof cfg, "%s/dump.json", g_work);
    snprintf(json, sizeof json,
             "{\"dump\":{\"dump_path\":\"%s/\",\"dump_mode\":\"output\",\"dump_list\":[{\"model_name\":\"fc\"}]}}",
             g_dump);
    write_text(cfg, json);
    OK_ACL(aclmdlSetDump(cfg));
    uint32_t id = 0;
    OK_ACL(aclmdlLoadFromFile(om, &id));
    float x[3 * K1], y[3 * N2];
    fc_input(x, 3);
    fc_run(id, 3, true, x, y);
    OK_ACL(aclmdlFinalizeDump());
    fc_run(id, 3, true, x, y); /* not dumped any more */
    OK_ACL(aclmdlUnload(id));
    finish();

    char level[256], dir[2400];
    only_entry(g_dump, level, sizeof level);
    snprintf(dir, sizeof dir, "%s/%s/0/fc", g_dump, level);
    only_entry(dir, level, sizeof level);
    assert_int_equal(strtoul(level, NULL, 10), id);
    strcat(dir, "/");
    strcat(dir, level);
    only_entry(dir, level, sizeof level);
    assert_string_equal(level, "0");
    strcat(dir, "/0");
    list_files(dir);
    assert_true(g_n_files >= 2);
    bool saw_output = false;
    for (int i = 0; i < g_n_files; ++i) {
        dr_file f;
        char why[256];
        if (!dr_read(g_files[i], &f, why, sizeof why)) {
            fail_msg("%s: %s", g_files[i], why);
        }
        check_file(g_files[i], &f);
        assert_int_equal(f.n_in, 0); /* dump_mode output */
        assert_true(f.n_out > 0);
        if (f.out[0].size == sizeof y && memcmp(f.out[0].bytes, y, sizeof y) == 0) {
            saw_output = true;
            assert_int_equal(f.out[0].rank, 2);
            assert_int_equal(f.out[0].dims[0], 3);
            assert_int_equal(f.out[0].dims[1], N2);
        }
        dr_free(&f);
    }
    assert_true(saw_output);
}

/* Single operators: dump_op_switch on, files directly under {time}/0/, one per execution. */
static void dump_op(void **state)
{
    (void)state;
    char json[4096];
    snprintf(json, sizeof json,
             "{\"dump\":{\"dump_path\":\"%s\",\"dump_mode\":\"all\",\"dump_op_switch\":\"on\",\"dump_list\":[]}}",
             g_dump);
    init_with(json);
    aclrtStream s = NULL;
    OK_ACL(aclrtCreateStream(&s));
    const int64_t d[2] = {3, 4};
    float a[12], b[12], y[12];
    for (int i = 0; i < 12; ++i) {
        a[i] = (float)i * 0.5f;
        b[i] = (float)(3 - i);
    }
    void *da, *db, *dy;
    OK_ACL(aclrtMalloc(&da, sizeof a, ACL_MEM_MALLOC_HUGE_FIRST));
    OK_ACL(aclrtMalloc(&db, sizeof b, ACL_MEM_MALLOC_HUGE_FIRST));
    OK_ACL(aclrtMalloc(&dy, sizeof y, ACL_MEM_MALLOC_HUGE_FIRST));
    OK_ACL(aclrtMemcpy(da, sizeof a, a, sizeof a, ACL_MEMCPY_HOST_TO_DEVICE));
    OK_ACL(aclrtMemcpy(db, sizeof b, b, sizeof b, ACL_MEMCPY_HOST_TO_DEVICE));
    aclTensorDesc *di[2] = {aclCreateTensorDesc(ACL_FLOAT, 2, d, ACL_FORMAT_ND),
                            aclCreateTensorDesc(ACL_FLOAT, 2, d, ACL_FORMAT_ND)};
    aclTensorDesc *dout[1] = {aclCreateTensorDesc(ACL_FLOAT, 2, d, ACL_FORMAT_ND)};
    aclDataBuffer *bi[2] = {aclCreateDataBuffer(da, sizeof a), aclCreateDataBuffer(db, sizeof b)};
    aclDataBuffer *bo[1] = {aclCreateDataBuffer(dy, sizeof y)};
    for (int run = 0; run < 2; ++run) {
        OK_ACL(aclopCompileAndExecuteV2("Add", 2, di, bi, 1, dout, bo, NULL, ACL_ENGINE_SYS, ACL_COMPILE_SYS, NULL, s));
        OK_ACL(aclrtSynchronizeStream(s));
    }
    OK_ACL(aclrtMemcpy(y, sizeof y, dy, sizeof y, ACL_MEMCPY_DEVICE_TO_HOST));
    for (int i = 0; i < 2; ++i) {
        aclDestroyTensorDesc(di[i]);
        OK_ACL(aclDestroyDataBuffer(bi[i]));
    }
    aclDestroyTensorDesc(dout[0]);
    OK_ACL(aclDestroyDataBuffer(bo[0]));
    OK_ACL(aclrtFree(da));
    OK_ACL(aclrtFree(db));
    OK_ACL(aclrtFree(dy));
    OK_ACL(aclrtDestroyStream(s));
    finish();

    char level[256], dir[2400];
    only_entry(g_dump, level, sizeof level);
    snprintf(dir, sizeof dir, "%s/%s", g_dump, level);
    only_entry(dir, level, sizeof level);
    assert_string_equal(level, "0");
    strcat(dir, "/0");
    list_files(dir);
    assert_int_equal(g_n_files, 2); /* one file per execution, no sub-directories */
    uint64_t times[2];
    for (int i = 0; i < g_n_files; ++i) {
        assert_null(strchr(g_files[i] + strlen(dir) + 1, '/'));
        assert_non_null(strstr(g_files[i], "/Add."));
        dr_file f;
        char why[256];
        if (!dr_read(g_files[i], &f, why, sizeof why)) {
            fail_msg("%s: %s", g_files[i], why);
        }
        check_file(g_files[i], &f);
        assert_int_equal(f.n_in, 2);
        assert_int_equal(f.n_out, 1);
        assert_memory_equal(f.in[0].bytes, a, sizeof a);
        assert_memory_equal(f.in[1].bytes, b, sizeof b);
        assert_memory_equal(f.out[0].bytes, y, sizeof y);
        assert_int_equal(f.out[0].rank, 2);
        assert_int_equal(f.out[0].dims[0], 3);
        assert_int_equal(f.out[0].dims[1], 4);
        assert_int_equal(f.out[0].format, 2); /* ND */
        times[i] = f.dump_time;
        dr_free(&f);
    }
    assert_true(times[0] != times[1]);
}

/* dump_data stats: a CSV per op, whose output row holds the statistics of the real output. */
static void dump_stats(void **state)
{
    (void)state;
    char om[1200], json[4096];
    snprintf(om, sizeof om, "%s/ew/fc.om", g_models);
    snprintf(json, sizeof json,
             "{\"dump\":{\"dump_path\":\"%s\",\"dump_data\":\"stats\",\"dump_list\":[{}]}}", g_dump);
    init_with(json);
    uint32_t id = 0;
    OK_ACL(aclmdlLoadFromFile(om, &id));
    float x[K1], y[N2];
    fc_input(x, 1);
    fc_run(id, 1, false, x, y);
    OK_ACL(aclmdlUnload(id));
    finish();
    double mx = y[0], mn = y[0];
    for (int i = 0; i < N2; ++i) {
        mx = y[i] > mx ? y[i] : mx;
        mn = y[i] < mn ? y[i] : mn;
    }
    list_files(g_dump);
    assert_true(g_n_files >= 1);
    bool saw = false;
    for (int i = 0; i < g_n_files; ++i) {
        const size_t n = strlen(g_files[i]);
        assert_true(n > 4 && strcmp(g_files[i] + n - 4, ".csv") == 0);
        FILE *f = fopen(g_files[i], "r");
        assert_non_null(f);
        char line[1024];
        assert_non_null(fgets(line, sizeof line, f));
        assert_string_equal(line, "Input/Output,Index,Data Size,Data Type,Format,Shape,Max Value,Min Value,"
                                  "Avg Value,Count,Nan Count,Negative Inf Count,Positive Inf Count\n");
        while (fgets(line, sizeof line, f) != NULL) {
            char side[16], dtype[32], fmt[16], shape[64];
            int idx;
            unsigned long long size, count, nan, ninf, pinf;
            double vmax, vmin, avg;
            const int got = sscanf(line, "%15[^,],%d,%llu,%31[^,],%15[^,],%63[^,],%lf,%lf,%lf,%llu,%llu,%llu,%llu",
                                   side, &idx, &size, dtype, fmt, shape, &vmax, &vmin, &avg, &count, &nan, &ninf,
                                   &pinf);
            assert_int_equal(got, 13);
            assert_string_equal(dtype, "DT_FLOAT");
            assert_int_equal(size, count * 4);
            if (strcmp(side, "Output") == 0 && strcmp(shape, "1x24") == 0 &&
                fabs(vmax - mx) <= 1e-5 * fmax(1.0, fabs(mx)) && fabs(vmin - mn) <= 1e-5 * fmax(1.0, fabs(mn))) {
                saw = true;
            }
        }
        fclose(f);
    }
    assert_true(saw);
}

/* Bad configurations: CANN's ACL_ERROR_INVALID_DUMP_CONFIG with a message naming the problem. */
/* fmt with every "@D" replaced by the dump directory. */
static void with_dump_dir(char *out, size_t cap, const char *fmt)
{
    size_t n = 0;
    for (const char *p = fmt; *p != '\0' && n + 1 < cap; ++p) {
        if (p[0] == '@' && p[1] == 'D') {
            n += (size_t)snprintf(out + n, cap - n, "%s", g_dump);
            ++p;
        } else {
            out[n++] = *p;
        }
    }
    out[n < cap ? n : cap - 1] = '\0';
}

static void bad_configs(void **state)
{
    (void)state;
    static const struct {
        const char *dump;
        const char *part;
    } cases[] = {
        {"\"dump_path\":\"@D\",\"dump_mode\":\"both\",\"dump_list\":[{}]", "dump_mode"},
        {"\"dump_path\":\"/proc/1/no_such_dir\",\"dump_list\":[{}]", "dump_path"},
        {"\"dump_path\":\"@D\",\"dump_step\":\"5-3\",\"dump_list\":[{}]", "dump_step"},
        {"\"dump_path\":\"@D\",\"dump_step\":\"4-4\",\"dump_list\":[{}]", "dump_step"},
        {"\"dump_path\":\"@D\",\"dump_step\":\"1|x\",\"dump_list\":[{}]", "dump_step"},
        {"\"dump_path\":\"@D\",\"dump_step\":\"1-2-3\",\"dump_list\":[{}]", "dump_step"},
        {"\"dump_path\":\"@D\",\"dump_data\":\"all\",\"dump_list\":[{}]", "dump_data"},
        {"\"dump_path\":\"@D\",\"dump_list\":[{\"model_name\":\"\"}]", "model_name"},
    };
    char cfg[1200], json[4096], body[2048];
    snprintf(cfg, sizeof cfg, "%s/bad.json", g_work);
    /* through aclInit (the first one of the process: a later one must repeat its config) */
    with_dump_dir(body, sizeof body, cases[0].dump);
    snprintf(json, sizeof json, "{\"dump\":{%s}}", body);
    write_text(cfg, json);
    EXPECT_ACL(aclInit(cfg), ACL_ERROR_INVALID_DUMP_CONFIG, "dump_mode");
    OK_ACL(aclInit(NULL));
    OK_ACL(aclmdlInitDump());
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        with_dump_dir(body, sizeof body, cases[i].dump);
        snprintf(json, sizeof json, "{\"dump\":{%s}}", body);
        write_text(cfg, json);
        EXPECT_ACL(aclmdlSetDump(cfg), ACL_ERROR_INVALID_DUMP_CONFIG, cases[i].part);
    }
    OK_ACL(aclmdlFinalizeDump());
    OK_ACL(aclFinalize());
}


/* ---- profiling (docs/profiling.md) ---- */

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    const long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    assert_non_null(b);
    assert_int_equal(fread(b, 1, (size_t)n, f), (size_t)n);
    b[n] = '\0';
    fclose(f);
    return b;
}

/* Runs Add on [3,4] floats once on stream s. */
static void run_add(aclrtStream s)
{
    const int64_t d[2] = {3, 4};
    void *da, *db, *dy;
    OK_ACL(aclrtMalloc(&da, 48, ACL_MEM_MALLOC_HUGE_FIRST));
    OK_ACL(aclrtMalloc(&db, 48, ACL_MEM_MALLOC_HUGE_FIRST));
    OK_ACL(aclrtMalloc(&dy, 48, ACL_MEM_MALLOC_HUGE_FIRST));
    OK_ACL(aclrtMemset(da, 48, 0, 48));
    OK_ACL(aclrtMemset(db, 48, 0, 48));
    aclTensorDesc *di[2] = {aclCreateTensorDesc(ACL_FLOAT, 2, d, ACL_FORMAT_ND),
                            aclCreateTensorDesc(ACL_FLOAT, 2, d, ACL_FORMAT_ND)};
    aclTensorDesc *dout[1] = {aclCreateTensorDesc(ACL_FLOAT, 2, d, ACL_FORMAT_ND)};
    aclDataBuffer *bi[2] = {aclCreateDataBuffer(da, 48), aclCreateDataBuffer(db, 48)};
    aclDataBuffer *bo[1] = {aclCreateDataBuffer(dy, 48)};
    OK_ACL(aclopCompileAndExecuteV2("Add", 2, di, bi, 1, dout, bo, NULL, ACL_ENGINE_SYS, ACL_COMPILE_SYS, NULL, s));
    OK_ACL(aclrtSynchronizeStream(s));
    for (int i = 0; i < 2; ++i) {
        aclDestroyTensorDesc(di[i]);
        OK_ACL(aclDestroyDataBuffer(bi[i]));
    }
    aclDestroyTensorDesc(dout[0]);
    OK_ACL(aclDestroyDataBuffer(bo[0]));
    OK_ACL(aclrtFree(da));
    OK_ACL(aclrtFree(db));
    OK_ACL(aclrtFree(dy));
}

/* Events of the trace with ph X and args["Model Id"] == model whose name is name. */
static int count_op_events(const cJSON *trace, uint32_t model, const char *name)
{
    int n = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, trace)
    {
        const cJSON *args = cJSON_GetObjectItem(e, "args");
        const cJSON *mid = cJSON_GetObjectItem(args, "Model Id");
        const cJSON *on = cJSON_GetObjectItem(args, "Op Name");
        if (cJSON_IsNumber(mid) && (uint32_t)mid->valuedouble == model && cJSON_IsString(on) &&
            (name == NULL || strcmp(on->valuestring, name) == 0) &&
            strcmp(cJSON_GetObjectItem(e, "ph")->valuestring, "X") == 0) {
            assert_true(cJSON_IsNumber(cJSON_GetObjectItem(e, "dur")));
            assert_true(cJSON_IsString(cJSON_GetObjectItem(e, "ts")));
            assert_true(cJSON_IsString(cJSON_GetObjectItem(args, "OP Type")));
            assert_true(cJSON_IsString(cJSON_GetObjectItem(args, "Input Shapes")));
            ++n;
        }
    }
    return n;
}

/*
 * acl.json profiling of a static model (2 runs), a dynamic one (1 run) and a single op, with dump of the
 * models on too: every dumped op appears once per run in the timeline and in op_summary.
 */
static void prof_all_paths(void **state)
{
    (void)state;
    char json[4096], prof_dir[1200];
    snprintf(prof_dir, sizeof prof_dir, "%s/prof", g_work);
    mkdir(prof_dir, 0750);
    snprintf(json, sizeof json,
             "{\"dump\":{\"dump_path\":\"%s\",\"dump_list\":[{}],\"dump_step\":\"0\"},"
             "\"profiler\":{\"switch\":\"on\",\"output\":\"%s\",\"task_time\":\"on\",\"aicpu\":\"on\"}}",
             g_dump, prof_dir);
    init_with(json);
    char om[1200];
    uint32_t ids[2];
    float x[3 * K1], y[3 * N2];
    fc_input(x, 3);
    snprintf(om, sizeof om, "%s/ew/fc.om", g_models);
    OK_ACL(aclmdlLoadFromFile(om, &ids[0]));
    fc_run(ids[0], 1, false, x, y);
    fc_run(ids[0], 1, false, x, y);
    snprintf(om, sizeof om, "%s/ew/fc_dyn.om", g_models);
    OK_ACL(aclmdlLoadFromFile(om, &ids[1]));
    fc_run(ids[1], 3, true, x, y);
    aclrtStream s = NULL;
    OK_ACL(aclrtCreateStream(&s));
    run_add(s);
    OK_ACL(aclrtDestroyStream(s));
    OK_ACL(aclmdlUnload(ids[0]));
    OK_ACL(aclmdlUnload(ids[1]));
    finish(); /* writes the profiling data */

    /* PROF_{6 digits}_{17 digits}_{8 digits}{8 letters A-R} */
    char prof_name[256], out[2400], cmd[2600];
    only_entry(prof_dir, prof_name, sizeof prof_name);
    assert_int_equal(strlen(prof_name), 5 + 6 + 1 + 17 + 1 + 16);
    assert_true(strncmp(prof_name, "PROF_", 5) == 0 && all_digits(prof_name + 5, 6) && all_digits(prof_name + 12, 17) &&
                all_digits(prof_name + 30, 8));
    for (int i = 38; i < 46; ++i) {
        assert_true(prof_name[i] >= 'A' && prof_name[i] <= 'R');
    }
    snprintf(out, sizeof out, "%s/%s/mindstudio_profiler_output", prof_dir, prof_name);
    snprintf(cmd, sizeof cmd, "%s/%s/device_0", prof_dir, prof_name);
    struct stat sb;
    assert_int_equal(stat(cmd, &sb), 0);
    list_files(out);
    char trace_path[1024] = "", summary_path[1024] = "", stat_path[1024] = "";
    for (int i = 0; i < g_n_files; ++i) {
        const char *b = strrchr(g_files[i], '/') + 1;
        if (strncmp(b, "msprof_", 7) == 0) {
            strcpy(trace_path, g_files[i]);
        } else if (strncmp(b, "op_summary_", 11) == 0) {
            strcpy(summary_path, g_files[i]);
        } else if (strncmp(b, "op_statistic_", 13) == 0) {
            strcpy(stat_path, g_files[i]);
        }
    }
    assert_true(trace_path[0] && summary_path[0] && stat_path[0]);
    char *text = read_all(trace_path);
    cJSON *trace = cJSON_Parse(text);
    free(text);
    assert_true(cJSON_IsArray(trace));

    /* the ops the dump saw, once per execution */
    const int total_static = count_op_events(trace, ids[0], NULL);
    const int total_dyn = count_op_events(trace, ids[1], NULL);
    assert_true(total_static > 0 && total_static % 2 == 0);
    assert_true(total_dyn > 0);
    assert_int_equal(count_op_events(trace, 4294967295u, NULL), 1); /* the single op */
    /* every dumped op of each model appears in the trace with its model id */
    char dir[2400], level[256];
    only_entry(g_dump, level, sizeof level);
    for (int m = 0; m < 2; ++m) {
        snprintf(dir, sizeof dir, "%s/%s/0/fc/%u/0", g_dump, level, ids[m]);
        list_files(dir);
        assert_int_equal(g_n_files, m == 0 ? total_static / 2 : total_dyn);
        for (int i = 0; i < g_n_files; ++i) {
            dr_file f;
            char why[256];
            assert_true(dr_read(g_files[i], &f, why, sizeof why));
            assert_int_equal(count_op_events(trace, ids[m], f.op_name), m == 0 ? 2 : 1);
            dr_free(&f);
        }
    }
    /* ACL API spans */
    int api = 0, loads = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, trace)
    {
        const cJSON *nm = cJSON_GetObjectItem(e, "name");
        api += cJSON_IsString(nm) && strcmp(nm->valuestring, "aclmdlExecute") == 0;
        loads += cJSON_IsString(nm) && strcmp(nm->valuestring, "aclmdlLoadFromFile") == 0;
    }
    assert_int_equal(api, 3);
    assert_int_equal(loads, 2);
    cJSON_Delete(trace);

    /* op_summary: the header, one row per op event, numeric durations */
    FILE *f = fopen(summary_path, "r");
    assert_non_null(f);
    char line[4096];
    assert_non_null(fgets(line, sizeof line, f));
    assert_string_equal(line, "Device_id,Model ID,Task ID,Stream ID,Op Name,OP Type,OP State,Task Type,"
                              "Task Start Time(us),Task Duration(us),Task Wait Time(us),Block Num,Mix Block Num,"
                              "HF32 Eligible,Input Shapes,Input Data Types,Input Formats,Output Shapes,"
                              "Output Data Types,Output Formats,Context ID\n");
    int rows = 0, add_rows = 0;
    while (fgets(line, sizeof line, f) != NULL) {
        unsigned dev, model, task, stream;
        char name[256], type[64], opstate[16], tt[16];
        double start, dur;
        const int got = sscanf(line, "%u,%u,%u,%u,\"%255[^\"]\",\"%63[^\"]\",%15[^,],%15[^,],%lf\t,%lf", &dev, &model,
                               &task, &stream, name, type, opstate, tt, &start, &dur);
        if (got != 10) {
            fail_msg("op_summary row [%s] parsed %d fields", line, got);
        }
        assert_true(dur >= 0);
        assert_string_equal(opstate, model == ids[1] ? "dynamic" : "static");
        add_rows += model == 4294967295u && strcmp(type, "Add") == 0;
        ++rows;
    }
    fclose(f);
    assert_int_equal(rows, total_static + total_dyn + 1);
    assert_int_equal(add_rows, 1);
}

/* aclprofModelSubscribe: CANN's records through a pipe, names and types read once. */
static void prof_subscribe(void **state)
{
    (void)state;
    OK_ACL(aclInit(NULL));
    OK_ACL(aclrtSetDevice(0));
    char om[1200];
    uint32_t id = 0;
    snprintf(om, sizeof om, "%s/ew/fc.om", g_models);
    OK_ACL(aclmdlLoadFromFile(om, &id));
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    aclprofSubscribeConfig *cfg = aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, &fds[1]);
    assert_non_null(cfg);
    EXPECT_ACL(aclprofModelSubscribe(id + 100, cfg), ACL_ERROR_INVALID_MODEL_ID, "not a loaded model");
    OK_ACL(aclprofModelSubscribe(id, cfg));
    EXPECT_ACL(aclprofModelSubscribe(id, cfg), 148046, "already subscribed");
    float x[K1], y[N2];
    fc_input(x, 1);
    fc_run(id, 1, false, x, y);
    OK_ACL(aclprofModelUnSubscribe(id));
    EXPECT_ACL(aclprofModelUnSubscribe(id), ACL_ERROR_INVALID_MODEL_ID, "not subscribed");
    fc_run(id, 1, false, x, y); /* no more records */
    close(fds[1]);
    static uint8_t buf[80 * 256];
    size_t len = 0;
    ssize_t r;
    while ((r = read(fds[0], buf + len, sizeof buf - len)) > 0) {
        len += (size_t)r;
    }
    close(fds[0]);
    uint32_t n = 0;
    OK_ACL(aclprofGetOpNum(buf, len, &n));
    assert_true(n >= 2);
    assert_int_equal(len, n * 80u);
    for (uint32_t i = 0; i < n; ++i) {
        size_t tl = 0, nl = 0;
        char type[128], name[300];
        OK_ACL(aclprofGetOpTypeLen(buf, len, i, &tl));
        OK_ACL(aclprofGetOpType(buf, len, i, type, tl));
        assert_int_equal(strlen(type) + 1, tl);
        assert_true(type[0] != '\0');
        OK_ACL(aclprofGetOpNameLen(buf, len, i, &nl));
        OK_ACL(aclprofGetOpName(buf, len, i, name, nl));
        assert_int_equal(strlen(name) + 1, nl);
        EXPECT_ACL(aclprofGetOpType(buf, len, i, type, sizeof type), ACL_ERROR_INVALID_PARAM, "got already");
        const uint64_t s = aclprofGetOpStart(buf, len, i), e = aclprofGetOpEnd(buf, len, i);
        assert_true(s > 0 && e >= s);
        assert_int_equal(aclprofGetOpDuration(buf, len, i), e - s);
        assert_int_equal(aclprofGetModelId(buf, len, i), id);
        assert_int_equal(aclprofGetOpFlag(buf, len, i), ACL_SUBSCRIBE_OP);
        if (i > 0) {
            assert_true(s >= aclprofGetOpStart(buf, len, i - 1)); /* in execution order */
        }
    }
    /* a dynamic-shape model: one record per kernel launch */
    uint32_t dyn = 0;
    snprintf(om, sizeof om, "%s/ew/fc_dyn.om", g_models);
    OK_ACL(aclmdlLoadFromFile(om, &dyn));
    assert_int_equal(pipe(fds), 0);
    aclprofSubscribeConfig *cfg2 = aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, &fds[1]);
    OK_ACL(aclprofModelSubscribe(dyn, cfg2));
    float x3[3 * K1], y3[3 * N2];
    fc_input(x3, 3);
    fc_run(dyn, 3, true, x3, y3);
    OK_ACL(aclprofModelUnSubscribe(dyn));
    close(fds[1]);
    len = 0;
    while ((r = read(fds[0], buf + len, sizeof buf - len)) > 0) {
        len += (size_t)r;
    }
    close(fds[0]);
    OK_ACL(aclprofGetOpNum(buf, len, &n));
    assert_true(n >= 2);
    for (uint32_t i = 0; i < n; ++i) {
        assert_int_equal(aclprofGetModelId(buf, len, i), dyn);
        size_t tl = 0;
        char type[128];
        OK_ACL(aclprofGetOpTypeLen(buf, len, i, &tl));
        OK_ACL(aclprofGetOpType(buf, len, i, type, tl));
        assert_true(strcmp(type, "MatMulV2") == 0 || strcmp(type, "Flatten") == 0 || strcmp(type, "Relu") == 0 ||
                    strcmp(type, "Add") == 0);
    }
    OK_ACL(aclprofDestroySubscribeConfig(cfg2));
    OK_ACL(aclmdlUnload(dyn));
    OK_ACL(aclprofDestroySubscribeConfig(cfg));
    OK_ACL(aclmdlUnload(id));
    finish();
}

/* Data for the comparison tool's test (tests/unit/dump/test_dump_compare.py): fc.om dumped with dump_mode all, x.bin. */
static void dump_for_compare(void **state)
{
    (void)state;
    char om[1200], json[4096], xpath[1200];
    snprintf(om, sizeof om, "%s/ew/fc.om", g_models);
    snprintf(json, sizeof json, "{\"dump\":{\"dump_path\":\"%s\",\"dump_mode\":\"all\",\"dump_list\":[{}]}}",
             g_dump);
    init_with(json);
    uint32_t id = 0;
    OK_ACL(aclmdlLoadFromFile(om, &id));
    float x[K1], y[N2];
    fc_input(x, 1);
    fc_run(id, 1, false, x, y);
    OK_ACL(aclmdlUnload(id));
    finish();
    snprintf(xpath, sizeof xpath, "%s/x.bin", g_work);
    FILE *f = fopen(xpath, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(x, sizeof x, 1, f), 1);
    fclose(f);
}

/* aclopStartDumpArgs: single operators dumped under its path until aclopStopDumpArgs. */
static void dump_args(void **state)
{
    (void)state;
    OK_ACL(aclInit(NULL));
    OK_ACL(aclrtSetDevice(0));
    aclrtStream s = NULL;
    OK_ACL(aclrtCreateStream(&s));
    EXPECT_ACL(aclopStartDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS, "/nonexistent/dir"), ACL_ERROR_FAILURE, "dump args");
    OK_ACL(aclopStartDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS, g_dump));
    run_add(s);
    OK_ACL(aclopStopDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS));
    run_add(s); /* not dumped */
    OK_ACL(aclrtDestroyStream(s));
    finish();
    list_files(g_dump);
    assert_int_equal(g_n_files, 1);
    dr_file f;
    char why[256];
    if (!dr_read(g_files[0], &f, why, sizeof why)) {
        fail_msg("%s: %s", g_files[0], why);
    }
    check_file(g_files[0], &f);
    assert_int_equal(f.n_in, 2);
    assert_int_equal(f.n_out, 1);
    dr_free(&f);
}

/* dump_list layers: by op name, and by the name of an ONNX node fused into an op (Relu_2). */
static void dump_layers(void **state)
{
    (void)state;
    char om[1200], json[4096];
    snprintf(om, sizeof om, "%s/ew/fc.om", g_models);
    snprintf(json, sizeof json,
             "{\"dump\":{\"dump_path\":\"%s\",\"dump_list\":[{\"model_name\":\"fc\",\"layer\":[\"Relu_2\",\"Gemm_3\"]}]}}",
             g_dump);
    init_with(json);
    uint32_t id = 0;
    OK_ACL(aclmdlLoadFromFile(om, &id));
    float x[K1], y[N2];
    fc_input(x, 1);
    fc_run(id, 1, false, x, y);
    OK_ACL(aclmdlUnload(id));
    finish();
    list_files(g_dump);
    assert_int_equal(g_n_files, 2);
    int by_name = 0, by_orig = 0;
    for (int i = 0; i < g_n_files; ++i) {
        dr_file f;
        char why[256];
        assert_true(dr_read(g_files[i], &f, why, sizeof why));
        by_name += strcmp(f.op_name, "Gemm_3") == 0;
        by_orig += strstr(f.attr_value, "Relu_2") != NULL && strcmp(f.out[0].orig_name, "Relu_2") == 0;
        dr_free(&f);
    }
    assert_int_equal(by_name, 1);
    assert_int_equal(by_orig, 1);
}

/* Captures one execution of model id on a new stream, then replays it with input x0, then x1 (outputs y0, y1). */
static void capture_and_replay(uint32_t id, int batch, bool dyn, const float *x0, const float *x1, float *y0,
                               float *y1)
{
    const size_t xs = (size_t)batch * K1 * sizeof(float), ys = (size_t)batch * N2 * sizeof(float);
    void *dx = NULL, *dy = NULL;
    OK_ACL(aclrtMalloc(&dx, xs, ACL_MEM_MALLOC_HUGE_FIRST));
    OK_ACL(aclrtMalloc(&dy, ys, ACL_MEM_MALLOC_HUGE_FIRST));
    aclmdlDataset *in = aclmdlCreateDataset(), *out = aclmdlCreateDataset();
    aclDataBuffer *bx = aclCreateDataBuffer(dx, xs), *by = aclCreateDataBuffer(dy, ys);
    OK_ACL(aclmdlAddDatasetBuffer(in, bx));
    OK_ACL(aclmdlAddDatasetBuffer(out, by));
    if (dyn) {
        const int64_t dims[4] = {batch, 8, 4, 4};
        aclTensorDesc *td = aclCreateTensorDesc(ACL_FLOAT, 4, dims, ACL_FORMAT_NCHW);
        OK_ACL(aclmdlSetDatasetTensorDesc(in, td, 0));
        aclDestroyTensorDesc(td);
    }
    aclrtStream s = NULL;
    OK_ACL(aclrtCreateStream(&s));
    OK_ACL(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    OK_ACL(aclmdlExecuteAsync(id, in, out, s)); /* recorded, not run */
    aclmdlRI ri = NULL;
    OK_ACL(aclmdlRICaptureEnd(s, &ri));
    const float *xin[2] = {x0, x1};
    float *yout[2] = {y0, y1};
    for (int r = 0; r < 2; ++r) {
        OK_ACL(aclrtMemcpy(dx, xs, xin[r], xs, ACL_MEMCPY_HOST_TO_DEVICE));
        OK_ACL(aclmdlRIExecuteAsync(ri, s));
        OK_ACL(aclrtSynchronizeStream(s));
        OK_ACL(aclrtMemcpy(yout[r], ys, dy, ys, ACL_MEMCPY_DEVICE_TO_HOST));
    }
    OK_ACL(aclmdlRIDestroy(ri));
    OK_ACL(aclrtDestroyStream(s));
    OK_ACL(aclDestroyDataBuffer(bx));
    OK_ACL(aclDestroyDataBuffer(by));
    OK_ACL(aclmdlDestroyDataset(in));
    OK_ACL(aclmdlDestroyDataset(out));
    OK_ACL(aclrtFree(dx));
    OK_ACL(aclrtFree(dy));
}

/* Entries of dir (not . and ..). */
static int count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    }
    closedir(d);
    return n;
}

/*
 * Captured replays (docs/dump.md "Captured replays"): a static and a dynamic model captured once and replayed
 * twice with different inputs. The capture runs nothing; each replay is one execution: dumped as steps 0 and 1
 * (the model's real outputs of that replay) and profiled (every dumped op once per replay in the timeline).
 */
static void dump_prof_capture(void **state)
{
    (void)state;
    char json[4096], prof_dir[1200];
    snprintf(prof_dir, sizeof prof_dir, "%s/prof", g_work);
    mkdir(prof_dir, 0750);
    snprintf(json, sizeof json,
             "{\"dump\":{\"dump_path\":\"%s\",\"dump_list\":[{}],\"dump_mode\":\"output\"},"
             "\"profiler\":{\"switch\":\"on\",\"output\":\"%s\",\"task_time\":\"on\"}}",
             g_dump, prof_dir);
    init_with(json);
    static float x0[3 * K1], x1[3 * K1], y[2][2][3 * N2];
    fc_input(x0, 3);
    for (int i = 0; i < 3 * K1; ++i) {
        x1[i] = 0.5f - x0[i];
    }
    uint32_t ids[2];
    const int batch[2] = {1, 3};
    char om[1200];
    for (int m = 0; m < 2; ++m) {
        snprintf(om, sizeof om, "%s/ew/%s.om", g_models, m == 0 ? "fc" : "fc_dyn");
        OK_ACL(aclmdlLoadFromFile(om, &ids[m]));
        capture_and_replay(ids[m], batch[m], m == 1, x0, x1, y[m][0], y[m][1]);
        assert_true(memcmp(y[m][0], y[m][1], (size_t)batch[m] * N2 * sizeof(float)) != 0);
    }
    for (int m = 0; m < 2; ++m) {
        OK_ACL(aclmdlUnload(ids[m]));
    }
    finish();

    char trace_path[1024] = "", out[2400], prof_name[256];
    only_entry(prof_dir, prof_name, sizeof prof_name);
    snprintf(out, sizeof out, "%s/%s/mindstudio_profiler_output", prof_dir, prof_name);
    list_files(out);
    for (int i = 0; i < g_n_files; ++i) {
        if (strncmp(strrchr(g_files[i], '/') + 1, "msprof_", 7) == 0) {
            strcpy(trace_path, g_files[i]);
        }
    }
    assert_true(trace_path[0] != '\0');
    char *text = read_all(trace_path);
    cJSON *trace = cJSON_Parse(text);
    free(text);
    assert_true(cJSON_IsArray(trace));

    char level[256], dir[2400];
    only_entry(g_dump, level, sizeof level);
    for (int m = 0; m < 2; ++m) {
        const size_t ys = (size_t)batch[m] * N2 * sizeof(float);
        snprintf(dir, sizeof dir, "%s/%s/0/fc/%u", g_dump, level, ids[m]);
        assert_int_equal(count_entries(dir), 2); /* two replays, the capture itself ran nothing */
        int per_step = -1;
        for (int step = 0; step < 2; ++step) {
            char sdir[2500];
            snprintf(sdir, sizeof sdir, "%s/%d", dir, step);
            list_files(sdir);
            assert_true(g_n_files > 0);
            assert_true(per_step < 0 || per_step == g_n_files);
            per_step = g_n_files;
            bool saw_output = false;
            for (int i = 0; i < g_n_files; ++i) {
                dr_file f;
                char why[256];
                if (!dr_read(g_files[i], &f, why, sizeof why)) {
                    fail_msg("%s: %s", g_files[i], why);
                }
                check_file(g_files[i], &f);
                if (f.out[0].size == ys && memcmp(f.out[0].bytes, y[m][step], ys) == 0) {
                    saw_output = true;
                }
                assert_int_equal(count_op_events(trace, ids[m], f.op_name), 2); /* once per replay */
                dr_free(&f);
            }
            if (!saw_output) {
                fail_msg("model %u step %d: no dump file holds the replay's output", ids[m], step);
            }
        }
        assert_int_equal(count_op_events(trace, ids[m], NULL), 2 * per_step);
    }
    cJSON_Delete(trace);
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: test_dump_run static|dynamic|op|stats|bad MODELS_DIR WORK_DIR\n");
        return 2;
    }
    g_models = argv[2];
    snprintf(g_work, sizeof g_work, "%s/%s", argv[3], argv[1]);
    snprintf(g_dump, sizeof g_dump, "%s/dump", g_work);
    char cmd[2400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s'", g_work, g_dump);
    if (system(cmd) != 0) {
        return 1;
    }
    static const struct {
        const char *name;
        struct CMUnitTest test;
    } scenarios[] = {
        {"static", cmocka_unit_test(dump_static)},
        {"dynamic", cmocka_unit_test(dump_dynamic)},
        {"op", cmocka_unit_test(dump_op)},
        {"stats", cmocka_unit_test(dump_stats)},
        {"prof", cmocka_unit_test(prof_all_paths)},
        {"subscribe", cmocka_unit_test(prof_subscribe)},
        {"compare", cmocka_unit_test(dump_for_compare)},
        {"args", cmocka_unit_test(dump_args)},
        {"layers", cmocka_unit_test(dump_layers)},
        {"capture", cmocka_unit_test(dump_prof_capture)},
        {"bad", cmocka_unit_test(bad_configs)},
    };
    struct CMUnitTest t[1];
    size_t k = 0;
    while (k < sizeof scenarios / sizeof scenarios[0] && strcmp(argv[1], scenarios[k].name) != 0) {
        ++k;
    }
    if (k == sizeof scenarios / sizeof scenarios[0]) {
        fprintf(stderr, "unknown scenario %s\n", argv[1]);
        return 2;
    }
    t[0] = scenarios[k].test;
    return cmocka_run_group_tests_name(argv[1], t, NULL, NULL);
}
