/* Anonymous pages and page ranges of read-only file mappings (pages.h). */
#include "base/pages.h"
#include "base/sanitizer.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
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
    void *base;     /* HUGE_HEAP: the heap block; HUGE_OWN: the mapping; HUGE_SEG: the segment */
    size_t len;     /* HUGE_OWN: the mapping's length; HUGE_SEG: the array's bytes after the head */
} huge_head;

#define HUGE_HEAD 64 /* keeps the array 64-byte aligned */

#if defined(OA_ASAN)
#define OA_PAGES_HUGE_ON_HEAP 1 /* the heap's redzones catch a kernel packing past its weights */
#else
#define OA_PAGES_HUGE_ON_HEAP 0
#endif

/*
 * Arrays under OA_PAGES_HUGE_MIN (ResNet-50's 1 MiB filters) are laid end to end in segments of address
 * space. A 2 MiB piece of a segment becomes a huge page (MADV_COLLAPSE) once arrays allocated before the
 * current one cover it whole: they have been written then (kernels pack right after allocating), and no
 * piece holds bytes no array uses, so nothing is added to the RSS. A freed array's whole pages go at once;
 * a segment whose arrays are all freed starts over (the current one) or is unmapped.
 */
#define SEG_BYTES ((size_t)256 << 20)

struct huge_seg {
    char *base;       /* 2 MiB aligned, SEG_BYTES */
    size_t used;      /* bytes handed out, from base */
    size_t collapsed; /* bytes from base made huge (whole pieces) */
    size_t live;      /* arrays not freed */
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

static void seg_collapse_to(huge_seg *g, size_t end)
{
    const size_t hp = OA_PAGES_HUGE_MIN, upto = end & ~(hp - 1);
    if (upto > g->collapsed) {
        (void)madvise(g->base + g->collapsed, upto - g->collapsed, MADV_HUGEPAGE);
        (void)madvise(g->base + g->collapsed, upto - g->collapsed, MADV_COLLAPSE); /* before 6.1: khugepaged */
        g->collapsed = upto;
    }
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
        (void)madvise(b, SEG_BYTES, MADV_NOHUGEPAGE); /* until a piece is whole (THP "always" would fill it) */
        ng->base = b;
        ng->next = g_segs;
        g_segs = g = ng;
    }
    seg_collapse_to(g, g->used);
    char *a = g->base + g->used + HUGE_HEAD;
    g->used += need;
    g->live++;
    *(huge_head *)(a - HUGE_HEAD) = (huge_head){.kind = HUGE_SEG, .base = g, .len = need - HUGE_HEAD};
    pthread_mutex_unlock(&g_seg_mu);
    return a;
}

static void seg_free(char *a, huge_seg *g, size_t len)
{
    const uintptr_t page = page_size();
    pthread_mutex_lock(&g_seg_mu);
    const uintptr_t lo = ((uintptr_t)a + page - 1) & ~(page - 1), hi = ((uintptr_t)a + len) & ~(page - 1);
    if (hi > lo) {
        (void)madvise((void *)lo, hi - lo, MADV_DONTNEED);
    }
    /* a collapse would bring the freed pages back as zeros: the pieces up to its end stay small */
    const size_t end = ((size_t)(a + len - g->base) + OA_PAGES_HUGE_MIN - 1) & ~(OA_PAGES_HUGE_MIN - 1);
    g->collapsed = end > g->collapsed ? end : g->collapsed;
    if (--g->live == 0) {
        if (g == g_segs) { /* the current one starts over */
            (void)madvise(g->base, g->used, MADV_DONTNEED);
            (void)madvise(g->base, SEG_BYTES, MADV_NOHUGEPAGE);
            g->used = g->collapsed = 0;
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
    /* a page for the head before a 2 MiB boundary, then the array: huge where it fills whole pieces */
    const size_t len = (n + page - 1) & ~(page - 1);
    char *a = map_aligned(len, page, 0);
    if (a == NULL) {
        return NULL;
    }
    (void)madvise(a, n & ~(hp - 1), MADV_HUGEPAGE); /* EINVAL without THP: small pages stay */
    *(huge_head *)(a - HUGE_HEAD) = (huge_head){.kind = HUGE_OWN, .base = a - page, .len = page + len};
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
