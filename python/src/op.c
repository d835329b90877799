/*
 * acl.op: single operators (acl_op.h, acl_op_compiler.h) and acl.blas
 * (acl/ops/acl_cblas.h). Tensor descriptions and data buffers are passed as
 * Python lists of handles, in pyACL's argument order. Execution and
 * compilation release the GIL.
 */
#include <stdlib.h>

#include "acl/acl_dump.h"
#include "acl/acl_op_compiler.h"
#include "acl/ops/acl_cblas.h"
#include "pyacl.h"

/* aclopExecute and aclopCompileAndExecute are deprecated in C but part of pyACL's surface */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

#define OA_MOD "acl.op"

#define OP_TABLE(X, XV)                                                                                                \
    X("set_model_dir", NOGIL, ERR, aclopSetModelDir, (IN, STR))                                                        \
    X("load", NOGIL, ERR, aclopLoad, (IN, PTR), (IN, LEN))                                                             \
    X("cast", NOGIL, ERR, aclopCast, (IN, H_TDESC), (IN, H_BUF), (IN, H_TDESC), (IN, H_BUF), (IN, U8), (IN, PTR))      \
    X("create_handle_for_cast", NOGIL, ERR, aclopCreateHandleForCast, (IN, H_TDESC), (IN, H_TDESC), (IN, U8),          \
      (OUT, H_OPH))                                                                                                    \
    X("create_attr", GIL, H_ATTR, aclopCreateAttr, NOARGS)                                                             \
    XV("destroy_attr", GIL, aclopDestroyAttr, (IN, D_ATTR))                                                            \
    X("set_attr_bool", GIL, ERR, aclopSetAttrBool, (IN, H_ATTR), (IN, STR), (IN, U8))                                  \
    X("set_attr_int", GIL, ERR, aclopSetAttrInt, (IN, H_ATTR), (IN, STR), (IN, I64))                                   \
    X("set_attr_float", GIL, ERR, aclopSetAttrFloat, (IN, H_ATTR), (IN, STR), (IN, F32))                               \
    X("set_attr_string", GIL, ERR, aclopSetAttrString, (IN, H_ATTR), (IN, STR), (IN, STR))                             \
    XV("destroy_handle", GIL, aclopDestroyHandle, (IN, D_OPH))                                                         \
    X("set_max_op_queue_num", GIL, ERR, aclopSetMaxOpQueueNum, (IN, U64))                                              \
    X("start_dump_args", GIL, ERR, aclopStartDumpArgs, (IN, U32), (IN, STR))                                           \
    X("stop_dump_args", GIL, ERR, aclopStopDumpArgs, (IN, U32))                                                        \
    X("set_compile_flag", GIL, ERR, aclopSetCompileFlag, (IN, I32))

OP_TABLE(OA_DEFINE, OA_DEFINE_VOID)

/* Lists of handles parsed for one call; freed by lists_free. */
typedef struct lists {
    void **v[4];
    int n[4];
} lists;

static void lists_free(lists *l)
{
    for (int i = 0; i < 4; ++i) {
        free(l->v[i]);
    }
}

/* Parses args[first..first+count) as handle lists of the given kinds: 0 ok, 1 stale, -1 type error, -2 raised. */
static int parse_lists(PyObject *const *args, int first, int count, const oa_py_hkind *kinds, lists *l)
{
    memset(l, 0, sizeof(*l));
    int stale = 0;
    for (int i = 0; i < count; ++i) {
        const int st = oa_py_ptr_list(args[first + i], kinds[i], &l->v[i], &l->n[i]);
        if (st < 0) {
            lists_free(l);
            return st;
        }
        stale |= st;
    }
    return stale;
}

static PyObject *lists_failed(int st, const char *qual)
{
    return st == -2 ? NULL : oa_py_parse_failed(qual);
}

static const oa_py_hkind k_exec[4] = {OA_HK_TDESC, OA_HK_BUF, OA_HK_TDESC, OA_HK_BUF};

typedef struct exec_args {
    const char *op;
    aclopAttr *attr;
    void *stream;
    lists l;
    int stale;
} exec_args;

