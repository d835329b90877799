/*
 * Shared state of the data tunnels: one process-wide lock and condition
 * variable (every FIFO change broadcasts), the shared-buffer (mbuf) objects
 * of acl_tdt_queue.h, and timeout helpers.
 *
 * Timeouts are in milliseconds: -1 waits forever, 0 tries once, > 0 waits
 * at most that long (CLOCK_MONOTONIC).
 */
#ifndef OA_TDT_TDT_INTERNAL_H
#define OA_TDT_TDT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "base/status.h"

#define OA_MBUF_USER_DATA_SIZE 96u
#define OA_MBUF_CHAIN_MAX 128u
#define OA_TDT_NAME_MAX 128u
#define OA_TDT_DEPTH_MIN 2u
#define OA_TDT_DEPTH_MAX 8192u

void oa_tdt_lock(void);
void oa_tdt_unlock(void);
void oa_tdt_broadcast(void);

/* Deadline for a wait that starts now. */
typedef struct oa_tdt_deadline {
    int32_t timeout_ms;
    struct timespec at;
} oa_tdt_deadline;
oa_tdt_deadline oa_tdt_deadline_after(int32_t timeout_ms);

/* Waits on the shared condition (lock held); false when the deadline passed. timeout 0 never waits. */
bool oa_tdt_wait(const oa_tdt_deadline *d);

/* ---- shared buffers ---- */

typedef struct oa_mbuf_block oa_mbuf_block;

typedef struct oa_mbuf {
    uint64_t magic;
    oa_mbuf_block *block;  /* data area, shared by buffers made with acltdtCopyBufRef */
    size_t data_len;
    uint8_t user_data[OA_MBUF_USER_DATA_SIZE];
    struct oa_mbuf *next;  /* chain */
    bool in_chain;         /* appended to another buffer's chain */
} oa_mbuf;

/* New buffer with a zeroed data area of size bytes (lock held). */
oa_status oa_mbuf_alloc_locked(size_t size, oa_mbuf **out) OA_MUST_CHECK;

/* True for a live buffer handle (lock held). */
bool oa_mbuf_live_locked(const void *p);

/* Frees buf and every buffer chained after it (lock held). */
void oa_mbuf_free_chain_locked(oa_mbuf *buf);

/* New head sharing src's data area; data length and user data are copied (lock held). */
oa_status oa_mbuf_copy_ref_locked(const oa_mbuf *src, oa_mbuf **out) OA_MUST_CHECK;

void *oa_mbuf_data(const oa_mbuf *buf);
size_t oa_mbuf_capacity(const oa_mbuf *buf);

#endif /* OA_TDT_TDT_INTERNAL_H */
