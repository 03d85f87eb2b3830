/* SPDX-License-Identifier: BSD-3-Clause */
/* python_adapter.c: the C part of the Python module scorep (scorep/_native.so, docs/python.md):
 * a profile hook (PyEval_SetProfile) that makes every Python call a region entered and left
 * through the runtime's events, as compiled functions are, with the region cached per code
 * object (co_extra); and what scorep.user and scorep.instrumenter call (user regions,
 * parameters, recording, the hook on and off). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <frameobject.h>

#include "core/events.h"
#include "runtime/runtime.h"
#include "scorep/SCOREP_User_Functions.h"

#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if PY_VERSION_HEX >= 0x030C0000
#define CODE_EXTRA_INDEX PyUnstable_Eval_RequestCodeExtraIndex
#define CODE_GET_EXTRA PyUnstable_Code_GetExtra
#define CODE_SET_EXTRA PyUnstable_Code_SetExtra
#else
#define CODE_EXTRA_INDEX _PyEval_RequestCodeExtraIndex
#define CODE_GET_EXTRA _PyCode_GetExtra
#define CODE_SET_EXTRA _PyCode_SetExtra
#endif

/* What a code object's calls do: one per region (several code objects may share a region:
 * the same name, file and line); never freed, as the runtime's definitions. */
enum { PY_PLAIN, PY_THROTTLED, PY_SKIP };
typedef struct {
    uint32_t region;
    uint32_t state; /* PY_*: read at every call, written once by the throttle hook */
} py_region;

/* region id -> its py_region, for the throttle hook (which names a region id) */
static pthread_mutex_t by_id_lock = PTHREAD_MUTEX_INITIALIZER;
static py_region **by_id;
static uint32_t n_by_id;
static py_region skipped = {SCOREP_INVALID_ID, PY_SKIP};
static Py_ssize_t extra_index = -1;
static void (*next_throttle_hook)(uint32_t region);

/* ------------------------------------------------------------ the per-thread hook */
/* The object PyEval_SetProfile hands to the callback: one per thread (the thread state's
 * profile object), with the thread's stack of the calls it entered, so that a return is
 * matched without a lookup and returns of frames entered before the hook are ignored. */
typedef struct {
    PyFrameObject *frame; /* borrowed: alive until its return event */
    py_region *r;
} py_call;

typedef struct {
    PyObject_HEAD
    py_call *stack;
    uint32_t depth, cap;
} py_hook;

static void hook_dealloc(PyObject *o)
{
    free(((py_hook *)o)->stack);
    Py_TYPE(o)->tp_free(o);
}

static PyTypeObject py_hook_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "scorep._native.hook",
    .tp_basicsize = sizeof(py_hook),
    .tp_dealloc = hook_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
};

static int grow_stack(py_hook *h)
{
    uint32_t cap = h->cap ? h->cap * 2 : 256;
    py_call *s = realloc(h->stack, cap * sizeof *s);
    if (!s)
        return -1;
    h->stack = s;
    h->cap = cap;
    return 0;
}

/* the region's events, as the compiler adapter makes them */
static inline void region_enter(py_region *r)
{
    scorep_location *l = scorep_tls_location;
    if (__builtin_expect(!l, 0) && !(l = scorep_location_slow()))
        return;
    uint32_t s = __atomic_load_n(&r->state, __ATOMIC_RELAXED);
    if (__builtin_expect(s == PY_PLAIN, 1))
        scorep_event_enter(l, r->region);
    else if (s == PY_THROTTLED)
        scorep_event_throttled_enter(l, r->region);
}

static inline void region_leave(py_region *r)
{
    scorep_location *l = scorep_tls_location;
    if (__builtin_expect(!l, 0))
        return;
    uint32_t s = __atomic_load_n(&r->state, __ATOMIC_RELAXED);
    if (__builtin_expect(s == PY_PLAIN, 1))
        scorep_event_leave(l, r->region);
    else if (s == PY_THROTTLED)
        scorep_event_throttled_leave(l, r->region);
}

