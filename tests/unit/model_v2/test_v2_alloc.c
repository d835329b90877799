/*
 * The caching allocator (docs/dynamic_models.md "Allocator"): page rounding,
 * 0-size and sub-page requests, exact-layer reuse, splitting a larger span,
 * buddy merging, referenced spans, recycling under a threshold, out-of-memory
 * recovery, the ScalableConfig thresholds, and the external wrapper.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model_v2/v2_alloc.h"

static oa_v2_caching_allocator *make(void)
{
    oa_v2_scalable_config cfg;
    oa_v2_scalable_config_init(&cfg, 0, 0);
    oa_v2_caching_allocator *ca = NULL;
    assert_int_equal(oa_v2_caching_create(&cfg, &ca), OA_OK);
    return ca;
}

static void alloc_and_free_0_size(void **state)
{
    (void)state;
    oa_v2_caching_allocator *ca = make();
    oa_v2_allocator *a = oa_v2_caching_base(ca);
    oa_v2_block *b = a->alloc(a, 0);
    assert_non_null(b);
    assert_int_equal(b->size, OA_V2_PAGE_SIZE);
    assert_int_equal(oa_v2_caching_block_pages(b), 1);
    memset(b->addr, 1, b->size);
    oa_v2_block_release(b);
    oa_v2_caching_stats st;
    oa_v2_caching_stats_get(ca, &st);
    assert_int_equal(st.in_use_bytes, 0);
    assert_int_equal(st.chunks, 1);
    assert_int_equal(st.system_bytes, OA_V2_HUGE_PAGE_SIZE); /* a sub-2 MiB request takes a 2 MiB chunk */
    oa_v2_caching_destroy(ca);
}

static void alloc_less_than_one_page_and_reuse(void **state)
{
    (void)state;
    oa_v2_caching_allocator *ca = make();
    oa_v2_allocator *a = oa_v2_caching_base(ca);
    oa_v2_block *b = a->alloc(a, 100);
    assert_int_equal(b->size, OA_V2_PAGE_SIZE);
    void *addr = b->addr;
    oa_v2_block_release(b);
    b = a->alloc(a, OA_V2_PAGE_SIZE);
    assert_ptr_equal(b->addr, addr); /* exact layer reused (after the merge, split again at the same place) */
    oa_v2_block_release(b);
    oa_v2_caching_stats st;
    oa_v2_caching_stats_get(ca, &st);
    assert_int_equal(st.system_allocs, 1);
    oa_v2_caching_destroy(ca);
}

static void alloc_split_from_larger_span_and_buddy_merge(void **state)
{
    (void)state;
    oa_v2_caching_allocator *ca = make();
    oa_v2_allocator *a = oa_v2_caching_base(ca);
    oa_v2_block *x = a->alloc(a, 3 * OA_V2_PAGE_SIZE);
    oa_v2_block *y = a->alloc(a, 5 * OA_V2_PAGE_SIZE + 1); /* 6 pages, split from the chunk's remainder */
    assert_int_equal(oa_v2_caching_block_pages(y), 6);
    assert_ptr_equal(y->addr, (uint8_t *)x->addr + 3 * OA_V2_PAGE_SIZE);
    oa_v2_caching_stats st;
    oa_v2_caching_stats_get(ca, &st);
    assert_int_equal(st.system_allocs, 1);
    assert_int_equal(st.cached_bytes, OA_V2_HUGE_PAGE_SIZE - 9 * OA_V2_PAGE_SIZE);
    oa_v2_block_release(x);
    oa_v2_block_release(y);
    /* buddies merged back into one span of the whole chunk: a 32-page request fits without a new chunk */
    oa_v2_block *z = a->alloc(a, OA_V2_HUGE_PAGE_SIZE);
    oa_v2_caching_stats_get(ca, &st);
    assert_int_equal(st.system_allocs, 1);
    assert_ptr_equal(z->addr, x->addr);
    oa_v2_block_release(z);
    oa_v2_caching_destroy(ca);
}

