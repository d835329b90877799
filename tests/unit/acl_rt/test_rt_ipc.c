/*
 * acl_rt/: IPC events and IPC memory between two processes. The test program re-executes itself as the second
 * process ("child-event" / "child-mem" modes) and talks to it over pipes; the ACL state of the parent is never
 * inherited (the child is a fresh exec).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rt_test_util.h"

#define MIB (1u << 20)

static int teardown(void **state)
{
    (void)state;
    (void)aclrtResetDeviceForce(0);
    return 0;
}

static void to_hex(const void *p, size_t n, char *out)
{
    for (size_t i = 0; i < n; ++i) {
        sprintf(out + 2 * i, "%02x", ((const unsigned char *)p)[i]);
    }
}

static void from_hex(const char *s, void *p, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        unsigned v = 0;
        sscanf(s + 2 * i, "%2x", &v);
        ((unsigned char *)p)[i] = (unsigned char)v;
    }
}

/* Starts this program again in child mode with the given arguments; fds: [0] read from child, [1] write to it. */
static pid_t spawn_child(const char *mode, const char *arg, int fds[2])
{
    int up[2], down[2];
    assert_int_equal(pipe(up), 0);
    assert_int_equal(pipe(down), 0);
    char rfd[16], wfd[16];
    snprintf(rfd, sizeof(rfd), "%d", down[0]);
    snprintf(wfd, sizeof(wfd), "%d", up[1]);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(up[0]);
        close(down[1]);
        execl("/proc/self/exe", "test_rt_ipc", mode, arg, rfd, wfd, (char *)NULL);
        _exit(127);
    }
    close(up[1]);
    close(down[0]);
    fds[0] = up[0];
    fds[1] = down[1];
    return pid;
}

