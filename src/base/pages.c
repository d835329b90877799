/* Anonymous pages and page ranges of read-only file mappings (pages.h). */
#include "base/pages.h"
#include "base/sanitizer.h"

#include <errno.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static uintptr_t page_size(void)
{
    return (uintptr_t)sysconf(_SC_PAGESIZE);
}

void *oa_pages_anon(size_t n)
{
    void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

void oa_pages_anon_free(void *p, size_t n)
{
    if (p != NULL) {
        (void)munmap(p, n);
    }
}

#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25 /* Linux 6.1 */
#endif

/* Where an oa_pages_huge_alloc array's memory came from (the 64 bytes before it say). */
enum { HUGE_HEAP, HUGE_OWN, HUGE_SEG };

typedef struct huge_seg huge_seg;

typedef struct huge_head {
    int kind;
    void *base; /* HUGE_HEAP: the heap block; HUGE_OWN: the mapping; HUGE_SEG: the segment */
    size_t len; /* HUGE_OWN: the mapping's length; HUGE_SEG: the array's bytes after the head */
} huge_head;

#define HUGE_HEAD 64 /* keeps the array 64-byte aligned */

#if defined(OA_ASAN)
#define OA_PAGES_HUGE_ON_HEAP 1 /* the heap's redzones catch a kernel packing past its weights */
#else
#define OA_PAGES_HUGE_ON_HEAP 0
#endif

/*
 * The collapser: a thread that makes queued 2 MiB pieces huge pages (MADV_COLLAPSE: a copy into a new huge
 * page, every byte kept while runs read them). The arrays themselves are mapped and written in small pages:
 * a huge page taken on a fault in the loading thread was slow where the memory behind it had to come back
 * from the host first (a VM whose free pages go back to the hypervisor: ResNet-50's load 90-105 -> 290-350
 * ms after another model's run); the collapser pays that beside the load. Kernels before 6.1 refuse the
 * collapse: the piece is then asked to be huge (MADV_HUGEPAGE), for khugepaged.
 */
#define COLLAPSE_QUEUE 4096 /* pieces waiting (8 GiB); more are left in small pages */
#define COLLAPSE_TRIES 20  /* EAGAIN (pages in use, e.g. still being written): retried 1 ms later */
#define COLLAPSE_QUIET_NS 50000000 /* collapses start 50 ms after the last array was queued */

static struct {
    pthread_mutex_t mu;
    pthread_cond_t wake, idle;
    uintptr_t q[COLLAPSE_QUEUE]; /* piece addresses, oldest at head */
    size_t head, n;
    uintptr_t busy; /* the piece being collapsed (0: none) */
    bool busy_gone; /* its range is being released: not to be queued again */
    bool settling;  /* someone waits in oa_pages_huge_settle: no quiet wait */
    int64_t last_queue; /* CLOCK_MONOTONIC ns of the last queueing */
    bool started, failed;
} g_col = {.mu = PTHREAD_MUTEX_INITIALIZER, .wake = PTHREAD_COND_INITIALIZER, .idle = PTHREAD_COND_INITIALIZER};

static void *collapser_main(void *arg)
{
    (void)arg;
    const size_t hp = OA_PAGES_HUGE_MIN;
    pthread_mutex_lock(&g_col.mu);
    for (;;) {
        while (g_col.n == 0) {
            pthread_cond_broadcast(&g_col.idle);
            pthread_cond_wait(&g_col.wake, &g_col.mu);
        }
        /* while a load still allocates, wait for it to end: the collapse would hold the page tables the
         * loader faults in (ResNet-50's load 100 -> 160-260 ms on a VM when both ran together) */
        for (;;) {
            struct timespec now;
            clock_gettime(CLOCK_MONOTONIC, &now);
            const int64_t t = (int64_t)now.tv_sec * 1000000000 + now.tv_nsec, quiet = t - g_col.last_queue;
            if (quiet >= COLLAPSE_QUIET_NS || g_col.settling) {
                break;
            }
            struct timespec until;
            clock_gettime(CLOCK_REALTIME, &until);
            const int64_t wake = (int64_t)until.tv_nsec + (COLLAPSE_QUIET_NS - quiet);
            until.tv_sec += (time_t)(wake / 1000000000);
            until.tv_nsec = (long)(wake % 1000000000);
            (void)pthread_cond_timedwait(&g_col.wake, &g_col.mu, &until);
        }
        if (g_col.n == 0) {
            continue; /* all taken back meanwhile (collapse_forget) */
        }
        const uintptr_t e = g_col.q[g_col.head], p = e & ~(uintptr_t)(hp - 1), tries = e & (hp - 1);
        g_col.head = (g_col.head + 1) % COLLAPSE_QUEUE;
        g_col.n--;
        g_col.busy = p;
        pthread_mutex_unlock(&g_col.mu);
        int err = madvise((void *)p, hp, MADV_COLLAPSE) == 0 ? 0 : errno;
        if (err == EINVAL) {
            (void)madvise((void *)p, hp, MADV_HUGEPAGE); /* EINVAL too without THP: small pages stay */
        } else if (err == EAGAIN && tries < COLLAPSE_TRIES) {
            (void)usleep(1000); /* its pages in use (a kernel still packing): later */
        }
        pthread_mutex_lock(&g_col.mu);
        if (err == EAGAIN && tries < COLLAPSE_TRIES && !g_col.busy_gone && g_col.n < COLLAPSE_QUEUE) {
            g_col.q[(g_col.head + g_col.n++) % COLLAPSE_QUEUE] = p | (tries + 1);
        }
        g_col.busy = 0;
        g_col.busy_gone = false;
        pthread_cond_broadcast(&g_col.idle);
    }
    return NULL;
}

/* A child of fork has no collapser: it starts its own when it queues. */
static void collapser_forget_in_child(void)
{
    pthread_mutex_init(&g_col.mu, NULL);
    pthread_cond_init(&g_col.wake, NULL);
    pthread_cond_init(&g_col.idle, NULL);
    g_col.head = g_col.n = 0;
    g_col.busy = 0;
    g_col.busy_gone = g_col.started = g_col.failed = false;
}

static pthread_once_t g_col_once = PTHREAD_ONCE_INIT;

static void collapser_atfork(void)
{
    (void)pthread_atfork(NULL, NULL, collapser_forget_in_child);
}

/* Queues the whole 2 MiB pieces of [lo, hi) (lo aligned). */
static void collapse_queue(uintptr_t lo, uintptr_t hi)
{
    const uintptr_t hp = OA_PAGES_HUGE_MIN;
    if (hi < lo + hp) {
        return;
    }
    pthread_once(&g_col_once, collapser_atfork);
    pthread_mutex_lock(&g_col.mu);
    if (!g_col.started && !g_col.failed) {
        pthread_attr_t at;
        pthread_t t;
        bool ok = pthread_attr_init(&at) == 0;
        ok = ok && pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED) == 0 &&
             pthread_create(&t, &at, collapser_main, NULL) == 0;
        (void)pthread_attr_destroy(&at);
        g_col.started = ok;
        g_col.failed = !ok;
    }
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    g_col.last_queue = (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
    for (uintptr_t p = lo; g_col.started && p + hp <= hi && g_col.n < COLLAPSE_QUEUE; p += hp) {
        g_col.q[(g_col.head + g_col.n++) % COLLAPSE_QUEUE] = p;
    }
    pthread_cond_signal(&g_col.wake);
    pthread_mutex_unlock(&g_col.mu);
}

/* Takes the pieces touching [lo, hi) off the queue and waits while one is being collapsed: the range is about
 * to be released (a collapse there would bring freed pages back, or touch a later mapping). */
static void collapse_forget(uintptr_t lo, uintptr_t hi)
{
    const uintptr_t hp = OA_PAGES_HUGE_MIN;
    pthread_mutex_lock(&g_col.mu);
    size_t kept = 0;
    for (size_t i = 0; i < g_col.n; i++) {
        const uintptr_t e = g_col.q[(g_col.head + i) % COLLAPSE_QUEUE], p = e & ~(hp - 1);
        if (p + hp <= lo || p >= hi) {
            g_col.q[(g_col.head + kept++) % COLLAPSE_QUEUE] = e;
        }
    }
    g_col.n = kept;
    while (g_col.busy != 0 && g_col.busy < hi && g_col.busy + hp > lo) {
        g_col.busy_gone = true;
        pthread_cond_wait(&g_col.idle, &g_col.mu);
    }
    pthread_mutex_unlock(&g_col.mu);
}

void oa_pages_huge_settle(void)
{
    pthread_mutex_lock(&g_col.mu);
    g_col.settling = true;
    pthread_cond_signal(&g_col.wake);
    while (g_col.n != 0 || g_col.busy != 0) {
        pthread_cond_wait(&g_col.idle, &g_col.mu);
    }
    g_col.settling = false;
    pthread_mutex_unlock(&g_col.mu);
}

/*
 * Arrays under OA_PAGES_HUGE_MIN (ResNet-50's 1 MiB filters) are laid end to end in segments of address
 * space; a 2 MiB piece is queued for the collapser once arrays cover it whole, so no huge page holds bytes no
 * array uses and nothing is added to the RSS. A freed array's whole pages go at once (the pieces up to its
 * end are then never collapsed: that would bring them back as zeros); a segment whose arrays are all freed
 * starts over (the current one) or is unmapped.
 */
#define SEG_BYTES ((size_t)256 << 20)

struct huge_seg {
    char *base;    /* 2 MiB aligned, SEG_BYTES */
    size_t used;   /* bytes handed out, from base */
    size_t queued; /* bytes from base whose pieces were queued or are never to be (whole pieces) */
    size_t live;   /* arrays not freed */
    huge_seg *next;
};

static pthread_mutex_t g_seg_mu = PTHREAD_MUTEX_INITIALIZER;
static huge_seg *g_segs; /* the current segment first */

/* A mapping of n bytes (a multiple of the page) starting on a 2 MiB boundary, after `before` bytes of its
 * own (for a head), or NULL; the slack around is unmapped. flags: MAP_NORESERVE or 0. */
static char *map_aligned(size_t n, size_t before, int flags)
{
    const size_t hp = OA_PAGES_HUGE_MIN, span = before + n + hp;
    char *m = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | flags, -1, 0);
    if (m == MAP_FAILED) {
        return NULL;
    }
    char *a = (char *)(((uintptr_t)m + before + hp - 1) & ~(uintptr_t)(hp - 1));
    if (a - before > m) {
        (void)munmap(m, (size_t)(a - before - m));
    }
    if (m + span > a + n) {
        (void)munmap(a + n, (size_t)(m + span - (a + n)));
    }
    return a;
}

