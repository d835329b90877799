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
enum { OA_HK_CHDESC = 100, OA_HK_PICDESC, OA_HK_ROI, OA_HK_RESIZE, OA_HK_JPEGE, OA_HK_STRDESC, OA_HK_BATCH, OA_HK_BORDER,
       OA_HK_VDECCH, OA_HK_VDECFC, OA_HK_VENCCH, OA_HK_VENCFC };
OA_HANDLE_KIND(CHDESC, acldvppChannelDesc *, (oa_py_hkind)OA_HK_CHDESC)
OA_HANDLE_KIND(PICDESC, acldvppPicDesc *, (oa_py_hkind)OA_HK_PICDESC)
OA_HANDLE_KIND(ROI, acldvppRoiConfig *, (oa_py_hkind)OA_HK_ROI)
OA_HANDLE_KIND(RESIZE, acldvppResizeConfig *, (oa_py_hkind)OA_HK_RESIZE)
OA_HANDLE_KIND(JPEGE, acldvppJpegeConfig *, (oa_py_hkind)OA_HK_JPEGE)
OA_HANDLE_KIND(STRDESC, acldvppStreamDesc *, (oa_py_hkind)OA_HK_STRDESC)
OA_HANDLE_KIND(BATCH, acldvppBatchPicDesc *, (oa_py_hkind)OA_HK_BATCH)
OA_HANDLE_KIND(BORDER, acldvppBorderConfig *, (oa_py_hkind)OA_HK_BORDER)
OA_HANDLE_KIND(VDECCH, aclvdecChannelDesc *, (oa_py_hkind)OA_HK_VDECCH)
OA_HANDLE_KIND(VDECFC, aclvdecFrameConfig *, (oa_py_hkind)OA_HK_VDECFC)
OA_HANDLE_KIND(VENCCH, aclvencChannelDesc *, (oa_py_hkind)OA_HK_VENCCH)
OA_HANDLE_KIND(VENCFC, aclvencFrameConfig *, (oa_py_hkind)OA_HK_VENCFC)
OA_SKIND(E_STRFMT, acldvppStreamFormat, INT32_MIN, INT32_MAX)
OA_SKIND(E_BORDERTYPE, acldvppBorderType, INT32_MIN, INT32_MAX)
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
      (IN, H_PICDESC), (IN, PTR))                                                                                      \
    X("dvpp_jpeg_encode_async", NOGIL, ERR, acldvppJpegEncodeAsync, (IN, H_CHDESC), (IN, H_PICDESC), (IN, PTR),        \
      (IN, PTR), (IN, H_JPEGE), (IN, PTR))                                                                             \
    X("dvpp_png_get_image_info", NOGIL, ERR, acldvppPngGetImageInfo, (IN, PTR), (IN, U32), (OUT, U32), (OUT, U32),     \
      (OUT, I32))                                                                                                      \
    X("dvpp_png_predict_dec_size", NOGIL, ERR, acldvppPngPredictDecSize, (IN, PTR), (IN, U32), (IN, I32), (OUT, U32))  \
    X("dvpp_png_decode_async", NOGIL, ERR, acldvppPngDecodeAsync, (IN, H_CHDESC), (IN, PTR), (IN, U32),                \
      (IN, H_PICDESC), (IN, PTR))                                                                                      \
    X("dvpp_vpc_pyr_down_async", NOGIL, ERR, acldvppVpcPyrDownAsync, (IN, H_CHDESC), (IN, H_PICDESC), (IN, H_PICDESC), \
      (IN, PTR), (IN, PTR))                                                                                            \
    /* stream descriptions (VDEC input, VENC output) */                                                              \
    X("dvpp_create_stream_desc", GIL, H_STRDESC, acldvppCreateStreamDesc, NOARGS)                                      \
    X("dvpp_destroy_stream_desc", GIL, ERR, acldvppDestroyStreamDesc, (IN, D_STRDESC))                                 \
    X("dvpp_set_stream_desc_data", GIL, ERR, acldvppSetStreamDescData, (IN, H_STRDESC), (IN, PTR))                     \
    X("dvpp_set_stream_desc_size", GIL, ERR, acldvppSetStreamDescSize, (IN, H_STRDESC), (IN, U32))                     \
    X("dvpp_set_stream_desc_format", GIL, ERR, acldvppSetStreamDescFormat, (IN, H_STRDESC), (IN, I32))                 \
    X("dvpp_set_stream_desc_timestamp", GIL, ERR, acldvppSetStreamDescTimestamp, (IN, H_STRDESC), (IN, U64))           \
    X("dvpp_set_stream_desc_ret_code", GIL, ERR, acldvppSetStreamDescRetCode, (IN, H_STRDESC), (IN, U32))              \
    X("dvpp_set_stream_desc_eos", GIL, ERR, acldvppSetStreamDescEos, (IN, H_STRDESC), (IN, U8))                        \
    X("dvpp_get_stream_desc_data", GIL, PTR, acldvppGetStreamDescData, (IN, H_STRDESC))                                \
    X("dvpp_get_stream_desc_size", GIL, U32, acldvppGetStreamDescSize, (IN, H_STRDESC))                                \
    X("dvpp_get_stream_desc_format", GIL, E_STRFMT, acldvppGetStreamDescFormat, (IN, H_STRDESC))                       \
    X("dvpp_get_stream_desc_timestamp", GIL, U64, acldvppGetStreamDescTimestamp, (IN, H_STRDESC))                      \
    X("dvpp_get_stream_desc_ret_code", GIL, U32, acldvppGetStreamDescRetCode, (IN, H_STRDESC))                         \
    X("dvpp_get_stream_desc_eos", GIL, U8, acldvppGetStreamDescEos, (IN, H_STRDESC))                                   \
    /* batches of pictures; dvpp_get_pic_desc is written by hand */                                                  \
    X("dvpp_create_batch_pic_desc", GIL, H_BATCH, acldvppCreateBatchPicDesc, (IN, U32))                                \
    X("dvpp_destroy_batch_pic_desc", GIL, ERR, acldvppDestroyBatchPicDesc, (IN, D_BATCH))                              \
    /* border configs and make-border */                                                                             \
    X("dvpp_create_border_config", GIL, H_BORDER, acldvppCreateBorderConfig, NOARGS)                                   \
    X("dvpp_destroy_border_config", GIL, ERR, acldvppDestroyBorderConfig, (IN, D_BORDER))                              \
    X("dvpp_set_border_config_value", GIL, ERR, acldvppSetBorderConfigValue, (IN, H_BORDER), (IN, U32), (IN, F64))     \
    X("dvpp_set_border_config_border_type", GIL, ERR, acldvppSetBorderConfigBorderType, (IN, H_BORDER), (IN, I32))     \
    X("dvpp_set_border_config_top", GIL, ERR, acldvppSetBorderConfigTop, (IN, H_BORDER), (IN, U32))                    \
    X("dvpp_set_border_config_bottom", GIL, ERR, acldvppSetBorderConfigBottom, (IN, H_BORDER), (IN, U32))              \
    X("dvpp_set_border_config_left", GIL, ERR, acldvppSetBorderConfigLeft, (IN, H_BORDER), (IN, U32))                  \
    X("dvpp_set_border_config_right", GIL, ERR, acldvppSetBorderConfigRight, (IN, H_BORDER), (IN, U32))                \
    X("dvpp_get_border_config_value", GIL, F64, acldvppGetBorderConfigValue, (IN, H_BORDER), (IN, U32))                \
    X("dvpp_get_border_config_border_type", GIL, E_BORDERTYPE, acldvppGetBorderConfigBorderType, (IN, H_BORDER))       \
    X("dvpp_get_border_config_top", GIL, U32, acldvppGetBorderConfigTop, (IN, H_BORDER))                               \
    X("dvpp_get_border_config_bottom", GIL, U32, acldvppGetBorderConfigBottom, (IN, H_BORDER))                         \
    X("dvpp_get_border_config_left", GIL, U32, acldvppGetBorderConfigLeft, (IN, H_BORDER))                             \
    X("dvpp_get_border_config_right", GIL, U32, acldvppGetBorderConfigRight, (IN, H_BORDER))                           \
    X("dvpp_vpc_make_border_async", NOGIL, ERR, acldvppVpcMakeBorderAsync, (IN, H_CHDESC), (IN, H_PICDESC),            \
      (IN, H_PICDESC), (IN, H_BORDER), (IN, PTR))                                                                      \
    /* VDEC; the callback, sends and params are written by hand */                                                   \
    X("vdec_create_channel_desc", GIL, H_VDECCH, aclvdecCreateChannelDesc, NOARGS)                                     \
    X("vdec_set_channel_desc_channel_id", GIL, ERR, aclvdecSetChannelDescChannelId, (IN, H_VDECCH), (IN, U32))         \
    X("vdec_set_channel_desc_thread_id", GIL, ERR, aclvdecSetChannelDescThreadId, (IN, H_VDECCH), (IN, U64))           \
    X("vdec_set_channel_desc_entype", GIL, ERR, aclvdecSetChannelDescEnType, (IN, H_VDECCH), (IN, I32))                \
    X("vdec_set_channel_desc_out_pic_format", GIL, ERR, aclvdecSetChannelDescOutPicFormat, (IN, H_VDECCH), (IN, I32))  \
    X("vdec_set_channel_desc_out_pic_width", GIL, ERR, aclvdecSetChannelDescOutPicWidth, (IN, H_VDECCH), (IN, U32))    \
    X("vdec_set_channel_desc_out_pic_height", GIL, ERR, aclvdecSetChannelDescOutPicHeight, (IN, H_VDECCH), (IN, U32))  \
    X("vdec_set_channel_desc_ref_frame_num", GIL, ERR, aclvdecSetChannelDescRefFrameNum, (IN, H_VDECCH), (IN, U32))    \
    X("vdec_set_channel_desc_out_mode", GIL, ERR, aclvdecSetChannelDescOutMode, (IN, H_VDECCH), (IN, U32))             \
    X("vdec_set_channel_desc_bit_depth", GIL, ERR, aclvdecSetChannelDescBitDepth, (IN, H_VDECCH), (IN, U32))           \
    X("vdec_get_channel_desc_channel_id", GIL, U32, aclvdecGetChannelDescChannelId, (IN, H_VDECCH))                    \
    X("vdec_get_channel_desc_thread_id", GIL, U64, aclvdecGetChannelDescThreadId, (IN, H_VDECCH))                      \
    X("vdec_get_channel_desc_entype", GIL, E_STRFMT, aclvdecGetChannelDescEnType, (IN, H_VDECCH))                      \
    X("vdec_get_channel_desc_out_pic_format", GIL, E_PIXFMT, aclvdecGetChannelDescOutPicFormat, (IN, H_VDECCH))        \
    X("vdec_get_channel_desc_out_pic_width", GIL, U32, aclvdecGetChannelDescOutPicWidth, (IN, H_VDECCH))               \
    X("vdec_get_channel_desc_out_pic_height", GIL, U32, aclvdecGetChannelDescOutPicHeight, (IN, H_VDECCH))             \
    X("vdec_get_channel_desc_ref_frame_num", GIL, U32, aclvdecGetChannelDescRefFrameNum, (IN, H_VDECCH))               \
    X("vdec_get_channel_desc_out_mode", GIL, U32, aclvdecGetChannelDescOutMode, (IN, H_VDECCH))                        \
    X("vdec_get_channel_desc_bit_depth", GIL, U32, aclvdecGetChannelDescBitDepth, (IN, H_VDECCH))                      \
    X("vdec_create_channel", NOGIL, ERR, aclvdecCreateChannel, (IN, H_VDECCH))                                         \
    X("vdec_create_frame_config", GIL, H_VDECFC, aclvdecCreateFrameConfig, NOARGS)                                     \
    X("vdec_destroy_frame_config", GIL, ERR, aclvdecDestroyFrameConfig, (IN, D_VDECFC))                                \
    /* VENC */                                                                                                       \
    X("venc_create_channel_desc", GIL, H_VENCCH, aclvencCreateChannelDesc, NOARGS)                                     \
    X("venc_set_channel_desc_thread_id", GIL, ERR, aclvencSetChannelDescThreadId, (IN, H_VENCCH), (IN, U64))           \
    X("venc_set_channel_desc_entype", GIL, ERR, aclvencSetChannelDescEnType, (IN, H_VENCCH), (IN, I32))                \
    X("venc_set_channel_desc_pic_format", GIL, ERR, aclvencSetChannelDescPicFormat, (IN, H_VENCCH), (IN, I32))         \
    X("venc_set_channel_desc_pic_width", GIL, ERR, aclvencSetChannelDescPicWidth, (IN, H_VENCCH), (IN, U32))           \
    X("venc_set_channel_desc_pic_height", GIL, ERR, aclvencSetChannelDescPicHeight, (IN, H_VENCCH), (IN, U32))         \
    X("venc_set_channel_desc_key_frame_interval", GIL, ERR, aclvencSetChannelDescKeyFrameInterval, (IN, H_VENCCH),     \
      (IN, U32))                                                                                                       \
    X("venc_set_channel_desc_buf_addr", GIL, ERR, aclvencSetChannelDescBufAddr, (IN, H_VENCCH), (IN, PTR))             \
    X("venc_set_channel_desc_buf_size", GIL, ERR, aclvencSetChannelDescBufSize, (IN, H_VENCCH), (IN, U32))             \
    X("venc_set_channel_desc_rc_mode", GIL, ERR, aclvencSetChannelDescRcMode, (IN, H_VENCCH), (IN, U32))               \
    X("venc_set_channel_desc_src_rate", GIL, ERR, aclvencSetChannelDescSrcRate, (IN, H_VENCCH), (IN, U32))             \
    X("venc_set_channel_desc_max_bit_rate", GIL, ERR, aclvencSetChannelDescMaxBitRate, (IN, H_VENCCH), (IN, U32))      \
    X("venc_get_channel_desc_buf_addr", GIL, PTR, aclvencGetChannelDescBufAddr, (IN, H_VENCCH))                        \
    X("venc_get_channel_desc_buf_size", GIL, U32, aclvencGetChannelDescBufSize, (IN, H_VENCCH))                        \
    X("venc_get_channel_desc_channel_id", GIL, U32, aclvencGetChannelDescChannelId, (IN, H_VENCCH))                    \
    X("venc_get_channel_desc_thread_id", GIL, U64, aclvencGetChannelDescThreadId, (IN, H_VENCCH))                      \
    X("venc_get_channel_desc_entype", GIL, E_STRFMT, aclvencGetChannelDescEnType, (IN, H_VENCCH))                      \
    X("venc_get_channel_desc_pic_format", GIL, E_PIXFMT, aclvencGetChannelDescPicFormat, (IN, H_VENCCH))               \
    X("venc_get_channel_desc_pic_width", GIL, U32, aclvencGetChannelDescPicWidth, (IN, H_VENCCH))                      \
    X("venc_get_channel_desc_pic_height", GIL, U32, aclvencGetChannelDescPicHeight, (IN, H_VENCCH))                    \
    X("venc_get_channel_desc_key_frame_interval", GIL, U32, aclvencGetChannelDescKeyFrameInterval, (IN, H_VENCCH))     \
    X("venc_get_channel_desc_rc_mode", GIL, U32, aclvencGetChannelDescRcMode, (IN, H_VENCCH))                          \
    X("venc_get_channel_desc_src_rate", GIL, U32, aclvencGetChannelDescSrcRate, (IN, H_VENCCH))                        \
    X("venc_get_channel_desc_max_bit_rate", GIL, U32, aclvencGetChannelDescMaxBitRate, (IN, H_VENCCH))                 \
    X("venc_create_channel", NOGIL, ERR, aclvencCreateChannel, (IN, H_VENCCH))                                         \
    X("venc_create_frame_config", GIL, H_VENCFC, aclvencCreateFrameConfig, NOARGS)                                     \
    X("venc_destroy_frame_config", GIL, ERR, aclvencDestroyFrameConfig, (IN, D_VENCFC))                                \
    X("venc_set_frame_config_force_i_frame", GIL, ERR, aclvencSetFrameConfigForceIFrame, (IN, H_VENCFC), (IN, U8))     \
    X("venc_set_frame_config_eos", GIL, ERR, aclvencSetFrameConfigEos, (IN, H_VENCFC), (IN, U8))                       \
    X("venc_get_frame_config_force_i_frame", GIL, U8, aclvencGetFrameConfigForceIFrame, (IN, H_VENCFC))                \
    X("venc_get_frame_config_eos", GIL, U8, aclvencGetFrameConfigEos, (IN, H_VENCFC))

