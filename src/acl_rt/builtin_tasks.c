/*
 * The runtime's built-in stream tasks: element-wise reduction into device
 * memory (aclrtReduceAsync) and random-number generation
 * (aclrtRandomNumAsync). Semantics, supported types and the generator are
 * described in docs/runtime.md ("Reduce tasks", "Random-number tasks").
 */
#define OA_LOG_MODULE "RUNTIME"
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "acl/acl_base.h"
#include "acl_rt/rt_internal.h"
#include "base/acl_check.h"
#include "base/error.h"
#include "base/util.h"
#include "mem/mem_table.h"

/* ---- small numeric helpers ------------------------------------------------------------------------------------- */

static float bf16_to_f32(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, sizeof(f));
    return f;
}

static uint16_t f32_to_bf16(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof(u));
    if (isnan(f)) {
        return (uint16_t)((u >> 16) | 0x40u);
    }
    u += 0x7fffu + ((u >> 16) & 1u); /* round to nearest even */
    return (uint16_t)(u >> 16);
}

/* Every device range a task touches must lie inside one aclrtMalloc block. */
static oa_status check_device_range(const void *p, size_t n, const char *what)
{
    oa_mem_block b;
    if (!oa_mem_find(p, &b) || b.kind != OA_MEM_KIND_DEVICE) {
        return OA_FAIL(OA_E_RT_PARAM, "%s [%p] is not device memory allocated by aclrtMalloc", what, p);
    }
    size_t off = (size_t)((const char *)p - (const char *)b.base);
    if (n > b.size - off) {
        return OA_FAIL(OA_E_RT_PARAM, "%s [%p]: %zu bytes do not fit in its allocation (%zu bytes left)", what, p, n,
                       b.size - off);
    }
    return OA_OK;
}

static oa_status submit_on(aclrtStream stream, const oa_task_desc *d)
{
    oa_stream *s = NULL;
    oa_status st = oa_stream_acquire(stream, &s);
    if (st != OA_OK) {
        return st;
    }
    st = oa_stream_submit(s, d, NULL);
    oa_stream_release(s);
    return st;
}

/* ---- aclrtReduceAsync -------------------------------------------------------------------------------------------- */

typedef struct reduce_args {
    void *dst;
    const void *src;
    uint64_t n; /* elements */
    aclrtReduceKind kind;
    aclDataType type;
    bool saturate; /* aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_SATURATION) at submission */
} reduce_args;

static double combine(double a, double b, aclrtReduceKind kind)
{
    switch (kind) {
    case ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX:
        return a > b || isnan(a) ? a : b;
    case ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN:
        return a < b || isnan(a) ? a : b;
    default:
        return a + b;
    }
}

/* Integer results saturate to the type's range (SDMA reduction does not wrap); overflow is recorded. */
static int64_t clamp_int(double v, int64_t lo, int64_t hi, bool *overflow)
{
    if (v > (double)hi) {
        *overflow = true;
        return hi;
    }
    if (v < (double)lo) {
        *overflow = true;
        return lo;
    }
    return (int64_t)v;
}

/* A float result that became infinite from finite operands overflowed; saturation mode clamps it. */
static double float_result(double r, double a, double b, double max_finite, bool saturate, bool *overflow)
{
    if (isinf(r) && isfinite(a) && isfinite(b)) {
        *overflow = true;
        if (saturate) {
            return r > 0 ? max_finite : -max_finite;
        }
    }
    return r;
}