/* (op_type, in_descs, in_bufs, out_descs, out_bufs, attr, stream): NULL when parsing raised */
static int parse_exec(PyObject *const *args, Py_ssize_t nargs, const char *qual, exec_args *e)
{
    memset(e, 0, sizeof(*e));
    int s = 0;
    if (nargs != 7 || oa_in_STR(args[0], &e->op) != 0 || (s = oa_in_H_ATTR(args[5], &e->attr)) < 0 ||
        oa_in_PTR(args[6], &e->stream) != 0) {
        oa_py_parse_failed(qual);
        return -1;
    }
    const int st = parse_lists(args, 1, 4, k_exec, &e->l);
    if (st < 0) {
        lists_failed(st, qual);
        return -1;
    }
    e->stale = s | st;
    return 0;
}

/* execute(op_type, in_descs, in_bufs, out_descs, out_bufs, attr, stream) -> ret */
static PyObject *w_execute(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    exec_args e;
    if (parse_exec(args, nargs, "acl.op.execute", &e) != 0) {
        return NULL;
    }
    aclError ret = ACL_ERROR_INVALID_PARAM;
    if (!e.stale) {
        PyThreadState *ts = PyEval_SaveThread();
        ret = aclopExecute(e.op, e.l.n[1], (const aclTensorDesc *const *)e.l.v[0],
                           (const aclDataBuffer *const *)e.l.v[1],
                           e.l.n[3], (const aclTensorDesc *const *)e.l.v[2], (aclDataBuffer *const *)e.l.v[3], e.attr,
                           e.stream);
        PyEval_RestoreThread(ts);
    }
    lists_free(&e.l);
    return PyLong_FromLong(ret);
}

/* execute_v2(...) -> ret (same arguments; the library may update the output descriptions) */
static PyObject *w_execute_v2(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    exec_args e;
    if (parse_exec(args, nargs, "acl.op.execute_v2", &e) != 0) {
        return NULL;
    }
    aclError ret = ACL_ERROR_INVALID_PARAM;
    if (!e.stale) {
        PyThreadState *ts = PyEval_SaveThread();
        ret = aclopExecuteV2(e.op, e.l.n[1], (aclTensorDesc **)e.l.v[0], (aclDataBuffer **)e.l.v[1], e.l.n[3],
                             (aclTensorDesc **)e.l.v[2], (aclDataBuffer **)e.l.v[3], e.attr, e.stream);
        PyEval_RestoreThread(ts);
    }
    lists_free(&e.l);
    return PyLong_FromLong(ret);
}

/* compile_and_execute(op_type, in_descs, in_bufs, out_descs, out_bufs, attr, engine, compile_flag, op_path, stream) */
static PyObject *compile_and_execute(PyObject *const *args, Py_ssize_t nargs, const char *qual, int v2)
{
    int32_t engine = 0, flag = 0;
    const char *path = NULL;
    if (nargs != 10 || oa_in_I32(args[6], &engine) != 0 || oa_in_I32(args[7], &flag) != 0 ||
        oa_in_STRZ(args[8], &path) != 0) {
        return oa_py_parse_failed(qual);
    }
    PyObject *six[7] = {args[0], args[1], args[2], args[3], args[4], args[5], args[9]};
    exec_args e;
    if (parse_exec(six, 7, qual, &e) != 0) {
        return NULL;
    }
    aclError ret = ACL_ERROR_INVALID_PARAM;
    if (!e.stale) {
        PyThreadState *ts = PyEval_SaveThread();
        if (v2) {
            ret = aclopCompileAndExecuteV2(e.op, e.l.n[1], (aclTensorDesc **)e.l.v[0], (aclDataBuffer **)e.l.v[1],
                                           e.l.n[3], (aclTensorDesc **)e.l.v[2], (aclDataBuffer **)e.l.v[3], e.attr,
                                           (aclopEngineType)engine, (aclopCompileType)flag, path, e.stream);
        } else {
            ret = aclopCompileAndExecute(e.op, e.l.n[1], (const aclTensorDesc *const *)e.l.v[0],
                                         (const aclDataBuffer *const *)e.l.v[1], e.l.n[3],
                                         (const aclTensorDesc *const *)e.l.v[2], (aclDataBuffer *const *)e.l.v[3],
                                         e.attr, (aclopEngineType)engine, (aclopCompileType)flag, path, e.stream);
        }
        PyEval_RestoreThread(ts);
    }
    lists_free(&e.l);
    return PyLong_FromLong(ret);
}