MEDIA_TABLE(OA_DEFINE)

/* dvpp_get_pic_desc(batch, index) -> pic_desc: the batch's own description (registered as the batch's,
   so it disappears with the batch and cannot be destroyed on its own); 0 when the call fails */
static PyObject *w_dvpp_get_pic_desc(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    acldvppBatchPicDesc *b = NULL;
    uint32_t i = 0;
    if (nargs != 2 || oa_in_U32(args[1], &i) != 0) {
        return oa_py_parse_failed("acl.media.dvpp_get_pic_desc");
    }
    const int st = oa_in_H_BATCH(args[0], &b);
    if (st < 0) {
        return oa_py_parse_failed("acl.media.dvpp_get_pic_desc");
    }
    acldvppPicDesc *p = st == 0 ? acldvppGetPicDesc(b, i) : NULL;
    if (p != NULL) {
        oa_py_h_add(p, (oa_py_hkind)OA_HK_PICDESC, b);
    }
    return oa_py_ptr(p);
}

/* ---- batch VPC: (channel, src_batch, roi_nums: list, dst_batch, crop_areas: list, [paste_areas | border_configs:
   list], [resize_config], stream) -> ret; size is len(roi_nums) (pyACL's convention) ---- */

enum { B_CROP, B_CROP_RESIZE, B_CROP_PASTE, B_CROP_RESIZE_PASTE, B_CROP_RESIZE_BORDER };

