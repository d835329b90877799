/*
 * The memory planner (planner.h): in-place grouping, greedy-by-size
 * best-fit placement, and the plan verifier. Nothing here knows about
 * graphs; the compiler and the dynamic executor translate their values
 * into oa_plan_value lists.
 */
#include "mem/planner.h"

#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"

/* A block to place: one value, or an in-place chain of values. */
typedef struct group {
    size_t size;      /* aligned */
    int32_t first, last;
    size_t offset;
    size_t min_index; /* smallest member index, for deterministic ties */
} group;

static bool is_pow2(size_t a)
{
    return a != 0 && (a & (a - 1)) == 0;
}

static oa_status check_values(const oa_plan_value *v, size_t n, size_t alignment)
{
    if (!is_pow2(alignment)) {
        return OA_FAIL(OA_E_PARAM, "planner alignment [%zu] is not a power of two", alignment);
    }
    for (size_t i = 0; i < n; i++) {
        if (v[i].first_use < 0 || v[i].last_use < v[i].first_use) {
            return OA_FAIL(OA_E_PARAM, "planner value %zu has lifetime [%d, %d]", i, (int)v[i].first_use,
                           (int)v[i].last_use);
        }
        int32_t c = v[i].inplace_candidate;
        if (c != -1 && (c < 0 || (size_t)c >= n || (size_t)c == i)) {
            return OA_FAIL(OA_E_PARAM, "planner value %zu names in-place candidate %d (values: %zu)", i, (int)c, n);
        }
    }
    return OA_OK;
}

static size_t find_root(size_t *parent, size_t x)
{
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

/*
 * Union of accepted in-place pairs: parent[] gets a forest whose roots are
 * the groups. A request is accepted when both values need memory, the
 * candidate dies where this value is born, and nobody took the candidate
 * before (lowest index first). *accepted counts the pairs.
 */
static void build_groups(const oa_plan_value *v, size_t n, size_t *parent, bool *taken, size_t *accepted)
{
    *accepted = 0;
    for (size_t i = 0; i < n; i++) {
        parent[i] = i;
        taken[i] = false;
    }
    for (size_t i = 0; i < n; i++) {
        int32_t c = v[i].inplace_candidate;
        if (c < 0 || v[i].size == 0 || v[c].size == 0 || taken[c] || v[c].last_use != v[i].first_use) {
            continue;
        }
        size_t a = find_root(parent, i), b = find_root(parent, (size_t)c);
        if (a == b) {
            continue; /* a cycle of requests; the lifetime rule makes this impossible, but stay safe */
        }
        taken[c] = true;
        parent[a] = b;
        (*accepted)++;
    }
}

/* Placement orders tried; the plan with the smallest total wins. */
enum { ORDER_SIZE, ORDER_AREA, ORDER_FIRST, ORDER_COUNT };

static int cmp_group_order(const void *pa, const void *pb, const group *gs, int how)
{
    const group *a = &gs[*(const size_t *)pa], *b = &gs[*(const size_t *)pb];
    if (how == ORDER_AREA) {
        /* size x lifetime: long-lived big blocks first */
        double aa = (double)a->size * (double)(a->last - a->first + 1);
        double bb = (double)b->size * (double)(b->last - b->first + 1);
        if (aa != bb) {
            return aa > bb ? -1 : 1;
        }
    } else if (how == ORDER_FIRST) {
        /* in schedule order, larger first among values born together */
        if (a->first != b->first) {
            return a->first < b->first ? -1 : 1;
        }
    }
    if (a->size != b->size) {
        return a->size > b->size ? -1 : 1;
    }
    if (a->first != b->first) {
        return a->first < b->first ? -1 : 1;
    }
    return a->min_index < b->min_index ? -1 : (a->min_index > b->min_index ? 1 : 0);
}

/* qsort has no context argument in C11: a small insertion-merge sort instead. */
static void sort_order(size_t *idx, size_t n, const group *gs, size_t *tmp, int how)
{
    for (size_t width = 1; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = OA_MIN(lo + width, n), hi = OA_MIN(lo + 2 * width, n);
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) {
                tmp[k++] = (cmp_group_order(&idx[j], &idx[i], gs, how) < 0) ? idx[j++] : idx[i++];
            }
            while (i < mid) {
                tmp[k++] = idx[i++];
            }
            while (j < hi) {
                tmp[k++] = idx[j++];
            }
        }
        memcpy(idx, tmp, n * sizeof(*idx));
    }
}

