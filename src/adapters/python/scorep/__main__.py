# SPDX-License-Identifier: BSD-3-Clause
# __main__.py: `python3 -m scorep [options] [--] script.py [args]` (Score-P's bindings'
# command line): restarts the interpreter with the runtime preloaded (and the MPI adapter
# with --mpp=mpi or under mpirun, as scorep-run preloads it), then runs the script as
# __main__ with its Python calls recorded (docs/python.md).
import builtins
import os
import sys
import threading
import types

from scorep import _config

USAGE = """\
Usage: python3 -m scorep [options] [--] script.py [args]
       scorep-python [options] [--] script.py [args]
Runs script.py measured by scorep-rt: every Python call is a region "module:function"
(methods "module.Class:function"), in one call tree with MPI and compiled code.
Options:
  --mpp=mpi|none     the MPI adapter (default: mpi when started by mpirun, i.e.
                     OMPI_COMM_WORLD_SIZE, PMI_SIZE or PMIX_RANK is set)
  --mpi              the same as --mpp=mpi (deprecated in Score-P)
  --thread=pthread|none|omp
                     accepted; threads are recorded in every case
  --io=posix|isoc|none
                     record I/O calls (scorep-run --io)
  --cuda             preload the CUDA adapter (CUDA kernels and memory copies of
                     PyTorch, CuPy, ... under the Python calls that issued them)
  --noinstrumenter, --nopython
                     Python calls are not recorded until scorep.instrumenter.enable()
  --instrumenter-type=TYPE
                     accepted for Score-P's types (cProfile, cTrace, profile, trace):
                     scorep-rt has one, its C profile hook; dummy records no calls
  --instrumenter-file=FILE
                     a Python file run before the script (instrument modules there)
  --keep-files       accepted (scorep-rt writes no temporary files)
  --verbose, -v      print what is preloaded
  --help             this text
  --user, --nouser, --compiler, --nocompiler, --dynamic
                     Score-P's scorep-config options: accepted, nothing to do
Measurement settings come from the SCOREP_* variables (scorep-info config-vars).
"""

IGNORED = ("--user", "--nouser", "--compiler", "--nocompiler", "--dynamic", "--keep-files",
           "--nocuda")
TYPES = ("cProfile", "cTrace", "profile", "trace", "dummy")


def die(msg):
    sys.stderr.write("scorep: %s; see python3 -m scorep --help\n" % msg)
    sys.exit(1)


def parse(argv):
    opt = {"mpp": None, "io": [], "python": True, "file": None, "verbose": False, "cuda": False}
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--":
            i += 1
            break
        if not a.startswith("-"):
            break
        if a == "--help":
            sys.stdout.write(USAGE)
            sys.exit(0)
        elif a.startswith("--mpp="):
            if a[6:] not in ("mpi", "none"):
                die("unknown paradigm '%s' for --mpp (mpi, none)" % a[6:])
            opt["mpp"] = a[6:]
        elif a == "--mpi":
            opt["mpp"] = "mpi"
        elif a.startswith("--thread="):
            if a[9:].split(":")[0] not in ("none", "pthread", "omp"):
                die("unknown paradigm '%s' for --thread (none, pthread, omp)" % a[9:])
        elif a.startswith("--io="):
            for w in a[5:].split(","):
                w = w.split(":")[-1]
                if w not in ("posix", "isoc", "none"):
                    die("unknown I/O paradigm '%s' (posix, isoc, none)" % w)
                opt["io"].append(w)
        elif a == "--cuda":
            opt["cuda"] = True
        elif a in ("--noinstrumenter", "--nopython"):
            opt["python"] = False
        elif a.startswith("--instrumenter-type="):
            if a[20:] not in TYPES:
                die("unknown instrumenter type '%s' (%s)" % (a[20:], ", ".join(TYPES)))
            if a[20:] == "dummy":
                opt["python"] = False
        elif a.startswith("--instrumenter-file="):
            opt["file"] = a[20:]
        elif a in ("--verbose", "-v"):
            opt["verbose"] = True
        elif a in IGNORED:
            pass
        else:
            die("unknown option '%s'" % a)
        i += 1
    if i >= len(argv):
        die("no script given")
    return opt, argv[i:]


