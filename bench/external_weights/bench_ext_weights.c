/*
 * bench_ext_weights: loads one .om, runs it, and prints one JSON line with
 * the load time, the first and steady execution times and the memory the
 * process holds (RSS split into file-backed and anonymous, and PSS, which
 * halves for pages another process maps too).
 *
 *   bench_ext_weights MODEL.om [--user-mem] [--runs N] [--hold FILE]
 *
 * --user-mem: every file of <model dir>/weight/ is read into aclrtMalloc'd
 *             memory and handed over with aclmdlSetExternalWeightAddress
 *             (reported separately: user_read_ms; load_ms is the load call).
 * --hold FILE: after measuring, print the line, wait until FILE exists,
 *             measure again (held_*: both processes alive and loaded), then
 *             wait until FILE.done exists before unloading (so that two
 *             processes are measured side by side).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "acl/acl.h"
#include "../common/bench_util.h"

#define CHECK(expr)                                                                       \
    do {                                                                                  \
        aclError ret_ = (expr);                                                           \
        if (ret_ != ACL_SUCCESS) {                                                        \
            const char *msg_ = aclGetRecentErrMsg();                                      \
            fprintf(stderr, "%s failed: %d %s\n", #expr, ret_, msg_ != NULL ? msg_ : ""); \
            exit(1);                                                                      \
        }                                                                                 \
    } while (0)

typedef struct mem_use {
    double rss, rss_file, rss_anon, pss; /* MiB */
} mem_use;

static double field_kb(const char *text, const char *key)
{
    const char *p = strstr(text, key);
    return p ? strtod(p + strlen(key), NULL) : -1.0;
}