static PyObject *vpc_batch(const char *qual, int which, PyObject *const *args, Py_ssize_t nargs)
{
    static const Py_ssize_t want[] = {6, 7, 7, 8, 8};
    const int has_list2 = which == B_CROP_PASTE || which == B_CROP_RESIZE_PASTE || which == B_CROP_RESIZE_BORDER;
    const int has_resize = which == B_CROP_RESIZE || which == B_CROP_RESIZE_PASTE || which == B_CROP_RESIZE_BORDER;
    if (nargs != want[which]) {
        return oa_py_parse_failed(qual);
    }
    acldvppChannelDesc *ch = NULL;
    acldvppBatchPicDesc *src = NULL, *dst = NULL;
    acldvppResizeConfig *rs = NULL;
    void *stream = NULL;
    int stale = 0, st;
    if ((st = oa_in_H_CHDESC(args[0], &ch)) < 0) {
        return oa_py_parse_failed(qual);
    }
    stale |= st;
    if ((st = oa_in_H_BATCH(args[1], &src)) < 0) {
        return oa_py_parse_failed(qual);
    }
    stale |= st;
    if ((st = oa_in_H_BATCH(args[3], &dst)) < 0) {
        return oa_py_parse_failed(qual);
    }
    stale |= st;
    const Py_ssize_t ri = 5 + has_list2; /* resize config, then stream */
    if (has_resize) {
        if ((st = oa_in_H_RESIZE(args[ri], &rs)) < 0) {
            return oa_py_parse_failed(qual);
        }
        stale |= st;
    }
    if (oa_in_PTR(args[nargs - 1], &stream) != 0 || !PyList_Check(args[2]) || !PyList_Check(args[4]) ||
        (has_list2 && !PyList_Check(args[5]))) {
        return oa_py_parse_failed(qual);
    }
    int64_t *nums = NULL;
    int n = 0, nc = 0, n2 = 0;
    void **crop = NULL, **list2 = NULL;
    aclError ret = ACL_ERROR_INVALID_PARAM;
    if (oa_py_i64_list(args[2], &nums, &n) != 0) {
        return oa_py_parse_failed(qual);
    }
    st = oa_py_ptr_list(args[4], (oa_py_hkind)OA_HK_ROI, &crop, &nc);
    if (st == 0 && has_list2) {
        st = oa_py_ptr_list(args[5], (oa_py_hkind)(which == B_CROP_RESIZE_BORDER ? OA_HK_BORDER : OA_HK_ROI), &list2,
                            &n2);
    }
    if (st < 0) {
        free(nums);
        free(crop);
        free(list2);
        return oa_py_parse_failed(qual);
    }
    stale |= st;
    /* the C reads sum(roi_nums) areas: shorter lists are refused here (they would be read past their end) */
    uint32_t *roi = calloc((size_t)n + 1, sizeof(*roi));
    uint64_t total = 0;
    int bad = roi == NULL;
    for (int i = 0; !bad && i < n; ++i) {
        bad = nums[i] < 0 || nums[i] > UINT32_MAX;
        roi[i] = (uint32_t)nums[i];
        total += (uint64_t)roi[i];
    }
    bad |= total > (uint64_t)nc || (has_list2 && total > (uint64_t)n2) || n == 0;
    if (!stale && !bad) {
        PyThreadState *ts = PyEval_SaveThread();
        acldvppRoiConfig **c = (acldvppRoiConfig **)crop;
        switch (which) {
        case B_CROP:
            ret = acldvppVpcBatchCropAsync(ch, src, roi, (uint32_t)n, dst, c, stream);
            break;
        case B_CROP_RESIZE:
            ret = acldvppVpcBatchCropResizeAsync(ch, src, roi, (uint32_t)n, dst, c, rs, stream);
            break;
        case B_CROP_PASTE:
            ret = acldvppVpcBatchCropAndPasteAsync(ch, src, roi, (uint32_t)n, dst, c, (acldvppRoiConfig **)list2,
                                                   stream);
            break;
        case B_CROP_RESIZE_PASTE:
            ret = acldvppVpcBatchCropResizePasteAsync(ch, src, roi, (uint32_t)n, dst, c, (acldvppRoiConfig **)list2,
                                                      rs, stream);
            break;
        default:
            ret = acldvppVpcBatchCropResizeMakeBorderAsync(ch, src, roi, (uint32_t)n, dst, c,
                                                           (acldvppBorderConfig **)list2, rs, stream);
            break;
        }
        PyEval_RestoreThread(ts);
    }
    free(nums);
    free(roi);
    free(crop);
    free(list2);
    return PyLong_FromLong(ret);
}