static bool lifetimes_meet(int32_t f1, int32_t l1, int32_t f2, int32_t l2)
{
    return f1 <= l2 && f2 <= l1;
}

/* Places groups in `order`: each at the smallest gap between already placed,
 * lifetime-overlapping groups that fits it (best fit), else after them. */
static oa_status place(group *gs, size_t ng, const size_t *order, size_t *placed, size_t *end_all)
{
    size_t nplaced = 0;
    *end_all = 0;
    for (size_t k = 0; k < ng; k++) {
        group *g = &gs[order[k]];
        size_t prev_end = 0, best = SIZE_MAX, best_gap = SIZE_MAX;
        for (size_t p = 0; p < nplaced; p++) {
            const group *q = &gs[placed[p]];
            if (!lifetimes_meet(g->first, g->last, q->first, q->last)) {
                continue;
            }
            if (q->offset > prev_end) {
                size_t gap = q->offset - prev_end;
                if (gap >= g->size && gap < best_gap) {
                    best_gap = gap;
                    best = prev_end;
                }
            }
            prev_end = OA_MAX(prev_end, q->offset + q->size);
        }
        g->offset = (best != SIZE_MAX) ? best : prev_end;
        size_t end;
        if (!oa_add_size(g->offset, g->size, &end)) {
            return OA_FAIL(OA_E_PARAM, "planner: block size overflows");
        }
        *end_all = OA_MAX(*end_all, end);
        /* Keep `placed` sorted by offset (stable for equal offsets). */
        size_t pos = nplaced;
        while (pos > 0 && gs[placed[pos - 1]].offset > g->offset) {
            placed[pos] = placed[pos - 1];
            pos--;
        }
        placed[pos] = order[k];
        nplaced++;
    }
    return OA_OK;
}

oa_status oa_planner_plan(const oa_plan_value *values, size_t n, size_t alignment, size_t *offsets, size_t *total,
                          oa_plan_stats *stats)
{
    if ((n > 0 && (values == NULL || offsets == NULL)) || total == NULL) {
        return OA_FAIL(OA_E_PARAM, "planner: NULL argument (values %p, offsets %p, total %p, n %zu)",
                       (const void *)values, (void *)offsets, (void *)total, n);
    }
    oa_status st = check_values(values, n, alignment);
    if (st != OA_OK) {
        return st;
    }
    if (n == 0) {
        *total = 0;
        if (stats) {
            memset(stats, 0, sizeof(*stats));
        }
        return OA_OK;
    }
    size_t bytes;
    if (!oa_mul_size(n, sizeof(size_t) * 4 + sizeof(group) + sizeof(bool), &bytes)) {
        return OA_FAIL(OA_E_PARAM, "planner: %zu values is too many", n);
    }
    size_t *parent = malloc(n * sizeof(size_t));
    size_t *gid = malloc(n * sizeof(size_t));     /* value -> group index */
    size_t *order = malloc(n * sizeof(size_t));   /* group indices in placement order */
    size_t *placed = malloc(n * sizeof(size_t));  /* placed groups sorted by offset */
    size_t *tmp = malloc(n * sizeof(size_t));
    group *gs = malloc(n * sizeof(group));
    bool *taken = malloc(n * sizeof(bool));
    size_t *best_off = malloc(n * sizeof(size_t));
    if (!parent || !gid || !order || !placed || !tmp || !gs || !taken || !best_off) {
        st = OA_FAIL(OA_E_NOMEM, "planner: out of memory for %zu values", n);
        goto done;
    }
    size_t accepted = 0;
    build_groups(values, n, parent, taken, &accepted);

    /* Groups: one per root that needs memory. */
    size_t ng = 0, naive = 0;
    for (size_t i = 0; i < n; i++) {
        gid[i] = SIZE_MAX;
    }
    for (size_t i = 0; i < n; i++) {
        if (values[i].size == 0) {
            continue;
        }
        size_t asz;
        if (!oa_align_up(values[i].size, alignment, &asz) || !oa_add_size(naive, asz, &naive)) {
            st = OA_FAIL(OA_E_PARAM, "planner: value %zu size %zu overflows", i, values[i].size);
            goto done;
        }
        size_t r = find_root(parent, i);
        if (gid[r] == SIZE_MAX) {
            gid[r] = ng;
            gs[ng].size = 0;
            gs[ng].first = values[i].first_use;
            gs[ng].last = values[i].last_use;
            gs[ng].min_index = i;
            gs[ng].offset = 0;
            ng++;
        }
        group *g = &gs[gid[r]];
        gid[i] = gid[r];
        g->size = OA_MAX(g->size, asz);
        g->first = OA_MIN(g->first, values[i].first_use);
        g->last = OA_MAX(g->last, values[i].last_use);
    }
    /* Greedy placements in a few orders; keep the smallest. best_off holds
     * the winning offsets by group. */
    size_t end_all = SIZE_MAX;
    for (int how = 0; how < ORDER_COUNT && st == OA_OK; how++) {
        for (size_t k = 0; k < ng; k++) {
            order[k] = k;
        }
        sort_order(order, ng, gs, tmp, how);
        size_t end = 0;
        st = place(gs, ng, order, placed, &end);
        if (st == OA_OK && end < end_all) {
            end_all = end;
            for (size_t k = 0; k < ng; k++) {
                best_off[k] = gs[k].offset;
            }
        }
    }
    if (st != OA_OK) {
        goto done;
    }
    for (size_t k = 0; k < ng; k++) {
        gs[k].offset = best_off[k];
    }
    if (ng == 0) {
        end_all = 0;
    }
    for (size_t i = 0; i < n; i++) {
        offsets[i] = (gid[i] == SIZE_MAX) ? 0 : gs[gid[i]].offset;
    }
    *total = end_all;
    if (stats) {
        stats->total = end_all;
        stats->naive = naive;
        stats->num_inplace = accepted;
        stats->num_groups = ng;
    }
done:
    free(parent);
    free(gid);
    free(order);
    free(placed);
    free(tmp);
    free(gs);
    free(taken);
    free(best_off);
    return st;
}

