/*
 * Private structures and cross-file functions of the runtime core
 * (src/acl_rt): handle registry, devices, contexts, streams, events and the
 * callback machinery. Other modules use rt_stream.h and rt_lifecycle.h.
 *
 * Object model: a context, stream or event is a heap object whose address is
 * the application's handle. Live objects are recorded in the handle registry;
 * looking a handle up takes a reference, so an object stays in memory while
 * any thread uses it even if the application destroys it meanwhile (the
 * destroy removes it from the registry first, so new look-ups fail with
 * ACL_ERROR_RT_INVALID_HANDLE / ACL_ERROR_RT_CONTEXT_NULL).
 *
 * Lock order (outer to inner): device mutex, context mutex, stream mutex,
 * event mutex, subscription lock; the registry lock and the memory table lock
 * are leaves. No lock is held while a task, a callback or a worker join runs.
 */
#ifndef OA_ACL_RT_RT_INTERNAL_H
#define OA_ACL_RT_RT_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "acl/acl_rt.h"
#include "acl_rt/rt_stream.h"
#include "base/status.h"

#define OA_RT_MAX_DEVICES 64
#define OA_RT_DEFAULT_DEVICE_COUNT 2
/* Stream priorities: aclrtDeviceGetStreamPriorityRange reports [0 greatest, 7 least]. */
#define OA_RT_STREAM_PRIORITY_GREATEST 0
#define OA_RT_STREAM_PRIORITY_LEAST 7
#define OA_RT_STREAM_PRIORITY_DEFAULT 0
#define OA_RT_MAX_STREAMS_PER_DEVICE 2048u
#define OA_RT_MAX_EVENTS_PER_DEVICE 65536u

/* ---- handle registry (registry.c) ---------------------------------------- */

typedef enum oa_obj_type {
    OA_OBJ_CONTEXT = 1,
    OA_OBJ_STREAM = 2,
    OA_OBJ_EVENT = 3,
    OA_OBJ_MODEL_RI = 4,    /* aclmdlRI (capture_model.c) */
    OA_OBJ_MRI_TASK = 5,    /* aclmdlRITask */
    OA_OBJ_TASK_GROUP = 6,  /* aclrtTaskGrp */
    OA_OBJ_COND_HANDLE = 7, /* aclmdlRICondHandle */
    OA_OBJ_LABEL = 8,       /* aclrtLabel (label.c) */
    OA_OBJ_LABEL_LIST = 9,  /* aclrtLabelList */
    OA_OBJ_TYPE_COUNT
} oa_obj_type;

typedef struct oa_obj oa_obj;
struct oa_obj {
    uint32_t type;
    int32_t refs;               /* atomic; the creator holds one reference */
    void (*free_fn)(oa_obj *o); /* called when the last reference goes */
};

/* Initialises the header with one reference (the creator's). */
void oa_obj_init(oa_obj *o, oa_obj_type type, void (*free_fn)(oa_obj *o));
void oa_obj_ref(oa_obj *o);
void oa_obj_unref(oa_obj *o);

/* Records o as a live handle; OA_E_NOMEM when the table cannot grow. */
oa_status oa_registry_add(oa_obj *o) OA_MUST_CHECK;
/* Forgets o; true when this call removed it (the caller then owns the teardown). */
bool oa_registry_remove(oa_obj *o);
/* Referenced object for a live handle of the given type, NULL otherwise. */
oa_obj *oa_registry_get(const void *handle, oa_obj_type type);
/* Number of live handles of a type (tests, available-count queries). */
size_t oa_registry_count(oa_obj_type type);

/* ---- devices (device.c) -------------------------------------------------- */

typedef struct oa_context oa_context;
typedef struct oa_event oa_event;

typedef struct oa_device {
    int32_t id;      /* logical id seen by the application */
    int32_t phys_id; /* physical id (before ASCEND_RT_VISIBLE_DEVICES) */
    pthread_mutex_t mu;
    int64_t primary_refs;    /* aclrtSetDevice count not yet reset */
    oa_context *primary;     /* default context while the device is set */
    oa_context *contexts;    /* every live context of the device (list) */
    int32_t explicit_ctx;    /* live contexts from aclrtCreateContext */
    aclrtFloatOverflowMode sat_mode;
    uint32_t next_stream_id; /* atomic */
    uint32_t next_event_id;  /* atomic */
    int32_t live_streams;    /* atomic */
    int32_t live_events;     /* atomic */
    uint8_t peer_enabled[OA_RT_MAX_DEVICES];
    int64_t limits[8];
} oa_device;

