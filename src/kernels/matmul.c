/*
 * MatMulV2 / BatchMatMulV2 / GEMM (f32): numpy matmul semantics with batch
 * broadcasting, transposes, bias, GEMM alpha/beta and fused post-ops.
 *
 * Fast path: oneDNN matmul primitives on 2-D problems. When b is constant
 * and has no batch dims (Linear layers), a's batch is folded into M and b
 * is pre-packed once in the primitive's preferred format. M is split into
 * oa_kernels_slices() row slices (one primitive each); run executes
 * (batch item, slice) tasks on the pool. Post-ops oneDNN can't express (and
 * GEMM alpha/beta) are applied by our loops on the slice.
 * Streamed path (AVX-512): a constant b (BERT's Linear layers, whose weights
 * do not stay in cache from one run to the next) runs as a streamed-filter
 * product (pw_product.h) that prefetches the next columns' weights while it
 * computes.
 * Reference path: plain triple loop (kept for tests and as fallback).
 */
#include "base/pages.h"
#include "kernels/onednn.h"
#include "kernels/pw_product.h"

#include <stdatomic.h>
#include <stdlib.h>


typedef struct mm_geom {
    int64_t M, N, K;
    int brank; /* output batch rank */
    int64_t bdims[OA_KMAX_DIMS];
    int64_t astr[OA_KMAX_DIMS], bstr[OA_KMAX_DIMS]; /* batch strides in matrices (0 = broadcast) */
    int64_t nbatch;
    bool ta, tb;
    bool fold; /* a's batch folded into M */
    int bias_kind; /* 0 none, 1 [N], 2 [M,N] full (per batch item broadcast) */
} mm_geom;

typedef struct mm_slice {
    dnnl_primitive_t prim;
    dnnl_memory_desc_t a_md, b_md, c_md, bias_md;
    int64_t m0, m1, n0, n1;
    size_t scratch;
    void *bpk; /* this slice's columns of constant b, pre-packed (owned unless bpk_shared) */
    bool bpk_shared; /* bpk is an earlier row slice's: same columns, same packed layout */
    bool c_tile;     /* c is written as a dense [rows, cols] tile in the workspace, then copied */
    dnnl_memory_desc_t scr_md; /* [scratch] bytes */
    oa_dnnl_args args;         /* the primitive's memory objects, kept between runs */
} mm_slice;

typedef struct mm_state {
    mm_geom g;
    float alpha, beta;
    oa_kpost_chain post;
    int add_in[OA_KMAX_POST];
    int post_from;
    bool bias_in_dnnl;
    bool use_dnnl;
    int nslices;
    mm_slice *sl; /* [nslices], allocated for the plan (docs/memory.md "Kernel state") */
    size_t tile_max; /* bytes of the largest c tile (mm_slice.c_tile) */
    bool packed; /* constant b pre-packed per slice */
    float *bcopy;  /* constant b, plain copy (when not pre-packed) */
    float *biascopy; /* constant bias */
    size_t scratch_max;
    /* bf16 compute (docs/precision.md): constant b packed in bf16, a converted per run
     * into the workspace at ah_off (bytes); bias, c and post-ops stay f32 */
    bool bf16;
    size_t ah_off;
    /* one row of a against a transposed b read at run (mm_setup): our row-dot GEMV */
    oa_kgemv_fn gemv;
    /* a constant b streamed from memory (mm_pw_setup), or a small b given at run packed per batch item into
     * the workspace, mm_batch_slot bytes per thread (mm_batch_setup) */
    oa_kpw_prod *pw;
    bool pw_at_run;
} mm_state;

/* Workspace bytes per thread: the largest scratchpad, then the largest c tile (64-byte aligned). */
static size_t mm_slot(const mm_state *s)
{
    return (s->scratch_max + 63) / 64 * 64 + (s->tile_max + 63) / 64 * 64;
}

static oa_status mm_geometry(const oa_kmatmul_params *p, int n_in, const oa_ktensor *in, mm_geom *g,
                             oa_ktensor *y, int *n_add)
{
    if (n_in < 2) {
        return OA_FAIL(OA_E_PARAM, "MatMul: needs a and b, got %d inputs", n_in);
    }
    const oa_ktensor *a = &in[0], *b = &in[1];
    if (a->dtype != OA_KDT_F32 || b->dtype != OA_KDT_F32) {
        return OA_FAIL(OA_E_UNSUPPORTED_DATA_TYPE, "MatMul: only f32 supported (a %s, b %s)", oa_kdtype_name(a->dtype),
                       oa_kdtype_name(b->dtype));
    }
    if (a->rank < 1 || b->rank < 1) {
        return OA_FAIL(OA_E_PARAM, "MatMul: operands must have rank >= 1 (got %d, %d)", a->rank, b->rank);
    }
    oa_status st = oa_kpost_check(&p->post, true, n_add);
    if (st != OA_OK) {
        return st;
    }
    memset(g, 0, sizeof(*g));
    g->ta = p->transpose_a && a->rank >= 2;
    g->tb = p->transpose_b && b->rank >= 2;
    int64_t am, ak, bk, bn;
    if (a->rank == 1) {
        am = 1;
        ak = a->dims[0];
    } else {
        am = a->dims[a->rank - (g->ta ? 1 : 2)];
        ak = a->dims[a->rank - (g->ta ? 2 : 1)];
    }
    if (b->rank == 1) {
        bk = b->dims[0];
        bn = 1;
    } else {
        bk = b->dims[b->rank - (g->tb ? 1 : 2)];
        bn = b->dims[b->rank - (g->tb ? 2 : 1)];
    }
    if (ak != bk) {
        char s1[96], s2[96];
        return OA_FAIL(OA_E_PARAM, "MatMul: inner dims differ: a %s%s, b %s%s (K %lld vs %lld)",
                       oa_kdims_str(a, s1, sizeof s1), g->ta ? "^T" : "", oa_kdims_str(b, s2, sizeof s2),
                       g->tb ? "^T" : "", (long long)ak, (long long)bk);
    }
    g->M = am;
    g->N = bn;
    g->K = ak;
    int ar = a->rank > 2 ? a->rank - 2 : 0, br = b->rank > 2 ? b->rank - 2 : 0;
    g->brank = ar > br ? ar : br;
    g->nbatch = 1;
    int64_t sa = g->M * g->K, sb = g->K * g->N;
    for (int i = g->brank - 1; i >= 0; i--) {
        int ia = i - (g->brank - ar), ib = i - (g->brank - br);
        int64_t da = ia >= 0 ? a->dims[ia] : 1, db = ib >= 0 ? b->dims[ib] : 1;
        if (da != db && da != 1 && db != 1) {
            return OA_FAIL(OA_E_PARAM, "MatMul: batch dim %d does not broadcast (%lld vs %lld)", i, (long long)da,
                           (long long)db);
        }
        g->bdims[i] = da > db ? da : db;
        if (da == 0 || db == 0) {
            g->bdims[i] = 0;
        }
        g->astr[i] = da == 1 ? 0 : sa;
        g->bstr[i] = db == 1 ? 0 : sb;
        sa *= da;
        sb *= db;
        g->nbatch *= g->bdims[i];
    }
    /* output shape */
    y->dtype = OA_KDT_F32;
    y->rank = 0;
    for (int i = 0; i < g->brank; i++) {
        y->dims[y->rank++] = g->bdims[i];
    }
    if (a->rank >= 2) {
        y->dims[y->rank++] = g->M;
    }
    if (b->rank >= 2) {
        y->dims[y->rank++] = g->N;
    }
    int idx = 3;
    const oa_ktensor *bias = oa_kt_opt(n_in, in, 2);
    if (bias != NULL) {
        int64_t bn_el = oa_ktensor_numel(bias);
        if (bias->dtype != OA_KDT_F32) {
            return OA_FAIL(OA_E_UNSUPPORTED_DATA_TYPE, "MatMul: bias must be f32");
        }
        if (bn_el == g->N && (bias->rank <= 1 || bias->dims[bias->rank - 1] == g->N)) {
            g->bias_kind = 1;
        } else if (bn_el == g->M * g->N && bias->rank >= 2 && bias->dims[bias->rank - 1] == g->N &&
                   bias->dims[bias->rank - 2] == g->M) {
            g->bias_kind = 2;
        } else {
            return OA_FAIL(OA_E_PARAM, "MatMul: bias must be [N] (%lld) or [M, N]", (long long)g->N);
        }
    }
    if (n_in != idx + *n_add) {
        return OA_FAIL(OA_E_PARAM, "MatMul: expected %d inputs (a, b, bias slot, %d residuals), got %d", idx + *n_add,
                       *n_add, n_in);
    }
    for (int i = idx; i < n_in; i++) {
        if (in[i].dtype != OA_KDT_F32 || !oa_ksame_dims(&in[i], y)) {
            return OA_FAIL(OA_E_PARAM, "MatMul: residual input %d must be f32 of the output shape", i);
        }
    }
    return OA_OK;
}

