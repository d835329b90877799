/*
 * acl_rt/: replays of model runtime instances through the public API:
 * capture -> replay gives what direct execution gives (copies, fills, host
 * functions, callbacks, event chains across streams, external events), replays
 * on other streams and their serialisation, destroy while a replay is
 * queued, abort, task listing and parameters, names, debug printers, manual
 * builds with labels and stream activation, condition tasks, and the host
 * cost of a replay against issuing the same work.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "rt_test_util.h"

/* An ordered log of what host functions ran. */
typedef struct run_log {
    pthread_mutex_t mu;
    char text[512];
    size_t n;
} run_log;

static run_log g_log = {.mu = PTHREAD_MUTEX_INITIALIZER};

static void log_reset(void)
{
    pthread_mutex_lock(&g_log.mu);
    g_log.n = 0;
    g_log.text[0] = '\0';
    pthread_mutex_unlock(&g_log.mu);
}

static void log_char(void *arg)
{
    pthread_mutex_lock(&g_log.mu);
    if (g_log.n + 1 < sizeof(g_log.text)) {
        g_log.text[g_log.n++] = (char)(uintptr_t)arg;
        g_log.text[g_log.n] = '\0';
    }
    pthread_mutex_unlock(&g_log.mu);
}

static void log_expect(const char *want)
{
    pthread_mutex_lock(&g_log.mu);
    if (strcmp(g_log.text, want) != 0) {
        printf("log is \"%s\", expected \"%s\"\n", g_log.text, want);
    }
    assert_string_equal(g_log.text, want);
    pthread_mutex_unlock(&g_log.mu);
}

/* Position of c in the log, -1 when absent. */
static int log_pos(char c)
{
    pthread_mutex_lock(&g_log.mu);
    const char *p = strchr(g_log.text, c);
    int r = p != NULL ? (int)(p - g_log.text) : -1;
    pthread_mutex_unlock(&g_log.mu);
    return r;
}

#define LOG(c) ((void *)(uintptr_t)(c))

/* ---- capture -> replay equals direct execution ------------------------------------------------------- */

enum { N = 256 };

typedef struct pipeline {
    unsigned char *in;   /* page-locked host */
    unsigned char *out;  /* page-locked host */
    unsigned char *dev;
} pipeline;

static void add_one(void *arg)
{
    unsigned char *p = arg;
    for (int i = 0; i < N; ++i) {
        p[i] = (unsigned char)(p[i] + 1);
    }
}