/* ------------------------------------------------------------ region definitions */
static py_region *region_of_id(uint32_t region)
{
    py_region *r = NULL;
    pthread_mutex_lock(&by_id_lock);
    if (region >= n_by_id) {
        uint32_t n = n_by_id ? n_by_id : 1024;
        while (n <= region)
            n *= 2;
        py_region **t = realloc(by_id, n * sizeof *t);
        if (t) {
            memset(t + n_by_id, 0, (n - n_by_id) * sizeof *t);
            by_id = t;
            n_by_id = n;
        }
    }
    if (region < n_by_id) {
        r = by_id[region];
        if (!r && (r = malloc(sizeof *r))) {
            r->region = region;
            r->state = PY_PLAIN;
            by_id[region] = r;
        }
    }
    pthread_mutex_unlock(&by_id_lock);
    return r;
}

/* The throttle hook of the profile (chained after the compiler adapter's, which defines the
 * parameter of the throttled visits): a Python region with many short calls is then only
 * counted, as a compiled function is. */
static void throttle_python_region(uint32_t region)
{
    if (next_throttle_hook)
        next_throttle_hook(region);
    pthread_mutex_lock(&by_id_lock);
    if (region < n_by_id && by_id[region])
        __atomic_store_n(&by_id[region]->state, PY_THROTTLED, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&by_id_lock);
}

/* a source file as Score-P's bindings give it: an absolute path ("None" when unknown) */
static void abs_path(const char *f, char *out, size_t n)
{
    char cwd[PATH_MAX];
    if (!f || !*f) {
        snprintf(out, n, "None");
    } else if (f[0] == '/' || f[0] == '<' || !getcwd(cwd, sizeof cwd)) {
        snprintf(out, n, "%s", f);
    } else {
        snprintf(out, n, "%s/%s", cwd, f);
    }
}

static void abs_file(PyObject *filename, char *out, size_t n)
{
    const char *f = filename && PyUnicode_Check(filename) ? PyUnicode_AsUTF8(filename) : NULL;
    if (!f)
        PyErr_Clear();
    abs_path(f, out, n);
}

/* "module.Class:function" as Score-P's bindings name a call (pythonHelpers.cpp): the module is
 * the frame's __name__, the class the type of a local "self"; also tells whether the call is
 * the measurement's own (module scorep*, threading's _unsetprofile). */
static int region_name(PyFrameObject *frame, PyCodeObject *co, char *out, size_t n)
{
    PyObject *globals = PyFrame_GetGlobals(frame);
    PyObject *mod = globals ? PyDict_GetItemString(globals, "__name__") : NULL;
    const char *m = mod && PyUnicode_Check(mod) ? PyUnicode_AsUTF8(mod) : NULL;
    const char *fn = PyUnicode_AsUTF8(co->co_name);
    char cls[256] = "";
    PyObject *locals = PyFrame_GetLocals(frame);
    PyObject *self = locals && PyDict_Check(locals) ? PyDict_GetItemString(locals, "self") : NULL;
    if (self) {
        const char *t = Py_TYPE(self)->tp_name, *dot = strrchr(t, '.');
        snprintf(cls, sizeof cls, ".%s", dot ? dot + 1 : t);
    }
    Py_XDECREF(locals);
    Py_XDECREF(globals);
    PyErr_Clear();
    snprintf(out, n, "%s%s:%s", m ? m : "unknown", cls, fn ? fn : "?");
    return (m && strncmp(m, "scorep", 6) == 0) || (fn && strcmp(fn, "_unsetprofile") == 0);
}

static py_region *define_region(const char *name, const char *file, int line)
{
    bool excluded =
        scorep_active_filter && scorep_filter_excluded(scorep_active_filter, file, name, name);
    if (excluded || !scorep_runtime_init())
        return &skipped;
    uint32_t id = scorep_defs_region(name, NULL, file, line, line, SCOREP_PARADIGM_USER,
                                     SCOREP_ROLE_FUNCTION);
    py_region *r = id == SCOREP_INVALID_ID ? NULL : region_of_id(id);
    return r ? r : &skipped;
}

