/*
 * Private structures of the capture module (capture.c, capture_model.c,
 * capture_replay.c, capture_cond.c, label.c).
 *
 * An instance (oa_mdlri) is a list of model streams, each an array of tasks.
 * A captured instance gets one model stream per captured application stream
 * (the origin, then every stream that joined through an event); the model
 * streams are runtime-created streams (oa_stream.internal) so that
 * aclmdlRIGetStreams / aclmdlRIGetTasksByStream have handles to give out and
 * captured callbacks keep a subscription to be delivered through. A built
 * instance (aclmdlRIBuildBegin) uses the application's bound streams.
 *
 * A task is either an ordinary runtime task (op MRI_OP_RUN: run function,
 * release function and the instance's copy of the args) or a control task the
 * replay scheduler interprets itself (event markers, labels, stream
 * activation, conditions, end of graph).
 *
 * Structure fields are written under the capture lock while an instance is
 * being captured or built, and only read afterwards (replays); task
 * parameter changes (aclmdlRITaskSetParams, task-group updates) are applied
 * when no replay runs, or under args_mu for tasks of a task group.
 */
#ifndef OA_ACL_RT_CAPTURE_INTERNAL_H
#define OA_ACL_RT_CAPTURE_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "acl/acl_rt.h"
#include "acl_rt/capture.h"
#include "acl_rt/rt_internal.h"

/* What the scheduler does with a task. */
typedef enum mri_op {
    MRI_OP_RUN = 0,     /* call run(copy of args) */
    MRI_OP_RECORD,      /* record of an event inside a capture: marks the point other streams wait for */
    MRI_OP_WAIT,        /* wait for a record task of the same instance (dep) */
    MRI_OP_EXT_RECORD,  /* record of the real event: generation taken at launch, completed here */
    MRI_OP_EXT_WAIT,    /* wait for the real event's newest record at launch time */
    MRI_OP_FLAG_WAIT,   /* wait until the real event is signaled (a record completed, no reset since) */
    MRI_OP_FLAG_RESET,  /* clears the real event's signal */
    MRI_OP_LABEL,       /* position of a label (no-op) */
    MRI_OP_SWITCH_LABEL,/* aclrtSwitchLabelByIndex */
    MRI_OP_ACTIVE,      /* aclrtActiveStream */
    MRI_OP_SWITCH,      /* aclrtSwitchStream */
    MRI_OP_COND,        /* aclmdlRIAddCondTask: IF / WHILE / SWITCH on a condition value */
    MRI_OP_END_GRAPH,   /* aclmdlRIEndTask */
} mri_op;

/* Instance status (CANN's capture model status order). */
typedef enum mri_status {
    MRI_NONE = 0,            /* built instance under construction, or sub-instance not captured yet */
    MRI_CAPTURE_ACTIVE,
    MRI_CAPTURE_INVALIDATED,
    MRI_UPDATING,            /* task parameters changed, aclmdlRIUpdate pending */
    MRI_FAULT,               /* a parameter change failed: the instance cannot run any more */
    MRI_READY,
} mri_status;

typedef enum mri_type { MRI_TYPE_CAPTURE = 0, MRI_TYPE_BUILD = 1 } mri_type;

typedef struct oa_mri_stream oa_mri_stream;
typedef struct oa_mri_task oa_mri_task;
typedef struct oa_mri_group oa_mri_group;
typedef struct oa_mri_cond oa_mri_cond;
typedef struct oa_label oa_label;
typedef struct oa_label_list oa_label_list;