static oa_status reduce_run(void *args, const oa_task_exec *exec)
{
    const reduce_args *a = args;
    bool overflow = false;
    for (uint64_t i = 0; i < a->n; ++i) {
        switch (a->type) {
        case ACL_INT8: {
            int8_t *d = (int8_t *)a->dst + i;
            *d = (int8_t)clamp_int(combine(*d, ((const int8_t *)a->src)[i], a->kind), INT8_MIN, INT8_MAX, &overflow);
            break;
        }
        case ACL_INT16: {
            int16_t *d = (int16_t *)a->dst + i;
            *d = (int16_t)clamp_int(combine(*d, ((const int16_t *)a->src)[i], a->kind), INT16_MIN, INT16_MAX,
                                    &overflow);
            break;
        }
        case ACL_INT32: {
            int32_t *d = (int32_t *)a->dst + i;
            *d = (int32_t)clamp_int(combine(*d, ((const int32_t *)a->src)[i], a->kind), INT32_MIN, INT32_MAX,
                                    &overflow);
            break;
        }
        case ACL_UINT32: {
            uint32_t *d = (uint32_t *)a->dst + i;
            *d = (uint32_t)clamp_int(combine(*d, ((const uint32_t *)a->src)[i], a->kind), 0, UINT32_MAX, &overflow);
            break;
        }
        case ACL_FLOAT: {
            float *d = (float *)a->dst + i;
            const double x = *d, y = ((const float *)a->src)[i];
            /* the sum is rounded to float first, as a float adder does */
            const double r = (double)(float)combine(x, y, a->kind);
            *d = (float)float_result(r, x, y, FLT_MAX, a->saturate, &overflow);
            break;
        }
        case ACL_FLOAT16: {
            uint16_t *d = (uint16_t *)a->dst + i;
            const double x = aclFloat16ToFloat(*d), y = aclFloat16ToFloat(((const uint16_t *)a->src)[i]);
            const double r = aclFloat16ToFloat(aclFloatToFloat16((float)combine(x, y, a->kind)));
            *d = aclFloatToFloat16((float)float_result(r, x, y, 65504.0, a->saturate, &overflow));
            break;
        }
        default: { /* ACL_BF16 */
            uint16_t *d = (uint16_t *)a->dst + i;
            const double x = bf16_to_f32(*d), y = bf16_to_f32(((const uint16_t *)a->src)[i]);
            const double r = bf16_to_f32(f32_to_bf16((float)combine(x, y, a->kind)));
            *d = f32_to_bf16((float)float_result(r, x, y, 3.3895313892515355e38, a->saturate, &overflow));
            break;
        }
        }
    }
    if (overflow) {
        oa_rt_overflow_note(exec->stream);
    }
    return OA_OK;
}

static size_t reduce_elem_size(aclDataType t)
{
    switch (t) {
    case ACL_INT8:
        return 1;
    case ACL_INT16:
    case ACL_FLOAT16:
    case ACL_BF16:
        return 2;
    case ACL_INT32:
    case ACL_UINT32:
    case ACL_FLOAT:
        return 4;
    default:
        return 0;
    }
}

ACL_FUNC_VISIBILITY aclError aclrtReduceAsync(void *dst, const void *src, uint64_t count, aclrtReduceKind kind,
                                              aclDataType type, aclrtStream stream, void *reserve)
{
    ACL_REQUIRE_NOT_NULL(dst);
    ACL_REQUIRE_NOT_NULL(src);
    ACL_REQUIRE(reserve == NULL, OA_E_PARAM, "parameter [reserve] must be NULL");
    ACL_REQUIRE(kind == ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM || kind == ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX ||
                    kind == ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN || kind == ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL,
                OA_E_PARAM, "reduce kind [%d] is invalid (SUM 10, MAX 11, MIN 12, EQUAL 13)", (int)kind);
    ACL_REQUIRE(kind != ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL, OA_E_RT_FEATURE_NOT_SUPPORT,
                "reduce kind ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL(13) is not supported on this device");
    const size_t es = reduce_elem_size(type);
    ACL_REQUIRE(es != 0, OA_E_PARAM,
                "data type [%d] is not supported by reduce tasks (int8, int16, int32, uint32, float16, float, bf16)",
                (int)type);
    ACL_REQUIRE(count > 0 && count % es == 0 && count <= SIZE_MAX, OA_E_PARAM,
                "count [%llu] must be a positive multiple of the element size [%zu] (count is in bytes)",
                (unsigned long long)count, es);
    oa_status st = check_device_range(dst, (size_t)count, "dst");
    if (st == OA_OK) {
        st = check_device_range(src, (size_t)count, "src");
    }
    if (st != OA_OK) {
        ACL_RETURN_STATUS(st);
    }
    oa_stream *s = NULL;
    st = oa_stream_acquire(stream, &s);
    if (st != OA_OK) {
        ACL_RETURN_STATUS(st);
    }
    /* the stream's saturation mode: the device's mode when the stream was created */
    reduce_args a = {.dst = dst, .src = src, .n = count / es, .kind = kind, .type = type,
                     .saturate = s->sat_mode == ACL_RT_OVERFLOW_MODE_SATURATION};
    oa_task_desc d = {.kind = OA_TASK_KIND_GENERIC, .run = reduce_run, .args = &a, .args_size = sizeof(a)};
    st = oa_stream_submit(s, &d, NULL);
    oa_stream_release(s);
    ACL_RETURN_STATUS(st);
}