static oa_status mm_infer(const void *params, int n_in, const oa_ktensor *in, int n_out, oa_ktensor *out)
{
    mm_geom g;
    int n_add;
    if (n_out != 1) {
        return OA_FAIL(OA_E_PARAM, "MatMul: exactly 1 output, got %d", n_out);
    }
    return mm_geometry(params, n_in, in, &g, &out[0], &n_add);
}

static void mm_release_slices(mm_state *s)
{
    for (int i = 0; i < s->nslices; i++) {
        dnnl_primitive_destroy(s->sl[i].prim);
        oa_dnnl_args_release(&s->sl[i].args);
        if (!s->sl[i].bpk_shared) {
            oa_kderived_put(s->sl[i].bpk);
        }
        s->sl[i].prim = NULL;
        s->sl[i].bpk = NULL;
        s->sl[i].bpk_shared = false;
    }
    s->nslices = 0;
    s->packed = false;
}

static void mm_release(oa_kop *op)
{
    mm_state *s = op->state;
    mm_release_slices(s);
    free(s->sl);
    free(s->bcopy);
    free(s->biascopy);
    if (s->pw != NULL) {
        oa_kpw_prod_free(s->pw);
        free(s->pw);
    }
    free(s);
    op->state = NULL;
}

/* logical [rows, cols] view of a row-major matrix with leading dimension ld (trans: stored transposed) */
static void md_view_dt(dnnl_memory_desc_t *md, int64_t rows, int64_t cols, int64_t ld, bool trans,
                       dnnl_data_type_t dt)
{
    dnnl_dims_t d = {rows, cols};
    dnnl_dims_t st = {trans ? 1 : ld, trans ? ld : 1};
    dnnl_memory_desc_init_by_strides(md, 2, d, dt, st);
}

static void md_view(dnnl_memory_desc_t *md, int64_t rows, int64_t cols, int64_t ld, bool trans)
{
    md_view_dt(md, rows, cols, ld, trans, dnnl_f32);
}

