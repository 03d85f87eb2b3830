#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# cross_aarch64.sh: scorep-rt built for aarch64 with Debian's cross toolchain and run under
# qemu-user on this x86-64 machine (docs/design.md, "Portable builds"). Manual: not part of
# make check (it needs packages build-aux/quickstart does not install). About 7 minutes on 2
# cores from scratch (build 3, tests 4), 4 in a built tree.
#
#   bash test/integration/cross_aarch64.sh [BUILDDIR]      (default: _build-aarch64)
#
# What it needs (Debian 12, as root; CROSS_AARCH64_INSTALL=1 makes the script install them):
#   dpkg --add-architecture arm64 && apt-get update
#   apt-get install gcc-aarch64-linux-gnu g++-aarch64-linux-gnu gfortran-aarch64-linux-gnu \
#     gcc-12-plugin-dev-aarch64-linux-gnu qemu-user qemu-user-static \
#     libopen-trace-format2-dev:arm64 zlib1g-dev:arm64 libelf-dev:arm64 libdw-dev:arm64 \
#     libunwind-dev:arm64 libpapi-dev:arm64 libgmp-dev:arm64 libgfortran5:arm64 libc6-dbg:arm64
# (about 700 MB; libgmp-dev:arm64 is for the GCC plugin's headers, libc6-dbg:arm64 names libc's
# start-up frames for the sampling test, as libc6-dbg does on the host). aarch64 programs run
# through binfmt_misc: where qemu-aarch64 is not registered, the script registers it (root,
# /usr/lib/binfmt.d/qemu-aarch64.conf of qemu-user-static), for this boot of the machine.
#
# What it does, in BUILDDIR (configured once, then rebuilt incrementally):
#  1. configure --host=aarch64-linux-gnu without MPI, SHMEM, CUDA and Python, with -Werror; the
#     OpenMP adapter for gcc's libgomp (GOMP_* wrappers; omp-tools.h is the host's, the same for
#     every machine) but no LLVM libomp (arm64's cannot be installed beside the host's, so
#     clang's OpenMP is left out); make all, install and the tests' programs: the runtime, the
#     tools and the GCC plugin (for an aarch64 gcc);
#  2. the same GCC plugin built for this machine against the cross gcc's plugin headers
#     (BUILDDIR/xplugin), which aarch64-linux-gnu-gcc loads, and BUILDDIR/xbin, where gcc, g++,
#     gfortran, clang, objdump... are the cross tools, first on the tests' PATH;
#  3. a small program under both instrumentations, profile and trace: exact visits, the trace
#     read by the host's otf2-print; test/omp/parallel.c on libgomp: its forks and teams;
#  4. the repository's tests listed below (CROSS_AARCH64_TESTS=... another list) through
#     make check against BUILDDIR: each must pass.
# Exit status: 0 when all passed, 1 on a failure, 77 when the toolchain or packages are absent.
# qemu runs aarch64 code with the host's (x86-64, TSO) memory ordering: the weak memory model
# of a real aarch64 machine is not tested here.
set -eu -o pipefail
top_srcdir=$(cd "$(dirname "$0")/../.." && pwd -P)
B=${1:-$top_srcdir/_build-aarch64}
mkdir -p "$B"
B=$(cd "$B" && pwd -P)
T=aarch64-linux-gnu

host_pkgs="gcc-$T g++-$T gfortran-$T gcc-12-plugin-dev-$T qemu-user qemu-user-static"
arm_pkgs="libopen-trace-format2-dev zlib1g-dev libelf-dev libdw-dev libunwind-dev libpapi-dev
    libgmp-dev libgfortran5 libc6-dbg"
missing=""
for p in $host_pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
for p in $arm_pkgs; do
    dpkg-query -W -f='${Status}' "$p:arm64" 2>/dev/null | grep -q "install ok installed" ||
        missing="$missing $p:arm64"