struct oa_mri_task {
    oa_obj obj;               /* aclmdlRITask handle; the instance holds the creation reference */
    oa_mdlri *model;          /* owner (not referenced: the task lives inside it) */
    uint64_t model_serial;
    oa_mri_stream *ms;
    uint32_t index;           /* position in its model stream */
    uint32_t seq;             /* position in the instance (capture order): aclmdlRITaskGetSeqId */
    uint16_t kind;            /* oa_task_kind (MRI_OP_RUN), else OA_TASK_KIND_GENERIC */
    uint8_t op;               /* mri_op */
    bool disabled;            /* aclmdlRITaskDisable applied */
    bool pending_disable;
    bool in_group;            /* member of a task group: args swapped under args_mu */
    oa_task_run_fn run;
    oa_task_release_fn release;
    void *args;               /* the instance's copy (16-byte aligned) */
    size_t args_size;
    void *pending_args;       /* aclmdlRITaskSetParams, applied by aclmdlRIUpdate */
    const oa_capture_hooks *hooks;
    void *hook_state;
    oa_mri_group *group;
    /* control data */
    oa_event *ev;             /* event ops: referenced */
    uint32_t ev_flag;         /* record / wait flag the application gave */
    oa_mri_task *dep;         /* MRI_OP_WAIT */
    uint32_t slot;            /* MRI_OP_EXT_RECORD / _EXT_WAIT: index in the launch table */
    uint64_t rec_epoch;       /* record ops: replay epoch of the last execution */
    bool waited;              /* record ops: some other captured stream waits for it */
    bool waited_by_origin;    /* ... and one of them is the origin stream */
    union {
        oa_label *label;                                  /* MRI_OP_LABEL (referenced) */
        struct { void *ptr; uint32_t max; oa_label_list *list; } sw_label; /* list referenced */
        struct { oa_mri_stream *target; } active;
        struct {
            void *left;
            void *right;
            int32_t cond;
            int32_t dtype;
            oa_mri_stream *target;
        } sw;
        oa_mri_cond *cond;
    } u;
};

struct oa_mri_stream {
    oa_mdlri *model;
    uint32_t index;
    oa_stream *stream;        /* the model stream (internal, or the bound application stream); referenced */
    bool head;                /* active when a replay starts */
    bool origin;              /* captured from the stream aclmdlRICaptureBegin was called on */
    bool bound;               /* still bound (built instances) */
    oa_mri_task **tasks;
    uint32_t ntasks;
    uint32_t cap;
    oa_mri_group *sampling;   /* task group open on this stream (capture) */
};

struct oa_mri_group {
    oa_obj obj;               /* aclrtTaskGrp handle; the instance holds the creation reference */
    oa_mdlri *model;          /* not referenced: look it up by handle and check model_serial */
    uint64_t model_serial;
    oa_mri_task **tasks;
    uint32_t ntasks;
    uint32_t cap;
    bool closed;
    bool updating;            /* a stream is in update mode on it */
};

struct oa_mri_cond {
    oa_obj obj;               /* aclmdlRICondHandle; the parent instance holds the creation reference */
    oa_mdlri *parent;
    uint32_t def_value;
    uint32_t flag;
    uint64_t *value;          /* device memory (8 bytes) */
    int32_t type;             /* aclmdlRICondTaskType, -1 until a condition task uses it */
    uint32_t size;
    oa_mdlri **subs;          /* sub-instances (their creation references) */
};

typedef struct mri_callback {
    aclrtCallback fn;
    void *user;
} mri_callback;

typedef struct mri_attachment {
    const void *key;
    void *res;
    void (*free_fn)(void *res);
} mri_attachment;

struct oa_mdlri {
    oa_obj obj;               /* aclmdlRI handle */
    oa_mdlri *next;           /* list of live instances (capture_model.c) */
    oa_mdlri *prev;
    uint64_t serial;
    uint32_t id;
    uint8_t type;             /* mri_type */
    bool is_sub;              /* created by aclmdlRIAddCondTask */
    oa_context *ctx;          /* referenced */
    oa_mri_cond *owner_cond;  /* sub-instances: the condition that owns them */

    pthread_mutex_t mu;       /* status, replays in flight, name, callbacks, attachments */
    pthread_cond_t cv;
    uint8_t status;           /* mri_status; atomic (written under mu or the capture lock) */
    bool removed;             /* handle gone (aclmdlRIDestroy) */
    bool destroying;          /* aclmdlRIDestroy is waiting for the replays */
    char *name;
    mri_callback *cbs;
    uint32_t ncbs;
    mri_attachment *att;
    uint32_t natt;

