/*
 * File-system helpers, the worker pool and hashing for file_constant.
 */
#define OA_LOG_MODULE "GE"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <openssl/evp.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error.h"
#include "base/util.h"
#include "file_constant/fc_internal.h"

void (*oa_fc_test_hook)(const char *stage, const char *path) = NULL;

/* ---- hashing ---- */

void oa_fc_hash_render(const uint8_t digest[32], char out[OA_FC_HASH_CAP])
{
    static const char hex[] = "0123456789abcdef";
    size_t k = 0;
    for (size_t i = 0; i < 32; i++) {
        uint8_t b = digest[i];
        if (b >= 0x10) {
            out[k++] = hex[b >> 4];
        }
        out[k++] = hex[b & 0xf];
    }
    out[k] = '\0';
}

oa_status oa_fc_hash_bytes(const void *data, size_t size, char out[OA_FC_HASH_CAP])
{
    uint8_t md[EVP_MAX_MD_SIZE];
    unsigned int md_len = 0;
    static const uint8_t empty[1] = {0};
    if (EVP_Digest(size ? data : empty, size, md, &md_len, EVP_sha256(), NULL) != 1 || md_len != 32) {
        return OA_FAIL(OA_E_INTERNAL, "SHA-256 of %zu bytes failed", size);
    }
    oa_fc_hash_render(md, out);
    return OA_OK;
}

oa_status oa_fc_mode_parse(const char *s, oa_fc_mode *out)
{
    if (out == NULL) {
        return OA_FAIL(OA_E_PARAM, "external weight mode output must not be null");
    }
    if (s == NULL || s[0] == '\0' || strcmp(s, "0") == 0) {
        *out = OA_FC_MODE_EMBED;
    } else if (strcmp(s, "1") == 0) {
        *out = OA_FC_MODE_FILES;
    } else if (strcmp(s, "2") == 0) {
        *out = OA_FC_MODE_COMBINED;
    } else {
        return OA_FAIL(OA_E_PARAM, "external weight value [%s] is invalid; it must be 0, 1 or 2", s);
    }
    return OA_OK;
}

/* ---- paths ---- */

const char *fc_basename(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

bool fc_dirname(const char *path, char *out, size_t cap)
{
    const char *s = strrchr(path, '/');
    if (s == NULL) {
        return oa_strlcpy(out, ".", cap);
    }
    size_t n = (size_t)(s - path);
    if (n == 0) {
        return oa_strlcpy(out, "/", cap);
    }
    if (n >= cap) {
        return false;
    }
    memcpy(out, path, n);
    out[n] = '\0';
    return true;
}

bool fc_join(char *out, size_t cap, const char *dir, const char *name)
{
    size_t dl = strlen(dir);
    int r = (dl > 0 && dir[dl - 1] == '/') ? snprintf(out, cap, "%s%s", dir, name)
                                           : snprintf(out, cap, "%s/%s", dir, name);
    return r >= 0 && (size_t)r < cap;
}

oa_status fc_mkdirs(const char *path)
{
    char buf[4096];
    if (!oa_strlcpy(buf, path, sizeof buf) || buf[0] == '\0') {
        return OA_FAIL(OA_E_GE_FAILURE, "directory path [%s] is empty or too long", path);
    }
    for (char *p = buf + 1;; p++) {
        if (*p == '/' || *p == '\0') {
            char c = *p;
            *p = '\0';
            if (mkdir(buf, 0750) != 0 && errno != EEXIST) {
                return OA_FAIL(OA_E_GE_FAILURE, "cannot create directory [%s]: %s", buf, strerror(errno));
            }
            *p = c;
            if (c == '\0') {
                break;
            }
        }
    }
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
        return OA_FAIL(OA_E_GE_FAILURE, "[%s] is not a directory", path);
    }
    return OA_OK;
}

static int remove_cb(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)ftw;
    int r = (flag == FTW_DP) ? rmdir(p) : unlink(p);
    return r == 0 || errno == ENOENT ? 0 : -1;
}

