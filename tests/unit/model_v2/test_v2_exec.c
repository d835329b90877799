/*
 * Execute-graph records and executors (docs/dynamic_models.md "Execute-graph
 * records", "Executors"): every graph shape runs on the three executors;
 * priority order; failures followed by a successful run (in-degree restore);
 * subscriber events; the priority queue; feed ordering; unknown kernel types.
 *
 *   chain:   a -> b -> c
 *   diamond: a -> (b, c) -> d
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "acl/acl.h"
#include "base/error.h"
#include "model_v2/v2_build.h"

static size_t g_trace[64];
static size_t g_ntrace;
static int g_fail_countdown; /* the "Fail" kernel fails while > 0, counting down */

typedef struct tinfo {
    size_t tag;
} tinfo;

static uint32_t k_rec(oa_v2_ctx *c)
{
    const tinfo *t = c->compute_node_info;
    if (g_ntrace < 64) {
        g_trace[g_ntrace++] = t ? t->tag : 999;
    }
    /* outputs: the sum of the inputs' inline integers + 1 */
    uintptr_t s = 1;
    for (size_t i = 0; i < c->input_size; ++i) {
        s += (uintptr_t)oa_v2_in(c, i)->data.ptr;
    }
    for (size_t k = 0; k < c->output_size; ++k) {
        oa_v2_out(c, k)->data.ptr = (void *)s;
    }
    return 0;
}

static uint32_t k_fail(oa_v2_ctx *c)
{
    if (g_fail_countdown > 0) {
        g_fail_countdown--;
        return (uint32_t)OA_E_INTERNAL;
    }
    return k_rec(c);
}

static oa_v2_registry g_reg;