static PyObject *w_compile_and_execute(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    return compile_and_execute(args, nargs, "acl.op.compile_and_execute", 0);
}

static PyObject *w_compile_and_execute_v2(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    return compile_and_execute(args, nargs, "acl.op.compile_and_execute_v2", 1);
}

/* compile(op_type, in_descs, out_descs, attr, engine, compile_flag, op_path) -> ret */
static PyObject *w_compile(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    static const char qual[] = "acl.op.compile";
    const char *op = NULL, *path = NULL;
    aclopAttr *attr = NULL;
    int32_t engine = 0, flag = 0;
    int s = 0;
    if (nargs != 7 || oa_in_STR(args[0], &op) != 0 || (s = oa_in_H_ATTR(args[3], &attr)) < 0 ||
        oa_in_I32(args[4], &engine) != 0 || oa_in_I32(args[5], &flag) != 0 || oa_in_STRZ(args[6], &path) != 0) {
        return oa_py_parse_failed(qual);
    }
    static const oa_py_hkind kinds[2] = {OA_HK_TDESC, OA_HK_TDESC};
    lists l;
    const int st = parse_lists(args, 1, 2, kinds, &l);
    if (st < 0) {
        return lists_failed(st, qual);
    }
    aclError ret = ACL_ERROR_INVALID_PARAM;
    if (!s && !st) {
        PyThreadState *ts = PyEval_SaveThread();
        ret = aclopCompile(op, l.n[0], (const aclTensorDesc *const *)l.v[0], l.n[1],
                           (const aclTensorDesc *const *)l.v[1], attr, (aclopEngineType)engine,
                           (aclopCompileType)flag, path);
        PyEval_RestoreThread(ts);
    }
    lists_free(&l);
    return PyLong_FromLong(ret);
}

/* create_handle(op_type, in_descs, out_descs, attr) -> (handle, ret) */
static PyObject *w_create_handle(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    static const char qual[] = "acl.op.create_handle";
    const char *op = NULL;
    aclopAttr *attr = NULL;
    int s = 0;
    if (nargs != 4 || oa_in_STR(args[0], &op) != 0 || (s = oa_in_H_ATTR(args[3], &attr)) < 0) {
        return oa_py_parse_failed(qual);
    }
    static const oa_py_hkind kinds[2] = {OA_HK_TDESC, OA_HK_TDESC};
    lists l;
    const int st = parse_lists(args, 1, 2, kinds, &l);
    if (st < 0) {
        return lists_failed(st, qual);
    }
    aclopHandle *h = NULL;
    aclError ret = ACL_ERROR_INVALID_PARAM;
    if (!s && !st) {
        PyThreadState *ts = PyEval_SaveThread();
        ret = aclopCreateHandle(op, l.n[0], (const aclTensorDesc *const *)l.v[0], l.n[1],
                                (const aclTensorDesc *const *)l.v[1], attr, &h);
        PyEval_RestoreThread(ts);
    }
    lists_free(&l);
    return Py_BuildValue("Ni", oa_out_H_OPH(ret == ACL_SUCCESS ? h : NULL), ret);
}

