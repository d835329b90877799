/*
 * acl.util: helpers with no C counterpart (pyACL's conventions).
 *   ptr_to_numpy(ptr, shape, npy_type)  ndarray viewing the memory (no copy)
 *   numpy_to_ptr(arr)                   the array's data address (no copy)
 *   numpy_contiguous_to_ptr(arr)        (address, C-contiguous array to keep alive)
 *   bytes_to_ptr(b)                     the bytes object's buffer address (no copy)
 *   ptr_to_bytes(ptr, size)             a new bytes object (a copy)
 *   start_thread(fn, arg)               (thread id, ret): a native thread running fn(arg)
 *   stop_thread(thread_id)              ret: joins it (RuntimeError if fn raised)
 * numpy is imported on first use (importing acl does not need it).
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include "acl/ops/acl_dvpp.h"
#include "pyacl.h"

static PyObject *g_numpy; /* the numpy module, once imported */

static PyObject *numpy_module(void)
{
    if (g_numpy == NULL) {
        g_numpy = PyImport_ImportModule("numpy");
    }
    return g_numpy;
}

/* NumPy type numbers (the stable NPY_TYPES values) as array-interface type strings. */
static const char *npy_typestr(long t)
{
    switch (t) {
    case 0: return "|b1";  /* bool */
    case 1: return "|i1";  /* int8 */
    case 2: return "|u1";  /* uint8 */
    case 3: return "<i2";  /* int16 */
    case 4: return "<u2";  /* uint16 */
    case 5: return "<i4";  /* int32 */
    case 6: return "<u4";  /* uint32 */
    case 7: return "<i8";  /* long (LP64) */
    case 8: return "<u8";  /* unsigned long */
    case 9: return "<i8";  /* long long */
    case 10: return "<u8"; /* unsigned long long */
    case 11: return "<f4"; /* float32 */
    case 12: return "<f8"; /* float64 */
    case 14: return "<c8"; /* complex64 */
    case 15: return "<c16";
    case 23: return "<f2"; /* float16 */
    default: return NULL;
    }
}

static int warn_deprecated(const char *fn)
{
    return PyErr_WarnFormat(PyExc_Warning, 1,
                            "acl.util.%s will be deprecated: use acl.util.bytes_to_ptr / acl.util.ptr_to_bytes", fn);
}

/* ptr_to_numpy(ptr, shape: tuple, npy_type) -> ndarray on that memory */
static PyObject *w_ptr_to_numpy(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    void *ptr = NULL;
    int32_t type = 0;
    if (nargs != 3 || oa_in_PTR(args[0], &ptr) != 0 || oa_in_I32(args[2], &type) != 0) {
        return oa_py_parse_failed("acl.util.ptr_to_numpy");
    }
    if (!PyTuple_Check(args[1]) || PyTuple_GET_SIZE(args[1]) == 0) {
        PyErr_SetString(PyExc_ValueError, "acl.util.ptr_to_numpy: shape is empty (a tuple of ints is expected)");
        return NULL;
    }
    const char *ts = npy_typestr(type);
    if (ts == NULL) {
        PyErr_Format(PyExc_ValueError, "acl.util.ptr_to_numpy: unsupported numpy type %d", (int)type);
        return NULL;
    }
    if (ptr == NULL) {
        PyErr_SetString(PyExc_ValueError, "acl.util.ptr_to_numpy: ptr is 0");
        return NULL;
    }
    if (warn_deprecated("ptr_to_numpy") != 0) {
        return NULL;
    }
    PyObject *np = numpy_module();
    if (np == NULL) {
        return NULL;
    }
    PyObject *dtype = PyObject_CallMethod(np, "dtype", "s", ts);
    if (dtype == NULL) {
        return NULL;
    }
    PyObject *isz = PyObject_GetAttrString(dtype, "itemsize");
    const Py_ssize_t item = isz != NULL ? PyLong_AsSsize_t(isz) : -1;
    Py_XDECREF(isz);
    PyErr_Clear();
    uint64_t total = item > 0 ? (uint64_t)item : 1;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(args[1]); ++i) {
        int64_t d = 0;
        if (oa_py_i64_range(PyTuple_GET_ITEM(args[1], i), 0, INT32_MAX, &d) != 0) {
            Py_DECREF(dtype);
            PyErr_SetString(PyExc_ValueError, "acl.util.ptr_to_numpy: shape must hold non-negative ints");
            return NULL;
        }
        if (d != 0 && total > (uint64_t)(SIZE_MAX >> 1) / (uint64_t)d) {
            Py_DECREF(dtype);
            PyErr_SetString(PyExc_ValueError, "acl.util.ptr_to_numpy: shape is too large");
            return NULL;
        }
        total *= (uint64_t)d;
    }
    PyObject *mv = PyMemoryView_FromMemory(ptr, (Py_ssize_t)total, PyBUF_WRITE);
    if (mv == NULL) {
        Py_DECREF(dtype);
        return NULL;
    }
    PyObject *flat = PyObject_CallMethod(np, "frombuffer", "OO", mv, dtype);
    Py_DECREF(mv);
    Py_DECREF(dtype);
    if (flat == NULL) {
        return NULL;
    }
    PyObject *arr = PyObject_CallMethod(flat, "reshape", "O", args[1]);
    Py_DECREF(flat);
    return arr;
}