/* One primitive for output block rows [m0, m1) x cols [n0, n1) (slice `i` of s->sl). */
/* bt: constant b (NULL: b at run) */
static oa_status mm_make_slice(mm_state *s, int i, const oa_ktensor *bt, int n_post)
{
    const void *bconst = bt != NULL ? bt->data : NULL;
    mm_slice *sl = &s->sl[i];
    const mm_geom *g = &s->g;
    int64_t rows = sl->m1 - sl->m0, cols = sl->n1 - sl->n0;
    md_view_dt(&sl->a_md, rows, g->K, g->ta ? g->M : g->K, g->ta, s->bf16 ? dnnl_bf16 : dnnl_f32);
    dnnl_memory_desc_t b_user, b_prim;
    md_view(&b_user, g->K, cols, g->tb ? g->K : g->N, g->tb);
    if (bconst != NULL) {
        dnnl_dims_t bd = {g->K, cols};
        dnnl_memory_desc_init_by_tag(&b_prim, 2, bd, s->bf16 ? dnnl_bf16 : dnnl_f32, dnnl_format_tag_any);
    } else {
        b_prim = b_user;
    }
    /* c dense for oneDNN: a strided c keeps its brgemm out (a column slice of ResNet-50's FC at 2 threads
     * went to "gemm:jit", 3.4 MB of JIT code). One row: the slice's columns are contiguous in c; a few
     * rows of a column slice: a tile in the workspace, copied into c after the primitive. From 64 rows
     * the copy costs more than brgemm gains: BERT-like's 128-row slices stay strided on "gemm:jit"
     * (0.335 ms against 0.355 with a tile), rec's 40-row CTC head takes the tile at the same speed. */
    sl->c_tile = rows > 1 && rows < 64 && cols < g->N;
    md_view(&sl->c_md, rows, cols, rows == 1 || sl->c_tile ? cols : g->N, false);
    dnnl_dims_t bsd = {1, cols};
    dnnl_memory_desc_init_by_tag(&sl->bias_md, 2, bsd, dnnl_f32, dnnl_ab);
    oa_kpost_chain pc = s->post;
    pc.n = n_post;
    int taken = 0;
    dnnl_primitive_attr_t attr = oa_dnnl_attr(&pc, false, &taken);
    if (attr == NULL) {
        return OA_FAIL(OA_E_INTERNAL, "oneDNN attr");
    }
    dnnl_matmul_desc_t md;
    dnnl_primitive_desc_t pd = NULL;
    dnnl_status_t ds = dnnl_matmul_desc_init(&md, &sl->a_md, &b_prim, s->bias_in_dnnl ? &sl->bias_md : NULL, &sl->c_md);
    if (ds == dnnl_success) {
        ds = dnnl_primitive_desc_create(&pd, &md, attr, oa_dnnl_engine(), NULL);
    }
    if (ds == dnnl_success && bconst != NULL) {
        /* A plain packed b whose rows are a multiple of 2 KB apart (BERT's 3072 columns: 12 KB) ran oneDNN's
         * gemm:jit (AVX2 CPUs) 1.15-1.7x slower than with the rows 64 bytes further apart: its panels' rows
         * fell into the same cache sets (bench/KERNELS.md "Padded rows for gemm:jit"). */
        const size_t esz = s->bf16 ? 2 : 4;
        dnnl_memory_desc_t plain;
        dnnl_dims_t bd = {g->K, cols};
        dnnl_memory_desc_init_by_tag(&plain, 2, bd, s->bf16 ? dnnl_bf16 : dnnl_f32, dnnl_ab);
        const dnnl_memory_desc_t *chosen = dnnl_primitive_desc_query_md(pd, dnnl_query_weights_md, 0);
        if (chosen != NULL && dnnl_memory_desc_equal(chosen, &plain) && ((size_t)cols * esz) % 2048 == 0 &&
            g->K > 1) {
            dnnl_dims_t strides = {cols + (dnnl_dim_t)(64 / esz), 1};
            dnnl_memory_desc_t padded;
            dnnl_primitive_desc_t pd2 = NULL;
            if (dnnl_memory_desc_init_by_strides(&padded, 2, bd, s->bf16 ? dnnl_bf16 : dnnl_f32, strides) ==
                    dnnl_success &&
                dnnl_matmul_desc_init(&md, &sl->a_md, &padded, s->bias_in_dnnl ? &sl->bias_md : NULL, &sl->c_md) ==
                    dnnl_success &&
                dnnl_primitive_desc_create(&pd2, &md, attr, oa_dnnl_engine(), NULL) == dnnl_success) {
                dnnl_primitive_desc_destroy(pd);
                pd = pd2;
            }
        }
    }
    dnnl_primitive_attr_destroy(attr);
    if (ds != dnnl_success) {
        return OA_FAIL(OA_E_NOT_SUPPORTED, "oneDNN matmul not available (%d)", (int)ds);
    }
    s->post_from = taken;
    const dnnl_memory_desc_t *smd = dnnl_primitive_desc_query_md(pd, dnnl_query_scratchpad_md, 0);
    sl->scratch = smd ? dnnl_memory_desc_get_size(smd) : 0;
    dnnl_dims_t sd = {(dnnl_dim_t)sl->scratch};
    dnnl_memory_desc_init_by_tag(&sl->scr_md, 1, sd, dnnl_u8, dnnl_a);
    oa_status st = OA_OK;
    if (bconst != NULL) {
        sl->b_md = *dnnl_primitive_desc_query_md(pd, dnnl_query_weights_md, 0);
        size_t sz = dnnl_memory_desc_get_size(&sl->b_md);
        for (int j = 0; j < i && sl->bpk == NULL; j++) { /* row slices: one packed b for all */
            const mm_slice *o = &s->sl[j];
            if (o->bpk != NULL && o->n0 == sl->n0 && o->n1 == sl->n1 && dnnl_memory_desc_equal(&o->b_md, &sl->b_md)) {
                sl->bpk = o->bpk;
                sl->bpk_shared = true;
            }
        }
        if (sl->bpk == NULL) { /* a derived array: a stable b's operators for other shapes share it */
            int64_t form[64];
            size_t nf = oa_dnnl_md_form(&sl->b_md, form, 60);
            form[nf++] = sl->n0;
            form[nf++] = sl->n1;
            form[nf++] = g->tb;
            oa_ktensor src_t = *bt;
            src_t.stable = bt->stable && nf > 3; /* (a layout oa_dnnl_md_form does not describe: not shared) */
            oa_dnnl_reorder_job rj = {&b_user, (const float *)bconst + (g->tb ? sl->n0 * g->K : sl->n0), &sl->b_md};
            st = oa_kderived_get(&src_t, form, nf * sizeof(int64_t), sz, oa_dnnl_reorder_fill, &rj, &sl->bpk);
        }
    } else {
        sl->b_md = b_user;
    }
    if (st == OA_OK) {
        ds = dnnl_primitive_create(&sl->prim, pd);
        if (ds != dnnl_success) {
            st = OA_FAIL(OA_E_INTERNAL, "oneDNN matmul creation failed");
        }
        oa_dnnl_prime_gemm(pd);
    }
    dnnl_primitive_desc_destroy(pd);
    return st;
}

/*
 * Splits the output into one slice per thread (none at one thread): by rows when there are enough
 * and a constant b is small enough for every thread to stream all of it (the row slices share one
 * packed b), else by columns (each thread reads its part of b; an FC's one row: its column slices'
 * c descs are dense). One slice and row slices keep c dense: oneDNN's brgemm matmul, faster here
 * than its jit gemm, needs that; "gemm:jit" takes the strided column blocks and generates 3.4 MB of
 * kernels per process (rec at one thread: 7.26 -> 6.80 ms, load 38 -> 17 ms, model RSS 32 -> 26 MiB).
 * At two threads BERT-like's 768 x 768 layers (2.4 MB of b) ran 0.37 ms as row slices against
 * 0.335 as column slices, hence the 1 MiB bound (bench/KERNELS.md "MatMul slices").
 */
#define MM_ROWS_B_MAX (1.0 * 1024 * 1024)
static int mm_plan(const mm_geom *g, bool b_const, int64_t *mb, int64_t *nb)
{
    int thr = oa_kernels_slices();
    int want = g->nbatch >= thr ? 1 : thr;
    if (2.0 * (double)g->M * (double)g->N * (double)g->K < oa_kernels_split_flops()) {
        want = 1; /* too little work to share */
    }
    int64_t ncols = 1, nrows = 1;
    const double b_bytes = 4.0 * (double)g->K * (double)g->N;
    if (want > 1 && g->M >= 8 * (int64_t)want && (!b_const || b_bytes <= MM_ROWS_B_MAX)) {
        nrows = want;
    } else if (want > 1) {
        ncols = want;
        while (ncols > 1 && g->N / ncols < 16) {
            ncols--;
        }
    }
    *mb = nrows;
    *nb = ncols;
    return (int)(nrows * ncols);
}