/* execute_with_handle(handle, in_bufs, out_bufs, stream) -> ret */
static PyObject *w_execute_with_handle(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    static const char qual[] = "acl.op.execute_with_handle";
    aclopHandle *h = NULL;
    void *stream = NULL;
    int s = 0;
    if (nargs != 4 || (s = oa_in_H_OPH(args[0], &h)) < 0 || oa_in_PTR(args[3], &stream) != 0) {
        return oa_py_parse_failed(qual);
    }
    static const oa_py_hkind kinds[2] = {OA_HK_BUF, OA_HK_BUF};
    lists l;
    const int st = parse_lists(args, 1, 2, kinds, &l);
    if (st < 0) {
        return lists_failed(st, qual);
    }
    aclError ret = ACL_ERROR_INVALID_PARAM;
    if (!s && !st) {
        PyThreadState *ts = PyEval_SaveThread();
        ret = aclopExecWithHandle(h, l.n[0], (const aclDataBuffer *const *)l.v[0], l.n[1],
                                  (aclDataBuffer *const *)l.v[1], stream);
        PyEval_RestoreThread(ts);
    }
    lists_free(&l);
    return PyLong_FromLong(ret);
}

/* infer_shape(op_type, in_descs, in_bufs, num_outputs, out_descs, attr) -> ret */
static PyObject *w_infer_shape(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    static const char qual[] = "acl.op.infer_shape";
    const char *op = NULL;
    aclopAttr *attr = NULL;
    int32_t nout = 0;
    int s = 0;
    if (nargs != 6 || oa_in_STR(args[0], &op) != 0 || oa_in_I32(args[3], &nout) != 0 ||
        (s = oa_in_H_ATTR(args[5], &attr)) < 0) {
        return oa_py_parse_failed(qual);
    }
    PyObject *three[3] = {args[1], args[2], args[4]};
    static const oa_py_hkind kinds[3] = {OA_HK_TDESC, OA_HK_BUF, OA_HK_TDESC};
    lists l;
    const int st = parse_lists(three, 0, 3, kinds, &l);
    if (st < 0) {
        return lists_failed(st, qual);
    }
    aclError ret = ACL_ERROR_INVALID_PARAM;
    if (!s && !st && nout <= l.n[2]) {
        ret = aclopInferShape(op, l.n[1], (aclTensorDesc **)l.v[0], (aclDataBuffer **)l.v[1], nout,
                              (aclTensorDesc **)l.v[2], attr);
    }
    lists_free(&l);
    return PyLong_FromLong(ret);
}

/* update_params(op_type, in_descs, out_descs, attr) -> ret */
static PyObject *w_update_params(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    static const char qual[] = "acl.op.update_params";
    const char *op = NULL;
    aclopAttr *attr = NULL;
    int s = 0;
    if (nargs != 4 || oa_in_STR(args[0], &op) != 0 || (s = oa_in_H_ATTR(args[3], &attr)) < 0) {
        return oa_py_parse_failed(qual);
    }
    static const oa_py_hkind kinds[2] = {OA_HK_TDESC, OA_HK_TDESC};
    lists l;
    const int st = parse_lists(args, 1, 2, kinds, &l);
    if (st < 0) {
        return lists_failed(st, qual);
    }
    aclError ret = ACL_ERROR_INVALID_PARAM;
    if (!s && !st) {
        ret = aclopUpdateParams(op, l.n[0], (const aclTensorDesc *const *)l.v[0], l.n[1],
                                (const aclTensorDesc *const *)l.v[1], attr);
    }
    lists_free(&l);
    return PyLong_FromLong(ret);
}

/* ---- list attributes: set_attr_list_*(attr, name, values: list) ---- */

typedef struct attr_args {
    aclopAttr *attr;
    const char *name;
    PyObject *seq; /* PySequence_Fast of the values */
    Py_ssize_t n;
    int stale;
} attr_args;

static int parse_attr_list(PyObject *const *args, Py_ssize_t nargs, const char *qual, attr_args *a)
{
    memset(a, 0, sizeof(*a));
    if (nargs != 3 || (a->stale = oa_in_H_ATTR(args[0], &a->attr)) < 0 || oa_in_STR(args[1], &a->name) != 0 ||
        !(PyList_Check(args[2]) || PyTuple_Check(args[2]))) {
        oa_py_parse_failed(qual);
        return -1;
    }
    a->seq = PySequence_Fast(args[2], "");
    if (a->seq == NULL) {
        return -1;
    }
    a->n = PySequence_Fast_GET_SIZE(a->seq);
    if (a->n > INT32_MAX) {
        Py_CLEAR(a->seq);
        oa_py_parse_failed(qual);
        return -1;
    }
    return 0;
}