static int is_ndarray(PyObject *o)
{
    PyObject *np = numpy_module();
    if (np == NULL) {
        return -1;
    }
    PyObject *t = PyObject_GetAttrString(np, "ndarray");
    if (t == NULL) {
        return -1;
    }
    const int r = PyObject_IsInstance(o, t);
    Py_DECREF(t);
    return r;
}

/* data address of an ndarray (its buffer, or its __array_interface__) */
static int array_address(PyObject *arr, void **p, int *c_contiguous)
{
    Py_buffer v;
    if (PyObject_GetBuffer(arr, &v, PyBUF_RECORDS_RO) == 0) {
        *p = v.buf;
        *c_contiguous = PyBuffer_IsContiguous(&v, 'C');
        PyBuffer_Release(&v);
        return 0;
    }
    PyErr_Clear();
    PyObject *ai = PyObject_GetAttrString(arr, "__array_interface__");
    PyObject *data = ai != NULL && PyDict_Check(ai) ? PyDict_GetItemString(ai, "data") : NULL;
    uint64_t u = 0;
    const int ok = data != NULL && PyTuple_Check(data) && PyTuple_GET_SIZE(data) >= 1 &&
                   oa_py_u64_mask(PyTuple_GET_ITEM(data, 0), &u) == 0;
    Py_XDECREF(ai);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "the array exposes no data address");
        return -1;
    }
    *p = (void *)(uintptr_t)u;
    *c_contiguous = 0;
    return 0;
}

/* numpy_to_ptr(arr) -> int */
static PyObject *w_numpy_to_ptr(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 1) {
        return oa_py_parse_failed("acl.util.numpy_to_ptr");
    }
    const int is = is_ndarray(args[0]);
    if (is < 0) {
        return NULL;
    }
    if (!is) {
        PyErr_SetString(PyExc_ValueError, "acl.util.numpy_to_ptr: the argument is not a numpy array");
        return NULL;
    }
    if (warn_deprecated("numpy_to_ptr") != 0) {
        return NULL;
    }
    void *p = NULL;
    int contiguous = 0;
    if (array_address(args[0], &p, &contiguous) != 0) {
        return NULL;
    }
    if (!contiguous && PyErr_WarnEx(PyExc_Warning, "acl.util.numpy_to_ptr: the array is not C-contiguous", 1) != 0) {
        return NULL;
    }
    return oa_py_ptr(p);
}

/* numpy_contiguous_to_ptr(arr) -> (ptr, contiguous array) */
static PyObject *w_numpy_contiguous_to_ptr(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 1) {
        return oa_py_parse_failed("acl.util.numpy_contiguous_to_ptr");
    }
    const int is = is_ndarray(args[0]);
    if (is <= 0) {
        if (is == 0) {
            PyErr_SetString(PyExc_ValueError, "acl.util.numpy_contiguous_to_ptr: the argument is not a numpy array");
        }
        return NULL;
    }
    PyObject *c = PyObject_CallMethod(numpy_module(), "ascontiguousarray", "O", args[0]);
    if (c == NULL) {
        return NULL;
    }
    void *p = NULL;
    int contiguous = 0;
    if (array_address(c, &p, &contiguous) != 0) {
        Py_DECREF(c);
        return NULL;
    }
    return Py_BuildValue("NN", oa_py_ptr(p), c);
}