static void *seg_alloc(size_t n)
{
    const size_t need = HUGE_HEAD + (n + 63) / 64 * 64;
    pthread_mutex_lock(&g_seg_mu);
    huge_seg *g = g_segs;
    if (g == NULL || g->used + need > SEG_BYTES) {
        huge_seg *ng = calloc(1, sizeof *ng);
        char *b = ng != NULL ? map_aligned(SEG_BYTES, 0, MAP_NORESERVE) : NULL;
        if (b == NULL) {
            free(ng);
            pthread_mutex_unlock(&g_seg_mu);
            return NULL;
        }
        ng->base = b;
        ng->next = g_segs;
        g_segs = g = ng;
    }
    char *a = g->base + g->used + HUGE_HEAD;
    g->used += need;
    g->live++;
    const size_t upto = g->used & ~(OA_PAGES_HUGE_MIN - 1);
    if (upto > g->queued) {
        collapse_queue((uintptr_t)g->base + g->queued, (uintptr_t)g->base + upto);
        g->queued = upto;
    }
    *(huge_head *)(a - HUGE_HEAD) = (huge_head){.kind = HUGE_SEG, .base = g, .len = need - HUGE_HEAD};
    pthread_mutex_unlock(&g_seg_mu);
    return a;
}

static void seg_free(char *a, huge_seg *g, size_t len)
{
    const uintptr_t page = page_size(), hp = OA_PAGES_HUGE_MIN;
    pthread_mutex_lock(&g_seg_mu);
    const uintptr_t lo = ((uintptr_t)a + page - 1) & ~(page - 1), hi = ((uintptr_t)a + len) & ~(page - 1);
    collapse_forget((uintptr_t)a & ~(hp - 1), ((uintptr_t)a + len + hp - 1) & ~(hp - 1));
    if (hi > lo) {
        (void)madvise((void *)lo, hi - lo, MADV_DONTNEED);
    }
    const size_t end = ((size_t)(a + len - g->base) + hp - 1) & ~(hp - 1);
    g->queued = end > g->queued ? end : g->queued;
    if (--g->live == 0) {
        collapse_forget((uintptr_t)g->base, (uintptr_t)g->base + SEG_BYTES);
        if (g == g_segs) { /* the current one starts over, in small pages */
            (void)madvise(g->base, g->used, MADV_DONTNEED);
            g->used = g->queued = 0;
        } else {
            huge_seg **pp = &g_segs;
            while (*pp != g) {
                pp = &(*pp)->next;
            }
            *pp = g->next;
            (void)munmap(g->base, SEG_BYTES);
            free(g);
        }
    }
    pthread_mutex_unlock(&g_seg_mu);
}