#define VPC_BATCH_WRAPPER(fn, name, which)                                                                             \
    static PyObject *fn(PyObject *self, PyObject *const *args, Py_ssize_t nargs)                                       \
    {                                                                                                                  \
        (void)self;                                                                                                    \
        return vpc_batch("acl.media." name, which, args, nargs);                                                       \
    }
VPC_BATCH_WRAPPER(w_batch_crop, "dvpp_vpc_batch_crop_async", B_CROP)
VPC_BATCH_WRAPPER(w_batch_crop_resize, "dvpp_vpc_batch_crop_resize_async", B_CROP_RESIZE)
VPC_BATCH_WRAPPER(w_batch_crop_paste, "dvpp_vpc_batch_crop_and_paste_async", B_CROP_PASTE)
VPC_BATCH_WRAPPER(w_batch_crop_resize_paste, "dvpp_vpc_batch_crop_resize_paste_async", B_CROP_RESIZE_PASTE)
VPC_BATCH_WRAPPER(w_batch_crop_resize_border, "dvpp_vpc_batch_crop_resize_make_border_async", B_CROP_RESIZE_BORDER)

/* ---- VDEC / VENC callbacks ----
 * The Python callable of a channel description is kept in g_codec_fns (keyed by the description's address);
 * every send takes a reference to it and to its user_data in a codec_send, which the C callback (running in
 * the thread that is in acl.rt.process_report for the channel) hands back: fn(input, output, user_data) is
 * called there with the GIL, then the codec_send is freed. An end-of-stream send has no callback of its own:
 * its codec_send is freed when the send returns. */