    /* structure */
    oa_mri_stream **streams;
    uint32_t nstreams;
    oa_mri_task **tasks;      /* every task in capture order */
    uint32_t ntasks;
    uint32_t tasks_cap;
    oa_stream **users;        /* application streams capturing into the instance (referenced) */
    uint32_t nusers;
    oa_event **events;        /* events bound to the capture (referenced) */
    uint32_t nevents;
    oa_mri_group **groups;
    uint32_t ngroups;
    uint32_t open_groups;
    oa_status group_error;    /* a task group was interrupted */
    oa_mri_cond **conds;      /* condition handles created for the instance */
    uint32_t nconds;
    uint32_t n_ext_rec;       /* launch-table sizes */
    uint32_t n_ext_wait;
    bool has_end_graph;
    bool has_labels;          /* control flow makes the head/activation rules matter */

    /* replays */
    int32_t inflight;         /* queued or running replays (under mu) */
    uint64_t next_ticket;     /* replays run one at a time, in launch order */
    uint64_t serving;
    uint64_t *retired;        /* tickets given up before their turn */
    uint32_t nretired;
    uint32_t retired_cap;
    uint64_t abort_below;     /* replays with a ticket below are skipped (aclmdlRIAbort) */
    bool running;
    pthread_t runner;
    uint64_t epoch;
    pthread_mutex_t args_mu;  /* task-group members' args */
    void *scratch;            /* per-replay copy of a task's args (replays are serialised) */
    size_t scratch_size;
    uint32_t *pc;             /* scheduler state, nstreams entries */
    uint8_t *active;
};

static inline uint8_t mri_status_of(const oa_mdlri *m)
{
    return __atomic_load_n(&m->status, __ATOMIC_ACQUIRE);
}

static inline void mri_set_status(oa_mdlri *m, uint8_t st)
{
    __atomic_store_n(&m->status, st, __ATOMIC_RELEASE);
}

/* ---- the capture lock (capture.c) -------------------------------------------------- */

void oa_cap_lock(void);
void oa_cap_unlock(void);

/* The instance's context must be current (capture_model.c, capture_build.c). */
oa_status oa_mdlri_check_context(const oa_mdlri *m, const char *what) OA_MUST_CHECK;

/* Capture state shared by capture.c and capture_event.c (callers hold the capture lock). */
bool oa_cap_link_capturing(const oa_cap_link *l);
bool oa_cap_event_capturing(const oa_event *ev);
void oa_cap_invalidate(oa_mdlri *m, const char *why);
void oa_cap_group_failed(oa_mdlri *m, oa_status code);
oa_status oa_cap_join_capture(oa_stream *s, oa_mdlri *m) OA_MUST_CHECK;
/* Streams capturing, bound or updating, anywhere: 0 lets the event and sync hooks return at once. */
extern int32_t g_oa_cap_users;

/* Hooks registered for a task kind and run function (else for the whole kind), NULL when none. */
const oa_capture_hooks *oa_capture_hooks_of(uint16_t kind, oa_task_run_fn run);
/* Stream roles for built instances and internal model streams (capture lock held). */
oa_status oa_capture_bind_stream(oa_stream *s, oa_mdlri *m, bool head) OA_MUST_CHECK;
void oa_capture_unbind_stream(oa_stream *s);
void oa_capture_mark_internal(oa_stream *s, oa_mdlri *m, oa_mri_stream *ms);
void oa_capture_unmark_internal(oa_stream *s);

/* Referenced live instance for a handle; reports OA_E_RT_PARAM / OA_E_RT_INVALID_HANDLE. */
oa_status oa_mdlri_get(aclmdlRI handle, oa_mdlri **out) OA_MUST_CHECK;
void oa_mdlri_put(oa_mdlri *m);

/* ---- instances (capture_model.c) ----------------------------------------------------- */

oa_status oa_mdlri_create(oa_context *ctx, mri_type type, bool is_sub, oa_mdlri **out) OA_MUST_CHECK;
/* Adds a model stream. Capture: a new internal stream (user = the captured stream); build: the bound stream. */
oa_status oa_mdlri_add_stream(oa_mdlri *m, oa_stream *s, bool internal, bool origin, bool head,
                              oa_mri_stream **out) OA_MUST_CHECK;
