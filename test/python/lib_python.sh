# SPDX-License-Identifier: BSD-3-Clause
# lib_python.sh: helpers of the tests of the Python module scorep (test/python): source it
# after test/integration/lib.sh. The build tree's package (python/scorep) and runtime
# (.libs) are what scorep-python runs with; a build without the module skips the test.
[ -f "$top_builddir/python/scorep/_native.so" ] || {
    echo "SKIP: scorep-rt was built without its Python module (configure found no Python headers: python3-dev)"
    exit 77
}
PY=${PYTHON_FOR_SCOREP_TESTS:?run through make check}
export SCOREP_PYTHON_PATH="$top_builddir/python" SCOREP_RUN_LIBDIR="$top_builddir/.libs"
SCOREP_PYTHON="$top_builddir/scorep-python"
PYPROGS="$top_srcdir/test/python"

# run_py NAME [VAR=VALUE...] [scorep options] SCRIPT [ARGS]: scorep-python under run_app; a
# failure fails the test (output in NAME.out, NAME.err)
run_py()
{
    _n=$1
    shift
    run_app "$_n" env "$@"
    [ "$status" = 0 ] || fail "$_n: scorep-python failed (status $status): $(tail -n 20 "$_n.err")"
}

# c_library NAME: builds test/python/NAME.c into libNAME.so with scorep-cc (a shared library
# whose functions are measured, loaded by the scripts through ctypes)
c_library()
{
    scorep_cc gcc -g -O1 -shared -fPIC -o "lib$1.so" "$PYPROGS/$1.c"
}
