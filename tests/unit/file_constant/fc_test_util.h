/*
 * Helpers for the file_constant tests: temporary directories, files, small
 * graphs with weights.
 */
#ifndef OA_TESTS_FC_TEST_UTIL_H
#define OA_TESTS_FC_TEST_UTIL_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "../graph/graph_test_util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file_constant/fc_internal.h"
#include "file_constant/file_constant.h"

/* A fresh directory under $TMPDIR (or /tmp); the caller frees the string. */
static inline char *fu_tmpdir(void)
{
    const char *base = getenv("TMPDIR");
    char tmpl[PATH_MAX];
    snprintf(tmpl, sizeof tmpl, "%s/oa_fc_XXXXXX", base && base[0] ? base : "/tmp");
    char *d = mkdtemp(tmpl);
    assert_non_null(d);
    char real[PATH_MAX];
    assert_non_null(realpath(d, real));
    return strdup(real);
}

static inline void fu_rmtree(char *dir)
{
    if (dir != NULL) {
        (void)fc_remove_tree(dir);
        free(dir);
    }
}

static inline char *fu_path(const char *dir, const char *name)
{
    char *p = malloc(PATH_MAX);
    snprintf(p, PATH_MAX, "%s/%s", dir, name);
    return p;
}

static inline void fu_write(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    if (len > 0) {
        assert_int_equal(fwrite(data, 1, len, f), len);
    }
    assert_int_equal(fclose(f), 0);
}

/* Whole file into a malloc'd buffer (NUL-terminated); NULL when missing. */
static inline char *fu_read(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    assert_int_equal(fread(b, 1, (size_t)n, f), (size_t)n);
    b[n] = '\0';
    fclose(f);
    if (len) {
        *len = (size_t)n;
    }
    return b;
}

static inline long long fu_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long long)st.st_size : -1;
}

static inline bool fu_exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

/* Fills n floats with a pattern depending on seed. */
static inline void fu_fill(float *v, size_t n, int seed)
{
    for (size_t i = 0; i < n; i++) {
        v[i] = (float)(seed * 1000 + (int)i) * 0.5f;
    }
}

/* A float Const of n elements with pattern seed, consumed by a Relu that
 * feeds the NetOutput slot `slot`. Returns the const. */
static inline oa_node *fu_weight(oa_graph *g, const char *name, size_t n, int seed, oa_node *out, uint32_t slot)
{
    float *v = malloc(n * sizeof *v);
    fu_fill(v, n, seed);
    char shape[32];
    snprintf(shape, sizeof shape, "%zu", n);
    oa_node *c = tu_const(g, name, OA_DT_FLOAT, shape, v);
    free(v);
    char rn[128];
    snprintf(rn, sizeof rn, "relu_%s", name);
    oa_node *r = tu_op1(g, OA_OP_RELU, rn, 1, c);
    if (out != NULL) {
        EXPECT_OK(oa_node_connect(out, slot, r, 0));
    }
    return c;
}

/* The hash string of a weight made by fu_weight. */
static inline void fu_hash(size_t n, int seed, char out[OA_FC_HASH_CAP])
{
    float *v = malloc(n * sizeof *v);
    fu_fill(v, n, seed);
    EXPECT_OK(oa_fc_hash_bytes(v, n * sizeof *v, out));
    free(v);
}

/* The FileConstant node whose name starts with prefix "<name>_". */
static inline oa_node *fu_find_fc(const oa_graph *g, const char *name)
{
    size_t l = strlen(name);
    for (oa_node *n = oa_graph_first_node(g); n; n = n->next) {
        if (n->type == OA_OP_FILE_CONSTANT && strncmp(n->name, name, l) == 0 && n->name[l] == '_') {
            return n;
        }
    }
    return NULL;
}

#endif /* OA_TESTS_FC_TEST_UTIL_H */