oa_status fc_remove_tree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0) {
        return errno == ENOENT ? OA_OK : OA_FAIL(OA_E_GE_FAILURE, "cannot stat [%s]: %s", path, strerror(errno));
    }
    if (!S_ISDIR(st.st_mode)) {
        if (unlink(path) != 0) {
            return OA_FAIL(OA_E_GE_FAILURE, "cannot remove [%s]: %s", path, strerror(errno));
        }
        return OA_OK;
    }
    if (nftw(path, remove_cb, 16, FTW_DEPTH | FTW_PHYS) != 0) {
        return OA_FAIL(OA_E_GE_FAILURE, "cannot remove directory [%s]: %s", path, strerror(errno));
    }
    return OA_OK;
}

bool fc_write_all(int fd, const void *buf, size_t len)
{
    const char *p = buf;
    while (len > 0) {
        ssize_t w = write(fd, p, len > (1u << 30) ? (1u << 30) : len);
        if (w < 0) {
            if (errno == EINTR) {
                continue;
            }
            return false;
        }
        p += w;
        len -= (size_t)w;
    }
    return true;
}

bool fc_pread_all(int fd, void *buf, size_t len, uint64_t off)
{
    char *p = buf;
    while (len > 0) {
        if (off > (uint64_t)INT64_MAX) {
            return false;
        }
        ssize_t r = pread(fd, p, len > (1u << 30) ? (1u << 30) : len, (off_t)off);
        if (r < 0) {
            if (errno == EINTR) {
                continue;
            }
            return false;
        }
        if (r == 0) {
            errno = 0;
            return false;
        }
        p += r;
        len -= (size_t)r;
        off += (uint64_t)r;
    }
    return true;
}

void fc_fsync_dir(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        (void)fsync(fd);
        close(fd);
    }
}

static atomic_uint g_tmp_counter;

oa_status fc_write_file_atomic(const char *path, const void *data, size_t len, unsigned mode, const char *hook_stage)
{
    char tmp[4200];
    unsigned n = atomic_fetch_add(&g_tmp_counter, 1u);
    if (snprintf(tmp, sizeof tmp, "%s.tmp.%ld.%u", path, (long)getpid(), n) >= (int)sizeof tmp) {
        return OA_FAIL(OA_E_GE_FAILURE, "path [%s] is too long", path);
    }
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_TRUNC | O_CLOEXEC, (mode_t)mode);
    if (fd < 0) {
        return OA_FAIL(OA_E_GE_FAILURE, "cannot create [%s]: %s", tmp, strerror(errno));
    }
    size_t half = len / 2;
    bool ok = fc_write_all(fd, data, half);
    if (ok && hook_stage != NULL) {
        fc_hook(hook_stage, path);
    }
    ok = ok && fc_write_all(fd, (const char *)data + half, len - half);
    ok = ok && fsync(fd) == 0;
    int err = errno;
    if (close(fd) != 0 && ok) {
        ok = false;
        err = errno;
    }
    if (!ok) {
        unlink(tmp);
        return OA_FAIL(OA_E_GE_FAILURE, "cannot write [%s]: %s", tmp, strerror(err));
    }
    if (rename(tmp, path) != 0) {
        err = errno;
        unlink(tmp);
        return OA_FAIL(OA_E_GE_FAILURE, "cannot rename [%s] to [%s]: %s", tmp, path, strerror(err));
    }
    char dir[4096];
    if (fc_dirname(path, dir, sizeof dir)) {
        fc_fsync_dir(dir);
    }
    return OA_OK;
}