static void referenced_span_is_not_freed(void **state)
{
    (void)state;
    oa_v2_caching_allocator *ca = make();
    oa_v2_allocator *a = oa_v2_caching_base(ca);
    oa_v2_block *b = a->alloc(a, 10);
    oa_v2_block_retain(b);
    oa_v2_block_release(b);
    oa_v2_caching_stats st;
    oa_v2_caching_stats_get(ca, &st);
    assert_int_equal(st.in_use_bytes, OA_V2_PAGE_SIZE);
    a->free(a, b); /* refs still 1: refused */
    oa_v2_caching_stats_get(ca, &st);
    assert_int_equal(st.in_use_bytes, OA_V2_PAGE_SIZE);
    oa_v2_block_release(b);
    oa_v2_caching_stats_get(ca, &st);
    assert_int_equal(st.in_use_bytes, 0);
    oa_v2_caching_destroy(ca);
}

static void recycle_when_over_threshold(void **state)
{
    (void)state;
    oa_v2_scalable_config cfg;
    oa_v2_scalable_config_init(&cfg, 0, 0);
    cfg.cache_threshold = 3 * OA_V2_HUGE_PAGE_SIZE;
    oa_v2_caching_allocator *ca = NULL;
    assert_int_equal(oa_v2_caching_create(&cfg, &ca), OA_OK);
    oa_v2_allocator *a = oa_v2_caching_base(ca);
    oa_v2_block *b[4];
    for (int i = 0; i < 4; ++i) {
        b[i] = a->alloc(a, OA_V2_HUGE_PAGE_SIZE);
    }
    for (int i = 0; i < 4; ++i) {
        oa_v2_block_release(b[i]);
    }
    oa_v2_caching_stats st;
    oa_v2_caching_stats_get(ca, &st);
    assert_true(st.cached_bytes <= cfg.cache_threshold);
    oa_v2_caching_recycle(ca);
    oa_v2_caching_stats_get(ca, &st);
    assert_int_equal(st.chunks, 0);
    assert_int_equal(st.system_bytes, 0);
    oa_v2_caching_destroy(ca);
}

static void uncacheable_spans_are_released(void **state)
{
    (void)state;
    oa_v2_scalable_config cfg;
    oa_v2_scalable_config_init(&cfg, 0, 0);
    cfg.uncacheable_size = 4 * OA_V2_HUGE_PAGE_SIZE;
    oa_v2_caching_allocator *ca = NULL;
    assert_int_equal(oa_v2_caching_create(&cfg, &ca), OA_OK);
    oa_v2_allocator *a = oa_v2_caching_base(ca);
    oa_v2_block *big = a->alloc(a, 4 * OA_V2_HUGE_PAGE_SIZE);
    oa_v2_block_release(big);
    oa_v2_caching_stats st;
    oa_v2_caching_stats_get(ca, &st);
    assert_int_equal(st.chunks, 0);
    oa_v2_caching_destroy(ca);
}

/* A block released at once gives its chunk back when nothing else of the chunk is in use (an outgrown plan
 * block), and keeps it while a neighbour is. */
static void release_now_returns_the_chunk(void **state)
{
    (void)state;
    oa_v2_caching_allocator *ca = make();
    oa_v2_allocator *a = oa_v2_caching_base(ca);
    oa_v2_block *big = a->alloc(a, 3 * OA_V2_HUGE_PAGE_SIZE);
    oa_v2_block *s1 = a->alloc(a, OA_V2_PAGE_SIZE), *s2 = a->alloc(a, OA_V2_PAGE_SIZE); /* one 2 MiB chunk */
    oa_v2_caching_stats st;
    oa_v2_caching_stats_get(ca, &st);
    assert_int_equal(st.chunks, 2);
    oa_v2_block_retain(big);
    oa_v2_caching_release_now(ca, big); /* still referenced: stays */
    oa_v2_caching_stats_get(ca, &st);
    assert_int_equal(st.chunks, 2);
    oa_v2_caching_release_now(ca, big);
    oa_v2_caching_stats_get(ca, &st);
    assert_int_equal(st.chunks, 1);
    assert_int_equal(st.system_bytes, OA_V2_HUGE_PAGE_SIZE);
    oa_v2_caching_release_now(ca, s1); /* s2 still uses the chunk */
    oa_v2_caching_stats_get(ca, &st);
    assert_int_equal(st.chunks, 1);
    assert_int_equal(st.in_use_bytes, OA_V2_PAGE_SIZE);
    oa_v2_caching_release_now(ca, s2);
    oa_v2_caching_stats_get(ca, &st);
    assert_int_equal(st.chunks, 0);
    assert_int_equal(st.in_use_bytes, 0);
    oa_v2_caching_destroy(ca);
}