static oa_status mm_setup_dnnl(mm_state *s, const oa_kop *op, bool b_const)
{
    const mm_geom *g = &s->g;
    int64_t mb, nb;
    int n = mm_plan(g, b_const, &mb, &nb);
    free(s->sl);
    s->sl = calloc((size_t)n, sizeof(*s->sl));
    if (s->sl == NULL) {
        return OA_FAIL(OA_E_NOMEM, "matmul slices (%d)", n);
    }
    s->bias_in_dnnl = g->bias_kind == 1 && s->alpha == 1.0f && s->beta == 1.0f;
    int n_try[2] = {s->alpha == 1.0f && s->beta == 1.0f ? s->post.n : 0, 0};
    for (int attempt = 0; attempt < 2; attempt++) {
        oa_status st = OA_OK;
        s->nslices = 0;
        for (int i = 0; i < n && st == OA_OK; i++) {
            mm_slice *sl = &s->sl[i];
            int64_t mi = i / nb, ni = i % nb;
            /* column blocks aligned to 16 */
            int64_t cw = ((g->N + nb - 1) / nb + 15) / 16 * 16;
            sl->m0 = g->M * mi / mb;
            sl->m1 = g->M * (mi + 1) / mb;
            sl->n0 = nb == 1 ? 0 : (ni * cw < g->N ? ni * cw : g->N);
            sl->n1 = nb == 1 ? g->N : ((ni + 1) * cw < g->N ? (ni + 1) * cw : g->N);
            s->nslices = i + 1;
            if (sl->m1 == sl->m0 || sl->n1 == sl->n0) {
                s->nslices = i; /* empty trailing column block */
                break;
            }
            st = mm_make_slice(s, i, b_const ? &op->in[1] : NULL, n_try[attempt]);
        }
        if (st == OA_OK) {
            s->packed = b_const;
            s->scratch_max = 0;
            s->tile_max = 0;
            for (int i = 0; i < s->nslices; i++) {
                const mm_slice *sl = &s->sl[i];
                const size_t tile = sl->c_tile ? sizeof(float) * (size_t)((sl->m1 - sl->m0) * (sl->n1 - sl->n0)) : 0;
                s->scratch_max = sl->scratch > s->scratch_max ? sl->scratch : s->scratch_max;
                s->tile_max = tile > s->tile_max ? tile : s->tile_max;
            }
            return OA_OK;
        }
        mm_release_slices(s);
        oa_error_clear();
    }
    return OA_E_NOT_SUPPORTED;
}

/*
 * The streamed path: a constant b whose columns come in groups of 64, each prefetched while the
 * previous group computes (bench/KERNELS.md "MatMuls with the weights in memory"). One a matrix of
 * MM_PW_MIN_ROWS..MM_PW_MAX_ROWS rows (fewer take the GEMV-like paths; more were not measured: the
 * rule covers BERT-like's 128), plain alpha and beta, no per-row bias, fp32, and pieces enough for
 * every slice or a small b. N need not be a multiple of 16: the last block's missing columns are zeros in the
 * packed b and are neither read nor written in y (rec's CTC head, N = 6625).
 */
#define MM_TINY_MACS 4096 /* mm_setup: products this small skip oneDNN */
#define MM_PW_PART_BYTES ((int64_t)256 << 10) /* mm_pw_setup: b handed back in parts of about this size */
#define MM_PW_MIN_ROWS 16
#define MM_PW_MAX_ROWS 256
#define MM_PW_MIN_PIECES_PER_SLICE 8
/* A b this small takes the product whatever its pieces, the rows in one range per slice: rec's attention
 * projections (40 rows by 120 x 120 to 120 x 360: oneDNN calls of 8-23 us), BERT-like's 768 x 768 ones at
 * two threads (12 pieces; on oneDNN its load took 55 ms against 31, its model RSS 79.5 MiB against 72.8). */
#define MM_PW_FEW_PIECES_B_BYTES ((int64_t)4 << 20)

/* Whether the product of b has pieces enough for every slice to prefetch its filter. */
static bool mm_pw_pieces(const mm_geom *g)
{
    return oa_kpw_prod_pieces((g->N + 15) / 16, g->K) >= MM_PW_MIN_PIECES_PER_SLICE * (int64_t)oa_kernels_slices();
}

static bool mm_pw_eligible(const mm_state *s, bool b_const)
{
    const mm_geom *g = &s->g;
    return b_const && !s->bf16 && g->nbatch == 1 && s->alpha == 1.0f && s->beta == 1.0f && g->bias_kind != 2 &&
           g->M >= MM_PW_MIN_ROWS && g->M <= MM_PW_MAX_ROWS && g->K > 0 &&
           g->M * g->K < INT32_MAX && oa_kpw_for(oa_kisa_tier_used()) != NULL &&
           (mm_pw_pieces(g) || (g->N + 15) / 16 * 16 * g->K * (int64_t)sizeof(float) <= MM_PW_FEW_PIECES_B_BYTES) &&
           oa_env_long("OPENACL_MATMUL_PW", 1) != 0;
}

/* Packs b ([K, N]; tb: [N, K]) rows k0..k1 of the output blocks' group holding block bk into w, packed like the
 * product's filter: step k's 16 * ob columns side by side, zeros past N. */
static void mm_pack_b(const oa_kpw_prod *p, const mm_geom *g, const float *b, float *w, int64_t bk, int64_t k0,
                      int64_t k1)
{
    int64_t b0, ob;
    float *wg = oa_kpw_prod_group_in(p, w, bk, &b0, &ob);
    const int64_t cols = b0 + ob == p->nblk ? g->N - b0 * 16 : ob * 16; /* the rest of the lines: zeros */
    for (int64_t k = k0; k < k1 && !g->tb; k++) {
        memcpy(wg + k * ob * 16, b + k * g->N + b0 * 16, sizeof(float) * (size_t)cols);
        memset(wg + k * ob * 16 + cols, 0, sizeof(float) * (size_t)(ob * 16 - cols));
    }
    for (int64_t o = 0; o < ob * 16 && g->tb; o++) {
        for (int64_t k = k0; k < k1; k++) {
            wg[k * ob * 16 + o] = o < cols ? b[(b0 * 16 + o) * g->K + k] : 0.0f;
        }
    }
}

/* Rows and steps of the product: a's row m and step k (ta: a is [K, M]); c's rows N floats apart. */
static void mm_pw_offsets(oa_kpw_prod *p, const mm_geom *g)
{
    for (int64_t k = 0; k < g->K; k++) {
        p->xoff[k] = (int32_t)(g->ta ? k * g->M : k);
    }
    for (int64_t m = 0; m < g->M; m++) {
        p->off[m] = (int32_t)(g->ta ? m : m * g->K);
    }
    p->ycs = 16;
    p->ys = g->N;
    p->last = (int)(g->N - (p->nblk - 1) * 16);
}

