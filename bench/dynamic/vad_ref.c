/*
 * vad_ref: ONNX Runtime reference of silero VAD v5 over consecutive chunks
 * with the state carried from call to call (what a streaming application
 * does), for compat_tests/dynamic/dyn_vad.
 *
 *   vad_ref MODEL.onnx PCM.bin CHUNK OUT_DIR
 *     PCM.bin   float32 samples (a multiple of CHUNK)
 *   writes OUT_DIR/vad_out.bin   one float per chunk (the speech probability)
 *          OUT_DIR/vad_state.bin the state after each chunk (2 x 1 x 128 floats each)
 * The first state is zeros; sr is 16000 (int64 scalar).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ort_runner.h"

static void *read_all(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    long sz = ftell(f);
    fseek(f, 0, SEEK_SET);
    void *p = malloc(sz > 0 ? (size_t)sz : 1);
    if (p != NULL && sz > 0 && fread(p, 1, (size_t)sz, f) != (size_t)sz) {
        free(p);
        p = NULL;
    }
    fclose(f);
    *n = (size_t)sz;
    return p;
}

static int write_all(const char *dir, const char *name, const void *p, size_t n)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (f == NULL || fwrite(p, 1, n, f) != n) {
        fprintf(stderr, "vad_ref: cannot write %s\n", path);
        if (f) {
            fclose(f);
        }
        return -1;
    }
    fclose(f);
    return 0;
}

/* mkdir -p */
static void make_dirs(const char *path)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; ++p) {
        if (*p == '/') {
            *p = '\0';
            (void)mkdir(buf, 0755);
            *p = '/';
        }
    }
    (void)mkdir(buf, 0755);
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: %s MODEL.onnx PCM.bin CHUNK OUT_DIR\n", argv[0]);
        return 2;
    }
    const size_t chunk = (size_t)atol(argv[3]);
    size_t bytes = 0;
    float *pcm = read_all(argv[2], &bytes);
    if (pcm == NULL || chunk == 0 || bytes % (chunk * sizeof(float)) != 0) {
        fprintf(stderr, "vad_ref: %s is not a whole number of %zu-sample chunks\n", argv[2], chunk);
        return 1;
    }
    const size_t n_chunks = bytes / (chunk * sizeof(float));
    oa_ort *ort = oa_ort_open(NULL);
    oa_ort_options o;
    oa_ort_options_init(&o);
    o.intra_threads = 1;
    o.inter_threads = 1;
    oa_ort_session *s = ort ? oa_ort_session_create(ort, argv[1], &o) : NULL;
    if (s == NULL) {
        fprintf(stderr, "vad_ref: %s\n", oa_ort_last_error());
        return 1;
    }
    float state[256] = {0};
    int64_t sr = 16000;
    float *probs = calloc(n_chunks, sizeof(float));
    float *states = calloc(n_chunks * 256, sizeof(float));
    int rc = 0;
    for (size_t c = 0; c < n_chunks && rc == 0; ++c) {
        oa_ort_tensor in[3] = {
            {.name = "input", .dtype = OA_ORT_FLOAT, .rank = 2, .dims = {1, (int64_t)chunk},
             .data = pcm + c * chunk, .bytes = chunk * sizeof(float)},
            {.name = "state", .dtype = OA_ORT_FLOAT, .rank = 3, .dims = {2, 1, 128}, .data = state,
             .bytes = sizeof state},
            {.name = "sr", .dtype = OA_ORT_INT64, .rank = 0, .data = &sr, .bytes = sizeof sr},
        };
        oa_ort_tensor out[2] = {{.name = "output", .data = &probs[c], .bytes = sizeof(float)},
                                {.name = "stateN", .data = &states[c * 256], .bytes = 256 * sizeof(float)}};
        if (oa_ort_run(s, in, 3, out, 2) != 0) {
            fprintf(stderr, "vad_ref: chunk %zu: %s\n", c, oa_ort_last_error());
            rc = 1;
        }
        memcpy(state, &states[c * 256], sizeof state);
    }
    if (rc == 0) {
        make_dirs(argv[4]);
        rc = write_all(argv[4], "vad_out.bin", probs, n_chunks * sizeof(float)) ||
             write_all(argv[4], "vad_state.bin", states, n_chunks * 256 * sizeof(float));
    }
    printf("vad_ref: %zu chunks, last probability %.6f\n", n_chunks, n_chunks ? probs[n_chunks - 1] : 0.0f);
    free(probs);
    free(states);
    free(pcm);
    oa_ort_session_destroy(s);
    oa_ort_close(ort);
    return rc;
}
