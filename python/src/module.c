/*
 * PyInit_acl: the module `acl` and its sub-modules acl.rt, acl.mdl, acl.op,
 * acl.blas, acl.util, acl.media and acl.prof, laid out as pyACL lays them out (each
 * sub-module is registered in sys.modules as "acl.<name>" and is an
 * attribute of `acl`; functions only, no constants).
 */
#include "pyacl.h"

static struct PyModuleDef g_module = {
    PyModuleDef_HEAD_INIT, "acl", "openacl's pyACL-compatible module (see docs/python.md)", -1, NULL, NULL, NULL, NULL,
    NULL,
};

static int add_sub(PyObject *root, const char *name, PyMethodDef *methods)
{
    char full[64];
    snprintf(full, sizeof full, "acl.%s", name);
    PyObject *sub = PyImport_AddModule(full); /* borrowed, kept by sys.modules */
    if (sub == NULL || PyModule_AddFunctions(sub, methods) != 0) {
        return -1;
    }
    Py_INCREF(sub);
    if (PyModule_AddObject(root, name, sub) != 0) {
        Py_DECREF(sub);
        return -1;
    }
    return 0;
}

PyMODINIT_FUNC PyInit_acl(void);

PyMODINIT_FUNC PyInit_acl(void)
{
    PyObject *m = PyModule_Create(&g_module);
    if (m == NULL) {
        return NULL;
    }
    if (PyModule_AddFunctions(m, oa_py_base_methods()) != 0 || add_sub(m, "rt", oa_py_rt_methods()) != 0 ||
        add_sub(m, "mdl", oa_py_mdl_methods()) != 0 || add_sub(m, "op", oa_py_op_methods()) != 0 ||
        add_sub(m, "blas", oa_py_blas_methods()) != 0 || add_sub(m, "util", oa_py_util_methods()) != 0 ||
        add_sub(m, "media", oa_py_media_methods()) != 0 || add_sub(m, "prof", oa_py_prof_methods()) != 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