void *oa_pages_huge_alloc(size_t n)
{
    if (n == 0 || n > SIZE_MAX / 2) {
        return NULL;
    }
    const size_t hp = OA_PAGES_HUGE_MIN, page = (size_t)page_size();
    if (!OA_PAGES_HUGE_ON_HEAP && n < hp) {
        void *a = seg_alloc(n);
        if (a != NULL) {
            return a;
        }
    }
    if (n < hp || OA_PAGES_HUGE_ON_HEAP) {
        void *b = aligned_alloc(64, HUGE_HEAD + (n + 63) / 64 * 64);
        if (b == NULL) {
            return NULL;
        }
        *(huge_head *)b = (huge_head){.kind = HUGE_HEAP, .base = b};
        return (char *)b + HUGE_HEAD;
    }
    /* a page for the head before a 2 MiB boundary, then the array: its whole pieces go to the collapser */
    const size_t len = (n + page - 1) & ~(page - 1);
    char *a = map_aligned(len, page, 0);
    if (a == NULL) {
        return NULL;
    }
    *(huge_head *)(a - HUGE_HEAD) = (huge_head){.kind = HUGE_OWN, .base = a - page, .len = page + len};
    collapse_queue((uintptr_t)a, (uintptr_t)a + (n & ~(hp - 1)));
    return a;
}