static int setup(void **state)
{
    (void)state;
    const oa_v2_kernel_def defs[] = {{.type = "Rec", .run = k_rec}, {.type = "Fail", .run = k_fail}};
    for (size_t i = 0; i < 2; ++i) {
        if (oa_v2_registry_register(&g_reg, &defs[i]) != OA_OK) {
            return -1;
        }
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    oa_v2_registry_deinit(&g_reg);
    return 0;
}

static const oa_v2_executor_kind KINDS[3] = {OA_V2_EXEC_SEQUENTIAL, OA_V2_EXEC_TOPOLOGICAL, OA_V2_EXEC_TOPO_PRIORITY};
static tinfo g_tags[16] = {{0}, {1}, {2}, {3}, {4}, {5}, {6}, {7}, {8}, {9}, {10}, {11}, {12}, {13}, {14}, {15}};

static size_t add(oa_v2_bgraph *g, const char *type, size_t tag, const uint32_t *in, uint32_t n_in,
                  const uint32_t *out, uint32_t n_out)
{
    size_t id = 0;
    assert_int_equal(oa_v2_bgraph_add_node(g, type, type, tag, in, n_in, out, n_out, &g_tags[tag], &id), OA_OK);
    oa_v2_bgraph_set_role(g, id, OA_V2_BN_LAUNCH);
    return id;
}

static oa_v2_graph_inst *make(oa_v2_bgraph *g, oa_v2_executor_kind kind, oa_v2_value *values, oa_v2_graph_prog **pp)
{
    oa_v2_graph_prog *p = NULL;
    assert_int_equal(oa_v2_bgraph_finish(g, &g_reg, &kind, &p), OA_OK);
    oa_v2_graph_inst *x = NULL;
    assert_int_equal(oa_v2_graph_inst_create(p, values, NULL, &x), OA_OK);
    *pp = p;
    return x;
}

static void empty_graph_ok(void **state)
{
    (void)state;
    for (int k = 0; k < 3; ++k) {
        oa_v2_bgraph *g = oa_v2_bgraph_create("empty");
        oa_v2_value values[1] = {{{0}, 0}};
        oa_v2_graph_prog *p;
        oa_v2_graph_inst *x = make(g, KINDS[k], values, &p);
        assert_int_equal(oa_v2_graph_inst_run(x, 0, NULL), 0);
        oa_v2_graph_inst_destroy(x);
        oa_v2_graph_prog_destroy(p);
        oa_v2_bgraph_destroy(g);
    }
}

static void one_node_graph_ok(void **state)
{
    (void)state;
    for (int k = 0; k < 3; ++k) {
        oa_v2_bgraph *g = oa_v2_bgraph_create("one");
        const uint32_t in[1] = {0}, out[1] = {1};
        assert_int_equal(oa_v2_bgraph_add_feed(g, 0, 0), OA_OK);
        add(g, "Rec", 0, in, 1, out, 1);
        assert_int_equal(oa_v2_bgraph_add_output(g, 1), OA_OK);
        oa_v2_value values[2];
        memset(values, 0, sizeof(values));
        values[0].data.ptr = (void *)(uintptr_t)41;
        oa_v2_graph_prog *p;
        oa_v2_graph_inst *x = make(g, KINDS[k], values, &p);
        g_ntrace = 0;
        assert_int_equal(oa_v2_graph_inst_run(x, 0, NULL), 0);
        assert_int_equal((uintptr_t)values[1].data.ptr, 42);
        assert_int_equal(g_ntrace, 1);
        oa_v2_graph_inst_destroy(x);
        oa_v2_graph_prog_destroy(p);
        oa_v2_bgraph_destroy(g);
    }
}

/* diamond: a(0) -> b(1), c(2) -> d(3); values: feed 0, a 1, b 2, c 3, d 4 */
static oa_v2_bgraph *diamond(const char *fail_type)
{
    oa_v2_bgraph *g = oa_v2_bgraph_create("diamond");
    assert_int_equal(oa_v2_bgraph_add_feed(g, 0, 0), OA_OK);
    const uint32_t v0[1] = {0}, v1[1] = {1}, v2[1] = {2}, v3[1] = {3}, v4[1] = {4}, v23[2] = {2, 3};
    add(g, "Rec", 0, v0, 1, v1, 1);
    add(g, fail_type ? fail_type : "Rec", 1, v1, 1, v2, 1);
    add(g, "Rec", 2, v1, 1, v3, 1);
    add(g, "Rec", 3, v23, 2, v4, 1);
    assert_int_equal(oa_v2_bgraph_add_output(g, 4), OA_OK);
    return g;
}

static void multi_node_graph_ok(void **state)
{
    (void)state;
    for (int k = 0; k < 3; ++k) {
        oa_v2_bgraph *g = diamond(NULL);
        oa_v2_value values[5];
        memset(values, 0, sizeof(values));
        oa_v2_graph_prog *p;
        oa_v2_graph_inst *x = make(g, KINDS[k], values, &p);
        for (int run = 0; run < 3; ++run) {
            g_ntrace = 0;
            assert_int_equal(oa_v2_graph_inst_run(x, 0, NULL), 0);
            /* a = 1, b = c = 2, d = 5 */
            assert_int_equal((uintptr_t)values[4].data.ptr, 5);
            assert_int_equal(g_ntrace, 4);
            assert_int_equal(g_trace[0], 0);
            assert_int_equal(g_trace[3], 3);
        }
        oa_v2_graph_inst_destroy(x);
        oa_v2_graph_prog_destroy(p);
        oa_v2_bgraph_destroy(g);
    }
}

static void multi_nodes_schedule_by_priority(void **state)
{
    (void)state;
    /* four independent nodes with explicit priorities 3, 1, 2, 0 */
    for (int k = 0; k < 3; ++k) {
        if (KINDS[k] == OA_V2_EXEC_TOPOLOGICAL) {
            continue; /* FIFO: priority does not apply */
        }
        oa_v2_bgraph *g = oa_v2_bgraph_create("prio");
        const int64_t prio[4] = {3, 1, 2, 0};
        for (uint32_t i = 0; i < 4; ++i) {
            const uint32_t out[1] = {i};
            const size_t id = add(g, "Rec", i, NULL, 0, out, 1);
            oa_v2_bgraph_set_priority(g, id, prio[i]);
        }
        oa_v2_value values[4];
        memset(values, 0, sizeof(values));
        oa_v2_graph_prog *p;
        oa_v2_graph_inst *x = make(g, KINDS[k], values, &p);
        g_ntrace = 0;
        assert_int_equal(oa_v2_graph_inst_run(x, 0, NULL), 0);
        assert_int_equal(g_ntrace, 4);
        assert_int_equal(g_trace[0], 3);
        assert_int_equal(g_trace[1], 1);
        assert_int_equal(g_trace[2], 2);
        assert_int_equal(g_trace[3], 0);
        oa_v2_graph_inst_destroy(x);
        oa_v2_graph_prog_destroy(p);
        oa_v2_bgraph_destroy(g);
    }
}

static void multi_node_graph_failed_then_success(void **state)
{
    (void)state;
    for (int k = 0; k < 3; ++k) {
        oa_v2_bgraph *g = diamond("Fail");
        oa_v2_value values[5];
        memset(values, 0, sizeof(values));
        oa_v2_graph_prog *p;
        oa_v2_graph_inst *x = make(g, KINDS[k], values, &p);
        g_fail_countdown = 1;
        g_ntrace = 0;
        assert_int_equal(oa_v2_graph_inst_run(x, 0, NULL), (uint32_t)OA_E_INTERNAL);
        assert_true(g_ntrace < 4);
        g_ntrace = 0;
        assert_int_equal(oa_v2_graph_inst_run(x, 0, NULL), 0);
        assert_int_equal(g_ntrace, 4);
        assert_int_equal((uintptr_t)values[4].data.ptr, 5);
        oa_v2_graph_inst_destroy(x);
        oa_v2_graph_prog_destroy(p);
        oa_v2_bgraph_destroy(g);
    }
}

static int g_events[64];
static uint32_t g_event_status[64];
static size_t g_nevents;
static int g_graph_type_seen;

static void cb(int graph_type, void *arg, oa_v2_event ev, const oa_v2_node *node, uint32_t status)
{
    (void)arg;
    (void)node;
    g_graph_type_seen = graph_type;
    if (g_nevents < 64) {
        g_event_status[g_nevents] = status;
        g_events[g_nevents++] = (int)ev;
    }
}

static void multi_node_graph_with_cb_failed_then_success(void **state)
{
    (void)state;
    for (int k = 0; k < 3; ++k) {
        oa_v2_bgraph *g = diamond("Fail");
        oa_v2_value values[5];
        memset(values, 0, sizeof(values));
        oa_v2_graph_prog *p;
        oa_v2_graph_inst *x = make(g, KINDS[k], values, &p);
        oa_v2_subscriber sub = {cb, NULL};
        g_fail_countdown = 1;
        g_nevents = 0;
        assert_int_equal(oa_v2_graph_inst_run(x, 7, &sub), (uint32_t)OA_E_INTERNAL);
        assert_int_equal(g_graph_type_seen, 7);
        assert_int_equal(g_events[0], OA_V2_MODEL_START);
        assert_int_equal(g_events[g_nevents - 1], OA_V2_NODE_END); /* no ModelEnd on failure */
        assert_int_equal(g_event_status[g_nevents - 1], (uint32_t)OA_E_INTERNAL);
        g_nevents = 0;
        assert_int_equal(oa_v2_graph_inst_run(x, 7, &sub), 0);
        assert_int_equal(g_nevents, 10);
        assert_int_equal(g_events[0], OA_V2_MODEL_START);
        assert_int_equal(g_events[1], OA_V2_NODE_START);
        assert_int_equal(g_events[2], OA_V2_NODE_END);
        assert_int_equal(g_events[9], OA_V2_MODEL_END);
        /* a NULL subscriber or callback is a failure */
        oa_v2_subscriber none = {NULL, NULL};
        assert_int_not_equal(oa_v2_graph_inst_run(x, 0, &none), 0);
        oa_v2_graph_inst_destroy(x);
        oa_v2_graph_prog_destroy(p);
        oa_v2_bgraph_destroy(g);
    }
}

static void priority_queue(void **state)
{
    (void)state;
    oa_v2_pqueue q;
    assert_int_equal(oa_v2_pqueue_init(&q, 4), OA_OK);
    assert_null(oa_v2_pqueue_pop(&q));
    oa_v2_node n[5];
    const int64_t pr[5] = {5, 1, 4, 2, 3};
    for (int i = 0; i < 5; ++i) {
        n[i].priority = pr[i];
        n[i].node_id = (size_t)i;
    }
    assert_true(oa_v2_pqueue_push(&q, &n[0]));
    assert_ptr_equal(oa_v2_pqueue_pop(&q), &n[0]);
    for (int i = 0; i < 4; ++i) {
        assert_true(oa_v2_pqueue_push(&q, &n[i]));
    }
    assert_false(oa_v2_pqueue_push(&q, &n[4])); /* beyond capacity */
    assert_int_equal(oa_v2_pqueue_pop(&q)->priority, 1);
    assert_true(oa_v2_pqueue_push(&q, &n[4])); /* push after pop */
    assert_int_equal(oa_v2_pqueue_pop(&q)->priority, 2);
    assert_int_equal(oa_v2_pqueue_pop(&q)->priority, 3);
    assert_int_equal(oa_v2_pqueue_pop(&q)->priority, 4);
    assert_int_equal(oa_v2_pqueue_pop(&q)->priority, 5);
    assert_null(oa_v2_pqueue_pop(&q));
    oa_v2_pqueue_deinit(&q);
}

static void feeds_are_ordered_and_checked(void **state)
{
    (void)state;
    oa_v2_bgraph *g = oa_v2_bgraph_create("feeds");
    assert_int_equal(oa_v2_bgraph_add_feed(g, OA_V2_FEED_ALLOCATOR, 10), OA_OK);
    assert_int_equal(oa_v2_bgraph_add_feed(g, 1, 11), OA_OK);
    assert_int_equal(oa_v2_bgraph_add_feed(g, OA_V2_FEED_STREAM, 12), OA_OK);
    assert_int_equal(oa_v2_bgraph_add_feed(g, 0, 13), OA_OK);
    assert_int_equal(oa_v2_bgraph_add_feed(g, OA_V2_FEED_NOTIFIES, 14), OA_OK);
    assert_int_equal(oa_v2_bgraph_add_feed(g, OA_V2_FEED_EVENTS, 15), OA_OK);
    oa_v2_graph_prog *p = NULL;
    assert_int_equal(oa_v2_bgraph_finish(g, &g_reg, NULL, &p), OA_OK);
    const uint32_t *vid;
    const int64_t *ix;
    assert_int_equal(oa_v2_graph_prog_feeds(p, &vid, &ix), 6);
    const int64_t want_ix[6] = {0, 1, -1, -2, -3, -4};
    const uint32_t want_vid[6] = {13, 11, 12, 10, 15, 14};
    for (int i = 0; i < 6; ++i) {
        assert_int_equal(ix[i], want_ix[i]);
        assert_int_equal(vid[i], want_vid[i]);
    }
    oa_v2_graph_prog_destroy(p);
    oa_v2_bgraph_destroy(g);

    /* a gap in the user feeds fails */
    g = oa_v2_bgraph_create("gap");
    assert_int_equal(oa_v2_bgraph_add_feed(g, 0, 1), OA_OK);
    assert_int_equal(oa_v2_bgraph_add_feed(g, 2, 2), OA_OK);
    assert_int_equal(oa_v2_bgraph_finish(g, &g_reg, NULL, &p), OA_E_PARAM);
    oa_v2_bgraph_destroy(g);
    /* a duplicated special feed fails */
    g = oa_v2_bgraph_create("dup");
    assert_int_equal(oa_v2_bgraph_add_feed(g, OA_V2_FEED_STREAM, 1), OA_OK);
    assert_int_equal(oa_v2_bgraph_add_feed(g, OA_V2_FEED_STREAM, 2), OA_OK);
    assert_int_equal(oa_v2_bgraph_finish(g, &g_reg, NULL, &p), OA_E_PARAM);
    oa_v2_bgraph_destroy(g);
    /* below -4 is refused at once */
    g = oa_v2_bgraph_create("low");
    assert_int_equal(oa_v2_bgraph_add_feed(g, -5, 1), OA_E_PARAM);
    oa_v2_bgraph_destroy(g);
}

static void unknown_kernel_type_fails_at_build(void **state)
{
    (void)state;
    oa_v2_bgraph *g = oa_v2_bgraph_create("unknown");
    const uint32_t out[1] = {0};
    assert_int_equal(oa_v2_bgraph_add_node(g, "NoSuchKernel", "n", 0, NULL, 0, out, 1, NULL, NULL), OA_OK);
    oa_v2_graph_prog *p = NULL;
    assert_int_equal(oa_v2_bgraph_finish(g, &g_reg, NULL, &p), OA_E_INTERNAL);
    assert_null(p);
    assert_non_null(strstr(aclGetRecentErrMsg(), "Failed to find exec node kernel funcs"));
    oa_v2_bgraph_destroy(g);
}

static void cycles_and_double_producers_fail(void **state)
{
    (void)state;
    oa_v2_bgraph *g = oa_v2_bgraph_create("cycle");
    const uint32_t v0[1] = {0}, v1[1] = {1};
    add(g, "Rec", 0, v0, 1, v1, 1);
    add(g, "Rec", 1, v1, 1, v0, 1);
    oa_v2_graph_prog *p = NULL;
    assert_int_equal(oa_v2_bgraph_finish(g, &g_reg, NULL, &p), OA_E_PARAM);
    oa_v2_bgraph_destroy(g);
    g = oa_v2_bgraph_create("two producers");
    add(g, "Rec", 0, NULL, 0, v0, 1);
    add(g, "Rec", 1, NULL, 0, v0, 1);
    assert_int_equal(oa_v2_bgraph_finish(g, &g_reg, NULL, &p), OA_E_PARAM);
    oa_v2_bgraph_destroy(g);
}

/*
 * RT2 priorities: launch k gets k*10+9; ancestors inherit the launch's
 * priority; a free node gets the largest priority among its consumers.
 *
 *   infer(5) -> launch(5) -> free(x)   launch(2) -> free(x)
 */
static void priorities_follow_rt2(void **state)
{
    (void)state;
    oa_v2_bgraph *g = oa_v2_bgraph_create("prio");
    const uint32_t vx[1] = {0}, vs[1] = {1}, vy[1] = {2}, vz[1] = {3};
    size_t infer, l5, l2, fr, extra;
    assert_int_equal(oa_v2_bgraph_add_node(g, "Rec", "infer", 5, vx, 1, vs, 1, NULL, &infer), OA_OK);
    assert_int_equal(oa_v2_bgraph_add_node(g, "Rec", "launch5", 5, vs, 1, vy, 1, NULL, &l5), OA_OK);
    oa_v2_bgraph_set_role(g, l5, OA_V2_BN_LAUNCH);
    assert_int_equal(oa_v2_bgraph_add_node(g, "Rec", "launch2", 2, vx, 1, vz, 1, NULL, &l2), OA_OK);
    oa_v2_bgraph_set_role(g, l2, OA_V2_BN_LAUNCH);
    assert_int_equal(oa_v2_bgraph_add_node(g, "Rec", "free", OA_V2_NO_COMPUTE, vx, 1, NULL, 0, NULL, &fr), OA_OK);
    oa_v2_bgraph_set_role(g, fr, OA_V2_BN_FREE);
    assert_int_equal(oa_v2_bgraph_add_ctrl(g, l5, fr), OA_OK);
    assert_int_equal(oa_v2_bgraph_add_ctrl(g, l2, fr), OA_OK);
    assert_int_equal(oa_v2_bgraph_add_node(g, "Rec", "orphan", OA_V2_NO_COMPUTE, NULL, 0, NULL, 0, NULL, &extra),
                     OA_OK);
    oa_v2_graph_prog *p = NULL;
    assert_int_equal(oa_v2_bgraph_finish(g, &g_reg, NULL, &p), OA_OK);
    assert_int_equal(oa_v2_graph_prog_kind(p), OA_V2_EXEC_SEQUENTIAL);
    assert_int_equal(oa_v2_graph_prog_priority(p, l5), 59);
    assert_int_equal(oa_v2_graph_prog_priority(p, infer), 59);
    assert_int_equal(oa_v2_graph_prog_priority(p, l2), 29);
    assert_int_equal(oa_v2_graph_prog_priority(p, fr), 59);
    assert_int_equal(oa_v2_graph_prog_priority(p, extra), INT64_MAX);
    const size_t *order = oa_v2_graph_prog_order(p);
    assert_int_equal(order[0], l2);
    assert_int_equal(order[1], infer);
    assert_int_equal(order[2], l5);
    assert_int_equal(order[3], fr);
    oa_v2_graph_prog_destroy(p);
    oa_v2_bgraph_destroy(g);
}

static void executor_selection(void **state)
{
    (void)state;
    assert_int_equal(oa_v2_select_executor(false, 100), OA_V2_EXEC_SEQUENTIAL);
    assert_int_equal(oa_v2_select_executor(true, 5), OA_V2_EXEC_TOPO_PRIORITY);
    assert_int_equal(oa_v2_select_executor(true, 4), OA_V2_EXEC_TOPOLOGICAL);
}

static int g_deleted;
static void del(void *p)
{
    (void)p;
    g_deleted++;
}

static void value_cells_run_deleters(void **state)
{
    (void)state;
    oa_v2_value v = {{0}, 0};
    int a, b;
    g_deleted = 0;
    oa_v2_value_set(&v, &a, del);
    oa_v2_value_set(&v, &b, del);
    assert_int_equal(g_deleted, 1);
    oa_v2_value_set(&v, &b, del); /* same pointer: kept */
    assert_int_equal(g_deleted, 1);
    oa_v2_value_reset(&v);
    assert_int_equal(g_deleted, 2);
    assert_null(v.data.ptr);
    assert_int_equal(oa_v2_node_record_size(2), 24 + 40 + 16);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(empty_graph_ok),
        cmocka_unit_test(one_node_graph_ok),
        cmocka_unit_test(multi_node_graph_ok),
        cmocka_unit_test(multi_nodes_schedule_by_priority),
        cmocka_unit_test(multi_node_graph_failed_then_success),
        cmocka_unit_test(multi_node_graph_with_cb_failed_then_success),
        cmocka_unit_test(priority_queue),
        cmocka_unit_test(feeds_are_ordered_and_checked),
        cmocka_unit_test(unknown_kernel_type_fails_at_build),
        cmocka_unit_test(cycles_and_double_producers_fail),
        cmocka_unit_test(priorities_follow_rt2),
        cmocka_unit_test(executor_selection),
        cmocka_unit_test(value_cells_run_deleters),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