/* ---- aclrtRandomNumAsync ----------------------------------------------------------------------------------------- */

/*
 * Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3"): a counter-based generator, so the
 * output is a pure function of (seed, 128-bit counter) and the counter in device memory is the offset.
 */
static void philox(const uint32_t key_in[2], const uint32_t ctr_in[4], uint32_t out[4])
{
    uint32_t k0 = key_in[0], k1 = key_in[1];
    uint32_t c0 = ctr_in[0], c1 = ctr_in[1], c2 = ctr_in[2], c3 = ctr_in[3];
    for (int r = 0; r < 10; ++r) {
        const uint64_t p0 = (uint64_t)0xD2511F53u * c0;
        const uint64_t p1 = (uint64_t)0xCD9E8D57u * c2;
        const uint32_t n0 = (uint32_t)(p1 >> 32) ^ c1 ^ k0;
        const uint32_t n2 = (uint32_t)(p0 >> 32) ^ c3 ^ k1;
        c1 = (uint32_t)p1;
        c3 = (uint32_t)p0;
        c0 = n0;
        c2 = n2;
        k0 += 0x9E3779B9u;
        k1 += 0xBB67AE85u;
    }
    out[0] = c0;
    out[1] = c1;
    out[2] = c2;
    out[3] = c3;
}

typedef struct rng {
    uint32_t key[2];
    uint32_t ctr[4];
    uint32_t buf[4];
    unsigned used; /* words of buf consumed; 4 = empty */
    uint64_t blocks;
} rng;

static void ctr_add(uint32_t ctr[4], uint64_t n)
{
    uint64_t lo = ((uint64_t)ctr[1] << 32 | ctr[0]);
    uint64_t nlo = lo + n;
    uint64_t hi = ((uint64_t)ctr[3] << 32 | ctr[2]) + (nlo < lo ? 1u : 0u);
    ctr[0] = (uint32_t)nlo;
    ctr[1] = (uint32_t)(nlo >> 32);
    ctr[2] = (uint32_t)hi;
    ctr[3] = (uint32_t)(hi >> 32);
}

static uint32_t rng_u32(rng *g)
{
    if (g->used == 4) {
        philox(g->key, g->ctr, g->buf);
        ctr_add(g->ctr, 1);
        ++g->blocks;
        g->used = 0;
    }
    return g->buf[g->used++];
}

static uint64_t rng_u64(rng *g)
{
    uint64_t lo = rng_u32(g);
    return (uint64_t)rng_u32(g) << 32 | lo;
}

/* Uniform in [0, 1) with 24 bits (float) resolution; open variant (0, 1] for logarithms. */
static double rng_unit(rng *g) { return (double)(rng_u32(g) >> 8) * (1.0 / 16777216.0); }
static double rng_unit_open(rng *g) { return ((double)(rng_u32(g) >> 8) + 1.0) * (1.0 / 16777216.0); }