static mem_use mem_now(void)
{
    mem_use m = {-1, -1, -1, -1};
    char buf[8192];
    FILE *f = fopen("/proc/self/status", "r");
    if (f != NULL) {
        size_t n = fread(buf, 1, sizeof buf - 1, f);
        buf[n] = '\0';
        fclose(f);
        m.rss = field_kb(buf, "VmRSS:") / 1024.0;
        m.rss_file = field_kb(buf, "RssFile:") / 1024.0;
        m.rss_anon = field_kb(buf, "RssAnon:") / 1024.0;
    }
    f = fopen("/proc/self/smaps_rollup", "r");
    if (f != NULL) {
        size_t n = fread(buf, 1, sizeof buf - 1, f);
        buf[n] = '\0';
        fclose(f);
        m.pss = field_kb(buf, "\nPss:") / 1024.0;
    }
    return m;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s MODEL.om [--user-mem] [--runs N] [--hold FILE]\n", argv[0]);
        return 2;
    }
    const char *om = argv[1], *hold = NULL;
    int runs = 5;
    int user = 0;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--user-mem") == 0) {
            user = 1;
        } else if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
            runs = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--hold") == 0 && i + 1 < argc) {
            hold = argv[++i];
        }
    }
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    mem_use m0 = mem_now();
    double user_read = 0;
    void *devs[1024];
    size_t ndev = 0;
    uint32_t id = 0;
    double t0;
    if (user) {
        double r0 = bench_now_ms();
        char dir[PATH_MAX];
        const char *slash = strrchr(om, '/');
        snprintf(dir, sizeof dir, "%.*s/weight", slash ? (int)(slash - om) : 1, slash ? om : ".");
        aclmdlConfigHandle *h = aclmdlCreateConfigHandle();
        DIR *d = opendir(dir);
        struct dirent *e;
        while (d != NULL && (e = readdir(d)) != NULL && ndev < 1024) {
            char p[PATH_MAX * 2];
            snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
            struct stat st;
            if (stat(p, &st) != 0 || !S_ISREG(st.st_mode)) {
                continue;
            }
            size_t size = (size_t)st.st_size, rounded = (size + 31) / 32 * 32;
            CHECK(aclrtMalloc(&devs[ndev], rounded, ACL_MEM_MALLOC_HUGE_FIRST));
            /* read straight into the device memory (host memory on this runtime) as a
             * CPU application would; a real device needs a staging copy */
            size_t got = 0;
            void *host = bench_read_file(p, &got);
            CHECK(aclrtMemcpy(devs[ndev], rounded, host, got, ACL_MEMCPY_HOST_TO_DEVICE));
            free(host);
            CHECK(aclmdlSetExternalWeightAddress(h, e->d_name, devs[ndev], rounded));
            ndev++;
        }
        if (d != NULL) {
            closedir(d);
        }
        size_t type = ACL_MDL_LOAD_FROM_FILE;
        CHECK(aclmdlSetConfigOpt(h, ACL_MDL_LOAD_TYPE_SIZET, &type, sizeof type));
        CHECK(aclmdlSetConfigOpt(h, ACL_MDL_PATH_PTR, &om, sizeof om));
        user_read = bench_now_ms() - r0;
        t0 = bench_now_ms();
        CHECK(aclmdlLoadWithConfig(h, &id));
        CHECK(aclmdlDestroyConfigHandle(h));
    } else {
        t0 = bench_now_ms();
        CHECK(aclmdlLoadFromFile(om, &id));
    }
    double load = bench_now_ms() - t0;
    mem_use m1 = mem_now();

    aclmdlDesc *desc = aclmdlCreateDesc();
    CHECK(aclmdlGetDesc(desc, id));
    aclmdlDataset *in = aclmdlCreateDataset(), *out = aclmdlCreateDataset();
    for (size_t i = 0; i < aclmdlGetNumInputs(desc); i++) {
        size_t s = aclmdlGetInputSizeByIndex(desc, i);
        void *p;
        CHECK(aclrtMalloc(&p, s, ACL_MEM_MALLOC_HUGE_FIRST));
        float *h = malloc(s);
        for (size_t k = 0; k < s / 4; k++) {
            h[k] = (float)(k % 17) / 17.0f;
        }
        CHECK(aclrtMemcpy(p, s, h, s, ACL_MEMCPY_HOST_TO_DEVICE));
        free(h);
        CHECK(aclmdlAddDatasetBuffer(in, aclCreateDataBuffer(p, s)));
    }
    for (size_t i = 0; i < aclmdlGetNumOutputs(desc); i++) {
        size_t s = aclmdlGetOutputSizeByIndex(desc, i);
        void *p;
        CHECK(aclrtMalloc(&p, s, ACL_MEM_MALLOC_HUGE_FIRST));
        CHECK(aclmdlAddDatasetBuffer(out, aclCreateDataBuffer(p, s)));
    }
    double t1 = bench_now_ms();
    CHECK(aclmdlExecute(id, in, out));
    double first = bench_now_ms() - t1;
    mem_use m2 = mem_now();
    double best = 1e30, sum = 0;
    for (int r = 0; r < runs; r++) {
        double a = bench_now_ms();
        CHECK(aclmdlExecute(id, in, out));
        double e = bench_now_ms() - a;
        sum += e;
        best = e < best ? e : best;
    }
    float y0 = 0;
    CHECK(aclrtMemcpy(&y0, 4, aclGetDataBufferAddr(aclmdlGetDatasetBuffer(out, 0)), 4, ACL_MEMCPY_DEVICE_TO_HOST));
    printf("{\"model\": \"%s\", \"user_mem\": %d, \"user_read_ms\": %.1f, \"load_ms\": %.2f, \"first_ms\": %.1f, "
           "\"steady_ms\": %.1f, \"steady_best_ms\": %.1f, \"rss_base_mib\": %.1f, "
           "\"rss_after_load_mib\": %.1f, \"rss_after_first_mib\": %.1f, \"rss_file_mib\": %.1f, "
           "\"rss_anon_mib\": %.1f, \"pss_mib\": %.1f, \"y0\": %.6g}\n",
           om, user, user_read, load, first, runs ? sum / runs : 0, runs ? best : 0, m0.rss, m1.rss, m2.rss,
           m2.rss_file, m2.rss_anon, m2.pss, (double)y0);
    fflush(stdout);
    if (hold != NULL) {
        struct stat st;
        while (stat(hold, &st) != 0) {
            usleep(10000);
        }
        mem_use m3 = mem_now();
        printf("{\"held_rss_mib\": %.1f, \"held_pss_mib\": %.1f}\n", m3.rss, m3.pss);
        fflush(stdout);
        char done[PATH_MAX];
        snprintf(done, sizeof done, "%s.done", hold);
        while (stat(done, &st) != 0) {
            usleep(10000);
        }
    }
    CHECK(aclmdlUnload(id));
    for (size_t i = 0; i < ndev; i++) {
        CHECK(aclrtFree(devs[i]));
    }
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    return 0;
}