/* bytes_to_ptr(b) -> int: the buffer of a bytes (or bytearray) object */
static PyObject *w_bytes_to_ptr(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 1) {
        return oa_py_parse_failed("acl.util.bytes_to_ptr");
    }
    if (PyBytes_Check(args[0])) {
        return oa_py_ptr(PyBytes_AS_STRING(args[0]));
    }
    if (PyByteArray_Check(args[0])) {
        return oa_py_ptr(PyByteArray_AS_STRING(args[0]));
    }
    PyErr_SetString(PyExc_ValueError, "acl.util.bytes_to_ptr: the argument is not bytes");
    return NULL;
}

/* ptr_to_bytes(ptr, size) -> bytes (a copy) */
static PyObject *w_ptr_to_bytes(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    void *p = NULL;
    int64_t size = 0;
    if (nargs != 2 || oa_in_PTR(args[0], &p) != 0 || oa_py_i64_range(args[1], INT64_MIN, INT64_MAX, &size) != 0) {
        return oa_py_parse_failed("acl.util.ptr_to_bytes");
    }
    if (size < 0 || (uint64_t)size > (uint64_t)(SIZE_MAX >> 1) || (p == NULL && size != 0)) {
        PyErr_SetString(PyExc_ValueError, "acl.util.ptr_to_bytes: invalid pointer or size");
        return NULL;
    }
    return PyBytes_FromStringAndSize(size == 0 ? "" : p, (Py_ssize_t)size);
}

/* ---- threads ---- */

typedef struct py_thread {
    pthread_t tid;
    PyObject *fn;
    PyObject *arg; /* NULL: fn() */
    PyObject *errors; /* list of str: exceptions raised by fn */
    struct py_thread *next;
} py_thread;

static py_thread *g_threads; /* started, not yet stopped (guarded by the GIL) */

static void *thread_main(void *p)
{
    py_thread *t = p;
    PyGILState_STATE g = PyGILState_Ensure();
    PyObject *r = t->arg == NULL ? PyObject_CallNoArgs(t->fn) : PyObject_CallOneArg(t->fn, t->arg);
    if (r == NULL) {
        PyObject *type, *value, *tb;
        PyErr_Fetch(&type, &value, &tb);
        PyErr_NormalizeException(&type, &value, &tb);
        PyObject *s = value != NULL ? PyObject_Repr(value) : NULL;
        if (s != NULL) {
            PyList_Append(t->errors, s);
            Py_DECREF(s);
        }
        PyErr_Restore(type, value, tb);
        PyErr_Print(); /* pyACL prints the exception too */
    }
    Py_XDECREF(r);
    PyGILState_Release(g);
    return NULL;
}

/* start_thread(fn, arg) -> (thread_id, ret) */
static PyObject *w_start_thread(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 2 || !PyCallable_Check(args[0])) {
        return oa_py_parse_failed("acl.util.start_thread");
    }
    py_thread *t = PyMem_RawCalloc(1, sizeof(*t));
    if (t == NULL) {
        return PyErr_NoMemory();
    }
    t->errors = PyList_New(0);
    if (t->errors == NULL) {
        PyMem_RawFree(t);
        return NULL;
    }
    t->fn = args[0];
    t->arg = args[1] == Py_None ? NULL : args[1];
    Py_INCREF(t->fn);
    Py_XINCREF(t->arg);
    PyThreadState *ts = PyEval_SaveThread();
    const int ret = pthread_create(&t->tid, NULL, thread_main, t);
    PyEval_RestoreThread(ts);
    if (ret != 0) {
        Py_DECREF(t->fn);
        Py_XDECREF(t->arg);
        Py_DECREF(t->errors);
        PyMem_RawFree(t);
        return Py_BuildValue("Ki", 0ULL, ret);
    }
    t->next = g_threads;
    g_threads = t;
    return Py_BuildValue("Ki", (unsigned long long)t->tid, 0);
}