static void cache(PyCodeObject *co, py_region *r)
{
    if (CODE_SET_EXTRA((PyObject *)co, extra_index, r) != 0)
        PyErr_Clear(); /* looked up again next time */
}

static __attribute__((noinline)) py_region *define_call(PyFrameObject *frame, PyCodeObject *co)
{
    char name[1024], file[PATH_MAX + 64];
    py_region *r = &skipped;
    if (!region_name(frame, co, name, sizeof name)) {
        abs_file(co->co_filename, file, sizeof file);
        r = define_region(name, file, co->co_firstlineno);
    }
    cache(co, r);
    return r;
}

static inline py_region *region_of_call(PyFrameObject *frame)
{
    PyCodeObject *co = PyFrame_GetCode(frame);
    void *r = NULL;
    if (CODE_GET_EXTRA((PyObject *)co, extra_index, &r) != 0)
        PyErr_Clear();
    if (__builtin_expect(!r, 0))
        r = define_call(frame, co);
    Py_DECREF(co);
    return r;
}

/* ------------------------------------------------------------ the profile callback */
static __attribute__((noinline)) void unmatched_return(py_hook *h, PyFrameObject *frame)
{
    uint32_t d = h->depth;
    while (d > 0 && h->stack[d - 1].frame != frame)
        d--;
    if (d == 0)
        return; /* a frame entered before the hook was on */
    /* calls above it ended without a return event (the hook was off meanwhile) */
    while (h->depth >= d)
        region_leave(h->stack[--h->depth].r);
}

static int on_event(PyObject *obj, PyFrameObject *frame, int what, PyObject *arg)
{
    (void)arg;
    py_hook *h = (py_hook *)obj;
    if (what == PyTrace_CALL) {
        py_region *r = region_of_call(frame);
        if (__builtin_expect(h->depth == h->cap, 0) && grow_stack(h) != 0)
            return 0; /* out of memory: the call is not recorded, its return ignored */
        h->stack[h->depth].frame = frame;
        h->stack[h->depth++].r = r;
        region_enter(r);
    } else if (what == PyTrace_RETURN) {
        /* also when an exception unwinds the frame: no region stays open */
        if (__builtin_expect(h->depth > 0 && h->stack[h->depth - 1].frame == frame, 1))
            region_leave(h->stack[--h->depth].r);
        else
            unmatched_return(h, frame);
    }
    return 0;
}

/* This thread's hook object, kept in the thread state's dict so that its stack outlives a
 * disable() and goes with the thread. New reference or NULL. */
static py_hook *thread_hook(void)
{
    PyObject *d = PyThreadState_GetDict();
    if (!d)
        return NULL;
    PyObject *h = PyDict_GetItemString(d, "scorep._native.hook");
    if (h) {
        Py_INCREF(h);
        return (py_hook *)h;
    }
    h = PyObject_CallNoArgs((PyObject *)&py_hook_type);
    if (h && PyDict_SetItemString(d, "scorep._native.hook", h) != 0)
        Py_CLEAR(h);
    return (py_hook *)h;
}

static int hook_on(void)
{
    py_hook *h = thread_hook();
    if (!h)
        return -1;
    PyEval_SetProfile(on_event, (PyObject *)h);
    Py_DECREF(h);
    return 0;
}

