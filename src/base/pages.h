/*
 * Pages. Anonymous memory that leaves the process when freed (oa_pages_anon),
 * and ranges of read-only file mappings (the .om image, external weight
 * files): rounding, merging and releasing them. Releasing is MADV_DONTNEED:
 * on a private read-only or shared file mapping the page leaves this
 * process (RSS) but stays in the page cache, and a later read maps it again,
 * so it is always safe on such mappings; never call it on anonymous memory.
 */
#ifndef OA_BASE_PAGES_H
#define OA_BASE_PAGES_H

#include <stdbool.h>
#include <stddef.h>

/*
 * n bytes (n > 0) of zeroed read-write anonymous memory in whole pages, or NULL. Unlike a freed heap
 * block below the heap's top, oa_pages_anon_free(p, n) gives the pages back to the system at once.
 */
void *oa_pages_anon(size_t n);
void oa_pages_anon_free(void *p, size_t n); /* accepts NULL */

/*
 * n bytes (n > 0) for an array that kernels read from memory in long streams (packed weights), 64-byte
 * aligned, not zeroed, or NULL; freed with oa_pages_huge_free. From OA_PAGES_HUGE_MIN bytes it is a mapping of
 * its own starting on a 2 MiB boundary; smaller arrays are laid end to end in shared segments. A background
 * thread makes the whole 2 MiB pieces that arrays fill transparent huge pages (MADV_COLLAPSE, Linux 6.1; before,
 * MADV_HUGEPAGE for khugepaged) while the caller writes and reads them in small pages. A stream over small
 * pages misses the TLB at every 4 KiB and the cache's prefetchers start over there: ResNet-50's last-stage
 * filters (4-9 MiB a layer) came in at a third of the memory's speed (bench/KERNELS.md "Huge pages for packed
 * weights"). No memory is added: only pieces that arrays fill are huge. Under ASan, from the heap.
 */
#define OA_PAGES_HUGE_MIN ((size_t)2 << 20)
void *oa_pages_huge_alloc(size_t n);
void oa_pages_huge_free(void *p); /* accepts NULL */
/* Waits until the pieces queued so far are huge pages (or refused): for tests and measurements. */
void oa_pages_huge_settle(void);

/*
 * Gives the free memory of the C heap back to the system (glibc's malloc_trim: the free blocks' whole pages
 * below the heap's top too, not just the top). A model load builds a graph and a program on the heap and frees
 * the graph: without this the freed blocks stay resident among the program's allocations (PP-OCR cls: 0.3 MiB,
 * a third of its weights and work; docs/memory.md "What a loaded model keeps"). Elsewhere than glibc, nothing.
 */
void oa_pages_trim_heap(void);

/* Makes the pages of anonymous memory [p, p + n) resident now (MADV_POPULATE_WRITE, or one write of
 * 0 per page on kernels before 5.14: the memory must be zero there). */
void oa_pages_populate_write(void *p, size_t n);

typedef struct oa_page_range {
    const char *p;
    size_t len;
} oa_page_range;

/* Rounds every range out to whole pages, sorts them and merges overlapping
 * or touching ones, in place. Returns the new count. */
size_t oa_page_ranges_merge(oa_page_range *r, size_t n);

/*
 * Asks that the file mapping [p, p + n) be mapped in small pages only (MADV_NOHUGEPAGE). Kernels from 6.16
 * keep ext4 files in large page-cache folios and may map a 2 MiB one with a single entry: the whole 2 MiB
 * then counts in RSS, and releasing a part of it (below) frees nothing until the folio is split. A mapping
 * that is read once and released as it is used (the .om image, external weight files) wants small pages:
 * OCR rec's load peaked 2.1 MiB higher without this (docs/memory.md "Packing and the load's peak"). Kernels
 * without transparent huge pages refuse the advice; nothing changes there.
 */
void oa_pages_small(const void *p, size_t n);

/* Releases the pages of the ranges (whole pages as given). */
void oa_page_ranges_drop(const oa_page_range *r, size_t n);

/* Releases the whole pages inside [p, p + len) that no range of keep (as
 * returned by oa_page_ranges_merge) touches. */
void oa_pages_drop_except(const void *p, size_t len, const oa_page_range *keep, size_t n_keep);

/*
 * Maps the pages of the ranges into the process ahead of their first read
 * (page-cache hits: MADV_POPULATE_READ, or one read per page on kernels
 * before 5.14), 2 MiB at a time so that a stop takes effect quickly. async:
 * in a background thread, returned for oa_prefault_stop; else (or when no
 * thread can be started) before returning, and NULL is returned. The ranges
 * are copied; the mappings must outlive the prefault.
 */
typedef struct oa_prefault oa_prefault;
oa_prefault *oa_prefault_start(const oa_page_range *r, size_t n, bool async);

/* Stops a running prefault, joins its thread and frees it. Accepts NULL. */
void oa_prefault_stop(oa_prefault *pf);

#endif