def preload(opt):
    """LD_PRELOAD for the restarted interpreter, in scorep-run's order"""
    libdir = os.environ.get("SCOREP_RUN_LIBDIR") or _config.LIBDIR
    mpp = opt["mpp"]
    if mpp is None:
        launched = any(v in os.environ for v in ("OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"))
        mpp = "mpi" if launched else "none"
    libs = []
    if mpp == "mpi":
        libs.append(os.path.join(libdir, "libscorep-rt-mpi.so"))
    libs.append(os.path.join(libdir, "libscorep-rt.so"))
    if opt["cuda"]:  # after the runtime, which it needs (scorep-run's order)
        libs.append(os.path.join(libdir, "libscorep-rt-cuda.so"))
    io = opt["io"]
    if "posix" in io:
        libs.append(os.path.join(libdir, "libscorep-rt-io-posix.so"))
    if "posix" in io or "isoc" in io:
        libs.append(os.path.join(libdir, "libscorep-rt-io-isoc.so"))
    for lib in libs:
        if not os.access(lib, os.R_OK):
            what = {"-mpi.so": "MPI adapter", "cuda.so": "CUDA adapter"}.get(lib[-7:], "library")
            die("the %s %s is missing (scorep-rt built without it?)" % (what, lib))
    return libs


def has_preload(libs):
    """whether LD_PRELOAD (set by scorep-python) has the libraries, in this order"""
    current = [p for p in os.environ.get("LD_PRELOAD", "").replace(" ", ":").split(":") if p]
    return current[: len(libs)] == libs


def restart(opt):
    """exec the interpreter again with the runtime preloaded; the environment tells the new
    process what the old one had in LD_PRELOAD, so that the script's children get that"""
    libs = preload(opt)
    old = os.environ.get("SCOREP_PYTHON_PRELOAD_BACKUP", os.environ.get("LD_PRELOAD", ""))
    os.environ["SCOREP_PYTHON_PRELOAD_BACKUP"] = old
    os.environ["LD_PRELOAD"] = ":".join(libs + ([old] if old else []))
    nvtx = os.path.join(os.path.dirname(libs[0]), "libscorep-rt-nvtx.so")
    if opt["cuda"] and "NVTX_INJECTION64_PATH" not in os.environ and os.access(nvtx, os.R_OK):
        os.environ["NVTX_INJECTION64_PATH"] = nvtx  # NVTX ranges, as scorep-run
    if opt["verbose"]:
        sys.stderr.write("scorep: LD_PRELOAD=%s\n" % os.environ["LD_PRELOAD"])
    args = [sys.executable, "-m", "scorep"] + sys.argv[1:]
    os.execv(sys.executable, args)


def run(opt, prog_argv):
    # the script's children are not measured unless they ask for it themselves
    old = os.environ.pop("SCOREP_PYTHON_PRELOAD_BACKUP", "")
    if old:
        os.environ["LD_PRELOAD"] = old
    else:
        os.environ.pop("LD_PRELOAD", None)
    import scorep.instrumenter
    from scorep import _native

    scorep.instrumenter._native = _native
    progname = prog_argv[0]
    try:
        with open(progname, "rb") as f:
            source = f.read()
    except OSError as err:
        die("cannot run '%s': %s" % (progname, err.strerror))
    code = compile(source, progname, "exec")
    sys.argv = prog_argv
    sys.path[0] = os.path.dirname(os.path.abspath(progname))
    main = types.ModuleType("__main__")
    main.__file__ = progname
    main.__builtins__ = builtins
    sys.modules["__main__"] = main
    if opt["file"]:
        with open(opt["file"]) as f:
            exec(compile(f.read(), opt["file"], "exec"), {"__name__": "__scorep_instrumenter__"})
    if opt["python"]:
        scorep.instrumenter.register()
    try:
        exec(code, main.__dict__)
    finally:
        scorep.instrumenter.unregister()
        threading.setprofile(None)


def scorep_main():
    opt, prog_argv = parse(sys.argv[1:])
    # the pid tells this process (restarted, or started by scorep-python with the preload)
    # from a child that inherited the variable
    if os.environ.get("SCOREP_PYTHON_PRELOADED") != str(os.getpid()) or not has_preload(
        preload(opt)
    ):
        os.environ["SCOREP_PYTHON_PRELOADED"] = str(os.getpid())
        restart(opt)
    os.environ.pop("SCOREP_PYTHON_PRELOADED", None)
    run(opt, prog_argv)


if __name__ == "__main__":
    scorep_main()