static PyObject *py_enable(PyObject *self, PyObject *noargs)
{
    (void)self;
    (void)noargs;
    if (hook_on() != 0)
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *py_disable(PyObject *self, PyObject *noargs)
{
    (void)self;
    (void)noargs;
    PyEval_SetProfile(NULL, NULL);
    Py_RETURN_NONE;
}

static PyObject *py_enabled(PyObject *self, PyObject *noargs)
{
    (void)self;
    (void)noargs;
    return PyBool_FromLong(PyThreadState_Get()->c_profilefunc == on_event);
}

/* threading.setprofile's function: the first event of a new thread installs the C hook in
 * that thread (PyEval_SetProfile acts on the calling thread only) and is recorded by it. */
static PyObject *py_thread_start(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
    (void)self;
    if (n != 3 || !PyFrame_Check(args[0]) || !PyUnicode_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "thread_start(frame, event, arg)");
        return NULL;
    }
    if (hook_on() != 0)
        return NULL;
    if (PyUnicode_CompareWithASCIIString(args[1], "call") == 0)
        on_event(PyThreadState_Get()->c_profileobj, (PyFrameObject *)args[0], PyTrace_CALL,
                 Py_None);
    Py_RETURN_NONE;
}

/* ------------------------------------------------------------ regions by code object */
/* @scorep.user.region() on a function while the hook is off: the function's region, named
 * "module:function" by the caller, cached on the code object as the hook's. */
static PyObject *py_code_begin(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *code;
    const char *name, *file;
    int line;
    if (!PyArg_ParseTuple(args, "O!ssi", &PyCode_Type, &code, &name, &file, &line))
        return NULL;
    void *r = NULL;
    if (CODE_GET_EXTRA(code, extra_index, &r) != 0)
        return NULL;
    if (!r) {
        char path[PATH_MAX + 64];
        abs_path(file, path, sizeof path);
        cache((PyCodeObject *)code, r = define_region(name, path, line));
    }
    region_enter(r);
    Py_RETURN_NONE;
}

static PyObject *py_code_end(PyObject *self, PyObject *code)
{
    (void)self;
    void *r = NULL;
    if (!PyCode_Check(code)) {
        PyErr_SetString(PyExc_TypeError, "code_end(code): a code object");
        return NULL;
    }
    if (CODE_GET_EXTRA(code, extra_index, &r) != 0)
        return NULL;
    if (r)
        region_leave(r);
    Py_RETURN_NONE;
}

/* ------------------------------------------------------------ user API by name */
/* Handles of user regions and parameters by name (Python dicts of ints); the C user API
 * (user_adapter.c) does the rest: filter, selective recording, rewind. */
static PyObject *user_regions, *rewind_regions, *params[3];

static void *handle_of(PyObject *dict, PyObject *name)
{
    PyObject *v = PyDict_GetItemWithError(dict, name);
    return v ? PyLong_AsVoidPtr(v) : NULL;
}

static int set_handle(PyObject *dict, PyObject *name, void *h)
{
    PyObject *v = PyLong_FromVoidPtr(h);
    int rc = v ? PyDict_SetItem(dict, name, v) : -1;
    Py_XDECREF(v);
    return rc;
}

static SCOREP_User_RegionHandle user_handle(PyObject *dict, PyObject *name, const char *file,
                                            int line)
{
    SCOREP_User_RegionHandle h = handle_of(dict, name);
    if (!h && !PyErr_Occurred()) {
        char path[PATH_MAX + 64];
        abs_path(file, path, sizeof path);
        SCOREP_User_RegionInit(&h, NULL, NULL, PyUnicode_AsUTF8(name),
                               SCOREP_USER_REGION_TYPE_FUNCTION, path, (uint32_t)line);
        if (h && set_handle(dict, name, h) != 0)
            return NULL;
    }
    return h;
}

/* begin(name, file, line) of a named region of TABLE: ENTER its handle */
static PyObject *begin_named(PyObject *args, PyObject *table,
                             void (*enter)(SCOREP_User_RegionHandle))
{
    PyObject *name;
    const char *file;
    int line;
    if (!PyArg_ParseTuple(args, "Usi", &name, &file, &line))
        return NULL;
    SCOREP_User_RegionHandle h = user_handle(table, name, file, line);
    if (PyErr_Occurred())
        return NULL;
    if (h)
        enter(h);
    Py_RETURN_NONE;
}

