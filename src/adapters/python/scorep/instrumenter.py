# SPDX-License-Identifier: BSD-3-Clause
# instrumenter.py: the Python calls recorded or not (Score-P's scorep.instrumenter: register,
# unregister, enable and disable as context managers and decorators). Without
# `python3 -m scorep` nothing is measured and these do nothing, as Score-P's dummy
# instrumenter.
import functools
import sys
import threading

# scorep._native, set by `python3 -m scorep` (scorep/__main__.py) once the runtime is loaded
_native = None


def _caller(depth):
    """file and line of the caller `depth` frames up (the place of a user region; _native
    makes the path absolute, as Score-P's bindings do); only C calls here, which the
    instrumenter does not record"""
    frame = sys._getframe(depth + 1)
    return frame.f_globals.get("__file__", None) or "", frame.f_lineno


class _HookOff:
    """the hook off while the measurement's own Python code runs (functools.wraps)"""

    def __enter__(self):
        self.on = get_registered()
        if self.on:
            _native.disable()

    def __exit__(self, exc_type, exc_value, traceback):
        if self.on:
            _native.enable()
        return False


def get_registered():
    """True while this thread's Python calls are recorded"""
    return _native is not None and _native.enabled()


def register():
    """Records Python calls (this thread and threads started from now on)."""
    if _native is not None:
        threading.setprofile(_native.thread_start)
        _native.enable()


def unregister():
    """Stops recording Python calls (this thread and threads started from now on); user
    regions, MPI and compiled code are still recorded."""
    if _native is not None:
        _native.disable()
        threading.setprofile(None)


class _Instrumenter:
    """what Score-P's get_instrumenter() returns, for scripts that use it"""

    def get_registered(self):
        return get_registered()

    def register(self):
        register()

    def unregister(self):
        unregister()


def get_instrumenter(enable_instrumenter=False, instrumenter_type="cProfile"):
    return _Instrumenter()


class _Switch:
    """enable/disable: context manager and decorator; with a region name, the region
    "user_instrumenter:NAME" encloses the part whose state it changed (Score-P's bindings)"""

    turn_on = True

    def __init__(self, region_name=""):
        self.region_name = region_name
        self.changed = False

    def __call__(self, func):
        with _HookOff():

            @functools.wraps(func)
            def inner(*args, **kwds):
                with type(self)(self.region_name):
                    return func(*args, **kwds)

        return inner

    def __enter__(self):
        self.changed = _native is not None and get_registered() != self.turn_on
        if not self.changed:
            return self
        if self.turn_on:
            self._region_begin(2)
            register()
        else:
            unregister()
            self._region_begin(2)
        return self

    def __exit__(self, exc_type=None, exc_value=None, traceback=None):
        if not self.changed:
            return False
        if self.turn_on:
            unregister()
            self._region_end()
        else:
            self._region_end()
            register()
        return False

    def _region_begin(self, depth):
        if self.region_name:
            file_name, line = _caller(depth)
            _native.region_begin("user_instrumenter:" + self.region_name, file_name, line)

    def _region_end(self):
        if self.region_name:
            _native.region_end("user_instrumenter:" + self.region_name)


class enable(_Switch):
    """with scorep.instrumenter.enable(): Python calls recorded inside, also with
    --noinstrumenter"""

    turn_on = True


class disable(_Switch):
    """with scorep.instrumenter.disable(): Python calls not recorded inside"""

    turn_on = False