/* stop_thread(thread_id) -> ret (joins the thread) */
static PyObject *w_stop_thread(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    uint64_t id = 0;
    if (nargs != 1 || oa_in_U64(args[0], &id) != 0) {
        return oa_py_parse_failed("acl.util.stop_thread");
    }
    py_thread **pp = &g_threads;
    while (*pp != NULL && (uint64_t)(*pp)->tid != id) {
        pp = &(*pp)->next;
    }
    py_thread *t = *pp;
    if (t == NULL) { /* not one of ours: joining it could crash (pthread_join of an unknown id) */
        return PyLong_FromLong(ESRCH);
    }
    *pp = t->next;
    PyThreadState *ts = PyEval_SaveThread();
    const int ret = pthread_join(t->tid, NULL);
    PyEval_RestoreThread(ts);
    PyObject *errors = t->errors;
    Py_DECREF(t->fn);
    Py_XDECREF(t->arg);
    PyMem_RawFree(t);
    if (PyList_GET_SIZE(errors) > 0) {
        PyObject *sep = PyUnicode_FromString("; ");
        PyObject *msg = sep != NULL ? PyUnicode_Join(sep, errors) : NULL;
        Py_XDECREF(sep);
        if (msg != NULL) {
            PyErr_Format(PyExc_RuntimeError, "acl.util.stop_thread: the thread function raised: %U", msg);
            Py_DECREF(msg);
        }
        Py_DECREF(errors);
        return NULL;
    }
    Py_DECREF(errors);
    return PyLong_FromLong(ret);
}

static PyMethodDef g_methods[] = {
    {"ptr_to_numpy", OA_FASTCALL(w_ptr_to_numpy), METH_FASTCALL, NULL},
    {"numpy_to_ptr", OA_FASTCALL(w_numpy_to_ptr), METH_FASTCALL, NULL},
    {"numpy_contiguous_to_ptr", OA_FASTCALL(w_numpy_contiguous_to_ptr), METH_FASTCALL, NULL},
    {"bytes_to_ptr", OA_FASTCALL(w_bytes_to_ptr), METH_FASTCALL, NULL},
    {"ptr_to_bytes", OA_FASTCALL(w_ptr_to_bytes), METH_FASTCALL, NULL},
    {"start_thread", OA_FASTCALL(w_start_thread), METH_FASTCALL, NULL},
    {"stop_thread", OA_FASTCALL(w_stop_thread), METH_FASTCALL, NULL},
    {NULL, NULL, 0, NULL},
};

PyMethodDef *oa_py_util_methods(void)
{
    return g_methods;
}

/* ---- acl.media: DVPP V1 (acl/ops/acl_dvpp.h), pyACL's "dvpp_" names ---- */

#undef OA_MOD
#define OA_MOD "acl.media"

/* DVPP descriptions and configs are plain heap objects in C: tracked like the model handles */
enum { OA_HK_CHDESC = 100, OA_HK_PICDESC, OA_HK_ROI, OA_HK_RESIZE, OA_HK_JPEGE };
OA_HANDLE_KIND(CHDESC, acldvppChannelDesc *, (oa_py_hkind)OA_HK_CHDESC)
OA_HANDLE_KIND(PICDESC, acldvppPicDesc *, (oa_py_hkind)OA_HK_PICDESC)
OA_HANDLE_KIND(ROI, acldvppRoiConfig *, (oa_py_hkind)OA_HK_ROI)
OA_HANDLE_KIND(RESIZE, acldvppResizeConfig *, (oa_py_hkind)OA_HK_RESIZE)
OA_HANDLE_KIND(JPEGE, acldvppJpegeConfig *, (oa_py_hkind)OA_HK_JPEGE)
OA_SKIND(E_PIXFMT, acldvppPixelFormat, INT32_MIN, INT32_MAX)
OA_SKIND(E_JPEGFMT, acldvppJpegFormat, INT32_MIN, INT32_MAX)