/* The work: upload, fill the tail, transform on the "device", download. */
static void issue(pipeline *p, aclrtStream s)
{
    assert_int_equal(aclrtMemcpyAsync(p->dev, N, p->in, N, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
    assert_int_equal(aclrtMemsetAsync(p->dev + N / 2, N / 2, 0x40, N / 4, s), ACL_SUCCESS);
    assert_int_equal(aclrtLaunchHostFunc(s, add_one, p->dev), ACL_SUCCESS);
    assert_int_equal(aclrtMemcpyAsync(p->out, N, p->dev, N, ACL_MEMCPY_DEVICE_TO_HOST, s), ACL_SUCCESS);
}

static void fill_input(pipeline *p, int seed)
{
    for (int i = 0; i < N; ++i) {
        p->in[i] = (unsigned char)(seed * 7 + i);
    }
}

static void replay_equals_direct(void **state)
{
    (void)state;
    pipeline p;
    assert_int_equal(aclrtMallocHost((void **)&p.in, N), ACL_SUCCESS);
    assert_int_equal(aclrtMallocHost((void **)&p.out, N), ACL_SUCCESS);
    assert_int_equal(aclrtMalloc((void **)&p.dev, N, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    aclrtStream s = test_new_stream(), other = test_new_stream();

    aclmdlRI m = NULL;
    fill_input(&p, 99);
    memset(p.out, 0, N);
    assert_int_equal(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    issue(&p, s);
    assert_int_equal(aclmdlRICaptureEnd(s, &m), ACL_SUCCESS);
    /* Nothing ran during the capture. */
    assert_int_equal(aclrtSynchronizeStream(s), ACL_SUCCESS);
    for (int i = 0; i < N; ++i) {
        assert_int_equal(p.out[i], 0);
    }

    unsigned char expect[N];
    for (int round = 0; round < 6; ++round) {
        /* Direct execution of the same work. */
        fill_input(&p, round);
        issue(&p, s);
        assert_int_equal(aclrtSynchronizeStream(s), ACL_SUCCESS);
        memcpy(expect, p.out, N);
        memset(p.out, 0, N);
        memset(p.dev, 0, N);
        /* New input written into the captured buffer, then a replay (alternating streams). */
        fill_input(&p, round);
        aclrtStream on = (round % 2 == 0) ? s : other;
        assert_int_equal(aclmdlRIExecuteAsync(m, on), ACL_SUCCESS);
        assert_int_equal(aclrtSynchronizeStream(on), ACL_SUCCESS);
        assert_memory_equal(p.out, expect, N);
    }
    assert_int_equal(aclmdlRIDestroy(m), ACL_SUCCESS);
    assert_int_equal(aclrtFreeHost(p.in), ACL_SUCCESS);
    assert_int_equal(aclrtFreeHost(p.out), ACL_SUCCESS);
    assert_int_equal(aclrtFree(p.dev), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(other), ACL_SUCCESS);
}

/* ---- cross-stream event chains -------------------------------------------------------------------------- */

static void event_chain(void **state)
{
    (void)state;
    aclrtStream s = test_new_stream(), side = test_new_stream(), exec = test_new_stream();
    aclrtEvent e1 = NULL, e2 = NULL;
    assert_int_equal(aclrtCreateEventExWithFlag(&e1, ACL_EVENT_SYNC), ACL_SUCCESS);
    assert_int_equal(aclrtCreateEventExWithFlag(&e2, ACL_EVENT_SYNC), ACL_SUCCESS);
    aclmdlRI m = NULL;
    assert_int_equal(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    assert_int_equal(aclrtLaunchHostFunc(s, log_char, LOG('A')), ACL_SUCCESS);
    assert_int_equal(aclrtRecordEvent(e1, s), ACL_SUCCESS);
    assert_int_equal(aclrtStreamWaitEvent(side, e1), ACL_SUCCESS);
    assert_int_equal(aclrtLaunchHostFunc(side, log_char, LOG('B')), ACL_SUCCESS);
    assert_int_equal(aclrtLaunchHostFunc(s, log_char, LOG('C')), ACL_SUCCESS);
    assert_int_equal(aclrtRecordEvent(e2, side), ACL_SUCCESS);
    assert_int_equal(aclrtStreamWaitEvent(s, e2), ACL_SUCCESS);
    assert_int_equal(aclrtLaunchHostFunc(s, log_char, LOG('D')), ACL_SUCCESS);
    assert_int_equal(aclmdlRICaptureEnd(s, &m), ACL_SUCCESS);
    for (int i = 0; i < 5; ++i) {
        log_reset();
        assert_int_equal(aclmdlRIExecuteAsync(m, exec), ACL_SUCCESS);
        assert_int_equal(aclrtSynchronizeStream(exec), ACL_SUCCESS);
        assert_true(log_pos('A') == 0);
        assert_true(log_pos('B') > log_pos('A'));
        assert_true(log_pos('C') > log_pos('A'));
        assert_true(log_pos('D') > log_pos('B') && log_pos('D') > log_pos('C'));
    }
    /* The captured records never touched the events. */
    aclrtEventRecordedStatus rs;
    assert_int_equal(aclrtQueryEventStatus(e1, &rs), ACL_SUCCESS);
    assert_int_equal(aclmdlRIDestroy(m), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyEvent(e1), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyEvent(e2), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(side), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(exec), ACL_SUCCESS);
}

/* ---- callbacks reach the thread subscribed at capture time ---------------------------------------------- */

typedef struct reporter {
    volatile int stop;
    int served;
} reporter;

static void *report_main(void *arg)
{
    reporter *r = arg;
    while (!__atomic_load_n(&r->stop, __ATOMIC_ACQUIRE)) {
        if (aclrtProcessReport(20) == ACL_SUCCESS) {
            __atomic_fetch_add(&r->served, 1, __ATOMIC_SEQ_CST);
        }
    }
    return NULL;
}

static void callbacks(void **state)
{
    (void)state;
    aclrtStream s = test_new_stream(), exec = test_new_stream();
    reporter r = {0};
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, report_main, &r), 0);
    assert_int_equal(aclrtSubscribeReport((uint64_t)t, s), ACL_SUCCESS);
    int count = 0;
    aclmdlRI m = NULL;
    assert_int_equal(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    assert_int_equal(aclrtLaunchCallback(test_counter_inc, &count, ACL_CALLBACK_BLOCK, s), ACL_SUCCESS);
    assert_int_equal(aclrtLaunchCallback(test_counter_inc, &count, ACL_CALLBACK_NO_BLOCK, s), ACL_SUCCESS);
    assert_int_equal(aclmdlRICaptureEnd(s, &m), ACL_SUCCESS);
    assert_int_equal(test_counter_get(&count), 0);
    for (int i = 0; i < 3; ++i) {
        assert_int_equal(aclmdlRIExecuteAsync(m, exec), ACL_SUCCESS); /* exec has no subscriber itself */
    }
    assert_int_equal(aclrtSynchronizeStream(exec), ACL_SUCCESS);
    uint64_t deadline = test_now_ms() + 5000;
    while (test_counter_get(&count) < 6 && test_now_ms() < deadline) {
        test_sleep_ms(1);
    }
    assert_int_equal(test_counter_get(&count), 6);
    assert_int_equal(aclmdlRIDestroy(m), ACL_SUCCESS);
    assert_int_equal(aclrtUnSubscribeReport((uint64_t)t, s), ACL_SUCCESS);
    __atomic_store_n(&r.stop, 1, __ATOMIC_RELEASE);
    pthread_join(t, NULL);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(exec), ACL_SUCCESS);
}

/* ---- replays of one instance do not overlap --------------------------------------------------------------- */

static int g_busy;
static int g_overlaps;
static int g_runs;

static void enter_graph(void *arg)
{
    (void)arg;
    if (__atomic_exchange_n(&g_busy, 1, __ATOMIC_SEQ_CST) != 0) {
        __atomic_fetch_add(&g_overlaps, 1, __ATOMIC_SEQ_CST);
    }
    test_sleep_ms(2);
}

static void leave_graph(void *arg)
{
    (void)arg;
    __atomic_fetch_add(&g_runs, 1, __ATOMIC_SEQ_CST);
    __atomic_store_n(&g_busy, 0, __ATOMIC_SEQ_CST);
}

static void replays_serialised(void **state)
{
    (void)state;
    aclrtStream s = test_new_stream(), a = test_new_stream(), b = test_new_stream();
    aclmdlRI m = NULL;
    assert_int_equal(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    assert_int_equal(aclrtLaunchHostFunc(s, enter_graph, NULL), ACL_SUCCESS);
    assert_int_equal(aclrtLaunchHostFunc(s, leave_graph, NULL), ACL_SUCCESS);
    assert_int_equal(aclmdlRICaptureEnd(s, &m), ACL_SUCCESS);
    for (int i = 0; i < 10; ++i) {
        assert_int_equal(aclmdlRIExecuteAsync(m, (i % 2) ? a : b), ACL_SUCCESS);
    }
    assert_int_equal(aclrtSynchronizeStream(a), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(b), ACL_SUCCESS);
    assert_int_equal(__atomic_load_n(&g_runs, __ATOMIC_SEQ_CST), 10);
    assert_int_equal(__atomic_load_n(&g_overlaps, __ATOMIC_SEQ_CST), 0);
    assert_int_equal(aclmdlRIDestroy(m), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(a), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(b), ACL_SUCCESS);
}

/* ---- destroy while a replay is queued; destroy callbacks -------------------------------------------------- */

static int g_destroyed;
static void *g_destroyed_arg;

static void on_destroy(void *arg)
{
    g_destroyed_arg = arg;
    __atomic_fetch_add(&g_destroyed, 1, __ATOMIC_SEQ_CST);
}

static void on_destroy_other(void *arg)
{
    (void)arg;
    __atomic_fetch_add(&g_destroyed, 100, __ATOMIC_SEQ_CST);
}

static void *open_later(void *arg)
{
    test_sleep_ms(100);
    test_gate_open(arg);
    return NULL;
}

static void destroy_while_queued(void **state)
{
    (void)state;
    aclrtStream s = test_new_stream(), exec = test_new_stream();
    int count = 0;
    aclmdlRI m = NULL;
    assert_int_equal(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    assert_int_equal(aclrtLaunchHostFunc(s, test_counter_inc, &count), ACL_SUCCESS);
    assert_int_equal(aclmdlRICaptureEnd(s, &m), ACL_SUCCESS);

    assert_int_equal(aclmdlRIDestroyRegisterCallback(NULL, on_destroy, NULL), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclmdlRIDestroyRegisterCallback(m, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclmdlRIDestroyRegisterCallback(m, on_destroy, &count), ACL_SUCCESS);
    assert_int_equal(aclmdlRIDestroyRegisterCallback(m, on_destroy, &count), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclmdlRIDestroyUnregisterCallback(m, on_destroy_other), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclmdlRIDestroyRegisterCallback(m, on_destroy_other, NULL), ACL_SUCCESS);
    assert_int_equal(aclmdlRIDestroyUnregisterCallback(m, on_destroy_other), ACL_SUCCESS);

    test_gate g;
    test_gate_init(&g);
    assert_int_equal(aclrtLaunchHostFunc(exec, test_gate_fn, &g), ACL_SUCCESS);
    assert_int_equal(aclmdlRIExecuteAsync(m, exec), ACL_SUCCESS);
    assert_int_equal(aclmdlRIExecuteAsync(m, exec), ACL_SUCCESS);
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, open_later, &g), 0);
    /* CANN waits for the executions in flight before destroying. */
    assert_int_equal(aclmdlRIDestroy(m), ACL_SUCCESS);
    pthread_join(t, NULL);
    assert_int_equal(test_counter_get(&count), 2);
    assert_int_equal(__atomic_load_n(&g_destroyed, __ATOMIC_SEQ_CST), 1);
    assert_ptr_equal(g_destroyed_arg, &count);
    assert_int_equal(aclmdlRIExecuteAsync(m, exec), ACL_ERROR_RT_INVALID_HANDLE);
    assert_int_equal(aclrtSynchronizeStream(exec), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(exec), ACL_SUCCESS);
}

/* A host function of a replay destroys its own instance: no deadlock, the teardown waits for the replay. */
static aclmdlRI g_self;
static aclError g_self_ret = -1;

static void destroy_self(void *arg)
{
    (void)arg;
    g_self_ret = aclmdlRIDestroy(g_self);
}

static void destroy_from_own_replay(void **state)
{
    (void)state;
    aclrtStream s = test_new_stream(), exec = test_new_stream();
    int count = 0;
    assert_int_equal(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    assert_int_equal(aclrtLaunchHostFunc(s, destroy_self, NULL), ACL_SUCCESS);
    assert_int_equal(aclrtLaunchHostFunc(s, test_counter_inc, &count), ACL_SUCCESS);
    assert_int_equal(aclmdlRICaptureEnd(s, &g_self), ACL_SUCCESS);
    aclrtContext ctx = NULL;
    assert_int_equal(aclrtGetCurrentContext(&ctx), ACL_SUCCESS);
    assert_int_equal(aclmdlRIExecuteAsync(g_self, exec), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(exec), ACL_SUCCESS);
    /* The worker thread has no current context: the destroy fails there, the replay goes on. */
    assert_int_equal(g_self_ret, ACL_ERROR_RT_CONTEXT_NULL);
    assert_int_equal(test_counter_get(&count), 1);
    assert_int_equal(aclmdlRIDestroy(g_self), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(exec), ACL_SUCCESS);
}

/* ---- abort ---------------------------------------------------------------------------------------------------- */

static void abort_replays(void **state)
{
    (void)state;
    aclrtStream s = test_new_stream(), exec = test_new_stream();
    int count = 0;
    aclmdlRI m = NULL;
    assert_int_equal(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    assert_int_equal(aclrtLaunchHostFunc(s, test_counter_inc, &count), ACL_SUCCESS);
    assert_int_equal(aclmdlRICaptureEnd(s, &m), ACL_SUCCESS);
    assert_int_equal(aclmdlRIAbort(NULL), ACL_ERROR_RT_PARAM_INVALID);
    test_gate g;
    test_gate_init(&g);
    assert_int_equal(aclrtLaunchHostFunc(exec, test_gate_fn, &g), ACL_SUCCESS);
    for (int i = 0; i < 3; ++i) {
        assert_int_equal(aclmdlRIExecuteAsync(m, exec), ACL_SUCCESS);
    }
    assert_int_equal(aclmdlRIAbort(m), ACL_SUCCESS);
    test_gate_open(&g);
    assert_int_equal(aclrtSynchronizeStream(exec), ACL_SUCCESS);
    assert_int_equal(test_counter_get(&count), 0);
    /* Later launches run. */
    assert_int_equal(aclmdlRIExecuteAsync(m, exec), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(exec), ACL_SUCCESS);
    assert_int_equal(test_counter_get(&count), 1);
    assert_int_equal(aclmdlRIDestroy(m), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(exec), ACL_SUCCESS);
}

/* ---- external events --------------------------------------------------------------------------------------- */

static void external_record_and_wait(void **state)
{
    (void)state;
    aclrtStream graph = test_new_stream(), ext = test_new_stream();
    aclrtEvent ev = NULL;
    assert_int_equal(aclrtCreateEventExWithFlag(&ev, ACL_EVENT_SYNC), ACL_SUCCESS);

    /* ACL_EVENT_RECORD_EXTERNAL: a stream outside the graph waits for the replay's record. */
    aclmdlRI rec = NULL;
    assert_int_equal(aclmdlRICaptureBegin(graph, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
    assert_int_equal(aclrtLaunchHostFunc(graph, log_char, LOG('G')), ACL_SUCCESS);
    assert_int_equal(aclrtRecordEventWithFlag(ev, graph, ACL_EVENT_RECORD_EXTERNAL), ACL_SUCCESS);
    assert_int_equal(aclmdlRICaptureEnd(graph, &rec), ACL_SUCCESS);
    for (int i = 0; i < 3; ++i) {
        log_reset();
        test_gate g;
        test_gate_init(&g);
        assert_int_equal(aclrtLaunchHostFunc(graph, test_gate_fn, &g), ACL_SUCCESS);
        assert_int_equal(aclmdlRIExecuteAsync(rec, graph), ACL_SUCCESS);
        assert_int_equal(aclrtStreamWaitEvent(ext, ev), ACL_SUCCESS);
        assert_int_equal(aclrtLaunchHostFunc(ext, log_char, LOG('E')), ACL_SUCCESS);
        test_sleep_ms(20);
        log_expect(""); /* ext waits for the replay, which waits for the gate */
        test_gate_open(&g);
        assert_int_equal(aclrtSynchronizeStream(ext), ACL_SUCCESS);
        assert_int_equal(aclrtSynchronizeStream(graph), ACL_SUCCESS);
        log_expect("GE");
        assert_int_equal(aclrtSynchronizeEvent(ev), ACL_SUCCESS);
    }

    /* ACL_EVENT_WAIT_EXTERNAL: the replay waits for the record issued before the launch. */
    aclrtEvent ev2 = NULL;
    assert_int_equal(aclrtCreateEventExWithFlag(&ev2, ACL_EVENT_SYNC), ACL_SUCCESS);
    aclmdlRI wait = NULL;
    assert_int_equal(aclmdlRICaptureBegin(graph, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
    assert_int_equal(aclrtStreamWaitEventWithFlag(graph, ev2, 0, ACL_EVENT_WAIT_EXTERNAL), ACL_SUCCESS);
    assert_int_equal(aclrtLaunchHostFunc(graph, log_char, LOG('G')), ACL_SUCCESS);
    assert_int_equal(aclmdlRICaptureEnd(graph, &wait), ACL_SUCCESS);
    for (int i = 0; i < 3; ++i) {
        log_reset();
        test_gate g;
        test_gate_init(&g);
        assert_int_equal(aclrtLaunchHostFunc(ext, test_gate_fn, &g), ACL_SUCCESS);
        assert_int_equal(aclrtLaunchHostFunc(ext, log_char, LOG('E')), ACL_SUCCESS);
        assert_int_equal(aclrtRecordEvent(ev2, ext), ACL_SUCCESS);
        assert_int_equal(aclmdlRIExecuteAsync(wait, graph), ACL_SUCCESS);
        test_sleep_ms(20);
        log_expect("");
        test_gate_open(&g);
        assert_int_equal(aclrtSynchronizeStream(graph), ACL_SUCCESS);
        log_expect("EG");
    }
    /* No record before the launch: nothing to wait for. */
    log_reset();
    aclrtEvent fresh = NULL;
    assert_int_equal(aclrtCreateEventExWithFlag(&fresh, ACL_EVENT_SYNC), ACL_SUCCESS);

    assert_int_equal(aclmdlRIDestroy(rec), ACL_SUCCESS);
    assert_int_equal(aclmdlRIDestroy(wait), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyEvent(ev), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyEvent(ev2), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyEvent(fresh), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(graph), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(ext), ACL_SUCCESS);
}

/* An ACL_EVENT_EXTERNAL event inside a graph: wait for its signal, then reset it (CANN's model update sample). */
static void external_flag_event(void **state)
{
    (void)state;
    aclrtStream graph = test_new_stream(), update = test_new_stream();
    aclrtEvent ev = NULL;
    assert_int_equal(aclrtCreateEventWithFlag(&ev, ACL_EVENT_EXTERNAL), ACL_SUCCESS);
    aclmdlRI m = NULL;
    assert_int_equal(aclmdlRICaptureBegin(graph, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
    assert_int_equal(aclrtLaunchHostFunc(graph, log_char, LOG('a')), ACL_SUCCESS);
    assert_int_equal(aclrtStreamWaitEvent(graph, ev), ACL_SUCCESS);
    assert_int_equal(aclrtResetEvent(ev, graph), ACL_SUCCESS);
    assert_int_equal(aclrtLaunchHostFunc(graph, log_char, LOG('b')), ACL_SUCCESS);
    assert_int_equal(aclmdlRICaptureEnd(graph, &m), ACL_SUCCESS);
    for (int i = 0; i < 3; ++i) {
        log_reset();
        assert_int_equal(aclmdlRIExecuteAsync(m, graph), ACL_SUCCESS);
        test_sleep_ms(20);
        log_expect("a"); /* waits for the event signal */
        assert_int_equal(aclrtLaunchHostFunc(update, log_char, LOG('u')), ACL_SUCCESS);
        assert_int_equal(aclrtRecordEvent(ev, update), ACL_SUCCESS);
        assert_int_equal(aclrtSynchronizeStream(graph), ACL_SUCCESS);
        log_expect("aub");
        assert_int_equal(aclrtSynchronizeStream(update), ACL_SUCCESS);
    }
    assert_int_equal(aclmdlRIDestroy(m), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyEvent(ev), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(graph), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(update), ACL_SUCCESS);
}

/* ---- tasks: listing, types, parameters, updates -------------------------------------------------------------- */

static void tasks_and_params(void **state)
{
    (void)state;
    aclrtStream s = test_new_stream(), exec = test_new_stream();
    uint64_t *word = NULL;
    void *dev = NULL;
    unsigned char *host = NULL;
    assert_int_equal(aclrtMalloc((void **)&word, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    assert_int_equal(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    assert_int_equal(aclrtMallocHost((void **)&host, 64), ACL_SUCCESS);
    aclrtEvent ev = NULL;
    assert_int_equal(aclrtCreateEventExWithFlag(&ev, ACL_EVENT_SYNC), ACL_SUCCESS);
    *word = 0;

    aclmdlRI m = NULL;
    assert_int_equal(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    /* The instance's streams can be listed during the capture. */
    aclmdlRI during = NULL;
    uint32_t ns = 0;
    assert_int_equal(aclmdlRICaptureGetInfo(s, NULL, &during), ACL_SUCCESS);
    assert_int_equal(aclmdlRIGetStreams(during, NULL, &ns), ACL_SUCCESS);
    assert_int_equal(ns, 1);
    assert_int_equal(aclrtMemcpyAsync(dev, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
    assert_int_equal(aclrtValueWrite(word, 5, 0, s), ACL_SUCCESS);
    assert_int_equal(aclrtRecordEvent(ev, s), ACL_SUCCESS);
    assert_int_equal(aclrtValueWait(word, 5, ACL_STREAM_WAIT_VALUE_EQ, s), ACL_SUCCESS);
    assert_int_equal(aclmdlRICaptureEnd(s, &m), ACL_SUCCESS);

    /* Streams. */
    assert_int_equal(aclmdlRIGetStreams(NULL, NULL, &ns), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclmdlRIGetStreams(m, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclmdlRIGetStreams(m, NULL, &ns), ACL_SUCCESS);
    assert_int_equal(ns, 1);
    aclrtStream ms[3] = {(aclrtStream)1, (aclrtStream)1, (aclrtStream)1};
    ns = 3;
    assert_int_equal(aclmdlRIGetStreams(m, ms, &ns), ACL_SUCCESS);
    assert_int_equal(ns, 1);
    assert_non_null(ms[0]);
    assert_ptr_not_equal(ms[0], s); /* the instance's own model stream */
    assert_null(ms[1]);
    ns = 0;
    assert_int_equal(aclmdlRIGetStreams(m, ms, &ns), ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY);
    assert_int_equal(ns, 0);

    /* Tasks. */
    uint32_t nt = 0;
    assert_int_equal(aclmdlRIGetTasksByStream(s, NULL, &nt), ACL_ERROR_RT_PARAM_INVALID); /* not a model stream */
    assert_int_equal(aclmdlRIGetTasksByStream(NULL, NULL, &nt), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclmdlRIGetTasksByStream(ms[0], NULL, NULL), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclmdlRIGetTasksByStream(ms[0], NULL, &nt), ACL_SUCCESS);
    assert_int_equal(nt, 4);
    aclmdlRITask tasks[5];
    nt = 2;
    assert_int_equal(aclmdlRIGetTasksByStream(ms[0], tasks, &nt), ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY);
    assert_int_equal(nt, 2);
    nt = 5;
    assert_int_equal(aclmdlRIGetTasksByStream(ms[0], tasks, &nt), ACL_SUCCESS);
    assert_int_equal(nt, 4);
    assert_null(tasks[4]);
    const aclmdlRITaskType want[4] = {ACL_MODEL_RI_TASK_DEFAULT, ACL_MODEL_RI_TASK_VALUE_WRITE,
                                      ACL_MODEL_RI_TASK_EVENT_RECORD, ACL_MODEL_RI_TASK_VALUE_WAIT};
    for (uint32_t i = 0; i < 4; ++i) {
        aclmdlRITaskType ty;
        uint32_t seq = 99;
        assert_int_equal(aclmdlRITaskGetType(tasks[i], &ty), ACL_SUCCESS);
        assert_int_equal(ty, want[i]);
        assert_int_equal(aclmdlRITaskGetSeqId(tasks[i], &seq), ACL_SUCCESS);
        assert_int_equal(seq, i);
    }
    aclmdlRITaskType ty;
    assert_int_equal(aclmdlRITaskGetType(NULL, &ty), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclmdlRITaskGetType(tasks[0], NULL), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclmdlRITaskGetType((aclmdlRITask)0x999, &ty), ACL_ERROR_RT_INVALID_HANDLE);
    uint32_t seq;
    assert_int_equal(aclmdlRITaskGetSeqId(tasks[0], NULL), ACL_ERROR_RT_PARAM_INVALID);
    aclrtLaunchKernelAttrValue av;
    assert_int_equal(aclmdlRIKernelTaskGetAttribute(NULL, ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE, &av),
                     ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclmdlRIKernelTaskGetAttribute(tasks[0], ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE, &av),
                     ACL_ERROR_RT_PARAM_INVALID);

    /* Parameters. */
    aclmdlRITaskParams p;
    assert_int_equal(aclmdlRITaskGetParams(tasks[0], &p), ACL_ERROR_RT_PARAM_INVALID); /* DEFAULT: none */
    assert_int_equal(aclmdlRITaskGetParams(tasks[1], NULL), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclmdlRITaskGetParams(tasks[1], &p), ACL_SUCCESS);
    assert_int_equal(p.type, ACL_MODEL_RI_TASK_VALUE_WRITE);
    assert_ptr_equal(p.valueWriteTaskParams.devAddr, word);
    assert_int_equal(p.valueWriteTaskParams.value, 5);
    assert_int_equal(aclmdlRITaskGetParams(tasks[2], &p), ACL_SUCCESS);
    assert_ptr_equal(p.eventRecordTaskParams.event, ev);
    assert_int_equal(p.eventRecordTaskParams.recordFlag, ACL_EVENT_RECORD_DEFAULT);
    assert_int_equal(aclmdlRITaskGetParams(tasks[3], &p), ACL_SUCCESS);
    assert_int_equal(p.valueWaitTaskParams.flag, ACL_STREAM_WAIT_VALUE_EQ);

    /* A replay writes 5; new parameters take effect after aclmdlRIUpdate. */
    assert_int_equal(aclmdlRIExecuteAsync(m, exec), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(exec), ACL_SUCCESS);
    assert_int_equal(*word, 5);
    assert_int_equal(aclmdlRITaskGetParams(tasks[1], &p), ACL_SUCCESS);
    p.valueWriteTaskParams.value = 9;
    assert_int_equal(aclmdlRITaskSetParams(tasks[1], NULL), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclmdlRITaskSetParams(tasks[1], &p), ACL_SUCCESS);
    assert_int_equal(aclmdlRIExecuteAsync(m, exec), ACL_ERROR_RT_MODEL_EXECUTE); /* update pending */
    assert_int_equal(aclmdlRIUpdate(m), ACL_SUCCESS);
    assert_int_equal(aclmdlRITaskGetParams(tasks[3], &p), ACL_SUCCESS);
    p.valueWaitTaskParams.value = 9;
    assert_int_equal(aclmdlRITaskSetParams(tasks[3], &p), ACL_SUCCESS);
    assert_int_equal(aclmdlRIUpdate(m), ACL_SUCCESS);
    assert_int_equal(aclmdlRIUpdate(m), ACL_SUCCESS); /* nothing pending: no-op */
    assert_int_equal(aclmdlRIExecuteAsync(m, exec), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(exec), ACL_SUCCESS);
    assert_int_equal(*word, 9);
    /* Disable the value write: the replay leaves the word alone (and the wait for 9 holds). */
    *word = 9;
    assert_int_equal(aclmdlRITaskDisable(tasks[1]), ACL_SUCCESS);
    assert_int_equal(aclmdlRIUpdate(m), ACL_SUCCESS);
    *word = 9;
    assert_int_equal(aclmdlRIExecuteAsync(m, exec), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(exec), ACL_SUCCESS);
    assert_int_equal(*word, 9);
    /* Disabling a DEFAULT task fails and leaves the instance unusable, as in CANN. */
    assert_int_equal(aclmdlRITaskDisable(tasks[0]), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclmdlRIUpdate(m), ACL_ERROR_RT_MODEL_UPDATE_FAILED);
    assert_int_equal(aclmdlRIExecuteAsync(m, exec), ACL_ERROR_RT_MODEL_EXECUTE);
    assert_int_equal(aclmdlRIUpdate(NULL), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclmdlRITaskDisable(NULL), ACL_ERROR_RT_PARAM_INVALID);

    /* Task handles die with their instance. */
    assert_int_equal(aclmdlRIDestroy(m), ACL_SUCCESS);
    assert_int_equal(aclmdlRITaskGetSeqId(tasks[0], &seq), ACL_ERROR_RT_INVALID_HANDLE);
    assert_int_equal(aclrtDestroyEvent(ev), ACL_SUCCESS);
    assert_int_equal(aclrtFree(word), ACL_SUCCESS);
    assert_int_equal(aclrtFree(dev), ACL_SUCCESS);
    assert_int_equal(aclrtFreeHost(host), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(exec), ACL_SUCCESS);
}

/* ---- names, ids, debug printers ----------------------------------------------------------------------------- */

static void names_and_printers(void **state)
{
    (void)state;
    aclrtStream s = test_new_stream(), side = test_new_stream();
    aclrtEvent e1 = NULL, e2 = NULL;
    assert_int_equal(aclrtCreateEventExWithFlag(&e1, ACL_EVENT_SYNC), ACL_SUCCESS);
    assert_int_equal(aclrtCreateEventExWithFlag(&e2, ACL_EVENT_SYNC), ACL_SUCCESS);
    aclmdlRI a = NULL, b = NULL;
    assert_int_equal(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    assert_int_equal(aclrtRecordEvent(e1, s), ACL_SUCCESS);
    assert_int_equal(aclrtStreamWaitEvent(side, e1), ACL_SUCCESS);
    assert_int_equal(aclrtLaunchHostFunc(side, log_char, LOG('x')), ACL_SUCCESS);
    assert_int_equal(aclrtRecordEvent(e2, side), ACL_SUCCESS);
    assert_int_equal(aclrtStreamWaitEvent(s, e2), ACL_SUCCESS);
    assert_int_equal(aclmdlRICaptureEnd(s, &a), ACL_SUCCESS);
    assert_int_equal(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    assert_int_equal(aclmdlRICaptureEnd(s, &b), ACL_SUCCESS);

    uint32_t ida = 0, idb = 0;
    assert_int_equal(aclmdlRIGetId(a, &ida), ACL_SUCCESS);
    assert_int_equal(aclmdlRIGetId(b, &idb), ACL_SUCCESS);
    assert_true(ida != idb);
    assert_int_equal(aclmdlRIGetId(a, NULL), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclmdlRIGetId(NULL, &ida), ACL_ERROR_INVALID_PARAM);

    char name[16];
    assert_int_equal(aclmdlRIGetName(a, sizeof(name), name), ACL_SUCCESS);
    assert_string_equal(name, "");
    assert_int_equal(aclmdlRISetName(a, NULL), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclmdlRISetName(NULL, "x"), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclmdlRISetName(a, "decoder-step"), ACL_SUCCESS);
    assert_int_equal(aclmdlRIGetName(a, sizeof(name), name), ACL_SUCCESS);
    assert_string_equal(name, "decoder-step");
    assert_int_equal(aclmdlRIGetName(a, 4, name), ACL_ERROR_RT_INTERNAL_ERROR);
    assert_int_equal(aclmdlRIGetName(a, 0, name), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclmdlRIGetName(a, sizeof(name), NULL), ACL_ERROR_INVALID_PARAM);

    char path[] = "/tmp/oa_mdlri_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(aclmdlRIDebugJsonPrint(NULL, path, 0), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclmdlRIDebugJsonPrint(a, NULL, 0), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclmdlRIDebugJsonPrint(a, "/nonexistent-dir/x.json", 0), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclmdlRIDebugJsonPrint(a, path, ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE), ACL_SUCCESS);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char text[4096] = {0};
    size_t got = fread(text, 1, sizeof(text) - 1, f);
    fclose(f);
    unlink(path);
    assert_true(got > 0);
    assert_non_null(strstr(text, "\"EVENT_RECORD\""));
    assert_non_null(strstr(text, "\"EVENT_WAIT\""));
    assert_non_null(strstr(text, "\"HOST_FUNC\""));
    assert_non_null(strstr(text, "waits_for_seq_id"));
    assert_int_equal(text[0], '[');

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    assert_int_equal(aclmdlRIDebugPrint(a), ACL_SUCCESS);
    assert_int_equal(aclmdlRIDebugPrint(NULL), ACL_ERROR_INVALID_PARAM);
#pragma GCC diagnostic pop

    assert_int_equal(aclmdlRIDestroy(a), ACL_SUCCESS);
    assert_int_equal(aclmdlRIDestroy(b), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyEvent(e1), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyEvent(e2), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(side), ACL_SUCCESS);
}

/* ---- manual builds, labels, stream activation ------------------------------------------------------------------ */

static void build_with_labels(void **state)
{
    (void)state;
    aclrtStream l = NULL, t = NULL, exec = test_new_stream(), loose = test_new_stream();
    assert_int_equal(aclrtCreateStreamWithConfig(&l, 0, ACL_STREAM_PERSISTENT), ACL_SUCCESS);
    assert_int_equal(aclrtCreateStreamWithConfig(&t, 0, ACL_STREAM_PERSISTENT), ACL_SUCCESS);
    uint32_t *idx = NULL, *zero = NULL;
    assert_int_equal(aclrtMalloc((void **)&idx, 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    assert_int_equal(aclrtMalloc((void **)&zero, 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    *zero = 0;

    aclmdlRI m = NULL;
    assert_int_equal(aclmdlRIBuildBegin(NULL, 0), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclmdlRIBuildBegin(&m, 0), ACL_SUCCESS);
    assert_int_equal(aclmdlRIBindStream(NULL, l, ACL_MODEL_STREAM_FLAG_HEAD), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclmdlRIBindStream(m, l, ACL_MODEL_STREAM_FLAG_HEAD), ACL_SUCCESS);
    assert_int_equal(aclmdlRIBindStream(m, l, ACL_MODEL_STREAM_FLAG_HEAD), ACL_ERROR_RT_STREAM_MODEL);
    assert_int_equal(aclmdlRIBindStream(m, t, ACL_MODEL_STREAM_FLAG_DEFAULT), ACL_SUCCESS);
    assert_int_equal(aclmdlRICaptureBegin(l, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_ERROR_RT_STREAM_MODEL);

    aclrtLabel lb[3];
    for (int i = 0; i < 3; ++i) {
        assert_int_equal(aclrtCreateLabel(&lb[i]), ACL_SUCCESS);
    }
    aclrtLabelList branches = NULL, to_end = NULL;
    assert_int_equal(aclrtCreateLabelList(NULL, 2, &branches), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtCreateLabelList(lb, 0, &branches), ACL_ERROR_RT_PARAM_INVALID);
    aclrtLabel bad[1] = {(aclrtLabel)0x55};
    assert_int_equal(aclrtCreateLabelList(bad, 1, &branches), ACL_ERROR_RT_INVALID_HANDLE);
    assert_int_equal(aclrtCreateLabelList(lb, 2, &branches), ACL_SUCCESS);
    assert_int_equal(aclrtCreateLabelList(&lb[2], 1, &to_end), ACL_SUCCESS);

    /* l: A, switch(idx) {0: B, jump end; 1: C}, end:, activate t.  t: D, end of graph. */
    assert_int_equal(aclrtLaunchHostFunc(l, log_char, LOG('A')), ACL_SUCCESS);
    assert_int_equal(aclrtSwitchLabelByIndex(idx, 2, branches, l), ACL_SUCCESS);
    assert_int_equal(aclrtSetLabel(lb[0], l), ACL_SUCCESS);
    assert_int_equal(aclrtLaunchHostFunc(l, log_char, LOG('B')), ACL_SUCCESS);
    assert_int_equal(aclrtSwitchLabelByIndex(zero, 1, to_end, l), ACL_SUCCESS);
    assert_int_equal(aclrtSetLabel(lb[1], l), ACL_SUCCESS);
    assert_int_equal(aclrtLaunchHostFunc(l, log_char, LOG('C')), ACL_SUCCESS);
    assert_int_equal(aclrtSetLabel(lb[2], l), ACL_SUCCESS);
    assert_int_equal(aclrtActiveStream(t, l), ACL_SUCCESS);
    assert_int_equal(aclrtLaunchHostFunc(t, log_char, LOG('D')), ACL_SUCCESS);

    /* Wrong uses. */
    assert_int_equal(aclrtSetLabel(lb[0], l), ACL_ERROR_RT_INTERNAL_ERROR); /* set twice */
    assert_int_equal(aclrtSetLabel(NULL, l), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtSetLabel(lb[0], NULL), ACL_ERROR_INVALID_PARAM);
    aclrtLabel spare = NULL;
    assert_int_equal(aclrtCreateLabel(&spare), ACL_SUCCESS);
    assert_int_equal(aclrtSetLabel(spare, loose), ACL_ERROR_RT_STREAM_MODEL);
    assert_int_equal(aclrtSwitchLabelByIndex(idx, 2, branches, loose), ACL_ERROR_RT_STREAM_MODEL);
    assert_int_equal(aclrtSwitchLabelByIndex(NULL, 2, branches, l), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtActiveStream(loose, l), ACL_ERROR_RT_STREAM_MODEL);
    assert_int_equal(aclrtActiveStream(NULL, l), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclmdlRIEndTask(m, loose), ACL_ERROR_RT_STREAM_MODEL);
    assert_int_equal(aclmdlRIEndTask(NULL, t), ACL_ERROR_INVALID_PARAM);
    aclrtEvent plain = NULL;
    assert_int_equal(aclrtCreateEvent(&plain), ACL_SUCCESS);
    assert_int_equal(aclrtRecordEvent(plain, l), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    assert_int_equal(aclrtDestroyEvent(plain), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyLabel(spare), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyLabel(spare), ACL_ERROR_RT_INVALID_HANDLE);

    assert_int_equal(aclmdlRIEndTask(m, t), ACL_SUCCESS);
    assert_int_equal(aclmdlRIExecuteAsync(m, exec), ACL_ERROR_RT_MODEL_EXECUTE); /* not built yet */
    assert_int_equal(aclmdlRIBuildEnd(m, (void *)0x1), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclmdlRIBuildEnd(NULL, NULL), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclmdlRIBuildEnd(m, NULL), ACL_SUCCESS);
    assert_int_equal(aclrtLaunchHostFunc(l, log_char, LOG('Z')), ACL_ERROR_RT_STREAM_MODEL); /* built */

    /* Labels and lists may go away: the instance keeps what it uses. */
    for (int i = 0; i < 3; ++i) {
        assert_int_equal(aclrtDestroyLabel(lb[i]), ACL_SUCCESS);
    }
    assert_int_equal(aclrtDestroyLabelList(branches), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyLabelList(to_end), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyLabelList(to_end), ACL_ERROR_RT_INVALID_HANDLE);

    const struct {
        uint32_t index;
        const char *log;
    } cases[] = {{0, "ABD"}, {1, "ACD"}, {7, "ACD"}};
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
        log_reset();
        *idx = cases[i].index;
        assert_int_equal(aclmdlRIExecuteAsync(m, exec), ACL_SUCCESS);
        assert_int_equal(aclrtSynchronizeStream(exec), ACL_SUCCESS);
        log_expect(cases[i].log);
    }
    /* Synchronous execution (built instances only). */
    log_reset();
    *idx = 0;
    assert_int_equal(aclmdlRIExecute(m, 0), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclmdlRIExecute(m, -1), ACL_SUCCESS);
    log_expect("ABD");
    assert_int_equal(aclmdlRIExecute(m, 5000), ACL_SUCCESS);

    /* The bound streams are the instance's streams. */
    uint32_t ns = 0;
    assert_int_equal(aclmdlRIGetStreams(m, NULL, &ns), ACL_SUCCESS);
    assert_int_equal(ns, 2);
    uint32_t nt = 0;
    assert_int_equal(aclmdlRIGetTasksByStream(l, NULL, &nt), ACL_SUCCESS);
    assert_int_equal(nt, 9);
    assert_int_equal(aclmdlRIUnbindStream(m, loose), ACL_ERROR_RT_STREAM_MODEL);
    assert_int_equal(aclmdlRIUnbindStream(m, t), ACL_SUCCESS);
    assert_int_equal(aclmdlRIUnbindStream(m, l), ACL_SUCCESS);
    assert_int_equal(aclmdlRIUnbindStream(NULL, l), ACL_ERROR_INVALID_PARAM);
    /* Unbound streams are ordinary streams again. */
    assert_int_equal(aclrtLaunchHostFunc(l, log_char, LOG('Z')), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(l), ACL_SUCCESS);
    assert_int_equal(aclmdlRIDestroy(m), ACL_SUCCESS);

    /* An instance without end-of-graph task cannot run; a captured one cannot be bound or run synchronously. */
    aclmdlRI m2 = NULL, cap = NULL;
    assert_int_equal(aclmdlRIBuildBegin(&m2, 0), ACL_SUCCESS);
    assert_int_equal(aclmdlRIBuildEnd(m2, NULL), ACL_SUCCESS);
    assert_int_equal(aclmdlRIExecuteAsync(m2, exec), ACL_ERROR_RT_MODEL_EXECUTE);
    assert_int_equal(aclmdlRICaptureBegin(loose, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    assert_int_equal(aclmdlRICaptureEnd(loose, &cap), ACL_SUCCESS);
    assert_int_equal(aclmdlRIBindStream(cap, t, ACL_MODEL_STREAM_FLAG_HEAD), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclmdlRIExecute(cap, -1), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclmdlRIDestroy(cap), ACL_SUCCESS);
    assert_int_equal(aclmdlRIDestroy(m2), ACL_SUCCESS);

    assert_int_equal(aclrtFree(idx), ACL_SUCCESS);
    assert_int_equal(aclrtFree(zero), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(l), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(t), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(exec), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(loose), ACL_SUCCESS);
}

static void build_switch_stream(void **state)
{
    (void)state;
    aclrtStream l = test_new_stream(), t = test_new_stream(), exec = test_new_stream();
    int32_t *left = NULL, *right = NULL;
    assert_int_equal(aclrtMalloc((void **)&left, 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    assert_int_equal(aclrtMalloc((void **)&right, 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    *right = 3;
    aclmdlRI m = NULL;
    assert_int_equal(aclmdlRIBuildBegin(&m, 0), ACL_SUCCESS);
    assert_int_equal(aclmdlRIBindStream(m, l, ACL_MODEL_STREAM_FLAG_HEAD), ACL_SUCCESS);
    assert_int_equal(aclmdlRIBindStream(m, t, ACL_MODEL_STREAM_FLAG_DEFAULT), ACL_SUCCESS);
    assert_int_equal(aclrtSwitchStream(left, ACL_RT_GREATER, right, ACL_RT_SWITCH_INT32, t, t, l),
                     ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtSwitchStream(left, (aclrtCondition)9, right, ACL_RT_SWITCH_INT32, t, NULL, l),
                     ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtSwitchStream(left, ACL_RT_GREATER, right, (aclrtCompareDataType)5, t, NULL, l),
                     ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtSwitchStream(left, ACL_RT_GREATER, right, ACL_RT_SWITCH_INT32, t, NULL, l), ACL_SUCCESS);
    assert_int_equal(aclrtLaunchHostFunc(l, log_char, LOG('L')), ACL_SUCCESS);
    assert_int_equal(aclrtLaunchHostFunc(t, log_char, LOG('T')), ACL_SUCCESS);
    assert_int_equal(aclmdlRIEndTask(m, t), ACL_SUCCESS);
    assert_int_equal(aclmdlRIBuildEnd(m, NULL), ACL_SUCCESS);
    for (int32_t v = 2; v <= 4; ++v) {
        log_reset();
        *left = v;
        assert_int_equal(aclmdlRIExecuteAsync(m, exec), ACL_SUCCESS);
        assert_int_equal(aclrtSynchronizeStream(exec), ACL_SUCCESS);
        /* t runs only when activated; a run ends when its streams are done or at the end-of-graph task. */
        log_expect(v > 3 ? "LT" : "L");
    }
    assert_int_equal(aclmdlRIDestroy(m), ACL_SUCCESS);
    assert_int_equal(aclrtFree(left), ACL_SUCCESS);
    assert_int_equal(aclrtFree(right), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(l), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(t), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(exec), ACL_SUCCESS);
}

/* ---- condition tasks ---------------------------------------------------------------------------------------------- */

static uint64_t *g_cond;

static void count_down(void *arg)
{
    log_char(arg);
    __atomic_fetch_sub(g_cond, 1, __ATOMIC_SEQ_CST);
}

static void conditions(void **state)
{
    (void)state;
    aclrtStream s = test_new_stream(), sub = test_new_stream(), exec = test_new_stream();
    aclmdlRI m = NULL, during = NULL;
    aclmdlRICondHandle hif = NULL, hwhile = NULL, hsw = NULL, hdef = NULL;
    aclmdlRI ifs[2] = {NULL, NULL}, body[1] = {NULL}, cases[3] = {NULL, NULL, NULL}, defs[1] = {NULL};
    uint64_t *pif = NULL, *pwhile = NULL, *psw = NULL, *pdef = NULL;

    assert_int_equal(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL), ACL_SUCCESS);
    assert_int_equal(aclmdlRICaptureGetInfo(s, NULL, &during), ACL_SUCCESS);
    assert_int_equal(aclmdlRICondHandleCreate(NULL, 0, 0, &hif), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclmdlRICondHandleCreate(during, 0, (aclmdlRICondHandleFlag)2, &hif), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclmdlRICondHandleCreate(during, 0, 0, &hif), ACL_SUCCESS);
    assert_int_equal(aclmdlRICondHandleCreate(during, 0, 0, &hwhile), ACL_SUCCESS);
    assert_int_equal(aclmdlRICondHandleCreate(during, 0, 0, &hsw), ACL_SUCCESS);
    assert_int_equal(aclmdlRICondHandleCreate(during, 1, ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT, &hdef), ACL_SUCCESS);
    assert_int_equal(aclmdlRICondHandleGetCondPtr(hif, NULL), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclmdlRICondHandleGetCondPtr(hif, &pif), ACL_SUCCESS);
    assert_int_equal(aclmdlRICondHandleGetCondPtr(hwhile, &pwhile), ACL_SUCCESS);
    assert_int_equal(aclmdlRICondHandleGetCondPtr(hsw, &psw), ACL_SUCCESS);
    assert_int_equal(aclmdlRICondHandleGetCondPtr(hdef, &pdef), ACL_SUCCESS);
    assert_int_equal(*pif, 0);

    aclmdlRICondTaskParams p = {.handle = hif, .type = ACL_MODEL_RI_COND_TYPE_IF, .size = 3, .modelRIArray = ifs};
    assert_int_equal(aclmdlRIAddCondTask(p, NULL, 0), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclmdlRIAddCondTask(p, s, 0), ACL_ERROR_RT_PARAM_INVALID); /* IF has 1 or 2 branches */
    p.size = 2;
    assert_int_equal(aclmdlRIAddCondTask(p, s, 1), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclmdlRIAddCondTask(p, sub, 0), ACL_ERROR_RT_STREAM_NOT_CAPTURED);
    p.type = (aclmdlRICondTaskType)3;
    assert_int_equal(aclmdlRIAddCondTask(p, s, 0), ACL_ERROR_RT_PARAM_INVALID);
    p.type = ACL_MODEL_RI_COND_TYPE_IF;
    assert_int_equal(aclmdlRIAddCondTask(p, s, 0), ACL_SUCCESS);
    assert_non_null(ifs[0]);
    assert_non_null(ifs[1]);
    assert_int_equal(aclmdlRIAddCondTask(p, s, 0), ACL_ERROR_RT_PARAM_INVALID); /* handle already used */
    aclmdlRICondTaskParams pw = {.handle = hwhile, .type = ACL_MODEL_RI_COND_TYPE_WHILE, .size = 1, .modelRIArray = body};
    assert_int_equal(aclmdlRIAddCondTask(pw, s, 0), ACL_SUCCESS);
    aclmdlRICondTaskParams ps = {.handle = hsw, .type = ACL_MODEL_RI_COND_TYPE_SWITCH, .size = 3, .modelRIArray = cases};
    assert_int_equal(aclmdlRIAddCondTask(ps, s, 0), ACL_SUCCESS);
    aclmdlRICondTaskParams pd = {.handle = hdef, .type = ACL_MODEL_RI_COND_TYPE_IF, .size = 1, .modelRIArray = defs};
    assert_int_equal(aclmdlRIAddCondTask(pd, s, 0), ACL_SUCCESS);

    /* Sub-instances are captured on their own stream; the parent cannot end before they are. */
    assert_int_equal(aclmdlRICaptureToModelRIBegin(sub, during, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL),
                     ACL_ERROR_RT_PARAM_INVALID); /* not a sub-instance */
    assert_int_equal(aclmdlRICaptureToModelRIBegin(sub, NULL, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL),
                     ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclmdlRICaptureToModelRIBegin(sub, ifs[0], ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL), ACL_SUCCESS);
    assert_int_equal(aclrtLaunchHostFunc(sub, log_char, LOG('T')), ACL_SUCCESS);
    assert_int_equal(aclmdlRICaptureEnd(sub, NULL), ACL_SUCCESS);
    assert_int_equal(aclmdlRICaptureToModelRIBegin(sub, ifs[0], ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL),
                     ACL_ERROR_RT_MODEL_CAPTURED);
    assert_int_equal(aclmdlRICaptureToModelRIBegin(sub, ifs[1], ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL), ACL_SUCCESS);
    assert_int_equal(aclrtLaunchHostFunc(sub, log_char, LOG('F')), ACL_SUCCESS);
    assert_int_equal(aclmdlRICaptureEnd(sub, &ifs[1]), ACL_SUCCESS);
    assert_int_equal(aclmdlRICaptureToModelRIBegin(sub, body[0], ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL), ACL_SUCCESS);
    g_cond = pwhile;
    assert_int_equal(aclrtLaunchHostFunc(sub, count_down, LOG('w')), ACL_SUCCESS);
    assert_int_equal(aclmdlRICaptureEnd(sub, NULL), ACL_SUCCESS);
    for (int i = 0; i < 3; ++i) {
        assert_int_equal(aclmdlRICaptureToModelRIBegin(sub, cases[i], ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL),
                         ACL_SUCCESS);
        assert_int_equal(aclrtLaunchHostFunc(sub, log_char, LOG('0' + i)), ACL_SUCCESS);
        if (i < 2) {
            assert_int_equal(aclmdlRICaptureEnd(sub, NULL), ACL_SUCCESS);
        }
    }
    /* cases[2] is still capturing: the parent's end fails and takes the sub-captures with it. */
    aclmdlRI none = NULL;
    assert_int_equal(aclmdlRICaptureEnd(s, &none), ACL_ERROR_RT_SUB_ACLGRAPH_IS_CAPTURING);
    assert_null(none);
    assert_int_equal(aclmdlRICaptureEnd(sub, NULL), ACL_ERROR_RT_STREAM_NOT_CAPTURED);
    assert_int_equal(aclmdlRICondHandleGetCondPtr(hif, &pif), ACL_ERROR_RT_INVALID_HANDLE);

    /* Capture again from the start (the failed end discarded the parent). */
    assert_int_equal(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL), ACL_SUCCESS);
    assert_int_equal(aclmdlRICaptureGetInfo(s, NULL, &during), ACL_SUCCESS);
    assert_int_equal(aclmdlRICondHandleCreate(during, 0, 0, &hif), ACL_SUCCESS);
    assert_int_equal(aclmdlRICondHandleCreate(during, 0, 0, &hwhile), ACL_SUCCESS);
    assert_int_equal(aclmdlRICondHandleCreate(during, 0, 0, &hsw), ACL_SUCCESS);
    assert_int_equal(aclmdlRICondHandleCreate(during, 1, ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT, &hdef), ACL_SUCCESS);
    assert_int_equal(aclmdlRICondHandleGetCondPtr(hif, &pif), ACL_SUCCESS);
    assert_int_equal(aclmdlRICondHandleGetCondPtr(hwhile, &pwhile), ACL_SUCCESS);
    assert_int_equal(aclmdlRICondHandleGetCondPtr(hsw, &psw), ACL_SUCCESS);
    assert_int_equal(aclmdlRICondHandleGetCondPtr(hdef, &pdef), ACL_SUCCESS);
    g_cond = pwhile;
    p.handle = hif;
    pw.handle = hwhile;
    ps.handle = hsw;
    pd.handle = hdef;
    assert_int_equal(aclrtLaunchHostFunc(s, log_char, LOG('<')), ACL_SUCCESS);
    assert_int_equal(aclmdlRIAddCondTask(p, s, 0), ACL_SUCCESS);
    assert_int_equal(aclmdlRIAddCondTask(pw, s, 0), ACL_SUCCESS);
    assert_int_equal(aclmdlRIAddCondTask(ps, s, 0), ACL_SUCCESS);
    assert_int_equal(aclmdlRIAddCondTask(pd, s, 0), ACL_SUCCESS);
    assert_int_equal(aclrtLaunchHostFunc(s, log_char, LOG('>')), ACL_SUCCESS);
    const char marks[2] = {'T', 'F'};
    for (int i = 0; i < 2; ++i) {
        assert_int_equal(aclmdlRICaptureToModelRIBegin(sub, ifs[i], ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL),
                         ACL_SUCCESS);
        assert_int_equal(aclrtLaunchHostFunc(sub, log_char, LOG(marks[i])), ACL_SUCCESS);
        assert_int_equal(aclmdlRICaptureEnd(sub, NULL), ACL_SUCCESS);
    }
    assert_int_equal(aclmdlRICaptureToModelRIBegin(sub, body[0], ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL), ACL_SUCCESS);
    assert_int_equal(aclrtLaunchHostFunc(sub, count_down, LOG('w')), ACL_SUCCESS);
    assert_int_equal(aclmdlRICaptureEnd(sub, NULL), ACL_SUCCESS);
    for (int i = 0; i < 3; ++i) {
        assert_int_equal(aclmdlRICaptureToModelRIBegin(sub, cases[i], ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL),
                         ACL_SUCCESS);
        assert_int_equal(aclrtLaunchHostFunc(sub, log_char, LOG('0' + i)), ACL_SUCCESS);
        assert_int_equal(aclmdlRICaptureEnd(sub, NULL), ACL_SUCCESS);
    }
    assert_int_equal(aclmdlRICaptureToModelRIBegin(sub, defs[0], ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL), ACL_SUCCESS);
    assert_int_equal(aclrtLaunchHostFunc(sub, log_char, LOG('d')), ACL_SUCCESS);
    assert_int_equal(aclmdlRICaptureEnd(sub, NULL), ACL_SUCCESS);
    assert_int_equal(aclmdlRICaptureEnd(s, &m), ACL_SUCCESS);

    /* Sub-instances run only through their parent. */
    assert_int_equal(aclmdlRIExecuteAsync(ifs[0], exec), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    assert_int_equal(aclmdlRIDestroy(ifs[0]), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);

    const struct {
        uint64_t vif, vwhile, vsw, vdef;
        const char *log;
    } runs[] = {
        {1, 0, 0, 0, "<T0d>"},
        {0, 2, 1, 0, "<Fww1d>"},
        {5, 3, 2, 0, "<Twww2d>"},
        {0, 0, 9, 0, "<Fd>"}, /* SWITCH index past the branches: none runs */
    };
    for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); ++i) {
        log_reset();
        assert_int_equal(aclrtMemcpy(pif, 8, &runs[i].vif, 8, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
        assert_int_equal(aclrtMemcpy(pwhile, 8, &runs[i].vwhile, 8, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
        assert_int_equal(aclrtMemcpy(psw, 8, &runs[i].vsw, 8, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
        /* ASSIGN_DEFAULT: the launch writes the default (1) over this 0. */
        assert_int_equal(aclrtMemcpy(pdef, 8, &runs[i].vdef, 8, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
        assert_int_equal(aclmdlRIExecuteAsync(m, exec), ACL_SUCCESS);
        assert_int_equal(aclrtSynchronizeStream(exec), ACL_SUCCESS);
        log_expect(runs[i].log);
        assert_int_equal(*pwhile, 0);
    }
    /* Handles of a finished capture cannot be used for new conditions. */
    assert_int_equal(aclmdlRICondHandleCreate(m, 0, 0, &hif), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclmdlRIDestroy(m), ACL_SUCCESS);
    assert_int_equal(aclmdlRICondHandleGetCondPtr(hsw, &psw), ACL_ERROR_RT_INVALID_HANDLE);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(sub), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(exec), ACL_SUCCESS);
}

/* ---- host cost of a replay ---------------------------------------------------------------------------------------- */

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void replay_cost(void **state)
{
    (void)state;
    enum { COPIES = 100, ROUNDS = 30 };
    aclrtStream s = test_new_stream();
    unsigned char *host = NULL, *dev = NULL;
    assert_int_equal(aclrtMallocHost((void **)&host, COPIES * 16), ACL_SUCCESS);
    assert_int_equal(aclrtMalloc((void **)&dev, COPIES * 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    aclmdlRI m = NULL;
    assert_int_equal(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    for (int i = 0; i < COPIES; ++i) {
        assert_int_equal(aclrtMemcpyAsync(dev + i * 16, 16, host + i * 16, 16, ACL_MEMCPY_HOST_TO_DEVICE, s),
                         ACL_SUCCESS);
    }
    assert_int_equal(aclmdlRICaptureEnd(s, &m), ACL_SUCCESS);

    /* Submission cost alone: the stream is held by a gate, so no worker competes for the queue. */
    uint64_t best_issue = UINT64_MAX, best_launch = UINT64_MAX;
    /* End to end: from the first call to the completed synchronisation. */
    uint64_t best_issue_total = UINT64_MAX, best_replay_total = UINT64_MAX;
    for (int r = 0; r < ROUNDS; ++r) {
        test_gate g;
        test_gate_init(&g);
        assert_int_equal(aclrtLaunchHostFunc(s, test_gate_fn, &g), ACL_SUCCESS);
        test_gate_wait_entered(&g);
        uint64_t t0 = now_ns();
        for (int i = 0; i < COPIES; ++i) {
            assert_int_equal(aclrtMemcpyAsync(dev + i * 16, 16, host + i * 16, 16, ACL_MEMCPY_HOST_TO_DEVICE, s),
                             ACL_SUCCESS);
        }
        uint64_t t1 = now_ns();
        assert_int_equal(aclmdlRIExecuteAsync(m, s), ACL_SUCCESS);
        uint64_t t2 = now_ns();
        test_gate_open(&g);
        assert_int_equal(aclrtSynchronizeStream(s), ACL_SUCCESS);
        best_issue = t1 - t0 < best_issue ? t1 - t0 : best_issue;
        best_launch = t2 - t1 < best_launch ? t2 - t1 : best_launch;

        t0 = now_ns();
        for (int i = 0; i < COPIES; ++i) {
            assert_int_equal(aclrtMemcpyAsync(dev + i * 16, 16, host + i * 16, 16, ACL_MEMCPY_HOST_TO_DEVICE, s),
                             ACL_SUCCESS);
        }
        assert_int_equal(aclrtSynchronizeStream(s), ACL_SUCCESS);
        t1 = now_ns();
        assert_int_equal(aclmdlRIExecuteAsync(m, s), ACL_SUCCESS);
        assert_int_equal(aclrtSynchronizeStream(s), ACL_SUCCESS);
        t2 = now_ns();
        best_issue_total = t1 - t0 < best_issue_total ? t1 - t0 : best_issue_total;
        best_replay_total = t2 - t1 < best_replay_total ? t2 - t1 : best_replay_total;
    }
    printf("replay cost, %d tiny copies (best of %d): host submission %.2f us issuing them vs %.2f us for "
           "aclmdlRIExecuteAsync; to completion %.2f us vs %.2f us\n",
           COPIES, ROUNDS, best_issue / 1e3, best_launch / 1e3, best_issue_total / 1e3, best_replay_total / 1e3);
    assert_int_equal(aclmdlRIDestroy(m), ACL_SUCCESS);
    assert_int_equal(aclrtFreeHost(host), ACL_SUCCESS);
    assert_int_equal(aclrtFree(dev), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(replay_equals_direct, test_device0_setup, test_device0_teardown),
        cmocka_unit_test_setup_teardown(event_chain, test_device0_setup, test_device0_teardown),
        cmocka_unit_test_setup_teardown(callbacks, test_device0_setup, test_device0_teardown),
        cmocka_unit_test_setup_teardown(replays_serialised, test_device0_setup, test_device0_teardown),
        cmocka_unit_test_setup_teardown(destroy_while_queued, test_device0_setup, test_device0_teardown),
        cmocka_unit_test_setup_teardown(destroy_from_own_replay, test_device0_setup, test_device0_teardown),
        cmocka_unit_test_setup_teardown(abort_replays, test_device0_setup, test_device0_teardown),
        cmocka_unit_test_setup_teardown(external_record_and_wait, test_device0_setup, test_device0_teardown),
        cmocka_unit_test_setup_teardown(external_flag_event, test_device0_setup, test_device0_teardown),
        cmocka_unit_test_setup_teardown(tasks_and_params, test_device0_setup, test_device0_teardown),
        cmocka_unit_test_setup_teardown(names_and_printers, test_device0_setup, test_device0_teardown),
        cmocka_unit_test_setup_teardown(build_with_labels, test_device0_setup, test_device0_teardown),
        cmocka_unit_test_setup_teardown(build_switch_stream, test_device0_setup, test_device0_teardown),
        cmocka_unit_test_setup_teardown(conditions, test_device0_setup, test_device0_teardown),
        cmocka_unit_test_setup_teardown(replay_cost, test_device0_setup, test_device0_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