typedef struct mm_pack_ctx {
    const oa_kpw_prod *p;
    const mm_geom *g;
    const float *b;
} mm_pack_ctx;

/* b packed into w (an oa_kderived_fill). b is read in its own order, and each part is handed back once packed
 * (oa_kconst_consumed): a loader then drops its pages, so that a large b and its packed copy are not both resident
 * (rec's 3.2 MiB head). */
static oa_status mm_pack_fill(void *ctx, void *array)
{
    const mm_pack_ctx *c = ctx;
    const oa_kpw_prod *p = c->p;
    const mm_geom *g = c->g;
    float *w = array;
    const int64_t nblk = p->nblk;
    const int64_t part = MM_PW_PART_BYTES / (int64_t)sizeof(float) / g->N + 1; /* rows of [K, N] per part */
    for (int64_t k0 = 0; k0 < g->K && !g->tb; k0 += part) { /* steps k: b's rows k ([K, N]) */
        const int64_t k1 = k0 + part < g->K ? k0 + part : g->K;
        for (int64_t bk = 0; bk < nblk; bk += OA_KPW_MAX_OB) {
            mm_pack_b(p, g, c->b, w, bk, k0, k1);
        }
        oa_kconst_consumed(c->b + k0 * g->N, sizeof(float) * (size_t)((k1 - k0) * g->N));
    }
    for (int64_t bk = 0; bk < nblk && g->tb; bk += OA_KPW_MAX_OB) { /* step k: b's column k ([N, K]) */
        mm_pack_b(p, g, c->b, w, bk, 0, g->K);
        const int64_t b0 = bk, cols = b0 + OA_KPW_MAX_OB < nblk ? OA_KPW_MAX_OB * 16 : g->N - b0 * 16;
        oa_kconst_consumed(c->b + b0 * 16 * g->K, sizeof(float) * (size_t)(cols * g->K));
    }
    return OA_OK;
}

static oa_status mm_pw_setup(mm_state *s, const oa_ktensor *bt)
{
    const mm_geom *g = &s->g;
    s->pw = calloc(1, sizeof(*s->pw));
    if (s->pw == NULL) {
        return OA_FAIL(OA_E_NOMEM, "matmul state");
    }
    oa_kpw_prod *p = s->pw;
    const int64_t nblk = (g->N + 15) / 16;
    oa_status st = oa_kpw_prod_init(p, nblk, g->K, g->M);
    if (st != OA_OK) {
        return st;
    }
    mm_pw_offsets(p, g);
    /* packed b depends on b and these, not on the rows: a stable b's operators (other shapes) share it */
    const int64_t form[3] = {g->K, g->N, g->tb};
    mm_pack_ctx pc = {.p = p, .g = g, .b = bt->data};
    if ((st = oa_kpw_prod_pack(p, bt, form, sizeof form, mm_pack_fill, &pc)) != OA_OK) {
        return st;
    }
    if (!mm_pw_pieces(g)) { /* a small b (MM_PW_FEW_PIECES_B_BYTES): the rows in one range per slice */
        const int64_t sl = oa_kernels_slices();
        const int64_t pr = ((g->M + sl - 1) / sl + OA_KPW_MAX_NP - 1) / OA_KPW_MAX_NP * OA_KPW_MAX_NP;
        oa_kpw_prod_set_ranges(p, pr);
    }
    s->packed = true;
    s->post_from = s->post.n > 0 && s->post.ops[0].kind == OA_KPOST_ADD; /* a first add: in the product */
    return OA_OK;
}

/*
 * Small products with b given at run (attention: rec's 8 heads of 40 x 15 by 15 x 40 and 40 x 40 by 40 x 15;
 * oneDNN calls of 9-39 us, and the one primitive kind that kept rec's process on oneDNN): each batch item's b
 * is packed into the thread's workspace (at most MM_BATCH_B_BYTES, in L1 or L2) and the rows run on the
 * product's tile. Bounded by MM_BATCH_MACS per item, BERT-like's 12 heads of 128 x 64 by 64 x 128 (a tie with
 * oneDNN) and 128 x 128 by 128 x 64 (0.22 -> 0.18 ms at one thread) included; larger ones were not measured.
 * docs/memory.md "Parts of a loaded model".
 */
#define MM_BATCH_MACS ((int64_t)1 << 20)
#define MM_BATCH_B_BYTES ((int64_t)64 << 10)

static bool mm_batch_eligible(const mm_state *s, const oa_kop *op)
{
    const mm_geom *g = &s->g;
    return op->in[1].data == NULL && !s->bf16 && oa_kpw_for(oa_kisa_tier_used()) != NULL && g->M > 0 &&
           g->N > 0 && g->K > 0 && g->M <= MM_BATCH_MACS && g->N <= MM_BATCH_MACS && g->K <= MM_BATCH_MACS &&
           g->M * g->N * g->K <= MM_BATCH_MACS &&
           (g->N + 15) / 16 * 16 * g->K * (int64_t)sizeof(float) <= MM_BATCH_B_BYTES &&
           oa_env_long("OPENACL_MATMUL_PW", 1) != 0;
}

/* Workspace bytes per thread of the batched path: one item's packed b, 64-byte aligned. */
static size_t mm_batch_slot(const oa_kpw_prod *p)
{
    return (size_t)((p->nblk * 16 * p->R * (int64_t)sizeof(float) + 63) / 64 * 64);
}

static oa_status mm_batch_setup(oa_kop *op, mm_state *s)
{
    const mm_geom *g = &s->g;
    s->pw = calloc(1, sizeof(*s->pw));
    if (s->pw == NULL) {
        return OA_FAIL(OA_E_NOMEM, "matmul state");
    }
    const int64_t nblk = (g->N + 15) / 16;
    oa_status st = oa_kpw_prod_init(s->pw, nblk, g->K, g->M);
    if (st != OA_OK) {
        return st;
    }
    mm_pw_offsets(s->pw, g);
    s->pw_at_run = true;
    op->ws_size = (size_t)oa_kernels_slices() * mm_batch_slot(s->pw);
    s->post_from = 0; /* bias, alpha and beta and the post-ops: mm_epilogue on each item's rows */
    return OA_OK;
}