done
if [ -n "$missing" ] && [ "${CROSS_AARCH64_INSTALL:-0}" = 1 ]; then
    echo "== installing:$missing"
    dpkg --add-architecture arm64
    apt-get update -qq
    # shellcheck disable=SC2086 # one word per package
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >"$B/apt.log" 2>&1 ||
        { tail -20 "$B/apt.log"; exit 1; }
    missing=""
fi
if [ -n "$missing" ]; then
    echo "SKIP: the aarch64 cross toolchain or arm64 packages are not installed:$missing"
    echo "      (see the top of $0, or run it with CROSS_AARCH64_INSTALL=1 as root)"
    exit 77
fi

# aarch64 programs must start as if native: the tests run them, and scorep-cc, by name
printf 'int main(void) { return 42; }\n' >"$B/probe.c"
"$T-gcc" -o "$B/probe" "$B/probe.c"
probe_rc=0
"$B/probe" 2>/dev/null || probe_rc=$?
if [ "$probe_rc" != 42 ]; then
    conf=/usr/lib/binfmt.d/qemu-aarch64.conf
    if [ "$(id -u)" = 0 ] && [ -r "$conf" ]; then
        [ -e /proc/sys/fs/binfmt_misc/register ] ||
            mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
        echo "== registering qemu-aarch64 with binfmt_misc ($conf)"
        cat "$conf" >/proc/sys/fs/binfmt_misc/register
    fi
    probe_rc=0
    "$B/probe" 2>/dev/null || probe_rc=$?
    if [ "$probe_rc" != 42 ]; then
        echo "SKIP: aarch64 programs do not run here (qemu-aarch64 not registered with binfmt_misc)"
        exit 77
    fi
fi

echo "== 1. the aarch64 build in $B"
[ -x "$top_srcdir/configure" ] || (cd "$top_srcdir" && ./bootstrap >/dev/null)
args="--host=$T --prefix=$B/_install --with-mpi=no --with-shmem=no --enable-ompt=check
    --with-libomp=/nonexistent --with-cuda=no --enable-python=no --without-llvm-config"
# configured again when these arguments changed (a tree of an older version of this script)
if [ ! -f "$B/Makefile" ] || [ "$(cat "$B/cross_aarch64.args" 2>/dev/null)" != "$args" ]; then
    rm -f "$B/cross_aarch64.args"
    # shellcheck disable=SC2086 # one word per argument
    (cd "$B" && PKG_CONFIG_LIBDIR=/usr/lib/$T/pkgconfig:/usr/share/pkgconfig \
        "$top_srcdir/configure" $args PKG_CONFIG=pkg-config >configure.out 2>&1) ||
        { tail -20 "$B/configure.out"; exit 1; }
    echo "$args" >"$B/cross_aarch64.args"
fi
# two makes, one after the other: `all` runs a make of its own for BUILT_SOURCES
(cd "$B" && nice make -j"$(nproc)" all >make.out 2>&1 && nice make install >install.out 2>&1 &&
    nice make -j"$(nproc)" check TESTS= >make_check.out 2>&1) ||
    { grep -E -m 10 'error|\*\*\*' "$B"/make*.out "$B/install.out"; exit 1; }

echo "== 2. the GCC plugin for the cross gcc, and the cross tools by their plain names"
P=$("$T-gcc" -print-file-name=plugin)
mkdir -p "$B/xplugin" "$B/xbin"
gcc -c -fPIC -O2 -Wall -Wextra -Werror -std=gnu11 -D_GNU_SOURCE -I"$top_srcdir/src" \
    -I"$top_srcdir/include" -I"$B" -o "$B/xplugin/filter.o" "$top_srcdir/src/filter/filter.c"