/* Appends a task (args copied) to ms; capture lock held. */
oa_status oa_mdlri_append(oa_mri_stream *ms, mri_op op, const oa_task_desc *desc, oa_mri_task **out) OA_MUST_CHECK;
/*
 * Removes the handle and drops the creation reference (no waiting). Must not
 * be called with the capture lock held (the instance may be freed, which takes
 * it), like oa_mdlri_put.
 */
void oa_mdlri_discard(oa_mdlri *m);
/* After a capture or build ends: scratch buffer, scheduler arrays, status READY. Capture lock held. */
oa_status oa_mdlri_finalize(oa_mdlri *m) OA_MUST_CHECK;
/* Forgets every task (a sub-instance whose capture failed can be captured again). Capture lock held. */
void oa_mdlri_clear(oa_mdlri *m);
/* Instance of a model stream handle (internal or bound), NULL when s is not a model stream. Capture lock held. */
oa_mri_stream *oa_mdlri_stream_of(oa_stream *s);
/* New task group of m (registered handle, kept by m) / drop one that failed. Capture lock held. */
oa_status oa_mdlri_new_group(oa_mdlri *m, oa_mri_group **out) OA_MUST_CHECK;
void oa_mdlri_drop_group(oa_mdlri *m, oa_mri_group *g);
/* Releases the events bound by a capture (end of capture). Capture lock held. */
void oa_mdlri_unbind_events(oa_mdlri *m);
/* Every live instance of ctx, referenced (context teardown). */
oa_mdlri **oa_mdlri_list_context(oa_context *ctx, size_t *n);

/* ---- replays (capture_replay.c) -------------------------------------------------------- */

/* (aclmdlRIExecuteAsync, aclmdlRIExecute, aclmdlRIAbort are defined there.) */

/* ---- conditions (capture_cond.c) -------------------------------------------------------- */

/* Frees a condition handle and its sub-instances (capture lock may be held: it is recursive). */
void oa_mri_cond_free(oa_mri_cond *c);
/* True when every sub-instance of m (recursively) finished its capture. */
bool oa_mdlri_subs_ready(const oa_mdlri *m);

/* ---- labels (label.c) ------------------------------------------------------------------ */

void oa_label_ref(oa_label *l);
void oa_label_unref(oa_label *l);
void oa_label_list_ref(oa_label_list *l);
void oa_label_list_unref(oa_label_list *l);
/* Label i of a list (bounded); NULL for an empty list. */
oa_label *oa_label_list_at(oa_label_list *l, uint32_t i, uint32_t *count);
/* Where a label is set: its instance (serial), model stream and task index; false if not set. */
bool oa_label_position(const oa_label *l, uint64_t *model_serial, uint32_t *stream, uint32_t *pos);
/* Labels and lists of a context (teardown). */
void oa_labels_context_gone(oa_context *ctx);

/* ---- events (capture.c) ------------------------------------------------------------------ */

/* Event internals for replays (event.c). */
uint64_t oa_event_reserve_record(oa_event *ev);
void oa_event_complete_record(oa_event *ev, uint64_t gen);
uint64_t oa_event_newest_record(oa_event *ev);
oa_status oa_event_wait_gen(oa_event *ev, uint64_t gen, oa_stream *exec_stream) OA_MUST_CHECK;
oa_status oa_event_wait_signal(oa_event *ev, oa_stream *exec_stream) OA_MUST_CHECK;
void oa_event_clear_signal(oa_event *ev);
bool oa_event_is_ex_sync(const oa_event *ev);
bool oa_event_is_external(const oa_event *ev);
bool oa_event_is_default(const oa_event *ev);
void oa_event_ref(oa_event *ev);
void oa_event_unref(oa_event *ev);
aclrtEvent oa_event_handle(const oa_event *ev);

#endif /* OA_ACL_RT_CAPTURE_INTERNAL_H */
