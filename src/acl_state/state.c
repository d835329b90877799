/*
 * The process state of acl_state.h: the lock of aclInit / aclFinalize, the
 * "initialised" flag and the configured operator queue size.
 */
#include <pthread.h>

#include "acl_state/acl_state.h"
#include "acl_state/config.h"

static pthread_mutex_t g_lock;
static pthread_once_t g_lock_once = PTHREAD_ONCE_INIT;
static bool g_initialized;
static uint64_t g_max_opqueue_num = OA_ACL_DEFAULT_MAX_OPQUEUE_NUM;

static void make_recursive_lock(void)
{
    pthread_mutexattr_t attr;
    pthread_mutexattr_init(&attr);
    pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&g_lock, &attr);
    pthread_mutexattr_destroy(&attr);
}

void oa_acl_state_lock(void)
{
    pthread_once(&g_lock_once, make_recursive_lock);
    pthread_mutex_lock(&g_lock);
}

void oa_acl_state_unlock(void)
{
    pthread_mutex_unlock(&g_lock);
}

void oa_acl_state_set_initialized(bool on)
{
    g_initialized = on;
}

void oa_acl_state_set_max_opqueue_num(uint64_t n)
{
    g_max_opqueue_num = n;
}

bool oa_acl_is_initialized(void)
{
    oa_acl_state_lock();
    const bool on = g_initialized;
    oa_acl_state_unlock();
    return on;
}

uint64_t oa_acl_config_max_opqueue_num(void)
{
    oa_acl_state_lock();
    const uint64_t v = g_max_opqueue_num;
    oa_acl_state_unlock();
    return v;
}