static int child_exit_code(pid_t pid)
{
    int st = 0;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static char read_byte(int fd)
{
    char c = 0;
    assert_int_equal(read(fd, &c, 1), 1);
    return c;
}

/* ---- child side ---- */

/* Host function of the child: blocks its stream until the parent sends a byte. */
static void wait_for_parent(void *arg)
{
    char c;
    if (read(*(int *)arg, &c, 1) != 1) {
        fprintf(stderr, "child: the parent went away\n");
    }
}

#define CHILD_CHECK(cond, code)                                                                                       \
    do {                                                                                                              \
        if (!(cond)) {                                                                                                \
            fprintf(stderr, "child: line %d: %s (%s)\n", __LINE__, #cond, aclGetRecentErrMsg());                      \
            return code;                                                                                              \
        }                                                                                                             \
    } while (0)

static int child_event(const char *hex, int rfd, int wfd)
{
    aclrtIpcEventHandle h;
    from_hex(hex, &h, sizeof(h));
    CHILD_CHECK(aclInit(NULL) == ACL_SUCCESS && aclrtSetDevice(0) == ACL_SUCCESS, 10);
    aclrtEvent ev = NULL;
    aclrtStream s = NULL;
    CHILD_CHECK(aclrtIpcOpenEventHandle(h, &ev) == ACL_SUCCESS, 11);
    CHILD_CHECK(aclrtCreateStream(&s) == ACL_SUCCESS, 12);
    /* the parent's first record is visible */
    aclrtEventRecordedStatus st;
    CHILD_CHECK(aclrtQueryEventStatus(ev, &st) == ACL_SUCCESS && st == ACL_EVENT_RECORDED_STATUS_COMPLETE, 13);
    /* a record that completes only when the parent lets the stream go on */
    CHILD_CHECK(aclrtLaunchHostFunc(s, wait_for_parent, &rfd) == ACL_SUCCESS, 14);
    CHILD_CHECK(aclrtRecordEvent(ev, s) == ACL_SUCCESS, 15);
    CHILD_CHECK(write(wfd, "r", 1) == 1, 16);
    CHILD_CHECK(aclrtSynchronizeStream(s) == ACL_SUCCESS, 17);
    CHILD_CHECK(write(wfd, "s", 1) == 1, 18);
    (void)read_byte(rfd); /* the parent has seen it: the event may go */
    CHILD_CHECK(aclrtDestroyEvent(ev) == ACL_SUCCESS && aclrtDestroyStream(s) == ACL_SUCCESS, 18);
    CHILD_CHECK(aclrtResetDevice(0) == ACL_SUCCESS && aclFinalize() == ACL_SUCCESS, 19);
    return 0;
}

static int child_mem(const char *keys, int rfd, int wfd)
{
    char k1[64] = {0}, k2[64] = {0};
    CHILD_CHECK(sscanf(keys, "%63[^,],%63s", k1, k2) == 2, 20);
    CHILD_CHECK(aclInit(NULL) == ACL_SUCCESS && aclrtSetDevice(0) == ACL_SUCCESS, 21);
    void *p1 = NULL, *p2 = NULL;
    /* k2 needs the parent's permission, given after the first byte */
    CHILD_CHECK(aclrtIpcMemImportByKey(&p2, k2, 0) == ACL_ERROR_RT_NO_PERMISSION, 22);
    CHILD_CHECK(write(wfd, "w", 1) == 1, 23);
    CHILD_CHECK(read_byte(rfd) == 'a', 24);
    CHILD_CHECK(aclrtIpcMemImportByKey(&p1, k1, 0) == ACL_SUCCESS, 25); /* pid validation disabled */
    CHILD_CHECK(aclrtIpcMemImportByKey(&p2, k2, ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS) == ACL_SUCCESS, 26);
    uint32_t v[2] = {0, 0};
    CHILD_CHECK(aclrtMemcpy(&v[0], 4, p1, 4, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS, 27);
    CHILD_CHECK(aclrtMemcpy(&v[1], 4, (char *)p2 + MIB, 4, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS, 28);
    CHILD_CHECK(v[0] == 0xA1A1A1A1u && v[1] == 0xB2B2B2B2u, 29);
    CHILD_CHECK(aclrtMemset(p1, 4096, 0x5C, 4096) == ACL_SUCCESS, 30);
    CHILD_CHECK(aclrtFree(p1) == ACL_ERROR_RT_PARAM_INVALID, 31);
    CHILD_CHECK(aclrtIpcMemClose(k1) == ACL_SUCCESS && aclrtIpcMemClose(k2) == ACL_SUCCESS, 32);
    CHILD_CHECK(aclrtIpcMemClose(k1) == ACL_ERROR_INVALID_PARAM, 33);
    CHILD_CHECK(write(wfd, "d", 1) == 1, 34);
    CHILD_CHECK(aclrtResetDevice(0) == ACL_SUCCESS && aclFinalize() == ACL_SUCCESS, 35);
    return 0;
}

/* a block smaller than a page: the child sees the exporter's bytes and its writes reach the exporter */
static int child_small(const char *key, int rfd, int wfd)
{
    (void)rfd;
    CHILD_CHECK(aclInit(NULL) == ACL_SUCCESS && aclrtSetDevice(0) == ACL_SUCCESS, 40);
    void *p = NULL;
    CHILD_CHECK(aclrtIpcMemImportByKey(&p, key, 0) == ACL_SUCCESS, 41);
    unsigned char buf[1000];
    CHILD_CHECK(aclrtMemcpy(buf, sizeof(buf), p, sizeof(buf), ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS, 42);
    for (size_t i = 0; i < sizeof(buf); ++i) {
        CHILD_CHECK(buf[i] == (unsigned char)(i * 7u), 43);
    }
    CHILD_CHECK(aclrtMemset(p, 1000, 0x3C, 1000) == ACL_SUCCESS, 44);
    CHILD_CHECK(aclrtIpcMemClose(key) == ACL_SUCCESS, 45);
    CHILD_CHECK(write(wfd, "d", 1) == 1, 46);
    CHILD_CHECK(aclrtResetDevice(0) == ACL_SUCCESS && aclFinalize() == ACL_SUCCESS, 47);
    return 0;
}

/* ---- parent side ---- */

static void ipc_event_between_processes(void **state)
{
    (void)state;
    aclrtEvent ev = NULL;
    aclrtStream s = NULL;
    assert_int_equal(aclrtCreateStream(&s), ACL_SUCCESS);
    assert_int_equal(aclrtCreateEventExWithFlag(&ev, ACL_EVENT_IPC), ACL_SUCCESS);
    assert_int_equal(aclrtRecordEvent(ev, s), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeEvent(ev), ACL_SUCCESS);
    aclrtIpcEventHandle h;
    assert_int_equal(aclrtIpcGetEventHandle(ev, &h), ACL_SUCCESS);
    char hex[2 * sizeof(h) + 1];
    to_hex(&h, sizeof(h), hex);
    int fds[2];
    pid_t pid = spawn_child("child-event", hex, fds);
    assert_int_equal(read_byte(fds[0]), 'r'); /* the child's record is queued behind a blocked host function */
    aclrtEventRecordedStatus st;
    assert_int_equal(aclrtQueryEventStatus(ev, &st), ACL_SUCCESS);
    assert_int_equal(st, ACL_EVENT_RECORDED_STATUS_NOT_READY);
    /* our stream waits for the child's record: a flag set by a host function after the wait stays clear */
    test_gate after;
    test_gate_init(&after);
    assert_int_equal(aclrtStreamWaitEvent(s, ev), ACL_SUCCESS);
    assert_int_equal(aclrtLaunchHostFunc(s, test_gate_fn, &after), ACL_SUCCESS);
    test_sleep_ms(100);
    pthread_mutex_lock(&after.mu);
    assert_false(after.entered);
    after.open = true;
    pthread_mutex_unlock(&after.mu);
    assert_int_equal(write(fds[1], "g", 1), 1); /* let the child's stream go on */
    assert_int_equal(aclrtSynchronizeStream(s), ACL_SUCCESS);
    assert_true(after.entered);
    assert_int_equal(read_byte(fds[0]), 's');
    assert_int_equal(aclrtQueryEventStatus(ev, &st), ACL_SUCCESS);
    assert_int_equal(st, ACL_EVENT_RECORDED_STATUS_COMPLETE);
    assert_int_equal(aclrtSynchronizeEvent(ev), ACL_SUCCESS);
    assert_int_equal(write(fds[1], "x", 1), 1);
    assert_int_equal(child_exit_code(pid), 0);
    close(fds[0]);
    close(fds[1]);

    /* the creator's destroy removes the shared state: the handle no longer opens */
    assert_int_equal(aclrtDestroyEvent(ev), ACL_SUCCESS);
    aclrtEvent again = NULL;
    assert_int_equal(aclrtIpcOpenEventHandle(h, &again), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
}

static void ipc_event_bad_inputs(void **state)
{
    (void)state;
    aclrtEvent plain = NULL, ev = NULL;
    aclrtIpcEventHandle h;
    assert_int_equal(aclrtCreateEvent(&plain), ACL_SUCCESS);
    assert_int_equal(aclrtIpcGetEventHandle(plain, &h), ACL_ERROR_RT_PARAM_INVALID);
    test_expect_msg("ACL_EVENT_IPC");
    assert_int_equal(aclrtIpcGetEventHandle(plain, NULL), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtIpcGetEventHandle(NULL, &h), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtCreateEventExWithFlag(&ev, ACL_EVENT_IPC | ACL_EVENT_SYNC), ACL_ERROR_RT_PARAM_INVALID);
    memset(&h, 0, sizeof(h));
    assert_int_equal(aclrtIpcOpenEventHandle(h, &ev), ACL_ERROR_RT_PARAM_INVALID);
    memcpy(h.reserved, "OAIPCEV", 8);
    memcpy(h.reserved + 8, "/../etc", 8);
    assert_int_equal(aclrtIpcOpenEventHandle(h, &ev), ACL_ERROR_RT_PARAM_INVALID);
    memcpy(h.reserved + 8, "/oa_nothing", 12);
    assert_int_equal(aclrtIpcOpenEventHandle(h, &ev), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtIpcOpenEventHandle(h, NULL), ACL_ERROR_INVALID_PARAM);
    /* an IPC event opened in its own process shares the records */
    aclrtEvent a = NULL, b = NULL;
    aclrtStream s = NULL;
    assert_int_equal(aclrtCreateStream(&s), ACL_SUCCESS);
    assert_int_equal(aclrtCreateEventExWithFlag(&a, ACL_EVENT_IPC), ACL_SUCCESS);
    assert_int_equal(aclrtIpcGetEventHandle(a, &h), ACL_SUCCESS);
    assert_int_equal(aclrtIpcOpenEventHandle(h, &b), ACL_SUCCESS);
    test_gate g;
    test_gate_init(&g);
    assert_int_equal(aclrtLaunchHostFunc(s, test_gate_fn, &g), ACL_SUCCESS);
    assert_int_equal(aclrtRecordEvent(a, s), ACL_SUCCESS);
    aclrtEventRecordedStatus st;
    assert_int_equal(aclrtQueryEventStatus(b, &st), ACL_SUCCESS);
    assert_int_equal(st, ACL_EVENT_RECORDED_STATUS_NOT_READY);
    test_gate_open(&g);
    assert_int_equal(aclrtSynchronizeEvent(b), ACL_SUCCESS);
    assert_int_equal(aclrtQueryEventStatus(b, &st), ACL_SUCCESS);
    assert_int_equal(st, ACL_EVENT_RECORDED_STATUS_COMPLETE);
    assert_int_equal(aclrtDestroyEvent(b), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyEvent(a), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyEvent(plain), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(s), ACL_SUCCESS);
}

static bool shm_exists(const char *key)
{
    char name[80];
    snprintf(name, sizeof(name), "/%s", key);
    int fd = shm_open(name, O_RDONLY, 0);
    if (fd >= 0) {
        close(fd);
        return true;
    }
    return false;
}

static void ipc_memory_between_processes(void **state)
{
    (void)state;
    void *b1 = NULL, *b2 = NULL;
    assert_int_equal(aclrtMalloc(&b1, MIB, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    assert_int_equal(aclrtMalloc(&b2, 2 * MIB, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    assert_int_equal(aclrtMemset(b1, MIB, 0xA1, MIB), ACL_SUCCESS);
    assert_int_equal(aclrtMemset(b2, 2 * MIB, 0xB2, 2 * MIB), ACL_SUCCESS);
    char k1[65], k2[65], k1b[65];
    assert_int_equal(aclrtIpcMemGetExportKey(b1, MIB, k1, sizeof(k1), ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION),
                     ACL_SUCCESS);
    assert_int_equal(aclrtIpcMemGetExportKey(b2, 2 * MIB, k2, sizeof(k2), 0), ACL_SUCCESS);
    assert_int_equal(aclrtIpcMemGetExportKey(b1, MIB, k1b, sizeof(k1b), 0), ACL_SUCCESS);
    assert_string_equal(k1, k1b); /* one key per block */
    assert_true(shm_exists(k1) && shm_exists(k2));
    /* the exporter's memory kept its contents and stays usable */
    assert_int_equal(((unsigned char *)b2)[2 * MIB - 1], 0xB2);

    char arg[140];
    snprintf(arg, sizeof(arg), "%s,%s", k1, k2);
    int fds[2];
    pid_t pid = spawn_child("child-mem", arg, fds);
    assert_int_equal(read_byte(fds[0]), 'w'); /* refused before being allowed */
    int32_t cpid = (int32_t)pid;
    assert_int_equal(aclrtIpcMemSetImportPid(k2, &cpid, 1), ACL_SUCCESS);
    assert_int_equal(write(fds[1], "a", 1), 1);
    assert_int_equal(read_byte(fds[0]), 'd');
    assert_int_equal(child_exit_code(pid), 0);
    close(fds[0]);
    close(fds[1]);
    /* the child's memset through its import is in our block */
    assert_int_equal(((unsigned char *)b1)[0], 0x5C);
    assert_int_equal(((unsigned char *)b1)[4095], 0x5C);
    assert_int_equal(((unsigned char *)b1)[4096], 0xA1);

    assert_int_equal(aclrtIpcMemClose(k1), ACL_SUCCESS);
    assert_false(shm_exists(k1));
    assert_int_equal(aclrtIpcMemClose(k2), ACL_SUCCESS);
    assert_int_equal(aclrtFree(b1), ACL_SUCCESS);
    assert_int_equal(aclrtFree(b2), ACL_SUCCESS);
}

static void ipc_memory_small_blocks(void **state)
{
    (void)state;
    void *before = NULL, *small = NULL, *after = NULL;
    assert_int_equal(aclrtMalloc(&before, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    assert_int_equal(aclrtMalloc(&small, 1000, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
    assert_int_equal(aclrtMalloc(&after, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    assert_int_equal(aclrtMemset(before, 64, 0x11, 64), ACL_SUCCESS);
    assert_int_equal(aclrtMemset(after, 64, 0x22, 64), ACL_SUCCESS);
    unsigned char pattern[1000];
    for (size_t i = 0; i < sizeof(pattern); ++i) {
        pattern[i] = (unsigned char)(i * 7u);
    }
    assert_int_equal(aclrtMemcpy(small, 1000, pattern, 1000, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    char key[65];
    assert_int_equal(aclrtIpcMemGetExportKey(small, 1000, key, sizeof(key),
                                             ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION), ACL_SUCCESS);
    /* the exporter's pointer and contents survive the export */
    assert_memory_equal(small, pattern, sizeof(pattern));
    int fds[2];
    pid_t pid = spawn_child("child-small", key, fds);
    assert_int_equal(read_byte(fds[0]), 'd');
    assert_int_equal(child_exit_code(pid), 0);
    close(fds[0]);
    close(fds[1]);
    /* the child's writes are in our block; the neighbouring blocks are untouched */
    for (size_t i = 0; i < 1000; ++i) {
        assert_int_equal(((unsigned char *)small)[i], 0x3C);
    }
    for (size_t i = 0; i < 64; ++i) {
        assert_int_equal(((unsigned char *)before)[i], 0x11);
        assert_int_equal(((unsigned char *)after)[i], 0x22);
    }
    assert_int_equal(aclrtIpcMemClose(key), ACL_SUCCESS);
    assert_false(shm_exists(key));
    assert_int_equal(aclrtFree(small), ACL_SUCCESS);
    /* the heap got its pages back: new blocks there work */
    void *again[4];
    for (int i = 0; i < 4; ++i) {
        assert_int_equal(aclrtMalloc(&again[i], 1000, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        assert_int_equal(aclrtMemset(again[i], 1000, 0x44 + i, 1000), ACL_SUCCESS);
    }
    for (int i = 0; i < 4; ++i) {
        assert_int_equal(((unsigned char *)again[i])[999], 0x44 + i);
        assert_int_equal(aclrtFree(again[i]), ACL_SUCCESS);
    }
    assert_int_equal(aclrtFree(before), ACL_SUCCESS);
    assert_int_equal(aclrtFree(after), ACL_SUCCESS);
}

/* super-pod features: CANN answers "not supported" outside Atlas A3 super pods (after its argument checks) */
static void ipc_memory_super_pod_calls(void **state)
{
    (void)state;
    assert_int_equal(aclrtIpcMemSetAttr("k", ACL_RT_IPC_MEM_ATTR_ACCESS_LINK, ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_HCCS),
                     ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    test_expect_msg("Atlas A3");
    assert_int_equal(aclrtIpcMemSetAttr(NULL, ACL_RT_IPC_MEM_ATTR_ACCESS_LINK, 0), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtIpcMemSetAttr("k", (aclrtIpcMemAttrType)1, 0), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtIpcMemSetAttr("k", ACL_RT_IPC_MEM_ATTR_ACCESS_LINK, 4), ACL_ERROR_RT_PARAM_INVALID);
    int32_t pids[2] = {1234, 5678};
    aclrtServerPid sp = {.sdid = 0, .pid = pids, .num = 2};
    assert_int_equal(aclrtIpcMemImportPidInterServer("k", &sp, 1), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    test_expect_msg("super pod");
    assert_int_equal(aclrtIpcMemImportPidInterServer(NULL, &sp, 1), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtIpcMemImportPidInterServer("k", NULL, 1), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtIpcMemImportPidInterServer("k", &sp, 0), ACL_ERROR_RT_PARAM_INVALID);
    sp.pid = NULL;
    assert_int_equal(aclrtIpcMemImportPidInterServer("k", &sp, 1), ACL_ERROR_RT_PARAM_INVALID);
}

static void ipc_memory_bad_inputs(void **state)
{
    (void)state;
    void *small = NULL, *big = NULL;
    char key[65];
    assert_int_equal(aclrtMalloc(&small, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    assert_int_equal(aclrtMalloc(&big, MIB, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    int host = 0;
    assert_int_equal(aclrtIpcMemGetExportKey(&host, 4, key, sizeof(key), 0), ACL_ERROR_RT_PARAM_INVALID);
    /* a block smaller than 1 MiB exports too (every device block owns whole pages) */
    assert_int_equal(aclrtIpcMemGetExportKey(small, 4096, key, sizeof(key), 0), ACL_SUCCESS);
    assert_int_equal(aclrtIpcMemClose(key), ACL_SUCCESS);
    assert_int_equal(aclrtIpcMemGetExportKey((char *)big + 64, 64, key, sizeof(key), 0), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtIpcMemGetExportKey(big, 2 * MIB, key, sizeof(key), 0), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtIpcMemGetExportKey(big, MIB, key, sizeof(key), 4), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtIpcMemGetExportKey(big, MIB, key, 4, 0), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtIpcMemGetExportKey(big, 0, key, sizeof(key), 0), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtIpcMemGetExportKey(NULL, MIB, key, sizeof(key), 0), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtIpcMemGetExportKey(big, MIB, NULL, sizeof(key), 0), ACL_ERROR_INVALID_PARAM);
    void *p = NULL;
    assert_int_equal(aclrtIpcMemImportByKey(&p, "oa_ipcmem_none", 0), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtIpcMemImportByKey(&p, "../x", 0), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtIpcMemImportByKey(&p, "", 0), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtIpcMemImportByKey(NULL, "k", 0), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtIpcMemClose("oa_ipcmem_none"), ACL_ERROR_INVALID_PARAM);
    int32_t pid = 1234;
    assert_int_equal(aclrtIpcMemSetImportPid("oa_ipcmem_none", &pid, 1), ACL_ERROR_INVALID_PARAM);

    /* the exporting process may import its own key: a second view of the same pages */
    assert_int_equal(aclrtIpcMemGetExportKey(big, MIB, key, sizeof(key), 0), ACL_SUCCESS);
    assert_int_equal(aclrtIpcMemSetImportPid(key, &pid, 0), ACL_ERROR_INVALID_PARAM);
    int32_t bad_pid = -3;
    assert_int_equal(aclrtIpcMemSetImportPid(key, &bad_pid, 1), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(aclrtIpcMemImportByKey(&p, key, 0), ACL_SUCCESS);
    assert_ptr_not_equal(p, big);
    ((volatile unsigned char *)big)[100] = 0x77;
    assert_int_equal(((volatile unsigned char *)p)[100], 0x77);
    assert_int_equal(aclrtIpcMemClose(key), ACL_SUCCESS); /* the import */
    assert_int_equal(aclrtIpcMemClose(key), ACL_SUCCESS); /* the export */
    assert_int_equal(aclrtIpcMemClose(key), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(((unsigned char *)big)[100], 0x77);
    assert_int_equal(aclrtFree(small), ACL_SUCCESS);
    assert_int_equal(aclrtFree(big), ACL_SUCCESS);
}

int main(int argc, char **argv)
{
    if (argc == 5 && strcmp(argv[1], "child-event") == 0) {
        return child_event(argv[2], atoi(argv[3]), atoi(argv[4]));
    }
    if (argc == 5 && strcmp(argv[1], "child-mem") == 0) {
        return child_mem(argv[2], atoi(argv[3]), atoi(argv[4]));
    }
    if (argc == 5 && strcmp(argv[1], "child-small") == 0) {
        return child_small(argv[2], atoi(argv[3]), atoi(argv[4]));
    }
    if (aclInit(NULL) != ACL_SUCCESS) {
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(ipc_event_between_processes, test_device0_setup, teardown),
        cmocka_unit_test_setup_teardown(ipc_event_bad_inputs, test_device0_setup, teardown),
        cmocka_unit_test_setup_teardown(ipc_memory_between_processes, test_device0_setup, teardown),
        cmocka_unit_test_setup_teardown(ipc_memory_bad_inputs, test_device0_setup, teardown),
        cmocka_unit_test_setup_teardown(ipc_memory_small_blocks, test_device0_setup, teardown),
        cmocka_unit_test_setup_teardown(ipc_memory_super_pod_calls, test_device0_setup, teardown),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    (void)aclFinalize();
    return rc;
}