/* An epoch keeps the chunks blocks came from since the last one (a run's working set, cached for the next) and
 * gives back the wholly free ones no block came from. */
static void trim_unused_keeps_the_last_epochs_chunks(void **state)
{
    (void)state;
    oa_v2_caching_allocator *ca = make();
    oa_v2_allocator *a = oa_v2_caching_base(ca);
    /* epoch 1: two big blocks, freed (cached) */
    oa_v2_block *x = a->alloc(a, 4 * OA_V2_HUGE_PAGE_SIZE), *y = a->alloc(a, 2 * OA_V2_HUGE_PAGE_SIZE);
    oa_v2_block_release(x);
    oa_v2_block_release(y);
    oa_v2_caching_trim_unused(ca);
    oa_v2_caching_stats st;
    oa_v2_caching_stats_get(ca, &st);
    assert_int_equal(st.chunks, 2); /* used this epoch: kept for the next run */
    /* epoch 2: the same 4-chunk size again (the cached chunk serves it), the other chunk idle */
    const size_t allocs = st.system_allocs;
    oa_v2_block *x2 = a->alloc(a, 4 * OA_V2_HUGE_PAGE_SIZE);
    oa_v2_caching_stats_get(ca, &st);
    assert_int_equal(st.system_allocs, allocs);
    oa_v2_block_release(x2);
    oa_v2_caching_trim_unused(ca);
    oa_v2_caching_stats_get(ca, &st);
    assert_int_equal(st.chunks, 1);
    assert_int_equal(st.system_bytes, 4 * OA_V2_HUGE_PAGE_SIZE);
    /* a chunk in use is never given back, whatever its epoch */
    oa_v2_block *held = a->alloc(a, 4 * OA_V2_HUGE_PAGE_SIZE);
    oa_v2_caching_trim_unused(ca);
    oa_v2_caching_trim_unused(ca);
    oa_v2_caching_stats_get(ca, &st);
    assert_int_equal(st.chunks, 1);
    oa_v2_block_release(held);
    oa_v2_caching_trim_unused(ca); /* free now, its blocks came two epochs ago: given back */
    oa_v2_caching_stats_get(ca, &st);
    assert_int_equal(st.chunks, 0);
    oa_v2_caching_destroy(ca);
}

static void out_of_memory_recycles_then_retries(void **state)
{
    (void)state;
    oa_v2_caching_allocator *ca = make();
    oa_v2_allocator *a = oa_v2_caching_base(ca);
    oa_v2_block *b = a->alloc(a, 3 * OA_V2_HUGE_PAGE_SIZE);
    oa_v2_block_release(b); /* cached, wholly free */
    oa_v2_caching_fail_system_allocs(ca, 1);
    b = a->alloc(a, 4 * OA_V2_HUGE_PAGE_SIZE);
    assert_non_null(b);
    oa_v2_caching_stats st;
    oa_v2_caching_stats_get(ca, &st);
    assert_int_equal(st.chunks, 1); /* the cached chunk was recycled before the retry */
    oa_v2_block_release(b);
    oa_v2_caching_fail_system_allocs(ca, 2);
    assert_null(a->alloc(a, 8 * OA_V2_HUGE_PAGE_SIZE));
    oa_v2_caching_destroy(ca);
}