/* Number of visible devices (ASCEND_RT_VISIBLE_DEVICES applied). */
uint32_t oa_rt_device_count(void);
/* Device by logical id, or NULL (with no message) when out of range. */
oa_device *oa_rt_device(int32_t id);
/* OA_OK when id is a valid logical device id; otherwise reports st. */
oa_status oa_rt_check_device_id(int32_t id, oa_status st) OA_MUST_CHECK;
/* aclrtSetDevice for the calling thread. */
oa_status oa_rt_set_device(int32_t id) OA_MUST_CHECK;
/* Called by context.c when an explicit context of dev goes away. */
void oa_rt_device_context_gone(oa_device *dev);
/* Process default device from acl.json, -1 when none. */
int32_t oa_rt_default_device(void);

/* ---- contexts (context.c) ------------------------------------------------ */

struct oa_context {
    oa_obj obj;
    oa_device *dev;
    uint64_t serial;          /* unique per context ever created: tells a reused address apart */
    bool primary;
    bool dead;                /* torn down; under mu */
    oa_context *dev_next;     /* device list, under dev->mu */
    oa_context *dev_prev;
    pthread_mutex_t mu;       /* protects the lists below and dead */
    oa_stream *default_stream;
    oa_stream *streams;       /* streams created in the context (default stream excluded) */
    oa_event *events;         /* events created in the context */
    int64_t sysopt[4];
    uint32_t sysopt_set;      /* bit i: sysopt[i] was set */
    int32_t cap_mode_refs[3]; /* active captures begun in the context, per aclmdlRICaptureMode (atomic) */
};

/* Creates a context (and its default stream) on dev; referenced result. */
oa_status oa_ctx_create(oa_device *dev, bool primary, oa_context **out) OA_MUST_CHECK;
/*
 * Tears a context down: drains and destroys its streams, destroys its events
 * and drops the creation reference. Safe against concurrent users.
 */
void oa_ctx_teardown(oa_context *ctx);
/*
 * Referenced current context of the calling thread. When the thread has none
 * and acl.json set a default device, implicit = true sets that device first.
 * Fails with OA_E_RT_CONTEXT_NULL (reported) when there is no context.
 */
oa_status oa_ctx_current(bool implicit, oa_context **out) OA_MUST_CHECK;
/* Like oa_ctx_current but silent (no message) on failure. */
oa_context *oa_ctx_current_quiet(bool implicit);
void oa_ctx_release(oa_context *ctx);
/* Thread-local current context bookkeeping used by device.c. */
void oa_ctx_tls_set_device(oa_device *dev);
void oa_ctx_tls_clear_if(oa_context *ctx);

/* ---- streams (stream.c) -------------------------------------------------- */

typedef struct oa_task oa_task;
typedef struct oa_task_chunk oa_task_chunk;

/*
 * What the capture module (capture*.c) knows about a stream; every field is
 * read and written under the capture lock. A stream is in at most one role.
 */
struct oa_mdlri;
struct oa_mri_stream;
struct oa_mri_group;
struct oa_cap_thread;
typedef enum oa_cap_role {
    OA_CAP_NONE = 0,
    OA_CAP_ORIGIN,   /* aclmdlRICaptureBegin was called on it */
    OA_CAP_JOINED,   /* joined a capture by waiting on a captured event */
    OA_CAP_BOUND,    /* bound to a built instance (aclmdlRIBindStream) */
    OA_CAP_INTERNAL, /* a model stream created by the runtime for a captured instance */
} oa_cap_role;
typedef struct oa_cap_link {
    struct oa_mdlri *model;      /* instance the stream's work goes to (referenced by the instance's list) */
    struct oa_mri_stream *ms;    /* the model stream receiving the tasks */
    uint8_t role;                /* oa_cap_role */
    uint8_t status;              /* aclmdlRICaptureStatus (ORIGIN, JOINED) */
    int8_t mode;                 /* aclmdlRICaptureMode (ORIGIN) */
    uint8_t grp;                 /* task group state: 0 none, 1 sampling, 2 updating */
    struct oa_cap_thread *thread; /* thread that began the capture (ORIGIN, referenced) */
    uint32_t tid;                /* its id, for the wrong-thread check */
    struct oa_mri_group *update; /* group being updated (grp == 2, referenced) */
    uint32_t update_next;        /* next task of that group to update */
} oa_cap_link;