void oa_pages_huge_free(void *p)
{
    if (p == NULL) {
        return;
    }
    const huge_head h = *(const huge_head *)((char *)p - HUGE_HEAD);
    if (h.kind == HUGE_HEAP) {
        free(h.base);
    } else if (h.kind == HUGE_OWN) {
        collapse_forget((uintptr_t)h.base, (uintptr_t)h.base + h.len);
        (void)munmap(h.base, h.len);
    } else {
        seg_free(p, h.base, h.len);
    }
}

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14 */
#endif

void oa_pages_populate_write(void *p, size_t n)
{
    if (p == NULL || n == 0 || madvise(p, n, MADV_POPULATE_WRITE) == 0) {
        return;
    }
    const size_t page = (size_t)page_size();
    for (size_t off = 0; off < n; off += page) {
        ((volatile unsigned char *)p)[off] = 0;
    }
}

static int cmp_range(const void *a, const void *b)
{
    const oa_page_range *x = a, *y = b;
    return (x->p > y->p) - (x->p < y->p);
}

void oa_pages_small(const void *p, size_t n)
{
    if (p != NULL && n > 0) {
        (void)madvise((void *)(uintptr_t)p, n, MADV_NOHUGEPAGE); /* EINVAL without THP: nothing to do */
    }
}