static PyObject *py_region_begin(PyObject *self, PyObject *args)
{
    (void)self;
    return begin_named(args, user_regions, SCOREP_User_RegionEnter);
}

static PyObject *py_region_end(PyObject *self, PyObject *name)
{
    (void)self;
    if (!PyUnicode_Check(name)) {
        PyErr_SetString(PyExc_TypeError, "region_end(name): a str");
        return NULL;
    }
    SCOREP_User_RegionHandle h = handle_of(user_regions, name);
    if (PyErr_Occurred())
        return NULL;
    if (!h) {
        PyErr_Format(PyExc_RuntimeError, "scorep: region '%U' ends but never began", name);
        return NULL;
    }
    SCOREP_User_RegionEnd(h);
    Py_RETURN_NONE;
}

static PyObject *py_rewind_begin(PyObject *self, PyObject *args)
{
    (void)self;
    return begin_named(args, rewind_regions, SCOREP_User_RewindRegionEnter);
}

static PyObject *py_rewind_end(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *name;
    int value;
    if (!PyArg_ParseTuple(args, "Up", &name, &value))
        return NULL;
    SCOREP_User_RegionHandle h = handle_of(rewind_regions, name);
    if (PyErr_Occurred())
        return NULL;
    if (!h) {
        PyErr_Format(PyExc_RuntimeError, "scorep: rewind region '%U' ends but never began", name);
        return NULL;
    }
    SCOREP_User_RewindRegionEnd(h, value != 0);
    Py_RETURN_NONE;
}

/* parameter_int/_uint/_string(name, value): one handle per name (Score-P's bindings share one
 * handle among all names of a type, so that every name after the first is recorded under the
 * first; docs/python.md) */