#define ATTR_LIST_WRAPPER(pyname, ctype, KIND, call)                                                                   \
    static PyObject *w_##pyname(PyObject *self, PyObject *const *args, Py_ssize_t nargs)                               \
    {                                                                                                                  \
        (void)self;                                                                                                    \
        static const char qual[] = "acl.op." #pyname;                                                                  \
        attr_args a;                                                                                                   \
        if (parse_attr_list(args, nargs, qual, &a) != 0) {                                                             \
            return NULL;                                                                                               \
        }                                                                                                              \
        ctype *v = calloc((size_t)a.n + 1, sizeof(ctype));                                                             \
        if (v == NULL) {                                                                                               \
            Py_DECREF(a.seq);                                                                                          \
            return PyErr_NoMemory();                                                                                   \
        }                                                                                                              \
        for (Py_ssize_t i = 0; i < a.n; ++i) {                                                                         \
            oa_t_##KIND x;                                                                                             \
            if (oa_in_##KIND(PySequence_Fast_GET_ITEM(a.seq, i), &x) != 0) {                                           \
                free(v);                                                                                               \
                Py_DECREF(a.seq);                                                                                      \
                return oa_py_parse_failed(qual);                                                                       \
            }                                                                                                          \
            v[i] = (ctype)x;                                                                                           \
        }                                                                                                              \
        const aclError ret = a.stale ? ACL_ERROR_INVALID_PARAM : (call);                                               \
        free(v);                                                                                                       \
        Py_DECREF(a.seq);                                                                                              \
        return PyLong_FromLong(ret);                                                                                   \
    }

ATTR_LIST_WRAPPER(set_attr_list_bool, uint8_t, U8, aclopSetAttrListBool(a.attr, a.name, (int)a.n, v))
ATTR_LIST_WRAPPER(set_attr_list_int, int64_t, I64, aclopSetAttrListInt(a.attr, a.name, (int)a.n, v))
ATTR_LIST_WRAPPER(set_attr_list_float, float, F32, aclopSetAttrListFloat(a.attr, a.name, (int)a.n, v))
ATTR_LIST_WRAPPER(set_attr_list_string, const char *, STR,
                  aclopSetAttrListString(a.attr, a.name, (int)a.n, (const char **)v))

/* set_attr_list_data_type(attr, name, [dtype...]) -> (attr, ret) (pyACL's result) */
static PyObject *w_set_attr_list_data_type(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    static const char qual[] = "acl.op.set_attr_list_data_type";
    attr_args a;
    if (parse_attr_list(args, nargs, qual, &a) != 0) {
        return NULL;
    }
    aclDataType *v = calloc((size_t)a.n + 1, sizeof(aclDataType));
    if (v == NULL) {
        Py_DECREF(a.seq);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < a.n; ++i) {
        int32_t x = 0;
        if (oa_in_I32(PySequence_Fast_GET_ITEM(a.seq, i), &x) != 0) {
            free(v);
            Py_DECREF(a.seq);
            return oa_py_parse_failed(qual);
        }
        v[i] = (aclDataType)x;
    }
    const aclError ret = a.stale ? ACL_ERROR_INVALID_PARAM : aclopSetAttrListDataType(a.attr, a.name, (int)a.n, v);
    free(v);
    Py_DECREF(a.seq);
    return Py_BuildValue("Ni", oa_py_ptr(a.attr), ret);
}

/* set_attr_data_type(attr, name, dtype) -> (attr, ret) (pyACL's result) */
static PyObject *w_set_attr_data_type(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    aclopAttr *attr = NULL;
    const char *name = NULL;
    int32_t dt = 0;
    int s = 0;
    if (nargs != 3 || (s = oa_in_H_ATTR(args[0], &attr)) < 0 || oa_in_STR(args[1], &name) != 0 ||
        oa_in_I32(args[2], &dt) != 0) {
        return oa_py_parse_failed("acl.op.set_attr_data_type");
    }
    const aclError ret = s ? ACL_ERROR_INVALID_PARAM : aclopSetAttrDataType(attr, name, (aclDataType)dt);
    return Py_BuildValue("Ni", oa_py_ptr(attr), ret);
}

