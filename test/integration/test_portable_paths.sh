#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_portable_paths.sh: the portable C versions of the hot paths (src/base/arch.h), which
# every machine but x86-64 compiles (the clock_gettime timer, the location's marks and mode
# test in C, the fast leave's decrement, the plugins' throttle count by slot index), built and
# run here: a second build of the runtime, scorep-cc and both compiler plugins configured
# with CPPFLAGS=-DSCOREP_PORTABLE=1, against which test_throttling.sh (exact visits of the
# plugins' inline throttle check and -finstrument-functions) and test_event_fast.sh (the
# fast path of a measured call against the general one, profile and trace) run unchanged.
. "$top_srcdir/test/integration/lib.sh"
export LC_ALL=C

[ "$(uname -m)" = x86_64 ] || {
    echo "SKIP: on $(uname -m) the default build is the portable one (every test runs it)"
    exit 77
}

part "configure a portable build (CPPFLAGS=-DSCOREP_PORTABLE=1)"
mkdir build
# MPI, SHMEM, CUDA and Python are not needed: the runtime, its tools and the plugins
# OMPT as in the default build (the inner tests' OpenMP parts follow the library's symbols)
ompt=no
! nm -D "$top_builddir/.libs/libscorep-rt.so" | grep -q ' T ompt_start_tool$' || ompt=yes
(cd build && "$top_srcdir/configure" --with-mpi=no --with-shmem=no --enable-ompt=$ompt \
    --enable-python=no --with-cuda=no CPPFLAGS=-DSCOREP_PORTABLE=1 >configure.log 2>&1) ||
    fail "configure of the portable build: $(tail -5 build/configure.log)"
# all of it: scorep-cc links the adapters' libraries (memory, gomp), the inner tests use the
# tools; a build without MPI and SHMEM, which no other test builds, is checked on the way
(cd build && make -j2 all test/tools/profile_check >make.log 2>&1) || fail "make of the portable build: $(tail -20 build/make.log)"
B=$work/build

# the build is the portable one, and the default build is not (what the inner tests then
# test differs from what every other test tests)
expect_eq "$(count_out '^hot paths: +portable C' "$B/scorep-info" build)" 1 \
    "the portable build says so (scorep-info build)"
expect_eq "$(count_out '^hot paths: +x86-64 assembly' "$SCOREP_INFO" build)" 1 \
    "the default build uses the x86-64 assembly"
objdump -d "$B/.libs/libscorep-rt.so" >rt.dis || fail "objdump -d of the portable runtime"
expect_eq "$(count_lines 'rdtsc' rt.dis)" 0 "the portable runtime reads no TSC"
objdump -d "$top_builddir/.libs/libscorep-rt.so" >rt_default.dis || fail "objdump -d of the runtime"
expect_ge "$(count_lines 'rdtsc' rt_default.dis)" 1 "the default runtime reads the TSC inline"

# inner TEST: runs with this build as top_builddir; its output is kept in inner_TEST.log
inner() {
    part "$1 against the portable build"
    _rc=0
    top_builddir=$B sh "$top_srcdir/test/integration/$1" >"inner_$1.log" 2>&1 || _rc=$?
    sed 's/^/  | /' "inner_$1.log"
    # a part skipped inside (a missing tool) is counted by the quickstart from these lines
    expect_eq "$_rc" 0 "$1 passes against the portable build"
}
inner test_throttling.sh
inner test_event_fast.sh
# the inner runs' checks were made: each printed its ok lines and no FAIL
expect_ge "$(count_lines '^ok: ' inner_test_throttling.sh.log)" 100 "test_throttling.sh made its checks"
expect_ge "$(count_lines '^ok: ' inner_test_event_fast.sh.log)" 50 "test_event_fast.sh made its checks"