static PyObject *parameter(PyObject *args, int kind)
{
    PyObject *name, *value;
    if (!PyArg_ParseTuple(args, "UO", &name, &value))
        return NULL;
    PyObject *known = PyDict_GetItemWithError(params[kind], name);
    if (!known && PyErr_Occurred())
        return NULL;
    /* a name's first value defines its parameter (the handle then holds its id) */
    SCOREP_User_ParameterHandle h = SCOREP_USER_INVALID_PARAMETER;
    if (known && (h = (SCOREP_User_ParameterHandle)PyLong_AsUnsignedLongLong(known)) ==
                     (SCOREP_User_ParameterHandle)-1 &&
        PyErr_Occurred())
        return NULL;
    SCOREP_User_ParameterHandle before = h;
    const char *n = PyUnicode_AsUTF8(name);
    if (kind == 0) {
        long long v = PyLong_AsLongLong(value);
        if (v == -1 && PyErr_Occurred())
            return NULL;
        SCOREP_User_ParameterInt64(&h, n, (int64_t)v);
    } else if (kind == 1) {
        unsigned long long v = PyLong_AsUnsignedLongLong(value);
        if (v == (unsigned long long)-1 && PyErr_Occurred())
            return NULL;
        SCOREP_User_ParameterUint64(&h, n, (uint64_t)v);
    } else {
        const char *v = PyUnicode_Check(value) ? PyUnicode_AsUTF8(value) : NULL;
        if (!v) {
            PyErr_SetString(PyExc_TypeError, "parameter_string(name, value): value is a str");
            return NULL;
        }
        SCOREP_User_ParameterString(&h, n, v);
    }
    if (h != before) {
        PyObject *v = PyLong_FromUnsignedLongLong((unsigned long long)h);
        int rc = v ? PyDict_SetItem(params[kind], name, v) : -1;
        Py_XDECREF(v);
        if (rc != 0)
            return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *py_parameter_int(PyObject *self, PyObject *args)
{
    (void)self;
    return parameter(args, 0);
}

static PyObject *py_parameter_uint(PyObject *self, PyObject *args)
{
    (void)self;
    return parameter(args, 1);
}

static PyObject *py_parameter_string(PyObject *self, PyObject *args)
{
    (void)self;
    return parameter(args, 2);
}

static PyObject *py_recording(PyObject *self, PyObject *on)
{
    (void)self;
    if (PyObject_IsTrue(on))
        SCOREP_User_EnableRecording();
    else
        SCOREP_User_DisableRecording();
    Py_RETURN_NONE;
}

static PyObject *py_experiment_dir(PyObject *self, PyObject *noargs)
{
    (void)self;
    (void)noargs;
    const char *d = SCOREP_GetExperimentDirName();
    return PyUnicode_FromString(d ? d : "");
}

static PyObject *py_finalize(PyObject *self, PyObject *noargs)
{
    (void)self;
    (void)noargs;
    PyEval_SetProfile(NULL, NULL); /* no events after the results are written */
    SCOREP_FinalizeMeasurement();
    Py_RETURN_NONE;
}

static PyObject *py_exit_handler(PyObject *self, PyObject *noargs)
{
    (void)self;
    (void)noargs;
    SCOREP_RegisterExitHandler();
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"enable", py_enable, METH_NOARGS, "record Python calls of this thread"},
    {"disable", py_disable, METH_NOARGS, "stop recording Python calls of this thread"},
    {"enabled", py_enabled, METH_NOARGS, "whether Python calls of this thread are recorded"},
    {"thread_start", (PyCFunction)(void (*)(void))py_thread_start, METH_FASTCALL,
     "threading.setprofile's function: the hook in a new thread"},
    {"code_begin", py_code_begin, METH_VARARGS, "code_begin(code, name, file, line)"},
    {"code_end", py_code_end, METH_O, "code_end(code)"},
    {"region_begin", py_region_begin, METH_VARARGS, "region_begin(name, file, line)"},
    {"region_end", py_region_end, METH_O, "region_end(name)"},
    {"rewind_begin", py_rewind_begin, METH_VARARGS, "rewind_begin(name, file, line)"},
    {"rewind_end", py_rewind_end, METH_VARARGS, "rewind_end(name, value)"},
    {"parameter_int", py_parameter_int, METH_VARARGS, "parameter_int(name, value)"},
    {"parameter_uint", py_parameter_uint, METH_VARARGS, "parameter_uint(name, value)"},
    {"parameter_string", py_parameter_string, METH_VARARGS, "parameter_string(name, value)"},
    {"recording", py_recording, METH_O, "recording(on): SCOREP_User_Enable/DisableRecording"},
    {"experiment_dir", py_experiment_dir, METH_NOARGS, "SCOREP_GetExperimentDirName()"},
    {"finalize", py_finalize, METH_NOARGS, "SCOREP_FinalizeMeasurement()"},
    {"register_exit_handler", py_exit_handler, METH_NOARGS, "SCOREP_RegisterExitHandler()"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "scorep._native",
                                    "scorep-rt's measurement of Python (docs/python.md)", -1,
                                    methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__native(void);
PyMODINIT_FUNC PyInit__native(void)
{
    if (PyType_Ready(&py_hook_type) != 0)
        return NULL;
    if (extra_index < 0 && (extra_index = CODE_EXTRA_INDEX(NULL)) < 0) {
        PyErr_SetString(PyExc_RuntimeError, "scorep: no code object extra index left");
        return NULL;
    }
    user_regions = PyDict_New();
    rewind_regions = PyDict_New();
    for (int i = 0; i < 3; i++)
        params[i] = PyDict_New();
    if (!user_regions || !rewind_regions || !params[0] || !params[1] || !params[2])
        return NULL;
    scorep_runtime_init();
    if (scorep_profile_throttle_hook != throttle_python_region) {
        next_throttle_hook = scorep_profile_throttle_hook;
        scorep_profile_throttle_hook = throttle_python_region;
    }
    return PyModule_Create(&module);
}