static oa_status mm_setup(oa_kop *op)
{
    mm_state *s = calloc(1, sizeof(*s));
    if (s == NULL) {
        return OA_FAIL(OA_E_NOMEM, "matmul state");
    }
    op->state = s;
    const oa_kmatmul_params *p = &op->params.matmul;
    oa_ktensor y;
    int n_add;
    oa_status st = mm_geometry(p, op->n_in, op->in, &s->g, &y, &n_add);
    if (st != OA_OK) {
        return st;
    }
    s->alpha = p->alpha;
    s->beta = p->beta;
    if (s->alpha == 0.0f && s->beta == 0.0f) {
        s->alpha = s->beta = 1.0f;
    }
    s->post = p->post;
    for (int i = 0, k = 0; i < s->post.n; i++) {
        s->add_in[i] = s->post.ops[i].kind == OA_KPOST_ADD ? 3 + k++ : -1;
    }
    mm_geom *g = &s->g;
    bool b_const = op->in[1].data != NULL && g->brank > 0 ? false : op->in[1].data != NULL;
    /* fold a's batch into M: b without batch dims, a not transposed */
    bool b_has_batch = false;
    for (int i = 0; i < g->brank; i++) {
        b_has_batch |= g->bstr[i] != 0;
    }
    if (g->brank > 0 && !b_has_batch && !g->ta && g->bias_kind != 2) {
        g->fold = true;
        g->M *= g->nbatch;
        g->nbatch = 1;
        b_const = op->in[1].data != NULL;
    }
    s->use_dnnl = false;
    /* bf16 for Linear layers: constant b, one a matrix (docs/precision.md) */
    s->bf16 = b_const && g->nbatch == 1 && oa_klowp_compute(p->lowp) == OA_KLOWP_BF16;
    /* One row of a against a transposed b given at run (a Linear layer's weights read where they live,
     * v1_program.c; or an activation): oneDNN copies such a b on every run (ResNet-50's 8 MB classifier:
     * 0.33-0.45 ms, 0.10 untransposed), our row-dot GEMV reads each row of b once (bench/KERNELS.md
     * "GEMV for transposed weights read in place"). */
    if (!b_const && !s->bf16 && g->M == 1 && g->nbatch == 1 && g->tb && g->N > 0 && g->K > 0 &&
        oa_env_long("OPENACL_MATMUL_GEMV", 1) != 0) {
        s->gemv = oa_kgemv_for(oa_kisa_tier_used());
    }
    if (s->gemv == NULL && mm_pw_eligible(s, b_const)) {
        st = mm_pw_setup(s, &op->in[1]);
        if (st != OA_OK) {
            return st;
        }
    }
    /* Products of a few thousand multiply-adds (a classifier head such as cls's 1x200 by 200x2) run on the
     * reference loop: about a microsecond, less than a oneDNN primitive's call, and no primitive to create
     * (bench/KERNELS.md "Depthwise and small 1x1 convs"). */
    const bool tiny = !s->bf16 && g->nbatch <= MM_TINY_MACS && g->M <= MM_TINY_MACS && g->N <= MM_TINY_MACS &&
                      g->K <= MM_TINY_MACS && g->nbatch * g->M * g->N * g->K <= MM_TINY_MACS; /* (no overflow) */
    if (s->gemv == NULL && s->pw == NULL && !tiny && mm_batch_eligible(s, op)) {
        st = mm_batch_setup(op, s);
        if (st != OA_OK) {
            return st;
        }
    }
    if (s->gemv == NULL && s->pw == NULL && !tiny && oa_dnnl_enabled() && g->M > 0 && g->N > 0 && g->K > 0 &&
        g->nbatch > 0) {
        int saved = oa_dnnl_enter();
        st = mm_setup_dnnl(s, op, b_const);
        if (st != OA_OK && s->bf16) { /* no bf16 kernel: fp32 */
            oa_error_clear();
            s->bf16 = false;
            st = mm_setup_dnnl(s, op, b_const);
        }
        oa_dnnl_leave(saved);
        s->use_dnnl = st == OA_OK;
    }
    if (!s->packed && op->in[1].data != NULL) {
        size_t nb = sizeof(float) * (size_t)oa_ktensor_numel(&op->in[1]);
        s->bcopy = malloc(nb ? nb : 1);
        if (s->bcopy == NULL) {
            return OA_FAIL(OA_E_NOMEM, "matmul b copy");
        }
        memcpy(s->bcopy, op->in[1].data, nb);
    }
    const oa_ktensor *bias = oa_kt_opt(op->n_in, op->in, 2);
    if (bias != NULL && bias->data != NULL) {
        size_t nb = sizeof(float) * (size_t)oa_ktensor_numel(bias);
        s->biascopy = malloc(nb ? nb : 1);
        if (s->biascopy == NULL) {
            return OA_FAIL(OA_E_NOMEM, "matmul bias copy");
        }
        memcpy(s->biascopy, bias->data, nb);
    }
    if (s->use_dnnl) {
        op->impl = "onednn";
        op->ws_size = (size_t)oa_kernels_slices() * mm_slot(s); /* per thread: scratchpad, then c's tile */
        if (s->bf16) { /* the bf16 copy of a */
            s->ah_off = op->ws_size;
            op->ws_size += (size_t)(g->M * g->K) * 2;
            op->impl = "onednn-bf16";
        }
    } else if (s->pw != NULL) {
        const bool wide = oa_kisa_level() >= 2; /* the tile of the tier (oa_kpw_for) */
        op->impl = s->pw_at_run ? (wide ? "pw-batch-avx512" : "pw-batch-avx2") : (wide ? "pw-avx512" : "pw-avx2");
    } else {
        s->bf16 = false;
        s->post_from = 0;
        s->bias_in_dnnl = false;
        op->impl = s->gemv != NULL ? "gemv" : "ref";
    }
    return OA_OK;
}

/* offsets (in elements) of a, b matrices for batch item i */
static void batch_offsets(const mm_geom *g, int64_t i, int64_t *oa, int64_t *ob)
{
    *oa = *ob = 0;
    for (int d = g->brank - 1; d >= 0 && !g->fold; d--) {
        int64_t idx = i % g->bdims[d];
        i /= g->bdims[d];
        *oa += idx * g->astr[d];
        *ob += idx * g->bstr[d];
    }
}

/* Our epilogue on rows [m0, m1) x cols [n0, n1) of output matrix c (batch item bi). */
static void mm_epilogue(const mm_state *s, const void *const *in, float *c, int64_t bi, int64_t m0, int64_t m1,
                        int64_t n0, int64_t n1, bool acc_has_bias)
{
    const mm_geom *g = &s->g;
    const float *bias = s->biascopy ? s->biascopy : in[2];
    int64_t base = bi * g->M * g->N;
    for (int64_t m = m0; m < m1; m++) {
        float *row = c + base + m * g->N + n0;
        size_t w = (size_t)(n1 - n0);
        if (!acc_has_bias && (s->alpha != 1.0f || bias != NULL)) {
            const float *brow = NULL;
            if (bias != NULL) {
                brow = (g->bias_kind == 1 ? bias : bias + m * g->N) + n0;
            }
            for (size_t n = 0; n < w; n++) {
                row[n] = s->alpha * row[n] + (brow ? s->beta * brow[n] : 0.0f);
            }
        }
        for (int k = s->post_from; k < s->post.n; k++) {
            const oa_kpost *p = &s->post.ops[k];
            if (p->kind == OA_KPOST_ADD) {
                oa_kadd_inplace(row, (const float *)in[s->add_in[k]] + base + m * g->N + n0, w);
            } else {
                oa_kact_apply(p->act, p->alpha, p->beta, row, w);
            }
        }
    }
}

