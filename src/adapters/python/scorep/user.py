# SPDX-License-Identifier: BSD-3-Clause
# user.py: user regions, parameters, recording and rewind for Python scripts, with Score-P's
# names and semantics (scorep.user of Score-P's bindings): region("x") as context manager
# records the region "user:x"; @region() on a function records it as "module:function".
# Without `python3 -m scorep` these do nothing, as in Score-P's bindings.
import functools
import inspect

import scorep.instrumenter as _instr


def _native():
    return _instr._native


def region_begin(name, file_name=None, line_number=None):
    """Begins the user region "user:NAME"; file and line default to the caller's."""
    if _native() is None:
        return
    if file_name is None or line_number is None:
        file_name, line_number = _instr._caller(1)
    _native().region_begin("user:" + name, file_name, line_number)


def region_end(name):
    """Ends the user region "user:NAME"."""
    if _native() is not None:
        _native().region_end("user:" + name)


class region:
    """with region("name"): the user region "user:name" around the block;
    @region("name"): the same around every call of the function;
    @region(): the function's own region "module:function" (when the instrumenter does not
    record the call already)"""

    def __init__(self, region_name=""):
        self.region_name = region_name
        self.func = None
        self.code_region = False

    def _recreate_cm(self):
        return self

    def __call__(self, func):
        self.func = func
        with _instr._HookOff():

            @functools.wraps(func)
            def inner(*args, **kwds):
                with self._recreate_cm():
                    return func(*args, **kwds)

        return inner

    def __enter__(self):
        native = _native()
        if native is None:
            return self
        if self.region_name:
            file_name, line = _instr._caller(1)
            native.region_begin("user:" + self.region_name, file_name, line)
        elif callable(self.func):
            # the instrumenter records the call itself when it is on
            self.code_region = not native.enabled()
            if self.code_region:
                code = self.func.__code__
                native.code_begin(code, "%s:%s" % (self.func.__module__, self.func.__name__),
                                  code.co_filename, code.co_firstlineno)
        else:
            raise RuntimeError("scorep.user.region: a region name is needed outside a decorator")
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        native = _native()
        if native is None:
            return False
        if self.region_name:
            native.region_end("user:" + self.region_name)
        elif self.code_region:
            native.code_end(self.func.__code__)
        return False


def instrument_function(fun, instrumenter_fun=region):
    return instrumenter_fun()(fun)


def instrument_module(module, instrumenter_fun=region):
    for elem in dir(module):
        module_fun = module.__dict__[elem]
        if inspect.isfunction(module_fun):
            module.__dict__[elem] = instrument_function(module_fun, instrumenter_fun)


def rewind_begin(name, file_name=None, line_number=None):
    """Begins the rewind region NAME (SCOREP_USER_REWIND_REGION_BEGIN)."""
    if _native() is None:
        return
    if file_name is None or line_number is None:
        file_name, line_number = _instr._caller(1)
    _native().rewind_begin(name, file_name, line_number)


def rewind_end(name, value):
    """Ends the rewind region NAME; value True drops the events recorded since its begin."""
    if _native() is not None:
        _native().rewind_end(name, value)


def enable_recording():
    if _native() is not None:
        _native().recording(True)


def disable_recording():
    if _native() is not None:
        _native().recording(False)


def parameter_int(name, val):
    if _native() is not None:
        _native().parameter_int(name, val)


def parameter_uint(name, val):
    if _native() is not None:
        _native().parameter_uint(name, val)


def parameter_string(name, string):
    if _native() is not None:
        _native().parameter_string(name, string)


def force_finalize():
    """Ends the measurement now and writes the results; later events are not recorded."""
    if _native() is not None:
        _native().finalize()


def reregister_exit_handler():
    """Registers the measurement's exit handler again (SCOREP_RegisterExitHandler)."""
    if _native() is not None:
        _native().register_exit_handler()
