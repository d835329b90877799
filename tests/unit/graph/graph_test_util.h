/*
 * Helpers shared by the graph tests: building small graphs tersely and
 * checking failures (exact status plus a message fragment).
 */
#ifndef OA_TESTS_GRAPH_TEST_UTIL_H
#define OA_TESTS_GRAPH_TEST_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "base/error.h"
#include "graph/graph.h"
#include "graph/infer.h"

/* Asserts st == want and that the recorded message contains `fragment`. */
#define EXPECT_FAIL(expr, want, fragment)                                                     \
    do {                                                                                       \
        oa_error_clear();                                                                      \
        oa_status st_ = (expr);                                                                \
        const char *m_ = oa_error_take_messages();                                             \
        if (st_ != (want) || m_ == NULL || strstr(m_, (fragment)) == NULL) {                   \
            print_error("%s: status %s (want %s), message [%s], want fragment [%s]\n", #expr, \
                        oa_status_str(st_), oa_status_str(want), m_ ? m_ : "(none)", (fragment)); \
            fail();                                                                            \
        }                                                                                      \
    } while (0)

#define EXPECT_OK(expr)                                                                        \
    do {                                                                                       \
        oa_status st_ = (expr);                                                                \
        if (st_ != OA_OK) {                                                                    \
            const char *m_ = oa_error_take_messages();                                         \
            print_error("%s failed: %s: %s\n", #expr, oa_status_str(st_), m_ ? m_ : "");       \
            fail();                                                                            \
        }                                                                                      \
    } while (0)

/* Parses "1,3,-1" ("" = scalar, "?" = unknown rank). */
static inline oa_shape tu_shape(const char *s)
{
    if (strcmp(s, "?") == 0) {
        return oa_shape_unknown_rank();
    }
    oa_shape sh;
    memset(&sh, 0, sizeof(sh));
    const char *p = s;
    while (*p && sh.rank < OA_MAX_RANK) {
        char *end;
        long long v = strtoll(p, &end, 10);
        if (end == p) {
            break;
        }
        sh.dims[sh.rank++] = v;
        p = (*end == ',') ? end + 1 : end;
    }
    return sh;
}

static inline oa_node *tu_data(oa_graph *g, const char *name, oa_dtype dt, const char *shape)
{
    oa_shape s = tu_shape(shape);
    oa_node *n = NULL;
    EXPECT_OK(oa_graph_add_data(g, name, (int64_t)oa_graph_num_inputs(g), dt, &s, OA_FORMAT_ND, &n));
    return n;
}

static inline oa_node *tu_const(oa_graph *g, const char *name, oa_dtype dt, const char *shape, const void *data)
{
    oa_shape s = tu_shape(shape);
    size_t bytes = 0;
    (void)oa_tensor_nbytes(dt, &s, &bytes);
    oa_tensor *t = NULL;
    EXPECT_OK(oa_graph_make_tensor(g, dt, &s, data, bytes, &t));
    oa_node *n = NULL;
    EXPECT_OK(oa_graph_add_const(g, name, t, &n));
    return n;
}

static inline oa_node *tu_i64(oa_graph *g, const char *name, const char *shape, const int64_t *v)
{
    return tu_const(g, name, OA_DT_INT64, shape, v);
}

/* A node of `type` with nin slots; slot i < nsrc reads output 0 of srcs[i]
 * (NULL = unconnected). */
static inline oa_node *tu_opn(oa_graph *g, oa_op_type type, const char *name, uint32_t nin, uint32_t nout,
                              oa_node *const *srcs, uint32_t nsrc)
{
    oa_node *n = NULL;
    EXPECT_OK(oa_graph_add_node(g, type, name, nin, nout, &n));
    for (uint32_t i = 0; i < nin && i < nsrc; i++) {
        if (srcs && srcs[i]) {
            EXPECT_OK(oa_node_connect(n, i, srcs[i], 0));
        }
    }
    return n;
}

/* Asserts the text form of output k's desc ("f32[1,3]", "i64[2]", ...). */
/* tu_opn with every slot listed in srcs (exactly nin entries). */
#define tu_op(g, type, name, nin, nout, srcs) tu_opn((g), (type), (name), (nin), (nout), (srcs), (nin))
/* One-input shorthand. */
#define tu_op1(g, type, name, nout, src) tu_opn((g), (type), (name), 1, (nout), &(src), 1)

#define EXPECT_DESC(node, k, want)                                                             \
    do {                                                                                       \
        char b_[256];                                                                          \
        oa_desc_str(oa_node_output_desc((node), (k)), b_, sizeof(b_));                         \
        if (strcmp(b_, (want)) != 0) {                                                         \
            print_error("%s output %d: got %s, want %s\n", (node)->name, (int)(k), b_, (want)); \
            fail();                                                                            \
        }                                                                                      \
    } while (0)

#endif /* OA_TESTS_GRAPH_TEST_UTIL_H */