typedef struct mm_ctx {
    const mm_state *s;
    const void *const *in;
    float *c;
    char *ws;
    size_t slot;
    _Atomic size_t next;
    size_t ntasks;
    _Atomic int err;
    uint64_t deadline; /* the run scope's deadline (run_scope.h): slices after it are not started */
    const uint16_t *ah; /* bf16: a converted (same layout) */
} mm_ctx;

static void mm_dnnl_worker(void *vctx, size_t tid, size_t b, size_t e)
{
    (void)b, (void)e;
    mm_ctx *c = vctx;
    const mm_state *s = c->s;
    const mm_geom *g = &s->g;
    int saved = oa_dnnl_enter();
    for (;;) {
        size_t t = atomic_fetch_add(&c->next, 1);
        if (t >= c->ntasks || oa_run_expired(c->deadline)) {
            break;
        }
        int64_t bi = (int64_t)t / s->nslices;
        mm_slice *sl = &s->sl[t % (size_t)s->nslices];
        int64_t oa, ob;
        batch_offsets(g, bi, &oa, &ob);
        const float *a = (const float *)c->in[0] + oa + (g->ta ? sl->m0 : sl->m0 * g->K);
        const void *asrc = a;
        if (s->bf16) { /* one a matrix (oa == 0): same offset into the bf16 copy */
            asrc = c->ah + (g->ta ? sl->m0 : sl->m0 * g->K);
        }
        const float *bm = s->packed ? (const float *)sl->bpk
                                    : (s->bcopy ? s->bcopy : (const float *)c->in[1]) + ob +
                                          (g->tb ? sl->n0 * g->K : sl->n0);
        float *cm = c->c + bi * g->M * g->N + sl->m0 * g->N + sl->n0;
        float *dst = sl->c_tile ? (float *)(void *)(c->ws + tid * c->slot + (s->scratch_max + 63) / 64 * 64) : cm;
        const dnnl_memory_desc_t *mds[5] = {&sl->a_md, &sl->b_md, &sl->c_md, &sl->bias_md, &sl->scr_md};
        /* The bias pointer exists only when the primitive takes a bias: a MatMul without one has no
         * in[2] (and offsetting a NULL pointer is undefined). */
        const void *biasp = NULL;
        if (s->bias_in_dnnl) {
            biasp = (const float *)(s->biascopy ? s->biascopy : c->in[2]) + sl->n0;
        }
        void *ptrs[5] = {(void *)(uintptr_t)asrc, (void *)(uintptr_t)bm, dst, (void *)(uintptr_t)biasp,
                         c->ws + tid * c->slot};
        int kinds[5] = {DNNL_ARG_SRC, DNNL_ARG_WEIGHTS, DNNL_ARG_DST, DNNL_ARG_BIAS, DNNL_ARG_SCRATCHPAD};
        int n = 3;
        if (s->bias_in_dnnl) {
            n = 4;
        }
        if (sl->scratch) {
            mds[n] = &sl->scr_md;
            ptrs[n] = c->ws + tid * c->slot;
            kinds[n] = DNNL_ARG_SCRATCHPAD;
            n++;
        }
        if (oa_dnnl_exec_kept(&sl->args, sl->prim, n, kinds, mds, ptrs) != OA_OK) {
            atomic_store(&c->err, 1);
        }
        const int64_t cols = sl->n1 - sl->n0;
        for (int64_t r = 0; sl->c_tile && r < sl->m1 - sl->m0; r++) {
            memcpy(cm + r * g->N, dst + r * cols, sizeof(float) * (size_t)cols);
        }
        mm_epilogue(s, c->in, c->c, bi, sl->m0, sl->m1, sl->n0, sl->n1, s->bias_in_dnnl);
    }
    oa_dnnl_leave(saved);
}

typedef struct mm_ref_ctx {
    const mm_state *s;
    const void *const *in;
    float *c;
    uint64_t deadline; /* the run scope's deadline: rows after it are not computed */
} mm_ref_ctx;

static void mm_ref_task(void *vctx, size_t tid, size_t b, size_t e)
{
    (void)tid;
    const mm_ref_ctx *c = vctx;
    const mm_state *s = c->s;
    const mm_geom *g = &s->g;
    for (size_t t = b; t < e; t++) { /* t = batch * M + m */
        if (c->deadline != 0 && oa_run_expired(c->deadline)) {
            return; /* stopped: the caller reports the timeout */
        }
        int64_t bi = (int64_t)t / g->M, m = (int64_t)t % g->M;
        int64_t oa, ob;
        batch_offsets(g, bi, &oa, &ob);
        const float *A = (const float *)c->in[0] + oa;
        const float *B = (s->bcopy ? s->bcopy : (const float *)c->in[1]) + ob;
        float *row = c->c + bi * g->M * g->N + m * g->N;
        for (int64_t n = 0; n < g->N; n++) {
            float acc = 0.0f;
            for (int64_t k = 0; k < g->K; k++) {
                float av = g->ta ? A[k * g->M + m] : A[m * g->K + k];
                float bv = g->tb ? B[n * g->K + k] : B[k * g->N + n];
                acc += av * bv;
            }
            row[n] = acc;
        }
        mm_epilogue(s, c->in, c->c, bi, m, m + 1, 0, g->N, false);
    }
}

/* Output columns [b, e) of the one-row product: c[n] = b[n, :] . a, then bias and post-ops (mm_epilogue). */
static void mm_gemv_task(void *vctx, size_t tid, size_t b, size_t e)
{
    (void)tid;
    const mm_ref_ctx *c = vctx;
    const mm_state *s = c->s;
    const mm_geom *g = &s->g;
    if (c->deadline != 0 && oa_run_expired(c->deadline)) {
        return; /* stopped: the caller reports the timeout */
    }
    const float *B = s->bcopy ? s->bcopy : (const float *)c->in[1];
    memset(c->c + b, 0, sizeof(float) * (e - b));
    s->gemv(B + (int64_t)b * g->K, (int64_t)(e - b), g->K, (const float *)c->in[0], c->c + b);
    mm_epilogue(s, c->in, c->c, 0, 0, 1, (int64_t)b, (int64_t)e, false);
}