#define MEDIA_TABLE(X)                                                                                                 \
    X("dvpp_malloc", GIL, ERR, acldvppMalloc, (OUT, PTR), (IN, LEN))                                                   \
    X("dvpp_free", NOGIL, ERR, acldvppFree, (IN, PTR))                                                                 \
    X("dvpp_create_channel_desc", GIL, H_CHDESC, acldvppCreateChannelDesc, NOARGS)                                     \
    X("dvpp_destroy_channel_desc", GIL, ERR, acldvppDestroyChannelDesc, (IN, D_CHDESC))                                \
    X("dvpp_get_channel_desc_channel_id", GIL, U64, acldvppGetChannelDescChannelId, (IN, H_CHDESC))                    \
    X("dvpp_set_channel_desc_mode", GIL, ERR, acldvppSetChannelDescMode, (IN, H_CHDESC), (IN, U32))                    \
    X("dvpp_create_channel", NOGIL, ERR, acldvppCreateChannel, (IN, H_CHDESC))                                         \
    X("dvpp_destroy_channel", NOGIL, ERR, acldvppDestroyChannel, (IN, H_CHDESC))                                       \
    X("dvpp_create_pic_desc", GIL, H_PICDESC, acldvppCreatePicDesc, NOARGS)                                            \
    X("dvpp_destroy_pic_desc", GIL, ERR, acldvppDestroyPicDesc, (IN, D_PICDESC))                                       \
    X("dvpp_set_pic_desc_data", GIL, ERR, acldvppSetPicDescData, (IN, H_PICDESC), (IN, PTR))                           \
    X("dvpp_set_pic_desc_size", GIL, ERR, acldvppSetPicDescSize, (IN, H_PICDESC), (IN, U32))                           \
    X("dvpp_set_pic_desc_format", GIL, ERR, acldvppSetPicDescFormat, (IN, H_PICDESC), (IN, I32))                       \
    X("dvpp_set_pic_desc_width", GIL, ERR, acldvppSetPicDescWidth, (IN, H_PICDESC), (IN, U32))                         \
    X("dvpp_set_pic_desc_height", GIL, ERR, acldvppSetPicDescHeight, (IN, H_PICDESC), (IN, U32))                       \
    X("dvpp_set_pic_desc_width_stride", GIL, ERR, acldvppSetPicDescWidthStride, (IN, H_PICDESC), (IN, U32))            \
    X("dvpp_set_pic_desc_height_stride", GIL, ERR, acldvppSetPicDescHeightStride, (IN, H_PICDESC), (IN, U32))          \
    X("dvpp_set_pic_desc_ret_code", GIL, ERR, acldvppSetPicDescRetCode, (IN, H_PICDESC), (IN, U32))                    \
    X("dvpp_get_pic_desc_data", GIL, PTR, acldvppGetPicDescData, (IN, H_PICDESC))                                      \
    X("dvpp_get_pic_desc_size", GIL, U32, acldvppGetPicDescSize, (IN, H_PICDESC))                                      \
    X("dvpp_get_pic_desc_format", GIL, E_PIXFMT, acldvppGetPicDescFormat, (IN, H_PICDESC))                             \
    X("dvpp_get_pic_desc_width", GIL, U32, acldvppGetPicDescWidth, (IN, H_PICDESC))                                    \
    X("dvpp_get_pic_desc_height", GIL, U32, acldvppGetPicDescHeight, (IN, H_PICDESC))                                  \
    X("dvpp_get_pic_desc_width_stride", GIL, U32, acldvppGetPicDescWidthStride, (IN, H_PICDESC))                       \
    X("dvpp_get_pic_desc_height_stride", GIL, U32, acldvppGetPicDescHeightStride, (IN, H_PICDESC))                     \
    X("dvpp_get_pic_desc_ret_code", GIL, U32, acldvppGetPicDescRetCode, (IN, H_PICDESC))                               \
    X("dvpp_create_roi_config", GIL, H_ROI, acldvppCreateRoiConfig, (IN, U32), (IN, U32), (IN, U32), (IN, U32))        \
    X("dvpp_destroy_roi_config", GIL, ERR, acldvppDestroyRoiConfig, (IN, D_ROI))                                       \
    X("dvpp_set_roi_config", GIL, ERR, acldvppSetRoiConfig, (IN, H_ROI), (IN, U32), (IN, U32), (IN, U32), (IN, U32))   \
    X("dvpp_set_roi_config_left", GIL, ERR, acldvppSetRoiConfigLeft, (IN, H_ROI), (IN, U32))                           \
    X("dvpp_set_roi_config_right", GIL, ERR, acldvppSetRoiConfigRight, (IN, H_ROI), (IN, U32))                         \
    X("dvpp_set_roi_config_top", GIL, ERR, acldvppSetRoiConfigTop, (IN, H_ROI), (IN, U32))                             \
    X("dvpp_set_roi_config_bottom", GIL, ERR, acldvppSetRoiConfigBottom, (IN, H_ROI), (IN, U32))                       \
    X("dvpp_create_resize_config", GIL, H_RESIZE, acldvppCreateResizeConfig, NOARGS)                                   \
    X("dvpp_destroy_resize_config", GIL, ERR, acldvppDestroyResizeConfig, (IN, D_RESIZE))                              \
    X("dvpp_set_resize_config_interpolation", GIL, ERR, acldvppSetResizeConfigInterpolation, (IN, H_RESIZE),           \
      (IN, U32))                                                                                                       \
    X("dvpp_get_resize_config_interpolation", GIL, U32, acldvppGetResizeConfigInterpolation, (IN, H_RESIZE))           \
    X("dvpp_create_jpege_config", GIL, H_JPEGE, acldvppCreateJpegeConfig, NOARGS)                                      \
    X("dvpp_destroy_jpege_config", GIL, ERR, acldvppDestroyJpegeConfig, (IN, D_JPEGE))                                 \
    X("dvpp_set_jpege_config_level", GIL, ERR, acldvppSetJpegeConfigLevel, (IN, H_JPEGE), (IN, U32))                   \
    X("dvpp_get_jpege_config_level", GIL, U32, acldvppGetJpegeConfigLevel, (IN, H_JPEGE))                              \
    X("dvpp_jpeg_get_image_info", NOGIL, ERR, acldvppJpegGetImageInfo, (IN, PTR), (IN, U32), (OUT, U32), (OUT, U32),   \
      (OUT, I32))                                                                                                      \
    X("dvpp_jpeg_get_image_info_v2", NOGIL, ERR, acldvppJpegGetImageInfoV2, (IN, PTR), (IN, U32), (OUT, U32),          \
      (OUT, U32), (OUT, I32), (OUT, E_JPEGFMT))                                                                        \
    X("dvpp_jpeg_predict_dec_size", NOGIL, ERR, acldvppJpegPredictDecSize, (IN, PTR), (IN, U32), (IN, I32),            \
      (OUT, U32))                                                                                                      \
    X("dvpp_jpeg_predict_enc_size", GIL, ERR, acldvppJpegPredictEncSize, (IN, H_PICDESC), (IN, H_JPEGE), (OUT, U32))   \
    X("dvpp_jpeg_decode_async", NOGIL, ERR, acldvppJpegDecodeAsync, (IN, H_CHDESC), (IN, PTR), (IN, U32),              \
      (IN, H_PICDESC), (IN, PTR))                                                                                      \
    X("dvpp_vpc_resize_async", NOGIL, ERR, acldvppVpcResizeAsync, (IN, H_CHDESC), (IN, H_PICDESC), (IN, H_PICDESC),    \
      (IN, H_RESIZE), (IN, PTR))                                                                                       \
    X("dvpp_vpc_crop_async", NOGIL, ERR, acldvppVpcCropAsync, (IN, H_CHDESC), (IN, H_PICDESC), (IN, H_PICDESC),        \
      (IN, H_ROI), (IN, PTR))                                                                                          \
    X("dvpp_vpc_crop_resize_async", NOGIL, ERR, acldvppVpcCropResizeAsync, (IN, H_CHDESC), (IN, H_PICDESC),            \
      (IN, H_PICDESC), (IN, H_ROI), (IN, H_RESIZE), (IN, PTR))                                                         \
    X("dvpp_vpc_crop_and_paste_async", NOGIL, ERR, acldvppVpcCropAndPasteAsync, (IN, H_CHDESC), (IN, H_PICDESC),       \
      (IN, H_PICDESC), (IN, H_ROI), (IN, H_ROI), (IN, PTR))                                                            \
    X("dvpp_vpc_crop_resize_paste_async", NOGIL, ERR, acldvppVpcCropResizePasteAsync, (IN, H_CHDESC),                  \
      (IN, H_PICDESC), (IN, H_PICDESC), (IN, H_ROI), (IN, H_ROI), (IN, H_RESIZE), (IN, PTR))                           \
    X("dvpp_vpc_convert_color_async", NOGIL, ERR, acldvppVpcConvertColorAsync, (IN, H_CHDESC), (IN, H_PICDESC),        \
      (IN, H_PICDESC), (IN, PTR))

MEDIA_TABLE(OA_DEFINE)

static PyMethodDef g_media_methods[] = {MEDIA_TABLE(OA_METHOD){NULL, NULL, 0, NULL}};

PyMethodDef *oa_py_media_methods(void)
{
    return g_media_methods;
}