struct oa_stream {
    oa_obj obj;
    oa_context *ctx;          /* owning context (referenced: its memory outlives the stream) */
    int32_t device_id;
    int32_t id;
    uint32_t priority;
    uint32_t acl_flags;       /* ACL_STREAM_* given at creation */
    aclrtFloatOverflowMode sat_mode; /* aclrtSetDeviceSatMode when the stream was created (built-in tasks) */
    bool is_default;
    oa_stream *ctx_next;      /* context list, under ctx->mu */
    oa_stream *ctx_prev;

    pthread_mutex_t mu;
    pthread_cond_t work_cv;   /* worker waits for tasks */
    pthread_cond_t done_cv;   /* synchronisers wait for completion */
    oa_task *head;
    oa_task *tail;
    oa_task *free_list;
    oa_task_chunk *chunks;
    uint64_t submitted;       /* sequence number of the last queued task */
    uint64_t completed;       /* sequence number of the last finished task */
    uint32_t next_task_id;
    int32_t sync_waiters;
    bool worker_started;
    bool stopping;
    bool closing;             /* being destroyed: submissions are refused */
    bool aborting;            /* blocked waits give up (device reset, force destroy) */
    pthread_t worker;
    oa_status error;          /* first task error since the last synchronisation */
    uint32_t error_task_id;
    char error_msg[512];      /* the failed task's own messages (worker thread), shown by the synchronisation */
    bool stop_tripped;        /* stop-on-failure mode skipped tasks since the error */

    uint64_t failure_mode;    /* ACL_CONTINUE_ON_FAILURE / ACL_STOP_ON_FAILURE */
    uint32_t overflow_switch;
    bool overflow_quiet; /* the switch was turned off explicitly: the stream's tasks record no overflow */
    uint32_t user_tag;
    uint32_t cache_op_info;
    oa_stream_intercept_fn icpt;
    void *icpt_ctx;
    bool internal;            /* created by the runtime (capture model stream): no state callbacks */
    oa_cap_link cap;          /* capture state (capture.c, under the capture lock) */
};

/* Creates a stream in ctx; the result holds the creation reference and is registered. */
oa_status oa_stream_create(oa_context *ctx, uint32_t priority, uint32_t acl_flags, bool is_default,
                           oa_stream **out) OA_MUST_CHECK;
/*
 * Destroys a stream: removes it from the registry, then waits for its queued
 * tasks (force = false) or drops them (force = true), stops the worker and
 * drops the creation reference. Returns false when another thread is already
 * destroying it.
 */
bool oa_stream_destroy(oa_stream *s, bool force);
/* Non-blocking: true when every submitted task has finished. */
bool oa_stream_idle(oa_stream *s);
/* Sets aborting and wakes any blocked wait of s (used before teardown). */
void oa_stream_abort_waits(oa_stream *s);
/* Thread-local id of the last task the calling thread submitted. */
uint32_t oa_stream_thread_last_task(void);
/* oa_stream_submit without the interceptor: queues the task on s itself. */
oa_status oa_stream_submit_direct(oa_stream *s, const oa_task_desc *desc, uint32_t *task_id) OA_MUST_CHECK;
/* True when the calling thread is the worker thread of s. */
bool oa_stream_is_worker(oa_stream *s);

/* ---- events (event.c) ---------------------------------------------------- */