static double rng_normal(rng *g)
{
    /* Box-Muller, one value per pair of draws */
    const double u1 = rng_unit_open(g), u2 = rng_unit(g);
    return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

typedef struct random_args {
    aclrtRandomNumTaskInfo info; /* a copy: immediate values are taken at submission */
} random_args;

static size_t random_elem_size(aclDataType t)
{
    switch (t) {
    case ACL_FLOAT16:
    case ACL_BF16:
        return 2;
    case ACL_INT32:
    case ACL_UINT32:
    case ACL_FLOAT:
        return 4;
    case ACL_INT64:
    case ACL_UINT64:
        return 8;
    default:
        return 0;
    }
}

/* The bytes of a parameter: immediate, or read from the device address it holds (at run time). */
static oa_status para_bytes(const aclrtRandomParaInfo *p, size_t want, const char *name, uint8_t out[8])
{
    if (p->size == 0 || p->size > 8 || (want != 0 && p->size != want)) {
        return OA_FAIL(OA_E_PARAM, "random parameter [%s]: size [%u] must be %zu", name, p->size,
                       want != 0 ? want : (size_t)8);
    }
    memset(out, 0, 8);
    if (p->isAddr == 0) {
        memcpy(out, p->valueOrAddr, p->size);
        return OA_OK;
    }
    void *addr;
    memcpy(&addr, p->valueOrAddr, sizeof(addr));
    if (addr == NULL) {
        return OA_FAIL(OA_E_PARAM, "random parameter [%s]: address is NULL", name);
    }
    oa_status st = check_device_range(addr, p->size, name);
    if (st == OA_OK) {
        memcpy(out, addr, p->size);
    }
    return st;
}

static oa_status para_u64(const aclrtRandomParaInfo *p, const char *name, uint64_t *v)
{
    uint8_t b[8];
    oa_status st = para_bytes(p, 0, name, b);
    if (st == OA_OK) {
        memcpy(v, b, 8); /* little endian, zero-extended */
    }
    return st;
}

/* A typed parameter as a double (floating types) or as raw 64-bit integer bits. */
typedef struct typed_val {
    double f;
    int64_t i;
    uint64_t u;
} typed_val;

static oa_status para_typed(const aclrtRandomParaInfo *p, aclDataType t, const char *name, typed_val *v)
{
    uint8_t b[8];
    oa_status st = para_bytes(p, random_elem_size(t), name, b);
    if (st != OA_OK) {
        return st;
    }
    memset(v, 0, sizeof(*v));
    switch (t) {
    case ACL_FLOAT: {
        float f;
        memcpy(&f, b, 4);
        v->f = f;
        break;
    }
    case ACL_FLOAT16: {
        uint16_t h;
        memcpy(&h, b, 2);
        v->f = aclFloat16ToFloat(h);
        break;
    }
    case ACL_BF16: {
        uint16_t h;
        memcpy(&h, b, 2);
        v->f = bf16_to_f32(h);
        break;
    }
    case ACL_INT32: {
        int32_t x;
        memcpy(&x, b, 4);
        v->i = x;
        break;
    }
    case ACL_UINT32: {
        uint32_t x;
        memcpy(&x, b, 4);
        v->u = x;
        break;
    }
    case ACL_INT64:
        memcpy(&v->i, b, 8);
        break;
    default: /* ACL_UINT64 */
        memcpy(&v->u, b, 8);
        break;
    }
    return OA_OK;
}

static bool is_float_type(aclDataType t) { return t == ACL_FLOAT || t == ACL_FLOAT16 || t == ACL_BF16; }

static void store_float(void *out, uint64_t i, aclDataType t, double v)
{
    if (t == ACL_FLOAT) {
        ((float *)out)[i] = (float)v;
    } else if (t == ACL_FLOAT16) {
        ((uint16_t *)out)[i] = aclFloatToFloat16((float)v);
    } else {
        ((uint16_t *)out)[i] = f32_to_bf16((float)v);
    }
}

static oa_status random_uniform(const aclrtRandomNumTaskInfo *ti, rng *g, uint64_t n)
{
    const aclDataType t = ti->dataType;
    typed_val lo, hi;
    oa_status st = para_typed(&ti->randomNumFuncParaInfo.paramInfo.uniformDisInfo.min, t, "min", &lo);
    if (st == OA_OK) {
        st = para_typed(&ti->randomNumFuncParaInfo.paramInfo.uniformDisInfo.max, t, "max", &hi);
    }
    if (st != OA_OK) {
        return st;
    }
    void *out = ti->randomResultAddr;
    if (is_float_type(t)) {
        if (!(lo.f <= hi.f) || !isfinite(lo.f) || !isfinite(hi.f)) {
            return OA_FAIL(OA_E_PARAM, "uniform range [%g, %g) is invalid", lo.f, hi.f);
        }
        for (uint64_t i = 0; i < n; ++i) {
            double v = lo.f + rng_unit(g) * (hi.f - lo.f);
            store_float(out, i, t, v);
        }
        return OA_OK;
    }
    const bool is_signed = t == ACL_INT32 || t == ACL_INT64;
    if (is_signed ? lo.i >= hi.i : lo.u >= hi.u) {
        return is_signed ? OA_FAIL(OA_E_PARAM, "uniform range [%lld, %lld) is empty", (long long)lo.i,
                                   (long long)hi.i)
                         : OA_FAIL(OA_E_PARAM, "uniform range [%llu, %llu) is empty", (unsigned long long)lo.u,
                                   (unsigned long long)hi.u);
    }
    /* width of [min, max) as an unsigned 64-bit number; rejection sampling keeps it unbiased */
    const uint64_t width = is_signed ? (uint64_t)hi.i - (uint64_t)lo.i : hi.u - lo.u;
    const uint64_t limit = UINT64_MAX - (UINT64_MAX % width + 1) % width;
    for (uint64_t i = 0; i < n; ++i) {
        uint64_t r;
        do {
            r = rng_u64(g);
        } while (r > limit);
        const uint64_t v = (is_signed ? (uint64_t)lo.i : lo.u) + r % width;
        switch (t) {
        case ACL_INT32:
            ((int32_t *)out)[i] = (int32_t)(int64_t)v;
            break;
        case ACL_UINT32:
            ((uint32_t *)out)[i] = (uint32_t)v;
            break;
        case ACL_INT64:
            ((int64_t *)out)[i] = (int64_t)v;
            break;
        default:
            ((uint64_t *)out)[i] = v;
            break;
        }
    }
    return OA_OK;
}

static oa_status random_normal(const aclrtRandomNumTaskInfo *ti, rng *g, uint64_t n, bool truncated)
{
    const aclDataType t = ti->dataType;
    if (!is_float_type(t)) {
        return OA_FAIL(OA_E_PARAM, "normal distributions need a floating data type (float, float16, bf16), got [%d]",
                       (int)t);
    }
    typed_val mean, sd;
    oa_status st = para_typed(&ti->randomNumFuncParaInfo.paramInfo.normalDisInfo.mean, t, "mean", &mean);
    if (st == OA_OK) {
        st = para_typed(&ti->randomNumFuncParaInfo.paramInfo.normalDisInfo.stddev, t, "stddev", &sd);
    }
    if (st != OA_OK) {
        return st;
    }
    if (!isfinite(mean.f) || !isfinite(sd.f) || sd.f < 0) {
        return OA_FAIL(OA_E_PARAM, "normal distribution mean [%g] / stddev [%g] is invalid", mean.f, sd.f);
    }
    for (uint64_t i = 0; i < n; ++i) {
        double z = rng_normal(g);
        while (truncated && fabs(z) > 2.0) { /* truncated at two standard deviations: draw again */
            z = rng_normal(g);
        }
        store_float(ti->randomResultAddr, i, t, mean.f + sd.f * z);
    }
    return OA_OK;
}

static oa_status random_dropout(const aclrtRandomNumTaskInfo *ti, rng *g, uint64_t n)
{
    const aclDataType t = ti->dataType;
    if (!is_float_type(t)) {
        return OA_FAIL(OA_E_PARAM, "the dropout ratio type must be float, float16 or bf16, got [%d]", (int)t);
    }
    typed_val ratio;
    oa_status st = para_typed(&ti->randomNumFuncParaInfo.paramInfo.dropoutBitmaskInfo.dropoutRation, t,
                              "dropoutRation", &ratio);
    if (st != OA_OK) {
        return st;
    }
    if (!(ratio.f >= 0.0 && ratio.f <= 1.0)) {
        return OA_FAIL(OA_E_PARAM, "dropout ratio [%g] must be in [0, 1]", ratio.f);
    }
    uint8_t *out = ti->randomResultAddr;
    memset(out, 0, (size_t)((n + 7) / 8));
    for (uint64_t i = 0; i < n; ++i) {
        if (rng_unit(g) >= ratio.f) { /* kept with probability 1 - ratio */
            out[i / 8] |= (uint8_t)(1u << (i % 8));
        }
    }
    return OA_OK;
}

/* Output bytes for n values of the task. */
static bool random_out_bytes(const aclrtRandomNumTaskInfo *ti, uint64_t n, size_t *bytes)
{
    if (ti->randomNumFuncParaInfo.funcType == ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK) {
        *bytes = (size_t)(n / 8 + (n % 8 != 0));
        return n / 8 < SIZE_MAX;
    }
    return n <= SIZE_MAX && oa_mul_size((size_t)n, random_elem_size(ti->dataType), bytes);
}

/*
 * The function's parameters (min/max, mean/stddev, or the dropout ratio), the two 8-byte slots of CANN's
 * parameter block: the value bytes (or the address) of each, zero-padded. NULL second for the dropout bitmask.
 */
static void random_params(aclrtRandomNumFuncParaInfo *f, aclrtRandomParaInfo **first, aclrtRandomParaInfo **second)
{
    switch (f->funcType) {
    case ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK:
        *first = &f->paramInfo.dropoutBitmaskInfo.dropoutRation;
        *second = NULL;
        break;
    case ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS:
        *first = &f->paramInfo.uniformDisInfo.min;
        *second = &f->paramInfo.uniformDisInfo.max;
        break;
    default:
        *first = &f->paramInfo.normalDisInfo.mean;
        *second = &f->paramInfo.normalDisInfo.stddev;
        break;
    }
}

#define OA_RANDOM_PARA_BYTES 16u

static oa_status random_run(void *args, const oa_task_exec *exec)
{
    (void)exec;
    aclrtRandomNumTaskInfo *ti = &((random_args *)args)->info;
    if (ti->randomParaAddr != NULL) {
        /* CANN's generator reads its parameters from the parameter block when it runs (docs/runtime.md) */
        aclrtRandomParaInfo *first = NULL, *second = NULL;
        random_params(&ti->randomNumFuncParaInfo, &first, &second);
        memcpy(first->valueOrAddr, ti->randomParaAddr, 8);
        if (second != NULL) {
            memcpy(second->valueOrAddr, (const uint8_t *)ti->randomParaAddr + 8, 8);
        }
    }
    uint64_t seed = 0, n = 0;
    oa_status st = para_u64(&ti->randomSeed, "randomSeed", &seed);
    if (st == OA_OK) {
        st = para_u64(&ti->randomNum, "randomNum", &n);
    }
    size_t bytes = 0;
    if (st == OA_OK && !random_out_bytes(ti, n, &bytes)) {
        st = OA_FAIL(OA_E_PARAM, "randomNum [%llu] is too large", (unsigned long long)n);
    }
    if (st == OA_OK && bytes > 0) {
        st = check_device_range(ti->randomResultAddr, bytes, "randomResultAddr");
    }
    if (st != OA_OK) {
        return st;
    }
    rng g = {.key = {(uint32_t)seed, (uint32_t)(seed >> 32)}, .used = 4};
    memcpy(g.ctr, ti->randomCounterAddr, sizeof(g.ctr));
    switch (ti->randomNumFuncParaInfo.funcType) {
    case ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS:
        st = random_uniform(ti, &g, n);
        break;
    case ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS:
        st = random_normal(ti, &g, n, false);
        break;
    case ACL_RT_RANDOM_NUM_FUNC_TYPE_TRUNCATED_NORMAL_DIS:
        st = random_normal(ti, &g, n, true);
        break;
    default:
        st = random_dropout(ti, &g, n);
        break;
    }
    if (st == OA_OK) {
        /* the counter moves past the blocks used, so the next task continues the stream of numbers */
        memcpy(ti->randomCounterAddr, g.ctr, sizeof(g.ctr));
    }
    return st;
}

#define OA_RANDOM_COUNTER_BYTES 16u

ACL_FUNC_VISIBILITY aclError aclrtRandomNumAsync(const aclrtRandomNumTaskInfo *taskInfo, const aclrtStream stream,
                                                 void *reserve)
{
    ACL_REQUIRE_NOT_NULL(taskInfo);
    ACL_REQUIRE(reserve == NULL, OA_E_PARAM, "parameter [reserve] must be NULL");
    const aclrtRandomNumFuncType ft = taskInfo->randomNumFuncParaInfo.funcType;
    ACL_REQUIRE((unsigned)ft <= ACL_RT_RANDOM_NUM_FUNC_TYPE_TRUNCATED_NORMAL_DIS, OA_E_PARAM,
                "random function type [%d] is invalid", (int)ft);
    ACL_REQUIRE(random_elem_size(taskInfo->dataType) != 0, OA_E_PARAM,
                "data type [%d] is not supported by random tasks (int32, int64, uint32, uint64, bf16, float16, float)",
                (int)taskInfo->dataType);
    ACL_REQUIRE_NOT_NULL(taskInfo->randomResultAddr);
    ACL_REQUIRE_NOT_NULL(taskInfo->randomCounterAddr);
    oa_status st = check_device_range(taskInfo->randomCounterAddr, OA_RANDOM_COUNTER_BYTES, "randomCounterAddr");
    if (st != OA_OK) {
        ACL_RETURN_STATUS(st);
    }
    /* immediate parameters are checked now, so a bad call fails here rather than at synchronisation */
    uint64_t n = 0;
    if (taskInfo->randomNum.isAddr == 0) {
        st = para_u64(&taskInfo->randomNum, "randomNum", &n);
        size_t bytes = 0;
        if (st == OA_OK && !random_out_bytes(taskInfo, n, &bytes)) {
            st = OA_FAIL(OA_E_PARAM, "randomNum [%llu] is too large", (unsigned long long)n);
        }
        if (st == OA_OK && bytes > 0) {
            st = check_device_range(taskInfo->randomResultAddr, bytes, "randomResultAddr");
        }
    }
    if (st == OA_OK && taskInfo->randomSeed.isAddr == 0) {
        uint64_t seed;
        st = para_u64(&taskInfo->randomSeed, "randomSeed", &seed);
    }
    if (st != OA_OK) {
        ACL_RETURN_STATUS(st);
    }
    random_args a;
    memcpy(&a.info, taskInfo, sizeof(a.info));
    if (taskInfo->randomParaAddr != NULL) {
        /* as CANN: the parameters are written into the caller's parameter block now, read from it at run time */
        st = check_device_range(taskInfo->randomParaAddr, OA_RANDOM_PARA_BYTES, "randomParaAddr");
        if (st != OA_OK) {
            ACL_RETURN_STATUS(st);
        }
        aclrtRandomParaInfo *first = NULL, *second = NULL;
        random_params(&a.info.randomNumFuncParaInfo, &first, &second);
        uint8_t block[OA_RANDOM_PARA_BYTES] = {0};
        memcpy(block, first->valueOrAddr, first->size < 8 ? first->size : 8);
        if (second != NULL) {
            memcpy(block + 8, second->valueOrAddr, second->size < 8 ? second->size : 8);
        }
        memcpy(taskInfo->randomParaAddr, block, sizeof(block));
    }
    oa_task_desc d = {.kind = OA_TASK_KIND_GENERIC, .run = random_run, .args = &a, .args_size = sizeof(a)};
    ACL_RETURN_STATUS(submit_on(stream, &d));
}
