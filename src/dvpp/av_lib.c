/* FFmpeg's codec libraries loaded on first use (av_lib.h). */
#define OA_LOG_MODULE "ASCENDCL"
#include "dvpp/av_lib.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"

static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static oa_av_lib g_lib;
static const oa_av_lib *g_loaded; /* &g_lib once every function resolved and the versions matched */
static char g_why[512];           /* otherwise: why not, for every later attempt */

static void load_once(void)
{
    const char *env = getenv("OPENACL_AVCODEC_LIB");
    const char *name = env != NULL && env[0] != '\0' ? env : "libavcodec.so." AV_STRINGIFY(LIBAVCODEC_VERSION_MAJOR);
    /* never closed: decoders and the log callback stay valid for the life of the process */
    void *h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (h == NULL) {
        const char *e = dlerror();
        (void)snprintf(g_why, sizeof g_why, "FFmpeg's codec library %s could not be loaded (%s)", name,
                       e != NULL ? e : "no reason given");
        return;
    }
    /* a handle's symbols include those of the libraries it depends on: libavutil's come through libavcodec */
#define OA_AV_RESOLVE(fn)                                                                                            \
    *(void **)&g_lib.fn = dlsym(h, #fn);                                                                             \
    if (g_lib.fn == NULL) {                                                                                          \
        (void)snprintf(g_why, sizeof g_why, "%s has no %s", name, #fn);                                              \
        return;                                                                                                      \
    }
    OA_AV_FUNCTIONS(OA_AV_RESOLVE)
#undef OA_AV_RESOLVE
    /* the structures vdec.c and venc.c read are those of the build's headers: the same major versions only */
    const unsigned codec = g_lib.avcodec_version() >> 16, util = g_lib.avutil_version() >> 16;
    if (codec != LIBAVCODEC_VERSION_MAJOR || util != LIBAVUTIL_VERSION_MAJOR) {
        (void)snprintf(g_why, sizeof g_why,
                       "%s is libavcodec %u with libavutil %u; this build needs libavcodec %d with libavutil %d", name,
                       codec, util, LIBAVCODEC_VERSION_MAJOR, LIBAVUTIL_VERSION_MAJOR);
        return;
    }
    OA_LOGI("video codecs: %s loaded (libavcodec %u, libavutil %u)", name, codec, util);
    g_loaded = &g_lib;
}

oa_status oa_av_lib_load(void)
{
    (void)pthread_once(&g_once, load_once);
    if (g_loaded == NULL) {
        return OA_FAIL(OA_E_NOT_SUPPORTED, "VDEC/VENC: %s; video channels are unavailable", g_why);
    }
    return OA_OK;
}

const oa_av_lib *oa_av(void)
{
    return g_loaded;
}