static PyObject *g_codec_fns; /* dict: description address -> callable */

typedef struct codec_send {
    PyObject *fn;
    PyObject *user;
    const void *chan; /* VENC: owner of the library's output stream description during the call */
} codec_send;

static void codec_send_free(codec_send *w)
{
    Py_DECREF(w->fn);
    Py_DECREF(w->user);
    PyMem_RawFree(w);
}

static void codec_call(codec_send *w, void *in, void *out, int venc)
{
    if (w == NULL || !Py_IsInitialized()) {
        return;
    }
    PyGILState_STATE g = PyGILState_Ensure();
    if (venc && out != NULL) { /* the encoded frame's description belongs to the library: borrowed for the call */
        oa_py_h_add(out, (oa_py_hkind)OA_HK_STRDESC, w->chan);
    }
    PyObject *r = PyObject_CallFunction(w->fn, "KKO", (unsigned long long)(uintptr_t)in,
                                        (unsigned long long)(uintptr_t)out, w->user);
    if (r == NULL) {
        PyErr_WriteUnraisable(w->fn); /* pyACL logs it and goes on */
    }
    Py_XDECREF(r);
    if (venc && out != NULL) {
        oa_py_h_del(out);
    }
    codec_send_free(w);
    PyGILState_Release(g);
}

static void vdec_trampoline(acldvppStreamDesc *input, acldvppPicDesc *output, void *user)
{
    codec_call(user, input, output, 0);
}

static void venc_trampoline(acldvppPicDesc *input, acldvppStreamDesc *output, void *user)
{
    codec_call(user, input, output, 1);
}

static int codec_fns_init(void)
{
    if (g_codec_fns == NULL) {
        g_codec_fns = PyDict_New();
    }
    return g_codec_fns != NULL ? 0 : -1;
}

/* {vdec,venc}_set_channel_desc_callback(desc, fn) -> ret */
static PyObject *codec_set_callback(const char *qual, int venc, PyObject *const *args, Py_ssize_t nargs)
{
    void *d = NULL;
    if (nargs != 2) {
        return oa_py_parse_failed(qual);
    }
    const int st = venc ? oa_in_H_VENCCH(args[0], (aclvencChannelDesc **)&d)
                        : oa_in_H_VDECCH(args[0], (aclvdecChannelDesc **)&d);
    if (st < 0) {
        return oa_py_parse_failed(qual);
    }
    if (!PyCallable_Check(args[1])) {
        PyErr_Format(PyExc_TypeError, "%s: parameter must be callable", qual);
        return NULL;
    }
    if (st > 0) {
        return PyLong_FromLong(ACL_ERROR_INVALID_PARAM);
    }
    const aclError ret = venc ? aclvencSetChannelDescCallback(d, venc_trampoline)
                              : aclvdecSetChannelDescCallback(d, vdec_trampoline);
    if (ret == ACL_SUCCESS && d != NULL) {
        PyObject *k = oa_py_ptr(d);
        if (k == NULL || codec_fns_init() != 0 || PyDict_SetItem(g_codec_fns, k, args[1]) != 0) {
            Py_XDECREF(k);
            return NULL;
        }
        Py_DECREF(k);
    }
    return PyLong_FromLong(ret);
}

/* {vdec,venc}_get_channel_desc_callback(desc) -> fn (RuntimeError when none was set, as pyACL) */
static PyObject *codec_get_callback(const char *qual, int venc, PyObject *const *args, Py_ssize_t nargs)
{
    void *d = NULL;
    if (nargs != 1) {
        return oa_py_parse_failed(qual);
    }
    const int st = venc ? oa_in_H_VENCCH(args[0], (aclvencChannelDesc **)&d)
                        : oa_in_H_VDECCH(args[0], (aclvdecChannelDesc **)&d);
    if (st < 0) {
        return oa_py_parse_failed(qual);
    }
    PyObject *k = oa_py_ptr(d);
    PyObject *fn = k != NULL && g_codec_fns != NULL && st == 0 ? PyDict_GetItemWithError(g_codec_fns, k) : NULL;
    Py_XDECREF(k);
    if (fn == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_Format(PyExc_RuntimeError, "%s: did not set callback, failed", qual);
        }
        return NULL;
    }
    Py_INCREF(fn);
    return fn;
}