struct oa_event {
    oa_obj obj;
    oa_context *ctx;          /* owning context (referenced) */
    oa_event *ctx_next;       /* context list, under ctx->mu */
    oa_event *ctx_prev;
    uint32_t flags;           /* creation flags */
    bool ex_mode;             /* created by aclrtCreateEventExWithFlag */
    uint32_t id;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    uint64_t rec_gen;         /* records requested so far */
    uint64_t done_gen;        /* newest record that has completed */
    uint64_t done_ns;         /* completion time of done_gen */
    bool has_record;          /* recorded since creation / the last reset */
    bool destroyed;
    int32_t pending_waits;    /* wait tasks not finished */
    uint32_t record_flag;     /* UINT32_MAX until the first record */
    uint32_t wait_flag;
    bool signaled;            /* a record completed and no reset ran since (flag-style waits in models) */
    /* ACL_EVENT_IPC: shared record state (event.c), the creator owns (unlinks) the shared-memory name. */
    struct oa_ipc_event_shm *ipc;
    bool ipc_owner;
    char ipc_name[48];
    /* Capture binding (capture.c, under the capture lock; cap_model read atomically on fast paths). */
    struct oa_mdlri *cap_model;    /* instance whose capture recorded the event last */
    struct oa_mri_task *cap_rec;   /* that record task */
};

/* Destroys an event (registry removal + drops the creation reference); false if already gone. */
bool oa_event_destroy(oa_event *ev);

/* ---- callbacks, subscriptions, exception info (callback.c) --------------- */

/* aclrtExceptionInfo: what a failed task reports to the exception callbacks. */
struct rtExceptionInfo {
    uint32_t taskid;
    uint32_t streamid;
    uint32_t tid;
    uint32_t deviceid;
    uint32_t retcode;
};

/* Calls every exception-info callback for a failed task (worker thread). */
void oa_rt_report_task_failure(const oa_stream *s, uint32_t task_id, uint32_t tid, oa_status st);
/* Forgets every subscription of a stream (stream destroy). */
void oa_rt_unsubscribe_stream(oa_stream *s);
/*
 * Gives `to` the subscriptions of `from` (both kinds) that `to` does not have
 * yet, so that callbacks captured from `from` reach the same threads when
 * they are replayed from the model stream `to`.
 */
void oa_rt_subscription_copy(const oa_stream *from, const oa_stream *to);
/* Stream and device state callbacks. */
void oa_rt_notify_stream_state(oa_stream *s, aclrtStreamState state);
void oa_rt_notify_device_state(int32_t device_id, aclrtDeviceState state);
/* Forgets the allocator registered for a stream (stream destroy). */
void oa_rt_allocator_forget(aclrtStream handle);
/* Releases every subscription queue (finalize). */
void oa_rt_callbacks_finalize(void);

/* Runtime-wide settings kept by misc.c and read elsewhere. */
uint64_t oa_rt_op_execute_timeout_us(void);
/* aclrtSetOpWaitTimeout value in seconds (0: no limit), applied to aclrtStreamWaitEvent tasks. */
uint32_t oa_rt_op_wait_timeout_s(void);
/* A built-in task of stream s detected a floating-point or integer overflow (aclrtGetOverflowStatus). */
void oa_rt_overflow_note(const oa_stream *s);

/* Forgets the resource limits set on a stream (stream destroy). */
void oa_rt_stream_res_forget(aclrtStream handle);
/*
 * The threads an operator running on stream s may use (docs/runtime.md, "Compute-resource limits"): the smaller of
 * the stream's cube and vector core limits, else of its device's; 0 when neither is limited.
 */
uint32_t oa_rt_stream_thread_limit(const oa_stream *s);
/* The same for work run on the calling thread: the stream of aclrtUseStreamResInCurrentThread, else the device
 * of the current context; 0 when not limited. */
uint32_t oa_rt_thread_thread_limit(void);

/* Back to the initial state at aclFinalize: system parameters, timeouts, limits. */
void oa_rt_sysopt_reset(void);
void oa_rt_misc_reset(void);
/* Unlinks the IPC memory keys still exported and forgets the imports (aclFinalize, after the memory table). */
void oa_rt_ipc_mem_reset(void);
void oa_rt_limits_reset(void);

#endif /* OA_ACL_RT_RT_INTERNAL_H */