static void scalable_config_thresholds(void **state)
{
    (void)state;
    oa_v2_scalable_config c;
    oa_v2_scalable_config_init(&c, 0, 0);
    assert_int_equal(c.cache_threshold, 30 * OA_V2_GB);
    assert_int_equal(c.uncacheable_size, 16 * OA_V2_GB);
    oa_v2_scalable_config_init(&c, 31 * OA_V2_GB, 0); /* less than 32 GB */
    assert_int_equal(c.uncacheable_size, 16 * OA_V2_GB);
    assert_int_equal(c.cache_threshold, (size_t)((double)(31 * OA_V2_GB) * 0.95));
    oa_v2_scalable_config_init(&c, 48 * OA_V2_GB, 0); /* between 32 and 64 GB */
    assert_int_equal(c.uncacheable_size, 32 * OA_V2_GB);
    assert_int_equal(c.cache_threshold, (size_t)((double)(48 * OA_V2_GB) * 0.95));
    oa_v2_scalable_config_init(&c, 48 * OA_V2_GB, 10);
    assert_int_equal(c.cache_threshold, 10 * OA_V2_GB);
    oa_v2_scalable_config_init(&c, 48 * OA_V2_GB, 100); /* above the threshold: ignored */
    assert_int_equal(c.cache_threshold, (size_t)((double)(48 * OA_V2_GB) * 0.95));
    oa_v2_scalable_config_init(&c, 48 * OA_V2_GB, -1);
    assert_int_equal(c.cache_threshold, (size_t)((double)(48 * OA_V2_GB) * 0.95));
    assert_int_equal(c.layer_max_spans, 10240);
    assert_int_equal(c.layer_max_bytes, 8 * OA_V2_GB);
}

static int g_ext_allocs, g_ext_frees, g_ext_advise;
static void *ext_alloc(void *obj, size_t size)
{
    (void)obj;
    g_ext_allocs++;
    return malloc(size);
}
static void ext_free(void *obj, void *blk)
{
    (void)obj;
    g_ext_frees++;
    free(blk);
}
static void *ext_advise(void *obj, size_t size, void *addr)
{
    (void)addr;
    g_ext_advise++;
    return ext_alloc(obj, size);
}

static void external_allocator_wrapper(void **state)
{
    (void)state;
    oa_v2_ext_allocator ea;
    oa_v2_ext_allocator_init(&ea, NULL, ext_alloc, ext_free, NULL, NULL);
    oa_v2_block *b = ea.base.alloc(&ea.base, 128);
    assert_non_null(b);
    memset(b->addr, 0, 128);
    oa_v2_block_release(b);
    assert_int_equal(g_ext_allocs, 1);
    assert_int_equal(g_ext_frees, 1);
    /* no advise callback: plain alloc (never recursion) */
    b = oa_v2_ext_alloc_advise(&ea, 64, NULL);
    assert_non_null(b);
    oa_v2_block_release(b);
    assert_int_equal(g_ext_allocs, 2);
    oa_v2_ext_allocator_init(&ea, NULL, ext_alloc, ext_free, ext_advise, NULL);
    b = oa_v2_ext_alloc_advise(&ea, 64, NULL);
    oa_v2_block_release(b);
    assert_int_equal(g_ext_advise, 1);
    assert_int_equal(g_ext_frees, 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(alloc_and_free_0_size),
        cmocka_unit_test(alloc_less_than_one_page_and_reuse),
        cmocka_unit_test(alloc_split_from_larger_span_and_buddy_merge),
        cmocka_unit_test(referenced_span_is_not_freed),
        cmocka_unit_test(recycle_when_over_threshold),
        cmocka_unit_test(uncacheable_spans_are_released),
        cmocka_unit_test(release_now_returns_the_chunk),
        cmocka_unit_test(trim_unused_keeps_the_last_epochs_chunks),
        cmocka_unit_test(out_of_memory_recycles_then_retries),
        cmocka_unit_test(scalable_config_thresholds),
        cmocka_unit_test(external_allocator_wrapper),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