/* set_attr_list_list_int(attr, name, [[int...]...]) -> ret */
static PyObject *w_set_attr_list_list_int(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    static const char qual[] = "acl.op.set_attr_list_list_int";
    attr_args a;
    if (parse_attr_list(args, nargs, qual, &a) != 0) {
        return NULL;
    }
    int64_t **rows = calloc((size_t)a.n + 1, sizeof(int64_t *));
    int *counts = calloc((size_t)a.n + 1, sizeof(int));
    PyObject *ret_obj = NULL;
    if (rows == NULL || counts == NULL) {
        ret_obj = PyErr_NoMemory();
        goto out;
    }
    for (Py_ssize_t i = 0; i < a.n; ++i) {
        const int st = oa_py_i64_list(PySequence_Fast_GET_ITEM(a.seq, i), &rows[i], &counts[i]);
        if (st != 0) {
            ret_obj = st == -2 ? NULL : oa_py_parse_failed(qual);
            goto out;
        }
    }
    ret_obj = PyLong_FromLong(a.stale ? ACL_ERROR_INVALID_PARAM
                                      : aclopSetAttrListListInt(a.attr, a.name, (int)a.n, counts,
                                                                (const int64_t *const *)rows));
out:
    for (Py_ssize_t i = 0; rows != NULL && i < a.n; ++i) {
        free(rows[i]);
    }
    free(rows);
    free(counts);
    Py_DECREF(a.seq);
    return ret_obj;
}

static PyMethodDef g_methods[] = {
    OP_TABLE(OA_METHOD, OA_METHOD_VOID){"execute", OA_FASTCALL(w_execute), METH_FASTCALL, NULL},
    {"execute_v2", OA_FASTCALL(w_execute_v2), METH_FASTCALL, NULL},
    {"compile", OA_FASTCALL(w_compile), METH_FASTCALL, NULL},
    {"compile_and_execute", OA_FASTCALL(w_compile_and_execute), METH_FASTCALL, NULL},
    {"compile_and_execute_v2", OA_FASTCALL(w_compile_and_execute_v2), METH_FASTCALL, NULL},
    {"create_handle", OA_FASTCALL(w_create_handle), METH_FASTCALL, NULL},
    {"execute_with_handle", OA_FASTCALL(w_execute_with_handle), METH_FASTCALL, NULL},
    {"infer_shape", OA_FASTCALL(w_infer_shape), METH_FASTCALL, NULL},
    {"update_params", OA_FASTCALL(w_update_params), METH_FASTCALL, NULL},
    {"set_attr_list_bool", OA_FASTCALL(w_set_attr_list_bool), METH_FASTCALL, NULL},
    {"set_attr_list_int", OA_FASTCALL(w_set_attr_list_int), METH_FASTCALL, NULL},
    {"set_attr_list_float", OA_FASTCALL(w_set_attr_list_float), METH_FASTCALL, NULL},
    {"set_attr_list_string", OA_FASTCALL(w_set_attr_list_string), METH_FASTCALL, NULL},
    {"set_attr_list_data_type", OA_FASTCALL(w_set_attr_list_data_type), METH_FASTCALL, NULL},
    {"set_attr_data_type", OA_FASTCALL(w_set_attr_data_type), METH_FASTCALL, NULL},
    {"set_attr_list_list_int", OA_FASTCALL(w_set_attr_list_list_int), METH_FASTCALL, NULL},
    {NULL, NULL, 0, NULL},
};

PyMethodDef *oa_py_op_methods(void)
{
    return g_methods;
}

/* ---- acl.blas: every argument an int (pointers are device addresses), pyACL's order = C's order ---- */

#undef OA_MOD
#define OA_MOD "acl.blas"