static bool pid_dead(long pid)
{
    return pid > 0 && pid != (long)getpid() && kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

/* True for "<anything>.tmp.<pid>.<n>" whose pid is not alive. */
static bool stale_temp(const char *name)
{
    const char *t = strstr(name, ".tmp.");
    if (t == NULL) {
        return false;
    }
    const char *p = t + 5;
    char *end;
    long pid = strtol(p, &end, 10);
    if (end == p || *end != '.' || pid <= 0) {
        return false;
    }
    const char *q = end + 1;
    strtoul(q, &end, 10);
    if (end == q || *end != '\0') {
        return false;
    }
    return pid_dead(pid);
}

void fc_remove_stale_temps(const char *dir)
{
    DIR *d = opendir(dir);
    if (d == NULL) {
        return;
    }
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (stale_temp(e->d_name)) {
            char p[4400];
            if (fc_join(p, sizeof p, dir, e->d_name)) {
                OA_LOGI("removing [%s] left by an interrupted writer", p);
                (void)unlink(p);
            }
        }
    }
    closedir(d);
}

/* True for OA_FC_TMP_DIR_PREFIX "<pid>_<n>" whose pid is not alive. */
static bool stale_tmp_dir(const char *name)
{
    const size_t pl = strlen(OA_FC_TMP_DIR_PREFIX);
    if (strncmp(name, OA_FC_TMP_DIR_PREFIX, pl) != 0) {
        return false;
    }
    const char *p = name + pl;
    char *end;
    long pid = strtol(p, &end, 10);
    if (end == p || *end != '_') {
        return false;
    }
    const char *q = end + 1;
    strtoull(q, &end, 10);
    return end != q && *end == '\0' && pid_dead(pid);
}

void fc_remove_stale_tmp_dirs(const char *base)
{
    int lfd = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (lfd < 0) {
        return;
    }
    int r;
    do {
        r = flock(lfd, LOCK_EX);
    } while (r != 0 && errno == EINTR);
    if (r == 0) {
        DIR *d = opendir(base);
        struct dirent *e;
        while (d != NULL && (e = readdir(d)) != NULL) {
            char p[4400];
            if (stale_tmp_dir(e->d_name) && fc_join(p, sizeof p, base, e->d_name)) {
                struct stat st;
                if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
                    OA_LOGI("removing temporary weight directory [%s] left by a killed build", p);
                    (void)fc_remove_tree(p);
                }
            }
        }
        if (d != NULL) {
            closedir(d);
        }
        fc_remove_stale_temps(base);
        flock(lfd, LOCK_UN);
    }
    close(lfd);
}

/* ---- worker pool ---- */

unsigned fc_thread_count(unsigned explicit_threads)
{
    if (explicit_threads > 0) {
        return explicit_threads;
    }
    long v = oa_env_long("MAX_COMPILE_CORE_NUMBER", 8);
    if (v < 1 || v > 256) {
        v = 8;
    }
    return (unsigned)v;
}

typedef struct pool_ctx {
    oa_status (*fn)(void *ctx, size_t i);
    void *ctx;
    size_t n;
    atomic_size_t next;
    atomic_int first_err;
} pool_ctx;

static void *pool_worker(void *arg)
{
    pool_ctx *p = arg;
    for (;;) {
        size_t i = atomic_fetch_add(&p->next, 1);
        if (i >= p->n) {
            break;
        }
        oa_status st = p->fn(p->ctx, i);
        if (st != OA_OK) {
            int expected = OA_OK;
            atomic_compare_exchange_strong(&p->first_err, &expected, (int)st);
        }
    }
    return NULL;
}

oa_status fc_parallel_for(size_t n, unsigned threads, oa_status (*fn)(void *ctx, size_t i), void *ctx)
{
    pool_ctx p = {.fn = fn, .ctx = ctx, .n = n};
    atomic_init(&p.next, 0);
    atomic_init(&p.first_err, OA_OK);
    if (threads > n) {
        threads = (unsigned)n;
    }
    pthread_t tids[256];
    unsigned started = 0;
    for (unsigned t = 1; t < threads && t < 256; t++) {
        if (pthread_create(&tids[started], NULL, pool_worker, &p) != 0) {
            break; /* fewer threads: the caller's thread still does all the work */
        }
        started++;
    }
    pool_worker(&p);
    for (unsigned t = 0; t < started; t++) {
        pthread_join(tids[t], NULL);
    }
    return (oa_status)atomic_load(&p.first_err);
}
