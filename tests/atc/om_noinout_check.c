/*
 * A model without MODEL_INOUT_INFO (strip_inout.py removed it, as in older
 * CANN builds and GE's test fixtures) is described from its Data and
 * NetOutput ops: every descriptor getter agrees with the original file, and
 * both run to the same bytes on the same inputs. Also: model ids are 1, 2,
 * ... in load order.
 *
 *   om_noinout_check <original.om> <stripped.om>
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "check_count.h"

static void same_tensor(aclmdlDesc *a, aclmdlDesc *b, int out, size_t i)
{
    const char *na = out ? aclmdlGetOutputNameByIndex(a, i) : aclmdlGetInputNameByIndex(a, i);
    const char *nb = out ? aclmdlGetOutputNameByIndex(b, i) : aclmdlGetInputNameByIndex(b, i);
    const char *what = out ? "output" : "input";
    CHECK(na != NULL && nb != NULL && strcmp(na, nb) == 0, "%s %zu: name [%s] vs [%s]", what, i, na ? na : "",
          nb ? nb : "");
    aclmdlIODims da, db;
    memset(&da, 0, sizeof da);
    memset(&db, 0, sizeof db);
    CHECK((out ? aclmdlGetOutputDims(a, i, &da) : aclmdlGetInputDims(a, i, &da)) == ACL_SUCCESS, "dims a");
    CHECK((out ? aclmdlGetOutputDims(b, i, &db) : aclmdlGetInputDims(b, i, &db)) == ACL_SUCCESS, "dims b");
    CHECK(da.dimCount == db.dimCount && memcmp(da.dims, db.dims, da.dimCount * sizeof(int64_t)) == 0,
          "%s %zu: dims differ (%zu vs %zu dims)", what, i, da.dimCount, db.dimCount);
    CHECK((out ? aclmdlGetOutputSizeByIndex(a, i) : aclmdlGetInputSizeByIndex(a, i)) ==
              (out ? aclmdlGetOutputSizeByIndex(b, i) : aclmdlGetInputSizeByIndex(b, i)),
          "%s %zu: sizes differ", what, i);
    CHECK((out ? aclmdlGetOutputDataType(a, i) : aclmdlGetInputDataType(a, i)) ==
              (out ? aclmdlGetOutputDataType(b, i) : aclmdlGetInputDataType(b, i)),
          "%s %zu: dtypes differ", what, i);
    CHECK((out ? aclmdlGetOutputFormat(a, i) : aclmdlGetInputFormat(a, i)) ==
              (out ? aclmdlGetOutputFormat(b, i) : aclmdlGetInputFormat(b, i)),
          "%s %zu: formats differ (%d vs %d)", what, i,
          (int)(out ? aclmdlGetOutputFormat(a, i) : aclmdlGetInputFormat(a, i)),
          (int)(out ? aclmdlGetOutputFormat(b, i) : aclmdlGetInputFormat(b, i)));
}

/* Runs the model on inputs filled with a fixed pattern (small integers for integer inputs); returns output bytes. */
static unsigned char **run(uint32_t id, aclmdlDesc *d, size_t *n_out)
{
    const size_t ni = aclmdlGetNumInputs(d), no = aclmdlGetNumOutputs(d);
    aclmdlDataset *in = aclmdlCreateDataset(), *out = aclmdlCreateDataset();
    void **bufs = calloc(ni + no, sizeof(void *));
    for (size_t i = 0; i < ni; i++) {
        const size_t size = aclmdlGetInputSizeByIndex(d, i);
        aclrtMalloc(&bufs[i], size, ACL_MEM_MALLOC_HUGE_FIRST);
        unsigned char *h = malloc(size);
        const aclDataType dt = aclmdlGetInputDataType(d, i);
        for (size_t k = 0; k < size; k++) {
            h[k] = 0;
        }
        if (dt == ACL_FLOAT) {
            for (size_t k = 0; k < size / 4; k++) {
                const float v = (float)((k * 7919u) % 255u) / 255.0f;
                memcpy(h + 4 * k, &v, 4);
            }
        } else if (dt == ACL_INT64) {
            for (size_t k = 0; k < size / 8; k++) {
                const int64_t v = (int64_t)(k % 2u); /* valid ids, masks and token types */
                memcpy(h + 8 * k, &v, 8);
            }
        }
        aclrtMemcpy(bufs[i], size, h, size, ACL_MEMCPY_HOST_TO_DEVICE);
        free(h);
        aclmdlAddDatasetBuffer(in, aclCreateDataBuffer(bufs[i], size));
    }
    for (size_t j = 0; j < no; j++) {
        const size_t size = aclmdlGetOutputSizeByIndex(d, j);
        aclrtMalloc(&bufs[ni + j], size, ACL_MEM_MALLOC_HUGE_FIRST);
        aclmdlAddDatasetBuffer(out, aclCreateDataBuffer(bufs[ni + j], size));
    }
    const aclError e = aclmdlExecute(id, in, out);
    CHECK(e == ACL_SUCCESS, "aclmdlExecute(%u): %d %s", id, (int)e, e ? aclGetRecentErrMsg() : "");
    unsigned char **res = calloc(no, sizeof(*res));
    for (size_t j = 0; j < no; j++) {
        const size_t size = aclmdlGetOutputSizeByIndex(d, j);
        res[j] = malloc(size);
        aclrtMemcpy(res[j], size, bufs[ni + j], size, ACL_MEMCPY_DEVICE_TO_HOST);
    }
    for (size_t i = 0; i < ni + no; i++) {
        aclDestroyDataBuffer(aclmdlGetDatasetBuffer(i < ni ? in : out, i < ni ? i : i - ni));
        aclrtFree(bufs[i]);
    }
    free(bufs);
    aclmdlDestroyDataset(in);
    aclmdlDestroyDataset(out);
    *n_out = no;
    return res;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s <original.om> <stripped.om>\n", argv[0]);
        return 2;
    }
    if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) {
        return 1;
    }
    aclmdlDesc *a = aclmdlCreateDesc(), *b = aclmdlCreateDesc();
    aclError e = aclmdlGetDescFromFile(b, argv[2]);
    CHECK(e == ACL_SUCCESS, "aclmdlGetDescFromFile(%s): %d %s", argv[2], (int)e, e ? aclGetRecentErrMsg() : "");
    CHECK(aclmdlGetDescFromFile(a, argv[1]) == ACL_SUCCESS, "aclmdlGetDescFromFile(%s)", argv[1]);
    CHECK(aclmdlGetNumInputs(a) == aclmdlGetNumInputs(b) && aclmdlGetNumInputs(a) > 0, "input counts %zu vs %zu",
          aclmdlGetNumInputs(a), aclmdlGetNumInputs(b));
    CHECK(aclmdlGetNumOutputs(a) == aclmdlGetNumOutputs(b) && aclmdlGetNumOutputs(a) > 0,
          "output counts %zu vs %zu", aclmdlGetNumOutputs(a), aclmdlGetNumOutputs(b));
    for (size_t i = 0; i < aclmdlGetNumInputs(a) && i < aclmdlGetNumInputs(b); i++) {
        same_tensor(a, b, 0, i);
    }
    for (size_t j = 0; j < aclmdlGetNumOutputs(a) && j < aclmdlGetNumOutputs(b); j++) {
        same_tensor(a, b, 1, j);
    }
    /* ids in load order, the first model of the process is 1 */
    uint32_t ia = 0, ib = 0;
    CHECK(aclmdlLoadFromFile(argv[1], &ia) == ACL_SUCCESS && ia == 1, "first model id %u, want 1", ia);
    e = aclmdlLoadFromFile(argv[2], &ib);
    CHECK(e == ACL_SUCCESS && ib == 2, "second model id %u, want 2 (%d %s)", ib, (int)e,
          e ? aclGetRecentErrMsg() : "");
    if (g_failures == 0) {
        size_t na = 0, nb = 0;
        unsigned char **ra = run(ia, a, &na), **rb = run(ib, b, &nb);
        for (size_t j = 0; j < na && j < nb; j++) {
            CHECK(memcmp(ra[j], rb[j], aclmdlGetOutputSizeByIndex(a, j)) == 0, "output %zu differs", j);
            free(ra[j]);
            free(rb[j]);
        }
        free(ra);
        free(rb);
    }
    aclmdlUnload(ia);
    aclmdlUnload(ib);
    aclmdlDestroyDesc(a);
    aclmdlDestroyDesc(b);
    aclrtResetDevice(0);
    aclFinalize();
    printf("%s: %s\n", argv[2], g_failures ? "FAILED" : "described from its graph as the original, same outputs");
    return g_failures ? 1 : 0;
}