/* A codec_send for a send on channel description d, or NULL with RuntimeError (no callback set). */
static codec_send *codec_send_new(const char *qual, const void *d, PyObject *user)
{
    PyObject *k = oa_py_ptr(d);
    PyObject *fn = k != NULL && g_codec_fns != NULL ? PyDict_GetItemWithError(g_codec_fns, k) : NULL;
    Py_XDECREF(k);
    if (fn == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_Format(PyExc_RuntimeError, "%s: did not set callback, failed", qual);
        }
        return NULL;
    }
    codec_send *w = PyMem_RawMalloc(sizeof(*w));
    if (w == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    w->fn = fn;
    w->user = user;
    w->chan = d;
    Py_INCREF(fn);
    Py_INCREF(user);
    return w;
}

/* vdec_send_frame(channel_desc, input, output, config, user_data) -> ret;
   vdec_send_skipped_frame(channel_desc, input, config, user_data) -> ret */
static PyObject *vdec_send(const char *qual, int skipped, PyObject *const *args, Py_ssize_t nargs)
{
    aclvdecChannelDesc *d = NULL;
    acldvppStreamDesc *in = NULL;
    acldvppPicDesc *out = NULL;
    aclvdecFrameConfig *cfg = NULL;
    if (nargs != (skipped ? 4 : 5)) {
        return oa_py_parse_failed(qual);
    }
    int st, stale = 0;
    if ((st = oa_in_H_VDECCH(args[0], &d)) < 0) {
        return oa_py_parse_failed(qual);
    }
    stale |= st;
    if ((st = oa_in_H_STRDESC(args[1], &in)) < 0) {
        return oa_py_parse_failed(qual);
    }
    stale |= st;
    if (!skipped) {
        if ((st = oa_in_H_PICDESC(args[2], &out)) < 0) {
            return oa_py_parse_failed(qual);
        }
        stale |= st;
    }
    if ((st = oa_in_H_VDECFC(args[skipped ? 2 : 3], &cfg)) < 0) {
        return oa_py_parse_failed(qual);
    }
    stale |= st;
    if (stale) {
        return PyLong_FromLong(ACL_ERROR_INVALID_PARAM);
    }
    codec_send *w = codec_send_new(qual, d, args[nargs - 1]);
    if (w == NULL) {
        return NULL;
    }
    const int eos = in != NULL && acldvppGetStreamDescEos(in) != 0; /* ends the stream: no callback of its own */
    PyThreadState *ts = PyEval_SaveThread();
    const aclError ret = skipped ? aclvdecSendSkippedFrame(d, in, cfg, w) : aclvdecSendFrame(d, in, out, cfg, w);
    PyEval_RestoreThread(ts);
    if (ret != ACL_SUCCESS || eos) {
        codec_send_free(w);
    }
    return PyLong_FromLong(ret);
}

/* venc_send_frame(channel_desc, input, reserve, config, user_data) -> ret */
static PyObject *w_venc_send_frame(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    static const char qual[] = "acl.media.venc_send_frame";
    aclvencChannelDesc *d = NULL;
    acldvppPicDesc *in = NULL;
    void *reserve = NULL;
    aclvencFrameConfig *cfg = NULL;
    if (nargs != 5) {
        return oa_py_parse_failed(qual);
    }
    int st, stale = 0;
    if ((st = oa_in_H_VENCCH(args[0], &d)) < 0) {
        return oa_py_parse_failed(qual);
    }
    stale |= st;
    if ((st = oa_in_H_PICDESC(args[1], &in)) < 0 || oa_in_PTR(args[2], &reserve) != 0) {
        return oa_py_parse_failed(qual);
    }
    stale |= st;
    if ((st = oa_in_H_VENCFC(args[3], &cfg)) < 0) {
        return oa_py_parse_failed(qual);
    }
    stale |= st;
    if (stale) {
        return PyLong_FromLong(ACL_ERROR_INVALID_PARAM);
    }
    codec_send *w = codec_send_new(qual, d, args[4]);
    if (w == NULL) {
        return NULL;
    }
    const int eos = cfg != NULL && aclvencGetFrameConfigEos(cfg) != 0;
    PyThreadState *ts = PyEval_SaveThread();
    const aclError ret = aclvencSendFrame(d, in, reserve, cfg, w);
    PyEval_RestoreThread(ts);
    if (ret != ACL_SUCCESS || eos) {
        codec_send_free(w);
    }
    return PyLong_FromLong(ret);
}

/* {vdec,venc}_destroy_channel(desc) -> ret: drains the channel (its callbacks need this GIL) */
static PyObject *codec_destroy_channel(const char *qual, int venc, PyObject *const *args, Py_ssize_t nargs)
{
    void *d = NULL;
    if (nargs != 1) {
        return oa_py_parse_failed(qual);
    }
    const int st = venc ? oa_in_H_VENCCH(args[0], (aclvencChannelDesc **)&d)
                        : oa_in_H_VDECCH(args[0], (aclvdecChannelDesc **)&d);
    if (st < 0) {
        return oa_py_parse_failed(qual);
    }
    if (st > 0) {
        return PyLong_FromLong(ACL_ERROR_INVALID_PARAM);
    }
    PyThreadState *ts = PyEval_SaveThread();
    const aclError ret = venc ? aclvencDestroyChannel(d) : aclvdecDestroyChannel(d);
    PyEval_RestoreThread(ts);
    return PyLong_FromLong(ret);
}

/* The byte length of a channel-description parameter: the key's suffix (UINT32, UINT64, PTR). */
static size_t codec_param_len(int venc, int32_t type)
{
    if (venc) {
        return type == ACL_VENC_THREAD_ID_UINT64 || type == ACL_VENC_BUF_ADDR_PTR ? 8 : 4;
    }
    return 4;
}

/* vdec_set_channel_desc_param(desc, type, value) -> (desc, ret) (pyACL's shape);
   venc_set_channel_desc_param(desc, type, value) -> ret. The callback key is refused (use the
   set_channel_desc_callback functions: a Python int is no function). */
