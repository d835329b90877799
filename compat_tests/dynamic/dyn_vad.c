/*
 * silero VAD v5 as a streaming application runs it: consecutive 512-sample
 * chunks, the model's state output fed back as the next call's state input,
 * sr = 16000 (an int64 scalar). Every chunk's probability and state are
 * checked against ONNX Runtime's (bench/dynamic/vad_ref): relative L2 <= 1e-4.
 *
 *   dyn_vad VAD.om PCM.bin REF_DIR [CHUNK]
 */
#include "dyn_util.h"

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: %s VAD.om PCM.bin REF_DIR [CHUNK]\n", argv[0]);
        return 2;
    }
    const size_t chunk = argc > 4 ? (size_t)atol(argv[4]) : 512;
    size_t pcm_bytes = 0, ref_bytes = 0, st_bytes = 0;
    float *pcm = dyn_read_file(argv[2], &pcm_bytes);
    char path[4096];
    snprintf(path, sizeof path, "%s/vad_out.bin", argv[3]);
    float *ref = dyn_read_file(path, &ref_bytes);
    snprintf(path, sizeof path, "%s/vad_state.bin", argv[3]);
    float *ref_state = dyn_read_file(path, &st_bytes);
    const size_t n = pcm_bytes / (chunk * sizeof(float));
    if (n == 0 || ref_bytes != n * sizeof(float) || st_bytes != n * 256 * sizeof(float)) {
        DYN_FAIL("%zu chunks, but the references hold %zu probabilities and %zu states", n, ref_bytes / 4,
                 st_bytes / 1024);
    }
    DYN_CHECK(aclInit(NULL));
    DYN_CHECK(aclrtSetDevice(0));
    uint32_t id = 0;
    DYN_CHECK(aclmdlLoadFromFile(argv[1], &id));
    void *d_in = NULL, *d_sr = NULL, *d_out = NULL, *d_state[2] = {NULL, NULL};
    DYN_CHECK(aclrtMalloc(&d_in, chunk * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
    DYN_CHECK(aclrtMalloc(&d_sr, sizeof(int64_t), ACL_MEM_MALLOC_HUGE_FIRST));
    DYN_CHECK(aclrtMalloc(&d_out, sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
    for (int i = 0; i < 2; ++i) {
        DYN_CHECK(aclrtMalloc(&d_state[i], 256 * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
        DYN_CHECK(aclrtMemset(d_state[i], 256 * sizeof(float), 0, 256 * sizeof(float)));
    }
    const int64_t sr = 16000;
    DYN_CHECK(aclrtMemcpy(d_sr, sizeof sr, &sr, sizeof sr, ACL_MEMCPY_HOST_TO_DEVICE));
    const int64_t in_dims[2] = {1, (int64_t)chunk}, st_dims[3] = {2, 1, 128};
    float *probs = calloc(n, sizeof(float));
    float *states = calloc(n * 256, sizeof(float));
    /* the two state buffers swap roles every call: state in <- the previous stateN */
    for (size_t c = 0; c < n; ++c) {
        aclmdlDataset *in = aclmdlCreateDataset(), *out = aclmdlCreateDataset();
        DYN_CHECK(aclrtMemcpy(d_in, chunk * sizeof(float), pcm + c * chunk, chunk * sizeof(float),
                              ACL_MEMCPY_HOST_TO_DEVICE));
        DYN_CHECK(aclmdlAddDatasetBuffer(in, aclCreateDataBuffer(d_in, chunk * sizeof(float))));
        DYN_CHECK(aclmdlAddDatasetBuffer(in, aclCreateDataBuffer(d_state[c % 2], 256 * sizeof(float))));
        DYN_CHECK(aclmdlAddDatasetBuffer(in, aclCreateDataBuffer(d_sr, sizeof(int64_t))));
        aclTensorDesc *t0 = aclCreateTensorDesc(ACL_FLOAT, 2, in_dims, ACL_FORMAT_ND);
        aclTensorDesc *t1 = aclCreateTensorDesc(ACL_FLOAT, 3, st_dims, ACL_FORMAT_ND);
        aclTensorDesc *t2 = aclCreateTensorDesc(ACL_INT64, 0, NULL, ACL_FORMAT_ND);
        DYN_CHECK(aclmdlSetDatasetTensorDesc(in, t0, 0));
        DYN_CHECK(aclmdlSetDatasetTensorDesc(in, t1, 1));
        DYN_CHECK(aclmdlSetDatasetTensorDesc(in, t2, 2));
        aclDestroyTensorDesc(t0);
        aclDestroyTensorDesc(t1);
        aclDestroyTensorDesc(t2);
        DYN_CHECK(aclmdlAddDatasetBuffer(out, aclCreateDataBuffer(d_out, sizeof(float))));
        DYN_CHECK(aclmdlAddDatasetBuffer(out, aclCreateDataBuffer(d_state[(c + 1) % 2], 256 * sizeof(float))));
        DYN_CHECK(aclmdlExecute(id, in, out));
        aclTensorDesc *od = aclmdlGetDatasetTensorDesc(out, 1);
        if (od == NULL || aclGetTensorDescElementCount(od) != 256) {
            DYN_FAIL("chunk %zu: stateN has no [2,1,128] description", c);
        }
        DYN_CHECK(aclrtMemcpy(&probs[c], sizeof(float), d_out, sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST));
        DYN_CHECK(aclrtMemcpy(&states[c * 256], 256 * sizeof(float), d_state[(c + 1) % 2], 256 * sizeof(float),
                              ACL_MEMCPY_DEVICE_TO_HOST));
        for (size_t i = 0; i < 3; ++i) {
            aclDestroyDataBuffer(aclmdlGetDatasetBuffer(in, i));
        }
        for (size_t i = 0; i < 2; ++i) {
            aclDestroyDataBuffer(aclmdlGetDatasetBuffer(out, i));
        }
        aclmdlDestroyDataset(in);
        aclmdlDestroyDataset(out);
    }
    const double e_out = dyn_rel_l2(probs, ref, n);
    const double e_state = dyn_rel_l2(states, ref_state, n * 256);
    double worst = 0.0;
    size_t worst_at = 0;
    for (size_t c = 0; c < n; ++c) {
        const double e = dyn_rel_l2(&states[c * 256], &ref_state[c * 256], 256);
        if (e > worst) {
            worst = e;
            worst_at = c;
        }
    }
    printf("vad: %zu chunks, probabilities rel L2 %.3g, states rel L2 %.3g (worst chunk %zu: %.3g)\n", n, e_out,
           e_state, worst_at, worst);
    printf("vad: first/last probability %.6f / %.6f (reference %.6f / %.6f)\n", probs[0], probs[n - 1], ref[0],
           ref[n - 1]);
    for (int i = 0; i < 2; ++i) {
        aclrtFree(d_state[i]);
    }
    aclrtFree(d_in);
    aclrtFree(d_sr);
    aclrtFree(d_out);
    DYN_CHECK(aclmdlUnload(id));
    DYN_CHECK(aclrtResetDevice(0));
    DYN_CHECK(aclFinalize());
    free(probs);
    free(states);
    free(pcm);
    free(ref);
    free(ref_state);
    const int bad = !(e_out <= 1e-4) || !(worst <= 1e-4);
    printf("%s\n", bad ? "FAILED" : "OK");
    return bad;
}
