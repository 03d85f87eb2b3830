/* SPDX-License-Identifier: BSD-3-Clause */
/* python_empty_hook.c: a Python extension whose profile hook does nothing (bench/run_python_bench.sh):
 * what Python itself costs per call while a C profile hook is set (its floor), beside which
 * the module scorep's hook and cProfile are measured. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

static int nothing(PyObject *obj, PyFrameObject *frame, int what, PyObject *arg)
{
    (void)obj;
    (void)frame;
    (void)what;
    (void)arg;
    return 0;
}

static PyObject *on(PyObject *self, PyObject *noargs)
{
    (void)self;
    (void)noargs;
    PyEval_SetProfile(nothing, NULL);
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {{"on", on, METH_NOARGS, "set the empty hook"}, {NULL, NULL, 0, NULL}};
static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "empty_hook", NULL, -1, methods,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit_empty_hook(void);
PyMODINIT_FUNC PyInit_empty_hook(void)
{
    return PyModule_Create(&module);
}