static PyObject *codec_set_param(const char *qual, int venc, PyObject *const *args, Py_ssize_t nargs)
{
    void *d = NULL;
    int32_t type = 0;
    uint64_t u = 0;
    if (nargs != 3 || oa_in_I32(args[1], &type) != 0 || oa_py_u64_mask(args[2], &u) != 0) {
        return oa_py_parse_failed(qual);
    }
    const int st = venc ? oa_in_H_VENCCH(args[0], (aclvencChannelDesc **)&d)
                        : oa_in_H_VDECCH(args[0], (aclvdecChannelDesc **)&d);
    if (st < 0) {
        return oa_py_parse_failed(qual);
    }
    aclError ret = ACL_ERROR_INVALID_PARAM;
    if (st == 0 && !(venc && type == ACL_VENC_CALLBACK_PTR)) {
        const size_t len = codec_param_len(venc, type);
        uint32_t w = (uint32_t)u;
        const void *p = len == 8 ? (const void *)&u : (const void *)&w;
        ret = venc ? aclvencSetChannelDescParam(d, (aclvencChannelDescParamType)type, len, p)
                   : aclvdecSetChannelDescParam(d, (aclvdecChannelDescParamType)type, len, p);
    }
    if (venc) {
        return PyLong_FromLong(ret);
    }
    return Py_BuildValue("Ki", (unsigned long long)(uintptr_t)d, ret);
}

/* {vdec,venc}_get_channel_desc_param(desc, type) -> (value, ret) */
static PyObject *codec_get_param(const char *qual, int venc, PyObject *const *args, Py_ssize_t nargs)
{
    void *d = NULL;
    int32_t type = 0;
    if (nargs != 2 || oa_in_I32(args[1], &type) != 0) {
        return oa_py_parse_failed(qual);
    }
    const int st = venc ? oa_in_H_VENCCH(args[0], (aclvencChannelDesc **)&d)
                        : oa_in_H_VDECCH(args[0], (aclvdecChannelDesc **)&d);
    if (st < 0) {
        return oa_py_parse_failed(qual);
    }
    uint64_t v = 0;
    size_t got = 0;
    aclError ret = ACL_ERROR_INVALID_PARAM;
    if (st == 0 && !(venc && type == ACL_VENC_CALLBACK_PTR)) {
        ret = venc ? aclvencGetChannelDescParam(d, (aclvencChannelDescParamType)type, sizeof v, &got, &v)
                   : aclvdecGetChannelDescParam(d, (aclvdecChannelDescParamType)type, sizeof v, &got, &v);
    }
    if (ret == ACL_SUCCESS && got == 4) {
        uint32_t w;
        memcpy(&w, &v, sizeof w);
        v = w;
    }
    return Py_BuildValue("Ki", (unsigned long long)v, ret);
}

/* {vdec,venc}_destroy_channel_desc(desc) -> ret; the description's callable is dropped with it */
static PyObject *codec_destroy_desc(const char *qual, int venc, PyObject *const *args, Py_ssize_t nargs)
{
    void *d = NULL;
    if (nargs != 1) {
        return oa_py_parse_failed(qual);
    }
    const int st = venc ? oa_in_D_VENCCH(args[0], (aclvencChannelDesc **)&d)
                        : oa_in_D_VDECCH(args[0], (aclvdecChannelDesc **)&d);
    if (st < 0) {
        return oa_py_parse_failed(qual);
    }
    if (st > 0) {
        return PyLong_FromLong(ACL_ERROR_INVALID_PARAM);
    }
    const aclError ret = venc ? aclvencDestroyChannelDesc(d) : aclvdecDestroyChannelDesc(d);
    if (ret == ACL_SUCCESS && d != NULL) {
        oa_py_h_del(d);
        PyObject *k = oa_py_ptr(d);
        if (k != NULL && g_codec_fns != NULL && PyDict_DelItem(g_codec_fns, k) != 0) {
            PyErr_Clear(); /* no callable was set */
        }
        Py_XDECREF(k);
    }
    return PyLong_FromLong(ret);
}

/* dvpp_set_channel_desc_param(desc, type, value) -> (desc, ret) and dvpp_get_channel_desc_param(desc, type)
   -> (value, ret), pyACL's shapes; every key is a uint32 */
static PyObject *w_dvpp_set_channel_desc_param(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    static const char qual[] = "acl.media.dvpp_set_channel_desc_param";
    acldvppChannelDesc *d = NULL;
    int32_t type = 0;
    uint64_t u = 0;
    if (nargs != 3 || oa_in_I32(args[1], &type) != 0 || oa_py_u64_mask(args[2], &u) != 0) {
        return oa_py_parse_failed(qual);
    }
    const int st = oa_in_H_CHDESC(args[0], &d);
    if (st < 0) {
        return oa_py_parse_failed(qual);
    }
    const uint32_t w = (uint32_t)u;
    const aclError ret = st == 0 ? acldvppSetChannelDescParam(d, (acldvppChannelDescParamType)type, sizeof w, &w)
                                 : ACL_ERROR_INVALID_PARAM;
    return Py_BuildValue("Ki", (unsigned long long)(uintptr_t)d, ret);
}

static PyObject *w_dvpp_get_channel_desc_param(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    static const char qual[] = "acl.media.dvpp_get_channel_desc_param";
    acldvppChannelDesc *d = NULL;
    int32_t type = 0;
    if (nargs != 2 || oa_in_I32(args[1], &type) != 0) {
        return oa_py_parse_failed(qual);
    }
    const int st = oa_in_H_CHDESC(args[0], &d);
    if (st < 0) {
        return oa_py_parse_failed(qual);
    }
    uint64_t v = 0;
    size_t got = 0;
    const size_t len = type == ACL_DVPP_CHANNEL_ID_UINT64 ? 8 : 4; /* the key's type size */
    const aclError ret = st == 0 ? acldvppGetChannelDescParam(d, (acldvppChannelDescParamType)type, len, &got, &v)
                                 : ACL_ERROR_INVALID_PARAM;
    if (ret == ACL_SUCCESS && got == 4) {
        uint32_t w;
        memcpy(&w, &v, sizeof w);
        v = w;
    }
    return Py_BuildValue("Ki", (unsigned long long)(ret == ACL_SUCCESS ? v : 0), ret);
}