typedef struct mm_batch_ctx {
    const mm_state *s;
    const void *const *in;
    float *c;
    char *ws;
    uint64_t deadline;
    _Atomic size_t next;
} mm_batch_ctx;

/* Batch items one after another from a shared counter: b packed into this thread's slot, the rows on the tile,
 * then mm_epilogue (bias, alpha and beta, post-ops) on the item's rows while they are in cache. */
static void mm_batch_worker(void *vctx, size_t tid, size_t b, size_t e)
{
    (void)b, (void)e;
    mm_batch_ctx *c = vctx;
    const mm_state *s = c->s;
    const mm_geom *g = &s->g;
    float *w = (float *)(void *)(c->ws + tid * mm_batch_slot(s->pw));
    for (int64_t bi = (int64_t)atomic_fetch_add(&c->next, 1); bi < g->nbatch;
         bi = (int64_t)atomic_fetch_add(&c->next, 1)) {
        if (c->deadline != 0 && oa_run_expired(c->deadline)) {
            return; /* stopped: the caller reports the timeout */
        }
        int64_t oa, ob;
        batch_offsets(g, bi, &oa, &ob);
        for (int64_t bk = 0; bk < s->pw->nblk; bk += OA_KPW_MAX_OB) {
            mm_pack_b(s->pw, g, (const float *)c->in[1] + ob, w, bk, 0, g->K);
        }
        oa_kpw_prod_run_here(s->pw, w, (const float *)c->in[0] + oa, c->c + bi * g->M * g->N);
        mm_epilogue(s, c->in, c->c, bi, 0, g->M, 0, g->N, false);
    }
}

/* Rows [b, e) after the streamed product: the post-ops it did not do. */
static void mm_pw_post_task(void *vctx, size_t tid, size_t b, size_t e)
{
    (void)tid;
    const mm_ref_ctx *c = vctx;
    mm_epilogue(c->s, c->in, c->c, 0, (int64_t)b, (int64_t)e, 0, c->s->g.N, true);
}

static oa_status mm_run(const oa_kop *op, const void *const *in, void *const *out, void *ws, oa_threadpool *pool)
{
    const mm_state *s = op->state;
    const mm_geom *g = &s->g;
    if (in[0] == NULL || (in[1] == NULL && !s->packed && s->bcopy == NULL) || out[0] == NULL) {
        return OA_FAIL(OA_E_PARAM, "MatMul: NULL data pointer");
    }
    if (g->bias_kind != 0 && in[2] == NULL && s->biascopy == NULL) {
        return OA_FAIL(OA_E_PARAM, "MatMul: bias pointer is NULL");
    }
    for (int k = 0; k < s->post.n; k++) {
        if (s->add_in[k] >= 0 && in[s->add_in[k]] == NULL) {
            return OA_FAIL(OA_E_PARAM, "MatMul: residual input %d is NULL", s->add_in[k]);
        }
    }
    if (g->M == 0 || g->N == 0 || g->nbatch == 0) {
        return OA_OK;
    }
    if (g->K == 0) {
        memset(out[0], 0, sizeof(float) * (size_t)(g->nbatch * g->M * g->N));
        for (int64_t bi = 0; bi < g->nbatch; bi++) {
            mm_epilogue(s, in, out[0], bi, 0, g->M, 0, g->N, false);
        }
        return OA_OK;
    }
    if (s->use_dnnl) {
        mm_ctx c = {.s = s, .in = in, .c = out[0], .ws = ws, .slot = mm_slot(s), .deadline = oa_run_deadline()};
        atomic_init(&c.next, 0);
        atomic_init(&c.err, 0);
        c.ntasks = (size_t)(g->nbatch * s->nslices);
        if (s->bf16) {
            uint16_t *ah = (uint16_t *)(void *)((char *)ws + s->ah_off);
            oa_kbf16_convert(pool, in[0], ah, (size_t)(g->M * g->K));
            c.ah = ah;
        }
        size_t nthr = oa_threadpool_size(pool), cap = (size_t)oa_kernels_slices();
        nthr = nthr < cap ? nthr : cap;
        oa_threadpool_run_n(pool, nthr < c.ntasks ? nthr : c.ntasks, mm_dnnl_worker, &c);
        return atomic_load(&c.err) ? OA_FAIL(OA_E_INTERNAL, "MatMul: oneDNN execution failed") : OA_OK;
    }
    if (s->pw_at_run) {
        mm_batch_ctx c = {.s = s, .in = in, .c = out[0], .ws = ws, .deadline = oa_run_deadline()};
        atomic_init(&c.next, 0);
        size_t nthr = oa_threadpool_size(pool), cap = (size_t)oa_kernels_slices();
        nthr = nthr < cap ? nthr : cap;
        oa_threadpool_run_n(pool, nthr < (size_t)g->nbatch ? nthr : (size_t)g->nbatch, mm_batch_worker, &c);
        return OA_OK;
    }
    mm_ref_ctx c = {s, in, out[0], oa_run_deadline()};
    if (s->pw != NULL) {
        const float *bias = g->bias_kind == 1 ? (s->biascopy ? s->biascopy : in[2]) : NULL;
        oa_kpw_prod_run(s->pw, in[0], out[0], bias, s->post_from == 1 ? in[s->add_in[0]] : NULL, NULL, NULL, pool);
        if (s->post.n > s->post_from) {
            oa_threadpool_parallel_for(pool, (size_t)g->M, (size_t)(OA_KGRAIN_ELEMS / g->N + 1), mm_pw_post_task, &c);
        }
        return OA_OK;
    }
    if (s->gemv != NULL) {
        oa_threadpool_parallel_for(pool, (size_t)g->N, (size_t)(OA_KGRAIN_ELEMS / g->K + 1), mm_gemv_task, &c);
        return OA_OK;
    }
    oa_threadpool_parallel_for(pool, (size_t)(g->nbatch * g->M), 1, mm_ref_task, &c);
    return OA_OK;
}

/* b packed or copied at setup (a b given only at run is read there), the bias when copied. */
static bool mm_reads_at_run(const oa_kop *op, int i)
{
    const mm_state *s = op->state;
    if (s == NULL) {
        return true;
    }
    if (i == 1) {
        return !s->packed && s->bcopy == NULL;
    }
    return i != 2 || s->biascopy == NULL;
}

const oa_kfamily oa_kfam_matmul = {
    .params_size = sizeof(oa_kmatmul_params),
    .infer = mm_infer,
    .setup = mm_setup,
    .run = mm_run,
    .release = mm_release,
    .reads_at_run = mm_reads_at_run,
};