#define BLAS_TABLE(X)                                                                                                  \
    X("gemv_ex", NOGIL, ERR, aclblasGemvEx, (IN, I32), (IN, I32), (IN, I32), (IN, PTR), (IN, PTR), (IN, I32),          \
      (IN, I32), (IN, PTR), (IN, I32), (IN, I32), (IN, PTR), (IN, PTR), (IN, I32), (IN, I32), (IN, I32), (IN, PTR))    \
    X("create_handle_for_gemv_ex", NOGIL, ERR, aclblasCreateHandleForGemvEx, (IN, I32), (IN, I32), (IN, I32),          \
      (IN, I32), (IN, I32), (IN, I32), (IN, I32), (OUT, H_OPH))                                                        \
    X("hgemv", NOGIL, ERR, aclblasHgemv, (IN, I32), (IN, I32), (IN, I32), (IN, PTR), (IN, PTR), (IN, I32), (IN, PTR),  \
      (IN, I32), (IN, PTR), (IN, PTR), (IN, I32), (IN, I32), (IN, PTR))                                                \
    X("create_handle_for_hgemv", NOGIL, ERR, aclblasCreateHandleForHgemv, (IN, I32), (IN, I32), (IN, I32), (IN, I32),  \
      (OUT, H_OPH))                                                                                                    \
    X("s8gemv", NOGIL, ERR, aclblasS8gemv, (IN, I32), (IN, I32), (IN, I32), (IN, PTR), (IN, PTR), (IN, I32),           \
      (IN, PTR), (IN, I32), (IN, PTR), (IN, PTR), (IN, I32), (IN, I32), (IN, PTR))                                     \
    X("create_handle_for_s8gemv", NOGIL, ERR, aclblasCreateHandleForS8gemv, (IN, I32), (IN, I32), (IN, I32),           \
      (IN, I32), (OUT, H_OPH))                                                                                         \
    X("gemm_ex", NOGIL, ERR, aclblasGemmEx, (IN, I32), (IN, I32), (IN, I32), (IN, I32), (IN, I32), (IN, I32),          \
      (IN, PTR), (IN, PTR), (IN, I32), (IN, I32), (IN, PTR), (IN, I32), (IN, I32), (IN, PTR), (IN, PTR), (IN, I32),    \
      (IN, I32), (IN, I32), (IN, PTR))                                                                                 \
    X("create_handle_for_gemm_ex", NOGIL, ERR, aclblasCreateHandleForGemmEx, (IN, I32), (IN, I32), (IN, I32),          \
      (IN, I32), (IN, I32), (IN, I32), (IN, I32), (IN, I32), (IN, I32), (IN, I32), (OUT, H_OPH))                       \
    X("hgemm", NOGIL, ERR, aclblasHgemm, (IN, I32), (IN, I32), (IN, I32), (IN, I32), (IN, I32), (IN, I32), (IN, PTR),  \
      (IN, PTR), (IN, I32), (IN, PTR), (IN, I32), (IN, PTR), (IN, PTR), (IN, I32), (IN, I32), (IN, PTR))               \
    X("create_handle_for_hgemm", NOGIL, ERR, aclblasCreateHandleForHgemm, (IN, I32), (IN, I32), (IN, I32), (IN, I32),  \
      (IN, I32), (IN, I32), (IN, I32), (OUT, H_OPH))                                                                   \
    X("s8gemm", NOGIL, ERR, aclblasS8gemm, (IN, I32), (IN, I32), (IN, I32), (IN, I32), (IN, I32), (IN, I32),           \
      (IN, PTR), (IN, PTR), (IN, I32), (IN, PTR), (IN, I32), (IN, PTR), (IN, PTR), (IN, I32), (IN, I32), (IN, PTR))    \
    X("create_handle_for_s8gemm", NOGIL, ERR, aclblasCreateHandleForS8gemm, (IN, I32), (IN, I32), (IN, I32),           \
      (IN, I32), (IN, I32), (IN, I32), (IN, I32), (OUT, H_OPH))

BLAS_TABLE(OA_DEFINE)

static PyMethodDef g_blas_methods[] = {BLAS_TABLE(OA_METHOD){NULL, NULL, 0, NULL}};

PyMethodDef *oa_py_blas_methods(void)
{
    return g_blas_methods;
}