oa_status oa_planner_verify(const oa_plan_value *values, size_t n, size_t alignment, const size_t *offsets,
                            size_t total)
{
    if (n > 0 && (values == NULL || offsets == NULL)) {
        return OA_FAIL(OA_E_PARAM, "planner verify: NULL argument");
    }
    oa_status st = check_values(values, n, alignment);
    if (st != OA_OK || n == 0) {
        return st;
    }
    size_t *parent = malloc(n * sizeof(size_t));
    bool *taken = malloc(n * sizeof(bool));
    if (parent == NULL || taken == NULL) {
        free(parent);
        free(taken);
        return OA_FAIL(OA_E_NOMEM, "planner verify: out of memory for %zu values", n);
    }
    size_t accepted;
    build_groups(values, n, parent, taken, &accepted);
    for (size_t i = 0; i < n && st == OA_OK; i++) {
        if (values[i].size == 0) {
            continue;
        }
        size_t end;
        if (offsets[i] % alignment != 0) {
            st = OA_FAIL(OA_E_PARAM, "value %zu offset %zu is not aligned to %zu", i, offsets[i], alignment);
        } else if (!oa_add_size(offsets[i], values[i].size, &end) || end > total) {
            st = OA_FAIL(OA_E_PARAM, "value %zu [%zu, +%zu) exceeds the block of %zu bytes", i, offsets[i],
                         values[i].size, total);
        }
        for (size_t j = i + 1; j < n && st == OA_OK; j++) {
            if (values[j].size == 0 ||
                !lifetimes_meet(values[i].first_use, values[i].last_use, values[j].first_use, values[j].last_use)) {
                continue;
            }
            bool mem = offsets[i] < offsets[j] + values[j].size && offsets[j] < offsets[i] + values[i].size;
            if (mem && find_root(parent, i) != find_root(parent, j)) {
                st = OA_FAIL(OA_E_PARAM,
                             "values %zu [%zu, +%zu) life [%d, %d] and %zu [%zu, +%zu) life [%d, %d] overlap", i,
                             offsets[i], values[i].size, (int)values[i].first_use, (int)values[i].last_use, j,
                             offsets[j], values[j].size, (int)values[j].first_use, (int)values[j].last_use);
            }
        }
    }
    free(parent);
    free(taken);
    return st;
}
