#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_python_bindings_iface.sh: the interfaces Score-P's Python bindings
# (score-p/scorep_binding_python) use, called as they call them, without their code: their
# setup.py reads the version from `scorep --version` (first number, at least 5.0) and the
# "Link mode:" line of `scorep-info config-summary` (shared=yes); their helper calls
# scorep-config with options only (status 0), then --ldflags, --libs, --mgmt-libs, --cflags
# (taking -L, -l, -I, -D and -Wl words with their regular expressions), --adapter-init (C code
# they compile into a library, linked with those words) and --preload-libs (for LD_PRELOAD,
# with that library); their extension, built with the include flags and not linked with
# the runtime, calls the user API and SCOREP_RegisterExitHandler, SCOREP_GetExperimentDirName,
# SCOREP_FinalizeMeasurement (bind_iface.c, loaded by Python's ctypes as they load it).
. "$top_srcdir/test/integration/lib.sh"
# the interpreter itself (a python3 on PATH may be a launcher script whose processes would all
# be measured under LD_PRELOAD): the one the module is built for, else python3's own binary
py=${PYTHON_FOR_SCOREP_TESTS:-}
if [ -z "$py" ]; then
    command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }
    py=$(python3 -c 'import sys; print(sys.executable)') || fail "python3 does not run"
fi
# the commands as installed: scorep is scorep-cc under Score-P's name
mkdir bin
ln -s "$top_builddir/scorep-cc" bin/scorep
ln -s "$top_builddir/scorep-config" bin/scorep-config
ln -s "$top_builddir/scorep-info" bin/scorep-info
PATH="$work/bin:$PATH"
export PATH
# scorep-config of the build tree: the library and include folders of the build tree
export SCOREP_CC_LIBDIR="$top_builddir/.libs" SCOREP_CC_INCLUDEDIR="$top_srcdir/include"

# setup.py and helper.py's parsing, in their words (regular expressions copied from helper.py)
cat >parse.py <<'P'
import re
import subprocess
import sys


def call(args):
    out = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return out.returncode, out.stdout.decode(), out.stderr.decode()


rc, out, _ = call(["scorep", "--version"])
version = float(re.search("([0-9.]+)", out).group(1))
print("version_ok", rc == 0 and version >= 5.0)
rc, out, _ = call(["scorep-info", "config-summary"])
link = [line for line in out.split("\n") if "Link mode:" in line]
print("link_mode_shared", rc == 0 and len(link) == 1 and "shared=yes" in link[0])
cfg = ["scorep-config"] + sys.argv[1:]
print("options_only_status", call(cfg)[0])
ldflags = " " + call(cfg + ["--ldflags"])[1]
libs = " " + call(cfg + ["--libs"])[1] + " " + call(cfg + ["--mgmt-libs"])[1]
cflags = " " + call(cfg + ["--cflags"])[1]
lib_dir = [x[3:] for x in re.findall(r" -L[/+-@.\w]*", ldflags)]
lib = [x[1:] for x in re.findall(r" -l[/+-@.\w]*", libs)]
include = [x[3:] for x in re.findall(r" -I[/+-@.\w]*", cflags)]
macro = [x[3:] for x in re.findall(r" -D[/+-@.\w]*", cflags)]
linker = [x[1:] for x in re.findall(r" -Wl[/+-@.\w]*", ldflags)]
rc, init, _ = call(cfg + ["--adapter-init"])
open("scorep_init.c", "w").write(init)
rc2, preload, _ = call(cfg + ["--preload-libs"])
with open("flags.sh", "w") as f:
    f.write("LIBDIRS='%s'\nLIBS='%s'\nINCS='%s'\nMACROS='%s'\nLINKER='%s'\nPRELOAD='%s'\n" % (
        " ".join("-L" + d for d in lib_dir), " ".join(lib), " ".join("-I" + i for i in include),
        " ".join("-D" + m + "=1" for m in macro), " ".join(linker), preload.strip()))
print("init_preload_status", rc, rc2)
P
run_to parse.out "$py" parse.py --user
expect_eq "$(cat parse.out)" "version_ok True
link_mode_shared True
options_only_status 0
init_preload_status 0 0" "scorep --version, config-summary's Link mode, scorep-config's status as setup.py reads them"
. ./flags.sh
expect_eq "$PRELOAD" "$top_builddir/.libs/libscorep-rt.so" "--preload-libs: the runtime"
expect_eq "$(scorep-config --mpp=mpi --user --preload-libs)" \
    "$top_builddir/.libs/libscorep-rt-mpi.so $top_builddir/.libs/libscorep-rt.so" \
    "--mpp=mpi --preload-libs: the MPI adapter first"
expect_eq "$MACROS" "-DSCOREP_USER_ENABLE=1" "--user --cflags: the user macro"
expect_eq "$(scorep-config --mgmt-libs)" "" "--mgmt-libs: nothing (the runtime brings its own)"

# the subsystem library of --adapter-init, built as the bindings' subsystem.py builds it
# (-Wl,-no-as-needed, then the libraries, then the -Wl words of --ldflags)
# shellcheck disable=SC2086 # word lists
gcc -fPIC -c scorep_init.c -o scorep_init.o || fail "--adapter-init's code does not compile"
# shellcheck disable=SC2086
gcc -shared scorep_init.o -o libscorep_init_subsystem-test.so $LIBDIRS -Wl,-no-as-needed $LIBS $LINKER ||
    fail "the subsystem library does not link with --libs and --ldflags"
# the extension: include flags and macros, no runtime library (the bindings' setup.py)
# shellcheck disable=SC2086
gcc -fPIC -shared $INCS $MACROS "$top_srcdir/test/python/bind_iface.c" -o bind_iface.so ||
    fail "bind_iface.c does not build with --cflags' include flags"
# their extension is C++: its libstdc++ comes with it, loaded RTLD_LOCAL by Python, while
# the memory adapter of --libs (in the preloaded subsystem library) wraps operator new
cat >cxx_new.cc <<'C'
extern "C" int cxx_new(void);
extern "C" int cxx_new(void)
{
    int *p = new int(42);
    int v = *p;
    delete p;
    return v;
}
C
g++ -fPIC -shared cxx_new.cc -o cxx_new.so || fail "cxx_new.cc does not build"
run_app b env SCOREP_EXPERIMENT_DIRECTORY=bx LD_LIBRARY_PATH="$work" \
    LD_PRELOAD="$PRELOAD libscorep_init_subsystem-test.so" \
    "$py" -c 'import ctypes, sys; assert ctypes.CDLL("./cxx_new.so").cxx_new() == 42; sys.exit(ctypes.CDLL("./bind_iface.so").run())'
expect_eq "$status" 0 "the extension's calls run, C++ new and delete of a library loaded RTLD_LOCAL too (status)"
expect_eq "$(cat b.out)" "experiment $work/bx" "SCOREP_GetExperimentDirName: the experiment directory"
expect_eq "$(profile_sum bx __main__:foo visits)" 4 \
    "the region: 4 visits before SCOREP_FinalizeMeasurement, none after"
expect_eq "$(profile_sum bx __main__:foo/leave-region=foo visits)" 1 "the string parameter"
expect_no_grep . b.err "nothing on stderr"
done_ok