size_t oa_page_ranges_merge(oa_page_range *r, size_t n)
{
    if (n == 0) {
        return 0; /* r may be NULL */
    }
    const uintptr_t page = page_size();
    for (size_t i = 0; i < n; i++) {
        const uintptr_t lo = (uintptr_t)r[i].p & ~(page - 1);
        const uintptr_t hi = ((uintptr_t)r[i].p + r[i].len + page - 1) & ~(page - 1);
        r[i].p = (const char *)lo;
        r[i].len = (size_t)(hi - lo);
    }
    qsort(r, n, sizeof *r, cmp_range);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (m > 0 && r[i].p <= r[m - 1].p + r[m - 1].len) {
            const char *end = r[i].p + r[i].len;
            if (end > r[m - 1].p + r[m - 1].len) {
                r[m - 1].len = (size_t)(end - r[m - 1].p);
            }
        } else {
            r[m++] = r[i];
        }
    }
    return m;
}

void oa_page_ranges_drop(const oa_page_range *r, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (r[i].len != 0) {
            (void)madvise((void *)(uintptr_t)r[i].p, r[i].len, MADV_DONTNEED);
        }
    }
}

static void drop_span(uintptr_t lo, uintptr_t hi)
{
    if (hi > lo) {
        (void)madvise((void *)lo, hi - lo, MADV_DONTNEED);
    }
}

void oa_pages_drop_except(const void *p, size_t len, const oa_page_range *keep, size_t n_keep)
{
    const uintptr_t page = page_size();
    uintptr_t at = ((uintptr_t)p + page - 1) & ~(page - 1); /* whole pages inside the range */
    const uintptr_t end = ((uintptr_t)p + len) & ~(page - 1);
    for (size_t i = 0; i < n_keep && at < end; i++) {
        const uintptr_t k_lo = (uintptr_t)keep[i].p, k_hi = k_lo + keep[i].len;
        if (k_hi <= at) {
            continue;
        }
        drop_span(at, k_lo < end ? k_lo : end);
        at = k_hi > at ? k_hi : at;
    }
    drop_span(at, end);
}

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22 /* Linux 5.14 */
#endif

struct oa_prefault {
    oa_page_range *r;
    size_t n;
    pthread_t thread;
    atomic_bool stop;
};

static void *prefault_main(void *arg)
{
    oa_prefault *pf = arg;
    const size_t step = 2u << 20;
    const size_t page = (size_t)page_size();
    bool touch = false;
    for (size_t r = 0; r < pf->n && !atomic_load(&pf->stop); r++) {
        for (size_t o = 0; o < pf->r[r].len && !atomic_load(&pf->stop); o += step) {
            const char *p = pf->r[r].p + o;
            const size_t len = pf->r[r].len - o < step ? pf->r[r].len - o : step;
            if (!touch && madvise((void *)(uintptr_t)p, len, MADV_POPULATE_READ) == 0) {
                continue;
            }
            touch = true; /* older kernels: read one byte per page */
            volatile char sink = 0;
            for (size_t k = 0; k < len; k += page) {
                sink ^= p[k];
            }
            (void)sink;
        }
    }
    return NULL;
}

oa_prefault *oa_prefault_start(const oa_page_range *r, size_t n, bool async)
{
    if (n == 0) {
        return NULL;
    }
    oa_prefault *pf = calloc(1, sizeof *pf);
    if (pf != NULL) {
        pf->r = malloc(n * sizeof *r);
    }
    if (pf == NULL || pf->r == NULL) {
        free(pf);
        return NULL; /* best effort: the first reads map the pages */
    }
    memcpy(pf->r, r, n * sizeof *r);
    pf->n = n;
    atomic_init(&pf->stop, false);
    if (async && pthread_create(&pf->thread, NULL, prefault_main, pf) == 0) {
        return pf;
    }
    (void)prefault_main(pf);
    free(pf->r);
    free(pf);
    return NULL;
}

void oa_prefault_stop(oa_prefault *pf)
{
    if (pf == NULL) {
        return;
    }
    atomic_store(&pf->stop, true);
    pthread_join(pf->thread, NULL);
    free(pf->r);
    free(pf);
}

void oa_pages_trim_heap(void)
{
#ifdef __GLIBC__
    (void)malloc_trim(0);
#endif
}