#define CODEC_WRAPPER(fn, impl, name, venc)                                                                            \
    static PyObject *fn(PyObject *self, PyObject *const *args, Py_ssize_t nargs)                                       \
    {                                                                                                                  \
        (void)self;                                                                                                    \
        return impl("acl.media." name, venc, args, nargs);                                                             \
    }
CODEC_WRAPPER(w_vdec_set_cb, codec_set_callback, "vdec_set_channel_desc_callback", 0)
CODEC_WRAPPER(w_venc_set_cb, codec_set_callback, "venc_set_channel_desc_callback", 1)
CODEC_WRAPPER(w_vdec_get_cb, codec_get_callback, "vdec_get_channel_desc_callback", 0)
CODEC_WRAPPER(w_venc_get_cb, codec_get_callback, "venc_get_channel_desc_callback", 1)
CODEC_WRAPPER(w_vdec_send_frame, vdec_send, "vdec_send_frame", 0)
CODEC_WRAPPER(w_vdec_send_skipped, vdec_send, "vdec_send_skipped_frame", 1)
CODEC_WRAPPER(w_vdec_destroy_channel, codec_destroy_channel, "vdec_destroy_channel", 0)
CODEC_WRAPPER(w_venc_destroy_channel, codec_destroy_channel, "venc_destroy_channel", 1)
CODEC_WRAPPER(w_vdec_destroy_desc, codec_destroy_desc, "vdec_destroy_channel_desc", 0)
CODEC_WRAPPER(w_venc_destroy_desc, codec_destroy_desc, "venc_destroy_channel_desc", 1)
CODEC_WRAPPER(w_vdec_set_param, codec_set_param, "vdec_set_channel_desc_param", 0)
CODEC_WRAPPER(w_venc_set_param, codec_set_param, "venc_set_channel_desc_param", 1)
CODEC_WRAPPER(w_vdec_get_param, codec_get_param, "vdec_get_channel_desc_param", 0)
CODEC_WRAPPER(w_venc_get_param, codec_get_param, "venc_get_channel_desc_param", 1)

static PyMethodDef g_media_methods[] = {
    MEDIA_TABLE(OA_METHOD)
    {"dvpp_get_pic_desc", OA_FASTCALL(w_dvpp_get_pic_desc), METH_FASTCALL, NULL},
    {"dvpp_vpc_batch_crop_async", OA_FASTCALL(w_batch_crop), METH_FASTCALL, NULL},
    {"dvpp_vpc_batch_crop_resize_async", OA_FASTCALL(w_batch_crop_resize), METH_FASTCALL, NULL},
    {"dvpp_vpc_batch_crop_and_paste_async", OA_FASTCALL(w_batch_crop_paste), METH_FASTCALL, NULL},
    {"dvpp_vpc_batch_crop_resize_paste_async", OA_FASTCALL(w_batch_crop_resize_paste), METH_FASTCALL, NULL},
    {"dvpp_vpc_batch_crop_resize_make_border_async", OA_FASTCALL(w_batch_crop_resize_border), METH_FASTCALL, NULL},
    {"vdec_set_channel_desc_callback", OA_FASTCALL(w_vdec_set_cb), METH_FASTCALL, NULL},
    {"venc_set_channel_desc_callback", OA_FASTCALL(w_venc_set_cb), METH_FASTCALL, NULL},
    {"vdec_get_channel_desc_callback", OA_FASTCALL(w_vdec_get_cb), METH_FASTCALL, NULL},
    {"venc_get_channel_desc_callback", OA_FASTCALL(w_venc_get_cb), METH_FASTCALL, NULL},
    {"vdec_send_frame", OA_FASTCALL(w_vdec_send_frame), METH_FASTCALL, NULL},
    {"vdec_send_skipped_frame", OA_FASTCALL(w_vdec_send_skipped), METH_FASTCALL, NULL},
    {"venc_send_frame", OA_FASTCALL(w_venc_send_frame), METH_FASTCALL, NULL},
    {"vdec_destroy_channel", OA_FASTCALL(w_vdec_destroy_channel), METH_FASTCALL, NULL},
    {"venc_destroy_channel", OA_FASTCALL(w_venc_destroy_channel), METH_FASTCALL, NULL},
    {"dvpp_set_channel_desc_param", OA_FASTCALL(w_dvpp_set_channel_desc_param), METH_FASTCALL, NULL},
    {"dvpp_get_channel_desc_param", OA_FASTCALL(w_dvpp_get_channel_desc_param), METH_FASTCALL, NULL},
    {"vdec_destroy_channel_desc", OA_FASTCALL(w_vdec_destroy_desc), METH_FASTCALL, NULL},
    {"venc_destroy_channel_desc", OA_FASTCALL(w_venc_destroy_desc), METH_FASTCALL, NULL},
    {"vdec_set_channel_desc_param", OA_FASTCALL(w_vdec_set_param), METH_FASTCALL, NULL},
    {"venc_set_channel_desc_param", OA_FASTCALL(w_venc_set_param), METH_FASTCALL, NULL},
    {"vdec_get_channel_desc_param", OA_FASTCALL(w_vdec_get_param), METH_FASTCALL, NULL},
    {"venc_get_channel_desc_param", OA_FASTCALL(w_venc_get_param), METH_FASTCALL, NULL},
    {NULL, NULL, 0, NULL},
};

PyMethodDef *oa_py_media_methods(void)
{
    return g_media_methods;
}