g++ -shared -fPIC -O2 -Wall -Wextra -Werror -fno-rtti -D_GNU_SOURCE -I"$top_srcdir/src" -I"$B" \
    -isystem "$P/include" -o "$B/xplugin/scorep_filter_gcc.so" \
    "$top_srcdir"/src/adapters/compiler/gcc_plugin/*.cc "$B/xplugin/filter.o"
for t in gcc g++ gfortran objdump readelf nm ar strip; do ln -sf "/usr/bin/$T-$t" "$B/xbin/$t"; done
ln -sf "/usr/bin/$T-gcc" "$B/xbin/cc"
ln -sf "/usr/bin/$T-g++" "$B/xbin/c++"
# clang is a cross compiler itself (-finstrument-functions: no LLVM plugin in this build)
printf '#!/bin/sh\nexec /usr/bin/clang --target=%s "$@"\n' $T >"$B/xbin/clang"
printf '#!/bin/sh\nexec /usr/bin/clang++ --target=%s "$@"\n' $T >"$B/xbin/clang++"
chmod +x "$B/xbin/clang" "$B/xbin/clang++"
export PATH="$B/xbin:$PATH" TEST_GCC_PLUGIN="$B/xplugin/scorep_filter_gcc.so"

echo "== 3. a program built for aarch64, measured under qemu"
export top_srcdir top_builddir="$B"
# shellcheck source=test/integration/lib.sh
. "$top_srcdir/test/integration/lib.sh"
cat >app.c <<'EOF'
#include <stdio.h>
volatile int sink;
__attribute__((noinline)) static void leaf(int i) { sink += i; }
__attribute__((noinline)) static void mid(int n) { for (int i = 0; i < n; i++) leaf(i); }
int main(void) { for (int k = 0; k < 7; k++) mid(11); printf("sink %d\n", sink); return 0; }
EOF
for im in functions plugin; do
    scorep_cc --instrument=$im gcc -O2 -o app_$im app.c
    run_to app_$im.elf readelf -h app_$im
    expect_grep '^ *Machine: *AArch64$' app_$im.elf "$im: the program is for aarch64"
    run_app $im env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=exp_$im ./app_$im
    expect_eq "$status:$(cat $im.out)" "0:sink 385" "$im: runs under qemu"
    expect_eq "$(cat $im.err)" "" "$im: nothing on stderr"
    for pv in "main 1" "main/mid 7" "main/mid/leaf 77"; do
        expect_eq "$(profile_sum exp_$im "${pv% *}" visits)" "${pv#* }" "$im: profile: ${pv% *} visits"
    done
    # the host's otf2-print reads the aarch64 trace
    run_to $im.otf2 otf2-print exp_$im/traces.otf2
    for rv in "main 1" "mid 7" "leaf 77"; do
        for ev in ENTER LEAVE; do
            expect_eq "$(count_lines "^$ev .*Region: \"${rv% *}\"" $im.otf2)" "${rv#* }" \
                "$im: otf2-print: ${rv% *} ${ev}s"
        done
    done
done

# OpenMP on libgomp (the GOMP_* wrappers): parallel.c's 10 flat regions of 4 threads, 5 outer
# of 2 each opening an inner of 3 (test_omp_parallel.sh's counts)
expect_eq "$(count_out ' T ompt_start_tool$' nm -D "$B/.libs/libscorep-rt.so")" 1 \
    "the build has its OpenMP (OMPT) adapter"
scorep_cc gcc -fopenmp -o par "$top_srcdir/test/omp/parallel.c"
run_app par env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=exp_par ./par
expect_eq "$status:$(cat par.out)" "0:calls 70" "OpenMP: runs under qemu"
run_to par.otf2 otf2-print exp_par/traces.otf2
for ev in "THREAD_FORK 25" "THREAD_JOIN 25" "THREAD_TEAM_BEGIN 80" "THREAD_TEAM_END 80"; do
    expect_eq "$(count_lines "^${ev% *} " par.otf2)" "${ev#* }" "OpenMP: ${ev% *} records"
done

echo "== 4. the repository's tests against the aarch64 build"
# Left out: the tests of MPI, SHMEM, CUDA and Python (not in this build: they skip) and of
# OpenMP (each builds with clang too: LLVM's libomp);
# test_metric_papi.sh and test_metric_perf.sh (qemu-user has no perf_event_open: ENOSYS);
# test_sampling.sh, test_fortran_plugin.sh and test_score.sh (timing: under emulation a timer
# sample can fall into an enter hook, an extra visit of cold, and scorep-score -g's rule for
# cheap regions sees emulated times: inner, or even leaf, not listed in some runs);
# test_build_systems.sh (its MPI part takes the host's mpicc); test_portable_paths.sh (x86-64
# only).
default_tests="test/unit/test_config test/unit/test_filter test_cube_roundtrip
test_cube_tar_blocks test/unit/test_cube_synth.sh test/unit/test_symbols
test/unit/test_symbols_nopie test/unit/test_symbols_cxx test/unit/test_memory_map
test/unit/test_taskgraph test/unit/test_otf2_defs_load test/unit/test_core
test/unit/test_profile_check.sh test/unit/test_rewind.sh test/unit/test_subsystem.sh
test/unit/test_selective_file test/systree/test_systree_names test/systree/test_systree_seq
test/systree/test_systree_build test/systree/test_systree_comm_sim
test/systree/test_systree_sim.sh test/analysis/test_an_net test/integration/test_scorep_cc.sh
test/integration/test_calls.sh test/integration/test_cxx.sh test/integration/test_user.sh
test/integration/test_user_dynamic.sh test/integration/test_user_fortran.sh
test/integration/test_filter.sh test/integration/test_filter_compile.sh
test/integration/test_config.sh test/integration/test_experiment_dir.sh
test/integration/test_memory_full.sh test/integration/test_signals.sh
test/integration/test_instrument_kept.sh test/integration/test_rescue_serial.sh
test/integration/test_memory_recording.sh test/integration/test_memory_attributes.sh
test/integration/test_min_duration.sh
test/integration/test_event_fast.sh test/integration/test_longjmp.sh
test/integration/test_longjmp_regions.sh test/integration/test_setjmp_semantics.sh
test/integration/test_throttling.sh test/integration/test_metric_rusage.sh test/integration/test_metric_plugins.sh
test/integration/test_chrome_export.sh test/integration/test_pthread_locks.sh
test/integration/test_io.sh test/integration/test_io_more.sh test/integration/test_selective.sh
test/integration/test_substrate_plugins.sh"
tests=$(echo "${CROSS_AARCH64_TESTS:-$default_tests}" | tr '\n' ' ')
check_rc=0
# without lib.sh's settings (SCOREP_CC_INSTRUMENT_THRESHOLD...): a test that does not source
# lib.sh (test_scorep_cc.sh) must see the environment make check gives it
(for v in $(env | sed -n 's/^\(SCOREP_[A-Za-z0-9_]*\)=.*/\1/p'); do unset "$v"; done
    cd "$B" && nice make -k -j"$(nproc)" check TESTS="$tests" >"$work/check.out" 2>&1) || check_rc=$?
grep -E '^(PASS|FAIL|SKIP|ERROR|XPASS|XFAIL):' "$work/check.out" >results || fail "no test result"
cat results
sed -n 's/^\(FAIL\|ERROR\|XPASS\): //p' results >failed
while read -r f; do
    echo "---- $B/${f%.sh}.log"
    tail -n 30 "$B/${f%.sh}.log"
done <failed
expect_eq "$(count_lines '^(FAIL|ERROR|XPASS):' results)" 0 "no test failed"
expect_eq "$(count_lines '^SKIP:' results)" 0 "no test skipped"
expect_eq "$(count_lines '^(PASS|XFAIL):' results)" "$(echo "$tests" | wc -w)" "every test listed passed"
expect_eq "$check_rc" 0 "make check passed"
done_ok
